"""``FireWidget``: the fire rules on a map, in Jupyter or Voilà (ipywidgets 8 + ipycanvas).

The canvas is a viewport onto the map with zoom (mouse wheel or the + / − buttons) and pan (drag,
or the arrow buttons).  Four canvas layers: the map (VASL's board art under the hex grid, or
terrain tints), the heat overlay, the fire counters and the hover outline; every redraw is one
``hold_canvas()`` batch, i.e. one message, and draws only what is in view.  In Voilà drawing
happens only from ``on_client_ready``; in JupyterLab the same callback draws when the view appears.

The turn, phase, EC and wind, the overlay's title and colour legend, and the log are HTML beside
the canvas.  The log keeps the whole history with the newest action on top (in view without
scrolling); each action sends only its own new lines.
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

from asl_vassal_bridge.core import EC, BadInput, Direction, Hex, Phase, Position, WindForce
from asl_vassal_bridge.core.units import Nationality

from .attacks import HOB_FLAGS, HOB_SITUATION
from .colours import ERROR as ERROR_INK
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
from .loader import LoadPanel
from .phases import PHASE_NAMES, next_label, previous_clock
from .probe import SizeProbe
from .state import KINDLERS, TOOLS, FireSession

if TYPE_CHECKING:
    from asl_vassal_bridge.core.forecast import Forecast
    from asl_vassal_bridge.vasl.unitart import UnitArt

__all__ = ["LAYERS", "FireWidget"]

#: Canvas layers, bottom to top: the overlay's percentages and names ("labels") are drawn with the overlay, above
#: the counters.
LAYERS = ("terrain", "overlay", "fire", "labels", "hover")
TERRAIN, OVERLAY, FIRE, LABELS, HOVER = range(5)

_TOOL_LABELS = {"inspect": "inspect / select unit", "flame": "Flame", "blaze": "Blaze", "wreck": "burning wreck",
                "remove": "remove", "kindling": "Kindling", "attack": "FT/MOL firer→target", "wp": "WP fire (MPh)",
                "he": "HE/DC KIA fire", "hut": "hut: colored dr 1", "huts": "huts of one attack"}

#: The canvas (the map's viewport) in pixels: beside a 360-px hex panel it fits a 1280-px screen.
VIEW = (840, 560)
ZOOM_STEP = 1.25
MAX_SCALE = 2.5
#: Lines of the latest result shown above the map (the log below has them all).
LATEST_LINES = 12
#: Log chunks (one per action) per page: a new page starts when one is full.
LOG_PAGE = 50
_WIND_ARROW = ("<svg width='22' height='22' viewBox='-11 -11 22 22' style='vertical-align:middle'>"
               "<circle r='10' fill='none' stroke='currentColor' stroke-width='1'/>{arrow}</svg>")
#: Colours of the HTML around the map: JupyterLab's theme variables (light and dark), with light fallbacks.
INK = "var(--jp-ui-font-color1, #222)"
MUTED = "var(--jp-ui-font-color2, #666)"
#: The error colour, mixed with the theme's text colour: ≥ 4.5:1 on the light and the dark background alike
#: (JupyterLab's dark error red alone is 4.4:1 on its background).
ERROR = ERROR_INK
BORDER = "var(--jp-border-color2, #ccc)"
PANEL = "var(--jp-layout-color1, #fff)"


def _wind_svg(pos: Position) -> str:
    w = pos.environment.wind
    if w.force is WindForce.NO_WIND or w.direction is None:
        return _WIND_ARROW.format(
            arrow="<text x='0' y='3' font-size='7' text-anchor='middle' fill='currentColor'>calm</text>")
    angle = (int(w.direction) - 1) * 60  # direction 1 points up, then clockwise (B.8)
    width = 3 if w.force is WindForce.HEAVY_WINDS else 2
    arrow = (f"<g transform='rotate({angle})'><line x1='0' y1='8' x2='0' y2='-6' stroke='currentColor' "
             f"stroke-width='{width}'/><polygon points='0,-9 -4,-3 4,-3' fill='currentColor'/></g>")
    return _WIND_ARROW.format(arrow=arrow)


def _wrap() -> W.Layout:
    return W.Layout(flex_flow="row wrap", align_items="center", width="100%")


#: The page's own styling the widget corrects: the tab titles (FT / MOL, Heat of Battle) in the theme's text colour
#: (ipywidgets' inactive tabs are grey on grey, 4.4:1).
_STYLE = ("<style>.asl-fire-widget .lm-TabBar-tab, .asl-fire-widget .p-TabBar-tab "
          "{color: var(--jp-ui-font-color1, #222) !important;}</style>")


def _field() -> W.Layout:
    """A form field's own layout (one per field: a field hidden with its weapon hides nothing else)."""
    return W.Layout(width="150px")


