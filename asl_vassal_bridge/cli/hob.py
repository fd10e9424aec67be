"""``asl-fire hob``: Heat of Battle (A15) for one unit — its DRM, the exact odds, and the result.

    asl-fire hob --unit 4-6-7 --nationality german --broken --dice 3,4
    asl-fire hob --unit 8-1 --nationality russian --seed 7
    asl-fire hob --unit 2-4-7 --nationality german --no-enemy-in-los
    asl-fire hob demo --unit-id r2 --dice 3,4

With a POSITION (a .toml position file, a .vsav or ``demo``, read as every
other command reads it) the unit is named by its id: its designation,
nationality, kind and state come from the file instead of the options.
The unit's class and the Battle Hardening ladders come from the packaged unit
catalogue (derived from VASL's counter palette, ``asl_vassal_bridge/data``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.dice import Dice, Roll, ScriptedDice, SeededDice
from ..core.errors import BadInput
from ..core.explain import format_drms
from ..core.heat_of_battle import (
    HERO,
    WOUNDED_HERO,
    HeatOfBattle,
    HobResult,
    HobSituation,
    HobUnit,
    OutcomeChance,
    Trigger,
    battle_hardening,
    follows,
    heat_of_battle,
    hero_creation,
    hob_drms,
    hob_odds,
    not_subject,
    result_chance,
)
from ..core.position import Position, Unit, UnitKind
from ..core.units import (
    LeaderRating,
    MMCType,
    NationalCatalogue,
    Nationality,
    StrengthFactor,
    UnitClass,
    parse_designation,
    parse_nationality,
)
from ..data import unit_catalogue
from .options import add_vasl_options, load_position_arg, seed

__all__ = ["build_unit", "register", "run"]

#: --flag → HobUnit field (unit states and the A15.1 exemptions).
UNIT_FLAGS: dict[str, str] = {
    "broken": "broken", "elite": "elite", "inexperienced": "inexperienced", "fanatic": "fanatic", "ss": "ss",
    "nkvd": "nkvd", "gurkha": "gurkha", "unarmed": "unarmed", "temporary_crew": "temporary_crew", "prc": "prc",
    "human_wave": "human_wave", "berserk": "berserk", "climbing": "climbing", "swimming": "swimming",
    "wading": "wading", "boat": "in_boat", "parachute": "on_parachute",
}

_SIZES = {"squad": UnitKind.SQUAD, "half-squad": UnitKind.HALF_SQUAD, "hs": UnitKind.HALF_SQUAD,
          "crew": UnitKind.CREW}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("hob", help="Heat of Battle (A15): DRM, exact odds and the result for one unit",
                       description="Heat of Battle (A15) after an Original MC or Rally DR of 2: the DRM with their "
                                   "rules, the exact chance of each result (of 36), and the result when dice are "
                                   "given (--dice) or rolled (--seed).")
    p.add_argument("position", nargs="?", help="a .toml position file, a .vsav saved game (with --boards), or "
                   "'demo': the unit is then one of its units, named with --unit-id")
    add_vasl_options(p)
    p.add_argument("--unit-id", metavar="ID", help="the id of a unit of POSITION: its designation, nationality "
                   "(its name's or side's), kind, broken, berserk and Pillbox come from the file")
    p.add_argument("--unit", help='the unit: a Strength Factor ("4-6-7") or a leader ("8-1"), without a POSITION')
    p.add_argument("--nationality", help="german, russian, american, british, italian, japanese, finnish, french, "
                                         "partisan, hungarian, polish, … (with --unit-id: default the unit's)")
    p.add_argument("--size", choices=sorted(_SIZES), help="squad/half-squad/crew, when the catalogue cannot tell")
    p.add_argument("--class", dest="unit_class", metavar="CLASS",
                   help="elite, 1st, 2nd, green or conscript (overrides or completes the catalogue)")
    p.add_argument("--commissar", action="store_true", help="the leader is a Commissar")
    p.add_argument("--wounded-hero", action="store_true", help="the unit is a wounded hero (exempt)")
    g = p.add_argument_group("unit state (A15.1 DRM and exceptions)")
    g.add_argument("--broken", action="store_true", help="+1 (even if the 2 rallied it)")
    g.add_argument("--elite", action="store_true", help="count as Elite (-1) whatever the class")
    g.add_argument("--inexperienced", action="store_true", help="+1 (Green/Conscript are already)")
    g.add_argument("--fanatic", action="store_true", help="Fanatic (A10.8): never surrenders")
    g.add_argument("--ss", action="store_true", help="an SS unit (with --vs-russians: never surrenders)")
    g.add_argument("--nkvd", action="store_true", help="an NKVD unit (-1)")
    g.add_argument("--gurkha", action="store_true", help="a Gurkha unit: never surrenders")
    s = p.add_argument_group("situation")
    s.add_argument("--no-enemy-in-los", action="store_true", help="no Known enemy unit in LOS (A15.44)")
    s.add_argument("--adjacent-enemy", action="store_true",
                   help="an ADJACENT Known Good Order enemy Infantry/Cavalry unit (A15.5: surrender, not just "
                        "Disruption)")
    s.add_argument("--no-quarter", action="store_true", help="subject to No Quarter (A15.5)")
    s.add_argument("--vs-russians", action="store_true", help="the enemy is Russian (SS never surrender)")
    s.add_argument("--pillbox", action="store_true", help="in a Pillbox (Japanese: G1.62)")
    s.add_argument("--cave", action="store_true", help="in a Cave (Japanese: G11.97)")
    s.add_argument("--beach-assault", action="store_true",
                   help="Assaulting/Evacuating side in a Beach Location or on a Pier (G14.32)")
    s.add_argument("--enemy-in-ocean", action="store_true", help="the closest Known enemy unit is in Ocean (G13.491)")
    s.add_argument("--others-in-location", action="store_true",
                   help="other friendly units share the Location (a berserk leader: A15.41)")
    x = p.add_argument_group("not subject to Heat of Battle (A15.1)")
    for flag in ("unarmed", "temporary-crew", "prc", "human-wave", "berserk", "climbing", "swimming", "wading",
                 "boat", "parachute", "cavalry"):
        x.add_argument(f"--{flag}", action="store_true")
    r = p.add_argument_group("dice")
    r.add_argument("--trigger", choices=[t.value.lower() for t in Trigger],
                   help="the DR of 2 that led here (a Self-Rally never leads to Heat of Battle)")
    r.add_argument("--dice", help="the Heat of Battle DR as two die faces, colored first: 3,4")
    r.add_argument("--seed", type=seed, help="roll the DR with a seeded RNG")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def _find(cat: NationalCatalogue, sf: StrengthFactor, args: argparse.Namespace) -> MMCType | None:
    kind = _SIZES[args.size] if args.size else None
    found = list(cat.find(str(sf), kind))
    if args.ss:
        found = [m for m in found if "SS" in m.tags] or found
    if args.nkvd:
        found = [m for m in found if "NKVD" in m.tags] or found
    if args.unit_class:
        wanted = UnitClass.from_name(args.unit_class)
        found = [m for m in found if m.unit_class == wanted] or found
    if not found:
        return None
    plain = [m for m in found if not (m.tags - {"korea"})] or found
    classes = {m.unit_class for m in plain}
    kinds = {m.kind for m in plain}
    if len(classes) > 1 and not args.unit_class:
        names = ", ".join(sorted(m.describe() for m in plain))
        raise BadInput(f"--unit {sf}: the {cat.nationality.label} catalogue has {names}; say which with --class")
    if len(kinds) > 1:
        names = ", ".join(sorted(m.describe() for m in plain))
        raise BadInput(f"--unit {sf}: the {cat.nationality.label} catalogue has {names}; say which with --size")
    return plain[0]


def build_unit(args: argparse.Namespace) -> tuple[HobUnit, MMCType | None, NationalCatalogue]:
    """The HobUnit the arguments describe, the catalogue entry used (if any) and the nationality's catalogue.

    :raises BadInput: for an unknown nationality, a bad designation or an ambiguous unit.
    """
    nat, statuses = parse_nationality(args.nationality)  # "gurkha", "ss", "nkvd" keep their status (A15.5)
    if args.gurkha and nat is not Nationality.BRITISH:
        raise BadInput(f"--gurkha: Gurkhas are British, not {nat.label} (A15.5)")
    cat = unit_catalogue()[nat]
    flags: dict[str, Any] = {field: bool(getattr(args, opt, False)) for opt, field in UNIT_FLAGS.items()}
    for status in statuses:
        flags[status] = True
        setattr(args, status, True)
    designation = parse_designation(args.unit)
    if isinstance(designation, LeaderRating):
        return HobUnit(nat, UnitKind.LEADER, leader=designation, commissar=args.commissar, **flags), None, cat
    if args.commissar:
        raise BadInput(f"--commissar needs a leader rating such as 9-0, not {args.unit}")
    entry = _find(cat, designation, args)
    kind = entry.kind if entry else (_SIZES[args.size] if args.size else UnitKind.SQUAD)
    if args.cavalry:
        kind = UnitKind.CAVALRY
    elif entry is None and (designation in (HERO, WOUNDED_HERO) or args.wounded_hero):
        kind = UnitKind.HERO
    unit_class = UnitClass.from_name(args.unit_class) if args.unit_class else (entry.unit_class if entry else None)
    tags = entry.tags if entry else frozenset()
    flags["ss"] = flags["ss"] or "SS" in tags
    flags["nkvd"] = flags["nkvd"] or "NKVD" in tags
    return HobUnit(nat, kind, designation, unit_class=unit_class, tags=tags, **flags), entry, cat


#: A position's unit kind → --size (a squad is left to the catalogue: a file's kind defaults to squad).
_KIND_SIZES = {UnitKind.HALF_SQUAD: "half-squad", UnitKind.CREW: "crew"}


def _designation(unit: Unit, where: str) -> tuple[str, str, str]:
    """A position unit's name split at its unit designation: the words before it (a saved game's
    ``Russian``), the designation (``4-6-7``, ``8-1``) and the words after it (VASL's ``1sq``)."""
    words = unit.name.split()
    for i, word in enumerate(words):
        try:
            parse_designation(word)
        except BadInput:
            continue
        return " ".join(words[:i]), word, " ".join(words[i + 1:])
    raise BadInput(f"{where}: unit {unit.id} is named {unit.name!r}, not a unit designation (expected a Strength "
                   "Factor such as 4-6-7 or a leader rating such as 8-1 in its name)")


def _nationality(unit: Unit, before: str, where: str) -> str:
    """The nationality a position unit's name (a saved game's ``Russian 4-4-7``) or else its side names."""
    label = next((n.code for n in Nationality if n.label == before), None)
    if label is not None:
        return label
    for text in (before, unit.side):
        if not text:
            continue
        try:
            parse_nationality(text)
        except BadInput:
            continue
        return text
    raise BadInput(f"{where}: unit {unit.id} ({unit.name}, side {unit.side!r}) names no nationality; give "
                   "--nationality")


def _position_unit(args: argparse.Namespace) -> tuple[Position, Unit] | None:
    """With a POSITION: the unit --unit-id names, its designation, nationality, kind and state (broken, berserk,
    in a Pillbox, friendly units beside it: A15.1, A15.41, G1.62) written into *args* as the options would say
    them; None without a POSITION.

    :raises BadInput: a missing or bad position file, an unknown unit id, a unit that is no Infantry, or the
        options mixed up (--unit with --unit-id, --unit-id without a POSITION).
    """
    if args.position is None:
        if args.unit_id is not None:
            raise BadInput(f"--unit-id {args.unit_id} needs a POSITION (a .toml position file, a .vsav or 'demo') "
                           "holding that unit")
        if not (args.unit and args.nationality):
            raise BadInput("give --unit and --nationality, or a POSITION and --unit-id (one of its units)")
        return None
    if args.unit_id is None:
        raise BadInput("with a POSITION give the unit's id (--unit-id ID)")
    if args.unit is not None:
        raise BadInput("give --unit-id or --unit, not both: with a POSITION the unit's designation is its name there")
    pos = load_position_arg(args)
    where = str(args.position)
    unit = next((u for u in pos.units if u.id == args.unit_id), None)
    if unit is None:
        ids = sorted(u.id for u in pos.units)
        known = (f"expected one of: {', '.join(ids[:12])}{', …' if len(ids) > 12 else ''}" if ids
                 else "it holds no units")
        raise BadInput(f"{where}: no unit with id {args.unit_id!r}; {known}")
    if not (unit.kind.is_infantry or unit.kind is UnitKind.CAVALRY):
        raise BadInput(f"{where}: unit {unit.id} ({unit.name}) is a {unit.kind.value}: Heat of Battle follows an "
                       "Infantry unit's MC or Rally DR (A15.1); expected the id of an Infantry unit")
    before, designation, after = _designation(unit, where)
    args.unit = designation
    args.nationality = args.nationality or _nationality(unit, before, where)
    args.size = args.size or _KIND_SIZES.get(unit.kind)
    if after and not args.unit_class:  # a saved game's VASL name (4-6-7 1sq) tells the class
        nat, _ = parse_nationality(args.nationality)
        types = unit_catalogue().by_vasl_name(f"{designation} {after}", nat)
        unit_class = types[0][1].unit_class if types else None
        if unit_class is not None:
            args.unit_class = unit_class.label
    args.broken = args.broken or unit.broken
    args.berserk = args.berserk or unit.berserk
    args.cavalry = args.cavalry or unit.kind is UnitKind.CAVALRY
    args.pillbox = args.pillbox or unit.in_pillbox
    args.others_in_location = args.others_in_location or any(
        u.side == unit.side and u.location == unit.location and u.id != unit.id and not u.berserk
        and u.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.LEADER) for u in pos.units)
    return pos, unit


