"""The widget in a real browser: Voilà serves examples/fire_widget.ipynb, headless Chromium clicks it.

Needs ``scripts/install-browser-test-deps.sh`` (Debian Chromium, npm playwright-core, Voilà).  The
screenshots stay in ``screenshots/widget/voila/`` and ``screenshots/widget/lab/`` at the repository root after the run.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from asl_vassal_bridge.core import Hex, Location, Terrain
from asl_vassal_bridge.render import TERRAIN_COLOURS
from tests.conftest import missing
from tests.widget.servers import serve, stop

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
BROWSER = Path(__file__).resolve().parent / "browser"
SCREENSHOTS = REPO / "screenshots" / "widget"
NOTEBOOK = REPO / "examples" / "fire_widget.ipynb"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return "no Chromium (run scripts/install-browser-test-deps.sh)"
    if shutil.which("node") is None:
        return "no node (run scripts/install-browser-test-deps.sh)"
    if not (BROWSER / "node_modules" / "playwright-core").is_dir():
        return "no playwright-core in tests/widget/browser (run scripts/install-browser-test-deps.sh)"
    try:
        import voila  # noqa: F401
    except ImportError:
        return "no Voilà (run scripts/install-browser-test-deps.sh)"
    return None


def _jupyter_data() -> str:
    """Jupyter's data folder with Voilà's templates (a venv made with --system-site-packages has none)."""
    for prefix in (sys.prefix, sys.base_prefix):
        d = Path(prefix) / "share" / "jupyter"
        if (d / "voila" / "templates").is_dir():
            return str(d)
    return str(Path(sys.prefix) / "share" / "jupyter")


def _no_vassal(home: Path) -> dict[str, str]:
    """The kernel's environment as on a machine where VASSAL never ran: empty preferences, no bridge connection file
    (the widget's load control then finds no boards folder or module, and "connect to VASSAL" finds no game)."""
    conf = home / "vassal-conf"
    conf.mkdir(exist_ok=True)
    return {"ASL_FIRE_VASSAL_CONF": str(conf), "ASL_FIRE_BRIDGE_FILE": str(conf / "aslfire" / "bridge.json")}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module", params=["light", "dark"])
def voila_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    reason = _missing()
    if reason:
        missing("browser", reason)
    yield from _voila(NOTEBOOK, tmp_path_factory.mktemp("jupyter"), request.param)


def _voila(notebook: Path, home: Path, theme: str = "light") -> Iterator[str]:
    """Serve *notebook* with Voilà until the generator is closed."""
    port = _free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTER_DATA_DIR=os.environ.get("JUPYTER_DATA_DIR", _jupyter_data()), **_no_vassal(home))
    log = open(home / "voila.log", "wb")  # noqa: SIM115 - closed below
    proc = serve(
        [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
         "--ServerApp.token=", "--ServerApp.password=", f"--theme={theme}"], cwd=REPO, env=env, log=log)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"Voilà did not start: {(home / 'voila.log').read_text(errors='replace')[-2000:]}")
            time.sleep(0.3)
        yield url
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="module", params=["light", "dark"])
def lab_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    reason = _missing()
    if reason:
        missing("browser", reason)
    port = _free_port()
    home = tmp_path_factory.mktemp("lab")
    if request.param == "dark":
        themes = home / "settings" / "@jupyterlab" / "apputils-extension"
        themes.mkdir(parents=True)
        (themes / "themes.jupyterlab-settings").write_text(json.dumps({"theme": "JupyterLab Dark"}))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               **_no_vassal(home))
    log = open(home / "lab.log", "wb")  # noqa: SIM115 - closed below
    proc = serve(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=",
         "--LabApp.news_url=", "--ServerApp.disable_check_xsrf=True", f"--ServerApp.root_dir={REPO}"],
        cwd=REPO, env=env, log=log)
    base = f"http://127.0.0.1:{port}/"
    checkpoints = NOTEBOOK.parent / ".ipynb_checkpoints"
    had_checkpoints = checkpoints.exists()
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(base + "api", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"JupyterLab did not start: {(home / 'lab.log').read_text(errors='replace')[-2000:]}")
            time.sleep(0.3)
        yield base + "lab/tree/examples/fire_widget.ipynb"
    finally:
        stop(proc)
        log.close()
        if not had_checkpoints:
            shutil.rmtree(checkpoints, ignore_errors=True)  # JupyterLab's, not ours to keep


