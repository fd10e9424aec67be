"""Issue 34, the notebook as a player's workbench, from Python (the browser half is in test_browser.py):
``live()`` with no VASSAL raises ``LoadError``; the load control opens a ``.vsav`` with its boards, a position
file, and says in one "Latest" line why a bad file is refused; "connect to VASSAL" shows its state.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from asl_fire_widget import FireWidget, LoadError
from asl_fire_widget.loader import LoadPanel

from tests import unit_art


@pytest.fixture(autouse=True)
def no_vassal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A machine where VASSAL never ran: empty preferences, no connection file."""
    conf = tmp_path / "vassal-conf"
    conf.mkdir()
    monkeypatch.setenv("ASL_FIRE_VASSAL_CONF", str(conf))
    monkeypatch.setenv("ASL_FIRE_BRIDGE_FILE", str(conf / "aslfire" / "bridge.json"))
    return conf


def test_live_not_connected_raises_load_error_in_one_line(no_vassal: Path) -> None:
    with pytest.raises(LoadError) as e:
        FireWidget.live()
    line = str(e.value)
    assert line.startswith("live game: not connected: ") and "no connection file" in line
    assert "\n" not in line and e.value._render_traceback_() == [f"LoadError: {line}"]


def test_live_not_connected_when_nothing_answers_on_the_port(no_vassal: Path) -> None:
    with socket.socket() as s:  # a port no one listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = no_vassal / "aslfire" / "bridge.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"port": port, "token": "t"}), "utf-8")
    os.chmod(path, 0o600)
    with pytest.raises(LoadError, match=r"live game: not connected: 127\.0\.0\.1:\d+: nothing answers on that port "
                       r"\(is a game open in VASSAL"):
        FireWidget.live()


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    d = tmp_path_factory.mktemp("units")
    return unit_art.write_game(d), unit_art.write_boards(d), unit_art.write_module(d)


def test_file_picker_opens_a_vsav_with_the_boards_folder_given(game: tuple[Path, Path, Path]) -> None:
    vsav, boards, vmod = game
    w = FireWidget.demo(seed=1)
    w.probe.window_height, w.probe.width = 800, 870  # as the browser reports the page
    assert w.loader.upload.accept == ".vsav,.vlog,.toml"
    assert w.loader.boards.value == ""  # no VASSAL preferences here: nothing found, the box says what to type
    w.loader.boards.value, w.loader.vmod.value = str(boards), str(vmod)
    w.loader.upload.value = ({"name": "units.vsav", "type": "", "size": vsav.stat().st_size,
                              "content": memoryview(vsav.read_bytes()),
                              "last_modified": datetime.now(UTC)},)
    pos = w.session.position
    assert pos.map.layout.boards and len(pos.units) == 3
    assert w.art, "VASL's board art of bd01 is drawn"
    assert w.session.source == "units.vsav"
    assert "loaded units.vsav" in w.latest.value
    assert w.session.undo_stack == []  # an undo never goes back into the demo
    assert abs(w.geo.width - w.view[0]) <= 2 and abs(w.geo.height - w.view[1]) <= 2  # the new map fits: no band
    assert "(boards=)" in w.latest.value and "--boards" not in w.latest.value  # the notebook's words
    assert w.loader.upload.value == ()  # the bytes are not kept in the page; the same file can be picked again


def test_file_picker_a_vlog_is_read_as_its_saved_game(game: tuple[Path, Path, Path]) -> None:
    vsav, boards, vmod = game
    w = FireWidget.demo(seed=1)
    w.loader.boards.value, w.loader.vmod.value = str(boards), str(vmod)
    assert w.loader.open_bytes("units.vlog", vsav.read_bytes())
    assert len(w.session.position.units) == 3


def test_file_picker_opens_a_position_file() -> None:
    from asl_vassal_bridge.scenarios import demo_text

    w = FireWidget.demo(seed=1)
    assert w.loader.open_bytes("village.toml", demo_text().replace('turn = 2', 'turn = 5').encode())
    assert str(w.session.position.clock) == "Turn 5.1 RPh"