def _situation(args: argparse.Namespace) -> HobSituation:
    return HobSituation(
        known_enemy_in_los=not args.no_enemy_in_los, adjacent_known_good_order_enemy=args.adjacent_enemy,
        no_quarter=args.no_quarter, vs_russians=args.vs_russians, in_pillbox=args.pillbox, in_cave=args.cave,
        beach_or_pier_assault=args.beach_assault, closest_known_enemy_in_ocean=args.enemy_in_ocean,
        other_units_in_location=args.others_in_location)


def _dice(args: argparse.Namespace) -> Dice | None:
    if args.dice is not None and args.seed is not None:
        raise BadInput("give either --dice or --seed, not both")
    if args.dice is not None:
        try:
            faces = [int(x) for x in args.dice.replace(" ", "").split(",") if x]
            if len(faces) != 2:
                raise ValueError(f"{len(faces)} die faces given")
            return ScriptedDice(faces)
        except ValueError as e:
            raise BadInput(f"--dice {args.dice!r}: {e}; expected the two faces of the DR, colored first, "
                           f"e.g. 3,4") from None
    if args.seed is not None:
        return SeededDice(args.seed)
    return None


def _range(values: tuple[int, ...]) -> str:
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _odds_lines(odds: tuple[OutcomeChance, ...]) -> list[str]:
    lines = []
    for o in odds:
        pct = float(o.chance) * 100
        lines.append(f"  Original {_range(o.originals):>5}  Final {_range(o.finals):>5}  "
                     f"{o.label:<36} {o.ways:>2}/36  ({pct:4.1f}%)")
    return lines


