"""Issue 32 in the notebook: the widget loads an opponent's files within the same bounds as ``asl-fire``.

Each hostile file (made by :mod:`tests.test_hostile_crashes_and_hangs`) is loaded by ``FireWidget.from_file`` in
a child process under 2 GiB of address space and a 30 s timeout; it must end in one :class:`LoadError` line
naming the file and the limit, never a hang or a traceback.  An image bomb among the module's unit pictures
is said in the widget's log, the units drawn in their side's colour.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import SHARED_VASL, missing
from tests.test_hostile_crashes_and_hangs import (
    BIG_MAP,
    TIME_LIMIT,
    _concealed_stack,
    _limits,
    _nested_64_mb,
    _unit_picture_bomb,
    _vsav,
)

ROOT = Path(__file__).resolve().parents[2]

_CHILD = """
import sys
from asl_fire_widget import FireWidget
from asl_fire_widget.state import LoadError
try:
    FireWidget.from_file(sys.argv[1], sys.argv[2] or None, seed=1)
except LoadError as e:
    print(str(e))
    sys.exit(3)
print("loaded")
"""


def _terrain_ranges(tmp: Path) -> None:
    (tmp / "terrain.toml").write_text(BIG_MAP + '[[map.terrain]]\nkind = "woods"\nhexes = ["A1-A50000"]\n' * 400)


HOSTILE: dict[str, tuple[str, Callable[[Path], None], tuple[str, ...], bool]] = {
    "nested-50-deep-64-mb": ("deep.vsav", _nested_64_mb, ("deep.vsav", "more than 134,217,728 characters"), True),
    "stack-100000-concealed": ("conceal.vsav", _concealed_stack, ("conceal.vsav", "more than 50,000 pieces"), True),
    "2000-overlays": ("ovr.vsav", lambda t: _vsav(t, "ovr.vsav", [], "bd\t0\t0\t01\tVER\t6.1\t"
                                                  + "OVR\tx1\tE5\tE5\t" * 2000),
                      ("ovr.vsav", "more than 100 overlays"), True),
    "60000-ssr-tokens": ("ssr.vsav", lambda t: _vsav(t, "ssr.vsav", [], "bd\t0\t0\t01\tVER\t6.1\tSSR\t"
                                                     + "NoGrain\t" * 60_000),
                         ("ssr.vsav", "more than 300 SSR"), True),
    "400-terrain-ranges": ("terrain.toml", _terrain_ranges, ("terrain.toml", "more than 1,000,000 hexes"), False),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_the_widget_refuses_a_hostile_file_in_one_line_within_the_bounds(name: str, tmp_path: Path) -> None:
    file, make, words, vsav = HOSTILE[name]
    boards = SHARED_VASL / "boards"
    if vsav and not (boards / "bd01").is_file():
        missing("data", f"{boards / 'bd01'} does not exist (the shared/vasl folder beside the repository)")
    make(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "widget"), str(ROOT)]),
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    run = subprocess.run([sys.executable, "-c", _CHILD, str(tmp_path / file), str(boards) if vsav else ""],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=TIME_LIMIT,
                         preexec_fn=_limits, check=False)
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.returncode == 3, (run.returncode, run.stdout, run.stderr[-2000:])
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_an_image_bomb_among_the_unit_pictures_is_said_in_the_widgets_log(tmp_path: Path) -> None:
    from asl_fire_widget import FireWidget

    if not (SHARED_VASL / "boards" / "bd01").is_file():
        missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
    _unit_picture_bomb(tmp_path)
    w = FireWidget.from_file(tmp_path / "units.vsav", tmp_path / "boards", seed=1, vasl=tmp_path / "VASL.vmod")
    said = [line for line in w.session.log if "unit pictures" in line]
    assert said and "images/ru/ru226H.png" in said[0] and "40,000,000 pixels" in said[0], w.session.log
    assert not any(k.startswith("unit:") for k in w.counter_images)
