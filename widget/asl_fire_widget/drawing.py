"""Map geometry and batched drawing of a Position on ipycanvas layers.

All hexes of one kind go out in one ``fill_styled_polygons``/``stroke_polygons``
call; callers wrap a redraw in ``with hold_canvas():`` so a whole map is one
message.  Colours follow the project's renderer (:mod:`asl_vassal_bridge.render`):
pale open ground, dark green woods, olive brush, yellow grain, brown wooden
and grey stone buildings, tan hills; Flames orange, Blazes red.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from asl_vassal_bridge.core import Hex, Location, Position, Terrain, WindForce
from asl_vassal_bridge.core.hexes import HEX_HEIGHT, HEX_WIDTH
from asl_vassal_bridge.core.smoke import fire_smoke
from asl_vassal_bridge.render import BLAZE, ELEVATION_COLOURS, FLAME, GRID, TERRAIN_COLOURS, WRECK

__all__ = ["HEADER", "MapGeometry", "draw_fires", "draw_heat", "draw_hover", "draw_terrain", "heat_colour"]

RGB = tuple[int, int, int]
F = npt.NDArray[np.float64]

#: Height of the band above the map holding turn, phase, EC and wind.
HEADER = 44
MARGIN = 8
_UNIT = np.array([(1.0, 0.0), (0.5, 1.0), (-0.5, 1.0), (-1.0, 0.0), (-0.5, -1.0), (0.5, -1.0)])


def _css(c: Sequence[int], alpha: float | None = None) -> str:
    if alpha is None:
        return f"rgb({c[0]},{c[1]},{c[2]})"
    return f"rgba({c[0]},{c[1]},{c[2]},{alpha})"


def heat_colour(p: float) -> RGB:
    """Pale yellow → orange → deep red for chances 0…1."""
    p = max(0.0, min(1.0, p))
    if p < 0.5:
        return (255, int(240 - 120 * p * 2), int(120 - 120 * p * 2))
    return (int(255 - 80 * (p - 0.5) * 2), int(120 - 120 * (p - 0.5) * 2), 0)


class MapGeometry:
    """Where each hex of a map lies on the canvas, at *scale* canvas pixels per VASL board pixel."""

    def __init__(self, hexes: Iterable[Hex], scale: float) -> None:
        self.hexes: list[Hex] = sorted(hexes)
        self.scale = scale
        pts = np.array([h.pixel() for h in self.hexes] or [(0.0, 0.0)], float)
        self.rx = HEX_WIDTH * 2 / 3
        self.ry = HEX_HEIGHT / 2
        self.x0 = float(pts[:, 0].min()) - self.rx
        self.y0 = float(pts[:, 1].min()) - self.ry
        self.centres: F = (pts - (self.x0, self.y0)) * scale + (MARGIN, HEADER + MARGIN)
        self.row = {h: i for i, h in enumerate(self.hexes)}
        self.width = math.ceil((pts[:, 0].max() - self.x0 + self.rx) * scale) + 2 * MARGIN
        self.height = math.ceil((pts[:, 1].max() - self.y0 + self.ry) * scale) + HEADER + 2 * MARGIN

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = self.centres[self.row[h]]
        return float(x), float(y)

    def polygons(self, rows: Sequence[int] | npt.NDArray[np.int64] | None = None, shrink: float = 1.0) -> F:
        """Corner points, shape (n, 6, 2), of the hexes at *rows* (all hexes if None)."""
        c = self.centres if rows is None else self.centres[np.asarray(rows, dtype=np.int64)]
        r = _UNIT * (self.rx * self.scale * shrink, self.ry * self.scale * shrink)
        return (c[:, None, :] + r[None, :, :]).astype(np.float32)  # type: ignore[no-any-return]

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The map hex under canvas point (x, y), or None off the map."""
        bx = (x - MARGIN) / self.scale + self.x0
        by = (y - HEADER - MARGIN) / self.scale + self.y0
        h = Hex.from_pixel(bx, by)
        return h if h in self.row else None


