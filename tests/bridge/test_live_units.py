"""Units, upper building levels, burning wrecks and the game's own module, against a real VASSAL engine.

The engine is VASSAL's (the 3.6 jar, under Xvfb) with the extension the
project builds; the counters are VASL's, written as VASL 6.5 defines them
(tests/support/vasl_counters.py and unit_slots.py), the terrain the test
stand-in of VASL's model (tests/support/java: Woods in C2–E3, a Wooden
Building with one upper level in G4).  The module carries a "VASL Counters"
palette as VASL's does (Axis O/B / German / SQ and Veh), so the bridge learns
its counters from the module file VASSAL opened, not from the bundled 6.5
catalogue.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.convert import LiveGame, batch_for, position_from_snapshot
from asl_vassal_bridge.bridge.gamemodule import counter_data
from asl_vassal_bridge.bridge.phases import handle_button
from asl_vassal_bridge.bridge.rtph import layers_for_units
from asl_vassal_bridge.core.position import Fire, FireKind, Location, Phase, UnitKind
from tests.support import vassal_harness as vh

from .conftest import started_player
from .unit_slots import PZ_IB, PZ_IB_WRECK, SQUAD, module_with_units
from .unit_slots import piece as unit_piece

pytestmark = [pytest.mark.vassal, pytest.mark.slow]


@pytest.fixture(scope="module")
def units_module(module_with_extension: Path, engine_dir: Path) -> Path:
    """The test module with VASL's palette layout, Level markers and level Blazes, and the built extension."""
    path = module_with_units(module_with_extension, engine_dir / "unitsgame.vmod")
    ext = engine_dir / "unitsgame_ext"
    ext.mkdir(exist_ok=True)
    built = module_with_extension.parent / f"{module_with_extension.stem}_ext" / "asl-fire-bridge.vmdx"
    shutil.copy(built, ext / built.name)
    return path


def _plain(pid: str, hex_name: str, name: str) -> vh.GamePiece:
    """A bare piece named *name* (a ``?`` concealment counter stands in as one: VASL's class is not here)."""
    return vh.GamePiece(pid, hex_name, type=f"piece;;;;{name}", state="@XY@;;0")


def unit_pieces() -> list[vh.GamePiece]:
    """Bottom first in each hex (the saved game puts each hex's pieces in one VASSAL Stack)."""
    return [
        vh.GamePiece("blaze-d2", "D2", gpid="195"), vh.GamePiece("sq-d2", "D2", gpid=SQUAD),
        vh.GamePiece("blaze-c3", "C3", gpid="195"), vh.GamePiece("sq-c3", "C3", gpid=SQUAD),
        vh.GamePiece("pin-c3", "C3", gpid="1"),  # VASL's Pin marker on the squad
        vh.GamePiece("blaze-e3", "E3", gpid="195"), vh.GamePiece("sq-e3", "E3", gpid=SQUAD),
        _plain("qm-e3", "E3", "?"),  # concealed: neither it nor what is under it is ever reported
        unit_piece("wreck-h2", "H2", PZ_IB_WRECK), vh.GamePiece("blaze-h2", "H2", gpid="195"),
        unit_piece("tank-j5", "J5", PZ_IB),
        vh.GamePiece("sq-j4", "J4", gpid=SQUAD), vh.GamePiece("mol-j4", "J4", gpid="490"),
        vh.GamePiece("sq-a1", "A1", gpid=SQUAD),
        vh.GamePiece("mine-b1", "B1", type="obs;77,130;;Conceal;G;?;player:\tpiece;;;;My Concealed Squad",
                     state="someone-else\t@XY@;;0"),  # masked; the test makes it masked by this player
    ]


