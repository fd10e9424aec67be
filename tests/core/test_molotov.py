"""MOL attacks (A22.6–A22.62): the A22.62 and A22.6111 examples, and every restriction refused with its rule."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.environment import EC, Environment
from asl_vassal_bridge.core.errors import BadInput, IllegalAction
from asl_vassal_bridge.core.explain import DRM
from asl_vassal_bridge.core.flamethrower import ConsequenceKind as Kind
from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.molotov import FireType, MolAttack, mol_attack, mol_check, resolve_mol_attack
from asl_vassal_bridge.core.position import (
    Clock,
    Fire,
    FireKind,
    GameMap,
    HexInfo,
    Location,
    Phase,
    Position,
    Unit,
    UnitKind,
)
from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material, Terrain


def loc(name: str, level: int = 0) -> Location:
    return Location(Hex.parse(name), level)


X8, W9, X9, Y9 = loc("X8"), loc("W9"), loc("X9"), loc("Y9")
FFNAM = DRM(-1, "FFNAM", "A4.6")
AFV_IN_HEX = DRM(1, "AFV in the Location", "D9")


def board3(phase: Phase = Phase.PFPH, ec: EC = EC.MODERATE, units: tuple[Unit, ...] = ()) -> Position:
    """Board 3 around X8 as in the A22.62 example: X8/X9 one woods patch, W9 another, Y9 open ground."""
    hexes = {
        Hex.parse("X8"): HexInfo(Terrain.WOODS, feature="woods-x"),
        Hex.parse("X9"): HexInfo(Terrain.WOODS, feature="woods-x"),
        Hex.parse("W9"): HexInfo(Terrain.WOODS, feature="woods-w"),
        Hex.parse("Y9"): HexInfo(Terrain.OPEN_GROUND),
    }
    return Position(GameMap.from_hexes(hexes), Environment(ec=ec), Clock(2, 1, phase), units=units)


def partisan(target: Location = W9, **kw: Any) -> MolAttack:
    args: dict[str, object] = dict(thrower_fp=3, thrower_id="3-3-7", available=True)
    args.update(kw)
    return MolAttack(X8, target, **args)  # type: ignore[arg-type]


# --- A22.62 EX, first paragraph: the 10 FP attack ------------------------------------------------------------


def test_a22_62_ex_pbf_mol_attack_uses_the_8_column_and_needs_dr_2() -> None:
    plan = mol_attack(board3(), partisan())
    assert plan.check.needed_original == 2  # +1 vs a non-AFV: rolls ≤ 2
    assert plan.check.chance == Fraction(1, 3)
    assert plan.fp_with_mol == 10 and plan.column_with_mol == 8
    assert plan.fp_without_mol == 6
    assert [(d.value, d.rule) for d in plan.drms] == [(1, "A22.62")]  # woods TEM +1


def test_a22_62_ex_colored_1_gives_nmc_dr_8_and_a_flame_in_w9() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([2, 1, 6]), ift_result="NMC")
    (attack,) = out.of_kind(Kind.IFT_ATTACK)
    assert (attack.fp, attack.column, attack.final_dr, attack.result) == (10, 8, 8, "NMC")
    assert [c.location for c in out.of_kind(Kind.FLAME)] == [W9]
    assert out.position.is_burning(W9) and not out.position.is_burning(X8)


def test_a22_62_ex_colored_6_breaks_the_partisan_cancels_the_attack_flame_in_x8() -> None:
    pos = board3(units=(Unit("3-3-7", "3-3-7", "Allied", X8),))
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([2, 6, 1]))
    assert out.has(Kind.THROWER_BROKEN) and out.of_kind(Kind.THROWER_BROKEN)[0].unit == "3-3-7"
    assert out.has(Kind.ATTACK_CANCELLED) and not out.has(Kind.IFT_ATTACK)
    assert [c.location for c in out.of_kind(Kind.FLAME)] == [X8]
    assert out.position.units[0].broken


@pytest.mark.parametrize(("who", "rule"), [
    ({"thrower_kind": UnitKind.HERO, "thrower_fp": 1}, "A15.2"),
    ({"heroic": True, "thrower_kind": UnitKind.LEADER, "thrower_fp": 1}, "A15.2"),
    ({"berserk": True}, "A15.42"),
])
def test_a22_6111_a_hero_or_berserk_thrower_on_colored_6_does_not_break_but_loses_fp_and_mol(
        who: dict[str, Any], rule: str) -> None:
    # Reading (docs/rules.md): A15.2 (a hero never breaks) and A15.42 (a berserk unit never breaks, but for the
    # causes it lists) name no MOL; A22.6111's other consequences of a colored 6 stand: FP and MOL voided, Flame.
    # A SMC's MOL Check vs a non-AFV needs a dr ≤ 0 (A22.611): the heroes throw at the halftrack (dr ≤ 1).
    # A berserk unit never fires in its PFPh (A15.432): the berserk thrower throws in its AFPh.
    phase = Phase.AFPH if who.get("berserk") else Phase.PFPH
    pos = board3(phase, units=(Unit("3-3-7", "3-3-7", "Allied", X8, kind=who.get("thrower_kind", UnitKind.SQUAD),
                                    berserk=who.get("berserk", False)),))
    attack = halftrack(**who) if rule == "A15.2" else partisan(**who)
    out = resolve_mol_attack(pos, mol_attack(pos, attack), ScriptedDice([1, 6, 1]))
    assert not out.has(Kind.THROWER_BROKEN) and not out.position.units[0].broken
    voided = [c for c in out.consequences if c.kind is Kind.ATTACK_CANCELLED and c.unit == "3-3-7"]
    assert voided and rule in voided[0].rule and "does not break" in voided[0].text
    assert not out.has(Kind.IFT_ATTACK)  # the thrower's FP and the MOL were all of the attack
    assert [c.location for c in out.of_kind(Kind.FLAME)] == [X8]
    assert any(e.kind == "thrower-voided" and rule in e.rule for e in out.report.events)


@pytest.mark.parametrize(("phase", "fp"), [
    (Phase.DFPH, 8),  # Final Fire: (3 + 4) × 2 + 4 − (3 × 2 + 4) = 8
    (Phase.AFPH, 4),  # A15.432: the AFPh halves the Small Arms FP: (3 + 4) × 2 / 2 + 4 − (3 + 4) = 4
])
def test_a22_6111_a15_432_a_berserk_thrower_in_a_fire_group_voids_only_its_share(phase: Phase, fp: int) -> None:
    """A berserk thrower fires in its AFPh or the DFPh, never its PFPh (A15.432); a colored 6 voids only its
    share and the MOL (A22.6111)."""
    pos = board3(phase)
    plan = mol_attack(pos, partisan(berserk=True, other_fp=4, fg_units=2))
    out = resolve_mol_attack(pos, plan, ScriptedDice([1, 6, 1]))
    (attack,) = out.of_kind(Kind.IFT_ATTACK)
    assert attack.fp == fp and not out.has(Kind.THROWER_BROKEN)


def test_b25_15_a_mol_colored_1_into_a_blaze_places_no_flame_and_emits_no_flame_consequence() -> None:
    pos = board3().add_fire(Fire(W9, FireKind.BLAZE, since=1))
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([2, 1, 6]), ift_result="NMC")
    assert not out.has(Kind.FLAME)
    assert out.position.fires == pos.fires  # the Blaze alone, no Flame under it
    assert any(e.rule == "B25.15" and "Blaze already burns" in e.text for e in out.report.events)
    # the thrower's own Location too, on a colored 6
    pos = board3(units=(Unit("3-3-7", "3-3-7", "Allied", X8),)).add_fire(Fire(X8, FireKind.BLAZE, since=1))
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([2, 6, 1]))
    assert out.has(Kind.THROWER_BROKEN) and not out.has(Kind.FLAME) and out.position.fires == pos.fires


def test_a22_611_woods_hexside_x8_x9_refused() -> None:
    with pytest.raises(IllegalAction, match=r"A22\.611"):
        mol_attack(board3(), partisan(X9))


def test_a22_611_woods_hexside_allowed_across_a_road_vs_a_unit_on_the_road() -> None:
    plan = mol_attack(board3(), partisan(X9, across_road_vs_unit_on_road=True))
    assert plan.fp_with_mol == 10


# --- A22.62 EX, second paragraph: the TPBF 13 FP attack -----------------------------------------------------------


def test_a22_62_ex_tpbf_dff_is_13_fp_on_the_12_column_with_0_drm() -> None:
    pos = board3(Phase.MPH)
    plan = mol_attack(pos, partisan(X8, extra_drms=(FFNAM,)))
    assert plan.multiplier == 3
    assert plan.fp_with_mol == 13 and plan.column_with_mol == 12
    assert plan.total_drm == 0


@pytest.mark.parametrize("colored", [1, 6])
def test_a22_62_ex_tpbf_flame_in_x8_on_colored_1_or_6(colored: int) -> None:
    pos = board3(Phase.MPH)
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(X8, extra_drms=(FFNAM,))), ScriptedDice([1, colored, 3]))
    assert [c.location for c in out.of_kind(Kind.FLAME)] == [X8]
    assert out.has(Kind.THROWER_BROKEN) is (colored == 6)


# --- A22.62 EX, third paragraph: the halftrack ------------------------------------------------------------------


def halftrack(**kw: Any) -> MolAttack:
    return partisan(Y9, vs_afv=True, predesignated=True, basic_tk=6, afv_ot=True, vulnerable_prc=True,
                    afv_id="halftrack", extra_drms=(AFV_IN_HEX,), **kw)


def test_a22_62_ex_halftrack_final_tk_8_and_mol_check_needs_3() -> None:
    plan = mol_attack(board3(), halftrack())
    assert plan.final_tk == 8
    assert plan.check.needed_original == 3 and plan.check.chance == Fraction(1, 2)  # vs an AFV: no +1


def test_a22_62_ex_halftrack_dr_7_is_a_burning_wreck_and_the_468_takes_6_fp_plus_1() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, halftrack()), ScriptedDice([3, 2, 5]), ift_result="PTC")
    assert out.has(Kind.BURNING_WRECK) and out.has(Kind.AFV_ELIMINATED)
    assert [w.location for w in out.position.burning_wrecks()] == [Y9]
    (ift,) = out.of_kind(Kind.IFT_ATTACK)
    assert (ift.fp, ift.column, ift.drm, ift.final_dr, ift.result) == (6, 6, 1, 8, "PTC")
    (prc,) = out.of_kind(Kind.COLLATERAL_ATTACK)
    assert prc.fp == 10 and prc.unit == "halftrack"


def test_a22_612_to_kill_dr_equal_to_final_tk_eliminates_without_burning() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, halftrack()), ScriptedDice([3, 3, 5]))
    assert out.has(Kind.AFV_ELIMINATED) and out.has(Kind.WRECK) and not out.has(Kind.BURNING_WRECK)
    assert out.position.wrecks and not out.position.burning_wrecks()


def test_a22_62_ex_halftrack_colored_6_negates_the_attack_and_flames_x8() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, halftrack()), ScriptedDice([3, 6, 1]))
    assert out.has(Kind.THROWER_BROKEN) and out.has(Kind.ATTACK_CANCELLED)
    assert not out.has(Kind.AFV_ELIMINATED) and not out.position.wrecks
    assert [c.location for c in out.of_kind(Kind.FLAME)] == [X8]


def test_a22_62_ex_failed_check_is_a_6_fp_attack_on_crew_and_468() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, halftrack()), ScriptedDice([4, 1, 2]))
    assert not out.has(Kind.FLAME) and not out.has(Kind.AFV_ELIMINATED)
    (ift,) = out.of_kind(Kind.IFT_ATTACK)
    assert ift.fp == 6 and ift.column == 6 and "Vulnerable PRC" in ift.text


# --- A22.6111 EX: Wet EC --------------------------------------------------------------------------------------


def test_a22_6111_ex_wet_ec_white_2_minus_2_places_no_flame() -> None:
    pos = board3(ec=EC.WET)
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([1, 1, 2]))
    assert not out.has(Kind.FLAME) and not out.position.is_burning(W9)
    assert any("not ≥ 1" in e.text for e in out.report.events)


def test_a22_6111_wet_ec_white_3_still_places_the_flame() -> None:
    pos = board3(ec=EC.WET)
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([1, 1, 3]))
    assert out.position.is_burning(W9)


def test_a22_6111_no_flame_in_non_burnable_target() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(Y9)), ScriptedDice([1, 1, 5]))
    assert not out.has(Kind.FLAME)


# --- MOL Check (A22.611) -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "cx", "vs_afv", "needed"), [
    (UnitKind.SQUAD, False, True, 3), (UnitKind.SQUAD, False, False, 2), (UnitKind.HALF_SQUAD, False, True, 2),
    (UnitKind.CREW, True, False, 0), (UnitKind.LEADER, False, True, 1), (UnitKind.HERO, True, True, 0),
])
def test_a22_611_mol_check_drm(kind: UnitKind, cx: bool, vs_afv: bool, needed: int) -> None:
    c = mol_check(kind, cx=cx, vs_afv=vs_afv)
    assert c.needed_original == needed
    assert c.chance == Fraction(max(0, needed), 6)


def test_a22_62_leadership_never_modifies_the_mol_check() -> None:
    plan = mol_attack(board3(), partisan(leader_drm=-2))
    assert all(d.rule != "A22.62" or "leadership" not in d.reason for d in plan.check.drms)


def test_a22_611_failed_check_fg_still_attacks_without_the_mol() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(other_fp=4, fg_units=2)), ScriptedDice([5, 1, 1]))
    (ift,) = out.of_kind(Kind.IFT_ATTACK)
    assert ift.fp == 14 and not out.has(Kind.FLAME)  # (3 + 4) × 2, no +4, no MOL Flame


def test_a22_611_failed_hs_has_used_its_attack_but_its_fg_attacks() -> None:
    pos = board3()
    hs = partisan(thrower_kind=UnitKind.HALF_SQUAD, thrower_fp=1, thrower_id="HS", other_fp=4, fg_units=2)
    out = resolve_mol_attack(pos, mol_attack(pos, hs), ScriptedDice([6, 3, 3]))
    assert out.has(Kind.ATTACK_CANCELLED)
    (ift,) = out.of_kind(Kind.IFT_ATTACK)
    assert ift.fp == 8  # only the other unit's 4 × 2


def test_a22_611_failed_lone_hs_makes_no_attack() -> None:
    pos = board3()
    hs = partisan(thrower_kind=UnitKind.CREW, thrower_fp=1, thrower_id="crew")
    out = resolve_mol_attack(pos, mol_attack(pos, hs), ScriptedDice([6]))
    assert out.has(Kind.ATTACK_CANCELLED) and not out.has(Kind.IFT_ATTACK)


def test_a22_6111_broken_thrower_voids_only_its_share_of_the_fg() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(other_fp=4, fg_units=2)), ScriptedDice([1, 6, 4]))
    assert out.has(Kind.THROWER_BROKEN)
    (ift,) = out.of_kind(Kind.IFT_ATTACK)
    assert ift.fp == 8


def test_a22_611_smc_may_attack_alone() -> None:
    plan = mol_attack(board3(), partisan(thrower_kind=UnitKind.LEADER, thrower_fp=1))
    assert plan.fp_with_mol == 6 and plan.check.needed_original == 0
    assert any("SMC may attack alone" in e.text for e in plan.notes)


def test_a22_611_mol_bonus_is_added_after_halving() -> None:
    plan = mol_attack(board3(), partisan(fp_halvings=1))
    assert plan.fp_without_mol == 3 and plan.fp_with_mol == 7


# --- leadership (A22.62) ----------------------------------------------------------------------------------------


def test_a22_62_leadership_applies_to_a_fg_with_more_than_the_mols_four_fp() -> None:
    plan = mol_attack(board3(), partisan(other_fp=4, fg_units=2, leader_drm=-1))
    assert plan.leadership_applies and any(d.rule == "A22.62" and d.value == -1 for d in plan.drms)


def test_a22_62_reading_leadership_for_a_single_squads_mol_attack_directed_by_a_leader() -> None:
    """A22.62 (docs/rules.md, issue 31): an attack holding FP beyond the MOL's four takes leadership, a single squad
    directed by a leader included; the MOL's 4 FP alone (a SMC thrower whose own FP is voided) never."""
    plan = mol_attack(board3(), partisan(leader_drm=-1))
    assert plan.leadership_applies and [(d.value, d.rule) for d in plan.drms] == [(1, "A22.62"), (-1, "A22.62")]
    hero = mol_attack(board3(), halftrack(thrower_kind=UnitKind.HERO, thrower_fp=1, leader_drm=-1))
    assert not hero.leadership_applies and any("does not apply" in e.text for e in hero.notes)


