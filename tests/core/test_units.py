"""Unit types, classes, leader ladders and the catalogue derived from VASL's counter palette (A15.3, A19.3)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from asl_vassal_bridge.core.errors import BadInput
from asl_vassal_bridge.core.position import UnitKind
from asl_vassal_bridge.core.units import (
    STANDARD_LEADER_LADDER,
    BadCatalogue,
    BadDesignationError,
    LeaderRating,
    Nationality,
    StrengthFactor,
    UnitCatalogue,
    UnitClass,
    UnknownNationalityError,
    classes_above,
    next_grade,
    parse_designation,
    parse_nationality,
)
from asl_vassal_bridge.data import DEFAULT_CATALOGUE, load_unit_catalogue, unit_catalogue
from tests.conftest import shared_vasl_file

REPO = Path(__file__).resolve().parents[2]
VASL = REPO / ".." / "shared" / "vasl"
BUILD_FILE = VASL / "buildFile-6.5.xml"
PACKAGED = REPO / "asl_vassal_bridge" / "data" / "units" / DEFAULT_CATALOGUE


def L(text: str) -> LeaderRating:
    return LeaderRating.parse(text)


def _gen_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_unit_catalogue", REPO / "scripts" / "gen_unit_catalogue.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_unit_catalogue", mod)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------------------------------ designations


def test_strength_factor_parses_firepower_range_morale() -> None:
    sf = StrengthFactor.parse("4-6-7")
    assert (sf.firepower, sf.range, sf.morale) == (4, 6, 7)
    assert str(sf) == "4-6-7"


def test_strength_factor_reads_a_bracketed_range() -> None:
    sf = StrengthFactor.parse("4-(1)-7")
    assert (sf.firepower, sf.range, sf.morale) == (4, 1, 7)
    assert str(sf) == "4-(1)-7"


@pytest.mark.parametrize("text", ["4-6", "4-6-7-8", "a-b-c", "", "4-(1-7", "8-1"])
def test_bad_strength_factor_is_a_clear_bad_input(text: str) -> None:
    with pytest.raises(BadDesignationError, match="firepower-range-morale"):
        StrengthFactor.parse(text)


def test_a15_3_none_lower_and_gain() -> None:
    hs = StrengthFactor.parse("2-4-7")
    assert StrengthFactor.parse("2-4-8").none_lower_than(hs)
    assert StrengthFactor.parse("2-4-8").gain_over(hs) == 1
    assert StrengthFactor.parse("3-4-8").gain_over(hs) == 2
    assert not StrengthFactor.parse("3-3-8").none_lower_than(hs)


@pytest.mark.parametrize(("text", "morale", "modifier"),
                         [("6+1", 6, 1), ("7-0", 7, 0), ("8-1", 8, -1), ("10-3", 10, -3), ("9+1", 9, 1)])
def test_leader_rating_parses_and_prints(text: str, morale: int, modifier: int) -> None:
    r = L(text)
    assert (r.morale, r.modifier) == (morale, modifier)
    assert str(r) == text


def test_leader_ratings_order_worst_to_best() -> None:
    assert sorted(L(x) for x in ("10-2", "6+1", "9-2", "8-0", "8-1", "7-0", "10-3", "9-1")) == list(
        STANDARD_LEADER_LADDER)
    assert L("9-1") < L("10-0") < L("10-1")


@pytest.mark.parametrize("text", ["8", "8-", "81", "8*1", "x-1"])
def test_bad_leader_rating_is_a_clear_bad_input(text: str) -> None:
    with pytest.raises(BadDesignationError, match="leader rating"):
        LeaderRating.parse(text)


def test_parse_designation_tells_leaders_from_mmc() -> None:
    assert parse_designation("8-1") == L("8-1")
    assert parse_designation(" 4-6-7 ") == StrengthFactor(4, 6, 7)
    with pytest.raises(BadInput, match="'4-6'"):
        parse_designation("4-6")


# ------------------------------------------------------------------------------------------ classes


def test_a1_25_classes_order_worst_to_best() -> None:
    assert list(UnitClass) == sorted(UnitClass)
    assert UnitClass.CONSCRIPT < UnitClass.GREEN < UnitClass.SECOND_LINE < UnitClass.FIRST_LINE < UnitClass.ELITE


@pytest.mark.parametrize(("name", "cls"), [("elite", UnitClass.ELITE), ("1st", UnitClass.FIRST_LINE),
                                           ("1st line", UnitClass.FIRST_LINE), ("2nd", UnitClass.SECOND_LINE),
                                           ("Green", UnitClass.GREEN), ("C", UnitClass.CONSCRIPT)])
def test_unit_class_names(name: str, cls: UnitClass) -> None:
    assert UnitClass.from_name(name) is cls


def test_unknown_unit_class_is_bad_input() -> None:
    with pytest.raises(BadInput, match="veteran"):
        UnitClass.from_name("veteran")


def test_a19_3_green_and_conscript_are_inexperienced() -> None:
    assert {c for c in UnitClass if c.is_inexperienced} == {UnitClass.GREEN, UnitClass.CONSCRIPT}


def test_classes_above_nearest_first() -> None:
    assert classes_above(UnitClass.GREEN, [UnitClass.ELITE, UnitClass.FIRST_LINE, UnitClass.CONSCRIPT]) == [
        UnitClass.FIRST_LINE, UnitClass.ELITE]


# ------------------------------------------------------------------------------------------ nationalities


@pytest.mark.parametrize(("name", "nat"), [
    ("german", Nationality.GERMAN), ("German", Nationality.GERMAN), ("ge", Nationality.GERMAN),
    ("hungarian", Nationality.AXIS_MINOR), ("romanian", Nationality.AXIS_MINOR),
    ("Axis Minor", Nationality.AXIS_MINOR), ("polish", Nationality.ALLIED_MINOR),
    ("allied-minor", Nationality.ALLIED_MINOR), ("ru", Nationality.RUSSIAN), ("partisans", Nationality.PARTISAN),
    ("japanese", Nationality.JAPANESE), ("usmc", Nationality.AMERICAN),
])
def test_nationality_names_and_aliases(name: str, nat: Nationality) -> None:
    assert Nationality.from_name(name) is nat
    assert parse_nationality(name) == (nat, frozenset())


@pytest.mark.parametrize(("name", "nat", "status"), [
    ("gurkha", Nationality.BRITISH, "gurkha"), ("Gurkhas", Nationality.BRITISH, "gurkha"),
    ("ss", Nationality.GERMAN, "ss"), ("Waffen-SS", Nationality.GERMAN, "ss"), ("NKVD", Nationality.RUSSIAN, "nkvd"),
])
def test_a15_5_a_nationality_name_keeps_its_special_status_or_is_refused(name: str, nat: Nationality,
                                                                        status: str) -> None:
    # A15.5: Gurkhas never surrender, nor SS vs Russians; NKVD take −1 (A15.1).  A bare Nationality would lose it.
    assert parse_nationality(name) == (nat, frozenset({status}))
    with pytest.raises(UnknownNationalityError, match=rf"{nat.label} with .* status \(A15\.1, A15\.5\)"):
        Nationality.from_name(name)


def test_unknown_nationality_names_the_accepted_ones() -> None:
    with pytest.raises(UnknownNationalityError, match=r"martian.*german"):
        Nationality.from_name("martian")


# ------------------------------------------------------------------------------------------ ladders


@pytest.mark.parametrize(("before", "after"), [
    ("6+1", "7-0"), ("7-0", "8-0"), ("8-0", "8-1"), ("8-1", "9-1"), ("9-1", "9-2"), ("9-2", "10-2"),
    ("10-2", "10-3"),
])
def test_a15_3_standard_leader_ladder_each_step(before: str, after: str) -> None:
    assert next_grade(L(before), STANDARD_LEADER_LADDER) == L(after)


def test_a15_3_best_leader_has_no_next_grade() -> None:
    assert next_grade(L("10-3"), STANDARD_LEADER_LADDER) is None


def test_a_rating_off_the_ladder_steps_to_the_next_rung_above() -> None:
    assert next_grade(L("9-0"), STANDARD_LEADER_LADDER) == L("9-1")


# ------------------------------------------------------------------------------------------ the catalogue


@pytest.fixture(scope="module")
def catalogue() -> UnitCatalogue:
    return unit_catalogue()


def test_packaged_catalogue_states_its_source(catalogue: UnitCatalogue) -> None:
    assert "VASL 6.5" in catalogue.source
    data = json.loads(PACKAGED.read_text(encoding="utf-8"))
    assert data["source"]["generator"] == "scripts/gen_unit_catalogue.py"
    assert len(data["source"]["sha256"]) == 64


@pytest.mark.parametrize(("nat", "designation", "kind", "cls"), [
    (Nationality.GERMAN, "4-6-8", UnitKind.SQUAD, UnitClass.ELITE),
    (Nationality.GERMAN, "4-6-7", UnitKind.SQUAD, UnitClass.FIRST_LINE),
    (Nationality.GERMAN, "4-4-7", UnitKind.SQUAD, UnitClass.SECOND_LINE),
    (Nationality.GERMAN, "4-3-6", UnitKind.SQUAD, UnitClass.CONSCRIPT),
    (Nationality.GERMAN, "2-4-7", UnitKind.HALF_SQUAD, UnitClass.FIRST_LINE),
    (Nationality.GERMAN, "2-4-8", UnitKind.HALF_SQUAD, UnitClass.ELITE),
    (Nationality.RUSSIAN, "4-4-7", UnitKind.SQUAD, UnitClass.FIRST_LINE),
    (Nationality.RUSSIAN, "4-2-6", UnitKind.SQUAD, UnitClass.CONSCRIPT),
    (Nationality.AMERICAN, "6-6-6", UnitKind.SQUAD, UnitClass.FIRST_LINE),
    (Nationality.BRITISH, "4-5-7", UnitKind.SQUAD, UnitClass.FIRST_LINE),
    (Nationality.ITALIAN, "3-4-7", UnitKind.SQUAD, UnitClass.FIRST_LINE),
    (Nationality.JAPANESE, "4-4-8", UnitKind.SQUAD, UnitClass.ELITE),
    (Nationality.FINNISH, "5-3-8", UnitKind.SQUAD, UnitClass.GREEN),
    (Nationality.AXIS_MINOR, "4-4-7", UnitKind.SQUAD, UnitClass.ELITE),
])
def test_catalogue_classes_come_from_vasl_names(catalogue: UnitCatalogue, nat: Nationality, designation: str,
                                                kind: UnitKind, cls: UnitClass) -> None:
    found = [m for m in catalogue[nat].find(designation, kind) if not m.tags - {"korea"}]
    assert found and {m.unit_class for m in found} == {cls}
    assert all(m.class_source == "VASL name" for m in found)


def test_a15_3_example_ss_half_squad_is_elite_with_its_source(catalogue: UnitCatalogue) -> None:
    (ss,) = catalogue[Nationality.GERMAN].find("3-4-8", UnitKind.HALF_SQUAD)
    assert ss.unit_class is UnitClass.ELITE and "SS" in ss.tags
    assert ss.class_source is not None and "A15.3" in ss.class_source


def test_catalogue_crews_are_crews(catalogue: UnitCatalogue) -> None:
    crews = catalogue[Nationality.GERMAN].find("2-2-8", UnitKind.CREW)
    assert crews and all(m.unit_class is None for m in crews)


def test_catalogue_leader_ladders(catalogue: UnitCatalogue) -> None:
    assert catalogue[Nationality.GERMAN].leaders == STANDARD_LEADER_LADDER
    assert [str(r) for r in catalogue[Nationality.FINNISH].leaders] == ["8+1", "8-0", "9-0", "9-1", "10-0", "10-1"]
    assert [str(r) for r in catalogue[Nationality.JAPANESE].leaders] == [
        "8+1", "8-0", "9-0", "9-1", "10-0", "10-1", "10-2"]
    assert [str(r) for r in catalogue[Nationality.RUSSIAN].commissars] == ["8+1", "9-0", "10-0"]


@pytest.mark.parametrize("nat", [Nationality.FINNISH, Nationality.JAPANESE])
def test_a15_3_finnish_and_japanese_9_1_becomes_10_0(catalogue: UnitCatalogue, nat: Nationality) -> None:
    assert next_grade(L("9-1"), catalogue[nat].leaders) == L("10-0")


def _ladder_steps() -> list[tuple[str, str, str]]:
    cat = unit_catalogue()
    out = []
    for nat in Nationality:
        for what, ladder in (("leader", cat[nat].leaders), ("commissar", cat[nat].commissars)):
            for lo, hi in itertools.pairwise(ladder):
                out.append((f"{nat.code} {what}", str(lo), str(hi)))
    return out


@pytest.mark.parametrize(("who", "before", "after"), _ladder_steps())
def test_a15_3_every_catalogue_ladder_step(who: str, before: str, after: str) -> None:
    nat = Nationality.from_name(who.split()[0])
    nc = unit_catalogue()[nat]
    ladder = nc.commissars if who.endswith("commissar") else nc.leaders
    assert next_grade(L(before), ladder) == L(after)


def test_vasl_counter_names_lead_to_their_type(catalogue: UnitCatalogue) -> None:
    ((nat, mmc),) = catalogue.by_vasl_name("3-4-8 SShs")
    assert nat is Nationality.GERMAN and mmc.unit_class is UnitClass.ELITE and mmc.kind is UnitKind.HALF_SQUAD
    found = catalogue.by_vasl_name("4-4-7 2sq", Nationality.AMERICAN)
    assert [m.unit_class for _, m in found] == [UnitClass.SECOND_LINE]
    assert catalogue.by_vasl_name("no such counter") == ()


def test_unknown_nationality_in_catalogue_gets_the_standard_ladder(catalogue: UnitCatalogue) -> None:
    empty = UnitCatalogue({})
    assert empty[Nationality.GERMAN].leaders == STANDARD_LEADER_LADDER
    assert empty[Nationality.GERMAN].mmc == ()


# ------------------------------------------------------------------------------------------ bad data


def test_catalogue_without_nationalities_is_a_clear_error() -> None:
    with pytest.raises(BadCatalogue, match=r"my\.json.*nationalities"):
        UnitCatalogue.from_dict({}, "my.json")


@pytest.mark.parametrize("entry", [
    {"designation": "4-6-7", "size": "platoon"},
    {"designation": "4-6", "size": "squad"},
    {"designation": "4-6-7", "size": "squad", "class": "veteran"},
])
def test_bad_catalogue_entries_name_the_file(entry: dict[str, str]) -> None:
    with pytest.raises(BadCatalogue, match=r"bad\.json"):
        UnitCatalogue.from_dict({"nationalities": {"german": {"mmc": [entry]}}}, "bad.json")


def test_unknown_nationality_in_catalogue_file_is_an_error() -> None:
    with pytest.raises(BadCatalogue, match="martian"):
        UnitCatalogue.from_dict({"nationalities": {"martian": {}}}, "x.json")


def test_catalogue_text_that_is_not_json() -> None:
    with pytest.raises(BadCatalogue, match=r"t.json: not valid JSON \(line 1"):
        load_unit_catalogue("{nope", "t.json")
    with pytest.raises(BadCatalogue, match="expected a JSON object"):
        load_unit_catalogue("[]", "t.json")


def test_missing_catalogue_file_says_how_to_make_it() -> None:
    with pytest.raises(BadCatalogue, match="gen_unit_catalogue"):
        unit_catalogue("no-such.json")


# ------------------------------------------------------------------------------------------ the generator


@pytest.mark.parametrize(("name", "expected"), [
    ("4-6-8 Esq", ("4-6-8", "squad", "elite", [])),
    ("2-4-7 1hs", ("2-4-7", "half-squad", "1st line", [])),
    ("4-3-7 C Sq", ("4-3-7", "squad", "conscript", [])),
    ("2-3-8 1 HS", ("2-3-8", "half-squad", "1st line", [])),
    ("8-3-8 AEsq", ("8-3-8", "squad", "elite", ["assault engineer"])),
    ("8-3-8 AE SSsq", ("8-3-8", "squad", "elite", ["SS assault engineer"])),
    ("4-5-8 OBLI Esq", ("4-5-8", "squad", "elite", ["OBLI"])),
    ("6-2-8 Nsq", ("6-2-8", "squad", None, ["NKVD"])),
    ("3-3-7 Psq", ("3-3-7", "squad", None, ["partisan"])),
    ("4-(1)-7 1sq", ("4-(1)-7", "squad", "1st line", [])),
    ("2-2-8 Icr", ("2-2-8", "crew", None, ["infantry crew"])),
    ("0-0-0 GEsq", None),
    ("Hero", None),
])
def test_generator_reads_vasl_unit_names(name: str, expected: object) -> None:
    assert _gen_module().parse_mmc(name) == expected


def test_packaged_catalogue_is_what_the_generator_derives_from_vasl() -> None:
    shared_vasl_file("buildFile-6.5.xml")
    data = _gen_module().generate(BUILD_FILE)
    packaged = json.loads(PACKAGED.read_text(encoding="utf-8"))
    assert data == packaged


def test_generator_rejects_a_file_that_is_not_a_module(tmp_path: Path) -> None:
    bad = tmp_path / "buildFile"
    bad.write_text("<notAModule/>", encoding="utf-8")
    with pytest.raises(SystemExit, match="expected a VASSAL module"):
        _gen_module().generate(bad)
    bad.write_text("<VASSAL.launch.BasicModule", encoding="utf-8")
    with pytest.raises(SystemExit, match="not well-formed XML"):
        _gen_module().generate(bad)


def test_generator_command_line_reports_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _gen_module().main([str(tmp_path / "absent.xml")]) == 2
    assert "absent.xml" in capsys.readouterr().err
