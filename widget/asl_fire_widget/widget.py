"""``FireWidget``: the fire rules on a map, in Jupyter or Voilà (ipywidgets 8 + ipycanvas).

The canvas is a viewport onto the map with zoom (mouse wheel or the + / − buttons) and pan (drag,
or the arrow buttons).  Five canvas layers: the map (VASL's board art under the hex grid, or
terrain tints), the heat overlay, the fire counters, the overlay's figures and the hover outline; every redraw is one
``hold_canvas()`` batch, i.e. one message, and draws only what is in view.  In Voilà drawing
happens only from ``on_client_ready``; in JupyterLab the same callback draws when the view appears.

The turn, phase, EC and wind, the overlay's title and colour legend, and the log are HTML beside
the canvas (built by :class:`~asl_fire_widget.layout.Controls`, its base).  The log keeps the whole history with
the newest action on top (in view without scrolling); each action sends only its own new lines.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as W  # noqa: N812 - the usual short name
from ipycanvas import MultiCanvas, hold_canvas

from asl_vassal_bridge.core import BadInput, Hex, Phase, Position

from .drawing import (
    LABEL_SCALE,
    ArtTile,
    MapGeometry,
    UnitBox,
    draw_fires,
    draw_heat,
    draw_hover,
    draw_terrain,
    legend_html,
    locations_heat,
)
from .layout import (  # noqa: F401 - LAYERS and the layer numbers are this module's public names too
    _STYLE,
    FIRE,
    HOVER,
    INK,
    LABELS,
    LATEST_LINES,
    LAYERS,
    LOG_PAGE,
    MAX_SCALE,
    OVERLAY,
    TERRAIN,
    VIEW,
    ZOOM_STEP,
    Controls,
    _canvas_size,
    _fit,
    _latest_html,
    _room_height,
)
from .loader import LoadPanel
from .probe import SizeProbe
from .state import FireSession

if TYPE_CHECKING:
    from asl_vassal_bridge.core.forecast import Forecast
    from asl_vassal_bridge.vasl.unitart import UnitArt

__all__ = ["LAYERS", "FireWidget"]

class FireWidget(Controls):
    """Explore fire on a map: click tools, RPh/AFPh buttons, odds and forecast overlays, FT/MOL and HoB panels, a log.

    *scale* is the first zoom (canvas pixels per VASL board pixel; default: the whole map in view);
    *view* the canvas size.  *boards* (a folder of VASL board archives) draws VASL's board art under the
    grid; *vmod* (the user's ``VASL.vmod``) draws VASL's own counter images.

    >>> w = FireWidget.demo(seed=1)  # doctest: +SKIP
    >>> w  # doctest: +SKIP
    """

    hover_interval = 0.05  # seconds between hover updates at most (the last one is always shown)

    def __init__(self, session: FireSession, *, scale: float | None = None, max_width: int | None = None,
                 view: tuple[int, int] | None = None, boards: str | Path | None = None,
                 vmod: str | Path | None = None, tints: bool | None = None) -> None:
        self.session = session
        self._fixed_view = view is not None
        vw, vh = view if view is not None else VIEW
        if max_width is not None:
            vw = min(vw, max_width)
        self.fit_scale = _fit(session.position, (vw, vh))
        self._zoomed = scale is not None  # the player chose a zoom: a resize keeps it
        scale = scale if scale is not None else self.fit_scale
        if view is None:
            content = MapGeometry(session.position.map.hexes, self.fit_scale)
            if self.fit_scale >= 1.0:  # a small map: the canvas holds it whole at zoom 1
                vw, vh = min(vw, max(content.width, 200)), min(vh, max(content.height, 200))
            else:  # a wide map: no tall empty band under it, but room to zoom in
                vh = min(vh, max(360, content.height + 40))
        #: The canvas height at the fitted zoom, and the most the page gives it: zooming into a map
        #: shorter than the room (a strip of boards) makes the canvas as tall as the map needs, up to the room.
        self._base_h, self._room_h = vh, max(vh, VIEW[1] if view is None else vh)
        self.view = (vw, vh)
        self.geo = MapGeometry(session.position.map.hexes, scale, view=self.view)
        self.view = (vw, self._height_for(scale))
        self.geo = self.geo.with_view(scale, (0.0, 0.0), self.view)
        self._map_id = id(session.position.map)
        self.canvas = MultiCanvas(len(LAYERS), width=self.view[0], height=self.view[1])
        self.canvas.layout.width = "100%"
        self.canvas.layout.max_width = f"{self.view[0]}px"
        self.canvas.layout.height = "auto"
        self.overlay = "none"
        self.hovered: Hex | None = None
        self._last_hover = 0.0
        self._pending_hover: tuple[float, float] | None = None
        self._hover_timer: Any = None
        #: Schedules ``fn`` after ``delay`` seconds (the kernel's event loop); tests put their own clock here.
        self.call_later: Callable[[float, Callable[[], None]], Any] | None = None
        self._mouse: tuple[float, float] | None = None
        self._drag: tuple[float, float, float, float] | None = None  # start x, y and pan at mouse down
        self._dragged = False
        self._scrolled = (0.0, 0.0)  # how far focusing the canvas scrolled it at the last mouse down
        self._last_pan = 0.0
        self.draw_counts: dict[str, dict[str, int]] = {}
        self.redraws: list[str] = []  # which layers were redrawn, in order (for tests and benchmarks)
        self.ready_count = 0
        self.art: list[ArtTile] = []
        self.art_error = ""
        self.counter_images: dict[str, W.Image] = {}
        self._unit_art: UnitArt | None = None
        self.unit_boxes: list[UnitBox] = []  # where each unit's counter was drawn (clicks select it)
        self.loader = LoadPanel(self.adopt, self._say_now, seed=session.seed)
        self.probe = SizeProbe()
        self.probe.observe(self._on_probe, ["width", "window_height"])
        self._build_controls()
        if boards is not None:
            session.boards_dir = Path(boards)
        self._load_art()
        if vmod is None and session.vasl is not None and session.unit_pieces:
            vmod = session.vasl.module  # the module the game was read with: its unit pictures
        if vmod is not None:
            self.load_counter_images(vmod)
        self.tints.value = bool(tints) if tints is not None else not self.art
        self.tints.disabled = not self.art
        self.tints.observe(lambda _: self.redraw_layers((TERRAIN,)), "value")
        for k in range(len(LAYERS)):
            self.canvas[k].on_client_ready(self._ready_callback(k))
        self.canvas.on_mouse_move(self._on_mouse_move)
        self.canvas.on_mouse_down(self._on_mouse_down)
        self.canvas.on_mouse_up(self._on_mouse_up)
        self.canvas.on_mouse_wheel(self._on_mouse_wheel)
        self.canvas.on_mouse_out(self._on_mouse_out)
        session.listeners.append(self._on_session_change)
        self._build_attack_panel()
        self._build_hob_panel()
        self.panels = W.Tab(children=[self.attack_box, self.hob_box], titles=["FT / MOL (A22)",
                                                                               "Heat of Battle"])
        self.map_box = W.VBox([self.latest, self.legend, self.probe, self.canvas_box, self.nav],
                              layout=W.Layout(flex="1 1 340px", min_width="0", width="auto"))
        # The hex panel goes beside the map where both fit (at 1024 px in JupyterLab with its file browser open
        # too), else under it (never a thumbnail of a map).
        self.main = W.HBox([self.map_box, self.side],
                           layout=W.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"))
        # The map first: one line of clock and phase control, one of loading, then the map with the latest result
        # and the hex panel; the tools, the setup paths, the FT/MOL and HoB tabs and the log under it.
        self.top = W.HBox([self.header, self.phase_bar], layout=W.Layout(
            flex_flow="row wrap", align_items="center", justify_content="space-between", width="100%"))
        super().__init__([W.HTML(_STYLE), self.top, self.loader.actions, self.main, self.toolbar, self.loader.paths,
                          self.panels, self.log_box])
        self.add_class("asl-fire-widget")
        self._refresh_controls()
        self._refresh_panels()
        self._refresh_legend()
        self._refresh_zoom_label()

    # -- constructors --------------------------------------------------------
    @classmethod
    def demo(cls, seed: int | None = None, **kw: Any) -> FireWidget:
        """The embedded demo scenario."""
        return cls(FireSession.demo(seed), **kw)

    @classmethod
    def from_file(cls, path: str | Path, boards: str | Path | None = None, seed: int | None = None,
                  vasl: str | Path | None = None, **kw: Any) -> FireWidget:
        """A position file, or a ``.vsav`` with VASL's boards folder and module.

        For a ``.vsav`` the boards folder and module default to what VASSAL's preferences record (the
        log says which were used); VASL's board art is drawn from the boards folder, and VASL's own
        counter images from *vasl* when it is given.
        """
        kw.setdefault("vmod", vasl)
        return cls(FireSession.from_file(path, boards, seed, vasl=vasl), **kw)

    @classmethod
    def from_position(cls, pos: Position, seed: int | None = None, **kw: Any) -> FireWidget:
        return cls(FireSession(pos, seed=seed), **kw)

    @classmethod
    def live(cls, client: Any = None, boards: str | Path | None = None, seed: int | None = None,
             vasl: str | Path | None = None, **kw: Any) -> FireWidget:
        """The position of a running VASSAL game through the bridge, read-only.

        *client* is a connected ``asl_vassal_bridge.bridge.client.BridgeClient`` (default: connect
        through the extension's connection file).  Nothing is ever sent to the game from the widget.
        *boards* and *vasl* default to what VASSAL's preferences record (for the board art, and for
        terrain where VASL's own model is missing).

        :raises LoadError: as the other loaders, one line: no VASSAL with the extension answers, or a bad boards
            folder or module.
        """
        from .session_support import live_snapshot

        client, snapshot = live_snapshot(client)
        kw.setdefault("vmod", vasl)
        w = cls(FireSession.from_snapshot(snapshot, boards, seed, vasl=vasl), **kw)
        w._live_client = client
        w.loader.client, w.loader.state = client, "connected"
        w.loader._show_state()
        w.refresh_live_button.layout.display = ""
        return w

    def adopt(self, session: FireSession) -> None:
        """Show another game (the load control's file or live game) in this widget: its map, board art, counters."""
        start = len(self.session.log)
        self.session.adopt(session)
        if session.read_only_source and self.loader.client is not None:
            self._live_client = self.loader.client
            self.refresh_live_button.layout.display = ""
        else:
            self._live_client = None
            self.refresh_live_button.layout.display = "none"
        if session.vasl is not None and session.vasl.module is not None and session.unit_pieces:
            self.load_counter_images(session.vasl.module)
        self._refresh_controls()
        self.latest.value = _latest_html(self.session.log[start:])  # the load's lines together

    def _say_now(self, line: str) -> None:
        self.session.say(line)
        self._refresh_controls()

    def refresh_live(self) -> None:
        """Read the live game again (read-only) and show it; a connection lost is said in the load control."""
        client = getattr(self, "_live_client", None)
        if client is None:
            return
        from asl_vassal_bridge.bridge.convert import position_from_snapshot

        from .session_support import LoadError, live_snapshot, live_unit_pieces

        try:
            _, snapshot = live_snapshot(client)
        except LoadError as e:
            self._live_client = None
            self.refresh_live_button.layout.display = "none"
            self.loader.lost(str(e))
            return
        game = position_from_snapshot(snapshot, vasl=self.session.vasl)
        self.session.unit_pieces = live_unit_pieces(snapshot, game.position)
        self.session.replace_position(game.position, "live VASSAL game")
        if self._unit_art is not None:
            self._load_unit_images()
            self.redraw_layers((FIRE,))

    # -- events --------------------------------------------------------------
    def _ready_callback(self, layer: int) -> Callable[[], None]:
        def ready() -> None:
            self.ready_count += 1
            self.redraw_layers((layer,))

        return ready

    def _on_session_change(self, what: str) -> None:
        if id(self.session.position.map) != self._map_id and not self._fixed_view and self.probe.width:
            # Another map (a game loaded from the page): the canvas sized anew to the page, the whole map in view.
            self._map_id = id(self.session.position.map)
            self._zoomed = False
            self._base_h = -1
            self.geo = MapGeometry(self.session.position.map.hexes, 1.0, view=self.view)
            self._load_art()
            self.resize(self.probe.width, self.probe.window_height or 800)
            self.set_view(self.fit_scale, (0.0, 0.0))
        elif id(self.session.position.map) != self._map_id:
            self._map_id = id(self.session.position.map)
            base = (self.view[0], self._base_h if not self._fixed_view else self.view[1])
            self.fit_scale = _fit(self.session.position, base)
            self.geo = MapGeometry(self.session.position.map.hexes, self.fit_scale, view=base)
            self._zoomed = False
            if base != self.view:
                self.view = base
                self.canvas.height = base[1]
            self._load_art()
            self.redraw()
        elif what == "position":
            layers = (FIRE, OVERLAY) if self.overlay != "none" or self._overlay_drawn else (FIRE,)
            self.redraw_layers(layers)
            if self.hovered is not None:
                self._show_hover(self.hovered)
        if what in ("position", "form"):
            self._refresh_panels()
        if what == "position":
            self._refresh_legend()
        self._refresh_controls()

    _overlay_drawn = False
    #: The trials of the forecast running (its overlay is drawn early from the first ones), else None.
    _fc_running: int | None = None

    def _schedule(self, delay: float, fn: Callable[[], None]) -> Any:
        if self.call_later is not None:
            return self.call_later(delay, fn)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        return loop.call_later(delay, fn)

    def _on_mouse_move(self, x: float, y: float) -> None:
        self._mouse = (x, y)
        if self._drag is not None:
            sx, sy, px, py = self._drag
            if abs(x - sx) + abs(y - sy) > 4:
                self._dragged = True
            if self._dragged:
                self.set_view(self.geo.scale, (px - (x - sx), py - (y - sy)), hover=False)
            return
        self._pending_hover = (x, y)
        now = time.monotonic()
        wait = self.hover_interval - (now - self._last_hover)
        if wait <= 0:
            self._flush_hover()
        elif self._hover_timer is None:
            # Throttled: the last position is shown when the interval is over (a trailing update).
            self._hover_timer = self._schedule(wait, self._flush_hover)
            if self._hover_timer is None:  # no event loop (no kernel): show it now
                self._flush_hover()

    def _flush_hover(self) -> None:
        self._hover_timer = None
        if self._pending_hover is None:
            return
        x, y = self._pending_hover
        self._pending_hover = None
        self._last_hover = time.monotonic()
        self.hover_at(self.geo.hex_at(x, y))

    def _on_mouse_out(self, x: float, y: float) -> None:
        self._pending_hover = None
        self._drag = None
        self._mouse = None
        self.hover_at(None)

    def _on_mouse_down(self, x: float, y: float) -> None:
        # ipycanvas focuses the canvas before reading the point, and focus scrolls a canvas partly out of
        # view: the point is then read against the scrolled canvas.  A browser reports any movement before
        # a press, so the offset from the last move is that scroll, and the press belongs where that move was.
        mx, my = self._mouse if self._mouse is not None else (x, y)
        self._scrolled = (x - mx, y - my) if abs(x - mx) + abs(y - my) > 2 else (0.0, 0.0)
        self._drag = (x, y, *self.geo.pan)
        self._dragged = False

    def _on_mouse_up(self, x: float, y: float) -> None:
        dragged = self._dragged
        self._drag = None
        self._dragged = False
        if dragged:
            return
        sx, sy = self._scrolled
        px, py = x - sx, y - sy
        if self.session.tool == "inspect":
            hit = next((b for b in reversed(self.unit_boxes) if b.contains(px, py)), None)
            if hit is not None:
                self.select_unit(hit.unit_id)
                return
        h = self.geo.hex_at(px, py)
        if h is not None:
            self.click(h)

    def _on_mouse_wheel(self, dx: float, dy: float) -> None:
        if not dy:
            return
        self.zoom_by(ZOOM_STEP ** (-max(-3.0, min(3.0, dy / 100))), at=self._mouse)

    def hover_at(self, h: Hex | None) -> None:
        """Show hex *h* in the side panel and outline it (None clears)."""
        if h == self.hovered:
            return
        self.hovered = h
        with hold_canvas():
            draw_hover(self.canvas[HOVER], self.geo, h)
        self.redraws.append("hover")
        if h is None:
            self.info.value = "<i>hover a hex</i>"
        else:
            self._show_hover(h)

    def _show_hover(self, h: Hex) -> None:
        self.info.value = self.session.hover(h).html()

    def select_unit(self, unit_id: str) -> None:
        """Select a unit (as a click on its counter does) for the FT/MOL and Heat of Battle panels."""
        self._act(lambda: self.session.select_unit(unit_id))
        self.redraw_layers((FIRE,))

    def click(self, h: Hex) -> None:
        """A click on hex *h* with the current tool."""
        self.session.click(h)
        self._refresh_controls()

    # -- the canvas's size ----------------------------------------------------------
    def _on_probe(self, _: object) -> None:
        if self._fixed_view or self.probe.width <= 0:
            return
        self.resize(self.probe.width, self.probe.window_height or 800)

    def resize(self, width: int, window_height: int) -> None:
        """Size the canvas to a map column *width* CSS pixels wide in a window *window_height* tall (the
        browser reports both, and every change): the whole map is fitted again unless the player zoomed."""
        view = _canvas_size(self.session.position, width, window_height)
        room = _room_height(window_height)
        if view == (self.view[0], self._base_h) and room == self._room_h:
            return
        self._base_h, self._room_h = view[1], max(view[1], room)
        self.fit_scale = _fit(self.session.position, view)
        scale = self.geo.scale if self._zoomed else self.fit_scale
        view = (view[0], self._height_for(scale))
        if view != self.view:
            self.view = view
            self.canvas.width, self.canvas.height = view
            self.canvas.layout.max_width = f"{view[0]}px"
        self.geo = self.geo.with_view(scale, self.geo.pan, view)
        self.redraw()

    def _height_for(self, scale: float) -> int:
        """The canvas height at zoom *scale*: the fitted canvas's, or taller where the map at that zoom needs it
        and the page has room (a strip of ten boards zoomed in); a canvas size the caller fixed stays."""
        if self._fixed_view:
            return self.view[1]
        return int(max(self._base_h, min(self._room_h, self.geo.height_at(scale))))

    # -- zoom and pan ------------------------------------------------------------
    def set_view(self, scale: float, pan: tuple[float, float], *, hover: bool = True) -> None:
        """Zoom to *scale* (canvas pixels per board pixel) with the map's point *pan* at the top left."""
        scale = max(min(self.fit_scale, 1.0), min(MAX_SCALE, scale))
        self._zoomed = abs(scale - self.fit_scale) > 1e-9
        view = (self.view[0], self._height_for(scale))
        geo = self.geo.with_view(scale, pan, view)
        if (geo.scale, geo.pan) == (self.geo.scale, self.geo.pan) and view == self.view:
            return
        if view != self.view:  # the map needs more (or less) height at this zoom: the canvas follows
            self.view = view
            self.canvas.height = view[1]
        self.geo = geo
        self.redraw()

    def zoom_by(self, factor: float, at: tuple[float, float] | None = None) -> None:
        """Zoom by *factor* keeping the map point under canvas point *at* (default: the centre) in place."""
        ax, ay = at if at is not None else (self.view[0] / 2, self.view[1] / 2)
        mx, my = self.geo.to_map(ax, ay)
        scale = max(min(self.fit_scale, 1.0), min(MAX_SCALE, self.geo.scale * factor))
        g = self.geo.with_view(scale, (0.0, 0.0))
        cx, cy = g.to_canvas(mx, my)
        self.set_view(scale, (cx - ax, cy - ay))

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the view by (dx, dy) canvas pixels."""
        self.set_view(self.geo.scale, (self.geo.pan[0] + dx, self.geo.pan[1] + dy))

    def show_hex(self, h: Hex | str, scale: float | None = None) -> None:
        """Centre the view on hex *h* (a name or a Hex), zooming to *scale* if given."""
        hx = self.session.position.map.parse_hex(h) if isinstance(h, str) else h
        g = self.geo.with_view(scale or self.geo.scale, (0.0, 0.0))
        x, y = g.centre(hx)
        self.set_view(g.scale, (x - self.view[0] / 2, y - self.view[1] / 2))

    # -- overlays --------------------------------------------------------------
    def set_overlay(self, which: str) -> None:
        """``none``, ``odds`` (exact, this AFPh) or ``forecast`` (after the last forecast run)."""
        if which not in ("none", "odds", "forecast"):
            raise BadInput(f"overlay {which!r}: expected none, odds or forecast")
        self.overlay = which
        if self.overlay_choice.value != which:
            self.overlay_choice.value = which
        forecast_shown = "" if which == "forecast" else "none"
        for w in (self.fc_button, self.fc_trials, self.progress):
            w.layout.display = forecast_shown
        if which == "forecast" and self.session.forecast_result is None:
            self.run_forecast()
            return
        self.redraw_layers((OVERLAY,))
        self._refresh_legend()

    def run_forecast(self) -> None:
        """Run the multi-turn forecast with the progress bar, then show it."""
        self.progress.value = 0.0
        self.progress.bar_style = "info"

        def tick(f: float) -> None:
            self.progress.value = f

        first: list[int] = []

        def early(fc: Forecast) -> None:  # the first chunk's picture, shown while the others run
            if not first:
                first.append(fc.trials)
                self._show_forecast()

        self._fc_running = self.fc_trials.value
        try:
            self.session.run_forecast(self.fc_turns.value, self.fc_trials.value, seed=self.session.seed,
                                      progress=tick, partial=early)
        finally:
            self._fc_running = None
        self.progress.value = 1.0
        self.progress.bar_style = "success"
        self._show_forecast()
        self._refresh_controls()

    def _show_forecast(self) -> None:
        """Draw the session's forecast as the overlay, with its title and legend."""
        self.overlay = "forecast"
        if self.overlay_choice.value != "forecast":
            self.overlay_choice.value = "forecast"  # (its observer draws the overlay and the legend)
            return
        self.redraw_layers((OVERLAY,))
        self._refresh_legend()

    def _overlay_title(self) -> tuple[str, str]:
        s = self.session
        if self.overlay == "odds":
            c = s.position.clock
            order = list(Phase)
            if order.index(c.phase) > order.index(Phase.AFPH):  # this Player Turn's AFPh is over: the next one
                n = c.next_player_turn()
                return f"Chance of a new Flame at the end of the next AFPh (Turn {n.turn}.{n.half} AFPh, B25.6)", ""
            return f"Chance of a new Flame at the end of this AFPh (Turn {c.turn}.{c.half} AFPh, B25.6)", ""
        if self.overlay == "forecast":
            fc = s.forecast_result
            if fc is None:
                return "Forecast: not run yet", "choose the forecast overlay to run it"
            done = (f"{fc.trials:,} of {self._fc_running:,} trials so far" if self._fc_running else
                    f"{fc.trials:,} trials")
            title = f"Chance a Location is burning after {fc.turns} Player Turns ({done}, from {fc.position.clock})"
            note = (f"Out of date: computed before the last change ({s.forecast_stale}); "
                    "press “run again” beside the overlay choice") if s.forecast_stale else ""
            return title, note
        return "", ""

    def _refresh_legend(self) -> None:
        title, note = self._overlay_title()
        if not title:
            self.legend.layout.display = "none"
            return
        value = legend_html(escape(title), escape(note))
        if self.legend.value != value:
            self.legend.value = value
        self.legend.layout.display = ""

    # -- drawing ---------------------------------------------------------------
    def redraw(self) -> None:
        """Redraw every layer in one message."""
        self.redraw_layers(tuple(range(len(LAYERS))))

    def redraw_layers(self, layers: tuple[int, ...]) -> None:
        """Redraw the given layers together in one ``hold_canvas()`` batch."""
        pos = self.session.position
        layers = tuple({OVERLAY if k == LABELS else k for k in layers})  # the labels are the overlay's own
        with hold_canvas():
            for k in sorted(set(layers)):
                if k == TERRAIN:
                    self.draw_counts["terrain"] = draw_terrain(self.canvas[TERRAIN], pos, self.geo, art=self.art,
                                                               tints=self.tints.value)
                elif k == OVERLAY:
                    self.draw_counts["overlay"] = {"hexes": self._draw_overlay()}
                elif k == FIRE:
                    self.draw_counts["fire"] = draw_fires(self.canvas[FIRE], pos, self.geo,
                                                          images=self.counter_images,
                                                          selected=self.session.selected_unit, hits=self.unit_boxes,
                                                          smoke=self.smoke.value)
                else:
                    draw_hover(self.canvas[HOVER], self.geo, self.hovered)
        self.redraws.append("+".join(LAYERS[k] for k in sorted(set(layers))))
        self._refresh_zoom_label()

    def _refresh_zoom_label(self) -> None:
        names = "hex names shown" if self.geo.scale >= LABEL_SCALE else "zoom in for hex names"
        g = self.geo
        value = (f"<span style='font-size:12px;color:{INK}' data-scale='{g.scale:.6f}' data-pan='{g.pan[0]:.2f},"
                 f"{g.pan[1]:.2f}' data-view='{self.view[0]},{self.view[1]}'>zoom {g.scale:.2f} · {names}</span>")
        if self.zoom_label.value != value:
            self.zoom_label.value = value

    def _draw_overlay(self) -> int:
        layer = self.canvas[OVERLAY]
        if self.overlay == "odds":
            self._overlay_drawn = True
            return draw_heat(layer, self.geo, self.session.odds_by_hex(), pos=self.session.position,
                             labels=self.canvas[LABELS])
        if self.overlay == "forecast" and self.session.forecast_result is not None:
            fc = self.session.forecast_result
            self._overlay_drawn = True
            heat = locations_heat(dict(zip(fc.locations, map(float, fc.burning), strict=True)))
            # A stale forecast stays in view, paler, and the legend says it is out of date.
            return draw_heat(layer, self.geo, heat, alpha=0.35 if self.session.forecast_stale else 0.72,
                             pos=self.session.position, labels=self.canvas[LABELS])
        self._overlay_drawn = False
        layer.clear()
        self.canvas[LABELS].clear()
        return 0

