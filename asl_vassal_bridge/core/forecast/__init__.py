"""Multi-turn fire forecasts: the chance each Location is burning after N Player Turns.

A Monte Carlo over the full fire rules — the RPh Wind Change with Heavy
Winds and Collapse (B25.63–.66), then the end-of-AFPh Flame→Blaze and
Spreading Fire DRs with the Gusts of a Gusting Player Turn (B25.151,
B25.6–.651) — for every Player Turn.

The rules stay in one place: before simulating, :func:`compile_position`
asks the core's own check functions (:func:`~.fire.flame_to_blaze_check`,
:func:`~.fire.spread_check`, :func:`~.fire.wind_reaches_spread`,
:func:`~.environment.wind_direction_drm`, :func:`~.fire.spread_targets`)
for the Original DR each roll needs, per Location, per source and per
wind; trajectories are then numpy arrays rolled together, 1,024 at a time.

- Spreading Fire (B25.6): each target's best Original DR needed is kept
  per trajectory; a new Blaze folds its edges in once, a trajectory whose
  wind or map changed folds all its Blazes again.
- Flame→Blaze (B25.151): a Flame's DR has the same odds every AFPh, so its
  fate (Blaze or out, after k AFPhs) is drawn once, when it is placed, from
  a 16-bit table per kind of Location (:func:`.program._fate_tables`; the few draws
  that straddle two fates are finished in floating point, so every fate
  keeps its exact chance).
- Gusts (B25.651) are a per-trajectory state set by a Wind Change DR of 12
  (or already in the position); at the end of the AFPh their spreads are
  automatic ones of the Spreading Fire step (one Flame per Location).
- Collapse (B25.66): a chosen upper Location and the levels above it are
  marked gone; a chosen ground level takes its hex, whose rubble Blaze burns
  on from when it appeared.  The core's :func:`~.wind.collapse` makes the collapsed
  map.  Without Interior Building hexes a spread check reads only its two
  hexes, so a collapsed hex's ground spreads along "rubble edges" made once
  per hex (:func:`.collapse._rubble_edges`); with them, each set of collapsed hexes
  gets its own table row (:func:`.collapse._variants`).  A test checks both ways give
  the very same forecast.
- The rare branches call the core's scalar functions for the trajectories
  they touch: a Wind Change (:func:`~.wind.apply_wind_change`), with dice
  drawn from the same seeded numpy generator.  Gusts (B25.651) and the
  Collapse's Random Selection are rolled on the arrays;
  ``tests/core/test_forecast.py`` checks them against :func:`~.wind.gusts`
  and exact enumerations.

:func:`play_player_turn` is the scalar step (RPh wind, end-of-AFPh
upkeep) that :func:`forecast_reference` loops over per trajectory, for
benchmarks and tests.

The modules, in the order they import one another:

- :mod:`.base`: the 13 wind states, Original DR bounds, array types;
- :mod:`.program`: a Position compiled into tables (:func:`compile_position`), kept per map;
- :mod:`.collapse`: the tables of collapsed maps and rubble edges (B25.66);
- :mod:`.rolls`: dice from the seeded numpy generator;
- :mod:`.trajectories`: the batch's state and each Flame's fate;
- :mod:`.engine`: the phases played on the arrays;
- :mod:`.api`: :func:`forecast` and :class:`Forecast`;
- :mod:`.reference`: :func:`play_player_turn` and :func:`forecast_reference`.

>>> from asl_vassal_bridge.core.hexes import Hex
>>> from asl_vassal_bridge.core.position import Fire, FireKind, GameMap, HexInfo, Location, Position
>>> from asl_vassal_bridge.core.terrain import Terrain
>>> woods = Location(Hex.parse("A1"))
>>> pos = Position(GameMap.from_hexes({woods.hex: HexInfo(Terrain.WOODS)}), fires=(Fire(woods, FireKind.FLAME),))
>>> fc = forecast(pos, turns=1, trials=2000, seed=1)
>>> round(fc.chance(woods), 2)   # extinguished only on an Original DR 2 (B25.151)
0.97
"""

from __future__ import annotations

from .api import MAX_TRIALS, MAX_TURNS, Forecast, forecast
from .base import ALWAYS, NEVER, WINDS, wind_index
from .collapse import _clusters, _collapsed_map, _variant
from .engine import _Batch
from .program import _EDGE_CACHE, _LOC_CACHE, _RUBBLE_CACHE, ForecastProgram, _fate_tables, _threshold, compile_position
from .reference import forecast_reference, play_player_turn
from .rolls import _DR_OF_BYTE, _roll_dr

__all__ = [
    "MAX_TRIALS",
    "MAX_TURNS",
    "Forecast",
    "ForecastProgram",
    "compile_position",
    "forecast",
    "forecast_reference",
    "play_player_turn",
]
#: Also importable from here, as from the one module the forecast was: the constants and the internals the
#: tests and benchmarks reach (the caches a cold start clears, the batch, the fate tables).
_INTERNALS = (ALWAYS, NEVER, WINDS, wind_index, _clusters, _collapsed_map, _variant, _Batch, _EDGE_CACHE, _LOC_CACHE,
              _RUBBLE_CACHE, _fate_tables, _threshold, _DR_OF_BYTE, _roll_dr)
