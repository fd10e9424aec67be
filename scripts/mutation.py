#!/usr/bin/env python3
"""Mutation testing of the rules core with mutmut (not run in CI; slow).

Each module is mutated on its own, in a scratch copy of the repository, and
only the test files that exercise it are run against each mutant.  The
share of mutants killed per module is printed (and written as JSON with
``--json FILE``); surviving mutants are listed so they can be killed by a new
test or explained as equivalent in docs/rules.md.

Usage (from the repository root, with mutmut installed: ``pip install mutmut``)::

    python scripts/mutation.py                 # every module in MODULES, one after the other
    python scripts/mutation.py smoke victory   # some of them
    python scripts/mutation.py fire --children 2 --json fire-mutants.json

A run of ``fire`` takes tens of minutes on two cores: run it in the background.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

#: module of asl_vassal_bridge/core → the test files that exercise it.
_AUDIT = ["tests/core/test_rules_audit.py", "tests/core/test_reports.py", "tests/core/test_spread_edges.py",
          "tests/core/test_buildings_b23.py"]
#: Every core test file but the Monte Carlo forecast's (slow, and it checks itself against the other modules):
#: for the modules every rule leans on (hexes, terrain, position).
_ALL_CORE = sorted(str(p.relative_to(REPO)) for p in (REPO / "tests" / "core").glob("test_*.py")
                   if p.name != "test_forecast.py")
_FIRE_PHASES = ["tests/core/test_spreading_fire.py", "tests/core/test_flame_to_blaze.py", "tests/core/test_wind.py"]
_MOLOTOV = ["tests/core/test_molotov.py", "tests/core/test_flamethrower.py", "tests/core/test_building_tem.py",
            "tests/core/test_buildings_b23.py", "tests/core/test_firestarts.py"]
MODULES: dict[str, list[str]] = {
    "fire": [*_FIRE_PHASES, "tests/core/test_building_tem.py", "tests/core/test_fire_victory.py",
             "tests/test_cli_rph_first.py", *_AUDIT],
    "wind": ["tests/core/test_wind.py", "tests/core/test_smoke_timing.py", *_AUDIT],
    "firestarts": ["tests/core/test_firestarts.py", *_AUDIT],
    "clearance": ["tests/core/test_clearance_smoke_exits.py", *_AUDIT],
    "exits": ["tests/core/test_clearance_smoke_exits.py", *_AUDIT],
    "smoke": ["tests/core/test_clearance_smoke_exits.py", "tests/core/test_smoke_timing.py", *_AUDIT],
    "victory": ["tests/core/test_firestarts.py", "tests/core/test_fire_victory.py", *_AUDIT],
    "heat_of_battle": ["tests/core/test_heat_of_battle.py", "tests/core/test_units.py"],
    "heat_of_battle_roll": ["tests/core/test_heat_of_battle.py", "tests/core/test_units.py"],
    "heat_of_battle_results": ["tests/core/test_heat_of_battle.py", "tests/core/test_units.py"],
    "heat_of_battle_outcomes": ["tests/core/test_heat_of_battle.py", "tests/core/test_units.py"],
    "units": ["tests/core/test_units.py", "tests/core/test_units_catalogue_edges.py",
              "tests/core/test_heat_of_battle.py"],
    "flamethrower": ["tests/core/test_flamethrower.py", "tests/core/test_molotov.py",
                     "tests/core/test_buildings_b23.py", "tests/core/test_firestarts.py",
                     "tests/core/test_rules_audit.py"],
    "molotov": _MOLOTOV,
    "molotov_plan": _MOLOTOV,
    "molotov_kindling": _MOLOTOV,
    "location_tem": _MOLOTOV,
    "terrain": _ALL_CORE,
    "position": _ALL_CORE,
    "position_map": _ALL_CORE,
    "position_pieces": _ALL_CORE,
    "hexes": _ALL_CORE,
    "environment": [*_FIRE_PHASES, "tests/core/test_smoke_timing.py", "tests/core/test_firestarts.py",
                    "tests/core/test_dice_and_odds.py", "tests/core/test_explain_environment_edges.py",
                    "tests/test_cli_setup.py", *_AUDIT],
    "dice": ["tests/core/test_dice_and_odds.py", "tests/core/test_dice_edges.py",
             "tests/core/test_clearance_smoke_exits.py", *_FIRE_PHASES, "tests/core/test_firestarts.py", *_AUDIT],
    "explain": ["tests/core/test_dice_and_odds.py", "tests/core/test_explain_environment_edges.py",
                "tests/core/test_clearance_smoke_exits.py",
                "tests/core/test_firestarts.py", *_AUDIT],
    "setup": ["tests/test_cli_setup.py"],
}

#: Prints each named mutant's diff, in one process (``mutmut show`` per mutant is slow).
_SHOW = """
import json, sys
from mutmut.__main__ import find_mutant, get_diff_for_mutant
out = {}
for name in sys.argv[1:]:
    try:
        out[name] = get_diff_for_mutant(name, path=find_mutant(name).path)
    except Exception as e:  # a diff is a help for reading, not a result
        out[name] = f"(no diff: {e})"
