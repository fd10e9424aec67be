"""What each Heat of Battle result does to the unit (a step of :mod:`.heat_of_battle`): Hero Creation (A15.2),
Battle Hardening (A15.3), Berserk (A15.4) with the berserk unit's charge target (A15.43) and Surrender (A15.5)."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import BadInput
from .explain import Event
from .heat_of_battle_roll import HERO, WOUNDED_HERO, HobUnit
from .units import (
    STANDARD_LEADER_LADDER,
    LeaderRating,
    MMCType,
    NationalCatalogue,
    StrengthFactor,
    UnitClass,
    next_grade,
)
from .values import value

__all__ = [
    "BERSERK_MF",
    "BERSERK_MORALE",
    "FORMATION_TAGS",
    "BattleHardening",
    "BerserkOutcome",
    "ChargeAdvice",
    "ChargeCandidate",
    "HeroCreation",
    "SurrenderOutcome",
    "battle_hardening",
    "berserk_returns_to_normal",
    "charge_target",
    "hero_creation",
]


#: Berserk units' base Morale Level (A15.42) and Movement Factors (A15.431).
BERSERK_MORALE = 10


BERSERK_MF = 8


#: Tags (from the catalogue) that name a formation rather than a different unit type (A15.3 candidates).
FORMATION_TAGS = frozenset({"SS", "Lehr", "OBLI", "airborne", "FJ", "Hungarian"})


@value
class HeroCreation:
    """A hero created (A15.21): a new 1-4-9 beside an MMC, or the leader himself turned heroic."""

    hero: StrengthFactor
    wounded: StrengthFactor
    heroic_leader: LeaderRating | None = None
    rallied: bool = False
    before_hardening: LeaderRating | None = None

    def events(self) -> tuple[Event, ...]:
        if self.heroic_leader is None:
            return (
                Event("A15.21", f"a {self.hero} hero is created beside the MMC (its wounded side is {self.wounded})",
                      kind="hero"),
                Event("A15.21", "the new hero takes the MMC's fire/movement markers (e.g. Prep Fire, TI); "
                                "the MMC is otherwise unaffected", kind="hero"),
            )
        who = f"{self.heroic_leader}"
        refused = ""
        if self.before_hardening is not None and self.before_hardening != self.heroic_leader:
            who = f"{self.before_hardening} (as a {self.heroic_leader} after Battle Hardening)"
            m = max(HERO.morale, self.before_hardening.morale)
            if m != self.hero.morale:
                refused = f"; 1-4-{m} if Battle Hardening is refused"
        out = [Event("A15.21", f"the {who} leader turns heroic: a {self.hero} hero ({self.wounded} if wounded"
                               f"{refused}) marked with a Hero counter; it keeps its leadership and leader "
                               f"abilities", kind="hero"),
               Event("A15.21", "its heroic DRM and leadership DRM may not be combined", kind="hero")]
        if self.rallied:
            out.insert(1, Event("A15.21", "the leader rallies automatically", kind="rally"))
        return tuple(out)


def hero_creation(unit: HobUnit, leader: LeaderRating | None = None) -> HeroCreation:
    """The hero *unit* creates (A15.21); *leader* is the leader's rating to use (after Battle Hardening).

    A heroic 10-2 or 10-3 leader keeps its morale: 1-4-10 (1-3-9 wounded).
    """
    if not unit.is_leader:
        return HeroCreation(HERO, WOUNDED_HERO)
    rating = leader or unit.leader
    assert rating is not None
    morale = max(HERO.morale, rating.morale)
    return HeroCreation(StrengthFactor(1, 4, morale), StrengthFactor(1, 3, morale - 1), rating, unit.broken,
                        unit.leader)


@value
class BattleHardening:
    """Battle Hardening (A15.3): the replacement, or Fanatic status, or why nothing is known.

    *options* holds every replacement with the least gain (more than one: the owner picks);
    *skipped* the higher classes that had no unit without a lower number.
    """

    before: str
    after: str | None = None
    fanatic: bool = False
    options: tuple[MMCType, ...] = ()
    skipped: tuple[UnitClass, ...] = ()
    note: str = ""
    rallied: bool = False

    @property
    def changes(self) -> bool:
        return self.after is not None or self.fanatic

    @property
    def refusable(self) -> bool:
        """Any change Battle Hardening makes (a new unit, Fanatic status) can be refused (A15.3)."""
        return self.changes

    def events(self) -> tuple[Event, ...]:
        out: list[Event] = []
        if self.after is not None:
            out.append(Event("A15.3", f"{self.before} is exchanged for a {self.after}"
                                      f"{' (unbroken, unpinned)' if self.rallied else ''}", kind="hardening"))
            if self.options:
                names = ", ".join(o.describe() for o in self.options)
                out.append(Event("A15.3", f"equal least gain: {names}", kind="hardening"))
            for c in self.skipped:
                out.append(Event("A15.3", f"no {c.label} unit of the same size without a lower number; "
                                          f"next class up", kind="hardening"))
        if self.fanatic:
            out.append(Event("A15.3", f"{self.before} becomes Fanatic (A10.8) for the rest of the game, "
                                      f"even if later Replaced or Reduced", kind="hardening"))
        if self.note:
            out.append(Event("A15.3", f"{self.before}: {self.note}", kind="hardening"))
        if self.refusable:
            out.append(Event("A15.3", "the owner may refuse Battle Hardening", kind="hardening"))
        return tuple(out)


def _candidate(unit: HobUnit, strength: StrengthFactor, m: MMCType) -> bool:
    """*m* may replace *unit* (of *strength*): same size, Korean War or not alike, no special type it lacks (A15.3)."""
    if m.kind != unit.kind or ("korea" in m.tags) != ("korea" in unit.tags):
        return False
    return m.tags - FORMATION_TAGS <= unit.tags and m.strength.none_lower_than(strength)


def battle_hardening(unit: HobUnit, catalogue: NationalCatalogue | None = None) -> BattleHardening:
    """What Battle Hardening does to *unit* (A15.3), from its nationality's *catalogue*.

    Leaders step up their ladder (a Finnish/Japanese 9-1 to 10-0); MMC become the
    same size of the next higher class with no number lower and the least gain;
    an elite MMC, the best possible leader or a partisan becomes Fanatic instead.

    >>> from .position import UnitKind
    >>> from .units import Nationality
    >>> battle_hardening(HobUnit(Nationality.GERMAN, UnitKind.LEADER, leader=LeaderRating.parse("9-2"))).after
    '10-2'
    """
    before = unit.designation
    if unit.is_leader:
        assert unit.leader is not None
        if catalogue is not None:
            ladder = catalogue.commissars if unit.commissar else catalogue.leaders
        else:
            ladder = () if unit.commissar else STANDARD_LEADER_LADDER
        if not ladder:
            return BattleHardening(before, note=f"no {unit.nationality.label} commissar ladder known")
        nxt = next_grade(unit.leader, ladder)
        if nxt is not None:
            return BattleHardening(before, str(nxt), rallied=unit.broken)
        why = "the best possible leader"
    elif unit.is_partisan or unit.is_elite:
        why = "a partisan" if unit.is_partisan else "already elite"
    elif unit.unit_class is None or unit.strength is None:
        return BattleHardening(before, note=f"its class is not in the {unit.nationality.label} catalogue: "
                                            f"choose the next higher class by hand")
    else:
        return _next_class(unit, unit.unit_class, unit.strength, catalogue)
    if unit.fanatic:
        return BattleHardening(before, note="already Fanatic, so no loftier status from another Battle Hardening")
    return BattleHardening(before, fanatic=True, note=why)


def _next_class(unit: HobUnit, unit_class: UnitClass, strength: StrengthFactor,
                catalogue: NationalCatalogue | None) -> BattleHardening:
    """An MMC's Battle Hardening: the same size of the next higher class with no lower number, least gain (A15.3)."""
    before = unit.designation
    mmc = [m for m in (catalogue.mmc if catalogue else ()) if _candidate(unit, strength, m)]
    skipped: list[UnitClass] = []
    for cls in sorted({c for c in UnitClass if c > unit_class}):
        options = [m for m in mmc if m.unit_class == cls]
        if not options:
            if any(m.unit_class == cls for m in (catalogue.mmc if catalogue else ()) if m.kind == unit.kind):
                skipped.append(cls)
            continue
        least = min(m.strength.gain_over(strength) for m in options)
        best = [m for m in options if m.strength.gain_over(strength) == least]
        designations = sorted({m.designation for m in best})
        return BattleHardening(before, " or ".join(designations), options=tuple(best) if len(designations) > 1 else (),
                               skipped=tuple(skipped), rallied=unit.broken)
    return BattleHardening(before, note=f"no higher-class {unit.nationality.label} {unit.kind.value} without a "
                                        f"lower number is in the catalogue")


