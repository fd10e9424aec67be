"""Issue 32, third round of hostile inputs: data loss, writes where they must not go, leaks, silently wrong acceptance.

Each row of :data:`CASES` runs ``asl-fire`` in a subprocess (as :mod:`tests.test_hostile_inputs` does: a memory
and a time limit) on inputs made here, in the test's folder, and asserts: exit status 2; one line on stderr,
``asl-fire COMMAND: …``, naming the file, field or option; no traceback; and the folder exactly as before (nothing
written, removed, replaced or changed, byte for byte, links included).

Rows with *forbid* run under an audit hook (``sys.addaudithook``) that ends the process at once with status 99
when it opens a socket or looks a host up (``socket``), or opens a file whose path holds one of the given
strings: so "refused before any connection" and "never opened" are checked, not assumed.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SHARED_VASL, missing
from tests.support.vassal_prefs import TERRAIN_XML, fake_module
from tests.test_hostile_inputs import MEMORY_LIMIT, ROOT, TIME_LIMIT, _limits

#: Runs ``asl-fire`` with an audit hook refusing sockets and host lookups ("socket") and opening the paths named.
GUARD = """
import os, sys
FORBID = [f for f in os.environ.get("HOSTILE_FORBID", "").split("|") if f]
def hook(event, args):
    if event.startswith("socket.") and "socket" in FORBID:
        os.write(2, f"FORBIDDEN {event} {args!r}\\n".encode()); os._exit(99)
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(args[0])
        if any(f in path for f in FORBID if f != "socket"):
            os.write(2, f"FORBIDDEN open {path}\\n".encode()); os._exit(99)
