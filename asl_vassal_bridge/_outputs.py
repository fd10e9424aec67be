"""Writing a file the player named, and nothing else: never an input, never a file of another kind unasked.

:func:`check_output` is called before a command reads or computes anything: it refuses an empty name, a
folder, a device or FIFO, a file that is one of the command's inputs (the same file, however named), and an
existing file that is not of the kind the command writes (a saved game where a position file would go, a
board archive where a PNG would go) unless the player gave ``--force``.  :func:`replacing` then writes
through a temporary file of its own, created exclusively (``O_EXCL``, never through a link) beside the
target and hidden (VASSAL loads every visible file of an extension folder), and renamed over the target
only when the writing is done; it is removed on every failure.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     out = pathlib.Path(d, "next.toml")
...     with replacing(out) as tmp:
...         _ = tmp.write_text("format = 1\\n")
...     sorted(p.name for p in pathlib.Path(d).iterdir())
['next.toml']
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ._files import file_kind
from .core.errors import BadInput

__all__ = ["PNG", "POSITION", "SVG", "OutputKind", "check_output", "exclusive_temp", "replacing"]

#: Bytes of an existing file read to tell its kind (position files are at most 4 MiB).
_SNIFF_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class OutputKind:
    """What a command writes: its name in messages, an example file name, and how to recognise one."""

    what: str  # "a position file"
    example: str  # "after.toml"
    recognise: Callable[[Path], bool]


def _head(path: Path, n: int) -> bytes:
    with path.open("rb") as f:
        return f.read(n)


def _is_png(path: Path) -> bool:
    return _head(path, 8) == b"\x89PNG\r\n\x1a\n"


def _is_svg(path: Path) -> bool:
    head = _head(path, 4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"<?xml", b"<svg")) and b"<svg" in head


def _is_position_file(path: Path) -> bool:
    """A TOML file with a top-level ``format`` (every position file has one, docs/position-files.md)."""
    import tomllib

    if path.stat().st_size > _SNIFF_BYTES:
        return False
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return False
    return "format" in data


PNG = OutputKind("a PNG picture", "heat.png", _is_png)
SVG = OutputKind("an SVG picture", "map.svg", _is_svg)
POSITION = OutputKind("a position file", "after.toml", _is_position_file)


def _kind_of(path: Path) -> str:
    """What an existing file looks like, for the message (a guess from its first bytes)."""
    head = _head(path, 512)
    if head.startswith(b"PK\x03\x04"):
        return "a zip archive (a VASL saved game, board, module or extension?)"
    if head.startswith(b"\x89PNG"):
        return "a PNG picture"
    if b"\0" in head:
        return "binary data"
    return "text of another kind"


def check_output(path: str | Path | None, option: str, kind: OutputKind, *,
                 inputs: Iterable[str | Path | None] = (), force: bool = False) -> Path | None:
    """*path* (the value of *option*) checked as a file to write *kind* into; None when the option was not given.

    :raises BadInput: naming *option* and the file: an empty name; a missing folder; a folder, device, FIFO or
        socket; one of *inputs* (the same file, through any link); an existing file that is not *kind*, unless
        *force*.  Nothing is written or removed.
    """
    if path is None:
        return None
    text = str(path)
    if not text.strip():
        raise BadInput(f"{option} {text!r}: an empty file name; expected the file to write {kind.what} into, e.g. "
                       f"{option} {kind.example}")
    p = Path(text)
    parent = p.parent
    if not parent.is_dir():
        raise BadInput(f"{option} {p}: cannot write it: folder {parent} does not exist")
    try:
        st = p.stat()
    except FileNotFoundError:
        return p  # a new file (a dangling link is replaced, not followed: see replacing)
    except OSError as e:
        raise BadInput(f"{option} {p}: cannot check it ({e.strerror or e})") from None
    if stat.S_ISDIR(st.st_mode):
        raise BadInput(f"{option} {p}: a folder; expected the file to write {kind.what} into, e.g. "
                       f"{p / kind.example}")
    if not stat.S_ISREG(st.st_mode):
        raise BadInput(f"{option} {p}: {file_kind(st.st_mode)}, not a regular file; expected the file to write "
                       f"{kind.what} into")
    for given in inputs:
        if given is None or str(given) in ("", "demo"):
            continue
        try:
            same = os.path.samefile(p, given)
        except OSError:
            continue
        if same:
            raise BadInput(f"{option} {p}: that is the input {given} too; write {kind.what} to another file "
                           "(nothing was written)")
    if force or st.st_size == 0:
        return p
    try:
        ours = kind.recognise(p)
    except OSError as e:
        raise BadInput(f"{option} {p}: cannot read it to check what it is ({e.strerror or e})") from None
    if not ours:
        raise BadInput(f"{option} {p}: exists and is not {kind.what} ({_kind_of(p)}); not replacing it: name "
                       "another file, or add --force to replace it")
    return p


def exclusive_temp(target: Path) -> Path:
    """A new, empty, hidden file beside *target* (``.NAME.RANDOM.part``), created exclusively: never an existing
    file, never through a link.

    :raises BadInput: naming *target* if its folder cannot take it.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(16):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.part")
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
        except OSError as e:
            raise BadInput(f"{target}: cannot write it ({e.strerror or e})") from None
        os.close(fd)
        return tmp
    raise BadInput(f"{target}: cannot create a temporary file beside it")


@contextlib.contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """Yield a fresh temporary path (:func:`exclusive_temp`) to write *target*'s new content into; it then replaces
    *target* in one rename, and is removed if anything fails before that.

    :raises BadInput: naming *target* when it cannot be written.
    """
    target = Path(target)
    tmp = exclusive_temp(target)
    try:
        yield tmp
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:
        os.replace(tmp, target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise BadInput(f"{target}: cannot write it ({e.strerror or e})") from None
