"""FT and MOL attacks (A22) in a live VASSAL game: declaration → VASSAL's dice → every consequence in one command.

The firer is a live piece (the squad, or the FT counter in its stack), the
target a Location name (``E3``) or an AFV piece id.  The rules are the core's
(:mod:`asl_vassal_bridge.core.flamethrower`, :mod:`~asl_vassal_bridge.core.molotov`);
this module only reads the counters, rolls through the bridge's dice path
and turns the :class:`~asl_vassal_bridge.core.flamethrower.AttackOutcome`
into one batch:

* a Flame counter for every new Flame (A22.6111 colored dr 1/6, B25.12);
* a Blaze on the AFV's hex for a Burning Wreck (A22.34, A22.612, B25.14);
* the thrower's counter flipped to its broken side through its VASL
  ``broken`` layer (A22.6111 colored dr 6);
* the FT counter removed after a malfunction (A22.5);
* chat lines: the plan (FP, IFT column, DRMs with rules), each roll and
  what it did, every consequence with its rule.

One ``sendAndLog``: the opponent sees it all, one Undo reverts it all.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.dice import Dice
from ..core.errors import BadInput
from ..core.explain import Event
from ..core.flamethrower import AttackOutcome, ConsequenceKind, FtAttack, FtPlan, ft_attack, resolve_ft_attack
from ..core.molotov import MolAttack, MolPlan, mol_attack, resolve_mol_attack
from ..core.position import GameMap, Location, Phase, Position
from ..vasl.counters import PLACE_GPIDS, FireCounter
from ..vasl.pieces import broken_layer_change, find_piece, is_ft_counter, stack_of, unit_kind, unit_type
from ..vasl.setup import VaslSetup
from .chat import DICE, roll_lines
from .client import BridgeClient, VassalDice
from .position import LiveGame, position_from_snapshot

__all__ = ["AttackRequest", "PreparedAttack", "attack_batch", "prepare_attack", "run_attack"]

log = logging.getLogger("asl_fire.bridge")

WEAPONS = ("ft", "mol")


@dataclass(frozen=True)
class AttackRequest:
    """A declared FT or MOL attack on the live game.

    *firer*: the squad's piece id (or, for a FT, the FT counter's; None: the
    piece selected on VASSAL's map); *target*:
    a Location name (``E3``, ``G4.1``) or the id of the AFV attacked.
    *options* are further fields of :class:`~asl_vassal_bridge.core.flamethrower.FtAttack`
    or :class:`~asl_vassal_bridge.core.molotov.MolAttack` (``cx``, ``predesignated``,
    ``basic_tk``…); *ift_result* the IFT result the players read (our texts lack the IFT);
    *original_ift_result* (FT only) the IFT result of the Original DR, which
    the FT fire start keys on (B25.12).
    """

    weapon: str
    firer: str | None
    target: str
    phase: Phase = Phase.PFPH
    options: Mapping[str, Any] = field(default_factory=dict)
    ift_result: str | None = None
    prc_result: str | None = None
    original_ift_result: str | None = None

    def __post_init__(self) -> None:
        if self.weapon not in WEAPONS:
            raise BadInput(f"attack weapon {self.weapon!r}: expected ft or mol")
        if self.original_ift_result is not None and self.weapon != "ft":
            raise BadInput("the IFT result of the Original DR (B25.12 fire start) is a FT option, not for a "
                           f"{self.weapon.upper()} attack")


@dataclass(frozen=True)
class PreparedAttack:
    """What the counters say about a declared attack: the Position, the plan and the pieces involved."""

    request: AttackRequest
    live: LiveGame
    plan: FtPlan | MolPlan
    firer_piece: Mapping[str, Any]
    weapon_piece: Mapping[str, Any] | None
    target_piece: Mapping[str, Any] | None
    firer_label: str

    @property
    def position(self) -> Position:
        return self.live.position


_is_ft_counter = is_ft_counter


def _is_mol_counter(p: Mapping[str, Any]) -> bool:
    name = str(p.get("name") or p.get("basic_name") or "")
    return name.upper().startswith("MOL")


def _location_of(pos: Position, piece: Mapping[str, Any]) -> Location:
    name = str(piece.get("location") or "")
    try:
        return pos.map.parse_location(name)
    except (ValueError, BadInput):
        raise BadInput(f"piece {piece.get('id')} ({piece.get('name')}) is at {name!r}, not on a hex of the "
                       "map the rules know") from None


def _unit_in(stack: Sequence[Mapping[str, Any]], catalogue: Any) -> tuple[Mapping[str, Any], Any] | None:
    for p in stack:
        if _is_ft_counter(p) or _is_mol_counter(p):
            continue
        try:
            return p, unit_type(p, catalogue)
        except BadInput:
            continue
    return None


def prepare_attack(snapshot: Mapping[str, Any], request: AttackRequest, *, game_map: GameMap | None = None,
                   vasl: VaslSetup | None = None, catalogue: Any = None) -> PreparedAttack:
    """Read the firer, its FT/MOL counter and the target off the snapshot and plan the attack (A22).

    :raises BadInput: for an unknown piece or Location, a firer that is no unit, a FT attack without a FT
        counter in the firer's stack; :class:`~asl_vassal_bridge.core.errors.IllegalAction` (a BadInput)
        with the rule number when the core refuses the declaration.
    """
    live = position_from_snapshot(snapshot, game_map=game_map, phase=request.phase, vasl=vasl)
    if catalogue is None:
        # the catalogue of the module the game runs (else the bundled one): see bridge.gamemodule
        catalogue = live.counters.catalogue if live.counters is not None else None
    if catalogue is None:
        from ..data import unit_catalogue

        catalogue = unit_catalogue()
    pos = live.position
    if request.firer is None:
        raise BadInput("no firer: give its piece id (--firer ID) or select it on the map")
    firer_piece = find_piece(snapshot, request.firer)
    stack = stack_of(snapshot, firer_piece)
    weapon_piece: Mapping[str, Any] | None = None
    if _is_ft_counter(firer_piece) or _is_mol_counter(firer_piece):
        weapon_piece = firer_piece
        found = _unit_in(stack, catalogue)
        if found is None:
            raise BadInput(f"piece {request.firer} ({firer_piece.get('name')}) is a support weapon with no unit "
                           f"in its stack at {firer_piece.get('location')} to use it (A22)")
        unit_piece, (nat, mmc, designation) = found
    else:
        unit_piece = firer_piece
        nat, mmc, designation = unit_type(firer_piece, catalogue)
        want = _is_ft_counter if request.weapon == "ft" else _is_mol_counter
        weapon_piece = next((p for p in stack if want(p)), None)
    if request.weapon == "ft" and weapon_piece is None:
        raise BadInput(f"piece {request.firer} ({firer_piece.get('name')}) at {firer_piece.get('location')} has no "
                       "FT counter in its stack: only a unit possessing a FT makes a FT attack (A22)")
    firer_loc = _location_of(pos, unit_piece)
    target_piece: Mapping[str, Any] | None = None
    opts = dict(request.options)
    try:
        target_loc = pos.map.parse_location(request.target)
    except (ValueError, BadInput):
        target_loc = None
    if target_loc is None:
        try:
            target_piece = find_piece(snapshot, request.target)
        except BadInput:
            raise BadInput(f"target {request.target!r}: neither a Location of the map (e.g. E3) nor a visible "
                           "piece id") from None
        target_loc = _location_of(pos, target_piece)
        opts.setdefault("vs_afv", True)
        opts.setdefault("afv_id", str(target_piece["id"]))
    counter = live.units.get(str(unit_piece["id"]))
    if counter is not None:
        # the firer's state as its counter and stack show it (broken layer, Pin and CX markers, Berserk layer)
        u = counter.unit
        if request.weapon == "ft" and u.broken:
            raise BadInput(f"piece {unit_piece['id']} ({unit_piece.get('name')}) shows its broken side: a broken "
                           "unit makes no FT attack")
        opts.setdefault("cx", u.is_cx)
        opts.setdefault("pinned", u.pinned)
        opts.setdefault("berserk", u.berserk)
        if request.weapon == "mol":
            opts.setdefault("broken", u.broken)
    if not opts.get("vs_afv"):
        # A22.4: the FT counters stacked with the target Location's units, unless the request says
        opts.setdefault("target_ft", pos.target_ft(target_loc))
    kind = unit_kind(mmc, designation)
    label = f"{designation} ({unit_piece['id']})"
    plan: FtPlan | MolPlan
    if request.weapon == "ft":
        plan = ft_attack(pos, FtAttack(firer_loc, target_loc, firer_kind=kind, firer_id=label, **opts))
    else:
        fp = float(mmc.strength.firepower) if mmc is not None else 1.0
        opts.setdefault("available", True)
        opts.setdefault("thrower_fp", fp)
        plan = mol_attack(pos, MolAttack(firer_loc, target_loc, thrower_kind=kind, thrower_id=label, **opts))
    return PreparedAttack(request, live, plan, unit_piece, weapon_piece, target_piece,
                          f"{nat.label} {designation}")


def resolve(prepared: PreparedAttack, dice: Dice) -> AttackOutcome:
    """Roll and resolve the planned attack with the core (A22.1–.5 or A22.6–.62)."""
    pos, plan, req = prepared.position, prepared.plan, prepared.request
    if isinstance(plan, FtPlan):
        return resolve_ft_attack(pos, plan, dice, ift_result=req.ift_result,
                                 original_ift_result=req.original_ift_result)
    return resolve_mol_attack(pos, plan, dice, ift_result=req.ift_result, prc_result=req.prc_result)


def _hex_entry(prepared: PreparedAttack, gpid: str, loc: Location) -> dict[str, Any]:
    pos = prepared.position
    entry: dict[str, Any] = {"gpid": gpid, "location": pos.map.hex_name(loc.hex)}
    where = prepared.firer_piece.get("map") or prepared.live.map_name
    if where:
        entry["map"] = where
    return entry


def _burning_entry(prepared: PreparedAttack, loc: Location) -> dict[str, Any]:
    """The Blaze of a Burning Wreck (B25.14): on the burning vehicle's own stack, else on its hex."""
    gpid = PLACE_GPIDS[FireCounter.BLAZE]
    if prepared.live.counters is not None:
        gpid = prepared.live.counters.place_gpid(FireCounter.BLAZE)
    t = prepared.target_piece
    if t is not None and t.get("x") is not None and t.get("y") is not None:
        entry: dict[str, Any] = {"gpid": gpid, "x": int(t["x"]), "y": int(t["y"])}
        if t.get("map"):
            entry["map"] = t["map"]
        return entry
    return _hex_entry(prepared, gpid, loc)