def run(args: argparse.Namespace) -> int:
    """Print the Heat of Battle DRM, odds and (with dice) the result; 0 on success."""
    if args.trigger and not follows(2, {t.value.lower(): t for t in Trigger}[args.trigger]):
        print(f"No Heat of Battle after a {args.trigger} DR (A15.1: only an Original MC or Rally DR of 2).")
        return 0
    found = _position_unit(args)
    unit, entry, cat = build_unit(args)
    situation = _situation(args)
    dice = _dice(args)
    exempt = not_subject(unit)
    if args.json:
        data = _as_json(unit, entry, cat, situation, dice, exempt)
        if found is not None:
            pos, u = found
            data["position_unit"] = {"position": str(args.position), "id": u.id, "name": u.name, "side": u.side,
                                     "at": pos.loc_name(u.location)}
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    out = [f"Heat of Battle (A15.1): {unit.describe()}"]
    if found is not None:
        pos, u = found
        out.append(f"  from {args.position}: unit {u.id} ({u.name}, {u.side}) in {pos.loc_name(u.location)}")
    if entry is not None:
        out.append(f"  catalogue: {entry.describe()} — {', '.join(entry.vasl_names)} "
                   f"({unit_catalogue().source}; class: {entry.class_source or 'not known'})")
    elif unit.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD):
        out.append(f"  {unit.designation} is not in the {cat.nationality.label} catalogue")
    if exempt:
        out.append(f"Not subject to Heat of Battle: {', '.join(exempt)}")
        print("\n".join(out))
        return 0
    drms = hob_drms(unit)
    out.append(f"DRM: {format_drms(drms)} (no leadership DRM)")
    odds = hob_odds(unit, situation)
    out.append("Chance of each result (exact):")
    out += _odds_lines(odds)
    for res in (HobResult.HERO_CREATION, HobResult.BATTLE_HARDENING, HobResult.BERSERK):
        c = result_chance(odds, res)
        if c and any(len(o.results) > 1 for o in odds if res in o.results):
            out.append(f"  {res.label} in all: {int(c * 36)}/36")
    bh = battle_hardening(unit, cat)
    if bh.after or bh.fanatic:
        what = f"{bh.before} → {bh.after}" if bh.after else f"{bh.before} becomes Fanatic"
        out.append(f"Battle Hardening would give: {what} (A15.3)")
    elif bh.note:
        out.append(f"Battle Hardening: {bh.note} (A15.3)")
    hero = hero_creation(unit)
    who = f"the {unit.designation} leader turns heroic" if unit.is_leader else "a new hero"
    out.append(f"Hero Creation would give: {who}, {hero.hero} ({hero.wounded} wounded) (A15.21)")
    if dice is not None:
        hob: HeatOfBattle = heat_of_battle(unit, dice, situation, cat)
        out.append(hob.report().text())
    print("\n".join(out))
    return 0


