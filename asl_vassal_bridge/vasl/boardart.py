"""VASL's own pictures: board images out of board archives, counter images out of ``VASL.vmod``.

A board archive (``bd01``) holds the board's picture (``BoardMetadata.xml``'s
``boardImageFileName``, e.g. ``bd01.gif``, 1800 × 645 pixels for a
geomorphic board).  :func:`board_art` gives it as placed on a map: cropped
to VASL's crop rectangle (board pixels, before reversing) and turned 180°
for a reversed board, with the point of the map (in the frame of
:meth:`asl_vassal_bridge.core.hexes.Hex.pixel`) where its top-left corner
lies.  :func:`counter_images` finds the pictures of the fire counters
(Flame, Blaze, wreck, smoke, Level…) in a ``VASL.vmod`` by the image names
of the module's own PieceSlots.

>>> import io, zipfile
>>> from PIL import Image
>>> png = io.BytesIO(); Image.new("RGB", (1800, 645), (200, 180, 120)).save(png, "PNG")
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w") as z:
...     z.writestr("BoardMetadata.xml", '<boardMetadata name="01" boardImageFileName="bd01.png" '
...                'width="33" height="10"/>')
...     z.writestr("bd01.png", png.getvalue())
>>> art = board_art_bytes(buf.getvalue(), "bd01", BoardPlacement("01", x=1), crop=(0, 0, 900, 645))
>>> (art.width, art.height, art.origin)
(900, 645, (1800.0, 0.0))
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.hexes import BOARD_COLUMNS, BOARD_ROWS, HEX_HEIGHT, HEX_WIDTH, BoardPlacement
from .board import parse_board_metadata
from .counters import FireCounter
from .module import PieceSlot
from .safe import MAX_IMAGE_PIXELS, Archive, BadArchiveError, VaslFileError
from .traits import Trait

__all__ = [
    "BoardArt",
    "CounterImage",
    "board_art",
    "board_art_bytes",
    "counter_images",
    "find_board_archive",
    "map_board_art",
]

#: Board pixels of a geomorphic board (the frame of ``Hex.pixel``: A1's centre at x = 0).
BOARD_WIDTH = (BOARD_COLUMNS - 1) * HEX_WIDTH
BOARD_HEIGHT = BOARD_ROWS * HEX_HEIGHT


@dataclass(frozen=True)
class BoardArt:
    """A board's picture as placed: PNG bytes, size in pixels, and its top-left corner on the map.

    *origin* is in map board pixels (the frame of ``Hex.pixel``); one image pixel is one board pixel.
    """

    name: str
    png: bytes
    width: int
    height: int
    origin: tuple[float, float]
    source: str = ""
    format: str = "png"  # of *png*'s bytes: "png", or "gif" when the archive's own picture is used as is

    def covers(self, x: float, y: float) -> bool:
        """True if map point (x, y) lies on this picture."""
        ox, oy = self.origin
        return ox <= x <= ox + self.width and oy <= y <= oy + self.height


@dataclass(frozen=True)
class CounterImage:
    """A counter's picture from the module: the image name the PieceSlot uses, its bytes and format."""

    kind: FireCounter
    slot: str
    image: str
    data: bytes
    format: str  # "png", "gif", "jpeg" or "svg+xml"


def _decode(data: bytes, source: str) -> object:
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))
            if im.width * im.height > MAX_IMAGE_PIXELS:
                raise VaslFileError(f"{source}: the board image is {im.width}×{im.height} pixels, more than "
                                    f"{MAX_IMAGE_PIXELS:,} (refusing it)")
            im.load()
    except VaslFileError:
        raise
    except (Image.DecompressionBombWarning, Image.DecompressionBombError):
        raise VaslFileError(f"{source}: the board image claims more than {MAX_IMAGE_PIXELS:,} pixels (refusing it)") \
            from None
    except (OSError, ValueError, SyntaxError) as e:
        raise VaslFileError(f"{source}: the board image does not decode ({e}); expected a GIF, PNG or JPEG") from None
    return im


