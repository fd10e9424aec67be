"""Two players through VASSAL's own node server on loopback (real engine, Xvfb).

Player B sees A's upkeep and A's Undo in a game room; in the server's Main
Room, where VASSAL does not forward game commands, the upkeep is refused and
nothing changes.
"""

from __future__ import annotations

import functools
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient, BridgeRefused, connect
from asl_vassal_bridge.bridge.phases import run_phase
from asl_vassal_bridge.core.position import Phase
from tests.support import vassal_harness as vh

from .conftest import launch, standard_pieces

pytestmark = [pytest.mark.vassal, pytest.mark.slow]
ROOM = "Fire Test Room"


def _fires(snap: dict[str, Any]) -> Counter[tuple[str, str]]:
    return Counter((p["name"], p["location"]) for p in snap["pieces"] if p["name"] in ("Flame", "Blaze"))


def _started(client: BridgeClient) -> bool:
    return bool(client.status().get("started"))


def _eventually(check: Callable[[], bool], timeout: float = 15.0) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if check():
            return True
        time.sleep(0.2)
    return check()


@pytest.fixture(scope="module")
def players(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb,
            engine_dir: Path) -> Iterator[tuple[BridgeClient, BridgeClient]]:
    work = engine_dir / "two"
    work.mkdir(exist_ok=True)
    server = vh.NodeServer(support_jar, work)
    a = launch("anna", module_with_extension, standard_pieces(), support_jar, xvfb.display, work)
    b = launch("bert", module_with_extension, standard_pieces(), support_jar, xvfb.display, work)
    clients: list[BridgeClient] = []
    try:
        for p in (a, b):
            p.wait_connection_file()
            c = connect(p.connection_file, timeout=120)
            clients.append(c)
            assert _eventually(functools.partial(_started, c), 30)
        for c in clients:
            assert c.jvm.aslbridgetest.TestHooks.connect("127.0.0.1", server.port, ROOM) == ROOM
        ca, cb = clients
        assert _eventually(lambda: _fires(ca.snapshot()) == _fires(cb.snapshot()))
        yield ca, cb
    finally:
        for c in clients:
            c.close()
        for p in (a, b):
            p.stop()
        server.stop()


def test_player_b_sees_a_upkeep_and_a_undo_b25(players: tuple[BridgeClient, BridgeClient]) -> None:
    ca, cb = players
    ca.jvm.aslbridgetest.TestHooks.seedDice(7)
    before = _fires(ca.snapshot())
    res = run_phase(ca, Phase.AFPH)
    assert res.applied is not None and res.applied["rolls"] > 0
    after_a = _fires(ca.snapshot())
    assert after_a != before or res.applied["removed"] == len(res.applied["placed"]) == 0
    assert _eventually(lambda: _fires(cb.snapshot()) == after_a)
    assert _eventually(lambda: cb.status()["processed"] == "PT1 AFPh")
    # B's chat shows A's press: its summary line first, then every roll with VASSAL's dice
    b_chat = str(cb.jvm.aslbridgetest.TestHooks.chatText())
    assert "ASL fire bridge, PT1 AFPh upkeep: " in b_chat and re.search(r": DR \d,\d", b_chat)
    ca.jvm.aslbridgetest.TestHooks.undo()
    assert _fires(ca.snapshot()) == before
    assert _eventually(lambda: _fires(cb.snapshot()) == before)


def test_main_room_upkeep_is_refused_and_nothing_changes(players: tuple[BridgeClient, BridgeClient]) -> None:
    ca, _ = players
    assert ca.jvm.aslbridgetest.TestHooks.joinRoom("Main Room") == "Main Room"
    try:
        before = ca.snapshot()
        with pytest.raises(BridgeRefused, match="Main Room"):
            run_phase(ca, Phase.AFPH)
        with pytest.raises(BridgeRefused, match="Main Room"):
            ca.apply({"chat": ["should not appear"]})
        after = ca.snapshot()
        assert _fires(after) == _fires(before)
        assert after["game"]["processed"] == before["game"]["processed"]
    finally:
        ca.jvm.aslbridgetest.TestHooks.joinRoom(ROOM)


def test_a_phase_prompt_is_shared_by_both_players_b25(players: tuple[BridgeClient, BridgeClient]) -> None:
    """The bridge's memory of the phases it prompted (the Phase Track passed without the button) is the game's: A's
    prompt reaches B's chat and B's game, so B's bridge does not prompt it again."""
    ca, cb = players
    line = "- ASL fire bridge: the Phase Track passed the AFPh (PT9 AFPh) without the Fire upkeep (AFPh)"
    assert ca.api.markPrompted("PT9 AFPh", line) is True
    assert ca.api.markPrompted("PT9 AFPh", line) is False
    assert _eventually(lambda: "PT9 AFPh" in cb.status()["prompted"])
    assert line in str(cb.jvm.aslbridgetest.TestHooks.chatText())
    assert cb.api.markPrompted("PT9 AFPh", "again") is False


def test_risk_layer_of_one_player_reaches_no_other_b25_6(players: tuple[BridgeClient, BridgeClient]) -> None:
    """The Fire risk layer is a player's own view: turning it on and off sends the other player nothing."""
    import json

    from asl_vassal_bridge.bridge.phases import handle_button

    ca, cb = players
    hb = cb.jvm.aslbridgetest.TestHooks
    ha = ca.jvm.aslbridgetest.TestHooks
    logged_b, chat_b, logged_a = hb.loggedCommands(), str(hb.chatText()), ha.loggedCommands()
    ca.listen(lambda action: handle_button(ca, action))
    try:
        assert ha.clickToolbar("aslfire-risk")
        assert _eventually(lambda: json.loads(str(ca.api.riskLayer()))["updates"] > 0, 60)
        assert json.loads(str(ca.api.riskLayer()))["shades"]
        assert ha.clickToolbar("aslfire-risk")
        assert _eventually(lambda: not json.loads(str(ca.api.riskLayer()))["on"])
    finally:
        ca.api.clearListener()
    time.sleep(1)  # anything sent would have arrived
    assert hb.loggedCommands() == logged_b and str(hb.chatText()) == chat_b
    assert ha.loggedCommands() == logged_a
    assert not json.loads(str(cb.api.riskLayer()))["on"]
