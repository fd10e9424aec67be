"""Terrain as the fire rules see it: what burns, its Kindle # and Spread #.

Numbers are the Terrain Chart's (B25.1, B23.6; see ``rules-data.md``).

>>> Terrain.WOODS.kindle, Terrain.WOODS.spread
(9, 7)
>>> Terrain.OPEN_GROUND.burnable
False
"""

from __future__ import annotations

import enum

from .errors import BadInput
from .values import field, value

__all__ = [
    "Building",
    "BuildingKind",
    "Material",
    "Terrain",
    "UnknownTerrainError",
    "building_tem",
]


class UnknownTerrainError(BadInput):
    """A terrain name or code the project does not know."""


class Terrain(enum.Enum):
    """A hex's terrain for fire purposes.

    Each burnable member carries (Kindle #, Spread #); non-burnable members
    carry None.  A building hex's terrain is ``WOODEN_BUILDING`` or
    ``STONE_BUILDING``; its levels and kind live in :class:`Building`.
    """

    def __init__(self, label: str, kindle: int | None, spread: int | None, inherent: bool = False) -> None:
        self.label = label
        self.kindle = kindle
        self.spread = spread
        self.inherent = inherent

    @property
    def burnable(self) -> bool:
        """True if a Flame can exist here (B25.1)."""
        return self.kindle is not None

    @property
    def is_building(self) -> bool:
        return self in (Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING)

    @property
    def is_rubble(self) -> bool:
        return self in (Terrain.WOODEN_RUBBLE, Terrain.STONE_RUBBLE)

    @property
    def material(self) -> Material | None:
        if self in (Terrain.WOODEN_BUILDING, Terrain.WOODEN_RUBBLE):
            return Material.WOODEN
        if self in (Terrain.STONE_BUILDING, Terrain.STONE_RUBBLE):
            return Material.STONE
        return None

    @classmethod
    def from_name(cls, name: str) -> Terrain:
        """The member for a name such as ``"woods"``, ``"Woods-Road"`` or ``"WOODEN_BUILDING"``.

        :raises UnknownTerrainError: naming the unknown terrain and the known ones.
        """
        key = name.strip().upper().replace("-", "_").replace(" ", "_")
        try:
            return cls[key]
        except KeyError:
            known = ", ".join(m.name.lower() for m in cls)
            raise UnknownTerrainError(f"unknown terrain {name!r} (expected one of: {known})") from None

    # Burnable Terrain (Kindle #, Spread #); inherent terrain fills its hex.
    WOODS = ("Woods", 9, 7)
    WOODS_ROAD = ("Woods-Road", 9, 8)
    BRUSH = ("Brush", 9, 6, True)
    VINEYARD = ("Vineyard", 9, 6, True)
    GRAIN = ("Grain (in season)", 10, 6, True)
    ORCHARD = ("Orchard", 11, 9, True)
    OLIVE_GROVE = ("Olive Grove", 11, 9, True)
    CACTUS_PATCH = ("Cactus Patch", 12, 10, True)
    WOODEN_BUILDING = ("Wooden Building", 7, 8)
    STONE_BUILDING = ("Stone Building", 8, 9)
    WOODEN_RUBBLE = ("Wooden Rubble", 7, 8, True)
    STONE_RUBBLE = ("Stone Rubble", 8, 9, True)
    HUT = ("Hut", 6, 7)
    KUNAI = ("Kunai", 9, 8, True)
    PADDY_IN_SEASON = ("In-season Paddy", 10, 6, True)
    WOODEN_PIER = ("Wooden Pier", 8, 9)
    PALM_TREES = ("Palm Trees", 11, 11, True)
    BAMBOO = ("Bamboo", 10, 10, True)
    LIGHT_JUNGLE = ("Light Jungle", 12, 12)
    DENSE_JUNGLE = ("Dense Jungle", 12, 12)
    RAIL_CAR = ("Rail Car", 8, 9)
    WRECKED_RAIL_CAR = ("Wrecked Rail Car", 7, 8)
    TOWER = ("Tower", 7, 8)
    # Nothing else burns (B25.1).
    OPEN_GROUND = ("Open Ground", None, None)
    ROAD = ("Road", None, None)
    WATER = ("Water", None, None)
    MARSH = ("Marsh", None, None, True)
    SHELLHOLES = ("Shellholes", None, None, True)
    CRAGS = ("Crags", None, None, True)
    WALL = ("Wall", None, None)
    HEDGE = ("Hedge", None, None)
    BRIDGE = ("Bridge", None, None)
    OTHER = ("Other non-burnable terrain", None, None)

    @property
    def ec_doubled(self) -> bool:
        """Bamboo doubles the EC DRM (Terrain Chart)."""
        return self is Terrain.BAMBOO


class Material(enum.Enum):
    """Building construction (B23.3)."""

    WOODEN = "wooden"
    STONE = "stone"

    @property
    def tem(self) -> int:
        """Building TEM: stone +3, wooden +2 (B23.3)."""
        return 3 if self is Material.STONE else 2