@value
class BerserkOutcome:
    """A unit gone berserk (A15.4–A15.46)."""

    rallied: bool = False
    leader: bool = False
    other_units: bool = False

    def events(self) -> tuple[Event, ...]:
        out = [Event("A15.4", "mark it BERSERK", kind="berserk")]
        if self.rallied:
            out.append(Event("A15.4", "a broken unit that goes berserk rallies automatically", kind="rally"))
        out += [
            Event("A15.42", f"base Morale Level {BERSERK_MORALE}, never lowered; a failed MC means Casualty "
                            f"Reduction, not breaking; no PAATC, LLMC or LLTC", kind="berserk"),
            Event("A15.42", "loses any CX, TI, Concealment or pinned status; gets no leadership DRM from "
                            "friendly leaders", kind="berserk"),
        ]
        if self.leader:
            who = "the other friendly units in its Location" if self.other_units else \
                "any other friendly units in its Location"
            out += [Event("A15.41", f"after any fire vs other targets in its Location, {who} (even broken; "
                                    f"not those exempt from Heat of Battle) each take a NTC modified by this "
                                    f"leader: passing makes them berserk", kind="berserk"),
                    Event("A15.41", "the leader then loses its leadership DRM until it returns to normal",
                          kind="berserk")]
        out += [
            Event("A15.43", "at the start of its MPh it must charge the nearest (in hexes) Known enemy unit in its "
                            "LOS and enter its Location to attack in CC (not into a pillbox or Fortified Building)",
                  kind="advice"),
            Event("A15.431", f"{BERSERK_MF} MF (3 if wounded), by the shortest route in MF; no Assault Movement; "
                             f"may Dash across a road", kind="advice"),
            Event("A15.45", "never charges through a Blaze, an unbridged Water Obstacle or a cliff: it charges the "
                            "next nearest Known enemy unit instead (A15.44 if none)", kind="advice"),
            Event("A15.46", "returns to Good Order when it (or its group) eliminates all Known enemy units in its "
                            "Location (at least one) by TPBF or FT in the AFPh or by CC, or when no Known enemy "
                            "unit is in its LOS at the end of a charge", kind="advice"),
        ]
        return tuple(out)


