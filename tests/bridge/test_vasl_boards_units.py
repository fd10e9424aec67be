"""Snapshot boards' VASL part (overlays, SSR, crop) → BoardEntry, and the board-archive fallback's note; no engine."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.bridge.convert import board_entries, fallback_notes, position_from_snapshot
from asl_vassal_bridge.cli.bridge import _log_board_notes
from asl_vassal_bridge.vasl.setup import VaslSetup
from asl_vassal_bridge.vasl.vsav import BoardEntry, BoardOverlay
from tests.conftest import missing

STATE = "0\t0\tbd01\t0\t0\t900\t645\tVER\t6.1\t\t\tOVR\tst1\tC2\tD3\tOVR\th2\tE2\tE2\tSSR\tNoRoads NoWhtFlds"


def vasl_part(state: str | None = STATE) -> dict[str, Any]:
    """A board's "vasl" as the extension writes it for VASL's ASLBoard: two overlays, two SSR overlays, SSR, crop."""
    return {"state": state, "version": "6.1", "crop": {"x": 0, "y": 0, "width": 900, "height": 645},
            "ssr": "NoRoads NoWhtFlds",
            "overlays": [{"name": "NoWhtFlds.gif", "hex1": "", "hex2": "", "preserveElevation": False, "ssr": True},
                         {"name": "NoRoads.gif", "hex1": "", "hex2": "", "preserveElevation": False, "ssr": True},
                         {"name": "st1", "hex1": "C2", "hex2": "D3", "preserveElevation": True, "ssr": False},
                         {"name": "h2", "hex1": "E2", "hex2": "E2", "preserveElevation": False, "ssr": False}]}


def board(name: str, x: int = 0, y: int = 0, vasl: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "x": x, "y": y, "width": 1801, "height": 645, "reversed": False, "grid": "HexGrid",
            "vasl": vasl}


def snapshot(boards: list[dict[str, Any]], terrain: bool = True) -> dict[str, Any]:
    hexes = [{"name": f"{c}{r}", "elevation": 0,
              "locations": [{"name": f"{c}{r}", "level": 0, "terrain": "Open Ground", "center": True}]}
             for c in "ABCDE" for r in range(1, 5)]
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": boards,
                      "terrain": {"source": "VASL", "hexes": hexes} if terrain else None}],
            "pieces": [{"id": "f1", "name": "Flame", "gpid": "192", "map": "Main Map", "location": "C2",
                        "rev": "r", "x": 100, "y": 100, "layers": []}]}


EXPECTED = BoardEntry(0, 0, "bd01", False, (0, 0, 900, 645), "6.1",
                      (BoardOverlay("st1", "C2", "D3", True), BoardOverlay("h2", "E2", "E2")), "NoRoads NoWhtFlds")


def test_vasl_board_becomes_the_same_entry_as_a_saved_game_gives() -> None:
    (entry,) = board_entries(snapshot([board("bd01", vasl=vasl_part())]))
    assert entry == EXPECTED  # the SSR's own overlays stay with its SSR string, as in VASL's saved state


def test_without_state_or_with_a_broken_one_the_other_fields_are_used() -> None:
    for state in (None, "", "x\ty\tbd01"):
        (entry,) = board_entries(snapshot([board("bd01", vasl=vasl_part(state))]))
        assert entry == EXPECTED, state


def test_plain_vassal_boards_have_no_overlays_and_a_grid_place() -> None:
    snap = snapshot([board("b", x=1801, y=0), board("a", x=0, y=0), board("c", x=0, y=645)])
    assert [(e.name, e.x, e.y, e.overlays, e.ssr) for e in board_entries(snap)] == [
        ("b", 1, 0, (), ""), ("a", 0, 0, (), ""), ("c", 0, 1, (), "")]
    assert board_entries({"maps": []}) == ()


OVERLAYS = "board bd01: overlays st1 (C2-D3, elevation preserved), h2 (E2)"
APPLIED = OVERLAYS + " applied to the terrain as VASL 6.7.x applies them"
SSR = ("board bd01: SSR NoWhtFlds (not among the 130 LOSSSRules of SharedBoardMetadata.xml: VASL disables LOS for "
       "it) not applied to the terrain; SSR NoRoads read as VASL's LOS model reads it")


def test_vasl_terrain_model_has_the_ssr_and_the_overlays_applied() -> None:
    """VASL 6.7.x's own terrain model applies the SSR terrain changes and the overlays: nothing to say."""
    snap = snapshot([board("bd01", vasl=vasl_part())])
    live = position_from_snapshot(snap)
    assert live.boards == (EXPECTED,)
    assert live.notes == () and live.position.notes == ""
    assert fallback_notes(snap) == []