# --- restrictions -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kw", "phase", "rule"), [
    ({"available": False}, Phase.PFPH, "A22.6"),
    ({"close_combat": True}, Phase.PFPH, "A22.61"),
    ({}, Phase.CCPH, "A22.61"),
    ({"pinned": True}, Phase.PFPH, "A22.61"),
    ({"broken": True}, Phase.PFPH, "A22.61"),
    ({"thrower_kind": UnitKind.VEHICLE}, Phase.PFPH, "A22.61"),
    ({"fire": FireType.SUBSEQUENT_FIRST}, Phase.MPH, "A22.611"),
    ({"fire": FireType.FPF}, Phase.MPH, "A22.611"),
    ({"mol_check_in_first_fire": True}, Phase.DFPH, "A22.611"),
    ({"range": 2}, Phase.PFPH, "A22.611"),
    ({"adjacent": False}, Phase.PFPH, "A22.611"),
    ({"squad_adds_inherent_fp": False}, Phase.PFPH, "A22.611"),
    ({"fires_other_sw": True}, Phase.PFPH, "A22.611"),
    ({"vs_afv": True, "basic_tk": 6}, Phase.PFPH, "A22.612"),
])
def test_a22_6_restrictions_refused_with_the_rule(kw: dict[str, Any], phase: Phase, rule: str) -> None:
    with pytest.raises(IllegalAction, match=rule.replace(".", r"\.")):
        mol_attack(board3(phase), partisan(**kw))


def test_a22_611_a15_432_berserk_broken_is_allowed_in_its_afph() -> None:
    """A22.61: a berserk unit may use a MOL, broken counter or not (a broken unit that goes berserk rallies,
    A15.4); in its AFPh (A15.432) the Small Arms FP is halved: 3 × 2 / 2 + 4 = 7."""
    assert mol_attack(board3(Phase.AFPH), partisan(broken=True, berserk=True)).fp_with_mol == 7


def test_a22_611_dff_then_final_fire_without_a_first_fire_check_is_allowed() -> None:
    assert mol_attack(board3(Phase.DFPH), partisan()).fp_with_mol == 10


def test_a22_612_missing_basic_tk_is_bad_input() -> None:
    with pytest.raises(BadInput, match="Basic TK#"):
        mol_attack(board3(), partisan(Y9, vs_afv=True, predesignated=True))


@pytest.mark.parametrize(("ce", "ot", "stopped", "tk"), [
    (True, False, True, 7), (False, True, True, 8), (True, True, True, 8), (False, False, False, 4),
    (True, True, False, 6),
])
def test_a22_612_tk_modifiers_ot_or_ce_one_only_and_moving_minus_2(ce: bool, ot: bool, stopped: bool, tk: int) -> None:
    plan = mol_attack(board3(), partisan(Y9, vs_afv=True, predesignated=True, basic_tk=6, afv_ce=ce, afv_ot=ot,
                                         afv_stopped=stopped))
    assert plan.final_tk == tk


def test_a22_612_same_hex_is_a_rear_hit() -> None:
    plan = mol_attack(board3(), partisan(X8, vs_afv=True, predesignated=True, basic_tk=6))
    assert any("rear hit" in e.text for e in plan.notes)


# --- Fortified Building (A22.6111, B23.94) ------------------------------------------------------------------------


def fortified_pos() -> Position:
    hexes = {Hex.parse("A1"): HexInfo(Terrain.OPEN_GROUND), Hex.parse("A2"): HexInfo(building="b")}
    b = Building("b", Material.STONE, BuildingKind.SINGLE_STORY, fortified=frozenset({("A2", 0)}))
    return Position(GameMap.from_hexes(hexes, [b]), clock=Clock(1, 1, Phase.PFPH))


def test_a22_6111_fortified_building_white_1_minus_1_no_flame_and_tem_plus_4() -> None:
    pos = fortified_pos()
    plan = mol_attack(pos, MolAttack(loc("A1"), loc("A2"), thrower_fp=4, available=True))
    assert plan.total_drm == 4
    out = resolve_mol_attack(pos, plan, ScriptedDice([1, 1, 1]))
    assert not out.has(Kind.FLAME)
    out = resolve_mol_attack(pos, plan, ScriptedDice([1, 1, 2]))
    assert out.position.is_burning(loc("A2"))


