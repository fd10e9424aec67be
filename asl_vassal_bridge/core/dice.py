"""Dice: one interface for DR and dr, with seeded, scripted and external providers.

A DR keeps its colored and white die apart, since MOL attacks (A22.6111)
and "Original" rules read them separately.

>>> dice = ScriptedDice([3, 4, 6])
>>> dice.DR("Spreading Fire")
Roll(colored=3, white=4)
>>> dice.dr("Wind Direction").total
6
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Protocol

from .errors import BadInput
from .values import value

__all__ = [
    "DR_DISTRIBUTION",
    "MAX_SEED",
    "CallbackDice",
    "Dice",
    "DiceExhaustedError",
    "Roll",
    "ScriptedDice",
    "SeededDice",
    "chance_dr_at_least",
    "chance_dr_at_most",
    "chance_sr_at_least",
    "chance_sr_at_most",
    "check_seed",
    "independent_DRs",
]

#: Seeds are whole numbers from 0 to 2**64 − 1, for the dice and the forecast alike (numpy's generators
#: refuse negative seeds; Python's would take them and fold −1 onto 1).
MAX_SEED = 2**64 - 1


def check_seed(seed: int | None, name: str = "seed") -> int | None:
    """*seed* if it is a seed (None: fresh random dice), else :class:`BadInput` naming *name*.

    >>> check_seed(1944)
    1944
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    asl_vassal_bridge.core.errors.BadInput: seed -1: expected a whole number from 0 to 18446744073709551615
    """
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise BadInput(f"{name} {seed!r}: expected a whole number from 0 to {MAX_SEED}")
    return seed


class DiceExhaustedError(BadInput):
    """A scripted provider ran out of dice: nothing was applied."""


@value
class Roll:
    """One roll: a dr has only the colored die; a DR has both."""

    colored: int
    white: int | None = None

    def __post_init__(self) -> None:
        for v in (self.colored, self.white):
            if v is not None and not 1 <= v <= 6:
                raise ValueError(f"a die shows 1 to 6, not {v}")

    @property
    def total(self) -> int:
        return self.colored + (self.white or 0)

    @property
    def is_dr(self) -> bool:
        """True for a single die (dr)."""
        return self.white is None

    @property
    def doubles(self) -> bool:
        return self.white is not None and self.colored == self.white

    def __str__(self) -> str:
        if self.white is None:
            return str(self.colored)
        return f"{self.total} ({self.colored},{self.white})"


class Dice(Protocol):
    """Where rolls come from.  *purpose* is shown to players (the bridge logs it)."""

    def DR(self, purpose: str) -> Roll: ...  # noqa: N802 - ASL's own name for two dice

    def dr(self, purpose: str) -> Roll: ...


def independent_DRs(dice: Dice, purposes: Sequence[str]) -> list[Roll]:  # noqa: N802 - ASL's DR
    """One DR for each purpose, in order, where no roll decides whether the next is made: what calling
    ``dice.DR`` for each would give, the same dice in the same order, asked for at once where *dice* can
    (:class:`CallbackDice` with a *roll_many*: the live bridge's one call to VASSAL instead of one per roll).

    >>> [str(r) for r in independent_DRs(ScriptedDice([1, 2, 6, 6]), ["a", "b"])]
    ['3 (1,2)', '12 (6,6)']
    """
    many = getattr(dice, "DRs", None)
    if many is not None and len(purposes) > 1:
        rolls: list[Roll] = many(purposes)
        if len(rolls) != len(purposes):
            raise ValueError(f"the dice gave {len(rolls)} DRs for {len(purposes)} purposes")
        return rolls
    return [dice.DR(p) for p in purposes]


class SeededDice:
    """Reproducible dice from a seed.

    >>> SeededDice(7).DR("x") == SeededDice(7).DR("x")
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        import random  # here, not at the top: ``asl-fire odds`` rolls nothing and starts faster without it

        self._rng = random.Random(check_seed(seed))

    def DR(self, purpose: str) -> Roll:  # noqa: N802
        return Roll(self._rng.randint(1, 6), self._rng.randint(1, 6))

    def dr(self, purpose: str) -> Roll:
        return Roll(self._rng.randint(1, 6))


class ScriptedDice:
    """Dice given in advance, one die face at a time (a DR takes two: colored, white).

    Used by tests and replays; ``--dice 3,4,6`` on the command line.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        for f in self._faces:
            if not 1 <= f <= 6:
                raise ValueError(f"a die shows 1 to 6, not {f}")
        self._pos = 0
        self.log: list[tuple[str, Roll]] = []

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._pos

    def _take(self, purpose: str) -> int:
        if self._pos >= len(self._faces):
            raise DiceExhaustedError(f"the scripted dice ran out at {purpose!r} (after {len(self._faces)} dice)")
        f = self._faces[self._pos]
        self._pos += 1
        return f

    def DR(self, purpose: str) -> Roll:  # noqa: N802
        r = Roll(self._take(purpose), self._take(purpose))
        self.log.append((purpose, r))
        return r

    def dr(self, purpose: str) -> Roll:
        r = Roll(self._take(purpose))
        self.log.append((purpose, r))
        return r


class CallbackDice:
    """Dice supplied from outside, e.g. VASSAL's RNG through the live bridge.

    *roll(purpose, count)* returns *count* die faces (1 for a dr, 2 for a DR,
    colored first); *roll_many(purposes)*, if given, a DR's two faces for each
    purpose in one call (:func:`independent_DRs`).
    """

    def __init__(self, roll: Callable[[str, int], Sequence[int]],
                 roll_many: Callable[[Sequence[str]], Sequence[Sequence[int]]] | None = None) -> None:
        self._roll = roll
        self._roll_many = roll_many

    def DRs(self, purposes: Sequence[str]) -> list[Roll]:  # noqa: N802
        """A DR for each purpose, in order, in one call of *roll_many* (each two faces, colored first) if given."""
        if self._roll_many is None:
            return [self.DR(p) for p in purposes]
        out = []
        for purpose, faces in zip(purposes, self._roll_many(purposes), strict=True):
            if len(faces) != 2:
                raise ValueError(f"the dice callback gave {len(faces)} dice for a DR ({purpose})")
            out.append(Roll(faces[0], faces[1]))
        return out

    def DR(self, purpose: str) -> Roll:  # noqa: N802
        faces = list(self._roll(purpose, 2))
        if len(faces) != 2:
            raise ValueError(f"the dice callback gave {len(faces)} dice for a DR ({purpose})")
        return Roll(faces[0], faces[1])

    def dr(self, purpose: str) -> Roll:
        faces = list(self._roll(purpose, 1))
        if len(faces) != 1:
            raise ValueError(f"the dice callback gave {len(faces)} dice for a dr ({purpose})")
        return Roll(faces[0])


#: Ways (out of 36) to roll each DR total 2…12.
DR_DISTRIBUTION: dict[int, int] = {t: 6 - abs(t - 7) for t in range(2, 13)}


#: P(DR ≥ k) for k = 2…13 and P(DR ≤ k) for k = 1…12: every other value is clamped to one of these.
_AT_LEAST = {k: Fraction(sum(n for t, n in DR_DISTRIBUTION.items() if t >= k), 36) for k in range(2, 14)}
_AT_MOST = {k: Fraction(sum(n for t, n in DR_DISTRIBUTION.items() if t <= k), 36) for k in range(1, 13)}


def chance_dr_at_least(needed: int) -> Fraction:
    """Chance that an Original DR is ≥ *needed*.

    >>> chance_dr_at_least(10), chance_dr_at_least(-4), chance_dr_at_least(13)
    (Fraction(1, 6), Fraction(1, 1), Fraction(0, 1))
    """
    return _AT_LEAST[min(max(needed, 2), 13)]


def chance_dr_at_most(limit: int) -> Fraction:
    """Chance that an Original DR is ≤ *limit*."""
    return _AT_MOST[min(max(limit, 1), 12)]


def chance_sr_at_least(needed: int) -> Fraction:
    """Chance that a dr is ≥ *needed*."""
    return Fraction(max(0, min(6, 7 - needed)), 6)


def chance_sr_at_most(limit: int) -> Fraction:
    """Chance that a dr is ≤ *limit*."""
    return Fraction(max(0, min(6, limit)), 6)
