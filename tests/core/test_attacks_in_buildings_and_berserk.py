"""Issue 31's rule errors: attacks within a building (B23.25, B23.26, B23.88), berserk and hero limits (A15.23,
A15.24, A15.41, A15.42, A15.432), the AFPh's halving of a MOL's Small Arms FP (A22.1, A22.611), and an Immobilized
vehicle in a Blaze (B25.4).  Each was reproduced with the command line first; the CLI tests repeat that."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.errors import IllegalAction
from asl_vassal_bridge.core.firestarts import kindling_check
from asl_vassal_bridge.core.flamethrower import ConsequenceKind as Kind
from asl_vassal_bridge.core.flamethrower import FtAttack, ft_attack
from asl_vassal_bridge.core.molotov import FireType, MolAttack, mol_attack, resolve_mol_attack
from asl_vassal_bridge.core.position import Clock, Phase, Position, Unit, UnitKind
from asl_vassal_bridge.core.terrain import BuildingKind, Material

from .builders import L, building, grid, pos

# B2-B3-C2: a stone Multi-Story Building, its stairwell in B2, with rooftops; D4-D5: a wooden Two Story House
# (inherent stairwells) with rooftops; F2-F3: a 1½-level Factory with rooftops, F2 on a road (a Rooftop Access
# Point, B23.87), F3 not.


def town(phase: Phase = Phase.PFPH, units: tuple[Unit, ...] = ()) -> Position:
    hexes = grid("A-G", "1-6")
    hexes[L("B2").hex] = hexes[L("B2").hex].__class__(stairwell=True)
    hexes[L("F2").hex] = hexes[L("F2").hex].__class__(road=True)
    bs = [building(hexes, "b", Material.STONE, ["B2", "B3", "C2"], BuildingKind.MULTI_STORY, rooftop=True),
          building(hexes, "h", Material.WOODEN, ["D4", "D5"], BuildingKind.TWO_STORY, rooftop=True),
          building(hexes, "f", Material.STONE, ["F2", "F3"], BuildingKind.FACTORY, rooftop=True)]
    p = pos(hexes, bs, clock=Clock(2, 1, phase))
    return p.with_(units=units)


def mol(p: Position, frm: str, to: str, **kw: Any) -> MolAttack:
    args: dict[str, Any] = {"thrower_fp": 4, "thrower_id": "4-6-7", "available": True}
    args.update(kw)
    return MolAttack(p.map.parse_location(frm), p.map.parse_location(to), **args)


def ft(p: Position, frm: str, to: str, **kw: Any) -> FtAttack:
    return FtAttack(p.map.parse_location(frm), p.map.parse_location(to), **kw)


# --- error 1: B23.88, A22.611: another Location of the same hex is PBF, not TPBF ---------------------------------


@pytest.mark.parametrize(("frm", "to"), [("B2", "B2.1"), ("B2.1", "B2.2"), ("B2.2", "B2.roof"),
                                         ("F2", "F2.roof"), ("D4.1", "D4.roof")])
def test_b23_88_a22_611_a_mol_between_two_locations_of_one_hex_is_pbf_not_tpbf(frm: str, to: str) -> None:
    """4 FP × 2 (PBF) + 4 = 12, not × 3 (TPBF) + 4 = 16: TPBF is within one Location only."""
    p = town()
    plan = mol_attack(p, mol(p, frm, to))
    assert plan.range == 0 and not plan.tpbf and plan.multiplier == 2
    assert plan.fp_with_mol == 12 and plan.fp_without_mol == 8
    assert plan.as_data(p)["tpbf"] is False
    assert "(PBF, range 0)" in plan.describe(p)


def test_a22_611_a_mol_within_its_own_location_is_still_tpbf() -> None:
    p = town()
    plan = mol_attack(p, mol(p, "B2.1", "B2.1"))
    assert plan.tpbf and plan.fp_with_mol == 16 and "(TPBF, range 0)" in plan.describe(p)


# --- error 2: B23.26: up or down a stairwell only to the next level ------------------------------------------------


@pytest.mark.parametrize(("frm", "to"), [("B2", "B2.2"), ("B2.2", "B2"), ("B2.1", "B2.roof"), ("D4", "D4.roof")])
def test_b23_26_ft_and_mol_two_levels_apart_in_one_hex_are_refused(frm: str, to: str) -> None:
    p = town()
    with pytest.raises(IllegalAction, match=r"B23\.26"):
        ft_attack(p, ft(p, frm, to))
    with pytest.raises(IllegalAction, match=r"B23\.26"):
        mol_attack(p, mol(p, frm, to))


# --- error 3: B23.25, B23.23: no LOS between building Locations no stairwell connects ------------------------------


@pytest.mark.parametrize(("frm", "to", "rule"), [
    ("B3", "B3.1", r"B23\.25, B23\.23"),  # a non-stairwell hex of a Multi-Story Building
    ("C2.1", "C2", r"B23\.25, B23\.23"),
    ("B2.1", "B3", r"B23\.25"),  # Level 1 of one hex and the ground of the next
    ("B2", "C2.1", r"B23\.25"),
    ("F3", "F3.roof", r"B23\.87"),  # a Factory hex that is no Rooftop Access Point
])
def test_b23_25_ft_and_mol_between_unconnected_building_locations_are_refused(frm: str, to: str, rule: str) -> None:
    p = town()
    with pytest.raises(IllegalAction, match=rule):
        ft_attack(p, ft(p, frm, to))
    with pytest.raises(IllegalAction, match=rule):
        mol_attack(p, mol(p, frm, to))


@pytest.mark.parametrize(("frm", "to"), [("B2", "B2.1"), ("D5", "D5.1"), ("B2.1", "B3.1"), ("B2", "C2"),
                                         ("B3.2", "B3.roof"), ("F2", "F2.roof"), ("B2.roof", "C2.roof"),
                                         ("B2.roof", "C2.2"), ("A2", "B2.1")])
def test_b23_25_connected_or_same_level_or_rooftop_locations_keep_their_attacks(frm: str, to: str) -> None:
    """A stairwell (printed, inherent in a Two Story House, a rooftop's to the level below, a Factory's Rooftop
    Access Point) or the same level of adjacent hexes: ADJACENT; rooftops and outside firers are not judged."""
    p = town()
    assert ft_attack(p, ft(p, frm, to)).fp in (24, 12)
    assert mol_attack(p, mol(p, frm, to)).fp_with_mol in (12, 16)


def test_b23_25_cli_reproduction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's reproduction: ``ft … --from B2 --to B2.2`` was legal with 12 FP; now exit 2 naming B23.26."""
    from asl_vassal_bridge.cli import main

    src = tmp_path / "p.toml"
    src.write_text('format = 1\nsides = ["German", "Russian"]\n[clock]\nturn = 2\nhalf = 1\nphase = "PFPh"\n'
                   '[map]\ncolumns = "A-D"\nrows = "1-4"\n[[buildings]]\nid = "b"\nmaterial = "stone"\n'
                   'kind = "multi-story"\nhexes = ["B2", "B3"]\nstairwells = ["B2"]\n', encoding="utf-8")
    assert main(["ft", str(src), "--from", "B2", "--to", "B2.2"]) == 2
    assert "B23.26" in capsys.readouterr().err
    assert main(["mol", str(src), "--from", "B3", "--to", "B3.1", "--fp", "4"]) == 2
    assert "B23.25" in capsys.readouterr().err
    assert main(["mol", str(src), "--from", "B2", "--to", "B2.1", "--fp", "4"]) == 0
    assert "FP with the MOL: 12" in capsys.readouterr().out


