"""HE, WP and hut fire starts (B25.13, A24.32, huts) and a FT attack vs a hut on the bridge, without an engine:
the live Position read off a snapshot, the core's answer, one batch."""

from __future__ import annotations

from typing import Any

import pytest

from asl_vassal_bridge.bridge.attacks import AttackRequest, attack_batch, prepare_attack, resolve
from asl_vassal_bridge.bridge.convert import position_from_snapshot
from asl_vassal_bridge.bridge.firestarts import FireStartRequest, fire_start_batch, resolve_fire_start
from asl_vassal_bridge.core.errors import BadInput, IllegalAction
from asl_vassal_bridge.core.position import Phase
from asl_vassal_bridge.vasl.counters import PLACE_GPIDS, FireCounter

from .test_attack_hob_units import FT, SQUAD, Faces, slot_layers, unit  # noqa: F401 (slot_layers: a fixture)
from .test_bridge_units import snapshot

FLAME = {"gpid": PLACE_GPIDS[FireCounter.FLAME], "location": "B3", "map": "Main Map"}


def with_hut(snap: dict[str, Any], name: str = "B3") -> dict[str, Any]:
    for h in snap["maps"][0]["terrain"]["hexes"]:
        if h["name"] == name:
            h["locations"][0]["terrain"] = "Huts"
    return snap


def test_huts_a_ft_attack_vs_a_hut_places_its_flame_on_the_live_map(slot_layers: Any) -> None:  # noqa: F811
    snap = with_hut(snapshot([unit("sq", SQUAD, "B2", slot_layers), unit("ft", FT, "B2", slot_layers)]))
    prep = prepare_attack(snap, AttackRequest("ft", "sq", "B3", ift_result="1MC"))
    faces = Faces([1, 2])  # Original Effects DR 3 < X# 10: no K/KIA, no further DR (huts)
    batch = attack_batch(prep, resolve(prep, faces), session=3, rolls=faces.rolled)
    assert batch["place"] == [FLAME]
    # said once, on the attack DR's line
    lines = [r["text"] for r in batch["rolls"]] + batch["summary"]
    assert sum("FT Original Effects DR 3 < X# 10" in line for line in lines) == 1


def test_huts_an_mg_attacks_colored_1_places_the_flame_without_a_roll() -> None:
    live = position_from_snapshot(with_hut(snapshot([])), phase=Phase.PFPH)
    req = FireStartRequest("hut", "B3", attack_dr=(1, 5), hut_attack="mg")
    faces = Faces([])
    after, rep, _ = resolve_fire_start(live, req, faces)
    batch = fire_start_batch(live, live.position, after, rep, session=1, rolls=faces.rolled, request=req,
                             map_name="Main Map")
    assert batch["place"] == [FLAME] and batch["rolls"] == []
    assert "huts" in batch["chat"][0] and any("colored dr 1" in line for line in batch["summary"])


def test_huts_an_attack_vs_two_hut_locations_picks_the_flames_hut_by_random_selection_with_vassals_dice() -> None:
    live = position_from_snapshot(with_hut(with_hut(snapshot([])), "C2"), phase=Phase.PFPH)
    req = FireStartRequest("hut", "B3,C2", attack_dr=(1, 5), hut_attack="mg")
    faces = Faces([5, 2])  # one dr each, B3 then C2: B3 takes the Flame
    after, rep, _ = resolve_fire_start(live, req, faces)
    batch = fire_start_batch(live, live.position, after, rep, session=1, rolls=faces.rolled, request=req,
                             map_name="Main Map")
    assert batch["place"] == [FLAME]
    assert [r["text"] for r in batch["rolls"]] == ["* Random Selection of the hut Flame: B3 (huts): dr {dice}",
                                                   "* Random Selection of the hut Flame: C2 (huts): dr {dice}"]
    assert any("Random Selection, B3 5, C2 2 (huts)" in line for line in batch["summary"])


def test_b25_13_he_fire_start_rolls_vassals_dice_and_places_the_flame() -> None:
    live = position_from_snapshot(snapshot([]), phase=Phase.PFPH)
    req = FireStartRequest("he", "C2", original_kia=True)
    faces = Faces([4, 5])  # woods Kindle # 9
    after, rep, _ = resolve_fire_start(live, req, faces)
    batch = fire_start_batch(live, live.position, after, rep, session=2, rolls=faces.rolled, request=req,
                             map_name="Main Map")
    assert batch["place"] == [{**FLAME, "location": "C2"}]
    assert len(batch["rolls"]) == 1 and "B25.13" in batch["rolls"][0]["text"]
    none, rep, _ = resolve_fire_start(live, FireStartRequest("he", "C2", original_kia=True,
                                                             options={"created_rubble": True}), Faces([]))
    assert not none.flames() and "rubble" in rep.events[-1].text


