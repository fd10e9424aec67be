"""FT attacks (A22.1–A22.5): FP, range, elevation, DRMs, AFVs, malfunction, Flames — every restriction refused."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.dice import Roll, ScriptedDice
from asl_vassal_bridge.core.environment import EC, Environment, Wind, WindForce
from asl_vassal_bridge.core.errors import BadInput, IllegalAction
from asl_vassal_bridge.core.flamethrower import (
    ConsequenceKind as Kind,
)
from asl_vassal_bridge.core.flamethrower import (
    FtAttack,
    ft_attack,
    ft_vulnerability_drm,
    ift_column,
    resolve_ft_attack,
)
from asl_vassal_bridge.core.hexes import Direction, Hex
from asl_vassal_bridge.core.position import Clock, GameMap, HexInfo, Location, Phase, Position, UnitKind
from asl_vassal_bridge.core.terrain import Terrain

FIRER = Hex.parse("E5")


def line(*terrain: Terrain, elevations: tuple[int, ...] = (), phase: Phase = Phase.PFPH,
         env: Environment = Environment(), direction: Direction = Direction.DOWN) -> Position:
    """Hexes in a straight line from E5: the firer's hex first."""
    hexes = {}
    for i, t in enumerate(terrain):
        hexes[FIRER.neighbour(direction, i) if i else FIRER] = HexInfo(t, elevations[i] if elevations else 0)
    return Position(GameMap.from_hexes(hexes), env, Clock(1, 1, phase))


def at(i: int, direction: Direction = Direction.DOWN) -> Location:
    return Location(FIRER.neighbour(direction, i) if i else FIRER)


def ft(target: int = 1, **kw: object) -> FtAttack:
    return FtAttack(at(0), at(target), firer_id="FT squad", **kw)  # type: ignore[arg-type]


OG, W = Terrain.OPEN_GROUND, Terrain.WOODS


# --- FP (A22.1, A22.32) ------------------------------------------------------------------------------------------


def test_a22_1_normal_range_24_fp_long_range_12_fp() -> None:
    pos = line(OG, W, W)
    assert (ft_attack(pos, ft(1)).fp, ft_attack(pos, ft(1)).column) == (24, 24)
    plan = ft_attack(pos, ft(2))
    assert plan.long_range and plan.fp == 12 and plan.column == 12


def test_a22_1_same_hex_is_24_fp_never_tpbf() -> None:
    plan = ft_attack(line(W), ft(0))
    assert plan.fp == 24 and any("never increased" in e.text for e in plan.notes)


def test_a22_1_long_range_is_only_one_hex_beyond_normal() -> None:
    with pytest.raises(IllegalAction, match=r"A22\.1"):
        ft_attack(line(OG, OG, OG, W), ft(3))


def test_a22_1_underscored_vehicular_ft_normal_range_2_long_range_3() -> None:
    pos = line(OG, OG, W, W, W)
    v = {"firer_kind": UnitKind.VEHICLE, "underscored": True}
    assert ft_attack(pos, ft(2, **v)).fp == 24
    assert ft_attack(pos, ft(3, **v)).fp == 12
    with pytest.raises(IllegalAction, match=r"A22\.1"):
        ft_attack(pos, ft(4, **v))


def test_a22_1_underscore_only_for_vehicular_ft() -> None:
    with pytest.raises(IllegalAction, match=r"A22\.1"):
        ft_attack(line(OG, OG, W), ft(2, underscored=True))


def test_a22_1_area_fire_halves() -> None:
    assert ft_attack(line(OG, W), ft(1, area_fire=True)).fp == 12


def test_a22_1_the_afph_does_not_halve_a_ft_but_area_fire_there_still_does() -> None:
    # A22.1: halved for every form of Area Fire; the AFPh itself is not one for a FT (docs/rules.md).
    assert ft_attack(line(OG, W, phase=Phase.AFPH), ft(1)).fp == 24
    assert ft_attack(line(OG, W, phase=Phase.AFPH), ft(1, area_fire=True)).fp == 12


def test_a22_1_cowering_shifts_the_column_on_doubles() -> None:
    pos = line(OG, W)
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([3, 3]), ift_result="1MC")
    assert out.of_kind(Kind.IFT_ATTACK)[0].column == 20
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1, cower_columns=2)), ScriptedDice([3, 3]))
    assert out.of_kind(Kind.IFT_ATTACK)[0].column == 16


def test_a22_32_two_levels_vs_unarmored_12_normal_6_long() -> None:
    pos = line(OG, OG, OG, elevations=(0, 2, 2))
    assert ft_attack(pos, ft(1)).fp == 12
    assert ft_attack(pos, ft(2)).fp == 6


def test_a22_32_never_more_than_two_levels() -> None:
    with pytest.raises(IllegalAction, match=r"A22\.32"):
        ft_attack(line(OG, OG, elevations=(3, 0)), ft(1))


def test_a22_32_no_long_range_through_an_obstructed_los() -> None:
    with pytest.raises(IllegalAction, match=r"A22\.32"):
        ft_attack(line(OG, OG, W), ft(2, los_obstructed=True))


HEAVY = Environment(wind=Wind(WindForce.HEAVY_WINDS, Direction.DOWN))


def test_b25_63_no_long_range_in_heavy_winds_against_the_wind() -> None:
    pos = line(OG, OG, W, env=HEAVY, direction=Direction.UP)
    with pytest.raises(IllegalAction, match=r"B25\.63"):
        ft_attack(pos, FtAttack(at(0, Direction.UP), at(2, Direction.UP)))
    assert ft_attack(pos, FtAttack(at(0, Direction.UP), at(1, Direction.UP))).fp == 24  # Normal Range is fine