def _base_colour(pos: Position, h: Hex) -> RGB:
    info = pos.map.hexes[h]
    if info.elevation:
        return ELEVATION_COLOURS.get(info.elevation, ELEVATION_COLOURS[max(k for k in ELEVATION_COLOURS)])
    return TERRAIN_COLOURS[Terrain.OPEN_GROUND]


def draw_terrain(canvas: Any, pos: Position, geo: MapGeometry, *, labels: bool | None = None) -> dict[str, int]:
    """Draw the static map: hills, terrain, buildings (outline, material, levels), roads, grid, hex names.

    Returns the number of shapes drawn per kind (for tests and benchmarks).
    """
    m = pos.map
    hexes = geo.hexes
    counts: dict[str, int] = {}
    canvas.clear()
    canvas.fill_style = "rgb(244,241,230)"
    canvas.fill_rect(0, 0, geo.width, geo.height)
    base = np.array([_base_colour(pos, h) for h in hexes], np.uint8).reshape(-1, 3)
    canvas.fill_styled_polygons(geo.polygons(), color=base)
    counts["hexes"] = len(hexes)
    feat_rows, feat_cols, inh_rows, inh_cols = [], [], [], []
    bld_rows, bld_cols = [], []
    for i, h in enumerate(hexes):
        info = m.hexes[h]
        if info.building is not None:
            bld_rows.append(i)
            bld_cols.append(TERRAIN_COLOURS[m.buildings[info.building].terrain])
        elif info.terrain is not Terrain.OPEN_GROUND and info.terrain is not Terrain.ROAD:
            colour = TERRAIN_COLOURS.get(info.terrain, (160, 160, 160))
            if info.terrain.inherent:
                inh_rows.append(i)
                inh_cols.append(colour)
            else:
                feat_rows.append(i)
                feat_cols.append(colour)
    if inh_rows:
        canvas.fill_styled_polygons(geo.polygons(inh_rows, 0.97), color=np.array(inh_cols, np.uint8))
    if feat_rows:
        canvas.fill_styled_polygons(geo.polygons(feat_rows, 0.86), color=np.array(feat_cols, np.uint8))
    counts["terrain"] = len(inh_rows) + len(feat_rows)
    canvas.line_width = max(0.5, 0.8 * geo.scale)
    canvas.stroke_style = _css(GRID)
    canvas.stroke_polygons(geo.polygons())
    if bld_rows:
        _draw_building_links(canvas, pos, geo)
        canvas.fill_styled_polygons(geo.polygons(bld_rows, 0.64), color=np.array(bld_cols, np.uint8))
        canvas.line_width = max(1.0, 2.2 * geo.scale)
        canvas.stroke_style = "rgb(30,20,10)"
        canvas.stroke_polygons(geo.polygons(bld_rows, 0.64))
    counts["buildings"] = len(bld_rows)
    roads = [i for i, h in enumerate(hexes) if m.hexes[h].road]
    if roads:
        c = geo.centres[roads]
        canvas.fill_style = "rgb(120,110,90)"
        canvas.fill_circles(c[:, 0], c[:, 1] + 10 * geo.scale, max(1.0, 3 * geo.scale))
    show_labels = geo.scale >= 0.3 if labels is None else labels
    canvas.fill_style = "rgb(40,40,40)"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    if show_labels:
        canvas.font = f"{max(6, int(11 * geo.scale))}px sans-serif"
        for i, h in enumerate(hexes):
            x, y = geo.centres[i]
            canvas.fill_text(m.hex_name(h), float(x), float(y - 0.66 * geo.ry * geo.scale))
        counts["labels"] = len(hexes)
    canvas.font = f"bold {max(7, int(12 * geo.scale))}px sans-serif"
    canvas.fill_style = "rgb(255,255,255)"
    for i in bld_rows:
        h = hexes[i]
        b = m.building(h)
        assert b is not None
        top = b.top_level(m.hex_name(h))
        x, y = geo.centres[i]
        mark = ("W" if b.material.value == "wooden" else "S") + (f"{top + 1}" if top else "")
        canvas.fill_text(mark, float(x), float(y + 0.15 * geo.ry * geo.scale))
        if m.hexes[h].stairwell:
            canvas.fill_rect(float(x) - 2, float(y) - 0.4 * geo.ry * geo.scale, 4, 4)
    return counts


