"""Flamethrower attacks (A22.1–A22.5), from declaration to consequence.

:func:`ft_attack` takes a declaration (:class:`FtAttack`) and either refuses
it (:class:`~.errors.IllegalAction` naming the rule) or returns a
:class:`FtPlan`: the FP and IFT column, the DRMs with their rules, the Final
TK# vs an AFV and the malfunction number.  :func:`resolve_ft_attack` takes
that plan and dice (plus the IFT result, which our rule texts cannot look up)
and returns an :class:`AttackOutcome`: the new Position (Flame, Burning
Wreck placed) and the unit-level :class:`Consequence` list (FT removed,
AFV eliminated, Collateral attacks still to make).

The consequence types here are shared with :mod:`.molotov`.

>>> from .position import GameMap, HexInfo, Position
>>> from .terrain import Terrain
>>> pos = Position(GameMap.from_hexes({Hex.parse("A1"): HexInfo(), Hex.parse("A2"): HexInfo(Terrain.WOODS)}))
>>> plan = ft_attack(pos, FtAttack(Location(Hex.parse("A1")), Location(Hex.parse("A2"))))
>>> plan.fp, plan.column, plan.malfunction_x
(24, 24, 10)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .dice import Dice, Roll
from .environment import WindForce
from .errors import BadInput, IllegalAction
from .explain import DRM, Event, Report, format_drms
from .firestarts import (
    HutAttack,
    WreckCause,
    add_burning_wreck,
    ft_fire_check,
    hut_fire_start,
    resolve_fire_start,
    wreck_blaze,
)
from .hexes import Hex
from .position import Location, Phase, Position, Unit, UnitKind, Wreck
from .smoke import smoke_hindrance
from .terrain import Terrain
from .values import field, replace, value

__all__ = [
    "IFT_COLUMNS",
    "AttackOutcome",
    "Consequence",
    "ConsequenceKind",
    "FtAttack",
    "FtPlan",
    "break_unit",
    "ft_attack",
    "ft_possessor_attack",
    "ft_vulnerability_drm",
    "ift_column",
    "resolve_ft_attack",
]

#: The IFT FP columns.
IFT_COLUMNS: tuple[int, ...] = (1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36)


def ift_column(fp: float) -> int | None:
    """The IFT column an attack of *fp* FP uses (the largest column not above it), None below 1 FP.

    >>> ift_column(10), ift_column(13), ift_column(24), ift_column(50)
    (8, 12, 24, 36)
    """
    cols = [c for c in IFT_COLUMNS if c <= fp]
    return cols[-1] if cols else None


def shift_column(column: int | None, left: int) -> int | None:
    """The column *left* columns to the left (cowering, A7.9); None if it falls off the table."""
    if column is None:
        return None
    i = IFT_COLUMNS.index(column) - left
    return IFT_COLUMNS[i] if i >= 0 else None


# ---------------------------------------------------------------------------
# Consequences (shared with molotov.py)


class ConsequenceKind(enum.Enum):
    """What an A22 attack leaves behind, for the live bridge to place as VASL counters.

    Terrain consequences (``FLAME``, ``BURNING_WRECK``, ``WRECK``) are also
    already applied to :attr:`AttackOutcome.position`; unit consequences
    (``THROWER_BROKEN``, ``FT_REMOVED``, ``AFV_ELIMINATED``) name the unit by
    its id; attack consequences (``IFT_ATTACK``, ``COLLATERAL_ATTACK``) are
    attacks whose result the players read off the IFT.
    """

    FLAME = "flame"  # a Flame counter in `location`
    BURNING_WRECK = "burning-wreck"  # `unit` (an AFV) is eliminated; a Wreck with a Blaze in `location`
    WRECK = "wreck"  # `unit` (an AFV) is eliminated; a Wreck (not burning) in `location`
    AFV_ELIMINATED = "afv-eliminated"  # `unit` is removed (comes with BURNING_WRECK or WRECK)
    THROWER_BROKEN = "thrower-broken"  # `unit` breaks (flip to its broken side)
    FT_REMOVED = "ft-removed"  # the FT possessed by `unit` is removed from play
    ATTACK_CANCELLED = "attack-cancelled"  # the attack (or the thrower's share of it) is voided
    IFT_ATTACK = "ift-attack"  # an IFT attack vs the units in `location`: `fp`, `column`, `final_dr`
    COLLATERAL_ATTACK = "collateral-attack"  # a Specific Collateral attack vs Vulnerable PRC of `unit`
    TK_EQUAL = "tk-equal"  # To Kill DR = Final TK#: effects beyond our texts (C7)


@value
class Consequence:
    """One consequence of an attack: what, where, to which unit, under which rule.

    *unit* is the id given in the declaration (``firer_id``, ``afv_id``…);
    for attacks *fp*, *column*, *drm* and *final_dr* say how to read the IFT
    and *result* is the IFT result when it was given.
    """

    kind: ConsequenceKind
    rule: str
    text: str
    location: Location | None = None
    unit: str | None = None
    fp: float | None = None
    column: int | None = None
    drm: int | None = None
    final_dr: int | None = None
    result: str | None = None

    def describe(self) -> str:
        return f"{self.kind.value}: {self.text} ({self.rule})"

    def as_data(self, pos: Position) -> dict[str, Any]:
        """Plain data (JSON-ready); the Location is named with *pos*'s map."""
        return {"kind": self.kind.value, "rule": self.rule, "text": self.text,
                "location": pos.loc_name(self.location) if self.location is not None else None, "unit": self.unit,
                "fp": self.fp, "column": self.column, "drm": self.drm, "final_dr": self.final_dr,
                "result": self.result}


