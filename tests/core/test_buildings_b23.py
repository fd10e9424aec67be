"""Buildings, rooftops, Factories, Fortified Buildings and the Marketplace against the B23 texts (issue 21).

Each test names the paragraphs it checks; the readings chosen where the texts are silent are in
docs/rules.md ("Readings decided (issue 21)").
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from asl_vassal_bridge.core import EC, BuildingKind, Environment, Material, Terrain, Unit, UnitKind
from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.errors import IllegalAction
from asl_vassal_bridge.core.fire import directly_attached, spread_check
from asl_vassal_bridge.core.firestarts import ft_fire_check, kindling_check
from asl_vassal_bridge.core.flamethrower import FtAttack, ft_attack
from asl_vassal_bridge.core.hexes import Direction
from asl_vassal_bridge.core.molotov import FireType, MolAttack, location_tem, mol_attack
from asl_vassal_bridge.core.position import Fire, FireKind, Location, OffBoardError, Position
from asl_vassal_bridge.core.smoke import fire_smoke
from asl_vassal_bridge.core.victory import fire_control
from asl_vassal_bridge.core.wind import collapse, collapse_candidates
from asl_vassal_bridge.posfile import BadPositionFile, dumps, load, loads

from .builders import L, blaze, building, flame, grid, heavy, mild, pos, put


def total(p: Position, loc: Location, **kw: object) -> int:
    return sum(d.value for d in location_tem(p, loc, **kw))  # type: ignore[arg-type]


# --- B23.86 with B25.66: a rooftop goes when a level beneath it becomes rubble ---------------------------


def _stone_multi_story_with_rooftop() -> Position:
    hexes = grid("A-E", "1-5")
    hexes[L("C3").hex] = hexes[L("C3").hex].__class__(stairwell=True)
    b = building(hexes, "b", Material.STONE, ["C3", "C4"], BuildingKind.MULTI_STORY, rooftop=True)
    return pos(hexes, [b], [blaze("C3.2")], Environment())


def test_b23_86_b25_66_a_rooftop_ceases_to_exist_when_the_level_beneath_it_collapses() -> None:
    p = _stone_multi_story_with_rooftop()
    assert p.map.rooftop(L("C3").hex) is not None
    new, rep = collapse(p, ScriptedDice([]))
    c3 = L("C3").hex
    assert new.map.rooftop(c3) is None
    assert new.map.locations(c3) == (L("C3"), L("C3.1"))
    assert new.map.rooftop(L("C4").hex) is not None  # the other hex keeps its rooftop
    with pytest.raises(OffBoardError, match=r"B23\.86"):
        new.map.parse_location("C3.roof")
    assert rep.events[-1].text.startswith("C3.2 and every level above it collapse into burning rubble (1 fire(s) "
                                          "with them); C3.1 and below stand; the rooftop C3.roof ceases to exist "
                                          "(B23.86); where its rubble falls")
    # a building without rooftops records none gone
    bare = p.with_(map=p.map.with_building(p.map.buildings["b"].__class__("b", Material.STONE,
                                                                          BuildingKind.MULTI_STORY)))
    after, _ = collapse(bare, ScriptedDice([]))
    assert after.map.buildings["b"].rooftops_gone == frozenset() and "rooftop_gone" not in dumps(after)
    assert "rooftop_gone" in dumps(new)


def test_b23_86_cli_upkeep_then_tem_on_the_gone_rooftop_is_refused(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's reproduction: a Wind Change DR of 12 collapses B2.2; B2.roof is gone, also after a round trip."""
    from asl_vassal_bridge.cli import main

    src = tmp_path / "p.toml"
    src.write_text('format = 1\nsides = ["German", "Russian"]\n[clock]\nturn = 2\nhalf = 1\nphase = "RPh"\n'
                   '[map]\ncolumns = "A-D"\nrows = "1-4"\n[[buildings]]\nid = "b"\nmaterial = "stone"\n'
                   'kind = "multi-story"\nhexes = ["B2", "B3"]\nstairwells = ["B2"]\nrooftop = true\n'
                   '[[fires]]\nat = "B2.2"\nkind = "blaze"\n', encoding="utf-8")
    out = tmp_path / "q.toml"
    assert main(["upkeep", str(src), "--phase", "rph", "--dice", "6,6", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["tem", str(out), "B2.roof"]) == 2
    assert "B23.86" in capsys.readouterr().err
    assert main(["tem", str(out), "B3.roof"]) == 0


def test_b23_86_b25_66_a_chosen_rooftop_blaze_rubbles_the_location_beneath_it() -> None:
    """A rooftop never becomes rubble: chosen for Collapse, the Location beneath it falls (and the rooftop
    with it); the units on the rooftop go with it (B23.86, B25.66; docs/rules.md)."""
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.WOODEN, ["B2", "B3"], BuildingKind.TWO_STORY, rooftop=True)
    p = pos(hexes, [b], [flame("B2.1"), flame("B2")], Environment())
    p = p.add_fire(Fire(p.map.parse_location("B2.roof"), FireKind.BLAZE, since=1))
    p = p.with_(units=(Unit("u1", "4-6-7", "German", p.map.parse_location("B2.roof")),
                       Unit("u2", "4-4-7", "Russian", L("B2"))))
    assert collapse_candidates(p) == [p.map.parse_location("B2.roof")]
    new, rep = collapse(p, ScriptedDice([]))
    b2 = L("B2").hex
    assert new.map.rooftop(b2) is None and new.map.locations(b2) == (L("B2"),)
    assert [f.location for f in new.fires] == [L("B2")] and new.fires[0].is_flame
    assert [u.id for u in new.units] == ["u2"]
    text = rep.events[-1].text
    assert text.startswith("the Blaze on B2.roof is chosen; a rooftop never becomes rubble, so the Location "
                           "beneath it falls (B23.86): B2.1 and every level above it collapse")
    assert "4-6-7 (German)" in text


