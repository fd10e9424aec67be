"""Compare the project's board decoder with VASL's own LOS model, hex by hex (a local check, never run in CI).

Input: the output of ``scripts/realvasl/DumpBoardTerrain.java`` (VASL's classes reading each board
archive: per hex its name, column, row, centre terrain, base height and, in newer dumps, stairway)
and the folder of those archives.  For every board VASL could read, the project's
:func:`asl_vassal_bridge.vasl.board.read_board` decodes the same archive; a hex agrees when name,
terrain, base elevation and stairway are VASL's.

A dump made with ``--ssr-sets`` holds each board once per set of SSR tokens, VASL's
``applyColorSSRules`` applied: the project's :func:`asl_vassal_bridge.vasl.ssr.apply_ssr` applies the
same tokens to its decoded board.  Where VASL refuses a set (it disables LOS), the project must name
a token it does not apply either.

Run (see docs/vasl-readers.md, "Checking against VASL's own model")::

    python scripts/compare_vasl_terrain.py vasl.tsv /path/to/boards [--shared DIR] [--detail N] [--quiet] [board …]

Prints one line per board and SSR set (agreeing hexes / VASL's hexes and the first differences; with
--quiet only those that differ), then the totals (and per SSR rule, for a dump with SSR sets).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.vasl.board import HexTerrain, VaslBoard, read_board
from asl_vassal_bridge.vasl.ssr import apply_ssr
from asl_vassal_bridge.vasl.terrain import read_terrain_types, ssr_problems

# name, terrain, base level, stairway (None: not in the dump), depression + Locations (None: not compared)
VaslHex = tuple[str, str, int, bool | None, str | None]
Key = tuple[str, str]  # board file, SSR set ("" for none; tokens joined by commas)


def read_dump(path: Path) -> tuple[dict[Key, dict[tuple[int, int], VaslHex]], dict[Key, str]]:
    """VASL's hexes per board file and SSR set ((column, row) → hex), and those VASL could not read (→ reason)."""
    boards: dict[Key, dict[tuple[int, int], VaslHex]] = {}
    refused: dict[Key, str] = {}
    current: dict[tuple[int, int], VaslHex] | None = None
    v67 = False
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        f = line.split("\t")
        if f[0] == "board" and len(f) >= 4:
            ssr = next((x[4:] for x in f[3:] if x.startswith("ssr=")), "")
            v67 = any(x.startswith("passes=") for x in f[3:])  # DumpBoardTerrain67: Locations compared too
            if f[2] == "NONE":
                refused[f[1], ssr] = f[3]
                current = None
            else:
                current = boards.setdefault((f[1], ssr), {})
        elif current is not None and len(f) in (7, 8, 9):
            current[int(f[1]), int(f[2])] = (f[0], f[3], int(f[4]), f[7] == "1" if len(f) >= 8 else None,
                                             f"{f[5]}|{f[6]}" + (f"|{f[8]}" if len(f) == 9 else "") if v67 else None)
    return boards, refused


