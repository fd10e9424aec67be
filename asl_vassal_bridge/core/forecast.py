"""Multi-turn fire forecasts: the chance each Location is burning after N Player Turns.

A Monte Carlo over the full fire rules — the RPh Wind Change with Heavy
Winds and Collapse (B25.63–.66), then the end-of-AFPh Flame→Blaze and
Spreading Fire DRs with the Gusts of a Gusting Player Turn (B25.151,
B25.6–.651) — for every Player Turn.

The rules stay in one place: before simulating, :func:`compile_position`
asks the core's own check functions (:func:`~.fire.flame_to_blaze_check`,
:func:`~.fire.spread_check`, :func:`~.fire.wind_reaches_spread`,
:func:`~.environment.wind_direction_drm`, :func:`~.fire.spread_targets`)
for the Original DR each roll needs, per Location, per source and per
wind; trajectories are then numpy arrays rolled together, 1,024 at a time.

- Spreading Fire (B25.6): each target's best Original DR needed is kept
  per trajectory; a new Blaze folds its edges in once, a trajectory whose
  wind or map changed folds all its Blazes again.
- Flame→Blaze (B25.151): a Flame's DR has the same odds every AFPh, so its
  fate (Blaze or out, after k AFPhs) is drawn once, when it is placed, from
  a 16-bit table per kind of Location (:func:`_fate_tables`; the few draws
  that straddle two fates are finished in floating point, so every fate
  keeps its exact chance).
- Gusts (B25.651) are a per-trajectory state set by a Wind Change DR of 12
  (or already in the position); at the end of the AFPh their spreads are
  automatic ones of the Spreading Fire step (one Flame per Location).
- Collapse (B25.66): a chosen upper Location and the levels above it are
  marked gone; a chosen ground level takes its hex, whose rubble Blaze burns
  on from when it appeared.  The core's :func:`~.wind.collapse` makes the collapsed
  map.  Without Interior Building hexes a spread check reads only its two
  hexes, so a collapsed hex's ground spreads along "rubble edges" made once
  per hex (:func:`_rubble_edges`); with them, each set of collapsed hexes
  gets its own table row (:func:`_variants`).  A test checks both ways give
  the very same forecast.
- The rare branches call the core's scalar functions for the trajectories
  they touch: a Wind Change (:func:`~.wind.apply_wind_change`), with dice
  drawn from the same seeded numpy generator.  Gusts (B25.651) and the
  Collapse's Random Selection are rolled on the arrays;
  ``tests/core/test_forecast.py`` checks them against :func:`~.wind.gusts`
  and exact enumerations.

:func:`play_player_turn` is the scalar step (RPh wind, end-of-AFPh
upkeep) that :func:`forecast_reference` loops over per trajectory, for
benchmarks and tests.

>>> from .hexes import Hex
>>> from .position import Fire, FireKind, GameMap, HexInfo, Location, Position
>>> from .terrain import Terrain
>>> woods = Location(Hex.parse("A1"))
>>> pos = Position(GameMap.from_hexes({woods.hex: HexInfo(Terrain.WOODS)}), fires=(Fire(woods, FireKind.FLAME),))
>>> fc = forecast(pos, turns=1, trials=2000, seed=1)
>>> round(fc.chance(woods), 2)   # extinguished only on an Original DR 2 (B25.151)
0.97
"""

from __future__ import annotations

import os
from collections import ChainMap
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from .dice import Roll, SeededDice, check_seed
from .environment import Wind, WindForce, wind_direction_drm
from .errors import BadInput
from .explain import Report
from .fire import (
    SpreadCheck,
    end_of_afph,
    flame_to_blaze_check,
    spread_check,
    spread_targets,
    wind_reaches_spread,
    wreck_targets,
)
from .hexes import Direction, Hex
from .position import Fire, FireKind, GameMap, Location, Phase, Position, Wreck
from .terrain import BuildingKind
from .values import replace
from .wind import apply_wind_change, collapse, collapse_falls, rally_phase

__all__ = [
    "MAX_TRIALS",
    "MAX_TURNS",
    "Forecast",
    "ForecastProgram",
    "compile_position",
    "forecast",
    "forecast_reference",
    "play_player_turn",
]

#: The 13 wind states a trajectory can be in: No Wind, Mild Breeze to 1–6, Heavy Winds to 1–6.
WINDS: tuple[Wind, ...] = (Wind(), *(Wind(WindForce.MILD_BREEZE, d) for d in Direction),
                          *(Wind(WindForce.HEAVY_WINDS, d) for d in Direction))
_N_WINDS = len(WINDS)
NEVER = 13  # an Original DR no roll reaches
_FAR = 16000  # Player Turns: a Flame burning on past the forecast
#: A Location's Flames in one int16 (:attr:`_Batch.flame`): _BLAZE_AT − k "a Flame becomes a Blaze in AFPh k",
#: k "the last Flame goes out in AFPh k" (k ≤ _FAR + 1 < _BLAZE_AT − _FAR: the two never meet), _NO_FLAME none.
_BLAZE_AT = 32767
_NO_FLAME = -1
ALWAYS = 2  # an Original DR every roll reaches (automatic spread, B25.63)

#: DR total for each of the 36 equally likely (colored, white) pairs.
_DR_OF = np.array([a + b for a in range(1, 7) for b in range(1, 7)], dtype=np.int8)

I8 = npt.NDArray[np.int8]
_T = TypeVar("_T", bound=np.generic)
I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]
B = npt.NDArray[np.bool_]
F64 = npt.NDArray[np.float64]


def wind_index(wind: Wind) -> int:
    """Index of *wind* in :data:`WINDS`."""
    if wind.force is WindForce.NO_WIND or wind.direction is None:
        return 0
    return int(wind.direction) + (0 if wind.force is WindForce.MILD_BREEZE else 6)


# ---------------------------------------------------------------------------
# The scalar step


def play_player_turn(pos: Position, dice: SeededDice | object) -> tuple[Position, Report]:
    """Play one Player Turn's fire upkeep: the RPh Wind Change (B25.65) and the end-of-AFPh upkeep (B25.151, B25.6).

    From the RPh both are rolled; from the PFPh…AFPh only the upkeep; a
    position past its AFPh first moves to the next Player Turn's RPh.  The
    clock is left at the RPh of the following Player Turn.
    """
    order = list(Phase)
    events = []
    if order.index(pos.clock.phase) > order.index(Phase.AFPH):
        pos = replace(pos, clock=pos.clock.next_player_turn())
    title = f"Player Turn {pos.clock.turn}.{pos.clock.half}"
    if pos.clock.phase is Phase.RPH:
        pos, r1 = rally_phase(pos, dice)  # type: ignore[arg-type]
        events += list(r1.events)
    pos = replace(pos, clock=replace(pos.clock, phase=Phase.AFPH))
    pos, r2 = end_of_afph(pos, dice)  # type: ignore[arg-type]
    events += list(r2.events)
    pos = replace(pos, clock=pos.clock.next_player_turn())
    return pos, Report(f"{title}: RPh wind and end-of-AFPh fire upkeep", tuple(events))


def _start(pos: Position) -> Position:
    """The position a forecast starts from: past its AFPh, the next Player Turn's RPh."""
    order = list(Phase)
    if order.index(pos.clock.phase) > order.index(Phase.AFPH):
        return replace(pos, clock=pos.clock.next_player_turn())
    return pos


# ---------------------------------------------------------------------------
# Compiling a Position into tables


def _threshold(sc: SpreadCheck | None) -> int:
    if sc is None:
        return NEVER
    if sc.automatic:
        return ALWAYS
    assert sc.check is not None
    return max(ALWAYS, min(NEVER, sc.check.needed_original))


#: ``wind_direction_drm(w, d)`` for every pair of directions (B25.64).
_WDRM = {(w, d): wind_direction_drm(w, d) for w in Direction for d in Direction}


class _Probes(Sequence[Position]):
    """*pos* under each of the 13 wind states (:data:`WINDS`), each made when first asked for."""

    def __init__(self, pos: Position) -> None:
        self._pos = pos
        self._made: dict[int, Position] = {}

    def __len__(self) -> int:
        return _N_WINDS

    def __getitem__(self, i: int) -> Position:  # type: ignore[override]
        got = self._made.get(i)
        if got is None:
            env = self._pos.environment
            got = self._made[i] = replace(self._pos, environment=replace(env, wind=WINDS[i]))
        return got


def _probes(pos: Position) -> _Probes:
    """*pos* under each of the 13 wind states."""
    return _Probes(pos)


@cache
def _wind_thresholds(need: int, d: Direction) -> tuple[int, ...]:
    """The Original DR needed, under a Mild Breeze to 1–6 then Heavy Winds to 1–6, for a spread in direction
    *d* that the wind reaches and that needs *need* with no wind: the Mild Breeze's DRM (B25.64), Heavy
    Winds' automatic downwind and downwind-flank spread and no other (B25.63)."""
    return (tuple(max(ALWAYS, min(NEVER, need - _WDRM[w, d])) for w in Direction)
            + tuple(ALWAYS if _WDRM[w, d] >= 1 else NEVER for w in Direction))


