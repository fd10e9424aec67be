"""Flames, Blazes and Spreading Fire at the end of the AFPh (B25.15, B25.151, B25.6–.64).

The two steps are pure functions of a Position and dice:
:func:`flame_to_blaze` then :func:`spread_fire`; :func:`end_of_afph` runs
both.  :func:`pending_rolls` lists every roll they would make, with exact
odds and DRMs, without rolling.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction

from .dice import Dice, Roll, chance_dr_at_most, independent_DRs
from .environment import Ground, WindForce, wind_direction_drm
from .explain import DRM, Check, CheckResult, Event, Report
from .hexes import Direction
from .position import Fire, FireKind, GameMap, Location, Position, Wreck
from .terrain import Terrain
from .values import replace, value

__all__ = [
    "BlazeCheck",
    "SpreadCheck",
    "directly_attached",
    "end_of_afph",
    "flame_to_blaze",
    "flame_to_blaze_check",
    "gust_spreads",
    "no_wind_gust_rolls",
    "pending_blaze_checks",
    "pending_rolls",
    "pending_spreads",
    "spread_check",
    "spread_fire",
    "spread_targets",
    "spreading_step",
    "wind_reaches_spread",
    "wreck_targets",
]


def _ec_drm(m: GameMap, loc: Location, ec_drm: int, what: str, label: str) -> list[DRM]:
    """The EC DRM for fire in *loc*: not in buildings (B25.5), except Lumberyards (B23.211) and huts."""
    if ec_drm == 0:
        return []
    b = m.building(loc.hex)
    if b is not None and not b.ec_applies:
        return []
    terrain = m.terrain_at(loc)
    if terrain.ec_doubled:
        return [DRM(2 * ec_drm, f"{label} EC ×2 in {terrain.label} ({what})", "B25.5")]
    return [DRM(ec_drm, f"{label} EC ({what})", "B25.5")]


# ---------------------------------------------------------------------------
# Flame → Blaze (B25.151)


@value
class BlazeCheck:
    """The Flame→Blaze DR of one Flame: Blaze on Final ≥ Spread #, extinguished on Final ≤ 2."""

    flame: Fire
    check: Check

    @property
    def location(self) -> Location:
        return self.flame.location

    @property
    def chance(self) -> Fraction:
        """Chance the Flame becomes a Blaze."""
        return self.check.chance

    @property
    def extinguish_chance(self) -> Fraction:
        """Chance the Flame goes out (Final DR ≤ 2)."""
        return chance_dr_at_most(2 - self.check.total_drm)


def flame_to_blaze_check(pos: Position, flame: Fire) -> BlazeCheck | None:
    """The B25.151 check for *flame*, or None if it may not become a Blaze this AFPh.

    A Flame never becomes a Blaze in the Player Turn it appeared (B25.15) or
    when Hampered (B24.721).  EC DRM unless in a building; −1 in a Fortified
    Building (B23.94).
    """
    if not flame.is_flame or flame.hampered or flame.since >= pos.clock.player_turn:
        return None
    m = pos.map
    loc = flame.location
    terrain = m.terrain_at(loc)
    if terrain.spread is None:
        return None
    drms = _ec_drm(m, loc, pos.environment.ec_drm, "Flame to Blaze", pos.environment.ec.label)
    if m.is_fortified(loc):
        drms.append(DRM(-1, "Fortified Building", "B23.94"))
    check = Check(f"Flame to Blaze in {pos.loc_name(loc)} ({terrain.label}, Spread # {terrain.spread})",
                  "B25.151", needed=terrain.spread, drms=tuple(drms))
    return BlazeCheck(flame, check)


def pending_blaze_checks(pos: Position) -> list[BlazeCheck]:
    """Every Flame→Blaze DR the end of this AFPh will make, in map order."""
    out = []
    for f in sorted(pos.flames(), key=lambda f: f.location):
        c = flame_to_blaze_check(pos, f)
        if c is not None:
            out.append(c)
    return out


