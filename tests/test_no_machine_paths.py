"""No file of the project names a path of the machine it was written on (issue 36): docs, code, benches and
scripts speak of paths a reader has (``/home/you/…``, ``/path/to/VASL.vmod``, a checkout's own folders)."""

from __future__ import annotations

import re

from tests.conftest import REPO

#: Absolute paths of one machine: its work and scratch folders, a real user's home.
MACHINE_PATH = re.compile(r"(?<![\w}])(?:/work/|/root/|/home/(?!you\b)\w|/tmp/)")
#: System paths that are every Linux machine's, not one machine's: X's sockets and lock files.
SYSTEM_PATHS = ("/tmp/.X11-unix/", "/tmp/.X")


#: Folders that are no part of the project: made by tools, by the tests or by git (see .gitignore).
NOT_THE_PROJECT = {".git", ".venv", ".cache", "build", "dist", "out", "screenshots", "node_modules", "__pycache__",
                   ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", ".ipynb_checkpoints", "asl-fire-demo",
                   "results"}


def _project_text_files() -> list[str]:
    """The project's files (a checkout's or an sdist's), as paths relative to it, binary ones left out."""
    out = []
    for p in REPO.rglob("*"):
        rel = p.relative_to(REPO)
        if (p.is_file() and not set(rel.parts) & NOT_THE_PROJECT and not rel.parts[0].endswith(".egg-info")
                and p.suffix not in (".png", ".jpg", ".vmdx", ".jar", ".zip", ".gz", ".whl", ".class", ".pyc")):
            out.append(rel.as_posix())
    return sorted(out)


def test_no_file_names_a_path_of_the_machine_it_was_written_on() -> None:
    found = []
    for path in _project_text_files():
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