def test_b25_63_long_range_in_heavy_winds_firing_with_the_wind() -> None:
    plan = ft_attack(line(OG, OG, W, env=HEAVY), ft(2))
    assert plan.fp == 12 and any(e.rule == "B25.63" for e in plan.notes)


# --- DRM (A22.2) --------------------------------------------------------------------------------------------


def test_a22_2_no_tem_no_leadership_no_heroism_but_cx_and_hindrance() -> None:
    plan = ft_attack(line(OG, W), ft(1, cx=True, hindrance_drm=1, leader_drm=-2, heroic=True))
    assert [(d.value, d.rule) for d in plan.drms] == [(1, "A22.2"), (1, "A22.2")]
    assert sum(1 for e in plan.notes if e.rule == "A22.2") == 2


def test_b30_113_pillbox_tem_vs_non_ca_attack() -> None:
    plan = ft_attack(line(OG, OG), ft(1, pillbox_non_ca_tem=3))
    assert [(d.value, d.rule) for d in plan.drms] == [(3, "B30.113")]


def test_a22_4_vulnerability_minus_one_per_ft() -> None:
    assert ft_vulnerability_drm(0) is None
    d = ft_vulnerability_drm(2)
    assert d is not None and (d.value, d.rule) == (-2, "A22.4")


# --- usage (A22.3, A22.31, A22.33) -----------------------------------------------------------------------------


@pytest.mark.parametrize(("kw", "rule"), [
    ({"pinned": True}, "A22.33"),
    ({"vs_descending_paratroops": True}, "A22.33"),
    ({"fire_group": True}, "A22.31"),
    ({"used_ft_or_dc_this_turn": True}, "A22.3"),
    ({"vs_afv": True, "basic_tk": 13}, "A22.34"),
])
def test_a22_3_restrictions_refused_with_the_rule(kw: dict[str, object], rule: str) -> None:
    with pytest.raises(IllegalAction, match=rule.replace(".", r"\.")):
        ft_attack(line(OG, W), ft(1, **kw))


def test_a22_31_ft_in_an_ovr_may_combine() -> None:
    assert ft_attack(line(OG, W), ft(1, fire_group=True, overrun=True)).fp == 24


@pytest.mark.parametrize(("elite", "captured", "x"), [(True, False, 10), (False, False, 8), (True, True, 8),
                                                      (False, True, 6)])
def test_a22_3_captured_sw_x_penalty(elite: bool, captured: bool, x: int) -> None:
    assert ft_attack(line(OG, W), ft(1, elite=elite, captured=captured)).malfunction_x == x


# --- malfunction (A22.5) -----------------------------------------------------------------------------------


def test_a22_5_original_dr_10_removes_the_ft() -> None:
    pos = line(OG, OG)
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([4, 6]))
    (c,) = out.of_kind(Kind.FT_REMOVED)
    assert c.unit == "FT squad" and c.rule == "A22.5"
    assert not resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([4, 5])).has(Kind.FT_REMOVED)


def test_a22_5_non_elite_ft_malfunctions_on_8() -> None:
    pos = line(OG, OG)
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1, elite=False)), ScriptedDice([4, 4]))
    assert out.has(Kind.FT_REMOVED)


def test_a22_5_vehicular_ft_does_not_use_the_infantry_malfunction() -> None:
    pos = line(OG, OG)
    plan = ft_attack(pos, ft(1, firer_kind=UnitKind.VEHICLE))
    assert plan.malfunction_x is None
    assert not resolve_ft_attack(pos, plan, ScriptedDice([6, 6])).has(Kind.FT_REMOVED)


# --- Flames (B25.12) ----------------------------------------------------------------------------------------


def test_b25_12_original_kia_in_woods_then_fire_start_dr_places_a_flame() -> None:
    pos = line(OG, W)
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([1, 2, 5, 5]), ift_result="KIA")
    assert out.position.is_burning(at(1)) and out.has(Kind.FLAME)


def test_b25_12_kia_fire_start_dr_too_low_no_flame() -> None:
    pos = line(OG, W)
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([1, 2, 2, 3]), ift_result="K/2")
    assert not out.has(Kind.FLAME)


def test_b25_12_wet_ec_modifies_the_fire_start_dr() -> None:
    pos = line(OG, W, env=Environment(ec=EC.WET))
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([1, 2, 5, 5]), ift_result="KIA")
    assert not out.has(Kind.FLAME)  # 10 - 2 = 8 < Kindle # 9


def test_b25_12_no_fire_start_on_a_morale_result_or_in_open_ground() -> None:
    pos = line(OG, W, OG)
    assert not resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([1, 2]), ift_result="2MC").has(Kind.FLAME)
    pos2 = line(OG, OG)
    assert not resolve_ft_attack(pos2, ft_attack(pos2, ft(1)), ScriptedDice([1, 2]), ift_result="KIA").has(Kind.FLAME)


# --- vs AFV (A22.34) ---------------------------------------------------------------------------------------


def afv(target: int = 1, **kw: object) -> FtAttack:
    return ft(target, vs_afv=True, predesignated=True, basic_tk=13, afv_id="PzIV", **kw)


@pytest.mark.parametrize(("target", "ce", "ot", "tk"), [
    (1, False, False, 13), (2, False, False, 6), (1, True, False, 14), (1, False, True, 15), (1, True, True, 16),
    (2, True, True, 9),
])
def test_a22_34_basic_tk_halved_at_long_range_plus_ce_ot(target: int, ce: bool, ot: bool, tk: int) -> None:
    assert ft_attack(line(OG, OG, OG), afv(target, afv_ce=ce, afv_ot=ot)).final_tk == tk


def test_a22_34_kill_is_a_burning_wreck() -> None:
    pos = line(OG, OG)
    out = resolve_ft_attack(pos, ft_attack(pos, afv()), ScriptedDice([5, 6]))
    assert out.has(Kind.AFV_ELIMINATED) and out.has(Kind.BURNING_WRECK) and out.has(Kind.FT_REMOVED)
    assert [w.location for w in out.position.burning_wrecks()] == [at(1)]


