"""``asl-fire demo``, ``asl-fire odds`` and ``asl-fire upkeep``: the fire rules on the command line."""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from collections.abc import Iterator
from typing import Any

from ..core.dice import Dice, DiceExhaustedError, ScriptedDice, SeededDice
from ..core.errors import BadInput
from ..core.explain import Check, Report
from ..core.fire import pending_rolls
from ..core.position import Location, Phase, Position, Unit, UnitKind
from ..core.turn import pending_from_clock, run_phase
from ..core.values import replace
from ..core.wind import wind_change_odds
from .options import (
    LEADER_DRM,
    add_force,
    add_vasl_options,
    bounded_int,
    check_dice_used,
    die_faces,
    load_position_arg,
    seed,
)

__all__ = ["register", "run_phase"]


def _dice(args: argparse.Namespace) -> Dice:
    text = getattr(args, "dice", None)
    if text is not None:
        return ScriptedDice(die_faces(text))
    return SeededDice(getattr(args, "seed", None))


@contextlib.contextmanager
def _named_dice() -> Iterator[None]:
    """Scripted dice that ran out: the message names --dice, the option to fix."""
    try:
        yield
    except DiceExhaustedError as e:
        raise BadInput(f"--dice: {e}; give exactly the dice rolled, nothing was applied") from None


def _load(args: argparse.Namespace) -> Position:
    return load_position_arg(args)


def _report_json(pos: Position, rep: Report) -> dict[str, Any]:
    events = []
    for e in rep.events:
        d: dict[str, Any] = {"rule": e.rule, "text": e.text, "kind": e.kind, "location": e.location}
        if e.roll is not None:
            c = e.roll.check
            d["roll"] = {"colored": e.roll.roll.colored, "white": e.roll.roll.white, "final": e.roll.final,
                         "needed": c.needed, "at_most": c.at_most, "outcome": e.roll.outcome,
                         "drms": [{"value": x.value, "reason": x.reason, "rule": x.rule} for x in c.drms]}
        events.append(d)
    return {"title": rep.title, "clock": str(pos.clock), "events": events}