@value
class SurrenderOutcome:
    """A Surrender result (A15.5): broken, Disrupted, and surrendered if an enemy is ADJACENT."""

    surrenders: bool
    was_broken: bool = False

    def events(self) -> tuple[Event, ...]:
        broken = "stays broken" if self.was_broken else "breaks"
        out = [Event("A15.5", f"the unit {broken} and is Disrupted (A19.12)", kind="surrender")]
        if self.surrenders:
            out.append(Event("A15.5", "it surrenders at once to an ADJACENT Known Good Order enemy Infantry/Cavalry "
                                      "unit, as if in the same Location", kind="surrender"))
        else:
            out.append(Event("A15.5", "no ADJACENT Known Good Order enemy Infantry/Cavalry: no surrender",
                             kind="surrender"))
        return tuple(out)


@value
class ChargeCandidate:
    """A Known enemy unit a berserk unit might charge (A15.43, A15.45).

    *blocked_by* names what bars every shortest route (``"Blaze"``, ``"unbridged Water Obstacle"``,
    ``"cliff"``); *alternate_hexes* is the length of a route around it, if any.
    """

    name: str
    hexes: int
    known: bool = True
    in_los: bool = True
    blocked_by: str | None = None
    alternate_hexes: int | None = None


@value
class ChargeAdvice:
    """The unit(s) a berserk unit must charge (several if equidistant: the ATTACKER chooses), and why."""

    targets: tuple[str, ...]
    notes: tuple[Event, ...] = ()

    def describe(self) -> str:
        who = " or ".join(self.targets) + (" (equidistant: the ATTACKER chooses)" if len(self.targets) > 1 else "")
        notes = "; ".join(e.describe() for e in self.notes)
        return f"charge {who} (A15.43)" + (f"; {notes}" if notes else "")


