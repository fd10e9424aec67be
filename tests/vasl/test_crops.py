"""Cropped boards read from the board archives: the hexes VASL's cropped model keeps, their names, where the next
board goes, pieces on them, and crops VASL cannot build (asl_vassal_bridge.vasl.crop; docs/vasl-readers.md,
"Cropped boards").  Boards "01" and "22" are both copies of the real bd01."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.hexes import BoardPlacement, Hex, HexNameError
from asl_vassal_bridge.core.position import Fire, FireKind, Location, OffBoardError, Phase, Position
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.vasl.board import VaslBoard, default_terrain_table, read_board
from asl_vassal_bridge.vasl.crop import CropError
from asl_vassal_bridge.vasl.module import ModuleIndex, read_module
from asl_vassal_bridge.vasl.position import DEFAULT_EDGE, position_from_vsav

from .builders import make_vsav, placed
from .conftest import vasl_file


@pytest.fixture(scope="module")
def bd01(boards_dir: Path) -> VaslBoard:
    return read_board(boards_dir / "bd01", default_terrain_table(boards_dir))


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    return read_module(vasl_file("buildFile-6.5.xml"))


def game(path: Path, line: str, pieces: list[tuple[str, str, str]] | None = None) -> Path:
    path.write_bytes(make_vsav(pieces or [], boards=line))
    return path


def names(pos: Position) -> set[str]:
    return {pos.map.hex_name(h) for h in pos.map.hexes}


def flame_at(vasl65: ModuleIndex, x: float, y: float, pid: str = "f") -> tuple[str, str, str]:
    t, s = placed(vasl65.by_gpid["192"], round(x), round(y))
    return pid, t, s


def test_a_board_cropped_to_q_gg_keeps_columns_q_to_gg_with_their_names(boards_dir: Path, tmp_path: Path) -> None:
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t900\t0\t900\t-1\tVER\t6.1\t"), boards_dir)
    assert len(pos.map.hexes) == 9 * 10 + 8 * 11  # Q, S … GG: 10 hexes; R, T … FF: 11 (VASL's count too)
    assert {n.rstrip("0123456789") for n in names(pos)} == {"Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z", "AA",
                                                            "BB", "CC", "DD", "EE", "FF", "GG"}
    assert {"Q1", "Q10", "R0", "R10", "GG1"} <= names(pos) and "Q0" not in names(pos)
    assert pos.map.layout.parse("Q1") == Hex.from_offset(0, 1)  # VASL's grid starts at the crop
    with pytest.raises(HexNameError, match="hex P4 of board 01 is cropped off the map"):
        pos.map.layout.parse("P4")


def test_a_pixel_crop_is_named_and_read_as_vasl_67_builds_it(boards_dir: Path, tmp_path: Path) -> None:
    """VASL 6.7.x (ASLMap.CropValues for a saved game, BoardArchive.addLOSDatatoVASLMap): columns int(451 / 56.25)
    = 8 (I) … int(1051 / 56.25) = 18 (S), round(400 / 64.5) = 6 rows named from int(100 / 56.25) − 1 = 0: I1 sits
    over the crop's top pixels (board row 2's), 11 columns, 71 hexes, as VASL's own model has them."""
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t450\t100\t600\t400\t"), boards_dir)
    assert len(pos.map.hexes) == 6 * 6 + 5 * 7
    assert {"I1", "I6", "J0", "J6", "S1", "S6"} <= names(pos)
    assert not {"I7", "H2", "T1", "T2", "J7"} & names(pos)
    assert pos.map.layout.parse("I1") == Hex.from_offset(0, 1)
    shifted = position_from_vsav(game(tmp_path / "h.vsav", "bd\t0\t0\t01\t500\t100\t600\t400\t"), boards_dir)
    assert len(shifted.map.hexes) == 6 * 6 + 6 * 7  # int(1101 / 56.25) = 19: I–T, the grid starting at x = 500
    assert {"I1", "T0", "T6"} <= names(shifted)
    turned = position_from_vsav(game(tmp_path / "r.vsav", "bd\t0\t0\tr01\t450\t100\t600\t400\t"), boards_dir)
    assert len(turned.map.hexes) == 71  # reversed: rows named from int(100 / 56.25) = 1, no − 1: I2 … S7
    assert turned.map.hex_name(Hex.from_offset(0, 1)) == "S7" and turned.map.hex_name(Hex.from_offset(10, 6)) == "I2"


