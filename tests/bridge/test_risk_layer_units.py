"""The Fire risk layer's numbers (issue 35), without a VASSAL engine: the same as Fire odds, one shade a hex."""

from __future__ import annotations

import re

from asl_vassal_bridge.bridge.convert import position_from_snapshot
from asl_vassal_bridge.bridge.report import odds_lines
from asl_vassal_bridge.bridge.risk import risk_layer
from asl_vassal_bridge.core.position import Phase

from .test_bridge_units import EC_TYPE, WIND_DIR_TYPE, WIND_TYPE, piece, snapshot


def _game() -> list[dict[str, object]]:
    return [piece("b1", "Blaze", "5713", "C2"), piece("f1", "Flame", "192", "D3"),
            piece("ec", "EC", "284", "A1", [{"type": EC_TYPE, "state": "5"}]),
            piece("w", "Wind", "287", "A2", [{"type": WIND_TYPE, "state": "2"}]),
            piece("wd", "Wind Dir", "285", "A3", [{"type": WIND_DIR_TYPE, "state": "5"}])]


def test_risk_layer_shades_each_hex_by_the_best_of_fire_odds_b25_6() -> None:
    live = position_from_snapshot(snapshot(_game()), phase=Phase.AFPH)
    layer = risk_layer(live)
    odds: dict[str, list[int]] = {}
    for line in odds_lines(live.position)[1:]:
        m = re.match(r"-\s+(\w+): .*? (\d+)%", line)
        if m:
            odds.setdefault(m.group(1), []).append(int(m.group(2)))
    shaded = {s["hex"]: round(s["chance"] * 100) for s in layer["shades"]}
    assert shaded == {h: max(v) for h, v in odds.items() if max(v) > 0}
    assert "D3" in shaded and "C3" in shaded  # the Flame's Flame→Blaze DR; a Woods hex beside the Blaze


def test_risk_layer_tooltip_names_each_roll_with_its_drms_and_rule_b25_6() -> None:
    live = position_from_snapshot(snapshot(_game()), phase=Phase.AFPH)
    by_hex = {s["hex"]: s for s in risk_layer(live)["shades"]}
    d3 = by_hex["D3"]
    assert d3["label"].startswith("→B ") and d3["label"].endswith("%")
    assert d3["tip"].splitlines()[0] == "D3: at the end of this AFPh (B25.6)"
    assert "D3: Flame→Blaze 58% — " in d3["tip"] and "(B25.151)" in d3["tip"]
    c3 = by_hex["C3"]
    assert "Spreading Fire from" in c3["tip"] and "B25" in c3["tip"]
    assert all(s.get("map") == "Main Map" for s in by_hex.values())


def test_risk_layer_watches_the_fire_and_weather_counters() -> None:
    live = position_from_snapshot(snapshot(_game()), phase=Phase.AFPH)
    assert set(risk_layer(live)["watch"]) >= {"b1", "f1", "ec", "w", "wd"}


def test_risk_layer_of_a_map_without_fires_is_empty() -> None:
    live = position_from_snapshot(snapshot(_game()[2:]), phase=Phase.AFPH)
    layer = risk_layer(live)
    assert layer["shades"] == [] and "0 hexes" in layer["title"]


def test_risk_layer_forecast_mode_shades_what_may_burn_after_n_player_turns() -> None:
    live = position_from_snapshot(snapshot(_game()), phase=Phase.AFPH)
    from asl_vassal_bridge.bridge.risk import forecast_layer

    layer = forecast_layer(live, 2, 400)
    shades = {s["hex"]: s for s in layer["shades"]}
    assert "after 2 Player Turns" in layer["title"] and "400 trials" in layer["title"]
    assert "C2" not in shades and "D3" not in shades  # burning now: their counters say so
    assert {"C1", "C3"} <= set(shades)  # Woods beside the Blaze
    assert all(0 < s["chance"] <= 1 and s["label"].endswith("%") for s in shades.values())
    assert shades["C1"]["tip"].startswith("C1: burning after 2 Player Turns (forecast of 400 trials; B25.151")
    assert layer == forecast_layer(live, 2, 400)  # the same seed: still while nothing changes


def test_risk_layer_label_names_an_upper_level_location_b23() -> None:
    from asl_vassal_bridge.bridge.risk import _level_mark
    from asl_vassal_bridge.core.hexes import Hex
    from asl_vassal_bridge.core.position import Location

    h = Hex(0, 0)
    assert [_level_mark(Location(h, lv, roof)) for lv, roof in ((0, False), (1, False), (-1, False), (3, True))] == [
        "", "L1 ", "Cellar ", "Roof "]