# --- A22.62 EX, last paragraph / A22.613: Kindling with a MOL ------------------------------------------------------


def test_a22_62_ex_kindling_mol_check_passed_on_2_adds_plus_2() -> None:
    from asl_vassal_bridge.core.molotov import mol_kindling_attempt

    pos = board3()
    new, rep = mol_kindling_attempt(pos, X8, UnitKind.SQUAD, ScriptedDice([2, 3, 3]), side="Axis", leader_drm=0)
    kindle = rep.rolls()[1]
    assert any(d.value == 2 and d.rule == "A22.613" for d in kindle.check.drms)
    assert kindle.final == 8 and not new.is_burning(X8)  # 6 + 2 = 8 < Kindle # 9
    new, _ = mol_kindling_attempt(pos, X8, UnitKind.SQUAD, ScriptedDice([2, 3, 4]), side="Axis", leader_drm=0)
    assert new.is_burning(X8)


def test_a22_62_ex_kindling_failed_mol_check_still_kindles_without_drm() -> None:
    from asl_vassal_bridge.core.molotov import mol_kindling_attempt

    _, rep = mol_kindling_attempt(board3(), X8, UnitKind.SQUAD, ScriptedDice([3, 3, 4]), side="Axis", leader_drm=0)
    assert rep.rolls()[0].outcome.startswith("no MOL")
    assert not rep.rolls()[1].check.drms


# --- the command line ----------------------------------------------------------------------------------------------


def test_cli_mol_prints_chance_fp_and_resolves_the_a22_62_example(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["mol", "--fp", "3", "--target-terrain", "woods", "--dice", "2,1,6", "--ift-result", "NMC"]) == 0
    out = capsys.readouterr().out
    assert "chance 1/3" in out and "10 → IFT column 8" in out and "Final DR 8" in out
    assert "flame: Flame in E6 (A22.6111)" in out


def test_cli_mol_refusal_is_one_line_with_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["mol", "--fp", "3", "--range", "2"]) == 2
    err = capsys.readouterr().err
    assert "A22.611" in err and "Traceback" not in err


def test_cli_mol_on_the_demo_position_writes_the_new_position(tmp_path: object,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from asl_vassal_bridge.cli import main
    from asl_vassal_bridge.loading import load_position

    out = Path(str(tmp_path)) / "after.toml"
    rc = main(["mol", "demo", "--firer-id", "g3", "--to", "I5.1", "--fp", "4", "--phase", "PFPh",
               "--dice", "1,6,2", "-o", str(out), "--json"])
    assert rc == 0
    pos = load_position(out)
    g3 = next(u for u in pos.units if u.id == "g3")
    assert g3.broken and pos.is_burning(g3.location)
    assert '"kind": "thrower-broken"' in capsys.readouterr().out


def test_cli_ft_heavy_winds_long_range_refused_then_allowed_with_the_wind(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["ft", "--range", "2", "--wind", "heavy-winds:1", "--target-terrain", "woods"]) == 2
    assert "B25.63" in capsys.readouterr().err
    assert main(["ft", "--range", "2", "--wind", "heavy-winds:1", "--with-wind", "--target-terrain", "woods"]) == 0
    assert "FP 12 → IFT column 12" in capsys.readouterr().out


def test_cli_ft_resolves_kia_flame_and_malfunction(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["ft", "--target-terrain", "woods", "--dice", "5,5,6,6", "--ift-result", "KIA"]) == 0
    out = capsys.readouterr().out
    assert "flame: Flame in E6 (B25.12)" in out and "ft-removed" in out


def test_cli_dice_running_out_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["mol", "--fp", "3", "--dice", "2"]) == 2
    assert "ran out" in capsys.readouterr().err


# --- declarations from units, plain data -------------------------------------------------------------------------


def test_by_unit_takes_location_kind_and_state_from_the_unit() -> None:
    hs = Unit("hs1", "2-3-7", "Allied", X8, UnitKind.HALF_SQUAD, pinned=True)
    with pytest.raises(IllegalAction, match=r"A22\.61"):
        mol_attack(board3(), MolAttack.by_unit(hs, W9, 2, available=True))
    ok = MolAttack.by_unit(Unit("hs1", "2-3-7", "Allied", X8, UnitKind.HALF_SQUAD), W9, 2, available=True)
    assert mol_attack(board3(), ok).check.needed_original == 1  # +1 HS, +1 vs a non-AFV


def test_plan_and_outcome_as_data_are_json_ready() -> None:
    import json

    pos = board3()
    plan = mol_attack(pos, partisan())
    data = plan.as_data(pos)
    assert data["mol_check"]["chance"] == "1/3" and data["fp_with_mol"] == 10 and data["column_with_mol"] == 8
    out = resolve_mol_attack(pos, plan, ScriptedDice([2, 1, 6]), ift_result="NMC")
    odata = json.loads(json.dumps(out.as_data()))
    assert [c["kind"] for c in odata["consequences"]] == ["flame", "ift-attack"]
    assert odata["consequences"][0]["location"] == "W9" and odata["original_dr"]["colored"] == 1


