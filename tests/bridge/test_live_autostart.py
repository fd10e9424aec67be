"""The extension sets up its Python and runs the bridge itself (issue 30): real VASSAL, real JVM, real pip.

No test here starts ``asl-fire bridge`` for VASSAL unless it says so (the terminal case): the extension does, from
the Python its first-run setup made out of the wheel it carries, or the one ``asl-fire install`` recorded in
``<conf>/aslfire/python.json``. Each VASSAL has its own conf folder (``-DVASSAL.conf``) under the test's tmp folder.
Screenshots of what the player sees go to ``screenshots/autostart/`` (gitignored).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge import __version__
from asl_vassal_bridge.bridge.client import BridgeClient, connect
from tests.support import vassal_harness as vh

from .conftest import standard_pieces

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

SHOTS = vh.REPO / "screenshots" / "autostart"
#: A player's PATH without this test run's venv: the first-run setup finds the system's Python 3.11+.
PLAYER_PATH = "/usr/local/bin:/usr/bin:/bin"


def wait_for(cond: Callable[[], object], seconds: float, what: str,
             fail: Callable[[], str | None] | None = None) -> None:
    end = time.time() + seconds
    while time.time() < end:
        if cond():
            return
        if fail is not None and (why := fail()):
            raise AssertionError(f"{what}: {why}")
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {seconds} s")


BUSY = "still working on the previous button"


def press(client: BridgeClient, button: str, answer: str) -> str:
    """A player's press of *button*, pressed again while the bridge says it is still busy (a bridge that has just
    connected reads the game first); the chat lines up to *answer*."""
    for _ in range(20):
        before = chat(client)
        assert client.jvm.aslbridgetest.TestHooks.clickToolbar(button)
        n = len(before)
        wait_for(lambda n=n: answer in chat(client)[n:] or BUSY in chat(client)[n:], 180, f"the answer to {button}")
        if answer in chat(client)[len(before):]:
            return chat(client)[len(before):]
        time.sleep(1)
    raise AssertionError(f"{button}: the bridge stayed busy")


def status(client: BridgeClient) -> dict[str, Any]:
    return dict(json.loads(str(client.api.autoStartStatus())))


def chat(client: BridgeClient) -> str:
    return str(client.jvm.aslbridgetest.TestHooks.chatText())


def shot(client: BridgeClient, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    client.jvm.aslbridgetest.TestHooks.screenshot(str(SHOTS / f"{name}.png"))


def alive(pid: int) -> bool:
    """Whether *pid* runs (a zombie, ended but not yet reaped by init, counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def pythons_of(pid: int) -> list[int]:
    """The Python processes started by the process *pid*."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
                cmd = (d / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"asl_vassal_bridge" in cmd and alive(int(d.name)):
                out.append(int(d.name))
    return out


def blazes(client: BridgeClient) -> int:
    return sum(1 for p in client.snapshot(with_terrain=False)["pieces"] if p["name"] == "Blaze")


def pip_cache() -> dict[str, str]:
    """The machine's pip cache for the VASSAL whose HOME is a tmp folder (pip still reaches the index for the rest)."""
    run = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
    return {"PIP_CACHE_DIR": run.stdout.strip()} if run.returncode == 0 and run.stdout.strip() else {}


@pytest.fixture(scope="session")
def carried_wheel(engine_dir: Path) -> Path:
    """The package's wheel, built from this checkout as a release would be."""
    import shutil

    out, src = engine_dir / "wheel", engine_dir / "wheel-src"
    # a copy: setuptools builds in the source tree (build/, *.egg-info), which the checkout is spared
    shutil.copytree(vh.REPO, src, symlinks=True, dirs_exist_ok=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".cache", ".mypy_cache", ".ruff_cache", ".pytest_cache", "__pycache__", "build", "dist",
        "*.egg-info", "screenshots", "node_modules", ".hypothesis"))
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    return next(out.glob("asl_vassal_bridge-*.whl"))


