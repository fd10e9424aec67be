"""Multi-board snapshots → Position without an engine: hexes placed by VASL's grid, names by board, bad input.

The snapshots are written the way the extension writes VASL's model (board-local names, ``col``/``row`` in the
merged grid, the board from the hex centre); ``test_live_three_boards.py`` and ``test_real_vasl.py`` check that.
"""

from __future__ import annotations

from typing import Any

import pytest

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.bridge.convert import NoTerrain, batch_for, game_map_from_snapshot, position_from_snapshot
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.hexes import Hex, column_letters
from asl_vassal_bridge.core.position import Fire, FireKind, Location
from asl_vassal_bridge.core.terrain import Terrain


def two_boards(woods: dict[str, set[str]], *, lower_first: bool = False, key: str | None = "k1") -> dict[str, Any]:
    """Boards "01" above "22" as VASL's merged grid: 33 columns, 20 + col % 2 hexes, names board-local; the board
    inserted last (the second listed) gives the merged row-10/row-0 half hexes their name and terrain."""
    order = ["22", "01"] if lower_first else ["01", "22"]
    grid: dict[tuple[int, int], dict[str, Any]] = {}
    for board in order:
        top = 0 if board == "01" else 10
        for col in range(33):
            for idx in range(10 + col % 2):
                name = f"{column_letters(col)}{idx + (1 if col % 2 == 0 else 0)}"
                terrain = "Woods" if name in woods.get(board, set()) else "Open Ground"
                grid[(col, top + idx)] = {
                    "name": name, "col": col, "row": top + idx,
                    "board": "01" if top + idx < 10 else "22",
                    "elevation": 0, "locations": [{"name": name, "level": 0, "terrain": terrain, "center": True}]}
    boards = [{"name": "01", "x": 400, "y": 400, "width": 1800, "height": 645, "reversed": False, "vasl": None},
              {"name": "22", "x": 400, "y": 1045, "width": 1800, "height": 645, "reversed": False, "vasl": None}]
    if lower_first:
        boards.reverse()
    terrain: dict[str, Any] = {"source": "VASL", "hexes": [grid[k] for k in sorted(grid)]}
    if key is not None:
        terrain["key"] = key
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": boards, "terrain_key": key, "terrain": terrain}],
            "pieces": []}


def flame(pid: str, board: str | None, hex_name: str) -> dict[str, Any]:
    return {"id": pid, "name": "Flame", "gpid": "192", "map": "Main Map", "board": board, "hex": hex_name,
            "location": f"{board}{hex_name}" if board else "offboard", "x": 1, "y": 2, "rev": f"r-{pid}",
            "layers": []}


def test_hexes_are_placed_by_grid_and_named_with_their_board() -> None:
    gm = game_map_from_snapshot(two_boards({"01": {"D6"}, "22": {"K2"}}, key=None))
    assert gm is not None and len(gm.hexes) == 346 + 330
    assert gm.info(gm.layout.parse("01D6")).terrain is Terrain.WOODS
    assert gm.info(gm.layout.parse("22D6")).terrain is Terrain.OPEN_GROUND  # not overwritten by board 22's name
    assert gm.info(gm.layout.parse("22K2")).terrain is Terrain.WOODS
    assert gm.info(gm.layout.parse("01K2")).terrain is Terrain.OPEN_GROUND
    assert gm.hex_name(Hex.from_offset(3, 16)) == "22D6"


@pytest.mark.parametrize("lower_first", [False, True])
def test_merged_half_hex_takes_the_board_inserted_last(lower_first: bool) -> None:
    gm = game_map_from_snapshot(two_boards({"01": {"B10"}, "22": set()}, lower_first=lower_first, key=None))
    assert gm is not None
    merged = gm.layout.parse("01B10")
    assert merged == gm.layout.parse("22B0")
    # VASL copies each board over the map in the boards' order: the last one's half hex stays
    assert gm.info(merged).terrain is (Terrain.WOODS if lower_first else Terrain.OPEN_GROUND)


def test_fires_are_read_by_board_and_local_hex_and_placed_the_same_way() -> None:
    snap = two_boards({"01": {"D6"}, "22": {"D6", "D7"}}, key=None)
    snap["pieces"] = [flame("f1", "01", "D6"), flame("f2", "22", "D6")]
    live = position_from_snapshot(snap)
    assert sorted(live.position.loc_name(f.location) for f in live.position.flames()) == ["01D6", "22D6"]
    new = live.position.with_(fires=(*live.position.fires, Fire(Location(live.position.map.layout.parse("22D7")),
                                                               FireKind.FLAME)))
    batch = batch_for(live, new, phase_key="PT1 AFPh", session=None, roll_texts=[])
    assert batch["place"] == [{"gpid": "192", "location": "D7", "board": "22", "map": "Main Map"}]


