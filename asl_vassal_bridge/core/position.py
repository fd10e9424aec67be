"""Locations, the map, fire state and the game clock: the immutable Position.

>>> pos = Position(GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.WOODS)}))
>>> pos.add_fire(Fire(Location(Hex.parse("A1")), FireKind.FLAME, since=pos.clock.player_turn)).flames()[0].location.name
'A1'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from .environment import Environment
from .errors import IllegalAction
from .hexes import Direction, Hex, HexNameError, MapLayout
from .terrain import Building, BuildingKind, Material, Terrain
from .values import field, replace, value

__all__ = [
    "Clock",
    "Fire",
    "FireKind",
    "GameMap",
    "HexInfo",
    "Location",
    "OffBoardError",
    "Phase",
    "Position",
    "Smoke",
    "Unit",
    "UnitKind",
    "Wreck",
]


class OffBoardError(HexNameError):
    """A hex or Location that is not on the map."""


ROOFTOP_NAME = "roof"


class Location(NamedTuple):
    """A hex and a level: 0 ground, 1–3 upper building levels, −1 cellar.

    A rooftop (B23.8) has ``rooftop=True`` and the level above the top floor,
    so elevation arithmetic works unchanged.

    A named tuple, for cheap hashing.

    >>> Location.parse("E4.1")
    Location(hex=Hex(q=4, r=2), level=1, rooftop=False)
    >>> Location.parse("E4").name
    'E4'
    """

    hex: Hex
    level: int = 0
    rooftop: bool = False

    @classmethod
    def parse(cls, text: str, layout: MapLayout | None = None) -> Location:
        """Parse ``E4``, ``E4.1``, ``E4 Level 1``, ``E4.roof`` (level of a roof is filled in by the map).

        :raises HexNameError: for a malformed name.
        """
        m = re.match(r"^\s*(.+?)\s*(?:(?:\.|\s+level\s+|\s+)(-?\d+|roof|rooftop))?\s*$", text, re.IGNORECASE)
        if not m:
            raise HexNameError(f"{text!r} is not a Location (expected a hex such as E4, or E4.1, E4.roof)")
        hx = (layout or MapLayout()).parse(m.group(1))
        lv = m.group(2)
        if lv is None:
            return cls(hx)
        if lv.lower().startswith("roof"):
            return cls(hx, -99, True)
        return cls(hx, int(lv))

    @property
    def name(self) -> str:
        return self.label(None)

    def label(self, layout: MapLayout | None) -> str:
        """``E4``, ``E4.1`` or ``E4.roof`` with the map's hex names."""
        h = layout.name(self.hex) if layout else self.hex.name
        if self.rooftop:
            return f"{h}.{ROOFTOP_NAME}"
        return h if self.level == 0 else f"{h}.{self.level}"

    def __str__(self) -> str:
        return self.name

    @property
    def ground(self) -> Location:
        return Location(self.hex)


@value
class HexInfo:
    """What the fire rules need to know of one hex.

    *building* is a :class:`Building` id; *feature* names a contiguous
    depiction (a woods patch, an orchard): hexes with the same feature are
    directly attached (B25.62).  *interior* is computed by the map.
    """

    terrain: Terrain = Terrain.OPEN_GROUND
    elevation: int = 0
    building: str | None = None
    stairwell: bool = False
    feature: str | None = None
    road: bool = False


class FireKind(enum.Enum):
    FLAME = "flame"
    BLAZE = "blaze"


