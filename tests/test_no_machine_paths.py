"""No file of the project names a path of the machine it was written on (issue 36): docs, code, benches and
scripts speak of paths a reader has (``/home/you/…``, ``/path/to/VASL.vmod``, a checkout's own folders)."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.conftest import REPO

#: Absolute paths of one machine: its work and scratch folders, a real user's home.
MACHINE_PATH = re.compile(r"(?<![\w}])(?:/work/|/root/|/home/(?!you\b)\w|/tmp/)")
#: System paths that are every Linux machine's, not one machine's: X's sockets and lock files.
SYSTEM_PATHS = ("/tmp/.X11-unix/", "/tmp/.X")


def _tracked_text_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (an sdist): its files are the checkout's, checked there")
    return [p for p in out.splitlines()
            if not p.endswith((".png", ".jpg", ".vmdx", ".jar", ".zip", ".gz", ".whl")) and (REPO / p).is_file()]


def test_no_file_names_a_path_of_the_machine_it_was_written_on() -> None:
    found = []
    for path in _tracked_text_files():
        try:
            text = (REPO / path).read_text("utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if any(s in line for s in SYSTEM_PATHS) or path == "tests/test_no_machine_paths.py":
                continue
            if MACHINE_PATH.search(line):
                found.append(f"{path}:{n}: {line.strip()[:120]}")
    assert not found, "machine paths:\n" + "\n".join(found)
