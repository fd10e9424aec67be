"""VASL's own per-hex terrain model (``VASL.LOS.Map.Hex.resetTerrain``; a step of :mod:`.board`): each hex's
centre terrain, base level, stairway, depression and Location chain as VASL 6.7.x sets them, or as the VASL of
2020 does (:data:`VaslModel`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from .board_hex_points import VaslCentres, _box_has, _first_in_hex, _neighbour, vasl_centres
from .board_losdata import LOSData
from .geometry import BoardGeometry
from .terrain import TerrainTable, VaslTerrainType

__all__ = [
    "BUILDING_PROBES",
    "NEAR_CENTRE_ELEVATION_OFFSETS",
    "NEAR_CENTRE_OFFSETS",
    "NO_LEVEL_BUILDINGS",
    "ROWHOUSE_FACTORY_WALLS",
    "TWO_STORY_STAIRWAY_TYPES",
    "VASL_MODELS",
    "WAREHOUSE_ROOFTOP_HEXES",
    "VaslHexModel",
    "VaslModel",
    "vasl_centre_terrain",
    "vasl_hex_model",
    "vasl_hex_model_2020",
    "vasl_model",
]


#: Which VASL terrain model the archive reader repeats (the live bridge reports the running VASL's as the
#: snapshot's ``vasl_model``): ``"6.7"``, VASL 6.7.x's per-hex reading and map building (near-centre sample,
#: building probes, Location chains, bridges over depressions, overlays, reversed boards read on turned pixels);
#: ``"2020"``, the VASL of 2020 (the ``michalxo/vasl`` fork): the centre point itself, no Location chains, no
#: overlays in the terrain, reversed boards read unturned.
VaslModel = Literal["6.7", "2020"]


VASL_MODELS: tuple[VaslModel, ...] = get_args(VaslModel)


def vasl_model(value: object, source: str = "the VASL model") -> VaslModel:
    """*value* as a :data:`VaslModel`, or one clear line naming *source* and the models known.

    >>> vasl_model("2020")
    '2020'
    >>> vasl_model("6.5", "snapshot field vasl_model")
    Traceback (most recent call last):
    ...
    ValueError: snapshot field vasl_model: '6.5' is no VASL terrain model this reader knows (expected 6.7 or 2020)
    """
    for m in VASL_MODELS:
        if value == m:
            return m
    raise ValueError(f"{source}: {value!r} is no VASL terrain model this reader knows (expected "
                     f"{' or '.join(VASL_MODELS)})")


def _losc(table: TerrainTable, *names: str) -> npt.NDArray[np.bool_]:
    lut = np.zeros(256, dtype=bool)
    for code, t in table.by_code.items():
        lut[code] = t.los_category.upper() in names
    return lut


def vasl_centre_terrain(los: LOSData, geo: BoardGeometry, table: TerrainTable,
                        pts: VaslCentres | None = None) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each hex's terrain code and base level as VASL 6.7.x's LOS model sets them (``Hex.resetTerrain``).

    See :func:`vasl_hex_model` for the rules; this is its centre terrain and base level.
    """
    model = vasl_hex_model(los, geo, table, pts)
    return model.code, model.elevation


@dataclass(frozen=True)
class VaslHexModel:
    """Per hex (in :meth:`BoardGeometry.hexes` order) what VASL 6.7.x's ``Hex`` holds after
    ``Map.resetHexTerrain`` ran twice (once at the end of ``BoardArchive.addLOSDatatoVASLMap``, once more in
    ``ASLMap`` when every board is in).

    *code*: the centre Location's terrain; *elevation*: ``getBaseLevelofHex``; *stairway*: ``hasStairway``;
    *depression*: the centre Location's depression terrain code (−1: none); *locations*: every Location of the
    centre's up/down chain from the lowest to the highest as (terrain code or −1 for VASL's null, level in
    hex), the centre included at index *centre* of each; *before*: the centre terrain before the market place,
    depression and inherent steps (what decides a building's Locations); *hexside_terrain* and
    *hexside_depression* ``[hex, side]`` (side 0 up, clockwise): each hexside Location's terrain and depression
    terrain (−1: none).
    """

    code: npt.NDArray[np.int64]
    elevation: npt.NDArray[np.int64]
    stairway: npt.NDArray[np.bool_]
    depression: npt.NDArray[np.int64]
    locations: tuple[tuple[tuple[int, int], ...], ...]
    centre: tuple[int, ...]
    before: npt.NDArray[np.int64]
    hexside_terrain: npt.NDArray[np.int64] | None = None
    hexside_depression: npt.NDArray[np.int64] | None = None