def attack_batch(prepared: PreparedAttack, outcome: AttackOutcome, *, session: int | None,
                 rolls: Sequence[tuple[str, Sequence[int]]]) -> dict[str, Any]:
    """The ONE batch of an attack's consequences: counters placed, flipped and removed, and the chat lines.

    *rolls* are the dice rolled in *session*, in order (purpose, faces).
    """
    pos = prepared.position
    a = prepared.plan.attack
    weapon = "FT" if isinstance(prepared.plan, FtPlan) else "MOL"
    firer = prepared.firer_piece
    expect: dict[str, str] = {}
    place: list[dict[str, Any]] = []
    remove: list[str] = []
    layers: list[dict[str, Any]] = []
    notes: list[str] = []
    rule = "A22.1" if weapon == "FT" else "A22.6"
    src = pos.loc_name(a.firer if isinstance(a, FtAttack) else a.thrower)
    results = "; ".join(f"{c.text} ({c.rule})" for c in outcome.consequences) or "no effect"
    header = [f"* ASL fire bridge, {weapon} attack: {prepared.firer_label} {src} → {pos.loc_name(a.target)} "
              f"({rule}): {results}"]
    plan = [line.strip() for line in prepared.plan.describe(pos).splitlines() if line.strip()]
    lead = f"{weapon} attack {src} → {pos.loc_name(a.target)}"
    if plan and plan[0].startswith(lead):  # "FT attack B2 → C2: range 1 …": the header says who and where
        plan[0] = plan[0][len(lead):].strip(" :()")
    # a check rolled has its own line
    rolled = {r.check.name for r in outcome.report.rolls()}
    plan = [line for line in plan if line and line.split(" (", 1)[0] not in rolled]
    for c in outcome.consequences:
        if c.kind is ConsequenceKind.FLAME and c.location is not None:
            place.append(_hex_entry(prepared, PLACE_GPIDS[FireCounter.FLAME], c.location))
            if c.location.level != 0 or c.location.rooftop:
                notes.append(f"* Flame placed for {pos.loc_name(c.location)}: mark its level with VASL's Level "
                             "marker")
        elif c.kind is ConsequenceKind.BURNING_WRECK and c.location is not None:
            place.append(_burning_entry(prepared, c.location))
            notes.append(f"* {_afv_name(prepared)}: replace it by its Wreck (the counter's Wreck command); the "
                         "Blaze on it makes it a Burning Wreck (B25.14)")
        elif c.kind is ConsequenceKind.WRECK:
            notes.append(f"* {_afv_name(prepared)}: replace it by its Wreck (the counter's Wreck command), not "
                         f"burning ({c.rule})")
        elif c.kind is ConsequenceKind.THROWER_BROKEN:
            try:
                ch = broken_layer_change(firer)
            except BadInput as e:
                notes.append(f"* flip {firer.get('name')} ({firer.get('id')}) to its broken side by hand: {e} "
                             f"({c.rule})")
                ch = None
            if ch is not None:
                layers.append(ch)
                expect[str(firer["id"])] = str(firer["rev"])
        elif c.kind is ConsequenceKind.FT_REMOVED:
            ft = prepared.weapon_piece
            if ft is not None:
                remove.append(str(ft["id"]))
                expect[str(ft["id"])] = str(ft["rev"])
            else:
                notes.append(f"* remove the FT of {firer.get('name')} by hand ({c.rule})")
    # the attack DR has no Check of its own: its line says what it did (IFT line, To Kill, colored dr), once
    said = [e for e in outcome.report.events if e.roll is None and (
        e.kind in ("ift", "thrower-breaks", "flame", "burning-wreck", "wreck") or "To Kill DR" in e.text)]
    texts = roll_lines(rolls, outcome.report)
    used: list[Event] = []
    for i, (_purpose, faces) in enumerate(rolls):
        if len(faces) == 2 and said and texts[i].endswith(f": DR {DICE}"):
            texts[i] = attack_dr_line(pos.loc_name(a.target), faces, said)
            used = said
            break
    summary = [f"* {e.describe()}" for e in outcome.report.events if e.roll is None and e not in used]
    summary += [f"* {line}" for line in _compact(plan)]
    return {
        "phase": None,
        "session": session,
        "expect": expect,
        "chat": header,
        "rolls": [{"text": t} for t in texts],
        "remove": remove,
        "place": place,
        "layers": layers,
        "summary": summary + notes,
    }


