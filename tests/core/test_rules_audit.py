"""The points an audit against the rule texts found (issue 12): each test fails on the code before the fix."""

from __future__ import annotations

from fractions import Fraction

from asl_vassal_bridge.core import (
    EC,
    BuildingKind,
    Clock,
    Environment,
    Ground,
    IllegalAction,
    Material,
    Phase,
    ScriptedDice,
    Terrain,
    Unit,
    UnitKind,
    Wreck,
    blaze_fates,
    clearance_attempt,
    end_of_afph,
    pending_spreads,
)
from asl_vassal_bridge.core.exits import may_enter
from asl_vassal_bridge.core.flamethrower import FtAttack, ft_attack, resolve_ft_attack
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.core.wind import collapse

from .builders import NOW, L, blaze, building, flame, grid, heavy, pos, put

# --- 1. split-level buildings connect by elevation (B23.72, B25.6) -------------------------------


def split_level(kind: BuildingKind = BuildingKind.TWO_STORY, **kw: object):  # type: ignore[no-untyped-def]
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.OPEN_GROUND, ["D3"], elevation=1)
    b = building(hexes, "s", Material.WOODEN, ["C3", "D3"], kind, **kw)
    return hexes, b


def test_b23_72_an_upper_level_blaze_spreads_to_the_ground_of_the_higher_hex() -> None:
    hexes, b = split_level()
    s = pending_spreads(pos(hexes, [b], [blaze("C3.1")]))
    assert set(s) == {L("C3"), L("D3")}
    assert s[L("D3")].check.needed_original == 8  # type: ignore[union-attr]  # same height: no ±1
    assert s[L("C3")].check.needed_original == 9  # type: ignore[union-attr]  # below: −1


def test_b23_72_a_ground_blaze_of_the_higher_hex_spreads_level_with_it_never_diagonally() -> None:
    hexes, b = split_level()
    s = pending_spreads(pos(hexes, [b], [blaze("D3")]))
    assert L("C3.1") in s and L("C3") not in s
    assert s[L("C3.1")].check.needed_original == 8  # type: ignore[union-attr]


def test_b23_72_multi_story_with_fewer_levels_in_the_higher_hex() -> None:
    hexes, b = split_level(BuildingKind.MULTI_STORY, hex_levels=(("D3", 1),))
    s = pending_spreads(pos(hexes, [b], [blaze("C3.2")]))
    assert {L("C3.1"), L("D3.1")} == set(s)
    s = pending_spreads(pos(hexes, [b], [blaze("D3")]))
    assert {L("D3.1"), L("C3.1")} == set(s)


# --- 2. each Flame cleared separately (B24.7) ---------------------------------------------------


def test_b24_7_a_second_clearance_reaches_the_second_flame() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    p = pos(hexes, fires=[flame("C3"), flame("C3")], clock=Clock(3, 1, Phase.MPH))
    once, _ = clearance_attempt(p, L("C3"), ScriptedDice([2, 3]), squads=1)
    twice, rep = clearance_attempt(once, L("C3"), ScriptedDice([2, 3]), squads=1)
    assert [f.hampered for f in once.flames()] == [True, False]
    assert [f.hampered for f in twice.flames()] == [True, True]
    assert "Flame 2 of 2" in rep.events[0].text
    cleared, _ = clearance_attempt(once, L("C3"), ScriptedDice([1, 1]), squads=1, flame=1)
    assert [f.hampered for f in cleared.flames()] == [False]


def test_b24_7_naming_a_flame_the_location_lacks_is_refused_before_rolling() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    p = pos(hexes, fires=[flame("C3")], clock=Clock(3, 1, Phase.MPH))
    try:
        clearance_attempt(p, L("C3"), ScriptedDice([]), squads=1, flame=2)
    except IllegalAction as e:
        assert "B24.7" in str(e) and "Flame 2" in str(e)
    else:
        raise AssertionError("Flame 2 of 1 was cleared")


# --- 3. Collapse (B25.66) -------------------------------------------------------------------------


def test_b25_66_an_upper_collapse_leaves_the_ground_flame_and_its_squad_alone() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3"], BuildingKind.MULTI_STORY)
    squad = Unit("s", "4-6-7", "German", L("C3"))
    p = pos(hexes, [b], [blaze("C3.2"), flame("C3")]).with_(units=(squad,))
    new, _ = collapse(p, ScriptedDice([]))
    assert new.flames() == [flame("C3")] and new.blazes() == []
    assert blaze_fates(new) == []
    assert new.map.locations(L("C3").hex) == (L("C3"), L("C3.1"))


def test_b25_6_burning_rubble_spreads_at_once_when_its_blaze_is_old() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.WOODEN, ["C3"])
    put(hexes, Terrain.WOODS, ["C2"])
    p = pos(hexes, [b], [blaze("C3", since=2)])
    new, _ = collapse(p, ScriptedDice([]))
    s = pending_spreads(new)
    assert set(s) == {L("C2")} and s[L("C2")].chance == Fraction(5, 18)  # rubble is not attached: −2


# --- 4. FT fire start keys on the Original DR (B25.12) -------------------------------------------


def _ft_woods():  # type: ignore[no-untyped-def]
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C4"])
    p = pos(hexes, clock=Clock(3, 1, Phase.PFPH))
    return p, FtAttack(L("C3"), L("C4"), hindrance_drm=2)


