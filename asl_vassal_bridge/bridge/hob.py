"""Heat of Battle (A15) for a unit selected in a live VASSAL game, read off its VASL counter.

The unit's nationality comes from its counter art's folder (``ge/ge467S``),
its type from VASL's counter name through the unit catalogue
(``units.by_vasl_name("4-6-7 1sq")``), broken or not from its ``broken``
layer.  The DR is rolled with VASSAL's dice; the DRMs, the exact chance of
each result, the result and every consequence (with rule numbers) go to the
chat, with the counter changes VASL has slots for, as ONE command:

* Battle Hardening (A15.3): the counter's class layer switched to the new
  type (``4-6-7 1sq`` → ``4-6-8 Esq``), the broken side off if it rallies;
* Hero Creation (A15.21): the nationality's Hero counter placed beside the
  MMC, or VASL's Heroic marker on a leader;
* Berserk (A15.4) and Fanatic (A10.8): VASL's markers placed on the unit.

Where the module has no such slot, the chat says what to place instead.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BadInput
from ..core.explain import format_drms
from ..core.heat_of_battle import (
    HeatOfBattle,
    HobSituation,
    HobUnit,
    NotSubjectToHeatOfBattle,
    heat_of_battle,
    hob_drms,
    hob_odds,
    not_subject,
)
from ..core.position import UnitKind
from ..core.units import LeaderRating, MMCType, NationalCatalogue, parse_designation
from ..core.values import fields
from ..vasl.pieces import active_markers, art_folder, broken_layer_change, find_piece, is_broken, layers_of, unit_type
from .chat import DICE
from .client import BridgeClient, BridgeRefused, VassalDice

__all__ = ["HERO_GPIDS", "MARKER_GPIDS", "HobRequest", "HobRun", "hob_batch", "hob_button", "hob_unit", "run_hob",
           "selected_piece"]

log = logging.getLogger("asl_fire.bridge")

#: VASL 6.5's "Hero" PieceSlot of each nationality, by its art folder (A15.21).
HERO_GPIDS: dict[str, str] = {
    "ru": "464", "am": "838", "br": "1111", "fr": "1620", "ch": "1972", "al": "2153", "sk": "11380",
    "ge": "2432", "ss": "2868", "it": "3413", "fi": "3601", "ax": "3667", "cc": "11548",
}
#: VASL 6.5's markers for the other A15 results.
MARKER_GPIDS: dict[str, str] = {"berserk": "6376", "fanatic": "6378", "heroic": "6379"}


_ANYWHERE = HobSituation()


@dataclass(frozen=True)
class HobRequest:
    """Heat of Battle for one piece (None: the unit selected on VASSAL's map).

    *flags* are further :class:`~asl_vassal_bridge.core.heat_of_battle.HobUnit`
    states the counter does not show (``fanatic``, ``elite``…).
    """

    piece: str | None = None
    situation: HobSituation = field(default_factory=HobSituation)
    flags: Mapping[str, bool] = field(default_factory=dict)


def hob_unit(piece: Mapping[str, Any], catalogue: Any,
             flags: Mapping[str, bool] | None = None) -> tuple[HobUnit, MMCType | None, NationalCatalogue]:
    """The unit a VASL counter shows, as Heat of Battle needs it (A15.1).

    :raises BadInput: naming the piece if it is no unit the catalogue knows.
    """
    folder = art_folder(piece)
    nat, mmc, designation = unit_type(piece, catalogue)
    state: dict[str, Any] = {"broken": is_broken(piece)}
    shown = active_markers(piece)  # VASL's Berserk / Fanatic layers of the counter (A15.4, A10.8)
    if "berserk" in shown:
        state["berserk"] = True
    if "fanatic" in shown:
        state["fanatic"] = True
    if folder == "ss":
        state["ss"] = True
    state.update(flags or {})
    cat = catalogue[nat]
    if mmc is not None:
        return HobUnit.from_type(nat, mmc, **state), mmc, cat
    rating = parse_designation(designation)
    if isinstance(rating, LeaderRating):
        unknown = set(state) - {f.name for f in fields(HobUnit)}
        if unknown:
            raise BadInput(f"unknown Heat of Battle unit state {', '.join(sorted(unknown))}")
        return HobUnit(nat, UnitKind.LEADER, leader=rating, **state), None, cat
    return HobUnit(nat, UnitKind.HERO, rating, **state), None, cat


def _place(piece: Mapping[str, Any], gpid: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"gpid": gpid, "location": str(piece.get("location") or "")}
    if piece.get("map"):
        entry["map"] = piece["map"]
    if piece.get("x") is not None and piece.get("y") is not None:
        entry.pop("location")
        entry["x"], entry["y"] = int(piece["x"]), int(piece["y"])
    return entry


def _hardening_layer(piece: Mapping[str, Any], hob: HeatOfBattle) -> dict[str, Any] | None:
    """The layer change showing the Battle Hardened type on the same counter (VASL's class layer), if it has one."""
    bh = hob.hardening
    if bh is None or bh.after is None or len(bh.options) > 1:
        return None
    after = bh.after
    found = []
    for i, (lay, _t) in enumerate(layers_of(piece)):
        for j, name in enumerate(lay.names):
            if (name in bh.options[0].vasl_names) if bh.options else name.split(" ", 1)[0] == after:
                found.append({"id": str(piece["id"]), "index": i, "value": j + 1})
    return found[0] if len(found) == 1 else None


def hob_batch(piece: Mapping[str, Any], unit: HobUnit, hob: HeatOfBattle, *, session: int | None,
              rolls: Sequence[tuple[str, Sequence[int]]], situation: HobSituation = _ANYWHERE,
              slots: frozenset[str] | None = None) -> dict[str, Any]:
    """The ONE batch of a Heat of Battle DR: chat (DRMs, chances, roll, result, consequences) and counters.

    *slots*: the gpids the module has, if known (None: assume VASL's); a
    counter without a slot is described in the chat instead.
    """
    pid = str(piece["id"])
    where = str(piece.get("location") or "?")
    expect: dict[str, str] = {}
    place: list[dict[str, Any]] = []
    layers: list[dict[str, Any]] = []
    notes: list[str] = []
    drms = hob_drms(unit)
    odds = hob_odds(unit, situation)
    chances = ", ".join(f"{o.label} {o.ways}/36" for o in odds)
    results = " + ".join(str(r) for r in hob.results) or "no effect"
    header = [f"* ASL fire bridge, Heat of Battle (A15.1): {unit.describe()} in {where}: {results}",
              f"* DRM: {format_drms(drms)} (no leadership DRM, A15.1); chances: {chances}"]

    def have(gpid: str) -> bool:
        return slots is None or gpid in slots

    if hob.hardening is not None and hob.hardening.changes:
        ch = _hardening_layer(piece, hob)
        if ch is not None:
            layers.append(ch)
            expect[pid] = str(piece["rev"])
            if hob.hardening.rallied and unit.broken:
                try:
                    off = broken_layer_change(piece, broken=False)
                except BadInput:
                    off = None
                if off is not None:
                    layers.append(off)
            notes.append(f"* {piece.get('name')} now shows {hob.hardening.after} (A15.3); the owner may refuse: "
                         "Undo reverts the whole Heat of Battle")
        elif hob.hardening.after is not None:
            notes.append(f"* replace {piece.get('name')} by a {hob.hardening.after} counter by hand (A15.3)")
        if hob.hardening.fanatic:
            if have(MARKER_GPIDS["fanatic"]):
                place.append(_place(piece, MARKER_GPIDS["fanatic"]))
            else:
                notes.append("* place a Fanatic marker on the unit (A15.3, A10.8)")
    if hob.hero is not None:
        if unit.is_leader:
            gpid: str | None = MARKER_GPIDS["heroic"]
        else:
            gpid = HERO_GPIDS.get(art_folder(piece) or "")
        if gpid is not None and have(gpid):
            place.append(_place(piece, gpid))
        else:
            notes.append(f"* place a {hob.hero.hero} Hero counter of the unit's nationality beside it (A15.21)")
    if hob.berserk is not None:
        if have(MARKER_GPIDS["berserk"]):
            place.append(_place(piece, MARKER_GPIDS["berserk"]))
        else:
            notes.append("* place a Berserk marker on the unit (A15.4)")
        if unit.broken:
            try:
                off = broken_layer_change(piece, broken=False)
            except BadInput:
                off = None
            if off is not None:
                layers.append(off)
                expect[pid] = str(piece["rev"])
    texts = [f"* Heat of Battle (A15.1): DR {DICE}, {format_drms(hob.drms)} → Final {hob.final}" if i == 0 else ""
             for i in range(len(rolls))]
    return {
        "phase": None,
        "session": session,
        "expect": expect,
        "chat": header,
        "rolls": [{"text": t} for t in texts],
        "remove": [],
        "place": place,
        "layers": layers,
        "summary": [f"* {e.describe()}" for e in hob.consequences()] + notes,
    }


@dataclass(frozen=True)
class HobRun:
    """What the Heat of Battle action did: the unit, the resolved DR (None if exempt) and VASSAL's answer."""

    piece: str
    unit: HobUnit
    hob: HeatOfBattle | None
    applied: dict[str, Any] | None
    message: str = ""


def selected_piece(client: BridgeClient, what: str = "a unit for Heat of Battle") -> str:
    """The one unit selected on VASSAL's map (*what* names it in the messages).

    :raises BadInput: if none or several pieces are selected.
    """
    import json

    data = json.loads(str(client.api.selection()))
    if isinstance(data, dict):
        raise BridgeRefused(str(data.get("error", "no selection")))
    ids = [str(x) for x in data]
    if not ids:
        raise BadInput(f"nothing is selected on the map: select {what} (click its counter) and try again")
    return ids[0] if len(ids) == 1 else _first_unit(client, ids, what)


def _catalogue(client: BridgeClient) -> Any:
    """The unit catalogue of the module the game runs (else the bundled one; see :mod:`.gamemodule`)."""
    from .gamemodule import counter_data

    return counter_data({"module": {"path": getattr(client, "module_path", None)}}).catalogue


def _first_unit(client: BridgeClient, ids: Sequence[str], what: str) -> str:
    snap = client.snapshot(with_terrain=False)
    cat = _catalogue(client)
    units = []
    for pid in ids:
        try:
            unit_type(find_piece(snap, pid), cat)
        except BadInput:
            continue
        units.append(pid)
    if len(units) != 1:
        raise BadInput(f"{len(units)} units selected: select exactly one, {what}")
    return units[0]


def run_hob(client: BridgeClient, request: HobRequest | None = None) -> HobRun:
    """Roll Heat of Battle (A15) for the piece (or the selected one) with VASSAL's dice; apply it as one command.

    :raises BadInput: (or :class:`~.client.BridgeRefused`) naming the piece or VASSAL's reason; nothing changes.
    """
    request = request or HobRequest()
    pid = request.piece or selected_piece(client)
    snap = client.snapshot(with_terrain=False)
    game_status = snap.get("game") or {}
    if not game_status.get("may_change", False):
        raise BridgeRefused(str(game_status.get("why_not") or "VASSAL does not allow changes now"))
    piece = find_piece(snap, pid)
    unit, _mmc, cat = hob_unit(piece, _catalogue(client), request.flags)
    reasons = not_subject(unit)
    if reasons:
        msg = f"ASL fire bridge: {unit.describe()} is not subject to Heat of Battle: {', '.join(reasons)}"
        return HobRun(pid, unit, None, None, msg)
    dice = VassalDice(client)
    session, rolled = dice.session, dice.rolled

    try:
        hob = heat_of_battle(unit, dice, request.situation, cat)
    except NotSubjectToHeatOfBattle as e:
        return HobRun(pid, unit, None, None, f"ASL fire bridge: {e}")
    batch = hob_batch(piece, unit, hob, session=session, rolls=rolled, situation=request.situation)
    try:
        applied = client.apply(batch)
    except BridgeRefused as e:
        if "no counter with gpid" not in str(e):
            raise
        # the module lacks a marker slot: say what to place instead (the same dice, not rolled again)
        batch = hob_batch(piece, unit, hob, session=session, rolls=rolled, situation=request.situation,
                          slots=frozenset())
        applied = client.apply(batch)
    log.info("Heat of Battle for %s: %s", pid, hob.headline())
    return HobRun(pid, unit, hob, applied, "")


def hob_button(client: BridgeClient) -> str:
    """The Heat of Battle toolbar button: the selected unit; returns the line shown to this player."""
    res = run_hob(client)
    return res.message

