"""Heat of Battle (A15): when it is rolled, its DRM, its results, their exceptions and consequences.

A Heat of Battle DR is rolled after an Original 2 on a MC or Rally DR (A15.1).  Its
Final DR gives Hero Creation (≤ 6, A15.21), Battle Hardening (5–8, A15.3),
Berserk (9–11, A15.4) or Surrender (≥ 12, A15.5); 5 and 6 give both Hero
Creation and Battle Hardening, so a result is a tuple of :class:`HobResult`.
The footnoted exceptions (non-elite Italian/Axis Minor surrender on ≥ 10;
units that never surrender go berserk instead; Berserk becomes Battle
Hardening with no Known enemy in LOS, A15.44, and in the PTO cases) are
applied by :func:`resolve_results`, each change kept as a :class:`Conversion`.

Everything here is pure: the unit catalogue (MMC types and leader ladders)
is handed in as a :class:`~asl_vassal_bridge.core.units.NationalCatalogue`.

>>> unit = HobUnit(Nationality.GERMAN, UnitKind.SQUAD, StrengthFactor.parse("4-6-7"), unit_class=UnitClass.FIRST_LINE)
>>> [str(c) for c in hob_odds(unit)]
['Hero Creation: 6/36', 'Hero Creation + Battle Hardening: 9/36', 'Battle Hardening: 11/36', 'Berserk: 9/36', \
'Disruption: 1/36']
>>> hob = heat_of_battle(unit, Roll(4, 4))
>>> hob.final, [r.label for r in hob.results]
(8, ['Battle Hardening'])
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from .dice import DR_DISTRIBUTION, Dice, Roll
from .errors import BadInput, IllegalAction
from .explain import DRM, Event, Report, format_drms
from .position import UnitKind
from .units import (
    STANDARD_LEADER_LADDER,
    LeaderRating,
    MMCType,
    NationalCatalogue,
    Nationality,
    StrengthFactor,
    UnitClass,
    next_grade,
)
from .values import value

__all__ = [
    "HERO",
    "WOUNDED_HERO",
    "BattleHardening",
    "BerserkOutcome",
    "ChargeAdvice",
    "ChargeCandidate",
    "Conversion",
    "HeatOfBattle",
    "HeroCreation",
    "HobResult",
    "HobSituation",
    "HobUnit",
    "NotSubjectToHeatOfBattle",
    "OutcomeChance",
    "SurrenderOutcome",
    "Trigger",
    "battle_hardening",
    "berserk_returns_to_normal",
    "charge_target",
    "follows",
    "heat_of_battle",
    "hero_creation",
    "hob_drms",
    "hob_odds",
    "never_surrenders",
    "not_subject",
    "resolve_results",
    "result_chance",
    "table_results",
]

#: A hero's Strength Factor, and its wounded side (A15.2).
HERO = StrengthFactor(1, 4, 9)
WOUNDED_HERO = StrengthFactor(1, 3, 8)

#: Berserk units' base Morale Level (A15.42) and Movement Factors (A15.431).
BERSERK_MORALE = 10
BERSERK_MF = 8

#: Tags (from the catalogue) that name a formation rather than a different unit type (A15.3 candidates).
FORMATION_TAGS = frozenset({"SS", "Lehr", "OBLI", "airborne", "FJ", "Hungarian"})


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


class HobResult(enum.Enum):
    """A result of the Heat of Battle Table, with its rule."""

    HERO_CREATION = ("Hero Creation", "A15.21")
    BATTLE_HARDENING = ("Battle Hardening", "A15.3")
    BERSERK = ("Berserk", "A15.4")
    SURRENDER = ("Surrender", "A15.5")
    #: A Surrender result with no ADJACENT Known Good Order enemy Infantry/Cavalry: broken and Disrupted only.
    DISRUPTION = ("Disruption", "A15.5")

    def __init__(self, label: str, rule: str) -> None:
        self.label = label
        self.rule = rule

    def __repr__(self) -> str:
        return f"HobResult.{self.name}"

    def __str__(self) -> str:
        return f"{self.label} ({self.rule})"


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


# ---------------------------------------------------------------------------------------------- who rolls


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


# ---------------------------------------------------------------------------------------------- results


def table_results(final: int) -> tuple[HobResult, ...]:
    """The Heat of Battle Table (A15.1): ≤ 6 Hero, 5–8 Battle Hardening, 9–11 Berserk, ≥ 12 Surrender.

    >>> table_results(5)
    (HobResult.HERO_CREATION, HobResult.BATTLE_HARDENING)
    """
    out: list[HobResult] = []
    if final <= 6:
        out.append(HobResult.HERO_CREATION)
    if 5 <= final <= 8:
        out.append(HobResult.BATTLE_HARDENING)
    if 9 <= final <= 11:
        out.append(HobResult.BERSERK)
    if final >= 12:
        out.append(HobResult.SURRENDER)
    return tuple(out)


@value
class Conversion:
    """One footnoted exception: a table result changed into another, and why."""

    before: HobResult
    after: HobResult
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.before.label} → {self.after.label}: {self.reason} ({self.rule})"


def never_surrenders(unit: HobUnit, situation: HobSituation = HobSituation()) -> str | None:
    """Why *unit* never surrenders nor is Disrupted by A15.5 (and goes berserk instead), or None."""
    if situation.no_quarter:
        return "subject to No Quarter"
    if unit.nationality == Nationality.JAPANESE:
        return "Japanese"
    if unit.gurkha:
        return "Gurkha"
    if unit.is_partisan:
        return "Partisan"
    if unit.fanatic:
        return "Fanatic"
    if unit.commissar:
        return "Commissar"
    if unit.is_ss and situation.vs_russians:
        return "SS vs Russians"
    return None


def _hardening_instead(unit: HobUnit, situation: HobSituation, berserk: bool = False) -> tuple[str, str] | None:
    """The footnote cases that turn Berserk (or Surrender) into Battle Hardening: (reason, rule)."""
    if berserk and not situation.known_enemy_in_los:
        return "no Known enemy unit in its LOS", "A15.44"
    if unit.nationality == Nationality.JAPANESE and situation.in_pillbox:
        return "Japanese in a Pillbox", "G1.62"
    if unit.nationality == Nationality.JAPANESE and situation.in_cave:
        return "Japanese in a Cave", "G11.97"
    if berserk and situation.closest_known_enemy_in_ocean:
        return "its closest Known enemy unit is in Ocean", "G13.491"
    if situation.beach_or_pier_assault:
        return "Assaulting/Evacuating side in a Beach Location or on a Pier", "G14.32"
    return None


def resolve_results(final: int, unit: HobUnit,
                    situation: HobSituation = HobSituation()) -> tuple[tuple[HobResult, ...], tuple[Conversion, ...]]:
    """The results of a Final Heat of Battle DR after every exception, and the conversions made (A15.1 notes).

    >>> resolve_results(10, HobUnit(Nationality.ITALIAN))[0]
    (HobResult.DISRUPTION,)
    """
    results = list(table_results(final))
    conversions: list[Conversion] = []

    def convert(before: HobResult, after: HobResult, reason: str, rule: str) -> None:
        results[results.index(before)] = after
        conversions.append(Conversion(before, after, reason, rule))

    minor = unit.nationality in (Nationality.ITALIAN, Nationality.AXIS_MINOR)
    if HobResult.BERSERK in results and final >= 10 and minor and not unit.is_elite:
        convert(HobResult.BERSERK, HobResult.SURRENDER, f"non-elite {unit.nationality.label} on ≥ 10", "A15.4")
    if HobResult.SURRENDER in results:
        instead = _hardening_instead(unit, situation)
        never = never_surrenders(unit, situation)
        if instead is not None:
            convert(HobResult.SURRENDER, HobResult.BATTLE_HARDENING, *instead)
        elif never is not None:
            convert(HobResult.SURRENDER, HobResult.BERSERK, f"{never}: never surrenders", "A15.5")
        elif not situation.adjacent_known_good_order_enemy:
            convert(HobResult.SURRENDER, HobResult.DISRUPTION,
                    "no ADJACENT Known Good Order enemy Infantry/Cavalry", "A15.5")
    if HobResult.BERSERK in results:
        instead = _hardening_instead(unit, situation, berserk=True)
        if instead is not None:
            convert(HobResult.BERSERK, HobResult.BATTLE_HARDENING, *instead)
    return tuple(results), tuple(conversions)


# ---------------------------------------------------------------------------------------------- consequences


@value
class HeroCreation:
    """A hero created (A15.21): a new 1-4-9 beside an MMC, or the leader himself turned heroic."""

    hero: StrengthFactor
    wounded: StrengthFactor
    heroic_leader: LeaderRating | None = None
    rallied: bool = False
    before_hardening: LeaderRating | None = None

    def events(self) -> tuple[Event, ...]:
        if self.heroic_leader is None:
            return (
                Event("A15.21", f"a {self.hero} hero is created beside the MMC (its wounded side is {self.wounded})",
                      kind="hero"),
                Event("A15.21", "the new hero takes the MMC's fire/movement markers (e.g. Prep Fire, TI); "
                                "the MMC is otherwise unaffected", kind="hero"),
            )
        who = f"{self.heroic_leader}"
        refused = ""
        if self.before_hardening is not None and self.before_hardening != self.heroic_leader:
            who = f"{self.before_hardening} (as a {self.heroic_leader} after Battle Hardening)"
            m = max(HERO.morale, self.before_hardening.morale)
            if m != self.hero.morale:
                refused = f"; 1-4-{m} if Battle Hardening is refused"
        out = [Event("A15.21", f"the {who} leader turns heroic: a {self.hero} hero ({self.wounded} if wounded"
                               f"{refused}) marked with a Hero counter; it keeps its leadership and leader "
                               f"abilities", kind="hero"),
               Event("A15.21", "its heroic DRM and leadership DRM may not be combined", kind="hero")]
        if self.rallied:
            out.insert(1, Event("A15.21", "the leader rallies automatically", kind="rally"))
        return tuple(out)


def hero_creation(unit: HobUnit, leader: LeaderRating | None = None) -> HeroCreation:
    """The hero *unit* creates (A15.21); *leader* is the leader's rating to use (after Battle Hardening).

    A heroic 10-2 or 10-3 leader keeps its morale: 1-4-10 (1-3-9 wounded).
    """
    if not unit.is_leader:
        return HeroCreation(HERO, WOUNDED_HERO)
    rating = leader or unit.leader
    assert rating is not None
    morale = max(HERO.morale, rating.morale)
    return HeroCreation(StrengthFactor(1, 4, morale), StrengthFactor(1, 3, morale - 1), rating, unit.broken,
                        unit.leader)


@value
class BattleHardening:
    """Battle Hardening (A15.3): the replacement, or Fanatic status, or why nothing is known.

    *options* holds every replacement with the least gain (more than one: the owner picks);
    *skipped* the higher classes that had no unit without a lower number.
    """

    before: str
    after: str | None = None
    fanatic: bool = False
    options: tuple[MMCType, ...] = ()
    skipped: tuple[UnitClass, ...] = ()
    note: str = ""
    rallied: bool = False

    @property
    def changes(self) -> bool:
        return self.after is not None or self.fanatic

    @property
    def refusable(self) -> bool:
        """Any change Battle Hardening makes (a new unit, Fanatic status) can be refused (A15.3)."""
        return self.changes

    def events(self) -> tuple[Event, ...]:
        out: list[Event] = []
        if self.after is not None:
            out.append(Event("A15.3", f"{self.before} is exchanged for a {self.after}"
                                      f"{' (unbroken, unpinned)' if self.rallied else ''}", kind="hardening"))
            if self.options:
                names = ", ".join(o.describe() for o in self.options)
                out.append(Event("A15.3", f"equal least gain: {names}", kind="hardening"))
            for c in self.skipped:
                out.append(Event("A15.3", f"no {c.label} unit of the same size without a lower number; "
                                          f"next class up", kind="hardening"))
        if self.fanatic:
            out.append(Event("A15.3", f"{self.before} becomes Fanatic (A10.8) for the rest of the game, "
                                      f"even if later Replaced or Reduced", kind="hardening"))
        if self.note:
            out.append(Event("A15.3", f"{self.before}: {self.note}", kind="hardening"))
        if self.refusable:
            out.append(Event("A15.3", "the owner may refuse Battle Hardening", kind="hardening"))
        return tuple(out)


def _candidate(unit: HobUnit, strength: StrengthFactor, m: MMCType) -> bool:
    """*m* may replace *unit* (of *strength*): same size, Korean War or not alike, no special type it lacks (A15.3)."""
    if m.kind != unit.kind or ("korea" in m.tags) != ("korea" in unit.tags):
        return False
    return m.tags - FORMATION_TAGS <= unit.tags and m.strength.none_lower_than(strength)


def battle_hardening(unit: HobUnit, catalogue: NationalCatalogue | None = None) -> BattleHardening:
    """What Battle Hardening does to *unit* (A15.3), from its nationality's *catalogue*.

    Leaders step up their ladder (a Finnish/Japanese 9-1 to 10-0); MMC become the
    same size of the next higher class with no number lower and the least gain;
    an elite MMC, the best possible leader or a partisan becomes Fanatic instead.

    >>> battle_hardening(HobUnit(Nationality.GERMAN, UnitKind.LEADER, leader=LeaderRating.parse("9-2"))).after
    '10-2'
    """
    before = unit.designation
    if unit.is_leader:
        assert unit.leader is not None
        if catalogue is not None:
            ladder = catalogue.commissars if unit.commissar else catalogue.leaders
        else:
            ladder = () if unit.commissar else STANDARD_LEADER_LADDER
        if not ladder:
            return BattleHardening(before, note=f"no {unit.nationality.label} commissar ladder known")
        nxt = next_grade(unit.leader, ladder)
        if nxt is not None:
            return BattleHardening(before, str(nxt), rallied=unit.broken)
        why = "the best possible leader"
    elif unit.is_partisan or unit.is_elite:
        why = "a partisan" if unit.is_partisan else "already elite"
    elif unit.unit_class is None or unit.strength is None:
        return BattleHardening(before, note=f"its class is not in the {unit.nationality.label} catalogue: "
                                            f"choose the next higher class by hand")
    else:
        return _next_class(unit, unit.unit_class, unit.strength, catalogue)
    if unit.fanatic:
        return BattleHardening(before, note="already Fanatic, so no loftier status from another Battle Hardening")
    return BattleHardening(before, fanatic=True, note=why)


def _next_class(unit: HobUnit, unit_class: UnitClass, strength: StrengthFactor,
                catalogue: NationalCatalogue | None) -> BattleHardening:
    """An MMC's Battle Hardening: the same size of the next higher class with no lower number, least gain (A15.3)."""
    before = unit.designation
    mmc = [m for m in (catalogue.mmc if catalogue else ()) if _candidate(unit, strength, m)]
    skipped: list[UnitClass] = []
    for cls in sorted({c for c in UnitClass if c > unit_class}):
        options = [m for m in mmc if m.unit_class == cls]
        if not options:
            if any(m.unit_class == cls for m in (catalogue.mmc if catalogue else ()) if m.kind == unit.kind):
                skipped.append(cls)
            continue
        least = min(m.strength.gain_over(strength) for m in options)
        best = [m for m in options if m.strength.gain_over(strength) == least]
        designations = sorted({m.designation for m in best})
        return BattleHardening(before, " or ".join(designations), options=tuple(best) if len(designations) > 1 else (),
                               skipped=tuple(skipped), rallied=unit.broken)
    return BattleHardening(before, note=f"no higher-class {unit.nationality.label} {unit.kind.value} without a "
                                        f"lower number is in the catalogue")


