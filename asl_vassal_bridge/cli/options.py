"""Options several ``asl-fire`` commands share: where VASL's boards and module are."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from ..core.position import Position
    from ..vasl.setup import VaslSetup

__all__ = ["LEADER_DRM", "TARGET_FT", "add_force", "add_vasl_options", "bounded_int", "check_dice_used",
           "check_outputs", "die_faces", "extra_drm", "ift_result", "input_files", "load_position_arg", "seed",
           "tell_notes", "vasl_setup"]

BOARDS_HELP = ("folder of VASL's board archives (bd01 …), for a .vsav; default: VASL's Board Directory "
               "preference in VASSAL's preferences")
VASL_HELP = ("VASL's module (PATH/VASL.vmod), for VASL's terrain types (its boardData/SharedBoardMetadata.xml); "
             "default: a SharedBoardMetadata.xml beside the boards, else the VASL module VASSAL's module manager "
             "lists")


def _path(text: str) -> Path:
    """A path option's value (pathlib is imported only when the option is given: it costs ~5 ms at start)."""
    from pathlib import Path

    return Path(text)


def bounded_int(lo: int, hi: int, what: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from *lo* to *hi* (*what* names the unit in the message).

    >>> bounded_int(1, 50, "Player Turns")("4")
    4
    """

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not lo <= n <= hi:
            unit = f" {what}" if what else ""
            raise argparse.ArgumentTypeError(f"{n}: expected {lo:,} to {hi:,}{unit}")
        return n

    return parse


def seed(text: str) -> int:
    """An argparse type: a dice or forecast seed, the one rule for every command (0 to 2**64 − 1)."""
    from ..core.dice import MAX_SEED

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= n <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{n}: a seed is a whole number from 0 to {MAX_SEED}")
    return n


def bounded_float(lo: float, hi: float, what: str = "") -> Callable[[str], float]:
    """An argparse type: a number from *lo* to *hi*, not NaN."""

    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not lo <= x <= hi:  # also refuses nan
            unit = f" {what}" if what else ""
            raise argparse.ArgumentTypeError(f"{text}: expected {lo:g} to {hi:g}{unit}")
        return x

    return parse


#: A directing leader's modifier: ASL's leaders run from −3 (10-3) to +1 (6+1); a little room either side.
LEADER_DRM = bounded_int(-4, 4, "(a leader's modifier, e.g. -1 for an 8-1)")


# The attack options' bounds (``asl-fire ft|mol`` and ``asl-fire bridge attack``): the rules' own ranges with
# room to spare, so that a typo (``--basic-tk -5``, ``--tem 1000``) is refused instead of reckoned with.
HINDRANCE_DRM = bounded_int(0, 12, "(a LOS Hindrance DRM)")
TEM = bounded_int(-2, 10, "(a TEM)")
BASIC_TK = bounded_int(1, 40, "(a Basic TK#, C7.34)")
TK_MODS = bounded_int(-10, 10, "(TK# modifications)")
HALVINGS = bounded_int(0, 5, "halvings")
FG_UNITS = bounded_int(1, 20, "units")
RANGE = bounded_int(0, 99, "hexes")
LEVELS = bounded_int(-99, 99, "levels")
GROUP_FP = bounded_float(0, 200, "FP")
#: FT a target Personnel unit possesses (A22.4: −1 per FT to the IFT DR vs it); a stack holds a few at most.
TARGET_FT = bounded_int(0, 10, "FT (possessed by the target's units, A22.4)")
#: The most an extra IFT DRM given by hand may be: the IFT's own DRMs run far inside it.
MAX_EXTRA_DRM = 20


def extra_drm(text: str) -> tuple[int, str]:
    """``--drm VALUE[:REASON]`` → (value, reason), the value a whole number from −20 to +20, else :class:`BadInput`.

    >>> extra_drm("-1:FFNAM"), extra_drm("+2")
    ((-1, 'FFNAM'), (2, 'given'))
    """
    from ..core.errors import BadInput

    value, _, reason = text.partition(":")
    try:
        v = int(value)
    except ValueError:
        raise BadInput(f"--drm {text[:40]!r}: expected VALUE[:REASON], e.g. -1:FFNAM") from None
    if not -MAX_EXTRA_DRM <= v <= MAX_EXTRA_DRM:
        raise BadInput(f"--drm {text[:40]!r}: expected a DRM from -{MAX_EXTRA_DRM} to +{MAX_EXTRA_DRM}, e.g. -1:FFNAM")
    return v, reason[:80] or "given"


def unit_fp(text: str) -> float:
    """An argparse type: a unit's own FP, more than 0 and at most 30 (``3`` for a 3-3-7)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < x <= 30:
        raise argparse.ArgumentTypeError(f"{text}: expected a unit's own FP, more than 0 and at most 30 (e.g. 3 for "
                                         "a 3-3-7)")
    return x


_FACES = frozenset("123456")


def die_faces(text: str, option: str = "--dice") -> list[int]:
    """Die faces 1–6 separated by commas (``3,4,6``), at least one, else :class:`BadInput` naming *option*.

    >>> die_faces("3, 4,6")
    [3, 4, 6]
    """
    from ..core.errors import BadInput

    parts = [x for x in text.replace(" ", "").split(",") if x]
    if not parts:
        raise BadInput(f"{option} {text!r}: no die faces; expected faces 1 to 6 separated by commas, e.g. 3,4")
    if len(parts) > 1000:
        raise BadInput(f"{option}: {len(parts):,} die faces; a command rolls far fewer (at most 1,000 are read)")
    for x in parts:
        if x not in _FACES:  # ASCII 1-6 only: "³".isdigit() holds but int("³") fails
            raise BadInput(f"{option}: {x[:20]!r} is not a die face; expected faces 1 to 6 separated by commas, "
                           "e.g. 3,4")
    return [int(x) for x in parts]


def check_dice_used(dice: object, option: str = "--dice") -> None:
    """Refuse dice given but not rolled: a player transcribing real dice must hear that the count is off.

    Call it after the rolls and before anything is printed or written, so nothing is half-applied.
    """
    from ..core.dice import ScriptedDice
    from ..core.errors import BadInput

    if isinstance(dice, ScriptedDice) and dice.remaining:
        used = len(dice.log)
        faces = sum(1 if r.is_dr else 2 for _, r in dice.log)
        rolls = ", ".join(f"{purpose}: {r}" for purpose, r in dice.log) or "none"
        raise BadInput(f"{option}: {faces + dice.remaining} die faces given but the command rolled {faces} "
                       f"({used} roll(s): {rolls}); give exactly the dice rolled, nothing was applied")


_IFT = re.compile(r"^(?:[1-9]?KIA|K/[1-9]|[1-9]MC|NMC|PTC|K|-|—)$")


def ift_result(text: str) -> str:
    """An argparse type: an IFT result as the table prints it (KIA, 2KIA, K/2, 1MC, NMC, PTC, or - for none).

    >>> ift_result("k/2")
    'K/2'
    """
    t = text.strip().upper()
    if not _IFT.match(t):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an IFT result; expected e.g. KIA, 2KIA, K/2, 1MC, "
                                         "NMC, PTC or - (no effect)")
    return t


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


