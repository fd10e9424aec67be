"""Load a Position from whatever the user points at: a position file or a VASL saved game."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .core.errors import BadInput
from .core.position import Position

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["load_position"]


def load_position(path: str | Path, boards: str | Path | None = None, vasl: str | Path | None = None, *,
                  note: Callable[[str], None] | None = None) -> Position:
    """A Position from a ``.toml`` position file, or a ``.vsav`` with VASL's boards folder and module.

    ``demo`` names the embedded demo scenario.  For a ``.vsav``, *boards* and
    *vasl* (``VASL.vmod``, for its terrain types) default to what VASSAL's own
    preferences record (see :mod:`asl_vassal_bridge.vasl.setup`); *note* is
    told, one line each, which were used.
    """
    if str(path) == "demo":
        from .scenarios import demo_position

        return demo_position()
    from pathlib import Path  # here, not at the top: ``asl-fire odds demo`` starts faster without it

    p = Path(path)
    if p.suffix.lower() in (".vsav", ".vlog"):  # a log is read as a saved game: its moves are not replayed
        if not p.exists():
            raise BadInput(f"{p}: no such file (expected a VASL saved game)")
        from .vasl.position import position_from_vsav
        from .vasl.setup import resolve_vasl

        setup = resolve_vasl(vasl, boards)
        for line in setup.notes:
            if note is not None:
                note(line)
        assert setup.boards is not None
        return position_from_vsav(p, setup.boards, table=setup.terrain_table())
    if not p.exists():
        raise BadInput(f"{p}: no such file (expected a .toml position file, a .vsav saved game, or 'demo')")
    from .posfile import load

    return load(p)
