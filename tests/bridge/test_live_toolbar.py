"""The bridge as a player meets it on VASSAL's toolbar and map (issue 33): one toolbar slot, a menu of the fire
actions with tooltips and icons, the connection state, the chat line when Python goes or comes back, and the
counters an upkeep placed or changed outlined on this player's map only.

A real VASSAL (3.6 engine jar, Xvfb) with the extension; a real ``asl-fire bridge`` process killed and restarted.
Screenshots of each step go to ``screenshots/toolbar/`` at the repository root (kept after the run).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.attacks import AttackRequest, run_attack
from asl_vassal_bridge.bridge.client import BridgeClient, connect
from asl_vassal_bridge.bridge.install import BUTTON_NAMES
from asl_vassal_bridge.bridge.phases import handle_button
from tests.support import vassal_harness as vh

from .conftest import launch, standard_pieces, started_player
from .test_live_attacks import attack_pieces

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

SHOTS = vh.REPO / "screenshots" / "toolbar"
ACTIONS = ("wind", "upkeep", "odds", "finder", "attack", "firestart", "hob", "rtph", "risk")
#: The outline's inner colour (ChangeMarks.INNER).
MARK_RGB = 0xFFE000
DISCONNECTED = "ASL fire bridge: Python disconnected"
BACK = "ASL fire bridge: Python is back"


@pytest.fixture(scope="module")
def tess(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    with started_player("tess", module_with_extension, support_jar, xvfb.display, engine_dir / "toolbar") as (
            player, client):
        client.jvm.aslbridgetest.TestHooks.seedDice(20261129)
        SHOTS.mkdir(parents=True, exist_ok=True)
        yield player, client


def _hooks(client: BridgeClient) -> Any:
    return client.jvm.aslbridgetest.TestHooks


def _chat(client: BridgeClient) -> str:
    return str(_hooks(client).chatText())


def _shot(client: BridgeClient, name: str) -> None:
    time.sleep(0.5)  # the last repaint on screen
    _hooks(client).screenshot(str(SHOTS / f"{name}.png"))


def _wait(what: Callable[[], bool], timeout: float = 30.0) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if what():
            return True
        time.sleep(0.1)
    return what()


def _toolbar(client: BridgeClient) -> tuple[list[list[str]], list[list[str]]]:
    """The extension's toolbar components and the items of their menus (name, text, tooltip, icon, enabled)."""
    slots: list[list[str]] = []
    items: list[list[str]] = []
    for line in str(_hooks(client).toolbarReport()).splitlines():
        (items if line.startswith("\t") else slots).append(line.strip("\t").split("\t"))
    return slots, items


def test_toolbar_tooltip_and_icon_on_every_fire_action_in_one_toolbar_slot(tess: Any) -> None:
    _, client = tess
    slots, items = _toolbar(client)
    assert len(slots) <= 2, slots
    assert [s[0] for s in slots] == ["aslfire-menu"]
    button = slots[0]
    assert button[1] in ("ASL fire", "ASL fire: no Python") and button[2] and button[3] == "16x16", button
    actions = {i[0]: i for i in items if i[0] != "aslfire-state"}
    assert list(actions) == [f"aslfire-{a}" for a in ACTIONS]
    for name, text, tooltip, icon, enabled in actions.values():
        assert text in BUTTON_NAMES and tooltip.strip() and icon == "16x16" and enabled == "enabled", (name, tooltip)
    assert len({i[2] for i in actions.values()}) == len(ACTIONS)  # a tooltip of its own each
    state = next(i for i in items if i[0] == "aslfire-state")
    assert state[4] == "disabled"  # a line saying the state, not an action
    assert _hooks(client).showToolbarMenu("aslfire-menu", True)
    _shot(client, "menu-open")
    assert _hooks(client).hoverToolbar("aslfire-upkeep")
    time.sleep(1.5)  # Swing's tooltip delay
    _shot(client, "menu-tooltip")
    assert _hooks(client).showToolbarMenu("aslfire-menu", False)


def test_toolbar_tooltip_says_connected_and_a_menu_item_runs_its_action(tess: Any) -> None:
    _, client = tess
    heard: list[str] = []
    client.listen(lambda action: heard.append(action) or "")
    try:
        assert _wait(lambda: bool(client.api.connectedShown()))
        slots, items = _toolbar(client)
        assert slots[0][1] == "ASL fire" and "Python connected" in slots[0][2]
        assert next(i for i in items if i[0] == "aslfire-state")[1] == "Python connected"
        _shot(client, "toolbar-connected")
        assert _hooks(client).clickToolbar("aslfire-finder")  # the menu item, as TestHooks clicks a button
        assert _wait(lambda: heard == ["finder"])
    finally:
        client.api.clearListener()
    assert _wait(lambda: not client.api.connectedShown())
    slots, _ = _toolbar(client)
    assert slots[0][1] == "ASL fire: no Python" and "Python not connected" in slots[0][2]
    _shot(client, "toolbar-not-connected")


