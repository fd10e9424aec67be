"""A VASL saved game and its board archives → a core :class:`~asl_vassal_bridge.core.position.Position`.

Terrain comes from the board archives named in the save's ``bd`` line
(``BOARDS_DIR/bd01`` …, decoded by :mod:`.board`), with each board's SSR
terrain changes applied as VASL's LOS model applies them (:mod:`.ssr`);
fires, wrecks, EC and wind come from VASL's own counters (:mod:`.counters`):

* Flame → a Flame; a Flame with VASL's PIN counter in its stack appeared
  this Player Turn (VASL's Flame places that PIN, as B25.15 asks players to
  mark new Flames): ``since`` = the Position's Player Turn.
* Blaze → a Blaze; on a Wreck it makes a burning Wreck instead (B25.14);
  an n-level Blaze burns levels 0…n−1 of its building hex (B25.2).
* A Level marker in the stack puts the stack's fires on that level.
* EC, Wind, Wind Dir and Gusts counters → the Environment (B25.5, B25.63–.65).
* Unit counters → the Position's units (:mod:`.units`: squads, half-squads,
  crews, leaders, heroes, vehicles, guns with side, broken, pinned, berserk
  and Melee from their counters and stacks), by the bundled catalogue.

Pieces VASSAL hides from a player never reach here (see :mod:`.vsav`).

Map pixels: VASL's map keeps an edge of ``edgeWidth``×``edgeHeight`` pixels
(400×400 in VASL's module) around the boards; each geomorphic board is
1800×645 pixels and boards abut, so a board's GG column is the next board's A.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ..core.environment import EC, Environment, Wind, WindForce
from ..core.hexes import BoardPlacement, Hex, HexNameError, MapLayout
from ..core.position import Fire, FireKind, GameMap, Location, OffBoardError, Position, Smoke, Unit, Wreck
from . import counters as c
from .board import VaslBoard, VaslModel, default_terrain_table, game_map, place_boards, read_board
from .counters import FireCounter
from .crop import Crop, CropError
from .overlay import apply_entry
from .safe import VaslFileError
from .terrain import TerrainTable
from .vsav import BadSavedGameError, BoardEntry, SavedGame, SavedPiece, read_vsav

__all__ = [
    "DEFAULT_EDGE",
    "MapFrame",
    "PlacedPiece",
    "find_archive",
    "locate_pieces",
    "position_from_game",
    "position_from_vsav",
]

#: VASL's map edge (ASLMap edgeWidth, edgeHeight) in pixels.
DEFAULT_EDGE = (400, 400)


@dataclass(frozen=True)
class MapFrame:
    """Where the boards lie on VASL's map, to turn map pixels into hexes.

    Boards abut (VASSAL places a board right of the boards before it in its
    row and below those above it in its column); a cropped board shows only
    its crop rectangle (*crops*: x, y, width, height in board pixels, −1 for
    "to the board's edge") and holds only the hexes VASL's cropped model
    keeps; a reversed board is turned 180° (VASL
    ``ASLBoard.localCoordinates``).
    """

    boards: tuple[tuple[VaslBoard, BoardPlacement], ...]
    edge: tuple[int, int] = DEFAULT_EDGE
    crops: tuple[Crop | None, ...] = ()

    def _crop(self, i: int) -> Crop | None:
        return self.crops[i] if i < len(self.crops) else None

    def _size(self, i: int) -> tuple[int, int]:
        crop = self._crop(i)
        los = self.boards[i][0].los
        w = crop[2] if crop is not None and crop[2] > 0 else los.grid_width
        h = crop[3] if crop is not None and crop[3] > 0 else los.grid_height
        return w, h

    @cached_property
    def placed(self) -> tuple[tuple[VaslBoard, BoardPlacement], ...]:
        """The boards with each one's size, hex names, map columns and rows, and the hexes a crop keeps
        (:func:`~.board.place_boards`)."""
        return place_boards(self.boards, self.crops)

    def origin(self, i: int) -> tuple[int, int]:
        """Map pixel of board *i*'s top-left corner."""
        pl = self.boards[i][1]
        ox = self.edge[0] + sum(self._size(j)[0] for j, (_, p) in enumerate(self.boards) if p.y == pl.y and p.x < pl.x)
        oy = self.edge[1] + sum(self._size(j)[1] for j, (_, p) in enumerate(self.boards) if p.x == pl.x and p.y < pl.y)
        return ox, oy

    def hex_at(self, x: int, y: int) -> Hex | None:
        """The map hex under map pixel (x, y), or None if no board (or no hex a crop keeps) is there."""
        for i, (board, pl) in enumerate(self.placed):
            w, h = self._size(i)
            ox, oy = self.origin(i)
            lx, ly = x - ox, y - oy
            if not (-1 <= lx <= w + 1 and -1 <= ly <= h + 1):
                continue
            if pl.reversed:
                lx, ly = w - lx, h - ly
            crop = self._crop(i)
            if crop is not None:
                lx, ly = lx + crop[0], ly + crop[1]
            whole = self.boards[i][0]
            if board is not whole:  # a pixel crop VASL 6.7.x names its own way: the hex of the name VASSAL gives
                at = whole.geometry.hex_at(lx, ly)
                try:
                    local = None if at is None else pl.parse_local(whole.geometry.name(*at))
                except HexNameError:
                    local = None
                if local is not None and pl.to_local(pl.to_map(local)) != local:
                    local = None  # a name the crop's grid does not hold
            else:
                local = board.local_hex_at(lx, ly)
            if local is None or (pl.crop is not None and local not in pl.crop):
                continue
            return pl.to_map(local)
        return None


