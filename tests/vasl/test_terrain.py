"""Every VASL terrain type maps to fire-rules terrain (B25.1, B23)."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.terrain import BuildingKind, Material, Terrain, UnknownTerrainError
from asl_vassal_bridge.vasl.terrain import mapping_for, read_terrain_types, terrain_types_from_xml

from .conftest import vasl_file


@pytest.mark.parametrize("name", ["SharedBoardMetadata.xml", "SharedBoardMetadata-6.7-newer-terrain-types.xml"])
def test_every_vasl_terrain_type_is_mapped(name: str) -> None:
    table = read_terrain_types(vasl_file(name))  # raises UnknownTerrainError on any unmapped type
    assert len(table.by_code) >= 7
    for t in table.by_code.values():
        assert t.mapping is mapping_for(t.name)


def test_b25_1_burnable_types_and_numbers() -> None:
    assert mapping_for("Woods").terrain.kindle == 9
    assert mapping_for("Grain").terrain is Terrain.GRAIN
    assert mapping_for("Orchard, Out of Season").terrain is Terrain.ORCHARD
    assert mapping_for("Dense Jungle").terrain is Terrain.DENSE_JUNGLE
    assert mapping_for("Collapsed Huts").terrain is Terrain.HUT
    for name in ("Open Ground", "Water", "Paved Road", "Marsh", "Crags", "Shellholes", "Graveyard"):
        assert not mapping_for(name).terrain.burnable, name


def test_b23_building_material_and_levels_from_the_type_name() -> None:
    m = mapping_for("Wooden Building, 1 Level")
    assert (m.material, m.levels, m.kind, m.rooftop) == (Material.WOODEN, 1, BuildingKind.TWO_STORY, True)
    m = mapping_for("Stone Building")
    assert (m.material, m.levels, m.kind, m.rooftop) == (Material.STONE, 0, BuildingKind.SINGLE_STORY, False)
    assert mapping_for("Lumberyard").kind is BuildingKind.LUMBERYARD  # B23.211
    assert mapping_for("Stone Factory, 2.5 Level").kind is BuildingKind.FACTORY  # B23.74
    assert mapping_for("Huts").kind is BuildingKind.HUT


def test_rubble_hexside_rowhouse_and_inherent_flags() -> None:
    assert mapping_for("Wooden Rubble").rubble and mapping_for("Wooden Rubble").terrain.burnable
    assert mapping_for("Hedge").hexside and mapping_for("Wall").terrain is Terrain.WALL
    assert mapping_for("Rowhouse Wall, 2 Level").rowhouse
    assert Terrain.GRAIN.inherent


def test_unknown_terrain_type_is_named() -> None:
    xml = b'<terrainTypes><terrainType name="Lava Field" typeCode="250"/></terrainTypes>'
    with pytest.raises(UnknownTerrainError, match="Lava Field"):
        terrain_types_from_xml(xml, "x.xml")