def test_b23_86_b25_66_a_factory_rooftop_blaze_brings_down_the_hex_into_burning_rubble() -> None:
    """A Factory has no upper floor (B23.74): beneath its rooftop is the ground level, so the hex collapses
    into burning rubble; the fire is the rooftop's, burning on from when it appeared."""
    hexes = grid("A-E", "1-5")
    b = building(hexes, "f", Material.STONE, ["C3", "C4"], BuildingKind.FACTORY, rooftop=True)
    p = pos(hexes, [b], [], Environment())
    roof = p.map.parse_location("C3.roof")
    p = p.add_fire(Fire(roof, FireKind.BLAZE, since=2, kindled_by="German"))
    new, _ = collapse(p, ScriptedDice([]))
    info = new.map.hexes[L("C3").hex]
    assert info.terrain is Terrain.STONE_RUBBLE and info.building is None
    assert new.fires == (Fire(L("C3"), FireKind.BLAZE, since=2, kindled_by="German"),)
    # A Blaze already on the ground level is that Location's fire: the rubble keeps it, the rooftop's falls into it.
    both = p.add_fire(Fire(L("C3"), FireKind.BLAZE, since=4))
    new2, _ = collapse(both, ScriptedDice([1, 5]))  # Random Selection: C3 1, C3.roof 5
    assert new2.fires == (Fire(L("C3"), FireKind.BLAZE, since=4),)


