"""Reading a file a player was sent: a regular file, and at most so many bytes.

``/dev/zero``, ``/dev/urandom`` or a FIFO named as a position file or saved game
would otherwise be read until memory runs out, or forever.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     p = pathlib.Path(d, "x.toml"); _ = p.write_text("format = 1")
...     read_limited(p, 100, "a position file")
b'format = 1'
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from .core.errors import BadInput

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["FileTooLarge", "NotARegularFile", "read_limited"]


class NotARegularFile(BadInput):
    """A device, FIFO, socket or folder where a file was expected."""


class FileTooLarge(BadInput):
    """A file over the size limit of what it should be."""


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words (``a FIFO (named pipe)``)."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_limited(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file *path*, refusing anything else and files over *limit* bytes.

    *what* names what the file should be in the message (``"a position file"``).
    """
    # O_NONBLOCK: opening a FIFO with no writer must not hang before fstat can refuse it.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise NotARegularFile(f"{path}: {file_kind(st.st_mode)}, not a regular file (expected {what})")
    with os.fdopen(fd, "rb") as f:
        if st.st_size > limit:
            raise FileTooLarge(f"{path}: {st.st_size:,} bytes; {what} may have at most {limit:,}")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(f"{path}: more than {limit:,} bytes; {what} may have at most {limit:,}")
    return data
