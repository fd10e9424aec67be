"""Issue 31's readings to decide, each decided in docs/rules.md ("Readings decided (issue 31)") and pinned here."""

from __future__ import annotations

from asl_vassal_bridge.core.dice import ScriptedDice
from asl_vassal_bridge.core.environment import EC, Environment
from asl_vassal_bridge.core.fire import flame_to_blaze_check, pending_spreads
from asl_vassal_bridge.core.flamethrower import FtAttack, ft_attack
from asl_vassal_bridge.core.hexes import Direction
from asl_vassal_bridge.core.molotov import mol_kindling_odds
from asl_vassal_bridge.core.position import Fire, FireKind, UnitKind, Wreck
from asl_vassal_bridge.core.terrain import BuildingKind, Material, Terrain
from asl_vassal_bridge.core.wind import gust_candidates, gusts

from .builders import L, blaze, building, flame, grid, pos, put


def test_b23_211_b25_151_reading_a_lumberyard_flame_to_blaze_takes_the_ec_drm() -> None:
    """B23.211 names the EC DRM for Kindling/Spreading; the Flame→Blaze DR is made against the Spread # and the
    cheat sheet files it under Flame/Blaze Spread: a Lumberyard takes the EC DRM there too, a house does not."""
    hexes = grid("A-D", "1-4")
    ly = building(hexes, "ly", Material.WOODEN, ["B2"], BuildingKind.LUMBERYARD)
    house = building(hexes, "h", Material.WOODEN, ["C3"])
    p = pos(hexes, [ly, house], [flame("B2"), flame("C3")], Environment(EC.WET))
    lumber = flame_to_blaze_check(p, p.fires[0])
    home = flame_to_blaze_check(p, p.fires[1])
    assert lumber is not None and home is not None
    assert [(d.value, d.rule) for d in lumber.check.drms] == [(-2, "B25.5")]
    assert home.check.drms == ()


def test_a22_34_reading_long_range_halves_the_basic_tk_before_the_ce_ot_additions_frd() -> None:
    """A22.34 halves "the FT's Basic TK#" at Long Range, then adds to "the FT's Basic TK#" for CE/OT: halve first,
    fractions rounded down, then add: 13 → 6 (+2 OT) = 8, not (13 + 2) / 2 = 7."""
    hexes = grid("E-E", "5-7")
    p = pos(hexes)
    plan = ft_attack(p, FtAttack(L("E5"), L("E7"), vs_afv=True, predesignated=True, basic_tk=13, afv_ot=True))
    assert plan.final_tk == 8
    texts = [e.text for e in plan.notes]
    assert texts.index("Long Range: Basic TK# 13 halved (FRD) to 6") < texts.index("target AFV OT: TK# +2")


def test_b25_651_reading_a_lone_wreck_blaze_is_selected_for_the_gusts_longer_spread() -> None:
    """B25.651: a Wreck Blaze is eligible for only a one-hex spread instead of two; when no terrain Blaze is
    eligible, the Random Selection among the eligible fires picks the Burning Wreck alone (no die rolled)."""
    hexes = grid("A-E", "1-6")
    put(hexes, Terrain.GRAIN, ["C3", "C4"], feature="g")
    p = pos(hexes, wrecks=[Wreck(L("C3"), True, None, "T-34 wreck", 1)])
    cands = gust_candidates(p, Direction.DOWN)
    assert cands == [("Burning Wreck", L("C3"), L("C4"))]
    chosen, _ = gusts(p, ScriptedDice([]), Direction.DOWN)
    assert chosen == {L("C4"): ("Burning Wreck", L("C3"))}


def test_b25_61_reading_the_elevation_drm_applies_between_levels_of_one_building() -> None:
    """B25.61 speaks of a Location of higher/lower elevation: Level 1 is one level above the ground of its hex, so
    a Blaze spreading up a building takes +1 and down −1 (wooden building Spread # 8)."""
    hexes = grid("A-D", "1-4")
    b = building(hexes, "h", Material.WOODEN, ["B2", "B3"], BuildingKind.TWO_STORY)
    up = pending_spreads(pos(hexes, [b], [blaze("B2")]))[L("B2.1")]
    down = pending_spreads(pos(hexes, [b], [blaze("B2.1")]))[L("B2")]
    assert up is not None and down is not None
    assert up.check.needed_original == 7 and down.check.needed_original == 9  # type: ignore[union-attr]


def test_fire_and_victory_reading_a_kindled_flame_in_one_location_forfeits_its_hex_and_building() -> None:
    """Fire cheat sheet (Fire & Victory): the player forfeits "any Location/hex/building he has deliberately set on
    fire": a building (and hex) one of whose Locations he kindled is one he set on fire."""
    from asl_vassal_bridge.core.victory import fire_control

    hexes = grid("A-E", "1-5")
    b = building(hexes, "inn", Material.STONE, ["B2", "C2"], BuildingKind.TWO_STORY)
    p = pos(hexes, [b], fires=[Fire(L("B2.1"), FireKind.FLAME, 1, kindled_by="German")])
    got = {(n.scope.value, n.place, n.cause.value, n.controlled_by) for n in fire_control(p)}
    assert {("Location", "B2.1", "kindled", "Russian"), ("hex", "B2", "kindled", "Russian"),
            ("building", "inn", "kindled", "Russian")} <= got


def test_a22_613_reading_the_mol_check_for_kindling_takes_the_plus_1_vs_a_non_afv() -> None:
    """A22.613 has no target, but a Kindling attempt is no attack on an AFV, and the A22.62 EX's last paragraph has
    the squad pass "by rolling ≤ 2": the +1 vs a non-AFV applies."""
    hexes = grid("A-B", "1-2")
    put(hexes, Terrain.WOODS, ["A1"])
    odds = mol_kindling_odds(pos(hexes), L("A1"), UnitKind.SQUAD, leader_drm=0)
    assert odds.mol_check.needed_original == 2
    assert [(d.value, d.reason) for d in odds.mol_check.drms] == [(1, "vs a non-AFV")]
