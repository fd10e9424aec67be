"""Check, without a JDK, that a built extension links against a VASSAL engine jar.

Java class files name every field and method they use (``CONSTANT_Fieldref``,
``CONSTANT_Methodref``, ``CONSTANT_InterfaceMethodref``: class, name,
descriptor).  :func:`linkage_problems` reads those of the extension's own
classes (``aslfire/``) that point into VASSAL (``VASSAL/``) and looks each one
up in the engine jar's classes, up their superclasses and interfaces, as the
JVM's resolution does.  A member inherited from a class outside the jar (the
JDK's, e.g. ``javax/swing/JButton``) cannot be checked here and is counted
as such.  This is the check ``javap -c`` over the
extension's classes makes, in pure Python so that ``asl-fire install`` can run it
on a player's machine, which has a Java runtime but no JDK.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import BadInput

__all__ = ["ClassInfo", "Linkage", "linkage_problems", "parse_class"]


class BadClassFile(BadInput):
    """Bytes that are not a Java class file."""


@dataclass(frozen=True)
class ClassInfo:
    """What linking needs of one class file: its name, supertypes, members and the members it uses."""

    name: str
    super_name: str | None
    interfaces: tuple[str, ...]
    members: frozenset[tuple[str, str]]  # (name, descriptor) of its fields and methods
    refs: tuple[tuple[str, str, str, str], ...] = ()  # (kind, class, name, descriptor)
    classes: tuple[str, ...] = ()  # every class it names (CONSTANT_Class)


_SIZES = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}
_REF_KINDS = {9: "field", 10: "method", 11: "interface method"}


def parse_class(data: bytes, source: str = "class") -> ClassInfo:
    """The linking information of a class file.

    :raises BadClassFile: for bytes that are not a class file.
    """
    try:
        return _parse(data)
    except (struct.error, IndexError, KeyError, UnicodeDecodeError):
        raise BadClassFile(f"{source}: not a Java class file (truncated or corrupt)") from None


def _parse(data: bytes) -> ClassInfo:
    if data[:4] != b"\xca\xfe\xba\xbe":
        raise KeyError("magic")
    (count,) = struct.unpack_from(">H", data, 8)
    pos = 10
    utf8: dict[int, str] = {}
    pairs: dict[int, tuple[int, int, int]] = {}  # index → (tag, a, b)
    i = 1
    while i < count:
        tag = data[pos]
        pos += 1
        if tag == 1:
            (n,) = struct.unpack_from(">H", data, pos)
            utf8[i] = data[pos + 2:pos + 2 + n].decode("utf-8", "replace")
            pos += 2 + n
        else:
            size = _SIZES[tag]
            if tag in (7, 8, 16, 19, 20):
                pairs[i] = (tag, struct.unpack_from(">H", data, pos)[0], 0)
            elif tag in (9, 10, 11, 12):
                a, b = struct.unpack_from(">HH", data, pos)
                pairs[i] = (tag, a, b)
            pos += size
            if tag in (5, 6):
                i += 1
        i += 1

    def cls(index: int) -> str:
        return utf8[pairs[index][1]]

    _access, this, sup, n_if = struct.unpack_from(">HHHH", data, pos)
    pos += 8
    interfaces = tuple(cls(struct.unpack_from(">H", data, pos + 2 * k)[0]) for k in range(n_if))
    pos += 2 * n_if
    members: set[tuple[str, str]] = set()
    for _ in range(2):  # fields, then methods
        (n,) = struct.unpack_from(">H", data, pos)
        pos += 2
        for _ in range(n):
            _acc, name, desc, n_attr = struct.unpack_from(">HHHH", data, pos)
            pos += 8
            members.add((utf8[name], utf8[desc]))
            for _ in range(n_attr):
                (length,) = struct.unpack_from(">I", data, pos + 2)
                pos += 6 + length
    refs = []
    for tag, a, b in pairs.values():
        if tag in _REF_KINDS:
            _t, name, desc = pairs[b]
            refs.append((_REF_KINDS[tag], cls(a), utf8[name], utf8[desc]))
    classes = tuple(utf8[a] for tag, a, _ in pairs.values() if tag == 7)
    return ClassInfo(cls(this), cls(sup) if sup else None, interfaces, frozenset(members), tuple(refs), classes)


@dataclass
class Linkage:
    """The result of a check: the references looked at and those missing from the engine."""

    references: int = 0
    missing: list[str] = field(default_factory=list)
    outside: int = 0  # inherited from a class outside the jars (the JDK's): not checkable here

    @property
    def ok(self) -> bool:
        return not self.missing


#: The largest class file read from a jar (VASSAL's largest are ~100 KB): a zip bomb's member is refused.
MAX_CLASS_BYTES = 4 * 1024 * 1024


def _read_member(z: zipfile.ZipFile, name: str) -> bytes:
    """Member *name* of *z*, refused past :data:`MAX_CLASS_BYTES` whatever its header claims.

    :raises KeyError: if *z* has no such member.
    """
    info = z.getinfo(name)
    where = f"{z.filename}!{name}"
    if info.file_size > MAX_CLASS_BYTES:
        raise BadInput(f"{where}: {info.file_size:,} bytes, over the {MAX_CLASS_BYTES:,}-byte limit for a class file")
    try:
        with z.open(info) as f:
            data = f.read(MAX_CLASS_BYTES + 1)
    except (OSError, zipfile.BadZipFile, EOFError, zlib.error) as e:
        raise BadInput(f"{where}: does not unpack ({e})") from None
    if len(data) > MAX_CLASS_BYTES:
        raise BadInput(f"{where}: unpacks to more than the {MAX_CLASS_BYTES:,}-byte limit for a class file")
    return data


class _Jars:
    def __init__(self, jars: Iterable[Path]) -> None:
        self._zips: list[zipfile.ZipFile] = []
        for j in jars:
            try:
                self._zips.append(zipfile.ZipFile(j))
            except (OSError, zipfile.BadZipFile) as e:
                raise BadInput(f"{j}: not a readable jar ({e})") from None
        self._cache: dict[str, ClassInfo | None] = {}

    def get(self, name: str) -> ClassInfo | None:
        if name not in self._cache:
            info = None
            for z in self._zips:
                try:
                    data = _read_member(z, name + ".class")
                except KeyError:
                    continue
                info = parse_class(data, f"{z.filename}!{name}.class")
                break
            self._cache[name] = info
        return self._cache[name]

    def close(self) -> None:
        for z in self._zips:
            z.close()


def _has(jars: _Jars, cls: str, member: tuple[str, str], seen: set[str]) -> bool | None:
    """True if *cls* or a supertype declares *member*; None if the search reaches a class not in the jars."""
    if cls in seen:
        return False
    seen.add(cls)
    info = jars.get(cls)
    if info is None:
        return None
    if member in info.members:
        return True
    unknown = False
    for sup in (info.super_name, *info.interfaces):
        if sup is None:
            continue
        found = _has(jars, sup, member, seen)
        if found:
            return True
        unknown = unknown or found is None
    return None if unknown else False


def linkage_problems(extension: Path, engine_jars: Iterable[Path], prefix: str = "VASSAL/") -> Linkage:
    """Every field and method of *prefix* classes the extension's ``aslfire/`` classes use, looked up in the jars.

    :raises BadInput: for an extension or jar that cannot be read.
    """
    jars = _Jars(engine_jars)
    result = Linkage()
    try:
        try:
            ext = zipfile.ZipFile(extension)
        except (OSError, zipfile.BadZipFile) as e:
            raise BadInput(f"{extension}: not a readable extension (.vmdx zip): {e}") from None
        with ext:
            names = [n for n in ext.namelist() if n.startswith("aslfire/") and n.endswith(".class")]
            if not names:
                raise BadInput(f"{extension}: no aslfire/*.class inside (expected the ASL fire bridge extension)")
            own = {n[:-6] for n in names}
            checked: set[tuple[str, str, str, str]] = set()
            for n in sorted(names):
                info = parse_class(_read_member(ext, n), f"{extension}!{n}")
                for c in info.classes:
                    if c.startswith(prefix) and ("class", c, "", "") not in checked:
                        checked.add(("class", c, "", ""))
                        result.references += 1
                        if jars.get(c) is None:
                            result.missing.append(f"class {c}")
                for ref in info.refs:
                    kind, c, name, desc = ref
                    if ref in checked or c in own:
                        continue
                    checked.add(ref)
                    if not c.startswith(prefix):
                        continue
                    result.references += 1
                    found = _has(jars, c, (name, desc), set())
                    if found is None:
                        result.outside += 1
                    elif not found:
                        result.missing.append(f"{kind} {c}.{name}{desc}")
    finally:
        jars.close()
    return result