@value
class BerserkOutcome:
    """A unit gone berserk (A15.4–A15.46)."""

    rallied: bool = False
    leader: bool = False
    other_units: bool = False

    def events(self) -> tuple[Event, ...]:
        out = [Event("A15.4", "mark it BERSERK", kind="berserk")]
        if self.rallied:
            out.append(Event("A15.4", "a broken unit that goes berserk rallies automatically", kind="rally"))
        out += [
            Event("A15.42", f"base Morale Level {BERSERK_MORALE}, never lowered; a failed MC means Casualty "
                            f"Reduction, not breaking; no PAATC, LLMC or LLTC", kind="berserk"),
            Event("A15.42", "loses any CX, TI, Concealment or pinned status; gets no leadership DRM from "
                            "friendly leaders", kind="berserk"),
        ]
        if self.leader:
            who = "the other friendly units in its Location" if self.other_units else \
                "any other friendly units in its Location"
            out += [Event("A15.41", f"after any fire vs other targets in its Location, {who} (even broken; "
                                    f"not those exempt from Heat of Battle) each take a NTC modified by this "
                                    f"leader: passing makes them berserk", kind="berserk"),
                    Event("A15.41", "the leader then loses its leadership DRM until it returns to normal",
                          kind="berserk")]
        out += [
            Event("A15.43", "at the start of its MPh it must charge the nearest (in hexes) Known enemy unit in its "
                            "LOS and enter its Location to attack in CC (not into a pillbox or Fortified Building)",
                  kind="advice"),
            Event("A15.431", f"{BERSERK_MF} MF (3 if wounded), by the shortest route in MF; no Assault Movement; "
                             f"may Dash across a road", kind="advice"),
            Event("A15.45", "never charges through a Blaze, an unbridged Water Obstacle or a cliff: it charges the "
                            "next nearest Known enemy unit instead (A15.44 if none)", kind="advice"),
            Event("A15.46", "returns to Good Order when it (or its group) eliminates all Known enemy units in its "
                            "Location (at least one) by TPBF or FT in the AFPh or by CC, or when no Known enemy "
                            "unit is in its LOS at the end of a charge", kind="advice"),
        ]
        return tuple(out)


