"""``asl-fire install``: the bridge extension into ``VASL_ext/`` beside the player's VASL module."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``install``."""
    p = sub.add_parser("install", help="install the live bridge's VASSAL extension for VASL (no JDK needed)",
                       description="Find your VASL module (VASSAL's module manager list) and VASSAL installation, "
                                   "check the extension links with that VASSAL, and copy it into VASL_ext/ beside "
                                   "the module. Prints what it did and how to undo it.")
    p.add_argument("--vasl", type=Path, metavar="VMOD", help="VASL's module file (default: the VASL*.vmod VASSAL's "
                   "module manager lists)")
    p.add_argument("--vassal", type=Path, metavar="DIR_OR_JAR", help="the VASSAL installation folder or its "
                   "Vengine.jar (default: the newest installation found)")
    p.add_argument("--build", action="store_true", help="compile the extension against your VASSAL's jar instead "
                   "of installing the prebuilt one (needs a JDK)")
    p.add_argument("--no-check", action="store_true", help="install even when no VASSAL is found to check the "
                   "extension's linkage against (default: refuse, exit status 2)")
    p.add_argument("--remove", action="store_true", help="undo: delete the installed extension")
    p.add_argument("--force", action="store_true", help="replace (or with --remove delete) a VASL_ext/"
                   "asl-fire-bridge.vmdx that is not this package's extension (default: refuse, exit status 2)")
    p.set_defaults(func=cmd_install)


def cmd_install(args: argparse.Namespace) -> int:
    from ..bridge.install import install_extension, remove_extension

    if args.remove:
        report = remove_extension(vasl=args.vasl, force=args.force)
    else:
        report = install_extension(vasl=args.vasl, vassal=args.vassal, build=args.build, check=not args.no_check,
                                   force=args.force)
    for line in report.lines:
        print(line)
    return 0