def test_a24_32_wp_is_rolled_in_the_mph_only_and_bad_requests_are_refused() -> None:
    live = position_from_snapshot(snapshot([]), phase=Phase.PFPH)
    with pytest.raises(IllegalAction, match=r"A24\.32"):
        resolve_fire_start(live, FireStartRequest("wp", "C2"), Faces([6, 6]))
    with pytest.raises(BadInput, match="expected one of he, wp, hut"):
        FireStartRequest("napalm", "C2")


def test_cli_bridge_firestart_flags_become_the_request() -> None:
    import argparse

    from asl_vassal_bridge.cli import bridge as cli_bridge

    parser = argparse.ArgumentParser()
    cli_bridge.register(parser.add_subparsers())
    args = parser.parse_args(["bridge", "firestart", "he", "--at", "C2", "--original-kia", "--attack-dr", "1,4",
                              "--dc"])
    req = cli_bridge.firestart_request(args)
    assert req == FireStartRequest("he", "C2", None, (1, 4), True, "small-arms", {"dc": True})
    args = parser.parse_args(["bridge", "firestart", "wp", "--at", "C2", "--dc"])
    with pytest.raises(BadInput, match="he option"):
        cli_bridge.firestart_request(args)


def test_fire_start_dialog_answers_make_the_request_the_command_makes_b25_13() -> None:
    """The Fire start button's dialog: its answers give the same :class:`FireStartRequest` as
    ``asl-fire bridge firestart``'s options, or one clear line naming the field (nothing rolled)."""
    import argparse
    import json

    from asl_vassal_bridge.bridge.firestart_button import FIELDS, form_spec, request_from_answers
    from asl_vassal_bridge.cli import bridge as cli_bridge

    spec = json.loads(form_spec("C2"))
    assert next(f for f in spec["fields"] if f["key"] == "at")["value"] == "C2"
    assert next(f for f in json.loads(form_spec(None))["fields"] if f["key"] == "at")["value"] == ""
    assert {f["key"] for f in FIELDS} >= {"kind", "at", "phase", "attack_dr", "original_kia", "hut_attack"}
    parser = argparse.ArgumentParser()
    cli_bridge.register(parser.add_subparsers())
    for answers, argv in (
        ({"kind": "HE", "at": "C2", "phase": "MPh", "attack_dr": "1,4", "original_kia": True, "dc": True},
         ["he", "--at", "C2", "--phase", "MPh", "--attack-dr", "1,4", "--original-kia", "--dc"]),
        ({"kind": "WP", "at": "C2", "phase": "MPh", "original_kia": False},
         ["wp", "--at", "C2", "--phase", "MPh"]),
        ({"kind": "hut", "at": "B3, C2", "phase": "PFPh", "attack_dr": "1,5", "hut_attack": "mg"},
         ["hut", "--at", "B3,C2", "--phase", "PFPh", "--attack-dr", "1,5", "--attack", "mg"]),
    ):
        by_command = cli_bridge.firestart_request(parser.parse_args(["bridge", "firestart", *argv]))
        assert request_from_answers(answers) == by_command
    with pytest.raises(BadInput, match="Location is empty"):
        request_from_answers({"kind": "HE", "at": " "})
    with pytest.raises(BadInput, match="attack DR '1,7': die faces are 1 to 6"):
        request_from_answers({"kind": "HE", "at": "C2", "attack_dr": "1,7"})
    with pytest.raises(BadInput, match="attack DR 'x': expected the Original DR's two faces"):
        request_from_answers({"kind": "HE", "at": "C2", "attack_dr": "x"})
    with pytest.raises(BadInput, match=r"HE options \(collateral\) are for an HE fire start"):
        request_from_answers({"kind": "WP", "at": "C2", "collateral": True})
    with pytest.raises(BadInput, match="phase"):
        request_from_answers({"kind": "HE", "at": "C2", "phase": "Lunch"})
    with pytest.raises(BadInput, match="fire start 'smoke'"):
        request_from_answers({"kind": "smoke", "at": "C2"})
