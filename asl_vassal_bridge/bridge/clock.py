"""Step 2 of a press: the Clock — Game Turn and Player Turn from VASL's Phase Track, else the bridge's own count.

The phase key (``PT<n> AFPh``, ``PT<n> RPh``) a press stores in the game makes each phase run once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import BadInput
from ..core.position import Clock, Phase
from ..vasl.counters import (
    BadCounterState,
)
from ..vasl.phasetrack import PHASE_TRACK_GPIDS, PhaseTrack, is_phase_track, phase_track_from_piece
from .snapshot import piece_traits

__all__ = ["counted_phase_key", "game_clock", "next_phase_key", "phase_track"]

def counted_phase_key(processed: str, phase: Phase) -> str | None:
    """The bridge's own count: the key ``PT<n> <phase>`` of *phase* after the last processed one, or None for
    a repeat.  A Wind change (RPh) after an AFPh upkeep starts the next Player Turn; the same phase twice in a
    row is a repeat.

    >>> counted_phase_key("PT1 AFPh", Phase.RPH), counted_phase_key("PT2 RPh", Phase.AFPH)
    ('PT2 RPh', 'PT2 AFPh')
    """
    if not processed:
        return f"PT1 {phase.value}"
    try:
        head, last = processed.split(" ", 1)
        n = int(head[2:])
    except ValueError:
        return f"PT1 {phase.value}"
    if last == phase.value:
        return None
    if phase is Phase.RPH:
        return f"PT{n + 1} {phase.value}"
    return f"PT{n} {phase.value}"


def _clock_from_processed(processed: str, phase: Phase) -> Clock:
    """The bridge's clock: Player Turn n of the processed marker ``PT<n> <phase>``."""
    n = 1
    if processed.startswith("PT"):
        try:
            n = int(processed[2:].split()[0])
        except (ValueError, IndexError):
            n = 1
    return Clock(turn=(n + 1) // 2, half=1 if n % 2 == 1 else 2, phase=phase)


#: [each piece of the last read, by id: its very dict and the Phase Track it is (None: not one); that read's tracks;
#: the ids of its dicts]
_READ: list[Any] = [{}, [], set()]


def phase_track(snapshot: Mapping[str, Any]) -> PhaseTrack | None:
    """What VASL's Phase Track on the maps shows, or None when no map has one.

    Several Phase Tracks are fine while they all show the same Turn, Player
    Turn and phase; if they disagree the bridge cannot know which one the
    players follow.

    :raises BadInput: for a Phase Track whose layers do not say (or were not
        sent), or for Phase Tracks that disagree.
    """
    memo: dict[Any, tuple[Mapping[str, Any], PhaseTrack | None]] = _READ[0]
    pieces = snapshot.get("pieces") or ()
    found: list[tuple[Mapping[str, Any], PhaseTrack]]
    objs = set(map(id, pieces))
    if len(pieces) == len(memo) and objs == _READ[2]:
        found = _READ[1]  # the very dicts of the last read (a delta snapshot keeps the unchanged ones), reordered
    else:
        found = []
        now: dict[Any, tuple[Mapping[str, Any], PhaseTrack | None]] = {}
        for p in pieces:
            pid = p.get("id")
            m = memo.get(pid)
            if m is not None and m[0] is p:
                now[pid] = m
                if m[1] is not None:
                    found.append((p, m[1]))
                continue
            basic = p.get("basic_name")
            if "Phase" not in str(basic) and str(p.get("gpid") or "").strip() not in PHASE_TRACK_GPIDS:
                now[pid] = (p, None)
                continue  # is_phase_track's answer, at a fraction of its cost for the game's thousands of counters
            if not is_phase_track(basic, p.get("gpid")):
                now[pid] = (p, None)
                continue
            try:
                track = phase_track_from_piece(piece_traits(p), str(basic) if basic else None)
            except BadCounterState as e:
                raise BadInput(f"piece {p.get('id')} ({p.get('name')}) on map {p.get('map')}: {e}") from None
            now[pid] = (p, track)
            found.append((p, track))
        _READ[0], _READ[1], _READ[2] = now, found, objs
    if len({t for _p, t in found}) > 1:
        shown = "; ".join(f"{p.get('name')} on map {p.get('map')} at {p.get('x')},{p.get('y')}: {t}" for p, t in found)
        raise BadInput(f"the Phase Tracks on the maps disagree ({shown}); remove all but one (nothing was rolled)")
    return found[0][1] if found else None


def game_clock(snapshot: Mapping[str, Any], phase: Phase) -> tuple[Clock, PhaseTrack | None, str]:
    """The Clock for running *phase*: Game Turn and Player Turn from VASL's Phase Track, else the bridge's count.

    Returns the Clock, the Phase Track read (None without one) and one line
    saying which.  The phase is always *phase*, the one being run: a Phase
    Track showing another phase is named in the line.
    """
    track = phase_track(snapshot)
    if track is None:
        processed = str((snapshot.get("game") or {}).get("processed") or "")
        clock = _clock_from_processed(counted_phase_key(processed, phase) or processed, phase)
        return clock, None, (f"clock: {clock} from the bridge's own count (last processed: {processed or 'none'}; "
                             "no VASL Phase Track on the maps)")
    clock = Clock(track.turn, track.half, phase)
    line = f"clock: {clock} from VASL's Phase Track ({track})"
    if track.phase is not phase:
        line += f"; it shows the {track.phase.value}, the bridge runs the {phase.value}"
    return clock, track, line

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
