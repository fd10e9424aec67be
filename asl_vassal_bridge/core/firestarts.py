"""How fires start: Kindling (B25.11), FT (B25.12), HE (B25.13), MOL (A22.6111), WP (A24.32),
huts (Fire cheat sheet) and Wreck Blazes (B25.14).

Each start is a check (exact odds, DRMs with rule numbers) and a resolver
that takes dice and returns the new Position and a report.

>>> from .position import GameMap, HexInfo, Position
>>> from .hexes import Hex
>>> from .terrain import Terrain
>>> pos = Position(GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.WOODS)}))
>>> kindling_check(pos, Location(Hex.parse("A1")), UnitKind.SQUAD, leader_drm=-1).needed_original
8
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from .dice import Dice, Roll
from .environment import EC
from .errors import IllegalAction
from .explain import DRM, Check, CheckResult, Event, Report
from .position import Fire, FireKind, Location, Phase, Position, UnitKind, Wreck
from .terrain import Terrain
from .values import replace, value

__all__ = [
    "HutAttack",
    "MolFlames",
    "WreckCause",
    "ft_fire_check",
    "he_fire_check",
    "he_fire_start",
    "hut_fire_start",
    "hut_flame",
    "huts_fire_start",
    "kindling_attempt",
    "kindling_check",
    "mol_flames",
    "no_flame_reason",
    "place_flame",
    "resolve_fire_start",
    "wp_fire_check",
    "wp_fire_start",
    "wreck_blaze",
]


def _burnable(pos: Position, loc: Location, rule: str) -> Terrain:
    pos._check_location(loc)
    terrain = pos.map.terrain_at(loc)
    if not terrain.burnable:
        raise IllegalAction(f"{pos.loc_name(loc)} holds {terrain.label}, which cannot burn ({rule}, B25.1)")
    return terrain


def _ec(pos: Position, loc: Location, what: str) -> list[DRM]:
    drm = pos.environment.ec_drm
    if drm == 0:
        return []
    b = pos.map.building(loc.hex)
    if b is not None and not b.ec_applies:
        return []
    if pos.map.terrain_at(loc).ec_doubled:
        return [DRM(2 * drm, f"{pos.environment.ec.label} EC ×2 ({what})", "B25.5")]
    return [DRM(drm, f"{pos.environment.ec.label} EC ({what})", "B25.5")]


def _kindle(terrain: Terrain) -> int:
    """The Kindle # of Burnable Terrain (B25.1: every Burnable Terrain has one)."""
    assert terrain.kindle is not None, terrain
    return terrain.kindle


def _fortified(pos: Position, loc: Location) -> list[DRM]:
    return [DRM(-1, "Fortified Building", "B23.94")] if pos.map.is_fortified(loc) else []


def no_flame_reason(pos: Position, loc: Location) -> str | None:
    """Why no Flame can be created in *loc* whatever starts it, or None (:meth:`.Position.no_flame_reason`:
    B25.1, B25.15, a Collapsed hut once Rain has fallen)."""
    return pos.no_flame_reason(loc)


def place_flame(pos: Position, loc: Location, *, kindled_by: str | None = None) -> Position:
    """A new Flame in *loc*, appearing this Player Turn (B25.15); none where :func:`no_flame_reason` says so."""
    if no_flame_reason(pos, loc) is not None:
        return pos
    return pos.add_fire(Fire(loc, FireKind.FLAME, since=pos.clock.player_turn, kindled_by=kindled_by))


def resolve_fire_start(pos: Position, check: Check, loc: Location, dice: Dice, *,
                       kindled_by: str | None = None) -> tuple[Position, Report]:
    """Roll *check*; on success place a Flame in *loc*."""
    roll = dice.DR(f"{check.name} ({check.rule})") if check.dice == 2 else dice.dr(f"{check.name} ({check.rule})")
    final = roll.total + check.total_drm
    name = pos.loc_name(loc)
    if check.succeeds(final) and no_flame_reason(pos, loc) is None:
        new = place_flame(pos, loc, kindled_by=kindled_by)
        ev = Event(check.rule, f"Flame in {name}", name, CheckResult(check, roll, "Flame"), kind="flame")
        return new, Report(check.name, (ev,))
    ev = Event(check.rule, f"no Flame in {name}", name, CheckResult(check, roll, "no Flame"), kind="no-flame")
    return pos, Report(check.name, (ev,))


