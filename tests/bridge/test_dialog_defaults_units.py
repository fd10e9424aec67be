"""The dialogs' defaults read from the game (issue 33), without an engine: FT when the selected stack holds a FT, the
stack's units by their counters' names (the id only between two of one name), an AFV named as its counter is; the
FT-only and AFV-only fields carry the condition that shows them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from asl_vassal_bridge.bridge.attack_button import _target, form_spec, read_defaults
from asl_vassal_bridge.data import unit_catalogue

from .test_attack_hob_units import FT, MOL, SQUAD, slot_layers, unit  # noqa: F401
from .test_bridge_units import snapshot


def test_dialog_defaults_ft_preselected_and_the_squad_by_its_counters_name(slot_layers: Any) -> None:  # noqa: F811
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers), unit("ft", FT, "B2", slot_layers),
                     unit("sq-m", SQUAD, "C3", slot_layers), unit("mol", MOL, "C3", slot_layers)])
    d = read_defaults(snap, ["ft"], unit_catalogue())  # the FT counter clicked: its stack's squad fires it
    assert (d.weapon, dict(d.firers)) == ("FT", {"4-6-7 1sq": "sq"})
    spec = {f["key"]: f for f in json.loads(form_spec("ft", d))["fields"]}
    assert spec["weapon"]["value"] == "FT" and spec["firer"]["choices"] == ["4-6-7 1sq"]
    assert read_defaults(snap, ["sq-m"], unit_catalogue()).weapon is None  # a MOL stack: the dialog's MOL
    assert read_defaults(snap, [], unit_catalogue()).firers == {}


def test_dialog_defaults_two_units_of_one_name_told_apart_by_id(slot_layers: Any) -> None:  # noqa: F811
    snap = snapshot([unit("a", SQUAD, "B2", slot_layers), unit("b", SQUAD, "B2", slot_layers)])
    assert dict(read_defaults(snap, ["b", "a"], unit_catalogue()).firers) == {"4-6-7 1sq [b]": "b",
                                                                             "4-6-7 1sq [a]": "a"}


def test_dialog_defaults_fields_that_show_only_when_they_apply() -> None:
    spec = {f["key"]: f for f in json.loads(form_spec(None))["fields"]}
    assert spec["original_ift_result"]["when"] == {"key": "weapon", "values": ["FT"]}
    assert spec["basic_tk"]["when"] == spec["predesignated"]["when"] == {"key": "afv", "values": ["true"]}
    assert "when" not in spec["target"] and spec["phase"]["value"] == "PFPh"


@pytest.mark.parametrize(("typed", "read"), [("E3", "E3"), ("PzKw IB", "tank"), ("tank", "tank"), ("FT", "FT")])
def test_dialog_defaults_an_afv_named_as_its_counter_is(typed: str, read: str, slot_layers: Any) -> None:  # noqa: F811
    snap = snapshot([{"id": "tank", "name": "PzKw IB", "location": "C3"}, {"id": "f1", "name": "FT"},
                     {"id": "f2", "name": "FT"}])
    assert _target(snap, typed) == read  # a Location as typed; a unique counter name → its piece id