@pytest.mark.parametrize(("name", "data", "said"), [
    ("broken.vsav", b"not a zip at all", "✗ broken.vsav: "),
    ("broken.toml", b"[clock\nturn = ", "✗ broken.toml: "),
    ("notes.txt", b"hello", "✗ notes.txt: not a game this page opens (expected a .vsav saved game, a .vlog log "
                            "or a .toml position file)"),
])
def test_file_picker_a_bad_file_is_one_line_in_latest_and_changes_nothing(name: str, data: bytes, said: str) -> None:
    w = FireWidget.demo(seed=1)
    before = w.session.position
    assert not w.loader.open_bytes(name, data)
    assert w.session.position is before
    latest = w.session.log[-1]
    assert latest.startswith(said) and "Traceback" not in latest
    assert said.split(":")[0] in w.latest.value and "asl-fire-upload" not in w.latest.value


def test_file_picker_a_vsav_without_a_boards_folder_says_where_to_set_it(game: tuple[Path, Path, Path]) -> None:
    vsav, _, _ = game
    w = FireWidget.demo(seed=1)
    assert not w.loader.open_bytes("units.vsav", vsav.read_bytes())
    line = w.session.log[-1]
    assert line.startswith("✗ units.vsav: VASL's boards folder is needed: pass boards=DIR") and "--" not in line


class Client:
    """A bridge client that answers snapshots until told the connection broke."""

    def __init__(self) -> None:
        from tests.widget.test_widget_state import SnapshotOnly, _piece

        self.game = SnapshotOnly([_piece("b1", "Blaze", "5713", "D2")])
        self.broken = False

    def snapshot(self, with_terrain: bool = True) -> dict[str, Any]:
        if self.broken:
            from py4j.protocol import Py4JNetworkError

            raise Py4JNetworkError("Answer from Java side is empty")
        return self.game.snapshot()


def test_file_picker_connect_button_shows_not_connected_connected_and_lost() -> None:
    w = FireWidget.demo(seed=1)
    panel: LoadPanel = w.loader
    assert "not connected" in panel.live_state.value and panel.connect_button.description == "connect to VASSAL"
    panel.connect_button.click()  # no VASSAL: one line, still not connected
    assert w.session.log[-1].startswith("✗ live game: not connected: ") and "not connected" in panel.live_state.value
    client = Client()
    panel._connect = lambda: client
    panel.connect_button.click()
    assert "connected (read-only)" in panel.live_state.value and panel.state == "connected"
    assert [f.location.name for f in w.session.position.blazes()] == ["D2"]
    client.broken = True
    w.refresh_live_button.click()
    assert panel.state == "lost" and "connection lost" in panel.live_state.value
    assert panel.connect_button.description == "retry"
    assert w.session.log[-1].startswith("✗ live game: the connection to VASSAL was lost")
    client.broken = False
    panel.connect_button.click()
    assert panel.state == "connected"


def test_the_notebook_extra_installs_what_the_example_opens_in() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[2]
    extras = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]
    names = {d.split(">")[0].split("=")[0] for d in extras["notebook"]}
    assert names >= {d.split(">")[0] for d in extras["widget"]} | {"jupyterlab", "voila", "ipykernel"}
    readme = (root / "README.md").read_text("utf-8")
    assert 'pip install ".[notebook]"' in readme and "voila examples/fire_widget.ipynb" in " ".join(readme.split())