def cmd_odds(args: argparse.Namespace) -> int:
    pos = _load(args)
    rph, at = pending_from_clock(pos)
    rolls = pending_rolls(at)
    wc = wind_change_odds(pos)
    afph = f"Turn {at.clock.turn}.{at.clock.half} AFPh"
    next_rph = at.clock.next_player_turn() if rph is None else rph
    rph_name = f"Turn {next_rph.turn}.{next_rph.half} RPh"
    if args.json:
        out = []
        for r in rolls:
            d: dict[str, Any] = {
                "kind": r.kind, "location": pos.loc_name(r.location), "chance": str(r.chance),
                "probability": float(r.chance), "automatic": r.automatic,
                "source": pos.loc_name(r.source) if r.source else None,
            }
            if r.kind == "blaze":
                d["extinguish_chance"] = str(r.extinguish_chance)
            if r.check is not None:
                d.update(rule=r.check.rule, needed=r.check.needed, needed_original=r.check.needed_original,
                         drms=[{"value": x.value, "reason": x.reason, "rule": x.rule} for x in r.check.drms])
            if r.check is None or r.reason:
                d["reason"] = r.reason
            out.append(d)
        rph_out = {"phase": rph_name, "before_afph": rph is not None, "wind_change": str(wc.change),
                   "gusts": str(wc.gusts), "collapse": str(wc.collapse)}
        json.dump({"clock": str(pos.clock), "afph": afph, "rolls": out, "next_rph": rph_out},
                  sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    gusting = ", Gusts this Player Turn" if pos.environment.gusts else ""
    wind_line = (f"wind change {wc.change}, Gusts {wc.gusts}, Collapse {wc.collapse} (B25.65, B25.651, B25.66)")
    print(f"{pos.name or args.position} — now {pos.clock}, EC {pos.environment.ec.label}, {pos.environment.wind}"
          f"{gusting}")
    unsaid = _unsaid_note(pos)
    if unsaid:
        print(unsaid)
    if pos.environment.gusts and rph is not None:
        print(f"  The Gusts end at the {rph_name} unless its Wind Change DR is 12 again ({wc.gusts}, B25.651); "
              "the odds below are without them.")
    elif at.environment.gusts and at.environment.wind.direction is None:
        print("  Gusts with No Wind: their direction is a dr at the end of the AFPh (B25.651); each chance below "
              "folds in the six directions.")
    if rph is not None:
        print(f"{rph_name}: {wind_line}")
    print(f"{afph}{', if the wind holds (Wind Change DR 3–11)' if rph is not None else ''}: "
          f"{len(rolls) or 'no'} fire roll(s) pending at its end")
    for r in rolls:
        name = pos.loc_name(r.location)
        if r.kind == "blaze":
            assert r.check is not None
            print(f"  Flame→Blaze {name:8} Blaze {r.chance} ({float(r.chance):.1%}), out {r.extinguish_chance} — "
                  f"{r.check.describe()}")
        elif r.kind == "gust":
            print(f"  Gust     {name:8} {r.chance} ({float(r.chance):.1%}) — {r.reason} from "
                  f"{pos.loc_name(r.source) if r.source else '?'} (B25.651)")
        elif r.automatic:
            print(f"  Spread   {name:8} certain — {r.reason} from {pos.loc_name(r.source) if r.source else '?'}")
        elif r.reason:
            print(f"  Spread   {name:8} {r.chance} ({float(r.chance):.1%}) — {r.reason} (B25.651)")
        else:
            assert r.check is not None
            print(f"  Spread   {name:8} {r.chance} ({float(r.chance):.1%}) — {r.check.describe()}")
    note = _several_flames_note(at)
    if note:
        print(note)
    if rph is None:
        print(f"Then {rph_name}: {wind_line}")
    return 0


def _unsaid_note(pos: Position) -> str | None:
    """Say what the position leaves to the scenario-start drs (B25.5, B25.63) and what is assumed meanwhile."""
    env = pos.environment
    unsaid = (["EC (Moderate assumed; the EC Chart dr, B25.5)"] if not env.ec_given else []) + (
        ["wind (No Wind assumed; the Wind Force dr, B25.63)"] if not env.wind_given else [])
    if not unsaid:
        return None
    return f"  The position does not give its {' or its '.join(unsaid)}: `asl-fire setup` rolls them."


def cmd_setup(args: argparse.Namespace) -> int:
    from ..core.setup import scenario_start

    pos = _load(args)
    env = pos.environment
    what = {"missing": (not env.ec_given, not env.wind_given), "ec": (True, False), "wind": (False, True),
            "all": (True, True)}[args.roll]
    if not any(what):
        print(f"The position gives its EC ({env.ec.label}) and wind ({env.wind}): nothing to roll "
              "(--roll ec, wind or all rolls them anyway; B25.5, B25.63).")
        return 0
    if args.month is not None and not 1 <= args.month <= 12:
        raise BadInput(f"--month {args.month}: expected 1–12")
    dice = _dice(args)
    with _named_dice():
        new, rep = scenario_start(pos, dice, ec=what[0], wind=what[1], month=args.month)
    check_dice_used(dice)
    return _finish(args, new, rep)


def cmd_upkeep(args: argparse.Namespace) -> int:
    pos = _load(args)
    dice = _dice(args)
    note = _several_flames_note(pos) if args.phase == "afph" else None
    with _named_dice():
        new, rep = run_phase(pos, args.phase, dice)
    check_dice_used(dice)
    unsaid = _unsaid_note(pos)
    if unsaid:
        note = f"{note}\n{unsaid}" if note else unsaid
    return _finish(args, new, rep, note)


def _flame_counts(pos: Position) -> dict[str, int]:
    counts: dict[str, int] = {}
    for f in sorted(pos.flames(), key=lambda f: f.location):
        name = pos.loc_name(f.location)
        counts[name] = counts.get(name, 0) + 1
    return counts


def _several_flames_note(pos: Position) -> str | None:
    """Why a Location lists several Flames (and several Flame→Blaze DRs): B25.15 allows it."""
    several = [f"{name} ({n})" for name, n in _flame_counts(pos).items() if n > 1]
    if not several:
        return None
    return (f"  Several Flames in one Location: {', '.join(several)}. More than one Flame may be in a Location "
            "(B25.15): each makes its own Flame→Blaze DR, and all are removed when one becomes a Blaze.")


def _print_state(pos: Position) -> None:
    blazes = ", ".join(pos.loc_name(f.location) for f in sorted(pos.blazes(), key=lambda f: f.location)) or "none"
    flames = ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in _flame_counts(pos).items()) or "none"
    wrecks = ", ".join(pos.loc_name(w.location) for w in pos.burning_wrecks()) or "none"
    print(f"  Blazes: {blazes}\n  Flames: {flames}\n  Burning Wrecks: {wrecks}\n  Wind: {pos.environment.wind}")
    note = _several_flames_note(pos)
    if note:
        print(note)


