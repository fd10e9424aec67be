"""The Fire start button (B25.13, A24.32, huts): a small VASSAL dialog asks what the players resolved on VASSAL's
tables, then :func:`~.firestarts.run_fire_start` rolls with VASSAL's dice and places the Flame as one command (one
Undo), as ``asl-fire bridge firestart`` does.

The dialog's fields are that command's options: the kind (HE, WP, hut), the Location(s), the phase, the attack's
Original DR and KIA, what attacked a hut, and the B25.13 exceptions; the Location is filled with the hex of the
counter or stack selected on the map, the phase with the Phase Track's. The extension only shows the dialog
(``BridgeApi.openForm``, polled: no call held open) and sends the answers back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.errors import BadInput
from ..core.position import GameMap, Phase
from ..vasl.setup import VaslSetup
from .client import BridgeClient
from .firestarts import HUT_ATTACKS, FireStartRequest, attack_dr, run_fire_start
from .position import position_from_snapshot, press_snapshot
from .snapshot import piece_hex

__all__ = ["FIELDS", "firestart_button", "form_spec", "request_from_answers"]

#: The B25.13 exceptions of an HE fire start: the dialog's key → :class:`FireStartRequest`'s option.
HE_OPTIONS = {"collateral": "collateral", "vehicle_target": "vehicle_target_type", "rubble": "created_rubble",
              "he_equivalency": "he_equivalency", "dc": "dc"}

_HE = {"key": "kind", "values": ["HE"]}

#: The dialog's fields: key, label, kind ("text", "choice", "bool"), default, choices, help (with the rule); a field
#: with "when" shows only for the fire starts it applies to.
FIELDS: tuple[dict[str, Any], ...] = (
    {"key": "kind", "label": "Fire start", "kind": "choice", "value": "HE", "choices": ["HE", "WP", "hut"],
     "help": "HE: an HE/HEAT or DC attack with an Original KIA (B25.13); WP: the WP fire DR in the placing "
             "player's MPh (A24.32); hut: an attack vs a hut Location with an Original colored dr 1, or an "
             "ordnance SW fired in a hut (huts)"},
    {"key": "at", "label": "Location(s)", "kind": "text", "value": "",
     "help": "the Location attacked (E3, G4.1) or where WP was placed; hut: every hut Location the attack "
             "affected (B3,B4: one Flame, by Random Selection); filled with the selected counter's or stack's hex"},
    {"key": "phase", "label": "Phase", "kind": "choice", "value": "MPh",
     "choices": ["PFPh", "MPh", "DFPh", "AFPh", "CCPh"], "help": "filled from VASL's Phase Track"},
    {"key": "attack_dr", "label": "Attack's Original DR (colored,white)", "kind": "text", "value": "",
     "help": "e.g. 1,4; vs a hut the colored dr 1 places the Flame (huts); empty: none said",
     "when": {"key": "kind", "values": ["HE", "hut"]}},
    {"key": "original_kia", "label": "Original KIA", "kind": "bool", "value": False,
     "help": "the HE attack's Original DR gave a KIA (B25.13)", "when": _HE},
    {"key": "hut_attack", "label": "What attacked the hut", "kind": "choice", "value": "small-arms",
     "choices": sorted(HUT_ATTACKS), "help": "huts", "when": {"key": "kind", "values": ["hut"]}},
    {"key": "collateral", "label": "Collateral Attack", "kind": "bool", "value": False, "help": "B25.13",
     "when": _HE},
    {"key": "vehicle_target", "label": "Vehicle Target Type", "kind": "bool", "value": False,
     "help": "B25.13", "when": _HE},
    {"key": "rubble", "label": "the attack rubbled the Location", "kind": "bool", "value": False,
     "help": "B25.13", "when": _HE},
    {"key": "he_equivalency", "label": "HE Equivalency", "kind": "bool", "value": False, "help": "B25.13",
     "when": _HE},
    {"key": "dc", "label": "a DC attack", "kind": "bool", "value": False, "help": "B25.13", "when": _HE},
)


def form_spec(at: str | None, phase: str | None = None) -> str:
    """The dialog's description for the extension (JSON), the Location filled in when a counter or stack is selected,
    the phase when VASL's Phase Track shows one the dialog offers.

    >>> json.loads(form_spec("E3"))["fields"][1]["value"]
    'E3'
    >>> json.loads(form_spec(None, "DFPh"))["fields"][2]["value"]
    'DFPh'
    """
    fields = []
    for f in FIELDS:
        f = dict(f)
        if f["key"] == "at" and at:
            f["value"] = at
        elif f["key"] == "phase" and phase in f["choices"]:
            f["value"] = phase
        fields.append(f)
    return json.dumps({"title": "ASL fire bridge: fire start (B25.13, A24.32, huts)", "ok": "Roll",
                       "fields": fields})


def request_from_answers(answers: Mapping[str, Any]) -> FireStartRequest:
    """The fire start the dialog's answers make (the same :class:`FireStartRequest` as ``asl-fire bridge
    firestart``'s options).

    >>> r = request_from_answers({"kind": "HE", "at": "E3", "phase": "PFPh", "attack_dr": "2,3",
    ...                           "original_kia": True, "rubble": True})
    >>> r.kind, r.at, r.phase.value, r.attack_dr, r.original_kia, dict(r.options)
    ('he', 'E3', 'PFPh', (2, 3), True, {'created_rubble': True})
    """
    kind = str(answers.get("kind") or "").strip().lower()
    at = str(answers.get("at") or "").replace(" ", "")
    if not at:
        raise BadInput("the dialog's Location is empty: give the Location attacked (E3) or, for a hut fire start, "
                       "the hut Locations (B3,B4); nothing rolled")
    try:
        phase = Phase.from_name(str(answers.get("phase") or "MPh"))
    except ValueError as e:
        raise BadInput(f"the dialog's phase: {e}") from None
    dr = attack_dr(str(answers.get("attack_dr") or ""), "the dialog's attack DR")
    options = {name: True for key, name in HE_OPTIONS.items() if answers.get(key) is True}
    if options and kind != "he":
        raise BadInput(f"the dialog's HE options ({', '.join(sorted(options))}) are for an HE fire start (B25.13), "
                       f"not a {kind} one; nothing rolled")
    return FireStartRequest(kind, at, phase, dr, answers.get("original_kia") is True,
                            str(answers.get("hut_attack") or "small-arms"), options)


def _selected(client: BridgeClient, game_map: GameMap | None, vasl: VaslSetup | None) -> tuple[str | None,
                                                                                             str | None]:
    """The hex of the counter or stack selected on the map, as the rules name it (None when nothing is selected, or
    the pieces selected are in several hexes or in none), and the phase VASL's Phase Track shows (None without
    one)."""
    from .clock import phase_track

    data = json.loads(str(client.api.selection()))
    snap = press_snapshot(client, game_map)
    try:
        track = phase_track(snap)
    except BadInput:
        track = None
    phase = track.phase.value if track is not None else None
    if not isinstance(data, list) or not data:
        return None, phase
    live = position_from_snapshot(snap, game_map=game_map, vasl=vasl)
    hexes = set()
    for pid in data:
        piece = live.pieces.get(str(pid))
        h = piece_hex(piece, live.position.map.layout) if piece is not None else None
        hexes.add(live.position.map.hex_name(h) if h is not None and h in live.position.map else None)
    return (hexes.pop() if len(hexes) == 1 else None), phase


def firestart_button(client: BridgeClient, *, game_map: GameMap | None = None, vasl: VaslSetup | None = None) -> str:
    """The Fire start button: the dialog (the Location filled with the selected counter's or stack's hex, the phase
    with the Phase Track's), then the fire start as one command; returns the line shown to this player ("" when the
    fire start's own chat says it all, or the player cancelled)."""
    try:
        at, phase = _selected(client, game_map, vasl)
    except BadInput:
        at, phase = None, None  # the dialog still opens; its Location is then the player's to type
    answers = client.ask_form(form_spec(at, phase))
    if answers is None:
        return "ASL fire bridge: fire start cancelled; nothing rolled"
    run_fire_start(client, request_from_answers(answers), game_map=game_map, vasl=vasl)
    return ""