def ft_possessor_attack(attack: Consequence, ft_count: int) -> Consequence | None:
    """The same IFT attack as resolved vs a Personnel unit of the Location possessing *ft_count* FT: its
    Final DR one lower per FT (A22.4), or None when no target possesses a FT.

    >>> c = Consequence(ConsequenceKind.IFT_ATTACK, "A22.1", "FT attack vs the units in A2", fp=24, column=24,
    ...                 drm=0, final_dr=7)
    >>> ft_possessor_attack(c, 1).final_dr
    6
    """
    drm = ft_vulnerability_drm(ft_count)
    if drm is None:
        return None
    final = None if attack.final_dr is None else attack.final_dr + drm.value
    return Consequence(ConsequenceKind.IFT_ATTACK, "A22.4", f"the same attack vs the unit possessing {ft_count} FT: "
                       f"{drm.value:+d} to its IFT DR" + (f", Final DR {final}" if final is not None else ""),
                       attack.location, attack.unit, fp=attack.fp, column=attack.column,
                       drm=None if attack.drm is None else attack.drm + drm.value, final_dr=final)


@value(slots=False)
class AttackOutcome:
    """The new Position (Flames, Wrecks placed) and the consequences, in order, with the report."""

    position: Position
    consequences: tuple[Consequence, ...]
    report: Report
    original_dr: Roll | None = None

    def of_kind(self, kind: ConsequenceKind) -> list[Consequence]:
        return [c for c in self.consequences if c.kind is kind]

    def has(self, kind: ConsequenceKind) -> bool:
        return any(c.kind is kind for c in self.consequences)

    def as_data(self) -> dict[str, Any]:
        """The consequences, report events and Original DR as plain data (JSON-ready)."""
        r = self.original_dr
        return {"consequences": [c.as_data(self.position) for c in self.consequences],
                "events": event_data(self.report.events),
                "original_dr": None if r is None else {"colored": r.colored, "white": r.white, "total": r.total}}

    def text(self) -> str:
        lines = [self.report.text()]
        if self.consequences:
            lines.append("Consequences:")
            lines += [f"  {c.describe()}" for c in self.consequences]
        return "\n".join(lines)


def drm_data(drms: Sequence[DRM]) -> list[dict[str, Any]]:
    """DRMs as plain data: ``[{"value": 1, "reason": "CX firer", "rule": "A22.2"}]``."""
    return [{"value": d.value, "reason": d.reason, "rule": d.rule} for d in drms]


