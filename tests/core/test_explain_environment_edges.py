"""Reports word for word and the environment's names and tables at their edges (what the mutation runs of
core/explain.py and core/environment.py asked for)."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.dice import Roll
from asl_vassal_bridge.core.environment import EC, Environment, Wind, WindForce, month_drm
from asl_vassal_bridge.core.explain import DRM, Check, CheckResult, Event, Report, format_drms
from asl_vassal_bridge.core.hexes import Direction


def test_checks_and_results_word_for_word_for_a_dr_at_most_and_a_dr_at_least() -> None:
    assert format_drms(()) == "no DRM"
    low = Check("MOL Check", "A22.611", needed=3, drms=(DRM(1, "CX", "A22.611"),), dice=1, at_most=True)
    assert low.describe() == "MOL Check (A22.611): Final dr ≤ 3; +1 CX (A22.611); Original ≤ 2; chance 1/3"
    assert CheckResult(low, Roll(2), "passed").describe() == (
        "MOL Check (A22.611): dr 2, +1 CX (A22.611) → Final 3 vs ≤ 3: passed")
    high = Check("Spread", "B25.6", needed=7)
    assert high.describe() == "Spread (B25.6): Final DR ≥ 7; no DRM; Original ≥ 7; chance 7/12"
    assert CheckResult(high, Roll(3, 4), "Flame").describe() == (
        "Spread (B25.6): DR 7 (3,4), no DRM → Final 7 vs ≥ 7: Flame")


def test_events_and_reports_word_for_word() -> None:
    high = Check("Spread", "B25.6", needed=7)
    rolled = Event("B25.6", "x", None, CheckResult(high, Roll(1, 1), "no spread"))
    assert rolled.describe() == "Spread (B25.6): DR 2 (1,1), no DRM → Final 2 vs ≥ 7: no spread"
    placed = Event("B25.62", "Flame placed in C3", "C3", CheckResult(high, Roll(6, 6), "Flame"))
    assert placed.describe().startswith("C3: Spread (B25.6)")
    rep = Report("End of AFPh", (Event("B25.65", "no change"), rolled, placed))
    assert rep.text() == ("End of AFPh\n  no change (B25.65)\n  Spread (B25.6): DR 2 (1,1), no DRM → Final 2 vs ≥ 7: "
                          "no spread\n  C3: Spread (B25.6): DR 12 (6,6), no DRM → Final 12 vs ≥ 7: Flame")
    assert Report("Nothing").text() == "Nothing\n  (nothing to do)"
    assert list(rep) == list(rep.events) and len(rep) == 3
    assert [r.outcome for r in rep.rolls()] == ["no spread", "Flame"]


def test_b25_5_ec_chart_edges_and_month_drm_errors() -> None:
    assert EC.from_chart(0) is EC.SNOW and EC.from_chart(1) is EC.MUD and EC.from_chart(5) is EC.DRY
    assert EC.from_chart(6) is EC.VERY_DRY and EC.from_chart(3, month=1) is EC.SNOW  # 3 − 3 = 0
    assert EC.from_chart(4, month=5) is EC.MODERATE and EC.from_chart(1, month=None) is EC.MUD
    with pytest.raises(ValueError, match="month must be 1–12, not 13"):
        month_drm(13)


@pytest.mark.parametrize(("name", "ec"), [("very dry", EC.VERY_DRY), ("Very-Dry", EC.VERY_DRY), (" moist ", EC.MOIST)])
def test_ec_names(name: str, ec: EC) -> None:
    assert EC.from_name(name) is ec


def test_an_unknown_ec_lists_the_known_names() -> None:
    with pytest.raises(ValueError) as e:
        EC.from_name("damp")
    assert str(e.value) == ("unknown EC 'damp' (expected one of: snow, mud, wet, moist, moderate, dry, very-dry)")


@pytest.mark.parametrize(("name", "force"), [
    ("none", WindForce.NO_WIND), ("No Wind", WindForce.NO_WIND), ("mild", WindForce.MILD_BREEZE),
    ("breeze", WindForce.MILD_BREEZE), ("mild breeze", WindForce.MILD_BREEZE), ("heavy", WindForce.HEAVY_WINDS),
    ("Heavy-Winds", WindForce.HEAVY_WINDS),
])
def test_wind_force_names_and_aliases(name: str, force: WindForce) -> None:
    assert WindForce.from_name(name) is force


def test_wind_errors_and_text() -> None:
    with pytest.raises(ValueError) as e:
        WindForce.from_name("gale")
    assert str(e.value) == "unknown wind force 'gale' (expected no-wind, mild-breeze or heavy-winds)"
    with pytest.raises(ValueError) as e2:
        Wind(WindForce.HEAVY_WINDS)
    assert str(e2.value) == "Heavy Winds needs a Wind Direction (1–6, B25.64)"
    assert str(Wind()) == "No Wind" and str(Wind(WindForce.NO_WIND, Direction(3))) == "No Wind"
    assert str(Wind(WindForce.MILD_BREEZE, Direction(3))) == "Mild Breeze to 3"
    env = Environment().with_wind(Wind(WindForce.MILD_BREEZE, Direction(2)))
    assert env.wind == Wind(WindForce.MILD_BREEZE, Direction(2)) and env.ec is EC.MODERATE


def test_terrain_names_with_spaces_and_the_list_of_known_ones() -> None:
    from asl_vassal_bridge.core.terrain import Terrain, UnknownTerrainError

    assert Terrain.from_name(" stone building ") is Terrain.STONE_BUILDING
    with pytest.raises(UnknownTerrainError) as e:
        Terrain.from_name("lava")
    known = ", ".join(t.name.lower() for t in Terrain)
    assert str(e.value) == f"unknown terrain 'lava' (expected one of: {known})" and "woods, woods_road, " in known


def test_the_clock_steps_through_phases_and_player_turns() -> None:
    from asl_vassal_bridge.core.position import Clock, Phase

    assert Clock(2, 1, Phase.RPH).next_phase() == Clock(2, 1, Phase.PFPH)
    assert Clock(2, 1, Phase.CCPH).next_phase() == Clock(2, 2, Phase.RPH)
    assert Clock(2, 2, Phase.CCPH).next_phase() == Clock(3, 1, Phase.RPH)
    assert Clock(2, 2, Phase.MPH).next_player_turn() == Clock(3, 1, Phase.RPH)
    assert [Phase.from_name(n) for n in ("afph", " RtPh ", "APH")] == [Phase.AFPH, Phase.RTPH, Phase.APH]
    with pytest.raises(ValueError) as e:
        Phase.from_name("lunch")
    assert str(e.value) == "unknown phase 'lunch' (expected one of: RPh, PFPh, MPh, DFPh, AFPh, RtPh, APh, CCPh)"
    for turn, half in ((0, 1), (1, 3)):
        with pytest.raises(ValueError, match=f"turn must be ≥ 1 and half 1 or 2, not turn {turn} half {half}"):
            Clock(turn, half)
