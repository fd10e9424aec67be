"""Shared test fixtures, and the one place a test may skip for want of a real component.

A test that needs the real VASL data (``../shared/vasl``), the real VASSAL
engine or the real browser calls :func:`missing` (or a fixture built on it)
when that component is absent: the test is skipped with the reason — unless
the environment variable ``CI`` is set, where every such component is
installed, so the test FAILS instead of passing silently.
``tests/test_skips.py`` checks that no test skips any other way.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, NoReturn

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_VASL = SHARED / "vasl"

#: What a test may be missing, as said in its skip reason.
Component = Literal["data", "engine", "browser", "system"]
_WHAT: dict[str, str] = {
    "data": "the real VASL data",
    "engine": "the real VASSAL engine",
    "browser": "the real browser",
    "system": "a distribution's own Python 3 (PEP 668) and git",
}


def missing(component: Component, reason: str) -> NoReturn:
    """Skip the running test because *component* is absent, saying why; under ``CI``, fail it.

    *reason* names the real cause: the file, tool or package that is missing and how to get it.
    """
    what = _WHAT[component]
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {what} is missing: {reason}", pytrace=False)
    pytest.skip(f"needs {what}: {reason}")


def shared_vasl_file(*parts: str) -> Path:
    """A file or folder of the real VASL data (``../shared/vasl/...``), or :func:`missing`."""
    p = SHARED_VASL.joinpath(*parts)
    if not p.exists():
        if not SHARED_VASL.is_dir():
            missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
        missing("data", f"{p} does not exist in {SHARED_VASL}")
    return p


def import_or_missing(module: str, component: Component, install: str) -> object:
    """Import *module* for a test of *component*, or :func:`missing` naming the package and how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as e:
        missing(component, f"Python package {module!r} is not importable ({e}); {install}")


@pytest.fixture
def shared_vasl() -> Path:
    """The real VASL data folder (../shared/vasl); :func:`missing` when absent."""
    return shared_vasl_file()


@pytest.fixture(scope="module")
def boards_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A boards folder with VASL's real bd01 as bd01 and as bd22 (two boards of the same art), and VASL's terrain
    types beside it."""
    import shutil

    d = tmp_path_factory.mktemp("boards")
    for name in ("bd01", "bd22"):
        shutil.copy(shared_vasl_file("boards", "bd01"), d / name)
    shutil.copy(shared_vasl_file("SharedBoardMetadata.xml"), d / "SharedBoardMetadata.xml")
    return d



def pytest_report_header() -> str | None:
    """Which Java the live suite runs VASSAL on, when it is not PATH's (``ASL_VASSAL_JAVA``)."""
    if not os.environ.get("ASL_VASSAL_JAVA"):
        return None
    from tests.support.vassal_harness import Unavailable, java_version, vassal_java

    try:
        return f"VASSAL's Java: {vassal_java()} ({java_version()})"
    except (Unavailable, OSError) as e:
        return f"VASSAL's Java: {e}"
