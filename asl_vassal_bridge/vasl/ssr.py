"""Scenario-specific terrain changes (VASL's "color SSRs") applied to a decoded board, as VASL's LOS model does.

A scenario changes terrain by SSR (no grain, light woods, PTO jungle …);
VASL's board picker keeps a board's SSR tokens in the saved game
(:attr:`~asl_vassal_bridge.vasl.vsav.BoardEntry.ssr`) and VASL's
``ASLMap`` applies them to the board's LOS data right after reading it,
before crop and flip (``VASLBoard.applyColorSSRules``).  Each token names
a rule of SharedBoardMetadata's ``<LOSSSRules>``
(:attr:`~asl_vassal_bridge.vasl.terrain.TerrainTable.ssr_rules`); in the
token order:

* ``ignore``: nothing (the SSR does not change the LOS data: ``NoRoads``, ``Winter`` …);
* ``terrainMap``: every pixel of one terrain becomes another (``NoGrain``: Grain → Open Ground);
* ``elevationMap``: every pixel of one level gets another (``Level2ToLevel1``);
* ``terrainToElevationMap``: every pixel of a terrain becomes Open Ground at a level (``WoodsToLevel1``);
* ``elevationToTerrainMap``: every pixel of a level becomes a terrain at level 0 (``Level1ToGrain``);
* ``customCode``, VASL's own code: ``NoStairwells`` (only two-story buildings keep
  theirs), ``RowhouseBarsToBuildings``/``RowhouseBarsToOpenGround``,
  ``NoBridge``/``BridgeToFord`` (bridges become Gully, the bridge hexes' centres a
  level lower), ``RoadsToPaths``/``NoWoodsRoads`` (woods fill a woods-road hex's
  centre), ``Bamboo`` (Brush → Bamboo), ``PalmTrees`` (orchards → Palm Trees),
  ``SwampToSwampPattern`` (Marsh next to woods or jungle → Swamp),
  ``DenseJungle`` (Woods → Dense Jungle, filling woods hexes but their water);
  the last four are PTO terrain, after which every remaining Woods pixel is
  Light Jungle.

Then each hex's terrain, level and stairway are derived again from the
changed pixels (:func:`~asl_vassal_bridge.vasl.board.derive_hexes`, VASL's
``Map.resetHexTerrain``).  Rules that look at hexes (woods-roads, bamboo,
swamp, dense jungle, bridges) see the hexes as the board was read, as in
VASL, where the hex grid is only reset at the end.

A token VASL's LOS model cannot apply (not among the rules, a customCode rule
VASL has no code for, a level that is not a number, a terrain the table
lacks) makes VASL disable LOS for the whole map.  Here it is left out and
named with the reason (:attr:`SsrResult.not_applied`), the other tokens are
applied, and the readers say so on stderr and in the Position's notes.

Whole-array numpy; VASL's ``java.awt`` shapes (a hex's outline polygon, the
woods and ford ellipses) are tested pixel by pixel with Java's own
insideness rules.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..core.values import replace
from .board import LOSData, VaslBoard, VaslCentres, derive_hexes, vasl_centres
from .board_hex_model import _vasl_centres_codes
from .geometry import row_counts
from .terrain import (
    CUSTOM_SSR_NEEDS,
    ROWHOUSE_WALLS,
    LosSsRule,
    TerrainTable,
    VaslTerrainType,
    ssr_problems,
    ssr_tokens,
)

__all__ = ["PTO_RULES", "SsrResult", "apply_ssr"]

#: customCode rules after which VASL infers PTO terrain (Woods → Light Jungle).
PTO_RULES = frozenset({"Bamboo", "PalmTrees", "SwampToSwampPattern", "DenseJungle"})


@dataclass(frozen=True)
class SsrResult:
    """A board with SSR terrain changes applied, the tokens applied and those VASL's LOS model cannot apply
    either (with why)."""

    board: VaslBoard
    applied: tuple[str, ...] = ()
    not_applied: tuple[tuple[str, str], ...] = ()


# --- java.awt shapes, pixel by pixel --------------------------------------------------


def _polygon_contains(vx: npt.NDArray[np.int64], vy: npt.NDArray[np.int64], xs: npt.NDArray[np.float64],
                      ys: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """``java.awt.Polygon.contains(x, y)`` for *m* polygons (corners ``vx``, ``vy``: ``[m, k]``) at the points
    ``xs[m, w] × ys[m, h]`` → ``[m, w, h]``: Java's crossing count, with its rule for points on an edge."""
    x = xs[:, :, None]
    y = ys[:, None, :]
    col = (slice(None), None, None)
    inside = ((x >= vx.min(axis=1)[col]) & (y >= vy.min(axis=1)[col]) & (x < vx.max(axis=1)[col])
              & (y < vy.max(axis=1)[col]))
    hits = np.zeros(np.broadcast_shapes(x.shape, y.shape), dtype=np.int64)
    k = vx.shape[1]
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(k):
            cx, cy = vx[:, i][col].astype(np.float64), vy[:, i][col].astype(np.float64)
            lx, ly = vx[:, i - 1][col].astype(np.float64), vy[:, i - 1][col].astype(np.float64)
            edge = cy != ly
            right = np.where(cx < lx, lx, cx)
            leftx = np.where(cx < lx, cx, lx)
            up = cy < ly
            y_in = np.where(up, (y >= cy) & (y < ly), (y >= ly) & (y < cy))
            t1 = np.where(up, x - cx, x - lx)
            t2 = np.where(up, y - cy, y - ly)
            test = t1 < (t2 / (ly - cy) * (lx - cx))
            hits += edge & (x < right) & y_in & ((x < leftx) | test)
    out: npt.NDArray[np.bool_] = inside & (hits % 2 == 1)
    return out


