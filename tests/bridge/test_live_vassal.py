"""End to end against a real VASSAL engine (3.6 jar, Debian libraries, Xvfb) with the bridge extension.

The test module is a generated hex-grid board plus VASL's Flame, Blaze, EC,
Wind Dir, Wind and Gusts slots (VASL 6.5's, built by
tests/support/vasl_counters.py).
Its map class is a stand-in with VASL's class and method names
(tests/support/java: ``ASLMap.getVASLMap()`` …), so the extension's
VASL-terrain path (reached by reflection) runs for real; VASL's own Java code
is not used here (tests/bridge/test_real_vasl.py runs it where a player has it).
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient, BridgeRefused, ConnectionInfo, NotConnected, connect
from asl_vassal_bridge.bridge.convert import position_from_snapshot
from asl_vassal_bridge.bridge.phases import run_phase
from asl_vassal_bridge.core.environment import EC, WindForce
from asl_vassal_bridge.core.position import Phase
from asl_vassal_bridge.vasl.setup import VaslSetup
from tests.conftest import missing
from tests.support import vassal_harness as vh

from .conftest import started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]


@pytest.fixture(scope="module")
def alice(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    with started_player("alice", module_with_extension, support_jar, xvfb.display, engine_dir / "single") as (
            player, client):
        client.jvm.aslbridgetest.TestHooks.seedDice(20261122)
        yield player, client


def _fires(snap: dict[str, Any]) -> Counter[tuple[str, str]]:
    return Counter((p["name"], p["location"]) for p in snap["pieces"] if p["name"] in ("Flame", "Blaze"))


def _chat(client: BridgeClient) -> str:
    return str(client.jvm.aslbridgetest.TestHooks.chatText())


def test_snapshot_reads_fires_ec_and_wind_b25(alice: Any) -> None:
    _, client = alice
    snap = client.snapshot()
    assert snap["module"]["name"] == vh.MODULE_NAME
    assert snap["maps"][0]["terrain"]["source"] == "VASL"  # the stand-in with VASL's method names
    assert snap["maps"][0]["terrain"]["absent"] == []  # VASL 6.7.x's stand-ins offer every member it reads
    assert [b["vasl"] for b in snap["maps"][0]["boards"]] == [None]  # VASSAL's plain Board: no VASL board part
    live = position_from_snapshot(snap, phase=Phase.AFPH)
    pos = live.position
    assert sorted(f.location.name for f in pos.flames()) == ["C2", "D3", "E2"]
    assert sorted(f.location.name for f in pos.blazes()) == ["D2", "H2"]
    assert pos.environment.ec is EC.MODERATE
    assert pos.environment.wind.force is WindForce.NO_WIND
    assert pos.map.info(pos.map.parse_hex("C2")).terrain.name == "WOODS"


def test_hidden_or_masked_piece_never_in_snapshot(alice: Any) -> None:
    _, client = alice
    hooks = client.jvm.aslbridgetest.TestHooks
    assert hooks.hasPiece("hidden-1") and hooks.hasPiece("masked-1")  # in the game, just not for this player
    text = json.dumps(client.snapshot())
    assert "hidden-1" not in text and "Hidden Squad" not in text
    assert "masked-1" not in text and "Concealed Squad" not in text


def test_afph_upkeep_with_vassal_dice_and_one_undo_reverts_it_b25_6(alice: Any) -> None:
    _, client = alice
    before = client.snapshot()
    chat_before = _chat(client)
    res = run_phase(client, Phase.AFPH)
    assert res.applied is not None and res.report is not None
    after = client.snapshot()
    # every roll is in the chat, as VASSAL's dice buttons report them, with its rule
    new_chat = _chat(client)[len(chat_before):]
    # one chat message: its lines after the extension's indent
    roll_lines = [ln.strip() for ln in re.split(r"\n|\s?\xa0\xa0\xa0", new_chat) if re.search(r": DR \d,\d", ln)]
    assert len(roll_lines) == res.applied["rolls"] == len(res.report.rolls()) > 0
    assert all(re.search(r" = \d+ [≥<] \d+$", ln) for ln in roll_lines)
    assert any("B25" in ln for ln in roll_lines)
    # the counters on the map are the rules' new Position
    expected = position_from_snapshot(after, phase=Phase.AFPH).position
    assert len(expected.fires) == len(position_from_snapshot(before, phase=Phase.AFPH).position.fires) \
        - res.applied["removed"] + len(res.applied["placed"])
    placed = set(res.applied["placed"])
    assert placed <= {p["id"] for p in after["pieces"]}
    assert after["game"]["processed"] == "PT1 AFPh"
    # ONE Undo reverts the whole upkeep
    client.jvm.aslbridgetest.TestHooks.undo()
    undone = client.snapshot()
    assert _fires(undone) == _fires(before)
    assert undone["game"]["processed"] == ""


def test_a_counter_placed_onto_a_piece_in_no_stack_is_taken_back_alone_by_undo_b25_15(alice: Any) -> None:
    """A second Flame counter placed in a Location whose Flame lies in no Stack (B25.15: several Flames may share a
    Location): VASSAL's merge would make a Stack of both, and its Undo would take the first Flame away too; the
    batch gives the new counter a Stack of its own, and one Undo removes only it."""
    _, client = alice
    before = client.snapshot()
    flame = next(p for p in before["pieces"] if p["name"] == "Flame" and p["location"] == "C2")
    res = client.apply({"place": [{"gpid": "192", "location": "C2", "board": "bd01", "map": "Main Map"}]})
    after = client.snapshot()
    assert _fires(after)[("Flame", "C2")] == 2
    placed = next(p for p in after["pieces"] if p["id"] == res["placed"][0])
    assert (placed["x"], placed["y"]) == (flame["x"], flame["y"])
    client.jvm.aslbridgetest.TestHooks.undo()
    assert _fires(client.snapshot()) == _fires(before)


def test_pressing_upkeep_twice_rolls_once_b25(alice: Any) -> None:
    _, client = alice
    first = run_phase(client, Phase.AFPH)
    assert first.applied is not None
    fires = _fires(client.snapshot())
    chat = _chat(client)
    second = run_phase(client, Phase.AFPH)
    assert second.applied is None and "already processed" in second.message
    assert _fires(client.snapshot()) == fires
    assert _chat(client) == chat
    # the extension itself refuses a batch for a processed phase
    with pytest.raises(BridgeRefused, match="already processed"):
        client.apply({"phase": "PT1 AFPh", "chat": ["x"]})
    client.jvm.aslbridgetest.TestHooks.undo()


def test_stale_snapshot_is_refused_and_nothing_changes(alice: Any) -> None:
    _, client = alice
    snap = client.snapshot()
    flame = next(p for p in snap["pieces"] if p["name"] == "Flame")
    with pytest.raises(BridgeRefused, match="changed since the snapshot"):
        client.apply({"expect": {flame["id"]: "00000000"}, "remove": [flame["id"]]})
    assert _fires(client.snapshot()) == _fires(snap)


def test_button_calls_python_and_says_when_python_is_absent(alice: Any) -> None:
    import time

    _, client = alice
    client.api.clearListener()
    client.press("upkeep")
    time.sleep(0.5)
    assert "Python is not connected" in _chat(client)
    calls: list[str] = []

    def heard(action: str) -> str:
        calls.append(action)
        return "heard " + action

    client.listen(heard)
    client.press("odds")
    end = time.time() + 10
    while not calls and time.time() < end:
        time.sleep(0.05)
    assert calls == ["odds"]
    client.api.clearListener()


def test_wrong_or_missing_token_is_refused(alice: Any) -> None:
    player, client = alice
    port = client.info.port
    with pytest.raises(NotConnected):
        BridgeClient(ConnectionInfo("127.0.0.1", port, "not-the-token"), timeout=5)
    with pytest.raises(NotConnected):
        BridgeClient(ConnectionInfo("127.0.0.1", port, ""), timeout=5)
    assert player.connection_file.stat().st_mode & 0o077 == 0


def test_gateway_listens_on_loopback_only(alice: Any) -> None:
    player, client = alice
    out = subprocess.run(["ss", "-ltnp"], capture_output=True, text=True).stdout
    mine = [ln for ln in out.splitlines() if f"pid={player.proc.pid}," in ln]
    assert mine, out
    for ln in mine:
        local = ln.split()[3]
        assert local.startswith(("127.0.0.1:", "[::ffff:127.0.0.1]:", "[::1]:")), ln
    # and it does not answer on another address of this machine
    host_ip = socket.gethostbyname(socket.gethostname())
    if not host_ip.startswith("127."):
        with socket.socket() as s:
            s.settimeout(1)
            assert s.connect_ex((host_ip, client.info.port)) != 0


def test_terrain_fallback_reads_the_real_board_archive_b25_1(alice: Any) -> None:
    _, client = alice
    boards = vh.SHARED_VASL / "boards"
    if not (boards / "bd01").is_file():
        missing("data", f"{boards / 'bd01'} does not exist: the real VASL board archive is needed")
    snap = client.snapshot(with_terrain=False)  # as without VASL's Java terrain model
    assert all(m["terrain"] is None for m in snap["maps"])
    pos = position_from_snapshot(snap, phase=Phase.AFPH, vasl=VaslSetup(None, boards)).position
    assert len(pos.map.hexes) > 300  # the whole of board 1, from its LOSData
    assert sorted(f.location.name for f in pos.flames()) == ["C2", "D3", "E2"]


def _readme_greeting() -> str:
    """The README's quote of the chat line ``asl-fire bridge`` greets with, up to its ``…``."""
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8").split())
    m = re.search(r'[Tt]he chat says "([^"…]+) …\)"', readme)
    assert m, "README: the quoted chat greeting of `asl-fire bridge` is gone"
    return m.group(1)


