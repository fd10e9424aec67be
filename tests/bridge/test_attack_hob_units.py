"""A22 attacks and A15 Heat of Battle on the bridge without an engine: declaration → one batch.

The pieces carry the layers of VASL's real counters (the German 4-6-7 1sq
slot, the German FT, the MOL counter), built by tests/support/vasl_counters.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import pytest

from asl_vassal_bridge.bridge.attacks import AttackRequest, attack_batch, prepare_attack, resolve
from asl_vassal_bridge.bridge.hob import HERO_GPIDS, hob_batch, hob_unit
from asl_vassal_bridge.core.dice import Roll, ScriptedDice
from asl_vassal_bridge.core.errors import BadInput, IllegalAction
from asl_vassal_bridge.core.heat_of_battle import heat_of_battle
from asl_vassal_bridge.core.units import Nationality
from asl_vassal_bridge.data import unit_catalogue
from asl_vassal_bridge.vasl.counters import PLACE_GPIDS, FireCounter
from asl_vassal_bridge.vasl.pieces import (
    art_folder,
    broken_layer_change,
    is_broken,
    nationality_of,
    unit_type,
)
from tests.support import vassal_harness as vh

from .test_bridge_units import piece, snapshot

SQUAD, FT, MOL = "11467", "2473", "490"


@pytest.fixture(scope="module")
def slot_layers() -> dict[str, list[dict[str, str]]]:
    from asl_vassal_bridge.vasl.traits import decode_sequence, decode_traits

    out = {}
    texts = vh.slot_texts()
    for gpid in (SQUAD, FT, MOL):
        parts = decode_sequence(texts[gpid], "/")
        traits = decode_traits(parts[2], parts[3])
        out[gpid] = [{"type": t.type, "state": t.state} for t in traits if t.id in ("emb2", "emb")]
    return out


def unit(pid: str, gpid: str, loc: str, layers: dict[str, list[dict[str, str]]], name: str = "") -> dict[str, Any]:
    return piece(pid, name or {SQUAD: "4-6-7 1sq", FT: "FT", MOL: "MOL-P"}[gpid], gpid, loc, layers[gpid])


class Faces:
    """Scripted die faces recorded as the bridge records VASSAL's (purpose, faces)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.dice = ScriptedDice(faces)
        self.rolled: list[tuple[str, Sequence[int]]] = []

    def DR(self, purpose: str) -> Roll:
        r = self.dice.DR(purpose)
        self.rolled.append((purpose, [r.colored, r.white or 0]))
        return r

    def dr(self, purpose: str) -> Roll:
        r = self.dice.dr(purpose)
        self.rolled.append((purpose, [r.colored]))
        return r


def test_counter_reads_german_4_6_7_first_line_squad_a15(slot_layers: Any) -> None:
    sq = unit("sq", SQUAD, "B2", slot_layers)
    assert nationality_of(sq) is Nationality.GERMAN and art_folder(sq) == "ge"
    nat, mmc, name = unit_type(sq, unit_catalogue())
    assert (nat, name, str(mmc.strength) if mmc else None) == (Nationality.GERMAN, "4-6-7 1sq", "4-6-7")
    assert not is_broken(sq)
    # the squad's broken side: VASL's Ctrl-F layer (index 2), at the 4-6-7's level (2)
    assert broken_layer_change(sq) == {"id": "sq", "index": 2, "value": 2}
    assert nationality_of(unit("m", MOL, "B2", slot_layers)) is Nationality.RUSSIAN


def test_mol_colored_1_places_a_flame_in_the_target_location_a22_6111(slot_layers: Any) -> None:
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers)])
    prep = prepare_attack(snap, AttackRequest("mol", "sq", "C2"))
    faces = Faces([1, 1, 3])  # MOL Check dr 1, then the attack DR colored 1, white 3
    outcome = resolve(prep, faces)
    batch = attack_batch(prep, outcome, session=7, rolls=faces.rolled)
    assert batch["place"] == [{"gpid": PLACE_GPIDS[FireCounter.FLAME], "location": "C2", "map": "Main Map"}]
    assert batch["layers"] == [] and batch["remove"] == [] and batch["phase"] is None and batch["session"] == 7
    assert len(batch["rolls"]) == 2 and "A22.611" in batch["rolls"][0]["text"]
    chat = "\n".join(batch["chat"] + batch["summary"])
    assert "MOL attack" in chat and "A22.6111" in chat and "DRM" in chat


