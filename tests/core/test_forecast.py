"""The multi-turn fire forecast (B25.151, B25.6–.66) against exact results.

Exact answers come from two places: a closed form for a lone Flame, and an
enumeration of every dice outcome through the core's own scalar functions
(:func:`play_player_turn`: ``rally_phase`` then ``end_of_afph``), merged by
position.  The Monte Carlo must land within 5 standard errors with at least
20,000 trajectories: a wrong rule moves these probabilities by far more.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import ClassVar

import numpy as np
import numpy.typing as npt
import pytest

from asl_vassal_bridge.core import (
    EC,
    BuildingKind,
    Clock,
    Direction,
    Environment,
    Fire,
    FireKind,
    Location,
    Material,
    Phase,
    Position,
    Roll,
    Terrain,
    Wind,
    WindForce,
    Wreck,
)
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.explain import Check
from asl_vassal_bridge.core.fire import (
    SpreadCheck,
    flame_to_blaze,
    pending_blaze_checks,
    pending_spreads,
    spread_check,
    spread_targets,
    spreading_step,
    wreck_targets,
)
from asl_vassal_bridge.core.forecast import (
    _DR_OF_BYTE,
    NEVER,
    WINDS,
    Forecast,
    ForecastProgram,
    _Batch,
    _clusters,
    _collapsed_map,
    _fate_tables,
    _roll_dr,
    _threshold,
    _variant,
    compile_position,
    forecast,
    forecast_reference,
)
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.core.wind import gusts, rally_phase

from .builders import L, building, grid, pos, put

RPH = Clock(3, 1, Phase.RPH)  # player turn 5, at its RPh
TRIALS = 20_000
SIGMAS = 5.0


# ---------------------------------------------------------------------------
# Exact enumeration through the core


Classes = dict[str, list[tuple[int, Fraction]]]


class _Branch:
    """Dice that follow a prefix of choices, then take the first outcome, recording every branch point.

    A roll named in *classes* (by its purpose) branches only over its distinct outcomes — e.g. a
    Spreading Fire DR: spread or not — each with its exact weight; other rolls over every total.
    """

    _DR: ClassVar[list[tuple[int, Fraction]]] = [(t, Fraction(6 - abs(t - 7), 36)) for t in range(2, 13)]
    _SR: ClassVar[list[tuple[int, Fraction]]] = [(t, Fraction(1, 6)) for t in range(1, 7)]

    def __init__(self, prefix: tuple[int, ...], classes: Classes) -> None:
        self.prefix = prefix
        self.classes = classes
        self.taken: list[tuple[int, int, Fraction]] = []

    def _pick(self, options: list[tuple[int, Fraction]]) -> int:
        i = len(self.taken)
        c = self.prefix[i] if i < len(self.prefix) else 0
        self.taken.append((c, len(options), options[c][1]))
        return options[c][0]

    def DR(self, purpose: str) -> Roll:
        total = self._pick(self.classes.get(purpose, self._DR))
        colored = max(1, total - 6)
        return Roll(colored, total - colored)

    def dr(self, purpose: str) -> Roll:
        return Roll(self._pick(self._SR))

    def probability(self) -> Fraction:
        p = Fraction(1)
        for _, _, w in self.taken:
            p *= w
        return p


def _group(check: Check, outcome: Callable[[int], str]) -> list[tuple[int, Fraction]]:
    """DR totals grouped by what they do: one representative total and the group's chance."""
    groups: dict[str, tuple[int, Fraction]] = {}
    for t in range(2, 13):
        k = outcome(t + check.total_drm)
        w = Fraction(6 - abs(t - 7), 36)
        groups[k] = (groups[k][0], groups[k][1] + w) if k in groups else (t, w)
    return list(groups.values())


def _classes(p: Position) -> Classes:
    """Outcome classes of the end-of-AFPh rolls of *p*, from the core's own checks."""
    out: Classes = {}
    for bc in pending_blaze_checks(p):
        c = bc.check
        out[f"Flame to Blaze {p.loc_name(bc.location)} (B25.151)"] = _group(
            c, lambda f, c=c: "blaze" if c.succeeds(f) else ("out" if f <= 2 else "stay"))  # type: ignore[misc]
    for loc, sc in pending_spreads(p).items():
        if sc.check is not None:
            c = sc.check
            out[f"Spreading Fire {p.loc_name(loc)} (B25.6)"] = _group(
                c, lambda f, c=c: "spread" if c.succeeds(f) else "no")  # type: ignore[misc]
    return out


