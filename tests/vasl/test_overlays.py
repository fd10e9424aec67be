"""Issue 20: board overlays applied as VASL 6.7.x's ``ASLMap.adjustLOSForOverlays`` applies them.

One test per rule of VASL's procedure, on a small board and overlay archives built here: a colour's terrain
and level, the nearest colour for a colour without them, transparent pixels beside the art, depression
terrain, hexside terrain, building overlays, inherent terrain filling its hex, the hex pass's highest level,
hillocks, elevation kept, orientation, and each exception (underlays, NoCliffs, LightWoods, RB_Gutted, a
missing archive, rice paddies).  Then VASL's own overlay archives on board 01 (../shared/vasl).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from PIL import Image

from asl_vassal_bridge.vasl.board import VaslBoard, read_board
from asl_vassal_bridge.vasl.overlay import (
    RICE_PADDY_NOTE,
    OverlayError,
    PlacedOverlay,
    apply_entry,
    apply_overlays,
    archive_name,
    overlay_dirs,
    overlay_terrain_type,
)
from asl_vassal_bridge.vasl.terrain import TerrainTable, terrain_types_from_xml
from asl_vassal_bridge.vasl.vsav import BoardEntry, BoardOverlay

from .builders import blank_grid, board_archive
from .conftest import vasl_file

#: name, typeCode, LOSCategory, inherent (as SharedBoardMetadata.xml has them).
TYPES = (("Open Ground", 0, "OPEN", False), ("Gully", 30, "DEPRESSION", False),
         ("Stone Building", 40, "BUILDING", False), ("Wooden Building", 50, "BUILDING", False),
         ("Woods", 60, "WOODS", False), ("Orchard", 63, "OTHER", True), ("Wall", 72, "HEXSIDE", False),
         ("Hillock", 120, "OTHER", True), ("Brush", 12, "OTHER", False), ("Bamboo", 14, "OTHER", False),
         ("Rice Paddy, Irrigated", 137, "OTHER", False))
#: name, RGB, terrain, level (as SharedBoardMetadata's <colors>): the first of a repeated RGB wins.
COLOURS = (("Black", (0, 0, 0), "UNKNOWN", "UNKNOWN"), ("White", (255, 255, 255), "UNKNOWN", "UNKNOWN"),
           ("L0Winter", (255, 255, 255), "Open Ground", "0"), ("Level0", (175, 188, 106), "Open Ground", "0"),
           ("Level1", (176, 147, 70), "Open Ground", "1"), ("Level2", (147, 111, 31), "Open Ground", "2"),
           ("WoodsGreen", (0, 128, 0), "Woods", "UNKNOWN"), ("Orchard", (0, 200, 0), "Orchard", "0"),
           ("Gully", (120, 80, 40), "Gully", "UNKNOWN"), ("WallGrey", (90, 90, 90), "Wall", "UNKNOWN"),
           ("StoneBldg", (130, 130, 130), "Stone Building", "UNKNOWN"),
           ("Hillock", (200, 170, 90), "Hillock", "UNKNOWN"), ("BrushL0", (123, 165, 85), "Brush", "0"),
           ("RicePaddy", (103, 75, 39), "Rice Paddy, Irrigated", "UNKNOWN"),
           ("Mystery", (1, 2, 3), "UNKNOWN", "UNKNOWN"))
OG, L1, L2 = (175, 188, 106), (176, 147, 70), (147, 111, 31)
WOODS, ORCHARD, GULLY, WALL, STONE, HILLOCK = (0, 128, 0), (0, 200, 0), (120, 80, 40), (90, 90, 90), (130, 130, 130), \
    (200, 170, 90)
#: Hex centres of the 7 × 4 test board (board pixels).
C = {"B2": (56, 129), "C2": (112, 97), "C3": (112, 161), "D2": (169, 129), "D3": (169, 194), "E2": (225, 97),
     "E3": (225, 161), "F2": (281, 129)}


def shared_xml() -> bytes:
    types = "".join(f'<terrainType name="{n}" typeCode="{c}" LOSCategory="{cat}" isInherentTerrain="{str(i).upper()}"'
                    ' height="0"/>' for n, c, cat, i in TYPES)
    colours = "".join(f'<color name="{n}" red="{r}" green="{g}" blue="{b}" terrain="{t}" elevation="{e}"/>'
                      for n, (r, g, b), t, e in COLOURS)
    return f"<boardData><colors>{colours}</colors><terrainTypes>{types}</terrainTypes></boardData>".encode()


TABLE = terrain_types_from_xml(shared_xml(), "SharedBoardMetadata.xml")


def gif(rgba: npt.NDArray[np.uint8]) -> bytes:
    """A GIF of an RGBA picture (alpha 0: the transparent colour, as VASL's overlay art has it)."""
    h, w = rgba.shape[:2]
    colours = sorted({tuple(int(v) for v in px[:3]) for px in rgba.reshape(-1, 4) if px[3]})
    index = {c: i + 1 for i, c in enumerate(colours)}
    pal = np.zeros((h, w), dtype=np.uint8)
    for y in range(h):
        for x in range(w):
            if rgba[y, x, 3]:
                pal[y, x] = index[tuple(int(v) for v in rgba[y, x, :3])]
    im = Image.fromarray(pal, "P")
    im.putpalette([255, 0, 255] + [v for c in colours for v in c] + [0] * (3 * (255 - len(colours))))
    out = io.BytesIO()
    im.save(out, "GIF", transparency=0)
    return out.getvalue()


def picture(w: int = 120, h: int = 170) -> npt.NDArray[np.uint8]:
    return np.zeros((h, w, 4), dtype=np.uint8)


def paint(p: npt.NDArray[np.uint8], rgb: tuple[int, int, int], ys: slice, xs: slice) -> None:
    p[ys, xs, :3] = rgb
    p[ys, xs, 3] = 255


def disc(p: npt.NDArray[np.uint8], rgb: tuple[int, int, int], cx: float, cy: float, r: float) -> None:
    yy, xx = np.ogrid[:p.shape[0], :p.shape[1]]
    m = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
    p[m, :3] = rgb
    p[m, 3] = 255


def overlay_archive(folder: Path, name: str, pictures: Mapping[str, npt.NDArray[np.uint8]],
                    origins: str = "b2;b1;c1;d1;d2;c3") -> Path:
    """An overlay archive as VASL's boards/overlays folder holds it: ``data`` (origin hexes per orientation)
    and one GIF per orientation (``ovr<name><a…f>.gif``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / archive_name(name)
    with zipfile.ZipFile(path, "a" if path.exists() else "w") as z:
        z.writestr("data", f"{name} {origins}\n\nversion 1\n")
        for orient, p in pictures.items():
            z.writestr(f"ovr{name}{orient}.gif", gif(p))
    return path


@pytest.fixture()
def board(tmp_path: Path) -> VaslBoard:
    """A 7 × 4-hex board of Open Ground at level 0, with a level-1 patch in D3 off its centre."""
    ter, elev = blank_grid(7, 4)
    elev[200:206, 150:156] = 1  # inside D3, 6+ pixels below-left of its centre
    (tmp_path / "boards").mkdir()
    path = tmp_path / "boards" / "bdT"
    path.write_bytes(board_archive(ter, elev, 7, 4, name="T"))
    return read_board(path, TABLE)


def ovr_dir(tmp_path: Path) -> tuple[Path, ...]:
    return overlay_dirs(tmp_path / "boards")


def at(b: VaslBoard, x: int, y: int) -> tuple[str, int]:
    return TABLE[int(b.los.terrain[y, x])].name, int(b.los.elevation[y, x])


def single(tmp_path: Path, name: str, p: npt.NDArray[np.uint8]) -> None:
    """A one-hex overlay *name* (picture ``a`` only) whose picture's top-left pixel lies B2's centre from hex 1's."""
    overlay_archive(tmp_path / "boards" / "overlays", name, {"a": p})


# --- pixel pass: colour → terrain and level ---------------------------------------------------------------


def test_an_opaque_pixel_takes_its_colours_terrain_and_level(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, WOODS, 56, 129, 20)  # the picture's B2 centre: on the board, hex 1's centre
    disc(p, L2, 56, 129, 8)
    single(tmp_path, "t1", p)
    res = apply_overlays(board, [BoardOverlay("t1", "E3", "E3")], ovr_dir(tmp_path))
    b = res.board
    x, y = C["E3"]
    assert at(b, x, y) == ("Open Ground", 2)            # Level2: Open Ground at level 2
    assert at(b, x + 15, y) == ("Woods", 0)              # WoodsGreen: Woods, no level of its own → the board's
    assert b.hex("E3").terrain.name == "Open Ground" and b.hex("E3").elevation == 2
    assert [o.label() for o in res.applied] == ["t1 (E3)"]
    assert res.notes() == ["board T: overlay t1 (E3) applied to the terrain as VASL 6.7.x applies them"]
    assert at(b, *C["C2"]) == at(board, *C["C2"])        # off the picture: untouched


def test_a_colour_without_terrain_takes_the_nearest_colours_and_white_is_open_ground(board: VaslBoard,
                                                                                     tmp_path: Path) -> None:
    p = picture()
    disc(p, WOODS, 56, 129, 20)
    paint(p, (1, 2, 3), slice(129, 130), slice(40, 50))    # a colour with no terrain, inside the woods
    paint(p, (255, 255, 255), slice(100, 103), slice(10, 13))  # white alone: its neighbours are transparent
    disc(p, (255, 255, 255), 90, 40, 6)
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "E3", "E3")], ovr_dir(tmp_path)).board
    ox, oy = C["E3"][0] - 56, C["E3"][1] - 129
    assert at(b, ox + 45, oy + 129)[0] == "Woods"
    assert at(b, ox + 90, oy + 40) == ("Open Ground", 0)   # white among white: L0Winter's Open Ground, level 0