def test_the_board_right_of_a_crop_starts_on_the_crops_last_column(boards_dir: Path, tmp_path: Path) -> None:
    """01 cropped to A–Q (900 px) left of 22: VASL's grid puts 22's A on 01's Q (grid column 16)."""
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t0\t0\t900\t645\tVER\t6.1\tbd\t1\t0\t22\t"),
                             boards_dir)
    layout = pos.map.layout
    assert len(pos.map.hexes) == 514  # as VASL's model of the same crop (17 + 33 columns, one shared)
    assert layout.parse("22A1") == Hex.from_offset(16, 1) == layout.parse("01Q1")
    assert layout.parse("22M4") == Hex.from_offset(28, 4)
    assert pos.map.hex_name(Hex.from_offset(16, 4)) == "01Q4"  # a shared edge hex: the first board's, as before
    with pytest.raises(HexNameError, match="hex R1 of board 01 is cropped off the map"):
        layout.parse("01R1")  # R1 would be 22B1's place
    assert pos.map.hex_name(layout.parse("22B1")) == "22B1"


def test_fire_spreads_across_the_crop_seam_and_never_into_a_cropped_hex(boards_dir: Path, tmp_path: Path) -> None:
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t0\t0\t900\t-1\tbd\t1\t0\t22\t"), boards_dir)
    from asl_vassal_bridge.core.fire import pending_spreads

    def spreads_from(name: str) -> set[str]:
        p = replace(pos, clock=replace(pos.clock, phase=Phase.AFPH, half=2))
        p = p.add_fire(Fire(Location(p.map.layout.parse(name)), FireKind.BLAZE, since=1))
        return {p.map.hex_name(loc.hex) for loc in pending_spreads(p)}

    from_p4 = spreads_from("01P4")  # the cropped board's last whole column …
    assert {"01Q4", "01Q5"} <= from_p4  # … into the shared column (22's A, 01's Q)
    from_q4 = spreads_from("01Q4")
    assert "22B3" in from_q4  # … and on into the next board (woods)
    assert all(n.startswith(("01", "22")) and not n.startswith(("01R", "01S")) for n in from_q4)
    alone = position_from_vsav(game(tmp_path / "h.vsav", "bd\t0\t0\t01\t900\t0\t900\t-1\t"), boards_dir)
    pos = alone
    assert {"R3", "R4"} & spreads_from("Q4") == set()  # roads do not burn …
    assert {"Q3", "Q5"} <= spreads_from("Q4") and not {"P3", "P4"} & spreads_from("Q4")  # P3, P4: cropped away
    whole = position_from_vsav(game(tmp_path / "w.vsav", "bd\t0\t0\t01\t"), boards_dir)
    pos = whole
    assert {"P3", "P4"} <= spreads_from("Q4")  # uncropped, the fire would go into those buildings


def test_a_row_crop_keeps_rows_1_to_5_and_the_board_below_starts_on_row_5(boards_dir: Path, tmp_path: Path) -> None:
    """The picker's rows 1–5 (y 0, height 322): A1–A5, B0–B5; the board below is inserted at grid row 5."""
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t0\t0\t-1\t322\tbd\t0\t1\t22\t"), boards_dir)
    assert len(pos.map.hexes) == 511  # VASL: 17 × 5 + 16 × 6 + 346 − 16 shared
    on01 = {n for n in names(pos) if n.startswith("01")}
    assert {"01A1", "01A5", "01B0", "01B5", "01GG5"} <= on01 and "01A6" not in on01 and "01B6" not in on01
    assert pos.map.layout.parse("22A1") == Hex.from_offset(0, 6)
    assert pos.map.layout.parse("22B0") == pos.map.layout.parse("01B5")


def test_a_reversed_cropped_board_is_cropped_then_turned(boards_dir: Path, tmp_path: Path) -> None:
    """r01 cropped to A–Q: VASL crops first, then turns the cropped area 180° (Map.crop, then Map.flip)."""
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\tr01\t0\t0\t900\t-1\tbd\t1\t0\t22\t"), boards_dir)
    layout = pos.map.layout
    assert len(pos.map.hexes) == 514
    assert layout.parse("01Q10") == Hex.from_offset(0, 1)  # the crop's far corner is the map's first hex
    assert layout.parse("01A1") == Hex.from_offset(16, 10) == layout.parse("22A10")
    assert pos.map.hex_name(Hex.from_offset(15, 5)) == "01B5"
    assert layout.parse("22A1") == Hex.from_offset(16, 1)