def attack_dr_line(target: str, faces: Sequence[int], said: Sequence[Event]) -> str:
    """The attack DR's one chat line: the target Location, what the DR did (a Flame, the thrower broken…) and then
    the IFT or To Kill line with the dice (``{dice}``: VASSAL writes them), each fact once (A22).

    >>> attack_dr_line("C2", [1, 3], [Event("A22.6111", "Flame in C2 (MOL colored dr 1)", "C2", kind="flame"),
    ...     Event("A22.611", "IFT DR 4 (1,3) +1 → Final DR 5", "C2", kind="ift")])
    '* C2: Flame in C2 (MOL colored dr 1) (A22.6111); IFT DR 4 ({dice}) +1 → Final DR 5 (A22.611)'
    """
    shown = f"({faces[0]},{faces[1]})"
    first = [e.describe() for e in said if shown not in e.describe()]
    dice = [e.describe().replace(shown, f"({DICE})", 1) for e in said if shown in e.describe()]
    if not dice:
        dice = [f"DR {DICE}"]
    return f"* {target}: " + "; ".join(first + dice)


def _compact(lines: Sequence[str], width: int = 110) -> list[str]:
    """Short lines joined with "; " up to *width* characters.

    >>> _compact(["range 1", "FP 24 → IFT column 24", "x" * 30], 40)
    ['range 1; FP 24 → IFT column 24', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx']
    """
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 2 + len(line) <= width:
            out[-1] += f"; {line}"
        else:
            out.append(line)
    return out


