"""Fire starts: Kindling (B25.11), FT (B25.12), HE (B25.13), MOL (A22.6111, A22.613), WP (A24.32),
huts, and Wreck Blazes (B25.14)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from asl_vassal_bridge.core import (
    EC,
    BuildingKind,
    Environment,
    IllegalAction,
    Material,
    Roll,
    ScriptedDice,
    Terrain,
    UnitKind,
    ft_fire_check,
    he_fire_check,
    hut_flame,
    kindling_attempt,
    kindling_check,
    mol_flames,
    wp_fire_check,
    wreck_blaze,
)
from asl_vassal_bridge.core.firestarts import (
    HutAttack,
    WreckCause,
    add_burning_wreck,
    he_fire_start,
    hut_fire_start,
    huts_fire_start,
    resolve_fire_start,
    wp_fire_start,
)
from asl_vassal_bridge.core.position import Clock, Phase, Position
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.core.victory import fire_control

from .builders import NOW, L, blaze, building, grid, pos, put


def village(env: Environment = Environment()):  # type: ignore[no-untyped-def]
    hexes = grid("T-Z", "5-10")
    put(hexes, Terrain.WOODS, ["X8", "W9", "X9"], feature="w")
    put(hexes, Terrain.GRAIN, ["V6"])
    wooden = building(hexes, "house", Material.WOODEN, ["U7"])
    fort = building(hexes, "fort", Material.STONE, ["U9"], BuildingKind.TWO_STORY, fortified=frozenset({("U9", 0)}))
    return pos(hexes, [wooden, fort], env=env)


# --- Kindling (B25.11) -------------------------------------------------------------------------


def test_b25_11_kindling_needs_kindle_number_with_reversed_leadership() -> None:
    c = kindling_check(village(), L("X8"), UnitKind.SQUAD, leader_drm=-1)
    assert c.needed == 9 and [d.value for d in c.drms] == [1] and c.needed_original == 8
    c2 = kindling_check(village(), L("X8"), UnitKind.SQUAD, leader_drm=-2)
    assert c2.needed_original == 7


def test_b25_11_smc_minus_two_hs_minus_one_ec_except_buildings_fortified_minus_one() -> None:
    p = village(Environment(EC.DRY))
    assert [d.value for d in kindling_check(p, L("X8"), UnitKind.LEADER).drms] == [-2, 1]
    assert [d.value for d in kindling_check(p, L("X8"), UnitKind.HALF_SQUAD, leader_drm=0).drms] == [-1, 1]
    assert kindling_check(p, L("U7"), UnitKind.LEADER).drms[-1].value == -2  # no EC vs a building
    assert [d.value for d in kindling_check(p, L("U9"), UnitKind.SQUAD, leader_drm=0).drms] == [-1]


def test_a22_613_a_unit_with_a_mol_adds_two_to_kindling() -> None:
    c = kindling_check(village(), L("X8"), UnitKind.SQUAD, leader_drm=0, has_mol=True)
    assert [(d.value, d.rule) for d in c.drms] == [(2, "A22.613")]
    assert c.chance == Fraction(21, 36)  # Original ≥ 7 vs Kindle # 9


@pytest.mark.parametrize(
    ("kw", "rule_text"),
    [
        ({"unit": UnitKind.SQUAD}, "stacked with a leader"),
        ({"unit": UnitKind.LEADER, "leader_drm": -1}, "both make"),
        ({"unit": UnitKind.LEADER, "smc_passed_ntc": False}, "NTC"),
        ({"unit": UnitKind.SQUAD, "leader_drm": 0, "pinned": True}, "unpinned"),
        ({"unit": UnitKind.SQUAD, "leader_drm": 0, "predesignated": False}, "predesignated"),
        ({"unit": UnitKind.VEHICLE, "leader_drm": 0}, "Infantry"),
    ],
)
def test_b25_11_illegal_kindling_is_refused_with_the_rule(kw: dict[str, object], rule_text: str) -> None:
    args = dict(kw)  # the parameters are shared by every run of the test: leave them as they are
    unit = args.pop("unit")
    with pytest.raises(IllegalAction, match=rule_text) as e:
        kindling_check(village(), L("X8"), unit, **args)  # type: ignore[arg-type]
    assert "B25.11" in str(e.value)


def test_b25_1_non_burnable_terrain_cannot_be_kindled() -> None:
    with pytest.raises(IllegalAction, match="cannot burn"):
        kindling_check(village(), L("T5"), UnitKind.LEADER)


def pfph(p: Position) -> Position:
    return replace(p, clock=Clock(NOW.turn, NOW.half, Phase.PFPH))


@pytest.mark.parametrize("phase", [ph for ph in Phase if ph is not Phase.PFPH])
def test_b25_11_a_kindling_attempt_is_refused_outside_the_pfph_before_any_die(phase: Phase) -> None:
    # One rule, one check, in the core: every caller of kindling_attempt meets it.
    p = replace(village(), clock=Clock(NOW.turn, NOW.half, phase))
    dice = ScriptedDice([6, 6])
    with pytest.raises(IllegalAction, match=r"PFPh.*B25\.11"):
        kindling_attempt(p, L("X8"), UnitKind.SQUAD, dice, side="German", leader_drm=0)
    with pytest.raises(IllegalAction, match="PFPh"):
        kindling_attempt(p, L("X8"), UnitKind.SQUAD, dice, side="German", leader_drm=0, check_phase=False)
    assert dice.remaining == 2


def test_b25_11_kindling_is_made_in_the_kindling_sides_own_pfph() -> None:
    with pytest.raises(IllegalAction, match="German PFPh, not the Russian"):
        kindling_attempt(pfph(village()), L("X8"), UnitKind.SQUAD, ScriptedDice([6, 6]), side="Russian",
                         leader_drm=0)


def test_b25_11_kindled_flame_belongs_to_the_kindling_side_for_fire_and_victory() -> None:
    p, rep = kindling_attempt(pfph(village()), L("X8"), UnitKind.SQUAD, ScriptedDice([5, 5]), side="German",
                              leader_drm=0)
    (f,) = p.flames()
    assert f.kindled_by == "German" and f.since == NOW.player_turn
    assert any(e.kind == "prep-fire" for e in rep.events)
    notes = fire_control(p)
    assert [(n.location.name, n.controlled_by) for n in notes] == [("X8", "Russian")]


def test_fire_and_victory_joined_fires_still_forfeit_the_locations_each_side_kindled() -> None:
    # The cheat sheet's joined-fires exception covers the area made unenterable, not the kindled Locations.
    p = village().with_(fires=(blaze("X8", kindled_by="German"), blaze("X9", kindled_by="Russian")))
    notes = fire_control(p)
    assert all(n.joined for n in notes)
    assert [(n.location.name, n.controlled_by) for n in notes] == [("X8", "Russian"), ("X9", "German")]
    apart = village().with_(fires=(blaze("X8", kindled_by="German"),))
    assert [n.joined for n in fire_control(apart)] == [False]


# --- FT, HE, WP ---------------------------------------------------------------------------------


def test_b25_12_ft_original_k_or_kia_vs_unarmored_target_then_dr_with_ec() -> None:
    p = village(Environment(EC.MOIST))
    c = ft_fire_check(p, L("X8"), "KIA")
    assert c is not None and c.needed == 9 and [d.value for d in c.drms] == [-1]
    assert ft_fire_check(p, L("X8"), "1KIA") is not None and ft_fire_check(p, L("X8"), "K/2") is not None
    assert ft_fire_check(p, L("X8"), "2MC") is None
    assert ft_fire_check(p, L("X8"), "KIA", target_unarmored=False) is None
    assert ft_fire_check(p, L("T5"), "KIA") is None
    new, rep = resolve_fire_start(p, c, L("X8"), ScriptedDice([5, 6]))
    assert [f.location.name for f in new.flames()] == ["X8"] and rep.events[0].rule == "B25.12"


def test_b25_13_he_fire_needs_original_kia_and_not_its_exceptions() -> None:
    p = village(Environment(EC.DRY))
    c = he_fire_check(p, L("X8"), True)
    assert c is not None and [d.value for d in c.drms] == [1]
    assert he_fire_check(p, L("U7"), True).drms == ()  # type: ignore[union-attr]  # no EC vs a building
    assert he_fire_check(p, L("X8"), False) is None
    for kw in ({"collateral": True}, {"vehicle_target_type": True}, {"created_rubble": True}):
        assert he_fire_check(p, L("X8"), True, **kw) is None


def test_a24_32_wp_fires_only_when_dry_with_their_own_drms() -> None:
    assert wp_fire_check(village(Environment(EC.MODERATE)), L("X8")) is None
    dry = wp_fire_check(village(Environment(EC.DRY)), L("X8"))
    assert dry is not None and [d.value for d in dry.drms] == [-1]
    vdry = wp_fire_check(village(Environment(EC.VERY_DRY)), L("U7"))
    assert vdry is not None and [d.value for d in vdry.drms] == [-2] and vdry.needed == 7


def test_huts_catch_fire_on_colored_one_and_wp_always_rolls() -> None:
    assert hut_flame(HutAttack.MG, colored_dr=1) and not hut_flame(HutAttack.MG, colored_dr=2)
    assert not hut_flame(HutAttack.HE_EQUIVALENCY, colored_dr=1)
    assert not hut_flame(HutAttack.COLLATERAL, colored_dr=1)
    assert hut_flame(HutAttack.FT, ft_effects_dr=5, ft_x_number=10)
    assert not hut_flame(HutAttack.FT, ft_effects_dr=10, ft_x_number=10)
    assert hut_flame(HutAttack.SW_FIRED_IN_HUT) and not hut_flame(HutAttack.SW_FIRED_IN_HUT, collapsed=True)
    assert not hut_flame(HutAttack.MOL, colored_dr=1, collapsed=True, rain_has_fallen=True)
    hexes = grid("A-C", "1-3")
    hut = building(hexes, "h", Material.WOODEN, ["B2"], BuildingKind.HUT)
    c = wp_fire_check(pos(hexes, [hut], env=Environment(EC.WET)), L("B2"))
    assert c is not None and c.needed == 6 and c.drms == ()


def hamlet(env: Environment = Environment(), *, collapsed: bool = False):  # type: ignore[no-untyped-def]
    """A hut in B3 (standing, or Collapsed: hut terrain, no building), woods in B2, open ground around."""
    hexes = grid("A-C", "1-4")
    put(hexes, Terrain.WOODS, ["B2"])
    if collapsed:
        put(hexes, Terrain.HUT, ["B3"])
        return pos(hexes, env=env)
    return pos(hexes, [building(hexes, "hut", Material.WOODEN, ["B3"], BuildingKind.HUT)], env=env)


@pytest.mark.parametrize(("attack", "colored", "flame"), [
    (HutAttack.SMALL_ARMS_PBF_TPBF, 1, True), (HutAttack.SMALL_ARMS_PBF_TPBF, 2, False), (HutAttack.MG, 1, True),
    (HutAttack.IFE, 1, True), (HutAttack.DC, 1, True), (HutAttack.HE, 1, True), (HutAttack.HE, 6, False),
    (HutAttack.HE_EQUIVALENCY, 1, False), (HutAttack.COLLATERAL, 1, False),
])
def test_huts_an_attack_vs_a_hut_location_places_a_flame_on_an_original_colored_1(attack: HutAttack, colored: int,
                                                                                  flame: bool) -> None:
    for collapsed in (False, True):  # "even if Collapsed"
        p = hamlet(collapsed=collapsed)
        new, rep = hut_fire_start(p, L("B3"), attack, original=Roll(colored, 4))
        assert bool(new.flames_at(L("B3"))) is flame
        assert [e.kind for e in rep.events] == ["flame" if flame else "no-flame"]


def test_huts_rain_stops_flames_in_a_collapsed_hut_from_every_start() -> None:
    rained = Environment(EC.WET, rain_has_fallen=True)
    new, rep = hut_fire_start(hamlet(rained, collapsed=True), L("B3"), HutAttack.MG, original=Roll(1, 1))
    assert not new.flames() and "Rain" in rep.events[0].text
    new, _ = hut_fire_start(hamlet(rained), L("B3"), HutAttack.MG, original=Roll(1, 1))  # a standing hut still burns
    assert new.flames()
    p = pfph(hamlet(rained, collapsed=True))
    with pytest.raises(IllegalAction, match="Rain"):
        kindling_check(p, L("B3"), UnitKind.LEADER)
    assert wp_fire_check(p, L("B3")) is None and ft_fire_check(p, L("B3"), "KIA") is None
    assert he_fire_check(p, L("B3"), True) is None


def test_huts_random_selection_when_more_than_one_hut_location_could_take_the_flame() -> None:
    # Fire cheat sheet, huts: a Flame result with several hut Locations affected: Random Selection (one dr each,
    # the highest; a tie is rolled again among the tied: one Flame result, one Location).
    hexes = grid("A-D", "1-4")
    huts = [building(hexes, f"h{n}", Material.WOODEN, [n], BuildingKind.HUT) for n in ("B2", "B3", "C3")]
    put(hexes, Terrain.HUT, ["C2"])  # a Collapsed hut
    p = pos(hexes, huts)
    locs = [L("B2"), L("B3"), L("C3")]
    new, rep = huts_fire_start(p, locs, HutAttack.MG, ScriptedDice([6, 2, 6, 3, 5]), original=Roll(1, 3))
    assert [f.location.name for f in new.flames()] == ["C3"]
    assert [e.kind for e in rep.events] == ["selection", "selection", "flame"]
    assert rep.events[0].text == "one Flame result, 3 hut Locations could take it: Random Selection, B2 6, B3 2, C3 6"
    assert rep.events[1].text.endswith("Random Selection again (a tie), B2 3, C3 5")
    assert rep.title == "Hut fire start in B2, B3, C3 (MG)"
    # no Flame result: no roll; a Location where no Flame can be created is no candidate
    new, rep = huts_fire_start(p, locs, HutAttack.HE, ScriptedDice([]), original=Roll(2, 1))
    assert new is p and [e.kind for e in rep.events] == ["no-flame"] * 3
    rained = p.with_(environment=Environment(EC.WET, rain_has_fallen=True), fires=(blaze("B2"),))
    new, rep = huts_fire_start(rained, [L("B2"), L("C2"), L("B3")], HutAttack.IFE, ScriptedDice([]),
                               original=Roll(1, 1))
    assert [f.location.name for f in new.flames()] == ["B3"] and rep.events[-1].kind == "flame"
    assert len(rep.events) == 3  # B2 (a Blaze) and C2 (Collapsed, Rain) said, then B3's Flame: no roll
    with pytest.raises(IllegalAction, match="one hut Location, not 2"):
        huts_fire_start(p, locs[:2], HutAttack.SW_FIRED_IN_HUT, ScriptedDice([]))
    with pytest.raises(IllegalAction, match="named twice"):
        huts_fire_start(p, [L("B2"), L("B2")], HutAttack.MG, ScriptedDice([]), original=Roll(1, 1))
    with pytest.raises(IllegalAction, match="not a hut"):
        huts_fire_start(p, [L("B2"), L("A1")], HutAttack.MG, ScriptedDice([]), original=Roll(1, 1))


def test_huts_an_ordnance_sw_fired_in_a_hut_sets_it_on_fire_not_from_a_collapsed_one() -> None:
    new, _ = hut_fire_start(hamlet(), L("B3"), HutAttack.SW_FIRED_IN_HUT)
    assert new.flames()
    new, rep = hut_fire_start(hamlet(collapsed=True), L("B3"), HutAttack.SW_FIRED_IN_HUT)
    assert not new.flames() and "Collapsed" in rep.events[0].text
    with pytest.raises(IllegalAction, match="not a hut"):
        hut_fire_start(hamlet(), L("B2"), HutAttack.MG, original=Roll(1, 1))


def test_huts_a_ft_attack_vs_a_hut_location_places_a_flame_when_its_original_effects_dr_is_below_its_x() -> None:
    # Fire cheat sheet, huts: no K/KIA and no Kindling DR needed (the FT path of B25.12 asked for both).
    from asl_vassal_bridge.core.flamethrower import ConsequenceKind, FtAttack, ft_attack, resolve_ft_attack

    p = hamlet()
    plan = ft_attack(p, FtAttack(L("B2"), L("B3")))
    out = resolve_ft_attack(p, plan, ScriptedDice([1, 2]), ift_result="1MC")
    assert [c.rule for c in out.of_kind(ConsequenceKind.FLAME)] == ["huts"]
    assert out.position.flames_at(L("B3"))
    assert any("FT Original Effects DR 3 < X# 10" in e.text for e in out.report.events)
    # a non-elite user's FT has X8: an Original DR of 8 places none (and no B25.12 DR without a K/KIA)
    plan = ft_attack(p, FtAttack(L("B2"), L("B3"), elite=False))
    out = resolve_ft_attack(p, plan, ScriptedDice([4, 4]), ift_result="PTC")
    assert not out.position.flames() and not out.has(ConsequenceKind.FLAME)


def test_huts_he_vs_a_hut_colored_1_places_the_flame_and_no_b25_13_dr_follows() -> None:
    new, rep = he_fire_start(hamlet(), L("B3"), ScriptedDice([]), original_kia=True, attack_dr=Roll(1, 2))
    assert new.flames_at(L("B3")) and [e.rule for e in rep.events] == ["huts"]
    # colored 3 with an Original KIA: the B25.13 DR (Kindle # 6; huts take the EC DRM: Wet −2)
    p = hamlet(Environment(EC.WET))
    new, rep = he_fire_start(p, L("B3"), ScriptedDice([4, 4]), original_kia=True, attack_dr=Roll(3, 1))
    assert new.flames_at(L("B3")) and rep.rolls()[0].final == 6
    new, rep = he_fire_start(p, L("B3"), ScriptedDice([]), original_kia=True, attack_dr=Roll(1, 1),
                             created_rubble=True)
    assert not new.flames() and "rubble" in rep.events[-1].text


def test_a24_32_wp_fire_start_in_the_mph_only_and_a_hut_even_when_not_dry() -> None:
    p = replace(hamlet(Environment(EC.WET)), clock=Clock(NOW.turn, NOW.half, Phase.MPH))
    new, rep = wp_fire_start(p, L("B3"), ScriptedDice([3, 3]))
    assert new.flames_at(L("B3")) and rep.rolls()[0].check.needed == 6
    new, rep = wp_fire_start(p, L("B2"), ScriptedDice([]))  # woods in Wet EC: no WP fire DR at all
    assert not new.flames() and "not Dry or Very Dry" in rep.events[0].text
    with pytest.raises(IllegalAction, match=r"MPh.*A24\.32"):
        wp_fire_start(hamlet(), L("B3"), ScriptedDice([6, 6]))


# --- MOL (A22.6111) -----------------------------------------------------------------------------


def test_a22_6111_example_wet_ec_mol_places_no_flame() -> None:
    p = village(Environment(EC.WET))
    r = mol_flames(p, L("X8"), L("W9"), Roll(1, 2))
    assert r.flames == () and not r.thrower_breaks
    assert any("2 -2" in e.text for e in r.events)


def test_a22_62_example_partisan_mol_colored_one_places_a_flame_in_the_target_location() -> None:
    r = mol_flames(village(), L("X8"), L("W9"), Roll(1, 6))
    assert [loc.name for loc in r.flames] == ["W9"] and not r.thrower_breaks


def test_a22_62_example_colored_six_breaks_the_partisan_and_burns_his_own_hex() -> None:
    r = mol_flames(village(), L("X8"), L("W9"), Roll(6, 1))
    assert r.thrower_breaks and [loc.name for loc in r.flames] == ["X8"]


@pytest.mark.parametrize("colored", [1, 6])
def test_a22_62_example_same_hex_mol_burns_on_one_or_six(colored: int) -> None:
    r = mol_flames(village(), L("X8"), L("X8"), Roll(colored, 4))
    assert [loc.name for loc in r.flames] == ["X8"]


def test_a22_6111_fortified_building_white_dr_minus_one() -> None:
    p = village()
    assert mol_flames(p, L("X8"), L("U9"), Roll(1, 1)).flames == ()
    assert [x.name for x in mol_flames(p, L("X8"), L("U9"), Roll(1, 2)).flames] == ["U9"]
    assert mol_flames(p, L("X8"), L("T5"), Roll(1, 6)).flames == ()  # no Burnable Terrain


# --- Wreck Blaze (B25.14) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cause", "roll", "number", "burns"),
    [
        (WreckCause.FT_OR_MOL, 7, 8, True),
        (WreckCause.FT_OR_MOL, 8, 8, False),
        (WreckCause.TO_KILL, 4, 8, True),
        (WreckCause.TO_KILL, 5, 9, False),
        (WreckCause.TO_KILL, 4, 9, True),
        (WreckCause.IFT, 3, 6, True),
        (WreckCause.IFT, 4, 6, False),
        (WreckCause.CLOSE_COMBAT, 3, 7, True),
        (WreckCause.CLOSE_COMBAT, 4, 7, False),
        (WreckCause.UNLIKELY_KILL, 1, 0, True),
        (WreckCause.UNLIKELY_KILL, 2, 0, False),
    ],
)
def test_b25_14_wreck_blaze_conditions(cause: WreckCause, roll: int, number: int, burns: bool) -> None:
    ok, why = wreck_blaze(cause, roll, number)
    assert ok is burns and "B25.14" in why


def test_b25_14_burning_wreck_is_added_this_player_turn() -> None:
    p = add_burning_wreck(village(), L("V6"), name="SdKfz 251/1", bypass=None)
    (w,) = p.wrecks
    assert w.burning and w.since == NOW.player_turn
