"""Pictures of a Position: SVG (text) and PNG (Pillow), drawn from one list of shapes.

The same map as the notebook widget's (one drawing model, :mod:`asl_vassal_bridge.mapview`): VASL's board
art under the grid when it is given (else terrain tints: pale open ground, dark green woods, olive brush,
yellow grain, light green orchards, brown wooden and grey stone buildings, tan hills), the building badge
(``W2``), square counters in VASL's colours (Flame, Blaze, Wreck, Smoke, Level) and the units in their
side's colour with their broken/pinned/berserk marks, hex names on a pale band, and a legend.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from .core.environment import WindForce
from .core.errors import BadInput
from .core.hexes import HEX_HEIGHT, HEX_WIDTH, Hex
from .core.position import Location, Position
from .core.terrain import Terrain
from .mapview import (
    COUNTER_STYLE,
    LEGEND,
    MARKS,
    counter_boxes,
    counters_in,
    heat_colour,
    heat_label,
    locations_heat,
    side_colours,
    unit_image_key,
)

if TYPE_CHECKING:
    from .vasl.boardart import BoardArt

__all__ = ["MAX_PICTURE_PIXELS", "TERRAIN_COLOURS", "PictureTooLarge", "Shape", "check_picture_size", "picture_size",
           "render_png", "render_svg", "shapes", "unit_pictures"]

RGB = tuple[int, int, int]

TERRAIN_COLOURS: dict[Terrain, RGB] = {
    Terrain.OPEN_GROUND: (222, 218, 170),
    Terrain.ROAD: (200, 190, 160),
    Terrain.WOODS: (46, 110, 52),
    Terrain.WOODS_ROAD: (70, 125, 70),
    Terrain.BRUSH: (138, 160, 80),
    Terrain.VINEYARD: (150, 150, 90),
    Terrain.GRAIN: (232, 200, 90),
    Terrain.ORCHARD: (150, 200, 110),
    Terrain.OLIVE_GROVE: (140, 180, 120),
    Terrain.CACTUS_PATCH: (170, 190, 120),
    Terrain.WOODEN_BUILDING: (140, 90, 50),
    Terrain.STONE_BUILDING: (130, 130, 135),
    Terrain.WOODEN_RUBBLE: (180, 140, 100),
    Terrain.STONE_RUBBLE: (175, 175, 175),
    Terrain.HUT: (160, 120, 70),
    Terrain.WATER: (110, 160, 220),
    Terrain.MARSH: (120, 170, 160),
}
ELEVATION_COLOURS: dict[int, RGB] = {1: (205, 180, 120), 2: (185, 150, 95), 3: (165, 125, 75), -1: (190, 200, 160)}
FLAME: RGB = (255, 150, 20)
BLAZE: RGB = (215, 30, 20)
WRECK: RGB = (40, 40, 40)
GRID: RGB = (90, 90, 70)

SCALE = 1.0  # picture pixels per VASL board pixel: a counter 28 px, hex names 11 px, as in the widget at zoom 1
MARGIN = 12
TOP = 58  # the title band


@dataclass(frozen=True, slots=True)
class Shape:
    """A drawing primitive: ``poly`` (points), ``circle`` (centre, radius), ``text`` (centred on its point) or
    ``image`` (PNG bytes in *data*, top-left point, *radius* unused, size in *extra*)."""

    kind: str
    points: tuple[tuple[float, float], ...]
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 1.0
    radius: float = 0.0
    text: str = ""
    size: float = 10.0
    opacity: float = 1.0
    extra: dict[str, str] = field(default_factory=dict)
    bold: bool = False
    data: bytes = b""


def _corners(cx: float, cy: float, shrink: float = 1.0) -> tuple[tuple[float, float], ...]:
    rx = HEX_WIDTH * 2 / 3 * shrink * SCALE
    ry = HEX_HEIGHT / 2 * shrink * SCALE
    return ((cx + rx, cy), (cx + rx / 2, cy + ry), (cx - rx / 2, cy + ry), (cx - rx, cy), (cx - rx / 2, cy - ry),
            (cx + rx / 2, cy - ry))


def _rect(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _counter_shapes(pos: Position, xy: Callable[[Hex], tuple[float, float]],
                    pictures: Mapping[str, bytes] | None = None) -> list[Shape]:
    """The counters of every hex (the widget's model, :mod:`asl_vassal_bridge.mapview`): units in VASL's own
    picture (*pictures*: PNG by :attr:`~asl_vassal_bridge.mapview.Counter.image_key`) or in their side's colour,
    with their state marks, wrecks, fires, Level counters, smoke."""
    out: list[Shape] = []
    sides = side_colours(pos)
    pictures = pictures or {}
    for h, stack in counters_in(pos).items():
        cx, cy = xy(h)
        for c, (x, y, side) in zip(stack, counter_boxes(len(stack), cx, cy, SCALE), strict=True):
            fill, ink = sides[c.unit.side] if c.unit is not None else COUNTER_STYLE[c.kind][:2]
            edge = (205, 30, 20) if c.kind == "burning-wreck" else (20, 10, 0)
            picture = pictures.get(c.image_key) if c.unit is not None else None
            if picture is not None:
                out.append(Shape("image", ((x, y),), data=picture, extra={"w": str(side), "h": str(side),
                                                                         "format": "png"}))
            out.append(Shape("poly", _rect(x, y, side, side), fill=None if picture is not None else fill,
                             stroke=edge, width=2.5 if c.kind == "burning-wreck" else 1.2))
            m = max(4.0, side * 0.38)
            for k, mark in enumerate(c.marks):
                dx = k * m * 0.6
                out.append(Shape("poly", ((x + side - dx, y), (x + side - dx, y + m), (x + side - m - dx, y)),
                                 fill=MARKS[mark][0]))
            if picture is not None:
                continue  # VASL's picture says what the unit is
            size = max(7, int(side * 0.3))
            text = c.text if 0.62 * size * len(c.text) <= side * 0.98 else c.short
            out.append(Shape("text", ((x + side / 2, y + side * (0.42 if c.marks else 0.5)),), fill=ink, text=text,
                             size=size, bold=True))
            if c.marks and side >= 20:
                out.append(Shape("text", ((x + side / 2, y + side * 0.8),), fill=MARKS[c.marks[0]][0],
                                 text=MARKS[c.marks[0]][1], size=max(7, int(side * 0.24)), bold=True))
    return out


def _legend_shapes(y: float, heat: bool, width: float) -> tuple[list[Shape], float]:
    """The legend band (rows as the picture's width allows): each counter's colour and meaning, and the
    chance colours when tinted; returns its shapes and height."""
    out: list[Shape] = []
    items: list[tuple[RGB | None, RGB, str, float]] = []
    for kind, text in LEGEND:
        colour = MARKS[kind][0] if kind in MARKS else (140, 170, 205) if kind == "unit" else COUNTER_STYLE[kind][0]
        items.append((colour, (205, 30, 20) if kind == "burning-wreck" else (20, 10, 0), text, 6.6 * len(text) + 34))
    if heat:
        items.append((None, (0, 0, 0), "chance of fire: <1% … 100%", 6.6 * 26 + 100))
    x, row = float(MARGIN), 0
    for swatch, edge, text, w in items:
        if x + w > width - MARGIN and x > MARGIN:
            x, row = float(MARGIN), row + 1
        top = y + 8 + 24 * row
        if swatch is None:  # the chance scale
            for k, p in enumerate((0.0, 0.25, 0.5, 0.75, 1.0)):
                out.append(Shape("poly", _rect(x + 14 * k, top, 14, 16), fill=heat_colour(p)))
            out.append(Shape("text", ((x + 76, top + 8),), fill=(30, 30, 30), text=text, size=11,
                             extra={"anchor": "start"}))
        else:
            out.append(Shape("poly", _rect(x, top, 16, 16), fill=swatch, stroke=edge, width=1.2))
            out.append(Shape("text", ((x + 21, top + 8),), fill=(30, 30, 30), text=text, size=11,
                             extra={"anchor": "start"}))
        x += w
    return out, 24 * (row + 1) + 10


def shapes(pos: Position, *, heat: Mapping[Location, Fraction | float] | None = None,
           title: str | None = None, art: Sequence[BoardArt] = (),
           pictures: Mapping[str, bytes] | None = None) -> tuple[list[Shape], float, float]:
    """The shapes of a picture of *pos* and its size; *heat* tints Locations by probability; *art* (VASL's board
    pictures, :func:`asl_vassal_bridge.vasl.boardart.map_board_art`) goes under the hex grid instead of tints;
    *pictures* are VASL's own unit pictures (PNG by :func:`asl_vassal_bridge.mapview.unit_image_key`)."""
    gm = pos.map
    pts = [h.pixel() for h in gm.hexes] or [(0.0, 0.0)]
    rx, ry = HEX_WIDTH * 2 / 3, HEX_HEIGHT / 2
    x0 = min(p[0] for p in pts) - rx
    y0 = min(p[1] for p in pts) - ry
    x1 = max(p[0] for p in pts) + rx
    y1 = max(p[1] for p in pts) + ry

    def at(x: float, y: float) -> tuple[float, float]:
        return (x - x0) * SCALE + MARGIN, (y - y0) * SCALE + TOP

    def xy(h: Hex) -> tuple[float, float]:
        return at(*h.pixel())

    out: list[Shape] = []
    for a in art:
        ax, ay = at(*a.origin)
        out.append(Shape("image", ((ax, ay),), data=a.png, extra={"w": str(a.width * SCALE),
                                                                  "h": str(a.height * SCALE), "format": a.format}))
    heat_hex = locations_heat(heat or {})
    for h in sorted(gm.hexes):
        info = gm.hexes[h]
        cx, cy = xy(h)
        base = ELEVATION_COLOURS.get(info.elevation, TERRAIN_COLOURS[Terrain.OPEN_GROUND]) if info.elevation else \
            TERRAIN_COLOURS[Terrain.OPEN_GROUND]
        out.append(Shape("poly", _corners(cx, cy), fill=None if art else base, stroke=GRID, width=0.8))
        b = gm.building(h)
        if art:
            pass
        elif b is not None:
            out.append(Shape("poly", _corners(cx, cy, 0.5), fill=TERRAIN_COLOURS[b.terrain], stroke=(30, 20, 10),
                             width=2))
        elif info.terrain not in (Terrain.OPEN_GROUND, Terrain.ROAD):
            colour = TERRAIN_COLOURS.get(info.terrain, (160, 160, 160))
            out.append(Shape("poly", _corners(cx, cy, 0.86 if not info.terrain.inherent else 0.97), fill=colour))
        if info.road and not art:
            out.append(Shape("circle", ((cx, cy + 22 * SCALE),), fill=(120, 110, 90), radius=3))
        if b is not None:  # the building's material and storeys, low in the hex (B23), as in the widget
            top = b.top_level(gm.hex_name(h))
            mark = ("W" if b.material.value == "wooden" else "S") + (f"{top + 1}" if top else "")
            by = cy + 0.68 * ry * SCALE
            out.append(Shape("poly", _rect(cx - 11, by - 7, 22, 14), fill=(30, 20, 10), opacity=0.8))
            out.append(Shape("text", ((cx, by),), fill=(255, 255, 255), text=mark, size=11, bold=True))
        p = heat_hex.get(h, 0.0)
        if p > 0:
            out.append(Shape("poly", _corners(cx, cy, 0.96), fill=heat_colour(p), opacity=0.72))
            out.append(Shape("text", ((cx, cy + 0.78 * ry * SCALE),), fill=(0, 0, 0), text=heat_label(p), size=11,
                             bold=True))
    out.extend(_counter_shapes(pos, xy, pictures))
    for h in sorted(gm.hexes):  # hex names last, on a pale band: nothing covers them
        cx, cy = xy(h)
        name = gm.hex_name(h)
        y = cy - 0.72 * ry * SCALE
        w = 0.6 * 11 * len(name) + 4
        out.append(Shape("poly", _rect(cx - w / 2, y - 6.5, w, 13), fill=(250, 248, 236), opacity=0.82))
        out.append(Shape("text", ((cx, y),), fill=(30, 30, 30), text=name, size=11))
    width = max((x1 - x0) * SCALE + 2 * MARGIN, 480.0)
    map_bottom = (y1 - y0) * SCALE + TOP
    legend, legend_h = _legend_shapes(map_bottom + 4, bool(heat_hex), width)
    out.extend(legend)
    height = map_bottom + 4 + legend_h
    env = pos.environment
    wind = env.wind
    head = title or pos.name or "asl-fire"
    out.append(Shape("text", ((width / 2, 16),), fill=(0, 0, 0), text=head, size=15, bold=True))
    info_line = f"{pos.clock}   EC {env.ec.label} ({env.ec_drm:+d})   {wind}" + ("   GUSTS" if env.gusts else "")
    out.append(Shape("text", ((width / 2, 38),), fill=(0, 0, 0), text=info_line, size=12))
    if wind.force is not WindForce.NO_WIND and wind.direction is not None:
        cx, cy = width - 30, 30
        ox, oy = Hex(0, 0).pixel()
        nx, ny = Hex(0, 0).neighbour(wind.direction).pixel()
        dx, dy = nx - ox, ny - oy
        n = math.hypot(dx, dy) or 1.0
        ex, ey = cx + 18 * dx / n, cy + 18 * dy / n
        out.append(Shape("poly", ((cx - 18 * dx / n, cy - 18 * dy / n), (ex, ey)), stroke=(0, 0, 160), width=3))
        out.append(Shape("circle", ((ex, ey),), fill=(0, 0, 160), radius=4))
    return out, width, height


def unit_pictures(pos: Position, pieces: Mapping[str, Mapping[str, object]], vmod: str | Path) -> dict[str, bytes]:
    """VASL's own picture of each of *pos*'s units whose VASL piece *pieces* holds (by unit id: a saved game's
    pieces, :func:`asl_vassal_bridge.vasl.units.piece_dict`, or a live snapshot's), read out of *vmod*: PNG bytes
    by :func:`~asl_vassal_bridge.mapview.unit_image_key`, for :func:`shapes`' *pictures*.

    :raises VaslFileError: if *vmod* is not a readable module archive.
    """
    from .vasl.unitart import UnitArt

    art = UnitArt(vmod)
    out: dict[str, bytes] = {}
    for u in pos.units:
        piece = pieces.get(u.id)
        if piece is not None and (pic := art.picture(art.names_for(piece))) is not None:
            out[unit_image_key(u)] = pic.png
    return out


def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def render_svg(pos: Position, **kw: object) -> str:
    """An SVG picture of *pos* (see :func:`shapes` for options)."""
    items, w, h = shapes(pos, **kw)  # type: ignore[arg-type]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
             f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="DejaVu Sans, sans-serif">',
             f'<rect width="{w:.0f}" height="{h:.0f}" fill="#f4f1e6"/>']
    for s in items:
        fill = _hex(s.fill) if s.fill else "none"
        stroke = f' stroke="{_hex(s.stroke)}" stroke-width="{s.width}"' if s.stroke else ""
        op = f' opacity="{s.opacity}"' if s.opacity < 1 else ""
        if s.kind == "image":
            (x, y), = s.points
            uri = f"data:image/{s.extra.get('format', 'png')};base64," + base64.b64encode(s.data).decode("ascii")
            parts.append(f'<image x="{x:.1f}" y="{y:.1f}" width="{s.extra["w"]}" height="{s.extra["h"]}" '
                         f'href="{uri}"/>')
        elif s.kind == "poly":
            pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in s.points)
            tag = "polyline" if s.fill is None and len(s.points) == 2 else "polygon"
            parts.append(f'<{tag} points="{pts}" fill="{fill}"{stroke}{op}/>')
        elif s.kind == "circle":
            (x, y), = s.points
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s.radius}" fill="{fill}"{stroke}{op}/>')
        else:
            (x, y), = s.points
            weight = ' font-weight="bold"' if s.bold else ""
            anchor = "start" if s.extra.get("anchor") == "start" else "middle"
            parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{s.size}" text-anchor="{anchor}" '
                         f'dominant-baseline="central"{weight} fill="{fill}">{escape(s.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


