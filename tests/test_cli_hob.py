"""``asl-fire hob POSITION --unit-id ID``: Heat of Battle (A15) for a unit named by its id in a position file, the
same POSITION argument (a .toml, a .vsav or ``demo``) the other commands read; bad input gets one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asl_vassal_bridge import cli

UNITS = """format = 1
sides = ["German", "Japanese"]

[map]
columns = "A-C"
rows = "1-3"

[[units]]
id = "hs1"
name = "2-4-7"
side = "German"
at = "A1"
kind = "half-squad"
berserk = true

[[units]]
id = "pb"
name = "4-4-7"
side = "Japanese"
at = "B2"
in_pillbox = true

[[units]]
id = "ldr"
name = "9-1"
side = "German"
at = "A1"
kind = "leader"

[[units]]
id = "mg"
name = "MMG"
side = "German"
at = "A2"

[[units]]
id = "tank"
name = "PzIVH"
side = "German"
at = "A3"
kind = "vehicle"
"""


#: Sides that name no nationality: --nationality completes the unit.
AXIS = """format = 1
sides = ["Axis", "Allied"]

[map]
columns = "A-B"
rows = "1-2"

[[units]]
id = "ax"
name = "4-6-7"
side = "Axis"
at = "B2"
"""


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = cli.main(["hob", *argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.fixture
def units(tmp_path: Path) -> Path:
    (tmp_path / "axis.toml").write_text(AXIS, "utf-8")
    path = tmp_path / "units.toml"
    path.write_text(UNITS, "utf-8")
    return path


def test_a15_1_hob_reads_the_unit_by_its_id_from_the_demo_position(capsys: pytest.CaptureFixture[str]) -> None:
    # demo's r2: a broken Russian 4-4-7 (+2 Russian, +1 Broken, A15.1), read instead of described
    rc, out, err = run(["demo", "--unit-id", "r2", "--dice", "3,4"], capsys)
    assert rc == 0, err
    read = "  from demo: unit r2 (4-4-7, Russian) in I5.1\n"
    assert read in out and "+1 Broken (A15.1), +2 Russian (A15.1)" in out and "DR 7 (3,4)" in out
    # the same answer as the unit described on the command line, and the line saying what was read
    described = run(["--unit", "4-4-7", "--nationality", "russian", "--broken", "--dice", "3,4"], capsys)[1]
    assert out.replace(read, "") == described


def test_a15_hob_position_unit_kind_and_state_come_from_the_file(units: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run([str(units), "--unit-id", "hs1"], capsys)
    assert rc == 0 and "Not subject to Heat of Battle: already berserk (A15.1)" in out
    rc, out, _ = run([str(units), "--unit-id", "ldr", "--json"], capsys)
    data = json.loads(out)
    assert rc == 0 and data["unit"].startswith("German 9-1") and data["position_unit"]["id"] == "ldr"
    rc, out, _ = run([str(units), "--unit-id", "pb", "--adjacent-enemy", "--dice", "6,6"], capsys)
    assert rc == 0 and "Japanese in a Pillbox (G1.62)" in out  # the file's in_pillbox
    # demo's 8-1 g2 shares F7 with the 4-6-7 g1: going berserk, he tries to take it along (A15.41)
    rc, out, _ = run(["demo", "--unit-id", "g2", "--dice", "5,4"], capsys)
    assert rc == 0 and "the other friendly units in its Location" in out
    alone = run(["--unit", "8-1", "--nationality", "german", "--dice", "5,4"], capsys)[1]
    assert "any other friendly units in its Location" in alone
    # a side that names no nationality is completed by --nationality
    rc, out, _ = run([str(units.with_name("axis.toml")), "--unit-id", "ax", "--nationality", "german"], capsys)
    assert rc == 0 and "German 4-6-7" in out


def test_a15_hob_reads_a_unit_of_a_saved_game_by_its_piece_id(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from tests import unit_art

    game, boards, vmod = unit_art.write_game(tmp_path), unit_art.write_boards(tmp_path), unit_art.write_module(tmp_path)
    where = [str(game), "--boards", str(boards), "--vasl", str(vmod)]
    # VASL's "Russian 2-2-6 Chs": nationality, designation and class (the catalogue's VASL name) from the counter
    rc, out, _ = run([*where, "--unit-id", unit_art.HALF_SQUAD], capsys)
    assert rc == 0 and out.startswith("Heat of Battle (A15.1): Russian 2-2-6 (Conscript half-squad)\n")
    assert f"from {game}: unit {unit_art.HALF_SQUAD} (Russian 2-2-6 Chs, Allied) in E5" in out
    rc, out, err = run([*where, "--unit-id", unit_art.VEHICLE], capsys)
    assert rc == 2 and out == "" and err.splitlines()[-1] == (
        f"asl-fire hob: {game}: unit {unit_art.VEHICLE} (Russian Komsomolets vca3 BU) is a vehicle: Heat of Battle "
        "follows an Infantry unit's MC or Rally DR (A15.1); expected the id of an Infantry unit")


@pytest.mark.parametrize(("argv", "message"), [
    (["nowhere.toml", "--unit-id", "g1"], "nowhere.toml: no such file (expected a .toml position file"),
    (["demo", "--unit-id", "zz"], "demo: no unit with id 'zz'; expected one of: "),
    (["demo"], "with a POSITION give the unit's id (--unit-id ID)"),
    (["demo", "--unit-id", "g1", "--unit", "4-6-7"], "--unit-id or --unit, not both"),
    (["--unit-id", "g1"], "--unit-id g1 needs a POSITION"),
    ([], "give --unit and --nationality, or a POSITION and --unit-id"),
    (["--unit", "4-6-7"], "give --unit and --nationality, or a POSITION and --unit-id"),
    (["{axis}", "--unit-id", "ax"], "unit ax (4-6-7, side 'Axis') names no nationality; give --nationality"),
    (["{units}", "--unit-id", "mg"], "unit mg is named 'MMG', not a unit designation"),
    (["{units}", "--unit-id", "tank"], "unit tank (PzIVH) is a vehicle"),
])
def test_hob_bad_position_input_is_one_clear_line(argv: list[str], message: str, units: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.replace("{units}", str(units)).replace("{axis}", str(units.with_name("axis.toml"))) for a in argv]
    rc, out, err = run(argv, capsys)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("asl-fire hob: ") and message in err, err