def flame_to_blaze(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """Roll B25.151 for every eligible Flame; a Blaze removes the Location's Flames (B25.15).

    A Burning Wreck in a Location that becomes a terrain Blaze is removed
    (B25.14); a hut whose Flame becomes a Blaze collapses (Fire cheat sheet).
    The Blaze carries the kindlers of all the Location's Flames, whichever
    Flame's DR made it (Fire & Victory: the Location stays forfeited while
    the fire burns).
    """
    now = pos.clock.player_turn
    events: list[Event] = []
    blazed: dict[Location, Fire] = {}
    out_fires: list[Fire] = []
    checks = pending_blaze_checks(pos)
    several = {loc for loc, n in Counter(bc.location for bc in checks).items() if n > 1}
    ahead: list[Roll] = []  # the DRs of a run of Locations of one Flame each, rolled at once, next one last
    for k, bc in enumerate(checks):
        loc = bc.location
        name = pos.loc_name(loc)
        if loc in blazed:
            continue  # a Location of several Flames whose earlier Flame made the Blaze (B25.15)
        if loc in several:
            roll = dice.DR(f"Flame to Blaze {name} (B25.151)")
        else:
            if not ahead:  # no DR of this run decides whether another is made
                run = []
                for c in checks[k:]:
                    if c.location in several:
                        break
                    run.append(f"Flame to Blaze {pos.loc_name(c.location)} (B25.151)")
                ahead = independent_DRs(dice, run)[::-1]
            roll = ahead.pop()
        final = roll.total + bc.check.total_drm
        if bc.check.succeeds(final):
            # Whichever Flame makes the Blaze, it is the fire of every Flame in the Location (Fire & Victory).
            first, second = Fire.kindlers_of(pos.flames_at(loc))
            blazed[loc] = Fire(loc, FireKind.BLAZE, since=now, kindled_by=first, also_kindled_by=second)
            events.append(Event("B25.151", f"Flame in {name} becomes a Blaze", name,
                                CheckResult(bc.check, roll, "Blaze"), kind="blaze"))
        elif final <= 2:
            out_fires.append(bc.flame)
            events.append(Event("B25.151", f"Flame in {name} is extinguished", name,
                                CheckResult(bc.check, roll, "extinguished (Final DR ≤ 2)"), kind="extinguished"))
        else:
            events.append(Event("B25.151", f"Flame in {name} stays a Flame", name,
                                CheckResult(bc.check, roll, "no change"), kind="no-change"))
    if not events:
        return pos, Report("Flame to Blaze (B25.151)")
    fires: list[Fire] = []
    gone = list(out_fires)
    for f in pos.fires:
        if f.location in blazed:
            continue
        if f in gone:
            gone.remove(f)
            continue
        fires.append(f)
    fires.extend(blazed.values())
    wrecks = []
    for w in pos.wrecks:
        if w.burning and w.location in blazed:
            events.append(Event("B25.14", f"Burning Wreck in {pos.loc_name(w.location)} removed: its Location is a "
                                "terrain Blaze",
                                pos.loc_name(w.location), kind="wreck-removed"))
            continue
        wrecks.append(w)
    gm = pos.map
    for loc in blazed:
        if gm.terrain_at(loc) is Terrain.HUT and gm.building(loc.hex) is not None:
            events.append(Event("G5", f"the hut in {pos.loc_name(loc)} collapses: its Flame became a Blaze",
                                pos.loc_name(loc), kind="hut-collapse"))
            gm = gm.collapse_hut(loc.hex)  # a Collapsed hut from now on (huts)
    new = replace(pos, map=gm, fires=tuple(fires), wrecks=tuple(wrecks))
    return new, Report("Flame to Blaze (B25.151)", tuple(events))


# ---------------------------------------------------------------------------
# Spreading Fire (B25.6–.64)


def _vertical_neighbours(m: GameMap, src: Location) -> list[Location]:
    locs = m.locations(src.hex)
    i = locs.index(src)
    return [locs[j] for j in (i - 1, i + 1) if 0 <= j < len(locs)]


def spread_targets(m: GameMap, src: Location) -> Iterator[tuple[Location, Direction | None]]:
    """Locations a terrain Blaze in *src* can spread to, with the direction of their hex (B25.6).

    Building Blazes spread horizontally and vertically, never diagonally: to
    the level above and below in their hex, and to the Location at the same
    absolute elevation in an adjacent building hex (so a split-level building
    connects its hexes by elevation, B23.72) or on adjacent ground at that
    elevation.  A Factory's ground level reaches its rooftop.  Fire at ground
    level outside a building spreads to the ground level of the adjacent
    hexes, whatever their elevation (B25.6 examples).  Burnability and
    existing Blazes are not checked here.
    """
    info = m.hexes[src.hex]
    in_building = info.building is not None
    if in_building:
        for loc in _vertical_neighbours(m, src):
            yield loc, None
    base = info.elevation
    height = base + src.level
    for d, n in src.hex.neighbours():
        ninfo = m.hexes.get(n)
        if ninfo is None:
            continue
        if src.rooftop:
            roof = m.rooftop(n)
            if roof is not None and m.elevation(roof) == m.elevation(src):  # (half levels, B23.8)
                yield roof, d
        elif in_building and ninfo.building is not None:
            level = height - ninfo.elevation
            if 0 <= level <= m.top_level(n):
                yield Location(n, level), d
        elif src.level == 0 or ninfo.elevation == height:
            yield Location(n), d


def directly_attached(m: GameMap, a: Location, b: Location) -> bool:
    """True if the terrain of *a* is directly attached to that of *b* (B25.62).

    Locations of one hex and hexes of one building (rowhouses of one
    building too) are attached; so are two Inherent Terrain hexes (rubble
    included, so adjacent rubble counts as one building) and two hexes of one
    depiction (``HexInfo.feature``, e.g. one woods patch).  A rubbled
    Factory hex is still part of the Factory (B23.743), so attached to it.
    """
    if a.hex == b.hex:
        return True
    ia, ib = m.hexes[a.hex], m.hexes[b.hex]
    for r, other in ((a.hex, ib), (b.hex, ia)):  # B23.743: a rubbled Factory hex is still part of the Factory
        fac = m.factory_of_rubble(r)
        if fac is not None and other.building == fac.id:
            return True
    if ia.building is not None:
        return ia.building == ib.building
    if ib.building is not None:
        return False
    if ia.terrain.inherent and ib.terrain.inherent:
        return True
    return ia.feature is not None and ia.feature == ib.feature


_MUD_SPREAD = frozenset({Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING, Terrain.WOODS, Terrain.WOODS_ROAD,
                         Terrain.BRUSH, Terrain.GRAIN, Terrain.ORCHARD})
_SNOW_SPREAD = frozenset({Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING, Terrain.WOODS, Terrain.WOODS_ROAD,
                          Terrain.BRUSH})
_DEEP_SNOW_SPREAD = frozenset({Terrain.WOODEN_BUILDING, Terrain.STONE_BUILDING, Terrain.WOODS, Terrain.WOODS_ROAD})


@value
class SpreadCheck:
    """The Spreading Fire DR a Location gets from one source, or an automatic spread.

    *source* is the Blaze's Location, or the Burning Wreck's.
    """

    target: Location
    source: Location
    check: Check | None
    by_wreck: bool = False
    automatic: bool = False
    reason: str = ""

    @property
    def chance(self) -> Fraction:
        if self.automatic:
            return Fraction(1)
        assert self.check is not None
        return self.check.chance

    def describe(self, pos: Position) -> str:
        src = ("Burning Wreck in " if self.by_wreck else "Blaze in ") + pos.loc_name(self.source)
        if self.automatic:
            return f"{pos.loc_name(self.target)}: automatic Flame from {src} ({self.reason})"
        assert self.check is not None
        return f"{pos.loc_name(self.target)} from {src}: {self.check.describe()}"


def wind_reaches_spread(m: GameMap, src: Location, target: Location, direction: Direction | None) -> bool:
    """Whether the wind can count for a spread from *src* to *target* (B25.63, B25.64): a spread to an
    adjacent hex, not within one building (the Rowhouses of one building are one building for fire:
    B23.71 makes each a separate building only for Rout and Mopping Up).

    The No Wind of an Interior Building hex (B25.63) follows: all its neighbours are hexes of its building.

    >>> from .hexes import Hex
    >>> from .position import GameMap, HexInfo
    >>> from .terrain import Terrain
    >>> m = GameMap.from_hexes({Hex.parse(h): HexInfo(Terrain.WOODS) for h in ("A1", "A2")})
    >>> wind_reaches_spread(m, Location(Hex.parse("A1")), Location(Hex.parse("A2")), Direction(4))
    True
    """
    if direction is None:
        return False
    building = m.hexes[src.hex].building
    return building is None or building != m.hexes[target.hex].building


#: The Mild Breeze's Spreading Fire DRM in words, by its value (B25.64): where the spread goes with the wind.
_BREEZE_WORDS = {2: "downwind in a Mild Breeze", 1: "downwind flank of a Mild Breeze", -1: "upwind in a Mild Breeze"}


def spread_check(pos: Position, src: Location, target: Location, direction: Direction | None,
                 wreck: Wreck | None = None) -> SpreadCheck | None:
    """The check for fire spreading from *src* (a Blaze, or the Burning Wreck *wreck*) to *target* in
    *direction* (None within a hex), or None if it cannot spread there (B25.6–.64)."""
    m = pos.map
    env = pos.environment
    terrain = m.terrain_at(target)
    if terrain.spread is None:
        return None
    tname = pos.loc_name(target)
    same_hex = src.hex == target.hex
    attached = directly_attached(m, src, target) and not (wreck is not None and wreck.bypass is not None)
    # Mud and snow: only across a connected depiction of the listed kinds (Fire cheat sheet).
    ground = env.effective_ground
    if ground is not Ground.NORMAL and not same_hex:
        allowed = {Ground.MUD: _MUD_SPREAD, Ground.GROUND_SNOW: _SNOW_SPREAD}.get(ground, _DEEP_SNOW_SPREAD)
        if not (attached and terrain in allowed and m.terrain_at(src) in allowed):
            return None
    wind = env.wind
    wind_applies = wind.direction is not None and wind_reaches_spread(m, src, target, direction)
    if wind.force is WindForce.HEAVY_WINDS and wind_applies:
        assert direction is not None and wind.direction is not None  # (a spread within one hex has no wind)
        if direction.steps_from(wind.direction) <= 1:
            return SpreadCheck(target, src, None, wreck is not None, True,
                               f"Heavy Winds, downwind to {int(wind.direction)}, B25.63")
        return None
    if wreck is not None and same_hex and wind.force is WindForce.HEAVY_WINDS:
        return SpreadCheck(target, src, None, True, True, "Heavy Winds: a Wreck Blaze fires its own Location, B25.63")
    drms: list[DRM] = []
    de = m.elevation(target) - m.elevation(src)
    if de > 0:
        drms.append(DRM(1, "to higher elevation", "B25.61"))
    elif de < 0:
        drms.append(DRM(-1, "to lower elevation", "B25.61"))
    if not attached:
        bypassing = wreck is not None and wreck.bypass is not None
        why = "Burning Wreck was Bypassing" if bypassing else "not directly attached"
        drms.append(DRM(-2, why, "B25.62"))
    if m.is_fortified(target):
        drms.append(DRM(-1, "to a Fortified Building", "B23.94"))
    drms += _ec_drm(m, target, env.ec_drm, "Spreading Fire", env.ec.label)
    if wind.force is WindForce.MILD_BREEZE and wind_applies:
        assert direction is not None and wind.direction is not None
        w = wind_direction_drm(wind.direction, direction)
        if w:
            drms.append(DRM(w, _BREEZE_WORDS[w], "B25.64"))
    kind = "Burning Wreck" if wreck is not None else "Blaze"
    check = Check(f"Spreading Fire to {tname} ({terrain.label}, Spread # {terrain.spread}) from {kind} in "
                  f"{pos.loc_name(src)}", "B25.6", needed=terrain.spread, drms=tuple(drms))
    return SpreadCheck(target, src, check, wreck is not None)


def wreck_targets(m: GameMap, w: Wreck) -> Iterator[tuple[Location, Direction | None]]:
    """The Locations a Burning Wreck *w* may spread fire to, with the direction (B25.14, B25.6): its own
    hex's ground Location, and the hex it was Bypassing into, if any."""
    yield Location(w.location.hex), None
    if w.bypass is not None:
        other = w.location.hex + w.bypass
        if other in m.hexes:
            yield Location(other), w.bypass


def _better(a: SpreadCheck, b: SpreadCheck | None) -> bool:
    """True if *a* gives its target better odds than *b* (automatic beats any roll)."""
    if b is None:
        return True
    if a.automatic or b.automatic:
        return a.automatic and not b.automatic
    assert a.check is not None and b.check is not None
    # All spread checks are "DR ≥ needed": a lower Original target is a better chance.
    return a.check.needed - a.check.total_drm < b.check.needed - b.check.total_drm


def gust_spreads(pos: Position, direction: Direction) -> Iterator[SpreadCheck]:
    """The automatic one-hex spreads of Gusts (B25.651): every terrain Blaze into the Burnable Location
    next to it in *direction* (within a building too: B25.63 EXC), every Burning Wreck into its own
    Location.  Mud and snow do not stop them (Fire cheat sheet).  Only fires that may spread this Player
    Turn count (B25.6).
    """
    m = pos.map
    now = pos.clock.player_turn
    reason = f"Gusts to {int(direction)}, B25.651"
    for fire in sorted(pos.blazes(), key=lambda f: f.location):
        if fire.since >= now:
            continue
        down = fire.location.hex + direction
        for target, way in spread_targets(m, fire.location):
            if way is direction and target.hex == down and m.is_burnable(target):
                yield SpreadCheck(target, fire.location, None, False, True, reason)
    for w in pos.burning_wrecks():
        own = Location(w.location.hex)
        if w.since < now and m.is_burnable(own):
            yield SpreadCheck(own, w.location, None, True, True, "Gusts: a Wreck Blaze fires its own Location, "
                              "B25.651")


def pending_spreads(pos: Position, gust_direction: Direction | None = None,
                    extra: Iterable[SpreadCheck] = ()) -> dict[Location, SpreadCheck]:
    """For each Burnable Location fire can spread to, the one check with the best odds (B25.6).

    Sources are terrain Blazes and Burning Wrecks that existed before this
    Player Turn; Locations already holding a Blaze, or where no Flame can be created (a Collapsed hut
    once Rain has fallen, Fire cheat sheet: huts), are skipped.  In a Player
    Turn of Gusts (``environment.gusts``) the Gusts' automatic spreads join
    in, blowing with the wind (or *gust_direction*, rolled with No Wind);
    *extra* adds more automatic spreads (the Gusts' Random Selection).
    """
    m = pos.map
    now = pos.clock.player_turn
    best: dict[Location, SpreadCheck] = {}
    blazes = pos._blazes

    def consider(c: SpreadCheck | None) -> None:
        # no Flame where none can be created (a Collapsed hut after Rain, huts): Position.no_flame_reason
        if c is not None and pos.no_flame_reason(c.target) is None and _better(c, best.get(c.target)):
            best[c.target] = c

    for fire in pos.fires:
        if not fire.is_blaze or fire.since >= now:
            continue
        for target, d in spread_targets(m, fire.location):
            if target in blazes:
                continue
            consider(spread_check(pos, fire.location, target, d))
    for w in pos.wrecks:
        if not w.burning or w.since >= now:
            continue
        for target, d in wreck_targets(m, w):
            if target in blazes:
                continue
            consider(spread_check(pos, w.location, target, d, w))
    direction = pos.environment.wind.direction or gust_direction
    if pos.environment.gusts and direction is not None:
        for c in gust_spreads(pos, direction):
            consider(c)
    for c in extra:
        consider(c)
    return dict(sorted(best.items()))


def spread_fire(pos: Position, dice: Dice, gust_direction: Direction | None = None,
                extra: Iterable[SpreadCheck] = ()) -> tuple[Position, Report]:
    """One Spreading Fire DR per Location at risk, from its best source; success places a Flame (B25.6, B25.62).

    Automatic spreads (Heavy Winds, Gusts) place their Flame without a DR.
    """
    now = pos.clock.player_turn
    kindled = {f.location: (f.kindled_by, f.also_kindled_by) for f in pos.fires if f.is_blaze}
    events: list[Event] = []
    new_fires: list[Fire] = []
    spreads = pending_spreads(pos, gust_direction, extra)
    # one DR per Location at risk, none deciding another's: rolled at once (in this order)
    rolls = iter(independent_DRs(dice, [f"Spreading Fire {pos.loc_name(t)} (B25.6)"
                                        for t, sc in spreads.items() if not sc.automatic]))
    for target, sc in spreads.items():
        name = pos.loc_name(target)
        owner, also = (None, None) if sc.by_wreck else kindled.get(sc.source, (None, None))
        if sc.automatic:
            new_fires.append(Fire(target, FireKind.FLAME, since=now, kindled_by=owner, also_kindled_by=also))
            rule = "B25.651" if sc.reason.startswith("Gusts") else "B25.63"
            events.append(Event(rule, f"Flame placed in {name}: {sc.reason}", name, kind="flame"))
            continue
        assert sc.check is not None
        roll = next(rolls)
        final = roll.total + sc.check.total_drm
        if sc.check.succeeds(final):
            new_fires.append(Fire(target, FireKind.FLAME, since=now, kindled_by=owner, also_kindled_by=also))
            events.append(Event("B25.62", f"Flame placed in {name}", name,
                                CheckResult(sc.check, roll, "Flame"), kind="flame"))
        else:
            events.append(Event("B25.6", f"no spread to {name}", name,
                                CheckResult(sc.check, roll, "no spread"), kind="no-spread"))
    return replace(pos, fires=pos.fires + tuple(new_fires)), Report("Spreading Fire (B25.6)", tuple(events))


def end_of_afph(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """Fire upkeep at the end of the AFPh: Flame→Blaze (B25.151), then Spreading Fire (B25.6).

    Blazes formed now do not spread this Player Turn; Flames placed now are
    marked (``since``) and cannot become Blazes this Player Turn.  In a
    Player Turn of Gusts (``environment.gusts``: rolled in the RPh, set in
    a position file or shown by VASL's Gusts counter) the Gusts spread with
    the Spreading Fire (B25.651): first the direction (a dr with No Wind)
    and the Random Selection of the longer spread, then every spread.
    """
    if pos.environment.drift_cleared:  # smoke drifted again at the start of this AFPh (Fire cheat sheet)
        pos = replace(pos, environment=replace(pos.environment, drift_cleared=False))
    p1, r1 = flame_to_blaze(pos, dice)
    p2, r2 = spreading_step(p1, dice)
    return p2, Report(f"End of AFPh fire upkeep, {pos.clock}", r1.events + r2.events)


def spreading_step(pos: Position, dice: Dice) -> tuple[Position, Report]:
    """The Spreading Fire step of the end of the AFPh, Gusts included (B25.6, B25.651): after Flame→Blaze.

    In a Player Turn of Gusts: first the Gust direction (a dr with No Wind)
    and the Random Selection of the longer spread, then every spread.
    """
    from .wind import gust_direction, gusts

    if not pos.environment.gusts:
        return spread_fire(pos, dice)
    direction, events = gust_direction(pos, dice)
    chosen, rg = gusts(pos, dice, direction)
    events += rg.events
    extra = []
    for target, (kind, src) in chosen.items():
        by_wreck = kind == "Burning Wreck"
        reach = "one hex" if by_wreck else "two hexes"
        extra.append(SpreadCheck(target, src, None, by_wreck, True,
                                 f"Gusts: the {kind} in {pos.loc_name(src)} spreads {reach}, B25.651"))
    p2, r2 = spread_fire(pos, dice, direction, extra)
    return p2, Report("Spreading Fire (B25.6)", tuple(events) + r2.events)


@value
class PendingRoll:
    """One roll the end of the AFPh will make, with its exact odds."""

    kind: str  # "blaze" (Flame→Blaze), "spread", or "gust" (a candidate of the Gusts' Random Selection)
    location: Location
    chance: Fraction
    check: Check | None
    source: Location | None = None
    extinguish_chance: Fraction = Fraction(0)
    automatic: bool = False
    reason: str = ""


def pending_rolls(pos: Position) -> list[PendingRoll]:
    """Every Flame→Blaze and Spreading Fire roll pending at the end of this AFPh, with exact odds.

    Spreading checks are computed on the fires as they stand now (a Flame
    that becomes a Blaze first would remove a target, never add a source).
    In a Player Turn of Gusts with a Wind Direction, the Gusts' automatic
    spreads are among them, and each candidate of their Random Selection
    (B25.651) is listed with its chance to be picked.  With No Wind the
    Gusts blow where a dr at the end of the AFPh says: each Location's row
    is then its exact chance to catch fire over the six directions, the
    one-hex Gust spread, the two-hex spread's Random Selection and the
    Spreading Fire DR folded in (:func:`no_wind_gust_rolls`).
    """
    from .wind import gust_candidates, selection_chance

    out = [PendingRoll("blaze", b.location, b.chance, b.check, extinguish_chance=b.extinguish_chance)
           for b in pending_blaze_checks(pos)]
    if pos.environment.gusts and pos.environment.wind.direction is None:
        return out + no_wind_gust_rolls(pos)
    out += [PendingRoll("spread", t, sc.chance, sc.check, sc.source, automatic=sc.automatic, reason=sc.reason)
            for t, sc in pending_spreads(pos).items()]
    direction = pos.environment.wind.direction
    if pos.environment.gusts and direction is not None:
        candidates = gust_candidates(pos, direction)
        reach = {"Blaze": "two hexes", "Burning Wreck": "one hex"}
        out += [PendingRoll("gust", t, selection_chance(len(candidates)), None, src,
                            reason=f"Gusts: Random Selection among {len(candidates)}, the {kind} spreads {reach[kind]}")
                for kind, src, t in candidates]
    return out


def _picked_chance(k: int, n: int) -> Fraction:
    """Chance that one of *k* candidates (of *n*) is among those Random Selection picks: its highest dr is the
    highest of all, ties all picked; a single candidate needs no roll.

    >>> _picked_chance(1, 1), _picked_chance(1, 2), _picked_chance(2, 2)
    (Fraction(1, 1), Fraction(7, 12), Fraction(1, 1))
    """
    return sum((Fraction(v ** k - (v - 1) ** k, 6 ** k) * Fraction(v, 6) ** (n - k) for v in range(1, 7)),
               Fraction(0))


def no_wind_gust_rolls(pos: Position) -> list[PendingRoll]:
    """The Spreading Fire rows of a Player Turn of Gusts with No Wind (B25.651, B25.6): the Gust direction is
    a dr, so each Location's chance is the mean over the six directions of its chance to catch fire — certain
    from a one-hex Gust spread, else picked for the two-hex spread or (if not) caught by its Spreading Fire DR.
    """
    from .wind import gust_candidates

    base = pending_spreads(pos)
    total: dict[Location, Fraction] = {}
    auto: dict[Location, int] = {}
    longer: dict[Location, int] = {}
    source: dict[Location, Location] = {}
    for d in Direction:
        spreads = pending_spreads(pos, d)
        candidates = gust_candidates(pos, d)
        picks: dict[Location, int] = {}
        for _, src, t in candidates:
            picks[t] = picks.get(t, 0) + 1
            source.setdefault(t, src)
        for loc in set(spreads) | set(picks):
            sc = spreads.get(loc)
            chance = sc.chance if sc is not None else Fraction(0)
            if sc is not None and sc.automatic:
                auto[loc] = auto.get(loc, 0) + 1
                source.setdefault(loc, sc.source)
            if loc in picks:
                picked = _picked_chance(picks[loc], len(candidates))
                chance = picked + (1 - picked) * chance
                longer[loc] = longer.get(loc, 0) + 1
            total[loc] = total.get(loc, Fraction(0)) + chance / 6
    out = []
    for loc in sorted(total):
        sc = base.get(loc)
        parts = [f"automatic in {auto[loc]} of 6 directions"] if loc in auto else []
        if loc in longer:
            parts.append(f"two-hex spread candidate in {longer[loc]} of 6")
        if sc is not None and sc.check is not None and auto.get(loc, 0) < 6:
            parts.append(f"else its Spreading Fire DR ({sc.check.chance})")
        reason = "Gusts with No Wind, the direction dr folded in: " + ", ".join(parts)
        src = sc.source if sc is not None else source[loc]
        out.append(PendingRoll("spread", loc, total[loc], sc.check if sc is not None else None, src,
                               automatic=total[loc] == 1, reason=reason))
    return out