@pytest.fixture(scope="session")
def carrying_module(engine_dir: Path, carried_wheel: Path) -> Path:
    """The test module with the extension carrying the wheel (`asl-fire build-extension --carry-wheel`)."""
    from asl_vassal_bridge.cli import main

    mod = vh.build_module(engine_dir / "autostart.vmod")
    ext = engine_dir / "autostart_ext"
    ext.mkdir(exist_ok=True)
    assert main(["build-extension", "--vassal-jar", str(vh.vassal_jar()), "-o", str(ext / "asl-fire-bridge.vmdx"),
                 "--carry-wheel", str(carried_wheel)]) == 0
    return mod


def player(name: str, module: Path, support_jar: Path, xvfb: vh.Xvfb, workdir: Path, *, game: bool = True,
           env: dict[str, str] | None = None, jvm_args: tuple[str, ...] = (),
           prefs: dict[str, str] | None = None, python_json: dict[str, Any] | None = None) -> vh.VassalPlayer:
    workdir.mkdir(parents=True, exist_ok=True)
    saved = vh.write_saved_game(workdir / f"{name}.vsav", standard_pieces()) if game else None
    if python_json is not None:
        conf = workdir / f"home-{name}" / "conf" / "aslfire"
        conf.mkdir(parents=True, exist_ok=True)
        (conf / "python.json").write_text(json.dumps(python_json))
    return vh.VassalPlayer(name, module, saved, support_jar, xvfb.display, workdir, None, env=env,
                           jvm_args=jvm_args, module_prefs=prefs)


def installed() -> dict[str, Any]:
    """python.json as `asl-fire install` writes it when run by this test run's Python."""
    from asl_vassal_bridge.bridge.install import python_record

    return dict(python_record("install"))


# --- the first-run setup -------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def first_run(carrying_module: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[
        tuple[vh.VassalPlayer, BridgeClient]]:
    p = player("first", carrying_module, support_jar, xvfb, engine_dir / "first-run",
               env={"PATH": PLAYER_PATH, **pip_cache()})
    try:
        p.wait_connection_file()
        client = connect(p.connection_file)
        yield p, client
        client.close()
    finally:
        p.stop()


def test_first_run_setup_from_the_carried_wheel_then_a_press_places_counters(first_run: Any) -> None:
    p, client = first_run
    hooks = client.jvm.aslbridgetest.TestHooks
    aslfire = p.conf / "aslfire"
    wait_for(lambda: hooks.windowOpen("aslfire-setup-ask"), 180, "the first-run question")
    text = str(hooks.windowText("aslfire-setup-ask"))
    assert "[Set up]" in text and "[Not now]" in text and str(aslfire / "venv") in text
    shot(client, "first-run-ask")
    assert hooks.clickWindowButton("aslfire-setup-ask", "Set up")
    failed = lambda: str(hooks.windowText("aslfire-setup-failed")) or None  # noqa: E731
    wait_for(lambda: "Installing the dependencies" in str(hooks.windowText("aslfire-setup-progress")), 300,
             "the progress dialog", failed)
    wait_for(lambda: "Collecting" in str(hooks.windowText("aslfire-setup-progress")), 600, "pip's lines", failed)
    shot(client, "first-run-progress")
    wait_for(lambda: (aslfire / "python.json").exists(), 1200, "python.json", failed)
    recorded = json.loads((aslfire / "python.json").read_text())
    venv = aslfire / "venv"
    assert recorded == {"python": str(venv / "bin" / "python"), "by": "setup", "version": __version__,
                        "venv": str(venv)}
    log = (aslfire / "setup.log").read_text()
    assert "--require-hashes" in log and "--no-deps" in log
    wait_for(lambda: client.api.hasListener(), 300, "the bridge connecting", failed)
    st = status(client)
    assert st["running"] and st["python"] == recorded["python"] and st["restarts"] == 0
    assert pythons_of(p.proc.pid) == [st["pid"]]
    assert not hooks.windowOpen("aslfire-setup-progress")  # closed by itself when done
    before, chat_before = blazes(client), chat(client)
    assert hooks.clickToolbar("aslfire-upkeep")
    wait_for(lambda: blazes(client) > before, 300, "the Fire upkeep's Blazes")
    new = chat(client)[len(chat_before):]
    assert "not connected" not in new and "asl-fire bridge" not in new
    assert "connected to VASSAL" in (aslfire / "bridge.log").read_text()  # the bridge's output: its log, not the chat
    assert "connected to VASSAL" not in chat(client)


