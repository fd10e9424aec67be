"""Compare VASL's own LOS map of cropped, reversed boards with the project's (local only, never in CI).

Runs ``scripts/realvasl/DumpMergedMap.java`` (VASL's classes, built as ../shared/docs/real-vassal-and-vasl.md says)
on each layout and compares, cell by cell of VASL's merged grid, which board wrote it and the hex name, with
:mod:`asl_vassal_bridge.vasl.crop`; then checks that the project's placements put each kept hex where VASL's grid
has it. A layout is ``[r]name@col,row[:x,y,w,h]`` per board, as DumpMergedMap takes it.

    CP=… python scripts/compare_vasl_crops.py SharedBoardMetadata.xml BOARDS_DIR "01@0,0:0,0,900,-1 22@1,0" …
    CP=… python scripts/compare_vasl_crops.py SharedBoardMetadata.xml BOARDS_DIR --random 200 --boards 01,22,12a,12b
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

from asl_vassal_bridge.core.hexes import BoardPlacement, Hex
from asl_vassal_bridge.vasl.board import default_terrain_table, fit_placement, read_board
from asl_vassal_bridge.vasl.crop import CropError, MapBoard, merge, placements


def parse_spec(text: str) -> tuple[str, int, int, bool, tuple[int, int, int, int] | None]:
    head, _, crop = text.partition(":")
    name, _, at = head.partition("@")
    rev = len(name) > 1 and name.startswith("r")
    col, row = (int(v) for v in at.split(","))
    c = tuple(int(v) for v in crop.split(",")) if crop else None
    return (name[1:] if rev else name), col, row, rev, c  # type: ignore[return-value]


def vasl(shared: Path, boards_dir: Path, layout: list[str]) -> list[str]:
    run = subprocess.run(["java", "-cp", os.environ["CP"], "DumpMergedMap", str(shared), str(boards_dir), *layout],
                         capture_output=True, text=True, cwd="/tmp", timeout=300)
    return [ln for ln in run.stdout.splitlines() if ln.split("\t", 1)[0] in ("map", "board", "hex", "error")]


def compare(shared: Path, boards_dir: Path, layout: list[str], table: object, cache: dict[str, object]) -> tuple[
        str, int, int]:
    """('same'|'both refuse'|what differs, cells agreeing, cells)."""
    specs = [parse_spec(s) for s in layout]
    boards = []
    for name, col, row, rev, crop in specs:
        if name not in cache:
            cache[name] = read_board(boards_dir / f"bd{name}", table)  # type: ignore[arg-type]
        b = cache[name]
        boards.append((b, fit_placement(b, BoardPlacement(name, col, row, rev)), crop))  # type: ignore[arg-type]
    out = vasl(shared, boards_dir, layout)
    vasl_error = next((ln for ln in out if ln.startswith("error")), None)
    try:
        merged = merge([MapBoard(p.name, b.geometry, p.x, p.y, p.reversed, c)  # type: ignore[attr-defined]
                        for b, p, c in boards])
        grid, written, places = merged.grid, merged.written, merged.places
        placed = placements([(b.geometry, p, c) for b, p, c in boards])  # type: ignore[attr-defined]
    except CropError as e:
        if vasl_error:
            return "both refuse", 0, 0
        if "half a hex off" in str(e) or "rebuild its grid" in str(e):
            return "project refuses a grid VASL merges out of true", 0, 0
        return f"project refuses, VASL does not: {e}", 0, 0
    if vasl_error:
        return f"VASL refuses ({vasl_error}), the project does not", 0, 0
    mline = next(ln for ln in out if ln.startswith("map")).split("\t")
    if (int(mline[1]), int(mline[2])) != (grid.columns, grid.rows):
        return f"map size VASL {mline[1]}x{mline[2]}, project {grid.columns}x{grid.rows}", 0, 0
    vplaces = [ln.split("\t")[-1] for ln in out if ln.startswith("board")]
    mine = [f"{c},{r}" for c, r in places]
    if vplaces != mine:
        return f"places VASL {vplaces}, project {mine}", 0, 0
    owner: dict[tuple[int, int], tuple[str, str]] = {}
    for (b, p, _), cells in zip(boards, written, strict=True):
        for cell, (c, r) in cells.items():
            owner[cell] = (p.name, b.geometry.name(c, r))  # type: ignore[attr-defined]
    same = total = 0
    diffs = []
    for ln in out:
        if not ln.startswith("hex"):
            continue
        _, c, r, name, by, under, _t, _e = ln.split("\t")
        cell = (int(c), int(r))
        if (under != "-") != merged.on_a_board(cell) and by != "-":
            diffs.append(f"{cell}: VASL finds it on board {under}, the project on a board: {merged.on_a_board(cell)}")
        if by == "-":
            if cell in owner:
                diffs.append(f"{cell}: VASL has no board there, project {owner[cell]}")
            continue
        total += 1
        if owner.get(cell) == (by, name):
            same += 1
        else:
            diffs.append(f"{cell}: VASL {by} {name}, project {owner.get(cell)}")
    if len(owner) != total:
        diffs.append(f"{len(owner)} cells written by the project, {total} by VASL")
    shift = 1 if grid.first_long else 0
    for (b, _p, _), pl, cells in zip(boards, placed, written, strict=True):
        for (x, y), (c, r) in cells.items():
            if not merged.on_a_board((x, y)):
                if pl.crop is not None and b.geometry.local_hex(c, r) in pl.crop:  # type: ignore[attr-defined]
                    diffs.append(f"{pl.name} keeps {b.geometry.name(c, r)}, whose centre is on no board")
                continue
            want = Hex.from_offset(x + shift, y + (1 if (x + shift) % 2 == 0 else 0))
            got = pl.to_map(b.geometry.local_hex(c, r))  # type: ignore[attr-defined]
            if got != want or pl.to_local(want) != b.geometry.local_hex(c, r):  # type: ignore[attr-defined]
                diffs.append(f"placement of {pl.name} puts {b.geometry.name(c, r)} at {got}, VASL's grid at "
                             f"{want}")
                break
    return ("same" if not diffs else "; ".join(diffs[:5])), same, total


def random_layout(rng: random.Random, names: list[str], sizes: dict[str, tuple[int, int, float, float]]) -> list[str]:
    spots = rng.choice(([(0, 0)], [(0, 0), (1, 0)], [(0, 0), (1, 0)], [(0, 0), (0, 1)], [(0, 0), (1, 0), (0, 1)],
                        [(0, 0), (1, 0), (0, 1), (1, 1)], [(0, 0), (1, 0), (2, 0)]))  # as a board picker fills them
    out = []
    for col, row in spots:
        name = rng.choice(names)
        gw, gh, hw, hh = sizes[name]
        rev = "r" if rng.random() < 0.3 else ""
        crop = ""
        if rng.random() < 0.7:
            kind = rng.random()
            if kind < 0.4:  # the picker's columns: from one hex column's centre to another's
                last = int(gw / hw)
                a = rng.randrange(0, last)
                b = rng.randrange(a + 1, last + 1)
                x = int(hw * a + 0.5)
                crop = f"{x},0,{int(hw * b + 0.5) - x},-1"
            elif kind < 0.7:  # the picker's rows
                a = rng.randrange(1, 6)
                b = rng.randrange(a, int(gh / hh) + 1)
                y = int(hh * (a - 1) + 0.5)
                crop = f"0,{y},-1,{int(hh * (b - 1) + 0.5) + 64 - y}"
            else:  # any rectangle
                x, y = rng.randrange(0, gw - 60), rng.randrange(0, gh - 60)
                crop = f"{x},{y},{rng.randrange(30, gw - x + 1)},{rng.randrange(30, gh - y + 1)}"
        out.append(f"{rev}{name}@{col},{row}" + (f":{crop}" if crop else ""))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("shared", type=Path)
    ap.add_argument("boards_dir", type=Path)
    ap.add_argument("layouts", nargs="*")
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--boards", default="01,22")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    table = default_terrain_table(a.shared.parent)
    cache: dict[str, object] = {}
    layouts = [s.split() for s in a.layouts]
    if a.random:
        rng = random.Random(a.seed)
        names = a.boards.split(",")
        sizes = {}
        for n in names:
            g = read_board(a.boards_dir / f"bd{n}", table).geometry
            sizes[n] = (g.grid_width, g.grid_height, g.hex_width, g.hex_height)
        layouts += [random_layout(rng, names, sizes) for _ in range(a.random)]
    counts: dict[str, int] = {}
    cells = agree = 0
    for lay in layouts:
        verdict, same, total = compare(a.shared, a.boards_dir, lay, table, cache)
        key = verdict if verdict in ("same", "both refuse", "project refuses a grid VASL merges out of true") \
            else "differ"
        counts[key] = counts.get(key, 0) + 1
        cells += total
        agree += same
        print(f"{' '.join(lay)}\t{verdict}\t{same}/{total}")
    print(f"layouts: {counts}; hexes agreeing: {agree}/{cells}", file=sys.stderr)
    return 0 if "differ" not in counts else 1


if __name__ == "__main__":
    sys.exit(main())