@value
class SurrenderOutcome:
    """A Surrender result (A15.5): broken, Disrupted, and surrendered if an enemy is ADJACENT."""

    surrenders: bool
    was_broken: bool = False

    def events(self) -> tuple[Event, ...]:
        broken = "stays broken" if self.was_broken else "breaks"
        out = [Event("A15.5", f"the unit {broken} and is Disrupted (A19.12)", kind="surrender")]
        if self.surrenders:
            out.append(Event("A15.5", "it surrenders at once to an ADJACENT Known Good Order enemy Infantry/Cavalry "
                                      "unit, as if in the same Location", kind="surrender"))
        else:
            out.append(Event("A15.5", "no ADJACENT Known Good Order enemy Infantry/Cavalry: no surrender",
                             kind="surrender"))
        return tuple(out)


# ---------------------------------------------------------------------------------------------- resolution


@value
class HeatOfBattle:
    """A resolved Heat of Battle DR: the roll, DRM, the results and every consequence with its rule."""

    unit: HobUnit
    roll: Roll
    drms: tuple[DRM, ...]
    results: tuple[HobResult, ...]
    table: tuple[HobResult, ...]
    conversions: tuple[Conversion, ...] = ()
    hero: HeroCreation | None = None
    hardening: BattleHardening | None = None
    berserk: BerserkOutcome | None = None
    surrender: SurrenderOutcome | None = None

    @property
    def final(self) -> int:
        return self.roll.total + sum(d.value for d in self.drms)

    def consequences(self) -> tuple[Event, ...]:
        """Every consequence, in order, each with its rule."""
        out: list[Event] = [Event(c.rule, f"{c.before.label} → {c.after.label}: {c.reason}", kind="exception")
                            for c in self.conversions]
        for part in (self.hero, self.hardening, self.berserk, self.surrender):
            if part is not None:
                out += part.events()
        return tuple(out)

    def headline(self) -> str:
        """``"Heat of Battle (A15.1): DR 8 (4,4), no DRM → Final 8: Battle Hardening (A15.3)"``."""
        results = " + ".join(str(r) for r in self.results)
        return f"Heat of Battle (A15.1): DR {self.roll}, {format_drms(self.drms)} → Final {self.final}: {results}"

    def report(self) -> Report:
        """The headline as the title, then every consequence."""
        return Report(f"{self.unit.describe()}: {self.headline()}", self.consequences())


