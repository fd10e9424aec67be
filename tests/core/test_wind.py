"""Wind Change (B25.65), Gusts (B25.651) and Collapse (B25.66)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from asl_vassal_bridge.core import (
    EC,
    BuildingKind,
    Direction,
    Environment,
    Material,
    ScriptedDice,
    Terrain,
    Wind,
    WindForce,
    Wreck,
    pending_spreads,
)
from asl_vassal_bridge.core.environment import wind_force_from_dr
from asl_vassal_bridge.core.fire import end_of_afph  # the step alone: the clock stays (core.turn moves it)
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.core.wind import apply_wind_change, collapse, rally_phase, random_selection, wind_change_odds

from .builders import NOW, L, blaze, building, flame, grid, mild, pos, put


def gust_example(direction: int | None):  # type: ignore[no-untyped-def]
    """Board 21's north-east corner as the B25.66 example needs it (our terrain: only these hexes burn).

    The wind is Gusting this Player Turn; the Flame in DD2 appeared this Player Turn (no Flame→Blaze DR).
    """
    hexes = grid("CC-GG", "0-10")
    put(hexes, Terrain.WOODS, ["FF1", "EE1", "EE3", "DD2", "CC2", "DD3", "CC4", "EE4", "EE5", "GG4"])
    env = mild(direction) if direction else Environment()
    return pos(hexes, fires=[blaze("FF1"), blaze("EE1"), blaze("EE3"), flame("DD2", since=NOW.player_turn)],
               env=replace(env, gusts=True))


def gusts_afph(p, selection: list[int]):  # type: ignore[no-untyped-def]
    """The end of the AFPh of a Gusting Player Turn: the Random Selection (and Gust direction) dice, then
    every Spreading Fire DR an Original 2 (which fails everywhere here): only the Gusts place Flames."""
    return end_of_afph(p, ScriptedDice([*selection, *([1] * 80)]))


@pytest.mark.parametrize(
    ("direction", "flames"),
    [
        (5, {"CC2", "DD3", "CC4"}),
        (3, {"GG4"}),
        (4, {"EE4", "EE5"}),
        (6, {"DD2", "CC2"}),
        (1, set()),
        (2, set()),
    ],
)
def test_b25_66_example_gusts(direction: int, flames: set[str]) -> None:
    p = gust_example(direction)
    # Gusts to 5: a Random Selection DR of doubles between EE1 and EE3.
    new, _rep = gusts_afph(p, [3, 3])
    assert new.fires[: len(p.fires)] == p.fires
    added = new.fires[len(p.fires):]
    assert sorted(f.location.name for f in added) == sorted(flames)  # DD2 (wind 6) gets another Flame
    assert all(f.is_flame and f.since == p.clock.player_turn for f in added)


def test_b25_651_a_wind_change_dr_of_twelve_makes_a_gusting_player_turn() -> None:
    p = replace(gust_example(5), environment=mild(5))
    new, rep = rally_phase(p, ScriptedDice([6, 6]))
    assert new.environment.gusts and new.fires == p.fires  # the Gusts spread at the end of the AFPh
    assert rep.events[0].text.startswith("Wind Change DR 12 (6,6): Gusts")
    assert "12 12" not in rep.text()


def test_b25_651_gusts_in_a_position_act_like_rolled_ones() -> None:
    rolled, _ = rally_phase(replace(gust_example(5), environment=mild(5)), ScriptedDice([6, 6]))
    rolled = replace(rolled, clock=NOW)
    given = gust_example(5)
    assert rolled == given
    assert gusts_afph(rolled, [3, 3])[0] == gusts_afph(given, [3, 3])[0]
    calm = replace(given, environment=mild(5))
    assert {f.location.name for f in gusts_afph(calm, [])[0].fires if f not in calm.fires} == set()


def test_b25_66_example_ff1_is_ineligible_and_doubles_select_both() -> None:
    p = gust_example(5)
    _, rep = gusts_afph(p, [3, 3])
    selection = [e for e in rep.events if e.kind == "selection"]
    assert len(selection) == 1 and "EE1" in selection[0].text and "EE3" in selection[0].text
    assert "FF1" not in selection[0].text


def test_b25_651_random_selection_highest_dr_only() -> None:
    p = gust_example(5)
    new, _ = gusts_afph(p, [2, 5])
    added = {f.location.name for f in new.fires if f not in p.fires}
    assert added == {"DD3", "CC4"}  # EE3 rolled higher: only it spreads two hexes


def test_b25_651_gust_direction_rolled_with_no_wind() -> None:
    p = gust_example(None)
    new, _rep = gusts_afph(p, [4])
    assert {f.location.name for f in new.fires if f not in p.fires} == {"EE4", "EE5"}
    assert new.environment.wind.force is WindForce.NO_WIND


def test_b25_651_gusts_spread_into_mud_and_within_a_building() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"], feature="a")
    put(hexes, Terrain.BRUSH, ["C4"], feature="b")
    b = building(hexes, "b", Material.WOODEN, ["B3", "B4"], BuildingKind.TWO_STORY)
    p = pos(hexes, [b], [blaze("C3"), blaze("B3.1")], Environment(EC.MUD, mild(4).wind, gusts=True))
    auto = {t.name for t, sc in pending_spreads(p).items() if sc.automatic}
    assert auto == {"C4", "B4.1"}


def test_b25_651_wreck_blaze_fires_own_location_and_may_spread_one_hex() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"])
    p = pos(hexes, wrecks=[Wreck(L("C3"))], env=replace(mild(4), gusts=True))
    new, _ = gusts_afph(p, [])
    assert {f.location.name for f in new.flames()} == {"C3", "C4"}


def test_b25_651_fires_of_this_player_turn_do_not_gust() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4", "C5"])
    p = pos(hexes, fires=[blaze("C3", since=NOW.player_turn)], env=replace(mild(4), gusts=True))
    assert pending_spreads(p) == {}
    assert gusts_afph(p, [])[0] == p


def test_b25_651_gusts_end_with_the_player_turn_and_hampered_marks_go() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    p = pos(hexes, fires=[flame("C3", hampered=True)], env=Environment(gusts=True))
    new, _ = rally_phase(p, ScriptedDice([3, 4]))
    assert not new.environment.gusts and not new.flames()[0].hampered


@pytest.mark.parametrize(
    ("wind", "dr", "expected"),
    [
        (Wind(WindForce.MILD_BREEZE, Direction(1)), 1, Wind(WindForce.MILD_BREEZE, Direction(2))),
        (Wind(WindForce.MILD_BREEZE, Direction(1)), 2, Wind(WindForce.MILD_BREEZE, Direction(3))),
        (Wind(WindForce.MILD_BREEZE, Direction(1)), 3, Wind(WindForce.MILD_BREEZE, Direction(6))),
        (Wind(WindForce.MILD_BREEZE, Direction(1)), 4, Wind(WindForce.MILD_BREEZE, Direction(5))),
        (Wind(WindForce.MILD_BREEZE, Direction(1)), 5, Wind(WindForce.HEAVY_WINDS, Direction(1))),
        (Wind(WindForce.MILD_BREEZE, Direction(1)), 6, Wind()),
        (Wind(WindForce.HEAVY_WINDS, Direction(2)), 5, Wind(WindForce.MILD_BREEZE, Direction(2))),
        (Wind(WindForce.HEAVY_WINDS, Direction(2)), 6, Wind(WindForce.MILD_BREEZE, Direction(2))),
        (Wind(), 1, Wind()),
    ],
)
def test_b25_65_wind_change_table(wind: Wind, dr: int, expected: Wind) -> None:
    assert apply_wind_change(wind, dr, ScriptedDice([]))[0] == expected


@pytest.mark.parametrize("dr", [5, 6])
def test_b25_65_force_change_from_no_wind_is_a_mild_breeze_with_a_rolled_direction(dr: int) -> None:
    new, text = apply_wind_change(Wind(), dr, ScriptedDice([4]))
    assert new == Wind(WindForce.MILD_BREEZE, Direction(4))
    assert "dr 4" in text


def test_b25_65_wind_change_dr_two_in_the_rally_phase() -> None:
    hexes = grid("A-C", "1-3")
    new, rep = rally_phase(pos(hexes, env=mild(1)), ScriptedDice([1, 1, 2]))
    assert new.environment.wind == Wind(WindForce.MILD_BREEZE, Direction(3))
    assert rep.events[0].rule == "B25.65"


def test_b25_63_wind_force_table() -> None:
    assert [wind_force_from_dr(d) for d in range(1, 7)] == [WindForce.NO_WIND] * 3 + [WindForce.MILD_BREEZE] * 2 + [
        WindForce.HEAVY_WINDS]


def test_b25_66_collapse_takes_the_location_and_the_levels_above_it_only() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3", "C4"], BuildingKind.MULTI_STORY, rooftop=True)
    p = pos(hexes, [b], [blaze("C3.1"), flame("C3.2"), flame("C3"), blaze("C4")], Environment())
    # Random Selection between C3.1 and C4: C3.1 rolls higher.
    new, rep = collapse(p, ScriptedDice([5, 2]))
    info = new.map.hexes[L("C3").hex]
    assert info.terrain is Terrain.STONE_BUILDING and info.building == "b"
    assert new.map.locations(L("C3").hex) == (L("C3"),)  # its rooftop gone with the level beneath (B23.86)
    c4_roof = new.map.rooftop(L("C4").hex)
    assert c4_roof is not None and new.map.locations(L("C4").hex) == (L("C4"), L("C4.1"), L("C4.2"), c4_roof)
    assert [f for f in new.fires if f.location.hex == L("C3").hex] == [flame("C3")]
    assert new.blaze_at(L("C4")) is not None
    assert any(e.kind == "collapse" and "B24.12" in e.text for e in rep.events)


def test_b25_66_a_collapsed_ground_level_is_burning_rubble_whose_blaze_burns_on() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3", "C4"], BuildingKind.MULTI_STORY)
    p = pos(hexes, [b], [blaze("C3", since=2, kindled_by="German"), flame("C3.2"), blaze("C4")], Environment())
    new, _ = collapse(p, ScriptedDice([5, 2]))
    info = new.map.hexes[L("C3").hex]
    assert info.terrain is Terrain.STONE_RUBBLE and info.building is None
    assert [f for f in new.fires if f.location.hex == L("C3").hex] == [blaze("C3", since=2, kindled_by="German")]
    assert new.map.locations(L("C3").hex) == (L("C3"),)


def test_b25_66_original_twelve_collapses_as_well_as_gusts() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.WOODEN, ["C3"])
    p = pos(hexes, [b], [blaze("C3")], mild(1))
    new, rep = rally_phase(p, ScriptedDice([6, 6]))
    assert new.map.hexes[L("C3").hex].terrain is Terrain.WOODEN_RUBBLE
    assert {e.rule for e in rep.events} >= {"B25.651", "B25.66"}


def test_wind_change_odds_are_exact() -> None:
    hexes = grid("A-C", "1-3")
    b = building(hexes, "b", Material.WOODEN, ["B2"])
    put(hexes, Terrain.WOODS, ["A1"])
    odds = wind_change_odds(pos(hexes, [b], [blaze("A1")]))
    assert (odds.change, odds.gusts, odds.collapse) == (Fraction(1, 36), Fraction(1, 36), 0)
    assert wind_change_odds(pos(hexes, [b], [blaze("B2")])).collapse == Fraction(1, 36)


def test_random_selection_single_candidate_needs_no_roll() -> None:
    chosen, rolls = random_selection(["x"], ScriptedDice([]), "t")
    assert chosen == ["x"] and rolls == []