@pytest.fixture(scope="module")
def dora(units_module: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[BridgeClient]:
    with started_player("dora", units_module, support_jar, xvfb.display, engine_dir / "units",
                        pieces=unit_pieces(), stacks=True) as (_, client):
        yield client


def _chat(client: BridgeClient) -> str:
    return str(client.jvm.aslbridgetest.TestHooks.chatText())


def _live(client: BridgeClient, phase: Phase = Phase.AFPH) -> LiveGame:
    data = counter_data({"module": {"path": client.module_path}})
    snap = client.snapshot(layers_for=layers_for_units(data))
    return position_from_snapshot(snap, phase=phase, counters=data)


def test_live_bridge_learns_the_module_file_and_reads_its_counters(dora: BridgeClient, units_module: Path) -> None:
    assert dora.module_path is not None and Path(dora.module_path).resolve() == units_module.resolve()
    snap = dora.snapshot(with_terrain=False)
    assert snap["module"]["path"] == dora.module_path
    data = counter_data(snap)
    assert data.source == "module" and str(units_module.name) in data.description
    assert counter_data(snap) is data  # parsed once per module file, not per press
    live = _live(dora)
    assert live.catalogue_source == data.description
    units = {u.id: u for u in live.position.units}
    assert units["sq-a1"].name == "German 4-6-7 1sq" and units["sq-a1"].side == "Axis"
    assert units["sq-a1"].kind is UnitKind.SQUAD and not units["sq-a1"].broken
    assert units["tank-j5"].kind is UnitKind.VEHICLE  # known by its gpid from the module's Veh palette
    assert units["sq-c3"].pinned and not units["sq-d2"].pinned  # VASL's Pin marker above it
    assert "sq-e3" not in units and "qm-e3" not in units  # concealed: never in a Position


def test_live_burning_wreck_is_read_from_vasl_counters_b25_14(dora: BridgeClient) -> None:
    pos = _live(dora).position
    h2 = Location(pos.map.parse_hex("H2"))
    assert [w.location for w in pos.burning_wrecks()] == [h2]
    assert pos.blaze_at(h2) is None  # the Blaze on the Wreck is the wreck's, not a terrain Blaze


def test_rtph_button_reports_each_unit_in_a_blaze_in_the_chat_b25_4(dora: BridgeClient) -> None:
    client = dora
    before = _chat(client)
    client.listen(lambda action: handle_button(client, action))
    try:
        client.press("rtph")
        end = time.time() + 30
        while "units in Blazes" not in _chat(client)[len(before):] and time.time() < end:
            time.sleep(0.1)
    finally:
        client.api.clearListener()
    new = _chat(client)[len(before):]
    # one chat message, a line per unit: its Blaze's Location first, the unit as its counter names it
    lines = [line.strip() for line in re.split(r"\n|\s?\xa0\xa0\xa0", new) if " Blaze: " in line]
    assert len(lines) == 2, new  # D2 and C3; the concealed squad in E3 is not told
    d2 = next(line for line in lines if line.startswith("D2 Blaze: "))
    c3 = next(line for line in lines if line.startswith("C3 Blaze: "))
    assert "German 4-6-7 1sq (Axis)" in d2 and "break voluntarily" in d2 and "B25.4" in d2
    assert "pinned" in c3 and "eliminated" in c3
    assert "E3" not in new.split("units in Blazes", 1)[1]
    client.jvm.aslbridgetest.TestHooks.undo()


def test_fire_upkeep_ends_with_the_units_in_blazes_b25_4(dora: BridgeClient) -> None:
    from asl_vassal_bridge.bridge.phases import run_phase

    before = _chat(dora)
    res = run_phase(dora, Phase.AFPH)  # VASSAL's own dice: whatever spreads, D2 and C3 still blaze
    assert res.applied is not None
    new = _chat(dora)[len(before):]
    # each unit by its counter's name, its Blaze's Location first (the piece id only between two of one name)
    assert "D2 Blaze: German 4-6-7 1sq (Axis" in new and "C3 Blaze: German 4-6-7 1sq (Axis" in new
    assert "B25.4" in new and "sq-e3" not in new and "E3 Blaze" not in new
    dora.jvm.aslbridgetest.TestHooks.undo()


def test_asl_fire_bridge_rtph_command(dora: BridgeClient, capsys: Any, tmp_path: Path) -> None:
    from asl_vassal_bridge.cli import main

    token = tmp_path / "token"
    token.write_text(dora.info.token)
    token.chmod(0o600)
    rc = main(["bridge", "--port", str(dora.info.port), "--token-file", str(token), "rtph"])
    out = capsys.readouterr().out
    assert rc == 0 and "D2 Blaze: German 4-6-7 1sq" in out and "B25.4" in out and "the game's module" in out
    dora.jvm.aslbridgetest.TestHooks.undo()


def test_live_mol_burning_wreck_blaze_goes_on_the_vehicles_stack_b25_14(dora: BridgeClient) -> None:
    from asl_vassal_bridge.bridge.attacks import AttackRequest, run_attack

    client = dora
    tank = next(p for p in client.snapshot(with_terrain=False)["pieces"] if p["id"] == "tank-j5")
    before = _chat(client)
    client.jvm.aslbridgetest.TestHooks.scriptDice("1,1,1,1,1")  # MOL Check 1, IFT DR 1,1, To Kill DR 1,1
    res = run_attack(client, AttackRequest("mol", "sq-j4", "tank-j5",
                                           options={"predesignated": True, "basic_tk": 8}))
    assert any(c.kind.value == "burning-wreck" for c in res.outcome.consequences)
    (placed,) = res.applied["placed"]
    blaze = next(p for p in client.snapshot(with_terrain=False)["pieces"] if p["id"] == placed)
    assert blaze["name"] == "Blaze" and (blaze["x"], blaze["y"]) == (tank["x"], tank["y"])  # on the tank's stack
    assert "Burning Wreck" in _chat(client)[len(before):] and "Wreck" in _chat(client)[len(before):]
    client.jvm.aslbridgetest.TestHooks.undo()


def test_live_broken_squad_is_read_by_its_name_when_its_layers_stay_in_vassal(dora: BridgeClient) -> None:
    from asl_vassal_bridge.bridge.convert import LAYERS_FOR
    from asl_vassal_bridge.vasl.pieces import broken_layer_change

    sq = next(p for p in dora.snapshot(with_terrain=False)["pieces"] if p["id"] == "sq-a1")
    flip = broken_layer_change(sq)
    assert flip is not None
    dora.apply({"phase": None, "session": None, "expect": {"sq-a1": sq["rev"]}, "chat": [], "rolls": [],
                "remove": [], "place": [], "layers": [flip], "summary": []})
    snap = dora.snapshot(layers_for=LAYERS_FOR)  # as the upkeep reads the game: no unit layers
    named = next(p for p in snap["pieces"] if p["id"] == "sq-a1")
    assert named["layers"] == [] and named["name"].lower().startswith("broken ")
    units = {u.id: u for u in position_from_snapshot(snap, counters=counter_data(snap)).position.units}
    assert units["sq-a1"].broken and units["sq-a1"].name == "German 4-6-7 1sq"
    dora.jvm.aslbridgetest.TestHooks.undo()


def _fires(live: LiveGame) -> set[tuple[str, str]]:
    return {(live.position.loc_name(f.location), f.kind.value) for f in live.position.fires}


def test_upper_level_flame_round_trip_level_marker_b25_2(dora: BridgeClient) -> None:
    live = _live(dora)
    g4_1 = Location(live.position.map.parse_hex("G4"), 1)
    assert g4_1 in live.position.map.locations(g4_1.hex)
    new = live.position.add_fire(Fire(g4_1, FireKind.FLAME))
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    gpids = sorted(p["gpid"] for p in batch["place"])
    assert gpids == ["167", "192"]  # the Flame with VASL's Level 1 marker
    dora.apply(batch)
    back = _live(dora)
    assert _fires(back) == _fires(live) | {("G4.1", "flame")}  # the same Location, read back
    pieces = [p for p in back.snapshot["pieces"] if p["location"] == "G4"]
    assert len({(p["x"], p["y"]) for p in pieces}) == 1 and len(pieces) == 2  # one stack: Flame + marker
    dora.jvm.aslbridgetest.TestHooks.undo()
    assert _fires(_live(dora)) == _fires(live)


def test_two_level_blaze_counter_round_trip_b25_2(dora: BridgeClient) -> None:
    live = _live(dora)
    g4 = live.position.map.parse_hex("G4")
    new = live.position.add_fire(Fire(Location(g4), FireKind.BLAZE)).add_fire(Fire(Location(g4, 1), FireKind.BLAZE))
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    assert [p["gpid"] for p in batch["place"]] == ["198"]  # VASL's 2-level Blaze, as players mark it
    dora.apply(batch)
    back = _live(dora)
    assert _fires(back) == _fires(live) | {("G4", "blaze"), ("G4.1", "blaze")}
    assert [p["name"] for p in back.snapshot["pieces"] if p["location"] == "G4"] == ["2-level Blaze"]
    # and back again: level 1 no longer burns → the 2-level Blaze goes, a plain Blaze marks the ground level
    ground_only = back.position.remove_fires(Location(g4, 1))
    dora.apply(batch_for(back, ground_only, phase_key=None, session=None, roll_texts=[]))
    assert _fires(_live(dora)) == _fires(live) | {("G4", "blaze")}
    dora.jvm.aslbridgetest.TestHooks.undo()
    dora.jvm.aslbridgetest.TestHooks.undo()
    assert _fires(_live(dora)) == _fires(live)


def test_live_two_flame_counters_in_one_hex_each_roll_and_the_upkeep_marks_what_the_rules_say_b25_15(
        dora: BridgeClient) -> None:
    """Two Flame counters placed in C2 read back as two Flames, each with its own Flame→Blaze DR (B25.151) on
    VASSAL's dice; whatever the dice say, the game read back after the upkeep's batch holds the rules' fires, a
    Location's Flames counted (B25.15: a Blaze removes them all, an extinguished Flame only its own counter)."""
    from collections import Counter

    from asl_vassal_bridge.bridge.client import VassalDice
    from asl_vassal_bridge.bridge.rules import explain_rolls
    from asl_vassal_bridge.core.fire import end_of_afph

    def fires(pos: Any) -> Counter[tuple[str, str]]:
        return Counter((pos.loc_name(f.location), f.kind.value) for f in pos.fires)

    live = _live(dora)
    c2 = Location(live.position.map.parse_hex("C2"))
    assert not live.position.is_burning(c2)
    two = live.position.add_fire(Fire(c2, FireKind.FLAME)).add_fire(Fire(c2, FireKind.FLAME))
    dora.apply(batch_for(live, two, phase_key=None, session=None, roll_texts=[]))
    placed = _live(dora)
    assert len(placed.position.flames_at(c2)) == 2 and len(placed.fire_pieces[(c2, FireKind.FLAME)]) == 2
    dice = VassalDice(dora)
    new, report = end_of_afph(placed.position, dice)
    drs = [p for p, _faces in dice.rolled if p.startswith("Flame to Blaze C2 (")]
    first = next(e for e in report.events if e.rule == "B25.151" and e.location == "C2")
    assert len(drs) == (1 if first.kind == "blaze" else 2)  # a Blaze ends the Location's DRs (B25.15)
    dora.apply(batch_for(placed, new, phase_key=None, session=dice.session,
                         roll_texts=explain_rolls(dice.rolled, report)))
    back = _live(dora)
    assert fires(back.position) == fires(new)
    dora.jvm.aslbridgetest.TestHooks.undo()
    dora.jvm.aslbridgetest.TestHooks.undo()
    assert fires(_live(dora).position) == fires(live.position)


def test_a_piece_this_player_masked_never_leaves_vassal(dora: BridgeClient) -> None:
    """Concealed by this very player (VASL's Concealable is VASSAL's Mask): visible to him, never in a snapshot."""
    gm = dora.jvm.VASSAL.build.GameModule.getGameModule()
    piece = gm.getGameState().getPieceForId("mine-b1")
    piece.setProperty("obs;", gm.getUserId())  # Properties.OBSCURED_BY: now masked by me
    try:
        assert not piece.getProperty("Obscured") and piece.getProperty("obs;")  # masked by him, seen by him…
        snap = dora.snapshot(with_terrain=False)
        assert "mine-b1" not in {p["id"] for p in snap["pieces"]}  # … but it never leaves VASSAL
        assert "mine-b1" not in str(dora.api.selection())
    finally:
        piece.setProperty("obs;", "someone-else")


def test_a_piece_masked_between_two_snapshots_leaves_the_second(dora: BridgeClient) -> None:
    """The extension keeps each piece's JSON between snapshots: a piece masked (or unmasked) since is not sent as
    it was (A12: nothing concealed leaves VASSAL)."""
    gm = dora.jvm.VASSAL.build.GameModule.getGameModule()
    piece = gm.getGameState().getPieceForId("mine-b1")
    try:
        piece.setProperty("obs;", None)  # unmasked: an ordinary visible counter
        assert "mine-b1" in {p["id"] for p in dora.snapshot(with_terrain=False)["pieces"]}
        piece.setProperty("obs;", "someone-else")  # masked again by another player
        assert "mine-b1" not in {p["id"] for p in dora.snapshot(with_terrain=False)["pieces"]}
        piece.setProperty("obs;", None)
        assert "mine-b1" in {p["id"] for p in dora.snapshot(with_terrain=False)["pieces"]}
    finally:
        piece.setProperty("obs;", "someone-else")


def test_snapshot_never_carries_the_concealed_counters_units(dora: BridgeClient) -> None:
    snap = dora.snapshot(with_terrain=False)
    e3 = [p["id"] for p in snap["pieces"] if p["location"] == "E3"]
    assert "blaze-e3" in e3 and re.search("sq-e3", str(_live(dora).position.units)) is None


# --- the three-board scenario (tests/bridge/three_boards.py) with units and an upper-level fire -------------

@pytest.fixture(scope="module")
def fynn(three_board_module: Path, api_jar: Path, vasl_api: str, xvfb: vh.Xvfb,
         engine_dir: Path) -> Iterator[BridgeClient]:
    """bd01 | bd22 (reversed) over bd03: the scenario's fires, a squad in bd22 M5's Blaze, a Flame on level 1
    of bd22 P6 (VASL's Level marker with it), a pinned squad beside it; on the stand-ins of VASL 6.7.x's API
    and of 2020's (``vasl_api``: the upper levels are read through Location's renamed level getter)."""
    from .three_boards import BOARDS, fires

    mod = module_with_units(three_board_module, engine_dir / "threeunits.vmod")
    ext = engine_dir / "threeunits_ext"
    ext.mkdir(exist_ok=True)
    shutil.copy(three_board_module.parent / "threeboards_ext" / "asl-fire-bridge.vmdx", ext)
    mine = [vh.GamePiece("sq-m5", "M5", gpid=SQUAD, board="bd22"),
            vh.GamePiece("flame-p6", "P6", gpid="192", board="bd22"), unit_piece("lvl-p6", "P6", "167", board="bd22"),
            vh.GamePiece("sq-c3", "C3", gpid=SQUAD, board="bd01"), vh.GamePiece("pin-c3", "C3", gpid="1", board="bd01")]
    # each hex's pieces bottom first: bd01 C3's Flame (from fires()) under the squad and its Pin
    with started_player("fynn", mod, api_jar, xvfb.display, engine_dir / f"threeunits-{vasl_api}",
                        pieces=fires() + mine, boards=BOARDS, stacks=True) as (_, client):
        yield client


def test_three_boards_units_and_level_fire_read_with_board_qualified_names(fynn: BridgeClient) -> None:
    live = _live(fynn)
    pos = live.position
    units = {u.id: pos.loc_name(u.location) for u in pos.units}
    assert units == {"sq-m5": "bd22M5", "sq-c3": "bd01C3"}
    assert ("bd22P6.1", "flame") in _fires(live) and ("bd22P6", "flame") not in _fires(live)
    assert {u.id for u in pos.units if u.pinned} == {"sq-c3"}


def test_three_boards_rtph_reports_the_unit_in_the_blaze_on_the_reversed_board_b25_4(fynn: BridgeClient) -> None:
    from asl_vassal_bridge.bridge.rtph import run_rtph

    res = run_rtph(fynn)
    lines = [line for line in res.lines if " Blaze: " in line]
    assert len(lines) == 1 and lines[0].startswith("* bd22M5 Blaze: ") and "B25.4" in lines[0]
    fynn.jvm.aslbridgetest.TestHooks.undo()


def test_three_boards_upper_level_fires_round_trip_b25_2(fynn: BridgeClient) -> None:
    live = _live(fynn)
    m = live.position.map
    p6_1 = m.parse_location("bd22P6.1")
    g4_1 = m.parse_location("bd01G4.1")
    new = live.position.remove_fires(p6_1).add_fire(Fire(p6_1, FireKind.BLAZE)).add_fire(Fire(g4_1, FireKind.FLAME))
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    by_gpid = {p["gpid"]: p for p in batch["place"]}
    assert sorted(by_gpid) == ["167", "192", "195"] and batch["remove"] == ["flame-p6"]
    assert by_gpid["192"]["board"] == "bd01" and by_gpid["192"]["location"] == "G4"  # VASSAL's board-local name
    fynn.apply(batch)
    back = _fires(_live(fynn))
    assert back == (_fires(live) - {("bd22P6.1", "flame")}) | {("bd22P6.1", "blaze"), ("bd01G4.1", "flame")}
    fynn.jvm.aslbridgetest.TestHooks.undo()
    assert _fires(_live(fynn)) == _fires(live)


def test_live_pieces_give_vasls_own_unit_pictures(dora: BridgeClient, units_module: Path, tmp_path: Path) -> None:
    """Issue 23: a snapshot's piece carries its Layers, not its BasicPiece: the picture takes the BasicPiece's
    image from the module's slot of the piece's gpid (the widget's live view and ``forecast --png`` draw it)."""
    import io
    import zipfile

    from PIL import Image

    from asl_vassal_bridge.vasl.unitart import UnitArt

    def square(rgb: tuple[int, int, int]) -> bytes:
        buf = io.BytesIO()
        Image.new("RGB", (48, 48), rgb).save(buf, "GIF")
        return buf.getvalue()

    vmod = tmp_path / "with-images.vmod"  # the game's module with the two images it names (VASL's are not here)
    shutil.copy(units_module, vmod)
    with zipfile.ZipFile(vmod, "a") as z:
        z.writestr("images/ge/ge467S.gif", square((20, 160, 20)))
        z.writestr("images/ge/veh/pzib.gif", square((30, 60, 230)))
    pieces = {p["id"]: p for p in dora.snapshot(with_terrain=False)["pieces"]}
    art = UnitArt(vmod)
    assert "image" not in pieces["tank-j5"] and pieces["sq-a1"]["layers"]
    assert art.names_for(pieces["sq-a1"]) == ("ge/ge467S",)  # its 4-6-7 1sq Layer (the BasicPiece shows nothing)
    assert art.names_for(pieces["tank-j5"]) == ("ge/veh/pzib",)  # the BasicPiece image of its slot, by gpid
    for pid, rgb in (("sq-a1", (20, 160, 20)), ("tank-j5", (30, 60, 230))):
        pic = art.picture(art.names_for(pieces[pid]))
        assert pic is not None
        assert Image.open(io.BytesIO(pic.png)).convert("RGB").getpixel((24, 24)) == rgb