def _key(p: Position) -> tuple[object, ...]:
    now = p.clock.player_turn
    fires = tuple(sorted((f.location, f.kind.value, f.since >= now, f.hampered) for f in p.fires))
    wrecks = tuple(sorted((w.location, w.burning, w.since >= now) for w in p.wrecks))
    terrain = tuple(sorted((h, i.terrain.name) for h, i in p.map.hexes.items() if i.terrain.is_rubble))
    levels = tuple(sorted((b.id, b.hex_levels) for b in p.map.buildings.values()))
    return fires, wrecks, p.environment.wind, p.environment.gusts, terrain, levels, p.clock


States = dict[tuple[object, ...], tuple[Fraction, Position]]


def _step(states: States, step: Callable[[Position, _Branch], Position], classes: bool = False) -> States:
    out: States = {}
    for prob, start in states.values():
        cls = _classes(start) if classes else {}
        stack: list[tuple[int, ...]] = [()]
        while stack:
            prefix = stack.pop()
            dice = _Branch(prefix, cls)
            new = step(start, dice)
            k = _key(new)
            q = prob * dice.probability()
            out[k] = (out[k][0] + q, out[k][1]) if k in out else (q, new)
            choices = [c for c, _, _ in dice.taken]
            for j in range(len(prefix), len(dice.taken)):
                for alt in range(1, dice.taken[j][1]):
                    stack.append((*choices[:j], alt))
    return out


def exact_burning(start: Position, turns: int) -> dict[Location, Fraction]:
    """Exact chance each Location holds a Flame or Blaze after *turns* Player Turns, by the core's rules.

    Each Player Turn as :func:`play_player_turn` plays it — ``rally_phase`` from the RPh, then
    ``flame_to_blaze`` and ``spread_fire`` (``end_of_afph``) — every dice outcome enumerated and
    positions merged after each step.
    """
    assert start.clock.phase is Phase.RPH
    states: States = {_key(start): (Fraction(1), start)}
    for _ in range(turns):
        states = _step(states, lambda s, d: rally_phase(s, d)[0])
        states = {k: (q, replace(p, clock=replace(p.clock, phase=Phase.AFPH))) for k, (q, p) in states.items()}
        states = _step(states, lambda s, d: flame_to_blaze(s, d)[0], classes=True)
        states = _step(states, lambda s, d: spreading_step(s, d)[0], classes=True)
        states = {k: (q, replace(p, clock=p.clock.next_player_turn())) for k, (q, p) in states.items()}
    out: dict[Location, Fraction] = {}
    for prob, p in states.values():
        for loc in {f.location for f in p.fires}:
            out[loc] = out.get(loc, Fraction(0)) + prob
    assert sum(prob for prob, _ in states.values()) == 1
    return out


def assert_within_sigmas(estimate: float, exact: Fraction, trials: int, what: str) -> None:
    p = float(exact)
    se = max((p * (1 - p) / trials) ** 0.5, 1 / trials)
    assert abs(estimate - p) <= SIGMAS * se, f"{what}: forecast {estimate:.4f}, exact {p:.4f} (±{SIGMAS}×{se:.4f})"


# ---------------------------------------------------------------------------
# Positions


def lone_flame(since: int = 4) -> Position:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    return pos(hexes, fires=[Fire(L("C3"), FireKind.FLAME, since)], clock=RPH)


def lone_flame_closed_form(turns: int, eligible_now: bool = True) -> Fraction:
    """Woods Spread # 7, Moderate EC: Blaze on DR ≥ 7 (21/36), out on DR 2 (1/36), else still a Flame."""
    stay, out = Fraction(14, 36), Fraction(1, 36)
    rolls = turns if eligible_now else turns - 1
    return 1 - sum((stay ** (k - 1) * out for k in range(1, rolls + 1)), Fraction(0))


def two_hex_chain() -> Position:
    """A woods Blaze in C3 next to woods in C4 of the same patch (B25.62: directly attached, DR ≥ 7)."""
    hexes = grid("A-E", "1-6")
    put(hexes, Terrain.WOODS, ["C3", "C4"], feature="copse")
    return pos(hexes, fires=[Fire(L("C3"), FireKind.BLAZE, since=3)], clock=RPH)


