"""A Gust's effect on SMOKE counters (B25.651) through the real VASSAL engine (3.6 jar, Xvfb) with the extension.

The game holds VASL's own SMOKE counters (VASL 6.5's slots, built by tests/support/vasl_counters.py and checked
against VASL's buildFile): a white SMOKE, a grey (Dispersed) SMOKE and a smoke grenade.  The Wind change's DR is
VASSAL's; the test only chooses the faces it shows (``TestHooks.scriptDice``): 6,6 makes a Gust.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.bridge.phases import run_phase
from asl_vassal_bridge.core.position import Phase
from asl_vassal_bridge.vasl.counters import smoke_face
from asl_vassal_bridge.vasl.pieces import layers_of
from tests.support import vassal_harness as vh

from .conftest import standard_pieces, started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]


@pytest.fixture(scope="module")
def carol(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[Any]:
    pieces = [*standard_pieces(), vh.GamePiece("smoke-white", "B2", gpid="205"),
              vh.GamePiece("smoke-grey", "B3", gpid="209"), vh.GamePiece("smoke-grenade", "B4", gpid="67")]
    with started_player("carol", module_with_extension, support_jar, xvfb.display, engine_dir / "smoke",
                        pieces=pieces, stacks=True) as (_, client):
        yield client


def _faces(client: BridgeClient) -> dict[str, Any]:
    snap = client.snapshot(with_terrain=False, layers_for=["Smoke"])
    return {p["id"]: smoke_face([lay for lay, _t in layers_of(p)])
            for p in snap["pieces"] if p["id"].startswith("smoke-")}


def test_a_gust_disperses_smoke_removes_the_dispersed_and_one_undo_takes_it_back_b25_651(carol: BridgeClient) -> None:
    client = carol
    hooks = client.jvm.aslbridgetest.TestHooks
    before = _faces(client)
    assert before["smoke-white"] is not None and not before["smoke-white"].dispersed
    assert before["smoke-grey"] is not None and before["smoke-grey"].dispersed
    assert before["smoke-grenade"] is None  # no Dispersed face: the players apply the Gust to it
    chat_before = str(hooks.chatText())
    hooks.scriptDice("6,6")  # Wind Change DR 12: Gusts (B25.651)
    res = run_phase(client, Phase.RPH)
    assert res.applied is not None
    after = _faces(client)
    assert set(after) == {"smoke-white", "smoke-grenade"}  # the Dispersed SMOKE eliminated
    assert after["smoke-white"] is not None and after["smoke-white"].dispersed  # its grey face shown
    assert after["smoke-grenade"] is None
    chat = str(hooks.chatText())[len(chat_before):]
    assert "SMOKE in B2 dispersed (B25.651)" in chat and "Dispersed SMOKE in B3 eliminated (B25.651)" in chat
    assert "Smoke grenade +2 in B4: VASL's counter has no Dispersed face" in chat and "by hand" in chat
    hooks.undo()  # ONE Undo: the Gust's SMOKE changes with the rest of the Wind change
    assert _faces(client) == before