@value
class Fire:
    """A Flame or terrain Blaze in a Location.

    *since* is the Player Turn index (see :class:`Clock`) in which the Flame
    appeared or the Blaze formed: a Flame cannot become a Blaze, nor a Blaze
    spread, in that Player Turn (B25.15, B25.6).  *hampered* marks a Flame
    Hampered this Player Turn (B24.721).  *kindled_by* names the side that
    deliberately kindled it (Fire & Victory); None for accidental fires.
    *also_kindled_by* names the other side when fires kindled by both sides
    reached the Location (a Blaze keeps every kindler of the Flames it came
    from, B25.15 with Fire & Victory).

    >>> Fire(Location.parse("A1"), FireKind.BLAZE, kindled_by="German").kindlers
    ('German',)
    """

    location: Location
    kind: FireKind
    since: int = 0
    hampered: bool = False
    kindled_by: str | None = None
    also_kindled_by: str | None = None

    @property
    def kindlers(self) -> tuple[str, ...]:
        """The sides whose deliberately kindled fire burns here (Fire & Victory), in order."""
        return tuple(k for k in (self.kindled_by, self.also_kindled_by) if k is not None)

    @staticmethod
    def kindlers_of(fires: Iterable[Fire]) -> tuple[str | None, str | None]:
        """``(kindled_by, also_kindled_by)`` for a fire that came from *fires*: every kindler they carry.

        >>> a, b = (Fire(Location.parse("A1"), FireKind.FLAME, kindled_by=s) for s in ("German", None))
        >>> Fire.kindlers_of([b, a, a])
        ('German', None)
        """
        sides = list(dict.fromkeys(k for f in fires for k in f.kindlers))
        return (sides[0] if sides else None), (sides[1] if len(sides) > 1 else None)

    @property
    def is_flame(self) -> bool:
        return self.kind is FireKind.FLAME

    @property
    def is_blaze(self) -> bool:
        return self.kind is FireKind.BLAZE


@value
class Wreck:
    """A vehicle wreck; burning when it carries a Blaze (B25.14).

    *bypass* is the hexside it was Bypassing along, if any: a burning wreck in
    Bypass may spread into either hex it straddles (B25.6) with −2 (B25.62).
    """

    location: Location
    burning: bool = True
    bypass: Direction | None = None
    name: str = "Wreck"
    since: int = 0


@value
class Smoke:
    """A SMOKE counter on the map (A24): SMOKE, or WP (*wp*), *dispersed* or not; a Gust eliminates the
    Dispersed ones and disperses the others (B25.651). Fires' own smoke has no counter (B25.2)."""

    location: Location
    wp: bool = False
    dispersed: bool = False

    def describe(self) -> str:
        return ("Dispersed " if self.dispersed else "") + ("WP" if self.wp else "SMOKE")


class UnitKind(enum.Enum):
    SQUAD = "squad"
    HALF_SQUAD = "half-squad"
    CREW = "crew"
    LEADER = "leader"
    HERO = "hero"
    VEHICLE = "vehicle"
    CAVALRY = "cavalry"
    GUN = "gun"

    @property
    def is_infantry(self) -> bool:
        return self in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW, UnitKind.LEADER, UnitKind.HERO)

    @property
    def is_smc(self) -> bool:
        return self in (UnitKind.LEADER, UnitKind.HERO)


@value
class Unit:
    """A unit as far as fire is concerned (B25.4 exits, Kindling, Clearance).

    *immobilized*: a vehicle that cannot move (an Immobilized marker, D5.7); in a terrain Blaze it cannot
    leave and is eliminated (B25.4).  *cx*: Infantry under a CX counter, Exhausted by Double Time (A4.51): +1
    to its attacks, its FT attack (A22.2) and its MOL Check and MOL attack (A22.611, A4.51).  *ft*: the FT counters
    a Personnel unit possesses; any attack vs it is one lower per FT (A22.4).

    >>> Unit("g1", "4-6-7", "German", Location(Hex(0, 0)), cx=True, berserk=True).is_cx
    False
    """

    id: str
    name: str
    side: str
    location: Location
    kind: UnitKind = UnitKind.SQUAD
    broken: bool = False
    pinned: bool = False
    in_melee: bool = False
    berserk: bool = False
    in_pillbox: bool = False
    may_break_voluntarily: bool = True
    immobilized: bool = False
    cx: bool = False
    ft: int = 0

    @property
    def is_pinned(self) -> bool:
        """Pinned as the rules see it: a berserk unit loses any pinned status (A15.42)."""
        return self.pinned and not self.berserk

    @property
    def is_cx(self) -> bool:
        """CX as the rules see it (A4.51): a berserk unit loses any CX status (A15.42)."""
        return self.cx and not self.berserk


class Phase(enum.Enum):
    """The eight phases of a Player Turn."""

    RPH = "RPh"
    PFPH = "PFPh"
    MPH = "MPh"
    DFPH = "DFPh"
    AFPH = "AFPh"
    RTPH = "RtPh"
    APH = "APh"
    CCPH = "CCPh"

    @classmethod
    def from_name(cls, name: str) -> Phase:
        for p in cls:
            if p.value.lower() == name.strip().lower() or p.name.lower() == name.strip().lower():
                return p
        raise ValueError(f"unknown phase {name!r} (expected one of: {', '.join(p.value for p in cls)})")


