"""The Fire risk layer on VASSAL's map (issue 35): real engine, Xvfb, the bridge connected as a player runs it.

Screenshots go to ``screenshots/risk/`` (gitignored).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.convert import position_from_snapshot
from asl_vassal_bridge.bridge.phases import handle_button
from asl_vassal_bridge.bridge.report import odds_lines
from asl_vassal_bridge.core.position import Phase
from tests.support import vassal_harness as vh

from .conftest import started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

SHOTS = vh.REPO / "screenshots" / "risk"


def wait_for(cond: Callable[[], object], seconds: float, what: str) -> None:
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {seconds} s")


@pytest.fixture(scope="module")
def player(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    with started_player("risk", module_with_extension, support_jar, xvfb.display, engine_dir / "risk") as (p, client):
        client.listen(lambda action: handle_button(client, action))
        yield p, client


def layer(client: BridgeClient) -> dict[str, Any]:
    return dict(json.loads(str(client.api.riskLayer())))


def by_hex(lay: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["tip"].split(":", 1)[0]: s for s in lay["shades"]}


def fire_odds(client: BridgeClient) -> dict[str, int]:
    """The highest chance per hex that Fire odds prints, in whole percent."""
    live = position_from_snapshot(client.snapshot(), phase=Phase.AFPH)
    out: dict[str, int] = {}
    for line in odds_lines(live.position)[1:]:
        m = re.match(r"-\s+(\w+)(?:\.\S+)?: .*? (\d+)%", line)
        if m:
            out[m.group(1)] = max(out.get(m.group(1), 0), int(m.group(2)))
    return {h: v for h, v in out.items() if v > 0}


def turn_on(client: BridgeClient) -> dict[str, Any]:
    hooks = client.jvm.aslbridgetest.TestHooks
    before = layer(client)["updates"]
    assert not layer(client)["on"]
    assert hooks.clickToolbar("aslfire-risk")
    wait_for(lambda: layer(client)["updates"] > before, 60, "the Fire risk layer's numbers")
    return layer(client)


def turn_off(client: BridgeClient) -> None:
    if layer(client)["on"]:
        assert client.jvm.aslbridgetest.TestHooks.clickToolbar("aslfire-risk")
        wait_for(lambda: not layer(client)["on"], 10, "the layer off")


def test_risk_layer_values_equal_fire_odds_and_toggling_sends_no_command(player: Any) -> None:
    _, client = player
    hooks = client.jvm.aslbridgetest.TestHooks
    logged, chat = hooks.loggedCommands(), str(hooks.chatText())
    try:
        lay = turn_on(client)
        shaded = {h: round(s["chance"] * 100) for h, s in by_hex(lay).items()}
        assert shaded and shaded == fire_odds(client)
        assert lay["status"] == ""
    finally:
        turn_off(client)
    assert layer(client)["shades"] == []
    assert hooks.loggedCommands() == logged and str(hooks.chatText()) == chat  # a view: nothing logged, sent or said


def test_risk_layer_hover_shows_the_rolls_drms_with_rule_numbers(player: Any) -> None:
    _, client = player
    hooks = client.jvm.aslbridgetest.TestHooks
    try:
        shade = max(turn_on(client)["shades"], key=lambda s: s["chance"])
        tip = str(hooks.hoverMap(shade["x"], shade["y"]))
        assert tip.startswith("<html><b>") and "(B25." in tip and ("Final DR" in tip or "automatic" in tip)
    finally:
        turn_off(client)
    assert str(hooks.hoverMap(shade["x"], shade["y"])) == ""


def test_risk_layer_follows_a_counter_moved_by_the_player(player: Any) -> None:
    _, client = player
    hooks = client.jvm.aslbridgetest.TestHooks
    snap = client.snapshot()
    blaze = next(p for p in snap["pieces"] if p["id"] == "blaze-h2")
    target = next(p for p in snap["pieces"] if p["id"] == "flame-c2")
    try:
        lay = turn_on(client)
        before = by_hex(lay)
        hooks.movePiece("blaze-h2", target["x"], target["y"] + 64)  # the Blaze carried from H2 to C3, by the woods
        wait_for(lambda: layer(client)["updates"] > lay["updates"], 30, "the layer recomputed after the move")
        after = by_hex(layer(client))
        assert after != before
        assert {h: round(s["chance"] * 100) for h, s in after.items()} == fire_odds(client)
    finally:
        turn_off(client)
        hooks.undo()
        wait_for(lambda: next(p for p in client.snapshot()["pieces"] if p["id"] == "blaze-h2")["x"] == blaze["x"],
                 30, "the move undone")


def test_risk_layer_shading_and_legend_on_the_map_screenshot(player: Any) -> None:
    _, client = player
    hooks = client.jvm.aslbridgetest.TestHooks
    SHOTS.mkdir(parents=True, exist_ok=True)
    snap = client.snapshot()
    ids = {p["id"]: p for p in snap["pieces"]}
    shades = sorted(turn_on(client)["shades"], key=lambda s: -s["chance"])[:2]
    radius = 37
    spots = [(s["x"] - int(radius * 0.75), s["y"]) for s in shades]  # inside the hex, beside its counters
    far = (ids["wind"]["x"] + 20 * 56, ids["wind"]["y"])  # no fire near
    on = [hooks.mapPixel(x, y) for x, y in spots]
    on_far = hooks.mapPixel(*far)
    legend_on = hooks.windowPixel(20, 12)
    hooks.screenshot(str(SHOTS / "risk-layer-on.png"), 1280)
    assert hooks.showToolbarMenu("aslfire-menu", True)
    hooks.screenshot(str(SHOTS / "risk-layer-menu.png"), 1280)
    assert hooks.showToolbarMenu("aslfire-menu", False)
    turn_off(client)
    off = [hooks.mapPixel(x, y) for x, y in spots]
    assert all(a != b for a, b in zip(on, off, strict=True))  # the two hexes shaded
    assert all((a >> 16) & 0xFF >= 0xC0 for a in on)  # towards yellow, orange or red
    assert hooks.mapPixel(*far) == on_far  # nothing where no fire may spread
    assert legend_on != hooks.windowPixel(20, 12)  # the legend in the window's corner
    hooks.screenshot(str(SHOTS / "risk-layer-off.png"), 1280)


def test_risk_layer_forecast_mode_from_the_preferences(player: Any) -> None:
    _, client = player
    hooks = client.jvm.aslbridgetest.TestHooks
    try:
        lay = turn_on(client)
        assert json.loads(str(client.api.riskMode()))["mode"] == "afph"
        hooks.setPrefText("aslfireRiskTurns", "2")
        hooks.setPrefText("aslfireRiskTrials", "500")
        hooks.setPrefText("aslfireRiskMode", "A forecast: burning after N Player Turns")
        assert json.loads(str(client.api.riskMode())) == {"mode": "forecast", "turns": 2, "trials": 500}
        wait_for(lambda: layer(client)["updates"] > lay["updates"], 60, "the forecast drawn")
        fc = layer(client)
        tips = [s["tip"] for s in fc["shades"]]
        assert tips and all("burning after 2 Player Turns (forecast of 500 trials" in t for t in tips)
        burning = {p["location"] for p in client.snapshot()["pieces"] if p["name"] in ("Flame", "Blaze")}
        assert not burning & {t.split(":", 1)[0] for t in tips}  # what burns now is not shaded
    finally:
        hooks.setPrefText("aslfireRiskMode", "The end of this AFPh (exact odds)")
        turn_off(client)


def test_risk_layer_hot_key_toggles_it(player: Any) -> None:
    _, client = player
    hooks = client.jvm.aslbridgetest.TestHooks
    before = layer(client)["updates"]
    hooks.pressHotKey("ctrl alt R")
    wait_for(lambda: layer(client)["on"] and layer(client)["updates"] > before, 60, "the layer on by its hot key")
    hooks.pressHotKey("ctrl alt R")
    wait_for(lambda: not layer(client)["on"], 10, "the layer off by its hot key")
