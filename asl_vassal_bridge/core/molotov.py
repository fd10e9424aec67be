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

One module per step: :mod:`.location_tem` (the TEM of a Location, B23),
:mod:`.molotov_plan` (the declaration and its plan), this module (the attack
rolled and its consequences) and :mod:`.molotov_kindling` (a MOL helping a
Kindling attempt).  Every name is importable from here as before.

>>> from .hexes import Hex
>>> from .position import GameMap, HexInfo, Location, Position
>>> from .terrain import Terrain
>>> woods = {Hex.parse(h): HexInfo(Terrain.WOODS) for h in ("X8", "W9")}
>>> x8, w9 = Location(Hex.parse("X8")), Location(Hex.parse("W9"))
>>> plan = mol_attack(Position(GameMap.from_hexes(woods)), MolAttack(x8, w9, thrower_fp=3, available=True,
...                                                                  fire=FireType.PREP))
>>> plan.check.chance, plan.fp_with_mol, plan.column_with_mol
(Fraction(1, 3), 10, 8)
"""

from __future__ import annotations

from .dice import Dice
from .explain import DRM, CheckResult, Event, Report, format_drms
from .firestarts import NEVER_BREAKS_RULE, HutAttack, hut_fire_start, mol_flames, place_flame
from .flamethrower import (
    AttackOutcome,
    Consequence,
    ConsequenceKind,
    _fmt,
    _require_dr,
    afv_kill,
    break_unit,
    ft_possessor_attack,
    ift_column,
)
from .location_tem import location_tem, woods_or_orchard_hexside
from .molotov_kindling import MolKindlingOdds, mol_kindling_attempt, mol_kindling_odds
from .molotov_plan import MOL_FP, FireType, MolAttack, MolPlan, _mol_leadership, mol_attack, mol_check
from .position import Position, UnitKind
from .terrain import Terrain

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
