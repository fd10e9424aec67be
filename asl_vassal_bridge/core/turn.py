"""The Player Turn's clock: which fire phase a call plays, from where the position's clock stands.

The rules' steps (:func:`.wind.rally_phase`, :func:`.fire.end_of_afph`, :func:`.fire.pending_rolls`) leave the
clock alone.  The functions here are those steps as a player plays them: they move the clock on, refuse an AFPh
already past, and count the pending rolls from the clock on.  ``asl-fire upkeep``/``odds``, the notebook widget
and the package's own names (``asl_vassal_bridge.core.end_of_afph`` …) all run these, so they cannot disagree.
"""

from __future__ import annotations

from .dice import Dice
from .errors import BadInput
from .explain import Event, Report
from .fire import PendingRoll
from .position import Clock, Phase, Position
from .values import replace

__all__ = ["afph_is_past", "end_of_afph", "pending_from_clock", "pending_rolls", "rally_phase", "refuse_past_afph",
           "return_phase", "run_phase"]

_ORDER = list(Phase)


def afph_is_past(clock: Clock) -> bool:
    """Whether this Player Turn's AFPh is over (the clock is at its RtPh or later).

    >>> afph_is_past(Clock(3, 2, Phase.RTPH)), afph_is_past(Clock(3, 2, Phase.AFPH))
    (True, False)
    """
    return _ORDER.index(clock.phase) > _ORDER.index(Phase.AFPH)


def refuse_past_afph(pos: Position) -> None:
    """Raise :class:`BadInput` when the position's AFPh is past: its end-of-AFPh upkeep was made (B25.151, B25.6)."""
    if afph_is_past(pos.clock):
        c = pos.clock
        raise BadInput(f"the AFPh of {c.turn}.{c.half} is already past (clock: {c}); the next Player Turn starts "
                       "with its RPh (rally_phase, `asl-fire upkeep --phase rph`, the widget's RPh button)")


def rally_phase(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """The RPh Wind Change DR (B25.65; Gusts B25.651, Collapse B25.66) as played: it starts the next Player Turn
    unless the clock is at an RPh, and leaves the clock at that Player Turn's PFPh."""
    from .wind import rally_phase as wind_change

    if pos.clock.phase is not Phase.RPH:
        pos = replace(pos, clock=pos.clock.next_player_turn())
    new, rep = wind_change(pos, dice)
    return replace(new, clock=replace(new.clock, phase=Phase.PFPH)), rep


def end_of_afph(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """The end-of-AFPh fire upkeep as played: Flame→Blaze (B25.151), then Spreading Fire (B25.6).

    Refused (:class:`BadInput`) once this Player Turn's AFPh is past.  At the RPh that RPh's Wind Change DR
    comes first (it ends last Player Turn's Gusts and Hampered marks: B25.65, B25.651, B24.721).  The clock is
    left at the RtPh.
    """
    from .fire import end_of_afph as upkeep
    from .wind import rally_phase as wind_change

    refuse_past_afph(pos)
    rph: Report | None = None
    if pos.clock.phase is Phase.RPH:
        pos, rph = wind_change(pos, dice)
    pos = replace(pos, clock=replace(pos.clock, phase=Phase.AFPH))
    new, rep = upkeep(pos, dice)
    if rph is not None:
        first = Event("B25.65", f"the clock was at the RPh of {pos.clock.turn}.{pos.clock.half}: its Wind Change "
                      "DR comes first", kind="wind")
        rep = Report(f"{rph.title}; {rep.title}", (first, *rph.events, *rep.events))
    return replace(new, clock=replace(new.clock, phase=Phase.RTPH)), rep


def return_phase(pos: Position) -> tuple[Position, Report]:
    """The RtPh: the clock moves to it and units in Blazes are reported (B25.4)."""
    from .exits import blaze_report

    pos = replace(pos, clock=replace(pos.clock, phase=Phase.RTPH))
    return pos, blaze_report(pos)


def run_phase(pos: Position, phase: str, dice: Dice) -> tuple[Position, Report]:
    """Play one phase's fire upkeep by name: ``rph``, ``afph`` or ``rtph`` (see the functions above)."""
    if phase == "rph":
        return rally_phase(pos, dice)
    if phase == "afph":
        return end_of_afph(pos, dice)
    if phase == "rtph":
        return return_phase(pos)
    raise BadInput(f"phase {phase!r}: expected rph, afph or rtph")


def pending_from_clock(pos: Position) -> tuple[Clock | None, Position]:
    """What is pending from the position's clock on: (the RPh rolled first, or None; the position at the AFPh).

    At the RPh the wind change of this Player Turn comes first; from the PFPh to
    the AFPh the pending AFPh is this Player Turn's (its RPh is past); after the
    AFPh it is the next Player Turn's, after that Player Turn's RPh — which also
    ends every Hampering (B24.721) and last Player Turn's Gusts (B25.651: they
    come again only on a Wind Change DR of 12).  The AFPh odds assume the wind
    holds (a Wind Change DR of 3–11).
    """
    clock = pos.clock.next_player_turn() if afph_is_past(pos.clock) else pos.clock
    if clock.phase is not Phase.RPH:
        return None, replace(pos, clock=replace(clock, phase=Phase.AFPH))
    fires = tuple(replace(f, hampered=False) if f.hampered else f for f in pos.fires)
    env = replace(pos.environment, gusts=False)
    return clock, replace(pos, clock=replace(clock, phase=Phase.AFPH), fires=fires, environment=env)


def pending_rolls(pos: Position) -> list[PendingRoll]:
    """Every roll of the next end of the AFPh from the position's clock on, with exact odds (B25.151, B25.6):
    this Player Turn's up to its AFPh, else the next one's, the wind assumed to hold (:func:`pending_from_clock`).
    """
    from .fire import pending_rolls as at_afph

    return at_afph(pending_from_clock(pos)[1])
