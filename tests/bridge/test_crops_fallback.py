"""The live bridge's board-archive fallback (no VASL terrain model in the snapshot) on cropped boards: the same hexes,
names and places as a saved game of the same boards gives, pieces by board and hex; no engine.  Boards "01" and
"22" are both copies of the real bd01."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.convert import NoTerrain, game_map_from_boards, position_from_snapshot
from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.vasl.position import position_from_vsav
from asl_vassal_bridge.vasl.setup import VaslSetup
from tests.vasl.builders import make_vsav


def board(name: str, x: int, y: int, crop: tuple[int, int, int, int] | None, reversed: bool = False,
          col: int = 0, row: int = 0) -> dict[str, Any]:
    """A snapshot board as the extension sends it for VASL's ASLBoard: VASSAL's rectangle (the crop's size) and
    VASL's getState()."""
    w = crop[2] if crop and crop[2] > 0 else 1800
    h = crop[3] if crop and crop[3] > 0 else 645
    state = f"{col}\t{row}\t{'r' if reversed else ''}{name}\t" + "".join(f"{v}\t" for v in crop or ()) + "VER\t6.1\t"
    vasl = {"state": state, "version": "6.1", "legacy": False, "overlays": [], "ssr": None,
            "crop": None if crop is None else dict(zip(("x", "y", "width", "height"), crop, strict=True))}
    return {"name": name, "x": x, "y": y, "width": w, "height": h, "reversed": reversed, "grid": "ASLHexGrid",
            "vasl": vasl}


def flame(pid: str, board_name: str, hex_name: str) -> dict[str, Any]:
    return {"id": pid, "name": "Flame", "gpid": "192", "map": "Main Map", "board": board_name, "hex": hex_name,
            "location": f"{board_name}{hex_name}", "x": 1, "y": 2, "rev": f"r-{pid}", "layers": []}


def snapshot(boards: list[dict[str, Any]], pieces: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": boards, "terrain_key": None, "terrain": None}],
            "pieces": list(pieces)}


CASES = {
    "A–Q then 22": ([board("01", 400, 400, (0, 0, 900, -1)), board("22", 1300, 400, None, col=1)],
                    "bd\t0\t0\t01\t0\t0\t900\t-1\tbd\t1\t0\t22\t"),
    "r01 A–Q then 22": ([board("01", 400, 400, (0, 0, 900, -1), reversed=True), board("22", 1300, 400, None, col=1)],
                        "bd\t0\t0\tr01\t0\t0\t900\t-1\tbd\t1\t0\t22\t"),
    "rows 1–5 over 22": ([board("01", 400, 400, (0, 0, -1, 322)), board("22", 400, 722, None, row=1)],
                         "bd\t0\t0\t01\t0\t0\t-1\t322\tbd\t0\t1\t22\t"),
    "22 then Q–GG": ([board("22", 400, 400, None), board("01", 2200, 400, (900, 0, 900, -1), col=1)],
                     "bd\t0\t0\t22\tbd\t1\t0\t01\t900\t0\t900\t-1\t"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_fallback_map_is_the_saved_games_map(boards_dir: Path, tmp_path: Path, case: str) -> None:
    boards, line = CASES[case]
    live = game_map_from_boards(snapshot(boards), VaslSetup(None, boards_dir))
    vsav = tmp_path / "g.vsav"
    vsav.write_bytes(make_vsav([], boards=line))
    saved = position_from_vsav(vsav, boards_dir).map
    assert set(live.hexes) == set(saved.hexes)
    assert {h: live.hex_name(h) for h in live.hexes} == {h: saved.hex_name(h) for h in saved.hexes}
    assert all(live.info(h).terrain == saved.info(h).terrain for h in live.hexes)


def test_pieces_on_cropped_boards_land_on_their_hexes(boards_dir: Path) -> None:
    boards, _ = CASES["r01 A–Q then 22"]
    snap = snapshot(boards, (flame("f1", "22", "M4"), flame("f2", "01", "C2")))
    live = position_from_snapshot(snap, vasl=VaslSetup(None, boards_dir))
    pos = live.position
    assert sorted(pos.loc_name(f.location) for f in pos.flames()) == ["01C2", "22M4"]
    assert pos.map.layout.parse("22M4") == Hex.from_offset(28, 4)
    assert pos.map.layout.parse("01C2") == Hex.from_offset(14, 9)  # r01's crop turned: C2 near its far corner


def test_a_crop_vasl_cannot_merge_is_one_line_naming_the_board_and_crop(boards_dir: Path) -> None:
    snap = snapshot([board("01", 400, 400, (0, 0, 844, -1)), board("22", 1244, 400, None, col=1)])
    with pytest.raises(NoTerrain, match=r"^map Main Map: board 22 \(the map's other crops: 01 \(0, 0, 844, -1\)\): "
                                        r"its first hex column would lie on board 01's column P") as e:
        game_map_from_boards(snap, VaslSetup(None, boards_dir))
    assert "\n" not in str(e.value)


def test_vasls_grid_with_long_even_columns_keeps_each_hexs_neighbours() -> None:
    """A crop starting on a long column (B, D …) makes VASL's whole grid start with one ("TopLeftHalfHeight"):
    VASL's Map.getAdjacentHex then has (col 0, row 1) touch (1, 0) up and right and (1, 1) down and right."""
    from asl_vassal_bridge.bridge.convert import game_map_from_snapshot
    from asl_vassal_bridge.core.hexes import Direction

    hexes = [{"name": f"{'BCD'[c]}{r}", "col": c, "row": r, "board": "01", "elevation": 0,
              "locations": [{"name": "x", "level": 0, "terrain": "Open Ground", "center": True}]}
             for c in range(3) for r in range(3 if c % 2 == 0 else 2)]
    snap = snapshot([board("01", 400, 400, (56, 0, 113, 129))])
    snap["maps"][0]["terrain"] = {"source": "VASL", "width": 3, "height": 2, "hexes": hexes}
    gm = game_map_from_snapshot(snap)
    assert gm is not None and len(gm.hexes) == 8
    at = {gm.hex_name(h): h for h in gm.hexes}
    assert at["B1"].neighbour(Direction.UPPER_RIGHT) == at["C0"]
    assert at["B1"].neighbour(Direction.LOWER_RIGHT) == at["C1"]
    assert at["B1"].neighbour(Direction.DOWN) == at["B2"]


def test_the_fallback_reads_the_boards_as_the_running_vasls_model(boards_dir: Path, tmp_path: Path) -> None:
    """The snapshot's ``vasl_model`` (what the running VASL builds) decides the archive reading: on the VASL of 2020
    a reversed board is read unturned with the centre dot itself, as that VASL's model holds it, and the saved-game
    reader gives the same map read the same way."""
    boards = [board("01", 400, 400, None, reversed=True), board("22", 2200, 400, None, col=1)]
    vsav = tmp_path / "g.vsav"
    vsav.write_bytes(make_vsav([], boards="bd\t0\t0\tr01\tbd\t1\t0\t22\t"))
    maps = {}
    for model in ("6.7", "2020"):
        snap = snapshot(boards)
        snap["maps"][0]["vasl_model"] = model
        live = game_map_from_boards(snap, VaslSetup(None, boards_dir))
        saved = position_from_vsav(vsav, boards_dir, model=model).map
        assert all(live.info(h) == saved.info(h) for h in live.hexes), model
        maps[model] = live
    differ = [maps["6.7"].hex_name(h) for h in maps["6.7"].hexes
              if maps["6.7"].info(h).terrain != maps["2020"].info(h).terrain]
    assert differ and all(n.startswith(("01", "22")) for n in differ)
