"""VASL board archives (``bd01`` …): BoardMetadata.xml and LOSData → per-hex terrain → a core GameMap.

``LOSData`` is gzip around a Java ObjectOutputStream of block-data records:
four big-endian ints (width, height in hexes; grid width, height in pixels),
then for every pixel, x outer and y inner, one signed elevation byte and one
terrain-code byte, then one stairway byte per hex (column by column).  The
pixel grid is decoded with numpy in whole-array operations (no per-pixel
Python loop).

Geometry and hex names are those of VASL's LOS model (``VASL.LOS.Map.Map``):
hex width, height and A1 centre from BoardMetadata.xml, defaulting to the
geomorphic 56.25 × 64.5 px and (0, 32.25); odd-indexed columns (B, D…) run
from row 0 (a half hex at the top), even ones (A, C…) from row 1.  On bd01
this is :meth:`asl_vassal_bridge.core.hexes.Hex.pixel`.  Half boards "b"
name their columns Q…GG (:class:`BoardGeometry`).

Each hex's terrain and base elevation are what VASL's ``Hex.resetTerrain``
sets (:func:`vasl_centre_terrain`: the centre point, a building missing the
centre dot, market places, inherent terrain found off the centre); checked
hex by hex against VASL's own classes on every board of its 2020 repository
with LOS data (``scripts/compare_vasl_terrain.py``).  Beyond VASL the reader
finds every terrain that lies in the hex, the terrain along each hexside,
and which hexes' depictions touch across their shared hexside: those form
one *feature* (a woods patch, an orchard, a building), the "directly
attached" of B25.62.
"""

from __future__ import annotations

import math
import os
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt

from ..core.hexes import BoardPlacement, Hex, HexNameError, MapLayout
from ..core.position import GameMap, HexInfo
from ..core.terrain import Building, BuildingKind, Material, Terrain, UnknownTerrainError
from ..core.values import replace, value
from .crop import Crop, placements
from .geometry import (
    GEO_A1,
    GEO_HEX_HEIGHT,
    GEO_HEX_WIDTH,
    MISSING,
    VASL_GRID_ORIGINS_Y,
    BoardGeometry,
    row_counts,
)
from .safe import Archive, BadXmlError, VaslFileError, gunzip_limited, parse_xml
from .terrain import ROAD_SHARE, TerrainMapping, TerrainTable, VaslTerrainType, woods_road

__all__ = [
    "BadLOSDataError",
    "BoardGeometry",
    "BoardMetadata",
    "CropWindow",
    "HexTerrain",
    "LOSData",
    "NoLOSModelError",
    "VaslBoard",
    "VaslModel",
    "WindowPlacement",
    "crop_window",
    "decode_losdata",
    "fit_placement",
    "game_map",
    "parse_board_metadata",
    "place_boards",
    "read_board",
    "reversed_board",
    "turn_window",
    "turned_los",
]

#: Largest pixel grid accepted (a 4×4 geomorphic board block is far below it).
MAX_GRID_PIXELS = 40_000_000


class BadLOSDataError(VaslFileError):
    """LOSData that is not the gzip/Java block-data stream VASL writes."""


class NoLOSModelError(BadLOSDataError):
    """A board for which VASL builds no LOS model either (no BoardMetadata.xml or LOSData, or a hex grid
    VASL's LOS map cannot lay out)."""


# --- BoardMetadata.xml -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardMetadata:
    """The parts of a board's ``BoardMetadata.xml`` the readers use."""

    name: str
    version: str
    image: str
    has_hills: bool
    width: int
    height: int
    a1_center_x: float | None = None
    a1_center_y: float | None = None
    hex_width: float | None = None
    hex_height: float | None = None
    alt_hex_grain: bool = False
    hex_grid_config: str = ""
    building_types: Mapping[str, str] = field(default_factory=dict)
    slopes: Mapping[str, str] = field(default_factory=dict)


def _float_attr(el: Any, name: str, source: str, lo: float = -1e6, hi: float = 1e6, *,
                positive: bool = False) -> float | None:
    v = el.get(name)
    if v is None or v.strip() == "":
        return None
    try:
        x = float(v)
    except ValueError:
        raise BadXmlError(f"{source}: attribute {name}={v[:40]!r} is not a number") from None
    if not lo <= x <= hi or (positive and x <= 0):  # also refuses nan and inf
        what = f"more than 0 and at most {hi:g}" if positive else f"{lo:g} to {hi:g}"
        raise BadXmlError(f"{source}: attribute {name}={v[:40]!r} is out of range (expected {what} pixels)")
    return x


