"""The chat a player scans in a glance: one summary line first, then one short line per roll, the hex and the
outcome first, then the DR, its DRMs and their rules (each fact once), then the notes.

The extension shows a batch's lines as ONE chat message (``Batch.chatMessage``), each line a line of its own.  A
roll's line holds ``{dice}`` where the extension writes the faces VASSAL rolled: the dice shown are always VASSAL's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..core.explain import DRM, CheckResult, Event, Report
from ..core.position import Phase, Position

__all__ = ["DICE", "automatic_flame_line", "check_line", "drm_text", "event_line", "free_roll_line", "listing",
           "phase_summary", "roll_lines", "wind_text"]

#: Where the extension writes the faces VASSAL rolled for a roll's line.
DICE = "{dice}"

#: The outcome a roll's line leads with, by the report event's kind.
_OUTCOMES = {"blaze": "Blaze", "extinguished": "Flame out", "no-change": "still a Flame", "flame": "Flame",
             "no-spread": "no spread"}

_SPREAD = re.compile(r"^Spreading Fire to \S+ \((?P<terrain>[^,)]*)[^)]*\) from (?P<src>.+)$")
_TO_BLAZE = re.compile(r"^Flame to Blaze in \S+ \((?P<terrain>[^,)]*)[^)]*\)$")


_WHICH_ROLL = re.compile(r" \((Spreading Fire|Flame to Blaze)\)$")


def drm_text(drms: Sequence[DRM]) -> str:
    """Each DRM with its reason and rule, signs first (the roll it applies to is the line's: not said again).

    >>> drm_text([DRM(-2, "not directly attached", "B25.62"), DRM(1, "Dry EC (Spreading Fire)", "B25.5")])
    ' -2 not directly attached (B25.62) +1 Dry EC (B25.5)'
    >>> drm_text([])
    ''
    """
    return "".join(f" {d.value:+d} {_WHICH_ROLL.sub('', d.reason)} ({d.rule})" for d in drms)


def _what(event: Event, res: CheckResult) -> str:
    """The roll's name without its Location (the line starts with it), with the rule.

    Spreading Fire names the fire it comes from (B25.6); the terrain is said once.
    """
    name, rule = res.check.name, res.check.rule
    m = _SPREAD.match(name)
    if m:
        return f"from {m['src'].replace(' in ', ' ')} into {m['terrain']} ({rule})"
    m = _TO_BLAZE.match(name)
    if m:
        return f"Flame to Blaze in {m['terrain']} ({rule})"
    if event.location:
        name = name.replace(f" in {event.location}", "").replace(f" to {event.location}", "")
    if name.endswith(")"):
        return f"{name[:-1]}; {rule})"
    return f"{name} ({rule})"


def check_line(event: Event) -> str:
    """One roll's chat line: the Location and outcome, what was rolled for and its rule, the dice (``{dice}``, VASSAL
    writes them), each DRM with its rule, and the Final roll against what it needed.

    >>> from asl_vassal_bridge.core.explain import Check
    >>> from asl_vassal_bridge.core.dice import Roll
    >>> c = Check("Spreading Fire to D2 (Brush, Spread # 8) from Blaze in C2", "B25.6", 8,
    ...           (DRM(-2, "not directly attached", "B25.62"),))
    >>> check_line(Event("B25.6", "no spread to D2", "D2", CheckResult(c, Roll(4, 3), "no spread"), "no-spread"))
    '* D2: no spread — from Blaze C2 into Brush (B25.6): DR {dice} -2 not directly attached (B25.62) = 5 < 8'
    """
    res = event.roll
    assert res is not None
    kind = "DR" if res.check.dice == 2 else "dr"
    ok = res.success
    cmp = ("≤" if ok else ">") if res.check.at_most else ("≥" if ok else "<")
    outcome = _OUTCOMES.get(event.kind, res.outcome)
    where = f"{event.location}: " if event.location else ""
    return (f"* {where}{outcome} — {_what(event, res)}: {kind} {DICE}{drm_text(res.check.drms)} = {res.final} "
            f"{cmp} {res.check.needed}")


def free_roll_line(purpose: str, faces: Sequence[int], said: str = "") -> str:
    """The line of a roll no check explains (a Wind Change DR, a Random Selection dr): its purpose, the dice, and
    what it did when the report says (*said*, with the roll's own text taken out: the dice are said once).

    >>> free_roll_line("Wind Change (B25.65)", [3, 4])
    '* Wind Change (B25.65): DR {dice}'
    >>> free_roll_line("FT attack B2 → C2 (A22)", [2, 3], "IFT DR 5 (2,3) no DRM → Final DR 5 on the 24 column (A22.2)")
    '* FT attack B2 → C2 (A22): IFT DR 5 ({dice}) no DRM → Final DR 5 on the 24 column (A22.2)'
    """
    kind = "DR" if len(faces) == 2 else "dr"
    dice = ",".join(str(f) for f in faces)
    if said:
        total = sum(faces)
        for shown in (f"{total} ({dice})", f"({dice})"):
            if shown in said:
                return f"* {purpose}: {said.replace(shown, shown.replace(dice, DICE), 1)}"
        return f"* {purpose}: {kind} {DICE}; {said}"
    return f"* {purpose}: {kind} {DICE}"


def roll_lines(rolls: Sequence[tuple[str, Sequence[int]]], report: Report) -> list[str]:
    """For each die roll made (in order), its chat line: the report's check that used it, else its purpose."""
    checks = [e for e in report.events if e.roll is not None]
    out: list[str] = []
    j = 0
    for purpose, faces in rolls:
        line = ""
        if j < len(checks):
            r = checks[j].roll
            assert r is not None
            rf = [r.roll.colored] + ([r.roll.white] if r.roll.white is not None else [])
            if list(faces) == rf:
                line = check_line(checks[j])
                j += 1
        out.append(line or free_roll_line(purpose, faces))
    return out


def listing(word: str, places: Sequence[str], plural: str = "") -> str:
    """``"new Flames D2, G3"`` (``""`` for none).

    >>> listing("new Flame", ["D2"]), listing("new Flame", ["D2", "G3"]), listing("Blaze", [])
    ('new Flame D2', 'new Flames D2, G3', '')
    """
    if not places:
        return ""
    name = word if len(places) == 1 else (plural or f"{word}s")
    return f"{name} {', '.join(places)}"


def _at(events: Iterable[Event], kind: str) -> list[str]:
    return list(dict.fromkeys(e.location or "?" for e in events if e.kind == kind))


def wind_text(old: Position, new: Position) -> str:
    """What the RPh's Wind change did to the wind, in words (B25.65)."""
    ow, nw = old.environment.wind, new.environment.wind
    if nw == ow:
        return ""
    if nw.force is ow.force and nw.direction != ow.direction and nw.direction is not None:
        return f"wind now blows to {int(nw.direction)} ({nw})"
    return f"wind now {nw}"


def phase_summary(phase: Phase, key: str, report: Report, old: Position, new: Position, units_in_blazes: int = 0
                  ) -> str:
    """The press's first line: what changed on the map (or that nothing did).

    >>> from asl_vassal_bridge.core.position import GameMap, Position
    >>> pos = Position(GameMap.from_hexes({}))
    >>> phase_summary(Phase.AFPH, "PT3 AFPh", Report("t", (Event("B25.62", "x", "D2", kind="flame"),
    ...     Event("B25.6", "y", "E2", kind="no-spread"))), pos, pos)
    '* ASL fire bridge, PT3 AFPh upkeep: new Flame D2; no other change'
    """
    ev = report.events
    parts = [listing("new Flame", _at(ev, "flame")), listing("Blaze", _at(ev, "blaze")),
             listing("Flame out in", _at(ev, "extinguished")),
             listing("Burning Wreck gone in", _at(ev, "wreck-removed")),
             listing("hut collapsed in", _at(ev, "hut-collapse"), "huts collapsed in"),
             listing("collapse in", _at(ev, "collapse"), "collapses in")]
    if phase is Phase.RPH:
        parts.insert(0, wind_text(old, new))
        if new.environment.gusts and not old.environment.gusts:
            parts.insert(1, "Gusts this Player Turn (B25.651)")
    parts = [p for p in parts if p]
    if units_in_blazes:
        parts.append(f"{units_in_blazes} unit{'s' if units_in_blazes > 1 else ''} in a Blaze (B25.4)")
    what = "upkeep" if phase is Phase.AFPH else "wind change" if phase is Phase.RPH else phase.value
    if not parts:
        done = "nothing changed"
    else:
        done = "; ".join(parts)
        if any(e.kind in ("no-spread", "no-change") for e in ev):
            done += "; no other change"
    return f"* ASL fire bridge, {key} {what}: {done}"


_WIND_DR = re.compile(r"^Wind Change DR [^:]*: (?:dr \d+, )?")


def event_line(event: Event) -> str:
    """An event without a roll, its dice (already on the roll's line) left out.

    >>> event_line(Event("B25.65", "Wind Change DR 7: no change", kind="wind"))
    '* wind: no change (B25.65)'
    """
    text = event.text
    if event.kind == "wind" and _WIND_DR.match(text):
        text = "wind: " + _WIND_DR.sub("", text)
    return f"* {text} ({event.rule})"


def automatic_flame_line(event: Event) -> str:
    """The line of a Flame placed without a roll (Heavy Winds B25.63, Gusts B25.651): the Location and outcome first,
    then why, its rule once.

    >>> automatic_flame_line(Event("B25.651", "Flame placed in D4: Gusts to 3, B25.651", "D4", kind="flame"))
    '* D4: Flame — Gusts to 3 (B25.651)'
    """
    why = event.text.split(": ", 1)[-1]
    if why.endswith(event.rule):
        why = why[: -len(event.rule)].rstrip(", ")
    return f"* {event.location}: Flame — {why} ({event.rule})"