def test_b25_12_the_original_drs_result_starts_the_fire_despite_a_drm() -> None:
    p, a = _ft_woods()
    plan = ft_attack(p, a)
    out = resolve_ft_attack(p, plan, ScriptedDice([1, 2, 5, 5]), ift_result="1MC", original_ift_result="KIA")
    assert out.position.flames_at(L("C4"))
    assert any(e.rule == "B25.12" and "Original DR 3's IFT result KIA" in e.text for e in out.report.events)


def test_b25_12_a_final_result_with_a_drm_does_not_decide_the_fire_start() -> None:
    p, a = _ft_woods()
    out = resolve_ft_attack(p, ft_attack(p, a), ScriptedDice([1, 2]), ift_result="1MC")
    assert not out.position.flames()
    assert any(e.rule == "B25.12" and "not checked" in e.text and "Original" in e.text for e in out.report.events)
    q, b = _ft_woods()
    plain = replace(b, hindrance_drm=0)
    out = resolve_ft_attack(q, ft_attack(q, plain), ScriptedDice([1, 2, 5, 5]), ift_result="KIA")
    assert out.position.flames_at(L("C4"))


# --- 5, 6. exits (B25.4, A15.2, B25.141) ---------------------------------------------------------


def test_b25_4_a_hero_in_a_blaze_is_never_offered_to_break() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    hero = Unit("h", "hero", "German", L("C3"), UnitKind.HERO)
    squad = Unit("s", "4-6-7", "German", L("C3"))
    fates = {f.unit.id: f for f in blaze_fates(pos(hexes, fires=[blaze("C3")]).with_(units=(hero, squad)))}
    assert "break" not in fates["h"].options and "Withdrawing from Melee" in fates["h"].options
    assert "break voluntarily" in fates["s"].options


def test_b25_141_no_wreck_smoke_mf_in_heavy_winds() -> None:
    hexes = grid("A-E", "1-5")
    calm = pos(hexes, wrecks=[Wreck(L("C3"))])
    windy = pos(hexes, wrecks=[Wreck(L("C3"))], env=heavy(1))
    assert "one extra MF" in may_enter(calm, L("C3"))[1]
    ok, why = may_enter(windy, L("C3"))
    assert ok and "no extra MF" in why


# --- 9. Rowhouses under Heavy Winds (B25.63, B23.71) ---------------------------------------------


def test_b25_63_heavy_winds_do_not_act_between_rowhouses_of_one_building() -> None:
    hexes = grid("A-E", "1-7")
    b = building(hexes, "row", Material.WOODEN, ["C3", "C4", "C5"], rowhouse=True)
    s = pending_spreads(pos(hexes, [b], [blaze("C4")], heavy(1)))
    assert not s[L("C3")].automatic and not s[L("C5")].automatic
    assert s[L("C3")].check.needed_original == s[L("C5")].check.needed_original == 8  # type: ignore[union-attr]


# --- the missing guards: Fortified −1 to spreading, Mud source terrain ------------------------------


def test_b23_94_spreading_into_a_fortified_building_location_has_minus_one() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    b = building(hexes, "f", Material.STONE, ["C4"], fortified=frozenset({("C4", 0)}))
    s = pending_spreads(pos(hexes, [b], [blaze("C3")]))
    assert [(d.value, d.rule) for d in s[L("C4")].check.drms] == [(-2, "B25.62"), (-1, "B23.94")]  # type: ignore[union-attr]
    assert s[L("C4")].check.needed_original == 12  # type: ignore[union-attr]


def test_mud_spreads_only_from_a_listed_depiction() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.VINEYARD, ["C3"], feature="v")
    put(hexes, Terrain.WOODS, ["C4"], feature="v")
    assert pending_spreads(pos(hexes, fires=[blaze("C3")], env=Environment(ground=Ground.MUD))) == {}
    assert set(pending_spreads(pos(hexes, fires=[blaze("C3")]))) == {L("C4")}
    put(hexes, Terrain.WOODS, ["C3"], feature="v")
    assert set(pending_spreads(pos(hexes, fires=[blaze("C3")], env=Environment(EC.MUD)))) == {L("C4")}


# --- 7. Gusts: Random Selection odds --------------------------------------------------------------


def test_b25_651_random_selection_chance_is_that_of_the_highest_dr_ties_included() -> None:
    import itertools

    from asl_vassal_bridge.core.wind import selection_chance

    for n in (1, 2, 3):
        wins = sum(1 for rolls in itertools.product(range(1, 7), repeat=n) if rolls[0] == max(rolls))
        assert selection_chance(n) == Fraction(wins, 6 ** n)


def test_b25_651_gusts_set_in_a_position_file_spread_at_the_end_of_the_afph(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from asl_vassal_bridge.posfile import dump, load

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C3", "C4"])
    p = pos(hexes, fires=[blaze("C3")], env=replace(heavy(4), gusts=False))
    p = replace(p, environment=replace(Environment(), gusts=True), clock=replace(NOW, phase=Phase.AFPH))
    dump(p, tmp_path / "g.toml")
    loaded = load(tmp_path / "g.toml")
    assert loaded.environment.gusts
    new, rep = end_of_afph(loaded, ScriptedDice([4]))  # No Wind: the Gusts blow to 4 (dr)
    assert [f.location.name for f in new.flames()] == ["C4"]
    assert any(e.rule == "B25.651" for e in rep.events)