def _shape_pixels(mask_fn: str, idx: npt.NDArray[np.int64], pts: VaslCentres, gw: int, gh: int,
                  hex_height: float) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The grid pixels inside each hex *idx*'s outline (``"hex"``) or VASL's centre ellipse (``"ellipse"``:
    ``Ellipse2D(centre − hexHeight/3, 2/3 hexHeight)``) as (hex position in *idx*, y, x) arrays."""
    if len(idx) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    if mask_fn == "hex":
        x0, y0 = pts.box[idx, 0], pts.box[idx, 1]
        w = int((pts.box[idx, 2] - x0).max()) + 1
        h = int((pts.box[idx, 3] - y0).max()) + 1
    else:
        r = hex_height / 3
        x0 = np.floor(pts.los[idx, 0] - r).astype(np.int64)
        y0 = np.floor(pts.los[idx, 1] - r).astype(np.int64)
        w = h = int(np.ceil(2 * r)) + 2
    xs = (x0[:, None] + np.arange(w)[None, :]).astype(np.float64)
    ys = (y0[:, None] + np.arange(h)[None, :]).astype(np.float64)
    if mask_fn == "hex":
        inside = _polygon_contains(pts.vertices[idx, :, 0], pts.vertices[idx, :, 1], xs, ys)
    else:
        d = hex_height * 2 / 3
        ex = (pts.los[idx, 0] - hex_height / 3)[:, None]
        ey = (pts.los[idx, 1] - hex_height / 3)[:, None]
        nx = (xs - ex) / d - 0.5
        ny = (ys - ey) / d - 0.5
        inside = (nx[:, :, None] ** 2 + ny[:, None, :] ** 2) < 0.25
    inside &= ((xs >= 0) & (xs < gw))[:, :, None] & ((ys >= 0) & (ys < gh))[:, None, :]
    m, ix, iy = np.nonzero(inside)
    return m, ys[m, iy].astype(np.int64), xs[m, ix].astype(np.int64)


# --- VASL's Map.gridToHex, for the bridge pixels ----------------------------------------


class _Grid:
    """VASL's hex grid of one board, enough for ``Map.gridToHex`` and ``Map.getAdjacentHex``."""

    def __init__(self, board: VaslBoard, pts: VaslCentres) -> None:
        geo = board.geometry
        self.geo = geo
        self.pts = pts
        self.counts = row_counts(geo.width, geo.height)
        self.start = np.concatenate([[0], np.cumsum(self.counts)[:-1]]).astype(np.int64)

    def index(self, col: int, row: int) -> int | None:
        """The hex index of (column, row index), None off the grid (where Java throws)."""
        if 0 <= col < len(self.counts) and 0 <= row < self.counts[col]:
            return int(self.start[col]) + row
        return None

    def contains(self, i: int | None, x: int, y: int) -> bool:
        if i is None:
            raise IndexError
        v = self.pts.vertices[i:i + 1]
        return bool(_polygon_contains(v[:, :, 0], v[:, :, 1], np.array([[float(x)]]), np.array([[float(y)]]))[0, 0, 0])

    def to_hex(self, x: int, y: int) -> int | None:
        """``Map.gridToHex(x, y)`` (the uncropped "Normal" configuration), with its fallbacks; None where VASL
        returns null."""
        geo = self.geo
        if not (0 <= x < geo.grid_width and 0 <= y < geo.grid_height):
            return None
        hw, hh = geo.hex_width, geo.hex_height
        z = int((x - (0.0 if geo.a1_x < 0 else geo.a1_x)) / (hw / 3.0))
        try:
            if (z - 1) % 3 == 0:
                col = math.ceil((z - 1.0) / 3.0)
                row = int(y / hh if col % 2 == 0 else (y + hh / 2.0) / hh)
                n = len(self.counts)
                length = self.counts
                if col >= n:
                    raise IndexError
                if self.contains(self.index(col, row), x, y):
                    return self.index(col, row)
                for dc, dr in ((0, -1), (0, 1), (1, 0), (1, -1), (1, 1), (-1, 0), (-1, -1)):
                    c, r = col + dc, row + dr
                    if 0 <= c < n and 0 <= r < length[c] and self.contains(self.index(c, r), x, y):
                        return self.index(c, r)
                if col - 1 >= 0 and row + 1 < length[col - 1]:
                    return self.index(col - 1, row + 1) if self.contains(self.index(col - 1, row + 1), x, y) else None
                if col % 2 == 0:
                    if col + 1 < n and row + 1 < length[col + 1]:
                        if self.contains(self.index(col + 1, row + 1), x, y):
                            return self.index(col + 1, row + 1)
                        if row < length[col + 1]:
                            return self.index(col + 1, row) if self.contains(self.index(col + 1, row), x, y) else None
                    return None
                if col + 1 < n and 0 <= row - 1 < length[col + 1]:
                    if self.contains(self.index(col + 1, row - 1), x, y) or row == geo.height:
                        return self.index(col + 1, row - 1)
                    if row < length[col + 1]:
                        return self.index(col + 1, row) if self.contains(self.index(col + 1, row), x, y) else None
                return None
            col = math.ceil(z / 3.0)
            row = int(y / hh if col % 2 == 0 else (y + hh / 2.0) / hh)
            i = self.index(col, row)
            if i is None:
                raise IndexError
            return i
        except IndexError:
            return None

    def neighbours(self) -> npt.NDArray[np.int64]:
        """``[hex, side]`` the adjacent hex across each hexside (``Map.getAdjacentHex``), −1 off the board."""
        n = int(self.start[-1]) + self.counts[-1]
        out = np.full((n, 6), -1, dtype=np.int64)
        for c, count in enumerate(self.counts):
            even = c % 2 == 0
            steps = ((0, -1), (1, 0 if even else -1), (1, 1 if even else 0), (0, 1), (-1, 1 if even else 0),
                     (-1, 0 if even else -1))
            for r in range(count):
                for s, (dc, dr) in enumerate(steps):
                    j = self.index(c + dc, r + dr)
                    if j is not None:
                        out[int(self.start[c]) + r, s] = j
        return out


