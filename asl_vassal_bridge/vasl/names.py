"""Board and overlay names from a saved game or a live game: a name is a file's name in its folder, nothing else.

A saved game is the opponent's file: its ``bd`` line could name a board ``/etc/passwd`` or ``../x``, an
overlay ``/../../OUTSIDE/X``.  Every lookup of a board or overlay archive goes through :func:`file_in`, which
resolves a plain name inside its folder and refuses anything else (a path separator, ``.`` or ``..``, a drive,
a control character) before any file is opened.

>>> is_plain_name("01"), is_plain_name("BFP_A"), is_plain_name("../x"), is_plain_name("/etc/passwd")
(True, True, False, False)
"""

from __future__ import annotations

from pathlib import Path

from .safe import VaslFileError

__all__ = ["BadName", "file_in", "is_plain_name"]

#: Longer than any VASL board or overlay name (``bdDB_RB_Gutted_Factory_…``) by far.
MAX_NAME = 120


class BadName(VaslFileError):
    """A board or overlay name that is not a plain file name: a path, ``..``, a control character."""


def is_plain_name(name: str) -> bool:
    """*name* can only name a file directly in a folder: not empty, no ``/``, ``\\`` or ``:``, not ``.`` or
    ``..``, printable, at most :data:`MAX_NAME` characters."""
    return (0 < len(name) <= MAX_NAME and name not in (".", "..") and name.isprintable()
            and not any(c in name for c in "/\\:"))


def file_in(folder: Path | str, name: str, what: str) -> Path:
    """*folder* / *name* for a plain *name* (:func:`is_plain_name`).

    :raises BadName: naming *what* (``"board"``, ``"overlay archive"``) and the name, for anything that could
        reach outside *folder*.
    """
    if not is_plain_name(name):
        raise BadName(f"{what} {name[:60]!r}: not a {what} name (a plain file name inside {folder}, e.g. "
                      f"{'bd01' if what.startswith('board') else 'ovrX'}); refused")
    return Path(folder) / name
