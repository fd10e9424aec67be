"""The live bridge on a player's own VASSAL and VASL (opt-in, never in CI: nothing of VASL is committed).

Set ``ASL_VASL_VMOD`` (a real ``VASL.vmod``) and ``ASL_VASL_BOARDS`` (VASL's
boards folder; default: ``boards/`` beside the module), and for the engine
``ASL_VASSAL_HOME`` (a VASSAL installation: ``lib/Vengine.jar`` and its
``lib/*.jar``) or ``ASL_VASSAL_JAR``.  The three boards of
``ASL_VASL_TEST_BOARDS`` (default ``01,22,03``) are laid out as the stand-in
scenario of :mod:`tests.bridge.three_boards` (2×2, the second reversed) and
VASL's own classes build the terrain.  Without ``ASL_VASL_VMOD`` this module
defines no test.  docs/developers.md ("The live suite against your own VASSAL and VASL").

Every comparison reads the board archives as the terrain model the running
VASL reports (the snapshot's ``vasl_model``: ``"6.7"`` for VASL 6.7.x,
``"2020"`` for the VASL of 2020; :data:`asl_vassal_bridge.vasl.board.VaslModel`),
so each VASL is checked against the reading of its own model.
"""

from __future__ import annotations

import json
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.bridge.client import BridgeClient, BridgeRefused, connect
from asl_vassal_bridge.bridge.convert import LAYERS_FOR, map_layout, position_from_snapshot
from asl_vassal_bridge.bridge.phases import handle_button, run_phase
from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.fire import end_of_afph
from asl_vassal_bridge.core.hexes import Hex, HexNameError
from asl_vassal_bridge.core.position import Phase, Position
from asl_vassal_bridge.vasl.board import VaslModel
from asl_vassal_bridge.vasl.setup import VaslSetup
from tests.support import vassal_harness as vh

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

#: The change marks' inner colour (ChangeMarks.INNER).
MARK_RGB = 0xFFE000
#: Where the test puts fires: (board index, hex) — Woods or Open Ground, whatever the board has there.
FIRE_HEXES = ((0, "M4"), (0, "M5"), (1, "M4"), (1, "N5"), (2, "F5"), (2, "G5"))


def _fires(pos: Position) -> set[tuple[str, str]]:
    return {(pos.loc_name(f.location), f.kind.value) for f in pos.fires}


@contextmanager
def real_game(name: str, module_with_extension: Path, xvfb: vh.Xvfb, engine_dir: Path,
              boards: tuple[vh.BoardAt, ...], fires: tuple[tuple[int, str], ...]) -> Iterator[BridgeClient]:
    """The player's VASL on *boards*, a Flame placed by the bridge in each (board index, hex) of *fires*."""
    found = vh.real_vasl()
    assert found is not None
    vmod, boards_dir = found
    ext = module_with_extension.parent / f"{module_with_extension.stem}_ext" / "asl-fire-bridge.vmdx"
    mod, game = vh.real_vasl_game(engine_dir / name, vmod, boards_dir, boards, ext)
    jar = vh.build_support_jar(engine_dir, standins=False)
    player = vh.VassalPlayer(name, mod, game, jar, xvfb.display, engine_dir / name, None,
                             module_name=vh.module_name(vmod))
    try:
        player.wait_connection_file(180)
        client = connect(player.connection_file)
        end = time.time() + 240
        while time.time() < end:
            try:
                if client.status().get("started"):
                    break
            except BridgeRefused:
                pass
            time.sleep(0.5)
        place = [{"gpid": "192", "board": boards[i].name, "location": h} for i, h in fires]
        client.apply({"phase": None, "session": None, "expect": {}, "chat": [], "rolls": [], "remove": [],
                      "place": place, "layers": [], "summary": []})
        yield client
        client.close()
    finally:
        player.stop()