def village_in_a_breeze() -> Position:
    """Wooden and stone buildings, grain and brush, a Burning Wreck, a Mild Breeze to 3, Dry EC."""
    hexes = grid("A-F", "1-6")
    put(hexes, Terrain.GRAIN, ["D4", "E4"])
    put(hexes, Terrain.BRUSH, ["B2"])
    b1 = building(hexes, "b1", Material.WOODEN, ["C3"], BuildingKind.TWO_STORY)
    b2 = building(hexes, "b2", Material.STONE, ["C4"])
    fires = [Fire(L("C3"), FireKind.BLAZE, since=3), Fire(L("C4"), FireKind.FLAME, since=4)]
    wrecks = [Wreck(L("B3"), True, name="T-34", since=3)]
    put(hexes, Terrain.BRUSH, ["B3"])
    env = Environment(EC.DRY, Wind(WindForce.MILD_BREEZE, Direction(3)))
    return pos(hexes, [b1, b2], fires=fires, env=env, wrecks=wrecks, clock=RPH)


# ---------------------------------------------------------------------------
# Exact checks


def test_enumerator_reproduces_the_lone_flame_closed_form_b25_151() -> None:
    exact = exact_burning(lone_flame(), 3)
    assert exact[L("C3")] == lone_flame_closed_form(3)


@pytest.mark.parametrize("turns", [1, 3, 6])
def test_b25_151_lone_flame_in_woods_no_wind_matches_closed_form(turns: int) -> None:
    fc = forecast(lone_flame(), turns, TRIALS, seed=11)
    assert_within_sigmas(fc.chance(L("C3")), lone_flame_closed_form(turns), TRIALS, f"C3 after {turns} turns")


def test_b25_15_flame_placed_this_turn_does_not_roll_until_the_next() -> None:
    start = lone_flame(since=5)  # appeared in this Player Turn
    fc = forecast(start, 3, TRIALS, seed=12)
    assert_within_sigmas(fc.chance(L("C3")), lone_flame_closed_form(3, eligible_now=False), TRIALS, "C3")


def test_b25_6_two_hex_chain_matches_exact_enumeration() -> None:
    start = two_hex_chain()
    exact = exact_burning(start, 4)
    fc = forecast(start, 4, TRIALS, seed=13)
    assert exact[L("C3")] == 1
    assert_within_sigmas(fc.chance(L("C4")), exact[L("C4")], TRIALS, "C4")
    assert fc.chance(L("C2")) == 0  # open ground never burns (B25.1)


@pytest.mark.parametrize("rubble_path", [True, False])
def test_b25_63_to_66_village_with_wind_wreck_buildings_matches_exact_enumeration(rubble_path: bool) -> None:
    """Collapses handled by rubble edges (a map without Interior Building hexes) or by table rows per set of
    collapsed hexes (the general way) give the same exact results."""
    start = village_in_a_breeze()
    exact = exact_burning(start, 2)
    trials = 40_000
    prog = compile_position(start)
    prog.rubble_path = rubble_path
    fc = forecast(start, 2, trials, seed=14, program=prog)
    for loc, p in exact.items():
        assert_within_sigmas(fc.chance(loc), p, trials, loc.name)
    for loc in fc.locations:
        if loc not in exact:
            assert fc.chance(loc) == 0, loc.name


def test_forecast_agrees_with_the_plain_per_trajectory_loop() -> None:
    start = village_in_a_breeze()
    fast = forecast(start, 3, TRIALS, seed=15)
    slow = forecast_reference(start, 3, 3000, seed=15)
    se = np.sqrt(fast.stderr ** 2 + slow.stderr ** 2) + 1e-3
    assert fast.locations == slow.locations
    assert np.all(np.abs(fast.burning - slow.burning) <= SIGMAS * se)


# ---------------------------------------------------------------------------
# The tables are the core's checks


def _edge_ids(prog: ForecastProgram) -> dict[tuple[Location, Location], int]:
    pairs = zip(prog.e_src, prog.e_tgt, strict=True)
    return {(prog.locations[int(a)], prog.locations[int(b)]): e for e, (a, b) in enumerate(pairs)}


def _all_edges(p: Position) -> list[tuple[Location, Location, Direction | None]]:
    m = p.map
    return [(s, t, d) for s in m.all_locations() if m.is_burnable(s) for t, d in spread_targets(m, s)
            if m.is_burnable(t)]


