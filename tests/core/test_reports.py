"""The reports players read, word for word: the text is what the tool delivers, so a changed word is a
changed result (and mutation testing, scripts/mutation.py, counts it so)."""

from __future__ import annotations

from asl_vassal_bridge.core import BuildingKind, Clock, Material, Phase, Terrain, Unit, UnitKind, Wreck
from asl_vassal_bridge.core.exits import blaze_report, may_enter

from .builders import L, blaze, building, grid, pos, put

RTPH = Clock(3, 1, Phase.RTPH)


def test_b25_4_report_for_every_kind_of_unit_in_a_blaze() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4"])
    b = building(hexes, "b", Material.WOODEN, ["B2"], BuildingKind.TWO_STORY)
    units = (Unit("g", "4-6-7", "Russian", L("C4")), Unit("u", "4-6-7", "Russian", L("B2.1")),
             Unit("a", "4-6-7", "German", L("C3")), Unit("b", "4-6-7", "German", L("C3"), pinned=True),
             Unit("c", "4-6-7", "German", L("C3"), broken=True), Unit("d", "PzIV", "German", L("C3"), UnitKind.VEHICLE),
             Unit("e", "4-6-7", "Russian", L("C3"), berserk=True), Unit("f", "hero", "Russian", L("C3"), UnitKind.HERO),
             Unit("h", "2-2-8", "Russian", L("C3"), UnitKind.CREW, in_melee=True))
    p = pos(hexes, [b], fires=[blaze("C3"), blaze("B2")], clock=RTPH).with_(units=units)
    r = blaze_report(p)
    assert r.title == "Units in Blazes (B25.4), Turn 3.1 RtPh"
    end = "deadline the end of the next RtPh"
    withdraw = "may move in the RtPh into an Accessible Location as if Withdrawing from Melee (A11.2), else eliminated"
    stuck = "pinned or in Melee: cannot leave during the RtPh and is eliminated; deadline the next RtPh"
    assert [(e.rule, e.text, e.location, e.kind) for e in r.events] == [
        ("B25.4", f"4-6-7 (German) in the Blaze in C3: move out, or break voluntarily and rout out, or be "
                  f"eliminated; {end}", "C3", "must-leave"),
        ("B25.4", f"4-6-7 (German) in the Blaze in C3: {stuck}", "C3", "eliminated"),
        ("B25.4", f"4-6-7 (German) in the Blaze in C3: rout out of the Blaze or be eliminated; {end}", "C3",
         "must-leave"),
        ("B25.4", "PzIV (German) in the Blaze in C3: leave the Blaze or be eliminated; deadline its next friendly MPh "
                  "(German)", "C3", "must-leave"),
        ("B25.4", f"4-6-7 (Russian) in the Blaze in C3: {withdraw}; {end}", "C3", "must-leave"),
        ("B25.4", f"hero (Russian) in the Blaze in C3: {withdraw}; {end}", "C3", "must-leave"),
        ("B25.4", f"2-2-8 (Russian) in the Blaze in C3: {stuck}", "C3", "eliminated"),
    ]
    # Before the RtPh the pinned units are not eliminated yet.
    assert {e.kind for e in blaze_report(p.with_(clock=Clock(3, 1, Phase.MPH))).events} == {"must-leave"}


def test_b25_4_and_b25_141_may_enter_answers() -> None:
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3", "C4"])
    p = pos(hexes, fires=[blaze("C3")], wrecks=[Wreck(L("C4")), Wreck(L("A1"), burning=False)])
    assert may_enter(p, L("C3")) == (False, "entering the Blaze in C3 eliminates a ground unit (B25.4)")
    assert may_enter(p, L("C3"), ground_unit=False) == (True, "no fire restriction")
    assert may_enter(p, L("C4")) == (True, "a Burning Wreck in C4: one extra MF/MP for its smoke (B25.141)")
    assert may_enter(p, L("A1")) == (True, "no fire restriction")
    from .builders import heavy

    windy = p.with_(environment=heavy(1))
    assert may_enter(windy, L("C4")) == (
        True, "a Burning Wreck in C4: no extra MF/MP for smoke in Heavy Winds (B25.141, B25.63)")