def cmd_demo(args: argparse.Namespace) -> int:
    from ..core.exits import blaze_report
    from ..core.firestarts import kindling_attempt
    from ..core.smoke import fire_smoke
    from ..core.victory import fire_control
    from ..scenarios import demo_position

    pos = demo_position()
    dice = SeededDice(args.seed)
    from pathlib import Path

    out = Path(args.out)
    _check_demo_out(out, args.force)
    out.mkdir(parents=True, exist_ok=True)
    _write_pictures(pos, out, "before", f"{pos.name} — before")
    print(f"{pos.name}: {pos.notes}")
    print(f"Seed {args.seed}; EC {pos.environment.ec.label}, {pos.environment.wind}.")
    _print_state(pos)
    for i in range(args.turns):
        pos, rep = run_phase(pos, "rph", dice)
        print(f"\n== {pos.attacker} Player Turn {pos.clock.turn}.{pos.clock.half} ==")
        print(rep.text())
        if i == 0:
            kindler = next((u for u in pos.units if u.side == pos.attacker and u.kind is UnitKind.SQUAD
                            and pos.map.is_burnable(u.location) and pos.blaze_at(u.location) is None), None)
            if kindler is not None:
                pos = replace(pos, clock=replace(pos.clock, phase=Phase.PFPH))
                pos, krep = kindling_attempt(pos, kindler.location, UnitKind.SQUAD, dice, side=pos.attacker,
                                             leader_drm=-1)
                print(f"PFPh: the {kindler.name} in {pos.loc_name(kindler.location)}, directed by an 8-1, "
                      "tries to Kindle it")
                print(krep.text())
        odds = pending_rolls(replace(pos, clock=replace(pos.clock, phase=Phase.AFPH)))
        if odds:
            best = max(odds, key=lambda r: r.chance)
            print(f"AFPh: {len(odds)} fire roll(s) pending; best odds {pos.loc_name(best.location)} "
                  f"{best.chance} ({float(best.chance):.0%})")
        note = _several_flames_note(pos)
        pos, rep = run_phase(pos, "afph", dice)
        print(rep.text())
        if note:
            print(note)
        rt = blaze_report(pos)
        if rt.events:
            print(rt.text())
    print("\nAfter the demo:")
    _print_state(pos)
    smoke = fire_smoke(pos)
    if smoke:
        print(f"  Smoke: {len(smoke)} fire(s) smoking, {smoke[0].height}-level Hindrance (B25.2)")
    for control in fire_control(pos):
        print(f"  {control.describe(pos)}")
    _write_pictures(pos, out, "after", f"{pos.name} — after {args.turns} Player Turns")
    from ..posfile import dump

    dump(pos, out / "after.toml")
    print(f"\nPictures: {out / 'before.png'}, {out / 'after.png'} (and .svg); final position: {out / 'after.toml'}")
    return 0


