"""The VASL counter definitions the live suite builds itself are VASL's own (checked against VASL 6.5's buildFile)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from lxml import etree

from tests.support import vasl_counters as vc


def test_built_slots_and_prototypes_are_vasls_own(shared_vasl: Path) -> None:
    root = etree.parse(str(shared_vasl / "buildFile-6.5.xml")).getroot()
    real_slots: dict[tuple[str, str], etree._Element] = {}
    for el in root.iter("VASSAL.build.widget.PieceSlot"):
        real_slots.setdefault((el.get("entryName") or "", el.get("gpid") or ""), el)
    real_protos: dict[str, etree._Element] = {}
    for el in root.iter("VASSAL.build.module.PrototypeDefinition"):
        real_protos.setdefault(el.get("name") or "", el)
    for key, slot in vc.SLOTS.items():
        mine = etree.fromstring(vc.slot_xml(slot))
        assert dict(mine.attrib) == dict(real_slots[key].attrib), key
        assert mine.text == real_slots[key].text, key
    for name in vc.PROTOTYPES:
        assert etree.fromstring(vc.prototype_xml(name)).text == real_protos[name].text, name


def test_built_slots_place_their_hidden_twins() -> None:
    """The Flame's Place Marker and Replace traits name slots of the hidden "?" window, which the module carries."""
    names = {(s.name, s.gpid) for s in vc.SLOTS.values()}
    assert {("Pin", "5704"), ("Flame", "5710"), ("Blaze", "5713")} <= names
    flame = vc.piece_text(vc.SLOTS[("Flame", "192")].traits)
    assert "PieceWindow:?\\/VASSAL.build.widget.PieceSlot:Pin" in flame


def test_the_live_test_module_needs_no_shared_vasl(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The engine tests build their module from the counters above: nothing is read from ../shared/vasl."""
    from tests.support import vassal_harness as vh

    monkeypatch.setattr(vh, "SHARED_VASL", tmp_path / "absent")
    monkeypatch.setattr(vh, "VASL_BUILDFILE", tmp_path / "absent" / "buildFile-6.5.xml")
    mod = vh.build_module(tmp_path / "m.vmod", boards=["bd01", "bd22"], terrain={"bd22": "M4\tWoods\n"})
    with zipfile.ZipFile(mod) as z:
        bf = z.read("buildFile.xml").decode()
        assert z.read("standin-terrain/bd22.txt") == b"M4\tWoods\n"
    for name, gpid in (*vh.FIRE_SLOTS, *vh.GAME_SLOTS, *vh.UNIT_SLOTS, *vh.HIDDEN_SLOTS):
        assert f'entryName="{name}" gpid="{gpid}"' in bf
    assert bf.count('name="bd01"') == 1 and bf.count('name="bd22"') == 1
