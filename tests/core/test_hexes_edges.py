"""Edges of the hex arithmetic the other modules lean on: pixel → hex, and the refusals of hex names.

Asked for by mutation testing (issue 21): ``Hex.from_pixel`` and the texts of
``MapLayout.parse``'s refusals were not pinned by any core test.
"""

from __future__ import annotations

import re

import pytest

from asl_vassal_bridge.core.hexes import (
    HEX_HEIGHT,
    HEX_WIDTH,
    BoardPlacement,
    Direction,
    Hex,
    HexNameError,
    Hexside,
    MapLayout,
    column_index,
    column_letters,
)


def _nearest_by_brute_force(x: float, y: float) -> tuple[Hex, float]:
    """The hex whose centre is nearest (in hex widths and heights) and how much nearer it is than the next."""
    scored = sorted(
        (((hx - x) / HEX_WIDTH) ** 2 + ((hy - y) / HEX_HEIGHT) ** 2, h)
        for h in (Hex.from_offset(c, r) for c in range(-3, 14) for r in range(-3, 14))
        for hx, hy in [h.pixel()]
    )
    return scored[0][1], scored[1][0] - scored[0][0]


def test_from_pixel_finds_the_nearest_centre_over_a_whole_area() -> None:
    checked = 0
    for x in range(-40, 560, 7):
        for y in range(-50, 620, 11):
            best, margin = _nearest_by_brute_force(x, y)
            if margin < 1e-6:  # on a boundary between two hexes: either answer would do
                continue
            assert Hex.from_pixel(x, y) == best, (x, y)
            checked += 1
    assert checked > 4000


@pytest.mark.parametrize("name", ["A1", "B0", "A0", "B10", "C5", "D4", "K9", "L0", "GG10", "FF0"])
def test_from_pixel_of_a_centre_and_of_points_near_its_edges(name: str) -> None:
    h = Hex.parse(name)
    x, y = h.pixel()
    assert Hex.from_pixel(x, y) == h
    # Just inside each of its six sides and its top and bottom.
    for dx, dy in ((0, -30), (0, 30), (24, -14), (24, 14), (-24, -14), (-24, 14), (26, 0), (-26, 0)):
        assert Hex.from_pixel(x + dx, y + dy) == h, (dx, dy)


def test_from_pixel_off_the_board_edges_gives_hexes_beyond_them() -> None:
    assert Hex.from_pixel(-56.25, 64.5) == Hex.from_offset(-1, 1)  # odd column -1: rows start at 0, like B
    assert Hex.from_pixel(0.0, -32.25) == Hex.parse("A0")
    assert Hex.from_pixel(112.5, 32.25 + 64.5 * 3) == Hex.parse("C4")


def test_a_negative_column_index_is_refused() -> None:
    with pytest.raises(HexNameError, match=re.escape("column index -1 is off the map (columns start at A = 0)")):
        column_letters(-1)


def test_hexside_names_and_refusal() -> None:
    a, b = Hex.parse("B1"), Hex.parse("A1")
    assert str(Hexside.of(a, b)) == "A1/B1"
    with pytest.raises(HexNameError, match=re.escape("A1 and C1 are not adjacent, so they share no hexside")):
        Hexside.of(b, Hex.parse("C1"))


def test_layout_refusal_names_the_text_and_every_board() -> None:
    layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1)))
    expected = "'99M4' is not a hex of this map (expected a board name of 22, 23 then a hex, e.g. 22M4)"
    with pytest.raises(HexNameError, match=re.escape(expected)):
        layout.parse("99M4")
    with pytest.raises(HexNameError, match=re.escape("'22' is not a hex of this map")):
        layout.parse("22")
    with pytest.raises(HexNameError, match=re.escape("'M4' is not a hex of this map")):
        layout.parse("M4")


def test_layout_parses_board_names_ending_in_letters_and_prefixed_names_with_spaces() -> None:
    layout = MapLayout((BoardPlacement("1a", columns=17, rows=20), BoardPlacement("1b", x=1, columns=17, rows=20,
                                                                                 first_column=16)))
    assert layout.prefixed
    h = layout.parse(" 1aC3 ")
    assert layout.name(h) == "1aC3"
    assert layout.name(layout.parse("1bQ1")) == "1aQ1"  # the seam column belongs to both boards
    assert layout.name(layout.parse("1bR2")) == "1bR2"
    with pytest.raises(HexNameError, match=re.escape("hex A1 is not on board 1b (its columns start at Q)")):
        layout.parse("1bA1")


