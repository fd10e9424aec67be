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
    # reversed, the unturned window would start with a long column (B): not followed (VASL 6.7.x not checked there)
    assert crop_window(b, BoardPlacement("t", reversed=True), (56, 70, 225, 129)) is None


def test_a_grid_starting_with_a_long_column_keeps_its_half_hex_at_the_crops_top(table: TerrainTable) -> None:
    """Crop (56, 70, 169, 129): columns B (int(57 / 56.25) = 1, a long one) … E, rows named from 0: B0 lies on the
    crop's corner, the board's (56, 70), within printed B1; one column off the pixels before B keeps the window's
    long columns odd, and the picture lies one hex width right of it."""
    b = _board(table, {(60, 80, 56, 70): "Woods"})
    assert b.hex("B1").terrain.name == "Woods"
    window = crop_window(b, BoardPlacement("t"), (56, 70, 169, 129))
    assert window is not None and window.placement.art_x == 56.25
    gm = game_map([(b, BoardPlacement("t"))], crops=[(56, 70, 169, 129)])
    names = _names(gm)
    assert sorted(names.values()) == ["B0", "B1", "B2", "C1", "C2", "D0", "D1", "D2", "E1", "E2"]
    assert names[Hex.from_offset(1, 0)] == "B0" and gm.info(Hex.from_offset(1, 0)).terrain.name == "WOODS"
    assert gm.info(gm.layout.parse("B1")).terrain.name == "OPEN_GROUND"


def test_a_reversed_crop_turned_to_start_with_a_long_column(table: TerrainTable) -> None:
    """Crop (112, 70, 169, 129) reversed: columns C … F (int(282 / 56.25) = 5, a long one), turned: F first, its
    half hex at the top, named from row int(70 / 56.25) = 1 up: F3, F2, F1, then E3, E2 … C2.  F3 reads the turned
    crop's corner, the board's (280, 198)."""
    b = _board(table, {(190, 199, 270, 282): "Woods"})
    gm = game_map([(b, BoardPlacement("t", reversed=True))], crops=[(112, 70, 169, 129)])
    names = _names(gm)
    assert len(names) == 10 and names[Hex.from_offset(1, 0)] == "F3" and names[Hex.from_offset(4, 2)] == "C2"
    assert [names[Hex.from_offset(1, r)] for r in range(3)] == ["F3", "F2", "F1"]
    assert gm.info(gm.layout.parse("F3")).terrain.name == "WOODS"
    assert gm.info(gm.layout.parse("F2")).terrain.name == "OPEN_GROUND"
