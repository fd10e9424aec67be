"""Heat of Battle (A15): trigger, exemptions, DRM, result ranges, footnoted exceptions, consequences, odds, CLI."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

import pytest

from asl_vassal_bridge.cli import hob as hob_cli
from asl_vassal_bridge.core.dice import Roll, ScriptedDice, SeededDice
from asl_vassal_bridge.core.errors import BadInput, IllegalAction
from asl_vassal_bridge.core.explain import format_drms
from asl_vassal_bridge.core.heat_of_battle import (
    HERO,
    WOUNDED_HERO,
    ChargeCandidate,
    HobResult,
    HobSituation,
    HobUnit,
    NotSubjectToHeatOfBattle,
    Trigger,
    battle_hardening,
    berserk_returns_to_normal,
    charge_target,
    follows,
    heat_of_battle,
    hero_creation,
    hob_drms,
    hob_odds,
    never_surrenders,
    not_subject,
    resolve_results,
    result_chance,
    table_results,
)
from asl_vassal_bridge.core.position import UnitKind
from asl_vassal_bridge.core.units import (
    LeaderRating,
    MMCType,
    NationalCatalogue,
    Nationality,
    StrengthFactor,
    UnitClass,
)
from asl_vassal_bridge.data import unit_catalogue

HC, BH, BK, SU, DI = (HobResult.HERO_CREATION, HobResult.BATTLE_HARDENING, HobResult.BERSERK, HobResult.SURRENDER,
                      HobResult.DISRUPTION)
ADJ = HobSituation(adjacent_known_good_order_enemy=True)


def sq(designation: str = "4-6-7", nat: Nationality = Nationality.GERMAN, cls: UnitClass | None = UnitClass.FIRST_LINE,
       kind: UnitKind = UnitKind.SQUAD, **state: bool) -> HobUnit:
    return HobUnit(nat, kind, StrengthFactor.parse(designation), unit_class=cls, **state)  # type: ignore[arg-type]


def ldr(rating: str, nat: Nationality = Nationality.GERMAN, **state: bool) -> HobUnit:
    return HobUnit(nat, UnitKind.LEADER, leader=LeaderRating.parse(rating), **state)  # type: ignore[arg-type]


def cat(nat: Nationality) -> NationalCatalogue:
    return unit_catalogue()[nat]


def total_drm(unit: HobUnit) -> int:
    return sum(d.value for d in hob_drms(unit))


# ------------------------------------------------------------------------------------------ A15.1 when


@pytest.mark.parametrize(("original", "trigger", "expected"), [
    (2, Trigger.MC, True), (Roll(1, 1), Trigger.RALLY, True), (2, Trigger.SELF_RALLY, False),
    (3, Trigger.MC, False), (12, Trigger.MC, False), (Roll(1, 2), Trigger.RALLY, False),
])
def test_a15_1_follows_an_original_mc_or_rally_dr_of_2_not_self_rally(original: Roll | int, trigger: Trigger,
                                                                       expected: bool) -> None:
    assert follows(original, trigger) is expected


# ------------------------------------------------------------------------------------------ A15.1 exemptions


@pytest.mark.parametrize(("unit", "reason"), [
    (sq(unarmed=True), "unarmed"),
    (sq(kind=UnitKind.CAVALRY), "Cavalry"),
    (sq(prc=True), "PRC"),
    (HobUnit(Nationality.GERMAN, UnitKind.HERO, HERO), "hero"),
    (sq("2-2-8", kind=UnitKind.CREW, cls=None), "crew"),
    (sq(temporary_crew=True), "crew"),
    (sq(human_wave=True), "Human Wave"),
    (sq(berserk=True), "already berserk"),
    (sq(climbing=True), "Climbing"),
    (sq(swimming=True), "Swimming"),
    (sq(wading=True), "Wading"),
    (sq(in_boat=True), "boat"),
    (sq(on_parachute=True), "parachute"),
])
def test_a15_1_exempt_units_are_not_subject(unit: HobUnit, reason: str) -> None:
    reasons = not_subject(unit)
    assert reasons and reason in reasons[0] and "A15.1" in reasons[0]
    with pytest.raises(NotSubjectToHeatOfBattle, match=reason):
        heat_of_battle(unit, Roll(3, 3))


def test_a15_1_not_subject_is_an_illegal_action_naming_the_rule() -> None:
    with pytest.raises(IllegalAction, match="crew"):
        heat_of_battle(sq("2-2-8", kind=UnitKind.CREW, cls=None), Roll(3, 3))


@pytest.mark.parametrize("unit", [sq(), sq("2-4-7", kind=UnitKind.HALF_SQUAD), ldr("8-1"), sq(broken=True)])
def test_a15_1_personnel_are_subject(unit: HobUnit) -> None:
    assert not_subject(unit) == ()


def test_vehicles_and_leaders_without_rating_are_bad_input() -> None:
    with pytest.raises(BadInput, match="Personnel"):
        HobUnit(Nationality.GERMAN, UnitKind.VEHICLE)
    with pytest.raises(BadInput, match="rating"):
        HobUnit(Nationality.GERMAN, UnitKind.LEADER)


# ------------------------------------------------------------------------------------------ A15.1 DRM


@pytest.mark.parametrize(("unit", "drm", "reason"), [
    (sq("4-6-8", cls=UnitClass.ELITE), -1, "Elite"),
    (sq(elite=True), -1, "Elite"),
    (sq("4-5-7", Nationality.BRITISH), -1, "British"),
    (sq("6-4-8", Nationality.FINNISH), -1, "Finnish"),
    (sq(broken=True), +1, "Broken"),
    (sq(inexperienced=True), +1, "Inexperienced"),
    (sq("4-3-6", cls=UnitClass.CONSCRIPT), +1, "Inexperienced (Conscript, A19.3)"),
    (sq("3-3-6", Nationality.AMERICAN, cls=UnitClass.GREEN), +1, "Inexperienced (Green, A19.3)"),
    (sq("4-5-7", Nationality.FRENCH), +1, "French"),
    (sq("3-3-7", Nationality.PARTISAN, cls=None), +1, "Partisan"),
    (sq("4-4-7", Nationality.RUSSIAN), +2, "Russian"),
    (sq("4-5-7", Nationality.ALLIED_MINOR), +2, "Allied Minor"),
    (sq("3-4-7", Nationality.AXIS_MINOR), +3, "Axis Minor"),
    (sq("3-4-7", Nationality.ITALIAN), +3, "Italian"),
    (sq("4-4-7", Nationality.JAPANESE), +4, "Japanese"),
])
def test_a15_1_each_drm_row(unit: HobUnit, drm: int, reason: str) -> None:
    drms = hob_drms(unit)
    assert [(d.value, d.reason, d.rule) for d in drms] == [(drm, reason, "A15.1")]


def test_a15_1_nkvd_has_an_extra_minus_one_on_top_of_russian() -> None:
    unit = sq("6-2-8", Nationality.RUSSIAN, cls=None, nkvd=True)
    assert [(d.value, d.reason) for d in hob_drms(unit)] == [(+2, "Russian"), (-1, "NKVD")]


@pytest.mark.parametrize("nat", [Nationality.GERMAN, Nationality.AMERICAN])
def test_a15_1_no_nationality_drm_for_germans_and_americans(nat: Nationality) -> None:
    assert hob_drms(sq(nat=nat)) == ()


def test_a15_1_drm_are_cumulative() -> None:
    unit = sq("4-5-8", Nationality.BRITISH, cls=UnitClass.ELITE, broken=True, inexperienced=True)
    assert total_drm(unit) == -1 - 1 + 1 + 1


def test_a15_1_no_leadership_drm_for_a_leader() -> None:
    assert hob_drms(ldr("9-2")) == ()


def test_a15_1_broken_plus_one_counts_even_if_the_2_rallied_it() -> None:
    # The unit was broken when it rolled the Rally DR of 2 that led here; it rolls HoB as broken.
    rallied_by_the_2 = sq(broken=True)
    assert follows(Roll(1, 1), Trigger.RALLY)
    assert total_drm(rallied_by_the_2) == 1


# ------------------------------------------------------------------------------------------ A15.1 ranges


@pytest.mark.parametrize(("final", "results"), [
    (0, (HC,)), (2, (HC,)), (4, (HC,)), (5, (HC, BH)), (6, (HC, BH)), (7, (BH,)), (8, (BH,)),
    (9, (BK,)), (10, (BK,)), (11, (BK,)), (12, (SU,)), (15, (SU,)),
])
def test_a15_1_each_result_range(final: int, results: tuple[HobResult, ...]) -> None:
    assert table_results(final) == results


def test_a15_1_five_and_six_give_both_hero_and_battle_hardening() -> None:
    hob = heat_of_battle(sq(), Roll(2, 3), catalogue=cat(Nationality.GERMAN))
    assert hob.results == (HC, BH)
    assert hob.hero is not None and hob.hardening is not None and hob.hardening.after == "4-6-8"


# ------------------------------------------------------------------------------------------ exceptions


@pytest.mark.parametrize("nat", [Nationality.ITALIAN, Nationality.AXIS_MINOR])
@pytest.mark.parametrize(("final", "expected"), [(9, BK), (10, SU), (11, SU), (12, SU)])
def test_a15_4_non_elite_italian_and_axis_minor_surrender_on_10_or_more(nat: Nationality, final: int,
                                                                      expected: HobResult) -> None:
    assert resolve_results(final, sq("3-4-7", nat), ADJ)[0] == (expected,)


@pytest.mark.parametrize("nat", [Nationality.ITALIAN, Nationality.AXIS_MINOR])
def test_a15_4_elite_italian_and_axis_minor_go_berserk_on_10(nat: Nationality) -> None:
    assert resolve_results(10, sq("4-4-7", nat, UnitClass.ELITE), ADJ)[0] == (BK,)


@pytest.mark.parametrize(("unit", "situation", "why"), [
    (sq("4-4-7", Nationality.JAPANESE), ADJ, "Japanese"),
    (sq("4-5-7", Nationality.BRITISH, gurkha=True), ADJ, "Gurkha"),
    (sq("3-3-7", Nationality.PARTISAN, cls=None), ADJ, "Partisan"),
    (sq(fanatic=True), ADJ, "Fanatic"),
    (HobUnit(Nationality.RUSSIAN, UnitKind.LEADER, leader=LeaderRating.parse("9-0"), commissar=True), ADJ,
     "Commissar"),
    (sq(ss=True), HobSituation(adjacent_known_good_order_enemy=True, vs_russians=True), "SS vs Russians"),
    (sq(), HobSituation(adjacent_known_good_order_enemy=True, no_quarter=True), "No Quarter"),
])
def test_a15_5_units_that_never_surrender_go_berserk_on_12(unit: HobUnit, situation: HobSituation,
                                                          why: str) -> None:
    assert never_surrenders(unit, situation) is not None and why in str(never_surrenders(unit, situation))
    results, conversions = resolve_results(12, unit, situation)
    assert results == (BK,)
    assert conversions[0].before is SU and conversions[0].rule == "A15.5"
    hob = heat_of_battle(unit, Roll(6, 6 - max(0, total_drm(unit))), situation)
    assert hob.surrender is None and hob.berserk is not None


def test_a15_5_ss_surrender_against_other_enemies() -> None:
    assert resolve_results(12, sq(ss=True), ADJ)[0] == (SU,)


def test_a15_5_fanatic_non_elite_italian_goes_berserk_instead_of_surrendering_on_10() -> None:
    assert resolve_results(10, sq("3-4-7", Nationality.ITALIAN, fanatic=True), ADJ)[0] == (BK,)


def test_a15_5_surrender_needs_an_adjacent_known_good_order_enemy_else_disruption() -> None:
    assert resolve_results(12, sq(), ADJ)[0] == (SU,)
    results, conversions = resolve_results(12, sq(), HobSituation())
    assert results == (DI,)
    assert "ADJACENT" in conversions[0].reason


@pytest.mark.parametrize(("situation", "rule"), [
    (HobSituation(known_enemy_in_los=False), "A15.44"),
    (HobSituation(in_pillbox=True), "G1.62"),
    (HobSituation(in_cave=True), "G11.97"),
    (HobSituation(closest_known_enemy_in_ocean=True), "G13.491"),
    (HobSituation(beach_or_pier_assault=True), "G14.32"),
])
def test_footnote_berserk_becomes_battle_hardening(situation: HobSituation, rule: str) -> None:
    results, conversions = resolve_results(9, sq("4-4-7", Nationality.JAPANESE), situation)
    assert results == (BH,)
    assert [(c.before, c.after, c.rule) for c in conversions] == [(BK, BH, rule)]


def test_a15_44_pillbox_and_cave_only_change_japanese_berserk_results() -> None:
    assert resolve_results(9, sq(), HobSituation(in_pillbox=True))[0] == (BK,)
    assert resolve_results(9, sq(), HobSituation(in_cave=True))[0] == (BK,)


@pytest.mark.parametrize(("unit", "situation", "rule"), [
    (sq("4-4-7", Nationality.JAPANESE), HobSituation(in_pillbox=True), "G1.62"),
    (sq("4-4-7", Nationality.JAPANESE), HobSituation(in_cave=True), "G11.97"),
    (sq(), HobSituation(beach_or_pier_assault=True, adjacent_known_good_order_enemy=True), "G14.32"),
])
def test_footnote_surrender_becomes_battle_hardening(unit: HobUnit, situation: HobSituation, rule: str) -> None:
    results, conversions = resolve_results(12, unit, situation)
    assert results == (BH,)
    assert conversions[0].rule == rule


def test_ocean_does_not_change_a_surrender_result() -> None:
    assert resolve_results(12, sq(), HobSituation(closest_known_enemy_in_ocean=True))[0] == (DI,)


def test_a15_44_never_surrender_unit_without_enemy_in_los_ends_as_battle_hardening() -> None:
    results, conversions = resolve_results(12, sq(fanatic=True), HobSituation(known_enemy_in_los=False))
    assert results == (BH,)
    assert [c.rule for c in conversions] == ["A15.5", "A15.44"]


# ------------------------------------------------------------------------------------------ A15.21 heroes


def test_a15_21_an_mmc_creates_a_1_4_9_hero_sharing_its_status() -> None:
    hob = heat_of_battle(sq(broken=True), Roll(1, 2))
    assert hob.hero is not None
    assert (hob.hero.hero, hob.hero.wounded, hob.hero.heroic_leader) == (HERO, WOUNDED_HERO, None)
    text = " ".join(e.text for e in hob.consequences())
    assert "1-4-9" in text and "1-3-8" in text and "fire/movement markers" in text


def test_a15_21_a_leader_turned_hero_keeps_leadership_and_rallies() -> None:
    h = hero_creation(ldr("8-1", broken=True))
    assert (h.hero, h.heroic_leader, h.rallied) == (HERO, LeaderRating.parse("8-1"), True)
    assert any(e.kind == "rally" and e.rule == "A15.21" for e in h.events())


@pytest.mark.parametrize("rating", ["10-2", "10-3"])
def test_a15_21_a_10_morale_leader_is_a_1_4_10_hero_1_3_9_wounded(rating: str) -> None:
    h = hero_creation(ldr(rating))
    assert (str(h.hero), str(h.wounded)) == ("1-4-10", "1-3-9")


def test_a15_21_with_a_5_a_9_2_leader_is_hardened_to_10_2_and_turns_1_4_10_hero() -> None:
    hob = heat_of_battle(ldr("9-2"), Roll(2, 3), catalogue=cat(Nationality.GERMAN))
    assert hob.hardening is not None and hob.hardening.after == "10-2"
    assert hob.hero is not None and str(hob.hero.hero) == "1-4-10"


# ------------------------------------------------------------------------------------------ A15.3 Battle Hardening


@pytest.mark.parametrize(("nat", "before", "kind", "after"), [
    (Nationality.GERMAN, "2-4-7", UnitKind.HALF_SQUAD, "2-4-8"),  # A15.3 example: not the 3-4-8 SS HS
    (Nationality.GERMAN, "2-3-7", UnitKind.HALF_SQUAD, "2-4-7"),
    (Nationality.GERMAN, "2-3-6", UnitKind.HALF_SQUAD, "2-3-7"),
    (Nationality.GERMAN, "4-3-6", UnitKind.SQUAD, "4-4-7"),
    (Nationality.GERMAN, "4-4-7", UnitKind.SQUAD, "4-6-7"),
    (Nationality.GERMAN, "4-6-7", UnitKind.SQUAD, "4-6-8"),
    (Nationality.RUSSIAN, "4-2-6", UnitKind.SQUAD, "5-2-7"),
    (Nationality.RUSSIAN, "4-4-7", UnitKind.SQUAD, "4-5-8"),
    (Nationality.RUSSIAN, "5-2-7", UnitKind.SQUAD, "6-2-8"),
    (Nationality.AMERICAN, "5-3-6", UnitKind.SQUAD, "5-4-6"),
    (Nationality.AMERICAN, "5-4-6", UnitKind.SQUAD, "6-6-6"),
    (Nationality.AMERICAN, "6-6-6", UnitKind.SQUAD, "6-6-7"),
    (Nationality.BRITISH, "4-3-6", UnitKind.SQUAD, "4-4-7"),
    (Nationality.BRITISH, "4-4-7", UnitKind.SQUAD, "4-5-7"),
    (Nationality.BRITISH, "4-5-7", UnitKind.SQUAD, "4-5-8"),
    (Nationality.BRITISH, "2-4-7", UnitKind.HALF_SQUAD, "2-4-8"),
    (Nationality.ITALIAN, "3-3-6", UnitKind.SQUAD, "3-4-6"),
    (Nationality.ITALIAN, "3-4-7", UnitKind.SQUAD, "4-4-7"),
    (Nationality.JAPANESE, "3-3-6", UnitKind.SQUAD, "3-4-7"),
    (Nationality.JAPANESE, "3-4-7", UnitKind.SQUAD, "4-4-7"),
    (Nationality.JAPANESE, "4-4-7", UnitKind.SQUAD, "4-4-8"),
    (Nationality.FINNISH, "4-4-7", UnitKind.SQUAD, "5-4-8"),
    (Nationality.FRENCH, "4-3-7", UnitKind.SQUAD, "4-5-7"),
    (Nationality.AXIS_MINOR, "3-4-7", UnitKind.SQUAD, "4-4-7"),
])
def test_a15_3_mmc_ladder_steps(nat: Nationality, before: str, kind: UnitKind, after: str) -> None:
    (mmc,) = [m for m in cat(nat).find(before, kind) if not m.tags - {"korea"} and "korea" not in m.tags]
    bh = battle_hardening(HobUnit.from_type(nat, mmc), cat(nat))
    assert bh.after == after
    assert not bh.fanatic and bh.refusable


def test_a15_3_equal_least_gain_lists_every_option() -> None:
    (mmc,) = [m for m in cat(Nationality.AMERICAN).find("3-3-6") if not m.tags]
    bh = battle_hardening(HobUnit.from_type(Nationality.AMERICAN, mmc), cat(Nationality.AMERICAN))
    assert bh.after == "4-4-7 or 5-4-6"
    assert {o.designation for o in bh.options} == {"4-4-7", "5-4-6"}


def test_a15_3_a_class_with_no_unit_without_a_lower_number_is_skipped() -> None:
    (mmc,) = [m for m in cat(Nationality.FINNISH).find("5-3-8") if not m.tags]
    bh = battle_hardening(HobUnit.from_type(Nationality.FINNISH, mmc), cat(Nationality.FINNISH))
    assert bh.after == "5-4-8" and bh.skipped == (UnitClass.SECOND_LINE,)


def _hardenable() -> list[tuple[str, str, str]]:
    out = []
    for nat in Nationality:
        for m in unit_catalogue()[nat].mmc:
            if m.kind != UnitKind.CREW and m.unit_class not in (None, UnitClass.ELITE) and "partisan" not in m.tags:
                out.append((nat.code, m.describe(), ""))
    return out


@pytest.mark.parametrize(("nat_code", "what", "_"), _hardenable())
def test_a15_3_every_catalogue_mmc_hardens_to_a_higher_class_with_no_lower_number(
        nat_code: str, what: str, _: str) -> None:
    """The rule's invariants over the whole catalogue; which unit it picks is checked case by case below."""
    nat = Nationality.from_name(nat_code)
    nc = cat(nat)
    mmc = next(m for m in nc.mmc if m.describe() == what)
    assert mmc.unit_class is not None
    bh = battle_hardening(HobUnit.from_type(nat, mmc), nc)
    if bh.after is None:
        assert "no higher-class" in bh.note
        return
    picks = [m for m in nc.mmc if m.designation in bh.after.split(" or ") and m.kind == mmc.kind
             and m.unit_class is not None and m.unit_class > mmc.unit_class]
    assert picks
    for p in picks:
        assert p.strength.none_lower_than(mmc.strength)


