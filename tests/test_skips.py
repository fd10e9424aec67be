"""Every skip of a test goes through ``tests/conftest.py``: a reason naming the cause, and a failure under CI."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, missing

#: Ways to skip a test other than :func:`tests.conftest.missing`.
OTHER_SKIPS = re.compile(r"pytest\.skip\(|\.skipif\(|importorskip\(|mark\.skip\b|unittest\.skip")


def test_no_test_skips_except_through_conftest() -> None:
    offenders = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        if path.name in ("conftest.py", "test_skips.py") and path.parent == REPO / "tests":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OTHER_SKIPS.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert not offenders, "skip through tests.conftest.missing instead:\n" + "\n".join(offenders)


def test_missing_skips_naming_the_cause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"needs the real VASSAL engine: javac not found"):
        missing("engine", "javac not found")


def test_missing_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"CI is set but the real VASL data is missing: x absent"):
        missing("data", "x absent")


def test_a_run_under_ci_fails_where_it_would_skip(tmp_path: Path) -> None:
    """End to end: pytest itself, with CI set and the real data pointed at a folder that does not exist."""
    test = tmp_path / "test_needs_data.py"
    test.write_text("from tests.conftest import missing\n\n"
                    "def test_it():\n    missing('browser', 'no chromium here')\n", encoding="utf-8")
    env = {"CI": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path),
                          "-o", "addopts=", str(test)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 1, run.stdout
    assert "CI is set but the real browser is missing: no chromium here" in run.stdout
    env.pop("CI")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "--rootdir",
                          str(tmp_path), "-o", "addopts=", str(test)], capture_output=True, text=True, env=env,
                         cwd=tmp_path)
    assert run.returncode == 0 and "needs the real browser: no chromium here" in run.stdout, run.stdout
