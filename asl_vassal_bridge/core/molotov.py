"""Molotov Cocktail attacks (A22.6–A22.62), from declaration to consequence, and building TEM (B23).

:func:`mol_attack` takes a declaration (:class:`MolAttack`) and either
refuses it (:class:`~.errors.IllegalAction` naming the rule) or returns a
:class:`MolPlan`: the MOL Check (a dr ≤ 3 with its drm and exact chance),
the FP with and without the MOL's +4, the IFT DRMs with their rules and the
Final TK# vs an AFV.  :func:`resolve_mol_attack` rolls the MOL Check dr and
the attack DR and returns an :class:`~.flamethrower.AttackOutcome`: the new
Position (Flames placed through :func:`~.firestarts.mol_flames`, Burning
Wreck) and the unit-level consequences (broken thrower, eliminated AFV,
the IFT and Collateral attacks to read off the IFT).

:func:`location_tem` gives the TEM of a Location from the map (B23.3–B23.921).

>>> from .position import GameMap, HexInfo, Position
>>> from .terrain import Terrain
>>> woods = {Hex.parse(h): HexInfo(Terrain.WOODS) for h in ("X8", "W9")}
>>> x8, w9 = Location(Hex.parse("X8")), Location(Hex.parse("W9"))
>>> plan = mol_attack(Position(GameMap.from_hexes(woods)), MolAttack(x8, w9, thrower_fp=3, available=True,
...                                                                  fire=FireType.PREP))
>>> plan.check.chance, plan.fp_with_mol, plan.column_with_mol
(Fraction(1, 3), 10, 8)
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any

from .dice import Dice
from .errors import BadInput, IllegalAction
from .explain import DRM, Check, CheckResult, Event, Report, format_drms
from .firestarts import (
    NEVER_BREAKS_RULE,
    HutAttack,
    hut_fire_start,
    kindling_attempt,
    kindling_check,
    mol_flames,
    place_flame,
)
from .flamethrower import (
    AttackOutcome,
    Consequence,
    ConsequenceKind,
    _fmt,
    _require_dr,
    afv_kill,
    break_unit,
    drm_data,
    event_data,
    ft_possessor_attack,
    ift_column,
)
from .hexes import Hex
from .position import Location, Phase, Position, Unit, UnitKind
from .smoke import smoke_hindrance
from .terrain import BuildingKind, Terrain, building_tem
from .values import field, value

__all__ = [
    "MOL_FP",
    "FireType",
    "MolAttack",
    "MolKindlingOdds",
    "MolPlan",
    "location_tem",
    "mol_attack",
    "mol_check",
    "mol_kindling_attempt",
    "mol_kindling_odds",
    "resolve_mol_attack",
    "woods_or_orchard_hexside",
]

#: The FP a MOL adds to a PBF/TPBF attack (A22.611).
MOL_FP = 4

# ---------------------------------------------------------------------------
# Building TEM (B23)


def location_tem(pos: Position, loc: Location, *, firer: Location | None = None, bypassing: bool = False,
                 indirect: bool = False, factory_within: bool | None = None) -> tuple[DRM, ...]:
    """The TEM DRMs of *loc* vs an attack from *firer*, read off the Position's map (B23.3–B23.921).

    Stone building +3, wooden +2, one more in a Fortified Building Location
    (B23.921); a rooftop has no building TEM but +1 Height Advantage vs a
    lower firer (B23.81; rooftops are at half levels, B23.8); +1 for fire
    from within the same Factory, and from outside it at a ground-level Factory
    Location whose hex-centre LOS enters it from a rubble hex of that Factory
    (B23.743), +2 in a Fortified Factory Location but +1
    for a ground-level unit fired on from its own hex's rooftop (B23.741,
    B23.921, B23.88; *factory_within* overrides the same-building test); vs Indirect
    Fire +1 per non-rooftop level above (B23.32), without the Fortified extra
    in a Factory (B23.741), and refused below the highest level of an Interior
    Building hex, which Indirect Fire does not affect (B23.32); no building TEM
    for a Bypassing unit (B23.31).
    Woods give +1 (A22.62 EX).  Other terrain TEM is on the Terrain Chart,
    not in our texts: none is returned.

    >>> from .position import GameMap, HexInfo
    >>> from .terrain import Building, BuildingKind, Material
    >>> m = GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.STONE_BUILDING, building="b")},
    ...                        [Building("b", Material.STONE, BuildingKind.MULTI_STORY)])
    >>> [str(d) for d in location_tem(Position(m), Location(Hex.parse("A1"), 1), indirect=True)]
    ['+4 stone building, 1 level above vs Indirect Fire (B23.3, B23.32)']
    """
    pos._check_location(loc)
    b = pos.map.building(loc.hex)
    if b is not None and pos.map.is_marketplace_ground(loc):
        # B23.73: open ground under the Level 1 Location, which still adds +1 vs Indirect Fire (B23.32).
        return (DRM(1, "Marketplace, 1 level above vs Indirect Fire", "B23.32, B23.73"),) if indirect else ()
    if b is None or b.kind is BuildingKind.HUT:
        if pos.map.terrain_at(loc) is Terrain.WOODS:
            return (DRM(1, "woods", "A22.62"),)
        return ()
    if loc.rooftop:
        if firer is not None and pos.map.elevation(firer) < pos.map.elevation(loc):
            return (DRM(1, "Height Advantage (rooftop: no building TEM)", "B23.81"),)
        return ()
    if bypassing:
        return ()
    fortified = pos.map.is_fortified(loc)
    factory = b.kind is BuildingKind.FACTORY
    within = factory_within
    if within is None:
        # B23.743: fire from a rubbled hex of the Factory into it counts as from a Factory Location.
        within = (factory and firer is not None and not indirect
                  and (pos.map.building(firer.hex) is b or pos.map.factory_of_rubble(firer.hex) is b))
    if within and factory:
        # B23.921: a Fortified Location's TEM is one greater, the Factory's +1 too; withheld only vs Indirect
        # Fire (B23.741, not here) and for a ground-level unit fired on from its own hex's rooftop (B23.88).
        from_own_roof = firer is not None and firer.rooftop and firer.hex == loc.hex
        fort = fortified and not from_own_roof
        why = "fire within the same Factory" + (", Fortified" if fort else "")
        if fortified and from_own_roof:
            why += " (no Fortified extra vs its own hex's rooftop, B23.88)"
        cited = "B23.741, B23.921" if fort else ("B23.741, B23.88" if fortified else "B23.741")
        return (DRM(building_tem(b.material, fortified=fort, factory_same_building=True), why, cited),)
    if (factory and firer is not None and not indirect and loc.level == 0 and firer.hex != loc.hex
            and len(line := firer.hex.line_to(loc.hex)) > 2 and pos.map.factory_of_rubble(line[-2]) is b):
        # B23.743: from outside the Factory, a LOS over its rubble entering the ground-level Location beside it.
        why = f"Factory Location entered over its rubble in {pos.map.hex_name(line[-2])}" + (
            ", Fortified" if fortified else "")
        return (DRM(building_tem(b.material, fortified=fortified, factory_same_building=True), why,
                    "B23.743, B23.921" if fortified else "B23.743"),)
    above = max(0, pos.map.top_level(loc.hex) - loc.level) if indirect else 0
    if above and loc.hex in pos.map.interior_hexes:
        raise IllegalAction(f"{pos.loc_name(loc)}: Indirect Fire on an Interior Building hex affects only its rooftop "
                            "and highest level (B23.32)")
    if indirect and factory:
        fortified = False
    tem = building_tem(b.material, fortified=fortified, indirect_fire_levels_above=above)
    why = f"{b.material.value} building"
    rules = ["B23.3"]
    if fortified:
        why += ", Fortified"
        rules.append("B23.921")
    if above:
        why += f", {above} level{'s' if above > 1 else ''} above vs Indirect Fire"
        rules.append("B23.32")
    return (DRM(tem, why, ", ".join(rules)),)


def woods_or_orchard_hexside(pos: Position, a: Hex, b: Hex) -> bool:
    """True if the hexside between adjacent *a* and *b* is shared by two orchard hexes or two connected woods
    hexes (A22.611); woods are connected only when both hexes carry the same recorded *feature*."""
    if a.distance(b) != 1:
        return False
    ia, ib = pos.map.info(a), pos.map.info(b)
    orchards = (Terrain.ORCHARD, Terrain.OLIVE_GROVE)
    if ia.terrain in orchards and ib.terrain in orchards:
        return True
    woods = (Terrain.WOODS, Terrain.WOODS_ROAD)
    return ia.terrain in woods and ib.terrain in woods and ia.feature is not None and ia.feature == ib.feature


# ---------------------------------------------------------------------------
# The MOL attack


def _num(x: Fraction) -> float:
    """An exact FP total as an int when whole, else a float (ASL retains FP fractions)."""
    return int(x) if x.denominator == 1 else float(x)


class FireType(enum.Enum):
    """When an attack is made; decides whether a MOL Check is allowed (A22.611)."""

    PREP = "Prep Fire"
    DEFENSIVE_FIRST = "Defensive First Fire"
    SUBSEQUENT_FIRST = "Subsequent First Fire"
    FPF = "Final Protective Fire"
    FINAL = "Final Fire"
    ADVANCING = "Advancing Fire"
    OPPORTUNITY = "Opportunity Fire"

    @classmethod
    def for_phase(cls, phase: Phase) -> FireType:
        """The usual fire of a phase: PFPh Prep, MPh Defensive First, DFPh Final, AFPh Advancing."""
        table = {Phase.PFPH: cls.PREP, Phase.MPH: cls.DEFENSIVE_FIRST, Phase.DFPH: cls.FINAL,
                 Phase.AFPH: cls.ADVANCING}
        if phase not in table:
            raise IllegalAction(f"no fire attack is made in the {phase.value} (A22.611)")
        return table[phase]

    @classmethod
    def from_name(cls, name: str) -> FireType:
        key = name.strip().lower().replace("-", " ").replace("_", " ")
        aliases = {"prep": cls.PREP, "dff": cls.DEFENSIVE_FIRST, "defensive first": cls.DEFENSIVE_FIRST,
                   "sff": cls.SUBSEQUENT_FIRST, "subsequent first": cls.SUBSEQUENT_FIRST, "fpf": cls.FPF,
                   "final": cls.FINAL, "advancing": cls.ADVANCING, "opportunity": cls.OPPORTUNITY}
        for f in cls:
            aliases[f.value.lower()] = f
        if key not in aliases:
            raise BadInput(f"unknown fire type {name!r} (expected prep, dff, sff, fpf, final, advancing or "
                           "opportunity)")
        return aliases[key]


@value
class MolAttack:
    """A MOL attack declaration (A22.6–A22.62).

    The *thrower* (kind *thrower_kind*, id *thrower_id*) makes the MOL Check
    for its FG.  *thrower_fp* is its unmodified FP and *other_fp* that of
    the rest of the declared FG (*fg_units* units in all); both are
    multiplied for PBF (range 1) or TPBF (range 0) and halved *fp_halvings*
    times before the MOL's +4 is added (A22.611).  *available* is the
    scenario's SSR/DYO permission (A22.6).  *mol_check_in_first_fire*: the
    unit already made a MOL Check in Defensive First Fire this Player Turn.
    Vs an AFV give *basic_tk*, the MOL column's Basic TK# of the C7.34 HE &
    Flame To Kill Table (not in our texts); *tk_case_mods* are the Rear Armor
    / Elevation Advantage modifications (C7.21–.22).  *tem* overrides the
    target Location's TEM read by :func:`location_tem`; *extra_drms* are
    further IFT DRMs (e.g. FFNAM, an AFV in the Location) listed as given.
    *woods_hexside* overrides the A22.611 hexside test from the map.
    """

    thrower: Location
    target: Location
    thrower_fp: float = 0
    thrower_kind: UnitKind = UnitKind.SQUAD
    thrower_id: str = "MOL thrower"
    other_fp: float = 0
    fg_units: int = 1
    available: bool = False
    fire: FireType | None = None
    mol_check_in_first_fire: bool = False
    pinned: bool = False
    broken: bool = False
    berserk: bool = False
    cx: bool = False
    close_combat: bool = False
    adjacent: bool = True
    squad_adds_inherent_fp: bool = True
    fires_other_sw: bool = False
    fp_halvings: int = 0
    leader_drm: int = 0
    target_bypassing: bool = False
    tem: int | None = None
    extra_drms: tuple[DRM, ...] = ()
    woods_hexside: bool | None = None
    across_road_vs_unit_on_road: bool = False
    vs_afv: bool = False
    predesignated: bool = False
    basic_tk: int | None = None
    afv_ce: bool = False
    afv_ot: bool = False
    afv_stopped: bool = True
    tk_case_mods: int = 0
    vulnerable_prc: bool = False
    afv_id: str = "AFV"
    range: int | None = None
    heroic: bool = False
    target_ft: int = 0

    @property
    def never_breaks(self) -> str | None:
        """Why the thrower never breaks on a colored 6 (A15.2 hero, A15.42 berserk), or None (A22.6111)."""
        if self.heroic or self.thrower_kind is UnitKind.HERO:
            return "hero"
        if self.berserk:
            return "berserk unit"
        return None

    @classmethod
    def by_unit(cls, unit: Unit, target: Location, thrower_fp: float, **kw: Any) -> MolAttack:
        """The declaration of *unit* throwing a MOL at *target* (Location, kind, id, pinned, broken, Berserk
        from the unit)."""
        return cls(unit.location, target, thrower_fp, unit.kind, unit.id, pinned=unit.pinned, broken=unit.broken,
                   berserk=unit.berserk, **kw)


@value
class MolPlan:
    """What a legal MOL attack is: the MOL Check, FP with/without the MOL, IFT DRMs, Final TK#, notes."""

    attack: MolAttack
    range: int
    multiplier: int
    check: Check
    fp_without_mol: float
    fp_with_mol: float
    thrower_share: float
    drms: tuple[DRM, ...]
    leadership_applies: bool
    final_tk: int | None
    notes: tuple[Event, ...] = field(default_factory=tuple)

    @property
    def tpbf(self) -> bool:
        """Trace Point Blank Fire: the thrower's own Location (×3), not another Location of its hex (B23.88)."""
        return self.multiplier == 3

    @property
    def column_with_mol(self) -> int | None:
        return ift_column(self.fp_with_mol)

    @property
    def column_without_mol(self) -> int | None:
        return ift_column(self.fp_without_mol)

    @property
    def total_drm(self) -> int:
        return sum(d.value for d in self.drms)

    def as_data(self, pos: Position) -> dict[str, Any]:
        """The plan as plain data (JSON-ready); the MOL Check chance as ``"1/3"`` and a float."""
        a = self.attack
        c = self.check
        return {"attack": "MOL", "legal": True, "thrower": pos.loc_name(a.thrower), "target": pos.loc_name(a.target),
                "range": self.range, "tpbf": self.tpbf,
                "mol_check": {"rule": c.rule, "final_at_most": c.needed, "original_at_most": c.needed_original,
                              "drms": drm_data(c.drms), "chance": str(c.chance), "chance_float": float(c.chance)},
                "fp_with_mol": self.fp_with_mol, "column_with_mol": self.column_with_mol,
                "fp_without_mol": self.fp_without_mol, "column_without_mol": self.column_without_mol,
                "drms": drm_data(self.drms), "total_drm": self.total_drm,
                "leadership_applies": self.leadership_applies, "final_tk": self.final_tk,
                "notes": event_data(self.notes)}

    def describe(self, pos: Position) -> str:
        a = self.attack
        kind = "TPBF" if self.tpbf else "PBF"
        lines = [f"MOL attack {pos.loc_name(a.thrower)} → {pos.loc_name(a.target)} ({kind}, range {self.range})",
                 f"  {self.check.describe()}",
                 f"  FP with the MOL: {_fmt(self.fp_with_mol)} → IFT column {self.column_with_mol}; "
                 + (f"if the check fails: {_fmt(self.fp_without_mol)} → column {self.column_without_mol}"
                    if self.fp_without_mol > 0 else "if the check fails: no attack"),
                 f"  IFT DRM: {format_drms(self.drms)} (total {self.total_drm:+d})"]
        if a.vs_afv:
            who = "the AFV" if a.afv_id == "AFV" else a.afv_id
            lines.append(f"  vs {who}: Final TK# {self.final_tk} (MOL column, C7.34); To Kill DR < TK#: "
                         "Burning Wreck, = TK#: eliminated (A22.612)")
        lines += [f"  {e.describe()}" for e in self.notes]
        return "\n".join(lines)


