"""VASSAL's Swing thread is never held long for the bridge: VASL's terrain is read when the bridge connects, off the
Swing thread, in slices of it (``-Daslfire.sliceMs``, 40 ms by default; a slice reads at least one hex), and the
terrain read in a thousand slices is the one read in one.  Through the real VASSAL engine, the three-board map."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient
from tests.support import vassal_harness as vh

from .conftest import started_player
from .three_boards import BOARDS, fires

pytestmark = [pytest.mark.vassal, pytest.mark.slow]


def _terrain(client: BridgeClient) -> dict[str, Any]:
    terrain = dict(client.snapshot()["maps"][0]["terrain"])
    assert terrain["source"] == "VASL" and "error" not in terrain, terrain
    return terrain


def _read_at_connect(client: BridgeClient) -> dict[str, Any]:
    """The terrain the extension read when the listener was set (the bridge connecting), as a snapshot then gets."""
    client.listen(lambda _action: "")
    time.sleep(1)  # the read runs in the background; a snapshot meanwhile waits for it, never reads it twice
    return _terrain(client)


def test_the_terrain_read_in_slices_at_connect_is_the_one_read_whole(
        three_board_module: Path, support_jar: Path, xvfb: vh.Xvfb, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    got: dict[str, dict[str, Any]] = {}
    for name, slice_ms in (("sliced", "0"), ("whole", "600000")):
        monkeypatch.setenv("ASL_VASSAL_JVM_OPTS", f"-Daslfire.sliceMs={slice_ms}")
        with started_player(name, three_board_module, support_jar, xvfb.display, tmp_path / name, pieces=fires(),
                            boards=BOARDS) as (_, client):
            got[name] = _read_at_connect(client)
            again = _terrain(client)
            assert again == got[name]  # kept, not read again
    sliced, whole = got["sliced"], got["whole"]
    assert whole["slices"] == 1
    assert sliced["slices"] >= len(sliced["hexes"]) > 300  # one hex per slice: every hex resumed from the last
    for t in (sliced, whole):
        del t["read_ms"], t["slices"], t["key"]  # the key names VASL's model object, one per VASSAL
    assert sliced == whole


def test_a_snapshot_during_the_read_at_connect_waits_for_it_and_gets_it_whole(
        three_board_module: Path, support_jar: Path, xvfb: vh.Xvfb, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASL_VASSAL_JVM_OPTS", "-Daslfire.sliceMs=0")
    with started_player("eager", three_board_module, support_jar, xvfb.display, tmp_path / "eager", pieces=fires(),
                        boards=BOARDS) as (_, client):
        client.listen(lambda _action: "")
        first = _terrain(client)  # at once: the read at connect is still going, slice by slice
        assert first["slices"] >= len(first["hexes"]) > 300
        assert _terrain(client) == first
