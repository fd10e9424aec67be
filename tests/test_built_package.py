"""The built package, as a player gets it: ``scripts/build-dist.sh`` makes the sdist, the wheel (from the sdist) and
the players' extension; the wheel, installed into a fresh venv (not the checkout, not editable), runs ``asl-fire
demo``, ``asl-fire install`` against a test VASSAL home, and ``asl-fire bridge`` answering a toolbar press in a real
VASSAL under Xvfb."""

from __future__ import annotations

import email.parser
import json
import os
import re
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import asl_vassal_bridge
from asl_vassal_bridge.bridge.client import BridgeClient, connect
from asl_vassal_bridge.bridge.prebuilt import PREBUILT_NAME, prebuilt_extension, prebuilt_info, sources_digest
from asl_vassal_bridge.vasl.setup import Platform
from tests.conftest import REPO, missing
from tests.support import vassal_harness as vh
from tests.support.vassal_prefs import write_prefs

pytestmark = [pytest.mark.slow]

VERSION = asl_vassal_bridge.__version__
#: The folders of the checkout the sdist carries whole (MANIFEST.in grafts them).
SDIST_TREES = ("asl_vassal_bridge", "widget", "vasl_extension", "scripts", "tests", "docs", "bench", "examples")


@dataclass(frozen=True)
class Dist:
    folder: Path
    sdist: Path
    wheel: Path
    vmdx: Path
    returncode: int
    output: str


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    """``bash scripts/build-dist.sh DIR``, run once, with the environment running these tests."""
    out = tmp_path_factory.mktemp("dist")
    env = dict(os.environ)
    if sys.prefix != sys.base_prefix:  # the venv running the tests is the one the script uses
        env["ASL_FIRE_VENV"] = sys.prefix
    proc = subprocess.run(["bash", str(REPO / "scripts" / "build-dist.sh"), str(out)], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    return Dist(out, out / f"asl_vassal_bridge-{VERSION}.tar.gz", out / f"asl_vassal_bridge-{VERSION}-py3-none-any.whl",
                out / f"asl-fire-bridge-{VERSION}.vmdx", proc.returncode, proc.stdout + proc.stderr)


def _made(d: Dist, path: Path) -> Path:
    assert path.is_file(), f"scripts/build-dist.sh did not make {path.name} (exit {d.returncode}): {d.output[-1500:]}"
    return path


def _repo_files(tree: str) -> set[str]:
    """The checkout's files under *tree*, as the sdist names them (no bytecode or class files)."""
    root = REPO / tree
    return {p.relative_to(REPO).as_posix() for p in root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".class")}


def test_the_wheel_carries_what_the_cli_needs(dist: Dist) -> None:
    wheel = _made(dist, dist.wheel)
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = email.parser.Parser().parsestr(z.read(f"asl_vassal_bridge-{VERSION}.dist-info/METADATA").decode())
        entry_points = z.read(f"asl_vassal_bridge-{VERSION}.dist-info/entry_points.txt").decode()
        carried = z.read(f"asl_vassal_bridge/data/{PREBUILT_NAME}")
    modules = {p for t in ("asl_vassal_bridge", "widget") for p in _repo_files(t) if p.endswith(".py")}
    assert {p.removeprefix("widget/") for p in modules} <= names  # every module of both packages
    data = {"asl_vassal_bridge/py.typed", "asl_fire_widget/py.typed", "asl_vassal_bridge/scenarios/demo.toml",
            "asl_vassal_bridge/schema/position.schema.json", "asl_vassal_bridge/data/units/vasl-6.5.json",
            f"asl_vassal_bridge/data/{PREBUILT_NAME}", "asl_vassal_bridge/java/buildFile.xml",
            "asl_vassal_bridge/java/src/aslfire/FireBridge.java"}
    assert data <= names, data - names
    assert not any(n.startswith(("tests/", "scripts/", "docs/")) for n in names)
    assert meta["Version"] == VERSION and meta["Requires-Python"] == ">=3.11"
    assert {r.split(">=")[0] for r in meta.get_all("Requires-Dist") if "extra ==" not in r} == {
        "lxml", "numpy", "py4j", "pillow", "tomli-w", "jsonschema"}
    assert "asl-fire = asl_vassal_bridge.cli:main" in entry_points
    # The extension inside the wheel is the prebuilt one, carrying no wheel of its own.
    assert carried == prebuilt_extension().read_bytes()
    with zipfile.ZipFile(prebuilt_extension()) as z:
        assert not any(n.startswith("aslfire-python/") for n in z.namelist())