def _draw_building_links(canvas: Any, pos: Position, geo: MapGeometry) -> None:
    """Join the hexes of one building with a thick bar so multi-hex buildings read as one (B23)."""
    m = pos.map
    segments = []
    colours = []
    for h, info in m.hexes.items():
        if info.building is None:
            continue
        for _, n in h.neighbours():
            other = m.hexes.get(n)
            if n > h and other is not None and other.building == info.building:
                segments.append((geo.centre(h), geo.centre(n)))
                colours.append(TERRAIN_COLOURS[m.buildings[info.building].terrain])
    if segments:
        canvas.line_width = max(2.0, 24 * geo.scale)
        canvas.stroke_style = "rgb(30,20,10)"
        canvas.stroke_line_segments(np.array(segments, float))
        canvas.line_width = max(1.0, 19 * geo.scale)
        canvas.stroke_styled_line_segments(np.array(segments, float), color=np.array(colours, np.uint8))


def draw_fires(canvas: Any, pos: Position, geo: MapGeometry) -> dict[str, int]:
    """Draw the fire layer: smoke, Blazes, Flames, wrecks, and the header (turn, phase, EC, wind)."""
    canvas.clear()
    s = geo.scale
    counts = {"smoke": 0, "blazes": 0, "flames": 0, "wrecks": 0}
    smoke = fire_smoke(pos)
    if smoke:
        xs, ys = [], []
        for fs in smoke:
            for h in (fs.location.hex, *fs.drift):
                if h in geo.row:
                    x, y = geo.centre(h)
                    xs.append(x + 14 * s)
                    ys.append(y - 14 * s)
        if xs:
            canvas.fill_style = "rgba(90,90,90,0.45)"
            canvas.fill_circles(np.array(xs), np.array(ys), max(2.0, 11 * s))
            counts["smoke"] = len(xs)
    bx, by, br, bc = [], [], [], []
    labels: list[tuple[str, float, float]] = []
    stacked: dict[Hex, int] = {}
    for f in sorted(pos.fires, key=lambda f: f.location):
        h = f.location.hex
        if h not in geo.row:
            continue
        k = stacked.get(h, 0)
        stacked[h] = k + 1
        x, y = geo.centre(h)
        x += (12 * k - 6 * (k > 0)) * s
        y += (4 - 5 * k) * s
        bx.append(x)
        by.append(y)
        br.append((14 if f.is_blaze else 11) * s)
        bc.append(BLAZE if f.is_blaze else FLAME)
        counts["blazes" if f.is_blaze else "flames"] += 1
        lv = f.location.level
        labels.append((("B" if f.is_blaze else "F") + (f"{lv}" if lv else ""), x, y))
    if bx:
        canvas.fill_styled_circles(np.array(bx), np.array(by), np.array(br), color=np.array(bc, np.uint8))
        canvas.line_width = max(1.0, 1.5 * s)
        canvas.stroke_style = "rgb(90,10,0)"
        canvas.stroke_circles(np.array(bx), np.array(by), np.array(br))
        if s >= 0.3:
            canvas.fill_style = "white"
            canvas.font = f"bold {max(7, int(12 * s))}px sans-serif"
            canvas.text_align = "center"
            canvas.text_baseline = "middle"
            for text, x, y in labels:
                canvas.fill_text(text, x, y)
    for w in pos.wrecks:
        if w.location.hex not in geo.row:
            continue
        x, y = geo.centre(w.location.hex)
        canvas.fill_style = _css(WRECK)
        canvas.fill_rect(x - 16 * s, y + 8 * s, 32 * s, 12 * s)
        if w.burning:
            canvas.line_width = max(1.0, 2.5 * s)
            canvas.stroke_style = _css(BLAZE)
            canvas.stroke_rect(x - 16 * s, y + 8 * s, 32 * s, 12 * s)
        counts["wrecks"] += 1
    _draw_header(canvas, pos, geo)
    return counts