def test_a_transparent_pixel_beside_the_art_takes_the_terrain_two_pixels_away(board: VaslBoard,
                                                                              tmp_path: Path) -> None:
    p = picture()
    paint(p, WOODS, slice(100, 130), slice(30, 60))
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "E3", "E3")], ovr_dir(tmp_path)).board
    ox, oy = C["E3"][0] - 56, C["E3"][1] - 129
    assert at(b, ox + 28, oy + 110)[0] == "Woods"          # transparent, (+2, +2) away is woods
    assert at(b, ox + 22, oy + 110)[0] == "Woods"          # (+8, +8) away
    assert at(b, ox + 61, oy + 110)[0] == "Open Ground"    # VASL looks down-right first: transparent there
    assert at(b, ox + 15, oy + 110)[0] == "Open Ground"    # 15 pixels off: left alone


def test_depression_terrain_lies_at_level_minus_one(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, GULLY, 56, 129, 28)
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "C3", "C3")], ovr_dir(tmp_path)).board
    assert at(b, *C["C3"]) == ("Gully", -1)
    assert (b.hex("C3").terrain.name, b.hex("C3").elevation) == ("Gully", -1)


def test_hexside_terrain_along_a_hexside(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    paint(p, WALL, slice(94, 99), slice(40, 73))  # along the picture B2's top hexside
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "E3", "E3")], ovr_dir(tmp_path)).board
    assert b.hex("E3").hexsides[0] == "Wall"
    assert board.hex("E3").hexsides[0] is None