def _edge_thresholds(probes: Sequence[Position], src: Location, tgt: Location, d: Direction | None,
                     wreck: Wreck | None = None) -> list[int]:
    """The Original DR needed to spread from *src* to *tgt* in each of the 13 wind states.

    *probes* is the position under each wind (:func:`_probes`).  The core's
    check with no wind gives the base DRMs, :func:`~.fire.wind_reaches_spread`
    whether the wind counts for this spread; the wind states follow from
    :func:`wind_direction_drm` (B25.64) and Heavy Winds' downwind and
    downwind-flank spread (B25.63).  A Burning Wreck's spread (its own hex has
    a Heavy Winds case of its own) asks the core under a Mild Breeze and Heavy
    Winds as well.  The tests check this against the core for every wind.
    """
    base = spread_check(probes[0], src, tgt, d, wreck)
    first = _threshold(base)
    if wreck is None:
        if base is None or base.check is None or not wind_reaches_spread(probes[0].map, src, tgt, d):
            return [first] * _N_WINDS
        assert d is not None
        return [first, *_wind_thresholds(base.check.needed_original, d)]
    along = int(d) if d is not None else 1
    if d is not None and base is not None and base.check is not None:
        mild = spread_check(probes[along], src, tgt, d, wreck)
        if mild is not None and mild.check is not None and mild.check.total_drm - base.check.total_drm == _WDRM[d, d]:
            return [first, *_wind_thresholds(base.check.needed_original, d)]
    heavy = spread_check(probes[6 + along], src, tgt, d, wreck)
    return [first] * 7 + [_threshold(heavy)] * 6


#: Columns of a row of :attr:`_Tables.edge`: the Original DR per wind state, then whether the edge exists.
_EDGE_COLS = _N_WINDS + 1


class _Tables:
    """Per-map tables, stacked: row 0 is the original map, later rows maps with collapsed hexes (B25.66).

    Two arrays hold a map's row, so that making one is a few copies: ``edge`` (per spread edge, the
    Original DR needed in each wind state and whether the edge exists) and ``loc`` (per Location, the
    Flame→Blaze need and extinction numbers, building and exists flags); ``thr``, ``valid``, ``need``,
    ``ext``, ``building`` and ``exists`` are views of them.
    """

    def __init__(self, thr: I8, need: I8, ext: I8, building: B, exists: B, wthr: I8) -> None:
        e, n = len(thr), len(need)
        cap = 64
        self.count = 1
        self.edge = np.zeros((cap, e, _EDGE_COLS), np.int8)
        self.loc = np.zeros((cap, 4, n), np.int8)
        self.wthr = np.zeros((cap, *wthr.shape), np.int8)  # Burning Wreck spread thresholds
        self.edge[0, :, :_N_WINDS], self.edge[0, :, _N_WINDS] = thr, 1
        self.loc[0] = need, ext, building, exists
        self.wthr[0] = wthr

    @property
    def thr(self) -> I8:
        """(rows, E, 13): the Original DR to spread along each edge in each wind state."""
        return self.edge[..., :_N_WINDS]  # type: ignore[no-any-return]

    @property
    def valid(self) -> B:
        """(rows, E): the edge exists on this map."""
        return self.edge[..., _N_WINDS].view(bool)  # type: ignore[no-any-return]

    @property
    def need(self) -> I8:
        """(rows, L): Original DR for Flame→Blaze (B25.151)."""
        return self.loc[:, 0]  # type: ignore[no-any-return]

    @property
    def ext(self) -> I8:
        """(rows, L): Original DR at or below which a Flame that did not blaze goes out (B25.151)."""
        return self.loc[:, 1]  # type: ignore[no-any-return]

    @property
    def building(self) -> B:
        """(rows, L): a building Location (Collapse candidates, B25.66)."""
        return self.loc[:, 2].view(bool)  # type: ignore[no-any-return]

    @property
    def exists(self) -> B:
        """(rows, L): the Location exists on this map."""
        return self.loc[:, 3].view(bool)  # type: ignore[no-any-return]

    def reserve(self) -> int:
        """The index of a new row (its content to be filled by the caller)."""
        if self.count == len(self.edge):
            for name in ("edge", "loc", "wthr"):
                arr = getattr(self, name)
                grown = np.empty((2 * len(arr), *arr.shape[1:]), arr.dtype)
                grown[: len(arr)] = arr
                setattr(self, name, grown)
        self.count += 1
        return self.count - 1


@dataclass
class _Delta:
    """How collapsing a cluster of nearby building hexes changes the tables: rows of ``edge`` at *edges*,
    columns of ``loc`` at *locs*, and Burning Wreck rows."""

    edges: I64
    edge: I8  # (k, 14)
    locs: I64
    loc: I8  # (4, m)
    wrecks: list[tuple[int, int, list[int]]]


@dataclass
class ForecastProgram:
    """A Position compiled for the forecast: Locations, spread edges, thresholds, and the start state."""

    position: Position
    locations: tuple[Location, ...]
    index: dict[Location, int]
    e_src: I64
    e_tgt: I64
    e_dir: I64  # 1–6, 0 for vertical (within a building hex)
    e_start: I64  # (L+1,) CSR by source
    e_deg: I16 = field(init=False)  # (L,) edges per source
    two_hex: I64  # (7, L) ground Location two hexes downwind per direction, −1 if none
    locs_of_hex: dict[Hex, list[int]]
    wrecks: tuple[Wreck, ...]
    w_loc: I64  # (W,) the wreck's Location index or −1
    w_own: I64  # (W,) ground Location of the wreck's hex, −1 if not burnable
    w_tgt: I64  # (W, 2) spread targets
    w_down: I64  # (W, 7) ground Location one hex downwind per direction
    w_since: I64
    # Per Location: its hex's number, the first Location of its hex and the one after its last (Locations
    # are sorted: a hex's are together, lowest first), and whether it is a ground level (B25.66).
    loc_hex: I64 = field(default_factory=lambda: np.zeros(0, np.int64))
    hex_first: I64 = field(default_factory=lambda: np.zeros(0, np.int64))
    hex_end: I64 = field(default_factory=lambda: np.zeros(0, np.int64))
    ground: B = field(default_factory=lambda: np.zeros(0, bool))
    falls: I64 = field(default_factory=lambda: np.zeros(0, np.int64))  # the Location a Collapse there rubbles
    w_hex: I64 = field(default_factory=lambda: np.zeros(0, np.int64))  # (W,) the wreck's hex's number or −1
    tables: _Tables | None = None
    variant_of: dict[frozenset[Hex], int] = field(default_factory=dict)
    variant_sets: list[frozenset[Hex]] = field(default_factory=list)
    variant_maps: dict[int, GameMap] = field(default_factory=dict)
    deltas: dict[frozenset[Hex], _Delta] = field(default_factory=dict)
    gust_edges: list[I64] = field(default_factory=list)
    wide: frozenset[Hex] | None = None  # hexes next to an Interior Building hex
    edge_hex_src: list[Hex] = field(default_factory=list)
    edge_hex_tgt: list[Hex] = field(default_factory=list)
    edges_of_hex: dict[Hex, set[int]] = field(default_factory=dict)
    near: dict[Hex, frozenset[Hex]] = field(default_factory=dict)  # :func:`_near`, cached
    fate_class: I64 = field(default_factory=lambda: np.zeros(0, np.int64))  # (L,) row of fate_table, × 65536
    fate_table: I8 = field(default_factory=lambda: np.zeros(0, np.int8))  # :func:`_fate_tables`
    fate_pb: F64 = field(default_factory=lambda: np.zeros(0))  # (kinds,) P(Blaze) per DR
    fate_log: F64 = field(default_factory=lambda: np.zeros(0))  # (kinds,) log P(neither) per DR
    # Collapse without table rows (a map with no Interior Building hex): a collapsed hex's ground
    # Location spreads along its own "rubble" edges, made when the hex first collapses.
    rubble_path: bool = False
    r_start: I64 = field(default_factory=lambda: np.zeros(0, np.int64))  # (L,) first rubble edge per ground
    r_deg: I16 = field(default_factory=lambda: np.zeros(0, np.int16))  # (L,) rubble edges per ground
    r_tgt: I64 = field(default_factory=lambda: np.zeros(0, np.int64))
    r_dir: I64 = field(default_factory=lambda: np.zeros(0, np.int64))
    r_edge: I8 = field(default_factory=lambda: np.zeros((0, _EDGE_COLS), np.int8))  # like _Tables.edge
    r_src: I64 = field(default_factory=lambda: np.zeros(0, np.int64))
    rubble_done: set[Hex] = field(default_factory=set)
    # Each hex's rubble edges once asked for (None: its ground is not Burnable), shared by the programs of
    # the same map and environment (see :data:`_RUBBLE_CACHE`).
    rubble_made: dict[Hex, _RubbleEdges | None] = field(default_factory=dict)
    _start_fires: tuple[I64, I64, I64, I64] | None = field(default=None, init=False, repr=False)

    @property
    def n(self) -> int:
        return len(self.locations)

    def start_fires(self) -> tuple[I64, I64, I64, I64]:
        """The position's fires, as Locations: Blazes, Blazes that appeared this Player Turn (they spread from
        the next, B25.6), Flames that may become Blazes this AFPh, and Flames that first roll in the next
        (placed this Player Turn, B25.15) — one entry per Flame."""
        if self._start_fires is None:
            pos = self.position
            now = pos.clock.player_turn
            rph = pos.clock.phase is Phase.RPH
            blazes = {self.index[f.location] for f in pos.fires if f.is_blaze}
            fresh = {self.index[f.location] for f in pos.fires if f.is_blaze and f.since >= now}
            eligible: list[int] = []
            later: list[int] = []
            for f in pos.fires:
                i = self.index[f.location]
                if not f.is_blaze and i not in blazes:
                    if f.since < now and not (f.hampered and not rph):
                        eligible.append(i)
                    else:
                        later.append(i)
            self._start_fires = (np.array(sorted(blazes), np.int64), np.array(sorted(fresh), np.int64),
                                 np.array(eligible, np.int64), np.array(later, np.int64))
        return self._start_fires

    @property
    def t(self) -> _Tables:
        assert self.tables is not None
        return self.tables


