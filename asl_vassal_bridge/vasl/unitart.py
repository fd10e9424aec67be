"""VASL's own unit pictures: a counter's image names, and the picture they make, out of ``VASL.vmod``.

A VASL unit counter is drawn by VASSAL as its BasicPiece image with every
switched-on Layer (``emb2``) image over it, innermost first: the squad's
face (``ru/ru426S``), a half-squad's face over it, a broken side, a Berserk
marker.  A saved game's piece carries all of them in its own traits; a live
snapshot's piece carries its Layers but not its BasicPiece, whose image
comes from the module's PieceSlot of the same gpid (as does everything for a
piece that carries no images at all).

:func:`picture_names` reads the names off a piece (the snapshot's piece
shape, :func:`asl_vassal_bridge.vasl.units.piece_dict` of a saved game's
piece); :class:`UnitArt` reads the images out of the module lazily (the
archive is opened, and its buildFile indexed, only when first needed) and
composes each picture once.

>>> layer = ("emb2;;2;;;2;;;2;;;;1;false;0;0;ru/ru628S,ru/ru527S,ru/ru426S;6-2-8 Esq,5-2-7 1sq,4-2-6 Csq;"
...          "false;;;;false;;1;1;true;;;")
>>> picture_names({"image": " ", "layers": [{"type": layer, "state": "3"}]})
('ru/ru426S',)
>>> picture_names({"image": " ", "layers": [{"type": layer, "state": "-3"}]})
()
"""

from __future__ import annotations

import io
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .counters import BadCounterState
from .module import ModuleIndex, module_index
from .safe import MAX_IMAGE_PIXELS, Archive, VaslFileError
from .traits import Trait, split_list

__all__ = ["UnitArt", "UnitPicture", "picture_names", "slot_picture_names"]

#: A counter picture larger than this (pixels a side) is not a counter.
MAX_COUNTER_SIDE = 512
_FORMATS = (".gif", ".png", ".jpg", ".jpeg")


def _blank(name: str) -> bool:
    return not name.strip() or name.strip().lower() == "null"


def _layer_image(trait: Trait) -> str | None:
    """The image a Layer shows, or None when it is switched off or shows nothing."""
    f = trait.fields
    images = split_list(f[16]) if len(f) > 16 else []
    st = trait.state_fields
    try:
        value = int(st[0]) if st and st[0] not in ("", "null") else 1
    except ValueError:
        raise BadCounterState(f"layer value {trait.state!r} of {trait.type[:40]!r} is not a number") from None
    if value <= 0 or value > len(images) or _blank(images[value - 1]):
        return None
    return images[value - 1].strip()


def _names(basic_image: str | None, layers: Sequence[Trait]) -> tuple[str, ...]:
    out = [] if basic_image is None or _blank(basic_image) else [basic_image.strip()]
    for t in reversed(layers):  # VASSAL lists the outermost trait first: draw from the inside out
        got = _layer_image(t)
        if got is not None:
            out.append(got)
    return tuple(out)


def picture_names(piece: Mapping[str, Any], basic_image: str | None = None) -> tuple[str, ...]:
    """The image names of a piece's picture, innermost first: its BasicPiece image (the piece's ``image``, else
    *basic_image*: the module slot's) and the image of every switched-on Layer.

    :raises BadCounterState: if a layer's state is not a number.
    """
    layers = [Trait(str(lay["type"]), str(lay["state"])) for lay in piece.get("layers") or ()]
    layers = [t for t in layers if t.id in ("emb2", "emb")]
    image = piece.get("image")
    return _names(str(image) if image is not None else basic_image, layers)


def slot_picture_names(index: ModuleIndex, gpid: str) -> tuple[str, ...]:
    """The picture of the module's PieceSlot *gpid* as placed from the palette (its Layers as they start)."""
    slot = index.by_gpid.get(str(gpid))
    if slot is None:
        return ()
    basic = slot.traits[-1].fields[3] if slot.traits and slot.traits[-1].id == "piece" and \
        len(slot.traits[-1].fields) > 3 else None
    try:
        return _names(basic, [t for t in slot.traits if t.id in ("emb2", "emb")])
    except BadCounterState:
        return ()


def _slot_basic_image(index: ModuleIndex, gpid: str) -> str | None:
    slot = index.by_gpid.get(str(gpid))
    if slot is None or not slot.traits or slot.traits[-1].id != "piece" or len(slot.traits[-1].fields) <= 3:
        return None
    return slot.traits[-1].fields[3]