def test_building_pixels_of_a_numbered_x_overlay_are_that_overlays_building(board: VaslBoard,
                                                                            tmp_path: Path) -> None:
    p = picture()
    disc(p, STONE, 56, 129, 18)
    overlay_archive(tmp_path / "boards" / "overlays", "x3", {"a": p})
    b = apply_overlays(board, [BoardOverlay("x3", "D2", "D2")], ovr_dir(tmp_path)).board
    assert b.hex("D2").terrain.name == "Wooden Building"   # VASL: overlay x3 is a wooden building
    assert overlay_terrain_type("x3") == "Building"


def test_bamboo_ssr_turns_an_overlays_brush_into_bamboo(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, (123, 165, 85), 56, 129, 20)
    single(tmp_path, "t1", p)
    plain = apply_overlays(board, [BoardOverlay("t1", "E3", "E3")], ovr_dir(tmp_path)).board
    pto = apply_overlays(board, [BoardOverlay("t1", "E3", "E3")], ovr_dir(tmp_path), ssr="Bamboo").board
    assert (plain.hex("E3").terrain.name, pto.hex("E3").terrain.name) == ("Brush", "Bamboo")


def test_elevation_preserved_keeps_the_boards_levels(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, L2, 56, 129, 20)
    disc(p, WOODS, 56, 129, 6)
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "E3", "E3", True)], ovr_dir(tmp_path)).board
    assert at(b, *C["E3"]) == ("Woods", 0)
    assert at(b, C["E3"][0] + 12, C["E3"][1]) == ("Open Ground", 0)  # open colour dropped, level kept


