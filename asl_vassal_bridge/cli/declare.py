"""The options that declare a FT or MOL attack (A22), one definition for ``asl-fire ft|mol`` and for the live
game's ``asl-fire bridge attack ft|mol``: the target AFV, the FT's and the MOL's own circumstances."""

from __future__ import annotations

import argparse

from .options import BASIC_TK, FG_UNITS, GROUP_FP, HALVINGS, HINDRANCE_DRM, TEM, TK_MODS, ift_result, unit_fp

__all__ = ["add_afv_target", "add_ft_declaration", "add_mol_declaration", "add_mol_vs_afv"]

_Group = argparse.ArgumentParser | argparse._ArgumentGroup


def add_afv_target(g: _Group, vs_afv_help: str = "the target is an AFV") -> None:
    """The AFV attacked: its Basic TK# (C7.34) and what it shows (CE, OT, Vulnerable PRC)."""
    g.add_argument("--vs-afv", action="store_true", help=vs_afv_help)
    g.add_argument("--predesignated", action="store_true", help="the AFV was predesignated as the target "
                   "(A22.34, A22.612)")
    g.add_argument("--basic-tk", type=BASIC_TK, help="Basic TK# from the C7.34 HE & Flame To Kill Table")
    g.add_argument("--ce", action="store_true", help="the AFV is CE")
    g.add_argument("--ot", action="store_true", help="the AFV is OT")
    g.add_argument("--vulnerable-prc", action="store_true", help="the AFV's PRC are Vulnerable")


def add_mol_vs_afv(g: _Group) -> None:
    """A MOL's own terms vs an AFV (A22.612)."""
    g.add_argument("--moving", action="store_true", help="MOL: the AFV is Non-Stopped (A22.612)")
    g.add_argument("--tk-mod", type=TK_MODS, default=0, help="MOL: Rear Armor / Elevation Advantage TK# mods "
                   "(C7.21-.22)")
    g.add_argument("--prc-result", type=ift_result,
                   help="MOL: the IFT result of the Specific Collateral attack on Vulnerable PRC")


def add_ft_declaration(g: _Group) -> None:
    """A FT's circumstances (A22.1-.5, B25.63)."""
    g.add_argument("--underscored", action="store_true", help="vehicular FT with Normal Range 2")
    g.add_argument("--non-elite", action="store_true", help="non-elite user: captured-SW X# penalty (A22.3)")
    g.add_argument("--captured", action="store_true", help="a captured FT (A22.3, A21.11)")
    g.add_argument("--area-fire", action="store_true",
                   help="a form of Area Fire (e.g. vs concealed units): FP halved, in the AFPh too; the AFPh alone "
                   "never halves a FT (A22.1)")
    g.add_argument("--original-ift-result", type=ift_result,
                   help="the IFT result read with the ORIGINAL DR (the fire start keys on an Original K/KIA, B25.12); "
                   "without it --ift-result serves only when the attack has no DRM")
    g.add_argument("--cower", type=int, default=1, choices=(0, 1, 2),
                   help="columns the FT shifts on Original doubles (A7.9; 0 never cowers, 2 Inexperienced)")
    g.add_argument("--hindrance", type=HINDRANCE_DRM, default=0, metavar="DRM", help="LOS Hindrance DRM (A22.2)")
    g.add_argument("--los-obstructed", action="store_true", help="the LOS is obstructed: no Long Range (A22.32)")
    g.add_argument("--with-wind", action="store_true", help="firing directly with the wind (B25.63)")
    g.add_argument("--fire-group", action="store_true", help="combining with other FP (A22.31)")
    g.add_argument("--overrun", action="store_true", help="part of an OVR (A22.31)")
    g.add_argument("--used-ft-dc", action="store_true", help="the unit already used a FT/DC this Player Turn")
    g.add_argument("--paratroops", action="store_true", help="the target is descending paratroops (A22.33)")
    g.add_argument("--pillbox-tem", type=TEM, metavar="TEM", help="non-CA attack on a pillbox: its TEM (B30.113)")


def add_mol_declaration(g: _Group, *, fp_required: bool, fp_help: str) -> None:
    """A MOL's circumstances (A22.6-.62): the thrower, its Fire Group, the target's TEM and hexside."""
    g.add_argument("--fp", type=unit_fp, required=fp_required, help=fp_help)
    g.add_argument("--fg-fp", type=GROUP_FP, default=0, help="FP of the rest of the Fire Group")
    g.add_argument("--fg-units", type=FG_UNITS, default=1, help="units in the Fire Group, thrower included")
    g.add_argument("--unavailable", action="store_true", help="no SSR/DYO provides MOL in this scenario (A22.6)")
    g.add_argument("--fire", help="prep, dff, sff, fpf, final, advancing or opportunity (default from the "
                   "phase)")
    g.add_argument("--first-fire-check", action="store_true",
                   help="the unit made a MOL Check in Defensive First Fire this Player Turn")
    g.add_argument("--broken", action="store_true", help="the thrower is broken")
    g.add_argument("--berserk", action="store_true", help="the thrower is Berserk (never breaks on a colored 6, "
                   "A15.42; never fires in its PFPh, A15.432)")
    g.add_argument("--heroic", action="store_true", help="the thrower is a heroic leader (never breaks, A15.2)")
    g.add_argument("--halvings", type=HALVINGS, default=0, help="times the Small Arms FP is halved (Area Fire…)")
    g.add_argument("--tem", type=TEM, help="the target's TEM (default: read from the map, B23)")
    g.add_argument("--bypassing", action="store_true", help="the target is Bypassing: no building TEM (B23.31)")
    g.add_argument("--woods-hexside", action="store_true", help="the hexside is a woods/orchard hexside (A22.611)")
    g.add_argument("--road", action="store_true", help="across a road hexside vs a unit on the road (A22.611)")
