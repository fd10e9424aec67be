"""What a player meets in the first hour: commands use the position's units and clock, say what they assume,
and answer bad input with one line naming the file or option."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.core.position import Clock, Fire, FireKind, Phase
from asl_vassal_bridge.posfile import MAX_MAP_HEXES, dump, load
from asl_vassal_bridge.scenarios import demo_position


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


def test_kindle_is_directed_by_the_leader_in_the_location_b25_11(capsys: pytest.CaptureFixture[str]) -> None:
    # The demo's 8-1 (g2) is in F7 with the 4-6-7: its -1 applies reversed, as when given with --leader -1.
    assert main(["kindle", "demo", "--at", "F7", "--odds"]) == 0
    out = capsys.readouterr().out
    assert "8-1 (g2)" in out and "+1 leadership -1 reversed (B25.11)" in out and "chance 7/12" in out
    assert main(["kindle", "demo", "--at", "F7", "--odds", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["chance"] == "7/12" and data["rule"] == "B25.11"
    assert {"value": 1, "reason": "leadership -1 reversed", "rule": "B25.11"} in data["drms"]


def test_odds_after_the_afph_shows_the_next_rph_and_afph(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rolled = tmp_path / "x.toml"
    assert main(["upkeep", "demo", "--phase", "afph", "--seed", "1", "-o", str(rolled)]) == 0
    capsys.readouterr()
    assert main(["odds", str(rolled)]) == 0
    out = capsys.readouterr().out
    assert "Turn 2.1 AFPh" not in out
    assert out.index("Turn 2.2 RPh") < out.index("Turn 2.2 AFPh")
    assert main(["odds", str(rolled), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["afph"] == "Turn 2.2 AFPh" and data["next_rph"]["phase"] == "Turn 2.2 RPh"
    assert data["next_rph"]["before_afph"] is True
    # Flames that appeared in Turn 2.1's AFPh may become Blazes in Turn 2.2's (B25.15).
    new_flames = {pos_name for pos_name in (r["location"] for r in data["rolls"] if r["kind"] == "blaze")}
    pos = load(rolled)
    assert new_flames == {pos.loc_name(f.location) for f in pos.flames()}


def test_odds_between_rph_and_afph_is_this_player_turns_afph(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    p = demo_position()
    src = tmp_path / "mph.toml"
    dump(p.with_(clock=Clock(2, 1, Phase.MPH)), src)
    assert main(["odds", str(src), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["afph"] == "Turn 2.1 AFPh" and data["next_rph"] == {
        **data["next_rph"], "phase": "Turn 2.2 RPh", "before_afph": False}


def test_clear_says_who_clears_and_needs_someone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = demo_position()
    src = tmp_path / "f7.toml"
    dump(p.with_(fires=(*p.fires, Fire(p.map.parse_location("F7"), FireKind.FLAME))), src)
    assert main(["clear", str(src), "--at", "F7", "--odds", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # The 4-6-7 (g1) clears (-1), directed by the 8-1 (-1), Dry EC +1 (B24.7): ≤ 3 clears.
    assert "4-6-7 (g1)" in data["clearing"] and data["needed_original"] == 3 and data["clear"] == "1/12"
    assert main(["clear", "demo", "--at", "E5", "--odds"]) == 2
    assert "--squads" in one_line_error(capsys)
    assert main(["clear", "demo", "--at", "E5", "--odds", "--squads", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["clearing"] is None


def test_clear_options_have_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["clear", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--squads N squads clearing (default: the position's" in out and "--dozers N Dozers clearing" in out


def test_several_flames_in_one_location_are_explained_b25_15(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    p = demo_position()
    e5 = p.map.parse_location("E5")
    src = tmp_path / "two.toml"
    dump(p.with_(fires=(*p.fires, Fire(e5, FireKind.FLAME)), clock=Clock(2, 1, Phase.AFPH)), src)
    assert main(["upkeep", str(src), "--phase", "afph", "--dice", ",".join(["1"] * 20)]) == 0
    out = capsys.readouterr().out
    assert "Several Flames in one Location: E5 (2)" in out and "B25.15" in out
    assert main(["odds", str(src)]) == 0
    assert "E5 (2)" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["demo", "--turns", "-2"], "--turns: -2: expected 1 to 50 Player Turns"),
    (["clear", "demo", "--at", "E5", "--squads", "-1"], "--squads: -1: expected 0 to 20 units"),
])
def test_out_of_range_numbers_are_refused(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and message in err[0]


def test_output_in_a_missing_folder_names_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nowhere" / "x.toml"
    assert main(["upkeep", "demo", "--phase", "rph", "--seed", "1", "-o", str(out)]) == 2
    err = one_line_error(capsys)
    assert f"{out}: cannot write it: folder {out.parent} does not exist" in err and ".tmp" not in err


def test_a_huge_map_is_refused_before_it_is_built(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "huge.toml"
    src.write_text('format = 1\n[map]\ncolumns = "A-J"\nrows = "1-1000000"\n', "utf-8")
    assert main(["odds", str(src)]) == 2
    err = one_line_error(capsys)
    assert "10,000,000 hexes" in err and f"at most {MAX_MAP_HEXES:,}" in err and "huge.toml" in err
    src.write_text('format = 1\n[map]\nhexes = ["A1-A9999999"]\n', "utf-8")
    assert main(["odds", str(src)]) == 2
    assert "map.hexes[0]" in one_line_error(capsys)


def test_a_module_that_is_not_a_zip_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "random.vmod"
    bad.write_bytes(os.urandom(300))
    assert main(["module", str(bad)]) == 2
    assert "random.vmod: not a zip archive" in one_line_error(capsys)


def test_a_missing_boards_folder_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "g.vsav"
    game.write_bytes(b"")
    for cmd in (["vsav", str(game)], ["odds", str(game)]):
        assert main([*cmd, "--boards", str(tmp_path / "nope")]) == 2
        assert f"--boards {tmp_path / 'nope'}: no such folder" in one_line_error(capsys)


@pytest.mark.parametrize("content", [os.urandom(200), b"[1, 2]", b'"a string"', b"{}", b'{"port": "x", "token": 1}',
                                     b'{"port": 70000, "token": "t"}', b"\x00" * 10])
def test_a_bad_connection_file_is_one_line(tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bridge.json"
    f.write_bytes(content)
    f.chmod(0o600)
    assert main(["bridge", "--connection-file", str(f)]) == 2
    err = one_line_error(capsys)
    assert str(f) in err and ("connection file" in err or "port" in err or "token" in err)


@pytest.mark.parametrize("content", [os.urandom(200), b"", b"two\nlines", b"x" * 5000])
def test_a_bad_token_file_is_one_line(tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "token"
    f.write_bytes(content)
    assert main(["bridge", "--port", "1", "--token-file", str(f)]) == 2
    assert f"--token-file {f}" in one_line_error(capsys)


def test_a_connection_file_left_by_a_closed_vassal_is_one_line(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on any more
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    f = tmp_path / "bridge.json"
    f.write_text(json.dumps({"port": port, "token": "abc", "pid": 1}), "utf-8")
    f.chmod(0o600)
    assert main(["bridge", "--connection-file", str(f)]) == 2
    err = one_line_error(capsys)
    assert f"{f}: VASSAL does not answer" in err and "py4j" not in err.lower()