def _as_json(unit: HobUnit, entry: MMCType | None, cat: NationalCatalogue, situation: HobSituation,
             dice: Dice | None, exempt: tuple[str, ...]) -> dict[str, Any]:
    data: dict[str, Any] = {"unit": unit.describe(), "catalogue": entry.describe() if entry else None,
                            "not_subject": list(exempt)}
    if exempt:
        return data
    data["drms"] = [{"value": d.value, "reason": d.reason, "rule": d.rule} for d in hob_drms(unit)]
    data["odds"] = [{"results": [r.label for r in o.results], "chance": f"{o.ways}/36", "ways": o.ways,
                     "fraction": str(o.chance), "finals": list(o.finals)} for o in hob_odds(unit, situation)]
    if dice is not None:
        hob = heat_of_battle(unit, dice, situation, cat)
        roll: Roll = hob.roll
        data["roll"] = {"colored": roll.colored, "white": roll.white, "final": hob.final,
                        "results": [r.label for r in hob.results]}
        data["consequences"] = [{"rule": e.rule, "text": e.text, "kind": e.kind} for e in hob.consequences()]
    return data


if __name__ == "__main__":  # pragma: no cover
    parser = argparse.ArgumentParser(prog="asl-fire")
    register(parser.add_subparsers(dest="command", required=True))
    ns = parser.parse_args()
    sys.exit(ns.func(ns))
