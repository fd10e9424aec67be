"""Fire counters placed and removed as VASL players mark fires, upper building levels included.

A fire on the ground level is VASL's Flame or Blaze in its hex.  A fire on
another level of a building (an upper level, the cellar, the rooftop) is
marked as VASL players do it:

* a multi-level building hex burning on every level from the ground up is
  one 2–4-level Blaze counter (VASL's gpids 198–200; B25.2, B23.6);
* any other upper-level fire is its Flame or Blaze stacked with VASL's Level
  marker for that level (gpids 167/169/163 for levels 1–3, 171 cellar, 165
  rooftop) — in the stack already marked with that level when the hex has
  one, else in a new stack beside the hex centre.

The next snapshot reads them back as the same Location
(:func:`~.position.position_from_snapshot`).  A counter whose Location keeps
its fire stays put; Level markers left alone by the fires removed go too.
A Location's Flame counters are counted, one per Flame (B25.15): a Flame
gone takes its own counter, a Flame come adds one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.hexes import Hex
from ..core.position import Fire, FireKind, Location, Position
from ..vasl.counters import BadCounterState, CounterLevel, FireCounter, level_from_piece
from ..vasl.traits import Trait
from .gamemodule import CounterData, bundled
from .position import LiveGame
from .snapshot import board_hex, piece_hex

__all__ = ["LEVEL_OFFSETS", "FireChanges", "fire_changes"]

#: Where a new upper-level stack goes, in pixels from the hex centre (VASL's hexes are 56×64 apart).
LEVEL_OFFSETS: dict[CounterLevel, tuple[int, int]] = {
    CounterLevel(-1): (-14, 14), CounterLevel(1): (14, -14), CounterLevel(2): (14, 14),
    CounterLevel(3): (-14, -14), CounterLevel(99, True): (0, -22),
}

Key = tuple[Location, FireKind]


@dataclass
class FireChanges:
    """The counters to remove (with their revisions) and to place, and notes for the chat."""

    remove: list[str] = field(default_factory=list)
    expect: dict[str, str] = field(default_factory=dict)
    place: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _traits(piece: Mapping[str, Any]) -> list[Trait]:
    return [Trait(str(lay["type"]), str(lay["state"])) for lay in piece.get("layers") or ()]


def _counter_level(loc: Location) -> CounterLevel:
    return CounterLevel(99, True) if loc.rooftop else CounterLevel(loc.level)


def _point(piece: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    return (piece.get("map"), piece.get("x"), piece.get("y"))


def _ground_run(new: Position, h: Hex) -> int:
    """n ≥ 2 if the hex's building burns as Blazes on exactly its levels 0…n−1 (one n-level Blaze, B25.2)."""
    n = new.building_blaze_levels(h)
    if n is None or not 2 <= n <= 4:
        return 0
    levels = sorted(loc.level for loc in new.map.locations(h) if not loc.rooftop)
    return n if levels == list(range(n)) else 0


