"""The reports players read, word for word: the text is what the tool delivers, so a changed word is a
changed result (and mutation testing, scripts/mutation.py, counts it so)."""

from __future__ import annotations

import pytest

from asl_vassal_bridge.core import (
    EC,
    BuildingKind,
    Clock,
    Environment,
    Fire,
    FireKind,
    IllegalAction,
    Material,
    Phase,
    Roll,
    ScriptedDice,
    Terrain,
    Unit,
    UnitKind,
    Wreck,
    clearance_attempt,
    clearance_check,
    pending_rolls,
    pending_spreads,
)
from asl_vassal_bridge.core.exits import blaze_report, may_enter
from asl_vassal_bridge.core.explain import Event, Report
from asl_vassal_bridge.core.values import replace

from .builders import NOW, H, L, blaze, building, flame, grid, pos, put

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


# --- Clearance (B24.7, B24.72, B24.721) ----------------------------------------------------------------------


MPH = Clock(3, 1, Phase.MPH)


def _woods(fires=(flame("C3"),), clock: Clock = MPH, ec: EC = EC.MODERATE):  # type: ignore[no-untyped-def]
    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.WOODS, ["C3"])
    return pos(hexes, fires=fires, env=Environment(ec), clock=clock)


@pytest.mark.parametrize(("kw", "drms"), [
    ({"squads": 2, "half_squads": 1, "leader_drm": -1, "labor_drm": 1, "dozers": 1},
     [(1, "Labor status"), (-1, "leadership"), (-1, "Clearance by a squad"), (-1, "1 more HS/crew"),
      (-2, "1 more squad(s)"), (-2, "Wet EC"), (-5, "1 Dozer(s)")]),
    ({"half_squads": 1}, [(-2, "Wet EC")]),  # the first MMC a HS: no DRM for it
    ({"half_squads": 3}, [(-2, "2 more HS/crew"), (-2, "Wet EC")]),
    ({"squads": 3}, [(-1, "Clearance by a squad"), (-4, "2 more squad(s)"), (-2, "Wet EC")]),
    ({"dozers": 2}, [(-2, "Wet EC"), (-10, "2 Dozer(s)")]),
])
def test_b24_7_clearance_drms_word_for_word(kw: dict[str, int], drms: list[tuple[int, str]]) -> None:
    c = clearance_check(_woods(ec=EC.WET), L("C3"), **kw)
    assert [(d.value, d.reason, d.rule) for d in c.drms] == [(v, r, "B24.7") for v, r in drms]
    assert (c.name, c.rule, c.needed, c.at_most) == ("Clearance of the Flame in C3", "B24.7", 2, True)


def test_b24_7_refusals_word_for_word() -> None:
    with pytest.raises(IllegalAction) as e:
        clearance_check(_woods(), L("C3"))  # nobody clearing, by default
    assert str(e.value) == "Clearance needs at least one unpinned Good Order Infantry unit or Dozer (B24.7)"
    with pytest.raises(IllegalAction) as e:
        clearance_check(_woods(fires=(blaze("C3"),)), L("C3"), squads=1)
    assert str(e.value) == "C3 holds a Blaze, which cannot be extinguished (B25.7): nothing to clear (B24.7)"
    with pytest.raises(IllegalAction) as e:
        clearance_check(_woods(fires=()), L("C3"), squads=1)
    assert str(e.value) == "C3 holds no Flame: nothing to clear (B24.7)"
    rph = _woods(clock=Clock(3, 1, Phase.RPH))
    for call in (lambda: clearance_check(rph, L("C3"), squads=1),
                 lambda: clearance_attempt(rph, L("C3"), ScriptedDice([1, 1]), squads=1)):
        with pytest.raises(IllegalAction) as e:
            call()
        assert str(e.value) == "Clearance is attempted in the MPh or DFPh, not the RPh (B24.7)"
    assert clearance_check(rph, L("C3"), squads=1, check_phase=False).total_drm == -1


@pytest.mark.parametrize(("faces", "rule", "text", "kind", "outcome", "hampered", "left"), [
    ((1, 2), "B24.72", "Flame in C3 cleared", "cleared", "cleared", None, 0),  # Final 2
    ((2, 2), "B24.721", "Flame in C3 Hampered: no Blaze this Player Turn (mark it with a PIN)", "hampered",
     "Hampered", True, 1),  # Final 3
    ((3, 4), "B24.721", "Flame in C3 Hampered: no Blaze this Player Turn (mark it with a PIN)", "hampered",
     "Hampered", True, 1),  # Final 6
    ((4, 4), "B24.7", "Flame in C3 not cleared", "info", "no effect", False, 1),  # Final 7
])
def test_b24_7_clearance_outcomes_word_for_word(faces: tuple[int, int], rule: str, text: str, kind: str,
                                               outcome: str, hampered: bool | None, left: int) -> None:
    p = _woods()
    new, rep = clearance_attempt(p, L("C3"), ScriptedDice(list(faces)), squads=1, labor_drm=0)
    (ev,) = rep.events
    assert (ev.rule, ev.text, ev.location, ev.kind) == (rule, text, "C3", kind)
    assert ev.roll is not None and ev.roll.outcome == outcome and ev.roll.check == clearance_check(p, L("C3"), squads=1)
    assert rep.title == "Clearance of the Flame in C3"
    assert len(new.flames()) == left and (left == 0 or new.flames()[0].hampered is hampered)


def test_b24_7_the_attempt_uses_every_drm_given() -> None:
    p = _woods()
    kw = {"squads": 1, "half_squads": 1, "leader_drm": 1, "labor_drm": 2, "dozers": 0}
    _, rep = clearance_attempt(p, L("C3"), ScriptedDice([4, 4]), **kw)
    assert rep.events[0].roll is not None and rep.events[0].roll.check == clearance_check(p, L("C3"), **kw)
    _, rep = clearance_attempt(p, L("C3"), ScriptedDice([4, 4]), dozers=1)
    assert rep.events[0].roll is not None and rep.events[0].roll.final == 3


def test_b24_7_which_flame_an_attempt_reaches() -> None:
    p = _woods(fires=(flame("C3", hampered=True), flame("C3")))
    new, rep = clearance_attempt(p, L("C3"), ScriptedDice([2, 2]), squads=1)
    assert [f.hampered for f in new.flames()] == [True, True]
    assert rep.events[0].text.startswith("Flame in C3 (Flame 2 of 2) Hampered")
    both = _woods(fires=(flame("C3", hampered=True), flame("C3", hampered=True)))
    new, rep = clearance_attempt(both, L("C3"), ScriptedDice([1, 1]), squads=1)
    assert rep.events[0].text == "Flame in C3 (Flame 1 of 2) cleared" and len(new.flames()) == 1
    new, rep = clearance_attempt(p, L("C3"), ScriptedDice([1, 1]), squads=1, flame=2)
    assert rep.events[0].text == "Flame in C3 (Flame 2 of 2) cleared" and new.flames() == [flame("C3", hampered=True)]
    with pytest.raises(IllegalAction) as e:
        clearance_attempt(p, L("C3"), ScriptedDice([1, 1]), squads=1, flame=3)
    assert str(e.value) == "C3 holds 2 Flame(s): no Flame 3 to clear (B24.7)"


# --- Fire & Victory (Fire cheat sheet) ---------------------------------------------------------------------


def test_fire_and_victory_notes_word_for_word_across_groups_and_levels() -> None:
    from asl_vassal_bridge.core.victory import fire_control

    hexes = grid("A-H", "1-8")
    put(hexes, Terrain.WOODS, ["A1", "A2", "H8"])
    b = building(hexes, "b", Material.WOODEN, ["E4"], BuildingKind.TWO_STORY)
    p = pos(hexes, [b], fires=[
        blaze("A1"), blaze("A2", kindled_by="German"),  # an accidental fire first in its group
        blaze("E4", kindled_by="German"), blaze("E4.1", kindled_by="Russian"),  # joined within one hex
        blaze("H8", kindled_by="Russian"),  # a group of its own, after a group already seen
    ])
    notes = fire_control(p)
    assert [(n.scope.value, n.place, n.cause.value, n.kindled_by, n.controlled_by, n.joined) for n in notes] == [
        ("Location", "A1", "unenterable", ("German",), "Russian", False),  # in the area German fire made unenterable
        ("Location", "A2", "kindled", ("German",), "Russian", False),
        ("Location", "E4", "kindled", ("German",), "Russian", True),
        ("Location", "E4.1", "kindled", ("Russian",), "German", True),
        ("Location", "H8", "kindled", ("Russian",), "German", False),
        ("hex", "E4", "both-kindled", ("German", "Russian"), None, True),
        ("building", "b", "both-kindled", ("German", "Russian"), None, True),
    ]
    text = [n.describe(p) for n in notes]
    assert text[0] == ("A1: unenterable in the area the fire kindled by German makes unenterable; Control goes to "
                       "Russian (Fire & Victory)")
    assert text[1] == "A2: burning from a fire kindled by German; Control goes to Russian (Fire & Victory)"
    assert text[2] == (
        "E4: burning from a fire kindled by German; Control goes to Russian; fires kindled by both sides have joined, "
        "so the area they make unenterable is not forfeited as a whole (Fire & Victory)")
    assert text[5] == (
        "hex E4: fires kindled by both German and Russian burn in it; each forfeits it to the other, so neither "
        "forfeit holds: Control stays with the side that controls hex E4 (the position does not say which) "
        "(Fire & Victory)")
    assert text[6] == (
        "building b (E4): fires kindled by both German and Russian burn in it; each forfeits it to the other, so "
        "neither forfeit holds: Control of the building goes to the side that controls all its hexes (the position "
        "does not say which) (Fire & Victory)")
    held = p.with_(control={H("E4"): "German"})
    assert [n.describe(held) for n in fire_control(held)][5:] == [
        "hex E4: fires kindled by both German and Russian burn in it; each forfeits it to the other, so neither "
        "forfeit holds: Control stays with German, who controls hex E4 (Fire & Victory)",
        "building b (E4): fires kindled by both German and Russian burn in it; each forfeits it to the other, so "
        "neither forfeit holds: Control of the building goes to German, who controls all its hexes (Fire & Victory)"]