def heat_of_battle(unit: HobUnit, dice: Dice | Roll, situation: HobSituation = HobSituation(),
                   catalogue: NationalCatalogue | None = None) -> HeatOfBattle:
    """Roll (or take) the Heat of Battle DR for *unit* and resolve it (A15).

    :raises NotSubjectToHeatOfBattle: if A15.1 exempts the unit (the message says why).
    """
    reasons = not_subject(unit)
    if reasons:
        raise NotSubjectToHeatOfBattle(f"{unit.describe()} is not subject to Heat of Battle: {', '.join(reasons)}")
    roll = dice if isinstance(dice, Roll) else dice.DR("Heat of Battle (A15.1)")
    if roll.is_dr:
        raise BadInput(f"Heat of Battle needs a DR (two dice), not a dr ({roll})")
    drms = hob_drms(unit)
    final = roll.total + sum(d.value for d in drms)
    results, conversions = resolve_results(final, unit, situation)
    hardening = battle_hardening(unit, catalogue) if HobResult.BATTLE_HARDENING in results else None
    hero = None
    if HobResult.HERO_CREATION in results:
        after = hardening.after if hardening is not None and unit.is_leader else None
        hero = hero_creation(unit, LeaderRating.parse(after) if after is not None else None)
    berserk = None
    if HobResult.BERSERK in results:
        berserk = BerserkOutcome(rallied=unit.broken, leader=unit.is_leader,
                                 other_units=situation.other_units_in_location)
    surrender = None
    if HobResult.SURRENDER in results or HobResult.DISRUPTION in results:
        surrender = SurrenderOutcome(HobResult.SURRENDER in results, unit.broken)
    return HeatOfBattle(unit, roll, drms, results, table_results(final), conversions,
                        hero, hardening, berserk, surrender)


