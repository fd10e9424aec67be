"""``asl-fire bridge`` (the live client) and ``asl-fire build-extension`` (the VASSAL extension)."""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.errors import BadInput
from .declare import add_afv_target, add_ft_declaration, add_mol_declaration, add_mol_vs_afv
from .options import (
    LEADER_DRM,
    TARGET_FT,
    add_force,
    bounded_int,
    extra_drm,
    ift_result,
)

_PORT = bounded_int(1, 65535, "(a TCP port)")

if TYPE_CHECKING:
    from ..bridge.attacks import AttackRequest
    from ..bridge.client import BridgeClient
    from ..bridge.hob import HobRequest
    from ..vasl.setup import VaslSetup


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("bridge", help="connect to VASSAL's ASL fire bridge extension and serve its buttons",
                       description="Connect to a running VASSAL (with the ASL fire bridge extension) and answer "
                                   "its toolbar buttons: Wind change (RPh), Fire upkeep (AFPh), Fire odds, Fire "
                                   "finder, FT/MOL attack, Fire start, Heat of Battle, Units in Blazes (RtPh), and "
                                   "draws the Fire risk layer on the map.")
    p.add_argument("--connection-file", type=Path, default=None,
                   help="the extension's port/token file (default: <VASSAL conf dir>/aslfire/bridge.json)")
    p.add_argument("--port", type=_PORT, default=None, help="the extension's py4j port (with --token-file)")
    p.add_argument("--token-file", type=Path, default=None, help="a file holding the auth token (never on the "
                                                                  "command line)")
    p.add_argument("--boards", type=Path, default=None,
                   help="folder of VASL board archives, for terrain when VASL's own terrain model is not available "
                        "(default: VASL's Board Directory preference, if VASSAL's preferences have one)")
    p.add_argument("--vasl", type=Path, default=None, metavar="VMOD",
                   help="VASL's module, for the terrain types of those board archives (default: beside the boards, "
                        "else the VASL module VASSAL's module manager lists)")
    p.add_argument("--once", choices=("wind", "upkeep", "odds", "rtph", "snapshot"), default=None,
                   help="do one action now and exit instead of waiting for buttons")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=run_bridge, bridge_action=None)
    actions = p.add_subparsers(dest="bridge_action", metavar="{attack,firestart,hob,rtph}")
    actions.required = False
    _attack_parser(actions)
    _firestart_parser(actions)
    _hob_parser(actions)
    r = actions.add_parser("rtph", help="units in Blazes (B25.4): report each with its options in the game's chat",
                           description="Read the live units (side, broken, pinned, berserk, Melee from their "
                           "counters; concealed and hidden ones never) and report in the game's chat every unit "
                           "that must leave a Blaze (B25.4), with its options and deadline, as ONE command.")
    _connection_options(r)
    r.set_defaults(func=run_bridge)

    b = sub.add_parser("build-extension", help="build the VASSAL extension (.vmdx) of the live bridge",
                       description="Compile the bridge extension against your VASSAL's engine jar and write the "
                                   ".vmdx; put it in <module>_ext/ next to the VASL module.")
    b.add_argument("--vassal-jar", type=Path, required=True,
                   help="VASSAL's engine jar (lib/Vengine.jar in a VASSAL install)")
    b.add_argument("-o", "--output", type=Path, default=Path("asl-fire-bridge.vmdx"), help="the .vmdx to write")
    add_force(b)
    b.add_argument("--carry-wheel", type=Path, metavar="WHEEL", help="carry this wheel of the package, with the "
                   "dependencies' lock, so that the extension sets up its Python by itself on a player's first game")
    b.set_defaults(func=run_build)


def _connection_options(p: argparse.ArgumentParser) -> None:
    """The connection options again after the action (``asl-fire bridge attack … --connection-file F``)."""
    p.add_argument("--connection-file", type=Path, default=argparse.SUPPRESS, help="as for asl-fire bridge")
    p.add_argument("--port", type=_PORT, default=argparse.SUPPRESS, help="as for asl-fire bridge")
    p.add_argument("--token-file", type=Path, default=argparse.SUPPRESS, help="as for asl-fire bridge")
    p.add_argument("--boards", type=Path, default=argparse.SUPPRESS, help="as for asl-fire bridge")
    p.add_argument("--vasl", type=Path, default=argparse.SUPPRESS, help="as for asl-fire bridge")