def parse_board_metadata(data: bytes, source: str) -> BoardMetadata:
    """Parse a ``BoardMetadata.xml``.

    :raises BadXmlError: for broken XML, a wrong root, or a bad size.
    """
    root = parse_xml(data, source, "a VASL BoardMetadata.xml")
    if root.tag != "boardMetadata":
        raise BadXmlError(f"{source}: root element <{root.tag}> is not <boardMetadata>")
    try:
        width = int(root.get("width") or 33)
        height = int(root.get("height") or 10)
    except ValueError:
        raise BadXmlError(f"{source}: width/height {root.get('width')!r}×{root.get('height')!r} are not "
                          "whole numbers of hexes") from None
    if not (1 <= width <= 500 and 1 <= height <= 500):
        raise BadXmlError(f"{source}: board size {width}×{height} hexes is out of range (expected e.g. 33×10)")
    buildings: dict[str, str] = {}
    for b in root.iter("buildingType"):
        hx, bt = b.get("hexName"), b.get("buildingTypeName")
        if hx and bt:
            buildings[hx.strip()] = bt.strip()
    slopes: dict[str, str] = {}
    for s in root.iter("slope"):
        hx, sides = s.get("hex"), s.get("hexsides")
        if hx and sides is not None:
            slopes[hx.strip()] = sides.strip()
    return BoardMetadata(
        name=root.get("name") or "", version=root.get("version") or "", image=root.get("boardImageFileName") or "",
        has_hills=(root.get("hasHills") or "").strip().lower() == "true", width=width, height=height,
        a1_center_x=_float_attr(root, "A1CenterX", source), a1_center_y=_float_attr(root, "A1CenterY", source),
        hex_width=_float_attr(root, "hexWidth", source, 0, 10_000, positive=True),
        hex_height=_float_attr(root, "hexHeight", source, 0, 10_000, positive=True),
        alt_hex_grain=(root.get("altHexGrain") or "").strip().lower() == "true",
        hex_grid_config=root.get("HexGridConfig") or "", building_types=buildings, slopes=slopes)


# --- LOSData ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LOSData:
    """A board's decoded pixel grid: terrain codes and elevations indexed ``[y, x]``, and stairways."""

    width: int
    height: int
    grid_width: int
    grid_height: int
    terrain: npt.NDArray[np.uint8]
    elevation: npt.NDArray[np.int8]
    stairways: npt.NDArray[np.uint8]


def _unframe(stream: bytes, source: str) -> bytes:
    """The payload of a Java ObjectOutputStream holding only block-data records."""
    if len(stream) < 4 or stream[:4] != b"\xac\xed\x00\x05":
        raise BadLOSDataError(f"{source}: LOSData does not start with the Java stream header AC ED 00 05")
    parts: list[bytes] = []
    i, n = 4, len(stream)
    while i < n:
        tag = stream[i]
        if tag == 0x77:  # TC_BLOCKDATA
            if i + 2 > n:
                raise BadLOSDataError(f"{source}: LOSData block header truncated at byte {i}")
            size = stream[i + 1]
            i += 2
        elif tag == 0x7A:  # TC_BLOCKDATALONG
            if i + 5 > n:
                raise BadLOSDataError(f"{source}: LOSData block header truncated at byte {i}")
            size = struct.unpack_from(">i", stream, i + 1)[0]
            if size < 0:
                raise BadLOSDataError(f"{source}: negative LOSData block length at byte {i}")
            i += 5
        else:
            raise BadLOSDataError(f"{source}: unexpected Java stream record 0x{tag:02x} at byte {i} "
                                  "(expected block data only)")
        if i + size > n:
            raise BadLOSDataError(f"{source}: LOSData block at byte {i} runs past the end (truncated)")
        parts.append(stream[i:i + size])
        i += size
    return b"".join(parts)