def add_force(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--force``: replace an existing file of another kind where the command writes (never one of its inputs)."""
    p.add_argument("--force", action="store_true", help="replace an existing file that is not of the kind written "
                   "(without it such a file is kept and the command refused); an input is never replaced")


def input_files(args: argparse.Namespace) -> list[Path | str | None]:
    """The files a command reads, as given: its POSITION, board archive, saved game, module and terrain files, and
    the archives of the ``--boards`` folder (and its ``overlays/``) a saved game's boards are read from."""
    from pathlib import Path

    names = ("position", "board", "game", "module", "vasl", "vassal_jar")
    out: list[Path | str | None] = [getattr(args, n, None) for n in names]
    out += list(getattr(args, "terrain", None) or ())
    boards = getattr(args, "boards", None)
    for folder in (Path(boards), Path(boards) / "overlays") if boards is not None else ():
        with contextlib.suppress(OSError):
            out += [p for p in folder.iterdir() if p.is_file()]
    return out


def check_outputs(args: argparse.Namespace) -> None:
    """``-o`` (a position file) and ``--png`` checked before anything is read or computed: not empty, not a folder,
    not one of the inputs, not a file of another kind unless ``--force`` (:func:`~asl_vassal_bridge._outputs.
    check_output`)."""
    if getattr(args, "output", None) is None and getattr(args, "png", None) is None:
        return  # (and ``asl-fire odds`` starts without the checks' imports)
    from .._outputs import PNG, POSITION, check_output

    inputs = input_files(args)
    force = bool(getattr(args, "force", False))
    check_output(getattr(args, "output", None), "-o", POSITION, inputs=inputs, force=force)
    check_output(getattr(args, "png", None), "--png", PNG, inputs=inputs, force=force)


def load_position_arg(args: argparse.Namespace) -> Position:
    """The POSITION argument: a position file, ``demo``, or a ``.vsav`` read with the VASL boards and module.

    The command's outputs are checked first (:func:`check_outputs`), so nothing is read for a command that could
    not write."""
    from ..loading import is_saved_game_name, load_position

    check_outputs(args)
    pos = load_position(args.position, getattr(args, "boards", None), getattr(args, "vasl", None), note=say)
    if is_saved_game_name(args.position):
        tell_notes(pos.notes)
    return pos


def tell_notes(notes: str | Iterable[str]) -> None:
    """Tell the player, one line each on stderr, what the terrain read from a saved game's boards applied and what
    not (overlays, SSR tokens VASL cannot apply)."""
    for line in (notes.splitlines() if isinstance(notes, str) else notes):
        if line.strip():
            print(f"asl-fire: {line}", file=sys.stderr)
