"""Wind Change (B25.65), Gusts (B25.651) and Collapse (B25.66)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from asl_vassal_bridge.core import (
    BuildingKind,
    Direction,
    Environment,
    Fire,
    FireKind,
    Material,
    ScriptedDice,
    Terrain,
    Wind,
    WindForce,
    Wreck,
    rally_phase,
)
from asl_vassal_bridge.core.environment import wind_force_from_dr
from asl_vassal_bridge.core.wind import apply_wind_change, collapse, random_selection, wind_change_odds

from .builders import L, blaze, building, flame, grid, mild, pos, put


def gust_example(direction: int | None):  # type: ignore[no-untyped-def]
    """Board 21's north-east corner as the B25.66 example needs it (our terrain: only these hexes burn)."""
    hexes = grid("CC-GG", "0-10")
    put(hexes, Terrain.WOODS, ["FF1", "EE1", "EE3", "DD2", "CC2", "DD3", "CC4", "EE4", "EE5", "GG4"])
    env = mild(direction) if direction else Environment()
    return pos(hexes, fires=[blaze("FF1"), blaze("EE1"), blaze("EE3"), flame("DD2")], env=env)


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
    # Wind Change DR 12, then (wind 5) a Random Selection DR of doubles between EE1 and EE3.
    new, _rep = rally_phase(p, ScriptedDice([6, 6, 3, 3]))
    added = [f for f in new.fires if f not in p.fires]
    assert {f.location.name for f in added} == flames
    assert all(f.is_flame and f.since == p.clock.player_turn for f in added)
    assert new.environment.gusts


def test_b25_66_example_ff1_is_ineligible_and_doubles_select_both() -> None:
    p = gust_example(5)
    _, rep = rally_phase(p, ScriptedDice([6, 6, 3, 3]))
    selection = [e for e in rep.events if e.kind == "selection"]
    assert len(selection) == 1 and "EE1" in selection[0].text and "EE3" in selection[0].text
    assert "FF1" not in selection[0].text


def test_b25_651_random_selection_highest_dr_only() -> None:
    p = gust_example(5)
    new, _ = rally_phase(p, ScriptedDice([6, 6, 2, 5]))
    added = {f.location.name for f in new.fires if f not in p.fires}
    assert added == {"DD3", "CC4"}  # EE3 rolled higher: only it spreads two hexes


def test_b25_651_gust_direction_rolled_with_no_wind() -> None:
    p = gust_example(None)
    new, _rep = rally_phase(p, ScriptedDice([6, 6, 4]))
    assert {f.location.name for f in new.fires if f not in p.fires} == {"EE4", "EE5"}
    assert new.environment.wind.force is WindForce.NO_WIND


def test_b25_651_wreck_blaze_fires_own_location_and_may_spread_one_hex() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"])
    p = pos(hexes, wrecks=[Wreck(L("C3"))], env=mild(4))
    new, _ = rally_phase(p, ScriptedDice([6, 6]))
    assert {f.location.name for f in new.flames()} == {"C3", "C4"}


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


def test_b25_66_collapse_turns_a_burning_building_hex_into_burning_rubble() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3", "C4"], BuildingKind.MULTI_STORY)
    p = pos(hexes, [b], [blaze("C3.1"), flame("C3.2"), blaze("C4")], Environment())
    # Random Selection between C3.1 and C4: C3.1 rolls higher.
    new, rep = collapse(p, ScriptedDice([5, 2]))
    info = new.map.hexes[L("C3").hex]
    assert info.terrain is Terrain.STONE_RUBBLE and info.building is None
    assert [f for f in new.fires if f.location.hex == L("C3").hex] == [
        Fire(L("C3"), FireKind.BLAZE, since=p.clock.player_turn)]
    assert new.map.locations(L("C3").hex) == (L("C3"),)
    assert new.blaze_at(L("C4")) is not None
    assert any(e.kind == "collapse" for e in rep.events)


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
