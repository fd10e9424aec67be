"""Board archives: bd01 decoded and checked against its board image; geometry; multi-board maps; bad input."""

from __future__ import annotations

import argparse
import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.hexes import BoardPlacement, Hex, HexNameError
from asl_vassal_bridge.core.terrain import BuildingKind, Material, Terrain, UnknownTerrainError
from asl_vassal_bridge.vasl.board import (
    BadLOSDataError,
    VaslBoard,
    decode_losdata,
    game_map,
    parse_board_metadata,
    read_board_archive,
)
from asl_vassal_bridge.vasl.safe import Archive, BadArchiveError, BadXmlError
from asl_vassal_bridge.vasl.terrain import TerrainTable

from .builders import board_zip, make_losdata
from .conftest import vasl_file


def test_bd01_name_size_and_hex_count(bd01: VaslBoard) -> None:
    assert bd01.name == "01"
    assert (bd01.metadata.width, bd01.metadata.height) == (33, 10)
    assert (bd01.los.grid_width, bd01.los.grid_height) == (1800, 645)
    # 17 columns A, C … GG of rows 1–10 and 16 columns B … FF of rows 0–10.
    assert len(bd01.hexes) == 17 * 10 + 16 * 11 == 346
    assert "B0" in bd01.hexes and "A0" not in bd01.hexes and "GG10" in bd01.hexes


def test_core_hex_pixel_matches_vasl_geometry_on_bd01(bd01: VaslBoard) -> None:
    """Hex.pixel() (A1 at (0, 32.25), B0 at (56.25, 0)) is VASL's hex centre for every bd01 hex."""
    for h in bd01.hexes.values():
        assert Hex.parse(h.name).pixel() == pytest.approx((h.x, h.y))
        assert Hex.from_pixel(h.x + 3, h.y - 3).name == h.name


# Facts read off bd01.gif (crops of the image beside the decoded terrain, see docs/vasl-readers.md).
def test_bd01_c2_is_woods_attached_to_c1_and_c3_b25_62(bd01: VaslBoard) -> None:
    c1, c2, c3 = bd01.hex("C1"), bd01.hex("C2"), bd01.hex("C3")
    assert c2.terrain.name == "Woods" and c2.fire_terrain is Terrain.WOODS
    assert c1.feature == c2.feature == c3.feature is not None
    assert bd01.hex("H2").terrain.name == "Woods"  # the round copse in H2
    assert bd01.hex("H2").feature != c2.feature  # a separate depiction: not directly attached


def test_bd01_e4_stone_building_2_level_with_its_buildingtype(bd01: VaslBoard) -> None:
    e4 = bd01.hex("E4")
    assert e4.building_type == "Stone Building, 2 Level"  # BoardMetadata buildingType
    assert e4.terrain.name == "Stone Building, 2 Level"  # and the LOSData code at its centre
    b = bd01.buildings[e4.feature or ""]
    assert b.material is Material.STONE and b.kind is BuildingKind.MULTI_STORY and b.levels == 2
    # The L-shaped stone building E4-F3-G3-G4 is one building; G3 shows the stairwell square.
    assert bd01.hex("F3").feature == bd01.hex("G4").feature == e4.feature
    assert bd01.hex("G3").stairwell and not e4.stairwell


def test_bd01_wooden_single_story_houses(bd01: VaslBoard) -> None:
    for name in ("D2", "K2", "H3"):
        h = bd01.hex(name)
        assert h.fire_terrain is Terrain.WOODEN_BUILDING
        assert bd01.buildings[h.feature or ""].kind is BuildingKind.SINGLE_STORY


def test_bd01_hexes_as_vasls_own_los_model_gives_them(bd01: VaslBoard) -> None:
    """Hexes checked against VASL 6.7.x's classes reading bd01 (scripts/realvasl/DumpBoardTerrain67.java): the
    terrain one pixel up and right of each hex's centre point, where roads and open ground meet near the centre
    (VASL's 2020 model, which read the centre dot itself, had C5 Dirt Road, O3 and Y2 Open Ground, W2 Paved
    Road)."""
    assert bd01.hex("C5").terrain.name == "Paved Road"
    assert bd01.hex("O3").terrain.name == "Paved Road"
    assert bd01.hex("W2").terrain.name == "Open Ground"
    assert bd01.hex("Y2").terrain.name == "Paved Road"
    assert bd01.hex("D2").terrain.name == "Wooden Building"
    assert bd01.hex("G3").terrain.name == "Stone Building, 2 Level"


