"""Issue 23 without a browser: units on the map, the latest result, undone actions marked, the canvas sized to
the page, the next AFPh named, one-line load errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from asl_fire_widget import FireWidget, LoadError
from asl_fire_widget.drawing import name_size
from asl_fire_widget.widget import FIRE

from asl_vassal_bridge.mapview import HEX_HEIGHT, HEX_WIDTH, MIN_MARKER, counter_boxes

from .test_widget_state import Sent, sent  # noqa: F401 - the fixture

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))


def test_units_are_drawn_and_a_click_on_one_selects_it_for_ft_mol_and_heat_of_battle(sent: Sent) -> None:  # noqa: F811
    w = FireWidget.demo(seed=1)
    w.redraw()
    assert w.draw_counts["fire"]["units"] == len(w.session.position.units)
    g1 = next(b for b in w.unit_boxes if b.unit_id == "g1")
    w._on_mouse_move(g1.x + g1.side / 2, g1.y + g1.side / 2)
    w._on_mouse_down(g1.x + g1.side / 2, g1.y + g1.side / 2)
    w._on_mouse_up(g1.x + g1.side / 2, g1.y + g1.side / 2)
    s = w.session
    assert s.selected_unit == "g1" and s.attack_form.firer_unit == "g1" and s.hob_form.unit_id == "g1"
    assert "selected g1" in w.latest.value
    assert w.hob["unit_id"].value == "g1" and w.att["firer_unit"].value == "g1"


@pytest.mark.parametrize("n", range(1, 16))
@pytest.mark.parametrize("scale", [0.3, 0.5, 1.0, 2.5])
def test_a_stack_of_any_size_stays_inside_its_hex_at_every_zoom(n: int, scale: float) -> None:
    rx, ry = HEX_WIDTH * 2 / 3 * scale, HEX_HEIGHT / 2 * scale
    for x, y, side in counter_boxes(n, 0.0, 0.0, scale):
        for dx, dy in ((x, y), (x + side, y), (x, y + side), (x + side, y + side)):
            assert abs(dy) <= ry + 1e-6 and abs(dx) <= rx - abs(dy) / ry * rx / 2 + 1e-6


def test_fires_on_ten_boards_at_first_sight_are_readable_markers(sent: Sent) -> None:  # noqa: F811
    from asl_fire_widget.drawing import draw_fires
    from ipycanvas import Canvas
    from mapgen import ten_board_position

    w = FireWidget.from_position(ten_board_position(), seed=1)
    w.resize(870, 800)
    geo_h = w.geo.height
    assert w.view[1] <= geo_h + 40  # the map fitted both ways: no empty band under a strip
    drawn = draw_fires(Canvas(width=870, height=200), w.session.position, w.geo)
    assert drawn["blazes"] + drawn["flames"] == 100
    # a hex there is smaller than a readable counter: each hex shows its most telling one, MIN_MARKER wide
    assert counter_boxes(1, 0, 0, w.geo.scale)[0][2] < MIN_MARKER <= 28 * w.geo.scale + MIN_MARKER


def test_the_canvas_follows_the_room_the_page_gives_it() -> None:
    w = FireWidget.demo(seed=1)
    w.probe.window_height = 800
    w.probe.width = 600
    assert w.view[0] == 600 and w.canvas.width == 600
    w.probe.width = 900  # the window's height limits the map: the canvas is as wide as the map (issue 34)
    assert w.view == (700, 520) and w.canvas.width == 700 and abs(w.geo.width - 700) <= 2
    assert name_size(0.5) >= 10  # one canvas pixel per screen pixel: names at the names zoom ≥ 10 px


def test_the_latest_result_shows_a_refusal_and_undone_actions_are_marked() -> None:
    w = FireWidget.demo(seed=1)
    w.session.tool = "flame"
    w.click(w.session.position.map.parse_hex("A1"))
    assert "cannot burn (B25.1)" in w.latest.value
    w.session.tool = "blaze"
    w.click(w.session.position.map.parse_hex("C2"))
    assert "Blaze placed in C2" in w.latest.value
    w._act(w.session.undo)
    assert "undo:" in w.latest.value
    assert "(undone)" in w.log_html and "<s " in w.log_html
    w._act(w.session.redo)
    entry = next(v for v in (c.value for c, _ in w._chunks.values()) if "Blaze placed in C2" in v)
    assert "(undone)" not in entry


def test_the_odds_title_names_the_next_afph_once_this_one_is_over() -> None:
    w = FireWidget.demo(seed=1)
    w._act(w.session.afph)
    w.set_overlay("odds")
    title, _ = w._overlay_title()
    assert "next AFPh (Turn 2.2 AFPh" in title


def test_a_wrong_file_raises_one_load_error_with_one_line_in_notebook_words(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = not [a position")
    with pytest.raises(LoadError) as e:
        FireWidget.from_file(bad)
    assert "\n" not in str(e.value) and "bad.toml" in str(e.value)
    assert e.value._render_traceback_() == [f"LoadError: {e.value}"]
    assert "asl-load-error" in e.value.widget().value
    with pytest.raises(LoadError, match="no such file"):
        FireWidget.from_file(tmp_path / "missing.vsav", boards=tmp_path)
    assert "boards=" in str(LoadError("VASL's boards folder is needed: give --boards DIR (no pref)"))


def test_redraw_of_units_is_only_the_counter_layer(sent: Sent) -> None:  # noqa: F811
    w = FireWidget.demo(seed=1)
    w.redraw()
    w.redraws.clear()
    w.select_unit("r2")
    assert w.redraws == [f"{['terrain', 'overlay', 'fire', 'hover'][FIRE]}"]
