"""Step 6 of a press: the chat report — the summary line, each roll's line (:mod:`.chat`), the events without a roll,
units in a Blaze (B25.4) and Fire & Victory notes; also the Fire odds listing (B25) and the Fire finder.

Lines starting ``*`` go to both players' chat inside the batch (one command); lines starting ``-`` are shown to
the pressing player only.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING

from ..core.exits import blaze_fates
from ..core.explain import Report
from ..core.position import Location, Phase, Position
from ..core.victory import fire_control
from .chat import automatic_flame_line, event_line, phase_summary
from .position import LiveGame

if TYPE_CHECKING:
    from ..core.fire import PendingRoll

__all__ = ["blaze_lines", "finder_lines", "odds_lines", "phase_lines", "roll_source", "victory_lines"]


def blaze_lines(pos: Position, live: LiveGame | None = None) -> list[str]:
    """One chat line per unit in a Blaze (B25.4): its Location first, the unit as its counter names it (its piece id
    only to tell two of the same name apart), its options and deadline."""
    fates = list(blaze_fates(pos))
    names = Counter((f.unit.location, f.unit.name) for f in fates)
    out = []
    for f in fates:
        u = f.unit
        twin = names[(u.location, u.name)] > 1 and live is not None and u.id in live.units
        piece = f" [{u.id}]" if twin else ""
        state = [s for s, on in (("broken", u.broken), ("pinned", u.is_pinned), ("berserk", u.berserk),
                                 ("CX", u.is_cx), ("in Melee", u.in_melee), ("Immobilized", u.immobilized)) if on]
        shown = f", {', '.join(state)}" if state else ""
        verdict = "eliminated now" if f.eliminated_now else f"deadline {f.deadline}"
        out.append(f"* {pos.loc_name(u.location)} Blaze: {u.name}{piece} ({u.side}{shown}): {verdict}; {f.options} "
                   "(B25.4)")
    return out


def victory_lines(pos: Position) -> list[str]:
    """Fire & Victory: each burning Location whose Control a side forfeits (fires it kindled deliberately)."""
    return [f"* {note.describe(pos)}" for note in fire_control(pos)]


def phase_lines(phase: Phase, key: str, report: Report, old: Position, new: Position,
                live: LiveGame) -> tuple[list[str], list[str]]:
    """The chat's first line, the summary of what changed (:func:`~.chat.phase_summary`), and the lines after the
    rolls: events without a roll and, after an upkeep, units in Blazes and Fire & Victory notes."""
    blazes = blaze_lines(new, live) if phase is Phase.AFPH else []
    header = [phase_summary(phase, key, report, old, new, len(blazes))]
    after = [event_line(e) for e in report.events if e.roll is None and e.kind != "flame"]
    # an automatic spread (Heavy Winds, Gusts) has no roll: its line says why
    after += [automatic_flame_line(e) for e in report.events if e.roll is None and e.kind == "flame"]
    if phase is Phase.AFPH:
        after += blazes + victory_lines(new)
    return header, after


def odds_lines(pos: Position) -> list[str]:
    """Every pending end-of-AFPh roll with its exact odds (B25), for this player's chat only."""
    from ..core.fire import pending_rolls

    rolls = pending_rolls(pos)
    if not rolls:
        return ["- ASL fire bridge: no fire rolls pending at the end of this AFPh"]
    out = [f"- ASL fire bridge: {len(rolls)} fire rolls pending at the end of the AFPh (B25):"]
    for r in rolls:
        what = "Flame→Blaze" if r.kind == "blaze" else f"Spreading Fire from {roll_source(pos, r)}"
        extra = f" ({r.reason})" if r.reason else ""
        out.append(f"-   {pos.loc_name(r.location)}: {what} {_pct(r.chance)}{extra}")
    several = Counter(r.location for r in rolls if r.kind == "blaze")
    for loc in sorted(loc for loc, n in several.items() if n > 1):
        out.append(f"-   {pos.loc_name(loc)} holds {len(pos.flames_at(loc))} Flames: each makes its own Flame→Blaze "
                   "DR until one becomes a Blaze, which removes them all (B25.15, B25.151)")
    return out