# --- Smoke from fire (B25.2, A24.61) ------------------------------------------------------------------------


def test_b25_2_fire_smoke_in_map_order_with_its_drift() -> None:
    from asl_vassal_bridge.core import Direction, Wind, WindForce, fire_smoke

    from .builders import mild

    hexes = grid("A-E", "1-9")
    put(hexes, Terrain.WOODS, ["C3", "C4"])
    p = pos(hexes, fires=[blaze("C4"), blaze("C3")], wrecks=[Wreck(L("A1"))], env=mild(4))
    smoke = fire_smoke(p)
    assert [(s.location.name, s.hindrance, s.height, s.wreck) for s in smoke] == [
        ("C3", 3, 2, False), ("C4", 3, 2, False), ("A1", 2, 2, True)]
    assert [h.name for h in smoke[0].drift] == ["C4", "C5", "C6"]  # as many as its Hindrance DRM, downwind
    assert [h.name for h in smoke[2].drift] == ["A2", "A3"]
    calm = fire_smoke(p.with_(environment=Environment(wind=Wind(WindForce.NO_WIND, Direction(4)))))
    assert [(s.height, s.drift) for s in calm] == [(4, ()), (4, ()), (4, ())]
    edge = fire_smoke(pos(hexes, fires=[blaze("C8")], env=mild(4)))
    assert [h.name for h in edge[0].drift] == ["C9"]  # off the map: no counter


# --- Wind Change, Gusts, Collapse (B25.65, B25.651, B25.66) ---------------------------------------------------


@pytest.mark.parametrize(("wind", "dr", "after", "text"), [
    ((1, 1), 1, (1, 2), "direction one hexside clockwise: Wind Direction 1 → 2"),
    ((1, 1), 2, (1, 3), "direction two hexsides clockwise: Wind Direction 1 → 3"),
    ((1, 1), 3, (1, 6), "direction one hexside counter-clockwise: Wind Direction 1 → 6"),
    ((1, 1), 4, (1, 5), "direction two hexsides counter-clockwise: Wind Direction 1 → 5"),
    ((1, 1), 5, (2, 1), "force up one level: Mild Breeze → Heavy Winds"),
    ((1, 1), 6, (0, None), "force down one level: Mild Breeze → No Wind"),
    ((0, None), 1, (0, None), "direction one hexside clockwise: no effect with No Wind"),
    ((0, 3), 4, (0, 3), "direction two hexsides counter-clockwise: no effect with No Wind"),
    ((0, None), 5, (1, 3), "force up one level: No Wind → Mild Breeze, Wind Direction dr 3"),
    ((0, None), 6, (1, 3), "force down one level: No Wind → Mild Breeze, Wind Direction dr 3"),
    ((2, 6), 1, (2, 1), "direction one hexside clockwise: Wind Direction 6 → 1"),
    ((2, 6), 5, (1, 6), "force up one level: Heavy Winds → Mild Breeze"),
    ((2, 6), 6, (1, 6), "force down one level: Heavy Winds → Mild Breeze"),
])
def test_b25_65_wind_change_table_word_for_word(wind: tuple[int, int | None], dr: int,
                                               after: tuple[int, int | None], text: str) -> None:
    from asl_vassal_bridge.core import Direction, Wind, WindForce
    from asl_vassal_bridge.core.wind import apply_wind_change

    def make(w: tuple[int, int | None]) -> Wind:
        return Wind(WindForce(w[0]), None if w[1] is None else Direction(w[1]))

    dice = ScriptedDice([3])
    assert apply_wind_change(make(wind), dr, dice) == (make(after), text)
    rolled = [purpose for purpose, _ in dice.log]
    assert rolled == (["Wind Direction (B25.64)"] if "dr 3" in text else [])


def test_b25_65_rally_phase_reports_and_dice_word_for_word() -> None:
    from asl_vassal_bridge.core.wind import rally_phase  # the step alone: the clock stays

    from .builders import mild

    p = pos(grid("A-E", "1-5"), env=mild(1), fires=[flame("C3", hampered=True)])
    dice = ScriptedDice([1, 1, 4])
    new, rep = rally_phase(p, dice)
    assert rep.title == "Rally Phase wind, Turn 3.1 AFPh"
    assert [(e.rule, e.text, e.kind) for e in rep.events] == [
        ("B25.65", "Wind Change DR 2 (1,1): dr 4, direction two hexsides counter-clockwise: Wind Direction 1 → 5",
         "wind"),
        ("B25.65", "the wind changed: drifting smoke counters are removed; smoke drifts again at the start of the AFPh "
         "(Fire cheat sheet)", "smoke")]
    assert new.environment.drift_cleared
    assert [purpose for purpose, _ in dice.log] == ["Wind Change (B25.65)", "Wind Change table (B25.65)"]
    assert new.fires == (flame("C3"),)
    _, rep = rally_phase(p, ScriptedDice([3, 4]))
    assert [(e.rule, e.text, e.kind) for e in rep.events] == [("B25.65", "Wind Change DR 7: no change", "wind")]


def test_b25_66_collapse_reports_units_and_fires_word_for_word() -> None:
    from asl_vassal_bridge.core.wind import rally_phase  # the step alone: the clock stays

    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.STONE, ["C3", "D3"], BuildingKind.MULTI_STORY, hex_levels=(("D3", 1),))
    b2 = building(hexes, "c", Material.WOODEN, ["B2"])
    put(hexes, Terrain.WOODS, ["D4"])
    units = (Unit("u1", "4-6-7", "German", L("C3")), Unit("u2", "4-6-7", "German", L("C3.2")),
             Unit("u3", "4-6-7", "German", L("D4")), Unit("u4", "8-1", "German", L("C3.1")),
             Unit("u5", "2-3-7", "German", L("B2")))
    p = pos(hexes, [b, b2], [blaze("C3.1"), blaze("C3.2"), flame("C3"), blaze("B2", since=2), blaze("D4")],
            wrecks=[Wreck(L("D4"))]).with_(units=units)
    dice = ScriptedDice([6, 6, 4, 4, 2])
    new, rep = rally_phase(p, dice)
    falls = ("where its rubble falls and what it does there (B24.12) is resolved by hand: rubble falling into "
             "Burnable Terrain places a Blaze there, into a Blaze it burns, and it puts out any Flame "
             "(Fire cheat sheet)")
    assert [(e.rule, e.text, e.location, e.kind) for e in rep.events] == [
        ("B25.651", "Wind Change DR 12 (6,6): Gusts this Player Turn; every terrain Blaze spreads downwind at the end "
                    "of the AFPh", None, "wind"),
        ("B25.651", "the Gust eliminates all Dispersed SMOKE (drifting fire smoke included) and disperses all other "
                    "SMOKE on the board, except the smoke of a Blaze in its own hex", None, "smoke"),
        ("B25.66", "Random Selection among building Blazes: B2 4, C3.1 4, C3.2 2", None, "selection"),
        ("B25.66", f"B2 and every level above it collapse: B2 is now burning Wooden Rubble, its Blaze burning on; "
                   f"{falls}", "B2", "collapse"),
        ("B25.66", f"C3.1 and every level above it collapse into burning rubble (2 fire(s) with them); C3 and below "
                   f"stand; {falls}; units in the collapsed Locations are taken off the position (by hand, B24.12): "
                   "4-6-7 (German), 8-1 (German)", "C3.1", "collapse"),
    ]
    assert [purpose for purpose, _ in dice.log] == [
        "Wind Change (B25.65)", *["Collapse (B25.66): Random Selection"] * 3]
    assert [u.id for u in new.units] == ["u1", "u3", "u5"]
    assert set(new.fires) == {flame("C3"), blaze("D4"), blaze("B2", since=2)}
    assert new.wrecks == p.wrecks
    assert new.map.buildings["b"].hex_levels == (("C3", 0), ("D3", 1))
    assert new.map.hexes[L("B2").hex].terrain is Terrain.WOODEN_RUBBLE


