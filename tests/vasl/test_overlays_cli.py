"""Issue 20: ``asl-fire vsav`` and ``odds`` on a saved game with overlays (VASL's real bd01 and ovrWD).

Overlay wd1 on E5 turns board 01's paved road hex into woods, as VASL 6.7.x's LOS model has it; the commands
name it as applied (and the LightWoods overlay as not applied, VASL leaving it to its SSR) on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.vasl.module import read_module
from asl_vassal_bridge.vasl.position import DEFAULT_EDGE, position_from_vsav

from .builders import make_vsav, placed
from .conftest import vasl_file

APPLIED = "asl-fire: board 01: overlay wd1 (E5) applied to the terrain as VASL 6.7.x applies them"
LEFT = ("asl-fire: board 01: overlay LightWoods (B2) not applied to the terrain: VASL applies light woods by its "
        "LightWoods SSR rule, not the overlay")


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Flame in E5 of board 01, overlay wd1 on E5 and VASL's LightWoods overlay on B2."""
    slot = read_module(vasl_file("buildFile-6.5.xml")).by_gpid["192"]
    x, y = Hex.parse("E5").pixel()
    t, s = placed(slot, int(x) + DEFAULT_EDGE[0], int(y) + DEFAULT_EDGE[1])
    path = tmp_path_factory.mktemp("vsav") / "overlay.vsav"
    path.write_bytes(make_vsav([("f1", t, s)],
                               boards="bd\t0\t0\t01\tVER\t6.1\tOVR\twd1\tE5\tE5\tOVR\tLightWoods\tB2\tB2"))
    return path


def boards() -> Path:
    vasl_file("boards", "overlays", "ovrWD")
    return vasl_file("boards", "bd01").parent


def test_the_position_has_the_overlays_terrain_and_says_what_was_applied(game: Path) -> None:
    pos = position_from_vsav(game, boards())
    assert pos.map.info(Hex.parse("E5")).terrain.name == "WOODS"  # a paved road on the bare board
    assert pos.notes.splitlines() == [APPLIED.removeprefix("asl-fire: "), LEFT.removeprefix("asl-fire: ")]


def test_vsav_lists_the_overlay_hexes_terrain(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vsav", str(game), "--boards", str(boards()), "--json"]) == 0
    out, err = capsys.readouterr()
    (board,) = json.loads(out)["boards"]
    (wd1,) = board["overlays_applied"]
    assert (wd1["name"], wd1["hexes"]) == ("wd1", [{"hex": "E5", "terrain": "Woods", "elevation": 0}])
    assert APPLIED in err.splitlines() and LEFT in err.splitlines()
    assert main(["vsav", str(game), "--boards", str(boards())]) == 0
    assert "    overlay wd1 (E5) applied as VASL 6.7.x applies it: E5 Woods level 0" in capsys.readouterr().out


def test_odds_reads_the_overlays_woods_and_names_the_overlay(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(game), "--boards", str(boards())]) == 0
    out, err = capsys.readouterr()
    assert "Flame to Blaze in E5 (Woods, Spread # 7)" in out
    assert APPLIED in err.splitlines() and LEFT in err.splitlines()


def test_board_command_applies_a_named_overlay(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", str(boards() / "bd01"), "--overlay", "wd1:E5", "--json"]) == 0
    out, err = capsys.readouterr()
    e5 = next(h for h in json.loads(out)["hexes"] if h["hex"] == "E5")
    assert e5["terrain"] == "Woods"
    assert APPLIED in err.splitlines()
    assert main(["board", str(boards() / "bd01"), "--overlay", "wd1"]) == 2
    assert "--overlay 'wd1': expected NAME:HEX1 or NAME:HEX1:HEX2" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["upkeep", "--phase", "rph", "--seed", "1"],
                                     ["forecast", "--trials", "20", "--turns", "1", "--seed", "1"]])
def test_upkeep_and_forecast_say_what_was_applied(game: Path, command: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command[0], str(game), "--boards", str(boards()), *command[1:]]) == 0
    err = capsys.readouterr().err.splitlines()
    assert APPLIED in err and LEFT in err
