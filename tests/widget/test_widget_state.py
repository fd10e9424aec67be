"""The widget without a browser: events in (hover, click, buttons), drawing and state out.

ipycanvas draws nothing here; what leaves Python is the widget's own state and the canvas
messages, which are captured from ipycanvas's canvas manager.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from asl_fire_widget import FireSession, FireWidget
from asl_fire_widget.widget import FIRE, HOVER, LABELS, OVERLAY, TERRAIN
from ipycanvas.canvas import _CANVAS_MANAGER, COMMANDS

from asl_vassal_bridge.core import EC, Direction, FireKind, Hex, Location, Phase, WindForce
from asl_vassal_bridge.core.values import replace


class Sent:
    """Messages the canvas manager sends: one entry per message, with the canvases it draws on.

    A batch names a canvas only when it switches to another one, so the canvas in use when a
    message starts is carried over from the previous message.
    """

    def __init__(self, current: str | None) -> None:
        self.messages: list[tuple[Any, list[Any]]] = []
        self.drawn: list[list[str]] = []
        self.current = current

    def record(self, command: Any, buffers: list[Any]) -> None:
        self.messages.append((command, buffers))
        batch = command if command and isinstance(command[0], list) else [command]
        drawn: list[str] = []
        for c in batch:
            if c[0] == COMMANDS["switchCanvas"]:
                self.current = c[1][0]
            elif self.current is not None and self.current not in drawn:
                drawn.append(self.current)
        self.drawn.append(drawn)

    def canvases(self, i: int = -1) -> list[str]:
        return self.drawn[i]

    def clear(self) -> None:
        self.messages.clear()
        self.drawn.clear()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[Sent]:
    cur = _CANVAS_MANAGER._current_canvas
    s = Sent(f"IPY_MODEL_{cur.model_id}" if cur is not None else None)
    orig = _CANVAS_MANAGER._send_custom

    def capture(command: Any, buffers: list[Any] | None = None) -> None:
        s.record(command, list(buffers or []))
        orig(command, buffers or [])

    monkeypatch.setattr(_CANVAS_MANAGER, "_send_custom", capture)
    yield s


@pytest.fixture
def w() -> FireWidget:
    return FireWidget.demo(seed=7)


def model(w: FireWidget, layer: int) -> str:
    return f"IPY_MODEL_{w.canvas[layer].model_id}"


def frontend(w: FireWidget, event: str, h: Hex | None = None, layer: int = HOVER) -> None:
    """A message as the browser sends it to the canvas (``click``: mouse down then up on the spot)."""
    x, y = w.geo.centre(h) if h is not None else (0.0, 0.0)
    for e in ("mouse_down", "mouse_up") if event == "click" else (event,):
        w.canvas[layer]._handle_frontend_event(None, {"event": e, "x": x, "y": y}, [])


def H(w: FireWidget, name: str) -> Hex:
    return w.session.position.map.parse_hex(name)


# ---------------------------------------------------------------------------
# Drawing


def test_nothing_is_drawn_until_a_client_is_ready_voila(sent: Sent) -> None:
    w = FireWidget.demo(seed=1)
    assert sent.messages == []
    frontend(w, "client_ready", layer=TERRAIN)
    assert len(sent.messages) == 1
    assert sent.canvases() == [model(w, TERRAIN)]
    assert w.draw_counts["terrain"]["hexes"] == len(w.session.position.map.hexes)


def test_full_redraw_is_one_message_with_every_layer(w: FireWidget, sent: Sent) -> None:
    w.redraw()
    assert len(sent.messages) == 1
    assert set(sent.canvases()) == {model(w, k) for k in (TERRAIN, OVERLAY, FIRE, LABELS, HOVER)}
    counts = w.draw_counts
    pos = w.session.position
    assert counts["terrain"]["buildings"] == sum(1 for i in pos.map.hexes.values() if i.building)
    assert counts["terrain"]["labels"] == len(pos.map.hexes)
    assert counts["fire"]["blazes"] == len(pos.blazes())
    assert counts["fire"]["flames"] == len(pos.flames())
    assert counts["fire"]["wrecks"] == len(pos.wrecks)
    assert counts["fire"]["smoke"] > 0  # B25.2: Blazes and the Burning Wreck smoke, drifting in the breeze


def test_b25_15_click_with_flame_tool_places_a_flame_and_redraws_only_the_fire_layer(w: FireWidget,
                                                                                      sent: Sent) -> None:
    w.redraw()
    sent.clear()
    w.tools.value = "flame"
    g2 = H(w, "G2")
    frontend(w, "click", g2)
    pos = w.session.position
    assert [f.kind for f in pos.fires if f.location == Location(g2)] == [FireKind.FLAME]
    assert len(sent.messages) == 1
    assert sent.canvases() == [model(w, FIRE)]
    assert w.draw_counts["fire"]["flames"] == len(pos.flames())
    assert "Flame placed in G2" in w.log_html


def test_b25_1_flame_on_open_ground_is_refused_and_logged(w: FireWidget) -> None:
    before = w.session.position
    w.tools.value = "flame"
    frontend(w, "click", H(w, "A1"))
    assert w.session.position is before
    assert "cannot burn (B25.1)" in w.session.log[-1]


def test_blaze_wreck_and_remove_tools(w: FireWidget) -> None:
    c2 = H(w, "C2")
    w.tools.value = "blaze"
    frontend(w, "click", c2)
    assert w.session.position.blaze_at(Location(c2)) is not None
    w.tools.value = "wreck"
    frontend(w, "click", H(w, "F3"))
    assert any(x.location.hex == H(w, "F3") and x.burning for x in w.session.position.wrecks)
    w.tools.value = "remove"
    frontend(w, "click", c2)
    frontend(w, "click", H(w, "F3"))
    assert not any(f.location.hex == c2 for f in w.session.position.fires)
    assert not any(x.location.hex == H(w, "F3") for x in w.session.position.wrecks)


def test_level_choice_places_fire_on_an_upper_building_level(w: FireWidget) -> None:
    w.tools.value = "flame"
    w.level.value = 1
    e6 = H(w, "E6")  # the wooden two-story farmhouse
    frontend(w, "click", e6)
    assert w.session.position.flames_at(Location(e6, 1))


# ---------------------------------------------------------------------------
# Hover


def test_b25_6_hover_shows_exact_odds_with_drms_and_the_source_blaze(w: FireWidget, sent: Sent) -> None:
    c4 = H(w, "C4")
    frontend(w, "mouse_move", c4)
    text = w.info.value
    sc = w.session.odds[Location(c4)]
    assert "C4" in text and "Woods" in text
    assert f"{float(sc.chance):.1%}" in text
    assert "Blaze in D3" in text  # the source
    assert "B25.5" in text  # the Dry EC DRM with its rule
    assert sent.canvases() == [model(w, HOVER)]


def test_hover_is_throttled_and_ignores_moves_within_the_same_hex(w: FireWidget, sent: Sent) -> None:
    timers: list[Any] = []
    w.call_later = lambda delay, fn: timers.append(fn) or fn  # the kernel's event loop, run by hand
    c4, c3 = H(w, "C4"), H(w, "C3")
    frontend(w, "mouse_move", c4)
    assert w.hovered == c4
    n = len(sent.messages)
    x, y = w.geo.centre(c4)
    w._last_hover -= 1.0
    for dx in range(5):
        w.canvas[HOVER]._handle_frontend_event(None, {"event": "mouse_move", "x": x + dx, "y": y}, [])
    while timers:
        timers.pop(0)()
    assert len(sent.messages) == n  # same hex: nothing drawn or sent
    frontend(w, "mouse_move", c3)  # within the throttle interval: held back…
    assert w.hovered == c4 and len(timers) == 1
    timers.pop(0)()  # …and shown when the interval is over (a trailing update)
    assert w.hovered == c3 and len(sent.messages) == n + 1
    frontend(w, "mouse_out")
    assert w.hovered is None


def test_a_quick_sweep_ends_with_the_panel_on_the_hex_the_mouse_stopped_on(w: FireWidget) -> None:
    timers: list[Any] = []
    w.call_later = lambda delay, fn: timers.append(fn) or fn
    sweep = [H(w, n) for n in ("C5", "D5", "E5")]
    for h in sweep:  # moves 10 ms apart: all within one throttle interval
        frontend(w, "mouse_move", h)
    while timers:
        timers.pop(0)()
    assert w.hovered == sweep[-1]
    assert "<b>E5</b>" in w.info.value


def test_hover_on_a_flame_shows_the_flame_to_blaze_chance(w: FireWidget) -> None:
    e5 = H(w, "E5")
    text = w.session.hover(e5).html()
    assert "Flame→Blaze this AFPh" in text and "B25.151" in text


# ---------------------------------------------------------------------------
# Buttons and environment


def test_b25_65_rph_button_rolls_wind_change_and_logs_it(w: FireWidget) -> None:
    w.rph_button.click()
    assert w.session.position.clock.phase is Phase.PFPH
    assert any("B25.65" in line for line in w.session.log)
    assert "Wind Change" in w.log_html


def test_b25_151_b25_6_afph_button_runs_upkeep_once(w: FireWidget) -> None:
    w.afph_button.click()
    pos = w.session.position
    assert pos.clock.phase is Phase.RTPH
    assert any("B25.151" in line for line in w.session.log)
    assert any("(B25.6)" in line for line in w.session.log)
    w.afph_button.click()  # the AFPh is past now
    assert w.session.position is pos
    assert "already past" in w.session.log[-1]


def test_step_n_player_turns_is_one_undoable_step(w: FireWidget) -> None:
    start = w.session.position
    w.turns.value = 3
    w.step_button.click()
    assert w.session.position.clock.player_turn == start.clock.player_turn + 3
    w.undo_button.click()
    assert w.session.position is start
    w.redo_button.click()
    assert w.session.position.clock.player_turn == start.clock.player_turn + 3


def test_b25_63_wind_and_b25_5_ec_controls_change_the_environment(w: FireWidget, sent: Sent) -> None:
    w.redraw()
    sent.clear()
    w.wind_force.value = WindForce.HEAVY_WINDS
    w.wind_dir.value = Direction(5)
    env = w.session.position.environment
    assert env.wind.force is WindForce.HEAVY_WINDS and env.wind.direction is Direction(5)
    assert all(model(w, TERRAIN) not in sent.canvases(i) for i in range(len(sent.messages)))
    w.ec.value = EC.WET
    assert w.session.position.environment.ec is EC.WET
    w.undo_button.click()
    assert w.session.position.environment.ec is EC.DRY
    assert w.ec.value is EC.DRY  # the controls follow the position


def test_b25_11_kindling_is_refused_outside_the_pfph_and_rolled_in_it(w: FireWidget) -> None:
    # B25.11: a Kindling attempt is made in the kindling side's PFPh; the demo opens at an RPh.
    w.tools.value = "kindling"
    w.kindler.value = "squad + 8-1 leader (−1)"
    assert w.session.position.clock.phase is Phase.RPH
    before = w.session.position.fires
    frontend(w, "click", H(w, "K2"))  # orchard
    assert "PFPh" in w.session.log[-1] and "B25.11" in w.session.log[-1] and w.session.log[-1].startswith("✗")
    assert w.session.position.fires == before  # nothing rolled, nothing placed
    w.rph_button.click()  # the Wind Change DR, then the clock stands at the PFPh
    assert w.session.position.clock.phase is Phase.PFPH
    frontend(w, "click", H(w, "K2"))
    assert any("Kindling in" in line and "B25.11" in line and "DR" in line for line in w.session.log)


def test_undo_with_empty_history_says_so(w: FireWidget) -> None:
    assert w.undo_button.disabled
    w.session.undo()
    assert w.session.log[-1] == "nothing to undo"


# ---------------------------------------------------------------------------
# Overlays


def test_odds_overlay_tints_exactly_the_hexes_at_risk(w: FireWidget, sent: Sent) -> None:
    w.redraw()
    sent.clear()
    w.overlay_choice.value = "odds"
    assert w.draw_counts["overlay"]["hexes"] == sum(1 for p in w.session.odds_by_hex().values() if p > 0)
    assert sent.canvases() == [model(w, OVERLAY), model(w, LABELS)]  # the tint, then its figures above the counters
    w.tools.value = "blaze"
    frontend(w, "click", H(w, "G2"))  # a new Blaze threatens new hexes: the overlay follows
    assert set(sent.canvases()) == {model(w, OVERLAY), model(w, FIRE), model(w, LABELS)}
    assert w.draw_counts["overlay"]["hexes"] == sum(1 for p in w.session.odds_by_hex().values() if p > 0)


def test_forecast_overlay_runs_with_progress(w: FireWidget) -> None:
    w.fc_turns.value = 2
    w.fc_trials.value = 1000
    w.fc_button.click()
    assert w.progress.value == 1.0
    fc = w.session.forecast_result
    assert fc is not None and fc.turns == 2 and fc.trials == 1000
    assert w.overlay == "forecast"
    assert w.draw_counts["overlay"]["hexes"] > 0
    assert "forecast" in w.session.hover(H(w, "C4")).html()


def test_forecast_overlay_shows_the_first_trajectories_early_then_the_whole_forecast(w: FireWidget) -> None:
    """The overlay is drawn once from the first chunk (1,024 trajectories), titled as partial, then from all."""
    from asl_vassal_bridge.core.forecast import forecast

    titles: list[str] = []
    w.legend.observe(lambda c: titles.append(c["new"]), "value")
    w.fc_turns.value = 2
    w.fc_trials.value = 3000
    before = len(w.redraws)
    w.fc_button.click()
    assert w.redraws[before:].count("overlay") == 2
    assert any("1,024 of 3,000 trials so far" in t for t in titles)
    assert "(3,000 trials," in w.legend.value and "so far" not in w.legend.value
    fc = w.session.forecast_result
    assert fc is not None and fc.trials == 3000
    alone = forecast(w.session.position, 2, 3000, seed=w.session.seed)
    assert np.array_equal(fc.burning, alone.burning)


def test_session_loads_a_position_file_and_reports_bad_ones(tmp_path: Any) -> None:
    from asl_vassal_bridge.core import BadInput
    from asl_vassal_bridge.scenarios import demo_text

    p = tmp_path / "village.toml"
    p.write_text(demo_text())
    s = FireSession.from_file(p)
    assert s.position.name.startswith("Demo")
    bad = tmp_path / "bad.toml"
    bad.write_text("format = 1\n[map]\ncolumns = 'A-'\n")
    with pytest.raises(BadInput):
        FireSession.from_file(bad)


def test_a_bigger_map_resizes_the_canvas_and_redraws_terrain(w: FireWidget, sent: Sent) -> None:
    from asl_vassal_bridge.core import GameMap, HexInfo, Terrain

    hexes = {Hex.from_offset(c, r): HexInfo(Terrain.WOODS) for c in range(30) for r in range(1, 12)}
    big = replace(w.session.position, map=GameMap.from_hexes(hexes), fires=(), wrecks=(), units=())
    w.session.replace_position(big, "a big woods")
    assert w.geo.width <= w.canvas.width and w.geo.height <= w.canvas.height  # the new map fits the view
    assert w.draw_counts["terrain"]["hexes"] == len(hexes)
    assert model(w, TERRAIN) in sent.canvases()


# ---------------------------------------------------------------------------
# A live game through the bridge (read-only)


class SnapshotOnly:
    """A bridge client that can only be read: any write would fail the test."""

    def __init__(self, pieces: list[dict[str, Any]]) -> None:
        self.pieces = pieces
        self.reads = 0

    def snapshot(self, with_terrain: bool = True) -> dict[str, Any]:
        self.reads += 1
        hexes = [{"name": f"{c}{r}", "elevation": 0,
                  "locations": [{"name": f"{c}{r}", "level": 0, "terrain": "Woods" if c in "CD" else "Open Ground",
                                 "center": True}]} for c in "ABCDE" for r in range(1, 5)]
        return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
                "maps": [{"id": "Map0", "name": "Main Map", "boards": [],
                          "terrain": {"source": "VASL", "hexes": hexes}}],
                "pieces": self.pieces}

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the widget must not call {name} on a live game")


def _piece(pid: str, name: str, gpid: str, loc: str) -> dict[str, Any]:
    return {"id": pid, "name": name, "gpid": gpid, "map": "Main Map", "location": loc, "rev": f"r-{pid}",
            "x": 100 * ord(loc[0]), "y": 100 * int(loc[1:]), "layers": []}


def test_live_game_is_shown_read_only_and_can_be_read_again() -> None:
    client = SnapshotOnly([_piece("b1", "Blaze", "5713", "D2")])
    w = FireWidget.live(client=client, seed=1)
    pos = w.session.position
    assert [f.location.name for f in pos.blazes()] == ["D2"]
    assert "read-only" in w.header.value
    client.pieces = [*client.pieces, _piece("f1", "Flame", "192", "C3")]
    w.refresh_live_button.click()
    assert client.reads == 2
    assert [f.location.name for f in w.session.position.flames()] == ["C3"]
