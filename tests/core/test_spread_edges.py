"""Edge cases of Flame→Blaze and Spreading Fire that a mutation run found unguarded (B25.14–.651, B23.8)."""

from __future__ import annotations

from asl_vassal_bridge.core import (
    BuildingKind,
    Direction,
    Environment,
    Ground,
    Material,
    ScriptedDice,
    Terrain,
    Wreck,
    end_of_afph,
    flame_to_blaze,
    pending_spreads,
    spread_fire,
)
from asl_vassal_bridge.core.values import replace

from .builders import NOW, L, blaze, building, flame, grid, heavy, mild, pos, put


def test_b25_6_the_best_source_is_the_one_with_the_greatest_chance() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4"], feature="w")
    put(hexes, Terrain.WOODS, ["D4"], feature="x")
    s = pending_spreads(pos(hexes, fires=[blaze("C3"), blaze("D4")]))
    assert s[L("C4")].source == L("C3") and s[L("C4")].check.needed_original == 7  # type: ignore[union-attr]
    s = pending_spreads(pos(hexes, fires=[blaze("D4"), blaze("C3")]))
    assert s[L("C4")].source == L("C3")


def test_b25_6_fires_of_this_player_turn_and_dead_wrecks_do_not_spread_whatever_their_order() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["B2", "C3", "C4", "D4"])
    p = pos(hexes, fires=[flame("B2"), blaze("C3", since=NOW.player_turn), blaze("D4")],
            wrecks=[Wreck(L("B2"), burning=False), Wreck(L("C3"), since=NOW.player_turn), Wreck(L("C4"), since=1)])
    s = pending_spreads(p)
    assert L("C4") in s and s[L("C4")].source in (L("D4"), L("C4"))
    assert L("B2") not in s  # next only to the fresh Blaze and a dead wreck
    sources = {sc.source for sc in s.values()}
    assert L("C3") not in sources and L("B2") not in sources


def test_b25_62_a_bypassing_wreck_spreads_with_the_wind_into_the_other_hex() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C4"])
    p = pos(hexes, wrecks=[Wreck(L("C3"), bypass=Direction(4), since=1)], env=mild(4))
    sc = pending_spreads(p)[L("C4")]
    assert [(d.value, d.rule) for d in sc.check.drms] == [(-2, "B25.62"), (2, "B25.64")]  # type: ignore[union-attr]


def test_b25_151_a_final_dr_of_three_leaves_the_flame_and_blazes_keep_the_kindler() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4"])
    p = pos(hexes, fires=[replace(flame("C3"), kindled_by="German"), flame("C4")])
    new, rep = flame_to_blaze(p, ScriptedDice([1, 2, 6, 6]))  # C3: Final 3; C4: Blaze
    assert [e.kind for e in rep.events] == ["no-change", "blaze"]
    assert new.flames_at(L("C3")) and new.blaze_at(L("C4")) is not None
    new, rep = flame_to_blaze(p, ScriptedDice([6, 6, 1, 1]))
    assert new.blaze_at(L("C3")) == blaze("C3", since=NOW.player_turn, kindled_by="German")
    assert new.flames_at(L("C4")) == ()  # Final 2: out
    out = rep.events[1]
    assert (out.rule, out.text, out.location, out.kind) == ("B25.151", "Flame in C4 is extinguished", "C4",
                                                            "extinguished")
    assert out.roll is not None and out.roll.outcome == "extinguished (Final DR ≤ 2)"


def test_b25_151_every_flame_rolls_whatever_the_order_of_events() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4", "C5"])
    p = pos(hexes, fires=[flame("C3"), flame("C3"), flame("C4", since=NOW.player_turn), flame("C5")])
    new, rep = flame_to_blaze(p, ScriptedDice([6, 6, 6, 6]))  # C3's first Flame blazes; its second needs no DR
    assert [(e.location, e.kind) for e in rep.events] == [("C3", "blaze"), ("C5", "blaze")]
    assert new.flames() == [flame("C4", since=NOW.player_turn)]


def test_b25_14_only_a_burning_wreck_leaves_a_new_terrain_blaze() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4"])
    wrecks = [Wreck(L("C3"), burning=False, name="cold"), Wreck(L("C4"), name="hot"), Wreck(L("A1"), name="far")]
    p = pos(hexes, fires=[flame("C3"), flame("C4")], wrecks=wrecks)
    new, rep = flame_to_blaze(p, ScriptedDice([6, 6, 6, 6]))
    assert [w.name for w in new.wrecks] == ["cold", "far"]
    assert [e.text for e in rep.events if e.kind == "wreck-removed"] == [
        "Burning Wreck in C4 removed: its Location is a terrain Blaze"]


