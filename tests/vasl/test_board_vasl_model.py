"""Hex terrain as VASL's own LOS model sets it (``VASL.LOS.Map.Hex.resetTerrain``), on archives built here.

Each test paints a tiny board the way VASL's LOS data is drawn and checks the
rule VASL 6.7.x applies: the terrain one pixel off the centre point, buildings 5 pixels off it, each hex's
Locations (cellars, levels, rooftops, bridges), a building that misses the
centre dot, inherent terrain found off the centre, depression terrain, a
single-hex bridge over a stream, half boards "b" (columns Q–GG) and the boards
VASL has no LOS model for.  Hex C2 of a geomorphic grid has its centre point at
pixel (112, 96) and its hexside points at (112, 65) up, (139, 81), (139, 111),
(112, 128) down, (85, 111) and (85, 81).
"""

from __future__ import annotations

import io
import zipfile

import numpy as np
import numpy.typing as npt
import pytest

from asl_vassal_bridge.core.hexes import BoardPlacement, Direction
from asl_vassal_bridge.core.terrain import Terrain
from asl_vassal_bridge.vasl.board import NoLOSModelError, VaslBoard, game_map, read_board_archive
from asl_vassal_bridge.vasl.position import MapFrame
from asl_vassal_bridge.vasl.safe import Archive
from asl_vassal_bridge.vasl.terrain import TerrainTable, terrain_types_from_xml

from .builders import blank_grid, board_archive, board_zip, code_of, make_losdata, terrain_types_xml

HALF = 'hexWidth="56.3125" hexHeight="64.5"'
HALF_B = HALF + ' A1CenterX="-901" A1CenterY="32.25"'


@pytest.fixture(scope="module")
def table() -> TerrainTable:
    return terrain_types_from_xml(terrain_types_xml(), "types.xml")


@pytest.fixture(scope="module")
def rich(table: TerrainTable) -> TerrainTable:
    """The test types plus water, a multi-story building, a factory, cellars and rooftops (with heights)."""
    extra = "".join(f'<terrainType name="{n}" typeCode="{c}" LOSCategory="{cat}" height="{h}"/>' for n, c, cat, h in (
        ("Water", 7, "WATER", 0), ("Stone Building, 2 Level", 42, "BUILDING", 2),
        ("Stone Factory, 1.5 Level", 46, "FACTORY", 1), ("Cellar", 208, "OTHER", 0), ("Rooftop", 209, "OTHER", 0)))
    xml = terrain_types_xml().replace(b"</terrainTypes>", extra.encode() + b"</terrainTypes>")
    return terrain_types_from_xml(xml, "types.xml")


def board(table: TerrainTable, terrain: npt.NDArray[np.uint8], elevation: npt.NDArray[np.int8],
          width: int = 5, height: int = 3, name: str = "t", attrs: str = "") -> VaslBoard:
    data = board_archive(terrain, elevation, width, height, name, attrs)
    return read_board_archive(Archive(data, f"bd{name}"), f"bd{name}", table)


def test_the_centre_terrain_is_read_one_pixel_up_and_right_of_the_centre_point(table: TerrainTable) -> None:
    """VASL 6.7.x (``Hex.getnearcenterLocationTerrain``/``…Elevation``) reads (x + 1, y − 1), not the centre dot."""
    ter, elev = blank_grid(5, 3)
    ter[96, 112] = code_of("Dirt Road")  # C2's centre point: not looked at
    ter[95, 113] = code_of("Woods")  # one pixel right and up
    elev[95, 113] = 1
    c2 = board(table, ter, elev).hex("C2")
    assert (c2.terrain.name, c2.elevation) == ("Woods", 1)
    assert c2.fire_terrain is Terrain.WOODS


def test_at_the_board_edge_the_centre_sample_falls_back_to_the_next_point_on_the_grid(table: TerrainTable) -> None:
    """GG5's centre point is (1799, 290) (the centre pulled onto the grid); (1800, 289) and (1800, 291) are off it,
    so (1798, 291) decides."""
    ter, elev = blank_grid(33, 10)
    ter[291, 1798] = code_of("Woods")
    elev[291, 1798] = 2
    gg5 = board(table, ter, elev, 33, 10).hex("GG5")
    assert (gg5.terrain.name, gg5.elevation) == ("Woods", 2)


