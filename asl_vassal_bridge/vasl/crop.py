"""Cropped boards: the hexes VASL's LOS model keeps of a board cropped in its board picker, and where its merged
map puts every board.

A saved game keeps each board's crop as a rectangle of board pixels (``x, y, width, height``; ``-1`` for "to the
board's edge"; VASL ``ASLBoard.getState``).  VASSAL draws the board cut to that rectangle (turned 180° when
reversed) and lays the boards out edge to edge; VASL's LOS model (``VASL.build.module.ASLMap``) builds one hex grid
for the map and copies each board's hexes into it.  This module repeats those steps on the boards' geometry, as
VASL's 2020 sources do them for a saved game (the board picker's "nearest full hex row" exists only while choosing,
so a loaded crop is always VASL's "Normal" crop):

1. ``VASLBoard.cropLOSData`` → ``VASL.LOS.Map.Map.crop``: the hex at the crop's upper-left pixel
   (``Map.gridToHex`` on the whole board) is the first hex; the cropped map holds ``round(width / hexWidth) + 1``
   columns of ``round(height / hexHeight)`` hexes (one more in the long columns), the board's own hexes with their
   names (a crop to Q–GG keeps Q1 …).  A crop reaching past the board's hexes makes VASL fail.
2. ``Map.flip`` for a reversed board: the cropped area turned 180°.
3. ``ASLMap``: one grid of ``round(mapWidth / hexWidth) + 1`` columns × ``round(mapHeight / hexHeight)`` rows, its
   long columns the odd ones unless the board at its top-left corner starts with a long column
   (``Map.insertMap``'s reset of the first board); each board goes where ``gridToHex`` finds the point one pixel
   below its top-left corner, and only where that column's length matches the board's first column
   (``insertMap`` refuses a half-hex misalignment and VASL then turns its LOS off).  Later boards overwrite the
   hexes they share with earlier ones.
4. A hex of that grid is on the map where its centre (as VASL's grid places it, pulled in at the map's edge) lies
   on a board's rectangle, as the bridge's extension finds the board of each hex of VASL's model: a crop that
   cuts a column or row short of its centre (a pixel crop, not one of the board picker's hex rows) leaves VASL's
   last column or row of it off every board.

``gridToHex`` is repeated exactly (its column zones, its row arithmetic, the hex outlines rounded to whole pixels
and Java's ``Polygon.contains``), because crops put board corners on hex edges where the rounding decides.
:func:`placements` turns the result into core :class:`~asl_vassal_bridge.core.hexes.BoardPlacement`\\ s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..core.hexes import BoardPlacement, Hex
from ..core.values import replace
from .geometry import BoardGeometry
from .safe import VaslFileError

__all__ = ["Crop", "CropError", "Geometry", "MapBoard", "Merged", "merge", "placements"]

#: (x, y, width, height) in board pixels, as a saved game writes it; −1 for "to the board's edge".
Crop = tuple[int, int, int, int]

#: VASL's board sizes that ``ASLMap`` places with ``insertMap`` (the others go to the map's top left corner).
_PLACED_SIZES = ((33, 10), (17, 20), (15, 5))
#: ``A1CenterX`` values VASL crops without its "Offset" adjustment (none of its boards with LOS data has another).
_PLAIN_A1_X = (0.0, -999.0, -901.0)


class CropError(VaslFileError):
    """A crop VASL's LOS model cannot build or merge: the message names the board, its crop and what was expected."""


class _Java(Exception):
    """An exception VASL's Java would throw here (an index past an array's end, a null hex)."""


def _round(v: float) -> int:
    """Java's ``Math.round``."""
    return math.floor(v + 0.5)


class Geometry(Protocol):
    """What this module needs of a board (:class:`~.board.BoardGeometry` has it): its size in hexes and pixels,
    its hex size and A1's centre."""

    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def grid_width(self) -> int: ...
    @property
    def grid_height(self) -> int: ...
    @property
    def hex_width(self) -> float: ...
    @property
    def hex_height(self) -> float: ...
    @property
    def a1_x(self) -> float: ...
    @property
    def a1_y(self) -> float: ...