# ---------------------------------------------------------------------------------------------- odds


@value
class OutcomeChance:
    """One combination of results, the Final DRs that give it, and its exact chance (ways of 36)."""

    results: tuple[HobResult, ...]
    ways: int
    finals: tuple[int, ...] = ()
    originals: tuple[int, ...] = ()

    @property
    def chance(self) -> Fraction:
        return Fraction(self.ways, 36)

    @property
    def label(self) -> str:
        return " + ".join(r.label for r in self.results)

    def __str__(self) -> str:
        return f"{self.label}: {self.ways}/36"


def hob_odds(unit: HobUnit, situation: HobSituation = HobSituation()) -> tuple[OutcomeChance, ...]:
    """The exact chance of each combination of results (fractions of 36), in table order."""
    total = sum(d.value for d in hob_drms(unit))
    groups: dict[tuple[HobResult, ...], list[int]] = {}
    for original in range(2, 13):
        results, _ = resolve_results(original + total, unit, situation)
        groups.setdefault(results, []).append(original)
    return tuple(OutcomeChance(res, sum(DR_DISTRIBUTION[o] for o in origs), tuple(o + total for o in origs),
                               tuple(origs)) for res, origs in groups.items())


def result_chance(odds: Iterable[OutcomeChance], result: HobResult) -> Fraction:
    """The chance of *result* whatever else comes with it (e.g. Hero Creation, with or without Battle Hardening)."""
    return Fraction(sum(o.ways for o in odds if result in o.results), 36)


