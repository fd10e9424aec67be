"""The bridge's Python side without a VASSAL engine: phase keys, snapshot → Position, batches, errors."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeRefused, NotConnected, read_connection_file
from asl_vassal_bridge.bridge.clock import next_phase_key
from asl_vassal_bridge.bridge.convert import NoTerrain, batch_for, explain_rolls, position_from_snapshot
from asl_vassal_bridge.bridge.extension import BuildError, build_extension
from asl_vassal_bridge.core.dice import Roll
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.explain import Check, CheckResult, Event, Report
from asl_vassal_bridge.core.position import Fire, FireKind, Location, Phase

EC_TYPE = ("emb2;;2;;Incr;2;];Decr;2;[;;;0;false;0;0;ML/ECsno,ML/ECmud,ML/ECwet,ML/ECmoi,ML/ECmod,ML/ECdry,ML/ECvdr;"
           "+: -3 Snow,+: -3 Mud,+: -2 Wet,+: -1 Moist,+: 0 Moderate,+: \\+1 Dry,+: \\+2 Very Dry;true")
WIND_DIR_TYPE = ("emb2;;2;;cw;2;X;ccw;2;Z;;;0;false;0;0;ML/Wind3,ML/Wind4,ML/Wind5,ML/Wind6,ML/Wind1,ML/Wind2;,,,,,;"
                 "true")
WIND_TYPE = "emb2;;2;;Flip;2;F;;2;;;;0;false;0;0;ML/WindNo,ML/WindMB,ML/WindHW;No Wind,Mild Breeze,Heavy Winds;true"


def snapshot(pieces: list[dict[str, Any]], processed: str = "") -> dict[str, Any]:
    hexes = [{"name": f"{c}{r}", "elevation": 0,
              "locations": [{"name": f"{c}{r}", "level": 0, "terrain": "Woods" if c in "CD" else "Open Ground",
                             "center": True}]} for c in "ABCDE" for r in range(1, 5)]
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": processed, "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": [], "terrain": {"source": "VASL", "hexes": hexes}}],
            "pieces": pieces}


def piece(pid: str, name: str, gpid: str, loc: str, layers: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"id": pid, "name": name, "gpid": gpid, "map": "Main Map", "location": loc, "rev": f"r-{pid}",
            "x": 100 * ord(loc[0]), "y": 100 * int(loc[1:]), "layers": layers or []}


def test_phase_key_same_phase_twice_is_a_repeat_b25() -> None:
    assert next_phase_key("", Phase.AFPH) == "PT1 AFPh"
    assert next_phase_key("PT1 AFPh", Phase.AFPH) is None
    assert next_phase_key("PT1 AFPh", Phase.RPH) == "PT2 RPh"
    assert next_phase_key("PT2 RPh", Phase.RPH) is None
    assert next_phase_key("PT2 RPh", Phase.AFPH) == "PT2 AFPh"


def test_snapshot_flame_under_pin_appeared_this_player_turn_b25_15() -> None:
    snap = snapshot([piece("f1", "Flame", "192", "C2"), piece("p1", "Pin", "5704", "C2"),
                     piece("f2", "Flame", "192", "D3"), piece("b1", "Blaze", "5713", "D2"),
                     piece("ec", "EC", "284", "A1", [{"type": EC_TYPE, "state": "4"}]),
                     piece("w", "Wind", "287", "A2", [{"type": WIND_TYPE, "state": "2"}]),
                     piece("wd", "Wind Dir", "285", "A3", [{"type": WIND_DIR_TYPE, "state": "5"}])])
    live = position_from_snapshot(snap, phase=Phase.AFPH)
    pos = live.position
    since = {f.location.name: f.since for f in pos.flames()}
    assert since == {"C2": pos.clock.player_turn, "D3": 0}
    assert [f.location.name for f in pos.blazes()] == ["D2"]
    assert pos.environment.ec.label == "Moist"
    assert pos.environment.wind.force.name == "MILD_BREEZE"
    assert int(pos.environment.wind.direction or 0) == 1  # layer 5 shows VASL's Wind1 face (B25.64)


def test_wind_without_wind_dir_counter_is_a_clear_error_b25_64() -> None:
    snap = snapshot([piece("w", "Wind", "287", "A2", [{"type": WIND_TYPE, "state": "2"}])])
    with pytest.raises(BadInput, match="no Wind Dir counter"):
        position_from_snapshot(snap)


def test_batch_places_new_blaze_removes_flame_and_expects_its_revision_b25_151() -> None:
    snap = snapshot([piece("f1", "Flame", "192", "C2")])
    live = position_from_snapshot(snap, phase=Phase.AFPH)
    loc = Location(live.position.map.parse_hex("C2"))
    new = live.position.remove_fires(loc).add_fire(Fire(loc, FireKind.BLAZE))
    batch = batch_for(live, new, phase_key="PT1 AFPh", session=3, roll_texts=["x"])
    assert batch["remove"] == ["f1"] and batch["expect"] == {"f1": "r-f1"}
    assert batch["place"] == [{"gpid": "195", "location": "C2", "map": "Main Map"}]
    assert batch["phase"] == "PT1 AFPh" and batch["session"] == 3 and batch["rolls"] == [{"text": "x"}]
    json.dumps(batch)


def test_batch_turns_the_wind_counter_to_heavy_winds_b25_63() -> None:
    snap = snapshot([piece("w", "Wind", "287", "A2", [{"type": WIND_TYPE, "state": "1"}])])
    live = position_from_snapshot(snap)
    from asl_vassal_bridge.core.environment import Wind, WindForce
    from asl_vassal_bridge.core.hexes import Direction

    new = live.position.with_(environment=live.position.environment.with_wind(Wind(WindForce.HEAVY_WINDS,
                                                                                   Direction(1))))
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    assert batch["layers"] == [{"id": "w", "index": 0, "value": 3}]


def test_each_roll_explained_by_the_report_line_that_used_it() -> None:
    check = Check("Flame to Blaze", "B25.151", needed=7)
    report = Report("t", (Event("B25.151", "x", "C2", CheckResult(check, Roll(3, 4), "Blaze")),))
    texts = explain_rolls([("random", [2]), ("Flame to Blaze", [3, 4])], report)
    assert texts[0] == "" and "B25.151" in texts[1]


def test_no_terrain_without_vasl_model_or_boards_is_a_clear_error() -> None:
    snap = snapshot([])
    snap["maps"][0]["terrain"] = None
    with pytest.raises(NoTerrain, match="no terrain"):
        position_from_snapshot(snap)


def test_connection_file_missing_or_readable_by_others_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NotConnected, match="no connection file"):
        read_connection_file(tmp_path / "none.json")
    f = tmp_path / "bridge.json"
    f.write_text(json.dumps({"port": 1234, "token": "t"}))
    os.chmod(f, 0o644)
    with pytest.raises(BadInput, match="other users"):
        read_connection_file(f)
    os.chmod(f, 0o600)
    assert read_connection_file(f).port == 1234
    f.write_text("not json")
    with pytest.raises(BadInput, match="not a bridge connection file"):
        read_connection_file(f)


def test_build_extension_rejects_a_jar_that_is_not_vassal(tmp_path: Path) -> None:
    bad = tmp_path / "x.jar"
    bad.write_bytes(b"not a zip")
    with pytest.raises(BuildError, match="not a jar"):
        build_extension(bad, tmp_path / "out.vmdx")
    with pytest.raises(BuildError, match="no such file"):
        build_extension(tmp_path / "missing.jar", tmp_path / "out.vmdx")
    assert not (tmp_path / "out.vmdx").exists()


def test_refusals_are_bad_input_for_the_cli() -> None:
    assert issubclass(BridgeRefused, BadInput) and issubclass(NotConnected, BadInput)


def test_level_marker_puts_the_fire_on_its_building_level_b25_2() -> None:
    level_type = "emb2;;2;;Lvl;2;L;;2;;;;0;false;0;0;MS/lev-1,MS/lev0,MS/lev1,MS/lev2,MS/lev3,MS/levroof;,,,,,;true"
    snap = snapshot([piece("f1", "Flame", "192", "G4"), piece("lv", "Building Level 1", "163", "G4",
                                                            [{"type": level_type, "state": "3"}])])
    snap["maps"][0]["terrain"]["hexes"].append(
        {"name": "G4", "elevation": 0, "locations": [
            {"name": "G4", "level": 0, "terrain": "Wooden Building, 1 Level", "center": True},
            {"name": "G4 Level 1", "level": 1, "terrain": "Wooden Building, 1 Level", "center": False}]})
    for p in snap["pieces"]:
        p.update(x=100, y=100)
    pos = position_from_snapshot(snap).position
    assert [f.location.name for f in pos.flames()] == ["G4.1"]


@pytest.mark.parametrize(("centre", "pixels", "expected"), [
    ("Dirt Road", {"Dirt Road": 900, "Woods": 2700}, "WOODS_ROAD"),  # a road through woods
    ("Paved Road", {"Paved Road": 2000, "Pine Woods": 720, "Open Ground": 880}, "WOODS_ROAD"),  # one type ≥ 1/5
    ("Dirt Road", {"Dirt Road": 3000, "Woods": 400, "Forest": 200}, "ROAD"),  # no single woods type covers 1/5
    ("Woods", {"Woods": 3400, "Dirt Road": 200}, "WOODS_ROAD"),  # woods with a road through it (> 3 %)
    ("Woods", {"Woods": 3500, "Dirt Road": 100}, "WOODS"),  # a road only grazing it
    ("Dirt Road", None, "ROAD"),  # no pixels sent (an older extension): the centre's terrain
])
def test_snapshot_road_through_woods_is_woods_road_as_the_archive_reader_says_b25_1(
        centre: str, pixels: dict[str, int] | None, expected: str) -> None:
    from asl_vassal_bridge.bridge.convert import game_map_from_snapshot
    from asl_vassal_bridge.core.terrain import Terrain
    from asl_vassal_bridge.vasl.terrain import drawn_shares, woods_road
    snap = snapshot([])
    hx = snap["maps"][0]["terrain"]["hexes"][0]
    hx["locations"][0]["terrain"] = centre
    if pixels is not None:
        hx["pixels"] = pixels
    gm = game_map_from_snapshot(snap)
    assert gm is not None
    assert gm.info(gm.layout.parse(hx["name"])).terrain is Terrain[expected]
    if pixels is not None:  # the rule the board-archive reader (vasl.board.to_hexinfo) applies
        shares, road = drawn_shares(pixels)
        road_centre = centre.endswith("Road")
        base = Terrain.ROAD if road_centre else Terrain.WOODS
        others = [(n, s) for n, s in shares if n != centre]
        assert woods_road(base, others, road_centre or road > 0.03) is Terrain[expected]


def test_a_later_press_reads_only_the_pieces_changed_since_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    from asl_vassal_bridge.bridge import position as bridge_position

    squads = [piece(f"s{i}", "4-6-7 1sq", "11467", f"{c}{r}") for i, (c, r) in enumerate(
        (c, r) for c in "ABCDE" for r in range(1, 5))]
    first = snapshot([piece("f1", "Flame", "192", "C2"), piece("b1", "Blaze", "5713", "D2"), *squads])
    gm = position_from_snapshot(first, phase=Phase.AFPH).position.map
    assert bridge_position._SEEN.read == len(first["pieces"])  # the first press reads every piece
    position_from_snapshot(first, game_map=gm, phase=Phase.AFPH, units_near_fires=True)
    assert bridge_position._SEEN.read == 0  # nothing changed: nothing read again
    moved = json.loads(json.dumps(first))  # the next snapshot: new objects, one Flame moved C2 → E3
    flame = moved["pieces"][0]
    flame.update(location="E3", x=100 * ord("E"), y=300, rev="r-f1-2")
    later = position_from_snapshot(moved, game_map=gm, phase=Phase.AFPH, units_near_fires=True)
    assert bridge_position._SEEN.read == 1
    assert [f.location.name for f in later.position.flames()] == ["E3"]
    monkeypatch.setattr(bridge_position, "_SEEN", bridge_position._Seen())  # the same snapshot read from scratch
    fresh = position_from_snapshot(moved, game_map=gm, phase=Phase.AFPH, units_near_fires=True)
    assert later.position.fires == fresh.position.fires and later.position.units == fresh.position.units
    assert set(later.units) == set(fresh.units) and later.units


def _reads_as_afresh(live: Any, merged: dict[str, Any], gm: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The same snapshot read from scratch (new dicts, nothing kept): asserted to read as *live* did; returned."""
    from asl_vassal_bridge.bridge import position as bridge_position

    with monkeypatch.context() as m:
        m.setattr(bridge_position, "_SEEN", bridge_position._Seen())
        fresh = position_from_snapshot(json.loads(json.dumps(merged)), game_map=gm, phase=Phase.AFPH,
                                       units_near_fires=True)
    assert live.position == fresh.position and live.kinds == fresh.kinds and live.stacks == fresh.stacks
    assert set(live.units) == set(fresh.units)
    return fresh