def _geometry() -> dict[str, object]:
    """Where the known hexes and counters are on the map, as board pixels from the map's top-left corner
    ({u, v}): the browser turns them into canvas points with the zoom and pan the widget shows, whatever
    size the page gave its canvas."""
    from asl_fire_widget import FireWidget

    from asl_vassal_bridge.mapview import counter_boxes, counters_in

    w = FireWidget.demo(seed=1)  # as the notebook makes it
    pos = w.session.position
    m = pos.map
    geo = w.geo

    def uv(h: Hex, dx: float = 0.0, dy: float = 0.0) -> dict[str, float]:
        x, y = h.pixel()
        return {"u": x - geo.x0 + dx, "v": y - geo.y0 + dy}

    def at(name: str) -> dict[str, float]:
        return uv(m.parse_hex(name))

    busy = {f.location.hex for f in pos.fires} | {x.location.hex for x in pos.wrecks} | \
        {u.location.hex for u in pos.units}
    odds_hex = next(h for h, p in sorted(w.session.odds_by_hex().items(), key=lambda kv: -kv[1])
                    if h not in busy and p > 0)
    candidates = [dict(uv(h), name=m.hex_name(h)) for h in sorted(m.hexes, key=lambda h: (-h.r, h.q))
                  if h not in busy and h != m.parse_hex("G2") and m.is_burnable(Location(h))]
    mid_x = (geo.points[:, 0].min() + geo.points[:, 0].max()) / 2
    mid_y = (geo.points[:, 1].min() + geo.points[:, 1].max()) / 2
    open_hex = min((h for h in m.hexes if h not in busy and not m.is_burnable(Location(h))
                    and m.hexes[h].terrain is Terrain.OPEN_GROUND and m.hexes[h].elevation == 0),
                   key=lambda h: (h.pixel()[0] - mid_x) ** 2 + (h.pixel()[1] - mid_y) ** 2)
    stacks = counters_in(pos)

    def counter(unit_id: str, fx: float, fy: float) -> dict[str, float]:
        """A point of a unit's counter at fraction (fx, fy) of its side (the counter boxes scale with the zoom)."""
        u = next(u for u in pos.units if u.id == unit_id)
        stack = stacks[u.location.hex]
        k = next(i for i, c in enumerate(stack) if c.unit is not None and c.unit.id == unit_id)
        x, y, side = counter_boxes(len(stack), 0.0, 0.0, 1.0)[k]
        return uv(u.location.hex, x + fx * side, y + fy * side)

    sweep = [at(name) for name in ("C5", "D5", "E5", "F5", "G6")]  # a quick sweep, no pause, ending on G6
    return {"terrainHex": dict(at("C2"), rgb=list(TERRAIN_COLOURS[Terrain.WOODS])),
            "clickHex": at("G2"), "scrollCandidates": candidates,
            "oddsHex": dict(uv(odds_hex), name=m.hex_name(odds_hex)),
            "openHex": dict(uv(open_hex), name=m.hex_name(open_hex)),
            # (0.75, 0.75) of the squad's box lies inside its counter whether the F7 stack is drawn side by side or,
            # at a small zoom, as its one counter with a "+1" badge (issue 34)
            "unitHex": counter("g1", 0.75, 0.75), "brokenMark": counter("r2", 0.88, 0.1),
            "sweep": sweep, "sweepEnd": "G6"}


def _close(a: list[int], b: tuple[int, ...] | list[int], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)], ids=["1280", "1024"])
def test_widget_in_voila_draws_the_board_places_a_flame_and_shows_odds(voila_url: str, tmp_path: Path,
                                                                       size: tuple[int, int],
                                                                       request: pytest.FixtureRequest) -> None:
    _check_in_browser(voila_url, "voila", tmp_path, size, "dark" in request.node.callspec.id)


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)], ids=["1280", "1024"])
def test_widget_in_jupyterlab_draws_the_board_places_a_flame_and_shows_odds(lab_url: str, tmp_path: Path,
                                                                            size: tuple[int, int],
                                                                            request: pytest.FixtureRequest) -> None:
    _check_in_browser(lab_url, "lab", tmp_path, size, "dark" in request.node.callspec.id)


