"""A fire start on the live map where the Location already burns (B25.15), without an engine: onto a Flame the
batch places one more Flame counter (more than one may share a Location); onto a Blaze it places nothing."""

from __future__ import annotations

from typing import Any

import pytest

from asl_vassal_bridge.bridge.attacks import AttackRequest, attack_batch, prepare_attack, resolve
from asl_vassal_bridge.bridge.convert import position_from_snapshot
from asl_vassal_bridge.bridge.firestarts import FireStartRequest, fire_start_batch, resolve_fire_start
from asl_vassal_bridge.core.position import Phase

from .test_attack_hob_units import FT, SQUAD, Faces, slot_layers, unit  # noqa: F401 (slot_layers: a fixture)
from .test_bridge_units import piece, snapshot
from .test_firestarts_units import FLAME, with_hut

#: VASL's Flame and Blaze pieces (PlaceMarker gpids of the 6.5 buildFile).
ON_B3 = {"flame": piece("f0", "Flame", "192", "B3"), "blaze": piece("b0", "Blaze", "5713", "B3")}


@pytest.mark.parametrize(("burning", "placed"), [("flame", [FLAME]), ("blaze", [])])
def test_b25_15_a_ft_attack_vs_a_burning_hut_places_one_more_flame_or_none_by_a_blaze(
        burning: str, placed: list[dict[str, str]], slot_layers: Any) -> None:  # noqa: F811
    snap = with_hut(snapshot([unit("sq", SQUAD, "B2", slot_layers), unit("ft", FT, "B2", slot_layers),
                              ON_B3[burning]]))
    prep = prepare_attack(snap, AttackRequest("ft", "sq", "B3", ift_result="1MC"))
    faces = Faces([1, 2])  # Original Effects DR 3 < X# 10: the hut's Flame (huts)
    batch = attack_batch(prep, resolve(prep, faces), session=3, rolls=faces.rolled)
    assert batch["place"] == placed and batch["remove"] == []
    if burning == "blaze":
        assert any("a Blaze already burns there (B25.15)" in line for line in batch["summary"])


@pytest.mark.parametrize(("burning", "placed"), [("flame", [FLAME]), ("blaze", [])])
def test_b25_15_a_hut_fire_start_vs_a_burning_hut_places_one_more_flame_or_none_by_a_blaze(
        burning: str, placed: list[dict[str, str]]) -> None:
    live = position_from_snapshot(with_hut(snapshot([ON_B3[burning]])), phase=Phase.PFPH)
    req = FireStartRequest("hut", "B3", attack_dr=(1, 5), hut_attack="mg")
    after, rep, _ = resolve_fire_start(live, req, Faces([]))
    batch = fire_start_batch(live, live.position, after, rep, session=1, rolls=[], request=req, map_name="Main Map")
    assert batch["place"] == placed and batch["remove"] == []
