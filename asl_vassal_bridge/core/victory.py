"""Fire & Victory (Fire cheat sheet): Control of burning Locations, hexes and buildings.

The sheet's three rules, as read in docs/rules.md:

1. A side forfeits to its opponent Control of every Location, hex and
   building it set on fire by Kindling, even where the fire spread from
   elsewhere, for as long as that fire burns there.
2. Where a kindled fire makes an area unenterable (a terrain Blaze, B25.4),
   partly with other fires too, the opponent gains Control of all of it:
   every Blaze Location of the area, every hex all of whose Locations are in
   it, every building all of whose hexes are — unless fires kindled by both
   sides have joined.
3. Blazes no side is held responsible for (accidental, from wrecks, or there
   at the start) are controlled by the side that controls their hex; an
   unenterable building by the side that controls all its hexes.

>>> from .hexes import Hex
>>> from .position import Fire, FireKind, GameMap, HexInfo
>>> from .terrain import Terrain
>>> a1 = Location(Hex.parse("A1"))
>>> pos = Position(GameMap.from_hexes({a1.hex: HexInfo(Terrain.WOODS)}), sides=("German", "Russian"),
...                fires=(Fire(a1, FireKind.BLAZE, kindled_by="German"),))
>>> [n.describe(pos) for n in fire_control(pos)][0]
'A1: burning from a fire kindled by German; Control goes to Russian (Fire & Victory)'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from .hexes import Hex
from .position import Location, Position
from .values import value

__all__ = ["Cause", "ControlNote", "Scope", "fire_control"]


class Scope(enum.Enum):
    """What a note gives Control of: a Location, a hex or a building."""

    LOCATION = "Location"
    HEX = "hex"
    BUILDING = "building"


class Cause(enum.Enum):
    """Which Fire & Victory rule decides the Control."""

    KINDLED = "kindled"  # 1: the kindling side forfeits it
    UNENTERABLE = "unenterable"  # 2: in an area a kindled fire makes unenterable
    BOTH_KINDLED = "both-kindled"  # both sides kindled fire that reached it: the forfeits cancel
    ACCIDENTAL = "accidental"  # 3: unenterable by fires no side is held responsible for


@value
class ControlNote:
    """Who controls a burning Location, hex or building, and why (Fire & Victory).

    *place* is the Location's or hex's name, or the building's id;
    *controlled_by* None means no side is named (the position does not say
    who controls the hexes, or no side controls all of them).  *kindled_by*
    lists the kindling sides of the fire that decides it; *joined* says that
    fires kindled by both sides have joined in its fire.
    """

    scope: Scope
    place: str
    cause: Cause
    controlled_by: str | None
    kindled_by: tuple[str, ...] = ()
    joined: bool = False
    location: Location | None = None
    hexes: tuple[str, ...] = ()

    def describe(self, pos: Position) -> str:
        """One line for the players, with the rule."""
        what = {Scope.LOCATION: self.place, Scope.HEX: f"hex {self.place}",
                Scope.BUILDING: f"building {self.place} ({', '.join(self.hexes)})"}[self.scope]
        of = "" if self.scope is Scope.LOCATION else f" of the {self.scope.value}"
        if self.cause is Cause.KINDLED:
            k = self.kindled_by[0]
            burning = "burning from a fire kindled by" if self.scope is Scope.LOCATION else "a fire kindled by"
            tail = "" if self.scope is Scope.LOCATION else " burns in it"
            text = f"{what}: {burning} {k}{tail}; Control{of} goes to {self.controlled_by}"
            if self.joined:
                text += ("; fires kindled by both sides have joined, so the area they make unenterable is not "
                         "forfeited as a whole")
        elif self.cause is Cause.UNENTERABLE:
            text = (f"{what}: unenterable in the area the fire kindled by {self.kindled_by[0]} makes unenterable; "
                    f"Control{of} goes to {self.controlled_by}")
        elif self.cause is Cause.BOTH_KINDLED:
            text = (f"{what}: fires kindled by both {' and '.join(self.kindled_by)} burn in it; each forfeits it to "
                    f"the other, so neither forfeit holds: {self._held(pos)}")
        else:
            why = ("fires of both sides joined" if self.joined else "fires no side kindled")
            text = f"{what}: unenterable from {why}; {self._held(pos)}"
        return text + " (Fire & Victory)"

    def _held(self, pos: Position) -> str:
        if self.scope is Scope.BUILDING:
            if self.controlled_by is None:
                known = any(pos.map.parse_hex(h) in pos.control for h in self.hexes)
                why = "no side does" if known else "the position does not say which"
                return f"Control of the building goes to the side that controls all its hexes ({why})"
            return f"Control of the building goes to {self.controlled_by}, who controls all its hexes"
        hx = self.hexes[0]
        if self.controlled_by is None:
            return f"Control stays with the side that controls hex {hx} (the position does not say which)"
        return f"Control stays with {self.controlled_by}, who controls hex {hx}"


def _groups(locs: Iterable[Location]) -> list[set[Location]]:
    """Connected groups of Locations (Locations of one hex, and of adjacent hexes, are connected)."""
    todo = set(locs)
    by_hex: dict[Hex, list[Location]] = {}
    for loc in todo:
        by_hex.setdefault(loc.hex, []).append(loc)
    seen: set[Location] = set()
    groups = []
    for start in sorted(todo):
        if start in seen:
            continue
        group: set[Location] = set()
        stack = [start]
        while stack:
            loc = stack.pop()
            if loc in seen:
                continue
            seen.add(loc)
            group.add(loc)
            stack += by_hex[loc.hex]
            for _, n in loc.hex.neighbours():
                stack += by_hex.get(n, [])
        groups.append(group)
    return groups


def _location_of(note: ControlNote) -> Location:
    assert note.location is not None  # every Location note names its Location
    return note.location


def fire_control(pos: Position) -> list[ControlNote]:
    """Control of burning Locations, hexes and buildings under the Fire cheat sheet's Fire & Victory.

    Kindled fire (``Fire.kindlers``) forfeits to the opponent every Location
    it burns in, its hex and its building (1).  A connected area of Blazes
    (unenterable, B25.4) holding a kindled Blaze goes to the opponent whole:
    its Blaze Locations, the hexes all of whose Locations are Blazes and the
    buildings all of whose hexes are (2), unless the fires of both sides have
    joined.  A Location, hex or building both sides' fires reached is
    forfeited by both, so by neither.  Unenterable Locations no side is held
    responsible for (and those of joined fires) are controlled by the side
    controlling their hex; a building by the side controlling all its hexes
    (3) — noted only where the position records Control (``Position.control``).
    Rooftops are not counted in a hex's Locations (B23.83); a hex of one
    Location gets no note of its own (its Location's note is the hex's).
    """
    if not pos.control and not any(f.kindlers for f in pos.fires):
        return []  # nothing kindled, no Control recorded: no note to make (a live upkeep's usual case)
    m = pos.map
    sides = pos.sides
    kindlers: dict[Location, set[str]] = {}
    for f in pos.fires:
        kindlers.setdefault(f.location, set()).update(f.kindlers)
    joined_at: set[Location] = set()  # burning Locations whose fire has joined fire of both sides
    for group in _groups(kindlers):
        if len(set().union(*(kindlers[loc] for loc in group))) > 1:
            joined_at |= group
    blazes = {f.location for f in pos.blazes()}
    notes: dict[tuple[Scope, str], ControlNote] = {}

    def order(ks: Iterable[str]) -> tuple[str, ...]:
        return tuple(s for s in sides if s in ks)

    def other(k: str) -> str:
        return sides[1] if k == sides[0] else sides[0]

    def add(note: ControlNote) -> None:
        notes.setdefault((note.scope, note.place), note)

    def levels(h: Hex) -> list[Location]:
        return [loc for loc in m.locations(h) if not loc.rooftop]

    hexes_of: dict[str, list[Hex]] = {}

    def building_hexes(bid: str) -> list[Hex]:
        if not hexes_of:  # the map's hexes walked once, not once per building
            for h, info in m.hexes.items():
                if info.building is not None:
                    hexes_of.setdefault(info.building, []).append(h)
        return sorted(hexes_of.get(bid, ()))

    def held(scope: Scope, place: str, cause: Cause, hexes: list[Hex], ks: tuple[str, ...] = (), *,
             joined: bool, location: Location | None = None) -> None:
        owners = {pos.control.get(h) for h in hexes}
        owner = owners.pop() if len(owners) == 1 else None
        if cause is Cause.ACCIDENTAL and not any(h in pos.control for h in hexes):
            return
        add(ControlNote(scope, place, cause, owner, ks, joined, location, tuple(m.hex_name(h) for h in hexes)))

    # 1: what each side set on fire, Location by Location, then hex and building.
    by_hex: dict[Hex, set[str]] = {}
    by_building: dict[str, set[str]] = {}
    for loc in sorted(kindlers):
        ks = order(kindlers[loc])
        if not ks or loc.rooftop:  # B23.83: no building Location for Victory (its fire still joins others)
            continue
        by_hex.setdefault(loc.hex, set()).update(ks)
        name = pos.loc_name(loc)
        if len(ks) == 1:
            add(ControlNote(Scope.LOCATION, name, Cause.KINDLED, other(ks[0]), ks, loc in joined_at, loc))
        else:
            held(Scope.LOCATION, name, Cause.BOTH_KINDLED, [loc.hex], ks, joined=True, location=loc)
    for h in sorted(by_hex):
        ks = order(by_hex[h])
        bid = m.hexes[h].building
        if bid is not None:
            by_building.setdefault(bid, set()).update(ks)
        if len(levels(h)) == 1:
            continue  # the Location's note is the hex's
        hjoined = any(loc in joined_at for loc in m.locations(h))
        if len(ks) == 1:
            add(ControlNote(Scope.HEX, m.hex_name(h), Cause.KINDLED, other(ks[0]), ks, hjoined,
                            hexes=(m.hex_name(h),)))
        else:
            held(Scope.HEX, m.hex_name(h), Cause.BOTH_KINDLED, [h], ks, joined=True)
    for bid in sorted(by_building):
        ks = order(by_building[bid])
        hexes = building_hexes(bid)
        names = tuple(m.hex_name(h) for h in hexes)
        if len(ks) == 1:
            bjoined = any(loc in joined_at for h in hexes for loc in m.locations(h))
            add(ControlNote(Scope.BUILDING, bid, Cause.KINDLED, other(ks[0]), ks, bjoined, hexes=names))
        else:
            held(Scope.BUILDING, bid, Cause.BOTH_KINDLED, hexes, ks, joined=True)

    # 2 and 3: the areas the Blazes make unenterable.
    for area in _groups(blazes):
        ks = order(set().union(*(kindlers[loc] for loc in area)))
        joined = any(loc in joined_at for loc in area)
        whole_hexes = sorted({loc.hex for loc in area if all(x in area for x in levels(loc.hex))})
        whole_buildings = sorted({bid for h in whole_hexes if (bid := m.hexes[h].building) is not None
                                  and all(x in whole_hexes for x in building_hexes(bid))})
        if len(ks) == 1 and not joined:
            gainer = other(ks[0])
            for loc in sorted(x for x in area if not x.rooftop):  # B23.83
                add(ControlNote(Scope.LOCATION, pos.loc_name(loc), Cause.UNENTERABLE, gainer, ks, location=loc))
            for h in whole_hexes:
                if len(levels(h)) == 1:
                    continue
                add(ControlNote(Scope.HEX, m.hex_name(h), Cause.UNENTERABLE, gainer, ks, hexes=(m.hex_name(h),)))
            for bid in whole_buildings:
                names = tuple(m.hex_name(h) for h in building_hexes(bid))
                add(ControlNote(Scope.BUILDING, bid, Cause.UNENTERABLE, gainer, ks, hexes=names))
            continue
        for loc in sorted(x for x in area if not x.rooftop):  # B23.83
            held(Scope.LOCATION, pos.loc_name(loc), Cause.ACCIDENTAL, [loc.hex], joined=joined, location=loc)
        for h in (h for h in whole_hexes if len(levels(h)) > 1):
            held(Scope.HEX, m.hex_name(h), Cause.ACCIDENTAL, [h], joined=joined)
        for bid in whole_buildings:
            held(Scope.BUILDING, bid, Cause.ACCIDENTAL, building_hexes(bid), joined=joined)
    def of(scope: Scope) -> list[ControlNote]:
        return [n for n in notes.values() if n.scope is scope]

    return (sorted(of(Scope.LOCATION), key=_location_of) + sorted(of(Scope.HEX), key=lambda n: m.parse_hex(n.place))
            + sorted(of(Scope.BUILDING), key=lambda n: n.place))