@dataclass
class _Grid:
    """One of VASL's hex grids (``Map.hexGrid``): *columns* columns of *rows* hexes, one more in the long ones
    (column 0 is long when *first_long*: VASL's "TopLeftHalfHeight"; else the odd ones are: "Normal")."""

    columns: int
    rows: int
    first_long: bool
    hex_width: float
    hex_height: float
    a1_x: float
    a1_y: float  # Map.A1CenterY now (gridToHex's row arithmetic)
    built_a1_y: float  # … when the hex outlines were made
    pixels: tuple[int, int]

    def length(self, col: int) -> int:
        return self.rows + 1 if (col % 2 == 0) == self.first_long else self.rows

    def has(self, col: int, row: int) -> bool:
        return 0 <= col < self.columns and 0 <= row < self.length(col)

    def _fix(self, x: float, y: float) -> tuple[float, float]:
        """``Hex.fixMapEdgePoints``: a point on the grid's right or bottom edge pulled one pixel in."""
        gw, gh = self.pixels
        x = 0.0 if x == -1.0 else x
        y = 0.0 if y == -1.0 else y
        x = gw - 1.0 if int(x) in (gw, gw + 1) else x
        y = gh - 1.0 if int(y) in (gh, gh + 1) else y
        return x, y

    def centre(self, col: int, row: int) -> tuple[float, float]:
        """``Map.getHexCenterPoint``."""
        x = max(self.a1_x, 0.0) + self.hex_width * col
        if self.built_a1_y == 0:
            return x, 32.25 + self.hex_height * row - self.hex_height / 2 * (1 - col % 2)
        y0 = self.hex_height / 2 if self.built_a1_y < 0 else self.built_a1_y
        return x, y0 + self.hex_height * row - self.hex_height / 2 * (col % 2)

    def los_point(self, col: int, row: int) -> tuple[int, int]:
        """``Hex.getHexCenter``: the centre pulled onto the grid, truncated to whole pixels."""
        x, y = self._fix(*self.centre(col, row))
        return int(x), int(y)

    def contains(self, col: int, row: int, px: int, py: int) -> bool:
        """``Hex.contains``: the hex outline (vertices rounded to whole pixels) holds pixel (px, py), by the bounding
        box and then Java's ``Polygon.contains`` (crossings; a point on an edge counts for the hex right of or below
        it)."""
        if not self.has(col, row):
            raise _Java(f"no hex at column {col}, row {row}")
        x, y = self.centre(col, row)
        side, half = self.hex_width * 2 / 3, self.hex_height / 2
        corners = [self._fix(x + dx, y + dy) for dx, dy in ((-side / 2, -half), (side / 2, -half), (side, 0.0),
                                                            (side / 2, half), (-side / 2, half), (-side, 0.0))]
        xs = [_round(cx) for cx, _ in corners]
        ys = [_round(cy) for _, cy in corners]
        if not (min(xs) <= px < max(xs) and min(ys) <= py < max(ys)):
            return False
        hits = 0
        lastx, lasty = xs[-1], ys[-1]
        for curx, cury in zip(xs, ys, strict=True):
            prevx, prevy = lastx, lasty
            lastx, lasty = curx, cury
            if cury == prevy:
                continue
            if curx < prevx:
                if px >= prevx:
                    continue
                leftx = curx
            else:
                if px >= curx:
                    continue
                leftx = prevx
            if cury < prevy:
                if py < cury or py >= prevy:
                    continue
                if px < leftx:
                    hits += 1
                    continue
                test1, test2 = px - curx, py - cury
            else:
                if py < prevy or py >= cury:
                    continue
                if px < leftx:
                    hits += 1
                    continue
                test1, test2 = px - prevx, py - prevy
            if test1 < test2 / (prevy - cury) * (prevx - curx):
                hits += 1
        return hits % 2 == 1

    def _row(self, col: int, y: int) -> int:
        hh = self.hex_height
        if self.a1_y == 0:
            return int((y + hh / 2) / hh) if col % 2 == 0 else int(y / hh)
        return int(y / hh) if col % 2 == 0 else int((y + hh / 2) / hh)

    def grid_to_hex(self, x: int, y: int) -> tuple[int, int] | None:
        """``Map.gridToHex``: the hex holding pixel (x, y), or None where VASL finds none (off the grid, or past a
        column's end)."""
        gw, gh = self.pixels
        if x < 0 or y < 0 or x >= gw or y >= gh:
            return None
        try:
            return self._grid_to_hex(x, y)
        except _Java:
            return None

    def _grid_to_hex(self, x: int, y: int) -> tuple[int, int] | None:
        z = int((x - max(self.a1_x, 0.0)) / (self.hex_width / 3.0))
        if (z - 1) % 3 != 0:  # within a column (Java's % and Python's agree on "divisible")
            col = math.ceil(z / 3.0)
            row = self._row(col, y)
            if not self.has(col, row):
                raise _Java("past the grid")
            return col, row
        # between two columns, where the hexsides slant: the first of these hexes that holds the point
        col = math.ceil((z - 1) / 3.0)
        row = self._row(col, y)
        if self.contains(col, row, x, y):
            return col, row
        for c, r in ((col, row - 1), (col, row + 1), (col + 1, row), (col + 1, row - 1), (col + 1, row + 1),
                     (col - 1, row), (col - 1, row - 1)):
            if self.has(c, r) and self.contains(c, r, x, y):
                return c, r
        if col - 1 >= 0 and row + 1 < self.length(col - 1):
            return (col - 1, row + 1) if self.contains(col - 1, row + 1, x, y) else None
        if col % 2 == 0 and not self.first_long:  # VASL: an even column of a "Normal" grid
            if self.has(col + 1, row + 1):
                if self.contains(col + 1, row + 1, x, y):
                    return col + 1, row + 1
                if row < self.length(col + 1):
                    return (col + 1, row) if self.contains(col + 1, row, x, y) else None
            return None
        if col + 1 < self.columns and 0 <= row - 1 < self.length(col + 1):
            if self.contains(col + 1, row - 1, x, y) or row == self.rows:
                return col + 1, row - 1
            if row < self.length(col + 1) and self.contains(col + 1, row, x, y):
                return col + 1, row
        return None


