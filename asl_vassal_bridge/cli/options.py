"""Options several ``asl-fire`` commands share: where VASL's boards and module are."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from ..core.position import Position
    from ..vasl.setup import VaslSetup

__all__ = ["add_vasl_options", "load_position_arg", "tell_notes", "vasl_setup"]

BOARDS_HELP = ("folder of VASL's board archives (bd01 …), for a .vsav; default: VASL's Board Directory "
               "preference in VASSAL's preferences")
VASL_HELP = ("VASL's module (PATH/VASL.vmod), for VASL's terrain types (its boardData/SharedBoardMetadata.xml); "
             "default: a SharedBoardMetadata.xml beside the boards, else the VASL module VASSAL's module manager "
             "lists")


def _path(text: str) -> Path:
    """A path option's value (pathlib is imported only when the option is given: it costs ~5 ms at start)."""
    from pathlib import Path

    return Path(text)


def add_vasl_options(p: argparse.ArgumentParser, boards: bool = True) -> None:
    """``--boards DIR`` and ``--vasl PATH/VASL.vmod``."""
    if boards:
        p.add_argument("--boards", type=_path, metavar="DIR", help=BOARDS_HELP)
    p.add_argument("--vasl", type=_path, metavar="VMOD", help=VASL_HELP)


def say(line: str) -> None:
    """Tell the player (on stderr, so that --json output stays clean) which VASL files a command used."""
    print(f"asl-fire: using {line}", file=sys.stderr)


def vasl_setup(args: argparse.Namespace, need_boards: bool = True) -> VaslSetup:
    """The VASL module and boards folder of the command line or VASSAL's preferences, said on stderr."""
    from ..vasl.setup import resolve_vasl

    setup = resolve_vasl(getattr(args, "vasl", None), getattr(args, "boards", None), need_boards=need_boards)
    for note in setup.notes:
        say(note)
    return setup


def load_position_arg(args: argparse.Namespace) -> Position:
    """The POSITION argument: a position file, ``demo``, or a ``.vsav`` read with the VASL boards and module."""
    from ..loading import load_position

    pos = load_position(args.position, getattr(args, "boards", None), getattr(args, "vasl", None), note=say)
    if str(args.position).lower().endswith(".vsav"):
        tell_notes(pos.notes)
    return pos


def tell_notes(notes: str | Iterable[str]) -> None:
    """Tell the player, one line each on stderr, what the terrain read from a saved game's boards applied and what
    not (overlays, SSR tokens VASL cannot apply)."""
    for line in (notes.splitlines() if isinstance(notes, str) else notes):
        if line.strip():
            print(f"asl-fire: {line}", file=sys.stderr)