def test_first_run_preferences_tab_and_log(first_run: Any) -> None:
    p, client = first_run
    hooks = client.jvm.aslbridgetest.TestHooks
    hooks.openPreferences("ASL fire bridge")
    wait_for(lambda: hooks.windowOpen("aslfire-test-prefs"), 60, "VASSAL's Preferences")
    text = str(hooks.windowText("aslfire-test-prefs"))
    assert "Start the fire bridge with a game" in text and "Python program (empty: found by itself)" in text
    assert "[Show the bridge's log]" in text and "[Set up Python now]" in text
    assert str(p.conf / "aslfire" / "bridge.log") in text
    shot(client, "preferences-tab")
    assert hooks.clickWindowButton("aslfire-test-prefs", "Show the bridge's log")
    wait_for(lambda: "connected to VASSAL" in str(hooks.windowText("aslfire-bridge-log")), 60, "the log window")
    shot(client, "bridge-log")


def test_first_run_set_up_python_now_runs_it_again_without_asking(first_run: Any) -> None:
    p, client = first_run
    hooks = client.jvm.aslbridgetest.TestHooks
    old, decided = status(client)["pid"], status(client)["decided"]
    if not hooks.windowOpen("aslfire-test-prefs"):
        hooks.openPreferences("ASL fire bridge")
    assert hooks.clickWindowButton("aslfire-test-prefs", "Set up Python now")
    failed = lambda: str(hooks.windowText("aslfire-setup-failed")) or None  # noqa: E731
    wait_for(lambda: status(client)["decided"] > decided, 1200, "the setup run again", failed)
    assert not hooks.windowOpen("aslfire-setup-ask")  # the player asked for it: no question
    wait_for(lambda: client.api.hasListener() and status(client)["running"], 300, "the bridge connecting again")
    new = status(client)["pid"]
    assert new != old and not alive(old) and pythons_of(p.proc.pid) == [new]
    assert "Installing asl-vassal-bridge" in (p.conf / "aslfire" / "setup.log").read_text()
    assert "(stopped by VASSAL)" in (p.conf / "aslfire" / "bridge.log").read_text()  # ended before pip ran


# --- the supervisor, with the Python `asl-fire install` recorded -----------------------------------------------------

@pytest.fixture(scope="module")
def supervised(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[
        tuple[vh.VassalPlayer, BridgeClient]]:
    p = player("supervised", module_with_extension, support_jar, xvfb, engine_dir / "supervised",
               python_json=installed())
    try:
        p.wait_connection_file()
        client = connect(p.connection_file)
        wait_for(lambda: client.api.hasListener(), 300, "the bridge the extension started connecting")
        yield p, client
        client.close()
    finally:
        p.stop()


def test_autostart_runs_the_python_asl_fire_install_recorded(supervised: Any) -> None:
    p, client = supervised
    st = status(client)
    assert st["enabled"] and st["running"] and st["python"] == sys.executable and st["restarts"] == 0
    assert pythons_of(p.proc.pid) == [st["pid"]]
    before = blazes(client)
    client.jvm.aslbridgetest.TestHooks.scriptDice(",".join(["6"] * 120))  # every Flame→Blaze DR 12 (B25.151)
    assert client.jvm.aslbridgetest.TestHooks.clickToolbar("aslfire-upkeep")
    wait_for(lambda: blazes(client) > before, 300, "the Fire upkeep's Blazes")


def test_supervisor_restarts_a_killed_bridge_once_and_the_next_press_works(supervised: Any) -> None:
    p, client = supervised
    first = status(client)["pid"]
    chat_before = chat(client)
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: status(client)["restarts"] == 1 and status(client)["running"], 180, "the restart")
    wait_for(lambda: client.api.hasListener(), 300, "the restarted bridge connecting")
    second = status(client)["pid"]
    assert second != first and pythons_of(p.proc.pid) == [second]
    lines = [ln for ln in chat(client)[len(chat_before):].splitlines() if "(Python) stopped" in ln]
    assert lines == ["- ASL fire bridge: the bridge (Python) stopped unexpectedly (exit status 137); it was started "
                     "again."]
    system = client.jvm.java.lang.System  # the killed bridge's listener finalized: nothing of it reaches the new one
    for _ in range(3):
        system.gc()
        system.runFinalization()
    press(client, "aslfire-finder", "Fire finder")