# ---------------------------------------------------------------------------------------------- berserk advice


@value
class ChargeCandidate:
    """A Known enemy unit a berserk unit might charge (A15.43, A15.45).

    *blocked_by* names what bars every shortest route (``"Blaze"``, ``"unbridged Water Obstacle"``,
    ``"cliff"``); *alternate_hexes* is the length of a route around it, if any.
    """

    name: str
    hexes: int
    known: bool = True
    in_los: bool = True
    blocked_by: str | None = None
    alternate_hexes: int | None = None


@value
class ChargeAdvice:
    """The unit(s) a berserk unit must charge (several if equidistant: the ATTACKER chooses), and why."""

    targets: tuple[str, ...]
    notes: tuple[Event, ...] = ()

    def describe(self) -> str:
        who = " or ".join(self.targets) + (" (equidistant: the ATTACKER chooses)" if len(self.targets) > 1 else "")
        notes = "; ".join(e.describe() for e in self.notes)
        return f"charge {who} (A15.43)" + (f"; {notes}" if notes else "")


def charge_target(candidates: Sequence[ChargeCandidate]) -> ChargeAdvice | None:
    """Which Known enemy unit in LOS a berserk unit charges (A15.43), skipping barred ones (A15.45).

    None means nothing can be charged: a new berserk result becomes Battle Hardening (A15.44).

    >>> charge_target([ChargeCandidate("A", 2, blocked_by="Blaze"), ChargeCandidate("B", 3)]).targets
    ('B',)
    """
    if any(c.hexes < 0 for c in candidates):
        raise BadInput("a charge candidate's range in hexes must be ≥ 0")
    seen = sorted((c for c in candidates if c.known and c.in_los), key=lambda c: c.hexes)
    notes: list[Event] = []
    pool = list(seen)
    while pool:
        nearest = pool[0].hexes
        group = [c for c in pool if c.hexes == nearest]
        rest = [c for c in pool if c.hexes > nearest]
        next_distance = rest[0].hexes if rest else None
        open_ = [c.name for c in group if c.blocked_by is None]
        around = [c for c in group if c.blocked_by is not None and c.alternate_hexes is not None
                  and (next_distance is None or c.alternate_hexes < next_distance)]
        if open_ or around:
            for c in around:
                notes.append(Event("A15.45", f"{c.name}: around the {c.blocked_by} ({c.alternate_hexes} hexes)"))
            return ChargeAdvice(tuple(open_ + [c.name for c in around]), tuple(notes))
        for c in group:
            notes.append(Event("A15.45", f"{c.name}: will not charge through a {c.blocked_by}"))
        pool = rest
    return None


def berserk_returns_to_normal(cleared_location_by: str | None = None,
                              known_enemy_in_los_at_end_of_charge: bool = True) -> Event | None:
    """Whether a berserk unit returns to Good Order (A15.46), as an Event, or None.

    *cleared_location_by* is how it (or its group) eliminated all (at least one) Known enemy units
    in its Location: ``"TPBF"`` or ``"FT"`` in the AFPh, or ``"CC"``.

    :raises BadInput: for any other means.
    """
    if cleared_location_by is not None:
        if cleared_location_by not in ("TPBF", "FT", "CC"):
            raise BadInput(f"berserk return to normal (A15.46): {cleared_location_by!r} is not TPBF, FT or CC")
        return Event("A15.46", f"eliminated all Known enemy units in its Location by {cleared_location_by}: "
                               f"returns to Good Order", kind="rally")
    if not known_enemy_in_los_at_end_of_charge:
        return Event("A15.46", "no Known enemy unit in its LOS at the end of its charge: berserk status removed "
                               "at the end of the phase (A15.431)", kind="rally")
    return None