def _location_tables(pos: Position, locs: Sequence[Location]) -> tuple[I8, I8, B, B]:
    """Flame→Blaze thresholds per Location (from :func:`flame_to_blaze_check`)."""
    m = pos.map
    now = pos.clock.player_turn
    need = np.full(len(locs), NEVER, np.int8)
    ext = np.zeros(len(locs), np.int8)
    building = np.zeros(len(locs), bool)
    exists = np.zeros(len(locs), bool)
    for i, loc in enumerate(locs):
        if loc.hex not in m.hexes or loc not in m.locations(loc.hex):
            continue
        exists[i] = True
        b = m.building(loc.hex)
        building[i] = b is not None and b.kind is not BuildingKind.HUT  # Collapse candidates (B25.66)
        bc = flame_to_blaze_check(pos, Fire(loc, FireKind.FLAME, since=now - 1))
        if bc is not None:
            need[i] = max(ALWAYS, min(NEVER, bc.check.needed_original))
            ext[i] = max(0, min(12, 2 - bc.check.total_drm))
    return need, ext, building, exists


#: P(DR ≥ k) for k = 0…13 (one (colored, white) pair of 36 each).
_P_AT_LEAST = np.array([np.count_nonzero(k <= _DR_OF) / 36 for k in range(14)])


#: Player Turns a fate table tells apart; later fates (rare) are drawn in floating point.
_FATE_TURNS = 20
_FATE_BITS = 16


def _fate_tables(need: I8, ext: I8) -> tuple[I64, I8, F64, F64]:
    """What a Flame's Flame→Blaze DRs do (B25.151), as a table to draw from with one 16-bit number.

    Each AFPh a Flame becomes a Blaze with p_b = P(DR ≥ need), goes out with p_o = P(DR ≤ ext < need),
    else burns on (s = 1 − p_b − p_o), the same every AFPh: its fate is "Blaze (or out) after k more
    AFPhs" with chance s^k p_b (s^k p_o).  Ordering the fates (k, Blaze), (k, out), k = 0, 1, …, a
    uniform v in [0, 1) picks one by its cumulative chances.  Per Location kind (need, ext), the table
    gives, for each of the 2^16 intervals [u, u + 1) / 2^16, the fate 2k (Blaze) or 2k + 1 (out) that
    the whole interval falls in, or −1 when it straddles two fates or k ≥ :data:`_FATE_TURNS`: those
    draws place v within the interval and invert in floating point (:meth:`_Batch._fates`), so every
    fate keeps its exact chance.  Returns each Location's row offset, the table, and p_b and log s
    per kind.
    """
    pairs = np.stack([need.astype(np.int64), np.minimum(ext.astype(np.int64), need.astype(np.int64) - 1)], axis=1)
    kinds, of = np.unique(pairs, axis=0, return_inverse=True)
    pb = _P_AT_LEAST[kinds[:, 0]]
    po = 1 - _P_AT_LEAST[kinds[:, 1] + 1]
    stay = 1 - pb - po
    size = 1 << _FATE_BITS
    lo = np.arange(size) / size
    hi = (np.arange(size) + 1) / size
    table = np.empty((len(kinds), size), np.int8)
    for c in range(len(kinds)):
        ends = []
        reached = 0.0
        for k in range(_FATE_TURNS):
            ends += [reached + stay[c] ** k * pb[c], reached + stay[c] ** k * (pb[c] + po[c])]
            reached = ends[-1]
        bounds = np.array([0.0, *ends])
        # The fate holding each interval's start, (bounds ≤ lo) − 1, and its end, (bounds < hi) − 1, counted
        # from where each bound falls among the sorted lo and hi (the same comparisons, 41 searches, not 2^16).
        first = np.cumsum(np.bincount(np.searchsorted(lo, bounds, side="left"), minlength=size + 1))[:size] - 1
        last = np.cumsum(np.bincount(np.searchsorted(hi, bounds, side="right"), minlength=size + 1))[:size] - 1
        inside = (first == last) & (first < 2 * _FATE_TURNS) & (hi < bounds[-1])
        table[c] = np.where(inside, first, -1)
    with np.errstate(divide="ignore"):
        log = np.log(stay)
    return np.asarray(of, np.int64).reshape(-1) * size, table, pb, log


_EdgeData = tuple[tuple[Location, ...], list[int], list[int], list[int], list[list[int]], list[int], list[int]]
#: :func:`_map_edges` results of the last few maps, by (map identity, environment but the wind, extra Locations).
#: A map and its environment give the same edges whatever the fires and the clock, so a forecast after a
#: step, a click or an undo compiles without asking the core again (the map is kept alive with its entry).
_EDGE_CACHE: dict[tuple[int, object, frozenset[Location]], tuple[GameMap, _EdgeData]] = {}
_EDGE_CACHE_SIZE = 4
#: The same for the per-Location Flame→Blaze tables and their fate tables (read only once made).
_LocData = tuple[I8, I8, B, B, I64, I8, F64, F64]
_LOC_CACHE: dict[tuple[int, object, frozenset[Location]], tuple[GameMap, _LocData]] = {}


#: :func:`_rubble_edges` results per hex, by the same key: they too hold whatever the fires and the clock.
_RubbleEdges = list[tuple[int, int, list[int]]]  # (target Location, direction, thresholds + exists flag)
_RUBBLE_CACHE: dict[tuple[int, object, frozenset[Location]], tuple[GameMap, dict[Hex, _RubbleEdges | None]]] = {}

_BURNABLE: dict[int, tuple[GameMap, frozenset[Location]]] = {}


def _burnable(m: GameMap) -> frozenset[Location]:
    """The Burnable Locations of *m* (kept for the last few maps)."""
    hit = _BURNABLE.get(id(m))
    if hit is None or hit[0] is not m:
        if len(_BURNABLE) >= _EDGE_CACHE_SIZE:
            del _BURNABLE[next(iter(_BURNABLE))]
        hit = _BURNABLE[id(m)] = (m, frozenset(loc for loc in m.all_locations() if m.is_burnable(loc)))
    return hit[1]


def _cache_key(pos: Position, extra: frozenset[Location]) -> tuple[int, object, frozenset[Location]]:
    """What the compiled tables depend on: the map, the environment but the wind and the Gusts (the batch reads
    those from the position), and the Locations with a fire or wreck that are not Burnable (usually none, so the
    key stays the same from one step to the next)."""
    return id(pos.map), replace(pos.environment, wind=Wind(), gusts=False), extra - _burnable(pos.map)


def _map_edges(pos: Position, extra: frozenset[Location]) -> _EdgeData:
    """The Locations, spread edges (source, target, direction, Original DR per wind state, CSR starts) and
    the two-hexes-downwind table of *pos*'s map under its environment (B25.6–.64)."""
    m = pos.map
    key = _cache_key(pos, extra)
    hit = _EDGE_CACHE.get(key)
    if hit is not None and hit[0] is m:
        return hit[1]
    burnable = _burnable(m)
    locs = tuple(sorted(burnable | extra))
    index = {loc: i for i, loc in enumerate(locs)}
    src: list[int] = []
    tgt: list[int] = []
    dirs: list[int] = []
    thr: list[list[int]] = []
    starts = [0]
    probes = _probes(pos)
    for loc in locs:
        if loc in burnable:
            for target, d in spread_targets(m, loc):
                j = index.get(target)
                if j is None or target not in burnable:
                    continue
                src.append(index[loc])
                tgt.append(j)
                dirs.append(int(d) if d is not None else 0)
                thr.append(_edge_thresholds(probes, loc, target, d))
        starts.append(len(src))
    n = len(locs)
    two = [-1] * (7 * n)
    ground = {(loc.hex.q, loc.hex.r): i for i, loc in enumerate(locs) if loc == Location(loc.hex) and loc in burnable}
    for d in Direction:
        row = int(d) * n
        dq, dr = d.vector
        for i, loc in enumerate(locs):
            j = ground.get((loc.hex.q + 2 * dq, loc.hex.r + 2 * dr), -1)  # the hex two away (Hex.neighbour)
            if j >= 0:
                two[row + i] = j
    data: _EdgeData = (locs, src, tgt, dirs, thr, starts, two)
    if len(_EDGE_CACHE) >= _EDGE_CACHE_SIZE:
        del _EDGE_CACHE[next(iter(_EDGE_CACHE))]
    _EDGE_CACHE[key] = (m, data)
    return data


