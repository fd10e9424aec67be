"""Opening VASL files without trusting them: XML, zip archives, gzip.

Every reader goes through here, so the rules hold everywhere:

* XML is parsed with entity resolution off, no network and no DTD loading.
* A zip member name with ``..``, an absolute path or a drive is refused.
* A zip member is read at most *limit* bytes (zip bombs), whatever its
  header claims; a truncated or corrupt archive is a :class:`BadArchiveError`.
* Every error names the file (and member) and what was expected.
"""

from __future__ import annotations

import gzip
import io
import re
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from lxml import etree

from ..core.errors import BadInput

__all__ = [
    "MAX_ARCHIVE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_MEMBER_BYTES",
    "Archive",
    "BadArchiveError",
    "BadXmlError",
    "VaslFileError",
    "gunzip_limited",
    "iterparse",
    "parse_xml",
    "read_file_limited",
    "xml_parser",
]

#: The largest zip member (uncompressed) any reader accepts: 64 MiB.  The
#: biggest real member is a board image (bd01.gif is a few MB).
MAX_MEMBER_BYTES = 64 * 1024 * 1024

#: The largest archive file read at all (a VASL module with all its images is ~100 MB).
MAX_ARCHIVE_BYTES = 512 * 1024 * 1024

#: Largest board picture decoded (a 4 × 4 block of geomorphic boards is far below it).
MAX_IMAGE_PIXELS = 40_000_000


class VaslFileError(BadInput):
    """A VASL file (module, board archive, saved game) that cannot be read."""


class BadArchiveError(VaslFileError):
    """A zip archive that is truncated, corrupt, too big or has unsafe member names."""


class BadXmlError(VaslFileError):
    """XML that does not parse, or is not the document expected."""


