"""Dice for the forecast, rolled from a seeded numpy generator: DR totals for whole arrays at once
(:func:`_roll_dr`), and the core's Dice protocol for the rare branches that go through the core's scalar
functions (:class:`_NumpyDice`)."""

from __future__ import annotations

import numpy as np

from ..dice import Roll
from .base import _DR_OF, I8


class _NumpyDice:
    """The core's Dice protocol, rolled from a numpy generator (for the scalar rare branches)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._faces: list[int] = []

    def _face(self) -> int:
        if not self._faces:
            self._faces = self._rng.integers(1, 7, size=1024).tolist()
        return self._faces.pop()

    def DR(self, purpose: str) -> Roll:  # noqa: N802
        return _DR_ROLLS[self._face()][self._face()]

    def dr(self, purpose: str) -> Roll:
        return _DR1_ROLLS[self._face()]


class _WatchedDice:
    """Dice that tell whether a roll was asked for: a result that needed none may be reused."""

    def __init__(self, dice: _NumpyDice) -> None:
        self._dice = dice
        self.used = False

    def DR(self, purpose: str) -> Roll:  # noqa: N802
        self.used = True
        return self._dice.DR(purpose)

    def dr(self, purpose: str) -> Roll:
        self.used = True
        return self._dice.dr(purpose)


#: :func:`~.wind.apply_wind_change` results that needed no dice, by (wind state, Wind Change dr), as met (B25.65).
_WIND_AFTER: dict[tuple[int, int], int] = {}


#: The immutable :class:`Roll` values, made once (Random Selection rolls one dr per candidate).
_DR1_ROLLS: tuple[Roll, ...] = (Roll(1), *(Roll(c) for c in range(1, 7)))
_DR_ROLLS: tuple[tuple[Roll, ...], ...] = tuple((Roll(1), *(Roll(c, w) for w in range(1, 7))) if c else ()
                                                for c in range(7))


#: DR total for a random byte 0–251 (7 bytes per (colored, white) pair); 0 for the 4 bytes that are re-rolled.
_DR_OF_BYTE = np.zeros(256, np.int8)
_DR_OF_BYTE[:252] = _DR_OF[np.arange(252) % 36]


def _roll_dr(rng: np.random.Generator, n: int) -> I8:
    """*n* DR totals (2…12), each of the 36 (colored, white) pairs equally likely.

    One random byte per DR (twice as fast as bounded integers); the 4 bytes of 256 that would
    favour some pairs are replaced by fresh unbiased rolls.
    """
    u = np.frombuffer(rng.bytes(n), np.uint8)
    dr = np.take(_DR_OF_BYTE, u)
    bad = np.flatnonzero(u >= 252)
    if len(bad):
        dr[bad] = _DR_OF[rng.integers(0, 36, size=len(bad))]
    return dr