def test_a22_34_no_kill_vulnerable_prc_take_a_specific_collateral_attack() -> None:
    pos = line(OG, OG, OG)
    out = resolve_ft_attack(pos, ft_attack(pos, afv(2, vulnerable_prc=True)), ScriptedDice([3, 4]))
    assert not out.has(Kind.AFV_ELIMINATED)
    (c,) = out.of_kind(Kind.COLLATERAL_ATTACK)
    assert c.fp == 12 and c.unit == "PzIV"


def test_a22_34_missing_basic_tk_is_bad_input() -> None:
    with pytest.raises(BadInput, match="Basic TK#"):
        ft_attack(line(OG, OG), ft(1, vs_afv=True, predesignated=True))


def test_ift_columns() -> None:
    assert [ift_column(f) for f in (0.5, 1, 3, 6, 10, 13, 24, 29, 36, 99)] == [None, 1, 2, 6, 8, 12, 24, 24, 36, 36]


def test_off_map_target_is_bad_input() -> None:
    with pytest.raises(BadInput):
        ft_attack(line(OG), ft(1))


def test_by_unit_pinned_unit_refused() -> None:
    from asl_vassal_bridge.core.position import Unit

    u = Unit("g1", "4-6-7", "German", at(0), pinned=True)
    with pytest.raises(IllegalAction, match=r"A22\.33"):
        ft_attack(line(OG, W), FtAttack.by_unit(u, at(1)))


def test_ft_plan_as_data() -> None:
    pos = line(OG, OG, W)
    d = ft_attack(pos, ft(2, cx=True)).as_data(pos)
    assert (d["fp"], d["column"], d["long_range"], d["total_drm"], d["malfunction_x"]) == (12, 12, True, 1, 10)
    assert d["drms"] == [{"value": 1, "reason": "CX firer", "rule": "A22.2"}]


# --- A22.4 vulnerability of a FT-possessing target --------------------------------------------------------------


def test_a22_4_a_target_possessing_ft_resolves_the_attack_one_lower_per_ft() -> None:
    pos = line(OG, W)
    plan = ft_attack(pos, ft(1, target_ft=2))
    assert plan.total_drm == 0  # the other units of the Location are attacked without it
    assert any(e.rule == "A22.4" for e in plan.notes)
    out = resolve_ft_attack(pos, plan, ScriptedDice([3, 4]), ift_result="1MC")
    base, vuln = out.of_kind(Kind.IFT_ATTACK)
    assert (base.final_dr, vuln.final_dr, vuln.drm, vuln.rule) == (7, 5, -2, "A22.4")
    assert resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([3, 4])).of_kind(Kind.IFT_ATTACK)[1:] == []
    with pytest.raises(BadInput, match="0 or more FT"):
        ft_attack(pos, ft(1, target_ft=-1))


def test_a22_4_a_mol_attack_on_a_ft_possessing_unit_too() -> None:
    from asl_vassal_bridge.core.molotov import MolAttack, mol_attack, resolve_mol_attack

    pos = line(OG, W)
    plan = mol_attack(pos, MolAttack(at(0), at(1), thrower_fp=4, available=True, target_ft=1))
    out = resolve_mol_attack(pos, plan, ScriptedDice([4, 3, 4]))  # MOL Check fails: 8 FP, +1 woods
    base, vuln = out.of_kind(Kind.IFT_ATTACK)
    assert (base.final_dr, vuln.final_dr, vuln.rule) == (8, 7, "A22.4")


# --- what the players read, word for word -------------------------------------------------------------------------


def test_a22_1_to_a22_4_plan_describe_and_as_data_word_for_word() -> None:
    # Long Range, Area Fire in the AFPh, CX, a Hindrance, a leader and a hero (neither applies), a non-elite user of a
    # captured FT, a target possessing a FT.
    pos = line(OG, W, W, phase=Phase.AFPH)
    plan = ft_attack(pos, ft(2, cx=True, hindrance_drm=1, leader_drm=-1, heroic=True, elite=False, captured=True,
                             target_ft=1, area_fire=True))
    notes = [
        ("A22.2", "leadership DRM -1 does not apply to a FT attack"),
        ("A22.2", "heroism DRM does not apply to a FT attack"),
        ("A22.1", "FT FP is not halved for use in the AFPh"),
        ("A22.1", "Area Fire: FT FP halved"),
        ("A22.1", "FT FP is never increased (no PBF/TPBF)"),
        ("A22.1, A7.9", "on Original doubles the FT cowers: 1 column to the left"),
        ("A22.3", "non-elite user: captured-SW X# penalty doubled (captured FT) → X6"),
        ("A22.3", "the squad's inherent FP may make a separate attack"),
        ("A22.4", "vs the target unit possessing 1 FT: −1 to the IFT DR (resolved for it alone)"),
    ]
    assert plan.describe(pos).splitlines() == [
        "FT attack E5 → E7: range 2 (Long Range), level difference 0",
        "  FP 6 → IFT column 6",
        "  DRM: +1 CX firer (A22.2), +1 LOS Hindrance (A22.2) (total +2)",
        "  malfunction: Original DR ≥ 6 removes the FT after the attack (A22.5)",
        *[f"  {text} ({rule})" for rule, text in notes],
    ]
    assert plan.as_data(pos) == {
        "attack": "FT", "legal": True, "firer": "E5", "target": "E7", "range": 2, "long_range": True,
        "level_difference": 0, "fp": 6, "column": 6,
        "drms": [{"value": 1, "reason": "CX firer", "rule": "A22.2"},
                 {"value": 1, "reason": "LOS Hindrance", "rule": "A22.2"}], "total_drm": 2, "final_tk": None,
        "malfunction_x": 6,
        "notes": [{"rule": rule, "text": text, "kind": "info", "location": None} for rule, text in notes]}


