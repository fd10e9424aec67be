"""What every part of the forecast shares: the 13 wind states, the Original DR bounds, the DR of a pair of dice,
the array types."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ..environment import Wind, WindForce
from ..hexes import Direction

#: The 13 wind states a trajectory can be in: No Wind, Mild Breeze to 1–6, Heavy Winds to 1–6.
WINDS: tuple[Wind, ...] = (Wind(), *(Wind(WindForce.MILD_BREEZE, d) for d in Direction),
                          *(Wind(WindForce.HEAVY_WINDS, d) for d in Direction))
_N_WINDS = len(WINDS)
NEVER = 13  # an Original DR no roll reaches
ALWAYS = 2  # an Original DR every roll reaches (automatic spread, B25.63)

#: DR total for each of the 36 equally likely (colored, white) pairs.
_DR_OF = np.array([a + b for a in range(1, 7) for b in range(1, 7)], dtype=np.int8)

I8 = npt.NDArray[np.int8]
_T = TypeVar("_T", bound=np.generic)
I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
B = npt.NDArray[np.bool_]
F64 = npt.NDArray[np.float64]


def wind_index(wind: Wind) -> int:
    """Index of *wind* in :data:`WINDS`."""
    if wind.force is WindForce.NO_WIND or wind.direction is None:
        return 0
    return int(wind.direction) + (0 if wind.force is WindForce.MILD_BREEZE else 6)


#: Columns of a row of a spread-edge table (:attr:`.program._Tables.edge`): the Original DR per wind state, then
#: whether the edge exists.
_EDGE_COLS = _N_WINDS + 1

#: P(DR ≥ k) for k = 0…13 (one (colored, white) pair of 36 each).
_P_AT_LEAST = np.array([np.count_nonzero(k <= _DR_OF) / 36 for k in range(14)])


def _nonzero(mask: B) -> tuple[I64, I64]:
    """The row and column indices of a 2-D *mask*'s True entries, row by row, as :func:`numpy.nonzero` gives them
    (from the flat indices: several times faster)."""
    width = max(1, mask.shape[1])
    flat = np.flatnonzero(mask)
    i = flat // width
    return i, flat - i * width


def _spans(first: I64, length: I64) -> I64:
    """The integers ``first[i] … first[i] + length[i] − 1`` for every i, run after run."""
    ends = np.cumsum(length)
    out = np.repeat(first - (ends - length), length)
    out += np.arange(int(ends[-1]) if len(ends) else 0)
    return out

