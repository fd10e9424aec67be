"""``--png`` drawing speed: a heat map of a generated map (default 2 × 1 boards, 660 hexes), every hex tinted
(a translucent shape each, as ``forecast --png`` draws chances) and named on its translucent band.

    python bench/bench_render.py [--before DIR] [--repeat 3] [--boards 2x1]

The default map is small because the drawing before issue 32 (a picture-sized layer per translucent shape)
grows with hexes × picture size: the 10-board map (``--boards 5x2``) takes it over ten minutes.

Alone it times :func:`asl_vassal_bridge.render.render_png` in this checkout.  ``--before DIR`` (another
checkout, e.g. the main branch) draws the same picture in *DIR* and in this checkout, each in a child process
of its own, alternating run by run so that the machine's load hits both alike, and prints the times side by
side, their ratio and whether both pictures are the very same pixels.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: The child: one checkout's drawing, one timed run per input line; prints the seconds and the pixels' hash.
_CHILD = """
import hashlib, sys, tempfile, time
repo, bx, by = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sys.path[:0] = [repo, repo + '/bench']
from mapgen import generated_map
from asl_vassal_bridge.core.position import Location, Position
from asl_vassal_bridge.render import render_png
from PIL import Image
pos = Position(generated_map(bx, by))
heat = {Location(h, 0): (i % 20 + 1) / 20 for i, h in enumerate(sorted(pos.map.hexes))}
out = tempfile.mkdtemp() + '/heat.png'
print('ready', len(pos.map.hexes), flush=True)
for _ in sys.stdin:
    t = time.perf_counter()
    render_png(pos, out, heat=heat, title='bench')
    took = time.perf_counter() - t
    print(took, hashlib.sha256(Image.open(out).convert('RGB').tobytes()).hexdigest()[:16], flush=True)
"""


def _child(repo: Path, boards: tuple[int, int]) -> subprocess.Popen[str]:
    p = subprocess.Popen([sys.executable, "-c", _CHILD, str(repo), *map(str, boards)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None
    ready = p.stdout.readline().split()
    print(f"{repo}: {ready[1]} hexes")
    return p


def _run(p: subprocess.Popen[str]) -> tuple[float, str]:
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("go\n")
    p.stdin.flush()
    took, digest = p.stdout.readline().split()
    return float(took), digest


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="another checkout to time side by side")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--boards", default="2x1", help="boards across x down (default 2x1)")
    args = ap.parse_args()
    bx, by = (int(n) for n in args.boards.lower().split("x"))
    repos = ([args.before] if args.before else []) + [HERE]
    children = [_child(r, (bx, by)) for r in repos]
    times: list[list[float]] = [[] for _ in repos]
    digests: list[set[str]] = [set() for _ in repos]
    for _ in range(args.repeat):
        for k, c in enumerate(children):
            took, digest = _run(c)
            times[k].append(took)
            digests[k].add(digest)
    for c in children:
        assert c.stdin is not None
        c.stdin.close()
        c.wait()
    print(f"{'checkout':<40} {'best s':>8} {'worst s':>8}")
    for r, ts in zip(repos, times, strict=True):
        print(f"{r!s:<40} {min(ts):8.2f} {max(ts):8.2f}")
    if args.before:
        print(f"ratio (before / this, best runs): {min(times[0]) / min(times[1]):.1f}×; "
              f"same pixels: {'yes' if digests[0] == digests[1] and len(digests[0]) == 1 else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