def test_a22_1_a22_5_a22_4_outcome_text_and_data_word_for_word() -> None:
    pos = line(OG, W, W, phase=Phase.AFPH)
    plan = ft_attack(pos, ft(2, cx=True, hindrance_drm=1, elite=False, captured=True, target_ft=1, area_fire=True))
    out = resolve_ft_attack(pos, plan, ScriptedDice([3, 3]), ift_result="1MC")
    assert out.text().splitlines() == [
        "FT attack E5 → E7",
        "  Original doubles: the FT cowers, IFT column 6 → 4 (A7.9)",
        "  IFT DR 6 (3,3) +1 CX firer (A22.2), +1 LOS Hindrance (A22.2) → Final DR 8 on the 4 column: 1MC (A22.2)",
        "  the same attack vs the unit possessing 1 FT: -1 to its IFT DR, Final DR 7 (A22.4)",
        "  the Final DR's result 1MC does not tell the Original DR 6's (DRM +2); give the IFT result of the Original "
        "DR: the FT fire-start (Original K/KIA) is not checked (B25.12)",
        "  Original DR 6 ≥ 6: the FT is out of fuel and removed after the attack (A22.5)",
        "Consequences:",
        "  ift-attack: FT attack vs the units in E7 (A22.1)",
        "  ift-attack: the same attack vs the unit possessing 1 FT: -1 to its IFT DR, Final DR 7 (A22.4)",
        "  ft-removed: the FT of FT squad is removed from play (A22.5)",
    ]
    data = out.as_data()
    assert data["original_dr"] == {"colored": 3, "white": 3, "total": 6}
    assert data["consequences"] == [
        {"kind": "ift-attack", "rule": "A22.1", "text": "FT attack vs the units in E7", "location": "E7",
         "unit": "FT squad", "fp": 6, "column": 4, "drm": 2, "final_dr": 8, "result": "1MC"},
        {"kind": "ift-attack", "rule": "A22.4", "text": "the same attack vs the unit possessing 1 FT: -1 to its IFT "
         "DR, Final DR 7", "location": "E7", "unit": "FT squad", "fp": 6, "column": 4, "drm": 1, "final_dr": 7,
         "result": None},
        {"kind": "ft-removed", "rule": "A22.5", "text": "the FT of FT squad is removed from play", "location": "E5",
         "unit": "FT squad", "fp": None, "column": None, "drm": None, "final_dr": None, "result": None}]
    assert [(e["rule"], e["kind"], e["location"]) for e in data["events"]] == [
        ("A7.9", "info", None), ("A22.2", "ift", "E7"), ("A22.4", "ift", "E7"), ("B25.12", "info", "E7"),
        ("A22.5", "ft-removed", "E5")]
    # no doubles: no cowering; an Original DR below the X#: the FT stays
    out = resolve_ft_attack(pos, plan, ScriptedDice([1, 4]))
    assert [e.rule for e in out.report.events] == ["A22.2", "A22.4", "B25.12"]
    assert out.report.events[0].text == ("IFT DR 5 (1,4) +1 CX firer (A22.2), +1 LOS Hindrance (A22.2) → Final DR 7 "
                                         "on the 6 column (read the result on the IFT)")
    assert out.report.events[2].text == "no IFT result given: the FT fire-start (Original K/KIA) is not checked"


@pytest.mark.parametrize(("firer", "target", "levels", "fp", "line2"), [
    (0, 2, "+2", 12, "  target two levels higher: 12 FP at Normal Range (A22.32)"),
    (2, 0, "-2", 12, "  target two levels lower: 12 FP at Normal Range (A22.32)"),
    (0, 1, "+1", 24, "  FT FP is never increased (no PBF/TPBF) (A22.1)"),
])
def test_a22_32_level_difference_word_for_word(firer: int, target: int, levels: str, fp: int, line2: str) -> None:
    pos = line(OG, OG, OG, elevations=(firer, target, target))
    plan = ft_attack(pos, ft(1))
    assert plan.fp == fp and plan.as_data(pos)["level_difference"] == target - firer
    lines = plan.describe(pos).splitlines()
    assert lines[0] == f"FT attack E5 → E6: range 1 (Normal Range), level difference {levels}"
    assert lines[4] == line2
    long = ft_attack(pos, ft(2))
    assert long.fp == fp // 2
    if fp == 12:
        assert long.notes[0].text.endswith(": 6 FP at Long Range")


def test_a22_32_given_level_difference_and_range_override_the_map() -> None:
    from fractions import Fraction

    pos = line(OG, OG, OG)
    plan = ft_attack(pos, ft(1, level_difference=Fraction(3, 2)))
    assert plan.fp == 24 and plan.as_data(pos)["level_difference"] == 1.5
    assert plan.describe(pos).splitlines()[0].endswith("level difference +1½")
    with pytest.raises(IllegalAction) as e:
        ft_attack(pos, ft(1, level_difference=Fraction(5, 2)))
    assert str(e.value) == "a FT never fires at a target more than two levels higher or lower (level difference +2½, " \
                           "A22.32)"
    assert ft_attack(pos, ft(1, range=2)).long_range