# ---------------------------------------------------------------------------
# Kindling (B25.11)


def kindling_check(pos: Position, loc: Location, unit: UnitKind, *, leader_drm: int | None = None,
                   has_mol: bool = False, smc_passed_ntc: bool = True, pinned: bool = False,
                   broken: bool = False, predesignated: bool = True, check_phase: bool = False,
                   berserk: bool = False) -> Check:
    """The Kindling DR a unit makes in the Burnable Location it occupies (B25.11, A22.613, B23.94).

    *leader_drm* is the directing leader's modifier (−1 for an 8-1); it is
    applied reversed.  A SMC attempts alone (−2, after passing a NTC); a
    HS/crew has −1; a unit with a MOL adds +2 (A22.613).  EC applies except
    to buildings (B25.5).

    :raises IllegalAction: when the rules forbid the attempt, naming the rule.
    """
    terrain = _burnable(pos, loc, "B25.11")
    why = no_flame_reason(pos, loc)
    if why is not None and pos.blaze_at(loc) is None:
        raise IllegalAction(f"{pos.loc_name(loc)}: {why}")
    if check_phase and pos.clock.phase is not Phase.PFPH:
        raise IllegalAction(f"Kindling is made in the PFPh, not the {pos.clock.phase.value} (B25.11)")
    if not unit.is_infantry:
        raise IllegalAction("only Infantry may attempt Kindling (B25.11)")
    if pinned or broken:
        raise IllegalAction("a Kindling unit must be unpinned and in Good Order (B25.11)")
    if berserk:
        raise IllegalAction("a berserk unit never Kindles: Kindling is Prep Fire (B25.11) and a berserk unit never "
                            "fires in its PFPh (A15.432)")
    drms: list[DRM] = []
    if unit.is_smc:
        if leader_drm is not None:
            raise IllegalAction("a leader may not both make a Kindling attempt and direct one (B25.11)")
        if not smc_passed_ntc:
            raise IllegalAction("a SMC Kindles only after passing a NTC (B25.11)")
        drms.append(DRM(-2, "SMC Kindling", "B25.11"))
    else:
        if leader_drm is None:
            raise IllegalAction("a MMC Kindles only when stacked with a leader who directs it (B25.11)")
        if not predesignated:
            raise IllegalAction("a leader directs several Kindling attempts in a Location only if all are "
                                "predesignated (B25.11)")
        if leader_drm:
            drms.append(DRM(-leader_drm, f"leadership {leader_drm:+d} reversed", "B25.11"))
        if unit in (UnitKind.HALF_SQUAD, UnitKind.CREW):
            drms.append(DRM(-1, "HS/crew Kindling", "B25.11"))
    if has_mol:
        drms.append(DRM(2, "unit has a MOL", "A22.613"))
    drms += _ec(pos, loc, "Kindling")
    drms += _fortified(pos, loc)
    return Check(f"Kindling in {pos.loc_name(loc)} ({terrain.label}, Kindle # {terrain.kindle})", "B25.11",
                 needed=_kindle(terrain), drms=tuple(drms))


def kindling_attempt(pos: Position, loc: Location, unit: UnitKind, dice: Dice, *, side: str,
                     leader_drm: int | None = None, has_mol: bool = False, **kw: bool) -> tuple[Position, Report]:
    """Make a Kindling attempt; a Flame it starts is deliberately kindled by *side* (Fire & Victory).

    An attempt is made only in the kindling side's PFPh (B25.11): every caller (command line, widget,
    bridge) meets this one check, made before any die is rolled.  The attempt counts as Prep Fire for the
    unit (B25.11) whatever its result.

    :raises IllegalAction: outside the PFPh, or when :func:`kindling_check` refuses the attempt.
    """
    kw.pop("check_phase", None)
    if side not in pos.sides:
        raise IllegalAction(f"the kindling side {side!r} is not one of the position's sides {list(pos.sides)}")
    if pos.clock.phase is Phase.PFPH and side != pos.attacker:
        raise IllegalAction(f"Kindling is made in the kindling side's own PFPh (B25.11): it is the "
                            f"{pos.attacker} PFPh, not the {side}")
    check = kindling_check(pos, loc, unit, leader_drm=leader_drm, has_mol=has_mol, check_phase=True, **kw)
    new, rep = resolve_fire_start(pos, check, loc, dice, kindled_by=side)
    note = Event("B25.11", "the Kindling unit is marked with a Prep Fire counter", kind="prep-fire")
    return new, Report(rep.title, (*rep.events, note))


