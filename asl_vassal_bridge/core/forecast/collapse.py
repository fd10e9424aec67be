"""Collapse in the forecast (B25.66): the tables of maps with collapsed hexes, made as trajectories need them.

A spread check reads only its two hexes, so a Collapse changes the tables near the collapsed hexes only.
Without Interior Building hexes a collapsed hex's ground spreads along its own "rubble edges", made once per
hex (:func:`_rubble_edges`); with them, each set of collapsed hexes gets its own table row, patched from its
parent's row cluster by cluster (:func:`_variants`).  The collapsed maps come from the core's own
:func:`~asl_vassal_bridge.core.wind.collapse`.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Sequence

import numpy as np

from ..dice import Roll
from ..fire import spread_targets
from ..hexes import Direction, Hex
from ..position import Fire, FireKind, GameMap, Location, Position
from ..values import replace
from ..wind import collapse
from .base import _EDGE_COLS, _N_WINDS, NEVER
from .program import ForecastProgram, _Delta, _edge_thresholds, _location_tables, _probes, _RubbleEdges, _wreck_rows


class _NoDice:
    def DR(self, purpose: str) -> Roll:  # noqa: N802
        raise AssertionError(f"no roll expected: {purpose}")

    def dr(self, purpose: str) -> Roll:
        raise AssertionError(f"no roll expected: {purpose}")


def _collapsed_map(base: GameMap, hexes: frozenset[Hex]) -> GameMap:
    """*base* with *hexes* fallen into rubble, as the core's :func:`..wind.collapse` leaves them (B25.66)."""
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