# --- hex pass --------------------------------------------------------------------------------------------


def test_the_hex_pass_writes_each_walked_hexs_highest_level_at_its_centre(board: VaslBoard,
                                                                           tmp_path: Path) -> None:
    """VASL walks the whole board right of and below the picture's corner: D3's centre point (outside the
    picture) gets the level 1 drawn off it; left of the corner it keeps its own."""
    d3 = (168, 193)  # D3's centre point: (168.75, 193.5) truncated
    assert at(board, *d3) == ("Open Ground", 0)
    p = picture()
    disc(p, WOODS, 56, 129, 10)
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "C3", "C3")], ovr_dir(tmp_path)).board
    assert at(b, *d3) == ("Open Ground", 1)
    assert at(b, d3[0] + 1, d3[1] - 1) == ("Open Ground", 0)  # only the centre point
    far = apply_overlays(board, [BoardOverlay("t1", "F2", "F2")], ovr_dir(tmp_path)).board
    assert at(far, *d3) == ("Open Ground", 0)  # left of F2's picture: not walked


def test_inherent_terrain_near_a_hex_centre_fills_the_hex(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, ORCHARD, 56 + 10, 129, 8)  # within 25 pixels of the centre, not on it
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "E3", "E3")], ovr_dir(tmp_path)).board
    x, y = C["E3"]
    assert at(b, x, y)[0] == "Orchard" and at(b, x - 20, y + 20)[0] == "Orchard"
    assert b.hex("E3").terrain.name == "Orchard"


def test_hillock_pixels_are_in_the_hex(board: VaslBoard, tmp_path: Path) -> None:
    """VASL rebuilds its hillocks from the grid's Hillock pixels; the hex reader reads the same pixels."""
    p = picture()
    disc(p, HILLOCK, 56, 129, 24)
    single(tmp_path, "t1", p)
    b = apply_overlays(board, [BoardOverlay("t1", "D2", "D2")], ovr_dir(tmp_path)).board
    assert b.hex("D2").terrain.name == "Hillock"


def test_orientation_from_where_hex_2_lies(board: VaslBoard, tmp_path: Path) -> None:
    a, d = picture(), picture(200)
    disc(a, WOODS, 56, 129, 20)  # orientation a: the top-left pixel lies B2's centre from hex 1's
    disc(d, GULLY, 169, 65, 20)  # orientation d: D1's
    overlay_archive(tmp_path / "boards" / "overlays", "t2", {"a": a, "d": d})
    up = apply_overlays(board, [BoardOverlay("t2", "C3", "C2")], ovr_dir(tmp_path))
    down = apply_overlays(board, [BoardOverlay("t2", "C2", "C3")], ovr_dir(tmp_path))
    assert (up.applied[0].orientation, down.applied[0].orientation) == ("a", "d")
    assert (up.board.hex("C3").terrain.name, down.board.hex("C2").terrain.name) == ("Woods", "Gully")


# --- exceptions ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "why"), [
    ("", "an underlay"), ("NoCliffs_2", "cliffs"), ("LightWoods_1", "LightWoods SSR rule"),
    ("RB_Gutted_1", "gutted factories"),
])
def test_overlays_vasl_leaves_out_are_named_as_not_applied(board: VaslBoard, tmp_path: Path, name: str,
                                                           why: str) -> None:
    res = apply_overlays(board, [BoardOverlay(name, "C2", "C2")], ovr_dir(tmp_path))
    assert res.board is board and not res.applied
    (note,) = res.notes()
    assert "not applied to the terrain" in note and why in note


