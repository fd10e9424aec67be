"""When fire smoke drifts (Fire cheat sheet: in a Mild Breeze, at the start of the game's first RPh and of every
AFPh; a wind change removes the drifting counters at once) and what a Gust does to it (B25.651: Dispersed SMOKE
is eliminated, a Blaze's own smoke in its hex is not)."""

from __future__ import annotations

from asl_vassal_bridge.core import Clock, Phase, ScriptedDice, Terrain, Wind
from asl_vassal_bridge.core.fire import end_of_afph
from asl_vassal_bridge.core.smoke import drifting, fire_smoke
from asl_vassal_bridge.core.values import replace
from asl_vassal_bridge.core.wind import rally_phase
from asl_vassal_bridge.posfile import dumps, loads

from .builders import blaze, grid, mild, pos, put


def burning(phase: Phase = Phase.RPH):  # type: ignore[no-untyped-def]
    hexes = grid("A-I", "1-9")
    put(hexes, Terrain.WOODS, ["E5"])
    return pos(hexes, fires=[blaze("E5")], env=mild(4), clock=Clock(3, 1, phase))


def drift(p) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.name for fs in fire_smoke(p) for h in fs.drift]


def test_smoke_drifts_in_a_mild_breeze_from_the_games_first_rph() -> None:
    first = burning().with_(clock=Clock(1, 1, Phase.RPH))
    assert drift(first) == ["E6", "E7", "E8"]  # as many Dispersed Smoke counters as its +3 Hindrance


def test_a_wind_change_removes_the_drift_until_the_start_of_the_afph() -> None:
    p = burning()
    changed, rep = rally_phase(p, ScriptedDice([1, 1, 1]))  # DR 2, dr 1: one hexside clockwise, 4 → 5
    assert changed.environment.drift_cleared and "drifting smoke counters are removed" in rep.events[1].text
    assert drift(replace(changed, clock=Clock(3, 1, Phase.PFPH))) == []
    assert fire_smoke(replace(changed, clock=Clock(3, 1, Phase.PFPH)))[0].height == 2  # its own smoke stays
    at_afph = replace(changed, clock=Clock(3, 1, Phase.AFPH))
    assert drift(at_afph) == ["D5", "C6", "B6"] and drifting(at_afph)  # now to 5, lower left
    after, _ = end_of_afph(at_afph, ScriptedDice([]))
    assert not after.environment.drift_cleared
    # No change, no removal.
    same, _ = rally_phase(p, ScriptedDice([3, 4]))
    assert not same.environment.drift_cleared and drift(replace(same, clock=Clock(3, 1, Phase.PFPH))) == drift(p)


def test_a_rising_wind_drifts_first_at_the_start_of_the_afph() -> None:
    calm = burning().with_(environment=replace(mild(4), wind=Wind()))
    risen, _ = rally_phase(calm, ScriptedDice([1, 1, 5, 2]))  # DR 2, dr 5: force up; direction dr 2
    assert str(risen.environment.wind) == "Mild Breeze to 2"
    assert drift(replace(risen, clock=Clock(3, 1, Phase.MPH))) == []
    assert drift(replace(risen, clock=Clock(3, 1, Phase.AFPH))) == ["F4", "G4", "H3"]  # to 2, upper right


def test_b25_651_a_gust_eliminates_the_drift_not_the_blazes_own_smoke() -> None:
    gusting, rep = rally_phase(burning(), ScriptedDice([6, 6]))
    assert gusting.environment.gusts
    assert ("B25.651", "smoke") in [(e.rule, e.kind) for e in rep.events]
    mph = replace(gusting, clock=Clock(3, 1, Phase.MPH))
    assert drift(mph) == [] and [(s.hindrance, s.height) for s in fire_smoke(mph)] == [(3, 2)]
    assert drift(replace(gusting, clock=Clock(3, 1, Phase.AFPH))) == ["E6", "E7", "E8"]


def test_drift_cleared_round_trips_in_a_position_file() -> None:
    p = burning().with_(environment=replace(mild(4), drift_cleared=True))
    again = loads(dumps(p))
    assert again.environment.drift_cleared and "drift_cleared = true" in dumps(p)


def test_b25_651_a_gust_disperses_smoke_counters_and_eliminates_the_dispersed_ones() -> None:
    from asl_vassal_bridge.core.hexes import Hex
    from asl_vassal_bridge.core.position import Location, Smoke

    b2, b3, e5 = (Location(Hex.parse(n)) for n in ("B2", "B3", "E5"))
    p = burning().with_(smoke=(Smoke(b2), Smoke(b3, wp=True, dispersed=True), Smoke(e5, wp=True)))
    gusting, rep = rally_phase(p, ScriptedDice([6, 6]))
    # every counter, in a Blaze hex too: only the Blaze's own smoke (no counter, B25.2) is spared
    assert gusting.smoke == (Smoke(b2, dispersed=True), Smoke(e5, wp=True, dispersed=True))
    assert [e.text for e in rep.events if e.rule == "B25.651" and e.kind == "smoke"][1:] == [
        "SMOKE in B2 dispersed", "Dispersed WP in B3 eliminated", "WP in E5 dispersed"]
    calm, _ = rally_phase(p, ScriptedDice([3, 4]))  # no Gust: SMOKE as it was
    assert calm.smoke == p.smoke


def test_smoke_counters_round_trip_in_a_position_file_and_a_bad_one_is_named() -> None:
    import pytest

    from asl_vassal_bridge.core.errors import BadInput
    from asl_vassal_bridge.core.hexes import Hex
    from asl_vassal_bridge.core.position import Location, Smoke

    p = burning().with_(smoke=(Smoke(Location(Hex.parse("B2"))), Smoke(Location(Hex.parse("B3")), True, True)))
    text = dumps(p)
    assert 'at = "B3"' in text and "dispersed = true" in text
    assert loads(text).smoke == p.smoke
    with pytest.raises(BadInput, match=r"smoke\[0\]\.at"):
        loads(text.replace('at = "B2"', 'at = "Z99"', 1))
