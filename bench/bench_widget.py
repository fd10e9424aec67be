"""The widget on the 10-board map: Python-side time and bytes sent for the first draw, a step, a click, zoom
and pan, and the forecast overlay (4 Player Turns × 5,000 trials) with its progress bar.

    python bench/bench_widget.py [--repeat 3] [--boards DIR] [--against REPO | --before REPO]

No browser: every widget message (state updates, new widgets, canvas batches) is measured where it
leaves Python (``comm``'s ``publish_msg``), as JSON plus binary buffers.  ``--boards DIR`` draws VASL's
board art from board archives named like the generated boards (bd10…bd19) — local looks only.
``--against REPO`` (another checkout, e.g. ``../main``) times the forecast overlay after a step in
that checkout too, in a child process, alternating run by run with this one: a side-by-side ratio
that the machine's load changes little (``--before`` is the same option).  The overlay is drawn early from
the forecast's first 1,024 trajectories, then from all: both times are shown.  Every figure comes with the
machine's load (1-minute average) and CPU time, which the load changes less than wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ipywidgets
from asl_fire_widget import FireWidget
from asl_fire_widget.widget import OVERLAY
from mapgen import ten_board_position

from asl_vassal_bridge.core import Location

SENT: list[int] = []
_COMM = type(ipywidgets.HTML().comm)  # the kernel's comm class, or comm's DummyComm without a kernel
_orig = _COMM.publish_msg


def _publish(self: Any, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
             **keys: Any) -> None:
    SENT.append(len(json.dumps(data, default=str)) + sum(len(bytes(b)) for b in buffers or []))
    _orig(self, msg_type, data, metadata, buffers, **keys)


_COMM.publish_msg = _publish  # type: ignore[method-assign]


def measure(label: str, action: Callable[[], object], repeat: int, reset: Callable[[], object] | None = None
            ) -> float:
    times, sizes, counts = [], [], []
    for _ in range(repeat):
        if reset is not None:
            reset()
        SENT.clear()
        t0 = time.perf_counter()
        action()
        times.append(time.perf_counter() - t0)
        sizes.append(sum(SENT))
        counts.append(len(SENT))
    t = statistics.median(times)
    print(f"{label:<44} {t * 1000:7.0f} ms Python-side, {counts[-1]:3d} message(s), {sizes[-1] / 1024:8.1f} KiB")
    return t


#: The child of ``--against``: a fresh widget from one checkout (this one or the other), the same steps in both, one
#: forecast overlay after a step per input line: seconds to the first overlay drawn, to the whole one, CPU seconds,
#: and a digest of the forecast's counts (the same dice give the same digest).
_CHILD = """
import hashlib, sys, time
repo = sys.argv[1]
sys.path[:0] = [repo, repo + '/widget', repo + '/bench']
from asl_fire_widget import FireWidget
from asl_fire_widget.widget import OVERLAY
from mapgen import ten_board_position
w = FireWidget.from_position(ten_board_position(), seed=1)
w.redraw()
w.fc_turns.value = 4
w.fc_trials.value = 5000
w.run_forecast()
drawn = []
plain = w.redraw_layers


def timed(layers):
    plain(layers)
    if OVERLAY in layers:
        drawn.append(time.perf_counter())


w.redraw_layers = timed
print('ready', flush=True)
for _ in sys.stdin:
    w.session.step(1)
    drawn.clear()
    c0, t0 = time.process_time(), time.perf_counter()
    w.run_forecast()
    whole, cpu = time.perf_counter() - t0, time.process_time() - c0
    fc = w.session.forecast_result
    digest = hashlib.sha256((fc.burning * fc.trials).round().astype('int64').tobytes()).hexdigest()[:12]
    print(drawn[0] - t0, whole, cpu, digest, flush=True)