def test_pieces_land_on_the_hexes_of_the_cropped_boards(vasl65: ModuleIndex, boards_dir: Path,
                                                         tmp_path: Path) -> None:
    ex, ey = DEFAULT_EDGE
    s5x, s5y = Hex.parse("S5").pixel()
    alone = [flame_at(vasl65, ex + s5x - 900, ey + s5y)]  # VASSAL draws the crop from its own (900, 0)
    pos = position_from_vsav(game(tmp_path / "a.vsav", "bd\t0\t0\t01\t900\t0\t900\t-1\t", alone), boards_dir)
    assert [pos.loc_name(f.location) for f in pos.flames()] == ["S5"]
    m4x, m4y = Hex.parse("M4").pixel()
    c2x, c2y = Hex.parse("C2").pixel()
    two = [flame_at(vasl65, ex + 900 + m4x, ey + m4y, "f1"),
           flame_at(vasl65, ex + 900 - c2x, ey + 645 - c2y, "f2")]  # r01's C2, the crop turned 180°
    pos = position_from_vsav(game(tmp_path / "b.vsav", "bd\t0\t0\tr01\t0\t0\t900\t-1\tbd\t1\t0\t22\t", two),
                             boards_dir)
    assert sorted(pos.loc_name(f.location) for f in pos.flames()) == ["01C2", "22M4"]
    assert pos.map.layout.parse("22M4") == Hex.from_offset(28, 4)


def test_a_flame_off_the_crops_hexes_is_off_the_map(vasl65: ModuleIndex, boards_dir: Path, tmp_path: Path) -> None:
    """Inside the crop rectangle (450, 100, 600, 400) but on I8, a hex VASL's cropped model does not hold."""
    ex, ey = DEFAULT_EDGE
    i8x, i8y = Hex.parse("I8").pixel()
    flame = [flame_at(vasl65, ex + i8x - 450, ey + 490 - 100)]
    assert i8y - 32 < 490 < 500
    with pytest.raises(OffBoardError, match=r"is on no board \(or on a hex the crop of board 01 leaves off the map\)"):
        position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t450\t100\t600\t400\t", flame), boards_dir)


@pytest.mark.parametrize(("line", "message"), [
    ("bd\t0\t0\t01\t-5\t0\t900\t-1\t",
     r"board 01: VASL's crop \(-5, 0, 900, -1\) \(x, y, width, height in board pixels\): expected x, y ≥ 0 and a "
     r"width and height > 0 \(or -1: to the board's edge\)"),
    ("bd\t0\t0\t01\t0\t0\t0\t645\t", r"board 01: VASL's crop \(0, 0, 0, 645\) .*expected x, y ≥ 0 and a width"),
    ("bd\t0\t0\t01\t1900\t0\t100\t-1\t",
     r"board 01: VASL's crop \(1900, 0, 100, -1\) .*: its top left corner is off the board \(the board is "
     r"1800×645 pixels\), so VASL finds no hex there"),
    ("bd\t0\t0\t01\t0\t0\t2000\t-1\t",
     r"board 01: VASL's crop \(0, 0, 2000, -1\) .*: it reaches past the board's last hex .*VASL keeps 37 columns"),
    ("bd\t0\t0\t01\t0\t0\t844\t-1\tbd\t1\t0\t22\t",
     r"board 22 \(the map's other crops: 01 \(0, 0, 844, -1\)\): its first hex column would lie on board 01's "
     r"column P, whose hexes sit half a hex higher, so VASL cannot merge the two hex grids and turns its LOS off; "
     r"expected columns that meet as printed \(a crop to columns A–Q \(900 px wide\) joins an uncropped board, one "
     r"to A–P \(844 px\) does not\)"),
])
def test_a_crop_vasl_cannot_build_is_one_line_naming_the_file_board_and_crop(boards_dir: Path, tmp_path: Path,
                                                                            line: str, message: str) -> None:
    path = game(tmp_path / "bad.vsav", line)
    with pytest.raises(CropError, match=f"^{path}: {message}") as e:
        position_from_vsav(path, boards_dir)
    assert "\n" not in str(e.value)