sys.addaudithook(hook)
from asl_vassal_bridge.cli import main
sys.exit(main(sys.argv[1:]))
"""


@dataclass(frozen=True)
class Hostile:
    """``asl-fire ARGS`` (``{tmp}``: the test's folder) after *make* wrote its inputs; *expect*: words of its line."""

    id: str
    args: tuple[str, ...]
    expect: tuple[str, ...]
    make: Callable[[Path], None] | None = None
    forbid: tuple[str, ...] = ()
    needs_data: bool = False
    env: dict[str, str] = field(default_factory=dict)


# --- inputs -------------------------------------------------------------------------------------------

POSITION = 'format = 1\n[map]\ncolumns = "A-C"\nrows = "1-3"\ndefault = "woods"\n'


def _save_text(commands: list[str], boards: str, after: tuple[str, ...] = ()) -> str:
    from asl_vassal_bridge.vasl.traits import encode_sequence

    return encode_sequence(["begin_save", "", encode_sequence(commands, "\x1b"), boards, "end_save", *after], "\x1b")


def _save(tmp: Path, name: str, text: str, *, vobs: bool = False, cut: int | None = None) -> None:
    """A .vsav (or .vlog) zip whose savedGame is *text*, as VASSAL up to 3.7 (!VCSK) or 3.8 (VOBS) writes it."""
    from asl_vassal_bridge.vasl.vsav import obfuscate

    data = b"VOBS\x5a" + bytes(b ^ 0x5A for b in text.encode()) if vobs else obfuscate(text)
    with zipfile.ZipFile(tmp / name, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", data[:cut] if cut else data)
        z.writestr("moduledata", "<data><version>6.6.9</version></data>")


def _zip(path: Path, members: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        for name, text in members.items():
            z.writestr(name, text)


def _game(tmp: Path) -> None:
    _save(tmp, "game.vsav", _save_text(["+/p1/;x/Map0;1;1;1"], "bd\t0\t0\t01\tVER\t6.1\t"))


def _game_and_boards(tmp: Path) -> None:
    _game(tmp)
    _zip(tmp / "boards" / "bd01", {"BoardMetadata.xml": "<boardMetadata/>"})


def _position(tmp: Path) -> None:
    (tmp / "pos.toml").write_text(POSITION)


def _position_and_link(tmp: Path) -> None:
    _position(tmp)
    (tmp / "again.toml").symlink_to("pos.toml")


def _board_archive(tmp: Path) -> None:
    _zip(tmp / "bd01", {"BoardMetadata.xml": "<boardMetadata/>", "LOSData": "x"})
    (tmp / "shared.xml").write_bytes(TERRAIN_XML)


def _other_kinds(tmp: Path) -> None:
    _game(tmp)
    _zip(tmp / "bd02", {"BoardMetadata.xml": "<boardMetadata/>"})
    (tmp / "folder").mkdir()
    _zip(tmp / "out" / "after.toml", {"not": "a position file"})


def _foreign_extension(tmp: Path) -> None:
    """Another VASL extension where ours would go (and as a build-extension -o target)."""
    foreign = {"buildFile.xml": '<VASSAL.build.module.ModuleExtension extensionId="turnscrew" module="VASL"/>'}
    _zip(tmp / "vasl" / "VASL_ext" / "asl-fire-bridge.vmdx", foreign)
    _zip(tmp / "notours.vmdx", foreign)
    fake_module(tmp / "vasl" / "VASL.vmod")
    (tmp / "home").mkdir(exist_ok=True)
    (tmp / "x.jar").write_bytes(b"")


def _extension_folder(tmp: Path) -> None:
    fake_module(tmp / "vasl" / "VASL.vmod")
    (tmp / "vasl" / "VASL_ext" / "asl-fire-bridge.vmdx").mkdir(parents=True)
    (tmp / "home").mkdir()


def _connection(host: object, token: str = "secret") -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        (tmp / "conn.json").write_text(json.dumps({"host": host, "port": 4444, "token": token}))
        (tmp / "conn.json").chmod(0o600)

    return make


def _names_outside(tmp: Path) -> None:
    """Saved games naming a board by an absolute path and by ../, and an overlay archive outside overlays/."""
    (tmp / "boards" / "overlays").mkdir(parents=True)
    _zip(tmp / "OUTSIDE" / "ovrX", {"x": "y"})
    _zip(tmp / "SECRETBOARD", {"BoardMetadata.xml": "<boardMetadata/>"})
    _save(tmp, "abs.vsav", _save_text([], f"bd\t0\t0\t{tmp / 'SECRETBOARD'}\tVER\t6.1\t"))
    _save(tmp, "up.vsav", _save_text([], "bd\t0\t0\t../SECRETBOARD\tVER\t6.1\t"))
    _save(tmp, "ovr.vsav", _save_text([], "bd\t0\t0\t01\tVER\t6.1\tOVR\t/../../../OUTSIDE/X\tE5\tE5\t"))
    (tmp / "boards" / "SharedBoardMetadata.xml").write_bytes(TERRAIN_XML)


def _truncated_and_log(tmp: Path) -> None:
    full = _save_text(["+/p1/;x/Map0;1;1;1"], "bd\t0\t0\t01\tVER\t6.1\t")
    _save(tmp, "cut.vsav", full, vobs=True, cut=5 + full.index("bd\t"))  # VOBS, cut before the boards
    _save(tmp, "cut-in-board.vsav", full, vobs=True, cut=5 + full.index("VER"))
    logged = ("LOG\t+/p2/;x/Map0;5;5;1", "LOG\tM/p1/Map0/9/9/null/1/1")
    _save(tmp, "moves.vlog", _save_text(["+/p1/;x/Map0;1;1;1"], "bd\t0\t0\t01\tVER\t6.1\t", logged))
    (tmp / "boards").mkdir()
    (tmp / "boards" / "SharedBoardMetadata.xml").write_bytes(TERRAIN_XML)


def _overlay_off_board(tmp: Path) -> None:
    """A saved game placing a one-hex overlay (VASL's wd1) with a second hex off the board."""
    _save(tmp, "ovhex.vsav", _save_text([], "bd\t0\t0\t01\tVER\t6.1\tOVR\twd1\tGG10\tZZ99\t"))


def _hex_levels_outside(tmp: Path) -> None:
    (tmp / "levels.toml").write_text('format = 1\n[map]\ncolumns = "A-E"\nrows = "1-5"\n[[buildings]]\nid = "b1"\n'
                                      'material = "stone"\nkind = "two-story"\nhexes = ["B2", "B3"]\n'
                                      'hex_levels = { E5 = 3 }\n')


HUGE = "100000000000000000000"  # 10^20

CASES: tuple[Hostile, ...] = (
    # 1. An output naming an input, or a file of another kind.
    Hostile("upkeep-o-is-the-saved-game", ("upkeep", "{tmp}/game.vsav", "--phase", "rph", "-o", "{tmp}/game.vsav"),
            ("-o", "game.vsav", "is the input", "nothing was written"), _game),
    Hostile("upkeep-o-is-the-position-by-a-link",
            ("upkeep", "{tmp}/pos.toml", "--phase", "rph", "--seed", "1", "-o", "{tmp}/again.toml"),
            ("-o", "again.toml", "is the input", "pos.toml"), _position_and_link),
    Hostile("board-png-is-the-board-archive", ("board", "{tmp}/bd01", "--terrain", "{tmp}/shared.xml", "--png",
                                               "{tmp}/bd01"), ("--png", "bd01", "is the input"), _board_archive),
    Hostile("forecast-png-is-the-position", ("forecast", "{tmp}/pos.toml", "--png", "{tmp}/pos.toml"),
            ("--png", "pos.toml", "is the input"), _position),
    Hostile("forecast-png-forced-over-a-board-the-game-reads",
            ("forecast", "{tmp}/game.vsav", "--boards", "{tmp}/boards", "--png", "{tmp}/boards/bd01", "--force"),
            ("--png", "bd01", "is the input"), _game_and_boards),
    Hostile("mol-o-is-the-position", ("mol", "{tmp}/pos.toml", "--fp", "3", "-o", "{tmp}/pos.toml"),
            ("-o", "pos.toml", "is the input"), _position),
    Hostile("forecast-png-empty", ("forecast", "demo", "--png", ""), ("--png ''", "an empty file name", "heat.png")),
    Hostile("upkeep-o-over-a-saved-game", ("upkeep", "demo", "--phase", "rph", "--seed", "1", "-o", "{tmp}/game.vsav"),
            ("-o", "game.vsav", "not a position file", "zip archive", "--force"), _other_kinds),
    Hostile("forecast-png-over-a-board-archive", ("forecast", "demo", "--turns", "1", "--png", "{tmp}/bd02"),
            ("--png", "bd02", "not a PNG picture", "--force"), _other_kinds),
    Hostile("upkeep-o-a-folder", ("upkeep", "demo", "--phase", "rph", "--seed", "1", "-o", "{tmp}/folder"),
            ("-o", "folder", "a folder"), _other_kinds),
    Hostile("demo-out-over-another-kind", ("demo", "--turns", "1", "--out", "{tmp}/out"),
            ("--out", "after.toml", "not a position file", "--force"), _other_kinds),
    Hostile("build-extension-over-another-extension",
            ("build-extension", "--vassal-jar", "{tmp}/x.jar", "-o", "{tmp}/notours.vmdx"),
            ("-o", "notours.vmdx", "not the ASL fire bridge extension", "--force"), _foreign_extension),
    # 2. install replaces and removes only its own extension.
    Hostile("install-over-another-extension", ("install", "--vasl", "{tmp}/vasl/VASL.vmod", "--no-check"),
            ("asl-fire-bridge.vmdx", "not the ASL fire bridge extension", "not replacing it", "--force"),
            _foreign_extension, env={"HOME": "{tmp}/home", "ASL_FIRE_VASSAL_CONF": "{tmp}/home/conf"}),
    Hostile("install-remove-another-extension", ("install", "--remove", "--vasl", "{tmp}/vasl/VASL.vmod"),
            ("asl-fire-bridge.vmdx", "not the ASL fire bridge extension", "not removing it", "--force"),
            _foreign_extension, env={"HOME": "{tmp}/home", "ASL_FIRE_VASSAL_CONF": "{tmp}/home/conf"}),
    Hostile("install-target-a-folder", ("install", "--vasl", "{tmp}/vasl/VASL.vmod", "--no-check"),
            ("asl-fire-bridge.vmdx", "a folder", "not replacing it"), _extension_folder,
            env={"HOME": "{tmp}/home", "ASL_FIRE_VASSAL_CONF": "{tmp}/home/conf"}),
    # 3. The token goes to this machine only, and only a printable one.
    Hostile("connection-file-host-of-another-machine", ("bridge", "--connection-file", "{tmp}/conn.json"),
            ("conn.json", "'192.0.2.2'", "not this machine's loopback address", "127.0.0.1"),
            _connection("192.0.2.2"), forbid=("socket",)),
    Hostile("connection-file-host-a-name", ("bridge", "--connection-file", "{tmp}/conn.json"),
            ("conn.json", "'example.org'", "loopback"), _connection("example.org"), forbid=("socket",)),
    Hostile("connection-file-host-not-text", ("bridge", "--connection-file", "{tmp}/conn.json"),
            ("conn.json", "host", "loopback"), _connection(["127.0.0.1"]), forbid=("socket",)),
    Hostile("connection-file-token-with-newlines", ("bridge", "--connection-file", "{tmp}/conn.json"),
            ("conn.json", "token", "one line of printable text"), _connection("127.0.0.1", "x\nA\nstop"),
            forbid=("socket",)),
    # 5. Board and overlay names are names in their folder.
    Hostile("vsav-board-named-by-an-absolute-path", ("vsav", "{tmp}/abs.vsav", "--boards", "{tmp}/boards"),
            ("abs.vsav", "board name '{tmp}/SECRETBOARD'", "not a board's name"), _names_outside,
            forbid=("SECRETBOARD",)),
    Hostile("odds-board-named-up-and-out", ("odds", "{tmp}/up.vsav", "--boards", "{tmp}/boards"),
            ("up.vsav", "board name '../SECRETBOARD'", "not a board's name"), _names_outside,
            forbid=("SECRETBOARD",)),
    Hostile("vsav-overlay-outside-overlays", ("vsav", "{tmp}/ovr.vsav", "--boards", "{tmp}/boards"),
            ("ovr.vsav", "overlay name '/../../../OUTSIDE/X'", "not an overlay's name"), _names_outside,
            forbid=("OUTSIDE",)),
    # 15. Silently wrong acceptance.
    Hostile("ft-target-ft-10e20", ("ft", "--target-ft", HUGE), ("--target-ft", HUGE, "0 to 10")),
    Hostile("ft-drm-10e20", ("ft", f"--drm={HUGE}:x"), ("--drm", "-20 to +20")),
    Hostile("mol-drm-10e20", ("mol", "--fp", "3", f"--drm=-{HUGE}"), ("--drm", "-20 to +20")),
    Hostile("bridge-attack-target-ft-10e20", ("bridge", "attack", "--target", "E3", "--target-ft", HUGE),
            ("--target-ft", "0 to 10")),
    Hostile("board-overlay-second-hex-garbage",
            ("board", str(SHARED_VASL / "boards" / "bd01"), "--terrain", str(SHARED_VASL / "SharedBoardMetadata.xml"),
             "--overlay", "x1:E5:garbage!!"), ("--overlay 'x1:E5:garbage!!'", "'GARBAGE!!' is not a hex name"),
            needs_data=True),
    Hostile("board-overlay-second-hex-off-the-board",
            ("board", str(SHARED_VASL / "boards" / "bd01"), "--terrain", str(SHARED_VASL / "SharedBoardMetadata.xml"),
             "--overlay", "wd1:GG10:ZZ99"), ("--overlay 'wd1:GG10:ZZ99'", "ZZ99 is off the board"), needs_data=True),
    Hostile("odds-saved-overlays-second-hex-off-the-board",
            ("odds", "{tmp}/ovhex.vsav", "--boards", str(SHARED_VASL / "boards")),
            ("ovhex.vsav", "overlay wd1 (GG10-ZZ99)", "'ZZ99' is not a hex of the board"), _overlay_off_board,
            needs_data=True),
    Hostile("hex-levels-outside-the-building", ("odds", "{tmp}/levels.toml"),
            ("levels.toml", "buildings[0].hex_levels.E5", "not a hex of building 'b1'"), _hex_levels_outside),
    Hostile("vsav-truncated-vobs", ("vsav", "{tmp}/cut.vsav"), ("cut.vsav", "truncated", "end_save"),
            _truncated_and_log),
    Hostile("vsav-truncated-in-a-board-entry", ("vsav", "{tmp}/cut-in-board.vsav"),
            ("cut-in-board.vsav", "truncated"), _truncated_and_log),
    Hostile("odds-truncated-vobs", ("odds", "{tmp}/cut.vsav", "--boards", "{tmp}/boards"),
            ("cut.vsav", "truncated", "end_save"), _truncated_and_log),
    Hostile("vsav-a-log", ("vsav", "{tmp}/moves.vlog"), ("moves.vlog", "a VASSAL log", "save the game"),
            _truncated_and_log),
    Hostile("odds-a-log", ("odds", "{tmp}/moves.vlog", "--boards", "{tmp}/boards"),
            ("moves.vlog", "a VASSAL log", "save the game"), _truncated_and_log),
)


# --- the run ------------------------------------------------------------------------------------------

def _tree(root: Path) -> dict[str, str]:
    """Every entry under *root*: a link's target, a folder, or a file's SHA-256 (so a change shows)."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = f"link to {os.readlink(p)}"
        elif p.is_dir():
            out[rel] = "folder"
        else:
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def asl_fire(args: list[str], cwd: Path, env: dict[str, str] | None = None,
             forbid: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """``asl-fire ARGS`` in a subprocess under the memory and time limits (and the audit hook with *forbid*)."""
    full = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    full.update(env or {})
    full.update(PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", HOSTILE_FORBID="|".join(forbid))
    cmd = [sys.executable, "-c", GUARD, *args] if forbid else [sys.executable, "-m", "asl_vassal_bridge", *args]
    return subprocess.run(cmd, cwd=cwd, env=full, capture_output=True, text=True, timeout=TIME_LIMIT,
                          preexec_fn=_limits, check=False)


def one_error_line(run: subprocess.CompletedProcess[str], command: str) -> str:
    """The one error line of a refused command (after its ``asl-fire: using …`` lines), checked."""
    assert "Traceback" not in run.stderr + run.stdout, run.stderr[-3000:]
    assert "FORBIDDEN" not in run.stderr, run.stderr
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    err = [line for line in run.stderr.strip().splitlines() if not line.startswith("asl-fire: using ")]
    assert len(err) == 1, err
    assert err[0].startswith(f"asl-fire {command}:"), err[0]
    return err[0]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input_is_refused_in_one_line_and_nothing_is_touched(case: Hostile, tmp_path: Path) -> None:
    if case.needs_data and not (SHARED_VASL / "boards").is_dir():
        missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
    if case.make is not None:
        case.make(tmp_path)
    before = _tree(tmp_path)

    def fill(text: str) -> str:
        return text.replace("{tmp}", str(tmp_path))

    run = asl_fire([fill(a) for a in case.args], tmp_path, {k: fill(v) for k, v in case.env.items()}, case.forbid)
    command = " ".join(case.args[:2]) if case.args[0] == "bridge" and case.args[1] == "attack" else case.args[0]
    line = one_error_line(run, command)
    for word in case.expect:
        assert fill(word) in line, (word, line)
    assert _tree(tmp_path) == before


def test_the_table_covers_each_point_of_the_brief() -> None:
    ids = " ".join(c.id for c in CASES)
    for needle in ("is-the-saved-game", "is-the-board-archive", "png-is-the-position", "png-empty", "over-a-saved",
                   "install-over-another", "install-remove-another", "install-target-a-folder",
                   "host-of-another-machine", "token-with-newlines", "absolute-path", "up-and-out",
                   "overlay-outside", "target-ft", "drm", "hex-levels", "truncated-vobs", "a-log",
                   "overlay-second-hex-garbage", "overlay-second-hex-off-the-board"):
        assert needle in ids, needle
    assert MEMORY_LIMIT and TIME_LIMIT  # the limits of tests/test_hostile_inputs.py apply here too


# --- what is asked for still works ----------------------------------------------------------------------

def test_force_replaces_a_file_of_another_kind_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    _other_kinds(tmp_path)
    run = asl_fire(["upkeep", "demo", "--phase", "rph", "--seed", "1", "-o", str(tmp_path / "game.vsav"), "--force"],
                   tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "game.vsav").read_text().startswith("# asl-fire position file")
    again = asl_fire(["upkeep", "demo", "--phase", "rph", "--seed", "2", "-o", str(tmp_path / "game.vsav")], tmp_path)
    assert again.returncode == 0, again.stderr  # a position file is replaced by a position file unasked
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith((".part", ".tmp"))]


def test_a_png_can_be_drawn_again_over_the_last_one(tmp_path: Path) -> None:
    for _ in range(2):
        run = asl_fire(["forecast", "demo", "--turns", "1", "--trials", "20", "--seed", "1", "--png",
                        str(tmp_path / "heat.png")], tmp_path)
        assert run.returncode == 0, run.stderr
    assert (tmp_path / "heat.png").read_bytes().startswith(b"\x89PNG")


def test_install_ignores_a_planted_part_link_and_replaces_then_removes_its_own_extension(tmp_path: Path) -> None:
    """The old fixed ``.vmdx.part`` name, planted as a link out of VASL_ext, is neither written through nor touched:
    the temporary file is a fresh hidden one.  Our own extension is replaced ("replaced:") and removed."""
    fake_module(tmp_path / "vasl" / "VASL.vmod")
    ext = tmp_path / "vasl" / "VASL_ext"
    ext.mkdir()
    (ext / "asl-fire-bridge.vmdx.part").symlink_to(tmp_path / "outside.vmdx")
    env = {"HOME": str(tmp_path / "home"), "ASL_FIRE_VASSAL_CONF": str(tmp_path / "home" / "conf")}
    args = ["install", "--vasl", str(tmp_path / "vasl" / "VASL.vmod"), "--no-check"]
    run = asl_fire(args, tmp_path, env)
    assert run.returncode == 0, run.stderr
    assert not (tmp_path / "outside.vmdx").exists() and (ext / "asl-fire-bridge.vmdx.part").is_symlink()
    from asl_vassal_bridge.bridge.install import is_bridge_extension

    assert is_bridge_extension(ext / "asl-fire-bridge.vmdx")
    assert sorted(p.name for p in ext.iterdir()) == ["asl-fire-bridge.vmdx", "asl-fire-bridge.vmdx.part"]
    again = asl_fire(args, tmp_path, env)
    assert again.returncode == 0 and f"replaced: {ext / 'asl-fire-bridge.vmdx'}" in again.stdout, again.stderr
    gone = asl_fire(["install", "--remove", "--vasl", str(tmp_path / "vasl" / "VASL.vmod")], tmp_path, env)
    assert gone.returncode == 0 and "removed:" in gone.stdout, gone.stderr
    assert sorted(p.name for p in ext.iterdir()) == ["asl-fire-bridge.vmdx.part"]


def test_install_force_replaces_and_removes_another_extension(tmp_path: Path) -> None:
    _foreign_extension(tmp_path)
    env = {"HOME": str(tmp_path / "home"), "ASL_FIRE_VASSAL_CONF": str(tmp_path / "home" / "conf")}
    target = tmp_path / "vasl" / "VASL_ext" / "asl-fire-bridge.vmdx"
    run = asl_fire(["install", "--vasl", str(tmp_path / "vasl" / "VASL.vmod"), "--no-check", "--force"], tmp_path, env)
    assert run.returncode == 0 and f"replaced: {target}" in run.stdout, run.stderr
    _foreign_extension(tmp_path)
    run = asl_fire(["install", "--remove", "--force", "--vasl", str(tmp_path / "vasl" / "VASL.vmod")], tmp_path, env)
    assert run.returncode == 0 and not target.exists(), run.stderr


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    from asl_vassal_bridge._outputs import replacing

    target = tmp_path / "after.toml"
    target.write_text("format = 1\n")
    with pytest.raises(RuntimeError), replacing(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("the writer failed")
    assert target.read_text() == "format = 1\n" and sorted(p.name for p in tmp_path.iterdir()) == ["after.toml"]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.3.2.1", "::1", "localhost", " 127.0.0.1 ", "::ffff:127.0.0.1"])
def test_loopback_hosts_are_taken(host: str) -> None:
    from asl_vassal_bridge.bridge.client import loopback_host

    assert loopback_host(host, "host") in ("127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1")


@pytest.mark.parametrize("host", ["192.0.2.2", "0.0.0.0", "10.0.0.1", "::", "example.org", "127.0.0.1.example.org",
                                  "", "2001:db8::1"])
def test_other_hosts_are_refused_by_name(host: str) -> None:
    from asl_vassal_bridge.bridge.client import loopback_host
    from asl_vassal_bridge.core.errors import BadInput

    with pytest.raises(BadInput, match="not this machine's loopback address"):
        loopback_host(host, "conn.json: host")


# --- 4. nothing about pieces a player may not see leaves the reader -------------------------------------

def test_vsav_says_the_same_whether_or_not_hidden_pieces_are_there(tmp_path: Path) -> None:
    """HIP and concealed units change nothing in what ``asl-fire vsav`` prints: not their count, not their stack."""
    if not (SHARED_VASL / "buildFile-6.5.xml").is_file():
        missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
    from asl_vassal_bridge.vasl.module import read_module
    from tests.vasl.builders import make_vsav, placed

    slots = read_module(SHARED_VASL / "buildFile-6.5.xml").by_gpid
    qmark = next(s for s in read_module(SHARED_VASL / "buildFile-6.5.xml").slots
                 if s.name == "?" and any(t.id == "concealment" for t in s.traits))
    shown = [("1", *placed(slots["192"], 512, 496)), ("q", *placed(qmark, 700, 300))]
    secret = [("h1", *placed(slots["195"], 900, 700, hide_by="Opponent")),
              ("h2", *placed(slots["192"], 512, 496, hide_by="Opponent")), ("u", *placed(slots["195"], 700, 300))]
    boards = "bd\t0\t0\t01\tVER\t6.1\t"
    (tmp_path / "open").mkdir()
    (tmp_path / "hip").mkdir()
    (tmp_path / "open" / "g.vsav").write_bytes(make_vsav(shown, boards, stacks=[("s", ["1"], 512, 496),
                                                                                  ("t", ["q"], 700, 300)]))
    (tmp_path / "hip" / "g.vsav").write_bytes(make_vsav(
        shown + secret, boards, stacks=[("s", ["h2", "1"], 512, 496), ("t", ["u", "q"], 700, 300),
                                        ("hip", ["h1"], 900, 700)]))
    outs = {}
    for game in ("open", "hip"):
        for extra in ([], ["--json"]):
            run = asl_fire(["vsav", "g.vsav", *extra], tmp_path / game, {"HOME": str(tmp_path)})
            assert run.returncode == 0, run.stderr
            outs[game, bool(extra)] = run.stdout
    assert outs["open", False] == outs["hip", False] and outs["open", True] == outs["hip", True]
    assert "hidden_pieces" not in outs["hip", True] and "2 pieces both players see" in outs["hip", False]


# --- 5. in a live game too: the bridge's board-archive fallback ---------------------------------------------

def _live_snapshot(name: str, overlays: list[dict[str, str]]) -> dict[str, Any]:
    vasl = {"state": "", "version": "6.1", "legacy": False, "overlays": overlays, "ssr": None, "crop": None}
    board = {"name": name, "x": 400, "y": 400, "width": 1800, "height": 645, "reversed": False, "grid": "ASLHexGrid",
             "vasl": vasl}
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": [board], "terrain_key": None, "terrain": None}],
            "pieces": []}


def test_a_live_games_board_and_overlay_names_stay_in_their_folder(tmp_path: Path) -> None:
    from asl_vassal_bridge.bridge.convert import game_map_from_boards
    from asl_vassal_bridge.vasl.names import BadName
    from asl_vassal_bridge.vasl.setup import VaslSetup

    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "SharedBoardMetadata.xml").write_bytes(TERRAIN_XML)
    _zip(tmp_path / "SECRETBOARD", {"BoardMetadata.xml": "<boardMetadata/>"})
    with pytest.raises(BadName, match=r"board '\.\./SECRETBOARD': not a board name"):
        game_map_from_boards(_live_snapshot("../SECRETBOARD", []), VaslSetup(None, tmp_path / "boards"))
    if not (SHARED_VASL / "boards" / "bd01").is_file():
        missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
    outside = [{"name": "/../../OUTSIDE/X", "hex1": "E5", "hex2": "E5"}]
    with pytest.raises(BadName, match=r"overlay '/\.\./\.\./OUTSIDE/X': not an overlay's name"):
        game_map_from_boards(_live_snapshot("01", outside), VaslSetup(None, SHARED_VASL / "boards"))