def test_a22_1_vehicular_ft_and_heavy_winds_word_for_word() -> None:
    pos = line(OG, OG, OG, elevations=(0, 2, 2))
    plan = ft_attack(pos, ft(2, firer_kind=UnitKind.VEHICLE, cower_columns=2))
    assert plan.describe(pos).splitlines() == [
        "FT attack E5 → E7: range 2 (Long Range), level difference +2",
        "  FP 6 → IFT column 6",
        "  DRM: no DRM (total +0)",
        "  target two levels higher: 6 FP at Long Range (A22.32)",
        "  FT FP is never increased (no PBF/TPBF) (A22.1)",
        "  on Original doubles the FT cowers: 2 columns to the left (A22.1, A7.9)",
    ]
    windy = line(OG, OG, W, env=HEAVY)
    assert ft_attack(windy, ft(2)).describe(windy).splitlines()[4] == (
        "  Heavy Winds: Long Range allowed, the FT fires directly with the wind (B25.63)")
    # the wind's direction is read off the map unless the declaration says otherwise
    against = line(OG, OG, W, env=HEAVY, direction=Direction.UP)
    up = FtAttack(at(0, Direction.UP), at(2, Direction.UP), with_wind=True)
    assert ft_attack(against, up).fp == 12
    with pytest.raises(IllegalAction, match=r"B25\.63"):
        ft_attack(windy, ft(2, with_wind=False))


@pytest.mark.parametrize(("kw", "message"), [
    ({"pinned": True}, "a pinned unit cannot use a FT (A22.33)"),
    ({"vs_descending_paratroops": True}, "a FT cannot fire at descending paratroops (A22.33)"),
    ({"fire_group": True}, "a FT never combines its FP with any other unit or weapon, not even its firer's, except in "
                           "an OVR (A22.31, D7.11)"),
    ({"used_ft_or_dc_this_turn": True}, "a unit may use only one FT/DC in a Player Turn (A22.3)"),
    ({"underscored": True}, "only some vehicular FT have a Normal Range of 2 (underscored FP, A22.1, D1.8)"),
    ({"los_obstructed": True}, "a FT cannot attack at Long Range when the LOS is obstructed (A22.32)"),
    ({"vs_afv": True, "basic_tk": 13}, "a FT attacks an AFV on the To Kill Table only when the AFV was predesignated "
                                       "as its main target (A22.34)"),
    ({"range": 3}, "a FT's Long Range is exactly one hex beyond its Normal Range of 1: range 3 is out of reach "
                   "(A22.1, A22.32)"),
    ({"range": 4, "firer_kind": UnitKind.VEHICLE, "underscored": True}, "a FT's Long Range is exactly one hex beyond "
     "its Normal Range of 2: range 4 is out of reach (A22.1, A22.32)"),
])
def test_a22_refusals_word_for_word(kw: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalAction) as e:
        ft_attack(line(OG, OG, W), ft(2, **kw))
    assert str(e.value) == message


@pytest.mark.parametrize(("kw", "message"), [
    ({"vs_afv": True, "predesignated": True}, "a FT attack vs an AFV needs the FT's Basic TK# from the C7.34 HE & "
     "Flame To Kill Table (--basic-tk), which our rule texts do not hold (A22.34)"),
    ({"target_ft": -2}, "a target possesses 0 or more FT, not -2"),
])
def test_a22_bad_declarations_word_for_word(kw: dict[str, object], message: str) -> None:
    with pytest.raises(BadInput) as e:
        ft_attack(line(OG, OG, W), ft(2, **kw))
    assert str(e.value) == message
    with pytest.raises(BadInput) as e:
        ft_vulnerability_drm(-1)
    assert str(e.value) == "a unit possesses 0 or more FT, not -1"


def test_a22_3_a_vehicular_ft_may_be_used_after_another_ft_and_only_a_squad_has_inherent_fp_to_spare() -> None:
    pos = line(OG, W)
    vehicle = ft_attack(pos, ft(1, firer_kind=UnitKind.VEHICLE, used_ft_or_dc_this_turn=True))
    assert vehicle.fp == 24 and vehicle.malfunction_x is None
    assert all("inherent FP" not in e.text for e in vehicle.notes)
    hs = ft_attack(pos, ft(1, firer_kind=UnitKind.HALF_SQUAD))
    assert all("inherent FP" not in e.text for e in hs.notes) and hs.malfunction_x == 10
    captured = ft_attack(pos, ft(1, captured=True))
    assert [e.text for e in captured.notes if e.rule == "A21.11"] == ["captured FT: X# lowered by two → X8"]
    non_elite = ft_attack(pos, ft(1, elite=False))
    assert next(e.text for e in non_elite.notes if e.rule == "A22.3") == "non-elite user: captured-SW X# penalty → X8"
    assert ft_attack(pos, ft(1, cower_columns=0)).notes[-1].text == "the squad's inherent FP may make a separate attack"
    assert all(e.rule != "A22.1, A7.9" for e in ft_attack(pos, ft(1, cower_columns=0)).notes)
    assert not any(e.rule == "A22.1" and "AFPh" in e.text for e in ft_attack(pos, ft(1)).notes)


def test_a7_9_cowering_off_the_left_of_the_table_leaves_no_column() -> None:
    from asl_vassal_bridge.core.flamethrower import shift_column

    assert shift_column(24, 1) == 20 and shift_column(1, 1) is None and shift_column(2, 2) is None
    assert shift_column(None, 1) is None and shift_column(4, 0) == 4


@pytest.mark.parametrize(("dice", "kw", "events", "flame"), [
    ([1, 2, 5, 5], {"ift_result": "1MC", "original_ift_result": "KIA"}, [
        "FT fire-start DR: the Original DR 3's IFT result KIA is an Original K/KIA (B25.12)",
        "E6: FT fire start in E6 (Woods, Kindle # 9) (B25.12): DR 10 (5,5), no DRM → Final 10 vs ≥ 9: Flame"], True),
    ([1, 2], {"ift_result": "1MC", "original_ift_result": "2MC"}, [
        "no FT fire-start DR in E6: the Original DR 3's IFT result 2MC is not K/KIA (B25.12)"], False),
    ([1, 2], {"ift_result": "KIA"}, [
        "the Final DR's result KIA does not tell the Original DR 3's (DRM +3); give the IFT result of the Original DR: "
        "the FT fire-start (Original K/KIA) is not checked (B25.12)"], False),
])
def test_b25_12_ft_fire_start_with_a_drm_word_for_word(dice: list[int], kw: dict[str, str], events: list[str],
                                                        flame: bool) -> None:
    pos = line(OG, W)
    plan = ft_attack(pos, ft(1, pillbox_non_ca_tem=3, cower_columns=0))
    out = resolve_ft_attack(pos, plan, ScriptedDice(dice), **kw)
    assert [e.describe() for e in out.report.events][1:] == events
    assert out.has(Kind.FLAME) is flame and bool(out.position.flames()) is flame
    if flame:
        (c,) = out.of_kind(Kind.FLAME)
        assert (c.rule, c.text, c.location) == ("B25.12", "Flame in E6", at(1))