# ---------------------------------------------------------------------------
# FT, HE, WP


def ft_fire_check(pos: Position, loc: Location, original_result: str, *, target_unarmored: bool = True) -> Check | None:
    """After a FT attack: the fire-start DR, or None when the attack cannot start a Flame (B25.12).

    Only an Original K or KIA result vs an unarmored target in Burnable
    Terrain qualifies.  The "applicable (25.5)" EC DRM applies: not in a
    building (B25.5 excludes Kindling in buildings; a Lumberyard and a hut
    take it, B23.211), as for HE (B25.13); −1 in a Fortified Building
    (B23.94).  See docs/rules.md.
    """
    terrain = pos.map.terrain_at(loc)
    if no_flame_reason(pos, loc) is not None or not target_unarmored:
        return None
    result = original_result.strip().upper()
    if not (result == "K" or result.startswith("K/") or result.endswith("KIA")):
        return None
    drms = _ec(pos, loc, "FT fire start") + _fortified(pos, loc)
    return Check(f"FT fire start in {pos.loc_name(loc)} ({terrain.label}, Kindle # {terrain.kindle})", "B25.12",
                 needed=_kindle(terrain), drms=tuple(drms))


def he_fire_check(pos: Position, loc: Location, original_kia: bool, *, collateral: bool = False,
                  vehicle_target_type: bool = False, created_rubble: bool = False) -> Check | None:
    """After an HE/HEAT attack: the fire-start DR, or None (B25.13).

    Needs an Original KIA; never from a Collateral Attack, the Vehicle Target
    Type, or an attack that rubbles the Location (rubble takes precedence).
    EC DRM unless the terrain is a building; −1 Fortified (B23.94).
    """
    terrain = pos.map.terrain_at(loc)
    if no_flame_reason(pos, loc) is not None or not original_kia or collateral or vehicle_target_type \
            or created_rubble:
        return None
    drms = _ec(pos, loc, "HE fire start") + _fortified(pos, loc)
    return Check(f"HE fire start in {pos.loc_name(loc)} ({terrain.label}, Kindle # {terrain.kindle})", "B25.13",
                 needed=_kindle(terrain), drms=tuple(drms))


def wp_fire_check(pos: Position, loc: Location) -> Check | None:
    """The WP fire DR made in the placing player's MPh, or None (A24.32).

    Only in Dry or Very Dry EC (a hut: always); no EC DRM but −1 when Dry;
    −2 vs a building.  WP never burns vehicles or wrecks.
    """
    terrain = pos.map.terrain_at(loc)
    if no_flame_reason(pos, loc) is not None:
        return None
    ec = pos.environment.ec
    if terrain is not Terrain.HUT and ec not in (EC.DRY, EC.VERY_DRY):
        return None
    drms: list[DRM] = []
    if ec is EC.DRY:
        drms.append(DRM(-1, "Dry EC", "A24.32"))
    if pos.map.is_building_location(loc) and terrain is not Terrain.HUT:
        drms.append(DRM(-2, "WP vs a building", "A24.32"))
    drms += _fortified(pos, loc)
    return Check(f"WP fire start in {pos.loc_name(loc)} ({terrain.label}, Kindle # {terrain.kindle})", "A24.32",
                 needed=_kindle(terrain), drms=tuple(drms))


# ---------------------------------------------------------------------------
# MOL (A22.6111)

#: The rule that keeps a MOL thrower from breaking on a colored 6, by what the thrower is.
NEVER_BREAKS_RULE = {"hero": "A15.2", "berserk unit": "A15.42"}


@value
class MolFlames:
    """What a MOL attack's dice do to the terrain (A22.6111)."""

    thrower_breaks: bool
    flames: tuple[Location, ...]
    events: tuple[Event, ...]