#: The largest picture drawn, in pixels (as the largest board picture read): about 10,000 hexes, a map of 30
#: geomorphic boards; its canvas takes 160 MB.
MAX_PICTURE_PIXELS = 40_000_000


class PictureTooLarge(BadInput):
    """A map whose picture would be larger than :data:`MAX_PICTURE_PIXELS`."""


def picture_size(pos: Position) -> tuple[int, int]:
    """The size in pixels of the picture :func:`render_png` draws of *pos* (with the chance scale in its legend)."""
    pts = [h.pixel() for h in pos.map.hexes] or [(0.0, 0.0)]
    rx, ry = HEX_WIDTH * 2 / 3, HEX_HEIGHT / 2
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    width = max((max(xs) - min(xs) + 2 * rx) * SCALE + 2 * MARGIN, 480.0)
    height = (max(ys) - min(ys) + 2 * ry) * SCALE + TOP + 4 + _legend_shapes(0, True, width)[1]
    return int(width), int(height)


def check_picture_size(pos: Position, what: str) -> None:
    """Refuse, before anything is drawn, a map whose picture would exceed :data:`MAX_PICTURE_PIXELS`.

    :raises PictureTooLarge: naming *what* (the option or file) and the size.
    """
    w, h = picture_size(pos)
    if w * h > MAX_PICTURE_PIXELS:
        raise PictureTooLarge(f"{what}: the picture of this map ({len(pos.map.hexes):,} hexes) would be {w:,} × "
                              f"{h:,} pixels; a picture may have at most {MAX_PICTURE_PIXELS:,} (about 10,000 hexes), "
                              "nothing was drawn")


