"""Benchmarks of the VASL readers, each beside a straightforward reference, measured in one run.

1. Whole VASL 6.5 buildFile (3.2 MB, 5,445 PieceSlots): lxml ``iterparse`` +
   one-pass trait-chain split (``read_module``) vs ``xml.etree.ElementTree``
   + the general level-by-level SequenceEncoder decoder.
2. bd01 LOSData → per-hex terrain: numpy (``decode_losdata`` +
   ``derive_hexes``; cold = the pixel→hex label grid computed, warm = cached,
   as for every further geomorphic board) vs a per-pixel Python loop, and
   VASL's hex-terrain rules alone (``vasl_centre_terrain``) vs a plain
   per-hex Python translation of ``VASL.LOS.Map.Hex.resetTerrain`` (which
   must give the same terrain and elevation for every hex).
3. SSR terrain changes on bd01 (``apply_ssr``) beside reading the board:
   no SSR (must cost nothing), terrain and stairway rules, and the PTO
   rules that fill hexes (dense jungle, swamp) and woods-road centres.
4. Overlays on bd01 (``apply_overlays``, VASL's overlay archives) beside
   reading the board: a one-hex woods overlay and a hill across the board's
   corner (the hex pass walks the whole board from its corner).

Run: ``python bench/bench_vasl.py [path/to/shared/vasl]``.
"""

from __future__ import annotations

import gzip
import struct
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from asl_vassal_bridge.vasl import board as vboard
from asl_vassal_bridge.vasl.board_hexes import _labels
from asl_vassal_bridge.vasl.board_losdata import _unframe
from asl_vassal_bridge.vasl.module import parse_piece_text, read_module
from asl_vassal_bridge.vasl.safe import Archive
from asl_vassal_bridge.vasl.terrain import read_terrain_types
from asl_vassal_bridge.vasl.traits import _decode_traits_general

VASL = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / ".." / "shared" / "vasl"


