"""The bookkeeping of a batch of trajectories: which Locations burn, how, since when, in each of T trajectories
(numpy arrays of T × L), and each Flame's fate drawn when it is placed (B25.151, :func:`.program._fate_tables`).
The phases that change them are :mod:`.engine`'s."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..position import Phase
from .base import _T, I16, I64, B, wind_index
from .program import _FATE_BITS, ForecastProgram

_FAR = 16000  # Player Turns: a Flame burning on past the forecast
#: A Location's Flames in one int16 (:attr:`_Trajectories.flame`): _BLAZE_AT − k "a Flame becomes a Blaze in AFPh k",
#: k "the last Flame goes out in AFPh k" (k ≤ _FAR + 1 < _BLAZE_AT − _FAR: the two never meet), _NO_FLAME none.
_BLAZE_AT = 32767
_NO_FLAME = -1


class _Memory:
    """The (trajectories × Locations) arrays of a batch, kept for the next batch of the same forecast (a chunk
    of fewer trajectories takes their first rows): memory touched for the first time costs a page fault per
    4 KiB, a refill does not."""

    def __init__(self) -> None:
        self._arrays: dict[str, npt.NDArray[Any]] = {}

    def array(self, name: str, rows: int, n: int, dtype: type[_T], fill: int | None = None) -> npt.NDArray[_T]:
        """The (*rows*, *n*) array *name*, filled with *fill* unless None."""
        got = self._arrays.get(name)
        if got is None or got.shape[0] < rows or got.shape[1] != n or got.dtype != dtype:
            got = self._arrays[name] = np.empty((rows, n), dtype)
        out: npt.NDArray[_T] = got[:rows]
        if fill is not None:
            out.fill(fill)
        return out


class _Trajectories:
    """The fire state of T trajectories over the program's L Locations, and the Flames' fates.

    A Flame's Flame→Blaze DR (B25.151) has the same odds every AFPh (its Location's need and
    extinction numbers do not change while it burns), so its fate — Blaze or out, after k AFPhs —
    is drawn once, when it is placed (:func:`.program._fate_tables`): one draw per Flame instead of one DR
    per Flame per Player Turn, with the same probabilities.  A Location keeps one number of its
    Flames' fates, :attr:`flame` (AFPhs counted from the start): ``_BLAZE_AT − k`` if its first Flame
    to become a Blaze does so in AFPh k, else k if its last Flame to go out does so in AFPh k, else
    −1.  A Blaze outranks any Flame going out and an earlier Blaze a later one, so a new Flame's fate
    combines with the Location's by ``max``; the Location has a Flame while ``flame`` ≥ the current
    AFPh.
    """

    def __init__(self, prog: ForecastProgram, trials: int, rng: np.random.Generator,
                 last_turn: int | None = None, memory: _Memory | None = None) -> None:
        self.prog = prog
        self.rng = rng
        pos = prog.position
        n = prog.n
        self.t = trials
        self.start = pos.clock.player_turn
        self.now = self.start
        # Flame fates after the last Player Turn played are not needed: they are kept as "burning on".
        self.far = min(_FAR, (last_turn - self.start + 1) if last_turn is not None else _FAR)
        self.memory = memory = memory if memory is not None else _Memory()
        self.blaze = memory.array("blaze", trials, n, np.bool_, False)
        self.fresh = memory.array("fresh", trials, n, np.bool_, False)  # formed this Player Turn: no spread yet (B25.6)
        self.flame = memory.array("flame", trials, n, np.int16, _NO_FLAME)  # the Flames' fate (see above)
        self.wind = np.full(trials, wind_index(pos.environment.wind), np.int64)
        self.var = np.zeros(trials, np.int64)
        self.walive = np.ones((trials, len(prog.wrecks)), bool)
        self.due: dict[int, list[I64]] = {}  # AFPh → cells where a Flame becomes a Blaze then (see flame)
        # On the rubble path (see ForecastProgram): collapsed grounds, and the levels of collapsed hexes
        # (marked as Blazes too, so that nothing spreads there; not counted).
        self.rubble = memory.array("rubble", trials, n, np.bool_, False)
        self.gone = memory.array("gone", trials, n, np.bool_, False)
        self.any_gone = False
        rph = pos.clock.phase is Phase.RPH
        blazes, fresh, eligible, later = prog.start_fires()
        self.blaze[:, blazes] = True
        self.fresh[:, fresh] = True
        self.rph = rph
        # Gusts this Player Turn (B25.651): rolled in the RPh, or already in the position (set in its file or
        # shown by VASL's Gusts counter); they spread with the end-of-AFPh Spreading Fire.
        self.gust = np.full(trials, bool(pos.environment.gusts) and not rph, bool)
        rows = np.arange(trials, dtype=np.int64) * n
        for locs, first in ((eligible, 0), (later, 1)):
            if len(locs):
                self._place(np.add.outer(rows, locs).reshape(-1), first, unique=len(np.unique(locs)) == len(locs))
        self.fresh_parts: list[I64] = [np.add.outer(rows, fresh).reshape(-1)]  # where the fresh Blazes may be

    # -- Flames --------------------------------------------------------------
    def _place(self, cells: I64, first: int, unique: bool = False) -> None:
        """Place one Flame at each of *cells* (row × L + Location; a cell may repeat unless *unique*), able to
        become a Blaze from the AFPh *first* Player Turns from the start on (B25.151): draw its fate."""
        if len(cells) == 0:
            return
        wait, blazes = self._fates(cells)
        when = np.minimum(wait, np.int16(self.far))
        when += first
        blazes &= when < self.far
        fate = np.where(blazes, np.int16(_BLAZE_AT) - when, when)
        flame = self.flame.reshape(-1)
        if unique:
            flame[cells] = np.maximum(flame[cells], fate)
        else:
            np.maximum.at(flame, cells, fate)
        # The AFPh each of these Flames becomes a Blaze in, for :meth:`.engine._Batch.flame_to_blaze` (checked
        # there against flame: a Collapse or an earlier Blaze may have cleared it).
        at = np.flatnonzero(blazes)
        if len(at) == 0:
            return
        cells, when = cells[at], when[at]
        for k in range(first, int(when.max()) + 1):  # (when ≥ first for them all)
            part = cells[np.flatnonzero(when == k)]
            if len(part):
                self.due.setdefault(k, []).append(part)

    def _fates(self, cells: I64) -> tuple[npt.NDArray[np.int16], B]:
        """For a new Flame at each of *cells*: the AFPhs it burns on before its fate, and whether that fate
        is to become a Blaze (else it goes out), drawn with :func:`.program._fate_tables`."""
        prog = self.prog
        size = 1 << _FATE_BITS
        u = np.frombuffer(self.rng.bytes(2 * len(cells)), np.uint16)
        kind = prog.fate_class[cells - cells // prog.n * prog.n]  # the cell's Location's row of the table
        at = kind + u
        # One gather of the table's codes (−1, or 2 × AFPhs burnt on + 1 if the fate is to go out), decoded
        # here: −1 >> 1 is −1 (a float draw below).
        code = prog.fate_table.reshape(-1)[at]
        wait = (code >> 1).astype(np.int16)
        blazes = (code & 1) == 0
        odd = np.flatnonzero(wait < 0)
        if len(odd):  # straddling or late fates: in floating point within their interval
            c = kind[odd] // size
            v = (u[odd] + self.rng.random(len(odd))) / size
            log = prog.fate_log[c]
            with np.errstate(divide="ignore", invalid="ignore"):
                k = np.floor(np.log1p(-v) / log)  # AFPhs burnt on (NaN or ∞: never ends)
                ends = np.isfinite(k) & (k < _FAR)
                k = np.where(ends, k, 0.0)
                s_k = np.exp(k * log, where=k > 0, out=np.ones_like(k))  # P(no fate in the first k AFPhs)
            wait[odd] = np.where(ends, k, _FAR).astype(np.int16)
            blazes[odd] = ends & (v - (1 - s_k) < s_k * prog.fate_pb[c])
        return wait, blazes

    def _burning(self, rows: I64 | slice, after_blaze_step: bool = False) -> B:
        """Locations of *rows* with a Flame or Blaze now: before this Player Turn's AFPh, or right after its
        Flame→Blaze DRs (*after_blaze_step*: the Flames that went out in it are gone)."""
        now = self.now - self.start + (1 if after_blaze_step else 0)
        return self.blaze[rows] | (self.flame[rows] >= now)  # type: ignore[no-any-return]

    @property
    def fb(self) -> I16:
        """Per cell, the AFPh its first Flame to become a Blaze does so, 32767 if none: :attr:`flame` read back, for
        inspection."""
        blazes = self.flame > _BLAZE_AT - _FAR
        return np.where(blazes, np.int16(_BLAZE_AT) - self.flame, np.int16(_BLAZE_AT))  # type: ignore[no-any-return]

    def _clear(self, cells: I64) -> None:
        """No Flame at *cells* any more."""
        self.flame.reshape(-1)[cells] = _NO_FLAME

    def counts(self) -> tuple[I64, I64]:
        """Per Location: trajectories with a Flame or Blaze, and with a Blaze."""
        burning = self._burning(slice(None))
        blaze = self.blaze
        if self.any_gone:  # the levels of collapsed hexes are not counted
            here = ~self.gone
            burning &= here
            blaze = blaze & here
        # Summed as bytes into 16 bits when they fit (a chunk's 1,024 trajectories): faster than into 64.
        acc = np.uint16 if self.t < 1 << 16 else np.int64
        return (burning.view(np.uint8).sum(axis=0, dtype=acc).astype(np.int64),
                blaze.view(np.uint8).sum(axis=0, dtype=acc).astype(np.int64))

