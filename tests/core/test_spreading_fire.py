"""Spreading Fire (B25.6–.64) and directly attached terrain (B25.62)."""

from __future__ import annotations

from fractions import Fraction

from asl_vassal_bridge.core import (
    EC,
    BuildingKind,
    Direction,
    Environment,
    Ground,
    Material,
    ScriptedDice,
    Terrain,
    Wreck,
    end_of_afph,
    pending_spreads,
    spread_fire,
)
from asl_vassal_bridge.core.fire import directly_attached
from asl_vassal_bridge.core.values import replace

from .builders import NOW, L, blaze, building, flame, grid, heavy, mild, pos, put


def b25_62_example(env: Environment = Environment()):  # type: ignore[no-untyped-def]
    hexes = grid("M-R", "2-8")
    put(hexes, Terrain.WOODS, ["P5", "Q5"], feature="woods-a")
    put(hexes, Terrain.WOODS, ["Q6"], feature="woods-b")
    b1 = building(hexes, "p4", Material.WOODEN, ["P4"])
    b2 = building(hexes, "o5", Material.STONE, ["O5"])
    return pos(hexes, [b1, b2], [blaze("P5")], env)


def test_b25_62_example_original_drs_10_11_7_9() -> None:
    spreads = pending_spreads(b25_62_example())
    needed = {t.name: sc.check.needed_original for t, sc in spreads.items()}  # type: ignore[union-attr]
    assert needed == {"P4": 10, "O5": 11, "Q5": 7, "Q6": 9}
    assert spreads[L("P4")].chance == Fraction(6, 36)
    assert spreads[L("Q5")].chance == Fraction(21, 36)
    assert [d.rule for d in spreads[L("P4")].check.drms] == ["B25.62"]  # type: ignore[union-attr]


def test_b25_6_success_places_a_flame_marked_new() -> None:
    p = b25_62_example()
    # Order is map order: O5, P4, Q5, Q6.  Roll 11, 9, 7, 8.
    new, rep = spread_fire(p, ScriptedDice([5, 6, 4, 5, 3, 4, 4, 4]))
    placed = {f.location.name for f in new.flames()}
    assert placed == {"O5", "Q5"}
    assert all(f.since == NOW.player_turn for f in new.flames())
    assert [e.kind for e in rep.events] == ["flame", "no-spread", "flame", "no-spread"]
    assert "B25.62" in rep.events[1].describe()


def test_b25_6_blaze_does_not_spread_in_the_player_turn_it_appears() -> None:
    p = b25_62_example()
    p = p.with_(fires=(blaze("P5", since=NOW.player_turn),))
    assert pending_spreads(p) == {}


def test_b25_6_locations_already_ablaze_get_no_roll_and_flames_may_get_another() -> None:
    p = b25_62_example()
    p = p.with_(fires=(blaze("P5"), blaze("Q5"), flame("Q6")))
    spreads = pending_spreads(p)
    assert L("Q5") not in spreads  # already a Blaze
    assert L("Q6") in spreads  # a Flame there may receive another Flame


def test_b25_6_one_dr_per_location_from_the_source_with_best_odds() -> None:
    hexes = grid("A-F", "1-6")
    put(hexes, Terrain.WOODS, ["C3", "D3"], feature="w")
    put(hexes, Terrain.WOODS, ["C2"], feature="other")
    # D3 is attached to C3 (same woods); C2 is not attached to C3.
    p = pos(hexes, fires=[blaze("C2"), blaze("D3")])
    spreads = pending_spreads(p)
    assert spreads[L("C3")].source == L("D3")
    assert spreads[L("C3")].check.needed_original == 7  # type: ignore[union-attr]