#: The wall types VASL's ``Terrain.isRowhouseFactoryWall`` counts as hexside terrain besides LOS category HEXSIDE.
ROWHOUSE_FACTORY_WALLS = ("Rowhouse Wall", "Rowhouse Wall, 1 Level", "Rowhouse Wall, 2 Level", "Rowhouse Wall, 3 Level",
                          "Rowhouse Wall, 4 Level", "Interior Factory Wall, 1 Level", "Interior Factory Wall, 2 Level")


#: Building types VASL's ``Hex.addBuildingLevels`` gives no upper level, cellar or rooftop Location.
NO_LEVEL_BUILDINGS = ("Wooden Building", "Stone Building", "Huts", "MultipleWooden")


#: The buildings whose hexes VASL gives a stairway whatever LOSData says (``Hex.addBuildingLevels``: the two-story
#: buildings' inherent stairwells).
TWO_STORY_STAIRWAY_TYPES = ("Stone Building, 1 Level", "Wooden Building, 1 Level")


#: Hex names whose "Wooden Building" VASL 6.7.x gives a level-1 rooftop on every board (``Hex.
#: fixspecialcasesAddRooftops``: meant for the wooden warehouses of board RO, tested by hex name alone).
WAREHOUSE_ROOFTOP_HEXES = frozenset({"I21", "I22", "I23", "I24", "I25", "I26", "I29", "I30",
                                     "J21", "J22", "J23", "J24", "J25", "J26"})


#: ``Hex.getnearcenterLocationTerrain``: the centre terrain is sampled one pixel off the centre point, at the first
#: of these offsets on the grid (else at the centre point itself).
NEAR_CENTRE_OFFSETS = ((1, -1), (1, 1), (-1, 1), (-1, -1))


#: ``Hex.getnearcenterLocationElevation`` reads the same points but the last one at (−1, +1).
NEAR_CENTRE_ELEVATION_OFFSETS = ((1, -1), (1, 1), (-1, 1), (-1, 1))


#: The four points five pixels off the centre point that ``Hex.resetTerrain`` also tests for a building (a later
#: one on a building wins).
BUILDING_PROBES = ((5, 0), (-5, 0), (0, 5), (0, -5))


def _near_centre(arr: npt.NDArray[Any], lx: npt.NDArray[np.int64], ly: npt.NDArray[np.int64],
                 offsets: Sequence[tuple[int, int]], probe: Sequence[tuple[int, int]] = NEAR_CENTRE_OFFSETS
                 ) -> npt.NDArray[np.int64]:
    """*arr* at the first offset of *probe* that lies on the grid, read at the matching offset of *offsets*."""
    gh, gw = arr.shape
    out = arr[np.clip(ly, 0, gh - 1), np.clip(lx, 0, gw - 1)].astype(np.int64)
    done = np.zeros(len(lx), dtype=bool)
    for (px, py), (dx, dy) in zip(probe, offsets, strict=True):
        on = ~done & (lx + px >= 0) & (lx + px < gw) & (ly + py >= 0) & (ly + py < gh)
        x, y = np.clip(lx + dx, 0, gw - 1), np.clip(ly + dy, 0, gh - 1)
        out = np.where(on, arr[y, x], out)
        done |= on
    return out


def _code_or_null(table: TerrainTable, name: str) -> int:
    """``Map.getTerrain(name)``'s code, −1 (VASL's null terrain) when the table has no such type."""
    code = table.code_of(name)
    return -1 if code is None else code