def test_supervisor_closing_vassal_leaves_no_python_process(supervised: Any) -> None:
    p, client = supervised
    pid = status(client)["pid"]
    assert alive(pid)
    client.close()
    p.stop()  # VASSAL told to quit (SIGTERM): its shutdown hooks run, as when the player closes its window
    wait_for(lambda: not alive(pid), 60, "the bridge ending with VASSAL")
    log = (p.conf / "aslfire" / "bridge.log").read_text()
    assert "(stopped by VASSAL)" in log


def test_supervisor_file_quit_leaves_no_python_process(module_with_extension: Path, support_jar: Path,
                                                       xvfb: vh.Xvfb, engine_dir: Path) -> None:
    p = player("quitting", module_with_extension, support_jar, xvfb, engine_dir / "quitting", python_json=installed())
    try:
        client = connect(p.wait_connection_file())
        wait_for(lambda: client.api.hasListener(), 300, "the bridge the extension started connecting")
        pid = status(client)["pid"]
        assert alive(pid)
        client.jvm.aslbridgetest.TestHooks.quit()
        assert p.proc.wait(120) == 0  # VASSAL closed the module and exited
        wait_for(lambda: not alive(pid), 60, "the bridge ending with VASSAL")
        assert "(stopped by VASSAL)" in (p.conf / "aslfire" / "bridge.log").read_text()
    finally:
        p.stop()


# --- what a player must act on ---------------------------------------------------------------------------------------

def test_first_run_no_python_found_names_what_to_install(carrying_module: Path, support_jar: Path, xvfb: vh.Xvfb,
                                                         engine_dir: Path) -> None:
    empty = engine_dir / "no-python-root"
    empty.mkdir(exist_ok=True)
    p = player("nopython", carrying_module, support_jar, xvfb, engine_dir / "no-python",
               env={"PATH": str(empty)}, jvm_args=(f"-Daslfire.searchRoot={empty}",))
    try:
        p.wait_connection_file()
        client = connect(p.connection_file)
        hooks = client.jvm.aslbridgetest.TestHooks
        wait_for(lambda: hooks.windowOpen("aslfire-setup-ask"), 180, "the first-run question")
        assert hooks.clickWindowButton("aslfire-setup-ask", "Set up")
        wait_for(lambda: hooks.windowOpen("aslfire-setup-nopython"), 180, "the no-Python dialog")
        text = str(hooks.windowText("aslfire-setup-nopython"))
        assert "needs Python 3.11 or newer, and none was found" in text
        assert "https://www.python.org/downloads/" in text and 'tab "ASL fire bridge", "Python"' in text
        shot(client, "no-python")
        assert hooks.clickWindowButton("aslfire-setup-nopython", "OK")
        assert not (p.conf / "aslfire" / "python.json").exists() and status(client)["pid"] == -1
        client.close()
    finally:
        p.stop()


def failed_setup(p: vh.VassalPlayer) -> tuple[BridgeClient, str]:
    """The player answers "Set up"; the failure dialog's text once it shows."""
    client = connect(p.wait_connection_file())
    hooks = client.jvm.aslbridgetest.TestHooks
    wait_for(lambda: hooks.windowOpen("aslfire-setup-ask"), 180, "the first-run question")
    assert hooks.clickWindowButton("aslfire-setup-ask", "Set up")
    wait_for(lambda: hooks.windowOpen("aslfire-setup-failed"), 600, "the failure dialog")
    return client, str(hooks.windowText("aslfire-setup-failed"))