def _log_chunk(lines: list[str], undone: tuple[bool, ...] = ()) -> str:
    """One action's log lines as HTML; lines of an undone action are struck through and say so."""
    out = []
    for k, line in enumerate(lines):
        text = escape(line)
        if k < len(undone) and undone[k]:
            text = f"<s style='color:{MUTED}'>{text}</s> <i style='color:{MUTED}'>(undone)</i>"
        elif line.startswith("✗"):
            text = f"<span style='color:{ERROR}'>{text}</span>"
        out.append(text)
    return (f"<div style='white-space:pre-wrap;font-family:monospace;font-size:12px;line-height:1.35;color:{INK};"
            f"border-bottom:1px solid {BORDER}'>" + "\n".join(out) + "</div>")


def _latest_html(lines: list[str]) -> str:
    """The latest result above the map: the newest action's lines, a refusal in the theme's error colour; an action
    of several reports (step N: one per phase of each Player Turn) shows the newest report first."""
    blocks: list[list[str]] = []
    for line in lines:
        if line.startswith("— ") or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    lines = [line for block in reversed(blocks) for line in block]
    refused = any(line.startswith("✗") for line in lines)
    colour = ERROR if refused else INK
    shown = lines if len(lines) <= LATEST_LINES else [*lines[:LATEST_LINES - 1],
                                                      f"… {len(lines) - LATEST_LINES + 1} more lines in the log below"]
    body = "\n".join(escape(line) for line in shown)
    return (f"<div class='asl-latest-text' style='white-space:pre-wrap;font-family:monospace;font-size:12px;"
            f"line-height:1.35;"
            f"color:{colour};border-left:3px solid {ERROR if refused else BORDER};padding:2px 6px'>"
            f"<b style='font-family:sans-serif'>Latest:</b> {body}</div>")


def _label(text: str) -> W.HTML:
    """A row's label, on the row's own line with its buttons."""
    return W.HTML(f"<b style='color:{INK}'>{text}:</b>", layout=W.Layout(width="auto", margin="0 6px 0 2px"))


def _fit(pos: Position, view: tuple[int, int]) -> float:
    """The zoom at which the whole map fits *view*, in both directions."""
    full = MapGeometry(pos.map.hexes, 1.0)
    fits = ((view[0] - 16) / max(1, full.width - 16), (view[1] - 16) / max(1, full.height - 16))
    return float(max(0.05, min(1.0, *fits)))


def _room_height(window_height: int) -> int:
    """The tallest canvas a window *window_height* tall leaves room for under the toolbar, the latest result and
    the legend."""
    return max(240, min(900, window_height - 200))


def _canvas_size(pos: Position, width: int, window_height: int) -> tuple[int, int]:
    """The canvas for a map column *width* CSS pixels wide in a window *window_height* tall: as tall as the map
    fitted to that width (no empty band), at most what the window leaves beside the latest result and the legend;
    where that height is what limits the map, only as wide as the fitted map (no empty band beside it either).

    >>> from asl_vassal_bridge.scenarios import demo_position
    >>> _canvas_size(demo_position(), 900, 800), _canvas_size(demo_position(), 700, 768)
    ((808, 600), (700, 520))
    """
    width = max(240, width)
    tallest = _room_height(window_height)
    full = MapGeometry(pos.map.hexes, 1.0)
    by_width = min(1.0, (width - 16) / max(1, full.width - 16))
    needed = max(160, (full.height - 16) * by_width + 16)
    height = int(min(tallest, needed))
    if height < needed - 1:  # the window's height limits the map
        by_height = (height - 16) / max(1, full.height - 16)
        width = max(240, min(width, int((full.width - 16) * by_height + 16) + 1))
    return width, height


