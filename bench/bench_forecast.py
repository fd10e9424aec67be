"""Forecast speed: the vectorised Monte Carlo on one core and on every local core, against the plain
per-trajectory Python loop, in one run.

    python bench/bench_forecast.py [--trials 10000] [--turns 8] [--loop-trials 40] [--repeat 1] [--before DIR]

A generated 10-board map (5 × 2 boards, ~3,300 hexes) with 100 fires, Dry EC, a Mild Breeze.  Each
vectorised time is a cold start, as a user meets it: compiling the position plus the forecast (rubble
edges for Collapses made as they happen).  The plain loop (``forecast_reference``: ``play_player_turn``
with ``SeededDice`` per trajectory) is timed on fewer trajectories and scaled linearly to the same
count; the output says so.  ``--repeat`` runs each vectorised mode several times, interleaved, and
reports the fastest and slowest: this machine is shared and its speed drifts.

``--before DIR`` (another checkout, e.g. the main branch) times the same one-core forecast in *DIR* and in
this checkout, each in a child process of its own, alternating run by run so that the machine's load hits both
alike: cold (every cache of the forecast emptied: compile + forecast) and warm (the program compiled), wall
and CPU time, their ratios, and whether both give the very same counts (the same dice in the same order).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
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


#: The child of ``--before``: one checkout's forecast, one timed run per input line ("cold" or "warm").
_CHILD = """
import hashlib, sys, time
repo, turns, trials, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
sys.path[:0] = [repo, repo + '/bench']
from mapgen import ten_board_position
from asl_vassal_bridge.core.forecast import compile_position, forecast
pos = ten_board_position()
prog = compile_position(pos)
print('ready', flush=True)


def empty_caches():
    for name, mod in list(sys.modules.items()):
        if name.startswith('asl_vassal_bridge.core.forecast'):
            for attr in ('_EDGE_CACHE', '_LOC_CACHE', '_RUBBLE_CACHE', '_BURNABLE', '_WIND_AFTER'):
                getattr(mod, attr, {}).clear()


for line in sys.stdin:
    if line.strip() == 'cold':
        empty_caches()
    w0, c0 = time.perf_counter(), time.process_time()
    p = compile_position(pos) if line.strip() == 'cold' else prog
    fc = forecast(pos, turns, trials, seed, processes=1, program=p)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    digest = hashlib.sha256((fc.burning * trials).round().astype('int64').tobytes()
                            + (fc.blaze * trials).round().astype('int64').tobytes()).hexdigest()[:16]
    print(wall, cpu, digest, flush=True)
"""


def side_by_side(before: Path, turns: int, trials: int, seed: int, repeat: int) -> None:
    """The one-core forecast in *before* and in this checkout, alternating; prints medians, ratios, identity."""
    here = Path(__file__).resolve().parent.parent
    kids = {name: subprocess.Popen([sys.executable, "-c", _CHILD, str(repo), str(turns), str(trials), str(seed)],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for name, repo in (("before", before), ("this checkout", here))}
    for kid in kids.values():
        assert kid.stdout is not None and kid.stdout.readline().strip() == "ready"
    got: dict[tuple[str, str], list[tuple[float, float, str]]] = {}
    for _ in range(repeat):
        for mode in ("cold", "warm"):
            for name, kid in kids.items():
                assert kid.stdin is not None and kid.stdout is not None
                kid.stdin.write(mode + "\n")
                kid.stdin.flush()
                wall, cpu, digest = kid.stdout.readline().split()
                got.setdefault((name, mode), []).append((float(wall), float(cpu), digest))
    for kid in kids.values():
        assert kid.stdin is not None
        kid.stdin.close()
        kid.wait()
    load = os.getloadavg()[0]
    print(f"side by side, one core, {trials} trajectories × {turns} Player Turns, {repeat} alternating runs, "
          f"load {load:.1f}: {before} against this checkout")
    for mode in ("cold", "warm"):
        b, h = got["before", mode], got["this checkout", mode]
        bw, hw = statistics.median(x[0] for x in b), statistics.median(x[0] for x in h)
        bc, hc = statistics.median(x[1] for x in b), statistics.median(x[1] for x in h)
        same = {x[2] for x in b} == {x[2] for x in h} and len({x[2] for x in b}) == 1
        print(f"  {mode}: before {bw:.3f} s wall, {bc:.3f} s CPU; this checkout {hw:.3f} s wall, {hc:.3f} s CPU; "
              f"before/this {bw / hw:.2f}× wall, {bc / hc:.2f}× CPU; same counts: {'yes' if same else 'NO'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=10_000)
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--loop-trials", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--before", type=Path, default=None, help="another checkout to time side by side")
    args = ap.parse_args()
    if args.before is not None:
        side_by_side(args.before.resolve(), args.turns, args.trials, args.seed, max(3, args.repeat))
        return 0
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