@dataclass(frozen=True, slots=True)
class PlacedPiece:
    """A visible piece of a saved game with its map hex name and the level a Level marker in its stack shows."""

    piece: SavedPiece
    hex: str | None
    level: int = 0
    rooftop: bool = False


def locate_pieces(game: SavedGame, boards: Sequence[tuple[VaslBoard, BoardPlacement]],
                  edge: tuple[int, int] = DEFAULT_EDGE) -> list[PlacedPiece]:
    """Every visible piece with its hex (None when off the boards, or on a hex a crop leaves off) and level (0
    unless a Level marker says); *boards* are the saved game's, in its order (their crops are the game's).

    Hex names carry the board when there are several boards (``01E4``).

    :raises CropError: where VASL builds no LOS map for the game's cropped boards.
    """
    crops = tuple(b.crop for b in game.boards) if len(game.boards) == len(boards) else ()
    frame = MapFrame(tuple(boards), edge, crops)
    try:
        placed = frame.placed
    except CropError as e:
        raise CropError(f"{game.source}: {e}") from None
    layout = MapLayout(tuple(p for _, p in placed)) if len(boards) > 1 else None
    levels: dict[tuple[str | None, int, int], c.CounterLevel] = {}
    for p in game.pieces:
        if p.fire_counter is FireCounter.LEVEL:
            levels[p.map, p.x, p.y] = c.level_from_piece(p.traits)
    out: list[PlacedPiece] = []
    for p in game.pieces:
        h = frame.hex_at(p.x, p.y) if p.map is not None else None
        name = None if h is None else (layout.name(h) if layout is not None else h.name)
        lv = levels.get((p.map, p.x, p.y), c.CounterLevel(0))
        out.append(PlacedPiece(p, name, lv.level, lv.rooftop))
    return out


def find_archive(boards_dir: Path, entry: BoardEntry) -> Path:
    """The board archive file of a saved game's board in *boards_dir*."""
    from .names import file_in

    for cand in entry.archive_names:
        p = file_in(boards_dir, cand, "board")
        if p.is_file():
            return p
    raise VaslFileError(f"board {entry.name!r} of the saved game is not in {boards_dir} (looked for "
                        f"{', '.join(entry.archive_names)})")


def position_from_vsav(vsav_path: Path, boards_dir: Path, table: TerrainTable | None = None, *,
                       model: VaslModel = "6.7") -> Position:
    """The Position of a VASL saved game, with terrain from the board archives in *boards_dir*.

    *table* is VASL's terrain types and SSR rules (default: the SharedBoardMetadata.xml beside *boards_dir*).
    *model*: which VASL's terrain model the boards are read as (:data:`~asl_vassal_bridge.vasl.board.VaslModel`:
    VASL 6.7.x's by default, ``"2020"`` for the VASL of 2020, which applies no overlays).
    Each board's SSR terrain changes and overlays (archives in *boards_dir*'s
    ``overlays/`` folder) are applied as VASL 6.7.x's LOS model applies them
    (:func:`~asl_vassal_bridge.vasl.overlay.apply_entry`); the Position's
    notes name the overlays applied, those not applied and why, and SSR
    tokens VASL's model cannot apply either.

    :raises BadInput: (a subclass) naming the file for an unreadable save, a
        missing board archive, bad terrain data or a counter off the boards.
    """
    game = read_vsav(vsav_path)
    if not game.boards:
        raise BadSavedGameError(f"{vsav_path}: the saved game has no boards (its bd line is empty), so its "
                                "counters cannot be placed on hexes")
    if table is None:
        table = default_terrain_table(Path(boards_dir))
    placed: list[tuple[VaslBoard, BoardPlacement]] = []
    notes: list[str] = []
    from .overlay import OverlayError

    for entry in game.boards:
        try:
            board, said = apply_entry(read_board(find_archive(Path(boards_dir), entry), table, model=model), entry,
                                      boards_dir)
        except OverlayError as e:  # an overlay the saved game places where VASL could not: name the game
            raise OverlayError(f"{vsav_path}: {e}") from None
        placed.append((board, BoardPlacement(entry.name, entry.x, entry.y, entry.reversed)))
        notes += said
    try:
        pos = position_from_game(game, tuple(placed), crops=tuple(b.crop for b in game.boards))
    except CropError as e:
        raise CropError(f"{vsav_path}: {e}") from None
    notes += [pos.notes] if pos.notes else []
    return pos.with_(notes="\n".join(notes)) if notes else pos


