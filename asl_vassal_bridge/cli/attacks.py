"""``asl-fire ft`` and ``asl-fire mol``: Flamethrower and Molotov Cocktail attacks (A22) on the command line.

Each prints whether the declared attack is legal (or the rule that forbids
it), its FP and IFT column, its DRMs with rule numbers and — for a MOL —
the MOL Check's exact chance.  With ``--dice`` or ``--seed`` it resolves the
attack and prints every consequence; with a POSITION and ``-o OUT`` it
writes the new position (Flames, Burning Wreck placed, thrower broken).

Without a POSITION the attack happens on a two-hex map built from the
options: the firer in E5 on ``--firer-terrain``, the target ``--range``
hexes away on ``--target-terrain`` at elevation ``--levels``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..core.dice import Dice, DiceExhaustedError, Roll, ScriptedDice, SeededDice
from ..core.environment import EC, Environment, Wind, WindForce
from ..core.errors import BadInput
from ..core.explain import DRM, Report
from ..core.firestarts import HutAttack
from ..core.flamethrower import AttackOutcome, FtAttack, FtPlan, ft_attack, resolve_ft_attack
from ..core.hexes import Direction, Hex
from ..core.molotov import FireType, MolAttack, MolPlan, location_tem, mol_attack, resolve_mol_attack
from ..core.position import Clock, GameMap, HexInfo, Location, Phase, Position, Unit, UnitKind
from ..core.terrain import Building, BuildingKind, Terrain, UnknownTerrainError
from ..core.values import replace
from .declare import add_afv_target, add_ft_declaration, add_mol_declaration, add_mol_vs_afv
from .options import (
    LEADER_DRM,
    LEVELS,
    RANGE,
    TARGET_FT,
    add_force,
    add_vasl_options,
    check_dice_used,
    check_outputs,
    die_faces,
    extra_drm,
    ift_result,
    load_position_arg,
    seed,
)

__all__ = ["register", "synthetic_position"]

FIRER_HEX = Hex.parse("E5")
_KINDS = {"squad": UnitKind.SQUAD, "hs": UnitKind.HALF_SQUAD, "half-squad": UnitKind.HALF_SQUAD,
          "crew": UnitKind.CREW, "leader": UnitKind.LEADER, "hero": UnitKind.HERO, "vehicle": UnitKind.VEHICLE}


def _terrain_info(name: str, bid: str, fortified: bool, hex_name: str, elevation: int,
                  road: bool) -> tuple[HexInfo, list[Building]]:
    try:
        t = Terrain.from_name(name)
    except UnknownTerrainError as e:
        raise BadInput(f"--*-terrain: {e}") from None
    if t.is_building and t.material is not None:
        b = Building(bid, t.material, BuildingKind.SINGLE_STORY,
                     fortified=frozenset({(hex_name, 0)}) if fortified else frozenset())
        return HexInfo(t, elevation, building=bid, road=road), [b]
    if fortified:
        raise BadInput(f"--fortified needs a building target (stone-building or wooden-building), not {t.label} "
                       "(B23.91)")
    return HexInfo(t, elevation, road=road), []


def synthetic_position(*, rng: int, levels: int = 0, firer_terrain: str = "open-ground",
                       target_terrain: str = "open-ground", fortified: bool = False, ec: EC = EC.MODERATE,
                       wind: Wind = Wind(), phase: Phase = Phase.PFPH, same_woods: bool = False,
                       direction: Direction = Direction.DOWN) -> tuple[Position, Location, Location]:
    """A two-hex Position for an attack without a position file: firer in E5, target *rng* hexes away."""
    if rng < 0:
        raise BadInput(f"--range must be 0 or more, not {rng}")
    target_hex = FIRER_HEX.neighbour(direction, rng) if rng else FIRER_HEX
    firer_name, target_name = FIRER_HEX.name, target_hex.name
    feature = "woods" if same_woods else None
    same_hex = rng == 0
    fi, fb = _terrain_info(target_terrain if same_hex else firer_terrain, "firer-building",
                           fortified and same_hex, firer_name, 0, False)
    fi = replace(fi, feature=feature if rng else fi.feature)
    hexes = {FIRER_HEX: fi}
    buildings = fb
    if rng:
        ti, tb = _terrain_info(target_terrain, "target-building", fortified, target_name, levels, False)
        hexes[target_hex] = replace(ti, feature=feature)
        buildings += tb
    elif levels:
        raise BadInput("--levels needs a target in another hex (--range ≥ 1)")
    env = Environment(ec=ec, wind=wind)
    pos = Position(GameMap.from_hexes(hexes, buildings), env, Clock(1, 1, phase))
    return pos, Location(FIRER_HEX), Location(target_hex)


def _dice(args: argparse.Namespace) -> Dice | None:
    if args.dice is not None:
        return ScriptedDice(die_faces(args.dice))
    if args.seed is not None:
        return SeededDice(args.seed)
    return None


def _wind(text: str | None) -> Wind:
    if not text:
        return Wind()
    force, _, d = text.partition(":")
    try:
        wf = WindForce.from_name(force)
        direction = Direction(int(d)) if d else None
        return Wind(wf, direction if wf is not WindForce.NO_WIND else None)
    except ValueError as e:
        raise BadInput(f"--wind {text!r}: {e} (expected e.g. heavy-winds:4 or mild-breeze:2)") from None


def _setup(args: argparse.Namespace, default_range: int) -> tuple[Position, Location, Location, Unit | None]:
    """The Position and the firer/target Locations, from a position file or from the options."""
    unit: Unit | None = None
    check_outputs(args)
    if args.position:
        pos = load_position_arg(args)
        if args.phase:
            pos = replace(pos, clock=replace(pos.clock, phase=_phase(args.phase)))
        unit = next((u for u in pos.units if u.id == args.firer_id), None)
        if args.from_:
            firer = pos.map.parse_location(args.from_)
        elif unit is not None:
            firer = unit.location
        else:
            raise BadInput("with a POSITION give the firer's Location (--from E4) or a unit id (--firer-id)")
        if not args.to:
            raise BadInput("with a POSITION give the target Location (--to E5)")
        return pos, firer, pos.map.parse_location(args.to), unit
    try:
        ec = EC.from_name(args.ec) if args.ec else EC.MODERATE
    except ValueError as e:
        raise BadInput(f"--ec: {e}") from None
    rng = args.range if args.range is not None else default_range
    wind = _wind(args.wind)
    direction = wind.direction if (args.with_wind and wind.direction is not None) else Direction.DOWN
    pos, firer, target = synthetic_position(
        rng=rng, levels=args.levels, firer_terrain=args.firer_terrain, target_terrain=args.target_terrain,
        fortified=args.fortified, ec=ec, wind=wind, phase=_phase(args.phase or "PFPh"),
        same_woods=getattr(args, "woods_hexside", False), direction=direction)
    return pos, firer, target, None


def _phase(name: str) -> Phase:
    try:
        return Phase.from_name(name)
    except ValueError as e:
        raise BadInput(f"--phase: {e}") from None


def _kind(args: argparse.Namespace, unit: Unit | None) -> UnitKind:
    if args.kind:
        return _KINDS[args.kind]
    return unit.kind if unit is not None else UnitKind.SQUAD


def _extra(args: argparse.Namespace) -> tuple[DRM, ...]:
    out = []
    for text in args.drm or ():
        v, reason = extra_drm(text)
        out.append(DRM(v, reason, "input"))
    return tuple(out)


def _resolve(args: argparse.Namespace, pos: Position, plan: FtPlan | MolPlan, run: Any) -> int:
    """Print the plan; with dice, resolve it, print the outcome and write the new position."""
    dice = _dice(args)
    data: dict[str, Any] = {"plan": plan.as_data(pos)}
    if not args.json:
        print("legal")
        print(plan.describe(pos))
    if dice is None:
        if args.json:
            print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    try:
        outcome: AttackOutcome = run(dice)
    except DiceExhaustedError as e:
        raise BadInput(f"--dice: {e}") from None
    check_dice_used(dice)
    if args.json:
        data["outcome"] = outcome.as_data()
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print()
        print(outcome.text())
    if args.output:
        if not args.position:
            raise BadInput("-o needs a POSITION to update (a .toml position file, a .vsav or 'demo')")
        from ..posfile import dump

        dump(outcome.position, args.output)
        if not args.json:
            print(f"new position written to {args.output}")
    return 0


def _target_ft(args: argparse.Namespace, pos: Position, target: Location) -> int:
    """--target-ft, else the FT the Position's units in *target* possess (A22.4, read off a saved game's FT
    counters)."""
    if args.target_ft is not None:
        return int(args.target_ft)
    return pos.target_ft(target) if args.position else 0


def cmd_ft(args: argparse.Namespace) -> int:
    pos, firer, target, unit = _setup(args, 1)
    kind = _kind(args, unit)
    attack = FtAttack(
        firer, target, firer_kind=kind, firer_id=args.firer_id, underscored=args.underscored,
        elite=not args.non_elite, captured=args.captured, pinned=args.pinned or (unit is not None and unit.pinned),
        cx=args.cx or (unit is not None and unit.is_cx), area_fire=args.area_fire, cower_columns=args.cower,
        hindrance_drm=args.hindrance,
        los_obstructed=args.los_obstructed, with_wind=True if args.with_wind else None, fire_group=args.fire_group,
        overrun=args.overrun, used_ft_or_dc_this_turn=args.used_ft_dc, vs_descending_paratroops=args.paratroops,
        pillbox_non_ca_tem=args.pillbox_tem, leader_drm=args.leader, vs_afv=args.vs_afv,
        predesignated=args.predesignated, basic_tk=args.basic_tk, afv_ce=args.ce, afv_ot=args.ot,
        vulnerable_prc=args.vulnerable_prc, afv_id=args.afv_id, extra_drms=_extra(args),
        range=args.range if args.position and args.range is not None else None, target_ft=_target_ft(args, pos, target),
        berserk=args.berserk or (unit is not None and unit.berserk), opportunity_fire=args.opportunity,
        heroic=args.heroic)
    plan = ft_attack(pos, attack)
    return _resolve(args, pos, plan, lambda dice: resolve_ft_attack(
        pos, plan, dice, ift_result=args.ift_result, original_ift_result=args.original_ift_result))


def cmd_mol(args: argparse.Namespace) -> int:
    pos, firer, target, unit = _setup(args, 1)
    kind = _kind(args, unit)
    fire = FireType.from_name(args.fire) if args.fire else None
    attack = MolAttack(
        firer, target, thrower_fp=args.fp, thrower_kind=kind, thrower_id=args.firer_id, other_fp=args.fg_fp,
        fg_units=args.fg_units, available=not args.unavailable, fire=fire,
        mol_check_in_first_fire=args.first_fire_check, pinned=args.pinned or (unit is not None and unit.pinned),
        broken=args.broken or (unit is not None and unit.broken),
        berserk=args.berserk or (unit is not None and unit.berserk),
        cx=args.cx or (unit is not None and unit.is_cx),
        fp_halvings=args.halvings, leader_drm=args.leader, target_bypassing=args.bypassing, tem=args.tem,
        extra_drms=_extra(args), woods_hexside=True if args.woods_hexside else None,
        across_road_vs_unit_on_road=args.road, vs_afv=args.vs_afv, predesignated=args.predesignated,
        basic_tk=args.basic_tk, afv_ce=args.ce, afv_ot=args.ot, afv_stopped=not args.moving,
        tk_case_mods=args.tk_mod, vulnerable_prc=args.vulnerable_prc, afv_id=args.afv_id,
        range=args.range if args.position and args.range is not None else None, target_ft=_target_ft(args, pos, target),
        heroic=args.heroic)
    plan = mol_attack(pos, attack)
    return _resolve(args, pos, plan, lambda dice: resolve_mol_attack(pos, plan, dice, ift_result=args.ift_result,
                                                               prc_result=args.prc_result))


def cmd_tem(args: argparse.Namespace) -> int:
    """Print the TEM of a Location of a position (B23.3-.921)."""

    pos = load_position_arg(args)
    loc = pos.map.parse_location(args.location)
    firer = pos.map.parse_location(args.from_) if args.from_ else None
    drms = location_tem(pos, loc, firer=firer, bypassing=args.bypassing, indirect=args.indirect)
    total = sum(d.value for d in drms)
    if args.json:
        print(json.dumps({"location": pos.loc_name(loc), "tem": total,
                          "drms": [{"value": d.value, "reason": d.reason, "rule": d.rule} for d in drms]},
                         ensure_ascii=False))
        return 0
    what = ", ".join(str(d) for d in drms) if drms else "no TEM from our texts (Terrain Chart: give it by hand)"
    print(f"{pos.loc_name(loc)} ({pos.map.terrain_at(loc).label}): TEM {total:+d} — {what}")
    return 0


# ---------------------------------------------------------------------------------------------- HE, WP, huts


def _roll(text: str | None, what: str) -> Roll | None:
    """``C,W`` → the Original DR of an attack resolved elsewhere (colored first)."""
    if not text:
        return None
    try:
        c, w = (int(x) for x in text.replace(" ", "").split(","))
        return Roll(c, w)
    except ValueError:
        raise BadInput(f"{what} {text!r}: expected the two die faces of the Original DR, colored first, e.g. "
                       "1,4") from None


def _fire_start_out(args: argparse.Namespace, new: Position, rep: Report) -> int:
    """Print a fire start's report (text or JSON) and write the new position with -o."""
    from .fire import _report_json

    if args.json:
        print(json.dumps(_report_json(new, rep), ensure_ascii=False, indent=2))
    else:
        print(rep.text())
    if args.output:
        from ..posfile import dump

        dump(new, args.output)
        if not args.json:
            print(f"new position written to {args.output}")
    return 0


