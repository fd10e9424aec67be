"""``asl-fire install`` and the VASL files found through VASSAL's preferences, on fake Linux, Windows and macOS trees.

Each tree lays out what VASSAL 3.7 keeps (its ``prefs/V_Global`` module list, VASL's ``prefs/VASL`` Board
Directory preference) and where VASSAL's installers put the engine jar, then checks that the VASL module,
its boards folder and the engine are found, and that the extension lands in ``VASL_ext/`` beside the module.
"""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from asl_vassal_bridge import __version__
from asl_vassal_bridge.bridge.install import BUTTONS, install_extension, remove_extension
from asl_vassal_bridge.bridge.linkage import linkage_problems
from asl_vassal_bridge.bridge.prebuilt import prebuilt_extension
from asl_vassal_bridge.cli import main
from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.vasl.setup import (
    Platform,
    engine_jars,
    module_board_dir,
    read_java_properties,
    registered_modules,
    resolve_vasl,
)
from tests.conftest import missing, shared_vasl_file
from tests.support import vassal_harness as vh
from tests.support.vassal_prefs import fake_module, write_prefs


@dataclass
class Tree:
    pf: Platform
    module: Path
    boards: Path
    engine_home: Path  # where VASSAL's installer puts it, for the engine jar


def fake_tree(root: Path, kind: str) -> Tree:
    """A player's machine of *kind* under *root*: prefs, VASL module and boards, an empty VASSAL installation."""
    if kind == "linux":
        home = root / "home" / "player"
        pf = Platform("linux", home, {}, root)
        engine = home / "VASSAL-3.7.26" / "lib"
        module = home / "vasl" / "VASL.vmod"
    elif kind == "windows":
        home = root / "Users" / "player"
        pf = Platform("windows", home, {"APPDATA": str(home / "AppData" / "Roaming"),
                                        "ProgramFiles": str(root / "Program Files")}, root)
        engine = root / "Program Files" / "VASSAL-3.7.26" / "lib"
        module = home / "Documents" / "VASL" / "VASL.vmod"
    else:
        home = root / "Users" / "player"
        pf = Platform("macos", home, {}, root)
        engine = root / "Applications" / "VASSAL.app" / "Contents" / "Resources" / "Java"
        module = home / "Documents" / "VASL" / "VASL.vmod"
    fake_module(module)
    boards = module.parent / "boards"
    boards.mkdir()
    write_prefs(pf, [module.parent / "other.vmod", module], boards)
    engine.mkdir(parents=True)
    return Tree(pf, module, boards, engine)


