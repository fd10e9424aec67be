"""Board overlays applied to a board's terrain as VASL 6.7.x applies them to its LOS model.

A scenario puts overlays on boards (a hill, woods, a building, a stream…);
VASL's board picker keeps them in the board entry of the saved game
(:attr:`~asl_vassal_bridge.vasl.vsav.BoardEntry.overlays`: name, hex 1,
hex 2) and since 6.6.4 its ``ASLMap.adjustLOSForOverlays`` puts them into
its LOS model (vasl-developers/vasl #1088, #1439).  The art of an overlay
lives in an archive of VASL's ``boards/overlays`` folder (``ovrX`` holds
``x1`` … ``x30``), one picture per orientation ``a`` … ``f``; its ``data``
file names, per overlay, the hex whose centre lies where the picture's
top-left pixel does, per orientation (VASL ``Overlay``).  This module does
what VASL 6.7.x does, in two passes per overlay, on the board's own pixel
grids (before crop and reversal), then lets the board reader derive every
hex from the changed pixels (:func:`~asl_vassal_bridge.vasl.board.derive_hexes`,
VASL's final ``Map.resetHexTerrain``):

1. *Pixels* (``updateTerrainElevationGridsforOverlays``).  Every opaque
   pixel of the picture gets the terrain and level its colour has in the
   board's colour table (SharedBoardMetadata's ``<colors>``, the board's
   own ``<colors>`` winning).  A colour with no terrain or no level takes
   the one of the nearest usable colour of the picture (VASL's
   ``getOverlayNearestColor``: diagonal steps 2–6), white meaning Open
   Ground at level 0 and nothing found leaving the board's own terrain or
   level.  A transparent pixel takes the terrain of the first picture
   pixel 2, 4, 6 or 8 pixels away diagonally, if that one is opaque, and is
   left alone otherwise (or on the picture's edge, next to a transparent
   edge pixel).  Depression terrain (gully, stream, sunken road…) lies at
   level −1; building colours on a numbered ``x`` overlay become that
   overlay's building type (``x1`` stone, ``x3`` wooden, ``x8`` two-level
   stone…).  With elevation preserved (the overlay's fourth token
   ``true``), open colours become transparent (or the board's open colour
   where the board shows other terrain: VASL ``Overlay.transform``) and
   every level stays the board's.
2. *Hexes* (``updateHexGridforOverlayTerrain``).  Over every pixel from the
   picture's top-left corner to the board's right and bottom edges (VASL
   walks that far, not only the picture), a hex whose centre has inherent
   terrain (orchard, rubble…) within 25 pixels is filled with it, and its
   six hexside points too; then the highest level drawn in every hex
   touched (−1 where it holds depression pixels all round) is written at
   its centre point, in the grid VASL checks LOS on (VASL 6.7.x's
   ``Hex.resetTerrain`` reads a hex's level one pixel off the centre: the
   hexes are derived without those points); a hex whose centre Location
   the pass leaves remembering a depression is named in
   :attr:`OverlayResult.depressions`.

Then VASL rebuilds its hillocks and dier lips from the grid (the hex reader
reads the same Hillock and Dier Lip pixels).

VASL skips underlays (no name), ``NoCliffs``, ``LightWoods`` and
``RB_Gutted`` overlays (its SSR code handles those); VASL 6.7.0–6.7.1 also
skipped most ``BSO`` board-specific overlays, 6.7.2 on does not.  Rice
paddy overlays are applied as VASL applies them, but VASL 6.7.x checks no
LOS rule of rice paddies (#1439): :data:`RICE_PADDY_NOTE`.

Whole-array numpy: no per-pixel Python loop but over the few pixels an
elevation-preserving overlay recolours.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ..core.values import replace
from .board import BoardGeometry, LOSData, VaslBoard, VaslCentres, VaslModel, derive_hexes, reversed_board, vasl_centres
from .safe import Archive, VaslFileError, parse_xml
from .terrain import ROWHOUSE_WALLS, TerrainTable, VaslColor, colors_from_xml

__all__ = [
    "RICE_PADDY_NOTE",
    "ColourTable",
    "OverlayError",
    "OverlayResult",
    "PlacedOverlay",
    "apply_entry",
    "apply_overlays",
    "archive_name",
    "covered_hexes",
    "entry_notes",
    "find_overlay_archive",
    "overlay_dirs",
    "overlay_terrain_type",
    "place_overlay",
    "plan_notes",
    "skip_reason",
]

#: One line said wherever a rice paddy overlay is applied.
RICE_PADDY_NOTE = ("VASL 6.7.x checks no LOS rule of rice paddies (vasl-developers/vasl #1439): their pixels are "
                   "in its model, their banks and B.8/G8 rules are not")

#: Largest overlay picture decoded (the biggest official overlays are a few hundred pixels wide).
MAX_OVERLAY_PIXELS = 4_000_000
#: VASL's ``BoardMetadata.NO_ELEVATION``.
NO_ELEVATION = -99
#: Colours ``getOverlayNearestColor`` steps over (besides black and the board-number colours): SnowHexDots2,
#: overlay centre dots, the yellow hill numbers and manholes.
_SKIP_RGB = (0xAFB8A0, 0xFBFCFD, 0xFFFEFD, 0xFFFF0A, 0x000100)
_BOARD_NUMBER_COLOURS = ("WhiteHexNumbers", "WinterBlackHexNumbers", "MudBoardNum", "DTO_BoardNum",
                         "AD_WinterBlackHexNumbers")
_WHITE = 0xFFFFFF
_BLACK = 0x000000
#: The constant board size VASL's hex pass uses for a reversed board.
_REVERSED_SIZE = (1800, 645)
#: ``ASLMap.setBuildingTerrainFromOverlay``: the building type of building pixels on overlay ``x<n>``.
_X_BUILDINGS: Mapping[int, str] = {
    **{n: "Stone Building" for n in (1, 2, 4, 5, 6, 7, 11)},
    **{n: "Wooden Building" for n in (3, 9, 26, 28, 29)},
    **{n: "Stone Building, 1 Level" for n in (12, 17, 19, 20, 21, 22, 23, 24, 25, 27, 30, 39)},
    **{n: "Wooden Building, 1 Level" for n in (13, 41)},
    **{n: "Stone Building, 2 Level" for n in (8, 16, 38, 40)},
    10: "Wooden Building, 2 Level",
}
#: Board names whose overlay origins VASL shifts 16 columns (the half boards "b", columns Q…GG).
_B_BOARDS = frozenset(f"{n}b" for n in range(1, 22))
_DW_B_BOARDS = frozenset(f"BFPDW{n}b" for n in range(1, 8))


class OverlayError(VaslFileError):
    """An overlay that cannot be placed or read (VASL refuses it too)."""


# --- names and archives ----------------------------------------------------------------


def _equivalence(name: str) -> str:
    for old, new in (("be2", "be1"), ("be3", "be1"), ("be5", "be4"), ("be6", "be4"), ("oc2", "oc1"),
                     ("oc4", "oc3")):
        if name.startswith(old):
            return new + name[3:]
    return name


def archive_name(name: str) -> str:
    """The overlay archive holding overlay *name* (VASL ``Overlay.archiveName``).

    >>> archive_name("x12"), archive_name("wd34"), archive_name("st1"), archive_name("rt")
    ('ovrX', 'ovrWD', 'ovrST', 'ovrRT')
    """
    s = _equivalence(name + "a")
    if s[:1].isdigit():
        return "ovr" + s[:-1].upper()
    s = s[:-1].rstrip("0123456789")
    return "ovr" + s.upper()


def image_member(name: str, orientation: str) -> str:
    """The picture of overlay *name* in *orientation* (``ovrx1a.gif``)."""
    return "ovr" + _equivalence(name + orientation) + ".gif"


def overlay_dirs(boards_dir: Path | str) -> tuple[Path, ...]:
    """Where a VASL boards folder keeps its overlay archives: ``overlays/`` in it (VASL's layout), and itself."""
    d = Path(boards_dir)
    return (d / "overlays", d)


def find_overlay_archive(dirs: Iterable[Path | str], name: str) -> Path | None:
    """The archive of overlay *name* in the first of *dirs* that has it, or None.

    :raises BadName: for a name that is not a plain name (``/../../X``): it is never looked up.
    """
    from .names import BadName, file_in, is_plain_name

    if not is_plain_name(name):
        raise BadName(f"overlay {name[:60]!r}: not an overlay's name (e.g. x1, its archive in the boards folder's "
                      "overlays/); refused")
    want = archive_name(name)
    for d in dirs:
        p = file_in(d, want, "overlay archive")
        if p.is_file():
            return p
    return None


def skip_reason(name: str) -> str | None:
    """Why VASL 6.7.x's ``adjustLOSForOverlays`` leaves overlay *name* out of its LOS model, or None."""
    if name == "":
        return "an underlay: VASL puts its terrain into the LOS model by SSR, not as an overlay"
    if "NoCliffs" in name:
        return "VASL's board SSR code removes the cliffs, not the overlay"
    if "LightWoods" in name:
        return "VASL applies light woods by its LightWoods SSR rule, not the overlay"
    if "RB_Gutted" in name:
        return "VASL applies gutted factories by its SSR code, not the overlay"
    return None


def is_rice_paddy(name: str) -> bool:
    """Overlay *name* is a rice paddy overlay (``rp1`` …)."""
    return name.lower().startswith("rp")


def overlay_terrain_type(name: str) -> str:
    """VASL's ``ASLMap.getOverlayTerrainType``: the kind of overlay its name says, in VASL's order of tests.

    >>> overlay_terrain_type("wd1"), overlay_terrain_type("x7"), overlay_terrain_type("b2")
    ('Woods', 'Building', 'Brush')
    """
    checks = (("Steppe", "Steppe"), ("SSO", "SSO"), ("Bocage", "Bocage"), ("BrokenTerrain", "Broken"),
              ("PalmTrees", "Palm Trees"), ("Bamboo", "Bamboo"), ("elrr", "Elevated Railroad"),
              ("surr", "Sunken Railroad"), ("rr", "Railroad"), ("NoRoads", "NoRoads"), ("rv", "River"),
              ("sw", "Swamp"), ("be", "Beach"), ("b", "Brush"), ("hd", "Hedges"), ("sh", "Shellholes"))
    for key, kind in checks:
        if key in name:
            return kind
    if "og" in name or name in ("dx1", "dx5"):
        return "Open Ground"
    for key, kind in (("m", "Marsh"), ("g", "Grain"), ("p", "Water"), ("ow", "Woods"), ("oc", "Ocean")):
        if key in name:
            return kind
    if "o" in name or name in ("dx3", "dx7"):
        return "Orchard"
    if "wd" in name or name in ("dx2", "dx4"):
        return "Woods"
    if "x" in name and "dx" not in name:
        return "Building"
    for key, kind in (("hi", "Hill"), ("st", "Stream"), ("sr", "Stone Rubble"), ("wr", "Wooden Rubble"),
                      ("wt", "Water"), ("v", "Vineyard"), ("w", " "), ("rp", "Rice Paddy"), ("ef", "Effluent"),
                      ("LightGrain", "Light Grain")):
        if key in name:
            return kind
    return ""


@dataclass(frozen=True)
class OverlayArchive:
    """An overlay archive: its ``data`` file (origins per overlay, version) and its members."""

    path: str
    origins: Mapping[str, tuple[str, ...]]
    version: str
    members: frozenset[str]
    archive: Archive = field(repr=False)

    @classmethod
    def read(cls, path: Path | str) -> OverlayArchive:
        arc = Archive(Path(path))
        data_name = arc.find("data")
        origins: dict[str, tuple[str, ...]] = {}
        version = "0"
        if data_name is not None:
            text = arc.read(data_name, limit=1024 * 1024).decode("latin-1")
            for line in text.splitlines():
                toks = line.split()
                if len(toks) < 2:
                    continue
                if toks[0].lower() == "version":
                    version = toks[1]
                else:
                    origins[toks[0].lower()] = tuple(t.strip() for t in line.strip()[len(toks[0]):].strip().split(";"))
        return cls(str(path), origins, version, frozenset(arc.names()), arc)

    def has(self, member: str) -> bool:
        return member in self.members

    def image(self, member: str) -> npt.NDArray[np.uint8]:
        """The picture *member* as ``[y, x, RGBA]`` (a GIF's transparent colour: alpha 0, as Java reads it)."""
        from PIL import Image

        source = f"{self.path}!{member}"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                im = Image.open(io.BytesIO(self.archive.read(member)))
                if im.width * im.height > MAX_OVERLAY_PIXELS:
                    raise OverlayError(f"{source}: the overlay picture is {im.width}×{im.height} pixels, more than "
                                       f"{MAX_OVERLAY_PIXELS:,} (refusing it)")
                rgba = np.asarray(im.convert("RGBA"), dtype=np.uint8).copy()
        except VaslFileError:
            raise
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombWarning, Image.DecompressionBombError) as e:
            raise OverlayError(f"{source}: the overlay picture does not decode ({e}); expected a GIF") from None
        rgba[rgba[..., 3] == 0] = 0  # Java's ARGB of a transparent pixel is 0
        return rgba


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


