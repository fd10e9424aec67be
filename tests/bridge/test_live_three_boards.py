"""A three-board game through the real VASSAL engine: boards in a 2×2 layout, one reversed, fires on each.

The map is the ASLMap stand-in (tests/support/java), which builds its
``VASL.LOS.Map.Map`` as VASL's ASLMap does: one merged grid, board-local hex
names, the lower board's row-0 half hexes over the upper board's row 10, a
reversed board flipped (tests/support/java/README.md says how each was
checked against VASL's own classes).  The scenario is
:mod:`tests.bridge.three_boards`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.convert import LAYERS_FOR, map_layout, position_from_snapshot
from asl_vassal_bridge.bridge.phases import handle_button, run_phase
from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.fire import end_of_afph
from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.position import Phase, Position
from asl_vassal_bridge.core.terrain import Terrain
from asl_vassal_bridge.vasl.setup import VaslSetup
from tests.support import vassal_harness as vh

from .conftest import started_player
from .three_boards import BLAZES, BOARDS, FLAMES, TERRAIN, check_risk_layer_on_the_flames, fires

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

#: VASSAL's die faces for the upkeep: the three Flames become Blazes (B25.151) and fire spreads (B25.6) on bd01
#: and on the reversed bd22 (the rules, given the same faces, say which: the test computes it).
FACES = [4, 4, 6, 2, 3, 5, 6, 6, 6, 3]


#: What each VASL API's stand-ins lack of the members the extension asks for (vasl_extension/README.md's table):
#: 6.7.x's offer them all; the 2020 stand-ins have no pixel-code fields (terrainGrid, terrainList: the survey
#: calls getGridTerrain per pixel) and no gridToHex (the 2020 survey placement is then skipped, as before).
ABSENT = {"6.7": set(), "2020": {"Map.terrainGrid", "Map.terrainList", "Map.gridToHex"}}


@pytest.fixture(scope="module")
def erin(three_board_module: Path, api_jar: Path, vasl_api: str, xvfb: vh.Xvfb,
         engine_dir: Path) -> Iterator[BridgeClient]:
    """The three-board game on the stand-ins of each VASL API (6.7.x's and 2020's)."""
    with started_player("erin", three_board_module, api_jar, xvfb.display, engine_dir / f"threeboards-{vasl_api}",
                        pieces=fires(), boards=BOARDS) as (_, client):
        yield client


def test_the_extension_asks_vasl_only_for_members_this_vasl_has(erin: BridgeClient, vasl_api: str) -> None:
    """Every member the extension reads is read by its 6.7.x name, else its 2020 name: a name one VASL lacks makes
    the terrain an error (required members) or shows in ``absent`` (the rest)."""
    (m,) = erin.snapshot()["maps"]
    terrain = m["terrain"]
    assert "error" not in terrain, terrain.get("error")
    assert set(terrain["absent"]) == ABSENT[vasl_api]
    # which terrain model this VASL builds, told from what its Map offers (flipTerrainAndElevationGrids: 6.7.x)
    assert m["vasl_model"] == vasl_api


def _fires(pos: Position) -> set[tuple[str, str]]:
    return {(pos.loc_name(f.location), f.kind.value) for f in pos.fires}


def test_every_hex_and_piece_carries_its_board(erin: BridgeClient) -> None:
    snap = erin.snapshot()
    (m,) = snap["maps"]
    assert [(b["name"], b["reversed"]) for b in m["boards"]] == [("bd01", False), ("bd22", True), ("bd03", False)]
    hexes = m["terrain"]["hexes"]
    # VASL's hex names are board-local: A1 and C3 once per board
    assert sorted(h["board"] for h in hexes if h["name"] == "C3") == ["bd01", "bd03", "bd22"]
    # each hex's board (from its centre point) and grid place agree with its board-local name
    layout = map_layout(m)
    on = {b.name: b for b in layout.boards}
    for h in hexes:
        if h["board"] is None:  # the empty fourth place of the 2×2 layout
            continue
        grid = bridge_snapshot._grid_hex(h)
        assert grid is not None
        local = on[h["board"]].to_local(grid)
        assert local is not None and local.name == h["name"], h
    pieces = {p["id"]: p for p in snap["pieces"]}
    for name in FLAMES:
        p = pieces[f"flame-{name}"]
        assert (p["board"], p["hex"]) == (name[:4], name[4:])
    assert pieces["blaze-bd22M5"]["location"] == "M5"  # VASSAL's plain location name: board-local


def test_position_has_board_qualified_names_and_each_boards_terrain(erin: BridgeClient) -> None:
    pos = position_from_snapshot(erin.snapshot(), phase=Phase.AFPH).position
    assert sorted(pos.loc_name(f.location) for f in pos.flames()) == sorted(FLAMES)
    assert sorted(pos.loc_name(f.location) for f in pos.fires if f.kind.value == "blaze") == sorted(BLAZES)
    gm = pos.map

    def terrain(name: str) -> Terrain:
        return gm.info(gm.layout.parse(name)).terrain

    assert terrain("bd01C3") is Terrain.WOODS
    assert terrain("bd22C3") is Terrain.OPEN_GROUND and terrain("bd03C3") is Terrain.OPEN_GROUND
    assert terrain("bd22M4") is Terrain.WOODS and terrain("bd22N4") is Terrain.BRUSH  # the reversed board
    assert terrain("bd01M4") is Terrain.OPEN_GROUND
    assert terrain("bd03F5") is Terrain.WOODS and terrain("bd03K2") is Terrain.ORCHARD
    assert terrain("bd22Y3") is Terrain.GRAIN and gm.info(gm.layout.parse("bd22Y3")).elevation == 1
    # where the reversed board's hexes lie: bd22 M4 is bd22 GG10's mirror image
    assert gm.layout.parse("bd22GG10") == Hex.from_offset(32, 1)
    # the merged half hex: bd03's B0 is bd01's B10, with the lower board's terrain (inserted last, as VASL)
    assert gm.layout.parse("bd03B0") == gm.layout.parse("bd01B10")
    assert terrain("bd01B10") is Terrain.BRUSH
    # building ids are per board
    b1, b22 = gm.building(gm.layout.parse("bd01G4")), gm.building(gm.layout.parse("bd22P6"))
    assert b1 is not None and b22 is not None and b1.id != b22.id
    assert "bd01" in b1.id and "bd22" in b22.id
    assert b1.levels == 1 and b22.levels == 1


def test_a_road_through_woods_is_woods_road_b25_1(erin: BridgeClient) -> None:
    """VASL's model names only the centre's terrain (Dirt Road); the woods drawn around it make it Woods-Road, as
    the board-archive reader decides (vasl.board.to_hexinfo), on a plain and on a reversed board."""
    snap = erin.snapshot()
    (m,) = snap["maps"]
    pixels = {(h["board"], h["name"]): h.get("pixels") for h in m["terrain"]["hexes"]}
    assert pixels[("bd03", "R3")] and pixels[("bd03", "R3")]["Woods"] > pixels[("bd03", "R3")]["Dirt Road"] > 0
    assert pixels[("bd03", "C3")] is None  # Open Ground: not surveyed
    gm = position_from_snapshot(snap, phase=Phase.AFPH).position.map

    def terrain(name: str) -> Terrain:
        return gm.info(gm.layout.parse(name)).terrain

    assert terrain("bd03R3") is Terrain.WOODS_ROAD and terrain("bd22X8") is Terrain.WOODS_ROAD
    assert terrain("bd03T4") is Terrain.WOODS_ROAD  # woods with a road drawn through
    assert terrain("bd03S3") is Terrain.ROAD  # a road with no woods about it
    assert (Terrain.WOODS_ROAD.kindle, Terrain.WOODS_ROAD.spread) != (Terrain.ROAD.kindle, Terrain.ROAD.spread)


def test_terrain_is_sent_once_for_unchanged_boards(erin: BridgeClient) -> None:
    full = erin.snapshot(layers_for=LAYERS_FOR)
    key = full["maps"][0]["terrain_key"]
    assert key and full["maps"][0]["terrain"]["key"] == key
    gm = bridge_snapshot.game_map_from_snapshot(full)
    assert bridge_snapshot.known_terrain() == key
    again = erin.snapshot(layers_for=LAYERS_FOR, known_terrain=key)
    assert again["maps"][0]["terrain"] == {"source": "VASL", "key": key, "same": True}
    assert len(json.dumps(again)) < len(json.dumps(full)) / 5
    assert bridge_snapshot.game_map_from_snapshot(again) is gm
    # another key (other boards, overlays or SSR) gets the hexes again
    other = erin.snapshot(layers_for=LAYERS_FOR, known_terrain="not-this-one")
    assert other["maps"][0]["terrain"]["hexes"]


def test_upkeep_places_counters_on_the_right_board_b25_6(erin: BridgeClient) -> None:
    before = position_from_snapshot(erin.snapshot(), phase=Phase.AFPH).position
    expected, _ = end_of_afph(before, ScriptedDice(FACES))
    added = _fires(expected) - _fires(before)
    assert {name[:4] for name, _ in added} == {"bd01", "bd22", "bd03"}, added  # new fires on every board
    erin.jvm.aslbridgetest.TestHooks.scriptDice(",".join(map(str, FACES)))
    try:
        res = run_phase(erin, Phase.AFPH)
        assert res.applied is not None
        after = erin.snapshot()
        assert _fires(position_from_snapshot(after, phase=Phase.AFPH).position) == _fires(expected)
        placed = {p["id"]: p for p in after["pieces"] if p["id"] in set(res.applied["placed"])}
        assert len(placed) == len({n for n, _ in added})
        # each new counter is on its board, in that board's own hex
        assert {f"{p['board']}{p['hex']}" for p in placed.values()} == {n for n, _ in added}
    finally:
        erin.jvm.aslbridgetest.TestHooks.scriptDice("")
        erin.jvm.aslbridgetest.TestHooks.undo()
    assert erin.snapshot()["game"]["processed"] == ""


# --- bad input: one clear chat line, nothing placed ---------------------------------------------


def _press_and_read(client: BridgeClient) -> tuple[list[str], dict[str, Any]]:
    """Press the upkeep button as a player (Python answering); the chat lines it added and the snapshot after."""
    chat_before = str(client.jvm.aslbridgetest.TestHooks.chatText())
    answers: list[str] = []

    def heard(action: str) -> str:
        msg = handle_button(client, action)
        answers.append(msg)
        return msg

    client.listen(heard)
    client.press("upkeep")
    end = time.time() + 20
    while not answers and time.time() < end:
        time.sleep(0.05)
    time.sleep(0.3)
    chat = str(client.jvm.aslbridgetest.TestHooks.chatText())[len(chat_before):]
    client.api.clearListener()  # (after reading: the toolbar's local line says Python has gone)
    return [ln.strip() for ln in chat.splitlines() if ln.strip()], client.snapshot(with_terrain=False)


def _pieces(snap: dict[str, Any]) -> set[tuple[str, str]]:
    return {(p["id"], p["rev"]) for p in snap["pieces"]}


def test_a_fire_off_every_board_is_one_chat_line_and_nothing_placed(
        three_board_module: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> None:
    stray = vh.GamePiece("flame-stray", "", gpid="192", xy=(2 * vh.BOARD_WIDTH - 500, vh.BOARD_HEIGHT + 300))
    with started_player("fay", three_board_module, support_jar, xvfb.display, engine_dir / "offboard",
                        pieces=[*fires(), stray], boards=BOARDS) as (_, client):
        before = client.snapshot(with_terrain=False)
        lines, after = _press_and_read(client)
    assert lines == ["- ASL fire bridge: piece flame-stray (Flame) at 3100,945 of map Main Map is off every "
                     "board: a Flame must be in a hex; move it onto a board or delete it (nothing was rolled or "
                     "placed)"]
    assert _pieces(after) == _pieces(before) and after["game"]["processed"] == ""


def test_a_board_vasl_could_not_load_or_an_unknown_board_is_one_chat_line(
        module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path, tmp_path: Path) -> None:
    from .conftest import _with_extension

    mod = vh.build_module(engine_dir / "nolos.vmod", board_class=vh.VASL_BOARD, boards=[b.name for b in BOARDS],
                          terrain={**TERRAIN, "bd03": "no LOS data (a board VASL could not load)\n"})
    _with_extension(mod, module_with_extension)
    with started_player("gus", mod, support_jar, xvfb.display, engine_dir / "nolos", pieces=fires(),
                        boards=BOARDS) as (_, client):
        snap = client.snapshot()
        assert snap["maps"][0]["terrain"] is None
        assert [b["vasl"]["legacy"] for b in snap["maps"][0]["boards"]] == [False, False, True]
        before = client.snapshot(with_terrain=False)
        lines, after = _press_and_read(client)
        assert lines == ["- ASL fire bridge: board bd03 of map Main Map has no LOS data, so VASL could not load its "
                         "terrain (VASL's LOS is off for the whole map): give the board archives' folder (asl-fire "
                         "bridge --boards DIR) or use a board with LOS data"]
        assert _pieces(after) == _pieces(before) and after["game"]["processed"] == ""
        # the board archives' folder lacks a board: that board is named
        msg = handle_button(client, "upkeep", vasl=VaslSetup(None, tmp_path))
        assert msg == (f"ASL fire bridge: board 'bd01' is not in {tmp_path} (looked for bd01, bdbd01, bdbd01)")
        assert _pieces(client.snapshot(with_terrain=False)) == _pieces(before)


def test_risk_layer_on_three_boards_one_reversed_shades_the_right_hexes_b25_6(erin: BridgeClient) -> None:
    """The Fire risk layer on a 2×2 map, bd22 reversed, with each VASL API's model: every Flame's Flame→Blaze
    shade lies on that Flame's counter (the hex VASSAL's grid gives, reversed board included), and the numbers
    are Fire odds'."""
    check_risk_layer_on_the_flames(erin)
