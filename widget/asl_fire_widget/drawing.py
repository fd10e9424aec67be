"""Map geometry with zoom and pan, and batched drawing of a Position on ipycanvas layers.

The canvas is a viewport onto the map: :class:`MapGeometry` maps VASL board
pixels (the frame of ``Hex.pixel``) to canvas pixels at a *scale* (zoom) and
a pan offset, and each drawing function draws only the hexes in view.  All
hexes of one kind go out in one ``fill_styled_polygons``/``stroke_polygons``
call; callers wrap a redraw in ``with hold_canvas():`` so a redraw is one
message.

Under the hex grid lies VASL's own board art (:mod:`asl_vassal_bridge.vasl.boardart`)
when the map comes from board archives; terrain tints (the project's
renderer's colours: pale open ground, dark green woods, olive brush, yellow
grain, brown wooden and grey stone buildings, tan hills) are drawn instead
of the art, or over it as an option.  Fires, wrecks, smoke (B25.2) and the
Level counter beside an upper-level or cellar fire are square counters in
VASL's look (or VASL's own counter images), laid out side by side so several
in one hex stay readable; hex names are drawn last, on a
pale band, so nothing covers them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from asl_vassal_bridge.core import Hex, Position, Terrain
from asl_vassal_bridge.core.hexes import HEX_HEIGHT, HEX_WIDTH
from asl_vassal_bridge.mapview import (
    COUNTER_STYLE,
    MARKS,
    MIN_MARKER,
    Counter,
    counter_boxes,
    counters_in,
    heat_colour,
    heat_label,
    locations_heat,
    side_colours,
)
from asl_vassal_bridge.render import ELEVATION_COLOURS, GRID, TERRAIN_COLOURS

from .colours import ERROR

__all__ = [
    "LABEL_SCALE",
    "Counter",
    "MapGeometry",
    "UnitBox",
    "counters_in",
    "draw_fires",
    "draw_heat",
    "draw_hover",
    "draw_terrain",
    "heat_colour",
    "heat_label",
    "locations_heat",
]

RGB = tuple[int, int, int]
F = npt.NDArray[np.float64]

MARGIN = 8
#: Hex names are drawn from this zoom (canvas pixels per board pixel) on.
LABEL_SCALE = 0.5
#: Counter text (Flame, Blaze, levels) is drawn from this zoom on.
TEXT_SCALE = 0.45
_UNIT = np.array([(1.0, 0.0), (0.5, 1.0), (-0.5, 1.0), (-1.0, 0.0), (-0.5, -1.0), (0.5, -1.0)])

def _css(c: Sequence[int], alpha: float | None = None) -> str:
    if alpha is None:
        return f"rgb({c[0]},{c[1]},{c[2]})"
    return f"rgba({c[0]},{c[1]},{c[2]},{alpha})"


class MapGeometry:
    """Where each hex lies on the canvas: *scale* canvas pixels per board pixel, panned by (*pan_x*, *pan_y*).

    ``width``/``height`` are the whole map's size at this scale; ``view_w``/``view_h`` the canvas
    (the part of the map in view).  Without a view size the canvas holds the whole map.
    """

    def __init__(self, hexes: Iterable[Hex], scale: float, pan: tuple[float, float] = (0.0, 0.0),
                 view: tuple[int, int] | None = None) -> None:
        self.hexes: list[Hex] = sorted(hexes)
        self.scale = scale
        self.points: F = np.array([h.pixel() for h in self.hexes] or [(0.0, 0.0)], float)
        self.rx = HEX_WIDTH * 2 / 3
        self.ry = HEX_HEIGHT / 2
        self.x0 = float(self.points[:, 0].min()) - self.rx
        self.y0 = float(self.points[:, 1].min()) - self.ry
        self.width = math.ceil((self.points[:, 0].max() - self.x0 + self.rx) * scale) + 2 * MARGIN
        self.height = math.ceil((self.points[:, 1].max() - self.y0 + self.ry) * scale) + 2 * MARGIN
        self.view_w: int = view[0] if view is not None else self.width
        self.view_h: int = view[1] if view is not None else self.height
        self.pan = (float(pan[0]), float(pan[1]))
        self.centres: F = (self.points - (self.x0, self.y0)) * scale + MARGIN - self.pan
        self.row = {h: i for i, h in enumerate(self.hexes)}

    def height_at(self, scale: float) -> int:
        """The whole map's height in canvas pixels at zoom *scale*."""
        return math.ceil(float(self.points[:, 1].max() - self.y0 + self.ry) * scale) + 2 * MARGIN

    def with_view(self, scale: float, pan: tuple[float, float], view: tuple[int, int] | None = None) -> MapGeometry:
        """The same map at another zoom and pan (pan clamped so the map stays in view), on a canvas of size
        *view* (default: this one's)."""
        g = MapGeometry.__new__(MapGeometry)
        g.hexes, g.points, g.rx, g.ry, g.x0, g.y0, g.row = self.hexes, self.points, self.rx, self.ry, self.x0, \
            self.y0, self.row
        g.scale = scale
        g.width = math.ceil((self.points[:, 0].max() - self.x0 + self.rx) * scale) + 2 * MARGIN
        g.height = self.height_at(scale)
        g.view_w, g.view_h = view if view is not None else (self.view_w, self.view_h)
        px = min(max(0.0, pan[0]), max(0.0, g.width - g.view_w))
        py = min(max(0.0, pan[1]), max(0.0, g.height - g.view_h))
        g.pan = (float(px), float(py))
        g.centres = (self.points - (self.x0, self.y0)) * scale + MARGIN - g.pan
        return g

    def to_canvas(self, x: float, y: float) -> tuple[float, float]:
        """Canvas point of map board pixel (x, y)."""
        return (x - self.x0) * self.scale + MARGIN - self.pan[0], (y - self.y0) * self.scale + MARGIN - self.pan[1]

    def to_map(self, x: float, y: float) -> tuple[float, float]:
        """Map board pixel under canvas point (x, y)."""
        return (x + self.pan[0] - MARGIN) / self.scale + self.x0, (y + self.pan[1] - MARGIN) / self.scale + self.y0

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = self.centres[self.row[h]]
        return float(x), float(y)

    def visible(self) -> npt.NDArray[np.int64]:
        """Rows of the hexes in view (with a hex's margin)."""
        c = self.centres
        mx, my = self.rx * self.scale, self.ry * self.scale
        keep = (c[:, 0] > -mx) & (c[:, 0] < self.view_w + mx) & (c[:, 1] > -my) & (c[:, 1] < self.view_h + my)
        return np.flatnonzero(keep)

    def in_view(self, h: Hex) -> bool:
        if h not in self.row:
            return False
        x, y = self.centre(h)
        mx, my = self.rx * self.scale, self.ry * self.scale
        return -mx < x < self.view_w + mx and -my < y < self.view_h + my

    def polygons(self, rows: Sequence[int] | npt.NDArray[np.int64] | None = None, shrink: float = 1.0) -> F:
        """Corner points, shape (n, 6, 2), of the hexes at *rows* (all hexes if None)."""
        c = self.centres if rows is None else self.centres[np.asarray(rows, dtype=np.int64)]
        r = _UNIT * (self.rx * self.scale * shrink, self.ry * self.scale * shrink)
        return (c[:, None, :] + r[None, :, :]).astype(np.float32)  # type: ignore[no-any-return]

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The map hex under canvas point (x, y), or None off the map."""
        bx, by = self.to_map(x, y)
        h = Hex.from_pixel(bx, by)
        return h if h in self.row else None


def _base_colour(pos: Position, h: Hex) -> RGB:
    info = pos.map.hexes[h]
    if info.elevation:
        return ELEVATION_COLOURS.get(info.elevation, ELEVATION_COLOURS[max(k for k in ELEVATION_COLOURS)])
    return TERRAIN_COLOURS[Terrain.OPEN_GROUND]


@dataclass(frozen=True)
class ArtTile:
    """A board picture to draw: the ipywidgets Image holding it and its rectangle in map board pixels."""

    image: Any
    x: float
    y: float
    width: float
    height: float


def draw_terrain(canvas: Any, pos: Position, geo: MapGeometry, *, labels: bool | None = None,
                 art: Sequence[ArtTile] = (), tints: bool = True) -> dict[str, int]:
    """Draw the static map in view: board art, terrain tints (always without art), buildings, grid, hex names.

    Returns the number of shapes drawn per kind (for tests and benchmarks).
    """
    counts: dict[str, int] = {"art": 0, "hexes": 0, "terrain": 0, "buildings": 0, "labels": 0}
    canvas.clear()  # outside the map (and around VASL's boards) the page's own background, the theme's, shows
    if not art:
        canvas.fill_style = "rgb(244,241,230)"
        x0, y0 = geo.to_canvas(geo.x0, geo.y0)
        canvas.fill_rect(x0, y0, geo.width - 2 * MARGIN, geo.height - 2 * MARGIN)
    for t in art:
        x, y = geo.to_canvas(t.x, t.y)
        w, h = t.width * geo.scale, t.height * geo.scale
        if x > geo.view_w or y > geo.view_h or x + w < 0 or y + h < 0:
            continue
        canvas.draw_image(t.image, x, y, w, h)
        counts["art"] += 1
    tint = tints or not art
    rows = geo.visible()
    counts["hexes"] = len(rows)
    if not len(rows):
        return counts
    if art:  # the grid stops where VASL's boards do (half hexes at the edges)
        canvas.save()
        canvas.begin_path()
        for t in art:
            x, y = geo.to_canvas(t.x, t.y)
            canvas.rect(x, y, t.width * geo.scale, t.height * geo.scale)
        canvas.clip()
    _draw_hexes(canvas, pos, geo, rows, tint, bool(art), counts)
    if art:
        canvas.restore()
    show_labels = geo.scale >= LABEL_SCALE if labels is None else labels
    if show_labels:
        _draw_names(canvas, pos, geo, rows)
        counts["labels"] = len(rows)
    return counts


def _draw_hexes(canvas: Any, pos: Position, geo: MapGeometry, rows: npt.NDArray[np.int64], tint: bool, art: bool,
                counts: dict[str, int]) -> None:
    m = pos.map
    hexes = geo.hexes
    if tint:
        base = np.array([_base_colour(pos, hexes[i]) for i in rows], np.uint8).reshape(-1, 3)
        canvas.fill_styled_polygons(geo.polygons(rows), color=base, alpha=1.0 if not art else 0.45)
    feat_rows, feat_cols, inh_rows, inh_cols = [], [], [], []
    bld_rows, bld_cols = [], []
    for i in rows:
        info = m.hexes[hexes[i]]
        if info.building is not None:
            bld_rows.append(int(i))
            bld_cols.append(TERRAIN_COLOURS[m.buildings[info.building].terrain])
        elif tint and info.terrain is not Terrain.OPEN_GROUND and info.terrain is not Terrain.ROAD:
            colour = TERRAIN_COLOURS.get(info.terrain, (160, 160, 160))
            if info.terrain.inherent:
                inh_rows.append(int(i))
                inh_cols.append(colour)
            else:
                feat_rows.append(int(i))
                feat_cols.append(colour)
    alpha = 1.0 if not art else 0.5
    if inh_rows:
        canvas.fill_styled_polygons(geo.polygons(inh_rows, 0.97), color=np.array(inh_cols, np.uint8), alpha=alpha)
    if feat_rows:
        canvas.fill_styled_polygons(geo.polygons(feat_rows, 0.86), color=np.array(feat_cols, np.uint8), alpha=alpha)
    counts["terrain"] = len(inh_rows) + len(feat_rows)
    canvas.line_width = max(0.5, 0.8 * geo.scale)
    canvas.stroke_style = _css(GRID) if not art else "rgba(60,60,60,0.55)"
    canvas.stroke_polygons(geo.polygons(rows))
    if bld_rows and tint:
        _draw_building_links(canvas, pos, geo, set(bld_rows))
        canvas.fill_styled_polygons(geo.polygons(bld_rows, 0.5), color=np.array(bld_cols, np.uint8))
        canvas.line_width = max(1.0, 2.0 * geo.scale)
        canvas.stroke_style = "rgb(30,20,10)"
        canvas.stroke_polygons(geo.polygons(bld_rows, 0.5))
    counts["buildings"] = len(bld_rows)
    if tint:
        roads = [int(i) for i in rows if m.hexes[hexes[i]].road]
        if roads:
            c = geo.centres[roads]
            canvas.fill_style = "rgb(120,110,90)"
            canvas.fill_circles(c[:, 0], c[:, 1] + 22 * geo.scale, max(1.0, 3 * geo.scale))
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    if bld_rows and geo.scale >= TEXT_SCALE:
        # The building's material and storeys, low in the hex, on a small dark badge (B23).
        canvas.font = f"bold {max(9, int(11 * geo.scale))}px sans-serif"
        for i in bld_rows:
            h = hexes[i]
            b = m.building(h)
            assert b is not None
            top = b.top_level(m.hex_name(h))
            x, y = geo.centres[i]
            mark = ("W" if b.material.value == "wooden" else "S") + (f"{top + 1}" if top else "")
            by = float(y + 0.68 * geo.ry * geo.scale)
            if not tint:
                canvas.fill_style = "rgba(30,20,10,0.75)"
                canvas.fill_rect(float(x) - 10 * geo.scale, by - 6 * geo.scale, 20 * geo.scale, 12 * geo.scale)
            canvas.fill_style = "rgb(255,255,255)"
            canvas.fill_text(mark, float(x), by)
            if m.hexes[h].stairwell:
                canvas.fill_rect(float(x) + 12 * geo.scale, by - 2, 4, 4)


def name_size(scale: float) -> int:
    """The hex names' font size in canvas pixels at zoom *scale*: at least 11 from :data:`LABEL_SCALE` on.

    >>> name_size(LABEL_SCALE), name_size(1.0), name_size(2.5)
    (11, 12, 15)
    """
    return max(11, min(15, int(12 * scale)))


def _draw_names(canvas: Any, pos: Position, geo: MapGeometry, rows: Sequence[int] | npt.NDArray[np.int64]) -> None:
    """Hex names at the top of each hex, on a pale band drawn last so no marker covers them."""
    m = pos.map
    size = name_size(geo.scale)
    canvas.font = f"{size}px sans-serif"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    names = [m.hex_name(geo.hexes[i]) for i in rows]
    xs = geo.centres[np.asarray(rows, np.int64), 0]
    ys = geo.centres[np.asarray(rows, np.int64), 1] - 0.72 * geo.ry * geo.scale
    widths = np.array([0.6 * size * len(n) + 4 for n in names])
    canvas.fill_style = "rgba(250,248,236,0.82)"
    canvas.fill_rects(xs - widths / 2, ys - size / 2 - 1, widths, np.full(len(names), size + 2.0))
    canvas.fill_style = "rgb(30,30,30)"
    for n, x, y in zip(names, xs, ys, strict=True):
        canvas.fill_text(n, float(x), float(y))


def _draw_building_links(canvas: Any, pos: Position, geo: MapGeometry, rows: set[int]) -> None:
    """Join the hexes of one building with a bar so multi-hex buildings read as one (B23)."""
    m = pos.map
    segments = []
    colours = []
    for i in rows:
        h = geo.hexes[i]
        info = m.hexes[h]
        for _, n in h.neighbours():
            other = m.hexes.get(n)
            if n > h and other is not None and other.building == info.building and n in geo.row:
                segments.append((geo.centre(h), geo.centre(n)))
                colours.append(TERRAIN_COLOURS[m.buildings[str(info.building)].terrain])
    if segments:
        canvas.line_width = max(2.0, 14 * geo.scale)
        canvas.stroke_style = "rgb(30,20,10)"
        canvas.stroke_line_segments(np.array(segments, float))
        canvas.line_width = max(1.0, 10 * geo.scale)
        canvas.stroke_styled_line_segments(np.array(segments, float), color=np.array(colours, np.uint8))


@dataclass(frozen=True)
class UnitBox:
    """Where a unit's counter was drawn on the canvas (for clicks that select it)."""

    unit_id: str
    x: float
    y: float
    side: float

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px <= self.x + self.side and self.y <= py <= self.y + self.side