def _mol_flame_ok(pos: Position, loc: Location, white: int, events: list[Event]) -> bool:
    name = pos.loc_name(loc)
    if not pos.map.is_burnable(loc):
        events.append(Event("A22.6111", f"no Flame in {name}: no Burnable Terrain", name))
        return False
    if pos.blaze_at(loc) is not None:
        events.append(Event("B25.15", f"no Flame in {name}: a Blaze already burns there (a Blaze removes the "
                            "Location's Flames)", name))
        return False
    blocked = no_flame_reason(pos, loc)
    if blocked is not None:
        events.append(Event("huts", f"no Flame in {name}: {blocked}", name))
        return False
    if pos.map.is_fortified(loc):
        drm, why = -1, "Fortified Building (B23.94)"
    elif not pos.map.is_building_location(loc) and pos.environment.ec_drm < 0:
        drm, why = pos.environment.ec_drm, f"{pos.environment.ec.label} EC (B25.5)"
    else:
        return True
    final = white + drm
    if final < 1:
        events.append(Event("A22.6111", f"no Flame in {name}: white dr {white} {drm:+d} {why} = {final}, "
                            "not ≥ 1", name))
        return False
    events.append(Event("A22.6111", f"white dr {white} {drm:+d} {why} = {final} ≥ 1", name))
    return True


def mol_flames(pos: Position, thrower: Location, target: Location, roll: Roll, *,
               never_breaks: str | None = None) -> MolFlames:
    """The Flames and the broken thrower a MOL attack's Original IFT DR causes (A22.6111).

    Colored dr 6: the thrower breaks and a Flame appears in his Location;
    colored dr 1: a Flame appears in the target Location.  Burnable Terrain
    only, and none where a Blaze already burns (B25.15); in a Fortified
    Building (−1) or a non-building Location in adverse weather (the EC DRM,
    when negative) the white dr must still be ≥ 1.

    *never_breaks* names what the thrower is when it cannot break —
    ``"hero"`` (A15.2), ``"berserk unit"`` (A15.42): neither rule lists a
    MOL among its exceptions, so on a colored 6 such a thrower does not
    break, but his FP and MOL are still voided and the Flame still appears
    (docs/rules.md).
    """
    if roll.white is None:
        raise IllegalAction("a MOL attack is resolved with a DR (colored and white dice), not a dr (A22.6111)")
    events: list[Event] = []
    flames: list[Location] = []
    six = roll.colored == 6
    breaks = six and never_breaks is None
    if six:
        where = pos.loc_name(thrower)
        if never_breaks is None:
            events.append(Event("A22.6111", f"colored dr 6: the MOL thrower in {where} breaks; his FP and MOL are "
                                "voided", where, kind="thrower-breaks"))
        else:
            events.append(Event(f"A22.6111, {NEVER_BREAKS_RULE.get(never_breaks, 'A15')}",
                                f"colored dr 6: the MOL thrower in {where} is a {never_breaks}, who never breaks; "
                                "his FP and MOL are voided all the same", where, kind="thrower-voided"))
        if _mol_flame_ok(pos, thrower, roll.white, events):
            flames.append(thrower)
    if roll.colored == 1 and _mol_flame_ok(pos, target, roll.white, events):
        flames.append(target)
    for loc in flames:
        events.append(Event("A22.6111", f"Flame in {pos.loc_name(loc)} (MOL colored dr {roll.colored})",
                            pos.loc_name(loc), kind="flame"))
    return MolFlames(breaks, tuple(flames), tuple(events))


# ---------------------------------------------------------------------------
# Huts


class HutAttack(enum.Enum):
    """Attacks that may set a hut on fire (Fire cheat sheet: huts)."""

    SMALL_ARMS_PBF_TPBF = "small-arms PBF/TPBF"
    MOL = "MOL"
    MG = "MG"
    IFE = "IFE"
    DC = "DC"
    HE = "HE"
    HE_EQUIVALENCY = "HE Equivalency"
    COLLATERAL = "Collateral/Residual FP"
    FT = "FT"
    SW_FIRED_IN_HUT = "PF/PFk/BAZ/PSK/RCL fired from the hut"


def hut_flame(attack: HutAttack, *, colored_dr: int | None = None, ft_effects_dr: int | None = None,
              ft_x_number: int | None = None, collapsed: bool = False, rain_has_fallen: bool = False) -> bool:
    """True if an attack vs (or from) a hut Location creates a Flame there (Fire cheat sheet: huts).

    Small Arms PBF/TPBF, MOL, MG, IFE, DC and HE do so on an Original
    colored dr of 1 (not HE Equivalency nor Collateral/Residual FP); a FT
    does so automatically when its Original Effects DR is below its X#; an
    ordnance SW fired from an uncollapsed hut always does.  After Rain, no
    Flame in a Collapsed hut.
    """
    if collapsed and rain_has_fallen:
        return False
    if attack is HutAttack.SW_FIRED_IN_HUT:
        return not collapsed
    if attack in (HutAttack.HE_EQUIVALENCY, HutAttack.COLLATERAL):
        return False
    if attack is HutAttack.FT:
        if ft_effects_dr is None or ft_x_number is None:
            raise IllegalAction("a FT vs a hut needs its Original Effects DR and X# (huts)")
        return ft_effects_dr < ft_x_number
    if colored_dr is None:
        raise IllegalAction(f"{attack.value} vs a hut needs the Original colored dr (huts)")
    return colored_dr == 1