def _dice_or_none(args: argparse.Namespace) -> Dice:
    """The --dice/--seed given, else random dice (a fire start always rolls when it must)."""
    dice = _dice(args)
    return dice if dice is not None else SeededDice(None)


def _fire_pos(args: argparse.Namespace) -> tuple[Position, Location]:
    pos = load_position_arg(args)
    if args.phase:
        pos = replace(pos, clock=replace(pos.clock, phase=_phase(args.phase)))
    return pos, pos.map.parse_location(args.at)


def cmd_he(args: argparse.Namespace) -> int:
    """An HE/HEAT (or DC) attack's fire start (B25.13; huts)."""
    from ..core.firestarts import he_fire_start

    pos, loc = _fire_pos(args)
    result = (args.original_result or "").strip().upper()
    kia = args.original_kia or result.endswith("KIA")
    dice = _dice_or_none(args)
    try:
        new, rep = he_fire_start(pos, loc, dice, original_kia=kia,
                                 attack_dr=_roll(args.attack_dr, "--attack-dr"), collateral=args.collateral,
                                 vehicle_target_type=args.vehicle_target, created_rubble=args.rubble,
                                 he_equivalency=args.he_equivalency, dc=args.dc)
    except DiceExhaustedError as e:
        raise BadInput(f"--dice: {e}; give exactly the dice rolled, nothing was applied") from None
    check_dice_used(dice)
    return _fire_start_out(args, new, rep)