class _Luts:
    """Per-code facts of a terrain table, as lists indexed by typeCode (VASL ``Terrain``'s predicates)."""

    def __init__(self, table: TerrainTable) -> None:
        def lut(pred: Callable[[VaslTerrainType], bool]) -> list[bool]:
            out = [False] * 256
            for c, t in table.by_code.items():
                out[c] = bool(pred(t))
            return out

        def cat(*names: str) -> Callable[[VaslTerrainType], bool]:
            return lambda t: t.los_category.upper() in names

        self.building = lut(cat("BUILDING", "FACTORY", "MARKETPLACE"))
        self.market = lut(cat("MARKETPLACE"))
        self.factory = lut(cat("FACTORY"))
        self.depression = lut(cat("DEPRESSION"))
        self.bridge = lut(cat("BRIDGE"))
        self.tunnel = lut(cat("TUNNEL"))
        self.water = lut(cat("WATER"))
        self.road = lut(cat("ROAD"))
        self.hexside = lut(lambda t: t.los_category.upper() == "HEXSIDE" or t.name in ROWHOUSE_FACTORY_WALLS)
        self.no_levels = lut(lambda t: t.name in NO_LEVEL_BUILDINGS)
        self.two_story = lut(lambda t: t.name in TWO_STORY_STAIRWAY_TYPES)
        self.roofless = lut(lambda t: "Roofless" in t.name or "Gutted" in t.name)
        self.height = [0] * 256
        for c, t in table.by_code.items():
            self.height[c] = t.height
        self.inherent = np.array(lut(lambda t: t.inherent), dtype=bool)
        self.open_ground = table.code_of("Open Ground")
        self.wooden_building = table.code_of("Wooden Building")
        self.cellar = _code_or_null(table, "Cellar")
        self.rooftop = _code_or_null(table, "Rooftop")


def _first_building_side(ter: npt.NDArray[np.uint8], p: VaslCentres, building: npt.NDArray[np.bool_]
                         ) -> npt.NDArray[np.int64]:
    """Per hex, the building terrain code at its first hexside point (k = 0…5) that lies on a building, else −1
    (``Hex.resetTerrain``'s fallback when the centre misses the building)."""
    gh, gw = ter.shape
    found = np.full(len(p.sides), -1, dtype=np.int64)
    for k in range(6):
        sx, sy = p.sides[:, k, 0], p.sides[:, k, 1]
        ok = (sx >= 0) & (sx < gw) & (sy >= 0) & (sy < gh)
        sc = np.where(ok, ter[np.clip(sy, 0, gh - 1), np.clip(sx, 0, gw - 1)], 0).astype(np.int64)
        found = np.where((found < 0) & ok & building[sc], sc, found)
    return found


