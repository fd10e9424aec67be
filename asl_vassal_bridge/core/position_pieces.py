"""What lies on the map of a Position, and when (a step of :mod:`.position`): Fires, Wrecks, Smoke and units, and
the game clock (Player Turn and Phase)."""

from __future__ import annotations

import enum
from collections.abc import Iterable

from .hexes import Direction
from .position_map import Location
from .values import replace, value

__all__ = ["Clock", "Fire", "FireKind", "Phase", "Smoke", "Unit", "UnitKind", "Wreck"]


class FireKind(enum.Enum):
    FLAME = "flame"
    BLAZE = "blaze"


@value
class Fire:
    """A Flame or terrain Blaze in a Location.

    *since* is the Player Turn index (see :class:`Clock`) in which the Flame
    appeared or the Blaze formed: a Flame cannot become a Blaze, nor a Blaze
    spread, in that Player Turn (B25.15, B25.6).  *hampered* marks a Flame
    Hampered this Player Turn (B24.721).  *kindled_by* names the side that
    deliberately kindled it (Fire & Victory); None for accidental fires.
    *also_kindled_by* names the other side when fires kindled by both sides
    reached the Location (a Blaze keeps every kindler of the Flames it came
    from, B25.15 with Fire & Victory).

    >>> Fire(Location.parse("A1"), FireKind.BLAZE, kindled_by="German").kindlers
    ('German',)
    """

    location: Location
    kind: FireKind
    since: int = 0
    hampered: bool = False
    kindled_by: str | None = None
    also_kindled_by: str | None = None

    @property
    def kindlers(self) -> tuple[str, ...]:
        """The sides whose deliberately kindled fire burns here (Fire & Victory), in order."""
        return tuple(k for k in (self.kindled_by, self.also_kindled_by) if k is not None)

    @staticmethod
    def kindlers_of(fires: Iterable[Fire]) -> tuple[str | None, str | None]:
        """``(kindled_by, also_kindled_by)`` for a fire that came from *fires*: every kindler they carry.

        >>> a, b = (Fire(Location.parse("A1"), FireKind.FLAME, kindled_by=s) for s in ("German", None))
        >>> Fire.kindlers_of([b, a, a])
        ('German', None)
        """
        sides = list(dict.fromkeys(k for f in fires for k in f.kindlers))
        return (sides[0] if sides else None), (sides[1] if len(sides) > 1 else None)

    @property
    def is_flame(self) -> bool:
        return self.kind is FireKind.FLAME

    @property
    def is_blaze(self) -> bool:
        return self.kind is FireKind.BLAZE


@value
class Wreck:
    """A vehicle wreck; burning when it carries a Blaze (B25.14).

    *bypass* is the hexside it was Bypassing along, if any: a burning wreck in
    Bypass may spread into either hex it straddles (B25.6) with −2 (B25.62).
    """

    location: Location
    burning: bool = True
    bypass: Direction | None = None
    name: str = "Wreck"
    since: int = 0


@value
class Smoke:
    """A SMOKE counter on the map (A24): SMOKE, or WP (*wp*), *dispersed* or not; a Gust eliminates the
    Dispersed ones and disperses the others (B25.651). Fires' own smoke has no counter (B25.2)."""

    location: Location
    wp: bool = False
    dispersed: bool = False

    def describe(self) -> str:
        return ("Dispersed " if self.dispersed else "") + ("WP" if self.wp else "SMOKE")


class UnitKind(enum.Enum):
    SQUAD = "squad"
    HALF_SQUAD = "half-squad"
    CREW = "crew"
    LEADER = "leader"
    HERO = "hero"
    VEHICLE = "vehicle"
    CAVALRY = "cavalry"
    GUN = "gun"

    @property
    def is_infantry(self) -> bool:
        return self in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW, UnitKind.LEADER, UnitKind.HERO)

    @property
    def is_smc(self) -> bool:
        return self in (UnitKind.LEADER, UnitKind.HERO)


@value
class Unit:
    """A unit as far as fire is concerned (B25.4 exits, Kindling, Clearance).

    *immobilized*: a vehicle that cannot move (an Immobilized marker, D5.7); in a terrain Blaze it cannot
    leave and is eliminated (B25.4).  *cx*: Infantry under a CX counter, Exhausted by Double Time (A4.51): +1
    to its attacks, its FT attack (A22.2) and its MOL Check and MOL attack (A22.611, A4.51).  *ft*: the FT counters
    a Personnel unit possesses; any attack vs it is one lower per FT (A22.4).

    >>> from .hexes import Hex
    >>> Unit("g1", "4-6-7", "German", Location(Hex(0, 0)), cx=True, berserk=True).is_cx
    False
    """

    id: str
    name: str
    side: str
    location: Location
    kind: UnitKind = UnitKind.SQUAD
    broken: bool = False
    pinned: bool = False
    in_melee: bool = False
    berserk: bool = False
    in_pillbox: bool = False
    may_break_voluntarily: bool = True
    immobilized: bool = False
    cx: bool = False
    ft: int = 0

    @property
    def is_pinned(self) -> bool:
        """Pinned as the rules see it: a berserk unit loses any pinned status (A15.42)."""
        return self.pinned and not self.berserk

    @property
    def is_cx(self) -> bool:
        """CX as the rules see it (A4.51): a berserk unit loses any CX status (A15.42)."""
        return self.cx and not self.berserk


class Phase(enum.Enum):
    """The eight phases of a Player Turn."""

    RPH = "RPh"
    PFPH = "PFPh"
    MPH = "MPh"
    DFPH = "DFPh"
    AFPH = "AFPh"
    RTPH = "RtPh"
    APH = "APh"
    CCPH = "CCPh"

    @classmethod
    def from_name(cls, name: str) -> Phase:
        for p in cls:
            if p.value.lower() == name.strip().lower() or p.name.lower() == name.strip().lower():
                return p
        raise ValueError(f"unknown phase {name!r} (expected one of: {', '.join(p.value for p in cls)})")


@value(order=True)
class Clock:
    """Game Turn, which player's half (1 or 2) and phase.

    >>> Clock(2, 1).player_turn
    3
    """

    turn: int = 1
    half: int = 1
    phase: Phase = Phase.RPH

    def __post_init__(self) -> None:
        if self.turn < 1 or self.half not in (1, 2):
            raise ValueError(f"turn must be ≥ 1 and half 1 or 2, not turn {self.turn} half {self.half}")

    @property
    def player_turn(self) -> int:
        """Player Turns since the start: 1 for the first player's Turn 1."""
        return 2 * (self.turn - 1) + self.half

    def next_phase(self) -> Clock:
        phases = list(Phase)
        i = phases.index(self.phase)
        if i + 1 < len(phases):
            return replace(self, phase=phases[i + 1])
        return self.next_player_turn()

    def next_player_turn(self) -> Clock:
        if self.half == 1:
            return Clock(self.turn, 2, Phase.RPH)
        return Clock(self.turn + 1, 1, Phase.RPH)

    def __str__(self) -> str:
        return f"Turn {self.turn}.{self.half} {self.phase.value}"