def best(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Best wall time of *repeat* runs (the machine is shared) and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def etree_reference(path: Path) -> int:
    """ElementTree parse, recursive walk keeping the palette path, general trait decoder."""
    root = ET.parse(path).getroot()
    n = 0

    def walk(el: ET.Element, where: tuple[str, ...]) -> None:
        nonlocal n
        for child in el:
            tag = child.tag
            if tag in ("VASSAL.build.widget.PieceSlot", "VASSAL.build.module.PrototypeDefinition"):
                t, s = parse_piece_text(child.text or "")
                _decode_traits_general(t, s)
                n += 1
            name = child.get("entryName") or child.get("name")
            walk(child, (*where, name) if name else where)

    walk(root, ())
    return n


def per_pixel_reference(los_gz: bytes, geo: vboard.BoardGeometry) -> dict[int, dict[int, int]]:
    """Decode LOSData and bin every pixel into its nearest hex with plain Python loops."""
    raw = gzip.decompress(los_gz)
    payload = _unframe(raw, "LOSData")
    _w, _h, gw, gh = struct.unpack_from(">4i", payload, 0)
    centres = [geo.centre(c, r) for c, r, _ in geo.hexes()]
    by_col: dict[int, list[tuple[int, float]]] = {}
    for i, (c, r, _) in enumerate(geo.hexes()):
        by_col.setdefault(c, []).append((i, geo.centre(c, r)[1]))
    hist: dict[int, dict[int, int]] = {}
    for x in range(gw):
        c0 = int((x - geo.a1_x) // geo.hex_width)
        for y in range(gh):
            code = payload[16 + 2 * (x * gh + y) + 1]
            best_i, best_d = -1, float("inf")
            for c in (c0, c0 + 1):
                for i, cy in by_col.get(c, ()):
                    cx = centres[i][0]
                    d = (x - cx) ** 2 + (y - cy) ** 2
                    if d < best_d:
                        best_i, best_d = i, d
            h = hist.setdefault(best_i, {})
            h[code] = h.get(code, 0) + 1
    return hist


def vasl_rules_reference(los: vboard.LOSData, geo: vboard.BoardGeometry,
                         table: Any) -> list[tuple[int, int]]:
    """Each hex's (terrain code, elevation) by a line-by-line Python reading of VASL 6.7.x's ``Hex.resetTerrain``
    (centre terrain and base level; the Location chains and bridges are checked against VASL itself by
    ``scripts/compare_vasl_terrain.py``)."""
    import math

    gw, gh = geo.grid_width, geo.grid_height
    ter = los.terrain.tolist()
    elev = los.elevation.tolist()

    def fix(v: float, size: int) -> float:
        v = 0.0 if v == -1.0 else v
        return size - 1.0 if int(v) in (size, size + 1) else v

    def cat(code: int) -> str:
        return str(table[code].los_category).upper()

    open_ground = next(c for c, t in table.by_code.items() if t.name == "Open Ground")
    out = []
    vo = geo.hex_height / 2.0
    ho = math.cos(math.radians(30.0)) * vo
    side = geo.hex_width * 2.0 / 3.0
    for col, row, _ in geo.hexes():
        x, y = geo.centre(col, row)
        cx, cy = int(fix(x, gw)), int(fix(y, gh))
        pts = [(int(x), int(-vo + y + 1)), (int(ho + x - 1), int(-vo / 2 + y + 1)),
               (int(ho + x - 1), int(vo / 2 + y - 1)), (int(x), int(vo + y - 1)),
               (int(-ho + x + 1), int(vo / 2 + y - 1)), (int(-ho + x + 1), int(-vo / 2 + y + 1))]
        pts = [(int(fix(px, gw)), int(fix(py, gh))) for px, py in pts]
        on = [True] * 6  # the runtime grid configuration matches none of Hex.setHexFlags' cases
        code, level = ter[cy][cx], elev[cy][cx]
        for k, (dx, dy) in enumerate(((1, -1), (1, 1), (-1, 1), (-1, -1))):
            if 0 <= cx + dx < gw and 0 <= cy + dy < gh:
                ex, ey = (-1, 1) if k == 3 else (dx, dy)  # getnearcenterLocationElevation's last point
                code, level = ter[cy + dy][cx + dx], elev[cy + ey][cx + ex]
                break
        if cat(code) not in ("BUILDING", "FACTORY", "MARKETPLACE"):
            for px, py in pts:
                if 0 <= px < gw and 0 <= py < gh and cat(ter[py][px]) in ("BUILDING", "FACTORY", "MARKETPLACE"):
                    code = ter[py][px]
                    break
        if cat(code) not in ("BUILDING", "FACTORY", "MARKETPLACE"):
            probe = code
            for dx, dy in ((5, 0), (-5, 0), (0, 5), (0, -5)):
                px, py = cx + dx, cy + dy
                if 0 <= px < gw and 0 <= py < gh and cat(ter[py][px]) in ("BUILDING", "FACTORY", "MARKETPLACE"):
                    probe = ter[py][px]
            code = probe
        if cat(code) == "MARKETPLACE":
            code = open_ground
        vx = [math.floor(fix(v, gw) + 0.5)
              for v in (x - side / 2, x + side / 2, x + side, x + side / 2, x - side / 2, x - side)]
        vy = [math.floor(fix(v, gh) + 0.5) for v in (y - vo, y - vo, y, y + vo, y + vo, y)]
        found = None
        for px in range(min(vx), max(vx)):
            if found is not None or px >= gw:
                break
            for py in range(min(vy), max(vy)):
                if not (0 <= px < gw and 0 <= py < gh) or not table[ter[py][px]].inherent:
                    continue
                d = (px - cx) ** 2 + (py - cy) ** 2
                if all(not on[k] or (px - sx) ** 2 + (py - sy) ** 2 >= d for k, (sx, sy) in enumerate(pts)):
                    found = ter[py][px]
                    break
        out.append((found if found is not None else code, level))
    return out


def main() -> None:
    build = VASL / "buildFile-6.5.xml"
    bd01 = VASL / "boards" / "bd01"
    if not build.exists() or not bd01.exists():
        sys.exit(f"real VASL data not found in {VASL}")
    print(f"VASL data: {VASL.resolve()}")

    t_lxml, idx = best(lambda: read_module(build))
    t_et, n = best(lambda: etree_reference(build), repeat=2)
    print(f"buildFile 6.5 parse+index ({len(idx.slots)} slots, {len(idx.prototypes)} prototypes): "
          f"lxml {t_lxml:.3f} s, ElementTree reference {t_et:.3f} s ({n} pieces) → {t_et / t_lxml:.1f}× faster")

    table = read_terrain_types(VASL / "SharedBoardMetadata.xml")
    arc = Archive(bd01)
    los_gz = arc.read("LOSData")
    meta = vboard.parse_board_metadata(arc.read("BoardMetadata.xml"), "bd01")

    def numpy_cold() -> int:
        _labels.cache_clear()
        los = vboard.decode_losdata(los_gz, "LOSData")
        hexes, _ = vboard.derive_hexes(los, vboard.geometry_for(meta, los), table, meta, "bd01")
        return len(hexes)

    def numpy_warm() -> int:
        los = vboard.decode_losdata(los_gz, "LOSData")
        hexes, _ = vboard.derive_hexes(los, vboard.geometry_for(meta, los), table, meta, "bd01")
        return len(hexes)

    t_cold, nh = best(numpy_cold)
    t_warm, _ = best(numpy_warm)
    los = vboard.decode_losdata(los_gz, "LOSData")
    geo = vboard.geometry_for(meta, los)
    t_ref, hist = best(lambda: per_pixel_reference(los_gz, geo), repeat=1)
    print(f"bd01 LOSData → hex terrain ({nh} hexes, {los.grid_width}×{los.grid_height} px): numpy cold "
          f"{t_cold:.3f} s, warm {t_warm:.3f} s; per-pixel Python loop {t_ref:.3f} s ({len(hist)} hexes) "
          f"→ {t_ref / t_cold:.0f}× (cold), {t_ref / t_warm:.0f}× (warm) faster")

    t_rules, (codes, elevs) = best(lambda: vboard.vasl_centre_terrain(los, geo, table))
    t_rules_ref, ref = best(lambda: vasl_rules_reference(los, geo, table), repeat=1)
    same = ref == list(zip(codes.tolist(), elevs.tolist(), strict=True))
    print(f"bd01 VASL hex-terrain rules (centre point, building off the centre, inherent scan): numpy "
          f"{t_rules:.3f} s; per-hex Python reading of Hex.resetTerrain {t_rules_ref:.3f} s "
          f"→ {t_rules_ref / t_rules:.0f}× faster; same terrain and elevation on every hex: {same}")
    if not same:
        sys.exit("the numpy rules and the per-hex reference disagree")

    from asl_vassal_bridge.vasl.ssr import apply_ssr

    t_read, board = best(lambda: vboard.read_board_archive(Archive(bd01), "bd01", table))
    t_none, same_board = best(lambda: apply_ssr(board, "").board)
    t_maps, _ = best(lambda: apply_ssr(board, "NoGrain LightWoods NoStairwells"))
    t_pto, _ = best(lambda: apply_ssr(board, "DenseJungle SwampToSwampPattern NoWoodsRoads"))
    print(f"bd01 SSR terrain changes beside reading the board ({t_read:.3f} s): none {t_none * 1e6:.0f} µs "
          f"(the same board back: {same_board is board}); NoGrain LightWoods NoStairwells {t_maps:.3f} s "
          f"({t_maps / t_read:.2f}× a read); DenseJungle SwampToSwampPattern NoWoodsRoads {t_pto:.3f} s "
          f"({t_pto / t_read:.2f}× a read)")

    from asl_vassal_bridge.vasl.overlay import apply_overlays, overlay_dirs
    from asl_vassal_bridge.vasl.vsav import BoardOverlay

    dirs = overlay_dirs(VASL / "boards")
    if not (dirs[0] / "ovrWD").is_file() or not (dirs[0] / "ovrH").is_file():
        print(f"overlays: no ovrWD/ovrH in {dirs[0]} (skipped)")
        return
    t_wd, _ = best(lambda: apply_overlays(board, [BoardOverlay("wd1", "E5", "E5")], dirs))
    t_h1, _ = best(lambda: apply_overlays(board, [BoardOverlay("h1", "G4", "G5")], dirs))
    print(f"bd01 overlays beside reading the board ({t_read:.3f} s): wd1 {t_wd:.3f} s ({t_wd / t_read:.2f}× a read); "
          f"h1 {t_h1:.3f} s ({t_h1 / t_read:.2f}× a read)")


if __name__ == "__main__":
    main()
