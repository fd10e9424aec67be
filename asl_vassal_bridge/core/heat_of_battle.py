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

One module per step: :mod:`.heat_of_battle_roll` (who rolls, the DRM),
:mod:`.heat_of_battle_results` (the table's results and their exceptions),
:mod:`.heat_of_battle_outcomes` (what each result does to the unit, the
berserk unit's charge); this module rolls the DR through them and gives the
odds.  Every name is importable from here as before.

>>> from .position import UnitKind
>>> from .units import Nationality, StrengthFactor, UnitClass
>>> unit = HobUnit(Nationality.GERMAN, UnitKind.SQUAD, StrengthFactor.parse("4-6-7"), unit_class=UnitClass.FIRST_LINE)
>>> [str(c) for c in hob_odds(unit)]
['Hero Creation: 6/36', 'Hero Creation + Battle Hardening: 9/36', 'Battle Hardening: 11/36', 'Berserk: 9/36', \
'Disruption: 1/36']
>>> hob = heat_of_battle(unit, Roll(4, 4))
>>> hob.final, [r.label for r in hob.results]
(8, ['Battle Hardening'])
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from .dice import DR_DISTRIBUTION, Dice, Roll
from .errors import BadInput
from .explain import DRM, Event, Report, format_drms
from .heat_of_battle_outcomes import (
    BERSERK_MF,
    BERSERK_MORALE,
    FORMATION_TAGS,
    BattleHardening,
    BerserkOutcome,
    ChargeAdvice,
    ChargeCandidate,
    HeroCreation,
    SurrenderOutcome,
    battle_hardening,
    berserk_returns_to_normal,
    charge_target,
    hero_creation,
)
from .heat_of_battle_results import Conversion, HobResult, never_surrenders, resolve_results, table_results
from .heat_of_battle_roll import (
    HERO,
    NATIONALITY_DRM,
    WOUNDED_HERO,
    HobSituation,
    HobUnit,
    NotSubjectToHeatOfBattle,
    Trigger,
    follows,
    hob_drms,
    not_subject,
)
from .units import LeaderRating, NationalCatalogue
from .values import value

__all__ = [
    "BERSERK_MF",
    "BERSERK_MORALE",
    "FORMATION_TAGS",
    "HERO",
    "NATIONALITY_DRM",
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