def _stacks(game: SavedGame, frame: MapFrame) -> dict[Hex, list[list[SavedPiece]]]:
    """Visible pieces on the boards grouped by hex, then by stack (pieces at one map point)."""
    out: dict[Hex, dict[tuple[str, int, int], list[SavedPiece]]] = {}
    for p in game.pieces:
        if p.map is None:
            continue
        h = frame.hex_at(p.x, p.y)
        if h is None:
            if p.fire_counter in (FireCounter.FLAME, FireCounter.BLAZE, FireCounter.BUILDING_BLAZE,
                                  FireCounter.WRECK):
                raise OffBoardError(f"{game.source}: {p.name or p.basic_name} (piece {p.id}) at map pixel "
                                    f"({p.x}, {p.y}) is on no board" + _cropped_note(frame))
            continue
        out.setdefault(h, {}).setdefault((p.map, p.x, p.y), []).append(p)
    return {h: list(st.values()) for h, st in out.items()}


def _cropped_note(frame: MapFrame) -> str:
    names = [pl.name for i, (_, pl) in enumerate(frame.placed) if pl.crop is not None or frame._crop(i) is not None]
    return f" (or on a hex the crop of board {', '.join(names)} leaves off the map)" if names else ""


def _environment(game: SavedGame) -> Environment:
    ec = EC.MODERATE
    force = WindForce.NO_WIND
    direction = None
    gusts = False
    seen: dict[FireCounter, tuple[object, SavedPiece]] = {}
    for kind, p in game.fire_pieces():
        value: object
        if kind is FireCounter.EC:
            ec = value = c.ec_from_piece(p.traits)
        elif kind is FireCounter.WIND:
            force = value = c.wind_force_from_piece(p.traits)
        elif kind is FireCounter.WIND_DIR:
            direction = value = c.wind_direction_from_piece(p.traits)
        elif kind is FireCounter.GUSTS:
            gusts = value = c.gusts_from_piece(p.traits)
        else:
            continue
        if kind in seen and seen[kind][0] != value:  # two counters that disagree: which one holds is not ours to pick
            first = seen[kind][1]
            label = {FireCounter.EC: "EC", FireCounter.WIND: "Wind", FireCounter.WIND_DIR: "Wind Dir"}.get(kind,
                                                                                                    "Gusts")
            raise BadSavedGameError(f"{game.source}: two {label} counters disagree ({first.name} piece "
                                    f"{first.id}, {p.name} piece {p.id}); a game has one (B25.5, B25.63): remove "
                                    "one in VASL")
        seen.setdefault(kind, (value, p))
    if force is not WindForce.NO_WIND and direction is None:
        raise BadSavedGameError(f"{game.source}: the Wind counter shows {force.label} but there is no Wind Dir "
                                "counter (B25.64)")
    wind = Wind(force, direction if force is not WindForce.NO_WIND else None)
    return Environment(ec=ec, wind=wind, gusts=gusts)


