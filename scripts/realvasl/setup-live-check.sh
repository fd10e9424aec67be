#!/usr/bin/env bash
# Local-only (never in CI): what the live suite needs on top of ../shared/tools/realvasl/build.sh to run against
# VASSAL 3.7.26 and VASL's own classes (docs/bridge.md, "Checked on VASSAL 3.7.26 and VASL's own classes").
# Nothing of VASSAL or VASL is copied into the project: everything goes into $RV.
#
#   MIRROR=<fetched snapshots> RV=<build.sh's output folder> bash scripts/realvasl/setup-live-check.sh [3.8.0-beta1]
#
# Makes, in $RV:
#   VASSAL-3.7.26/lib/   laid out as an installation (ASL_VASSAL_HOME): Vengine.jar and the jars it runs with
#   boards/bdNN          boards 01 02 03 04 05 22 from the VASL fork's snapshot (../shared/vasl holds only bd01)
#   vasl2020/VASL.vmod   a VASL-like module around the fork's classes (tests/support/vassal_harness.vasl_like_module)
# With the argument 3.8.0-beta1: also v38/Vengine-3.8.0-beta1.jar, built as build.sh builds 3.7.26 (for
# check_vassal_refs.py; ASL_VASSAL_JAR runs the live tests on it).
set -euo pipefail
: "${MIRROR:?folder holding vassalengine+vassal/ and michalxo+vasl/}" "${RV:?the folder build.sh built into}"
proj="$(cd "$(dirname "$0")/../.." && pwd)"
[ -f "$RV/Vengine-3.7.26.jar" ] && [ -d "$RV/vasl/classes" ] || { echo "$RV: run ../shared/tools/realvasl/build.sh first" >&2; exit 2; }
lib="$RV/VASSAL-3.7.26/lib"; mkdir -p "$lib"
ln -sf "$RV/Vengine-3.7.26.jar" "$lib/Vengine.jar"
for j in $(tr ':' ' ' < "$RV/cp.txt") /usr/share/java/jdom2.jar; do ln -sf "$(readlink -f "$j")" "$lib/$(basename "$j")"; done
mkdir -p "$RV/boards"
for b in 01 02 03 04 05 22; do   # git archive of the fork also stops on a missing board blob (bdB3R): harmless for src
  [ -f "$RV/boards/bd$b" ] || git --git-dir="$MIRROR/michalxo+vasl/repo" cat-file -p "HEAD:boards/bdFiles/bd$b" > "$RV/boards/bd$b"
done
mkdir -p "$RV/vasl2020"
[ -e "$RV/vasl2020/boards" ] || ln -s "$RV/boards" "$RV/vasl2020/boards"
py="$proj/.venv/bin/python"; [ -x "$py" ] || py=python3
(cd "$proj" && ASL_VASSAL_HOME="$RV/VASSAL-3.7.26" "$py" - "$RV" <<'EOF'
import sys
from pathlib import Path
sys.path.insert(0, ".")
from tests.support import vassal_harness as vh
rv = Path(sys.argv[1])
vh.vasl_like_module(rv / "vasl2020" / "VASL.vmod", rv / "vasl" / "classes", Path("../shared/vasl").resolve(),
                    rv / "boards", ["01", "02", "03", "04", "05", "22"])
EOF
)
if [ "${1:-}" = "3.8.0-beta1" ] && [ ! -f "$RV/v38/Vengine-3.8.0-beta1.jar" ]; then
  mkdir -p "$RV/v38"; cd "$RV/v38"; rm -rf vsrc classes; mkdir vsrc classes
  git --git-dir="$MIRROR/vassalengine+vassal/repo" archive 3.8.0-beta1 vassal-app | tar x -C vsrc
  find vsrc/vassal-app/src/main/java -name '*.java' | grep -v PropertyNoCaseStartsWithCondition > vsrcs.txt
  javac --release 17 -nowarn -encoding UTF-8 -J-Xmx1200m -cp "$(cat ../cp.txt)" -d classes @vsrcs.txt 2> javac.log
  cp -r vsrc/vassal-app/src/main/resources/. classes/; echo "git.version=3.8.0-beta1" > classes/git.properties
  : > classes/deprecated; printf 'Main-Class: VASSAL.launch.ModuleManager\n' > manifest.txt
  (cd classes && jar cfm ../Vengine-3.8.0-beta1.jar ../manifest.txt .)
fi
echo "export ASL_VASSAL_HOME=$RV/VASSAL-3.7.26 ASL_VASL_VMOD=$RV/vasl2020/VASL.vmod ASL_VASL_BOARDS=$RV/boards"
