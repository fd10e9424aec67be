"""Fire & Victory (Fire cheat sheet): Control of Locations, hexes and buildings set on fire or made unenterable.

Each test states the sheet: (1) a side forfeits every Location/hex/building it set on fire by Kindling, even where
the fire spread, until the fire is out; (2) an area a kindled fire makes unenterable, partly with other fires too,
goes to the opponent whole [EXC: fires of both sides joined]; (3) accidental Blazes are controlled by the side
controlling their hex, an unenterable building by the side controlling all its hexes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.cli import main
from asl_vassal_bridge.core import BuildingKind, Fire, FireKind, Material, ScriptedDice, Terrain
from asl_vassal_bridge.core.fire import end_of_afph, flame_to_blaze
from asl_vassal_bridge.core.victory import Cause, ControlNote, Scope, fire_control
from asl_vassal_bridge.posfile import BadPositionFile, dumps, load, loads

from .builders import H, L, blaze, building, grid, pos, put


def kindled_flame(name: str, side: str | None, since: int = 1) -> Fire:
    return Fire(L(name), FireKind.FLAME, since, kindled_by=side)


def table(notes: list) -> list[tuple[str, str, str, str | None]]:  # type: ignore[type-arg]
    return [(n.scope.value, n.place, n.cause.value, n.controlled_by) for n in notes]


# --- Error 4: the forfeit lasts while the fire burns, whichever Flame makes the Blaze -----------------------


def test_fire_and_victory_a_blaze_keeps_the_kindler_whichever_flame_of_its_location_makes_it() -> None:
    hexes = grid("A-C", "1-4")
    put(hexes, Terrain.WOODS, ["B3"])
    # An accidental Flame listed first, then the Flame German Kindling spread there: the accidental one's DR
    # makes the Blaze, and the Location is still German-kindled fire.
    p = pos(hexes, fires=[kindled_flame("B3", None), kindled_flame("B3", "German")])
    new, _ = flame_to_blaze(p, ScriptedDice([6, 6]))
    (b,) = new.blazes()
    assert b.kindlers == ("German",)
    assert table(fire_control(new)) == [("Location", "B3", "kindled", "Russian")]


def test_fire_and_victory_two_flames_of_different_owners_in_one_location_make_a_blaze_of_both() -> None:
    hexes = grid("A-C", "1-4")
    put(hexes, Terrain.WOODS, ["B3"])
    p = pos(hexes, fires=[kindled_flame("B3", "Russian"), kindled_flame("B3", "German")])
    assert table(fire_control(p)) == [("Location", "B3", "both-kindled", None)]
    new, _ = flame_to_blaze(p, ScriptedDice([6, 6]))
    (b,) = new.blazes()
    assert set(b.kindlers) == {"German", "Russian"}
    (note,) = fire_control(new.with_(control={H("B3"): "Russian"}))
    assert (note.cause, note.controlled_by, note.joined) == (Cause.BOTH_KINDLED, "Russian", True)
    # ... and the fire it spreads carries both kindlers on.
    put(hexes, Terrain.WOODS, ["B3", "B4"], feature="w")
    spread, _ = end_of_afph(pos(hexes, fires=[Fire(L("B3"), FireKind.BLAZE, 1, kindled_by="Russian",
                                                   also_kindled_by="German")]), ScriptedDice([6, 6]))
    assert spread.flames_at(L("B4"))[0].kindlers == ("Russian", "German")


def test_fire_and_victory_issue_21_error_4_from_the_command_line(tmp_path: Path) -> None:
    src = tmp_path / "p.toml"
    src.write_text("""format = 1