# --- placement -----------------------------------------------------------------------------


class BoardGrid(Protocol):
    """What placing an overlay needs of a board: its name and hex grid (a :class:`VaslBoard` has both)."""

    @property
    def name(self) -> str: ...

    @property
    def geometry(self) -> BoardGeometry: ...


@dataclass(frozen=True)
class PlacedOverlay:
    """An overlay as VASL places it on a board: picture (``[y, x, RGBA]``, orientation applied), top-left corner
    in board pixels (before crop and reversal), and the board entry's facts."""

    name: str
    hex1: str
    hex2: str
    orientation: str
    x: int
    y: int
    rgba: npt.NDArray[np.uint8] = field(repr=False)
    preserve_elevation: bool = False
    archive: str = ""

    @property
    def width(self) -> int:
        return int(self.rgba.shape[1])

    @property
    def height(self) -> int:
        return int(self.rgba.shape[0])

    def label(self) -> str:
        return _label(self)


def _grid_point(board: BoardGrid, hex_name: str) -> tuple[int, int]:
    """VASSAL's snap point of *hex_name* on the board (its centre, rounded)."""
    geo = board.geometry
    try:
        col, row = geo.parse(hex_name)
    except Exception:
        raise OverlayError(f"board {board.name}: {hex_name!r} is not a hex of the board") from None
    x, y = geo.centre(col, row)
    return math.floor(x + 0.5), math.floor(y + 0.5)


