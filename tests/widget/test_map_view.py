"""Issue 13 without a browser: VASL's board art under the grid, counters, zoom and pan, the log, overlays.

The board art comes from the real board archive ``../shared/vasl/boards/bd01`` (skipped, saying why,
without it); VASL counter images from a module archive made here with the real 6.7 Flame/Blaze slots.
"""

from __future__ import annotations

import io
import zipfile
from html import escape
from pathlib import Path
from typing import Any

import pytest
from asl_fire_widget import FireWidget
from asl_fire_widget.drawing import LABEL_SCALE, counter_boxes, heat_label
from asl_fire_widget.widget import HOVER, LOG_PAGE
from ipycanvas.canvas import COMMANDS
from PIL import Image

from asl_vassal_bridge.core import BadInput, BoardPlacement, Fire, FireKind, Location, Position
from asl_vassal_bridge.core.hexes import Direction, Hex
from asl_vassal_bridge.vasl.boardart import board_art, board_art_bytes, counter_images
from asl_vassal_bridge.vasl.counters import FireCounter

from .test_widget_state import Sent, sent  # noqa: F401 - the fixture


def _gif(path: Path) -> Image.Image:
    with zipfile.ZipFile(path) as z:
        return Image.open(io.BytesIO(z.read("bd01.gif"))).convert("RGB")


def _png(art_png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(art_png)).convert("RGB")


@pytest.fixture
def bd01(shared_vasl: Path) -> Path:
    return shared_vasl / "boards" / "bd01"


@pytest.fixture
def board_position(shared_vasl: Path) -> Position:
    from asl_vassal_bridge.vasl.board import default_terrain_table, game_map, read_board

    board = read_board(shared_vasl / "boards" / "bd01", default_terrain_table(shared_vasl))
    gm = game_map([(board, BoardPlacement("01"))])
    pos = Position(gm)
    for name, kind in (("K5", FireKind.BLAZE), ("K5", FireKind.FLAME), ("G6", FireKind.FLAME)):
        loc = gm.parse_location(name)
        if kind is FireKind.FLAME and pos.blaze_at(loc) is not None:
            loc = Location(loc.hex, 1) if Location(loc.hex, 1) in gm.locations(loc.hex) else loc
        pos = pos.add_fire(Fire(loc, kind))
    return pos


# ---------------------------------------------------------------------------
# Board art from the archive


def test_board_art_is_the_archive_picture_placed_as_on_the_map(bd01: Path) -> None:
    src = _gif(bd01)
    art = board_art(bd01, BoardPlacement("01"))
    assert (art.width, art.height, art.origin) == (1800, 645, (0.0, 0.0))
    assert _png(art.png).getpixel((400, 300)) == src.getpixel((400, 300))
    # A board placed second in its row and in the second row starts where its hexes do (Hex.pixel).
    assert board_art(bd01, BoardPlacement("01", x=1, y=1)).origin == (1800.0, 645.0)


def test_a_reversed_board_is_turned_180_degrees(bd01: Path) -> None:
    src = _gif(bd01)
    rev = _png(board_art(bd01, BoardPlacement("01", reversed=True)).png)
    for x, y in ((10, 20), (900, 300), (1700, 600)):
        assert rev.getpixel((x, y)) == src.getpixel((1799 - x, 644 - y))


def test_a_cropped_board_shows_its_crop_rectangle_where_it_lies(bd01: Path) -> None:
    src = _gif(bd01)
    art = board_art(bd01, BoardPlacement("01"), crop=(450, 100, 600, 400))
    assert (art.width, art.height, art.origin) == (600, 400, (450.0, 100.0))
    assert _png(art.png).getpixel((5, 7)) == src.getpixel((455, 107))
    rev = board_art(bd01, BoardPlacement("01", reversed=True), crop=(450, 100, 600, 400))
    assert rev.origin == (1800 - 450 - 600, 645 - 100 - 400)
    assert _png(rev.png).getpixel((5, 7)) == src.getpixel((450 + 599 - 5, 100 + 399 - 7))


