"""Several Flame counters in one Location on the live map (B25.15, B25.151), without an engine: each counter is read
as a Flame of its own with its own Flame→Blaze DR; the upkeep's batch removes all of them when one becomes a Blaze
and exactly the counters of the Flames extinguished otherwise; the Fire finder and odds say what the DRs are."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from asl_vassal_bridge.bridge.convert import batch_for, position_from_snapshot
from asl_vassal_bridge.bridge.firestarts import FireStartRequest, fire_start_batch, resolve_fire_start
from asl_vassal_bridge.bridge.position import LiveGame
from asl_vassal_bridge.bridge.report import finder_lines, odds_lines
from asl_vassal_bridge.bridge.rules import rules_for
from asl_vassal_bridge.core.dice import CallbackDice
from asl_vassal_bridge.core.fire import pending_blaze_checks
from asl_vassal_bridge.core.position import Fire, FireKind, Location, Phase, Position
from asl_vassal_bridge.vasl.counters import PLACE_GPIDS, FireCounter

from .test_attack_hob_units import Faces
from .test_bridge_units import piece, snapshot
from .test_firestarts_units import FLAME, with_hut

BLAZE = {"gpid": PLACE_GPIDS[FireCounter.BLAZE], "location": "C2", "map": "Main Map"}
NAMES = {PLACE_GPIDS[FireCounter.FLAME]: "Flame", PLACE_GPIDS[FireCounter.BLAZE]: "Blaze"}


def two_flames(pinned: bool = False) -> list[dict[str, Any]]:
    """Two Flame counters in C2 (Woods, Spread # 7): f1 in the hex's stack, f2 in a stack of its own beside it,
    with VASL's Pin if *pinned* (it appeared this Player Turn, B25.15)."""
    f2 = dict(piece("f2", "Flame", "192", "C2"), x=100 * ord("C") + 20)
    pin = [dict(piece("p2", "Pin", "5704", "C2"), x=f2["x"])] if pinned else []
    return [piece("f1", "Flame", "192", "C2"), f2, *pin]


def upkeep(pieces: list[dict[str, Any]], faces: Sequence[tuple[int, int]]) -> tuple[LiveGame, Position,
                                                                                     dict[str, Any], list[str]]:
    """The fire upkeep (end of the AFPh) as a press runs it, with scripted DRs: the game read, the new Position, the
    batch and the purposes of the DRs made."""
    live = position_from_snapshot(snapshot(pieces), phase=Phase.AFPH)
    rolls = iter(faces)
    purposes: list[str] = []

    def roll(purpose: str, n: int) -> list[int]:
        purposes.append(purpose)
        assert n == 2
        return list(next(rolls))

    new, _report = rules_for(Phase.AFPH)(live.position, CallbackDice(roll))
    assert next(rolls, None) is None, "every scripted DR is made"
    return live, new, batch_for(live, new, phase_key="PT1 AFPh", session=1, roll_texts=[]), purposes


def applied(pieces: list[dict[str, Any]], batch: dict[str, Any]) -> Position:
    """The Position read back from the pieces once VASSAL applied *batch* (placed counters on their hex)."""
    kept = [p for p in pieces if p["id"] not in batch["remove"]]
    placed = [piece(f"n{i}", NAMES[e["gpid"]], e["gpid"], e["location"]) for i, e in enumerate(batch["place"])]
    return position_from_snapshot(snapshot(kept + placed), phase=Phase.AFPH).position


def fire_counts(pos: Position) -> Counter[tuple[str, FireKind]]:
    return Counter((pos.loc_name(f.location), f.kind) for f in pos.fires)


def test_b25_15_two_flame_counters_in_one_location_read_as_two_flames_each_with_its_dr() -> None:
    live = position_from_snapshot(snapshot(two_flames()), phase=Phase.AFPH)
    c2 = Location(live.position.map.parse_hex("C2"))
    assert live.position.flames_at(c2) == (Fire(c2, FireKind.FLAME), Fire(c2, FireKind.FLAME))
    assert live.fire_pieces == {(c2, FireKind.FLAME): ("f1", "f2")}
    assert [c.location for c in pending_blaze_checks(live.position)] == [c2, c2]  # B25.151: one DR each


def test_b25_15_each_flame_counter_is_new_by_the_pin_of_its_own_stack() -> None:
    live = position_from_snapshot(snapshot(two_flames(pinned=True)), phase=Phase.AFPH)
    now = live.position.clock.player_turn
    assert sorted(f.since for f in live.position.flames()) == [0, now]
    assert len(pending_blaze_checks(live.position)) == 1  # the Pin's Flame appeared this Player Turn (B25.15)


def test_b25_15_a_blaze_in_a_location_of_one_counter_per_level_stays_one_fire() -> None:
    c2 = [piece("b1", "Blaze", "5713", "C2"), piece("b2", "Blaze", "5713", "C2")]
    live = position_from_snapshot(snapshot(c2), phase=Phase.AFPH)
    assert [f.kind for f in live.position.fires] == [FireKind.BLAZE]
    assert list(live.fire_pieces.values()) == [("b1", "b2")]


def test_b25_151_one_flame_blazes_the_batch_removes_both_flame_counters_and_places_one_blaze() -> None:
    pieces = two_flames()
    _live, new, batch, purposes = upkeep(pieces, [(6, 6)])
    assert len(purposes) == 1  # the second Flame makes no DR: its Location is a Blaze now (B25.15)
    assert sorted(batch["remove"]) == ["f1", "f2"] and batch["expect"] == {"f1": "r-f1", "f2": "r-f2"}
    assert batch["place"] == [BLAZE]
    assert fire_counts(applied(pieces, batch)) == fire_counts(new) == Counter({("C2", FireKind.BLAZE): 1})


def test_b25_151_the_second_flames_dr_makes_the_blaze_after_the_first_is_extinguished() -> None:
    pieces = two_flames()
    _live, new, batch, purposes = upkeep(pieces, [(1, 1), (4, 4)])
    assert len(purposes) == 2
    assert sorted(batch["remove"]) == ["f1", "f2"] and batch["place"] == [BLAZE]
    assert fire_counts(applied(pieces, batch)) == fire_counts(new)


@pytest.mark.parametrize(("faces", "left"), [
    ([(1, 1), (3, 3)], 1),  # the first extinguished (Final DR 2), the second stays (6 < Spread # 7)
    ([(2, 4), (1, 1)], 1),  # the second extinguished
    ([(3, 3), (2, 4)], 2),  # both stay
    ([(1, 1), (1, 1)], 0),  # both extinguished
])
def test_b25_151_exactly_the_counters_of_the_flames_extinguished_are_removed(
        faces: list[tuple[int, int]], left: int) -> None:
    pieces = two_flames()
    _live, new, batch, purposes = upkeep(pieces, faces)
    assert len(purposes) == 2 and len(new.flames()) == left
    assert len(batch["remove"]) == 2 - left and set(batch["remove"]) <= {"f1", "f2"}
    assert batch["expect"] == {pid: f"r-{pid}" for pid in batch["remove"]}
    assert batch["place"] == []
    assert fire_counts(applied(pieces, batch)) == fire_counts(new)


def test_b25_151_the_extinguished_flames_own_counter_goes_and_the_new_flame_keeps_its_pin() -> None:
    pieces = two_flames(pinned=True)  # f2 appeared this Player Turn: only f1 rolls (B25.15)
    _live, new, batch, purposes = upkeep(pieces, [(1, 1)])
    assert len(purposes) == 1 and len(new.flames()) == 1
    assert batch["remove"] == ["f1"] and batch["place"] == []


def test_b25_15_a_spread_onto_a_location_with_a_flame_places_one_more_flame_counter() -> None:
    """A Blaze in D2 spreads into C2 where a Flame burns: C2 then holds two Flames, one counter more."""
    pieces = [piece("f1", "Flame", "192", "C2"), piece("b1", "Blaze", "5713", "D2")]
    live = position_from_snapshot(snapshot(pieces), phase=Phase.AFPH)
    c2 = Location(live.position.map.parse_hex("C2"))
    faces = iter([(3, 3)] + [(6, 6)] * 8)  # C2's Flame stays; every Spreading Fire DR places a Flame

    def roll(_purpose: str, _n: int) -> list[int]:
        return list(next(faces))

    new, _report = rules_for(Phase.AFPH)(live.position, CallbackDice(roll))
    assert len(new.flames_at(c2)) == 2
    batch = batch_for(live, new, phase_key="PT1 AFPh", session=1, roll_texts=[])
    assert batch["remove"] == []
    assert sum(e["location"] == "C2" for e in batch["place"]) == 1
    assert fire_counts(applied(pieces, batch)) == fire_counts(new)


def test_b25_15_a_fire_start_onto_a_new_flame_places_one_more_flame_counter() -> None:
    """The Flame already there appeared this Player Turn too (VASL's Pin): the new one is equal to it, yet is one
    more counter."""
    pin = piece("p0", "Pin", "5704", "B3")
    live = position_from_snapshot(with_hut(snapshot([piece("f0", "Flame", "192", "B3"), pin])), phase=Phase.PFPH)
    assert [f.since for f in live.position.flames()] == [live.position.clock.player_turn]
    req = FireStartRequest("hut", "B3", attack_dr=(1, 5), hut_attack="mg")
    after, rep, _ = resolve_fire_start(live, req, Faces([]))
    assert len(after.flames()) == 2
    batch = fire_start_batch(live, live.position, after, rep, session=1, rolls=[], request=req, map_name="Main Map")
    assert batch["place"] == [FLAME] and batch["remove"] == []


def test_b25_15_the_fire_finder_and_odds_list_a_locations_flames_and_their_drs() -> None:
    pos = position_from_snapshot(snapshot(two_flames()), phase=Phase.AFPH).position
    finder = finder_lines(pos)
    assert finder[0] == "- ASL fire bridge: Fire finder: 2 fires on the map (B25):"
    # two DRs of 21/36 each: the Location becomes a Blaze unless both fail, 1 - (15/36)² = 83%
    assert finder[1:] == ["-   2 Flames in C2 (level 0, Woods); to Blaze 83% (2 Flame→Blaze DRs of 58% each, "
                          "B25.151); spreads nowhere now"]
    odds = odds_lines(pos)
    assert odds[0] == "- ASL fire bridge: 2 fire rolls pending at the end of the AFPh (B25):"
    assert odds[1:3] == ["-   C2: Flame→Blaze 58%"] * 2
    assert odds[3] == ("-   C2 holds 2 Flames: each makes its own Flame→Blaze DR until one becomes a Blaze, which "
                       "removes them all (B25.15, B25.151)")
    pinned = finder_lines(position_from_snapshot(snapshot(two_flames(pinned=True)), phase=Phase.AFPH).position)
    assert pinned[1:] == ["-   2 Flames in C2 (level 0, Woods); to Blaze 58% (1 Flame→Blaze DR of 58%; the other "
                          "Flame makes none this AFPh, B25.151); spreads nowhere now"]


def test_b25_15_two_flames_on_an_upper_level_keep_their_level_marker_while_one_burns_b25_2() -> None:
    level_type = "emb2;;2;;Lvl;2;L;;2;;;;0;false;0;0;MS/lev-1,MS/lev0,MS/lev1,MS/lev2,MS/lev3,MS/levroof;,,,,,;true"
    snap = snapshot([piece("f1", "Flame", "192", "G4"), piece("f2", "Flame", "192", "G4"),
                     piece("lv", "Building Level 1", "163", "G4", [{"type": level_type, "state": "3"}])])
    snap["maps"][0]["terrain"]["hexes"].append(
        {"name": "G4", "elevation": 0, "locations": [
            {"name": "G4", "level": 0, "terrain": "Wooden Building, 1 Level", "center": True},
            {"name": "G4 Level 1", "level": 1, "terrain": "Wooden Building, 1 Level", "center": False}]})
    for p in snap["pieces"]:
        p.update(x=100, y=100)  # one stack: the two Flames and the Level marker
    live = position_from_snapshot(snap, phase=Phase.AFPH)
    pos = live.position
    assert [pos.loc_name(f.location) for f in pos.flames()] == ["G4.1", "G4.1"]
    one = batch_for(live, pos.with_(fires=pos.fires[:1]), phase_key=None, session=None, roll_texts=[])
    assert len(one["remove"]) == 1 and set(one["remove"]) <= {"f1", "f2"} and one["place"] == []
    none = batch_for(live, pos.with_(fires=()), phase_key=None, session=None, roll_texts=[])
    assert sorted(none["remove"]) == ["f1", "f2", "lv"]  # the Level marker marks nothing now (B25.2)
    g41 = pos.flames()[0].location
    blaze = batch_for(live, pos.remove_fires(g41).add_fire(Fire(g41, FireKind.BLAZE)), phase_key=None,
                      session=None, roll_texts=[])
    assert sorted(blaze["remove"]) == ["f1", "f2"]  # the Blaze goes on their stack, under the same marker
    assert blaze["place"] == [{"gpid": PLACE_GPIDS[FireCounter.BLAZE], "x": 100, "y": 100, "map": "Main Map"}]