def _orientation(board: BoardGrid, hex1: str, hex2: str) -> str:
    """VASL ``Overlay.getOrientation``: a … f from where hex 2 lies from hex 1."""
    if hex1 == hex2 or not hex2:
        return "a"
    (x1, y1), (x2, y2) = _grid_point(board, hex1), _grid_point(board, hex2)
    if x1 == x2:
        return "d" if y1 < y2 else "a"
    if x1 > x2:
        return "f" if y1 > y2 else "e"
    return "b" if y1 > y2 else "c"


def _origin_hex(board: BoardGrid, origin: str) -> str:
    o = origin.strip()
    if board.name in _B_BOARDS and o:
        o = chr(ord(o[0]) + 16) + o[1:]
    if board.name in _DW_B_BOARDS and len(o) > 1 and o[1:].isdigit():
        o = o[0] + str(int(o[1:]) + 10)
    return o


#: The origins VASL's ``Overlay`` assumes for an overlay its archive's data file does not list, when the name is
#: one of the common one-hex families (woods, grain, marsh, pond, building, brush, rice paddy, railroad, hedge,
#: orchard); others have their own line in every archive checked.
_COMMON_ORIGINS = ("b2", "b1", "c1", "d1", "d2", "c3")
_COMMON_PREFIXES = ("wd", "g", "m", "p", "x", "b", "rp", "rr", "hd", "o")


