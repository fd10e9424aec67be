"""Where a player's VASSAL keeps VASL: the module, VASL's boards folder and VASSAL's engine jar.

VASSAL (3.7.26 sources) keeps its preferences in ``<conf dir>/prefs/``
(``VASSAL.launch.StandardConfig``): the conf dir is
``~/Library/Application Support/VASSAL`` on macOS, ``%APPDATA%\\VASSAL`` on
Windows and ``~/.VASSAL`` elsewhere.  Each preferences file is a Java
properties file (``VASSAL.preferences.Prefs``):

- ``V_Global`` (the global preferences) holds the module manager's list of
  modules under the keys ``Modules`` (3.5.2 on) and ``RecentModules`` (up
  to 3.5.1; ``ModuleManagerWindow``): a ``,``-separated SequenceEncoder list
  whose entries are ``;``-separated — the module file, then its game folders;
- the module's own file, named after the module (``Prefs.sanitize("VASL")``
  is ``VASL``), holds VASL's Board Directory preference under the key
  ``boardURL`` (VASL's ``ASLBoardPicker.BOARD_DIR``).

The VASL module carries VASL's terrain types in
``boardData/SharedBoardMetadata.xml``.  VASSAL loads the extensions in the
folder ``<module file without its extension>_ext`` beside the module
(``ExtensionsManager``), e.g. ``VASL_ext/`` beside ``VASL.vmod``.

Everything here takes a :class:`Platform` so that the Linux, Windows and
macOS conventions can be tried on fake trees.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .safe import VaslFileError

if TYPE_CHECKING:
    from .terrain import TerrainTable

__all__ = [
    "Platform",
    "VaslSetup",
    "engine_jars",
    "extensions_dir",
    "module_board_dir",
    "read_java_properties",
    "registered_modules",
    "resolve_vasl",
    "sanitize",
    "terrain_table_from_module",
]

#: Where VASL keeps its terrain types inside the module.
MODULE_SHARED_METADATA = "boardData/SharedBoardMetadata.xml"
#: VASL's module name (its buildFile's GameModule name), which names its preferences file.
VASL_MODULE_NAME = "VASL"
#: VASL's Board Directory preference key (``ASLBoardPicker.BOARD_DIR``).
BOARD_DIR_KEY = "boardURL"


@dataclass(frozen=True)
class Platform:
    """The conventions of one operating system: its kind, the user's home, the environment, the file system root.

    *root* stands for ``/`` (or ``C:\\``) so that tests can lay out a fake tree.
    """

    kind: str  # "linux", "windows" or "macos"
    home: Path
    env: Mapping[str, str] = field(default_factory=dict)
    root: Path = Path("/")

    @classmethod
    def current(cls) -> Platform:
        kind = "macos" if sys.platform == "darwin" else "windows" if os.name == "nt" else "linux"
        return cls(kind, Path.home(), dict(os.environ))

    def conf_dir(self) -> Path:
        """VASSAL's conf dir (``StandardConfig``); ``$ASL_FIRE_VASSAL_CONF`` stands for ``-DVASSAL.conf``."""
        if self.env.get("ASL_FIRE_VASSAL_CONF"):
            return Path(self.env["ASL_FIRE_VASSAL_CONF"])
        if self.kind == "macos":
            return self.home / "Library" / "Application Support" / "VASSAL"
        if self.kind == "windows":
            return Path(self.env.get("APPDATA") or self.home / "AppData" / "Roaming") / "VASSAL"
        return self.home / ".VASSAL"

    def prefs_dir(self) -> Path:
        return self.conf_dir() / "prefs"


def sanitize(name: str) -> str:
    """A preferences file name as VASSAL makes it (``Prefs.sanitize``).

    >>> sanitize("VASL"), sanitize("ASL Fire Test")
    ('VASL', 'ASL_20_Fire_20_Test')
    """
    return "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):X}_" for c in name)


_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def read_java_properties(text: str) -> dict[str, str]:
    r"""Parse a Java properties file (``java.util.Properties.load``): escapes, continuations, ``=``/``:``/space.

    >>> read_java_properties("# c\nboardURL=C\\:\\\\VASL\\\\boards\nModules=/a/VASL.vmod,/b/x.vmod\n")
    {'boardURL': 'C:\\VASL\\boards', 'Modules': '/a/VASL.vmod,/b/x.vmod'}
    """
    out: dict[str, str] = {}
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].lstrip(" \t\f")
        i += 1
        if not line or line[0] in "#!":
            continue
        parts = [line]  # joined once: a long run of continuation lines stays linear
        while _continues(parts[-1]) and i < len(lines):
            parts[-1] = parts[-1][:-1]
            parts.append(lines[i].lstrip(" \t\f"))
            i += 1
        if _continues(parts[-1]):
            parts[-1] = parts[-1][:-1]
        key, value = _split_property("".join(parts))
        out[_unescape(key)] = _unescape(value)
    return out


def _continues(line: str) -> bool:
    n = len(line) - len(line.rstrip("\\"))
    return n % 2 == 1


