"""VASL 6.7.x's hex pass of a board overlay (``ASLMap.updateHexGridforOverlayTerrain``, the third step of
:mod:`.overlay`): over a window the size of the board's grid from the picture's top-left corner, clipped to the
board, inherent terrain near a hex centre fills its hex, and each hex walked gets its highest level at its centre
point; the depression a hex's centre Location remembers is kept."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from .board import VaslBoard, VaslCentres
from .overlay_pixel_pass import shifted
from .overlay_placement import PlacedOverlay, overlay_terrain_type
from .terrain import TerrainTable

__all__ = ["edge_points", "hex_pass", "hex_pass_window", "hex_pixels"]

#: The constant board size VASL's hex pass uses for a reversed board.
_REVERSED_SIZE = (1800, 645)


def hex_pixels(pts: VaslCentres, idx: npt.NDArray[np.int64], gw: int, gh: int, hex_height: float
               ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``[hex], [y], [x]`` of every pixel of hexes *idx* (VASL's hex polygons, as the SSR code draws them)."""
    from .ssr import _shape_pixels
    return _shape_pixels("hex", idx, pts, gw, gh, hex_height)


def edge_points(pts: VaslCentres) -> npt.NDArray[np.int64]:
    """``[hex, side, (x, y)]`` the points ``doNonInherentToInherentFix`` paints: each hexside Location's edge centre
    point (the hexside point, one pixel inward of the hexside's midpoint), one pixel further up on the top hexside
    and down on the bottom one."""
    out = pts.sides.copy()
    out[:, 0, 1] -= 1
    out[:, 3, 1] += 1
    return out