def test_first_run_pip_failing_offline_shows_pips_last_line_and_the_log(carrying_module: Path, support_jar: Path,
                                                                         xvfb: vh.Xvfb, engine_dir: Path) -> None:
    offline = {"PATH": PLAYER_PATH, "PIP_CONFIG_FILE": os.devnull, "PIP_INDEX_URL": "http://127.0.0.1:9/simple",
               "PIP_NO_CACHE_DIR": "1", "PIP_RETRIES": "0", "PIP_TIMEOUT": "3", "PIP_FIND_LINKS": ""}
    p = player("offline", carrying_module, support_jar, xvfb, engine_dir / "offline", env=offline)
    try:
        client, text = failed_setup(p)
        log = p.conf / "aslfire" / "setup.log"
        last = [ln.strip() for ln in log.read_text().splitlines() if ln.strip() and not ln.startswith("FAILED")][-1]
        assert f"Setting up Python for the ASL fire bridge failed: pip failed: {last}" in text
        assert "No matching distribution" in last or "Could not find a version" in last
        assert f"The whole log: {log}" in text and "Set up Python now" in text
        shot(client, "pip-failed")
        assert client.jvm.aslbridgetest.TestHooks.clickWindowButton("aslfire-setup-failed", "OK")
        assert not (p.conf / "aslfire" / "python.json").exists() and status(client)["pid"] == -1
        client.close()
    finally:
        p.stop()


def test_first_run_a_damaged_carried_wheel_is_refused_before_pip(carrying_module: Path, support_jar: Path,
                                                                 xvfb: vh.Xvfb, engine_dir: Path) -> None:
    import shutil
    import zipfile

    mod = shutil.copy(carrying_module, engine_dir / "damaged.vmod")
    (engine_dir / "damaged_ext").mkdir(exist_ok=True)
    good = engine_dir / "autostart_ext" / "asl-fire-bridge.vmdx"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(engine_dir / "damaged_ext" / good.name, "w") as z:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "aslfire-python/manifest.json":
                data = json.dumps(dict(json.loads(data), sha256="0" * 64)).encode()
            z.writestr(info, data)
    p = player("damaged", Path(mod), support_jar, xvfb, engine_dir / "damaged", env={"PATH": PLAYER_PATH})
    try:
        client, text = failed_setup(p)
        assert "the carried wheel's SHA-256 is " in text and ", not the manifest's " + "0" * 64 in text
        assert "the extension file is damaged; download it again" in text
        assert not (p.conf / "aslfire" / "venv").exists()  # refused before anything was installed
        client.jvm.aslbridgetest.TestHooks.clickWindowButton("aslfire-setup-failed", "OK")
        client.close()
    finally:
        p.stop()


def test_first_run_not_now_is_not_asked_again(carrying_module: Path, support_jar: Path, xvfb: vh.Xvfb,
                                              engine_dir: Path) -> None:
    work = engine_dir / "not-now"
    p = player("notnow", carrying_module, support_jar, xvfb, work)
    try:
        p.wait_connection_file()
        client = connect(p.connection_file)
        hooks = client.jvm.aslbridgetest.TestHooks
        wait_for(lambda: hooks.windowOpen("aslfire-setup-ask"), 180, "the first-run question")
        assert hooks.clickWindowButton("aslfire-setup-ask", "Not now")
        prefs = p.conf / "prefs" / vh.MODULE_NAME.replace(" ", "_20_")
        wait_for(lambda: "aslfireSetupDeclined=true" in prefs.read_text(), 60, "the answer kept in the preferences")
        decided = status(client)["decided"]
        hooks.openGame(str(vh.write_saved_game(work / "again.vsav", standard_pieces())))
        wait_for(lambda: status(client)["decided"] > decided, 120, "the extension's decision on the game opened")
        assert not hooks.windowOpen("aslfire-setup-ask")  # a game opened again: not asked again
        before = chat(client)
        assert hooks.clickToolbar("aslfire-finder")
        wait_for(lambda: "Set up Python now" in chat(client)[len(before):], 120, "the press's line")
        assert not hooks.windowOpen("aslfire-setup-ask") and status(client)["pid"] == -1
        assert not (p.conf / "aslfire" / "python.json").exists()
        client.close()
    finally:
        p.stop()