def test_a_missing_archive_is_named_and_the_rest_applied(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, WOODS, 56, 129, 20)
    single(tmp_path, "t1", p)
    res = apply_overlays(board, [BoardOverlay("wd9", "C2", "C3"), BoardOverlay("t1", "E3", "E3")],
                         ovr_dir(tmp_path))
    assert res.notes() == [
        "board T: overlay t1 (E3) applied to the terrain as VASL 6.7.x applies them",
        f"board T: overlay wd9 (C2-C3) not applied to the terrain: its archive ovrWD is not in "
        f"{tmp_path / 'boards' / 'overlays'}, {tmp_path / 'boards'} (VASL's boards/overlays folder holds it)"]


def test_rice_paddies_are_applied_and_said_to_have_no_los_in_vasl(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, (103, 75, 39), 56, 129, 24)
    overlay_archive(tmp_path / "boards" / "overlays", "rp1", {"a": p})
    res = apply_overlays(board, [BoardOverlay("rp1", "C2", "C2")], ovr_dir(tmp_path))
    assert res.board.hex("C2").terrain.name == "Rice Paddy, Irrigated"
    assert res.notes()[-1] == f"board T: {RICE_PADDY_NOTE}"


def test_an_overlay_vasl_could_not_place_is_one_clear_error(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, WOODS, 56, 129, 20)
    single(tmp_path, "t1", p)
    with pytest.raises(OverlayError, match=r"^board T: overlay t1 \(Z9\): board T: 'Z9' is not a hex of the board$"):
        apply_overlays(board, [BoardOverlay("t1", "Z9", "Z9")], ovr_dir(tmp_path))


def test_apply_entry_applies_ssr_then_overlays_and_says_both(board: VaslBoard, tmp_path: Path) -> None:
    p = picture()
    disc(p, WOODS, 56, 129, 20)
    single(tmp_path, "t1", p)
    entry = BoardEntry(0, 0, "T", overlays=(BoardOverlay("t1", "E3", "E3"), BoardOverlay("LightWoods", "B2", "B2")))
    b, notes = apply_entry(board, entry, tmp_path / "boards")
    assert b.hex("E3").terrain.name == "Woods"
    assert notes == ["board T: overlay t1 (E3) applied to the terrain as VASL 6.7.x applies them",
                     "board T: overlay LightWoods (B2) not applied to the terrain: VASL applies light woods by its "
                     "LightWoods SSR rule, not the overlay"]


# --- VASL's own overlay archives ---------------------------------------------------------------------------

#: Overlays of VASL's archives in ../shared/vasl/boards/overlays put on board 01 (name, hex 1, hex 2), and the
#: terrain VASL 6.7.x's procedure gives the hex under the art's centre with the colours of SharedBoardMetadata.
REAL = (("wd1", "E5", "E5", "E5", "Woods"), ("b1", "N3", "N3", "N3", "Brush"), ("g1", "P5", "P5", "P5", None),
        ("o1", "T4", "T4", "T4", "Orchard"), ("x2", "G8", "G8", "G8", None), ("st1", "K4", "K5", "K5", None),
        ("h3", "X3", "X4", "X4", None), ("rt", "E5", "F5", "F5", None))


@pytest.mark.parametrize(("name", "hex1", "hex2", "probe", "terrain"), REAL)
def test_vasls_own_overlay_archives_on_board_01(name: str, hex1: str, hex2: str, probe: str, terrain: str | None,
                                                bd01: VaslBoard) -> None:
    """Every overlay archive of ../shared/vasl/boards/overlays (woods, brush, grain, orchard, buildings X,
    stream, hills, RT) is placed and applied; the hexes left of and above the art are untouched."""
    boards = vasl_file("boards", "overlays", archive_name(name)).parent.parent
    res = apply_overlays(bd01, [BoardOverlay(name, hex1, hex2)], overlay_dirs(boards))
    (placed,) = res.applied
    b = res.board
    if terrain is not None:
        assert b.hex(probe).terrain.name == terrain
    changed = [n for n, h in b.hexes.items() if (h.terrain.name, h.elevation) != (bd01.hexes[n].terrain.name,
                                                                                  bd01.hexes[n].elevation)]
    assert changed, f"{name} changed no hex"
    for n in changed:
        h = b.hexes[n]
        assert h.x >= placed.x - 40 and h.y >= placed.y - 40, f"{n} changed, above or left of {name}'s picture"


