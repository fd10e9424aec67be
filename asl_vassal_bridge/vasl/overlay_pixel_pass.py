"""VASL 6.7.x's pixel pass of a board overlay (``ASLMap.updateTerrainElevationGridsforOverlays``, the second step
of :mod:`.overlay`): every pixel of the placed picture gets the terrain and level its colour has in the board's
colour table, the nearest usable colour's where it has none, transparent pixels beside the art the art's terrain;
depression terrain at level −1, building colours as the ``x`` overlay's building type; an elevation-preserving
overlay's open colours dropped (VASL ``Overlay.transform``) and the board's levels kept."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .board import VaslBoard
from .overlay_placement import PlacedOverlay
from .safe import Archive, VaslFileError, parse_xml
from .terrain import ROWHOUSE_WALLS, TerrainTable, VaslColor, colors_from_xml

__all__ = ["NO_ELEVATION", "ColourTable", "board_colours", "pixel_pass", "preserve_transform", "rgb_of", "shifted",
           "terrain_luts"]

#: VASL's ``BoardMetadata.NO_ELEVATION``.
NO_ELEVATION = -99
#: Colours ``getOverlayNearestColor`` steps over (besides black and the board-number colours): SnowHexDots2,
#: overlay centre dots, the yellow hill numbers and manholes.
_SKIP_RGB = (0xAFB8A0, 0xFBFCFD, 0xFFFEFD, 0xFFFF0A, 0x000100)
_BOARD_NUMBER_COLOURS = ("WhiteHexNumbers", "WinterBlackHexNumbers", "MudBoardNum", "DTO_BoardNum",
                         "AD_WinterBlackHexNumbers")
_WHITE = 0xFFFFFF
_BLACK = 0x000000
#: ``ASLMap.setBuildingTerrainFromOverlay``: the building type of building pixels on overlay ``x<n>``.
_X_BUILDINGS: Mapping[int, str] = {
    **{n: "Stone Building" for n in (1, 2, 4, 5, 6, 7, 11)},
    **{n: "Wooden Building" for n in (3, 9, 26, 28, 29)},
    **{n: "Stone Building, 1 Level" for n in (12, 17, 19, 20, 21, 22, 23, 24, 25, 27, 30, 39)},
    **{n: "Wooden Building, 1 Level" for n in (13, 41)},
    **{n: "Stone Building, 2 Level" for n in (8, 16, 38, 40)},
    10: "Wooden Building, 2 Level",
}
# --- colours -----------------------------------------------------------------------------


def _rgb24(rgb: tuple[int, int, int]) -> int:
    return (rgb[0] << 16) | (rgb[1] << 8) | rgb[2]


@dataclass(frozen=True)
class ColourTable:
    """A board's colour table (VASL ``BoardMetadata``): RGB → colour name (SharedBoardMetadata's first one for a
    repeated RGB, the board's own colours replacing), and each name's terrain code and level."""

    by_rgb: Mapping[int, str]
    terrain: Mapping[str, int]
    level: Mapping[str, int]

    @classmethod
    def build(cls, table: TerrainTable, board_colors: Sequence[VaslColor] = ()) -> ColourTable:
        by_rgb: dict[int, str] = {}
        colours: dict[str, VaslColor] = {}
        for c in table.colors:
            colours[c.name] = c
            by_rgb.setdefault(_rgb24(c.rgb), c.name)
        for c in board_colors:
            colours[c.name] = c
            by_rgb[_rgb24(c.rgb)] = c.name
        terrain: dict[str, int] = {}
        level: dict[str, int] = {}
        for name, c in colours.items():
            code = table.code_of(c.terrain) if c.terrain != "UNKNOWN" else None
            if code is not None:
                terrain[name] = code
            if re.fullmatch(r"-?\d+", c.elevation):
                level[name] = int(c.elevation)
        return cls(by_rgb, terrain, level)

    @cached_property
    def _keys(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The table's RGBs sorted, with each one's terrain code (−1: none) and level (``NO_ELEVATION``: none)."""
        keys = np.array(sorted(self.by_rgb), dtype=np.int64)
        names = [self.by_rgb[int(k)] for k in keys]
        ter = np.array([self.terrain.get(n, -1) for n in names], dtype=np.int64)
        lev = np.array([self.level.get(n, NO_ELEVATION) for n in names], dtype=np.int64)
        return keys, ter, lev

    def _lookup(self, rgb: npt.NDArray[np.int64], values: npt.NDArray[np.int64], default: int
                ) -> npt.NDArray[np.int64]:
        keys = self._keys[0]
        if len(keys) == 0:
            return np.full(rgb.shape, default, dtype=np.int64)
        i = np.clip(np.searchsorted(keys, rgb), 0, len(keys) - 1)
        out: npt.NDArray[np.int64] = np.where(keys[i] == rgb, values[i], default)
        return out

    def terrain_of(self, rgb: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Terrain code per RGB (−1: a colour with no terrain, VASL's ``NO_TERRAIN``)."""
        return self._lookup(rgb, self._keys[1], -1)

    def level_of(self, rgb: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Level per RGB (``NO_ELEVATION`` where the colour has none)."""
        return self._lookup(rgb, self._keys[2], NO_ELEVATION)

    @cached_property
    def _skipped_rgbs(self) -> npt.NDArray[np.int64]:
        names = [r for r, n in self.by_rgb.items() if n in _BOARD_NUMBER_COLOURS]
        return np.array(sorted({_BLACK, *_SKIP_RGB, *names}), dtype=np.int64)

    def skipped(self, rgb: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """The colours ``getOverlayNearestColor`` looks past: black, the board numbers, centre dots."""
        out: npt.NDArray[np.bool_] = np.isin(rgb, self._skipped_rgbs)
        return out

    def code_of_colour(self, name: str) -> int | None:
        return self.terrain.get(name)


def board_colours(board: VaslBoard) -> tuple[VaslColor, ...]:
    """The board's own ``<colors>`` of its BoardMetadata.xml (none when its archive cannot be read again)."""
    try:
        arc = Archive(Path(board.source))
        name = arc.find("BoardMetadata.xml")
        if name is None:
            return ()
        root = parse_xml(arc.read(name, limit=8 * 1024 * 1024), f"{board.source}!{name}", "a BoardMetadata.xml")
    except (VaslFileError, OSError):
        return ()
    return colors_from_xml(root, f"{board.source}!{name}")


# --- the pass ---------------------------------------------------------------------------------


def terrain_luts(table: TerrainTable) -> dict[str, npt.NDArray[np.bool_]]:
    """Per terrain code, whether it is a building, hexside, depression, inherent or open terrain."""
    out = {k: np.zeros(256, dtype=bool) for k in ("building", "hexside", "depression", "inherent", "open")}
    for code, t in table.by_code.items():
        cat = t.los_category.upper()
        out["building"][code] = cat in ("BUILDING", "MARKETPLACE")
        out["hexside"][code] = cat == "HEXSIDE" or t.name in ROWHOUSE_WALLS
        out["depression"][code] = cat == "DEPRESSION"
        out["inherent"][code] = t.inherent
        out["open"][code] = cat == "OPEN"
    return out


def rgb_of(rgba: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """``0xRRGGBB`` per pixel of an RGBA picture."""
    a = rgba.astype(np.int64)
    out: npt.NDArray[np.int64] = (a[..., 0] << 16) | (a[..., 1] << 8) | a[..., 2]
    return out


def shifted(arr: npt.NDArray[Any], dx: int, dy: int, fill: Any) -> npt.NDArray[Any]:
    """``out[v, u] = arr[v + dy, u + dx]`` (*fill* off the array)."""
    h, w = arr.shape[:2]
    out = np.full_like(arr, fill)
    ys = slice(max(0, -dy), min(h, h - dy))
    xs = slice(max(0, -dx), min(w, w - dx))
    ys2 = slice(max(0, dy), min(h, h + dy))
    xs2 = slice(max(0, dx), min(w, w + dx))
    if ys.start < ys.stop and xs.start < xs.stop:
        out[ys, xs] = arr[ys2, xs2]
    return out


def _nearest_colour(rgb: npt.NDArray[np.int64], opaque: npt.NDArray[np.bool_], colours: ColourTable,
                    on_map: Any) -> npt.NDArray[np.int64]:
    """VASL's ``getOverlayNearestColor`` for every picture pixel: black until a usable colour is found on the
    diagonals ((a − 1, a) … for a = 2 … 6), the first of the four that is on the map and the picture and
    opaque; a found colour that is itself to be skipped lets the search go on."""
    h, w = rgb.shape
    color = np.zeros((h, w), dtype=np.int64)
    for a in range(2, 7):
        active = colours.skipped(color)
        if not active.any():
            break
        found = np.zeros((h, w), dtype=bool)
        value = np.zeros((h, w), dtype=np.int64)
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            cand = (shifted(opaque, sx * (a - 1), sy * a, False) & on_map(sx * a, sy * a)) & ~found
            value = np.where(cand, shifted(rgb, sx * (a - 1), sy * a, 0), value)
            found |= cand
        upd = active & found
        color = np.where(upd, value, color)
    return color


def _terrain_from_colour(rgb: npt.NDArray[np.int64], nearest: npt.NDArray[np.int64], grid_ter: npt.NDArray[Any],
                         colours: ColourTable) -> npt.NDArray[np.int64]:
    """``getOverlayTerrainfromColor``: the colour's terrain, else the nearest colour's (white: L0Winter's, black:
    the board's own, unknown: Open Ground)."""
    code = colours.terrain_of(rgb)
    near = colours.terrain_of(nearest)
    white = colours.code_of_colour("L0Winter")
    near = np.where(near < 0, 0, near)
    near = np.where(nearest == _WHITE, white if white is not None else 0, near)
    near = np.where(nearest == _BLACK, grid_ter.astype(np.int64), near)
    out: npt.NDArray[np.int64] = np.where(code >= 0, code, near)
    return out


def _level_from_colour(rgb: npt.NDArray[np.int64] | None, nearest: npt.NDArray[np.int64],
                       colours: ColourTable) -> npt.NDArray[np.int64]:
    """``getOverlayElevationfromColor`` (``NO_ELEVATION`` where the board's own level is kept)."""
    near = colours.level_of(nearest)
    near = np.where(nearest == _WHITE, 0, near)
    near = np.where(nearest == _BLACK, NO_ELEVATION, near)
    if rgb is None:
        return near
    own = colours.level_of(rgb)
    out: npt.NDArray[np.int64] = np.where(own != NO_ELEVATION, own, near)
    return out


def _transparent_terrain(rgba: npt.NDArray[np.uint8], rgb: npt.NDArray[np.int64], opaque: npt.NDArray[np.bool_],
                         gw: int, gh: int, on_map_xy: Any) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """``setTerrainForTransparentPixel``: for each transparent pixel, whether a terrain colour was found (the first
    diagonal 2, 4, 6 or 8 pixels away that lies on the picture, if opaque) and that colour's RGB."""
    h, w = opaque.shape
    us = np.arange(w)[None, :]
    vs = np.arange(h)[:, None]
    done = np.zeros((h, w), dtype=bool)  # the search ended (found opaque, or nothing on the picture)
    hit = np.zeros((h, w), dtype=bool)
    colour = np.zeros((h, w), dtype=np.int64)
    for j in (2, 4, 6, 8):
        chosen = np.zeros((h, w), dtype=bool)
        c_op = np.zeros((h, w), dtype=bool)
        c_rgb = np.zeros((h, w), dtype=np.int64)
        for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            # VASL tests onMap with the picture's own coordinates here
            uu, vv = us + sx * j, vs + sy * j
            ok = (uu >= 0) & (uu < min(w, gw)) & (vv >= 0) & (vv < min(h, gh))
            cand = ok & ~chosen
            c_op = np.where(cand, shifted(opaque, sx * j, sy * j, False), c_op)
            c_rgb = np.where(cand, shifted(rgb, sx * j, sy * j, 0), c_rgb)
            chosen |= cand
        live = ~done
        none = live & ~chosen
        done |= none
        got = live & chosen & c_op
        hit |= got
        colour = np.where(got, c_rgb, colour)
        done |= got
    # pixels on the picture's edge next to a transparent edge pixel are skipped (pixelOnTransparentOverlayBorder)
    border = _transparent_border(opaque, on_map_xy)
    return hit & ~opaque & ~border, colour


def _transparent_border(opaque: npt.NDArray[np.bool_], on_map_xy: Any) -> npt.NDArray[np.bool_]:
    h, w = opaque.shape
    out = np.zeros((h, w), dtype=bool)
    a = 3

    def at(u: int, v: int) -> bool:
        return bool(0 <= u < w and 0 <= v < h and opaque[v, u])

    edge = {(u, v) for v in range(h) for u in (0, w - 1)} | {(u, v) for u in range(w) for v in (0, h - 1)}
    for u, v in edge:
        if u in (0, w - 1):
            if on_map_xy(u, v + a):
                out[v, u] = not at(u, v + (-a if v + a > h - 1 else a))
            elif on_map_xy(u, v - a):
                out[v, u] = not at(u, v - (-a if v - a < 0 else a))
            else:
                out[v, u] = True
        elif v in (0, h - 1):
            if on_map_xy(u + a, v):
                out[v, u] = not at(u + (-a if u + a > w - 1 else a), v)
            elif on_map_xy(u - a, v):
                out[v, u] = not at(u - (-a if u - a < 0 else a), v)
            else:
                out[v, u] = True
    return out


def preserve_transform(ov: PlacedOverlay, board_rgb: npt.NDArray[np.int64] | None, shared: ColourTable,
                       table: TerrainTable, luts: Mapping[str, npt.NDArray[np.bool_]]) -> npt.NDArray[np.uint8]:
    """VASL ``Overlay.transform`` for an elevation-preserving overlay: open colours become transparent, or the
    board's open colour within 3 pixels where the board shows other terrain there."""
    rgba = ov.rgba.copy()
    if "og" in ov.name:
        return rgba
    rgb = rgb_of(rgba)
    code = shared.terrain_of(rgb)
    opaque = rgba[..., 3] > 0
    open_px = opaque & (code >= 0) & luts["open"][np.clip(code, 0, 255)]
    rgba[open_px] = 0
    if board_rgb is None:
        return rgba
    bh, bw = board_rgb.shape
    bcode = shared.terrain_of(board_rgb)
    for v, u in zip(*np.nonzero(open_px), strict=True):
        x, y = ov.x + int(u), ov.y + int(v)
        if not (0 <= x < bw and 0 <= y < bh):
            continue
        bc = int(bcode[y, x])
        if bc < 0 or luts["open"][bc]:
            continue
        for py in range(max(0, y - 3), min(bh - 1, y + 3) + 1):
            stop = False
            for px in range(max(0, x - 3), min(bw - 1, x + 3) + 1):
                if (px - x) ** 2 + (py - y) ** 2 > 9:
                    continue
                tc = int(bcode[py, px])
                if tc < 0:  # VASL: a null terrain throws, and the pixel stays transparent
                    stop = True
                    break
                if luts["open"][tc]:
                    c = int(board_rgb[py, px])
                    rgba[v, u] = ((c >> 16) & 255, (c >> 8) & 255, c & 255, 255)
                    stop = True
                    break
            if stop:
                break
    return rgba


def pixel_pass(ter: npt.NDArray[np.uint8], elev: npt.NDArray[np.int8], ov: PlacedOverlay, rgba: npt.NDArray[np.uint8],
               colours: ColourTable, table: TerrainTable, luts: Mapping[str, npt.NDArray[np.bool_]],
               ssr: str) -> None:
    """``updateTerrainElevationGridsforOverlays`` on the board's grids, in place."""
    gh, gw = ter.shape
    h, w = rgba.shape[:2]
    rgb = rgb_of(rgba)
    opaque = rgba[..., 3] > 0
    gx = ov.x + np.arange(w)[None, :]
    gy = ov.y + np.arange(h)[:, None]
    inside = np.broadcast_to((gx >= 0) & (gw > gx) & (gy >= 0) & (gh > gy), (h, w))
    xc = np.clip(np.broadcast_to(gx, (h, w)), 0, gw - 1)
    yc = np.clip(np.broadcast_to(gy, (h, w)), 0, gh - 1)
    grid_ter = ter[yc, xc].astype(np.int64)
    grid_elev = elev[yc, xc].astype(np.int64)

    def on_map(dx: int, dy: int) -> npt.NDArray[np.bool_]:
        xx, yy = gx + dx, gy + dy
        return np.broadcast_to((xx >= 0) & (xx < gw) & (yy >= 0) & (yy < gh), (h, w))

    def on_map_xy(u: int, v: int) -> bool:
        return bool(0 <= ov.x + u < gw and 0 <= ov.y + v < gh)

    nearest = _nearest_colour(rgb, opaque, colours, on_map)
    code = _terrain_from_colour(rgb, nearest, grid_ter, colours)
    trans_hit, trans_rgb = _transparent_terrain(rgba, rgb, opaque, gw, gh, on_map_xy)
    if trans_hit.any():
        # the found colour's terrain; its own nearest-colour search starts from the transparent pixel
        code = np.where(trans_hit, _terrain_from_colour(trans_rgb, nearest, grid_ter, colours), code)
    write = inside & (opaque | trans_hit)
    if "Bamboo" in ssr:
        brush, bamboo = table.code_of("Brush"), table.code_of("Bamboo")
        if brush is not None and bamboo is not None:
            code = np.where(code == brush, bamboo, code)
    code = np.clip(code, 0, 255)
    # building pixels on a numbered x overlay: that overlay's building type
    building = luts["building"][code] & ~luts["hexside"][code]
    m = re.fullmatch(r".(\d+)", ov.name)
    as_type = _X_BUILDINGS.get(int(m.group(1))) if m else None
    if as_type is not None and building.any():
        bcode = table.code_of(as_type)
        if bcode is not None:
            code = np.where(building, bcode, code)
    if ov.preserve_elevation:
        level = grid_elev.copy()
    else:
        level = np.where(opaque, _level_from_colour(rgb, nearest, colours), _level_from_colour(None, nearest, colours))
        level = np.where(level == NO_ELEVATION, grid_elev, level)
    level = np.where(luts["depression"][code], grid_elev - 1 if ov.preserve_elevation else -1, level)
    vs, us = np.nonzero(write)
    ter[ov.y + vs, ov.x + us] = code[vs, us].astype(np.uint8)
    elev[ov.y + vs, ov.x + us] = (((level[vs, us] + 128) % 256) - 128).astype(np.int8)