def test_b25_66_nothing_to_collapse_and_two_ground_levels_at_once() -> None:
    from asl_vassal_bridge.core.wind import collapse

    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.WOODEN, ["B2", "D4"])
    put(hexes, Terrain.WOODS, ["C3"])
    quiet = pos(hexes, [b], [blaze("C3")])
    same, rep = collapse(quiet, ScriptedDice([]))
    assert same == quiet and rep.title == "Collapse (B25.66)"
    assert [(e.rule, e.text) for e in rep.events] == [
        ("B25.66", "no building Location holds a Blaze: nothing collapses")]
    both, rep = collapse(pos(hexes, [b], [blaze("B2"), blaze("D4"), blaze("C3")]), ScriptedDice([5, 5]))
    assert [e.location for e in rep.events if e.kind == "collapse"] == ["B2", "D4"]
    assert {both.map.hexes[L(h).hex].terrain for h in ("B2", "D4")} == {Terrain.WOODEN_RUBBLE}


def test_b25_651_gusts_reports_and_dice_word_for_word() -> None:
    from asl_vassal_bridge.core import Direction
    from asl_vassal_bridge.core.wind import gust_candidates, gust_direction, gusts

    hexes = grid("A-E", "1-8")
    put(hexes, Terrain.BRUSH, ["B2", "B4", "C3", "C5", "D4", "D6", "D7"])
    p = pos(hexes, fires=[blaze("B2", since=NOW.player_turn), blaze("C3"), blaze("D4")],
            wrecks=[Wreck(L("A1"), since=NOW.player_turn), Wreck(L("D5"))])
    assert gust_candidates(p, Direction(4)) == [("Blaze", L("C3"), L("C5")), ("Blaze", L("D4"), L("D6")),
                                                ("Burning Wreck", L("D5"), L("D6"))]
    dice = ScriptedDice([2])
    told = Event("B25.651", "No Wind: the Gusts blow to 2 (dr)", kind="wind")
    assert gust_direction(p, dice) == (Direction(2), [told])
    assert dice.log[0][0] == "Gust direction (B25.651)"
    dice = ScriptedDice([6, 2, 6])
    chosen, rep = gusts(p, dice, Direction(4))
    assert chosen == {L("C5"): ("Blaze", L("C3")), L("D6"): ("Burning Wreck", L("D5"))}
    assert rep.title == "Gusts (B25.651)"
    assert [(e.rule, e.text, e.kind) for e in rep.events] == [
        ("B25.651", "Random Selection among 3 eligible fires: C3 6, D4 2, D5 6", "selection")]
    assert [purpose for purpose, _ in dice.log] == ["Gusts two-hex spread (B25.651): Random Selection"] * 3


# --- Fire starts (B25.11–.14, A22.6111, A24.32, huts) ----------------------------------------------------------


def _ck(c):  # type: ignore[no-untyped-def]
    return None if c is None else (c.name, c.rule, c.needed, c.dice, [(d.value, d.reason, d.rule) for d in c.drms])


def _village(ec: EC):  # type: ignore[no-untyped-def]
    from .test_firestarts import village

    return village(Environment(ec))


def test_b25_11_kindling_checks_word_for_word() -> None:
    from asl_vassal_bridge.core import kindling_check

    p = _village(EC.DRY)
    kx8 = "Kindling in X8 (Woods, Kindle # 9)"
    assert _ck(kindling_check(p, L("X8"), UnitKind.SQUAD, leader_drm=-1, has_mol=True)) == (
        kx8, "B25.11", 9, 2, [(1, "leadership -1 reversed", "B25.11"), (2, "unit has a MOL", "A22.613"),
                              (1, "Dry EC (Kindling)", "B25.5")])
    assert _ck(kindling_check(p, L("U9"), UnitKind.CREW, leader_drm=0)) == (
        "Kindling in U9 (Stone Building, Kindle # 8)", "B25.11", 8, 2,
        [(-1, "HS/crew Kindling", "B25.11"), (-1, "Fortified Building", "B23.94")])
    assert _ck(kindling_check(p, L("U7"), UnitKind.HERO)) == (
        "Kindling in U7 (Wooden Building, Kindle # 7)", "B25.11", 7, 2, [(-2, "SMC Kindling", "B25.11")])
    assert _ck(kindling_check(p, L("X8"), UnitKind.HALF_SQUAD, leader_drm=1)) == (
        kx8, "B25.11", 9, 2, [(-1, "leadership +1 reversed", "B25.11"), (-1, "HS/crew Kindling", "B25.11"),
                              (1, "Dry EC (Kindling)", "B25.5")])
    with pytest.raises(IllegalAction) as e:
        kindling_check(p.with_(clock=Clock(3, 1, Phase.AFPH)), L("X8"), UnitKind.LEADER, check_phase=True)
    assert str(e.value) == "Kindling is made in the PFPh, not the AFPh (B25.11)"
    assert kindling_check(p.with_(clock=Clock(3, 1, Phase.PFPH)), L("X8"), UnitKind.LEADER, check_phase=True)
    assert kindling_check(p.with_(clock=Clock(3, 1, Phase.AFPH)), L("X8"), UnitKind.LEADER)  # not asked to check


def test_b25_11_kindling_attempts_word_for_word() -> None:
    from asl_vassal_bridge.core import kindling_attempt

    p = _village(EC.DRY).with_(clock=Clock(3, 1, Phase.PFPH))
    dice = ScriptedDice([4, 4])
    new, rep = kindling_attempt(p, L("X8"), UnitKind.SQUAD, dice, side="German", leader_drm=-1)
    prep = ("B25.11", "the Kindling unit is marked with a Prep Fire counter", None, "prep-fire", None)
    assert rep.title == "Kindling in X8 (Woods, Kindle # 9)"
    assert [(e.rule, e.text, e.location, e.kind, e.roll.outcome if e.roll else None) for e in rep.events] == [
        ("B25.11", "Flame in X8", "X8", "flame", "Flame"), prep]
    assert dice.log == [("Kindling in X8 (Woods, Kindle # 9) (B25.11)", Roll(4, 4))]
    assert [(f.location.name, f.kind.value, f.kindled_by, f.since) for f in new.fires] == [("X8", "flame", "German", 5)]
    new, rep = kindling_attempt(p, L("X8"), UnitKind.SQUAD, ScriptedDice([1, 2]), side="German", leader_drm=-1)
    assert new.fires == () and [(e.text, e.kind) for e in rep.events] == [("no Flame in X8", "no-flame"),
                                                                          (prep[1], prep[3])]


@pytest.mark.parametrize(("result", "starts"), [("KIA", True), ("K/2", True), ("2KIA", True), ("K", True),
                                                ("k/1", True), (" kia ", True), ("1MC", False), ("PTC", False),
                                                ("NMC", False), ("", False)])
def test_b25_12_ft_fire_start_results_word_for_word(result: str, starts: bool) -> None:
    from asl_vassal_bridge.core.firestarts import ft_fire_check

    want = ("FT fire start in X8 (Woods, Kindle # 9)", "B25.12", 9, 2, [(-2, "Wet EC (FT fire start)", "B25.5")])
    assert _ck(ft_fire_check(_village(EC.WET), L("X8"), result)) == (want if starts else None)