def cmd_wp(args: argparse.Namespace) -> int:
    """The WP fire DR in the placing player's MPh (A24.32)."""
    from ..core.firestarts import wp_fire_check, wp_fire_start

    pos, loc = _fire_pos(args)
    if args.odds:
        check = wp_fire_check(pos, loc)
        if args.json:
            print(json.dumps({"location": pos.loc_name(loc), "check": None if check is None else {
                "needed": check.needed, "needed_original": check.needed_original, "chance": str(check.chance),
                "drms": [{"value": d.value, "reason": d.reason, "rule": d.rule} for d in check.drms]}},
                ensure_ascii=False))
        else:
            print(check.describe() if check is not None else
                  f"no WP fire DR in {pos.loc_name(loc)}: EC {pos.environment.ec.label} (A24.32: Dry or Very Dry, "
                  "or a hut), or nothing there can catch fire")
        return 0
    dice = _dice_or_none(args)
    try:
        new, rep = wp_fire_start(pos, loc, dice)
    except DiceExhaustedError as e:
        raise BadInput(f"--dice: {e}; give exactly the dice rolled, nothing was applied") from None
    check_dice_used(dice)
    return _fire_start_out(args, new, rep)


_HUT_ATTACKS = {"small-arms": HutAttack.SMALL_ARMS_PBF_TPBF, "mg": HutAttack.MG, "ife": HutAttack.IFE,
                "dc": HutAttack.DC, "he": HutAttack.HE, "he-equivalency": HutAttack.HE_EQUIVALENCY,
                "collateral": HutAttack.COLLATERAL, "mol": HutAttack.MOL, "sw-in-hut": HutAttack.SW_FIRED_IN_HUT}


