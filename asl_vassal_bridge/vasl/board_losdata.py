"""A board archive's bytes decoded (the first step of :mod:`.board`): ``BoardMetadata.xml``, ``LOSData``
(gzip around a Java ObjectOutputStream of block-data records) into a pixel grid, and the hex grid VASL's LOS model
lays over it."""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .geometry import GEO_A1, GEO_HEX_HEIGHT, GEO_HEX_WIDTH, MISSING, VASL_GRID_ORIGINS_Y, BoardGeometry, row_counts
from .safe import BadXmlError, VaslFileError, gunzip_limited, parse_xml

__all__ = [
    "MAX_GRID_PIXELS",
    "BadLOSDataError",
    "BoardMetadata",
    "LOSData",
    "NoLOSModelError",
    "decode_losdata",
    "geometry_for",
    "parse_board_metadata",
]


#: Largest pixel grid accepted (a 4×4 geomorphic board block is far below it).
MAX_GRID_PIXELS = 40_000_000


class BadLOSDataError(VaslFileError):
    """LOSData that is not the gzip/Java block-data stream VASL writes."""


class NoLOSModelError(BadLOSDataError):
    """A board for which VASL builds no LOS model either (no BoardMetadata.xml or LOSData, or a hex grid
    VASL's LOS map cannot lay out)."""


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
