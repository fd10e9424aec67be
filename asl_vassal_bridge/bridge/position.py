"""Step 3 of a press: the snapshot's pieces read into the rules core's :class:`Position` (fires, wrecks, units,
EC, Wind, Gusts), with which piece is which (:class:`LiveGame`).

Fire counters are recognised with :mod:`asl_vassal_bridge.vasl.counters` (by gpid, then by name); EC, Wind and
Gusts come from those counters' layers.  A Level marker puts its stack's fires and units on its level.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.environment import Environment, Wind, WindForce
from ..core.errors import BadInput
from ..core.hexes import Direction, Hex
from ..core.position import Clock, Fire, FireKind, GameMap, Location, Phase, Position, Smoke, Wreck
from ..core.values import replace
from ..vasl.counters import (
    FIRE_GPIDS,
    BadCounterState,
    CounterLevel,
    FireCounter,
    building_blaze_levels,
    classify,
    ec_from_piece,
    embellishment_layers,
    gusts_from_piece,
    level_from_piece,
    smoke_face,
    wind_direction_from_piece,
    wind_force_from_piece,
)
from ..vasl.phasetrack import PHASE_TRACK_GPIDS, PHASE_TRACK_NAMES
from ..vasl.setup import VaslSetup
from ..vasl.units import UnitCounter, read_units
from ..vasl.vsav import BoardEntry
from .client import BridgeClient
from .clock import game_clock
from .gamemodule import CounterData, counter_data
from .snapshot import (
    GridLayout,
    NoTerrain,
    board_entries,
    fallback_notes,
    game_map_from_boards,
    game_map_from_snapshot,
    known_terrain,
    model_error,
    no_terrain_reason,
    off_every_board,
    piece_hex,
    piece_traits,
    unit_hex,
    warn_once,
)

__all__ = ["LAYERS_FOR", "LiveGame", "position_from_snapshot", "press_snapshot"]

log = logging.getLogger(__name__)
#: classify() per (name, gpid): a game's thousands of counters have a few hundred names.
_classify = functools.lru_cache(maxsize=8192)(classify)


#: A stack's point: (map name, x, y).
Point = tuple[Any, Any, Any]


@dataclass(frozen=True)
class LiveGame:
    """A Position read from VASSAL, with which piece is which fire or weather counter."""

    position: Position
    snapshot: Mapping[str, Any]
    #: The fire counters of each Location's fire, by (Location, kind): a Flame key lists one counter per Flame (several
    #: may share a Location, B25.15: :attr:`flame_fires` says which Flame each is), a Blaze key every counter of the
    #: Location's one Blaze (a multi-level Blaze counter under each level it burns, B25.2).
    fire_pieces: Mapping[tuple[Location, FireKind], tuple[str, ...]] = field(default_factory=dict)
    ec_piece: str | None = None
    wind_dir_piece: str | None = None
    wind_piece: str | None = None
    gusts_piece: str | None = None
    pieces: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    map_name: str | None = None
    #: The boards of the map read, with VASL's overlays and SSR terrain changes (as the .vsav reader gives them).
    boards: tuple[BoardEntry, ...] = ()
    #: Overlays applied to terrain read from the board archives, those not applied and why, SSR tokens VASL
    #: cannot apply either.
    notes: tuple[str, ...] = ()
    #: The units of the Position by piece id, with their counters (concealed and hidden pieces never here).
    units: Mapping[str, UnitCounter] = field(default_factory=dict)
    #: Each Wreck's Location → (its piece, the Blaze piece on it or None): a Blaze on a Wreck burns it (B25.14).
    wreck_pieces: Mapping[Location, tuple[str, str | None]] = field(default_factory=dict)
    #: Which counters the bridge knew: the game's own module, or the bundled catalogue (and why).
    counters: CounterData | None = None
    #: Where the Position's Clock came from (VASL's Phase Track or the bridge's own count), one line.
    clock_source: str = ""
    #: The fire, weather and Level counters among :attr:`pieces`, by id (None: not read; classify them).
    kinds: Mapping[str, FireCounter] | None = None
    #: The pieces' ids by stack point (map, x, y) (None: not read; index :attr:`pieces`).
    stacks: Mapping[Point, frozenset[str]] | None = None
    #: Each Flame counter's own Flame of :attr:`position` (B25.15), by piece id.
    flame_fires: Mapping[str, Fire] = field(default_factory=dict)
    #: Each SMOKE counter of :attr:`position`'s ``smoke``: its piece, and the layer changes that show its Dispersed
    #: face (B25.651), in the Position's order.
    smoke_pieces: tuple[tuple[Smoke, str, tuple[tuple[int, int], ...]], ...] = ()
    #: The SMOKE counters the rules cannot read a face of (grenades, overlays' SMOKE): piece id → "name in Location".
    smoke_by_hand: Mapping[str, str] = field(default_factory=dict)

    @property
    def catalogue_source(self) -> str:
        """Which unit catalogue was used: the game's module (its name and file) or the bundled one (and why)."""
        return self.counters.description if self.counters is not None else ""