#: A stack of more than this many counters shows its most telling counter with a "+n" badge (hover lists them all).
STACK_SHOWN = 3
#: The smallest counter side (canvas pixels) at which a stack's counters are drawn side by side; below it the stack
#: shows its most telling counter, as large as the hex allows, with the "+n" badge.
READABLE_SIDE = 14.0


def _stack_boxes(stack: list[Counter], cx: float, cy: float, s: float, ry: float
                 ) -> list[tuple[Counter, float, float, float, int]]:
    """Where a hex's counters are drawn: (counter, x, y, side, how many more it stands for).

    Up to :data:`STACK_SHOWN` counters side by side while each is at least :data:`READABLE_SIDE` pixels; a bigger
    stack, or one too small to read, is its most telling counter (a Blaze, a Flame, a burning wreck, a unit…) with
    a "+n" badge, never smaller than :data:`~asl_vassal_bridge.mapview.MIN_MARKER`.
    """
    placed = counter_boxes(len(stack), cx, cy, s)
    readable = placed[0][2] >= READABLE_SIDE or (len(stack) == 1 and placed[0][2] >= MIN_MARKER)
    if len(stack) <= STACK_SHOWN and readable:
        return [(c, x, y, side, 0) for c, (x, y, side) in zip(stack, placed, strict=True)]
    top = min(stack, key=lambda c: c.priority)
    x, y, side = counter_boxes(1, cx, cy, s)[0]
    if side < MIN_MARKER:
        side = max(MIN_MARKER, min(28.0 * s, 1.2 * ry * s))
        x, y = cx - side / 2, cy - side / 2
    return [(top, x, y, side, len(stack) - 1)]