def test_asl_fire_bridge_command_serves_the_upkeep_button_b25(alice: Any) -> None:
    import os
    import sys
    import time

    player, client = alice
    env = dict(os.environ, PYTHONPATH=str(vh.REPO))
    proc = subprocess.Popen([sys.executable, "-m", "asl_vassal_bridge", "bridge", "--connection-file",
                             str(player.connection_file)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or ()), daemon=True)
    reader.start()
    try:
        end = time.time() + 30
        while not client.api.hasListener() and time.time() < end:
            time.sleep(0.1)
        assert client.api.hasListener()
        before = client.status()["processed"]
        client.press("upkeep")
        end = time.time() + 30
        while client.status()["processed"] == before and time.time() < end:
            time.sleep(0.1)
        assert client.status()["processed"] == "PT1 AFPh"
        assert _readme_greeting() in " ".join(_chat(client).split())
        end = time.time() + 30  # VASSAL shows the change before the bridge logs it: wait for the log line
        while not any("PT1 AFPh" in ln for ln in lines) and time.time() < end:
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        reader.join(timeout=10)
    out = "".join(lines)
    assert "button: upkeep" in out and "PT1 AFPh" in out  # plain logging of what it did
    client.jvm.aslbridgetest.TestHooks.undo()


def test_outside_a_game_changes_are_refused_and_the_gateway_stops_with_vassal(
        module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> None:
    work = engine_dir / "stop"
    work.mkdir(exist_ok=True)
    player = vh.VassalPlayer("carl", module_with_extension, None, support_jar, xvfb.display, work, None)
    try:
        info = json.loads(player.wait_connection_file().read_text())
        with connect(player.connection_file) as client:
            assert client.status()["started"] is False
            with pytest.raises(BridgeRefused, match="no game is open"):
                client.apply({"chat": ["x"]})
            with pytest.raises(BridgeRefused, match="no game is open"):
                run_phase(client, Phase.AFPH)
    finally:
        player.stop()
    assert not player.connection_file.exists()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", int(info["port"]))) != 0


def test_wind_change_in_the_rph_rolls_with_vassal_dice_b25_65(alice: Any) -> None:
    _, client = alice
    chat_before = _chat(client)
    res = run_phase(client, Phase.RPH)
    assert res.applied is not None and res.report is not None
    assert client.status()["processed"] == "PT1 RPh"
    new_chat = _chat(client)[len(chat_before):]
    assert "Wind Change" in new_chat and "B25.65" in new_chat
    assert res.applied["rolls"] >= 1
    client.jvm.aslbridgetest.TestHooks.undo()
    assert client.status()["processed"] == ""


def test_odds_button_lists_pending_fire_rolls_locally_b25_6(alice: Any) -> None:
    from asl_vassal_bridge.bridge.phases import handle_button

    _, client = alice
    before = client.snapshot()
    assert handle_button(client, "odds") == ""
    import time

    end = time.time() + 5
    while "fire rolls pending" not in _chat(client) and time.time() < end:
        time.sleep(0.1)
    chat = _chat(client)
    assert "fire rolls pending" in chat and "Spreading Fire" in chat and "%" in chat
    assert _fires(client.snapshot()) == _fires(before)


def test_malformed_or_impossible_batches_are_refused_and_change_nothing(alice: Any) -> None:
    _, client = alice
    before = client.snapshot()
    assert "not JSON" in json.loads(str(client.api.apply("{not json")))["error"]
    with pytest.raises(BridgeRefused, match="no counter with gpid"):
        client.apply({"place": [{"gpid": "no-such-gpid", "location": "C3"}]})
    with pytest.raises(BridgeRefused, match="not on any board"):
        client.apply({"place": [{"gpid": "192", "location": "ZZ99"}]})
    with pytest.raises(BridgeRefused, match="explains 1 rolls but 0"):
        client.apply({"rolls": [{"text": "a roll that was never made"}]})
    after = client.snapshot()
    assert _fires(after) == _fires(before) and len(after["pieces"]) == len(before["pieces"])


def _press_and_wait(client: BridgeClient, button: str, until: str, timeout: float = 30.0) -> str:
    """Click the toolbar button as a player does, with the bridge answering; the chat lines it added."""
    import time

    from asl_vassal_bridge.bridge.phases import handle_button

    before = _chat(client)
    client.listen(lambda action: handle_button(client, action))
    try:
        assert client.jvm.aslbridgetest.TestHooks.clickToolbar(button)
        end = time.time() + timeout
        while until not in _chat(client)[len(before):] and time.time() < end:
            time.sleep(0.1)
        time.sleep(0.3)  # the listing's last lines
    finally:
        client.api.clearListener()
    return _chat(client)[len(before):]


def test_fire_finder_button_lists_every_fire_and_where_it_may_spread_b25_6(alice: Any) -> None:
    from asl_vassal_bridge.core.fire import pending_rolls

    _, client = alice
    pos = position_from_snapshot(client.snapshot(), phase=Phase.AFPH).position
    new = _press_and_wait(client, "aslfire-finder", "Fire finder")
    assert "Fire finder: 5 fires on the map (B25)" in new, new
    lines = [ln for ln in new.splitlines() if re.match(r"- (Flame|Blaze) in ", ln.strip())]
    listed = {re.search(r"(Flame|Blaze) in (\w+) \(level 0, ", ln).groups() for ln in lines}  # type: ignore[union-attr]
    assert listed == {("Flame", "C2"), ("Flame", "D3"), ("Flame", "E2"), ("Blaze", "D2"), ("Blaze", "H2")}
    # each spread the Fire odds would roll is named under the fire it spreads from
    spreads = [r for r in pending_rolls(pos) if r.kind == "spread" and r.source is not None]
    assert spreads
    for r in spreads:
        src = pos.loc_name(r.source)  # type: ignore[arg-type]
        line = next(ln for ln in lines if f" in {src} (" in ln)
        assert f"{pos.loc_name(r.location)} " in line.split("may spread to", 1)[1], line
    assert _fires(client.snapshot()) == _fires(client.snapshot())  # nothing placed, nothing rolled


def test_a_bridge_that_connects_after_another_closed_keeps_its_listener_through_javas_gc(alice: Any) -> None:
    """py4j names a Python's callback objects p0, p1… per Python: the bridge that closed had a p0 too. When VASSAL's
    garbage collector finalizes that first listener's proxy, nothing may reach the bridge connected now (with py4j's
    memory management on, the finalizer told the new Python to forget its own p0: its next press failed)."""
    _, client = alice
    first = BridgeClient(client.info)
    first.listen(lambda action: "first " + action)
    first.close()
    second = BridgeClient(client.info)
    calls: list[str] = []

    def heard(action: str) -> str:
        calls.append(action)
        return "heard " + action

    try:
        second.listen(heard)
        system = client.jvm.java.lang.System
        for _ in range(3):
            system.gc()
            system.runFinalization()
        second.press("odds")
        import time

        end = time.time() + 20
        while not calls and time.time() < end:
            time.sleep(0.05)
        assert calls == ["odds"]
        assert client.api.hasListener()
    finally:
        second.close()