def compile_position(pos: Position) -> ForecastProgram:
    """Compile *pos* (from the Player Turn it starts in) into the tables the forecast rolls on.

    :raises BadInput: if a fire or wreck is on a Location the map lacks.
    """
    pos = _start(pos)
    m = pos.map
    for f in pos.fires:
        pos._check_location(f.location)
    for w in pos.wrecks:
        pos._check_location(w.location)
    extra = frozenset([f.location for f in pos.fires] + [w.location for w in pos.wrecks])
    locs, src, tgt, dirs, thr, starts, two_rows = _map_edges(pos, extra)
    index = {loc: i for i, loc in enumerate(locs)}
    two = np.array(two_rows, np.int64).reshape(7, len(locs))
    locs_of_hex: dict[Hex, list[int]] = {}
    for i, loc in enumerate(locs):
        locs_of_hex.setdefault(loc.hex, []).append(i)
    wrecks = tuple(w for w in pos.wrecks if w.burning)
    nw = len(wrecks)
    w_loc = np.array([index.get(w.location, -1) for w in wrecks], np.int64)
    w_own = np.full(nw, -1, np.int64)
    w_tgt = np.full((nw, 2), -1, np.int64)
    w_down = np.full((nw, 7), -1, np.int64)
    for k, w in enumerate(wrecks):
        own = Location(w.location.hex)
        if m.is_burnable(own):
            w_own[k] = index[own]
        for d in Direction:
            dn = Location(w.location.hex + d)
            if dn.hex in m.hexes and m.is_burnable(dn):
                w_down[k, int(d)] = index[dn]
    prog = ForecastProgram(
        pos, locs, index,
        np.array(src, np.int64), np.array(tgt, np.int64), np.array(dirs, np.int64), np.array(starts, np.int64),
        two, locs_of_hex, wrecks, w_loc, w_own, w_tgt, w_down,
        np.array([w.since for w in wrecks], np.int64),
    )
    key = _cache_key(pos, extra)
    hit = _LOC_CACHE.get(key)
    if hit is None or hit[0] is not m:
        tables = _location_tables(pos, locs)
        hit = (m, (*tables, *_fate_tables(tables[0], tables[1])))  # type: ignore[assignment]
        if len(_LOC_CACHE) >= _EDGE_CACHE_SIZE:
            del _LOC_CACHE[next(iter(_LOC_CACHE))]
        _LOC_CACHE[key] = hit
    need, ext, building, exists, fate_class, fate_table, fate_pb, fate_log = hit[1]
    wthr = np.full((nw, 2, _N_WINDS), NEVER, np.int8)
    for k in range(nw):
        for slot, row in _wreck_rows(prog, pos, k):
            wthr[k, slot] = row
    thr_arr = np.array(thr, np.int8).reshape(len(src), _N_WINDS)
    prog.tables = _Tables(thr_arr, need, ext, building, exists, wthr)
    prog.variant_of[frozenset()] = 0
    prog.variant_sets.append(frozenset())
    prog.variant_maps[0] = m
    prog.rubble_path = not m.interior_hexes
    made = _RUBBLE_CACHE.get(key)
    if made is None or made[0] is not m:
        if len(_RUBBLE_CACHE) >= _EDGE_CACHE_SIZE:
            del _RUBBLE_CACHE[next(iter(_RUBBLE_CACHE))]
        made = _RUBBLE_CACHE[key] = (m, {})
    prog.rubble_made = made[1]
    prog.r_start = np.zeros(len(locs), np.int64)
    prog.r_deg = np.zeros(len(locs), np.int16)
    prog.fate_class, prog.fate_table, prog.fate_pb, prog.fate_log = fate_class, fate_table, fate_pb, fate_log
    prog.gust_edges = [np.flatnonzero(prog.e_dir == d) for d in range(7)]
    hex_no = {h: k for k, h in enumerate(locs_of_hex)}
    prog.loc_hex = np.array([hex_no[loc.hex] for loc in locs], np.int64)
    prog.hex_first = np.array([locs_of_hex[loc.hex][0] for loc in locs], np.int64)
    prog.hex_end = np.array([locs_of_hex[loc.hex][-1] + 1 for loc in locs], np.int64)
    prog.ground = np.array([loc.level == 0 and not loc.rooftop for loc in locs], bool)
    prog.falls = np.array([index.get(collapse_falls(pos, loc), i) for i, loc in enumerate(locs)], np.int64)
    prog.w_hex = np.array([hex_no.get(w.location.hex, -1) for w in wrecks], np.int64)
    prog.e_deg = np.diff(prog.e_start).astype(np.int16)
    prog.edge_hex_src = [locs[i].hex for i in src]
    prog.edge_hex_tgt = [locs[i].hex for i in tgt]
    for e, (a, b) in enumerate(zip(prog.edge_hex_src, prog.edge_hex_tgt, strict=True)):
        prog.edges_of_hex.setdefault(a, set()).add(e)
        prog.edges_of_hex.setdefault(b, set()).add(e)
    return prog


def _wreck_rows(prog: ForecastProgram, pos: Position, k: int) -> list[tuple[int, list[int]]]:
    """Spread thresholds of Burning Wreck *k* to its targets on *pos*'s map (B25.6, B25.62)."""
    m = pos.map
    w = prog.wrecks[k]
    out: list[tuple[int, list[int]]] = []
    if w.location.hex not in m.hexes:
        return out
    for slot, (target, d) in enumerate(wreck_targets(m, w)):
        j = prog.index.get(target)
        if j is None or target not in m.locations(target.hex) or not m.is_burnable(target):
            continue
        prog.w_tgt[k, slot] = j
        out.append((slot, _edge_thresholds(_probes(pos), w.location, target, d, w)))
    return out


class _NoDice:
    def DR(self, purpose: str) -> Roll:  # noqa: N802
        raise AssertionError(f"no roll expected: {purpose}")

    def dr(self, purpose: str) -> Roll:
        raise AssertionError(f"no roll expected: {purpose}")


def _collapsed_map(base: GameMap, hexes: frozenset[Hex]) -> GameMap:
    """*base* with *hexes* fallen into rubble, as the core's :func:`.wind.collapse` leaves them (B25.66)."""
    m = base
    names = base._names
    for h in sorted(hexes):
        p = Position(m, fires=(Fire(Location(h), FireKind.BLAZE),))
        m = collapse(p, _NoDice())[0].map  # type: ignore[arg-type]
        m.__dict__["_names"] = names  # the same hexes keep the same names
    return m


def _cluster_delta(prog: ForecastProgram, cluster: frozenset[Hex]) -> _Delta:
    """The table changes when the building hexes of *cluster* (near one another) collapse."""
    if cluster in prog.deltas:
        return prog.deltas[cluster]
    base = prog.variant_maps[0]
    m = _collapsed_map(base, cluster)
    if base.interior_hexes:
        around: set[Hex] = set(cluster)
        for h in cluster:
            around.update(n for _, n in h.neighbours() if n in m.hexes)
        near = set(around)
        for h in around:
            near.update(n for _, n in h.neighbours() if n in m.hexes)
        # The derived relations change only near the cluster: compute them there (same core definitions).
        local = GameMap({h: m.hexes[h] for h in near}, m.buildings, m.layout, m.name)
        interior: frozenset[Hex] = (base.interior_hexes - around) | (local.interior_hexes & around)
    else:
        interior = frozenset()  # a Collapse makes no hex Interior (B25.63)
    # A spread check reads only its two hexes (terrain, building, elevation, Interior status):
    # the edges to redo are those touching a collapsed hex or a hex whose Interior status changed.
    touched = set(cluster) | (base.interior_hexes ^ interior)
    locations = ChainMap({h: m._make_locations(h) for h in cluster}, base._locations)
    m.__dict__["interior_hexes"] = frozenset(interior)
    m.__dict__["_locations"] = locations
    pos = replace(prog.position, map=m, fires=(), wrecks=(), units=())
    probes = _probes(pos)
    edges = sorted({e for h in touched for e in prog.edges_of_hex.get(h, ())})
    thr = np.full((len(edges), _N_WINDS), NEVER, np.int8)
    valid = np.zeros(len(edges), bool)
    targets: dict[Location, dict[Location, Direction | None]] = {}
    for i, e in enumerate(edges):
        src, tgt = prog.locations[int(prog.e_src[e])], prog.locations[int(prog.e_tgt[e])]
        # Into a collapsed hex nothing spreads: its ground is a rubble Blaze, its levels are gone.
        if tgt.hex in cluster or tgt not in m.locations(tgt.hex) or not m.is_burnable(tgt):
            continue
        if src not in targets:
            ok = src in m.locations(src.hex) and m.is_burnable(src)
            targets[src] = dict(spread_targets(m, src)) if ok else {}
        if tgt in targets[src]:
            valid[i] = True
            thr[i] = _edge_thresholds(probes, src, tgt, targets[src][tgt])
    loc_ids = sorted(i for h in cluster for i in prog.locs_of_hex.get(h, []))
    sub = [prog.locations[i] for i in loc_ids]
    need, ext, building, exists = _location_tables(pos, sub)
    wrecks = []
    for k, w in enumerate(prog.wrecks):
        if w.location.hex in touched or any(prog.locations[j].hex in touched for j in prog.w_tgt[k] if j >= 0):
            rows = dict(_wreck_rows(prog, pos, k))
            for slot in range(2):
                wrecks.append((k, slot, rows.get(slot, [NEVER] * _N_WINDS)))
    delta = _Delta(np.array(edges, np.int64), np.concatenate([thr, valid[:, None].astype(np.int8)], axis=1),
                   np.array(loc_ids, np.int64), np.array([need, ext, building, exists], np.int8).reshape(4, -1),
                   wrecks)
    prog.deltas[cluster] = delta
    return delta


def _near(prog: ForecastProgram, h: Hex) -> frozenset[Hex]:
    """The hexes whose Collapse interacts with *h*'s: adjacent, or within 3 hexes when either is next to an
    Interior Building hex (B25.63).  Cached per hex."""
    got = prog.near.get(h)
    if got is None:
        if prog.wide is None:
            prog.wide = frozenset(n for g in prog.variant_maps[0].interior_hexes for _, n in g.neighbours())
        wide = prog.wide
        near = {n for _, n in h.neighbours()}
        if wide:
            ball = {h}
            frontier = {h}
            for _ in range(3):
                frontier = {n for x in frontier for _, n in x.neighbours()} - ball
                ball |= frontier
            ball.discard(h)
            near.update(ball if h in wide else ball & wide)
        got = prog.near[h] = frozenset(near)
    return got


def _clusters(prog: ForecastProgram, hexes: frozenset[Hex], seeds: frozenset[Hex] | None = None
              ) -> list[frozenset[Hex]]:
    """Group collapsed hexes whose effects on the tables overlap (only the groups of *seeds*, if given).

    A spread check reads only its two hexes, so collapses interact when they are adjacent, or
    within 3 hexes when one of them also ends a neighbour's Interior Building status (B25.63):
    the groups are the connected components of :func:`_near`.
    """
    if len(hexes) == 1:
        return [hexes] if seeds is None or seeds & hexes else []
    left = set(hexes)
    out = []
    starts = set(seeds) if seeds is not None else None
    while left:
        if starts is not None:
            starts &= left
            if not starts:
                break
            first = starts.pop()
            left.discard(first)
        else:
            first = left.pop()
        group = {first}
        todo = [first]
        while todo:
            found = left & _near(prog, todo.pop())
            if found:
                left -= found
                group |= found
                todo.extend(found)
        out.append(frozenset(group))
    return out


