"""The dice and the exact chances at their edges (what the mutation run of core/dice.py asked for)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from asl_vassal_bridge.core.dice import (
    CallbackDice,
    DiceExhaustedError,
    Roll,
    ScriptedDice,
    SeededDice,
    chance_dr_at_least,
    chance_dr_at_most,
)


@pytest.mark.parametrize(("needed", "chance"), [(-5, 1), (1, 1), (2, 1), (3, Fraction(35, 36)), (7, Fraction(7, 12)),
                                                 (12, Fraction(1, 36)), (13, 0), (40, 0)])
def test_chance_dr_at_least_every_edge(needed: int, chance: Fraction) -> None:
    assert chance_dr_at_least(needed) == chance


@pytest.mark.parametrize(("limit", "chance"), [(-3, 0), (1, 0), (2, Fraction(1, 36)), (7, Fraction(7, 12)),
                                               (11, Fraction(35, 36)), (12, 1), (13, 1), (40, 1)])
def test_chance_dr_at_most_every_edge(limit: int, chance: Fraction) -> None:
    assert chance_dr_at_most(limit) == chance


def test_a_die_shows_one_to_six() -> None:
    for bad in (0, 7):
        with pytest.raises(ValueError, match=f"a die shows 1 to 6, not {bad}"):
            Roll(3, bad)
        with pytest.raises(ValueError, match=f"a die shows 1 to 6, not {bad}"):
            Roll(bad)
    assert str(Roll(4)) == "4" and str(Roll(4, 2)) == "6 (4,2)"


def test_scripted_dice_name_the_roll_they_ran_out_at_for_either_die_of_a_dr() -> None:
    for faces in ([], [3]):
        with pytest.raises(DiceExhaustedError, match="ran out at 'Spreading Fire C3'"):
            ScriptedDice(faces).DR("Spreading Fire C3")


def test_seeded_dice_roll_every_face_on_both_dice() -> None:
    dice = SeededDice(5)
    drs = [dice.DR("x") for _ in range(600)]
    assert set(Counter(r.colored for r in drs)) == set(range(1, 7))
    assert set(Counter(r.white for r in drs)) == set(range(1, 7))
    drs_small = [dice.dr("x") for _ in range(300)]
    assert set(Counter(r.colored for r in drs_small)) == set(range(1, 7)) and all(r.is_dr for r in drs_small)


def test_callback_dice_refuse_a_wrong_count_naming_the_roll() -> None:
    with pytest.raises(ValueError, match=r"the dice callback gave 2 dice for a dr \(Wind Direction\)"):
        CallbackDice(lambda purpose, n: [3, 4]).dr("Wind Direction")
    with pytest.raises(ValueError, match=r"the dice callback gave 1 dice for a DR \(Spread\)"):
        CallbackDice(lambda purpose, n: [3]).DR("Spread")


def test_independent_drs_come_from_one_call_where_the_dice_offer_it_and_say_when_it_gives_too_few() -> None:
    import pytest

    from asl_vassal_bridge.core.dice import CallbackDice, Roll, ScriptedDice, independent_DRs

    calls: list[object] = []
    dice = CallbackDice(lambda p, n: calls.append(p) or [1] * n,
                        lambda ps: calls.append(list(ps)) or [[2, 3]] * len(ps))
    assert independent_DRs(dice, ["a", "b"]) == [Roll(2, 3), Roll(2, 3)] and calls == [["a", "b"]]
    assert independent_DRs(dice, ["c"]) == [Roll(1, 1)] and calls[-1] == "c"  # one DR: asked for as a DR
    assert independent_DRs(dice, []) == []
    plain = ScriptedDice([1, 2, 3, 4])
    assert independent_DRs(plain, ["a", "b"]) == [Roll(1, 2), Roll(3, 4)] and [p for p, _r in plain.log] == ["a", "b"]
    with pytest.raises(ValueError, match="3 dice for a DR"):
        CallbackDice(lambda p, n: [1] * n, lambda ps: [[1, 2, 3]] * len(ps)).DRs(["a", "b"])
    with pytest.raises(ValueError):
        CallbackDice(lambda p, n: [1] * n, lambda ps: [[1, 2]]).DRs(["a", "b"])  # fewer DRs than purposes
