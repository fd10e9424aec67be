"""Where VASL 6.7.x puts a board overlay (the first step of :mod:`.overlay`): the archive and picture its name
gives (VASL ``Overlay``), the origin hex its archive's ``data`` file names per orientation, and the picture's
top-left corner on the board's VASSAL grid (``ASLHexGrid.getLocation``: hex 1's point less the origin's)."""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .geometry import BoardGeometry
from .safe import Archive, VaslFileError

__all__ = [
    "MAX_OVERLAY_PIXELS",
    "BoardGrid",
    "OverlayArchive",
    "OverlayError",
    "PlacedOverlay",
    "archive_name",
    "find_overlay_archive",
    "image_member",
    "is_rice_paddy",
    "overlay_dirs",
    "overlay_label",
    "overlay_terrain_type",
    "place_overlay",
    "skip_reason",
]

#: Largest overlay picture decoded (the biggest official overlays are a few hundred pixels wide).
MAX_OVERLAY_PIXELS = 4_000_000
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
        return overlay_label(self)


def _java_int(v: float) -> int:
    """Java's ``(int)`` of a double: toward zero."""
    return math.trunc(v)


def _hex_location(board: BoardGrid, hex_name: str) -> tuple[int, int]:
    """VASL ``ASLHexGrid.getLocation``: the point of *hex_name* on the board's VASSAL grid, in whole pixels.

    The grid's origin is the board's ``A1CenterX``/``A1CenterY`` cut to whole pixels (``ASLBoard``), and each
    offset from it is rounded on its own, half a hex height up on the odd columns (``altHexGrain``: one and a half);
    the column and row come from the name's letters and number alone (``Q4`` is column 16 on a half board "b").

    >>> from .geometry import BoardGeometry
    >>> class B:
    ...     name = "03"
    ...     geometry = BoardGeometry(33, 10, 1800, 645, 56.25, 64.5, 0.0, 32.25)
    >>> _hex_location(B(), "A1"), _hex_location(B(), "P5"), _hex_location(B(), "W7")
    ((0, 32), (844, 322), (1238, 419))
    """
    geo = board.geometry
    m = re.fullmatch(r"(-?)([a-z])(\2*)(\d+)", hex_name.strip().lower())
    if m is None:
        raise OverlayError(f"board {board.name}: {hex_name!r} is not a hex name (expected e.g. E4)")
    col = ord(m.group(2)) - ord("a") + 26 * len(m.group(3))
    row = int(m.group(4))
    x = _java_int(geo.hex_width * col + 0.5)
    if col % 2 == 0:
        y = _java_int(geo.hex_height * (row - 1) + 0.5)
    else:
        y = _java_int(geo.hex_height * (row - (1.5 if geo.alt_grain else 0.5)) + 0.5)
    sign = -1 if m.group(1) else 1
    return sign * x + _java_int(geo.a1_x), y + _java_int(geo.a1_y)


def _board_hex(board: BoardGrid, hex_name: str) -> tuple[int, int]:
    """:func:`_hex_location` of *hex_name*, a hex of the board (a name off the board is refused)."""
    try:
        board.geometry.parse(hex_name)
    except Exception:
        raise OverlayError(f"board {board.name}: {hex_name!r} is not a hex of the board") from None
    return _hex_location(board, hex_name)


def _orientation(board: BoardGrid, hex1: str, hex2: str) -> str:
    """VASL ``Overlay.getOrientation``: a … f from where hex 2 lies from hex 1."""
    if hex1 == hex2 or not hex2:
        return "a"
    (x1, y1), (x2, y2) = _board_hex(board, hex1), _board_hex(board, hex2)
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
            _board_hex(board, h)  # both hexes on the board, even where a one-hex overlay does not use the second
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
    hx, hy = _board_hex(board, hex1)
    ox, oy = _hex_location(board, _origin_hex(board, origins[k]))
    rgba = arc.image(member)
    return PlacedOverlay(name, hex1, hex2, orient, hx - ox, hy - oy, rgba, preserve_elevation, arc.path)


def overlay_label(o: Any) -> str:
    """``st1 (C2-D3, elevation preserved)``, as :class:`~asl_vassal_bridge.vasl.vsav.BoardOverlay` writes it."""
    name, hex1, hex2 = str(o.name), str(o.hex1), str(o.hex2)
    keep = ", elevation preserved" if getattr(o, "preserve_elevation", False) else ""
    if not hex1:
        return f"{name or '(unnamed)'}{' (elevation preserved)' if keep else ''}"
    where = hex1 if hex1 == hex2 or not hex2 else f"{hex1}-{hex2}"
    return f"{name} ({where}{keep})"