def test_b25_12_to_13_and_a24_32_fire_start_checks_word_for_word() -> None:
    from asl_vassal_bridge.core.firestarts import ft_fire_check, he_fire_check, wp_fire_check

    dry, wet = _village(EC.DRY), _village(EC.WET)
    # B25.12 adds the "applicable (25.5)" EC DRM, and B25.5 excludes buildings: none on a stone building.
    assert _ck(ft_fire_check(dry, L("U9"), "KIA")) == ("FT fire start in U9 (Stone Building, Kindle # 8)", "B25.12",
                                                        8, 2, [(-1, "Fortified Building", "B23.94")])
    assert _ck(ft_fire_check(dry, L("X8"), "KIA")) == ("FT fire start in X8 (Woods, Kindle # 9)", "B25.12",
                                                        9, 2, [(1, "Dry EC (FT fire start)", "B25.5")])
    assert ft_fire_check(dry, L("T5"), "KIA") is None
    assert ft_fire_check(dry, L("X8"), "KIA", target_unarmored=False) is None
    assert _ck(he_fire_check(wet, L("X8"), True)) == ("HE fire start in X8 (Woods, Kindle # 9)", "B25.13", 9, 2,
                                                      [(-2, "Wet EC (HE fire start)", "B25.5")])
    assert _ck(he_fire_check(wet, L("U7"), True)) == ("HE fire start in U7 (Wooden Building, Kindle # 7)", "B25.13",
                                                      7, 2, [])
    assert _ck(he_fire_check(wet, L("U9"), True))[4] == [(-1, "Fortified Building", "B23.94")]  # type: ignore[index]
    for kw in ({"original_kia": False}, {"original_kia": True, "collateral": True},
               {"original_kia": True, "vehicle_target_type": True}, {"original_kia": True, "created_rubble": True}):
        assert he_fire_check(wet, L("X8"), **kw) is None  # type: ignore[arg-type]
    assert he_fire_check(wet, L("T5"), True) is None
    assert _ck(wp_fire_check(dry, L("X8"))) == ("WP fire start in X8 (Woods, Kindle # 9)", "A24.32", 9, 2,
                                                [(-1, "Dry EC", "A24.32")])
    assert _ck(wp_fire_check(dry, L("U9"))) == ("WP fire start in U9 (Stone Building, Kindle # 8)", "A24.32", 8, 2,
                                                [(-1, "Dry EC", "A24.32"), (-2, "WP vs a building", "A24.32"),
                                                 (-1, "Fortified Building", "B23.94")])
    assert _ck(wp_fire_check(_village(EC.VERY_DRY), L("X8")))[4] == []  # type: ignore[index]
    assert wp_fire_check(wet, L("X8")) is None and wp_fire_check(dry, L("T5")) is None


def test_a22_6111_mol_flames_word_for_word() -> None:
    from asl_vassal_bridge.core import Roll
    from asl_vassal_bridge.core.firestarts import mol_flames

    dry, wet = _village(EC.DRY), _village(EC.WET)
    cases = [
        (dry, "X8", "X9", Roll(6, 3), True, ["X8"], [
            ("colored dr 6: the MOL thrower in X8 breaks; his FP and MOL are voided", "X8", "thrower-breaks"),
            ("Flame in X8 (MOL colored dr 6)", "X8", "flame")]),
        (dry, "T5", "X9", Roll(6, 2), True, [], [
            ("colored dr 6: the MOL thrower in T5 breaks; his FP and MOL are voided", "T5", "thrower-breaks"),
            ("no Flame in T5: no Burnable Terrain", "T5", "info")]),
        (wet, "X8", "X9", Roll(1, 2), False, [], [
            ("no Flame in X9: white dr 2 -2 Wet EC (B25.5) = 0, not ≥ 1", "X9", "info")]),
        (wet, "X8", "X9", Roll(1, 3), False, ["X9"], [
            ("white dr 3 -2 Wet EC (B25.5) = 1 ≥ 1", "X9", "info"), ("Flame in X9 (MOL colored dr 1)", "X9", "flame")]),
        (wet, "X8", "U7", Roll(1, 1), False, ["U7"], [("Flame in U7 (MOL colored dr 1)", "U7", "flame")]),
        (dry, "X8", "U9", Roll(1, 1), False, [], [
            ("no Flame in U9: white dr 1 -1 Fortified Building (B23.94) = 0, not ≥ 1", "U9", "info")]),
        (dry, "X8", "U9", Roll(1, 2), False, ["U9"], [
            ("white dr 2 -1 Fortified Building (B23.94) = 1 ≥ 1", "U9", "info"),
            ("Flame in U9 (MOL colored dr 1)", "U9", "flame")]),
        (dry, "X8", "X9", Roll(3, 3), False, [], []),
    ]
    for p, thrower, target, roll, breaks, flames, events in cases:
        m = mol_flames(p, L(thrower), L(target), roll)
        assert (m.thrower_breaks, [x.name for x in m.flames]) == (breaks, flames), (thrower, target, roll)
        assert [(e.rule, e.text, e.location, e.kind) for e in m.events] == [("A22.6111", *e) for e in events]
    with pytest.raises(IllegalAction) as e:
        mol_flames(dry, L("X8"), L("X9"), Roll(1))
    assert str(e.value) == "a MOL attack is resolved with a DR (colored and white dice), not a dr (A22.6111)"


def test_b25_14_wreck_blaze_and_burning_wrecks_word_for_word() -> None:
    from asl_vassal_bridge.core import Direction
    from asl_vassal_bridge.core.firestarts import WreckCause, add_burning_wreck, place_flame, wreck_blaze

    assert [wreck_blaze(c, r, n) for c, r, n in [
        (WreckCause.FT_OR_MOL, 5, 6), (WreckCause.FT_OR_MOL, 6, 6), (WreckCause.UNLIKELY_KILL, 1, 0),
        (WreckCause.UNLIKELY_KILL, 2, 0), (WreckCause.TO_KILL, 4, 8), (WreckCause.TO_KILL, 5, 9),
        (WreckCause.IFT, 4, 9), (WreckCause.IFT, 5, 9), (WreckCause.CLOSE_COMBAT, 3, 6),
    (WreckCause.CLOSE_COMBAT, 4, 6),
    ]] == [
        (True, "FT or MOL attack DR 5 < kill number 6 (B25.14)"),
        (False, "FT or MOL attack DR 6 ≥ kill number 6 (B25.14)"),
        (True, "Unlikely Kill follow-up dr 1 = 1 (B25.14, A7.309)"),
        (False, "Unlikely Kill follow-up dr 2 ≠ 1 (B25.14, A7.309)"),
        (True, "To Kill DR 4 ≤ half of Final TK# 8 (B25.14)"),
        (False, "To Kill DR 5 > half of Final TK# 9 (B25.14)"),
        (True, "IFT DR 4 ≤ half of ★ Vehicle IFT # 9 (B25.14)"),
        (False, "IFT DR 5 > half of ★ Vehicle IFT # 9 (B25.14)"),
        (True, "CC DR 3 ≤ half of the highest CC DR that kills 6 (B25.14)"),
        (False, "CC DR 4 > half of the highest CC DR that kills 6 (B25.14)"),
    ]
    p = _village(EC.DRY)
    assert add_burning_wreck(p, L("V6"), name="T-34", bypass=2).wrecks == (
        Wreck(L("V6"), True, Direction(2), "T-34", 5),)
    assert add_burning_wreck(p, L("V6")).wrecks == (Wreck(L("V6"), True, None, "Wreck", 5),)
    burning = p.with_(fires=(blaze("X8"),))
    assert place_flame(burning, L("X8")) == burning
    kindled = Fire(L("X8"), FireKind.FLAME, 5, kindled_by="German")
    assert place_flame(p, L("X8"), kindled_by="German").fires == (kindled,)


@pytest.mark.parametrize(("kw", "flame"), [
    ({"attack": "MG", "colored_dr": 1}, True), ({"attack": "MG", "colored_dr": 2}, False),
    ({"attack": "HE Equivalency", "colored_dr": 1}, False),
    ({"attack": "Collateral/Residual FP", "colored_dr": 1}, False),
    ({"attack": "FT", "ft_effects_dr": 7, "ft_x_number": 8}, True),
    ({"attack": "FT", "ft_effects_dr": 8, "ft_x_number": 8}, False),
    ({"attack": "PF/PFk/BAZ/PSK/RCL fired from the hut"}, True),
    ({"attack": "PF/PFk/BAZ/PSK/RCL fired from the hut", "collapsed": True}, False),
    ({"attack": "MOL", "colored_dr": 1, "collapsed": True}, True),
    ({"attack": "MOL", "colored_dr": 1, "collapsed": True, "rain_has_fallen": True}, False),
    ({"attack": "MOL", "colored_dr": 1, "rain_has_fallen": True}, True),
])
def test_huts_flames(kw: dict[str, object], flame: bool) -> None:
    from asl_vassal_bridge.core.firestarts import HutAttack, hut_flame

    args = dict(kw)
    attack = HutAttack(args.pop("attack"))
    assert hut_flame(attack, **args) is flame  # type: ignore[arg-type]


def test_huts_missing_inputs_word_for_word() -> None:
    from asl_vassal_bridge.core.firestarts import HutAttack, hut_flame

    with pytest.raises(IllegalAction) as e:
        hut_flame(HutAttack.FT, ft_effects_dr=3)
    assert str(e.value) == "a FT vs a hut needs its Original Effects DR and X# (huts)"
    with pytest.raises(IllegalAction) as e:
        hut_flame(HutAttack.DC)
    assert str(e.value) == "DC vs a hut needs the Original colored dr (huts)"


