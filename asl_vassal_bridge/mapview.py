"""The map as a player reads it, for every picture of it (the notebook widget, the CLI's PNG and SVG).

One drawing model: which counters lie in each hex and in what order (units, wrecks, fires with their
Level counter, smoke, B25.2), where each counter goes inside its hex, their colours and names, the
marks of a unit's state (broken, pinned, berserk, CX) and the legend.  The widget (``asl_fire_widget.drawing``,
ipycanvas) and :mod:`asl_vassal_bridge.render` (Pillow and SVG) only turn it into pixels, so a player
sees the same map in a notebook, a PNG and an SVG.  No I/O here.

>>> from asl_vassal_bridge.scenarios import demo_position
>>> pos = demo_position()
>>> [c.text for c in counters_in(pos)[pos.map.parse_hex("F7")]]
['4-6-7', '8-1']
>>> len(counter_boxes(8, 0.0, 0.0, 1.0))
8
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from .core.hexes import HEX_HEIGHT, HEX_WIDTH, Hex
from .core.position import Location, Position, Unit, UnitKind
from .core.smoke import fire_smoke

__all__ = [
    "COUNTER_STYLE",
    "LEGEND",
    "MIN_MARKER",
    "Counter",
    "counter_boxes",
    "counters_in",
    "heat_colour",
    "heat_label",
    "locations_heat",
    "side_colours",
    "unit_image_key",
]

RGB = tuple[int, int, int]

#: VASL's counter colours (fill, ink, name): Flame yellow-orange, Blaze red, wrecks dark grey, smoke pale
#: grey, Level white.
COUNTER_STYLE: dict[str, tuple[RGB, RGB, str]] = {
    "flame": ((255, 170, 20), (60, 20, 0), "Flame"),
    "blaze": ((205, 30, 20), (255, 255, 255), "Blaze"),
    "wreck": ((70, 70, 70), (255, 255, 255), "Wreck"),
    "burning-wreck": ((70, 70, 70), (255, 200, 60), "Wreck"),
    "smoke": ((200, 200, 200), (40, 40, 40), "Smoke"),
    "level": ((255, 255, 255), (0, 0, 0), "Level"),
}

#: The counter colours of VASL's nationalities (fill, ink), by the side's name in lower case.
_NATION_COLOURS: dict[str, tuple[RGB, RGB]] = {
    "german": ((140, 170, 205), (0, 0, 0)),
    "russian": ((196, 150, 95), (0, 0, 0)),
    "american": ((110, 135, 60), (255, 255, 255)),
    "british": ((205, 180, 125), (0, 0, 0)),
    "japanese": ((235, 205, 60), (0, 0, 0)),
    "italian": ((175, 175, 135), (0, 0, 0)),
    "finnish": ((215, 215, 215), (0, 0, 0)),
    "french": ((90, 120, 200), (255, 255, 255)),
    "chinese": ((150, 150, 150), (0, 0, 0)),
}
_OTHER_SIDES: tuple[tuple[RGB, RGB], ...] = (((140, 170, 205), (0, 0, 0)), ((196, 150, 95), (0, 0, 0)),
                                             ((110, 135, 60), (255, 255, 255)))

#: Unit state marks: a coloured corner and a short word (broken red, pinned orange, berserk magenta, CX
#: green as VASL's CX counter, A4.51).
MARKS: dict[str, tuple[RGB, str]] = {
    "broken": ((220, 20, 20), "brk"),
    "pinned": ((240, 140, 0), "pin"),
    "berserk": ((200, 0, 160), "bsk"),
    "cx": ((0, 150, 70), "CX"),
}

#: The smallest counter drawn, in picture pixels: below it a hex shows its most telling counter alone.
MIN_MARKER = 9.0

#: What the counters mean, for the legend of every picture: (kind, text).
LEGEND: tuple[tuple[str, str], ...] = (
    ("flame", "Flame"), ("blaze", "Blaze"), ("burning-wreck", "Burning Wreck"), ("smoke", "Smoke"),
    ("level", "Level of the fire"), ("unit", "unit (side colour)"), ("broken", "broken"), ("pinned", "pinned"),
    ("berserk", "berserk"), ("cx", "CX (A4.51)"),
)


def unit_image_key(u: Unit) -> str:
    """The key of VASL's own picture of a unit as it was read (its id, name, broken and berserk side): a unit whose
    counter has changed since (broken, rallied, Battle Hardened) is drawn in its side's colour instead of from
    a picture that no longer shows it.

    >>> from asl_vassal_bridge.core import Hex, Location
    >>> unit_image_key(Unit("17", "Russian 4-2-6", "Russian", Location(Hex(0, 0)), broken=True))
    'unit:17:Russian 4-2-6:10'
    """
    return f"unit:{u.id}:{u.name}:{int(u.broken)}{int(u.berserk)}"


def side_colours(pos: Position) -> dict[str, tuple[RGB, RGB]]:
    """Each side's counter colours (fill, ink): VASL's nationality colours, else one of three in turn.

    >>> from asl_vassal_bridge.scenarios import demo_position
    >>> side_colours(demo_position())["German"]
    ((140, 170, 205), (0, 0, 0))
    """
    sides = list(dict.fromkeys([*pos.sides, *(u.side for u in pos.units)]))
    out: dict[str, tuple[RGB, RGB]] = {}
    for i, s in enumerate(sides):
        out[s] = _NATION_COLOURS.get(s.strip().lower(), _OTHER_SIDES[i % len(_OTHER_SIDES)])
    return out


_PRIORITY = {"blaze": 0, "flame": 1, "burning-wreck": 2, "unit": 3, "wreck": 4, "smoke": 5}


@dataclass(frozen=True)
class Counter:
    """One counter on the map: its kind (a key of :data:`COUNTER_STYLE`, or ``unit``), the level a Level
    counter marks, and the unit a unit counter is.

    >>> Counter("level", 2).text, Counter("level", -1).text, Counter("level", 1, rooftop=True).text
    ('Level 2', 'Cellar', 'Roof')
    """

    kind: str
    level: int = 0
    rooftop: bool = False
    unit: Unit | None = None

    @property
    def text(self) -> str:
        if self.unit is not None:
            return self.unit.name
        if self.kind == "level":
            return "Roof" if self.rooftop else (f"Level {self.level}" if self.level >= 0 else "Cellar")
        return COUNTER_STYLE[self.kind][2]

    @property
    def short(self) -> str:
        """The name on a small counter: F, B, Wr, Sm, L1, Cel, Rf; a unit's name without its dashes."""
        if self.unit is not None:
            return self.unit.name.replace("-", "")[:4]
        if self.kind == "level":
            return "Rf" if self.rooftop else (f"L{self.level}" if self.level >= 0 else "Cel")
        return {"flame": "F", "blaze": "B"}.get(self.kind, self.text[:2])

    @property
    def image_key(self) -> str:
        """The key of VASL's image for this counter: the module's Level image is the Level 1 counter; a unit's
        is :func:`unit_image_key`."""
        if self.unit is not None:
            return unit_image_key(self.unit)
        if self.kind == "level" and (self.level != 1 or self.rooftop):
            return f"level {self.text}"
        return self.kind

    @property
    def marks(self) -> tuple[str, ...]:
        """The unit's state marks (keys of :data:`MARKS`)."""
        u = self.unit
        if u is None:
            return ()
        return tuple(k for k, on in (("broken", u.broken), ("pinned", u.pinned), ("berserk", u.berserk),
                                     ("cx", u.is_cx)) if on)

    @property
    def priority(self) -> int:
        """How telling the counter is when a hex can show only one: a Blaze, then a Flame, a burning wreck…"""
        return _PRIORITY.get(self.kind, 6)


