"""A Molotov Cocktail attack declared and planned (A22.6–A22.61; the first step of :mod:`.molotov`): the
declaration (:class:`MolAttack`), its refusals naming the rule, and the :class:`MolPlan`: the MOL Check, the FP with
and without the MOL's +4, the IFT DRMs and the Final TK# vs an AFV."""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any

from .errors import BadInput, IllegalAction
from .explain import DRM, Check, Event, format_drms
from .flamethrower import _fmt, drm_data, event_data, ift_column
from .location_tem import location_tem, woods_or_orchard_hexside
from .position import Location, Phase, Position, Unit, UnitKind
from .smoke import smoke_hindrance
from .values import field, value

__all__ = ["MOL_FP", "FireType", "MolAttack", "MolPlan", "mol_attack", "mol_check"]


#: The FP a MOL adds to a PBF/TPBF attack (A22.611).
MOL_FP = 4


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