def test_terrain_is_kept_by_key_and_same_means_the_kept_one() -> None:
    snap = two_boards({"01": {"D6"}}, key="abc")
    gm = game_map_from_snapshot(snap)
    assert bridge_snapshot.known_terrain() == "abc"
    same = two_boards({}, key="abc")
    same["maps"][0]["terrain"] = {"source": "VASL", "key": "abc", "same": True}
    assert game_map_from_snapshot(same) is gm
    same["maps"][0]["terrain"] = {"source": "VASL", "key": "never-read", "same": True}
    with pytest.raises(NoTerrain, match="has not read it"):
        game_map_from_snapshot(same)


def test_a_fire_off_every_board_is_refused() -> None:
    snap = two_boards({}, key=None)
    snap["pieces"] = [flame("stray", None, "")]
    with pytest.raises(BadInput, match=r"piece stray \(Flame\) at 1,2 of map Main Map is off every board"):
        position_from_snapshot(snap)


def test_a_hex_on_an_unknown_board_and_a_board_without_los_data_are_refused() -> None:
    snap = two_boards({}, key=None)
    snap["maps"][0]["terrain"]["hexes"][0]["board"] = "99"
    with pytest.raises(NoTerrain, match=r"lies on board '99', which is not one of the map's boards \(01, 22\)"):
        game_map_from_snapshot(snap)
    snap = two_boards({}, key=None)
    snap["maps"][0]["terrain"] = None
    snap["maps"][0]["boards"][1]["vasl"] = {"legacy": True}
    with pytest.raises(NoTerrain, match="board 22 of map Main Map has no LOS data"):
        position_from_snapshot(snap)


def cropped_01_then_22() -> dict[str, Any]:
    """As VASL 3.7.26's model gave it for board 01 cropped to 900 px (A–P and half of Q) left of board 22: one grid,
    board 22's column A at grid column 16 (checked on VASL's own classes, tests/bridge/test_real_vasl.py)."""
    hexes = []
    for col in range(49):
        board, local_col = ("01", col) if col < 16 else ("22", col - 16)
        for idx in range(10 + col % 2):
            name = f"{column_letters(local_col)}{idx + (1 if col % 2 == 0 else 0)}"
            terrain = "Woods" if (board, name) in {("22", "M4"), ("01", "M4")} else "Open Ground"
            hexes.append({"name": name, "col": col, "row": idx, "board": board, "elevation": 0,
                          "locations": [{"name": name, "level": 0, "terrain": terrain, "center": True}]})
    boards = [{"name": "01", "x": 400, "y": 400, "width": 900, "height": 645, "reversed": False, "vasl": None},
              {"name": "22", "x": 1300, "y": 400, "width": 1800, "height": 645, "reversed": False, "vasl": None}]
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": boards, "terrain_key": None,
                      "terrain": {"source": "VASL", "hexes": hexes}}], "pieces": []}


def test_a_cropped_board_is_named_and_placed_as_vasls_grid_has_it() -> None:
    snap = cropped_01_then_22()
    snap["pieces"] = [flame("f1", "22", "M4"), flame("f2", "01", "M4")]
    live = position_from_snapshot(snap)
    gm = live.position.map
    assert sorted(live.position.loc_name(f.location) for f in live.position.flames()) == ["01M4", "22M4"]
    assert gm.layout.parse("22M4") == Hex.from_offset(28, 4)  # grid column 16 + 12, not 32 + 12
    assert gm.layout.parse("22A1") == Hex.from_offset(16, 1)
    assert gm.info(gm.layout.parse("22M4")).terrain is Terrain.WOODS
    assert gm.hex_name(Hex.from_offset(28, 5)) == "22M5"
    new = live.position.with_(fires=(*live.position.fires, Fire(Location(Hex.from_offset(28, 5)), FireKind.FLAME)))
    batch = batch_for(live, new, phase_key="PT1 AFPh", session=None, roll_texts=[])
    assert batch["place"] == [{"gpid": "192", "location": "M5", "board": "22", "map": "Main Map"}]