def test_b25_6_spread_flames_carry_the_kindler_for_fire_and_victory() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4"], feature="w")
    p = pos(hexes, fires=[blaze("C3", kindled_by="Russian")])
    new, _ = spread_fire(p, ScriptedDice([6, 6]))
    assert new.flames_at(L("C4"))[0].kindled_by == "Russian"
    w = pos(hexes, wrecks=[Wreck(L("C3"), since=1)])
    new, _ = spread_fire(w, ScriptedDice([6, 6]))
    assert new.flames_at(L("C3"))[0].kindled_by is None


def test_snow_lets_brush_burn_on_and_deep_snow_does_not() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"], feature="b")
    for ground, spreads in ((Ground.GROUND_SNOW, True), (Ground.DEEP_SNOW, False), (Ground.MUD, True)):
        s = pending_spreads(pos(hexes, fires=[blaze("C3")], env=Environment(ground=ground)))
        assert (L("C4") in s) is spreads, ground


def test_b25_651_heavy_winds_and_gusts_both_spread_downwind_once_reported_as_heavy_winds() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"])
    p = pos(hexes, fires=[blaze("C3")], env=replace(heavy(4), gusts=True))
    sc = pending_spreads(p)[L("C4")]
    assert sc.automatic and sc.reason == "Heavy Winds, downwind to 4, B25.63"
    new, rep = end_of_afph(p, ScriptedDice([]))
    assert len(new.flames_at(L("C4"))) == 1 and [e.rule for e in rep.events] == ["B25.63"]


def test_b25_651_gusts_skip_fresh_blazes_dead_or_fresh_wrecks_and_unburnable_ground() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["B2", "B3", "C3", "C4", "D4"])
    p = pos(hexes, fires=[blaze("B2", since=NOW.player_turn), blaze("C3")],
            wrecks=[Wreck(L("D4"), since=NOW.player_turn), Wreck(L("A1"), since=1), Wreck(L("B3"), burning=False)],
            env=replace(mild(4), gusts=True))
    auto = {t.name: sc.source for t, sc in pending_spreads(p).items() if sc.automatic}
    assert auto == {"C4": L("C3")}


def test_b23_8_a_rooftop_blaze_spreads_to_adjacent_rooftops_at_its_height_only() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.OPEN_GROUND, ["B3"], elevation=1)
    b = building(hexes, "f", Material.STONE, ["C3", "C4", "B3"], BuildingKind.FACTORY, rooftop=True)
    m = pos(hexes, [b]).map
    roof = m.rooftop(L("C3").hex)
    assert roof is not None
    s = pending_spreads(pos(hexes, [b], fires=[replace(blaze("C3"), location=roof)]))
    assert sorted(t.name for t in s) == ["C3", "C4.roof"]  # below, and level with it (B3's is a level higher)
    corner = grid("A-B", "1-2")
    e = building(corner, "e", Material.STONE, ["A1", "A2"], BuildingKind.FACTORY, rooftop=True)
    q = pos(corner, [e])
    r = q.map.rooftop(L("A1").hex)
    assert r is not None
    assert sorted(t.name for t in pending_spreads(q.with_(fires=(replace(blaze("A1"), location=r),)))) == [
        "A1", "A2.roof"]  # the map's edge first, then the neighbour


def test_b25_6_ground_fire_reaches_a_building_on_higher_ground() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    put(hexes, Terrain.OPEN_GROUND, ["C4"], elevation=1)
    b = building(hexes, "h", Material.WOODEN, ["C4"])
    s = pending_spreads(pos(hexes, [b], fires=[blaze("C3")]))
    assert [(d.value, d.rule) for d in s[L("C4")].check.drms] == [(1, "B25.61"), (-2, "B25.62")]  # type: ignore[union-attr]