def _write_pictures(pos: Position, out: Any, stem: str, title: str) -> None:
    """``STEM.svg`` and ``STEM.png`` of *pos* in *out*, each written beside the old one and renamed over it."""
    from .._outputs import replacing
    from ..render import render_png, render_svg

    with replacing(out / f"{stem}.svg") as tmp:
        tmp.write_text(render_svg(pos, title=title), "utf-8")
    with replacing(out / f"{stem}.png") as tmp:
        render_png(pos, tmp, title=title)


def _check_demo_out(out: Any, force: bool) -> None:
    """--out: a folder (made if missing) whose before/after files are the demo's own kind, else --force."""
    from .._outputs import PNG, POSITION, SVG, check_output

    if not str(out).strip():
        raise BadInput("--out '': an empty folder name; expected the folder for the pictures, e.g. --out asl-fire-demo")
    if out.exists() and not out.is_dir():
        raise BadInput(f"--out {out}: not a folder; expected the folder for the pictures (made if missing)")
    if out.is_dir():
        for name, kind in (("before.svg", SVG), ("before.png", PNG), ("after.svg", SVG), ("after.png", PNG),
                           ("after.toml", POSITION)):
            check_output(out / name, "--out", kind, force=force)


def _finish(args: argparse.Namespace, new: Position, rep: Report, note: str | None = None) -> int:
    if args.json:
        data = _report_json(new, rep)
        if note:
            data["note"] = note.strip()
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print(rep.text())
        if note:
            print(note)
    if args.output:
        from ..posfile import dump

        dump(new, args.output)
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


_LEADER = re.compile(r"^\s*(\d+)\s*([-+])\s*(\d)\s*$")


def leader_modifier(name: str) -> int | None:
    """A leader counter's modifier from its name: ``8-1`` → −1, ``9-2`` → −2, ``7-0`` → 0, ``6+1`` → +1.

    >>> leader_modifier("8-1"), leader_modifier("6+1"), leader_modifier("4-6-7")
    (-1, 1, None)
    """
    m = _LEADER.match(name)
    if m is None:
        return None
    return -int(m.group(3)) if m.group(2) == "-" else int(m.group(3))


def _good_order(pos: Position, loc: Location, side: str) -> list[Unit]:
    """The unpinned Good Order units of *side* in *loc*: not broken, pinned, in Melee nor berserk (a berserk unit
    returns to Good Order only when its berserk status ends, A15.46; it never directs, A15.41, nor clears, Fire
    cheat sheet: Flame Clearance)."""
    return [u for u in pos.units if u.location == loc and u.side == side and not u.broken and not u.pinned
            and not u.in_melee and not u.berserk]


def _directing_leader(pos: Position, loc: Location, side: str) -> tuple[Unit, int] | None:
    """The best Good Order leader of *side* in *loc* with a modifier read from its name, or None."""
    leaders = [(u, m) for u in _good_order(pos, loc, side) if u.kind is UnitKind.LEADER
               and (m := leader_modifier(u.name)) is not None]
    return min(leaders, key=lambda um: um[1]) if leaders else None


def _check_json(check: Check, **extra: Any) -> dict[str, Any]:
    return {"check": check.name, "rule": check.rule, "needed": check.needed, "at_most": check.at_most,
            "needed_original": check.needed_original, "chance": str(check.chance),
            "probability": float(check.chance),
            "drms": [{"value": x.value, "reason": x.reason, "rule": x.rule} for x in check.drms], **extra}


def _at_phase(args: argparse.Namespace, pos: Position) -> Position:
    """The position at ``--phase`` if given, else at its own clock's phase."""
    if not getattr(args, "phase", None):
        return pos
    try:
        phase = Phase.from_name(args.phase)
    except ValueError as e:
        raise BadInput(f"--phase: {e}") from None
    return replace(pos, clock=replace(pos.clock, phase=phase))