def decode_losdata(data: bytes, source: str, *, alt_grain: bool = False) -> LOSData:
    """Decode a gzipped LOSData member (*alt_grain* is ignored, as by VASL: see :func:`row_counts`).

    :raises BadLOSDataError: for broken gzip, a wrong header, or a payload of the wrong length.
    """
    try:
        raw = gunzip_limited(data, source, limit=2 * MAX_GRID_PIXELS + 1_000_000)
    except VaslFileError as e:
        raise BadLOSDataError(str(e)) from None
    payload = _unframe(raw, source)
    if len(payload) < 16:
        raise BadLOSDataError(f"{source}: LOSData payload is {len(payload)} bytes, too short for its header")
    width, height, gw, gh = struct.unpack_from(">4i", payload, 0)
    if not (0 < width <= 500 and 0 < height <= 500 and gw > 0 and gh > 0 and gw * gh <= MAX_GRID_PIXELS):
        raise BadLOSDataError(f"{source}: LOSData header {width}×{height} hexes, {gw}×{gh} pixels is out of range")
    counts = row_counts(width, height)
    expected = 16 + 2 * gw * gh + sum(counts)
    if len(payload) != expected:
        raise BadLOSDataError(f"{source}: LOSData payload is {len(payload)} bytes; a {width}×{height}-hex, "
                              f"{gw}×{gh}-pixel board needs {expected}")
    grid = np.frombuffer(payload, dtype=np.uint8, count=2 * gw * gh, offset=16).reshape(gw, gh, 2)
    terrain = np.ascontiguousarray(grid[:, :, 1].T)
    elevation = np.ascontiguousarray(grid[:, :, 0].T).view(np.int8)
    stairs = np.frombuffer(payload, dtype=np.uint8, offset=16 + 2 * gw * gh).copy()
    return LOSData(width, height, gw, gh, terrain, elevation, stairs)


# --- Geometry --------------------------------------------------------------------------


def _meta_value(v: float | None, default: float) -> float:
    return default if v is None or v == MISSING else v


def geometry_for(meta: BoardMetadata, los: LOSData, source: str = "") -> BoardGeometry:
    """The board's hex grid as VASL's LOS model builds it (``BoardArchive``/``Map``: missing values default to
    the geomorphic ones).

    :raises BadLOSDataError: when VASL builds no hex grid for the board (an ``A1CenterY`` other than
        32.25, 97.1 or −612.75): VASL has no LOS model for it either.
    """
    geo = BoardGeometry(los.width, los.height, los.grid_width, los.grid_height,
                        _meta_value(meta.hex_width, GEO_HEX_WIDTH), _meta_value(meta.hex_height, GEO_HEX_HEIGHT),
                        _meta_value(meta.a1_center_x, GEO_A1[0]), _meta_value(meta.a1_center_y, GEO_A1[1]),
                        meta.alt_hex_grain)
    if geo.a1_y not in VASL_GRID_ORIGINS_Y:
        raise NoLOSModelError(
            f"{source or meta.name}: A1CenterY={geo.a1_y:g} in BoardMetadata.xml is none of the hex grid origins "
            "VASL's LOS model knows (32.25, 97.1, -612.75), so VASL has no LOS model for this board either")
    return geo


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


# --- Per-hex terrain -------------------------------------------------------------------

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


# --- VASL's own hex terrain (VASL.LOS.Map.Hex.resetTerrain) ------------------------------


@dataclass(frozen=True)
class VaslCentres:
    """Per hex (in :meth:`BoardGeometry.hexes` order) the points VASL's ``Hex`` uses, in board pixels.

    *fixed*: the centre pulled onto the grid at its edges (``fixMapEdgePoints``);
    *los*: the centre Location's point (the fixed centre truncated to whole pixels);
    *sides*: ``[hex, side, (x, y)]`` the six hexside Locations' points (the
    hexside midpoints one pixel inward, side 0 up, clockwise); *side_on*:
    which hexsides VASL counts as on the map; *box*: the bounding box
    ``(x0, y0, x1, y1)`` (end exclusive) of the hex outline; *vertices*:
    ``[hex, corner, (x, y)]`` the outline's corners, rounded to whole pixels
    (VASL's ``Hex.hexBorder`` polygon, corner 0 the top left, clockwise).
    """

    fixed: npt.NDArray[np.float64]
    los: npt.NDArray[np.int64]
    sides: npt.NDArray[np.int64]
    side_on: npt.NDArray[np.bool_]
    box: npt.NDArray[np.int64]
    vertices: npt.NDArray[np.int64]


