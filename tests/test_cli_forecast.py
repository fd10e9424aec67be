"""``asl-fire forecast`` end to end, through :func:`main`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.cli.forecast import ProgressBar
from asl_vassal_bridge.posfile import dump
from asl_vassal_bridge.scenarios import demo_position


def test_forecast_table_names_locations_with_chances_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["forecast", "demo", "--turns", "2", "--trials", "2000", "--seed", "4"]) == 0
    out = capsys.readouterr()
    assert "after 2 Player Turns" in out.out and "2000 trajectories, seed 4" in out.out
    assert "D3 " in out.out and "100.0%" in out.out  # the Blaze in D3 never goes out (B25.6)
    assert out.err == ""  # no progress bar when stderr is not a terminal


def test_forecast_json_and_png_are_reproducible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "heat.png"
    assert main(["forecast", "demo", "--turns", "3", "--trials", "1500", "--seed", "9", "--json",
                 "--png", str(png)]) == 0
    a = json.loads(capsys.readouterr().out)
    assert png.stat().st_size > 5000
    main(["forecast", "demo", "--turns", "3", "--trials", "1500", "--seed", "9", "--json"])
    b = json.loads(capsys.readouterr().out)
    assert a["locations"] == b["locations"]
    by = {r["location"]: r for r in a["locations"]}
    assert by["C4"]["burning"] > 0.5 and 0 < by["C4"]["stderr"] < 0.02


def test_forecast_reads_position_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "village.toml"
    dump(demo_position(), path)
    assert main(["forecast", str(path), "--turns", "1", "--trials", "500", "--seed", "1"]) == 0
    assert "after 1 Player Turn" in capsys.readouterr().out


def test_forecast_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["forecast", str(tmp_path / "missing.toml")]) == 2
    assert main(["forecast", "demo", "--trials", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("asl-fire forecast:") for line in err)


def test_progress_bar_draws_only_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    quiet, tty = io.StringIO(), Tty()
    for f in (0.25, 0.5, 1.0):
        ProgressBar(quiet, "x")(f)
    bar = ProgressBar(tty, "forecast")
    for f in (0.25, 0.5, 1.0):
        bar(f)
    assert quiet.getvalue() == ""
    assert "100%" in tty.getvalue() and tty.getvalue().endswith("\n")
