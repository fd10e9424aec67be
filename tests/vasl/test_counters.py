"""Fire counters: classification by gpid and name, and what a counter's face means."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.environment import EC, WindForce
from asl_vassal_bridge.core.hexes import Direction
from asl_vassal_bridge.vasl.counters import (
    PLACE_GPIDS,
    BadCounterState,
    FireCounter,
    building_blaze_levels,
    classify,
    ec_from_layer,
    gusts_from_layer,
    level_from_layer,
    wind_direction_from_layer,
    wind_force_from_layer,
)


@pytest.mark.parametrize(("gpid", "kind"), [
    ("192", FireCounter.FLAME), ("5710", FireCounter.FLAME), ("332", FireCounter.FLAME),
    ("195", FireCounter.BLAZE), ("5713", FireCounter.BLAZE), ("335", FireCounter.BLAZE), ("114", FireCounter.BLAZE),
    ("197", FireCounter.BUILDING_BLAZE), ("200", FireCounter.BUILDING_BLAZE),
    ("191", FireCounter.BURNT_OUT_WRECK), ("4142", FireCounter.WRECK), ("5807", FireCounter.WRECK),
    ("284", FireCounter.EC), ("285", FireCounter.WIND_DIR), ("286", FireCounter.GUSTS), ("287", FireCounter.WIND),
    ("205", FireCounter.SMOKE), ("210", FireCounter.SMOKE), ("1", FireCounter.PIN), ("5704", FireCounter.PIN),
    ("0", FireCounter.PREP_FIRE), ("163", FireCounter.LEVEL), ("6663", FireCounter.LEVEL),
])
def test_b25_fire_counters_classified_by_gpid(gpid: str, kind: FireCounter) -> None:
    assert classify("anything", gpid) is kind


@pytest.mark.parametrize(("name", "kind"), [
    ("Flame", FireCounter.FLAME), ("Blaze", FireCounter.BLAZE), ("3-level Blaze", FireCounter.BUILDING_BLAZE),
    ("Burnt Out Wreck", FireCounter.BURNT_OUT_WRECK), ("Komsomolets Wreck", FireCounter.WRECK),
    ("EC: +1 Dry", FireCounter.EC), ("Wind Dir", FireCounter.WIND_DIR), ("No Gusts", FireCounter.GUSTS),
    ("Mild Breeze", FireCounter.WIND), ("Gray +2 Smoke", FireCounter.SMOKE), ("Pin", FireCounter.PIN),
    ("Building Level 1", FireCounter.LEVEL), ("Building Roof Level", FireCounter.LEVEL),
])
def test_b25_fire_counters_classified_by_name_when_gpid_unknown(name: str, kind: FireCounter) -> None:
    assert classify(name, "3b5:99999") is kind
    assert classify(name, None) is kind


def test_other_counters_are_not_fire_counters() -> None:
    assert classify("4-6-7", "2300") is None
    assert classify("Foxhole", None) is None
    assert classify(None, None) is None


def test_b25_2_building_blaze_levels() -> None:
    assert building_blaze_levels("x", "199") == 3
    assert building_blaze_levels("4-level Blaze", None) == 4
    assert building_blaze_levels("Blaze", "195") is None


def test_b25_5_ec_layers_snow_to_very_dry() -> None:
    assert [ec_from_layer(i) for i in range(1, 8)] == [
        EC.SNOW, EC.MUD, EC.WET, EC.MOIST, EC.MODERATE, EC.DRY, EC.VERY_DRY]
    with pytest.raises(BadCounterState, match="EC counter layer 8"):
        ec_from_layer(8)


def test_b25_64_wind_dir_layers_follow_vasl_images_wind3_first() -> None:
    assert [wind_direction_from_layer(i) for i in range(1, 7)] == [Direction(d) for d in (3, 4, 5, 6, 1, 2)]


def test_b25_63_wind_force_and_b25_651_gusts_layers() -> None:
    assert [wind_force_from_layer(i) for i in (1, 2, 3)] == [
        WindForce.NO_WIND, WindForce.MILD_BREEZE, WindForce.HEAVY_WINDS]
    assert gusts_from_layer(1) is True
    assert gusts_from_layer(2) is False


def test_level_marker_layers_cellar_to_roof() -> None:
    assert level_from_layer(1).level == -1
    assert level_from_layer(2).level == 0
    assert level_from_layer(5).level == 3
    assert level_from_layer(6).rooftop


def test_b25_15_new_flame_placed_from_gpid_192_pin_from_gpid_1() -> None:
    assert PLACE_GPIDS[FireCounter.FLAME] == "192"
    assert PLACE_GPIDS[FireCounter.BLAZE] == "195"
    assert PLACE_GPIDS[FireCounter.PIN] == "1"
    assert set(PLACE_GPIDS) == set(FireCounter)


def test_faces_from_the_names_vasl_gives_flipped_counters() -> None:
    from asl_vassal_bridge.vasl.counters import ec_from_name, gusts_from_name, level_from_name, wind_force_from_name
    assert ec_from_name("EC: -3 Snow") is EC.SNOW
    assert ec_from_name("EC: +1 Dry") is EC.DRY
    assert ec_from_name("EC: +2 Very Dry") is EC.VERY_DRY
    assert ec_from_name("EC") is None
    assert wind_force_from_name("Heavy Winds") is WindForce.HEAVY_WINDS
    assert gusts_from_name("No Gusts") is False and gusts_from_name("Gusts") is True
    assert level_from_name("Building Level 2") is not None and level_from_name("Building Level 2").level == 2
    assert level_from_name("Building Roof Level").rooftop  # type: ignore[union-attr]
    assert level_from_name("Building Cellar").level == -1  # type: ignore[union-attr]
