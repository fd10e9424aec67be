"""Compare the project's board decoder with VASL's own LOS model, hex by hex (a local check, never run in CI).

Input: the output of ``scripts/realvasl/DumpBoardTerrain.java`` (VASL's classes reading each board
archive: per hex its name, column, row, centre terrain and base height) and the folder of those
archives.  For every board VASL could read, the project's :func:`asl_vassal_bridge.vasl.board.read_board`
decodes the same archive; a hex agrees when name, terrain and base elevation are VASL's.

Run (see docs/vasl-readers.md, "Checking against VASL's own model")::

    python scripts/compare_vasl_terrain.py vasl.tsv /path/to/boards [--shared DIR] [--detail N] [board …]

Prints one line per board (agreeing hexes / VASL's hexes and the first differences), then the totals.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.vasl.board import read_board
from asl_vassal_bridge.vasl.terrain import read_terrain_types

VaslHex = tuple[str, str, int]  # name, terrain, base height


def read_dump(path: Path) -> tuple[dict[str, dict[tuple[int, int], VaslHex]], dict[str, str]]:
    """VASL's hexes per board file ((column, row) → hex), and the boards VASL could not read (→ reason)."""
    boards: dict[str, dict[tuple[int, int], VaslHex]] = {}
    refused: dict[str, str] = {}
    current: dict[tuple[int, int], VaslHex] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if f[0] == "board" and len(f) >= 4:
            if f[2] == "NONE":
                refused[f[1]] = f[3]
                current = None
            else:
                current = boards.setdefault(f[1], {})
        elif current is not None and len(f) == 7:
            current[int(f[1]), int(f[2])] = (f[0], f[3], int(f[4]))
    return boards, refused


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", type=Path)
    ap.add_argument("boards", type=Path)
    ap.add_argument("only", nargs="*", help="board files to compare (default: all VASL read)")
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "vasl")
    ap.add_argument("--detail", type=int, default=4, help="differences shown per board")
    a = ap.parse_args(argv)
    table = read_terrain_types(a.shared / "SharedBoardMetadata.xml",
                               a.shared / "SharedBoardMetadata-6.7-newer-terrain-types.xml")
    vasl, refused = read_dump(a.dump)
    names = a.only or sorted(vasl)
    total = agree = 0
    kinds: collections.Counter[str] = collections.Counter()
    perfect = 0
    for name in names:
        if name not in vasl:
            print(f"{name}: VASL has no LOS model ({refused.get(name, 'not in the dump')})")
            continue
        want = vasl[name]
        try:
            ours = {(h.col, h.row): (h.name, h.terrain.name, h.elevation)
                    for h in read_board(a.boards / name, table).hexes.values()}
        except BadInput as e:
            print(f"{name}: project refuses it: {e}")
            total += len(want)
            continue
        diffs = []
        for key, (vn, vt, ve) in sorted(want.items()):
            got = ours.get(key)
            if got == (vn, vt, ve):
                agree += 1
                continue
            if got is None:
                kinds["hex missing"] += 1
                diffs.append(f"{vn}: missing")
                continue
            on, ot, oe = got
            if on != vn:
                kinds["name"] += 1
            if ot != vt:
                kinds[f"terrain {vt} → {ot}"] += 1
            if oe != ve:
                kinds[f"elevation {ve} → {oe}"] += 1
            diffs.append(f"{vn}: {on} {ot} {oe} (VASL {vt} {ve})")
        extra = len(set(ours) - set(want))
        total += len(want)
        ok = len(want) - len(diffs)
        perfect += not diffs and not extra
        more = f", {extra} hexes VASL lacks" if extra else ""
        print(f"{name}: {ok}/{len(want)}{more}" + (f"  e.g. {'; '.join(diffs[:a.detail])}" if diffs else ""))
    if not a.only:
        both = disagree = 0
        for name, why in sorted(refused.items()):
            try:
                read_board(a.boards / name, table)
            except (BadInput, OSError):
                both += 1
                continue
            disagree += 1
            print(f"{name}: VASL has no LOS model ({why}) but the project decodes it")
        print(f"no LOS model in VASL: {len(refused)} files, {both} refused by the project too, {disagree} decoded")
    print(f"TOTAL: {agree}/{total} hexes agree ({100 * agree / max(total, 1):.2f} %), "
          f"{perfect}/{len(names)} boards identical")
    for k, n in kinds.most_common(25):
        print(f"  {n:6d}  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