def test_the_cli_says_a_bad_crop_in_one_line(boards_dir: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    path = game(tmp_path / "bad.vsav", "bd\t0\t0\t01\t0\t0\t844\t-1\tbd\t1\t0\t22\t")
    assert main(["odds", str(path), "--boards", str(boards_dir)]) == 2
    err = capsys.readouterr().err
    assert "board 22 (the map's other crops: 01 (0, 0, 844, -1))" in err and "Traceback" not in err
    assert len([ln for ln in err.splitlines() if "board 22" in ln]) == 1


def test_a_cropped_position_is_not_written_as_a_position_file_that_would_lose_its_crop(
        boards_dir: Path, tmp_path: Path) -> None:
    from asl_vassal_bridge.posfile import to_dict

    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t900\t0\t900\t-1\t"), boards_dir)
    with pytest.raises(BadInput, match="cannot be written as a position file"):
        to_dict(pos)


def test_vsav_lists_pieces_on_cropped_boards(vasl65: ModuleIndex, boards_dir: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    ex, ey = DEFAULT_EDGE
    m4x, m4y = Hex.parse("M4").pixel()
    path = game(tmp_path / "g.vsav", "bd\t0\t0\t01\t0\t0\t900\t-1\tbd\t1\t0\t22\t",
                [flame_at(vasl65, ex + 900 + m4x, ey + m4y)])
    assert main(["vsav", str(path), "--boards", str(boards_dir)]) == 0
    assert "22M4" in capsys.readouterr().out


def test_vsav_names_the_file_of_a_bad_crop(boards_dir: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    path = game(tmp_path / "bad.vsav", "bd\t0\t0\t01\t1900\t0\t100\t-1\t")
    assert main(["vsav", str(path), "--boards", str(boards_dir)]) == 2
    err = capsys.readouterr().err
    assert f"{path}: board 01: VASL's crop (1900, 0, 100, -1)" in err and "Traceback" not in err


def test_a_p_beside_b_gg_merges_and_loses_the_long_columns_last_half_hexes(boards_dir: Path, tmp_path: Path) -> None:
    """22 cropped to B–GG starts with a long column, so it fits on 01's P (VASL's grid column 15); VASL's insertMap
    bounds each column by the grid's column of the same index, so 22's long columns lose their row-10 half hex (478
    hexes, as VASL's own classes build it: scripts/compare_vasl_crops.py)."""
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t0\t0\t844\t-1\tbd\t1\t0\t22\t56\t0\t1744\t-1\t"),
                             boards_dir)
    assert len(pos.map.hexes) == 478
    assert pos.map.layout.parse("22B1") == Hex.from_offset(15, 1) == pos.map.layout.parse("01P1")
    assert {"22C1", "22D0", "22FF9", "22GG10"} <= names(pos)
    for lost in ("22D10", "22FF10"):
        with pytest.raises(HexNameError, match=f"hex {lost[2:]} of board 22 is cropped off the map"):
            pos.map.layout.parse(lost)


def test_a_crop_of_a_board_whose_a1_is_offset_is_refused() -> None:
    from dataclasses import dataclass

    from asl_vassal_bridge.vasl.crop import placements

    @dataclass
    class Offset:  # no VASL board with LOS data has an A1 off column 0; VASL crops such a board another way
        width: int = 33
        height: int = 10
        grid_width: int = 1800
        grid_height: int = 645
        hex_width: float = 56.25
        hex_height: float = 64.5
        a1_x: float = 20.0
        a1_y: float = 32.25

    with pytest.raises(CropError, match=r"^board X: VASL's crop \(0, 0, 900, -1\) .*A1CenterX=20.*not supported$"):
        placements([(Offset(), BoardPlacement("X"), (0, 0, 900, -1))])


def test_a_flame_on_a_pixel_crop_is_on_the_hex_vassal_names(vasl65: ModuleIndex, boards_dir: Path,
                                                             tmp_path: Path) -> None:
    """VASSAL names the Flame's hex by the board's printed grid (M5); the reader finds the hex of that name in
    VASL 6.7.x's model of the crop, as the live bridge does, although 6.7.x's M5 lies over row 7's pixels."""
    ex, ey = DEFAULT_EDGE
    m5x, m5y = Hex.parse("M5").pixel()
    flame = [flame_at(vasl65, ex + m5x - 450, ey + m5y - 100)]
    pos = position_from_vsav(game(tmp_path / "g.vsav", "bd\t0\t0\t01\t450\t100\t600\t400\t", flame), boards_dir)
    assert [pos.loc_name(f.location) for f in pos.flames()] == ["M5"]
