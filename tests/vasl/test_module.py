"""The module reader on VASL's real buildFiles (6.5 whole, 6.7.0 fire-slot excerpt)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from asl_vassal_bridge.core.environment import EC, WindForce
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.vasl import counters as c
from asl_vassal_bridge.vasl.counters import FireCounter
from asl_vassal_bridge.vasl.module import ModuleIndex, read_module, read_module_bytes

from .conftest import vasl_file

#: vasl-formats.md's table: gpids present in both 6.5 and the 6.7.0 excerpt.
EXCERPT_GPIDS = {
    "192": FireCounter.FLAME, "195": FireCounter.BLAZE, "197": FireCounter.BUILDING_BLAZE,
    "191": FireCounter.BURNT_OUT_WRECK, "284": FireCounter.EC, "285": FireCounter.WIND_DIR,
    "286": FireCounter.GUSTS, "287": FireCounter.WIND,
}
FULL_GPIDS = {
    **EXCERPT_GPIDS,
    "198": FireCounter.BUILDING_BLAZE, "199": FireCounter.BUILDING_BLAZE, "200": FireCounter.BUILDING_BLAZE,
    "332": FireCounter.FLAME, "5710": FireCounter.FLAME, "335": FireCounter.BLAZE, "5713": FireCounter.BLAZE,
    "114": FireCounter.BLAZE, "4142": FireCounter.WRECK, "5806": FireCounter.WRECK, "4391": FireCounter.WRECK,
    "5807": FireCounter.WRECK, "0": FireCounter.PREP_FIRE, "1": FireCounter.PIN, "5704": FireCounter.PIN,
    **{str(g): FireCounter.SMOKE for g in range(205, 211)},
    **{str(g): FireCounter.LEVEL for g in (163, 165, 167, 169, 171, 173, 6663)},
}


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    return read_module(vasl_file("buildFile-6.5.xml"))


@pytest.fixture(scope="module")
def vasl67() -> ModuleIndex:
    return read_module(vasl_file("buildFile-6.7.0-fire-slots-excerpt.xml"))


def test_vasl65_buildfile_indexes_every_slot_and_prototype(vasl65: ModuleIndex) -> None:
    assert vasl65.root == "VASSAL.launch.BasicModule"
    assert (vasl65.name, vasl65.version) == ("VASL", "6.5-beta3")
    assert len(vasl65.slots) == 5445
    assert len(vasl65.prototypes) == 284
    assert "DBGlobal" in vasl65.prototypes
    assert vasl65.prototypes["DBGlobal"].traits


def test_vasl65_every_fire_slot_found_with_its_gpid(vasl65: ModuleIndex) -> None:
    found = {s.gpid: kind for kind, s in vasl65.fire_slots()}
    for gpid, kind in FULL_GPIDS.items():
        assert found.get(gpid) is kind, gpid


def test_vasl67_excerpt_every_fire_slot_found_with_its_gpid(vasl67: ModuleIndex) -> None:
    found = {s.gpid: kind for kind, s in vasl67.fire_slots()}
    assert found == EXCERPT_GPIDS


def test_palette_paths_of_flame_ec_and_hidden_window(vasl65: ModuleIndex) -> None:
    assert vasl65.by_gpid["192"].path == ("VASL Counters", "Info", "Destroy", "Flame / Blaze")
    assert vasl65.by_gpid["284"].path == ("VASL Counters", "Other", "Map", "Weather / EC")
    assert vasl65.by_gpid["5710"].path == ("?",)
    assert vasl65.by_gpid["191"].path[-1] == "Basic"


def test_vasl_has_about_900_vehicle_wrecks_in_the_hidden_window(vasl65: ModuleIndex) -> None:
    wrecks = [s for k, s in vasl65.fire_slots() if k is FireCounter.WRECK and s.name.endswith(" Wreck")]
    assert len(wrecks) > 800
    assert all(s.path[0] == "?" for s in wrecks)


def test_b25_15_flame_slot_has_replace_blaze_and_placemark_pin_traits(vasl65: ModuleIndex,
                                                                       vasl67: ModuleIndex) -> None:
    for idx in (vasl65, vasl67):
        flame = idx.by_gpid["192"]
        ids = [t.id for t in flame.traits]
        assert ids[-1] == "piece" and flame.piece_name == "Flame"
        assert "placemark" in ids and "replace" in ids
        placemark = next(t for t in flame.traits if t.id == "placemark")
        assert placemark.fields[1] == "Pin"
        assert "PieceSlot:Pin" in placemark.fields[3]  # escapes undone: a plain '/' path
        replace = next(t for t in flame.traits if t.id == "replace")
        assert replace.fields[1] == "Blaze"
        assert flame.prototypes == ("DBGlobal",)


def test_gpid_attribute_wins_and_67_state_has_trailing_property_count(vasl67: ModuleIndex) -> None:
    bow = vasl67.by_gpid["191"]
    assert bow.traits[-1].state_fields[:4] == ["null", "0", "0", "191"]
    assert len(bow.traits[-1].state_fields) > 4


def test_palette_faces_decode_ec_moderate_wind_no_wind_dir_3_no_gusts(vasl65: ModuleIndex,
                                                                     vasl67: ModuleIndex) -> None:
    for idx in (vasl65, vasl67):
        assert c.ec_from_piece(idx.by_gpid["284"].traits) is EC.MODERATE
        assert c.wind_force_from_piece(idx.by_gpid["287"].traits) is WindForce.NO_WIND
        assert int(c.wind_direction_from_piece(idx.by_gpid["285"].traits)) == 3
        assert c.gusts_from_piece(idx.by_gpid["286"].traits) is False
        assert c.piece_name(idx.by_gpid["284"].traits) == "EC: 0 Moderate"


def test_level_markers_decode_their_initial_faces(vasl65: ModuleIndex) -> None:
    faces = {g: c.level_from_piece(vasl65.by_gpid[g].traits) for g in ("163", "165", "167", "169", "171", "173")}
    assert faces["171"].level == -1
    assert faces["173"].level == 0
    assert faces["167"].level == 1
    assert faces["169"].level == 2
    assert faces["163"].level == 3
    assert faces["165"].rooftop


def test_module_read_from_a_vmod_zip(tmp_path: Path) -> None:
    src = vasl_file("buildFile-6.7.0-fire-slots-excerpt.xml").read_bytes()
    vmod = tmp_path / "VASL.vmod"
    with zipfile.ZipFile(vmod, "w") as z:
        z.writestr("buildFile.xml", src)
        z.writestr("moduledata", "<data/>")
    assert read_module(vmod).by_gpid["192"].name == "Flame"


def test_module_zip_without_buildfile_is_bad_input(tmp_path: Path) -> None:
    vmod = tmp_path / "x.vmod"
    with zipfile.ZipFile(vmod, "w") as z:
        z.writestr("moduledata", "<data/>")
    with pytest.raises(BadInput, match="no buildFile"):
        read_module(vmod)


@pytest.mark.parametrize("data", [b"", b"<VASSAL.build.GameModule>", b"<html><body/></html>", b"\x00\x01garbage"])
def test_broken_buildfile_is_bad_input_naming_the_file(data: bytes) -> None:
    with pytest.raises(BadInput, match=r"broken\.xml"):
        read_module_bytes(data, "broken.xml")


def test_buildfile_entities_are_not_expanded() -> None:
    xml = (b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           b'<VASSAL.build.GameModule name="&x;"><VASSAL.build.widget.PieceSlot entryName="Flame" gpid="192">'
           b'+/null/piece;K;D;;Flame/null;0;0;192</VASSAL.build.widget.PieceSlot></VASSAL.build.GameModule>')
    try:
        idx = read_module_bytes(xml, "evil.xml")
    except BadInput:
        return  # refusing is fine too
    assert "root:" not in idx.name
    assert idx.by_gpid["192"].name == "Flame"


def test_cli_module_lists_fire_counters(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from asl_vassal_bridge.cli.vasl import cmd_module
    rc = cmd_module(argparse.Namespace(module=vasl_file("buildFile-6.5.xml"), json=False, all_wrecks=False))
    out = capsys.readouterr().out
    assert rc == 0
    assert "192" in out and "Flame / Blaze" in out and "wind-dir" in out


def test_one_pass_trait_split_agrees_with_the_general_decoder_on_every_slot(vasl65: ModuleIndex) -> None:
    from asl_vassal_bridge.vasl.traits import _decode_traits_general, decode_traits
    for piece in (*vasl65.slots, *vasl65.prototypes.values()):
        assert decode_traits(piece.type, piece.state) == _decode_traits_general(piece.type, piece.state), piece.name