def test_toolbar_tooltip_menu_folds_into_a_modules_own_toolbar_menu(tess: Any) -> None:
    """A module (or a player) that gathers toolbar buttons in a VASSAL ToolbarMenu can list "ASL fire" there: the
    fire actions become its submenu, and the toolbar slot is freed."""
    _, client = tess
    hooks = _hooks(client)
    try:
        entries = str(hooks.toolbarMenu("ASL fire")).splitlines()
        assert len(entries) == 1, entries
        sub = entries[0].split("\t")
        assert sub[0].startswith("ASL fire") and set(BUTTON_NAMES) <= set(sub[1:]), sub
        assert _toolbar(client)[0] == []  # the button itself is hidden: its actions are in the module's menu
    finally:
        hooks.toolbarMenu(None)
    assert [s[0] for s in _toolbar(client)[0]] == ["aslfire-menu"]


def _bridge_process(player: vh.VassalPlayer) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(vh.REPO))
    return subprocess.Popen([sys.executable, "-m", "asl_vassal_bridge", "bridge", "--connection-file",
                             str(player.connection_file)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True)


def _lines(client: BridgeClient, since: int, text: str) -> list[str]:
    return [ln for ln in _chat(client)[since:].splitlines() if text in ln]


def test_disconnect_line_when_the_bridge_is_killed_and_when_it_comes_back(tess: Any) -> None:
    player, client = tess
    proc = _bridge_process(player)
    try:
        assert _wait(lambda: bool(client.api.connectedShown()))
        start = len(_chat(client))
        proc.kill()  # no goodbye: VASSAL must notice by itself, with nobody pressing anything
        proc.wait(timeout=10)
        assert _wait(lambda: not client.api.connectedShown())
        assert _wait(lambda: len(_lines(client, start, DISCONNECTED)) == 1)
        assert not client.api.hasListener()
        assert "Python not connected" in _toolbar(client)[0][0][2]
        _shot(client, "disconnect-line")
        time.sleep(3)  # the next pings find nobody: still one line
        assert len(_lines(client, start, DISCONNECTED)) == 1
        proc = _bridge_process(player)
        assert _wait(lambda: bool(client.api.connectedShown()))
        assert _wait(lambda: len(_lines(client, start, BACK)) == 1)
        assert "Python connected" in _toolbar(client)[0][0][2]
        # a bridge stopped with Ctrl-C says goodbye (clears its listener): one line too
        mark = len(_chat(client))
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        assert _wait(lambda: not client.api.connectedShown())
        assert _wait(lambda: len(_lines(client, mark, DISCONNECTED)) == 1)
        time.sleep(3)
        assert len(_lines(client, start, DISCONNECTED)) == 2 and len(_lines(client, start, BACK)) == 1
        _shot(client, "disconnect-line-back-and-gone")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_marks_what_changed_a_removed_counter_outlined_dashed_where_it_was(tess: Any) -> None:
    """A batch that takes a counter off the map (a Flame out, a dispersed SMOKE) leaves a dashed outline where it
    was, until the next action."""
    _, client = tess
    hooks = _hooks(client)
    flame = next(p for p in client.snapshot()["pieces"] if p["id"] == "flame-e2")
    assert hooks.pixelsAround("flame-e2", MARK_RGB, 8) == 0
    res = client.apply({"expect": {"flame-e2": flame["rev"]}, "remove": ["flame-e2"]})
    assert res["removed"] == 1 and json.loads(str(client.api.marked())) == []
    gone = json.loads(str(client.api.markedGone()))
    assert len(gone) == 1
    x, y, w, h = (int(gone[0][k]) for k in ("x", "y", "width", "height"))
    assert gone[0]["map"] == flame["map"] and x < flame["x"] < x + w and y < flame["y"] < y + h
    time.sleep(0.5)  # the map's repaint
    assert hooks.pixelsAt(x, y, w, h, MARK_RGB, 8) > 0
    _shot(client, "marks-what-changed-removed")
    hooks.undo()
    assert _wait(lambda: bool(hooks.hasPiece("flame-e2")))
    client.press("odds")  # the next action: no Python listening, the marks go all the same
    assert _wait(lambda: json.loads(str(client.api.markedGone())) == [])
    assert hooks.pixelsAt(x, y, w, h, MARK_RGB, 8) == 0


def _press(client: BridgeClient, action: str, done: Callable[[], bool]) -> None:
    client.listen(lambda a: handle_button(client, a))
    try:
        assert _hooks(client).clickToolbar(f"aslfire-{action}")
        assert _wait(done)
        time.sleep(0.5)  # the press's last chat lines and the map's repaint
    finally:
        client.api.clearListener()


def test_marks_what_changed_after_an_upkeep_locally_and_adds_nothing_to_the_log_b25_6(tess: Any) -> None:
    _, client = tess
    hooks = _hooks(client)
    before = {p["id"]: p for p in client.snapshot()["pieces"]}
    logged = int(hooks.loggedCommands())
    _press(client, "upkeep", lambda: client.status()["processed"] == "PT1 AFPh")
    after = {p["id"]: p for p in client.snapshot()["pieces"]}
    marked = json.loads(str(client.api.marked()))
    placed = set(after) - set(before)
    changed = {i for i in set(after) & set(before) if after[i]["rev"] != before[i]["rev"]}
    assert placed | changed, "the seeded upkeep changed nothing"
    assert set(marked) == placed | changed
    assert int(hooks.loggedCommands()) == logged + 1  # the upkeep's one command; the marks are none
    for pid in marked:
        assert hooks.pixelsAround(pid, MARK_RGB, 8) > 0, pid  # outlined on the map as painted
    quiet = next(i for i in ("ec", "wind-dir", "wind", "gusts") if i not in marked)
    assert hooks.pixelsAround(quiet, MARK_RGB, 8) == 0
    _shot(client, "marks-what-changed-upkeep")
    # the next action clears the marks (Fire odds changes nothing)
    start = len(_chat(client))
    _press(client, "odds", lambda: "pending" in _chat(client)[start:])
    assert json.loads(str(client.api.marked())) == []
    assert all(hooks.pixelsAround(pid, MARK_RGB, 8) == 0 for pid in marked if pid in after)
    assert int(hooks.loggedCommands()) == logged + 1
    hooks.undo()
    assert _wait(lambda: client.status()["processed"] == "")


@pytest.fixture(scope="module")
def tess_attacks(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    with started_player("tess", module_with_extension, support_jar, xvfb.display, engine_dir / "toolbar-attacks",
                        pieces=attack_pieces(), stacks=True) as (_, client):
        SHOTS.mkdir(parents=True, exist_ok=True)
        yield client


def test_marks_what_changed_after_a_mol_attack_the_flame_and_the_broken_thrower_a22_6111(
        tess_attacks: BridgeClient) -> None:
    client = tess_attacks
    hooks = _hooks(client)
    logged = int(hooks.loggedCommands())
    hooks.scriptDice("1,6,2")  # MOL Check dr 1; attack DR colored 6: the thrower breaks, his Location burns
    res = run_attack(client, AttackRequest("mol", "sq-brk", "C4"))
    placed = list(res.applied["placed"])
    assert res.applied["changed"] == 1 and len(placed) == 1
    assert json.loads(str(client.api.marked())) == [*placed, "sq-brk"]
    time.sleep(0.5)  # the map's repaint
    assert hooks.pixelsAround("sq-brk", MARK_RGB, 8) > 0 and hooks.pixelsAround(placed[0], MARK_RGB, 8) > 0
    assert hooks.pixelsAround("sq-hob", MARK_RGB, 8) == 0
    assert int(hooks.loggedCommands()) == logged + 1
    _shot(client, "marks-what-changed-mol-attack")
    hooks.undo()
    assert _wait(lambda: not hooks.hasPiece(placed[0]))


@pytest.fixture(scope="module")
def two_players(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb,
                engine_dir: Path) -> Iterator[tuple[BridgeClient, BridgeClient]]:
    work = engine_dir / "toolbar-two"
    work.mkdir(exist_ok=True)
    server = vh.NodeServer(support_jar, work)
    players = [launch(n, module_with_extension, standard_pieces(), support_jar, xvfb.display, work)
               for n in ("tom", "una")]
    clients: list[BridgeClient] = []
    try:
        for p in players:
            p.wait_connection_file()
            clients.append(connect(p.connection_file, timeout=120))
            assert _wait(lambda: bool(clients[-1].status().get("started")))
        for c in clients:
            assert _hooks(c).connect("127.0.0.1", server.port, "Toolbar Room") == "Toolbar Room"
        yield clients[0], clients[1]
    finally:
        for c in clients:
            c.close()
        for p in players:
            p.stop()
        server.stop()


def test_marks_what_changed_stay_on_the_pressing_players_map(two_players: tuple[BridgeClient, BridgeClient]) -> None:
    """The outlines are the presser's alone: the other player receives the upkeep's one command, logs it, and marks
    nothing."""
    tom, una = two_players
    _hooks(tom).seedDice(20261129)
    _hooks(una).recordIncoming()
    una_logged = int(_hooks(una).loggedCommands())
    _press(tom, "upkeep", lambda: tom.status()["processed"] == "PT1 AFPh")
    marked = json.loads(str(tom.api.marked()))
    assert marked
    assert _wait(lambda: una.status()["processed"] == "PT1 AFPh")
    assert _wait(lambda: all(bool(_hooks(una).hasPiece(pid)) for pid in marked))
    assert json.loads(str(una.api.marked())) == []
    assert all(_hooks(una).pixelsAround(pid, MARK_RGB, 8) == 0 for pid in marked)
    assert int(_hooks(una).loggedCommands()) == una_logged + 1  # the upkeep, nothing else
    assert "CHAT" in str(_hooks(una).incoming())  # it came through VASSAL's server
    _hooks(tom).undo()
    assert _wait(lambda: una.status()["processed"] == "")