def test_b25_61_elevation_plus_one_up_minus_one_down() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C2"], feature="w")
    put(hexes, Terrain.WOODS, ["C4"], feature="w", elevation=1)
    p = pos(hexes, fires=[blaze("C3")])
    s = pending_spreads(p)
    assert s[L("C4")].check.needed_original == 6  # type: ignore[union-attr]  # 7 - 1 ... +1 DRM
    p2 = pos(hexes, fires=[blaze("C4")])
    assert pending_spreads(p2)[L("C3")].check.needed_original == 8  # type: ignore[union-attr]


def test_b25_6_woods_spread_at_ground_level_building_blazes_not_diagonally() -> None:
    hexes = grid("C-G", "1-6")
    put(hexes, Terrain.WOODS, ["E3"])
    b = building(hexes, "b", Material.STONE, ["E4", "F3", "F4"], BuildingKind.MULTI_STORY)
    p = pos(hexes, [b], [blaze("E4")])
    targets = set(pending_spreads(p))
    assert L("E4.1") in targets  # vertically
    assert L("F3") in targets and L("F4") in targets  # horizontally
    assert L("F3.1") not in targets and L("F4.1") not in targets  # never diagonally
    assert L("E3") in targets
    p2 = pos(hexes, [b], [blaze("E3")])
    t2 = set(pending_spreads(p2))
    assert L("E4") in t2 and L("E4.1") not in t2  # woods fire reaches ground level only
    p3 = pos(hexes, [b], [blaze("E4.1")])
    t3 = set(pending_spreads(p3))
    assert {L("E4"), L("E4.2"), L("F3.1"), L("F4.1")} <= t3 and L("E3") not in t3


def test_b25_6_factory_ground_level_spreads_to_its_rooftop() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "f", Material.STONE, ["C3", "C4"], BuildingKind.FACTORY, rooftop=True)
    p = pos(hexes, [b], [blaze("C3")])
    targets = set(pending_spreads(p))
    assert {t.name for t in targets if t.hex == L("C3").hex} == {"C3.roof"}
    assert L("C4") in targets and not any(t.rooftop and t.hex != L("C3").hex for t in targets)


def test_b25_62_building_hexes_and_rowhouses_of_one_building_are_directly_attached() -> None:
    hexes = grid("A-F", "1-6")
    row = building(hexes, "row", Material.WOODEN, ["C3", "C4"], BuildingKind.TWO_STORY, rowhouse=True)
    other = building(hexes, "other", Material.WOODEN, ["D4"])
    p = pos(hexes, [row, other], [blaze("C3")])
    m = p.map
    assert directly_attached(m, L("C3"), L("C4"))
    assert not directly_attached(m, L("C4"), L("D4"))
    s = pending_spreads(p)
    assert s[L("C4")].check.needed_original == 8  # type: ignore[union-attr]


def test_b25_62_inherent_terrain_and_rubble_are_attached() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.GRAIN, ["B2"])
    put(hexes, Terrain.BRUSH, ["B3"])
    put(hexes, Terrain.WOODEN_RUBBLE, ["C3"])
    put(hexes, Terrain.STONE_RUBBLE, ["C4"])
    m = pos(hexes).map
    assert directly_attached(m, L("B2"), L("B3"))
    assert directly_attached(m, L("C3"), L("C4"))  # adjacent rubble counts as one building


def test_b25_62_bypassing_burning_wreck_spreads_with_minus_two_into_both_hexes() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    put(hexes, Terrain.BRUSH, ["C4"])
    w = Wreck(L("C3"), True, Direction.DOWN, "PzIV", since=1)
    s = pending_spreads(pos(hexes, wrecks=[w]))
    assert s[L("C3")].by_wreck and s[L("C3")].check.needed_original == 9  # type: ignore[union-attr]
    assert s[L("C4")].check.needed_original == 8  # type: ignore[union-attr]
    w2 = Wreck(L("C3"), True, None, "PzIV", since=1)
    s2 = pending_spreads(pos(hexes, wrecks=[w2]))
    assert set(s2) == {L("C3")}  # a Wreck Blaze only reaches its own Location (B25.14)
    assert s2[L("C3")].check.needed_original == 7  # type: ignore[union-attr]


