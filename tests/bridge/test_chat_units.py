"""The chat a player scans in a glance (issue 33), without an engine: the summary line first, one short line per roll
with its hex and outcome first and VASSAL's dice written once, the wind's effect in words, Fire odds naming the fire
each Spreading Fire comes from, an attack's DR once."""

from __future__ import annotations

import re
from typing import Any

from asl_vassal_bridge.bridge.chat import DICE, phase_summary, roll_lines
from asl_vassal_bridge.bridge.report import odds_lines
from asl_vassal_bridge.core import EC, Clock, Phase, ScriptedDice, Terrain, end_of_afph, rally_phase
from asl_vassal_bridge.core.dice import Roll
from asl_vassal_bridge.core.environment import Wind, WindForce
from asl_vassal_bridge.core.hexes import Direction
from asl_vassal_bridge.core.position import Position
from asl_vassal_bridge.core.values import replace
from tests.core.builders import blaze, flame, grid, mild, pos, put


def _scene() -> Position:
    hexes = grid("A-H", "1-8")
    put(hexes, Terrain.WOODS, ["C3", "C4", "C5"], feature="w")
    put(hexes, Terrain.BRUSH, ["D3", "G6", "G7"])
    return pos(hexes, [], fires=[blaze("C3"), flame("C4"), flame("G6")], env=mild(3, EC.DRY))


def _faces(log: list[tuple[str, Roll]]) -> list[tuple[str, list[int]]]:
    return [(p, [r.colored] + ([r.white] if r.white is not None else [])) for p, r in log]


def _upkeep(faces: list[int]) -> tuple[Position, Position, Any, list[str]]:
    before = _scene()
    dice = ScriptedDice(faces)
    after, report = end_of_afph(before, dice)
    return before, after, report, roll_lines(_faces(dice.log), report)


def test_summary_line_says_what_changed_first_then_no_other_change() -> None:
    before, after, report, _ = _upkeep([6, 6, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1])
    line = phase_summary(Phase.AFPH, "PT5 AFPh", report, before, after)
    assert line.startswith("* ASL fire bridge, PT5 AFPh upkeep: ")
    assert "Blaze C4" in line and "no other change" in line
    flames = [e.location for e in report.events if e.kind == "flame"]
    assert all(str(f) in line for f in flames)


def test_summary_line_nothing_changed_when_no_roll_changes_anything() -> None:
    before = _scene()
    wind = Phase.RPH
    dice = ScriptedDice([3, 4])  # Wind Change DR 7: no change (B25.65)
    after, report = rally_phase(replace(before, clock=Clock(3, 1, wind)), dice)
    summary = phase_summary(wind, "PT5 RPh", report, before, after)
    assert summary == "* ASL fire bridge, PT5 RPh wind change: nothing changed"
    assert roll_lines(_faces(dice.log), report) == ["* Wind Change (B25.65): DR {dice}"]


def test_summary_line_says_the_new_wind_in_words() -> None:
    before = _scene()
    after = replace(before, environment=replace(before.environment, wind=Wind(WindForce.HEAVY_WINDS, Direction(3))))
    report = rally_phase(replace(before, clock=Clock(3, 1, Phase.RPH)), ScriptedDice([3, 4]))[1]
    assert "wind now Heavy Winds to 3" in phase_summary(Phase.RPH, "PT5 RPh", report, before, after)


def test_summary_line_roll_lines_lead_with_hex_and_outcome_dice_once_under_120() -> None:
    _, _, report, lines = _upkeep([6, 6, 1, 1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1])
    checks = [e for e in report.events if e.roll is not None]
    assert len(lines) == len(checks) >= 3
    for line, event in zip(lines, checks, strict=True):
        assert line.startswith(f"* {event.location}: ")
        assert line.count(DICE) == 1 and f"({event.roll.check.rule}" in line  # type: ignore[union-attr]
        drms = event.roll.check.drms  # type: ignore[union-attr]
        assert all(f"({d.rule})" in line for d in drms)
        # most lines under 120 characters; one of 3 DRMs a little longer (VASSAL's chat shows about 190 characters a
        # line in a 1280-pixel window, as the live test's screenshot shows)
        assert len(line.replace(DICE, "6,6")) <= (120 if len(drms) < 3 else 160), line
    spread = next(line for line in lines if "from Blaze C3" in line)
    assert re.search(r"— from Blaze C3 into (Woods|Brush) \(B25\.6\): DR \{dice\}", spread)
    assert "Mild Breeze to" not in "".join(lines)  # the wind's effect in words
    assert any("downwind in a Mild Breeze (B25.64)" in line or "flank of a Mild Breeze (B25.64)" in line
               for line in lines)


def test_fire_odds_name_the_blaze_each_spreading_fire_comes_from() -> None:
    lines = odds_lines(_scene())
    spreads = [line for line in lines if "Spreading Fire" in line]
    assert spreads and all("Spreading Fire from Blaze in C3 " in line for line in spreads)
