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