def test_bd01_locations_as_vasl_6_7_builds_them(bd01: VaslBoard) -> None:
    """Every multi-story hex has a cellar, its upper levels and a rooftop (63 hexes); plain buildings only their
    ground level (VASL 6.7.x's ``Hex.addBuildingLevels``)."""
    g3 = bd01.hex("G3")
    b2 = "Stone Building, 2 Level"
    assert g3.locations == (("Cellar", -1), (b2, 0), (b2, 1), (b2, 2), ("Rooftop", 3)) and g3.centre == 1
    assert bd01.hex("D2").locations == (("Wooden Building", 0),)
    chains = {h.name: h.locations for h in bd01.hexes.values() if len(h.locations) > 1}
    assert len(chains) == 63
    assert all(c[0] == ("Cellar", -1) and c[-1][0] == "Rooftop" for c in chains.values())
    assert all(h.depression is None for h in bd01.hexes.values())


def test_bd01_has_no_hills_every_base_elevation_is_0(bd01: VaslBoard) -> None:
    assert bd01.metadata.has_hills is False
    assert {h.elevation for h in bd01.hexes.values()} == {0}


def test_hill_hex_elevation_from_losdata(table: TerrainTable) -> None:
    """A level-2 hill drawn around C5's centre: base elevation 2 there, 0 elsewhere."""
    terrain = np.zeros((645, 1800), dtype=np.uint8)
    elev = np.zeros((645, 1800), dtype=np.int8)
    x, y = Hex.parse("C5").pixel()
    elev[int(y) - 20:int(y) + 20, int(x) - 20:int(x) + 20] = 2
    meta = b'<boardMetadata name="hill" width="33" height="10" hasHills="TRUE"/>'
    board = read_board_archive(Archive(board_zip(meta, make_losdata(33, 10, terrain, elev)), "hill"), "hill", table)
    assert board.hex("C5").elevation == 2
    assert board.hex("C4").elevation == 0


def test_bd01_game_map(bd01: VaslBoard) -> None:
    gm = game_map([(bd01, BoardPlacement("01"))])
    assert len(gm.hexes) == 346
    assert gm.info(Hex.parse("C2")).terrain is Terrain.WOODS
    e4 = gm.info(Hex.parse("E4"))
    assert e4.building is not None
    assert gm.top_level(Hex.parse("E4")) == 2
    assert gm.rooftop(Hex.parse("E4")) is not None  # B23.8
    assert gm.rooftop(Hex.parse("K2")) is None  # single story house: no rooftop


def test_two_boards_share_the_gg_a_column_and_prefix_names(bd01: VaslBoard) -> None:
    gm = game_map([(bd01, BoardPlacement("1")), (bd01, BoardPlacement("2", x=1))])
    assert len(gm.hexes) == 2 * 346 - 10
    assert gm.info(gm.parse_hex("2C2")).terrain is Terrain.WOODS
    assert gm.hex_name(gm.parse_hex("1GG5")) == "1GG5"


def test_reversed_board_turns_terrain_180_degrees(bd01: VaslBoard) -> None:
    gm = game_map([(bd01, BoardPlacement("1", reversed=True))])
    # Hex C2 of a reversed board sits where EE9 of an upright board would be; names stay the board's.
    h = gm.parse_hex("C2")
    assert gm.info(h).terrain is Terrain.WOODS
    assert h == Hex.parse("EE9")


def test_off_board_hex_is_a_clear_error(bd01: VaslBoard) -> None:
    with pytest.raises(HexNameError, match=r"Z99 is off board 01"):
        bd01.hex("Z99")


def test_cli_board_json_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli.vasl import cmd_board
    png = tmp_path / "bd01.png"
    rc = cmd_board(argparse.Namespace(board=vasl_file("boards", "bd01"), json=True, png=png))
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["board"] == "01" and data["hex_count"] == 346
    e4 = next(h for h in data["hexes"] if h["hex"] == "E4")
    assert e4["building_type"] == "Stone Building, 2 Level"
    assert [(x["terrain"], x["level"], x.get("centre", False)) for x in e4["locations"]] == [
        ("Cellar", -1, False), ("Stone Building, 2 Level", 0, True), ("Stone Building, 2 Level", 1, False),
        ("Stone Building, 2 Level", 2, False), ("Rooftop", 3, False)]
    assert len(e4["hexside_locations"]) == 6 and all(x["depression"] is None for x in e4["hexside_locations"])
    # The picture is the project's one map picture (as the widget, demo and forecast draw it): VASL's board
    # art under the grid, hex names on their bands, a legend under the map.
    from PIL import Image

    from asl_vassal_bridge.core import Position
    from asl_vassal_bridge.render import shapes
    from asl_vassal_bridge.vasl.board import default_terrain_table, game_map, read_board
    from asl_vassal_bridge.vasl.boardart import board_art
    board = read_board(vasl_file("boards", "bd01"), default_terrain_table(vasl_file()))
    items, w, h = shapes(Position(game_map([(board, BoardPlacement("01"))])),
                         art=[board_art(vasl_file("boards", "bd01"), BoardPlacement("01"))])
    ax, ay = next(s for s in items if s.kind == "image").points[0]
    with zipfile.ZipFile(vasl_file("boards", "bd01")) as z:
        art = np.asarray(Image.open(io.BytesIO(z.read("bd01.gif"))).convert("RGB"), int)
    with Image.open(png) as im:
        assert im.size == (int(w), int(h)) and im.width >= 1800
        pic = np.asarray(im.convert("RGB"), int)
    patch = pic[round(ay) + 100:round(ay) + 300, round(ax) + 300:round(ax) + 700]
    same = (np.abs(patch - art[100:300, 300:700]).max(axis=2) <= 8).mean()
    assert same > 0.8, same  # the art itself, but for the grid lines, names and badges drawn over it


