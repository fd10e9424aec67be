from __future__ import annotations

import pytest

from asl_vassal_bridge.core.hexes import (
    BoardPlacement,
    Direction,
    Hex,
    HexNameError,
    Hexside,
    MapLayout,
    column_index,
    column_letters,
)


def test_column_letters_round_trip_a_to_gg_and_beyond() -> None:
    assert [column_letters(i) for i in (0, 25, 26, 27, 32)] == ["A", "Z", "AA", "BB", "GG"]
    for i in range(80):
        assert column_index(column_letters(i)) == i


@pytest.mark.parametrize("bad", ["AB", "", "1", "A-", "Ä"])
def test_bad_column_letters_are_refused(bad: str) -> None:
    with pytest.raises(HexNameError):
        column_index(bad)


@pytest.mark.parametrize("name", ["A1", "B0", "M4", "GG10", "CC2", "aa3"])
def test_hex_names_round_trip(name: str) -> None:
    assert Hex.parse(name).name == name.upper()


@pytest.mark.parametrize("bad", ["", "M", "4M", "M4x", "M 4 4"])
def test_malformed_hex_name_names_the_text(bad: str) -> None:
    with pytest.raises(HexNameError, match="hex name"):
        Hex.parse(bad)


def test_b8_directions_one_is_up_then_clockwise() -> None:
    m4 = Hex.parse("M4")  # M is an odd-lettered (A, C, …) column, half a hex higher than L and N
    assert [(m4 + d).name for d in Direction] == ["M3", "N3", "N4", "M5", "L4", "L3"]
    b1 = Hex.parse("B1")
    assert [(b1 + d).name for d in Direction] == ["B0", "C1", "C2", "B2", "A2", "A1"]


def test_direction_arithmetic() -> None:
    assert Direction.UP.clockwise(-1) is Direction.UPPER_LEFT
    assert Direction(6).clockwise(2) is Direction(2)
    assert Direction(1).opposite is Direction(4)
    assert Direction(3).steps_from(Direction(6)) == 3
    assert Direction(1).steps_from(Direction(5)) == 2


def test_neighbours_are_adjacent_and_distance_is_range() -> None:
    h = Hex.parse("E5")
    for d, n in h.neighbours():
        assert h.distance(n) == 1
        assert h.direction_to(n) is d
    assert Hex.parse("A1").distance(Hex.parse("E5")) == 6
    assert Hex.parse("A1").direction_to(Hex.parse("C1")) is None
    assert Hex.parse("EE1").neighbour(Direction(5), 2).name == "CC2"


def test_hexside_is_unordered_and_needs_adjacent_hexes() -> None:
    a, b = Hex.parse("A1"), Hex.parse("B1")
    assert Hexside.of(a, b) == Hexside.of(b, a) == a.hexside(Direction.LOWER_RIGHT)
    with pytest.raises(HexNameError, match="not adjacent"):
        Hexside.of(a, Hex.parse("C1"))


def test_pixels_match_vasl_geometry_and_invert() -> None:
    assert Hex.parse("A1").pixel() == (0.0, 32.25)
    assert Hex.parse("B0").pixel() == (56.25, 0.0)
    assert Hex.parse("GG10").pixel() == (1800.0, 612.75)
    for name in ("A1", "B0", "M4", "GG10", "F7"):
        h = Hex.parse(name)
        x, y = h.pixel()
        assert Hex.from_pixel(x + 10, y - 12) == h


def test_multi_board_layout_prefixes_names_and_shares_edge_hexes() -> None:
    layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1), BoardPlacement("24", y=1)))
    assert layout.name(layout.parse("22M4")) == "22M4"
    assert layout.parse("23A1") == layout.parse("22GG1")  # the half hexes at a board seam are one hex
    assert layout.parse("24B0") == layout.parse("22B10")
    with pytest.raises(HexNameError, match="not a hex of this map"):
        layout.parse("99M4")


def test_reversed_board_turns_names_around() -> None:
    b = BoardPlacement("1", reversed=True)
    assert b.to_map(Hex.parse("A1")).name == "GG10"
    assert b.to_map(Hex.parse("GG10")).name == "A1"
    assert b.to_map(Hex.parse("B0")).name == "FF10"
    for h in b.hexes():
        assert b.to_map(b.to_local(h)) == h  # type: ignore[arg-type]


def test_board_has_geomorphic_hex_count() -> None:
    assert len(set(BoardPlacement("1").hexes())) == 17 * 10 + 16 * 11
