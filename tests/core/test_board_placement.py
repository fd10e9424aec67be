"""BoardPlacement's board sizes and VASL hex names (half boards "b" Q–GG, rows from 10) on a MapLayout."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.hexes import BoardPlacement, Direction, Hex, HexNameError, MapLayout


def test_defaults_are_a_geomorphic_board_named_from_a1() -> None:
    b = BoardPlacement("01", x=1)
    assert (b.columns, b.rows, b.first_column, b.first_row) == (33, 10, 0, 0)
    assert b.col_offset == 32 and b.row_offset == 0
    assert b.local_name(Hex.parse("E4")) == "E4" and b.parse_local("E4") == Hex.parse("E4")


def test_half_board_b_names_columns_q_to_gg() -> None:
    b = BoardPlacement("12b", x=1, columns=17, rows=20, first_column=16)
    assert b.local_name(Hex.from_offset(0, 1)) == "Q1"
    assert b.local_name(Hex.from_offset(10, 5)) == "AA5"
    assert b.local_name(Hex.from_offset(16, 20)) == "GG20"
    for name in ("Q1", "R0", "Z7", "AA5", "GG20"):
        assert b.local_name(b.parse_local(name)) == name
    with pytest.raises(HexNameError, match="not on board 12b"):
        b.parse_local("A1")


def test_rows_numbered_from_10() -> None:
    b = BoardPlacement("DW1b", first_row=10)
    assert b.local_name(Hex.from_offset(0, 1)) == "A11"
    assert b.parse_local("B10") == Hex.from_offset(1, 0)


def test_layout_of_half_boards_a_and_b_shares_column_q() -> None:
    a = BoardPlacement("12a", columns=17, rows=20)
    b = BoardPlacement("12b", x=1, columns=17, rows=20, first_column=16)
    layout = MapLayout((a, b))
    assert layout.parse("12aQ4") == layout.parse("12bQ4")
    assert layout.name(layout.parse("12bR4")) == "12bR4"
    assert layout.parse("12aP4").neighbour(Direction.LOWER_RIGHT) == layout.parse("12bQ5")


def test_explicit_start_column_and_row_override_the_board_grid() -> None:
    b = BoardPlacement("01", x=2, y=1, col_start=32, row_start=20)
    assert (b.col_offset, b.row_offset) == (32, 20)
    assert b.to_map(Hex.parse("A1")) == Hex.from_offset(32, 21)
    assert b.to_local(Hex.from_offset(32, 21)) == Hex.parse("A1")


def test_single_board_layout_parses_its_own_names() -> None:
    layout = MapLayout((BoardPlacement("12b", columns=17, rows=20, first_column=16),))
    assert layout.parse("Q1") == Hex.from_offset(0, 1)
    assert layout.name(Hex.from_offset(0, 1)) == "Q1"


def test_a_cropped_board_has_map_hexes_only_for_the_hexes_it_keeps() -> None:
    """Columns Q–GG of a board (VASL's crop), placed so that Q is the map's first column."""
    kept = frozenset(Hex.from_offset(c, r) for c in range(16, 33) for r in range(0 if c % 2 else 1, 11))
    b = BoardPlacement("01", col_start=-16, crop=kept)
    assert b.to_map(Hex.parse("Q1")) == Hex.from_offset(0, 1)
    assert b.to_local(Hex.from_offset(0, 1)) == Hex.parse("Q1")
    assert b.to_local(Hex.from_offset(-1, 1)) is None  # P1: cropped away
    assert len(list(b.hexes())) == len(kept) == 178
    with pytest.raises(HexNameError, match="hex P1 of board 01 is cropped off the map"):
        MapLayout((b,)).parse("P1")
    assert MapLayout((b,)).name(Hex.from_offset(0, 1)) == "Q1"