def board_art_bytes(archive: bytes, source: str, placement: BoardPlacement,
                    crop: tuple[int, int, int, int] | None = None, overlays: Sequence[Any] = (),
                    overlay_dirs: Sequence[Path] = ()) -> BoardArt:
    """The picture of the board archive given as bytes, placed as *placement* says (see :func:`board_art`)."""
    from PIL import Image

    arc = Archive(archive, source)
    meta_name = arc.find("BoardMetadata.xml")
    image_name = None
    meta = None
    if meta_name is not None:
        meta = parse_board_metadata(arc.read(meta_name, limit=8 * 1024 * 1024), f"{source}!{meta_name}")
        image_name = arc.find(meta.image) if meta.image else None
    if image_name is None:  # legacy archives: bdNN.gif beside the data
        image_name = arc.find(f"bd{placement.name}.gif", f"bd{placement.name}.png", f"{placement.name}.gif")
    if image_name is None:
        raise BadArchiveError(f"{source}: no board image in the archive (BoardMetadata.xml names none and there "
                              f"is no bd{placement.name}.gif)")
    im = _decode(arc.read(image_name), f"{source}!{image_name}")
    assert isinstance(im, Image.Image)
    full_w, full_h = im.size
    drawn = _draw_overlays(im, meta, placement.name, overlays, overlay_dirs) if overlays and meta else None
    if drawn is not None:
        im = drawn
    cx, cy, cw, ch = 0, 0, full_w, full_h
    if crop is not None and (crop[2] > 0 or crop[3] > 0):  # -1: to the board's edge (VASL's ASLBoard)
        cx, cy = max(0, crop[0]), max(0, crop[1])
        cw = min(crop[2], full_w - cx) if crop[2] > 0 else full_w - cx
        ch = min(crop[3], full_h - cy) if crop[3] > 0 else full_h - cy
        if cw <= 0 or ch <= 0:
            raise VaslFileError(f"{source}: crop {crop} lies outside the {full_w}×{full_h} board image")
        im = im.crop((cx, cy, cx + cw, cy + ch))
    if placement.reversed:
        im = im.transpose(Image.Transpose.ROTATE_180)
        lx, ly = full_w - cx - cw, full_h - cy - ch
    else:
        lx, ly = cx, cy
    from .board import WindowPlacement

    art_x = 0.0
    if isinstance(placement, WindowPlacement):  # its hex grid starts at the crop's corner (turned when reversed)
        lx, ly, art_x = 0, 0, placement.art_x
    # the board's own A1 column and row 0 lie where the placement puts them (a crop before it moves it)
    ox = placement.col_offset * HEX_WIDTH + lx + art_x
    oy = placement.row_offset * HEX_HEIGHT + ly
    if ((cw, ch) == (full_w, full_h) and not placement.reversed and drawn is None
            and image_name.lower().endswith((".png", ".gif"))):
        return BoardArt(placement.name, arc.read(image_name), cw, ch, (float(ox), float(oy)), source,
                        image_name.rpartition(".")[2].lower())
    out = io.BytesIO()
    im.convert("RGBA" if "A" in im.getbands() or "transparency" in im.info else "RGB").save(out, "PNG",
                                                                                            optimize=False)
    return BoardArt(placement.name, out.getvalue(), cw, ch, (float(ox), float(oy)), source)


def _draw_overlays(im: Any, meta: Any, name: str, overlays: Sequence[Any], dirs: Sequence[Path]) -> Any:
    """The board picture with the overlays' pictures drawn on it where VASL places them (None: none placed)."""
    from PIL import Image

    from .board_losdata import _meta_value
    from .geometry import GEO_A1, GEO_HEX_HEIGHT, GEO_HEX_WIDTH, BoardGeometry
    from .overlay import OverlayArchive, OverlayError, find_overlay_archive, place_overlay

    geo = BoardGeometry(meta.width, meta.height, im.width, im.height, _meta_value(meta.hex_width, GEO_HEX_WIDTH),
                        _meta_value(meta.hex_height, GEO_HEX_HEIGHT), _meta_value(meta.a1_center_x, GEO_A1[0]),
                        _meta_value(meta.a1_center_y, GEO_A1[1]), bool(meta.alt_hex_grain))
    where = _Where(meta.name or name, geo)
    out = None
    for o in overlays:
        path = find_overlay_archive(dirs, str(o.name)) if o.name else None
        if path is None:
            continue
        try:
            placed = place_overlay(where, str(o.name), str(o.hex1), str(o.hex2 or o.hex1), OverlayArchive.read(path))
        except (OverlayError, VaslFileError):
            continue
        if out is None:
            out = im.convert("RGBA")
        pic = Image.fromarray(placed.rgba, "RGBA")
        out.alpha_composite(pic, (max(0, placed.x), max(0, placed.y)),
                            (max(0, -placed.x), max(0, -placed.y)))
    return out


@dataclass(frozen=True)
class _Where:
    """What :func:`~asl_vassal_bridge.vasl.overlay.place_overlay` needs of a board: its name and hex grid."""

    name: str
    geometry: Any


def board_art(archive: Path | str, placement: BoardPlacement,
              crop: tuple[int, int, int, int] | None = None, overlays: Sequence[Any] = ()) -> BoardArt:
    """The picture of board archive *archive* as placed on a map.

    *crop* is VASL's crop rectangle (x, y, width, height in board pixels, before the board is
    reversed); a reversed *placement* turns the picture 180°, as VASL shows it.  *overlays* (the
    board entry's, :class:`~asl_vassal_bridge.vasl.vsav.BoardOverlay`) are drawn on it where VASL
    places them, their archives found in the boards folder's ``overlays/``.

    :raises VaslFileError: naming the archive (not a zip, no image, an image that does not decode).
    """
    from .safe import read_file_limited

    p = Path(archive)
    try:
        data = read_file_limited(p)
    except OSError as e:
        raise VaslFileError(f"{p}: cannot read the board archive ({e.strerror or e})") from None
    from .overlay import overlay_dirs

    return board_art_bytes(data, str(p), placement, crop, overlays, overlay_dirs(p.parent) if overlays else ())


