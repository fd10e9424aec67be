"""``asl-fire module`` and ``asl-fire board``: look inside VASL's own files.

``module VMOD_OR_BUILDFILE`` lists the fire counters of a module with their
gpids and palette paths; ``board BOARD_ARCHIVE`` prints the decoded terrain
of every hex (``--json`` for machines, ``--png FILE`` for a picture of the
decoded terrain beside the board image).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``module`` and ``board`` commands."""
    p = sub.add_parser("module", help="list a VASL module's fire counters (gpids, palette paths)",
                       description="List the fire-related counters (Flame, Blaze, EC, Wind…) of a VASL module "
                                   "(.vmod/.vmdx or a bare buildFile.xml) with their gpids and palette paths.")
    p.add_argument("module", type=Path, metavar="VMOD_OR_BUILDFILE")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--all-wrecks", action="store_true", help="also list every per-vehicle '… Wreck' slot")
    p.set_defaults(func=cmd_module)

    b = sub.add_parser("board", help="decode a VASL board archive's terrain per hex",
                       description="Decode a VASL board archive (e.g. bd01): BoardMetadata and LOSData → the "
                                   "terrain, elevation and building of every hex.")
    b.add_argument("board", type=Path, metavar="BOARD_ARCHIVE")
    b.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b.add_argument("--png", type=Path, metavar="FILE", help="write a picture of the decoded terrain beside the "
                                                            "board image")
    b.set_defaults(func=cmd_board)


def cmd_module(args: argparse.Namespace) -> int:
    from ..vasl.counters import FireCounter
    from ..vasl.module import read_module

    idx = read_module(args.module)
    rows = []
    wrecks = 0
    for kind, slot in idx.fire_slots():
        if kind is FireCounter.WRECK and slot.name.endswith(" Wreck") and not args.all_wrecks:
            wrecks += 1
            continue
        rows.append({"counter": kind.value, "gpid": slot.gpid, "name": slot.name, "palette": slot.palette})
    if args.json:
        json.dump({"module": idx.name, "version": idx.version, "vassal_version": idx.vassal_version,
                   "slots": len(idx.slots), "prototypes": len(idx.prototypes), "fire_counters": rows,
                   "vehicle_wrecks_not_listed": wrecks}, sys.stdout, indent=2)
        print()
        return 0
    print(f"{idx.name or '(unnamed)'} {idx.version} (VASSAL {idx.vassal_version or '?'}): "
          f"{len(idx.slots)} PieceSlots, {len(idx.prototypes)} PrototypeDefinitions")
    w = max([len(r["name"]) for r in rows] + [4])
    print(f"{'counter':<16} {'gpid':>6}  {'name':<{w}}  palette")
    for r in rows:
        print(f"{r['counter']:<16} {r['gpid']:>6}  {r['name']:<{w}}  {r['palette']}")
    if wrecks:
        print(f"(+ {wrecks} per-vehicle '… Wreck' slots; --all-wrecks lists them)")
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    from ..vasl.board import read_board, render_png

    board = read_board(args.board)
    if args.png is not None:
        render_png(board, args.png)
    if args.json:
        out: dict[str, Any] = board.summary()
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        for line in board.summary_lines():
            print(line)
    if args.png is not None:
        print(f"wrote {args.png}", file=sys.stderr)
    return 0
