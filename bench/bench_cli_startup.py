"""How long a player waits for ``asl-fire --help`` and ``asl-fire odds demo``, measured side by side.

Each round runs, one after the other in a fresh interpreter (as the ``asl-fire`` script does):

- ``python -c pass``: the interpreter alone;
- ``asl-fire --help`` and ``asl-fire odds demo`` as they are: only the command's own module is imported,
  a valid position file is checked without importing jsonschema, the package's data files are read by
  its loader (no importlib.resources, zipfile or pathlib), and ``random`` waits for the first dice;
- ``odds demo, stdlib as before``: the same after importing what that path imported before
  (pathlib, random, and importlib.resources reading the demo);
- the two commands the eager way they worked at first: every command module imported to build the
  parser, and jsonschema imported to validate the position.

Two setups, each with its own bare interpreter:

- ``site``: this environment's interpreter as ``asl-fire`` runs in it, its ``.pth`` files included (here an
  editable install's finder and the container's own hooks import pathlib, re, typing, importlib.resources …
  before any command, so they cost the commands nothing);
- ``-S``: no ``site``, the package found through PYTHONPATH: nothing is imported before the command, so
  the times beyond the interpreter are everything the command itself costs (the odds path needs only the
  standard library).

Every run uses compiled bytecode, as an installed package has: ``PYTHONDONTWRITEBYTECODE`` is dropped and
the ``.pyc`` files go to a temporary PYTHONPYCACHEPREFIX, filled by a warm-up run.  (Without them every
start compiles the package again, about 30 ms more on the machine of the figures below.)

With ``--before DIR`` (another checkout of the project, e.g. the main branch) both setups also run the two
commands from *DIR*, in the same rounds, to show what a change did.

Rounds interleave the variants so that the shared machine's load hits them alike; the table shows the
median and best wall time of each, its CPU time (user + sys, which suffers less from other processes)
and the CPU time beyond its setup's bare interpreter.  Aim: < 80 ms for both commands (issue 11).

What a player waits for is best seen in a fresh venv with the package installed (no editable finder, no
other ``.pth`` files)::

    python3 -m venv ../pv && ../pv/bin/pip install -q --no-deps .
    env -u PYTHONDONTWRITEBYTECODE hyperfine -N -w 3 -r 40 '../pv/bin/python -c pass' \
        '../pv/bin/asl-fire --help' '../pv/bin/asl-fire odds demo'

Run: ``python bench/bench_cli_startup.py [ROUNDS] [--before DIR]``.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ARGS = sys.argv[1:]
BEFORE = Path(ARGS.pop(ARGS.index("--before") + 1)).resolve() if "--before" in ARGS else None
ROUNDS = int(ARGS[0]) if ARGS and ARGS[0] != "--before" else 15
ROOT = Path(__file__).resolve().parent.parent

EAGER = ("import importlib, sys\n"
         "import jsonschema\n"
         "from asl_vassal_bridge import cli\n"
         "cli.build_parser()\n")
STDLIB_BEFORE = ("import pathlib, random, sys\n"
                 "from importlib import resources\n"
                 "resources.files('asl_vassal_bridge').joinpath('scenarios/demo.toml').read_text('utf-8')\n"
                 "from asl_vassal_bridge import cli\n")
PY = sys.executable
#: (setup, variant) -> command line.  The first variant of each setup is its bare interpreter.
VARIANTS: dict[tuple[str, str], list[str]] = {
    ("site", "python -c pass"): [PY, "-c", "pass"],
    ("site", "asl-fire --help"): [PY, "-m", "asl_vassal_bridge", "--help"],
    ("site", "asl-fire odds demo"): [PY, "-m", "asl_vassal_bridge", "odds", "demo"],
    ("site", "odds demo, stdlib as before"): [PY, "-c", STDLIB_BEFORE + "sys.exit(cli.main(['odds', 'demo']))"],
    ("site", "eager --help (first)"): [PY, "-c", EAGER + "sys.argv[1:] = ['--help']\ncli.main()"],
    ("site", "eager odds demo (first)"): [PY, "-c", EAGER + "sys.exit(cli.main(['odds', 'demo']))"],
    ("-S", "python -c pass"): [PY, "-S", "-c", "pass"],
    ("-S", "asl-fire --help"): [PY, "-S", "-m", "asl_vassal_bridge", "--help"],
    ("-S", "asl-fire odds demo"): [PY, "-S", "-m", "asl_vassal_bridge", "odds", "demo"],
    ("-S", "odds demo, stdlib as before"): [PY, "-S", "-c", STDLIB_BEFORE + "sys.exit(cli.main(['odds', 'demo']))"],
}
if BEFORE is not None:
    for _setup, _flags in (("site", []), ("-S", ["-S"])):
        VARIANTS[_setup, "before: asl-fire --help"] = [PY, *_flags, "-m", "asl_vassal_bridge", "--help"]
        VARIANTS[_setup, "before: asl-fire odds demo"] = [PY, *_flags, "-m", "asl_vassal_bridge", "odds", "demo"]


def where(variant: str) -> Path:
    """The checkout a variant runs from (``-m`` finds the package in the working directory first)."""
    return BEFORE if BEFORE is not None and variant.startswith("before:") else ROOT


def run(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU time (user + sys of the child) suffers less from the shared load."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env, cwd=cwd)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="asl-fire-pyc-") as pyc:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = pyc

        def env_of(setup: str, variant: str) -> dict[str, str]:
            return {**env, "PYTHONPATH": str(where(variant))} if setup == "-S" else env

        walls: dict[tuple[str, str], list[float]] = {k: [] for k in VARIANTS}
        cpus: dict[tuple[str, str], list[float]] = {k: [] for k in VARIANTS}
        for key, cmd in VARIANTS.items():  # compile the bytecode, warm the file cache
            run(cmd, env_of(*key), where(key[1]))
        for _ in range(ROUNDS):
            for key, cmd in VARIANTS.items():
                wall, cpu = run(cmd, env_of(*key), where(key[1]))
                walls[key].append(wall)
                cpus[key].append(cpu)
    print(f"{ROUNDS} rounds, interleaved; times in ms")
    print(f"{'':5} {'':29} {'wall median':>11} {'wall best':>9} {'CPU median':>10} {'CPU beyond python':>17}")
    for setup in ("site", "-S"):
        base_cpu = statistics.median(cpus[setup, "python -c pass"])
        for s, name in VARIANTS:
            if s == setup:
                med, cpu = statistics.median(walls[s, name]), statistics.median(cpus[s, name])
                print(f"{setup:5} {name:29} {med * 1000:11.0f} {min(walls[s, name]) * 1000:9.0f} "
                      f"{cpu * 1000:10.0f} {(cpu - base_cpu) * 1000:17.0f}")
    for setup in ("site", "-S"):
        base = statistics.median(walls[setup, "python -c pass"])
        base_cpu = statistics.median(cpus[setup, "python -c pass"])
        for cmd in ("--help", "odds demo"):
            now = statistics.median(cpus[setup, f"asl-fire {cmd}"]) - base_cpu
            wall = statistics.median(walls[setup, f"asl-fire {cmd}"])
            line = (f"{setup:5} asl-fire {cmd}: {wall * 1000:.0f} ms wall (the interpreter alone: "
                    f"{base * 1000:.0f} ms); {now * 1000:.0f} ms CPU beyond the interpreter")
            for other in (f"eager {cmd} (first)", "odds demo, stdlib as before" if cmd == "odds demo" else "",
                          f"before: asl-fire {cmd}"):
                if (setup, other) in cpus:
                    before = statistics.median(cpus[setup, other]) - base_cpu
                    line += f", {before / max(now, 1e-9):.2f}× less than “{other}”"
            print(line)


if __name__ == "__main__":
    main()
