"""Step 4 of a press: the rules run with VASSAL's dice, and which report line used each roll.

The rules live in the core (:func:`~asl_vassal_bridge.core.wind.rally_phase` for the RPh's Wind change, B25.64;
:func:`~asl_vassal_bridge.core.fire.end_of_afph` for the fire upkeep, B25); this module picks them and ties VASSAL's
rolls to the report's lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.explain import Report
from ..core.position import Phase, Position

__all__ = ["explain_rolls", "rules_for"]


def rules_for(phase: Phase) -> Callable[[Position, Any], tuple[Position, Report]]:
    """The core's rules run for *phase*: the RPh's Wind change (B25.64) or the end-of-AFPh upkeep (B25)."""
    if phase is Phase.RPH:
        from ..core.wind import rally_phase

        return rally_phase
    from ..core.fire import end_of_afph

    return end_of_afph


def explain_rolls(rolls: Sequence[tuple[str, Sequence[int]]], report: Report) -> list[str]:
    """For each die roll made (in order), the report line that used it ("" if none did)."""
    checks = [e for e in report.events if e.roll is not None]
    out: list[str] = []
    j = 0
    for _purpose, faces in rolls:
        text = ""
        if j < len(checks):
            r = checks[j].roll
            assert r is not None
            rf = [r.roll.colored] + ([r.roll.white] if r.roll.white is not None else [])
            if list(faces) == rf:
                text = checks[j].describe()
                j += 1
        out.append(text)
    return out
