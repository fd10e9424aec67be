"""VASL's Phase Track on the map of a real VASSAL engine gives the bridge's Clock (Turn 3, Axis Player Turn, AFPh).

The track is VASL 6.5's "Phase Track Allied 1st" (tests/support/vasl_counters.py); the bridge's own count
(no Wind change pressed) would say Player Turn 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.convert import LAYERS_FOR, known_terrain, position_from_snapshot
from asl_vassal_bridge.bridge.phases import handle_button, run_phase
from asl_vassal_bridge.core.position import Clock, Phase
from asl_vassal_bridge.vasl.traits import encode_sequence
from tests.support import vassal_harness as vh
from tests.support.vasl_counters import phase_track_at

from .conftest import standard_pieces, started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]


@pytest.fixture(scope="module")
def pia(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    type_text, state_text = phase_track_at(turn=3, half=2, phase=5)  # Turn 3, Axis (second) Player Turn, AFPh
    # the saved game's AddPiece command is "/"-separated: the type's own "/"s (image and palette paths) escaped
    pieces = [*standard_pieces(),
              vh.GamePiece("phase-track", "J5", type=encode_sequence([type_text], "/"), state=state_text)]
    with started_player("pia", module_with_extension, support_jar, xvfb.display, engine_dir / "phasetrack",
                        pieces=pieces) as (player, client):
        client.jvm.aslbridgetest.TestHooks.seedDice(20261126)
        yield player, client


def test_the_snapshot_carries_the_tracks_layers_and_gives_its_clock(pia: Any) -> None:
    _, client = pia
    snap = client.snapshot(with_terrain=True, layers_for=LAYERS_FOR, known_terrain=known_terrain())
    track = next(p for p in snap["pieces"] if p["id"] == "phase-track")
    assert track["basic_name"] == "Phase Track Allied 1st" and len(track["layers"]) == 4
    live = position_from_snapshot(snap, phase=Phase.AFPH)
    assert live.position.clock == Clock(3, 2, Phase.AFPH)
    assert "from VASL's Phase Track" in live.clock_source


def test_the_upkeep_runs_at_the_tracks_player_turn_once_b25(pia: Any) -> None:
    _, client = pia
    assert handle_button(client, "odds") == ""  # the odds read the same snapshot: no refusal
    res = run_phase(client, Phase.AFPH)
    assert res.phase_key == "PT6 AFPh" and res.applied is not None and res.report is not None
    assert res.report.title.endswith("Turn 3.2 AFPh")
    assert client.snapshot()["game"]["processed"] == "PT6 AFPh"
    assert "ASL fire bridge, PT6 AFPh upkeep: " in str(client.jvm.aslbridgetest.TestHooks.chatText())
    again = run_phase(client, Phase.AFPH)
    assert again.applied is None and "already processed" in again.message