def counters_in(pos: Position) -> dict[Hex, list[Counter]]:
    """The counters of each hex, bottom to top, as a player stacks them: units (leaders over squads), wrecks,
    then fires by level (a fire above ground level or in a cellar with its Level counter beside it), then
    smoke (B25.2: over a Blaze or Burning Wreck, and Dispersed Smoke where it drifts), then the SMOKE counters
    (A24)."""
    out: dict[Hex, list[Counter]] = {}
    order = {UnitKind.VEHICLE: 0, UnitKind.GUN: 1, UnitKind.SQUAD: 2, UnitKind.HALF_SQUAD: 3, UnitKind.CREW: 3}
    for u in sorted(pos.units, key=lambda u: (u.location, order.get(u.kind, 4))):
        out.setdefault(u.location.hex, []).append(Counter("unit", u.location.level, unit=u))
    for w in pos.wrecks:
        out.setdefault(w.location.hex, []).append(Counter("burning-wreck" if w.burning else "wreck"))
    for f in sorted(pos.fires, key=lambda f: (f.location, not f.is_blaze)):
        loc: Location = f.location
        out.setdefault(loc.hex, []).append(Counter("blaze" if f.is_blaze else "flame", loc.level, loc.rooftop))
        if loc.level != 0 or loc.rooftop:
            out[loc.hex].append(Counter("level", loc.level, loc.rooftop))
    for fs in fire_smoke(pos):
        for h in (fs.location.hex, *fs.drift):
            out.setdefault(h, []).append(Counter("smoke"))
    for sm in pos.smoke:  # SMOKE counters (A24), which a Gust disperses or eliminates (B25.651)
        out.setdefault(sm.location.hex, []).append(Counter("smoke", sm.location.level))
    return out


