"""``asl-fire forecast``: the chance each Location is burning after N Player Turns (B25.151, B25.6–.66).

    asl-fire forecast demo --turns 4 --trials 20000 --seed 1 --png heat.png
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TYPE_CHECKING, TextIO

from ..core.errors import BadInput
from ..core.forecast import MAX_TRIALS, MAX_TURNS, Forecast, forecast
from .options import add_force, add_vasl_options, bounded_int, load_position_arg, say, seed

if TYPE_CHECKING:
    from ..core.position import Position
    from ..vasl.boardart import BoardArt

__all__ = ["cmd_forecast", "register"]


class ProgressBar:
    """A one-line progress bar on a terminal (nothing when *stream* is not a terminal)."""

    def __init__(self, stream: TextIO, label: str, width: int = 30) -> None:
        self.stream = stream
        self.label = label
        self.width = width
        self.on = stream.isatty()
        self.start = time.perf_counter()
        self.last = -1

    def __call__(self, fraction: float) -> None:
        if not self.on:
            return
        filled = round(fraction * self.width)
        if filled == self.last and fraction < 1:
            return
        self.last = filled
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {fraction:4.0%} {time.perf_counter() - self.start:5.1f}s")
        if fraction >= 1:
            self.stream.write("\n")
        self.stream.flush()


def _table(fc: Forecast, limit: int) -> str:
    pos = fc.position
    rows = sorted(((p, s, loc) for loc, (p, s) in fc.as_dict().items()), key=lambda r: (-r[0], r[2]))
    lines = [f"{pos.name or 'position'}: chance each Location is burning (Flame or Blaze) after {fc.turns} "
             f"Player Turn{'s' if fc.turns != 1 else ''}",
             f"{fc.trials} trajectories, seed {fc.seed} (--seed {fc.seed} repeats them); ± is one standard error "
             "(B25.151, B25.6–.66)",
             f"{'Location':<12} {'terrain':<20} {'burning':>8} {'± se':>7} {'Blaze':>7}"]
    blaze = dict(zip(fc.locations, fc.blaze, strict=True))
    for p, s, loc in rows[:limit]:
        terrain = pos.map.terrain_at(loc).label
        lines.append(f"{pos.loc_name(loc):<12} {terrain:<20} {p:8.1%} {s:7.1%} {blaze[loc]:7.1%}")
    if len(rows) > limit:
        lines.append(f"… {len(rows) - limit} more Locations with a chance above 0 (use --top or --json)")
    if not rows:
        lines.append("nothing burns")
    return "\n".join(lines)


def cmd_forecast(args: argparse.Namespace) -> int:
    """Run the forecast and print it as a table or JSON; optionally draw a heat map PNG."""

    pos = load_position_arg(args)
    if args.png:  # before the forecast: a map too large to draw is refused before any trial is run
        from ..render import check_picture_size

        check_picture_size(pos, f"--png {args.png}")
    if args.seed is None:  # a fresh seed, printed, so that the player can repeat the forecast
        import secrets

        args.seed = secrets.randbelow(2**32)
    bar = ProgressBar(sys.stderr, f"forecast {args.turns} turns × {args.trials}")
    processes: int | None = args.processes
    if processes is not None and processes < 0:  # auto: every core once there is enough work to share
        processes = None if args.trials >= 4 * 1024 and (os.cpu_count() or 1) > 1 else 1
    elif processes == 0:
        processes = None
    fc = forecast(pos, args.turns, args.trials, args.seed, processes=processes, progress=bar)
    if args.png:
        from pathlib import Path

        from .._outputs import replacing
        from ..render import render_png

        heat = {loc: p for loc, (p, _) in fc.as_dict().items()}
        art, pictures = _board_art(args, pos), _unit_pictures(args, pos)
        with replacing(Path(args.png)) as tmp:  # the old picture stays until the new one is complete
            render_png(pos, tmp, heat=heat, art=art, pictures=pictures,
                       title=f"{pos.name or 'position'}: burning after {fc.turns} Player Turns ({fc.trials} trials)")
    if args.json:
        json.dump(fc.to_json() | {"position": pos.name}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(_table(fc, args.top))
        if args.png:
            print(f"heat map written to {args.png}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``forecast`` to the ``asl-fire`` command."""
    p = sub.add_parser("forecast", help="Monte Carlo forecast: chance each Location burns after N Player Turns",
                       description="Chance each Location holds a Flame or Blaze after N Player Turns (RPh wind "
                                   "change, Gusts, Collapse, then end-of-AFPh Flame→Blaze and Spreading Fire), "
                                   "with standard errors.")
    p.add_argument("position", metavar="POSITION", help="a .toml position file, a .vsav (with --boards), or 'demo'")
    add_vasl_options(p)
    p.add_argument("--turns", type=bounded_int(0, MAX_TURNS, "Player Turns"), default=4,
                   help=f"Player Turns to play, 0 to {MAX_TURNS} (default 4)")
    p.add_argument("--trials", type=bounded_int(1, MAX_TRIALS, "trajectories"), default=10_000,
                   help=f"trajectories, 1 to {MAX_TRIALS:,} (default 10000)")
    p.add_argument("--seed", type=seed, default=None, help="seed (0 to 2**64-1) for a reproducible forecast; "
                   "default: a fresh one, printed with the table")
    p.add_argument("--processes", type=bounded_int(-1, 256, "processes"), default=-1,
                   help="worker processes (0 = every local core; default: every core from 4096 trials on, else 1); "
                        "the result does not depend on it")
    p.add_argument("--png", metavar="FILE", help="also draw a heat map of the chances")
    add_force(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--top", type=bounded_int(0, 1_000_000, "rows"), default=40, help="rows in the table (default 40)")
    p.set_defaults(func=cmd_forecast)


def _board_art(args: argparse.Namespace, pos: Position) -> tuple[BoardArt, ...]:
    """VASL's board pictures for a .vsav's map (cropped and reversed as placed), as the widget draws them; none
    for a position file, or (said on stderr) when an archive cannot be read."""
    from ..loading import is_saved_game_name

    if not is_saved_game_name(args.position) or not pos.map.layout.boards:
        return ()
    from ..vasl.boardart import map_board_art
    from ..vasl.setup import resolve_vasl
    from ..vasl.vsav import read_vsav

    try:
        setup = resolve_vasl(getattr(args, "vasl", None), getattr(args, "boards", None))
        assert setup.boards is not None
        crops = tuple(b.crop for b in read_vsav(args.position).boards)
        return tuple(map_board_art(pos.map.layout.boards, setup.boards, crops))
    except BadInput as e:
        say(f"board art: {e} (terrain tints instead)")
        return ()


def _unit_pictures(args: argparse.Namespace, pos: Position) -> dict[str, bytes]:
    """VASL's own pictures of a .vsav's units, out of its module (the units' own images, else their module slot's);
    none for a position file or without a module, or (said on stderr) when the module cannot be read."""
    from ..loading import is_saved_game_name

    if not is_saved_game_name(args.position) or not pos.units:
        return {}
    from ..render import unit_pictures
    from ..vasl.setup import resolve_vasl
    from ..vasl.units import piece_dict
    from ..vasl.vsav import read_vsav

    try:
        setup = resolve_vasl(getattr(args, "vasl", None), getattr(args, "boards", None))
        if setup.module is None:
            return {}
        return unit_pictures(pos, {p.id: piece_dict(p) for p in read_vsav(args.position).pieces}, setup.module)
    except BadInput as e:
        say(f"unit pictures: {e} (units in their side's colour instead)")
        return {}
