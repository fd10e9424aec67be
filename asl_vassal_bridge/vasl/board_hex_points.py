"""The points VASL's ``Hex`` reads on a board's pixel grid (a step of :mod:`.board`): each hex's centre, hexside and
outline points, a point-in-outline test as Java's ``Polygon.contains``, and each hex's neighbours."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .geometry import BoardGeometry

__all__ = ["VaslCentres", "vasl_centres"]


@dataclass(frozen=True)
class VaslCentres:
    """Per hex (in :meth:`BoardGeometry.hexes` order) the points VASL's ``Hex`` uses, in board pixels.

    *fixed*: the centre pulled onto the grid at its edges (``fixMapEdgePoints``);
    *los*: the centre Location's point (the fixed centre truncated to whole pixels);
    *sides*: ``[hex, side, (x, y)]`` the six hexside Locations' points (the
    hexside midpoints one pixel inward, side 0 up, clockwise); *side_on*:
    which hexsides VASL counts as on the map; *box*: the bounding box
    ``(x0, y0, x1, y1)`` (end exclusive) of the hex outline; *vertices*:
    ``[hex, corner, (x, y)]`` the outline's corners, rounded to whole pixels
    (VASL's ``Hex.hexBorder`` polygon, corner 0 the top left, clockwise).
    """

    fixed: npt.NDArray[np.float64]
    los: npt.NDArray[np.int64]
    sides: npt.NDArray[np.int64]
    side_on: npt.NDArray[np.bool_]
    box: npt.NDArray[np.int64]
    vertices: npt.NDArray[np.int64]


def _fix_edge(v: npt.NDArray[np.float64], size: int) -> npt.NDArray[np.float64]:
    """VASL ``Hex.fixMapEdgePoints`` on one axis: -1 → 0, and size or size + 1 → size − 1."""
    v = np.where(v == -1.0, 0.0, v)
    t = np.trunc(v)
    return np.where((t == size) | (t == size + 1), size - 1.0, v)


def vasl_centres(geo: BoardGeometry) -> VaslCentres:
    """The centre, hexside and outline points of every hex, computed as VASL 6.7.x's ``Hex`` does (a centre beyond the
    grid's last pixel column, the last hex column's, is moved onto it first: ``Map.getHexCenterPoint``)."""
    hexes = geo.hexes()
    raw = np.array([geo.centre(c, r) for c, r, _ in hexes], dtype=np.float64)
    gw, gh = geo.grid_width, geo.grid_height
    raw[:, 0] = np.where(raw[:, 0] >= gw, gw - 1.0, raw[:, 0])  # VASL 6.7.x Map.getHexCenterPoint: last column
    x, y = raw[:, 0], raw[:, 1]
    fixed = np.stack([_fix_edge(x, gw), _fix_edge(y, gh)], axis=1)
    los = np.trunc(fixed).astype(np.int64)
    vo = geo.hex_height / 2.0
    ho = math.cos(math.radians(30.0)) * vo
    offsets = ((0.0, -vo + 1.0, False), (ho - 1.0, -vo / 2 + 1.0, True), (ho - 1.0, vo / 2 - 1.0, True),
               (0.0, vo - 1.0, False), (-ho + 1.0, vo / 2 - 1.0, True), (-ho + 1.0, -vo / 2 + 1.0, True))
    sides = np.empty((len(hexes), 6, 2), dtype=np.int64)
    for k, (dx, dy, shift_x) in enumerate(offsets):
        sx = np.trunc(x + dx) if shift_x else np.trunc(x)
        sides[:, k, 0] = np.trunc(_fix_edge(sx, gw))
        sides[:, k, 1] = np.trunc(_fix_edge(np.trunc(y + dy), gh))
    side = geo.hex_width * 2.0 / 3.0
    vx = [x - side / 2, x + side / 2, x + side, x + side / 2, x - side / 2, x - side]
    vy = [y - vo, y - vo, y, y + vo, y + vo, y]
    rx = np.stack([np.floor(_fix_edge(v, gw) + 0.5) for v in vx], axis=1)  # Math.round
    ry = np.stack([np.floor(_fix_edge(v, gh) + 0.5) for v in vy], axis=1)
    box = np.stack([rx.min(axis=1), ry.min(axis=1), rx.max(axis=1), ry.max(axis=1)], axis=1).astype(np.int64)
    cols = np.array([c for c, _, _ in hexes])
    rows = np.array([r for _, r, _ in hexes])
    odd = cols % 2 == 1
    side_on = np.ones((len(hexes), 6), dtype=bool)
    side_on[raw[:, 0] < geo.hex_width / 2, 4:6] = False  # Hex.setHexFlags: the map's first column
    side_on[cols + 1 == geo.width, 1:3] = False
    top = odd & (rows == 0)
    side_on[np.ix_(top, [0, 1, 5])] = False
    bottom = odd & (rows == geo.height)
    side_on[np.ix_(bottom, [2, 3, 4])] = False
    vertices = np.stack([rx, ry], axis=2).astype(np.int64)
    return VaslCentres(fixed, los, sides, side_on, box, vertices)


def _in_polygon(vx: Sequence[int], vy: Sequence[int], px: npt.NDArray[np.int64],
                py: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Java's ``Polygon.contains(x, y)`` for the points (*px*, *py*): its bounding box, then its crossing count."""
    inside = (px >= min(vx)) & (px < max(vx)) & (py >= min(vy)) & (py < max(vy))
    hits = np.zeros(px.shape, dtype=np.int64)
    lastx, lasty = vx[-1], vy[-1]
    for curx, cury in zip(vx, vy, strict=True):
        prevx, prevy = lastx, lasty
        lastx, lasty = curx, cury
        if cury == prevy:
            continue
        if curx < prevx:
            ok = px < prevx
            leftx = curx
        else:
            ok = px < curx
            leftx = prevx
        if cury < prevy:
            ok &= (py >= cury) & (py < prevy)
            t1, t2 = px - curx, py - cury
        else:
            ok &= (py >= prevy) & (py < cury)
            t1, t2 = px - prevx, py - prevy
        left = px < leftx
        cross = t1 < t2 / (prevy - cury) * (prevx - curx)
        hits += ok & (left | cross)
    result: npt.NDArray[np.bool_] = inside & (hits % 2 == 1)
    return result