def test_layout_with_boards_1_and_1a_reads_1ac3_as_board_1a() -> None:
    # the longest board name the text starts with wins where its rest is a hex of that board
    layout = MapLayout((BoardPlacement("1", columns=33, rows=10),
                        BoardPlacement("1a", y=1, columns=17, rows=20)))
    assert layout.parse("1aC3") == layout.boards[1].to_map(Hex.parse("C3"))
    assert layout.name(layout.parse("1aC3")) == "1aC3" and layout.name(layout.parse("1C3")) == "1C3"
    assert layout.parse("1a3") == layout.boards[0].to_map(Hex.parse("A3"))  # "3" is no hex of board 1a
    with pytest.raises(HexNameError, match=re.escape("column 'aC' is not an ASL column")):
        MapLayout((layout.boards[0], BoardPlacement("2", y=1, columns=17, rows=20))).parse("1aC3")


def test_single_board_layout_uses_the_boards_own_names() -> None:
    layout = MapLayout((BoardPlacement("12b", columns=17, rows=20, first_column=16),))
    assert not layout.prefixed
    assert layout.parse(" Q1 ") == Hex.parse("A1")
    assert layout.name(Hex.parse("A1")) == "Q1"
    assert layout.name(Hex.parse("GG20")) == "GG20"  # not on the board: its plain name
    with pytest.raises(HexNameError, match=re.escape("'12' is not a hex name")):
        layout.parse("12")


def test_board_first_row_shifts_names_both_ways() -> None:
    b = BoardPlacement("x", first_row=10)
    assert b.local_name(Hex.parse("A1")) == "A11"
    assert b.parse_local("A11") == Hex.parse("A1")
    assert BoardPlacement("y").local_name(Hex.parse("C3")) == "C3"


def test_to_local_bounds_of_a_board() -> None:
    b = BoardPlacement("22", x=1)  # map columns 32…64
    assert b.to_local(Hex.from_offset(31, 5)) is None
    assert b.to_local(Hex.from_offset(32, 5)) == Hex.parse("A5")
    assert b.to_local(Hex.from_offset(64, 5)) == Hex.parse("GG5")
    assert b.to_local(Hex.from_offset(65, 5)) is None
    assert b.to_local(Hex.from_offset(32, 0)) is None  # column A has no row 0
    assert b.to_local(Hex.from_offset(33, 0)) == Hex.parse("B0")
    assert b.to_local(Hex.from_offset(33, 11)) is None
    assert b.to_local(Hex.from_offset(32, 10)) == Hex.parse("A10")


def test_one_step_clockwise_by_default() -> None:
    assert [d.clockwise() for d in Direction] == [Direction(2), Direction(3), Direction(4), Direction(5),
                                                  Direction(6), Direction(1)]


def test_bad_column_letters_are_named_in_the_refusal() -> None:
    with pytest.raises(HexNameError) as e:
        column_index("AB")
    assert str(e.value) == "column 'AB' is not an ASL column (A…Z, AA…ZZ, …)"


def test_range_is_a_whole_number_of_hexes() -> None:
    r = Hex.parse("A1").distance(Hex.parse("C1"))
    assert f"range {r}" == "range 2"


def test_prefixed_names_may_be_written_in_lower_case() -> None:
    layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1)))
    assert layout.parse("22m4") == layout.parse("22M4")
    assert layout.parse("23gg10") == layout.parse("23GG10")


def test_a_board_hex_off_the_boards_columns_or_rows_is_refused_naming_the_board() -> None:
    layout = MapLayout((BoardPlacement("1", columns=33, rows=10),
                        BoardPlacement("1a", y=1, columns=17, rows=20)))
    with pytest.raises(HexNameError) as e:
        layout.boards[1].parse_local("Z3")
    assert str(e.value) == "hex Z3 is off board 1a (columns A–Q, rows up to 20)"
    with pytest.raises(HexNameError, match=re.escape("hex C21 is off board 1a")):
        layout.boards[1].parse_local("C21")
    with pytest.raises(HexNameError, match=re.escape("hex A0 is off board 1a")):  # a short column has no row 0
        layout.boards[1].parse_local("A0")
    assert layout.boards[1].parse_local("B0") == Hex.from_offset(1, 0)  # a long one has
    assert layout.boards[1].parse_local("Q20") == Hex.from_offset(16, 20)


def test_adjacent_is_neighbours_without_their_directions() -> None:
    for name in ("A1", "B2", "C5", "GG10", "A0"):
        h = Hex.parse(name)
        assert h.adjacent() == tuple(n for _d, n in h.neighbours())
