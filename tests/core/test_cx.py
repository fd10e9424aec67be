"""CX (A4.51) as a unit's state: in the core Unit, position files, VASL's CX counter, and the attack tools, which
take it from the unit instead of a hand option (+1 to a MOL Check and a MOL attack, A22.611 and A4.51; +1 to
an FT attack, A22.2). A berserk unit loses any CX status (A15.42)."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.core import Position
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.scenarios import demo_position


def _demo_with_cx(unit_id: str = "g3", *, berserk: bool = False) -> Position:
    pos = demo_position()
    units = tuple(replace(u, cx=True, berserk=berserk) if u.id == unit_id else u for u in pos.units)
    return replace(pos, units=units)


def test_a_berserk_unit_is_never_cx() -> None:
    pos = _demo_with_cx(berserk=True)
    g3 = next(u for u in pos.units if u.id == "g3")
    assert g3.cx and not g3.is_cx


def test_cx_round_trips_through_a_position_file(tmp_path: Path) -> None:
    from asl_vassal_bridge.posfile import dump, load

    dump(_demo_with_cx(), tmp_path / "cx.toml")
    assert "cx = true" in (tmp_path / "cx.toml").read_text()
    back = load(tmp_path / "cx.toml")
    assert {u.id for u in back.units if u.cx} == {"g3"}


def test_vasls_cx_counter_over_a_unit_makes_it_cx_and_one_under_it_does_not() -> None:
    from asl_vassal_bridge.core import Hex, Location
    from asl_vassal_bridge.data import bundled_counters, unit_catalogue
    from asl_vassal_bridge.vasl.units import CounterIndex, read_units

    squad = {"id": "s1", "gpid": "11467", "name": "4-6-7 1sq", "map": "Map0", "x": 100, "y": 100, "layers": []}
    cx = {"id": "c1", "gpid": "4", "name": "CX", "map": "Map0", "x": 100, "y": 100, "layers": []}
    other = dict(squad, id="s2", x=200)
    cx2 = dict(cx, id="c2", x=200)

    def units(pieces: list[dict[str, object]]) -> dict[str, bool]:
        found = read_units(pieces, lambda p: Location(Hex(0, 0)), unit_catalogue(),
                           CounterIndex.from_dict(bundled_counters()))
        return {u.unit.id: u.unit.cx for u in found}

    assert units([squad, cx, cx2, other]) == {"s1": True, "s2": False}  # c2 lies under s2: no CX


def test_the_cli_attack_takes_cx_from_the_firer_unit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.cli import main
    from asl_vassal_bridge.posfile import dump

    dump(_demo_with_cx(), tmp_path / "cx.toml")
    args = ["--firer-id", "g3", "--to", "I5.1", "--fp", "4", "--phase", "PFPh", "--json"]
    assert main(["mol", str(tmp_path / "cx.toml"), *args]) == 0
    with_cx = capsys.readouterr().out
    assert main(["mol", "demo", *args]) == 0
    without = capsys.readouterr().out
    assert "CX firer" in with_cx and "CX firer" not in without