def _draw_header(canvas: Any, pos: Position, geo: MapGeometry) -> None:
    env = pos.environment
    canvas.fill_style = "rgb(250,248,240)"
    canvas.fill_rect(0, 0, geo.width, HEADER)
    canvas.fill_style = "rgb(20,20,20)"
    canvas.text_align = "left"
    canvas.text_baseline = "middle"
    canvas.font = "bold 14px sans-serif"
    canvas.fill_text(f"{pos.clock}", 10, 14)
    canvas.font = "13px sans-serif"
    gust = " · GUSTS" if env.gusts else ""
    canvas.fill_text(f"EC {env.ec.label} ({env.ec_drm:+d}) · {env.wind}{gust}", 10, 32)
    wind = env.wind
    cx, cy = 330.0, 22.0
    canvas.stroke_style = "rgb(0,0,150)"
    canvas.fill_style = "rgb(0,0,150)"
    canvas.line_width = 1
    canvas.stroke_circle(cx, cy, 16)
    if wind.force is not WindForce.NO_WIND and wind.direction is not None:
        ox, oy = Hex(0, 0).pixel()
        nx, ny = Hex(0, 0).neighbour(wind.direction).pixel()
        dx, dy = nx - ox, ny - oy
        n = math.hypot(dx, dy) or 1.0
        dx, dy = dx / n, dy / n
        canvas.line_width = 4 if wind.force is WindForce.HEAVY_WINDS else 2.5
        canvas.stroke_line(cx - 13 * dx, cy - 13 * dy, cx + 13 * dx, cy + 13 * dy)
        canvas.fill_circle(cx + 13 * dx, cy + 13 * dy, 4)
    else:
        canvas.font = "10px sans-serif"
        canvas.text_align = "center"
        canvas.fill_text("calm", cx, cy)


def draw_heat(canvas: Any, geo: MapGeometry, heat: Mapping[Hex, float], title: str = "") -> int:
    """Tint hexes by chance (0…1) with their percentage; returns the number of hexes tinted."""
    canvas.clear()
    rows = [geo.row[h] for h, p in heat.items() if p > 0 and h in geo.row]
    if not rows:
        return 0
    ps = [p for h, p in heat.items() if p > 0 and h in geo.row]
    colours = np.array([heat_colour(p) for p in ps], np.uint8)
    canvas.fill_styled_polygons(geo.polygons(rows, 0.96), color=colours, alpha=0.72)
    if geo.scale >= 0.3:
        canvas.fill_style = "rgb(0,0,0)"
        canvas.font = f"bold {max(7, int(12 * geo.scale))}px sans-serif"
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        for r, p in zip(rows, ps, strict=True):
            x, y = geo.centres[r]
            canvas.fill_text(f"{p:.0%}", float(x), float(y + 0.55 * geo.ry * geo.scale))
    if title:
        canvas.fill_style = "rgb(120,0,0)"
        canvas.font = "bold 13px sans-serif"
        canvas.text_align = "right"
        canvas.fill_text(title, geo.width - 10, 22)
    return len(rows)


def draw_hover(canvas: Any, geo: MapGeometry, h: Hex | None) -> None:
    """Outline the hovered hex."""
    canvas.clear()
    if h is None or h not in geo.row:
        return
    canvas.line_width = 3
    canvas.stroke_style = "rgb(0,120,255)"
    canvas.stroke_polygons(geo.polygons([geo.row[h]], 0.98))


def locations_heat(values: Mapping[Location, float]) -> dict[Hex, float]:
    """The highest chance per hex."""
    out: dict[Hex, float] = {}
    for loc, p in values.items():
        out[loc.hex] = max(out.get(loc.hex, 0.0), float(p))
    return out