def test_the_hex_pass_names_the_depression_a_hex_centre_remembers(board: VaslBoard, tmp_path: Path) -> None:
    """VASL's hex pass keeps, per hex, the last depression pixel nearest its centre (``setDepressionTerrain``);
    VASL 6.7.x's Hex makes it the centre terrain again when its centre shows other terrain."""
    p = picture()
    disc(p, GULLY, 56 + 6, 129, 4)  # a gully near C3's centre, not on it
    disc(p, WOODS, 56, 129, 2)
    single(tmp_path, "t1", p)
    res = apply_overlays(board, [BoardOverlay("t1", "C3", "C3")], ovr_dir(tmp_path))
    assert res.depressions == {"C3": "Gully"}


def test_on_a_reversed_board_the_hex_pass_walks_from_the_boards_corner(board: VaslBoard, tmp_path: Path) -> None:
    """VASL flips the grids before its hex pass and walks from the flipped picture's corner, counting every board
    1800 × 645 pixels: in the board's own pixels, from its top-left corner to the picture's bottom-right one; on
    this 338-pixel board that corner lies off the board and nothing is walked."""
    p = picture()
    disc(p, WOODS, 56, 129, 10)
    single(tmp_path, "t1", p)
    d3 = (168, 193)
    ahead = apply_overlays(board, [BoardOverlay("t1", "B2", "B2")], ovr_dir(tmp_path)).board
    turned = apply_overlays(board, [BoardOverlay("t1", "B2", "B2")], ovr_dir(tmp_path), reversed_=True).board
    assert at(ahead, *d3) == ("Open Ground", 1)
    assert at(turned, *d3) == ("Open Ground", 0)
    assert at(turned, *C["B2"])[0] == "Woods"  # the pixel pass is the same


def test_a_reversed_geomorphic_board_is_walked_up_to_the_pictures_far_corner(bd01: VaslBoard) -> None:
    from asl_vassal_bridge.vasl.overlay_hex_pass import hex_pass_window

    boards = vasl_file("boards", "overlays", "ovrWD").parent.parent
    (placed,) = apply_overlays(bd01, [BoardOverlay("wd1", "E5", "E5")], overlay_dirs(boards)).applied
    assert hex_pass_window(placed, bd01, False, None) == (placed.x, placed.y, 1800, 645)
    assert hex_pass_window(placed, bd01, True, None) == (0, 0, placed.x + placed.width, placed.y + placed.height)


# --- placement and the hex pass's window as VASL 6.7.x has them (issue 31) ---------------------------------------


def test_placement_is_vasls_grid_point_on_an_odd_and_an_even_column(board: VaslBoard, tmp_path: Path) -> None:
    """VASL puts the picture's corner at ``ASLHexGrid.getLocation(hex 1)`` less the origin hex's: the A1 origin
    cut to (0, 32), each offset rounded on its own.  On an odd column with an odd row that is a pixel above the
    rounded centre (D3: y 193, centre 193.5); on an even column it is the rounded centre (C2: 97, centre 96.75)."""
    p = picture()
    disc(p, WOODS, 56, 129, 10)
    single(tmp_path, "t1", p)  # origin B2: VASL's point (56, 129)
    odd = apply_overlays(board, [BoardOverlay("t1", "D3", "D3")], ovr_dir(tmp_path)).applied[0]
    even = apply_overlays(board, [BoardOverlay("t1", "C2", "C2")], ovr_dir(tmp_path)).applied[0]
    assert (odd.x, odd.y) == (169 - 56, 193 - 129)
    assert (even.x, even.y) == (113 - 56, 97 - 129)


def test_placement_by_an_origin_on_an_odd_row_of_an_odd_column(board: VaslBoard, tmp_path: Path) -> None:
    """The origin hex's point is VASL's too: D1 at y 64 (its centre 64.5), so the picture lies a pixel lower than
    the rounded centres would put it; the two-hex orientation d takes it."""
    a, d = picture(), picture(200)
    overlay_archive(tmp_path / "boards" / "overlays", "t2", {"a": a, "d": d})
    (placed,) = apply_overlays(board, [BoardOverlay("t2", "C2", "C3")], ovr_dir(tmp_path)).applied
    assert placed.orientation == "d"
    assert (placed.x, placed.y) == (113 - 169, 97 - 64)


