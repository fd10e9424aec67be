"""Fire & Victory (Fire cheat sheet): control forfeited for deliberately kindled fires."""

from __future__ import annotations

from .position import Location, Position
from .values import value

__all__ = ["ControlNote", "fire_control"]


@value
class ControlNote:
    """A burning Location whose Control passes to the opponent of the side that kindled it."""

    location: Location
    kindled_by: str
    controlled_by: str | None
    joined: bool = False

    def describe(self, pos: Position) -> str:
        if self.joined:
            return (f"{pos.loc_name(self.location)}: burning from a fire kindled by {self.kindled_by}; Control goes "
                    f"to {self.controlled_by}; fires kindled by both sides have joined, so the area they make "
                    "unenterable is not forfeited as a whole (Fire & Victory)")
        return (f"{pos.loc_name(self.location)}: burning from a fire kindled by {self.kindled_by}; Control goes to "
                f"{self.controlled_by} (Fire & Victory)")


def _fire_groups(pos: Position) -> list[set[Location]]:
    """Connected groups of burning Locations (Locations of one hex, and of adjacent hexes, are connected)."""
    burning = {f.location for f in pos.fires}
    by_hex: dict[object, list[Location]] = {}
    for loc in burning:
        by_hex.setdefault(loc.hex, []).append(loc)
    seen: set[Location] = set()
    groups = []
    for start in sorted(burning):
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


def fire_control(pos: Position) -> list[ControlNote]:
    """Locations whose Control a side forfeits because it deliberately kindled their fire (Fire & Victory).

    Fires from Kindling carry ``kindled_by`` and pass it on as they spread;
    each such Location goes to the kindler's opponent.  Where fires kindled
    by both sides have joined, the note says so: the exception for joined
    fires covers the areas made unenterable by the fire, not the forfeit of
    the Locations a side kindled itself (Fire cheat sheet, read in
    docs/rules.md).  A rooftop is not a building Location for Victory
    Conditions (B23.83): no note names one, though its fire joins the others.
    """
    owner = {f.location: f.kindled_by for f in pos.fires if f.kindled_by}
    out = []
    for group in _fire_groups(pos):
        sides = {owner[loc] for loc in group if loc in owner}
        for loc in sorted(group):
            if loc not in owner or loc.rooftop:  # B23.83: a rooftop is no building Location for Victory
                continue
            k = owner[loc]
            other = pos.sides[1] if k == pos.sides[0] else pos.sides[0]
            out.append(ControlNote(loc, k, other, joined=len(sides) > 1))
    return out