def test_cli_json_prints_only_the_plan_without_dice(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from asl_vassal_bridge.cli import main

    assert main(["mol", "--fp", "3", "--target-terrain", "woods", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["mol_check"]["chance"] == "1/3" and "outcome" not in data


# --- huts (Fire cheat sheet) -----------------------------------------------------------------------------------------


def hut_pos() -> Position:
    """A (standing) hut in X9 beside open ground in X8; the thrower throws from X8."""
    hexes = {Hex.parse("X8"): HexInfo(Terrain.OPEN_GROUND), Hex.parse("X9"): HexInfo(building="hut")}
    return Position(GameMap.from_hexes(hexes, [Building("hut", Material.WOODEN, BuildingKind.HUT)]),
                    clock=Clock(2, 1, Phase.PFPH))


def test_huts_a_failed_mol_check_still_makes_a_small_arms_pbf_attack_whose_colored_1_sets_the_hut_on_fire() -> None:
    # Fire cheat sheet, huts: any Small Arms PBF/TPBF attack vs a hut Location on an Original colored dr 1. The
    # FG attacks the announced target even when the MOL Check fails (A22.611): without the MOL, it is one.
    pos = hut_pos()
    plan = mol_attack(pos, partisan(X9))
    out = resolve_mol_attack(pos, plan, ScriptedDice([4, 1, 3]))
    assert out.position.flames_at(X9)
    assert [(c.rule, c.text) for c in out.of_kind(Kind.FLAME)] == [("huts", "Flame in the hut in X9")]
    assert [(e.rule, e.text) for e in out.report.events if e.rule == "huts"] == [
        ("huts", "Original colored dr 1: Flame in the hut in X9")]
    # any other colored dr: no Flame, and the report says why
    out = resolve_mol_attack(pos, plan, ScriptedDice([4, 2, 3]))
    assert not out.position.flames() and not out.has(Kind.FLAME)
    assert [e.text for e in out.report.events if e.rule == "huts"] == [
        "Original colored dr 2 (not 1): no Flame in X9"]
    # with the MOL used, its colored dr 1 places the one Flame (A22.6111)
    out = resolve_mol_attack(pos, plan, ScriptedDice([1, 1, 3]))
    assert [c.rule for c in out.of_kind(Kind.FLAME)] == ["A22.6111"] and len(out.position.flames()) == 1


# --- what the players read, word for word (A22.62 EX) ----------------------------------------------------------------


def test_a22_62_ex_plan_describe_and_as_data_word_for_word() -> None:
    pos = board3()
    plan = mol_attack(pos, partisan())
    assert plan.describe(pos).splitlines() == [
        "MOL attack X8 → W9 (PBF, range 1)",
        "  MOL Check (A22.611): Final dr ≤ 3; +1 vs a non-AFV (A22.611); Original ≤ 2; chance 1/3",
        "  FP with the MOL: 10 → IFT column 8; if the check fails: 6 → column 6",
        "  IFT DRM: +1 woods (A22.62) (total +1)",
        "  (3 FP × 2 [PBF]) = 6 + 4 MOL = 10; the +4 is added after every other modification (A22.611)",
        "  the declared FG must attack the announced target even if the MOL Check fails (A22.611)",
    ]
    notes = [{"rule": "A22.611", "text": "(3 FP × 2 [PBF]) = 6 + 4 MOL = 10; the +4 is added after every other "
              "modification", "kind": "info", "location": None},
             {"rule": "A22.611", "text": "the declared FG must attack the announced target even if the MOL Check "
              "fails", "kind": "info", "location": None}]
    assert plan.as_data(pos) == {
        "attack": "MOL", "legal": True, "thrower": "X8", "target": "W9", "range": 1, "tpbf": False,
        "mol_check": {"rule": "A22.611", "final_at_most": 3, "original_at_most": 2,
                      "drms": [{"value": 1, "reason": "vs a non-AFV", "rule": "A22.611"}], "chance": "1/3",
                      "chance_float": 1 / 3},
        "fp_with_mol": 10, "column_with_mol": 8, "fp_without_mol": 6, "column_without_mol": 6,
        "drms": [{"value": 1, "reason": "woods", "rule": "A22.62"}], "total_drm": 1, "leadership_applies": True,
        "final_tk": None, "notes": notes}


def test_a22_62_ex_outcome_text_and_data_word_for_word() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([2, 1, 6]), ift_result="NMC")
    assert out.text().splitlines() == [
        "MOL attack X8 → W9",
        "  X8: MOL Check (A22.611): dr 2, +1 vs a non-AFV (A22.611) → Final 3 vs ≤ 3: MOL used",
        "  Flame in W9 (MOL colored dr 1) (A22.6111)",
        "  IFT DR 7 (1,6) +1 woods (A22.62) → Final DR 8 on the 8 column: NMC (A22.611)",
        "Consequences:",
        "  flame: Flame in W9 (A22.6111)",
        "  ift-attack: IFT attack vs all non-armored units in W9 with 10 FP (A22.611)",
    ]
    assert out.as_data() == {
        "consequences": [
            {"kind": "flame", "rule": "A22.6111", "text": "Flame in W9", "location": "W9", "unit": None, "fp": None,
             "column": None, "drm": None, "final_dr": None, "result": None},
            {"kind": "ift-attack", "rule": "A22.611", "text": "IFT attack vs all non-armored units in W9 with 10 FP",
             "location": "W9", "unit": "3-3-7", "fp": 10, "column": 8, "drm": 1, "final_dr": 8, "result": "NMC"}],
        "events": [
            {"rule": "A22.611", "text": "MOL Check", "kind": "mol-check", "location": "X8",
             "roll": {"colored": 2, "white": None, "final": 3, "outcome": "MOL used",
                      "drms": [{"value": 1, "reason": "vs a non-AFV", "rule": "A22.611"}]}},
            {"rule": "A22.6111", "text": "Flame in W9 (MOL colored dr 1)", "kind": "flame", "location": "W9"},
            {"rule": "A22.611", "text": "IFT DR 7 (1,6) +1 woods (A22.62) → Final DR 8 on the 8 column: NMC",
             "kind": "ift", "location": "W9"}],
        "original_dr": {"colored": 1, "white": 6, "total": 7}}
    # no IFT result given: the report says where to read it
    out = resolve_mol_attack(pos, mol_attack(pos, partisan()), ScriptedDice([3, 2, 6]))
    assert out.report.events[-1].text == "IFT DR 8 (2,6) +1 woods (A22.62) → Final DR 9 on the 6 column (read the " \
                                         "result on the IFT)"
    assert out.report.events[0].roll is not None and out.report.events[0].roll.outcome == "no MOL"


def test_a22_62_ex_halftrack_in_a_led_fire_group_word_for_word() -> None:
    pos = board3()
    plan = mol_attack(pos, halftrack(leader_drm=-1, other_fp=2, fg_units=2))
    assert plan.describe(pos).splitlines() == [
        "MOL attack X8 → Y9 (PBF, range 1)",
        "  MOL Check (A22.611): Final dr ≤ 3; no DRM; Original ≤ 3; chance 1/2",
        "  FP with the MOL: 14 → IFT column 12; if the check fails: 10 → column 8",
        "  IFT DRM: -1 leadership (attack with more than the MOL's four FP) (A22.62), +1 AFV in the Location (D9) "
        "(total +0)",
        "  vs halftrack: Final TK# 8 (MOL column, C7.34); To Kill DR < TK#: Burning Wreck, = TK#: eliminated (A22.612)",
        "  (5 FP × 2 [PBF]) = 10 + 4 MOL = 14; the +4 is added after every other modification (A22.611)",
        "  the declared FG must attack the announced target even if the MOL Check fails (A22.611)",
        "  OT AFV: TK# +2 (A22.612)",
        "  no armor modification; leadership never modifies the MOL To Kill DR (A22.612, A22.62)",
    ]
    assert plan.as_data(pos)["leadership_applies"] is True and plan.as_data(pos)["final_tk"] == 8
    out = resolve_mol_attack(pos, plan, ScriptedDice([3, 2, 5]), ift_result="PTC", prc_result="1MC")
    assert out.text().splitlines() == [
        "MOL attack X8 → Y9",
        "  X8: MOL Check (A22.611): dr 3, no DRM → Final 3 vs ≤ 3: MOL used",
        "  To Kill DR 7 (2,5) vs Final TK# 8 (MOL column) (A22.612)",
        "  To Kill DR 7 < Final TK# 8: halftrack eliminated, Burning Wreck (B25.14)",
        "  IFT DR 7 (2,5) -1 leadership (attack with more than the MOL's four FP) (A22.62), +1 AFV in the Location "
        "(D9) → Final DR 7 on the 8 column vs the other units: PTC (A22.612)",
        "Consequences:",
        "  afv-eliminated: halftrack eliminated (A22.612)",
        "  burning-wreck: halftrack is a Burning Wreck in Y9: FT or MOL attack DR 7 < kill number 8 (B25.14)",
        "  collateral-attack: the same DR is a Specific Collateral attack vs the Vulnerable PRC of halftrack with "
        "14 FP (Small Arms + MOL, D.8) (A22.612)",
        "  ift-attack: the same DR attacks the other non-armored units in Y9 with 10 FP (Small Arms only) (A22.612)",
    ]
    prc, ift = out.of_kind(Kind.COLLATERAL_ATTACK)[0], out.of_kind(Kind.IFT_ATTACK)[0]
    assert (prc.location, prc.fp, prc.column, prc.final_dr, prc.result) == (Y9, 14, 12, 7, "1MC")
    assert (ift.unit, ift.fp, ift.column, ift.drm, ift.final_dr, ift.result) == ("3-3-7", 10, 8, 0, 7, "PTC")
    assert out.position.units == () and [w.name for w in out.position.burning_wrecks()] == ["halftrack wreck"]


def test_a22_4_the_attack_on_a_ft_possessor_is_reported_after_the_attack_it_repeats_with_or_without_the_mol() -> None:
    pos = board3()
    plan = mol_attack(pos, halftrack(target_ft=1))
    failed = resolve_mol_attack(pos, plan, ScriptedDice([4, 2, 5]), ift_result="1MC")
    assert [(e.rule, e.text) for e in failed.report.events[1:]] == [
        ("A22.612", "no MOL in the attack: the IFT attack (without the MOL's 4 FP) hits all non-armored units in Y9 "
                    "(incl. the AFV's Vulnerable PRC)"),
        ("A22.611", "IFT DR 7 (2,5) +1 AFV in the Location (D9) → Final DR 8 on the 6 column: 1MC"),
        ("A22.4", "the same attack vs the unit possessing 1 FT: -1 to its IFT DR, Final DR 7"),
    ]
    used = resolve_mol_attack(pos, plan, ScriptedDice([3, 2, 5]), ift_result="1MC")
    assert [(e.rule, e.text) for e in used.report.events[-2:]] == [
        ("A22.612", "IFT DR 7 (2,5) +1 AFV in the Location (D9) → Final DR 8 on the 6 column vs the other units: 1MC"),
        ("A22.4", "the same attack vs the unit possessing 1 FT: -1 to its IFT DR, Final DR 7"),
    ]
    vuln = used.of_kind(Kind.IFT_ATTACK)[-1]
    assert (vuln.rule, vuln.fp, vuln.column, vuln.drm, vuln.final_dr) == ("A22.4", 6, 6, 0, 7)


def test_a22_611_a_hs_with_halved_fp_tpbf_cx_and_a_leader_word_for_word() -> None:
    # TPBF ×3, halved twice (FP fractions kept), then +4; HS +1, CX +1, vs a non-AFV +1: no dr passes.
    pos = board3()
    plan = mol_attack(pos, partisan(X8, thrower_kind=UnitKind.HALF_SQUAD, fp_halvings=2, cx=True, leader_drm=-1,
                                    target_ft=1, tem=2))
    assert (plan.fp_without_mol, plan.fp_with_mol, plan.thrower_share) == (2.25, 6.25, 2.25)
    assert plan.describe(pos).splitlines() == [
        "MOL attack X8 → X8 (TPBF, range 0)",
        "  MOL Check (A22.611): Final dr ≤ 3; +1 HS/crew (A22.611), +1 CX (A22.611), +1 vs a non-AFV (A22.611); "
        "Original ≤ 0; chance 0",
        "  FP with the MOL: 6.25 → IFT column 6; if the check fails: 2.25 → column 2",
        "  IFT DRM: +2 TEM (given) (TEM), +1 CX firer (A4.51), -1 leadership (attack with more than the MOL's four "
        "FP) (A22.62) (total +2)",
        "  vs the target unit possessing 1 FT: −1 to the IFT DR (resolved for it alone) (A22.4)",
        "  (3 FP × 3 [TPBF] halved ×2) = 2.25 + 4 MOL = 6.25; the +4 is added after every other modification "
        "(A22.611)",
        "  a HS/crew that fails its MOL Check has used its attack; its FG still attacks (A22.611, A7.352-.353)",
        "  the declared FG must attack the announced target even if the MOL Check fails (A22.611)",
    ]
    data = plan.as_data(pos)
    assert (data["tpbf"], data["range"], data["mol_check"]["chance"], data["mol_check"]["chance_float"]) == (
        True, 0, "0", 0.0)
    # whole FP stay whole numbers in the data: 3 × 2 halved once is 3, not 3.0
    halved = mol_attack(pos, partisan(fp_halvings=1))
    assert type(halved.fp_without_mol) is int and type(halved.fp_with_mol) is int and type(halved.thrower_share) is int
    once = mol_attack(pos, partisan(fp_halvings=2))
    assert (once.fp_without_mol, once.fp_with_mol) == (1.5, 5.5)


def test_a22_612_a_smc_alone_vs_a_moving_ce_afv_in_its_own_hex_word_for_word() -> None:
    pos = board3()
    plan = mol_attack(pos, partisan(X8, vs_afv=True, predesignated=True, basic_tk=6, afv_ce=True, afv_stopped=False,
                                    tk_case_mods=1, thrower_kind=UnitKind.LEADER, thrower_fp=1))
    assert plan.final_tk == 6  # 6 + 1 CE − 2 moving + 1 Rear Armor / Elevation Advantage
    assert plan.describe(pos).splitlines() == [
        "MOL attack X8 → X8 (TPBF, range 0)",
        "  MOL Check (A22.611): Final dr ≤ 3; +2 SMC (A22.611); Original ≤ 1; chance 1/6",
        "  FP with the MOL: 7 → IFT column 6; if the check fails: 3 → column 2",
        "  IFT DRM: +1 woods (A22.62) (total +1)",
        "  vs the AFV: Final TK# 6 (MOL column, C7.34); To Kill DR < TK#: Burning Wreck, = TK#: eliminated (A22.612)",
        "  a SMC may attack alone with a MOL (A22.611)",
        "  (1 FP × 3 [TPBF]) = 3 + 4 MOL = 7; the +4 is added after every other modification (A22.611)",
        "  the declared FG must attack the announced target even if the MOL Check fails (A22.611)",
        "  CE AFV: TK# +1 (A22.612)",
        "  Non-Stopped (moving) vehicle: TK# −2 (A22.612)",
        "  Rear Armor / Elevation Advantage: TK# +1 (A22.612, C7.21-.22)",
        "  from the same hex the MOL scores a rear hit (A22.612)",
        "  no armor modification; leadership never modifies the MOL To Kill DR (A22.612, A22.62)",
    ]
    ot_ce = mol_attack(pos, halftrack(afv_ce=True)).notes
    assert [e.text for e in ot_ce][2] == "OT AFV: TK# +2 (CE does not add as well)"
    assert mol_attack(pos, halftrack(tk_case_mods=-1)).final_tk == 7
    assert mol_attack(pos, halftrack(tk_case_mods=2)).final_tk == 10


def test_a22_611_across_a_road_vs_a_unit_on_the_road_and_a_given_tem_word_for_word() -> None:
    pos = board3()
    plan = mol_attack(pos, partisan(X9, across_road_vs_unit_on_road=True, tem=0))
    assert plan.describe(pos).splitlines()[3:5] == [
        "  IFT DRM: no DRM (total +0)",
        "  woods/orchard hexside crossed along a road vs a unit on the road: allowed (A22.611)",
    ]
    # a given TEM cites B23.3 in a building Location
    fpos = fortified_pos()
    given = mol_attack(fpos, MolAttack(loc("A1"), loc("A2"), thrower_fp=4, available=True, tem=3))
    assert [str(d) for d in given.drms] == ["+3 TEM (given) (B23.3)"]
    # a CX thrower: +1 to the IFT DR (A4.51) besides the MOL Check's +1
    cx = mol_attack(pos, partisan(cx=True))
    assert [str(d) for d in cx.drms] == ["+1 woods (A22.62)", "+1 CX firer (A4.51)"]


@pytest.mark.parametrize(("script", "lines"), [
    ([5, 2, 3], [  # failed Check, one unit and a leader: leadership applies normally
        "  X8: MOL Check (A22.611): dr 5, +1 vs a non-AFV (A22.611) → Final 6 vs ≤ 3: no MOL",
        "  no MOL FP in the attack: leadership applies normally (A22.62)",
        "  IFT DR 5 (2,3) +1 woods (A22.62), -1 leadership (no MOL in the attack) (A7.53) → Final DR 5 on the 6 "
        "column (read the result on the IFT) (A22.611)",
        "Consequences:",
        "  ift-attack: IFT attack vs all non-armored units in W9 with 6 FP (A22.611)"]),
    ([1, 6, 1], [  # colored 6: the leader's -1 applies to no attack at all
        "  X8: MOL Check (A22.611): dr 1, +1 vs a non-AFV (A22.611) → Final 2 vs ≤ 3: MOL used",
        "  colored dr 6: the MOL thrower in X8 breaks; his FP and MOL are voided (A22.6111)",
        "  Flame in X8 (MOL colored dr 6) (A22.6111)",
        "  the thrower's FP and MOL are voided: nothing is left of the attack (A22.6111)",
        "Consequences:",
        "  flame: Flame in X8 (A22.6111)",
        "  thrower-broken: 3-3-7 breaks (A22.6111)",
        "  attack-cancelled: the attack is voided: 3-3-7's FP and MOL were all of it (A22.6111)"]),
])
def test_a22_611_and_a22_6111_single_thrower_outcomes_word_for_word(script: list[int], lines: list[str]) -> None:
    pos = board3(units=(Unit("3-3-7", "3-3-7", "Allied", X8),))
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(leader_drm=-1)), ScriptedDice(script))
    assert out.text().splitlines() == ["MOL attack X8 → W9", *lines]