def _fix_edge(v: npt.NDArray[np.float64], size: int) -> npt.NDArray[np.float64]:
    """VASL ``Hex.fixMapEdgePoints`` on one axis: -1 → 0, and size or size + 1 → size − 1."""
    v = np.where(v == -1.0, 0.0, v)
    t = np.trunc(v)
    return np.where((t == size) | (t == size + 1), size - 1.0, v)


def vasl_centres(geo: BoardGeometry) -> VaslCentres:
    """The centre, hexside and outline points of every hex, computed as VASL 6.7.x's ``Hex`` does (a centre beyond the
    grid's last pixel column, the last hex column's, is moved onto it first: ``Map.getHexCenterPoint``)."""
    hexes = geo.hexes()
    raw = np.array([geo.centre(c, r) for c, r, _ in hexes], dtype=np.float64)
    gw, gh = geo.grid_width, geo.grid_height
    raw[:, 0] = np.where(raw[:, 0] >= gw, gw - 1.0, raw[:, 0])  # VASL 6.7.x Map.getHexCenterPoint: last column
    x, y = raw[:, 0], raw[:, 1]
    fixed = np.stack([_fix_edge(x, gw), _fix_edge(y, gh)], axis=1)
    los = np.trunc(fixed).astype(np.int64)
    vo = geo.hex_height / 2.0
    ho = math.cos(math.radians(30.0)) * vo
    offsets = ((0.0, -vo + 1.0, False), (ho - 1.0, -vo / 2 + 1.0, True), (ho - 1.0, vo / 2 - 1.0, True),
               (0.0, vo - 1.0, False), (-ho + 1.0, vo / 2 - 1.0, True), (-ho + 1.0, -vo / 2 + 1.0, True))
    sides = np.empty((len(hexes), 6, 2), dtype=np.int64)
    for k, (dx, dy, shift_x) in enumerate(offsets):
        sx = np.trunc(x + dx) if shift_x else np.trunc(x)
        sides[:, k, 0] = np.trunc(_fix_edge(sx, gw))
        sides[:, k, 1] = np.trunc(_fix_edge(np.trunc(y + dy), gh))
    side = geo.hex_width * 2.0 / 3.0
    vx = [x - side / 2, x + side / 2, x + side, x + side / 2, x - side / 2, x - side]
    vy = [y - vo, y - vo, y, y + vo, y + vo, y]
    rx = np.stack([np.floor(_fix_edge(v, gw) + 0.5) for v in vx], axis=1)  # Math.round
    ry = np.stack([np.floor(_fix_edge(v, gh) + 0.5) for v in vy], axis=1)
    box = np.stack([rx.min(axis=1), ry.min(axis=1), rx.max(axis=1), ry.max(axis=1)], axis=1).astype(np.int64)
    cols = np.array([c for c, _, _ in hexes])
    rows = np.array([r for _, r, _ in hexes])
    odd = cols % 2 == 1
    side_on = np.ones((len(hexes), 6), dtype=bool)
    side_on[raw[:, 0] < geo.hex_width / 2, 4:6] = False  # Hex.setHexFlags: the map's first column
    side_on[cols + 1 == geo.width, 1:3] = False
    top = odd & (rows == 0)
    side_on[np.ix_(top, [0, 1, 5])] = False
    bottom = odd & (rows == geo.height)
    side_on[np.ix_(bottom, [2, 3, 4])] = False
    vertices = np.stack([rx, ry], axis=2).astype(np.int64)
    return VaslCentres(fixed, los, sides, side_on, box, vertices)


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