def test_b25_5_ec_drm_applies_except_to_buildings_but_does_to_lumberyards() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C2"], feature="w")
    b = building(hexes, "b", Material.WOODEN, ["C4"])
    ly = building(hexes, "ly", Material.WOODEN, ["B3"], BuildingKind.LUMBERYARD)
    s = pending_spreads(pos(hexes, [b, ly], [blaze("C3")], Environment(EC.WET)))
    assert s[L("C2")].check.needed_original == 9  # type: ignore[union-attr]  # 7 +2 (Wet −2)
    assert s[L("C4")].check.needed_original == 10  # type: ignore[union-attr]  # 8, −2 not attached, no EC
    assert s[L("B3")].check.needed_original == 12  # type: ignore[union-attr]  # 8, −2, Wet −2 applies to a Lumberyard


def test_b25_64_mild_breeze_direction_drms() -> None:
    hexes = grid("A-G", "1-7")
    names = ["D4", "D3", "E4", "E5", "D5", "C5", "C4"]  # D4 and its neighbours in directions 1…6
    put(hexes, Terrain.GRAIN, names)
    p = pos(hexes, fires=[blaze("D4")], env=mild(3))
    s = pending_spreads(p)
    needed = {t.name: sc.check.needed_original for t, sc in s.items()}  # type: ignore[union-attr]
    # Grain spread 6; wind blows to 3 (E5): downwind +2, flanks 2/4 +1, flanks 1/5 0, upwind 6 −1.
    assert needed == {"E5": 4, "E4": 5, "D5": 5, "D3": 6, "C5": 6, "C4": 7}


def test_b25_64_no_wind_drm_within_a_building_or_interior_building_hexes() -> None:
    hexes = grid("A-G", "1-7")
    inner = ["D4", "D3", "E4", "E5", "D5", "C5", "C4"]
    b = building(hexes, "big", Material.STONE, inner)
    p = pos(hexes, [b], [blaze("D4")], mild(3))
    for sc in pending_spreads(p).values():
        assert all(d.rule != "B25.64" for d in sc.check.drms)  # type: ignore[union-attr]
    # Rowhouses of one building are one building for fire (B23.71 splits them only for Rout and Mopping
    # Up): no wind between them (B25.64), but wind counts from a Rowhouse to the terrain outside.
    hexes2 = grid("A-G", "1-7")
    b2 = building(hexes2, "row", Material.WOODEN, inner, rowhouse=True)
    put(hexes2, Terrain.GRAIN, ["E6"])
    from_edge = pending_spreads(pos(hexes2, [b2], [blaze("E5")], mild(1)))
    assert all(d.rule != "B25.64" for d in from_edge[L("E4")].check.drms)  # type: ignore[union-attr]
    assert from_edge[L("E4")].check.needed_original == 8  # type: ignore[union-attr]
    downwind = pending_spreads(pos(hexes2, [b2], [blaze("E5")], mild(4)))
    assert [d.value for d in downwind[L("E6")].check.drms if d.rule == "B25.64"] == [2]  # type: ignore[union-attr]


def test_b25_63_heavy_winds_spread_automatically_downwind_and_never_upwind() -> None:
    hexes = grid("A-G", "1-7")
    put(hexes, Terrain.GRAIN, ["D4", "D3", "E4", "E5", "D5", "C5", "C4"])
    p = pos(hexes, fires=[blaze("D4")], env=heavy(3))
    s = pending_spreads(p)
    assert {t.name for t, sc in s.items() if sc.automatic} == {"E4", "E5", "D5"}
    assert set(s) == {L("E4"), L("E5"), L("D5")}
    new, rep = spread_fire(p, ScriptedDice([]))
    assert {f.location.name for f in new.flames()} == {"E4", "E5", "D5"}
    assert all(e.rule == "B25.63" for e in rep.events)


