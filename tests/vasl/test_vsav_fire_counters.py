"""A saved game's fire counters are read as they lie, even where nothing can burn (B25.1): named, not refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.position import Location
from asl_vassal_bridge.vasl.module import read_module
from asl_vassal_bridge.vasl.position import DEFAULT_EDGE, position_from_vsav

from .builders import make_vsav, placed
from .conftest import vasl_file


def _at(name: str) -> tuple[int, int]:
    x, y = Hex.parse(name).pixel()
    return int(x) + DEFAULT_EDGE[0], int(y) + DEFAULT_EDGE[1]


def test_a_flame_counter_on_open_ground_is_kept_and_named_b25_1(tmp_path: Path) -> None:
    slots = read_module(vasl_file("buildFile-6.5.xml")).by_gpid
    flame = "192"
    pieces = [("f1", *placed(slots[flame], *_at("A2"))), ("f2", *placed(slots[flame], *_at("C2")))]
    game = tmp_path / "game.vsav"
    game.write_bytes(make_vsav(pieces, boards="bd\t0\t0\t01"))
    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    assert {f.location for f in pos.flames()} == {Location(Hex.parse("A2")), Location(Hex.parse("C2"))}
    assert "fire counters where nothing can burn (B25.1): A2 (Open Ground)" in pos.notes


def test_the_same_position_refuses_a_new_flame_there_b25_1(tmp_path: Path) -> None:
    from asl_vassal_bridge.core.errors import IllegalAction
    from asl_vassal_bridge.core.position import Fire, FireKind

    slots = read_module(vasl_file("buildFile-6.5.xml")).by_gpid
    game = tmp_path / "game.vsav"
    game.write_bytes(make_vsav([("f2", *placed(slots["192"], *_at("C2")))], boards="bd\t0\t0\t01"))
    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    with pytest.raises(IllegalAction, match="cannot burn"):
        pos.add_fire(Fire(Location(Hex.parse("A2")), FireKind.FLAME))


def test_a_saved_games_smoke_counters_are_read_with_their_face_b25_651(tmp_path: Path) -> None:
    """VASL 6.5's SMOKE counters in a saved game: white SMOKE, grey (Dispersed) WP; a grenade has no Dispersed face
    and is left to the players."""
    from asl_vassal_bridge.core.dice import ScriptedDice
    from asl_vassal_bridge.core.position import Phase, Smoke
    from asl_vassal_bridge.core.values import replace
    from asl_vassal_bridge.core.wind import rally_phase

    slots = read_module(vasl_file("buildFile-6.5.xml")).by_gpid
    pieces = [("s1", *placed(slots["57"], *_at("C2"))), ("s2", *placed(slots["62"], *_at("C3"))),
              ("s3", *placed(slots["67"], *_at("C4")))]
    game = tmp_path / "game.vsav"
    game.write_bytes(make_vsav(pieces, boards="bd\t0\t0\t01"))
    pos = position_from_vsav(game, vasl_file("boards", "bd01").parent)
    c2, c3 = Location(Hex.parse("C2")), Location(Hex.parse("C3"))
    assert pos.smoke == (Smoke(c2), Smoke(c3, wp=True, dispersed=True))
    gusty, _report = rally_phase(pos.with_(clock=replace(pos.clock, phase=Phase.RPH)), ScriptedDice([6, 6]))
    assert gusty.smoke == (Smoke(c2, dispersed=True),)  # B25.651
