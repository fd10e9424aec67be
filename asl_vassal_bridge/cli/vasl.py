"""``asl-fire module``, ``asl-fire board``, ``asl-fire vsav``: look inside VASL's own files.

``module VMOD_OR_BUILDFILE`` lists the fire counters of a module with their
gpids and palette paths; ``board BOARD_ARCHIVE`` prints the decoded terrain
of every hex (``--json`` for machines, ``--png FILE`` for a picture of the
board as every picture of the project draws a map, ``--ssr RULES`` with SSR terrain
changes applied as VASL does, ``--overlay NAME:HEX1[:HEX2]`` with overlays
applied as VASL 6.7.x applies them); ``vsav GAME`` lists a saved game's
boards and the pieces both players see (``--boards DIR`` adds hexes, and the
terrain of the hexes under each overlay, applied as VASL 6.7.x applies it).
What was not applied (an overlay, an SSR token VASL cannot apply) is said on
stderr, one line each.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..core.errors import BadInput
from .options import add_force, add_vasl_options, check_outputs, tell_notes, vasl_setup

__all__ = ["register"]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``module``, ``board`` and ``vsav`` commands."""
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
    b.add_argument("board", type=Path, metavar="BOARD_ARCHIVE",
                   help="a board archive file, or a board's name (bd01) in VASL's boards folder")
    b.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b.add_argument("--png", type=Path, metavar="FILE", help="write a picture of the board as the widget and the "
                                                            "other pictures draw a map (board art, hex names, "
                                                            "buildings)")
    b.add_argument("--terrain", type=Path, action="append", metavar="SHARED_METADATA",
                   help="VASL's SharedBoardMetadata.xml (repeat for additions); default: the one in --vasl's "
                        "module, else beside the archive or in its parent folder, else $ASL_FIRE_SHARED_METADATA, "
                        "else in the VASL module VASSAL's module manager lists")
    b.add_argument("--ssr", metavar="RULES", default="",
                   help="SSR terrain changes as VASL's board picker names them (e.g. 'NoGrain LightWoods'), applied "
                        "as VASL's LOS model applies them")
    b.add_argument("--overlay", action="append", default=[], metavar="NAME:HEX1[:HEX2]",
                   help="an overlay placed as VASL's board picker places it (e.g. x1:E5, wd1:E5:E6; repeat for "
                        "more), applied as VASL 6.7.x applies it; its archive (ovrX …) is looked up in overlays/ "
                        "beside the board archive, then in the boards folder's overlays/")
    add_vasl_options(b)
    add_force(b)
    b.set_defaults(func=cmd_board)

    v = sub.add_parser("vsav", help="list a VASL saved game's boards and the pieces both players see",
                       description="Read a VASL saved game (.vsav): its boards and every piece VASSAL shows to both "
                                   "players (hidden and concealed pieces are never listed), with hexes when "
                                   "--boards names the board archives' folder.")
    v.add_argument("game", type=Path, metavar="GAME.vsav")
    add_vasl_options(v)
    v.add_argument("--json", action="store_true", help="print JSON instead of a table")
    v.set_defaults(func=cmd_vsav)