#: --flag → (FtAttack/MolAttack field, weapons it applies to); the A22 declaration as on ``asl-fire ft|mol``.
_ATTACK_FLAGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cx": ("cx", ("ft", "mol")), "pinned": ("pinned", ("ft", "mol")), "leader": ("leader_drm", ("ft", "mol")),
    "predesignated": ("predesignated", ("ft", "mol")), "basic_tk": ("basic_tk", ("ft", "mol")),
    "ce": ("afv_ce", ("ft", "mol")), "ot": ("afv_ot", ("ft", "mol")),
    "vulnerable_prc": ("vulnerable_prc", ("ft", "mol")), "vs_afv": ("vs_afv", ("ft", "mol")),
    "underscored": ("underscored", ("ft",)), "captured": ("captured", ("ft",)), "area_fire": ("area_fire", ("ft",)),
    "cower": ("cower_columns", ("ft",)), "hindrance": ("hindrance_drm", ("ft",)),
    "los_obstructed": ("los_obstructed", ("ft",)), "fire_group": ("fire_group", ("ft",)),
    "overrun": ("overrun", ("ft",)), "used_ft_dc": ("used_ft_or_dc_this_turn", ("ft",)),
    "paratroops": ("vs_descending_paratroops", ("ft",)), "pillbox_tem": ("pillbox_non_ca_tem", ("ft",)),
    "fp": ("thrower_fp", ("mol",)), "fg_fp": ("other_fp", ("mol",)), "fg_units": ("fg_units", ("mol",)),
    "first_fire_check": ("mol_check_in_first_fire", ("mol",)), "broken": ("broken", ("mol",)),
    "berserk": ("berserk", ("ft", "mol")), "halvings": ("fp_halvings", ("mol",)), "tem": ("tem", ("mol",)),
    "bypassing": ("target_bypassing", ("mol",)), "road": ("across_road_vs_unit_on_road", ("mol",)),
    "tk_mod": ("tk_case_mods", ("mol",)), "target_ft": ("target_ft", ("ft", "mol")),
    "heroic": ("heroic", ("mol",)),
}