@pytest.mark.parametrize(("kw", "message"), [
    ({"unit": UnitKind.SQUAD}, "a MMC Kindles only when stacked with a leader who directs it (B25.11)"),
    ({"unit": UnitKind.LEADER, "leader_drm": -1}, "a leader may not both make a Kindling attempt and direct one "
                                                   "(B25.11)"),
    ({"unit": UnitKind.LEADER, "smc_passed_ntc": False}, "a SMC Kindles only after passing a NTC (B25.11)"),
    ({"unit": UnitKind.SQUAD, "leader_drm": 0, "pinned": True}, "a Kindling unit must be unpinned and in Good Order "
                                                                "(B25.11)"),
    ({"unit": UnitKind.SQUAD, "leader_drm": 0, "broken": True}, "a Kindling unit must be unpinned and in Good Order "
                                                                "(B25.11)"),
    ({"unit": UnitKind.SQUAD, "leader_drm": 0, "predesignated": False},
     "a leader directs several Kindling attempts in a Location only if all are predesignated (B25.11)"),
    ({"unit": UnitKind.VEHICLE, "leader_drm": 0}, "only Infantry may attempt Kindling (B25.11)"),
    ({"unit": UnitKind.LEADER, "at": "T5"}, "T5 holds Open Ground, which cannot burn (B25.11, B25.1)"),
])
def test_b25_11_kindling_refusals_word_for_word(kw: dict[str, object], message: str) -> None:
    from asl_vassal_bridge.core import kindling_check

    args = dict(kw)
    unit = args.pop("unit")
    at = args.pop("at", "X8")
    with pytest.raises(IllegalAction) as e:
        kindling_check(_village(EC.DRY), L(at), unit, **args)  # type: ignore[arg-type]
    assert str(e.value) == message


# --- The end of the AFPh (B25.14, B25.151, B25.6–.651) ------------------------------------------------------


def _afph_scene():  # type: ignore[no-untyped-def]
    hexes = grid("A-H", "1-8")
    put(hexes, Terrain.WOODS, ["C3", "C4", "C5"], feature="w")
    put(hexes, Terrain.BRUSH, ["D3", "G6", "G7"])
    put(hexes, Terrain.GRAIN, ["B3"], elevation=1)
    put(hexes, Terrain.BAMBOO, ["E3"])
    hut = building(hexes, "h", Material.WOODEN, ["F5"], BuildingKind.HUT)
    return hexes, hut


def test_end_of_afph_report_and_dice_word_for_word() -> None:
    from asl_vassal_bridge.core import end_of_afph

    from .builders import mild

    hexes, hut = _afph_scene()
    p = pos(hexes, [hut], fires=[blaze("C3"), flame("F5"), flame("C4"), flame("E3"), flame("G6")],
            wrecks=[Wreck(L("G6"), since=1)], env=mild(3, EC.DRY))
    dice = ScriptedDice([6, 6, 1, 1, 3, 4, 1, 1, 6, 6, 1, 1, 6, 5])
    new, rep = end_of_afph(p, dice)
    assert rep.title == "End of AFPh fire upkeep, Turn 3.1 AFPh"
    assert [(e.rule, e.text, e.location, e.kind, e.roll.outcome if e.roll else None) for e in rep.events] == [
        ("B25.151", "Flame in C4 becomes a Blaze", "C4", "blaze", "Blaze"),
        ("B25.151", "Flame in E3 stays a Flame", "E3", "no-change", "no change"),
        ("B25.151", "Flame in F5 becomes a Blaze", "F5", "blaze", "Blaze"),
        ("B25.151", "Flame in G6 stays a Flame", "G6", "no-change", "no change"),
        ("G5", "the hut in F5 collapses: its Flame became a Blaze", "F5", "hut-collapse", None),
        ("B25.62", "Flame placed in B3", "B3", "flame", "Flame"),
        ("B25.6", "no spread to D3", "D3", "no-spread", "no spread"),
        ("B25.62", "Flame placed in G6", "G6", "flame", "Flame"),
    ]
    assert [purpose for purpose, _ in dice.log] == [
        "Flame to Blaze C4 (B25.151)", "Flame to Blaze E3 (B25.151)", "Flame to Blaze F5 (B25.151)",
        "Flame to Blaze G6 (B25.151)", "Spreading Fire B3 (B25.6)", "Spreading Fire D3 (B25.6)",
        "Spreading Fire G6 (B25.6)"]
    assert sorted((f.location.name, f.kind.value, f.since) for f in new.fires) == [
        ("B3", "flame", 5), ("C3", "blaze", 1), ("C4", "blaze", 5), ("E3", "flame", 1), ("F5", "blaze", 5),
        ("G6", "flame", 1), ("G6", "flame", 5)]
    assert [(sc.describe(p)) for sc in pending_spreads(p).values()] == [
        "B3 from Blaze in C3: Spreading Fire to B3 (Grain (in season), Spread # 6) from Blaze in C3 (B25.6): Final DR "
        "≥ 6; +1 to higher elevation (B25.61), -2 not directly attached (B25.62), +1 Dry EC (Spreading Fire) (B25.5); "
        "Original ≥ 6; chance 13/18",
        "C4 from Blaze in C3: Spreading Fire to C4 (Woods, Spread # 7) from Blaze in C3 (B25.6): Final DR ≥ 7; +1 Dry "
        "EC (Spreading Fire) (B25.5), +1 downwind flank of a Mild Breeze (B25.64); Original ≥ 5; "
        "chance 5/6",
        "D3 from Blaze in C3: Spreading Fire to D3 (Brush, Spread # 6) from Blaze in C3 (B25.6): Final DR ≥ 6; -2 not "
        "directly attached (B25.62), +1 Dry EC (Spreading Fire) (B25.5), +2 downwind in a Mild Breeze "
        "(B25.64); Original ≥ 5; chance 5/6",
        "G6 from Burning Wreck in G6: Spreading Fire to G6 (Brush, Spread # 6) from Burning Wreck in G6 (B25.6): Final "
        "DR ≥ 6; +1 Dry EC (Spreading Fire) (B25.5); Original ≥ 5; chance 5/6",
    ]
    assert [(r.kind, r.location.name, str(r.chance), str(r.extinguish_chance)) for r in
            pending_rolls(p)][:4] == [
        ("blaze", "C4", "13/18", "0"), ("blaze", "E3", "5/12", "0"), ("blaze", "F5", "13/18", "0"),
        ("blaze", "G6", "5/6", "0")]
    blaze_descriptions = [r.check.describe() for r in pending_rolls(p)[:2]
                          if r.check]
    assert blaze_descriptions == [
        "Flame to Blaze in C4 (Woods, Spread # 7) (B25.151): Final DR ≥ 7; +1 Dry EC (Flame to Blaze) (B25.5); "
        "Original ≥ 6; chance 13/18",
        "Flame to Blaze in E3 (Bamboo, Spread # 10) (B25.151): Final DR ≥ 10; +2 Dry EC ×2 in Bamboo (Flame to Blaze) "
        "(B25.5); Original ≥ 8; chance 5/12"]


def test_heavy_winds_spreads_word_for_word() -> None:
    from asl_vassal_bridge.core import Direction, pending_spreads, spread_fire

    from .builders import heavy

    hexes, hut = _afph_scene()
    p = pos(hexes, [hut], fires=[blaze("C3")], env=heavy(4),
            wrecks=[Wreck(L("G6"), since=1), Wreck(L("G7"), since=1, bypass=Direction(5))])
    s = pending_spreads(p)
    assert [(sc.describe(p), sc.by_wreck) for sc in s.values()] == [
        ("B3: automatic Flame from Blaze in C3 (Heavy Winds, downwind to 4, B25.63)", False),
        ("C4: automatic Flame from Blaze in C3 (Heavy Winds, downwind to 4, B25.63)", False),
        ("D3: automatic Flame from Blaze in C3 (Heavy Winds, downwind to 4, B25.63)", False),
        ("G6: automatic Flame from Burning Wreck in G6 (Heavy Winds: a Wreck Blaze fires its own Location, B25.63)",
         True),
        ("G7: automatic Flame from Burning Wreck in G7 (Heavy Winds: a Wreck Blaze fires its own Location, B25.63)",
         True),
    ]
    new, rep = spread_fire(p, ScriptedDice([]))
    assert rep.title == "Spreading Fire (B25.6)"
    assert [(e.rule, e.text, e.location, e.kind) for e in rep.events][:1] == [
        ("B25.63", "Flame placed in B3: Heavy Winds, downwind to 4, B25.63", "B3", "flame")]
    assert len(new.flames()) == 5


