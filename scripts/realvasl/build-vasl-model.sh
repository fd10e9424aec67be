#!/usr/bin/env bash
# Local-only (never in CI): compile VASL's Java sources that a contributor downloaded, and the project's dumpers
# against them, for scripts/compare_vasl_terrain.py (docs/vasl-readers.md, "Checking against VASL's own model").
# Nothing is fetched and nothing of VASL is copied into the project.
#
#   scripts/realvasl/build-vasl-model.sh VASL_SRC OUT CLASSPATH
#
# VASL_SRC   a folder of VASL sources: a VASL checkout's src/ (vasl-developers/vasl; VASL 6.7.x), or an assembly of
#            its LOS model classes (VASL/LOS/Map/*, VASL/build/module/map/boardArchive/* …)
# OUT        where the classes go: OUT/classes (VASL), OUT/dumper (DumpBoardTerrain67)
# CLASSPATH  VASSAL's engine jar and its libraries (VASL 6.7.x is built on VASSAL 3.7.x), then any class tree for
#            what VASL_SRC lacks (e.g. an older VASL's classes), ':'-separated
#
# Then, from a scratch folder (VASSAL's logger writes CONF_DIR_IS_UNDEFINED/ into the current one):
#   java -cp "OUT/classes:CLASSPATH:OUT/dumper" DumpBoardTerrain67 SharedBoardMetadata.xml --keep-duplicate-codes \
#        SharedBoardMetadata-6.7-newer-terrain-types.xml BOARDS_DIR bd01 bd22 … > vasl67.tsv
#   python scripts/compare_vasl_terrain.py vasl67.tsv BOARDS_DIR
set -euo pipefail
if [ $# -ne 3 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
src="$(cd "$1" && pwd)"; out="$2"; cp="$3"; here="$(cd "$(dirname "$0")" && pwd)"
[ -d "$src/VASL/LOS/Map" ] || { echo "$src: no VASL/LOS/Map folder (give VASL's src/ folder)" >&2; exit 2; }
rm -rf "$out/classes" "$out/dumper"; mkdir -p "$out/classes" "$out/dumper"
find "$src" -name '*.java' | sort > "$out/sources.txt"
javac --release 17 -nowarn -encoding UTF-8 -J-Xmx1500m -cp "$cp" -d "$out/classes" @"$out/sources.txt"
javac --release 17 -nowarn -cp "$out/classes:$cp" -d "$out/dumper" "$here/DumpBoardTerrain67.java"
echo "built $(find "$out/classes" -name '*.class' | wc -l) VASL classes from $(wc -l < "$out/sources.txt") sources in $out/classes;" \
     "DumpBoardTerrain67 in $out/dumper"