def _units(game: SavedGame, gmap: GameMap, frame: MapFrame) -> tuple[Unit, ...]:
    """The saved game's visible unit counters as core Units (stack order from its Stacks, bottom first)."""
    from ..data import bundled_counters, unit_catalogue
    from .units import CounterIndex, piece_dict, read_units

    by_id = {p.id: p for p in game.pieces}
    ordered: list[SavedPiece] = []
    seen: set[str] = set()
    for _sid, members in game.stacks:
        for m in members:
            if m in by_id and m not in seen:
                seen.add(m)
                ordered.append(by_id[m])
    ordered += [p for p in game.pieces if p.id not in seen]
    levels: dict[tuple[str | None, int, int], c.CounterLevel] = {}
    for p in game.pieces:
        if p.fire_counter is FireCounter.LEVEL:
            levels[p.map, p.x, p.y] = c.level_from_piece(p.traits)
    where: dict[str, Location | None] = {}
    for p in ordered:
        h = frame.hex_at(p.x, p.y) if p.map is not None else None
        if h is None or h not in gmap:
            where[p.id] = None
            continue
        lv = levels.get((p.map, p.x, p.y), c.CounterLevel(0))
        if lv.rooftop:
            where[p.id] = gmap.rooftop(h) or Location(h)
        else:
            loc = Location(h, lv.level)
            where[p.id] = loc if loc in gmap.locations(h) else Location(h)
    found = read_units([piece_dict(p) for p in ordered], lambda d: where.get(str(d["id"])), unit_catalogue(),
                       CounterIndex.from_dict(bundled_counters()))
    return tuple(u.unit for u in found)


def position_from_game(game: SavedGame, boards: Sequence[tuple[VaslBoard, BoardPlacement]],
                       edge: tuple[int, int] = DEFAULT_EDGE, crops: tuple[Crop | None, ...] = ()) -> Position:
    """The Position of an already-read saved game on already-read boards (*crops*: each board's crop rectangle,
    or None).

    :raises CropError: where VASL builds no LOS map for the cropped boards.
    """
    gmap: GameMap = game_map(boards, name=Path(game.source).name, crops=crops)
    frame = MapFrame(tuple(boards), edge, crops)
    pos = Position(gmap, environment=_environment(game), name=Path(game.source).stem,
                   units=_units(game, gmap, frame))
    turn = pos.clock.player_turn
    fires: list[Fire] = []
    wrecks: list[Wreck] = []
    smoke: list[Smoke] = []
    for h, stacks in _stacks(game, frame).items():
        for stack in stacks:
            kinds = [(p.fire_counter, p) for p in stack]
            level = 0
            rooftop = False
            for k, p in kinds:
                if k is FireCounter.LEVEL:
                    lv = c.level_from_piece(p.traits)
                    level, rooftop = lv.level, lv.rooftop
            if rooftop:
                roof = gmap.rooftop(h)
                loc = roof if roof is not None else Location(h)
            else:
                top = gmap.top_level(h)
                loc = Location(h, max(min(level, top), -1 if level < 0 else 0))
                if loc not in gmap.locations(h):
                    loc = Location(h)
            pinned = any(k is FireCounter.PIN for k, _ in kinds)
            has_wreck = [p for k, p in kinds if k in (FireCounter.WRECK, FireCounter.BURNT_OUT_WRECK)]
            blazes = [p for k, p in kinds if k is FireCounter.BLAZE]
            for w in has_wreck:
                burning = w.fire_counter is FireCounter.WRECK and bool(blazes)
                wrecks.append(Wreck(loc, burning=burning, name=w.name or w.basic_name))
            for k, p in kinds:
                if k is FireCounter.SMOKE and (face := c.smoke_face(c.embellishment_layers(p.traits))) is not None:
                    smoke.append(Smoke(loc, face.wp, face.dispersed))  # A24; B25.651 acts on it
                if k is FireCounter.FLAME:
                    fires.append(Fire(loc, FireKind.FLAME, since=turn if pinned else 0))
                elif k is FireCounter.BLAZE and not has_wreck:
                    fires.append(Fire(loc, FireKind.BLAZE))
                elif k is FireCounter.BUILDING_BLAZE:
                    n = c.building_blaze_levels(p.basic_name, p.gpid) or 1
                    for burning_level in range(min(n, gmap.top_level(h) + 1)):
                        fires.append(Fire(Location(h, burning_level), FireKind.BLAZE))
    # The counters as they lie (a Blaze replaces the Location's Flames, B25.15), as the live bridge reads them;
    # a fire counter where nothing can burn is kept and named, not refused: the saved game is the players'.
    blaze_of = {f.location: f for f in fires if f.is_blaze}
    kept = [*blaze_of.values(), *(f for f in fires if f.is_flame and f.location not in blaze_of)]
    odd = sorted({f"{pos.loc_name(f.location)} ({pos.map.terrain_at(f.location).label})"
                  for f in kept if not pos.map.terrain_at(f.location).burnable})
    notes = [pos.notes] if pos.notes else []
    if odd:
        notes.append(f"fire counters where nothing can burn (B25.1): {', '.join(odd)}")
    return pos.with_(fires=tuple(kept), wrecks=tuple(wrecks), smoke=tuple(smoke), notes="\n".join(notes))
