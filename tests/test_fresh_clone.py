"""The README's first command on a fresh clone, with the system's own Python (PEP 668).

``bash scripts/demo.sh`` must work where ``python3`` is Debian's or Ubuntu's own
interpreter, which refuses ``pip install`` outside a virtual environment
("externally-managed-environment").  The test clones the repository (its
committed HEAD), restricts PATH so that ``python3`` is ``/usr/bin/python3``, runs
the command and looks for the demo's pictures.  It installs the package into
the clone's own ``.venv/`` (10–20 s with pip's cache), so it is marked ``slow``;
CI runs it (``scripts/test-all.sh`` runs every test).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import missing

REPO = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")

pytestmark = pytest.mark.slow


def _externally_managed(python: Path) -> Path | None:
    """The EXTERNALLY-MANAGED marker of *python*'s standard library (PEP 668), if it has one."""
    out = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
                         capture_output=True, text=True, check=True)
    marker = Path(out.stdout.strip()) / "EXTERNALLY-MANAGED"
    return marker if marker.is_file() else None


def test_readme_first_command_on_a_fresh_clone_with_the_system_python(tmp_path: Path) -> None:
    if not SYSTEM_PYTHON.is_file():
        missing("system", "no /usr/bin/python3 on this machine")
    if _externally_managed(SYSTEM_PYTHON) is None:
        missing("system", "/usr/bin/python3 is not externally managed (no EXTERNALLY-MANAGED file, PEP 668)")
    if shutil.which("git") is None:
        missing("system", "git is not installed")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True, capture_output=True)
    assert not (clone / ".venv").exists()

    # Only the system's directories on PATH: `python3` is the distribution's, as on a fresh Debian/Ubuntu.
    path = "/usr/bin:/bin"
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYENV_VERSION", "ASL_FIRE_VENV", "PIP_USER")}
    env["PATH"] = path
    found = subprocess.run(["bash", "-c", "command -v python3"], env=env, capture_output=True, text=True)
    assert Path(found.stdout.strip()).resolve() == SYSTEM_PYTHON.resolve()
    # The premise: this python3 refuses a plain `pip install` (PEP 668).
    if subprocess.run([str(SYSTEM_PYTHON), "-m", "pip", "--version"], capture_output=True).returncode == 0:
        refused = subprocess.run([str(SYSTEM_PYTHON), "-m", "pip", "install", "--dry-run", "--no-deps",
                                  "--no-index", str(clone)], env=env, capture_output=True, text=True)
        assert refused.returncode != 0 and "externally-managed-environment" in refused.stdout + refused.stderr

    run = subprocess.run(["bash", "scripts/demo.sh"], cwd=clone, env=env, capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    demo = clone / "asl-fire-demo"
    for name in ("before.png", "after.png", "before.svg", "after.svg", "after.toml"):
        assert (demo / name).is_file() and (demo / name).stat().st_size > 0, name
    assert (demo / "before.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Pictures:" in run.stdout
    # It ends by saying how to run `asl-fire` again: the venv's command, which works.
    again = run.stdout.strip().splitlines()[-1]
    assert f"run it again as {clone / '.venv' / 'bin' / 'asl-fire'}" in again, again
    version = subprocess.run([str(clone / ".venv" / "bin" / "asl-fire"), "--version"], env=env, capture_output=True,
                             text=True)
    assert version.returncode == 0 and version.stdout.startswith("asl-fire "), version
    # The clone's own environment holds the package, made from the system's Python.
    venv_python = clone / ".venv" / "bin" / "python"
    assert venv_python.exists()
    cfg = (clone / ".venv" / "pyvenv.cfg").read_text()
    assert "home = /usr/bin" in cfg, cfg
    # The pictures stay out of git's way.
    status = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True, check=True)
    assert status.stdout == "", status.stdout
