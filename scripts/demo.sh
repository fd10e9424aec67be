#!/usr/bin/env bash
# The README's first command: install the package into .venv/ (made here if missing), then play the
# embedded scenario's fire (`asl-fire demo`; its pictures go to ./asl-fire-demo/, which git ignores, unless --out says
# otherwise). Extra arguments go to `asl-fire demo`. It ends by saying how to run `asl-fire` again.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
"$PY" -m pip install -q --disable-pip-version-check "$VENV_REPO"
cd "$VENV_REPO"
asl-fire demo "$@"
echo
echo "asl-fire is installed in $VENV_DIR; run it again as $VENV_DIR/bin/asl-fire (e.g. \`$VENV_DIR/bin/asl-fire odds demo\`, \`$VENV_DIR/bin/asl-fire --help\`), or first \`source $VENV_DIR/bin/activate\` and then just \`asl-fire\`."
