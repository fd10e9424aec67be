"""Live-bridge timings against a real VASSAL engine (Xvfb), measured side by side in one run.

One game as real scenarios are played: a map of 10 boards (5 × 2, two of
them reversed) with 3,000 pieces, 100 of them Flames, terrain through the
VASL-model path (VASL's ``ASLMap.getVASLMap()``: the test stand-in of
tests/support/java, or VASL's own classes when ``ASL_VASL_VMOD`` names a
VASL module, see docs/developers.md "The live suite against your own VASSAL and VASL").

1. Reading the game: one JSON snapshot call vs walking the pieces call by
   call through py4j (ids, then name/location/gpid per piece).
2. Button to counters placed: an end-of-AFPh upkeep pressed as a player would
   (toolbar button → Python callback → snapshot → rules with VASSAL's dice →
   one batch applied), the first press of the game (terrain sent and read)
   and later presses (terrain kept: the snapshot says "same"), aim < 150 ms
   for a later press; each press is undone before the next.
3. Snapshot size with the terrain and without (a later press).

Each press is timed step by step (snapshot, position, rules+dice, batch,
apply: the modules of docs/bridge.md), the later presses as the median of
each step, with the CPU time each press took in this process and in VASSAL's
JVM (what a loaded machine's wall clock hides) and the machine's load.  A
later press reads only the pieces changed since the last one (a delta
snapshot); the first press reads VASL's model (the extension's terrain cache is
emptied first) and sends it.  ``--compare DIR`` first runs this bench on DIR's code
(another checkout, e.g. main) in the same run, then this one, and prints the
figures side by side; ``--rounds N`` alternates the two N times and prints
each figure's median and the ratio (this machine's load comes and goes).

``--vasl VMOD [--boards DIR] [--vassal-home DIR] [--board-names 01,02,…]``: the
same game on a VASL module of your own (VASL's own classes, its boards folder;
the VASSAL installation to run it with; the boards, by default 01–10), as
``ASL_VASL_VMOD``, ``ASL_VASL_BOARDS`` and ``ASL_VASSAL_HOME`` do.

Needs `bash scripts/install-vassal-test-deps.sh` (not ../shared/vasl).
Run: python bench/bench_bridge.py [--compare DIR [--rounds N]]
                                  [--vasl VMOD [--boards DIR] [--vassal-home DIR] [--board-names L]]
(BENCH_PLAY=N: VASSAL first places and deletes N counters with chat lines, as in a game in progress (150; 0: none),
BENCH_PROFILE=1: also cProfile the Python side of the later presses, BENCH_PROFILE_OUT=FILE: and keep it;
BENCH_PRESSES=N: N presses instead of 7 (at least 3), as VASSAL's JIT warms; BENCH_EDT_STACKS=N: the N most
frequent stacks of VASSAL's Swing thread while it was held over 20 ms, at connect and per later press;
ASL_VASSAL_JVM_OPTS: options for VASSAL's JVM, e.g. a flight recording to profile it)
"""

from __future__ import annotations

import contextlib
import cProfile
import gc
import json
import os
import pstats
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

from py4j.protocol import Py4JError

#: the checkout whose code is measured: this one, or BENCH_CODE (``--compare`` runs this bench on another's code)
sys.path.insert(0, os.environ.get("BENCH_CODE") or str(Path(__file__).resolve().parents[1]))

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.bridge.client import BridgeClient, BridgeRefused, connect
from asl_vassal_bridge.bridge.convert import LAYERS_FOR
from asl_vassal_bridge.bridge.extension import build_extension
from asl_vassal_bridge.bridge.phases import run_phase

try:
    from asl_vassal_bridge.bridge.phases import prepare
except ImportError:  # a checkout from before the bridge read the game at connect (--compare)
    prepare = None  # type: ignore[assignment]
from asl_vassal_bridge.core.hexes import column_letters
from asl_vassal_bridge.core.position import Phase
from tests.support import vassal_harness as vh

PIECES = 3000
#: BENCH_PLAY=N: before the presses VASSAL places and deletes N counters with a chat line each, as a game in
#: progress has (its Swing chat and counter code compiled by the JIT as in a game, not just started); 0: none
PLAY = int(os.environ.get("BENCH_PLAY", "150"))
#: BENCH_PROFILE=1: cProfile the Python side of the later presses (button → run_phase), printed after them
PROFILE = bool(os.environ.get("BENCH_PROFILE"))
FLAMES = 100


