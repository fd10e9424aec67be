"""Board overlays and SSR in the live snapshot, against a real VASSAL engine.

The test module's board is a stand-in with VASL's ``ASLBoard`` class and
method names (tests/support/java: ``getOverlays()``, ``getTerrain()``,
``getCropBounds()``, ``getVersion()``, ``getState()``), so the extension's
reflective path runs for real; VASL's own Java code is not available here.
Its map is VASSAL's plain Map (no VASL terrain model), so terrain comes from
the board archive and the overlays/SSR note must be given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge import convert
from asl_vassal_bridge.bridge.convert import board_entries, position_from_snapshot
from asl_vassal_bridge.core.position import Phase
from asl_vassal_bridge.vasl.setup import VaslSetup
from asl_vassal_bridge.vasl.vsav import BoardEntry, BoardOverlay, parse_board_state
from tests.conftest import missing
from tests.support import vassal_harness as vh

from .conftest import started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

#: What the test gives the board, as VASL's ASLBoardPicker reads a saved board entry after the name: a crop, the
#: board version, overlay st1 on C2-D3 (elevation preserved), single-hex overlay h2 on E2, two SSR rules.
ENTRY = "0\t0\t900\t645\tVER\t6.1\tOVR\tst1\tC2\tD3\ttrue\tOVR\th2\tE2\tE2\tSSR\tNoRoads NoWhtFlds"
#: VASL's getState for it: the SSR's own overlays first, written as "" (two empty fields).
STATE = "0\t0\tbd01\t0\t0\t900\t645\tVER\t6.1\t\t\tOVR\tst1\tC2\tD3\tOVR\th2\tE2\tE2\tSSR\tNoRoads NoWhtFlds"
SSR_NOTE = ("board bd01: SSR NoWhtFlds (not among the 130 LOSSSRules of SharedBoardMetadata.xml: VASL disables LOS "
            "for it) not applied to the terrain; SSR NoRoads read as VASL's LOS model reads it")
NOTE = ("board bd01: overlays st1 (C2-D3, elevation preserved), h2 (E2) applied to the terrain as VASL 6.7.x "
        "applies them")


@pytest.fixture(scope="module")
def vasl_board_module(module_with_extension: Path, engine_dir: Path) -> Path:
    """The test module with the ASLBoard stand-in on VASSAL's plain Map, and the same built extension."""
    mod = vh.build_module(engine_dir / "vaslboards.vmod", board_class=vh.VASL_BOARD,
                          map_class="VASSAL.build.module.Map")
    ext = engine_dir / "vaslboards_ext"
    ext.mkdir(exist_ok=True)
    built = module_with_extension.parent / f"{module_with_extension.stem}_ext" / "asl-fire-bridge.vmdx"
    shutil.copy(built, ext / built.name)
    return mod