def test_b25_66_random_selection_among_rooftop_and_floor_blazes_the_lower_takes_the_rooftop() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3"], BuildingKind.MULTI_STORY, rooftop=True)
    p = pos(hexes, [b], [blaze("C3.1")], Environment())
    roof = p.map.parse_location("C3.roof")
    p = p.add_fire(Fire(roof, FireKind.BLAZE, since=1))
    assert collapse_candidates(p) == [L("C3.1"), roof]
    new, _ = collapse(p, ScriptedDice([3, 3]))  # both chosen: C3.1 falls and takes C3.2 and the rooftop
    assert new.map.locations(L("C3").hex) == (L("C3"),) and new.fires == ()
    # A two-story house: its top floor and its rooftop both chosen; the floor falls as itself.
    hexes = grid("A-E", "1-5")
    house = building(hexes, "h", Material.WOODEN, ["C3"], BuildingKind.TWO_STORY, rooftop=True)
    q = pos(hexes, [house], [blaze("C3.1")], Environment())
    q = q.add_fire(Fire(q.map.parse_location("C3.roof"), FireKind.BLAZE, since=1))
    after, rep = collapse(q, ScriptedDice([4, 4]))
    assert rep.events[-1].text.startswith("C3.1 and every level above it collapse into burning rubble (2 fire(s)")
    assert after.map.locations(L("C3").hex) == (L("C3"),)


def test_b25_66_a_blazing_hut_is_not_a_collapse_candidate() -> None:
    """Huts section: a hut Collapses (a Collapsed hut) when its Flame becomes a Blaze; it never becomes
    Wooden Rubble by B25.66 (docs/rules.md)."""
    hexes = grid("A-E", "1-5")
    hut = building(hexes, "hut", Material.WOODEN, ["C3"], BuildingKind.HUT)
    house = building(hexes, "house", Material.WOODEN, ["D4"])
    p = pos(hexes, [hut, house], [blaze("C3"), blaze("D4")], Environment())
    assert collapse_candidates(p) == [L("D4")]
    new, _ = collapse(p, ScriptedDice([]))
    assert new.map.hexes[L("C3").hex].building == "hut"
    assert new.map.hexes[L("D4").hex].terrain is Terrain.WOODEN_RUBBLE
    only_hut = pos(hexes, [hut, house], [blaze("C3")], Environment())
    same, rep = collapse(only_hut, ScriptedDice([]))
    assert same.map == only_hut.map and "nothing collapses" in rep.events[0].text


# --- B23.8 / B23.74 / A22.32: rooftops at half levels -----------------------------------------------------


def _factories() -> Position:
    """A 2½-level Factory (printed stairwell, B23.74) in B2-B3, a 1½-level one in D2-D3, a wooden two-story
    house in C1 (level 1 at elevation 1), all with rooftops."""
    hexes = grid("A-E", "1-4")
    tall = building(hexes, "tall", Material.STONE, ["B2", "B3"], BuildingKind.FACTORY, rooftop=True,
                    fortified=frozenset({("B2", 0)}))
    hexes[L("B3").hex] = hexes[L("B3").hex].__class__(hexes[L("B3").hex].terrain, building="tall", stairwell=True)
    low = building(hexes, "low", Material.STONE, ["D2", "D3"], BuildingKind.FACTORY, rooftop=True)
    house = building(hexes, "house", Material.WOODEN, ["C1", "C2"], BuildingKind.TWO_STORY, rooftop=True)
    return pos(hexes, [tall, low, house], [], Environment())


def test_b23_8_b23_74_rooftops_sit_at_the_next_half_level() -> None:
    p = _factories()
    m = p.map
    assert m.elevation(m.parse_location("B2.roof")) == Fraction(5, 2)  # 2½-level Factory
    assert m.elevation(m.parse_location("D2.roof")) == Fraction(3, 2)  # 1½-level Factory
    assert m.elevation(m.parse_location("C1.roof")) == Fraction(3, 2)  # two-story house
    assert m.elevation(L("C1.1")) == 1


def test_a22_32_b23_8_a_ft_from_the_ground_cannot_reach_a_two_and_a_half_level_factory_rooftop() -> None:
    p = _factories()
    with pytest.raises(IllegalAction, match=r"level difference \+2½, A22\.32"):
        ft_attack(p, FtAttack(L("A2"), p.map.parse_location("B2.roof")))


