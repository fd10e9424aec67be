"""Benchmark: exact odds for every Location, and one AFPh upkeep, on a generated 10-board map (3,300 hexes,
100 fires), side by side with a deliberately naive reference that scans every fire for every Location.

Run: ``python bench/bench_core.py`` (aim: all odds < 10 ms).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mapgen import ten_board_position

from asl_vassal_bridge.core import Position, SeededDice, end_of_afph, pending_rolls
from asl_vassal_bridge.core.fire import SpreadCheck, _better, spread_check, wreck_targets


def naive_spreads(pos: Position) -> dict[Any, SpreadCheck]:
    """For every Location on the map, look at every fire: O(Locations × fires)."""
    now = pos.clock.player_turn
    m = pos.map
    best: dict[Any, SpreadCheck] = {}
    for target in m.all_locations():
        if pos.blaze_at(target) is not None:
            continue
        for f in pos.fires:
            if not f.is_blaze or f.since >= now:
                continue
            src = f.location
            d = src.hex.direction_to(target.hex)
            if d is None and src.hex != target.hex:
                continue
            # Recompute the adjacency rule the slow way: is target among the spread targets of src?
            from asl_vassal_bridge.core.fire import spread_targets

            for t, way in spread_targets(m, src):
                if t == target:
                    c = spread_check(pos, src, target, way)
                    if c is not None and _better(c, best.get(target)):
                        best[target] = c
        for w in pos.wrecks:
            if not w.burning or w.since >= now:
                continue
            for t, way in wreck_targets(m, w):
                if t == target:
                    c = spread_check(pos, w.location, target, way, w)
                    if c is not None and _better(c, best.get(target)):
                        best[target] = c
    return best


def naive_upkeep(pos: Position, dice: SeededDice) -> None:
    """Flame→Blaze then spreading, finding targets with the naive scan."""
    from asl_vassal_bridge.core.fire import flame_to_blaze

    p1, _ = flame_to_blaze(pos, dice)
    for _target, sc in sorted(naive_spreads(p1).items()):
        if not sc.automatic:
            dice.DR("spread")


def timeit(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    pos = ten_board_position()
    n_locs = sum(1 for _ in pos.map.all_locations())
    print(f"map: {len(pos.map.hexes)} hexes, {n_locs} Locations, {len(pos.fires)} fires, "
          f"{len(pos.burning_wrecks())} burning wrecks")

    def fresh() -> Position:
        # A new Position each time, so no cached index is reused between runs.
        return pos.with_(fires=tuple(pos.fires))

    ours = pending_rolls(fresh())
    spreads = {r.location: r.chance for r in ours if r.kind == "spread"}
    ref = naive_spreads(fresh())
    assert spreads == {t: c.chance for t, c in ref.items()}, "naive and fast odds disagree"
    t_odds = timeit(lambda: pending_rolls(fresh()), 30)
    t_naive = timeit(lambda: naive_spreads(fresh()), 3)
    t_upkeep = timeit(lambda: end_of_afph(fresh(), SeededDice(1)), 20)
    print(f"exact odds, every pending roll ({len(ours)} rolls): {t_odds * 1000:8.2f} ms  (aim < 10 ms)")
    print(f"naive reference (every Location × every fire):     {t_naive * 1000:8.2f} ms  "
          f"→ ratio {t_naive / t_odds:6.1f}×")
    t_naive_up = timeit(lambda: naive_upkeep(fresh(), SeededDice(1)), 3)
    print(f"one end-of-AFPh upkeep (Flame→Blaze + spreading):  {t_upkeep * 1000:8.2f} ms")
    print(f"naive upkeep reference:                            {t_naive_up * 1000:8.2f} ms  "
          f"→ ratio {t_naive_up / t_upkeep:6.1f}×")


if __name__ == "__main__":
    main()