def hut_fire_start(pos: Position, loc: Location, attack: HutAttack, *, original: Roll | None = None,
                   ft_x_number: int | None = None) -> tuple[Position, Report]:
    """Apply the huts fire start of one attack vs (or, for an ordnance SW, from) the hut Location *loc*.

    *original* is the attack's Original IFT DR (its colored dr decides for Small Arms PBF/TPBF, MOL, MG,
    IFE, DC and HE; its total is a FT's Original Effects DR, compared with *ft_x_number*).  A Flame needs
    no further DR (Fire cheat sheet: huts, via :func:`hut_flame`); none where a Blaze burns (B25.15) or
    in a Collapsed hut after Rain.

    :raises IllegalAction: *loc* is no hut Location, or the dice the attack needs are missing.
    """
    pos._check_location(loc)
    name = pos.loc_name(loc)
    if pos.map.terrain_at(loc) is not Terrain.HUT:
        raise IllegalAction(f"{name} holds {pos.map.terrain_at(loc).label}, not a hut (huts)")
    collapsed = pos.map.is_collapsed_hut(loc.hex)
    rain = pos.environment.rain_has_fallen
    title = f"Hut fire start in {name} ({attack.value})"
    if attack is HutAttack.FT:
        if original is None or original.white is None or ft_x_number is None:
            raise IllegalAction("a FT vs a hut needs its Original Effects DR and the FT's X# (huts)")
        why = f"FT Original Effects DR {original.total} {'<' if original.total < ft_x_number else '≥'} X# {ft_x_number}"
    elif attack is HutAttack.SW_FIRED_IN_HUT:
        why = "an ordnance SW fired " + ("from a Collapsed hut" if collapsed else "in the hut")
    elif attack in (HutAttack.HE_EQUIVALENCY, HutAttack.COLLATERAL):
        why = f"{attack.value} never sets a hut on fire"
    else:
        if original is None:
            raise IllegalAction(f"{attack.value} vs a hut needs the attack's Original DR (its colored dr, huts)")
        why = f"Original colored dr {original.colored}{'' if original.colored == 1 else ' (not 1)'}"
    # Rain is left to no_flame_reason below, which every fire start meets
    flame = hut_flame(attack, colored_dr=original.colored if original is not None else None,
                      ft_effects_dr=original.total if original is not None else None, ft_x_number=ft_x_number,
                      collapsed=collapsed)
    blocked = no_flame_reason(pos, loc)
    if flame and blocked is None:
        new = place_flame(pos, loc)
        return new, Report(title, (Event("huts", f"{why}: Flame in the hut in {name}", name, kind="flame"),))
    if flame and blocked is not None:
        why = f"{why}, but {blocked}"
    elif rain and collapsed:
        why = f"{why}; {no_flame_reason(pos, loc)}"
    return pos, Report(title, (Event("huts", f"{why}: no Flame in {name}", name, kind="no-flame"),))


