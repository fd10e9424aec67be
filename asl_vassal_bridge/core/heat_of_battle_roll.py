"""Who rolls Heat of Battle and with which DRM (A15.1; the first step of :mod:`.heat_of_battle`): the unit and
its situation, the Original 2 that triggers the DR, the units not subject to it, the Heat of Battle Table's
DRM."""

from __future__ import annotations

import enum
from typing import Any

from .dice import Roll
from .errors import BadInput, IllegalAction
from .explain import DRM
from .position import UnitKind
from .units import LeaderRating, MMCType, Nationality, StrengthFactor, UnitClass
from .values import value

__all__ = [
    "HERO",
    "NATIONALITY_DRM",
    "WOUNDED_HERO",
    "HobSituation",
    "HobUnit",
    "NotSubjectToHeatOfBattle",
    "Trigger",
    "follows",
    "hob_drms",
    "not_subject",
]


#: A hero's Strength Factor, and its wounded side (A15.2).
HERO = StrengthFactor(1, 4, 9)


WOUNDED_HERO = StrengthFactor(1, 3, 8)


class NotSubjectToHeatOfBattle(IllegalAction):
    """The unit is one of those A15.1 exempts from Heat of Battle."""


class Trigger(enum.Enum):
    """The DR that may be followed by a Heat of Battle DR (A15.1)."""

    MC = "MC"
    RALLY = "Rally"
    SELF_RALLY = "Self-Rally"


def follows(original: Roll | int, trigger: Trigger) -> bool:
    """True if a Heat of Battle DR is due: an Original 2 on a MC or Rally DR, never on a Self-Rally (A15.1).

    >>> follows(Roll(1, 1), Trigger.RALLY), follows(2, Trigger.SELF_RALLY), follows(3, Trigger.MC)
    (True, False, False)
    """
    total = original.total if isinstance(original, Roll) else original
    return total == 2 and trigger in (Trigger.MC, Trigger.RALLY)


@value
class HobUnit:
    """The unit that rolls: what it is and the states that matter to A15.

    *strength* is an MMC's Strength Factor; *leader* a leader's (or commissar's)
    rating.  *elite*/*inexperienced* force those DRM where the class does not
    give them (the class alone does: Elite, and Green/Conscript, A19.3).
    The last group of flags are the units A15.1 exempts.
    """

    nationality: Nationality
    kind: UnitKind = UnitKind.SQUAD
    strength: StrengthFactor | None = None
    leader: LeaderRating | None = None
    unit_class: UnitClass | None = None
    commissar: bool = False
    broken: bool = False
    elite: bool = False
    inexperienced: bool = False
    fanatic: bool = False
    ss: bool = False
    nkvd: bool = False
    gurkha: bool = False
    tags: frozenset[str] = frozenset()
    # not subject to Heat of Battle (A15.1)
    unarmed: bool = False
    temporary_crew: bool = False
    prc: bool = False
    human_wave: bool = False
    berserk: bool = False
    climbing: bool = False
    swimming: bool = False
    wading: bool = False
    in_boat: bool = False
    on_parachute: bool = False

    def __post_init__(self) -> None:
        if self.kind in (UnitKind.LEADER,) and self.leader is None:
            raise BadInput("a leader needs its rating (e.g. 8-1) for Heat of Battle")
        if self.kind in (UnitKind.VEHICLE, UnitKind.GUN):
            raise BadInput(f"Heat of Battle (A15.1) is rolled by Personnel, not by a {self.kind.value}")

    @classmethod
    def from_type(cls, nationality: Nationality, mmc: MMCType, **state: bool) -> HobUnit:
        """An MMC of catalogue type *mmc*, with its tags (``SS``, ``NKVD``) as flags, plus *state* flags.

        :raises BadInput: for a flag HobUnit does not have.
        """
        unknown = set(state) - _FLAGS
        if unknown:
            raise BadInput(f"unknown Heat of Battle unit state {', '.join(sorted(unknown))}")
        flags: dict[str, Any] = dict(state)
        return cls(nationality, mmc.kind, mmc.strength, unit_class=mmc.unit_class, tags=mmc.tags, **flags)

    @property
    def is_leader(self) -> bool:
        return self.kind == UnitKind.LEADER

    @property
    def is_elite(self) -> bool:
        return self.elite or self.unit_class == UnitClass.ELITE

    @property
    def is_inexperienced(self) -> bool:
        return self.inexperienced or (self.unit_class is not None and self.unit_class.is_inexperienced)

    @property
    def is_partisan(self) -> bool:
        return self.nationality == Nationality.PARTISAN or "partisan" in self.tags

    @property
    def is_ss(self) -> bool:
        return self.ss or "SS" in self.tags

    @property
    def is_nkvd(self) -> bool:
        return self.nkvd or "NKVD" in self.tags

    @property
    def designation(self) -> str:
        if self.leader is not None:
            return str(self.leader)
        if self.kind == UnitKind.HERO:
            return str(self.strength or HERO)
        return str(self.strength) if self.strength else self.kind.value

    def describe(self) -> str:
        """``"German 4-6-7 (1st Line squad)"``."""
        what = "commissar" if self.commissar else self.kind.value
        cls = f"{self.unit_class.label} " if self.unit_class and not self.is_leader else ""
        extras = [x for x, on in (("SS", self.is_ss), ("NKVD", self.is_nkvd), ("Gurkha", self.gurkha),
                                  ("Fanatic", self.fanatic), ("broken", self.broken)) if on]
        more = f", {', '.join(extras)}" if extras else ""
        return f"{self.nationality.label} {self.designation} ({cls}{what}{more})"