def _rubble_edges(prog: ForecastProgram, hexes: Sequence[Hex]) -> None:
    """Make the rubble edges of each of *hexes* not made yet: the spreads from its ground Location once the
    hex has collapsed into a rubble Blaze (B25.66), from the core's checks on the map with that hex alone
    collapsed.

    Without Interior Building hexes a spread check reads only its two hexes (B25.6–.64), so these hold
    whatever else collapsed: a spread into another collapsed hex never happens (its ground is a Blaze,
    its levels are gone), and every other spread is unchanged.
    """
    base = prog.variant_maps[0]
    srcs: list[int] = []
    tgt: list[int] = []
    dirs: list[int] = []
    rows: list[list[int]] = []
    for h in hexes:
        if h in prog.rubble_done:
            continue
        prog.rubble_done.add(h)
        if h in prog.rubble_made:
            made = prog.rubble_made[h]
        else:
            made = prog.rubble_made[h] = _rubble_edges_of(prog, base, h)
        if made is None:
            continue
        gi = prog.index[Location(h)]
        prog.r_start[gi] = len(prog.r_tgt) + len(tgt)
        for j, d, row in made:
            srcs.append(gi)
            tgt.append(j)
            dirs.append(d)
            rows.append(row)
        prog.r_deg[gi] += len(made)
    if tgt:
        prog.r_src = np.concatenate([prog.r_src, np.array(srcs, np.int64)])
        prog.r_tgt = np.concatenate([prog.r_tgt, np.array(tgt, np.int64)])
        prog.r_dir = np.concatenate([prog.r_dir, np.array(dirs, np.int64)])
        prog.r_edge = np.concatenate([prog.r_edge, np.array(rows, np.int8).reshape(-1, _EDGE_COLS)])


def _rubble_edges_of(prog: ForecastProgram, base: GameMap, h: Hex) -> _RubbleEdges | None:
    """The rubble edges of hex *h* (see :func:`_rubble_edges`), or None if its ground is not Burnable."""
    m = _collapsed_map(base, frozenset([h]))
    m.__dict__["interior_hexes"] = frozenset()
    m.__dict__["_locations"] = ChainMap({h: m._make_locations(h)}, base._locations)
    ground = Location(h)
    if not m.is_burnable(ground):
        return None
    probes = _probes(replace(prog.position, map=m, fires=(), wrecks=(), units=()))
    out: _RubbleEdges = []
    for target, d in spread_targets(m, ground):
        j = prog.index.get(target)
        if j is None or target.hex == h or not m.is_burnable(target):
            continue
        out.append((j, int(d) if d is not None else 0, [*_edge_thresholds(probes, ground, target, d), 1]))
    return out


def _variant(prog: ForecastProgram, collapsed: frozenset[Hex], parent: int = 0) -> int:
    """The tables row for the map whose *collapsed* hexes are rubble, made if new (see :func:`_variants`)."""
    return _variants(prog, [(collapsed, parent)])[0]


def _variants(prog: ForecastProgram, wanted: Sequence[tuple[frozenset[Hex], int]]) -> list[int]:
    """The tables row for each ``(collapsed, parent)``: the map whose *collapsed* hexes are rubble, made if new.

    A new row is *parent*'s row (whose collapsed hexes are a subset) with the clusters that hold a
    newly collapsed hex redone; all new rows are copied and patched together.
    """
    t = prog.t
    out: list[int] = []
    made: list[tuple[int, int, list[_Delta]]] = []
    for collapsed, parent in wanted:
        row = prog.variant_of.get(collapsed)
        if row is None:
            new = collapsed - prog.variant_sets[parent]
            deltas = [_cluster_delta(prog, c) for c in _clusters(prog, collapsed, new if parent else None)]
            row = t.reserve()
            prog.variant_of[collapsed] = row
            prog.variant_sets.append(collapsed)
            made.append((row, parent, deltas))
        out.append(row)
    if made:
        rows = np.array([r for r, _, _ in made], np.int64)
        parents = np.array([p for _, p, _ in made], np.int64)
        t.edge[rows] = t.edge[parents]
        t.loc[rows] = t.loc[parents]
        t.wthr[rows] = t.wthr[parents]
        ds = [(r, d) for r, _, deltas in made for d in deltas]
        of = np.array([r for r, _ in ds], np.int64)
        edges = [d.edges for _, d in ds]
        t.edge[np.repeat(of, [len(x) for x in edges]), np.concatenate(edges)] = np.concatenate([d.edge for _, d in ds])
        locs = [d.locs for _, d in ds]
        t.loc[np.repeat(of, [len(x) for x in locs]), :, np.concatenate(locs)] = np.concatenate([d.loc.T for _, d in ds])
        for r, d in ds:
            for k, slot, thr_row in d.wrecks:
                t.wthr[r, k, slot] = thr_row
    return out


# ---------------------------------------------------------------------------
# Dice from numpy