def test_gusts_at_the_end_of_the_afph_word_for_word() -> None:
    from asl_vassal_bridge.core import end_of_afph, pending_rolls
    from asl_vassal_bridge.core.values import replace

    from .builders import mild

    hexes, hut = _afph_scene()
    p = pos(hexes, [hut], fires=[blaze("C3", kindled_by="German")], wrecks=[Wreck(L("G6"), since=1)],
            env=replace(mild(4), gusts=True))
    placed = [
        ("B25.6", "no spread to B3", "no-spread"),
        ("B25.651", "Flame placed in C4: Gusts to 4, B25.651", "flame"),
        ("B25.651", "Flame placed in C5: Gusts: the Blaze in C3 spreads two hexes, B25.651", "flame"),
        ("B25.6", "no spread to D3", "no-spread"),
        ("B25.651", "Flame placed in G6: Gusts: a Wreck Blaze fires its own Location, B25.651", "flame"),
        ("B25.651", "Flame placed in G7: Gusts: the Burning Wreck in G6 spreads one hex, B25.651", "flame"),
    ]
    selection = ("B25.651", "Random Selection among 2 eligible fires: C3 1, G6 1", "selection")
    dice = ScriptedDice([1] * 6)
    new, rep = end_of_afph(p, dice)
    assert [(e.rule, e.text, e.kind) for e in rep.events] == [selection, *placed]
    assert [purpose for purpose, _ in dice.log] == [
        *["Gusts two-hex spread (B25.651): Random Selection"] * 2, "Spreading Fire B3 (B25.6)",
        "Spreading Fire D3 (B25.6)"]
    assert {(f.location.name, f.kindled_by) for f in new.flames()} == {
        ("C4", "German"), ("C5", "German"), ("G6", None), ("G7", None)}
    assert [(r.kind, r.location.name, str(r.chance), r.reason, r.source.name if r.source else None, r.automatic)
            for r in pending_rolls(p)] == [
        ("spread", "B3", "13/18", "", "C3", False),
        ("spread", "C4", "1", "Gusts to 4, B25.651", "C3", True),
        ("spread", "D3", "7/12", "", "C3", False),
        ("spread", "G6", "1", "Gusts: a Wreck Blaze fires its own Location, B25.651", "G6", True),
        ("gust", "C5", "7/12", "Gusts: Random Selection among 2, the Blaze spreads two hexes", "C3", False),
        ("gust", "G7", "7/12", "Gusts: Random Selection among 2, the Burning Wreck spreads one hex", "G6", False),
    ]
    calm = replace(p, environment=replace(p.environment, wind=Environment().wind))
    dice = ScriptedDice([4, *[1] * 6])
    _, rep = end_of_afph(calm, dice)
    assert [(e.rule, e.text, e.kind) for e in rep.events] == [
        ("B25.651", "No Wind: the Gusts blow to 4 (dr)", "wind"), selection, *placed]
    assert dice.log[0][0] == "Gust direction (B25.651)"
    calm_rolls = pending_rolls(calm)  # the direction is not known yet: no Gusts listed
    # The direction is a dr not rolled yet: each Location's chance folds the six directions in (B25.651).
    folded = "Gusts with No Wind, the direction dr folded in: "
    assert [(r.kind, r.location.name, str(r.chance), r.reason, r.automatic) for r in calm_rolls] == [
        ("spread", "B3", "47/72", folded + "automatic in 1 of 6 directions, else its Spreading Fire DR (7/12)", False),
        ("spread", "C4", "47/72", folded + "automatic in 1 of 6 directions, else its Spreading Fire DR (7/12)", False),
        ("spread", "C5", "7/72", folded + "two-hex spread candidate in 1 of 6", False),  # 1/6 × 7/12 (two candidates)
        ("spread", "D3", "37/72", folded + "automatic in 1 of 6 directions, else its Spreading Fire DR (5/12)", False),
        ("spread", "F5", "1/6", folded + "two-hex spread candidate in 1 of 6", False),  # the wreck alone: no roll
        ("spread", "G6", "1", folded + "automatic in 6 of 6 directions", True),
        ("spread", "G7", "7/72", folded + "two-hex spread candidate in 1 of 6", False),
    ]


def test_b24_7_the_roll_and_its_purpose_are_reported() -> None:
    p = _woods(fires=(flame("C3"), flame("C3")))
    for faces, outcome in (((1, 1), "cleared"), ((2, 2), "Hampered"), ((5, 5), "no effect")):
        dice = ScriptedDice(list(faces))
        _, rep = clearance_attempt(p, L("C3"), dice, squads=1, flame=2)
        ev = rep.events[0]
        assert ev.roll is not None and ev.roll.roll == Roll(*faces) and ev.roll.outcome == outcome
        assert "(Flame 2 of 2)" in ev.text
        assert dice.log == [("Clearance C3 (B24.7)", Roll(*faces))]
    new, _ = clearance_attempt(_woods(clock=Clock(3, 1, Phase.RPH)), L("C3"), ScriptedDice([1, 1]), squads=1,
                               check_phase=False)
    assert new.flames() == []


def test_b25_66_collapse_details_what_stays_and_what_goes() -> None:
    from asl_vassal_bridge.core import HexInfo
    from asl_vassal_bridge.core.wind import collapse

    hexes = grid("A-E", "1-5")
    b = building(hexes, "b", Material.WOODEN, ["C3"], BuildingKind.TWO_STORY)
    hexes[L("C3").hex] = replace(hexes[L("C3").hex], feature="village", road=True, stairwell=True)
    units = (Unit("g", "4-6-7", "German", L("C3")), Unit("u", "8-1", "German", L("C3.1")))
    p = pos(hexes, [b], [blaze("C3", since=2)], wrecks=[Wreck(L("C3"), name="in"), Wreck(L("A1"), name="out")])
    new, rep = collapse(p.with_(units=units), ScriptedDice([]))
    assert new.map.hexes[L("C3").hex] == HexInfo(Terrain.WOODEN_RUBBLE, 0, None, False, "village", True)
    assert [w.name for w in new.wrecks] == ["out"] and [u.id for u in new.units] == ["g"]
    assert rep.title == "Collapse (B25.66)"
    assert rep.events[0].text.endswith("; units in the collapsed Locations are taken off the position (by hand, "
                                       "B24.12): 8-1 (German)")
    tall = grid("A-E", "1-5")
    m = building(tall, "m", Material.STONE, ["C3"], BuildingKind.MULTI_STORY, levels=3)
    q = pos(tall, [m], [blaze("C3.2"), blaze("C3.3")])
    new, rep = collapse(q, ScriptedDice([4, 4]))  # a tie in one hex: the lower Location takes the other with it
    assert "C3.1 and below stand" in rep.events[1].text and rep.events[1].location == "C3.2"
    assert new.map.locations(L("C3").hex) == (L("C3"), L("C3.1")) and new.fires == ()


def test_b25_65_every_rally_phase_path_titles_its_report_and_ends_the_gusts() -> None:
    from asl_vassal_bridge.core import Direction, Wind, WindForce
    from asl_vassal_bridge.core.wind import rally_phase

    p = pos(grid("A-E", "1-5"), env=Environment(gusts=True))
    for faces in ([1, 1, 5, 2], [3, 4], [6, 6]):
        new, rep = rally_phase(p, ScriptedDice(faces))
        assert rep.title == "Rally Phase wind, Turn 3.1 AFPh"
        assert new.environment.gusts is (faces == [6, 6])
    new, _ = rally_phase(p, ScriptedDice([1, 1, 5, 2]))  # from No Wind the force rises: a direction is rolled
    assert new.environment.wind == Wind(WindForce.MILD_BREEZE, Direction(2))


def test_b25_651_a_wreck_burning_since_this_player_turn_is_no_gust_candidate() -> None:
    from asl_vassal_bridge.core import Direction
    from asl_vassal_bridge.core.wind import gust_candidates

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BRUSH, ["C4", "D4"])
    p = pos(hexes, wrecks=[Wreck(L("C3"), since=NOW.player_turn), Wreck(L("D3"), since=1)])
    assert gust_candidates(p, Direction(4)) == [("Burning Wreck", L("D3"), L("D4"))]