def event_data(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Events as plain data (rule, text, kind, location; a roll's dice and Final result when there is one)."""
    out = []
    for e in events:
        d: dict[str, Any] = {"rule": e.rule, "text": e.text, "kind": e.kind, "location": e.location}
        if e.roll is not None:
            d["roll"] = {"colored": e.roll.roll.colored, "white": e.roll.roll.white, "final": e.roll.final,
                         "outcome": e.roll.outcome, "drms": drm_data(e.roll.check.drms)}
        out.append(d)
    return out


def break_unit(pos: Position, unit_id: str) -> Position:
    """Mark the Position's unit *unit_id* broken, if the Position holds it (units are optional)."""
    units = tuple(replace(u, broken=True) if u.id == unit_id else u for u in pos.units)
    return pos.with_(units=units) if units != pos.units else pos


def remove_unit(pos: Position, unit_id: str) -> Position:
    units = tuple(u for u in pos.units if u.id != unit_id)
    return pos.with_(units=units) if len(units) != len(pos.units) else pos


def add_wreck(pos: Position, loc: Location, name: str) -> Position:
    """A Wreck that does not burn (an AFV eliminated without a Wreck Blaze)."""
    pos._check_location(loc)
    return pos.with_(wrecks=(*pos.wrecks, Wreck(loc, False, None, name, pos.clock.player_turn)))


def afv_kill(pos: Position, loc: Location, afv: str, to_kill_dr: int, final_tk: int, rule: str, *,
             equal_eliminates: bool) -> tuple[Position, list[Consequence], list[Event]]:
    """Resolve an FT/MOL To Kill DR vs an AFV (A22.34, A22.612, B25.14).

    DR < Final TK#: eliminated as a Burning Wreck (B25.14).  DR = Final TK#:
    eliminated without a Blaze when *equal_eliminates* (MOL, A22.612),
    otherwise reported as :attr:`ConsequenceKind.TK_EQUAL`.
    """
    name = pos.loc_name(loc)
    if to_kill_dr < final_tk:
        _, why = wreck_blaze(WreckCause.FT_OR_MOL, to_kill_dr, final_tk)
        new = add_burning_wreck(pos, loc, name=f"{afv} wreck")
        new = remove_unit(new, afv)
        why = why.removesuffix(" (B25.14)")
        cons = [Consequence(ConsequenceKind.AFV_ELIMINATED, rule, f"{afv} eliminated", loc, afv),
                Consequence(ConsequenceKind.BURNING_WRECK, "B25.14", f"{afv} is a Burning Wreck in {name}: {why}",
                            loc, afv)]
        return new, cons, [Event("B25.14", f"To Kill DR {to_kill_dr} < Final TK# {final_tk}: {afv} eliminated, "
                                 "Burning Wreck", name, kind="burning-wreck")]
    if to_kill_dr == final_tk:
        if equal_eliminates:
            new = remove_unit(add_wreck(pos, loc, f"{afv} wreck"), afv)
            cons = [Consequence(ConsequenceKind.AFV_ELIMINATED, rule, f"{afv} eliminated (PRC Survival may apply)",
                                loc, afv),
                    Consequence(ConsequenceKind.WRECK, rule, f"{afv} is a Wreck in {name} (not burning)", loc, afv)]
            return new, cons, [Event(rule, f"To Kill DR {to_kill_dr} = Final TK# {final_tk}: {afv} eliminated, "
                                     "not burning", name, kind="wreck")]
        cons = [Consequence(ConsequenceKind.TK_EQUAL, "C7", f"To Kill DR {to_kill_dr} = Final TK# {final_tk}: "
                            "apply the C7 To Kill Table's result for an equal DR (not in our texts)", loc, afv)]
        return pos, cons, [Event("C7", f"To Kill DR {to_kill_dr} = Final TK# {final_tk}", name)]
    return pos, [], [Event(rule, f"To Kill DR {to_kill_dr} > Final TK# {final_tk}: {afv} not destroyed", name)]


def _require_dr(roll: Roll, what: str) -> Roll:
    if roll.white is None:
        raise BadInput(f"{what} needs a DR (two dice), not a dr")
    return roll


# ---------------------------------------------------------------------------
# The FT attack


@value
class FtAttack:
    """A FT attack declaration (A22.1–A22.5).

    *firer* and *target* are Locations of the Position's map; range and
    level difference come from the map unless *range* / *level_difference*
    override them.  *firer_kind* VEHICLE means a vehicular FT (*underscored*:
    Normal Range 2, D1.8).  *with_wind* overrides whether the LOF runs
    straight down the Wind Direction (B25.63).  *cower_columns* is how far
    the attack shifts left on doubles (A7.9: 1, 2 for Inexperienced, 0 when
    the firer does not cower).  *hindrance_drm* is a LOS Hindrance other than
    the fires' smoke, which is read off the Position
    (:func:`~.smoke.smoke_hindrance`).  *pillbox_non_ca_tem* is the pillbox TEM when
    the attack is a non-CA attack on a pillbox (B30.113, the only TEM a FT
    attack uses).  Vs an AFV give *basic_tk*, the Basic TK# from the C7.34 HE
    & Flame To Kill Table (not in our texts).  *extra_drms* are further DRMs
    the caller knows of (e.g. FFNAM); they are listed, not checked.
    A *berserk* firer never fires in its PFPh nor as Opportunity Fire (*opportunity_fire*, A15.432).
    """

    firer: Location
    target: Location
    firer_kind: UnitKind = UnitKind.SQUAD
    firer_id: str = "FT firer"
    underscored: bool = False
    elite: bool = True
    captured: bool = False
    pinned: bool = False
    cx: bool = False
    area_fire: bool = False
    cower_columns: int = 1
    hindrance_drm: int = 0
    los_obstructed: bool = False
    with_wind: bool | None = None
    fire_group: bool = False
    overrun: bool = False
    used_ft_or_dc_this_turn: bool = False
    vs_descending_paratroops: bool = False
    pillbox_non_ca_tem: int | None = None
    leader_drm: int = 0
    heroic: bool = False
    vs_afv: bool = False
    predesignated: bool = False
    basic_tk: int | None = None
    afv_ce: bool = False
    afv_ot: bool = False
    vulnerable_prc: bool = False
    afv_id: str = "AFV"
    extra_drms: tuple[DRM, ...] = ()
    range: int | None = None
    level_difference: Fraction | int | None = None
    target_ft: int = 0
    berserk: bool = False
    opportunity_fire: bool = False

    @property
    def vehicular(self) -> bool:
        return self.firer_kind is UnitKind.VEHICLE

    @classmethod
    def by_unit(cls, unit: Unit, target: Location, **kw: Any) -> FtAttack:
        """The declaration of *unit* firing its FT at *target* (Location, kind, id and pinned from the unit)."""
        return cls(unit.location, target, firer_kind=unit.kind, firer_id=unit.id, pinned=unit.pinned, **kw)


@value
class FtPlan:
    """What a legal FT attack is: FP, IFT column, DRMs, Final TK#, malfunction number, notes."""

    attack: FtAttack
    range: int
    long_range: bool
    level_difference: Fraction
    fp: float
    column: int | None
    drms: tuple[DRM, ...]
    malfunction_x: int | None
    final_tk: int | None
    notes: tuple[Event, ...] = field(default_factory=tuple)

    @property
    def total_drm(self) -> int:
        return sum(d.value for d in self.drms)

    def as_data(self, pos: Position) -> dict[str, Any]:
        """The plan as plain data (JSON-ready)."""
        a = self.attack
        return {"attack": "FT", "legal": True, "firer": pos.loc_name(a.firer), "target": pos.loc_name(a.target),
                "range": self.range, "long_range": self.long_range,
                "level_difference": _levels_data(self.level_difference),
                "fp": self.fp, "column": self.column, "drms": drm_data(self.drms), "total_drm": self.total_drm,
                "final_tk": self.final_tk, "malfunction_x": self.malfunction_x, "notes": event_data(self.notes)}

    def describe(self, pos: Position) -> str:
        a = self.attack
        lines = [f"FT attack {pos.loc_name(a.firer)} → {pos.loc_name(a.target)}: range {self.range} "
                 f"({'Long' if self.long_range else 'Normal'} Range), "
                 f"level difference {_fmt_levels(self.level_difference)}"]
        if a.vs_afv:
            who = "the AFV" if a.afv_id == "AFV" else a.afv_id
            lines.append(f"  vs {who}: Final TK# {self.final_tk} (C7.34 HE & Flame To Kill Table, A22.34); "
                         "kills on a To Kill DR < Final TK#")
        else:
            lines.append(f"  FP {_fmt(self.fp)} → IFT column {self.column}")
            lines.append(f"  DRM: {format_drms(self.drms)} (total {self.total_drm:+d})")
        if self.malfunction_x is not None:
            lines.append(f"  malfunction: Original DR ≥ {self.malfunction_x} removes the FT after the attack (A22.5)")
        lines += [f"  {e.describe()}" for e in self.notes]
        return "\n".join(lines)


def _fmt_levels(levels: Fraction) -> str:
    """A level difference with its sign, half levels as ½ (rooftops, B23.8): ``+2½``, ``-1``, ``0``.

    >>> _fmt_levels(Fraction(5, 2)), _fmt_levels(Fraction(-1)), _fmt_levels(Fraction(1, 2))
    ('+2½', '-1', '+½')
    """
    if levels == 0:
        return "0"
    whole, half = divmod(abs(levels) * 2, 2)
    return f"{'+' if levels > 0 else '-'}{int(whole) if whole else ''}{'½' if half else ''}"


def _levels_data(levels: Fraction) -> int | float:
    return int(levels) if levels.denominator == 1 else float(levels)


def _fmt(fp: float) -> str:
    return str(int(fp)) if float(fp).is_integer() else f"{fp:g}"


def _with_wind(pos: Position, firer: Hex, target: Hex, rng: int) -> bool:
    d = pos.environment.wind.direction
    return d is not None and firer.neighbour(d, rng) == target


def ft_attack(pos: Position, attack: FtAttack) -> FtPlan:
    """Check a FT attack declaration and compute its FP, DRMs and numbers (A22.1–A22.5, B25.63).

    :raises IllegalAction: when a rule forbids the attack, naming the rule.
    :raises BadInput: for Locations not on the map or a missing Basic TK#.
    """
    a = attack
    pos._check_location(a.firer)
    pos._check_location(a.target)
    rng = a.range if a.range is not None else a.firer.hex.distance(a.target.hex)
    # A rooftop is at a half level (B23.8): 1½ levels up is not "two levels" (full FP); 2½ is more than two.
    levels = Fraction(a.level_difference if a.level_difference is not None
                      else pos.map.elevation(a.target) - pos.map.elevation(a.firer))
    notes: list[Event] = []
    if a.pinned:
        raise IllegalAction("a pinned unit cannot use a FT (A22.33)")
    if a.vs_descending_paratroops:
        raise IllegalAction("a FT cannot fire at descending paratroops (A22.33)")
    if a.fire_group and not a.overrun:
        raise IllegalAction("a FT never combines its FP with any other unit or weapon, not even its firer's, "
                            "except in an OVR (A22.31, D7.11)")
    if a.berserk and a.opportunity_fire:
        raise IllegalAction("a berserk unit fires in its AFPh, but never as Opportunity Fire (A15.432)")
    if a.berserk and pos.clock.phase is Phase.PFPH:
        raise IllegalAction("a berserk unit never fires in its PFPh: it must charge in its MPh (A15.432); it may "
                            "fire in its AFPh")
    block = pos.map.building_los_block(a.firer, a.target)
    if block is not None:
        raise IllegalAction(block)
    if a.used_ft_or_dc_this_turn and not a.vehicular:
        raise IllegalAction("a unit may use only one FT/DC in a Player Turn (A22.3)")
    if abs(levels) > 2:
        raise IllegalAction(f"a FT never fires at a target more than two levels higher or lower "
                            f"(level difference {_fmt_levels(levels)}, A22.32)")
    normal = 2 if (a.vehicular and a.underscored) else 1
    if a.underscored and not a.vehicular:
        raise IllegalAction("only some vehicular FT have a Normal Range of 2 (underscored FP, A22.1, D1.8)")
    if rng > normal + 1:
        raise IllegalAction(f"a FT's Long Range is exactly one hex beyond its Normal Range of {normal}: "
                            f"range {rng} is out of reach (A22.1, A22.32)")
    long_range = rng == normal + 1
    if long_range:
        if a.los_obstructed:
            raise IllegalAction("a FT cannot attack at Long Range when the LOS is obstructed (A22.32)")
        if pos.environment.wind.force is WindForce.HEAVY_WINDS:
            with_wind = a.with_wind if a.with_wind is not None else _with_wind(pos, a.firer.hex, a.target.hex, rng)
            if not with_wind:
                raise IllegalAction("a FT has no Long Range FP in Heavy Winds unless it fires directly with the "
                                    "wind (B25.63, A22.1)")
            notes.append(Event("B25.63", "Heavy Winds: Long Range allowed, the FT fires directly with the wind"))
    if a.leader_drm:
        notes.append(Event("A22.2", f"leadership DRM {a.leader_drm:+d} does not apply to a FT attack"))
    if a.heroic:
        notes.append(Event("A22.2", "heroism DRM does not apply to a FT attack"))

    # FP (A22.1, A22.32)
    two_levels = abs(levels) == 2 and not a.vs_afv
    if two_levels:
        fp: float = 6 if long_range else 12
        notes.append(Event("A22.32", f"target two levels {'higher' if levels > 0 else 'lower'}: "
                           f"{_fmt(fp)} FP at {'Long' if long_range else 'Normal'} Range"))
    else:
        fp = 12 if long_range else 24
    # A22.1: the AFPh is no reason to halve a FT; any form of Area Fire (e.g. vs concealed units) still is.
    if pos.clock.phase is Phase.AFPH:
        notes.append(Event("A22.1", "FT FP is not halved for use in the AFPh"))
    if a.area_fire:
        fp /= 2
        notes.append(Event("A22.1", "Area Fire: FT FP halved"))
    notes.append(Event("A22.1", "FT FP is never increased (no PBF/TPBF)"))
    if a.cower_columns and not a.vs_afv:
        cols = f"{a.cower_columns} column{'s' if a.cower_columns > 1 else ''}"
        notes.append(Event("A22.1, A7.9", f"on Original doubles the FT cowers: {cols} to the left"))
    column = ift_column(fp)

    # DRM (A22.2)
    drms: list[DRM] = []
    if a.cx:
        drms.append(DRM(1, "CX firer", "A22.2"))
    if a.hindrance_drm:
        drms.append(DRM(a.hindrance_drm, "LOS Hindrance", "A22.2"))
    drms += smoke_hindrance(pos, a.firer, a.target)
    if a.pillbox_non_ca_tem is not None:
        drms.append(DRM(a.pillbox_non_ca_tem, "pillbox TEM vs a non-CA attack", "B30.113"))
    drms += a.extra_drms

    # vs AFV (A22.34)
    final_tk: int | None = None
    if a.vs_afv:
        if not a.predesignated:
            raise IllegalAction("a FT attacks an AFV on the To Kill Table only when the AFV was predesignated as its "
                                "main target (A22.34)")
        if a.basic_tk is None:
            raise BadInput("a FT attack vs an AFV needs the FT's Basic TK# from the C7.34 HE & Flame To Kill Table "
                           "(--basic-tk), which our rule texts do not hold (A22.34)")
        final_tk = a.basic_tk // 2 if long_range else a.basic_tk
        if long_range:
            notes.append(Event("A22.34", f"Long Range: Basic TK# {a.basic_tk} halved (FRD) to {final_tk}"))
        bonus = (3 if a.afv_ce and a.afv_ot else 2 if a.afv_ot else 1 if a.afv_ce else 0)
        if bonus:
            what = "CE and OT" if a.afv_ce and a.afv_ot else "OT" if a.afv_ot else "CE"
            notes.append(Event("A22.34", f"target AFV {what}: TK# {bonus:+d}"))
            final_tk += bonus
        notes.append(Event("A22.34", "AF do not affect a FT attack"))

    # Malfunction (A22.5, A22.3, A21.11)
    x: int | None = None
    if not a.vehicular:
        x = 10
        if not a.elite:
            x -= 4 if a.captured else 2
            doubled = " doubled (captured FT)" if a.captured else ""
            notes.append(Event("A22.3", f"non-elite user: captured-SW X# penalty{doubled} → X{x}"))
        elif a.captured:
            x -= 2
            notes.append(Event("A21.11", f"captured FT: X# lowered by two → X{x}"))
    if a.firer_kind is UnitKind.SQUAD:
        notes.append(Event("A22.3", "the squad's inherent FP may make a separate attack"))
    if a.firer_kind is UnitKind.HERO or (a.heroic and a.firer_kind is UnitKind.LEADER):
        notes.append(Event("A15.23", "a hero using a SW forfeits his own inherent FP this phase"))
    if a.target_ft < 0:
        raise BadInput(f"a target possesses 0 or more FT, not {a.target_ft}")
    if a.target_ft and not a.vs_afv:
        notes.append(Event("A22.4", f"vs the target unit possessing {a.target_ft} FT: −{a.target_ft} to the IFT DR "
                           "(resolved for it alone)"))
    return FtPlan(a, rng, long_range, levels, fp, column, tuple(drms), x, final_tk, tuple(notes))


def ft_vulnerability_drm(ft_count: int) -> DRM | None:
    """The DRM to the IFT DR of any attack on a Personnel unit possessing *ft_count* FT (A22.4).

    >>> str(ft_vulnerability_drm(2))
    '-2 target possesses 2 FT (A22.4)'
    """
    if ft_count < 0:
        raise BadInput(f"a unit possesses 0 or more FT, not {ft_count}")
    return DRM(-ft_count, f"target possesses {ft_count} FT", "A22.4") if ft_count else None


def resolve_ft_attack(pos: Position, plan: FtPlan, dice: Dice, *, ift_result: str | None = None,
                      original_ift_result: str | None = None) -> AttackOutcome:
    """Roll the FT attack's DR and apply every consequence (A22.1–A22.5, B25.12, B25.14).

    *ift_result* is the IFT result read at the plan's column with the Final
    DR (our rule texts lack the IFT).  The B25.12 fire start keys on an
    Original K or KIA: the result read with the Original DR,
    *original_ift_result*.  Without it, *ift_result* serves only when the
    attack has no DRM (then Final and Original DR agree); otherwise the
    fire start is left unchecked, and the report says which result the
    check used.  Vs an AFV the Original DR is the To Kill DR.  An Infantry
    FT whose Original DR reaches its X# is removed after the attack (A22.5).
    """
    a = plan.attack
    roll = _require_dr(dice.DR(f"FT attack {pos.loc_name(a.firer)} → {pos.loc_name(a.target)} (A22)"), "a FT attack")
    events: list[Event] = []
    cons: list[Consequence] = []
    new = pos
    tname = pos.loc_name(a.target)
    if a.vs_afv:
        assert plan.final_tk is not None
        new, c, ev = afv_kill(new, a.target, a.afv_id, roll.total, plan.final_tk, "A22.34", equal_eliminates=False)
        cons += c
        events.append(Event("A22.34", f"To Kill DR {roll} vs Final TK# {plan.final_tk}", tname))
        events += ev
        if not any(x.kind is ConsequenceKind.AFV_ELIMINATED for x in c) and a.vulnerable_prc:
            cons.append(Consequence(ConsequenceKind.COLLATERAL_ATTACK, "A22.34",
                                    f"Specific Collateral attack vs the Vulnerable PRC of {a.afv_id} (D.8)",
                                    a.target, a.afv_id, fp=plan.fp, column=plan.column))
    else:
        column = plan.column
        if roll.doubles and a.cower_columns:
            column = shift_column(column, a.cower_columns)
            events.append(Event("A7.9", f"Original doubles: the FT cowers, IFT column {plan.column} → {column}"))
        final = roll.total + plan.total_drm
        result_txt = f": {ift_result}" if ift_result else " (read the result on the IFT)"
        events.append(Event("A22.2", f"IFT DR {roll} {format_drms(plan.drms)} → Final DR {final} on the "
                            f"{column} column{result_txt}", tname, kind="ift"))
        cons.append(Consequence(ConsequenceKind.IFT_ATTACK, "A22.1", f"FT attack vs the units in {tname}", a.target,
                                a.firer_id, fp=plan.fp, column=column, drm=plan.total_drm, final_dr=final,
                                result=ift_result))
        vuln = ft_possessor_attack(cons[-1], a.target_ft)
        if vuln is not None:
            cons.append(vuln)
            events.append(Event("A22.4", vuln.text, tname, kind="ift"))
        hut_flame_placed = False
        if pos.map.terrain_at(a.target) is Terrain.HUT and plan.malfunction_x is not None:
            # huts: a FT attack vs a hut Location places a Flame when its Original Effects DR < the FT's X#
            new, rep = hut_fire_start(new, a.target, HutAttack.FT, original=roll, ft_x_number=plan.malfunction_x)
            events += rep.events
            if new.flames_at(a.target) != pos.flames_at(a.target):
                hut_flame_placed = True
                cons.append(Consequence(ConsequenceKind.FLAME, "huts", f"Flame in the hut in {tname}", a.target))
        if not hut_flame_placed:  # one Flame per attack: the hut rule placed it, no B25.12 DR follows
            original: str | None = original_ift_result
            if original is not None:
                used = f"the Original DR {roll.total}'s IFT result {original}"
            elif ift_result is not None and plan.total_drm == 0:
                original = ift_result
                used = f"the IFT result {ift_result} (no DRM: Original DR {roll.total} = Final DR)"
            if original is None:
                why = "no IFT result given" if ift_result is None else (
                    f"the Final DR's result {ift_result} does not tell the Original DR {roll.total}'s (DRM "
                    f"{plan.total_drm:+d}); give the IFT result of the Original DR")
                events.append(Event("B25.12", f"{why}: the FT fire-start (Original K/KIA) is not checked", tname))
            else:
                check = ft_fire_check(pos, a.target, original)
                if check is None:
                    burnable = pos.map.is_burnable(a.target)
                    why = f"{used} is not K/KIA" if burnable else "not Burnable Terrain"
                    events.append(Event("B25.12", f"no FT fire-start DR in {tname}: {why}", tname))
                else:
                    events.append(Event("B25.12", f"FT fire-start DR: {used} is an Original K/KIA", tname))
                    new, rep = resolve_fire_start(new, check, a.target, dice)
                    events += rep.events
                    if new.flames_at(a.target) != pos.flames_at(a.target):
                        cons.append(Consequence(ConsequenceKind.FLAME, "B25.12", f"Flame in {tname}", a.target))
    if plan.malfunction_x is not None and roll.total >= plan.malfunction_x:
        events.append(Event("A22.5", f"Original DR {roll.total} ≥ {plan.malfunction_x}: the FT is out of fuel and "
                            "removed after the attack", pos.loc_name(a.firer), kind="ft-removed"))
        cons.append(Consequence(ConsequenceKind.FT_REMOVED, "A22.5", f"the FT of {a.firer_id} is removed from play",
                                a.firer, a.firer_id))
    title = f"FT attack {pos.loc_name(a.firer)} → {tname}"
    return AttackOutcome(new, tuple(cons), Report(title, tuple(events)), roll)