def _check_in_browser(url: str, mode: str, tmp_path: Path, size: tuple[int, int] = (1280, 800),
                      dark: bool = False) -> None:
    from asl_fire_widget.drawing import name_size

    shots = SCREENSHOTS / f"{mode}-{size[0]}-{'dark' if dark else 'light'}"
    if shots.exists():
        shutil.rmtree(shots)
    geo = _geometry()
    config = dict(geo, url=url, mode=mode, screenshots=str(shots), chromium=CHROMIUM,
                  viewport={"width": size[0], "height": size[1]}, dark=dark)
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps(config))
    run = subprocess.run(["node", str(BROWSER / "check_widget.js"), str(cfg)], cwd=BROWSER, capture_output=True,
                         text=True, timeout=150)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    (shots / "seen.json").write_text(json.dumps(seen, indent=1))  # kept with the screenshots
    assert "error" not in seen, seen["error"]
    # The board renders: C2 is a woods hex, drawn in the woods colour.
    assert seen["terrain"] is not None
    assert _close(seen["terrain"], TERRAIN_COLOURS[Terrain.WOODS]), seen["terrain"]
    # A click with the Flame tool on G2 draws a Flame there.
    assert seen["clickAfter"] != seen["clickBefore"], seen
    # …and on a hex in the canvas's lower half while its top was scrolled out of view (the first mouse down
    # focuses the canvas, which scrolls it back: the click still lands on the hex the mouse was over).
    # (JupyterLab's notebook cannot always scroll that far: then there is nothing to check.)
    if seen["scrolledBy"] >= 120 or mode == "voila":
        assert seen["scrollClickTop"] < 0 and seen["scrollClickTopAfter"] > seen["scrollClickTop"], seen
        assert seen["scrollClickAfter"] != seen["scrollClickBefore"], (seen["scrollClickName"], seen)
    # The hover panel shows the exact odds with the rule numbers.
    assert "catches fire this AFPh" in seen["hoverText"]
    assert "B25.6" in seen["hoverText"]
    # The odds overlay tints the hex most at risk.
    assert seen["oddsAfter"] != seen["oddsBefore"], seen
    # The FT/MOL panel shows the declaration the notebook made (A22.611), and Resolve logs the MOL Check.
    assert "MOL Check succeeds: 1/3" in seen["attackPanel"]
    assert "MOL Check (A22.611): dr" in seen["afterResolve"]
    for name in ("1-board.png", "2-flame-placed.png", "3-odds-overlay.png", "5-mol-resolved.png"):
        assert (shots / name).stat().st_size > 10_000, name
    if mode == "lab":
        assert seen["fileBrowserOpen"], "JupyterLab's file browser should be open beside the notebook"
    # The log: after a roll its newest entry is in view (inside the log box and the window).
    newest = seen["logNewest"]
    assert "Wind Change DR" in newest["text"], newest
    assert newest["inScroller"] and newest["inWindow"], newest
    # A quick sweep ends with the hex panel on the hex the mouse stopped on (trailing update).
    assert seen["sweepPanel"].split("\n")[1].strip() == geo["sweepEnd"], seen["sweepPanel"][:200]
    # Where the widget is wide enough the hex panel is beside the map, in view (else under it: the map keeps
    # the width); the overlay's title and colour legend are in view too.
    if seen["layout"]["widget"]["right"] - seen["layout"]["widget"]["left"] >= 820:
        assert seen["panel"]["inWindow"], seen["panel"]
        assert seen["panel"]["top"] < seen["canvasRect"]["bottom"], (seen["panel"], seen["canvasRect"])
    canvas_w = seen["layout"]["canvas"]["right"] - seen["layout"]["canvas"]["left"]
    assert canvas_w >= 0.55 * (seen["layout"]["widget"]["right"] - seen["layout"]["widget"]["left"]), seen["layout"]
    assert seen["legend"]["inWindow"] and "Chance of a new Flame" in seen["legend"]["text"], seen["legend"]
    assert "<1%" in seen["legend"]["text"] and "100%" in seen["legend"]["text"]
    # The mouse wheel zooms (the drawn scale changes), a drag pans (the picture moves with the mouse).
    assert seen["zoomAfter"] is not None and float(seen["zoomAfter"]) > float(seen["zoomBefore"]), seen
    assert seen["zoomChangedPixels"] > 5, seen["zoomChangedPixels"]
    assert seen["panShifted"] < seen["panUnshifted"] / 2, (seen["panShifted"], seen["panUnshifted"])
    # Dropdowns show their value; no label or dropdown text is cut.
    assert seen["controls"]["blank"] == [], seen["controls"]
    assert seen["controls"]["cut"] == [], seen["controls"]
    # Issue 23: the latest result is in view next to the map after an upkeep and after a refused click.
    # (The map's column at the top of the window: the latest result and the whole canvas are in it.)
    for key in ("afterUpkeep", "afterRefusal"):
        latest, canvas = seen[key]["latest"], seen[key]["canvas"]
        assert latest["inWindow"], (key, latest)
        assert canvas["top"] >= 0 and canvas["bottom"] <= canvas["vh"] + 1, (key, canvas)
    assert "AFPh" in seen["afterUpkeep"]["latest"]["text"], seen["afterUpkeep"]
    assert "cannot burn (B25.1)" in seen["afterRefusal"]["latest"]["text"], seen["afterRefusal"]
    # Units are drawn: the German squad in its side's colour, the broken Russian squad's red mark;
    # a click on the squad's counter selects it.
    assert _close(seen["unitPixel"], (140, 170, 205), tol=30), seen["unitPixel"]
    assert _close(seen["brokenPixel"], (220, 20, 20), tol=40), seen["brokenPixel"]
    assert "selected g1" in seen["latestAfterUnitClick"]["text"], seen["latestAfterUnitClick"]
    # No clipped control: every control's box inside the widget's box.
    assert seen["controlsFirst"]["clipped"] == [], seen["controlsFirst"]
    assert seen["controlsLast"]["clipped"] == [], seen["controlsLast"]
    # Hex names at the names zoom are at least 10 screen pixels high.
    assert name_size(seen["namesView"]["scale"]) / seen["namesRatio"] >= 10, (seen["namesView"], seen["namesRatio"])