def locations_text(h: HexTerrain, sides: bool = False) -> str:
    """The hex's depression terrain and Locations as DumpBoardTerrain67 prints them: ``<depression or ->|<chain>``,
    the chain being the centre as ``=terrain@level`` when its level is not 0, then the Locations above it
    (``+terrain@level``, upwards) and below it (``-terrain@level``, downwards); with *sides*, then ``|`` and the six
    hexside Locations' terrain (``terrain`` or ``terrain/depression``), separated by ``|``."""
    locs = h.locations or ((h.terrain.name, 0),)
    name, level = locs[h.centre]
    chain = [f"={name}@{level}"] if level != 0 else []
    chain += [f"+{t or 'null'}@{lv}" for t, lv in locs[h.centre + 1:]]
    chain += [f"-{t or 'null'}@{lv}" for t, lv in reversed(locs[:h.centre])]
    text = f"{h.depression or '-'}|{','.join(chain)}"
    if sides:
        text += "|" + "|".join(t + (f"/{d}" if d else "") for t, d in h.hexside_locations)
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", type=Path)
    ap.add_argument("boards", type=Path)
    ap.add_argument("only", nargs="*", help="board files to compare (default: all VASL read)")
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "vasl")
    ap.add_argument("--detail", type=int, default=4, help="differences shown per board")
    ap.add_argument("--quiet", action="store_true", help="print only the boards and SSR sets that differ")
    ap.add_argument("--model", choices=("6.7", "2020"), default="6.7",
                    help="the project's reading to compare: VASL 6.7.x's (DumpBoardTerrain67) or the VASL of 2020's "
                         "(DumpBoardTerrain on the 2020 classes)")
    a = ap.parse_args(argv)
    table = read_terrain_types(a.shared / "SharedBoardMetadata.xml",
                               a.shared / "SharedBoardMetadata-6.7-newer-terrain-types.xml")
    vasl, refused = read_dump(a.dump)
    keys = sorted(k for k in vasl if not a.only or k[0] in a.only)
    total = agree = 0
    kinds: collections.Counter[str] = collections.Counter()
    per_rule: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    perfect = 0
    decoded: dict[str, VaslBoard | BadInput] = {}

    def board(name: str) -> VaslBoard | BadInput:
        if name not in decoded:
            try:
                decoded[name] = read_board(a.boards / name, table, model=a.model)
            except BadInput as e:
                decoded[name] = e
        return decoded[name]

    for name in a.only:
        if not any(k[0] == name for k in vasl):
            print(f"{name}: VASL has no LOS model ({refused.get((name, ''), 'not in the dump')})")
    for name, ssr in keys:
        label = f"{name} [{ssr}]" if ssr else name
        want = vasl[name, ssr]
        b = board(name)
        if isinstance(b, BadInput):
            print(f"{label}: project refuses it: {b}")
            total += len(want)
            continue
        result = apply_ssr(b, ssr.replace(",", " "))
        if result.not_applied:
            print(f"{label}: VASL applies it, the project leaves out {result.not_applied}")
        sides = any(v[4] is not None and v[4].count("|") > 1 for v in want.values())
        ours = {(h.col, h.row): (h.name, h.terrain.name, h.elevation, h.stairwell, locations_text(h, sides))
                for h in result.board.hexes.values()}
        diffs = []
        for key, (vn, vt, ve, vs, vl) in sorted(want.items()):
            got = ours.get(key)
            if got is None:
                kinds["hex missing"] += 1
                diffs.append(f"{vn}: missing")
                continue
            on, ot, oe, os_, ol = got
            if (on, ot, oe) == (vn, vt, ve) and (vs is None or vs == os_) and (vl is None or vl == ol):
                agree += 1
                continue
            if vl is not None and vl != ol:
                kinds[f"locations {vl} → {ol}"] += 1
            if on != vn:
                kinds["name"] += 1
            if ot != vt:
                kinds[f"terrain {vt} → {ot}"] += 1
            if oe != ve:
                kinds[f"elevation {ve} → {oe}"] += 1
            if vs is not None and vs != os_:
                kinds[f"stairway {vs} → {os_}"] += 1
            diffs.append(f"{vn}: {on} {ot} {oe}{' st' if os_ else ''} (VASL {vt} {ve}{' st' if vs else ''})")
        extra = len(set(ours) - set(want))
        total += len(want)
        ok = len(want) - len(diffs)
        for rule in ssr.split(",") if ssr else ():
            per_rule[rule][0] += ok
            per_rule[rule][1] += len(want)
        perfect += not diffs and not extra
        more = f", {extra} hexes VASL lacks" if extra else ""
        if diffs or extra or not a.quiet:
            print(f"{label}: {ok}/{len(want)}{more}" + (f"  e.g. {'; '.join(diffs[:a.detail])}" if diffs else ""))
    refusals = agreed_refusals = 0
    for (name, ssr), why in sorted(refused.items()):
        if not ssr or (a.only and name not in a.only) or (name, "") not in vasl:
            continue
        refusals += 1
        b = board(name)
        ours_left = ssr_problems(ssr.replace(",", " "), table, b.name if isinstance(b, VaslBoard) else "")
        if ours_left:
            agreed_refusals += 1
            if not a.quiet:
                print(f"{name} [{ssr}]: VASL disables LOS ({why}); the project leaves out "
                      f"{', '.join(t for t, _ in ours_left)}")
        else:
            print(f"{name} [{ssr}]: VASL disables LOS ({why}) but the project applies every token")
    if not a.only:
        both = disagree = 0
        for (name, ssr), why in sorted(refused.items()):
            if ssr:
                continue
            try:
                read_board(a.boards / name, table, model=a.model)
            except (BadInput, OSError):
                both += 1
                continue
            disagree += 1
            print(f"{name}: VASL has no LOS model ({why}) but the project decodes it")
        print(f"no LOS model in VASL: {sum(1 for k in refused if not k[1])} files, {both} refused by the project "
              f"too, {disagree} decoded")
    boards_sets = len(keys)
    print(f"TOTAL: {agree}/{total} hexes agree ({100 * agree / max(total, 1):.2f} %), "
          f"{perfect}/{boards_sets} boards{' and SSR sets' if per_rule else ''} identical")
    if refusals:
        print(f"SSR sets VASL refuses: {refusals}, the project leaves a token out of {agreed_refusals}")
    for k, n in kinds.most_common(25):
        print(f"  {n:6d}  {k}")
    if per_rule:
        print("per SSR rule (hexes agreeing / compared, over the sets holding it):")
        for rule, (ok, n) in sorted(per_rule.items()):
            print(f"  {rule:28s} {ok}/{n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