def test_a22_611_failed_hs_and_lone_crew_word_for_word() -> None:
    pos = board3()
    hs = partisan(thrower_kind=UnitKind.HALF_SQUAD, thrower_fp=1, thrower_id="HS", other_fp=4, fg_units=2)
    out = resolve_mol_attack(pos, mol_attack(pos, hs), ScriptedDice([6, 3, 3]))
    assert out.text().splitlines() == [
        "MOL attack X8 → W9",
        "  X8: MOL Check (A22.611): dr 6, +1 HS/crew (A22.611), +1 vs a non-AFV (A22.611) → Final 8 vs ≤ 3: no MOL",
        "  the failed HS/crew HS has used its attack (A22.611)",
        "  IFT DR 6 (3,3) +1 woods (A22.62) → Final DR 7 on the 8 column (read the result on the IFT) (A22.611)",
        "Consequences:",
        "  attack-cancelled: HS may not attack: its MOL Check was its attack (A22.611, A7.352-.353)",
        "  ift-attack: IFT attack vs all non-armored units in W9 with 8 FP (A22.611)",
    ]
    (cancel,) = out.of_kind(Kind.ATTACK_CANCELLED)
    assert (cancel.location, cancel.unit) == (X8, "HS")
    crew = partisan(thrower_kind=UnitKind.CREW, thrower_fp=1, thrower_id="crew")
    out = resolve_mol_attack(pos, mol_attack(pos, crew), ScriptedDice([6]))
    assert out.original_dr is None and out.report.title == "MOL attack X8 → W9"
    assert [e.text for e in out.report.events][1:] == ["the failed HS/crew crew has used its attack"]
    # a crew that passes its Check throws: 1 × 2 + 4
    out = resolve_mol_attack(pos, mol_attack(pos, crew), ScriptedDice([1, 3, 3]))
    assert out.of_kind(Kind.IFT_ATTACK)[0].fp == 6


def test_a22_6111_broken_thrower_in_a_fire_group_word_for_word() -> None:
    pos = board3(units=(Unit("3-3-7", "3-3-7", "Allied", X8), Unit("4-4-7", "4-4-7", "Allied", X8)))
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(other_fp=4, fg_units=2)), ScriptedDice([1, 6, 4]))
    assert out.text().splitlines()[2:] == [
        "  colored dr 6: the MOL thrower in X8 breaks; his FP and MOL are voided (A22.6111)",
        "  Flame in X8 (MOL colored dr 6) (A22.6111)",
        "  the FG still attacks with 8 FP (the thrower's FP and MOL are voided) (A22.6111)",
        "  IFT DR 10 (6,4) +1 woods (A22.62) → Final DR 11 on the 8 column (read the result on the IFT) (A22.611)",
        "Consequences:",
        "  flame: Flame in X8 (A22.6111)",
        "  thrower-broken: 3-3-7 breaks (A22.6111)",
        "  ift-attack: IFT attack vs all non-armored units in W9 with 8 FP (A22.611)",
    ]
    assert [u.broken for u in out.position.units] == [True, False]  # only the thrower breaks
    assert [(c.location, c.unit) for c in out.of_kind(Kind.THROWER_BROKEN)] == [(X8, "3-3-7")]


def test_a22_6111_a15_432_berserk_thrower_alone_in_its_afph_word_for_word() -> None:
    pos = board3(Phase.AFPH)
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(berserk=True)), ScriptedDice([1, 6, 1]))
    assert out.text().splitlines()[2:] == [
        "  colored dr 6: the MOL thrower in X8 is a berserk unit, who never breaks; his FP and MOL are voided all the "
        "same (A22.6111, A15.42)",
        "  Flame in X8 (MOL colored dr 6) (A22.6111)",
        "  the thrower's FP and MOL are voided: nothing is left of the attack (A22.6111)",
        "Consequences:",
        "  flame: Flame in X8 (A22.6111)",
        "  attack-cancelled: 3-3-7 (berserk unit) does not break; its FP and MOL are voided (A22.6111, A15.42)",
        "  attack-cancelled: the attack is voided: 3-3-7's FP and MOL were all of it (A22.6111)",
    ]
    voided = out.of_kind(Kind.ATTACK_CANCELLED)
    assert [(c.location, c.unit) for c in voided] == [(X8, "3-3-7"), (W9, None)]


def test_a22_612_afv_not_destroyed_word_for_word() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, halftrack()), ScriptedDice([3, 5, 5]))
    assert out.text().splitlines()[2:] == [
        "  To Kill DR 10 (5,5) vs Final TK# 8 (MOL column) (A22.612)",
        "  To Kill DR 10 > Final TK# 8: halftrack not destroyed (A22.612)",
        "  IFT DR 10 (5,5) +1 AFV in the Location (D9) → Final DR 11 on the 6 column vs the other units (A22.612)",
        "Consequences:",
        "  collateral-attack: the same DR is a Specific Collateral attack vs the Vulnerable PRC of halftrack with 10 "
        "FP (Small Arms + MOL, D.8) (A22.612)",
        "  ift-attack: the same DR attacks the other non-armored units in Y9 with 6 FP (Small Arms only) (A22.612)",
    ]
    assert out.position == pos
    # no Vulnerable PRC: no Collateral attack; the To Kill DR = TK# leaves a Wreck that does not burn
    plain = partisan(Y9, vs_afv=True, predesignated=True, basic_tk=6, afv_id="halftrack")
    out = resolve_mol_attack(pos, mol_attack(pos, plain), ScriptedDice([3, 3, 3]))
    assert not out.has(Kind.COLLATERAL_ATTACK)
    assert [(w.location, w.burning, w.name) for w in out.position.wrecks] == [(Y9, False, "halftrack wreck")]
    assert [e.text for e in out.report.events][1:3] == ["To Kill DR 6 (3,3) vs Final TK# 6 (MOL column)",
                                                       "To Kill DR 6 = Final TK# 6: halftrack eliminated, not burning"]


@pytest.mark.parametrize(("kw", "phase", "message"), [
    ({"available": False}, Phase.PFPH, "MOL are available only when an SSR or DYO purchase provides them (A22.6)"),
    ({"close_combat": True}, Phase.PFPH, "a MOL cannot be used in Close Combat (A22.61)"),
    ({}, Phase.CCPH, "a MOL cannot be used in Close Combat (A22.61)"),
    ({"thrower_kind": UnitKind.VEHICLE}, Phase.PFPH, "a MOL is an inherent SW of Personnel only (A22.61)"),
    ({"pinned": True}, Phase.PFPH, "a pinned unit cannot use a MOL (A22.61)"),
    ({"broken": True}, Phase.PFPH, "a MOL is used only by a Good Order (or Berserk) unit (A22.61)"),
    ({"range": 2}, Phase.PFPH, "a MOL is used only in a PBF/TPBF attack, not at range 2 or vs a non-ADJACENT target "
                               "(A22.611)"),
    ({"adjacent": False}, Phase.PFPH, "a MOL is used only in a PBF/TPBF attack, not at range 1 or vs a non-ADJACENT "
                                      "target (A22.611)"),
    ({"target": Y9, "range": 2}, Phase.PFPH, "a MOL is used only in a PBF/TPBF attack, not at range 2 or vs a "
                                             "non-ADJACENT target (A22.611)"),
    ({}, Phase.RPH, "no fire attack is made in the RPh (A22.611)"),
    ({"fire": FireType.SUBSEQUENT_FIRST}, Phase.MPH, "no MOL Check dr in Subsequent First Fire (A22.611)"),
    ({"fire": FireType.FPF}, Phase.MPH, "no MOL Check dr in Final Protective Fire (A22.611)"),
    ({"mol_check_in_first_fire": True}, Phase.DFPH, "a unit that made a MOL Check dr in Defensive First Fire may not "
                                                    "make one in Final Fire the same Player Turn (A22.611)"),
    ({"target": X9}, Phase.PFPH, "a MOL cannot be thrown through an orchard or woods hexside (A22.611; except across "
                                 "a road hexside vs a unit on the road)"),
    ({"squad_adds_inherent_fp": False}, Phase.PFPH, "a squad making a MOL Check must add its inherent FP to the attack "
                                                    "(A22.611, A7.55)"),
    ({"fires_other_sw": True}, Phase.PFPH, "a squad making a MOL Check may not fire any other SW (A22.611)"),
    ({"vs_afv": True, "basic_tk": 6}, Phase.PFPH, "a MOL attacks an AFV only if the AFV is predesignated as the "
                                                  "specific target (A22.612)"),
])
def test_a22_6_refusals_word_for_word(kw: dict[str, Any], phase: Phase, message: str) -> None:
    kw = dict(kw)  # the parameter is shared by every run of the test
    target = kw.pop("target", W9)
    with pytest.raises(IllegalAction) as e:
        mol_attack(board3(phase), partisan(target, **kw))
    assert str(e.value) == message


