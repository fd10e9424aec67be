"""A Position compiled for the forecast (:class:`ForecastProgram`): its Locations, spread edges and the Original DR
each roll needs, per Location, per source and per wind state, asked of the core's own checks (B25.151, B25.6–.64).

:func:`compile_position` asks :func:`~asl_vassal_bridge.core.fire.flame_to_blaze_check`,
:func:`~asl_vassal_bridge.core.fire.spread_check`, :func:`~asl_vassal_bridge.core.fire.wind_reaches_spread`,
:func:`~asl_vassal_bridge.core.environment.wind_direction_drm` and
:func:`~asl_vassal_bridge.core.fire.spread_targets`; what a map and its environment give is kept for the next
forecast on the same map (a step, a click or an undo changes the fires and the clock, not the edges).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from ..environment import Wind, wind_direction_drm
from ..fire import SpreadCheck, flame_to_blaze_check, spread_check, spread_targets, wind_reaches_spread, wreck_targets
from ..hexes import Direction, Hex
from ..position import Fire, FireKind, GameMap, Location, Phase, Position, Wreck
from ..terrain import BuildingKind
from ..values import replace
from ..wind import collapse_falls
from .base import _EDGE_COLS, _N_WINDS, _P_AT_LEAST, ALWAYS, F64, I8, I16, I64, NEVER, WINDS, B

__all__ = ["ForecastProgram", "compile_position"]


def _start(pos: Position) -> Position:
    """The position a forecast starts from: past its AFPh, the next Player Turn's RPh."""
    order = list(Phase)
    if order.index(pos.clock.phase) > order.index(Phase.AFPH):
        return replace(pos, clock=pos.clock.next_player_turn())
    return pos


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
    near: dict[Hex, frozenset[Hex]] = field(default_factory=dict)  # :func:`.collapse._near`, cached
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
    draws place v within the interval and invert in floating point
    (:meth:`.trajectories._Trajectories._fates`), so every fate keeps its exact chance.  Returns each
    Location's row offset, the table, and p_b and log s per kind.
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


#: :func:`.collapse._rubble_edges` results per hex, by the same key: they too hold whatever the fires and the clock.
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


