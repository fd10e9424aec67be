"""Saved games: deobfuscation, commands, boards, pieces, and never exposing hidden pieces."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from asl_vassal_bridge.vasl.module import ModuleIndex, read_module
from asl_vassal_bridge.vasl.vsav import BadSavedGameError, parse_boards, read_vsav, read_vsav_bytes

from .builders import make_vsav, placed
from .conftest import vasl_file


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    return read_module(vasl_file("buildFile-6.5.xml"))


def test_basic_vsav_layout_and_pieces() -> None:
    g = read_vsav(vasl_file("saves", "basic.vsav"))
    assert g.boards == ()  # its bd line is empty: a board-less setup
    assert g.module_version == "6.4.4"
    assert len(g.pieces) == 23
    assert list(g.fire_pieces()) == []  # no fire counters in it
    by_id = {p.id: p for p in g.pieces}
    assert by_id["1563772571217"].basic_name == "8-3-8 Esq"
    assert (by_id["1563772571217"].map, by_id["1563772571217"].x, by_id["1563772571217"].y) == ("Map0", 126, 96)
    assert by_id["1563772571217"].gpid == "2361"
    assert ("VASLOverlays", "1.01") in g.extensions
    assert len(g.stacks) == 14  # 23 saved; 9 empty ones (VASSAL keeps them) are left out with what they held


def test_board_line_positions_reversed_crop_version_ssr() -> None:
    """VASL's ASLBoard state: x, y, [r]name, [crop x y w h], VER version, overlays, SSR changes."""
    line = "bd\t0\t0\t01\tVER\t6.1\tbd\t1\t0\tr1a\t0\t0\t900\t645\tVER\t6.0\tSSR\tNoRoads\t"
    boards = parse_boards(line, "x")
    assert [(b.x, b.y, b.name, b.reversed) for b in boards] == [(0, 0, "01", False), (1, 0, "1a", True)]
    assert boards[0].version == "6.1" and boards[0].crop is None
    assert boards[1].crop == (0, 0, 900, 645) and boards[1].ssr == "NoRoads"
    assert boards[0].archive_name == "bd01" and "bd1A" in boards[1].archive_names


def test_hidden_and_obscured_pieces_are_never_exposed(vasl65: ModuleIndex) -> None:
    flame = vasl65.by_gpid["192"]
    t1, s1 = placed(flame, 500, 500)
    t2, s2 = placed(vasl65.by_gpid["195"], 600, 500, hide_by="SecretPlayer")
    g = read_vsav_bytes(make_vsav([("1", t1, s1), ("2", t2, s2)]), "g.vsav")
    assert [p.id for p in g.pieces] == ["1"]
    assert not hasattr(g, "hidden_count")  # not even how many: the number of HIP units is secret too
    assert "SecretPlayer" not in repr(g) and "600" not in repr([p.x for p in g.pieces])


def test_units_under_a_concealment_counter_are_not_exposed(vasl65: ModuleIndex) -> None:
    qmark = next(s for s in vasl65.slots if s.name == "?" and any(t.id == "concealment" for t in s.traits))
    squad = vasl65.by_gpid["192"]  # any piece will do under the "?"
    tq, sq = placed(qmark, 700, 300)
    tu, su = placed(squad, 700, 300)
    g = read_vsav_bytes(make_vsav([("u", tu, su), ("q", tq, sq)], stacks=[("s", ["u", "q"], 700, 300)]), "g")
    assert [p.id for p in g.pieces] == ["q"]  # the "?" both players see, not what it conceals
    assert g.stacks == (("s", ("q",)),)  # the stack lists the pieces shown only


def test_a_stack_of_hidden_pieces_alone_leaves_no_trace(vasl65: ModuleIndex) -> None:
    """A HIP unit's stack is not listed either: its place on the map is the secret."""
    t1, s1 = placed(vasl65.by_gpid["192"], 500, 500)
    t2, s2 = placed(vasl65.by_gpid["195"], 900, 700, hide_by="SecretPlayer")
    g = read_vsav_bytes(make_vsav([("1", t1, s1), ("2", t2, s2)],
                                  stacks=[("s1", ["1"], 500, 500), ("s2", ["2"], 900, 700)]), "g")
    assert g.stacks == (("s1", ("1",)),)
    assert "s2" not in repr(g) and "900" not in repr(g)


@pytest.mark.parametrize("payload", [b"!VCSKzz0102", b"!VCSK01zz", b"\x00\x01\x02", b"!VCSK00" + b"41" * 10])
def test_broken_saved_game_text_is_bad_input(payload: bytes) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", payload)
    with pytest.raises(BadSavedGameError, match=r"g\.vsav"):
        read_vsav_bytes(buf.getvalue(), "g.vsav")


def test_vsav_without_saved_game_member() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("moduledata", b"<data/>")
    with pytest.raises(BadSavedGameError, match="no savedGame"):
        read_vsav_bytes(buf.getvalue(), "g.vsav")


def test_cli_vsav_lists_visible_pieces_only(vasl65: ModuleIndex, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    import argparse
    import json

    from asl_vassal_bridge.cli.vasl import cmd_vsav

    t1, s1 = placed(vasl65.by_gpid["192"], 400 + 112, 400 + 96)
    t2, s2 = placed(vasl65.by_gpid["195"], 400 + 600, 400 + 300, hide_by="Opponent")
    game = tmp_path / "g.vsav"
    game.write_bytes(make_vsav([("1", t1, s1), ("2", t2, s2)], boards="bd\t0\t0\t01\tVER\t6.1\t"))
    rc = cmd_vsav(argparse.Namespace(game=game, boards=vasl_file("boards", "bd01").parent, json=True))
    out = capsys.readouterr().out
    data = json.loads(out)
    assert rc == 0 and "hidden_pieces" not in data
    assert [(p["id"], p["hex"], p["fire_counter"]) for p in data["pieces"]] == [("1", "C2", "flame")]
    assert "Opponent" not in out
