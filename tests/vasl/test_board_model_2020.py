"""The archive reader's second reading: the VASL of 2020's terrain model (``model="2020"``), for a live bridge on
that VASL (the snapshot's ``vasl_model``) and its ``--boards`` fallback; VASL 6.7.x's reading stays the default.

Each case is one rule where the two models differ (docs/vasl-readers.md, "Which VASL's model").
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.vasl.board import VaslBoard, VaslModel, read_board_archive, reversed_board, vasl_model
from asl_vassal_bridge.vasl.overlay import apply_entry
from asl_vassal_bridge.vasl.safe import Archive
from asl_vassal_bridge.vasl.terrain import TerrainTable, terrain_types_from_xml
from asl_vassal_bridge.vasl.vsav import BoardEntry, BoardOverlay

from .builders import blank_grid, board_archive, code_of, terrain_types_xml


@pytest.fixture(scope="module")
def table() -> TerrainTable:
    return terrain_types_from_xml(terrain_types_xml(), "types.xml")


def board(table: TerrainTable, terrain: npt.NDArray[np.uint8], elevation: npt.NDArray[np.int8], model: VaslModel,
          width: int = 5, height: int = 3) -> VaslBoard:
    data = board_archive(terrain, elevation, width, height)
    return read_board_archive(Archive(data, "bdt"), "bdt", table, model=model)


def test_vasl_2020_reads_the_centre_dot_itself_6_7_one_pixel_off(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    ter[96, 112] = code_of("Dirt Road")  # C2's centre point
    ter[95, 113] = code_of("Woods")  # one pixel right and up: VASL 6.7.x's sample
    elev[95, 113] = 1
    old, new = board(table, ter, elev, "2020"), board(table, ter, elev, "6.7")
    assert (old.model, old.hex("C2").terrain.name, old.hex("C2").elevation) == ("2020", "Dirt Road", 0)
    assert (new.model, new.hex("C2").terrain.name, new.hex("C2").elevation) == ("6.7", "Woods", 1)


def test_vasl_2020_keeps_a_single_hex_bridge_as_the_hex_terrain_with_no_location_chain(table: TerrainTable) -> None:
    ter, elev = blank_grid(33, 10)
    ter[65:129, 85:140] = code_of("Shallow Stream")
    elev[65:129, 85:140] = -1
    ter[90:103, 90:135] = code_of("Single Hex Stone Bridge")  # over C2's centre dot
    elev[90:103, 90:135] = 0
    c2 = board(table, ter, elev, "2020", 33, 10).hex("C2")
    assert (c2.terrain.name, c2.elevation) == ("Single Hex Stone Bridge", 0)
    assert c2.locations == (("Single Hex Stone Bridge", 0),) and c2.centre == 0
    assert len(board(table, ter, elev, "6.7", 33, 10).hex("C2").locations) == 2  # 6.7.x: the stream below


def test_vasl_2020_reads_a_reversed_board_unturned(table: TerrainTable) -> None:
    ter, elev = blank_grid(33, 10)
    ter[::7, ::5] = code_of("Woods")  # a pattern the 180° turn moves under other samples
    old = board(table, ter, elev, "2020", 33, 10)
    assert reversed_board(old) is old
    new = board(table, ter, elev, "6.7", 33, 10)
    assert reversed_board(new) is not new


def test_vasl_2020_applies_no_overlay_and_names_each(table: TerrainTable) -> None:
    ter, elev = blank_grid(5, 3)
    entry = BoardEntry(0, 0, "t", overlays=(BoardOverlay("st1", "C2", "D3", False),))
    b, notes = apply_entry(board(table, ter, elev, "2020"), entry, None)
    assert b.model == "2020"
    assert notes == ["board t: overlay st1 (C2-D3) not applied to the terrain: the VASL of 2020 puts no overlay "
                     "in its terrain model"]


def test_the_snapshot_says_which_model_the_running_vasl_builds() -> None:
    def snap(value: object) -> dict[str, object]:
        return {"maps": [{"name": "Main Map", "vasl_model": value, "boards": []}]}

    assert bridge_snapshot.snapshot_vasl_model(snap("2020")) == "2020"
    assert bridge_snapshot.snapshot_vasl_model(snap("6.7")) == "6.7"
    assert bridge_snapshot.snapshot_vasl_model(snap(None)) == "6.7"
    assert bridge_snapshot.snapshot_vasl_model({"maps": [{"name": "Main Map"}]}) == "6.7"  # an older extension
    with pytest.raises(bridge_snapshot.NoTerrain, match=r"^map Main Map: the snapshot's vasl_model: '5\.1' is no "
                       r"VASL terrain model this reader knows \(expected 6\.7 or 2020\)$"):
        bridge_snapshot.snapshot_vasl_model(snap("5.1"))
    with pytest.raises(ValueError, match=r"expected 6\.7 or 2020"):
        vasl_model(2020)
