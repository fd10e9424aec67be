#!/usr/bin/env bash
# The README's first command: install the package into .venv/ (made here if missing), then play the
# embedded scenario's fire (`asl-fire demo`; its pictures go to ./asl-fire-demo/, which git ignores, unless --out says
# otherwise). Extra arguments go to `asl-fire demo`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
"$PY" -m pip install -q --disable-pip-version-check "$VENV_REPO"
cd "$VENV_REPO"
exec asl-fire demo "$@"