@value(order=True)
class Clock:
    """Game Turn, which player's half (1 or 2) and phase.

    >>> Clock(2, 1).player_turn
    3
    """

    turn: int = 1
    half: int = 1
    phase: Phase = Phase.RPH

    def __post_init__(self) -> None:
        if self.turn < 1 or self.half not in (1, 2):
            raise ValueError(f"turn must be ≥ 1 and half 1 or 2, not turn {self.turn} half {self.half}")

    @property
    def player_turn(self) -> int:
        """Player Turns since the start: 1 for the first player's Turn 1."""
        return 2 * (self.turn - 1) + self.half

    def next_phase(self) -> Clock:
        phases = list(Phase)
        i = phases.index(self.phase)
        if i + 1 < len(phases):
            return replace(self, phase=phases[i + 1])
        return self.next_player_turn()

    def next_player_turn(self) -> Clock:
        if self.half == 1:
            return Clock(self.turn, 2, Phase.RPH)
        return Clock(self.turn + 1, 1, Phase.RPH)

    def __str__(self) -> str:
        return f"Turn {self.turn}.{self.half} {self.phase.value}"


@value(slots=False)
class GameMap:
    """The hexes of a map with their terrain, the buildings, and how hexes are named.

    Derived relations (Interior Building hexes, Locations per hex) are
    computed once and cached.
    """

    hexes: Mapping[Hex, HexInfo]
    buildings: Mapping[str, Building] = field(default_factory=dict)
    layout: MapLayout = MapLayout()
    name: str = ""

    @classmethod
    def from_hexes(cls, hexes: Mapping[Hex, HexInfo], buildings: Iterable[Building] = (),
                   layout: MapLayout = MapLayout(), name: str = "") -> GameMap:
        bmap = {b.id: b for b in buildings}
        for h, info in hexes.items():
            if info.building is not None and info.building not in bmap:
                raise ValueError(f"hex {layout.name(h)} names building {info.building!r}, which is not defined")
        return cls(dict(hexes), bmap, layout, name)

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def info(self, h: Hex) -> HexInfo:
        """The hex's terrain.

        :raises OffBoardError: if *h* is not on the map.
        """
        try:
            return self.hexes[h]
        except KeyError:
            where = f" {self.name}" if self.name else ""
            raise OffBoardError(f"hex {self.layout.name(h)} is not on the map{where}") from None

    def hex_name(self, h: Hex) -> str:
        """The name players use for hex *h* (board-prefixed on multi-board maps)."""
        name = self._names.get(h)
        return name if name is not None else self.layout.name(h)

    @cached_property
    def _names(self) -> dict[Hex, str]:
        if not self.layout.boards:
            return {}
        return {h: self.layout.name(h) for h in self.hexes}

    def location_name(self, loc: Location) -> str:
        """``E4``, ``E4.1`` or ``E4.roof`` with this map's hex names."""
        h = self.hex_name(loc.hex)
        if loc.rooftop:
            return f"{h}.{ROOFTOP_NAME}"
        return h if loc.level == 0 else f"{h}.{loc.level}"

    def parse_hex(self, name: str) -> Hex:
        h = self.layout.parse(name)
        if h not in self.hexes:
            raise OffBoardError(f"hex {name} is not on the map{' ' + self.name if self.name else ''}")
        return h

    def parse_location(self, text: str) -> Location:
        """Parse a Location name and check it exists on this map (``E4``, ``E4.1``, ``E4.roof``)."""
        loc = Location.parse(text, self.layout)
        if loc.hex not in self.hexes:
            raise OffBoardError(f"hex {text} is not on the map{' ' + self.name if self.name else ''}")
        if loc.rooftop:
            roof = self.rooftop(loc.hex)
            if roof is None:
                b = self.building(loc.hex)
                if b is not None and self.hex_name(loc.hex) in b.rooftops_gone:
                    raise OffBoardError(f"{text}: the rooftop of hex {self.hex_name(loc.hex)} ceased to exist when "
                                        "a level beneath it became rubble (B23.86)")
                raise OffBoardError(f"{text}: hex {self.hex_name(loc.hex)} has no rooftop Location (B23.8)")
            return roof
        if loc not in self.locations(loc.hex):
            raise OffBoardError(f"{text}: hex {self.hex_name(loc.hex)} has no level {loc.level}")
        return loc

    def building(self, h: Hex) -> Building | None:
        b = self.hexes[h].building if h in self.hexes else None
        return self.buildings[b] if b is not None else None

    def top_level(self, h: Hex) -> int:
        b = self.building(h)
        return b.top_level(self.hex_name(h)) if b is not None else 0

    def rooftop(self, h: Hex) -> Location | None:
        """The hex's rooftop Location, if it has one (B23.8: never on a Single Story House; B23.86: gone
        once a level beneath it has become rubble).

        Its ``level`` is the one above the top floor (an index that keeps a hex's Locations in order);
        its elevation is a half level (:meth:`elevation`).
        """
        b = self.building(h)
        if b is None or not b.rooftop or self.hex_name(h) in b.rooftops_gone:
            return None
        top = self.top_level(h)
        if b.kind is not BuildingKind.FACTORY and top == 0:
            return None
        return Location(h, top + 1, True)

    def rooftop_height(self, h: Hex) -> Fraction:
        """How high a building hex's rooftop is above its ground: the next half level above the top floor
        (B23.8); a Factory's is 2½ with a printed stairwell, else 1½ (B23.74, A22.32).

        >>> from .terrain import Building, BuildingKind, Material
        >>> m = GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.STONE_BUILDING, building="f", stairwell=True)},
        ...                        [Building("f", Material.STONE, BuildingKind.FACTORY, rooftop=True)])
        >>> str(m.rooftop_height(Hex.parse("A1"))), str(m.elevation(m.rooftop(Hex.parse("A1"))))
        ('5/2', '5/2')
        """
        b = self.building(h)
        if b is not None and b.kind is BuildingKind.FACTORY:
            return Fraction(5, 2) if self._factory_has_stairwell(b.id) or (b.levels or 0) >= 2 else Fraction(3, 2)
        return self.top_level(h) + Fraction(1, 2)

    def _factory_has_stairwell(self, bid: str) -> bool:
        return bid in self._stairwell_buildings

    @cached_property
    def _stairwell_buildings(self) -> frozenset[str]:
        return frozenset(i.building for i in self.hexes.values() if i.stairwell and i.building is not None)

    def locations(self, h: Hex) -> tuple[Location, ...]:
        """Every Location of a hex, ground first."""
        return self._locations.get(h) or self._make_locations(h)

    def _make_locations(self, h: Hex) -> tuple[Location, ...]:
        self.info(h)
        locs = [Location(h, lv) for lv in range(self.top_level(h) + 1)]
        roof = self.rooftop(h)
        if roof is not None:
            locs.append(roof)
        return tuple(locs)

    @cached_property
    def _locations(self) -> dict[Hex, tuple[Location, ...]]:
        return {h: self._make_locations(h) for h in self.hexes}

    def all_locations(self) -> Iterator[Location]:
        for h in self.hexes:
            yield from self.locations(h)

    def elevation(self, loc: Location) -> Fraction:
        """Absolute elevation of a Location in levels: the hex's base elevation plus its level; a rooftop
        is at the next half level above the top floor (B23.8; :meth:`rooftop_height`)."""
        base = self.hexes[loc.hex].elevation
        if loc.rooftop:
            return base + self.rooftop_height(loc.hex)
        return Fraction(base + loc.level)

    def terrain_at(self, loc: Location) -> Terrain:
        """The terrain that burns at a Location: the building's at any building level (the ground level of a
        Marketplace is open ground, B23.73)."""
        info = self.hexes[loc.hex]
        if info.building is not None:
            if self.is_marketplace_ground(loc):
                return Terrain.OPEN_GROUND
            return self.buildings[info.building].terrain
        return info.terrain if loc.level == 0 else Terrain.OTHER

    def is_burnable(self, loc: Location) -> bool:
        return self.terrain_at(loc).burnable

    def is_building_location(self, loc: Location) -> bool:
        """A Location inside a building: not the open ground level of a Marketplace (B23.73)."""
        return self.hexes[loc.hex].building is not None and not self.is_marketplace_ground(loc)

    def factory_of_rubble(self, h: Hex) -> Building | None:
        """The Factory a rubble hex still belongs to (B23.743): rubble whose ``feature`` names a Factory."""
        info = self.hexes.get(h)
        if info is None or not info.terrain.is_rubble or info.feature is None:
            return None
        b = self.buildings.get(info.feature)
        return b if b is not None and b.kind is BuildingKind.FACTORY else None

    def is_marketplace_ground(self, loc: Location) -> bool:
        """The ground level of a Marketplace hex: no building obstacle, open ground (B23.73)."""
        b = self.building(loc.hex)
        return (b is not None and loc.level == 0 and not loc.rooftop
                and self.hex_name(loc.hex) in b.marketplace)

    def has_stairwell(self, h: Hex) -> bool:
        """A stairwell links the levels of building hex *h*: a printed one, the inherent one of every Two Story
        House hex (B23.22), of a hex with a third level in a building without printed stairwells (B23.24), the
        Marketplace's exterior staircase (B23.731), or a Factory's Rooftop Access Point (a printed stairwell or a
        road hexside, B23.87)."""
        info = self.hexes[h]
        b = self.building(h)
        if b is None:
            return False
        if info.stairwell:
            return True
        if b.kind is BuildingKind.FACTORY:
            return info.road
        if b.kind is BuildingKind.TWO_STORY or self.hex_name(h) in b.marketplace:
            return True
        return self.top_level(h) >= 3 and b.id not in self._stairwell_buildings

    def building_los_block(self, a: Location, b: Location) -> str | None:
        """Why no LOS joins Locations *a* and *b* of one building, or None (B23.25, B23.26, B23.87).

        In one hex: only Locations a stairwell joins (:meth:`has_stairwell`; a rooftop always to the level
        below it, B23.8), and only the next level up or down (B23.26: the ground and Level 2 are never
        ADJACENT).  In adjacent hexes of one building: only Locations at the same level (split-level buildings
        compare elevations, B23.72), and not across a Rowhouse's black bar unless breached (B23.71, B23.711);
        rooftops keep their normal LOS.  Other cases are not judged here.
        """
        if a == b:
            return None
        bld = self.building(a.hex)
        if bld is None or not (self.is_building_location(a) or a.rooftop) \
                or not (self.is_building_location(b) or b.rooftop):
            return None
        na, nb = self.location_name(a), self.location_name(b)
        if a.hex == b.hex:
            lo, hi = sorted((a, b), key=lambda x: x.level)
            if bld.kind is BuildingKind.FACTORY and not self.has_stairwell(a.hex):
                return (f"{na} and {nb}: the ground and Rooftop of a Factory hex are ADJACENT only at a Rooftop "
                        "Access Point (a printed stairwell or a road hexside); no LOS between them (B23.87, B23.25)")
            if hi.level - lo.level > 1:
                return (f"{na} and {nb}: attacks up or down a stairwell reach only the next level; Locations two "
                        "levels apart in one hex are never ADJACENT (B23.26)")
            if not hi.rooftop and bld.kind is not BuildingKind.FACTORY and not self.has_stairwell(a.hex):
                return (f"{na} and {nb}: no stairwell joins these levels of {self.hex_name(a.hex)}, so no LOS "
                        "between them (B23.25, B23.23)")
            return None
        if a.rooftop or b.rooftop or a.hex.distance(b.hex) != 1 or self.building(b.hex) is not bld:
            return None
        if self.elevation(a) != self.elevation(b):
            return (f"{na} and {nb}: different levels of adjacent hexes of one building are not ADJACENT and have "
                    "no LOS (B23.25)")
        if bld.rowhouse and not self.is_breached(a, b.hex):
            return (f"{na} and {nb}: a Rowhouse's black bar blocks all LOS between its hexes below the rooftops "
                    "unless a Breach opens it (B23.71, B23.711)")
        return None

    def is_breached(self, loc: Location, toward: Hex) -> bool:
        """A Breach joins *loc* and the same level across its hexside toward *toward*: a Breach counter on either
        side pointing at that hexside (B23.711, B23.9221)."""
        mine, other = self.building(loc.hex), self.building(toward) if toward in self.hexes else None
        here = (self.hex_name(loc.hex), loc.level, self.hex_name(toward))
        if mine is not None and here in mine.breaches:
            return True
        there = (self.hex_name(toward), loc.level, self.hex_name(loc.hex))
        return other is not None and there in other.breaches

    def is_fortified(self, loc: Location) -> bool:
        b = self.building(loc.hex)
        return b is not None and not loc.rooftop and (self.hex_name(loc.hex), loc.level) in b.fortified

    @cached_property
    def interior_hexes(self) -> frozenset[Hex]:
        """Interior Building hexes: all six neighbours are hexes of the same building (B25.63)."""
        out = set()
        for h, info in self.hexes.items():
            if info.building is None:
                continue
            if all(self.hexes.get(n, HexInfo()).building == info.building for _, n in h.neighbours()):
                out.add(h)
        return frozenset(out)

    def with_hex(self, h: Hex, info: HexInfo) -> GameMap:
        hexes = dict(self.hexes)
        hexes[h] = info
        return GameMap(hexes, self.buildings, self.layout, self.name)

    def with_building(self, b: Building) -> GameMap:
        """This map with building *b* replacing the one of the same id (e.g. fewer levels in a hex)."""
        buildings = dict(self.buildings)
        buildings[b.id] = b
        return GameMap(self.hexes, buildings, self.layout, self.name)

    def is_collapsed_hut(self, h: Hex) -> bool:
        """A Collapsed hut: hut terrain that is no longer a building (huts, G5)."""
        info = self.info(h)
        return info.terrain is Terrain.HUT and info.building is None

    def collapse_hut(self, h: Hex) -> GameMap:
        """This map with the standing hut in *h* collapsed (huts: when its Flame becomes a Blaze): the hex keeps
        Burnable hut terrain, no longer a building; a hut building left without hexes is dropped."""
        info = self.info(h)
        b = self.building(h)
        if b is None or b.kind is not BuildingKind.HUT:
            raise ValueError(f"hex {self.hex_name(h)} holds no standing hut")
        hexes = dict(self.hexes)
        hexes[h] = replace(info, terrain=Terrain.HUT, building=None, stairwell=False)
        buildings = dict(self.buildings)
        if not any(i.building == b.id for i in hexes.values()):
            del buildings[b.id]
        return GameMap(hexes, buildings, self.layout, self.name)

    @property
    def material_of(self) -> dict[str, Material]:
        return {b.id: b.material for b in self.buildings.values()}


