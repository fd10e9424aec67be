"""Run a fire phase on a live VASSAL game: snapshot → Position → rules with VASSAL's dice → one batch.

Idempotent per phase: the batch carries a phase key (``PT<n> AFPh``, ``PT<n> RPh``)
that the extension stores as a game Command; a second press of the same
button finds the key already processed and rolls nothing.  With VASL's Phase
Track on a map, n is the Player Turn the track shows (and the Position's
Clock is the track's); without one the bridge counts Player Turns itself.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from ..core.errors import BadInput
from ..core.explain import Report
from ..core.position import GameMap, Phase
from ..vasl.setup import VaslSetup
from .batch import batch_for
from .chat import roll_lines
from .client import BridgeClient, BridgeRefused, VassalDice
from .clock import game_clock, next_phase_key
from .gamemodule import CounterData, counter_data
from .position import LiveGame, position_from_snapshot, press_snapshot
from .prompts import EVENT, PROMPTS
from .report import finder_lines, odds_lines, phase_lines
from .rules import rules_for

__all__ = ["ACTIONS", "PhaseResult", "find_fires", "handle_button", "next_phase_key", "prepare", "run_phase",
           "show_odds"]

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


def _module_counters(client: BridgeClient) -> CounterData:
    """The counters of the module VASSAL runs (read once per module file, :func:`~.gamemodule.counter_data`)."""
    return counter_data({"module": {"path": getattr(client, "module_path", None)}})


#: The extension's event when a game is opened or started while Python is connected: :func:`prepare` reads it.
GAME_OPENED = "game-opened"

#: Clear while :func:`prepare` reads the game: a button pressed meanwhile waits for it rather than read beside it.
_PREPARED = threading.Event()
_PREPARED.set()
#: The longest a press waits for :func:`prepare` (seconds): then it reads the game itself.
PREPARE_WAIT = 60.0


def prepare(client: BridgeClient, *, game_map: GameMap | None = None, vasl: VaslSetup | None = None) -> str:
    """Read the game once as the bridge connects, as a press reads it, so that the first press finds its terrain
    parsed and its pieces read and reads only what changed since, as later presses do.  Nothing is rolled, changed
    or shown in VASSAL; the extension reads VASL's terrain at the same moment (docs/bridge.md).  Returns one line
    for the log, also when the game cannot be read yet (no game open: the first press then reads it).
    """
    _PREPARED.clear()
    try:
        t0 = time.perf_counter()
        snap = press_snapshot(client, game_map)
        if not (snap.get("game") or {}).get("started"):
            return "no game is open yet: the first press reads the game"
        data = _module_counters(client)
        live = position_from_snapshot(snap, game_map=game_map, vasl=vasl, counters=data, units_near_fires=True)
        return (f"read the game ahead of the first press: {len(live.pieces)} pieces, {len(live.position.map.hexes)} "
                f"hexes, in {(time.perf_counter() - t0) * 1000:.0f} ms")
    except BadInput as e:
        return f"the game was not read ahead of the first press ({e}); the first press reads it"
    except Exception as e:  # never fatal: the press reads the game itself and says what is wrong
        return f"the game was not read ahead of the first press ({type(e).__name__}: {e}); the first press reads it"
    finally:
        _PREPARED.set()


def run_phase(client: BridgeClient, phase: Phase, *, game_map: GameMap | None = None,
              vasl: VaslSetup | None = None) -> PhaseResult:
    """Run one fire phase with VASSAL's dice and apply it as one command."""
    t0 = time.perf_counter()
    data = _module_counters(client)
    # units' layers stay in VASSAL: their names say broken/berserk (vasl.units), which keeps the press fast
    snap = press_snapshot(client, game_map)
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
    live: LiveGame = position_from_snapshot(snap, game_map=game_map, phase=phase, vasl=vasl, clock=clock,
                                            clock_source=clock_line, counters=data, units_near_fires=True)
    dice = VassalDice(client)
    session, rolled = dice.session, dice.rolled

    t_read = time.perf_counter()
    new, report = rules_for(phase)(live.position, dice)
    t_rules = time.perf_counter()
    texts = roll_lines(rolled, report)
    header, summary = phase_lines(phase, key, report, live.position, new, live)
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
    snap = press_snapshot(client, game_map)
    live = position_from_snapshot(snap, game_map=game_map, phase=Phase.AFPH, vasl=vasl)
    for line in odds_lines(live.position):
        client.say(line)
    return ""


def find_fires(client: BridgeClient, *, game_map: GameMap | None = None, vasl: VaslSetup | None = None) -> list[str]:
    """The Fire finder button (VASL issue #93): every fire on the map, its Location and level, and where each may
    spread (:func:`~.report.finder_lines`), shown in this player's chat only; returns the lines shown."""
    snap = press_snapshot(client, game_map)
    live = position_from_snapshot(snap, game_map=game_map, phase=Phase.AFPH, vasl=vasl)
    lines = finder_lines(live.position)
    for line in lines:
        client.say(line)
    return lines


def handle_button(client: BridgeClient, action: str, *, game_map: GameMap | None = None,
                  vasl: VaslSetup | None = None, strict: bool = False) -> str:
    """What a toolbar button does; returns the line VASSAL shows (only to this player).

    A refusal (:class:`BadInput`) is that line too, unless *strict* (``asl-fire bridge --once``): then it is raised.
    """
    log.info("button: %s", action)
    _PREPARED.wait(PREPARE_WAIT)
    try:
        if action == "odds":
            return show_odds(client, game_map=game_map, vasl=vasl)
        if action == EVENT:
            PROMPTS.on_change(client, lambda ph: run_phase(client, ph, game_map=game_map, vasl=vasl).message)
            return ""
        if action == GAME_OPENED:
            log.info("game opened: %s", prepare(client, game_map=game_map, vasl=vasl))
            return ""
        if action == "risk":
            from .risk import show_risk

            return show_risk(client, game_map=game_map, vasl=vasl)
        if action == "attack":
            from .attack_button import attack_button

            return attack_button(client, vasl=vasl)
        if action == "firestart":
            from .firestart_button import firestart_button

            return firestart_button(client, game_map=game_map, vasl=vasl)
        if action == "finder":
            find_fires(client, game_map=game_map, vasl=vasl)
            return ""
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