def _afv_name(prepared: PreparedAttack) -> str:
    t = prepared.target_piece
    return f"{t.get('name')} ({t.get('id')})" if t is not None else "the AFV"


@dataclass(frozen=True)
class AttackResult:
    """What an attack did: the outcome, the batch sent and VASSAL's answer."""

    outcome: AttackOutcome
    batch: dict[str, Any]
    applied: dict[str, Any]


def run_attack(client: BridgeClient, request: AttackRequest, *, game_map: GameMap | None = None,
               vasl: VaslSetup | None = None) -> AttackResult:
    """Declare, roll with VASSAL's dice, resolve and apply one FT/MOL attack as ONE command (A22).

    :raises BadInput: (or :class:`~.client.BridgeRefused`) with the reason when the declaration is illegal
        or VASSAL refuses the change; nothing is changed then.
    """
    snap = client.snapshot(with_terrain=game_map is None)
    game_status = snap.get("game") or {}
    if not game_status.get("may_change", False):
        from .client import BridgeRefused

        raise BridgeRefused(str(game_status.get("why_not") or "VASSAL does not allow changes now"))
    if request.firer is None:
        from ..core.values import replace
        from .hob import selected_piece

        request = replace(request, firer=selected_piece(client, what="the firing unit"))
    prepared = prepare_attack(snap, request, game_map=game_map, vasl=vasl)
    dice = VassalDice(client)
    session, rolled = dice.session, dice.rolled

    outcome = resolve(prepared, dice)
    batch = attack_batch(prepared, outcome, session=session, rolls=rolled)
    applied = client.apply(batch)
    log.info("%s attack by %s: %d rolls, %d placed, %d removed, %d flipped", request.weapon.upper(),
             request.firer, len(rolled), len(applied.get("placed", [])), applied.get("removed", 0),
             applied.get("changed", 0))
    return AttackResult(outcome, batch, applied)