@pytest.mark.parametrize(("kw", "message"), [
    ({"fg_units": 0}, "a FG has at least one unit, not 0"),
    ({"target_ft": -1}, "a target possesses 0 or more FT, not -1"),
    ({"vs_afv": True, "predesignated": True}, "a MOL attack vs an AFV needs the MOL column's Basic TK# from the C7.34 "
     "HE & Flame To Kill Table (--basic-tk), which our rule texts do not hold (A22.612)"),
])
def test_a22_6_bad_declarations_word_for_word(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(BadInput) as e:
        mol_attack(board3(), partisan(**kw))
    assert str(e.value) == message


def test_a22_611_a_hs_crew_or_leader_need_not_add_inherent_fp_nor_forgo_other_sw() -> None:
    # The squad-only restrictions (A22.611, A7.55) are not asked of a HS, crew or SMC.
    for kind in (UnitKind.HALF_SQUAD, UnitKind.CREW, UnitKind.LEADER):
        plan = mol_attack(board3(), partisan(thrower_kind=kind, squad_adds_inherent_fp=False, fires_other_sw=True))
        assert plan.fp_with_mol == 10
    # a SMC in a FG is no SMC attacking alone
    plan = mol_attack(board3(), partisan(thrower_kind=UnitKind.LEADER, fg_units=2, other_fp=4))
    assert all("alone" not in e.text for e in plan.notes)


@pytest.mark.parametrize(("fire", "fp"), [
    (FireType.PREP, 10), (FireType.DEFENSIVE_FIRST, 10),
    (FireType.ADVANCING, 7),  # A22.1, A15.432: the AFPh halves the Small Arms FP before the +4: 3 × 2 / 2 + 4
])
def test_a22_611_a_mol_check_in_defensive_first_fire_does_not_bar_one_in_other_fire(fire: FireType, fp: int) -> None:
    """A22.611: only Final Fire after a Defensive First Fire MOL Check is barred."""
    assert mol_attack(board3(), partisan(fire=fire, mol_check_in_first_fire=True)).fp_with_mol == fp


@pytest.mark.parametrize(("phase", "fire"), [(Phase.PFPH, FireType.PREP), (Phase.MPH, FireType.DEFENSIVE_FIRST),
                                             (Phase.DFPH, FireType.FINAL), (Phase.AFPH, FireType.ADVANCING)])
def test_a22_611_the_fire_of_each_phase(phase: Phase, fire: FireType) -> None:
    assert FireType.for_phase(phase) is fire


@pytest.mark.parametrize(("name", "fire"), [
    ("prep", FireType.PREP), ("Prep Fire", FireType.PREP), ("dff", FireType.DEFENSIVE_FIRST),
    ("defensive-first", FireType.DEFENSIVE_FIRST), ("Defensive First Fire", FireType.DEFENSIVE_FIRST),
    ("SFF", FireType.SUBSEQUENT_FIRST), ("subsequent_first", FireType.SUBSEQUENT_FIRST), (" fpf ", FireType.FPF),
    ("Final Protective Fire", FireType.FPF), ("final", FireType.FINAL), ("Final Fire", FireType.FINAL),
    ("advancing", FireType.ADVANCING), ("ADVANCING FIRE", FireType.ADVANCING),
])
def test_fire_type_names(name: str, fire: FireType) -> None:
    assert FireType.from_name(name) is fire


def test_fire_type_unknown_name_is_one_line() -> None:
    with pytest.raises(BadInput) as e:
        FireType.from_name("snap shot")
    assert str(e.value) == ("unknown fire type 'snap shot' (expected prep, dff, sff, fpf, final, advancing or "
                            "opportunity)")


def test_by_unit_carries_id_broken_and_berserk() -> None:
    berserk = Unit("b1", "4-4-7", "Allied", X8, broken=True, berserk=True)
    a = MolAttack.by_unit(berserk, W9, 4, available=True)
    assert (a.thrower, a.target, a.thrower_fp, a.thrower_kind, a.thrower_id, a.broken, a.berserk, a.pinned) == (
        X8, W9, 4, UnitKind.SQUAD, "b1", True, True, False)
    assert a.never_breaks == "berserk unit"
    with pytest.raises(IllegalAction, match=r"Good Order"):
        mol_attack(board3(), MolAttack.by_unit(Unit("b2", "4-4-7", "Allied", X8, broken=True), W9, 4,
                                                available=True))


# --- the TEM a MOL attack uses (B23), word for word ----------------------------------------------------------------


def works() -> Position:
    """A Factory in B1-B2 (B2 Fortified at ground level, rooftop) with a rubbled hex B3 that still belongs to it
    (B23.743), a two-story house in D1-D2 whose D1 is a Marketplace (B23.73), open ground in A1, an orchard pair in
    C3-C4 and woods C1/C2 of two different patches."""
    hexes = {Hex.parse("A1"): HexInfo(Terrain.OPEN_GROUND), Hex.parse("B1"): HexInfo(building="f"),
             Hex.parse("B2"): HexInfo(building="f"), Hex.parse("B3"): HexInfo(Terrain.STONE_RUBBLE, feature="f"),
             Hex.parse("D1"): HexInfo(building="m"), Hex.parse("D2"): HexInfo(building="m"),
             Hex.parse("C3"): HexInfo(Terrain.ORCHARD), Hex.parse("C4"): HexInfo(Terrain.OLIVE_GROVE),
             Hex.parse("C1"): HexInfo(Terrain.WOODS, feature="w1"), Hex.parse("C2"): HexInfo(Terrain.WOODS_ROAD)}
    buildings = [Building("f", Material.STONE, BuildingKind.FACTORY, rooftop=True, fortified=frozenset({("B2", 0)})),
                 Building("m", Material.WOODEN, BuildingKind.TWO_STORY, marketplace=frozenset({"D1"}))]
    return Position(GameMap.from_hexes(hexes, buildings), clock=Clock(2, 1, Phase.PFPH))


def tem(pos: Position, target: str, firer: str | None = None, **kw: Any) -> list[str]:
    from asl_vassal_bridge.core.molotov import location_tem

    f = pos.map.parse_location(firer) if firer is not None else None
    return [str(d) for d in location_tem(pos, pos.map.parse_location(target), firer=f, **kw)]


def test_b23_741_b23_921_b23_88_factory_tem_word_for_word() -> None:
    p = works()
    within_fort = ["+2 fire within the same Factory, Fortified (B23.741, B23.921)"]
    assert tem(p, "B2", "B1") == within_fort
    assert tem(p, "B2", "B2") == within_fort  # TPBF in the Fortified Location itself
    assert tem(p, "B2", "B3") == within_fort  # from its rubbled hex (B23.743)
    assert tem(p, "B1", "B2") == ["+1 fire within the same Factory (B23.741)"]
    assert tem(p, "B1", "B1.roof") == ["+1 fire within the same Factory (B23.741)"]
    assert tem(p, "B2", "B2.roof") == [
        "+1 fire within the same Factory (no Fortified extra vs its own hex's rooftop, B23.88) (B23.741, B23.88)"]
    assert tem(p, "B2", "B1.roof") == within_fort  # another hex's rooftop
    assert tem(p, "B2", "A1") == ["+4 stone building, Fortified (B23.3, B23.921)"]
    assert tem(p, "B2", "B1", indirect=True) == ["+3 stone building (B23.3)"]  # B23.741: no Fortified extra
    assert tem(p, "B2", "A1", factory_within=True) == within_fort
    assert tem(p, "B2", "B1", factory_within=False) == ["+4 stone building, Fortified (B23.3, B23.921)"]
    assert tem(p, "B2", "B1", bypassing=True) == []


def test_b23_73_b23_81_marketplace_and_rooftop_tem_word_for_word() -> None:
    p = works()
    assert tem(p, "D1") == [] and tem(p, "D1", "A1") == []  # open ground under the Level 1 Location
    assert tem(p, "D1", indirect=True) == ["+1 Marketplace, 1 level above vs Indirect Fire (B23.32, B23.73)"]
    assert tem(p, "D2") == ["+2 wooden building (B23.3)"]
    assert tem(p, "D2", indirect=True) == ["+3 wooden building, 1 level above vs Indirect Fire (B23.3, B23.32)"]
    assert tem(p, "D1.1") == ["+2 wooden building (B23.3)"]
    assert tem(p, "B1.roof", "A1") == ["+1 Height Advantage (rooftop: no building TEM) (B23.81)"]
    assert tem(p, "B1.roof", "B1.roof") == [] and tem(p, "B1.roof", "B2.roof") == []  # not lower: no +1
    assert tem(p, "B1.roof") == []
    assert tem(p, "C1") == ["+1 woods (A22.62)"] and tem(p, "A1") == [] and tem(p, "C3") == []


def test_b23_tem_reaches_the_mol_attack_from_its_thrower() -> None:
    p = works()
    inside = mol_attack(p, MolAttack(loc("B1"), loc("B2"), thrower_fp=4, available=True))
    assert [str(d) for d in inside.drms] == ["+2 fire within the same Factory, Fortified (B23.741, B23.921)"]
    bypass = mol_attack(p, MolAttack(loc("B1"), loc("B2"), thrower_fp=4, available=True, target_bypassing=True))
    assert bypass.drms == ()


def test_a22_611_orchard_and_connected_woods_hexsides() -> None:
    from asl_vassal_bridge.core.molotov import woods_or_orchard_hexside

    p = works()
    h = Hex.parse
    assert woods_or_orchard_hexside(p, h("C3"), h("C4"))  # orchard and olive grove
    assert not woods_or_orchard_hexside(p, h("C3"), h("B3")) and not woods_or_orchard_hexside(p, h("B3"), h("C3"))
    assert not woods_or_orchard_hexside(p, h("C2"), h("C3"))
    assert not woods_or_orchard_hexside(p, h("C1"), h("C2"))  # woods and woods-road, no common patch recorded
    q = board3()
    assert woods_or_orchard_hexside(q, h("X8"), h("X9"))
    assert not woods_or_orchard_hexside(q, h("X8"), h("W9"))  # two different woods patches
    assert not woods_or_orchard_hexside(q, h("X8"), h("X8"))  # not adjacent
    # the refusal reads the map: a MOL from C3 into the olive grove C4 is refused
    with pytest.raises(IllegalAction, match="orchard or woods hexside"):
        mol_attack(p, MolAttack(loc("C3"), loc("C4"), thrower_fp=4, available=True))
    # ... but not between levels above ground, nor when told otherwise
    assert mol_attack(p, MolAttack(loc("C3"), loc("C4"), thrower_fp=4, available=True, woods_hexside=False))


# --- A22.613: Kindling with a MOL, word for word ---------------------------------------------------------------------


def test_a22_613_kindling_odds_fold_the_mol_check_in_word_for_word() -> None:
    from asl_vassal_bridge.core.molotov import mol_kindling_odds

    squad = mol_kindling_odds(board3(), X8, UnitKind.SQUAD, leader_drm=0)
    assert squad.chance == Fraction(1, 3) * Fraction(7, 12) + Fraction(2, 3) * Fraction(5, 18)
    assert squad.describe().splitlines() == [
        "MOL Check (A22.611): Final dr ≤ 3; +1 vs a non-AFV (A22.611); Original ≤ 2; chance 1/3",
        "  passed: Kindling in X8 (Woods, Kindle # 9) (B25.11): Final DR ≥ 9; +2 unit has a MOL (A22.613); "
        "Original ≥ 7; chance 7/12",
        "  failed: Kindling in X8 (Woods, Kindle # 9) (B25.11): Final DR ≥ 9; no DRM; Original ≥ 9; chance 5/18",
        "Flame, the MOL Check included (A22.613): 41/108 (38.0%)",
    ]
    # a SMC: +2 SMC and +1 vs a non-AFV leave no dr that passes: a plain Kindling attempt's chance
    leader = mol_kindling_odds(board3(), X8, UnitKind.LEADER)
    assert leader.mol_check.chance == 0 and leader.chance == leader.without_mol.chance == Fraction(1, 12)
    # CX: +1 more to the MOL Check (A22.611)
    assert mol_kindling_odds(board3(), X8, UnitKind.SQUAD, leader_drm=0, cx=True).mol_check.chance == Fraction(1, 6)
    # the phase is checked only when asked
    with pytest.raises(IllegalAction, match=r"B25\.11"):
        mol_kindling_odds(board3(Phase.MPH), X8, UnitKind.SQUAD, leader_drm=0, check_phase=True)
    assert mol_kindling_odds(board3(Phase.MPH), X8, UnitKind.SQUAD, leader_drm=0).chance == squad.chance


def test_a22_613_kindling_attempt_report_and_dice_word_for_word() -> None:
    from asl_vassal_bridge.core.molotov import mol_kindling_attempt

    dice = ScriptedDice([2, 3, 4])
    new, rep = mol_kindling_attempt(board3(), X8, UnitKind.SQUAD, dice, side="Axis", leader_drm=0)
    assert rep.text().splitlines() == [
        "Kindling in X8 (Woods, Kindle # 9)",
        "  X8: MOL Check (A22.611): dr 2, +1 vs a non-AFV (A22.611) → Final 3 vs ≤ 3: MOL: +2 to the Kindling DR",
        "  X8: Kindling in X8 (Woods, Kindle # 9) (B25.11): DR 7 (3,4), +2 unit has a MOL (A22.613) → Final 9 vs ≥ 9: "
        "Flame",
        "  the Kindling unit is marked with a Prep Fire counter (B25.11)",
        "  no risk of breaking for using a MOL to Kindle (A22.613)",
    ]
    assert [(e.rule, e.kind) for e in rep.events] == [("A22.613", "mol-check"), ("B25.11", "flame"),
                                                       ("B25.11", "prep-fire"), ("A22.613", "info")]
    assert [purpose for purpose, _ in dice.log] == ["MOL Check for Kindling in X8 (A22.613)",
                                                    "Kindling in X8 (Woods, Kindle # 9) (B25.11)"]
    assert [(f.location, f.kindled_by) for f in new.fires] == [(X8, "Axis")]
    # a CX unit's MOL Check takes +1: a dr 2 no longer passes
    _, rep = mol_kindling_attempt(board3(), X8, UnitKind.SQUAD, ScriptedDice([2, 3, 4]), side="Axis", leader_drm=0,
                                  cx=True)
    assert rep.events[0].roll is not None and rep.events[0].roll.outcome == "no MOL: no DRM"


@pytest.mark.parametrize(("kw", "phase", "message"), [
    ({"available": False}, Phase.PFPH, "MOL are available only when an SSR or DYO purchase provides them (A22.6)"),
    ({"side": "Finns"}, Phase.PFPH, "the kindling side 'Finns' is not one of the position's sides ['Axis', 'Allied']"),
    ({"side": "Allied"}, Phase.PFPH, "Kindling is made in the kindling side's own PFPh (B25.11): it is the Axis PFPh, "
                                     "not the Allied"),
    ({"check_phase": False}, Phase.MPH, "Kindling is made in the PFPh, not the MPh (B25.11)"),
])
def test_a22_613_kindling_refusals_roll_no_die(kw: dict[str, Any], phase: Phase, message: str) -> None:
    from asl_vassal_bridge.core.molotov import mol_kindling_attempt

    args: dict[str, Any] = {"side": "Axis", "leader_drm": 0}
    args.update(kw)
    dice = ScriptedDice([2, 3, 4])
    with pytest.raises(IllegalAction) as e:
        mol_kindling_attempt(board3(phase), X8, UnitKind.SQUAD, dice, **args)
    assert str(e.value) == message and dice.log == []


def test_a22_62_a7_53_once_the_mol_is_out_of_the_attack_leadership_is_cited_as_plain_leadership() -> None:
    # A FG with more than the MOL's four FP takes the leader's DRM (A22.62); once the colored 6 or a failed Check
    # leaves no MOL in the attack, the DRM is plain leadership (A7.53), and the report says so.
    pos = board3()
    plan = mol_attack(pos, halftrack(other_fp=2, fg_units=2, leader_drm=-1))
    broken = resolve_mol_attack(pos, plan, ScriptedDice([1, 6, 2]))
    assert [e.describe() for e in broken.report.events][3:] == [
        "the FG still attacks with 4 FP (the thrower's FP and MOL are voided) (A22.6111)",
        "no MOL FP in the attack: leadership applies normally (A22.62)",
        "no MOL in the attack: the IFT attack (without the MOL's 4 FP) hits all non-armored units in Y9 (incl. the "
        "AFV's Vulnerable PRC) (A22.612)",
        "IFT DR 8 (6,2) +1 AFV in the Location (D9), -1 leadership (no MOL in the attack) (A7.53) → Final DR 8 on the "
        "4 column (read the result on the IFT) (A22.611)",
    ]
    assert not broken.has(Kind.AFV_ELIMINATED) and not broken.position.wrecks
    (ift,) = broken.of_kind(Kind.IFT_ATTACK)
    assert (ift.fp, ift.column, ift.drm, ift.final_dr) == (4, 4, 0, 8)
    failed = resolve_mol_attack(pos, plan, ScriptedDice([4, 2, 2]))
    assert failed.report.events[-1].text == ("IFT DR 4 (2,2) +1 AFV in the Location (D9), -1 leadership (no MOL in "
                                             "the attack) (A7.53) → Final DR 4 on the 8 column (read the result on "
                                             "the IFT)")


def test_a22_6111_what_is_left_of_a_fire_group_may_be_a_single_fp() -> None:
    pos = board3()
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(other_fp=1, fp_halvings=1, fg_units=2)),
                             ScriptedDice([1, 6, 2]))
    (ift,) = out.of_kind(Kind.IFT_ATTACK)
    assert (ift.fp, ift.column) == (1, 1)
    assert "the FG still attacks with 1 FP (the thrower's FP and MOL are voided)" in [e.text for e in out.report.events]
    hs = partisan(thrower_kind=UnitKind.HALF_SQUAD, other_fp=1, fp_halvings=1, fg_units=2)
    (ift,) = resolve_mol_attack(pos, mol_attack(pos, hs), ScriptedDice([6, 6, 2])).of_kind(Kind.IFT_ATTACK)
    assert (ift.fp, ift.column) == (1, 1)


