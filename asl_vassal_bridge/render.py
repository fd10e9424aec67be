"""Pictures of a Position: SVG (text) and PNG (Pillow), drawn from one list of shapes.

Colours follow what an ASL player expects on a board: pale open ground,
dark green woods, olive brush, yellow grain, light green orchards, brown
wooden and grey stone buildings, tan hills; Flames orange, Blazes red.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from xml.sax.saxutils import escape

from .core.environment import WindForce
from .core.hexes import HEX_HEIGHT, HEX_WIDTH, Hex
from .core.position import Location, Position
from .core.terrain import Terrain

__all__ = ["TERRAIN_COLOURS", "Shape", "render_png", "render_svg", "shapes"]

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

SCALE = 0.8
MARGIN = 40


@dataclass(frozen=True, slots=True)
class Shape:
    """A drawing primitive: ``poly`` (points), ``circle`` (centre, radius) or ``text``."""

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


def _corners(cx: float, cy: float, shrink: float = 1.0) -> tuple[tuple[float, float], ...]:
    rx = HEX_WIDTH * 2 / 3 * shrink
    ry = HEX_HEIGHT / 2 * shrink
    return ((cx + rx, cy), (cx + rx / 2, cy + ry), (cx - rx / 2, cy + ry), (cx - rx, cy), (cx - rx / 2, cy - ry),
            (cx + rx / 2, cy - ry))


def _heat(p: float) -> RGB:
    """White → yellow → red for probabilities 0…1."""
    p = max(0.0, min(1.0, p))
    if p < 0.5:
        return (255, 255, int(255 * (1 - 2 * p)))
    return (255, int(255 * (2 - 2 * p)), 0)


def shapes(pos: Position, *, heat: Mapping[Location, Fraction | float] | None = None,
           title: str | None = None) -> tuple[list[Shape], float, float]:
    """The shapes of a picture of *pos* and its size; *heat* tints Locations by probability."""
    gm = pos.map
    pts = [h.pixel() for h in gm.hexes] or [(0.0, 0.0)]
    x0 = min(p[0] for p in pts) - HEX_WIDTH
    y0 = min(p[1] for p in pts) - HEX_HEIGHT
    x1 = max(p[0] for p in pts) + HEX_WIDTH
    y1 = max(p[1] for p in pts) + HEX_HEIGHT

    def xy(h: Hex) -> tuple[float, float]:
        x, y = h.pixel()
        return (x - x0) * SCALE + MARGIN / 2, (y - y0) * SCALE + MARGIN + 20

    def corners(h: Hex, shrink: float = 1.0) -> tuple[tuple[float, float], ...]:
        cx, cy = xy(h)
        return tuple((cx + (px - cx) * SCALE, cy + (py - cy) * SCALE) for px, py in _corners(cx, cy, shrink))

    out: list[Shape] = []
    heat_hex: dict[Hex, float] = {}
    for loc, p in (heat or {}).items():
        heat_hex[loc.hex] = max(heat_hex.get(loc.hex, 0.0), float(p))
    for h in sorted(gm.hexes):
        info = gm.hexes[h]
        base = ELEVATION_COLOURS.get(info.elevation, TERRAIN_COLOURS[Terrain.OPEN_GROUND]) if info.elevation else \
            TERRAIN_COLOURS[Terrain.OPEN_GROUND]
        out.append(Shape("poly", corners(h), fill=base, stroke=GRID, width=0.6))
        b = gm.building(h)
        if b is not None:
            colour = TERRAIN_COLOURS[b.terrain]
            out.append(Shape("poly", corners(h, 0.62), fill=colour, stroke=(30, 20, 10), width=1.6))
            top = b.top_level(gm.hex_name(h))
            cx, cy = xy(h)
            if top:
                out.append(Shape("text", ((cx, cy + 4),), fill=(255, 255, 255), text=f"lv{top}", size=9))
            if info.stairwell:
                out.append(Shape("poly", ((cx - 3, cy - 12), (cx + 3, cy - 12), (cx + 3, cy - 6), (cx - 3, cy - 6)),
                                 fill=(255, 255, 255)))
            if any(name == gm.hex_name(h) for name, _ in b.fortified):
                out.append(Shape("poly", corners(h, 0.7), stroke=(0, 0, 0), width=2.5))
        elif info.terrain is not Terrain.OPEN_GROUND:
            colour = TERRAIN_COLOURS.get(info.terrain, (160, 160, 160))
            out.append(Shape("poly", corners(h, 0.9 if not info.terrain.inherent else 1.0), fill=colour))
        if info.road:
            cx, cy = xy(h)
            out.append(Shape("circle", ((cx, cy),), fill=(120, 110, 90), radius=3))
        if h in heat_hex and heat_hex[h] > 0:
            out.append(Shape("poly", corners(h, 0.95), fill=_heat(heat_hex[h]), opacity=0.75))
            cx, cy = xy(h)
            out.append(Shape("text", ((cx, cy + 14),), fill=(0, 0, 0), text=f"{heat_hex[h]:.0%}", size=9))
        cx, cy = xy(h)
        out.append(Shape("text", ((cx, cy - 16),), fill=(40, 40, 40), text=gm.hex_name(h), size=8))
    for w in pos.wrecks:
        cx, cy = xy(w.location.hex)
        out.append(Shape("poly", ((cx - 12, cy + 2), (cx + 12, cy + 2), (cx + 12, cy + 14), (cx - 12, cy + 14)),
                         fill=WRECK, stroke=BLAZE if w.burning else None, width=2))
    stacked: dict[Hex, int] = {}
    for f in sorted(pos.fires, key=lambda f: f.location):
        h = f.location.hex
        k = stacked.get(h, 0)
        stacked[h] = k + 1
        cx, cy = xy(h)
        cx += 9 * k - 4
        cy -= 2 + 4 * k
        colour = BLAZE if f.is_blaze else FLAME
        out.append(Shape("circle", ((cx, cy),), fill=colour, stroke=(60, 0, 0), radius=9 if f.is_blaze else 7))
        label = ("B" if f.is_blaze else "F") + (f"{f.location.level}" if f.location.level else "")
        out.append(Shape("text", ((cx, cy + 3),), fill=(255, 255, 255), text=label, size=8))
    width = (x1 - x0) * SCALE + MARGIN
    height = (y1 - y0) * SCALE + MARGIN + 40
    env = pos.environment
    wind = env.wind
    head = title or pos.name or "asl-fire"
    out.append(Shape("text", ((width / 2, 16),), fill=(0, 0, 0), text=head, size=13))
    info_line = f"{pos.clock}   EC {env.ec.label} ({env.ec_drm:+d})   {wind}" + ("   GUSTS" if env.gusts else "")
    out.append(Shape("text", ((width / 2, 34),), fill=(0, 0, 0), text=info_line, size=11))
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


def _hex(c: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def render_svg(pos: Position, **kw: object) -> str:
    """An SVG picture of *pos* (see :func:`shapes` for options)."""
    items, w, h = shapes(pos, **kw)  # type: ignore[arg-type]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
             f'viewBox="0 0 {w:.0f} {h:.0f}" font-family="sans-serif">',
             f'<rect width="{w:.0f}" height="{h:.0f}" fill="#f4f1e6"/>']
    for s in items:
        fill = _hex(s.fill) if s.fill else "none"
        stroke = f' stroke="{_hex(s.stroke)}" stroke-width="{s.width}"' if s.stroke else ""
        op = f' opacity="{s.opacity}"' if s.opacity < 1 else ""
        if s.kind == "poly":
            pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in s.points)
            tag = "polyline" if s.fill is None and len(s.points) == 2 else "polygon"
            parts.append(f'<{tag} points="{pts}" fill="{fill}"{stroke}{op}/>')
        elif s.kind == "circle":
            (x, y), = s.points
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s.radius}" fill="{fill}"{stroke}{op}/>')
        else:
            (x, y), = s.points
            parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{s.size}" text-anchor="middle" '
                         f'fill="{fill}">{escape(s.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def render_png(pos: Position, path: str | Path, **kw: object) -> None:
    """Write a PNG picture of *pos*."""
    from PIL import Image, ImageDraw, ImageFont

    items, w, h = shapes(pos, **kw)  # type: ignore[arg-type]
    img = Image.new("RGB", (int(w), int(h)), (244, 241, 230))
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    odraw = ImageDraw.Draw(overlay)
    fonts: dict[int, ImageFont.ImageFont | ImageFont.FreeTypeFont] = {}

    def font(size: float) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
        k = int(size)
        if k not in fonts:
            try:
                fonts[k] = ImageFont.truetype("DejaVuSans.ttf", k)
            except OSError:
                fonts[k] = ImageFont.load_default()
        return fonts[k]

    for s in items:
        if s.opacity < 1 and s.kind == "poly" and s.fill:
            img.paste(Image.alpha_composite(img.convert("RGBA"), overlay).convert("RGB"))
            overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
            odraw = ImageDraw.Draw(overlay)
            odraw.polygon(s.points, fill=(*s.fill, int(255 * s.opacity)))
            img = Image.alpha_composite(img.convert("RGBA"), overlay).convert("RGB")
            overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
            odraw = ImageDraw.Draw(overlay)
            draw = ImageDraw.Draw(img)
            continue
        if s.kind == "poly":
            if s.fill is None and len(s.points) == 2:
                draw.line(s.points, fill=s.stroke, width=int(s.width))
            else:
                draw.polygon(s.points, fill=s.fill, outline=s.stroke, width=max(1, int(s.width)))
        elif s.kind == "circle":
            (x, y), = s.points
            r = s.radius
            draw.ellipse((x - r, y - r, x + r, y + r), fill=s.fill, outline=s.stroke)
        else:
            (x, y), = s.points
            draw.text((x, y), s.text, fill=s.fill, font=font(s.size), anchor="ms")
    img.save(path, "PNG")