@dataclass
class _Cropped:
    """A board's LOS map as VASL inserts it: its columns of board cells (column, row index of the whole board)."""

    cells: list[list[tuple[int, int]]]
    first_long: bool
    rows: int
    a1_y: float
    pixels: tuple[int, int]
    top_left_y: int  # the LOS point's y of its hex (0, 0), in the whole board's pixels (insertMap's "upper")
    window: tuple[int, int, int, int] = (0, 0, 0, 0)  # first column, first row index, columns, rows


def _board_grid(geo: Geometry) -> _Grid:
    return _Grid(geo.width, geo.height, False, geo.hex_width, geo.hex_height, geo.a1_x, geo.a1_y, geo.a1_y,
                 (geo.grid_width, geo.grid_height))


def _crop_text(crop: Crop) -> str:
    return f"({crop[0]}, {crop[1]}, {crop[2]}, {crop[3]})"


def _cropped(geo: Geometry, crop: Crop | None, name: str) -> _Cropped:
    """``BoardArchive.getLOSData`` and, for a crop, ``Map.crop`` (VASL's "Normal" crop of a saved game)."""
    whole = _board_grid(geo)
    if crop is None:
        cells = [[(c, r) for r in range(whole.length(c))] for c in range(geo.width)]
        return _Cropped(cells, False, geo.height, geo.a1_y, whole.pixels, whole.los_point(0, 0)[1],
                        (0, 0, geo.width, geo.height))
    x, y, w, h = crop
    where = f"board {name}: VASL's crop {_crop_text(crop)} (x, y, width, height in board pixels)"
    size = f"the board is {geo.grid_width}×{geo.grid_height} pixels"
    if geo.a1_x not in _PLAIN_A1_X:
        raise CropError(f"{where}: the board's A1 centre is offset (A1CenterX={geo.a1_x:g}), which VASL crops "
                        "another way (its \"Offset\" crop, for boards without LOS data); not supported")
    w = geo.grid_width if w == -1 else w
    h = geo.grid_height if h == -1 else h
    if w <= 0 or h <= 0 or x < 0 or y < 0:
        raise CropError(f"{where}: expected x, y ≥ 0 and a width and height > 0 (or -1: to the board's edge)")
    ul = whole.grid_to_hex(x, y)
    if ul is None:
        raise CropError(f"{where}: its top left corner is off the board ({size}), so VASL finds no hex there")
    ulc, ulr = ul
    cols = _round(w / geo.hex_width) + 1
    rows = _round(h / geo.hex_height)
    cells = []
    for i in range(cols):
        c = ulc + i
        n = rows + c % 2
        if c >= geo.width or ulr + n > whole.length(c):
            raise CropError(f"{where}: it reaches past the board's last hex ({size}; VASL keeps {cols} columns of "
                            f"{rows} hexes from the hex at its top left corner and fails)")
        cells.append([(c, ulr + j) for j in range(n)])
    first_long = ulc % 2 == 1
    return _Cropped(cells, first_long, rows, 0.0 if first_long else geo.a1_y, (w, h), whole.los_point(ulc, ulr)[1],
                    (ulc, ulr, cols, rows))