def board_layout(names: list[str], turned: tuple[int, ...] = (1, 6), columns: int = 5) -> tuple[vh.BoardAt, ...]:
    """10 boards, 5 columns × 2 rows (or *columns* a row); the second and seventh reversed (*turned*)."""
    return tuple(vh.BoardAt(n, i % columns, i // columns, reversed=i in turned) for i, n in enumerate(names))


def inner_hexes() -> list[str]:
    """A board's hexes away from its edges (so no piece sits on a hex two boards share)."""
    return [f"{column_letters(c)}{r}" for c in range(1, 32) for r in range(1, 10)]


def board_terrain() -> str:
    """The stand-in terrain of each board: Woods in two of three hexes and a Wooden Building every ninth hex (fires
    burn and spread), Open Ground elsewhere."""
    lines = []
    for c in range(33):
        for r in range(0 if c % 2 else 1, 11):
            if (c + r) % 9 == 0:
                lines.append(f"{column_letters(c)}{r}\tWooden Building\t0")
            elif (c + r) % 3:
                lines.append(f"{column_letters(c)}{r}\tWoods")
    return "\n".join(lines) + "\n"


def game_pieces(boards: tuple[vh.BoardAt, ...]) -> list[vh.GamePiece]:
    """100 Flames (10 per board) and 2,898 unit and SW counters elsewhere, plus the EC and Wind counters."""
    hexes = inner_hexes()
    out = []
    for i in range(FLAMES):
        b = boards[i % len(boards)]
        out.append(vh.GamePiece(f"f{i}", hexes[((i // len(boards)) * 29 + 3) % len(hexes)], gpid="192", board=b.name))
    out += [vh.GamePiece("ec", "A5", gpid="284", board=boards[0].name),
            vh.GamePiece("wind", "A7", gpid="287", board=boards[0].name)]
    flame_hexes = {(p.board, p.hex) for p in out}
    free = [(b.name, h) for b in boards for h in hexes if (b.name, h) not in flame_hexes]
    for i in range(PIECES - len(out)):
        board, h = free[(i * 7) % len(free)]
        out.append(vh.GamePiece(f"u{i}", h, gpid="11467" if i % 3 else "2473", board=board))
    return out


def wait_started(c: BridgeClient) -> None:
    end = time.time() + 300
    while time.time() < end:
        try:
            if c.status().get("started"):
                return
        except BridgeRefused:  # VASSAL is still loading the game on its Swing thread
            pass
        time.sleep(0.5)
    raise RuntimeError("the game did not start")


def bench_snapshot(c: BridgeClient) -> None:
    one, built = [], []
    for _ in range(5):
        t = time.perf_counter()
        snap = c.snapshot(with_terrain=False, layers_for=LAYERS_FOR)
        one.append(time.perf_counter() - t)
        built.append(snap["build_ms"])
    walk = []
    for _ in range(2):
        t = time.perf_counter()
        ids = list(c.api.pieceIds())
        rows = [(c.api.pieceProperty(i, "BasicName"), c.api.pieceProperty(i, "LocationName"),
                 c.api.pieceProperty(i, "PieceId")) for i in ids]
        walk.append(time.perf_counter() - t)
    assert len(rows) >= PIECES
    m1, m2 = statistics.median(one), statistics.median(walk)
    print(f"1. snapshot of {len(snap['pieces'])} pieces: one JSON call {m1 * 1000:.1f} ms (median of 5); "
          f"walking them call by call ({3 * len(ids) + 1} py4j calls) {m2 * 1000:.0f} ms; ratio {m2 / m1:.1f}x; "
          f"of the one call, building the JSON on VASSAL's Swing thread {statistics.median(built):.0f} ms")


def jvm_cpu(pid: int) -> float:
    """Seconds of CPU the process *pid* has used (user + system, all its threads), or 0 where /proc has no answer."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def jvm_threads(pid: int) -> dict[str, float]:
    """Seconds of CPU per thread name of the process *pid* (names as /proc cuts them, threads of one name summed)."""
    out: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            head, rest = task.joinpath("stat").read_text().rsplit(")", 1)
            name = re.sub(r"[-#]?\d+$", "", head.split("(", 1)[1]).strip() or "?"
            fields = rest.split()
            out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


EDT_STACKS = int(os.environ.get("BENCH_EDT_STACKS", "0"))
PROBE = Path(__file__).resolve().parent / "java" / "aslbench" / "EdtProbe.java"


def probe_agent(work: Path) -> Path:
    """The Swing-thread probe (bench/java/aslbench/EdtProbe.java) as a Java agent jar: ``-javaagent:`` puts it on
    VASSAL's class path whatever the measured checkout's harness (``ASL_VASSAL_JVM_OPTS``)."""
    classes = work / "probe"
    subprocess.run(["javac", "--release", "11", "-nowarn", "-d", str(classes), str(PROBE)], check=True)
    jar = work / "edt-probe.jar"
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nPremain-Class: aslbench.EdtProbe\n\n")
        for f in sorted(classes.rglob("*.class")):
            z.write(f, f.relative_to(classes).as_posix())
    return jar


def hold_start(c: BridgeClient) -> None:
    """Starts (or resets) the probe: the longest hold of VASSAL's Swing thread counts from now."""
    with contextlib.suppress(Py4JError):
        c.jvm.aslbench.EdtProbe.start()
        c.jvm.aslbench.EdtProbe.sampleStacks(bool(EDT_STACKS))


def held_stacks(c: BridgeClient, what: str) -> None:
    """With BENCH_EDT_STACKS=N: the N most frequent stacks of VASSAL's Swing thread sampled while it was held."""
    if EDT_STACKS:
        with contextlib.suppress(Py4JError):
            print(f"   Swing thread held ({what}), sampled stacks:\n"
                  + str(c.jvm.aslbench.EdtProbe.stacks(3, 8, EDT_STACKS)))


def hold_ms(c: BridgeClient) -> float | None:
    """The longest VASSAL's Swing thread was held since :func:`hold_start` or the last call, in ms (None: no probe)."""
    try:
        return float(c.jvm.aslbench.EdtProbe.longestUs()) / 1000
    except Py4JError:
        return None


def held_by(c: BridgeClient) -> str:
    """The longest event of each kind VASSAL's Swing thread ran since :func:`hold_start` (the bridge's calls, Swing's
    repaint and layout, …), each timed as VASSAL's event queue dispatched it."""
    try:
        return str(c.jvm.aslbench.EdtProbe.longestEvents())
    except Py4JError:
        return "-"


def bench_connect(c: BridgeClient) -> None:
    """0. The bridge connecting to a VASSAL just started (JIT cold), as ``asl-fire bridge`` does: the listener set
    (the extension reads VASL's terrain) and Python's read of the game (``phases.prepare``); the longest hold of
    VASSAL's Swing thread meanwhile."""
    hold_start(c)
    t = time.perf_counter()
    c.listen(lambda _action: "")
    line = prepare(c) if prepare is not None else "(this checkout has no prepare)"
    took = time.perf_counter() - t
    time.sleep(0.5)
    longest = hold_ms(c)
    by = held_by(c)
    held_stacks(c, "connect")
    c.api.clearListener()
    print(f"0. connect (VASSAL just started): longest hold of VASSAL's Swing thread "
          f"{'-' if longest is None else f'{longest:.0f}'} ms (aim <= 100 ms; probe: an event posted every 2 ms, its "
          f"lateness); the longest event of each kind: {by}; listener set and the game read in {took * 1000:.0f} ms; "
          f"Python: {line}")


def bench_button(c: BridgeClient, jvm_pid: int,
                 presses: int = max(3, int(os.environ.get("BENCH_PRESSES", "7")))) -> None:
    done = threading.Event()
    times: list[float] = []
    parts: list[tuple[tuple[str, float], ...]] = []
    errors: list[str] = []
    cpu: list[tuple[float, float]] = []  # (this process, VASSAL's JVM) per press
    sent: list[dict[str, Any]] = []  # what each press's snapshot said of itself
    holds: list[float | None] = []  # the longest hold of VASSAL's Swing thread in each press, in ms
    held: list[str] = []  # and the longest event of each kind in it
    undo_holds: list[float | None] = []  # the same for VASSAL's own Undo of each press's batch
    undo_held: list[str] = []

    prof = cProfile.Profile() if PROFILE else None
    prepared_line = ""
    connect_hold: float | None = None
    connect_by = "-"
    snapshot = c.snapshot

    def recording(*args: Any, **kw: Any) -> dict[str, Any]:
        snap = snapshot(*args, **kw)
        terrain = [m.get("terrain") or {} for m in snap.get("maps") or ()]
        delta = snap.get("delta") or {}
        us = snap.get("build_us")
        sent.append({"build_ms": snap.get("build_ms") if us is None else f"{us / 1000:.1f}",
                     "read_ms": sum(int(t.get("read_ms") or 0) for t in terrain),
                     "sent": f"{delta['pieces']} changed, {delta['removed']} removed" if delta
                     else f"all {len(snap.get('pieces') or ())}"})
        return snap

    c.snapshot = recording  # type: ignore[method-assign]
    apply = c.apply
    applied: list[dict[str, Any]] = []  # what each press's batch did in VASSAL, and where its time went there

    def applying(batch: dict[str, Any]) -> dict[str, Any]:
        res = apply(batch)
        applied.append(res)
        return res

    c.apply = applying  # type: ignore[method-assign]

    gc_pauses: list[list[float]] = []  # Python's cyclic garbage collections inside each press, in ms
    gc_start = [0.0, 0.0]  # when the running collection started; 1.0 while a press runs

    def on_gc(phase: str, _info: dict[str, int]) -> None:
        if not gc_start[1]:
            return  # between presses (the bridge collects then, bridge/client.py's _Collector)
        if phase == "start":
            gc_start[0] = time.perf_counter()
        else:
            gc_pauses[-1].append((time.perf_counter() - gc_start[0]) * 1000)

    gc.callbacks.append(on_gc)

    def handler(action: str) -> str:
        gc_pauses.append([])
        gc_start[1] = 1.0
        try:
            if prof is not None and len(times) >= 2:  # later presses only
                prof.enable()
            res = run_phase(c, Phase.AFPH)
            if prof is not None:
                prof.disable()
            parts.append(res.timings)
            return res.message
        except Exception as e:  # shown in the bench output, not swallowed
            errors.append(repr(e))
            return str(e)
        finally:
            gc_start[1] = 0.0
            done.set()

    c.listen(handler)
    time.sleep(3)  # the extension reads VASL's terrain when the bridge connects: let it finish
    played = -1
    with contextlib.suppress(Py4JError):  # the test hooks of a checkout from before them have no play (--compare)
        played = sum(c.jvm.aslbridgetest.TestHooks.play(min(25, PLAY - i), i) for i in range(0, PLAY, 25))
    bridge_snapshot._TERRAIN.clear()  # the game's first press: no terrain read yet
    with contextlib.suppress(Exception):
        c.api.forgetTerrain()  # nor kept by the extension (older extensions keep none): read at the press
    c.jvm.aslbridgetest.TestHooks.seedDice(1)
    threads: dict[str, float] = {}  # VASSAL's JVM's CPU per thread over the later presses
    for i in range(presses + 1):
        if i == presses:  # as a player's first press finds it: the game read when the bridge connected
            bridge_snapshot._TERRAIN.clear()
            with contextlib.suppress(Exception):
                c.api.forgetTerrain()
            hold_start(c)
            c.listen(handler)  # the extension reads VASL's terrain
            time.sleep(3)
            # and Python reads the game, as asl-fire bridge does when it connects
            prepared_line = prepare(c) if prepare is not None else "(this checkout has no prepare)"
            connect_hold = hold_ms(c)
            connect_by = held_by(c)
        done.clear()
        here, there, per_thread = time.process_time(), jvm_cpu(jvm_pid), jvm_threads(jvm_pid)
        hold_start(c)
        t = time.perf_counter()
        c.press("upkeep")
        done.wait(60)
        times.append(time.perf_counter() - t)
        cpu.append((time.process_time() - here, jvm_cpu(jvm_pid) - there))
        if 2 <= i < presses:
            for k, v in jvm_threads(jvm_pid).items():
                threads[k] = threads.get(k, 0.0) + v - per_thread.get(k, 0.0)
        time.sleep(0.5)  # VASSAL repaints what changed: part of the press's holds
        holds.append(hold_ms(c))
        held.append(held_by(c))
        if i >= 2:
            held_stacks(c, f"press {i + 1}")
        hold_start(c)
        c.jvm.aslbridgetest.TestHooks.undo()
        time.sleep(0.5)  # a player does not press again within milliseconds; let VASSAL finish repainting
        undo_holds.append(hold_ms(c))
        undo_held.append(held_by(c))
    c.api.clearListener()
    c.snapshot = snapshot  # type: ignore[method-assign]
    c.apply = apply  # type: ignore[method-assign]
    gc.callbacks.remove(on_gc)
    if errors:
        raise RuntimeError(errors[0])
    prepared, prepared_parts = times.pop(), parts.pop()
    cpu.pop()
    prepared_hold = holds.pop()
    prepared_by = held.pop()
    first, later = times[0], times[2:]  # the second press still warms the JVM's JIT for the terrain-less path
    print(f"   VASSAL first ran what a game in progress runs through its own code: {PLAY} counters from the palettes "
          f"placed and deleted or undone, {played} chat lines (BENCH_PLAY={PLAY}; 0: a VASSAL just started)"
          if played >= 0 else "   VASSAL just started (this checkout's test hooks cannot play a game in progress)")
    print(f"2. button → counters placed, upkeep with {FLAMES} Flames on 10 boards, {PIECES} pieces: "
          f"first press {first * 1000:.0f} ms (terrain sent and read); later presses median "
          f"{statistics.median(later) * 1000:.0f} ms ({', '.join(f'{x * 1000:.0f}' for x in later)} ms; "
          f"aim < 100 ms); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("   first press: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in parts[0]))
    print(f"   first press with the terrain the extension read when the bridge connected: {prepared * 1000:.0f} ms ("
          + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in prepared_parts) + f"); Python, at connect: {prepared_line}")
    print("   last press:  " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in parts[-1]))
    steps = [k for k, _v in parts[-1]]
    print("   later presses, median of each step: " + ", ".join(
        f"{k} {statistics.median(dict(p)[k] for p in parts[2:]) * 1000:.0f} ms" for k in steps))
    print(f"   CPU per press (this process + VASSAL's JVM): first {cpu[0][0] * 1000:.0f} + {cpu[0][1] * 1000:.0f} ms; "
          f"later median {statistics.median(x for x, _y in cpu[2:]) * 1000:.0f} + "
          f"{statistics.median(y for _x, y in cpu[2:]) * 1000:.0f} ms")
    top = sorted(((v, k) for k, v in threads.items() if v > 0), reverse=True)[:6]
    if top:
        print("   VASSAL's JVM's CPU in the later presses, per press, by thread: "
              + ", ".join(f"{k} {v * 1000 / max(1, presses - 2):.0f} ms" for v, k in top))
    if sent:
        print(f"   first press's snapshot: built in {sent[0]['build_ms']} ms on VASSAL's Swing thread, of which "
              f"reading VASL's model {sent[0]['read_ms']} ms; later presses' snapshots: "
              + ", ".join(f"{x['sent']} pieces in {x['build_ms']} ms" for x in sent[2:presses]))
    later_gc = [x for p in gc_pauses[2:presses] for x in p]
    print(f"   Python's cyclic garbage collections inside the later presses: {len(later_gc)}"
          + (f", the longest {max(later_gc):.1f} ms" if later_gc else ""))
    if holds and holds[0] is not None:
        later_holds = [h for h in holds[2:] if h is not None]

        def ms(h: float | None) -> str:
            return "-" if h is None else f"{h:.0f}"

        print(f"   longest hold of VASSAL's Swing thread (aim <= 100 ms): in the first press {ms(holds[0])} ms; "
              f"in later presses: median {statistics.median(later_holds):.0f} ms, max {max(later_holds):.0f} ms "
              f"({', '.join(ms(h) for h in later_holds)}); at connect again (JIT warm, terrain forgotten) "
              f"{ms(connect_hold)} ms; the press after it {ms(prepared_hold)} ms")
        print(f"   the longest event of each kind on VASSAL's Swing thread: first press {held[0]}; later presses "
              + "; ".join(held[2:]) + f"; at connect again {connect_by}; the press after it {prepared_by}")
        for kind, name in (("bridge", "the bridge's"), ("repaint", "Swing's repaint")):
            most = max((int(m.group(1)) for h in held[2:] if (m := re.search(rf"{kind} (\d+) ms", h))), default=0)
            print(f"   longest event, {name} in later presses, at most {most} ms")
        undone = [h for h in undo_holds[2:presses] if h is not None]
        if undone:
            repaints = [int(m.group(1)) for h in undo_held[2:presses] if (m := re.search(r"repaint (\d+) ms", h))]
            print(f"   VASSAL's own Undo of the same batches (VASSAL's code alone, the same counters changing back): "
                  f"longest hold median {statistics.median(undone):.0f} ms, max {max(undone):.0f} ms; Swing's "
                  f"repaint in them at most {max(repaints, default=0)} ms")
    if applied and "us" in applied[0]:
        print("   the first press's batch and the later presses', applied on VASSAL's Swing thread:")
        for a in [applied[0], *applied[2:presses]]:
            print(f"     {len(a.get('placed') or ())} placed, {a.get('removed')} removed, {a.get('changed')} layers "
                  f"changed, {a.get('rolls')} rolls: " + ", ".join(f"{k} {v / 1000:.1f}" for k, v in a["us"].items())
                  + " ms")
    if prof is not None:
        if os.environ.get("BENCH_PROFILE_OUT"):  # for pstats / snakeviz
            prof.dump_stats(os.environ["BENCH_PROFILE_OUT"])
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)


def bench_risk_layer(c: BridgeClient, rounds: int = 5) -> None:
    """The Fire risk layer on this map: its numbers after a change (Python's recomputation, from the extension's
    poll to the layer drawn), and its drawing on VASSAL's Swing thread (the map's window repainted)."""
    from asl_vassal_bridge.bridge.phases import handle_button

    hooks = c.jvm.aslbridgetest.TestHooks
    try:
        c.api.riskLayer()
    except Py4JError:
        print("4. Fire risk layer: not in this checkout")
        return
    computed: list[float] = []

    prof = cProfile.Profile() if PROFILE else None

    def timed(action: str) -> str:
        t = time.perf_counter()
        if prof is not None and action == "risk":
            prof.enable()
        try:
            return handle_button(c, action)
        finally:
            if prof is not None and action == "risk":
                prof.disable()
            if action == "risk":
                computed.append(time.perf_counter() - t)
                if os.environ.get("BENCH_DEBUG"):
                    print(f"   (risk computed in {computed[-1] * 1000:.0f} ms: {state()['status']!r})", file=sys.stderr)

    c.listen(timed)

    def state() -> dict[str, Any]:
        return dict(json.loads(str(c.api.riskLayer())))

    def wait_update(after: int) -> float:
        t = time.perf_counter()
        while state()["updates"] <= after:
            if time.perf_counter() - t > 60:
                raise RuntimeError(f"the Fire risk layer was not recomputed within 60 s: {state()['status']}")
            time.sleep(0.005)
        return time.perf_counter() - t

    first = wait_update(state()["updates"]) if hooks.clickToolbar("aslfire-risk") else float("nan")
    snap = c.snapshot()
    flame = next(p for p in snap["pieces"] if p["name"] == "Flame")
    changed, draws = [], []
    for i in range(rounds | 1):  # an odd number of moves: the Flame ends one hex over
        n = state()["updates"]
        hooks.movePiece(flame["id"], flame["x"] + (56 if i % 2 == 0 else 0), flame["y"])
        changed.append(wait_update(n))
        time.sleep(0.3)
        hooks.windowPixel(5, 5)  # the map's window painted once more, the layer drawn
        draws.append(state()["draw_us"] / 1000)
    shaded = len(state()["shades"])
    odds_computed = computed[1:]
    forecast_computed: list[float] = []
    with contextlib.suppress(Py4JError):  # the forecast mode: 4 Player Turns, 2,000 trials (the preferences' default)
        hooks.setPrefText("aslfireRiskMode", "A forecast: burning after N Player Turns")
        for i in range(3):
            n = state()["updates"]
            computed.clear()
            if i:  # (the odds rounds left the Flame one hex over: back, then over again)
                hooks.movePiece(flame["id"], flame["x"] + (0 if i % 2 else 56), flame["y"])
            wait_update(n)
            forecast_computed += computed
        hooks.setPrefText("aslfireRiskMode", "The end of this AFPh (exact odds)")
    hooks.clickToolbar("aslfire-risk")
    c.api.clearListener()
    later = odds_computed
    print(f"4. Fire risk layer, {shaded} hexes shaded: first numbers drawn {first * 1000:.0f} ms after the toggle; "
          f"after a counter moved, Python's recomputation (snapshot, position, odds, sent) median "
          f"{statistics.median(later) * 1000:.0f} ms ({', '.join(f'{x * 1000:.0f}' for x in later)} ms; aim < 100 ms), "
          f"the numbers drawn {statistics.median(changed) * 1000:.0f} ms after the move (median; the extension looks "
          f"every 250 ms); the layer's own drawing in a repaint of the map's window at most {max(draws):.1f} ms "
          f"(aim < 20 ms)")
    if forecast_computed:
        print(f"   the forecast mode (4 Player Turns, 2,000 trials): Python's recomputation median "
              f"{statistics.median(forecast_computed) * 1000:.0f} ms "
              f"({', '.join(f'{x * 1000:.0f}' for x in forecast_computed)} ms; aim < 1 s)")
    if prof is not None:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)


def bench_sizes(c: BridgeClient) -> None:
    full = c.snapshot(layers_for=LAYERS_FOR)
    key = next(m["terrain_key"] for m in full["maps"] if m.get("terrain_key"))
    t = time.perf_counter()
    same = c.snapshot(layers_for=LAYERS_FOR, known_terrain=key)
    t_same = time.perf_counter() - t
    t = time.perf_counter()
    c.snapshot(layers_for=LAYERS_FOR)
    t_full = time.perf_counter() - t
    hexes = sum(len((m.get("terrain") or {}).get("hexes") or ()) for m in full["maps"])
    if os.environ.get("BENCH_DUMP"):  # a later press's snapshot and the terrain, for profiling offline
        Path(os.environ["BENCH_DUMP"]).write_text(json.dumps({"full": full, "same": same}))
    print(f"3. snapshot size: {len(json.dumps(full)) / 1e6:.2f} MB with the terrain of {hexes} hexes "
          f"({t_full * 1000:.0f} ms), {len(json.dumps(same)) / 1e6:.2f} MB without it on a later press "
          f"({t_same * 1000:.0f} ms)")


_FIGURES = {
    "longest Swing hold, connect (JIT cold)": r"VASSAL just started\): longest hold of VASSAL's Swing thread (\d+) ms",
    "longest Swing hold, first press": r"in the first press (\d+) ms",
    "longest Swing hold, later press median": r"in later presses: median (\d+) ms",
    "longest Swing hold, later press max": r"in later presses: median \d+ ms, max (\d+) ms",
    "longest bridge event, connect (JIT cold)": r"VASSAL just started\).*? kind: [^;]*bridge (\d+) ms",
    "longest repaint event, connect (JIT cold)": r"VASSAL just started\).*? kind: [^;]*repaint (\d+) ms",
    "longest bridge event, later presses": r"the bridge's in later presses, at most (\d+) ms",
    "longest repaint event, later presses": r"Swing's repaint in later presses, at most (\d+) ms",
    "longest Swing hold, connect again": r"at connect again \(JIT warm, terrain forgotten\) (\d+) ms",
    "later press, median": r"later presses median (\d+) ms",
    "first press": r"first press (\d+) ms",
    "first press, terrain read at connect": r"when the bridge connected: (\d+) ms",
    "snapshot call (no terrain)": r"one JSON call ([\d.]+) ms",
    "load average": r"load average ([\d.]+)",
    "later press CPU: Python": r"later median (\d+) \+",
    "later press CPU: JVM": r"later median \d+ \+ (\d+) ms",
    "first press CPU: Python": r"first (\d+) \+",
    "first press CPU: JVM": r"first \d+ \+ (\d+) ms",
}


def figures(out: str) -> dict[str, str]:
    """The bench's headline figures and the last press's steps, read off its printed output."""
    got = {name: m.group(1) + ("" if name == "load average" else " ms") for name, rx in _FIGURES.items()
           if (m := re.search(rx, out))}
    last = re.search(r"last press:\s+(.*)", out)
    for step, ms in re.findall(r"([a-z+]+) (\d+) ms", last.group(1) if last else ""):
        got[f"last press: {step}"] = f"{ms} ms"
    median = re.search(r"median of each step: (.*)", out)
    for step, ms in re.findall(r"([a-z+]+) (\d+) ms", median.group(1) if median else ""):
        got[f"later presses' median: {step}"] = f"{ms} ms"
    return got


def compare(other: Path, rounds: int = 1) -> int:
    """Run this bench on *other*'s code (its package, extension and test harness), then on this checkout's, one after
    the other, *rounds* times (alternating, so that the machine's load falls on both alike), and print each figure's
    median side by side with the ratio this checkout / *other*."""
    here = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env.setdefault("ASL_VASSAL_JAR", str(vh.vassal_jar()))  # the same engine for both
    outs: dict[str, list[dict[str, str]]] = {}
    for r in range(rounds):
        for label, root in ((str(other), other.resolve()), ("this checkout", here)):
            print(f"--- {label}" + (f", round {r + 1} of {rounds}" if rounds > 1 else ""), flush=True)
            run = subprocess.run([sys.executable, str(Path(__file__).resolve())], cwd=root,
                                 env={**env, "BENCH_CODE": str(root)}, capture_output=True, text=True)
            print(run.stdout + run.stderr[-2000:] if run.returncode else run.stdout, flush=True)
            outs.setdefault(label, []).append(figures(run.stdout))
    names = list(dict.fromkeys(n for runs in outs.values() for f in runs for n in f))

    def median(label: str, name: str) -> float | None:
        got = [float(f[name].split()[0]) for f in outs[label] if name in f]
        return statistics.median(got) if got else None

    labels = list(outs)
    print(("medians of " + str(rounds) + " rounds\n" if rounds > 1 else "")
          + f"{'':40} " + " | ".join(f"{k[-24:]:>24}" for k in labels) + " |    ratio")
    for n in names:
        ms = [median(k, n) for k in labels]
        unit = "" if n == "load average" else " ms"
        cells = " | ".join(f"{'-' if m is None else f'{m:g}{unit}':>24}" for m in ms)
        ratio = f"{ms[1] / ms[0]:.2f}x" if ms[0] and ms[1] is not None else "-"
        print(f"{n:40} {cells} | {ratio:>8}")
    return 0


def _options(argv: list[str]) -> dict[str, str]:
    """``--compare DIR``, ``--vasl VMOD``, ``--boards DIR``, ``--vassal-home DIR``; exits 2 on anything else."""
    known = ("--compare", "--rounds", "--vasl", "--boards", "--vassal-home", "--board-names")
    if len(argv) % 2 or any(a not in known for a in argv[::2]):
        print(f"usage: bench_bridge.py [--compare DIR [--rounds N]] [--vasl VMOD [--boards DIR] [--vassal-home DIR] "
              f"[--board-names 01,02,…]]; got "
              f"{' '.join(argv)}", file=sys.stderr)
        raise SystemExit(2)
    return dict(zip(argv[::2], argv[1::2], strict=True))


def main() -> int:
    opts = _options(sys.argv[1:])
    for opt, env in (("--vasl", "ASL_VASL_VMOD"), ("--boards", "ASL_VASL_BOARDS"),
                     ("--vassal-home", "ASL_VASSAL_HOME")):
        if opt in opts:  # the compared checkout's bench gets them too
            os.environ[env] = str(Path(opts[opt]).expanduser().resolve())
    if "--board-names" in opts:
        os.environ["BENCH_BOARDS"] = opts["--board-names"]
    if "--compare" in opts:
        try:
            rounds = int(opts.get("--rounds", "1"))
        except ValueError:
            rounds = 0
        if rounds < 1:
            print(f"bench_bridge.py: --rounds {opts['--rounds']}: expected a whole number of rounds, 1 or more",
                  file=sys.stderr)
            return 2
        return compare(Path(opts["--compare"]), rounds)
    try:
        vh.check_tools()
        vh.vassal_jar()
        vh.debian_classpath()
        real = vh.real_vasl()
    except vh.Unavailable as e:
        print(f"skipped: {e}")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-bridge-") as tmp:
        work = Path(tmp)
        # the Swing-thread probe, on VASSAL's class path as an agent
        os.environ["ASL_VASSAL_JVM_OPTS"] = (os.environ.get("ASL_VASSAL_JVM_OPTS", "")
                                             + f" -javaagent:{probe_agent(work)}").strip()
        ext = work / "asl-fire-bridge.vmdx"
        build_extension(vh.vassal_jar(), ext)
        x = vh.Xvfb()
        try:
            if real is None:
                boards = board_layout([f"bd{n:02d}" for n in range(1, 11)])
                print(f"VASSAL {vh.vassal_jar()}; terrain: the ASLMap stand-in (tests/support/java)")
                mod = vh.build_module(work / "bench.vmod", board_class=vh.VASL_BOARD, boards=[b.name for b in boards],
                                      terrain={b.name: board_terrain() for b in boards})
                (work / "bench_ext").mkdir()
                (work / "bench_ext" / ext.name).write_bytes(ext.read_bytes())
                game = vh.write_saved_game(work / "bench.vsav", game_pieces(boards), stacks=True, boards=boards)
                p = vh.VassalPlayer("bench", mod, game, vh.build_support_jar(work), x.display, work, None)
                p.wait_connection_file(120)
                c = connect(p.connection_file)
                wait_started(c)
            else:
                names = os.environ.get("BENCH_BOARDS", ",".join(f"{n:02d}" for n in range(1, 11))).split(",")
                boards = board_layout(names, columns=(len(names) + 1) // 2)  # two full rows
                print(f"VASSAL {vh.vassal_jar()}; terrain: VASL's own classes in {real[0]}, boards "
                      + " ".join(f"{b.name}{'(reversed)' if b.reversed else ''}" for b in boards))
                mod, game = vh.real_vasl_game(work, real[0], real[1], boards, ext)
                p = vh.VassalPlayer("bench", mod, game, vh.build_support_jar(work, standins=False), x.display,
                                    work / "real", None, module_name=vh.module_name(real[0]))
                p.wait_connection_file(180)
                c = connect(p.connection_file)
                wait_started(c)
                place = [{"gpid": q.gpid, "board": q.board, "location": q.hex} for q in game_pieces(boards)]
                c.apply({"phase": None, "session": None, "expect": {}, "chat": [], "rolls": [], "remove": [],
                         "place": place, "layers": [], "summary": []})
            try:
                bench_connect(c)
                bench_snapshot(c)
                bench_sizes(c)
                bench_button(c, p.proc.pid)
                bench_risk_layer(c)
            finally:
                c.close()
                p.stop()
        finally:
            x.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