def test_fire_start_details_bamboo_mol_in_kindling_moderate_mol_and_dr_checks() -> None:
    from asl_vassal_bridge.core import Check, kindling_attempt, kindling_check
    from asl_vassal_bridge.core.firestarts import ft_fire_check, mol_flames, resolve_fire_start

    hexes = grid("A-E", "1-5")
    put(hexes, Terrain.BAMBOO, ["C3"])
    put(hexes, Terrain.WOODS, ["C4"])
    dry = pos(hexes, env=Environment(EC.DRY), clock=Clock(3, 1, Phase.PFPH))
    assert [(d.value, d.reason, d.rule) for d in kindling_check(dry, L("C3"), UnitKind.LEADER).drms] == [
        (-2, "SMC Kindling", "B25.11"), (2, "Dry EC ×2 (Kindling)", "B25.5")]
    assert [(d.value, d.reason) for d in ft_fire_check(dry, L("C3"), "KIA").drms] == [  # type: ignore[union-attr]
        (2, "Dry EC ×2 (FT fire start)")]
    _, rep = kindling_attempt(dry, L("C4"), UnitKind.SQUAD, ScriptedDice([3, 4]), side="German", leader_drm=0,
                              has_mol=True)
    assert rep.events[0].roll is not None and [d.rule for d in rep.events[0].roll.check.drms] == ["A22.613", "B25.5"]
    _, rep = kindling_attempt(dry, L("C4"), UnitKind.SQUAD, ScriptedDice([3, 4]), side="German", leader_drm=0)
    assert rep.events[0].roll is not None and [d.rule for d in rep.events[0].roll.check.drms] == ["B25.5"]
    with pytest.raises(IllegalAction):
        kindling_attempt(dry.with_(clock=Clock(3, 1, Phase.MPH)), L("C4"), UnitKind.SQUAD, ScriptedDice([3, 4]),
                         side="German", leader_drm=0, check_phase=True)
    moderate = pos(hexes)
    m = mol_flames(moderate, L("A1"), L("C4"), Roll(1, 1))
    assert [e.text for e in m.events] == ["Flame in C4 (MOL colored dr 1)"]
    wet = pos(hexes, env=Environment(EC.WET))
    m = mol_flames(wet, L("C4"), L("A1"), Roll(6, 6))
    assert [e.text for e in m.events][1:] == ["white dr 6 -2 Wet EC (B25.5) = 4 ≥ 1", "Flame in C4 (MOL colored dr 6)"]
    dice = ScriptedDice([5, 1])
    new, rep = resolve_fire_start(moderate, Check("one die", "R1", needed=3, dice=1), L("C4"), dice)
    assert dice.log == [("one die (R1)", Roll(5))] and new.flames_at(L("C4"))
    ev = rep.events[0]
    assert ev.roll is not None and ev.roll.roll == Roll(5) and ev.roll.check.name == "one die"
    dice = ScriptedDice([1])
    same, rep = resolve_fire_start(moderate, Check("one die", "R1", needed=3, dice=1), L("C4"), dice)
    ev = rep.events[0]
    assert same == moderate and rep.title == "one die"
    assert (ev.rule, ev.text, ev.location, ev.kind) == ("R1", "no Flame in C4", "C4", "no-flame")
    assert ev.roll is not None and (ev.roll.roll, ev.roll.outcome, ev.roll.check.rule) == (Roll(1), "no Flame", "R1")


def test_fire_and_victory_joins_whole_chains_of_fires() -> None:
    from asl_vassal_bridge.core.victory import fire_control

    names = [f"{c}{r}" for c in "ABCD" for r in range(1, 5)]
    hexes = grid("A-D", "1-4")
    put(hexes, Terrain.WOODS, names)
    for chain in (["A3", "B1", "A2"], ["C3", "D1", "C2", "D3", "A3", "B2", "B3", "A4"]):
        fires = [blaze(n) for n in chain]
        fires[0] = blaze(chain[0], kindled_by="German")
        fires[1] = blaze(chain[1], kindled_by="Russian")
        notes = fire_control(pos(hexes, fires=fires))
        assert [n.joined for n in notes] == [True, True], chain


# --- issue 21: huts, HE, WP, MOL vs a Blaze, hero/berserk throwers, Immobilized, Guns, heroes clearing ---------


def _ev(rep: Report) -> list[tuple[str, str, str | None, str]]:
    return [(e.rule, e.text, e.location, e.kind) for e in rep.events]


def _hamlet(env: Environment = Environment(), *, collapsed: bool = False):  # type: ignore[no-untyped-def]
    from .test_firestarts import hamlet

    return hamlet(env, collapsed=collapsed)


RAIN = Environment(EC.WET, rain_has_fallen=True)


def test_no_flame_reasons_word_for_word() -> None:
    from asl_vassal_bridge.core.firestarts import no_flame_reason

    assert no_flame_reason(_hamlet(), L("A1")) == "Open Ground cannot burn (B25.1)"
    assert no_flame_reason(_hamlet().with_(fires=(blaze("B3"),)), L("B3")) == "a Blaze already burns there (B25.15)"
    assert no_flame_reason(_hamlet(RAIN, collapsed=True), L("B3")) == ("no Flame in a Collapsed hut once Rain has "
                                                                       "fallen (huts)")
    assert no_flame_reason(_hamlet(RAIN), L("B3")) is None and no_flame_reason(_hamlet(collapsed=True), L("B3")) is None


def test_huts_fire_starts_word_for_word() -> None:
    from asl_vassal_bridge.core.firestarts import HutAttack, hut_fire_start

    h = _hamlet()
    _, rep = hut_fire_start(h, L("B3"), HutAttack.FT, original=Roll(5, 5), ft_x_number=10)
    assert rep.title == "Hut fire start in B3 (FT)"
    assert _ev(rep) == [("huts", "FT Original Effects DR 10 ≥ X# 10: no Flame in B3", "B3", "no-flame")]
    _, rep = hut_fire_start(h, L("B3"), HutAttack.FT, original=Roll(4, 5), ft_x_number=10)
    assert rep.title == "Hut fire start in B3 (FT)"
    assert _ev(rep) == [("huts", "FT Original Effects DR 9 < X# 10: Flame in the hut in B3", "B3", "flame")]
    _, rep = hut_fire_start(h, L("B3"), HutAttack.SW_FIRED_IN_HUT)
    assert _ev(rep) == [("huts", "an ordnance SW fired in the hut: Flame in the hut in B3", "B3", "flame")]
    _, rep = hut_fire_start(_hamlet(collapsed=True), L("B3"), HutAttack.SW_FIRED_IN_HUT)
    assert _ev(rep) == [("huts", "an ordnance SW fired from a Collapsed hut: no Flame in B3", "B3", "no-flame")]
    _, rep = hut_fire_start(h, L("B3"), HutAttack.HE_EQUIVALENCY, original=Roll(1, 1))
    assert _ev(rep)[0][1] == "HE Equivalency never sets a hut on fire: no Flame in B3"
    _, rep = hut_fire_start(h, L("B3"), HutAttack.IFE, original=Roll(2, 1))
    assert _ev(rep)[0][1] == "Original colored dr 2 (not 1): no Flame in B3"
    _, rep = hut_fire_start(h, L("B3"), HutAttack.IFE, original=Roll(1, 2))
    assert _ev(rep)[0][1] == "Original colored dr 1: Flame in the hut in B3"
    new, rep = hut_fire_start(h.with_(fires=(blaze("B3"),)), L("B3"), HutAttack.MG, original=Roll(1, 2))
    assert _ev(rep)[0][1] == "Original colored dr 1, but a Blaze already burns there (B25.15): no Flame in B3"
    assert not new.flames()
    _, rep = hut_fire_start(_hamlet(RAIN, collapsed=True), L("B3"), HutAttack.MG, original=Roll(1, 2))
    assert _ev(rep)[0][1] == ("Original colored dr 1, but no Flame in a Collapsed hut once Rain has fallen (huts): "
                              "no Flame in B3")
    _, rep = hut_fire_start(_hamlet(RAIN, collapsed=True), L("B3"), HutAttack.MG, original=Roll(3, 2))
    assert _ev(rep)[0][1] == ("Original colored dr 3 (not 1); no Flame in a Collapsed hut once Rain has fallen "
                              "(huts): no Flame in B3")
    _, rep = hut_fire_start(_hamlet(RAIN), L("B3"), HutAttack.MG, original=Roll(3, 2))  # standing: no Rain note
    assert _ev(rep)[0][1] == "Original colored dr 3 (not 1): no Flame in B3"
    for kw, msg in (({"original": Roll(1, 2)}, "a FT vs a hut needs its Original Effects DR and the FT's X# (huts)"),
                    ({"original": Roll(1), "ft_x_number": 10}, "a FT vs a hut needs its Original Effects DR and the "
                                                                "FT's X# (huts)"),
                    ({"ft_x_number": 10}, "a FT vs a hut needs its Original Effects DR and the FT's X# (huts)")):
        with pytest.raises(IllegalAction) as e:
            hut_fire_start(h, L("B3"), HutAttack.FT, **kw)  # type: ignore[arg-type]
        assert str(e.value) == msg
    with pytest.raises(IllegalAction) as e:
        hut_fire_start(h, L("B3"), HutAttack.DC)
    assert str(e.value) == "DC vs a hut needs the attack's Original DR (its colored dr, huts)"
    with pytest.raises(IllegalAction) as e:
        hut_fire_start(h, L("B2"), HutAttack.DC, original=Roll(1, 1))
    assert str(e.value) == "B2 holds Woods, not a hut (huts)"