def test_b25_12_no_drm_final_result_serves_and_open_ground_makes_no_dr_word_for_word() -> None:
    pos = line(OG, OG)
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([1, 2]), ift_result="KIA")
    assert [e.describe() for e in out.report.events] == [
        "IFT DR 3 (1,2) no DRM → Final DR 3 on the 24 column: KIA (A22.2)",
        "no FT fire-start DR in E6: not Burnable Terrain (B25.12)"]
    woods = line(OG, W)
    out = resolve_ft_attack(woods, ft_attack(woods, ft(1)), ScriptedDice([1, 2, 5, 5]), ift_result="KIA")
    assert out.report.events[1].text == ("FT fire-start DR: the IFT result KIA (no DRM: Original DR 3 = Final DR) is "
                                         "an Original K/KIA")
    out = resolve_ft_attack(woods, ft_attack(woods, ft(1)), ScriptedDice([1, 2]), ift_result="PTC")
    assert out.report.events[1].text == ("no FT fire-start DR in E6: the IFT result PTC (no DRM: Original DR 3 = Final "
                                         "DR) is not K/KIA")


def test_a22_34_afv_outcomes_word_for_word() -> None:
    pos = line(OG, OG, OG)
    plan = ft_attack(pos, ft(1, vs_afv=True, predesignated=True, basic_tk=8, afv_id="PzIV", vulnerable_prc=True))
    assert plan.describe(pos).splitlines() == [
        "FT attack E5 → E6: range 1 (Normal Range), level difference 0",
        "  vs PzIV: Final TK# 8 (C7.34 HE & Flame To Kill Table, A22.34); kills on a To Kill DR < Final TK#",
        "  malfunction: Original DR ≥ 10 removes the FT after the attack (A22.5)",
        "  FT FP is never increased (no PBF/TPBF) (A22.1)",
        "  AF do not affect a FT attack (A22.34)",
        "  the squad's inherent FP may make a separate attack (A22.3)",
    ]
    equal = resolve_ft_attack(pos, plan, ScriptedDice([4, 4]))
    assert equal.text().splitlines() == [
        "FT attack E5 → E6",
        "  To Kill DR 8 (4,4) vs Final TK# 8 (A22.34)",
        "  To Kill DR 8 = Final TK# 8 (C7)",
        "Consequences:",
        "  tk-equal: To Kill DR 8 = Final TK# 8: apply the C7 To Kill Table's result for an equal DR (not in our "
        "texts) (C7)",
        "  collateral-attack: Specific Collateral attack vs the Vulnerable PRC of PzIV (D.8) (A22.34)",
    ]
    prc = equal.of_kind(Kind.COLLATERAL_ATTACK)[0]
    assert (prc.location, prc.unit, prc.fp, prc.column) == (at(1), "PzIV", 24, 24)
    assert equal.position == pos and equal.of_kind(Kind.TK_EQUAL)[0].location == at(1)
    above = resolve_ft_attack(pos, plan, ScriptedDice([4, 5]))
    assert [e.describe() for e in above.report.events] == ["To Kill DR 9 (4,5) vs Final TK# 8 (A22.34)",
                                                          "To Kill DR 9 > Final TK# 8: PzIV not destroyed (A22.34)"]
    # the AFV is described as "the AFV" when it has no id of its own
    anon = ft_attack(pos, ft(1, vs_afv=True, predesignated=True, basic_tk=8))
    assert anon.describe(pos).splitlines()[1].startswith("  vs the AFV: Final TK# 8 ")
    # a kill: no Collateral attack; the AFV leaves the Position and its Burning Wreck stays
    from asl_vassal_bridge.core.position import Unit

    crewed = pos.with_(units=(Unit("g", "4-6-7", "German", at(0)),
                              Unit("PzIV", "PzIV", "Russian", at(1), UnitKind.VEHICLE)))
    kill = resolve_ft_attack(crewed, plan, ScriptedDice([3, 3]))
    assert not kill.has(Kind.COLLATERAL_ATTACK) and [u.id for u in kill.position.units] == ["g"]
    assert [(w.location, w.burning, w.name, w.since) for w in kill.position.wrecks] == [(at(1), True, "PzIV wreck", 1)]
    assert [c.describe() for c in kill.consequences] == [
        "afv-eliminated: PzIV eliminated (A22.34)",
        "burning-wreck: PzIV is a Burning Wreck in E6: FT or MOL attack DR 6 < kill number 8 (B25.14)"]
    assert kill.report.events[1].kind == "burning-wreck"


def test_attack_outcome_without_consequences_and_plain_data() -> None:
    from asl_vassal_bridge.core.explain import Report
    from asl_vassal_bridge.core.flamethrower import AttackOutcome, Consequence

    pos = line(OG, W)
    out = AttackOutcome(pos, (), Report("FT attack E5 → E6"))
    assert out.text() == "FT attack E5 → E6\n  (nothing to do)" and out.as_data() == {
        "consequences": [], "events": [], "original_dr": None}
    c = Consequence(Kind.ATTACK_CANCELLED, "A22.6111", "voided")
    assert c.as_data(pos)["location"] is None and c.describe() == "attack-cancelled: voided (A22.6111)"
    assert not out.has(Kind.FLAME) and out.of_kind(Kind.FLAME) == []