print(json.dumps(out))
"""

_STATUS = re.compile(r"^\s*(\S+): (\w[\w ]*)$")


def _copy_repo(dst: Path) -> None:
    shutil.copytree(REPO / "asl_vassal_bridge", dst / "asl_vassal_bridge",
                    ignore=shutil.ignore_patterns("__pycache__", "java"))
    (dst / "tests").mkdir()
    for f in ("__init__.py", "conftest.py"):
        if (REPO / "tests" / f).exists():
            shutil.copy(REPO / "tests" / f, dst / "tests" / f)
    shutil.copytree(REPO / "tests" / "core", dst / "tests" / "core", ignore=shutil.ignore_patterns("__pycache__"))
    if (REPO / "tests" / "support").is_dir():
        shutil.copytree(REPO / "tests" / "support", dst / "tests" / "support",
                        ignore=shutil.ignore_patterns("__pycache__"))
    (dst / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "gen_unit_catalogue.py", dst / "scripts")  # tests/core/test_units.py runs it
    for t in {t for tests in MODULES.values() for t in tests if not t.startswith("tests/core/")}:
        if (REPO / t).exists():
            shutil.copy(REPO / t, dst / t)


def run_module(module: str, children: int, keep: bool) -> dict[str, object]:
    """Mutate asl_vassal_bridge/core/<module>.py; return counts and the surviving mutants' names."""
    tests = [t for t in MODULES[module] if (REPO / t).exists()]
    work = Path(tempfile.mkdtemp(prefix=f"mutmut-{module}-"))
    try:
        _copy_repo(work)
        target = f"asl_vassal_bridge/core/{module}.py"
        (work / "setup.cfg").write_text(
            "[mutmut]\nsource_paths = asl_vassal_bridge\n"
            f"only_mutate = {target}\n"
            "also_copy =\n    scripts\n"
            "pytest_add_cli_args = -p no:cacheprovider -p no:randomly -q\n"
            "pytest_add_cli_args_test_selection =\n" + "".join(f"    {t}\n" for t in tests)
        )
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(children)]
        subprocess.run(cmd, cwd=work, env=env, check=False, stdout=subprocess.DEVNULL)
        out = subprocess.run([sys.executable, "-m", "mutmut", "results", "--all", "true"], cwd=work, env=env,
                             check=False, capture_output=True, text=True).stdout
        status: dict[str, str] = {}
        for line in out.splitlines():
            m = _STATUS.match(line)
            if m:
                status[m.group(1)] = m.group(2)
        killed = sum(1 for s in status.values() if s in ("killed", "timeout", "segfault"))
        survivors = sorted(k for k, s in status.items() if s not in ("killed", "timeout", "segfault"))
        shown = subprocess.run([sys.executable, "-c", _SHOW, *survivors], cwd=work, env=env, check=False,
                               capture_output=True, text=True).stdout
        diffs = json.loads(shown) if shown.strip() else {}
        return {"module": target, "tests": tests, "total": len(status), "killed": killed,
                "share": round(killed / len(status), 4) if status else None,
                "not_killed": {k: status[k] for k in survivors}, "diffs": diffs}
    finally:
        if keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="*", help=f"modules of asl_vassal_bridge/core (default: {' '.join(MODULES)})")
    ap.add_argument("--children", type=int, default=1, help="parallel mutant runs (default 1)")
    ap.add_argument("--json", type=Path, help="write the results as JSON to this file")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copy (to inspect mutants)")
    args = ap.parse_args(argv)
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        print(f"error: unknown module(s) {', '.join(unknown)} (expected: {', '.join(MODULES)})", file=sys.stderr)
        return 2
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("error: mutmut is not installed (pip install mutmut)", file=sys.stderr)
        return 2
    results = []
    for module in args.modules or list(MODULES):
        r = run_module(module, args.children, args.keep)
        results.append(r)
        share = "n/a" if r["share"] is None else f"{100 * float(r['share']):.1f} %"  # type: ignore[arg-type]
        print(f"{r['module']}: {r['killed']}/{r['total']} killed ({share})", flush=True)
        for name, st in r["not_killed"].items():  # type: ignore[attr-defined]
            print(f"    {name}: {st}")
        if args.json:
            args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
