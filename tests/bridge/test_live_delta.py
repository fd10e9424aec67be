"""The snapshot a press reads, sent as what changed since the last press (real VASSAL engine, Xvfb).

VASSAL sends the pieces added, changed or removed since the generation this client has; the client merges them into
the pieces it kept.  Whatever happened in between (a batch, an Undo, pieces hidden), the merged snapshot is the
whole one, piece for piece and in VASSAL's order; a generation VASSAL did not send gets every piece again.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.phases import run_phase
from asl_vassal_bridge.bridge.position import LAYERS_FOR
from asl_vassal_bridge.core.position import Phase
from tests.support import vassal_harness as vh

from .conftest import started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

SELECTION = json.dumps(sorted(LAYERS_FOR))


@pytest.fixture(scope="module")
def dora(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    with started_player("dora", module_with_extension, support_jar, xvfb.display, engine_dir / "delta",
                        stacks=True) as (player, client):
        client.jvm.aslbridgetest.TestHooks.seedDice(20261126)
        yield player, client


def _raw(client: BridgeClient, since: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress(bytes(client.api.snapshotSinceGz(False, SELECTION, None,
                                                                                        since))))
    return data


def _whole(client: BridgeClient) -> list[dict[str, Any]]:
    return list(client.snapshot(with_terrain=False, layers_for=LAYERS_FOR)["pieces"])


def _merged(client: BridgeClient) -> list[dict[str, Any]]:
    return list(client.snapshot(with_terrain=False, layers_for=LAYERS_FOR, delta=True)["pieces"])


def test_a_later_snapshot_sends_only_what_changed_and_merges_to_the_whole_one(dora: Any) -> None:
    _, client = dora
    first = _raw(client, -1)
    assert "since" not in first and len(first["pieces"]) == len(_whole(client))
    same = _raw(client, first["generation"])
    assert same["since"] == first["generation"] and same["pieces"] == [] and same["removed"] == []
    assert same["generation"] > first["generation"]
    # a generation VASSAL did not send last (another client, a restarted bridge): every piece
    again = _raw(client, first["generation"])
    assert "since" not in again and len(again["pieces"]) == len(first["pieces"])


def test_an_upkeep_and_its_undo_merge_to_the_whole_snapshot_b25(dora: Any) -> None:
    _, client = dora
    assert _merged(client) == _whole(client)
    res = run_phase(client, Phase.AFPH)  # reads a delta (nothing changed), then applies its batch
    assert res.applied is not None and (res.applied["placed"] or res.applied["removed"])
    assert client._sent is not None
    read = dict(client._sent.pieces)
    after = _merged(client)
    assert after == _whole(client)
    assert {p["id"] for p in after} != set(read)
    # merged, not sent again: the pieces the batch left alone are the very dicts read before
    unchanged = [p for p in after if read.get(p["id"]) == p]
    assert len(unchanged) > len(after) // 2 and all(read[p["id"]] is p for p in unchanged)
    client.jvm.aslbridgetest.TestHooks.undo()
    undone = _merged(client)
    assert undone == _whole(client)
    assert sorted(p["id"] for p in undone) == sorted(read)


def test_hidden_and_concealed_pieces_never_leave_vassal_in_a_delta(dora: Any) -> None:
    _, client = dora
    first = _raw(client, -1)
    ids = {p["id"] for p in first["pieces"]}
    assert "hidden-1" not in ids and "masked-1" not in ids
    run_phase(client, Phase.AFPH)
    assert client._sent is not None
    deltas = [_raw(client, client._sent.generation)]  # the batch's changes
    client.jvm.aslbridgetest.TestHooks.undo()
    deltas.append(_raw(client, deltas[0]["generation"]))  # the Undo's
    for delta in deltas:
        assert "since" in delta and (delta["pieces"] or delta["removed"])
        shown = {p["id"] for p in delta["pieces"]} | set(delta["removed"]) | set(delta.get("order") or ())
        assert "hidden-1" not in shown and "masked-1" not in shown
        assert all(p["name"] not in ("Hidden Squad", "Concealed Squad") for p in delta["pieces"])


def _a_bridge_just_started(client: BridgeClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's side as a bridge just started finds it: no piece, clock or terrain read, no snapshot kept."""
    from asl_vassal_bridge.bridge import clock as bridge_clock
    from asl_vassal_bridge.bridge import position as bridge_position
    from asl_vassal_bridge.bridge import snapshot as bridge_snapshot

    monkeypatch.setattr(bridge_position, "_SEEN", bridge_position._Seen())
    monkeypatch.setattr(bridge_clock, "_READ", [{}, [], set()])
    monkeypatch.setattr(bridge_snapshot, "_TERRAIN", {})
    monkeypatch.setattr(client, "_sent", None)