def test_huts_ft_vs_a_hut_word_for_word() -> None:
    # Fire cheat sheet, huts: an Original Effects DR below the FT's X# places the Flame (no K/KIA, no DR); at or above
    # it the general B25.12 rule still applies; a vehicular FT has no X#: B25.12 only (docs/rules.md).
    from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material

    hexes = {FIRER: HexInfo(OG), at(1).hex: HexInfo(building="hut")}
    pos = Position(GameMap.from_hexes(hexes, [Building("hut", Material.WOODEN, BuildingKind.HUT)]),
                   clock=Clock(1, 1, Phase.PFPH))
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([1, 2]), ift_result="1MC")
    assert [e.describe() for e in out.report.events][1:] == [
        "FT Original Effects DR 3 < X# 10: Flame in the hut in E6 (huts)"]
    assert [c.describe() for c in out.of_kind(Kind.FLAME)] == ["flame: Flame in the hut in E6 (huts)"]
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1, cower_columns=0)), ScriptedDice([5, 5, 5, 5]), ift_result="KIA")
    assert [e.describe() for e in out.report.events][1:4] == [
        "FT Original Effects DR 10 ≥ X# 10: no Flame in E6 (huts)",
        "FT fire-start DR: the IFT result KIA (no DRM: Original DR 10 = Final DR) is an Original K/KIA (B25.12)",
        "E6: FT fire start in E6 (Hut, Kindle # 6) (B25.12): DR 10 (5,5), no DRM → Final 10 vs ≥ 6: Flame"]
    assert [c.rule for c in out.of_kind(Kind.FLAME)] == ["B25.12"]
    vehicle = ft_attack(pos, ft(1, firer_kind=UnitKind.VEHICLE))
    out = resolve_ft_attack(pos, vehicle, ScriptedDice([1, 2, 5, 5]), ift_result="KIA")
    assert [e.rule for e in out.report.events] == ["A22.2", "B25.12", "B25.12"] and out.position.flames()


@pytest.mark.parametrize(("ce", "ot", "note"), [
    (True, False, "target AFV CE: TK# +1"), (False, True, "target AFV OT: TK# +2"),
    (True, True, "target AFV CE and OT: TK# +3"),
])
def test_a22_34_ce_ot_notes_word_for_word(ce: bool, ot: bool, note: str) -> None:
    plan = ft_attack(line(OG, OG, OG), afv(2, afv_ce=ce, afv_ot=ot))
    assert [e.text for e in plan.notes if e.rule == "A22.34"] == [
        "Long Range: Basic TK# 13 halved (FRD) to 6", note, "AF do not affect a FT attack"]
    assert all(e.rule != "A22.1, A7.9" for e in plan.notes)  # the To Kill DR does not cower
    assert all(e.rule != "A22.34" or "Long Range" not in e.text for e in ft_attack(line(OG, OG), afv(1)).notes)


def test_a22_4_the_same_attack_vs_a_ft_possessor_before_its_dr_is_known() -> None:
    from asl_vassal_bridge.core.flamethrower import Consequence, ft_possessor_attack

    c = Consequence(Kind.IFT_ATTACK, "A22.1", "FT attack vs the units in E6", at(1), "FT squad", fp=24, column=24)
    v = ft_possessor_attack(c, 2)
    assert v is not None and ft_possessor_attack(c, 0) is None
    assert (v.kind, v.rule, v.text, v.location, v.unit, v.fp, v.column, v.drm, v.final_dr) == (
        Kind.IFT_ATTACK, "A22.4", "the same attack vs the unit possessing 2 FT: -2 to its IFT DR", at(1), "FT squad",
        24, 24, None, None)
    known = ft_possessor_attack(Consequence(Kind.IFT_ATTACK, "A22.1", "x", at(1), fp=12, column=12, drm=1,
                                            final_dr=9), 1)
    assert known is not None and (known.drm, known.final_dr, known.text) == (
        0, 8, "the same attack vs the unit possessing 1 FT: -1 to its IFT DR, Final DR 8")


def test_by_unit_takes_kind_and_id_from_the_unit() -> None:
    from asl_vassal_bridge.core.position import Unit

    u = Unit("hs7", "2-4-7", "German", at(0), UnitKind.HALF_SQUAD)
    a = FtAttack.by_unit(u, at(1), cx=True)
    assert (a.firer, a.target, a.firer_kind, a.firer_id, a.pinned, a.cx) == (at(0), at(1), UnitKind.HALF_SQUAD, "hs7",
                                                                           False, True)


def test_huts_and_b25_12_one_flame_per_attack_and_none_reported_where_one_already_burns() -> None:
    from asl_vassal_bridge.core.position import Fire, FireKind
    from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material

    hexes = {FIRER: HexInfo(OG), at(1).hex: HexInfo(building="hut")}
    huts = Position(GameMap.from_hexes(hexes, [Building("hut", Material.WOODEN, BuildingKind.HUT)]),
                    clock=Clock(1, 1, Phase.PFPH))
    # the hut rule placed the Flame: no B25.12 DR follows, even on a KIA
    out = resolve_ft_attack(huts, ft_attack(huts, ft(1)), ScriptedDice([1, 2]), ift_result="KIA")
    assert [c.rule for c in out.of_kind(Kind.FLAME)] == ["huts"] and len(out.position.flames()) == 1
    assert [e.rule for e in out.report.events] == ["A22.2", "huts"]
    # a Flame already burns in the woods: a fire start that fails reports no new Flame
    pos = line(OG, W).add_fire(Fire(at(1), FireKind.FLAME, since=1))
    out = resolve_ft_attack(pos, ft_attack(pos, ft(1)), ScriptedDice([1, 2, 1, 2]), ift_result="KIA")
    assert not out.has(Kind.FLAME) and out.position.fires == pos.fires


