"""The core's value types (:mod:`asl_vassal_bridge.core.values`) side by side with the same classes as stdlib
``@dataclass(frozen=True)``: making instances (positional, defaults, keywords, ``__post_init__``), ``replace``,
``==``, ``hash``, ``<`` and ``repr``.  The ratio is value time / dataclass time (aim ≤ 1.5).

Run: ``python bench/bench_values.py [REPEATS]``.
"""

from __future__ import annotations

import dataclasses
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from asl_vassal_bridge.core import values

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
NUMBER = 100_000


def classes(decorate: Callable[..., Any], field: Callable[..., Any]) -> dict[str, Any]:
    """The test classes, shaped as the core's (Fire, Unit, Check, Clock, Position), made by *decorate*."""

    @decorate()
    class Fire:  # 3 fields, 1 default
        location: tuple[int, int]
        kind: str
        since: int = 0

    @decorate()
    class Wreck:  # 5 fields, 4 defaults
        location: tuple[int, int]
        burning: bool = True
        bypass: int | None = None
        name: str = "Wreck"
        since: int = 0

    @decorate()
    class Check:  # init=False field set by __post_init__
        name: str
        needed: int
        drms: tuple[int, ...] = ()
        total: int = field(init=False, repr=False, compare=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "total", sum(self.drms))

    @decorate(order=True)
    class Clock:
        turn: int = 1
        half: int = 1
        phase: str = "RPh"

    @decorate(slots=False)
    class Position:  # 9 fields, not slotted (cached_property)
        map: object
        environment: object = None
        clock: object = None
        fires: tuple[Any, ...] = ()
        wrecks: tuple[Any, ...] = ()
        units: tuple[Any, ...] = ()
        sides: tuple[str, str] = ("Axis", "Allied")
        name: str = ""
        notes: str = ""

    @decorate()
    class Report:
        title: str
        events: tuple[Any, ...] = field(default_factory=tuple)

    return {c.__name__: c for c in (Fire, Wreck, Check, Clock, Position, Report)}


def stdlib(slots: bool = True, order: bool = False) -> Callable[[type], type]:
    return dataclasses.dataclass(frozen=True, slots=slots, order=order)


def core(slots: bool = True, order: bool = False) -> Callable[[type], type]:
    return values.value(slots=slots, order=order)


CASES: list[tuple[str, str, str]] = [  # name, setup, statement (C is the dict of classes, rep the replace function)
    ("Fire(loc, kind) [3 fields]", "", "C['Fire']((1, 2), 'flame')"),
    ("Fire(loc, kind, 3)", "", "C['Fire']((1, 2), 'flame', 3)"),
    ("Fire(loc, kind, since=3)", "", "C['Fire']((1, 2), 'flame', since=3)"),
    ("Wreck(loc) [5 fields]", "", "C['Wreck']((1, 2))"),
    ("Wreck(loc, name='x', since=2)", "", "C['Wreck']((1, 2), name='x', since=2)"),
    ("Check(...) [__post_init__]", "", "C['Check']('Kindling', 7, (1, -2))"),
    ("Report(title) [default_factory]", "", "C['Report']('AFPh')"),
    ("Position(map, fires=...) [9, dict]", "", "C['Position'](None, fires=())"),
    ("replace(Position, fires=...)", "p = C['Position'](None)", "rep(p, fires=())"),
    ("replace(Fire, since=2)", "f = C['Fire']((1, 2), 'flame')", "rep(f, since=2)"),
    ("Fire == Fire (equal)", "a = C['Fire']((1, 2), 'flame'); b = C['Fire']((1, 2), 'flame')", "a == b"),
    ("Fire == Fire (different)", "a = C['Fire']((1, 2), 'flame'); b = C['Fire']((1, 3), 'flame')", "a == b"),
    ("Check == Check", "a = C['Check']('K', 7, (1,)); b = C['Check']('K', 7, (1,))", "a == b"),
    ("hash(Fire)", "a = C['Fire']((1, 2), 'flame')", "hash(a)"),
    ("hash(Wreck)", "a = C['Wreck']((1, 2))", "hash(a)"),
    ("Clock < Clock", "a = C['Clock'](1, 2); b = C['Clock'](2, 1)", "a < b"),
    ("repr(Wreck)", "a = C['Wreck']((1, 2))", "repr(a)"),
]


def best(stmt: str, setup: str, *envs: dict[str, Any]) -> list[float]:
    """Best time of one run of *stmt* in each environment, in ns; the runs alternate, so that the shared
    machine's load hits them alike."""
    timers = [timeit.Timer(stmt, setup, globals=env) for env in envs]
    times = [[t.timeit(NUMBER) for t in timers] for _ in range(REPEATS)]
    return [min(ts) / NUMBER * 1e9 for ts in zip(*times, strict=True)]


def main() -> None:
    std = {"C": classes(stdlib, dataclasses.field), "rep": dataclasses.replace}
    ours = {"C": classes(core, values.field), "rep": values.replace}
    print(f"best of {REPEATS} × {NUMBER:,}, alternating; ns per operation")
    print(f"{'':38} {'dataclass':>9} {'value':>7} {'ratio':>6}")
    ratios = []
    for name, setup, stmt in CASES:
        a, b = best(stmt, setup, std, ours)
        ratios.append(b / a)
        print(f"{name:38} {a:9.0f} {b:7.0f} {b / a:6.2f}")
    print(f"{'largest ratio':38} {'':9} {'':7} {max(ratios):6.2f}")


if __name__ == "__main__":
    main()