def huts_fire_start(pos: Position, locs: Sequence[Location], attack: HutAttack, dice: Dice, *,
                    original: Roll | None = None, ft_x_number: int | None = None) -> tuple[Position, Report]:
    """The huts fire start of ONE attack that affected the hut Locations *locs* (an area of fire, Spraying
    Fire, a blast area…): its Flame result places one Flame, in the hut Location chosen by Random Selection
    when more than one could take it (Fire cheat sheet: huts).

    Random Selection is one dr per hut Location, made with *dice*; the highest takes the Flame, ties are
    rolled again among the tied (one Flame result, one Location).  Hut Locations where no Flame can be
    created (a Blaze, B25.15; a Collapsed hut after Rain) are no candidates.  A single Location is
    :func:`hut_fire_start`, with no roll.

    >>> from .terrain import Building, BuildingKind, Material
    >>> from .position import GameMap, HexInfo
    >>> from .hexes import Hex
    >>> from .dice import ScriptedDice
    >>> huts = [Building(n, Material.WOODEN, BuildingKind.HUT) for n in ("h1", "h2")]
    >>> m = GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.HUT, building="h1"),
    ...                         Hex.parse("A2"): HexInfo(Terrain.HUT, building="h2")}, huts)
    >>> new, rep = huts_fire_start(Position(m), [Location.parse("A1"), Location.parse("A2")], HutAttack.MG,
    ...                            ScriptedDice([3, 5]), original=Roll(1, 4))
    >>> [f.location.name for f in new.flames()]
    ['A2']

    :raises IllegalAction: a Location is no hut Location or is named twice, several Locations for a FT or an
        ordnance SW fired in a hut (each is one Location), or the dice the attack needs are missing.
    """
    if len(locs) == 1:
        return hut_fire_start(pos, locs[0], attack, original=original, ft_x_number=ft_x_number)
    if not locs:
        raise IllegalAction("a hut fire start needs the hut Location(s) the attack affected (huts)")
    if len(set(locs)) != len(locs):
        raise IllegalAction("a hut Location is named twice: one attack affects each Location once (huts)")
    if attack in (HutAttack.FT, HutAttack.SW_FIRED_IN_HUT):
        raise IllegalAction(f"{attack.value}: one hut Location, not {len(locs)} (huts)")
    names = ", ".join(pos.loc_name(loc) for loc in locs)
    title = f"Hut fire start in {names} ({attack.value})"
    # each Location is checked (a hut?) and answers alike: one attack, one Original DR
    answers = [hut_fire_start(pos, loc, attack, original=original) for loc in locs]
    candidates = [loc for loc, (new, _) in zip(locs, answers, strict=True) if new is not pos]
    if not candidates:
        return pos, Report(title, tuple(e for _, rep in answers for e in rep.events))
    events = [e for loc, (_, rep) in zip(locs, answers, strict=True) if loc not in candidates for e in rep.events]
    chosen = candidates
    while len(chosen) > 1:
        tied = chosen
        rolls = [dice.dr(f"Random Selection of the hut Flame: {pos.loc_name(loc)} (huts)") for loc in tied]
        chosen = [loc for loc, r in zip(tied, rolls, strict=True) if r.total == max(r.total for r in rolls)]
        shown = ", ".join(f"{pos.loc_name(loc)} {r.total}" for loc, r in zip(tied, rolls, strict=True))
        again = " again (a tie)" if len(tied) < len(candidates) else ""
        events.append(Event("huts", f"one Flame result, {len(tied)} hut Locations could take it: Random Selection"
                            f"{again}, {shown}", kind="selection"))
    new, rep = answers[locs.index(chosen[0])]
    return new, Report(title, (*events, *rep.events))


def he_fire_start(pos: Position, loc: Location, dice: Dice, *, original_kia: bool, attack_dr: Roll | None = None,
                  collateral: bool = False, vehicle_target_type: bool = False, created_rubble: bool = False,
                  he_equivalency: bool = False, dc: bool = False) -> tuple[Position, Report]:
    """After an HE/HEAT (or DC) attack on *loc*: the fire starts it may make (B25.13, huts).

    A hut Location first meets the huts rule: a Flame on the attack's Original colored dr 1 (*attack_dr*;
    never for HE Equivalency nor a Collateral attack, nor for an ordnance attack vs a vehicle).
    Otherwise an Original KIA makes the B25.13 DR (EC DRM unless a building), none from a Collateral
    Attack, the Vehicle Target Type or an attack that made rubble (rubble takes precedence).  One Flame
    per attack: when the hut rule placed it, no DR follows.
    """
    pos._check_location(loc)
    name = pos.loc_name(loc)
    title = f"{'DC' if dc else 'HE'} fire start in {name}"
    events: list[Event] = []
    new = pos
    # an ordnance attack vs a vehicle (Vehicle Target Type) is no attack vs the hut Location (B25.13)
    hut = pos.map.terrain_at(loc) is Terrain.HUT
    if hut and not (created_rubble or vehicle_target_type) and attack_dr is not None:
        kind = (HutAttack.COLLATERAL if collateral else HutAttack.HE_EQUIVALENCY if he_equivalency
                else HutAttack.DC if dc else HutAttack.HE)
        new, rep = hut_fire_start(pos, loc, kind, original=attack_dr)
        events += rep.events
        if new is not pos:
            return new, Report(title, tuple(events))
    check = he_fire_check(pos, loc, original_kia, collateral=collateral, vehicle_target_type=vehicle_target_type,
                          created_rubble=created_rubble)
    if check is None:
        why = ("the attack made rubble (rubble takes precedence)" if created_rubble else
               "a Collateral Attack" if collateral else "the Vehicle Target Type" if vehicle_target_type else
               no_flame_reason(pos, loc) or "no Original KIA")
        events.append(Event("B25.13", f"no HE fire-start DR in {name}: {why}", name))
        return new, Report(title, tuple(events))
    new, rep = resolve_fire_start(new, check, loc, dice)
    return new, Report(rep.title, (*events, *rep.events))