def _split_property(line: str) -> tuple[str, str]:
    j = 0
    while j < len(line):
        c = line[j]
        if c == "\\":
            j += 2
            continue
        if c in "=: \t\f":
            break
        j += 1
    key, rest = line[:j], line[j:]
    rest = rest.lstrip(" \t\f")
    if rest[:1] in ("=", ":"):
        rest = rest[1:].lstrip(" \t\f")
    return key, rest


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    j = 0
    while j < len(text):
        c = text[j]
        if c != "\\" or j + 1 == len(text):
            out.append(c)
            j += 1
            continue
        n = text[j + 1]
        if n == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", text[j + 2:j + 6]):
            out.append(chr(int(text[j + 2:j + 6], 16)))
            j += 6
            continue
        out.append(_ESCAPES.get(n, n))
        j += 2
    return "".join(out)


#: The largest VASSAL preferences file read (a real ``V_Global`` is a few kB).
MAX_PREFS_BYTES = 4 * 1024 * 1024


def _read_prefs(path: Path) -> dict[str, str]:
    from .._files import read_limited
    from ..core.errors import BadInput

    try:
        data = read_limited(path, MAX_PREFS_BYTES, "a VASSAL preferences file")
    except FileNotFoundError:
        return {}
    except BadInput as e:  # a FIFO, a device, a folder or too big
        raise VaslFileError(str(e)) from None
    except OSError:  # unreadable (permissions): as if VASSAL had written none
        return {}
    # Properties.load reads ISO-8859-1 with \uXXXX escapes for the rest.
    return read_java_properties(data.decode("latin-1"))


def registered_modules(pf: Platform) -> tuple[list[Path], Path]:
    """The module files VASSAL's module manager lists (``V_Global``: ``Modules`` then ``RecentModules``).

    Returns the files (existing or not, in order, without repeats) and the preferences file read.
    """
    from .traits import decode_sequence

    path = pf.prefs_dir() / "V_Global"
    prefs = _read_prefs(path)
    out: dict[Path, None] = {}  # in order, without repeats
    for key in ("Modules", "RecentModules"):
        for entry in decode_sequence(prefs.get(key) or None, ","):
            tokens = decode_sequence(entry, ";")
            if tokens and tokens[0]:
                out.setdefault(Path(tokens[0]))
    return list(out), path


def module_board_dir(pf: Platform, module_name: str = VASL_MODULE_NAME) -> tuple[Path | None, Path]:
    """VASL's Board Directory preference (``boardURL`` in ``prefs/VASL``) and the file read."""
    path = pf.prefs_dir() / sanitize(module_name)
    value = _read_prefs(path).get(BOARD_DIR_KEY)
    return (Path(value) if value else None), path


def _is_vasl(p: Path) -> bool:
    return p.name.lower().startswith("vasl") and p.suffix.lower() == ".vmod"


def find_vasl_module(pf: Platform) -> tuple[Path | None, str]:
    """The VASL module VASSAL's module manager knows (the newest file if several), and where that was read."""
    modules, path = registered_modules(pf)
    found = [m for m in modules if _is_vasl(m) and m.is_file()]
    if not found:
        return None, f"no VASL*.vmod among the modules listed in {path}"
    best = max(found, key=lambda m: m.stat().st_mtime)
    return best, f"VASSAL's module manager list ({path}, key Modules)"


def extensions_dir(module: Path) -> Path:
    """The folder VASSAL loads a module's extensions from: ``VASL_ext`` beside ``VASL.vmod`` (``ExtensionsManager``)."""
    return module.with_name(module.stem + "_ext")


@dataclass(frozen=True)
class VaslSetup:
    """The VASL module and boards folder a command uses, and how each was found (one line each)."""

    module: Path | None
    boards: Path | None
    notes: tuple[str, ...] = ()

    def terrain_table(self) -> TerrainTable:
        """VASL's terrain types: from the module when there is one, else beside the boards folder.

        :raises VaslFileError: when neither has them.
        """
        if self.module is not None:
            return terrain_table_from_module(self.module)
        from .board import default_terrain_table

        if self.boards is None:
            raise VaslFileError("VASL's terrain types are needed: give --vasl PATH/VASL.vmod")
        return default_terrain_table(self.boards)


def terrain_table_from_module(module: Path) -> TerrainTable:
    """VASL's terrain types from ``boardData/SharedBoardMetadata.xml`` inside the module.

    :raises VaslFileError: for a missing file, a file that is not a zip, or a module without it.
    """
    if not module.is_file():
        raise VaslFileError(f"{module}: no such file (expected VASL's module, VASL.vmod)")
    st = module.stat()
    return _module_table(str(module), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4)