def find_board_archive(boards_dir: Path | str, name: str) -> Path | None:
    """The archive of board *name* (``01`` → ``bd01``) in *boards_dir*, or None.

    :raises BadName: for a name that is not a plain file name (``../x``): it is never looked up.
    """
    from .names import file_in

    for cand in dict.fromkeys((f"bd{name.upper()}", f"bd{name}", name, f"bd{name.zfill(2)}",
                               f"bd{name.lstrip('0')}")):
        p = file_in(boards_dir, cand, "board")
        if p.is_file():
            return p
    return None


def map_board_art(placements: Sequence[BoardPlacement], boards_dir: Path | str,
                  crops: Sequence[tuple[int, int, int, int] | None] = (),
                  overlays: Sequence[Sequence[Any]] = ()) -> list[BoardArt]:
    """The pictures of every board of a map (a ``GameMap``'s ``layout.boards``), from *boards_dir*, each with its
    *overlays* drawn on it.

    :raises VaslFileError: naming the board whose archive is missing or unreadable.
    """
    out = []
    for i, pl in enumerate(placements):
        path = find_board_archive(boards_dir, pl.name)
        if path is None:
            raise VaslFileError(f"board {pl.name!r}: no archive bd{pl.name} in {boards_dir}")
        out.append(board_art(path, pl, crops[i] if i < len(crops) else None, overlays[i] if i < len(overlays) else ()))
    return out


# --- counters ------------------------------------------------------------------------

_FORMATS = {".png": "png", ".gif": "gif", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg+xml"}

#: The counters the widget draws, and the PieceSlot entry names that show them, best first.
COUNTER_SLOTS: Mapping[FireCounter, tuple[str, ...]] = {
    FireCounter.FLAME: ("Flame",),
    FireCounter.BLAZE: ("Blaze",),
    FireCounter.WRECK: ("Wreck",),
    FireCounter.BURNT_OUT_WRECK: ("Burnt Out Wreck",),
    FireCounter.SMOKE: ("Smoke", "+2 Smoke", "Smoke +2"),
    FireCounter.LEVEL: ("Level 1", "Level", "1st Level"),
}


def _image_names(traits: Iterable[Trait]) -> list[str]:
    """Image names of a piece: the BasicPiece's, then each Layer (``emb2``) image, in order."""
    names: list[str] = []
    for t in traits:
        tid = t.id
        fields = t.fields
        if tid == "piece" and len(fields) > 3 and fields[3]:
            names.append(fields[3])
        elif tid == "emb2" and len(fields) > 16:  # Layer: …, x and y offsets, image names, level names, …
            from .traits import split_list

            names += [n for n in split_list(fields[16]) if n.strip()]
    return names


def _find_image(arc: Archive, name: str) -> tuple[str, str] | None:
    base = name.strip().lstrip("/")
    _, dot, ext = base.rpartition(".")
    cands = [f"images/{base}", base] if dot and f".{ext.lower()}" in _FORMATS else []
    for e in (".png", ".gif", ".jpg", ".svg"):
        cands += [f"images/{base}{e}"]
    for c in cands:
        if c in arc:
            return c, _FORMATS.get("." + c.rpartition(".")[2].lower(), "png")
    return None


def counter_images(vmod: Path | str, kinds: Iterable[FireCounter] | None = None) -> dict[FireCounter, CounterImage]:
    """The pictures of VASL's fire counters in the module *vmod* (``VASL.vmod``), by the PieceSlots' image names.

    The slots are found by gpid and name (:meth:`ModuleIndex.fire_slots`, then the entry names of
    :data:`COUNTER_SLOTS`); a counter whose picture is not in the archive is left out.

    :raises VaslFileError: if *vmod* is not a VASSAL module archive.
    """
    from .module import module_index

    p = Path(vmod)
    index = module_index(p)
    arc = Archive(p)
    want = set(kinds) if kinds is not None else set(COUNTER_SLOTS)
    slots: dict[FireCounter, list[PieceSlot]] = {}
    for kind, piece_slot in index.fire_slots():
        slots.setdefault(kind, []).append(piece_slot)
    for kind, names in COUNTER_SLOTS.items():
        for n in names:
            slots.setdefault(kind, []).extend(index.named(n))
    out: dict[FireCounter, CounterImage] = {}
    for kind in want:
        for slot in slots.get(kind, []):
            for image in _image_names(slot.traits):
                found = _find_image(arc, image)
                if found is not None:
                    member, fmt = found
                    out[kind] = CounterImage(kind, slot.name, image, arc.read(member, limit=4 << 20), fmt)
                    break
            if kind in out:
                break
    return out