def _first_press_reads_only_what_changed(client: BridgeClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """An upkeep gets a 0-piece delta and the terrain as ``same`` from VASSAL and reads no piece again; undone."""
    from asl_vassal_bridge.bridge import position as bridge_position

    sent: list[dict[str, Any]] = []
    snapshot = client.snapshot

    def recording(*args: Any, **kw: Any) -> dict[str, Any]:
        sent.append(snap := snapshot(*args, **kw))
        return snap

    monkeypatch.setattr(client, "snapshot", recording)
    res = run_phase(client, Phase.AFPH)
    assert res.applied is not None
    assert sent[0]["delta"] == {"pieces": 0, "removed": 0}  # VASSAL sent what changed since: nothing
    assert all((m.get("terrain") or {}).get("same") for m in sent[0]["maps"] if m.get("terrain"))
    assert bridge_position._SEEN.read == 0  # no piece read again
    client.jvm.aslbridgetest.TestHooks.undo()


def test_the_game_read_as_the_bridge_connects_leaves_the_first_press_only_what_changed_b25(
        dora: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``asl-fire bridge`` reads the game once when it connects (phases.prepare): the first press then finds the
    terrain parsed and every piece read, gets a delta from VASSAL and reads no piece again, as a later press."""
    from asl_vassal_bridge.bridge import position as bridge_position
    from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
    from asl_vassal_bridge.bridge.phases import prepare

    _, client = dora
    _a_bridge_just_started(client, monkeypatch)
    line = prepare(client)
    assert line.startswith("read the game ahead of the first press: ") and " pieces, " in line, line
    assert client._sent is not None and bridge_snapshot.known_terrain() is not None
    assert bridge_position._SEEN.read == len(client._sent.pieces)
    _first_press_reads_only_what_changed(client, monkeypatch)


def test_a_game_opened_after_the_bridge_connected_is_read_then_not_at_the_first_press_b25(
        dora: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The bridge often connects before the players open their game: when VASSAL opens one, the extension tells
    Python (``game-opened``), which reads it then (phases.prepare); the first press reads only what changed."""
    import time

    from asl_vassal_bridge.bridge import position as bridge_position
    from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
    from asl_vassal_bridge.bridge.phases import handle_button

    _, client = dora
    hooks = client.jvm.aslbridgetest.TestHooks
    saved = tmp_path / "game.txt"
    hooks.saveGame(str(saved))
    _a_bridge_just_started(client, monkeypatch)
    client.listen(lambda action: handle_button(client, action))
    try:
        hooks.loadGame(str(saved))  # the game closed, then opened again, as File > Open does
        end = time.time() + 30
        while (bridge_snapshot.known_terrain() is None or client._sent is None) and time.time() < end:
            time.sleep(0.1)
        assert bridge_snapshot.known_terrain() is not None and client._sent is not None  # read as it opened
        assert bridge_position._SEEN.read == len(client._sent.pieces)
        _first_press_reads_only_what_changed(client, monkeypatch)
    finally:
        client.api.clearListener()


def test_the_benchs_game_in_progress_leaves_the_game_as_it_was(dora: Any) -> None:
    """``TestHooks.play`` (bench/bench_bridge.py's game in progress) places, reports and deletes or undoes counters
    through VASSAL's own code: the pieces after it are the ones before, piece for piece, and each move is in the
    chat."""
    _, client = dora
    before = _whole(client)
    chat = str(client.jvm.aslbridgetest.TestHooks.chatText())
    lines = client.jvm.aslbridgetest.TestHooks.play(8, 7)
    assert lines == 8 + 6  # each placed counter a line; the six deleted (not undone) another
    assert _whole(client) == before
    added = str(client.jvm.aslbridgetest.TestHooks.chatText())[len(chat):].splitlines()
    assert sum(" moves offboard -> " in x and not x.startswith("* UNDO: ") for x in added) == 8
    assert sum(x.endswith(" deleted") for x in added) == 6
    assert sum(x.startswith("* UNDO: ") for x in added) == 2  # VASSAL's Undo, as a player's