def charge_target(candidates: Sequence[ChargeCandidate]) -> ChargeAdvice | None:
    """Which Known enemy unit in LOS a berserk unit charges (A15.43), skipping barred ones (A15.45).

    None means nothing can be charged: a new berserk result becomes Battle Hardening (A15.44).

    >>> charge_target([ChargeCandidate("A", 2, blocked_by="Blaze"), ChargeCandidate("B", 3)]).targets
    ('B',)
    """
    if any(c.hexes < 0 for c in candidates):
        raise BadInput("a charge candidate's range in hexes must be ≥ 0")
    seen = sorted((c for c in candidates if c.known and c.in_los), key=lambda c: c.hexes)
    notes: list[Event] = []
    pool = list(seen)
    while pool:
        nearest = pool[0].hexes
        group = [c for c in pool if c.hexes == nearest]
        rest = [c for c in pool if c.hexes > nearest]
        next_distance = rest[0].hexes if rest else None
        open_ = [c.name for c in group if c.blocked_by is None]
        around = [c for c in group if c.blocked_by is not None and c.alternate_hexes is not None
                  and (next_distance is None or c.alternate_hexes < next_distance)]
        if open_ or around:
            for c in around:
                notes.append(Event("A15.45", f"{c.name}: around the {c.blocked_by} ({c.alternate_hexes} hexes)"))
            return ChargeAdvice(tuple(open_ + [c.name for c in around]), tuple(notes))
        for c in group:
            notes.append(Event("A15.45", f"{c.name}: will not charge through a {c.blocked_by}"))
        pool = rest
    return None


def berserk_returns_to_normal(cleared_location_by: str | None = None,
                              known_enemy_in_los_at_end_of_charge: bool = True) -> Event | None:
    """Whether a berserk unit returns to Good Order (A15.46), as an Event, or None.

    *cleared_location_by* is how it (or its group) eliminated all (at least one) Known enemy units
    in its Location: ``"TPBF"`` or ``"FT"`` in the AFPh, or ``"CC"``.

    :raises BadInput: for any other means.
    """
    if cleared_location_by is not None:
        if cleared_location_by not in ("TPBF", "FT", "CC"):
            raise BadInput(f"berserk return to normal (A15.46): {cleared_location_by!r} is not TPBF, FT or CC")
        return Event("A15.46", f"eliminated all Known enemy units in its Location by {cleared_location_by}: "
                               f"returns to Good Order", kind="rally")
    if not known_enemy_in_los_at_end_of_charge:
        return Event("A15.46", "no Known enemy unit in its LOS at the end of its charge: berserk status removed "
                               "at the end of the phase (A15.431)", kind="rally")
    return None