def test_a22_611_the_hs_crew_note_is_for_a_hs_or_a_crew_only() -> None:
    note = "a HS/crew that fails its MOL Check has used its attack; its FG still attacks"
    for kind, has in ((UnitKind.HALF_SQUAD, True), (UnitKind.CREW, True), (UnitKind.SQUAD, False),
                      (UnitKind.LEADER, False)):
        plan = mol_attack(board3(), partisan(thrower_kind=kind))
        assert (note in [e.text for e in plan.notes]) is has, kind


def test_a22_62_a_fire_group_of_the_mols_four_fp_alone_takes_no_leadership() -> None:
    # "more than four FP factors": two units without FP of their own throw 4 FP, no more
    plan = mol_attack(board3(), partisan(thrower_kind=UnitKind.LEADER, thrower_fp=0, fg_units=2, leader_drm=-1))
    assert plan.fp_with_mol == 4 and not plan.leadership_applies and plan.total_drm == 1


def test_a22_612_to_kill_dr_equal_to_final_tk_plain_data_word_for_word() -> None:
    pos = board3(units=(Unit("halftrack", "sdkfz", "Axis", Y9, UnitKind.VEHICLE), Unit("3-3-7", "3-3-7", "Allied", X8)))
    plain = partisan(Y9, vs_afv=True, predesignated=True, basic_tk=6, afv_id="halftrack")
    out = resolve_mol_attack(pos, mol_attack(pos, plain), ScriptedDice([3, 3, 3]))
    none = {"fp": None, "column": None, "drm": None, "final_dr": None, "result": None}
    assert out.as_data() == {
        "consequences": [
            {"kind": "afv-eliminated", "rule": "A22.612", "text": "halftrack eliminated (PRC Survival may apply)",
             "location": "Y9", "unit": "halftrack", **none},
            {"kind": "wreck", "rule": "A22.612", "text": "halftrack is a Wreck in Y9 (not burning)", "location": "Y9",
             "unit": "halftrack", **none},
            {"kind": "ift-attack", "rule": "A22.612", "text": "the same DR attacks the other non-armored units in Y9 "
             "with 6 FP (Small Arms only)", "location": "Y9", "unit": "3-3-7", "fp": 6, "column": 6, "drm": 0,
             "final_dr": 6, "result": None}],
        "events": [
            {"rule": "A22.611", "text": "MOL Check", "kind": "mol-check", "location": "X8",
             "roll": {"colored": 3, "white": None, "final": 3, "outcome": "MOL used", "drms": []}},
            {"rule": "A22.612", "text": "To Kill DR 6 (3,3) vs Final TK# 6 (MOL column)", "kind": "info",
             "location": "Y9"},
            {"rule": "A22.612", "text": "To Kill DR 6 = Final TK# 6: halftrack eliminated, not burning",
             "kind": "wreck", "location": "Y9"},
            {"rule": "A22.612", "text": "IFT DR 6 (3,3) no DRM → Final DR 6 on the 6 column vs the other units",
             "kind": "ift", "location": "Y9"}],
        "original_dr": {"colored": 3, "white": 3, "total": 6}}
    assert [u.id for u in out.position.units] == ["3-3-7"]
    assert [(w.location, w.burning, w.name, w.since) for w in out.position.wrecks] == [
        (Y9, False, "halftrack wreck", 3)]
    # below the TK#: a Burning Wreck, the AFV gone too
    out = resolve_mol_attack(pos, mol_attack(pos, plain), ScriptedDice([3, 2, 3]))
    assert [u.id for u in out.position.units] == ["3-3-7"]
    assert [(w.location, w.burning, w.name) for w in out.position.wrecks] == [(Y9, True, "halftrack wreck")]
    assert [(c["kind"], c["location"], c["unit"]) for c in out.as_data()["consequences"][:2]] == [
        ("afv-eliminated", "Y9", "halftrack"), ("burning-wreck", "Y9", "halftrack")]
    assert [(e.rule, e.location, e.kind) for e in out.report.events][2] == ("B25.14", "Y9", "burning-wreck")


