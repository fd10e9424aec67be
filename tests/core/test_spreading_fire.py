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


def test_end_of_afph_smoke_drifts_again_the_drift_flag_is_reset_and_nothing_else_changes() -> None:
    # Fire cheat sheet: a wind change removes the drifting smoke until the start of the next AFPh
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    cleared = replace(mild(2), drift_cleared=True)
    p = pos(hexes, fires=[blaze("C3")], env=cleared)
    for env in (cleared, mild(2)):
        new, rep = end_of_afph(p.with_(environment=env), ScriptedDice([]))
        assert new.environment == mild(2) and new.environment.drift_cleared is False
        assert new.fires == p.fires and rep.events == ()  # C3 has nothing Burnable around it


def test_b25_63_an_automatic_spread_carries_both_kindlers_of_its_blaze_on() -> None:
    # Fire & Victory: a Flame spread from a Blaze two sides kindled is the fire of both
    from asl_vassal_bridge.core import Fire, FireKind

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.GRAIN, ["C3", "C2"])
    kindled = Fire(L("C3"), FireKind.BLAZE, 1, kindled_by="Russian", also_kindled_by="German")
    new, _ = spread_fire(pos(hexes, fires=[kindled], env=heavy(1)), ScriptedDice([]))
    (f,) = new.flames_at(L("C2"))
    assert (f.kindled_by, f.also_kindled_by) == ("Russian", "German")


def test_b25_651_gust_spreads_only_into_burnable_locations_and_only_gusts_list_gust_rows() -> None:
    from asl_vassal_bridge.core.fire import gust_spreads, pending_rolls

    hexes = grid("A-E", "1-6")
    put(hexes, Terrain.WOODS, ["C4", "C2"])  # C3 between them is open ground
    p = pos(hexes, fires=[blaze("C4")], env=mild(1))
    assert list(gust_spreads(p, Direction(1))) == []  # open ground downwind cannot burn (B25.1)
    assert [r.kind for r in pending_rolls(p)] == []  # no Gusts: no Random Selection rows
    gusting = p.with_(environment=replace(mild(1), gusts=True))
    assert [(r.kind, r.location.name) for r in pending_rolls(gusting)] == [("gust", "C2")]


def test_b25_651_no_wind_gust_odds_exact_over_the_six_directions() -> None:
    # Gusts with No Wind (B25.651): each row is the mean over the six Gust direction drs of the chance to catch
    # fire: certain by a one-hex Gust spread, else picked for the two-hex spread (Random Selection: one dr per
    # candidate, ties all picked), else its Spreading Fire DR (B25.6).
    from asl_vassal_bridge.core.fire import pending_rolls

    gusts = Environment(gusts=True)
    hexes = grid("A-E", "1-9")
    put(hexes, Terrain.WOODS, ["C6", "C4", "C3", "C1"])
    p = pos(hexes, fires=[blaze("C6"), blaze("C3")], env=gusts)
    dr = pending_spreads(p)[L("C4")]  # C3 → C4, not downwind of anything but direction 4
    rows = {r.location.name: r for r in pending_rolls(p)}
    assert set(rows) == {"C1", "C4"}
    # C4: direction 1 → one of two candidates of the two-hex spread (7/12), else its DR; direction 4 → C3's
    # one-hex Gust spread; the four others → its DR.
    c4 = rows["C4"]
    assert c4.chance == (Fraction(7, 12) + Fraction(5, 12) * dr.chance + 1 + 4 * dr.chance) / 6
    assert (c4.check, c4.source, c4.automatic) == (dr.check, L("C3"), False)
    assert c4.reason == ("Gusts with No Wind, the direction dr folded in: automatic in 1 of 6 directions, two-hex "
                         f"spread candidate in 1 of 6, else its Spreading Fire DR ({dr.check.chance})")  # type: ignore[union-attr]
    c1 = rows["C1"]  # only C3's two-hex spread reaches it (direction 1), never a DR
    assert (c1.chance, c1.check, c1.source) == (Fraction(7, 72), None, L("C3"))
    assert c1.reason == "Gusts with No Wind, the direction dr folded in: two-hex spread candidate in 1 of 6"
    # A Blaze and a Burning Wreck with the same target: both candidates pick it whatever their drs; a Location
    # no Gust reaches (the building's level 1) keeps its own DR.
    hexes = grid("A-E", "1-9")
    house = building(hexes, "h", Material.WOODEN, ["C6"], BuildingKind.TWO_STORY)
    put(hexes, Terrain.WOODS, ["C4"])
    p = pos(hexes, [house], [blaze("C6")], gusts, wrecks=[Wreck(L("C5"), since=1)])
    up = pending_spreads(p)[L("C6.1")]
    rows = {r.location.name: r for r in pending_rolls(p)}
    assert set(rows) == {"C4", "C6.1"}
    assert (rows["C4"].chance, rows["C4"].source, rows["C4"].check) == (Fraction(1, 6), L("C6"), None)
    assert (rows["C6.1"].chance, rows["C6.1"].check, rows["C6.1"].source) == (up.chance, up.check, L("C6"))
    assert rows["C6.1"].reason.endswith(f"else its Spreading Fire DR ({up.check.chance})")  # type: ignore[union-attr]
    # Mud stops the DR between two woods depictions, not the Gust (Fire cheat sheet): reached in 1 of 6 directions
    hexes = grid("A-E", "1-9")
    put(hexes, Terrain.WOODS, ["C6"], feature="a")
    put(hexes, Terrain.WOODS, ["C5"], feature="b")
    p = pos(hexes, fires=[blaze("C6")], env=Environment(EC.MUD, gusts=True))
    (row,) = pending_rolls(p)
    assert (row.location, row.chance, row.check, row.source) == (L("C5"), Fraction(1, 6), None, L("C6"))
    assert row.reason.endswith("automatic in 1 of 6 directions")
    # Two Blazes two hexes either side of C4: it is the only two-hex candidate in 2 of the 6 directions
    hexes = grid("A-E", "1-9")
    put(hexes, Terrain.WOODS, ["C6", "C4", "C2"])
    (row,) = pending_rolls(pos(hexes, fires=[blaze("C6"), blaze("C2")], env=gusts))
    assert (row.location, row.chance, row.source) == (L("C4"), Fraction(1, 3), L("C6"))
    assert row.reason.endswith("two-hex spread candidate in 2 of 6")