def test_a22_32_b23_8_one_and_a_half_levels_is_not_two_levels_full_ft_fp() -> None:
    """Reading (docs/rules.md): A22.32's 12 FP is for exactly two levels; 1½ is less (24 FP); 2½ is more."""
    p = _factories()
    plan = ft_attack(p, FtAttack(L("C3"), p.map.parse_location("D2.roof")))
    assert plan.level_difference == Fraction(3, 2) and plan.fp == 24
    assert plan.as_data(p)["level_difference"] == 1.5
    assert "level difference +1½" in plan.describe(p)
    up_one = ft_attack(p, FtAttack(L("C2.1"), p.map.parse_location("B2.roof")))  # 1 → 2½
    assert up_one.level_difference == Fraction(3, 2) and up_one.fp == 24


def test_b23_81_height_advantage_vs_a_half_level_rooftop() -> None:
    p = _factories()
    tall_roof, low_roof = p.map.parse_location("B2.roof"), p.map.parse_location("D2.roof")
    assert total(p, tall_roof, firer=L("C2.1")) == 1  # level 1 fires up at 2½: Height Advantage
    assert total(p, low_roof, firer=L("C2.1")) == 1  # level 1 fires up at 1½
    assert total(p, low_roof, firer=tall_roof) == 0  # 2½ fires down at 1½
    assert total(p, tall_roof, firer=p.map.parse_location("C1.roof")) == 1  # 1½ fires up at 2½


# --- B23.921 with B23.741 and B23.88: a Fortified Factory Location ---------------------------------------


def test_b23_921_b23_741_a_fortified_factory_location_fired_on_from_within_gets_plus_2() -> None:
    p = _factories()
    drms = location_tem(p, L("B2"), firer=L("B3"))
    assert [(d.value, d.rule) for d in drms] == [(2, "B23.741, B23.921")]
    assert total(p, L("B3"), firer=L("B2")) == 1  # not Fortified: the Factory's +1
    assert total(p, L("B2"), firer=L("A2")) == 4  # from outside: stone +3, Fortified +1
    assert total(p, L("B2"), indirect=True) == 3  # vs Indirect Fire no Fortified extra (B23.741)


def test_b23_88_ground_unit_fired_on_from_its_own_hexs_rooftop_gets_no_fortified_extra() -> None:
    p = _factories()
    roof = p.map.parse_location("B2.roof")
    drms = location_tem(p, L("B2"), firer=roof)
    assert [(d.value, d.rule) for d in drms] == [(1, "B23.741, B23.88")]
    assert total(p, L("B2"), firer=p.map.parse_location("B3.roof")) == 2  # another hex's rooftop: within, +2
    assert total(p, roof, firer=L("B2")) == 1  # and the rooftop unit has Height Advantage (B23.81)


def test_b23_921_a_mol_attack_within_the_factory_uses_that_tem() -> None:
    p = _factories()
    plan = mol_attack(p, MolAttack(L("B3"), L("B2"), thrower_fp=3, available=True, fire=FireType.PREP))
    assert (2, "B23.741, B23.921") in [(d.value, d.rule) for d in plan.drms]


# --- B23.743 / B25.62: a rubbled Factory hex is still part of the Factory --------------------------------