def fire_changes(game: LiveGame, new: Position) -> FireChanges:
    """What turns the game's fire counters into *new*'s fires, hex by hex (see the module's docstring)."""
    data: CounterData = game.counters or bundled()
    old = game.position
    out = FireChanges()
    old_keys = {(f.location, f.kind) for f in old.fires}
    new_keys = {(f.location, f.kind) for f in new.fires}
    covers: dict[str, set[Key]] = {}
    for key, ids in game.fire_pieces.items():
        for pid in ids:
            covers.setdefault(pid, set()).add(key)
    levels_at: dict[tuple[Any, Any, Any], CounterLevel] = {}
    if game.kinds is not None:  # the counters the read classified: no need to look at every piece again
        level_pieces = [game.pieces[pid] for pid, k in game.kinds.items() if k is FireCounter.LEVEL]
    else:
        level_pieces = [p for p in game.pieces.values()
                        if data.classify(p.get("name"), p.get("gpid")) is FireCounter.LEVEL]
    for p in level_pieces:
        try:
            levels_at[_point(p)] = level_from_piece(_traits(p))
        except BadCounterState:
            continue
    # several Flames may share a Location (B25.15): a hex whose Flames changed in number or kind is marked again too
    flame_locs = {f.location for f in old.fires if f.is_flame} | {f.location for f in new.fires if f.is_flame}
    changed = {loc.hex for loc in flame_locs if (a := old.flames_at(loc)) != (b := new.flames_at(loc))
               and Counter(a) != Counter(b)}
    removed: list[str] = []
    for h in sorted({k[0].hex for k in old_keys ^ new_keys} | changed):
        old_h = {k for k in old_keys if k[0].hex == h}
        new_h = {k for k in new_keys if k[0].hex == h}
        n = _ground_run(new, h)
        run = {(Location(h, level), FireKind.BLAZE) for level in range(n)}
        flames = {k[0]: _flames_kept(game, new, k[0]) for k in old_h | new_h if k[1] is FireKind.FLAME}
        kept: set[Key] = set()
        where: dict[Key, tuple[Any, Any, Any]] = {}
        for pid in sorted({pid for k in old_h for pid in game.fire_pieces.get(k, ())}):
            keys = covers[pid]
            piece = game.pieces[pid]
            for k in keys:
                where.setdefault(k, _point(piece))
            whole = data.classify(piece.get("name"), piece.get("gpid")) is FireCounter.BUILDING_BLAZE
            flame = next((k[0] for k in keys if k[1] is FireKind.FLAME), None)
            if flame is not None:
                stays = pid in flames[flame][0]
            else:
                stays = keys <= new_h and (not run or (whole and keys == run) or not keys & run)
            if stays:
                kept |= keys
                continue
            out.remove.append(pid)
            out.expect[pid] = str(piece.get("rev", ""))
            removed.append(pid)
        todo = {k for k in new_h - kept if k[1] is not FireKind.FLAME}
        if run and run <= todo:
            entry = _at(game, new, h, None)
            out.place.append({"gpid": data.building_blaze_gpid(n), **entry})
            todo -= run
        places = [*todo, *((loc, FireKind.FLAME) for loc, (_kept, more) in flames.items() for _ in range(more))]
        for loc, kind in sorted(places, key=lambda k: (k[0], k[1].value)):
            gpid = data.place_gpid(FireCounter.FLAME if kind is FireKind.FLAME else FireCounter.BLAZE)
            same = where.get((loc, FireKind.FLAME)) or where.get((loc, FireKind.BLAZE))
            if loc.level == 0 and not loc.rooftop:
                entry = _at(game, new, h, None)  # the hex, as VASL places a counter dropped on it
                if any(lv != CounterLevel(0) and _in_hex(game, new, pt, h)
                                        for pt, lv in levels_at.items()):
                    entry.update({"dx": 0, "dy": 22})  # not into a stack marked with another level
                out.place.append({"gpid": gpid, **entry})
                continue
            level = _counter_level(loc)
            if same is None:
                same = next((pt for pt, lv in sorted(levels_at.items(), key=str) if lv == level
                             and _in_hex(game, new, pt, h)), None)
            if same is not None:
                out.place.append({"gpid": gpid, **_at(game, new, h, same)})
                continue
            entry = _at(game, new, h, None)
            dx, dy = LEVEL_OFFSETS[level]
            entry.update({"dx": dx, "dy": dy})
            out.place.append({"gpid": gpid, **entry})
            out.place.append({"gpid": data.level_gpid(level), **entry})
            out.notes.append(f"* {kind.value.capitalize()} placed for {new.loc_name(loc)} with VASL's Level marker "
                             "for its level")
    _orphan_level_markers(game, data, removed, out)
    _burning_wrecks(game, new, out)
    return out


