"""Issue 34 in a real browser: the example notebook as a player's workbench, in Voilà and JupyterLab (its file
browser open), 1280×800 and 1024×768, light and dark (``tests/widget/browser/check_workbench.js``).

* ``map_first``: without scrolling, the map's top-left corner, "Latest" and the hex panel are in the window, the
  panel beside the map, and a hovered hex's odds too;
* ``phase_control``: Kindling in the RPh is refused with the way to the PFPh, "next ▶" reaches it (rolling the Wind
  Change DR), Kindling is then made;
* ``live_not_connected``: "connect to VASSAL" with no VASSAL says so in one line; ``FireWidget.live()`` in a cell
  shows one line, no traceback;
* ``file_picker``: a ``.vsav`` picked in the page with its boards folder and module typed is loaded, a bad file
  is one line in "Latest";
* contrast: every text the widget shows is at least 4.5:1 against what is behind it, at first sight and after a
  refusal and a load;
* ``stack_badge``: a six-counter stack shows one counter with its "+5" badge and the hex panel lists all six.

Run one at a time (each serves a notebook and drives Chromium): ``-k "workbench and voila and 1280 and light"``.
Screenshots: ``screenshots/widget/workbench-*``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import missing
from tests.widget.test_browser import (
    BROWSER,
    CHROMIUM,
    NOTEBOOK,
    REPO,
    SCREENSHOTS,
    WRONG_FILE_NOTEBOOK,
    _missing,
    _voila,
)
from tests.widget.test_browser import lab_url as lab_url

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (1024, 768)]


@pytest.fixture(scope="module", params=["light", "dark"])
def workbench_voila(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    reason = _missing()
    if reason:
        missing("browser", reason)
    yield from _voila(NOTEBOOK, tmp_path_factory.mktemp("jupyter"), request.param)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    from tests import unit_art

    d = tmp_path_factory.mktemp("game")
    bad = d / "broken.vsav"
    bad.write_bytes(b"this is not a VASSAL saved game")
    return {"vsav": str(unit_art.write_game(d)), "boards": str(unit_art.write_boards(d)),
            "vmod": str(unit_art.write_module(d)), "badFile": str(bad)}


def _uv(name: str) -> dict[str, float]:
    from asl_fire_widget import FireWidget

    w = FireWidget.demo(seed=1)
    x, y = w.session.position.map.parse_hex(name).pixel()
    return {"u": x - w.geo.x0, "v": y - w.geo.y0}


def _odds_hex() -> dict[str, float]:
    from asl_fire_widget import FireWidget

    w = FireWidget.demo(seed=1)
    pos = w.session.position
    busy = {f.location.hex for f in pos.fires} | {u.location.hex for u in pos.units}
    h = next(h for h, p in sorted(w.session.odds_by_hex().items(), key=lambda kv: -kv[1]) if h not in busy and p > 0)
    return _uv(pos.map.hex_name(h))


def _run(script: str, config: dict[str, Any], tmp_path: Path, timeout: int = 240) -> dict[str, Any]:
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(dict(config, chromium=CHROMIUM)))
    run = subprocess.run(["node", str(BROWSER / script), str(cfg)], cwd=BROWSER, capture_output=True, text=True,
                         timeout=timeout)
    assert run.returncode == 0, run.stderr[-3000:]
    seen: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return seen


def _check(url: str, mode: str, size: tuple[int, int], dark: bool, game: dict[str, str], tmp_path: Path) -> None:
    shots = SCREENSHOTS / f"workbench-{mode}-{size[0]}-{'dark' if dark else 'light'}"
    if shots.exists():
        shutil.rmtree(shots)
    seen = _run("check_workbench.js", dict(game, url=url, mode=mode, screenshots=str(shots), dark=dark,
                                           viewport={"width": size[0], "height": size[1]}, f7=_uv("F7"),
                                           oddsHex=_odds_hex()), tmp_path)
    (shots / "seen.json").write_text(json.dumps(seen, indent=1))
    assert "error" not in seen, seen["error"]
    assert not [s for s in seen["steps"] if "pageerror" in s], seen["steps"]
    # map_first: at first sight, no scrolling: the map's top-left corner, "Latest" and the hex panel beside it.
    first = seen["first"]
    canvas, latest, panel = first["canvas"], first["latest"], first["panel"]
    vw, vh = canvas["vw"], canvas["vh"]
    assert 0 <= canvas["top"] < vh - 100 and 0 <= canvas["left"] < vw - 100, first
    assert latest["top"] >= 0 and latest["bottom"] <= vh, first
    assert panel["left"] >= canvas["right"] - 2 and panel["top"] < canvas["bottom"], first  # beside the map
    assert 0 <= panel["top"] < vh and panel["right"] <= vw + 1, first
    if mode == "lab":
        assert seen["fileBrowserOpen"], "JupyterLab's file browser should be open beside the notebook"
    hover = seen["hover"]
    assert "catches fire" in hover["text"] and hover["top"] >= 0 and hover["top"] + 60 < vh, hover
    # phase_control
    assert seen["refusedInRph"] and "Kindling is made in the PFPh, not the RPh" in seen["refusal"], seen["refusal"]
    assert seen["reachedPfph"] and seen["jump"].startswith("PFPh"), (seen["jump"], seen["header"])
    assert seen["kindled"] and "Kindling in F7" in seen["afterKindling"], seen["afterKindling"]
    # live_not_connected
    assert seen["notConnected"] and "not connected" in seen["liveState"], seen["liveState"]
    assert "no connection file" in seen["latestNotConnected"], seen["latestNotConnected"]
    # file_picker
    assert seen["vsavLoaded"], seen["afterVsav"]
    assert seen["badRefused"] and seen["badLatest"].count("\n") == 0, seen["badLatest"]
    assert "broken.vsav" in seen["badLatest"] and "Traceback" not in seen["badLatest"], seen["badLatest"]
    # contrast, in both themes, at every stage
    for key in ("contrastFirst", "contrastRefused", "contrastLast"):
        assert seen[key]["count"] > 30, seen[key]
        assert seen[key]["bad"] == [], (key, seen[key]["bad"])


@pytest.mark.parametrize("size", SIZES, ids=["1280", "1024"])
def test_workbench_file_picker_live_not_connected_map_first_phase_control_in_voila(
        workbench_voila: str, game: dict[str, str], size: tuple[int, int], tmp_path: Path,
        request: pytest.FixtureRequest) -> None:
    _check(workbench_voila, "voila", size, "dark" in request.node.callspec.id, game, tmp_path)


@pytest.mark.parametrize("size", SIZES, ids=["1280", "1024"])
def test_workbench_file_picker_live_not_connected_map_first_phase_control_in_jupyterlab(
        lab_url: str, game: dict[str, str], size: tuple[int, int], tmp_path: Path,
        request: pytest.FixtureRequest) -> None:
    _check(lab_url, "lab", size, "dark" in request.node.callspec.id, game, tmp_path)


LIVE_NOTEBOOK = """\
from asl_fire_widget import FireWidget, LoadError

