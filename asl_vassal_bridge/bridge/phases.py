"""Run a fire phase on a live VASSAL game: snapshot → Position → rules with VASSAL's dice → one batch.

Idempotent per phase: the batch carries a phase key (``PT<n> AFPh``, ``PT<n> RPh``)
that the extension stores as a game Command; a second press of the same
button finds the key already processed and rolls nothing.  With VASL's Phase
Track on a map, n is the Player Turn the track shows (and the Position's
Clock is the track's); without one the bridge counts Player Turns itself.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import BadInput
from ..core.explain import Report
from ..core.position import Clock, GameMap, Phase, Position
from ..vasl.setup import VaslSetup
from .client import BridgeClient, BridgeRefused, VassalDice
from .convert import (
    LAYERS_FOR,
    LiveGame,
    batch_for,
    counted_phase_key,
    explain_rolls,
    game_clock,
    known_terrain,
    position_from_snapshot,
)

__all__ = ["ACTIONS", "PhaseResult", "handle_button", "next_phase_key", "run_phase", "show_odds"]

log = logging.getLogger("asl_fire.bridge")

#: The toolbar actions and the phase each processes.
ACTIONS: dict[str, Phase] = {"wind": Phase.RPH, "upkeep": Phase.AFPH}


@dataclass(frozen=True)
class PhaseResult:
    phase_key: str | None
    report: Report | None
    applied: dict[str, Any] | None
    message: str
    seconds: float = 0.0
    timings: tuple[tuple[str, float], ...] = ()


def next_phase_key(processed: str, phase: Phase, clock: Clock | None = None) -> str | None:
    """The key of the phase to process now, or None if this phase was already processed.

    With a *clock* (VASL's Phase Track) the key is that Player Turn's phase,
    a repeat only if it is the key last processed.  Without one the bridge
    counts Player Turns itself: a Wind change (RPh) after an AFPh upkeep
    starts the next Player Turn; the same phase twice in a row is a repeat.

    >>> next_phase_key("", Phase.AFPH)
    'PT1 AFPh'
    >>> next_phase_key("PT1 AFPh", Phase.AFPH) is None
    True
    >>> next_phase_key("PT1 AFPh", Phase.RPH)
    'PT2 RPh'
    >>> next_phase_key("PT2 RPh", Phase.AFPH)
    'PT2 AFPh'
    >>> next_phase_key("PT1 AFPh", Phase.AFPH, Clock(3, 2))
    'PT6 AFPh'
    >>> next_phase_key("PT6 AFPh", Phase.AFPH, Clock(3, 2)) is None
    True
    """
    if clock is not None:
        key = f"PT{clock.player_turn} {phase.value}"
        return None if processed == key else key
    return counted_phase_key(processed, phase)


def _rules(phase: Phase) -> Callable[[Position, Any], tuple[Position, Report]]:
    if phase is Phase.RPH:
        from ..core.wind import rally_phase

        return rally_phase
    from ..core.fire import end_of_afph

    return end_of_afph


def run_phase(client: BridgeClient, phase: Phase, *, game_map: GameMap | None = None,
              vasl: VaslSetup | None = None) -> PhaseResult:
    """Run one fire phase with VASSAL's dice and apply it as one command."""
    from .gamemodule import counter_data
    from .rtph import blaze_lines, victory_lines

    t0 = time.perf_counter()
    data = counter_data({"module": {"path": getattr(client, "module_path", None)}})
    # units' layers stay in VASSAL: their names say broken/berserk (vasl.units), which keeps the press fast
    snap = client.snapshot(with_terrain=game_map is None, layers_for=LAYERS_FOR, known_terrain=known_terrain())
    t_snap = time.perf_counter()
    game_status = snap.get("game") or {}
    if not game_status.get("may_change", False):
        raise BridgeRefused(str(game_status.get("why_not") or "VASSAL does not allow changes now"))
    clock, track, clock_line = game_clock(snap, phase)
    log.info("%s", clock_line)
    key = next_phase_key(str(game_status.get("processed") or ""), phase, clock if track is not None else None)
    if key is None:
        msg = (f"ASL fire bridge: {game_status.get('processed')} was already processed; nothing rolled "
               "(B25: each phase's fire checks are made once)")
        return PhaseResult(None, None, None, msg, time.perf_counter() - t0)
    live: LiveGame = position_from_snapshot(snap, game_map=game_map, phase=phase, vasl=vasl,
                                            counters=data, units_near_fires=True)
    dice = VassalDice(client)
    session, rolled = dice.session, dice.rolled

    t_read = time.perf_counter()
    new, report = _rules(phase)(live.position, dice)
    t_rules = time.perf_counter()
    texts = explain_rolls(rolled, report)
    header = [f"* ASL fire bridge: {report.title} ({key})"]
    summary = [f"* {e.describe()}" for e in report.events if e.roll is None]
    if phase is Phase.AFPH:
        # at the end of the upkeep: units now in Blazes (B25.4) and Fire & Victory
        summary += blaze_lines(new, live) + victory_lines(new)
    batch = batch_for(live, new, phase_key=key, session=session, roll_texts=texts, header=header, summary=summary)
    t_batch = time.perf_counter()
    applied = client.apply(batch)
    t_apply = time.perf_counter()
    log.info("%s: %d rolls, %d removed, %d placed, %d layers changed", key, len(rolled), applied.get("removed", 0),
             len(applied.get("placed", [])), applied.get("changed", 0))
    timings = (("snapshot", t_snap - t0), ("position", t_read - t_snap), ("rules+dice", t_rules - t_read),
               ("batch", t_batch - t_rules), ("apply", t_apply - t_batch))
    return PhaseResult(key, report, applied, "", t_apply - t0, timings)


def show_odds(client: BridgeClient, *, game_map: GameMap | None = None, vasl: VaslSetup | None = None) -> str:
    """Every pending end-of-AFPh roll with its exact odds, shown in this player's chat only."""
    from ..core.fire import pending_rolls

    snap = client.snapshot(with_terrain=game_map is None, layers_for=LAYERS_FOR, known_terrain=known_terrain())
    live = position_from_snapshot(snap, game_map=game_map, phase=Phase.AFPH, vasl=vasl)
    rolls = pending_rolls(live.position)
    if not rolls:
        client.say("- ASL fire bridge: no fire rolls pending at the end of this AFPh")
        return ""
    client.say(f"- ASL fire bridge: {len(rolls)} fire rolls pending at the end of the AFPh (B25):")
    for r in rolls:
        where = live.position.loc_name(r.location)
        what = "Flame→Blaze" if r.kind == "blaze" else "Spreading Fire"
        pct = float(r.chance) * 100
        extra = f" ({r.reason})" if r.reason else ""
        client.say(f"-   {where}: {what} {pct:.0f}%{extra}")
    return ""


def handle_button(client: BridgeClient, action: str, *, game_map: GameMap | None = None,
                  vasl: VaslSetup | None = None, strict: bool = False) -> str:
    """What a toolbar button does; returns the line VASSAL shows (only to this player).

    A refusal (:class:`BadInput`) is that line too, unless *strict* (``asl-fire bridge --once``): then it is raised.
    """
    log.info("button: %s", action)
    try:
        if action == "odds":
            return show_odds(client, game_map=game_map, vasl=vasl)
        if action == "hob":
            from .hob import hob_button

            return hob_button(client)
        if action == "rtph":
            from .rtph import rtph_button

            return rtph_button(client, game_map=game_map, vasl=vasl)
        if action not in ACTIONS:
            return f"ASL fire bridge: unknown button {action!r}"
        res = run_phase(client, ACTIONS[action], game_map=game_map, vasl=vasl)
        if res.applied is None:
            log.info("%s", res.message)
        return res.message
    except BadInput as e:
        if strict:
            raise
        log.warning("%s refused: %s", action, e)
        return f"ASL fire bridge: {e}"