@pytest.mark.parametrize("make", [village_in_a_breeze, two_hex_chain])
def test_b25_63_b25_64_thresholds_equal_the_core_check_for_all_13_winds(make: Callable[[], Position]) -> None:
    p = make()
    prog = compile_position(p)
    table = prog.t.thr[0]
    edges = _edge_ids(prog)
    checked = 0
    for s, t, d in _all_edges(p):
        for w, wind in enumerate(WINDS):
            pw = replace(p, environment=replace(p.environment, wind=wind))
            assert table[edges[(s, t)], w] == _threshold(spread_check(pw, s, t, d)), (s, t, wind)
            checked += 1
    for k, wreck in enumerate(prog.wrecks):
        for slot, (t, d) in enumerate(wreck_targets(p.map, wreck)):
            for w, wind in enumerate(WINDS):
                pw = replace(p, environment=replace(p.environment, wind=wind))
                assert prog.t.wthr[0, k, slot, w] == _threshold(spread_check(pw, wreck.location, t, d, wreck))
    assert checked > 0


def test_demo_thresholds_equal_the_core_check_for_all_13_winds() -> None:
    from asl_vassal_bridge.scenarios import demo_position

    p = demo_position()
    prog = compile_position(p)
    edges = _edge_ids(prog)
    for s, t, d in _all_edges(p):
        for w, wind in enumerate(WINDS):
            pw = replace(p, environment=replace(p.environment, wind=wind))
            assert prog.t.thr[0, edges[(s, t)], w] == _threshold(spread_check(pw, s, t, d)), (s, t, wind)


@pytest.mark.parametrize("one_by_one", [False, True])
def test_b25_66_collapsed_map_tables_equal_a_fresh_compile(one_by_one: bool) -> None:
    from asl_vassal_bridge.scenarios import demo_position

    p = demo_position()
    prog = compile_position(p)
    order = [L("I5").hex, L("E5").hex, L("I4").hex, L("J4").hex]  # the church hexes touch: clusters merge
    gone = frozenset(order)
    if one_by_one:
        row = 0
        for k in range(1, len(order) + 1):
            row = _variant(prog, frozenset(order[:k]), row)
    else:
        row = _variant(prog, gone)
    fresh = compile_position(replace(p, map=_collapsed_map(p.map, gone), fires=(), wrecks=()))
    fresh_edges = {(fresh.locations[int(a)], fresh.locations[int(b)]): e
                   for e, (a, b) in enumerate(zip(fresh.e_src, fresh.e_tgt, strict=False))}
    for e, (a, b) in enumerate(zip(prog.e_src, prog.e_tgt, strict=False)):
        key = (prog.locations[int(a)], prog.locations[int(b)])
        if key[1].hex in gone:  # nothing spreads into a collapsed hex: a rubble Blaze, its levels gone
            assert not prog.t.valid[row, e] and set(prog.t.thr[row, e]) == {NEVER}, key
        elif key in fresh_edges:
            assert prog.t.valid[row, e], key
            assert list(prog.t.thr[row, e]) == list(fresh.t.thr[0, fresh_edges[key]]), key
        else:
            assert not prog.t.valid[row, e], key
    for i, loc in enumerate(prog.locations):
        if loc in fresh.index:
            j = fresh.index[loc]
            assert (prog.t.need[row, i], prog.t.ext[row, i]) == (fresh.t.need[0, j], fresh.t.ext[0, j]), loc
        else:
            assert not prog.t.exists[row, i], loc