def _flipped(m: _Cropped, geo: Geometry) -> _Cropped:
    """``Map.flip``: the cropped area turned 180° (``recreateHexGrid`` re-derives which columns are long)."""
    cells = [list(reversed(col)) for col in reversed(m.cells)]
    last = m.cells[-1][-1] if m.cells and m.cells[-1] else (0, 0)
    whole = _board_grid(geo)
    top = geo.grid_height - whole.los_point(*last)[1] - 1  # Hex.flip turns its points in the whole board's pixels
    a1_y = m.a1_y
    if len(m.cells) % 2 == 0:
        a1_y = 32.25 if m.first_long else 0.0
    first_long = bool(m.cells) and len(m.cells[-1]) == m.rows + 1
    return replace(m, cells=cells, first_long=first_long, a1_y=a1_y, top_left_y=top)


@dataclass(frozen=True)
class MapBoard:
    """A board of a map as VASL's LOS model takes it: name, geometry, column and row in the layout, side, crop."""

    name: str
    geo: Geometry
    col: int
    row: int
    reversed: bool
    crop: Crop | None


def _size(geo: Geometry, crop: Crop | None) -> tuple[int, int]:
    """The board's size on VASSAL's map: the crop's, where it has one (``ASLBoard``'s image size)."""
    w = crop[2] if crop is not None and crop[2] > 0 else geo.grid_width
    h = crop[3] if crop is not None and crop[3] > 0 else geo.grid_height
    return w, h


def _merge_error(b: MapBoard, boards: Sequence[MapBoard], why: str) -> CropError:
    own = f" cropped to {_crop_text(b.crop)}" if b.crop is not None else ""
    others = [f"{o.name} {_crop_text(o.crop)}" for o in boards if o.crop is not None and o is not b]
    also = f" (the map's other crops: {', '.join(others)})" if others else ""
    return CropError(f"board {b.name}{own}{also}: {why}")


@dataclass
class Merged:
    """``ASLMap``'s LOS map: the merged *grid*; per board the merged cells it wrote (merged cell → board cell),
    its cropped map, its place (the merged cell of its first hex) and its rectangle of pixels on VASSAL's map."""

    grid: _Grid
    written: list[dict[tuple[int, int], tuple[int, int]]]
    maps: list[_Cropped]
    places: list[tuple[int, int]]
    rects: list[tuple[int, int, int, int]]

    def on_a_board(self, cell: tuple[int, int]) -> bool:
        """The cell's centre (as VASL's grid places it) lies on a board's rectangle, as the bridge's extension
        finds a hex's board; a cell off every board (beyond a crop that cuts a column or row short of its centre)
        is on no board."""
        x, y = self.grid.los_point(*cell)
        return any(rx <= x < rx + rw and ry <= y < ry + rh for rx, ry, rw, rh in self.rects)