def test_a22_34_to_kill_dr_equal_plain_data_word_for_word() -> None:
    pos = line(OG, OG, OG)
    plan = ft_attack(pos, ft(1, vs_afv=True, predesignated=True, basic_tk=8, afv_id="PzIV"))
    out = resolve_ft_attack(pos, plan, ScriptedDice([4, 4]))
    assert out.as_data()["consequences"] == [
        {"kind": "tk-equal", "rule": "C7", "text": "To Kill DR 8 = Final TK# 8: apply the C7 To Kill Table's result "
         "for an equal DR (not in our texts)", "location": "E6", "unit": "PzIV", "fp": None, "column": None,
         "drm": None, "final_dr": None, "result": None}]
    assert [(e["rule"], e["text"], e["kind"], e["location"]) for e in out.as_data()["events"]] == [
        ("A22.34", "To Kill DR 8 (4,4) vs Final TK# 8", "info", "E6"),
        ("C7", "To Kill DR 8 = Final TK# 8", "info", "E6")]
    kill = resolve_ft_attack(pos, plan, ScriptedDice([3, 4]))
    assert [(c["kind"], c["rule"], c["location"], c["unit"]) for c in kill.as_data()["consequences"]] == [
        ("afv-eliminated", "A22.34", "E6", "PzIV"), ("burning-wreck", "B25.14", "E6", "PzIV")]
    assert [(e["rule"], e["text"], e["kind"], e["location"]) for e in kill.as_data()["events"]][1] == (
        "B25.14", "To Kill DR 7 < Final TK# 8: PzIV eliminated, Burning Wreck", "burning-wreck", "E6")
    above = resolve_ft_attack(pos, plan, ScriptedDice([5, 4]))
    assert above.as_data()["events"][1]["location"] == "E6" and above.consequences == ()


class OneDie:
    """Dice that answer every roll with one die: a live game's dice could be asked for the wrong roll."""

    def DR(self, purpose: str) -> Roll:
        return Roll(3)

    def dr(self, purpose: str) -> Roll:
        return Roll(3)


def test_a22_the_attack_dr_is_two_dice_rolled_for_its_purpose() -> None:
    pos = line(OG, W)
    dice = ScriptedDice([1, 4])
    resolve_ft_attack(pos, ft_attack(pos, ft(1)), dice)
    assert dice.log == [("FT attack E5 → E6 (A22)", Roll(1, 4))]
    with pytest.raises(BadInput) as e:
        resolve_ft_attack(pos, ft_attack(pos, ft(1)), OneDie())
    assert str(e.value) == "a FT attack needs a DR (two dice), not a dr"


def test_small_helpers_what_players_read() -> None:
    from fractions import Fraction

    from asl_vassal_bridge.core.flamethrower import shift_column

    assert shift_column(2, 1) == 1 and shift_column(1, 0) == 1
    pos = line(OG, OG)
    half = ft_attack(pos, ft(1, level_difference=Fraction(-1, 2)))
    assert half.describe(pos).splitlines()[0].endswith("level difference -½")
    assert ft_attack(pos, ft(1, level_difference=Fraction(1, 2))).describe(pos).splitlines()[0].endswith(
        "level difference +½")
    whole = ft_attack(pos, ft(1, level_difference=1)).as_data(pos)["level_difference"]
    assert whole == 1 and type(whole) is int
    assert str(ft_vulnerability_drm(2)) == "-2 target possesses 2 FT (A22.4)"


def test_b25_12_and_huts_events_name_the_target_location() -> None:
    from asl_vassal_bridge.core.position import Fire, FireKind
    from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material

    woods = line(OG, W)
    started = resolve_ft_attack(woods, ft_attack(woods, ft(1)), ScriptedDice([1, 2, 5, 5]), ift_result="KIA")
    missed = resolve_ft_attack(woods, ft_attack(woods, ft(1)), ScriptedDice([1, 2]), ift_result="PTC")
    assert [e.location for e in started.report.events] == ["E6", "E6", "E6"]
    assert [e.location for e in missed.report.events] == ["E6", "E6"]
    hexes = {FIRER: HexInfo(OG), at(1).hex: HexInfo(building="hut")}
    huts = Position(GameMap.from_hexes(hexes, [Building("hut", Material.WOODEN, BuildingKind.HUT)]),
                    clock=Clock(1, 1, Phase.PFPH))
    out = resolve_ft_attack(huts, ft_attack(huts, ft(1)), ScriptedDice([1, 2]))
    assert [c.location for c in out.of_kind(Kind.FLAME)] == [at(1)]
    # a hut already holding a Flame, an Original DR at the X#: no new Flame is reported
    burning = huts.add_fire(Fire(at(1), FireKind.FLAME, since=1))
    out = resolve_ft_attack(burning, ft_attack(burning, ft(1)), ScriptedDice([5, 6]))
    assert not out.has(Kind.FLAME) and out.position.fires == burning.fires


def test_b30_113_and_b25_63_texts_word_for_word() -> None:
    pos = line(OG, OG)
    assert [str(d) for d in ft_attack(pos, ft(1, pillbox_non_ca_tem=3)).drms] == [
        "+3 pillbox TEM vs a non-CA attack (B30.113)"]
    against = line(OG, OG, W, env=HEAVY, direction=Direction.UP)
    with pytest.raises(IllegalAction) as e:
        ft_attack(against, FtAttack(at(0, Direction.UP), at(2, Direction.UP)))
    assert str(e.value) == "a FT has no Long Range FP in Heavy Winds unless it fires directly with the wind (B25.63, " \
                           "A22.1)"
