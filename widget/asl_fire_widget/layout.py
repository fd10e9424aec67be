"""The widget's controls around the canvas: the toolbar, the phase control, the FT/MOL and Heat of Battle panels,
the latest result and the log, and VASL's pictures (board art, counter images).  :class:`Controls` is the base of
:class:`~asl_fire_widget.widget.FireWidget`, which adds the canvas, its events, zoom and pan, and the drawing.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as W  # noqa: N812 - the usual short name

from asl_vassal_bridge.core import EC, BadInput, Direction, Phase, Position, WindForce
from asl_vassal_bridge.core.units import Nationality

from .attacks import HOB_FLAGS, HOB_SITUATION
from .colours import ERROR as ERROR_INK
from .drawing import LABEL_SCALE, ArtTile, MapGeometry
from .phases import PHASE_NAMES, next_label, previous_clock
from .state import KINDLERS, TOOLS

if TYPE_CHECKING:
    from asl_vassal_bridge.vasl.unitart import UnitArt

__all__ = ["FIRE", "HOVER", "LABELS", "LATEST_LINES", "LAYERS", "LOG_PAGE", "OVERLAY", "TERRAIN", "VIEW", "Controls"]

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
    return max(240, min(900, window_height - 280))


def _canvas_size(pos: Position, width: int, window_height: int) -> tuple[int, int]:
    """The canvas for a map column *width* CSS pixels wide in a window *window_height* tall: as tall as the map
    fitted to that width (no empty band), at most what the window leaves beside the latest result and the legend;
    where that height is what limits the map, only as wide as the fitted map (no empty band beside it either).

    >>> from asl_vassal_bridge.scenarios import demo_position
    >>> _canvas_size(demo_position(), 900, 800), _canvas_size(demo_position(), 700, 768)
    ((700, 520), (656, 488))
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


class Controls(W.VBox):  # type: ignore[misc]
    """The controls of :class:`~asl_fire_widget.widget.FireWidget` (built and kept in step with its session)."""

    _unit_art: UnitArt | None = None
    _syncing = False

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