class FireWidget(W.VBox):  # type: ignore[misc]
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
        from .state import live_snapshot

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

        from .state import LoadError, live_snapshot, live_unit_pieces

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

    # -- VASL's pictures -------------------------------------------------------
    def _load_art(self) -> None:
        """VASL's board pictures for the map's boards, from the session's boards folder (if any)."""
        self.art = []
        self.art_error = ""
        s = self.session
        boards = s.position.map.layout.boards
        if s.boards_dir is None or not boards:
            return
        from asl_vassal_bridge.vasl.boardart import map_board_art

        try:
            pics = map_board_art(boards, s.boards_dir, s.crops, s.overlays)
        except BadInput as e:
            self.art_error = str(e)
            s.say(f"✗ board art: {e} (terrain tints shown instead)")
            return
        for a in pics:
            img = W.Image(value=a.png, format=a.format, width=a.width, height=a.height)
            self.art.append(ArtTile(img, a.origin[0], a.origin[1], a.width, a.height))

    def load_counter_images(self, vmod: str | Path) -> None:
        """Draw counters with VASL's own images, read from the user's ``VASL.vmod``."""
        from asl_vassal_bridge.vasl.boardart import counter_images
        from asl_vassal_bridge.vasl.counters import FireCounter

        try:
            found = counter_images(vmod)
        except BadInput as e:
            self.session.say(f"✗ counter images: {e}")
            self._refresh_log()
            return
        kinds = {FireCounter.FLAME: "flame", FireCounter.BLAZE: "blaze", FireCounter.WRECK: "wreck",
                 FireCounter.BURNT_OUT_WRECK: "wreck", FireCounter.SMOKE: "smoke", FireCounter.LEVEL: "level"}
        images: dict[str, W.Image] = {}
        for fc, key in kinds.items():
            ci = found.get(fc)
            if ci is not None and key not in images:
                images[key] = W.Image(value=ci.data, format=ci.format)
        if "wreck" in images:
            images["burning-wreck"] = images["wreck"]
        self.counter_images = images
        from asl_vassal_bridge.vasl.unitart import UnitArt

        self._unit_art = UnitArt(vmod)
        units = self._load_unit_images()
        self.session.say(f"counter images from {vmod}: {', '.join(sorted(images)) or 'none found'}"
                         + (f"; {units} of {len(self.session.position.units)} units in VASL's own pictures"
                            if self.session.unit_pieces else ""))
        self.redraw_layers((FIRE,))

    def _load_unit_images(self) -> int:
        """VASL's own picture of each unit read from a saved game or a live game (its piece's images, else its
        module slot's, by gpid), keyed as :func:`~asl_vassal_bridge.mapview.unit_image_key`; returns how many."""
        from asl_vassal_bridge.mapview import unit_image_key

        art = self._unit_art
        images = {k: v for k, v in self.counter_images.items() if not k.startswith("unit:")}
        found = 0
        if art is not None:
            for u in self.session.position.units:
                piece = self.session.unit_pieces.get(u.id)
                if piece is None:
                    continue
                try:
                    pic = art.picture(art.names_for(piece))
                except BadInput as e:
                    self.session.say(f"✗ unit pictures: {e}")
                    break
                if pic is not None:
                    images[unit_image_key(u)] = W.Image(value=pic.png, format="png", width=pic.width,
                                                        height=pic.height)
                    found += 1
        self.counter_images = images
        return found

    # -- controls ------------------------------------------------------------
    def _build_controls(self) -> None:
        s = self.session
        self.header = W.HTML(layout=W.Layout(width="100%"))
        self.tools = W.ToggleButtons(options=[(_TOOL_LABELS[t], t) for t in TOOLS], value=s.tool,
                                     style={"button_width": "auto"}, layout=W.Layout(width="auto"))
        self.tools.observe(lambda c: setattr(self.session, "tool", c["new"]), "value")
        self.huts_button = W.Button(description="roll hut Flame", layout=W.Layout(width="auto"),
                                    tooltip="the picked huts' attack rolled colored dr 1: one Flame, by Random "
                                    "Selection (huts)")
        self.huts_button.on_click(lambda _: self._act(self.session.roll_huts))
        self.level = W.Dropdown(options=[("ground", 0), ("level 1", 1), ("level 2", 2), ("level 3", 3)],
                                value=0, description="Level:", layout=W.Layout(width="170px"),
                                style={"description_width": "45px"})
        self.level.observe(lambda c: setattr(self.session, "level", c["new"]), "value")
        self.kindler = W.Dropdown(options=list(KINDLERS), value=s.kindler, description="Kindler:",
                                  layout=W.Layout(width="280px"), style={"description_width": "55px"})
        self.kindler.observe(lambda c: setattr(self.session, "kindler", c["new"]), "value")
        self.wind_force = W.Dropdown(options=[(f.label, f) for f in WindForce], description="Wind:",
                                     layout=W.Layout(width="210px"), style={"description_width": "45px"})
        self.wind_dir = W.Dropdown(options=[(str(int(d)), d) for d in Direction], description="to",
                                   layout=W.Layout(width="90px"), style={"description_width": "20px"})
        self.ec = W.Dropdown(options=[(f"{e.label} ({e.drm:+d})", e) for e in EC], description="EC:",
                             layout=W.Layout(width="230px"), style={"description_width": "30px"})
        self.wind_force.observe(self._wind_changed, "value")
        self.wind_dir.observe(self._wind_changed, "value")
        self.ec.observe(self._ec_changed, "value")
        self.rph_button = W.Button(description="RPh wind change", tooltip="Wind Change DR (B25.65)",
                                   layout=W.Layout(width="auto"))
        self.afph_button = W.Button(description="end-of-AFPh upkeep", layout=W.Layout(width="auto"),
                                    tooltip="Flame→Blaze then Spreading Fire (B25.151, B25.6)")
        #: Player Turns, for a step and for the forecast alike.
        self.turns = W.BoundedIntText(value=4, min=1, max=50, description="Player Turns",
                                      layout=W.Layout(width="150px"), style={"description_width": "85px"})
        self.step_button = W.Button(description="step N", tooltip="N Player Turns of fire upkeep",
                                    layout=W.Layout(width="auto"))
        self.undo_button = W.Button(description="undo", icon="undo", layout=W.Layout(width="80px"))
        self.redo_button = W.Button(description="redo", icon="repeat", layout=W.Layout(width="80px"))
        self.refresh_live_button = W.Button(description="re-read live game",
                                            layout=W.Layout(display="none", width="auto"))
        self.rph_button.on_click(lambda _: self._act(self.session.rph))
        self.afph_button.on_click(lambda _: self._act(self.session.afph))
        self.step_button.on_click(lambda _: self._act(lambda: self.session.step(self.turns.value)))
        self.step_one = W.Button(description="step 1", tooltip="one Player Turn: RPh wind change, end-of-AFPh upkeep",
                                 layout=W.Layout(width="auto"))
        self.step_one.on_click(lambda _: self._act(lambda: self.session.step(1)))
        self.undo_button.on_click(lambda _: self._act(self.session.undo))
        self.redo_button.on_click(lambda _: self._act(self.session.redo))
        self.refresh_live_button.on_click(lambda _: self._act(self.refresh_live))
        self.overlay_choice = W.ToggleButtons(options=[("no overlay", "none"), ("odds this AFPh", "odds"),
                                                       ("forecast", "forecast")], value="none",
                                              style={"button_width": "auto"}, layout=W.Layout(width="auto"))
        self.overlay_choice.observe(lambda c: self.set_overlay(c["new"]), "value")
        self.fc_turns = self.turns  # one "Player Turns" box for steps and forecasts
        self.fc_trials = W.BoundedIntText(value=5000, min=100, max=1_000_000, step=1000, description="trials",
                                          layout=W.Layout(width="160px", display="none"),
                                          style={"description_width": "45px"})
        self.fc_button = W.Button(description="run again", layout=W.Layout(width="auto", display="none"),
                                  tooltip="choosing the forecast overlay runs it; this runs it again (after a "
                                  "change, or with other Player Turns or trials)")
        self.fc_button.add_class("asl-run-forecast")
        self.fc_button.on_click(lambda _: self.run_forecast())
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0, description="forecast",
                                        layout=W.Layout(width="260px", display="none"))
        # The phase control: the clock, previous / next phase (leaving the RPh or AFPh rolls what it must), jump to.
        self.prev_phase = W.Button(description="◀ previous", tooltip="the clock one phase back (nothing is rolled "
                                   "or undone; undo takes rolls back)", layout=W.Layout(width="auto"))
        self.next_phase = W.Button(description="next ▶", layout=W.Layout(width="auto"), button_style="")
        self.next_phase.add_class("asl-next-phase")
        self.jump_phase = W.Dropdown(options=[(f"{p.value} ({PHASE_NAMES[p]})", p) for p in Phase],
                                     description="jump to", layout=W.Layout(width="250px"),
                                     style={"description_width": "55px"})
        self.jump_phase.add_class("asl-jump-phase")
        self.prev_phase.on_click(lambda _: self._act(self.session.previous_phase))
        self.next_phase.on_click(lambda _: self._act(self.session.next_phase))
        self.jump_phase.observe(self._jump_changed, "value")
        self.phase_bar = W.HBox([self.prev_phase, self.next_phase, self.jump_phase],
                                layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.phase_bar.add_class("asl-phase-control")
        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.toolbar = W.VBox([
            W.HBox([_label("Click"), self.tools, self.huts_button], layout=row),
            W.HBox([self.level, self.kindler, self.wind_force, self.wind_dir, self.ec], layout=row),
            W.HBox([self.rph_button, self.afph_button, self.step_one, self.turns, self.step_button,
                    self.undo_button, self.redo_button, self.refresh_live_button], layout=row),
            W.HBox([_label("Overlay"), self.overlay_choice, self.fc_trials, self.fc_button, self.progress],
                   layout=row),
        ])
        # The latest result (rolls, refusals) right above the map: in view without scrolling.
        self.latest = W.HTML(layout=W.Layout(width="100%", max_height="96px", overflow="auto"))
        self.latest.add_class("asl-latest")
        self.legend = W.HTML(layout=W.Layout(display="none"))
        self.legend.add_class("asl-legend-box")
        # Navigation: zoom and pan by buttons too (the wheel zooms at the mouse, a drag pans).
        nb = W.Layout(width="36px", padding="0")
        self.zoom_in = W.Button(description="+", tooltip="zoom in (or the mouse wheel)", layout=nb)
        self.zoom_out = W.Button(description="−", tooltip="zoom out (or the mouse wheel)", layout=nb)
        self.zoom_fit = W.Button(description="fit", tooltip="the whole map", layout=W.Layout(width="48px"))
        self.zoom_names = W.Button(description="names", tooltip="zoom in until hex names show",
                                   layout=W.Layout(width="64px"))
        pans = {"◀": (-1, 0), "▶": (1, 0), "▲": (0, -1), "▼": (0, 1)}
        pan_buttons = []
        for label, (dx, dy) in pans.items():
            b = W.Button(description=label, tooltip="pan (or drag the map)", layout=nb)
            b.on_click(lambda _, dx=dx, dy=dy: self.pan_by(dx * self.view[0] * 0.4, dy * self.view[1] * 0.4))
            pan_buttons.append(b)
        self.zoom_in.on_click(lambda _: self.zoom_by(ZOOM_STEP))
        self.zoom_out.on_click(lambda _: self.zoom_by(1 / ZOOM_STEP))
        self.zoom_fit.on_click(lambda _: self.set_view(self.fit_scale, (0.0, 0.0)))
        self.zoom_names.on_click(lambda _: self.zoom_by(max(1.0, LABEL_SCALE / self.geo.scale)))
        self.zoom_label = W.HTML()
        self.zoom_label.add_class("asl-zoom")
        self.tints = W.Checkbox(value=False, description="terrain tints", indent=False,
                                layout=W.Layout(width="auto"))
        self.smoke = W.Checkbox(value=True, description="smoke", indent=False, layout=W.Layout(width="auto"),
                                tooltip="show the smoke counters (B25.2); untick to see what lies under them")
        self.smoke.observe(lambda _: self.redraw_layers((FIRE,)), "value")
        self.nav = W.HBox([self.zoom_out, self.zoom_in, self.zoom_fit, self.zoom_names, *pan_buttons,
                           self.zoom_label, self.tints, self.smoke],
                          layout=W.Layout(flex_flow="row wrap", align_items="center"))
        self.info = W.HTML(value="<i>hover a hex</i>", layout=W.Layout(width="100%"))
        self.side = W.VBox([W.HTML(f"<b style='color:{INK}'>Hex</b> <span style='color:{MUTED}'>(hover the "
                                   "map)</span>"), self.info],
                           layout=W.Layout(min_width="200px", flex="1 1 220px", max_width="380px",
                                           max_height=f"{VIEW[1] + 80}px", overflow="auto"))
        self.side.add_class("asl-hex-panel")
        self.canvas_box = W.Box([self.canvas], layout=W.Layout(width="100%", overflow="hidden"))
        # The log: one HTML entry per action, the newest on top of a scroll box, so it is in view without
        # any scrolling (a box anchored at its bottom lost its place in JupyterLab); lines of one action
        # read downwards.
        self.log_pages = W.VBox([])
        self.log_scroll = W.Box([self.log_pages], layout=W.Layout(
            max_height="220px", overflow="auto", border=f"1px solid {BORDER}"))
        self.log_scroll.add_class("asl-log")
        self.log_box = W.VBox([W.HTML("<b>Rolls and events</b> (rule numbers in brackets; the whole history, "
                                      "newest action first)"), self.log_scroll])
        self._log_shown = 0
        self._log_page: W.VBox | None = None
        self._chunks: dict[int, tuple[W.HTML, list[str]]] = {}  # log index of its first line → entry
        self._undone_seen: frozenset[tuple[int, int]] = frozenset()
        self._syncing = False

    # -- FT / MOL panel (A22) ------------------------------------------------------
    def _build_attack_panel(self) -> None:
        f = self.session.attack_form
        st = {"description_width": "70px"}
        self.att: dict[str, W.Widget] = {
            "weapon": W.ToggleButtons(options=["MOL", "FT"], value=f.weapon, style={"button_width": "60px"}),
            "firer_unit": W.Dropdown(options=[("(none)", "")], description="firer unit", style=st,
                                     layout=W.Layout(width="330px")),
            "firer": W.Text(value=f.firer, description="firer Loc", placeholder="I4.1", style=st, layout=_field()),
            "target": W.Text(value=f.target, description="target Loc", placeholder="I5.1", style=st, layout=_field()),
            "phase": W.Dropdown(options=[("position's", "")] + [(ph.value, ph) for ph in Phase], value="",
                                description="phase", style=st, layout=W.Layout(width="180px")),
            "fp": W.FloatText(value=f.fp, description="MOL FP", style=st, layout=_field()),
            "fg_fp": W.FloatText(value=f.fg_fp, description="FG FP", style=st, layout=_field()),
            "fg_units": W.BoundedIntText(value=f.fg_units, min=1, max=20, description="FG units", style=st,
                                         layout=_field()),
            "leader_drm": W.BoundedIntText(value=f.leader_drm, min=-5, max=0, description="leader", style=st,
                                           layout=_field()),
            "hindrance_drm": W.BoundedIntText(value=f.hindrance_drm, min=0, max=6, description="FT Hindr.",
                                              style=st, layout=_field()),
            "basic_tk": W.BoundedIntText(value=0, min=0, max=30, description="Basic TK#", style=st, layout=_field()),
            "ift_result": W.Text(value=f.ift_result, description="IFT result", placeholder="KIA, K/2, 1MC…",
                                 style=st, layout=W.Layout(width="200px")),
        }
        checks = {"cx": "CX", "pinned": "pinned", "available": "MOL available (A22.6)", "area_fire": "FT Area Fire",
                  "non_elite": "FT non-elite", "captured": "FT captured", "vs_afv": "vs AFV",
                  "predesignated": "AFV predesignated", "afv_ce": "AFV CE", "afv_ot": "AFV OT",
                  "vulnerable_prc": "Vulnerable PRC", "afv_moving": "AFV moving"}
        for k, label in checks.items():
            self.att[k] = W.Checkbox(value=bool(getattr(f, k)), description=label, indent=False,
                                     layout=W.Layout(width="auto"))
        for w in self.att.values():
            w.observe(self._attack_changed, "value")
        self.attack_preview = W.HTML(layout=W.Layout(width="100%"))
        self.resolve_button = W.Button(description="Resolve (roll)", button_style="danger",
                                       tooltip="roll the attack with the widget's dice and apply it")
        self.resolve_button.on_click(lambda _: self._act(self.session.resolve_attack))
        a = self.att
        a["weapon"].observe(lambda _: self._show_weapon_fields(), "value")
        self._show_weapon_fields()
        self.attack_box = W.VBox([
            W.HBox([a["weapon"], a["firer_unit"], a["firer"], a["target"], a["phase"]], layout=_wrap()),
            W.HBox([a["fp"], a["fg_fp"], a["fg_units"], a["leader_drm"], a["cx"], a["pinned"], a["available"]],
                   layout=_wrap()),
            W.HBox([a["area_fire"], a["non_elite"], a["captured"], a["hindrance_drm"]], layout=_wrap()),
            W.HBox([a["vs_afv"], a["predesignated"], a["basic_tk"], a["afv_ce"], a["afv_ot"], a["vulnerable_prc"],
                    a["afv_moving"]], layout=_wrap()),
            W.HBox([a["ift_result"], self.resolve_button], layout=_wrap()),
            self.attack_preview,
        ])

    #: The attack form's fields of one weapon only (A22.6 MOL, A22.1–A22.3 FT); the others serve both.
    MOL_FIELDS = ("fp", "fg_fp", "fg_units", "available", "afv_moving")
    FT_FIELDS = ("area_fire", "non_elite", "captured", "hindrance_drm")

    def _show_weapon_fields(self) -> None:
        """Show the chosen weapon's own fields only."""
        weapon = self.att["weapon"].value
        for k in self.MOL_FIELDS:
            self.att[k].layout.display = "" if weapon == "MOL" else "none"
        for k in self.FT_FIELDS:
            self.att[k].layout.display = "" if weapon == "FT" else "none"

    def _attack_changed(self, _: object) -> None:
        if self._syncing:
            return
        values = {k: w.value for k, w in self.att.items()}
        values["basic_tk"] = values["basic_tk"] or None
        values["phase"] = values["phase"] or None  # "": the Position's phase
        self.session.set_attack(**values)

    # -- Heat of Battle panel (A15) --------------------------------------------------
    def _build_hob_panel(self) -> None:
        f = self.session.hob_form
        st = {"description_width": "80px"}
        self.hob: dict[str, W.Widget] = {
            "unit_id": W.Dropdown(options=[("(typed)", "")], description="unit", style=st,
                                  layout=W.Layout(width="330px")),
            "designation": W.Text(value=f.designation, description="or type", placeholder="4-6-7 or 8-1",
                                  style=st, layout=W.Layout(width="180px")),
            "nationality": W.Dropdown(options=[("from the unit's side", "")] + [(n.label, n) for n in Nationality],
                                      value="", description="nationality", style=st,
                                      layout=W.Layout(width="300px")),
            "unit_class": W.Dropdown(options=[("catalogue", ""), ("Elite", "elite"), ("1st Line", "1st"),
                                              ("2nd Line", "2nd"), ("Green", "green"), ("Conscript", "conscript")],
                                     value="", description="class", style=st, layout=W.Layout(width="200px")),
            "size": W.Dropdown(options=[("catalogue", ""), ("squad", "squad"), ("half-squad", "half-squad"),
                                        ("crew", "crew")], value="", description="size", style=st,
                               layout=W.Layout(width="200px")),
        }
        self.hob_flags: dict[str, W.Checkbox] = {
            k: W.Checkbox(value=k in f.flags, description=label, indent=False, layout=W.Layout(width="auto"))
            for k, label in {**HOB_FLAGS, **HOB_SITUATION}.items()}
        for w in (*self.hob.values(), *self.hob_flags.values()):
            w.observe(self._hob_changed, "value")
        self.hob_preview = W.HTML(layout=W.Layout(width="100%"))
        self.hob_button = W.Button(description="Roll Heat of Battle", button_style="warning",
                                   tooltip="roll the DR with the widget's dice (A15.1)")
        self.hob_button.on_click(lambda _: self._act(self.session.roll_hob))
        h = self.hob
        flags = list(self.hob_flags.values())
        self.hob_box = W.VBox([
            W.HBox([h["unit_id"], h["designation"], h["nationality"]], layout=_wrap()),
            W.HBox([h["unit_class"], h["size"], self.hob_button], layout=_wrap()),
            W.HBox(flags[:len(HOB_FLAGS)], layout=W.Layout(flex_flow="row wrap")),
            W.HBox(flags[len(HOB_FLAGS):], layout=W.Layout(flex_flow="row wrap")),
            self.hob_preview,
        ])

    def _hob_changed(self, _: object) -> None:
        if self._syncing:
            return
        values: dict[str, Any] = {k: w.value for k, w in self.hob.items()}
        values["nationality"] = values["nationality"] or None  # "": from the unit's side
        values["flags"] = frozenset(k for k, w in self.hob_flags.items() if w.value)
        self.session.set_hob(**values)

    def _refresh_panels(self) -> None:
        """Sync the FT/MOL and Heat of Battle forms with the session, and show their previews."""
        s = self.session
        pos = s.position
        units = [(f"{u.id}: {u.name} {u.side} in {pos.loc_name(u.location)}", u.id) for u in pos.units]
        self._syncing = True
        try:
            fu = self.att["firer_unit"]
            opts = [("(none)", ""), *units]
            if list(fu.options) != opts:
                fu.options = opts
            hu = self.hob["unit_id"]
            opts = [("(typed)", ""), *units]
            if list(hu.options) != opts:
                hu.options = opts
            ids = {u.id for u in pos.units}
            for k, w in self.att.items():
                v = getattr(s.attack_form, k)
                if k == "firer_unit":
                    v = v if v in ids else ""
                elif k == "basic_tk":
                    v = v or 0
                elif k == "phase":
                    v = v if v is not None else ""
                w.value = v
            for k, w in self.hob.items():
                v = getattr(s.hob_form, k)
                w.value = (v if v in ids else "") if k == "unit_id" else ("" if v is None else v)
            for k, cb in self.hob_flags.items():
                cb.value = k in s.hob_form.flags
        finally:
            self._syncing = False
        pv = s.attack_preview()
        self.attack_preview.value = pv.html()
        self.resolve_button.disabled = not pv.legal
        hp = s.hob_preview()
        self.hob_preview.value = hp.html()
        self.hob_button.disabled = not hp.ok

    def _refresh_controls(self) -> None:
        pos = self.session.position
        self._syncing = True
        try:
            self.wind_force.value = pos.environment.wind.force
            if pos.environment.wind.direction is not None:
                self.wind_dir.value = pos.environment.wind.direction
            self.ec.value = pos.environment.ec
        finally:
            self._syncing = False
        src = f" · {self.session.read_only_source} (read-only)" if self.session.read_only_source else ""
        header = (f"<div style='font-size:14px'><b>{escape(pos.name or 'position')}</b> — "
                  f"{escape(self.session.status())}{escape(src)} {_wind_svg(pos)}</div>")
        if self.header.value != header:
            self.header.value = header
        c = pos.clock
        self.next_phase.description = next_label(c)
        self.prev_phase.disabled = previous_clock(c) is None
        if self.jump_phase.value is not c.phase:
            self._syncing = True
            try:
                self.jump_phase.value = c.phase
            finally:
                self._syncing = False
        self._refresh_log()
        self.undo_button.disabled = not self.session.undo_stack
        self.redo_button.disabled = not self.session.redo_stack

    @property
    def log_html(self) -> str:
        """Every log line shown, as HTML, oldest first."""
        return "".join(chunk.value for page in reversed(self.log_pages.children) for chunk in reversed(page.children))

    def _refresh_log(self) -> None:
        """Show the log lines not shown yet as one new HTML chunk: lines already sent are never sent again.

        Chunks go in pages of :data:`LOG_PAGE` chunks, so a new chunk re-sends at most one short list of
        widget ids, whatever the length of the history.
        """
        log = self.session.log
        if self._log_shown > len(log):  # the log was replaced: start again
            self.log_pages.children = ()
            self._log_shown, self._log_page = 0, None
            self._chunks.clear()
        self._mark_undone()
        new = log[self._log_shown:]
        if not new:
            return
        start, self._log_shown = self._log_shown, len(log)
        chunk = W.HTML(_log_chunk(new))
        chunk.add_class("asl-log-entry")
        self._chunks[start] = (chunk, new)
        self.latest.value = _latest_html(new)
        if self._log_page is None or len(self._log_page.children) >= LOG_PAGE:
            self._log_page = W.VBox([chunk])
            self.log_pages.children = (self._log_page, *self.log_pages.children)
        else:
            self._log_page.children = (chunk, *self._log_page.children)

    def _mark_undone(self) -> None:
        """Mark the log entries of undone actions (and unmark redone ones): only those entries are re-sent."""
        spans = frozenset(self.session.undone_spans)
        changed = spans ^ self._undone_seen
        if not changed:
            return
        self._undone_seen = spans
        undone = self.session.undone_lines()
        for start, (chunk, lines) in self._chunks.items():
            end = start + len(lines)
            if not any(a < end and start < b for a, b in changed):
                continue
            value = _log_chunk(lines, tuple(start + k in undone for k in range(len(lines))))
            if chunk.value != value:
                chunk.value = value

    def _wind_changed(self, _: object) -> None:
        if self._syncing:
            return
        force = self.wind_force.value
        self._act(lambda: self.session.set_wind(force, self.wind_dir.value))

    def _jump_changed(self, _: object) -> None:
        if self._syncing or self.jump_phase.value is self.session.position.clock.phase:
            return
        phase = self.jump_phase.value
        self._act(lambda: self.session.set_phase(phase))

    def _ec_changed(self, _: object) -> None:
        if self._syncing:
            return
        self._act(lambda: self.session.set_ec(self.ec.value))

    def _act(self, action: Callable[[], object]) -> None:
        try:
            action()
        except BadInput as e:
            self.session.say(f"✗ {e}")
        self._refresh_controls()

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

