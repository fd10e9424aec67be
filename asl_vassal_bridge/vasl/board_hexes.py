"""A board's every hex from its decoded pixel grid (a step of :mod:`.board`): per hex its terrain, elevation,
building, hexsides and feature (the depictions directly attached, B25.62), read as VASL's per-hex model reads it
(:mod:`.board_hex_model`), on pixels turned 180° where VASL 6.7.x turns a reversed board."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.hexes import Hex, HexNameError
from ..core.terrain import Building, BuildingKind, Material, Terrain, UnknownTerrainError
from ..core.values import replace
from .board_hex_model import VaslModel, vasl_hex_model
from .board_hex_points import _neighbour, vasl_centres
from .board_losdata import BoardMetadata, LOSData
from .crop import Crop
from .geometry import BoardGeometry, row_counts
from .terrain import ROAD_SHARE, TerrainMapping, TerrainTable, VaslTerrainType

__all__ = ["HexTerrain", "VaslBoard", "derive_hexes", "reversed_board", "turn_window", "turned_los"]


@lru_cache(maxsize=8)
def _labels(geo: BoardGeometry) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32]]:
    """For every pixel ``[y, x]``, the index (in :meth:`BoardGeometry.hexes` order) of the nearest hex
    centre, and the distance to it in pixels.

    Whole-array numpy, one vertical band of pixels between two column
    centres at a time: a pixel between the centres of columns c and c+1 is
    nearest to a hex of one of those two columns (any other column is at
    least a hex width further off), and within a column to one of the two
    hexes whose centres bracket its y.  Row candidates and their vertical
    distances depend only on y and the column's half-hex shift, so they are
    computed once per shift.
    """
    counts = row_counts(geo.width, geo.height)
    starts = [0]
    for n in counts[:-1]:
        starts.append(starts[-1] + n)
    gw, gh = geo.grid_width, geo.grid_height
    ax, ay = geo.centre(0, 0)  # column 0 is not shifted
    ys = np.arange(gh, dtype=np.float64)
    rows: dict[tuple[bool, int], npt.NDArray[np.int32]] = {}
    dy2: dict[tuple[bool, int], npt.NDArray[np.float32]] = {}
    for shifted in (False, True):
        shift = geo.hex_height / 2 if shifted else 0.0
        base = np.floor((ys - ay + shift) / geo.hex_height).astype(np.int32)
        for dr in (0, 1):
            r = base + dr
            rows[shifted, dr] = r
            dy = ys - (ay + geo.hex_height * r - shift)
            dy2[shifted, dr] = (dy * dy).astype(np.float32)[:, None]
    best_d = np.full((gh, gw), np.inf, dtype=np.float32)
    best_i = np.full((gh, gw), -1, dtype=np.int32)
    xs = np.arange(gw, dtype=np.float64)
    left = np.floor((xs - ax) / geo.hex_width).astype(np.int64)
    for band in range(int(left.min()), int(left.max()) + 1):
        xsel = np.nonzero(left == band)[0]
        if len(xsel) == 0:
            continue
        x0, x1 = int(xsel[0]), int(xsel[-1]) + 1
        bd = best_d[:, x0:x1]
        bi = best_i[:, x0:x1]
        for c in (band, band + 1):
            if not 0 <= c < geo.width:
                continue
            shifted = c % 2 == geo.long_parity
            dx = xs[x0:x1] - (ax + geo.hex_width * c)
            dx2 = (dx * dx).astype(np.float32)[None, :]
            for dr in (0, 1):
                r = rows[shifted, dr]
                ok = ((r >= 0) & (r < counts[c]))[:, None]
                d = dy2[shifted, dr] + dx2
                better = (d < bd) & ok
                np.copyto(bd, d, where=better)
                np.copyto(bi, np.broadcast_to((starts[c] + r)[:, None], bi.shape), where=better)
    return best_i, np.sqrt(best_d)


@dataclass(frozen=True, slots=True)
class HexTerrain:
    """What a board archive says of one hex.

    *terrain* is the VASL terrain type that decides the hex (at its centre,
    or the inherent terrain found near the centre); *others* lists every
    other terrain type drawn in the hex with its share of the hex's pixels;
    *hexsides* the hexside terrain along sides 1–6 (B.8 numbering: 1 up,
    clockwise; None where the side is plain); *feature* names the depiction
    the hex belongs to (hexes sharing it are directly attached, B25.62).
    *depression* is the centre Location's depression terrain and *locations*
    every Location of the hex's centre stack from the lowest to the highest
    as (terrain name, level in hex; None for VASL's null terrain), the centre
    at index *centre*, as VASL 6.7.x's ``Hex`` holds them (:func:`vasl_hex_model`):
    e.g. ``(("Cellar", -1), ("Stone Building, 2 Level", 0), …, ("Rooftop", 3))``;
    *hexside_locations* VASL's six hexside Locations (side 0 up, clockwise) as
    (terrain name, depression terrain name or None).
    """

    name: str
    col: int
    row: int
    x: float
    y: float
    terrain: VaslTerrainType
    elevation: int
    stairwell: bool
    others: tuple[tuple[str, float], ...]
    hexsides: tuple[str | None, ...]
    building_type: str | None
    feature: str | None
    road: bool
    depression: str | None = None
    locations: tuple[tuple[str | None, int], ...] = ()
    centre: int = 0
    hexside_locations: tuple[tuple[str, str | None], ...] = ()

    @property
    def fire_terrain(self) -> Terrain:
        return self.terrain.mapping.terrain


@dataclass(frozen=True)
class VaslBoard:
    """A decoded board archive: metadata, pixel grid, geometry and every hex, read as *model*'s VASL reads it
    (:data:`VaslModel`)."""

    source: str
    metadata: BoardMetadata
    los: LOSData
    geometry: BoardGeometry
    hexes: Mapping[str, HexTerrain]
    buildings: Mapping[str, Building]
    table: TerrainTable
    image: bytes | None = None
    model: VaslModel = "6.7"

    @property
    def name(self) -> str:
        return self.metadata.name

    def hex(self, name: str) -> HexTerrain:
        """The hex of this board with that name.

        :raises HexNameError: if there is none.
        """
        try:
            return self.hexes[name.strip().upper()]
        except KeyError:
            raise HexNameError(f"hex {name} is off board {self.name} ({self.metadata.width}×"
                               f"{self.metadata.height} hexes)") from None

    def local_hex_at(self, x: float, y: float) -> Hex | None:
        """The board-local core :class:`Hex` nearest to board pixel (x, y) (see
        :meth:`BoardGeometry.local_hex`), or None when the board has no hex there."""
        at = self.geometry.hex_at(x, y)
        return None if at is None else self.geometry.local_hex(*at)

    def summary(self) -> dict[str, Any]:
        """A JSON-ready summary: board facts and every hex's terrain."""
        return {
            "board": self.name, "version": self.metadata.version, "width": self.metadata.width,
            "height": self.metadata.height, "grid": [self.los.grid_width, self.los.grid_height],
            "hex_count": len(self.hexes),
            "hexes": [{
                "hex": h.name, "terrain": h.terrain.name, "fire_terrain": h.fire_terrain.name.lower(),
                "elevation": h.elevation, "stairwell": h.stairwell, "building_type": h.building_type,
                "feature": h.feature, "road": h.road,
                "others": [{"terrain": n, "share": round(s, 3)} for n, s in h.others],
                "hexsides": list(h.hexsides),
                "depression": h.depression,
                "locations": [{"terrain": t, "level": lv, **({"centre": True} if k == h.centre else {})}
                              for k, (t, lv) in enumerate(h.locations)],
                "hexside_locations": [{"terrain": t, "depression": d} for t, d in h.hexside_locations],
            } for h in self.hexes.values()],
            "buildings": {b.id: {"material": b.material.value, "kind": b.kind.value, "levels": b.levels,
                                 "hexes": [h.name for h in self.hexes.values() if h.feature == b.id]}
                          for b in self.buildings.values()},
        }

    def summary_lines(self) -> Iterator[str]:
        """A human-readable per-hex table."""
        m = self.metadata
        yield (f"board {m.name} (version {m.version}): {m.width}×{m.height} hexes, {len(self.hexes)} hexes "
               f"with half hexes, grid {self.los.grid_width}×{self.los.grid_height} px, "
               f"{len(self.buildings)} buildings")
        yield f"{'hex':<5} {'elev':>4}  {'terrain':<28} {'fire terrain':<16} {'feature':<12} other terrain"
        for h in self.hexes.values():
            others = ", ".join(f"{n} {s:.0%}" for n, s in h.others[:3])
            extra = " stairwell" if h.stairwell else ""
            bt = f" [{h.building_type}]" if h.building_type and h.building_type != h.terrain.name else ""
            yield (f"{h.name:<5} {h.elevation:>4}  {h.terrain.name + bt:<28} {h.fire_terrain.label:<16} "
                   f"{h.feature or '':<12} {others}{extra}")


_DIRECTION_SAMPLES = ((0.0, -1.0), (0.866, -0.5), (0.866, 0.5), (0.0, 1.0), (-0.866, 0.5), (-0.866, -0.5))


def _sample(arr: npt.NDArray[Any], x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
    xi = np.clip(x.astype(np.int64), 0, arr.shape[1] - 1)
    yi = np.clip(y.astype(np.int64), 0, arr.shape[0] - 1)
    return arr[yi, xi]


def _union_find(n: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return [find(i) for i in range(n)]


def turn_window(geo: BoardGeometry, crop: Crop | None = None) -> tuple[int, int, int, int] | None:
    """Where VASL 6.7.x's turned pixels of a reversed board are read here: (first pixel column, pixel width, first
    hex column, hex columns) of the board or of its crop, or None where this reader does not turn the board.

    The board (or its crop: whole hex columns from a hex column's centre, every row) must have an odd number of
    columns, so that its turned columns are as long as its own, as on every board VASL places uncropped.

    >>> g = BoardGeometry(33, 10, 1800, 645, 56.25, 64.5, 0.0, 32.25)
    >>> turn_window(g), turn_window(g, (0, 0, 900, -1)), turn_window(g, (900, 0, -1, -1))
    ((0, 1800, 0, 33), (0, 900, 0, 17), (900, 900, 16, 17))
    >>> turn_window(g, (0, 0, 844, -1)) is None  # A–P: 16 columns
    True
    """
    if crop is None:
        return (0, geo.grid_width, 0, geo.width) if geo.width % 2 == 1 else None
    x0, y0, w, h = crop
    cw = geo.grid_width - x0 if w < 0 else w
    if y0 != 0 or h not in (-1, geo.grid_height) or x0 < 0 or cw <= 0 or x0 + cw > geo.grid_width:
        return None
    ulc = round(x0 / geo.hex_width)
    cols = math.floor(cw / geo.hex_width + 0.5) + 1
    if ulc * geo.hex_width != x0 or cols % 2 == 0 or ulc + cols > geo.width or max(geo.a1_x, 0.0) != 0.0:
        return None
    return x0, cw, ulc, cols


def turned_los(los: LOSData) -> LOSData:
    """*los* turned 180° as VASL 6.7.x's ``Map.flipTerrainAndElevationGrids`` turns a reversed board's pixels
    (x → width − 1 − x, y → height − 1 − y), each stairway carried to its hex's turned place (the hexes in
    :meth:`BoardGeometry.hexes` order reversed, on a board with an odd number of columns).

    >>> t = turned_los(LOSData(1, 1, 2, 2, np.array([[1, 2], [3, 4]], np.uint8), np.zeros((2, 2), np.int8),
    ...                        np.array([0, 1], np.uint8)))
    >>> t.terrain.tolist(), t.stairways.tolist()
    ([[4, 3], [2, 1]], [1, 0])
    """
    return LOSData(los.width, los.height, los.grid_width, los.grid_height, los.terrain[::-1, ::-1].copy(),
                   los.elevation[::-1, ::-1].copy(), los.stairways[::-1].copy())


def _turn(los: LOSData, geo: BoardGeometry, window: tuple[int, int, int, int]
          ) -> tuple[LOSData, npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """*los* with the window's pixels turned 180° in place (``Map.flipTerrainAndElevationGrids`` on the board's
    rectangle), per hex the index of the hex on whose place the turn puts it (itself outside the window) and
    which hexes the window turns."""
    x0, cw, ulc, cols = window
    ter, elev = los.terrain.copy(), los.elevation.copy()
    ter[:, x0:x0 + cw] = los.terrain[::-1, x0:x0 + cw][:, ::-1]
    elev[:, x0:x0 + cw] = los.elevation[::-1, x0:x0 + cw][:, ::-1]
    hexes = geo.hexes()
    index = {(c, r): i for i, (c, r, _) in enumerate(hexes)}
    counts = row_counts(geo.width, geo.height)
    perm = np.arange(len(hexes), dtype=np.int64)
    inside = np.zeros(len(hexes), dtype=bool)
    for i, (c, r, _) in enumerate(hexes):
        if ulc <= c < ulc + cols:
            perm[i] = index[2 * ulc + cols - 1 - c, counts[c] - 1 - r]
            inside[i] = True
    stairs = los.stairways.copy()
    stairs[perm] = los.stairways
    return LOSData(los.width, los.height, los.grid_width, los.grid_height, ter, elev, stairs), perm, inside


def derive_hexes(los: LOSData, geo: BoardGeometry, table: TerrainTable, meta: BoardMetadata,
                 source: str, remembered: npt.NDArray[np.int64] | None = None, *, reversed_: bool = False,
                 crop: Crop | None = None, model: VaslModel = "6.7", window: bool = False
                 ) -> tuple[dict[str, HexTerrain], dict[str, Building]]:
    """Every hex's terrain, elevation, building and feature from the decoded grid (numpy, no pixel loop).

    *remembered*: the depression each hex's centre already remembers (:func:`vasl_hex_model`).
    *reversed_*: the board lies reversed on VASL's map (cropped to *crop*); VASL 6.7.x then turns its pixels 180°
    (after SSRs and overlays) and reads each hex on the turned grid at its turned place
    (``BoardArchive.addLOSDatatoVASLMap``, ``Hex.resetTerrain``), which is not the unturned reading mirrored: the
    near-centre sample lands a few pixels elsewhere.  The hexes keep the board's own names, places and hexside
    numbering.  A board or crop :func:`turn_window` does not turn is read unturned.
    *model*: which VASL's per-hex reading (:data:`VaslModel`); the VASL of 2020 reads a reversed board unturned.
    *window*: the pixels are a crop's (:func:`crop_window`), whose rows below its grid's last hexes lie on no hex.

    :raises UnknownTerrainError: if the grid holds a terrain code the table lacks.
    """
    turn = turn_window(geo, crop) if reversed_ and model == "6.7" else None
    if turn is None:
        return _derive_hexes(los, geo, table, meta, source, remembered, reading=model, cut=window)
    turned, perm, inside = _turn(los, geo, turn)
    rem = None
    if remembered is not None:
        rem = remembered.copy()
        rem[perm] = remembered
    return _derive_hexes(turned, geo, table, meta, source, rem, (perm, inside), reading=model, cut=window)


def _derive_hexes(los: LOSData, geo: BoardGeometry, table: TerrainTable, meta: BoardMetadata, source: str,
                  remembered: npt.NDArray[np.int64] | None = None,
                  turn: tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]] | None = None, *,
                  reading: VaslModel = "6.7", cut: bool = False) -> tuple[dict[str, HexTerrain], dict[str, Building]]:
    """:func:`derive_hexes`; with *turn* (per hex its turned place and whether it is turned), *los* is turned
    (:func:`_turn`): every per-hex fact read on its pixels is carried back from the hex's turned place, hexside k
    there being the turned hex's side k + 3."""
    present = np.unique(los.terrain)
    missing = [int(c) for c in present if int(c) not in table]
    if missing:
        raise UnknownTerrainError(f"{source}: LOSData uses terrain codes {missing} that {table.source or 'the table'}"
                                  " does not define (expected VASL terrainType typeCodes)")
    hexes = geo.hexes()
    n = len(hexes)
    labels, _dist = _labels(geo)
    centre_pts = vasl_centres(geo)
    centres = np.array([geo.centre(c, r) for c, r, _ in hexes], dtype=np.float64)
    cx, cy = centre_pts.los[:, 0].astype(np.float64), centre_pts.los[:, 1].astype(np.float64)
    # Per-code facts as lookup arrays.
    lut_building = np.zeros(256, dtype=bool)
    lut_road = np.zeros(256, dtype=bool)
    lut_hexside = np.zeros(256, dtype=bool)
    fire_id = np.zeros(256, dtype=np.int32)
    terrains = list(Terrain)
    for code, t in table.by_code.items():
        lut_building[code] = t.mapping.is_building
        lut_road[code] = t.mapping.terrain is Terrain.ROAD
        lut_hexside[code] = t.mapping.hexside
        fire_id[code] = terrains.index(t.mapping.terrain)
    model = vasl_hex_model(los, geo, table, centre_pts, remembered=remembered, model=reading)
    ccode, celev, stairs = model.code, model.elevation, model.stairway
    assert model.hexside_terrain is not None and model.hexside_depression is not None
    side_t, side_d = model.hexside_terrain, model.hexside_depression
    # Histogram of every terrain drawn in each hex (pixels nearest its centre).
    flat_l = labels.ravel().astype(np.int64)
    flat_t = los.terrain.ravel().astype(np.int64)
    on = flat_l >= 0
    if cut:  # a crop's pixels below its grid's last row: on no hex
        ys = np.repeat(np.arange(geo.grid_height, dtype=np.float64), geo.grid_width)
        on &= np.abs(ys - centres[flat_l.clip(min=0), 1]) <= geo.hex_height / 2
    hist = np.bincount(flat_l[on] * 256 + flat_t[on], minlength=n * 256).reshape(n, 256)
    totals = hist.sum(axis=1).clip(min=1)
    # Hexside samples: a pixel just inside each hexside's midpoint, and the pixel across it.
    half_h = geo.hex_height / 2
    side_codes = np.stack([_sample(los.terrain, cx + dx * (half_h - 2), cy + dy * (half_h - 2))
                           for dx, dy in _DIRECTION_SAMPLES], axis=1)
    mid_codes = np.stack([_sample(los.terrain, centres[:, 0] + dx * half_h, centres[:, 1] + dy * half_h)
                          for dx, dy in _DIRECTION_SAMPLES], axis=1)
    road_share = (hist * lut_road[None, :]).sum(axis=1) / totals
    if turn is not None:
        perm, inside = turn
        ccode, celev, stairs = ccode[perm], celev[perm], stairs[perm]
        hist, totals, road_share = hist[perm], totals[perm], road_share[perm]
        rot = [3, 4, 5, 0, 1, 2]
        side_codes = np.where(inside[:, None], side_codes[perm][:, rot], side_codes)
        mid_codes = np.where(inside[:, None], mid_codes[perm][:, rot], mid_codes)
        side_t = np.where(inside[:, None], side_t[perm][:, rot], side_t)
        side_d = np.where(inside[:, None], side_d[perm][:, rot], side_d)
        model = replace(model, depression=model.depression[perm],
                        locations=tuple(model.locations[j] for j in perm), centre=tuple(model.centre[j] for j in perm))
    # Build HexTerrain records and attachment pairs.
    index = {(c, r): i for i, (c, r, _) in enumerate(hexes)}
    fire_c = fire_id[ccode]
    road_i = terrains.index(Terrain.ROAD)
    same_pairs: list[tuple[int, int]] = []
    bld_pairs: list[tuple[int, int]] = []
    for i, (c, r, _name) in enumerate(hexes):
        for s in (1, 2, 3):  # each pair once: sides up-right, down-right, down
            j = _neighbour(index, geo, c, r, s)
            if j is None:
                continue
            mid = int(mid_codes[i, s])
            if lut_building[ccode[i]] and lut_building[ccode[j]]:
                t_i, t_j = table[int(ccode[i])].mapping, table[int(ccode[j])].mapping
                wall = table[mid].mapping.rowhouse or table[int(side_codes[i, s])].mapping.rowhouse
                if t_i.material is t_j.material and lut_building[mid] and not wall:
                    bld_pairs.append((i, j))
            elif fire_c[i] == fire_c[j] and terrains[int(fire_c[i])].burnable and fire_id[mid] == fire_c[i]:
                same_pairs.append((i, j))
    feat_root = _union_find(n, same_pairs)
    bld_root = _union_find(n, bld_pairs)
    out: dict[str, HexTerrain] = {}
    names = [h[2] for h in hexes]
    buildings: dict[str, Building] = {}
    bld_members: dict[int, list[int]] = {}
    for i in range(n):
        if lut_building[ccode[i]]:
            bld_members.setdefault(bld_root[i], []).append(i)
    bld_id: dict[int, str] = {}
    for root, members in bld_members.items():
        bid = f"{meta.name or 'bd'}-bldg-{names[root]}"
        bld_id[root] = bid
        types = [meta.building_types.get(names[m]) or table[int(ccode[m])].name for m in members]
        maps = [_mapping_by_name(table, t) or table[int(ccode[m])].mapping for m, t in zip(members, types, strict=True)]
        first = maps[0]
        levels = max((mp.levels or 0) for mp in maps)
        hex_levels = tuple((names[m], mp.levels or 0) for m, mp in zip(members, maps, strict=True)
                           if (mp.levels or 0) != levels)
        kind = first.kind or BuildingKind.SINGLE_STORY
        if kind in (BuildingKind.SINGLE_STORY, BuildingKind.TWO_STORY, BuildingKind.MULTI_STORY):
            kind = (BuildingKind.SINGLE_STORY if levels == 0 else BuildingKind.TWO_STORY if levels == 1
                    else BuildingKind.MULTI_STORY)
        rowhouse = any(table[int(mid_codes[m, s])].mapping.rowhouse for m in members for s in range(6))
        buildings[bid] = Building(bid, first.material or Material.STONE, kind, levels, hex_levels,
                                  rooftop=any(mp.rooftop for mp in maps), rowhouse=rowhouse)
    feat_names: dict[int, str] = {}
    for i, (c, r, name) in enumerate(hexes):
        code = int(ccode[i])
        vt = table[code]
        others = tuple((table[int(k)].name, float(hist[i, k] / totals[i]))
                       for k in np.argsort(-hist[i]) if hist[i, k] > 0 and int(k) != code
                       and hist[i, k] / totals[i] >= 0.01)
        sides = tuple(table[int(side_codes[i, s])].name if lut_hexside[int(side_codes[i, s])] else None
                      for s in range(6))
        feature: str | None
        if lut_building[code]:
            feature = bld_id[bld_root[i]]
        elif terrains[int(fire_c[i])].burnable:
            root = feat_root[i]
            if root not in feat_names:
                feat_names[root] = f"{meta.name or 'bd'}-{terrains[int(fire_c[i])].name.lower()}-{names[root]}"
            feature = feat_names[root]
        else:
            feature = None
        out[name] = HexTerrain(name, c, r, float(centres[i, 0]), float(centres[i, 1]), vt, int(celev[i]),
                               bool(stairs[i]), others, sides,
                               meta.building_types.get(name) if lut_building[code] else None, feature,
                               bool(road_share[i] > ROAD_SHARE or fire_c[i] == road_i),
                               table[int(model.depression[i])].name if model.depression[i] >= 0 else None,
                               tuple((table[lc].name if lc >= 0 else None, lv) for lc, lv in model.locations[i]),
                               model.centre[i],
                               tuple((table[int(st)].name, table[int(sd)].name if sd >= 0 else None)
                                     for st, sd in zip(side_t[i], side_d[i], strict=True)))
    return out, buildings


def reversed_board(board: VaslBoard, crop: Crop | None = None) -> VaslBoard:
    """*board* (its SSRs and overlays applied) as VASL 6.7.x reads it lying reversed on a map, cropped to *crop*:
    every hex derived from the 180°-turned pixels at its turned place (:func:`derive_hexes`); a board or crop that
    :func:`turn_window` does not turn (an even number of columns, rows cropped, a crop not starting on a column's
    centre) as it is, and so is a board read as the VASL of 2020 reads it (``board.model == "2020"``: its hexes
    are the unreversed board's, mirrored)."""
    if board.model == "2020" or turn_window(board.geometry, crop) is None:
        return board
    hexes, buildings = derive_hexes(board.los, board.geometry, board.table, board.metadata, board.source,
                                    reversed_=True, crop=crop, model=board.model)
    return replace(board, hexes=hexes, buildings=buildings)


def _mapping_by_name(table: TerrainTable, name: str) -> TerrainMapping | None:
    for t in table.by_code.values():
        if t.name == name:
            return t.mapping
    return None
