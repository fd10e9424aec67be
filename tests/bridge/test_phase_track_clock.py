"""The Clock from VASL's Phase Track on the map (else the bridge's own count), without a VASSAL engine.

The Phase Track is VASL 6.5's (tests/support/vasl_counters.py, checked against VASL's buildFile).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from asl_vassal_bridge.bridge.convert import LAYERS_FOR, game_clock, position_from_snapshot
from asl_vassal_bridge.bridge.phases import run_phase
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.position import Clock, Phase
from asl_vassal_bridge.vasl.traits import decode_traits
from tests.support.vasl_counters import phase_track_at

from .test_bridge_units import piece, snapshot


def track(pid: str, loc: str, *, turn: int, half: int, phase: int, basic: str = "Phase Track Allied 1st",
          gpid: str = "297") -> dict[str, Any]:
    """A Phase Track as the snapshot carries it: its Layer traits (type/state) and BasicPiece name apart."""
    type_text, state_text = phase_track_at(turn=turn, half=half, phase=phase)
    traits = decode_traits(type_text, state_text)
    layers = [{"type": t.type, "state": t.state} for t in traits if t.id == "emb2"]
    out = piece(pid, "Allied Phase Track Allied 1st- AFPh", gpid, loc, layers)
    out["basic_name"] = basic
    return out


def test_the_phase_track_is_sent_its_layers() -> None:
    assert {"297", "300", "3b5:10935", "3b5:10947", "Phase Track Axis 1st"} <= LAYERS_FOR


def test_without_a_phase_track_the_clock_is_the_bridges_count() -> None:
    live = position_from_snapshot(snapshot([piece("f1", "Flame", "192", "C2")], processed="PT3 RPh"),
                                  phase=Phase.AFPH)
    assert live.position.clock == Clock(2, 1, Phase.AFPH)
    assert "the bridge's own count" in live.clock_source and "PT3 RPh" in live.clock_source


def test_without_a_phase_track_the_wind_change_after_an_upkeep_is_the_next_player_turn_b25_65() -> None:
    """The RPh pressed after PT1's AFPh upkeep is Player Turn 2's (its key PT2 RPh): Turn 1.2, not 1.1."""
    snap = snapshot([piece("f1", "Flame", "192", "C2")], processed="PT1 AFPh")
    assert game_clock(snap, Phase.RPH)[0] == Clock(1, 2, Phase.RPH)
    assert game_clock(snap, Phase.AFPH)[0] == Clock(1, 1, Phase.AFPH)  # a repeat of PT1's AFPh: still PT1
    assert game_clock(snap, Phase.RTPH)[0] == Clock(1, 1, Phase.RTPH)


def test_the_phase_track_gives_turn_and_player_turn_b25_15() -> None:
    """Turn 3, the Axis (second) Player Turn, AFPh: Player Turn 6, whatever the bridge counted."""
    snap = snapshot([piece("f1", "Flame", "192", "C2"), piece("p1", "Pin", "5704", "C2"),
                     track("pt", "A4", turn=3, half=2, phase=5)], processed="PT1 AFPh")
    live = position_from_snapshot(snap, phase=Phase.AFPH)
    assert live.position.clock == Clock(3, 2, Phase.AFPH)
    assert [f.since for f in live.position.flames()] == [6]  # a Flame under a Pin appeared this Player Turn
    assert live.clock_source == ("clock: Turn 3.2 AFPh from VASL's Phase Track "
                                 "(Turn 3, Axis Player Turn (Allied moves first), AFPh)")


def test_a_track_at_another_phase_gives_the_phase_run_and_says_so() -> None:
    clock, found, line = game_clock(snapshot([track("pt", "A4", turn=2, half=1, phase=3)]), Phase.AFPH)
    assert clock == Clock(2, 1, Phase.AFPH) and found is not None and found.phase is Phase.MPH
    assert line.endswith("it shows the MPh, the bridge runs the AFPh")


def test_a_track_found_by_its_name_under_another_gpid() -> None:
    """A Phase Track VASL's Replace made (or another module version's slot) keeps its BasicPiece name."""
    clock, _t, _l = game_clock(snapshot([track("pt", "A4", turn=4, half=1, phase=1, gpid="299")]), Phase.RPH)
    assert clock == Clock(4, 1, Phase.RPH)


def test_tracks_that_agree_are_fine_tracks_that_disagree_are_refused() -> None:
    same = [track("pt1", "A4", turn=2, half=2, phase=5), track("pt2", "B4", turn=2, half=2, phase=5)]
    assert game_clock(snapshot(same), Phase.AFPH)[0] == Clock(2, 2, Phase.AFPH)
    other = [same[0], track("pt2", "B4", turn=3, half=1, phase=5)]
    with pytest.raises(BadInput, match=r"Phase Tracks on the maps disagree.*remove all but one"):
        game_clock(snapshot(other), Phase.AFPH)


def test_a_track_without_its_layers_is_refused_naming_what_is_missing() -> None:
    bad = track("pt", "A4", turn=2, half=2, phase=5)
    bad["layers"] = bad["layers"][:1]
    with pytest.raises(BadInput, match=r"piece pt .*no PhaseName, TurnName layers"):
        position_from_snapshot(snapshot([bad]), phase=Phase.AFPH)


class _Client:
    """Just what run_phase asks of VASSAL: a snapshot, dice and apply (a game with no fires rolls none)."""

    def __init__(self, pieces: Iterable[dict[str, Any]], processed: str) -> None:
        self.snap = snapshot(list(pieces), processed=processed)
        self.applied: list[dict[str, Any]] = []

    def snapshot(self, **_kw: Any) -> dict[str, Any]:
        return self.snap

    def new_roll_session(self) -> int:
        return 1

    def roll(self, session: int, purpose: str, count: int) -> list[int]:
        raise AssertionError(f"no roll expected ({purpose})")

    def apply(self, batch: dict[str, Any]) -> dict[str, Any]:
        self.applied.append(batch)
        return {"removed": 0, "placed": [], "changed": 0}


def test_a_track_turn_ahead_of_the_bridges_count_does_not_block_the_upkeep() -> None:
    """The bridge counted PT1 AFPh (no Wind change pressed since); the Phase Track shows Turn 3.2 AFPh."""
    client = _Client([track("pt", "A4", turn=3, half=2, phase=5)], processed="PT1 AFPh")
    res = run_phase(client, Phase.AFPH)  # type: ignore[arg-type]
    assert res.phase_key == "PT6 AFPh" and res.report is not None
    assert res.report.title.endswith("Turn 3.2 AFPh")
    assert client.applied[0]["phase"] == "PT6 AFPh"


def test_the_same_phase_track_phase_twice_is_still_a_repeat_b25() -> None:
    client = _Client([track("pt", "A4", turn=3, half=2, phase=5)], processed="PT6 AFPh")
    res = run_phase(client, Phase.AFPH)  # type: ignore[arg-type]
    assert res.applied is None and "already processed" in res.message and not client.applied
