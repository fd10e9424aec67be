"""Flame → Blaze and Flame extinguishing (B25.15, B25.151)."""

from __future__ import annotations

from fractions import Fraction

from asl_vassal_bridge.core import EC, BuildingKind, Environment, Material, ScriptedDice, Terrain, Wreck
from asl_vassal_bridge.core.fire import flame_to_blaze, flame_to_blaze_check, pending_blaze_checks

from .builders import NOW, H, L, building, flame, grid, pos, put


def woods_flame(env: Environment = Environment(), **kw: object):  # type: ignore[no-untyped-def]
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    return pos(hexes, fires=[flame("C3", **kw)], env=env)  # type: ignore[arg-type]


def test_b25_151_blaze_on_final_dr_at_least_spread_number() -> None:
    p = woods_flame()
    (bc,) = pending_blaze_checks(p)
    assert bc.check.needed == 7 and bc.chance == Fraction(21, 36)
    assert bc.extinguish_chance == Fraction(1, 36)
    new, rep = flame_to_blaze(p, ScriptedDice([3, 4]))
    assert [f.location.name for f in new.blazes()] == ["C3"] and new.flames() == []
    assert new.blazes()[0].since == NOW.player_turn
    assert rep.events[0].kind == "blaze"


def test_b25_151_final_dr_of_two_or_less_extinguishes() -> None:
    p = woods_flame(Environment(EC.WET))
    (bc,) = pending_blaze_checks(p)
    assert bc.extinguish_chance == Fraction(6, 36)  # Original ≤ 4
    new, rep = flame_to_blaze(p, ScriptedDice([2, 2]))
    assert new.fires == () and rep.events[0].kind == "extinguished"
    new, rep = flame_to_blaze(p, ScriptedDice([3, 3]))
    assert len(new.flames()) == 1 and rep.events[0].kind == "no-change"


def test_b25_15_never_in_the_player_turn_the_flame_appeared() -> None:
    assert flame_to_blaze_check(woods_flame(), flame("C3", since=NOW.player_turn)) is None
    assert pending_blaze_checks(woods_flame(since=NOW.player_turn)) == []


def test_b24_721_hampered_flame_does_not_become_a_blaze() -> None:
    assert pending_blaze_checks(woods_flame(hampered=True)) == []


def test_b25_151_ec_drm_unless_in_a_building_and_minus_one_fortified() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3"], BuildingKind.TWO_STORY, fortified=frozenset({("C3", 0)}))
    p = pos(hexes, [b], [flame("C3"), flame("C3.1")], Environment(EC.VERY_DRY))
    checks = {c.location.name: c.check for c in pending_blaze_checks(p)}
    assert [d.value for d in checks["C3"].drms] == [-1]  # no EC in a building; Fortified −1 (B23.94)
    assert checks["C3.1"].drms == ()


def test_b25_15_one_blaze_removes_every_flame_in_the_location() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    p = pos(hexes, fires=[flame("C3"), flame("C3")])
    new, rep = flame_to_blaze(p, ScriptedDice([6, 6]))
    assert len(rep.events) == 1
    assert len(new.fires) == 1 and new.fires[0].is_blaze


def test_b25_14_burning_wreck_removed_when_its_location_becomes_a_blaze() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3"])
    p = pos(hexes, fires=[flame("C3")], wrecks=[Wreck(L("C3"), since=1)])
    new, rep = flame_to_blaze(p, ScriptedDice([5, 5]))
    assert new.wrecks == ()
    assert any(e.rule == "B25.14" for e in rep.events)


def test_hut_collapses_when_its_flame_becomes_a_blaze() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "hut", Material.WOODEN, ["C3"], BuildingKind.HUT)
    p = pos(hexes, [b], [flame("C3")], Environment(EC.WET))
    (bc,) = pending_blaze_checks(p)
    assert bc.check.needed == 7 and [d.value for d in bc.check.drms] == [-2]  # huts: EC applies
    new, rep = flame_to_blaze(p, ScriptedDice([6, 5]))
    assert [e.kind for e in rep.events] == ["blaze", "hut-collapse"]
    # the collapse is state: a Collapsed hut, Burnable hut terrain that is no building any more
    assert new.map.is_collapsed_hut(H("C3")) and new.map.building(H("C3")) is None and "hut" not in new.map.buildings
    assert new.blaze_at(L("C3")) is not None


def test_b23_6_a_building_hex_blazing_on_every_level_is_one_burning_building() -> None:
    from .builders import blaze

    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3"], BuildingKind.MULTI_STORY)
    p = pos(hexes, [b], [blaze("C3"), blaze("C3.1")])
    assert p.building_blaze_levels(L("C3").hex) is None
    p = p.with_(fires=(*p.fires, blaze("C3.2")))
    assert p.building_blaze_levels(L("C3").hex) == 3


def test_only_a_standing_hut_collapses_when_its_flame_becomes_a_blaze() -> None:
    # a wooden house and a Collapsed hut (hut terrain, no building) blaze up: no hut collapses (huts)
    hexes = grid("A-E", "1-5")
    house = building(hexes, "house", Material.WOODEN, ["C3"])
    put(hexes, Terrain.HUT, ["B2"])
    p = pos(hexes, [house], [flame("C3"), flame("B2")])
    new, rep = flame_to_blaze(p, ScriptedDice([6, 6, 6, 6]))
    assert [e.kind for e in rep.events] == ["blaze", "blaze"]
    assert new.map == p.map and {f.location.name for f in new.blazes()} == {"B2", "C3"}
