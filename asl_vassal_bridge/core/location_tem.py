"""The TEM of a Location from the map (B23.3–B23.921): buildings, rubble, woods and orchard hexsides, as a
Molotov Cocktail attack (:mod:`.molotov`) and the building rules read it."""

from __future__ import annotations

from .errors import IllegalAction
from .explain import DRM
from .hexes import Hex
from .position import Location, Position
from .terrain import BuildingKind, Terrain, building_tem

__all__ = ["location_tem", "woods_or_orchard_hexside"]


def location_tem(pos: Position, loc: Location, *, firer: Location | None = None, bypassing: bool = False,
                 indirect: bool = False, factory_within: bool | None = None) -> tuple[DRM, ...]:
    """The TEM DRMs of *loc* vs an attack from *firer*, read off the Position's map (B23.3–B23.921).

    Stone building +3, wooden +2, one more in a Fortified Building Location
    (B23.921); a rooftop has no building TEM but +1 Height Advantage vs a
    lower firer (B23.81; rooftops are at half levels, B23.8); +1 for fire
    from within the same Factory, and from outside it at a ground-level Factory
    Location whose hex-centre LOS enters it from a rubble hex of that Factory
    (B23.743), +2 in a Fortified Factory Location but +1
    for a ground-level unit fired on from its own hex's rooftop (B23.741,
    B23.921, B23.88; *factory_within* overrides the same-building test); vs Indirect
    Fire +1 per non-rooftop level above (B23.32), without the Fortified extra
    in a Factory (B23.741), and refused below the highest level of an Interior
    Building hex, which Indirect Fire does not affect (B23.32); no building TEM
    for a Bypassing unit (B23.31).
    Woods give +1 (A22.62 EX).  Other terrain TEM is on the Terrain Chart,
    not in our texts: none is returned.

    >>> from .position import GameMap, HexInfo
    >>> from .terrain import Building, BuildingKind, Material
    >>> m = GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.STONE_BUILDING, building="b")},
    ...                        [Building("b", Material.STONE, BuildingKind.MULTI_STORY)])
    >>> [str(d) for d in location_tem(Position(m), Location(Hex.parse("A1"), 1), indirect=True)]
    ['+4 stone building, 1 level above vs Indirect Fire (B23.3, B23.32)']
    """
    pos._check_location(loc)
    b = pos.map.building(loc.hex)
    if b is not None and pos.map.is_marketplace_ground(loc):
        # B23.73: open ground under the Level 1 Location, which still adds +1 vs Indirect Fire (B23.32).
        return (DRM(1, "Marketplace, 1 level above vs Indirect Fire", "B23.32, B23.73"),) if indirect else ()
    if b is None or b.kind is BuildingKind.HUT:
        if pos.map.terrain_at(loc) is Terrain.WOODS:
            return (DRM(1, "woods", "A22.62"),)
        return ()
    if loc.rooftop:
        if firer is not None and pos.map.elevation(firer) < pos.map.elevation(loc):
            return (DRM(1, "Height Advantage (rooftop: no building TEM)", "B23.81"),)
        return ()
    if bypassing:
        return ()
    fortified = pos.map.is_fortified(loc)
    factory = b.kind is BuildingKind.FACTORY
    within = factory_within
    if within is None:
        # B23.743: fire from a rubbled hex of the Factory into it counts as from a Factory Location.
        within = (factory and firer is not None and not indirect
                  and (pos.map.building(firer.hex) is b or pos.map.factory_of_rubble(firer.hex) is b))
    if within and factory:
        # B23.921: a Fortified Location's TEM is one greater, the Factory's +1 too; withheld only vs Indirect
        # Fire (B23.741, not here) and for a ground-level unit fired on from its own hex's rooftop (B23.88).
        from_own_roof = firer is not None and firer.rooftop and firer.hex == loc.hex
        fort = fortified and not from_own_roof
        why = "fire within the same Factory" + (", Fortified" if fort else "")
        if fortified and from_own_roof:
            why += " (no Fortified extra vs its own hex's rooftop, B23.88)"
        cited = "B23.741, B23.921" if fort else ("B23.741, B23.88" if fortified else "B23.741")
        return (DRM(building_tem(b.material, fortified=fort, factory_same_building=True), why, cited),)
    if (factory and firer is not None and not indirect and loc.level == 0 and firer.hex != loc.hex
            and len(line := firer.hex.line_to(loc.hex)) > 2 and pos.map.factory_of_rubble(line[-2]) is b):
        # B23.743: from outside the Factory, a LOS over its rubble entering the ground-level Location beside it.
        why = f"Factory Location entered over its rubble in {pos.map.hex_name(line[-2])}" + (
            ", Fortified" if fortified else "")
        return (DRM(building_tem(b.material, fortified=fortified, factory_same_building=True), why,
                    "B23.743, B23.921" if fortified else "B23.743"),)
    above = max(0, pos.map.top_level(loc.hex) - loc.level) if indirect else 0
    if above and loc.hex in pos.map.interior_hexes:
        raise IllegalAction(f"{pos.loc_name(loc)}: Indirect Fire on an Interior Building hex affects only its rooftop "
                            "and highest level (B23.32)")
    if indirect and factory:
        fortified = False
    tem = building_tem(b.material, fortified=fortified, indirect_fire_levels_above=above)
    why = f"{b.material.value} building"
    rules = ["B23.3"]
    if fortified:
        why += ", Fortified"
        rules.append("B23.921")
    if above:
        why += f", {above} level{'s' if above > 1 else ''} above vs Indirect Fire"
        rules.append("B23.32")
    return (DRM(tem, why, ", ".join(rules)),)


def woods_or_orchard_hexside(pos: Position, a: Hex, b: Hex) -> bool:
    """True if the hexside between adjacent *a* and *b* is shared by two orchard hexes or two connected woods
    hexes (A22.611); woods are connected only when both hexes carry the same recorded *feature*."""
    if a.distance(b) != 1:
        return False
    ia, ib = pos.map.info(a), pos.map.info(b)
    orchards = (Terrain.ORCHARD, Terrain.OLIVE_GROVE)
    if ia.terrain in orchards and ib.terrain in orchards:
        return True
    woods = (Terrain.WOODS, Terrain.WOODS_ROAD)
    return ia.terrain in woods and ib.terrain in woods and ia.feature is not None and ia.feature == ib.feature
