"""The widget on a 10-board map: message count and size, and Python-side time, for a full redraw and for
a fire-layer redraw.

    python bench/bench_widget.py [--scale 0.5] [--repeat 5]

No browser: the messages are captured where ipycanvas sends them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from asl_fire_widget import FireWidget
from ipycanvas.canvas import _CANVAS_MANAGER
from mapgen import ten_board_position


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=0.5)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    sent: list[int] = []
    orig = _CANVAS_MANAGER._send_custom

    def capture(command: Any, buffers: list[Any] | None = None) -> None:
        from ipycanvas.utils import commands_to_buffer

        meta, buf = commands_to_buffer(command)
        sent.append(len(bytes(buf)) + sum(len(bytes(b)) for b in (buffers or [])) + len(str(meta)))
        orig(command, buffers or [])

    _CANVAS_MANAGER._send_custom = capture  # type: ignore[method-assign]
    pos = ten_board_position()
    w = FireWidget.from_position(pos, seed=1, scale=args.scale)
    print(f"map: {len(pos.map.hexes)} hexes, {len(pos.fires)} fires; canvas {w.geo.width}×{w.geo.height} px "
          f"at scale {args.scale}")
    for label, action in (("full redraw (4 layers)", w.redraw), ("fire layer only", lambda: w.redraw_layers((2,))),
                          ("odds overlay", lambda: w.set_overlay("odds"))):
        times, sizes, counts = [], [], []
        for _ in range(args.repeat):
            sent.clear()
            if label == "odds overlay":
                w.overlay = "none"
                w.session._odds = None  # recompute the exact odds each time
            t0 = time.perf_counter()
            action()
            times.append(time.perf_counter() - t0)
            sizes.append(sum(sent))
            counts.append(len(sent))
        print(f"{label:<24} {statistics.median(times) * 1000:7.1f} ms Python-side, {counts[-1]} message(s), "
              f"{sizes[-1] / 1024:8.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