@pytest.mark.parametrize(("kw", "title", "events"), [
    ({"dc": True}, "DC fire start in B3", [("huts", "Original colored dr 1: Flame in the hut in B3", "B3", "flame")]),
    ({"he_equivalency": True}, "HE fire start in B3",
     [("huts", "HE Equivalency never sets a hut on fire: no Flame in B3", "B3", "no-flame"),
      ("B25.13", "no HE fire-start DR in B3: no Original KIA", "B3", "info")]),
    ({"collateral": True}, "HE fire start in B3",
     [("huts", "Collateral/Residual FP never sets a hut on fire: no Flame in B3", "B3", "no-flame"),
      ("B25.13", "no HE fire-start DR in B3: a Collateral Attack", "B3", "info")]),
    ({"vehicle_target_type": True}, "HE fire start in B3",  # vs a vehicle: no attack vs the hut (B25.13)
     [("B25.13", "no HE fire-start DR in B3: the Vehicle Target Type", "B3", "info")]),
])
def test_b25_13_he_fire_start_in_a_hut_word_for_word(kw: dict[str, bool], title: str,
                                                      events: list[tuple[str, str, str, str]]) -> None:
    from asl_vassal_bridge.core.firestarts import he_fire_start

    _, rep = he_fire_start(_hamlet(), L("B3"), ScriptedDice([]), original_kia=False, attack_dr=Roll(1, 1), **kw)
    assert rep.title == title and _ev(rep) == events


def test_b25_13_he_fire_start_word_for_word() -> None:
    from asl_vassal_bridge.core.firestarts import he_fire_start

    h = _hamlet(Environment(EC.DRY))
    for kw, why in (({"created_rubble": True}, "the attack made rubble (rubble takes precedence)"),
                    ({"collateral": True}, "a Collateral Attack"),
                    ({"vehicle_target_type": True}, "the Vehicle Target Type")):
        _, rep = he_fire_start(h, L("B2"), ScriptedDice([]), original_kia=True, **kw)
        assert rep.title == "HE fire start in B2" and _ev(rep) == [("B25.13", f"no HE fire-start DR in B2: {why}",
                                                                    "B2", "info")]
    _, rep = he_fire_start(h, L("A1"), ScriptedDice([]), original_kia=True)
    assert _ev(rep) == [("B25.13", "no HE fire-start DR in A1: Open Ground cannot burn (B25.1)", "A1", "info")]
    # a hut with colored dr 3 and an Original KIA: the hut rule says no, then the B25.13 DR (+1 Dry: huts take EC)
    new, rep = he_fire_start(h, L("B3"), ScriptedDice([2, 3]), original_kia=True, attack_dr=Roll(3, 4), dc=True)
    assert rep.title == "HE fire start in B3 (Hut, Kindle # 6)"
    assert rep.events[0].text == "Original colored dr 3 (not 1): no Flame in B3"
    assert rep.rolls()[0].final == 6 and new.flames_at(L("B3"))
    assert [(d.value, d.rule) for d in rep.rolls()[0].check.drms] == [(1, "B25.5")]


def test_a24_32_wp_fire_start_word_for_word() -> None:
    from asl_vassal_bridge.core.firestarts import wp_fire_start

    p = _hamlet().with_(clock=Clock(3, 1, Phase.MPH))
    _, rep = wp_fire_start(p, L("B2"), ScriptedDice([]))
    assert rep.title == "WP fire start in B2"
    assert _ev(rep) == [("A24.32", "no WP fire DR in B2: EC are Moderate, not Dry or Very Dry", "B2", "info")]
    _, rep = wp_fire_start(p, L("A1"), ScriptedDice([]))
    assert _ev(rep) == [("A24.32", "no WP fire DR in A1: Open Ground cannot burn (B25.1)", "A1", "info")]
    with pytest.raises(IllegalAction) as e:
        wp_fire_start(p.with_(clock=Clock(3, 1, Phase.DFPH)), L("B3"), ScriptedDice([]))
    assert str(e.value) == "the WP fire DR is made in the placing player's MPh, not the DFPh (A24.32)"
    new, _ = wp_fire_start(p.with_(clock=Clock(3, 1, Phase.DFPH)), L("B3"), ScriptedDice([6, 6]), check_phase=False)
    assert new.flames_at(L("B3"))


def test_a22_6111_mol_flames_vs_a_blaze_rain_and_a_thrower_who_never_breaks_word_for_word() -> None:
    from asl_vassal_bridge.core.firestarts import mol_flames

    h = _hamlet().with_(fires=(blaze("B3"),))
    mf = mol_flames(h, L("B2"), L("B3"), Roll(1, 4))
    assert mf.flames == () and [(e.rule, e.text, e.location) for e in mf.events] == [
        ("B25.15", "no Flame in B3: a Blaze already burns there (a Blaze removes the Location's Flames)", "B3")]
    mf = mol_flames(_hamlet(RAIN, collapsed=True), L("B2"), L("B3"), Roll(1, 4))
    assert mf.flames == () and [(e.rule, e.text, e.location) for e in mf.events] == [
        ("huts", "no Flame in B3: no Flame in a Collapsed hut once Rain has fallen (huts)", "B3")]
    for who, rule in (("hero", "A22.6111, A15.2"), ("berserk unit", "A22.6111, A15.42"), ("saint", "A22.6111, A15")):
        mf = mol_flames(_hamlet(), L("B2"), L("B3"), Roll(6, 4), never_breaks=who)
        assert not mf.thrower_breaks and mf.flames == (L("B2"),)
        e = mf.events[0]
        assert (e.rule, e.text, e.location, e.kind) == (
            rule, f"colored dr 6: the MOL thrower in B2 is a {who}, who never breaks; his FP and MOL are voided all "
            "the same", "B2", "thrower-voided")


def test_b25_11_kindling_refusals_of_issue_21_word_for_word() -> None:
    from asl_vassal_bridge.core import kindling_attempt, kindling_check

    p = _village(EC.DRY).with_(clock=Clock(3, 1, Phase.PFPH))
    with pytest.raises(IllegalAction) as e:
        kindling_attempt(p, L("X8"), UnitKind.SQUAD, ScriptedDice([6, 6]), side="Finns", leader_drm=0)
    assert str(e.value) == "the kindling side 'Finns' is not one of the position's sides ['German', 'Russian']"
    with pytest.raises(IllegalAction, match="unpinned"):  # the unit's state reaches the check
        kindling_attempt(p, L("X8"), UnitKind.SQUAD, ScriptedDice([6, 6]), side="German", leader_drm=0, pinned=True)
    rained = _hamlet(RAIN, collapsed=True).with_(clock=Clock(3, 1, Phase.PFPH))
    with pytest.raises(IllegalAction) as e:
        kindling_check(rained, L("B3"), UnitKind.LEADER)
    assert str(e.value) == "B3: no Flame in a Collapsed hut once Rain has fallen (huts)"
    burning = rained.with_(fires=(blaze("B3"),))
    assert kindling_check(burning, L("B3"), UnitKind.LEADER).needed == 6  # the Blaze, not the Rain, is the news


def test_b25_4_immobilized_vehicles_and_guns_word_for_word() -> None:
    from asl_vassal_bridge.core.exits import blaze_fates

    hexes = grid("A-C", "1-3")
    put(hexes, Terrain.WOODS, ["B2"])
    units = (Unit("t", "PzIV", "German", L("B2"), UnitKind.VEHICLE, immobilized=True),
             Unit("g", "37L", "Russian", L("B2"), UnitKind.GUN))
    p = pos(hexes, fires=(blaze("B2"),)).with_(units=units)
    assert [(f.unit.id, f.deadline, f.options, f.eliminated_now) for f in blaze_fates(p)] == [
        ("t", "its next friendly MPh (German)", "Immobilized: it cannot leave the Blaze and is eliminated in its "
         "next friendly MPh", False),  # B25.4: not at once
        ("g", "its side's next MPh (Russian)", "be pushed or towed out of the Blaze, or be eliminated (B25.4 names "
         "no Gun; read as a unit that moves only in the MPh)", False)]


def test_a15_24_heroes_clearing_word_for_word() -> None:
    from asl_vassal_bridge.core.clearance import clearance_attempt, clearance_check

    hexes = grid("A-C", "1-3")
    put(hexes, Terrain.WOODS, ["B2"])
    p = pos(hexes, fires=(flame("B2"),), clock=Clock(3, 1, Phase.MPH))
    assert [(d.value, d.reason, d.rule) for d in clearance_check(p, L("B2"), heroes=2).drms] == [
        (-2, "heroic DRM of 2 heroes", "A15.24")]
    for bad in ({"squads": -1, "heroes": 2}, {"half_squads": -1, "heroes": 2}, {"dozers": -1, "heroes": 2},
                {"heroes": -1, "squads": 2}):
        with pytest.raises(IllegalAction) as e:
            clearance_check(p, L("B2"), **bad)
        assert str(e.value) == "Clearance counts units: squads, HS/crews, Dozers and heroes are 0 or more"
    _, rep = clearance_attempt(p, L("B2"), ScriptedDice([1, 2]), heroes=1)  # 3 − 1 = 2: cleared
    assert rep.rolls()[0].final == 2 and rep.events[0].kind == "cleared"