def test_independent_drs_are_asked_for_at_once_in_the_order_one_by_one_gives_b25_151_b25_6() -> None:
    """The end of the AFPh asks for the DRs none of which decides another at once (the live bridge: one call to
    VASSAL): the same DRs for the same Locations in the same order as one by one, so the same Position and report;
    a Location of several Flames still rolls Flame by Flame, its second DR only if the first made no Blaze
    (B25.15, B25.151)."""
    from asl_vassal_bridge.core import CallbackDice

    hexes = grid("M-R", "2-8")
    put(hexes, Terrain.WOODS, ["N3", "N4", "O3", "O4", "P3", "P4", "Q3", "Q4", "Q5"], feature="woods")
    p = pos(hexes, [], [flame("N3"), flame("N4"), flame("O3"), flame("O3"), flame("Q3"), blaze("P5")])

    def scripted(faces: list[int]):  # type: ignore[no-untyped-def]
        it = iter(faces)
        calls: list[object] = []

        def roll(purpose: str, count: int) -> list[int]:
            calls.append(purpose)
            return [next(it) for _ in range(count)]

        def many(purposes: list[str]) -> list[list[int]]:
            calls.append(list(purposes))
            return [[next(it), next(it)] for _ in purposes]

        return calls, roll, many

    faces = [4, 4, 2, 3, 1, 1, 6, 5, 3, 3, 2, 2, 5, 6, 6, 6, 1, 2, 3, 4, 5, 5, 6, 1, 2, 2, 4, 4, 3, 3, 6, 2]
    one_calls, one_roll, _ = scripted(faces)
    one_new, one_rep = end_of_afph(p, CallbackDice(one_roll))
    many_calls, many_roll, many_roll_many = scripted(faces)
    many_new, many_rep = end_of_afph(p, CallbackDice(many_roll, many_roll_many))
    assert many_new == one_new and many_rep == one_rep
    assert [c for call in many_calls for c in (call if isinstance(call, list) else [call])] == one_calls
    # N3 and N4 at once; O3's two Flames one by one (its second after no Blaze); Q3; then every spread at once
    assert many_calls[:4] == [["Flame to Blaze N3 (B25.151)", "Flame to Blaze N4 (B25.151)"],
                              "Flame to Blaze O3 (B25.151)", "Flame to Blaze O3 (B25.151)",
                              "Flame to Blaze Q3 (B25.151)"]
    assert isinstance(many_calls[-1], list) and len(many_calls[-1]) > 1
    assert all(c.startswith("Spreading Fire ") for c in many_calls[-1])