def _module_table(module: str, mtime_ns: int, size: int) -> TerrainTable:
    """The module's terrain types, read once per version of the file (every bridge press asks)."""
    from .safe import Archive
    from .terrain import terrain_types_from_xml

    arc = Archive(Path(module))
    if MODULE_SHARED_METADATA not in arc:
        raise VaslFileError(f"{module}: no {MODULE_SHARED_METADATA} inside (expected VASL's module, VASL.vmod)")
    return terrain_types_from_xml(arc.read(MODULE_SHARED_METADATA), f"{module}!{MODULE_SHARED_METADATA}")


def resolve_vasl(vasl: Path | str | None = None, boards: Path | str | None = None, *,
                 need_boards: bool = True, pf: Platform | None = None) -> VaslSetup:
    """The VASL module and boards folder to use: the ones given, else VASSAL's own preferences.

    The module is only looked up in VASSAL's preferences when no SharedBoardMetadata.xml lies beside
    the boards folder (or in ``$ASL_FIRE_SHARED_METADATA``).

    :raises VaslFileError: a folder or file given that does not exist, or no boards folder found when
        *need_boards*, saying what was looked at.
    """
    pf = pf or Platform.current()
    notes: list[str] = []
    module = Path(vasl) if vasl is not None else None
    if module is not None:
        if not module.is_file():
            raise VaslFileError(f"--vasl {module}: no such file (expected VASL's module, e.g. .../VASL.vmod)")
        notes.append(f"VASL module {module} (--vasl)")
    board_dir = Path(boards) if boards is not None else None
    if board_dir is not None:
        if not board_dir.is_dir():
            raise VaslFileError(f"--boards {board_dir}: no such folder (expected the folder of VASL's board "
                                "archives bd01, bd02, …)")
        notes.append(f"boards folder {board_dir} (--boards)")
    else:
        pref, path = module_board_dir(pf)
        if pref is not None and pref.is_dir():
            board_dir = pref
            notes.append(f"boards folder {pref} (VASL's Board Directory preference in {path}, key {BOARD_DIR_KEY})")
        elif need_boards:
            why = (f"{path} names {pref}, which is not a folder" if pref is not None
                   else f"no {BOARD_DIR_KEY} preference in {path}")
            raise VaslFileError(f"VASL's boards folder is needed: give --boards DIR ({why})")
    if module is None:
        from .board import find_shared_metadata

        beside = find_shared_metadata(board_dir) if board_dir is not None else find_shared_metadata()
        if beside:
            notes.append(f"VASL terrain types {beside[0]}")
        else:
            module, how = find_vasl_module(pf)
            if module is not None:
                notes.append(f"VASL module {module} ({how})")
    return VaslSetup(module, board_dir, tuple(notes))


# --- VASSAL installations -----------------------------------------------------------------


_VERSION = re.compile(r"(\d+(?:\.\d+)*)")


def _version_key(p: Path) -> tuple[int, ...]:
    for part in reversed(p.parts):
        m = _VERSION.search(part) if "vassal" in part.lower() else None
        if m:
            return tuple(int(x) for x in m.group(1).split("."))
    return ()


def engine_jars(pf: Platform, which: Callable[[str], str | None] | None = None) -> list[Path]:
    """VASSAL engine jars (``Vengine.jar``) of the installations found, newest version first.

    - Windows: ``%ProgramFiles%\\VASSAL-<version>\\lib`` (VASSAL's NSIS installer), also
      ``%ProgramFiles(x86)%`` and ``%LOCALAPPDATA%\\Programs``;
    - macOS: ``/Applications/VASSAL*.app/Contents/Resources/Java`` (and ``~/Applications``);
    - Linux: the unpacked ``VASSAL-<version>/lib`` in the home folder, ``/opt``, ``/usr/local``
      or ``/usr/share``, or beside ``VASSAL.sh`` on the PATH.
    """
    bases: list[tuple[Path, str]] = []
    if pf.kind == "windows":
        for var in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"):
            if pf.env.get(var):
                bases.append((Path(pf.env[var]), "VASSAL*/lib/Vengine.jar"))
        if pf.env.get("LOCALAPPDATA"):
            bases.append((Path(pf.env["LOCALAPPDATA"]) / "Programs", "VASSAL*/lib/Vengine.jar"))
    elif pf.kind == "macos":
        for apps in (pf.root / "Applications", pf.home / "Applications"):
            bases.append((apps, "VASSAL*.app/Contents/Resources/Java/Vengine.jar"))
    else:
        for base in (pf.home, pf.root / "opt", pf.root / "usr" / "local", pf.root / "usr" / "share",
                     pf.home / ".local" / "share"):
            bases.append((base, "[Vv][Aa][Ss][Ss][Aa][Ll]*/lib/Vengine.jar"))
    found: list[Path] = []
    for base, pattern in bases:
        if base.is_dir():
            found += sorted(base.glob(pattern))
    if pf.kind == "linux":
        script = (which or shutil.which)("VASSAL.sh")
        if script:
            jar = Path(script).resolve().parent / "lib" / "Vengine.jar"
            if jar.is_file():
                found.append(jar)
    unique = list(dict.fromkeys(p for p in found if p.is_file()))
    return sorted(unique, key=_version_key, reverse=True)