def merge(boards: Sequence[MapBoard]) -> Merged:
    """``ASLMap``'s LOS map of *boards*, in VASL's order.

    :raises CropError: where VASL builds no LOS map for these boards.
    """
    sizes = [_size(b.geo, b.crop) for b in boards]
    origins = []
    for b in boards:
        ox = sum(sizes[j][0] for j, o in enumerate(boards) if o.row == b.row and o.col < b.col)
        oy = sum(sizes[j][1] for j, o in enumerate(boards) if o.col == b.col and o.row < b.row)
        origins.append((ox, oy))
    total_w = max(ox + s[0] for (ox, _), s in zip(origins, sizes, strict=True))
    total_h = max(oy + s[1] for (_, oy), s in zip(origins, sizes, strict=True))
    first, last = boards[0].geo, boards[-1].geo
    for b in boards[1:]:
        if (round(b.geo.hex_width), round(b.geo.hex_height)) != (round(first.hex_width), round(first.hex_height)):
            raise CropError(f"board {b.name}: its hexes are {b.geo.hex_width:g}×{b.geo.hex_height:g} pixels, board "
                            f"{boards[0].name}'s {first.hex_width:g}×{first.hex_height:g}: VASL's LOS needs one hex "
                            "size on the map")
    grid = _Grid(_round(total_w / first.hex_width) + 1, _round(total_h / first.hex_height), False, last.hex_width,
                 last.hex_height, first.a1_x, first.a1_y, first.a1_y, (total_w, total_h))
    config_long = False  # Map.cropconfiguration "TopLeftHalfHeight" (insertMap's check reads it, not the grid)
    owner: dict[tuple[int, int], tuple[str, str]] = {}
    written: list[dict[tuple[int, int], tuple[int, int]]] = []
    maps: list[_Cropped] = []
    places: list[tuple[int, int]] = []
    for b, (ox, oy) in zip(boards, origins, strict=True):
        m = _cropped(b.geo, b.crop, b.name)
        if b.reversed:
            m = _flipped(m, b.geo)
        maps.append(m)
        cells: dict[tuple[int, int], tuple[int, int]] = {}
        written.append(cells)
        if (b.geo.width, b.geo.height) not in _PLACED_SIZES:  # ASLMap.insertOneMap: at the grid's top left
            places.append((0, 0))
            for x in range(min(len(m.cells), grid.columns)):
                for y in range(min(len(m.cells[x]), grid.length(x))):
                    cells[x, y] = m.cells[x][y]
            continue
        ul = grid.grid_to_hex(ox, oy + 1)
        if ul is None:
            raise _merge_error(b, boards, f"VASL finds no hex of its map's grid at the board's top left corner "
                               f"(pixel ({ox}, {oy}) of the boards) and turns its LOS off")
        hc, hr = ul
        places.append(ul)
        if (hc > 0 or hr > 0) and ((hc % 2 == 0) == config_long) != m.first_long:
            raise _merge_error(b, boards, _misaligned(b, m, owner.get(ul)))
        left = 0 if hc == 0 else grid.los_point(hc, hr)[0]
        upper = 0 if hr == 0 else max(0, grid.los_point(hc, hr)[1] - m.top_left_y)
        cw, ch = min(m.pixels[0], grid.pixels[0]), min(m.pixels[1], grid.pixels[1])
        if left + cw > grid.pixels[0] or upper + ch > grid.pixels[1]:
            raise _merge_error(b, boards, f"VASL copies its pixels from ({left}, {upper}), past the map's "
                               f"{grid.pixels[0]}×{grid.pixels[1]} pixels, and turns its LOS off")
        if left == 0 and upper == 0:  # insertMap's reset "for the first board": the grid takes this board's
            grid.a1_y, config_long = m.a1_y, m.first_long
            if m.first_long:
                if any(written[:-1]):
                    raise _merge_error(b, boards, "VASL would rebuild its grid for this board and lose the hexes "
                                       "of the boards before it")
                grid.first_long, grid.built_a1_y = True, 0.0
        for x in range(min(len(m.cells), grid.columns)):
            for y in range(min(len(m.cells[x]), grid.length(x))):
                if not grid.has(hc + x, hr + y):
                    raise _merge_error(b, boards, "its hexes reach past the grid VASL builds for the map "
                                       f"({grid.columns} columns of {grid.rows} hexes) and VASL turns its LOS off")
                cells[hc + x, hr + y] = m.cells[x][y]
                owner[hc + x, hr + y] = (b.name, _name(b.geo, *m.cells[x][y]))
    rects = [(ox, oy, w, h) for (ox, oy), (w, h) in zip(origins, sizes, strict=True)]
    return Merged(grid, written, maps, places, rects)