class TextRecorder:
    """A canvas that records the texts and circles drawn on it (every other call is accepted and ignored)."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, float, float]] = []
        self.circles: list[tuple[float, float, float]] = []
        self.rects: list[Any] = []

    def fill_text(self, text: str, x: float, y: float, *a: Any) -> None:
        self.texts.append((text, x, y))

    def fill_circle(self, x: float, y: float, r: float) -> None:
        self.circles.append((x, y, r))

    def fill_styled_rects(self, xs: Any, *a: Any, **k: Any) -> None:
        self.rects.extend(list(xs))

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)


def _six_stack() -> FireWidget:
    """The demo with a six-counter stack in F7: its 4-6-7 and 8-1, three more squads and a Flame."""
    from asl_vassal_bridge.core import Fire, FireKind
    from asl_vassal_bridge.core.values import replace

    w = FireWidget.demo(seed=1)
    pos = w.session.position
    f7 = pos.map.parse_location("F7")
    squad = next(u for u in pos.units if u.location == f7 and u.name == "4-6-7")
    extra = tuple(replace(squad, id=f"x{k}") for k in range(3))
    w.session.replace_position(pos.with_(units=pos.units + extra).add_fire(Fire(f7, FireKind.FLAME)), "six")
    return w


def test_stack_badge_a_six_counter_stack_shows_its_top_counter_and_plus_five() -> None:
    from asl_fire_widget.drawing import draw_fires

    w = _six_stack()
    canvas = TextRecorder()
    counts = draw_fires(canvas, w.session.position, w.geo)
    cx, cy = w.geo.centre(w.session.position.map.parse_hex("F7"))
    near = [t for t, x, y in canvas.texts if abs(x - cx) < 30 and abs(y - cy) < 30]
    assert "+5" in near and "Flame" in near  # the most telling counter, named in full, and the badge
    assert counts["badges"] >= 1
    hover = "\n".join(w.session.hover(w.session.position.map.parse_hex("F7")).lines)
    assert "Counters (6, bottom to top): 4-6-7 (German), 4-6-7 (German)" in hover and "8-1 (German)" in hover


def test_stack_badge_names_as_the_position_gives_them_and_smoke_hides_with_one_toggle() -> None:
    from asl_fire_widget.drawing import draw_fires

    w = FireWidget.demo(seed=1)
    canvas = TextRecorder()
    draw_fires(canvas, w.session.position, w.geo)
    texts = [t for t, _, _ in canvas.texts]
    assert "4-6-7" in texts and "8-1" in texts and ("Smoke" in texts or "Sm" in texts)
    assert w.smoke.value
    w.smoke.value = False  # one toggle
    assert w.draw_counts["fire"]["smoke"] > 0  # counted, not drawn
    canvas = TextRecorder()
    draw_fires(canvas, w.session.position, w.geo, smoke=False)
    assert not {"Smoke", "Sm"} & {t for t, _, _ in canvas.texts}


def test_stack_badge_odds_figures_are_drawn_above_the_counters() -> None:
    from asl_fire_widget.widget import FIRE, LABELS, LAYERS, OVERLAY

    assert LAYERS.index("labels") > LAYERS.index("fire") and (OVERLAY, FIRE, LABELS) == (1, 2, 3)
    w = FireWidget.demo(seed=1, scale=1.0)
    labels = TextRecorder()
    w.canvas._canvases[LABELS] = labels  # type: ignore[attr-defined]
    w.set_overlay("odds")
    assert any(t.endswith("%") for t, _, _ in labels.texts)


def test_phase_control_reaches_the_pfph_and_kindling_works_there() -> None:
    w = FireWidget.demo(seed=1)
    s = w.session
    assert str(s.position.clock) == "Turn 2.1 RPh" and w.jump_phase.value.value == "RPh"
    assert w.next_phase.description == "next: PFPh ▶ (rolls the Wind Change DR, B25.65)"
    w.tools.value, w.kindler.value = "kindling", next(iter(w.kindler.options))
    f7 = s.position.map.parse_hex("F7")
    s.click(f7)  # Kindling in the RPh: refused, and the line says how to reach the PFPh
    assert s.log[-1].startswith("✗ Kindling is made in the PFPh, not the RPh (B25.11) — to reach the PFPh: "
                                "\"next ▶\" above the map")
    w.next_phase.click()  # leaving the RPh rolls its Wind Change DR
    assert str(s.position.clock) == "Turn 2.1 PFPh" and any("Wind Change DR" in line for line in s.log[-4:])
    assert w.jump_phase.value.value == "PFPh" and w.next_phase.description == "next: MPh ▶"
    s.click(f7)
    assert any("Kindling in F7" in line for line in s.log[-6:]), s.log[-6:]
    w.jump_phase.value = next(v for _, v in w.jump_phase.options if v.value == "AFPh")  # nothing rolled
    assert str(s.position.clock) == "Turn 2.1 AFPh" and "nothing rolled" in s.log[-1]
    w.next_phase.click()  # leaving the AFPh makes its fire upkeep
    assert str(s.position.clock) == "Turn 2.1 RtPh" and any("End of AFPh fire upkeep" in ln for ln in s.log[-12:])
    w.prev_phase.click()
    assert str(s.position.clock) == "Turn 2.1 AFPh" and "nothing rolled or undone" in s.log[-1]
    w.undo_button.click()
    assert str(s.position.clock) == "Turn 2.1 RtPh"


def test_phase_control_latest_shows_the_newest_turn_first_after_step_n() -> None:
    w = FireWidget.demo(seed=1)
    w.turns.value = 3
    w.step_button.click()
    latest = w.latest.value
    newest = latest.find("Player Turn 3.1")
    assert 0 <= newest < latest.find("Wind Change DR"), latest[:600]  # the last Player Turn's report comes first
    assert "Player Turn 2.2" not in latest or newest < latest.find("Player Turn 2.2")


def test_phase_control_ft_and_mol_panels_show_their_own_fields_and_no_verdict_before_input() -> None:
    w = FireWidget.demo(seed=1)
    assert "not allowed" not in w.attack_preview.value and "firer" in w.attack_preview.value
    assert w.att["fp"].layout.display == "" and w.att["area_fire"].layout.display == "none"
    w.att["weapon"].value = "FT"
    assert w.att["fp"].layout.display == "none" and w.att["hindrance_drm"].layout.display == ""
    hover = "\n".join(w.session.hover(w.session.position.map.parse_hex("E5")).lines)
    assert "goes out: " in hover and "a Final DR ≤ 2 removes the Flame, B25.151" in hover


def test_phase_control_choosing_the_forecast_runs_it_once_and_run_again_shows_only_then() -> None:
    w = FireWidget.demo(seed=1)
    assert w.fc_button.layout.display == "none"
    w.fc_trials.value = 200
    w.overlay_choice.value = "forecast"
    assert w.session.forecast_result is not None and w.fc_button.layout.display == ""
    assert w.fc_button.description == "run again"
    w.overlay_choice.value = "odds"
    assert w.fc_button.layout.display == "none"


def test_map_first_the_example_opens_unscrolled_with_only_a_title_above_the_widget() -> None:
    notebook = json.loads((Path(__file__).resolve().parents[2] / "examples" / "fire_widget.ipynb").read_text("utf-8"))
    cells = notebook["cells"]
    assert not [c for c in cells if c["cell_type"] == "code" and c["metadata"].get("scrolled")]
    first_code = next(i for i, c in enumerate(cells) if c["cell_type"] == "code")
    above = "".join("".join(c["source"]) for c in cells[:first_code])
    assert first_code == 1 and len(above.splitlines()) <= 3, above
    assert "FireWidget.demo" in "".join(cells[first_code]["source"])


def test_map_first_the_map_comes_before_the_tools_and_uses_the_canvas_width() -> None:
    w = FireWidget.demo(seed=1)
    kids = list(w.children)
    assert kids.index(w.main) < kids.index(w.toolbar) and kids.index(w.loader.actions) < kids.index(w.main)
    assert w.map_box.children[0] is w.latest  # the latest result right above the map
    w.resize(870, 800)  # Voilà at 1280×800: the map column beside the hex panel
    assert abs(w.geo.width - w.view[0]) <= 2 and w.view[1] == 520  # no empty band beside or under the map


def test_stack_badge_names_in_full_at_the_fit_zoom_of_a_1024_window() -> None:
    from asl_fire_widget.drawing import draw_fires

    w = FireWidget.demo(seed=1)
    w.resize(610, 768)  # Voilà at 1024×768: the map column beside the hex panel
    canvas = TextRecorder()
    draw_fires(canvas, w.session.position, w.geo)
    texts = {t for t, _, _ in canvas.texts}
    assert w.geo.scale < 0.7 and {"4-4-7", "4-6-7", "8-1"} <= texts, (w.geo.scale, texts)