def test_hex_geometry_round_trips() -> None:
    from asl_fire_widget.drawing import MapGeometry

    from asl_vassal_bridge.scenarios import demo_position

    pos = demo_position()
    geo = MapGeometry(pos.map.hexes, 0.7)
    for h in pos.map.hexes:
        x, y = geo.centre(h)
        assert geo.hex_at(x, y) == h
        assert geo.hex_at(x + 10, y - 8) == h
    assert geo.hex_at(-50, -50) is None
    assert isinstance(next(iter(pos.map.hexes)), Hex)


# ---------------------------------------------------------------------------
# VASL's board art, from the real board archive bd01


ART_NOTEBOOK = """\
from pathlib import Path
from asl_fire_widget import FireWidget
from asl_vassal_bridge.core import BoardPlacement, Fire, FireKind, Position
from asl_vassal_bridge.vasl.board import default_terrain_table, game_map, read_board

SHARED = Path({shared!r})
board = read_board(SHARED / "boards" / "bd01", default_terrain_table(SHARED))
pos = Position(game_map([(board, BoardPlacement("01"))]))
pos = pos.add_fire(Fire(pos.map.parse_location("K5"), FireKind.BLAZE))
w = FireWidget.from_position(pos, seed=1, boards=SHARED / "boards")
w
"""


def _art_points(shared: Path) -> tuple[list[dict[str, float]], list[tuple[int, int, int]]]:
    """Canvas points inside hexes where bd01's picture is nearly uniform, and its colour there."""
    import io
    import zipfile

    import numpy as np
    from asl_fire_widget import FireWidget
    from PIL import Image

    from asl_vassal_bridge.core import BoardPlacement, Fire, FireKind, Position
    from asl_vassal_bridge.vasl.board import default_terrain_table, game_map, read_board

    board = read_board(shared / "boards" / "bd01", default_terrain_table(shared))
    pos = Position(game_map([(board, BoardPlacement("01"))]))
    pos = pos.add_fire(Fire(pos.map.parse_location("K5"), FireKind.BLAZE))
    w = FireWidget.from_position(pos, seed=1, boards=shared / "boards")
    with zipfile.ZipFile(shared / "boards" / "bd01") as z:
        art = np.asarray(Image.open(io.BytesIO(z.read("bd01.gif"))).convert("RGB"), float)
    geo = w.geo
    points, colours = [], []
    for h in geo.hexes:
        if h.col in (0, 32) or not 1 <= h.row <= 9 or any(f.location.hex == h for f in pos.fires):
            continue
        bx, by = h.pixel()
        bx -= 0.45 * geo.rx  # left of the centre: no name, badge or counter there
        win = art[int(by) - 6:int(by) + 7, int(bx) - 6:int(bx) + 7]
        if win.size == 0 or win.std(axis=(0, 1)).max() > 4:
            continue
        x, y = geo.to_canvas(bx, by)
        points.append({"x": x, "y": y})
        colours.append(tuple(int(c) for c in win.mean(axis=(0, 1))))
        if len(points) == 6:
            break
    return points, colours


