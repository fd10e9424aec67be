"""FT attacks (A22.1–A22.5): FP, range, elevation, DRMs, AFVs, malfunction, Flames — every restriction refused."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.dice import ScriptedDice
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