try:
    w = FireWidget.live()
except LoadError as e:
    w = e.widget()
w
"""


def _one_cell(text: str, tmp_path: Path) -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(text)]
    (tmp_path / "nb").mkdir()
    notebook = tmp_path / "nb" / "check.ipynb"
    nbformat.write(nb, notebook)
    (tmp_path / "jupyter").mkdir()
    return notebook


def test_live_not_connected_shows_one_line_and_no_traceback_in_voila(tmp_path: Path) -> None:
    reason = _missing()
    if reason:
        missing("browser", reason)
    assert "FireWidget.from_file" in WRONG_FILE_NOTEBOOK  # the same page as a wrong file's (check_error.js)
    served = _voila(_one_cell(LIVE_NOTEBOOK, tmp_path), tmp_path / "jupyter")
    url = next(served)
    try:
        seen = _run("check_error.js", {"url": url, "screenshots": str(SCREENSHOTS / "workbench-live")}, tmp_path)
    finally:
        served.close()
    assert "error" not in seen, seen["error"]
    lines = seen["errorLines"]
    assert len(lines) == 1 and "live game: not connected" in lines[0] and "no connection file" in lines[0], seen
    assert "Traceback" not in seen["text"] and "There was an error" not in seen["text"], seen["text"][-1500:]


STACK_NOTEBOOK = """\
from asl_fire_widget import FireWidget
from asl_vassal_bridge.core import Fire, FireKind
from asl_vassal_bridge.core.values import replace

w = FireWidget.demo(seed=1)
pos = w.session.position
f7 = pos.map.parse_location("F7")
squad = next(u for u in pos.units if u.location == f7 and u.name == "4-6-7")
extra = tuple(replace(squad, id=f"x{k}") for k in range(3))
w.session.replace_position(pos.with_(units=pos.units + extra).add_fire(Fire(f7, FireKind.FLAME)), "six")
w
"""


def test_stack_badge_of_a_six_counter_stack_in_voila(tmp_path: Path) -> None:
    reason = _missing()
    if reason:
        missing("browser", reason)
    from asl_vassal_bridge.mapview import counter_boxes

    x, y, side = counter_boxes(1, 0.0, 0.0, 1.0)[0]  # the one counter shown, at zoom 1, from the hex centre
    f7 = _uv("F7")
    badge = {"u": f7["u"] + x + side, "v": f7["v"] + y + side}
    served = _voila(_one_cell(STACK_NOTEBOOK, tmp_path), tmp_path / "jupyter")
    url = next(served)
    try:
        seen = _run("check_workbench.js", {"url": url, "mode": "stack", "screenshots": str(SCREENSHOTS /
                    "workbench-stack"), "stackHex": f7, "badge": badge}, tmp_path)
    finally:
        served.close()
    assert "error" not in seen, seen["error"]
    assert "Counters (6, bottom to top): 4-6-7 (German)" in seen["stackPanel"]["text"], seen["stackPanel"]
    assert seen["badge"]["dark"] > 30 and seen["badge"]["white"] > 4, seen["badge"]  # a dark disc, white "+5"
    assert REPO.is_dir()
