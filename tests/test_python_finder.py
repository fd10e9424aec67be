"""The extension's search for a player's Python (``aslfire.PythonFinder``), run in a real JVM on laid-out trees.

Each tree is a player's machine under a fake root (``C:\\`` or ``/``) with the environment VASSAL would inherit;
every "interpreter" in it is a small program answering as that Python answers the finder's ``-c`` check (its version
and ``sys.executable``), or, for the Windows Store's stub, as the stub does (it opens the Store instead of running).
The Java class itself decides, as in VASSAL: nothing is mocked but the interpreters' answers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import missing

JAVA_SRC = Path(__file__).resolve().parents[1] / "vasl_extension" / "src" / "aslfire"
STORE_STUB = ("Python was not found; run without arguments to install from the Microsoft Store, or disable this "
              "shortcut from Settings > Manage App Execution Aliases.")


@pytest.fixture(scope="module")
def finder_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("javac") is None or shutil.which("java") is None:
        missing("engine", "javac/java not found: run `bash scripts/install-vassal-test-deps.sh`")
    out = tmp_path_factory.mktemp("finder")
    subprocess.run(["javac", "--release", "11", "-nowarn", "-d", str(out),
                    *(str(JAVA_SRC / f"{n}.java") for n in ("Proc", "PythonFinder", "Json"))], check=True)
    return out


def python_at(path: Path, version: str) -> Path:
    """An interpreter at *path* that answers the finder's check as Python *version* does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho {version}\necho "$0"\n')
    path.chmod(0o755)
    return path


def store_stub(path: Path) -> Path:
    """The Windows Store's ``python.exe``: it prints where to get Python and exits with 9009."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho "{STORE_STUB}" >&2\nexit 9009\n')
    path.chmod(0o755)
    return path


def find(classes: Path, os_kind: str, root: Path, env: dict[str, str], configured: str | None = None) -> Any:
    args = ["java", "-cp", str(classes), "aslfire.PythonFinder", os_kind, str(root)]
    args += [f"{k}={v}" for k, v in env.items()]
    if configured is not None:
        args += ["--configured", configured]
    run = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def windows_env(root: Path, path: list[Path]) -> dict[str, str]:
    home = root / "Users" / "player"
    return {"PATH": ";".join(str(p) for p in path), "LOCALAPPDATA": str(home / "AppData" / "Local"),
            "USERPROFILE": str(home), "SystemRoot": str(root / "Windows"),
            "ProgramFiles": str(root / "Program Files")}


def test_windows_the_store_stub_is_rejected_by_its_answer_and_the_newest_user_install_found(
        finder_classes: Path, tmp_path: Path) -> None:
    local = tmp_path / "Users" / "player" / "AppData" / "Local"
    stub = store_stub(local / "Microsoft" / "WindowsApps" / "python.exe")
    python_at(local / "Programs" / "Python" / "Python311" / "python.exe", "3.11.9")
    newest = python_at(local / "Programs" / "Python" / "Python313" / "python.exe", "3.13.1")
    python_at(tmp_path / "Program Files" / "Python312" / "python.exe", "3.12.7")
    out = find(finder_classes, "windows", tmp_path, windows_env(tmp_path, [stub.parent]))
    assert out["candidates"][0] == [str(stub)]  # PATH's python.exe is tried first (no py launcher here) …
    assert out["found"] == {"executable": str(newest), "version": "3.13.1"}  # … then the install folders, newest first
    assert len(out["rejected"]) == 1 and out["rejected"][0].startswith(str(stub))
    assert "did not answer as Python does (exit status " in out["rejected"][0]  # 9009 on Windows
    assert "install from the Microsoft Store" in out["rejected"][0]
    assert out["candidates"][1:3] == [[str(newest)], [str(local / "Programs" / "Python" / "Python311" / "python.exe")]]


def test_windows_py_launcher_comes_first(finder_classes: Path, tmp_path: Path) -> None:
    launcher = python_at(tmp_path / "Windows" / "py.exe", "3.12.4")
    python_at(tmp_path / "Program Files" / "Python311" / "python.exe", "3.11.2")
    out = find(finder_classes, "windows", tmp_path, windows_env(tmp_path, []))
    assert out["candidates"][0] == [str(launcher), "-3"]
    assert out["found"] == {"executable": str(launcher), "version": "3.12.4"}


def fake_reg(root: Path, hkcu: list[tuple[str, Path]]) -> Path:
    """``%SystemRoot%\\System32\\reg.exe`` answering ``reg query HKCU\\…\\PythonCore /s /v ExecutablePath`` with
    *hkcu*'s (version, interpreter) entries as Windows prints them, and HKLM with "unable to find"."""
    lines = "".join(f"HKEY_CURRENT_USER\\Software\\Python\\PythonCore\\{v}\\InstallPath\n"
                    f"    ExecutablePath    REG_SZ    {exe}\n\n" for v, exe in hkcu)
    reg = root / "Windows" / "System32" / "reg.exe"
    reg.parent.mkdir(parents=True, exist_ok=True)
    reg.write_text("#!/bin/sh\ncase \"$2\" in\n  HKCU*) cat <<'EOF'\n" + lines
                   + f"End of search: {len(hkcu)} match(es) found.\nEOF\n    exit 0;;\n"
                   "  *) echo 'ERROR: The system was unable to find the specified registry key or value.'; exit 1;;\n"
                   "esac\n")
    reg.chmod(0o755)
    return reg