# --- Bad input -------------------------------------------------------------------------

META = b'<boardMetadata name="t" width="3" height="2"/>'


def _tiny_los(code: int = 0) -> bytes:
    return make_losdata(3, 2, np.full((40, 60), code, dtype=np.uint8), np.zeros((40, 60), dtype=np.int8))


def test_unknown_terrain_code_is_named(table: TerrainTable) -> None:
    arc = Archive(board_zip(META, _tiny_los(250)), "bdT")
    with pytest.raises(UnknownTerrainError, match=r"bdT.*terrain codes \[250\]"):
        read_board_archive(arc, "bdT", table)


def test_truncated_zip_is_bad_archive() -> None:
    data = vasl_file("boards", "bd01").read_bytes()
    with pytest.raises(BadArchiveError, match="bd01-cut"):
        Archive(data[: len(data) // 2], "bd01-cut")


def test_broken_gzip_losdata() -> None:
    with pytest.raises(BadLOSDataError, match="broken gzip"):
        decode_losdata(b"\x1f\x8b\x08\x00garbage", "LOSData")


def test_truncated_losdata_payload() -> None:
    import gzip
    raw = gzip.decompress(_tiny_los())
    with pytest.raises(BadLOSDataError, match="LOSData"):
        decode_losdata(gzip.compress(raw[:-30]), "LOSData")


def test_random_bytes_losdata() -> None:
    rng = np.random.default_rng(7)
    with pytest.raises(BadLOSDataError):
        decode_losdata(rng.bytes(5000), "LOSData")


def test_broken_board_metadata_xml() -> None:
    with pytest.raises(BadXmlError, match="BoardMetadata"):
        parse_board_metadata(b"<boardMetadata name='x'", "bdX!BoardMetadata.xml")
    with pytest.raises(BadXmlError, match="not <boardMetadata>"):
        parse_board_metadata(b"<html/>", "bdX!BoardMetadata.xml")


def test_zip_member_with_dotdot_is_refused() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("../evil", b"x")
    with pytest.raises(BadArchiveError, match="unsafe"):
        Archive(buf.getvalue(), "evil.zip")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("/etc/passwd", b"x")
    with pytest.raises(BadArchiveError, match="unsafe"):
        Archive(buf.getvalue(), "evil.zip")


def test_zip_bomb_member_is_refused() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("LOSData", bytes(2_000_000))
    arc = Archive(buf.getvalue(), "bomb", limit=100_000)
    with pytest.raises(BadArchiveError, match="limit"):
        arc.read("LOSData")


def test_losdata_size_disagreeing_with_metadata(table: TerrainTable) -> None:
    arc = Archive(board_zip(b'<boardMetadata name="t" width="5" height="2"/>', _tiny_los()), "bdS")
    with pytest.raises(BadInput, match=r"3×2 hexes but BoardMetadata\.xml says 5×2"):
        read_board_archive(arc, "bdS", table)


def test_board_metadata_of_more_boards_custom_geometry_hills_slopes() -> None:
    bd1a = parse_board_metadata(vasl_file("boards", "BoardMetadata-bd1a.xml").read_bytes(), "bd1a")
    assert (bd1a.name, bd1a.width, bd1a.height, bd1a.hex_width, bd1a.hex_height) == ("1a", 17, 20, 56.3125, 64.5)
    bfpc = parse_board_metadata(vasl_file("boards", "BoardMetadata-bdBFPC.xml").read_bytes(), "bdBFPC")
    assert bfpc.has_hills is True
    assert bfpc.slopes["E9"] == "5"  # hexside digits, 0 = top, clockwise
    assert "A1" not in bfpc.slopes  # the example inside an XML comment is not a slope
    bd74 = parse_board_metadata(vasl_file("boards", "BoardMetadata-bd74.xml").read_bytes(), "bd74")
    assert bd74.name == "74" and bd74.slopes == {}
    assert bd74.building_types == {}  # bd74's buildingType lines are all commented out