def cmd_hut(args: argparse.Namespace) -> int:
    """A hut Location's fire start after an attack vs (or an ordnance SW fired from) it (huts)."""
    from ..core.firestarts import huts_fire_start

    pos = load_position_arg(args)
    if args.phase:
        pos = replace(pos, clock=replace(pos.clock, phase=_phase(args.phase)))
    locs = [pos.map.parse_location(a) for a in args.at.split(",")]
    dice = _dice_or_none(args)
    try:
        new, rep = huts_fire_start(pos, locs, _HUT_ATTACKS[args.attack], dice,
                                   original=_roll(args.attack_dr, "--attack-dr"))
    except DiceExhaustedError as e:
        raise BadInput(f"--dice: {e}; give exactly the dice rolled, nothing was applied") from None
    check_dice_used(dice)
    return _fire_start_out(args, new, rep)


def cmd_enter(args: argparse.Namespace) -> int:
    """Whether Infantry may enter a Location: a Blaze (B25.4), Scaling (B23.424), a Fortified Building (B23.922)."""
    from ..core.buildings import fortified_entry
    from ..core.exits import may_enter

    pos = load_position_arg(args)
    loc = pos.map.parse_location(args.at)
    side = args.side or pos.attacker
    if side not in pos.sides:
        raise BadInput(f"--side {side!r}: expected one of {list(pos.sides)}")
    from_hex = pos.map.parse_hex(args.from_) if args.from_ else None
    checks = [may_enter(pos, loc, scaling=args.scaling),
              fortified_entry(pos, loc, side, from_hex=from_hex, berserk=args.berserk)]
    ok = all(c[0] for c in checks)
    if args.json:
        print(json.dumps({"location": pos.loc_name(loc), "may_enter": ok, "reasons": [c[1] for c in checks]},
                         ensure_ascii=False))
    else:
        print(f"{pos.loc_name(loc)}: {'may be entered' if ok else 'may NOT be entered'}")
        for _, why in checks:
            print(f"  {why}")
    return 0


