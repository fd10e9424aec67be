#!/usr/bin/env bash
# The lock of the Python the extension carries (vasl_extension/python-requirements.txt): pyproject's runtime
# `dependencies` resolved for every platform and Python 3.11+ and pinned with the hashes of every file PyPI has for
# each pinned version (wheels of every OS, and the sdist). The extension's first-run setup installs it with
# `pip install --require-hashes`, then the carried wheel with --no-deps. Run it after changing `dependencies`, then
# commit the lock (tests/test_python_lock.py checks it covers them). Needs uv (`pip install uv`) and PyPI.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
UV="${UV:-uv}"
[[ -x "$REPO/.venv/bin/uv" ]] && UV="$REPO/.venv/bin/uv"
"$UV" pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --no-annotate \
  --custom-compile-command "bash scripts/lock-python-requirements.sh" -o vasl_extension/python-requirements.txt "$@"