@functools.lru_cache(maxsize=64)
def _stack_layout(n: int) -> tuple[int, float]:
    """Columns and counter side (at scale 1) for *n* counters: the largest side whose block of counters lies
    inside the hex at every corner (the layout scales with the zoom)."""
    rx, ry = HEX_WIDTH * 2 / 3, HEX_HEIGHT / 2
    top = -0.42 * ry
    cols = 1 if n == 1 else 2 if n <= 4 else 3 if n <= 9 else math.ceil(math.sqrt(n * 1.2))
    rows = math.ceil(n / cols)

    def fits(side: float) -> bool:  # every corner of the block inside the hex
        gap = 0.08 * side
        half_w = (cols * side + (cols - 1) * gap) / 2
        bottom = top + rows * side + (rows - 1) * gap
        worst = max(abs(top), abs(bottom))
        return bottom <= ry and half_w <= rx - worst / ry * rx / 2

    lo, hi = 0.0, 28.0
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return cols, lo


def counter_boxes(n: int, cx: float, cy: float, scale: float) -> list[tuple[float, float, float]]:
    """Top-left corner and side of *n* counters in a hex centred at (cx, cy) at *scale* picture pixels per
    board pixel: in rows, below the hex name, never on top of each other, and all inside the hex whatever
    their number (more counters, smaller ones).

    >>> def inside(dx, dy):  # a point of a flat-topped hex of circumradius 37.5 and half-height 32.25
    ...     return abs(dy) <= 32.25 and abs(dx) <= 37.5 - abs(dy) / 32.25 * 37.5 / 2
    >>> all(inside(x + a - 100, y + b - 100) for n in (1, 6, 9, 14) for x, y, s in counter_boxes(n, 100, 100, 1)
    ...     for a in (0, s) for b in (0, s))
    True
    """
    cols, unit = _stack_layout(n)
    side, gap = unit * scale, 0.08 * unit * scale
    top = cy - 0.42 * HEX_HEIGHT / 2 * scale  # below the hex name
    out = []
    for k in range(n):
        col, row = k % cols, k // cols
        in_row = min(cols, n - row * cols)
        x = cx + (col - (in_row - 1) / 2) * (side + gap) - side / 2
        y = top + row * (side + gap)
        out.append((x, y, side))
    return out


def heat_colour(p: float) -> RGB:
    """Pale yellow → orange → deep red for chances 0…1."""
    p = max(0.0, min(1.0, p))
    if p < 0.5:
        return (255, int(240 - 120 * p * 2), int(120 - 120 * p * 2))
    return (int(255 - 80 * (p - 0.5) * 2), int(120 - 120 * (p - 0.5) * 2), 0)


def heat_label(p: float) -> str:
    """A chance as players read it: a small non-zero chance is never "0%".

    >>> [heat_label(p) for p in (0.0004, 0.004, 0.006, 0.5, 0.996, 1.0)]
    ['<1%', '<1%', '1%', '50%', '>99%', '100%']
    """
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{p:.0%}"


def locations_heat(values: Mapping[Location, float] | Mapping[Location, Fraction | float]) -> dict[Hex, float]:
    """The highest chance per hex."""
    out: dict[Hex, float] = {}
    for loc, p in values.items():
        out[loc.hex] = max(out.get(loc.hex, 0.0), float(p))
    return out
