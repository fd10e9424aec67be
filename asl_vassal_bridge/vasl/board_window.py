"""A board under a saved game's pixel crop as VASL 6.7.x's model holds it (a step of :mod:`.board`): the crop's
pixels with a hex grid of their own, and the placement naming its hexes as VASL does."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..core.hexes import BoardPlacement
from ..core.values import replace, value
from .board_hexes import VaslBoard, derive_hexes
from .board_losdata import LOSData
from .crop import Crop
from .geometry import BoardGeometry, row_counts

__all__ = ["CropWindow", "WindowPlacement", "crop_window"]


@value
class WindowPlacement(BoardPlacement):
    """The placement of a :class:`CropWindow`'s board: its local hexes are the window's grid, whose column 0 and
    row 0 start at the crop's top left corner (of the turned crop when reversed), so the board's picture, cropped
    (and turned), lies with that corner at the placement's A1 column and row 0, not where the uncropped board's
    would put it (:func:`~.boardart.board_art`).  *art_x*: map pixels from that column to the crop's left edge
    (one hex width when the window's column 0 lies off the crop, before a long first column)."""

    art_x: float = 0.0


@dataclass(frozen=True, slots=True)
class CropWindow:
    """A board under a saved game's pixel crop as VASL 6.7.x's model has it: *board* holds only the crop's pixels
    (turned 180° where read reversed) with a hex grid of its own starting at the crop's corner, and *placement*
    names its hexes as 6.7.x does (its first column's letters, its row numbers shifted)."""

    board: VaslBoard
    placement: WindowPlacement


def _is_pixel_crop(geo: BoardGeometry, crop: Crop) -> bool:
    """A crop that does not start on a hex column's centre or cuts the board's rows (not the picker's columns)."""
    x, y, _w, h = crop
    return y != 0 or h not in (-1, geo.grid_height) or x % geo.hex_width != 0


def crop_window(board: VaslBoard, placement: BoardPlacement, crop: Crop) -> CropWindow | None:
    """*board* under a saved game's pixel *crop* (a board alone on its map), as VASL 6.7.x builds it
    (``ASLMap.CropValues`` for a saved game, ``BoardArchive.addLOSDatatoVASLMap``; docs/vasl-readers.md): columns
    ``int((x + 1) / hexWidth)`` … ``int((x + width + 1) / hexWidth)``, ``round(height / hexHeight)`` rows, every
    hex reading the crop's pixels where the map's grid puts it; the first row is named from
    ``int(y / hexWidth)`` (minus one unless reversed), so a crop at y = 100 names its top hexes I1 over pixels of
    row 2.  None where this reader follows the crop otherwise (a picker's crop, a grid whose first column would be
    a long one, a reversed crop of an even number of columns, rows 6.7.x names differently from its grid).

    >>> # see tests/vasl/test_crops.py (pixel crops (450, 100, 600, 400) and (500, 100, 600, 400))
    """
    geo = board.geometry
    if not _is_pixel_crop(geo, crop) or max(geo.a1_x, 0.0) != 0.0 or geo.a1_y != geo.hex_height / 2:
        return None
    x, y, w, h = crop
    w = geo.grid_width - x if w == -1 else w
    h = geo.grid_height - y if h == -1 else h
    if x < 0 or y < 0 or w <= 0 or h <= 0 or x + w > geo.grid_width or y + h > geo.grid_height:
        return None
    hw = 56.25 if geo.hex_width == 56.3125 else geo.hex_width  # CropValues' own correction
    col1 = int((x + 1) / hw)
    col2 = geo.width - 1 if x + w == geo.grid_width else int((x + w + 1) / hw)
    cols = col2 - col1 + 1
    rows = math.floor(h / geo.hex_height + 0.5)
    start = int(y / hw) if y > 0 else 0
    end = geo.height if y + h == geo.grid_height else int((y + h) / geo.hex_height)
    rev = placement.reversed
    if end - start != rows or col2 >= geo.width or (rev and col1 % 2 == 1):
        return None
    # 6.7.x's grid starts (turned, when reversed) with a long column: one more column off the pixels before it
    # (the window's column 0 unturned, its last one turned), so the window's long columns stay the odd ones
    long_first = (col2 if rev else col1) % 2 == 1
    first_col = col1 - 1 if long_first and not rev else col1
    n = cols + long_first
    first_row = start if rev else max(start - 1, 0)
    sub = LOSData(n, rows, w, h, board.los.terrain[y:y + h, x:x + w].copy(),
                  board.los.elevation[y:y + h, x:x + w].copy(),
                  np.zeros(sum(row_counts(n, rows)), dtype=np.uint8))
    wgeo = BoardGeometry(n, rows, w, h, geo.hex_width, geo.hex_height, 0.0, geo.hex_height / 2, geo.alt_grain,
                         -geo.hex_width if long_first else 0.0)
    index = {(c, r): i for i, (c, r, _) in enumerate(geo.hexes())}
    for i, (c, r, _) in enumerate(wgeo.hexes()):
        j = index.get((c + first_col, r + first_row))
        sub.stairways[i] = board.los.stairways[j] if j is not None else 0
    hexes, buildings = derive_hexes(sub, wgeo, board.table, board.metadata, board.source, reversed_=rev,
                                    model=board.model, window=True)
    off = (cols if rev else 0) if long_first else -1  # the column off the pixels
    kept = None
    if long_first:
        hexes = {k: v for k, v in hexes.items() if v.col != off}
        kept = frozenset(wgeo.local_hex(v.col, v.row) for v in hexes.values())
    window = replace(board, los=sub, geometry=wgeo, hexes=hexes, buildings=buildings)
    placed = WindowPlacement(placement.name, placement.x, placement.y, placement.reversed, n, rows, first_col,
                             first_row, 0, 0, kept, geo.hex_width if long_first else 0.0)
    return CropWindow(window, placed)
