"""The Python API a notebook user calls and the ``asl-fire`` commands agree about the clock (issue 34).

On the demo's positions before (its RPh of 2.1) and after (``asl-fire demo``'s ``after.toml``, past the AFPh of
3.2), ``asl_vassal_bridge.core``'s ``pending_rolls``, ``rally_phase`` and ``end_of_afph`` list the rolls ``odds``
lists, roll what ``upkeep`` rolls with the same seed, leave the clock where it leaves it, and refuse what it refuses
with the same line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.core import BadInput, SeededDice, end_of_afph, pending_rolls, rally_phase
from asl_vassal_bridge.posfile import load


@pytest.fixture(scope="module")
def demo_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out)]) == 0
    before = out / "before.toml"
    from asl_vassal_bridge.scenarios import demo_text

    before.write_text(demo_text(), "utf-8")
    return {"before": before, "after": out / "after.toml"}


def _cli_rolls(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str, str]]:
    capsys.readouterr()
    assert main(["odds", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return [(r["kind"], r["location"], r["chance"]) for r in data["rolls"]]


@pytest.mark.parametrize("which", ["before", "after"])
def test_api_equals_cli_pending_rolls(which: str, demo_files: dict[str, Path],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    pos = load(demo_files[which])
    api = [(r.kind, pos.loc_name(r.location), str(r.chance)) for r in pending_rolls(pos)]
    assert api == _cli_rolls(demo_files[which], capsys)
    assert len(api) >= 9


def test_api_equals_cli_after_the_demo_the_afph_is_refused_alike(demo_files: dict[str, Path],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pos = load(demo_files["after"])
    assert str(pos.clock) == "Turn 3.2 RtPh"
    with pytest.raises(BadInput) as refused:
        end_of_afph(pos, SeededDice(7))
    capsys.readouterr()
    assert main(["upkeep", str(demo_files["after"]), "--phase", "afph", "--seed", "7"]) == 2
    err = capsys.readouterr().err
    assert str(refused.value) in err
    assert "the AFPh of 3.2 is already past (clock: Turn 3.2 RtPh)" in err


@pytest.mark.parametrize("which", ["before", "after"])
def test_api_equals_cli_rph_then_afph_roll_and_move_the_clock_alike(which: str, demo_files: dict[str, Path],
                                                                    tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    pos = load(demo_files[which])
    api_rph, rep_rph = rally_phase(pos, SeededDice(7))
    api_afph, rep_afph = end_of_afph(api_rph, SeededDice(8))
    rph_file, afph_file = tmp_path / "rph.toml", tmp_path / "afph.toml"
    capsys.readouterr()
    assert main(["upkeep", str(demo_files[which]), "--phase", "rph", "--seed", "7", "-o", str(rph_file)]) == 0
    assert rep_rph.text() in capsys.readouterr().out
    assert main(["upkeep", str(rph_file), "--phase", "afph", "--seed", "8", "-o", str(afph_file)]) == 0
    assert rep_afph.text() in capsys.readouterr().out
    cli_rph, cli_afph = load(rph_file), load(afph_file)
    assert (cli_rph.clock, cli_afph.clock) == (api_rph.clock, api_afph.clock)
    assert cli_afph.fires == api_afph.fires and cli_afph.environment == api_afph.environment
    assert api_afph.clock.phase.value == "RtPh"
    with pytest.raises(BadInput, match="already past"):  # a second call never rolls again
        end_of_afph(api_afph, SeededDice(8))
