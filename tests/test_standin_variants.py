"""The Java stand-ins' VASL API variants are made from one source (tests/support/standin_variants.py): every change
of every variant applies exactly once, a change that does not is one line naming the variant, the change and the
file, and the jars built from them offer each VASL's members (read from the compiled classes by ``javap``)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import missing
from tests.support import standin_variants as sv
from tests.support import vassal_harness as vh


def test_every_variant_applies_each_of_its_changes_exactly_once() -> None:
    assert sv.variant_sources("6.7") == {}  # the source itself
    v2020 = sv.variant_sources("2020")
    assert set(v2020) == {sv.HEX, sv.LOCATION, sv.MAP, sv.ASLMAP}
    assert "public int getBaseHeight()" in v2020[sv.HEX] and "int getBaseLevelofHex" not in v2020[sv.HEX]
    assert "public int getBaseHeight()" in v2020[sv.LOCATION] and "int getLevelInHex" not in v2020[sv.LOCATION]
    for gone in ("flipTerrainAndElevationGrids", "gridToHex", "terrainGrid", "terrainList", "addBoard("):
        assert not re.search(rf"\b{re.escape(gone)}", sv.code_only(v2020[sv.MAP])), gone  # comments aside
    assert "map.insertMap(board" in v2020[sv.ASLMAP] and "map.addBoard(" not in v2020[sv.ASLMAP]
    renamed = sv.variant_sources("renamed")
    assert set(renamed) == {sv.HEX} and "public int getHexLevel()" in renamed[sv.HEX]
    assert "int getBaseLevelofHex" not in renamed[sv.HEX]


def test_each_change_says_why() -> None:
    for api, changes in sv.VARIANTS.items():
        names = [c.name for c in changes]
        assert len(set(names)) == len(names), api
        assert all(c.why.strip() for c in changes), api


def _broken(monkeypatch: pytest.MonkeyPatch, *changes: sv.Change) -> str:
    monkeypatch.setitem(sv.VARIANTS, "broken", changes)
    with pytest.raises(sv.VariantError) as e:
        sv.variant_sources("broken")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("stand-in variant 'broken', change ")
    return msg


def test_a_substitution_that_does_not_apply_names_the_variant_the_change_and_the_file(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fine = sv.Substitute(sv.HEX, "Hex: fine", "applies", old="public int getBaseLevelofHex()", new="public int x()")
    gone = sv.Substitute(sv.HEX, "Hex: gone", "a VASL rename", old="public int getBaseHeight()", new="public int y()")
    msg = _broken(monkeypatch, fine, gone)
    assert "'Hex: gone'" in msg and "found 0 times (expected exactly once)" in msg and msg.endswith("Hex.java")
    twice = sv.Substitute(sv.MAP, "Map: twice", "x", old="public double getA1Center", new="public double a1")
    assert "'Map: twice'" in _broken(monkeypatch, twice) and "found 2 times" in _broken(monkeypatch, twice)


def test_a_method_is_replaced_only_when_declared_once(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "getHex(…) declared 2 times" in _broken(monkeypatch, sv.ReplaceMethod(sv.MAP, "overloads", "x", "getHex"))
    assert "nosuch(…) declared 0 times" in _broken(monkeypatch, sv.ReplaceMethod(sv.MAP, "none", "x", "nosuch"))
    # a call of the method is not its declaration; the doc comment goes with it
    text = sv.ReplaceMethod(sv.MAP, "no gridToHex", "x", "gridToHex").apply((sv.JAVA / sv.MAP).read_text())
    assert "public Hex gridToHex" not in text and "The hex holding pixel (x, y)" not in text
    assert "gridToHex(place.x, place.y)" in text


def test_a_field_is_renamed_only_to_a_free_name(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = sv.RenameField(sv.MAP, "Map: terrainGrid", "x", old="terrainGrid", new="hexGrid")
    assert "the new name hexGrid is already used" in _broken(monkeypatch, taken)
    local = sv.RenameField(sv.MAP, "Map: a local", "x", old="bestD", new="nearest")
    assert "field bestD declared 0 times" in _broken(monkeypatch, local)


def test_an_unknown_api_is_one_line_before_anything_is_compiled(tmp_path: Path) -> None:
    with pytest.raises(sv.VariantError, match=r"^vasl_api '2030': expected one of 6\.7, 2020, renamed$"):
        vh.build_support_jar(tmp_path, vasl_api="2030")
    assert not any(tmp_path.iterdir())


def _members(jar: Path, cls: str) -> set[str]:
    out = subprocess.run(["javap", "-p", "-cp", str(jar), cls], capture_output=True, text=True, timeout=120).stdout
    return {m.group(1) for m in re.finditer(r"\s([A-Za-z0-9_]+)(?:\(|;)", out)}


def test_each_jar_offers_its_vasls_members(tmp_path: Path) -> None:
    """What the extension reads (vasl_extension's VaslApi): 6.7.x's names, 2020's, and the renamed ground level."""
    try:
        vh.check_tools()
        vh.vassal_jar()
    except vh.Unavailable as e:
        missing("engine", str(e))
    if shutil.which("javap") is None:
        missing("engine", "javap not found (a JDK's): run `bash scripts/install-vassal-test-deps.sh`")
    jars = {api: vh.build_support_jar(tmp_path, vasl_api=api) for api in ("6.7", "2020", "renamed")}
    hexes = {api: _members(jar, "VASL.LOS.Map.Hex") for api, jar in jars.items()}
    maps = {api: _members(jar, "VASL.LOS.Map.Map") for api, jar in jars.items()}
    assert {"getBaseLevelofHex", "getHexCenter"} <= hexes["6.7"] and "getBaseHeight" not in hexes["6.7"]
    assert "getBaseHeight" in hexes["2020"] and "getBaseLevelofHex" not in hexes["2020"]
    assert "getHexLevel" in hexes["renamed"] and not {"getBaseLevelofHex", "getBaseHeight"} & hexes["renamed"]
    sixseven = {"flipTerrainAndElevationGrids", "gridToHex", "terrainGrid", "terrainList"}
    assert sixseven <= maps["6.7"] and sixseven <= maps["renamed"]
    assert not sixseven & maps["2020"]
    assert {"getGridTerrain", "getA1CenterX", "getA1CenterY", "insertMap", "flip"} <= maps["2020"]
    assert "getBaseHeight" in _members(jars["2020"], "VASL.LOS.Map.Location")
    assert "getLevelInHex" in _members(jars["6.7"], "VASL.LOS.Map.Location")
