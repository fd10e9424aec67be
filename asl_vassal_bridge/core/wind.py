"""The Rally Phase fire rules: Wind Change (B25.65), Gusts (B25.651) and Collapse (B25.66).

>>> from .dice import ScriptedDice
>>> from .position import GameMap, Position
>>> pos, report = rally_phase(Position(GameMap.from_hexes({})), ScriptedDice([3, 4]))
>>> report.events[0].text
'Wind Change DR 7: no change'
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TypeVar

from .dice import Dice, Roll
from .environment import Wind, WindForce
from .explain import Event, Report
from .hexes import Direction, Hex
from .position import HexInfo, Location, Position, Unit
from .smoke import gust_on_smoke
from .terrain import BuildingKind, Material, Terrain
from .values import replace, value

__all__ = [
    "WIND_CHANGE_TABLE",
    "apply_wind_change",
    "collapse",
    "collapse_candidates",
    "collapse_falls",
    "gust_candidates",
    "gust_direction",
    "gusts",
    "rally_phase",
    "random_selection",
    "selection_chance",
    "wind_change_odds",
]

T = TypeVar("T")

#: Wind Change dr (after a Wind Change DR of 2) → what changes (B25.65).
WIND_CHANGE_TABLE: dict[int, str] = {
    1: "direction one hexside clockwise",
    2: "direction two hexsides clockwise",
    3: "direction one hexside counter-clockwise",
    4: "direction two hexsides counter-clockwise",
    5: "force up one level",
    6: "force down one level",
}


@value
class WindChangeOdds:
    """Exact odds of the RPh Wind Change DR (B25.65, B25.651, B25.66)."""

    change: Fraction = Fraction(1, 36)
    gusts: Fraction = Fraction(1, 36)
    collapse: Fraction = Fraction(1, 36)


def wind_change_odds(pos: Position) -> WindChangeOdds:
    """Chances of a wind change (DR 2), Gusts (DR 12) and Collapse (Original 12, if any building Blaze exists)."""
    has_building_blaze = any(pos.map.is_building_location(f.location) for f in pos.blazes())
    return WindChangeOdds(collapse=Fraction(1, 36) if has_building_blaze else Fraction(0))


def random_selection(candidates: Sequence[T], dice: Dice, purpose: str) -> tuple[list[T], list[Roll]]:
    """Random Selection: one dr per candidate, the highest selected, ties all selected.

    A single candidate is selected without a roll.
    """
    if len(candidates) <= 1:
        return list(candidates), []
    rolls = [dice.dr(f"{purpose}: Random Selection") for _ in candidates]
    top = max(r.total for r in rolls)
    return [c for c, r in zip(candidates, rolls, strict=True) if r.total == top], rolls


def apply_wind_change(wind: Wind, dr: int, dice: Dice) -> tuple[Wind, str]:
    """The new wind after a Wind Change dr (B25.65); a new direction is rolled when wind rises from No Wind."""
    what = WIND_CHANGE_TABLE[dr]
    if dr <= 4:
        if wind.force is WindForce.NO_WIND or wind.direction is None:
            return wind, f"{what}: no effect with No Wind"
        steps = {1: 1, 2: 2, 3: -1, 4: -2}[dr]
        turned = wind.direction.clockwise(steps)
        return Wind(wind.force, turned), f"{what}: Wind Direction {int(wind.direction)} → {int(turned)}"
    if dr == 5:
        force = WindForce.MILD_BREEZE if wind.force is WindForce.HEAVY_WINDS else WindForce(wind.force + 1)
    else:
        force = WindForce.MILD_BREEZE if wind.force is WindForce.NO_WIND else WindForce(wind.force - 1)
    if force is WindForce.NO_WIND:
        return Wind(), f"{what}: {wind.force.label} → No Wind"
    direction = wind.direction
    extra = ""
    if direction is None:
        d = dice.dr("Wind Direction (B25.64)").total
        direction = Direction(d)
        extra = f", Wind Direction dr {d}"
    return Wind(force, direction), f"{what}: {wind.force.label} → {force.label}{extra}"


def _ground_flame_target(pos: Position, h: Hex) -> Location | None:
    if h not in pos.map.hexes:
        return None
    loc = Location(h)
    if pos.no_flame_reason(loc) is not None or pos.is_burning(loc):
        return None
    return loc


def gust_direction(pos: Position, dice: Dice) -> tuple[Direction, list[Event]]:
    """The direction the Gusts blow: the Wind Direction, or a dr with No Wind (B25.651)."""
    wind = pos.environment.wind
    if wind.direction is not None:
        return wind.direction, []
    gust = dice.dr("Gust direction (B25.651)").total
    return Direction(gust), [Event("B25.651", f"No Wind: the Gusts blow to {gust} (dr)", kind="wind")]


def selection_chance(candidates: int) -> Fraction:
    """Chance one of *candidates* is picked by Random Selection (its dr is the highest; ties all picked).

    >>> selection_chance(1), selection_chance(2)
    (Fraction(1, 1), Fraction(7, 12))
    """
    return Fraction(sum(v ** (candidates - 1) for v in range(1, 7)), 6 ** candidates)


def gust_candidates(pos: Position, direction: Direction) -> list[tuple[str, Location, Location]]:
    """The fires eligible for the Gusts' longer spread (B25.651), as (kind, source, target).

    A terrain Blaze whose hex two hexes downwind holds non-burning Burnable
    Terrain (its ground Location: a Flame spread two hexes appears at ground
    level); a Burning Wreck, one hex downwind.  Only fires that may spread
    this Player Turn count (B25.6).
    """
    now = pos.clock.player_turn
    out: list[tuple[str, Location, Location]] = []
    for f in sorted(pos.blazes(), key=lambda f: f.location):
        if f.since >= now:
            continue
        t = _ground_flame_target(pos, f.location.hex.neighbour(direction, 2))
        if t is not None:
            out.append(("Blaze", f.location, t))
    for w in pos.burning_wrecks():
        if w.since >= now:
            continue
        t = _ground_flame_target(pos, w.location.hex + direction)
        if t is not None:
            out.append(("Burning Wreck", w.location, t))
    return out


def gusts(pos: Position, dice: Dice, direction: Direction) -> tuple[dict[Location, tuple[str, Location]], Report]:
    """The Gusts' longer spread (B25.651), at the end of the AFPh: Random Selection among
    :func:`gust_candidates`; returns each chosen target with (kind, source).

    The one-hex Gust spreads are automatic spreads of the Spreading Fire
    step (:func:`.fire.pending_spreads`); these targets join them, each
    Location getting one spread (B25.6).
    """
    candidates = gust_candidates(pos, direction)
    chosen, rolls = random_selection(candidates, dice, "Gusts two-hex spread (B25.651)")
    events: list[Event] = []
    if rolls:
        shown = ", ".join(f"{pos.loc_name(c[1])} {r.total}" for c, r in zip(candidates, rolls, strict=True))
        events.append(Event("B25.651", f"Random Selection among {len(candidates)} eligible fires: {shown}",
                            kind="selection"))
    out: dict[Location, tuple[str, Location]] = {}
    for kind, src, target in chosen:
        out.setdefault(target, (kind, src))
    return out, Report("Gusts (B25.651)", tuple(events))


def collapse_candidates(pos: Position) -> list[Location]:
    """The Locations a Collapse chooses among by Random Selection (B25.66): every building Location with a
    Blaze, rooftops included (B23.86 checks a rooftop for rubble as a non-rooftop building Location); not
    a hut, which Collapsed (a Collapsed hut, not rubble) when its Flame became a Blaze (Fire cheat sheet,
    Huts; see docs/rules.md)."""
    m = pos.map
    out = []
    for f in pos.blazes():
        b = m.building(f.location.hex)
        if b is not None and b.kind is not BuildingKind.HUT:
            out.append(f.location)
    return sorted(out)


def collapse_falls(pos: Position, loc: Location) -> Location:
    """The Location that becomes rubble when *loc* is chosen for Collapse (B25.66, B23.86).

    A rooftop never becomes rubble: the Location beneath it does (the top floor, a Factory's ground
    level), which takes the rooftop with it, as B23.86 has an HE rubble check on a rooftop made
    beneath it.
    """
    if loc.rooftop:
        return Location(loc.hex, pos.map.top_level(loc.hex))
    return loc


def collapse(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """Collapse (B25.66): a building Location with a Blaze, picked by Random Selection, and every level
    above it collapse into burning rubble.

    Only those Locations go: their fires with them, and the hex keeps its
    lower levels (B25.66 names the Location and the levels above it).  When
    the ground level collapses the whole hex is burning rubble of its
    material; its Blaze burns on from the Player Turn it appeared (B25.6
    counts from then), not from the Collapse.  A rooftop never becomes
    rubble: a chosen rooftop brings down the Location beneath it, and a
    rooftop ceases to exist once a level beneath it is rubble (B23.86,
    :func:`collapse_falls`).  Where the rubble falls and what it does there
    (B24.12) is left to the players and said in the report.
    """
    m = pos.map
    candidates = collapse_candidates(pos)
    if not candidates:
        none = Event("B25.66", "no building Location holds a Blaze: nothing collapses")
        return pos, Report("Collapse (B25.66)", (none,))
    chosen, rolls = random_selection(candidates, dice, "Collapse (B25.66)")
    events: list[Event] = []
    if rolls:
        shown = ", ".join(f"{pos.loc_name(c)} {r.total}" for c, r in zip(candidates, rolls, strict=True))
        events.append(Event("B25.66", f"Random Selection among building Blazes: {shown}", kind="selection"))
    # Two chosen in one hex: the one whose fall is lowest takes the other with it (a floor before its rooftop).
    by_hex: dict[Hex, list[tuple[Location, Location]]] = {}
    for loc in chosen:
        by_hex.setdefault(loc.hex, []).append((collapse_falls(pos, loc), loc))
    new_pos = pos
    for loc, picked in sorted(min(falls) for falls in by_hex.values()):
        h = loc.hex
        b = m.building(h)
        assert b is not None
        info = new_pos.map.hexes[h]
        name = pos.loc_name(loc)
        via = ""
        if picked.rooftop:
            via = (f"the Blaze on {pos.loc_name(picked)} is chosen; a rooftop never becomes rubble, so the "
                   f"Location beneath it falls (B23.86): ")
        where = ("where its rubble falls and what it does there (B24.12) is resolved by hand: rubble falling "
                 "into Burnable Terrain places a Blaze there, into a Blaze it burns, and it puts out any Flame "
                 "(Fire cheat sheet)")
        if loc.level == 0 and not loc.rooftop:
            rubble = Terrain.WOODEN_RUBBLE if b.material is Material.WOODEN else Terrain.STONE_RUBBLE
            ground = new_pos.blaze_at(loc) or new_pos.blaze_at(picked)
            assert ground is not None
            # B23.743: a rubbled Factory hex is still part of the Factory (its feature names it).
            feature = b.id if b.kind is BuildingKind.FACTORY else info.feature
            new_map = new_pos.map.with_hex(h, HexInfo(rubble, info.elevation, None, False, feature, info.road))
            fires = tuple(f for f in new_pos.fires if f.location.hex != h)
            fires += (replace(ground, location=loc),)
            wrecks = tuple(w for w in new_pos.wrecks if w.location.hex != h)
            fallen = [u for u in new_pos.units if u.location.hex == h and u.location != loc]
            units = tuple(u for u in new_pos.units if u not in fallen)
            new_pos = replace(new_pos, map=new_map, fires=fires, wrecks=wrecks, units=units)
            events.append(Event("B25.66", f"{via}{name} and every level above it collapse: {m.hex_name(h)} is now "
                                f"burning {rubble.label}, its Blaze burning on; {where}{_fallen(fallen)}", name,
                                kind="collapse"))
            continue
        keep = loc.level - 1
        hex_name = m.hex_name(h)
        roof = new_pos.map.rooftop(h)
        nb = replace(b, hex_levels=((hex_name, keep), *((n, lv) for n, lv in b.hex_levels if n != hex_name)),
                     rooftops_gone=b.rooftops_gone | ({hex_name} if roof is not None else set()))
        gone = {x for x in new_pos.map.locations(h) if x >= loc or x.rooftop}
        new_map = new_pos.map.with_building(nb)
        lost = [f for f in new_pos.fires if f.location in gone]
        fires = tuple(f for f in new_pos.fires if f.location not in gone)
        fallen = [u for u in new_pos.units if u.location in gone]
        units = tuple(u for u in new_pos.units if u not in fallen)
        new_pos = replace(new_pos, map=new_map, fires=fires, units=units)
        what = f"{via}{name} and every level above it collapse into burning rubble"
        below = f"{pos.loc_name(Location(h, keep))} and below stand"
        if roof is not None:
            below += f"; the rooftop {pos.loc_name(roof)} ceases to exist (B23.86)"
        events.append(Event("B25.66", f"{what} ({len(lost)} fire(s) with them); {below}; {where}{_fallen(fallen)}",
                            name, kind="collapse"))
    return new_pos, Report("Collapse (B25.66)", tuple(events))


def _fallen(units: Sequence[Unit]) -> str:
    if not units:
        return ""
    return "; units in the collapsed Locations are taken off the position (by hand, B24.12): " + ", ".join(
        f"{u.name} ({u.side})" for u in units)


def rally_phase(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """The start-of-RPh fire upkeep: the Wind Change DR and what it brings (B25.65, B25.651, B25.66).

    This starts a new Player Turn for fire: last turn's Gusts end and
    Hampered marks go (B24.721).  A DR of 12 makes this Player Turn one of
    Gusts (``environment.gusts``; they spread fire at the end of the AFPh,
    with the Spreading Fire of B25.6) and collapses a burning building
    Location (B25.66).
    """
    pos = replace(
        pos,
        environment=replace(pos.environment, gusts=False),
        fires=tuple(replace(f, hampered=False) for f in pos.fires),
    )
    roll = dice.DR("Wind Change (B25.65)")
    events: list[Event] = []
    if roll.total == 2:
        dr = dice.dr("Wind Change table (B25.65)").total
        old = pos.environment.wind
        wind, text = apply_wind_change(old, dr, dice)
        events.append(Event("B25.65", f"Wind Change DR {roll}: dr {dr}, {text}", kind="wind"))
        env = replace(pos.environment, wind=wind)
        if wind != old:  # smoke drifts next at the start of the AFPh, in the new wind (Fire cheat sheet)
            env = replace(env, drift_cleared=True)
        if wind != old and old.force is WindForce.MILD_BREEZE:
            events.append(Event("B25.65", "the wind changed: drifting smoke counters are removed; smoke drifts "
                                "again at the start of the AFPh (Fire cheat sheet)", kind="smoke"))
        pos = replace(pos, environment=env)
        return pos, Report(f"Rally Phase wind, {pos.clock}", tuple(events))
    if roll.total != 12:
        events.append(Event("B25.65", f"Wind Change DR {roll.total}: no change", kind="wind"))
        return pos, Report(f"Rally Phase wind, {pos.clock}", tuple(events))
    events.append(Event("B25.651", f"Wind Change DR {roll}: Gusts this Player Turn; every terrain Blaze spreads "
                        "downwind at the end of the AFPh", kind="wind"))
    events.append(Event("B25.651", "the Gust eliminates all Dispersed SMOKE (drifting fire smoke included) and "
                        "disperses all other SMOKE on the board, except the smoke of a Blaze in its own hex",
                        kind="smoke"))
    pos, on_smoke = gust_on_smoke(replace(pos, environment=replace(pos.environment, gusts=True)))
    pos, r2 = collapse(pos, dice)
    return pos, Report(f"Rally Phase wind, {pos.clock}", tuple(events) + on_smoke + r2.events)