def test_a_building_that_misses_the_centre_dot_is_the_hex_terrain(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    ter[105:118, 130:150] = code_of("Stone Building")  # over hexside point 2 (139, 111), not the centre
    ter[105:118, 80:90] = code_of("Wooden Building")  # over hexside point 4 (85, 111)
    b = board(table, ter, elev)
    assert b.hex("C2").terrain.name == "Stone Building"  # the first hexside, clockwise from the top, wins
    assert b.hex("C2").fire_terrain is Terrain.STONE_BUILDING
    assert b.hex("C2").feature in b.buildings


def test_a_market_place_is_open_ground_at_its_centre(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    ter[80:112, 100:125] = code_of("Stone Market Place")
    assert board(table, ter, elev).hex("C2").terrain.name == "Open Ground"


def test_inherent_terrain_off_the_centre_first_found_column_by_column(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    ter[92:100, 100:104] = code_of("Orchard")  # small, left of the centre point
    ter[88:104, 116:126] = code_of("Olive Grove")  # larger, right of it: scanned later
    b = board(table, ter, elev)
    assert b.hex("C2").terrain.name == "Orchard"
    assert b.hex("C2").fire_terrain is Terrain.ORCHARD


def test_inherent_terrain_nearer_a_hexside_point_does_not_count(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    ter[79:84, 136:142] = code_of("Orchard")  # around hexside point 1 (139, 81): that Location is nearer
    assert board(table, ter, elev).hex("C2").terrain.name == "Open Ground"


def test_depression_terrain_at_the_centre_and_its_level(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    ter[:, 100:125] = code_of("Gully")
    elev[:, 100:125] = -1
    b = board(table, ter, elev)
    assert (b.hex("C2").terrain.name, b.hex("C2").elevation) == ("Gully", -1)
    assert (b.hex("E2").terrain.name, b.hex("E2").elevation) == ("Open Ground", 0)  # no gully there


def _stream_with_bridge(deck_rows: slice) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]:
    """A 33 × 10 board with a shallow stream at level −1 through C2 and a single-hex bridge deck at level 0."""
    ter, elev = blank_grid(33, 10)
    ter[65:129, 85:140] = code_of("Shallow Stream")
    elev[65:129, 85:140] = -1
    ter[deck_rows, 90:135] = code_of("Single Hex Stone Bridge")
    elev[deck_rows, 90:135] = 0
    return ter, elev


def test_single_hex_bridge_is_the_stream_at_its_level_with_the_bridge_above(table: TerrainTable) -> None:
    """VASL 6.7.x (``Hex.fixBridgesTunnelWater``): the centre sample hits the stream (the deck starts at the centre
    row), so the hex is the stream at −1, and the bridge is a Location above it, at the road's level (no road
    hexside here: the base level + 1) minus the base level."""
    ter, elev = _stream_with_bridge(slice(96, 103))
    c2 = board(table, ter, elev, 33, 10).hex("C2")
    assert (c2.terrain.name, c2.elevation, c2.depression) == ("Shallow Stream", -1, "Shallow Stream")
    assert c2.locations == (("Shallow Stream", 0), ("Single Hex Stone Bridge", 1)) and c2.centre == 0


def test_the_bridge_location_is_at_the_level_of_its_road_hexside(table: TerrainTable) -> None:
    ter, elev = _stream_with_bridge(slice(96, 103))
    ter[60:70, 105:120] = code_of("Dirt Road")  # over C2's top hexside point (112, 65), at level 1
    elev[60:70, 105:120] = 1
    c2 = board(table, ter, elev, 33, 10).hex("C2")
    assert c2.locations == (("Shallow Stream", 0), ("Single Hex Stone Bridge", 2))  # 1 − (−1)


def test_a_bridge_at_the_centre_sample_is_lifted_to_level_1_over_the_stream(table: TerrainTable) -> None:
    """When the sample hits the deck: the centre is the bridge, moved to level 1 of a level-0 hex, with the first
    depression pixel of the hex below it at level 0."""
    ter, elev = _stream_with_bridge(slice(90, 103))
    c2 = board(table, ter, elev, 33, 10).hex("C2")
    assert (c2.terrain.name, c2.elevation, c2.depression) == ("Single Hex Stone Bridge", 0, None)
    assert c2.locations == (("Shallow Stream", 0), ("Single Hex Stone Bridge", 1)) and c2.centre == 1
    assert c2.fire_terrain is Terrain.BRIDGE


def test_a_bridge_over_water_is_a_location_above_it(rich: TerrainTable) -> None:
    ter, elev = blank_grid(33, 10)
    ter[65:129, 85:140] = 7  # Water
    ter[100:110, 90:135] = code_of("Single Hex Stone Bridge")
    c2 = board(rich, ter, elev, 33, 10).hex("C2")
    assert (c2.terrain.name, c2.elevation) == ("Water", 0)
    assert c2.locations == (("Water", 0), ("Single Hex Stone Bridge", 1))


def test_a_building_five_pixels_off_the_centre_decides_the_last_probe_wins(table: TerrainTable) -> None:
    """VASL 6.7.x tests (x + 5, y), (x − 5, y), (x, y + 5), (x, y − 5) for a building when neither the centre sample
    nor a hexside point has one; a later point on a building wins."""
    ter, elev = blank_grid(5, 3)
    ter[96, 117] = code_of("Wooden Building")
    assert board(table, ter, elev).hex("C2").terrain.name == "Wooden Building"
    ter[91, 112] = code_of("Stone Building")
    assert board(table, ter, elev).hex("C2").terrain.name == "Stone Building"


def test_a_multi_story_building_has_a_cellar_its_levels_and_a_rooftop(rich: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    ter[70:125, 85:140] = 42  # Stone Building, 2 Level
    c2 = board(rich, ter, elev).hex("C2")
    assert c2.locations == (("Cellar", -1), ("Stone Building, 2 Level", 0), ("Stone Building, 2 Level", 1),
                            ("Stone Building, 2 Level", 2), ("Rooftop", 3)) and c2.centre == 1
    ter[70:125, 85:140] = code_of("Wooden Building")  # a plain building: no other Location
    assert board(rich, ter, elev).hex("C2").locations == (("Wooden Building", 0),)


def test_a_factory_without_a_stairway_gets_its_rooftop_once_per_reset(rich: TerrainTable) -> None:
    """No upper level without a stairway; VASL's second ``resetHexTerrain`` puts a second rooftop on the first (57
    hexes of the 2020 boards, as VASL 6.7.x's own classes show)."""
    ter, elev = blank_grid(5, 3)
    ter[70:125, 85:140] = 46  # a factory of height 1
    assert board(rich, ter, elev).hex("C2").locations == (
        ("Stone Factory, 1.5 Level", 0), ("Rooftop", 2), ("Rooftop", 2))
    data = board_zip(b'<boardMetadata name="t" version="1" width="5" height="3"/>',
                     make_losdata(5, 3, ter, elev, [1 if (c, r) == (2, 1) else 0 for c in range(5)
                                                   for r in range(3 + c % 2)]))
    c2 = read_board_archive(Archive(data, "bdt"), "bdt", rich).hex("C2")
    assert c2.stairwell and c2.locations == (
        ("Stone Factory, 1.5 Level", 0), ("Stone Factory, 1.5 Level", 1), ("Rooftop", 2))


def test_a_wooden_building_in_hex_i21_gets_a_rooftop_on_any_board(rich: TerrainTable) -> None:
    """``Hex.fixspecialcasesAddRooftops`` (meant for board RO's warehouses) tests the hex name alone."""
    ter, elev = blank_grid(10, 21)
    ter[1260:1320, 430:470] = code_of("Wooden Building")  # I21: centre (450, 1322.25)
    ter[1300:1350, 430:470] = code_of("Wooden Building")
    b = board(rich, ter, elev, 10, 21)
    assert b.hex("I21").locations == (("Wooden Building", 0), ("Rooftop", 1))


def test_hexside_locations_take_the_pixel_under_each_hexside_point(table: TerrainTable) -> None:
    """Each hexside Location's terrain is the pixel under its hexside point (C2's: (112, 65) up, clockwise); a
    depression there is also the Location's depression terrain."""
    ter, elev = blank_grid(5, 3)
    ter[63:68, 110:115] = code_of("Woods")  # side 0
    ter[126:131, 110:115] = code_of("Gully")  # side 3
    c2 = board(table, ter, elev).hex("C2")
    assert c2.hexside_locations == (("Woods", None), ("Open Ground", None), ("Open Ground", None),
                                    ("Gully", "Gully"), ("Open Ground", None), ("Open Ground", None))


def test_the_last_columns_centre_is_moved_onto_the_grid_before_its_hexside_points(table: TerrainTable) -> None:
    """VASL 6.7.x's ``Map.getHexCenterPoint`` puts GG's centre at x = 1799, not 1800, so GG4's upper-left hexside
    point is (1772, 210), not (1773, 210)."""
    ter, elev = blank_grid(33, 10)
    ter[205:215, 1772] = code_of("Woods")
    gg4 = board(table, ter, elev, 33, 10).hex("GG4")
    assert gg4.hexside_locations[5] == ("Woods", None)


def test_half_board_b_is_named_q_to_gg(table: TerrainTable) -> None:
    ter, elev = blank_grid(17, 20, 56.3125)
    b = board(table, ter, elev, 17, 20, "12b", HALF_B)
    names = set(b.hexes)
    assert len(names) == 17 * 20 + 8
    assert {"Q1", "Q20", "R0", "R20", "Z1", "AA1", "GG1", "GG20"} <= names
    assert not names & {"A1", "P5", "Q0", "HH1"}
    assert b.hex("Q1").col == 0 and b.hex("GG20").col == 16


def test_half_boards_a_and_b_side_by_side_share_column_q(table: TerrainTable) -> None:
    ter, elev = blank_grid(17, 20, 56.3125)
    a = board(table, ter, elev, 17, 20, "12a", HALF)
    ter_b, elev_b = ter.copy(), elev.copy()
    x, y = 56.3125, 32.25 + 64.5 * 5 - 32.25  # R5: column 1, row index 5
    ter_b[int(y) - 10:int(y) + 10, int(x) - 10:int(x) + 10] = code_of("Woods")
    b = board(table, ter_b, elev_b, 17, 20, "12b", HALF_B)
    assert b.hex("R5").terrain.name == "Woods"
    gm = game_map([(a, BoardPlacement("12a")), (b, BoardPlacement("12b", x=1))])
    assert len(gm.hexes) == 2 * (17 * 20 + 8) - 20  # column Q (20 hexes) lies on both boards
    r5 = gm.parse_hex("12bR5")
    assert gm.hex_name(r5) == "12bR5" and gm.info(r5).terrain is Terrain.WOODS
    assert gm.parse_hex("12bQ3") == gm.parse_hex("12aQ3")
    assert gm.hex_name(gm.parse_hex("12bGG20")) == "12bGG20"
    # A piece on 12b's R5 (map pixels: 12a is 901 px wide) is located on that hex.
    frame = MapFrame(((a, BoardPlacement("12a")), (b, BoardPlacement("12b", x=1))), edge=(0, 0))
    assert frame.hex_at(901 + int(x) + 3, int(y) - 2) == r5


def test_a_whole_board_below_half_boards(table: TerrainTable) -> None:
    ter, elev = blank_grid(17, 20, 56.3125)
    a = board(table, ter, elev, 17, 20, "1a", HALF)
    b = board(table, ter, elev, 17, 20, "1b", HALF_B)
    wt, we = blank_grid(33, 10)
    wt[32 - 5:32 + 5, 0:5] = code_of("Woods")  # A1
    w = board(table, wt, we, 33, 10, "01")
    gm = game_map([(a, BoardPlacement("1a")), (b, BoardPlacement("1b", x=1)),
                   (w, BoardPlacement("01", y=1))])
    a1 = gm.parse_hex("01A1")
    assert gm.info(a1).terrain is Terrain.WOODS
    assert gm.parse_hex("1aA20").neighbour(Direction.DOWN) == a1
    assert gm.parse_hex("1bGG20").neighbour(Direction.DOWN) == gm.parse_hex("01GG1")
    assert gm.hex_name(gm.parse_hex("01GG10")) == "01GG10"


def test_bfp_dw_b_boards_number_rows_from_10(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    b = board(table, ter, elev, attrs='A1CenterX="0" A1CenterY="-612.75"')
    assert {"A11", "A13", "B10", "B13"} <= set(b.hexes) and "A1" not in b.hexes
    gm = game_map([(b, BoardPlacement("DW1b"))])
    assert gm.hex_name(gm.parse_hex("B10")) == "B10"


def test_alt_hex_grain_does_not_change_vasls_los_grid(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    plain = board(table, ter, elev)
    alt = board(table, ter, elev, attrs='altHexGrain="TRUE"')
    assert list(alt.hexes) == list(plain.hexes)
    assert "B0" in alt.hexes and "A0" not in alt.hexes


def test_no_losdata_no_vasl_los_model_either(table: TerrainTable) -> None:
    meta = b'<boardMetadata name="X" width="5" height="3"/>'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("BoardMetadata.xml", meta)
        z.writestr("bdX.gif", b"GIF89a")
    with pytest.raises(NoLOSModelError, match=r"bdX: no LOSData in the board archive: VASL has no LOS model"):
        read_board_archive(Archive(buf.getvalue(), "bdX"), "bdX", table)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("data", b"version 5\n")
    with pytest.raises(NoLOSModelError, match=r"bdY: no BoardMetadata\.xml and LOSData .*VASL has no LOS model"):
        read_board_archive(Archive(buf.getvalue(), "bdY"), "bdY", table)


def test_a_grid_origin_vasl_cannot_lay_out_is_refused(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    data = board_zip(b'<boardMetadata name="Z" width="5" height="3" A1CenterX="20" A1CenterY="20"/>',
                     make_losdata(5, 3, ter, elev))
    with pytest.raises(NoLOSModelError, match=r"A1CenterY=20 .*VASL has no LOS model for this board either"):
        read_board_archive(Archive(data, "bdZ"), "bdZ", table)


def test_big_hex_bfp_board_is_named_and_located_with_its_own_geometry(table: TerrainTable) -> None:
    hw, hh = 168.7857142857, 194.2
    ter, elev = blank_grid(15, 5, hw, hh)
    cx, cy = hw * 3, 97.1 + hh * 2 - hh / 2  # D2: column 3, row index 2
    ter[int(cy) - 20:int(cy) + 20, int(cx) - 20:int(cx) + 20] = code_of("Woods")
    b = board(table, ter, elev, 15, 5, "BFP1", f'hexWidth="{hw}" hexHeight="{hh}" A1CenterX="0" A1CenterY="97.1"')
    assert len(b.hexes) == 15 * 5 + 7 and "A1" in b.hexes and "B0" in b.hexes and "O5" in b.hexes
    assert b.hex("D2").terrain.name == "Woods" and b.hex("D3").terrain.name == "Open Ground"
    gm = game_map([(b, BoardPlacement("BFP1"))])
    frame = MapFrame(((b, BoardPlacement("BFP1")),), edge=(0, 0))
    d2 = frame.hex_at(int(cx) + 60, int(cy) + 50)  # well inside D2's big hex, beyond a standard hex's reach
    assert d2 is not None and gm.hex_name(d2) == "D2" and gm.info(d2).terrain is Terrain.WOODS


def test_a_remembered_depression_becomes_the_centre_terrain_again(table: TerrainTable) -> None:
    """VASL 6.7.x's ``Hex.resetTerrain``: a depression the centre Location remembers (as an overlay's hex pass
    leaves it, :attr:`~asl_vassal_bridge.vasl.overlay.OverlayResult.depressions`) is the centre terrain again."""
    from asl_vassal_bridge.vasl.board import derive_hexes

    ter, elev = blank_grid(5, 3)
    b = board(table, ter, elev)
    names = [nm for _, _, nm in b.geometry.hexes()]
    remembered = np.full(len(names), -1, dtype=np.int64)
    remembered[names.index("C2")] = code_of("Gully")
    hexes, _ = derive_hexes(b.los, b.geometry, table, b.metadata, b.source, remembered)
    assert hexes["C2"].terrain.name == "Gully"
    assert hexes["E2"].terrain.name == "Open Ground"
    bare, _ = derive_hexes(b.los, b.geometry, table, b.metadata, b.source)
    assert bare["C2"].terrain.name == "Open Ground"