def _in_polygon(vx: Sequence[int], vy: Sequence[int], px: npt.NDArray[np.int64],
                py: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Java's ``Polygon.contains(x, y)`` for the points (*px*, *py*): its bounding box, then its crossing count."""
    inside = (px >= min(vx)) & (px < max(vx)) & (py >= min(vy)) & (py < max(vy))
    hits = np.zeros(px.shape, dtype=np.int64)
    lastx, lasty = vx[-1], vy[-1]
    for curx, cury in zip(vx, vy, strict=True):
        prevx, prevy = lastx, lasty
        lastx, lasty = curx, cury
        if cury == prevy:
            continue
        if curx < prevx:
            ok = px < prevx
            leftx = curx
        else:
            ok = px < curx
            leftx = prevx
        if cury < prevy:
            ok &= (py >= cury) & (py < prevy)
            t1, t2 = px - curx, py - cury
        else:
            ok &= (py >= prevy) & (py < cury)
            t1, t2 = px - prevx, py - prevy
        left = px < leftx
        cross = t1 < t2 / (prevy - cury) * (prevx - curx)
        hits += ok & (left | cross)
    result: npt.NDArray[np.bool_] = inside & (hits % 2 == 1)
    return result


def _first_in_hex(ter: npt.NDArray[np.uint8], mask: npt.NDArray[np.bool_], p: VaslCentres, i: int) -> int:
    """The code of the first pixel of *mask* inside hex *i*'s outline (``Hex.contains``), scanning column by
    column as ``Hex.getBridgeTerrain``/``getDepressionTerrain`` do; −1 for none."""
    gh, gw = mask.shape
    x0, y0, x1, y1 = (int(v) for v in p.box[i])
    xs, ys = np.arange(max(x0, 0), min(x1, gw)), np.arange(max(y0, 0), min(y1, gh))
    if len(xs) == 0 or len(ys) == 0:
        return -1
    gx, gy = np.meshgrid(xs, ys, indexing="ij")  # x outer, y inner
    hit = mask[gy, gx] & _in_polygon(p.vertices[i, :, 0].tolist(), p.vertices[i, :, 1].tolist(), gx, gy)
    flat = hit.ravel()
    if not flat.any():
        return -1
    k = int(flat.argmax())
    return int(ter[gy.ravel()[k], gx.ravel()[k]])


def _box_has(mask: npt.NDArray[np.bool_], p: VaslCentres) -> npt.NDArray[np.bool_]:
    """Whether each hex's outline bounding box holds a pixel of *mask* (a cheap pre-test)."""
    gh, gw = mask.shape
    if not mask.any():
        return np.zeros(len(p.box), dtype=bool)
    integral = np.zeros((gh + 1, gw + 1), dtype=np.int32)
    integral[1:, 1:] = mask.cumsum(axis=0, dtype=np.int32).cumsum(axis=1, dtype=np.int32)
    x0, y0 = np.clip(p.box[:, 0], 0, gw), np.clip(p.box[:, 1], 0, gh)
    x1, y1 = np.clip(p.box[:, 2], 0, gw), np.clip(p.box[:, 3], 0, gh)
    result: npt.NDArray[np.bool_] = (integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]) > 0
    return result


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


@value
class WindowPlacement(BoardPlacement):
    """The placement of a :class:`CropWindow`'s board: its local hexes are the window's grid, whose column 0 and
    row 0 start at the crop's top left corner (of the turned crop when reversed), so the board's picture, cropped
    (and turned), lies with that corner at the placement's A1 column and row 0, not where the uncropped board's
    would put it (:func:`~.boardart.board_art`).  *art_x*: map pixels from that column to the crop's left edge
    (one hex width when the window's column 0 lies off the crop, before a long first column)."""

    art_x: float = 0.0


@dataclass(frozen=True, slots=True)
class CropWindow:
    """A board under a saved game's pixel crop as VASL 6.7.x's model has it: *board* holds only the crop's pixels
    (turned 180° where read reversed) with a hex grid of its own starting at the crop's corner, and *placement*
    names its hexes as 6.7.x does (its first column's letters, its row numbers shifted)."""

    board: VaslBoard
    placement: WindowPlacement


def _is_pixel_crop(geo: BoardGeometry, crop: Crop) -> bool:
    """A crop that does not start on a hex column's centre or cuts the board's rows (not the picker's columns)."""
    x, y, _w, h = crop
    return y != 0 or h not in (-1, geo.grid_height) or x % geo.hex_width != 0