def test_mol_colored_6_breaks_the_thrower_and_burns_his_location_a22_6111(slot_layers: Any) -> None:
    snap = snapshot([unit("sq", SQUAD, "C3", slot_layers)])
    prep = prepare_attack(snap, AttackRequest("mol", "sq", "B3"))
    faces = Faces([1, 6, 2])
    batch = attack_batch(prep, resolve(prep, faces), session=1, rolls=faces.rolled)
    assert batch["place"] == [{"gpid": PLACE_GPIDS[FireCounter.FLAME], "location": "C3", "map": "Main Map"}]
    assert batch["layers"] == [{"id": "sq", "index": 2, "value": 2}]
    assert batch["expect"] == {"sq": "r-sq"}


def test_ft_malfunction_removes_the_ft_counter_a22_5(slot_layers: Any) -> None:
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers), unit("ft", FT, "B2", slot_layers)])
    prep = prepare_attack(snap, AttackRequest("ft", "sq", "B3"))
    assert prep.weapon_piece is not None and prep.weapon_piece["id"] == "ft"
    faces = Faces([5, 6])
    batch = attack_batch(prep, resolve(prep, faces), session=1, rolls=faces.rolled)
    assert batch["remove"] == ["ft"] and batch["expect"] == {"ft": "r-ft"}
    assert any("A22.5" in line for line in batch["summary"])
    # the FT counter itself may be named as the firer
    assert prepare_attack(snap, AttackRequest("ft", "ft", "B3")).firer_piece["id"] == "sq"


def test_ft_attack_needs_a_ft_counter_in_the_stack_a22(slot_layers: Any) -> None:
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers)])
    with pytest.raises(BadInput, match="no FT counter"):
        prepare_attack(snap, AttackRequest("ft", "sq", "B3"))


def test_a22_4_the_targets_ft_counter_sets_its_vulnerability_without_a_flag(slot_layers: Any) -> None:
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers), unit("ft", FT, "B2", slot_layers),
                     unit("sq2", SQUAD, "B3", slot_layers), unit("ft2", FT, "B3", slot_layers)])
    prep = prepare_attack(snap, AttackRequest("ft", "sq", "B3"))
    assert prep.plan.attack.target_ft == 1 and any("A22.4" in e.rule for e in prep.plan.notes)
    assert {u.id: u.ft for u in prep.position.units} == {"sq": 1, "sq2": 1}
    prep = prepare_attack(snap, AttackRequest("ft", "sq", "B3", options={"target_ft": 0}))  # the request says
    assert prep.plan.attack.target_ft == 0


def test_illegal_declaration_is_refused_with_its_rule_a22_6(slot_layers: Any) -> None:
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers)])
    with pytest.raises(IllegalAction, match=r"A22\.6"):
        prepare_attack(snap, AttackRequest("mol", "sq", "C2", options={"available": False}))


def test_unknown_firer_or_target_is_refused_clearly(slot_layers: Any) -> None:
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers)])
    with pytest.raises(BadInput, match="no-such"):
        prepare_attack(snap, AttackRequest("mol", "no-such", "C2"))
    with pytest.raises(BadInput, match="neither a Location"):
        prepare_attack(snap, AttackRequest("mol", "sq", "ZZ99x"))
    with pytest.raises(BadInput, match="ft or mol"):
        AttackRequest("dc", "sq", "C2")


def test_hob_battle_hardening_switches_the_class_layer_a15_3(slot_layers: Any) -> None:
    sq = unit("sq", SQUAD, "B2", slot_layers)
    hu, _mmc, cat = hob_unit(sq, unit_catalogue())
    hob = heat_of_battle(hu, ScriptedDice([4, 4]), catalogue=cat)  # Final 8: Battle Hardening
    batch = hob_batch(sq, hu, hob, session=3, rolls=[("Heat of Battle (A15.1)", [4, 4])])
    # 4-6-7 1sq → 4-6-8 Esq: layer 1 of VASL's class layer (index 3)
    assert batch["layers"] == [{"id": "sq", "index": 3, "value": 1}]
    text = "\n".join(batch["chat"] + [r["text"] for r in batch["rolls"]] + batch["summary"])
    assert "A15.1" in text and "A15.3" in text and "/36" in text and "Final 8" in text


