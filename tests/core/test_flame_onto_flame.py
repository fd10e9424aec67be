"""A fire start in a Location that already burns (B25.15): onto a Flame it adds a Flame counter (more than one may
share a Location, each with its own Flame→Blaze DR, B25.151); onto a Blaze it adds nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from asl_vassal_bridge.core import EC, Environment, Roll, ScriptedDice, UnitKind
from asl_vassal_bridge.core.firestarts import (
    HutAttack,
    he_fire_start,
    hut_fire_start,
    kindling_attempt,
    mol_flames,
    wp_fire_start,
)
from asl_vassal_bridge.core.position import Clock, Phase, Position

from .builders import NOW, L, blaze, flame
from .test_firestarts import hamlet

Start = Callable[[Position], Position]

#: Each fire start that places a Flame, vs the hut in B3 or the woods in B2 of :func:`hamlet` (no Flame yet: each
#: of these places one).
STARTS: dict[str, tuple[str, Start]] = {
    "FT vs a hut, Original Effects DR < X# (huts, A22)":
        ("B3", lambda p: hut_fire_start(p, L("B3"), HutAttack.FT, original=Roll(1, 2), ft_x_number=10)[0]),
    "MG vs a hut, colored dr 1 (huts)":
        ("B3", lambda p: hut_fire_start(p, L("B3"), HutAttack.MG, original=Roll(1, 4))[0]),
    "HE, Original KIA (B25.13)":
        ("B2", lambda p: he_fire_start(p, L("B2"), ScriptedDice([6, 6]), original_kia=True)[0]),
    "Kindling (B25.11)":
        ("B2", lambda p: kindling_attempt(p, L("B2"), UnitKind.LEADER, ScriptedDice([6, 6]), side="German")[0]),
    "WP (A24.32)":
        ("B2", lambda p: wp_fire_start(p.with_(clock=Clock(NOW.turn, NOW.half, Phase.MPH)), L("B2"),
                                       ScriptedDice([6, 6]))[0]),
}


def _pfph(fires: tuple[object, ...] = ()) -> Position:
    return hamlet(Environment(EC.DRY)).with_(clock=Clock(NOW.turn, NOW.half, Phase.PFPH), fires=fires)


@pytest.mark.parametrize("name", list(STARTS))
def test_b25_15_a_fire_start_onto_a_flame_adds_a_flame_and_onto_a_blaze_nothing(name: str) -> None:
    where, start = STARTS[name]
    loc = L(where)
    assert len(start(_pfph()).flames_at(loc)) == 1
    burning = start(_pfph((flame(where),)))
    assert len(burning.flames_at(loc)) == 2, "more than one Flame counter may share a Location (B25.15)"
    ablaze = _pfph((blaze(where),))
    assert start(ablaze).fires == ablaze.fires  # no Flame where a Blaze burns (B25.15)


def test_b25_15_a_mol_colored_dr_1_onto_a_flame_adds_a_flame_and_onto_a_blaze_nothing() -> None:
    b2 = L("B2")
    assert mol_flames(_pfph((flame("B2"),)), L("A1"), b2, Roll(1, 3)).flames == (b2,)  # A22.6111, B25.15
    out = mol_flames(_pfph((blaze("B2"),)), L("A1"), b2, Roll(1, 3))
    assert out.flames == () and "a Blaze already burns there" in out.events[-1].text
