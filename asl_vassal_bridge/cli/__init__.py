"""``asl-fire``: the command line.

Each command group lives in its own module with a ``register(subparsers)``
function; :func:`main` wires them up and turns bad input into a one-line
error instead of a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence

from ..core.errors import BadInput

#: Command modules, in the order their commands appear in ``--help``.
COMMAND_MODULES = ("fire", "forecast", "vasl", "bridge", "install", "hob", "attacks")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="asl-fire",
        description="ASL fire rules (B25) for VASL: odds, upkeep, forecasts, and a live VASSAL bridge.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        if importlib.util.find_spec(f"{__name__}.{name}") is None:
            continue
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``asl-fire``; returns the exit status (0 ok, 2 bad input, 1 other failure)."""
    parser = build_parser()
    args = parser.parse_args(argv)
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