def draw_fires(canvas: Any, pos: Position, geo: MapGeometry, *, images: Mapping[str, Any] | None = None,
               selected: str | None = None, hits: list[UnitBox] | None = None, smoke: bool = True
               ) -> dict[str, int]:
    """Draw the counter layer in view: each hex's units, wrecks, fires, Level and smoke counters
    (:func:`asl_vassal_bridge.mapview.counters_in`, laid out by :func:`~asl_vassal_bridge.mapview.counter_boxes`).

    *images* maps a counter's image key (``flame``, ``blaze``, ``wreck``, ``smoke``, ``level`` for Level 1,
    ``unit:<side>:<name>``) to an ipywidgets Image of VASL's own counter; without one the counter is drawn
    in VASL's colours (a unit in its side's colour) with its name.  A unit's broken, pinned or berserk state
    is a coloured corner with its word; the *selected* unit is outlined.  Where a hex is too small for its
    stack at this zoom, its most telling counter is drawn alone, never smaller than
    :data:`~asl_vassal_bridge.mapview.MIN_MARKER`; a stack of more than :data:`STACK_SHOWN` shows its most
    telling counter with a "+n" badge (:func:`_stack_boxes`).  *smoke* False leaves the smoke counters out.
    *hits* receives each unit counter's box.
    """
    canvas.clear()
    s = geo.scale
    counts = {"smoke": 0, "blazes": 0, "flames": 0, "wrecks": 0, "levels": 0, "units": 0}
    key = {"blaze": "blazes", "flame": "flames", "smoke": "smoke", "level": "levels", "unit": "units"}
    images = images or {}
    sides = side_colours(pos)
    boxes: list[tuple[Counter, float, float, float]] = []
    badges: list[tuple[float, float, float, int]] = []
    for h, stack in counters_in(pos).items():
        for c in stack:
            counts[key.get(c.kind, "wrecks")] += 1
        if not geo.in_view(h):
            continue
        if not smoke:
            stack = [c for c in stack if c.kind != "smoke"]
            if not stack:
                continue
        cx, cy = geo.centre(h)
        for c, x, y, side, more in _stack_boxes(stack, cx, cy, s, geo.ry):
            if more and c.kind in ("smoke", "level"):
                continue
            boxes.append((c, x, y, side))
            if more:
                badges.append((x, y, side, more))
    counts["badges"] = len(badges)
    if hits is not None:
        hits.clear()
        hits.extend(UnitBox(c.unit.id, x, y, side) for c, x, y, side in boxes if c.unit is not None)
    if not boxes:
        return counts
    drawn = [b for b in boxes if b[0].image_key in images]
    plain = [b for b in boxes if b[0].image_key not in images]
    for c, x, y, side in drawn:
        canvas.draw_image(images[c.image_key], x, y, side, side)

    def fill(c: Counter) -> tuple[int, int, int]:
        return sides[c.unit.side][0] if c.unit is not None else COUNTER_STYLE[c.kind][0]

    def ink(c: Counter) -> tuple[int, int, int]:
        return sides[c.unit.side][1] if c.unit is not None else COUNTER_STYLE[c.kind][1]

    xs, ys, ss = (np.array([b[k] for b in boxes]) for k in (1, 2, 3))
    if plain:
        canvas.fill_styled_rects(np.array([b[1] for b in plain]), np.array([b[2] for b in plain]),
                                 np.array([b[3] for b in plain]), np.array([b[3] for b in plain]),
                                 color=np.array([fill(b[0]) for b in plain], np.uint8))
    canvas.line_width = max(1.0, 1.2 * s)
    canvas.stroke_style = "rgb(20,10,0)"
    canvas.stroke_rects(xs, ys, ss, ss)
    burning = [b for b in boxes if b[0].kind == "burning-wreck"]
    if burning:  # a Burning Wreck: VASL puts a Blaze on it; the red edge says so
        canvas.line_width = max(1.5, 3 * s)
        canvas.stroke_style = "rgb(205,30,20)"
        for _, x, y, side in burning:
            canvas.stroke_rect(x, y, side, side)
    marked = [(c, x, y, side) for c, x, y, side in boxes if c.marks]
    for c, x, y, side in marked:  # a coloured corner per mark, top right, then leftwards
        m = max(4.0, side * 0.38)
        for k, mark in enumerate(c.marks):
            canvas.fill_style = _css(MARKS[mark][0])
            canvas.fill_polygon([(x + side - k * m * 0.6, y), (x + side - k * m * 0.6, y + m),
                                 (x + side - m - k * m * 0.6, y)])
    chosen = [b for b in boxes if b[0].unit is not None and b[0].unit.id == selected]
    if chosen:
        canvas.line_width = max(2.0, 3 * s)
        canvas.stroke_style = "rgb(0,190,255)"
        for _, x, y, side in chosen:
            canvas.stroke_rect(x - 2, y - 2, side + 4, side + 4)
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    for c, x, y, side in plain:
        if side < 12:
            continue
        size, text = counter_label(c, side)
        canvas.font = f"bold {size}px sans-serif"
        canvas.fill_style = _css(ink(c))
        canvas.fill_text(text, x + side / 2, y + side * (0.42 if c.marks else 0.5))
        if c.marks and side >= 20:
            canvas.font = f"bold {max(7, int(side * 0.24))}px sans-serif"
            canvas.fill_style = _css(MARKS[c.marks[0]][0])
            canvas.fill_text(MARKS[c.marks[0]][1], x + side / 2, y + side * 0.8)
    for x, y, side, more in badges:  # "+n": the counters under the one shown (hover or zoom lists them)
        r = max(6.0, side * 0.34)
        bx, by = x + side, y + side
        canvas.fill_style = "rgb(20,20,20)"
        canvas.fill_circle(bx, by, r)
        canvas.line_width = 1.5
        canvas.stroke_style = "rgb(255,255,255)"
        canvas.stroke_circle(bx, by, r)
        canvas.font = f"bold {max(9, int(r * 1.2))}px sans-serif"
        canvas.fill_style = "rgb(255,255,255)"
        canvas.fill_text(f"+{more}", bx, by)
    return counts