def crop_window(board: VaslBoard, placement: BoardPlacement, crop: Crop) -> CropWindow | None:
    """*board* under a saved game's pixel *crop* (a board alone on its map), as VASL 6.7.x builds it
    (``ASLMap.CropValues`` for a saved game, ``BoardArchive.addLOSDatatoVASLMap``; docs/vasl-readers.md): columns
    ``int((x + 1) / hexWidth)`` … ``int((x + width + 1) / hexWidth)``, ``round(height / hexHeight)`` rows, every
    hex reading the crop's pixels where the map's grid puts it; the first row is named from
    ``int(y / hexWidth)`` (minus one unless reversed), so a crop at y = 100 names its top hexes I1 over pixels of
    row 2.  None where this reader follows the crop otherwise (a picker's crop, a grid whose first column would be
    a long one, a reversed crop of an even number of columns, rows 6.7.x names differently from its grid).

    >>> # see tests/vasl/test_crops.py (pixel crops (450, 100, 600, 400) and (500, 100, 600, 400))
    """
    geo = board.geometry
    if not _is_pixel_crop(geo, crop) or max(geo.a1_x, 0.0) != 0.0 or geo.a1_y != geo.hex_height / 2:
        return None
    x, y, w, h = crop
    w = geo.grid_width - x if w == -1 else w
    h = geo.grid_height - y if h == -1 else h
    if x < 0 or y < 0 or w <= 0 or h <= 0 or x + w > geo.grid_width or y + h > geo.grid_height:
        return None
    hw = 56.25 if geo.hex_width == 56.3125 else geo.hex_width  # CropValues' own correction
    col1 = int((x + 1) / hw)
    col2 = geo.width - 1 if x + w == geo.grid_width else int((x + w + 1) / hw)
    cols = col2 - col1 + 1
    rows = math.floor(h / geo.hex_height + 0.5)
    start = int(y / hw) if y > 0 else 0
    end = geo.height if y + h == geo.grid_height else int((y + h) / geo.hex_height)
    rev = placement.reversed
    if end - start != rows or col2 >= geo.width or (rev and col1 % 2 == 1):
        return None
    # 6.7.x's grid starts (turned, when reversed) with a long column: one more column off the pixels before it
    # (the window's column 0 unturned, its last one turned), so the window's long columns stay the odd ones
    long_first = (col2 if rev else col1) % 2 == 1
    first_col = col1 - 1 if long_first and not rev else col1
    n = cols + long_first
    first_row = start if rev else max(start - 1, 0)
    sub = LOSData(n, rows, w, h, board.los.terrain[y:y + h, x:x + w].copy(),
                  board.los.elevation[y:y + h, x:x + w].copy(),
                  np.zeros(sum(row_counts(n, rows)), dtype=np.uint8))
    wgeo = BoardGeometry(n, rows, w, h, geo.hex_width, geo.hex_height, 0.0, geo.hex_height / 2, geo.alt_grain,
                         -geo.hex_width if long_first else 0.0)
    index = {(c, r): i for i, (c, r, _) in enumerate(geo.hexes())}
    for i, (c, r, _) in enumerate(wgeo.hexes()):
        j = index.get((c + first_col, r + first_row))
        sub.stairways[i] = board.los.stairways[j] if j is not None else 0
    hexes, buildings = derive_hexes(sub, wgeo, board.table, board.metadata, board.source, reversed_=rev,
                                    model=board.model, window=True)
    off = (cols if rev else 0) if long_first else -1  # the column off the pixels
    kept = None
    if long_first:
        hexes = {k: v for k, v in hexes.items() if v.col != off}
        kept = frozenset(wgeo.local_hex(v.col, v.row) for v in hexes.values())
    window = replace(board, los=sub, geometry=wgeo, hexes=hexes, buildings=buildings)
    placed = WindowPlacement(placement.name, placement.x, placement.y, placement.reversed, n, rows, first_col,
                             first_row, 0, 0, kept, geo.hex_width if long_first else 0.0)
    return CropWindow(window, placed)


def _mapping_by_name(table: TerrainTable, name: str) -> TerrainMapping | None:
    for t in table.by_code.values():
        if t.name == name:
            return t.mapping
    return None


#: (column, row index) steps across hexsides 0–5 (0 up, clockwise) from a column that starts
#: with a half hex (long) and from one that does not (short).
_LONG_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_SHORT_STEPS = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def _neighbour(index: Mapping[tuple[int, int], int], geo: BoardGeometry, c: int, r: int, side: int) -> int | None:
    """Index of the neighbour across hexside *side* (0 up, clockwise), or None off the board."""
    long_col = c % 2 == geo.long_parity  # shifted half a hex up: see BoardGeometry.centre
    steps = _LONG_STEPS if long_col else _SHORT_STEPS
    dc, dr = steps[side]
    return index.get((c + dc, r + dr))


