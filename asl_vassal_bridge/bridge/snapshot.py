"""Step 1 of a press: the snapshot's maps read — boards, hex names and terrain (VASL's model or the board archives).

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
missing.  :func:`~.position.position_from_snapshot` says what was applied and what not
in ``Position.notes``, :attr:`~.position.LiveGame.notes` and a logged warning, as
``position_from_vsav`` does.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..core import values
from ..core.errors import BadInput
from ..core.hexes import HEX_HEIGHT, HEX_WIDTH, BoardPlacement, Hex, HexNameError, MapLayout
from ..core.position import GameMap, HexInfo
from ..core.terrain import Building, Terrain, UnknownTerrainError
from ..core.values import replace
from ..vasl.setup import VaslSetup
from ..vasl.terrain import ROAD_SHARE, TerrainTable, drawn_shares, mapping_for, woods_road
from ..vasl.traits import Trait
from ..vasl.vsav import MAX_OVERLAYS, MAX_SSR_TOKENS, BadSavedGameError, BoardEntry, BoardOverlay, parse_board_state

if TYPE_CHECKING:
    from ..vasl.board import VaslModel

__all__ = ["GridLayout", "NoTerrain", "board_entries", "board_hex", "fallback_notes", "game_map_from_boards",
           "game_map_from_snapshot", "known_terrain", "map_layout", "model_error", "piece_hex", "snapshot_vasl_model",
           "warn_once"]

log = logging.getLogger(__name__)
_warned: set[str] = set()


def warn_once(notes: Iterable[str]) -> None:
    """Log each note as a warning the first time this process meets it (then at debug level, not at every press)."""
    for note in notes:
        if note in _warned:
            log.debug("%s", note)
        else:
            _warned.add(note)
            log.warning("%s", note)


class NoTerrain(BadInput):
    """The snapshot has no terrain (VASL's model absent) and no board map was given."""


def piece_traits(piece: Mapping[str, Any]) -> list[Trait]:
    """A snapshot piece's layers as VASSAL traits (type and state)."""
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
        if len(listed) > MAX_OVERLAYS:  # as a saved game may name (a game VASSAL loaded from an opponent's file)
            raise BadInput(f"snapshot board {name!r}: {len(listed):,} overlays; a game may name at most "
                           f"{MAX_OVERLAYS}")
        # an SSR's own overlays (SSROverlay) come with its SSR string, as in VASL's saved state
        overlays = tuple(BoardOverlay(str(o.get("name") or ""), str(o.get("hex1") or ""), str(o.get("hex2") or ""),
                                      bool(o.get("preserveElevation")))
                         for o in listed if isinstance(o, Mapping) and not o.get("ssr"))
        entry = replace(entry, overlays=overlays)
    ssr = vasl.get("ssr")
    if isinstance(ssr, str):
        if len(ssr.split()) > MAX_SSR_TOKENS:
            raise BadInput(f"snapshot board {name!r}: more than {MAX_SSR_TOKENS} SSR terrain changes; a board may "
                           f"have at most {MAX_SSR_TOKENS}")
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
    model = snapshot_vasl_model(snapshot, map_name)
    return [n for e in board_entries(snapshot, map_name) for n in entry_notes(e, table, dirs, model)]


def snapshot_vasl_model(snapshot: Mapping[str, Any], map_name: str | None = None) -> VaslModel:
    """Which terrain model the running VASL builds for the map (the extension's ``maps[].vasl_model``, told from
    what VASL's classes offer): ``"6.7"`` (VASL 6.7.x) or ``"2020"`` (the VASL of 2020); ``"6.7"`` where the
    snapshot does not say (VASL's model absent, or an extension older than the field).

    >>> snapshot_vasl_model({"maps": [{"name": "Main Map", "vasl_model": "2020"}]})
    '2020'
    >>> snapshot_vasl_model({"maps": [{"name": "Main Map", "vasl_model": None}]})
    '6.7'

    :raises NoTerrain: for a model this reader does not know (one line naming the map and the value).
    """
    from ..vasl.board import vasl_model

    m = _snapshot_map(snapshot, map_name)
    value = m.get("vasl_model") if m is not None else None
    if value is None:
        return "6.7"
    try:
        return vasl_model(value, f"map {m.get('name') if m is not None else None}: the snapshot's vasl_model")
    except ValueError as e:
        raise NoTerrain(str(e)) from None


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
    #: why the names are not VASL's own, or its terrain not the printed hexes' (:func:`_printed_names`), or ""
    note: str = ""
    #: boards whose hexes VASL's grid lays between the printed ones (the board archives read them right)
    between: tuple[str, ...] = ()

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


def _printed_names(m: Mapping[str, Any], grid: Mapping[Hex, tuple[str, str]], shift: int
                   ) -> tuple[dict[Hex, tuple[str, str]], list[str], list[str]]:
    """The hexes of VASL's model, on a map of several boards, whose name is not the one VASSAL's grid prints where
    the hex lies (its centre in VASL's map, on the board whose bounds hold it, turned and cropped as VASSAL shows
    the board: ``ASLBoard.localCoordinates``), each with that printed (board, name); and the boards VASL names
    otherwise.  VASL 6.7.x places a board below a row crop at ``Map.gridToHex`` of its corner (a row crop of
    322 px: grid row 4, 322 / 64.5 = 4.99) and names its hexes one row up over unchanged pixels
    (``BoardArchive.addLOSDatatoVASLMap``, index id 60235390895; docs/bridge.md).  A lone board is left as VASL
    names it (a pixel crop: VASL 6.7.x's names, which the board archive reader follows too).  The third list: the
    boards most of whose hexes in VASL's grid lie more than a quarter hex off the printed hex (a crop of pixel rows
    beside another board: VASL's grid then reads terrain between the printed hexes)."""
    boards = [b for b in m.get("boards") or () if isinstance(b, Mapping)]
    if len(boards) < 2:
        return {}, [], []
    ox = min(int(b.get("x", 0)) for b in boards)
    oy = min(int(b.get("y", 0)) for b in boards)
    out: dict[Hex, tuple[str, str]] = {}
    misnamed: list[str] = []
    off: dict[str, list[int]] = {}
    # each board: its corner, size, whether reversed, the crop's offset and name (read once, not once per hex)
    rects = []
    for b in boards:
        crop = _crop((b.get("vasl") or {}).get("crop")) if isinstance(b.get("vasl"), Mapping) else None
        rects.append((int(b.get("x", 0)) - ox, int(b.get("y", 0)) - oy, int(b.get("width", 0)),
                      int(b.get("height", 0)), bool(b.get("reversed")),
                      (max(crop[0], 0), max(crop[1], 0)) if crop is not None else (0, 0), str(b.get("name", ""))))
    for h, (board, local) in grid.items():
        mx, my = h.pixel()
        mx -= shift * HEX_WIDTH
        on = next((r for edge in (0, 2) for r in rects  # then the half hexes on a board's far edges
                   if 0 <= mx - r[0] < r[2] + edge and 0 <= my - r[1] < r[3] + edge), None)
        if on is None:
            continue
        bx, by, width, height, reversed_, (cx, cy), name = on
        lx, ly = mx - bx, my - by
        if reversed_:
            lx, ly = width - lx, height - ly
        lx, ly = lx + cx, ly + cy
        at = Hex.from_pixel(lx, ly)
        printed = (name, at.name)
        px, py = at.pixel()
        count = off.setdefault(printed[0], [0, 0])
        count[0] += 1
        count[1] += (px - lx) ** 2 + (py - ly) ** 2 > (HEX_HEIGHT / 4) ** 2
        if printed != (board, local.upper()):
            out[h] = printed
            if board not in misnamed:
                misnamed.append(board)
    return out, misnamed, [b for b, (n, far) in off.items() if 2 * far > n]


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
    note = ""
    between: tuple[str, ...] = ()
    if grid and not isinstance(layout, GridLayout):
        printed, misnamed, far = _printed_names(m, grid, shift)
        if far:
            between = tuple(far)
            note = (f"map {map_name}: VASL's terrain model lays its hexes between the printed hexes of board"
                    f"{'s' if len(far) > 1 else ''} {', '.join(far)} (VASL's map-wide grid does not fit a crop of "
                    "pixel rows beside another board), so it reads their terrain off the hexes VASSAL shows")
        elif printed:
            grid.update(printed)
            note = (f"map {map_name}: VASL's terrain model names the hexes of board{'s' if len(misnamed) > 1 else ''} "
                    f"{', '.join(misnamed)} otherwise than VASSAL prints them ({len(printed)} hexes; VASL 6.7.x "
                    "places a board below a row crop one row up): each hex is read by its place on the map, "
                    "named as VASSAL names it")
        layout = GridLayout(tuple(_placed_on_grid(b, grid) for b in layout.boards), grid, note, between)
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


def unit_hex(board: Any, local: Any, location: Any, layout: MapLayout) -> Hex | None:
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


def off_every_board(piece: Mapping[str, Any]) -> bool:
    return "board" in piece and piece.get("board") is None


def model_error(snapshot: Mapping[str, Any]) -> str | None:
    """Why VASL's terrain model in the snapshot could not be read (the extension's ``error``, e.g. a member the
    running VASL offers under neither its 6.7.x nor its 2020 name), or None if it could or there is none."""
    for m in snapshot.get("maps") or ():
        terrain = m.get("terrain") if isinstance(m, Mapping) else None
        if isinstance(terrain, Mapping) and "error" in terrain:
            return f"map {m.get('name')}: {terrain['error']}"
    return None


def no_terrain_reason(snapshot: Mapping[str, Any]) -> str:
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


def game_map_from_boards(snapshot: Mapping[str, Any], vasl: VaslSetup, model: VaslModel | None = None) -> GameMap:
    """The first map's terrain read from VASL's board archives (no VASL Java model needed), as *model*'s VASL
    reads them (:data:`~asl_vassal_bridge.vasl.board.VaslModel`; by default the one the running VASL builds,
    :func:`snapshot_vasl_model`, so the fallback reads what that VASL's own model would hold).

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
    reading = model if model is not None else snapshot_vasl_model(snapshot, maps[0].get("name"))
    named = [replace(e, name=str(b.get("name", ""))) for b, e in zip(boards, entries, strict=False)]
    for entry in sorted(named, key=lambda e: (e.y, e.x)):
        name = entry.name
        from ..vasl.names import file_in

        cands = [name, f"bd{name}", f"bd{name.zfill(2)}"]
        path = next((p for c in cands if (p := file_in(boards_dir, c, "board")).is_file()), None)
        if path is None:
            raise NoTerrain(f"board {name!r} is not in {boards_dir} (looked for {', '.join(cands)})")
        table = table or vasl.terrain_table()
        placed.append((apply_entry(read_board(path, table, model=reading), entry, boards_dir)[0], entry.placement()))
        crops.append(entry.crop)
    try:
        return game_map(placed, str(maps[0].get("name", "")), crops)
    except CropError as e:
        raise NoTerrain(f"map {maps[0].get('name')}: {e}") from None


