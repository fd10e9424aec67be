"""The phase control's rules: which phase comes next and what leaving a phase rolls, the clock set by hand, and the
hint a refusal gets when its action belongs to another phase.

Leaving the RPh rolls its Wind Change DR (B25.65) and leaving the AFPh makes its fire upkeep (B25.151, B25.6), as
``asl-fire upkeep`` does (:mod:`asl_vassal_bridge.core.turn`); every other step only moves the clock.  "Jump to" and
"previous" set the clock and roll nothing (the log says so).
"""

from __future__ import annotations

import re

from asl_vassal_bridge.core import Clock, Phase
from asl_vassal_bridge.core.values import replace

__all__ = ["PHASE_NAMES", "next_label", "phase_hint", "previous_clock", "step_clock"]

_ORDER = list(Phase)
#: Each phase's name as the control lists it.
PHASE_NAMES = {Phase.RPH: "Rally Phase", Phase.PFPH: "Prep Fire Phase", Phase.MPH: "Movement Phase",
               Phase.DFPH: "Defensive Fire Phase", Phase.AFPH: "Advancing Fire Phase", Phase.RTPH: "Rout Phase",
               Phase.APH: "Advance Phase", Phase.CCPH: "Close Combat Phase"}


def step_clock(clock: Clock) -> Clock:
    """The clock one phase on: the next phase of this Player Turn, after the CCPh the next Player Turn's RPh.

    >>> step_clock(Clock(2, 1, Phase.RPH)), step_clock(Clock(2, 2, Phase.CCPH))
    (Clock(turn=2, half=1, phase=<Phase.PFPH: 'PFPh'>), Clock(turn=3, half=1, phase=<Phase.RPH: 'RPh'>))
    """
    k = _ORDER.index(clock.phase)
    if k + 1 < len(_ORDER):
        return replace(clock, phase=_ORDER[k + 1])
    return clock.next_player_turn()


def previous_clock(clock: Clock) -> Clock | None:
    """The clock one phase back (the last Player Turn's CCPh before an RPh); None before Turn 1.1's RPh."""
    k = _ORDER.index(clock.phase)
    if k > 0:
        return replace(clock, phase=_ORDER[k - 1])
    if clock.half == 2:
        return Clock(clock.turn, 1, Phase.CCPH)
    if clock.turn > 1:
        return Clock(clock.turn - 1, 2, Phase.CCPH)
    return None


def next_label(clock: Clock) -> str:
    """What the "next" button does from *clock*: the phase it reaches, and the rolls leaving this one makes.

    >>> next_label(Clock(2, 1, Phase.RPH))
    'next: PFPh ▶ (rolls the Wind Change DR, B25.65)'
    """
    to = step_clock(clock).phase.value
    if clock.phase is Phase.RPH:
        return f"next: {to} ▶ (rolls the Wind Change DR, B25.65)"
    if clock.phase is Phase.AFPH:
        return f"next: {to} ▶ (rolls the fire upkeep, B25.151/B25.6)"
    return f"next: {to} ▶"


_PHASE_WORD = re.compile(r"\b(" + "|".join(re.escape(p.value) for p in Phase) + r")\b")


def phase_hint(message: str, clock: Clock) -> str:
    """For a refusal naming the phase its action belongs to, how to get there with the phase control ("" if the
    message names no other phase).

    >>> phase_hint("Kindling is made in the PFPh, not the RPh (B25.11)", Clock(2, 1, Phase.RPH))
    ' — to reach the PFPh: "next ▶" above the map (it rolls the RPh\\'s Wind Change DR first), or "jump to"'
    """
    for m in _PHASE_WORD.finditer(message):
        target = Phase(m.group(1))
        if target is clock.phase:
            continue
        if target is step_clock(clock).phase and clock.phase is Phase.RPH:
            how = "\"next ▶\" above the map (it rolls the RPh's Wind Change DR first), or \"jump to\""
        elif target is step_clock(clock).phase:
            how = "\"next ▶\" above the map"
        else:
            how = f"\"jump to\" {target.value} above the map (nothing is rolled on the way)"
        return f" — to reach the {target.value}: {how}"
    return ""