class _NumpyDice:
    """The core's Dice protocol, rolled from a numpy generator (for the scalar rare branches)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._faces: list[int] = []

    def _face(self) -> int:
        if not self._faces:
            self._faces = self._rng.integers(1, 7, size=1024).tolist()
        return self._faces.pop()

    def DR(self, purpose: str) -> Roll:  # noqa: N802
        return _DR_ROLLS[self._face()][self._face()]

    def dr(self, purpose: str) -> Roll:
        return _DR1_ROLLS[self._face()]


class _WatchedDice:
    """Dice that tell whether a roll was asked for: a result that needed none may be reused."""

    def __init__(self, dice: _NumpyDice) -> None:
        self._dice = dice
        self.used = False

    def DR(self, purpose: str) -> Roll:  # noqa: N802
        self.used = True
        return self._dice.DR(purpose)

    def dr(self, purpose: str) -> Roll:
        self.used = True
        return self._dice.dr(purpose)


#: :func:`~.wind.apply_wind_change` results that needed no dice, by (wind state, Wind Change dr), as met (B25.65).
_WIND_AFTER: dict[tuple[int, int], int] = {}


#: The immutable :class:`Roll` values, made once (Random Selection rolls one dr per candidate).
_DR1_ROLLS: tuple[Roll, ...] = (Roll(1), *(Roll(c) for c in range(1, 7)))
_DR_ROLLS: tuple[tuple[Roll, ...], ...] = tuple((Roll(1), *(Roll(c, w) for w in range(1, 7))) if c else ()
                                                for c in range(7))


#: DR total for a random byte 0–251 (7 bytes per (colored, white) pair); 0 for the 4 bytes that are re-rolled.
_DR_OF_BYTE = np.zeros(256, np.int8)
_DR_OF_BYTE[:252] = _DR_OF[np.arange(252) % 36]


def _roll_dr(rng: np.random.Generator, n: int) -> I8:
    """*n* DR totals (2…12), each of the 36 (colored, white) pairs equally likely.

    One random byte per DR (twice as fast as bounded integers); the 4 bytes of 256 that would
    favour some pairs are replaced by fresh unbiased rolls.
    """
    u = np.frombuffer(rng.bytes(n), np.uint8)
    dr = np.take(_DR_OF_BYTE, u)
    bad = np.flatnonzero(u >= 252)
    if len(bad):
        dr[bad] = _DR_OF[rng.integers(0, 36, size=len(bad))]
    return dr


def _nonzero(mask: B) -> tuple[I64, I64]:
    """The row and column indices of a 2-D *mask*'s True entries, row by row, as :func:`numpy.nonzero` gives them
    (from the flat indices: several times faster)."""
    width = max(1, mask.shape[1])
    flat = np.flatnonzero(mask)
    i = flat // width
    return i, flat - i * width


def _spans(first: I64, length: I64) -> I64:
    """The integers ``first[i] … first[i] + length[i] − 1`` for every i, run after run."""
    ends = np.cumsum(length)
    out = np.repeat(first - (ends - length), length)
    out += np.arange(int(ends[-1]) if len(ends) else 0)
    return out


# ---------------------------------------------------------------------------
# The batch of trajectories


class _Memory:
    """The (trajectories × Locations) arrays of a batch, kept for the next batch of the same forecast (a chunk
    of fewer trajectories takes their first rows): memory touched for the first time costs a page fault per
    4 KiB, a refill does not."""

    def __init__(self) -> None:
        self._arrays: dict[str, npt.NDArray[Any]] = {}

    def array(self, name: str, rows: int, n: int, dtype: type[_T], fill: int | None = None) -> npt.NDArray[_T]:
        """The (*rows*, *n*) array *name*, filled with *fill* unless None."""
        got = self._arrays.get(name)
        if got is None or got.shape[0] < rows or got.shape[1] != n or got.dtype != dtype:
            got = self._arrays[name] = np.empty((rows, n), dtype)
        out: npt.NDArray[_T] = got[:rows]
        if fill is not None:
            out.fill(fill)
        return out


class _Batch:
    """The fire state of T trajectories over the program's L Locations.

    A Flame's Flame→Blaze DR (B25.151) has the same odds every AFPh (its Location's need and
    extinction numbers do not change while it burns), so its fate — Blaze or out, after k AFPhs —
    is drawn once, when it is placed (:func:`_fate_tables`): one draw per Flame instead of one DR
    per Flame per Player Turn, with the same probabilities.  A Location keeps one number of its
    Flames' fates, :attr:`flame` (AFPhs counted from the start): ``_BLAZE_AT − k`` if its first Flame
    to become a Blaze does so in AFPh k, else k if its last Flame to go out does so in AFPh k, else
    −1.  A Blaze outranks any Flame going out and an earlier Blaze a later one, so a new Flame's fate
    combines with the Location's by ``max``; the Location has a Flame while ``flame`` ≥ the current
    AFPh.
    """

    def __init__(self, prog: ForecastProgram, trials: int, rng: np.random.Generator,
                 last_turn: int | None = None, memory: _Memory | None = None) -> None:
        self.prog = prog
        self.rng = rng
        pos = prog.position
        n = prog.n
        self.t = trials
        self.start = pos.clock.player_turn
        self.now = self.start
        # Flame fates after the last Player Turn played are not needed: they are kept as "burning on".
        self.far = min(_FAR, (last_turn - self.start + 1) if last_turn is not None else _FAR)
        self.memory = memory = memory if memory is not None else _Memory()
        self.blaze = memory.array("blaze", trials, n, np.bool_, False)
        self.fresh = memory.array("fresh", trials, n, np.bool_, False)  # formed this Player Turn: no spread yet (B25.6)
        self.flame = memory.array("flame", trials, n, np.int16, _NO_FLAME)  # the Flames' fate (see above)
        self.wind = np.full(trials, wind_index(pos.environment.wind), np.int64)
        self.var = np.zeros(trials, np.int64)
        self.walive = np.ones((trials, len(prog.wrecks)), bool)
        self.due: dict[int, list[I64]] = {}  # AFPh → cells where a Flame becomes a Blaze then (see flame)
        # On the rubble path (see ForecastProgram): collapsed grounds, and the levels of collapsed hexes
        # (marked as Blazes too, so that nothing spreads there; not counted).
        self.rubble = memory.array("rubble", trials, n, np.bool_, False)
        self.gone = memory.array("gone", trials, n, np.bool_, False)
        self.any_gone = False
        rph = pos.clock.phase is Phase.RPH
        blazes, fresh, eligible, later = prog.start_fires()
        self.blaze[:, blazes] = True
        self.fresh[:, fresh] = True
        self.rph = rph
        # Gusts this Player Turn (B25.651): rolled in the RPh, or already in the position (set in its file or
        # shown by VASL's Gusts counter); they spread with the end-of-AFPh Spreading Fire.
        self.gust = np.full(trials, bool(pos.environment.gusts) and not rph, bool)
        rows = np.arange(trials, dtype=np.int64) * n
        for locs, first in ((eligible, 0), (later, 1)):
            if len(locs):
                self._place(np.add.outer(rows, locs).reshape(-1), first, unique=len(np.unique(locs)) == len(locs))
        self.fresh_parts: list[I64] = [np.add.outer(rows, fresh).reshape(-1)]  # where the fresh Blazes may be
        self.best = memory.array("best", trials, n, np.int8, NEVER)  # best Original DR needed from the folded Blazes
        lit = np.flatnonzero(self.blaze[0] & ~self.fresh[0])  # every trajectory starts alike:
        self._fold(np.zeros(len(lit), np.int64), lit, False)
        self.best[1:] = self.best[0]  # fold the first one's Blazes, copy it to the others
        self.pending = np.zeros(0, np.int64)  # Blazes not yet folded into best
        self.pending_rubble = False  # collapsed grounds may be among them (B25.66)
        self.fresh_rubble = False  # ... among fresh_parts
        self.dirty: set[int] = set()  # trajectories whose wind or map changed
        self._scratch_need = memory.array("need", trials, n, np.int8).reshape(-1)  # reused every Player Turn by spread
        self._scratch_mask = memory.array("at risk", trials, n, np.bool_).reshape(-1)

    # -- Flames --------------------------------------------------------------
    def _place(self, cells: I64, first: int, unique: bool = False) -> None:
        """Place one Flame at each of *cells* (row × L + Location; a cell may repeat unless *unique*), able to
        become a Blaze from the AFPh *first* Player Turns from the start on (B25.151): draw its fate."""
        if len(cells) == 0:
            return
        wait, blazes = self._fates(cells)
        when = np.minimum(wait, np.int16(self.far))
        when += first
        blazes &= when < self.far
        fate = np.where(blazes, np.int16(_BLAZE_AT) - when, when)
        flame = self.flame.reshape(-1)
        if unique:
            flame[cells] = np.maximum(flame[cells], fate)
        else:
            np.maximum.at(flame, cells, fate)
        # The AFPh each of these Flames becomes a Blaze in, for :meth:`flame_to_blaze` (checked there
        # against flame: a Collapse or an earlier Blaze may have cleared it).
        last = int((when * blazes).max())  # (when ≥ first for them all)
        for k in range(first, last + 1):
            part = cells[np.flatnonzero(fate == _BLAZE_AT - k)]
            if len(part):
                self.due.setdefault(k, []).append(part)

    def _fates(self, cells: I64) -> tuple[npt.NDArray[np.int16], B]:
        """For a new Flame at each of *cells*: the AFPhs it burns on before its fate, and whether that fate
        is to become a Blaze (else it goes out), drawn with :func:`_fate_tables`."""
        prog = self.prog
        size = 1 << _FATE_BITS
        u = np.frombuffer(self.rng.bytes(2 * len(cells)), np.uint16)
        kind = prog.fate_class[cells - cells // prog.n * prog.n]  # the cell's Location's row of the table
        at = kind + u
        # One gather of the table's codes (−1, or 2 × AFPhs burnt on + 1 if the fate is to go out), decoded
        # here: −1 >> 1 is −1 (a float draw below).
        code = prog.fate_table.reshape(-1)[at]
        wait = (code >> 1).astype(np.int16)
        blazes = (code & 1) == 0
        odd = np.flatnonzero(wait < 0)
        if len(odd):  # straddling or late fates: in floating point within their interval
            c = kind[odd] // size
            v = (u[odd] + self.rng.random(len(odd))) / size
            log = prog.fate_log[c]
            with np.errstate(divide="ignore", invalid="ignore"):
                k = np.floor(np.log1p(-v) / log)  # AFPhs burnt on (NaN or ∞: never ends)
                ends = np.isfinite(k) & (k < _FAR)
                k = np.where(ends, k, 0.0)
                s_k = np.exp(k * log, where=k > 0, out=np.ones_like(k))  # P(no fate in the first k AFPhs)
            wait[odd] = np.where(ends, k, _FAR).astype(np.int16)
            blazes[odd] = ends & (v - (1 - s_k) < s_k * prog.fate_pb[c])
        return wait, blazes

    def _burning(self, rows: I64 | slice, after_blaze_step: bool = False) -> B:
        """Locations of *rows* with a Flame or Blaze now: before this Player Turn's AFPh, or right after its
        Flame→Blaze DRs (*after_blaze_step*: the Flames that went out in it are gone)."""
        now = self.now - self.start + (1 if after_blaze_step else 0)
        return self.blaze[rows] | (self.flame[rows] >= now)  # type: ignore[no-any-return]

    @property
    def fb(self) -> I16:
        """Per cell, the AFPh its first Flame to become a Blaze does so, 32767 if none: :attr:`flame` read back, for
        inspection."""
        blazes = self.flame > _BLAZE_AT - _FAR
        return np.where(blazes, np.int16(_BLAZE_AT) - self.flame, np.int16(_BLAZE_AT))  # type: ignore[no-any-return]

    def _clear(self, cells: I64) -> None:
        """No Flame at *cells* any more."""
        self.flame.reshape(-1)[cells] = _NO_FLAME

    # -- RPh ---------------------------------------------------------------
    def rally_phase(self) -> None:
        """Wind Change DR for every trajectory (B25.65); the rare results go through the core."""
        dr = _roll_dr(self.rng, self.t)
        dice = _NumpyDice(self.rng)
        for row in np.flatnonzero(dr == 2).tolist():
            change = int(self.rng.integers(1, 7))
            before = int(self.wind[row])
            after = _WIND_AFTER.get((before, change))
            if after is None:
                watched = _WatchedDice(dice)
                after = wind_index(apply_wind_change(WINDS[before], change, watched)[0])
                if not watched.used:
                    _WIND_AFTER[before, change] = after
            if after != before:
                self.wind[row] = after
                self.dirty.add(row)
        twelve = np.flatnonzero(dr == 12)
        self.gust[:] = False  # last Player Turn's Gusts end; a 12 brings this one's (B25.651)
        self.gust[twelve] = True
        self._collapse_rows(twelve)

    def _gusts(self, row: int) -> I64:
        """Gusts (B25.651) for one trajectory."""
        return self._gusts_rows(np.array([row], np.int64))

    def _gusts_rows(self, rows: I64) -> I64:
        """Gusts (B25.651) for the trajectories *rows*, after the Flame→Blaze DRs: the arrays' version of
        :func:`.fire.gust_spreads` and :func:`.wind.gusts`.

        Every Blaze that may spread this Player Turn spreads one hex downwind (Burning Wrecks into
        their own hex), and a Random Selection among the unburnt Locations two hexes downwind of a
        Blaze (one downwind of a wreck) picks more; with No Wind the direction is rolled.  Returns the
        cells the Gusts spread to (a cell may repeat): the Spreading Fire step places one Flame in each.
        """
        if len(rows) == 0:
            return np.zeros(0, np.int64)
        prog = self.prog
        n = prog.n
        dirs = (self.wind[rows] - 1) % 6 + 1
        calm = self.wind[rows] == 0
        dirs[calm] = self.rng.integers(1, 7, size=int(calm.sum()))
        added: list[I64] = []
        pick_rows: list[I64] = []
        pick_locs: list[I64] = []
        for d in range(1, 7):
            rs = rows[dirs == d]
            if len(rs) == 0:
                continue
            bl = self.blaze[rs]  # (with the gone levels of collapsed hexes: not targets)
            burning = self._burning(rs, after_blaze_step=True)
            edges = prog.gust_edges[d]
            tgt = prog.e_tgt[edges]
            fires = bl & ~self.fresh[rs]  # the Blazes that may spread this Player Turn (B25.6)
            if self.any_gone:
                fires &= ~self.gone[rs]
            spreads = fires & ~self.rubble[rs] if self.any_gone else fires
            ok = prog.t.valid[self.var[rs][:, None], edges] & spreads[:, prog.e_src[edges]] & ~bl[:, tgt]
            i, j = _nonzero(ok)
            added.append(rs[i] * n + tgt[j])  # one edge per target in a direction
            if self.any_gone:  # collapsed grounds along their rubble edges
                r_edges = np.flatnonzero((prog.r_dir == d) & (prog.r_edge[:, _N_WINDS] > 0))
                r_tgt = prog.r_tgt[r_edges]
                ok = self.rubble[rs][:, prog.r_src[r_edges]] & ~bl[:, r_tgt]
                i, j = _nonzero(ok)
                added.append(rs[i] * n + r_tgt[j])
            far = prog.two_hex[d]
            i, src = _nonzero(fires & (far >= 0))
            keep = ~burning[i, far[src]]
            pick_rows.append(rs[i[keep]])
            pick_locs.append(far[src[keep]])
            for k in range(len(prog.wrecks)):
                if prog.w_since[k] >= self.now:
                    continue
                alive = self.walive[rs, k]
                own = prog.w_own[k]
                if own >= 0:
                    lit = alive & ~bl[:, own]
                    added.append(rs[lit] * n + own)
                dn = prog.w_down[k, d]
                if dn >= 0:
                    lit = alive & ~burning[:, dn]
                    pick_rows.append(rs[lit])
                    pick_locs.append(np.full(int(lit.sum()), dn, np.int64))
        cr = np.concatenate(pick_rows)
        cl = np.concatenate(pick_locs)
        if len(cr):  # Random Selection per trajectory: one dr per candidate, the highest (ties too) win
            rolls = self.rng.integers(1, 7, size=len(cr))
            top = np.zeros(self.t, np.int64)
            np.maximum.at(top, cr, rolls)
            won = rolls == top[cr]
            added.append(cr[won] * n + cl[won])
        return np.sort(np.concatenate(added))

    def _collapse_rows(self, rows: I64) -> None:
        """Collapse (B25.66) for the trajectories *rows*: a Random Selection among each one's building Blazes
        (one dr each, the highest and its ties chosen, as :func:`.wind.random_selection`).  A chosen ground
        level takes its whole hex: every Location is cleared and the hex becomes a rubble Blaze, burning on
        from when its Blaze appeared.  A chosen upper Location goes with the levels above it (they are
        marked gone), the lower ones stay, as :func:`.wind.collapse` leaves them."""
        prog = self.prog
        n = prog.n
        if len(rows) == 0:
            return
        if prog.rubble_path:
            cand = self.blaze[rows] & prog.t.building[0] & ~self.rubble[rows] & ~self.gone[rows]
        else:
            cand = self.blaze[rows] & prog.t.building[self.var[rows]] & ~self.gone[rows]
        rolls = np.where(cand, self.rng.integers(1, 7, size=cand.shape, dtype=np.int8), np.int8(0))
        chosen = cand & (rolls == rolls.max(axis=1)[:, None])
        # Per trajectory and hex, the lowest chosen Location (Locations are sorted, a hex's together, lowest
        # first): a ground level takes the hex, any other goes with the levels above it.
        r, low = _nonzero(chosen)
        hx = prog.loc_hex[low]
        lowest = np.ones(len(low), bool)
        lowest[1:] = (r[1:] != r[:-1]) | (hx[1:] != hx[:-1])
        row, picked = rows[r[lowest]], low[lowest]
        low = prog.falls[picked]  # a chosen rooftop: the Location beneath it falls (B23.86)
        self.dirty.update(np.unique(row).tolist())
        takes_hex = prog.ground[low]
        if not takes_hex.all():  # the collapsed levels: gone (marked as Blazes so that nothing spreads there)
            at = _spans(row[~takes_hex] * n + low[~takes_hex], prog.hex_end[low[~takes_hex]] - low[~takes_hex])
            self._clear(at)
            self.fresh.reshape(-1)[at] = False
            self.blaze.reshape(-1)[at] = True
            self.gone.reshape(-1)[at] = True
            self.any_gone = True
        if not takes_hex.any():
            return
        row, ground, picked = row[takes_hex], low[takes_hex], picked[takes_hex]
        for k in np.flatnonzero(prog.w_hex >= 0).tolist():  # a Burning Wreck goes with its hex
            self.walive[row[prog.loc_hex[ground] == prog.w_hex[k]], k] = False
        hexes = [prog.locations[i].hex for i in ground.tolist()]
        if prog.rubble_path:
            new = set(hexes) - prog.rubble_done
            if new:
                _rubble_edges(prog, sorted(new))
        else:
            gone: dict[int, set[Hex]] = {}
            for rw, h in zip(row.tolist(), hexes, strict=True):
                gone.setdefault(rw, set()).add(h)
            wanted = [(prog.variant_sets[int(self.var[rw])] | hs, int(self.var[rw])) for rw, hs in gone.items()]
            self.var[list(gone)] = _variants(prog, wanted)
        at = _spans(row * n + prog.hex_first[ground], prog.hex_end[ground] - prog.hex_first[ground])
        fresh = row * n + ground
        was_fresh = self.fresh.reshape(-1)[row * n + picked]  # the chosen Blaze burns on (B25.6)
        self._clear(at)
        self.blaze.reshape(-1)[at] = False
        self.fresh.reshape(-1)[at] = False
        if prog.rubble_path:
            self.blaze.reshape(-1)[at] = True  # the levels: gone, so not targets
            self.gone.reshape(-1)[at] = True
            self.gone.reshape(-1)[fresh] = False
            self.rubble.reshape(-1)[fresh] = True
            self.any_gone = True
        self.blaze.reshape(-1)[fresh] = True
        self.fresh.reshape(-1)[fresh] = was_fresh
        # Fresh Blazes the Collapse removed no longer spread from the next Player Turn.
        self.fresh_parts = [part[self.blaze.reshape(-1)[part]] for part in self.fresh_parts]
        self.fresh_parts.append(fresh[was_fresh])
        self.fresh_rubble |= prog.rubble_path and bool(was_fresh.any())

    # -- AFPh --------------------------------------------------------------
    def flame_to_blaze(self) -> None:
        """The Flames whose Flame→Blaze DR makes them Blazes this AFPh (B25.151); those that go out this AFPh
        simply stop counting as burning."""
        now = self.now - self.start
        due = self.due.pop(now, [])
        if not due:
            return
        cells = np.concatenate(due)
        won = cells[np.flatnonzero(self.flame.reshape(-1)[cells] == _BLAZE_AT - now)]
        if len(won) == 0:
            return
        w_at = np.flatnonzero(self.prog.w_loc >= 0)  # wrecks on Burnable Locations
        was = self.blaze[:, self.prog.w_loc[w_at]]
        self.blaze.reshape(-1)[won] = True
        self.fresh.reshape(-1)[won] = True
        self.fresh_parts.append(won)
        self._clear(won)
        if len(w_at):  # a Burning Wreck in a new terrain Blaze is removed (B25.14)
            self.walive[:, w_at] &= ~(self.blaze[:, self.prog.w_loc[w_at]] & ~was)

    def _refresh_best(self) -> None:
        """Fold the Blazes that may now spread into each target's best Original DR needed (B25.6).

        A trajectory whose wind or map changed starts again from its Blazes.
        """
        n = self.prog.n
        rows = self.pending // n
        srcs = self.pending - rows * n
        self.pending = np.zeros(0, np.int64)
        if self.dirty:
            again = np.array(sorted(self.dirty), np.int64)
            self.dirty.clear()
            self.best[again] = NEVER
            is_dirty = np.zeros(self.t, bool)
            is_dirty[again] = True
            keep = np.flatnonzero(~is_dirty[rows])
            rows, srcs = rows[keep], srcs[keep]
            i, j = _nonzero(self.blaze[again] & ~self.fresh[again] & ~self.gone[again])
            self._fold(again[i], j, self.any_gone)
        self._fold(rows, srcs, self.pending_rubble)

    def _fold(self, rows: I64, srcs: I64, rubble: bool) -> None:
        """Fold the spread edges of the Blazes at (*rows*, *srcs*) (trajectory, Location) into :attr:`best`
        (B25.6); collapsed grounds among them (if *rubble*) along their rubble edges."""
        prog = self.prog
        if rubble:
            rub = self.rubble[rows, srcs]
            if rub.any():
                r = np.flatnonzero(rub)
                self._fold_along(rows[r], srcs[r], prog.r_start, prog.r_deg, prog.r_tgt, prog.r_edge)
                keep = np.flatnonzero(~rub)
                rows, srcs = rows[keep], srcs[keep]
        self._fold_along(rows, srcs, prog.e_start, prog.e_deg, prog.e_tgt, prog.t.edge[: prog.t.count],
                         variants=bool(self.var.any()))

    def _fold_along(self, rows: I64, srcs: I64, start: I64, degree: I16, target: I64, table: I8,
                    variants: bool = False) -> None:
        """:meth:`_fold` along the edges *start*/*degree*/*target* (by source Location) with the Original DRs
        of *table*: per edge and wind as :attr:`_Tables.edge`, per collapsed-map row too if *variants*.

        The cells are sorted by their source's number of edges (a radix sort on 16 bits), so that those
        with a k-th edge are a suffix: the k-th edges of them all fold in one step, each from the cell's
        own first edge and first table entry, with no per-edge index to build.
        """
        if len(rows) == 0:
            return
        n = self.prog.n
        deg = degree[srcs]
        order = np.argsort(deg, kind="stable")
        below = np.cumsum(np.bincount(deg))  # below[k]: cells with at most k edges, the start of the suffix
        srcs = srcs[order]
        rows = rows[order]
        first = start[srcs]  # the cell's source's first edge
        # An edge a Collapse removed has the threshold NEVER on its map's row: a no-op below.
        at = first * _EDGE_COLS
        at += self.wind[rows]
        if variants:
            at += self.var[rows] * (len(target) * _EDGE_COLS)
        rows *= n
        best = self.best.reshape(-1)
        thr = table.reshape(-1)
        for k, lo in enumerate(below[:-1].tolist()):
            key = target[first[lo:] + k]
            key += rows[lo:]
            np.minimum.at(best, key, thr[at[lo:] + k * _EDGE_COLS])

    def spread(self) -> None:
        """One Spreading Fire DR per Location at risk, at the best source's odds (B25.6–.64)."""
        prog = self.prog
        t = prog.t
        n = prog.n
        self._refresh_best()
        need = self.best.reshape(-1)
        wkeys: list[I64] = []
        wthr: list[I8] = []
        for k in range(len(prog.wrecks)):
            if prog.w_since[k] >= self.now:
                continue
            live = np.flatnonzero(self.walive[:, k])
            for slot in range(2):
                tgt = prog.w_tgt[k, slot]
                if tgt >= 0 and len(live):
                    wkeys.append(live * n + tgt)
                    wthr.append(t.wthr[self.var[live], k, slot, self.wind[live]])
        gusted = self._gusts_rows(np.flatnonzero(self.gust)) if self.gust.any() else None
        if wkeys or gusted is not None:  # this Player Turn's own sources, on a copy of best
            need = self._scratch_need
            np.copyto(need, self.best.reshape(-1))
            if wkeys:
                np.minimum.at(need, np.concatenate(wkeys), np.concatenate(wthr))
            if gusted is not None:  # the Gusts' spreads are automatic: one Flame per Location (B25.651, B25.6)
                need[gusted] = np.minimum(need[gusted], np.int8(ALWAYS))
        at_risk = self._scratch_mask
        np.less(need, NEVER, out=at_risk)
        np.greater(at_risk, self.blaze.reshape(-1), out=at_risk)  # (and not a Blaze yet)
        hit = np.flatnonzero(at_risk)
        dr = _roll_dr(self.rng, len(hit))
        won = hit[np.flatnonzero(dr >= need[hit])]  # (an index list: faster than a mask here)
        self._place(won, self.now - self.start + 1, unique=True)  # new Flames roll from the next AFPh (B25.15)

    def end_player_turn(self) -> None:
        # The fresh Blazes may spread from the next Player Turn (those a Collapse removed were dropped).
        self.pending = np.concatenate(self.fresh_parts) if self.fresh_parts else np.zeros(0, np.int64)
        self.pending_rubble, self.fresh_rubble = self.fresh_rubble, False
        self.fresh_parts = []
        self.fresh[:] = False
        self.now += 1
        self.rph = True

    def play(self) -> None:
        if self.rph:
            self.rally_phase()
        self.flame_to_blaze()
        self.spread()
        self.end_player_turn()

    def counts(self) -> tuple[I64, I64]:
        """Per Location: trajectories with a Flame or Blaze, and with a Blaze."""
        burning = self._burning(slice(None))
        blaze = self.blaze
        if self.any_gone:  # the levels of collapsed hexes are not counted
            here = ~self.gone
            burning &= here
            blaze = blaze & here
        # Summed as bytes into 16 bits when they fit (a chunk's 1,024 trajectories): faster than into 64.
        acc = np.uint16 if self.t < 1 << 16 else np.int64
        return (burning.view(np.uint8).sum(axis=0, dtype=acc).astype(np.int64),
                blaze.view(np.uint8).sum(axis=0, dtype=acc).astype(np.int64))