def read_board(path: Path | str, table: TerrainTable | None = None, *, model: VaslModel = "6.7") -> VaslBoard:
    """Read and decode a VASL board archive.

    *table* is VASL's terrain types; by default the SharedBoardMetadata found
    beside the archive (see :func:`find_shared_metadata`).  *model*: which
    VASL's per-hex reading the hexes follow (:data:`VaslModel`; VASL 6.7.x's
    by default, ``"2020"`` for the VASL of 2020).

    :raises BadArchiveError, BadXmlError, BadLOSDataError, UnknownTerrainError: naming the archive.
    """
    p = Path(path)
    arc = Archive(p)
    return read_board_archive(arc, str(p), table if table is not None else default_terrain_table(p.parent),
                              model=model)


def read_board_archive(arc: Archive, source: str, table: TerrainTable, *, model: VaslModel = "6.7") -> VaslBoard:
    meta_name = arc.find("BoardMetadata.xml")
    los_name = arc.find("LOSData")
    if meta_name is None or los_name is None:
        missing = " and ".join(n for n, m in (("BoardMetadata.xml", meta_name), ("LOSData", los_name)) if m is None)
        raise NoLOSModelError(f"{source}: no {missing} in the board archive: VASL has no LOS model for this board "
                              "either (it shows it without terrain), so there is no terrain to read")
    meta = parse_board_metadata(arc.read(meta_name, limit=8 * 1024 * 1024), f"{source}!{meta_name}")
    los = decode_losdata(arc.read(los_name), f"{source}!{los_name}", alt_grain=meta.alt_hex_grain)
    if (los.width, los.height) != (meta.width, meta.height):
        raise BadLOSDataError(f"{source}: LOSData is {los.width}×{los.height} hexes but BoardMetadata.xml says "
                              f"{meta.width}×{meta.height}")
    geo = geometry_for(meta, los, source)
    hexes, buildings = derive_hexes(los, geo, table, meta, source, model=model)
    img_name = arc.find(meta.image) if meta.image else None
    image = arc.read(img_name) if img_name else None
    return VaslBoard(source, meta, los, geo, hexes, buildings, table, image, model)


# --- SharedBoardMetadata discovery -----------------------------------------------------

SHARED_METADATA_NAMES = ("SharedBoardMetadata.xml",)
NEWER_TYPES_NAMES = ("SharedBoardMetadata-6.7-newer-terrain-types.xml",)


def find_shared_metadata(*dirs: Path) -> list[Path]:
    """SharedBoardMetadata.xml (and the 6.7 additions, if present) in *dirs* or their parents,
    else the file named by ``$ASL_FIRE_SHARED_METADATA``."""
    env = os.environ.get("ASL_FIRE_SHARED_METADATA")
    for d in dirs:
        for base in (d, d.parent):
            main = base / SHARED_METADATA_NAMES[0]
            if main.is_file():
                extra = [base / n for n in NEWER_TYPES_NAMES if (base / n).is_file()]
                return [main, *extra]
    if env and Path(env).is_file():
        base = Path(env).parent
        return [Path(env), *[base / n for n in NEWER_TYPES_NAMES if (base / n).is_file()]]
    return []


@lru_cache(maxsize=4)
def _cached_table(paths: tuple[str, ...]) -> TerrainTable:
    from .terrain import read_terrain_types
    return read_terrain_types(*paths)


def default_terrain_table(*dirs: Path) -> TerrainTable:
    """VASL's terrain types from the SharedBoardMetadata.xml beside *dirs*.

    :raises VaslFileError: when none is found (say where to put it).
    """
    found = find_shared_metadata(*dirs)
    if not found:
        where = ", ".join(str(d) for d in dirs)
        raise VaslFileError(f"no SharedBoardMetadata.xml in {where} or its parent folder, and "
                            "$ASL_FIRE_SHARED_METADATA is not set (VASL's terrain types are needed to decode LOSData; "
                            "it is in VASL's boardData folder)")
    return _cached_table(tuple(str(p) for p in found))


# --- Core GameMap ----------------------------------------------------------------------