def cmd_kindle(args: argparse.Namespace) -> int:
    from ..core.firestarts import kindling_attempt, kindling_check

    pos = _at_phase(args, _load(args))
    loc = pos.map.parse_location(args.at)
    unit = UnitKind(args.unit)
    side = args.side or pos.attacker
    if side not in pos.sides:
        raise BadInput(f"--side {side!r}: expected one of {list(pos.sides)}")
    leader = None if args.leader is None else int(args.leader)
    directed = ""
    if leader is None and not unit.is_smc:
        found = _directing_leader(pos, loc, side)
        if found is not None:
            u, leader = found
            directed = f"directed by the {u.name} ({u.id}) in {pos.loc_name(loc)}, from the position's units"
    if args.mol:
        # A22.613: the +2 needs a unit with a MOL, ascertained by its MOL Check dr: fold it into the odds.
        from ..core.molotov import mol_kindling_attempt, mol_kindling_odds

        odds = mol_kindling_odds(pos, loc, unit, leader_drm=leader, check_phase=not args.odds)
        if args.odds:
            if args.json:
                data = _check_json(odds.without_mol, directed_by=directed or None,
                                   mol_check=_check_json(odds.mol_check), with_mol=_check_json(odds.with_mol))
                data.update(chance=str(odds.chance), probability=float(odds.chance))
                json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
                print()
                return 0
            if directed:
                print(f"The {unit.value} is {directed}.")
            print(odds.describe())
            return 0
        dice = _dice(args)
        with _named_dice():
            new, rep = mol_kindling_attempt(pos, loc, unit, dice, side=side, leader_drm=leader)
        check_dice_used(dice)
        return _finish(args, new, rep, f"  The {unit.value} is {directed}." if directed else None)
    check = kindling_check(pos, loc, unit, leader_drm=leader, check_phase=not args.odds)
    if args.odds:
        if args.json:
            json.dump(_check_json(check, directed_by=directed or None), sys.stdout, indent=2, ensure_ascii=False)
            print()
            return 0
        if directed:
            print(f"The {unit.value} is {directed}.")
        print(check.describe())
        return 0
    dice = _dice(args)
    with _named_dice():
        new, rep = kindling_attempt(pos, loc, unit, dice, side=side, leader_drm=leader)
    check_dice_used(dice)
    return _finish(args, new, rep, f"  The {unit.value} is {directed}." if directed else None)


def cmd_clear(args: argparse.Namespace) -> int:
    from ..core.clearance import clearance_attempt, clearance_check, clearance_odds

    pos = _at_phase(args, _load(args))
    loc = pos.map.parse_location(args.at)
    squads, half_squads, leader, heroes, who = args.squads, args.half_squads, args.leader, args.heroes, ""
    if squads is None and half_squads is None and heroes is None and args.dozers == 0:
        units = [u for side in pos.sides for u in _good_order(pos, loc, side)]
        if len({u.side for u in units if u.kind is not UnitKind.LEADER}) > 1:
            raise BadInput(f"--at {args.at}: units of both sides are in {pos.loc_name(loc)}; say who clears with "
                           "--squads N, --half-squads N or --dozers N")
        squads = sum(u.kind is UnitKind.SQUAD for u in units)
        half_squads = sum(u.kind in (UnitKind.HALF_SQUAD, UnitKind.CREW) for u in units)
        heroes = sum(u.kind is UnitKind.HERO for u in units)  # a hero's DRM serves Clearance (A15.24)
        if not squads and not half_squads and not heroes:
            raise BadInput(f"--at {args.at}: the position has no unpinned Good Order squad, HS, crew or hero in "
                           f"{pos.loc_name(loc)}; say who clears with --squads N, --half-squads N, --heroes N or "
                           "--dozers N")
        if leader is None:
            sides = {u.side for u in units if u.kind is not UnitKind.LEADER}
            found = _directing_leader(pos, loc, sides.pop()) if len(sides) == 1 else None
            leader = found[1] if found else None
        names = ", ".join(f"{u.name} ({u.id})" for u in units if u.kind is not UnitKind.LEADER)
        who = f"Clearing: {names} in {pos.loc_name(loc)}, from the position's units"
    kw = {"squads": squads or 0, "half_squads": half_squads or 0, "leader_drm": leader or 0,
          "labor_drm": args.labor, "dozers": args.dozers, "heroes": heroes or 0}
    check = clearance_check(pos, loc, **kw, check_phase=not args.odds)
    if args.odds:
        clear, hamper = clearance_odds(check)
        if args.json:
            json.dump(_check_json(check, clear=str(clear), hamper=str(hamper), clearing=who or None), sys.stdout,
                      indent=2, ensure_ascii=False)
            print()
            return 0
        if who:
            print(who)
        print(f"{check.describe()}; Hamper (Final 3–6) {hamper}")
        print(f"clears {clear} ({float(clear):.1%}), Hampers {hamper} ({float(hamper):.1%})")
        return 0

    dice = _dice(args)
    with _named_dice():
        new, rep = clearance_attempt(pos, loc, dice, **kw, flame=args.flame)
    check_dice_used(dice)
    return _finish(args, new, rep, f"  {who}" if who else None)


