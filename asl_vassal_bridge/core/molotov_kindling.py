"""A MOL used to kindle a fire (A22.613; a step of :mod:`.molotov`): the odds of the kindling attempt and the
attempt itself."""

from __future__ import annotations

from fractions import Fraction

from .dice import Dice
from .errors import IllegalAction
from .explain import Check, CheckResult, Event, Report
from .firestarts import kindling_attempt, kindling_check
from .molotov_plan import mol_check
from .position import Location, Position, UnitKind
from .values import value

__all__ = ["MolKindlingOdds", "mol_kindling_attempt", "mol_kindling_odds"]


@value
class MolKindlingOdds:
    """A Kindling attempt helped by a MOL (A22.613): the MOL Check, the Kindling DR with and without the +2,
    and the exact chance of a Flame with the MOL Check folded in."""

    mol_check: Check
    with_mol: Check
    without_mol: Check

    @property
    def chance(self) -> Fraction:
        """P(MOL Check passes) × P(Flame with +2) + P(it fails) × P(Flame without it)."""
        p = self.mol_check.chance
        return p * self.with_mol.chance + (1 - p) * self.without_mol.chance

    def describe(self) -> str:
        return (f"{self.mol_check.describe()}\n"
                f"  passed: {self.with_mol.describe()}\n"
                f"  failed: {self.without_mol.describe()}\n"
                f"Flame, the MOL Check included (A22.613): {self.chance} ({float(self.chance):.1%})")


def mol_kindling_odds(pos: Position, loc: Location, unit: UnitKind, *, leader_drm: int | None = None,
                      cx: bool = False, check_phase: bool = False, **kw: bool) -> MolKindlingOdds:
    """The odds of a Kindling attempt by a unit that may have a MOL (A22.613, A22.611, B25.11).

    Only a unit with a MOL, ascertained by the MOL Check dr (vs a non-AFV: +1; HS/crew +1, SMC +2, CX +1),
    adds +2 to its Kindling DR; so the chance folds the MOL Check in.  A SMC's +2 and the +1 vs a non-AFV
    leave it no dr that passes: its chance is that of a plain Kindling attempt.

    >>> from .hexes import Hex
    >>> from .position import GameMap, HexInfo
    >>> from .terrain import Terrain
    >>> p = Position(GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.WOODS)}))
    >>> o = mol_kindling_odds(p, Location(Hex.parse("A1")), UnitKind.SQUAD, leader_drm=0)
    >>> o.mol_check.chance, o.with_mol.chance, o.without_mol.chance, o.chance
    (Fraction(1, 3), Fraction(7, 12), Fraction(5, 18), Fraction(41, 108))
    """
    with_mol = kindling_check(pos, loc, unit, leader_drm=leader_drm, has_mol=True, check_phase=check_phase, **kw)
    without = kindling_check(pos, loc, unit, leader_drm=leader_drm, has_mol=False, check_phase=check_phase, **kw)
    return MolKindlingOdds(mol_check(unit, cx=cx, vs_afv=False), with_mol, without)


def mol_kindling_attempt(pos: Position, loc: Location, unit: UnitKind, dice: Dice, *, side: str,
                         leader_drm: int | None = None, cx: bool = False, available: bool = True,
                         **kw: bool) -> tuple[Position, Report]:
    """A Kindling attempt helped by a MOL (A22.613, B25.11): first the MOL Check dr (vs a non-AFV), then the
    Kindling DR with +2 if the Check passed.  A failed Check still allows the attempt, without the +2; the
    user never breaks for it.

    :raises IllegalAction: when MOL are not available (A22.6) or the Kindling attempt is not allowed (B25.11).
    """
    if not available:
        raise IllegalAction("MOL are available only when an SSR or DYO purchase provides them (A22.6)")
    kw.pop("check_phase", None)
    if side not in pos.sides:
        raise IllegalAction(f"the kindling side {side!r} is not one of the position's sides {list(pos.sides)}")
    # Refuse before any die is rolled: the Kindling attempt's own rules (phase included, B25.11) come first.
    kindling_check(pos, loc, unit, leader_drm=leader_drm, check_phase=True, **kw)
    if side != pos.attacker:
        raise IllegalAction(f"Kindling is made in the kindling side's own PFPh (B25.11): it is the "
                            f"{pos.attacker} PFPh, not the {side}")
    check = mol_check(unit, cx=cx, vs_afv=False)
    roll = dice.dr(f"MOL Check for Kindling in {pos.loc_name(loc)} (A22.613)")
    passed = check.succeeds(roll.total + check.total_drm)
    ev = Event("A22.613", "MOL Check for Kindling", pos.loc_name(loc),
               CheckResult(check, roll, "MOL: +2 to the Kindling DR" if passed else "no MOL: no DRM"),
               kind="mol-check")
    new, rep = kindling_attempt(pos, loc, unit, dice, side=side, leader_drm=leader_drm, has_mol=passed, **kw)
    note = Event("A22.613", "no risk of breaking for using a MOL to Kindle")
    return new, Report(rep.title, (ev, *rep.events, note))