def test_windows_registry_names_a_custom_install_pep_514(finder_classes: Path, tmp_path: Path) -> None:
    old = python_at(tmp_path / "Tools" / "Py310" / "python.exe", "3.10.4")
    custom = python_at(tmp_path / "Tools" / "Py312" / "python.exe", "3.12.8")
    fake_reg(tmp_path, [("3.10", old), ("3.12", custom)])
    out = find(finder_classes, "windows", tmp_path, windows_env(tmp_path, []))
    assert out["candidates"][:2] == [[str(custom)], [str(old)]]  # newest first
    assert out["found"] == {"executable": str(custom), "version": "3.12.8"}


def test_windows_only_old_pythons_none_found_and_each_named(finder_classes: Path, tmp_path: Path) -> None:
    old = python_at(tmp_path / "Program Files" / "Python310" / "python.exe", "3.10.11")
    older = python_at(tmp_path / "Python39" / "python.exe", "3.9.13")  # C:\Python39, an old installer's place
    out = find(finder_classes, "windows", tmp_path, windows_env(tmp_path, []))
    assert out["found"] is None
    assert out["rejected"] == [f"{old}: Python 3.10.11, older than 3.11", f"{older}: Python 3.9.13, older than 3.11"]


def test_the_configured_path_comes_first_and_a_bad_one_is_named(finder_classes: Path, tmp_path: Path) -> None:
    chosen = python_at(tmp_path / "tools" / "py311" / "python.exe", "3.11.4")
    python_at(tmp_path / "Program Files" / "Python313" / "python.exe", "3.13.0")
    out = find(finder_classes, "windows", tmp_path, windows_env(tmp_path, []), configured=str(chosen))
    assert out["found"]["executable"] == str(chosen)
    bad = tmp_path / "nowhere" / "python.exe"
    out = find(finder_classes, "windows", tmp_path, windows_env(tmp_path, []), configured=str(bad))
    assert out["rejected"][0] == f"{bad}: no such file"
    assert out["found"]["version"] == "3.13.0"


def test_macos_finders_minimal_path_skips_apples_old_python_for_python_orgs(finder_classes: Path,
                                                                            tmp_path: Path) -> None:
    apple = python_at(tmp_path / "usr" / "bin" / "python3", "3.9.6")  # the Command Line Tools' Python
    framework = tmp_path / "Library" / "Frameworks" / "Python.framework" / "Versions"
    python_at(framework / "3.11" / "bin" / "python3", "3.11.8")
    newest = python_at(framework / "3.12" / "bin" / "python3", "3.12.3")
    brew = python_at(tmp_path / "opt" / "homebrew" / "bin" / "python3", "3.13.2")
    env = {"PATH": f"{tmp_path / 'usr' / 'bin'}:{tmp_path / 'bin'}", "HOME": str(tmp_path / "Users" / "player")}
    out = find(finder_classes, "macos", tmp_path, env)  # an app started from the Finder: no Homebrew on PATH
    assert out["candidates"][0] == [str(apple)]
    assert out["rejected"] == [f"{apple}: Python 3.9.6, older than 3.11"]
    assert out["found"] == {"executable": str(newest), "version": "3.12.3"}
    assert [str(brew)] in out["candidates"]


def test_macos_homebrew_found_off_path(finder_classes: Path, tmp_path: Path) -> None:
    brew = python_at(tmp_path / "opt" / "homebrew" / "bin" / "python3", "3.13.2")
    out = find(finder_classes, "macos", tmp_path, {"PATH": str(tmp_path / "usr" / "bin")})
    assert out["found"] == {"executable": str(brew), "version": "3.13.2"}


def test_linux_python3_on_path(finder_classes: Path, tmp_path: Path) -> None:
    python_at(tmp_path / "usr" / "bin" / "python3", "3.10.12")
    newer = python_at(tmp_path / "usr" / "bin" / "python3.12", "3.12.3")
    out = find(finder_classes, "linux", tmp_path, {"PATH": str(tmp_path / "usr" / "bin")})
    assert out["found"] == {"executable": str(newer), "version": "3.12.3"}


def test_a_real_python_answers_the_check(finder_classes: Path, tmp_path: Path) -> None:
    """The Python running these tests (a venv's bin/python3) passes the finder's real check."""
    real = Path(sys.executable).parent / "python3"
    assert real.exists(), real
    out = find(finder_classes, "linux", tmp_path, {"PATH": str(real.parent)})
    assert out["found"] is not None and Path(out["found"]["executable"]).exists()


def test_windows_the_bridge_runs_under_pythonw_beside_python(finder_classes: Path, tmp_path: Path) -> None:
    """No console window flashes up on Windows: the bridge is started with pythonw.exe when it is there."""
    def windowless(os_kind: str, python: Path) -> str:
        run = subprocess.run(["java", "-cp", str(finder_classes), "aslfire.PythonFinder", "--windowless", os_kind,
                              str(python)], capture_output=True, text=True, timeout=60, check=True)
        return run.stdout.strip()

    venv = tmp_path / "venv" / "Scripts"
    python = python_at(venv / "python.exe", "3.12.1")
    assert windowless("windows", python) == str(python)  # no pythonw.exe: python.exe itself
    pythonw = python_at(venv / "pythonw.exe", "3.12.1")
    assert windowless("windows", python) == str(pythonw)
    assert windowless("linux", tmp_path / "venv" / "bin" / "python") == str(tmp_path / "venv" / "bin" / "python")
