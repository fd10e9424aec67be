"""Load a Position from whatever the user points at: a position file or a VASL saved game."""

from __future__ import annotations

from pathlib import Path

from .core.errors import BadInput
from .core.position import Position

__all__ = ["load_position"]


def load_position(path: str | Path, boards: str | Path | None = None) -> Position:
    """A Position from a ``.toml`` position file, or a ``.vsav`` with its board archives folder.

    ``demo`` names the embedded demo scenario.
    """
    p = Path(path)
    if str(path) == "demo":
        from .scenarios import demo_position

        return demo_position()
    if p.suffix.lower() == ".vsav":
        if boards is None:
            raise BadInput(f"{p}: a VASL saved game needs its board archives: add --boards DIR")
        from .vasl.position import position_from_vsav

        return position_from_vsav(p, Path(boards))
    if not p.exists():
        raise BadInput(f"{p}: no such file (expected a .toml position file, a .vsav saved game, or 'demo')")
    from .posfile import load

    return load(p)