def _default_origins(name: str) -> tuple[str, ...] | None:
    return _COMMON_ORIGINS if name.startswith(_COMMON_PREFIXES) else None


def place_overlay(board: BoardGrid, name: str, hex1: str, hex2: str, arc: OverlayArchive,
                  preserve_elevation: bool = False) -> PlacedOverlay:
    """Overlay *name* placed on *board* at *hex1*/*hex2* as VASL's ``Overlay`` places it.

    :raises OverlayError: where VASL refuses it too (no picture for the orientation, no origin, a bad hex).
    """
    if not hex1:
        raise OverlayError(f"{arc.path}: overlay {name} has no hex to be placed on")
    for h in (hex1, hex2):
        if h:
            _grid_point(board, h)  # both hexes on the board, even where a one-hex overlay does not use the second
    single = arc.has(image_member(name, "a")) and not arc.has(image_member(name, "d"))
    orient = "a" if single else _orientation(board, hex1, hex2 or hex1)
    member = image_member(name, orient)
    if not arc.has(member):
        raise OverlayError(f"{arc.path}: no picture {member} for overlay {name} in orientation {orient!r} "
                           f"(hexes {hex1}, {hex2})")
    origins = arc.origins.get(name.lower()) or _default_origins(name)
    k = ord(orient) - ord("a")
    if origins is None or k >= len(origins) or not origins[k].strip():
        raise OverlayError(f"{arc.path}: its data file gives overlay {name} no origin hex for orientation "
                           f"{orient!r}")
    hx, hy = _grid_point(board, hex1)
    ox, oy = _grid_point(board, _origin_hex(board, origins[k]))
    rgba = arc.image(member)
    return PlacedOverlay(name, hex1, hex2, orient, hx - ox, hy - oy, rgba, preserve_elevation, arc.path)


