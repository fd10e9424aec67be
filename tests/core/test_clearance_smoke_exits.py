"""Clearance (B24.7), smoke from fire (B25.2), units in Blazes (B25.4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from asl_vassal_bridge.core import (
    EC,
    Clock,
    Environment,
    IllegalAction,
    Phase,
    ScriptedDice,
    Terrain,
    Unit,
    UnitKind,
    Wreck,
    blaze_fates,
    clearance_attempt,
    clearance_check,
    fire_smoke,
)
from asl_vassal_bridge.core.clearance import clearance_odds
from asl_vassal_bridge.core.exits import blaze_report, may_enter
from asl_vassal_bridge.core.values import replace

from .builders import L, blaze, flame, grid, heavy, mild, pos, put

MPH = Clock(3, 1, Phase.MPH)


def woods(env: Environment = Environment(), fires=(flame("C3"),), clock: Clock = MPH):  # type: ignore[no-untyped-def]
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4"])
    return pos(hexes, fires=fires, env=env, clock=clock)


def test_a15_24_heroes_add_their_heroic_drm_to_clearance() -> None:
    c = clearance_check(woods(), L("C3"), squads=1, leader_drm=-1, heroes=2)
    assert [(d.value, d.rule) for d in c.drms] == [(-1, "B24.7"), (-1, "B24.7"), (-2, "A15.24")]
    alone = clearance_check(woods(), L("C3"), heroes=1)
    assert [(d.value, d.reason, d.rule) for d in alone.drms] == [(-1, "heroic DRM", "A15.24")]
    with pytest.raises(IllegalAction, match="0 or more"):
        clearance_check(woods(), L("C3"), squads=2, heroes=-1)


def test_b24_7_clearance_drms() -> None:
    c = clearance_check(woods(Environment(EC.WET)), L("C3"), squads=2, half_squads=1, leader_drm=-1, labor_drm=1,
                        dozers=1)
    assert [d.value for d in c.drms] == [1, -1, -1, -1, -2, -2, -5]
    assert c.at_most and c.needed == 2


def test_b24_7_clears_on_two_or_less_and_hampers_on_three_to_six() -> None:
    p = woods()
    c = clearance_check(p, L("C3"), squads=1)
    clear, hamper = clearance_odds(c)
    assert clear == Fraction(3, 36) and hamper == Fraction(18, 36)  # Original ≤ 3; 4–7
    new, rep = clearance_attempt(p, L("C3"), ScriptedDice([1, 2]), squads=1)
    assert new.fires == () and rep.events[0].kind == "cleared"
    new, rep = clearance_attempt(p, L("C3"), ScriptedDice([3, 4]), squads=1)
    assert new.flames()[0].hampered and rep.events[0].rule == "B24.721"
    new, _ = clearance_attempt(p, L("C3"), ScriptedDice([4, 4]), squads=1)
    assert new.fires == p.fires


def test_b25_7_a_blaze_cannot_be_cleared_and_clearance_needs_the_mph_or_dfph() -> None:
    with pytest.raises(IllegalAction, match=r"B25\.7"):
        clearance_check(woods(fires=(blaze("C3"),)), L("C3"), squads=1)
    with pytest.raises(IllegalAction, match=r"MPh or DFPh"):
        clearance_check(woods(clock=Clock(3, 1, Phase.AFPH)), L("C3"), squads=1)


def test_b25_2_smoke_heights_and_hindrances() -> None:
    p = woods(fires=(blaze("C3"), flame("C4")))
    p = p.with_(wrecks=(Wreck(L("A1")),))
    smoke = fire_smoke(p)
    assert [(s.location.name, s.hindrance, s.height, s.wreck) for s in smoke] == [("C3", 3, 4, False),
                                                                                   ("A1", 2, 4, True)]
    mild_smoke = fire_smoke(p.with_(environment=mild(4)))
    assert [s.height for s in mild_smoke] == [2, 2]
    assert [h.name for h in mild_smoke[0].drift] == ["C4", "C5"]  # three counters, but the map ends at row 5
    assert fire_smoke(p.with_(environment=heavy(4))) == []
    # Gusts leave the Wind Force alone, and never touch a Blaze's own smoke (B25.651): still four levels.
    gusting = fire_smoke(p.with_(environment=replace(p.environment, gusts=True)))
    assert [(s.location.name, s.height) for s in gusting if not s.wreck] == [("C3", 4)]
    # In an Interior Building hex No Wind always applies (B25.63): see
    # test_b25_63_b25_2_smoke_in_an_interior_building_hex_is_four_levels_and_does_not_drift.


def test_b25_4_units_in_a_blaze() -> None:
    units = (
        Unit("a", "4-6-7", "German", L("C3")),
        Unit("b", "4-6-7", "German", L("C3"), pinned=True),
        Unit("c", "4-4-7", "Russian", L("C3"), broken=True),
        Unit("d", "PzIV", "German", L("C3"), UnitKind.VEHICLE),
        Unit("e", "4-6-7", "German", L("C3"), berserk=True),
        Unit("f", "4-6-7", "German", L("C4")),
    )
    p = woods(fires=(blaze("C3"),)).with_(units=units, clock=Clock(3, 1, Phase.RTPH))
    fates = {f.unit.id: f for f in blaze_fates(p)}
    assert set(fates) == {"a", "b", "c", "d", "e"}
    assert "break voluntarily" in fates["a"].options
    assert fates["b"].eliminated_now
    assert "rout" in fates["c"].options
    assert "MPh" in fates["d"].deadline
    assert "Withdrawing from Melee" in fates["e"].options
    ok, why = may_enter(p, L("C3"))
    assert not ok and "B25.4" in why


def test_a15_42_a_berserk_unit_under_a_pin_counter_is_not_pinned_and_moves_out_of_the_blaze() -> None:
    # A15.42: a berserk unit loses any pinned status; B25.4 lets it leave as if Withdrawing, even berserk.
    u = Unit("e", "4-6-7", "German", L("C3"), berserk=True, pinned=True, may_break_voluntarily=False)
    p = woods(fires=(blaze("C3"),)).with_(units=(u,), clock=Clock(3, 1, Phase.RTPH))
    (fate,) = blaze_fates(p)
    assert not fate.eliminated_now and "Withdrawing from Melee" in fate.options
    assert not u.is_pinned


def test_b25_4_an_immobilized_vehicle_in_a_blaze_is_eliminated_in_its_next_friendly_mph_not_at_once() -> None:
    """B25.4 gives Vehicular units until their next friendly MPh to leave a terrain Blaze and eliminates them
    then; an Immobilized one cannot leave, so it goes then, not at once."""
    units = (Unit("d", "PzIV", "German", L("C3"), UnitKind.VEHICLE, immobilized=True),
             Unit("m", "PzIII", "German", L("C3"), UnitKind.VEHICLE))
    p = woods(fires=(blaze("C3"),)).with_(units=units, clock=Clock(3, 1, Phase.RTPH))
    fates = {f.unit.id: f for f in blaze_fates(p)}
    assert not fates["d"].eliminated_now and "Immobilized" in fates["d"].options
    assert fates["d"].deadline == "its next friendly MPh (German)"
    assert not fates["m"].eliminated_now and "MPh" in fates["m"].deadline
    assert [e.kind for e in blaze_report(p).events] == ["must-leave", "must-leave"]
    in_mph = {f.unit.id: f for f in blaze_fates(p.with_(clock=Clock(3, 1, Phase.MPH)))}  # German MPh
    assert in_mph["d"].eliminated_now and not in_mph["m"].eliminated_now
    russian_mph = {f.unit.id: f for f in blaze_fates(p.with_(clock=Clock(3, 2, Phase.MPH)))}
    assert not russian_mph["d"].eliminated_now  # not its friendly MPh


def test_b25_4_reading_a_gun_in_a_blaze_must_be_pushed_or_towed_out_in_its_sides_next_mph() -> None:
    # B25.4 names Infantry, Vehicular/Cavalry units and any ground unit entering: no Gun (docs/rules.md).
    g = Unit("g", "37L AT", "Russian", L("C3"), UnitKind.GUN)
    (fate,) = blaze_fates(woods(fires=(blaze("C3"),)).with_(units=(g,)))
    assert "pushed or towed" in fate.options and "Russian" in fate.deadline and "MPh" in fate.deadline
    assert not fate.eliminated_now


def test_b25_4_pillbox_occupants_share_the_ground_level_blaze() -> None:
    u = Unit("p", "2-2-8", "German", L("C3"), UnitKind.CREW, in_pillbox=True)
    p = woods(fires=(blaze("C3"),)).with_(units=(u,))
    assert [f.unit.id for f in blaze_fates(p)] == ["p"]
    assert blaze_fates(woods(fires=(flame("C3"), blaze("C4"))).with_(units=(u,))) == []