def _flames_after(prog: ForecastProgram, before: Counter[Location], cells: npt.NDArray[np.int64],
                  row: int) -> dict[Location, int]:
    """Flames per Location of trajectory *row*: those of the start and those placed at *cells*."""
    placed = Counter({prog.locations[int(c) % prog.n] for c in cells if int(c) // prog.n == row})
    return dict(before + placed)


def _gust_flames(s: Position, dice: _Branch) -> Position:
    """The core's Gusts at the end of the AFPh, alone: one Flame where they spread (B25.651, B25.6)."""
    direction = s.environment.wind.direction
    assert direction is not None
    chosen, _ = gusts(s, dice, direction)  # type: ignore[arg-type]
    extra = [SpreadCheck(t, src, None, kind == "Burning Wreck", True, "Gusts") for t, (kind, src) in chosen.items()]
    autos = sorted(t for t, sc in pending_spreads(s, direction, extra).items() if sc.automatic)
    now = s.clock.player_turn
    return s.with_(fires=s.fires + tuple(Fire(t, FireKind.FLAME, since=now) for t in autos))


def test_b25_651_gusts_on_the_arrays_match_the_core() -> None:
    hexes = grid("A-H", "1-8")
    put(hexes, Terrain.WOODS, ["C3", "C4", "C5", "C6", "E4", "E5", "E6"], feature="w")
    put(hexes, Terrain.BRUSH, ["G5", "G6"])
    fires = [Fire(L("C3"), FireKind.BLAZE, since=3), Fire(L("E4"), FireKind.BLAZE, since=3),
             Fire(L("C5"), FireKind.FLAME, since=RPH.player_turn)]  # (no Flame→Blaze DR before the Gusts)
    wrecks = [Wreck(L("G5"), True, name="wreck", since=3)]
    for d in Direction:
        env = Environment(EC.MODERATE, Wind(WindForce.MILD_BREEZE, d), gusts=True)
        p = pos(hexes, fires=fires, env=env, wrecks=wrecks, clock=replace(RPH, phase=Phase.AFPH))
        prog = compile_position(p)
        batch = _Batch(prog, 1, np.random.default_rng(0))
        before = Counter(f.location for f in fires if f.is_flame)
        got = _flames_after(prog, before, batch._gusts(0), 0)
        # Every possible Random Selection outcome of the core; the arrays' outcome must be one of them.
        outcomes = _step({_key(p): (Fraction(1), p)}, _gust_flames)
        expected = []
        for _, q in outcomes.values():
            counts: dict[Location, int] = {}
            for f in q.fires:
                if f.is_flame:
                    counts[f.location] = counts.get(f.location, 0) + 1
            expected.append(counts)
        assert got in expected, (d, got, expected)
        many = _Batch(prog, 40, np.random.default_rng(1))  # many trajectories at once, with a No Wind one
        many.wind[::7] = 0
        cells = many._gusts_rows(np.arange(40))
        for r in range(40):
            after = _flames_after(prog, before, cells, r)
            if many.wind[r]:
                assert after in expected, (d, r, after, expected)


# ---------------------------------------------------------------------------
# Reproducibility, parallelism, inputs


def test_same_seed_same_forecast_and_processes_do_not_change_it() -> None:
    start = village_in_a_breeze()
    a = forecast(start, 3, 3000, seed=5)
    b = forecast(start, 3, 3000, seed=5)
    c = forecast(start, 3, 3000, seed=5, processes=2)
    assert np.array_equal(a.burning, b.burning)
    assert np.array_equal(a.burning, c.burning)
    assert not np.array_equal(a.burning, forecast(start, 3, 3000, seed=6).burning)


def _pinned(fc: Forecast) -> tuple[str, int]:
    """A forecast's exact output: a digest of every Location's burning and Blaze counts, and the burning total."""
    rows = [[fc.position.loc_name(loc), round(float(b) * fc.trials), round(float(z) * fc.trials)]
            for loc, b, z in zip(fc.locations, fc.burning, fc.blaze, strict=True)]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16], sum(r[1] for r in rows)


def _gale() -> Position:
    from asl_vassal_bridge.scenarios import demo_position

    demo = demo_position()
    return replace(demo, environment=replace(demo.environment, wind=Wind(WindForce.HEAVY_WINDS, Direction(2)),
                                             gusts=True))


@pytest.mark.parametrize(("make", "turns", "trials", "seed", "pinned"), [
    ("demo", 8, 3000, 31, ("88eea1b05ad5da81", 67863)),
    (village_in_a_breeze, 6, 2500, 7, ("416b68701fe21e19", 15745)),
    (_gale, 5, 2100, 5, ("adee6cdab109360b", 30404)),
])
@pytest.mark.parametrize("rubble_path", [True, False])
def test_a_seed_gives_the_very_same_forecast_as_before(make: Callable[[], Position] | str, turns: int, trials: int,
                                                       seed: int, pinned: tuple[str, int], rubble_path: bool) -> None:
    """The same dice in the same order: a change that only reorganises or speeds up the forecast keeps every count
    (Heavy Winds, Gusts, Collapse with both ways of handling it, a Burning Wreck, a partial last chunk)."""
    from asl_vassal_bridge.scenarios import demo_position

    start = demo_position() if make == "demo" else make()  # type: ignore[operator]
    prog = compile_position(start)
    prog.rubble_path = rubble_path
    assert _pinned(forecast(start, turns, trials, seed=seed, program=prog)) == pinned


def test_partial_forecasts_are_the_forecasts_of_the_first_chunks() -> None:
    """The forecast so far, after each chunk but the last, is exactly the forecast of that many trials (the
    chunks have their own seeds), and the whole forecast is the same as without it."""
    start = village_in_a_breeze()
    seen: list[Forecast] = []
    whole = forecast(start, 3, 2500, seed=8, partial=seen.append)
    assert [f.trials for f in seen] == [1024, 2048]
    for f in seen:
        alone = forecast(start, 3, f.trials, seed=8)
        assert np.array_equal(f.burning, alone.burning) and np.array_equal(f.blaze, alone.blaze)
    assert np.array_equal(whole.burning, forecast(start, 3, 2500, seed=8).burning)
    pooled: list[Forecast] = []
    forecast(start, 3, 2500, seed=8, processes=2, partial=pooled.append)
    assert [f.trials for f in pooled] == [1024, 2048]
    assert np.array_equal(pooled[0].burning, seen[0].burning)


def test_progress_reaches_one_and_stderr_is_binomial() -> None:
    seen: list[float] = []
    fc = forecast(two_hex_chain(), 2, 2500, seed=1, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)
    p = fc.burning
    assert np.allclose(fc.stderr, np.sqrt(p * (1 - p) / 2500))
    rows = fc.to_json()["locations"]
    assert isinstance(rows, list)
    row = next(x for x in rows if x["location"] == "C4")
    assert 0 < row["burning"] < 1 and row["stderr"] > 0


def test_bad_turns_or_trials_are_bad_input() -> None:
    with pytest.raises(BadInput, match="trials"):
        forecast(two_hex_chain(), 2, 0)
    with pytest.raises(BadInput, match="turns"):
        forecast(two_hex_chain(), -1, 10)


# ---------------------------------------------------------------------------
# The fast paths keep the rules' odds


def test_dr_from_one_byte_gives_each_colored_white_pair_the_same_chance() -> None:
    counts = np.bincount(_DR_OF_BYTE[:252], minlength=13)
    assert list(counts[2:]) == [7 * (6 - abs(t - 7)) for t in range(2, 13)]  # 7 bytes per (colored, white) pair
    assert not _DR_OF_BYTE[252:].any()  # the 4 leftover bytes are rolled again
    n = 360_000
    dr = _roll_dr(np.random.default_rng(3), n)
    assert dr.min() == 2 and dr.max() == 12
    for t in range(2, 13):
        p = (6 - abs(t - 7)) / 36
        assert abs(np.count_nonzero(dr == t) / n - p) < 5 * np.sqrt(p * (1 - p) / n), t


def test_b25_66_collapse_clusters_are_the_groups_of_interacting_hexes() -> None:
    from asl_vassal_bridge.core.hexes import Hex

    prog = compile_position(village_in_a_breeze())
    rng = np.random.default_rng(7)
    area = [Hex(q, r) for q in range(9) for r in range(9)]
    prog.wide = frozenset(area[int(i)] for i in rng.choice(len(area), 12, replace=False))  # next to Interior hexes
    prog.near.clear()

    def interact(a: Hex, b: Hex) -> bool:
        return a.distance(b) <= (3 if a in prog.wide or b in prog.wide else 1)  # type: ignore[operator]

    for _ in range(300):
        hexes = frozenset(area[int(i)] for i in rng.choice(len(area), int(rng.integers(1, 14)), replace=False))
        groups = _clusters(prog, hexes)
        assert frozenset().union(*groups) == hexes and sum(map(len, groups)) == len(hexes)
        for g in groups:
            reached, todo = {next(iter(g))}, [next(iter(g))]
            while todo:
                h = todo.pop()
                for x in g - reached:
                    if interact(h, x):
                        reached.add(x)
                        todo.append(x)
            assert reached == g  # connected
        for a in groups:
            for b in groups:
                assert a is b or not any(interact(x, y) for x in a for y in b)  # apart
        seeds = frozenset(h for h in hexes if rng.random() < 0.3)
        assert set(_clusters(prog, hexes, seeds)) == {g for g in groups if g & seeds}


def test_fresh_blaze_lists_match_the_state_through_collapses_and_gusts() -> None:
    prog = compile_position(village_in_a_breeze())
    batch = _Batch(prog, 3000, np.random.default_rng(11))
    for _ in range(6):
        batch.rally_phase()
        batch.flame_to_blaze()
        batch.spread()
        fresh = np.flatnonzero(batch.blaze & batch.fresh)
        batch.end_player_turn()
        assert np.array_equal(np.unique(batch.pending), fresh)  # they spread from the next Player Turn (B25.6)
        assert not (batch.blaze & (batch.fb != batch.fb.max())).any()  # a Blaze holds no pending Flame fate
    assert batch.rubble.any() and batch.gone.any()  # some trajectories had a Collapse (B25.66)


def test_b25_151_two_flames_in_one_location_match_exact_enumeration() -> None:
    two = (Fire(L("C3"), FireKind.FLAME, since=3), Fire(L("C3"), FireKind.FLAME, since=3))
    start = replace(lone_flame(), fires=two)
    exact = exact_burning(start, 3)
    fc = forecast(start, 3, TRIALS, seed=21)
    assert exact[L("C3")] > lone_flame_closed_form(3)  # two Flames: more chances to blaze (B25.151)
    assert_within_sigmas(fc.chance(L("C3")), exact[L("C3")], TRIALS, "C3 with two Flames")



@pytest.mark.parametrize(("need", "ext"), [(6, 1), (8, 2), (9, 2), (2, 0), (13, 0), (13, 2), (12, 12)])
def test_b25_151_flame_fates_keep_the_exact_chances(need: int, ext: int) -> None:
    """Each Flame's fate — Blaze or out after k AFPhs — is drawn from a 16-bit table with the straddling
    intervals redrawn in floating point; its frequencies match s^k p_b and s^k p_o."""
    prog = compile_position(lone_flame())
    prog.fate_class, prog.fate_table, prog.fate_pb, prog.fate_log = _fate_tables(
        np.array([need], np.int8), np.array([ext], np.int8))
    trials = 200_000
    batch = _Batch(prog, trials, np.random.default_rng(need * 100 + ext))
    prog.cell_fate = None
    wait, blazes = batch._fates(np.zeros(trials, np.int64))
    pb = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need), 36)
    po = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= min(ext, need - 1)), 36)
    stay = 1 - pb - po
    for k in range(4):
        for fate, p in ((True, stay ** k * pb), (False, stay ** k * po)):
            got = np.count_nonzero((wait == k) & (blazes == fate)) / trials
            assert_within_sigmas(got, p, trials, f"need {need}, ext {ext}: {'Blaze' if fate else 'out'} after {k}")
    if pb + po == 0:
        assert not blazes.any() and (wait >= 1000).all()  # burns on for ever
    assert (prog.fate_table == -1).any() or pb + po in (0, 1)  # straddling intervals are redrawn


