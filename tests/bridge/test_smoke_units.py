"""A Gust's effect on SMOKE counters (B25.651) in the live bridge, without an engine: VASL 6.5's real SMOKE slots
(their layers as VASSAL sends them) read into the Position, the RPh's Wind change with a Gust, one batch."""

from __future__ import annotations

from typing import Any

import pytest

from asl_vassal_bridge.bridge.convert import batch_for, position_from_snapshot
from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.position import Location, Phase, Smoke
from asl_vassal_bridge.core.wind import rally_phase
from asl_vassal_bridge.vasl.counters import SmokeFace, embellishment_layers, smoke_face
from asl_vassal_bridge.vasl.module import ModuleIndex, read_module
from tests.conftest import shared_vasl_file

from .test_bridge_units import piece, snapshot

#: VASL 6.5's SMOKE slots: white SMOKE +3, white WP +2, grey (Dispersed) SMOKE, grey WP, a smoke grenade, an
#: overlay's SMOKE +3.
WHITE_SMOKE, WHITE_WP, GREY_SMOKE, GREY_WP, GRENADE, OVERLAY = "57", "58", "61", "62", "67", "4121"


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    return read_module(shared_vasl_file("buildFile-6.5.xml"))


def smoke_piece(vasl65: ModuleIndex, pid: str, gpid: str, loc: str) -> dict[str, Any]:
    traits = vasl65.by_gpid[gpid].traits
    return piece(pid, "Smoke", gpid, loc, [{"type": t.type, "state": t.state} for t in traits if t.id == "emb2"])


def test_vasl_smoke_slots_show_their_face_and_how_to_disperse_it_b25_651(vasl65: ModuleIndex) -> None:
    def face(gpid: str) -> Any:
        return smoke_face(embellishment_layers(vasl65.by_gpid[gpid].traits))

    # layers, outermost first: grey WP, grey SMOKE, white WP, white SMOKE; the grey one switched on shows on top
    assert face(WHITE_SMOKE) == SmokeFace(wp=False, dispersed=False, to_dispersed=((1, 1),))
    assert face(WHITE_WP) == SmokeFace(wp=True, dispersed=False, to_dispersed=((0, 1),))
    assert face(GREY_SMOKE) == SmokeFace(wp=False, dispersed=True, to_dispersed=())
    assert face(GREY_WP) == SmokeFace(wp=True, dispersed=True, to_dispersed=())
    assert face(GRENADE) is None and face(OVERLAY) is None  # no Dispersed face the bridge knows


def test_a_gust_disperses_smoke_and_removes_the_dispersed_in_one_batch_b25_651(vasl65: ModuleIndex) -> None:
    snap = snapshot([smoke_piece(vasl65, "s1", WHITE_SMOKE, "A1"), smoke_piece(vasl65, "w1", WHITE_WP, "A2"),
                     smoke_piece(vasl65, "g1", GREY_SMOKE, "A2"), smoke_piece(vasl65, "g2", GREY_WP, "B3"),
                     smoke_piece(vasl65, "n1", GRENADE, "E4")])
    live = position_from_snapshot(snap, phase=Phase.RPH)
    a1, a2, b3 = (Location(Hex.parse(n)) for n in ("A1", "A2", "B3"))
    assert live.position.smoke == (Smoke(a1), Smoke(a2, wp=True), Smoke(a2, dispersed=True),
                                   Smoke(b3, wp=True, dispersed=True))
    assert live.smoke_by_hand == {"n1": "Smoke in E4"}
    new, report = rally_phase(live.position, ScriptedDice([6, 6]))  # Wind Change DR 12: Gusts
    assert new.smoke == (Smoke(a1, dispersed=True), Smoke(a2, wp=True, dispersed=True))
    lines = [e.text for e in report.events if e.rule == "B25.651"]
    assert {"SMOKE in A1 dispersed", "WP in A2 dispersed", "Dispersed SMOKE in A2 eliminated",
            "Dispersed WP in B3 eliminated"} <= set(lines)
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    assert sorted(batch["remove"]) == ["g1", "g2"]
    assert batch["layers"] == [{"id": "s1", "index": 1, "value": 1}, {"id": "w1", "index": 0, "value": 1}]
    assert {batch["expect"][p] for p in ("s1", "w1", "g1", "g2")} == {"r-s1", "r-w1", "r-g1", "r-g2"}
    assert any("Smoke in E4" in n and "by hand" in n and "B25.651" in n for n in batch["summary"])


def test_no_gust_leaves_smoke_alone_b25_65(vasl65: ModuleIndex) -> None:
    snap = snapshot([smoke_piece(vasl65, "s1", WHITE_SMOKE, "A1"), smoke_piece(vasl65, "n1", GRENADE, "E4")])
    live = position_from_snapshot(snap, phase=Phase.RPH)
    new, _report = rally_phase(live.position, ScriptedDice([3, 4]))  # no Wind change
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    assert new.smoke == live.position.smoke
    assert batch["remove"] == [] and batch["layers"] == [] and not any("by hand" in n for n in batch["summary"])


def test_a_smoke_counter_whose_layers_cannot_be_read_is_left_to_the_players_not_refused_b25_651(
        vasl65: ModuleIndex) -> None:
    bad = smoke_piece(vasl65, "s1", WHITE_SMOKE, "A1")
    bad["layers"][0]["state"] = "x;"  # not a layer value
    live = position_from_snapshot(snapshot([bad]), phase=Phase.RPH)
    assert live.position.smoke == () and live.smoke_by_hand == {"s1": "Smoke in A1"}
