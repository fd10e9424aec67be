"""VASL's board entry (``ASLBoard.getState``): overlays as ``OVR, name, hex1, hex2`` groups, SSR, ZOOM, FH."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.vasl.position import position_from_vsav
from asl_vassal_bridge.vasl.terrain import read_terrain_types
from asl_vassal_bridge.vasl.vsav import (
    BadSavedGameError,
    BoardOverlay,
    overlay_notes,
    parse_board_state,
    parse_boards,
    read_vsav_bytes,
)

from .builders import make_vsav
from .conftest import vasl_file

#: As VASL writes it: an SSR's own overlays (SSROverlay) write "" (two empty tab fields before the first OVR),
#: each Overlay writes OVR, name, hex1, hex2; then SSR and its rules, ZOOM and FH.
STATE = ("1\t0\tr12\t0\t0\t900\t645\tVER\t6.1\t\t\tOVR\tst1\tC2\tD3\tOVR\th2\tE2\tE2\tSSR\tNoRoads NoWhtFlds"
         "\tZOOM\t3.0\tFH\ttrue")


def test_overlay_groups_ssr_zoom_and_full_hex_flag() -> None:
    b = parse_board_state(STATE, "s")
    assert (b.x, b.y, b.name, b.reversed, b.crop, b.version) == (1, 0, "12", True, (0, 0, 900, 645), "6.1")
    assert b.overlays == (BoardOverlay("st1", "C2", "D3"), BoardOverlay("h2", "E2", "E2"))
    assert b.ssr == "NoRoads NoWhtFlds"


def test_preserve_elevation_flag_after_the_hexes_is_read() -> None:
    b = parse_board_state("0\t0\t01\tVER\t6.1\tOVR\tst1\tC2\tD3\ttrue\tOVR\th2\tE2\tE2\tfalse\t", "s")
    assert b.overlays == (BoardOverlay("st1", "C2", "D3", True), BoardOverlay("h2", "E2", "E2", False))
    assert b.ssr == ""


def test_boards_after_one_with_overlays_keep_their_own_fields() -> None:
    line = "bd\t0\t0\t01\tVER\t6.1\tOVR\tx1\tA1\tA2\tSSR\tNoRoads\tbd\t1\t0\t02\tVER\t6.0\t"
    first, second = parse_boards(line, "g")
    assert first.overlays == (BoardOverlay("x1", "A1", "A2"),) and first.ssr == "NoRoads"
    assert (second.x, second.name, second.version, second.overlays, second.ssr) == (1, "02", "6.0", (), "")


def test_overlay_without_a_name_is_a_clear_error() -> None:
    with pytest.raises(BadSavedGameError, match=r"g: board 01: overlay entry \(OVR\) without an overlay name"):
        parse_board_state("0\t0\t01\tVER\t6.1\tOVR\tSSR\tNoRoads", "g")
    with pytest.raises(BadSavedGameError, match="empty board entry"):
        parse_board_state("\t", "g")


def test_notes_name_the_board_and_the_ssr_vasl_cannot_apply() -> None:
    """Of the SSR only the token VASL does not know is named (the overlays' notes come from the overlay reader)."""
    table = read_terrain_types(vasl_file("SharedBoardMetadata.xml"))
    b = parse_board_state(STATE, "s")
    (note,) = overlay_notes([b, parse_board_state("0\t0\t01\tVER\t6.1\tSSR\tNoGrain\t", "s")], table)
    assert note == ("board 12: SSR NoWhtFlds (not among the 130 LOSSSRules of SharedBoardMetadata.xml: VASL disables "
                    "LOS for it) not applied to the terrain; SSR NoRoads read as VASL's LOS model reads it")
    (unchecked,) = overlay_notes([b])
    assert "not checked" in unchecked
    assert overlay_notes([b], table, ssr=False) == []
    assert str(BoardOverlay("st1", "C2", "D3", True)) == "st1 (C2-D3, elevation preserved)"
    assert BoardOverlay("st1", "C2", "D3", True).as_dict() == {"name": "st1", "hex1": "C2", "hex2": "D3",
                                                                "preserve_elevation": True}


def test_saved_game_with_overlays_gives_the_note_on_the_position(tmp_path: Path) -> None:
    boards = vasl_file("boards", "bd01").parent
    save = tmp_path / "ovr.vsav"
    save.write_bytes(make_vsav([], boards="bd\t0\t0\t01\tVER\t6.1\tOVR\tst1\tC2\tD3\tSSR\tNoRoads\t"))
    assert read_vsav_bytes(save.read_bytes(), "ovr.vsav").boards[0].overlays == (BoardOverlay("st1", "C2", "D3"),)
    pos = position_from_vsav(save, boards)
    assert pos.notes == "board 01: overlay st1 (C2-D3) applied to the terrain as VASL 6.7.x applies them"