def test_board_art_is_drawn_under_the_grid_in_voila(shared_vasl: Path, tmp_path: Path) -> None:
    reason = _missing()
    if reason:
        missing("browser", reason)
    nb_dir = tmp_path / "nb"
    nb_dir.mkdir()
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(ART_NOTEBOOK.format(shared=str(shared_vasl)))]
    notebook = nb_dir / "board_art.ipynb"
    nbformat.write(nb, notebook)
    points, colours = _art_points(shared_vasl)
    assert len(points) >= 3, "bd01 should have uniform patches of art inside hexes"
    (tmp_path / "jupyter").mkdir()
    served = _voila(notebook, tmp_path / "jupyter")
    url = next(served)
    try:
        shots = SCREENSHOTS / "board-art"
        cfg = tmp_path / "art.json"
        cfg.write_text(json.dumps({"url": url, "chromium": CHROMIUM, "screenshots": str(shots), "points": points}))
        run = subprocess.run(["node", str(BROWSER / "check_art.js"), str(cfg)], cwd=BROWSER, capture_output=True,
                             text=True, timeout=150)
    finally:
        served.close()
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert "error" not in seen, seen["error"]
    # Under each known hex the canvas shows VASL's board picture (not a terrain tint).
    for got, want in zip(seen["pixels"], colours, strict=True):
        assert _close(got, want, tol=20), (got, want)


WRONG_FILE_NOTEBOOK = """\
from asl_fire_widget import FireWidget, LoadError

try:
    w = FireWidget.from_file({path!r})
except LoadError as e:
    w = e.widget()
w
"""


def test_a_wrong_file_shows_one_line_and_no_traceback_in_voila(tmp_path: Path) -> None:
    reason = _missing()
    if reason:
        missing("browser", reason)
    import nbformat

    wrong = tmp_path / "not-a-position.toml"
    wrong.write_text("this is = not [a position")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(WRONG_FILE_NOTEBOOK.format(path=str(wrong)))]
    (tmp_path / "nb").mkdir()
    notebook = tmp_path / "nb" / "wrong.ipynb"
    nbformat.write(nb, notebook)
    (tmp_path / "jupyter").mkdir()
    served = _voila(notebook, tmp_path / "jupyter")
    url = next(served)
    try:
        cfg = tmp_path / "error.json"
        cfg.write_text(json.dumps({"url": url, "chromium": CHROMIUM, "screenshots": str(SCREENSHOTS / "wrong-file")}))
        run = subprocess.run(["node", str(BROWSER / "check_error.js"), str(cfg)], cwd=BROWSER, capture_output=True,
                             text=True, timeout=150)
    finally:
        served.close()
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert "error" not in seen, seen["error"]
    lines = seen["errorLines"]
    assert len(lines) == 1 and "\n" not in lines[0].strip() and "not-a-position.toml" in lines[0], seen
    assert "Traceback" not in seen["text"] and "There was an error" not in seen["text"], seen["text"][-1500:]


# ---------------------------------------------------------------------------
# Issue 23: VASL's own unit pictures and the CX mark (real VASL data), a strip map's canvas growing with the zoom


UNITS_NOTEBOOK = """\
from asl_fire_widget import FireWidget

w = FireWidget.from_file({vsav!r}, boards={boards!r}, vasl={vmod!r}, seed=1, scale=1.0)
w
"""

STRIP_NOTEBOOK = """\
import sys
sys.path.insert(0, {bench!r})
from asl_fire_widget import FireWidget
from mapgen import ten_board_position

w = FireWidget.from_position(ten_board_position(), seed=1)
w
"""