@pytest.mark.parametrize(("nat_code", "before", "after"), [
    ("GE", "2-4-7", "2-4-8"),  # the A15.3 example: not the 3-4-8 SS HS, which gains more
    ("GE", "4-3-6", "4-4-7"),  # Conscript → 2nd Line, the next class
    ("GE", "4-4-7", "4-6-7"),
    ("GE", "4-6-7", "4-6-8"),
    ("RU", "4-2-6", "5-2-7"),
    ("RU", "4-4-7", "4-5-8"),  # not 6-2-8: its range is lower
    ("AM", "6-6-6", "6-6-7"),
    ("BR", "4-4-7", "4-5-7"),
    ("BR", "4-5-7", "4-5-8"),
    ("JA", "4-4-7", "4-4-8"),
    ("FI", "6-4-8", None),  # the elite 8-3-8 has a lower range: no substitute
])
def test_a15_3_battle_hardening_picks_the_next_class_with_the_least_gain(nat_code: str, before: str,
                                                                        after: str | None) -> None:
    nat = Nationality.from_name(nat_code)
    nc = cat(nat)
    mmc = next(m for m in nc.mmc if m.designation == before and not m.tags)
    assert battle_hardening(HobUnit.from_type(nat, mmc), nc).after == after


def test_a15_3_broken_unit_is_exchanged_for_an_unbroken_unpinned_one() -> None:
    bh = battle_hardening(sq("4-4-7", cls=UnitClass.SECOND_LINE, broken=True), cat(Nationality.GERMAN))
    assert bh.rallied and "unbroken, unpinned" in bh.events()[0].text


