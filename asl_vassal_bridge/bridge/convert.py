"""A bridge snapshot (JSON from VASSAL) → the rules core's :class:`Position`, and back as a batch.

Fire counters are recognised with :mod:`asl_vassal_bridge.vasl.counters`
(by gpid, then by name); EC, Wind and Gusts come from those counters'
layers.  Terrain comes from VASL's own terrain model when the snapshot
carries it (``maps[].terrain``); without it, pass a :class:`GameMap` read
from the board archives.

On a map of several boards VASL's model names hexes board-locally (``A1``
on every board): each hex is placed by its grid position in VASL's merged
grid (``col``, ``row``), each piece by its board and board-local hex, and
the Position uses board-qualified names (``22M4``) as VASL's own location
names do.  Terrain is sent once per board set: the snapshot's
``terrain_key`` names it, and the :class:`GameMap` read for a key is kept
(:func:`known_terrain`) so a later press asks for the pieces only.

Each board's VASL part (``maps[].boards[].vasl``: overlays, SSR terrain
changes, crop, version; null for a board that is not VASL's) is read as the
same :class:`~asl_vassal_bridge.vasl.vsav.BoardEntry` the ``.vsav`` reader
gives (:func:`board_entries`).  VASL's own terrain model has the SSR terrain
changes applied, and since VASL 6.6.4 the overlays too; so has terrain read
from the board archives (``vasl=``, :mod:`asl_vassal_bridge.vasl.ssr`,
:mod:`asl_vassal_bridge.vasl.overlay`, as VASL 6.7.x applies them), but for
SSR tokens VASL's model cannot apply either and overlays whose archive is
missing.  :func:`position_from_snapshot` says what was applied and what not
in ``Position.notes``, :attr:`LiveGame.notes` and a logged warning, as
``position_from_vsav`` does.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..core import values
from ..core.environment import EC, Environment, Wind, WindForce
from ..core.errors import BadInput
from ..core.explain import Report
from ..core.hexes import BoardPlacement, Direction, Hex, HexNameError, MapLayout
from ..core.position import Clock, Fire, FireKind, GameMap, HexInfo, Location, Phase, Position, Wreck
from ..core.terrain import Building, Terrain, UnknownTerrainError
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
    wind_direction_from_piece,
    wind_force_from_piece,
)
from ..vasl.phasetrack import PHASE_TRACK_GPIDS, PHASE_TRACK_NAMES, PhaseTrack, is_phase_track, phase_track_from_piece
from ..vasl.setup import VaslSetup
from ..vasl.terrain import ROAD_SHARE, TerrainTable, drawn_shares, mapping_for, woods_road
from ..vasl.traits import Trait
from ..vasl.units import UnitCounter, read_units
from ..vasl.vsav import BadSavedGameError, BoardEntry, BoardOverlay, parse_board_state
from .gamemodule import CounterData, counter_data

__all__ = ["LAYERS_FOR", "GridLayout", "LiveGame", "NoTerrain", "batch_for", "board_entries", "board_hex",
           "counted_phase_key", "fallback_notes", "game_clock", "game_map_from_boards", "game_map_from_snapshot",
           "known_terrain", "map_layout", "model_error", "phase_track", "piece_hex", "position_from_snapshot",
           "warn_once"]

log = logging.getLogger(__name__)
_warned: set[str] = set()
#: classify() per (name, gpid): a game's thousands of counters have a few hundred names.
_classify = functools.lru_cache(maxsize=8192)(classify)


def warn_once(notes: Iterable[str]) -> None:
    """Log each note as a warning the first time this process meets it (then at debug level, not at every press)."""
    for note in notes:
        if note in _warned:
            log.debug("%s", note)
        else:
            _warned.add(note)
            log.warning("%s", note)

_WIND_DIR_LAYERS = (3, 4, 5, 6, 1, 2)  # VASL's Wind Dir faces, layer 1…6 (see vasl.counters)
_FORCES = (WindForce.NO_WIND, WindForce.MILD_BREEZE, WindForce.HEAVY_WINDS)


class NoTerrain(BadInput):
    """The snapshot has no terrain (VASL's model absent) and no board map was given."""


@dataclass(frozen=True)
class LiveGame:
    """A Position read from VASSAL, with which piece is which fire or weather counter."""

    position: Position
    snapshot: Mapping[str, Any]
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

    @property
    def catalogue_source(self) -> str:
        """Which unit catalogue was used: the game's module (its name and file) or the bundled one (and why)."""
        return self.counters.description if self.counters is not None else ""


#: The counters whose layers the bridge reads (EC, Wind, Wind Dir, Gusts, Level markers, the Phase Track),
#: by gpid and BasicPiece name (a Phase Track VASL's Replace made carries another gpid, but the same name).
LAYER_KINDS = (FireCounter.EC, FireCounter.WIND, FireCounter.WIND_DIR, FireCounter.GUSTS, FireCounter.LEVEL)
LAYERS_FOR: frozenset[str] = frozenset(
    [g for g, k in FIRE_GPIDS.items() if k in LAYER_KINDS]
    + ["EC", "Wind", "Wind Dir", "Gusts", "Building", "Fort Bldg"]
    + [*PHASE_TRACK_GPIDS, *PHASE_TRACK_NAMES])


def _traits(piece: Mapping[str, Any]) -> list[Trait]:
    return [Trait(str(layer["type"]), str(layer["state"])) for layer in piece.get("layers") or ()]


def _snapshot_map(snapshot: Mapping[str, Any], map_name: str | None) -> Mapping[str, Any] | None:
    maps = [m for m in snapshot.get("maps") or () if isinstance(m, Mapping)]
    if map_name is not None:
        named = next((m for m in maps if m.get("name") == map_name), None)
        if named is not None:
            return named
    return maps[0] if maps else None


def _crop(value: Any) -> tuple[int, int, int, int] | None:
    if not isinstance(value, Mapping):
        return None
    try:
        return (int(value["x"]), int(value["y"]), int(value["width"]), int(value["height"]))
    except (KeyError, TypeError, ValueError):
        return None


def _board_entry(board: Mapping[str, Any], col: int, row: int) -> BoardEntry:
    """One snapshot board as a BoardEntry: VASL's ``getState()`` parsed, its overlay list preferred (it has
    preserveElevation); without VASL's part, the board's name and place only."""
    name = str(board.get("name", ""))
    plain = BoardEntry(col, row, name, bool(board.get("reversed")))
    vasl = board.get("vasl")
    if not isinstance(vasl, Mapping):
        return plain
    entry = None
    state = vasl.get("state")
    if isinstance(state, str) and state.strip():
        try:
            entry = parse_board_state(state, f"snapshot board {name!r} (VASL's getState)")
        except BadSavedGameError as e:
            log.debug("%s; using the snapshot's other board fields", e)
    if entry is None:
        entry = replace(plain, crop=_crop(vasl.get("crop")), version=str(vasl.get("version") or ""))
    listed = vasl.get("overlays")
    if isinstance(listed, list):
        # an SSR's own overlays (SSROverlay) come with its SSR string, as in VASL's saved state
        overlays = tuple(BoardOverlay(str(o.get("name") or ""), str(o.get("hex1") or ""), str(o.get("hex2") or ""),
                                      bool(o.get("preserveElevation")))
                         for o in listed if isinstance(o, Mapping) and not o.get("ssr"))
        entry = replace(entry, overlays=overlays)
    ssr = vasl.get("ssr")
    if isinstance(ssr, str):
        entry = replace(entry, ssr=ssr.strip())
    return entry


def board_entries(snapshot: Mapping[str, Any], map_name: str | None = None) -> tuple[BoardEntry, ...]:
    """The boards of a map of the snapshot (the one named *map_name*, else the first), with VASL's overlays and SSR
    terrain changes, as the ``.vsav`` reader gives them (:class:`~asl_vassal_bridge.vasl.vsav.BoardEntry`).

    A board that is not VASL's (``vasl`` null) has no overlays and its column and row from its pixel position.
    """
    m = _snapshot_map(snapshot, map_name)
    if m is None:
        return ()
    boards = [b for b in m.get("boards") or () if isinstance(b, Mapping)]
    xs = sorted({int(b.get("x", 0)) for b in boards})
    ys = sorted({int(b.get("y", 0)) for b in boards})
    return tuple(_board_entry(b, xs.index(int(b.get("x", 0))), ys.index(int(b.get("y", 0)))) for b in boards)


def fallback_notes(snapshot: Mapping[str, Any], map_name: str | None = None,
                   table: TerrainTable | None = None, boards_dir: Any = None) -> list[str]:
    """What the map's terrain misses, as ``position_from_vsav`` says it.  When the snapshot carries VASL's own
    terrain model: nothing (VASL's model has the SSR terrain changes and, since VASL 6.6.4, the overlays).
    Otherwise, per board: SSR tokens VASL cannot apply either (as *table*, VASL's SharedBoardMetadata, says)
    and which overlays the board archives' reader applies from *boards_dir*'s ``overlays/`` folder, and which
    not and why (:func:`~asl_vassal_bridge.vasl.overlay.entry_notes`)."""
    from ..vasl.overlay import entry_notes, overlay_dirs

    m = _snapshot_map(snapshot, map_name)
    if m is None or m.get("terrain"):
        return []
    dirs = overlay_dirs(boards_dir) if boards_dir is not None else None
    return [n for e in board_entries(snapshot, map_name) for n in entry_notes(e, table, dirs)]


def map_layout(snapshot_map: Mapping[str, Any]) -> MapLayout:
    """The boards of a snapshot map as a :class:`MapLayout`: each board's column and row from its pixel position,
    top row first (so a hex two boards share is named on the upper or left one), reversed as VASSAL says.

    >>> m = {"boards": [{"name": "22", "x": 400, "y": 1045}, {"name": "01", "x": 400, "y": 400}]}
    >>> [(b.name, b.x, b.y) for b in map_layout(m).boards]
    [('01', 0, 0), ('22', 0, 1)]
    """
    boards = [b for b in snapshot_map.get("boards") or () if isinstance(b, Mapping)]
    xs = sorted({int(b.get("x", 0)) for b in boards})
    ys = sorted({int(b.get("y", 0)) for b in boards})
    placed = [BoardPlacement(str(b.get("name", "")), xs.index(int(b.get("x", 0))), ys.index(int(b.get("y", 0))),
                             bool(b.get("reversed"))) for b in boards]
    return MapLayout(tuple(sorted(placed, key=lambda p: (p.y, p.x))))


@values.value(slots=False, eq=False)
class GridLayout(MapLayout):
    """A map's hex names as VASL's terrain model gives them: each hex of VASL's merged grid by its board and
    board-local name (``22M4``; plain ``M4`` on one board), whatever the boards' sizes, crops or places.

    Names VASL's grid does not hold (the upper board's name of a half hex merged with the lower board's) fall back
    to the boards' geometric layout.

    >>> g = GridLayout((BoardPlacement("01"), BoardPlacement("22", x=1)), {Hex.from_offset(16, 1): ("22", "A1")})
    >>> g.name(Hex.from_offset(16, 1)), g.parse("22A1") == Hex.from_offset(16, 1), g.board_hex(Hex.from_offset(16, 1))
    ('22A1', True, ('22', 'A1'))
    """

    grid: Mapping[Hex, tuple[str, str]] = values.field(default_factory=dict)

    @cached_property
    def _by_name(self) -> dict[str, Hex]:
        out: dict[str, Hex] = {}
        for h, (board, local) in self.grid.items():
            out.setdefault(self._join(board, local).upper(), h)
        return out

    def _join(self, board: str, local: str) -> str:
        return f"{board}{local}" if self.prefixed else local

    def name(self, h: Hex) -> str:
        on = self.grid.get(h)
        return self._join(*on) if on is not None else super().name(h)

    def parse(self, name: str) -> Hex:
        h = self._by_name.get(name.strip().upper())
        return h if h is not None else super().parse(name)

    def board_hex(self, h: Hex) -> tuple[str, str] | None:
        """The board and board-local hex name of map hex *h*, or None if it is on no board."""
        on = self.grid.get(h)
        if on is not None:
            return on
        return _geometric_board_hex(self, h)


def _geometric_board_hex(layout: MapLayout, h: Hex) -> tuple[str, str] | None:
    for b in layout.boards:
        local = b.to_local(h)
        if local is not None:
            return b.name, local.name
    return None


def board_hex(layout: MapLayout, h: Hex) -> tuple[str, str] | None:
    """The board and board-local hex name of map hex *h* (how VASSAL places a counter), or None."""
    if isinstance(layout, GridLayout):
        return layout.board_hex(h)
    return _geometric_board_hex(layout, h)


#: Terrain read from VASL's model, by the snapshot's ``terrain_key`` (a few games' worth; the newest last).
_TERRAIN: dict[str, GameMap] = {}
_TERRAIN_KEEP = 4


def known_terrain() -> str | None:
    """The key of the terrain read last (the extension then sends ``"same": true`` instead of its hexes)."""
    return next(reversed(_TERRAIN), None)


def _grid_hex(hx: Mapping[str, Any], shift: int = 0) -> Hex | None:
    """The map hex of a VASL hex from its place in VASL's merged grid (``hexGrid[col][row]``: in even columns,
    A, C…, index 0 is row 1; in odd ones it is the half hex of row 0), else from its name (older extensions).

    *shift* is 1 where VASL's grid has its long columns (a half hex at the top) at even indexes, as when a crop
    makes the board at its top left corner start with such a column: map columns are then one more, so that the
    long ones are the odd ones, as the core's are."""
    col, row = hx.get("col"), hx.get("row")
    if isinstance(col, int) and isinstance(row, int) and col >= 0 and row >= 0:
        col += shift
        return Hex.from_offset(col, row + (1 if col % 2 == 0 else 0))
    return None


def _long_even_columns(terrain: Mapping[str, Any]) -> bool:
    """VASL's grid holds one more hex in its even columns than in its odd ones ("TopLeftHalfHeight")."""
    height = terrain.get("height")
    return isinstance(height, int) and any(hx.get("row") == height and isinstance(hx.get("col"), int)
                                           and hx["col"] % 2 == 0 for hx in terrain.get("hexes") or ())


def _placed_on_grid(board: BoardPlacement, grid: Mapping[Hex, tuple[str, str]]) -> BoardPlacement:
    """*board* with the map column and row VASL's grid gives its A1 column and row 0 (a crop before it, or its own,
    moves them), read off one of its hexes; unchanged if none is found or the hex names another size of board."""
    for h, (name, local_name) in grid.items():
        if name != board.name:
            continue
        try:
            local = board.parse_local(local_name)
        except HexNameError:
            return board
        col, row = local.col, local.row
        if board.reversed:
            col, row = board.columns - 1 - col, (board.rows - row if col % 2 == 1 else board.rows + 1 - row)
        if (h.col - col) % 2:
            return board
        return replace(board, col_start=h.col - col, row_start=h.row - row)
    return board


def game_map_from_snapshot(snapshot: Mapping[str, Any], layout: MapLayout | None = None) -> GameMap | None:
    """The map's terrain from VASL's terrain model, or None if the snapshot carries none.

    Hexes are placed by their grid position in VASL's merged grid, never by their (board-local) names; names in
    the GameMap are board-qualified on a map of several boards (*layout*, by default the snapshot's boards).

    :raises NoTerrain: if VASL's model could not be read, or says "same" for terrain this process has not kept.
    """
    for m in snapshot.get("maps") or ():
        terrain = m.get("terrain")
        if not terrain:
            continue
        if "error" in terrain:
            raise NoTerrain(f"map {m.get('name')}: {terrain['error']}"
                            + ("; give the board archives' folder (asl-fire bridge --boards DIR)"
                               if terrain.get("missing") else ""))
        key = terrain.get("key")
        if terrain.get("same"):
            known = _TERRAIN.get(str(key))
            if known is None:
                raise NoTerrain(f"map {m.get('name')}: VASSAL sent no terrain (same as key {key}), and this process "
                                "has not read it; ask again without a known terrain key")
            return known
        gm = _read_terrain(m, terrain, layout if layout is not None and layout.boards else map_layout(m))
        if isinstance(key, str):
            _TERRAIN.pop(key, None)
            _TERRAIN[key] = gm
            while len(_TERRAIN) > _TERRAIN_KEEP:
                del _TERRAIN[next(iter(_TERRAIN))]
        return gm
    return None


def _read_terrain(m: Mapping[str, Any], terrain: Mapping[str, Any], layout: MapLayout) -> GameMap:
    names = {b.name for b in layout.boards}
    map_name = str(m.get("name", "map"))
    placed: list[tuple[Hex, Mapping[str, Any]]] = []
    grid: dict[Hex, tuple[str, str]] = {}
    shift = 1 if _long_even_columns(terrain) else 0
    for hx in terrain.get("hexes") or ():
        local = str(hx.get("name"))
        board = hx.get("board")
        if board is not None and names and board not in names:
            raise NoTerrain(f"map {map_name}: VASL's hex {local} lies on board {board!r}, which is not one of the "
                            f"map's boards ({', '.join(sorted(names))})")
        h = _grid_hex(hx, shift)
        if h is None:
            try:
                h = layout.parse(f"{board}{local}" if layout.prefixed and board else local)
            except ValueError:
                continue
        if isinstance(board, str):
            grid[h] = (board, local)
        elif layout.boards:
            continue  # VASL's grid beyond every board (the empty places of a layout, a crop's remainder)
        placed.append((h, hx))
    if grid and not isinstance(layout, GridLayout):
        layout = GridLayout(tuple(_placed_on_grid(b, grid) for b in layout.boards), grid)
    hexes: dict[Hex, HexInfo] = {}
    buildings: list[Building] = []
    for h, hx in placed:
        name = layout.name(h)
        locs = hx.get("locations") or []
        center = next((loc for loc in locs if loc.get("center")), locs[0] if locs else None)
        tname = str(center.get("terrain")) if center else "Open Ground"
        try:
            mp = mapping_for(tname)
        except UnknownTerrainError as e:
            raise NoTerrain(f"hex {name}: VASL terrain {tname!r} is not known to the fire rules ({e})") from None
        building_id = None
        if mp.is_building and mp.material is not None and mp.kind is not None:
            building_id = f"{map_name}:{name}"  # one per hex: board-qualified, so each board's are its own
            upper = max(0, len(locs) - 1)
            buildings.append(Building(building_id, mp.material, mp.kind, levels=upper if upper else mp.levels,
                                      rooftop=mp.rooftop, rowhouse=mp.rowhouse))
        terrain_here = mp.terrain if not mp.hexside else Terrain.OPEN_GROUND
        pixels = hx.get("pixels")
        if isinstance(pixels, Mapping) and pixels:
            # the terrain VASL draws over the hex's pixels (sent for road and woods hexes): B25.1's Woods-Road
            shares, road = drawn_shares({str(n): int(c) for n, c in pixels.items()})
            terrain_here = woods_road(terrain_here, [(n, s) for n, s in shares if n != tname],
                                      terrain_here is Terrain.ROAD or road > ROAD_SHARE)
        hexes[h] = HexInfo(terrain_here, int(hx.get("elevation") or 0), building_id)
    return GameMap.from_hexes(hexes, buildings, layout, str(m.get("name", "")))


def piece_hex(piece: Mapping[str, Any], layout: MapLayout) -> Hex | None:
    """The map hex of a snapshot piece: its board (found by VASSAL from its position) and board-local hex, else its
    VASSAL location name; None if neither names a hex of the layout."""
    board, local = piece.get("board"), piece.get("hex")
    names = []
    if isinstance(local, str) and local:
        names.append(f"{board}{local}" if layout.prefixed and isinstance(board, str) else local)
    names.append(str(piece.get("location") or ""))
    for name in names:
        try:
            return layout.parse(name)
        except ValueError:
            continue
    return None


_HEX_OF: list[Any] = [None, {}]  # [the layout, {(board, hex, location): Hex | None}]


def _unit_hex(board: Any, local: Any, location: Any, layout: MapLayout) -> Hex | None:
    """:func:`piece_hex` by the piece's board, hex and location names, kept while the layout is the same object
    (units seldom move between presses)."""
    if _HEX_OF[0] is not layout:
        _HEX_OF[0], _HEX_OF[1] = layout, {}
    cache: dict[tuple[Any, Any, Any], Hex | None] = _HEX_OF[1]
    key = (board, local, location)
    if key not in cache:
        if len(cache) > 1 << 16:
            cache.clear()
        cache[key] = piece_hex({"board": board, "hex": local, "location": location}, layout)
    return cache[key]


def _off_every_board(piece: Mapping[str, Any]) -> bool:
    return "board" in piece and piece.get("board") is None


def model_error(snapshot: Mapping[str, Any]) -> str | None:
    """Why VASL's terrain model in the snapshot could not be read (the extension's ``error``, e.g. a member the
    running VASL offers under neither its 6.7.x nor its 2020 name), or None if it could or there is none."""
    for m in snapshot.get("maps") or ():
        terrain = m.get("terrain") if isinstance(m, Mapping) else None
        if isinstance(terrain, Mapping) and "error" in terrain:
            return f"map {m.get('name')}: {terrain['error']}"
    return None


def _no_terrain_reason(snapshot: Mapping[str, Any]) -> str:
    """Why the snapshot has no terrain, naming the board VASL could not load if VASL says which."""
    for m in snapshot.get("maps") or ():
        for b in m.get("boards") or ():
            vasl = b.get("vasl") if isinstance(b, Mapping) else None
            if isinstance(vasl, Mapping) and vasl.get("legacy"):
                return (f"board {b.get('name')} of map {m.get('name')} has no LOS data, so VASL could not load its "
                        "terrain (VASL's LOS is off for the whole map): give the board archives' folder "
                        "(asl-fire bridge --boards DIR) or use a board with LOS data")
    return ("the snapshot has no terrain (VASL's terrain model is not present): "
            "give the board archives' map instead (asl-fire bridge --boards DIR)")


def game_map_from_boards(snapshot: Mapping[str, Any], vasl: VaslSetup) -> GameMap:
    """The first map's terrain read from VASL's board archives (no VASL Java model needed).

    *vasl* names the boards folder and where VASL's terrain types come from (the module, else a
    SharedBoardMetadata.xml beside the folder: ``VaslSetup(None, folder)``).
    Boards are placed left to right, top to bottom by their pixel position
    in the snapshot, cropped as VASL crops them (each board's ``vasl`` part,
    :func:`board_entries`: a cropped board keeps the hexes VASL's cropped
    model holds, and the boards lie where VASL's merged grid puts them); an
    archive is found as ``NAME``, ``bdNAME`` or ``bd0NAME``.  Each board's SSR
    terrain changes and overlays (archives in the folder's ``overlays/``) are
    applied as VASL 6.7.x's LOS model applies them
    (:func:`~asl_vassal_bridge.vasl.overlay.apply_entry`).

    :raises NoTerrain: if the snapshot has no boards, an archive is missing, or VASL builds no LOS map for
        the boards' crops (the message names the board and its crop).
    :raises VaslFileError: if VASL's terrain types are nowhere to be found.
    """
    from ..vasl.board import game_map, read_board
    from ..vasl.crop import CropError
    from ..vasl.overlay import apply_entry

    boards_dir = vasl.boards
    if boards_dir is None:
        raise NoTerrain("no boards folder to read terrain from: give --boards DIR or --vasl PATH/VASL.vmod")
    maps = list(snapshot.get("maps") or ())
    boards = list(maps[0].get("boards") or ()) if maps else []
    if not boards:
        raise NoTerrain("the snapshot has no boards to read terrain from")
    placed = []
    crops = []
    table = None
    entries = board_entries(snapshot, maps[0].get("name"))
    named = [replace(e, name=str(b.get("name", ""))) for b, e in zip(boards, entries, strict=False)]
    for entry in sorted(named, key=lambda e: (e.y, e.x)):
        name = entry.name
        cands = [name, f"bd{name}", f"bd{name.zfill(2)}"]
        path = next((boards_dir / c for c in cands if (boards_dir / c).is_file()), None)
        if path is None:
            raise NoTerrain(f"board {name!r} is not in {boards_dir} (looked for {', '.join(cands)})")
        table = table or vasl.terrain_table()
        placed.append((apply_entry(read_board(path, table), entry, boards_dir)[0], entry.placement()))
        crops.append(entry.crop)
    try:
        return game_map(placed, str(maps[0].get("name", "")), crops)
    except CropError as e:
        raise NoTerrain(f"map {maps[0].get('name')}: {e}") from None


def counted_phase_key(processed: str, phase: Phase) -> str | None:
    """The bridge's own count: the key ``PT<n> <phase>`` of *phase* after the last processed one, or None for
    a repeat.  A Wind change (RPh) after an AFPh upkeep starts the next Player Turn; the same phase twice in a
    row is a repeat.

    >>> counted_phase_key("PT1 AFPh", Phase.RPH), counted_phase_key("PT2 RPh", Phase.AFPH)
    ('PT2 RPh', 'PT2 AFPh')
    """
    if not processed:
        return f"PT1 {phase.value}"
    try:
        head, last = processed.split(" ", 1)
        n = int(head[2:])
    except ValueError:
        return f"PT1 {phase.value}"
    if last == phase.value:
        return None
    if phase is Phase.RPH:
        return f"PT{n + 1} {phase.value}"
    return f"PT{n} {phase.value}"


def _clock_from_processed(processed: str, phase: Phase) -> Clock:
    """The bridge's clock: Player Turn n of the processed marker ``PT<n> <phase>``."""
    n = 1
    if processed.startswith("PT"):
        try:
            n = int(processed[2:].split()[0])
        except (ValueError, IndexError):
            n = 1
    return Clock(turn=(n + 1) // 2, half=1 if n % 2 == 1 else 2, phase=phase)


def phase_track(snapshot: Mapping[str, Any]) -> PhaseTrack | None:
    """What VASL's Phase Track on the maps shows, or None when no map has one.

    Several Phase Tracks are fine while they all show the same Turn, Player
    Turn and phase; if they disagree the bridge cannot know which one the
    players follow.

    :raises BadInput: for a Phase Track whose layers do not say (or were not
        sent), or for Phase Tracks that disagree.
    """
    found: list[tuple[Mapping[str, Any], PhaseTrack]] = []
    for p in snapshot.get("pieces") or ():
        basic = p.get("basic_name")
        if not is_phase_track(basic, p.get("gpid")):
            continue
        try:
            found.append((p, phase_track_from_piece(_traits(p), str(basic) if basic else None)))
        except BadCounterState as e:
            raise BadInput(f"piece {p.get('id')} ({p.get('name')}) on map {p.get('map')}: {e}") from None
    if len({t for _p, t in found}) > 1:
        shown = "; ".join(f"{p.get('name')} on map {p.get('map')} at {p.get('x')},{p.get('y')}: {t}" for p, t in found)
        raise BadInput(f"the Phase Tracks on the maps disagree ({shown}); remove all but one (nothing was rolled)")
    return found[0][1] if found else None


def game_clock(snapshot: Mapping[str, Any], phase: Phase) -> tuple[Clock, PhaseTrack | None, str]:
    """The Clock for running *phase*: Game Turn and Player Turn from VASL's Phase Track, else the bridge's count.

    Returns the Clock, the Phase Track read (None without one) and one line
    saying which.  The phase is always *phase*, the one being run: a Phase
    Track showing another phase is named in the line.
    """
    track = phase_track(snapshot)
    if track is None:
        processed = str((snapshot.get("game") or {}).get("processed") or "")
        clock = _clock_from_processed(counted_phase_key(processed, phase) or processed, phase)
        return clock, None, (f"clock: {clock} from the bridge's own count (last processed: {processed or 'none'}; "
                             "no VASL Phase Track on the maps)")
    clock = Clock(track.turn, track.half, phase)
    line = f"clock: {clock} from VASL's Phase Track ({track})"
    if track.phase is not phase:
        line += f"; it shows the {track.phase.value}, the bridge runs the {phase.value}"
    return clock, track, line


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
                           units_near_fires: bool = False) -> LiveGame:
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
    archives *vasl* names (:func:`game_map_from_boards`, SSR terrain changes
    and overlays applied as VASL 6.7.x applies them).  The notes name the
    overlays applied, those not applied and why, and SSR tokens VASL cannot
    apply either (:func:`fallback_notes`).

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
    warn_once(notes)
    if gm is None:
        raise NoTerrain(_no_terrain_reason(snapshot))
    if clock is None:
        clock, _track, clock_source = game_clock(snapshot, phase)
    else:
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
    kind_of = {pid: classify(p.get("name"), p.get("gpid")) for pid, p in pieces.items()}  # once per piece
    map_name = None
    for p in pieces.values():
        kind = kind_of[str(p["id"])]
        if kind is None:
            continue
        h = piece_hex(p, gm.layout)
        try:
            if kind is FireCounter.EC:
                env = replace(env, ec=ec_from_piece(_traits(p)))
                ids["ec"] = str(p["id"])
            elif kind is FireCounter.WIND_DIR:
                direction = wind_direction_from_piece(_traits(p))
                ids["wd"] = str(p["id"])
            elif kind is FireCounter.WIND:
                force = wind_force_from_piece(_traits(p))
                ids["w"] = str(p["id"])
            elif kind is FireCounter.GUSTS:
                gusts = gusts_from_piece(_traits(p))
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
                levels[stack] = level_from_piece(_traits(p))
            except BadCounterState as e:
                raise BadInput(f"piece {p.get('id')} ({p.get('name')}) at {p.get('location')}: {e}") from None
    fire_stacks: dict[tuple[Location, FireKind], set[tuple[Any, Any, Any]]] = {}
    wreck_stacks: dict[tuple[Any, Any, Any], str] = {}
    for p in pieces.values():
        if kind_of[str(p["id"])] in (FireCounter.WRECK, FireCounter.BURNT_OUT_WRECK):
            wreck_stacks.setdefault((p.get("map"), p.get("x"), p.get("y")), str(p["id"]))
    wreck_blaze: dict[tuple[Any, Any, Any], str] = {}
    for p in pieces.values():
        kind = kind_of[str(p["id"])]
        if kind not in (FireCounter.FLAME, FireCounter.BLAZE, FireCounter.BUILDING_BLAZE):
            continue
        if _off_every_board(p):
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
                fire_stacks.setdefault((Location(h, level), FireKind.BLAZE), set()).add(stack)
            continue
        fk = FireKind.FLAME if kind is FireCounter.FLAME else FireKind.BLAZE
        loc = _location(gm, h, levels.get(stack))
        fire_pieces.setdefault((loc, fk), []).append(str(p["id"]))
        fire_stacks.setdefault((loc, fk), set()).add(stack)
    wrecks: list[Wreck] = []
    wreck_pieces: dict[Location, tuple[str, str | None]] = {}
    for stack, wid in wreck_stacks.items():
        w = pieces[wid]
        h = piece_hex(w, gm.layout)
        if h is None or h not in gm:
            continue
        loc = _location(gm, h, levels.get(stack))
        burnt = kind_of[wid] is FireCounter.BURNT_OUT_WRECK
        blaze = None if burnt else wreck_blaze.get(stack)
        wrecks.append(Wreck(loc, burning=blaze is not None, name=str(w.get("name") or "Wreck")))
        wreck_pieces[loc] = (wid, blaze)

    def locate(p: Mapping[str, Any]) -> Location | None:
        h = _unit_hex(p.get("board"), p.get("hex"), p.get("location"), gm.layout)
        if h is None or h not in gm:
            return None
        return _location(gm, h, levels.get((p.get("map"), p.get("x"), p.get("y"))))

    unit_pieces = snapshot.get("pieces") or ()
    if units_near_fires:
        burning = {loc.hex for loc, _k in fire_pieces} | {w.location.hex for w in wrecks}
        near = burning | {n for h in burning for _d, n in h.neighbours()}
        unit_pieces = [p for p in unit_pieces
                       if _unit_hex(p.get("board"), p.get("hex"), p.get("location"), gm.layout) in near]
    units = read_units(unit_pieces, locate, data.catalogue, data.counters)
    for (loc, fk), _ids in fire_pieces.items():
        # a Flame stacked with VASL's Pin appeared this Player Turn (B25.15)
        new = fk is FireKind.FLAME and bool(fire_stacks[(loc, fk)] & pins)
        fires.append(Fire(loc, fk, since=clock.player_turn if new else 0))
    if force is not WindForce.NO_WIND and direction is None:
        raise BadInput(f"the Wind counter shows {force.label} but no Wind Dir counter is on the map "
                       "(B25.64: a wind blows from a direction); place VASL's Wind Dir counter")
    wind = Wind(force, direction)
    env = replace(env, wind=wind, gusts=gusts)
    pos = Position(gm, env, clock, tuple(fires), tuple(wrecks), tuple(u.unit for u in units),
                   name=str((snapshot.get("module") or {}).get("name", "")), notes="\n".join(notes))
    return LiveGame(pos, snapshot, {k: tuple(v) for k, v in fire_pieces.items()}, ids["ec"], ids["wd"], ids["w"],
                    ids["g"], pieces, map_name, board_entries(snapshot, gm.name or None), tuple(notes),
                    {u.unit.id: u for u in units}, wreck_pieces, data, clock_source)


def _image_matches(image: str, kind: str) -> bool:
    base = image.rsplit("/", 1)[-1].lower().split(".")[0]
    if kind == "wind-dir":
        return base.startswith("wind") and base[4:].isdigit()
    if kind == "wind":
        return base in ("windno", "windmb", "windhw")
    if kind == "gust":
        return base in ("gust", "gustb")
    return base.startswith("ec")


def _layer_change(piece: Mapping[str, Any], kind: str, value: int) -> dict[str, Any] | None:
    for i, lay in enumerate(embellishment_layers(_traits(piece))):
        imgs = list(lay.images)
        if imgs and all(_image_matches(im, kind) for im in imgs) and len(imgs) >= value:
            if lay.value == value:
                return None
            return {"id": piece["id"], "index": i, "value": value}
    return None


def batch_for(game: LiveGame, new: Position, *, phase_key: str | None, session: int | None,
              roll_texts: Sequence[str], header: Iterable[str] = (), summary: Iterable[str] = ()) -> dict[str, Any]:
    """The batch that turns the game's Position into *new*: removals, placements, layer changes, chat."""
    old = game.position
    expect: dict[str, str] = {}
    remove: list[str] = []
    place: list[dict[str, Any]] = []
    layers: list[dict[str, Any]] = []
    notes: list[str] = []
    from .marking import fire_changes

    fc = fire_changes(game, new)
    remove += fc.remove
    expect.update(fc.expect)
    place += fc.place
    notes += fc.notes
    ow, nw = old.environment.wind, new.environment.wind
    changes: list[tuple[str, str, int]] = []
    if game.wind_piece and nw.force != ow.force:
        changes.append((game.wind_piece, "wind", _FORCES.index(nw.force) + 1))
    if game.wind_dir_piece and nw.direction is not None and nw.direction != ow.direction:
        changes.append((game.wind_dir_piece, "wind-dir", _WIND_DIR_LAYERS.index(int(nw.direction)) + 1))
    if game.gusts_piece and new.environment.gusts != old.environment.gusts:
        changes.append((game.gusts_piece, "gust", 1 if new.environment.gusts else 2))
    if game.ec_piece and new.environment.ec != old.environment.ec:
        order = (EC.SNOW, EC.MUD, EC.WET, EC.MOIST, EC.MODERATE, EC.DRY, EC.VERY_DRY)
        changes.append((game.ec_piece, "ec", order.index(new.environment.ec) + 1))
    for pid, what, value in changes:
        ch = _layer_change(game.pieces[pid], what, value)
        if ch is not None:
            layers.append(ch)
            expect[pid] = str(game.pieces[pid]["rev"])
    batch: dict[str, Any] = {
        "phase": phase_key,
        "session": session,
        "expect": expect,
        "chat": list(header),
        "rolls": [{"text": t} for t in roll_texts],
        "remove": remove,
        "place": place,
        "layers": layers,
        "summary": list(summary) + notes,
    }
    return batch


def explain_rolls(rolls: Sequence[tuple[str, Sequence[int]]], report: Report) -> list[str]:
    """For each die roll made (in order), the report line that used it ("" if none did)."""
    checks = [e for e in report.events if e.roll is not None]
    out: list[str] = []
    j = 0
    for _purpose, faces in rolls:
        text = ""
        if j < len(checks):
            r = checks[j].roll
            assert r is not None
            rf = [r.roll.colored] + ([r.roll.white] if r.roll.white is not None else [])
            if list(faces) == rf:
                text = checks[j].describe()
                j += 1
        out.append(text)
    return out