def test_autostart_bad_configured_python_path_is_one_line(module_with_extension: Path, support_jar: Path,
                                                          xvfb: vh.Xvfb, engine_dir: Path) -> None:
    bad = engine_dir / "no-such-python" / "python3"
    p = player("badpath", module_with_extension, support_jar, xvfb, engine_dir / "bad-path",
               prefs={"aslfirePython": str(bad)}, python_json=installed())
    try:
        p.wait_connection_file()
        client = connect(p.connection_file)
        wait_for(lambda: str(bad) in chat(client), 180, "the bad path's line")
        wait_for(lambda: status(client)["decided"] >= 1, 120, "the extension's decision")
        lines = [ln for ln in chat(client).splitlines() if str(bad) in ln]
        assert lines == [f'- ASL fire bridge: the Python set in Preferences (tab "ASL fire bridge"), {bad}, no such '
                         "file; correct or clear it there."]
        assert status(client)["pid"] == -1 and not client.api.hasListener()  # python.json's is not used instead
        shot(client, "bad-path")
        client.close()
    finally:
        p.stop()


def test_autostart_uses_a_bridge_started_from_a_terminal_first(module_with_extension: Path, support_jar: Path,
                                                               xvfb: vh.Xvfb, engine_dir: Path) -> None:
    work = engine_dir / "terminal"
    p = player("terminal", module_with_extension, support_jar, xvfb, work, game=False, python_json=installed())
    terminal = None
    try:
        p.wait_connection_file()
        client = connect(p.connection_file)
        terminal = subprocess.Popen([sys.executable, "-m", "asl_vassal_bridge", "bridge", "--connection-file",
                                     str(p.connection_file)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: client.api.hasListener(), 180, "the terminal's bridge connecting")
        assert status(client)["decided"] == 0  # no game yet: nothing decided
        game = vh.write_saved_game(work / "opened.vsav", standard_pieces())
        client.jvm.aslbridgetest.TestHooks.openGame(str(game))
        wait_for(lambda: client.status().get("started"), 120, "the game opening")
        wait_for(lambda: status(client)["decided"] >= 1, 120, "the extension's decision on the game opened")
        assert status(client)["pid"] == -1 and pythons_of(p.proc.pid) == []
        press(client, "aslfire-finder", "Fire finder")
        assert status(client)["pid"] == -1
        client.close()
    finally:
        if terminal is not None:
            terminal.terminate()
            terminal.wait(10)
        p.stop()


def test_autostart_a_bridge_started_from_a_terminal_later_takes_over_from_the_extensions(
        module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> None:
    """A player who runs `asl-fire bridge` while the extension's own bridge serves the buttons: one bridge after,
    the terminal's; the extension's stopped without a restart, a chat line or a disconnect."""
    work = engine_dir / "takeover"
    p = player("takeover", module_with_extension, support_jar, xvfb, work, python_json=installed())
    terminal = None
    try:
        client = connect(p.wait_connection_file())
        wait_for(lambda: client.api.hasListener(), 300, "the bridge the extension started connecting")
        own = status(client)["pid"]
        chat_before = chat(client)
        log = work / "terminal.log"
        with log.open("wb") as out:
            terminal = subprocess.Popen([sys.executable, "-m", "asl_vassal_bridge", "bridge", "--connection-file",
                                         str(p.connection_file)], stdout=out, stderr=subprocess.STDOUT)
        wait_for(lambda: not alive(own), 120, "the extension's bridge stopping")
        wait_for(lambda: "this one serves the buttons now" in log.read_text(), 60, "the terminal's log line")
        assert f"the bridge VASSAL had started (pid {own}) is stopped" in log.read_text()
        st = status(client)
        assert st["pid"] == -1 and st["restarts"] == 0 and pythons_of(p.proc.pid) == []
        assert client.api.hasListener() and terminal.poll() is None
        bridge_log = (p.conf / "aslfire" / "bridge.log").read_text()
        assert "took over the buttons)" in bridge_log and "unexpectedly" not in bridge_log
        press(client, "aslfire-finder", "Fire finder")
        new_lines = chat(client)[len(chat_before):]
        assert "disconnected" not in new_lines and "stopped" not in new_lines
        assert status(client)["pid"] == -1  # the extension did not start its own again
        client.close()
    finally:
        if terminal is not None:
            terminal.terminate()
            terminal.wait(10)
        p.stop()
