"""The map of a Position (the first step of :mod:`.position`): Locations, each hex's terrain and elevation
(:class:`HexInfo`), and the :class:`GameMap` that holds them with its buildings and layout."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from .hexes import Hex, HexNameError, MapLayout
from .terrain import Building, BuildingKind, Material, Terrain
from .values import field, replace, value

__all__ = ["ROOFTOP_NAME", "GameMap", "HexInfo", "Location", "OffBoardError"]


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