class BuildingKind(enum.Enum):
    """The B23 building types that change how fire behaves."""

    SINGLE_STORY = "single-story"  # B23.21: ground level only
    TWO_STORY = "two-story"  # B23.22: ground + level 1, inherent stairwells
    MULTI_STORY = "multi-story"  # B23.23: ground + levels 1, 2
    LUMBERYARD = "lumberyard"  # B23.211: wooden single story, EC DRM applies
    FACTORY = "factory"  # B23.74: no upper floors; rooftop from the ground
    HUT = "hut"  # G5: burns, collapses when its Flame becomes a Blaze

    @property
    def default_upper_levels(self) -> int:
        return {BuildingKind.TWO_STORY: 1, BuildingKind.MULTI_STORY: 2}.get(self, 0)


@value
class Building:
    """A building: its hexes share one id and are directly attached (B25.62).

    *levels* is the number of upper levels (0 single story, 1 two-story,
    2 multi-story, 3 with a third level, B23.24); *hex_levels* overrides it
    per hex (split-level or SSR third levels).  Rowhouse walls (B23.71) make
    each hex its own building, still directly attached to its neighbours in
    the same rowhouse building.  *fortified* holds (hex name, level) pairs of
    Fortified Building Locations (B23.9; −1 to fire starts and spread, B23.94;
    fortified from the ground up, B23.912).  *rooftops_gone* names the hexes
    whose rooftop has ceased to exist because a level beneath it became
    rubble (B23.86).  *marketplace* names its Marketplace hexes (B23.73,
    12R7): no building at ground level, which is open ground, under an
    overhead building Level 1 Location.  *breaches* holds (hex name, level,
    adjacent hex name): a Breach counter in that Location pointing at the
    hexside toward the adjacent hex (B23.711, B23.9221).

    >>> Building("b1", Material.STONE, BuildingKind.MULTI_STORY).top_level("E4")
    2
    """

    id: str
    material: Material
    kind: BuildingKind = BuildingKind.SINGLE_STORY
    levels: int | None = None
    hex_levels: tuple[tuple[str, int], ...] = ()
    rooftop: bool = False
    rowhouse: bool = False
    fortified: frozenset[tuple[str, int]] = field(default_factory=frozenset)
    rooftops_gone: frozenset[str] = field(default_factory=frozenset)
    marketplace: frozenset[str] = field(default_factory=frozenset)
    breaches: frozenset[tuple[str, int, str]] = field(default_factory=frozenset)
    _levels: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # hex_levels as a table: top_level is asked for every hex, and a building may name thousands.
        object.__setattr__(self, "_levels", dict(reversed(self.hex_levels)))  # the first of a hex holds

    def top_level(self, hex_name: str) -> int:
        """The highest non-rooftop level of the building in that hex."""
        lv = self._levels.get(hex_name)
        if lv is not None:
            return lv
        if self.kind is BuildingKind.FACTORY:
            return 0
        return self.levels if self.levels is not None else self.kind.default_upper_levels

    def fortification_gaps(self) -> list[tuple[str, int]]:
        """Fortified upper levels whose level below is not Fortified (B23.912: fortify from the ground up).

        >>> Building("b", Material.STONE, BuildingKind.TWO_STORY, fortified=frozenset({("E4", 1)})).fortification_gaps()
        [('E4', 1)]
        """
        return sorted((h, lv) for h, lv in self.fortified if lv > 0 and (h, lv - 1) not in self.fortified)

    @property
    def terrain(self) -> Terrain:
        if self.kind is BuildingKind.HUT:
            return Terrain.HUT
        return Terrain.WOODEN_BUILDING if self.material is Material.WOODEN else Terrain.STONE_BUILDING

    @property
    def ec_applies(self) -> bool:
        """EC DRM applies to fire in a Lumberyard (B23.211) and huts, not other buildings (B25.5)."""
        return self.kind in (BuildingKind.LUMBERYARD, BuildingKind.HUT)


def building_tem(material: Material, *, fortified: bool = False, rooftop: bool = False,
                 bypassing: bool = False, factory_same_building: bool = False,
                 indirect_fire_levels_above: int = 0) -> int:
    """Building TEM of a Location (B23.3, B23.31, B23.32, B23.741, B23.81, B23.921).

    Stone +3, wooden +2, one more when Fortified; none on a rooftop or for a
    Bypassing unit; +1 for fire traced entirely within the same Factory, one
    more there too when Fortified (B23.921 adds one to the Location's TEM,
    whatever it is); +1 per non-rooftop level above vs Indirect Fire.

    >>> building_tem(Material.STONE, fortified=True)
    4
    >>> building_tem(Material.STONE, fortified=True, factory_same_building=True)
    2
    >>> building_tem(Material.WOODEN, indirect_fire_levels_above=1)
    3
    """
    if rooftop or bypassing:
        return 0
    if factory_same_building:
        return 1 + (1 if fortified else 0)
    tem = material.tem + (1 if fortified else 0)
    return tem + indirect_fire_levels_above
