#!/usr/bin/env bash
# Install everything the test suite needs on a fresh machine, then run every test, ruff and mypy.
# This is the README's second set-up command and what .ci/run runs.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

# The project's own virtual environment (.venv/, made once): works where python3 is the system's (PEP 668).
source scripts/venv.sh
export PYTHON="$PY"
echo "== installing the package with its test extras into $VENV_DIR"
"$PY" -m pip install -q --disable-pip-version-check -e '.[test]'

for s in scripts/install-vassal-test-deps.sh scripts/install-browser-test-deps.sh; do
  if [[ -f "$s" ]]; then
    echo "== $s"
    bash "$s"
  fi
done

status=0
echo "== pytest"
"$PY" -m pytest "$@" || status=$?
echo "== ruff"
"$PY" -m ruff check asl_vassal_bridge widget tests bench examples || status=$?
echo "== mypy"
"$PY" -m mypy || status=$?
exit "$status"