def test_placement_on_a_board_with_the_alternate_hex_grain(tmp_path: Path) -> None:
    """``altHexGrain``: VASL's grid puts an odd column's hex one row lower (``getLocation``: row − 1.5), hex 1's
    and the origin's alike; the even columns are as on any board."""
    from asl_vassal_bridge.vasl.geometry import BoardGeometry
    from asl_vassal_bridge.vasl.overlay import OverlayArchive, place_overlay

    class Alt:
        name = "alt"
        geometry = BoardGeometry(7, 4, 338, 258, 56.25, 64.5, 0.0, 32.25, alt_grain=True)

    p = picture()
    disc(p, WOODS, 56, 64, 10)
    arc = OverlayArchive.read(overlay_archive(tmp_path, "t1", {"a": p}))
    odd = place_overlay(Alt(), "t1", "D3", "D3", arc)
    even = place_overlay(Alt(), "t1", "C2", "C2", arc)
    assert (odd.x, odd.y) == (169 - 56, 129 - 64)
    assert (even.x, even.y) == (113 - 56, 97 - 64)


def test_the_hex_pass_window_is_the_boards_size_from_the_pictures_corner(board: VaslBoard, tmp_path: Path) -> None:
    """VASL walks a window the size of the board's grid from the picture's top-left corner, clipped to the board:
    a picture reaching 161 pixels above the board ends the walk 161 pixels above the board's lower edge (y 97),
    so D3 (a level-1 patch off its centre, its pixels from y 161) is not walked and keeps level 0 at its centre
    point; a picture 32 pixels above the board lets the walk reach D3."""
    from asl_vassal_bridge.vasl.overlay_hex_pass import hex_pass_window

    p = picture(120, 300)
    disc(p, WOODS, 56, 258, 10)  # at the picture's B4, the data file's origin
    overlay_archive(tmp_path / "boards" / "overlays", "t3", {"a": p}, origins="b4;b1;c1;d1;d2;c3")
    d3 = (168, 193)
    res = apply_overlays(board, [BoardOverlay("t3", "C2", "C2")], ovr_dir(tmp_path))
    (placed,) = res.applied
    assert placed.y == 97 - 258
    gw, gh = board.los.grid_width, board.los.grid_height
    assert hex_pass_window(placed, board, False, None) == (placed.x, 0, gw, gh + placed.y)
    assert at(res.board, *C["C2"])[0] == "Woods"
    assert at(res.board, *d3) == ("Open Ground", 0)
    lower = apply_overlays(board, [BoardOverlay("t3", "C4", "C4")], ovr_dir(tmp_path)).board
    assert at(lower, *d3) == ("Open Ground", 1)


def test_a_cropped_board_is_walked_over_a_window_of_its_crop_size(board: VaslBoard, tmp_path: Path) -> None:
    """On a cropped board VASL's grid is the crop window's: the walk is that size from the picture's corner."""
    from asl_vassal_bridge.vasl.overlay_hex_pass import hex_pass_window

    p = picture()
    disc(p, WOODS, 56, 129, 10)
    single(tmp_path, "t1", p)
    (placed,) = apply_overlays(board, [BoardOverlay("t1", "C2", "C2")], ovr_dir(tmp_path)).applied
    assert (placed.x, placed.y) == (57, -32)
    assert hex_pass_window(placed, board, False, (0, 0, 300, 200)) == (57, 0, 300, 168)
    assert hex_pass_window(placed, board, False, (60, 0, -1, -1)) == (60, 0, 57 + 338 - 60, 258 - 32)


#: Corners VASL's own ``ASLHexGrid`` gives on a geomorphic board (getLocation(hex 1) − getLocation(origin), the
#: grid set up as ``ASLBoard`` sets it up; checked with scripts/realvasl/PlaceOverlays.java): hex 1 on odd and
#: even columns, the bottom row, hills.
VASL_CORNERS = (("x1", "P5", "P5", (788, 193)), ("x12", "W7", "W8", (1069, 355)), ("g2", "M6", "M7", (506, 291)),
                ("st1", "Q3", "Q4", (731, -161)), ("h1", "P5", "P6", (338, -65)), ("h1", "X3", "X4", (788, -194)),
                ("h1", "M6", "M7", (169, -32)), ("h2", "P5", "P6", (619, 32)), ("h3", "M6", "M7", (394, 291)),
                ("h3", "K9", "K10", (282, 484)), ("h3", "C10", "C9", (57, 420)))


