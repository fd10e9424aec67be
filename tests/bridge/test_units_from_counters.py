"""Units, level fires, wrecks and the game's own module on the bridge's Python side (no engine).

The counters are VASL's own: their layers come from ../shared/vasl/buildFile-6.5.xml at test time.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Any

import pytest

from asl_vassal_bridge.bridge.attacks import AttackRequest, attack_batch, prepare_attack, resolve
from asl_vassal_bridge.bridge.convert import batch_for, position_from_snapshot
from asl_vassal_bridge.bridge.gamemodule import bundled, counter_data
from asl_vassal_bridge.bridge.hob import hob_unit
from asl_vassal_bridge.bridge.rtph import blaze_lines
from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.errors import BadInput, IllegalAction
from asl_vassal_bridge.core.position import Fire, FireKind, Location, Phase, UnitKind
from asl_vassal_bridge.data import unit_catalogue
from asl_vassal_bridge.vasl.catalogue import catalogue_from_module
from asl_vassal_bridge.vasl.module import ModuleIndex, read_module
from tests.conftest import missing
from tests.support import vassal_harness as vh

from .test_bridge_units import piece

SQUAD, PZ_IB, PZ_IB_WRECK = "11467", "2524", "5207"


@pytest.fixture(scope="module")
def vasl65() -> ModuleIndex:
    if not vh.VASL_BUILDFILE.is_file():
        missing("data", f"{vh.VASL_BUILDFILE} does not exist: VASL's real counters are needed")
    return read_module(vh.VASL_BUILDFILE)


def layers(idx: ModuleIndex, gpid: str, values: dict[int, int] | None = None) -> list[dict[str, str]]:
    """The slot's Embellishment layers as the snapshot gives them; *values* sets layer i's state."""
    out = [{"type": t.type, "state": t.state} for t in idx.by_gpid[gpid].traits if t.id in ("emb2", "emb")]
    for i, v in (values or {}).items():
        st = out[i]["state"].split(";")
        st[0] = str(v)
        out[i]["state"] = ";".join(st)
    return out


def snapshot(pieces: list[dict[str, Any]], *, building: str = "G4") -> dict[str, Any]:
    """Woods in C and D, a Wooden Building with one upper level in *building*, the rest Open Ground."""
    hexes = []
    for c in "ABCDEFGH":
        for r in range(1, 6):
            name = f"{c}{r}"
            if name == building:
                locs = [{"name": name, "level": 0, "terrain": "Wooden Building, 1 Level", "center": True},
                        {"name": f"{name} Level 1", "level": 1, "terrain": "Wooden Building, 1 Level"}]
            else:
                locs = [{"name": name, "level": 0, "terrain": "Woods" if c in "CD" else "Open Ground",
                         "center": True}]
            hexes.append({"name": name, "elevation": 0, "locations": locs})
    return {"module": {"name": "VASL"}, "game": {"started": True, "processed": "", "may_change": True},
            "maps": [{"id": "Map0", "name": "Main Map", "boards": [], "terrain": {"source": "VASL", "hexes": hexes}}],
            "pieces": pieces}


def at(pid: str, name: str, gpid: str, loc: str, lays: list[dict[str, str]] | None = None,
       x: int | None = None, y: int | None = None) -> dict[str, Any]:
    p = piece(pid, name, gpid, loc, lays)
    if x is not None:
        p["x"] = x
    if y is not None:
        p["y"] = y
    return p


# --- the game's own module ------------------------------------------------------------------------

def test_the_module_catalogue_is_the_bundled_one_for_vasl_6_5(vasl65: ModuleIndex) -> None:
    import json
    from importlib import resources

    data = catalogue_from_module(vasl65)
    bundled_json = json.loads(resources.files("asl_vassal_bridge.data").joinpath("units", "vasl-6.5.json")
                              .read_text("utf-8"))
    assert data["nationalities"] == bundled_json["nationalities"]
    assert data["counters"] == bundled_json["counters"]
    assert PZ_IB in data["counters"]["german"]["Veh"] and SQUAD in data["counters"]["german"]["SQ"]


def _module_file(path: Path, idx: ModuleIndex, version: str) -> Path:
    """A 6.7-style module (GameModule root) whose palette holds the German squad and tank slots of VASL."""
    from lxml import etree

    root = etree.parse(str(vh.VASL_BUILDFILE)).getroot()
    keep = {}
    for el in root.iter("VASSAL.build.widget.PieceSlot"):
        if el.get("gpid") in (SQUAD, PZ_IB) and el.get("gpid") not in keep:
            keep[el.get("gpid")] = etree.tostring(el, encoding="unicode", with_tail=False)

    def tab(name: str, body: str) -> str:
        return f'<VASSAL.build.widget.TabWidget entryName="{name}">{body}</VASSAL.build.widget.TabWidget>'

    def panel(name: str, body: str) -> str:
        return f'<VASSAL.build.widget.PanelWidget entryName="{name}">{body}</VASSAL.build.widget.PanelWidget>'

    xml = (f'<VASSAL.build.GameModule name="VASL" version="{version}" VassalVersion="3.7.15">'
           '<VASSAL.build.module.PieceWindow name="VASL Counters">'
           + tab("Axis O/B", tab("German", panel("SQ", keep[SQUAD]) + panel("Veh", keep[PZ_IB])))
           + "</VASSAL.build.module.PieceWindow></VASSAL.build.GameModule>")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("buildFile.xml", xml)
    return path


def test_counter_data_reads_the_games_module_once_per_file(vasl65: ModuleIndex, tmp_path: Path) -> None:
    mod = _module_file(tmp_path / "VASL.vmod", vasl65, "6.7.9")
    snap = {"module": {"path": str(mod)}}
    data = counter_data(snap)
    assert data.source == "module" and "VASL 6.7.9" in data.description and str(mod) in data.description
    assert data.catalogue.by_vasl_name("4-6-7 1sq")  # the squad's layer names, from the module itself
    assert counter_data(snap) is data  # cached by path, mtime and size: not parsed per press
    _module_file(mod, vasl65, "6.7.10")
    os.utime(mod, ns=(1, 1))  # a new file (another mtime): read again
    again = counter_data(snap)
    assert again is not data and "6.7.10" in again.description


@pytest.mark.parametrize("module, why", [
    ({}, "did not say which module"),
    ({"path": "/nonexistent/VASL.vmod"}, "cannot be read"),
])
def test_without_a_readable_module_the_bundled_catalogue_says_why(module: dict[str, str], why: str) -> None:
    data = counter_data({"module": module})
    assert data.source == "bundled" and why in data.description and "vasl-6.5.json" in data.description


def test_a_module_that_is_no_vasl_module_falls_back_with_its_reason(tmp_path: Path) -> None:
    bad = tmp_path / "broken.vmod"
    bad.write_bytes(b"PK\x03\x04 not a zip")
    data = counter_data({"module": {"path": str(bad)}})
    assert data.source == "bundled" and "could not be read" in data.description
    plain = tmp_path / "plain.vmod"
    with zipfile.ZipFile(plain, "w") as z:
        z.writestr("buildFile.xml", '<VASSAL.build.GameModule name="Chess" version="1"/>')
    data = counter_data({"module": {"path": str(plain)}})
    assert data.source == "bundled" and "no VASL unit counter palette" in data.description


# --- units from counters --------------------------------------------------------------------------

def test_units_with_their_state_from_layers_and_markers(vasl65: ModuleIndex) -> None:
    sq = layers(vasl65, SQUAD)
    broken = layers(vasl65, SQUAD, {2: 1})  # the squad's Ctrl-F "broken" layer on
    pieces = [
        at("b1", "Blaze", "195", "C2"), at("sq1", "4-6-7 1sq", SQUAD, "C2", sq),
        at("b2", "Blaze", "195", "D2"), at("sq2", "broken 4-6-7 1sq", SQUAD, "D2", broken),
        at("b3", "Blaze", "195", "C3"), at("sq3", "4-6-7 1sq", SQUAD, "C3", sq), at("pin", "Pin", "1", "C3"),
        at("cx", "CX", "4", "C3"),
        at("sq4", "4-6-7 1sq", SQUAD, "D3", sq), at("m", "Melee / H-t-H", "73", "D3"),
        at("b5", "Blaze", "195", "C4"), at("sq5", "4-6-7 1sq", SQUAD, "C4", sq), at("q", "?", "2351", "C4"),
        at("sq6", "4-6-7 1sq(?)", SQUAD, "C1", sq),
        at("tank", "PzKw IB", PZ_IB, "A1"),
    ]
    live = position_from_snapshot(snapshot(pieces), phase=Phase.RTPH, counters=bundled())
    units = {u.id: u for u in live.position.units}
    assert set(units) == {"sq1", "sq2", "sq3", "sq4", "tank"}  # sq5 under a "?", sq6 concealed
    assert units["sq1"].name == "German 4-6-7 1sq" and units["sq1"].side == "Axis"
    assert units["sq2"].broken and not units["sq1"].broken
    assert units["sq3"].pinned and live.units["sq3"].cx
    assert units["sq4"].in_melee
    assert units["tank"].kind is UnitKind.VEHICLE and units["tank"].name == "German PzKw IB"
    lines = blaze_lines(live.position, live)
    assert len(lines) == 3 and all("B25.4" in line for line in lines)
    # each unit by its Blaze's Location and its counter's name (the piece id only between two of one name there)
    assert any(line.startswith("* C3 Blaze: German 4-6-7 1sq (Axis, pinned") and "eliminated now" in line
               for line in lines)  # pinned in the RtPh (B25.4)
    assert any(line.startswith("* D2 Blaze: ") and "broken" in line and "rout" in line for line in lines)
    assert not any("C4" in line for line in lines)


def test_a15_42_a_berserk_counter_under_a_pin_marker_is_not_pinned_and_leaves_the_blaze(vasl65: ModuleIndex) -> None:
    berserk = next(t for t in vasl65.prototypes["INFmark"].traits if t.id == "emb2" and "Berserk +" in t.type)
    lays = [{"type": berserk.type, "state": "1"}, *layers(vasl65, SQUAD)]
    pieces = [at("b", "Blaze", "195", "C3"), at("sq", "4-6-7 1sq", SQUAD, "C3", lays), at("pin", "Pin", "1", "C3"),
              at("cx", "CX", "4", "C3")]
    live = position_from_snapshot(snapshot(pieces), phase=Phase.RTPH, counters=bundled())
    (u,) = live.position.units
    assert u.berserk and not u.pinned and not live.units["sq"].cx  # A15.42: pinned and CX status lost
    (line,) = blaze_lines(live.position, live)
    assert "Withdrawing from Melee" in line and "eliminated now" not in line and "pinned" not in line


def test_b25_4_vasls_immob_marker_makes_a_vehicle_in_a_blaze_go_in_its_next_friendly_mph(vasl65: ModuleIndex) -> None:
    """B25.4: a vehicle in a terrain Blaze has until its next friendly MPh; an Immobilized one cannot leave and is
    eliminated then, not in the RtPh."""
    pieces = [at("b", "Blaze", "195", "C3"), at("tank", "PzKw IB", PZ_IB, "C3"), at("im", "Immob.", "111", "C3"),
              at("b2", "Blaze", "195", "D3"), at("tank2", "PzKw IB", PZ_IB, "D3")]
    live = position_from_snapshot(snapshot(pieces), phase=Phase.RTPH, counters=bundled())
    units = {u.id: u for u in live.position.units}
    assert units["tank"].immobilized and not units["tank2"].immobilized
    lines = blaze_lines(live.position, live)
    assert any(x.startswith("* C3 Blaze: ") and "Immobilized" in x and "next friendly MPh" in x
               and "eliminated now" not in x for x in lines)
    assert any(x.startswith("* D3 Blaze: ") and "MPh" in x and "eliminated now" not in x for x in lines)


def test_units_on_an_upper_level_by_their_level_marker(vasl65: ModuleIndex) -> None:
    sq = layers(vasl65, SQUAD)
    lvl = layers(vasl65, "167")
    live = position_from_snapshot(snapshot([at("sq", "4-6-7 1sq", SQUAD, "G4", sq),
                                            at("l1", "Building", "167", "G4", lvl)]), counters=bundled())
    assert live.position.units[0].location == Location(live.position.map.parse_hex("G4"), 1)


def test_heat_of_battle_reads_berserk_from_the_counters_layer_a15_4(vasl65: ModuleIndex) -> None:
    # VASSAL expands the squad's prototypes: its INFmark prototype gives the Berserk layer (Ctrl-R)
    berserk = next(t for t in vasl65.prototypes["INFmark"].traits if t.id == "emb2" and "Berserk +" in t.type)
    p = at("sq", "4-6-7 1sq", SQUAD, "A1", [{"type": berserk.type, "state": "1"}, *layers(vasl65, SQUAD)])
    unit, _mmc, _cat = hob_unit(p, unit_catalogue())
    assert unit.berserk


def test_attacks_take_cx_and_pinned_from_the_counters_a22_61(vasl65: ModuleIndex) -> None:
    sq = layers(vasl65, SQUAD)
    cx = snapshot([at("sq", "4-6-7 1sq", SQUAD, "E4", sq), at("mol", "MOL-P", "490", "E4"), at("cx", "CX", "4", "E4")])
    prepared = prepare_attack(cx, AttackRequest("mol", "sq", "E3"))
    assert prepared.plan.attack.cx  # type: ignore[union-attr]
    assert "CX" in prepared.plan.describe(prepared.position)
    pinned = snapshot([at("sq", "4-6-7 1sq", SQUAD, "E4", sq), at("mol", "MOL-P", "490", "E4"),
                       at("pin", "Pin", "1", "E4")])
    with pytest.raises(IllegalAction, match=r"A22\.61"):
        prepare_attack(pinned, AttackRequest("mol", "sq", "E3"))  # VASL's Pin marker on the thrower
    broken = snapshot([at("sq", "broken 4-6-7 1sq", SQUAD, "E4", layers(vasl65, SQUAD, {2: 1})),
                       at("ft", "FT", "2473", "E4")])
    with pytest.raises(BadInput, match="broken"):
        prepare_attack(broken, AttackRequest("ft", "sq", "E3"))


# --- fires on levels, building Blazes, wrecks -------------------------------------------------------

def test_n_level_blaze_counter_burns_levels_0_to_n_minus_1_b25_2() -> None:
    live = position_from_snapshot(snapshot([at("bb", "2-level Blaze", "198", "G4")]), counters=bundled())
    g4 = live.position.map.parse_hex("G4")
    assert {f.location for f in live.position.blazes()} == {Location(g4), Location(g4, 1)}


def test_upper_level_flame_is_placed_with_its_level_marker_and_read_back(vasl65: ModuleIndex) -> None:
    live = position_from_snapshot(snapshot([]), counters=bundled())
    g4 = live.position.map.parse_hex("G4")
    new = live.position.add_fire(Fire(Location(g4, 1), FireKind.FLAME))
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    flame, marker = batch["place"]
    assert flame["gpid"] == "192" and marker["gpid"] == "167"  # VASL's Level 1 marker
    assert flame["location"] == marker["location"] == "G4" and (flame["dx"], flame["dy"]) == (marker["dx"],
                                                                                               marker["dy"])
    # what VASSAL then shows: one stack beside the hex centre
    back = snapshot([at("f", "Flame", "192", "G4", x=900, y=400),
                     at("l", "Building", "167", "G4", layers(vasl65, "167"), x=900, y=400)])
    assert [f.location for f in position_from_snapshot(back, counters=bundled()).position.fires] == [
        Location(g4, 1)]


def test_flame_on_level_1_becoming_a_blaze_stays_in_its_level_stack(vasl65: ModuleIndex) -> None:
    lvl = layers(vasl65, "167")
    snap = snapshot([at("f", "Flame", "192", "G4", x=900, y=400), at("l", "Building", "167", "G4", lvl, x=900, y=400)])
    live = position_from_snapshot(snap, counters=bundled())
    loc = live.position.fires[0].location
    new = live.position.remove_fires(loc).add_fire(Fire(loc, FireKind.BLAZE))
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    assert batch["remove"] == ["f"] and batch["place"] == [{"gpid": "195", "x": 900, "y": 400, "map": "Main Map"}]


def test_burning_wreck_is_read_and_its_blaze_goes_when_the_rules_remove_it_b25_14() -> None:
    snap = snapshot([at("w", "PzKw IB Wreck", PZ_IB_WRECK, "E2"), at("b", "Blaze", "195", "E2")])
    live = position_from_snapshot(snap, counters=bundled())
    e2 = Location(live.position.map.parse_hex("E2"))
    assert [w.location for w in live.position.burning_wrecks()] == [e2] and not live.position.blazes()
    new = live.position.with_(wrecks=())
    batch = batch_for(live, new, phase_key=None, session=None, roll_texts=[])
    assert batch["remove"] == ["b"] and batch["expect"] == {"b": "r-b"}


def test_a_vehicle_burning_gets_its_blaze_on_its_own_stack_b25_14(vasl65: ModuleIndex) -> None:
    sq = layers(vasl65, SQUAD)
    snap = snapshot([at("sq", "4-6-7 1sq", SQUAD, "E3", sq), at("mol", "MOL-P", "490", "E3"),
                     at("tank", "PzKw IB", PZ_IB, "E4", x=6911, y=412)])
    prepared = prepare_attack(snap, AttackRequest("mol", "sq", "tank", options={"predesignated": True,
                                                                               "basic_tk": 8}))
    outcome = resolve(prepared, ScriptedDice([1, 1, 1, 1, 1]))  # MOL Check 1, IFT DR 1,1, To Kill DR 2 < 8
    assert any(c.kind.value == "burning-wreck" for c in outcome.consequences)
    batch = attack_batch(prepared, outcome, session=None, rolls=[])
    blaze = next(p for p in batch["place"] if p["gpid"] == "195")
    assert (blaze["x"], blaze["y"]) == (6911, 412)  # on the vehicle's stack, where it burns


def test_unit_slots_match_vasl(vasl65: ModuleIndex) -> None:
    """The live tests' hand-written slots (tests/bridge/unit_slots.py) keep VASL's own traits, unchanged."""
    from .unit_slots import EXTRA

    for slot in EXTRA.values():
        real = vasl65.by_gpid[slot.gpid]
        assert slot.name == real.name
        kept = [(t.type, t.state) for t in slot.traits]
        assert all(k in [(t.type, t.state) for t in real.traits] for k in kept), slot.name


def test_fire_and_victory_lines_name_the_side_that_gets_control() -> None:
    from asl_vassal_bridge.bridge.rtph import victory_lines
    from asl_vassal_bridge.core.values import replace

    live = position_from_snapshot(snapshot([at("b", "Blaze", "195", "C2")]), counters=bundled())
    pos = live.position
    kindled = pos.with_(fires=tuple(replace(f, kindled_by="Axis") for f in pos.fires))
    assert victory_lines(pos) == []
    (line,) = victory_lines(kindled)
    assert "C2" in line and "Allied" in line and "Fire & Victory" in line


def test_units_without_their_layers_are_read_by_the_names_vassal_gives_them(vasl65: ModuleIndex) -> None:
    """The upkeep's snapshot leaves units' layers in VASSAL; a flipped counter's name still says what it shows."""
    pieces = [at("b", "Blaze", "195", "C2"), at("sq1", "broken 4-6-7 1sq", SQUAD, "C2"),
              at("sq2", "Berserk 4-6-7 1sq", SQUAD, "D2"), at("sq3", "4-6-7 1sq", SQUAD, "C3")]
    for p in pieces:
        p["basic_name"] = "4-6-8 Esq" if p["gpid"] == SQUAD else p["name"]
    units = {u.id: u for u in position_from_snapshot(snapshot(pieces), counters=bundled()).position.units}
    assert units["sq1"].broken and not units["sq1"].berserk and units["sq1"].name == "German 4-6-7 1sq"
    assert units["sq2"].berserk and not units["sq2"].broken and units["sq2"].name == "German 4-6-7 1sq"
    assert not units["sq3"].broken and not units["sq3"].berserk