def vasl_hex_model(los: LOSData, geo: BoardGeometry, table: TerrainTable, pts: VaslCentres | None = None,
                   passes: int = 2, remembered: npt.NDArray[np.int64] | None = None,
                   model: VaslModel = "6.7") -> VaslHexModel:
    """Every hex as VASL 6.7.x's ``Hex.resetTerrain`` leaves it after *passes* runs (VASL runs it twice).

    Per run, in VASL's order: the centre terrain one pixel off the centre point
    (:data:`NEAR_CENTRE_OFFSETS`) and the base level there; if that is no
    building, the building at the first hexside point that has one, then at the
    last of :data:`BUILDING_PROBES` that has one; a building's Locations (upper
    levels, a cellar at −1 and a rooftop, but none for
    :data:`NO_LEVEL_BUILDINGS`; factories without a stairway get no upper
    levels, a rooftop at height + 1 and no cellar; a market place's ground level
    is Open Ground); depression terrain at the centre is remembered, and a
    remembered one becomes the centre terrain again on the next run; inherent
    terrain off the centre overrides the centre terrain (every hexside point
    counts as on the map, as in VASL's runtime grid configuration); a hex with a
    bridge (or tunnel) pixel inside its outline gets a second Location: over a
    depression centre the bridge at the road's level (the elevation under the
    first road hexside point, else base level + 1) above it — a single-hex
    bridge is the stream at its own level with the bridge above; over a bridge
    centre the depression below it (the centre moved to level 1 on level-0
    ground); over water the bridge above.  Java's run-to-run state is kept
    (stairways, remembered depressions, Location chains a run does not replace).
    *remembered* gives, per hex, a depression code its centre Location already
    remembers before these runs (−1: none), as an overlay's hex pass leaves it.
    *model* ``"2020"``: the VASL of 2020's reading instead (:func:`vasl_hex_model_2020`).
    """
    p = pts if pts is not None else vasl_centres(geo)
    if model == "2020":
        return vasl_hex_model_2020(los, geo, table, p)
    lut = _Luts(table)
    ter, elv = los.terrain, los.elevation
    gh, gw = ter.shape
    lx, ly = p.los[:, 0], p.los[:, 1]
    n = len(lx)
    near = _near_centre(ter, lx, ly, NEAR_CENTRE_OFFSETS)
    elev = _near_centre(elv, lx, ly, NEAR_CENTRE_ELEVATION_OFFSETS)
    building = np.array(lut.building, dtype=bool)
    # A building that misses the centre dot: the first hexside point on a building, then the probes 5 px off.
    found = _first_building_side(ter, p, building)
    code = np.where(~building[near] & (found >= 0), found, near)
    missed = ~building[code]
    for dx, dy in BUILDING_PROBES:
        x, y = lx + dx, ly + dy
        ok = (x >= 0) & (x < gw) & (y >= 0) & (y < gh)
        sc = ter[np.clip(y, 0, gh - 1), np.clip(x, 0, gw - 1)].astype(np.int64)
        code = np.where(missed & ok & building[sc], sc, code)
    all_on = VaslCentres(p.fixed, p.los, p.sides, np.ones_like(p.side_on), p.box, p.vertices)
    inherent = _inherent_found(ter, lut.inherent[ter], all_on)
    crossing = np.array([a or b for a, b in zip(lut.bridge, lut.tunnel, strict=True)], dtype=bool)[ter]
    special = _box_has(crossing, p)
    stair = np.zeros(n, dtype=bool)
    m = min(n, len(los.stairways))
    stair[:m] = los.stairways[:m] == 1
    names = [nm for _, _, nm in geo.hexes()]
    out_code = np.empty(n, dtype=np.int64)
    out_dep = np.full(n, -1, dtype=np.int64)
    locations: list[tuple[tuple[int, int], ...]] = []
    centres: list[int] = []
    bridge_mask = np.array(lut.bridge, dtype=bool)[ter] if special.any() else crossing
    depression_mask = np.array(lut.depression, dtype=bool)[ter] if special.any() else crossing
    index = {(c, r): i for i, (c, r, _) in enumerate(geo.hexes())} if special.any() else {}
    for i in range(n):
        t0 = int(code[i])
        base = int(elev[i])
        st = bool(stair[i])
        dep = int(remembered[i]) if remembered is not None else -1
        level = 0
        up: list[tuple[int, int]] = []
        down: list[tuple[int, int]] = []
        centre = t0
        bridge_info: tuple[int, int, int | None] | None = None
        for _ in range(passes):
            centre = t0
            if lut.building[t0]:
                old = st and not lut.two_story[t0]
                if lut.market[t0] and lut.open_ground is not None:
                    centre = lut.open_ground
                levels = [] if lut.no_levels[t0] else [
                    (t0, lv) for lv in range(1, lut.height[t0] + 1) if not (lut.factory[t0] and not st)]
                if levels:
                    up = levels
                st = lut.two_story[centre] or old
                if not lut.no_levels[t0] and not lut.factory[t0]:
                    down = [(lut.cellar, -1)]
                if not lut.no_levels[t0] and not lut.roofless[t0]:
                    up = [*up, (lut.rooftop, (lut.height[t0] if lut.factory[t0] else len(up)) + 1)]
                if centre == lut.wooden_building and names[i] in WAREHOUSE_ROOFTOP_HEXES:
                    up = [(lut.rooftop, 1)]
            if lut.depression[centre]:
                dep = centre
            elif dep >= 0:
                centre = dep
            if inherent[i] >= 0:
                centre = int(inherent[i])
            if special[i] and bridge_info is None and _first_in_hex(ter, crossing, p, i) < 0:
                special[i] = False  # a bridge or tunnel pixel in the outline's box, none inside the outline
            if special[i]:
                if bridge_info is None:
                    bridge_info = (_first_in_hex(ter, bridge_mask, p, i), _first_in_hex(ter, depression_mask, p, i),
                                   _bridge_level(ter, elv, p, lut, geo, index, i))
                b_code, d_code, road_level = bridge_info
                if dep >= 0:
                    up = [(b_code, (road_level if road_level is not None else base + 1) - base)]
                elif lut.bridge[centre]:
                    adj = 1
                    if base == 0 and level == 0:
                        level = 1
                    elif base > 0:
                        adj = 2
                    down = [(d_code, level - adj)]
                elif lut.tunnel[centre]:
                    rare = table.code_of("Woods") if "II50" in names[i] else lut.open_ground
                    up = [(rare if rare is not None else -1, level + 1)]
                elif lut.water[centre]:
                    up = [(b_code, (road_level if road_level is not None else base + 1) - base)]
        out_code[i] = centre
        out_dep[i] = dep
        stair[i] = st
        chain = [*reversed(down), (centre, level), *up]
        locations.append(tuple(chain))
        centres.append(len(down))
    side_t, side_d = _hexside_locations(ter, p, lut, geo)
    return VaslHexModel(out_code, elev, stair, out_dep, tuple(locations), tuple(centres), code, side_t, side_d)