@pytest.fixture(scope="module")
def dora(vasl_board_module: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    with started_player("dora", vasl_board_module, support_jar, xvfb.display, engine_dir / "vaslboards") as (
            player, client):
        state = client.jvm.aslbridgetest.StandinBoards.vaslBoard(vh.BOARD, ENTRY)
        yield player, client, state


def _boards_dir() -> Path:
    boards = vh.SHARED_VASL / "boards"
    if not (boards / "bd01").is_file():
        missing("data", f"{boards / 'bd01'} does not exist: the real VASL board archive is needed")
    return boards


def test_snapshot_exports_overlays_ssr_crop_and_vasl_state(dora: Any) -> None:
    _, client, state = dora
    assert state == STATE
    snap = client.snapshot()
    (b,) = snap["maps"][0]["boards"]
    assert snap["maps"][0]["terrain"] is None  # VASSAL's plain Map: no VASL terrain model
    assert b["name"] == vh.BOARD
    vasl = b["vasl"]
    assert vasl["state"] == STATE
    assert vasl["version"] == "6.1"
    assert vasl["crop"] == {"x": 0, "y": 0, "width": 900, "height": 645}
    assert vasl["ssr"] == "NoRoads NoWhtFlds"
    assert vasl["overlays"] == [
        {"name": "NoWhtFlds.gif", "hex1": "", "hex2": "", "preserveElevation": False, "ssr": True},
        {"name": "NoRoads.gif", "hex1": "", "hex2": "", "preserveElevation": False, "ssr": True},
        {"name": "st1", "hex1": "C2", "hex2": "D3", "preserveElevation": True, "ssr": False},
        {"name": "h2", "hex1": "E2", "hex2": "E2", "preserveElevation": False, "ssr": False},
    ]


def test_python_reads_them_as_board_entries_and_notes_the_fallback_terrain(
        dora: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    _, client, _ = dora
    snap = client.snapshot(with_terrain=False)
    expected = BoardEntry(0, 0, vh.BOARD, False, (0, 0, 900, 645), "6.1",
                          (BoardOverlay("st1", "C2", "D3", True), BoardOverlay("h2", "E2", "E2")), "NoRoads NoWhtFlds")
    assert board_entries(snap) == (expected,)
    # VASL's saved-game string alone gives the same, except the preserve-elevation flag VASL does not write there
    from_state = parse_board_state(snap["maps"][0]["boards"][0]["vasl"]["state"], "live")
    assert from_state.overlays == (BoardOverlay("st1", "C2", "D3"), BoardOverlay("h2", "E2", "E2"))
    assert from_state.ssr == expected.ssr and from_state.crop == expected.crop
    monkeypatch.setattr(convert, "_warned", set())
    with caplog.at_level("WARNING", logger="asl_vassal_bridge.bridge.convert"):
        live = position_from_snapshot(snap, phase=Phase.AFPH, vasl=VaslSetup(None, _boards_dir()))
    assert live.notes == (SSR_NOTE, NOTE) and live.position.notes == f"{SSR_NOTE}\n{NOTE}"
    assert live.boards == (expected,)
    assert NOTE in [r.getMessage() for r in caplog.records]
    assert sorted(f.location.name for f in live.position.flames()) == ["C2", "D3", "E2"]


def test_asl_fire_bridge_command_logs_the_note(dora: Any) -> None:
    player, _, _ = dora
    env = dict(os.environ, PYTHONPATH=str(vh.REPO))
    proc = subprocess.run([sys.executable, "-m", "asl_vassal_bridge", "bridge", "--connection-file",
                           str(player.connection_file), "--boards", str(_boards_dir()), "--once", "odds"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"WARNING {NOTE}" in proc.stderr
    assert proc.stderr.count(NOTE) == 1  # once at the start, not again when the odds read the terrain


def test_overlay_elevation_flag_under_the_newer_vasl_name(dora: Any) -> None:
    """Newer VASL names the flag getPersistElevation(), older getPreserveElevation(): both are read (runs last: it
    adds an overlay to the board)."""
    _, client, _ = dora
    client.jvm.aslbridgetest.StandinBoards.vaslBoard(vh.BOARD, "VER\t6.1\tOVR2\tx3\tF2\tF2\ttrue")
    overlays = client.snapshot(with_terrain=False)["maps"][0]["boards"][0]["vasl"]["overlays"]
    assert overlays[-1] == {"name": "x3", "hex1": "F2", "hex2": "F2", "preserveElevation": True, "ssr": False}
    assert overlays[-2]["name"] == "h2" and overlays[-2]["preserveElevation"] is False


def test_asl_fire_bridge_reads_the_terrain_types_from_the_module(dora: Any, tmp_path: Path) -> None:
    """``--vasl`` names the module whose SharedBoardMetadata decodes the archives: nothing beside the boards folder."""
    from tests.support.vassal_prefs import fake_module

    player, client, _ = dora
    boards = tmp_path / "boards"
    boards.mkdir()
    shutil.copy(_boards_dir() / "bd01", boards / "bd01")
    module = fake_module(tmp_path / "VASL.vmod", (vh.SHARED_VASL / "SharedBoardMetadata.xml").read_bytes())
    env = {k: v for k, v in os.environ.items() if k != "ASL_FIRE_SHARED_METADATA"}
    env.update(PYTHONPATH=str(vh.REPO), HOME=str(tmp_path))  # no VASSAL preferences to fall back on
    base = [sys.executable, "-m", "asl_vassal_bridge", "bridge", "--connection-file", str(player.connection_file),
            "--boards", str(boards), "--once", "odds"]
    before = str(client.jvm.aslbridgetest.TestHooks.chatText())
    proc = subprocess.run([*base, "--vasl", str(module)], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    said = str(client.jvm.aslbridgetest.TestHooks.chatText())[len(before):]
    assert "fire rolls pending at the end of the AFPh" in said and "C2: Flame→Blaze" in said
    without = subprocess.run(base, env=env, capture_output=True, text=True, timeout=120)
    assert without.returncode == 2  # --once: a refused button is an error, one line naming what is missing
    assert "no SharedBoardMetadata.xml in" in without.stderr and "Traceback" not in without.stderr
