"""The widget's loaders refuse the hostile files of issue 32 in the very line ``asl-fire odds`` prints (one reader)."""

from __future__ import annotations

from pathlib import Path

import pytest
from asl_fire_widget import FireWidget, LoadError

from tests.test_hostile_writes_and_leaks import (
    _hex_levels_outside,
    _names_outside,
    _truncated_and_log,
    asl_fire,
    one_error_line,
)


@pytest.mark.parametrize("name", ["abs.vsav", "up.vsav", "ovr.vsav", "cut.vsav", "cut-in-board.vsav", "moves.vlog",
                                  "levels.toml"])
def test_the_widget_refuses_what_the_command_line_refuses_in_the_same_words(name: str, tmp_path: Path) -> None:
    for make in (_names_outside, _hex_levels_outside):
        make(tmp_path)
    (tmp_path / "again").mkdir()
    _truncated_and_log(tmp_path / "again")
    path = tmp_path / name if (tmp_path / name).exists() else tmp_path / "again" / name
    boards = tmp_path / "boards"
    run = asl_fire(["odds", str(path), "--boards", str(boards)], tmp_path, {"HOME": str(tmp_path)})
    line = one_error_line(run, "odds").removeprefix("asl-fire odds: ")
    with pytest.raises(LoadError) as e:
        FireWidget.from_file(path, boards=boards)
    assert str(e.value) == line
    assert "\n" not in line and path.name in line
