"""Issue 23: VASL's own unit pictures, the CX mark and a canvas that grows when zooming into a strip map.

The unit pictures come from real VASL data (``../shared/vasl``: the saved game's pieces, the 6.5 buildFile);
VASL's images are not in ``../shared``, so the test module's images are squares of known colours
(:mod:`tests.unit_art`).
"""

from __future__ import annotations

import io
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from asl_fire_widget import FireWidget
from asl_fire_widget.drawing import draw_fires
from PIL import Image

from asl_vassal_bridge.core import Phase
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.mapview import MARKS, counter_boxes, counters_in, unit_image_key
from tests import unit_art
from tests.unit_art import COLOURS, HALF_SQUAD, LEADER, VEHICLE

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    d = tmp_path_factory.mktemp("units")
    return unit_art.write_game(d), unit_art.write_boards(d), unit_art.write_module(d)


class Recorder:
    """A canvas that records the pictures drawn on it (every other call is accepted and ignored)."""

    def __init__(self) -> None:
        self.images: list[tuple[Any, float, float, float, float]] = []

    def draw_image(self, image: Any, x: float, y: float, w: float, h: float) -> None:
        self.images.append((image, x, y, w, h))

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: None


def _centre_rgb(png: bytes) -> tuple[int, int, int]:
    im = Image.open(io.BytesIO(png)).convert("RGB")
    r, g, b = im.getpixel((im.width // 2, im.height // 2))  # type: ignore[misc]
    return int(r), int(g), int(b)


def test_a_saved_games_units_are_drawn_in_vasls_own_pictures_in_the_widget(game: tuple[Path, Path, Path]) -> None:
    vsav, boards, vmod = game
    w = FireWidget.from_file(vsav, boards, seed=1, vasl=vmod)
    units = {u.id: u for u in w.session.position.units}
    assert set(units) == {HALF_SQUAD, LEADER, VEHICLE}
    pictures = {uid: w.counter_images[unit_image_key(u)] for uid, u in units.items()}
    # Each picture is the piece's own: the half-squad's face drawn over its squad's, the leader, the vehicle.
    assert _centre_rgb(pictures[HALF_SQUAD].value) == COLOURS["ru/ru226H"]
    assert _centre_rgb(pictures[LEADER].value) == COLOURS["ru/ruL61"]
    assert _centre_rgb(pictures[VEHICLE].value) == COLOURS["ru/veh/kom"]
    assert "3 of 3 units in VASL's own pictures" in "\n".join(w.session.log)
    # …drawn where the unit's counter is.
    hits: list[Any] = []
    rec = Recorder()
    w.set_view(1.0, (0.0, 0.0))
    draw_fires(rec, w.session.position, w.geo, images=w.counter_images, hits=hits)
    for box in hits:
        assert (pictures[box.unit_id], box.x, box.y, box.side, box.side) in rec.images


def test_a_unit_whose_counter_changed_is_drawn_in_its_sides_colour(game: tuple[Path, Path, Path]) -> None:
    vsav, boards, vmod = game
    w = FireWidget.from_file(vsav, boards, seed=1, vasl=vmod)
    pos = w.session.position
    hs = next(u for u in pos.units if u.id == HALF_SQUAD)
    broken = replace(hs, broken=True)  # broken since: the saved picture shows its Good Order side
    assert unit_image_key(broken) not in w.counter_images and unit_image_key(hs) in w.counter_images


def test_a_module_without_the_images_leaves_side_coloured_counters(game: tuple[Path, Path, Path],
                                                                    tmp_path: Path) -> None:
    vsav, boards, _ = game
    w = FireWidget.from_file(vsav, boards, seed=1, vasl=unit_art.write_module(tmp_path, images={}))
    assert not any(k.startswith("unit:") for k in w.counter_images)
    assert "0 of 3 units in VASL's own pictures" in "\n".join(w.session.log)


def test_a_live_pieces_picture_takes_what_it_lacks_from_the_modules_slot(game: tuple[Path, Path, Path]) -> None:
    from asl_vassal_bridge.vasl.unitart import UnitArt, picture_names
    from asl_vassal_bridge.vasl.units import piece_dict
    from asl_vassal_bridge.vasl.vsav import read_vsav

    _, _, vmod = game
    art = UnitArt(vmod)
    saved = {p.id: piece_dict(p) for p in read_vsav(unit_art.shared_vasl_file("saves", "basic.vsav")).pieces}
    hs = saved[HALF_SQUAD]
    assert picture_names(hs) == ("ru/ru426S", "ru/ru226H")  # its own: the squad face, the half-squad's over it
    # A snapshot's piece carries its Layers but not its BasicPiece: that image comes from the slot (gpid 687).
    live_vehicle = {k: v for k, v in saved[VEHICLE].items() if k != "image"}
    assert art.names_for(live_vehicle) == ("ru/veh/kom",)
    # A piece naming no image the module has: the module slot's picture, by gpid.
    bare = {"id": "x", "gpid": "463", "name": "6+1", "layers": []}
    assert art.names_for(bare) == ("ru/ruL61",)
    pic = art.picture(art.names_for(bare))
    assert pic is not None and _centre_rgb(pic.png) == COLOURS["ru/ruL61"]
    assert art.picture(("no/such/image",)) is None


def test_the_cli_picture_draws_the_units_pictures_and_the_cx_mark(game: tuple[Path, Path, Path],
                                                                   tmp_path: Path) -> None:
    from asl_vassal_bridge.cli import main
    from asl_vassal_bridge.loading import load_position
    from asl_vassal_bridge.render import MARGIN, TOP

    vsav, boards, vmod = game
    out = tmp_path / "heat.png"
    assert main(["forecast", str(vsav), "--boards", str(boards), "--vasl", str(vmod), "--turns", "0",
                 "--trials", "1", "--seed", "1", "--png", str(out)]) == 0
    pos = load_position(vsav, boards, vmod)
    pts = [h.pixel() for h in pos.map.hexes]
    x0 = min(p[0] for p in pts) - 37.5
    y0 = min(p[1] for p in pts) - 32.25
    pic = Image.open(out).convert("RGB")
    stacks = counters_in(pos)
    want = {HALF_SQUAD: COLOURS["ru/ru226H"], LEADER: COLOURS["ru/ruL61"], VEHICLE: COLOURS["ru/veh/kom"]}
    for u in pos.units:
        stack = stacks[u.location.hex]
        k = next(i for i, c in enumerate(stack) if c.unit is not None and c.unit.id == u.id)
        cx, cy = u.location.hex.pixel()
        x, y, side = counter_boxes(len(stack), cx - x0 + MARGIN, cy - y0 + TOP, 1.0)[k]
        assert pic.getpixel((round(x + side * 0.3), round(y + side * 0.7))) == want[u.id], u.name
        if u.id == HALF_SQUAD:  # VASL's CX counter lies on it: the CX mark in its corner (A4.51)
            assert u.cx
            assert pic.getpixel((round(x + side * 0.93), round(y + side * 0.05))) == MARKS["cx"][0]


def test_zooming_into_a_strip_map_gives_the_canvas_the_height_the_map_needs() -> None:
    from mapgen import ten_board_position

    w = FireWidget.from_position(ten_board_position(), seed=1)
    w.resize(870, 800)
    base = w.view[1]
    assert base <= w.geo.height + 40  # at first sight the strip fits: no empty band
    heights = []
    for _ in range(6):
        w.zoom_by(1.5)
        heights.append(w.view[1])
        assert w.canvas.height == w.view[1] == w.geo.view_h
    # the canvas grows with the map's height at each zoom, up to the room the window leaves (800 − 280)
    assert heights == sorted(heights) and heights[0] > base and heights[-1] == 520
    assert all(h == min(520, w.geo.height_at(s)) or h == 520
               for h, s in zip(heights, [w.fit_scale * 1.5 ** k for k in range(1, 7)], strict=True))
    for _ in range(8):
        w.zoom_by(1 / 1.5)
    assert w.view[1] == base  # zoomed out again: the fitted canvas
    fixed = FireWidget.from_position(ten_board_position(), seed=1, view=(870, 200))
    fixed.zoom_by(4.0)
    assert fixed.view == (870, 200)  # a size the caller fixed stays


def test_the_widgets_attack_takes_cx_from_the_selected_unit() -> None:
    from asl_fire_widget import FireSession

    from tests.core.test_cx import _demo_with_cx

    s = FireSession(_demo_with_cx(), seed=3)
    pv = s.set_attack(firer_unit="g3", target="I5.1", fp=4, phase=Phase.PFPH)
    assert pv.legal, pv.refusal
    # dr ≤ 3 with +1 vs a non-AFV and +1 for the CX thrower (A22.611): 1 and 2 succeed
    assert pv.mol_check_chance == Fraction(1, 3) - Fraction(1, 6)
    assert any(d.reason == "CX firer" and d.rule == "A4.51" for d in pv.drms)
    s.select_unit("g3")
    assert "(CX)" in s.log[-1]
