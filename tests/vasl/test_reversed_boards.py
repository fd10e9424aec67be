"""A reversed board as VASL 6.7.x reads it: its pixels turned 180° first (``Map.flipTerrainAndElevationGrids``, after
SSRs and overlays), then each hex read on the turned grid at its turned place (``BoardArchive.addLOSDatatoVASLMap``,
``Hex.resetTerrain``), which is not the unreversed reading mirrored.

On the painted 5×3 board (225 × 194 pixels) hex C2 turns onto itself: its centre point is (112, 96) and VASL reads
its terrain one pixel up and right, at (113, 95); on the turned grid that pixel is the board's (111, 98).
"""

from __future__ import annotations

import numpy as np
import pytest

from asl_vassal_bridge.core.hexes import BoardPlacement
from asl_vassal_bridge.core.terrain import Terrain
from asl_vassal_bridge.vasl.board import LOSData, VaslBoard, game_map, read_board_archive, reversed_board, turned_los
from asl_vassal_bridge.vasl.overlay import apply_entry
from asl_vassal_bridge.vasl.safe import Archive
from asl_vassal_bridge.vasl.terrain import TerrainTable, terrain_types_from_xml
from asl_vassal_bridge.vasl.vsav import BoardEntry

from .builders import blank_grid, board_archive, code_of, terrain_types_xml


@pytest.fixture(scope="module")
def table() -> TerrainTable:
    return terrain_types_from_xml(terrain_types_xml(), "types.xml")


def _board(table: TerrainTable, paint: dict[tuple[int, int], str], width: int = 5) -> VaslBoard:
    ter, elev = blank_grid(width, 3)
    for (x, y), name in paint.items():
        ter[y, x] = code_of(name)
    return read_board_archive(Archive(board_archive(ter, elev, width, 3), "bdt"), "bdt", table)


def test_a_reversed_board_is_read_on_its_turned_pixels_not_mirrored(table: TerrainTable) -> None:
    b = _board(table, {(111, 98): "Woods"})
    assert b.hex("C2").terrain.name == "Open Ground"  # unreversed: (113, 95) is open
    r = reversed_board(b)
    assert r.hex("C2").terrain.name == "Woods"  # turned: VASL's (113, 95) is the board's (111, 98)
    assert (r.hex("C2").col, r.hex("C2").row, r.hex("C2").x, r.hex("C2").y) == (2, 1, b.hex("C2").x, b.hex("C2").y)
    assert {n for n, h in r.hexes.items() if h.terrain != b.hexes[n].terrain} == {"C2"}


def test_the_unreversed_reading_of_the_turned_place_is_not_read(table: TerrainTable) -> None:
    b = _board(table, {(113, 95): "Woods"})
    assert b.hex("C2").terrain.name == "Woods"
    assert reversed_board(b).hex("C2").terrain.name == "Open Ground"


def test_hexsides_keep_the_boards_own_numbering(table: TerrainTable) -> None:
    """The turned hex's up hexside (its point (112, 65)) is the board's pixel (112, 128): C2's down hexside."""
    b = _board(table, {(112, 128): "Woods"})
    r = reversed_board(b)
    assert b.hex("C2").hexside_locations[3][0] == r.hex("C2").hexside_locations[3][0] == "Woods"
    assert r.hex("C2").hexside_locations[0][0] == "Open Ground"


def test_turned_pixels_and_stairways() -> None:
    ter, elev = blank_grid(5, 3)
    ter[0, 0] = 7
    los = LOSData(5, 3, 225, 194, ter, elev, np.arange(17, dtype=np.uint8))
    t = turned_los(los)
    assert t.terrain[193, 224] == 7 and t.terrain[0, 0] == 0
    assert t.stairways.tolist() == list(range(16, -1, -1))


def test_a_saved_games_reversed_board_entry_and_its_map(table: TerrainTable) -> None:
    b = _board(table, {(111, 98): "Woods"})
    got, notes = apply_entry(b, BoardEntry(0, 0, "t", reversed=True), None)
    assert got.hex("C2").terrain.name == "Woods" and notes == []
    assert apply_entry(b, BoardEntry(0, 0, "t"), None)[0].hex("C2").terrain.name == "Open Ground"
    gm = game_map([(got, BoardPlacement("t", 0, 0, True))])
    c2 = BoardPlacement("t", 0, 0, True, columns=5, rows=3).to_map(b.geometry.local_hex(2, 1))
    assert gm.info(c2).terrain is Terrain.WOODS


def test_a_cropped_or_even_width_board_is_read_as_it_is(table: TerrainTable) -> None:
    b = _board(table, {(111, 98): "Woods"})
    assert reversed_board(b, (0, 0, -1, 100)) is b  # rows cropped
    assert reversed_board(b, (0, 0, 60, -1)) is b  # two columns
    assert reversed_board(b, (30, 0, 100, -1)) is b  # not from a column's centre
    even = _board(table, {}, width=4)
    assert reversed_board(even) is even


def test_a_reversed_crop_is_read_on_the_crops_turned_pixels(table: TerrainTable) -> None:
    """Cropped to columns A–C (0, 0, 112, −1), VASL turns the crop's 112 pixel columns alone: B2 turns onto B1's
    place, whose near-centre sample (57, 63) is the board's (111 − 57, 193 − 63) = (54, 130)."""
    b = _board(table, {(54, 130): "Woods"})
    assert b.hex("B2").terrain.name == reversed_board(b).hex("B2").terrain.name == "Open Ground"
    r = reversed_board(b, (0, 0, 112, -1))
    assert r.hex("B2").terrain.name == "Woods"
    assert {n for n, h in r.hexes.items() if h.terrain != b.hexes[n].terrain} == {"B2"}