@value(slots=False)
class Position:
    """Everything the fire rules act on; rules return a new Position.

    *sides* are the two sides' names, the first moving in half 1 of each turn.
    *control* names the side controlling a hex, where the position says so
    (Fire & Victory gives the Control of Locations made unenterable by fires
    no side kindled to the side controlling their hex).  *smoke* are the SMOKE
    counters on the map (A24), which a Gust disperses or eliminates (B25.651).
    """

    map: GameMap
    environment: Environment = Environment()
    clock: Clock = Clock()
    fires: tuple[Fire, ...] = ()
    wrecks: tuple[Wreck, ...] = ()
    units: tuple[Unit, ...] = ()
    sides: tuple[str, str] = ("Axis", "Allied")
    name: str = ""
    notes: str = ""
    control: Mapping[Hex, str] = field(default_factory=dict)
    smoke: tuple[Smoke, ...] = ()

    @property
    def attacker(self) -> str:
        return self.sides[self.clock.half - 1]

    @property
    def defender(self) -> str:
        return self.sides[2 - self.clock.half]

    def loc_name(self, loc: Location) -> str:
        """The Location's name on this map (``E4``, ``22E4.1``, ``E4.roof``)."""
        return self.map.location_name(loc)

    @cached_property
    def _blazes(self) -> dict[Location, Fire]:
        return {f.location: f for f in self.fires if f.is_blaze}

    @cached_property
    def _flames(self) -> dict[Location, tuple[Fire, ...]]:
        out: dict[Location, list[Fire]] = {}
        for f in self.fires:
            if f.is_flame:
                out.setdefault(f.location, []).append(f)
        return {k: tuple(v) for k, v in out.items()}

    def blaze_at(self, loc: Location) -> Fire | None:
        return self._blazes.get(loc)

    def flames_at(self, loc: Location) -> tuple[Fire, ...]:
        return self._flames.get(loc, ())

    def is_burning(self, loc: Location) -> bool:
        """A Flame or Blaze is in the Location."""
        return loc in self._blazes or loc in self._flames

    def blazes(self) -> list[Fire]:
        return [f for f in self.fires if f.is_blaze]

    def flames(self) -> list[Fire]:
        return [f for f in self.fires if f.is_flame]

    def building_blaze_levels(self, h: Hex) -> int | None:
        """The level count of a burning-building counter for hex *h*, or None.

        A multi-level building hex with a Blaze on every non-rooftop level is
        marked with one burning building counter (B23.6); VASL has 1–4-level
        Blaze counters for it.
        """
        if self.map.hexes.get(h, HexInfo()).building is None:
            return None
        levels = [loc for loc in self.map.locations(h) if not loc.rooftop]
        if len(levels) < 2 or any(loc not in self._blazes for loc in levels):
            return None
        return len(levels)

    def no_flame_reason(self, loc: Location) -> str | None:
        """Why no Flame can be created in *loc*, whatever creates it (a fire start or Spreading Fire), or None:
        no Burnable Terrain (B25.1), a Blaze already there (B25.15), or a Collapsed hut once Rain has fallen
        (Fire cheat sheet: huts).
        """
        if not self.map.is_burnable(loc):
            return f"{self.map.terrain_at(loc).label} cannot burn (B25.1)"
        if loc in self._blazes:
            return "a Blaze already burns there (B25.15)"
        if self.environment.rain_has_fallen and self.map.is_collapsed_hut(loc.hex):
            return "no Flame in a Collapsed hut once Rain has fallen (huts)"
        return None

    def target_ft(self, loc: Location) -> int:
        """The FT possessed by the Personnel units in *loc* an attack on it must count (A22.4: −1 per FT to
        the IFT DR vs the unit possessing them), 0 if none.

        :raises IllegalAction: units of *loc* possess different numbers of FT (the attack vs each differs:
            say which with ``--target-ft``).
        """
        counts = sorted({u.ft for u in self.units if u.location == loc and u.kind.is_infantry and u.ft})
        if len(counts) > 1:
            raise IllegalAction(f"units in {self.loc_name(loc)} possess {' and '.join(map(str, counts))} FT: the "
                                "attack vs each is one lower per FT it possesses (A22.4); give --target-ft N")
        return counts[0] if counts else 0

    def burning_wrecks(self) -> list[Wreck]:
        return [w for w in self.wrecks if w.burning]

    def add_fire(self, fire: Fire) -> Position:
        """A new Position with *fire* added (a Blaze replaces the Location's Flames, B25.15).

        :raises IllegalAction: the Location cannot burn (Water, a Graveyard, Open Ground…, B25.1), or
            it already holds a Blaze and *fire* is a Flame (B25.15).
        """
        self._check_location(fire.location)
        t = self.map.terrain_at(fire.location)
        if not t.burnable:
            raise IllegalAction(f"{self.loc_name(fire.location)} holds {t.label}, which cannot burn (B25.1)")
        if fire.is_flame and self.blaze_at(fire.location) is not None:
            raise IllegalAction(f"{self.loc_name(fire.location)} already holds a Blaze (B25.15)")
        fires = self.fires
        if fire.is_blaze:
            fires = tuple(f for f in fires if f.location != fire.location)
        return replace(self, fires=(*fires, fire))

    def remove_fires(self, loc: Location) -> Position:
        return replace(self, fires=tuple(f for f in self.fires if f.location != loc))

    def _check_location(self, loc: Location) -> None:
        if loc.hex not in self.map.hexes:
            raise OffBoardError(f"hex {self.map.hex_name(loc.hex)} is not on the map")
        if loc not in self.map.locations(loc.hex):
            raise OffBoardError(f"{self.loc_name(loc)} is not a Location of hex {self.map.hex_name(loc.hex)}")

    def with_(self, **changes: object) -> Position:
        """A copy with fields changed (:func:`.values.replace`)."""
        return replace(self, **changes)  # type: ignore[arg-type]
