"""The VASL module definition (``buildFile.xml``): every PieceSlot and PrototypeDefinition.

Reads a ``.vmod``/``.vmdx`` zip or a bare ``buildFile``/``buildFile.xml``
(VASL 6.5's ``VASSAL.launch.BasicModule`` root, 6.7's
``VASSAL.build.GameModule``, an extension's ``ModuleExtension``, or an
``<excerpt>`` of slots).  The XML is streamed with lxml ``iterparse`` and each
slot element freed once indexed, so the 4 MB 6.7 buildFile never sits in
memory as a tree.

>>> slot = b'<VASSAL.build.widget.PieceSlot entryName="Flame" gpid="192">'
>>> text = b'+/null/mark;Location\\tpiece;K;D;MS\\\\/Flame;Flame/\\tnull;0;0;192'
>>> idx = read_module_bytes(b'<excerpt>' + slot + text + b'</VASSAL.build.widget.PieceSlot></excerpt>', "x.xml")
>>> idx.by_gpid["192"].traits[-1].fields[4], idx.by_gpid["192"].fire_counter
('Flame', <FireCounter.FLAME: 'flame'>)
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from lxml import etree

from .counters import FireCounter, classify
from .safe import MAX_MEMBER_BYTES, Archive, BadArchiveError, BadXmlError, iterparse, read_file_limited
from .traits import Trait, decode_sequence, decode_traits

__all__ = [
    "ModuleIndex",
    "PieceSlot",
    "Prototype",
    "parse_piece_text",
    "read_module",
    "read_module_bytes",
]

PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
PROTOTYPE = "VASSAL.build.module.PrototypeDefinition"
_ROOTS = ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule", "VASSAL.build.module.ModuleExtension",
          "excerpt")
#: Elements whose name is part of a slot's palette path.
_CONTAINERS = ("PieceWindow", "TabWidget", "PanelWidget", "ListWidget", "BoxWidget", "ScrollWidget",
               "ExtensionElement", "PrototypesContainer", "PrototypeFolder", "PieceSlotFolder")


def parse_piece_text(text: str) -> tuple[str, str]:
    """The (type, state) of a PieceSlot's AddPiece text ``+/null/<type>/<state>``.

    Text without the ``+/id/`` header is taken as a bare type.

    >>> parse_piece_text("+/null/piece;K;D;MS\\\\/Flame;Flame/null;0;0;192")
    ('piece;K;D;MS/Flame;Flame', 'null;0;0;192')
    """
    stripped = text.strip()
    if not stripped.startswith("+/"):
        return stripped, ""
    toks = decode_sequence(stripped, "/")
    type_text = toks[2] if len(toks) > 2 else ""
    state_text = toks[3] if len(toks) > 3 else ""
    return type_text, state_text


def _gpid_from_state(traits: tuple[Trait, ...]) -> str:
    if not traits or traits[-1].id != "piece":
        return ""
    st = traits[-1].state_fields
    return st[3] if len(st) > 3 else ""


@dataclass(frozen=True, slots=True)
class PieceSlot:
    """A palette slot: name, gpid, where it sits in the palettes, and its piece.

    *path* is the PieceWindow name then every named widget above the slot,
    e.g. ``("VASL Counters", "Info", "Destroy", "Flame / Blaze")``.
    """

    name: str
    gpid: str
    path: tuple[str, ...]
    type: str
    state: str
    traits: tuple[Trait, ...]

    @property
    def palette(self) -> str:
        """The palette path written out, widgets joined by `` > ``."""
        return " > ".join(self.path)

    @property
    def piece_name(self) -> str:
        """The BasicPiece's own name (the last trait's name field)."""
        if self.traits and self.traits[-1].id == "piece":
            f = self.traits[-1].fields
            return f[4] if len(f) > 4 else ""
        return ""

    @property
    def fire_counter(self) -> FireCounter | None:
        """The fire counter this slot is (by gpid, then name), or None."""
        return classify(self.name or self.piece_name, self.gpid)

    @property
    def prototypes(self) -> tuple[str, ...]:
        """Names of the PrototypeDefinitions the piece uses (``prototype;Name`` traits)."""
        out: list[str] = []
        for t in self.traits:
            if t.id == "prototype":
                f = t.fields
                if len(f) > 1:
                    out.append(f[1])
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Prototype:
    """A PrototypeDefinition: its name and trait chain."""

    name: str
    type: str
    state: str
    traits: tuple[Trait, ...]


@dataclass(frozen=True)
class ModuleIndex:
    """Every PieceSlot and PrototypeDefinition of a module, with its name and versions."""

    source: str
    root: str
    name: str
    version: str
    vassal_version: str
    slots: tuple[PieceSlot, ...]
    prototypes: Mapping[str, Prototype] = field(default_factory=dict)

    @cached_property
    def by_gpid(self) -> dict[str, PieceSlot]:
        """Slots by gpid (the first slot wins if a module repeats one)."""
        out: dict[str, PieceSlot] = {}
        for s in self.slots:
            out.setdefault(s.gpid, s)
        return out

    def fire_slots(self) -> list[tuple[FireCounter, PieceSlot]]:
        """Every fire-related slot with what it is, in module order."""
        out: list[tuple[FireCounter, PieceSlot]] = []
        for s in self.slots:
            kind = s.fire_counter
            if kind is not None:
                out.append((kind, s))
        return out

    def named(self, name: str) -> list[PieceSlot]:
        """Slots with this entry name."""
        return [s for s in self.slots if s.name == name]


def _container_name(el: etree._Element) -> str | None:
    tag = el.tag if isinstance(el.tag, str) else ""
    short = tag.rsplit(".", 1)[-1]
    if short not in _CONTAINERS:
        return None
    return el.get("entryName") or el.get("name") or None


def _index(events: Iterable[tuple[str, etree._Element]], source: str) -> ModuleIndex:
    slots: list[PieceSlot] = []
    protos: dict[str, Prototype] = {}
    root_tag = ""
    root_attrs: dict[str, str] = {}
    path: list[str | None] = []
    depth = 0
    for event, el in events:
        tag = el.tag if isinstance(el.tag, str) else ""
        if event == "start":
            if depth == 0:
                root_tag = tag
                root_attrs = {str(k): str(v) for k, v in el.attrib.items()}
            else:
                path.append(_container_name(el))
            depth += 1
            continue
        depth -= 1
        if depth == 0:
            break
        path.pop()
        if tag in (PIECE_SLOT, PROTOTYPE):
            type_text, state_text = parse_piece_text(el.text or "")
            traits = decode_traits(type_text, state_text) if type_text else ()
            if tag == PIECE_SLOT:
                gpid = (el.get("gpid") or "").strip() or _gpid_from_state(traits)
                where = tuple(p for p in path if p)
                slots.append(PieceSlot(el.get("entryName") or "", gpid, where, type_text, state_text, traits))
            else:
                name = el.get("name") or ""
                protos[name] = Prototype(name, type_text, state_text, traits)
            el.clear()
            parent = el.getparent()
            if parent is not None:
                while el.getprevious() is not None:
                    del parent[0]
    if not root_tag:
        raise BadXmlError(f"{source}: empty document; expected a VASSAL buildFile")
    if root_tag not in _ROOTS and not slots:
        raise BadXmlError(f"{source}: root element <{root_tag}> is not a VASSAL module (expected "
                     "VASSAL.build.GameModule, VASSAL.launch.BasicModule or ModuleExtension)")
    return ModuleIndex(source, root_tag, root_attrs.get("name", ""), root_attrs.get("version", ""),
                       root_attrs.get("VassalVersion", ""), tuple(slots), protos)


def read_module_bytes(data: bytes, source: str) -> ModuleIndex:
    """Index a buildFile given as bytes; *source* names it in errors."""
    return _index(iterparse(io.BytesIO(data), source, "a VASSAL buildFile"), source)


def module_index(path: Path | str) -> ModuleIndex:
    """:func:`read_module`, read once per version of the file (path, modification time and size): the bridge's
    counter data, the fire counters' and the units' pictures share one index.

    :raises BadArchiveError: as :func:`read_module` (and for a file that is not there).
    :raises BadXmlError: as :func:`read_module`.
    """
    p = Path(path)
    try:
        st = p.stat()
    except OSError:
        return read_module(p)
    return _module_index(str(p), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4)
def _module_index(path: str, mtime_ns: int, size: int) -> ModuleIndex:
    return read_module(path)


def read_module(path: Path | str) -> ModuleIndex:
    """Index a ``.vmod``/``.vmdx`` archive or a bare ``buildFile``/``buildFile.xml``.

    :raises BadArchiveError: for a broken archive or one without a buildFile.
    :raises BadXmlError: for XML that does not parse or is not a module.
    """
    p = Path(path)
    data = read_file_limited(p)  # a regular file only (a FIFO or /dev/zero is refused, not read forever)
    if not data.startswith(b"PK") and p.suffix.lower() in (".vmod", ".vmdx", ".zip", ".vext"):
        raise BadArchiveError(f"{p}: not a zip archive (a VASSAL module {p.suffix} is a zip file with a buildFile.xml "
                              "inside)")
    if data.startswith(b"PK"):
        arc = Archive(data, str(p))
        member = arc.find("buildFile.xml", "buildFile")
        if member is None:
            raise BadArchiveError(f"{p}: no buildFile.xml or buildFile in the archive (expected a .vmod or .vmdx)")
        return read_module_bytes(arc.read(member), f"{p}!{member}")
    if len(data) > MAX_MEMBER_BYTES:
        raise BadArchiveError(f"{p}: {len(data):,} bytes; a bare buildFile may have at most {MAX_MEMBER_BYTES:,}")
    return read_module_bytes(data, str(p))