def wp_fire_start(pos: Position, loc: Location, dice: Dice, *, check_phase: bool = True) -> tuple[Position, Report]:
    """The WP fire DR of the player who placed WP in *loc*, made in his MPh (A24.32): Flame if the DR,
    −1 in Dry EC and −2 vs a building, reaches the Kindle #; only in Dry or Very Dry EC, except in a hut.

    :raises IllegalAction: outside the MPh (when *check_phase*).
    """
    pos._check_location(loc)
    name = pos.loc_name(loc)
    if check_phase and pos.clock.phase is not Phase.MPH:
        raise IllegalAction(f"the WP fire DR is made in the placing player's MPh, not the {pos.clock.phase.value} "
                            "(A24.32)")
    check = wp_fire_check(pos, loc)
    if check is None:
        why = no_flame_reason(pos, loc) or f"EC are {pos.environment.ec.label}, not Dry or Very Dry"
        return pos, Report(f"WP fire start in {name}", (Event("A24.32", f"no WP fire DR in {name}: {why}", name),))
    return resolve_fire_start(pos, check, loc, dice)


# ---------------------------------------------------------------------------
# Wreck Blaze (B25.14)


class WreckCause(enum.Enum):
    FT_OR_MOL = "FT or MOL attack"
    TO_KILL = "To Kill DR"
    IFT = "IFT DR vs a vehicle"
    CLOSE_COMBAT = "CC attack"
    UNLIKELY_KILL = "Unlikely Kill"


def wreck_blaze(cause: WreckCause, roll: int, number: int) -> tuple[bool, str]:
    """Whether an eliminated vehicle becomes a Burning Wreck (B25.14), and why.

    *number* is the kill number for FT/MOL, the Final TK# for To Kill, the
    ★ Vehicle IFT # for IFT, the highest DR that kills in CC; for an
    Unlikely Kill pass the follow-up dr as *roll* (after a 2 DR) and
    *number* is ignored.

    >>> wreck_blaze(WreckCause.TO_KILL, 4, 8)
    (True, 'To Kill DR 4 ≤ half of Final TK# 8 (B25.14)')
    """
    if cause is WreckCause.FT_OR_MOL:
        ok = roll < number
        return ok, f"{cause.value} DR {roll} {'<' if ok else '≥'} kill number {number} (B25.14)"
    if cause is WreckCause.UNLIKELY_KILL:
        ok = roll == 1
        return ok, f"Unlikely Kill follow-up dr {roll}{' = 1' if ok else ' ≠ 1'} (B25.14, A7.309)"
    half = number / 2
    ok = roll <= half
    dr_name, what = {WreckCause.TO_KILL: ("To Kill", "Final TK#"), WreckCause.IFT: ("IFT", "★ Vehicle IFT #"),
                     WreckCause.CLOSE_COMBAT: ("CC", "the highest CC DR that kills")}[cause]
    return ok, f"{dr_name} DR {roll} {'≤' if ok else '>'} half of {what} {number} (B25.14)"


def add_burning_wreck(pos: Position, loc: Location, *, name: str = "Wreck", bypass: object = None) -> Position:
    """A new Burning Wreck (Blaze on the Wreck) in *loc* this Player Turn (B25.14)."""
    from .hexes import Direction

    pos._check_location(loc)
    d = Direction(int(bypass)) if bypass is not None else None  # type: ignore[call-overload]
    return replace(pos, wrecks=(*pos.wrecks, Wreck(loc, True, d, name, pos.clock.player_turn)))