@pytest.mark.parametrize(("name", "hex1", "hex2", "corner"), VASL_CORNERS)
def test_vasls_own_overlays_lie_at_vasls_corner(name: str, hex1: str, hex2: str, corner: tuple[int, int],
                                                bd01: VaslBoard) -> None:
    boards = vasl_file("boards", "overlays", archive_name(name)).parent.parent
    (placed,) = apply_overlays(bd01, [BoardOverlay(name, hex1, hex2)], overlay_dirs(boards)).applied
    assert (placed.x, placed.y) == corner


@pytest.fixture(scope="module")
def geo_boards(tmp_path_factory: pytest.TempPathFactory, table: TerrainTable) -> dict[str, VaslBoard]:
    """Geomorphic boards laid out as VASL's bd03, bd04 and bd07 are (33 × 10 hexes, 1800 × 645 pixels), Open
    Ground at level 0 (their archives are not in ../shared/vasl)."""
    d = tmp_path_factory.mktemp("geo")
    ter, elev = blank_grid(33, 10)
    out = {}
    for name in ("03", "04", "07"):
        (d / f"bd{name}").write_bytes(board_archive(ter, elev, 33, 10, name=name))
        out[name] = read_board(d / f"bd{name}", table)
    return out


def _applied(board: VaslBoard, name: str, hex1: str, hex2: str) -> tuple[VaslBoard, PlacedOverlay]:
    boards = vasl_file("boards", "overlays", archive_name(name)).parent.parent
    res = apply_overlays(board, [BoardOverlay(name, hex1, hex2)], overlay_dirs(boards))
    return res.board, res.applied[0]


def test_x1_on_an_odd_column_reads_its_own_level(geo_boards: dict[str, VaslBoard]) -> None:
    """x1 at bd03 P5 (odd column) lies where VASL puts it: P5 is a stone building at level 0 (a pixel lower, P5
    read the art's brown Level3 colour: level 3)."""
    b, placed = _applied(geo_boards["03"], "x1", "P5", "P5")
    assert (placed.x, placed.y) == (788, 193)
    assert (b.hex("P5").terrain.name, b.hex("P5").elevation) == ("Stone Building", 0)


def test_x12_on_an_even_column_by_an_odd_columns_origin(geo_boards: dict[str, VaslBoard]) -> None:
    b, placed = _applied(geo_boards["03"], "x12", "W7", "W8")
    assert (placed.orientation, placed.x, placed.y) == ("d", 1069, 355)
    assert {b.hex(h).terrain.name for h in ("W7", "W8")} == {"Stone Building, 1 Level"}


def test_g2_on_an_even_column_is_grain(geo_boards: dict[str, VaslBoard]) -> None:
    b, placed = _applied(geo_boards["07"], "g2", "M6", "M7")
    assert (placed.x, placed.y) == (506, 291)
    assert (b.hex("M6").terrain.name, b.hex("M7").terrain.name) == ("Grain", "Grain")


def test_st1_reaching_above_the_board_leaves_the_lowest_hexes_unwalked(geo_boards: dict[str, VaslBoard]) -> None:
    """st1 at bd04 Q3–Q4 lies 161 pixels above the board: VASL's hex pass ends at y 484, and Q9 (centre y 548)
    keeps its Open Ground at level 0; Q8, walked, is Shallow Stream at level −1."""
    from asl_vassal_bridge.vasl.overlay_hex_pass import hex_pass_window

    board = geo_boards["04"]
    b, placed = _applied(board, "st1", "Q3", "Q4")
    assert (placed.x, placed.y) == (731, -161)
    assert hex_pass_window(placed, board, False, None) == (731, 0, 1800, 484)
    assert (b.hex("Q8").terrain.name, b.hex("Q8").elevation) == ("Shallow Stream", -1)
    assert (b.hex("Q9").terrain.name, b.hex("Q9").elevation) == ("Open Ground", 0)