def mol_check(thrower_kind: UnitKind, *, cx: bool = False, vs_afv: bool = False) -> Check:
    """The MOL Check: a dr ≤ 3 succeeds; +1 HS/crew, +2 SMC, +1 CX, +1 vs a non-AFV (A22.611).

    Leadership never modifies it (A22.62).

    >>> mol_check(UnitKind.SQUAD).chance
    Fraction(1, 3)
    >>> mol_check(UnitKind.LEADER, cx=True, vs_afv=True).chance
    Fraction(0, 1)
    """
    drms: list[DRM] = []
    if thrower_kind in (UnitKind.HALF_SQUAD, UnitKind.CREW):
        drms.append(DRM(1, "HS/crew", "A22.611"))
    elif thrower_kind.is_smc:
        drms.append(DRM(2, "SMC", "A22.611"))
    if cx:
        drms.append(DRM(1, "CX", "A22.611"))
    if not vs_afv:
        drms.append(DRM(1, "vs a non-AFV", "A22.611"))
    return Check("MOL Check", "A22.611", needed=3, drms=tuple(drms), dice=1, at_most=True)


def _mol_leadership(drm: int) -> DRM:
    """A leader's DRM to a FG attack holding more than the MOL's four FP (A22.62)."""
    return DRM(drm, "leadership (attack with more than the MOL's four FP)", "A22.62")