@pytest.mark.parametrize("make", [village_in_a_breeze, "demo"])
def test_b25_66_rubble_edges_and_collapsed_map_rows_give_identical_forecasts(
        make: Callable[[], Position] | str) -> None:
    """The two ways of handling Collapse draw the same dice in the same order: on a map without Interior
    Building hexes they must give the very same forecast, Location by Location."""
    from asl_vassal_bridge.scenarios import demo_position

    start = demo_position() if make == "demo" else make()  # type: ignore[operator]
    got = []
    for rubble_path in (True, False):
        prog = compile_position(start)
        assert prog.rubble_path  # no Interior Building hex here
        prog.rubble_path = rubble_path
        got.append(forecast(start, 8, 3000, seed=31, program=prog))
        if not rubble_path:
            assert len(prog.variant_sets) > 2  # trajectories had Collapses, of several hexes (B25.66)
    assert np.array_equal(got[0].burning, got[1].burning)
    assert np.array_equal(got[0].blaze, got[1].blaze)


@pytest.mark.parametrize("rubble_path", [True, False])
def test_b25_66_an_upper_collapse_leaves_the_lower_levels_in_the_forecast_too(rubble_path: bool) -> None:
    """Only the collapsed Location and the levels above go (B25.66): the ground below never burns from it."""
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3"], BuildingKind.MULTI_STORY)
    start = pos(hexes, [b], fires=[Fire(L("C3.2"), FireKind.BLAZE, since=3)], clock=RPH)
    exact = exact_burning(start, 1)
    assert L("C3") not in exact and exact[L("C3.1")] == Fraction(35, 36) * Fraction(1, 6)  # Original ≥ 10 (−1)
    prog = compile_position(start)
    prog.rubble_path = rubble_path
    fc = forecast(start, 1, TRIALS, seed=21, program=prog)
    assert fc.chance(L("C3")) == 0
    assert_within_sigmas(fc.chance(L("C3.1")), exact[L("C3.1")], TRIALS, "C3.1")
    assert_within_sigmas(fc.chance(L("C3.2")), exact[L("C3.2")], TRIALS, "C3.2")


