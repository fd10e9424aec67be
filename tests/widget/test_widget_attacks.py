"""The widget's FT/MOL tool (A22), building TEM on hover (B23) and Heat of Battle panel (A15), without a browser.

The demo Position: German 4-6-7 squads g1 (F7) and g3 (I4.1, a Fortified stone building Location),
an 8-1 leader g2 in F7, Russian 4-4-7s in D2 and I5.1 (broken); the clock stands in the RPh of
German Player Turn 2.1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from asl_fire_widget import FireSession, FireWidget
from asl_fire_widget.attacks import AttackForm, HobForm

from asl_vassal_bridge.core import BadInput, Location, Phase, ScriptedDice, UnitKind
from asl_vassal_bridge.core.heat_of_battle import HobResult
from asl_vassal_bridge.core.units import Nationality


@pytest.fixture
def s() -> FireSession:
    return FireSession.demo(seed=3)


def loc(s: FireSession, name: str) -> Location:
    return s.position.map.parse_location(name)


def flames_in(s: FireSession, name: str) -> int:
    return len(s.position.flames_at(loc(s, name)))


# ---------------------------------------------------------------------------------------------- FT / MOL


def test_a22_611_mol_declaration_shows_legal_fp_drms_and_the_exact_mol_check_chance(s: FireSession) -> None:
    pv = s.set_attack(firer_unit="g3", target="I5.1", fp=4, phase=Phase.PFPH)
    assert pv.legal, pv.refusal
    assert pv.mol_check_chance == Fraction(1, 3)  # dr ≤ 3, +1 vs a non-AFV (A22.611)
    # the target's stone building TEM, and the smoke of the Blaze burning below it in I5 (B25.2: up to two levels
    # in the demo's Mild Breeze)
    assert [(d.value, d.rule) for d in pv.drms] == [(3, "B23.3"), (3, "B25.2")]
    text = "\n".join(pv.lines)
    assert "FP with the MOL: 12 → IFT column 12" in text  # 4 × 2 PBF + 4 (A22.611)
    assert "MOL Check succeeds: 1/3 (33.3%)" in text
    assert "legal" in pv.html()


def test_a22_6_mol_not_provided_is_refused_with_the_rule_and_resolve_changes_nothing(s: FireSession) -> None:
    pv = s.set_attack(firer_unit="g3", target="I5.1", phase=Phase.PFPH, available=False)
    assert not pv.legal
    assert "(A22.6)" in pv.refusal
    before = s.position
    assert s.resolve_attack() is False
    assert s.position is before and not s.undo_stack
    assert s.log[-1].startswith("✗ MOL attack not allowed") and "A22.6" in s.log[-1]


def test_a22_611_mol_in_the_rph_is_refused_by_the_positions_phase(s: FireSession) -> None:
    pv = s.set_attack(firer_unit="g3", target="I5.1")  # the demo's clock is in the RPh
    assert not pv.legal and "A22.611" in pv.refusal


def test_a22_6111_mol_colored_1_places_a_flame_in_the_target_logged_and_undoable(s: FireSession) -> None:
    s.set_attack(firer_unit="g3", target="I5.1", phase=Phase.PFPH, ift_result="NMC")
    s.dice = ScriptedDice([1, 1, 2])  # MOL Check dr 1 (Final 2 ≤ 3), attack DR colored 1, white 2
    clock = s.position.clock
    assert flames_in(s, "I5.1") == 0
    assert s.resolve_attack() is True
    assert flames_in(s, "I5.1") == 1
    assert s.position.clock == clock  # the form's phase never moves the game clock
    log = "\n".join(s.log)
    assert "MOL Check (A22.611): dr 1" in log
    assert "⇒ flame: Flame in I5.1 (A22.6111)" in log
    assert s.undo() and flames_in(s, "I5.1") == 0
    assert s.redo() and flames_in(s, "I5.1") == 1


def test_a22_6111_mol_colored_6_breaks_the_thrower_and_flames_his_location(s: FireSession) -> None:
    s.set_attack(firer_unit="g3", target="I5.1", phase=Phase.PFPH)
    s.dice = ScriptedDice([1, 6, 2])  # white 2 − 1 Fortified (B23.94) still places the Flame
    s.resolve_attack()
    g3 = next(u for u in s.position.units if u.id == "g3")
    assert g3.broken
    assert flames_in(s, "I4.1") == 1
    assert any("thrower-broken" in line for line in s.log)


def test_a22_1_ft_declaration_is_24_fp_without_tem(s: FireSession) -> None:
    pv = s.set_attack(weapon="FT", firer_unit="g3", target="I5.1", phase=Phase.PFPH)
    assert pv.legal, pv.refusal
    assert [(d.value, d.rule) for d in pv.drms] == [(3, "B25.2")]  # no TEM vs a FT, but the smoke (A22.2, B25.2)
    assert pv.mol_check_chance is None
    assert "FP 24 → IFT column 24" in pv.lines


def test_a22_33_pinned_ft_user_is_refused(s: FireSession) -> None:
    pv = s.set_attack(weapon="FT", firer_unit="g3", target="I5.1", phase=Phase.PFPH, pinned=True)
    assert not pv.legal and "A22.33" in pv.refusal
    assert "not allowed" in pv.html()


def test_a22_34_ft_vs_afv_needs_the_basic_tk_then_shows_the_final_tk(s: FireSession) -> None:
    base = {"weapon": "FT", "firer_unit": "g3", "target": "I5.1", "phase": Phase.PFPH, "vs_afv": True,
            "predesignated": True}
    pv = s.set_attack(**base)
    assert not pv.legal and "Basic TK#" in pv.refusal
    pv = s.set_attack(basic_tk=12, afv_ot=True)
    assert pv.legal
    assert any("Final TK# 14" in line for line in pv.lines)  # +2 OT (A22.34)


def test_bad_locations_and_units_are_shown_not_raised(s: FireSession) -> None:
    assert "no unit 'zz'" in s.set_attack(firer_unit="zz", target="I5.1").refusal
    waiting = s.set_attack(firer_unit="g3", target="")  # no verdict before a target is chosen (issue 34)
    assert not waiting.legal and not waiting.refusal and "target Location" in waiting.waiting
    assert "not allowed" not in waiting.html() and "target Location" in waiting.html()
    assert not s.set_attack(firer_unit="", firer="Z99", target="I5.1").legal


def test_attack_tool_clicks_set_firer_then_target(s: FireSession) -> None:
    s.tool = "attack"
    s.level = 1
    s.click(loc(s, "I4.1").hex)
    assert s.attack_form.firer == "I4.1"
    s.click(loc(s, "I5.1").hex)
    assert s.attack_form.target == "I5.1"
    assert "attack: target I5.1" in s.log[-1]


# ---------------------------------------------------------------------------------------------- TEM on hover


def test_b23_921_hover_shows_fortified_stone_building_tem(s: FireSession) -> None:
    lines = s.hover(loc(s, "I4").hex).lines
    assert "   TEM +4: +4 stone building, Fortified (B23.3, B23.921)" in lines
    assert "   TEM +3: +3 stone building (B23.3)" in lines  # I4.2 is not Fortified


# ---------------------------------------------------------------------------------------------- Heat of Battle


def test_a15_odds_of_a_german_467_from_the_position_in_36ths(s: FireSession) -> None:
    pv = s.set_hob(unit_id="g1")
    assert pv.ok, pv.error
    assert [(o.results, o.ways) for o in pv.odds] == [
        ((HobResult.HERO_CREATION,), 6), ((HobResult.HERO_CREATION, HobResult.BATTLE_HARDENING), 9),
        ((HobResult.BATTLE_HARDENING,), 11), ((HobResult.BERSERK,), 9), ((HobResult.DISRUPTION,), 1)]
    assert sum(o.ways for o in pv.odds) == 36
    assert "4-6-7 → 4-6-8 (A15.3)" in pv.html()


def test_a15_1_typed_broken_half_squad_gets_plus_one(s: FireSession) -> None:
    pv = s.set_hob(designation="2-4-7", nationality=Nationality.GERMAN, flags=frozenset({"broken"}))
    assert [(d.value, d.rule) for d in pv.drms] == [(1, "A15.1")]
    assert any("Final 12–13: Disruption (A15.5) — 3/36" in line for line in pv.lines)


def test_a15_1_hero_is_not_subject_and_a_typed_unit_needs_a_nationality(s: FireSession) -> None:
    assert "nationality" in s.set_hob(designation="4-6-7").error
    pv = s.set_hob(designation="1-4-9", nationality=Nationality.GERMAN)
    assert not pv.ok and "A15.1" in pv.error
    assert s.roll_hob() is False and s.log[-1].startswith("✗ Heat of Battle")


def test_a15_4_roll_berserk_marks_the_unit_logged_and_undoable(s: FireSession) -> None:
    s.set_hob(unit_id="g1")
    s.dice = ScriptedDice([5, 6])
    assert s.roll_hob()
    assert next(u for u in s.position.units if u.id == "g1").berserk
    log = "\n".join(s.log)
    assert "Final 11: Berserk (A15.4)" in log and "mark it BERSERK (A15.4)" in log
    s.undo()
    assert not next(u for u in s.position.units if u.id == "g1").berserk


def test_a15_3_roll_for_a_typed_unit_only_logs(s: FireSession) -> None:
    s.set_hob(designation="4-6-7", nationality=Nationality.GERMAN)
    s.dice = ScriptedDice([4, 4])
    before = s.position
    assert s.roll_hob()
    assert s.position is before
    assert any("Final 8: Battle Hardening (A15.3)" in line for line in s.log)


# ---------------------------------------------------------------------------------------------- the widget


def test_widget_form_controls_drive_the_preview_and_resolve_button() -> None:
    w = FireWidget.demo(seed=3)
    w.att["firer_unit"].value = "g3"
    w.att["target"].value = "I5.1"
    assert "not allowed" in w.attack_preview.value and w.resolve_button.disabled  # RPh
    w.att["phase"].value = Phase.PFPH
    assert "legal" in w.attack_preview.value and "1/3" in w.attack_preview.value
    assert not w.resolve_button.disabled
    w.session.dice = ScriptedDice([1, 1, 2])
    w.resolve_button.click()
    assert len(w.session.position.flames_at(w.session.position.map.parse_location("I5.1"))) == 1
    assert "A22.6111" in w.log_html
    assert w.session.attack_form == AttackForm(firer_unit="g3", target="I5.1", phase=Phase.PFPH)
    w.undo_button.click()
    assert not w.session.position.flames_at(w.session.position.map.parse_location("I5.1"))


def test_widget_attack_tool_click_fills_the_form_fields() -> None:
    w = FireWidget.demo(seed=3)
    w.tools.value = "attack"
    w.level.value = 1
    pos = w.session.position
    w.click(pos.map.parse_hex("I4"))
    w.click(pos.map.parse_hex("I5"))
    assert (w.att["firer"].value, w.att["target"].value) == ("I4.1", "I5.1")


def test_widget_hob_panel_shows_odds_and_rolls() -> None:
    w = FireWidget.demo(seed=3)
    w.hob["unit_id"].value = "g1"
    assert "9/36" in w.hob_preview.value and not w.hob_button.disabled
    w.hob_flags["broken"].value = True
    assert w.session.hob_form == HobForm(unit_id="g1", flags=frozenset({"broken"}))
    assert "+1 Broken (A15.1)" in w.hob_preview.value
    w.session.dice = ScriptedDice([6, 6])
    w.hob_button.click()
    assert "Heat of Battle (A15.1): DR 12" in w.log_html
    assert next(u for u in w.session.position.units if u.id == "g1").broken


def test_widget_hob_applies_battle_hardening_and_the_new_hero_undoably() -> None:
    """A15.1 DR 5: a hero beside the 4-6-7 (A15.21) and the squad Battle Hardened to a 4-6-8 (A15.3)."""
    w = FireWidget.demo(seed=3)
    before = w.session.position
    g1 = next(u for u in before.units if u.id == "g1")
    w.hob["unit_id"].value = "g1"
    w.session.dice = ScriptedDice([2, 3])
    w.hob_button.click()
    units = {u.id: u for u in w.session.position.units}
    assert units["g1"].name == "4-6-8" and units["g1"].location == g1.location
    hero = units["g1-hero"]
    assert (hero.name, hero.kind, hero.side, hero.location) == ("1-4-9", UnitKind.HERO, "German", g1.location)
    assert "g1 now a 4-6-8 (A15.3; undo to refuse); a 1-4-9 hero g1-hero beside it (A15.21)" in w.log_html
    w.undo_button.click()  # the owner refuses: both undone together
    assert w.session.position == before


def test_widget_controls_follow_forms_set_from_code() -> None:
    w = FireWidget.demo(seed=3)
    w.session.set_attack(weapon="FT", firer_unit="g3", target="I5.1", phase=Phase.PFPH, basic_tk=9)
    assert (w.att["weapon"].value, w.att["firer_unit"].value, w.att["basic_tk"].value) == ("FT", "g3", 9)
    assert "FP 24" in w.attack_preview.value
    w.session.set_hob(unit_id="g2", flags=frozenset({"no_enemy_in_los"}))
    assert w.hob["unit_id"].value == "g2" and w.hob_flags["no_enemy_in_los"].value
    assert "8-1" in w.hob_preview.value


def test_a15_5_hob_of_a_unit_whose_side_is_gurkha_keeps_the_gurkha_status() -> None:
    from asl_fire_widget.attacks import hob_preview

    from asl_vassal_bridge.core.values import replace

    s = FireSession.demo(seed=3)
    pos = s.position
    sides = ("German", "Gurkha")
    units = tuple(replace(u, side="Gurkha", name="4-4-7") if u.id == "g1" else u for u in pos.units)
    pos = replace(pos, sides=sides, units=units)
    pv = hob_preview(pos, HobForm(unit_id="g1", flags=frozenset({"broken"})))
    assert pv.ok and "Gurkha" in pv.html()
    assert "Final 9–12: Berserk (A15.4)" in pv.html()  # a Gurkha's Final 12 is Berserk (A15.5)
    assert "Disruption" not in pv.html() and "Surrender" not in pv.html()


# ---------------------------------------------------------------------------------------------- WP, HE, huts


def test_a24_32_wp_tool_rolls_the_wp_fire_dr_in_the_mph_only(s: FireSession) -> None:
    from asl_vassal_bridge.core.position import Clock
    from asl_vassal_bridge.core.values import replace

    s.tool = "wp"
    s.dice = ScriptedDice([5, 5])
    s.click(loc(s, "F7").hex)  # the demo is at an RPh
    assert s.log[-1].startswith("✗") and "A24.32" in s.log[-1] and flames_in(s, "F7") == 0
    s.replace_position(replace(s.position, clock=Clock(2, 1, Phase.MPH)), "MPh")
    s.click(loc(s, "F7").hex)  # Dry EC: −1; brush Kindle # 9: 10 − 1 = 9 ≥ 9
    assert flames_in(s, "F7") == 1 and any("WP fire start in F7" in line and "A24.32" in line for line in s.log)


def test_b25_13_he_tool_rolls_the_he_fire_start_dr_and_the_hut_tool_places_a_flame() -> None:
    from asl_vassal_bridge.core.hexes import Hex
    from asl_vassal_bridge.core.position import GameMap, HexInfo, Position
    from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material, Terrain

    hexes = {Hex.parse(n): HexInfo() for n in ("A1", "A2", "B1", "B2")}
    hexes[Hex.parse("A1")] = HexInfo(Terrain.WOODS)
    hexes[Hex.parse("B2")] = HexInfo(Terrain.HUT, building="hut")
    pos = Position(GameMap.from_hexes(hexes, [Building("hut", Material.WOODEN, BuildingKind.HUT)]))
    s = FireSession(pos, dice=ScriptedDice([4, 5]))
    s.tool = "he"
    s.click(Hex.parse("A1"))  # woods Kindle # 9, Moderate EC
    assert flames_in(s, "A1") == 1 and any("B25.13" in line for line in s.log)
    s.tool = "hut"
    s.click(Hex.parse("B2"))
    assert flames_in(s, "B2") == 1 and "colored dr 1" in s.log[-1]
    s.click(Hex.parse("A2"))  # no hut there
    assert s.log[-1].startswith("✗") and "not a hut" in s.log[-1]
    assert s.undo() and flames_in(s, "B2") == 0


def test_huts_tool_one_attack_vs_several_huts_places_one_flame_by_random_selection() -> None:
    from asl_vassal_bridge.core.hexes import Hex
    from asl_vassal_bridge.core.position import GameMap, HexInfo, Position
    from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material, Terrain

    hexes = {Hex.parse(n): HexInfo() for n in ("A1", "A2", "B1", "B2")}
    huts = [Building(n, Material.WOODEN, BuildingKind.HUT) for n in ("h1", "h2")]
    hexes[Hex.parse("A2")] = HexInfo(Terrain.HUT, building="h1")
    hexes[Hex.parse("B2")] = HexInfo(Terrain.HUT, building="h2")
    s = FireSession(Position(GameMap.from_hexes(hexes, huts)), dice=ScriptedDice([2, 6]))
    with pytest.raises(BadInput, match="no hut Location picked"):
        s.roll_huts()
    s.tool = "huts"
    for name in ("A2", "B2", "A1"):
        s.click(Hex.parse(name))
    assert s.log[-1].startswith("✗") and "not a hut" in s.log[-1] and s.hut_picks == [loc(s, "A2"), loc(s, "B2")]
    s.roll_huts()  # dr 2 for A2, 6 for B2
    assert flames_in(s, "B2") == 1 and flames_in(s, "A2") == 0 and s.hut_picks == []
    assert any("Random Selection, A2 2, B2 6 (huts)" in line for line in s.log)
    assert s.undo() and flames_in(s, "B2") == 0
