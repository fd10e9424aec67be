"""Position files: round trip, the schema, and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.core import Direction, Location, Terrain, WindForce
from asl_vassal_bridge.posfile import BadPositionFile, dump, dumps, load, loads
from asl_vassal_bridge.scenarios import demo_position, demo_text

SMALL = """
format = 1
sides = ["German", "Russian"]
[clock]
turn = 3
half = 2
phase = "AFPh"
[environment]
ec = "wet"
wind = { force = "heavy-winds", direction = 5 }
[map]
columns = "A-E"
rows = "1-5"
[map.elevation]
1 = ["D1-D3"]
[[map.terrain]]
kind = "woods"
hexes = ["B2", "B3"]
[[map.terrain]]
kind = "woods"
hexes = ["C2"]
attached = false
[[buildings]]
id = "inn"
material = "stone"
kind = "two-story"
hexes = ["C4", "D4"]
stairwells = ["C4"]
fortified = ["C4.1", "C4"]
[[fires]]
at = "B2"
kind = "blaze"
kindled_by = "Russian"
[[fires]]
at = "C4.1"
kind = "flame"
new = true
[[wrecks]]
at = "E5"
name = "T-34"
bypass = 2
[[units]]
id = "g1"
name = "4-6-7"
side = "German"
at = "D4.1"
pinned = true
"""


def test_small_file_reads_every_section() -> None:
    p = loads(SMALL)
    assert p.clock.player_turn == 6 and p.environment.wind.force is WindForce.HEAVY_WINDS
    assert p.environment.wind.direction is Direction(5)
    gm = p.map
    assert gm.info(gm.parse_hex("D2")).elevation == 1
    assert gm.info(gm.parse_hex("B3")).feature == gm.info(gm.parse_hex("B2")).feature is not None
    assert gm.info(gm.parse_hex("C2")).feature is None
    assert gm.is_fortified(Location.parse("C4.1")) and gm.is_fortified(Location.parse("C4"))
    assert not gm.is_fortified(Location.parse("D4"))
    assert gm.terrain_at(Location.parse("C4.1")) is Terrain.STONE_BUILDING
    blaze, flame = p.fires
    assert blaze.since == 5 and blaze.kindled_by == "Russian" and flame.since == 6
    assert p.wrecks[0].bypass is Direction(2) and p.units[0].pinned


def test_round_trip_small_and_demo(tmp_path: Path) -> None:
    for p in (loads(SMALL), demo_position()):
        assert loads(dumps(p)) == p
        dump(p, tmp_path / "x.toml")
        assert load(tmp_path / "x.toml") == p


def test_demo_scenario_has_what_the_demo_promises() -> None:
    p = demo_position()
    kinds = {i.terrain for i in p.map.hexes.values()}
    assert {Terrain.WOODS, Terrain.BRUSH, Terrain.GRAIN, Terrain.ORCHARD} <= kinds
    b = p.map.buildings
    assert b["church"].fortified and b["rowhouse"].rowhouse and b["farmhouse"].material.value == "wooden"
    assert any(i.elevation for i in p.map.hexes.values()) and p.burning_wrecks()
    assert p.environment.wind.force is WindForce.MILD_BREEZE
    assert "format = 1" in demo_text()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('at = "B2"', 'at = "Z99"'), "fires[0].at: hex Z99 is not on the map"),
        (('kind = "woods"', 'kind = "lava"'), "map.terrain[0].kind: unknown terrain 'lava'"),
        (("half = 2", "half = 3"), "clock.half: 3 is not one of [1, 2]"),
        (('side = "German"', 'side = "French"'), "units[0].side: side 'French' is not one of"),
        (('at = "D4.1"', 'at = "D4.2"'), "units[0].at: D4.2: hex D4 has no level 2"),
        (('hexes = ["B2", "B3"]', 'hexes = ["B2", "B7"]'), "map.terrain[0].hexes: hex B7 is not on the map"),
        (('at = "C4.1"', 'at = "A1"'), "fires[1].at: A1 holds Open Ground, which cannot burn (B25.1)"),
        (("pinned = true", "pinned = 1"), "units[0].pinned: 1 is not of type 'boolean'"),
        (("format = 1", "format = 1\nbogus = 2"), "Additional properties are not allowed ('bogus'"),
        (('fortified = ["C4.1", "C4"]', 'fortified = ["C4.roof"]'), "fortified[0]"),
    ],
)
def test_bad_files_name_the_field_and_hex(change: tuple[str, str], message: str) -> None:
    text = SMALL.replace(*change, 1)
    with pytest.raises(BadPositionFile) as e:
        loads(text, "bad.toml")
    assert str(e.value).startswith("bad.toml: ")
    assert message in str(e.value)


def test_toml_syntax_error_names_the_line() -> None:
    with pytest.raises(BadPositionFile, match=r"bad.toml: not valid TOML: .*line 3"):
        loads("format = 1\n[map]\ncolumns = A-C\n", "bad.toml")


def test_binary_file_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    f.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(BadPositionFile, match="not a UTF-8 text file"):
        load(f)


def test_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    f = tmp_path / "x.toml"
    dump(loads(SMALL), f)
    before = f.read_text()
    assert "asl-fire position file" in before


def test_b25_4_an_immobilized_vehicle_round_trips_and_only_a_vehicle_may_be_immobilized(tmp_path: Path) -> None:
    text = SMALL + ('[[units]]\nid = "t"\nname = "T-34"\nside = "Russian"\nat = "E4"\nkind = "vehicle"\n'
                    'immobilized = true\n')
    p = loads(text)
    (t,) = [u for u in p.units if u.id == "t"]
    assert t.immobilized
    assert [u.immobilized for u in loads(dumps(p)).units] == [False, True]
    with pytest.raises(BadPositionFile, match=r"units\[0\]\.immobilized: only a vehicle"):
        loads(SMALL.replace("pinned = true", "immobilized = true"))


def test_a22_4_ft_possessed_round_trips_and_only_infantry_possess_a_ft() -> None:
    p = loads(SMALL.replace("pinned = true", "ft = 2"))
    assert [u.ft for u in p.units] == [2] and [u.ft for u in loads(dumps(p)).units] == [2]
    assert p.target_ft(p.units[0].location) == 2
    with pytest.raises(BadPositionFile, match=r"units\[0\]\.ft: a vehicle possesses no FT"):
        loads(SMALL.replace("pinned = true", 'ft = 1\nkind = "vehicle"'))


def test_huts_a_collapsed_hut_and_rain_round_trip() -> None:
    text = SMALL.replace('ec = "wet"', 'ec = "wet"\nrain_has_fallen = true') + (
        '[[map.terrain]]\nkind = "collapsed-hut"\nhexes = ["A5"]\n')
    p = loads(text)
    a5 = p.map.parse_hex("A5")
    assert p.map.is_collapsed_hut(a5) and p.environment.rain_has_fallen
    back = loads(dumps(p))
    assert back.map.is_collapsed_hut(a5) and back.environment.rain_has_fallen
    with pytest.raises(BadPositionFile, match="collapsed-hut"):
        loads(SMALL + '[[map.terrain]]\nkind = "hut"\nhexes = ["A5"]\n')