def counter_label(c: Counter, side: float) -> tuple[int, str]:
    """The font size and text on a counter *side* pixels wide: the name as the position gives it (``4-6-7``)
    wherever it fits at 7 px or more, else its short form (``467``, ``F``).

    >>> from asl_vassal_bridge.mapview import Counter
    >>> counter_label(Counter("flame"), 24), counter_label(Counter("blaze"), 18.2)
    ((7, 'Flame'), (7, 'B'))
    """
    em = sum(0.36 if ch in "-.+ " else 0.58 for ch in c.text) or 1.0  # bold sans-serif: a dash is narrow
    size = min(max(7, int(side * 0.36)), int(side * 0.96 / em))
    if size >= 7:
        return size, c.text
    return max(7, int(side * 0.3)), c.short


def draw_heat(canvas: Any, geo: MapGeometry, heat: Mapping[Hex, float], *, alpha: float = 0.72,
              pos: Position | None = None, labels: Any = None) -> int:
    """Tint hexes in view by chance (0…1) with their percentage; returns the number of hexes tinted.

    The title and the colour legend are the widget's (HTML beside the canvas), so nothing here
    hides under the map's own bands; with *pos* the tinted hexes' names are drawn again on top.  The
    percentages and names go on *labels* (a layer above the counters, so that no counter hides them) when given.
    """
    canvas.clear()
    if labels is not None:
        labels.clear()
    text = labels if labels is not None else canvas
    seen = np.zeros(len(geo.centres), bool)  # the hexes in view, as :meth:`MapGeometry.in_view` (one pass)
    seen[geo.visible()] = True
    items = [(r, p) for h, p in heat.items() if p > 0 and (r := geo.row.get(h)) is not None and seen[r]]
    if not items:
        return 0
    rows = [r for r, _ in items]
    ps = [p for _, p in items]
    colours = np.array([heat_colour(p) for p in ps], np.uint8)
    canvas.fill_styled_polygons(geo.polygons(rows, 0.96), color=colours, alpha=alpha)
    if geo.scale >= TEXT_SCALE:
        size = max(10, min(14, int(12 * geo.scale)))
        text.font = f"bold {size}px sans-serif"
        text.text_align = "center"
        text.text_baseline = "middle"
        if labels is not None:  # over counters too: a pale halo keeps the black figures readable on any colour
            text.line_width = 3
            text.stroke_style = "rgba(255,255,255,0.85)"
            for r, p in items:
                x, y = geo.centres[r]
                text.stroke_text(heat_label(p), float(x), float(y + 0.78 * geo.ry * geo.scale))
        text.fill_style = "rgb(0,0,0)"
        for r, p in items:
            x, y = geo.centres[r]
            text.fill_text(heat_label(p), float(x), float(y + 0.78 * geo.ry * geo.scale))
    if pos is not None and geo.scale >= LABEL_SCALE:  # the tinted hexes' names, again on top
        _draw_names(text, pos, geo, rows)
    return len(rows)


