"""``asl-fire``: the command line.

Each command group lives in its own module with a ``register(subparsers)``
function; :func:`main` wires them up and turns bad input into a one-line
error instead of a traceback.

Players call ``asl-fire odds`` mid-game, so starting is kept cheap: :data:`COMMANDS`
names every command's module and one-line help, and :func:`main` imports only
the module of the command given (``asl-fire --help`` imports none).
``tests/test_cli_startup.py`` checks that the table says what the modules register.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

#: Command modules, in the order their commands appear in ``--help``.
COMMAND_MODULES = ("fire", "forecast", "vasl", "bridge", "install", "hob", "attacks")

#: Every command: (name, module, the one-line help its module registers).
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("demo", "fire", "run several Player Turns of fire on the embedded demo scenario"),
    ("odds", "fire", "the fire rolls pending from the position's clock on (RPh wind change, AFPh), with exact odds"),
    ("setup", "fire", "roll the scenario-start EC and wind the position leaves unsaid (B25.5, B25.63, B25.64)"),
    ("upkeep", "fire", "apply one phase's fire upkeep (rph, afph or rtph)"),
    ("kindle", "fire", "a Kindling attempt (B25.11) in the PFPh"),
    ("clear", "fire", "a Clearance attempt vs a Flame (B24.7)"),
    ("forecast", "forecast", "Monte Carlo forecast: chance each Location burns after N Player Turns"),
    ("module", "vasl", "list a VASL module's fire counters (gpids, palette paths)"),
    ("board", "vasl", "decode a VASL board archive's terrain per hex"),
    ("vsav", "vasl", "list a VASL saved game's boards and the pieces both players see"),
    ("bridge", "bridge", "connect to VASSAL's ASL fire bridge extension and serve its buttons"),
    ("build-extension", "bridge", "build the VASSAL extension (.vmdx) of the live bridge"),
    ("install", "install", "install the live bridge's VASSAL extension for VASL (no JDK needed)"),
    ("hob", "hob", "Heat of Battle (A15): DRM, exact odds and the result for one unit"),
    ("ft", "attacks", "a Flamethrower attack: legality, FP, DRMs, consequences (A22.1-.5)"),
    ("mol", "attacks", "a Molotov Cocktail attack: legality, MOL Check chance, FP, DRMs, consequences (A22.6-.62)"),
    ("he", "attacks", "an HE/HEAT (or DC) attack's fire start (B25.13; huts: colored dr 1)"),
    ("wp", "attacks", "the WP fire DR in the placing player's MPh (A24.32)"),
    ("hut", "attacks", "a hut Location's fire start after an attack vs it (huts)"),
    ("enter", "attacks", "may Infantry enter a Location: Blaze (B25.4), Scaling (B23.424), Fortified Building "
     "(B23.922)"),
    ("breach", "attacks", "a Breach attempt on a Rowhouse black bar or a Fortified Building hexside (B23.711, "
     "B23.9221)"),
    ("afv-enter", "attacks", "an AFV entering a building hex: rubble and cellar (B23.41)"),
    ("tem", "attacks", "the TEM of a Location (B23 buildings: stone, wooden, Fortified, rooftop, Factory)"),
)

DESCRIPTION = "ASL fire rules (B25) for VASL: odds, upkeep, forecasts, and a live VASSAL bridge."


class UsageError(SystemExit):
    """A command line argparse refused; its one line is already printed (exit status 2)."""


class Parser(argparse.ArgumentParser):
    """argparse, with its errors as ONE line naming the option and what was expected (no usage block).

    >>> Parser(prog="asl-fire x").format_usage().startswith("usage: asl-fire x")
    True
    """

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise UsageError(2)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``asl-fire`` parser: every command module registered, or only module *only*.

    ``only=""`` registers none: every command is a stub with its one-line help, for ``asl-fire --help``
    and for naming the commands when the one given is unknown.
    """
    from .. import __version__

    parser = Parser(prog="asl-fire", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"asl-fire {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    done: set[str] = set()
    for name, module, help_text in COMMANDS:
        if only is None or module == only:
            if module not in done:
                importlib.import_module(f"{__name__}.{module}").register(sub)
                done.add(module)
        elif not only:
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def _command_module(argv: Sequence[str]) -> str | None:
    """The module of the command in *argv* (its first word that is not an option), if it names one."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return next((module for name, module, _ in COMMANDS if name == word), None)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``asl-fire``; returns the exit status (0 ok, 2 bad input, 1 other failure)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    module = _command_module(argv)
    parser = build_parser(only=module or "")
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        return int(e.code or 2)
    from ..core.errors import BadInput

    try:
        result = args.func(args)
    except BrokenPipeError:
        # The reader (e.g. ``| head``) went away: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except BadInput as e:
        print(f"asl-fire {args.command}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        where = f": {e.filename}" if e.filename else ""
        print(f"asl-fire {args.command}: {e.strerror or e}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("asl-fire: interrupted", file=sys.stderr)
        return 130
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
