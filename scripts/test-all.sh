#!/usr/bin/env bash
# Install everything the test suite needs on a fresh machine, then run every test, ruff and mypy.
# This is the README's second set-up command and what .ci/run runs.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

echo "== installing the package with its test extras"
python3 -m pip install -q --disable-pip-version-check -e '.[test]' 2>&1 | grep -v "Running pip as the 'root' user" || true

for s in scripts/install-vassal-test-deps.sh scripts/install-browser-test-deps.sh; do
  if [[ -f "$s" ]]; then
    echo "== $s"
    bash "$s"
  fi
done

status=0
echo "== pytest"
python3 -m pytest "$@" || status=$?
echo "== ruff"
python3 -m ruff check asl_vassal_bridge widget tests bench || status=$?
echo "== mypy"
python3 -m mypy || status=$?
exit "$status"
