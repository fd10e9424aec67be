"""The VASL counter definitions the live suite builds itself are VASL's own (checked against VASL 6.5's buildFile)."""

from __future__ import annotations

from pathlib import Path

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