def test_hob_hero_creation_places_the_nationality_hero_or_says_so_a15_21(slot_layers: Any) -> None:
    sq = unit("sq", SQUAD, "B2", slot_layers)
    hu, _mmc, cat = hob_unit(sq, unit_catalogue())
    hob = heat_of_battle(hu, ScriptedDice([1, 2]), catalogue=cat)
    batch = hob_batch(sq, hu, hob, session=1, rolls=[("Heat of Battle (A15.1)", [1, 2])])
    assert {"gpid": HERO_GPIDS["ge"], "map": "Main Map", "x": sq["x"], "y": sq["y"]} in batch["place"]
    bare = hob_batch(sq, hu, hob, session=1, rolls=[("Heat of Battle (A15.1)", [1, 2])], slots=frozenset())
    assert bare["place"] == [] and any("Hero" in line and "A15.21" in line for line in bare["summary"])


def test_cli_declaration_flags_become_the_request_a22() -> None:
    from asl_vassal_bridge.cli import bridge as cli

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["bridge", "attack", "mol", "--firer", "sq", "--target", "E3", "--cx", "--phase",
                              "DFPh", "--drm=-1:FFNAM"])
    req = cli.attack_request(args)
    assert (req.weapon, req.firer, req.target, req.phase.value) == ("mol", "sq", "E3", "DFPh")
    assert req.options["cx"] is True and req.options["available"] is True
    assert req.options["extra_drms"][0].value == -1
    bad = parser.parse_args(["bridge", "attack", "mol", "--firer", "sq", "--target", "E3", "--underscored"])
    with pytest.raises(BadInput, match="FT option"):
        cli.attack_request(bad)
    a224 = parser.parse_args(["bridge", "attack", "ft", "--firer", "sq", "--target", "E3", "--target-ft", "1"])
    assert cli.attack_request(a224).options["target_ft"] == 1  # A22.4
    hero = parser.parse_args(["bridge", "attack", "mol", "--firer", "sq", "--target", "E3", "--heroic"])
    assert cli.attack_request(hero).options["heroic"] is True  # A15.2
    h = parser.parse_args(["bridge", "hob", "--piece", "sq", "--no-enemy-in-los", "--fanatic"])
    hreq = cli.hob_request(h)
    assert hreq.piece == "sq" and not hreq.situation.known_enemy_in_los and hreq.flags == {"fanatic": True}


def test_cli_ft_original_ift_result_reaches_the_fire_start_b25_12(slot_layers: Any) -> None:
    from asl_vassal_bridge.cli import bridge as cli

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    snap = snapshot([unit("sq", SQUAD, "B2", slot_layers), unit("ft", FT, "B2", slot_layers)])
    base = ["bridge", "attack", "ft", "--firer", "sq", "--target", "C2", "--drm=1:Hindrance", "--ift-result", "1MC"]
    # a DRM: the Final DR's 1MC does not tell the Original DR's result, so the fire start is left unchecked
    faces = Faces([2, 3, 6, 6])
    prep = prepare_attack(snap, cli.attack_request(parser.parse_args(base)))
    batch = attack_batch(prep, resolve(prep, faces), session=1, rolls=faces.rolled)
    assert len(faces.rolled) == 1 and batch["place"] == []
    assert any("B25.12" in line and "not checked" in line for line in batch["summary"])
    # the Original DR's KIA: the FT fire-start DR is made (Woods, 12 ≥ Kindle #) and a Flame placed
    req = cli.attack_request(parser.parse_args([*base, "--original-ift-result", "KIA"]))
    assert req.original_ift_result == "KIA"
    faces = Faces([2, 3, 6, 6])
    prep = prepare_attack(snap, req)
    batch = attack_batch(prep, resolve(prep, faces), session=1, rolls=faces.rolled)
    assert [purpose for purpose, _ in faces.rolled][1].startswith("FT fire start in C2")
    assert batch["place"] == [{"gpid": PLACE_GPIDS[FireCounter.FLAME], "location": "C2", "map": "Main Map"}]
    assert any("Original K/KIA" in line and "B25.12" in line for line in batch["summary"])
    with pytest.raises(BadInput, match="FT option"):
        cli.attack_request(parser.parse_args(["bridge", "attack", "mol", "--firer", "sq", "--target", "C2",
                                              "--original-ift-result", "KIA"]))