def _serve_and_check(notebook_text: str, tmp_path: Path, config: dict[str, object]) -> dict[str, object]:
    """Serve a one-cell notebook with Voilà and run check_units.js on it with *config*."""
    reason = _missing()
    if reason:
        missing("browser", reason)
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(notebook_text)]
    (tmp_path / "nb").mkdir()
    notebook = tmp_path / "nb" / "check.ipynb"
    nbformat.write(nb, notebook)
    (tmp_path / "jupyter").mkdir()
    served = _voila(notebook, tmp_path / "jupyter")
    url = next(served)
    try:
        cfg = tmp_path / "units.json"
        cfg.write_text(json.dumps(dict(config, url=url, chromium=CHROMIUM)))
        run = subprocess.run(["node", str(BROWSER / "check_units.js"), str(cfg)], cwd=BROWSER, capture_output=True,
                             text=True, timeout=180)
    finally:
        served.close()
    assert run.returncode == 0, run.stderr[-3000:]
    seen: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    assert "error" not in seen, seen["error"]
    assert not [s for s in seen["steps"] if "pageerror" in s], seen["steps"]  # type: ignore[union-attr]
    return seen


def test_units_are_drawn_in_vasls_own_pictures_with_their_cx_mark_in_voila(shared_vasl: Path, tmp_path: Path) -> None:
    from asl_fire_widget import FireWidget

    from asl_vassal_bridge.mapview import MARKS, counter_boxes, counters_in
    from tests import unit_art

    d = tmp_path / "game"
    d.mkdir()
    vsav, boards, vmod = unit_art.write_game(d), unit_art.write_boards(d), unit_art.write_module(d)
    w = FireWidget.from_file(vsav, boards=boards, vasl=vmod, seed=1, scale=1.0)
    pos, geo = w.session.position, w.geo
    stacks = counters_in(pos)
    points, want = [], []
    for uid, fx, fy, colour in ((unit_art.HALF_SQUAD, 0.3, 0.7, unit_art.COLOURS["ru/ru226H"]),
                                (unit_art.LEADER, 0.3, 0.7, unit_art.COLOURS["ru/ruL61"]),
                                (unit_art.VEHICLE, 0.3, 0.7, unit_art.COLOURS["ru/veh/kom"]),
                                (unit_art.HALF_SQUAD, 0.85, 0.12, MARKS["cx"][0])):  # the CX corner (A4.51)
        u = next(u for u in pos.units if u.id == uid)
        stack = stacks[u.location.hex]
        k = next(i for i, c in enumerate(stack) if c.unit is not None and c.unit.id == uid)
        x, y, side = counter_boxes(len(stack), 0.0, 0.0, 1.0)[k]
        hx, hy = u.location.hex.pixel()
        points.append({"u": hx - geo.x0 + x + fx * side, "v": hy - geo.y0 + y + fy * side})
        want.append(colour)
    seen = _serve_and_check(UNITS_NOTEBOOK.format(vsav=str(vsav), boards=str(boards), vmod=str(vmod)), tmp_path,
                            {"screenshots": str(SCREENSHOTS / "unit-pictures"), "points": points, "wheel": 0})
    assert seen["view"]["scale"] == pytest.approx(1.0)  # type: ignore[index]
    for got, colour in zip(seen["pixels"], want, strict=True):  # type: ignore[arg-type]
        assert _close(got, colour, tol=20), (got, colour, seen["pixels"])


def test_zooming_into_a_ten_board_strip_makes_the_canvas_taller_in_voila(tmp_path: Path) -> None:
    seen = _serve_and_check(STRIP_NOTEBOOK.format(bench=str(REPO / "bench")), tmp_path,
                            {"screenshots": str(SCREENSHOTS / "strip-zoom"), "points": [], "wheel": 4})
    before, after = seen["before"], seen["after"]
    assert after["view"]["scale"] > 2 * before["view"]["scale"], (before, after)  # type: ignore[index]
    # The canvas was as short as the fitted strip; zoomed in it takes the height the map needs, within the window.
    assert after["css"]["height"] > before["css"]["height"] + 100, (before, after)  # type: ignore[index]
    assert after["view"]["h"] > before["view"]["h"] and after["css"]["height"] <= after["window"], (before, after)  # type: ignore[index]