def cmd_vsav(args: argparse.Namespace) -> int:
    from ..vasl.board import read_board
    from ..vasl.position import find_archive, locate_pieces
    from ..vasl.vsav import read_vsav

    given = args.boards is not None or args.vasl is not None
    setup = vasl_setup(args, need_boards=False) if given else None
    game = read_vsav(args.game)
    located = None
    if setup is None and game.boards:
        setup = vasl_setup(args, need_boards=False)
    overlay_rows: dict[int, list[dict[str, Any]]] = {}
    if setup is not None and setup.boards is not None:
        from ..vasl.overlay import OverlayError, apply_overlays, covered_hexes, entry_notes, overlay_dirs
        from ..vasl.ssr import apply_ssr

        table = setup.terrain_table()
        boards = []
        notes: list[str] = []
        dirs = overlay_dirs(setup.boards)
        for i, entry in enumerate(game.boards):
            board = apply_ssr(read_board(find_archive(setup.boards, entry), table), entry.ssr).board
            try:
                result = apply_overlays(board, entry.overlays, dirs, reversed_=entry.reversed, crop=entry.crop,
                                        ssr=entry.ssr)
            except OverlayError as e:  # an overlay the saved game places where VASL could not: name the game
                raise OverlayError(f"{args.game}: {e}") from None
            boards.append((result.board, entry.placement()))
            notes += entry_notes(entry, table, dirs)
            for o in result.applied:
                hexes = [result.board.hexes[n] for n in covered_hexes(result.board, o)]
                overlay_rows.setdefault(i, []).append({
                    "name": o.name, "hex1": o.hex1, "hex2": o.hex2, "orientation": o.orientation,
                    "hexes": [{"hex": h.name, "terrain": h.terrain.name, "elevation": h.elevation} for h in hexes]})
        tell_notes(notes)
        located = {pp.piece.id: pp for pp in locate_pieces(game, boards)}
    rows = []
    for p in game.pieces:
        pp = located.get(p.id) if located else None
        kind = p.fire_counter
        rows.append({"id": p.id, "gpid": p.gpid, "name": p.name, "map": p.map, "x": p.x, "y": p.y,
                     "hex": pp.hex if pp else None, "level": pp.level if pp else None,
                     "fire_counter": kind.value if kind else None})
    boards_out = [{"x": b.x, "y": b.y, "name": b.name, "reversed": b.reversed, "crop": b.crop,
                   "version": b.version, "overlays": [o.as_dict() for o in b.overlays], "ssr": b.ssr,
                   "overlays_applied": overlay_rows.get(i, [])}
                  for i, b in enumerate(game.boards)]
    if args.json:
        json.dump({"game": str(args.game), "module_version": game.module_version, "boards": boards_out,
                   "pieces": rows}, sys.stdout, indent=1)
        print()
        return 0
    print(f"{args.game}: VASL {game.module_version or '?'}, {len(game.boards)} board(s), {len(rows)} pieces both "
          "players see (hidden and concealed ones are neither listed nor counted)")
    for b in boards_out:
        print(f"  board {b['name']} at ({b['x']}, {b['y']}){' reversed' if b['reversed'] else ''}"
              f"{' cropped' if b['crop'] else ''}{' SSR ' + str(b['ssr']) if b['ssr'] else ''}")
        for ov in overlay_rows.get(boards_out.index(b), []):
            where = ", ".join(f"{h['hex']} {h['terrain']} level {h['elevation']}" for h in ov["hexes"])
            hexes = ov["hex1"] + ("-" + ov["hex2"] if ov["hex2"] != ov["hex1"] else "")
            print(f"    overlay {ov['name']} ({hexes}) applied as VASL 6.7.x applies it: "
                  f"{where or 'no hex centre under it'}")
    for r in rows:
        if r["hex"]:
            where = f"{r['hex']}" + (f".{r['level']}" if r["level"] else "")
        else:
            where = f"{r['map']} ({r['x']}, {r['y']})"
        fire = f"  [{r['fire_counter']}]" if r["fire_counter"] else ""
        print(f"  {r['id']:>14} gpid {r['gpid']:>10}  {where:<16} {r['name']}{fire}")
    return 0


def _board_png(board: Any, path: Path, overlays: list[Any], out: Path) -> None:
    """The board as every picture of the project draws a map (:mod:`asl_vassal_bridge.render`): VASL's board art
    (with its overlays) under the hex grid, hex names, building badges, a legend; terrain tints where the
    archive has no picture (said on stderr)."""
    from ..core.hexes import BoardPlacement
    from ..core.position import Position
    from ..render import check_picture_size, render_png
    from ..vasl.board import game_map
    from ..vasl.boardart import board_art
    from ..vasl.safe import BadArchiveError

    placement = BoardPlacement(board.name or path.name.removeprefix("bd"))
    pos = Position(game_map([(board, placement)], name=path.name))
    check_picture_size(pos, f"--png {out}")
    try:
        art = [board_art(path, placement, None, overlays)]
    except BadArchiveError as e:  # no picture in the archive: the decoded terrain in tints
        print(f"board art: {e} (terrain tints instead)", file=sys.stderr)
        art = []
    extra = f", overlays {', '.join(o.name for o in overlays)}" if overlays else ""
    from .._outputs import replacing

    with replacing(out) as tmp:  # the old picture stays until the new one is complete
        render_png(pos, tmp, art=art, title=f"board {placement.name} ({path.name}{extra})")


