"""The load control: open a game from the page (a file picker for ``.vsav``, ``.vlog`` and position files), the
boards folder and VASL module (found as ``asl-fire`` finds them, and settable), and "connect to VASSAL" for the
live game with its state.  Every failure is one line in the widget's "Latest" (a ✗ line), never a traceback.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as W  # noqa: N812 - the usual short name

from asl_vassal_bridge.core import BadInput

from .colours import ERROR
from .session_support import live_snapshot
from .state import FireSession, LoadError

__all__ = ["ACCEPT", "LoadPanel", "found_setup"]

#: The files the picker offers: VASL saved games and logs, and position files.
ACCEPT = ".vsav,.vlog,.toml"
#: The live game's states, as the control shows them: (text, colour).  Contrast ≥ 4.5:1 on white and on
#: JupyterLab's dark background alike (the colours are the theme's own).
_STATES = {
    "not connected": ("○ VASSAL: not connected", "var(--jp-ui-font-color1, #222)"),
    "connected": ("● VASSAL: connected (read-only)", "var(--jp-ui-font-color1, #222)"),
    "lost": ("● VASSAL: connection lost — retry", ERROR),
}


def _label(text: str) -> W.HTML:
    return W.HTML(f"<b style='color:var(--jp-ui-font-color1, #222)'>{text}:</b>",
                  layout=W.Layout(width="auto", margin="0 6px 0 2px"))


def found_setup() -> tuple[str, str, list[str]]:
    """The boards folder and VASL module ``asl-fire`` would use with none given (VASSAL's preferences), as texts
    ("" where none is found), and what was looked at."""
    from asl_vassal_bridge.vasl.setup import resolve_vasl

    try:
        setup = resolve_vasl(None, None, need_boards=False)
    except (BadInput, OSError) as e:
        return "", "", [str(e)]
    return (str(setup.boards) if setup.boards else "", str(setup.module) if setup.module else "", list(setup.notes))


class LoadPanel:
    """The load control: its *actions* row ("open a game…", "connect to VASSAL" and its state), above the map, and
    its *paths* row (the boards folder, the VASL module), under the tools."""

    def __init__(self, adopt: Callable[[FireSession], None], say: Callable[[str], None], *,
                 seed: int | None = None, connect: Callable[[], Any] | None = None) -> None:
        self._adopt, self._say, self._seed = adopt, say, seed
        #: Makes the bridge client (tests and the live widget may give their own); default: the connection file.
        self._connect = connect
        self.client: Any = None
        self._dir: Path | None = None
        boards, vmod, self.found_notes = found_setup()
        self.found = (boards, vmod)
        self.upload = W.FileUpload(accept=ACCEPT, multiple=False, description="open a game…",
                                   tooltip="a VASL saved game (.vsav), a VASSAL log (.vlog) or a position file "
                                   "(.toml)", layout=W.Layout(width="auto"))
        self.upload.add_class("asl-file-picker")
        self.upload.observe(self._uploaded, "value")
        style = {"description_width": "95px"}
        self.boards = W.Text(value=boards, description="boards folder", style=style,
                             placeholder="not found: the folder of VASL's bd01, bd02… (VASL's Board Directory)",
                             layout=W.Layout(width="420px"))
        self.vmod = W.Text(value=vmod, description="VASL module", style=style,
                           placeholder="not needed with SharedBoardMetadata.xml; else …/VASL.vmod",
                           layout=W.Layout(width="420px"))
        for box in (self.boards, self.vmod):
            box.add_class("asl-setup-path")
        self.connect_button = W.Button(description="connect to VASSAL", icon="plug", layout=W.Layout(width="auto"),
                                       tooltip="read the running VASSAL game through the ASL fire bridge extension "
                                       "(read-only: nothing is sent to the game)")
        self.connect_button.add_class("asl-connect")
        self.connect_button.on_click(lambda _: self.connect())
        self.state = "not connected"
        self.live_state = W.HTML()
        self.live_state.add_class("asl-live-state")
        self._show_state()
        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.actions = W.HBox([self.upload, self.connect_button, self.live_state], layout=row)
        self.actions.add_class("asl-load")
        self.paths = W.HBox([_label("VASL files"), self.boards, self.vmod], layout=row)
        self.paths.add_class("asl-load-paths")

    # -- the paths -------------------------------------------------------------
    def _given(self) -> tuple[str | None, str | None]:
        """The boards folder and module to pass: None where the box holds what VASSAL's preferences give (the
        log then says where it was found), else the box's text."""
        boards, vmod = self.boards.value.strip(), self.vmod.value.strip()
        return (boards if boards and boards != self.found[0] else None,
                vmod if vmod and vmod != self.found[1] else None)

    # -- a file from the picker ----------------------------------------------------
    def _uploaded(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0]
        name = Path(str(f["name"])).name or "game"
        data = bytes(f["content"])
        self.upload.value = ()  # the bytes are not kept in the page; the same file can be picked again
        self.open_bytes(name, data)

    def open_bytes(self, name: str, data: bytes) -> bool:
        """Load a file the page sent (its name and bytes); False (and one ✗ line) if it cannot be loaded."""
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix="asl-fire-upload-"))
        path = self._dir / name
        path.write_bytes(data)
        return self.open_path(path, shown=name)

    def open_path(self, path: Path, shown: str | None = None) -> bool:
        """Load a position file, ``.vsav`` or ``.vlog`` from this machine; False (and one ✗ line) if it cannot."""
        shown = shown or str(path)
        if path.suffix.lower() not in (".vsav", ".vlog", ".toml"):
            self._say(f"✗ {shown}: not a game this page opens (expected a .vsav saved game, a .vlog log or a "
                      ".toml position file)")
            return False
        boards, vmod = self._given()
        if path.suffix.lower() == ".toml":
            boards = boards or self.found[0] or None
        try:
            session = FireSession.from_file(path, boards, self._seed, vasl=vmod)
        except (BadInput, OSError) as e:
            self._say(f"✗ {shown}: {str(e).replace(str(path), '').lstrip(': ')}" if str(path) in str(e)
                      else f"✗ {shown}: {e}")
            return False
        except Exception as e:  # a damaged archive: zipfile, lxml or XOR decoding errors
            self._say(f"✗ {shown}: not a readable VASL file ({type(e).__name__}: "
                      f"{str(e).splitlines()[0] if str(e) else 'unreadable'})")
            return False
        session.source = shown
        self._adopt(session)
        return True

    # -- the live game ---------------------------------------------------------------
    def connect(self) -> bool:
        """Connect to the running VASSAL game (or read it again); the state shows connected, or lost."""
        was = self.state
        try:
            client, snapshot = live_snapshot(self._connect() if self._connect is not None else self.client)
        except LoadError as e:
            self.client = None
            self.state = "lost" if was == "connected" else "not connected"
            self._show_state()
            self._say(f"✗ {e}")
            return False
        boards, vmod = self._given()
        try:
            session = FireSession.from_snapshot(snapshot, boards, self._seed, vasl=vmod)
        except LoadError as e:
            self._say(f"✗ {e}")
            return False
        self.client = client
        self.state = "connected"
        self._show_state()
        self._adopt(session)
        return True

    def lost(self, why: str) -> None:
        """The live game stopped answering: the state says so and the button retries."""
        self.client = None
        self.state = "lost"
        self._show_state()
        self._say(f"✗ {why}")

    def _show_state(self) -> None:
        text, colour = _STATES[self.state]
        self.live_state.value = (f"<span class='asl-live-{self.state.replace(' ', '-')}' style='color:{colour};"
                                 f"font-weight:bold;margin-left:6px'>{escape(text)}</span>")
        self.connect_button.description = {"connected": "re-read VASSAL", "lost": "retry",
                                           "not connected": "connect to VASSAL"}[self.state]