def _flames_kept(game: LiveGame, new: Position, loc: Location) -> tuple[frozenset[str], int]:
    """Which of *loc*'s Flame counters stay, and how many more Flame counters *new* needs there (B25.15: one counter
    per Flame, each with its own Flame→Blaze DR, B25.151).

    A counter stays while its own Flame is among *new*'s, else while a Flame as new as it (VASL's Pin or none) is
    left unmatched; the others go (extinguished, or become a Blaze with all the Location's Flames).
    """
    want = Counter(new.flames_at(loc))
    ids = game.fire_pieces.get((loc, FireKind.FLAME), ())
    own = {pid: game.flame_fires.get(pid, Fire(loc, FireKind.FLAME)) for pid in ids}
    kept: set[str] = set()
    for pid in ids:
        if want[own[pid]] > 0:
            want[own[pid]] -= 1
            kept.add(pid)
    for pid in ids:
        if pid in kept:
            continue
        like = next((f for f, m in want.items() if m > 0 and f.since == own[pid].since), None)
        if like is not None:
            want[like] -= 1
            kept.add(pid)
    return frozenset(kept), sum(want.values())


def _in_hex(game: LiveGame, new: Position, pt: tuple[Any, Any, Any], h: Hex) -> bool:
    stack = _stack_at(game, pt)
    return bool(stack) and piece_hex(stack[0], new.map.layout) == h


_by_point: dict[int, tuple[LiveGame, dict[tuple[Any, Any, Any], list[Mapping[str, Any]]]]] = {}


def _stack_at(game: LiveGame, pt: tuple[Any, Any, Any]) -> list[Mapping[str, Any]]:
    """The pieces stacked at point *pt*: from the read's index (:attr:`LiveGame.stacks`), else every piece's."""
    if game.stacks is not None:
        return [game.pieces[pid] for pid in sorted(game.stacks.get(pt, ()))]
    return _stacks(game).get(pt, [])


def _stacks(game: LiveGame) -> dict[tuple[Any, Any, Any], list[Mapping[str, Any]]]:
    """The game's pieces by stack point (built once per game read)."""
    got = _by_point.get(id(game))
    if got is None or got[0] is not game:
        index: dict[tuple[Any, Any, Any], list[Mapping[str, Any]]] = {}
        for p in game.pieces.values():
            index.setdefault(_point(p), []).append(p)
        _by_point.clear()  # only the game being processed is kept
        got = _by_point[id(game)] = (game, index)
    return got[1]


def _at(game: LiveGame, new: Position, h: Hex, point: tuple[Any, Any, Any] | None) -> dict[str, Any]:
    """Where to place: an existing stack's point, else the hex (its centre) by name."""
    if point is not None and point[1] is not None and point[2] is not None:
        entry: dict[str, Any] = {"x": int(point[1]), "y": int(point[2])}
        if point[0]:
            entry["map"] = point[0]
        return entry
    entry = {"location": new.map.hex_name(h)}
    on = board_hex(new.map.layout, h)
    if on is not None:  # VASSAL places by the board's own hex name (as VASL's grid names it: crops too)
        entry["board"], entry["location"] = on
    if game.map_name:
        entry["map"] = game.map_name
    return entry


def _orphan_level_markers(game: LiveGame, data: CounterData, removed: Sequence[str], out: FireChanges) -> None:
    """Level markers whose stacks held only the fire counters removed (nothing else is marked by them)."""
    gone = set(removed)
    points = {_point(game.pieces[pid]) for pid in removed}
    placed = {(e.get("map"), e.get("x"), e.get("y")) for e in out.place if "x" in e}
    for pt in points - placed:
        stack = _stack_at(game, pt)
        markers = [p for p in stack if data.classify(p.get("name"), p.get("gpid")) is FireCounter.LEVEL]
        if markers and all(str(p["id"]) in gone or p in markers for p in stack):
            for m in markers:
                out.remove.append(str(m["id"]))
                out.expect[str(m["id"])] = str(m.get("rev", ""))


def _burning_wrecks(game: LiveGame, new: Position, out: FireChanges) -> None:
    """A Burning Wreck the rules removed (its Location became a terrain Blaze, B25.14): its Blaze counter goes."""
    still = {w.location for w in new.wrecks if w.burning}
    for loc, (_wid, blaze) in game.wreck_pieces.items():
        if blaze is not None and loc not in still and blaze not in out.remove:
            out.remove.append(blaze)
            out.expect[blaze] = str(game.pieces[blaze].get("rev", ""))