def cmd_breach(args: argparse.Namespace) -> int:
    """A Breach attempt on a Rowhouse black bar or a Fortified Building hexside (B23.711, B23.9221)."""
    from ..core.buildings import dc_breach

    pos = load_position_arg(args)
    loc = pos.map.parse_location(args.at)
    new, rep = dc_breach(pos, loc, pos.map.parse_hex(args.toward), dc_result=args.dc_result,
                         original=_roll(args.attack_dr, "--attack-dr"), concealed=args.concealed,
                         malfunction=args.malfunction, he_kia=args.he_kia)
    return _fire_start_out(args, new, rep)


def cmd_afv_enter(args: argparse.Namespace) -> int:
    """An AFV entering a building hex without VBM: the Bog Check DR's rubble and cellar results (B23.41)."""
    from ..core.buildings import afv_building_entry

    pos = load_position_arg(args)
    loc = pos.map.parse_location(args.at)
    dice = _dice_or_none(args)
    bar = pos.map.parse_hex(args.through_bar_from) if args.through_bar_from else None
    try:
        new, rep = afv_building_entry(pos, loc, dice, fully_tracked=not args.not_fully_tracked, ct=not args.not_ct,
                                      bu=not args.not_bu, riders=args.riders, afv_id=args.afv_id,
                                      through_black_bar_from=bar)
    except DiceExhaustedError as e:
        raise BadInput(f"--dice: {e}; give exactly the dice rolled, nothing was applied") from None
    check_dice_used(dice)
    return _fire_start_out(args, new, rep)


