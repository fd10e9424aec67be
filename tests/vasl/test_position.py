"""A saved game on bd01 → a core Position (fires, wind, EC from VASL's own counters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.core.environment import EC, WindForce
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.hexes import Direction, Hex
from asl_vassal_bridge.core.position import Location
from asl_vassal_bridge.vasl.module import ModuleIndex, read_module
from asl_vassal_bridge.vasl.position import DEFAULT_EDGE, position_from_vsav

from .builders import make_vsav, placed
from .conftest import vasl_file


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    return read_module(vasl_file("buildFile-6.5.xml"))


def at(name: str) -> tuple[int, int]:
    x, y = Hex.parse(name).pixel()
    return int(x) + DEFAULT_EDGE[0], int(y) + DEFAULT_EDGE[1]


@pytest.fixture(scope="module")
def game(vasl65: ModuleIndex, tmp_path_factory: pytest.TempPathFactory) -> Path:
    s = vasl65.by_gpid
    pieces = []

    def put(pid: str, gpid: str, hexname: str, **kw: object) -> None:
        t, st = placed(s[gpid], *at(hexname), **kw)  # type: ignore[arg-type]
        pieces.append((pid, t, st))

    put("f1", "192", "C2")  # Flame in the woods …
    put("p1", "1", "C2")  # … with VASL's PIN on it: placed this Player Turn (B25.15)
    put("f2", "192", "C3")  # an older Flame
    put("b1", "195", "H2")  # Blaze
    put("bb", "198", "E4")  # 2-level Blaze in the stone building
    put("f3", "192", "K4")  # Flame on Level 1 of the K4 building
    put("l3", "167", "K4")  # Level marker (Level 1 face)
    put("ec", "284", "A1", layer=4)  # EC: Moist
    put("wf", "287", "A2", layer=2)  # Mild Breeze
    put("wd", "285", "A3", layer=5)  # Wind Dir layer 5: image Wind1 → direction 1
    put("gu", "286", "A4", layer=1)  # Gusts
    put("hid", "195", "M4", hide_by="OtherPlayer")  # hidden: must not appear
    path = tmp_path_factory.mktemp("vsav") / "fire.vsav"
    path.write_bytes(make_vsav(pieces, boards="bd\t0\t0\t01"))
    return path


def test_position_from_vsav_fires_and_environment(game: Path) -> None:
    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    c2, c3 = Location(Hex.parse("C2")), Location(Hex.parse("C3"))
    assert [f.since for f in pos.flames_at(c2)] == [pos.clock.player_turn]  # PIN: new this Player Turn
    assert [f.since for f in pos.flames_at(c3)] == [0]
    assert pos.blaze_at(Location(Hex.parse("H2"))) is not None
    assert pos.blaze_at(Location(Hex.parse("E4"))) is not None
    assert pos.blaze_at(Location(Hex.parse("E4"), 1)) is not None  # B25.2: 2-level Blaze
    assert pos.blaze_at(Location(Hex.parse("E4"), 2)) is None
    assert pos.flames_at(Location(Hex.parse("K4"), 1))  # the Level marker's level
    assert pos.environment.ec is EC.MOIST
    assert pos.environment.wind.force is WindForce.MILD_BREEZE
    assert pos.environment.wind.direction is Direction.UP
    assert pos.environment.gusts is True


def test_hidden_blaze_is_not_in_the_position(game: Path) -> None:
    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    assert pos.blaze_at(Location(Hex.parse("M4"))) is None
    assert "OtherPlayer" not in repr(pos)


def test_basic_vsav_has_no_boards_so_no_position() -> None:
    with pytest.raises(BadInput, match="no boards"):
        position_from_vsav(vasl_file("saves", "basic.vsav"), vasl_file("boards", "bd01").parent)


def test_missing_board_archive_is_named(game: Path, tmp_path: Path) -> None:
    (tmp_path / "SharedBoardMetadata.xml").write_bytes(vasl_file("SharedBoardMetadata.xml").read_bytes())
    with pytest.raises(BadInput, match=r"board '01'.*bd01"):
        position_from_vsav(game, tmp_path)


def test_every_visible_piece_located_with_hex_and_level(game: Path) -> None:
    from asl_vassal_bridge.core.hexes import BoardPlacement
    from asl_vassal_bridge.vasl.board import read_board
    from asl_vassal_bridge.vasl.position import locate_pieces
    from asl_vassal_bridge.vasl.vsav import read_vsav

    g = read_vsav(game)
    bd01 = read_board(vasl_file("boards", "bd01"))
    placed = {pp.piece.id: pp for pp in locate_pieces(g, [(bd01, BoardPlacement("01"))])}
    assert "hid" not in placed  # the hidden Blaze is not even listed
    assert (placed["f1"].hex, placed["f1"].level) == ("C2", 0)
    assert (placed["f3"].hex, placed["f3"].level) == ("K4", 1)
    assert placed["ec"].hex == "A1"


def test_two_boards_second_reversed(vasl65: ModuleIndex, tmp_path: Path) -> None:
    """A Flame on board 02 (reversed, right of board 01) lands in 02C2, woods (board grid, VASL localCoordinates)."""
    import shutil
    for name in ("bd01", "bd02"):
        shutil.copy(vasl_file("boards", "bd01"), tmp_path / name)
    shutil.copy(vasl_file("SharedBoardMetadata.xml"), tmp_path / "SharedBoardMetadata.xml")
    lx, ly = Hex.parse("C2").pixel()
    x = DEFAULT_EDGE[0] + 1800 + round(1800 - lx)
    y = DEFAULT_EDGE[1] + round(645 - ly)
    t, s = placed(vasl65.by_gpid["192"], x, y)
    vsav = tmp_path / "two.vsav"
    vsav.write_bytes(make_vsav([("f", t, s)], boards="bd\t0\t0\t01\tVER\t6.1\tbd\t1\t0\tr02\tVER\t6.1\t"))
    pos = position_from_vsav(vsav, tmp_path)
    flame = pos.flames()[0]
    assert pos.loc_name(flame.location) == "02C2"
    assert pos.map.info(flame.location.hex).terrain.name == "WOODS"
    assert len(pos.map.hexes) == 2 * 346 - 10


def test_vasl_gusts_counter_acts_like_a_rolled_gust_b25_651(game: Path) -> None:
    """VASL's Gusts counter (gpid 286) showing Gusts: the Blazes spread downwind at the end of the AFPh."""
    from asl_vassal_bridge.core.dice import ScriptedDice
    from asl_vassal_bridge.core.fire import pending_spreads
    from asl_vassal_bridge.core.position import FireKind, Phase
    from asl_vassal_bridge.core.values import replace
    from asl_vassal_bridge.core.wind import rally_phase

    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    c3 = Location(Hex.parse("C3"))  # a Blaze in the C2-C3 woods, old enough to spread; C2 is downwind (1)
    pos = replace(pos, fires=tuple(replace(f, since=0, kind=FireKind.BLAZE) if f.location == c3 else f
                                   for f in pos.fires))
    afph = replace(pos, clock=replace(pos.clock, phase=Phase.AFPH))
    gusting = {t for t, sc in pending_spreads(afph).items() if sc.automatic}
    calm = replace(afph, environment=replace(afph.environment, gusts=False))
    assert gusting and not {t for t, sc in pending_spreads(calm).items() if sc.automatic}
    assert all(pending_spreads(afph)[t].reason.startswith("Gusts to 1") for t in gusting)
    # What a rolled Wind Change DR of 12 gives (tests/core/test_wind.py: rolled and given Gusts act alike).
    rolled, _ = rally_phase(replace(calm, clock=replace(pos.clock, phase=Phase.RPH)), ScriptedDice([6, 6, 1, 1]))
    assert rolled.environment.gusts
