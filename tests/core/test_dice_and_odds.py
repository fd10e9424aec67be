"""Dice providers, exact odds, and explanations."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asl_vassal_bridge.core import DRM, CallbackDice, Check, Roll, ScriptedDice, SeededDice, pending_rolls
from asl_vassal_bridge.core.dice import DiceExhaustedError
from asl_vassal_bridge.core.fire import spread_fire

from .test_spreading_fire import b25_62_example


def test_scripted_dice_keep_colored_and_white_apart_and_run_out_loudly() -> None:
    d = ScriptedDice([6, 1, 3])
    r = d.DR("MOL")
    assert (r.colored, r.white, r.total) == (6, 1, 7)
    assert d.dr("x") == Roll(3)
    with pytest.raises(DiceExhaustedError, match="ran out at 'later'"):
        d.dr("later")
    with pytest.raises(ValueError, match="1 to 6"):
        ScriptedDice([7])


def test_seeded_dice_are_reproducible_and_fair_enough() -> None:
    a, b = SeededDice(3), SeededDice(3)
    rolls = [a.DR("x") for _ in range(200)]
    assert rolls == [b.DR("x") for _ in range(200)]
    assert {r.colored for r in rolls} == set(range(1, 7))


def test_callback_dice_take_faces_from_outside() -> None:
    asked: list[tuple[str, int]] = []

    def vassal(purpose: str, n: int) -> list[int]:
        asked.append((purpose, n))
        return [4, 2][:n]

    d = CallbackDice(vassal)
    assert d.DR("Spreading Fire E4").total == 6 and d.dr("Wind").total == 4
    assert asked == [("Spreading Fire E4", 2), ("Wind", 1)]
    with pytest.raises(ValueError, match="gave 1 dice for a DR"):
        CallbackDice(lambda p, n: [3]).DR("x")


@given(st.integers(min_value=-2, max_value=16), st.lists(st.integers(-4, 4), max_size=4), st.booleans(),
       st.sampled_from([1, 2]))
def test_check_chance_is_the_exact_count_over_all_outcomes(needed: int, drms: list[int], at_most: bool,
                                                            dice: int) -> None:
    c = Check("x", "T1", needed, tuple(DRM(v, "r", "T1") for v in drms), dice=dice, at_most=at_most)
    outcomes = [sum(x) for x in itertools.product(range(1, 7), repeat=dice)]
    wins = sum(1 for o in outcomes if c.succeeds(o + c.total_drm))
    assert c.chance == Fraction(wins, len(outcomes))


def test_every_pending_roll_matches_the_dice_the_upkeep_rolls() -> None:
    """Odds say what will happen: enumerate all 36 DRs for each pending spread and resolve them for real."""
    p = b25_62_example()
    for r in pending_rolls(p):
        successes = 0
        for c, w in itertools.product(range(1, 7), repeat=2):
            single = p.with_(fires=p.fires)
            new, _rep = spread_fire(single, _OnlyFor(r.location.name, c, w))
            successes += any(f.location == r.location for f in new.flames())
        assert Fraction(successes, 36) == r.chance


class _OnlyFor:
    """Dice that roll (c, w) for the named Location and 1,1 elsewhere."""

    def __init__(self, name: str, c: int, w: int) -> None:
        self.name, self.c, self.w = name, c, w

    def DR(self, purpose: str) -> Roll:
        return Roll(self.c, self.w) if f" {self.name} " in purpose + " " else Roll(1, 1)

    def dr(self, purpose: str) -> Roll:
        return Roll(1)


def test_results_are_explained_with_rule_drms_needed_and_rolled() -> None:
    p = b25_62_example()
    _, rep = spread_fire(p, ScriptedDice([5, 5] * 4))
    text = rep.text()
    assert "B25.62" in text and "-2 not directly attached" in text and "DR 10 (5,5)" in text and "≥ 8" in text
