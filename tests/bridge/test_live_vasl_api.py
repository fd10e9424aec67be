"""A VASL whose terrain model lacks a member the extension needs under both its 6.7.x and its 2020 name (here the
hex's ground level, renamed once more by the stand-ins' variant "renamed", tests/support/standin_variants.py): the
extension's terrain is an error naming VASL's version and the member, VASSAL's chat gets one line saying so (not
one per snapshot), and the bridge reads the board archives instead, saying why.  Through the real VASSAL engine."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.convert import position_from_snapshot
from asl_vassal_bridge.core.position import Phase
from asl_vassal_bridge.vasl.setup import VaslSetup
from tests.conftest import shared_vasl_file
from tests.support import vassal_harness as vh

from .conftest import started_player
from .three_boards import BOARDS, FLAMES, fires

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

MISSING = "Hex.getBaseLevelofHex (2020: getBaseHeight)"


@pytest.fixture(scope="module")
def ivo(three_board_module: Path, engine_dir: Path, xvfb: vh.Xvfb) -> Iterator[BridgeClient]:
    jar = vh.build_support_jar(engine_dir, vasl_api="renamed")
    with started_player("ivo", three_board_module, jar, xvfb.display, engine_dir / "renamed", pieces=fires(),
                        boards=BOARDS) as (_, client):
        yield client


def test_the_terrain_names_vasls_version_and_the_member_once_in_the_chat(ivo: BridgeClient) -> None:
    snap = ivo.snapshot()
    terrain = snap["maps"][0]["terrain"]
    version = snap["module"]["version"]
    assert terrain["missing"] == MISSING and terrain["vasl_version"] == version
    assert f"VASL {version}'s terrain model has no {MISSING}" in terrain["error"]
    assert MISSING in terrain["absent"]
    ivo.snapshot()
    ivo.snapshot(known_terrain="not-this-one")
    chat = [ln for ln in str(ivo.jvm.aslbridgetest.TestHooks.chatText()).splitlines() if MISSING in ln]
    assert len(chat) == 1, chat
    assert f"VASL {version}'s terrain model has no {MISSING}" in chat[0] and "board archives" in chat[0]


def test_the_bridge_reads_the_board_archives_instead_saying_why(ivo: BridgeClient, tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    boards = tmp_path / "boards"
    boards.mkdir()
    for name in ("bd01", "bd22", "bd03"):  # VASL's real bd01 under each board's name
        shutil.copy(shared_vasl_file("boards", "bd01"), boards / name)
    shutil.copy(shared_vasl_file("SharedBoardMetadata.xml"), boards / "SharedBoardMetadata.xml")
    with caplog.at_level(logging.WARNING):
        live = position_from_snapshot(ivo.snapshot(), phase=Phase.AFPH, vasl=VaslSetup(None, boards))
    pos = live.position
    assert sorted(pos.loc_name(f.location) for f in pos.flames()) == sorted(FLAMES)
    assert pos.map.info(pos.map.layout.parse("bd01C3")).terrain.name == "WOODS"  # the real bd01's C3
    why = [n for n in live.notes if "board archives" in n]
    assert why and MISSING in why[0] and str(boards) in why[0]
    assert any(MISSING in r.getMessage() for r in caplog.records)
