"""The results of a Heat of Battle Final DR (A15.2–A15.5; a step of :mod:`.heat_of_battle`): the table's results
and the footnoted exceptions that change them, each change kept as a :class:`Conversion`."""

from __future__ import annotations

import enum

from .heat_of_battle_roll import HobSituation, HobUnit
from .units import Nationality
from .values import value

__all__ = ["Conversion", "HobResult", "never_surrenders", "resolve_results", "table_results"]


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