def hex_pass(board: VaslBoard, ter: npt.NDArray[np.uint8], elev: npt.NDArray[np.int8], ov: PlacedOverlay,
             table: TerrainTable, luts: Mapping[str, npt.NDArray[np.bool_]], region: tuple[int, int, int, int],
             pts: VaslCentres, edges: npt.NDArray[np.int64], remembered: npt.NDArray[np.int64],
             polygons: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
             centre_levels: dict[int, int]) -> None:
    """``updateHexGridforOverlayTerrain``'s effects on the grids, in place: inherent terrain filling its hexes,
    and each touched hex's highest level to be written at its centre point (*centre_levels*, by hex: VASL
    6.7.x's Hex reads a hex's level one pixel off the centre, so the hexes are derived from the grid without
    them, and the grid VASL checks LOS on has them); and in *remembered* (per hex, −1: none)
    the depression terrain its centre Location keeps (``setOverlayTerrainType``: the last depression pixel, in
    VASL's scan, whose nearest Location is the centre)."""
    geo = board.geometry
    gh, gw = ter.shape
    x0, y0, x1, y1 = region
    if x0 >= x1 or y0 >= y1:
        return
    n = len(pts.los)
    m, py, px = polygons
    in_region = (px >= x0) & (px < x1) & (py >= y0) & (py < y1)
    touched = np.zeros(n, dtype=bool)
    touched[m[in_region]] = True
    # the depression the centre Location keeps: pixels nearest the centre (no hexside point strictly closer)
    dep_px = in_region & luts["depression"][ter[py, px]]
    if dep_px.any():
        dm, dy_, dx_ = m[dep_px], py[dep_px], px[dep_px]
        d_centre = (dx_ - pts.los[dm, 0]) ** 2 + (dy_ - pts.los[dm, 1]) ** 2
        nearest = np.ones(len(dm), dtype=bool)
        for k in range(6):
            d_side = (dx_ - pts.sides[dm, k, 0]) ** 2 + (dy_ - pts.sides[dm, k, 1]) ** 2
            nearest &= ~(d_side < d_centre)
        if nearest.any():
            order = dx_[nearest].astype(np.int64) * gh + dy_[nearest]
            last = np.full(n, -1, dtype=np.int64)
            np.maximum.at(last, dm[nearest], order)
            hit = last >= 0
            remembered[hit] = ter[last[hit] % gh, last[hit] // gh]
    # inherent terrain within 25 pixels of a centre (the first in VASL's scan: x, then y)
    kind = overlay_terrain_type(ov.name)
    inh = luts["inherent"].copy()
    extra = {"Steppe": ("Brush", "Woods"), "Broken": ("Brush",), "Bamboo": ("Brush",)}.get(kind, ())
    for name in extra:
        c = table.code_of(name)
        if c is not None:
            inh[c] = True
    cx = pts.los[:, 0]
    cy = pts.los[:, 1]
    r = 25
    fill: dict[int, int] = {}
    for i in np.nonzero(touched)[0]:
        xs = np.arange(max(x0, cx[i] - r), min(x1, cx[i] + r + 1))
        ys = np.arange(max(y0, cy[i] - r), min(y1, cy[i] + r + 1))
        if len(xs) == 0 or len(ys) == 0:
            continue
        sub = ter[np.ix_(ys, xs)].T  # [x, y]: VASL's scan order
        d2 = (xs[:, None] - cx[i]) ** 2 + (ys[None, :] - cy[i]) ** 2
        hit = inh[sub] & (d2 < r * r)
        if hit.any():
            k = int(np.argmax(hit.ravel()))
            fill[int(i)] = int(sub.ravel()[k])
    for hi, code in fill.items():
        for s in range(6):
            ex, ey = edges[hi, s]
            if 0 <= ex < gw and 0 <= ey < gh:
                ter[ey, ex] = code
    if fill:
        keys = np.array(sorted(fill), dtype=np.int64)
        fm, fy, fx = hex_pixels(pts, keys, gw, gh, geo.hex_height)
        codes = np.array([fill[int(k)] for k in keys], dtype=np.uint8)
        keep = ~luts["hexside"][ter[fy, fx]]
        ter[fy[keep], fx[keep]] = codes[fm[keep]]
    # every touched hex: its highest level (−1 with depression pixels all round), at its centre point
    dep = luts["depression"][ter]
    label = np.full((gh, gw), -1, dtype=np.int64)
    label[py, px] = m
    interior = dep.copy()
    same = np.ones_like(dep)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx == 0 and dy == 0:
                continue
            interior &= shifted(dep, dx, dy, False)
            same &= shifted(label, dx, dy, -2) == label
    interior &= same
    ev = elev.astype(np.int64)
    best = np.full(n, -4, dtype=np.int64)
    np.maximum.at(best, m, ev[py, px])
    has_dep = np.zeros(n, dtype=bool)
    has_dep[m[interior[py, px]]] = True
    level = np.where(has_dep, -1, best)
    for i in np.nonzero(touched)[0]:
        centre_levels[int(i)] = ((int(level[i]) + 128) % 256) - 128


def hex_pass_window(ov: PlacedOverlay, board: VaslBoard, reversed_: bool, crop: tuple[int, int, int, int] | None
                    ) -> tuple[int, int, int, int]:
    """The board pixels ``(x0, y0, x1, y1)`` VASL's hex pass walks for *ov*: a window the size of the board's grid
    (of its crop window on a cropped board) from the picture's top-left corner, clipped to the board, so a
    picture reaching off the top or left edge leaves the board's last rows or columns out.  On a reversed board
    VASL puts that corner where the picture's bottom-right corner lands on the turned board (VASL counting a
    board 1800 × 645 pixels), so the window is clipped from the other side; on a reversed cropped board VASL
    leaves the corner unturned."""
    gw, gh = board.los.grid_width, board.los.grid_height
    cx, cy, cw, ch = crop if crop is not None else (0, 0, gw, gh)
    cw = gw - cx if cw <= 0 else cw
    ch = gh - cy if ch <= 0 else ch
    if not reversed_:
        return (max(cx, ov.x), max(cy, ov.y), min(gw, cx + cw, ov.x + cw), min(gh, cy + ch, ov.y + ch))
    if crop is not None:
        return cx, cy, min(gw, cx + cw - max(0, ov.x - cx)), min(gh, cy + ch - max(0, ov.y - cy))
    bw, bh = _REVERSED_SIZE
    fx = bw - (ov.x + ov.width)
    fy = bh - (ov.y + ov.height)
    return max(0, -fx), max(0, -fy), min(gw, gw - fx), min(gh, gh - fy)
