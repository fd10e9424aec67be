"""The RPh is never skipped (B24.721, B25.65, B25.651), and the odds fold the Gusts in as the upkeep rolls them
(issue 21, errors 10–12)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.core import Direction, Environment, Location, ScriptedDice, SeededDice, Terrain
from asl_vassal_bridge.core.fire import pending_rolls, pending_spreads, spreading_step
from asl_vassal_bridge.posfile import load

from .core.builders import L, blaze, grid, pos, put

GUSTING_AT_RPH = """format = 1
sides = ["German", "Russian"]
[clock]
turn = 2
half = 1
phase = "{phase}"
[environment]
wind = {{ force = "mild-breeze", direction = 4 }}
gusts = true
[map]
columns = "A-E"
rows = "1-6"
[[map.terrain]]
kind = "woods"
hexes = ["C2-C5"]
[[fires]]
at = "C2"
kind = "blaze"
[[fires]]
at = "C4"
kind = "flame"
hampered = true
"""


def write(tmp_path: Path, phase: str = "RPh") -> Path:
    src = tmp_path / "p.toml"
    src.write_text(GUSTING_AT_RPH.format(phase=phase), "utf-8")
    return src


# --- Error 10: `upkeep --phase afph` at an RPh plays that RPh first ------------------------------------------


def test_b25_65_afph_upkeep_at_the_rph_rolls_the_wind_change_first(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.toml"
    # Wind Change DR 3+4: no change, so last Player Turn's Gusts end and C4's Hampered mark goes (B24.721);
    # C4 rolls Flame to Blaze (1+2: stays a Flame) and C3 its Spreading Fire DR (1+1: no spread).
    assert main(["upkeep", str(write(tmp_path)), "--phase", "afph", "--dice", "3,4,1,2,1,1", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "the clock was at the RPh of 2.1: its Wind Change DR comes first" in text
    assert text.index("Wind Change DR 7: no change") < text.index("C4: Flame to Blaze in C4")
    assert "DR 3 (1,2), no DRM → Final 3 vs ≥ 7: no change" in text
    assert "Final 4 vs ≥ 7: no spread" in text and "Gusts" not in text
    new = load(out)
    assert str(new.clock) == "Turn 2.1 RtPh" and not new.environment.gusts
    assert [f.location.name for f in new.flames()] == ["C4"]


def test_b25_651_afph_upkeep_at_the_rph_keeps_gusts_only_on_a_new_12(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.toml"
    # Wind Change DR 6+6: Gusts again (no building Blaze to collapse); C3 gets its Flame from them.
    assert main(["upkeep", str(write(tmp_path)), "--phase", "afph", "--dice", "6,6,1,2", "-o", str(out),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [e["rule"] for e in data["events"]][:2] == ["B25.65", "B25.651"]
    assert "Flame placed in C3: Gusts to 4, B25.651" in [e["text"] for e in data["events"]]


def test_widget_afph_at_the_rph_rolls_the_wind_change_first(tmp_path: Path) -> None:
    from asl_fire_widget import FireSession

    s = FireSession(load(write(tmp_path)), dice=ScriptedDice([3, 4, 1, 2, 1, 1]))
    s.afph()
    assert any("Wind Change DR 7" in line for line in s.log)
    assert not s.position.environment.gusts and s.position.clock.phase.value == "RtPh"


# --- Error 11: odds at an RPh clock do not keep last Player Turn's Gusts -------------------------------------


@pytest.mark.parametrize("phase", ["RPh", "RtPh"])
def test_b25_651_odds_at_an_rph_drop_last_player_turns_gusts(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            phase: str) -> None:
    assert main(["odds", str(write(tmp_path, phase)), "--json"]) == 0
    rows = {(r["kind"], r["location"]): r for r in json.loads(capsys.readouterr().out)["rolls"]}
    # C3 is downwind (+2, B25.64): Original DR ≥ 5 — not the Gust's certain Flame.
    assert rows[("spread", "C3")]["automatic"] is False and rows[("spread", "C3")]["chance"] == "5/6"
    assert not any(kind == "gust" for kind, _ in rows)
    assert main(["odds", str(write(tmp_path, phase))]) == 0
    text = capsys.readouterr().out
    assert "The Gusts end at the Turn 2.1 RPh unless its Wind Change DR is 12 again (1/36, B25.651)" in text or (
        phase == "RtPh" and "The Gusts end at the Turn 2.2 RPh unless its Wind Change DR is 12 again" in text)
    assert "certain" not in text


def test_b25_651_odds_in_the_gusting_player_turn_keep_them(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(write(tmp_path, "MPh")), "--json"]) == 0
    rows = {(r["kind"], r["location"]): r for r in json.loads(capsys.readouterr().out)["rolls"]}
    assert rows[("spread", "C3")]["automatic"] is True


# --- Error 12: Gusts with No Wind fold the direction dr into each Location's chance ---------------------------


def gusting_woods():  # type: ignore[no-untyped-def]
    hexes = grid("A-G", "1-7")
    put(hexes, Terrain.WOODS, [f"{c}{r}" for c in "ABCDEFG" for r in range(1, 8)], feature="w")
    return pos(hexes, fires=[blaze("D4")], env=Environment(gusts=True))


def test_b25_651_no_wind_gusts_fold_the_direction_dr_into_each_locations_chance() -> None:
    p = gusting_woods()
    rows = {r.location.name: r for r in pending_rolls(p) if r.kind == "spread"}
    dr_chance = Fraction(21, 36)  # woods Spread # 7, directly attached, No Wind
    for d in Direction:
        name1 = p.loc_name(Location(L("D4").hex + d))
        name2 = p.loc_name(Location(L("D4").hex.neighbour(d, 2)))
        # The Gust blows to it in one direction of six (certain); otherwise its DR.
        assert rows[name1].chance == Fraction(1, 6) + Fraction(5, 6) * dr_chance, name1
        # Two hexes away: only the Gust's longer spread (the one Blaze is picked without a roll), 1 in 6.
        assert rows[name2].chance == Fraction(1, 6) and rows[name2].check is None, name2
    assert len(rows) == 12 and not any(r.kind == "gust" for r in pending_rolls(p))
    assert rows["D3"].reason == ("Gusts with No Wind, the direction dr folded in: automatic in 1 of 6 directions, "
                                 "else its Spreading Fire DR (7/12)")


def test_b25_651_no_wind_gust_odds_match_the_upkeep_rolled_many_times() -> None:
    hexes = grid("A-G", "1-7")
    put(hexes, Terrain.WOODS, ["D4", "D3", "D2", "C4", "E4"], feature="w")
    put(hexes, Terrain.BRUSH, ["B4", "F5"])  # not attached: −2
    p = pos(hexes, fires=[blaze("D4"), blaze("C4"), blaze("E4")], env=Environment(gusts=True))
    rows = {r.location.name: r.chance for r in pending_rolls(p) if r.kind == "spread"}
    assert {"D3", "D2", "B4", "F5"} <= set(rows)
    dice = SeededDice(21)
    trials = 3000
    caught = dict.fromkeys(rows, 0)
    for _ in range(trials):
        new, _ = spreading_step(p, dice)
        for name in caught:
            caught[name] += bool(new.flames_at(p.map.parse_location(name)))
    for name, chance in rows.items():
        assert abs(caught[name] / trials - float(chance)) < 0.035, (name, caught[name] / trials, chance)
    # The rows with a Wind Direction are unchanged: the Gusts blow with it.
    windy = p.with_(environment=Environment(gusts=True).with_wind(p.environment.wind))
    assert pending_spreads(windy) == pending_spreads(p)


def test_b25_651_no_wind_gust_odds_in_the_odds_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "p.toml"
    src.write_text(GUSTING_AT_RPH.format(phase="MPh").replace('{ force = "mild-breeze", direction = 4 }',
                                                                '{ force = "no-wind" }'), "utf-8")
    assert main(["odds", str(src)]) == 0
    text = capsys.readouterr().out
    assert "each chance below folds in the six directions" in text and "not listed" not in text
    # C3 is below C2: the Gust reaches it in 1 direction of 6, else a DR ≥ 7 (7/12): 1/6 + 5/6 × 7/12 = 47/72.
    assert "Spread   C3       47/72 (65.3%) — Gusts with No Wind, the direction dr folded in" in text