@pytest.mark.parametrize("rubble_path", [True, False])
@pytest.mark.parametrize("kind", [BuildingKind.TWO_STORY, BuildingKind.FACTORY])
def test_b23_86_b25_66_a_chosen_rooftop_blaze_rubbles_the_location_beneath_in_the_forecast_too(
        kind: BuildingKind, rubble_path: bool) -> None:
    """A rooftop never becomes rubble: a rooftop Blaze chosen for Collapse brings down the Location beneath
    it (a two-story house's level 1; a Factory's ground, so the hex is burning rubble), and the forecast plays
    it as the core does (B23.86, B25.66)."""
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.WOODEN, ["C3", "C4"], kind, rooftop=True)
    start = pos(hexes, [b], clock=RPH)
    roof = start.map.parse_location("C3.roof")
    start = start.add_fire(Fire(roof, FireKind.BLAZE, since=3))
    exact = exact_burning(start, 1)
    prog = compile_position(start)
    prog.rubble_path = rubble_path
    fc = forecast(start, 1, TRIALS, seed=23, program=prog)
    for loc in start.map.locations(L("C3").hex) + start.map.locations(L("C4").hex):
        assert_within_sigmas(fc.chance(loc), exact.get(loc, Fraction(0)), TRIALS, start.loc_name(loc))
    if kind is BuildingKind.FACTORY:
        # the Collapse's burning rubble (DR 12), else a spread down from the rooftop (Original ≥ 9, −1 lower)
        assert exact[L("C3")] == Fraction(1, 36) + Fraction(35, 36) * Fraction(10, 36)
    else:
        assert exact[roof] == Fraction(35, 36)  # gone with the level beneath it on a DR of 12


