#!/usr/bin/env bash
# Install what the widget's real-browser test (tests/widget/test_browser.py, marker "browser") needs:
#  - Debian's Chromium (apt);
#  - playwright-core from npm into tests/widget/browser/node_modules (never `npx playwright install`:
#    it downloads its own browser, which fails here; the test drives /usr/bin/chromium);
#  - Voilà, JupyterLab, nbclient, nbformat and ipykernel from PyPI, plus the project itself
#    (with the widget package) when it is not importable yet.
# Idempotent and quiet; fast when everything is already there.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BROWSER_DIR="$REPO/tests/widget/browser"
SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"

if ! command -v chromium >/dev/null 2>&1; then
  echo "install-browser-test-deps: apt-get install chromium"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    chromium fonts-dejavu-core >/dev/null
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install-browser-test-deps: apt-get install nodejs npm"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

if [[ ! -f "$BROWSER_DIR/node_modules/playwright-core/package.json" ]]; then
  echo "install-browser-test-deps: npm install (playwright-core) in tests/widget/browser"
  (cd "$BROWSER_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --silent >/dev/null)
fi

PY="${PYTHON:-python3}"
if ! "$PY" - <<'EOF' 2>/dev/null
import importlib.util, sys
need = ["voila", "jupyterlab", "nbclient", "nbformat", "ipykernel", "ipywidgets", "ipycanvas"]
sys.exit(0 if all(importlib.util.find_spec(m) for m in need) else 1)
EOF
then
  echo "install-browser-test-deps: pip install voila jupyterlab nbclient nbformat ipykernel ipywidgets ipycanvas"
  "$PY" -m pip install -q "voila>=0.5" "jupyterlab>=4" "nbclient>=0.10" "nbformat>=5" "ipykernel>=6" \
    "ipywidgets>=8" "ipycanvas>=0.13" 2>&1 | grep -v -i -E "running pip as the 'root' user|WARNING: Location" || true
fi

if ! "$PY" -c "import asl_fire_widget.widget" 2>/dev/null; then
  echo "install-browser-test-deps: pip install -e $REPO (the project and its widget package)"
  "$PY" -m pip install -q --no-deps -e "$REPO" 2>&1 | grep -v -i -E "running pip as the 'root' user|WARNING: Location" || true
fi

# A kernel spec named python3 for Voilà and nbclient.
if ! "$PY" -m jupyter kernelspec list 2>/dev/null | grep -q "python3"; then
  "$PY" -m ipykernel install --sys-prefix >/dev/null
fi