def _composite_translucent(img: Any, s: Shape) -> None:
    """Composite translucent polygon *s* onto *img* through a layer of its bounding box only (a layer the size
    of the picture per shape made a map of a few thousand hexes take minutes)."""
    from PIL import Image, ImageDraw

    xs, ys = [p[0] for p in s.points], [p[1] for p in s.points]
    x0, y0 = max(0, math.floor(min(xs))), max(0, math.floor(min(ys)))
    x1, y1 = min(img.width, math.ceil(max(xs)) + 1), min(img.height, math.ceil(max(ys)) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    assert s.fill is not None
    layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
    ImageDraw.Draw(layer).polygon([(x - x0, y - y0) for x, y in s.points], fill=(*s.fill, int(255 * s.opacity)))
    img.alpha_composite(layer, (x0, y0))


def render_png(pos: Position, path: str | Path, **kw: object) -> None:
    """Write a PNG picture of *pos* (see :func:`shapes` for options).

    :raises PictureTooLarge: for a map whose picture would exceed :data:`MAX_PICTURE_PIXELS` (nothing written).
    """
    import io

    from PIL import Image, ImageDraw, ImageFont

    check_picture_size(pos, str(path))
    items, w, h = shapes(pos, **kw)  # type: ignore[arg-type]
    img = Image.new("RGBA", (int(w), int(h)), (244, 241, 230, 255))
    fonts: dict[tuple[int, bool], ImageFont.ImageFont | ImageFont.FreeTypeFont] = {}

    def font(size: float, bold: bool) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
        k = (int(size), bold)
        if k not in fonts:
            try:
                fonts[k] = ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", k[0])
            except OSError:
                fonts[k] = ImageFont.load_default(k[0])
        return fonts[k]

    draw = ImageDraw.Draw(img)
    for s in items:
        if s.kind == "image":
            (x, y), = s.points
            pic = Image.open(io.BytesIO(s.data)).convert("RGBA")
            size = (round(float(s.extra["w"])), round(float(s.extra["h"])))
            img.alpha_composite(pic.resize(size) if pic.size != size else pic, (round(x), round(y)))
            draw = ImageDraw.Draw(img)
        elif s.opacity < 1 and s.kind == "poly" and s.fill:
            _composite_translucent(img, s)
            draw = ImageDraw.Draw(img)
        elif s.kind == "poly":
            if s.fill is None and len(s.points) == 2:
                draw.line(s.points, fill=s.stroke, width=int(s.width))
            else:
                draw.polygon(s.points, fill=s.fill, outline=s.stroke, width=max(1, round(s.width)))
        elif s.kind == "circle":
            (x, y), = s.points
            r = s.radius
            draw.ellipse((x - r, y - r, x + r, y + r), fill=s.fill, outline=s.stroke)
        else:
            (x, y), = s.points
            anchor = "lm" if s.extra.get("anchor") == "start" else "mm"
            draw.text((x, y), s.text, fill=s.fill, font=font(s.size, s.bold), anchor=anchor)
    img.convert("RGB").save(path, "PNG")