if vh.real_vasl() is not None:

    @pytest.fixture(scope="module")
    def vera(module_with_extension: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[
            tuple[BridgeClient, tuple[vh.BoardAt, ...], Path]]:
        found = vh.real_vasl()
        assert found is not None
        a, b, c = vh.real_vasl_boards()[:3]
        boards = (vh.BoardAt(a, 0, 0), vh.BoardAt(b, 1, 0, reversed=True), vh.BoardAt(c, 0, 1))
        with real_game("vera", module_with_extension, xvfb, engine_dir, boards, FIRE_HEXES) as client:
            yield client, boards, found[1]

    def test_real_vasl_cropped_board_is_named_as_vasls_grid_has_it(
            module_with_extension: Path, xvfb: vh.Xvfb, engine_dir: Path) -> None:
        a, b = vh.real_vasl_boards()[:2]
        boards = (vh.BoardAt(a, 0, 0, crop=(0, 0, 900, 645)), vh.BoardAt(b, 1, 0))
        with real_game("cora", module_with_extension, xvfb, engine_dir, boards, ((0, "M4"), (1, "M4"))) as client:
            snap = client.snapshot()
        (m,) = [m for m in snap["maps"] if m["terrain"]]
        first_of_b = min((h["col"], h["row"]) for h in m["terrain"]["hexes"] if h["board"] == b)
        assert first_of_b == (16, 0)  # VASL's grid: board b right after the cropped board's column P
        pos = position_from_snapshot(snap, phase=Phase.AFPH).position
        assert sorted(pos.loc_name(f.location) for f in pos.flames()) == sorted([f"{a}M4", f"{b}M4"])
        assert pos.map.layout.parse(f"{b}M4") == Hex.from_offset(16 + 12, 4)


    def test_real_vasl_hexes_carry_their_board_and_local_names(vera: Any) -> None:
        client, boards, _ = vera
        snap = client.snapshot()
        (m,) = [m for m in snap["maps"] if m["terrain"]]
        assert [(b["name"], b["reversed"]) for b in m["boards"]] == [(b.name, b.reversed) for b in boards]
        hexes = m["terrain"]["hexes"]
        names = Counter(h["name"] for h in hexes)
        assert names["C3"] == 3 and names["M4"] == 3  # board-local names, once per board
        on = {b.name: b for b in map_layout(m).boards}
        wrong = []
        for h in hexes:
            if h["board"] is None:
                continue
            grid = bridge_snapshot._grid_hex(h)
            assert grid is not None
            local = on[h["board"]].to_local(grid)
            if local is None or local.name != h["name"]:
                wrong.append((h["board"], h["name"], h["col"], h["row"], local))
        assert not wrong, wrong[:10]

    def test_real_vasl_terrain_of_each_board_matches_its_archive(vera: Any, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
        client, boards, boards_dir = vera
        found = vh.real_vasl()
        assert found is not None
        with zipfile.ZipFile(found[0]) as z:  # VASL's terrain types, from the module VASSAL runs
            (tmp_path / "SharedBoardMetadata.xml").write_bytes(z.read("boardData/SharedBoardMetadata.xml"))
        monkeypatch.setenv("ASL_FIRE_SHARED_METADATA", str(tmp_path / "SharedBoardMetadata.xml"))
        snap = client.snapshot()
        assert snap["maps"][0]["vasl_model"] in ("6.7", "2020")  # told from what VASL's classes offer
        reading = bridge_snapshot.snapshot_vasl_model(snap)
        model = bridge_snapshot.game_map_from_snapshot(snap)
        assert model is not None
        archives = bridge_snapshot.game_map_from_boards(snap, VaslSetup(None, boards_dir))  # the snapshot's model
        for b in boards:
            placement = next(p for p in model.layout.boards if p.name == b.name)
            same = total = 0
            for h in placement.hexes():
                local = placement.to_local(h)
                assert local is not None
                if local.col in (0, 32) or local.row in (0, 10) or h not in model or h not in archives:
                    continue  # edge half hexes: VASL keeps one board's, the archive reader the other's
                total += 1
                same += model.info(h).terrain == archives.info(h).terrain
            print(f"[model {reading}] board {b.name}{' (reversed)' if b.reversed else ''}: {same}/{total} hexes of "
                  "VASL's model have the terrain the project reads from the board archive")
            assert total > 250 and same == total  # the archive reader follows VASL's hex-terrain rules
        layout = ", ".join(f"{b.name}{' reversed' if b.reversed else ''}" for b in boards)
        _assert_surveys_match_the_archives(layout, snap["maps"][0]["terrain"]["hexes"], boards, boards_dir, reading)

    def test_real_vasl_fires_read_with_board_names_and_upkeep_places_them_on_their_board(vera: Any) -> None:
        client, boards, _ = vera
        snap = client.snapshot()
        for p in snap["pieces"]:
            if p["name"] == "Flame":
                assert p["location"] == f"{p['board']}{p['hex']}"  # VASL's own location names: board + local hex
        pos = position_from_snapshot(snap, phase=Phase.AFPH).position
        assert sorted(pos.loc_name(f.location) for f in pos.flames()) == sorted(
            f"{boards[i].name}{h}" for i, h in FIRE_HEXES)
        faces = [3, 1, 2, 1, 1, 2, 1, 1, 2, 2, 1, 3, 1, 1, 2, 1, 1, 1, 3, 1, 2, 1, 1, 1] * 3
        expected, _ = end_of_afph(pos, ScriptedDice(faces))
        client.jvm.aslbridgetest.TestHooks.scriptDice(",".join(map(str, faces)))
        try:
            res = run_phase(client, Phase.AFPH)
            assert res.applied is not None
            after = client.snapshot(layers_for=LAYERS_FOR)
            assert _fires(position_from_snapshot(after, phase=Phase.AFPH).position) == _fires(expected)
            placed = [p for p in after["pieces"] if p["id"] in set(res.applied["placed"])]
            added = {n for n, _ in _fires(expected) - _fires(pos)}
            assert {f"{p['board']}{p['hex']}" for p in placed} == added
        finally:
            client.jvm.aslbridgetest.TestHooks.scriptDice("")

    def test_real_vasl_upkeep_from_the_toolbar_menu_outlines_what_changed_on_vasls_map_b25_151(
            module_with_extension: Path, xvfb: vh.Xvfb, engine_dir: Path) -> None:
        """The week's toolbar menu, chat summary and change marks on VASL's own map (its ``ASLMap`` paints the
        board): an upkeep clicked in the "ASL fire" menu turns the Flames of both boards, one reversed, into
        Blazes; the chat's one message leads with the summary naming each on its board; the counters it placed
        are outlined where VASL draws them. A screenshot goes to ``screenshots/realvasl/``."""
        a, b = vh.real_vasl_boards()[:2]
        boards = (vh.BoardAt(a, 0, 0), vh.BoardAt(b, 1, 0, reversed=True))
        fires = ((0, "M3"), (0, "M4"), (1, "M6"), (1, "N6"))  # Woods and a wooden building on 01, Woods on 22
        with real_game("tess", module_with_extension, xvfb, engine_dir, boards, fires) as client:
            hooks = client.jvm.aslbridgetest.TestHooks
            pos = position_from_snapshot(client.snapshot(), phase=Phase.AFPH).position
            faces = [6] * 40
            expected, _ = end_of_afph(pos, ScriptedDice(faces))
            blazes = sorted(n for n, kind in _fires(expected) if kind == "blaze")
            assert blazes, f"no Location of {fires} on boards {a}, {b} can burn: choose others"
            hooks.scriptDice(",".join(map(str, faces)))
            chat_before = len(str(hooks.chatText()))
            client.listen(lambda action: handle_button(client, action))
            try:
                assert hooks.clickToolbar("aslfire-upkeep")
                end = time.time() + 120
                while time.time() < end and client.status().get("processed") != "PT1 AFPh":
                    time.sleep(0.2)
                assert client.status().get("processed") == "PT1 AFPh"
                time.sleep(0.5)  # the press's chat message and the map's repaint
            finally:
                client.api.clearListener()
                hooks.scriptDice("")
            after = client.snapshot(layers_for=LAYERS_FOR)
            assert _fires(position_from_snapshot(after, phase=Phase.AFPH).position) == _fires(expected)
            placed = {p["id"] for p in after["pieces"] if p["name"] == "Blaze"}
            assert sorted(f"{p['board']}{p['hex']}" for p in after["pieces"] if p["id"] in placed) == blazes
            marked = set(json.loads(str(client.api.marked())))
            assert placed <= marked, (placed, marked)
            for pid in placed:
                assert hooks.pixelsAround(pid, MARK_RGB, 8) > 0, pid  # outlined as VASL's map paints it
            chat = str(hooks.chatText())[chat_before:]
            summary = next(ln for ln in chat.splitlines() if "PT1 AFPh upkeep:" in ln)
            assert summary.startswith("- ASL fire bridge, PT1 AFPh upkeep: Blaze") and all(n in summary for n in blazes)
            shots = vh.REPO / "screenshots" / "realvasl"
            shots.mkdir(parents=True, exist_ok=True)
            assert hooks.centerOn(sorted(placed)[0])
            time.sleep(0.5)
            hooks.screenshot(str(shots / "upkeep-marks.png"))
            assert hooks.showToolbarMenu("aslfire-menu", True)
            hooks.screenshot(str(shots / "menu-open.png"))
            assert hooks.showToolbarMenu("aslfire-menu", False)

    def test_real_vasl_risk_layer_on_vasls_map_equals_fire_odds_b25_6(
            module_with_extension: Path, xvfb: vh.Xvfb, engine_dir: Path) -> None:
        """The Fire risk layer on VASL's own map, one board reversed: its numbers are Fire odds', each Flame's
        Flame→Blaze shade lies on the Flame's counter, and a screenshot shows it (``screenshots/realvasl/``)."""
        from asl_vassal_bridge.bridge.report import odds_lines

        a, b = vh.real_vasl_boards()[:2]
        boards = (vh.BoardAt(a, 0, 0), vh.BoardAt(b, 1, 0, reversed=True))
        fires = ((0, "M3"), (0, "M4"), (1, "M6"), (1, "N6"))
        with real_game("rita", module_with_extension, xvfb, engine_dir, boards, fires) as client:
            hooks = client.jvm.aslbridgetest.TestHooks
            client.listen(lambda action: handle_button(client, action))
            try:
                assert hooks.clickToolbar("aslfire-risk")
                end = time.time() + 120
                while json.loads(str(client.api.riskLayer()))["updates"] == 0 and time.time() < end:
                    time.sleep(0.1)
                layer = json.loads(str(client.api.riskLayer()))
                snap = client.snapshot()
                flames = [p for p in snap["pieces"] if p["name"] == "Flame"]
                shots = vh.REPO / "screenshots" / "realvasl"
                shots.mkdir(parents=True, exist_ok=True)
                assert hooks.centerOn(flames[0]["id"])
                time.sleep(0.5)
                hooks.screenshot(str(shots / "risk-layer.png"))
                assert hooks.clickToolbar("aslfire-risk")
            finally:
                client.api.clearListener()
            pos = position_from_snapshot(snap, phase=Phase.AFPH).position
            odds: dict[str, int] = {}
            for line in odds_lines(pos)[1:]:
                name, rest = line.split(":", 1)
                if "%" in rest:
                    h = name.split()[-1].split(".")[0]
                    odds[h] = max(odds.get(h, 0), int(rest.rsplit("%", 1)[0].rsplit(" ", 1)[1]))
            by_hex = {s["tip"].split(":", 1)[0]: s for s in layer["shades"]}
            assert layer["status"] == "" and by_hex
            assert {h: round(s["chance"] * 100) for h, s in by_hex.items()} == {h: v for h, v in odds.items() if v}
            for f in flames:
                name = f"{f['board']}{f['hex']}"
                if name in by_hex:  # a Flame that can become a Blaze (B25.15): its shade on its counter
                    s = by_hex[name]
                    assert abs(s["x"] - f["x"]) <= 1 and abs(s["y"] - f["y"]) <= 1, (name, s, f)

    #: Crops as a saved game keeps them (x, y, width, height in board pixels; -1: to the board's edge), with Flames
    #: the bridge places on hexes each crop keeps: (boards, fires); the second board is the first's neighbour.
    CROPS: dict[str, tuple[tuple[tuple[int, int, bool, tuple[int, int, int, int] | None], ...],
                           tuple[tuple[int, str], ...]]] = {
        "one board, columns Q–GG": (((0, 0, False, (900, 0, 900, -1)),), ((0, "S5"),)),
        "columns A–P (the picker's) then a board": (((0, 0, False, (0, 0, 844, -1)), (1, 0, False, None)),
                                                    ((0, "M4"), (1, "M4"))),
        "columns A–Q then a board": (((0, 0, False, (0, 0, 900, -1)), (1, 0, False, None)), ((0, "M4"), (1, "M4"))),
        "a board then columns Q–GG": (((0, 0, False, None), (1, 0, False, (900, 0, 900, -1))),
                                      ((0, "M4"), (1, "S5"))),
        "rows 1–5 over a board": (((0, 0, False, (0, 0, -1, 322)), (0, 1, False, None)), ((0, "M4"), (1, "M4"))),
        "reversed, columns A–Q, then a board": (((0, 0, True, (0, 0, 900, -1)), (1, 0, False, None)),
                                                ((0, "C2"), (1, "M4"))),
        "one board, pixels (450, 100, 600, 400)": (((0, 0, False, (450, 100, 600, 400)),), ((0, "M5"),)),
        "one board, pixels (500, 100, 600, 400)": (((0, 0, False, (500, 100, 600, 400)),), ((0, "M5"),)),
        "one board reversed, pixels (450, 100, 600, 400)": (((0, 0, True, (450, 100, 600, 400)),), ((0, "M5"),)),
        "one board reversed, pixels (500, 100, 600, 400)": (((0, 0, True, (500, 100, 600, 400)),), ((0, "M5"),)),
        "one board, pixels (560, 100, 600, 400)": (((0, 0, False, (560, 100, 600, 400)),), ((0, "M5"),)),
        "pixels (450, 100, 600, 400) then a board": (((0, 0, False, (450, 100, 600, 400)), (1, 0, False, None)),
                                                     ((0, "M5"), (1, "M4"))),
        "columns A–Q, pixel rows 100–500, then a board": (((0, 0, False, (0, 100, 900, 400)), (1, 0, False, None)),
                                                          ((0, "M5"), (1, "M4"))),
    }

    def _assert_surveys_match_the_archives(case: str, hexes: list[dict[str, Any]], boards: tuple[vh.BoardAt, ...],
                                           boards_dir: Path, reading: VaslModel,
                                           by_place: dict[int, tuple[str, str] | None] | None = None) -> None:
        """Each pixel survey of VASL's model (road and woods hexes) whose hex lies wholly within its board's crop
        counts the shares of the terrain types the board-archive reader counts on the whole board: the extension
        surveys where VASL's grid holds the hex's pixels, even where a crop does not start on a hex centre."""
        from asl_vassal_bridge.core.hexes import BoardPlacement
        from asl_vassal_bridge.core.values import replace
        from asl_vassal_bridge.vasl.board import crop_window, read_board
        from asl_vassal_bridge.vasl.terrain import drawn_shares

        same = total = 0
        wrong = []
        for b in boards:
            arc = read_board(boards_dir / (b.name if b.name.startswith("bd") else f"bd{b.name}"), model=reading)
            geo = arc.geometry
            x, y, w, h = b.crop or (0, 0, -1, -1)
            w = geo.grid_width - x if w == -1 else w
            h = geo.grid_height - y if h == -1 else h
            window = crop_window(arc, BoardPlacement(b.name), b.crop) if (
                reading == "6.7" and len(boards) == 1 and b.crop is not None and not b.reversed) else None
            if window is not None:  # VASL 6.7.x reads a pixel crop's own pixels, its hexes named from CropValues
                wgeo = window.board.geometry
                local = {hx["name"]: window.placement.parse_local(hx["name"]) for hx in hexes}
                named = {n: window.board.hexes[wgeo.name(lc.col, lc.row - 1 + lc.col % 2)] for n, lc in local.items()}
                arc = replace(window.board, hexes=named)
                x = y = 0
            reach = (geo.hex_width ** 2 + geo.hex_height ** 2 / 4) / (2 * geo.hex_width) + 1
            for hx in hexes:
                on = (by_place or {}).get(id(hx)) or (hx["board"], hx["name"])  # the bridge's name, by place
                if on[0] != b.name or not hx.get("pixels"):
                    continue
                ht = arc.hexes[on[1]]
                if not (x + reach <= ht.x <= x + w - 1 - reach and y + geo.hex_height / 2 + 1 <= ht.y
                        <= y + h - 2 - geo.hex_height / 2):
                    continue  # a hex the crop cuts: VASL's grid holds only part of its pixels
                total += 1
                shares, _ = drawn_shares({str(n): int(c) for n, c in hx["pixels"].items()})
                ours = {n: round(v, 6) for n, v in shares if n != ht.terrain.name and v >= 0.01}
                theirs = {n: round(v, 6) for n, v in ht.others}
                same += ours == theirs
                if ours != theirs:
                    wrong.append((hx["name"], ours, theirs))
        print(f"[model {reading}] {case}: {same}/{total} pixel surveys of VASL's model (road and woods hexes wholly "
              "within the crop) count the board-archive reader's shares")
        assert total > 0 and not wrong, wrong[:5]

    def _assert_rows_crop_is_read_by_place(snap: dict[str, Any], vasl: dict[Hex | None, dict[str, Any]],
                                           printed: Any, note: str, boards: tuple[vh.BoardAt, ...]) -> None:
        """VASL 6.7.x keeps int(322 / 64.5) = 4 grid rows of the upper board, places the lower one at
        Map.gridToHex(0, 322) = row 4 and names its hexes one row up over unchanged pixels (BoardArchive
        .addLOSDatatoVASLMap, index id 60235390895; docs/bridge.md): its A1 lies over the upper board's A5.  VASSAL
        names pieces by the printed hexes, so the bridge reads VASL's model by place, names each hex as VASSAL
        prints it and says so once."""
        upper, lower = boards[0].name, boards[1].name
        assert "names the hexes of boards" in note and f" {upper}" in note and f" {lower}" in note, note
        shifted = same = neither = 0
        for h, hx in vasl.items():
            on = bridge_snapshot.board_hex(printed.layout, h)
            assert on is not None
            if on[0] == lower and hx["board"] == lower and hx["name"] != _row_below(on[1]):
                # the last grid row: the map-wide grid's own name, no board's (not the board's hex at all)
                assert hx["row"] == max(v["row"] for v in vasl.values() if v["col"] == hx["col"]), (hx, on)
                neither += 1
            elif on[0] == lower and hx["board"] == lower:  # VASL's name: the printed one a row down
                shifted += 1
            same += on == (hx["board"], hx["name"])
        a5 = printed.layout.parse(f"{upper}A5")
        assert (vasl[a5]["board"], vasl[a5]["name"]) == (upper, "A1")  # the lower board's A1 over the upper's A5
        print(f"rows 1–5 over a board: VASL names {shifted} hexes of board {lower} one row up (and {upper}'s row 5 "
              f"as {lower}'s row 1), {neither} of its last grid row by the map-wide grid's own names; {same} hexes "
              f"keep the printed name; the bridge: {note}")
        assert shifted > 250 and neither == 33
        pos = position_from_snapshot(snap, phase=Phase.AFPH).position
        assert note in pos.notes

    def _row_below(name: str) -> str:
        letters = name.rstrip("0123456789")
        return f"{letters}{int(name[len(letters):]) + 1}"

    def _assert_rows_off_the_grid_are_read_from_the_archives(snap: dict[str, Any], vasl: dict[Any, Any], live: Any,
                                                             note: str, boards: tuple[vh.BoardAt, ...],
                                                             boards_dir: Path) -> None:
        """VASL 6.7.x builds a map-wide grid for board 01 cropped to pixel rows 100–500 beside a board, but 100 px
        is 1.55 rows: its grid's hexes lie about half a hex off the printed ones (the hex at printed 01A3's place is
        29 px from its centre) and read terrain between them.  The bridge says so and, given the board archives,
        reads the map from them (each hex at its printed centre, as VASSAL names it)."""
        first = boards[0].name
        assert f"lays its hexes between the printed hexes of board {first} " in note, note
        game = position_from_snapshot(snap, vasl=VaslSetup(None, boards_dir), phase=Phase.AFPH)
        assert game.notes[0] == f"{note}: terrain read from the board archives in {boards_dir}", game.notes
        gm = game.position.map
        assert set(gm.hexes) == set(live.hexes) and all(gm.info(h) == live.info(h) for h in gm.hexes)
        bare = position_from_snapshot(snap, phase=Phase.AFPH)
        assert "give the board archives' folder" in bare.notes[0]
        print(f"{len(vasl)} hexes in VASL's model; the bridge: {game.notes[0]}")

    @pytest.mark.parametrize("case", list(CROPS))
    def test_real_vasl_cropped_boards_match_the_archive_readers_map(
            case: str, module_with_extension: Path, xvfb: vh.Xvfb, engine_dir: Path, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> None:
        """VASL's own model of cropped boards (names, places, terrain, elevation) against the map the project reads
        from the board archives for the same saved game (position_from_vsav) and the same live game
        (game_map_from_boards); Flames the bridge placed are read on the same hexes."""
        from asl_vassal_bridge.vasl.crop import CropError
        from asl_vassal_bridge.vasl.module import read_module
        from asl_vassal_bridge.vasl.position import position_from_vsav
        from tests.vasl.builders import make_vsav, placed

        found = vh.real_vasl()
        assert found is not None
        names = vh.real_vasl_boards()[:2]
        spec, fires = CROPS[case]
        boards = tuple(vh.BoardAt(names[i], x, y, rev, crop) for i, (x, y, rev, crop) in enumerate(spec))
        with zipfile.ZipFile(found[0]) as z:  # VASL's terrain types, from the module VASSAL runs
            (tmp_path / "SharedBoardMetadata.xml").write_bytes(z.read("boardData/SharedBoardMetadata.xml"))
        monkeypatch.setenv("ASL_FIRE_SHARED_METADATA", str(tmp_path / "SharedBoardMetadata.xml"))
        slug = "crop" + str(list(CROPS).index(case))
        with real_game(slug, module_with_extension, xvfb, engine_dir, boards, fires) as client:
            snap = client.snapshot()
        reading = bridge_snapshot.snapshot_vasl_model(snap)
        line = "bd\t" + "bd\t".join(f"{b.x}\t{b.y}\t{'r' if b.reversed else ''}{b.name}\t"
                                      + "".join(f"{v}\t" for v in b.crop or ()) for b in boards)
        vasl65 = read_module(vh.VASL_BUILDFILE)
        flames = [p for p in snap["pieces"] if p["name"] == "Flame"]
        pieces = [(p["id"], *placed(vasl65.by_gpid["192"], int(p["x"]), int(p["y"]))) for p in flames]
        vsav = tmp_path / "game.vsav"
        vsav.write_bytes(make_vsav(pieces, boards=line))
        (m,) = snap["maps"]
        if not m["terrain"]:  # VASL turned its LOS off: the project refuses the same crops, naming them
            print(f"{case}: VASL builds no LOS map; the project: ", end="")
            with pytest.raises(CropError, match="cannot merge the two hex grids") as e:
                position_from_vsav(vsav, found[1], model=reading)
            with pytest.raises(bridge_snapshot.NoTerrain, match="cannot merge the two hex grids"):
                bridge_snapshot.game_map_from_boards(snap, VaslSetup(None, found[1]))
            print(str(e.value).split(": ", 1)[1])
            return
        terrain = m["terrain"]
        shift = 1 if bridge_snapshot._long_even_columns(terrain) else 0
        vasl = {bridge_snapshot._grid_hex(h, shift): h for h in terrain["hexes"] if h["board"] is not None}
        saved = position_from_vsav(vsav, found[1], model=reading)
        live = bridge_snapshot.game_map_from_boards(snap, VaslSetup(None, found[1]))
        model = bridge_snapshot.game_map_from_snapshot(snap)
        assert model is not None
        assert isinstance(model.layout, bridge_snapshot.GridLayout)
        note = model.layout.note
        if case == "rows 1–5 over a board" and reading == "6.7":  # the VASL of 2020 names them as printed
            _assert_rows_crop_is_read_by_place(snap, vasl, saved.map, note, boards)
        elif case == "columns A–Q, pixel rows 100–500, then a board":
            _assert_rows_off_the_grid_are_read_from_the_archives(snap, vasl, live, note, boards, found[1])
            return
        else:
            assert not note, note
        for label, gm in (("position_from_vsav", saved.map), ("game_map_from_boards", live)):
            assert set(gm.hexes) == set(vasl), f"{label}: {set(gm.hexes) ^ set(vasl)}"
            claims = {h: sum(b.to_local(h) is not None for b in gm.layout.boards) for h in gm.hexes}
            prefix = len(boards) > 1
            same_name = same_place = same_terrain = total = shared = 0
            differ = []
            misnamed: list[tuple[str, str]] = []
            for h, hx in vasl.items():
                vname = f"{hx['board']}{hx['name']}" if prefix else hx["name"]
                if note:  # VASL misnames the hexes: the bridge names each by its place, as VASSAL does
                    vname = model.hex_name(h)
                try:
                    same_place += gm.layout.parse(vname) == h
                except HexNameError:
                    misnamed.append(("(cropped off)", vname))
                    continue
                if claims[h] > 1:  # an edge hex two boards share: VASL names it on the later board, the project
                    shared += 1    # on the earlier one, as for uncropped boards
                    continue
                total += 1
                same_name += gm.hex_name(h) == vname
                if gm.hex_name(h) != vname:
                    misnamed.append((gm.hex_name(h), vname))
                ours, theirs = gm.info(h).terrain, model.info(h).terrain
                if ours == theirs and gm.info(h).elevation == int(hx["elevation"]):
                    same_terrain += 1
                else:
                    differ.append((vname, theirs.name, ours.name, hx))
            print(f"[model {reading}] {case}, {label}: {len(vasl)} hexes in VASL's model "
                  f"({terrain['width']} × {terrain['height']} grid"
                  f"{', its even columns the long ones' if shift else ''}), all at VASL's places: "
                  f"{same_place}/{len(vasl)}; names {same_name}/{total}, terrain and "
                  f"elevation {same_terrain}/{total} (and {shared} edge hexes two boards share)")
            if case == "rows 1–5 over a board" and reading == "6.7":
                # the board below the row crop starts at 322 px, VASL's grid row 5 at 322.5: VASL samples each of its
                # hex centres half a pixel lower than the board's own grid, and U8's centre falls off its road
                assert [d[:3] for d in differ] == [(f"{boards[1].name}U8", "OPEN_GROUND", "ROAD")], differ
                same_terrain += 1
            if case == "columns A–Q, pixel rows 100–500, then a board":
                print(f"  names differing: {misnamed}; terrain differing: {[d[:3] for d in differ]}")
            assert same_place == len(vasl) and same_name == total and same_terrain == total, (misnamed, differ)
        by_place = {id(hx): bridge_snapshot.board_hex(model.layout, h) for h, hx in vasl.items()}
        _assert_surveys_match_the_archives(case, terrain["hexes"], boards, found[1], reading, by_place)
        vassal = sorted(f"{p['board']}{p['hex']}" if len(boards) > 1 else p["hex"] for p in flames)
        assert sorted(saved.loc_name(f.location) for f in saved.flames()) == vassal
        pos = position_from_snapshot(snap, phase=Phase.AFPH).position
        assert sorted(pos.loc_name(f.location) for f in pos.flames()) == vassal
        fallback = position_from_snapshot(snap, game_map=live, phase=Phase.AFPH).position
        assert sorted(fallback.loc_name(f.location) for f in fallback.flames()) == vassal

