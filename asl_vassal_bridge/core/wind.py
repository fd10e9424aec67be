"""The Rally Phase fire rules: Wind Change (B25.65), Gusts (B25.651) and Collapse (B25.66).

>>> from .dice import ScriptedDice
>>> from .position import GameMap, Position
>>> pos, report = rally_phase(Position(GameMap.from_hexes({})), ScriptedDice([3, 4]))
>>> report.events[0].text
'Wind Change DR 7: no change'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

from .dice import Dice, Roll
from .environment import Wind, WindForce
from .explain import Event, Report
from .hexes import Direction
from .position import Fire, FireKind, HexInfo, Location, Position
from .terrain import Material, Terrain

__all__ = [
    "WIND_CHANGE_TABLE",
    "apply_wind_change",
    "collapse",
    "gusts",
    "rally_phase",
    "random_selection",
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


@dataclass(frozen=True, slots=True)
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
        new = Wind(wind.force, wind.direction.clockwise(steps))
        return new, f"{what}: Wind Direction {int(wind.direction)} → {int(new.direction or 0)}"
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


def _ground_flame_target(pos: Position, h: object) -> Location | None:
    from .hexes import Hex

    assert isinstance(h, Hex)
    if h not in pos.map.hexes:
        return None
    loc = Location(h)
    if not pos.map.is_burnable(loc) or pos.is_burning(loc):
        return None
    return loc


def gusts(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """Gusts (B25.651): every terrain Blaze fires the next hex downwind; Random Selection picks the two-hex spread.

    Wreck Blazes fire their own Location and may be picked for a one-hex
    spread.  Flames spread two hexes appear at ground level.  With No Wind a
    direction is rolled for the Gust.
    """
    from .fire import spread_targets

    now = pos.clock.player_turn
    m = pos.map
    events: list[Event] = []
    wind = pos.environment.wind
    if wind.direction is None:
        gust = dice.dr("Gust direction (B25.651)").total
        direction = Direction(gust)
        events.append(Event("B25.651", f"No Wind: the Gusts blow to {gust} (dr)", kind="wind"))
    else:
        direction = wind.direction
    new: list[Fire] = []
    blazes = sorted(pos.blazes(), key=lambda f: f.location)
    for f in blazes:
        down = f.location.hex + direction
        for target, way in spread_targets(m, f.location):
            if way is not direction or target.hex != down:
                continue
            if not m.is_burnable(target) or pos.blaze_at(target) is not None:
                continue
            new.append(Fire(target, FireKind.FLAME, since=now, kindled_by=f.kindled_by))
            events.append(Event("B25.651", f"Gusts: Flame in {pos.loc_name(target)} from the Blaze in "
                                f"{pos.loc_name(f.location)}", pos.loc_name(target), kind="flame"))
    for w in pos.burning_wrecks():
        own = Location(w.location.hex)
        if m.is_burnable(own) and pos.blaze_at(own) is None:
            new.append(Fire(own, FireKind.FLAME, since=now))
            events.append(Event("B25.651", f"Gusts: Flame in {pos.loc_name(own)} from its Burning Wreck",
                                pos.loc_name(own), kind="flame"))
    # Candidates for the longer spread: non-burning Burnable Terrain two hexes (a wreck: one) downwind.
    candidates: list[tuple[str, Location, Location]] = []
    for f in blazes:
        t = _ground_flame_target(pos, f.location.hex.neighbour(direction, 2))
        if t is not None:
            candidates.append(("Blaze", f.location, t))
    for w in pos.burning_wrecks():
        t = _ground_flame_target(pos, w.location.hex + direction)
        if t is not None:
            candidates.append(("Burning Wreck", w.location, t))
    chosen, rolls = random_selection(candidates, dice, "Gusts two-hex spread (B25.651)")
    if rolls:
        shown = ", ".join(f"{pos.loc_name(c[1])} {r.total}" for c, r in zip(candidates, rolls, strict=True))
        events.append(Event("B25.651", f"Random Selection among {len(candidates)} eligible fires: {shown}",
                            kind="selection"))
    owners = {f.location: f.kindled_by for f in blazes}
    for kind, src, target in chosen:
        reach = "one hex" if kind == "Burning Wreck" else "two hexes"
        new.append(Fire(target, FireKind.FLAME, since=now, kindled_by=owners.get(src)))
        events.append(Event("B25.651", f"Gusts: the {kind} in {pos.loc_name(src)} spreads {reach}: Flame in "
                            f"{pos.loc_name(target)}", pos.loc_name(target), kind="flame"))
    env = replace(pos.environment, gusts=True)
    return replace(pos, environment=env, fires=pos.fires + tuple(new)), Report("Gusts (B25.651)", tuple(events))


def collapse(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """Collapse (B25.66): a building Location with a Blaze, picked by Random Selection, falls into burning rubble.

    The whole building hex becomes rubble of its material, with a Blaze at
    ground level; fires on its upper levels are gone with them.
    """
    m = pos.map
    candidates = sorted(f.location for f in pos.blazes() if m.is_building_location(f.location))
    if not candidates:
        none = Event("B25.66", "no building Location holds a Blaze: nothing collapses")
        return pos, Report("Collapse (B25.66)", (none,))
    chosen, rolls = random_selection(candidates, dice, "Collapse (B25.66)")
    events: list[Event] = []
    if rolls:
        shown = ", ".join(f"{pos.loc_name(c)} {r.total}" for c, r in zip(candidates, rolls, strict=True))
        events.append(Event("B25.66", f"Random Selection among building Blazes: {shown}", kind="selection"))
    new_pos = pos
    for loc in chosen:
        h = loc.hex
        b = m.building(h)
        if b is None or h not in new_pos.map.hexes or new_pos.map.hexes[h].building is None:
            continue
        info = new_pos.map.hexes[h]
        rubble = Terrain.WOODEN_RUBBLE if b.material is Material.WOODEN else Terrain.STONE_RUBBLE
        owner = next((f.kindled_by for f in new_pos.fires if f.location.hex == h and f.is_blaze), None)
        new_map = new_pos.map.with_hex(h, HexInfo(rubble, info.elevation, None, False, info.feature, info.road))
        fires = tuple(f for f in new_pos.fires if f.location.hex != h)
        fires += (Fire(Location(h), FireKind.BLAZE, since=pos.clock.player_turn, kindled_by=owner),)
        wrecks = tuple(w for w in new_pos.wrecks if w.location.hex != h)
        new_pos = replace(new_pos, map=new_map, fires=fires, wrecks=wrecks)
        events.append(Event("B25.66", f"{pos.loc_name(loc)} and every level above it collapse: "
                            f"{m.hex_name(h)} is now burning {rubble.label} (B24.12 falling rubble into adjacent "
                            "hexes is resolved by hand)", pos.loc_name(loc), kind="collapse"))
    return new_pos, Report("Collapse (B25.66)", tuple(events))


def rally_phase(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """The start-of-RPh fire upkeep: the Wind Change DR and what it brings (B25.65, B25.651, B25.66).

    This starts a new Player Turn for fire: last turn's Gusts end and
    Hampered marks go (B24.721).
    """
    pos = replace(
        pos,
        environment=replace(pos.environment, gusts=False),
        fires=tuple(replace(f, hampered=False) if f.hampered else f for f in pos.fires),
    )
    roll = dice.DR("Wind Change (B25.65)")
    events: list[Event] = []
    if roll.total == 2:
        dr = dice.dr("Wind Change table (B25.65)").total
        wind, text = apply_wind_change(pos.environment.wind, dr, dice)
        events.append(Event("B25.65", f"Wind Change DR 2: dr {dr}, {text}", kind="wind"))
        pos = replace(pos, environment=replace(pos.environment, wind=wind))
        return pos, Report(f"Rally Phase wind, {pos.clock}", tuple(events))
    if roll.total != 12:
        events.append(Event("B25.65", f"Wind Change DR {roll.total}: no change", kind="wind"))
        return pos, Report(f"Rally Phase wind, {pos.clock}", tuple(events))
    events.append(Event("B25.651", f"Wind Change DR 12 {roll}: Gusts this Player Turn", kind="wind"))
    pos, r1 = gusts(pos, dice)
    pos, r2 = collapse(pos, dice)
    return pos, Report(f"Rally Phase wind, {pos.clock}", tuple(events) + r1.events + r2.events)