sides = ["German", "Russian"]
[clock]
turn = 2
half = 1
phase = "AFPh"
[map]
columns = "A-C"
rows = "1-4"
[[map.terrain]]
kind = "woods"
hexes = ["B2", "B3"]
[[fires]]
at = "B2"
kind = "blaze"
kindled_by = "German"
[[fires]]
at = "B3"
kind = "flame"
""", "utf-8")
    a, b, c = (tmp_path / f"{n}.toml" for n in "abc")
    assert main(["upkeep", str(src), "--phase", "afph", "--dice", "2,2,6,6", "-o", str(a)]) == 0
    assert main(["upkeep", str(a), "--phase", "rph", "--dice", "3,4", "-o", str(b)]) == 0
    assert main(["upkeep", str(b), "--phase", "afph", "--dice", "6,6", "-o", str(c)]) == 0
    end = load(c)
    assert [f.location.name for f in end.blazes()] == ["B2", "B3"]
    assert ("Location", "B3", "kindled", "Russian") in table(fire_control(end))


# --- Error 5: hexes, buildings and the areas made unenterable ---------------------------------------------


def test_fire_and_victory_a_kindled_hex_forfeits_its_building_and_an_all_blazing_building_goes_whole() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "house", Material.WOODEN, ["B2", "C2"])
    p = pos(hexes, [b], fires=[blaze("B2", kindled_by="German"), blaze("C2")])
    assert table(fire_control(p)) == [
        ("Location", "B2", "kindled", "Russian"),
        ("Location", "C2", "unenterable", "Russian"),  # unenterable partly by another fire too
        ("building", "house", "kindled", "Russian"),
    ]
    # Only one hex burning: German still set the building on fire.
    one = pos(hexes, [b], fires=[Fire(L("B2"), FireKind.FLAME, 1, kindled_by="German")])
    assert table(fire_control(one)) == [("Location", "B2", "kindled", "Russian"),
                                        ("building", "house", "kindled", "Russian")]


def test_fire_and_victory_multi_level_hexes_are_forfeited_and_gained_as_hexes() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "inn", Material.STONE, ["B2", "C2"], BuildingKind.TWO_STORY)
    fires = [blaze("B2", kindled_by="German"), blaze("B2.1"), blaze("C2"), blaze("C2.1")]
    notes = fire_control(pos(hexes, [b], fires=fires))
    assert table(notes) == [
        ("Location", "B2", "kindled", "Russian"),
        ("Location", "B2.1", "unenterable", "Russian"),
        ("Location", "C2", "unenterable", "Russian"),
        ("Location", "C2.1", "unenterable", "Russian"),
        ("hex", "B2", "kindled", "Russian"),
        ("hex", "C2", "unenterable", "Russian"),
        ("building", "inn", "kindled", "Russian"),
    ]
    assert notes[5].describe(pos(hexes, [b])) == (
        "hex C2: unenterable in the area the fire kindled by German makes unenterable; Control of the hex goes to "
        "Russian (Fire & Victory)")
    # C2.1 not burning: hex C2 can still be entered, so only its burning Location is gained.
    part = fire_control(pos(hexes, [b], fires=fires[:3]))
    assert ("hex", "C2", "unenterable", "Russian") not in table(part)
    assert ("Location", "C2", "unenterable", "Russian") in table(part)


def test_fire_and_victory_an_area_made_unenterable_by_kindled_fire_with_other_fires_goes_to_the_opponent() -> None:
    hexes = grid("A-F", "1-6")
    put(hexes, Terrain.WOODS, ["B2", "B3"], feature="w")
    b = building(hexes, "barn", Material.WOODEN, ["C3", "D3"])
    p = pos(hexes, [b], fires=[blaze("B2", kindled_by="Russian"), blaze("B3"), blaze("C3"), blaze("D3")])
    assert table(fire_control(p)) == [
        ("Location", "B2", "kindled", "German"),
        ("Location", "B3", "unenterable", "German"),
        ("Location", "C3", "unenterable", "German"),
        ("Location", "D3", "unenterable", "German"),
        ("building", "barn", "unenterable", "German"),
    ]
    # A Flame is no obstacle: the barn's D3 can be entered, so the barn is not gained as a building.
    flame_d3 = pos(hexes, [b], fires=[blaze("B2", kindled_by="Russian"), blaze("B3"), blaze("C3"),
                                      kindled_flame("D3", None)])
    assert ("building", "barn", "unenterable", "German") not in table(fire_control(flame_d3))


def test_fire_and_victory_accidental_blazes_go_to_the_side_controlling_the_hex_a_building_needs_all_hexes() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "house", Material.WOODEN, ["B2", "C2"])
    fires = [blaze("B2"), blaze("C2")]
    assert fire_control(pos(hexes, [b], fires=fires)) == []  # nobody's fault, and no Control recorded
    german = pos(hexes, [b], fires=fires).with_(control={H("B2"): "German", H("C2"): "German"})
    notes = fire_control(german)
    assert table(notes) == [
        ("Location", "B2", "accidental", "German"),
        ("Location", "C2", "accidental", "German"),
        ("building", "house", "accidental", "German"),
    ]
    assert notes[2].describe(german) == (
        "building house (B2, C2): unenterable from fires no side kindled; Control of the building goes to German, "
        "who controls all its hexes (Fire & Victory)")
    split = german.with_(control={H("B2"): "German", H("C2"): "Russian"})
    assert table(fire_control(split))[2] == ("building", "house", "accidental", None)
    assert fire_control(split)[2].describe(split).endswith("all its hexes (no side does) (Fire & Victory)")
    assert fire_control(split)[1].describe(split) == (
        "C2: unenterable from fires no side kindled; Control stays with Russian, who controls hex C2 "
        "(Fire & Victory)")


def test_fire_and_victory_joined_fires_of_both_sides_are_not_forfeited_as_a_whole() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["B2", "B3", "B4"], feature="w")
    p = pos(hexes, fires=[blaze("B2", kindled_by="German"), blaze("B3"), blaze("B4", kindled_by="Russian")])
    notes = fire_control(p.with_(control={H("B3"): "Russian"}))
    assert table(notes) == [
        ("Location", "B2", "kindled", "Russian"),  # each still forfeits what it set on fire ...
        ("Location", "B3", "accidental", "Russian"),  # ... but the joined area is not gained whole
        ("Location", "B4", "kindled", "German"),
    ]
    assert all(n.joined for n in notes)
    assert notes[1].describe(p.with_(control={H("B3"): "Russian"})) == (
        "B3: unenterable from fires of both sides joined; Control stays with Russian, who controls hex B3 "
        "(Fire & Victory)")


def test_fire_and_victory_the_forfeit_ends_when_the_fire_is_out() -> None:
    hexes = grid("A-C", "1-4")
    put(hexes, Terrain.WOODS, ["B3"])
    p = pos(hexes, fires=[kindled_flame("B3", "German")])
    out, _ = flame_to_blaze(p, ScriptedDice([1, 1]))  # Final DR ≤ 2: the Flame is extinguished (B25.151)
    assert out.fires == () and fire_control(out) == []


# --- position files: Control and both kindlers round-trip ---------------------------------------------------


def test_position_file_control_and_kindled_by_both_round_trip() -> None:
    text = """format = 1