# --- the two passes ------------------------------------------------------------------------


def _luts(table: TerrainTable) -> dict[str, npt.NDArray[np.bool_]]:
    out = {k: np.zeros(256, dtype=bool) for k in ("building", "hexside", "depression", "inherent", "open")}
    for code, t in table.by_code.items():
        cat = t.los_category.upper()
        out["building"][code] = cat in ("BUILDING", "MARKETPLACE")
        out["hexside"][code] = cat == "HEXSIDE" or t.name in ROWHOUSE_WALLS
        out["depression"][code] = cat == "DEPRESSION"
        out["inherent"][code] = t.inherent
        out["open"][code] = cat == "OPEN"
    return out


def _rgb_of(rgba: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    a = rgba.astype(np.int64)
    out: npt.NDArray[np.int64] = (a[..., 0] << 16) | (a[..., 1] << 8) | a[..., 2]
    return out


def _shift(arr: npt.NDArray[Any], dx: int, dy: int, fill: Any) -> npt.NDArray[Any]:
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
            cand = (_shift(opaque, sx * (a - 1), sy * a, False) & on_map(sx * a, sy * a)) & ~found
            value = np.where(cand, _shift(rgb, sx * (a - 1), sy * a, 0), value)
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
            c_op = np.where(cand, _shift(opaque, sx * j, sy * j, False), c_op)
            c_rgb = np.where(cand, _shift(rgb, sx * j, sy * j, 0), c_rgb)
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


def _preserve_transform(ov: PlacedOverlay, board_rgb: npt.NDArray[np.int64] | None, shared: ColourTable,
                        table: TerrainTable, luts: Mapping[str, npt.NDArray[np.bool_]]) -> npt.NDArray[np.uint8]:
    """VASL ``Overlay.transform`` for an elevation-preserving overlay: open colours become transparent, or the
    board's open colour within 3 pixels where the board shows other terrain there."""
    rgba = ov.rgba.copy()
    if "og" in ov.name:
        return rgba
    rgb = _rgb_of(rgba)
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


def _pixel_pass(ter: npt.NDArray[np.uint8], elev: npt.NDArray[np.int8], ov: PlacedOverlay, rgba: npt.NDArray[np.uint8],
                colours: ColourTable, table: TerrainTable, luts: Mapping[str, npt.NDArray[np.bool_]],
                ssr: str) -> None:
    """``updateTerrainElevationGridsforOverlays`` on the board's grids, in place."""
    gh, gw = ter.shape
    h, w = rgba.shape[:2]
    rgb = _rgb_of(rgba)
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


def _hex_pixels(pts: VaslCentres, idx: npt.NDArray[np.int64], gw: int, gh: int, hex_height: float
                ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    from .ssr import _shape_pixels
    return _shape_pixels("hex", idx, pts, gw, gh, hex_height)


def _edge_points(pts: VaslCentres) -> npt.NDArray[np.int64]:
    """``[hex, side, (x, y)]`` the points ``doNonInherentToInherentFix`` paints: each hexside Location's edge centre
    point (the hexside point, one pixel inward of the hexside's midpoint), one pixel further up on the top hexside
    and down on the bottom one."""
    out = pts.sides.copy()
    out[:, 0, 1] -= 1
    out[:, 3, 1] += 1
    return out


def _hex_pass(board: VaslBoard, ter: npt.NDArray[np.uint8], elev: npt.NDArray[np.int8], ov: PlacedOverlay,
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
        fm, fy, fx = _hex_pixels(pts, keys, gw, gh, geo.hex_height)
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
            interior &= _shift(dep, dx, dy, False)
            same &= _shift(label, dx, dy, -2) == label
    interior &= same
    ev = elev.astype(np.int64)
    best = np.full(n, -4, dtype=np.int64)
    np.maximum.at(best, m, ev[py, px])
    has_dep = np.zeros(n, dtype=bool)
    has_dep[m[interior[py, px]]] = True
    level = np.where(has_dep, -1, best)
    for i in np.nonzero(touched)[0]:
        centre_levels[int(i)] = ((int(level[i]) + 128) % 256) - 128


def _region(ov: PlacedOverlay, board: VaslBoard, reversed_: bool, crop: tuple[int, int, int, int] | None
            ) -> tuple[int, int, int, int]:
    """The board pixels VASL's hex pass walks for *ov*: from the picture's top-left corner to the board's edges
    (a reversed board: from its own top-left corner to the picture's bottom-right one, VASL counting a board
    1800 × 645 pixels)."""
    gw, gh = board.los.grid_width, board.los.grid_height
    if not reversed_:
        return max(0, ov.x), max(0, ov.y), gw, gh
    if crop is not None:  # VASL leaves the corner unflipped on a reversed cropped board
        cx, cy, cw, ch = crop
        cw = gw - cx if cw <= 0 else cw
        ch = gh - cy if ch <= 0 else ch
        return cx, cy, min(gw, cx + cw - max(0, ov.x - cx)), min(gh, cy + ch - max(0, ov.y - cy))
    bw, bh = _REVERSED_SIZE
    fx = bw - (ov.x + ov.width)
    fy = bh - (ov.y + ov.height)
    return 0, 0, min(gw, gw - fx), min(gh, gh - fy)


# --- applying ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class OverlayResult:
    """A board with its overlays applied: the overlays applied, those left out with why, and notes to show."""

    board: VaslBoard
    applied: tuple[PlacedOverlay, ...] = ()
    not_applied: tuple[tuple[str, str], ...] = ()
    #: Hex → the depression terrain VASL's hex pass leaves its centre Location remembering (VASL 6.7.x's
    #: ``Hex.resetTerrain`` makes a remembered depression the centre terrain again; the hex reader starts from it).
    depressions: Mapping[str, str] = field(default_factory=dict)

    def notes(self) -> list[str]:
        """One line per fact a player must see: what was applied, what not and why, and rice paddies."""
        return _board_notes(self.board.name, [o.label() for o in self.applied], self.not_applied,
                            any(is_rice_paddy(o.name) for o in self.applied))


def apply_overlays(board: VaslBoard, overlays: Sequence[Any], dirs: Iterable[Path | str], *,
                   reversed_: bool = False, crop: tuple[int, int, int, int] | None = None,
                   ssr: str = "") -> OverlayResult:
    """*board* with *overlays* (each with ``name``, ``hex1``, ``hex2``, ``preserve_elevation``, as
    :class:`~asl_vassal_bridge.vasl.vsav.BoardOverlay`) applied as VASL 6.7.x applies them, in order.

    Overlay archives are looked up in *dirs* (:func:`overlay_dirs` of the boards folder).  An overlay VASL
    skips (:func:`skip_reason`) or whose archive is missing is left out and named with why in
    :attr:`OverlayResult.not_applied`; the others are applied.

    :raises OverlayError: naming the board and overlay VASL could not have placed (a hex off the board, no
        picture for its orientation, no origin in the archive's data file): nothing is applied then.

    *reversed_* and *crop* are the board entry's (VASL's hex pass walks other pixels on a reversed board);
    *ssr* its SSR tokens (``Bamboo`` turns an overlay's brush into bamboo).
    """
    dirs = tuple(dirs)
    if not overlays:
        return OverlayResult(reversed_board(board, crop) if reversed_ else board)
    table = board.table
    placed: list[PlacedOverlay] = []
    not_applied: list[tuple[str, str]] = []
    archives: dict[str, OverlayArchive] = {}
    for o in overlays:
        name, hex1, hex2 = str(o.name), str(o.hex1), str(o.hex2)
        label = _label(o)
        why = skip_reason(name)
        if why is not None:
            not_applied.append((label, why))
            continue
        path = find_overlay_archive(dirs, name)
        if path is None:
            not_applied.append((label, _missing(name, dirs)))
            continue
        arc = archives.get(str(path)) or OverlayArchive.read(path)
        archives[str(path)] = arc
        try:
            placed.append(place_overlay(board, name, hex1, hex2 or hex1, arc,
                                        bool(getattr(o, "preserve_elevation", False))))
        except OverlayError as e:
            raise OverlayError(f"board {board.name}: overlay {label}: {e}") from None
    if not placed:
        return OverlayResult(reversed_board(board, crop) if reversed_ else board, (), tuple(not_applied))
    luts = _luts(table)
    colours = ColourTable.build(table, board_colours(board))
    shared = ColourTable.build(table)
    ter = board.los.terrain.copy()
    elev = board.los.elevation.copy()
    board_rgb: npt.NDArray[np.int64] | None = None
    if any(p.preserve_elevation for p in placed) and board.image:
        from PIL import Image
        try:
            board_rgb = _rgb_of(np.asarray(Image.open(io.BytesIO(board.image)).convert("RGBA")))
        except (OSError, ValueError):
            board_rgb = None
    # pass 1 (before VASL flips a reversed board), then pass 2 (on the hex grid), overlay by overlay each
    rgbas = [(_preserve_transform(p, board_rgb, shared, table, luts) if p.preserve_elevation else p.rgba)
             for p in placed]
    for p, rgba in zip(placed, rgbas, strict=True):
        _pixel_pass(ter, elev, p, rgba, colours, table, luts, ssr)
    pts = vasl_centres(board.geometry)
    edges = _edge_points(pts)
    remembered = np.full(len(pts.los), -1, dtype=np.int64)
    geo = board.geometry
    polygons = _hex_pixels(pts, np.arange(len(pts.los), dtype=np.int64), geo.grid_width, geo.grid_height,
                           geo.hex_height)
    centre_levels: dict[int, int] = {}
    for p in placed:
        _hex_pass(board, ter, elev, p, table, luts, _region(p, board, reversed_, crop), pts, edges, remembered,
                  polygons, centre_levels)
    old = board.los
    read = LOSData(old.width, old.height, old.grid_width, old.grid_height, ter, elev, old.stairways)
    hexes, buildings = derive_hexes(read, board.geometry, table, board.metadata, board.source, remembered,
                                    reversed_=reversed_, crop=crop, model=board.model)
    elev_los = elev.copy()
    for i, lv in centre_levels.items():
        elev_los[pts.los[i, 1], pts.los[i, 0]] = lv
    los = LOSData(old.width, old.height, old.grid_width, old.grid_height, ter, elev_los, old.stairways)
    names = [nm for _, _, nm in board.geometry.hexes()]
    kept = {names[i]: table[int(c)].name for i, c in enumerate(remembered) if c >= 0}
    return OverlayResult(replace(board, los=los, hexes=hexes, buildings=buildings), tuple(placed), tuple(not_applied),
                         kept)


def overlay_art(board: VaslBoard, overlays: Sequence[Any], dirs: Iterable[Path | str]) -> list[PlacedOverlay]:
    """The overlays VASL draws on *board* (every one it can place, applied to the terrain or not), for pictures."""
    out: list[PlacedOverlay] = []
    for o in overlays:
        path = find_overlay_archive(tuple(dirs), str(o.name)) if o.name else None
        if path is None:
            continue
        try:
            out.append(place_overlay(board, str(o.name), str(o.hex1), str(o.hex2 or o.hex1),
                                     OverlayArchive.read(path)))
        except VaslFileError:
            continue
    return out


# --- a saved game's board entry ------------------------------------------------------------


def _label(o: Any) -> str:
    """``st1 (C2-D3, elevation preserved)``, as :class:`~asl_vassal_bridge.vasl.vsav.BoardOverlay` writes it."""
    name, hex1, hex2 = str(o.name), str(o.hex1), str(o.hex2)
    keep = ", elevation preserved" if getattr(o, "preserve_elevation", False) else ""
    if not hex1:
        return f"{name or '(unnamed)'}{' (elevation preserved)' if keep else ''}"
    where = hex1 if hex1 == hex2 or not hex2 else f"{hex1}-{hex2}"
    return f"{name} ({where}{keep})"


def _board_notes(board: str, applied: Sequence[str], not_applied: Sequence[tuple[str, str]], rice: bool) -> list[str]:
    out: list[str] = []
    if applied:
        out.append(f"board {board}: overlay{'s' if len(applied) > 1 else ''} {', '.join(applied)} applied to the "
                   "terrain as VASL 6.7.x applies them")
    for what, why in not_applied:
        out.append(f"board {board}: overlay {what} not applied to the terrain: {why}")
    if rice:
        out.append(f"board {board}: {RICE_PADDY_NOTE}")
    return out


def plan_notes(entry: Any, dirs: Iterable[Path | str]) -> list[str]:
    """What :func:`apply_overlays` will say of a board entry's overlays, without reading any picture: which are
    applied, which not and why (VASL skips it, or its archive is not in *dirs*)."""
    dirs = tuple(dirs)
    applied: list[str] = []
    left: list[tuple[str, str]] = []
    rice = False
    for o in entry.overlays:
        why = skip_reason(str(o.name))
        if why is None and find_overlay_archive(dirs, str(o.name)) is None:
            why = _missing(str(o.name), dirs)
        if why is None:
            applied.append(_label(o))
            rice = rice or is_rice_paddy(str(o.name))
        else:
            left.append((_label(o), why))
    return _board_notes(entry.name, applied, left, rice)


def _missing(name: str, dirs: Sequence[Path | str]) -> str:
    where = ", ".join(str(d) for d in dirs) or "no folder"
    return f"its archive {archive_name(name)} is not in {where} (VASL's boards/overlays folder holds it)"


def entry_notes(entry: Any, table: TerrainTable | None, dirs: Iterable[Path | str] | None,
                model: VaslModel = "6.7") -> list[str]:
    """Every note of a board entry read from the board archives: SSR tokens VASL cannot apply, then its overlays
    (:func:`plan_notes`; with no overlay folder known, every overlay is named as not applied; read as the VASL of
    2020 reads it, *model* ``"2020"``, every overlay is named as not in that VASL's terrain model)."""
    out: list[str] = []
    ssr = entry.overlay_note(table)
    if ssr:
        out.append(ssr)
    if model == "2020":  # VASL's terrain model takes overlays in since 6.6.4 (VASL issues #1088, #1439)
        return out + [f"board {entry.name}: overlay {_label(o)} not applied to the terrain: the VASL of 2020 puts "
                      "no overlay in its terrain model" for o in entry.overlays]
    if dirs is None:
        for o in entry.overlays:
            out.append(f"board {entry.name}: overlay {_label(o)} not applied to the terrain: no VASL boards folder "
                       "(its overlays/ folder holds the overlay archives)")
        return out
    return out + plan_notes(entry, dirs)


def apply_entry(board: VaslBoard, entry: Any, boards_dir: Path | str | None) -> tuple[VaslBoard, list[str]]:
    """*board* as VASL 6.7.x's LOS model holds it for a saved game's board entry: its SSR terrain changes
    (:func:`~asl_vassal_bridge.vasl.ssr.apply_ssr`), then its overlays (archives in *boards_dir*'s
    ``overlays/`` folder), with the notes to show the player (:func:`entry_notes`).  A board read as the VASL of
    2020 reads it (``board.model == "2020"``) gets its SSR changes only: that VASL's model has no overlays.

    :raises OverlayError: for an overlay VASL could not have placed (a hex off the board, no picture).
    """
    from .ssr import apply_ssr

    b = apply_ssr(board, entry.ssr).board
    dirs = overlay_dirs(boards_dir) if boards_dir is not None else None
    notes = entry_notes(entry, board.table, dirs, board.model)
    if dirs is None or not entry.overlays or board.model == "2020":
        return (reversed_board(b, entry.crop) if entry.reversed else b), notes
    res = apply_overlays(b, entry.overlays, dirs, reversed_=bool(entry.reversed), crop=entry.crop, ssr=entry.ssr)
    return res.board, notes


def covered_hexes(board: VaslBoard, placed: PlacedOverlay) -> list[str]:
    """The hexes of *board* whose centre point lies under an opaque pixel of *placed*'s picture."""
    out = []
    for h in board.hexes.values():
        u, v = int(h.x) - placed.x, int(h.y) - placed.y
        if 0 <= u < placed.width and 0 <= v < placed.height and placed.rgba[v, u, 3] > 0:
            out.append(h.name)
    return out
