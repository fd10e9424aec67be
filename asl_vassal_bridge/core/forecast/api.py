"""The forecast as callers use it: :func:`forecast` runs the trajectories in fixed chunks of their own seeds (in
this process or on every core) and sums them into a :class:`Forecast`."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..dice import check_seed
from ..errors import BadInput
from ..position import Location, Position
from .base import F64, I64
from .engine import _Batch
from .program import ForecastProgram, compile_position
from .trajectories import _Memory

__all__ = ["MAX_TRIALS", "MAX_TURNS", "Forecast", "forecast"]


@dataclass(frozen=True)
class Forecast:
    """Chances that each Location is burning (Flame or Blaze) after *turns* Player Turns, with standard errors.

    Estimates from *trials* trajectories; ``stderr`` is √(p(1−p)/trials).
    """

    position: Position
    turns: int
    trials: int
    seed: int | None
    locations: tuple[Location, ...]
    burning: F64
    blaze: F64

    @property
    def stderr(self) -> F64:
        p = self.burning
        return np.sqrt(p * (1 - p) / max(1, self.trials))  # type: ignore[no-any-return]

    @property
    def blaze_stderr(self) -> F64:
        p = self.blaze
        return np.sqrt(p * (1 - p) / max(1, self.trials))  # type: ignore[no-any-return]

    def chance(self, loc: Location) -> float:
        """Estimated chance *loc* is burning (0 for a Location that cannot burn)."""
        try:
            return float(self.burning[self.locations.index(loc)])
        except ValueError:
            return 0.0

    def as_dict(self, minimum: float = 0.0) -> dict[Location, tuple[float, float]]:
        """``{Location: (chance, standard error)}`` for every Location with chance > *minimum*."""
        se = self.stderr
        return {loc: (float(p), float(s)) for loc, p, s in zip(self.locations, self.burning, se, strict=True)
                if p > minimum}

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary (Locations named as on the map)."""
        se = self.stderr
        bse = self.blaze_stderr
        return {
            "turns": self.turns,
            "trials": self.trials,
            "seed": self.seed,
            "locations": [
                {"location": self.position.loc_name(loc), "burning": round(float(p), 6),
                 "stderr": round(float(s), 6), "blaze": round(float(b), 6), "blaze_stderr": round(float(bs), 6)}
                for loc, p, s, b, bs in zip(self.locations, self.burning, se, self.blaze, bse, strict=True)
                if p > 0
            ],
        }


_CHUNK = 1024

#: The most Player Turns a forecast plays (a scenario has at most a few dozen; the demo caps at 50 too).
MAX_TURNS = 50
#: The most trajectories a forecast runs: a standard error under 0.05 percentage points already.
MAX_TRIALS = 1_000_000
_worker_prog: ForecastProgram | None = None
_worker_memory: _Memory | None = None


def _run_chunk(prog: ForecastProgram, trials: int, turns: int, seed: np.random.SeedSequence,
               on_turn: Callable[[], None] | None = None, memory: _Memory | None = None) -> tuple[I64, I64]:
    batch = _Batch(prog, trials, np.random.default_rng(seed),
                   last_turn=prog.position.clock.player_turn + turns - 1, memory=memory)
    for _ in range(turns):
        batch.play()
        if on_turn is not None:
            on_turn()
    return batch.counts()


def _init_worker(prog: ForecastProgram) -> None:
    global _worker_prog, _worker_memory
    _worker_prog = prog
    _worker_memory = _Memory()


def _worker_chunk(args: tuple[int, int, np.random.SeedSequence]) -> tuple[I64, I64]:
    assert _worker_prog is not None
    trials, turns, seed = args
    return _run_chunk(_worker_prog, trials, turns, seed, memory=_worker_memory)


def forecast(pos: Position, turns: int, trials: int = 10_000, seed: int | None = None, *,
             processes: int | None = 1, progress: Callable[[float], None] | None = None,
             program: ForecastProgram | None = None, partial: Callable[[Forecast], None] | None = None
             ) -> Forecast:
    """Monte Carlo forecast of the fire over *turns* Player Turns (B25.151, B25.6–.66).

    Each Player Turn is the RPh Wind Change DR (from the RPh; Gusts,
    Collapse, Heavy Winds included) then the end-of-AFPh upkeep; a
    position past its AFPh starts with the next Player Turn.  The same
    *seed* gives the same result whatever *processes* is (trajectories run
    in fixed chunks with their own seeds); ``processes=None`` uses every
    local core.  *progress* is called with the fraction done.  *program*
    reuses a :func:`compile_position` result for the same Position.
    *partial* is called after each chunk but the last with the forecast of
    the trajectories done so far (its ``trials``), for a picture that shows
    early and sharpens.

    :raises BadInput: if *turns* is not 0 to :data:`MAX_TURNS`, *trials* not 1 to :data:`MAX_TRIALS`, or *seed*
        not a seed (:func:`~asl_vassal_bridge.core.dice.check_seed`).
    """
    if not 0 <= turns <= MAX_TURNS:
        raise BadInput(f"turns {turns}: expected 0 to {MAX_TURNS} Player Turns")
    if not 1 <= trials <= MAX_TRIALS:
        raise BadInput(f"trials {trials}: expected 1 to {MAX_TRIALS:,} trajectories")
    check_seed(seed)
    prog = program if program is not None else compile_position(pos)
    sizes = [_CHUNK] * (trials // _CHUNK) + ([trials % _CHUNK] if trials % _CHUNK else [])
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    burning = np.zeros(prog.n, np.int64)
    blaze = np.zeros(prog.n, np.int64)
    workers = os.cpu_count() or 1 if processes is None else max(1, processes)
    steps = max(1, len(sizes) * max(1, turns))
    done = 0
    ran = 0

    def chunk_done(size: int) -> None:
        nonlocal ran
        ran += size
        if partial is not None and ran < trials:
            partial(Forecast(pos, turns, ran, seed, prog.locations, burning / ran, blaze / ran))

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(min(1.0, done / steps))

    if workers > 1 and len(sizes) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(sizes)), initializer=_init_worker,
                                 initargs=(prog,)) as ex:
            results = ex.map(_worker_chunk, [(s, turns, sd) for s, sd in zip(sizes, seeds, strict=True)])
            for size, (b, z) in zip(sizes, results, strict=True):  # (in the chunks' order)
                burning += b
                blaze += z
                for _ in range(max(1, turns)):
                    tick()
                chunk_done(size)
    else:
        memory = _Memory()
        for s, sd in zip(sizes, seeds, strict=True):
            b, z = _run_chunk(prog, s, turns, sd, tick, memory)
            burning += b
            blaze += z
            if turns == 0:
                tick()
            chunk_done(s)
    return Forecast(pos, turns, trials, seed, prog.locations, burning / trials, blaze / trials)

