#!/usr/bin/env bash
# The release artefacts, in dist/ (or the folder given as the first argument):
#   asl_vassal_bridge-<version>.tar.gz             the sdist (the checkout's files: rebuilds and tests the package)
#   asl_vassal_bridge-<version>-py3-none-any.whl   the wheel, built from that sdist (`python -m build`)
#   asl-fire-bridge-<version>.vmdx                 the players' extension: the prebuilt one carrying that wheel and
#                                                  its dependencies' lock (aslfire-python/), which sets up Python by
#                                                  itself on the first game (VASSAL's Module Manager: right-click
#                                                  VASL, Add Extension)
# Refuses to package a prebuilt extension older than the Java sources (run scripts/build-prebuilt-extension.sh).
# No JDK needed.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="$(mkdir -p "${1:-$REPO/dist}" && cd "${1:-$REPO/dist}" && pwd)"
cd "$REPO"
source scripts/venv.sh
export PYTHONPATH="$REPO${PYTHONPATH:+:$PYTHONPATH}"
"$PY" -c 'import lxml, numpy, py4j' 2>/dev/null || "$PY" -m pip install -q --disable-pip-version-check "$REPO"

"$PY" - <<'PYEOF'
import sys
from asl_vassal_bridge.bridge.prebuilt import REBUILD, prebuilt_info, sources_digest
if prebuilt_info()["sources_sha256"] != sources_digest():
    sys.exit(f"build-dist: asl_vassal_bridge/data/asl-fire-bridge.vmdx is older than vasl_extension/: run `{REBUILD}` first")
PYEOF
VERSION="$("$PY" -c 'import asl_vassal_bridge; print(asl_vassal_bridge.__version__)')"

"$PY" -c 'import build' 2>/dev/null || "$PY" -m pip install -q --disable-pip-version-check build
echo "== python -m build (sdist, then the wheel from the sdist) into $DIST"
"$PY" -m build --outdir "$DIST" "$REPO" >"$DIST/build.log" 2>&1 || { tail -20 "$DIST/build.log" >&2; exit 1; }
SDIST="$DIST/asl_vassal_bridge-$VERSION.tar.gz"
WHEEL="$DIST/asl_vassal_bridge-$VERSION-py3-none-any.whl"
for f in "$SDIST" "$WHEEL"; do
  [[ -s "$f" ]] || { echo "build-dist: $f was not made (see $DIST/build.log)" >&2; exit 1; }
done

VMDX="$DIST/asl-fire-bridge-$VERSION.vmdx"
echo "== the players' extension, the prebuilt one carrying the wheel: $VMDX"
# carry_python is what `asl-fire build-extension --carry-wheel` uses; on the prebuilt extension it needs no JDK.
cp asl_vassal_bridge/data/asl-fire-bridge.vmdx "$VMDX"
"$PY" - "$VMDX" "$WHEEL" <<'PYEOF'
import sys
from pathlib import Path

from asl_vassal_bridge.core.errors import BadInput

vmdx, wheel = Path(sys.argv[1]), Path(sys.argv[2])
try:
    from asl_vassal_bridge.bridge.extension import carry_python
except ImportError as e:
    vmdx.unlink()
    sys.exit(f"build-dist: cannot add the wheel to the extension: {e}")
try:
    manifest = carry_python(vmdx, wheel)
except BadInput as e:
    vmdx.unlink()
    sys.exit(f"build-dist: {e}")
print(f"   carries {manifest['wheel']} (sha256 {manifest['sha256'][:16]}…) and its dependencies' lock")
PYEOF

echo "== made (version $VERSION)"
for f in "$SDIST" "$WHEEL" "$VMDX"; do
  echo "  $(sha256sum "$f" | cut -c1-16)…  $(du -k "$f" | cut -f1) KiB  $f"
done