def test_a_module_with_other_gpids_is_read_and_placed_by_its_own_slots() -> None:
    """A newer module that moved a counter to another gpid: the bridge reads and places it by the module's slot."""
    from asl_vassal_bridge.bridge.gamemodule import CounterData
    from asl_vassal_bridge.vasl.counters import CounterLevel, FireCounter
    from asl_vassal_bridge.vasl.module import read_module_bytes
    from asl_vassal_bridge.vasl.units import CounterIndex

    from .unit_slots import _LEVELS

    flame = ('<VASSAL.build.widget.PieceSlot entryName="Flame" gpid="9192">'
             "+/null/mark;Location\tpiece;K;D;MS\\/Flame;Flame/\tnull;0;0;9192</VASSAL.build.widget.PieceSlot>")
    level = ('<VASSAL.build.widget.PieceSlot entryName="Building" gpid="9167">'
             f"+/null/{_LEVELS.replace('/', chr(92) + '/')}\tpiece;K;D;ML\\/_white58;Building/3\tnull;0;0;9167"
             "</VASSAL.build.widget.PieceSlot>")
    index = read_module_bytes(f"<excerpt>{flame}{level}</excerpt>".encode(), "VASL-7.vmod")
    data = CounterData(unit_catalogue(), CounterIndex(), "module", "test", index,
                       {s.gpid: k for k, s in index.fire_slots()})
    assert data.classify("Brand", "9192") is FireCounter.FLAME  # by the module's slot, whatever the name shows
    assert data.place_gpid(FireCounter.FLAME) == "9192"
    assert data.level_gpid(CounterLevel(1)) == "9167"


def test_the_upkeep_reads_only_the_units_near_fires_b25_6(vasl65: ModuleIndex) -> None:
    sq = layers(vasl65, SQUAD)
    snap = snapshot([at("b", "Blaze", "195", "C2"), at("sq1", "4-6-7 1sq", SQUAD, "C2", sq),
                     at("sq2", "4-6-7 1sq", SQUAD, "D2", sq), at("sq3", "4-6-7 1sq", SQUAD, "H5", sq)])
    near = position_from_snapshot(snap, counters=bundled(), units_near_fires=True).position
    every = position_from_snapshot(snap, counters=bundled()).position
    assert {u.id for u in near.units} == {"sq1", "sq2"}  # in or next to the burning hex (fire spreads one hex)
    assert {u.id for u in every.units} == {"sq1", "sq2", "sq3"}
