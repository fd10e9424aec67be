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

One module per step of the data's path: :mod:`.board_losdata` (the archive's
bytes: BoardMetadata.xml, LOSData, the hex grid), :mod:`.board_hex_points`
(the points VASL's ``Hex`` reads), :mod:`.board_hex_model` (VASL's per-hex
model, 6.7.x and 2020), :mod:`.board_hexes` (every hex of a board, turned
where reversed), :mod:`.board_window` (a saved game's pixel crop),
:mod:`.board_shared_metadata` (finding VASL's terrain types) and
:mod:`.board_map` (boards placed into a core GameMap); this module reads an
archive through them.  Every name is importable from here as before.
"""

from __future__ import annotations

from pathlib import Path

from .board_hex_model import (
    BUILDING_PROBES,
    NEAR_CENTRE_ELEVATION_OFFSETS,
    NEAR_CENTRE_OFFSETS,
    NO_LEVEL_BUILDINGS,
    ROWHOUSE_FACTORY_WALLS,
    TWO_STORY_STAIRWAY_TYPES,
    VASL_MODELS,
    WAREHOUSE_ROOFTOP_HEXES,
    VaslHexModel,
    VaslModel,
    vasl_centre_terrain,
    vasl_hex_model,
    vasl_hex_model_2020,
    vasl_model,
)
from .board_hex_points import VaslCentres, vasl_centres
from .board_hexes import HexTerrain, VaslBoard, derive_hexes, reversed_board, turn_window, turned_los
from .board_losdata import (
    MAX_GRID_PIXELS,
    BadLOSDataError,
    BoardMetadata,
    LOSData,
    NoLOSModelError,
    decode_losdata,
    geometry_for,
    parse_board_metadata,
)
from .board_map import fit_placement, game_map, place_boards, to_hexinfo
from .board_shared_metadata import NEWER_TYPES_NAMES, SHARED_METADATA_NAMES, default_terrain_table, find_shared_metadata
from .board_window import CropWindow, WindowPlacement, crop_window
from .geometry import BoardGeometry
from .safe import Archive
from .terrain import TerrainTable

__all__ = [
    "BUILDING_PROBES",
    "MAX_GRID_PIXELS",
    "NEAR_CENTRE_ELEVATION_OFFSETS",
    "NEAR_CENTRE_OFFSETS",
    "NEWER_TYPES_NAMES",
    "NO_LEVEL_BUILDINGS",
    "ROWHOUSE_FACTORY_WALLS",
    "SHARED_METADATA_NAMES",
    "TWO_STORY_STAIRWAY_TYPES",
    "VASL_MODELS",
    "WAREHOUSE_ROOFTOP_HEXES",
    "BadLOSDataError",
    "BoardGeometry",
    "BoardMetadata",
    "CropWindow",
    "HexTerrain",
    "LOSData",
    "NoLOSModelError",
    "VaslBoard",
    "VaslCentres",
    "VaslHexModel",
    "VaslModel",
    "WindowPlacement",
    "crop_window",
    "decode_losdata",
    "default_terrain_table",
    "derive_hexes",
    "find_shared_metadata",
    "fit_placement",
    "game_map",
    "geometry_for",
    "parse_board_metadata",
    "place_boards",
    "read_board",
    "read_board_archive",
    "reversed_board",
    "to_hexinfo",
    "turn_window",
    "turned_los",
    "vasl_centre_terrain",
    "vasl_centres",
    "vasl_hex_model",
    "vasl_hex_model_2020",
    "vasl_model",
]


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
