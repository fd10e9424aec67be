"""VASL 6.7.x's model naming a board's hexes otherwise than VASSAL prints them (docs/bridge.md): the bridge reads
the model by place, names each hex as VASSAL does and says so once.  ``test_real_vasl.py`` checks it on 6.7.x's
own classes (rows 1–5 over a board); here the snapshot is written as the extension writes that model."""

from __future__ import annotations

from typing import Any

from asl_vassal_bridge.bridge.convert import game_map_from_snapshot, position_from_snapshot
from asl_vassal_bridge.core.hexes import column_letters
from asl_vassal_bridge.core.terrain import Terrain


def rows_crop_over_a_board(woods: set[tuple[int, int]], height: int = 322) -> dict[str, Any]:
    """Board 01 cropped to rows 1–5 (*height* 322 px) over board 22, as VASL 6.7.x builds it: 4 grid rows of 01,
    then 22 named from grid row 4 on (``Map.gridToHex(0, 322)``), so 22's A1 lies over 01's A5 and 22's A2 over its
    own printed A1; *woods*: the (column, row index) of VASL's grid holding Woods."""
    hexes = []
    for col in range(33):
        for idx in range(15 + col % 2):
            y = 64.5 * idx + (0.0 if col % 2 else 32.25)
            board = "01" if y < height else "22"
            row = idx if idx < 4 else idx - 4
            name = f"{column_letters(col)}{row + (1 if col % 2 == 0 else 0)}"
            terrain = "Woods" if (col, idx) in woods else "Open Ground"
            hexes.append({"name": name, "col": col, "row": idx, "board": board, "elevation": 0,
                          "locations": [{"name": name, "level": 0, "terrain": terrain, "center": True}]})
    boards = [{"name": "01", "x": 400, "y": 400, "width": 1800, "height": height, "reversed": False,
               "vasl": {"crop": [0, 0, -1, height]}},
              {"name": "22", "x": 400, "y": 400 + height, "width": 1800, "height": 645, "reversed": False,
               "vasl": None}]
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": boards, "terrain_key": None,
                      "terrain": {"source": "VASL", "hexes": hexes}}], "pieces": []}


def test_a_board_vasl_names_a_row_up_is_read_by_place() -> None:
    snap = rows_crop_over_a_board({(0, 6), (0, 4)})  # over printed 22A2 (VASL: 22A3) and 01A5 (VASL: 22A1)
    gm = game_map_from_snapshot(snap)
    assert gm is not None
    assert gm.info(gm.layout.parse("22A2")).terrain is Terrain.WOODS
    assert gm.info(gm.layout.parse("22A3")).terrain is Terrain.OPEN_GROUND
    assert gm.info(gm.layout.parse("01A5")).terrain is Terrain.WOODS
    assert gm.layout.parse("22A1") != gm.layout.parse("01A5")
    note = gm.layout.note  # type: ignore[attr-defined]
    assert "names the hexes of boards 01, 22 otherwise than VASSAL prints them" in note
    assert position_from_snapshot(snap).notes[0] == note


def test_boards_named_as_printed_say_nothing() -> None:
    """01 cropped to 4 rows (258 px = 4 × 64.5): VASL's grid row 4 is where 22 is printed."""
    gm = game_map_from_snapshot(rows_crop_over_a_board({(0, 4)}, height=258))
    assert gm is not None and gm.layout.note == ""  # type: ignore[attr-defined]
    assert gm.info(gm.layout.parse("22A1")).terrain is Terrain.WOODS


def test_a_board_off_vasls_grid_by_half_a_hex_asks_for_the_archives() -> None:
    """22 printed 290 px down (4.5 rows): VASL's grid lays its hexes between 22's printed ones, so its terrain there
    is no printed hex's; without the board archives the bridge keeps VASL's model and says what to give."""
    snap = rows_crop_over_a_board(set(), height=290)
    gm = game_map_from_snapshot(snap)
    assert gm is not None
    note = gm.layout.note  # type: ignore[attr-defined]
    assert "lays its hexes between the printed hexes of board 22 " in note, note
    notes = position_from_snapshot(snap).notes
    assert notes[0].startswith(note) and "give the board archives' folder (asl-fire bridge --boards DIR)" in notes[0]