def test_b23_743_rubbled_factory_hex_is_attached_to_the_factory_and_fires_into_it_as_from_within() -> None:
    hexes = grid("A-E", "1-5")
    f = building(hexes, "f", Material.STONE, ["C3", "C4"], BuildingKind.FACTORY, rooftop=True)
    p = pos(hexes, [f], [blaze("C3", since=1)], Environment())
    new, _ = collapse(p, ScriptedDice([]))
    assert new.map.factory_of_rubble(L("C3").hex) is not None
    assert directly_attached(new.map, L("C3"), L("C4"))
    check = spread_check(new, L("C3"), L("C4"), Direction(4))
    assert check is not None and all(d.rule != "B25.62" for d in check.check.drms)  # no −2 not attached
    assert total(new, L("C4"), firer=L("C3")) == 1  # B23.743: as from a Factory Location
    # The rubble hex is no building hex (B23.743): the spread from it is not "within a building" and the
    # Mild Breeze DRM applies (B25.64), as it does not between two hexes of the Factory.
    breezy = new.with_(environment=mild(4))
    windy = spread_check(breezy, L("C3"), L("C4"), Direction(4))
    assert windy is not None and windy.check is not None and any(d.rule == "B25.64" for d in windy.check.drms)
    within = spread_check(p.with_(environment=mild(4)), L("C3"), L("C4"), Direction(4))
    assert within is not None and within.check is not None and all(d.rule != "B25.64" for d in within.check.drms)
    # an ordinary rubble hex next to a Factory is not part of it
    hexes2 = grid("A-E", "1-5")
    f2 = building(hexes2, "f", Material.STONE, ["C4"], BuildingKind.FACTORY)
    put(hexes2, Terrain.STONE_RUBBLE, ["C3"])
    assert not directly_attached(pos(hexes2, [f2]).map, L("C3"), L("C4"))


# --- B25.63 with B25.2: smoke in an Interior Building hex ------------------------------------------------


def _interior() -> Position:
    hexes = grid("A-G", "1-7")
    names = ["D4", "D3", "E4", "E5", "D5", "C5", "C4"]  # D4 and its six neighbours
    b = building(hexes, "b", Material.STONE, names, BuildingKind.MULTI_STORY, rooftop=True)
    put(hexes, Terrain.WOODS, ["A1"])
    return pos(hexes, [b], [blaze("D4"), blaze("D4.1"), blaze("A1")], Environment())


def test_b25_63_b25_2_smoke_in_an_interior_building_hex_is_four_levels_and_does_not_drift() -> None:
    p = _interior()
    assert L("D4").hex in p.map.interior_hexes
    roof = p.map.parse_location("D4.roof")
    p = p.add_fire(Fire(roof, FireKind.BLAZE, since=1))
    for env, outside in ((mild(4), (2, 3)), (heavy(4), None), (Environment(mild(4).ec, mild(4).wind, gusts=True),
                                                                 (2, 3))):
        smoke = {s.location: s for s in fire_smoke(p.with_(environment=env))}
        for loc in (L("D4"), L("D4.1")):
            assert (smoke[loc].height, smoke[loc].drift) == (4, ()), (env, loc)  # No Wind (B25.63)
        if outside is None:  # Heavy Winds: no smoke outside, nor on the rooftop (not an Interior Location)
            assert set(smoke) == {L("D4"), L("D4.1")}
        else:  # Gusts leave the Wind Force as it is (B25.651): a Mild Breeze's two levels outside
            assert smoke[L("A1")].height == 2 and smoke[roof].height == 2  # a rooftop has the wind


# --- B23.912: fortify from the ground up --------------------------------------------------------------


_FORT = ('format = 1\n[map]\ncolumns = "A-C"\nrows = "1-3"\n[[buildings]]\nid = "b"\nmaterial = "stone"\n'
         'kind = "multi-story"\nhexes = ["B2"]\nfortified = {forts}\n')


def test_b23_912_a_fortified_level_1_over_an_unfortified_ground_level_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "p.toml"
    f.write_text(_FORT.format(forts='["B2.1"]'), encoding="utf-8")
    with pytest.raises(BadPositionFile) as e:
        load(f)
    assert str(e.value).endswith("buildings[0].fortified: B2.1 is Fortified but B2 below it is not: a hex is "
                                 "fortified from the ground up (B23.912)")
    f.write_text(_FORT.format(forts='["B2", "B2.2"]'), encoding="utf-8")
    with pytest.raises(BadPositionFile, match=r"B2\.2 is Fortified but B2\.1 below it is not"):
        load(f)
    f.write_text(_FORT.format(forts='["B2", "B2.1"]'), encoding="utf-8")
    assert load(f).map.is_fortified(L("B2.1"))


