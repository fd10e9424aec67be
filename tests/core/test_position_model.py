"""The Position model's own behaviour: Location names, the clock, the map's refusals, fire bookkeeping.

Asked for by mutation testing (issue 21): these parts of ``core/position.py``
were checked only through the position-file reader and the CLI.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from asl_vassal_bridge.core.errors import IllegalAction
from asl_vassal_bridge.core.hexes import BoardPlacement, Hex, HexNameError, MapLayout
from asl_vassal_bridge.core.position import (
    Clock,
    Fire,
    FireKind,
    GameMap,
    HexInfo,
    Location,
    OffBoardError,
    Phase,
    Position,
    Unit,
    UnitKind,
    Wreck,
)
from asl_vassal_bridge.core.terrain import Building, BuildingKind, Material, Terrain

from .builders import H, L, building, grid


@pytest.mark.parametrize(("text", "loc"), [
    ("E4", Location(Hex.parse("E4"))),
    ("  E4  ", Location(Hex.parse("E4"))),
    ("E4.1", Location(Hex.parse("E4"), 1)),
    ("E4.-1", Location(Hex.parse("E4"), -1)),
    ("E4 Level 2", Location(Hex.parse("E4"), 2)),
    ("e4 LEVEL 2", Location(Hex.parse("E4"), 2)),
    ("E4 1", Location(Hex.parse("E4"), 1)),
    ("E4.roof", Location(Hex.parse("E4"), -99, True)),
    ("E4.ROOF", Location(Hex.parse("E4"), -99, True)),
    ("E4 rooftop", Location(Hex.parse("E4"), -99, True)),
])
def test_location_names_parse(text: str, loc: Location) -> None:
    assert Location.parse(text) == loc


def test_location_parse_refuses_a_bad_hex_and_uses_the_layout() -> None:
    with pytest.raises(HexNameError, match=re.escape("'4E' is not a hex name")):
        Location.parse("4E.1")
    layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1)))
    assert Location.parse("23A1.1", layout) == Location(layout.parse("22GG1"), 1)
    with pytest.raises(HexNameError, match=re.escape("'E4' is not a hex of this map")):
        Location.parse("E4", layout)


def test_location_labels_and_ground() -> None:
    layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1)))
    loc = Location(layout.parse("23C3"), 1)
    assert loc.label(layout) == "23C3.1"
    assert loc.label(None) == loc.name == str(loc) == loc.hex.name + ".1" != "23C3.1"
    assert Location(Hex.parse("E4"), 0).name == "E4"
    assert Location(Hex.parse("E4"), -1).name == "E4.-1"
    assert Location(Hex.parse("E4"), 3, True).label(layout) == f"{layout.name(Hex.parse('E4'))}.roof"
    assert Location(Hex.parse("E4"), 2, True).ground == Location(Hex.parse("E4"))


def test_fire_kindlers_and_kinds() -> None:
    a = Fire(L("A1"), FireKind.FLAME, kindled_by="German")
    b = Fire(L("A1"), FireKind.BLAZE, kindled_by="Russian", also_kindled_by="German")
    c = Fire(L("A1"), FireKind.FLAME)
    assert a.kindlers == ("German",) and b.kindlers == ("Russian", "German") and c.kindlers == ()
    assert Fire(L("A1"), FireKind.FLAME, also_kindled_by="German").kindlers == ("German",)
    assert Fire.kindlers_of([c, a, b]) == ("German", "Russian")
    assert Fire.kindlers_of([c]) == (None, None)
    assert Fire.kindlers_of([]) == (None, None)
    assert Fire.kindlers_of([a, a]) == ("German", None)
    assert a.is_flame and not a.is_blaze and b.is_blaze and not b.is_flame


def test_unit_kinds_and_pinned_status() -> None:
    assert [k for k in UnitKind if k.is_infantry] == [UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW,
                                                      UnitKind.LEADER, UnitKind.HERO]
    assert [k for k in UnitKind if k.is_smc] == [UnitKind.LEADER, UnitKind.HERO]
    u = Unit("u1", "4-6-7", "German", L("A1"))
    assert u.kind is UnitKind.SQUAD and not u.immobilized and u.may_break_voluntarily
    assert not u.broken and not u.pinned and not u.in_melee and not u.berserk and not u.in_pillbox
    assert not u.is_pinned
    assert Unit("u1", "4-6-7", "German", L("A1"), pinned=True).is_pinned
    assert not Unit("u1", "4-6-7", "German", L("A1"), pinned=True, berserk=True).is_pinned  # A15.42
    assert not Unit("u1", "4-6-7", "German", L("A1"), berserk=True).is_pinned


def test_phase_names_and_clock_text() -> None:
    assert [p.value for p in Phase] == ["RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"]
    assert Phase.from_name("dfph") is Phase.DFPH
    assert Phase.from_name(" CCPH ") is Phase.CCPH
    assert Phase.from_name("pfph") is Phase.PFPH
    assert Phase.from_name("rph") is Phase.RPH
    assert Phase.from_name("mph") is Phase.MPH
    with pytest.raises(ValueError) as e:
        Phase.from_name("Turn")
    assert str(e.value) == "unknown phase 'Turn' (expected one of: RPh, PFPh, MPh, DFPh, AFPh, RtPh, APh, CCPh)"
    assert str(Clock(3, 2, Phase.RTPH)) == "Turn 3.2 RtPh"
    assert str(Clock()) == "Turn 1.1 RPh"
    assert [Clock(t, h).player_turn for t, h in ((1, 1), (1, 2), (2, 1), (4, 2))] == [1, 2, 3, 8]
    assert Clock(1, 2) > Clock(1, 1, Phase.CCPH)
    Clock(1, 2)  # the edges of what the clock accepts
    with pytest.raises(ValueError, match=re.escape("not turn 1 half 0")):
        Clock(1, 0)
    with pytest.raises(ValueError, match=re.escape("not turn -1 half 1")):
        Clock(-1, 1)


def test_the_clock_steps_phase_by_phase_through_a_whole_game_turn() -> None:
    c = Clock(1, 1, Phase.RPH)
    seen = [c]
    for _ in range(16):
        c = c.next_phase()
        seen.append(c)
    assert [str(s) for s in seen[:9]] == ["Turn 1.1 RPh", "Turn 1.1 PFPh", "Turn 1.1 MPh", "Turn 1.1 DFPh",
                                          "Turn 1.1 AFPh", "Turn 1.1 RtPh", "Turn 1.1 APh", "Turn 1.1 CCPh",
                                          "Turn 1.2 RPh"]
    assert seen[16] == Clock(2, 1, Phase.RPH)
    assert Clock(1, 1, Phase.APH).next_player_turn() == Clock(1, 2, Phase.RPH)


def _map(name: str = "") -> GameMap:
    hexes = grid("A-E", "1-5")
    b2 = building(hexes, "b2", Material.STONE, ["C3", "C4"], BuildingKind.TWO_STORY, rooftop=True,
                  rooftops_gone=frozenset({"C4"}))
    b1 = building(hexes, "b1", Material.WOODEN, ["A1"], rooftop=True)
    hexes[H("E5")] = HexInfo(Terrain.WOODS)
    return GameMap.from_hexes(hexes, [b1, b2], name=name)


def test_map_refusals_name_the_hex_and_the_map() -> None:
    with pytest.raises(ValueError) as e:
        GameMap.from_hexes({H("A1"): HexInfo(Terrain.STONE_BUILDING, building="x")})
    assert str(e.value) == "hex A1 names building 'x', which is not defined"
    m, named = _map(), _map("board 22")
    with pytest.raises(OffBoardError) as o:
        m.info(H("Z9"))
    assert str(o.value) == "hex Z9 is not on the map"
    with pytest.raises(OffBoardError) as o:
        named.info(H("Z9"))
    assert str(o.value) == "hex Z9 is not on the map board 22"
    with pytest.raises(OffBoardError) as o:
        m.parse_hex("Z9")
    assert str(o.value) == "hex Z9 is not on the map"
    with pytest.raises(OffBoardError) as o:
        named.parse_hex("Z9")
    assert str(o.value) == "hex Z9 is not on the map board 22"
    assert m.parse_hex("C3") == H("C3")
    with pytest.raises(HexNameError):
        m.parse_hex("C")


def test_map_parse_location_refusals() -> None:
    m, named = _map(), _map("board 22")
    cases = {
        "Z9.1": "hex Z9.1 is not on the map",
        "C3.2": "C3.2: hex C3 has no level 2",
        "B2.1": "B2.1: hex B2 has no level 1",
        "A1.roof": "A1.roof: hex A1 has no rooftop Location (B23.8)",
        "B2.roof": "B2.roof: hex B2 has no rooftop Location (B23.8)",
        "C4.roof": "C4.roof: the rooftop of hex C4 ceased to exist when a level beneath it became rubble (B23.86)",
    }
    for text, message in cases.items():
        with pytest.raises(OffBoardError) as e:
            m.parse_location(text)
        assert str(e.value) == message
    with pytest.raises(OffBoardError) as e:
        named.parse_location("Z9")
    assert str(e.value) == "hex Z9 is not on the map board 22"
    assert m.parse_location("C3.roof") == Location(H("C3"), 2, True)
    assert m.parse_location("C3.1") == Location(H("C3"), 1)
    assert m.parse_location(" E5 ") == Location(H("E5"))
    assert m.locations(H("C3")) == (L("C3"), L("C3.1"), Location(H("C3"), 2, True))
    assert m.locations(H("C4")) == (L("C4"), L("C4.1"))
    assert m.locations(H("A1")) == (L("A1"),)
    with pytest.raises(OffBoardError) as e:
        m.locations(H("Z9"))
    assert str(e.value) == "hex Z9 is not on the map"


def test_map_names_on_a_multi_board_map() -> None:
    layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1)))
    h = layout.parse("23C3")
    m = GameMap.from_hexes({h: HexInfo(Terrain.WOODS)}, layout=layout)
    assert m.hex_name(h) == "23C3"
    assert m.hex_name(layout.parse("22A1")) == "22A1"  # not on the map, still named by the layout
    assert m.location_name(Location(h, 1)) == "23C3.1"
    assert m.location_name(Location(h)) == "23C3"
    assert m.location_name(Location(h, 3, True)) == "23C3.roof"
    plain = GameMap.from_hexes({H("C3"): HexInfo()})
    assert plain.hex_name(H("C3")) == "C3" and plain.location_name(Location(H("C3"), 1)) == "C3.1"


def test_rooftops_elevations_and_factories() -> None:
    hexes = grid("A-E", "1-5")
    f = building(hexes, "f", Material.STONE, ["B2", "B3"], BuildingKind.FACTORY, rooftop=True)
    f2 = building(hexes, "f2", Material.STONE, ["D2"], BuildingKind.FACTORY, rooftop=True, levels=2)
    ms = building(hexes, "ms", Material.STONE, ["E4"], BuildingKind.MULTI_STORY, rooftop=True)
    hexes[H("A1")] = HexInfo(Terrain.WOODS, elevation=2)
    hexes[H("A3")] = HexInfo(Terrain.STONE_RUBBLE, feature="f")
    hexes[H("A4")] = HexInfo(Terrain.STONE_RUBBLE, feature="ms")
    hexes[H("A5")] = HexInfo(Terrain.STONE_RUBBLE)
    m = GameMap.from_hexes(hexes, [f, f2, ms])
    assert m.rooftop(H("B2")) == Location(H("B2"), 1, True)  # a Factory's rooftop sits on its ground level
    assert m.rooftop_height(H("B2")) == Fraction(3, 2)
    assert m.rooftop_height(H("D2")) == Fraction(5, 2)  # two levels of Factory wall
    assert m.rooftop_height(H("E4")) == Fraction(5, 2)
    assert m.rooftop_height(H("C3")) == Fraction(1, 2)
    assert m.elevation(Location(H("E4"), 3, True)) == Fraction(5, 2)
    assert m.elevation(L("A1")) == 2 and m.elevation(L("E4.2")) == 2
    hexes[H("B3")] = replace_info(hexes[H("B3")], stairwell=True)
    assert GameMap.from_hexes(hexes, [f, f2, ms]).rooftop_height(H("B2")) == Fraction(5, 2)
    assert m.factory_of_rubble(H("A3")) is f
    assert m.factory_of_rubble(H("A4")) is None  # rubble of a multi-story building
    assert m.factory_of_rubble(H("A5")) is None
    assert m.factory_of_rubble(H("B2")) is None
    assert m.factory_of_rubble(H("Z9")) is None
    assert m.top_level(H("E4")) == 2 and m.top_level(H("A1")) == 0
    assert m.building(H("Z9")) is None and m.building(H("A1")) is None and m.building(H("E4")) is ms
    assert m.material_of == {"f": Material.STONE, "f2": Material.STONE, "ms": Material.STONE}


def replace_info(info: HexInfo, **kw: object) -> HexInfo:
    from asl_vassal_bridge.core.values import replace

    return replace(info, **kw)  # type: ignore[arg-type]


def test_terrain_at_each_kind_of_location() -> None:
    hexes = grid("A-D", "1-4")
    mk = building(hexes, "mk", Material.WOODEN, ["B2"], BuildingKind.TWO_STORY, marketplace=frozenset({"B2"}),
                  fortified=frozenset({("B2", 1)}))
    hexes[H("A1")] = HexInfo(Terrain.WOODS)
    m = GameMap.from_hexes(hexes, [mk])
    assert m.terrain_at(L("A1")) is Terrain.WOODS
    assert m.terrain_at(L("A1.1")) is Terrain.OTHER
    assert m.terrain_at(L("B2")) is Terrain.OPEN_GROUND  # B23.73
    assert m.terrain_at(L("B2.1")) is Terrain.WOODEN_BUILDING
    assert m.is_marketplace_ground(L("B2")) and not m.is_marketplace_ground(L("B2.1"))
    assert not m.is_marketplace_ground(Location(H("B2"), 0, True)) and not m.is_marketplace_ground(L("A1"))
    assert not m.is_building_location(L("B2")) and m.is_building_location(L("B2.1"))
    assert not m.is_building_location(L("A1"))
    assert m.is_burnable(L("A1")) and not m.is_burnable(L("B2")) and not m.is_burnable(L("C3"))
    assert m.is_fortified(L("B2.1")) and not m.is_fortified(L("B2")) and not m.is_fortified(L("A1"))
    assert not m.is_fortified(Location(H("B2"), 1, True))


def test_interior_building_hexes_need_six_neighbours_of_the_same_building() -> None:
    hexes = grid("A-G", "1-7")
    names = ["D4", *(n.name for _, n in H("D4").neighbours())]
    b = building(hexes, "big", Material.STONE, names)
    m = GameMap.from_hexes(hexes, [b])
    assert m.interior_hexes == frozenset({H("D4")})
    edge = building(hexes, "edge", Material.STONE, ["A1", "B1", "A2", "B2"])  # A1's neighbours are off the map
    assert GameMap.from_hexes(hexes, [b, edge]).interior_hexes == frozenset({H("D4")})


def test_map_copies_with_a_hex_or_building_changed() -> None:
    m = _map("m")
    m2 = m.with_hex(H("B2"), HexInfo(Terrain.BRUSH))
    assert m2.info(H("B2")).terrain is Terrain.BRUSH and m.info(H("B2")).terrain is Terrain.OPEN_GROUND
    assert m2.name == "m" and m2.buildings == m.buildings
    b2 = Building("b2", Material.STONE, BuildingKind.SINGLE_STORY)
    m3 = m.with_building(b2)
    assert m3.building(H("C3")) is b2 and m3.top_level(H("C3")) == 0 and m3.name == "m"
    assert m.top_level(H("C3")) == 1
    assert set(m.all_locations()) >= {L("C3"), L("C3.1"), L("E5")}
    assert len(list(m.all_locations())) == 25 + 2 + 1
    assert H("C3") in m and H("Z9") not in m


def test_huts_collapse_and_the_refusal_names_the_hex() -> None:
    hexes = grid("A-C", "1-3")
    hut = building(hexes, "h1", Material.WOODEN, ["A1", "B1"], BuildingKind.HUT)
    hexes[H("C1")] = HexInfo(Terrain.HUT)
    m = GameMap.from_hexes(hexes, [hut], name="m")
    assert not m.is_collapsed_hut(H("A1")) and m.is_collapsed_hut(H("C1")) and not m.is_collapsed_hut(H("C2"))
    one = m.collapse_hut(H("A1"))
    assert one.is_collapsed_hut(H("A1")) and one.info(H("A1")).terrain is Terrain.HUT
    assert "h1" in one.buildings and one.building(H("B1")) is hut and one.name == "m"
    both = one.collapse_hut(H("B1"))
    assert "h1" not in both.buildings and both.is_collapsed_hut(H("B1"))
    for h in ("C1", "C2"):
        with pytest.raises(ValueError) as e:
            m.collapse_hut(H(h))
        assert str(e.value) == f"hex {h} holds no standing hut"
    hexes2 = grid("A-B", "1-2")
    house = building(hexes2, "s", Material.WOODEN, ["A1"])
    with pytest.raises(ValueError, match="hex A1 holds no standing hut"):
        GameMap.from_hexes(hexes2, [house]).collapse_hut(H("A1"))


def _position() -> Position:
    m = _map()
    return Position(m, sides=("German", "Russian"), clock=Clock(2, 2))


def test_sides_by_the_half_of_the_turn() -> None:
    p = _position()
    assert (p.attacker, p.defender) == ("Russian", "German")
    q = p.with_(clock=Clock(2, 1))
    assert (q.attacker, q.defender) == ("German", "Russian")
    assert Position(_map()).sides == ("Axis", "Allied") and dict(Position(_map()).control) == {}


def test_add_fire_refusals_name_the_location() -> None:
    p = _position()
    cases = [
        (Fire(L("Z9"), FireKind.FLAME), OffBoardError, "hex Z9 is not on the map"),
        (Fire(L("C3.2"), FireKind.FLAME), OffBoardError, "C3.2 is not a Location of hex C3"),
        (Fire(L("B2"), FireKind.FLAME), IllegalAction, "B2 holds Open Ground, which cannot burn (B25.1)"),
    ]
    for fire, error, message in cases:
        with pytest.raises(error) as e:
            p.add_fire(fire)
        assert str(e.value) == message
    q = p.add_fire(Fire(L("E5"), FireKind.BLAZE))
    with pytest.raises(IllegalAction) as ia:
        q.add_fire(Fire(L("E5"), FireKind.FLAME))
    assert str(ia.value) == "E5 already holds a Blaze (B25.15)"


def test_fire_bookkeeping_of_a_position() -> None:
    p = _position()
    f1, f2 = Fire(L("C3"), FireKind.FLAME), Fire(L("C3"), FireKind.FLAME, kindled_by="German")
    p = p.add_fire(f1).add_fire(f2).add_fire(Fire(L("E5"), FireKind.FLAME))
    assert p.flames_at(L("C3")) == (f1, f2) and p.blaze_at(L("C3")) is None
    assert p.is_burning(L("C3")) and not p.is_burning(L("C3.1")) and p.flames_at(L("C3.1")) == ()
    b = Fire(L("C3"), FireKind.BLAZE)
    q = p.add_fire(b)
    assert q.blaze_at(L("C3")) == b and q.flames_at(L("C3")) == () and q.blazes() == [b]
    assert q.is_burning(L("C3")) and [f.location for f in q.flames()] == [L("E5")]
    assert [f.location for f in p.flames()] == [L("C3"), L("C3"), L("E5")] and p.blazes() == []
    assert q.remove_fires(L("C3")).fires == (Fire(L("E5"), FireKind.FLAME),)
    assert q.building_blaze_levels(H("C3")) is None  # level 1 is not ablaze
    r = q.add_fire(Fire(L("C3.1"), FireKind.BLAZE))
    assert r.building_blaze_levels(H("C3")) == 2
    assert r.building_blaze_levels(H("E5")) is None and r.building_blaze_levels(H("Z9")) is None
    single = p.add_fire(Fire(L("A1"), FireKind.BLAZE))
    assert single.building_blaze_levels(H("A1")) is None  # one level: an ordinary Blaze counter
    assert r.loc_name(L("C3.1")) == "C3.1"
    w1, w2 = Wreck(L("B2")), Wreck(L("B3"), burning=False)
    assert p.with_(wrecks=(w1, w2)).burning_wrecks() == [w1]
    assert w1.name == "Wreck" and w1.bypass is None and w1.since == 0


def test_an_empty_location_name_is_refused_with_the_expected_forms() -> None:
    with pytest.raises(HexNameError) as e:
        Location.parse("")
    assert str(e.value) == "'' is not a Location (expected a hex such as E4, or E4.1, E4.roof)"


def test_a_map_parses_locations_by_its_own_board_names() -> None:
    layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1)))
    h = layout.parse("23C3")
    m = GameMap.from_hexes({h: HexInfo(Terrain.WOODS)}, layout=layout)
    assert m.name == ""
    assert m.parse_location("23C3") == Location(h)
    with pytest.raises(OffBoardError) as e:
        m.info(layout.parse("22A1"))
    assert str(e.value) == "hex 22A1 is not on the map"


def test_a_collapsed_hut_keeps_hut_terrain_and_no_stairwell() -> None:
    hexes = grid("A-B", "1-2")
    hut = Building("h1", Material.WOODEN, BuildingKind.HUT)
    hexes[H("A1")] = HexInfo(Terrain.WOODEN_BUILDING, building="h1", stairwell=True)
    m = GameMap.from_hexes(hexes, [hut])
    after = m.collapse_hut(H("A1")).info(H("A1"))
    assert after.terrain is Terrain.HUT and after.building is None and after.stairwell is False


def test_only_rubble_belongs_to_a_factory() -> None:
    hexes = grid("A-C", "1-3")
    f = building(hexes, "f", Material.STONE, ["B2"], BuildingKind.FACTORY)
    hexes[H("A1")] = HexInfo(Terrain.WOODS, feature="f")
    m = GameMap.from_hexes(hexes, [f])
    assert m.factory_of_rubble(H("A1")) is None


def test_a22_4_target_ft_counts_the_ft_infantry_in_the_location_possess() -> None:
    m = GameMap.from_hexes({Hex.parse(n): HexInfo() for n in ("A1", "A2")})
    a1, a2 = Location(Hex.parse("A1")), Location(Hex.parse("A2"))
    units = (Unit("s1", "squad", "Axis", a1, ft=1), Unit("s2", "squad", "Axis", a1),
             Unit("t", "tank", "Axis", a2, UnitKind.VEHICLE, ft=1), Unit("s3", "squad", "Axis", a2, ft=2))
    pos = Position(m, units=units)
    assert pos.target_ft(a1) == 1 and pos.target_ft(a2) == 2  # a vehicle possesses none (A22.4: Personnel)
    assert Position(m, units=units[1:3]).target_ft(a1) == 0  # no FT among the units there
    both = pos.with_(units=(*units, Unit("l", "leader", "Axis", a2, UnitKind.LEADER, ft=1)))
    with pytest.raises(IllegalAction) as e:
        both.target_ft(a2)
    assert str(e.value) == ("units in A2 possess 1 and 2 FT: the attack vs each is one lower per FT it possesses "
                            "(A22.4); give --target-ft N")