def _fire_start_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", help="a .toml position file, a .vsav saved game (with --boards), or 'demo'")
    add_vasl_options(p)
    p.add_argument("--at", required=True, metavar="LOC", help="the Location attacked, e.g. B3 or E4.1")
    p.add_argument("--phase", help="the phase (default the POSITION's clock)")
    d = p.add_mutually_exclusive_group()
    d.add_argument("--dice", help="die faces of the fire-start DR, colored first, e.g. 4,5 (hut: the Random "
                   "Selection drs)")
    d.add_argument("--seed", type=seed, help="roll seeded dice")
    p.add_argument("-o", "--output", help="write the new position file here")
    add_force(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", nargs="?", help="a .toml position file, a .vsav saved game (with --boards), or "
                   "'demo'; without it the options build a two-hex map")
    add_vasl_options(p)
    p.add_argument("--from", dest="from_", metavar="LOC", help="the firer's Location in POSITION (e.g. E4, E4.1)")
    p.add_argument("--to", metavar="LOC", help="the target Location in POSITION")
    p.add_argument("--firer-id", default="firer", help="the firing unit's id (a unit of POSITION, or a label)")
    p.add_argument("--kind", choices=sorted(_KINDS), help="the firing unit's kind (default squad)")
    g = p.add_argument_group("without a POSITION")
    g.add_argument("--range", type=RANGE, help="range in hexes (default 1)")
    g.add_argument("--levels", type=LEVELS, default=0, help="target elevation minus firer elevation")
    g.add_argument("--firer-terrain", default="open-ground", help="terrain of the firer's hex (default open-ground)")
    g.add_argument("--target-terrain", default="open-ground",
                   help="terrain of the target hex, e.g. woods, grain, stone-building (default open-ground)")
    g.add_argument("--fortified", action="store_true", help="the target building Location is Fortified (B23.9)")
    g.add_argument("--ec", help="Environmental Conditions: wet, moist, moderate, dry, very-dry… (B25.5)")
    g.add_argument("--wind", metavar="FORCE[:DIR]", help="e.g. heavy-winds:4, mild-breeze:2 (B25.63-.64)")
    p.add_argument("--phase", help="the phase (PFPh, MPh, DFPh, AFPh…; default the POSITION's, else PFPh)")
    p.add_argument("--cx", action="store_true", help="the firer is CX (A4.51; default: the position's unit "
                   "given by --firer-id is CX)")
    p.add_argument("--pinned", action="store_true", help="the firer is pinned")
    p.add_argument("--leader", type=LEADER_DRM, default=0, metavar="DRM", help="a directing leader's DRM, e.g. -1")
    p.add_argument("--drm", action="append", metavar="VALUE[:REASON]",
                   help="another IFT DRM you know of (e.g. --drm=-1:FFNAM); repeatable")
    p.add_argument("--target-ft", type=TARGET_FT, metavar="N",
                   help="a target Personnel unit possesses N FT: -N to the IFT DR vs it (A22.4; default: the FT "
                   "the POSITION's units in the target Location possess, e.g. a saved game's FT counters)")
    a = p.add_argument_group("vs an AFV")
    add_afv_target(a)
    a.add_argument("--afv-id", default="AFV", help="the AFV's id or label")
    r = p.add_argument_group("resolving")
    d = r.add_mutually_exclusive_group()
    d.add_argument("--dice", help="die faces in order (a dr one, a DR two: colored, white), e.g. 2,1,6")
    d.add_argument("--seed", type=seed, help="roll seeded dice")
    r.add_argument("--ift-result", type=ift_result,
                   help="the IFT result you read at the printed column and Final DR (e.g. KIA, K/2, "
                   "1MC, NMC, PTC) — our rule texts lack the IFT")
    r.add_argument("-o", "--output", help="write the new position file here (needs POSITION)")
    add_force(r)
    r.add_argument("--json", action="store_true", help="print the plan (and the outcome) as JSON instead")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``ft``, ``mol``, ``he``, ``wp``, ``hut`` and ``tem``."""
    p = sub.add_parser("ft", help="a Flamethrower attack: legality, FP, DRMs, consequences (A22.1-.5)",
                       description="Check a FT attack (A22.1-.5, B25.12, B25.63): print the FP, IFT column, DRMs "
                       "with rules, Final TK# vs an AFV and the malfunction number; with --dice/--seed resolve it.")
    _common(p)
    f = p.add_argument_group("FT (a vehicular one: --kind vehicle)")
    add_ft_declaration(f)
    f.add_argument("--berserk", action="store_true", help="the firer is Berserk (never fires in its PFPh, A15.432)")
    f.add_argument("--opportunity", action="store_true", help="Opportunity Fire in the AFPh (never by a berserk "
                   "unit, A15.432)")
    f.add_argument("--heroic", action="store_true", help="the firer is a hero or heroic leader: no heroic DRM "
                   "(A15.24), his own FP forfeited (A15.23)")
    p.set_defaults(func=cmd_ft)

    p = sub.add_parser("mol", help="a Molotov Cocktail attack: legality, MOL Check chance, FP, DRMs, consequences "
                       "(A22.6-.62)",
                       description="Check a MOL attack (A22.6-.62): print the MOL Check and its exact chance, the FP "
                       "with and without the MOL, the IFT DRMs with rules and the Final TK# vs an AFV; with "
                       "--dice/--seed (MOL Check dr first, then the attack DR) resolve it.")
    _common(p)
    m = p.add_argument_group("MOL (a hero: --kind hero)")
    add_mol_declaration(m, fp_required=True, fp_help="the thrower's own FP (e.g. 3 for a 3-3-7)")
    add_mol_vs_afv(m)
    m.set_defaults(func=cmd_mol, with_wind=False)

    p = sub.add_parser("he", help="an HE/HEAT (or DC) attack's fire start (B25.13; huts: colored dr 1)",
                       description="After an HE/HEAT or DC attack resolved on the IFT: in a hut Location an Original "
                       "colored dr 1 (--attack-dr) places a Flame (huts; not HE Equivalency nor Collateral); "
                       "otherwise an Original KIA makes the fire-start DR (--dice) with the EC DRM unless a building "
                       "(B25.13). Never from a Collateral Attack, the Vehicle Target Type or an attack that rubbles "
                       "the Location.")
    _fire_start_common(p)
    p.add_argument("--original-result", metavar="RESULT",
                   help="the IFT result of the attack's Original DR (e.g. KIA, 2KIA, K/1, 1MC)")
    p.add_argument("--original-kia", action="store_true", help="the attack's Original DR gave a KIA")
    p.add_argument("--attack-dr", metavar="C,W", help="the attack's Original DR, colored first (huts: colored 1)")
    p.add_argument("--collateral", action="store_true", help="a Collateral Attack (B25.13 EXC)")
    p.add_argument("--vehicle-target", action="store_true", help="an attack using the Vehicle Target Type")
    p.add_argument("--rubble", action="store_true", help="the attack rubbled the Location (rubble takes precedence)")
    p.add_argument("--he-equivalency", action="store_true", help="HE Equivalency (never fires a hut)")
    p.add_argument("--dc", action="store_true", help="a DC attack (HE, B25.13; huts)")
    p.set_defaults(func=cmd_he)

    p = sub.add_parser("wp", help="the WP fire DR in the placing player's MPh (A24.32)",
                       description="The WP fire DR (A24.32): only in Dry or Very Dry EC (a hut: always), made in the "
                       "MPh of the player who placed the WP; Flame if DR −1 (Dry) −2 (building) ≥ the Kindle #; no "
                       "EC DRM.")
    _fire_start_common(p)
    p.add_argument("--odds", action="store_true", help="show the DR needed and its chance, roll nothing")
    p.set_defaults(func=cmd_wp)

    p = sub.add_parser("hut", help="a hut Location's fire start after an attack vs it (huts)",
                       description="Huts (Fire cheat sheet): Small Arms PBF/TPBF, MOL, MG, IFE, DC or HE vs a hut "
                       "Location (even Collapsed) place a Flame on an Original colored dr 1 (not HE Equivalency nor "
                       "a Collateral/Residual FP attack); an ordnance SW (PF/PFk/BAZ/PSK/RCL) fired in a hut places "
                       "one (not from a Collapsed hut); after Rain no Flame in a Collapsed hut. FT attacks: asl-fire "
                       "ft (Original Effects DR < X#). One attack vs several hut Locations (--at B3,B4): its Flame "
                       "goes to one of them by Random Selection (one dr each, --dice/--seed; a tie rolls again).")
    _fire_start_common(p)
    p.add_argument("--attack", required=True, choices=sorted(_HUT_ATTACKS), help="what attacked the hut")
    p.add_argument("--attack-dr", metavar="C,W", help="the attack's Original DR, colored first (e.g. 1,4)")
    p.set_defaults(func=cmd_hut)

    p = sub.add_parser("enter", help="may Infantry enter a Location: Blaze (B25.4), Scaling (B23.424), Fortified "
                       "Building (B23.922)",
                       description="Whether Infantry may enter a Location: a terrain Blaze eliminates it (B25.4); a "
                       "Commando Scaling a building may not enter a level with a Blaze (B23.424); a Fortified "
                       "Building Location held by an unpinned Good Order enemy squad (or two HS/crews) is entered "
                       "only through a Breach of the hexside crossed (B23.922, B23.9221).")
    p.add_argument("position", help="a .toml position file, a .vsav saved game (with --boards), or 'demo'")
    add_vasl_options(p)
    p.add_argument("--at", required=True, metavar="LOC", help="the Location entered, e.g. E4 or E4.1")
    p.add_argument("--side", help="the entering unit's side (default the ATTACKER)")
    p.add_argument("--from", dest="from_", metavar="HEX", help="the hex it comes from (a Breach of that hexside)")
    p.add_argument("--scaling", action="store_true", help="a Commando Scaling the building's outside (B23.424)")
    p.add_argument("--berserk", action="store_true", help="the entering unit is berserk (B23.922)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_enter)

    p = sub.add_parser("breach", help="a Breach attempt on a Rowhouse black bar or a Fortified Building hexside "
                       "(B23.711, B23.9221)",
                       description="After a DC Placed in the MPh attacks the hexside in the AFPh (normal TEM, "
                       "Fortified +1): NMC or better (--dc-result) breaches it unless the DC malfunctioned; in a "
                       "Rowhouse the same Original DR (--attack-dr) attacks the adjacent Rowhouse Location as Area "
                       "Fire, 12 FP (6 vs concealed units), full TEM. An HE KIA across a Fortified Building hexside "
                       "breaches it too (--he-kia).")
    p.add_argument("position", help="a .toml position file, a .vsav saved game (with --boards), or 'demo'")
    add_vasl_options(p)
    p.add_argument("--at", required=True, metavar="LOC", help="the Location the Breach counter goes in, e.g. E4.1")
    p.add_argument("--toward", required=True, metavar="HEX", help="the adjacent hex across the breached hexside")
    p.add_argument("--dc-result", type=ift_result, help="the IFT result of the DC attack vs the hexside (e.g. NMC)")
    p.add_argument("--attack-dr", metavar="C,W", help="the DC attack's Original DR, colored first")
    p.add_argument("--concealed", action="store_true", help="the units beyond the wall are concealed: 6 FP")
    p.add_argument("--malfunction", action="store_true", help="the DC malfunctioned (A23.4): nothing happens")
    p.add_argument("--he-kia", action="store_true", help="an HE KIA whose LOF crosses a Fortified Building hexside")
    p.add_argument("-o", "--output", help="write the new position file here")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_breach)

    p = sub.add_parser("afv-enter", help="an AFV entering a building hex: rubble and cellar (B23.41)",
                       description="A fully-tracked, CT, BU AFV without Riders entering a building hex without VBM "
                       "(B23.41): the Bog Check DR with +3 (+4 stone); its colored dr −1 wooden −1 Single Story "
                       "House ≤ 0 rubbles the hex; an Original colored 6 drops the AFV into the cellar (not in a "
                       "Factory). The Bog Check itself (D8) is yours to read.")
    _fire_start_common(p)
    p.add_argument("--afv-id", default="AFV", help="the AFV's unit id in POSITION (removed if it falls)")
    p.add_argument("--not-fully-tracked", action="store_true")
    p.add_argument("--not-ct", action="store_true")
    p.add_argument("--not-bu", action="store_true")
    p.add_argument("--riders", action="store_true")
    p.add_argument("--through-bar-from", metavar="HEX",
                   help="it drives through a Rowhouse black bar from this hex: a Breach unless it rubbles (B23.711)")
    p.set_defaults(func=cmd_afv_enter)

    p = sub.add_parser("tem", help="the TEM of a Location (B23 buildings: stone, wooden, Fortified, rooftop, Factory)",
                       description="Print the TEM of a Location read off a position's map (B23.3-.921).")
    p.add_argument("position", help="a .toml position file, a .vsav saved game (with --boards), or 'demo'")
    p.add_argument("location", help="the Location, e.g. I4.1 or I4.roof")
    add_vasl_options(p)
    p.add_argument("--from", dest="from_", metavar="LOC", help="the firer's Location (Height Advantage, Factory)")
    p.add_argument("--bypassing", action="store_true", help="the unit is Bypassing (B23.31)")
    p.add_argument("--indirect", action="store_true", help="vs Indirect Fire (B23.32)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_tem)