def _attack_parser(actions: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    a = actions.add_parser("attack", help="a FT or MOL attack (A22) on the live game: VASSAL's dice, every "
                           "consequence placed as counters in one command (one Undo)",
                           description="Declare a FT or MOL attack by a live piece, roll it with VASSAL's dice, "
                           "resolve it (A22) and place the Flames, Blaze, broken thrower and removed FT as ONE "
                           "VASSAL command; the chat shows the rolls, DRMs and rule numbers.")
    a.add_argument("weapon", choices=("ft", "mol"))
    a.add_argument("--firer", metavar="ID", help="the firing squad's piece id (or its FT counter's); default: the "
                   "unit selected on VASSAL's map")
    a.add_argument("--target", required=True, metavar="LOC|ID", help="the target Location (E3) or an AFV piece id")
    a.add_argument("--phase", default="PFPh", help="the phase (PFPh, MPh, DFPh, AFPh…; default PFPh)")
    a.add_argument("--cx", action="store_true", help="the firer is CX")
    a.add_argument("--pinned", action="store_true", help="the firer is pinned")
    a.add_argument("--leader", type=LEADER_DRM, default=0, metavar="DRM", help="a directing leader's DRM, e.g. -1")
    a.add_argument("--drm", action="append", metavar="VALUE[:REASON]", help="another IFT DRM; repeatable")
    a.add_argument("--ift-result", type=ift_result,
                   help="the IFT result read at the column and Final DR (our texts lack the IFT)")
    a.add_argument("--target-ft", type=TARGET_FT, metavar="N",
                   help="a target Personnel unit possesses N FT: -N to the IFT DR vs it (A22.4; default: the FT "
                   "counters stacked with the target Location's units)")
    v = a.add_argument_group("vs an AFV (the target is a piece)")
    add_afv_target(v, "the target Location's AFV is attacked (with --target LOC)")
    add_mol_vs_afv(v)
    add_ft_declaration(a.add_argument_group("FT (A22.1-.5)"))
    add_mol_declaration(a.add_argument_group("MOL (A22.6-.62)"), fp_required=False,
                        fp_help="the thrower's own FP (default: read from its counter)")
    _connection_options(a)
    a.set_defaults(func=run_bridge)


def _firestart_parser(actions: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..bridge.firestarts import HUT_ATTACKS

    f = actions.add_parser("firestart", help="an HE, WP or hut fire start (B25.13, A24.32, huts) on the live game: "
                           "VASSAL's dice, the Flame placed in one command",
                           description="After an attack the players resolved on VASSAL's tables: roll its fire "
                           "start with VASSAL's dice and place the Flame as ONE VASSAL command (one Undo): he = an "
                           "HE/HEAT or DC attack with an Original KIA (B25.13; vs a hut an Original colored dr 1, "
                           "huts); wp = the WP fire DR in the placing player's MPh (A24.32); hut = an attack vs a "
                           "hut Location with an Original colored dr 1, or an ordnance SW fired in a hut (huts).")
    f.add_argument("kind", choices=("he", "wp", "hut"))
    f.add_argument("--at", required=True, metavar="LOC", help="the Location attacked (or where WP was placed); "
                   "hut: every hut Location the attack affected, e.g. B3,B4 (one Flame, by Random Selection)")
    f.add_argument("--phase", help="the phase (default MPh)")
    f.add_argument("--attack-dr", metavar="C,W", help="the attack's Original DR, colored first (huts: colored dr 1)")
    f.add_argument("--original-kia", action="store_true", help="he: the attack's Original DR gave a KIA (B25.13)")
    f.add_argument("--attack", choices=sorted(HUT_ATTACKS), default="small-arms",
                   help="hut: what attacked the hut (default small-arms)")
    for flag, what in (("collateral", "a Collateral Attack"), ("vehicle-target", "the Vehicle Target Type"),
                       ("rubble", "the attack rubbled the Location"), ("he-equivalency", "HE Equivalency"),
                       ("dc", "a DC attack")):
        f.add_argument(f"--{flag}", action="store_true", help=f"he: {what}")
    _connection_options(f)
    f.set_defaults(func=run_bridge)


def firestart_request(args: argparse.Namespace) -> object:
    """The :class:`~asl_vassal_bridge.bridge.firestarts.FireStartRequest` the ``bridge firestart`` options
    describe."""
    from ..bridge.firestarts import FireStartRequest, attack_dr
    from ..core.position import Phase

    dr = attack_dr(args.attack_dr or "", "--attack-dr")
    try:
        phase = Phase.from_name(args.phase) if args.phase else None
    except ValueError as e:
        raise BadInput(f"--phase: {e}") from None
    opts = {name: True for flag, name in (("collateral", "collateral"), ("vehicle_target", "vehicle_target_type"),
                                          ("rubble", "created_rubble"), ("he_equivalency", "he_equivalency"),
                                          ("dc", "dc")) if getattr(args, flag, False)}
    if opts and args.kind != "he":
        raise BadInput(f"--{next(iter(opts)).replace('_', '-')} is an he option, not for a {args.kind} fire start")
    return FireStartRequest(args.kind, args.at, phase, dr, args.original_kia, args.attack, opts)


_HOB_STATES = ("fanatic", "elite", "inexperienced", "nkvd", "gurkha", "commissar", "berserk", "unarmed", "prc")


def _hob_parser(actions: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    h = actions.add_parser("hob", help="Heat of Battle (A15) for a unit on the live map, read off its counter",
                           description="Roll Heat of Battle (A15) with VASSAL's dice for one unit (--piece ID, or the "
                           "unit selected on VASSAL's map): DRMs, chances, result and consequences to the chat, "
                           "with Battle Hardening, Hero, Berserk and Fanatic counters changed or placed, as ONE "
                           "command.")
    h.add_argument("--piece", metavar="ID", help="the unit's piece id (default: the unit selected in VASSAL)")
    h.add_argument("--no-enemy-in-los", action="store_true", help="no Known enemy unit in LOS (A15.44)")
    h.add_argument("--adjacent-enemy", action="store_true", help="an ADJACENT Known Good Order enemy (A15.5)")
    h.add_argument("--no-quarter", action="store_true", help="subject to No Quarter (A15.5)")
    h.add_argument("--vs-russians", action="store_true", help="the enemy is Russian (SS never surrender)")
    h.add_argument("--others-in-location", action="store_true", help="other friendly units share the Location")
    for state in _HOB_STATES:
        h.add_argument(f"--{state}", action="store_true", help=f"the unit is {state} (not shown by its counter)")
    _connection_options(h)
    h.set_defaults(func=run_bridge)


def attack_request(args: argparse.Namespace) -> AttackRequest:
    """The :class:`~asl_vassal_bridge.bridge.attacks.AttackRequest` the ``bridge attack`` options declare.

    :raises BadInput: for an option of the other weapon, a bad --phase, --fire or --drm.
    """
    from ..bridge.attacks import AttackRequest
    from ..core.explain import DRM
    from ..core.position import Phase

    weapon = args.weapon
    defaults = {"cower": 1, "leader": 0, "hindrance": 0, "fg_fp": 0, "fg_units": 1, "halvings": 0, "tk_mod": 0}
    opts: dict[str, object] = {}
    for flag, (name, weapons) in _ATTACK_FLAGS.items():
        value = getattr(args, flag, None)
        if value is None or value is False or value == defaults.get(flag):
            continue
        if weapon not in weapons:
            raise BadInput(f"--{flag.replace('_', '-')} is a {'/'.join(w.upper() for w in weapons)} option, not "
                           f"for a {weapon.upper()} attack")
        opts[name] = value
    if weapon == "ft":
        for flag in ("unavailable", "fire", "woods_hexside", "moving", "prc_result"):
            if getattr(args, flag, None):
                raise BadInput(f"--{flag.replace('_', '-')} is a MOL option, not for a FT attack")
        if args.non_elite:
            opts["elite"] = False
        if args.with_wind:
            opts["with_wind"] = True
    else:
        for flag in ("non_elite", "with_wind", "original_ift_result"):
            if getattr(args, flag, None):
                raise BadInput(f"--{flag.replace('_', '-')} is a FT option, not for a MOL attack")
        from ..core.molotov import FireType

        opts["available"] = not args.unavailable
        if args.fire:
            opts["fire"] = FireType.from_name(args.fire)
        if args.woods_hexside:
            opts["woods_hexside"] = True
        if args.moving:
            opts["afv_stopped"] = False
    drms = []
    for text in args.drm or ():
        value, reason = extra_drm(text)
        drms.append(DRM(value, reason, "input"))
    if drms:
        opts["extra_drms"] = tuple(drms)
    try:
        phase = Phase.from_name(args.phase)
    except ValueError as e:
        raise BadInput(f"--phase: {e}") from None
    return AttackRequest(weapon, args.firer, args.target, phase, opts, args.ift_result,
                         getattr(args, "prc_result", None), getattr(args, "original_ift_result", None))


def hob_request(args: argparse.Namespace) -> HobRequest:
    """The :class:`~asl_vassal_bridge.bridge.hob.HobRequest` the ``bridge hob`` options describe."""
    from ..bridge.hob import HobRequest
    from ..core.heat_of_battle import HobSituation

    situation = HobSituation(known_enemy_in_los=not args.no_enemy_in_los,
                             adjacent_known_good_order_enemy=args.adjacent_enemy, no_quarter=args.no_quarter,
                             vs_russians=args.vs_russians, other_units_in_location=args.others_in_location)
    flags = {s: True for s in _HOB_STATES if getattr(args, s, False)}
    return HobRequest(args.piece, situation, flags)


def _run_action(client: BridgeClient, args: argparse.Namespace, vasl: VaslSetup | None) -> int:
    from ..bridge.attacks import run_attack
    from ..bridge.hob import run_hob

    if args.bridge_action == "rtph":
        from ..bridge.rtph import run_rtph

        rres = run_rtph(client, vasl=vasl)
        print("\n".join(line.removeprefix("* ") for line in rres.lines))
        print(f"(counters: {rres.catalogue})")
        return 0
    if args.bridge_action == "firestart":
        from ..bridge.firestarts import FireStartRequest, run_fire_start

        req = firestart_request(args)
        assert isinstance(req, FireStartRequest)
        fres = run_fire_start(client, req, vasl=vasl)
        print(fres.report.text())
        print(f"applied as one VASSAL command: {len(fres.applied.get('placed', []))} placed")
        return 0
    if args.bridge_action == "attack":
        res = run_attack(client, attack_request(args), vasl=vasl)
        print(res.outcome.text())
        print(f"applied as one VASSAL command: {len(res.applied.get('placed', []))} placed, "
              f"{res.applied.get('removed', 0)} removed, {res.applied.get('changed', 0)} flipped")
        return 0
    hres = run_hob(client, hob_request(args))
    if hres.hob is None:
        print(hres.message)
        return 0
    print(hres.hob.report().text())
    return 0


def run_build(args: argparse.Namespace) -> int:
    from .._outputs import check_output
    from ..bridge.extension import build_extension
    from ..bridge.install import EXTENSION

    check_output(args.output, "-o", EXTENSION, inputs=(args.vassal_jar, args.carry_wheel), force=args.force)
    built = build_extension(args.vassal_jar, args.output, carry_wheel=args.carry_wheel)
    out = built.path.resolve()
    print(f"wrote {out} ({built.classes} classes, {built.seconds:.1f} s)")
    if args.carry_wheel is not None:
        print(f"carries {args.carry_wheel.name} and its dependencies' lock: on the first game opened with it, the "
              "extension offers to set up its Python (a venv in VASSAL's conf folder) and then starts the bridge")
    print("install: copy it into the folder <module>_ext/ next to your module, e.g. VASL_ext/ beside VASL.vmod "
          "(or VASSAL's global extension folder), then start the module and press the ASL fire buttons")
    return 0


def _log_board_notes(client: BridgeClient, log: logging.Logger, vasl: VaslSetup | None = None) -> None:
    """Say now (not only at the first button) which overlays the board archives' terrain applies and which not, and
    SSR tokens VASL cannot apply (as *vasl*'s SharedBoardMetadata says)."""
    from ..bridge.convert import fallback_notes, warn_once
    from ..vasl.safe import VaslFileError

    try:
        snap = client.snapshot(with_terrain=True, layers_for=())
    except Exception as e:  # the buttons still work; they warn again when they read the terrain
        log.debug("could not read the boards' overlays and SSR now: %s", e)
        return
    try:
        table = vasl.terrain_table() if vasl is not None else None
    except VaslFileError as e:  # the buttons say so when they need the terrain
        log.debug("VASL's terrain types: %s", e)
        table = None
    warn_once(fallback_notes(snap, table=table, boards_dir=vasl.boards if vasl is not None else None))


def _fallback_boards(args: argparse.Namespace) -> VaslSetup | None:
    """The boards folder and VASL's terrain types of the command line or VASSAL's preferences.

    Used only where VASL's own terrain model cannot be read; None when no boards folder is known.
    """
    from .options import vasl_setup

    setup = vasl_setup(args, need_boards=False)
    return setup if setup.boards is not None else None


def read_token_file(path: Path) -> str:
    """The auth token in *path*: one line of printable text.

    :raises BadInput: naming the file for a missing, binary, empty or oversized file.
    """
    import os
    import stat

    from .._files import read_limited

    expected = "expected one line holding the token the ASL fire bridge extension wrote"
    try:
        token = read_limited(path, 4096, "a token file").decode("utf-8").strip()
        mode = path.stat().st_mode
        if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise BadInput(f"{path}: readable by other users (mode {stat.S_IMODE(mode):03o}; expected 600: "
                           f"chmod 600 {path}); not using its token")
    except BadInput as e:
        raise BadInput(f"--token-file {e}") from None
    except UnicodeDecodeError:
        raise BadInput(f"--token-file {path}: not text ({expected})") from None
    except OSError as e:
        raise BadInput(f"--token-file {path}: cannot read it ({e.strerror or e})") from None
    if not token or not token.isprintable() or "\n" in token:
        raise BadInput(f"--token-file {path}: {'empty' if not token else 'not one printable line'} ({expected})")
    return token


def _not_from_py4j(record: logging.LogRecord) -> bool:
    """False for py4j's own log records, which it writes to the root logger too."""
    return "py4j" not in Path(record.pathname).parts


def run_bridge(args: argparse.Namespace) -> int:
    from py4j.protocol import Py4JError

    from ..bridge.client import NotConnected, NothingAnswers, connect, default_connection_file
    from ..bridge.phases import handle_button

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    log = logging.getLogger("asl_fire.bridge")
    if not args.verbose:  # py4j logs tracebacks (some through the root logger); our messages say it in one line
        logging.getLogger("py4j").setLevel(logging.CRITICAL)
        for handler in logging.getLogger().handlers:
            handler.addFilter(_not_from_py4j)
    token = None
    if args.port is not None:
        if args.token_file is None:
            raise BadInput("--port needs --token-file (the auth token is never passed on the command line)")
        token = read_token_file(args.token_file)
    elif args.token_file is not None:
        raise BadInput("--token-file goes with --port (else the port and token come from the connection file)")
    try:
        client = connect(args.connection_file, port=args.port, token=token)
    except NotConnected as e:
        if not isinstance(e, NothingAnswers):
            raise
        if args.port is not None:
            raise NotConnected(f"--port {args.port}: nothing answers on that port; check it, or start VASSAL with "
                               "the ASL fire bridge extension and open a game") from None
        raise NotConnected(f"{args.connection_file or default_connection_file()}: VASSAL does not answer at the "
                           "port this file names: it was left by a VASSAL that has closed; start VASSAL with the "
                           "ASL fire bridge extension and open a game, then try again") from None
    log.info("connected to VASSAL (bridge %s, port %d)", client.version, client.info.port)
    from ..bridge.gamemodule import counter_data

    counters = counter_data({"module": {"path": client.module_path}})  # read once now, not at the first press
    log.info("counters: %s", counters.description)
    try:
        vasl = _fallback_boards(args)
        if vasl is not None:
            _log_board_notes(client, log, vasl)
        if getattr(args, "bridge_action", None):
            return _run_action(client, args, vasl)
        if args.once == "snapshot":
            import json

            print(json.dumps(client.snapshot(), indent=1))
            return 0
        if args.once is not None:
            msg = handle_button(client, args.once, vasl=vasl, strict=True)
            if msg:
                print(msg)
            return 0
        client.listen(lambda action: handle_button(client, action, vasl=vasl))
        if (replaced := client.hand_over()) is not None:
            log.info("the bridge VASSAL had started (pid %d) is stopped: this one serves the buttons now", replaced)
        from ..bridge.prompts import watch_phase_track

        watch_phase_track(client)  # the phase prompts (docs/bridge.md)
        client.say("- ASL fire bridge: Python is connected; the fire buttons are live "
                   f"(counters from {counters.description}).")
        from ..bridge.phases import prepare

        try:
            log.info("%s", prepare(client, vasl=vasl))
        except Py4JError as e:  # VASSAL closed while the game was being read
            log.info("VASSAL closed the connection (%s); stopping", type(e).__name__)
            return 0
        log.info("waiting for VASSAL's buttons (Ctrl-C to stop)")
        stop = threading.Event()
        try:
            while not stop.wait(2.0):
                try:
                    client.status()
                except BadInput:
                    continue
                except Exception as e:  # the VASSAL side went away
                    log.info("VASSAL closed the connection (%s); stopping", type(e).__name__)
                    return 0
        except KeyboardInterrupt:
            log.info("stopping")
        return 0
    finally:
        client.close()