def _name(geo: Geometry, col: int, row: int) -> str:
    g = BoardGeometry(geo.width, geo.height, geo.grid_width, geo.grid_height, geo.hex_width, geo.hex_height,
                      geo.a1_x, geo.a1_y)
    return g.name(col, row)


def _misaligned(b: MapBoard, m: _Cropped, on: tuple[str, str] | None) -> str:
    there = (f"board {on[0]}'s column {on[1].rstrip('0123456789')}" if on is not None
             else "a column of VASL's grid")
    sits = "higher" if not m.first_long else "lower"
    hint = ("a crop to columns A–Q (900 px wide) joins an uncropped board, one to A–P (844 px) does not"
            if not m.first_long else "this board's own first column is a long one (B, D …): start its crop on "
            "A, C … Q instead")
    return (f"its first hex column would lie on {there}, whose hexes sit half a hex {sits}, so VASL cannot merge "
            f"the two hex grids and turns its LOS off; expected columns that meet as printed ({hint})")


def placements(boards: Sequence[tuple[Geometry, BoardPlacement, Crop | None]]) -> tuple[BoardPlacement, ...]:
    """Each board's placement on VASL's merged map: its first map column and row (``col_start``, ``row_start``)
    and, where VASL's model keeps only part of it, the board-local hexes it keeps (``crop``: the hexes of its
    cropped model whose centre lies on a board).

    *boards* are in VASL's order (the saved game's); each placement must already carry the board's size and hex
    names (:func:`~.board.fit_placement`).  Map columns are VASL's grid columns, shifted by one when the grid's
    long columns are the even ones (the core's long columns are the odd ones).

    :raises CropError: naming the board and its crop where VASL's LOS model has no map for these boards.
    """
    specs = [MapBoard(p.name, g, p.x, p.y, p.reversed, c) for g, p, c in boards]
    merged = merge(specs)
    grid = merged.grid
    shift = 1 if grid.first_long else 0
    out: list[BoardPlacement] = []
    for (geo, placement, crop), written, m, (hc, hr) in zip(boards, merged.written, merged.maps, merged.places,
                                                             strict=True):
        cells = {cell: at for cell, at in written.items() if merged.on_a_board(cell)}
        ulc, ulr, cols, rows = m.window
        if placement.reversed:
            col_start = hc + shift + cols - 1 + ulc - (placement.columns - 1)
            row_start = hr + rows + ulr - placement.rows
        else:
            col_start, row_start = hc + shift - ulc, hr - ulr
        kept = frozenset(Hex.from_offset(c, r + 1 - c % 2) for c, r in cells.values())
        every = sum(geo.height + c % 2 for c in range(geo.width))
        placed = replace(placement, col_start=col_start, row_start=row_start,
                         crop=None if crop is None and len(kept) == every else kept)
        for (x, y), (c, r) in cells.items():
            if placed.to_map(Hex.from_offset(c, r + 1 - c % 2)) != _core_hex(grid, x, y, shift):
                raise _merge_error(specs[len(out)], specs, "VASL's grid puts its hexes half a hex off their "
                                   "neighbours' (VASL merges such a layout, but its hexes no longer meet as printed)")
        out.append(placed)
    return tuple(out)


def _core_hex(grid: _Grid, x: int, y: int, shift: int) -> Hex:
    """The core map hex of VASL's grid cell (x, y): its long columns made the odd ones."""
    col = x + shift
    return Hex.from_offset(col, y + (1 if col % 2 == 0 else 0))
