"""The widget's FT/MOL tool (A22) and Heat of Battle panel (A15), without any drawing.

A form (a small immutable value) is turned into a core declaration
(``FtAttack``/``MolAttack``, ``HobUnit``); the preview shows what the core says
about it (legal or the refusing rule, FP, DRMs, the MOL Check and Heat of
Battle odds); the rules all come from ``asl_vassal_bridge.core``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from fractions import Fraction

from asl_vassal_bridge.core import BadInput, Location, Phase, Position, UnitKind
from asl_vassal_bridge.core.explain import DRM, format_drms
from asl_vassal_bridge.core.flamethrower import FtAttack, FtPlan, ft_attack
from asl_vassal_bridge.core.heat_of_battle import (
    HobResult,
    HobSituation,
    HobUnit,
    OutcomeChance,
    battle_hardening,
    hob_drms,
    hob_odds,
    not_subject,
)
from asl_vassal_bridge.core.molotov import MolAttack, MolPlan, location_tem, mol_attack
from asl_vassal_bridge.core.units import NationalCatalogue, Nationality, parse_nationality
from asl_vassal_bridge.core.values import replace

from .colours import ERROR

__all__ = ["HOB_FLAGS", "HOB_SITUATION", "AttackForm", "AttackPreview", "HobForm", "HobPreview", "attack_preview",
           "build_attack", "hob_preview", "hob_unit", "tem_line"]

#: Heat of Battle unit flags the panel offers: form field → label (A15.1 DRM and exceptions).
HOB_FLAGS: dict[str, str] = {"broken": "broken (+1)", "elite": "Elite (−1)", "inexperienced": "Inexperienced (+1)",
                             "fanatic": "Fanatic", "ss": "SS", "nkvd": "NKVD", "gurkha": "Gurkha",
                             "commissar": "Commissar"}
#: Heat of Battle situation flags: form field → label (A15.44, A15.5).
HOB_SITUATION: dict[str, str] = {"no_enemy_in_los": "no Known enemy in LOS (A15.44)",
                                 "adjacent_enemy": "ADJACENT Known GO enemy (A15.5)",
                                 "no_quarter": "No Quarter (A15.5)", "vs_russians": "vs Russians"}


def _pct(p: Fraction | float) -> str:
    return f"{float(p):.1%}"


# ---------------------------------------------------------------------------------------------- FT / MOL


@dataclass(frozen=True)
class AttackForm:
    """The FT/MOL declaration as the form holds it: Locations by name, options as plain values (A22)."""

    weapon: str = "MOL"  # "FT" or "MOL"
    firer: str = ""  # Location name, e.g. "I4.1"; empty: the firer unit's Location
    firer_unit: str = ""  # a unit id of the Position, or "" for none
    target: str = ""
    phase: Phase | None = None  # None: the Position's phase
    fp: float = 4.0  # MOL: the thrower's own FP (A22.611)
    fg_fp: float = 0.0  # MOL: the rest of the Fire Group
    fg_units: int = 1
    kind: UnitKind | None = None  # None: the firer unit's kind, else squad
    cx: bool = False
    pinned: bool = False
    leader_drm: int = 0
    available: bool = True  # MOL provided by SSR/DYO (A22.6)
    area_fire: bool = False  # FT (A22.1)
    non_elite: bool = False  # FT user not elite (A22.3)
    captured: bool = False  # FT captured (A22.3)
    hindrance_drm: int = 0  # FT LOS Hindrance (A22.2)
    vs_afv: bool = False
    predesignated: bool = False  # A22.34
    basic_tk: int | None = None  # C7.34 Basic TK#, an input
    afv_ce: bool = False
    afv_ot: bool = False
    vulnerable_prc: bool = False
    afv_moving: bool = False  # MOL vs a Non-Stopped AFV (A22.612)
    ift_result: str = ""  # the IFT result the player reads (labels consequences; FT B25.12 needs K/KIA)
    target_ft: int = 0  # FT possessed by a target Personnel unit: −1 each vs it (A22.4)


def _loc(pos: Position, text: str, what: str) -> Location:
    if not text.strip():
        raise BadInput(f"give the {what} Location (e.g. I4.1) or click it on the map")
    return pos.map.parse_location(text.strip())


def build_attack(pos: Position, form: AttackForm) -> tuple[Position, FtAttack | MolAttack]:
    """The Position the attack happens in (the form's phase) and the core declaration.

    :raises BadInput: for an unknown unit, a Location not on the map, or a bad weapon.
    """
    unit = None
    if form.firer_unit:
        unit = next((u for u in pos.units if u.id == form.firer_unit), None)
        if unit is None:
            raise BadInput(f"no unit {form.firer_unit!r} in the Position")
    if form.firer.strip():
        firer = _loc(pos, form.firer, "firer's")
    elif unit is not None:
        firer = unit.location
    else:
        raise BadInput("give the firer's Location (e.g. I4.1), a firer unit, or click it on the map")
    target = _loc(pos, form.target, "target")
    if form.phase is not None and form.phase is not pos.clock.phase:
        pos = replace(pos, clock=replace(pos.clock, phase=form.phase))
    kind = form.kind or (unit.kind if unit is not None else UnitKind.SQUAD)
    uid = unit.id if unit is not None else ""
    pinned = form.pinned or (unit is not None and unit.is_pinned)  # a berserk unit is never pinned (A15.42)
    cx = form.cx or (unit is not None and unit.is_cx)  # nor CX (A15.42); a CX firer: +1 (A4.51, A22.2)
    if form.weapon == "FT":
        return pos, FtAttack(
            firer, target, firer_kind=kind, firer_id=uid or "FT firer", elite=not form.non_elite,
            captured=form.captured, pinned=pinned, cx=cx, area_fire=form.area_fire,
            hindrance_drm=form.hindrance_drm, leader_drm=form.leader_drm, vs_afv=form.vs_afv,
            predesignated=form.predesignated, basic_tk=form.basic_tk, afv_ce=form.afv_ce, afv_ot=form.afv_ot,
            vulnerable_prc=form.vulnerable_prc, target_ft=form.target_ft,
            berserk=unit is not None and unit.berserk)  # never in its PFPh (A15.432)
    if form.weapon == "MOL":
        return pos, MolAttack(
            firer, target, thrower_fp=form.fp, thrower_kind=kind, thrower_id=uid or "MOL thrower",
            other_fp=form.fg_fp, fg_units=form.fg_units, available=form.available,
            pinned=pinned,
            broken=unit is not None and unit.broken, berserk=unit is not None and unit.berserk, cx=cx,
            leader_drm=form.leader_drm, vs_afv=form.vs_afv, predesignated=form.predesignated,
            basic_tk=form.basic_tk, afv_ce=form.afv_ce, afv_ot=form.afv_ot, afv_stopped=not form.afv_moving,
            vulnerable_prc=form.vulnerable_prc, target_ft=form.target_ft)
    raise BadInput(f"weapon {form.weapon!r}: expected FT or MOL")


@dataclass(frozen=True)
class AttackPreview:
    """What the panel shows for a declaration: legal (with the plan) or the refusal naming its rule."""

    legal: bool
    lines: tuple[str, ...]
    plan: FtPlan | MolPlan | None = None
    position: Position | None = None  # the Position the plan was made in (the form's phase)
    refusal: str = ""
    drms: tuple[DRM, ...] = field(default_factory=tuple)
    mol_check_chance: Fraction | None = None
    #: What is still to choose before there is anything to judge ("" once firer and target are given).
    waiting: str = ""

    def html(self) -> str:
        from html import escape

        ink = "var(--jp-ui-font-color1, #222)"  # the theme's own text colour: ≥ 4.5:1 in light and dark
        if self.waiting:
            return f'<span class="asl-attack-waiting" style="color:{ink}">{escape(self.waiting)}</span>'
        head = (f'<b class="asl-attack-legal" style="color:{ink}">✓ legal</b>' if self.legal
                else f'<b style="color:{ERROR}">not allowed</b>: {escape(self.refusal)}')
        return head + "".join(f"<br>{escape(line)}" for line in self.lines)


def attack_preview(pos: Position, form: AttackForm) -> AttackPreview:
    """The core's verdict on the form: the plan's FP, DRMs with rules, MOL Check chance, or the refusing rule;
    no verdict before a firer and a target are chosen."""
    if not (form.firer or form.firer_unit) or not form.target:
        return AttackPreview(False, (), waiting=f"Choose the {form.weapon}'s firer (a unit or a Location) and its "
                             "target Location, or the FT/MOL firer→target click tool: the verdict, FP, DRMs and "
                             "rules then show here.")
    try:
        p, attack = build_attack(pos, form)
        plan: FtPlan | MolPlan = ft_attack(p, attack) if isinstance(attack, FtAttack) else mol_attack(p, attack)
    except BadInput as e:  # IllegalAction is a BadInput: its message names the rule
        return AttackPreview(False, (), refusal=str(e))
    lines = tuple(line.strip() for line in plan.describe(p).splitlines())
    check = plan.check.chance if isinstance(plan, MolPlan) else None
    if check is not None:
        lines += (f"MOL Check succeeds: {check} ({_pct(check)})",)
    return AttackPreview(True, lines, plan, p, drms=plan.drms, mol_check_chance=check)


def tem_line(pos: Position, loc: Location) -> str | None:
    """The hover line for *loc*'s building/woods TEM (B23.3–B23.921, A22.62), or None when our texts give none."""
    drms = location_tem(pos, loc)
    if not drms:
        return None
    return f"   TEM {sum(d.value for d in drms):+d}: {format_drms(drms)}"


# ---------------------------------------------------------------------------------------------- Heat of Battle


@dataclass(frozen=True)
class HobForm:
    """The Heat of Battle panel: a unit of the Position or a typed designation, nationality and flags (A15)."""

    unit_id: str = ""  # a unit of the Position ("" = use *designation*)
    designation: str = "4-6-7"  # "4-6-7", "2-4-7", "8-1"…
    nationality: Nationality | None = None  # None: from the unit's side
    unit_class: str = ""  # "", elite, 1st, 2nd, green, conscript (when the catalogue cannot tell)
    size: str = ""  # "", squad, half-squad, crew
    flags: frozenset[str] = frozenset()  # keys of HOB_FLAGS and HOB_SITUATION


def _nationality(text: str) -> tuple[Nationality, frozenset[str]]:
    """The nationality a side's name gives, with the status the name carries (Gurkha, SS, NKVD; A15.5)."""
    try:
        return parse_nationality(text)
    except ValueError as e:
        raise BadInput(f"nationality {text!r}: {e}") from None


def hob_unit(pos: Position, form: HobForm) -> tuple[HobUnit, NationalCatalogue, str]:
    """The HobUnit the form describes, its nationality's catalogue, and a note on where it came from.

    :raises BadInput: for an unknown unit id or nationality, a bad designation or an ambiguous unit.
    """
    from asl_vassal_bridge.cli.hob import UNIT_FLAGS, build_unit

    designation = form.designation.strip()
    nationality = form.nationality
    broken = "broken" in form.flags
    size = form.size
    note = "typed"
    statuses: frozenset[str] = frozenset()
    if form.unit_id:
        unit = next((u for u in pos.units if u.id == form.unit_id), None)
        if unit is None:
            raise BadInput(f"no unit {form.unit_id!r} in the Position")
        designation = unit.name
        broken = broken or unit.broken
        if nationality is None:
            nationality, statuses = _nationality(unit.side)
        if not size and unit.kind in (UnitKind.HALF_SQUAD, UnitKind.CREW):
            size = unit.kind.value
        note = f"unit {unit.id} in {pos.loc_name(unit.location)}"
    if nationality is None:
        raise BadInput("choose a nationality for a typed unit")
    if not designation:
        raise BadInput('type the unit, e.g. "4-6-7" or "8-1"')
    ns = argparse.Namespace(unit=designation, nationality=nationality.code, size=size or None,
                            unit_class=form.unit_class or None, commissar="commissar" in form.flags,
                            wounded_hero=False, cavalry=False)
    for opt in UNIT_FLAGS:
        setattr(ns, opt, opt in form.flags or opt in statuses)
    ns.broken = broken
    unit_, _entry, cat = build_unit(ns)
    return unit_, cat, note


def hob_situation(form: HobForm) -> HobSituation:
    """The A15.44/A15.5 situation the form's flags describe."""
    f = form.flags
    return HobSituation(known_enemy_in_los="no_enemy_in_los" not in f,
                        adjacent_known_good_order_enemy="adjacent_enemy" in f, no_quarter="no_quarter" in f,
                        vs_russians="vs_russians" in f)


@dataclass(frozen=True)
class HobPreview:
    """The Heat of Battle panel: the unit, its DRMs, the exact odds of each result, or why it cannot roll."""

    ok: bool
    lines: tuple[str, ...]
    odds: tuple[OutcomeChance, ...] = ()
    drms: tuple[DRM, ...] = ()
    error: str = ""

    def html(self) -> str:
        from html import escape

        parts = [] if self.ok else [f'<b style="color:{ERROR}">{escape(self.error)}</b>']
        return "<br>".join(parts + [escape(line) for line in self.lines])


def hob_preview(pos: Position, form: HobForm) -> HobPreview:
    """DRMs (A15.1) and the chance of each result in 36ths, or the A15.1 exemption / bad input."""
    try:
        unit, cat, note = hob_unit(pos, form)
    except BadInput as e:
        return HobPreview(False, (), error=str(e))
    lines = [f"{unit.describe()} ({note})"]
    exempt = not_subject(unit)
    if exempt:
        return HobPreview(False, tuple(lines), error=f"not subject to Heat of Battle (A15.1): {', '.join(exempt)}")
    drms = hob_drms(unit)
    lines.append(f"DRM: {format_drms(drms)} (no leadership DRM)")
    odds = hob_odds(unit, hob_situation(form))
    for o in odds:
        lo, hi = min(o.finals), max(o.finals)
        finals = str(lo) if lo == hi else f"{lo}–{hi}"
        rules = ", ".join(r.rule for r in o.results)
        lines.append(f"  Final {finals}: {o.label} ({rules}) — {o.ways}/36 ({_pct(o.chance)})")
    if any(HobResult.BATTLE_HARDENING in o.results for o in odds):
        bh = battle_hardening(unit, cat)
        if bh.after:
            lines.append(f"Battle Hardening would give {bh.before} → {bh.after} (A15.3)")
        elif bh.fanatic:
            lines.append(f"Battle Hardening would make {bh.before} Fanatic (A15.3)")
    return HobPreview(True, tuple(lines), odds, drms)