def mol_attack(pos: Position, attack: MolAttack) -> MolPlan:
    """Check a MOL attack declaration and compute its MOL Check, FP, DRMs and Final TK# (A22.6–A22.62).

    :raises IllegalAction: when a rule forbids the attack, naming the rule.
    :raises BadInput: for Locations not on the map or a missing Basic TK#.
    """
    a = attack
    pos._check_location(a.thrower)
    pos._check_location(a.target)
    notes: list[Event] = []
    if not a.available:
        raise IllegalAction("MOL are available only when an SSR or DYO purchase provides them (A22.6)")
    if a.close_combat or pos.clock.phase is Phase.CCPH:
        raise IllegalAction("a MOL cannot be used in Close Combat (A22.61)")
    if not a.thrower_kind.is_infantry:
        raise IllegalAction("a MOL is an inherent SW of Personnel only (A22.61)")
    if a.pinned:
        raise IllegalAction("a pinned unit cannot use a MOL (A22.61)")
    if a.broken and not a.berserk:
        raise IllegalAction("a MOL is used only by a Good Order (or Berserk) unit (A22.61)")
    rng = a.range if a.range is not None else a.thrower.hex.distance(a.target.hex)
    if rng > 1 or not a.adjacent:
        raise IllegalAction(f"a MOL is used only in a PBF/TPBF attack, not at range {rng} or vs a non-ADJACENT "
                            "target (A22.611)")
    block = pos.map.building_los_block(a.thrower, a.target)
    if block is not None:
        raise IllegalAction(block)
    fire = a.fire if a.fire is not None else FireType.for_phase(pos.clock.phase)
    if a.berserk and fire is FireType.PREP:
        raise IllegalAction("a berserk unit never fires in its PFPh: it must charge in its MPh (A15.432); it may "
                            "fire in its AFPh")
    if a.berserk and fire is FireType.OPPORTUNITY:
        raise IllegalAction("a berserk unit fires in its AFPh, but never as Opportunity Fire (A15.432)")
    if fire is FireType.OPPORTUNITY and pos.clock.phase is not Phase.AFPH:
        raise IllegalAction(f"Opportunity Fire is made in the AFPh, not the {pos.clock.phase.value} (A15.432)")
    if fire is FireType.SUBSEQUENT_FIRST:
        raise IllegalAction("no MOL Check dr in Subsequent First Fire (A22.611)")
    if fire is FireType.FPF:
        raise IllegalAction("no MOL Check dr in Final Protective Fire (A22.611)")
    if fire is FireType.FINAL and a.mol_check_in_first_fire:
        raise IllegalAction("a unit that made a MOL Check dr in Defensive First Fire may not make one in Final Fire "
                            "the same Player Turn (A22.611)")
    if rng == 1:
        through = (a.woods_hexside if a.woods_hexside is not None
                   else woods_or_orchard_hexside(pos, a.thrower.hex, a.target.hex))
        if through and a.thrower.level == 0 and a.target.level == 0:
            if not a.across_road_vs_unit_on_road:
                raise IllegalAction("a MOL cannot be thrown through an orchard or woods hexside (A22.611; "
                                    "except across a road hexside vs a unit on the road)")
            notes.append(Event("A22.611", "woods/orchard hexside crossed along a road vs a unit on the road: allowed"))
    if a.thrower_kind is UnitKind.SQUAD:
        if not a.squad_adds_inherent_fp:
            raise IllegalAction("a squad making a MOL Check must add its inherent FP to the attack (A22.611, A7.55)")
        if a.fires_other_sw:
            raise IllegalAction("a squad making a MOL Check may not fire any other SW (A22.611)")
    if a.thrower_kind.is_smc and a.fg_units == 1:
        notes.append(Event("A22.611", "a SMC may attack alone with a MOL"))
    if a.fg_units < 1:
        raise BadInput(f"a FG has at least one unit, not {a.fg_units}")
    if a.target_ft < 0:
        raise BadInput(f"a target possesses 0 or more FT, not {a.target_ft}")
    if a.target_ft:
        notes.append(Event("A22.4", f"vs the target unit possessing {a.target_ft} FT: −{a.target_ft} to the IFT DR "
                           "(resolved for it alone)"))

    # FP (A22.611): PBF ×2, TPBF ×3 (one Location only: another Location of the same hex is PBF, B23.88),
    # halvings (the AFPh's among them, A15.432), then +4 unmodified.
    tpbf = rng == 0 and a.thrower == a.target
    mult = 3 if tpbf else 2
    if rng == 0 and not tpbf:
        notes.append(Event("B23.88, A22.611", "another Location of the same hex is ADJACENT, not the same Location: "
                           "PBF (×2), not TPBF"))
    halvings = a.fp_halvings
    if fire is FireType.ADVANCING:
        halvings += 1
        notes.append(Event("A15.432, A22.1", "Advancing Fire: the Small Arms FP is halved before the MOL's +4"))
    thrower_fp = a.thrower_fp
    if a.thrower_kind is UnitKind.HERO or a.heroic:
        if thrower_fp:
            notes.append(Event("A15.23", f"a hero using a SW forfeits his own inherent FP this phase: his "
                               f"{_fmt(thrower_fp)} FP do not count"))
        thrower_fp = 0
    scale = Fraction(mult, 2 ** halvings)
    share = _num(Fraction(thrower_fp) * scale)
    base = _num((Fraction(thrower_fp) + Fraction(a.other_fp)) * scale)
    with_mol = base + MOL_FP
    notes.append(Event("A22.611", f"({_fmt(thrower_fp + a.other_fp)} FP × {mult} [{'TPBF' if tpbf else 'PBF'}]"
                       f"{' halved ×' + str(halvings) if halvings else ''}) = {_fmt(base)} + 4 MOL = "
                       f"{_fmt(with_mol)}; the +4 is added after every other modification"))
    if a.thrower_kind is UnitKind.HALF_SQUAD or a.thrower_kind is UnitKind.CREW:
        notes.append(Event("A22.611, A7.352-.353", "a HS/crew that fails its MOL Check has used its attack; its FG "
                           "still attacks"))
    notes.append(Event("A22.611", "the declared FG must attack the announced target even if the MOL Check fails"))

    check = mol_check(a.thrower_kind, cx=a.cx, vs_afv=a.vs_afv)

    # IFT DRMs
    drms: list[DRM] = []
    if a.tem is not None:
        if a.tem:
            drms.append(DRM(a.tem, "TEM (given)", "B23.3" if pos.map.is_building_location(a.target) else "TEM"))
    else:
        drms += location_tem(pos, a.target, firer=a.thrower, bypassing=a.target_bypassing)
    if a.cx:
        drms.append(DRM(1, "CX firer", "A4.51"))
    drms += smoke_hindrance(pos, a.thrower, a.target)
    if a.thrower_kind is UnitKind.HERO or a.heroic:
        drms.append(DRM(-1, "heroic DRM (MOL: not a FT/DC attack)", "A15.24"))
    # A22.62 (docs/rules.md): leadership applies when the attack holds FP beyond the MOL's own four, a single
    # squad directed by a leader included; never to the MOL's 4 FP alone.
    lead_ok = with_mol > MOL_FP
    if a.leader_drm and a.berserk:
        lead_ok = False
        notes.append(Event("A15.42", f"a berserk unit never receives a friendly leader's leadership: the "
                           f"{a.leader_drm:+d} does not apply"))
    elif a.leader_drm:
        if lead_ok:
            drms.append(_mol_leadership(a.leader_drm))
        else:
            notes.append(Event("A22.62", f"leadership {a.leader_drm:+d} does not apply to this MOL attack (only to an "
                               "attack with more FP than the MOL's four)"))
    drms += a.extra_drms

    # vs AFV (A22.612)
    final_tk: int | None = None
    if a.vs_afv:
        if not a.predesignated:
            raise IllegalAction("a MOL attacks an AFV only if the AFV is predesignated as the specific target "
                                "(A22.612)")
        if a.basic_tk is None:
            raise BadInput("a MOL attack vs an AFV needs the MOL column's Basic TK# from the C7.34 HE & Flame To Kill "
                           "Table (--basic-tk), which our rule texts do not hold (A22.612)")
        final_tk = a.basic_tk
        if a.afv_ot:
            final_tk += 2
            notes.append(Event("A22.612", "OT AFV: TK# +2" + (" (CE does not add as well)" if a.afv_ce else "")))
        elif a.afv_ce:
            final_tk += 1
            notes.append(Event("A22.612", "CE AFV: TK# +1"))
        if not a.afv_stopped:
            final_tk -= 2
            notes.append(Event("A22.612", "Non-Stopped (moving) vehicle: TK# −2"))
        if a.tk_case_mods:
            final_tk += a.tk_case_mods
            notes.append(Event("A22.612, C7.21-.22", f"Rear Armor / Elevation Advantage: TK# {a.tk_case_mods:+d}"))
        if rng == 0:
            notes.append(Event("A22.612", "from the same hex the MOL scores a rear hit"))
        notes.append(Event("A22.612, A22.62", "no armor modification; leadership never modifies the MOL To Kill DR"))
    return MolPlan(a, rng, mult, check, base, with_mol, share, tuple(drms), lead_ok, final_tk, tuple(notes))