sides = ["German", "Russian"]
[control]
German = ["B1-B3"]
Russian = ["C2"]
[map]
columns = "A-C"
rows = "1-4"
[[map.terrain]]
kind = "woods"
hexes = ["B2"]
[[fires]]
at = "B2"
kind = "blaze"
kindled_by = ["German", "Russian"]
"""
    p = loads(text, "p.toml")
    assert p.control == {H("B1"): "German", H("B2"): "German", H("B3"): "German", H("C2"): "Russian"}
    assert p.fires[0].kindlers == ("German", "Russian")
    again = loads(dumps(p), "q.toml")
    assert again.control == p.control and again.fires == p.fires
    assert [n.scope for n in fire_control(p)] == [Scope.LOCATION]


@pytest.mark.parametrize(("bad", "message"), [
    ('[control]\nGerman = ["B2"]\nRussian = ["B2"]\n', "control.Russian: hex B2 is also controlled by German"),
    ('[control]\nFinn = ["B2"]\n', "control.Finn: side 'Finn' is not one of the file's sides"),
    ('[control]\nGerman = ["Z9"]\n', "control.German: hex Z9 is not on the map"),
])
def test_position_file_control_errors_name_the_field(bad: str, message: str) -> None:
    text = f'format = 1\nsides = ["German", "Russian"]\n{bad}[map]\ncolumns = "A-C"\nrows = "1-4"\n'
    with pytest.raises(BadPositionFile, match=message):
        loads(text, "p.toml")


# --- every field of the notes (what the mutation run of core/victory.py asked for) ---------------------------


def test_fire_and_victory_hex_and_building_notes_field_by_field_and_word_for_word() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["A2"])
    b = building(hexes, "inn", Material.STONE, ["B2", "C2"], BuildingKind.TWO_STORY)
    # A2 (one Location) first, then B2 (two levels): every whole hex of the area gets its note.
    fires = [blaze("A2", kindled_by="Russian"), blaze("B2"), blaze("B2.1"), blaze("C2"), blaze("C2.1")]
    p = pos(hexes, [b], fires=fires)
    notes = {(n.scope, n.place): n for n in fire_control(p)}
    assert notes[Scope.HEX, "B2"] == ControlNote(
        Scope.HEX, "B2", Cause.UNENTERABLE, "German", ("Russian",), False, None, ("B2",))
    assert notes[Scope.BUILDING, "inn"].hexes == ("B2", "C2") and notes[Scope.BUILDING, "inn"].kindled_by == (
        "Russian",)
    assert (Scope.HEX, "C2") in notes and (Scope.HEX, "A2") not in notes
    # Kindled in a hex of two levels, the other level not burning: the fire has not joined anything.
    kindled = pos(hexes, [b], fires=[Fire(L("B2.1"), FireKind.FLAME, 1, kindled_by="German")])
    hx, bd = [n for n in fire_control(kindled) if n.scope is not Scope.LOCATION]
    assert (hx.kindled_by, hx.joined, hx.hexes, bd.kindled_by, bd.joined, bd.hexes) == (
        ("German",), False, ("B2",), ("German",), False, ("B2", "C2"))
    assert hx.describe(kindled) == ("hex B2: a fire kindled by German burns in it; Control of the hex goes to "
                                    "Russian (Fire & Victory)")
    assert bd.describe(kindled) == ("building inn (B2, C2): a fire kindled by German burns in it; Control of the "
                                    "building goes to Russian (Fire & Victory)")
    joined = kindled.with_(fires=(*kindled.fires, Fire(L("C2"), FireKind.FLAME, 1, kindled_by="Russian")))
    hexes_joined = {n.place: n.joined for n in fire_control(joined) if n.scope is not Scope.LOCATION}
    assert hexes_joined == {"B2": True, "C2": True, "inn": True}


def test_fire_and_victory_every_area_is_decided_and_accidental_hexes_of_two_levels_too() -> None:
    hexes = grid("A-H", "1-8")
    put(hexes, Terrain.WOODS, ["A1", "H8"])
    b = building(hexes, "inn", Material.WOODEN, ["E4"], BuildingKind.TWO_STORY)
    fires = [blaze("A1", kindled_by="German"), blaze("E4"), blaze("E4.1"), blaze("H8", kindled_by="Russian")]
    p = pos(hexes, [b], fires=fires).with_(control={H("E4"): "Russian"})
    notes = {(n.scope.value, n.place): (n.cause.value, n.controlled_by, n.joined) for n in fire_control(p)}
    assert notes == {
        ("Location", "A1"): ("kindled", "Russian", False),
        ("Location", "E4"): ("accidental", "Russian", False),
        ("Location", "E4.1"): ("accidental", "Russian", False),
        ("Location", "H8"): ("kindled", "German", False),
        ("hex", "E4"): ("accidental", "Russian", False),
        ("building", "inn"): ("accidental", "Russian", False),
    }
    both = pos(hexes, [b], fires=[Fire(L("E4"), FireKind.FLAME, 1, kindled_by="German"),
                                  Fire(L("E4"), FireKind.FLAME, 1, kindled_by="Russian")])
    (loc_note, hex_note, building_note) = fire_control(both)
    assert (loc_note.location, loc_note.kindled_by) == (L("E4"), ("German", "Russian"))
    assert hex_note.kindled_by == building_note.kindled_by == ("German", "Russian")


def test_fire_and_victory_a_building_kindled_by_one_side_joined_by_the_others_fire_outside_it() -> None:
    hexes = grid("A-F", "1-6")
    put(hexes, Terrain.WOODS, ["A2", "C3", "D3"])
    zeta = building(hexes, "zeta", Material.WOODEN, ["B2"])
    alpha = building(hexes, "alpha", Material.WOODEN, ["D4"])
    p = pos(hexes, [zeta, alpha], fires=[blaze("A2", kindled_by="Russian"), blaze("B2", kindled_by="German")])
    (bz,) = [n for n in fire_control(p) if n.scope is Scope.BUILDING]
    assert (bz.place, bz.cause, bz.controlled_by, bz.joined) == ("zeta", Cause.KINDLED, "Russian", True)
    # A building gained whole in an area comes after one forfeited for its own fire; notes list buildings by id.
    q = pos(hexes, [zeta, alpha], fires=[blaze("B2", kindled_by="German"), blaze("C3"), blaze("D3"), blaze("D4")])
    assert [(n.place, n.cause) for n in fire_control(q) if n.scope is Scope.BUILDING] == [
        ("alpha", Cause.UNENTERABLE), ("zeta", Cause.KINDLED)]


def test_fire_and_victory_two_separate_joined_fires_are_both_joined() -> None:
    hexes = grid("A-H", "1-8")
    put(hexes, Terrain.WOODS, ["A1", "A2", "H7", "H8"])
    p = pos(hexes, fires=[blaze("A1", kindled_by="German"), blaze("A2", kindled_by="Russian"),
                          blaze("H7", kindled_by="German"), blaze("H8", kindled_by="Russian")])
    assert [(n.place, n.joined) for n in fire_control(p)] == [("A1", True), ("A2", True), ("H7", True), ("H8", True)]