# --- Applying the rules ---------------------------------------------------------------


def _lut(table: TerrainTable, pred: Callable[[VaslTerrainType], bool]) -> npt.NDArray[np.bool_]:
    lut = np.zeros(256, dtype=bool)
    for code, t in table.by_code.items():
        lut[code] = pred(t)
    return lut


def _wrap_byte(v: int) -> int:
    """Java's ``(byte) v``."""
    return (v + 128) % 256 - 128


class _Pass:
    """One board's pixels while SSR tokens are applied to them (VASL's LOS data between reading and resetting)."""

    def __init__(self, board: VaslBoard) -> None:
        self.board = board
        self.table = board.table
        self.geo = board.geometry
        self.ter = board.los.terrain.copy()
        self.elev = board.los.elevation.copy()
        names = [n for _, _, n in self.geo.hexes()]
        self.stairs = np.array([board.hexes[n].stairwell for n in names], dtype=np.uint8)
        self.centre = np.array([board.hexes[n].terrain.code for n in names], dtype=np.int64)  # as read
        self.base = np.array([board.hexes[n].elevation for n in names], dtype=np.int64)
        self._pts: VaslCentres | None = None
        self.pto = False

    @property
    def pts(self) -> VaslCentres:
        if self._pts is None:
            self._pts = vasl_centres(self.geo)
        return self._pts

    def code(self, name: str) -> int | None:
        return self.table.code_of(name)

    def change_terrain(self, frm: str, to: str) -> None:
        """``VASLBoard.changeGridTerrain``: every pixel of *frm* becomes *to* (no *frm* type: nothing)."""
        f, t = self.code(frm), self.code(to)
        if f is not None and t is not None:
            self.ter[self.ter == f] = t

    def hexes_named(self, *names: str) -> npt.NDArray[np.int64]:
        codes = [c for c in (self.code(n) for n in names) if c is not None]
        return np.nonzero(np.isin(self.centre, codes))[0]

    def fill(self, idx: npt.NDArray[np.int64], shape: str, name: str, *, keep: npt.NDArray[np.bool_] | None = None,
             only: int | None = None) -> None:
        """``LOSDataEditor.setGridTerrain``/``changeAllTerrain``: pixels in each hex's shape become *name*
        (but *keep* pixels; only pixels of code *only* when given)."""
        to = self.code(name)
        if to is None:
            return
        _, py, px = _shape_pixels(shape, idx, self.pts, self.geo.grid_width, self.geo.grid_height,
                                  self.geo.hex_height)
        cur = self.ter[py, px]
        ok = np.ones(len(py), dtype=bool)
        if keep is not None:
            ok &= ~keep[cur]
        if only is not None:
            ok &= cur == only
        self.ter[py[ok], px[ok]] = to

    # customCode rules -----------------------------------------------------------------

    def custom(self, token: str) -> None:
        table = self.table
        if token == "NoStairwells":
            self.stairs[:] = 0
        elif token == "RowhouseBarsToBuildings":
            for frm, to in zip(ROWHOUSE_WALLS, CUSTOM_SSR_NEEDS[token], strict=True):
                self.change_terrain(frm, to)
        elif token == "RowhouseBarsToOpenGround":
            for frm in ROWHOUSE_WALLS:
                self.change_terrain(frm, "Open Ground")
        elif token in ("NoBridge", "BridgeToFord"):
            self.bridges_to_ford()
        elif token in ("RoadsToPaths", "NoWoodsRoads", "NoWoodsRoad"):
            self.fill(self.woods_road_hexes(), "ellipse", "Woods")
        elif token == "Bamboo":
            self.change_terrain("Brush", "Bamboo")
            self.fill(self.hexes_named("Bamboo"), "hex", "Bamboo")
        elif token == "PalmTrees":
            self.change_terrain("Orchard", "Palm Trees")
            self.change_terrain("Orchard, Out of Season", "Palm Trees")
        elif token == "SwampToSwampPattern":
            marsh = self.code("Marsh")
            if marsh is not None:
                near = self.hexes_named("Woods", "Light Jungle", "Dense Jungle")
                adj = _Grid(self.board, self.pts).neighbours()
                is_near = np.zeros(len(self.centre) + 1, dtype=bool)
                is_near[near] = True
                idx = np.nonzero((self.centre == marsh) & is_near[adj].any(axis=1))[0]
                self.fill(idx, "hex", "Swamp", only=marsh)
        elif token == "DenseJungle":
            water = _lut(table, lambda t: t.los_category.upper() == "WATER")
            self.fill(self.hexes_named("Woods"), "hex", "Dense Jungle", keep=water)
            self.change_terrain("Woods", "Dense Jungle")
        self.pto |= token in PTO_RULES

    def woods_road_hexes(self) -> npt.NDArray[np.int64]:
        """``VASLBoard.isForestRoadHex``: a road at the centre and Woods at a hexside Location (the pixel at its
        point, or the hexside terrain at the neighbour's point across it), as the board was read."""
        table, pts = self.table, self.pts
        grid = self.board.los.terrain
        road = _lut(table, lambda t: t.los_category.upper() == "ROAD")
        hexside = _lut(table, lambda t: t.los_category.upper() == "HEXSIDE" or t.name in ROWHOUSE_WALLS
                       or t.name in ("Interior Factory Wall, 1 Level", "Interior Factory Wall, 2 Level"))
        woods = self.code("Woods")
        if woods is None:
            return np.zeros(0, dtype=np.int64)
        gw, gh = self.geo.grid_width, self.geo.grid_height
        sx = np.clip(pts.sides[:, :, 0], 0, gw - 1)
        sy = np.clip(pts.sides[:, :, 1], 0, gh - 1)
        side_t = grid[sy, sx].astype(np.int64)  # [hex, side]
        adj = _Grid(self.board, pts).neighbours()
        opp_side = (np.arange(6) + 3) % 6
        opp_t = np.where(adj >= 0, side_t[np.clip(adj, 0, None), opp_side[None, :]], -1)
        use_opp = (adj >= 0) & ~hexside[side_t] & hexside[np.clip(opp_t, 0, 255)] & (opp_t >= 0)
        loc_t = np.where(use_opp, opp_t, side_t)
        has_woods = ((loc_t == woods) & pts.side_on).any(axis=1)
        return np.nonzero(road[self.centre] & has_woods)[0]

    def bridges_to_ford(self) -> None:
        """``VASLBoard.bridgesToFord``: bridge pixels become Gully; in each hex holding one (``Map.gridToHex``)
        the centre ellipse's pixels drop to the hex's level − 1 (its level if its centre was a depression)."""
        table = self.table
        bridge = _lut(table, lambda t: t.los_category.upper() == "BRIDGE")
        gully = self.code("Gully")
        ys, xs = np.nonzero(bridge[self.ter])
        if gully is None or len(ys) == 0:
            return
        grid = _Grid(self.board, self.pts)
        hexes = {grid.to_hex(int(x), int(y)) for x, y in zip(xs, ys, strict=True)}
        self.ter[ys, xs] = gully
        idx = np.array(sorted(h for h in hexes if h is not None), dtype=np.int64)
        _, _, before = _vasl_centres_codes(self.board.los, self.geo, table, self.pts)
        depression = _lut(table, lambda t: t.los_category.upper() == "DEPRESSION")[before]
        m, py, px = _shape_pixels("ellipse", idx, self.pts, self.geo.grid_width, self.geo.grid_height,
                                  self.geo.hex_height)
        level = self.base[idx] - np.where(depression[idx], 0, 1)
        self.elev[py, px] = np.array([_wrap_byte(int(v)) for v in level], dtype=np.int8)[m]

    # the other rule types -------------------------------------------------------------

    def apply(self, rule: LosSsRule) -> None:
        kind, frm, to = rule.type, rule.from_value, rule.to_value
        if kind == "customCode":
            self.custom(rule.name)
        elif kind == "terrainMap":
            self.change_terrain(frm, to)
        elif kind == "elevationMap":
            self.elev[self.elev.astype(np.int64) == int(frm)] = _wrap_byte(int(to))
        elif kind == "terrainToElevationMap":
            f = self.code(frm)
            og = self.code("Open Ground")
            if f is not None and og is not None:
                hit = self.ter == f
                self.elev[hit] = _wrap_byte(int(to))
                self.ter[hit] = og
        elif kind == "elevationToTerrainMap":
            t = self.code(to)
            if t is not None:
                hit = self.elev.astype(np.int64) == int(frm)
                self.elev[hit] = 0
                self.ter[hit] = t

    def result(self) -> VaslBoard:
        if self.pto:
            self.change_terrain("Woods", "Light Jungle")
        b = self.board
        old = b.los
        los = LOSData(old.width, old.height, old.grid_width, old.grid_height, self.ter, self.elev, self.stairs)
        hexes, buildings = derive_hexes(los, b.geometry, self.table, b.metadata, b.source, model=b.model)
        return replace(b, los=los, hexes=hexes, buildings=buildings)