def test_a15_3_battle_hardening_can_be_refused() -> None:
    bh = battle_hardening(sq(), cat(Nationality.GERMAN))
    assert bh.refusable and any("refuse" in e.text for e in bh.events())


@pytest.mark.parametrize("unit", [sq("4-6-8", cls=UnitClass.ELITE), sq("3-3-7", Nationality.PARTISAN, cls=None),
                                  ldr("10-3")])
def test_a15_3_elite_mmc_partisan_and_best_leader_become_fanatic(unit: HobUnit) -> None:
    bh = battle_hardening(unit, cat(unit.nationality))
    assert bh.fanatic and bh.after is None
    assert any("Fanatic (A10.8)" in e.text for e in bh.events())


def test_a15_3_already_fanatic_elite_gets_nothing_loftier() -> None:
    bh = battle_hardening(sq("4-6-8", cls=UnitClass.ELITE, fanatic=True), cat(Nationality.GERMAN))
    assert not bh.changes and "loftier" in bh.note


@pytest.mark.parametrize(("nat", "before", "after"), [
    (Nationality.GERMAN, "6+1", "7-0"), (Nationality.GERMAN, "8-0", "8-1"), (Nationality.GERMAN, "9-2", "10-2"),
    (Nationality.FINNISH, "9-1", "10-0"), (Nationality.JAPANESE, "9-1", "10-0"),
])
def test_a15_3_leaders_go_up_one_grade(nat: Nationality, before: str, after: str) -> None:
    assert battle_hardening(ldr(before, nat), cat(nat)).after == after


def test_a15_3_commissar_ladder_and_best_commissar() -> None:
    ru = cat(Nationality.RUSSIAN)
    com = HobUnit(Nationality.RUSSIAN, UnitKind.LEADER, leader=LeaderRating.parse("9-0"), commissar=True)
    assert battle_hardening(com, ru).after == "10-0"
    best = HobUnit(Nationality.RUSSIAN, UnitKind.LEADER, leader=LeaderRating.parse("10-0"), commissar=True)
    assert battle_hardening(best, ru).fanatic


def test_a15_3_unknown_class_asks_for_a_choice() -> None:
    bh = battle_hardening(sq("5-5-8", Nationality.AMERICAN, cls=None), cat(Nationality.AMERICAN))
    assert bh.after is None and "class" in bh.note and not bh.refusable


def test_from_type_takes_tags_and_rejects_unknown_state() -> None:
    ss = MMCType(StrengthFactor.parse("6-5-8"), UnitKind.SQUAD, UnitClass.ELITE, frozenset({"SS"}))
    unit = HobUnit.from_type(Nationality.GERMAN, ss, broken=True)
    assert unit.is_ss and unit.broken
    with pytest.raises(BadInput, match="sleepy"):
        HobUnit.from_type(Nationality.GERMAN, ss, sleepy=True)


# ------------------------------------------------------------------------------------------ A15.4 berserk


def test_a15_4_berserk_consequences() -> None:
    hob = heat_of_battle(sq(broken=True), Roll(4, 4))  # 8 + 1 broken = 9
    assert hob.results == (BK,)
    assert hob.berserk is not None and hob.berserk.rallied
    rules = [e.rule for e in hob.consequences()]
    assert {"A15.4", "A15.42", "A15.43", "A15.431", "A15.45", "A15.46"} <= set(rules)
    text = " ".join(e.text for e in hob.consequences())
    assert "Morale Level 10" in text and "Blaze" in text


