"""Boards placed into a core GameMap (the last step of :mod:`.board`): each board fitted to its placement, laid
out as VASSAL lays boards (or as VASL's cropped model holds them), every hex as a core ``HexInfo``."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.hexes import BoardPlacement, Hex, MapLayout
from ..core.position import GameMap, HexInfo
from ..core.terrain import Building
from ..core.values import replace
from .board_hexes import HexTerrain, VaslBoard
from .board_window import crop_window
from .crop import Crop, placements
from .terrain import woods_road

__all__ = ["fit_placement", "game_map", "place_boards", "to_hexinfo"]


def to_hexinfo(h: HexTerrain, building: str | None) -> HexInfo:
    """The core HexInfo of a decoded hex (a road hex through woods is Woods-Road, B25.1)."""
    terrain = woods_road(h.fire_terrain, h.others, h.road)
    return HexInfo(terrain=terrain, elevation=h.elevation, building=building, stairwell=h.stairwell,
                   feature=h.feature, road=h.road)


def fit_placement(board: VaslBoard, placement: BoardPlacement) -> BoardPlacement:
    """*placement* with the board's own size and VASL's hex naming (half boards "b": columns Q…GG)."""
    geo = board.geometry
    return replace(placement, columns=geo.width, rows=geo.height, first_column=geo.first_column,
                   first_row=geo.first_row)


def place_boards(boards: Sequence[tuple[VaslBoard, BoardPlacement]],
                 crops: Sequence[Crop | None] = ()) -> tuple[tuple[VaslBoard, BoardPlacement], ...]:
    """The boards with placements fitted to them (:func:`fit_placement`) and their map columns and rows.

    As VASSAL lays boards out, a board lies right of the boards before it in
    its row and below those above it in its column; neighbouring boards share
    their edge column (the half hexes of GG and A) and a board starts on the
    row below the boards above it (half boards 12a and 12b side by side
    share column Q).  With *crops* (VASL's crop rectangle of each board, in
    board pixels, or None), each board keeps the hexes VASL's cropped model
    holds and lies where VASL's merged grid puts it (:mod:`.crop`).

    :raises CropError: naming the board and its crop where VASL builds no LOS map for the boards.
    """
    fitted = [(b, fit_placement(b, p)) for b, p in boards]
    if len(fitted) == 1 and crops and crops[0] is not None and fitted[0][0].model == "6.7":
        window = crop_window(fitted[0][0], fitted[0][1], crops[0])
        if window is not None:
            return ((window.board, window.placement),)
    if any(c is not None for c in crops):
        placed = placements([(b.geometry, p, crops[i] if i < len(crops) else None) for i, (b, p) in enumerate(fitted)])
        return tuple((b, p) for (b, _), p in zip(fitted, placed, strict=True))
    out = []
    for b, p in fitted:
        col = sum(q.columns - 1 for _, q in fitted if q.y == p.y and q.x < p.x)
        row = sum(q.rows for _, q in fitted if q.x == p.x and q.y < p.y)
        out.append((b, replace(p, col_start=col, row_start=row)))
    return tuple(out)


def game_map(boards: Sequence[tuple[VaslBoard, BoardPlacement]], name: str = "",
             crops: Sequence[Crop | None] = ()) -> GameMap:
    """A core GameMap of boards placed on a map (board-prefixed hex names with several boards).

    Each board keeps its size and VASL's names (see :func:`place_boards`),
    and a cropped board the hexes VASL's cropped model holds (*crops*).
    Hexes shared by two boards (the half hexes on a common edge) take the
    terrain of the board placed first.
    """
    placed = place_boards(boards, crops)
    layout = MapLayout(tuple(p for _, p in placed))
    infos: dict[Hex, HexInfo] = {}
    buildings: dict[str, Building] = {}
    for board, placement in placed:
        prefix = f"{placement.name}:" if len(placed) > 1 else ""
        hex_prefix = placement.name if len(placed) > 1 else ""  # hex names as the map's layout writes them
        for b in board.buildings.values():
            bid = prefix + b.id
            levels = tuple((hex_prefix + n, lv) for n, lv in b.hex_levels)
            buildings[bid] = Building(bid, b.material, b.kind, b.levels, levels, b.rooftop, b.rowhouse, b.fortified)
        for h in board.hexes.values():
            local = board.geometry.local_hex(h.col, h.row)
            if placement.crop is not None and local not in placement.crop:
                continue
            mh = placement.to_map(local)
            if mh in infos:
                continue
            bld = prefix + h.feature if (h.feature and h.feature in board.buildings) else None
            info = to_hexinfo(h, bld)
            if info.feature and not bld:
                info = HexInfo(info.terrain, info.elevation, None, info.stairwell, prefix + info.feature, info.road)
            infos[mh] = info
    return GameMap.from_hexes(infos, buildings.values(), layout, name)
