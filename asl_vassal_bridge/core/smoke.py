"""Smoke from fires (B25.2; drifting Dispersed Smoke, A24.61): data the readers and the widget show.

>>> from .position import GameMap, HexInfo, Position, Fire, FireKind
>>> from .hexes import Hex
>>> from .terrain import Terrain
>>> loc = Location(Hex.parse("A1"))
>>> pos = Position(GameMap.from_hexes({loc.hex: HexInfo(Terrain.WOODS)}), fires=(Fire(loc, FireKind.BLAZE),))
>>> fire_smoke(pos)[0].hindrance, fire_smoke(pos)[0].height
(3, 4)
"""

from __future__ import annotations

from .environment import WindForce
from .hexes import Hex
from .position import Location, Position
from .values import value

__all__ = ["FireSmoke", "fire_smoke"]


@value
class FireSmoke:
    """The smoke a terrain Blaze (+3) or Burning Wreck (+2) makes in its hex (B25.2).

    It rises *height* levels above the fire (4; 2 in a Mild Breeze; none in
    Heavy Winds).  In a Mild Breeze it drifts: as many Dispersed Smoke
    counters as its Hindrance DRM, in the hexes downwind (*drift*).
    Flames make no smoke.
    """

    location: Location
    hindrance: int
    height: int
    wreck: bool = False
    drift: tuple[Hex, ...] = ()

    @property
    def top_elevation_above_fire(self) -> int:
        return self.height


def fire_smoke(pos: Position) -> list[FireSmoke]:
    """Every fire's smoke on the map now (B25.2).

    In a non-rooftop Location of an Interior Building hex No Wind always applies (B25.63), so a fire's
    smoke there rises four levels and does not drift, whatever the Wind Force (Heavy Winds too).
    """
    wind = pos.environment.wind
    interior = pos.map.interior_hexes
    out: list[FireSmoke] = []
    sources = [(f.location, 3, False) for f in sorted(pos.blazes(), key=lambda f: f.location)]
    sources += [(w.location, 2, True) for w in pos.burning_wrecks()]
    for loc, hind, wreck in sources:
        force = WindForce.NO_WIND if loc.hex in interior and not loc.rooftop else wind.force
        if force is WindForce.HEAVY_WINDS:
            continue
        height = 2 if force is WindForce.MILD_BREEZE else 4
        drift: tuple[Hex, ...] = ()
        if force is WindForce.MILD_BREEZE and wind.direction is not None:
            drift = tuple(loc.hex.neighbour(wind.direction, i) for i in range(1, hind + 1))
            drift = tuple(h for h in drift if h in pos.map.hexes)
        out.append(FireSmoke(loc, hind, height, wreck, drift))
    return out