def test_a22_613_kindling_with_a_mol_keeps_every_kindling_rule() -> None:
    from asl_vassal_bridge.core.molotov import mol_kindling_attempt, mol_kindling_odds

    # an 8-1 leader directing: +1 reversed (B25.11) with and without the MOL's +2
    led = mol_kindling_odds(board3(), X8, UnitKind.SQUAD, leader_drm=-1)
    assert (led.with_mol.chance, led.without_mol.chance, led.chance) == (Fraction(13, 18), Fraction(5, 12),
                                                                         Fraction(14, 27))
    assert [str(d) for d in led.with_mol.drms] == ["+1 leadership -1 reversed (B25.11)", "+2 unit has a MOL (A22.613)"]
    new, rep = mol_kindling_attempt(board3(), X8, UnitKind.SQUAD, ScriptedDice([1, 3, 3]), side="Axis", leader_drm=-1)
    assert rep.rolls()[1].final == 9 and new.is_burning(X8)
    # a squad without a leader, a pinned unit: refused before any die is rolled, the odds refused alike
    with pytest.raises(IllegalAction, match="stacked with a leader"):
        mol_kindling_odds(board3(), X8, UnitKind.SQUAD)
    with pytest.raises(IllegalAction, match="unpinned"):
        mol_kindling_odds(board3(), X8, UnitKind.SQUAD, leader_drm=0, pinned=True)
    dice = ScriptedDice([2, 3, 4])
    with pytest.raises(IllegalAction) as e:
        mol_kindling_attempt(board3(), X8, UnitKind.SQUAD, dice, side="Axis", leader_drm=0, pinned=True)
    assert str(e.value) == "a Kindling unit must be unpinned and in Good Order (B25.11)" and dice.log == []
    # a SMC's MOL Check (+2 SMC, +1 vs a non-AFV) fails on a 1: no +2, the SMC's −2 alone
    _, rep = mol_kindling_attempt(board3(), X8, UnitKind.LEADER, ScriptedDice([1, 5, 6]), side="Axis")
    assert [str(d) for d in rep.rolls()[0].check.drms] == ["+2 SMC (A22.611)", "+1 vs a non-AFV (A22.611)"]
    assert [str(d) for d in rep.rolls()[1].check.drms] == ["-2 SMC Kindling (B25.11)"]


def test_a22_611_the_dice_are_rolled_for_their_purpose_and_a_dr_is_two_dice() -> None:
    from asl_vassal_bridge.core.dice import Roll

    class OneDie:
        def DR(self, purpose: str) -> Roll:
            return Roll(3)

        def dr(self, purpose: str) -> Roll:
            return Roll(1)

    pos = board3()
    dice = ScriptedDice([2, 1, 6])
    resolve_mol_attack(pos, mol_attack(pos, partisan()), dice)
    assert dice.log == [("MOL Check X8 (A22.611)", Roll(2)), ("MOL attack X8 → W9 (A22.611)", Roll(1, 6))]
    with pytest.raises(BadInput) as e:
        resolve_mol_attack(pos, mol_attack(pos, partisan()), OneDie())
    assert str(e.value) == "a MOL attack needs a DR (two dice), not a dr"
    # a lone crew that fails its Check rolls no DR and changes nothing on the map
    crew = partisan(thrower_kind=UnitKind.CREW, thrower_fp=1, thrower_id="crew")
    out = resolve_mol_attack(pos, mol_attack(pos, crew), ScriptedDice([6]))
    assert out.position == pos and [e.location for e in out.report.events] == ["X8", "X8"]


def test_mol_consequences_name_their_location_rule_and_dice() -> None:
    from asl_vassal_bridge.core.dice import Roll
    from asl_vassal_bridge.core.molotov import mol_kindling_attempt

    # huts: the Flame's Location; a hut already burning and a colored dr other than 1: no new Flame reported
    pos = hut_pos()
    out = resolve_mol_attack(pos, mol_attack(pos, partisan(X9)), ScriptedDice([4, 1, 3]))
    assert [c.location for c in out.of_kind(Kind.FLAME)] == [X9]
    burning = pos.add_fire(Fire(X9, FireKind.FLAME, since=1))
    out = resolve_mol_attack(burning, mol_attack(burning, partisan(X9)), ScriptedDice([4, 2, 3]))
    assert not out.has(Kind.FLAME) and out.position.fires == burning.fires
    # the voided attack still reports its Original DR
    out = resolve_mol_attack(board3(), mol_attack(board3(), partisan()), ScriptedDice([1, 6, 1]))
    assert out.original_dr == Roll(6, 1)
    # vs an AFV in the woods: the MOL's colored dr 1 Flame stays beside the To Kill DR's consequences
    woods_afv = partisan(W9, vs_afv=True, predesignated=True, basic_tk=6, afv_id="halftrack")
    out = resolve_mol_attack(board3(), mol_attack(board3(), woods_afv), ScriptedDice([3, 1, 4]))
    assert [c.kind for c in out.consequences] == [Kind.FLAME, Kind.AFV_ELIMINATED, Kind.BURNING_WRECK,
                                                  Kind.IFT_ATTACK]
    # a lone SMC of no FP of its own vs an AFV: no Small Arms attack vs the other units; 1 FP is one
    smc = partisan(Y9, vs_afv=True, predesignated=True, basic_tk=6, thrower_kind=UnitKind.LEADER, thrower_fp=0)
    assert not resolve_mol_attack(board3(), mol_attack(board3(), smc), ScriptedDice([1, 5, 5])).has(Kind.IFT_ATTACK)
    one = partisan(Y9, vs_afv=True, predesignated=True, basic_tk=6, thrower_fp=1, fp_halvings=1)
    (ift,) = resolve_mol_attack(board3(), mol_attack(board3(), one), ScriptedDice([1, 5, 5])).of_kind(Kind.IFT_ATTACK)
    assert (ift.fp, ift.column) == (1, 1)
    # the A22.4 line of the attack vs the other units, and the no-MOL attack's rule vs an AFV
    out = resolve_mol_attack(board3(), mol_attack(board3(), halftrack(target_ft=1)), ScriptedDice([3, 2, 5]))
    assert [(e.location, e.kind) for e in out.report.events][-1] == ("Y9", "ift")
    out = resolve_mol_attack(board3(), mol_attack(board3(), halftrack()), ScriptedDice([4, 2, 5]))
    assert [c.rule for c in out.of_kind(Kind.IFT_ATTACK)] == ["A22.612"]
    # Kindling: the MOL Check's own line
    _, rep = mol_kindling_attempt(board3(), X8, UnitKind.SQUAD, ScriptedDice([2, 3, 4]), side="Axis", leader_drm=0)
    assert (rep.events[0].rule, rep.events[0].text, rep.events[0].location) == ("A22.613", "MOL Check for Kindling",
                                                                                "X8")


def test_mol_check_defaults_plural_levels_and_the_a22_4_line_of_a_plain_attack() -> None:
    assert mol_check(UnitKind.SQUAD).chance == Fraction(1, 3)  # vs a non-AFV, not CX
    hexes = {Hex.parse("A1"): HexInfo(Terrain.OPEN_GROUND), Hex.parse("A2"): HexInfo(building="tower")}
    tower = Position(GameMap.from_hexes(hexes, [Building("tower", Material.STONE, BuildingKind.MULTI_STORY)]))
    assert tem(tower, "A2", indirect=True) == ["+5 stone building, 2 levels above vs Indirect Fire (B23.3, B23.32)"]
    assert tem(tower, "A2.1", indirect=True) == ["+4 stone building, 1 level above vs Indirect Fire (B23.3, B23.32)"]
    out = resolve_mol_attack(board3(), mol_attack(board3(), partisan(target_ft=1)), ScriptedDice([2, 3, 4]))
    assert [(e.rule, e.location, e.kind) for e in out.report.events][-1] == ("A22.4", "W9", "ift")
