"""The vectorised engine: one Player Turn of fire upkeep for every trajectory of a batch at once, on numpy
arrays — the RPh Wind Change DR with Heavy Winds, Gusts and Collapse (B25.63–.66), then the end-of-AFPh
Flame→Blaze and Spreading Fire DRs with the Gusts of a Gusting Player Turn (B25.151, B25.6–.651).

- Spreading Fire (B25.6): each target's best Original DR needed is kept per trajectory; a new Blaze folds
  its edges in once, a trajectory whose wind or map changed folds all its Blazes again.
- Gusts (B25.651) are a per-trajectory state set by a Wind Change DR of 12 (or already in the position);
  at the end of the AFPh their spreads are automatic ones of the Spreading Fire step.
- The rare branches call the core's scalar functions for the trajectories they touch: a Wind Change
  (:func:`~asl_vassal_bridge.core.wind.apply_wind_change`), with dice drawn from the same seeded generator.
"""

from __future__ import annotations

import numpy as np

from ..hexes import Hex
from ..wind import apply_wind_change
from .base import _EDGE_COLS, _N_WINDS, ALWAYS, I8, I16, I64, NEVER, WINDS, _nonzero, _spans, wind_index
from .collapse import _rubble_edges, _variants
from .program import ForecastProgram
from .rolls import _WIND_AFTER, _NumpyDice, _roll_dr, _WatchedDice
from .trajectories import _BLAZE_AT, _Memory, _Trajectories


class _Batch(_Trajectories):
    """A batch of trajectories (:class:`.trajectories._Trajectories`) played Player Turn by Player Turn
    (:meth:`play`)."""

    def __init__(self, prog: ForecastProgram, trials: int, rng: np.random.Generator,
                 last_turn: int | None = None, memory: _Memory | None = None) -> None:
        super().__init__(prog, trials, rng, last_turn, memory)
        memory = self.memory
        n = prog.n
        self.best = memory.array("best", trials, n, np.int8, NEVER)  # best Original DR needed from the folded Blazes
        lit = np.flatnonzero(self.blaze[0] & ~self.fresh[0])  # every trajectory starts alike:
        self._fold(np.zeros(len(lit), np.int64), lit, False)
        self.best[1:] = self.best[0]  # fold the first one's Blazes, copy it to the others
        self.pending = np.zeros(0, np.int64)  # Blazes not yet folded into best
        self.pending_rubble = False  # collapsed grounds may be among them (B25.66)
        self.fresh_rubble = False  # ... among fresh_parts
        self.dirty: set[int] = set()  # trajectories whose wind or map changed
        self._scratch_mask = memory.array("at risk", trials, n, np.bool_).reshape(-1)


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
        :func:`..fire.gust_spreads` and :func:`..wind.gusts`.

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
        (one dr each, the highest and its ties chosen, as :func:`..wind.random_selection`).  A chosen ground
        level takes its whole hex: every Location is cleared and the hex becomes a rubble Blaze, burning on
        from when its Blaze appeared.  A chosen upper Location goes with the levels above it (they are
        marked gone), the lower ones stay, as :func:`..wind.collapse` leaves them."""
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
        of *table*: per edge and wind as :attr:`.program._Tables.edge`, per collapsed-map row too if *variants*.

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
        for k, lo in enumerate(below[:-1].tolist()):  # the k-th edges: the tables shifted by k, read at first/at
            key = target[k:][first[lo:]]
            key += rows[lo:]
            np.minimum.at(best, key, thr[k * _EDGE_COLS:][at[lo:]])

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
        # This Player Turn's own sources go into best for the roll, and the few cells they touch get their
        # values back after it (cheaper than a copy of the whole of best).
        touched = np.concatenate([*wkeys, *([gusted] if gusted is not None else [])]) if wkeys or gusted is not None \
            else None
        if touched is not None:
            kept = need[touched]
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
        if touched is not None:
            need[touched] = kept  # (a cell touched twice gets the same value back twice)
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