"""


def overlay_times(w: FireWidget) -> tuple[float, float, float]:
    """Run the forecast overlay: (seconds to the first overlay drawn, to the whole forecast drawn, CPU seconds)."""
    drawn: list[float] = []
    plain = w.redraw_layers

    def timed(layers: tuple[int, ...]) -> None:
        plain(layers)
        if OVERLAY in layers:
            drawn.append(time.perf_counter())

    w.redraw_layers = timed  # type: ignore[method-assign]
    c0, t0 = time.process_time(), time.perf_counter()
    try:
        w.run_forecast()
    finally:
        del w.redraw_layers
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    return (drawn[0] - t0 if drawn else total), total, cpu


def side_by_side(repo: Path, repeat: int) -> None:
    """The forecast overlay after a step in a fresh widget of this checkout and of *repo*, each in a child process,
    the same steps in both, alternating run by run; prints the medians, their ratios and whether the forecasts
    are the same."""
    here = Path(__file__).resolve().parent.parent
    kids = [subprocess.Popen([sys.executable, "-c", _CHILD, str(r)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True) for r in (here, repo)]
    for kid in kids:
        assert kid.stdout is not None and kid.stdout.readline().strip() == "ready"
    runs: list[list[tuple[float, float, float, str]]] = [[], []]
    loads: list[float] = []
    for _ in range(repeat):
        for got, kid in zip(runs, kids, strict=True):
            assert kid.stdin is not None and kid.stdout is not None
            kid.stdin.write("go\n")
            kid.stdin.flush()
            first, whole, cpu, digest = kid.stdout.readline().split()
            got.append((float(first), float(whole), float(cpu), digest))
        loads.append(os.getloadavg()[0])
    for kid in kids:
        assert kid.stdin is not None
        kid.stdin.close()
        kid.wait()
    (f1, w1, c1), (f2, w2, c2) = ([statistics.median(r[i] for r in got) for i in range(3)] for got in runs)
    same = [r[3] for r in runs[0]] == [r[3] for r in runs[1]]
    print(f"side by side, forecast overlay after a step ({repeat} alternating runs, fresh widgets, load "
          f"{min(loads):.1f}–{max(loads):.1f}): this checkout first overlay {f1 * 1000:.0f} ms, "
          f"whole {w1 * 1000:.0f} ms, {c1 * 1000:.0f} ms CPU; {repo}: first {f2 * 1000:.0f} ms, "
          f"whole {w2 * 1000:.0f} ms, {c2 * 1000:.0f} ms CPU; ratios {f2 / f1:.2f}× to the first overlay, "
          f"{w2 / w1:.2f}× to the whole, {c2 / c1:.2f}× CPU; "
          f"same forecasts: {'yes' if same else 'NO'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--boards", type=Path, default=None)
    ap.add_argument("--against", "--before", type=Path, default=None, help="another checkout to time side by side")
    args = ap.parse_args()
    print(f"load {os.getloadavg()[0]:.1f} (1-minute average, {os.cpu_count()} cores)")
    pos = ten_board_position()
    holder: dict[str, FireWidget] = {}

    def make() -> None:
        holder["w"] = FireWidget.from_position(pos, seed=1, boards=args.boards)

    measure("widget made (no drawing yet)", make, args.repeat)
    w = holder["w"]
    print(f"map: {len(pos.map.hexes)} hexes, {len(pos.fires)} fires; canvas {w.view[0]}×{w.view[1]} px, "
          f"fit zoom {w.fit_scale:.3f}; board art: {len(w.art)} board(s)")
    measure("first draw (4 layers, whole map in view)", w.redraw, args.repeat)

    def step() -> None:
        w.session.step(1)

    def undo() -> None:
        if w.session.undo_stack:
            w.session.undo()

    measure("one step (1 Player Turn: log, fires, panels)", step, args.repeat, reset=undo)
    w.set_overlay("odds")
    w.set_view(0.6, (400, 100))
    measure("one step with the odds overlay at zoom 0.6", step, args.repeat, reset=undo)
    w.set_overlay("none")
    w.set_view(w.fit_scale, (0, 0))
    m = w.session.position.map
    burning = {f.location.hex for f in w.session.position.fires}
    target = next(h for h in sorted(m.hexes) if m.is_burnable(Location(h)) and h not in burning)

    def click() -> None:
        w.tools.value = "flame"
        w.click(target)

    measure("click: place a Flame", click, args.repeat, reset=undo)
    measure("zoom in at the centre (wheel step)", lambda: w.zoom_by(1.25), args.repeat,
            reset=lambda: w.set_view(0.6, (400, 100)))
    measure("pan by 120×70 px at zoom 0.6 (one drag step)", lambda: w.pan_by(120, 70), args.repeat,
            reset=lambda: w.set_view(0.6, (400, 100)))
    w.fc_turns.value = 4
    w.fc_trials.value = 5000
    ticks: list[float] = []
    w.progress.observe(lambda c: ticks.append(c["new"]), "value")

    def cold() -> None:
        from asl_vassal_bridge.core import forecast as fmod

        fmod._EDGE_CACHE.clear()
        fmod._RUBBLE_CACHE.clear()
        w.session._program = None

    t_cold = measure("forecast overlay, cold (first on this map)", w.run_forecast, args.repeat, reset=cold)

    def after_step() -> None:  # a real step: new fires and clock, the same map and environment
        w.session.step(1)

    t_warm = measure("forecast overlay after a step (map compiled)", w.run_forecast, args.repeat,
                     reset=after_step)
    runs = []
    for _ in range(max(3, args.repeat)):
        after_step()
        runs.append(overlay_times(w))
    early, whole, cpu = (statistics.median(r[i] for r in runs) for i in range(3))
    print(f"forecast 4 turns × 5,000 trials: cold {t_cold:.2f} s, after a step {t_warm:.2f} s (aim < 0.3 s); "
          f"progress bar updates per run: {len([t for t in ticks if 0 < t < 1]) // max(1, 2 * args.repeat)}")
    print(f"after a step, {len(runs)} runs, load {os.getloadavg()[0]:.1f}: first overlay drawn at "
          f"{early * 1000:.0f} ms, the whole forecast drawn at {whole * 1000:.0f} ms, {cpu * 1000:.0f} ms CPU")
    if args.against is not None:
        side_by_side(args.against.resolve(), max(5, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
