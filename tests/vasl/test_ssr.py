"""SSR terrain changes applied as VASL's LOS model applies them (``VASLBoard.applyColorSSRules``).

Every expectation was seen in VASL's own classes first (``scripts/realvasl/DumpBoardTerrain.java --ssr-sets``,
docs/vasl-readers.md): on the real bd01 and on a 7 × 4-hex board painted for these rules
(:func:`tests.vasl.builders.ssr_board`: woods with a pond, marsh, brush, grain, an orchard, a road through a woods
hexside, a rowhouse, a bridge over a stream, a hill), on which VASL and this reader agree hex by hex for every rule of
SharedBoardMetadata.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.terrain import Terrain
from asl_vassal_bridge.vasl.board import VaslBoard, read_board_archive
from asl_vassal_bridge.vasl.position import position_from_vsav
from asl_vassal_bridge.vasl.safe import Archive, BadXmlError
from asl_vassal_bridge.vasl.setup import VaslSetup
from asl_vassal_bridge.vasl.ssr import apply_ssr
from asl_vassal_bridge.vasl.terrain import SSR_RULE_TYPES, TerrainTable, terrain_types_from_xml

from .builders import SSR_BOARD_CENTRES, make_vsav, ssr_board
from .conftest import vasl_file


@pytest.fixture(scope="module")
def ssrt(table: TerrainTable) -> VaslBoard:
    def code(name: str) -> int:
        c = table.code_of(name)
        assert c is not None, name
        return c

    return read_board_archive(Archive(ssr_board(code), "bdSSRT"), "bdSSRT", table)


def hexes(board: VaslBoard, *names: str) -> list[tuple[str, int]]:
    return [(board.hex(n).terrain.name, board.hex(n).elevation) for n in names]


# --- the rules VASL's LOS model knows ----------------------------------------------------------------------------


def test_the_rules_are_read_from_shared_board_metadata(table: TerrainTable) -> None:
    rules = table.ssr_rules
    assert len(rules) == 130  # 135 elements, NoWhiteHexIDs and others repeated; four commented out
    assert {r.type for r in rules.values()} == set(SSR_RULE_TYPES)
    assert (rules["NoGrain"].type, rules["NoGrain"].from_value, rules["NoGrain"].to_value) == (
        "terrainMap", "Grain", "Open Ground")
    assert rules["DenseJungle"].type == "customCode" and rules["NoRoads"].type == "ignore"
    assert "OrchardsToCrags" not in rules  # commented out in VASL's file: VASL disables LOS for it


@pytest.mark.parametrize(("rule", "message"), [
    ('<LOSSSRule name="X" type="colourMap" fromValue="" toValue=""/>',
     r"^s\.xml: LOSSSRule 'X' has type 'colourMap'; VASL knows ignore, customCode, terrainMap, elevationMap, "),
    ('<LOSSSRule name="X" type="terrainMap" fromValue="Grain"/>',
     r"^s\.xml: LOSSSRule 'X' has no toValue attribute \(VASL needs name, type, fromValue and toValue\)$"),
    ('<LOSSSRule type="ignore" fromValue="" toValue=""/>', r"^s\.xml: line 1: a LOSSSRule has no name attribute"),
])
def test_a_malformed_rule_is_one_line_naming_the_file(rule: str, message: str) -> None:
    xml = (f'<sharedBoardMetadata><terrainTypes><terrainType name="Open Ground" typeCode="0"/></terrainTypes>'
           f'<LOSSSRules>{rule}</LOSSSRules></sharedBoardMetadata>').encode()
    with pytest.raises(BadXmlError, match=message) as e:
        terrain_types_from_xml(xml, "s.xml")
    assert "\n" not in str(e.value)


# --- each rule type on real boards ---------------------------------------------------------------------------


def test_no_ssr_gives_the_same_board_back(bd01: VaslBoard) -> None:
    assert apply_ssr(bd01, "").board is bd01
    result = apply_ssr(bd01, "NoRoads Winter")  # "ignore" rules: VASL's LOS data is unchanged
    assert result.board is bd01 and result.applied == ("NoRoads", "Winter") and result.not_applied == ()


def test_terrain_map_light_woods_on_bd01(bd01: VaslBoard) -> None:
    light = apply_ssr(bd01, "LightWoods").board
    assert light.hex("C2").terrain.name == "Light Woods" and light.hex("C2").fire_terrain is Terrain.WOODS
    assert sum(h.terrain.name == "Light Woods" for h in light.hexes.values()) == 47  # every woods hex, as VASL
    assert bd01.hex("C2").terrain.name == "Woods"  # the board read is not changed


def test_terrain_maps_on_the_painted_board(ssrt: VaslBoard) -> None:
    assert hexes(apply_ssr(ssrt, "NoGrain").board, "E2") == [("Open Ground", 0)]
    assert hexes(apply_ssr(ssrt, "PlowedFields OrchardOutOfSeason BrushToWoods").board, "E2", "C3", "B2") == [
        ("Plowed Field", 0), ("Orchard, Out of Season", 0), ("Woods", 0)]
    grain = apply_ssr(ssrt, "WoodsToGrain").board.hex("C2")
    assert grain.fire_terrain is Terrain.GRAIN


def test_stone_buildings_gutted_on_bd01(bd01: VaslBoard) -> None:
    gutted = apply_ssr(bd01, "StoneToGutted").board
    assert [h.name for h in gutted.hexes.values() if h.terrain.name == "Gutted Stone Building"] == [
        "I7", "J2", "M2", "M9", "O2", "R7", "CC7", "DD7", "EE6"]  # the single-story stone buildings, as VASL


def test_terrain_to_elevation_woods_to_level_1_on_bd01(bd01: VaslBoard) -> None:
    hill = apply_ssr(bd01, "WoodsToLevel1").board
    assert hexes(hill, "C2", "A1") == [("Open Ground", 1), ("Open Ground", 0)]
    assert hill.hex("C2").fire_terrain is Terrain.OPEN_GROUND


def test_elevation_maps_lower_the_hill(ssrt: VaslBoard) -> None:
    assert hexes(ssrt, "F3") == [("Open Ground", 2)]
    assert hexes(apply_ssr(ssrt, "Level2ToLevel1").board, "F3") == [("Open Ground", 1)]
    chain = ("NoCliffs NoHillNums Level6ToLevel5 Level5ToLevel4 Level4ToLevel3 Level3ToLevel2 Level2ToLevel1 "
             "Level1ToLevel0")
    assert hexes(apply_ssr(ssrt, chain).board, "F3") == [("Open Ground", 0)]  # VASL's "no hills" option
    assert hexes(apply_ssr(ssrt, "Level_1ToLevel0").board, "B4") == [("Shallow Stream", 0)]


def test_elevation_to_terrain(ssrt: VaslBoard, bd01: VaslBoard) -> None:
    assert hexes(apply_ssr(ssrt, "Level2ToWoods Level_1ToGrain").board, "F3", "B4") == [("Woods", 0), ("Grain", 0)]
    everything = apply_ssr(bd01, "Level0ToGrain").board
    assert {h.terrain.name for h in everything.hexes.values()} == {"Grain"}  # bd01 is all level 0


# --- VASL's customCode rules ----------------------------------------------------------------------------------


def test_no_stairwells_leaves_the_two_story_buildings_theirs(bd01: VaslBoard) -> None:
    before = {h.name for h in bd01.hexes.values() if h.stairwell}
    after = {h.name for h in apply_ssr(bd01, "NoStairwells").board.hexes.values() if h.stairwell}
    assert len(before) == 34 and len(after) == 20
    assert after == {h.name for h in bd01.hexes.values() if h.terrain.name.endswith(", 1 Level")}
    assert "G3" in before - after  # a stairwell of the multi-story building E4-F3-G3-G4


def test_rowhouse_bars(ssrt: VaslBoard) -> None:
    assert ssrt.hex("F2").terrain.name == "Rowhouse Wall, 1 Level"
    f2 = apply_ssr(ssrt, "RowhouseBarsToBuildings").board.hex("F2")
    assert (f2.terrain.name, f2.stairwell) == ("Stone Building, 1 Level", True)
    # VASL 6.7.x: with the wall gone the centre sample is Open Ground, but the building 5 px beside the centre
    # point (Hex.resetTerrain's probes) makes the hex that building again
    assert apply_ssr(ssrt, "RowhouseBarsToOpenGround").board.hex("F2").terrain.name == "Stone Building, 1 Level"


@pytest.mark.parametrize("rule", ["NoBridge", "BridgeToFord"])
def test_a_bridge_becomes_a_ford_a_level_down(ssrt: VaslBoard, rule: str) -> None:
    assert hexes(ssrt, "B3") == [("Single Hex Stone Bridge", 0)]
    assert hexes(apply_ssr(ssrt, rule).board, "B3", "B4") == [("Gully", -1), ("Shallow Stream", -1)]


def test_no_woods_roads_fills_the_centre_with_woods(ssrt: VaslBoard, bd01: VaslBoard) -> None:
    assert ssrt.hex("E3").terrain.name == "Dirt Road"
    for rule in ("NoWoodsRoads", "RoadsToPaths"):
        assert apply_ssr(ssrt, rule).board.hex("E3").terrain.name == "Woods"
    # VASL finds woods-road hexes as the board was read and fills them with Woods: LightWoods first does not stop
    # it, LightWoods after makes the fill Light Woods
    assert apply_ssr(ssrt, "LightWoods NoWoodsRoads").board.hex("E3").terrain.name == "Woods"
    assert apply_ssr(ssrt, "NoWoodsRoads LightWoods").board.hex("E3").terrain.name == "Light Woods"
    assert apply_ssr(bd01, "NoWoodsRoads").board.hexes == bd01.hexes  # bd01 has no woods-road hex in VASL's sense


def test_pto_rules_make_the_remaining_woods_light_jungle(ssrt: VaslBoard) -> None:
    bamboo = apply_ssr(ssrt, "Bamboo").board
    assert hexes(bamboo, "B2", "C2") == [("Bamboo", 0), ("Light Jungle", 0)]
    assert bamboo.hex("B2").fire_terrain is Terrain.BAMBOO and bamboo.hex("C2").fire_terrain is Terrain.LIGHT_JUNGLE
    assert hexes(apply_ssr(ssrt, "PalmTrees").board, "C3", "C2") == [("Palm Trees", 0), ("Light Jungle", 0)]
    assert hexes(apply_ssr(ssrt, "SwampToSwampPattern").board, "D2", "C2") == [("Swamp", 0), ("Light Jungle", 0)]


def test_dense_jungle_fills_the_woods_hexes_but_not_their_water(ssrt: VaslBoard, bd01: VaslBoard) -> None:
    jungle = apply_ssr(ssrt, "DenseJungle").board
    assert hexes(jungle, "C2", "E3") == [("Dense Jungle", 0), ("Dense Jungle", 0)]
    assert jungle.hex("C2").fire_terrain is Terrain.DENSE_JUNGLE
    water = ssrt.table.code_of("Water")
    assert (jungle.los.terrain[85:92, 95:102] == water).all()  # the pond in C2 stays water
    x, y = SSR_BOARD_CENTRES["C2"]
    assert jungle.los.terrain[int(y) + 30, int(x)] == ssrt.table.code_of("Dense Jungle")  # beyond the woods disk
    on_bd01 = apply_ssr(bd01, "DenseJungle SwampToSwampPattern").board
    jungle_hexes = {h.name for h in on_bd01.hexes.values() if h.terrain.name == "Dense Jungle"}
    assert jungle_hexes == {h.name for h in bd01.hexes.values() if h.terrain.name == "Woods"} | {"X0"}  # as VASL
    assert not np.any(on_bd01.los.terrain == bd01.table.code_of("Woods"))


# --- what VASL cannot apply ----------------------------------------------------------------------------------


def test_tokens_vasl_cannot_apply_are_named_and_the_rest_applied(bd01: VaslBoard) -> None:
    result = apply_ssr(bd01, "LightWoods OrchardsToCrags Level1ToLevel_1")
    assert result.applied == ("LightWoods",)
    assert result.not_applied == (
        ("OrchardsToCrags", "not among the 130 LOSSSRules of SharedBoardMetadata.xml: VASL disables LOS for it"),
        ("Level1ToLevel_1", "its toValue '_1' in SharedBoardMetadata.xml is not a level: VASL disables LOS for it"))
    assert result.board.hex("C2").terrain.name == "Light Woods"


# --- the readers -----------------------------------------------------------------------------------------------


def test_saved_game_with_ssr(tmp_path: Path) -> None:
    save = tmp_path / "ssr.vsav"
    save.write_bytes(make_vsav([], boards="bd\t0\t0\t01\tVER\t6.1\tSSR\tDenseJungle\tNoStairwells\tOrchardsToCrags\t"))
    pos = position_from_vsav(save, vasl_file("boards", "bd01").parent)
    c2 = pos.map.info(Hex.parse("C2"))
    assert c2.terrain is Terrain.DENSE_JUNGLE
    assert pos.notes == ("board 01: SSR OrchardsToCrags (not among the 130 LOSSSRules of SharedBoardMetadata.xml: "
                         "VASL disables LOS for it) not applied to the terrain; SSR DenseJungle NoStairwells read as "
                         "VASL's LOS model reads it")
    assert not pos.map.info(Hex.parse("G3")).stairwell


def _snapshot(state: str) -> dict[str, Any]:
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "terrain": None,
                      "boards": [{"name": "01", "x": 0, "y": 0, "width": 1800, "height": 645, "reversed": False,
                                  "grid": "HexGrid", "vasl": {"state": state, "version": "6.1", "crop": None,
                                                              "overlays": []}}]}],
            "pieces": []}


def test_live_fallback_applies_the_boards_ssr() -> None:
    from asl_vassal_bridge.bridge.convert import game_map_from_boards, position_from_snapshot

    setup = VaslSetup(None, vasl_file("boards", "bd01").parent)
    gm = game_map_from_boards(_snapshot("0\t0\t01\tVER\t6.1\tSSR\tWoodsToLevel1\t"), setup)
    c2 = gm.info(Hex.parse("C2"))
    assert (c2.terrain, c2.elevation) == (Terrain.OPEN_GROUND, 1)
    live = position_from_snapshot(_snapshot("0\t0\t01\tVER\t6.1\tSSR\tPalmTrees\tFoo\t"), vasl=setup)
    assert live.position.map.info(Hex.parse("C2")).terrain is Terrain.LIGHT_JUNGLE
    assert live.notes == ("board 01: SSR Foo (not among the 130 LOSSSRules of SharedBoardMetadata.xml: VASL disables "
                          "LOS for it) not applied to the terrain; SSR PalmTrees read as VASL's LOS model reads it",)


def test_only_unknown_tokens_give_the_board_back_unchanged(bd01: VaslBoard) -> None:
    result = apply_ssr(bd01, "Foo SSO_32")
    assert result.board is bd01 and result.applied == ()
    assert [t for t, _ in result.not_applied] == ["Foo", "SSO_32"]


def test_board_command_applies_ssr(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from asl_vassal_bridge.cli import main

    assert main(["board", str(vasl_file("boards", "bd01")), "--ssr", "WoodsToLevel1 Foo", "--json"]) == 0
    out, err = capsys.readouterr()
    c2 = next(h for h in json.loads(out)["hexes"] if h["hex"] == "C2")
    assert (c2["terrain"], c2["elevation"]) == ("Open Ground", 1)
    assert err.startswith("asl-fire: board 01: SSR Foo (not among the 130 LOSSSRules of SharedBoardMetadata.xml")
    assert "not applied to the terrain; SSR WoodsToLevel1 read as VASL's LOS model reads it" in err
