"""The Python the extension carries: the hashed lock of the runtime dependencies and the ``aslfire-python/`` members."""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from asl_vassal_bridge.bridge.extension import CARRIED, BuildError, carry_python, lock_file

REPO = Path(__file__).resolve().parents[1]
_PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)(?:\s*;\s*([^\\]+?))?\s*\\?$")


def _lock() -> dict[str, list[tuple[str, str | None, int]]]:
    """name → [(version, marker, number of hashes)] of vasl_extension/python-requirements.txt."""
    out: dict[str, list[tuple[str, str | None, int]]] = {}
    current: list[tuple[str, str | None, int]] | None = None
    for line in lock_file().read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        m = _PIN.match(line)
        if m:
            current = out.setdefault(m.group(1).lower().replace("_", "-"), [])
            current.append((m.group(2), m.group(3), 0))
            continue
        assert line.strip().startswith("--hash=sha256:"), f"unexpected lock line: {line!r}"
        assert current is not None
        v, mk, n = current[-1]
        current[-1] = (v, mk, n + 1)
    return out


def test_lock_pins_every_runtime_dependency_with_hashes() -> None:
    deps = [Requirement(d) for d in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]]
    lock = _lock()
    for req in deps:
        name = req.name.lower().replace("_", "-")
        assert name in lock, f"{req.name} (pyproject's dependencies) is not in the lock: run " \
                             "`bash scripts/lock-python-requirements.sh`"
        for version, _, hashes in lock[name]:
            assert Version(version) in req.specifier, f"{name}=={version} does not satisfy {req}"
            assert hashes >= 1
    for name, pins in lock.items():  # pip --require-hashes refuses anything without one
        assert all(h >= 1 for _, _, h in pins), name


def test_lock_carries_every_platforms_wheels_for_the_compiled_ones() -> None:
    """numpy, lxml and pillow ship one wheel per OS and Python: a lock of one platform's would have a few hashes."""
    lock = _lock()
    for name in ("numpy", "lxml", "pillow"):
        assert all(h >= 20 for _, _, h in lock[name]), (name, lock[name])


def test_lock_is_for_python_3_11_and_later() -> None:
    text = lock_file().read_text()
    assert "python_full_version < '3.11'" not in text and "python_version < '3.11'" not in text


def fake_wheel(path: Path, name: str = "asl_vassal_bridge", version: str = "0.4.0") -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{name}-{version}.dist-info/METADATA",
                   f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n")
        z.writestr("asl_vassal_bridge/__init__.py", f'__version__ = "{version}"\n')
    return path


def test_carry_python_adds_manifest_lock_and_wheel(tmp_path: Path) -> None:
    vmdx = tmp_path / "asl-fire-bridge.vmdx"
    with zipfile.ZipFile(vmdx, "w") as z:
        z.writestr("buildFile.xml", "<x/>")
    wheel = fake_wheel(tmp_path / "asl_vassal_bridge-0.4.0-py3-none-any.whl")
    manifest = carry_python(vmdx, wheel)
    assert manifest == {"package": "asl-vassal-bridge", "version": "0.4.0", "wheel": wheel.name,
                        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(), "requires_python": ">=3.11"}
    with zipfile.ZipFile(vmdx) as z:
        assert json.loads(z.read(CARRIED + "manifest.json")) == manifest
        assert z.read(CARRIED + "requirements.txt") == lock_file().read_bytes()
        assert z.read(CARRIED + wheel.name) == wheel.read_bytes()
        assert z.read("buildFile.xml") == b"<x/>"
    newer = fake_wheel(tmp_path / "asl_vassal_bridge-0.4.1-py3-none-any.whl", version="0.4.1")
    carry_python(vmdx, newer)  # a second carry replaces the first: one wheel in the archive
    with zipfile.ZipFile(vmdx) as z:
        assert [n for n in z.namelist() if n.endswith(".whl")] == [CARRIED + newer.name]
        assert json.loads(z.read(CARRIED + "manifest.json"))["version"] == "0.4.1"


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: p / "missing-0.4.0-py3-none-any.whl", r"no such file"),
    (lambda p: fake_wheel(p / "numpy-2.0-py3-none-any.whl", name="numpy", version="2.0"), r"a wheel of 'numpy'"),
    (lambda p: (p / "x.whl").write_text("no") and p / "x.whl", r"not a wheel's file name"),
    (lambda p: (p / "asl_vassal_bridge-0.4.0-py3-none-any.whl").write_text("no") and
     p / "asl_vassal_bridge-0.4.0-py3-none-any.whl", r"not a zip file"),
])
def test_carry_python_refuses_what_is_not_the_packages_wheel_in_one_line(
        tmp_path: Path, make: Callable[[Path], Path], message: str) -> None:
    vmdx = tmp_path / "e.vmdx"
    with zipfile.ZipFile(vmdx, "w") as z:
        z.writestr("buildFile.xml", "<x/>")
    before = vmdx.read_bytes()
    with pytest.raises(BuildError, match=message) as e:
        carry_python(vmdx, make(tmp_path))
    assert "\n" not in str(e.value) and "--carry-wheel" in str(e.value)
    assert vmdx.read_bytes() == before  # nothing half done


def test_build_extension_refuses_a_bad_carry_wheel_in_one_line_before_compiling(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main

    out = tmp_path / "e.vmdx"
    assert main(["build-extension", "--vassal-jar", str(tmp_path / "Vengine.jar"), "-o", str(out),
                 "--carry-wheel", str(tmp_path / "asl_vassal_bridge-0.4.0-py3-none-any.whl")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--carry-wheel" in err and "no such file" in err
    assert not out.exists()