def vasl_hex_model_2020(los: LOSData, geo: BoardGeometry, table: TerrainTable,
                        pts: VaslCentres | None = None) -> VaslHexModel:
    """Every hex as the VASL of 2020's ``Hex.resetTerrain`` sets it (the ``michalxo/vasl`` fork, VASL 6.4 era;
    ``scripts/compare_vasl_terrain.py`` measured this reading equal to those classes on every hex of the 2020
    board repository's boards with LOS data).

    The terrain and base level at the centre point itself; if that is no
    building, the building at the first hexside point (0 up, clockwise) that
    has one; a market place's ground level is Open Ground; then inherent
    terrain (orchard, grain…) overrides it: the first inherent pixel, scanning
    the outline's bounding box column by column, whose nearest on-map Location
    is the centre.  The stairway is LOSData's byte, or a two-story building at
    the centre.  Depressions and single-hex bridges change neither the terrain
    nor the base level (a bridge drawn over the centre stays the hex's terrain);
    each hex's Location chain is its centre alone.
    """
    p = pts if pts is not None else vasl_centres(geo)
    lut = _Luts(table)
    ter, elv = los.terrain, los.elevation
    lx, ly = p.los[:, 0], p.los[:, 1]
    n = len(lx)
    code = ter[ly, lx].astype(np.int64)
    elev = elv[ly, lx].astype(np.int64)
    building = np.array(lut.building, dtype=bool)
    found = _first_building_side(ter, p, building)
    code = np.where(~building[code] & (found >= 0), found, code)
    before = code
    if lut.open_ground is not None:
        code = np.where(np.array(lut.market, dtype=bool)[code], lut.open_ground, code)
    inherent = _inherent_found(ter, lut.inherent[ter], p)
    code = np.where(inherent >= 0, inherent, code)
    stair = np.zeros(n, dtype=bool)
    m = min(n, len(los.stairways))
    stair[:m] = los.stairways[:m] == 1
    stair |= np.array(lut.two_story, dtype=bool)[before]
    depression = np.where(np.array(lut.depression, dtype=bool)[code], code, -1)
    side_t, side_d = _hexside_locations(ter, p, lut, geo)
    return VaslHexModel(code, elev, stair, depression, tuple(((int(c), 0),) for c in code), (0,) * n, before,
                        side_t, side_d)