#: Units clearing one Location: more than any Location holds (A5.1 stacking), far fewer than a typo's billion.
_count = bounded_int(0, 20, "units (more than a Location can hold is refused)")

#: Player Turns for the demo.
_turns = bounded_int(1, 50, "Player Turns")

#: A Labor status DRM (B24.7).
_LABOR = bounded_int(-2, 2, "(a Labor status DRM, B24.7)")


def _common(p: argparse.ArgumentParser, dice: bool = True) -> None:
    p.add_argument("position", help="a .toml position file, a .vsav saved game (with --boards), or 'demo'")
    add_vasl_options(p)
    if dice:
        g = p.add_mutually_exclusive_group()
        g.add_argument("--seed", type=seed, help="dice seed (0 to 2**64-1)")
        g.add_argument("--dice", help="die faces to use, in order (a DR takes two: colored, white), "
                       "e.g. 3,4; exactly the dice the command rolls")
        p.add_argument("-o", "--output", help="write the new position file here")
        add_force(p)
        p.add_argument("--json", action="store_true", help="machine-readable report")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``demo``, ``odds`` and ``upkeep``."""
    p = sub.add_parser("demo", help="run several Player Turns of fire on the embedded demo scenario",
                       description="Run fire upkeep on the embedded demo scenario with seeded dice, printing every "
                       "roll with its DRMs and rule numbers, and write before/after pictures.")
    p.add_argument("--seed", type=seed, default=1944, help="dice seed, 0 to 2**64-1 (default 1944)")
    p.add_argument("--turns", type=_turns, default=4, help="Player Turns to play, 1–50 (default 4)")
    p.add_argument("--out", default="asl-fire-demo", help="folder for the pictures (default ./asl-fire-demo)")
    add_force(p)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("odds", help="the fire rolls pending from the position's clock on (RPh wind change, AFPh), "
                       "with exact odds",
                       description="Show what is pending from the position's clock on: the RPh's Wind Change, "
                       "Gusts and Collapse odds (B25.65, B25.651, B25.66), and every Flame→Blaze and Spreading Fire "
                       "roll the end of the next AFPh would make, with exact probabilities and DRMs (B25.151, "
                       "B25.6). At an RPh or past the AFPh, that RPh comes first and the AFPh odds assume the wind "
                       "holds.")
    p.add_argument("position", help="a .toml position file, a .vsav saved game (with --boards), or 'demo'")
    add_vasl_options(p)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser("setup", help="roll the scenario-start EC and wind the position leaves unsaid (B25.5, "
                       "B25.63, B25.64)",
                       description="Before play: the EC Chart dr with the month's drm (B25.5), the Wind Force dr "
                       "(B25.63) and, for a Mild Breeze or Heavy Winds, the Wind Direction dr (B25.64), each shown "
                       "with its rule; by default only what the position does not give. -o writes the position.")
    _common(p)
    p.add_argument("--month", type=int, help="the scenario's month, 1–12 (default: the position's environment.month)")
    p.add_argument("--roll", choices=("missing", "ec", "wind", "all"), default="missing",
                   help="what to roll (default: what the position does not give)")
    p.set_defaults(func=cmd_setup)

    p = sub.add_parser("upkeep", help="apply one phase's fire upkeep (rph, afph or rtph)",
                       description="Apply one phase of fire upkeep and print the rolls; -o writes the new position.")
    p.add_argument("position", help="a .toml position file, a .vsav saved game (with --boards), or 'demo'")
    p.add_argument("--phase", required=True, choices=("rph", "afph", "rtph"))
    g = p.add_mutually_exclusive_group()
    g.add_argument("--seed", type=seed, help="dice seed (0 to 2**64-1)")
    g.add_argument("--dice", help="die faces to use, in order (a DR takes two: colored, white), "
                   "e.g. 3,4,6,1; exactly the dice the phase rolls")
    add_vasl_options(p)
    p.add_argument("-o", "--output", help="write the new position file here")
    add_force(p)
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.set_defaults(func=cmd_upkeep)

    p = sub.add_parser("kindle", help="a Kindling attempt (B25.11) in the PFPh",
                       description="Make a Kindling attempt in a Burnable Location (B25.11): reversed leadership, "
                       "SMC −2, HS/crew −1, MOL +2 after a passed MOL Check (A22.613), EC except buildings, "
                       "Fortified −1 (B23.94). An MMC is directed by the --leader given, else by the best Good Order "
                       "leader of its side in the Location.")
    _common(p)
    p.add_argument("--at", required=True, help="the Location, e.g. F7 or E5.1")
    p.add_argument("--unit", default="squad", choices=[k.value for k in UnitKind if k.is_infantry])
    p.add_argument("--leader", type=LEADER_DRM, help="the directing leader's modifier, e.g. -1 for an 8-1 (MMC only; "
                   "default: the best Good Order leader of the kindling side in the Location, from the position)")
    p.add_argument("--mol", action="store_true", help="MOL are available (SSR/DYO, A22.6): the unit first makes its "
                   "MOL Check dr (A22.611, vs a non-AFV) and adds +2 only if it passes (A22.613); --odds folds it in")
    p.add_argument("--side", help="the kindling side (default: the ATTACKER)")
    p.add_argument("--odds", action="store_true", help="show the exact chance and DRMs, roll nothing")
    p.add_argument("--phase", help="the phase it is (Kindling: the PFPh only, B25.11); default the position's clock")
    p.set_defaults(func=cmd_kindle)

    p = sub.add_parser("clear", help="a Clearance attempt vs a Flame (B24.7)",
                       description="Roll Clearance vs one Flame: Final ≤ 2 clears it, 3–6 Hampers it (B24.7, "
                       "B24.721). Without --squads/--half-squads/--heroes/--dozers the clearing units are the "
                       "position's unpinned Good Order squads, HS, crews and heroes in the Location (say which).")
    _common(p)
    p.add_argument("--at", required=True, help="the Flame's Location")
    p.add_argument("--squads", type=_count, metavar="N",
                   help="squads clearing (default: the position's unpinned Good Order units in the Location)")
    p.add_argument("--half-squads", type=_count, metavar="N",
                   help="HS and crews clearing (default: as --squads)")
    p.add_argument("--leader", type=LEADER_DRM, help="a directing leader's modifier, e.g. -1 (default: the best leader "
                   "of the clearing units' side in the Location, when the units come from the position)")
    p.add_argument("--labor", type=_LABOR, default=0, help="Labor status DRM, -2 to 2 (default 0)")
    p.add_argument("--dozers", type=_count, default=0, metavar="N", help="Dozers clearing, -5 each (default 0)")
    p.add_argument("--heroes", type=_count, metavar="N", help="heroes clearing, -1 each: a hero may use his heroic "
                   "DRM for Clearance (A15.24; default: the position's heroes in the Location)")
    p.add_argument("--odds", action="store_true", help="show the exact chances, roll nothing")
    p.add_argument("--phase", help="the phase it is (Clearance: MPh or DFPh, B24.7); default the position's clock")
    p.add_argument("--flame", type=bounded_int(1, 99), help="which of the Location's Flames (1, 2, …; each is "
                   "cleared with its own DR, B24.7); default the first not yet Hampered")
    p.set_defaults(func=cmd_clear)


