"""``Position.add_fire`` keeps B25.1 and B25.15 itself: the API refuses what the widget's click tools refuse."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core import Fire, FireKind, GameMap, Hex, HexInfo, IllegalAction, Location, Position, Terrain


def _pos() -> Position:
    terrain = {"A1": Terrain.WATER, "A2": Terrain.WOODS, "B1": Terrain.OPEN_GROUND}
    return Position(GameMap.from_hexes({Hex.parse(k): HexInfo(t) for k, t in terrain.items()}))


@pytest.mark.parametrize("name", ["A1", "B1"])
@pytest.mark.parametrize("kind", [FireKind.FLAME, FireKind.BLAZE])
def test_a_fire_in_a_location_that_cannot_burn_is_refused_with_its_rule(name: str, kind: FireKind) -> None:
    pos = _pos()
    with pytest.raises(IllegalAction, match=r"cannot burn \(B25\.1\)"):
        pos.add_fire(Fire(Location(Hex.parse(name)), kind))


def test_a_flame_beside_a_blaze_is_refused_and_a_blaze_replaces_flames() -> None:
    pos = _pos()
    loc = Location(Hex.parse("A2"))
    with_flame = pos.add_fire(Fire(loc, FireKind.FLAME))
    blazing = with_flame.add_fire(Fire(loc, FireKind.BLAZE))
    assert [f.kind for f in blazing.fires] == [FireKind.BLAZE]  # B25.15
    with pytest.raises(IllegalAction, match=r"already holds a Blaze \(B25\.15\)"):
        blazing.add_fire(Fire(loc, FireKind.FLAME))