def roll_source(pos: Position, r: PendingRoll) -> str:
    """The fire a Spreading Fire comes from (B25.6): ``Blaze in C3``, ``Burning Wreck in G6``."""
    if r.check is not None and " from " in r.check.name:
        return r.check.name.rsplit(" from ", 1)[1]
    return f"the fire in {pos.loc_name(r.source)}" if r.source is not None else "a fire"


def _pct(chance: Fraction) -> str:
    return f"{float(chance) * 100:.0f}%"


def _to_blaze(flames: int, chances: list[Fraction]) -> str:
    """A Location's chance to become a Blaze this AFPh: its Flames' DRs, each until one makes it (B25.151).

    >>> _to_blaze(1, [Fraction(7, 12)])
    '; to Blaze 58% (B25.151)'
    >>> _to_blaze(2, [Fraction(7, 12)] * 2)
    '; to Blaze 83% (2 Flame→Blaze DRs of 58% each, B25.151)'
    """
    if not flames or not chances:
        return ""
    if flames == 1:
        return f"; to Blaze {_pct(chances[0])} (B25.151)"
    none = Fraction(1)
    for c in chances:
        none *= 1 - c
    each = "/".join(dict.fromkeys(_pct(c) for c in chances))
    drs = f"{len(chances)} Flame→Blaze DRs of {each} each" if len(chances) > 1 else f"1 Flame→Blaze DR of {each}"
    idle = flames - len(chances)
    if idle:
        drs += "; the other Flame makes none this AFPh" if idle == 1 else f"; {idle} Flames make none this AFPh"
    return f"; to Blaze {_pct(1 - none)} ({drs}, B25.151)"


def _level(loc: Location) -> str:
    if loc.rooftop:
        return "rooftop"
    return "cellar" if loc.level < 0 else f"level {loc.level}"


def finder_lines(pos: Position) -> list[str]:
    """The Fire finder (VASL issue #93): every Flame, Blaze and Burning Wreck on the map with its Location and
    level, and the Locations each may spread to at the end of this AFPh with their odds (the Fire odds' data:
    B25.6 Spreading Fire, B25.651 Gusts), for this player's chat only.

    Fires are listed by Location (a Location's Flames on one line: several may share it, each with its own
    Flame→Blaze DR, B25.15); a Location a fire may spread to is named under the fire it would spread from.
    """
    from ..core.fire import pending_rolls

    fires = len(pos.fires) + len(pos.burning_wrecks())
    if not fires:
        return ["- ASL fire bridge: Fire finder: no Flame, Blaze or Burning Wreck on the map"]
    # one line per Location's Flames: several may share it, each with its own Flame→Blaze DR (B25.15)
    flames = Counter(f.location for f in pos.fires if f.is_flame)
    burning: list[tuple[Location, str, int]] = [(loc, "Flame" if n == 1 else f"{n} Flames", n)
                                                for loc, n in flames.items()]
    burning += [(f.location, "Blaze", 0) for f in pos.fires if f.is_blaze]
    burning += [(w.location, f"Burning Wreck ({w.name})", 0) for w in pos.burning_wrecks()]
    rolls = pending_rolls(pos)
    to_blaze: dict[Location, list[Fraction]] = {}
    for r in rolls:
        if r.kind == "blaze":
            to_blaze.setdefault(r.location, []).append(r.chance)
    spreads: dict[Location, list[str]] = {}
    for r in rolls:
        if r.kind != "blaze" and r.source is not None:
            how = "Gusts" if r.kind == "gust" else ("automatic" if r.automatic else f"{float(r.chance) * 100:.0f}%")
            spreads.setdefault(r.source, []).append(f"{pos.loc_name(r.location)} {how}")
    out = [f"- ASL fire bridge: Fire finder: {fires} fires on the map (B25):"]
    for loc, what, n in sorted(burning, key=lambda b: (b[0], b[1])):
        line = f"-   {what} in {pos.loc_name(loc)} ({_level(loc)}, {pos.map.info(loc.hex).terrain.label})"
        line += _to_blaze(n, to_blaze.get(loc, []))
        targets = spreads.get(loc)
        line += f"; may spread to {', '.join(targets)} (B25.6)" if targets else "; spreads nowhere now"
        out.append(line)
    return out
