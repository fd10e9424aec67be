"""Three boards through the real VASSAL engine on the stand-ins of VASL 6.7.x's map building: bd01, bd22 reversed
beside it, and bd03 below bd01 cropped to columns C–R (900 pixels from C's centre line), as VASL 6.7.x builds such a
map (a map-wide grid, then each board's LOSData pixels copied from its crop's corner to its place, a reversed board
turned within its rectangle, the grid hexes named by the board from the hex under its corner on:
tests/support/java/README.md says where each step was read in VASL 6.7.x's sources).

Every hex carries its board and its board-local name; its terrain and level are the board's own (what the board's
description says, as a board-archive reader reads a board); the pixel survey of a road through woods on the cropped
board is placed by 6.7.x's arithmetic; the fire upkeep's counters land on the right board.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.convert import position_from_snapshot
from asl_vassal_bridge.bridge.phases import run_phase
from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.fire import end_of_afph
from asl_vassal_bridge.core.hexes import BoardPlacement, MapLayout
from asl_vassal_bridge.core.position import Phase, Position
from asl_vassal_bridge.core.terrain import Terrain
from asl_vassal_bridge.vasl.board import BoardGeometry
from asl_vassal_bridge.vasl.crop import placements
from tests.support import vassal_harness as vh

from .conftest import _with_extension, started_player
from .three_boards import BLAZES, FLAMES, TERRAIN, check_risk_layer_on_the_flames

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

#: bd03 cropped to C–R: its first column is C's half hex (x 112 of the board is C's centre line).
CROP = (112, 0, 900, 645)
BOARDS = (vh.BoardAt("bd01", 0, 0), vh.BoardAt("bd22", 1, 0, reversed=True), vh.BoardAt("bd03", 0, 1, crop=CROP))
CROPPED_TERRAIN = {**TERRAIN, "bd03": "#crop\t" + "\t".join(map(str, CROP)) + "\n" + TERRAIN["bd03"]}
#: the columns bd03 keeps
KEPT = "CDEFGHIJKLMNOPQR"
FACES = [4, 4, 6, 2, 3, 5, 6, 6, 6, 3]


def fires() -> list[vh.GamePiece]:
    out = [vh.GamePiece(f"flame-{n}", n[4:], gpid="192", board=n[:4]) for n in FLAMES]
    out += [vh.GamePiece(f"blaze-{n}", n[4:], gpid="195", board=n[:4]) for n in BLAZES]
    out += [vh.GamePiece("ec", "E10", gpid="284", board="bd03"), vh.GamePiece("wind", "G10", gpid="287", board="bd03")]
    return out


@pytest.fixture(scope="module")
def hana(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[BridgeClient]:
    mod = vh.build_module(engine_dir / "cropped.vmod", board_class=vh.VASL_BOARD, boards=[b.name for b in BOARDS],
                          terrain=CROPPED_TERRAIN)
    _with_extension(mod, module_with_extension)
    with started_player("hana", mod, support_jar, xvfb.display, engine_dir / "cropped", pieces=fires(),
                        boards=BOARDS) as (_, client):
        yield client


def _described(board: str, name: str, terrain: dict[str, str] | None = None) -> tuple[str, int, int]:
    """A hex's centre terrain, ground level and number of Locations as the board's description gives them."""
    for line in (terrain or CROPPED_TERRAIN)[board].splitlines():
        f = line.split("\t")
        if f[0] == name:
            return f[1].split("/")[0], int(f[2]) if len(f) > 2 else 0, 1 + (int(f[3]) if len(f) > 3 else 0)
    return "Open Ground", 0, 1


def test_the_crop_is_vasls_and_every_hex_has_its_board_name_terrain_and_level(hana: BridgeClient) -> None:
    snap = hana.snapshot()
    (m,) = snap["maps"]
    assert "error" not in m["terrain"] and m["terrain"]["absent"] == []
    bd03 = m["boards"][2]
    assert (bd03["name"], bd03["width"], bd03["vasl"]["crop"]) == ("bd03", 900, dict(zip(
        ("x", "y", "width", "height"), CROP, strict=True)))
    # the board-archive reader's layout of the same boards and crop (vasl.crop: where VASL's merged map puts them)
    geo = BoardGeometry(33, 10, vh.BOARD_WIDTH, vh.BOARD_HEIGHT, 56.25, 64.5, 0.0, 32.25)
    layout = MapLayout(placements([(geo, BoardPlacement(b.name, b.x, b.y, b.reversed), b.crop) for b in BOARDS]))
    on = {b.name: b for b in layout.boards}
    seen: dict[str, set[str]] = {"bd01": set(), "bd22": set(), "bd03": set()}
    for h in m["terrain"]["hexes"]:
        if h["board"] is None:
            continue
        # the board-local name VASL gives the grid place is the one the project's crop arithmetic gives it
        grid = bridge_snapshot._grid_hex(h)
        assert grid is not None
        local = on[h["board"]].to_local(grid)
        assert local is not None and local.name == h["name"], h
        seen[h["board"]].add(h["name"])
        terrain, level, locations = _described(h["board"], h["name"])
        centre = next(loc for loc in h["locations"] if loc["center"])
        assert (centre["terrain"], h["elevation"], len(h["locations"])) == (terrain, level, locations), h
    # the cropped board keeps columns C–R (one half hex of row 0 merged into bd01's row 10 per odd column)
    assert {n.rstrip("0123456789") for n in seen["bd03"]} == set(KEPT)
    assert "C1" in seen["bd03"] and "R9" in seen["bd03"] and "B5" not in seen["bd03"] and "S3" not in seen["bd03"]
    assert len(seen["bd01"]) + len(seen["bd22"]) > 600


#: bd03 cropped to its rows 1–5 (322 pixels, as VASL's picker crops rows), below an uncropped bd01.
ROW_CROP = (0, 0, -1, 322)
ROW_BOARDS = (vh.BoardAt("bd01", 0, 0), vh.BoardAt("bd03", 0, 1, crop=ROW_CROP))
ROW_TERRAIN = {"bd01": TERRAIN["bd01"], "bd03": "#crop\t" + "\t".join(map(str, ROW_CROP)) + "\n" + TERRAIN["bd03"]
               + "C5\tWoods\t1\nC6\tWoods\n"}


@pytest.fixture(scope="module")
def rina(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[BridgeClient]:
    mod = vh.build_module(engine_dir / "rowcrop.vmod", board_class=vh.VASL_BOARD, boards=[b.name for b in ROW_BOARDS],
                          terrain=ROW_TERRAIN)
    _with_extension(mod, module_with_extension)
    pieces = [vh.GamePiece("flame-bd01C3", "C3", gpid="192", board="bd01"),
              vh.GamePiece("flame-bd03F4", "F4", gpid="192", board="bd03")]
    with started_player("rina", mod, support_jar, xvfb.display, engine_dir / "rowcrop", pieces=pieces,
                        boards=ROW_BOARDS) as (_, client):
        yield client


def test_a_crop_of_rows_keeps_the_rows_the_archive_readers_keep_with_their_terrain(rina: BridgeClient) -> None:
    """A board cropped to rows below a whole board (VASL 6.7.x: the crop's pixels from its corner, the map-wide grid
    as tall as the boards, the board's hexes from the grid hex under its corner on): every hex VASL's grid gives the
    cropped board is one the project's crop arithmetic keeps, under the same name, with the described terrain and
    level; row 6 is cut off."""
    snap = rina.snapshot()
    (m,) = snap["maps"]
    assert "error" not in m["terrain"] and m["vasl_model"] == "6.7"
    assert (m["boards"][1]["height"], m["boards"][1]["vasl"]["crop"]["height"]) == (322, 322)
    geo = BoardGeometry(33, 10, vh.BOARD_WIDTH, vh.BOARD_HEIGHT, 56.25, 64.5, 0.0, 32.25)
    layout = MapLayout(placements([(geo, BoardPlacement(b.name, b.x, b.y, b.reversed), b.crop) for b in ROW_BOARDS]))
    on = {b.name: b for b in layout.boards}
    seen: dict[str, set[str]] = {"bd01": set(), "bd03": set()}
    for h in m["terrain"]["hexes"]:
        if h["board"] is None:
            continue
        grid = bridge_snapshot._grid_hex(h)
        assert grid is not None
        local = on[h["board"]].to_local(grid)
        assert local is not None and local.name == h["name"], h
        seen[h["board"]].add(h["name"])
        terrain, level, locations = _described(h["board"], h["name"], ROW_TERRAIN)
        centre = next(loc for loc in h["locations"] if loc["center"])
        assert (centre["terrain"], h["elevation"], len(h["locations"])) == (terrain, level, locations), h
    kept = {loc.name for loc in (on["bd03"].to_local(x) for x in on["bd03"].hexes()) if loc is not None}
    # the odd columns' row-5 half hexes (B5 …) have their centre on the crop's edge: on no board of VASSAL's map
    odd_row_5 = {n for n in kept if n[-1] == "5" and (ord(n[0]) - ord("A") + 26 * (len(n) - 2)) % 2 == 1}
    assert seen["bd03"] <= kept and kept - seen["bd03"] == odd_row_5 and "FF5" in odd_row_5
    assert {"A1", "C5", "F4", "GG5"} <= seen["bd03"] and "C6" not in seen["bd03"]
    pos = position_from_snapshot(snap, phase=Phase.AFPH).position
    assert sorted(pos.loc_name(f.location) for f in pos.flames()) == ["bd01C3", "bd03F4"]
    c5 = pos.map.info(pos.map.layout.parse("bd03C5"))
    assert (c5.terrain, c5.elevation) == (Terrain.WOODS, 1)


def test_the_survey_of_a_road_through_woods_on_the_cropped_board_b25_1(hana: BridgeClient) -> None:
    snap = hana.snapshot()
    pixels = {(h["board"], h["name"]): h.get("pixels") for h in snap["maps"][0]["terrain"]["hexes"]}
    r3 = pixels[("bd03", "R3")]
    assert r3 and r3["Woods"] > r3["Dirt Road"] > 0
    pos = position_from_snapshot(snap, phase=Phase.AFPH).position
    gm = pos.map
    assert gm.info(gm.layout.parse("bd03R3")).terrain is Terrain.WOODS_ROAD
    assert gm.info(gm.layout.parse("bd03F5")).terrain is Terrain.WOODS
    assert gm.info(gm.layout.parse("bd22X8")).terrain is Terrain.WOODS_ROAD


def _fires(pos: Position) -> set[tuple[str, str]]:
    return {(pos.loc_name(f.location), f.kind.value) for f in pos.fires}


def test_upkeep_places_counters_on_the_right_board_b25_6(hana: BridgeClient) -> None:
    before = position_from_snapshot(hana.snapshot(), phase=Phase.AFPH).position
    assert sorted(before.loc_name(f.location) for f in before.flames()) == sorted(FLAMES)
    expected, _ = end_of_afph(before, ScriptedDice(FACES))
    added = _fires(expected) - _fires(before)
    assert "bd03" in {name[:4] for name, _ in added}, added  # fire spreads on the cropped board
    hana.jvm.aslbridgetest.TestHooks.scriptDice(",".join(map(str, FACES)))
    try:
        res = run_phase(hana, Phase.AFPH)
        assert res.applied is not None
        after = hana.snapshot()
        assert _fires(position_from_snapshot(after, phase=Phase.AFPH).position) == _fires(expected)
        placed = {p["id"]: p for p in after["pieces"] if p["id"] in set(res.applied["placed"])}
        assert {f"{p['board']}{p['hex']}" for p in placed.values()} == {n for n, _ in added}
    finally:
        hana.jvm.aslbridgetest.TestHooks.scriptDice("")
        hana.jvm.aslbridgetest.TestHooks.undo()


def test_risk_layer_on_a_cropped_board_shades_the_right_hexes_b25_6(hana: BridgeClient) -> None:
    """The Fire risk layer where bd03 is cropped to C–R and bd22 reversed: each Flame's shade on its counter."""
    check_risk_layer_on_the_flames(hana)
