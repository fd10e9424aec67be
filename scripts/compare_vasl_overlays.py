"""Compare the project's overlays with VASL 6.7.x's own overlay code, pixel by pixel and hex by hex (local only).

Two steps.  ``specs`` writes the overlays to check (board archive, overlay name, the picture the
project's :func:`asl_vassal_bridge.vasl.overlay.place_overlay` chooses and where it puts it) for
``scripts/realvasl/DumpOverlayTerrain.java``; ``compare`` reads the dumper's output (its grids and
hexes) and applies the same overlays with :func:`~asl_vassal_bridge.vasl.overlay.apply_overlays`:
a pixel agrees when its terrain code and level are VASL's; a hex when its centre terrain and base
level are.  Each board is also dumped bare (no overlay), so a hex where the project's hex reader and
VASL 6.7.x's differ without any overlay (a difference of the hex reader, not of the overlay
procedure) is counted apart.

``placements`` checks only where each overlay goes: it writes, per placement, the board's grid (``A1CenterX``,
``A1CenterY``, hex width and height, alternate grain), hex 1 and the origin hex for
``scripts/realvasl/PlaceOverlays.java`` (VASL's own ``ASLHexGrid``, set up as ``ASLBoard`` sets it up, less the
origin's point as ``Overlay.setBounds`` takes it), then ``placements-compare`` counts the placements whose corner
is VASL's.

Run (see docs/vasl-readers.md, "Overlays")::

    python scripts/compare_vasl_overlays.py specs BOARDS_DIR OVERLAYS_DIR SHARED.xml [NEWER.xml] > specs.tsv
    java … DumpOverlayTerrain SHARED.xml NEWER.xml BOARDS_DIR OVERLAYS_DIR specs.tsv OUT > vasl.tsv
    python scripts/compare_vasl_overlays.py compare BOARDS_DIR OVERLAYS_DIR SHARED.xml [NEWER.xml] \
        specs.tsv vasl.tsv OUT
    python scripts/compare_vasl_overlays.py placements BOARDS_DIR OVERLAYS_DIR SHARED.xml [NEWER.xml] > place.tsv
    cut -f1-7 place.tsv | java … PlaceOverlays > vasl-place.tsv
    python scripts/compare_vasl_overlays.py placements-compare place.tsv vasl-place.tsv
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from asl_vassal_bridge.vasl.board import VaslBoard, read_board
from asl_vassal_bridge.vasl.overlay import (
    OverlayArchive,
    apply_overlays,
    archive_name,
    find_overlay_archive,
    image_member,
    place_overlay,
)
from asl_vassal_bridge.vasl.terrain import TerrainTable, read_terrain_types
from asl_vassal_bridge.vasl.vsav import BoardOverlay

#: (board archive, overlay, hex 1, hex 2): overlays of the 2020 board repository's archives on their boards.
CASES = (
    ("bd01", "wd1", "E5", "E5"), ("bd01", "wd2", "R6", "R6"), ("bd01", "b1", "N3", "N3"), ("bd01", "g2", "P5", "P6"),
    ("bd01", "o1", "T4", "T4"), ("bd01", "x1", "E5", "E5"), ("bd01", "x2", "G8", "G8"), ("bd01", "x3", "Y3", "Y3"),
    ("bd01", "x8", "I6", "I6"), ("bd01", "x10", "Q4", "Q4"), ("bd01", "st1", "K4", "K5"), ("bd01", "h1", "G4", "G5"),
    ("bd01", "h3", "X3", "X4"), ("bd01", "rt", "E5", "F5"), ("bd01", "m1", "C6", "C6"), ("bd01", "p1", "V7", "V7"),
    ("bd02", "wd5", "F6", "F6"), ("bd02", "g4", "M3", "M3"), ("bd02", "b3", "S7", "S7"), ("bd02", "x5", "K5", "K5"),
    ("bd03", "o3", "H4", "H4"), ("bd03", "hd1", "N5", "N5"), ("bd03", "m3", "W3", "W3"), ("bd03", "wd12", "D4", "D5"),
    ("bd04", "x12", "L6", "L6"), ("bd04", "g5", "T3", "T3"), ("bd04", "st2", "G3", "G4"), ("bd04", "wr1", "P7", "P7"),
    ("bd05", "sr1", "J4", "J4"), ("bd05", "wd34", "R4", "R5"), ("bd05", "h2", "B3", "C3"), ("bd05", "rp1", "X6", "X6"),
)


#: Hexes 1 for the placement check on board 01: odd and even columns, the top and bottom rows, hills.
PLACE_HEXES = ("P5", "M6", "W7", "Q3", "B9", "C10", "G4", "X3", "D1", "K9", "Y10", "F2")
#: Overlays placed at each of them (two-hex ones with hex 2 below hex 1): buildings, woods, grain, orchard, brush,
#: stream, hills.
PLACE_OVERLAYS = ("x1", "x12", "x8", "wd1", "g2", "o1", "b1", "st1", "h1", "h2", "h3")


def table_of(shared: list[str]) -> TerrainTable:
    return read_terrain_types(*shared)


def specs(boards: Path, overlays: Path, shared: list[str]) -> None:
    table = table_of(shared)
    cache: dict[str, VaslBoard] = {}
    seen: set[str] = set()
    for bd, name, h1, h2 in CASES:
        board = cache.get(bd) or read_board(boards / bd, table)
        cache[bd] = board
        if bd not in seen:
            seen.add(bd)
            print(f"{bd}\t\t\t0\t0\tfalse\t")  # the board bare
        path = find_overlay_archive((overlays,), name)
        if path is None:
            print(f"# {bd} {name}: no archive {archive_name(name)}", file=sys.stderr)
            continue
        try:
            p = place_overlay(board, name, h1, h2, OverlayArchive.read(path))
        except Exception as e:  # a local check: report and go on
            print(f"# {bd} {name}: {e}", file=sys.stderr)
            continue
        member = image_member(name, p.orientation)
        print(f"{bd}\t{name}\t{member}\t{p.x}\t{p.y}\tfalse\t{path.name}\t{h1}\t{h2}")


def placements(boards: Path, overlays: Path, shared: list[str]) -> None:
    """Per placement: the VASL grid's inputs, hex 1, the origin hex, then the project's corner and the case."""
    from asl_vassal_bridge.vasl.overlay_placement import _default_origins, _origin_hex

    table = table_of(shared)
    board = read_board(boards / "bd01", table)
    geo = board.geometry
    for name in PLACE_OVERLAYS:
        path = find_overlay_archive((overlays,), name)
        if path is None:
            print(f"# {name}: no archive {archive_name(name)}", file=sys.stderr)
            continue
        arc = OverlayArchive.read(path)
        for h1 in PLACE_HEXES:
            col, row = geo.parse(h1)
            below = geo.name(col, row + 1) if row + 1 < geo.height + col % 2 else geo.name(col, row - 1)
            try:
                p = place_overlay(board, name, h1, below, arc)
            except Exception as e:  # a local check: report and go on
                print(f"# {name} {h1}: {e}", file=sys.stderr)
                continue
            origins = arc.origins.get(name.lower()) or _default_origins(name) or ()
            origin = _origin_hex(board, origins[ord(p.orientation) - ord("a")])
            print(f"{geo.a1_x}\t{geo.a1_y}\t{geo.hex_width}\t{geo.hex_height}\t{str(geo.alt_grain).lower()}\t{h1}\t"
                  f"{origin}\t{p.x}\t{p.y}\t{name}\t{h1}-{below}\t{p.orientation}")


def placements_compare(spec_file: Path, vasl_file: Path) -> None:
    rows = [line.split("\t") for line in spec_file.read_text("utf-8").splitlines() if line.strip()]
    vasl = [line.split("\t") for line in vasl_file.read_text("utf-8").splitlines() if line.strip()]
    same = 0
    for f, v in zip(rows, vasl, strict=True):
        ours, theirs = (int(f[7]), int(f[8])), (int(v[0]), int(v[1]))
        if ours == theirs:
            same += 1
        else:
            print(f"{f[9]} {f[10]} ({f[11]}, origin {f[6]}): project {ours}, VASL {theirs}")
    print(f"TOTAL placements {same}/{len(rows)} at VASL's corner")


def read_vasl(path: Path) -> dict[int, dict[tuple[int, int], tuple[str, str, int]]]:
    out: dict[int, dict[tuple[int, int], tuple[str, str, int]]] = {}
    cur: dict[tuple[int, int], tuple[str, str, int]] | None = None
    for line in path.read_text("utf-8").splitlines():
        f = line.split("\t")
        if f[0] == "spec":
            if len(f) > 4 and f[4] == "ERROR":
                print(f"VASL could not apply spec {f[1]} ({f[2]} {f[3]}): {f[5]}")
                cur = None
                continue
            cur = out.setdefault(int(f[1]), {})
        elif cur is not None and len(f) >= 5:
            cur[int(f[1]), int(f[2])] = (f[0], f[3], int(f[4]))
    return out


def compare(boards: Path, overlays: Path, shared: list[str], spec_file: Path, vasl_file: Path, out: Path) -> None:
    table = table_of(shared)
    vasl = read_vasl(vasl_file)
    rows = [line.split("\t") for line in spec_file.read_text("utf-8").splitlines() if line.strip()]
    bare: dict[str, tuple[VaslBoard, dict[tuple[int, int], tuple[str, str, int]]]] = {}
    tot_px = tot_px_ok = tot_hex = tot_hex_ok = tot_reader = 0
    for n, f in enumerate(rows):
        bd, name = f[0], f[1]
        if n not in vasl:
            continue
        board = read_board(boards / bd, table)
        raw = np.fromfile(out / f"{n}.grid", dtype=np.uint8).reshape(board.los.grid_width, board.los.grid_height, 2)
        v_elev = raw[:, :, 0].T.view(np.int8)
        v_ter = raw[:, :, 1].T
        if not name:
            bare[bd] = (board, vasl[n])
            same = int(((v_ter == board.los.terrain) & (v_elev == board.los.elevation)).sum())
            print(f"{bd} bare: {same}/{v_ter.size} pixels equal to LOSData")
            continue
        res = apply_overlays(board, [BoardOverlay(name, f[7], f[8])], (overlays,))
        b = res.board
        px_ok = int(((v_ter == b.los.terrain) & (v_elev == b.los.elevation)).sum())
        diff = np.argwhere((v_ter != b.los.terrain) | (v_elev != b.los.elevation))
        tot_px += v_ter.size
        tot_px_ok += px_ok
        names = {(h.col, h.row): h for h in b.hexes.values()}
        base_board, base_vasl = bare.get(bd, (None, {}))
        ok = reader = 0
        bad: list[str] = []
        for key, (hname, terr, level) in vasl[n].items():
            h = names.get(key)
            if h is None:
                continue
            if (h.terrain.name, h.elevation) == (terr, level):
                ok += 1
                continue
            bv = base_vasl.get(key)
            bh = base_board.hexes.get(hname) if base_board is not None else None
            if bv is not None and bh is not None and (bh.terrain.name, bh.elevation) != (bv[1], bv[2]):
                reader += 1  # the hex readers differ on the bare board already
                continue
            bad.append(f"{hname} VASL {terr}@{level} project {h.terrain.name}@{h.elevation}")
        tot_hex += len(vasl[n])
        tot_hex_ok += ok
        tot_reader += reader
        where = f" first pixel differences {[(int(x), int(y)) for y, x in diff[:3]]}" if len(diff) else ""
        print(f"{bd} {name} ({f[7]}-{f[8]}, {f[2]} at {f[3]},{f[4]}): pixels {px_ok}/{v_ter.size}{where}; hexes "
              f"{ok}/{len(vasl[n])} equal, {reader} differ bare too, {len(bad)} differ: {bad[:4]}")
    print(f"TOTAL pixels {tot_px_ok}/{tot_px}; hexes {tot_hex_ok}/{tot_hex} equal, {tot_reader} differ on the bare "
          f"board too (hex reader), {tot_hex - tot_hex_ok - tot_reader} differ")


def main(argv: list[str]) -> int:
    if argv[0] == "placements-compare":
        placements_compare(Path(argv[1]), Path(argv[2]))
        return 0
    cmd, boards, overlays, *rest = argv
    shared = [a for a in rest if a.endswith(".xml")]
    others = [a for a in rest if not a.endswith(".xml")]
    if cmd == "specs":
        specs(Path(boards), Path(overlays), shared)
    elif cmd == "placements":
        placements(Path(boards), Path(overlays), shared)
    else:
        compare(Path(boards), Path(overlays), shared, Path(others[0]), Path(others[1]), Path(others[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