# --- errors 4 and 5: a berserk unit neither clears nor directs (A15.41, A15.42, A15.46) ----------------------------


def _clear_position(tmp_path: Path, units: str) -> Path:
    src = tmp_path / "c.toml"
    src.write_text('format = 1\nsides = ["German", "Russian"]\n[clock]\nturn = 2\nhalf = 1\nphase = "MPh"\n'
                   '[map]\ncolumns = "A-D"\nrows = "1-4"\n[[map.terrain]]\nkind = "woods"\nhexes = ["B2"]\n'
                   '[[fires]]\nat = "B2"\nkind = "flame"\n' + units, encoding="utf-8")
    return src


def _unit(uid: str, name: str, kind: str, **flags: bool) -> str:
    extra = "".join(f"{k} = true\n" for k, v in flags.items() if v)
    return f'[[units]]\nid = "{uid}"\nname = "{name}"\nside = "German"\nat = "B2"\nkind = "{kind}"\n{extra}'


def test_flame_clearance_a15_46_a_berserk_squad_is_no_clearing_unit(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Fire cheat sheet (Flame Clearance): unpinned Good Order Infantry clear; a berserk unit returns to Good Order
    only when its berserk status ends (A15.46)."""
    from asl_vassal_bridge.cli import main

    src = _clear_position(tmp_path, _unit("s1", "4-6-7", "squad", berserk=True))
    assert main(["clear", str(src), "--at", "B2", "--odds"]) == 2
    assert "no unpinned Good Order" in capsys.readouterr().err
    src = _clear_position(tmp_path, _unit("s1", "4-6-7", "squad", berserk=True) + _unit("s2", "4-6-7", "squad"))
    assert main(["clear", str(src), "--at", "B2", "--odds", "--json"]) == 0
    out = capsys.readouterr().out
    assert "s2" in out and "s1" not in out and '"value": -2' not in out  # one squad: −1, not −1 −2


def test_a15_41_a15_42_a_berserk_leader_directs_neither_clearance_nor_kindling(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    src = _clear_position(tmp_path, _unit("s1", "4-6-7", "squad") + _unit("l1", "8-1", "leader", berserk=True))
    assert main(["clear", str(src), "--at", "B2", "--odds", "--json"]) == 0
    assert "leadership" not in capsys.readouterr().out
    kindle = tmp_path / "k.toml"
    kindle.write_text(src.read_text(encoding="utf-8").replace('phase = "MPh"', 'phase = "PFPh"')
                      .replace('[[fires]]\nat = "B2"\nkind = "flame"\n', ""), encoding="utf-8")
    assert main(["kindle", str(kindle), "--at", "B2", "--unit", "squad", "--odds"]) == 2
    assert "B25.11" in capsys.readouterr().err  # no Good Order leader to direct the squad


def test_a15_42_a_berserk_thrower_gets_no_leadership_in_a_fire_group() -> None:
    p = town(Phase.AFPH)
    plan = mol_attack(p, mol(p, "A1", "A2", berserk=True, other_fp=4, fg_units=2, leader_drm=-1))
    assert not plan.leadership_applies and all(d.rule != "A22.62" for d in plan.drms)
    assert any(e.rule == "A15.42" for e in plan.notes)
    out = resolve_mol_attack(p, plan, ScriptedDice([6, 2, 3]))  # MOL Check fails: still no leadership (A7.53)
    (attack,) = out.of_kind(Kind.IFT_ATTACK)
    assert attack.drm == 0


# --- error 6: A15.432: a berserk unit never fires in its PFPh --------------------------------------------------


def test_a15_432_a_berserk_units_mol_and_ft_prep_fire_are_refused() -> None:
    p = town(Phase.PFPH)
    with pytest.raises(IllegalAction, match=r"A15\.432"):
        mol_attack(p, mol(p, "A1", "A2", berserk=True))
    with pytest.raises(IllegalAction, match=r"A15\.432"):
        mol_attack(town(Phase.AFPH), mol(p, "A1", "A2", berserk=True, fire=FireType.PREP))
    with pytest.raises(IllegalAction, match=r"A15\.432"):
        ft_attack(p, ft(p, "A1", "A2", berserk=True))
    with pytest.raises(IllegalAction, match=r"A15\.432"):
        kindling_check(p, L("B2"), UnitKind.SQUAD, leader_drm=0, berserk=True)


@pytest.mark.parametrize("phase", [Phase.AFPH, Phase.DFPH, Phase.MPH])
def test_a15_432_a_berserk_unit_fires_in_its_afph_and_the_dfph_or_opponents_mph(phase: Phase) -> None:
    p = town(phase)
    assert mol_attack(p, mol(p, "A1", "A2", berserk=True)).fp_with_mol in (8, 12)
    assert ft_attack(p, ft(p, "A1", "A2", berserk=True)).fp == 24


def test_a15_432_cli_berserk_prep_fire_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["mol", "--fp", "4", "--berserk"]) == 2
    assert "A15.432" in capsys.readouterr().err
    assert main(["ft", "--berserk"]) == 2
    assert "A15.432" in capsys.readouterr().err
    assert main(["mol", "--fp", "4", "--berserk", "--phase", "AFPh"]) == 0


# --- error 7: A15.24: a hero's MOL attack gets the −1 IFT DRM ------------------------------------------------------


@pytest.mark.parametrize("who", [{"thrower_kind": UnitKind.HERO, "thrower_fp": 1},
                                 {"thrower_kind": UnitKind.LEADER, "heroic": True, "thrower_fp": 1}])
def test_a15_24_a_heros_mol_attack_gets_the_heroic_minus_1(who: dict[str, Any]) -> None:
    """Only FT and DC attacks are excepted from the heroic DRM (A15.24); a MOL attack is an IFT attack."""
    p = town()
    plan = mol_attack(p, mol(p, "A1", "A2", **who))
    assert [(d.value, d.rule) for d in plan.drms] == [(-1, "A15.24")]
    assert plan.total_drm == -1


def test_a15_24_the_heroic_drm_stays_off_a_ft_attack() -> None:
    p = town()
    plan = ft_attack(p, ft(p, "A1", "A2", firer_kind=UnitKind.HERO, heroic=True))
    assert plan.total_drm == 0


# --- error 8: A15.432, A22.1, A22.611: a MOL in the AFPh halves the Small Arms FP before the +4 --------------------


def test_a22_611_a15_432_a_mol_attack_in_the_afph_halves_the_small_arms_fp_before_the_mol() -> None:
    """4 FP squad, PBF, AFPh: 4 × 2 / 2 + 4 = 8 (not 12)."""
    p = town(Phase.AFPH)
    plan = mol_attack(p, mol(p, "A1", "A2"))
    assert plan.fp_with_mol == 8 and plan.fp_without_mol == 4
    assert mol_attack(p, mol(p, "A1", "A2", fire=FireType.FINAL)).fp_with_mol == 12
    assert mol_attack(p, mol(p, "A1", "A2", fp_halvings=1)).fp_with_mol == 6  # Area Fire too: halved twice


def test_a22_611_cli_mol_in_the_afph(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["mol", "--fp", "4", "--phase", "AFPh"]) == 0
    assert "FP with the MOL: 8 → IFT column 8" in capsys.readouterr().out


def test_a15_23_a_hero_whose_mol_check_fails_makes_no_attack() -> None:
    """A hero using a SW forfeits his own FP (A15.23): a failed MOL Check leaves nothing to attack with (the
    attack's DR is not rolled)."""
    p = town()
    plan = mol_attack(p, mol(p, "A1", "A2", thrower_kind=UnitKind.HERO, thrower_fp=1))
    assert plan.fp_without_mol == 0 and "if the check fails: no attack" in plan.describe(p)
    out = resolve_mol_attack(p, plan, ScriptedDice([1]))
    assert out.original_dr is None and not out.has(Kind.IFT_ATTACK) and out.has(Kind.ATTACK_CANCELLED)
