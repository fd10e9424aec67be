"""How long a player waits for ``asl-fire --help`` and ``asl-fire odds demo``, measured side by side.

Each round runs, one after the other in a fresh interpreter (as the ``asl-fire`` script does):

- ``python -c pass``: the interpreter alone (with this environment's ``site``);
- ``asl-fire --help`` and ``asl-fire odds demo`` as they are: only the command's own module is imported,
  and a valid position file is checked without importing jsonschema;
- the same two commands the eager way they worked before: every command module imported to build the
  parser, and jsonschema imported to validate the position (``ASLFIRE_BENCH_EAGER=1`` below does that
  in-process by importing those modules first).

Rounds interleave the variants so that the shared machine's load hits them alike; the table shows the
median and best wall time of each, and the time beyond the bare interpreter.  Aim: < 80 ms for both
commands (issue 11).

Run: ``python bench/bench_cli_startup.py [ROUNDS]``.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 15

EAGER = ("import importlib, sys\n"
         "import jsonschema\n"
         "from asl_vassal_bridge import cli\n"
         "cli.build_parser()\n")
VARIANTS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "asl-fire --help": [sys.executable, "-m", "asl_vassal_bridge", "--help"],
    "asl-fire odds demo": [sys.executable, "-m", "asl_vassal_bridge", "odds", "demo"],
    "eager --help (before)": [sys.executable, "-c", EAGER + "sys.argv[1:] = ['--help']\ncli.main()"],
    "eager odds demo (before)": [sys.executable, "-c", EAGER + "sys.exit(cli.main(['odds', 'demo']))"],
}


def run(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU time (user + sys of the child) suffers less from the shared load."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    walls: dict[str, list[float]] = {k: [] for k in VARIANTS}
    cpus: dict[str, list[float]] = {k: [] for k in VARIANTS}
    for cmd in VARIANTS.values():  # warm the file cache
        run(cmd)
    for _ in range(ROUNDS):
        for name, cmd in VARIANTS.items():
            wall, cpu = run(cmd)
            walls[name].append(wall)
            cpus[name].append(cpu)
    base = statistics.median(walls["python -c pass"])
    base_cpu = statistics.median(cpus["python -c pass"])
    print(f"{ROUNDS} rounds, interleaved; times in ms")
    print(f"{'':26} {'wall median':>11} {'wall best':>9} {'CPU median':>10} {'CPU beyond python':>17}")
    for name in VARIANTS:
        med, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:26} {med * 1000:11.0f} {min(walls[name]) * 1000:9.0f} {cpu * 1000:10.0f} "
              f"{(cpu - base_cpu) * 1000:17.0f}")
    for cmd in ("--help", "odds demo"):
        now = statistics.median(cpus[f"asl-fire {cmd}"]) - base_cpu
        before = statistics.median(cpus[f"eager {cmd} (before)"]) - base_cpu
        wall = statistics.median(walls[f"asl-fire {cmd}"])
        print(f"asl-fire {cmd}: {wall * 1000:.0f} ms wall (the interpreter alone: {base * 1000:.0f} ms); "
              f"{now * 1000:.0f} ms CPU beyond the interpreter, {before / max(now, 1e-9):.1f}× less than the eager way")


if __name__ == "__main__":
    main()