def test_an_archive_without_a_picture_is_one_clear_error() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("BoardMetadata.xml", '<boardMetadata name="99" width="33" height="10"/>')
    with pytest.raises(BadInput, match=r"^bd99: no board image in the archive"):
        board_art_bytes(buf.getvalue(), "bd99", BoardPlacement("99"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("BoardMetadata.xml", '<boardMetadata name="99" boardImageFileName="bd99.gif"/>')
        z.writestr("bd99.gif", b"GIF89a not really")
    with pytest.raises(BadInput, match=r"^bd99!bd99.gif: the board image does not decode"):
        board_art_bytes(buf.getvalue(), "bd99", BoardPlacement("99"))


def test_widget_draws_the_board_art_under_the_grid_tints_optional(board_position: Position, shared_vasl: Path,
                                                                   sent: Sent) -> None:  # noqa: F811
    w = FireWidget.from_position(board_position, seed=1, boards=shared_vasl / "boards")
    assert len(w.art) == 1 and not w.tints.value  # the art, no tints by default
    w.redraw()
    assert w.draw_counts["terrain"]["art"] == 1 and w.draw_counts["terrain"]["terrain"] == 0
    draws = [c for m, _ in sent.messages for c in (m if isinstance(m[0], list) else [m])
             if c[0] == COMMANDS["drawImage"]]
    assert draws and draws[0][1][0] == f"IPY_MODEL_{w.art[0].image.model_id}"
    w.tints.value = True
    assert w.draw_counts["terrain"]["terrain"] > 0


def test_missing_board_archive_falls_back_to_tints_and_says_so(board_position: Position, tmp_path: Path) -> None:
    w = FireWidget.from_position(board_position, seed=1, boards=tmp_path)
    assert w.art == [] and w.tints.value
    assert "no archive bd01" in w.session.log[-1]


# ---------------------------------------------------------------------------
# VASL's counter images from the module


def _vmod(shared_vasl: Path, tmp_path: Path) -> Path:
    excerpt = (shared_vasl / "buildFile-6.7.0-fire-slots-excerpt.xml").read_bytes()
    out = tmp_path / "VASL.vmod"
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("buildFile.xml", excerpt)
        for name, colour in (("Flame", (250, 160, 0)), ("Blaze", (200, 20, 10))):
            img = io.BytesIO()
            Image.new("RGB", (48, 48), colour).save(img, "GIF")
            z.writestr(f"images/MS/{name}.gif", img.getvalue())
    return out


def test_counter_images_are_found_by_the_piece_slots_image_names(shared_vasl: Path, tmp_path: Path) -> None:
    found = counter_images(_vmod(shared_vasl, tmp_path))
    assert found[FireCounter.FLAME].image == "MS/Flame" and found[FireCounter.FLAME].format == "gif"
    assert found[FireCounter.BLAZE].slot == "Blaze"
    assert Image.open(io.BytesIO(found[FireCounter.BLAZE].data)).convert("RGB").getpixel((3, 3)) == (200, 20, 10)


def test_widget_draws_vasls_counter_images_from_the_vmod(shared_vasl: Path, tmp_path: Path,
                                                         sent: Sent) -> None:  # noqa: F811
    w = FireWidget.demo(seed=1, vmod=_vmod(shared_vasl, tmp_path))
    assert set(w.counter_images) >= {"flame", "blaze"}
    sent.clear()
    w.redraw()
    images = {c[1][0] for m, _ in sent.messages for c in (m if isinstance(m[0], list) else [m])
              if c[0] == COMMANDS["drawImage"]}
    assert f"IPY_MODEL_{w.counter_images['flame'].model_id}" in images


# ---------------------------------------------------------------------------
# Counters, names, zoom and pan


def test_several_fires_in_one_hex_lie_side_by_side_below_the_hex_name() -> None:
    for n in (1, 2, 3, 4):
        boxes = counter_boxes(n, 100.0, 100.0, 1.0)
        for i, (x, y, s) in enumerate(boxes):
            assert y >= 100 - 14  # below the name band at the top of the hex
            for x2, y2, s2 in boxes[i + 1:]:
                assert x + s <= x2 or x2 + s2 <= x or y + s <= y2 or y2 + s2 <= y  # no overlap


def test_a_blaze_and_flames_on_several_levels_of_one_hex_are_separate_readable_counters() -> None:
    from asl_fire_widget.drawing import counters_in

    w = FireWidget.demo(seed=1)
    s = w.session
    s.level = 1
    s.tool = "blaze"
    s.click(s.position.map.parse_hex("J4"))  # B1 over the ground Blaze and Flame of issue 13's J4
    s.level = 0
    s.tool = "flame"
    s.click(s.position.map.parse_hex("J4"))
    stack = counters_in(s.position)[s.position.map.parse_hex("J4")]
    # the Blaze on level 1 has VASL's white Level counter beside it, and it smokes (B25.2)
    assert [c.text for c in stack] == ["Flame", "Blaze", "Level 1", "Smoke"]
    x, y = w.geo.centre(s.position.map.parse_hex("J4"))
    boxes = counter_boxes(len(stack), x, y, w.geo.scale)
    (x1, y1, side), (x2, y2, _), *_ = boxes
    assert x1 + side <= x2 and y1 == y2 and side >= 14  # side by side, each big enough for its (short) name
    for i, (x, y, side) in enumerate(boxes):
        for x2, y2, s2 in boxes[i + 1:]:
            assert x + side <= x2 or x2 + s2 <= x or y + side <= y2 or y2 + s2 <= y  # no overlap


def test_smoke_and_level_markers_are_counters_of_their_hex() -> None:
    from asl_fire_widget.drawing import counters_in

    from asl_vassal_bridge.core.smoke import fire_smoke

    w = FireWidget.demo(seed=1)
    pos = w.session.position
    stacks = counters_in(pos)
    smoking = fire_smoke(pos)
    assert smoking
    for fs in smoking:  # B25.2: a smoke counter on each smoking Blaze/Burning Wreck and where it drifts
        for h in (fs.location.hex, *fs.drift):
            assert "smoke" in [c.kind for c in stacks[h]]
    for f in pos.fires:
        stack = stacks[f.location.hex]
        assert all(c.kind != "level" or c.level != 0 or c.rooftop for c in stack)
        if f.location.level == 0 and not f.location.rooftop:
            continue
        i = [(c.kind, c.level) for c in stack].index(("blaze" if f.is_blaze else "flame", f.location.level))
        assert stack[i + 1].kind == "level" and stack[i + 1].level == f.location.level  # beside its fire
    w.redraw()
    assert w.draw_counts["fire"]["smoke"] == sum(1 + len(fs.drift) for fs in smoking)


def test_vasls_smoke_and_level_1_images_are_drawn_when_the_vmod_has_them() -> None:
    from asl_fire_widget.drawing import draw_fires

    class Recorder:
        def __init__(self) -> None:
            self.images: list[object] = []

        def draw_image(self, image: object, *args: float) -> None:
            self.images.append(image)

        def __getattr__(self, name: str) -> object:
            return lambda *a, **k: None

        def __setattr__(self, name: str, value: object) -> None:
            object.__setattr__(self, name, value)

    w = FireWidget.demo(seed=1)
    s = w.session
    s.level = 1
    s.tool = "blaze"
    s.click(s.position.map.parse_hex("J4"))
    smoke, level = object(), object()
    canvas = Recorder()
    counts = draw_fires(canvas, s.position, w.geo, images={"smoke": smoke, "level": level})
    assert counts["levels"] >= 1 and smoke in canvas.images and level in canvas.images


def test_up_to_six_counters_in_a_hex_stay_inside_it_and_apart() -> None:
    for n in (5, 6):
        boxes = counter_boxes(n, 100.0, 100.0, 1.0)
        for i, (x, y, side) in enumerate(boxes):
            assert y >= 100 - 14 and y + side <= 100 + 32 and x >= 100 - 28 and x + side <= 100 + 28
            for x2, y2, s2 in boxes[i + 1:]:
                assert x + side <= x2 or x2 + s2 <= x or y + side <= y2 or y2 + s2 <= y


def test_zoom_and_pan_change_the_view_and_names_show_from_a_zoom_level_on() -> None:
    from bench.mapgen import ten_board_position

    w = FireWidget.from_position(ten_board_position(), seed=1)
    assert w.geo.width <= w.view[0] and w.geo.scale < LABEL_SCALE
    w.redraw()
    assert w.draw_counts["terrain"]["labels"] == 0  # names would be specks: none drawn
    w.zoom_names.click()
    assert w.geo.scale >= LABEL_SCALE and w.draw_counts["terrain"]["labels"] > 0
    assert w.draw_counts["terrain"]["hexes"] < len(w.session.position.map.hexes)  # only what is in view
    w.set_view(w.geo.scale, (100, 40))
    h = w.geo.hexes[len(w.geo.hexes) // 2]
    x, y = w.geo.centre(h)
    w.pan_by(40, 25)
    x2, y2 = w.geo.centre(h)
    assert (round(x - x2), round(y - y2)) == (40, 25)
    w._on_mouse_wheel(0, -100)  # the wheel zooms in at the mouse
    assert w.geo.scale > LABEL_SCALE
    w.zoom_fit.click()
    assert w.geo.scale == w.fit_scale and w.geo.pan == (0.0, 0.0)


def test_a_drag_pans_and_does_not_click(sent: Sent) -> None:  # noqa: F811
    w = FireWidget.demo(seed=1, scale=1.5)
    w.tools.value = "flame"
    before = w.session.position
    pan = w.geo.pan
    for e, x, y in (("mouse_down", 300, 300), ("mouse_move", 280, 290), ("mouse_move", 200, 250),
                    ("mouse_up", 200, 250)):
        w.canvas[HOVER]._handle_frontend_event(None, {"event": e, "x": x, "y": y}, [])
    assert w.session.position is before
    assert w.geo.pan == (pan[0] + 100, pan[1] + 50)


def test_a_click_lands_where_the_mouse_was_when_focusing_scrolled_the_canvas(sent: Sent) -> None:  # noqa: F811
    """ipycanvas reads the mouse-down point after focusing (and so scrolling) a canvas partly out of view."""
    w = FireWidget.demo(seed=1)
    w.tools.value = "flame"
    m = w.session.position.map
    target, above = m.parse_hex("H8"), m.parse_hex("H6")
    tx, ty = w.geo.centre(target)
    shift = w.geo.centre(target)[1] - w.geo.centre(above)[1]  # the scroll moved the canvas down by that much
    events = (("mouse_move", tx, ty), ("mouse_down", tx, ty - shift), ("mouse_up", tx, ty - shift))
    for e, x, y in events:
        w.canvas[HOVER]._handle_frontend_event(None, {"event": e, "x": x, "y": y}, [])
    flames = {f.location.hex for f in w.session.position.flames()}
    assert target in flames and above not in flames
    # Without a scroll (the press where the last move was) nothing is shifted.
    w.tools.value = "remove"
    for e, x, y in (("mouse_move", tx, ty), ("mouse_down", tx, ty), ("mouse_up", tx, ty)):
        w.canvas[HOVER]._handle_frontend_event(None, {"event": e, "x": x, "y": y}, [])
    assert target not in {f.location.hex for f in w.session.position.flames()}


# ---------------------------------------------------------------------------
# The log


def _sent_bytes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Bytes of every widget message (state updates, new widgets, canvas batches)."""
    import json

    import ipywidgets

    comm_class = type(ipywidgets.HTML().comm)  # comm's DummyComm here: it sends nowhere
    sizes: list[int] = []
    orig = comm_class.publish_msg

    def publish(self: Any, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                **keys: Any) -> None:
        sizes.append(len(json.dumps(data, default=str)) + sum(len(bytes(b)) for b in buffers or []))
        orig(self, msg_type, data, metadata, buffers, **keys)

    monkeypatch.setattr(comm_class, "publish_msg", publish)
    return sizes


def test_the_log_keeps_the_whole_history_and_sends_only_what_is_new(monkeypatch: pytest.MonkeyPatch) -> None:
    w = FireWidget.demo(seed=3)
    w.turns.value = 12
    for _ in range(10):
        w.step_button.click()
    log = w.session.log
    assert len(log) > 300  # more than the 120 lines (and the 300 kept) before
    shown = w.log_html
    assert all(escape(line) in shown for line in log)  # the whole history, the start included
    for _ in range(LOG_PAGE + 5):
        w.undo_button.click() if w.session.undo_stack else w.redo_button.click()
    assert len(w.log_pages.children) == 2 and all(len(p.children) <= LOG_PAGE for p in w.log_pages.children)
    sizes = _sent_bytes(monkeypatch)
    w.tools.value = "flame"
    w.click(w.session.position.map.parse_hex("C2"))
    assert sizes and sum(sizes) < 8000, sizes  # one line, one page: not the whole log again
    assert sum(sizes) < len("".join(log)) / 3


def test_undo_says_what_it_undid() -> None:
    w = FireWidget.demo(seed=1)
    w.rph_button.click()
    w.tools.value = "flame"
    w.click(w.session.position.map.parse_hex("G2"))
    w.undo_button.click()
    assert w.session.log[-1].startswith("undo: Flame placed in G2")
    w.undo_button.click()
    assert w.session.log[-1].startswith("undo: RPh wind change of Turn")
    w.redo_button.click()
    assert w.session.log[-1].startswith("redo: RPh wind change")


# ---------------------------------------------------------------------------
# Overlays


def test_small_chances_are_never_zero_percent() -> None:
    assert heat_label(0.0002) == "<1%" and heat_label(0.0) == "0%" and heat_label(0.999) == ">99%"


def test_overlay_title_and_legend_are_shown_and_a_stale_forecast_says_so() -> None:
    w = FireWidget.demo(seed=1)
    w.overlay_choice.value = "odds"
    assert w.legend.layout.display != "none" and "Chance of a new Flame" in w.legend.value and "<1%" in w.legend.value
    w.fc_trials.value = 500
    w.fc_turns.value = 2
    w.fc_button.click()
    assert "burning after 2 Player Turns" in w.legend.value and "Out of date" not in w.legend.value
    drawn = w.draw_counts["overlay"]["hexes"]
    w.afph_button.click()
    assert w.overlay == "forecast" and w.overlay_choice.value == "forecast"
    assert w.draw_counts["overlay"]["hexes"] == drawn  # still shown…
    assert "Out of date" in w.legend.value and "end-of-AFPh upkeep" in w.legend.value  # …and says why
    w.fc_button.click()
    assert "Out of date" not in w.legend.value


def test_a_saved_game_shows_its_board_reversed_and_cropped_as_placed(shared_vasl: Path, tmp_path: Path) -> None:
    """VASL 6.7.x's model of a reversed pixel crop (docs/vasl-readers.md, "Cropped boards"): the crop's pixels
    turned 180° with a hex grid of their own from the turned crop's corner, so the picture lies with that corner at
    the map's origin and every hex over the pixels its terrain is read from.  6.7.x names that grid from its last
    column (S) and from row int(100 / 56.25) = 1, so a hex's name is not the one printed under it: the hex 6.7.x
    (and so the map) calls M5 lies over printed N5, S3 over printed T3, I2 over printed J2."""
    from asl_vassal_bridge.vasl.board import read_board
    from tests.vasl.builders import make_vsav

    game = tmp_path / "game.vsav"
    game.write_bytes(make_vsav([], boards="bd\t0\t0\tr01\t450\t100\t600\t400"))
    w = FireWidget.from_file(game, boards=shared_vasl / "boards")
    (tile,) = w.art
    assert (tile.x, tile.y, tile.width, tile.height) == (0, 0, 600, 400)
    src = _gif(shared_vasl / "boards" / "bd01")
    assert _png(tile.image.value).getpixel((5, 7)) == src.getpixel((450 + 599 - 5, 100 + 399 - 7))
    gm = w.session.position.map
    whole = read_board(shared_vasl / "boards" / "bd01").geometry
    under = {}
    for h in gm.hexes:  # every hex lies on the crop's picture, where its terrain is read
        mx, my = h.pixel()
        assert 0 <= mx - tile.x <= tile.width and 0 <= my - tile.y <= tile.height, gm.hex_name(h)
        at = whole.hex_at(450 + 599 - (mx - tile.x), 100 + 399 - (my - tile.y))
        assert at is not None
        under[gm.hex_name(h)] = whole.name(*at)
    assert (under["M5"], under["S3"], under["I2"]) == ("N5", "T3", "J2")
    # 11 columns S…I (int(451 / 56.25) = 8 … int(1051 / 56.25) = 18: T's column lies partly beyond the crop and is
    # dropped) of 6 or 7 hexes, as VASL 6.7.x's model has them
    assert len(gm.hexes) == 71 and not {"T3", "H2", "I8"} & {gm.hex_name(h) for h in gm.hexes}
    outside = gm.layout.parse("M5").neighbour(Direction.DOWN, 5)  # below the crop: on no hex
    assert outside not in gm.hexes
    x, y = w.geo.to_canvas(*outside.pixel())
    assert w.geo.hex_at(x, y) is None  # nothing there to click


def test_a_saved_game_finds_its_boards_and_module_through_vassals_preferences(
        shared_vasl: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As the ``asl-fire`` commands do: no ``boards=`` and no ``vasl=``, VASSAL's preferences name both."""
    import shutil

    from asl_vassal_bridge.vasl.setup import Platform
    from tests.support.vassal_prefs import fake_module, write_prefs
    from tests.vasl.builders import make_vsav

    home = tmp_path / "home"
    module = fake_module(tmp_path / "vasl" / "VASL.vmod", (shared_vasl / "SharedBoardMetadata.xml").read_bytes())
    boards = tmp_path / "vasl" / "boards"  # no SharedBoardMetadata.xml beside it: the module's terrain types
    boards.mkdir()
    shutil.copy(shared_vasl / "boards" / "bd01", boards / "bd01")
    write_prefs(Platform("linux", home), [module], boards)
    monkeypatch.setenv("HOME", str(home))
    for var in ("ASL_FIRE_SHARED_METADATA", "ASL_FIRE_VASSAL_CONF"):
        monkeypatch.delenv(var, raising=False)
    game = tmp_path / "game.vsav"
    game.write_bytes(make_vsav([], boards="bd\t0\t0\t01"))

    w = FireWidget.from_file(game)
    assert len(w.art) == 1 and not w.tints.value  # VASL's board art, from the preference's folder
    log = "\n".join(w.session.log)
    assert f"boards folder {boards} (VASL's Board Directory preference" in log
    assert f"VASL module {module} (VASSAL's module manager list" in log
    assert len(w.session.position.map.hexes) > 300
    # A module given explicitly wins, and is named when it lacks the terrain types.
    empty = tmp_path / "Empty.vmod"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("buildFile.xml", "<x/>")
    with pytest.raises(BadInput, match=f"{empty}: no boardData/SharedBoardMetadata.xml inside"):
        FireWidget.from_file(game, vasl=empty)


def test_a_live_game_on_board_archives_crops_each_boards_art_as_its_hexes(shared_vasl: Path, tmp_path: Path) -> None:
    """No VASL terrain model in the snapshot: the boards folder gives the terrain and the art, each board with its
    own crop whatever the order VASSAL lists the boards in."""
    import shutil

    from asl_fire_widget.state import FireSession

    from tests.bridge.test_crops_fallback import board, snapshot

    for name in ("bd01", "bd22"):
        shutil.copy(shared_vasl / "boards" / "bd01", tmp_path / name)
    shutil.copy(shared_vasl / "SharedBoardMetadata.xml", tmp_path)
    snap = snapshot([board("22", 1300, 400, None, col=1), board("01", 400, 400, (0, 0, 900, -1))])
    w = FireWidget(FireSession.from_snapshot(snap, boards=tmp_path))
    gm = w.session.position.map
    assert len(gm.hexes) == 514 and [b.name for b in gm.layout.boards] == ["01", "22"]
    assert [(t.x, t.width) for t in w.art] == [(0.0, 900), (900.0, 1800)]  # 22's art starts on 01's column Q
    assert gm.layout.parse("22A1").pixel()[0] == 900.0


def test_a_live_game_on_vasls_model_puts_cropped_boards_art_under_vasls_hexes(shared_vasl: Path,
                                                                             tmp_path: Path) -> None:
    """VASL's terrain model in the snapshot (01 cropped to Q–GG, reversed, then 22): each board's art lies under the
    hexes VASL's grid gives it."""
    import shutil

    from asl_fire_widget.state import FireSession

    from asl_vassal_bridge.vasl.board import default_terrain_table, read_board
    from asl_vassal_bridge.vasl.crop import MapBoard, merge
    from tests.bridge.test_crops_fallback import board, snapshot

    for name in ("bd01", "bd22"):
        shutil.copy(shared_vasl / "boards" / "bd01", tmp_path / name)
    shutil.copy(shared_vasl / "SharedBoardMetadata.xml", tmp_path)
    geo = read_board(tmp_path / "bd01", default_terrain_table(tmp_path)).geometry
    merged = merge([MapBoard("01", geo, 0, 0, True, (900, 0, 900, -1)), MapBoard("22", geo, 1, 0, False, None)])
    hexes = [{"name": geo.name(c, r), "col": x, "row": y, "board": "01" if i == 0 else "22", "elevation": 0,
              "locations": [{"name": "x", "level": 0, "terrain": "Open Ground", "center": True}]}
             for i, cells in enumerate(merged.written) for (x, y), (c, r) in cells.items()]
    snap = snapshot([board("01", 400, 400, (900, 0, 900, -1), reversed=True), board("22", 1300, 400, None, col=1)])
    snap["maps"][0]["terrain"] = {"source": "VASL", "width": merged.grid.columns, "height": 10, "hexes": hexes}
    w = FireWidget(FireSession.from_snapshot(snap, boards=tmp_path))
    gm = w.session.position.map
    assert [(t.x, t.y, t.width) for t in w.art] == [(0.0, 0.0, 900), (900.0, 0.0, 1800)]
    for name, tile, turned in (("01S4", w.art[0], True), ("22M4", w.art[1], False)):
        mx, my = gm.layout.parse(name).pixel()
        bx, by = Hex.parse(name[2:]).pixel()
        u, v = (900 + 899 - bx, 644 - by) if turned else (bx, by)  # the art pixel showing the hex's centre
        assert abs(mx - tile.x - u) <= 1.5 and abs(my - tile.y - v) <= 1.5, name


def test_a_saved_game_with_an_overlay_draws_its_art_and_says_what_was_applied(shared_vasl: Path,
                                                                              tmp_path: Path) -> None:
    """Issue 20: the overlay's picture on the board art where VASL places it, its woods in the terrain, and the log
    naming it as applied (and VASL's LightWoods overlay as not applied)."""
    from tests.vasl.builders import make_vsav

    game = tmp_path / "game.vsav"
    game.write_bytes(make_vsav([], boards="bd\t0\t0\t01\tVER\t6.1\tOVR\twd1\tE5\tE5\tOVR\tLightWoods\tB2\tB2"))
    w = FireWidget.from_file(game, boards=shared_vasl / "boards")
    (tile,) = w.art
    art = _png(tile.image.value).convert("RGB")
    src = _gif(shared_vasl / "boards" / "bd01").convert("RGB")
    ex, ey = (round(v) for v in Hex.parse("E5").pixel())
    assert art.getpixel((ex + 10, ey + 10)) != src.getpixel((ex + 10, ey + 10))  # woods drawn over the road hex
    assert art.getpixel((1500, 300)) == src.getpixel((1500, 300))  # elsewhere the board's own picture
    assert w.session.position.map.info(Hex.parse("E5")).terrain.name == "WOODS"
    log = "\n".join(w.session.log)
    assert "· board 01: overlay wd1 (E5) applied to the terrain as VASL 6.7.x applies them" in log
    assert "⚠ board 01: overlay LightWoods (B2) not applied to the terrain" in log


def test_smoke_counters_of_the_position_are_drawn_in_their_hex_and_a_gust_acts_on_them_b25_651() -> None:
    from asl_fire_widget.drawing import counters_in

    from asl_vassal_bridge.core.dice import ScriptedDice
    from asl_vassal_bridge.core.position import Location, Phase, Smoke
    from asl_vassal_bridge.core.values import replace
    from asl_vassal_bridge.core.wind import rally_phase

    pos = FireWidget.demo(seed=1).session.position
    h = next(h for h in pos.map.hexes if h not in counters_in(pos))  # a hex with no counter yet
    pos = pos.with_(smoke=(Smoke(Location(h), dispersed=True),))
    assert [c.kind for c in counters_in(pos)[h]] == ["smoke"]
    gust, _report = rally_phase(replace(pos, clock=replace(pos.clock, phase=Phase.RPH)), ScriptedDice([6, 6]))
    assert h not in counters_in(gust)  # the Dispersed SMOKE eliminated (B25.651)
