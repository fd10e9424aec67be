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
from .explain import DRM, Event
from .hexes import Hex
from .position import Location, Phase, Position, Smoke
from .values import replace, value

__all__ = ["SMOKE_HINDRANCE_CAP", "FireSmoke", "drifting", "fire_smoke", "gust_on_smoke", "smoke_hindrance"]

#: The most smoke Hindrance one Location can give (Fire cheat sheet: LOS/Smoke).
SMOKE_HINDRANCE_CAP = 3


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


def drifting(pos: Position) -> bool:
    """Whether fire smoke drifts now (Fire cheat sheet): in a Mild Breeze it drifts at the start of the game's
    first RPh and of every AFPh; a wind change (direction or force) removes the drifting counters at once and
    a Gust eliminates them as Dispersed SMOKE (B25.651), until the next AFPh starts."""
    env = pos.environment
    if env.wind.force is not WindForce.MILD_BREEZE or env.wind.direction is None:
        return False
    phases = list(Phase)
    cleared = env.drift_cleared or env.gusts  # a Player Turn of Gusts began with one (B25.651)
    return not (cleared and phases.index(pos.clock.phase) < phases.index(Phase.AFPH))


def fire_smoke(pos: Position) -> list[FireSmoke]:
    """Every fire's smoke on the map now (B25.2), with its drift when smoke drifts now (:func:`drifting`).

    In a non-rooftop Location of an Interior Building hex No Wind always applies (B25.63), so a fire's
    smoke there rises four levels and does not drift, whatever the Wind Force (Heavy Winds too).
    """
    wind = pos.environment.wind
    interior = pos.map.interior_hexes
    drifts = drifting(pos)
    out: list[FireSmoke] = []
    sources = [(f.location, 3, False) for f in sorted(pos.blazes(), key=lambda f: f.location)]
    sources += [(w.location, 2, True) for w in pos.burning_wrecks()]
    for loc, hind, wreck in sources:
        force = WindForce.NO_WIND if loc.hex in interior and not loc.rooftop else wind.force
        if force is WindForce.HEAVY_WINDS:
            continue
        height = 2 if force is WindForce.MILD_BREEZE else 4
        drift: tuple[Hex, ...] = ()
        if force is WindForce.MILD_BREEZE and drifts and wind.direction is not None:
            drift = tuple(loc.hex.neighbour(wind.direction, i) for i in range(1, hind + 1))
            drift = tuple(h for h in drift if h in pos.map.hexes)
        out.append(FireSmoke(loc, hind, height, wreck, drift))
    return out


def gust_on_smoke(pos: Position) -> tuple[Position, tuple[Event, ...]]:
    """A Gust's effect on the SMOKE counters (B25.651): every Dispersed one is eliminated, every other one
    dispersed, one event each.  Fires' own smoke has no counter and is not touched (B25.2).

    >>> from .position import GameMap, HexInfo
    >>> from .terrain import Terrain
    >>> a, b = Location(Hex.parse("A1")), Location(Hex.parse("A2"))
    >>> m = GameMap.from_hexes({a.hex: HexInfo(Terrain.OPEN_GROUND), b.hex: HexInfo(Terrain.OPEN_GROUND)})
    >>> new, events = gust_on_smoke(Position(m, smoke=(Smoke(a), Smoke(b, wp=True, dispersed=True))))
    >>> [s.describe() for s in new.smoke], [e.text for e in events]
    (['Dispersed SMOKE'], ['SMOKE in A1 dispersed', 'Dispersed WP in A2 eliminated'])
    """
    kept: list[Smoke] = []
    events: list[Event] = []
    for s in pos.smoke:
        where = pos.loc_name(s.location)
        if s.dispersed:
            events.append(Event("B25.651", f"{s.describe()} in {where} eliminated", kind="smoke"))
        else:
            kept.append(replace(s, dispersed=True))
            events.append(Event("B25.651", f"{s.describe()} in {where} dispersed", kind="smoke"))
    return replace(pos, smoke=tuple(kept)), tuple(events)


def smoke_hindrance(pos: Position, firer: Location, target: Location) -> tuple[DRM, ...]:
    """The fire smoke Hindrance DRMs of an attack from *firer* to *target* (B25.2; Fire cheat sheet: LOS/Smoke).

    Every hex of the hex-centre LOS, both ends included, whose fires' smoke the LOS passes (a terrain Blaze +3,
    a Burning Wreck +2, :func:`fire_smoke`; the smoke fills the levels from the fire up to its height) adds
    their Hindrance, never more than +3 for one Location; fire traced out of or within a smoke Location adds
    +1 more.  The LOS's height in a hex between the ends is read in a straight line between their
    elevations.  SMOKE counters and drifting Dispersed Smoke (A24) are not counted: their DRMs are not in
    our texts.

    >>> from .position import GameMap, HexInfo, Fire, FireKind
    >>> from .terrain import Terrain
    >>> a, b = Location(Hex.parse("A1")), Location(Hex.parse("A2"))
    >>> m = GameMap.from_hexes({a.hex: HexInfo(Terrain.WOODS), b.hex: HexInfo(Terrain.WOODS)})
    >>> [str(d) for d in smoke_hindrance(Position(m, fires=(Fire(a, FireKind.BLAZE),)), a, b)]
    ['+3 smoke in A1 (B25.2)', '+1 fire out of a smoke Location (Fire cheat sheet: LOS/Smoke)']
    """
    pos._check_location(firer)
    pos._check_location(target)
    m = pos.map
    by_hex: dict[Hex, list[FireSmoke]] = {}
    for fs in fire_smoke(pos):
        by_hex.setdefault(fs.location.hex, []).append(fs)
    if not by_hex:
        return ()
    ef, et = m.elevation(firer), m.elevation(target)
    line = firer.hex.line_to(target.hex)
    n = max(1, len(line) - 1)
    out: list[DRM] = []
    firer_in_smoke = False
    for i, h in enumerate(line):
        sources = by_hex.get(h)
        if not sources:
            continue
        ends = [loc for loc in (firer, target) if loc.hex == h]
        hinder = 0
        for fs in sources:
            base = m.elevation(fs.location)
            top = base + fs.height
            if ends:
                inside = [loc for loc in ends if base <= m.elevation(loc) <= top]
                if not inside:
                    continue
                firer_in_smoke = firer_in_smoke or firer in inside
            elif ef + (et - ef) * i / n > top:
                continue
            hinder += fs.hindrance
        if hinder:
            what = f"smoke in {m.hex_name(h)}"
            if hinder > SMOKE_HINDRANCE_CAP:
                what += f" (+{hinder} capped at +{SMOKE_HINDRANCE_CAP} for one Location)"
                hinder = SMOKE_HINDRANCE_CAP
            rule = "B25.2, Fire cheat sheet: LOS/Smoke" if "capped" in what else "B25.2"
            out.append(DRM(hinder, what, rule))
    if firer_in_smoke:
        out.append(DRM(1, "fire out of a smoke Location", "Fire cheat sheet: LOS/Smoke"))
    return tuple(out)