def _first_in_hex(ter: npt.NDArray[np.uint8], mask: npt.NDArray[np.bool_], p: VaslCentres, i: int) -> int:
    """The code of the first pixel of *mask* inside hex *i*'s outline (``Hex.contains``), scanning column by
    column as ``Hex.getBridgeTerrain``/``getDepressionTerrain`` do; −1 for none."""
    gh, gw = mask.shape
    x0, y0, x1, y1 = (int(v) for v in p.box[i])
    xs, ys = np.arange(max(x0, 0), min(x1, gw)), np.arange(max(y0, 0), min(y1, gh))
    if len(xs) == 0 or len(ys) == 0:
        return -1
    gx, gy = np.meshgrid(xs, ys, indexing="ij")  # x outer, y inner
    hit = mask[gy, gx] & _in_polygon(p.vertices[i, :, 0].tolist(), p.vertices[i, :, 1].tolist(), gx, gy)
    flat = hit.ravel()
    if not flat.any():
        return -1
    k = int(flat.argmax())
    return int(ter[gy.ravel()[k], gx.ravel()[k]])


def _box_has(mask: npt.NDArray[np.bool_], p: VaslCentres) -> npt.NDArray[np.bool_]:
    """Whether each hex's outline bounding box holds a pixel of *mask* (a cheap pre-test)."""
    gh, gw = mask.shape
    if not mask.any():
        return np.zeros(len(p.box), dtype=bool)
    integral = np.zeros((gh + 1, gw + 1), dtype=np.int32)
    integral[1:, 1:] = mask.cumsum(axis=0, dtype=np.int32).cumsum(axis=1, dtype=np.int32)
    x0, y0 = np.clip(p.box[:, 0], 0, gw), np.clip(p.box[:, 1], 0, gh)
    x1, y1 = np.clip(p.box[:, 2], 0, gw), np.clip(p.box[:, 3], 0, gh)
    result: npt.NDArray[np.bool_] = (integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]) > 0
    return result


#: (column, row index) steps across hexsides 0–5 (0 up, clockwise) from a column that starts
#: with a half hex (long) and from one that does not (short).
_LONG_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))


_SHORT_STEPS = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def _neighbour(index: Mapping[tuple[int, int], int], geo: BoardGeometry, c: int, r: int, side: int) -> int | None:
    """Index of the neighbour across hexside *side* (0 up, clockwise), or None off the board."""
    long_col = c % 2 == geo.long_parity  # shifted half a hex up: see BoardGeometry.centre
    steps = _LONG_STEPS if long_col else _SHORT_STEPS
    dc, dr = steps[side]
    return index.get((c + dc, r + dr))
