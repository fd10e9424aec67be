"""Phase-aware prompts through a real VASSAL engine: VASL's Phase Track (VASL 6.5's "Phase Track Allied 1st") moved
past the AFPh without the Fire upkeep prompts once (B25), never twice for one Player Turn, not after an upkeep; with
the preference on, the skipped buttons run by themselves.

The track is moved as a player's click moves it: one VASSAL command changing its layers (Undo reverts it).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.phases import handle_button, run_phase
from asl_vassal_bridge.bridge.prompts import PROMPTS, WATCHED, watch_phase_track
from asl_vassal_bridge.core.position import Phase
from asl_vassal_bridge.vasl.counters import embellishment_layers
from asl_vassal_bridge.vasl.traits import Trait, encode_sequence
from tests.support import vassal_harness as vh
from tests.support.vasl_counters import phase_track_at

from .conftest import standard_pieces, started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

AFPH_PROMPT = "passed the AFPh"
RPH_PROMPT = "passed the RPh"


@pytest.fixture(scope="module")
def quinn(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    type_text, state_text = phase_track_at(turn=2, half=1, phase=5)  # Turn 2, Allied Player Turn (PT3), AFPh
    pieces = [*standard_pieces(),
              vh.GamePiece("phase-track", "J5", type=encode_sequence([type_text], "/"), state=state_text)]
    with started_player("quinn", module_with_extension, support_jar, xvfb.display, engine_dir / "prompts",
                        pieces=pieces) as (player, client):
        client.jvm.aslbridgetest.TestHooks.seedDice(20261127)
        PROMPTS.told.clear()
        client.listen(lambda action: handle_button(client, action))
        watch_phase_track(client)
        time.sleep(1.0)  # the watch reads the track once before it tells changes
        yield player, client
        client.api.clearListener()


def _chat(client: BridgeClient) -> str:
    return str(client.jvm.aslbridgetest.TestHooks.chatText())


def _move_track(client: BridgeClient, *, half: int | None = None, phase: int, turn: int | None = None) -> None:
    """One command, as a player's click: the track's Player, PhaseName and TurnName layers set."""
    snap = client.snapshot(with_terrain=False, layers_for=WATCHED)
    piece = next(p for p in snap["pieces"] if p["id"] == "phase-track")
    traits = [Trait(str(t["type"]), str(t["state"])) for t in piece["layers"]]
    wanted = {"PhaseName": phase, "Player": half, "TurnName": turn}
    layers = [{"id": "phase-track", "index": i, "value": wanted[lay.name]}
              for i, lay in enumerate(embellishment_layers(traits))
              if wanted.get(lay.name) is not None and lay.value != wanted[lay.name]]
    client.apply({"expect": {"phase-track": piece["rev"]}, "layers": layers})


def _wait_for(client: BridgeClient, before: str, text: str, count: int = 1, timeout: float = 20.0) -> str:
    end = time.time() + timeout
    while _chat(client)[len(before):].count(text) < count and time.time() < end:
        time.sleep(0.1)
    return _chat(client)[len(before):]


def _settle(client: BridgeClient) -> str:
    """The chat once the watch has had time to tell Python of every change, and Python to answer."""
    time.sleep(2.0)
    return _chat(client)


def test_passing_the_afph_without_an_upkeep_prompts_once_b25(quinn: Any) -> None:
    _, client = quinn
    before = _chat(client)
    _move_track(client, phase=6)  # AFPh → RtPh, no upkeep pressed
    new = _wait_for(client, before, AFPH_PROMPT)
    assert new.count(AFPH_PROMPT) == 1, new
    line = next(ln for ln in new.splitlines() if AFPH_PROMPT in ln)
    assert "PT3 AFPh" in line and "Fire upkeep (AFPh)" in line and "B25" in line
    assert client.snapshot()["game"]["processed"] == ""  # nothing rolled
    # Undo of the track's move, then the same move again: never twice for one Player Turn
    client.jvm.aslbridgetest.TestHooks.undo()
    _settle(client)
    _move_track(client, phase=6)
    assert _settle(client)[len(before):].count(AFPH_PROMPT) == 1


def test_no_prompt_after_the_upkeep_was_pressed_b25(quinn: Any) -> None:
    _, client = quinn
    before = _chat(client)
    _move_track(client, half=2, phase=5)  # Turn 2, Axis Player Turn (PT4), AFPh: its RPh was passed
    new = _wait_for(client, before, RPH_PROMPT)
    assert "PT4 RPh" in new and "Wind change (RPh)" in new and "B25.65" in new
    res = run_phase(client, Phase.AFPH)
    assert res.phase_key == "PT4 AFPh" and res.applied is not None
    _move_track(client, half=2, phase=6)  # past the AFPh, after its upkeep
    assert AFPH_PROMPT not in _settle(client)[len(before):]


def test_with_the_preference_the_skipped_buttons_run_by_themselves_b25(quinn: Any) -> None:
    _, client = quinn
    client.jvm.aslbridgetest.TestHooks.setPref("aslfireAutoPhase", True)
    assert client.snapshot(with_terrain=False)["game"]["auto_phase"] is True
    before = _chat(client)
    _move_track(client, turn=3, half=1, phase=6)  # Turn 3, Allied (PT5), RtPh: its RPh and AFPh passed
    new = _wait_for(client, before, "run by itself", count=2, timeout=60)
    assert new.count("run by itself") == 2, new
    assert "PT5 RPh wind change: " in new and "PT5 AFPh upkeep: " in new  # the batches' own chat: both ran
    assert new.index("PT5 RPh wind change: ") < new.index("PT5 AFPh upkeep: ")  # in order
    assert client.snapshot()["game"]["processed"] == "PT5 AFPh"
    client.jvm.aslbridgetest.TestHooks.undo()  # the upkeep's command: the track stays past the AFPh
    assert _settle(client)[len(before):].count("run by itself") == 2  # never twice for one Player Turn
    client.jvm.aslbridgetest.TestHooks.setPref("aslfireAutoPhase", False)


def test_the_prompts_memory_is_the_games_bridge_restart_undo_save_and_load_b25(quinn: Any, tmp_path: Path) -> None:
    from asl_vassal_bridge.bridge.clock import phase_track

    _, client = quinn
    hooks = client.jvm.aslbridgetest.TestHooks
    before = _chat(client)
    _move_track(client, turn=3, half=2, phase=6)  # Turn 3, Axis (PT6), RtPh: its RPh and AFPh passed unpressed
    new = _wait_for(client, before, "(PT6 AFPh)")
    assert new.count("(PT6 RPh)") == 1 and new.count("(PT6 AFPh)") == 1, new
    assert {"PT6 RPh", "PT6 AFPh"} <= set(client.status()["prompted"])
    # the prompt is outside VASSAL's Undo: the player's next Undo takes back the track's move
    hooks.undo()
    track = phase_track(client.snapshot(with_terrain=False, layers_for=WATCHED))
    assert track is not None and track.clock.player_turn == 5
    _settle(client)
    PROMPTS.told.clear()  # as a restarted `asl-fire bridge`: nothing in this process's memory
    _move_track(client, turn=3, half=2, phase=6)
    assert _settle(client)[len(before):].count("(PT6 AFPh)") == 1  # the game remembers
    # saved and opened again: the game still remembers
    saved = tmp_path / "prompted.vsav"
    hooks.saveGame(str(saved))
    hooks.loadGame(str(saved))
    end = time.time() + 60
    while not (hooks.loaded() == "loaded" and client.status().get("started")) and time.time() < end:
        time.sleep(0.2)
    assert hooks.loaded() == "loaded"
    assert {"PT6 RPh", "PT6 AFPh"} <= set(client.status()["prompted"])
    time.sleep(1.0)  # the watch reads the loaded track once before it tells changes
    PROMPTS.told.clear()
    _move_track(client, turn=3, half=2, phase=1)  # back to PT6's RPh, then past its AFPh again
    _settle(client)
    _move_track(client, turn=3, half=2, phase=6)
    after = _settle(client)[len(before):]
    assert after.count("(PT6 AFPh)") == 1 and after.count("(PT6 RPh)") == 1, after