#: The counters whose layers the bridge reads (EC, Wind, Wind Dir, Gusts, Level markers, the Phase Track),
#: by gpid and BasicPiece name (a Phase Track VASL's Replace made carries another gpid, but the same name).
LAYER_KINDS = (FireCounter.EC, FireCounter.WIND, FireCounter.WIND_DIR, FireCounter.GUSTS, FireCounter.LEVEL,
               FireCounter.SMOKE)
LAYERS_FOR: frozenset[str] = frozenset(
    [g for g, k in FIRE_GPIDS.items() if k in LAYER_KINDS]
    + ["EC", "Wind", "Wind Dir", "Gusts", "Building", "Fort Bldg", "Smoke"]
    + [*PHASE_TRACK_GPIDS, *PHASE_TRACK_NAMES])


def press_snapshot(client: BridgeClient, game_map: GameMap | None) -> dict[str, Any]:
    """What a button reads: the delta snapshot with the layers the bridge reads, terrain only if not kept."""
    return client.snapshot(with_terrain=game_map is None, layers_for=LAYERS_FOR, known_terrain=known_terrain(),
                           delta=True)


#: What a press reads of one piece: (its signature, its fire counter kind or None, its map hex or None).
PieceFacts = tuple[tuple[Any, ...], FireCounter | None, Hex | None]


