"""Flame Clearance (B24.7–.721): ≤ 2 clears the Flame, 3–6 Hampers it.

>>> from .position import GameMap, HexInfo, Position, Fire, FireKind, Phase, Clock
>>> from .hexes import Hex
>>> from .terrain import Terrain
>>> loc = Location(Hex.parse("A1"))
>>> pos = Position(GameMap.from_hexes({loc.hex: HexInfo(Terrain.WOODS)}), clock=Clock(phase=Phase.MPH),
...                fires=(Fire(loc, FireKind.FLAME),))
>>> clearance_check(pos, loc, squads=1).drms[0].value
-1
"""

from __future__ import annotations

from fractions import Fraction

from .dice import Dice, chance_dr_at_most
from .errors import IllegalAction
from .explain import DRM, Check, CheckResult, Event, Report
from .position import Location, Phase, Position
from .values import replace

__all__ = ["clearance_attempt", "clearance_check", "clearance_odds"]


def clearance_check(pos: Position, loc: Location, *, squads: int = 0, half_squads: int = 0, leader_drm: int = 0,
                    labor_drm: int = 0, dozers: int = 0, heroes: int = 0, check_phase: bool = True) -> Check:
    """The Clearance DR vs one Flame (B24.7): success clears it (Final ≤ 2); 3–6 Hampers it.

    DRMs: labor status; a directing leader's modifier; −1 when the first
    MMC is a squad; −1 per further HS/crew, −2 per further squad; the EC
    DRM; −5 per Dozer; −1 per hero taking part, who may use his heroic DRM
    for Clearance (A15.24; cumulative with leadership and other heroes, so a
    hero may also clear alone, as unpinned Good Order Infantry).  Infantry
    clear in their MPh or DFPh.

    :raises IllegalAction: no Flame there, wrong phase, or nobody clearing.
    """
    name = pos.loc_name(loc)
    if not pos.flames_at(loc):
        what = "a Blaze, which cannot be extinguished (B25.7)" if pos.blaze_at(loc) else "no Flame"
        raise IllegalAction(f"{name} holds {what}: nothing to clear (B24.7)")
    if check_phase and pos.clock.phase not in (Phase.MPH, Phase.DFPH):
        raise IllegalAction(f"Clearance is attempted in the MPh or DFPh, not the {pos.clock.phase.value} (B24.7)")
    if min(squads, half_squads, dozers, heroes) < 0:
        raise IllegalAction("Clearance counts units: squads, HS/crews, Dozers and heroes are 0 or more")
    if squads + half_squads + dozers + heroes <= 0:
        raise IllegalAction("Clearance needs at least one unpinned Good Order Infantry unit or Dozer (B24.7)")
    drms: list[DRM] = []
    if labor_drm:
        drms.append(DRM(labor_drm, "Labor status", "B24.7"))
    if leader_drm:
        drms.append(DRM(leader_drm, "leadership", "B24.7"))
    extra_squads, extra_hs = squads, half_squads
    if squads:
        drms.append(DRM(-1, "Clearance by a squad", "B24.7"))
        extra_squads -= 1
    elif half_squads:
        extra_hs -= 1
    if extra_hs:
        drms.append(DRM(-extra_hs, f"{extra_hs} more HS/crew", "B24.7"))
    if extra_squads:
        drms.append(DRM(-2 * extra_squads, f"{extra_squads} more squad(s)", "B24.7"))
    if pos.environment.ec_drm:
        drms.append(DRM(pos.environment.ec_drm, f"{pos.environment.ec.label} EC", "B24.7"))
    if dozers:
        drms.append(DRM(-5 * dozers, f"{dozers} Dozer(s)", "B24.7"))
    if heroes:
        drms.append(DRM(-heroes, "heroic DRM" if heroes == 1 else f"heroic DRM of {heroes} heroes", "A15.24"))
    return Check(f"Clearance of the Flame in {name}", "B24.7", needed=2, drms=tuple(drms), at_most=True)


def clearance_odds(check: Check) -> tuple[Fraction, Fraction]:
    """(chance to clear, chance to Hamper) of a Clearance check."""
    clear = check.chance
    hamper = chance_dr_at_most(6 - check.total_drm) - clear
    return clear, hamper


def clearance_attempt(pos: Position, loc: Location, dice: Dice, *, squads: int = 0, half_squads: int = 0,
                      leader_drm: int = 0, labor_drm: int = 0, dozers: int = 0, heroes: int = 0,
                      check_phase: bool = True, flame: int | None = None) -> tuple[Position, Report]:
    """Roll Clearance vs one Flame in *loc*: remove it, Hamper it (no Blaze this Player Turn), or nothing.

    Each Flame of a Location is cleared separately with its own DR (B24.7, Fire cheat sheet): *flame*
    (1, 2, … in the Location's order) names the one attempted; by default the first not yet Hampered, so
    that a second attempt reaches a second Flame.

    :raises IllegalAction: as :func:`clearance_check`, or for a *flame* the Location does not hold.
    """
    check = clearance_check(pos, loc, squads=squads, half_squads=half_squads, leader_drm=leader_drm,
                            labor_drm=labor_drm, dozers=dozers, heroes=heroes, check_phase=check_phase)
    flames = pos.flames_at(loc)
    if flame is not None and not 1 <= flame <= len(flames):
        raise IllegalAction(f"{pos.loc_name(loc)} holds {len(flames)} Flame(s): no Flame {flame} to clear (B24.7)")
    target = flames[flame - 1] if flame is not None else next((f for f in flames if not f.hampered), flames[0])
    roll = dice.DR(f"Clearance {pos.loc_name(loc)} (B24.7)")
    final = roll.total + check.total_drm
    fires = list(pos.fires)
    name = pos.loc_name(loc)
    what = name
    if len(flames) > 1:
        what = f"{name} (Flame {flames.index(target) + 1 if flame is None else flame} of {len(flames)})"
    if final <= 2:
        fires.remove(target)
        ev = Event("B24.72", f"Flame in {what} cleared", name, CheckResult(check, roll, "cleared"), kind="cleared")
    elif final <= 6:
        fires[fires.index(target)] = replace(target, hampered=True)
        ev = Event("B24.721", f"Flame in {what} Hampered: no Blaze this Player Turn (mark it with a PIN)", name,
                   CheckResult(check, roll, "Hampered"), kind="hampered")
    else:
        ev = Event("B24.7", f"Flame in {what} not cleared", name, CheckResult(check, roll, "no effect"))
    return replace(pos, fires=tuple(fires)), Report(check.name, (ev,))