def draw_hover(canvas: Any, geo: MapGeometry, h: Hex | None) -> None:
    """Outline the hovered hex."""
    canvas.clear()
    if h is None or h not in geo.row:
        return
    canvas.line_width = 3
    canvas.stroke_style = "rgb(0,120,255)"
    canvas.stroke_polygons(geo.polygons([geo.row[h]], 0.98))


def legend_html(title: str, note: str = "") -> str:
    """The overlay's title and colour legend, as HTML shown beside the map."""
    stops = ", ".join(_css(heat_colour(p)) for p in (0.0, 0.25, 0.5, 0.75, 1.0))
    ticks = "".join(f"<span style='flex:1;text-align:{a}'>{t}</span>"
                    for t, a in (("<1%", "left"), ("50%", "center"), ("100%", "right")))
    warn = (f"<div class='asl-legend-note' style='color:{ERROR};font-weight:bold'>{note}</div>"
            if note else "")
    return (f"<div class='asl-legend' style='line-height:1.3'><b class='asl-legend-title'>{title}</b>"
            f"<div style='height:12px;width:240px;border:1px solid var(--jp-border-color1, #777);"
            f"background:linear-gradient(to right, {stops})'></div>"
            f"<div style='display:flex;width:240px;font-size:11px'>{ticks}</div>{warn}</div>")