def _signature(p: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a piece's facts depend on: its revision (VASSAL state), names, counter slot and place."""
    return (p.get("rev"), p.get("name"), p.get("gpid"), p.get("map"), p.get("x"), p.get("y"), p.get("board"),
            p.get("hex"), p.get("location"))


class _Seen:
    """What the last presses read, kept for the next one: each piece's facts by id (read again only for a piece
    added, changed or moved since) and the units read (read again only if a piece near a fire changed).  Kept
    while the map layout, the counter data and the terrain are the same objects (the terrain is cached by its key,
    :func:`~.snapshot.known_terrain`)."""

    def __init__(self) -> None:
        self.scope: tuple[Any, Any] = (None, None)  # the layout and counter data themselves (never an id reused)
        self.facts: dict[str, PieceFacts] = {}
        self.objs: dict[str, Mapping[str, Any]] = {}  #: each piece's dict the facts were read from
        self.obj_ids: set[int] = set()  #: their ids (the dicts are kept alive in objs)
        #: the pieces that are fire, weather or Level counters (in the snapshot's order), by id
        self.kinded: list[str] = []
        #: each stack's point (map, x, y) → the ids of its pieces (sets replaced, never changed: a LiveGame keeps them)
        self.by_point: dict[Point, frozenset[str]] = {}
        self.unit_key: frozenset[tuple[Point, tuple[tuple[Any, ...], ...]]] = frozenset()
        self.unit_list: list[UnitCounter] = []
        self.unit_map: GameMap | None = None
        #: the pieces the units were last read or checked from, and their dicts' ids
        self.unit_pieces: list[Mapping[str, Any]] = []
        self.unit_objs: set[int] = set()
        self.read = 0  #: pieces read afresh by the last press (the others' facts were kept)

    def facts_of(self, pieces: Mapping[str, Mapping[str, Any]], layout: Any, data: CounterData,
                 classify: Any) -> dict[str, PieceFacts]:
        """Each piece's facts by id, in *pieces*' order: kept for a piece whose dict is the very one of the last
        press (a delta snapshot keeps the unchanged ones' dicts) or whose signature is unchanged, else read."""
        scope = (layout, data)
        if scope[0] is not self.scope[0] or scope[1] is not self.scope[1]:
            self.scope, self.facts, self.objs, self.unit_key, self.unit_list = scope, {}, {}, frozenset(), []
            self.by_point, self.kinded, self.unit_pieces, self.unit_objs, self.obj_ids = {}, [], [], set(), set()
        old, was = self.facts, self.objs
        objs = set(map(id, pieces.values()))
        if objs == self.obj_ids and len(pieces) == len(was):
            changed: list[str] = []  # the very dicts of the last press (kept alive by self.objs), maybe reordered
            gone: set[str] = set()
        else:
            changed = [pid for pid, p in pieces.items() if was.get(pid) is not p]  # added too
            gone = was.keys() - pieces.keys()
        self.obj_ids = objs
        for pid in gone:
            _unstack(self.by_point, old[pid], pid)
        same_order = not gone and len(pieces) == len(was) and list(pieces) == list(was)
        new: dict[str, Any] = (dict(old) if changed else old) if same_order else {pid: old.get(pid) for pid in pieces}
        read, kinds_moved = 0, not same_order
        for pid in changed:
            p = pieces[pid]
            f = new[pid]
            sig = _signature(p)
            if f is None or f[0] != sig:
                read += 1
                if f is not None:
                    _unstack(self.by_point, f, pid)
                g = self._read(pid, p, sig, layout, classify)
                kinds_moved = kinds_moved or f is None or (g[1] is None) != (f[1] is None)
                new[pid] = g
        if kinds_moved:
            self.kinded = [pid for pid, f in new.items() if f[1] is not None]
        self.facts, self.objs, self.read = new, dict(pieces) if changed or gone else was, read
        return new

    def _read(self, pid: str, p: Mapping[str, Any], sig: tuple[Any, ...], layout: Any, classify: Any) -> PieceFacts:
        """One piece's facts, read afresh, and its place among the stacks."""
        f = (sig, classify(p.get("name"), p.get("gpid")), unit_hex(p.get("board"), p.get("hex"), p.get("location"),
                                                                   layout))
        pt = (sig[3], sig[4], sig[5])
        self.by_point[pt] = self.by_point.get(pt, frozenset()) | {pid}
        return f

    def units(self, unit_pieces: Sequence[Mapping[str, Any]], facts: Mapping[str, PieceFacts], gm: GameMap,
              read: Any) -> list[UnitCounter]:
        """The units *read* gives, read again only when a stack's pieces changed: the same stacks listed in
        another order (an Undo brings a removed piece back at the end of VASSAL's list) give the kept units in the
        order a fresh read gives (stack by stack as they first appear, each bottom first)."""
        objs = set(map(id, unit_pieces))
        if gm is self.unit_map and objs == self.unit_objs:
            # the very dicts of the last read (a delta snapshot keeps them), so the same stacks: at most reordered
            rank: dict[Point, int] = {}
            for p in unit_pieces:
                sig = facts[str(p["id"])][0]
                rank.setdefault((sig[3], sig[4], sig[5]), len(rank))
        else:
            stacks: dict[Point, list[tuple[Any, ...]]] = {}
            for p in unit_pieces:
                pid = str(p["id"])
                sig = facts[pid][0]
                stacks.setdefault((sig[3], sig[4], sig[5]), []).append((*sig, pid))
            key = frozenset((pt, tuple(sigs)) for pt, sigs in stacks.items())
            self.unit_pieces, self.unit_objs = list(unit_pieces), objs  # kept alive: their ids stay theirs
            if gm is not self.unit_map or key != self.unit_key:
                self.unit_map = gm
                self.unit_key, self.unit_list = key, list(read())
                return self.unit_list
            rank = {pt: i for i, pt in enumerate(stacks)}
        index = {str(p["id"]): i for i, p in enumerate(unit_pieces)}

        def order(uc: UnitCounter) -> tuple[int, int]:
            pid = str(uc.piece["id"])
            sig = facts[pid][0]
            return rank[(sig[3], sig[4], sig[5])], index[pid]

        return sorted(self.unit_list, key=order)


def _unstack(by_point: dict[Point, frozenset[str]], f: PieceFacts, pid: str) -> None:
    pt = (f[0][3], f[0][4], f[0][5])
    left = by_point.get(pt, frozenset()) - {pid}
    if left:
        by_point[pt] = left
    else:
        by_point.pop(pt, None)


_SEEN = _Seen()


def _location(gm: GameMap, h: Hex, marker: CounterLevel | None) -> Location:
    """The Location a stack's Level marker names (B23.8 rooftop, cellar, upper levels), else the ground."""
    if marker is None:
        return Location(h)
    if marker.rooftop:
        roof = gm.rooftop(h)
        return roof if roof is not None else Location(h)
    loc = Location(h, marker.level)
    return loc if loc in gm.locations(h) else Location(h)


def position_from_snapshot(snapshot: Mapping[str, Any], *, game_map: GameMap | None = None,
                           phase: Phase = Phase.AFPH, clock: Clock | None = None,
                           vasl: VaslSetup | None = None, counters: CounterData | None = None,
                           units_near_fires: bool = False, clock_source: str | None = None) -> LiveGame:
    """Read fires, wrecks, units, EC, Wind and Gusts from the snapshot's pieces.

    Which counter is which comes from *counters* (default: the module the
    snapshot's game runs, :func:`~.gamemodule.counter_data`).  A 1–4-level
    Blaze burns levels 0…n−1 of its building hex (B25.2); a Level marker puts
    its stack's fires and units on its level; a Blaze stacked with a Wreck
    makes a Burning Wreck, not a terrain Blaze (B25.14).

    With *units_near_fires* only the units in or next to a hex with a fire or
    a Burning Wreck are read: all a fire upkeep's report can name (fire only
    spreads into adjacent Locations, B25.6), at a fraction of the cost on a
    big map.

    Without VASL's terrain model in the snapshot, terrain is read from the board
    archives *vasl* names (:func:`~.snapshot.game_map_from_boards`, SSR terrain changes
    and overlays applied as VASL 6.7.x applies them).  The notes name the
    overlays applied, those not applied and why, and SSR tokens VASL cannot
    apply either (:func:`~.snapshot.fallback_notes`).

    :raises NoTerrain: if neither the snapshot, *game_map* nor *vasl* gives terrain.
    """
    data = counters or counter_data(snapshot)
    fire_gpids = data.fire_gpids

    def classify(name: str | None, gpid: str | None) -> FireCounter | None:
        """By the module's own slots first, then VASL's gpids and names (cached)."""
        hit = fire_gpids.get(str(gpid or "")) if fire_gpids else None
        return hit if hit is not None else _classify(name, gpid)
    unreadable = model_error(snapshot) if game_map is None else None
    if unreadable is not None and vasl is not None and vasl.boards is not None:
        gm = None  # VASL's model could not be read (e.g. a member this VASL lacks): the board archives instead
    else:
        gm = game_map or game_map_from_snapshot(snapshot)
    notes: list[str] = []
    if gm is None and vasl is not None and vasl.boards is not None:
        gm = game_map_from_boards(snapshot, vasl)
        notes = fallback_notes(snapshot, table=vasl.terrain_table(), boards_dir=vasl.boards)
        if unreadable is not None:
            notes = [f"terrain read from the board archives in {vasl.boards}: {unreadable}", *notes]
    grid = gm.layout if gm is not None and isinstance(gm.layout, GridLayout) else None
    if grid is not None and grid.note:
        if game_map is None and grid.between and vasl is not None and vasl.boards is not None:
            notes = [f"{grid.note}: terrain read from the board archives in {vasl.boards}",
                     *fallback_notes(snapshot, table=vasl.terrain_table(), boards_dir=vasl.boards)]
            gm = game_map_from_boards(snapshot, vasl)
        else:
            notes = [grid.note + ("; give the board archives' folder (asl-fire bridge --boards DIR) to read "
                                  "them as printed" if grid.between and game_map is None else ""), *notes]
    warn_once(notes)
    if gm is None:
        raise NoTerrain(no_terrain_reason(snapshot))
    if clock is None:
        clock, _track, clock_source = game_clock(snapshot, phase)
    elif clock_source is None:
        clock_source = f"clock: {clock} given by the caller"
    env = Environment()
    fires: list[Fire] = []
    fire_pieces: dict[tuple[Location, FireKind], list[str]] = {}
    pins: set[tuple[Any, Any, Any]] = set()
    levels: dict[tuple[Any, Any, Any], CounterLevel] = {}
    ids: dict[str, str | None] = {"ec": None, "wd": None, "w": None, "g": None}
    force = WindForce.NO_WIND
    direction: Direction | None = None
    gusts = False
    pieces = {str(p["id"]): p for p in snapshot.get("pieces") or ()}
    facts = _SEEN.facts_of(pieces, gm.layout, data, classify)  # a later press reads only the pieces changed
    kinds: dict[str, FireCounter] = {pid: k for pid in _SEEN.kinded if (k := facts[pid][1]) is not None}
    counted = [pieces[pid] for pid in kinds]  # the fire, weather and Level counters, in the snapshot's order
    map_name = None
    for p in counted:
        kind = kinds[str(p["id"])]
        h = facts[str(p["id"])][2]
        try:
            if kind is FireCounter.EC:
                env = replace(env, ec=ec_from_piece(piece_traits(p)))
                ids["ec"] = str(p["id"])
            elif kind is FireCounter.WIND_DIR:
                direction = wind_direction_from_piece(piece_traits(p))
                ids["wd"] = str(p["id"])
            elif kind is FireCounter.WIND:
                force = wind_force_from_piece(piece_traits(p))
                ids["w"] = str(p["id"])
            elif kind is FireCounter.GUSTS:
                gusts = gusts_from_piece(piece_traits(p))
                ids["g"] = str(p["id"])
        except BadCounterState as e:
            raise BadInput(f"piece {p.get('id')} ({p.get('name')}) at {p.get('location')}: {e}") from None
        if h is None or h not in gm:
            continue
        stack = (p.get("map"), p.get("x"), p.get("y"))
        if kind is FireCounter.PIN:
            pins.add(stack)
        elif kind is FireCounter.LEVEL:
            try:
                levels[stack] = level_from_piece(piece_traits(p))
            except BadCounterState as e:
                raise BadInput(f"piece {p.get('id')} ({p.get('name')}) at {p.get('location')}: {e}") from None
    flame_new: dict[str, bool] = {}  # each Flame counter: stacked with VASL's Pin (B25.15)
    flame_fires: dict[str, Fire] = {}
    wreck_stacks: dict[tuple[Any, Any, Any], str] = {}
    for p in counted:
        if kinds[str(p["id"])] in (FireCounter.WRECK, FireCounter.BURNT_OUT_WRECK):
            wreck_stacks.setdefault((p.get("map"), p.get("x"), p.get("y")), str(p["id"]))
    wreck_blaze: dict[tuple[Any, Any, Any], str] = {}
    for p in counted:
        kind = kinds[str(p["id"])]
        if kind not in (FireCounter.FLAME, FireCounter.BLAZE, FireCounter.BUILDING_BLAZE):
            continue
        if off_every_board(p):
            raise BadInput(f"piece {p.get('id')} ({p.get('name')}) at {p.get('x')},{p.get('y')} of map "
                           f"{p.get('map')} is off every board: a {kind.value.capitalize()} must be in a hex; "
                           "move it onto a board or delete it (nothing was rolled or placed)")
        h = piece_hex(p, gm.layout)
        if h is None or h not in gm:
            continue
        stack = (p.get("map"), p.get("x"), p.get("y"))
        map_name = map_name or p.get("map")
        if kind is FireCounter.BLAZE and stack in wreck_stacks:
            wreck_blaze.setdefault(stack, str(p["id"]))  # a Burning Wreck (B25.14), not a terrain Blaze
            continue
        if kind is FireCounter.BUILDING_BLAZE:
            n = building_blaze_levels(p.get("name"), p.get("gpid")) or 1
            for level in range(min(n, gm.top_level(h) + 1)):
                fire_pieces.setdefault((Location(h, level), FireKind.BLAZE), []).append(str(p["id"]))
            continue
        fk = FireKind.FLAME if kind is FireCounter.FLAME else FireKind.BLAZE
        loc = _location(gm, h, levels.get(stack))
        fire_pieces.setdefault((loc, fk), []).append(str(p["id"]))
        if fk is FireKind.FLAME:
            flame_new[str(p["id"])] = stack in pins
    wrecks: list[Wreck] = []
    wreck_pieces: dict[Location, tuple[str, str | None]] = {}
    for stack, wid in wreck_stacks.items():
        w = pieces[wid]
        h = piece_hex(w, gm.layout)
        if h is None or h not in gm:
            continue
        loc = _location(gm, h, levels.get(stack))
        burnt = kinds[wid] is FireCounter.BURNT_OUT_WRECK
        blaze = None if burnt else wreck_blaze.get(stack)
        wrecks.append(Wreck(loc, burning=blaze is not None, name=str(w.get("name") or "Wreck")))
        wreck_pieces[loc] = (wid, blaze)

    def locate(p: Mapping[str, Any]) -> Location | None:
        h = unit_hex(p.get("board"), p.get("hex"), p.get("location"), gm.layout)
        if h is None or h not in gm:
            return None
        return _location(gm, h, levels.get((p.get("map"), p.get("x"), p.get("y"))))

    unit_pieces = snapshot.get("pieces") or ()
    if units_near_fires:
        burning = {loc.hex for loc, _k in fire_pieces} | {w.location.hex for w in wrecks}
        near = burning.union(*(h.adjacent() for h in burning))
        unit_pieces = [pieces[pid] for pid, f in facts.items() if f[2] in near]
    units = _SEEN.units(unit_pieces, facts, gm, lambda: read_units(unit_pieces, locate, data.catalogue,
                                                                   data.counters))
    for (loc, fk), fire_ids in fire_pieces.items():
        if fk is FireKind.BLAZE:
            fires.append(Fire(loc, fk))  # one Blaze per Location, however many counters show it
            continue
        # one Flame per counter (B25.15: several may share a Location, each with its own Flame→Blaze DR); a Flame
        # stacked with VASL's Pin appeared this Player Turn
        for pid in fire_ids:
            flame_fires[pid] = Fire(loc, fk, since=clock.player_turn if flame_new[pid] else 0)
            fires.append(flame_fires[pid])
    if force is not WindForce.NO_WIND and direction is None:
        raise BadInput(f"the Wind counter shows {force.label} but no Wind Dir counter is on the map "
                       "(B25.64: a wind blows from a direction); place VASL's Wind Dir counter")
    wind = Wind(force, direction)
    env = replace(env, wind=wind, gusts=gusts)
    smoke, by_hand = _smoke(counted, kinds, gm, levels)
    pos = Position(gm, env, clock, tuple(fires), tuple(wrecks), tuple(u.unit for u in units),
                   name=str((snapshot.get("module") or {}).get("name", "")), notes="\n".join(notes),
                   smoke=tuple(s for s, _pid, _ch in smoke))
    return LiveGame(pos, snapshot, {k: tuple(v) for k, v in fire_pieces.items()}, ids["ec"], ids["wd"], ids["w"],
                    ids["g"], pieces, map_name, board_entries(snapshot, gm.name or None), tuple(notes),
                    {u.unit.id: u for u in units}, wreck_pieces, data, clock_source, kinds, dict(_SEEN.by_point),
                    flame_fires, tuple(smoke), by_hand)


def _smoke(counted: Sequence[Mapping[str, Any]], kinds: Mapping[str, FireCounter], gm: GameMap,
           levels: Mapping[Point, CounterLevel]) -> tuple[list[tuple[Smoke, str, tuple[tuple[int, int], ...]]],
                                                          dict[str, str]]:
    """The SMOKE counters on the map (A24) whose face VASL's layers show, with their pieces and the layer changes
    to their Dispersed face (B25.651); the others (grenades, overlays' SMOKE) by piece id, named for the players."""
    smoke: list[tuple[Smoke, str, tuple[tuple[int, int], ...]]] = []
    by_hand: dict[str, str] = {}
    for p in counted:
        pid = str(p["id"])
        if kinds[pid] is not FireCounter.SMOKE:
            continue
        h = piece_hex(p, gm.layout)
        if h is None or h not in gm:
            continue
        loc = _location(gm, h, levels.get((p.get("map"), p.get("x"), p.get("y"))))
        try:
            face = smoke_face(embellishment_layers(piece_traits(p)))
        except BadCounterState:  # only a Gust acts on SMOKE: its players are told, the press goes on
            face = None
        if face is None:
            by_hand[pid] = f"{p.get('name') or 'SMOKE'} in {gm.location_name(loc)}"
        else:
            smoke.append((Smoke(loc, face.wp, face.dispersed), pid, face.to_dispersed))
    return smoke, by_hand