@dataclass(frozen=True, slots=True)
class UnitPicture:
    """A unit counter's picture: PNG bytes and its size in pixels (VASL's counters are 48 or 60 a side)."""

    png: bytes
    width: int
    height: int
    names: tuple[str, ...]


class UnitArt:
    """The unit pictures of one ``VASL.vmod``: images read out of the archive when first asked for, each picture
    composed once.

    :raises VaslFileError: (from the first picture asked for) if *vmod* is not a readable zip archive.
    """

    def __init__(self, vmod: str | Path) -> None:
        self.path = Path(vmod)
        self._arc: Archive | None = None
        self._index: ModuleIndex | None = None
        self._members: dict[str, str] | None = None
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, ...], UnitPicture | None] = {}

    def _archive(self) -> Archive:
        if self._arc is None:
            self._arc = Archive(self.path)
        return self._arc

    @property
    def index(self) -> ModuleIndex:
        """The module's PieceSlots (its buildFile, indexed on first use)."""
        if self._index is None:
            self._index = module_index(self.path)
        return self._index

    def _member(self, name: str) -> str | None:
        """The archive member of image *name* (VASL names its images without their folder ``images/`` and often
        without their extension)."""
        if self._members is None:
            members: dict[str, str] = {}
            for m in self._archive().names():
                low = m.lower()
                if not low.startswith("images/") or not low.endswith(_FORMATS):
                    continue
                key = m[len("images/"):]
                members.setdefault(key.lower(), m)
                members.setdefault(key.rsplit(".", 1)[0].lower(), m)
            self._members = members
        key = name.strip().lstrip("/").replace("\\", "/").lower()
        return self._members.get(key) or self._members.get(key.rsplit(".", 1)[0])

    def names_for(self, piece: Mapping[str, Any]) -> tuple[str, ...]:
        """The image names of *piece*'s picture: its own, with the module's BasicPiece image where the piece does
        not carry it (a live snapshot), and the module slot's whole picture where the piece names no image the
        module has."""
        gpid = str(piece.get("gpid") or "")
        basic = None if "image" in piece or not gpid else _slot_basic_image(self.index, gpid)
        try:
            names = picture_names(piece, basic)
        except BadCounterState:
            names = ()
        if any(self._member(n) is not None for n in names):
            return names
        return slot_picture_names(self.index, gpid) if gpid else ()

    def picture(self, names: Sequence[str]) -> UnitPicture | None:
        """The picture the images *names* make, innermost first, each centred on the first; None when the module
        has none of them.  Images that are missing or unreadable are left out."""
        key = tuple(names)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        pic = self._compose(key)
        with self._lock:
            self._cache[key] = pic
        return pic

    def _compose(self, names: tuple[str, ...]) -> UnitPicture | None:
        from PIL import Image

        layers = []
        for n in names:
            member = self._member(n)
            if member is None:
                continue
            bomb = VaslFileError(f"{self.path}: unit picture {member!r} claims more than {MAX_IMAGE_PIXELS:,} "
                                 f"pixels (a counter is at most {MAX_COUNTER_SIDE} px a side); refusing the module's "
                                 "pictures")
            try:
                data = self._archive().read(member, limit=1 << 20)
                with warnings.catch_warnings():
                    warnings.simplefilter("error", Image.DecompressionBombWarning)
                    opened = Image.open(io.BytesIO(data))
            except (Image.DecompressionBombWarning, Image.DecompressionBombError):
                raise bomb from None
            except (OSError, ValueError, SyntaxError):  # VaslFileError too: a member unreadable is left out
                continue
            if opened.width * opened.height > MAX_IMAGE_PIXELS:
                raise bomb
            if opened.width > MAX_COUNTER_SIDE or opened.height > MAX_COUNTER_SIDE:
                continue
            try:
                layers.append(opened.convert("RGBA"))
            except (OSError, ValueError, SyntaxError):
                continue
        if not layers:
            return None
        w, h = max(i.width for i in layers), max(i.height for i in layers)
        out = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        for layer in layers:
            out.alpha_composite(layer, ((w - layer.width) // 2, (h - layer.height) // 2))
        buf = io.BytesIO()
        out.save(buf, "PNG")
        return UnitPicture(buf.getvalue(), w, h, names)
