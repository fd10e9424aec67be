"""Issue 31's paragraphs not implemented before: B23.41 (an AFV entering a building), B23.424 (no Scaling into a
Blaze), B23.711/B23.9221 (Breach), B23.922 (Fortified Building entry), B23.743's +1 TEM, B23.32's last clause,
A15.23, the rest of A15.432, B25.5's stream/river drm, and the smoke Hindrance cap and +1 (Fire cheat sheet)."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.core.buildings import afv_building_entry, dc_breach, fortified_entry
from asl_vassal_bridge.core.dice import Roll, ScriptedDice
from asl_vassal_bridge.core.environment import EC, Environment, Wind, WindForce
from asl_vassal_bridge.core.errors import IllegalAction
from asl_vassal_bridge.core.exits import may_enter
from asl_vassal_bridge.core.flamethrower import FtAttack, ft_attack
from asl_vassal_bridge.core.hexes import Direction
from asl_vassal_bridge.core.molotov import FireType, MolAttack, location_tem, mol_attack
from asl_vassal_bridge.core.position import Clock, Phase, Position, Unit, UnitKind, Wreck
from asl_vassal_bridge.core.smoke import smoke_hindrance
from asl_vassal_bridge.core.terrain import BuildingKind, Material, Terrain

from .builders import H, L, blaze, building, flame, grid, pos, put

# --- B23.424: no Scaling into a Blaze ------------------------------------------------------------------------------


def test_b23_424_scaling_into_a_building_level_with_a_blaze_is_not_allowed() -> None:
    hexes = grid("A-C", "1-3")
    b = building(hexes, "b", Material.STONE, ["B2"], BuildingKind.MULTI_STORY)
    p = pos(hexes, [b], [blaze("B2.1")])
    ok, why = may_enter(p, L("B2.1"), scaling=True)
    assert not ok and "B23.424" in why
    ok, why = may_enter(p, L("B2.1"))
    assert not ok and "B25.4" in why  # walking in: eliminated
    assert may_enter(p, L("B2.2"), scaling=True)[0]


# --- B23.922 / B23.9221: Fortified Building entry ----------------------------------------------------------------


def fort(*units: Unit, breaches: frozenset[tuple[str, int, str]] = frozenset()) -> Position:
    hexes = grid("A-D", "1-4")
    b = building(hexes, "f", Material.STONE, ["B2"], fortified=frozenset({("B2", 0)}), breaches=breaches)
    return pos(hexes, [b]).with_(units=units)


def ru(uid: str, kind: UnitKind = UnitKind.SQUAD, **kw: bool) -> Unit:
    return Unit(uid, "4-4-7", "Russian", L("B2"), kind, **kw)


@pytest.mark.parametrize(("units", "allowed"), [
    ((ru("s"),), False),
    ((ru("h1", UnitKind.HALF_SQUAD),), True),
    ((ru("h1", UnitKind.HALF_SQUAD), ru("c1", UnitKind.CREW)), False),  # two HS/crews: a squad's equivalent
    ((ru("s", broken=True),), True),
    ((ru("s", pinned=True),), True),
    ((ru("l", UnitKind.LEADER), ru("h", UnitKind.HALF_SQUAD)), True),
    ((Unit("g", "4-6-7", "German", L("B2")),), True),  # a friendly squad bars nothing
])
def test_b23_922_a_fortified_location_held_by_a_good_order_squad_cannot_be_entered(units: tuple[Unit, ...],
                                                                                   allowed: bool) -> None:
    ok, why = fortified_entry(fort(*units), L("B2"), "German")
    assert ok is allowed and "B23.922" in why


def test_b23_9221_a_breach_of_the_hexside_crossed_opens_it() -> None:
    p = fort(ru("s"), breaches=frozenset({("B2", 0, "C2")}))
    ok, why = fortified_entry(p, L("B2"), "German", from_hex=H("C2"))
    assert ok and "B23.9221" in why
    ok, why = fortified_entry(p, L("B2"), "German", from_hex=H("A2"), berserk=True)
    assert not ok and "berserk" in why and "AFPh/DFPh" in why


def test_b23_92_an_unfortified_location_is_entered_normally() -> None:
    hexes = grid("A-C", "1-3")
    b = building(hexes, "b", Material.STONE, ["B2"])
    assert fortified_entry(pos(hexes, [b]).with_(units=(ru("s"),)), L("B2"), "German")[0]


# --- B23.711 / B23.9221: Breach ---------------------------------------------------------------------------------


def rowhouse(phase: Phase = Phase.AFPH) -> Position:
    hexes = grid("A-D", "1-4")
    b = building(hexes, "r", Material.WOODEN, ["B2", "B3"], BuildingKind.TWO_STORY, rowhouse=True)
    return pos(hexes, [b], clock=Clock(2, 1, phase))


def test_b23_71_a_rowhouse_black_bar_blocks_attacks_until_a_breach_b23_711() -> None:
    p = rowhouse()
    attack = FtAttack(L("B2"), L("B3"))
    with pytest.raises(IllegalAction, match=r"B23\.71"):
        ft_attack(p, attack)
    with pytest.raises(IllegalAction, match=r"B23\.71"):
        mol_attack(p, MolAttack(L("B2.1"), L("B3.1"), thrower_fp=4, available=True))
    new, rep = dc_breach(p, L("B2"), H("B3"), dc_result="NMC", original=Roll(2, 3))
    assert new.map.is_breached(L("B2"), H("B3")) and new.map.is_breached(L("B3"), H("B2"))
    assert ft_attack(new, attack).fp == 24
    with pytest.raises(IllegalAction, match=r"B23\.71"):  # only that level is breached
        ft_attack(new, FtAttack(L("B2.1"), L("B3.1")))
    assert [e.text for e in rep.events][1] == ("the same Original IFT DR 5 (2,3) attacks the units in B3 as Area Fire "
                                               "with 12 FP (unconcealed), full TEM +2 wooden building (B23.3) → "
                                               "Final DR 7")


@pytest.mark.parametrize(("kw", "breached"), [
    ({"dc_result": "PTC"}, False), ({"dc_result": "-"}, False), ({"dc_result": "1MC"}, True),
    ({"dc_result": "KIA"}, True), ({"dc_result": "NMC", "malfunction": True}, False),
])
def test_b23_711_nmc_or_better_breaches_unless_the_dc_malfunctions(kw: dict[str, object], breached: bool) -> None:
    new, rep = dc_breach(rowhouse(), L("B2"), H("B3"), **kw)  # type: ignore[arg-type]
    assert new.map.is_breached(L("B2"), H("B3")) is breached
    if kw.get("malfunction"):
        assert "A23.4" in rep.events[0].rule and len(rep.events) == 1


def test_b23_711_concealed_units_beyond_the_wall_take_6_fp() -> None:
    _, rep = dc_breach(rowhouse(), L("B2"), H("B3"), dc_result="PTC", concealed=True)
    assert "6 FP (concealed)" in rep.events[1].text  # the attack beyond the wall is made whatever the Breach


def test_b23_9221_an_he_kia_breaches_a_fortified_hexside_only() -> None:
    new, _ = dc_breach(fort(ru("s")), L("B2"), H("C2"), he_kia=True)
    assert new.map.is_breached(L("B2"), H("C2"))
    with pytest.raises(IllegalAction, match=r"B23\.9221"):
        dc_breach(rowhouse(), L("B2"), H("B3"), he_kia=True)
    hexes = grid("A-C", "1-3")
    b = building(hexes, "b", Material.STONE, ["B2"])
    with pytest.raises(IllegalAction, match=r"B23\.711"):
        dc_breach(pos(hexes, [b]), L("B2"), H("C2"), dc_result="KIA")


def test_b23_711_cli_breach_written_and_read_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main
    from asl_vassal_bridge.posfile import load

    src, out = tmp_path / "r.toml", tmp_path / "o.toml"
    src.write_text('format = 1\nsides = ["German", "Russian"]\n[clock]\nturn = 2\nhalf = 1\nphase = "AFPh"\n'
                   '[map]\ncolumns = "A-D"\nrows = "1-4"\n[[buildings]]\nid = "r"\nmaterial = "wooden"\n'
                   'kind = "two-story"\nhexes = ["B2", "B3"]\nrowhouse = true\n', encoding="utf-8")
    assert main(["ft", str(src), "--from", "B2.1", "--to", "B3.1"]) == 2
    assert "B23.71" in capsys.readouterr().err
    assert main(["breach", str(src), "--at", "B2.1", "--toward", "B3", "--dc-result", "nmc", "-o", str(out)]) == 0
    assert load(out).map.is_breached(L("B3.1"), H("B2"))
    assert 'breaches = [\n    [\n        "B2.1",\n        "B3",' in out.read_text(encoding="utf-8")
    assert main(["ft", str(out), "--from", "B2.1", "--to", "B3.1"]) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text(src.read_text(encoding="utf-8") + 'breaches = [["B2", "D4"]]\n', encoding="utf-8")
    assert main(["tem", str(bad), "B2"]) == 2
    assert "breaches[0]" in capsys.readouterr().err


def test_b23_922_cli_enter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    src = tmp_path / "f.toml"
    src.write_text('format = 1\nsides = ["German", "Russian"]\n[clock]\nturn = 2\nhalf = 1\nphase = "MPh"\n'
                   '[map]\ncolumns = "A-D"\nrows = "1-4"\n[[buildings]]\nid = "f"\nmaterial = "stone"\n'
                   'hexes = ["B2"]\nfortified = ["B2"]\nbreaches = [["B2", "C2"]]\n'
                   '[[units]]\nid = "s"\nname = "4-4-7"\nside = "Russian"\nat = "B2"\n', encoding="utf-8")
    assert main(["enter", str(src), "--at", "B2", "--from", "A2"]) == 0
    assert "may NOT be entered" in capsys.readouterr().out
    assert main(["enter", str(src), "--at", "B2", "--from", "C2", "--json"]) == 0
    assert '"may_enter": true' in capsys.readouterr().out


# --- B23.41: an AFV entering a building ---------------------------------------------------------------------------


def town(kind: BuildingKind = BuildingKind.SINGLE_STORY, material: Material = Material.WOODEN,
         units: tuple[Unit, ...] = (), fires: tuple[object, ...] = ()) -> Position:
    hexes = grid("A-D", "1-4")
    b = building(hexes, "b", material, ["B2", "B3"] if kind is not BuildingKind.SINGLE_STORY else ["B2"], kind,
                 rowhouse=kind is BuildingKind.TWO_STORY)
    tank = Unit("t", "PzIV", "German", L("A2"), UnitKind.VEHICLE)
    return pos(hexes, [b], fires).with_(units=(tank, *units))  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "material", "colored", "rubbled"), [
    (BuildingKind.SINGLE_STORY, Material.WOODEN, 2, True),  # 2 − 1 wooden − 1 Single Story = 0
    (BuildingKind.SINGLE_STORY, Material.WOODEN, 3, False),
    (BuildingKind.SINGLE_STORY, Material.STONE, 1, True),  # 1 − 1 Single Story = 0
    (BuildingKind.SINGLE_STORY, Material.STONE, 2, False),
    (BuildingKind.MULTI_STORY, Material.WOODEN, 1, True),  # 1 − 1 wooden
    (BuildingKind.MULTI_STORY, Material.STONE, 1, False),  # stone Multi-Story: never
])
def test_b23_41_the_bog_checks_colored_dr_rubbles_the_hex(kind: BuildingKind, material: Material, colored: int,
                                                         rubbled: bool) -> None:
    p = town(kind, material)
    new, rep = afv_building_entry(p, L("B2"), ScriptedDice([colored, 4]), afv_id="t")
    assert new.map.info(H("B2")).terrain.is_rubble is rubbled
    assert f"+{4 if material is Material.STONE else 3} " in rep.events[0].text


def test_b23_41_rubble_keeps_ground_occupants_drops_upper_ones_and_burns_on() -> None:
    ground, upper = Unit("g", "4-6-7", "Russian", L("B2")), Unit("u", "4-6-7", "Russian", L("B2.1"))
    p = town(BuildingKind.MULTI_STORY, units=(ground, upper), fires=(blaze("B2.1"), flame("B2")))
    new, rep = afv_building_entry(p, L("B2"), ScriptedDice([1, 1]), afv_id="t")
    assert new.map.info(H("B2")).terrain is Terrain.WOODEN_RUBBLE
    assert [u.id for u in new.units] == ["t", "g"]
    assert [(f.location, f.is_blaze) for f in new.fires] == [(L("B2"), True)]  # the Blaze burns on, the Flame goes
    assert any("B24.11" in e.rule and "4-6-7 (Russian)" in e.text for e in rep.events)


def test_b23_41_an_original_colored_6_drops_the_afv_into_the_cellar_but_not_in_a_factory() -> None:
    new, rep = afv_building_entry(town(), L("B2"), ScriptedDice([6, 6]), afv_id="t")
    assert [u.id for u in new.units] == [] and any("cellar" in e.text for e in rep.events)
    factory = town(BuildingKind.FACTORY, Material.STONE)
    new, rep = afv_building_entry(factory, L("B2"), ScriptedDice([6, 6]), afv_id="t")
    assert [u.id for u in new.units] == ["t"] and any(e.rule == "B23.742" for e in rep.events)


@pytest.mark.parametrize("bar", [{"fully_tracked": False}, {"ct": False}, {"bu": False}, {"riders": True}])
def test_b23_41_only_a_fully_tracked_ct_bu_afv_without_riders_enters(bar: dict[str, bool]) -> None:
    with pytest.raises(IllegalAction, match=r"B23\.41"):
        afv_building_entry(town(), L("B2"), ScriptedDice([3, 3]), **bar)


def test_b23_711_an_afv_through_a_black_bar_without_rubble_makes_a_breach() -> None:
    p = town(BuildingKind.TWO_STORY)
    new, _ = afv_building_entry(p, L("B3"), ScriptedDice([3, 3]), through_black_bar_from=H("B2"))
    assert new.map.is_breached(L("B2"), H("B3"))
    new, _ = afv_building_entry(p, L("B3"), ScriptedDice([1, 3]), through_black_bar_from=H("B2"))  # rubbled
    assert not new.map.is_breached(L("B2"), H("B3"))


# --- B23.743: the +1 TEM beside a Factory's own rubble --------------------------------------------------------------


def test_b23_743_a_factory_location_entered_over_its_rubble_from_outside_has_plus_1() -> None:
    hexes = grid("A-F", "1-6")
    f = building(hexes, "f", Material.STONE, ["C3", "D3", "D4"], BuildingKind.FACTORY)
    hexes[H("C3")] = hexes[H("C3")].__class__(Terrain.STONE_RUBBLE, feature="f")  # C3 rubbled, still the Factory's
    p = pos(hexes, [f])
    tem = location_tem(p, L("D3"), firer=L("B2"))  # the LOS B2 → C3 → D3 enters D3 over the rubble
    assert [(d.value, d.rule) for d in tem] == [(1, "B23.743")]
    assert [d.value for d in location_tem(p, L("D4"), firer=L("D6"))] == [3]  # not over the rubble
    assert [d.value for d in location_tem(p, L("D3"), firer=L("C3"))] == [1]  # from the rubble itself (B23.741)


# --- B23.32: Indirect Fire on an Interior Building hex ----------------------------------------------------------


def test_b23_32_indirect_fire_on_an_interior_building_hex_affects_only_its_highest_level() -> None:
    hexes = grid("A-E", "1-5")
    names = ["C3", *[h.name for h in H("C3").adjacent()]]
    b = building(hexes, "b", Material.STONE, names, BuildingKind.MULTI_STORY)
    p = pos(hexes, [b])
    with pytest.raises(IllegalAction, match=r"B23\.32"):
        location_tem(p, L("C3"), indirect=True)
    assert [d.value for d in location_tem(p, L("C3.2"), indirect=True)] == [3]
    assert [d.value for d in location_tem(p, L("B2"), indirect=True)] == [5]  # not an Interior hex: +1 per level


# --- stairwells of other kinds (B23.24, B23.731) ------------------------------------------------------------------


def test_b23_24_b23_731_a_third_level_hex_and_a_marketplace_have_stairwells() -> None:
    hexes = grid("A-E", "1-5")
    tall = building(hexes, "t", Material.STONE, ["B2", "B3"], BuildingKind.MULTI_STORY, hex_levels=(("B2", 3),))
    mk = building(hexes, "m", Material.STONE, ["D2", "D3"], BuildingKind.TWO_STORY, marketplace=frozenset({"D2"}))
    p = pos(hexes, [tall, mk])
    assert p.map.has_stairwell(H("B2")) and not p.map.has_stairwell(H("B3"))
    assert p.map.building_los_block(L("B2.2"), L("B2.3")) is None
    assert p.map.building_los_block(L("D2"), L("D2.1")) is None
    hexes[H("B3")] = hexes[H("B3")].__class__(hexes[H("B3")].terrain, building="t", stairwell=True)
    p = pos(hexes, [tall, mk])  # a printed stairwell elsewhere: B2's third level has no inherent one
    assert not p.map.has_stairwell(H("B2"))


# --- A15.23, A15.432: heroes using a SW; berserk Opportunity Fire --------------------------------------------------


def test_a15_23_a_hero_using_a_ft_forfeits_his_inherent_fp() -> None:
    p = rowhouse(Phase.PFPH)
    plan = ft_attack(p, FtAttack(L("A1"), L("A2"), firer_kind=UnitKind.HERO))
    assert any(e.rule == "A15.23" for e in plan.notes)
    assert not any(e.rule == "A15.23" for e in ft_attack(p, FtAttack(L("A1"), L("A2"))).notes)


def test_a15_432_a_berserk_unit_never_makes_opportunity_fire() -> None:
    p = rowhouse(Phase.AFPH)
    with pytest.raises(IllegalAction, match=r"A15\.432"):
        mol_attack(p, MolAttack(L("A1"), L("A2"), thrower_fp=4, available=True, berserk=True,
                                fire=FireType.OPPORTUNITY))
    with pytest.raises(IllegalAction, match=r"A15\.432"):
        ft_attack(p, FtAttack(L("A1"), L("A2"), berserk=True, opportunity_fire=True))
    plan = mol_attack(p, MolAttack(L("A1"), L("A2"), thrower_fp=4, available=True, fire=FireType.OPPORTUNITY))
    assert plan.fp_with_mol == 12  # Opportunity Fire is not Advancing Fire: no halving (docs/rules.md)
    with pytest.raises(IllegalAction, match="Opportunity Fire is made in the AFPh"):
        mol_attack(rowhouse(Phase.DFPH), MolAttack(L("A1"), L("A2"), thrower_fp=4, available=True,
                                                   fire=FireType.OPPORTUNITY))


# --- B25.5: the EC drm on the stream/river depth dr ----------------------------------------------------------------


@pytest.mark.parametrize(("ec", "drm"), [(EC.WET, -2), (EC.MODERATE, 0), (EC.VERY_DRY, 2), (EC.MUD, -3)])
def test_b25_5_the_ec_drm_is_the_stream_depth_drm(ec: EC, drm: int) -> None:
    assert Environment(ec).stream_depth_drm == drm


# --- smoke: the +3 cap for one Location and +1 firing out of smoke (Fire cheat sheet) ---------------------------


def smoky(env: Environment = Environment()) -> Position:
    hexes = grid("A-F", "1-6")
    put(hexes, Terrain.WOODS, ["C3", "D3"])
    wreck = Wreck(L("C3"), True, None, "wreck", 1)
    return pos(hexes, [], [blaze("C3")], env, wrecks=[wreck])


def test_fire_cheat_sheet_smoke_hindrance_of_one_location_never_exceeds_3() -> None:
    p = smoky()  # a terrain Blaze (+3) and a Burning Wreck (+2) in C3
    drms = smoke_hindrance(p, L("B2"), L("D3"))  # the LOS B2 → C3 → D3
    assert [d.value for d in drms] == [3] and "capped" in drms[0].reason


def test_fire_cheat_sheet_fire_out_of_a_smoke_location_adds_1() -> None:
    p = smoky()
    assert [d.value for d in smoke_hindrance(p, L("C3"), L("D3"))] == [3, 1]
    assert [d.value for d in smoke_hindrance(p, L("D3"), L("C3"))] == [3]  # into it: no +1
    assert [d.value for d in smoke_hindrance(p, L("C3"), L("C3"))] == [3, 1]  # within it


def test_b25_2_smoke_above_which_the_los_passes_does_not_hinder_and_heavy_winds_have_none() -> None:
    hexes = grid("A-F", "1-6")
    put(hexes, Terrain.WOODS, ["C3"])
    put(hexes, Terrain.OPEN_GROUND, ["B2", "D3"], elevation=5)
    p = pos(hexes, [], [blaze("C3")])
    assert smoke_hindrance(p, L("B2"), L("D3")) == ()  # level 5 over smoke 4 levels high
    low = pos(hexes, [], [blaze("C3")], Environment(wind=Wind(WindForce.MILD_BREEZE, Direction(1))))
    assert smoke_hindrance(low, L("B2"), L("D3")) == ()
    hexes[H("D3")] = hexes[H("D3")].__class__(Terrain.OPEN_GROUND, 1)
    p = pos(hexes, [], [blaze("C3")])
    assert [d.value for d in smoke_hindrance(p, L("B2"), L("D3"))] == [3]  # 5 → 1: at 3 over C3, in the smoke
    heavy = smoky(Environment(wind=Wind(WindForce.HEAVY_WINDS, Direction(1))))
    assert smoke_hindrance(heavy, L("B2"), L("D3")) == ()


def test_b25_2_ft_and_mol_plans_read_the_smoke() -> None:
    p = smoky()
    plan = ft_attack(p, FtAttack(L("C3"), L("D3")))
    assert [d.value for d in plan.drms] == [3, 1]
    plan = ft_attack(p, FtAttack(L("C3"), L("D3"), hindrance_drm=1))
    assert plan.total_drm == 5
    mol = mol_attack(p, MolAttack(L("B3"), L("C3"), thrower_fp=4, available=True, tem=0))
    assert [d.value for d in mol.drms] == [3]


def test_b23_711_two_rowhouse_buildings_split_at_the_bar_by_a_vasl_board_may_be_breached() -> None:
    """A VASL board splits Rowhouses at their black bar into two `rowhouse` buildings: the bar is not judged for
    LOS there (a street would look the same), but a Breach can still be made and read from either side."""
    hexes = grid("A-D", "1-4")
    r1 = building(hexes, "r1", Material.STONE, ["B2"], BuildingKind.TWO_STORY, rowhouse=True)
    r2 = building(hexes, "r2", Material.STONE, ["B3"], BuildingKind.TWO_STORY, rowhouse=True)
    p = pos(hexes, [r1, r2])
    assert ft_attack(p, FtAttack(L("B2"), L("B3"))).fp == 24
    new, _ = dc_breach(p, L("B3.1"), H("B2"), dc_result="2MC")
    assert new.map.is_breached(L("B2.1"), H("B3")) and not new.map.is_breached(L("B2"), H("B3"))
    new, _ = afv_building_entry(p, L("B3"), ScriptedDice([4, 2]), through_black_bar_from=H("B2"))
    assert new.map.is_breached(L("B2"), H("B3"))


def test_b25_2_a_location_below_the_fire_is_not_in_its_smoke() -> None:
    """The smoke rises from the level of the fire (B25.2): a Blaze on Level 1 leaves the ground below it clear."""
    hexes = grid("A-D", "1-4")
    b = building(hexes, "b", Material.STONE, ["B2"], BuildingKind.TWO_STORY)
    p = pos(hexes, [b], [blaze("B2.1")])
    assert smoke_hindrance(p, L("B2"), L("C2")) == ()
    assert [d.value for d in smoke_hindrance(p, L("B2.1"), L("C2"))] == [3, 1]
