"""The scalar step, :func:`play_player_turn` (the RPh wind, then the end-of-AFPh upkeep, as the core plays them),
and :func:`forecast_reference`, the forecast as a plain loop of it per trajectory: slow, for tests and benchmarks."""

from __future__ import annotations

import numpy as np

from ..dice import SeededDice
from ..explain import Report
from ..fire import end_of_afph
from ..position import Phase, Position
from ..values import replace
from ..wind import rally_phase
from .api import Forecast
from .program import _start

__all__ = ["forecast_reference", "play_player_turn"]


def play_player_turn(pos: Position, dice: SeededDice | object) -> tuple[Position, Report]:
    """Play one Player Turn's fire upkeep: the RPh Wind Change (B25.65) and the end-of-AFPh upkeep (B25.151, B25.6).

    From the RPh both are rolled; from the PFPh…AFPh only the upkeep; a
    position past its AFPh first moves to the next Player Turn's RPh.  The
    clock is left at the RPh of the following Player Turn.
    """
    order = list(Phase)
    events = []
    if order.index(pos.clock.phase) > order.index(Phase.AFPH):
        pos = replace(pos, clock=pos.clock.next_player_turn())
    title = f"Player Turn {pos.clock.turn}.{pos.clock.half}"
    if pos.clock.phase is Phase.RPH:
        pos, r1 = rally_phase(pos, dice)  # type: ignore[arg-type]
        events += list(r1.events)
    pos = replace(pos, clock=replace(pos.clock, phase=Phase.AFPH))
    pos, r2 = end_of_afph(pos, dice)  # type: ignore[arg-type]
    events += list(r2.events)
    pos = replace(pos, clock=pos.clock.next_player_turn())
    return pos, Report(f"{title}: RPh wind and end-of-AFPh fire upkeep", tuple(events))


def forecast_reference(pos: Position, turns: int, trials: int, seed: int | None = None) -> Forecast:
    """The same forecast as a plain loop: :func:`play_player_turn` with :class:`SeededDice` per trajectory.

    Slow; for benchmarks and tests.
    """
    pos = _start(pos)
    locs = tuple(sorted({loc for loc in pos.map.all_locations() if pos.map.is_burnable(loc)}
                        | {f.location for f in pos.fires}))
    index = {loc: i for i, loc in enumerate(locs)}
    burning = np.zeros(len(locs))
    blaze = np.zeros(len(locs))
    base = seed if seed is not None else 0
    for t in range(trials):
        dice = SeededDice(base * 1_000_003 + t)
        p = pos
        for _ in range(turns):
            p, _ = play_player_turn(p, dice)
        for loc in {f.location for f in p.fires}:
            burning[index[loc]] += 1
        for f in p.blazes():
            blaze[index[f.location]] += 1
    return Forecast(pos, turns, trials, seed, locs, burning / trials, blaze / trials)
