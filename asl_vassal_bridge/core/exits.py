"""Units in a terrain Blaze (B25.4): who must leave, by when, and who is eliminated.

Units are moved by hand; this is a report.
"""

from __future__ import annotations

from .environment import WindForce
from .explain import Event, Report
from .position import Location, Phase, Position, Unit, UnitKind
from .values import value

__all__ = ["BlazeFate", "blaze_fates", "blaze_report", "may_enter"]


@value
class BlazeFate:
    """What B25.4 asks of one unit in a terrain Blaze."""

    unit: Unit
    deadline: str
    options: str
    eliminated_now: bool = False


def _in_blaze(pos: Position, u: Unit) -> bool:
    """A unit is in the Blaze of its Location; a pillbox's occupants, though in a separate Location, in a
    Blaze at the ground level of its hex (B25.4)."""
    where = Location(u.location.hex) if u.in_pillbox else u.location
    return pos.blaze_at(where) is not None


def blaze_fates(pos: Position) -> list[BlazeFate]:
    """Each unit in a terrain Blaze Location and what it must do (B25.4).

    Infantry leave by the end of the next RtPh or die; unbroken ones may
    break voluntarily to rout; non-pinned ones unable to do so may leave as
    if Withdrawing from Melee, even berserk (a berserk unit is never pinned,
    A15.42, whatever marker lies on it); pinned units and units in Melee
    cannot leave in the RtPh and are eliminated.  Vehicles and Cavalry leave
    in their next friendly MPh; a vehicle that cannot move (Immobilized)
    cannot leave and is eliminated then, not at once.  A Gun, which B25.4 does not name, must be
    pushed or towed out in its side's next MPh (docs/rules.md).  Pillbox
    occupants share the ground-level Blaze of their hex.
    """
    out = []
    for u in pos.units:
        if not _in_blaze(pos, u):
            continue
        if u.kind is UnitKind.VEHICLE and u.immobilized:
            mph = pos.clock.phase is Phase.MPH and pos.attacker == u.side
            out.append(BlazeFate(u, f"its next friendly MPh ({u.side})", "Immobilized: it cannot leave the Blaze "
                                 "and is eliminated in its next friendly MPh", eliminated_now=mph))
        elif u.kind is UnitKind.GUN:
            out.append(BlazeFate(u, f"its side's next MPh ({u.side})", "be pushed or towed out of the Blaze, or be "
                                 "eliminated (B25.4 names no Gun; read as a unit that moves only in the MPh)"))
        elif not u.kind.is_infantry:
            out.append(BlazeFate(u, f"its next friendly MPh ({u.side})", "leave the Blaze or be eliminated"))
        elif u.is_pinned or u.in_melee:
            out.append(BlazeFate(u, "the next RtPh", "pinned or in Melee: cannot leave during the RtPh and is "
                                 "eliminated", eliminated_now=pos.clock.phase.value == "RtPh"))
        elif u.broken:
            out.append(BlazeFate(u, "the end of the next RtPh", "rout out of the Blaze or be eliminated"))
        elif u.may_break_voluntarily and not u.berserk and u.kind is not UnitKind.HERO:
            out.append(BlazeFate(u, "the end of the next RtPh", "move out, or break voluntarily and rout out, or be "
                                 "eliminated"))
        else:
            out.append(BlazeFate(u, "the end of the next RtPh", "may move in the RtPh into an Accessible Location "
                                 "as if Withdrawing from Melee (A11.2), else eliminated"))
    return out


def blaze_report(pos: Position) -> Report:
    """The B25.4 report for the RtPh/MPh."""
    events = tuple(
        Event("B25.4", f"{f.unit.name} ({f.unit.side}) in the Blaze in {pos.loc_name(f.unit.location)}: "
              f"{f.options}; deadline {f.deadline}", pos.loc_name(f.unit.location),
              kind="eliminated" if f.eliminated_now else "must-leave")
        for f in blaze_fates(pos)
    )
    return Report(f"Units in Blazes (B25.4), {pos.clock}", events)


def may_enter(pos: Position, loc: Location, *, ground_unit: bool = True, scaling: bool = False) -> tuple[bool, str]:
    """Whether a ground unit may enter *loc* without being eliminated (B25.4), and the Burning Wreck's
    extra MF/MP for its smoke (B25.141; none in Heavy Winds, whose smoke has no effect, B25.63).  A
    Commando *scaling* the outside of a building may not enter a level holding a Blaze (B23.424)."""
    if scaling and pos.blaze_at(loc) is not None:
        return False, f"Scaling into {pos.loc_name(loc)}, a building level with a Blaze, is not allowed (B23.424)"
    if ground_unit and pos.blaze_at(loc) is not None:
        return False, f"entering the Blaze in {pos.loc_name(loc)} eliminates a ground unit (B25.4)"
    if any(w.burning and w.location == loc for w in pos.wrecks):
        if pos.environment.wind.force is WindForce.HEAVY_WINDS:
            return True, (f"a Burning Wreck in {pos.loc_name(loc)}: no extra MF/MP for smoke in Heavy Winds "
                          "(B25.141, B25.63)")
        return True, f"a Burning Wreck in {pos.loc_name(loc)}: one extra MF/MP for its smoke (B25.141)"
    return True, "no fire restriction"
