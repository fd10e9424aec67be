"""Building TEM by Location (B23.3–B23.921), as building_tem computes it and location_tem reads it off the map."""

from __future__ import annotations

from typing import Any

import pytest

from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.molotov import location_tem
from asl_vassal_bridge.core.position import GameMap, HexInfo, Location, Position
from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material, Terrain, building_tem


def h(name: str) -> Hex:
    return Hex.parse(name)


def total(pos: Position, loc: Location, **kw: Any) -> int:
    return sum(d.value for d in location_tem(pos, loc, **kw))


@pytest.mark.parametrize(("material", "fortified", "tem"), [
    (Material.STONE, False, 3), (Material.WOODEN, False, 2), (Material.STONE, True, 4), (Material.WOODEN, True, 3),
])
def test_b23_3_b23_921_stone_wooden_fortified(material: Material, fortified: bool, tem: int) -> None:
    assert building_tem(material, fortified=fortified) == tem


def test_b23_81_rooftop_and_b23_31_bypassing_get_no_building_tem() -> None:
    assert building_tem(Material.STONE, rooftop=True) == 0
    assert building_tem(Material.STONE, bypassing=True) == 0


def test_b23_741_factory_within_same_building_is_plus_1() -> None:
    assert building_tem(Material.STONE, factory_same_building=True) == 1
    # B23.921: a Fortified Location's TEM is one greater than usual, the Factory's +1 included.
    assert building_tem(Material.STONE, factory_same_building=True, fortified=True) == 2


def test_b23_32_ex_indirect_fire_wooden_two_story_ground_3_stone_multi_story_level1_4() -> None:
    assert building_tem(Material.WOODEN, indirect_fire_levels_above=1) == 3
    assert building_tem(Material.STONE, indirect_fire_levels_above=1) == 4


@pytest.fixture
def town() -> Position:
    hexes = {
        h("A1"): HexInfo(Terrain.OPEN_GROUND),
        h("A2"): HexInfo(building="house"),
        h("A3"): HexInfo(building="shack"),
        h("B1"): HexInfo(building="factory"),
        h("B2"): HexInfo(building="factory"),
        h("C1"): HexInfo(Terrain.WOODS),
        h("C2"): HexInfo(Terrain.GRAIN),
    }
    buildings = [
        Building("house", Material.STONE, BuildingKind.MULTI_STORY, rooftop=True, fortified=frozenset({("A2", 0)})),
        Building("shack", Material.WOODEN, BuildingKind.TWO_STORY),
        Building("factory", Material.STONE, BuildingKind.FACTORY, rooftop=True, fortified=frozenset({("B2", 0)})),
    ]
    return Position(GameMap.from_hexes(hexes, buildings))


def test_location_tem_reads_material_and_fortification(town: Position) -> None:
    assert total(town, Location(h("A2"))) == 4  # stone, Fortified (B23.921)
    assert total(town, Location(h("A2"), 1)) == 3
    assert total(town, Location(h("A3"))) == 2
    assert [d.rule for d in location_tem(town, Location(h("A2")))] == ["B23.3, B23.921"]


def test_location_tem_rooftop_height_advantage_only_vs_a_lower_firer(town: Position) -> None:
    roof = town.map.parse_location("A2.roof")
    assert total(town, roof, firer=Location(h("A1"))) == 1
    assert location_tem(town, roof, firer=Location(h("A1")))[0].rule == "B23.81"
    assert total(town, roof) == 0


def test_location_tem_bypassing_unit_gets_none(town: Position) -> None:
    assert total(town, Location(h("A3")), bypassing=True) == 0


def test_location_tem_indirect_fire_levels_above(town: Position) -> None:
    assert total(town, Location(h("A3")), indirect=True) == 3  # B23.32 EX
    assert total(town, Location(h("A2"), 1), indirect=True) == 4  # B23.32 EX
    assert total(town, Location(h("A2"), 2), indirect=True) == 3


def test_location_tem_factory_within_plus_1_from_outside_full(town: Position) -> None:
    assert total(town, Location(h("B1")), firer=Location(h("B2"))) == 1
    assert total(town, Location(h("B2")), firer=Location(h("B1"))) == 2  # Fortified, from within (B23.921)
    assert total(town, Location(h("B2")), firer=town.map.parse_location("B2.roof")) == 1  # own rooftop (B23.88)
    assert total(town, Location(h("B2")), firer=Location(h("A1"))) == 4
    assert total(town, Location(h("B2")), indirect=True) == 3  # no Fortified extra vs Indirect Fire (B23.741)


def test_location_tem_woods_plus_1_and_other_terrain_none(town: Position) -> None:
    assert total(town, Location(h("C1"))) == 1
    assert total(town, Location(h("C2"))) == 0
    assert total(town, Location(h("A1"))) == 0


def test_cli_tem_shows_the_fortified_stone_building_of_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    assert main(["tem", "demo", "I4.1"]) == 0
    assert "TEM +4" in capsys.readouterr().out
    assert main(["tem", "demo", "Z99"]) == 2
    assert "Z99" in capsys.readouterr().err
