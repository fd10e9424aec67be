"""``asl-fire demo``, ``odds`` and ``upkeep`` end to end, through :func:`main`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.posfile import dump, load
from asl_vassal_bridge.scenarios import demo_position


def test_demo_prints_rolls_with_rules_and_writes_pictures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--out", str(tmp_path), "--turns", "3", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "B25.65" in out and "B25.151" in out and "B25.6" in out and "B25.11" in out
    for name in ("before.png", "after.png", "before.svg", "after.svg", "after.toml"):
        assert (tmp_path / name).stat().st_size > 1000
    assert "<svg" in (tmp_path / "after.svg").read_text()
    final = load(tmp_path / "after.toml")
    assert final.clock.player_turn == demo_position().clock.player_turn + 2


def test_demo_is_reproducible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--out", str(tmp_path / "a"), "--seed", "3"])
    a = capsys.readouterr().out
    main(["demo", "--out", str(tmp_path / "b"), "--seed", "3"])
    assert capsys.readouterr().out.replace("/b/", "/a/") == a


def test_odds_json_lists_exact_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "demo", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by = {(r["kind"], r["location"]): r for r in data["rolls"]}
    assert by[("spread", "C4")]["chance"] == "13/18"
    assert by[("blaze", "E5")]["chance"] == "5/12" and by[("blaze", "E5")]["extinguish_chance"] == "1/36"
    assert by[("spread", "I4")]["drms"] == [{"value": -1, "reason": "to a Fortified Building", "rule": "B23.94"}]
    assert data["next_rph"]["gusts"] == "1/36"


def test_odds_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "demo"]) == 0
    out = capsys.readouterr().out
    assert "Spread   C4       13/18 (72.2%)" in out and "B25.64" in out


def test_upkeep_with_scripted_dice_writes_the_new_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.toml"
    p = demo_position()
    dump(p.with_(clock=p.clock.__class__(2, 1, p.clock.phase.AFPH)), src)
    out = tmp_path / "out.toml"
    dice = ",".join(["6"] * 18)  # exactly the 9 DRs the AFPh rolls: more or fewer is refused
    assert main(["upkeep", str(src), "--phase", "afph", "--dice", dice, "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert all(e["roll"]["colored"] == 6 for e in report["events"] if e.get("roll"))
    new = load(out)
    assert {f.location.name for f in new.blazes()} >= {"D3", "I5", "E5", "M6"}
    assert new.clock.phase.value == "RtPh"
    # Running the same AFPh again is refused: the clock is past it.
    assert main(["upkeep", str(out), "--phase", "afph", "--seed", "1"]) == 2
    assert "already past" in capsys.readouterr().err


def test_upkeep_rph_starts_the_next_player_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.toml"
    assert main(["upkeep", "demo", "--phase", "rph", "--dice", "1,1,5", "-o", str(out)]) == 0
    assert "Wind Change DR 2" in capsys.readouterr().out
    new = load(out)
    assert new.environment.wind.force.label == "Heavy Winds" and new.clock.phase.value == "PFPh"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["odds", "nowhere.toml"], "no such file"),
        (["upkeep", "demo", "--phase", "afph", "--dice", "3,x"], "--dice"),
        (["upkeep", "demo", "--phase", "afph", "--dice", "3,9"], "1 to 6"),
        (["upkeep", "demo", "--phase", "afph", "--dice", "3"], "ran out"),
        (["odds", "game.vsav"], "game.vsav: no such file"),
    ],
)
def test_bad_input_is_one_clear_line_not_a_traceback(args: list[str], message: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_kindle_odds_and_attempt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kindle", "demo", "--at", "F7", "--leader", "-1", "--odds"]) == 0
    assert "chance 7/12" in capsys.readouterr().out
    out = tmp_path / "k.toml"
    assert main(["kindle", "demo", "--at", "F7", "--leader", "-1", "--dice", "4,5"]) == 2  # the demo is at the RPh
    assert "PFPh" in capsys.readouterr().err
    assert main(["kindle", "demo", "--at", "F7", "--leader", "-1", "--dice", "4,5", "--phase", "PFPh",
                 "-o", str(out)]) == 0
    (f,) = [f for f in load(out).flames() if f.location.name == "F7"]
    assert f.kindled_by == "German"
    assert main(["kindle", "demo", "--at", "F7", "--odds", "--side", "Russian"]) == 2
    assert "stacked with a leader" in capsys.readouterr().err


def test_a22_613_kindle_with_a_mol_rolls_the_mol_check_and_folds_it_into_the_odds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A22.613 (with A22.611): the +2 needs a unit with a MOL, ascertained by the MOL Check dr (+1 vs a non-AFV,
    # +2 for a SMC).  A leader in F7 (brush, Kindle # 9, Dry EC): the +2 would give 5/12, but a SMC's MOL Check
    # needs a dr ≤ 0, so its chance is that of a plain attempt, 1/6.
    assert main(["kindle", "demo", "--at", "F7", "--unit", "leader", "--mol", "--odds"]) == 0
    out = capsys.readouterr().out
    assert "MOL Check (A22.611)" in out and "chance 0" in out
    assert out.strip().endswith("Flame, the MOL Check included (A22.613): 1/6 (16.7%)")
    # A squad directed by an 8-1: MOL Check 1/3 (dr ≤ 2); 5/6 with the +2, 7/12 without: 1/3·5/6 + 2/3·7/12 = 2/3.
    assert main(["kindle", "demo", "--at", "F7", "--leader", "-1", "--mol", "--odds", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["chance"], data["mol_check"]["chance"], data["with_mol"]["chance"]) == ("2/3", "1/3", "5/6")
    # The attempt: the MOL Check dr comes first (3 + 1 = 4 > 3: no MOL), then the DR without the +2.
    out_file = tmp_path / "k.toml"
    assert main(["kindle", "demo", "--at", "F7", "--leader", "-1", "--mol", "--phase", "PFPh", "--dice", "3,3,3",
                 "-o", str(out_file)]) == 0
    text = capsys.readouterr().out
    assert "MOL Check (A22.611): dr 3, +1 vs a non-AFV (A22.611) → Final 4 vs ≤ 3: no MOL: no DRM" in text
    assert "+2 unit has a MOL" not in text and "→ Final 8 vs ≥ 9: no Flame" in text
    assert not [f for f in load(out_file).flames() if f.location.name == "F7"]
    assert main(["kindle", "demo", "--at", "F7", "--leader", "-1", "--mol", "--phase", "PFPh", "--dice", "2,3,3",
                 "-o", str(out_file)]) == 0
    assert "+2 unit has a MOL (A22.613)" in capsys.readouterr().out
    assert [f.kindled_by for f in load(out_file).flames() if f.location.name == "F7"] == ["German"]
    # Outside the PFPh nothing is rolled, the MOL Check neither.
    assert main(["kindle", "demo", "--at", "F7", "--leader", "-1", "--mol", "--dice", "2,3,3"]) == 2
    err = capsys.readouterr().err
    assert "PFPh" in err and "MOL Check" not in err


def test_a15_24_a_hero_uses_his_heroic_drm_for_clearance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A15.24: a hero may use his DRM (−1) for Clearance attempts; `clear` takes heroes from the position too.
    from asl_vassal_bridge.core.position import Clock, Phase, Unit, UnitKind

    p = demo_position()
    e5 = p.map.parse_location("E5")
    src = tmp_path / "hero.toml"
    dump(p.with_(clock=Clock(2, 1, Phase.MPH), units=(*p.units, Unit("h", "1-4-9", "German", e5, UnitKind.HERO),
                                                     Unit("s", "4-6-7", "German", e5))), src)
    assert main(["clear", str(src), "--at", "E5", "--odds"]) == 0
    out = capsys.readouterr().out
    assert "-1 Clearance by a squad (B24.7), +1 Dry EC (B24.7), -1 heroic DRM (A15.24)" in out
    assert "Original ≤ 3" in out and "clears 1/12" in out  # 3/36
    assert main(["clear", str(src), "--at", "E5", "--odds", "--heroes", "0", "--squads", "1"]) == 0
    assert "clears 1/36" in capsys.readouterr().out
    # a hero alone is unpinned Good Order Infantry: he may clear, with his −1 and the Dry +1
    assert main(["clear", "demo", "--at", "E5", "--odds", "--heroes", "1"]) == 0
    assert "clears 1/36" in capsys.readouterr().out


def test_clear_odds_and_attempt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["clear", "demo", "--at", "E5", "--odds", "--squads", "1"]) == 0
    assert "clears 1/36" in capsys.readouterr().out  # squad −1, Dry EC +1
    # The demo's clock is at the RPh.
    assert main(["clear", "demo", "--at", "E5", "--squads", "1", "--dice", "1,1"]) == 2
    assert "MPh or DFPh" in capsys.readouterr().err
    assert main(["clear", "demo", "--at", "E5", "--squads", "1", "--dice", "1,1", "--phase", "DFPh"]) == 0
    capsys.readouterr()
    src = tmp_path / "mph.toml"
    p = demo_position()
    dump(p.with_(clock=p.clock.__class__(2, 1, p.clock.phase.MPH)), src)
    out = tmp_path / "c.toml"
    assert main(["clear", str(src), "--at", "E5", "--squads", "1", "--dice", "1,1", "-o", str(out)]) == 0
    assert not [f for f in load(out).flames() if f.location.name == "E5"]


def test_wind_change_of_twelve_prints_the_dr_once_and_makes_a_gusting_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.toml"
    assert main(["upkeep", "demo", "--phase", "rph", "--dice", "6,6", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Wind Change DR 12 (6,6): Gusts" in text and "12 12" not in text
    assert load(out).environment.gusts
    assert main(["upkeep", "demo", "--phase", "rph", "--dice", "6,6", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["events"][0]["text"].startswith("Wind Change DR 12 (6,6): Gusts")
    assert main(["odds", str(out)]) == 0
    assert "Gusts this Player Turn" in capsys.readouterr().out


def test_ft_fire_start_uses_the_original_drs_result(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["ft", "--target-terrain", "woods", "--hindrance", "2", "--ift-result", "1MC"]
    assert main([*base, "--dice", "1,2"]) == 0
    assert "give the IFT result of the Original DR" in capsys.readouterr().out
    assert main([*base, "--dice", "1,2,5,5", "--original-ift-result", "KIA"]) == 0
    text = capsys.readouterr().out
    assert "Original DR 3's IFT result KIA" in text and "Flame in" in text


HUT_POSITION = """format = 1
sides = ["German", "Russian"]
[clock]
turn = 2
half = 1
phase = "PFPh"
[map]
columns = "A-D"
rows = "1-4"
[[map.terrain]]
kind = "woods"
hexes = ["C3"]
[[buildings]]
id = "hut"
material = "wooden"
kind = "hut"
hexes = ["B3"]
"""


def test_huts_a_ft_attack_on_a_hut_places_the_flame_with_no_k_kia_nor_dr(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # The reproduction: `asl-fire ft P --from B2 --to B3 --dice 1,2 --ift-result 1MC` with a hut in B3.
    src, out = tmp_path / "hut.toml", tmp_path / "after.toml"
    src.write_text(HUT_POSITION, "utf-8")
    assert main(["ft", str(src), "--from", "B2", "--to", "B3", "--dice", "1,2", "--ift-result", "1MC",
                 "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "FT Original Effects DR 3 < X# 10: Flame in the hut in B3 (huts)" in text
    assert "flame: Flame in the hut in B3 (huts)" in text
    assert [f.location.name for f in load(out).flames()] == ["B3"]


def test_huts_one_attack_vs_two_hut_locations_places_its_flame_by_random_selection(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, out = tmp_path / "huts.toml", tmp_path / "after.toml"
    src.write_text(HUT_POSITION + '[[buildings]]\nid = "hut2"\nmaterial = "wooden"\nkind = "hut"\nhexes = ["B2"]\n',
                   "utf-8")
    assert main(["hut", str(src), "--at", "B2,B3", "--attack", "mg", "--attack-dr", "1,5", "--dice", "2,5",
                 "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "one Flame result, 2 hut Locations could take it: Random Selection, B2 2, B3 5 (huts)" in text
    assert [f.location.name for f in load(out).flames()] == ["B3"]
    assert main(["hut", str(src), "--at", "B2,B3", "--attack", "mg", "--attack-dr", "1,5", "--dice", "2"]) == 2
    assert "nothing was applied" in capsys.readouterr().err
    assert main(["hut", str(src), "--at", "B2,B3", "--attack", "mg", "--attack-dr", "1,5", "--dice", "2,5,1"]) == 2
    capsys.readouterr()
    assert main(["hut", str(src), "--at", "B2,B3", "--attack", "sw-in-hut"]) == 2
    assert "one hut Location, not 2 (huts)" in capsys.readouterr().err


def test_huts_he_wp_and_hut_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, out = tmp_path / "hut.toml", tmp_path / "after.toml"
    src.write_text(HUT_POSITION, "utf-8")
    # huts: an MG attack's Original colored dr 1 vs the hut
    assert main(["hut", str(src), "--at", "B3", "--attack", "mg", "--attack-dr", "1,5", "-o", str(out)]) == 0
    assert "Original colored dr 1: Flame in the hut in B3 (huts)" in capsys.readouterr().out
    assert [f.location.name for f in load(out).flames()] == ["B3"]
    assert main(["hut", str(src), "--at", "B3", "--attack", "he-equivalency", "--attack-dr", "1,5"]) == 0
    assert "no Flame in B3" in capsys.readouterr().out
    assert main(["hut", str(src), "--at", "C3", "--attack", "mg", "--attack-dr", "1,5"]) == 2
    assert "not a hut" in capsys.readouterr().err
    # B25.13: an HE Original KIA on the woods: the fire-start DR (Kindle # 9, Moderate EC)
    assert main(["he", str(src), "--at", "C3", "--original-result", "KIA", "--dice", "4,5", "-o", str(out)]) == 0
    assert "(B25.13): DR 9 (4,5), no DRM → Final 9 vs ≥ 9: Flame" in capsys.readouterr().out
    assert main(["he", str(src), "--at", "C3", "--original-result", "2KIA", "--rubble"]) == 0
    assert "rubble takes precedence" in capsys.readouterr().out
    # A24.32: WP in a hut rolls even when EC are not Dry, in the MPh only
    assert main(["wp", str(src), "--at", "B3", "--dice", "3,3"]) == 2
    assert "MPh" in capsys.readouterr().err
    assert main(["wp", str(src), "--at", "B3", "--phase", "MPh", "--dice", "3,3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["events"][0]["kind"] == "flame" and data["events"][0]["rule"] == "A24.32"
    assert main(["wp", str(src), "--at", "C3", "--odds"]) == 0
    assert "no WP fire DR in C3" in capsys.readouterr().out


def test_the_demo_pictures_show_units_counters_and_a_legend_as_the_widget_does(tmp_path: Path,
                                                                                capsys: pytest.CaptureFixture[str]
                                                                                ) -> None:
    from PIL import Image

    from asl_vassal_bridge.mapview import MARKS, counter_boxes, counters_in
    from asl_vassal_bridge.render import shapes

    assert main(["demo", "--out", str(tmp_path), "--turns", "1", "--seed", "7"]) == 0
    pos = demo_position()
    png = Image.open(tmp_path / "before.png").convert("RGB")
    items, _, _ = shapes(pos, title=f"{pos.name} — before")
    texts = {s.text for s in items if s.kind == "text"}
    # the units by name, the fire counters by name, the legend's words
    assert {"4-6-7", "8-1", "4-4-7", "Blaze", "Flame", "Smoke"} <= texts
    assert {"Burning Wreck", "unit (side colour)", "broken", "pinned", "berserk"} <= texts
    names = {s.text for s in items if s.kind == "text" and s.size >= 10}
    assert "F7" in names and "I5" in names  # hex names at least 10 px
    # in the PNG: the German squad in F7 in its side's colour, the broken Russian's red mark in I5
    xy = {s.text: s.points[0] for s in items if s.kind == "text"}

    def counter_point(unit_id: str, fx: float, fy: float) -> tuple[int, int]:
        u = next(u for u in pos.units if u.id == unit_id)
        stack = counters_in(pos)[u.location.hex]
        k = next(i for i, c in enumerate(stack) if c.unit is not None and c.unit.id == unit_id)
        name = pos.map.hex_name(u.location.hex)
        nx, ny = xy[name]  # the hex name sits 0.72 × the hex's half-height above its centre
        cx, cy = nx, ny + 0.72 * 32.25
        x, y, side = counter_boxes(len(stack), cx, cy, 1.0)[k]
        return round(x + fx * side), round(y + fy * side)

    assert png.getpixel(counter_point("g1", 0.2, 0.8)) == (140, 170, 205)
    assert png.getpixel(counter_point("r2", 0.9, 0.08)) == MARKS["broken"][0]


def test_pictures_draw_vasls_board_art_under_the_grid_when_given(shared_vasl: Path, tmp_path: Path) -> None:
    import io

    from PIL import Image

    from asl_vassal_bridge.core import BoardPlacement
    from asl_vassal_bridge.core import Position as Pos
    from asl_vassal_bridge.render import MARGIN, TOP, render_png, render_svg, shapes
    from asl_vassal_bridge.vasl.board import default_terrain_table, game_map, read_board
    from asl_vassal_bridge.vasl.boardart import map_board_art

    board = read_board(shared_vasl / "boards" / "bd01", default_terrain_table(shared_vasl))
    pos = Pos(game_map([(board, BoardPlacement("01"))]))
    art = map_board_art(pos.map.layout.boards, shared_vasl / "boards", (None,))
    items, _, _ = shapes(pos, art=art)
    assert items[0].kind == "image"
    render_png(pos, tmp_path / "art.png", art=art)
    assert "<image " in render_svg(pos, art=art)
    png = Image.open(tmp_path / "art.png").convert("RGB")
    pic = Image.open(io.BytesIO(art[0].png)).convert("RGB")
    h = pos.map.parse_hex("E3")
    bx, by = h.pixel()
    bx -= 20  # left of the centre: no name, badge or counter
    x0 = min(p.pixel()[0] for p in pos.map.hexes) - 37.5
    y0 = min(p.pixel()[1] for p in pos.map.hexes) - 32.25
    got = png.getpixel((round(bx - x0 + MARGIN), round(by - y0 + TOP)))
    want = pic.getpixel((round(bx - art[0].origin[0]), round(by - art[0].origin[1])))
    assert all(abs(a - b) <= 40 for a, b in zip(got, want, strict=True)), (got, want)