def apply_ssr(board: VaslBoard, ssr: str | Sequence[str]) -> SsrResult:
    """*board* with the SSR terrain changes *ssr* applied as VASL's LOS model applies them, in order.

    Tokens VASL's LOS model cannot apply are left out and listed with why in
    :attr:`SsrResult.not_applied` (VASL disables LOS for them); without
    tokens (or only ``ignore`` rules) the board itself is returned.

    >>> from pathlib import Path
    >>> from asl_vassal_bridge.vasl.board import read_board
    >>> bd01 = read_board(Path("../shared/vasl/boards/bd01"))  # doctest: +SKIP
    >>> apply_ssr(bd01, "LightWoods").board.hex("C2").terrain.name  # doctest: +SKIP
    'Light Woods'
    """
    tokens = ssr_tokens(ssr)
    if not tokens:
        return SsrResult(board)
    table = board.table
    problems = dict(ssr_problems(tokens, table, board.name))
    run: _Pass | None = None
    applied: list[str] = []
    for token in tokens:
        if token in problems:
            continue
        applied.append(token)
        rule = table.ssr_rules[token]
        if rule.type == "ignore":
            continue
        run = run or _Pass(board)
        run.apply(rule)
    not_applied = tuple((t, problems[t]) for t in tokens if t in problems)
    if run is None:
        return SsrResult(board, tuple(applied), not_applied)
    return SsrResult(run.result(), tuple(applied), not_applied)
