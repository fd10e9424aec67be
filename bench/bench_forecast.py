"""Forecast speed: the vectorised Monte Carlo on one core and on every local core, against the plain
per-trajectory Python loop, in one run.

    python bench/bench_forecast.py [--trials 10000] [--turns 8] [--loop-trials 40] [--repeat 1]

A generated 10-board map (5 × 2 boards, ~3,300 hexes) with 100 fires, Dry EC, a Mild Breeze.  Each
vectorised time is a cold start, as a user meets it: compiling the position plus the forecast (rubble
edges for Collapses made as they happen).  The plain loop (``forecast_reference``: ``play_player_turn``
with ``SeededDice`` per trajectory) is timed on fewer trajectories and scaled linearly to the same
count; the output says so.  ``--repeat`` runs each vectorised mode several times, interleaved, and
reports the fastest and slowest: this machine is shared and its speed drifts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mapgen import ten_board_position

from asl_vassal_bridge.core.forecast import compile_position, forecast, forecast_reference
from asl_vassal_bridge.core.position import Position


def cold(pos: Position, turns: int, trials: int, seed: int, processes: int | None) -> tuple[float, float, float]:
    """Compile + forecast from scratch: (total, compile, mean burning Locations at the end)."""
    t0 = time.perf_counter()
    prog = compile_position(pos)
    t_compile = time.perf_counter() - t0
    fc = forecast(pos, turns, trials, seed, processes=processes, program=prog)
    return time.perf_counter() - t0, t_compile, float(fc.burning.sum())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=10_000)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--loop-trials", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pos = ten_board_position()
    m = pos.map
    burnable = sum(1 for loc in m.all_locations() if m.is_burnable(loc))
    cores = os.cpu_count() or 1
    print(f"map: {len(m.hexes)} hexes, {burnable} Burnable Locations, {len(m.buildings)} buildings, "
          f"{len(pos.fires)} fires, {len(pos.wrecks)} Burning Wrecks; {pos.environment.ec.label} EC, "
          f"{pos.environment.wind}; {cores} local cores")

    modes: dict[str, int | None] = {"one core": 1, f"every core ({cores})": None}
    times: dict[str, list[float]] = {k: [] for k in modes}
    for _ in range(max(1, args.repeat)):
        for label, processes in modes.items():
            total, t_compile, burning = cold(pos, args.turns, args.trials, args.seed, processes)
            times[label].append(total)
            print(f"vectorised, {label}: {args.trials} trajectories × {args.turns} Player Turns in {total:.2f} s "
                  f"(compile {t_compile:.2f} s); mean burning Locations at the end {burning:.1f}")

    t0 = time.perf_counter()
    ref = forecast_reference(pos, args.turns, args.loop_trials, seed=args.seed)
    t_loop = time.perf_counter() - t0
    per = t_loop / args.loop_trials
    scaled = per * args.trials
    print(f"plain loop: {args.loop_trials} trajectories in {t_loop:.2f} s ({per * 1000:.0f} ms each); "
          f"scaled linearly to {args.trials}: {scaled:.0f} s (measured on {args.loop_trials}, not run in full); "
          f"mean burning Locations {ref.burning.sum():.1f} (same rules, fewer trials)")
    for label, ts in times.items():
        spread = f" (slowest {max(ts):.2f} s)" if len(ts) > 1 else ""
        print(f"{label}: {min(ts):.2f} s{spread}, {scaled / min(ts):.0f}× the plain loop "
              f"(aims: < 2 s, ≥ 50×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