def test_b25_63_heavy_winds_do_not_change_spread_within_a_building_and_wreck_fires_own_location() -> None:
    hexes = grid("A-G", "1-7")
    b = building(hexes, "b", Material.WOODEN, ["D4", "C4"], BuildingKind.TWO_STORY)
    put(hexes, Terrain.BRUSH, ["F4"])
    p = pos(hexes, [b], [blaze("D4")], heavy(3), wrecks=[Wreck(L("F4"), since=1)])
    s = pending_spreads(p)
    assert not s[L("C4")].automatic and s[L("C4")].check.needed_original == 8  # type: ignore[union-attr]
    assert s[L("F4")].automatic


def test_mud_restricts_spread_to_connected_depictions() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C2"], feature="w")
    put(hexes, Terrain.WOODS, ["B3"], feature="x")
    put(hexes, Terrain.VINEYARD, ["D3"])
    env = Environment(EC.MUD)
    s = pending_spreads(pos(hexes, fires=[blaze("C3")], env=env))
    assert set(s) == {L("C2")}
    s2 = pending_spreads(pos(hexes, fires=[blaze("C3")], env=Environment(EC.MODERATE, ground=Ground.DEEP_SNOW)))
    assert set(s2) == {L("C2")}


def test_b25_6_non_burnable_terrain_never_catches_fire() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    put(hexes, Terrain.MARSH, ["C2"])
    assert pending_spreads(pos(hexes, fires=[blaze("C3")])) == {}


def test_end_of_afph_new_blazes_do_not_spread_the_same_turn() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C2"], feature="w")
    p = pos(hexes, fires=[flame("C3")])
    new, rep = end_of_afph(p, ScriptedDice([6, 6]))
    assert [f.location.name for f in new.blazes()] == ["C3"]
    assert new.flames() == []
    assert len(rep.events) == 1


def test_huts_no_spread_into_a_collapsed_hut_once_rain_has_fallen() -> None:
    # Fire cheat sheet, huts: once Rain has occurred no Flame is created in a Collapsed hut, whatever creates
    # it: a Spreading Fire DR (B25.6), a Heavy Winds spread (B25.63) or a Gust's two-hex spread (B25.651).
    from asl_vassal_bridge.core.environment import Wind, WindForce
    from asl_vassal_bridge.core.wind import gust_candidates

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    put(hexes, Terrain.HUT, ["C2", "D3", "C1"])  # Collapsed huts: hut terrain, no building
    standing = building(hexes, "h", Material.WOODEN, ["B3"], BuildingKind.HUT)
    dry = pos(hexes, [standing], [blaze("C3")], Environment(EC.WET))
    assert set(pending_spreads(dry)) == {L("C2"), L("D3"), L("B3")}
    rained = dry.with_(environment=Environment(EC.WET, rain_has_fallen=True))
    assert set(pending_spreads(rained)) == {L("B3")}  # a standing hut still catches
    new, rep = spread_fire(rained, ScriptedDice([6, 6]))
    assert [f.location.name for f in new.flames()] == ["B3"] and len(rep.events) == 1
    assert rained.no_flame_reason(L("C2")) == "no Flame in a Collapsed hut once Rain has fallen (huts)"
    assert dry.no_flame_reason(L("C2")) is None and rained.no_flame_reason(L("B3")) is None
    windy = dry.with_(environment=Environment(EC.WET, Wind(WindForce.HEAVY_WINDS, Direction(1)), gusts=True))
    assert {t.name for t, sc in pending_spreads(windy).items() if sc.automatic} == {"C2"}
    assert [c[2].name for c in gust_candidates(windy, Direction(1))] == ["C1"]
    windy_rained = windy.with_(environment=replace(windy.environment, rain_has_fallen=True))
    assert pending_spreads(windy_rained) == {} and gust_candidates(windy_rained, Direction(1)) == []
    assert end_of_afph(windy_rained, ScriptedDice([]))[0].flames() == []