def test_the_sdist_holds_what_a_rebuild_needs(dist: Dist, tmp_path: Path) -> None:
    sdist = _made(dist, dist.sdist)
    top = f"asl_vassal_bridge-{VERSION}/"
    with tarfile.open(sdist) as t:
        names = {m.name.removeprefix(top) for m in t.getmembers() if m.isfile()}
        t.extractall(tmp_path, filter="data")
    expected = {"pyproject.toml", "README.md", "MANIFEST.in", "PKG-INFO"}
    for tree in SDIST_TREES:
        expected |= _repo_files(tree)
    assert expected <= names, sorted(expected - names)[:20]
    # The Java sources in it are those the prebuilt extension was built from: a rebuild from the sdist
    # (scripts/build-prebuilt-extension.sh) makes the same extension.
    unpacked = tmp_path / top
    assert sources_digest(unpacked / "asl_vassal_bridge" / "java") == prebuilt_info()["sources_sha256"]
    assert sources_digest(unpacked / "vasl_extension") == prebuilt_info()["sources_sha256"]
    # `python -m build` made the wheel from this sdist, not from the checkout.
    log = (dist.folder / "build.log").read_text("utf-8")
    assert "Building wheel from sdist" in log


@pytest.mark.vassal
def test_the_extension_rebuilt_from_the_sdist_is_the_prebuilt_one(dist: Dist, tmp_path: Path) -> None:
    """``scripts/build-prebuilt-extension.sh`` run in the unpacked sdist (javac against VASSAL's engine jar) makes
    the extension the wheel carries: the same sources digest, the same archive members, the same classes."""
    import shutil

    try:
        jar = vh.vassal_jar()
    except vh.Unavailable as e:
        missing("engine", str(e))
    if shutil.which("javac") is None:
        missing("engine", "javac not found: run `bash scripts/install-vassal-test-deps.sh`")
    with tarfile.open(_made(dist, dist.sdist)) as t:
        t.extractall(tmp_path, filter="data")
    unpacked = tmp_path / f"asl_vassal_bridge-{VERSION}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(ASL_VASSAL_JAR=str(jar), PYTHON=sys.executable)
    out = tmp_path / "rebuilt.vmdx"
    run = subprocess.run(["bash", "scripts/build-prebuilt-extension.sh", "-o", str(out)], cwd=unpacked, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    where = subprocess.run([sys.executable, "-c", "from asl_vassal_bridge.bridge.extension import extension_sources;"
                            " print(extension_sources())"], cwd=unpacked, env={**env, "PYTHONPATH": str(unpacked)},
                           capture_output=True, text=True)
    assert where.stdout.strip() == str(unpacked / "asl_vassal_bridge" / "java")  # the script's PYTHONPATH: the sdist's
    assert prebuilt_info(out)["sources_sha256"] == prebuilt_info()["sources_sha256"]
    with zipfile.ZipFile(out) as new, zipfile.ZipFile(prebuilt_extension()) as old:
        assert sorted(new.namelist()) == sorted(old.namelist())
        assert all(new.read(n) == old.read(n) for n in new.namelist() if n.endswith(".class"))


def test_build_dist_makes_the_players_extension_carrying_the_wheel(dist: Dist) -> None:
    """Contract: the .vmdx is the prebuilt extension plus ``aslfire-python/`` (manifest, pinned requirements, the
    wheel), added by ``carry_python`` (what ``asl-fire build-extension --carry-wheel`` uses)."""
    vmdx = _made(dist, dist.vmdx)
    wheel = _made(dist, dist.wheel)
    with zipfile.ZipFile(vmdx) as z, zipfile.ZipFile(prebuilt_extension()) as pre:
        names = set(z.namelist())
        pre_names = set(pre.namelist())
        manifest = json.loads(z.read("aslfire-python/manifest.json"))
        carried = z.read(f"aslfire-python/{wheel.name}")
        assert all(z.read(n) == pre.read(n) for n in pre.namelist())  # the prebuilt extension, unchanged
        requirements = z.read("aslfire-python/requirements.txt").decode()
    import hashlib

    assert names - pre_names == {"aslfire-python/manifest.json", "aslfire-python/requirements.txt",
                                           f"aslfire-python/{wheel.name}"}
    assert carried == wheel.read_bytes()
    assert manifest == {"package": "asl-vassal-bridge", "version": VERSION, "wheel": wheel.name,
                        "sha256": hashlib.sha256(carried).hexdigest(), "requires_python": ">=3.11"}
    assert "--hash=sha256:" in requirements and "py4j==" in requirements


# --- the wheel installed into a fresh venv ---------------------------------------------------------------------

@dataclass(frozen=True)
class Venv:
    root: Path
    env: dict[str, str]

    def bin(self, name: str) -> str:
        return str(self.root / "bin" / name)

    def run(self, *argv: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([self.bin(argv[0]), *argv[1:]], cwd=cwd, env={**self.env, **(env or {})},
                              capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def wheel_venv(dist: Dist, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """A fresh venv with only the built wheel (and its dependencies from the package index) installed."""
    wheel = _made(dist, dist.wheel)
    root = tmp_path_factory.mktemp("wheel-venv") / "venv"
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PIP_USER", "ASL_FIRE_VASSAL_CONF")}
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True, env=env, timeout=300)
    # The README's Windows command (`py -m pip install asl_vassal_bridge-….whl`), the venv's python standing for `py`.
    argv = _readme_command(r"py -m pip install (asl_vassal_bridge-\S+\.whl)")
    assert argv[-1] == wheel.name
    pip = subprocess.run([str(root / "bin" / "python"), *argv[1:]], cwd=dist.folder, env=env, capture_output=True,
                         text=True, timeout=600)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return Venv(root, env)


def _readme_command(pattern: str) -> list[str]:
    """The README's one command line matching *pattern* (its trailing ``# …`` comment dropped), split in words."""
    lines = [ln.split("  #")[0].strip() for ln in (REPO / "README.md").read_text("utf-8").splitlines()]
    found = [ln for ln in lines if re.fullmatch(pattern, ln)]
    assert len(found) == 1, f"README: one command matching {pattern!r} expected, found {found}"
    return found[0].split()


def test_the_readmes_pipx_command_installs_the_wheel(dist: Dist, tmp_path: Path) -> None:
    """The README's macOS and Linux command, ``pipx install ./asl_vassal_bridge-….whl``, run with pipx as the tests'
    environment has it, into a pipx home of its own."""
    wheel = _made(dist, dist.wheel)
    argv = _readme_command(r"pipx install \./(asl_vassal_bridge-\S+\.whl)")
    assert argv[-1] == f"./{wheel.name}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PIP_USER")}
    env.update(PIPX_HOME=str(tmp_path / "pipx"), PIPX_BIN_DIR=str(tmp_path / "bin"),
               PIPX_MAN_DIR=str(tmp_path / "man"))
    run = subprocess.run([sys.executable, "-m", *argv], cwd=dist.folder, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    odds = subprocess.run([str(tmp_path / "bin" / "asl-fire"), "odds", "demo"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert odds.returncode == 0 and "Flame to Blaze" in odds.stdout, odds.stdout + odds.stderr


def test_the_wheel_installed_in_a_fresh_venv_runs_the_demo(wheel_venv: Venv, tmp_path: Path) -> None:
    where = wheel_venv.run("python", "-c", "import asl_vassal_bridge as a; print(a.__file__)", cwd=tmp_path)
    assert where.stdout.startswith(str(wheel_venv.root / "lib")), where  # the wheel's copy, not the checkout
    assert wheel_venv.run("asl-fire", "--version", cwd=tmp_path).stdout.strip() == f"asl-fire {VERSION}"
    demo = wheel_venv.run("asl-fire", "demo", "--turns", "1", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    assert "Demo: the burning village" in demo.stdout and "End of AFPh fire upkeep" in demo.stdout
    assert (tmp_path / "out" / "after.png").is_file()


def _named_vasl(module: Path) -> Path:
    """The test module (or a game of it) under VASL's module name (``asl-fire install`` installs into VASL only)."""
    with zipfile.ZipFile(module) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    for name in {"buildFile.xml", "moduledata"} & members.keys():
        members[name] = members[name].replace(vh.MODULE_NAME.encode(), b"VASL")
    with zipfile.ZipFile(module, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return module


@dataclass(frozen=True)
class Installed:
    module: Path
    output: str
    returncode: int


@pytest.fixture(scope="module")
def installed(wheel_venv: Venv, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """``asl-fire install`` of the venv, with no option, in a test VASSAL home: a conf dir whose V_Global lists the
    test module, and a VASSAL installation in the home (its engine jar)."""
    try:
        jar = vh.vassal_jar()
    except vh.Unavailable as e:
        missing("engine", str(e))
    root = tmp_path_factory.mktemp("player")
    home, conf = root / "home", root / "conf"
    (root / "vasl").mkdir()
    module = _named_vasl(vh.build_module(root / "vasl" / "VASL.vmod"))  # the test module, where VASL's would be
    write_prefs(Platform("linux", home, {"ASL_FIRE_VASSAL_CONF": str(conf)}), [module], None)
    lib = home / "VASSAL-3.6.0" / "lib"
    lib.mkdir(parents=True)
    (lib / "Vengine.jar").symlink_to(jar)
    proc = wheel_venv.run("asl-fire", "install", cwd=root,
                          env={"HOME": str(home), "ASL_FIRE_VASSAL_CONF": str(conf)})
    return Installed(module, proc.stdout + proc.stderr, proc.returncode)


@pytest.mark.vassal
def test_the_wheels_install_finds_the_module_and_puts_its_extension_beside_it(installed: Installed,
                                                                              wheel_venv: Venv) -> None:
    assert installed.returncode == 0, installed.output
    target = installed.module.with_name("VASL_ext") / PREBUILT_NAME
    assert f"installed: {target}" in installed.output
    assert f"VASL module: {installed.module}" in installed.output and "V_Global" in installed.output
    assert "none missing" in installed.output or "are in Vengine.jar" in installed.output
    shipped = next((wheel_venv.root / "lib").glob(f"python3*/site-packages/asl_vassal_bridge/data/{PREBUILT_NAME}"))
    assert target.read_bytes() == shipped.read_bytes() == prebuilt_extension().read_bytes()


@pytest.fixture
def vassal_game(installed: Installed, tmp_path_factory: pytest.TempPathFactory) -> Iterator[vh.VassalPlayer]:
    """A real VASSAL (Xvfb) with the test module and the extension the wheel installed, a game with three Flames and
    a Blaze in the woods open."""
    try:
        vh.check_tools()
        vh.debian_classpath()
    except vh.Unavailable as e:
        missing("engine", str(e))
    assert installed.returncode == 0, installed.output
    work = tmp_path_factory.mktemp("wheel-live")
    support = vh.build_support_jar(work)
    pieces = [vh.GamePiece("flame-c2", "C2", gpid="192"), vh.GamePiece("flame-d3", "D3", gpid="192"),
              vh.GamePiece("flame-e2", "E2", gpid="192"), vh.GamePiece("blaze-d2", "D2", gpid="195")]
    game = _named_vasl(vh.write_saved_game(work / "game.vsav", pieces))
    x = vh.Xvfb()
    player = None
    try:
        player = vh.VassalPlayer("wheel", installed.module, game, support, x.display, work, None,
                                 module_name="VASL")
        player.wait_connection_file(60)
        yield player
    finally:
        if player is not None:
            player.stop()
        x.stop()


def _wait(cond: object, timeout: float = 60.0) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if callable(cond) and cond():
            return True
        time.sleep(0.1)
    return False


def _screenshot(client: BridgeClient, name: str) -> None:
    """VASSAL's screen (Xvfb) as a player sees it, kept in ``screenshots/built-package/`` (git ignores it)."""
    shots = REPO / "screenshots" / "built-package"
    shots.mkdir(parents=True, exist_ok=True)
    client.jvm.aslbridgetest.TestHooks.screenshot(str(shots / f"{name}.png"))


@pytest.mark.vassal
def test_the_wheels_bridge_places_counters_on_a_toolbar_press(vassal_game: vh.VassalPlayer, wheel_venv: Venv,
                                                              tmp_path: Path) -> None:
    """The venv's ``asl-fire bridge`` answers the Fire upkeep (AFPh) button: the Flames become Blazes and spread
    (VASSAL's dice, scripted to 6s), the new counters placed on VASSAL's map."""
    with connect(vassal_game.connection_file) as client:
        assert _wait(lambda: client.status().get("started")), "the game did not start"
        before = client.snapshot()
        client.jvm.aslbridgetest.TestHooks.scriptDice(",".join(["6"] * 120))
        bridge = subprocess.Popen([wheel_venv.bin("asl-fire"), "bridge", "--connection-file",
                                   str(vassal_game.connection_file)], cwd=tmp_path, env=wheel_venv.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(bridge.stdout or ()), daemon=True)
        reader.start()
        try:
            assert _wait(client.api.hasListener), "".join(lines)
            assert client.jvm.aslbridgetest.TestHooks.clickToolbar("aslfire-upkeep")
            assert _wait(lambda: client.status()["processed"] == "PT1 AFPh"), "".join(lines)
            after = client.snapshot()
            _screenshot(client, "after-upkeep")
        finally:
            bridge.terminate()
            bridge.wait(timeout=20)
            reader.join(timeout=10)

    def fires(snap: dict[str, object], name: str) -> set[str]:
        pieces = snap["pieces"]
        assert isinstance(pieces, list)
        return {p["location"] for p in pieces if p["name"] == name}

    assert fires(before, "Blaze") == {"D2"}
    assert {"C2", "D3", "E2"} <= fires(after, "Blaze")  # Flame to Blaze, DR 12 (B25.151)
    assert len(after["pieces"]) > len(before["pieces"])  # and Spreading Fire placed new Flames (B25.6)
    out = "".join(lines)
    assert f"bridge {VERSION}" in out and "button: upkeep" in out


#: What setuptools prints when the build is not as it wants (a deprecated ``license`` table, classifiers…).
SETUPTOOLS_WARNINGS = ("SetuptoolsDeprecationWarning", "SetuptoolsWarning", "BuildBackendWarning", "is deprecated",
                       "!!")


def test_pip_install_of_the_checkout_prints_no_warning(tmp_path: Path) -> None:
    """Issue 36: ``pip install .`` in a fresh venv (with today's pip, as scripts/venv.sh makes it) prints none of
    setuptools' warnings, which read like errors in the demo's install."""
    root = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PIP_USER")}
    subprocess.run([sys.executable, "-m", "venv", str(root)], check=True, env=env, timeout=300)
    py = str(root / "bin" / "python")
    subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--upgrade", "pip"], env=env,
                   capture_output=True, timeout=300)
    run = subprocess.run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps", str(REPO)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    printed = [line for line in (run.stdout + run.stderr).splitlines() if any(w in line for w in SETUPTOOLS_WARNINGS)]
    assert not printed, "\n".join(printed)