def to_hexinfo(h: HexTerrain, building: str | None) -> HexInfo:
    """The core HexInfo of a decoded hex (a road hex through woods is Woods-Road, B25.1)."""
    terrain = woods_road(h.fire_terrain, h.others, h.road)
    return HexInfo(terrain=terrain, elevation=h.elevation, building=building, stairwell=h.stairwell,
                   feature=h.feature, road=h.road)


def fit_placement(board: VaslBoard, placement: BoardPlacement) -> BoardPlacement:
    """*placement* with the board's own size and VASL's hex naming (half boards "b": columns Q…GG)."""
    geo = board.geometry
    return replace(placement, columns=geo.width, rows=geo.height, first_column=geo.first_column,
                   first_row=geo.first_row)


def place_boards(boards: Sequence[tuple[VaslBoard, BoardPlacement]],
                 crops: Sequence[Crop | None] = ()) -> tuple[tuple[VaslBoard, BoardPlacement], ...]:
    """The boards with placements fitted to them (:func:`fit_placement`) and their map columns and rows.

    As VASSAL lays boards out, a board lies right of the boards before it in
    its row and below those above it in its column; neighbouring boards share
    their edge column (the half hexes of GG and A) and a board starts on the
    row below the boards above it (half boards 12a and 12b side by side
    share column Q).  With *crops* (VASL's crop rectangle of each board, in
    board pixels, or None), each board keeps the hexes VASL's cropped model
    holds and lies where VASL's merged grid puts it (:mod:`.crop`).

    :raises CropError: naming the board and its crop where VASL builds no LOS map for the boards.
    """
    fitted = [(b, fit_placement(b, p)) for b, p in boards]
    if len(fitted) == 1 and crops and crops[0] is not None and fitted[0][0].model == "6.7":
        window = crop_window(fitted[0][0], fitted[0][1], crops[0])
        if window is not None:
            return ((window.board, window.placement),)
    if any(c is not None for c in crops):
        placed = placements([(b.geometry, p, crops[i] if i < len(crops) else None) for i, (b, p) in enumerate(fitted)])
        return tuple((b, p) for (b, _), p in zip(fitted, placed, strict=True))
    out = []
    for b, p in fitted:
        col = sum(q.columns - 1 for _, q in fitted if q.y == p.y and q.x < p.x)
        row = sum(q.rows for _, q in fitted if q.x == p.x and q.y < p.y)
        out.append((b, replace(p, col_start=col, row_start=row)))
    return tuple(out)


def game_map(boards: Sequence[tuple[VaslBoard, BoardPlacement]], name: str = "",
             crops: Sequence[Crop | None] = ()) -> GameMap:
    """A core GameMap of boards placed on a map (board-prefixed hex names with several boards).

    Each board keeps its size and VASL's names (see :func:`place_boards`),
    and a cropped board the hexes VASL's cropped model holds (*crops*).
    Hexes shared by two boards (the half hexes on a common edge) take the
    terrain of the board placed first.
    """
    placed = place_boards(boards, crops)
    layout = MapLayout(tuple(p for _, p in placed))
    infos: dict[Hex, HexInfo] = {}
    buildings: dict[str, Building] = {}
    for board, placement in placed:
        prefix = f"{placement.name}:" if len(placed) > 1 else ""
        hex_prefix = placement.name if len(placed) > 1 else ""  # hex names as the map's layout writes them
        for b in board.buildings.values():
            bid = prefix + b.id
            levels = tuple((hex_prefix + n, lv) for n, lv in b.hex_levels)
            buildings[bid] = Building(bid, b.material, b.kind, b.levels, levels, b.rooftop, b.rowhouse, b.fortified)
        for h in board.hexes.values():
            local = board.geometry.local_hex(h.col, h.row)
            if placement.crop is not None and local not in placement.crop:
                continue
            mh = placement.to_map(local)
            if mh in infos:
                continue
            bld = prefix + h.feature if (h.feature and h.feature in board.buildings) else None
            info = to_hexinfo(h, bld)
            if info.feature and not bld:
                info = HexInfo(info.terrain, info.elevation, None, info.stairwell, prefix + info.feature, info.road)
            infos[mh] = info
    return GameMap.from_hexes(infos, buildings.values(), layout, name)