def test_a15_41_a_berserk_leader_makes_others_take_a_ntc_and_loses_its_drm() -> None:
    hob = heat_of_battle(ldr("8-1"), Roll(5, 5), HobSituation(other_units_in_location=True))
    events = [e for e in hob.consequences() if e.rule == "A15.41"]
    assert len(events) == 2 and "NTC" in events[0].text and "leadership DRM" in events[1].text


def test_a15_43_charge_the_nearest_known_enemy_in_los() -> None:
    advice = charge_target([ChargeCandidate("B", 3), ChargeCandidate("A", 2), ChargeCandidate("C", 1, known=False),
                            ChargeCandidate("D", 1, in_los=False)])
    assert advice is not None and advice.targets == ("A",)


def test_a15_43_equidistant_targets_are_the_attackers_choice() -> None:
    advice = charge_target([ChargeCandidate("A", 2), ChargeCandidate("B", 2), ChargeCandidate("C", 4)])
    assert advice is not None and advice.targets == ("A", "B")
    assert "ATTACKER chooses" in advice.describe()


@pytest.mark.parametrize("barrier", ["Blaze", "unbridged Water Obstacle", "cliff"])
def test_a15_45_never_charges_through_a_blaze_water_or_cliff(barrier: str) -> None:
    advice = charge_target([ChargeCandidate("A", 1, blocked_by=barrier), ChargeCandidate("B", 3)])
    assert advice is not None and advice.targets == ("B",)
    assert barrier in advice.notes[0].text and advice.notes[0].rule == "A15.45"


def test_a15_45_a_shorter_way_around_still_charges_the_nearest() -> None:
    advice = charge_target([ChargeCandidate("A", 1, blocked_by="Blaze", alternate_hexes=2), ChargeCandidate("B", 3)])
    assert advice is not None and advice.targets == ("A",)
    longer = charge_target([ChargeCandidate("A", 1, blocked_by="Blaze", alternate_hexes=4), ChargeCandidate("B", 3)])
    assert longer is not None and longer.targets == ("B",)


def test_a15_45_nothing_to_charge_means_a15_44_applies() -> None:
    assert charge_target([ChargeCandidate("A", 1, blocked_by="Blaze")]) is None
    assert charge_target([]) is None
    with pytest.raises(BadInput):
        charge_target([ChargeCandidate("A", -1)])


@pytest.mark.parametrize("means", ["TPBF", "FT", "CC"])
def test_a15_46_returns_to_normal_after_clearing_its_location(means: str) -> None:
    e = berserk_returns_to_normal(cleared_location_by=means)
    assert e is not None and e.rule == "A15.46" and means in e.text


def test_a15_46_returns_to_normal_with_no_known_enemy_in_los_after_a_charge() -> None:
    assert berserk_returns_to_normal(known_enemy_in_los_at_end_of_charge=False) is not None
    assert berserk_returns_to_normal() is None
    with pytest.raises(BadInput, match="MG"):
        berserk_returns_to_normal(cleared_location_by="MG")


# ------------------------------------------------------------------------------------------ A15.5 surrender


def test_a15_5_surrender_breaks_disrupts_and_surrenders_to_the_adjacent_enemy() -> None:
    hob = heat_of_battle(sq(), Roll(6, 6), ADJ)
    assert hob.results == (SU,) and hob.surrender is not None and hob.surrender.surrenders
    texts = [e.text for e in hob.consequences()]
    assert any("breaks and is Disrupted" in t for t in texts) and any("surrenders" in t for t in texts)


def test_a15_5_without_adjacent_enemy_only_broken_and_disrupted() -> None:
    hob = heat_of_battle(sq(broken=True), Roll(6, 5))
    assert hob.results == (DI,) and hob.surrender is not None and not hob.surrender.surrenders
    assert "stays broken" in hob.consequences()[1].text


# ------------------------------------------------------------------------------------------ odds


def test_exact_odds_for_a_german_1st_line_squad() -> None:
    odds = hob_odds(sq())
    assert [(o.results, o.ways) for o in odds] == [((HC,), 6), ((HC, BH), 9), ((BH,), 11), ((BK,), 9), ((DI,), 1)]
    assert result_chance(odds, HC) == Fraction(15, 36)
    assert result_chance(odds, BH) == Fraction(20, 36)
    assert odds[-1].chance == Fraction(1, 36)


def test_exact_odds_for_a_non_elite_italian_with_an_adjacent_enemy() -> None:
    odds = hob_odds(sq("3-4-7", Nationality.ITALIAN), ADJ)
    assert [(o.results, o.ways) for o in odds] == [((HC, BH), 3), ((BH,), 7), ((BK,), 5), ((SU,), 21)]


def _table(final: int) -> tuple[HobResult, ...]:
    """The A15.1 Heat of Battle Table as rules-data.md gives it (5 and 6 give both)."""
    return tuple(r for r, hit in ((HC, final <= 6), (BH, 5 <= final <= 8), (BK, 9 <= final <= 11),
                                  (SU, final >= 12)) if hit)


@pytest.mark.parametrize(("unit", "drm"), [
    (sq(), 0),  # German first line: no DRM
    (sq("4-5-8", Nationality.BRITISH, UnitClass.ELITE), -2),  # elite −1, British −1
    (sq("4-4-7", Nationality.RUSSIAN), 2),  # Russian +2
    (sq(broken=True, inexperienced=True), 2),  # broken +1, Inexperienced +1
])
def test_odds_are_the_table_at_the_units_drm_counted_in_ways_of_36(unit: HobUnit, drm: int) -> None:
    # Built apart from the code: every Original DR with its ways, through the table at Original + DRM.
    expected: dict[tuple[HobResult, ...], int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            res = _table(a + b + drm)
            expected[res] = expected.get(res, 0) + 1
    assert {o.results: o.ways for o in hob_odds(unit, ADJ)} == expected  # (an enemy ADJACENT: Surrender stands)


# ------------------------------------------------------------------------------------------ dice and reports


def test_scripted_and_seeded_dice_resolve_the_same_way() -> None:
    a = heat_of_battle(sq(), ScriptedDice([3, 4]))
    assert a.roll == Roll(3, 4) and a.final == 7 and a.results == (BH,)
    assert heat_of_battle(sq(), SeededDice(11)).roll == heat_of_battle(sq(), SeededDice(11)).roll


def test_a_dr_is_needed_not_a_dr() -> None:
    with pytest.raises(BadInput, match="two dice"):
        heat_of_battle(sq(), Roll(3))


def test_report_names_every_rule() -> None:
    hob = heat_of_battle(sq(broken=True), Roll(1, 4), catalogue=cat(Nationality.GERMAN))
    text = hob.report().text()
    assert "DR 5 (1,4), +1 Broken (A15.1) → Final 6: Hero Creation (A15.21) + Battle Hardening (A15.3)" in text
    assert "4-6-7 is exchanged for a 4-6-8 (unbroken, unpinned) (A15.3)" in text


# ------------------------------------------------------------------------------------------ CLI


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="asl-fire")
    hob_cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["hob", *argv])
    rc = args.func(args)
    return rc, capsys.readouterr().out


