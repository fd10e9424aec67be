"""A saved game's pixel crop as VASL 6.7.x's model has it (``ASLMap.CropValues``, ``BoardArchive.addLOSDatatoVASLMap``;
docs/vasl-readers.md, "Cropped boards"): the crop's pixels with a hex grid of their own from the crop's corner, the
columns from ``int((x + 1) / hexWidth)``, the top row named from ``int(y / hexWidth)`` (− 1 unless reversed).

The painted board is 7×4 hexes (338 × 258 pixels, columns A–G)."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.hexes import BoardPlacement, Hex
from asl_vassal_bridge.vasl.board import VaslBoard, crop_window, game_map, read_board_archive
from asl_vassal_bridge.vasl.safe import Archive
from asl_vassal_bridge.vasl.terrain import TerrainTable, terrain_types_from_xml

from .builders import blank_grid, board_archive, code_of, terrain_types_xml


@pytest.fixture(scope="module")
def table() -> TerrainTable:
    return terrain_types_from_xml(terrain_types_xml(), "types.xml")


def _board(table: TerrainTable, blocks: dict[tuple[int, int, int, int], str]) -> VaslBoard:
    """Painted with *blocks*: (first row, end row, first column, end column) of pixels → terrain."""
    ter, elev = blank_grid(7, 4)
    for (y0, y1, x0, x1), name in blocks.items():
        ter[y0:y1, x0:x1] = code_of(name)
    return read_board_archive(Archive(board_archive(ter, elev, 7, 4), "bdt"), "bdt", table)


def _names(gm: object) -> dict[Hex, str]:
    return {h: gm.hex_name(h) for h in gm.hexes}  # type: ignore[attr-defined]


def test_the_top_hexes_are_named_a_row_up_and_read_the_crops_own_pixels(table: TerrainTable) -> None:
    """Crop (112, 70, 169, 129): columns C (int(113 / 56.25)) … F (int(282 / 56.25)), 2 rows named from
    int(70 / 56.25) − 1 = 0.  C1 lies at the crop's (0, 32): the board's pixels near (112, 102), board hex C2's."""
    b = _board(table, {(92, 112, 100, 125): "Woods"})
    assert b.hex("C1").terrain.name == "Open Ground" and b.hex("C2").terrain.name == "Woods"
    crop = (112, 70, 169, 129)
    gm = game_map([(b, BoardPlacement("t"))], crops=[crop])
    names = _names(gm)
    assert sorted(names.values()) == ["C1", "C2", "D0", "D1", "D2", "E1", "E2", "F0", "F1", "F2"]
    assert names[Hex.from_offset(0, 1)] == "C1" and gm.info(Hex.from_offset(0, 1)).terrain.name == "WOODS"
    assert gm.info(gm.layout.parse("C2")).terrain.name == "OPEN_GROUND"


def test_a_reversed_pixel_crop_is_turned_and_named_from_its_last_column(table: TerrainTable) -> None:
    """Crop (112, 70, 225, 129) reversed: columns C … G (int(338 / 56.25) = 6), rows named from int(70 / 56.25) = 1
    (no − 1 when reversed): the map's first hex is G3, its last C2; G3 reads the turned crop's (0, 32), the
    board's (336, 166)."""
    b = _board(table, {(156, 176, 326, 338): "Woods"})
    crop = (112, 70, 225, 129)
    gm = game_map([(b, BoardPlacement("t", reversed=True))], crops=[crop])
    names = _names(gm)
    assert len(names) == 3 * 2 + 2 * 3
    assert names[Hex.from_offset(0, 1)] == "G3" and names[Hex.from_offset(4, 2)] == "C2"
    assert gm.info(gm.layout.parse("G3")).terrain.name == "WOODS"
    assert gm.info(gm.layout.parse("G2")).terrain.name == "OPEN_GROUND"


def test_crops_this_reader_does_not_cut_to_their_pixels(table: TerrainTable) -> None:
    b = _board(table, {})
    p = BoardPlacement("t")
    assert crop_window(b, p, (0, 0, 169, -1)) is None  # the picker's columns, from a column's centre
    assert crop_window(b, p, (56, 70, 169, 129)) is None  # the grid's first column would be a long one (B)
    assert crop_window(b, BoardPlacement("t", reversed=True), (112, 70, 169, 129)) is None  # C–F: 4 columns