def test_delta_snapshots_merged_read_as_the_whole_snapshot_read_afresh_b25(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces added, moved and removed between presses, sent as deltas and merged (the unchanged pieces the very
    dicts of the last read): the Position, its fire and Level counters and stacks, and the batch are those of the
    whole snapshot read from scratch."""
    from asl_vassal_bridge.bridge.client import SentPieces
    from asl_vassal_bridge.core.dice import CallbackDice
    from asl_vassal_bridge.core.fire import end_of_afph

    squads = [piece(f"s{i}", "4-6-7 1sq", "11467", f"{c}{r}") for i, (c, r) in enumerate(
        (c, r) for c in "ABCDE" for r in range(1, 5))]
    base = [piece("f1", "Flame", "192", "C2"), piece("b1", "Blaze", "5713", "D2"), *squads]
    kept = SentPieces.merge(None, "[]", {"generation": 1, "pieces": base})
    gm = position_from_snapshot(snapshot(list(kept.pieces.values())), phase=Phase.AFPH).position.map
    deltas = [
        {"pieces": [piece("f2", "Flame", "192", "D3")], "removed": []},  # a Flame placed
        {"pieces": [dict(piece("f1", "Flame", "192", "E3"), rev="r-f1-2")], "removed": ["s3"]},  # moved; removed
        {"pieces": [piece("b2", "Blaze", "5713", "C3"), dict(squads[3], location="C3", x=100 * ord("C"), y=300)],
         "removed": ["f2"]},  # a squad back, into a Blaze's stack
    ]
    for i, d in enumerate(deltas, start=2):
        kept = SentPieces.merge(kept, "[]", {"generation": i, "since": i - 1, **d})
        merged = snapshot(list(kept.pieces.values()))
        live = position_from_snapshot(merged, game_map=gm, phase=Phase.AFPH, units_near_fires=True)
        fresh = _reads_as_afresh(live, merged, gm, monkeypatch)
        batches = []
        for game in (live, fresh):
            new, _report = end_of_afph(game.position, CallbackDice(lambda _p, n: [3] * n))
            batches.append(batch_for(game, new, phase_key="PT1 AFPh", session=1, roll_texts=[]))
        assert batches[0] == batches[1]


def test_deltas_that_change_pieces_in_place_read_only_those_and_as_a_fresh_read_does_b25(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The usual later press: the same pieces in the same order, a few of them changed (moved, flipped into another
    counter, or sent again unchanged): only those are read again, and the Position, its fire counters and stacks are
    those of the whole snapshot read from scratch."""
    from asl_vassal_bridge.bridge import position as bridge_position
    from asl_vassal_bridge.bridge.client import SentPieces

    monkeypatch.setattr(bridge_position, "_SEEN", bridge_position._Seen())
    squads = [piece(f"s{i}", "4-6-7 1sq", "11467", f"{c}{r}") for i, (c, r) in enumerate(
        (c, r) for c in "ABCDE" for r in range(1, 5))]
    base = [piece("f1", "Flame", "192", "C2"), piece("b1", "Blaze", "5713", "D2"), *squads]
    kept = SentPieces.merge(None, "[]", {"generation": 1, "pieces": base})
    gm = position_from_snapshot(snapshot(list(kept.pieces.values())), phase=Phase.AFPH).position.map
    position_from_snapshot(snapshot(list(kept.pieces.values())), game_map=gm, phase=Phase.AFPH,
                           units_near_fires=True)
    deltas = [  # (what VASSAL sends, how many pieces are read again)
        ([dict(piece("f1", "Flame", "192", "E3"), rev="r-f1-2")], 1),  # a Flame moved
        ([dict(piece("s5", "Flame", "192", "B2"), rev="r-s5-2")], 1),  # a unit's place taken by a Flame counter
        ([dict(piece("b1", "Blaze", "5713", "D2"))], 0),  # sent again, unchanged: a new dict, the same facts
        ([], 0),
    ]
    for i, (d, read) in enumerate(deltas, start=2):
        kept = SentPieces.merge(kept, "[]", {"generation": i, "since": i - 1, "pieces": d, "removed": []})
        merged = snapshot(list(kept.pieces.values()))
        live = position_from_snapshot(merged, game_map=gm, phase=Phase.AFPH, units_near_fires=True)
        assert bridge_position._SEEN.read == read
        _reads_as_afresh(live, merged, gm, monkeypatch)
    assert sorted(f.location.name for f in live.position.flames()) == ["B2", "E3"]


def test_the_same_stacks_listed_in_another_order_keep_their_units_in_a_fresh_reads_order_b25_4(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An Undo puts a removed piece back at the end of VASSAL's list: the units are not read again, and come in
    the order a fresh read of that list gives (the kept Unit objects themselves)."""
    from asl_vassal_bridge.bridge import position as bridge_position

    monkeypatch.setattr(bridge_position, "_SEEN", bridge_position._Seen())
    squads = [piece(f"s{i}", "4-6-7 1sq", "11467", h) for i, h in enumerate(("C3", "D2", "D3", "C2"))]
    pieces = [piece("f1", "Flame", "192", "C2"), *squads]
    gm = position_from_snapshot(snapshot(pieces), phase=Phase.AFPH).position.map
    first = position_from_snapshot(snapshot(pieces), game_map=gm, phase=Phase.AFPH, units_near_fires=True)
    again = [pieces[0], *squads[1:], squads[0]]  # s0 back at the end
    calls = []
    real = bridge_position.read_units
    monkeypatch.setattr(bridge_position, "read_units", lambda *a, **k: calls.append(1) or real(*a, **k))
    live = position_from_snapshot(snapshot(again), game_map=gm, phase=Phase.AFPH, units_near_fires=True)
    assert not calls  # kept, not read again
    monkeypatch.setattr(bridge_position, "_SEEN", bridge_position._Seen())
    fresh = position_from_snapshot(snapshot(again), game_map=gm, phase=Phase.AFPH, units_near_fires=True)
    assert calls
    assert [u.id for u in live.position.units] == [u.id for u in fresh.position.units]
    assert {u.id for u in live.position.units} == {u.id for u in first.position.units} == {"s0", "s1", "s3"}
    assert live.position == fresh.position


def test_fire_finder_lists_each_fire_its_level_and_where_it_may_spread_b25_6() -> None:
    from asl_vassal_bridge.bridge.report import finder_lines
    from asl_vassal_bridge.core.fire import pending_rolls

    pos = position_from_snapshot(snapshot([piece("f1", "Flame", "192", "C2"), piece("b1", "Blaze", "5713", "D2")]),
                                 phase=Phase.AFPH).position
    lines = finder_lines(pos)
    assert lines[0] == "- ASL fire bridge: Fire finder: 2 fires on the map (B25):"
    blaze = next(ln for ln in lines if "Blaze in D2 (level 0, Woods)" in ln)
    d2 = Location(pos.map.parse_hex("D2"))
    targets = sorted(pos.loc_name(r.location) for r in pending_rolls(pos) if r.source == d2)
    assert targets and all(f"{t} " in blaze.split("may spread to", 1)[1] for t in targets)
    assert "B25.6" in blaze
    assert "Flame in C2 (level 0, Woods)" in lines[1] and "spreads nowhere now" in lines[1]
    assert finder_lines(position_from_snapshot(snapshot([]), phase=Phase.AFPH).position) == [
        "- ASL fire bridge: Fire finder: no Flame, Blaze or Burning Wreck on the map"]


def test_attack_dialog_answers_make_the_declaration_or_one_clear_line_a22() -> None:
    from asl_vassal_bridge.bridge.attack_button import form_spec, request_from_answers

    spec = json.loads(form_spec("sq-1"))
    assert next(f for f in spec["fields"] if f["key"] == "firer")["value"] == "sq-1"
    r = request_from_answers({"weapon": "FT", "firer": "", "target": "F4", "phase": "DFPh", "leader": "-1",
                              "original_ift_result": "K/1", "basic_tk": "7", "predesignated": True})
    assert (r.weapon, r.firer, r.phase, r.original_ift_result) == ("ft", None, Phase.DFPH, "K/1")
    assert dict(r.options) == {"leader_drm": -1, "basic_tk": 7, "predesignated": True}
    with pytest.raises(BadInput, match="target is empty"):
        request_from_answers({"weapon": "MOL", "target": " "})
    with pytest.raises(BadInput, match="not a whole number"):
        request_from_answers({"weapon": "MOL", "target": "E3", "leader": "x"})
    with pytest.raises(BadInput, match="FT option"):
        request_from_answers({"weapon": "MOL", "target": "E3", "original_ift_result": "K/1"})


def test_python_collects_its_garbage_between_two_presses_not_in_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full cyclic collection (20–30 ms over a 3,000-piece game's kept pieces and terrain) is done a moment after
    a press, never while one runs; cyclic garbage left by a press is gone after it."""
    import threading

    from asl_vassal_bridge.bridge.client import _Collector, _Listener

    monkeypatch.setattr(_Collector, "DELAY", 0.01)
    started, release = threading.Event(), threading.Event()
    freed = threading.Event()

    class Cycle:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            freed.set()

    def press(action: str) -> str:
        if action == "slow":
            started.set()
            release.wait(5)
        Cycle()  # unreachable at once, but only a cyclic collection frees it
        return f"done {action}"

    listener = _Listener(press)
    try:
        t = threading.Thread(target=listener.onButton, args=("slow",))
        t.start()
        assert started.wait(5)
        listener.collector.collect()  # a collection due while a press runs waits for it to end
        assert listener.collector.collections == 0
        release.set()
        t.join(5)
        deadline = time.time() + 5
        while listener.collector.collections == 0 and time.time() < deadline:
            time.sleep(0.01)
        assert listener.collector.collections == 1  # once, a moment after the press
        assert freed.wait(1)  # the press's cyclic garbage collected
        assert listener.onButton("again") == "done again"
        deadline = time.time() + 5
        while listener.collector.collections == 1 and time.time() < deadline:
            time.sleep(0.01)
        assert listener.collector.collections == 2
    finally:
        release.set()


def test_reading_the_game_at_connect_never_fails_the_bridge_and_says_why_not() -> None:
    """phases.prepare before a game is open, or when VASSAL refuses, returns one line for the log (the first press
    then reads the game itself); a press waits for a prepare that runs."""
    from asl_vassal_bridge.bridge import phases
    from asl_vassal_bridge.bridge.client import BridgeRefused

    class NotStarted:
        module_path = None

        def snapshot(self, **_kw: Any) -> dict[str, Any]:
            return {"game": {"started": False}, "maps": [], "pieces": []}

    class Refusing(NotStarted):
        def snapshot(self, **_kw: Any) -> dict[str, Any]:
            raise BridgeRefused("VASSAL is loading a game")

    assert phases.prepare(NotStarted()) == "no game is open yet: the first press reads the game"  # type: ignore[arg-type]
    line = phases.prepare(Refusing())  # type: ignore[arg-type]
    assert line == ("the game was not read ahead of the first press (VASSAL is loading a game); the first press "
                    "reads it")
    assert phases._PREPARED.is_set()
