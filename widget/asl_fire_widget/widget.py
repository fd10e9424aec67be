"""``FireWidget``: the fire rules on a map, in Jupyter or Voilà (ipywidgets 8 + ipycanvas).

Four canvas layers: static terrain (drawn when a client is ready or the map
changes), the heat overlay, the fire layer (redrawn on every change) and the
hover outline.  Every redraw is one ``hold_canvas()`` batch, i.e. one
message.  In Voilà drawing happens only from ``on_client_ready``; in
JupyterLab the same callback draws when the view appears.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as W  # noqa: N812 - the usual short name
from ipycanvas import MultiCanvas, hold_canvas

from asl_vassal_bridge.core import EC, BadInput, Direction, Hex, Phase, Position, WindForce
from asl_vassal_bridge.core.units import Nationality

from .attacks import HOB_FLAGS, HOB_SITUATION
from .drawing import MapGeometry, draw_fires, draw_heat, draw_hover, draw_terrain, locations_heat
from .state import KINDLERS, TOOLS, FireSession

__all__ = ["LAYERS", "FireWidget"]

#: Canvas layers, bottom to top.
LAYERS = ("terrain", "overlay", "fire", "hover")
TERRAIN, OVERLAY, FIRE, HOVER = range(4)

_TOOL_LABELS = {"inspect": "inspect", "flame": "Flame", "blaze": "Blaze", "wreck": "burning wreck",
                "remove": "remove", "kindling": "Kindling", "attack": "FT/MOL firer→target"}


def _fit_scale(pos: Position, max_width: int) -> float:
    geo = MapGeometry(pos.map.hexes, 1.0)
    return float(max(0.08, min(1.0, max_width / max(1, geo.width))))


class FireWidget(W.VBox):  # type: ignore[misc]
    """Explore fire on a map: click tools, RPh/AFPh buttons, odds and forecast overlays, FT/MOL and HoB panels, a log.

    >>> w = FireWidget.demo(seed=1)  # doctest: +SKIP
    >>> w  # doctest: +SKIP
    """

    hover_interval = 0.05  # seconds between hover updates at most

    def __init__(self, session: FireSession, *, scale: float | None = None, max_width: int = 980) -> None:
        self.session = session
        self.scale = scale if scale is not None else _fit_scale(session.position, max_width)
        self.geo = MapGeometry(session.position.map.hexes, self.scale)
        self._map_id = id(session.position.map)
        self.canvas = MultiCanvas(len(LAYERS), width=self.geo.width, height=self.geo.height)
        self.canvas.layout.width = f"{self.geo.width}px"
        self.overlay = "none"
        self.hovered: Hex | None = None
        self._last_hover = 0.0
        self.draw_counts: dict[str, dict[str, int]] = {}
        self.redraws: list[str] = []  # which layers were redrawn, in order (for tests and benchmarks)
        self.ready_count = 0
        self._build_controls()
        for k in range(len(LAYERS)):
            self.canvas[k].on_client_ready(self._ready_callback(k))
        self.canvas.on_mouse_move(self._on_mouse_move)
        self.canvas.on_mouse_down(self._on_mouse_down)
        self.canvas.on_mouse_out(lambda x, y: self.hover_at(None))
        session.listeners.append(self._on_session_change)
        self._build_attack_panel()
        self._build_hob_panel()
        self.panels = W.Tab(children=[self.attack_box, self.hob_box], titles=["FT / MOL (A22)",
                                                                               "Heat of Battle"])
        super().__init__([self.header, self.toolbar, W.HBox([self.canvas_box, self.side],
                                                                layout=W.Layout(flex_flow="row wrap")),
                          self.panels, self.log_box])
        self._refresh_controls()
        self._refresh_panels()

    # -- constructors --------------------------------------------------------
    @classmethod
    def demo(cls, seed: int | None = None, **kw: Any) -> FireWidget:
        """The embedded demo scenario."""
        return cls(FireSession.demo(seed), **kw)

    @classmethod
    def from_file(cls, path: str | Path, boards: str | Path | None = None, seed: int | None = None,
                  **kw: Any) -> FireWidget:
        """A position file, or a ``.vsav`` with its boards folder."""
        return cls(FireSession.from_file(path, boards, seed), **kw)

    @classmethod
    def from_position(cls, pos: Position, seed: int | None = None, **kw: Any) -> FireWidget:
        return cls(FireSession(pos, seed=seed), **kw)

    @classmethod
    def live(cls, client: Any = None, boards: str | Path | None = None, seed: int | None = None,
             **kw: Any) -> FireWidget:
        """The position of a running VASSAL game through the bridge, read-only.

        *client* is a connected ``asl_vassal_bridge.bridge.client.BridgeClient`` (default: connect
        through the extension's connection file).  Nothing is ever sent to the game from the widget.
        """
        if client is None:
            from asl_vassal_bridge.bridge.client import connect

            client = connect()
        w = cls(FireSession.from_snapshot(client.snapshot(), boards, seed), **kw)
        w._live_client = client
        w._live_boards = boards
        w.refresh_live_button.layout.display = ""
        return w

    def refresh_live(self) -> None:
        """Read the live game again (read-only) and show it."""
        client = getattr(self, "_live_client", None)
        if client is None:
            return
        from asl_vassal_bridge.bridge.convert import position_from_snapshot

        boards = getattr(self, "_live_boards", None)
        game = position_from_snapshot(client.snapshot(), boards_dir=Path(boards) if boards else None)
        self.session.replace_position(game.position, "live VASSAL game")

    # -- controls ------------------------------------------------------------
    def _build_controls(self) -> None:
        s = self.session
        self.header = W.HTML()
        self.tools = W.ToggleButtons(options=[(_TOOL_LABELS[t], t) for t in TOOLS], value=s.tool,
                                     description="Click:", style={"button_width": "auto"})
        self.tools.observe(lambda c: setattr(self.session, "tool", c["new"]), "value")
        self.level = W.Dropdown(options=[("ground", 0), ("level 1", 1), ("level 2", 2), ("level 3", 3)],
                                value=0, description="Level:", layout=W.Layout(width="160px"))
        self.level.observe(lambda c: setattr(self.session, "level", c["new"]), "value")
        self.kindler = W.Dropdown(options=list(KINDLERS), value=s.kindler, description="Kindler:",
                                  layout=W.Layout(width="260px"))
        self.kindler.observe(lambda c: setattr(self.session, "kindler", c["new"]), "value")
        self.wind_force = W.Dropdown(options=[(f.label, f) for f in WindForce], description="Wind:",
                                     layout=W.Layout(width="200px"))
        self.wind_dir = W.Dropdown(options=[(str(int(d)), d) for d in Direction], description="to",
                                   layout=W.Layout(width="110px"), style={"description_width": "20px"})
        self.ec = W.Dropdown(options=[(f"{e.label} ({e.drm:+d})", e) for e in EC], description="EC:",
                             layout=W.Layout(width="200px"))
        self.wind_force.observe(self._wind_changed, "value")
        self.wind_dir.observe(self._wind_changed, "value")
        self.ec.observe(self._ec_changed, "value")
        self.rph_button = W.Button(description="RPh wind change", tooltip="Wind Change DR (B25.65)",
                                   layout=W.Layout(width="auto"))
        self.afph_button = W.Button(description="end-of-AFPh upkeep", layout=W.Layout(width="auto"),
                                    tooltip="Flame→Blaze then Spreading Fire (B25.151, B25.6)")
        self.turns = W.BoundedIntText(value=1, min=1, max=50, description="turns", layout=W.Layout(width="130px"),
                                      style={"description_width": "40px"})
        self.step_button = W.Button(description="step N Player Turns", layout=W.Layout(width="auto"))
        self.undo_button = W.Button(description="undo", icon="undo", layout=W.Layout(width="80px"))
        self.redo_button = W.Button(description="redo", icon="repeat", layout=W.Layout(width="80px"))
        self.refresh_live_button = W.Button(description="re-read live game",
                                            layout=W.Layout(display="none", width="auto"))
        self.rph_button.on_click(lambda _: self._act(self.session.rph))
        self.afph_button.on_click(lambda _: self._act(self.session.afph))
        self.step_button.on_click(lambda _: self._act(lambda: self.session.step(self.turns.value)))
        self.undo_button.on_click(lambda _: self._act(self.session.undo))
        self.redo_button.on_click(lambda _: self._act(self.session.redo))
        self.refresh_live_button.on_click(lambda _: self._act(self.refresh_live))
        self.overlay_choice = W.ToggleButtons(options=[("no overlay", "none"), ("odds this AFPh", "odds"),
                                                       ("forecast", "forecast")], value="none",
                                              description="Overlay:", style={"button_width": "auto"})
        self.overlay_choice.observe(lambda c: self.set_overlay(c["new"]), "value")
        self.fc_turns = W.BoundedIntText(value=4, min=1, max=40, description="turns",
                                         layout=W.Layout(width="130px"), style={"description_width": "40px"})
        self.fc_trials = W.BoundedIntText(value=5000, min=100, max=1_000_000, step=1000, description="trials",
                                          layout=W.Layout(width="170px"), style={"description_width": "45px"})
        self.fc_button = W.Button(description="run forecast", button_style="info")
        self.fc_button.on_click(lambda _: self.run_forecast())
        self.progress = W.FloatProgress(value=0.0, min=0.0, max=1.0, description="forecast",
                                        layout=W.Layout(width="300px"))
        self.toolbar = W.VBox([
            W.HBox([self.tools, self.level, self.kindler]),
            W.HBox([self.wind_force, self.wind_dir, self.ec]),
            W.HBox([self.rph_button, self.afph_button, self.turns, self.step_button, self.undo_button,
                    self.redo_button, self.refresh_live_button]),
            W.HBox([self.overlay_choice, self.fc_turns, self.fc_trials, self.fc_button, self.progress]),
        ])
        self.info = W.HTML(value="<i>hover a hex</i>", layout=W.Layout(width="380px"))
        self.side = W.VBox([W.HTML("<b>Hex</b>"), self.info], layout=W.Layout(width="390px"))
        self.canvas_box = W.Box([self.canvas], layout=W.Layout(overflow="auto", max_width="100%",
                                                               flex="0 0 auto"))
        self.log_panel = W.HTML(layout=W.Layout(max_height="220px", overflow="auto", border="1px solid #ccc"))
        self.log_box = W.VBox([W.HTML("<b>Rolls and events</b> (rule numbers in brackets)"), self.log_panel])
        self._syncing = False

    # -- FT / MOL panel (A22) ------------------------------------------------------
    def _build_attack_panel(self) -> None:
        f = self.session.attack_form
        sm = W.Layout(width="150px")
        st = {"description_width": "70px"}
        self.att: dict[str, W.Widget] = {
            "weapon": W.ToggleButtons(options=["MOL", "FT"], value=f.weapon, style={"button_width": "60px"}),
            "firer_unit": W.Dropdown(options=[("(none)", "")], description="firer unit", style=st,
                                     layout=W.Layout(width="240px")),
            "firer": W.Text(value=f.firer, description="firer Loc", placeholder="I4.1", style=st, layout=sm),
            "target": W.Text(value=f.target, description="target Loc", placeholder="I5.1", style=st, layout=sm),
            "phase": W.Dropdown(options=[("position's", None)] + [(ph.value, ph) for ph in Phase], value=None,
                                description="phase", style=st, layout=W.Layout(width="180px")),
            "fp": W.FloatText(value=f.fp, description="MOL FP", style=st, layout=sm),
            "fg_fp": W.FloatText(value=f.fg_fp, description="FG FP", style=st, layout=sm),
            "fg_units": W.BoundedIntText(value=f.fg_units, min=1, max=20, description="FG units", style=st,
                                         layout=sm),
            "leader_drm": W.BoundedIntText(value=f.leader_drm, min=-5, max=0, description="leader", style=st,
                                           layout=sm),
            "hindrance_drm": W.BoundedIntText(value=f.hindrance_drm, min=0, max=6, description="FT Hindr.",
                                              style=st, layout=sm),
            "basic_tk": W.BoundedIntText(value=0, min=0, max=30, description="Basic TK#", style=st, layout=sm),
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
        self.attack_box = W.VBox([
            W.HBox([a["weapon"], a["firer_unit"], a["firer"], a["target"], a["phase"]]),
            W.HBox([a["fp"], a["fg_fp"], a["fg_units"], a["leader_drm"], a["cx"], a["pinned"], a["available"]]),
            W.HBox([a["area_fire"], a["non_elite"], a["captured"], a["hindrance_drm"]]),
            W.HBox([a["vs_afv"], a["predesignated"], a["basic_tk"], a["afv_ce"], a["afv_ot"], a["vulnerable_prc"],
                    a["afv_moving"]]),
            W.HBox([a["ift_result"], self.resolve_button]),
            self.attack_preview,
        ])

    def _attack_changed(self, _: object) -> None:
        if self._syncing:
            return
        values = {k: w.value for k, w in self.att.items()}
        values["basic_tk"] = values["basic_tk"] or None
        self.session.set_attack(**values)

    # -- Heat of Battle panel (A15) --------------------------------------------------
    def _build_hob_panel(self) -> None:
        f = self.session.hob_form
        st = {"description_width": "80px"}
        self.hob: dict[str, W.Widget] = {
            "unit_id": W.Dropdown(options=[("(typed)", "")], description="unit", style=st,
                                  layout=W.Layout(width="240px")),
            "designation": W.Text(value=f.designation, description="or type", placeholder="4-6-7 or 8-1",
                                  style=st, layout=W.Layout(width="180px")),
            "nationality": W.Dropdown(options=[("from the unit's side", None)] + [(n.label, n) for n in Nationality],
                                      value=None, description="nationality", style=st,
                                      layout=W.Layout(width="280px")),
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
            W.HBox([h["unit_id"], h["designation"], h["nationality"]]),
            W.HBox([h["unit_class"], h["size"], self.hob_button]),
            W.HBox(flags[:len(HOB_FLAGS)], layout=W.Layout(flex_flow="row wrap")),
            W.HBox(flags[len(HOB_FLAGS):], layout=W.Layout(flex_flow="row wrap")),
            self.hob_preview,
        ])

    def _hob_changed(self, _: object) -> None:
        if self._syncing:
            return
        values: dict[str, Any] = {k: w.value for k, w in self.hob.items()}
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
                w.value = (v if v in ids else "") if k == "firer_unit" else (v or 0) if k == "basic_tk" else v
            for k, w in self.hob.items():
                v = getattr(s.hob_form, k)
                w.value = (v if v in ids else "") if k == "unit_id" else v
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
        self.header.value = (f"<b>{pos.name or 'position'}</b> — {self.session.status()}{src}")
        from html import escape

        lines = self.session.log[-120:]
        self.log_panel.value = "<br>".join(f"<code>{escape(line)}</code>" for line in lines)
        self.undo_button.disabled = not self.session.undo_stack
        self.redo_button.disabled = not self.session.redo_stack

    def _wind_changed(self, _: object) -> None:
        if self._syncing:
            return
        force = self.wind_force.value
        self._act(lambda: self.session.set_wind(force, self.wind_dir.value))

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
        if id(self.session.position.map) != self._map_id:
            self._map_id = id(self.session.position.map)
            self.geo = MapGeometry(self.session.position.map.hexes, self.scale)
            self.canvas.width, self.canvas.height = self.geo.width, self.geo.height
            self.canvas.layout.width = f"{self.geo.width}px"
            self.redraw()
        elif what == "position":
            layers = (FIRE, OVERLAY) if self.overlay != "none" or self._overlay_drawn else (FIRE,)
            self.redraw_layers(layers)
            if self.hovered is not None:
                self._show_hover(self.hovered)
        if what in ("position", "form"):
            self._refresh_panels()
        self._refresh_controls()

    _overlay_drawn = False

    def _on_mouse_move(self, x: float, y: float) -> None:
        now = time.monotonic()
        h = self.geo.hex_at(x, y)
        if h == self.hovered or now - self._last_hover < self.hover_interval:
            return
        self._last_hover = now
        self.hover_at(h)

    def _on_mouse_down(self, x: float, y: float) -> None:
        h = self.geo.hex_at(x, y)
        if h is not None:
            self.click(h)

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

    def click(self, h: Hex) -> None:
        """A click on hex *h* with the current tool."""
        self.session.click(h)
        self._refresh_controls()

    # -- overlays --------------------------------------------------------------
    def set_overlay(self, which: str) -> None:
        """``none``, ``odds`` (exact, this AFPh) or ``forecast`` (after the last forecast run)."""
        if which not in ("none", "odds", "forecast"):
            raise BadInput(f"overlay {which!r}: expected none, odds or forecast")
        self.overlay = which
        if self.overlay_choice.value != which:
            self.overlay_choice.value = which
        if which == "forecast" and self.session.forecast_result is None:
            self.run_forecast()
            return
        self.redraw_layers((OVERLAY,))

    def run_forecast(self) -> None:
        """Run the multi-turn forecast with the progress bar, then show it."""
        self.progress.value = 0.0
        self.progress.bar_style = "info"

        def tick(f: float) -> None:
            self.progress.value = f

        self.session.run_forecast(self.fc_turns.value, self.fc_trials.value, seed=self.session.seed,
                                  progress=tick)
        self.progress.value = 1.0
        self.progress.bar_style = "success"
        self.overlay = "forecast"
        if self.overlay_choice.value != "forecast":
            self.overlay_choice.value = "forecast"
        self.redraw_layers((OVERLAY,))
        self._refresh_controls()

    # -- drawing ---------------------------------------------------------------
    def redraw(self) -> None:
        """Redraw every layer in one message."""
        self.redraw_layers(tuple(range(len(LAYERS))))

    def redraw_layers(self, layers: tuple[int, ...]) -> None:
        """Redraw the given layers together in one ``hold_canvas()`` batch."""
        pos = self.session.position
        with hold_canvas():
            for k in sorted(set(layers)):
                if k == TERRAIN:
                    self.draw_counts["terrain"] = draw_terrain(self.canvas[TERRAIN], pos, self.geo)
                elif k == OVERLAY:
                    self.draw_counts["overlay"] = {"hexes": self._draw_overlay()}
                elif k == FIRE:
                    self.draw_counts["fire"] = draw_fires(self.canvas[FIRE], pos, self.geo)
                else:
                    draw_hover(self.canvas[HOVER], self.geo, self.hovered)
        self.redraws.append("+".join(LAYERS[k] for k in sorted(set(layers))))

    def _draw_overlay(self) -> int:
        layer = self.canvas[OVERLAY]
        if self.overlay == "odds":
            self._overlay_drawn = True
            return draw_heat(layer, self.geo, self.session.odds_by_hex(), "chance of a Flame this AFPh (B25.6)")
        if self.overlay == "forecast" and self.session.forecast_result is not None:
            fc = self.session.forecast_result
            self._overlay_drawn = True
            heat = locations_heat(dict(zip(fc.locations, map(float, fc.burning), strict=True)))
            return draw_heat(layer, self.geo, heat, f"burning after {fc.turns} Player Turns ({fc.trials} trials)")
        self._overlay_drawn = False
        layer.clear()
        return 0