def test_b25_61_to_b25_64_spreading_drm_reasons_word_for_word() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"], elevation=1)
    put(hexes, Terrain.WOODS, ["C4"])
    fort = building(hexes, "f", Material.WOODEN, ["B3"], fortified=frozenset({("B3", 0)}))
    s = pending_spreads(pos(hexes, [fort], fires=[blaze("C3")]))
    assert [(d.value, d.reason, d.rule) for d in s[L("C4")].check.drms] == [  # type: ignore[union-attr]
        (-1, "to lower elevation", "B25.61"), (-2, "not directly attached", "B25.62")]
    assert [(d.value, d.reason, d.rule) for d in s[L("B3")].check.drms] == [  # type: ignore[union-attr]
        (-1, "to lower elevation", "B25.61"), (-2, "not directly attached", "B25.62"),
        (-1, "to a Fortified Building", "B23.94")]
    w = pending_spreads(pos(grid("A-E", "1-5"), wrecks=[Wreck(L("C3"), bypass=Direction(4), since=1)]))
    assert w == {}  # nothing burnable
    hexes2 = grid("A-E", "1-5")
    put(hexes2, Terrain.BRUSH, ["C4"])
    w = pending_spreads(pos(hexes2, wrecks=[Wreck(L("C3"), bypass=Direction(4), since=1)]))
    sc = w[L("C4")]
    assert [(d.value, d.reason) for d in sc.check.drms] == [(-2, "Burning Wreck was Bypassing")]  # type: ignore[union-attr]
    assert sc.check.name == "Spreading Fire to C4 (Brush, Spread # 6) from Burning Wreck in C3"  # type: ignore[union-attr]


def test_b25_63_a_bypassing_wreck_spreads_downwind_into_the_other_hex_in_heavy_winds() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"])
    wreck = Wreck(L("C3"), bypass=Direction(4), since=1)
    down = pending_spreads(pos(hexes, wrecks=[wreck], env=heavy(4)))
    assert down[L("C4")].automatic and down[L("C4")].reason == "Heavy Winds, downwind to 4, B25.63"
    assert down[L("C3")].automatic and down[L("C3")].reason == ("Heavy Winds: a Wreck Blaze fires its own Location, "
                                                                 "B25.63")
    up = pending_spreads(pos(hexes, wrecks=[wreck], env=heavy(1)))
    assert L("C4") not in up and up[L("C3")].automatic


def test_b25_151_reports_carry_their_checks_and_rolls() -> None:
    from asl_vassal_bridge.core import EC, Roll, pending_rolls

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4", "C5"])
    fort = building(hexes, "f", Material.STONE, ["A1"], fortified=frozenset({("A1", 0)}))
    p = pos(hexes, [fort], fires=[flame("A1"), flame("C3"), flame("C4"), flame("C5")], wrecks=[Wreck(L("C3"))],
            env=Environment(EC.WET))
    _, rep = flame_to_blaze(pos(hexes, [fort]), ScriptedDice([]))
    assert rep.title == "Flame to Blaze (B25.151)" and rep.events == ()
    rolls = pending_rolls(p)
    assert [(r.kind, r.location.name, str(r.chance), str(r.extinguish_chance)) for r in rolls] == [
        ("blaze", "A1", "1/6", "1/12"), ("blaze", "C3", "5/18", "1/6"), ("blaze", "C4", "5/18", "1/6"),
        ("blaze", "C5", "5/18", "1/6"), ("spread", "C3", "5/18", "0")]
    assert rolls[4].check == pending_spreads(p)[L("C3")].check
    assert [(d.value, d.reason, d.rule) for d in rolls[0].check.drms] == [(-1, "Fortified Building", "B23.94")]  # type: ignore[union-attr]
    new, rep = flame_to_blaze(p, ScriptedDice([1, 1, 6, 6, 1, 2, 3, 4]))
    assert rep.title == "Flame to Blaze (B25.151)"
    checks = {r.location.name: r.check for r in rolls if r.kind == "blaze"}
    for e, faces in zip([e for e in rep.events if e.roll], ((1, 1), (6, 6), (1, 2), (3, 4)), strict=True):
        assert e.roll is not None and e.roll.roll == Roll(*faces) and e.roll.check == checks[e.location]  # type: ignore[index]
    assert [(e.text, e.location) for e in rep.events if e.kind == "wreck-removed"] == [
        ("Burning Wreck in C3 removed: its Location is a terrain Blaze", "C3")]
    assert [f.location.name for f in new.fires] == ["C5", "C3"]  # A1 and C4 went out; C5 stays a Flame


