"""VASL's Phase Track counter: which Game Turn, whose Player Turn and which phase it shows.

VASL 6.5's palette (Other / Map / Phase Track, and Korea O/B / Markers / Game)
has one Phase Track per side moving first: ``Phase Track Allied 1st`` (gpid
297), ``Phase Track Axis 1st`` (300), ``Phase Track UN 1st`` (3b5:10935) and
``Phase Track Communist 1st`` (3b5:10947).  Each carries three Layer traits
the bridge reads:

* ``Player``: two levels, the first side's (``Allied +`` on the Allied-first
  track) then the second side's, so level 1 is the first player's Player
  Turn (half 1) and level 2 the second's;
* ``PhaseName``: eight levels ``+- RPh`` … ``+- CCPh``;
* ``TurnName``: ten levels ``Turn 1`` … ``Turn 10`` (it loops: Turn 11 shows
  Turn 1 again).

Its rotate trait ``CurrentPhase`` (eight facings) turns with ``PhaseName`` on
the same key; VASL's NextPlayer macro flips ``Player`` when the phase wraps to
the RPh, and NextTurn advances ``TurnName`` when the first player's turn
starts again.

Pure (no I/O): the live bridge and the file readers both use it.

>>> from .traits import Trait
>>> emb = "emb2;;2;;;2;;;2;;;;0;false;0;0;{};{};true;{};;;false;;1;1;true;;70,130;"
>>> t = (Trait(emb.format(",", "Allied +,Axis +", "Player"), "2"),
...      Trait(emb.format(",,,,,,,", "+- RPh,+- PFPh,+- MPh,+- DFPh,+- AFPh,+- RtPh,+- APh,+- CCPh", "PhaseName"), "5"),
...      Trait(emb.format(",,", "Turn 1 ,Turn 2 ,Turn 3 ", "TurnName"), "3"))
>>> track = phase_track_from_piece(t, "Phase Track Allied 1st")
>>> (track.turn, track.side, track.phase.value, str(track.clock))
(3, 'Axis', 'AFPh', 'Turn 3.2 AFPh')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.position import Clock, Phase
from .counters import BadCounterState, Layers, embellishment_layers
from .traits import Trait

__all__ = ["PHASE_TRACK_GPIDS", "PHASE_TRACK_NAMES", "PhaseTrack", "is_phase_track", "phase_track_from_piece"]

#: VASL 6.5's Phase Track slots: gpid → the side that moves first.
PHASE_TRACK_GPIDS: dict[str, str] = {"297": "Allied", "300": "Axis", "3b5:10935": "UN", "3b5:10947": "Communist"}
#: Their BasicPiece names (how another module version's slots are found).
PHASE_TRACK_NAMES: frozenset[str] = frozenset(f"Phase Track {side} 1st" for side in PHASE_TRACK_GPIDS.values())
_NAME = re.compile(r"^Phase Track (.+?) 1st$")
_LAYERS = ("Player", "PhaseName", "TurnName")


@dataclass(frozen=True, slots=True)
class PhaseTrack:
    """What a Phase Track shows: Game Turn, which player's half (1 first, 2 second) and the phase.

    *first* and *second* are the sides the track names (``Allied``/``Axis``, ``UN``/``Communist``).
    """

    turn: int
    half: int
    phase: Phase
    first: str
    second: str

    @property
    def side(self) -> str:
        """The side whose Player Turn it is."""
        return self.first if self.half == 1 else self.second

    @property
    def clock(self) -> Clock:
        return Clock(self.turn, self.half, self.phase)

    def __str__(self) -> str:
        return f"Turn {self.turn}, {self.side} Player Turn ({self.first} moves first), {self.phase.value}"


def is_phase_track(name: str | None, gpid: str | None) -> bool:
    """True for VASL's Phase Track, by gpid or BasicPiece name (``Phase Track Axis 1st``).

    >>> is_phase_track(None, "300"), is_phase_track("Phase Track Allied 1st", "9999"), is_phase_track("Flame", "192")
    (True, True, False)
    """
    return str(gpid or "").strip() in PHASE_TRACK_GPIDS or bool(_NAME.match(" ".join(str(name or "").split())))


def _level(lay: Layers, count: int) -> int:
    level = abs(lay.value)
    if not 1 <= level <= count:
        raise BadCounterState(f"the Phase Track's {lay.name} layer is at level {lay.value} "
                              f"(expected 1–{count}: {', '.join(n.strip(' +-') for n in lay.names)})")
    return level


def _side(layer_name: str) -> str:
    return layer_name.strip().removesuffix("+").strip()


def phase_track_from_piece(traits: Sequence[Trait], name: str | None = None) -> PhaseTrack:
    """What a Phase Track piece shows, from its traits (the Layer traits at least) and BasicPiece name.

    *name* defaults to the BasicPiece's name when the chain ends with it; it
    says which side moves first (``Phase Track Axis 1st``), and the Player
    layer's first level must name that side.

    :raises BadCounterState: if a layer (Player, PhaseName, TurnName) is
        missing, shows a level it has not got, or names no phase, turn or side.
    """
    if name is None and traits and traits[-1].id == "piece":
        fields = traits[-1].fields
        name = fields[4] if len(fields) > 4 else ""
    layers = {lay.name: lay for lay in embellishment_layers(traits) if lay.name in _LAYERS}
    missing = [n for n in _LAYERS if n not in layers]
    if missing:
        raise BadCounterState(f"the piece has no {', '.join(missing)} layer{'s' if len(missing) > 1 else ''} "
                              "(expected VASL's Phase Track: layers Player, PhaseName, TurnName)")
    player, phase_lay, turn_lay = layers["Player"], layers["PhaseName"], layers["TurnName"]
    if len(player.names) != 2:
        raise BadCounterState(f"the Phase Track's Player layer has {len(player.names)} levels "
                              "(expected 2: the first side's, then the second side's)")
    first, second = (_side(n) for n in player.names)
    m = _NAME.match(" ".join((name or "").split()))
    if m is not None and m.group(1) != first:
        raise BadCounterState(f"the {m.group(0)} counter's Player layer starts with {first!r} "
                              f"(expected {m.group(1)!r}, the side that moves first)")
    half = _level(player, 2)
    try:
        phase = Phase.from_name(phase_lay.names[_level(phase_lay, len(phase_lay.names)) - 1].strip(" +-"))
        turn = int(turn_lay.names[_level(turn_lay, len(turn_lay.names)) - 1].strip().removeprefix("Turn").strip())
    except ValueError as e:
        raise BadCounterState(f"the Phase Track shows no phase or turn: {e}") from None
    return PhaseTrack(turn, half, phase, first, second)