def _hexside_locations(ter: npt.NDArray[np.uint8], p: VaslCentres, lut: _Luts, geo: BoardGeometry
                       ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each hexside Location's terrain and depression terrain ``[hex, side]`` as ``Hex.resetTerrain`` and
    ``resetHexsideTerrain`` set them: the pixel under the hexside point (Open Ground off the grid), replaced by the
    neighbour's facing hexside point's pixel when that is hexside terrain and this one is not; the depression
    terrain is the pixel under the point when it is a depression."""
    gh, gw = ter.shape
    sx, sy = p.sides[:, :, 0], p.sides[:, :, 1]
    on = (sx >= 0) & (sx < gw) & (sy >= 0) & (sy < gh)
    raw = np.where(on, ter[np.clip(sy, 0, gh - 1), np.clip(sx, 0, gw - 1)].astype(np.int64), -1)
    og = lut.open_ground if lut.open_ground is not None else 0
    t = np.where(raw >= 0, raw, og)
    hexside = np.array([*lut.hexside, False], dtype=bool)  # index −1: off the grid, no terrain
    index = {(c, r): i for i, (c, r, _) in enumerate(geo.hexes())}
    opposite = np.full_like(raw, -1)
    for i, (c, r, _) in enumerate(geo.hexes()):
        for k in range(6):
            j = _neighbour(index, geo, c, r, k)
            if j is not None:
                opposite[i, k] = raw[j, (k + 3) % 6]
    t = np.where(~hexside[t] & hexside[opposite], opposite, t)
    depression = np.array([*lut.depression, False], dtype=bool)
    return t, np.where(depression[raw], raw, -1)


def _vasl_centres_codes(los: LOSData, geo: BoardGeometry, table: TerrainTable, pts: VaslCentres | None = None
                        ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """:func:`vasl_centre_terrain`, and each hex's centre terrain before the market place, depression and inherent
    steps (:attr:`VaslHexModel.before`)."""
    model = vasl_hex_model(los, geo, table, pts)
    return model.code, model.elevation, model.before


def _bridge_level(ter: npt.NDArray[np.uint8], elv: npt.NDArray[np.int8], p: VaslCentres, lut: _Luts,
                  geo: BoardGeometry, index: Mapping[tuple[int, int], int], i: int) -> int | None:
    """``Hex.getBridgeLocationAbsoluteLevel``: the elevation under the first hexside point (0 up, clockwise) whose
    hexside Location is road (its pixel, unless that is no hexside terrain and the neighbour's facing hexside
    point is), None when there is none (VASL then takes the base level + 1)."""
    gh, gw = ter.shape
    c, r = (int(v) for v in geo.hexes()[i][:2])

    def at(j: int, k: int) -> int | None:
        x, y = (int(v) for v in p.sides[j, k])
        return int(ter[y, x]) if 0 <= x < gw and 0 <= y < gh else None

    for k in range(6):
        t = at(i, k)
        if t is None:
            t = lut.open_ground if lut.open_ground is not None else 0
        if not lut.hexside[t]:
            j = _neighbour(index, geo, c, r, k)
            o = at(j, (k + 3) % 6) if j is not None else None
            if o is not None and lut.hexside[o]:
                t = o
        if lut.road[t] and not lut.depression[t]:
            x, y = (int(v) for v in p.sides[i, k])
            return int(elv[y, x])
    return None


def _inherent_found(ter: npt.NDArray[np.uint8], mask: npt.NDArray[np.bool_], p: VaslCentres) -> npt.NDArray[np.int64]:
    """``Hex.setInherentTerrain``, whole-array: each hex's inherent terrain code, −1 for none (only hexes whose
    outline box holds an inherent pixel are scanned)."""
    code = np.full(len(p.los), -1, dtype=np.int64)
    gh, gw = mask.shape
    x0, y0, x1, y1 = (p.box[:, k] for k in range(4))
    cand = np.nonzero(_box_has(mask, p))[0]
    if len(cand) == 0:
        return code
    w = int((x1 - x0)[cand].max())
    h = int((y1 - y0)[cand].max())
    xs = x0[cand, None] + np.arange(w)[None, :]  # [m, w]
    ys = y0[cand, None] + np.arange(h)[None, :]  # [m, h]
    okx = (xs < x1[cand, None]) & (xs >= 0) & (xs < gw)
    oky = (ys < y1[cand, None]) & (ys >= 0) & (ys < gh)
    hit = mask[np.clip(ys, 0, gh - 1)[:, None, :], np.clip(xs, 0, gw - 1)[:, :, None]]  # [m, x, y]
    hit &= okx[:, :, None] & oky[:, None, :]
    # The nearest Location must be the centre: no on-map hexside point strictly closer.
    dcx = xs - p.los[cand, 0, None]
    dcy = ys - p.los[cand, 1, None]
    d_centre = dcx[:, :, None] ** 2 + dcy[:, None, :] ** 2
    for k in range(6):
        on = p.side_on[cand, k]
        dsx = xs - p.sides[cand, k, 0, None]
        dsy = ys - p.sides[cand, k, 1, None]
        closer = dsx[:, :, None] ** 2 + dsy[:, None, :] ** 2 < d_centre
        hit &= ~(closer & on[:, None, None])
    flat = hit.reshape(len(cand), -1)
    has = flat.any(axis=1)
    first = flat.argmax(axis=1)
    fx = x0[cand] + first // h
    fy = y0[cand] + first % h
    idx = cand[has]
    code[idx] = ter[fy[has], fx[has]]
    return code
