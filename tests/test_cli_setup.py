"""The scenario's start (B25.5 EC Chart dr with the month drm; B25.63 Wind Force and B25.64 Wind Direction drs):
rolled and explained by ``asl-fire setup``; a position that leaves them unsaid says what it assumes."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.core import EC, GameMap, Position, ScriptedDice, WindForce
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.setup import scenario_start
from asl_vassal_bridge.posfile import dumps, load, loads

UNSAID = """format = 1
sides = ["German", "Russian"]
[environment]
month = {month}
[map]
columns = "A-C"
rows = "1-3"
"""


@pytest.mark.parametrize(("dr", "month", "ec"), [
    (1, 1, EC.SNOW),  # 1 −3 = −2: ≤ 0
    (6, 2, EC.MOIST),  # 6 −3 = 3
    (4, 12, EC.WET),  # 4 −2 = 2
    (2, 4, EC.MUD),  # 2 −1 = 1
    (4, 5, EC.MODERATE), (4, 10, EC.MODERATE),  # no drm
    (4, 6, EC.DRY), (4, 9, EC.DRY),  # +1
    (4, 7, EC.VERY_DRY), (3, 8, EC.DRY),  # +2
])
def test_b25_5_ec_chart_dr_with_the_months_drm(dr: int, month: int, ec: EC) -> None:
    pos, rep = scenario_start(Position(GameMap.from_hexes({})), ScriptedDice([dr]), wind=False, month=month)
    assert pos.environment.ec is ec and pos.environment.month == month and pos.environment.ec_given
    assert rep.events[0].rule == "B25.5" and f"EC Chart dr {dr} " in rep.events[0].text


@pytest.mark.parametrize(("faces", "force", "direction"), [
    ([1], WindForce.NO_WIND, None), ([3], WindForce.NO_WIND, None),
    ([4, 2], WindForce.MILD_BREEZE, 2), ([5, 6], WindForce.MILD_BREEZE, 6), ([6, 1], WindForce.HEAVY_WINDS, 1),
])
def test_b25_63_b25_64_wind_force_then_direction_only_with_wind(faces: list[int], force: WindForce,
                                                               direction: int | None) -> None:
    dice = ScriptedDice(faces)
    pos, rep = scenario_start(Position(GameMap.from_hexes({})), dice, ec=False)
    w = pos.environment.wind
    assert w.force is force and (None if w.direction is None else int(w.direction)) == direction
    assert [purpose for purpose, _ in dice.log] == ["Wind Force (B25.63)", "Wind Direction (B25.64)"][:len(faces)]
    assert [e.rule for e in rep.events] == ["B25.63", "B25.64"][:len(faces)]


def test_b25_5_the_ec_chart_needs_the_month() -> None:
    with pytest.raises(BadInput) as e:
        scenario_start(Position(GameMap.from_hexes({})), ScriptedDice([4]))
    assert str(e.value) == ("the EC Chart dr needs the scenario's month for its drm (B25.5): give --month 1–12 or "
                            "environment.month")


def test_scenario_start_reports_word_for_word_and_a_rolled_wind_has_no_gusts() -> None:
    from asl_vassal_bridge.core import Environment

    dice = ScriptedDice([4, 4, 2])
    gusting = Position(GameMap.from_hexes({}), Environment(gusts=True))
    pos, rep = scenario_start(gusting, dice, month=6)
    assert [(e.rule, e.text, e.kind) for e in rep.events] == [
        ("B25.5", "EC Chart dr 4 +1 (June) = 5: Dry, EC DRM +1", "ec"),
        ("B25.5, B21.122", "stream/river depth dr without an SSR depth: EC drm +1", "ec"),  # B25.5's last clause
        ("B25.63", "Wind Force dr 4: Mild Breeze", "wind"),
        ("B25.64", "Wind Direction dr 2: the wind blows to 2", "wind")]
    assert [purpose for purpose, _ in dice.log] == [
        "EC Chart (B25.5)", "Wind Force (B25.63)", "Wind Direction (B25.64)"]
    assert pos.environment.gusts is False
    _, calm = scenario_start(gusting, ScriptedDice([2]), ec=False)
    assert [(e.rule, e.text, e.kind) for e in calm.events] == [("B25.63", "Wind Force dr 2: No Wind", "wind")]


def test_setup_rolls_what_the_position_leaves_unsaid_and_writes_it(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    src, out = tmp_path / "s.toml", tmp_path / "o.toml"
    src.write_text(UNSAID.format(month=8), "utf-8")
    p = load(src)
    assert not p.environment.ec_given and not p.environment.wind_given
    assert "ec" not in dumps(p) and "wind" not in dumps(p)  # still unsaid after a round trip
    assert main(["odds", str(src)]) == 0
    assert ("The position does not give its EC (Moderate assumed; the EC Chart dr, B25.5) or its wind (No Wind "
            "assumed; the Wind Force dr, B25.63): `asl-fire setup` rolls them.") in capsys.readouterr().out
    assert main(["setup", str(src), "--dice", "4,5,3", "-o", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Scenario start: EC and wind (B25.5, B25.63, B25.64)",
        "  EC Chart dr 4 +2 (August) = 6: Very Dry, EC DRM +2 (B25.5)",
        "  stream/river depth dr without an SSR depth: EC drm +2 (B25.5, B21.122)",
        "  Wind Force dr 5: Mild Breeze (B25.63)",
        "  Wind Direction dr 3: the wind blows to 3 (B25.64)",
    ]
    done = load(out)
    assert done.environment.ec is EC.VERY_DRY and str(done.environment.wind) == "Mild Breeze to 3"
    assert main(["setup", str(out)]) == 0
    assert "nothing to roll" in capsys.readouterr().out
    assert main(["upkeep", str(out), "--phase", "rph", "--dice", "3,4"]) == 0
    assert "does not give" not in capsys.readouterr().out
    assert loads(dumps(done)).environment == done.environment


def test_setup_without_a_month_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "s.toml"
    src.write_text(UNSAID.format(month=8).replace("month = 8\n", ""), "utf-8")
    assert main(["setup", str(src), "--dice", "4"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--month" in err and "B25.5" in err
    assert main(["setup", str(src), "--dice", "4,1", "--month", "13"]) == 2
    assert "--month 13: expected 1–12" in capsys.readouterr().err
    assert main(["setup", str(src), "--dice", "4,1", "--month", "5"]) == 0