def xml_parser() -> etree.XMLParser:
    """An lxml parser that resolves no entities, loads no DTD and touches no network."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_blank_text=False)


def _libxml_message(msg: str) -> str:
    """libxml2's message for the player: its advice to the programmer (``use XML_PARSE_HUGE option``) dropped.

    >>> _libxml_message("Excessive depth in document: 256 use XML_PARSE_HUGE option, line 1, column 300")
    'Excessive depth in document: 256, beyond the limits of a safe read, line 1, column 300'
    """
    huge = r",? ?(?:use|try) XML_PARSE_HUGE(?: option)?"
    return re.sub(huge, ", beyond the limits of a safe read", msg or "").strip()


def parse_xml(data: bytes, source: str, expected: str) -> etree._Element:
    """The root element of XML *data*; *source* names the file and *expected* the document.

    :raises BadXmlError: if the bytes are not well-formed XML.
    """
    try:
        root = etree.fromstring(data, xml_parser())
    except etree.XMLSyntaxError as e:
        raise BadXmlError(f"{source}: not well-formed XML ({_libxml_message(e.msg)}); expected {expected}") from None
    except ValueError as e:  # e.g. unicode strings with an encoding declaration
        raise BadXmlError(f"{source}: cannot parse as XML ({e}); expected {expected}") from None
    if root is None:
        raise BadXmlError(f"{source}: empty XML document; expected {expected}")
    return root


def iterparse(stream: IO[bytes], source: str, expected: str,
              events: tuple[str, ...] = ("start", "end")) -> Iterator[tuple[str, etree._Element]]:
    """Stream (event, element) pairs from XML, with the same safety settings as :func:`xml_parser`.

    :raises BadXmlError: when the XML breaks, naming *source*.
    """
    it = etree.iterparse(stream, events=events, resolve_entities=False, no_network=True, load_dtd=False,
                         dtd_validation=False, huge_tree=False)
    try:
        yield from it
    except etree.XMLSyntaxError as e:
        raise BadXmlError(f"{source}: not well-formed XML ({_libxml_message(e.msg)}); expected {expected}") from None


def _unsafe_name(name: str) -> bool:
    if not name or "\x00" in name:
        return True
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return True
    parts = PurePosixPath(name.replace("\\", "/")).parts
    return ".." in parts


class Archive:
    """A zip archive opened for reading a few named members, safely.

    >>> import io, zipfile
    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w") as z:
    ...     z.writestr("BoardMetadata.xml", "<boardMetadata/>")
    >>> Archive(buf.getvalue(), "bd01").read("BoardMetadata.xml")
    b'<boardMetadata/>'
    """

    def __init__(self, source: Path | bytes, name: str | None = None, *, limit: int = MAX_MEMBER_BYTES) -> None:
        self.name = name if name is not None else str(source)
        self.limit = limit
        data = io.BytesIO(source if isinstance(source, bytes) else read_file_limited(Path(source)))
        try:
            self._zip = zipfile.ZipFile(data)
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, OSError) as e:
            raise BadArchiveError(f"{self.name}: not a readable zip archive ({e}); expected a VASL zip file") from None
        for info in infos:
            if _unsafe_name(info.filename):
                raise BadArchiveError(f"{self.name}: member name {info.filename!r} is unsafe (absolute or with '..'); "
                                 "refusing the archive")
        self._infos = {i.filename: i for i in infos}

    def names(self) -> list[str]:
        """The member names."""
        return list(self._infos)

    def __contains__(self, name: object) -> bool:
        return name in self._infos

    def find(self, *candidates: str) -> str | None:
        """The first of *candidates* present (exact, then case-insensitive, then by base name)."""
        for c in candidates:
            if c in self._infos:
                return c
        lower = {n.lower(): n for n in self._infos}
        for c in candidates:
            if c.lower() in lower:
                return lower[c.lower()]
        base = {n.rsplit("/", 1)[-1].lower(): n for n in self._infos}
        for c in candidates:
            if c.lower() in base:
                return base[c.lower()]
        return None

    def read(self, member: str, limit: int | None = None) -> bytes:
        """The bytes of *member*, at most *limit* (default :data:`MAX_MEMBER_BYTES`).

        :raises BadArchiveError: if it is missing, too big, truncated or corrupt.
        """
        cap = self.limit if limit is None else limit
        info = self._infos.get(member)
        if info is None:
            raise BadArchiveError(f"{self.name}: has no member {member!r}")
        if info.file_size > cap:
            raise BadArchiveError(f"{self.name}: member {member!r} unpacks to {info.file_size} bytes, over the "
                             f"{cap}-byte limit")
        try:
            with self._zip.open(info) as f:
                data = f.read(cap + 1)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError, OSError, NotImplementedError) as e:
            raise BadArchiveError(f"{self.name}: member {member!r} is truncated or corrupt ({e})") from None
        if len(data) > cap:
            raise BadArchiveError(f"{self.name}: member {member!r} unpacks to more than the {cap}-byte limit")
        return data


def read_file_limited(path: Path, limit: int = MAX_ARCHIVE_BYTES) -> bytes:
    """The bytes of a file, refusing one larger than *limit*.

    :raises BadArchiveError: for a file over the limit.
    """
    from .._files import FileTooLarge, read_limited

    try:
        return read_limited(path, limit, "a VASL file")
    except FileTooLarge as e:
        raise BadArchiveError(str(e)) from None


def gunzip_limited(data: bytes, source: str, limit: int = MAX_MEMBER_BYTES) -> bytes:
    """Un-gzip *data*, refusing more than *limit* bytes of output.

    :raises VaslFileError: for data that is not gzip, truncated or too big.
    """
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as g:
            out = g.read(limit + 1)
    except (OSError, EOFError, zlib.error, ValueError) as e:
        raise VaslFileError(f"{source}: broken gzip data ({e}); expected gzip-compressed data") from None
    if len(out) > limit:
        raise VaslFileError(f"{source}: gzip data unpacks to more than the {limit}-byte limit")
    return out