# ---------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class Forecast:
    """Chances that each Location is burning (Flame or Blaze) after *turns* Player Turns, with standard errors.

    Estimates from *trials* trajectories; ``stderr`` is √(p(1−p)/trials).
    """

    position: Position
    turns: int
    trials: int
    seed: int | None
    locations: tuple[Location, ...]
    burning: F64
    blaze: F64

    @property
    def stderr(self) -> F64:
        p = self.burning
        return np.sqrt(p * (1 - p) / max(1, self.trials))  # type: ignore[no-any-return]

    @property
    def blaze_stderr(self) -> F64:
        p = self.blaze
        return np.sqrt(p * (1 - p) / max(1, self.trials))  # type: ignore[no-any-return]

    def chance(self, loc: Location) -> float:
        """Estimated chance *loc* is burning (0 for a Location that cannot burn)."""
        try:
            return float(self.burning[self.locations.index(loc)])
        except ValueError:
            return 0.0

    def as_dict(self, minimum: float = 0.0) -> dict[Location, tuple[float, float]]:
        """``{Location: (chance, standard error)}`` for every Location with chance > *minimum*."""
        se = self.stderr
        return {loc: (float(p), float(s)) for loc, p, s in zip(self.locations, self.burning, se, strict=True)
                if p > minimum}

    def to_json(self) -> dict[str, object]:
        """A JSON-ready summary (Locations named as on the map)."""
        se = self.stderr
        bse = self.blaze_stderr
        return {
            "turns": self.turns,
            "trials": self.trials,
            "seed": self.seed,
            "locations": [
                {"location": self.position.loc_name(loc), "burning": round(float(p), 6),
                 "stderr": round(float(s), 6), "blaze": round(float(b), 6), "blaze_stderr": round(float(bs), 6)}
                for loc, p, s, b, bs in zip(self.locations, self.burning, se, self.blaze, bse, strict=True)
                if p > 0
            ],
        }


