"""Forecast speed: the vectorised Monte Carlo against the plain per-trajectory Python loop, in one run.

    python bench/bench_forecast.py [--trials 10000] [--turns 8] [--loop-trials 40] [--processes 1]

A generated 10-board map (5 × 2 boards, ~3,300 hexes) with 100 fires, Dry EC, a Mild Breeze.  The
plain loop (``forecast_reference``: ``play_player_turn`` with ``SeededDice`` per trajectory) is timed on
fewer trajectories and scaled linearly to the same count; the output says so.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mapgen import ten_board_position

from asl_vassal_bridge.core.forecast import compile_position, forecast, forecast_reference


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=10_000)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--loop-trials", type=int, default=40)
    ap.add_argument("--processes", type=int, default=1, help="0 = every local core")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pos = ten_board_position()
    m = pos.map
    burnable = sum(1 for loc in m.all_locations() if m.is_burnable(loc))
    print(f"map: {len(m.hexes)} hexes, {burnable} Burnable Locations, {len(m.buildings)} buildings, "
          f"{len(pos.fires)} fires, {len(pos.wrecks)} Burning Wrecks; {pos.environment.ec.label} EC, "
          f"{pos.environment.wind}")

    t0 = time.perf_counter()
    prog = compile_position(pos)
    t_compile = time.perf_counter() - t0
    processes = None if args.processes == 0 else args.processes
    t0 = time.perf_counter()
    fc = forecast(pos, args.turns, args.trials, args.seed, processes=processes, program=prog)
    t_sim = time.perf_counter() - t0
    t_fast = t_compile + t_sim
    print(f"vectorised: {args.trials} trajectories × {args.turns} Player Turns in {t_fast:.2f} s "
          f"(compile {t_compile:.2f} s + simulate {t_sim:.2f} s, processes={args.processes}); "
          + (f"{len(prog.variant_of) - 1} collapsed-map variants" if processes == 1 else
             "collapsed-map variants built in the worker processes"))
    print(f"  mean burning Locations per trajectory at the end: {fc.burning.sum():.1f}; "
          f"largest standard error {fc.stderr.max():.4f}")

    t0 = time.perf_counter()
    ref = forecast_reference(pos, args.turns, args.loop_trials, seed=args.seed)
    t_loop = time.perf_counter() - t0
    per = t_loop / args.loop_trials
    scaled = per * args.trials
    print(f"plain loop: {args.loop_trials} trajectories in {t_loop:.2f} s ({per * 1000:.0f} ms each); "
          f"scaled linearly to {args.trials}: {scaled:.0f} s (measured on {args.loop_trials}, not run in full)")
    print(f"  mean burning Locations per trajectory at the end: {ref.burning.sum():.1f} (same rules, fewer trials)")
    print(f"speed-up: {scaled / t_fast:.0f}× (aim ≥ 50×); vectorised total {t_fast:.2f} s (aim < 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