def resolve_mol_attack(pos: Position, plan: MolPlan, dice: Dice, *, ift_result: str | None = None,
                       prc_result: str | None = None) -> AttackOutcome:
    """Roll the MOL Check dr, then the attack DR, and apply every consequence (A22.611–A22.612, B25.14).

    The dice are taken in order: the MOL Check dr, then the attack's DR
    (colored, white).  *ift_result* is the IFT result vs the non-armored
    units (read at the column and Final DR given), *prc_result* that of the
    Specific Collateral attack on Vulnerable PRC; both only label the
    consequences.  With a failed Check the FG attacks without the MOL
    (a HS/crew thrower's FP drops out).  With the MOL used, colored dr 6
    breaks the thrower, voids his FP and the MOL and puts a Flame in his
    Location; colored dr 1 puts a Flame in the target Location
    (:func:`~.firestarts.mol_flames`).  Without the MOL the attack vs a hut
    Location is a Small Arms PBF/TPBF one: its colored dr 1 sets the hut on
    fire (Fire cheat sheet: huts).  Vs an AFV the same DR is the To Kill
    DR: < Final TK# Burning Wreck, = eliminated.
    """
    a = plan.attack
    tname = pos.loc_name(a.target)
    thname = pos.loc_name(a.thrower)
    events: list[Event] = []
    cons: list[Consequence] = []
    new = pos

    check_roll = dice.dr(f"MOL Check {thname} (A22.611)")
    final_check = check_roll.total + plan.check.total_drm
    passed = plan.check.succeeds(final_check)
    events.append(Event("A22.611", "MOL Check", thname,
                        CheckResult(plan.check, check_roll, "MOL used" if passed else "no MOL"), kind="mol-check"))
    fp = plan.fp_with_mol if passed else plan.fp_without_mol
    if not passed and a.thrower_kind in (UnitKind.HALF_SQUAD, UnitKind.CREW):
        fp -= plan.thrower_share
        events.append(Event("A22.611", f"the failed HS/crew {a.thrower_id} has used its attack", thname))
        cons.append(Consequence(ConsequenceKind.ATTACK_CANCELLED, "A22.611, A7.352-.353",
                                f"{a.thrower_id} may not attack: its MOL Check was its attack",
                                a.thrower, a.thrower_id))
        if fp <= 0:
            title = f"MOL attack {thname} → {tname}"
            return AttackOutcome(new, tuple(cons), Report(title, tuple(events)), None)

    if not passed and fp <= 0:
        # a hero's own FP are forfeited once he uses a SW (A15.23): without the MOL nothing is left to attack with
        cons.append(Consequence(ConsequenceKind.ATTACK_CANCELLED, "A22.611, A15.23",
                                f"{a.thrower_id} makes no attack: no MOL, and his own FP are forfeited for using a SW",
                                a.thrower, a.thrower_id))
        events.append(Event("A22.611, A15.23", "the MOL Check failed and no FP are left: no attack", thname))
        return AttackOutcome(new, tuple(cons), Report(f"MOL attack {thname} → {tname}", tuple(events)), None)
    roll = _require_dr(dice.DR(f"MOL attack {thname} → {tname} (A22.611)"), "a MOL attack")
    mol_in_attack = passed
    if not passed and pos.map.terrain_at(a.target) is Terrain.HUT:
        # huts: without the MOL the FG's attack is still a Small Arms PBF/TPBF attack vs the hut Location
        new, rep = hut_fire_start(new, a.target, HutAttack.SMALL_ARMS_PBF_TPBF, original=roll)
        events += rep.events
        if new.flames_at(a.target) != pos.flames_at(a.target):
            cons.append(Consequence(ConsequenceKind.FLAME, "huts", f"Flame in the hut in {tname}", a.target))
    if passed:
        mf = mol_flames(pos, a.thrower, a.target, roll, never_breaks=a.never_breaks)
        events += mf.events
        for loc in mf.flames:
            new = place_flame(new, loc)
            cons.append(Consequence(ConsequenceKind.FLAME, "A22.6111", f"Flame in {pos.loc_name(loc)}", loc))
        if roll.colored == 6:
            if mf.thrower_breaks:
                new = break_unit(new, a.thrower_id)
                cons.append(Consequence(ConsequenceKind.THROWER_BROKEN, "A22.6111", f"{a.thrower_id} breaks",
                                        a.thrower, a.thrower_id))
            else:
                rule = "A22.6111, " + NEVER_BREAKS_RULE.get(a.never_breaks or "", "A15")
                cons.append(Consequence(ConsequenceKind.ATTACK_CANCELLED, rule, f"{a.thrower_id} ({a.never_breaks}) "
                                        "does not break; its FP and MOL are voided", a.thrower, a.thrower_id))
            fp -= plan.thrower_share + 4
            mol_in_attack = False
            if fp <= 0:
                cons.append(Consequence(ConsequenceKind.ATTACK_CANCELLED, "A22.6111",
                                        f"the attack is voided: {a.thrower_id}'s FP and MOL were all of it", a.target))
                events.append(Event("A22.6111", "the thrower's FP and MOL are voided: nothing is left of the attack"))
                title = f"MOL attack {thname} → {tname}"
                return AttackOutcome(new, tuple(cons), Report(title, tuple(events)), roll)
            events.append(Event("A22.6111", f"the FG still attacks with {_fmt(fp)} FP (the thrower's FP and MOL are "
                                "voided)"))

    drms = plan.drms
    if not mol_in_attack and a.leader_drm and not a.berserk:
        # A7.53: without the MOL the leader directs the attack as any other, whatever the FG's size.
        drms = (*(d for d in plan.drms if d != _mol_leadership(a.leader_drm)),
                DRM(a.leader_drm, "leadership (no MOL in the attack)", "A7.53"))
        events.append(Event("A22.62", "no MOL FP in the attack: leadership applies normally"))
    total_drm = sum(d.value for d in drms)
    final = roll.total + total_drm
    col = ift_column(fp)

    if a.vs_afv and mol_in_attack:
        assert plan.final_tk is not None
        new, c, ev = afv_kill(new, a.target, a.afv_id, roll.total, plan.final_tk, "A22.612", equal_eliminates=True)
        events.append(Event("A22.612", f"To Kill DR {roll} vs Final TK# {plan.final_tk} (MOL column)", tname))
        events += ev
        cons += c
        sa_fp = fp - MOL_FP
        if a.vulnerable_prc:
            cons.append(Consequence(ConsequenceKind.COLLATERAL_ATTACK, "A22.612",
                                    f"the same DR is a Specific Collateral attack vs the Vulnerable PRC of {a.afv_id} "
                                    f"with {_fmt(fp)} FP (Small Arms + MOL, D.8)", a.target, a.afv_id, fp=fp,
                                    column=col, final_dr=roll.total, result=prc_result))
        if sa_fp > 0:
            sa_col = ift_column(sa_fp)
            cons.append(Consequence(ConsequenceKind.IFT_ATTACK, "A22.612",
                                    f"the same DR attacks the other non-armored units in {tname} with {_fmt(sa_fp)} FP "
                                    "(Small Arms only)", a.target, a.thrower_id, fp=sa_fp, column=sa_col,
                                    drm=total_drm, final_dr=final, result=ift_result))
            events.append(Event("A22.612", f"IFT DR {roll} {format_drms(drms)} → Final DR {final} on the {sa_col} "
                                f"column vs the other units{': ' + ift_result if ift_result else ''}", tname,
                                kind="ift"))
            vuln = ft_possessor_attack(cons[-1], a.target_ft)
            if vuln is not None:
                cons.append(vuln)
                events.append(Event("A22.4", vuln.text, tname, kind="ift"))
    else:
        who = f"all non-armored units in {tname}" + (" (incl. the AFV's Vulnerable PRC)" if a.vs_afv else "")
        if a.vs_afv:
            events.append(Event("A22.612", "no MOL in the attack: the IFT attack (without the MOL's 4 FP) hits " + who))
        cons.append(Consequence(ConsequenceKind.IFT_ATTACK, "A22.612" if a.vs_afv else "A22.611",
                                f"IFT attack vs {who} with {_fmt(fp)} FP", a.target, a.thrower_id, fp=fp, column=col,
                                drm=total_drm, final_dr=final, result=ift_result))
        events.append(Event("A22.611", f"IFT DR {roll} {format_drms(drms)} → Final DR {final} on the {col} column"
                            f"{': ' + ift_result if ift_result else ' (read the result on the IFT)'}", tname,
                            kind="ift"))
        vuln = ft_possessor_attack(cons[-1], a.target_ft)
        if vuln is not None:
            cons.append(vuln)
            events.append(Event("A22.4", vuln.text, tname, kind="ift"))
    title = f"MOL attack {thname} → {tname}"
    return AttackOutcome(new, tuple(cons), Report(title, tuple(events)), roll)


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
