"""Live-bridge timings against a real VASSAL engine (Xvfb), measured side by side in one run.

1. Reading a game of 3,000 pieces: one JSON snapshot call vs walking the
   pieces call by call through py4j (ids, then name/location/gpid per piece).
2. Button to counters placed: an end-of-AFPh upkeep with 100 Flames,
   pressed as a player would (toolbar button → Python callback → snapshot →
   rules with VASSAL's dice → one batch applied), aim < 150 ms.

Needs `bash scripts/install-vassal-test-deps.sh` and ../shared/vasl.
Run: python bench/bench_bridge.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from asl_vassal_bridge.bridge.client import BridgeClient, BridgeRefused, connect
from asl_vassal_bridge.bridge.convert import LAYERS_FOR
from asl_vassal_bridge.bridge.extension import build_extension
from asl_vassal_bridge.bridge.phases import run_phase
from asl_vassal_bridge.core.position import Phase
from tests.support import vassal_harness as vh

COLS = [chr(ord("A") + i) for i in range(26)] + ["AA", "BB", "CC", "DD", "EE", "FF", "GG"]


def hexes(n: int) -> list[str]:
    out = []
    for c in COLS:
        for r in range(1, 10):
            out.append(f"{c}{r}")
    return [out[i % len(out)] for i in range(n)]


def launch(work: Path, name: str, pieces: list[vh.GamePiece], sj: Path, display: str, mod: Path) -> tuple[
        vh.VassalPlayer, BridgeClient]:
    game = vh.write_saved_game(work / f"{name}.vsav", pieces)
    p = vh.VassalPlayer(name, mod, game, sj, display, work, None)
    p.wait_connection_file(60)
    c = connect(p.connection_file)
    end = time.time() + 180
    while time.time() < end:
        try:
            if c.status().get("started"):
                break
        except BridgeRefused:  # VASSAL is still loading the game on its Swing thread
            pass
        time.sleep(0.5)
    return p, c


def bench_snapshot(c: BridgeClient, n: int) -> None:
    one = []
    for _ in range(5):
        t = time.perf_counter()
        snap = c.snapshot(with_terrain=False, layers_for=LAYERS_FOR)
        one.append(time.perf_counter() - t)
    assert len(snap["pieces"]) >= n, len(snap["pieces"])
    walk = []
    for _ in range(2):
        t = time.perf_counter()
        ids = list(c.api.pieceIds())
        rows = [(c.api.pieceProperty(i, "BasicName"), c.api.pieceProperty(i, "LocationName"),
                 c.api.pieceProperty(i, "PieceId")) for i in ids]
        walk.append(time.perf_counter() - t)
    assert len(rows) >= n
    m1, m2 = statistics.median(one), statistics.median(walk)
    print(f"snapshot of {len(snap['pieces'])} pieces: one JSON call {m1 * 1000:.1f} ms (median of 5); "
          f"walking them call by call ({3 * len(ids) + 1} py4j calls) {m2 * 1000:.0f} ms; ratio {m2 / m1:.1f}x")


def bench_button(c: BridgeClient, fires: int) -> None:
    done = threading.Event()
    times: list[float] = []

    parts: list[tuple[tuple[str, float], ...]] = []

    def handler(action: str) -> str:
        res = run_phase(c, Phase.AFPH)
        parts.append(res.timings)
        done.set()
        return res.message

    c.listen(handler)
    c.jvm.aslbridgetest.TestHooks.seedDice(1)
    for _ in range(6):
        done.clear()
        t = time.perf_counter()
        c.press("upkeep")
        done.wait(30)
        times.append(time.perf_counter() - t)
        c.jvm.aslbridgetest.TestHooks.undo()
        time.sleep(0.5)  # a player does not press again within milliseconds; let VASSAL finish repainting
    times = times[1:]  # the first press warms up the JVM's JIT
    snap = c.snapshot()
    print(f"button → counters placed, upkeep with {fires} Flames: median {statistics.median(times) * 1000:.0f} ms "
          f"(warm runs: {', '.join(f'{x * 1000:.0f}' for x in times)} ms; aim < 150 ms); "
          f"{len(snap['pieces'])} pieces after undo")
    last = parts[-1]
    print("  of which (last run): " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in last))


def main() -> int:
    try:
        vh.check_tools()
    except vh.Unavailable as e:
        print(f"skipped: {e}")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-bridge-") as tmp:
        work = Path(tmp)
        sj = vh.build_support_jar(work)
        mod = vh.build_module(work / "bench.vmod")
        (work / "bench_ext").mkdir()
        build_extension(vh.vassal_jar(), work / "bench_ext" / "asl-fire-bridge.vmdx")
        x = vh.Xvfb()
        try:
            # mostly counters whose layers the rules do not read, as in a real game; 1 in 30 an EC or Wind counter
            big = [vh.GamePiece(f"p{i}", h, gpid=("284" if i % 2 else "287") if i % 30 == 0 else
                                ("192" if i % 3 else "1")) for i, h in enumerate(hexes(3000))]
            p, c = launch(work, "big", big, sj, x.display, mod)
            try:
                bench_snapshot(c, 3000)
            finally:
                c.close()
                p.stop()
            # 100 Flames on the stand-in map's 60 hexes and more (columns A–J are VASL-terrain hexes)
            flames = [vh.GamePiece(f"f{i}", f"{chr(ord('A') + i % 10)}{1 + (i // 10) % 6}", gpid="192")
                      for i in range(100)]
            flames += [vh.GamePiece("ec", "K1", gpid="284"), vh.GamePiece("wind", "K2", gpid="287")]
            p, c = launch(work, "fires", flames, sj, x.display, mod)
            try:
                bench_button(c, 100)
            finally:
                c.close()
                p.stop()
        finally:
            x.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
