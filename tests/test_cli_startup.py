"""``asl-fire`` starts cheaply: the command table matches the modules, --help imports no command module,
a valid position file is checked without jsonschema (which is slow to import), and ``odds`` imports only
the rules it shows (``bench/bench_cli_startup.py`` measures the times)."""

from __future__ import annotations

import argparse
import copy
import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from asl_vassal_bridge import cli
from asl_vassal_bridge.posfile import quick_valid
from asl_vassal_bridge.posfile_schema import _schema
from asl_vassal_bridge.scenarios import demo_text


def test_the_command_table_says_what_the_modules_register() -> None:
    registered = []
    for module in cli.COMMAND_MODULES:
        p = argparse.ArgumentParser()
        sub = p.add_subparsers()
        importlib.import_module(f"asl_vassal_bridge.cli.{module}").register(sub)
        registered += [(a.dest, module, a.help) for a in sub._choices_actions]
    assert sorted(registered) == sorted(cli.COMMANDS)


ROOT = Path(__file__).resolve().parent.parent


def imported_by(*argv: str) -> set[str]:
    """The modules an ``asl-fire`` run imports, in an interpreter started with ``-S``: the environment's
    ``.pth`` files (an editable install's finder, for one) import pathlib and more before any command."""
    code = ("import sys, contextlib, io\nfrom asl_vassal_bridge.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try: main({list(argv)!r})\n    except SystemExit: pass\n"
            "print('\\n'.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    return set(out.split())


def test_help_imports_no_command_module_and_odds_only_its_own() -> None:
    mods = imported_by("--help")
    assert not {m for m in mods if m.startswith("asl_vassal_bridge.cli.")}
    assert not {m for m in mods if m.startswith("asl_vassal_bridge.core.")} - {"asl_vassal_bridge.core.errors"}
    mods = imported_by("odds", "demo")
    assert {m for m in mods if m.startswith("asl_vassal_bridge.cli.")} == {"asl_vassal_bridge.cli.fire",
                                                                          "asl_vassal_bridge.cli.options"}
    assert not {"jsonschema", "numpy", "asl_vassal_bridge.core.forecast", "asl_vassal_bridge.core.flamethrower",
                "asl_vassal_bridge.core.heat_of_battle"} & mods


#: What ``asl-fire odds`` has no use for: the other rules, the VASL readers, the bridge, the widget, and the
#: standard modules it once imported at start (importlib.resources and zipfile to read its own data files,
#: random before any dice are rolled, dataclasses and with it inspect for the core's value types).
NOT_FOR_ODDS = {"jsonschema", "numpy", "random", "importlib.resources", "zipfile", "asl_fire_widget", "dataclasses",
                "inspect"}
NOT_FOR_ODDS_PREFIXES = ("asl_vassal_bridge.vasl", "asl_vassal_bridge.bridge", "asl_vassal_bridge.render",
                         "asl_vassal_bridge.data", "asl_vassal_bridge.core.forecast", "asl_vassal_bridge.core.units",
                         "asl_vassal_bridge.core.flamethrower", "asl_vassal_bridge.core.molotov",
                         "asl_vassal_bridge.core.heat_of_battle", "asl_vassal_bridge.core.firestarts",
                         "asl_vassal_bridge.core.clearance")


def _heavy(mods: set[str]) -> set[str]:
    return (NOT_FOR_ODDS & mods) | {m for m in mods if m.startswith(NOT_FOR_ODDS_PREFIXES)}


def test_odds_imports_only_the_rules_it_shows(tmp_path: Path) -> None:
    mods = imported_by("odds", "demo")
    assert not _heavy(mods)
    assert "pathlib" not in mods  # the demo is read by the package's loader
    f = tmp_path / "village.toml"
    f.write_text(demo_text(), "utf-8")
    mods = imported_by("odds", str(f), "--json")
    assert "asl_vassal_bridge.posfile" in mods and not _heavy(mods)


def _mutations(data: Any, path: tuple[Any, ...] = ()) -> Any:
    """(path, new value) pairs: every value of *data* replaced by wrong ones, keys dropped and added."""
    wrong: list[Any] = [None, "x", -5, 2.5, True, [], {}, ["x"], {"zzz": 1}, 99999]
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _mutations(v, (*path, k))
            yield (*path, k), "<drop>"
        yield (*path, "unknown_key"), 1
    elif isinstance(data, list):
        for i, v in enumerate(data[:3]):
            yield from _mutations(v, (*path, i))
    for w in wrong:
        yield path, w


def _apply(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    out = copy.deepcopy(data)
    cur = out
    for k in path[:-1]:
        cur = cur[k]
    if value == "<drop>":
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return out


def test_the_quick_check_never_passes_what_jsonschema_refuses() -> None:
    jsonschema = importlib.import_module("jsonschema")
    import tomllib

    schema = _schema()
    validator = jsonschema.Draft202012Validator(schema)
    demo = tomllib.loads(demo_text())
    assert quick_valid(demo, schema, schema)
    checked = refused = 0
    for path, value in _mutations(demo):
        data = _apply(demo, path, value)
        valid = not any(True for _ in validator.iter_errors(data))
        quick = quick_valid(data, schema, schema)
        assert valid or not quick, f"quick check passed an invalid file: {path} = {value!r}"
        checked += 1
        refused += not valid
    assert checked > 1000 and refused > 500
