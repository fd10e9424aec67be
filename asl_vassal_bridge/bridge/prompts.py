"""Phase-aware prompts: VASL's Phase Track passing the RPh or the AFPh without its Wind change (B25.65) or Fire
upkeep (B25) having been pressed for that Player Turn.

The extension watches the Phase Track's counters (gpids and names from :mod:`asl_vassal_bridge.vasl.phasetrack`)
and sends the event ``phase-track`` whenever their state changes — a player's move, the opponent's, an Undo.  The
bridge then reads the track again (so a move already undone prompts nothing) and, for each phase passed without
its button, says so once in the players' chat, naming the button; with the extension's preference "run it by
itself" on, it runs that button instead.  Each phase of each Player Turn is prompted (or run) at most once in the
game, whatever Undo, moves, bridge restarts, saves and loads follow: the extension keeps the phases prompted in the
game (its ``PromptMark`` command, sent to the other player and saved with the game, outside VASSAL's Undo, so the
next Undo still takes back the track's move), and the game's status lists them (``game.prompted``).  With an
extension older than that, the memory is this bridge process's only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..core.errors import BadInput
from ..core.position import Phase
from ..vasl.phasetrack import PHASE_TRACK_GPIDS, PHASE_TRACK_NAMES, PhaseTrack
from .client import BridgeClient
from .clock import phase_track

__all__ = ["EVENT", "WATCHED", "PhasePrompts", "skipped_phases", "watch_phase_track"]

log = logging.getLogger("asl_fire.bridge")

#: The extension's event for a change of the watched counters' states.
EVENT = "phase-track"
#: What the extension watches: VASL's Phase Track counters, by gpid and BasicPiece name.
WATCHED: frozenset[str] = frozenset([*PHASE_TRACK_GPIDS, *PHASE_TRACK_NAMES])
#: The phases a button processes, in a Player Turn's order, with the button's name.
BUTTONS: dict[Phase, str] = {Phase.RPH: "Wind change (RPh)", Phase.AFPH: "Fire upkeep (AFPh)"}
_ORDER = list(Phase)


def _processed_at(processed: str) -> tuple[int, int] | None:
    """``PT<n> <phase>`` as (n, the phase's place in the Player Turn), or None."""
    try:
        head, name = processed.split(" ", 1)
        return int(head.removeprefix("PT")), _ORDER.index(Phase.from_name(name))
    except (ValueError, KeyError):
        return None


def skipped_phases(track: PhaseTrack, processed: str) -> list[tuple[Phase, str]]:
    """The button phases (RPh, AFPh) of the track's Player Turn that the track has passed while the last phase the
    bridge processed (*processed*, ``PT<n> <phase>``) is earlier: each with its key.

    >>> from asl_vassal_bridge.vasl.phasetrack import PhaseTrack
    >>> skipped_phases(PhaseTrack(2, 1, Phase.RTPH, "Allied", "Axis"), "PT3 RPh")
    [(<Phase.AFPH: 'AFPh'>, 'PT3 AFPh')]
    >>> skipped_phases(PhaseTrack(2, 1, Phase.RTPH, "Allied", "Axis"), "PT3 AFPh")
    []
    >>> [k for _p, k in skipped_phases(PhaseTrack(2, 1, Phase.APH, "Allied", "Axis"), "PT2 AFPh")]
    ['PT3 RPh', 'PT3 AFPh']
    >>> skipped_phases(PhaseTrack(2, 1, Phase.AFPH, "Allied", "Axis"), "")
    [(<Phase.RPH: 'RPh'>, 'PT3 RPh')]
    """
    n = track.clock.player_turn
    done = _processed_at(processed)
    out = []
    for phase in BUTTONS:
        at = (n, _ORDER.index(phase))
        if _ORDER.index(track.phase) > at[1] and (done is None or done < at):
            out.append((phase, f"PT{n} {phase.value}"))
    return out


def watch_phase_track(client: BridgeClient) -> None:
    """Ask the extension to send :data:`EVENT` when a Phase Track changes (an older extension without watch():
    no prompts)."""
    try:
        client.api.watch(",".join(sorted(WATCHED)))
    except Exception as e:  # an older extension has no watch(): the buttons still work, without prompts
        log.info("this extension cannot watch the Phase Track (%s): no phase prompts", type(e).__name__)


@dataclass
class PhasePrompts:
    """The keys (``PT<n> AFPh``) this process prompted or ran by itself (with the game's own list, never twice)."""

    told: set[str] = field(default_factory=set)

    def on_change(self, client: BridgeClient, run: Callable[[Phase], str]) -> list[str]:
        """The Phase Track changed: prompt (or *run*, with the preference on) each phase it passed without its
        button; returns the lines shown in this player's chat."""
        snap = client.snapshot(with_terrain=False, layers_for=WATCHED)
        try:
            track = phase_track(snap)
        except BadInput as e:
            log.info("phase prompt: %s", e)
            return []
        game = snap.get("game") or {}
        if track is None or not game.get("started", True):
            return []
        lines: list[str] = []
        local: list[str] = []  # shown to this player only
        in_game = {str(k) for k in game.get("prompted") or ()}
        for phase, key in skipped_phases(track, str(game.get("processed") or "")):
            if key in self.told or key in in_game:
                continue
            if game.get("auto_phase"):
                if _mark(client, key, "") is False:
                    continue  # the other player's bridge got there first
                self.told.add(key)
                log.info("phase prompt: %s passed without its button; running it (preference)", key)
                msg = run(phase)
                line = (f"- ASL fire bridge: the Phase Track passed the {phase.value} ({key}) without the "
                        f"{BUTTONS[phase]}: run by itself (your preference)" + (f"; {msg}" if msg else ""))
                lines.append(line)
                local.append(line)
                continue
            line = (f"- ASL fire bridge: the Phase Track passed the {phase.value} of {track.side}'s Player "
                    f"Turn {track.turn} ({key}) without the {BUTTONS[phase]} "
                    f"({'B25.65' if phase is Phase.RPH else 'B25'}): press {BUTTONS[phase]} now "
                    "(it rolls for that phase), or Undo the track's move")
            marked = _mark(client, key, line)  # shown in both players' chats with the game's memory of it
            if marked is False:
                continue
            self.told.add(key)
            lines.append(line)
            if marked is None:
                local.append(line)
        _say(client, local)
        return lines


def _mark(client: BridgeClient, key: str, line: str) -> bool | None:
    """Mark *key* prompted in the game, showing *line* in every player's chat: True, False if the game had it
    already, None with an extension that cannot (then nothing was shown)."""
    from py4j.protocol import Py4JError

    try:
        return bool(client.api.markPrompted(key, line))
    except Py4JError as e:
        if "does not exist" not in str(e):
            raise
        return None


def _say(client: BridgeClient, lines: Iterable[str]) -> None:
    for line in lines:
        client.say(line)


#: The bridge process's prompts (the toolbar's listener uses it).
PROMPTS = PhasePrompts()