_CHUNK = 1024

#: The most Player Turns a forecast plays (a scenario has at most a few dozen; the demo caps at 50 too).
MAX_TURNS = 50
#: The most trajectories a forecast runs: a standard error under 0.05 percentage points already.
MAX_TRIALS = 1_000_000
_worker_prog: ForecastProgram | None = None
_worker_memory: _Memory | None = None


def _run_chunk(prog: ForecastProgram, trials: int, turns: int, seed: np.random.SeedSequence,
               on_turn: Callable[[], None] | None = None, memory: _Memory | None = None) -> tuple[I64, I64]:
    batch = _Batch(prog, trials, np.random.default_rng(seed),
                   last_turn=prog.position.clock.player_turn + turns - 1, memory=memory)
    for _ in range(turns):
        batch.play()
        if on_turn is not None:
            on_turn()
    return batch.counts()


def _init_worker(prog: ForecastProgram) -> None:
    global _worker_prog, _worker_memory
    _worker_prog = prog
    _worker_memory = _Memory()


def _worker_chunk(args: tuple[int, int, np.random.SeedSequence]) -> tuple[I64, I64]:
    assert _worker_prog is not None
    trials, turns, seed = args
    return _run_chunk(_worker_prog, trials, turns, seed, memory=_worker_memory)


def forecast(pos: Position, turns: int, trials: int = 10_000, seed: int | None = None, *,
             processes: int | None = 1, progress: Callable[[float], None] | None = None,
             program: ForecastProgram | None = None) -> Forecast:
    """Monte Carlo forecast of the fire over *turns* Player Turns (B25.151, B25.6–.66).

    Each Player Turn is the RPh Wind Change DR (from the RPh; Gusts,
    Collapse, Heavy Winds included) then the end-of-AFPh upkeep; a
    position past its AFPh starts with the next Player Turn.  The same
    *seed* gives the same result whatever *processes* is (trajectories run
    in fixed chunks with their own seeds); ``processes=None`` uses every
    local core.  *progress* is called with the fraction done.  *program*
    reuses a :func:`compile_position` result for the same Position.

    :raises BadInput: if *turns* is not 0 to :data:`MAX_TURNS`, *trials* not 1 to :data:`MAX_TRIALS`, or *seed*
        not a seed (:func:`~asl_vassal_bridge.core.dice.check_seed`).
    """
    if not 0 <= turns <= MAX_TURNS:
        raise BadInput(f"turns {turns}: expected 0 to {MAX_TURNS} Player Turns")
    if not 1 <= trials <= MAX_TRIALS:
        raise BadInput(f"trials {trials}: expected 1 to {MAX_TRIALS:,} trajectories")
    check_seed(seed)
    prog = program if program is not None else compile_position(pos)
    sizes = [_CHUNK] * (trials // _CHUNK) + ([trials % _CHUNK] if trials % _CHUNK else [])
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    burning = np.zeros(prog.n, np.int64)
    blaze = np.zeros(prog.n, np.int64)
    workers = os.cpu_count() or 1 if processes is None else max(1, processes)
    steps = max(1, len(sizes) * max(1, turns))
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(min(1.0, done / steps))

    if workers > 1 and len(sizes) > 1:
        with ProcessPoolExecutor(max_workers=min(workers, len(sizes)), initializer=_init_worker,
                                 initargs=(prog,)) as ex:
            for b, z in ex.map(_worker_chunk, [(s, turns, sd) for s, sd in zip(sizes, seeds, strict=True)]):
                burning += b
                blaze += z
                for _ in range(max(1, turns)):
                    tick()
    else:
        memory = _Memory()
        for s, sd in zip(sizes, seeds, strict=True):
            b, z = _run_chunk(prog, s, turns, sd, tick, memory)
            burning += b
            blaze += z
            if turns == 0:
                tick()
    return Forecast(pos, turns, trials, seed, prog.locations, burning / trials, blaze / trials)


def forecast_reference(pos: Position, turns: int, trials: int, seed: int | None = None) -> Forecast:
    """The same forecast as a plain loop: :func:`play_player_turn` with :class:`SeededDice` per trajectory.

    Slow; for benchmarks and tests.
    """
    pos = _start(pos)
    locs = tuple(sorted({loc for loc in pos.map.all_locations() if pos.map.is_burnable(loc)}
                        | {f.location for f in pos.fires}))
    index = {loc: i for i, loc in enumerate(locs)}
    burning = np.zeros(len(locs))
    blaze = np.zeros(len(locs))
    base = seed if seed is not None else 0
    for t in range(trials):
        dice = SeededDice(base * 1_000_003 + t)
        p = pos
        for _ in range(turns):
            p, _ = play_player_turn(p, dice)
        for loc in {f.location for f in p.fires}:
            burning[index[loc]] += 1
        for f in p.blazes():
            blaze[index[f.location]] += 1
    return Forecast(pos, turns, trials, seed, locs, burning / trials, blaze / trials)