_FLAGS = frozenset({"commissar", "broken", "elite", "inexperienced", "fanatic", "ss", "nkvd", "gurkha", "unarmed",
                    "temporary_crew", "prc", "human_wave", "berserk", "climbing", "swimming", "wading", "in_boat",
                    "on_parachute"})


@value
class HobSituation:
    """What around the unit changes the result (A15.44, A15.5 and the PTO footnotes)."""

    known_enemy_in_los: bool = True
    adjacent_known_good_order_enemy: bool = False  # Infantry/Cavalry, A15.5
    no_quarter: bool = False
    vs_russians: bool = False
    in_pillbox: bool = False
    in_cave: bool = False
    beach_or_pier_assault: bool = False  # Assaulting/Evacuating side in a Beach Location or on a Pier (G14.32)
    closest_known_enemy_in_ocean: bool = False
    other_units_in_location: bool = False  # friendly units a berserk leader must try to turn berserk (A15.41)


def not_subject(unit: HobUnit) -> tuple[str, ...]:
    """Why *unit* is not subject to Heat of Battle (A15.1); empty if it is.

    >>> not_subject(HobUnit(Nationality.GERMAN, UnitKind.CREW, StrengthFactor.parse("2-2-8")))
    ('crew (A15.1, A21.22)',)
    """
    reasons = [
        (unit.unarmed, "unarmed (A15.1)"),
        (unit.kind == UnitKind.CAVALRY, "Cavalry (A15.1)"),
        (unit.prc, "PRC (A15.1)"),
        (unit.kind == UnitKind.HERO, "hero (A15.1)"),
        (unit.kind == UnitKind.CREW or unit.temporary_crew, "crew (A15.1, A21.22)"),
        (unit.human_wave, "in a Human Wave (A15.1)"),
        (unit.berserk, "already berserk (A15.1)"),
        (unit.climbing, "Climbing (A15.1)"),
        (unit.swimming, "Swimming (A15.1)"),
        (unit.wading, "Wading (A15.1)"),
        (unit.in_boat, "in a boat (A15.1)"),
        (unit.on_parachute, "on a parachute counter (A15.1)"),
    ]
    return tuple(text for on, text in reasons if on)


#: Nationality DRM of the Heat of Battle Table (A15.1; ../shared/rules/rules-data.md).
NATIONALITY_DRM: dict[Nationality, int] = {
    Nationality.BRITISH: -1,
    Nationality.FINNISH: -1,
    Nationality.FRENCH: +1,
    Nationality.PARTISAN: +1,
    Nationality.RUSSIAN: +2,
    Nationality.ALLIED_MINOR: +2,
    Nationality.AXIS_MINOR: +3,
    Nationality.ITALIAN: +3,
    Nationality.JAPANESE: +4,  # medium confidence in rules-data.md
}


def hob_drms(unit: HobUnit) -> tuple[DRM, ...]:
    """The cumulative Heat of Battle DRM (A15.1).  No leadership DRM applies.

    The broken +1 counts even if the unit rallied with the 2 that led to this DR.

    >>> from .explain import format_drms
    >>> format_drms(hob_drms(HobUnit(Nationality.BRITISH, unit_class=UnitClass.ELITE, broken=True)))
    '-1 Elite (A15.1), -1 British (A15.1), +1 Broken (A15.1)'
    """
    drms: list[DRM] = []
    if unit.is_elite:
        drms.append(DRM(-1, "Elite", "A15.1"))
    nat = unit.nationality
    if unit.is_partisan and nat != Nationality.PARTISAN:
        nat = Nationality.PARTISAN
    if nat in (Nationality.BRITISH, Nationality.FINNISH):
        drms.append(DRM(NATIONALITY_DRM[nat], nat.label, "A15.1"))
    if unit.broken:
        drms.append(DRM(+1, "Broken", "A15.1"))
    if unit.is_inexperienced:
        reason = "Inexperienced" if unit.inexperienced or unit.unit_class is None else \
            f"Inexperienced ({unit.unit_class.label}, A19.3)"
        drms.append(DRM(+1, reason, "A15.1"))
    if nat in NATIONALITY_DRM and nat not in (Nationality.BRITISH, Nationality.FINNISH):
        drms.append(DRM(NATIONALITY_DRM[nat], nat.label, "A15.1"))
    if unit.is_nkvd:
        drms.append(DRM(-1, "NKVD", "A15.1"))
    return tuple(drms)