def test_b25_6_every_source_counts_whatever_the_order_of_fires_and_wrecks() -> None:
    from asl_vassal_bridge.core import Roll

    hexes = grid("A-G", "1-7")
    put(hexes, Terrain.BRUSH, ["B2", "C3", "E5", "F6", "E6"])
    p = pos(hexes, fires=[flame("B2"), blaze("C3"), blaze("E5"), blaze("E6")],
            wrecks=[Wreck(L("A1"), burning=False), Wreck(L("F6"), since=NOW.player_turn), Wreck(L("B2"), since=1)])
    s = pending_spreads(p)
    assert set(s) == {L("B2"), L("F6")}  # E6/E5 are Blazes already; the fresh wreck does not spread
    assert s[L("F6")].source in (L("E5"), L("E6")) and not s[L("F6")].by_wreck
    _, rep = spread_fire(p, ScriptedDice([6, 6, 6, 6]))
    assert [(e.location, e.roll.roll if e.roll else None) for e in rep.events] == [
        ("B2", Roll(6, 6)), ("F6", Roll(6, 6))]
    assert all(e.roll is not None and e.roll.check == s[L(e.location)].check for e in rep.events)  # type: ignore[arg-type]


def test_b25_651_wreck_gust_spreads_are_reported_as_wrecks() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"])
    p = pos(hexes, wrecks=[Wreck(L("C3"), since=1)], env=replace(mild(4), gusts=True))
    s = pending_spreads(p)
    assert s[L("C3")].by_wreck and s[L("C3")].describe(p) == (
        "C3: automatic Flame from Burning Wreck in C3 (Gusts: a Wreck Blaze fires its own Location, B25.651)")
    hexes2 = grid("A-E", "1-5")
    put(hexes2, Terrain.BRUSH, ["C3", "C4"])
    q = pos(hexes2, fires=[blaze("C3")], env=replace(mild(4), gusts=True))
    assert not pending_spreads(q)[L("C4")].by_wreck
    _, rep = end_of_afph(p, ScriptedDice([]))
    assert rep.title == "End of AFPh fire upkeep, Turn 3.1 AFPh"
    assert [e.text for e in rep.events] == [
        "Flame placed in C3: Gusts: a Wreck Blaze fires its own Location, B25.651",
        "Flame placed in C4: Gusts: the Burning Wreck in C3 spreads one hex, B25.651"]
    from asl_vassal_bridge.core.fire import spreading_step

    new, rep = spreading_step(p, ScriptedDice([]))
    assert rep.title == "Spreading Fire (B25.6)"
    assert all(f.kindled_by is None for f in new.flames())


def test_b25_651_odds_with_gusts_and_nothing_to_pick() -> None:
    from asl_vassal_bridge.core import pending_rolls

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"])
    p = pos(hexes, fires=[blaze("C3")], env=replace(mild(4), gusts=True))
    assert [(r.kind, r.location.name, r.automatic) for r in pending_rolls(p)] == [("spread", "C4", True)]


def test_b25_6_wrecks_each_count_whatever_their_order() -> None:
    hexes = grid("A-G", "1-7")
    put(hexes, Terrain.BRUSH, ["B2", "E5", "G2", "G3"])
    wrecks = [Wreck(L("A7"), burning=False), Wreck(L("E5"), since=NOW.player_turn),
              Wreck(L("G2"), bypass=Direction(4), since=1), Wreck(L("B2"), since=1)]
    # G2's own Location holds a (fresh) Blaze: the Bypassing wreck still reaches G3.
    s = pending_spreads(pos(hexes, fires=[blaze("G2", since=NOW.player_turn)], wrecks=wrecks))
    assert {t.name: sc.by_wreck for t, sc in s.items()} == {"B2": True, "G3": True}
    assert L("E5") not in s  # a wreck burning since this Player Turn does not spread yet


def test_b25_5_bamboo_doubles_a_negative_ec_drm_too() -> None:
    from asl_vassal_bridge.core import EC, UnitKind, kindling_check

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BAMBOO, ["C3"])
    wet = pos(hexes, env=Environment(EC.WET))
    assert [(d.value, d.reason) for d in kindling_check(wet, L("C3"), UnitKind.LEADER).drms] == [
        (-2, "SMC Kindling"), (-4, "Wet EC ×2 (Kindling)")]
    put(hexes, Terrain.BAMBOO, ["C4"])
    s = pending_spreads(pos(hexes, fires=[blaze("C3")], env=Environment(EC.VERY_DRY)))
    assert [(d.value, d.reason) for d in s[L("C4")].check.drms][-1] == (4, "Very Dry EC ×2 in Bamboo (Spreading Fire)")  # type: ignore[union-attr]