def test_cli_prints_drm_odds_and_ladder(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _run(["--unit", "4-6-7", "--nationality", "german"], capsys)
    assert rc == 0
    assert "German 4-6-7 (1st Line squad)" in out and "no DRM" in out
    assert "Hero Creation + Battle Hardening" in out and " 9/36" in out and " 1/36" in out
    assert "4-6-7 → 4-6-8 (A15.3)" in out


def test_cli_with_dice_prints_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _run(["--unit", "4-6-7", "--nationality", "german", "--broken", "--dice", "3,4"], capsys)
    assert rc == 0
    assert "DR 7 (3,4), +1 Broken (A15.1) → Final 8: Battle Hardening (A15.3)" in out


def test_cli_seeded_roll_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, a = _run(["--unit", "8-1", "--nationality", "russian", "--seed", "5"], capsys)
    _, b = _run(["--unit", "8-1", "--nationality", "russian", "--seed", "5"], capsys)
    assert a == b and "Final" in a and "+2 Russian (A15.1)" in a


def test_cli_no_enemy_in_los_turns_berserk_into_battle_hardening(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _run(["--unit", "2-4-7", "--nationality", "german", "--no-enemy-in-los", "--dice", "5,5"], capsys)
    assert "Berserk → Battle Hardening: no Known enemy unit in its LOS (A15.44)" in out
    assert "2-4-7 is exchanged for a 2-4-8" in out


def test_cli_ss_nationality_never_surrenders_to_russians(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _run(["--unit", "4-4-7", "--nationality", "ss", "--vs-russians", "--adjacent-enemy", "--dice", "6,6"],
                  capsys)
    assert "German 4-4-7 (2nd Line squad, SS)" in out
    assert "Surrender → Berserk: SS vs Russians: never surrenders (A15.5)" in out


def test_a15_5_cli_gurkha_nationality_never_surrenders_berserk_instead(capsys: pytest.CaptureFixture[str]) -> None:
    # Broken British 4-4-7: 12 − 1 British + 1 Broken = 12; a Gurkha goes berserk instead (A15.5).
    _, out = _run(["--unit", "4-4-7", "--nationality", "gurkha", "--broken", "--adjacent-enemy", "--dice", "6,6"],
                  capsys)
    assert "British 4-4-7 (2nd Line squad, Gurkha, broken)" in out
    assert "Surrender → Berserk: Gurkha: never surrenders (A15.5)" in out and "surrenders at once" not in out
    _, plain = _run(["--unit", "4-4-7", "--nationality", "british", "--broken", "--adjacent-enemy", "--dice", "6,6"],
                    capsys)
    assert "surrenders at once" in plain


def test_a15_1_cli_nkvd_nationality_takes_its_drm(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _run(["--unit", "4-4-7", "--nationality", "nkvd"], capsys)
    assert "+2 Russian (A15.1), -1 NKVD (A15.1)" in out


def test_a15_5_cli_gurkha_status_belongs_to_the_british(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BadInput, match=r"Gurkhas are British"):
        _run(["--unit", "4-4-7", "--nationality", "german", "--gurkha"], capsys)


def test_cli_exempt_unit(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _run(["--unit", "2-2-8", "--nationality", "german", "--size", "crew"], capsys)
    assert rc == 0 and "Not subject to Heat of Battle: crew (A15.1, A21.22)" in out
    rc, out = _run(["--unit", "1-4-9", "--nationality", "british"], capsys)
    assert "hero (A15.1)" in out


def test_cli_self_rally_never_leads_to_heat_of_battle(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _run(["--unit", "8-1", "--nationality", "german", "--trigger", "self-rally"], capsys)
    assert rc == 0 and "No Heat of Battle" in out


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _run(["--unit", "4-4-7", "--nationality", "japanese", "--dice", "6,6", "--json"], capsys)
    assert rc == 0
    data = json.loads(out)
    assert data["drms"] == [{"value": 4, "reason": "Japanese", "rule": "A15.1"}]
    assert data["roll"]["results"] == ["Berserk"]
    assert sum(o["ways"] for o in data["odds"]) == 36 and data["odds"][0]["chance"].endswith("/36")


@pytest.mark.parametrize(("argv", "message"), [
    (["--unit", "4-6-7", "--nationality", "martian"], "unknown nationality 'martian'"),
    (["--unit", "4-6", "--nationality", "german"], "bad unit '4-6'"),
    (["--unit", "4-6-7", "--nationality", "german", "--dice", "3"], "--dice '3'"),
    (["--unit", "4-6-7", "--nationality", "german", "--dice", "3,9"], "--dice '3,9'"),
    (["--unit", "4-6-7", "--nationality", "german", "--dice", "3,4", "--seed", "1"], "not both"),
    (["--unit", "2-3-8", "--nationality", "finnish", "--size", "hs"], "--class"),
    (["--unit", "2-2-8", "--nationality", "german"], "--size"),
    (["--unit", "4-6-7", "--nationality", "german", "--commissar"], "leader rating"),
])
def test_cli_bad_input_is_a_clear_error(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BadInput) as e:
        _run(argv, capsys)
    assert message in str(e.value)


def test_cli_main_prints_one_line_for_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge import cli

    assert cli.main(["hob", "--unit", "4-6-7", "--nationality", "martian"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "asl-fire hob: unknown nationality" in err


# ------------------------------------------------------------------------------------------ what a player reads
# The report's lines, word for word with their rule and kind (the CLI's --json "consequences" carry all three;
# the bridge's chat and the widget's log print each line with its rule).


def _lines(hob_or_part: object) -> list[tuple[str, str, str]]:
    events = hob_or_part.consequences() if hasattr(hob_or_part, "consequences") else \
        hob_or_part.events()  # type: ignore[attr-defined]
    return [(e.rule, e.text, e.kind) for e in events]


_BERSERK_MARK = ("A15.4", "mark it BERSERK", "berserk")
_BERSERK_RALLY = ("A15.4", "a broken unit that goes berserk rallies automatically", "rally")
_BERSERK_MORALE = [
    ("A15.42", "base Morale Level 10, never lowered; a failed MC means Casualty Reduction, not breaking; "
               "no PAATC, LLMC or LLTC", "berserk"),
    ("A15.42", "loses any CX, TI, Concealment or pinned status; gets no leadership DRM from friendly leaders",
     "berserk"),
]
_BERSERK_CHARGE = [
    ("A15.43", "at the start of its MPh it must charge the nearest (in hexes) Known enemy unit in its LOS and "
               "enter its Location to attack in CC (not into a pillbox or Fortified Building)", "advice"),
    ("A15.431", "8 MF (3 if wounded), by the shortest route in MF; no Assault Movement; may Dash across a road",
     "advice"),
    ("A15.45", "never charges through a Blaze, an unbridged Water Obstacle or a cliff: it charges the next nearest "
               "Known enemy unit instead (A15.44 if none)", "advice"),
    ("A15.46", "returns to Good Order when it (or its group) eliminates all Known enemy units in its Location (at "
               "least one) by TPBF or FT in the AFPh or by CC, or when no Known enemy unit is in its LOS at the end "
               "of a charge", "advice"),
]


def _berserk_leader_lines(who: str) -> list[tuple[str, str, str]]:
    return [("A15.41", f"after any fire vs other targets in its Location, {who} (even broken; not those exempt from "
                       f"Heat of Battle) each take a NTC modified by this leader: passing makes them berserk",
             "berserk"),
            ("A15.41", "the leader then loses its leadership DRM until it returns to normal", "berserk")]


def test_a15_4_report_of_a_broken_squad_gone_berserk_word_for_word() -> None:
    hob = heat_of_battle(sq(broken=True), Roll(4, 4))
    assert hob.report().title == ("German 4-6-7 (1st Line squad, broken): Heat of Battle (A15.1): DR 8 (4,4), "
                                  "+1 Broken (A15.1) → Final 9: Berserk (A15.4)")
    assert _lines(hob) == [_BERSERK_MARK, _BERSERK_RALLY, *_BERSERK_MORALE, *_BERSERK_CHARGE]


def test_a15_4_a_good_order_squad_gone_berserk_has_nothing_to_rally() -> None:
    assert _lines(heat_of_battle(sq(), Roll(5, 5))) == [_BERSERK_MARK, *_BERSERK_MORALE, *_BERSERK_CHARGE]


def test_a15_41_report_of_a_berserk_leader_with_other_units_in_its_location() -> None:
    hob = heat_of_battle(ldr("8-1"), Roll(5, 5), HobSituation(other_units_in_location=True))
    assert hob.report().title == "German 8-1 (leader): Heat of Battle (A15.1): DR 10 (5,5), no DRM → Final 10: " \
                                 "Berserk (A15.4)"
    assert _lines(hob) == [_BERSERK_MARK, *_BERSERK_MORALE,
                           *_berserk_leader_lines("the other friendly units in its Location"), *_BERSERK_CHARGE]


def test_a15_41_report_of_a_broken_berserk_leader_not_known_to_have_company() -> None:
    hob = heat_of_battle(ldr("8-1", broken=True), Roll(4, 4))
    assert _lines(hob) == [_BERSERK_MARK, _BERSERK_RALLY, *_BERSERK_MORALE,
                           *_berserk_leader_lines("any other friendly units in its Location"), *_BERSERK_CHARGE]


def test_a15_21_report_of_an_mmc_creating_a_hero_word_for_word() -> None:
    hob = heat_of_battle(sq(), Roll(1, 2))
    assert _lines(hob) == [
        ("A15.21", "a 1-4-9 hero is created beside the MMC (its wounded side is 1-3-8)", "hero"),
        ("A15.21", "the new hero takes the MMC's fire/movement markers (e.g. Prep Fire, TI); the MMC is otherwise "
                   "unaffected", "hero"),
    ]


def test_a15_21_report_of_a_broken_9_2_hardened_and_heroic_says_what_refusing_gives() -> None:
    hob = heat_of_battle(ldr("9-2", broken=True), Roll(2, 3), catalogue=cat(Nationality.GERMAN))
    assert hob.report().title.endswith("DR 5 (2,3), +1 Broken (A15.1) → Final 6: Hero Creation (A15.21) + "
                                       "Battle Hardening (A15.3)")
    assert _lines(hob) == [
        ("A15.21", "the 9-2 (as a 10-2 after Battle Hardening) leader turns heroic: a 1-4-10 hero (1-3-9 if wounded; "
                   "1-4-9 if Battle Hardening is refused) marked with a Hero counter; it keeps its leadership and "
                   "leader abilities", "hero"),
        ("A15.21", "the leader rallies automatically", "rally"),
        ("A15.21", "its heroic DRM and leadership DRM may not be combined", "hero"),
        ("A15.3", "9-2 is exchanged for a 10-2 (unbroken, unpinned)", "hardening"),
        ("A15.3", "the owner may refuse Battle Hardening", "hardening"),
    ]


def test_a15_21_an_8_1_hardened_to_9_1_is_a_1_4_9_hero_either_way() -> None:
    hob = heat_of_battle(ldr("8-1"), Roll(2, 3), catalogue=cat(Nationality.GERMAN))
    assert _lines(hob)[:2] == [
        ("A15.21", "the 8-1 (as a 9-1 after Battle Hardening) leader turns heroic: a 1-4-9 hero (1-3-8 if wounded) "
                   "marked with a Hero counter; it keeps its leadership and leader abilities", "hero"),
        ("A15.21", "its heroic DRM and leadership DRM may not be combined", "hero"),
    ]
    assert hob.hero is not None and hob.hero.before_hardening == LeaderRating.parse("8-1")


def test_a15_21_a_heroic_leader_without_battle_hardening_is_named_once() -> None:
    h = hero_creation(ldr("10-2"))
    assert _lines(h)[0] == ("A15.21", "the 10-2 leader turns heroic: a 1-4-10 hero (1-3-9 if wounded) marked with a "
                                      "Hero counter; it keeps its leadership and leader abilities", "hero")
    assert h.before_hardening == LeaderRating.parse("10-2")


def test_a15_5_report_of_a_surrender_word_for_word() -> None:
    hob = heat_of_battle(sq(), Roll(6, 6), ADJ)
    assert _lines(hob) == [
        ("A15.5", "the unit breaks and is Disrupted (A19.12)", "surrender"),
        ("A15.5", "it surrenders at once to an ADJACENT Known Good Order enemy Infantry/Cavalry unit, as if in the "
                  "same Location", "surrender"),
    ]


def test_a15_4_report_of_a_broken_italian_on_11_with_no_adjacent_enemy_word_for_word() -> None:
    hob = heat_of_battle(sq("3-4-7", Nationality.ITALIAN, broken=True), Roll(3, 4))
    assert hob.report().title == ("Italian 3-4-7 (1st Line squad, broken): Heat of Battle (A15.1): DR 7 (3,4), "
                                  "+1 Broken (A15.1), +3 Italian (A15.1) → Final 11: Disruption (A15.5)")
    assert hob.table == (BK,) and hob.results == (DI,)
    assert _lines(hob) == [
        ("A15.4", "Berserk → Surrender: non-elite Italian on ≥ 10", "exception"),
        ("A15.5", "Surrender → Disruption: no ADJACENT Known Good Order enemy Infantry/Cavalry", "exception"),
        ("A15.5", "the unit stays broken and is Disrupted (A19.12)", "surrender"),
        ("A15.5", "no ADJACENT Known Good Order enemy Infantry/Cavalry: no surrender", "surrender"),
    ]


def test_a15_4_conversion_of_a_non_elite_axis_minor_names_its_nationality() -> None:
    _, conversions = resolve_results(10, sq("3-4-7", Nationality.AXIS_MINOR), ADJ)
    assert [str(c) for c in conversions] == ["Berserk → Surrender: non-elite Axis Minor on ≥ 10 (A15.4)"]


@pytest.mark.parametrize(("unit", "situation", "line"), [
    (sq("4-4-7", Nationality.JAPANESE), ADJ, "Surrender → Berserk: Japanese: never surrenders (A15.5)"),
    (sq("4-5-7", Nationality.BRITISH, gurkha=True), ADJ, "Surrender → Berserk: Gurkha: never surrenders (A15.5)"),
    (sq("3-3-7", Nationality.PARTISAN, cls=None), ADJ, "Surrender → Berserk: Partisan: never surrenders (A15.5)"),
    (sq(fanatic=True), ADJ, "Surrender → Berserk: Fanatic: never surrenders (A15.5)"),
    (ldr("9-0", Nationality.RUSSIAN, commissar=True), ADJ, "Surrender → Berserk: Commissar: never surrenders (A15.5)"),
    (sq(ss=True), HobSituation(adjacent_known_good_order_enemy=True, vs_russians=True),
     "Surrender → Berserk: SS vs Russians: never surrenders (A15.5)"),
    (sq(), HobSituation(adjacent_known_good_order_enemy=True, no_quarter=True),
     "Surrender → Berserk: subject to No Quarter: never surrenders (A15.5)"),
    (sq("4-4-7", Nationality.JAPANESE), HobSituation(in_pillbox=True),
     "Surrender → Battle Hardening: Japanese in a Pillbox (G1.62)"),
    (sq("4-4-7", Nationality.JAPANESE), HobSituation(in_cave=True),
     "Surrender → Battle Hardening: Japanese in a Cave (G11.97)"),
    (sq(), HobSituation(beach_or_pier_assault=True),
     "Surrender → Battle Hardening: Assaulting/Evacuating side in a Beach Location or on a Pier (G14.32)"),
    (sq(), HobSituation(), "Surrender → Disruption: no ADJACENT Known Good Order enemy Infantry/Cavalry (A15.5)"),
])
def test_a15_5_each_surrender_exception_reads_its_reason_and_rule(unit: HobUnit, situation: HobSituation,
                                                                  line: str) -> None:
    _, conversions = resolve_results(12, unit, situation)
    assert [str(c) for c in conversions] == [line]


@pytest.mark.parametrize(("situation", "line"), [
    (HobSituation(known_enemy_in_los=False), "Berserk → Battle Hardening: no Known enemy unit in its LOS (A15.44)"),
    (HobSituation(in_pillbox=True), "Berserk → Battle Hardening: Japanese in a Pillbox (G1.62)"),
    (HobSituation(in_cave=True), "Berserk → Battle Hardening: Japanese in a Cave (G11.97)"),
    (HobSituation(closest_known_enemy_in_ocean=True),
     "Berserk → Battle Hardening: its closest Known enemy unit is in Ocean (G13.491)"),
    (HobSituation(beach_or_pier_assault=True),
     "Berserk → Battle Hardening: Assaulting/Evacuating side in a Beach Location or on a Pier (G14.32)"),
])
def test_footnote_each_berserk_exception_reads_its_reason_and_rule(situation: HobSituation, line: str) -> None:
    hob = heat_of_battle(sq("4-4-7", Nationality.JAPANESE), Roll(3, 2), situation, cat(Nationality.JAPANESE))
    assert hob.final == 9 and hob.table == (BK,) and hob.results == (BH,)
    assert _lines(hob)[0] == (line.rsplit(" (", 1)[1][:-1], line.rsplit(" (", 1)[0], "exception")


def test_a15_5_a_gurkhas_report_shows_the_table_result_and_the_berserk_it_becomes() -> None:
    hob = heat_of_battle(sq("4-5-7", Nationality.BRITISH, gurkha=True, broken=True), Roll(6, 6), ADJ)
    assert hob.table == (SU,) and hob.results == (BK,) and hob.surrender is None
    assert hob.report().title == ("British 4-5-7 (1st Line squad, Gurkha, broken): Heat of Battle (A15.1): DR 12 "
                                  "(6,6), -1 British (A15.1), +1 Broken (A15.1) → Final 12: Berserk (A15.4)")
    assert _lines(hob)[:3] == [("A15.5", "Surrender → Berserk: Gurkha: never surrenders", "exception"),
                               _BERSERK_MARK, _BERSERK_RALLY]


# ------------------------------------------------------------------------------------------ A15.3, word for word


def test_a15_3_report_of_an_mmc_exchanged_word_for_word() -> None:
    bh = battle_hardening(sq(), cat(Nationality.GERMAN))
    assert (bh.before, bh.after, bh.refusable) == ("4-6-7", "4-6-8", True)
    assert _lines(bh) == [("A15.3", "4-6-7 is exchanged for a 4-6-8", "hardening"),
                          ("A15.3", "the owner may refuse Battle Hardening", "hardening")]


def test_a15_3_a_german_conscript_goes_to_2nd_line_with_no_green_class_to_skip() -> None:
    # Germans have no Green squads: 2nd Line is the next higher quality, and nothing was skipped.
    bh = battle_hardening(sq("4-3-6", cls=UnitClass.CONSCRIPT), cat(Nationality.GERMAN))
    assert _lines(bh) == [("A15.3", "4-3-6 is exchanged for a 4-4-7", "hardening"),
                          ("A15.3", "the owner may refuse Battle Hardening", "hardening")]


def test_a15_3_report_of_a_skipped_class_word_for_word() -> None:
    (mmc,) = [m for m in cat(Nationality.FINNISH).find("5-3-8") if not m.tags]
    bh = battle_hardening(HobUnit.from_type(Nationality.FINNISH, mmc, broken=True), cat(Nationality.FINNISH))
    assert _lines(bh) == [
        ("A15.3", "5-3-8 is exchanged for a 5-4-8 (unbroken, unpinned)", "hardening"),
        ("A15.3", "no 2nd Line unit of the same size without a lower number; next class up", "hardening"),
        ("A15.3", "the owner may refuse Battle Hardening", "hardening"),
    ]


def test_a15_3_report_of_two_equal_least_gains_word_for_word() -> None:
    (mmc,) = [m for m in cat(Nationality.AMERICAN).find("3-3-6") if not m.tags]
    bh = battle_hardening(HobUnit.from_type(Nationality.AMERICAN, mmc), cat(Nationality.AMERICAN))
    assert _lines(bh) == [
        ("A15.3", "3-3-6 is exchanged for a 4-4-7 or 5-4-6", "hardening"),
        ("A15.3", "equal least gain: 4-4-7 2nd Line squad, 5-4-6 2nd Line squad", "hardening"),
        ("A15.3", "the owner may refuse Battle Hardening", "hardening"),
    ]


def test_a15_3_one_replacement_lists_no_options_even_when_several_counters_share_it() -> None:
    # The German 4-6-7 becomes a 4-6-8: the plain, Lehr and SS 4-6-8 all qualify (formation tags), one designation.
    bh = battle_hardening(sq(), cat(Nationality.GERMAN))
    assert bh.after == "4-6-8" and bh.options == ()


@pytest.mark.parametrize(("unit", "lines"), [
    (sq("4-6-8", cls=UnitClass.ELITE), ["4-6-8 becomes Fanatic (A10.8) for the rest of the game, even if later "
                                        "Replaced or Reduced", "4-6-8: already elite",
                                        "the owner may refuse Battle Hardening"]),
    (sq("3-3-7", Nationality.PARTISAN, cls=None), ["3-3-7 becomes Fanatic (A10.8) for the rest of the game, even "
                                                   "if later Replaced or Reduced", "3-3-7: a partisan",
                                                   "the owner may refuse Battle Hardening"]),
    (ldr("10-3"), ["10-3 becomes Fanatic (A10.8) for the rest of the game, even if later Replaced or Reduced",
                   "10-3: the best possible leader", "the owner may refuse Battle Hardening"]),
    (sq("4-6-8", cls=UnitClass.ELITE, fanatic=True),
     ["4-6-8: already Fanatic, so no loftier status from another Battle Hardening"]),
    (sq("3-3-7", Nationality.PARTISAN, cls=None, fanatic=True),
     ["3-3-7: already Fanatic, so no loftier status from another Battle Hardening"]),
    (ldr("10-3", fanatic=True), ["10-3: already Fanatic, so no loftier status from another Battle Hardening"]),
    (sq("5-5-8", Nationality.AMERICAN, cls=None),
     ["5-5-8: its class is not in the American catalogue: choose the next higher class by hand"]),
    (HobUnit(Nationality.GERMAN, UnitKind.SQUAD, unit_class=UnitClass.FIRST_LINE),
     ["squad: its class is not in the German catalogue: choose the next higher class by hand"]),
    (sq("6-4-8", Nationality.FINNISH),
     ["6-4-8: no higher-class Finnish squad without a lower number is in the catalogue"]),
])
def test_a15_3_fanatic_and_unchanged_results_word_for_word(unit: HobUnit, lines: list[str]) -> None:
    bh = battle_hardening(unit, cat(unit.nationality))
    assert [(e.rule, e.kind) for e in bh.events()] == [("A15.3", "hardening")] * len(lines)
    assert [e.text for e in bh.events()] == lines
    assert bh.refusable is (len(lines) > 1)


def test_a15_3_a_leader_steps_up_the_standard_ladder_without_a_catalogue() -> None:
    bh = battle_hardening(ldr("8-0", broken=True))
    assert (bh.after, bh.rallied) == ("8-1", True)
    assert _lines(bh)[0] == ("A15.3", "8-0 is exchanged for a 8-1 (unbroken, unpinned)", "hardening")


def test_a15_3_a_commissar_without_its_nationalitys_ladder_is_left_to_the_players() -> None:
    com = ldr("9-0", Nationality.RUSSIAN, commissar=True)
    bh = battle_hardening(com)
    assert not bh.changes and not bh.refusable
    assert [e.text for e in bh.events()] == ["9-0: no Russian commissar ladder known"]
    american = battle_hardening(ldr("9-0", Nationality.AMERICAN, commissar=True), cat(Nationality.AMERICAN))
    assert [e.text for e in american.events()] == ["9-0: no American commissar ladder known"]


def test_a15_3_a_class_with_no_unit_of_that_size_at_all_is_not_reported_as_skipped() -> None:
    # A hand-made nationality: no 1st Line squad exists (only a 1st Line half-squad), so 2nd Line → Elite directly.
    mmc = (MMCType(StrengthFactor.parse("4-4-7"), UnitKind.SQUAD, UnitClass.SECOND_LINE),
           MMCType(StrengthFactor.parse("2-4-7"), UnitKind.HALF_SQUAD, UnitClass.FIRST_LINE),
           MMCType(StrengthFactor.parse("4-6-8"), UnitKind.SQUAD, UnitClass.ELITE))
    bh = battle_hardening(sq("4-4-7", cls=UnitClass.SECOND_LINE), NationalCatalogue(Nationality.GERMAN, mmc))
    assert (bh.after, bh.skipped) == ("4-6-8", ())


@pytest.mark.parametrize(("nat", "before", "after"), [
    (Nationality.UN_KOREA, "4-4-7", "4-5-7"),  # only Korean War units exist for the UN forces
    (Nationality.AMERICAN, "3-3-6", "5-3-6"),  # not the WWII 4-4-7 or 5-4-6 2nd Line squads
    (Nationality.AMERICAN, "2-3-7", "3-4-7"),
])
def test_a15_3_a_korean_war_unit_hardens_into_a_korean_war_unit(nat: Nationality, before: str, after: str) -> None:
    (mmc,) = [m for m in cat(nat).find(before) if "korea" in m.tags and m.unit_class is not None]
    bh = battle_hardening(HobUnit.from_type(nat, mmc), cat(nat))
    assert bh.after == after


# ------------------------------------------------------------------------------------------ who rolls, as written


@pytest.mark.parametrize(("unit", "reasons"), [
    (sq(unarmed=True), ("unarmed (A15.1)",)),
    (sq(kind=UnitKind.CAVALRY), ("Cavalry (A15.1)",)),
    (sq(prc=True), ("PRC (A15.1)",)),
    (HobUnit(Nationality.GERMAN, UnitKind.HERO, HERO), ("hero (A15.1)",)),
    (sq(temporary_crew=True), ("crew (A15.1, A21.22)",)),
    (sq(human_wave=True), ("in a Human Wave (A15.1)",)),
    (sq(berserk=True), ("already berserk (A15.1)",)),
    (sq(climbing=True), ("Climbing (A15.1)",)),
    (sq(swimming=True), ("Swimming (A15.1)",)),
    (sq(wading=True), ("Wading (A15.1)",)),
    (sq(in_boat=True), ("in a boat (A15.1)",)),
    (sq(on_parachute=True), ("on a parachute counter (A15.1)",)),
    (sq(berserk=True, wading=True), ("already berserk (A15.1)", "Wading (A15.1)")),
])
def test_a15_1_each_exemption_reads_as_the_cli_prints_it(unit: HobUnit, reasons: tuple[str, ...]) -> None:
    assert not_subject(unit) == reasons


def test_a15_1_refusing_an_exempt_unit_names_it_and_every_reason() -> None:
    with pytest.raises(NotSubjectToHeatOfBattle) as e:
        heat_of_battle(sq(berserk=True, wading=True), Roll(3, 3))
    assert str(e.value) == ("German 4-6-7 (1st Line squad) is not subject to Heat of Battle: already berserk (A15.1), "
                            "Wading (A15.1)")


@pytest.mark.parametrize(("unit", "text"), [
    (sq(), "German 4-6-7 (1st Line squad)"),
    (sq("3-3-7", Nationality.PARTISAN, cls=None), "Partisan 3-3-7 (squad)"),
    (ldr("8-1", unit_class=None), "German 8-1 (leader)"),
    (HobUnit(Nationality.GERMAN, UnitKind.LEADER, leader=LeaderRating.parse("8-1"), unit_class=UnitClass.ELITE),
     "German 8-1 (leader)"),
    (ldr("9-0", Nationality.RUSSIAN, commissar=True), "Russian 9-0 (commissar)"),
    (sq("6-2-8", Nationality.RUSSIAN, cls=None, nkvd=True, fanatic=True, broken=True),
     "Russian 6-2-8 (squad, NKVD, Fanatic, broken)"),
    (sq("4-5-7", Nationality.BRITISH, gurkha=True), "British 4-5-7 (1st Line squad, Gurkha)"),
    (sq(ss=True), "German 4-6-7 (1st Line squad, SS)"),
    (HobUnit(Nationality.GERMAN, UnitKind.HERO), "German 1-4-9 (hero)"),
])
def test_the_unit_is_named_as_a_player_knows_it(unit: HobUnit, text: str) -> None:
    assert unit.describe() == text


def test_a_leader_without_a_rating_is_refused_in_one_line() -> None:
    with pytest.raises(BadInput) as e:
        HobUnit(Nationality.GERMAN, UnitKind.LEADER)
    assert str(e.value) == "a leader needs its rating (e.g. 8-1) for Heat of Battle"


def test_from_type_refuses_every_unknown_state_in_one_line() -> None:
    (mmc,) = [m for m in cat(Nationality.GERMAN).find("4-6-7") if not m.tags]
    with pytest.raises(BadInput) as e:
        HobUnit.from_type(Nationality.GERMAN, mmc, sleepy=True, hungry=True)
    assert str(e.value) == "unknown Heat of Battle unit state hungry, sleepy"


def test_from_type_an_ss_squad_keeps_its_status_a_plain_one_has_none() -> None:
    ge = cat(Nationality.GERMAN)
    (ss,) = [m for m in ge.find("4-4-7") if m.tags == {"SS"}]
    (plain,) = [m for m in ge.find("4-4-7") if not m.tags]
    vs_russians = HobSituation(adjacent_known_good_order_enemy=True, vs_russians=True)
    ss_unit, plain_unit = HobUnit.from_type(Nationality.GERMAN, ss), HobUnit.from_type(Nationality.GERMAN, plain)
    assert ss_unit.describe() == "German 4-4-7 (2nd Line squad, SS)"
    assert resolve_results(12, ss_unit, vs_russians)[0] == (BK,)
    assert plain_unit.describe() == "German 4-4-7 (2nd Line squad)"
    assert resolve_results(12, plain_unit, vs_russians)[0] == (SU,)
    assert HobUnit.from_type(Nationality.GERMAN, plain, ss=True).is_ss


def test_from_type_an_nkvd_squad_takes_the_nkvd_drm_a_plain_russian_does_not() -> None:
    ru = cat(Nationality.RUSSIAN)
    (nkvd,) = [m for m in ru.find("6-2-8") if m.tags == {"NKVD"}]
    (guards,) = [m for m in ru.find("6-2-8") if m.tags == {"assault engineer"}]
    assert format_drms(hob_drms(HobUnit.from_type(Nationality.RUSSIAN, nkvd))) == "+2 Russian (A15.1), -1 NKVD (A15.1)"
    assert HobUnit.from_type(Nationality.RUSSIAN, nkvd).describe() == "Russian 6-2-8 (squad, NKVD)"
    assert format_drms(hob_drms(HobUnit.from_type(Nationality.RUSSIAN, guards))) == \
        "-1 Elite (A15.1), +2 Russian (A15.1)"


def test_a15_1_a_partisan_of_another_nationality_takes_the_partisan_drm() -> None:
    (guerilla,) = [m for m in cat(Nationality.NORTH_KOREAN).find("3-3-7") if "partisan" in m.tags]
    unit = HobUnit.from_type(Nationality.NORTH_KOREAN, guerilla)
    assert format_drms(hob_drms(unit)) == "+1 Partisan (A15.1)"
    assert never_surrenders(unit) == "Partisan"


# ------------------------------------------------------------------------------------------ odds, dice, advice


def test_odds_give_the_final_drs_of_each_result_after_the_drm() -> None:
    odds = hob_odds(sq("4-4-7", Nationality.RUSSIAN), ADJ)  # +2 Russian
    assert [(o.label, o.originals, o.finals, o.ways) for o in odds] == [
        ("Hero Creation", (2,), (4,), 1),
        ("Hero Creation + Battle Hardening", (3, 4), (5, 6), 5),
        ("Battle Hardening", (5, 6), (7, 8), 9),
        ("Berserk", (7, 8, 9), (9, 10, 11), 15),
        ("Surrender", (10, 11, 12), (12, 13, 14), 6),
    ]


def test_a_result_the_unit_cannot_get_has_no_chance() -> None:
    odds = hob_odds(sq("4-4-7", Nationality.JAPANESE))  # +4, and never surrenders: Berserk from a Final 9 up
    assert result_chance(odds, SU) == Fraction(0) and str(result_chance(odds, SU)) == "0"
    assert result_chance(odds, DI) == 0 and result_chance(odds, BK) == Fraction(30, 36)


def test_the_dice_are_rolled_for_heat_of_battle_and_say_so() -> None:
    dice = ScriptedDice([2, 3])
    heat_of_battle(sq(), dice)
    assert [purpose for purpose, _ in dice.log] == ["Heat of Battle (A15.1)"]


def test_a15_43_an_enemy_in_its_own_location_is_charged_first() -> None:
    advice = charge_target([ChargeCandidate("A", 0), ChargeCandidate("B", 1)])
    assert advice is not None and advice.targets == ("A",)
    assert advice.describe() == "charge A (A15.43)"


def test_a15_43_a_negative_range_is_refused_in_one_line() -> None:
    with pytest.raises(BadInput) as e:
        charge_target([ChargeCandidate("A", -1)])
    assert str(e.value) == "a charge candidate's range in hexes must be ≥ 0"


def test_a15_45_a_way_around_as_long_as_the_next_nearest_is_not_closer() -> None:
    # The alternate route must be still closer than the next nearest Known enemy unit: equal is not closer.
    advice = charge_target([ChargeCandidate("A", 1, blocked_by="Blaze", alternate_hexes=3), ChargeCandidate("B", 3)])
    assert advice is not None and advice.targets == ("B",)
    assert advice.describe() == "charge B (A15.43); A: will not charge through a Blaze (A15.45)"


def test_a15_45_advice_around_a_barrier_word_for_word() -> None:
    advice = charge_target([ChargeCandidate("A", 1, blocked_by="cliff", alternate_hexes=2),
                            ChargeCandidate("C", 1), ChargeCandidate("B", 3)])
    assert advice is not None
    assert advice.describe() == ("charge C or A (equidistant: the ATTACKER chooses) (A15.43); "
                                 "A: around the cliff (2 hexes) (A15.45)")
    assert [(e.rule, e.text) for e in advice.notes] == [("A15.45", "A: around the cliff (2 hexes)")]
    only = charge_target([ChargeCandidate("A", 1, blocked_by="Blaze", alternate_hexes=2)])
    assert only is not None and only.describe() == "charge A (A15.43); A: around the Blaze (2 hexes) (A15.45)"


def test_a15_45_every_barred_enemy_is_named_in_the_advice() -> None:
    advice = charge_target([ChargeCandidate("A", 1, blocked_by="Blaze"),
                            ChargeCandidate("B", 2, blocked_by="unbridged Water Obstacle"), ChargeCandidate("C", 4)])
    assert advice is not None and advice.describe() == (
        "charge C (A15.43); A: will not charge through a Blaze (A15.45); "
        "B: will not charge through a unbridged Water Obstacle (A15.45)")


@pytest.mark.parametrize("means", ["TPBF", "FT", "CC"])
def test_a15_46_return_to_normal_word_for_word(means: str) -> None:
    e = berserk_returns_to_normal(cleared_location_by=means)
    assert e is not None and (e.rule, e.text, e.kind) == (
        "A15.46", f"eliminated all Known enemy units in its Location by {means}: returns to Good Order", "rally")


def test_a15_46_end_of_charge_with_no_enemy_in_los_word_for_word() -> None:
    e = berserk_returns_to_normal(known_enemy_in_los_at_end_of_charge=False)
    assert e is not None and (e.rule, e.text, e.kind) == (
        "A15.46", "no Known enemy unit in its LOS at the end of its charge: berserk status removed at the end of the "
                  "phase (A15.431)", "rally")