def _overlay_arg(text: str) -> Any:
    """``NAME:HEX1[:HEX2[:true]]`` → a BoardOverlay (the last token: elevation preserved)."""
    from ..vasl.vsav import BoardOverlay

    parts = [t.strip() for t in text.split(":")]
    keep = False
    if len(parts) in (3, 4) and parts[-1].lower() in ("true", "false"):
        keep = parts.pop().lower() == "true"
    if len(parts) not in (2, 3) or not all(parts):
        raise BadInput(f"--overlay {text!r}: expected NAME:HEX1 or NAME:HEX1:HEX2 (e.g. x1:E5, wd1:E5:E6), with "
                       ":true at the end to preserve the board's elevation")
    return BoardOverlay(parts[0], parts[1].upper(), (parts[2] if len(parts) == 3 else parts[1]).upper(), keep)


def _overlay_on(board: Any, text: str) -> Any:
    """``--overlay`` TEXT for *board*: both its hexes must be hexes of the board."""
    from ..core.hexes import HexNameError

    overlay = _overlay_arg(text)
    for h in dict.fromkeys((overlay.hex1, overlay.hex2)):
        try:
            board.geometry.parse(h)
        except HexNameError as e:
            raise BadInput(f"--overlay {text[:60]!r}: {e} (board {board.name or '?'}; expected NAME:HEX1[:HEX2] with "
                           "hexes of the board, e.g. x1:E5)") from None
    return overlay


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
    from ..vasl.board import find_shared_metadata, read_board
    from ..vasl.terrain import read_terrain_types

    path: Path = args.board
    check_outputs(args)
    setup = None
    if not path.exists() and len(path.parts) == 1:
        setup = vasl_setup(args, need_boards=True)
        assert setup.boards is not None
        path = setup.boards / path.name
        if not path.is_file():
            raise BadInput(f"{args.board}: no such board archive in {setup.boards} (expected e.g. bd01)")
    elif not path.is_file():
        raise BadInput(f"{path}: no such file (expected a VASL board archive, e.g. .../boards/bd01)")
    if path != args.board:  # the archive found in the boards folder is an input too
        from .._outputs import PNG, check_output

        check_output(args.png, "--png", PNG, inputs=[path], force=args.force)
    terrain = getattr(args, "terrain", None)
    table = None
    if terrain:
        table = read_terrain_types(*terrain)
    elif getattr(args, "vasl", None) is not None or not find_shared_metadata(path.parent):
        if setup is None:  # said once: the boards folder's lookup above already named the module
            setup = vasl_setup(args, need_boards=False)
        if setup.module is None and not (setup.boards and find_shared_metadata(setup.boards)):
            raise BadInput(f"{path}: VASL's terrain types are needed: give --vasl PATH/VASL.vmod (or --terrain "
                           "SharedBoardMetadata.xml); none beside the archive, and VASSAL's preferences list no "
                           "VASL module")
        table = setup.terrain_table()
    board = read_board(path, table)
    ssr = getattr(args, "ssr", "")
    overlays = [_overlay_on(board, text) for text in getattr(args, "overlay", None) or ()]
    if ssr or overlays:
        from ..vasl.overlay import apply_overlays, entry_notes, overlay_dirs
        from ..vasl.ssr import apply_ssr
        from ..vasl.vsav import BoardEntry

        board = apply_ssr(board, ssr).board
        dirs = (path.parent / "overlays", *(overlay_dirs(args.boards) if getattr(args, "boards", None) else ()),
                path.parent)
        entry = BoardEntry(0, 0, board.name or path.name, overlays=tuple(overlays), ssr=ssr)
        board = apply_overlays(board, overlays, dirs, ssr=ssr).board
        tell_notes(entry_notes(entry, board.table, dirs))
    if args.png is not None:
        _board_png(board, path, overlays, args.png)
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