# --- B23.83: rooftops are not building Locations for Victory Conditions ----------------------------------


def test_b23_83_a_kindled_rooftop_fire_gets_no_fire_and_victory_note() -> None:
    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.WOODEN, ["C3"], BuildingKind.TWO_STORY, rooftop=True)
    p = pos(hexes, [b], [blaze("C3.1", kindled_by="German")], Environment())
    p = p.add_fire(Fire(p.map.parse_location("C3.roof"), FireKind.FLAME, 1, kindled_by="German"))
    assert [n.location for n in fire_control(p)] == [L("C3.1")]
    # the rooftop's fire still burns, and still joins fires kindled by both sides
    q = p.with_(fires=(blaze("C3.1", kindled_by="German"),
                       Fire(p.map.parse_location("C3.roof"), FireKind.FLAME, 1, kindled_by="Russian")))
    assert [(n.location, n.joined) for n in fire_control(q)] == [(L("C3.1"), True)]


# --- B23.73: the Marketplace ---------------------------------------------------------------------------


def test_b23_73_marketplace_ground_is_open_ground_under_a_burnable_level_1(tmp_path: Path) -> None:
    f = tmp_path / "m.toml"
    f.write_text('format = 1\n[map]\ncolumns = "A-C"\nrows = "1-3"\n[[buildings]]\nid = "b"\nmaterial = "stone"\n'
                 'kind = "two-story"\nhexes = ["B2", "B3"]\nmarketplace = ["B2"]\n', encoding="utf-8")
    p = load(f)
    m = p.map
    assert m.terrain_at(L("B2")) is Terrain.OPEN_GROUND and not m.is_building_location(L("B2"))
    assert m.terrain_at(L("B2.1")) is Terrain.STONE_BUILDING and m.terrain_at(L("B3")) is Terrain.STONE_BUILDING
    assert total(p, L("B2"), firer=L("A1")) == 0  # fired on as if open ground (B23.73)
    assert [(d.value, d.rule) for d in location_tem(p, L("B2"), indirect=True)] == [(1, "B23.32, B23.73")]
    assert total(p, L("B2.1"), firer=L("A1")) == 3
    with pytest.raises(IllegalAction, match=r"cannot burn"):
        kindling_check(p, L("B2"), UnitKind.LEADER)
    assert kindling_check(p, L("B2.1"), UnitKind.LEADER).needed == 8
    assert loads(dumps(p)).map.buildings["b"].marketplace == frozenset({"B2"})
    f.write_text('format = 1\n[map]\ncolumns = "A-C"\nrows = "1-3"\n[[buildings]]\nid = "b"\nmaterial = "stone"\n'
                 'hexes = ["B2"]\nmarketplace = ["B2"]\n', encoding="utf-8")
    with pytest.raises(BadPositionFile, match=r"marketplace: hex B2 must be a hex of building 'b' with a Level 1"):
        load(f)


# --- B25.12 with B25.5: no EC DRM on a FT fire start in a building ---------------------------------------


def test_b25_12_b25_5_ft_fire_start_takes_the_ec_drm_except_in_a_building() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["A1"])
    house = building(hexes, "house", Material.WOODEN, ["C3"])
    yard = building(hexes, "yard", Material.WOODEN, ["D4"], BuildingKind.LUMBERYARD)
    p = pos(hexes, [house, yard], [], Environment(EC.DRY))
    drms = {n: [(d.value, d.rule) for d in ft_fire_check(p, L(n), "KIA").drms] for n in ("A1", "C3", "D4")}  # type: ignore[union-attr]
    assert drms == {"A1": [(1, "B25.5")], "C3": [], "D4": [(1, "B25.5")]}  # a Lumberyard takes EC (B23.211)