def test_b25_651_gusts_already_in_the_position_spread_in_the_forecast() -> None:
    hexes = grid("A-E", "1-7")
    put(hexes, Terrain.WOODS, ["C3", "C4", "C5", "C2"])
    gusting = pos(hexes, fires=[Fire(L("C3"), FireKind.BLAZE, since=3)],
                  env=Environment(wind=Wind(WindForce.MILD_BREEZE, Direction(4)), gusts=True),
                  clock=Clock(3, 1, Phase.PFPH))
    fc = forecast(gusting, 1, 2000, seed=22)
    assert fc.chance(L("C4")) == 1 and fc.chance(L("C5")) == 1  # downwind, and the only two-hex candidate
    assert 0 < fc.chance(L("C2")) < 1
    calm = forecast(gusting.with_(environment=Environment(wind=Wind(WindForce.MILD_BREEZE, Direction(4)))), 1,
                    2000, seed=22)
    assert calm.chance(L("C4")) < 1 and calm.chance(L("C5")) == 0


def test_b25_66_rubble_edges_kept_from_an_earlier_forecast_on_the_same_map_give_the_same_forecast() -> None:
    """The rubble edges are kept per map and environment: a forecast compiled after another one on the same
    map (other fires, another clock) reuses them and must equal a forecast made from scratch."""
    from asl_vassal_bridge.core import forecast as fmod
    from asl_vassal_bridge.core.dice import SeededDice
    from asl_vassal_bridge.scenarios import demo_position

    start = demo_position()
    later = fmod.play_player_turn(start, SeededDice(3))[0]
    fmod._RUBBLE_CACHE.clear()
    cold = forecast(later, 6, 2000, seed=17)
    fmod._RUBBLE_CACHE.clear()
    forecast(start, 6, 2000, seed=4)  # makes rubble edges for the map
    assert fmod._RUBBLE_CACHE and any(v for _, made in fmod._RUBBLE_CACHE.values() for v in made.values())
    warm = forecast(later, 6, 2000, seed=17)
    assert np.array_equal(cold.burning, warm.burning)
    assert np.array_equal(cold.blaze, warm.blaze)
