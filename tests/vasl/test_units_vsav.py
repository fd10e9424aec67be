"""Units of a saved game on bd01: VASL's own unit counters → the Position's units, never a concealed one."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.core.exits import blaze_fates
from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.position import Location, UnitKind
from asl_vassal_bridge.vasl.module import ModuleIndex, read_module
from asl_vassal_bridge.vasl.position import DEFAULT_EDGE, position_from_vsav

from .builders import make_vsav, placed
from .conftest import vasl_file

SQUAD, PZ_IB = "11467", "2524"


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    return read_module(vasl_file("buildFile-6.5.xml"))


def at(name: str) -> tuple[int, int]:
    x, y = Hex.parse(name).pixel()
    return int(x) + DEFAULT_EDGE[0], int(y) + DEFAULT_EDGE[1]


def test_units_of_a_saved_game_with_their_state_b25_4(vasl65: ModuleIndex, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    s = vasl65.by_gpid
    pieces = []
    stacks = []

    def put(pid: str, gpid: str, hexname: str, **kw: object) -> None:
        t, st = placed(s[gpid], *at(hexname), **kw)  # type: ignore[arg-type]
        pieces.append((pid, t, st))

    put("b1", "195", "H2")
    put("sq1", SQUAD, "H2")  # in the Blaze
    put("pin", "1", "H2")  # VASL's Pin marker on it
    stacks.append(("st1", ["b1", "sq1", "pin"], *at("H2")))
    put("sq2", SQUAD, "K4")
    put("l1", "167", "K4")  # Level 1 of the K4 building
    stacks.append(("st2", ["sq2", "l1"], *at("K4")))
    put("tank", PZ_IB, "A5")
    put("sq3", SQUAD, "B5")
    put("qm", "2351", "B5")  # VASL's German "?" on top: the squad under it is concealed
    stacks.append(("st3", ["sq3", "qm"], *at("B5")))
    put("hip", SQUAD, "C5", hide_by="OtherPlayer")
    game = tmp_path / "units.vsav"
    game.write_bytes(make_vsav(pieces, boards="bd\t0\t0\t01", stacks=stacks))
    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    units = {u.id: u for u in pos.units}
    assert set(units) == {"sq1", "sq2", "tank"}  # the concealed and the hidden squads never appear
    assert units["sq1"].pinned and units["sq1"].name == "German 4-6-7 1sq" and units["sq1"].side == "Axis"
    assert units["sq2"].location == Location(Hex.parse("K4"), 1)
    assert units["tank"].kind is UnitKind.VEHICLE and units["tank"].side == "Axis"
    fates = blaze_fates(pos)
    assert [f.unit.id for f in fates] == ["sq1"] and "cannot leave" in fates[0].options
    # the command line reads the saved game's units too: the RtPh upkeep reports the squad (B25.4)
    from asl_vassal_bridge.cli import main

    assert main(["upkeep", str(game), "--boards", str(vasl_file("boards", "bd01").parent), "--phase", "rtph"]) == 0
    out = capsys.readouterr().out
    assert "German 4-6-7 1sq" in out and "H2" in out and "B25.4" in out and "B5" not in out


def test_a22_4_ft_possession_is_read_off_the_ft_counter_in_a_units_stack(vasl65: ModuleIndex, tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # A FT counter belongs to the nearest infantry unit beneath it in its stack (else the nearest above); one on
    # a concealed stack is nobody's, and nothing about the concealed unit leaves VASSAL.
    s = vasl65.by_gpid
    pieces = []
    stacks = []
    german_ft = "2473"

    def put(pid: str, gpid: str, hexname: str) -> None:
        t, st = placed(s[gpid], *at(hexname))
        pieces.append((pid, t, st))

    put("sq1", SQUAD, "H2")
    put("ft1", german_ft, "H2")
    put("sq2", SQUAD, "H2")  # above the FT: not its possessor
    stacks.append(("st1", ["sq1", "ft1", "sq2"], *at("H2")))
    put("ft2", german_ft, "G3")  # beneath its only unit
    put("ft3", german_ft, "G3")
    put("sq3", SQUAD, "G3")
    stacks.append(("st2", ["ft2", "ft3", "sq3"], *at("G3")))
    put("sq4", SQUAD, "B5")
    put("qm", "2351", "B5")  # a concealed squad…
    put("ft4", german_ft, "B5")  # …whose FT lies on top of its "?"
    stacks.append(("st3", ["sq4", "qm", "ft4"], *at("B5")))
    put("sq5", SQUAD, "C5")
    game = tmp_path / "ft.vsav"
    game.write_bytes(make_vsav(pieces, boards="bd\t0\t0\t01", stacks=stacks))
    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    assert {u.id: u.ft for u in pos.units} == {"sq1": 1, "sq2": 0, "sq3": 2, "sq5": 0}
    assert pos.target_ft(Location(Hex.parse("G3"))) == 2 and pos.target_ft(Location(Hex.parse("B5"))) == 0
    # `ft` on the saved game counts them without --target-ft (A22.4): vs H2 the squad possessing one FT
    from asl_vassal_bridge.cli import main

    boards = str(vasl_file("boards", "bd01").parent)
    assert main(["ft", str(game), "--boards", boards, "--from", "H3", "--to", "H2"]) == 0
    assert "possessing 1 FT" in capsys.readouterr().out
    assert main(["ft", str(game), "--boards", boards, "--from", "H3", "--to", "H2", "--target-ft", "0"]) == 0
    assert "possessing" not in capsys.readouterr().out
