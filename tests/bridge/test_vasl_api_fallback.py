"""A VASL whose terrain model the extension cannot read (a member under neither its 6.7.x nor its 2020 name): the
snapshot's terrain is an error naming VASL's version and the member, and Python reads the board archives instead,
saying why; without a boards folder it is one clear line, never a KeyError or a silent empty map.  No engine."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.convert import NoTerrain, model_error, position_from_snapshot
from asl_vassal_bridge.core.position import Phase
from asl_vassal_bridge.vasl.setup import VaslSetup

from .test_crops_fallback import board, flame, snapshot

MISSING = "Hex.getBaseLevelofHex (2020: getBaseHeight)"


def unreadable() -> dict[str, Any]:
    """The snapshot the extension sends when VASL 6.9.0 (say) has renamed Hex.getBaseLevelofHex again."""
    snap = snapshot([board("01", 400, 400, None)], (flame("f1", "01", "C3"),))
    snap["module"]["version"] = "6.9.0"
    snap["maps"][0]["terrain"] = {
        "source": "VASL", "missing": MISSING, "vasl_version": "6.9.0", "absent": [MISSING],
        "error": f"VASL 6.9.0's terrain model has no {MISSING}: the extension cannot read it"}
    return snap


def test_model_error_names_vasls_version_and_the_member() -> None:
    why = model_error(unreadable())
    assert why is not None and "6.9.0" in why and MISSING in why
    assert model_error(snapshot([board("01", 400, 400, None)])) is None


def test_the_board_archives_are_read_instead_saying_why(boards_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        live = position_from_snapshot(unreadable(), phase=Phase.AFPH, vasl=VaslSetup(None, boards_dir))
    pos = live.position
    assert [pos.loc_name(f.location) for f in pos.flames()] == ["C3"]
    assert pos.map.info(pos.map.parse_hex("C3")).terrain.name == "WOODS"  # bd01 C3 in the real archive
    why = [n for n in live.notes if "board archives" in n]
    assert why and "6.9.0" in why[0] and MISSING in why[0] and str(boards_dir) in why[0]
    assert any(MISSING in r.getMessage() for r in caplog.records)


def test_without_a_boards_folder_one_line_says_what_to_give() -> None:
    with pytest.raises(NoTerrain) as e:
        position_from_snapshot(unreadable(), phase=Phase.AFPH)
    msg = str(e.value)
    assert "\n" not in msg and "6.9.0" in msg and MISSING in msg and "--boards DIR" in msg
