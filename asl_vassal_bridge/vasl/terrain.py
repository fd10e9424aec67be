"""VASL terrain types (``SharedBoardMetadata.xml``) → the fire rules' terrain.

VASL's terrain types carry LOS facts only; whether a type burns, its
Kindle #/Spread # (B25.1), a building's material and number of levels
(B23.21–B23.23), rubble, hexside and inherent terrain are this project's
mapping, in :data:`MAPPING` below.  Every type of VASL's shared file and of the
6.7 additions is mapped (a test enforces it); an unknown type is an
:class:`~asl_vassal_bridge.core.terrain.UnknownTerrainError`.

Building levels follow VASL's own use of its types: ``… Building, n Level``
has n upper levels (1: two-story, 2+: multi-story, with a rooftop, B23.8),
the plain ``Stone Building``/``Wooden Building`` is single story.

>>> m = mapping_for("Stone Building, 2 Level")
>>> m.terrain, m.material, m.levels, m.kind
(<Terrain.STONE_BUILDING: ...>, <Material.STONE: 'stone'>, 2, <BuildingKind.MULTI_STORY: 'multi-story'>)
>>> mapping_for("Orchard, Out of Season").terrain.kindle
11
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePath
from typing import Any

from ..core.terrain import BuildingKind, Material, Terrain, UnknownTerrainError
from .safe import BadXmlError, parse_xml

__all__ = [
    "CUSTOM_SSR_NEEDS",
    "MAPPING",
    "ROAD_SHARE",
    "ROWHOUSE_WALLS",
    "SSR_RULE_TYPES",
    "WOODS_ROAD_SHARE",
    "WOODS_TYPES",
    "LosSsRule",
    "TerrainMapping",
    "TerrainTable",
    "VaslTerrainType",
    "drawn_shares",
    "mapping_for",
    "read_terrain_types",
    "ssr_problems",
    "ssr_tokens",
    "woods_road",
]


@dataclass(frozen=True, slots=True)
class TerrainMapping:
    """What one VASL terrain type is for the fire rules.

    *levels* is the number of upper building levels (None: not a building);
    *hexside* marks terrain drawn along hexsides (walls, hedges, factory and
    rowhouse walls); *inherent* terrain fills its whole hex (B25.1 Burnable
    Terrain such as Grain, Brush, Orchard).
    """

    terrain: Terrain
    material: Material | None = None
    levels: int | None = None
    kind: BuildingKind | None = None
    hexside: bool = False
    rubble: bool = False
    rowhouse: bool = False
    rooftop: bool = False
    vasl_kind: str = ""

    @property
    def is_building(self) -> bool:
        return self.kind is not None


def _b(material: Material, levels: int, kind: BuildingKind | None = None, *, rooftop: bool | None = None,
       vasl_kind: str = "building") -> TerrainMapping:
    if kind is None:
        kind = (BuildingKind.SINGLE_STORY, BuildingKind.TWO_STORY)[levels] if levels < 2 else BuildingKind.MULTI_STORY
    terrain = Terrain.STONE_BUILDING if material is Material.STONE else Terrain.WOODEN_BUILDING
    roof = levels > 0 if rooftop is None else rooftop
    return TerrainMapping(terrain, material, levels, kind, rooftop=roof, vasl_kind=vasl_kind)


def _t(terrain: Terrain, **kw: object) -> TerrainMapping:
    return TerrainMapping(terrain, **kw)  # type: ignore[arg-type]


S, W = Material.STONE, Material.WOODEN
F = BuildingKind.FACTORY
OPEN, OTHER = Terrain.OPEN_GROUND, Terrain.OTHER
HEXSIDE_OTHER = TerrainMapping(Terrain.OTHER, hexside=True)

#: Every VASL terrain type name (VASL 6.5 SharedBoardMetadata and the 6.7 additions) → its mapping.
MAPPING: dict[str, TerrainMapping] = {
    # Open and other non-burnable ground (B25.1: nothing else burns).
    **{n: _t(OPEN) for n in (
        "Open Ground", "Plowed Field", "Snow", "Deep Snow", "Ice", "Mud", "Mudflats", "Ford", "Foxholes",
        "Trench", "Antitank Trench", "Pillbox", "Gully", "Dry Stream", "Shallow Stream", "Deep Stream",
        "Flooded Stream", "Irrigation Ditch", "Runway", "Path", "Sewer", "Tunnel", "Cave", "Scrub", "Hammada",
        "Dier", "Dier Lip", "Wadi", "Hillock Summit", "Sand", "Sangar", "Track", "Broken Ground",
        "Rice Paddy, Drained", "Rice Paddy, Irrigated", "Rice Paddy Bank", "Panji", "Soft Sand",
        "Beach, Slight Slope", "Beach, Moderate Slope", "Beach, Steep Slope", "Exposed Reef", "Submerged Reef",
        "Railroad, Ground Level", "Railroad, Embankment", "Railroad, Elevated", "Railroad, Sunken", "Crest",
    )},
    "Rooftop": _t(OTHER, vasl_kind="rooftop"),
    "Cellar": _t(OTHER, vasl_kind="cellar"),
    "OffBObserver": _t(OTHER),
    "Monument": _t(OTHER),
    "Graveyard": _t(OTHER),
    "Debris": _t(OTHER),
    "Hillock": _t(OTHER),
    "Sand Dune": _t(OTHER),
    **{n: _t(Terrain.WATER) for n in (
        "Water", "Shallow Water", "River", "Shallow River", "Canal", "Ocean", "Shallow Ocean", "Effluent")},
    **{n: _t(Terrain.ROAD) for n in ("Dirt Road", "Paved Road", "Elevated Road", "Sunken Road")},
    "Marsh": _t(Terrain.MARSH),
    "Swamp": _t(Terrain.MARSH),
    "Shellholes": _t(Terrain.SHELLHOLES),
    "Crags": _t(Terrain.CRAGS),
    # Bridges (not Burnable Terrain; a Wooden Pier is not a bridge type in VASL).
    **{n: _t(Terrain.BRIDGE) for n in (
        "Single Hex Stone Bridge", "Single Hex Wooden Bridge", "Stone Bridge", "Wooden Bridge", "Pontoon Bridge",
        "Foot Bridge")},
    # Hexside terrain.
    "Wall": _t(Terrain.WALL, hexside=True),
    "Hedge": _t(Terrain.HEDGE, hexside=True),
    "Bocage": _t(Terrain.HEDGE, hexside=True, vasl_kind="bocage"),
    "Cactus Hedge": _t(Terrain.HEDGE, hexside=True, vasl_kind="cactus hedge"),
    "Cliff": HEXSIDE_OTHER,
    "Road Block": HEXSIDE_OTHER,
    "Dune, Crest Low": HEXSIDE_OTHER,
    "Dune, Crest High": HEXSIDE_OTHER,
    "Railway Embankment": HEXSIDE_OTHER,
    "Rrembankment": HEXSIDE_OTHER,
    "PartialOrchard": _t(Terrain.ORCHARD, hexside=True, vasl_kind="partial orchard"),
    # Burnable Terrain (B25.1 Kindle/Spread #).
    "Woods": _t(Terrain.WOODS),
    "Forest": _t(Terrain.WOODS, vasl_kind="forest"),
    "Pine Woods": _t(Terrain.WOODS, vasl_kind="pine woods"),
    "Light Woods": _t(Terrain.WOODS, vasl_kind="light woods"),
    "Brush": _t(Terrain.BRUSH),
    "Grain": _t(Terrain.GRAIN),
    "Vineyard": _t(Terrain.VINEYARD),
    "Orchard": _t(Terrain.ORCHARD),
    "Orchard, Out of Season": _t(Terrain.ORCHARD, vasl_kind="orchard out of season"),
    "Olive Grove": _t(Terrain.OLIVE_GROVE),
    "Cactus Patch": _t(Terrain.CACTUS_PATCH),
    "Kunai": _t(Terrain.KUNAI),
    "Bamboo": _t(Terrain.BAMBOO),
    "Palm Trees": _t(Terrain.PALM_TREES),
    "Light Jungle": _t(Terrain.LIGHT_JUNGLE),
    "Dense Jungle": _t(Terrain.DENSE_JUNGLE),
    "Rice Paddy, In Season": _t(Terrain.PADDY_IN_SEASON),
    "Huts": TerrainMapping(Terrain.HUT, levels=0, kind=BuildingKind.HUT, vasl_kind="hut"),
    "Collapsed Huts": _t(Terrain.HUT, vasl_kind="collapsed hut"),  # a Flame may still exist there
    "Bedouin Camp": _t(OTHER, vasl_kind="bedouin camp"),
    "Stone Rubble": _t(Terrain.STONE_RUBBLE, rubble=True),
    "Wooden Rubble": _t(Terrain.WOODEN_RUBBLE, rubble=True),
    **{f"Stone Rubble {lv}": _t(Terrain.STONE_RUBBLE, rubble=True)
       for lv in ("Ground Level", "Level 1", "Level 2", "Level 3")},
    **{f"Wooden Rubble {lv}": _t(Terrain.WOODEN_RUBBLE, rubble=True)
       for lv in ("Ground Level", "Level 1", "Level 2", "Level 3")},
    # Towers (Terrain Chart: tower 7/8).
    **{n: _t(Terrain.TOWER, vasl_kind="tower") for n in (
        "Tower Hindrance", "Tower, 2 Level Hindrance", "Tower, 3 Level Hindrance", "Tower Obstacle",
        "Tower, 2 Level Obstacle", "Tower, 3 Level Obstacle", "BFP Tower, 1 Level", "BFP Tower, 2 Level")},
    "Storage Tank": _t(OTHER, vasl_kind="storage tank"),
    "Storage Tank, 2 Level": _t(OTHER, vasl_kind="storage tank"),
    # Buildings (B23): single story, two-story (1 upper level), multi-story (2+).
    "Stone Building": _b(S, 0),
    "Wooden Building": _b(W, 0),
    "MultipleWooden": _b(W, 0),
    **{f"Stone Building, {n} Level": _b(S, n) for n in (1, 2, 3, 4)},
    **{f"Wooden Building, {n} Level": _b(W, n) for n in (1, 2, 3, 4)},
    **{f"Gutted Stone Building{s}": _b(S, n, rooftop=False, vasl_kind="gutted building")
       for s, n in (("", 0), (", 1 Level", 1), (", 2 Level", 2), (", 3 Level", 3), (", 4 Level", 4))},
    "Mausoleum": _b(S, 0, vasl_kind="mausoleum"),
    "Temple": _b(S, 0, vasl_kind="temple"),
    "Building Cluster": _b(S, 0, vasl_kind="building cluster"),
    "Lumberyard": _b(W, 0, BuildingKind.LUMBERYARD, vasl_kind="lumberyard"),  # B23.211
    "Stone Market Place": _b(S, 1, vasl_kind="marketplace"),  # B23.?: ground level is open
    "Wooden Market Place": _b(W, 1, vasl_kind="marketplace"),
    # Factories (B23.74): rooftop from the ground; walls are hexside terrain.
    "Stone Factory, 1.5 Level": _b(S, 1, F, rooftop=True, vasl_kind="factory"),
    "Stone Factory, 2.5 Level": _b(S, 2, F, rooftop=True, vasl_kind="factory"),
    "Wooden Factory, 1.5 Level": _b(W, 1, F, rooftop=True, vasl_kind="factory"),
    "Wooden Factory, 2.5 Level": _b(W, 2, F, rooftop=True, vasl_kind="factory"),
    "Wooden Factory, 1 Level": _b(W, 1, F, rooftop=True, vasl_kind="factory"),
    "Roofless Stone Factory, 1.5 Level": _b(S, 1, F, rooftop=False, vasl_kind="roofless factory"),
    "Roofless Stone Factory, 2.5 Level": _b(S, 2, F, rooftop=False, vasl_kind="roofless factory"),
    "Gutted Stone Factory, 1.5 Level": _b(S, 1, F, rooftop=False, vasl_kind="gutted factory"),
    "Gutted Stone Factory, 2.5 Level": _b(S, 2, F, rooftop=False, vasl_kind="gutted factory"),
    **{n: TerrainMapping(OTHER, material=S, hexside=True, vasl_kind="factory wall") for n in (
        "Stone Factory Wall, 1.5 Level", "Stone Factory Wall, 2.5 Level", "Interior Factory Wall, 1 Level",
        "Interior Factory Wall, 2 Level")},
    **{n: TerrainMapping(OTHER, material=W, hexside=True, vasl_kind="factory wall") for n in (
        "Wooden Factory Wall, 1.5 Level", "Wooden Factory Wall, 2.5 Level", "Wooden Factory Wall, 1 Level")},
    # Rowhouse walls (B23.71): hexside terrain that splits a building into separate hexes.
    **{n: TerrainMapping(OTHER, hexside=True, rowhouse=True, vasl_kind="rowhouse wall") for n in (
        "Rowhouse Wall", "Rowhouse Wall, 1 Level", "Rowhouse Wall, 2 Level", "Rowhouse Wall, 3 Level",
        "Rowhouse Wall, 4 Level")},
}


def mapping_for(name: str) -> TerrainMapping:
    """The fire-rules mapping of a VASL terrain type name.

    :raises UnknownTerrainError: naming the type, if it is not mapped.
    """
    try:
        return MAPPING[name]
    except KeyError:
        pass
    key = re.sub(r"\s+", " ", name.strip())
    for k, v in MAPPING.items():
        if k.lower() == key.lower():
            return v
    raise UnknownTerrainError(f"VASL terrain type {name!r} is not mapped to a fire-rules terrain "
                              "(asl_vassal_bridge.vasl.terrain.MAPPING)")


#: VASL's woods-type terrain names: a road hex in which one of them covers at least :data:`WOODS_ROAD_SHARE`
#: of the pixels is a woods-road hex (B25.1).
WOODS_TYPES = frozenset({"Woods", "Forest", "Pine Woods", "Light Woods"})
WOODS_ROAD_SHARE = 0.2
#: The share of a woods hex's pixels drawn as road above which a road runs through it.
ROAD_SHARE = 0.03


def woods_road(terrain: Terrain, others: Iterable[tuple[str, float]], road: bool) -> Terrain:
    """The hex's terrain, made Woods-Road where a road runs through woods (B25.1's Woods-Road Kindle/Spread).

    *terrain* is the hex's terrain (its centre's), *others* every other VASL
    terrain type drawn in the hex with its share of the hex's pixels, *road*
    whether a road runs through it.  A road hex with one woods type over at
    least a fifth of its pixels, or a woods hex with a road, is Woods-Road;
    both readers (the board archives and VASL's live model) decide by this.

    >>> woods_road(Terrain.ROAD, [("Woods", 0.45), ("Open Ground", 0.1)], True).name
    'WOODS_ROAD'
    >>> woods_road(Terrain.ROAD, [("Woods", 0.1), ("Forest", 0.15)], True).name
    'ROAD'
    >>> woods_road(Terrain.WOODS, [("Dirt Road", 0.2)], True).name
    'WOODS_ROAD'
    """
    woods_around = any(n in WOODS_TYPES and s >= WOODS_ROAD_SHARE for n, s in others)
    if (terrain is Terrain.ROAD and woods_around) or (terrain is Terrain.WOODS and road):
        return Terrain.WOODS_ROAD
    return terrain


def drawn_shares(pixels: Mapping[str, int]) -> tuple[tuple[tuple[str, float], ...], float]:
    """Each VASL terrain type's share of a hex's pixels (from pixel counts by type name), and the share drawn as
    road (types the fire rules read as Road; an unknown type counts as no road).

    >>> drawn_shares({"Woods": 300, "Dirt Road": 100})
    ((('Woods', 0.75), ('Dirt Road', 0.25)), 0.25)
    """
    total = sum(pixels.values())
    if total <= 0:
        return (), 0.0
    shares = tuple((n, c / total) for n, c in pixels.items())
    return shares, sum(s for n, s in shares if _is_road(n))


def _is_road(name: str) -> bool:
    try:
        return mapping_for(name).terrain is Terrain.ROAD
    except UnknownTerrainError:
        return False


@dataclass(frozen=True, slots=True)
class VaslColor:
    """One VASL board colour (SharedBoardMetadata ``<color>``): its RGB, terrain name and level (``UNKNOWN``: none)."""

    name: str
    rgb: tuple[int, int, int]
    terrain: str
    elevation: str


@dataclass(frozen=True, slots=True)
class VaslTerrainType:
    """One ``terrainType`` of SharedBoardMetadata: VASL's LOS facts and our mapping."""

    code: int
    name: str
    los_category: str
    height: int
    inherent: bool
    split: float
    half_level: bool
    obstacle: bool
    hindrance: bool
    mapping: TerrainMapping


def _bool(v: str | None) -> bool:
    return (v or "").strip().lower() in ("true", "on", "yes", "1")


def _int(v: str | None, what: str, source: str) -> int:
    try:
        return int(float((v or "").strip()))
    except ValueError:
        raise BadXmlError(f"{source}: {what} {v!r} is not a number") from None


#: The rule types of SharedBoardMetadata's ``<LOSSSRules>`` (VASL ``AbstractMetadata.LOSSSRuleTypeValues``).
SSR_RULE_TYPES = ("ignore", "customCode", "terrainMap", "elevationMap", "terrainToElevationMap",
                  "elevationToTerrainMap")


@dataclass(frozen=True, slots=True)
class LosSsRule:
    """One ``<LOSSSRule>`` of SharedBoardMetadata: what an SSR token of VASL's board picker does to the LOS data.

    *type* is one of :data:`SSR_RULE_TYPES`; *from_value* and *to_value* are
    terrain type names or levels, as the type says (empty for ``ignore`` and
    ``customCode``).  :func:`asl_vassal_bridge.vasl.ssr.apply_ssr` applies them
    as VASL's ``VASLBoard.applyColorSSRules`` does.

    >>> LosSsRule("NoGrain", "terrainMap", "Grain", "Open Ground")
    LosSsRule(name='NoGrain', type='terrainMap', from_value='Grain', to_value='Open Ground')
    """

    name: str
    type: str
    from_value: str
    to_value: str


#: VASL's customCode rules and the terrain types each writes (a missing one: VASL fails, LOS disabled).
CUSTOM_SSR_NEEDS: dict[str, tuple[str, ...]] = {
    "NoStairwells": (),
    "RowhouseBarsToBuildings": ("Stone Building", *(f"Stone Building, {n} Level" for n in (1, 2, 3, 4))),
    "RowhouseBarsToOpenGround": ("Open Ground",),
    "NoBridge": ("Gully",),
    "BridgeToFord": ("Gully",),
    "RoadsToPaths": ("Woods",),
    "NoWoodsRoads": ("Woods",),
    "NoWoodsRoad": ("Woods",),
    "Bamboo": ("Bamboo", "Light Jungle"),
    "PalmTrees": ("Palm Trees", "Light Jungle"),
    "SwampToSwampPattern": ("Swamp", "Light Jungle"),
    "DenseJungle": ("Dense Jungle", "Light Jungle"),
}
ROWHOUSE_WALLS = ("Rowhouse Wall", *(f"Rowhouse Wall, {n} Level" for n in (1, 2, 3, 4)))
_JAVA_INT = re.compile(r"[+-]?[0-9]+")
_DISABLES = "VASL disables LOS for it"


@dataclass(frozen=True)
class TerrainTable:
    """VASL terrain types by typeCode (the codes of LOSData pixels), and the SSR rules VASL's LOS model knows."""

    by_code: Mapping[int, VaslTerrainType]
    source: str = ""
    ssr_rules: Mapping[str, LosSsRule] = field(default_factory=dict)
    #: SharedBoardMetadata's ``<colors>`` in file order (the board colour table overlays are read through).
    colors: tuple[VaslColor, ...] = ()

    @cached_property
    def _codes_by_name(self) -> dict[str, int]:
        return {t.name: code for code, t in self.by_code.items()}  # a repeated name: the last one, as VASL keeps it

    def code_of(self, name: str) -> int | None:
        """The typeCode of a terrain type name, None if there is none (VASL ``Map.getTerrain(name)``)."""
        return self._codes_by_name.get(name)

    def __getitem__(self, code: int) -> VaslTerrainType:
        try:
            return self.by_code[code]
        except KeyError:
            raise UnknownTerrainError(f"terrain code {code} is not in {self.source or 'the terrain table'} "
                                      "(expected a VASL terrainType typeCode)") from None

    def __contains__(self, code: object) -> bool:
        return code in self.by_code

    def merged(self, other: TerrainTable) -> TerrainTable:
        """This table with *other*'s types and SSR rules added (other wins on a repeated code or rule name)."""
        return TerrainTable({**self.by_code, **other.by_code}, f"{self.source} + {other.source}",
                            {**self.ssr_rules, **other.ssr_rules}, self.colors + other.colors)


def terrain_types_from_xml(data: bytes, source: str) -> TerrainTable:
    """The terrain types and SSR rules of a SharedBoardMetadata.xml (or a bare ``<terrainTypes>`` excerpt).

    :raises BadXmlError: for XML that is broken or holds no terrain types, or a malformed ``<LOSSSRule>``.
    :raises UnknownTerrainError: for a type the project does not map.
    """
    root = parse_xml(data, source, "VASL SharedBoardMetadata.xml with terrainTypes")
    out: dict[int, VaslTerrainType] = {}
    for el in root.iter("terrainType"):
        name = el.get("name")
        if name is None:
            raise BadXmlError(f"{source}: a terrainType has no name attribute")
        code = _int(el.get("typeCode"), f"typeCode of terrain {name!r}", source)
        if not 0 <= code <= 255:
            raise BadXmlError(f"{source}: typeCode {code} of terrain {name!r} is outside 0–255")
        out[code] = VaslTerrainType(
            code, name, el.get("LOSCategory") or "", _int(el.get("height") or "0", f"height of {name!r}", source),
            _bool(el.get("isInherentTerrain")), float(el.get("split") or 0) if _isfloat(el.get("split")) else 0.0,
            _bool(el.get("isHalfLevelHeight")), _bool(el.get("isLOSObstacle")), _bool(el.get("isLOSHindrance")),
            mapping_for(name))
    if not out:
        raise BadXmlError(f"{source}: no terrainType elements (expected VASL's SharedBoardMetadata.xml)")
    return TerrainTable(out, source, _ssr_rules(root, source), colors_from_xml(root, source))


def colors_from_xml(root: Any, source: str) -> tuple[VaslColor, ...]:
    """The ``<colors>/<color>`` elements under *root* (SharedBoardMetadata's, or a BoardMetadata.xml's own)."""
    out: list[VaslColor] = []
    for block in root.iter("colors"):
        for el in block.iter("color"):
            name, r, g, b = el.get("name"), el.get("red"), el.get("green"), el.get("blue")
            if not name or r is None or g is None or b is None:
                continue  # a colour reference inside an SSR rule, not a colour definition
            rgb = (_int(r, f"red of colour {name!r}", source), _int(g, f"green of colour {name!r}", source),
                   _int(b, f"blue of colour {name!r}", source))
            out.append(VaslColor(name, rgb, (el.get("terrain") or "UNKNOWN").strip(),
                                 (el.get("elevation") or "UNKNOWN").strip()))
    return tuple(out)


def ssr_tokens(ssr: str | Iterable[str]) -> tuple[str, ...]:
    """The SSR tokens of a board's terrain changes (VASL separates them by tabs; the saved-game reader by spaces).

    >>> ssr_tokens("NoGrain\\tLightWoods  NoStairwells")
    ('NoGrain', 'LightWoods', 'NoStairwells')
    """
    if isinstance(ssr, str):
        return tuple(ssr.split())
    return tuple(t for s in ssr for t in s.split())


def _java_int(v: str) -> int | None:
    return int(v) if _JAVA_INT.fullmatch(v) and -(2 ** 31) <= int(v) < 2 ** 31 else None


def _shared_name(table: TerrainTable) -> str:
    """The SharedBoardMetadata file the table was read from, by its file name."""
    first = table.source.split(" + ")[0]
    return PurePath(first.split("!")[-1]).name if first else "SharedBoardMetadata.xml"


def _did_you_mean(token: str, table: TerrainTable) -> str:
    """``" (did you mean 'NoGrain'? …)"`` for a token that differs from a rule's name only in case (``nograin``)."""
    close = {n.lower(): n for n in table.ssr_rules}.get(token.lower())
    return f" (did you mean {close!r}? SSR names are case-sensitive)" if close else ""


def _problem(token: str, rule: LosSsRule | None, table: TerrainTable, board_name: str) -> str | None:
    """Why VASL's LOS model cannot apply *token* (None: it can)."""
    shared = _shared_name(table)
    if rule is None:
        if board_name == "RBv2":
            return "VASL's own rule for board RBv2's overlays, not applied here"
        return f"not among the {len(table.ssr_rules)} LOSSSRules of {shared}: {_DISABLES}{_did_you_mean(token, table)}"

    def lacks(*names: str) -> str | None:
        missing = [n for n in names if table.code_of(n) is None]
        return f"{shared} has no terrain type {missing[0]!r}: {_DISABLES}" if missing else None

    def not_level(attr: str, v: str) -> str:
        return f"its {attr} {v!r} in {shared} is not a level: {_DISABLES}"

    kind = rule.type
    if kind == "customCode":
        if token not in CUSTOM_SSR_NEEDS:
            return f"a customCode rule VASL has no code for: {_DISABLES}"
        if token == "RowhouseBarsToBuildings":
            pairs = zip(ROWHOUSE_WALLS, CUSTOM_SSR_NEEDS[token], strict=True)
            return lacks(*(to for frm, to in pairs if table.code_of(frm) is not None))
        return lacks(*CUSTOM_SSR_NEEDS[token])
    if kind == "terrainMap":
        return lacks(rule.to_value) if table.code_of(rule.from_value) is not None else None
    if kind == "elevationMap":
        for attr, v in (("fromValue", rule.from_value), ("toValue", rule.to_value)):
            if _java_int(v) is None:
                return not_level(attr, v)
        return None
    if kind == "terrainToElevationMap":
        if _java_int(rule.to_value) is None:
            return not_level("toValue", rule.to_value)
        return lacks("Open Ground") if table.code_of(rule.from_value) is not None else None
    if kind == "elevationToTerrainMap":
        if _java_int(rule.from_value) is None:
            return not_level("fromValue", rule.from_value)
        return lacks(rule.to_value)
    return None  # ignore


def ssr_problems(ssr: str | Iterable[str], table: TerrainTable, board_name: str = ""
                 ) -> tuple[tuple[str, str], ...]:
    """The tokens of *ssr* VASL's LOS model cannot apply, each with why (the rest :func:`apply_ssr` applies).

    >>> from asl_vassal_bridge.vasl.terrain import terrain_types_from_xml
    >>> t = terrain_types_from_xml(b'<sharedBoardMetadata><terrainTypes><terrainType name="Open Ground" '
    ...     b'typeCode="0"/></terrainTypes><LOSSSRules><LOSSSRule name="Winter" type="ignore" fromValue="" '
    ...     b'toValue=""/></LOSSSRules></sharedBoardMetadata>', "shared.xml")
    >>> ssr_problems("Winter NoWhtFlds", t)
    (('NoWhtFlds', 'not among the 1 LOSSSRules of shared.xml: VASL disables LOS for it'),)
    """
    out = []
    for token in ssr_tokens(ssr):
        why = _problem(token, table.ssr_rules.get(token), table, board_name)
        if why is not None:
            out.append((token, why))
    return tuple(out)


def _ssr_rules(root: Any, source: str) -> dict[str, LosSsRule]:
    """The ``<LOSSSRules>`` of SharedBoardMetadata by name (a repeated name: the last one, as VASL keeps it).

    As VASL's ``AbstractMetadata.parseLOSSSRules`` a rule's type must be one
    of :data:`SSR_RULE_TYPES`; every attribute is required (as the file's own
    comment says); the values are checked when a rule is applied.
    """
    rules: dict[str, LosSsRule] = {}
    for el in root.iterfind("LOSSSRules/LOSSSRule"):
        name = el.get("name")
        if not name:
            raise BadXmlError(f"{source}: line {el.sourceline}: a LOSSSRule has no name attribute "
                              "(expected name, type, fromValue, toValue)")
        values = [el.get(a) for a in ("type", "fromValue", "toValue")]
        for attr, v in zip(("type", "fromValue", "toValue"), values, strict=True):
            if v is None:
                raise BadXmlError(f"{source}: LOSSSRule {name!r} has no {attr} attribute "
                                  "(VASL needs name, type, fromValue and toValue)")
        kind, from_value, to_value = (v or "" for v in values)
        if kind not in SSR_RULE_TYPES:
            raise BadXmlError(f"{source}: LOSSSRule {name!r} has type {kind!r}; VASL knows "
                              f"{', '.join(SSR_RULE_TYPES)}")
        rules[name] = LosSsRule(name, kind, from_value, to_value)
    return rules


def _isfloat(v: str | None) -> bool:
    try:
        float(v or "")
    except ValueError:
        return False
    return True


def read_terrain_types(*paths: Path | str) -> TerrainTable:
    """The terrain types of one or more SharedBoardMetadata files, later files adding to earlier ones."""
    table: TerrainTable | None = None
    for p in paths:
        t = terrain_types_from_xml(Path(p).read_bytes(), str(p))
        table = t if table is None else table.merged(t)
    if table is None:
        raise BadXmlError("no SharedBoardMetadata file given")
    return table