@pytest.fixture(autouse=True)
def _conf_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`asl-fire install` records its Python in VASSAL's conf dir: a tmp one here, never the machine's own."""
    monkeypatch.setenv("ASL_FIRE_VASSAL_CONF", str(tmp_path / "vassal-conf"))


@pytest.fixture
def real_engine_jar() -> Path:
    try:
        return vh.vassal_jar()
    except vh.Unavailable as e:
        missing("engine", str(e))


KINDS = ("linux", "windows", "macos")


@pytest.mark.parametrize("kind", KINDS)
def test_vassal_preferences_name_the_module_and_the_boards(tmp_path: Path, kind: str) -> None:
    t = fake_tree(tmp_path, kind)
    modules, v_global = registered_modules(t.pf)
    assert t.module in modules and v_global.name == "V_Global"
    assert module_board_dir(t.pf)[0] == t.boards
    setup = resolve_vasl(pf=t.pf)
    assert setup.boards == t.boards and setup.module == t.module
    assert any("boardURL" in n for n in setup.notes) and any("V_Global" in n for n in setup.notes)
    assert setup.terrain_table()[0].name == "Open Ground"


def test_the_conf_dirs_are_vassals() -> None:
    home = Path("/h")
    assert Platform("linux", home).prefs_dir() == Path("/h/.VASSAL/prefs")
    assert Platform("macos", home).prefs_dir() == Path("/h/Library/Application Support/VASSAL/prefs")
    assert Platform("windows", home, {"APPDATA": "/h/AppData/Roaming"}).prefs_dir() == Path(
        "/h/AppData/Roaming/VASSAL/prefs")


def test_windows_properties_paths_decode() -> None:
    text = "boardURL=C\\:\\\\Users\\\\p\\\\VASL\\\\boards\nModules=C\\:\\\\VASL\\\\VASL.vmod;C\\:\\\\games\n"
    props = read_java_properties(text)
    assert props["boardURL"] == "C:\\Users\\p\\VASL\\boards"
    assert props["Modules"] == "C:\\VASL\\VASL.vmod;C:\\games"


@pytest.mark.parametrize("kind", KINDS)
def test_engine_jars_are_found_where_vassal_installs(tmp_path: Path, kind: str) -> None:
    t = fake_tree(tmp_path, kind)
    (t.engine_home / "Vengine.jar").write_bytes(b"PK")
    assert engine_jars(t.pf, which=lambda _: None) == [t.engine_home / "Vengine.jar"]


@pytest.mark.parametrize("kind", KINDS)
def test_install_puts_the_prebuilt_extension_in_vasl_ext(tmp_path: Path, kind: str, real_engine_jar: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    t = fake_tree(tmp_path, kind)
    shutil.copy(real_engine_jar, t.engine_home / "Vengine.jar")
    no_jdk = {"javac": None}.get  # players have no JDK: the prebuilt extension is used
    report = install_extension(pf=t.pf, which=no_jdk)
    target = t.module.parent / "VASL_ext" / "asl-fire-bridge.vmdx"
    assert report.target == target and target.read_bytes() == prebuilt_extension().read_bytes()
    text = "\n".join(report.lines)
    assert str(t.module) in text and str(t.engine_home / "Vengine.jar") in text
    assert "VASSAL classes, fields and methods" in text
    assert BUTTONS in text and "undo: `asl-fire install --remove`" in text
    recorded = json.loads((t.pf.conf_dir() / "aslfire" / "python.json").read_text())
    assert recorded == {"python": sys.executable, "by": "install", "version": __version__,
                        "venv": sys.prefix if sys.prefix != sys.base_prefix else None}
    assert f"recorded: {t.pf.conf_dir() / 'aslfire' / 'python.json'}" in text
    removed = remove_extension(pf=t.pf)
    assert not target.exists() and not target.parent.exists() and "removed" in removed.lines[1]


def test_install_refuses_a_vassal_the_extension_does_not_link_with(tmp_path: Path) -> None:
    t = fake_tree(tmp_path, "linux")
    with zipfile.ZipFile(t.engine_home / "Vengine.jar", "w") as z:  # a jar without VASSAL's classes
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    with pytest.raises(BadInput, match=r"lacks .* member\(s\) the prebuilt extension uses .*--build"):
        install_extension(pf=t.pf, which=lambda _: None)
    assert not (t.module.parent / "VASL_ext").exists()  # nothing half done


def test_install_without_vasl_says_where_it_looked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("ASL_FIRE_VASSAL_CONF", raising=False)
    assert main(["install"]) == 2
    err = capsys.readouterr().err
    assert "no VASL module found" in err and str(tmp_path / ".VASSAL" / "prefs" / "V_Global") in err
    assert "--vasl" in err and len(err.strip().splitlines()) == 1


def test_install_command_with_explicit_paths(tmp_path: Path, real_engine_jar: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    module = fake_module(tmp_path / "VASL 6.6.9" / "VASL.vmod")
    assert main(["install", "--vasl", str(module), "--vassal", str(real_engine_jar)]) == 0
    out = capsys.readouterr().out
    target = module.parent / "VASL_ext" / "asl-fire-bridge.vmdx"
    assert f"installed: {target}" in out and f"--remove --vasl {module}" in out
    recorded = tmp_path / "vassal-conf" / "aslfire" / "python.json"  # $ASL_FIRE_VASSAL_CONF's
    assert json.loads(recorded.read_text())["python"] == sys.executable
    assert main(["install", "--remove", "--vasl", str(module)]) == 0
    assert not target.exists()


def test_the_linkage_check_finds_a_missing_class(tmp_path: Path, real_engine_jar: Path) -> None:
    cut = tmp_path / "cut.jar"
    with zipfile.ZipFile(real_engine_jar) as src, zipfile.ZipFile(cut, "w") as dst:
        for info in src.infolist():
            if info.filename != "VASSAL/build/module/map/Drawable.class":
                dst.writestr(info, src.read(info))
    full = linkage_problems(prebuilt_extension(), [real_engine_jar])
    assert full.ok and full.references > 50
    broken = linkage_problems(prebuilt_extension(), [cut])
    assert "class VASSAL/build/module/map/Drawable" in broken.missing


def test_vsav_commands_take_boards_and_module_from_vassals_preferences(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A saved game on bd01, read with VASL's real terrain types from inside a module found through the prefs."""
    from tests.vasl.builders import make_vsav

    bd01 = shared_vasl_file("boards", "bd01")
    home = tmp_path / "home"
    pf = Platform("linux", home)
    module = fake_module(tmp_path / "vasl" / "VASL.vmod", shared_vasl_file("SharedBoardMetadata.xml").read_bytes())
    boards = tmp_path / "vasl" / "boards"  # no SharedBoardMetadata.xml beside it: the module's is needed
    boards.mkdir()
    shutil.copy(bd01, boards / "bd01")
    write_prefs(pf, [module], boards)
    game = tmp_path / "g.vsav"
    game.write_bytes(make_vsav([], boards="bd\t0\t0\t01"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("ASL_FIRE_SHARED_METADATA", raising=False)
    monkeypatch.delenv("ASL_FIRE_VASSAL_CONF", raising=False)
    assert main(["odds", str(game), "--json"]) == 0
    captured = capsys.readouterr()
    assert f"using boards folder {boards} (VASL's Board Directory preference" in captured.err
    assert f"using VASL module {module} (VASSAL's module manager list" in captured.err
    assert '"rolls": []' in captured.out
    assert main(["board", "bd01"]) == 0
    assert "board 01" in capsys.readouterr().out
    # --vasl given explicitly wins, and a module without the terrain types is named.
    empty = tmp_path / "Empty.vmod"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("buildFile.xml", "<x/>")
    assert main(["odds", str(game), "--vasl", str(empty)]) == 2
    assert f"{empty}: no boardData/SharedBoardMetadata.xml inside" in capsys.readouterr().err


def test_install_build_compiles_against_the_players_jar(tmp_path: Path, real_engine_jar: Path) -> None:
    import shutil as sh

    if sh.which("javac") is None:
        missing("engine", "javac not found: run `bash scripts/install-vassal-test-deps.sh`")
    t = fake_tree(tmp_path, "macos")
    sh.copy(real_engine_jar, t.engine_home / "Vengine.jar")
    report = install_extension(pf=t.pf, build=True)
    target = t.module.parent / "VASL_ext" / "asl-fire-bridge.vmdx"
    assert report.target == target and f"compiled against {t.engine_home / 'Vengine.jar'}" in "\n".join(report.lines)
    with zipfile.ZipFile(target) as z:
        assert "aslfire/FireBridge.class" in z.namelist()
    assert linkage_problems(target, [real_engine_jar]).ok


def test_bridge_default_connection_file_honours_asl_fire_vassal_conf(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from asl_vassal_bridge.bridge.client import default_connection_file

    monkeypatch.delenv("ASL_FIRE_BRIDGE_FILE", raising=False)
    assert default_connection_file() == tmp_path / "vassal-conf" / "aslfire" / "bridge.json"
    monkeypatch.setenv("ASL_FIRE_BRIDGE_FILE", str(tmp_path / "b.json"))
    assert default_connection_file() == tmp_path / "b.json"


def test_install_refuses_in_one_line_when_python_json_cannot_be_written(tmp_path: Path) -> None:
    from asl_vassal_bridge.bridge.install import record_python

    blocker = tmp_path / "conf-is-a-file"
    blocker.write_text("")
    with pytest.raises(BadInput, match=r"python.json: cannot be written"):
        record_python(Platform("linux", tmp_path, {"ASL_FIRE_VASSAL_CONF": str(blocker)}))