def test_board_archive_fallback_applies_the_overlays_and_warns_once(shared_vasl: Path,
                                                                   caplog: pytest.LogCaptureFixture,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The board archives' terrain has the overlays (archives in the boards folder's overlays/) as VASL 6.7.x
    applies them; the notes say so, and name the SSR token VASL cannot apply."""
    boards_dir = shared_vasl / "boards"
    for need in (boards_dir / "bd01", boards_dir / "overlays" / "ovrST", boards_dir / "overlays" / "ovrH"):
        if not need.is_file():
            missing("data", f"{need} does not exist: the real VASL board and overlay archives are needed")
    monkeypatch.setattr(bridge_snapshot, "_warned", set())
    snap = snapshot([board("bd01", vasl=vasl_part())], terrain=False)
    setup = VaslSetup(None, boards_dir)
    assert fallback_notes(snap, table=setup.terrain_table(), boards_dir=boards_dir) == [SSR, APPLIED]
    with caplog.at_level(logging.DEBUG, logger="asl_vassal_bridge.bridge.snapshot"):
        live = position_from_snapshot(snap, vasl=setup)
        position_from_snapshot(snap, vasl=setup)
    assert live.notes == (SSR, APPLIED) and live.position.notes == f"{SSR}\n{APPLIED}"
    assert live.boards == (EXPECTED,)
    assert [r.levelname for r in caplog.records if r.getMessage() == APPLIED] == ["WARNING", "DEBUG"]
    bare = position_from_snapshot(snapshot([board("bd01")], terrain=False), vasl=setup)
    c2 = bare.position.map.parse_location("C2").hex
    assert live.position.map.info(c2) != bare.position.map.info(c2)  # st1's stream runs through C2


class _FakeClient:
    def __init__(self, snap: dict[str, Any] | None) -> None:
        self.snap = snap

    def snapshot(self, with_terrain: bool = True, layers_for: Any = None) -> dict[str, Any]:
        if self.snap is None:
            raise ConnectionError("gone")
        return self.snap


def test_cli_logs_the_notes_at_start(caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bridge_snapshot, "_warned", set())
    log = logging.getLogger("asl_fire.bridge")
    with caplog.at_level(logging.DEBUG):
        _log_board_notes(_FakeClient(snapshot([board("bd01", vasl=vasl_part())], terrain=False)), log)  # type: ignore[arg-type]
        _log_board_notes(_FakeClient(snapshot([board("bd01", vasl=vasl_part())])), log)  # type: ignore[arg-type]
        _log_board_notes(_FakeClient(None), log)  # type: ignore[arg-type]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [  # no VASL files given: the SSR is not checked, the overlays not applied; VASL's model: nothing
        "board bd01: SSR terrain changes 'NoRoads NoWhtFlds' (not checked: VASL's SharedBoardMetadata.xml is needed "
        "to apply them) not applied to the terrain",
        "board bd01: overlay st1 (C2-D3, elevation preserved) not applied to the terrain: no VASL boards folder (its "
        "overlays/ folder holds the overlay archives)",
        "board bd01: overlay h2 (E2) not applied to the terrain: no VASL boards folder (its overlays/ folder holds the "
        "overlay archives)"]
    assert any("could not read the boards' overlays" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("vasl, field", [
    ({"overlays": [{"name": "x1", "hex1": "E5", "hex2": "E5"}] * 2000}, "2,000 overlays"),
    ({"ssr": " ".join(["NoWoodsRoads"] * 60_000)}, "SSR terrain changes"),
], ids=["2000-overlays", "60000-ssr-tokens"])
def test_a_live_games_boards_are_bounded_as_a_saved_games_are(vasl: dict[str, object], field: str) -> None:
    """A game VASSAL loaded from an opponent's file reaches the bridge through the snapshot: the same bounds as the
    saved-game reader's (issue 32), one line naming the board."""
    from asl_vassal_bridge.bridge.snapshot import board_entries
    from asl_vassal_bridge.core.errors import BadInput

    snap = {"maps": [{"name": "Main Map", "boards": [{"name": "bd01", "x": 0, "y": 0, "vasl": vasl}]}]}
    with pytest.raises(BadInput, match=f"snapshot board 'bd01': .*{field}"):
        board_entries(snap)
