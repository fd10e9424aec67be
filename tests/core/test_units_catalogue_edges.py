"""The unit catalogue read field by field, and names at their edges (what the mutation run of core/units.py asked
for: the bundled catalogue is read once and cached, so these build their own)."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core.position import UnitKind
from asl_vassal_bridge.core.units import (
    STANDARD_LEADER_LADDER,
    BadCatalogue,
    LeaderRating,
    MMCType,
    Nationality,
    StrengthFactor,
    UnitCatalogue,
    UnitClass,
    classes_above,
)

DATA = {
    "source": {"module": "VASL 6.7", "file": "buildFile.xml"},
    "nationalities": {
        "german": {
            "mmc": [
                {"designation": "4-6-7", "size": "squad", "class": "1st_line", "tags": ["SS"],
                 "vasl_names": ["4-6-7 1sq"], "class_source": "palette"},
                {"designation": "2-4-7", "size": "half-squad"},
                {"designation": "2-2-8", "size": "crew", "class": "elite"},
            ],
            "commissars": ["7-0", "8-0"],
        },
    },
}


def test_the_catalogue_is_read_field_by_field() -> None:
    cat = UnitCatalogue.from_dict(DATA)
    assert cat.source == "VASL 6.7 (buildFile.xml)"
    ge = cat[Nationality.GERMAN]
    assert ge.mmc == (
        MMCType(StrengthFactor(4, 6, 7), UnitKind.SQUAD, UnitClass.FIRST_LINE, frozenset({"SS"}), ("4-6-7 1sq",),
                "palette"),
        MMCType(StrengthFactor(2, 4, 7), UnitKind.HALF_SQUAD),
        MMCType(StrengthFactor(2, 2, 8), UnitKind.CREW, UnitClass.ELITE),
    )
    assert ge.leaders == tuple(sorted(STANDARD_LEADER_LADDER))
    assert ge.commissars == (LeaderRating.parse("7-0"), LeaderRating.parse("8-0"))
    assert cat[Nationality.RUSSIAN].nationality is Nationality.RUSSIAN and cat[Nationality.RUSSIAN].mmc == ()
    assert ge.mmc[1].describe() == "2-4-7 class unknown half-squad"
    assert UnitCatalogue.from_dict({"source": "hand-made", "nationalities": {}}).source == "hand-made"


def test_a_bad_size_names_the_counter() -> None:
    bad = {"nationalities": {"german": {"mmc": [{"designation": "4-6-7", "size": "platoon"}]}}}
    with pytest.raises(BadCatalogue) as e:
        UnitCatalogue.from_dict(bad, "cat.json")
    assert str(e.value) == ("cat.json: BadCatalogue: size 'platoon' of '4-6-7': expected squad, half-squad or crew "
                            "(expected the shape written by scripts/gen_unit_catalogue.py)")


def test_classes_above_are_strictly_better() -> None:
    assert classes_above(UnitClass.SECOND_LINE, [UnitClass.SECOND_LINE, UnitClass.ELITE, UnitClass.FIRST_LINE]) == [
        UnitClass.FIRST_LINE, UnitClass.ELITE]


@pytest.mark.parametrize(("name", "unit_class"), [
    ("1st_line", UnitClass.FIRST_LINE), ("2nd-line", UnitClass.SECOND_LINE), (" Elite ", UnitClass.ELITE)])
def test_unit_class_names(name: str, unit_class: UnitClass) -> None:
    assert UnitClass.from_name(name) is unit_class


@pytest.mark.parametrize(("name", "nat"), [("Other UNC (Korea)", Nationality.UN_KOREA),
                                           ("Communist Chinese (Korea)", Nationality.CHINESE_COMMUNIST),
                                           ("Axis Minor", Nationality.AXIS_MINOR)])
def test_nationality_labels(name: str, nat: Nationality) -> None:
    assert Nationality.from_name(name) is nat


def test_an_unknown_nationality_lists_the_codes() -> None:
    with pytest.raises(ValueError) as e:
        Nationality.from_name("martian")
    assert ", ".join(n.code for n in Nationality) in str(e.value)


def test_missing_fields_take_their_defaults_and_errors_name_the_catalogue() -> None:
    cat = UnitCatalogue.from_dict({"nationalities": {"russian": {"leaders": ["9-1", "8-0"]}}, "source": {}})
    ru = cat[Nationality.RUSSIAN]
    assert ru.nationality is Nationality.RUSSIAN and ru.mmc == () and ru.commissars == ()
    assert ru.leaders == (LeaderRating.parse("8-0"), LeaderRating.parse("9-1")) and cat.source == "? (?)"
    assert UnitCatalogue.from_dict({"nationalities": {}}).source == "? (?)"
    with pytest.raises(BadCatalogue, match=r"^unit catalogue: KeyError"):
        UnitCatalogue.from_dict({})
