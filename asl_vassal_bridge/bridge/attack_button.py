"""The FT/MOL attack button (A22): a small VASSAL dialog asks the declaration, then :func:`~.attacks.run_attack`
rolls with VASSAL's dice and places every consequence as one command (one Undo), as ``asl-fire bridge attack``.

The dialog's fields are the declaration's (weapon, firer, target, phase) and the options the rules ask for
that the counters cannot show (a directing leader, CX, the IFT result read, an AFV's predesignation and Basic
TK#); the extension only shows them (``BridgeApi.openForm``, polled: no call held open) and sends the answers back.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BadInput
from ..core.position import Phase
from ..core.values import replace
from ..vasl.pieces import is_ft_counter, stack_of, unit_type
from ..vasl.setup import VaslSetup
from .attacks import AttackRequest, run_attack
from .client import BridgeClient

__all__ = ["FIELDS", "Defaults", "attack_button", "form_spec", "read_defaults", "request_from_answers", "unit_labels"]

#: The phases an attack's dialog offers.
PHASES = ["PFPh", "MPh", "DFPh", "AFPh", "CCPh"]

#: The dialog's fields: key, label, kind ("text", "choice", "bool"), default, choices, help (with the rule); a field
#: with "when" shows only while another field has one of the values listed (FT-only, AFV-only fields).
FIELDS: tuple[dict[str, Any], ...] = (
    {"key": "weapon", "label": "Weapon", "kind": "choice", "value": "MOL", "choices": ["FT", "MOL"],
     "help": "FT (A22.1-.5) or Molotov Cocktail (A22.6-.62); FT when the selected stack holds a FT"},
    {"key": "firer", "label": "Firer", "kind": "text", "value": "",
     "help": "the firing unit, as its counter is named (or its piece id); the units of the selected stack are offered"},
    {"key": "target", "label": "Target (Location or AFV)", "kind": "text", "value": "",
     "help": "the target Location (E3, G4.1), or the AFV attacked: its counter's name or piece id"},
    {"key": "phase", "label": "Phase", "kind": "choice", "value": "PFPh", "choices": PHASES,
     "help": "the phase the attack is made in; filled from VASL's Phase Track"},
    {"key": "leader", "label": "Directing leader DRM", "kind": "text", "value": "0", "help": "e.g. -1 (A7.53)"},
    {"key": "cx", "label": "Firer CX", "kind": "bool", "value": False, "help": "A4.51; read from a CX counter"},
    {"key": "ift_result", "label": "IFT result read", "kind": "text", "value": "",
     "help": "the IFT result at the column and Final DR (e.g. 1MC, K/1, KIA); empty: none said"},
    {"key": "original_ift_result", "label": "IFT result of the Original DR", "kind": "text", "value": "",
     "help": "the FT fire start keys on an Original K/KIA (B25.12)", "when": {"key": "weapon", "values": ["FT"]}},
    {"key": "afv", "label": "Target is an AFV", "kind": "bool", "value": False,
     "help": "the FT/MOL attacks an AFV (A22.34, A22.612): To Kill DR instead of the IFT"},
    {"key": "predesignated", "label": "AFV predesignated", "kind": "bool", "value": False,
     "help": "A22.34, A22.612", "when": {"key": "afv", "values": ["true"]}},
    {"key": "basic_tk", "label": "Basic TK# vs the AFV", "kind": "text", "value": "",
     "help": "from the C7.34 HE & Flame To Kill Table", "when": {"key": "afv", "values": ["true"]}},
)


@dataclass(frozen=True)
class Defaults:
    """What the game says before the dialog opens: the weapon (FT when the selected stack holds one), the units of
    the selected stack by their counters' names (label → piece id), the phase VASL's Phase Track shows."""

    weapon: str | None = None
    firers: Mapping[str, str] = field(default_factory=dict)
    phase: str | None = None


def unit_labels(pieces: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Each piece's label as its counter names it; the id is added only to tell two of one name apart.

    >>> unit_labels([{"id": "1", "name": "4-6-7"}, {"id": "2", "name": "8-3-8"}, {"id": "3", "name": "4-6-7"}])
    {'4-6-7 [1]': '1', '8-3-8': '2', '4-6-7 [3]': '3'}
    """
    names = Counter(str(p.get("name") or p.get("id")) for p in pieces)
    out: dict[str, str] = {}
    for p in pieces:
        name = str(p.get("name") or p.get("id"))
        out[f"{name} [{p['id']}]" if names[name] > 1 else name] = str(p["id"])
    return out


def form_spec(firer: str | None, defaults: Defaults | None = None) -> str:
    """The dialog's description for the extension (JSON): the firer, weapon and phase filled from the game."""
    d = defaults or Defaults()
    fields = []
    for f in FIELDS:
        f = dict(f)
        if f["key"] == "firer":
            if d.firers:
                f.update(kind="choice", choices=list(d.firers), value=next(iter(d.firers)))
            elif firer:
                f["value"] = firer
        elif f["key"] == "weapon" and d.weapon:
            f["value"] = d.weapon
        elif f["key"] == "phase" and d.phase in PHASES:
            f["value"] = d.phase
        fields.append(f)
    return json.dumps({"title": "ASL fire bridge: FT/MOL attack (A22)", "ok": "Attack", "fields": fields})


def read_defaults(snapshot: Mapping[str, Any], selected: Sequence[str], catalogue: Any) -> Defaults:
    """The dialog's defaults from the game: the selected pieces' stack (its units, a FT in it) and the Phase Track.

    A selected FT or MOL counter stands for the unit using it; a unit of the stack that is not selected is still
    offered (after the selected ones).
    """
    from .clock import phase_track

    try:
        track = phase_track(snapshot)
    except BadInput:
        track = None
    phase = track.phase.value if track is not None else None
    chosen = [p for pid in selected for p in snapshot.get("pieces") or () if str(p.get("id")) == pid]
    if not chosen:
        return Defaults(phase=phase)
    stack = stack_of(snapshot, chosen[0])
    weapon = "FT" if any(is_ft_counter(p) for p in stack) else None
    units: list[Mapping[str, Any]] = []
    for p in [*chosen, *stack]:
        if p in units or is_ft_counter(p):
            continue
        try:
            unit_type(p, catalogue)
        except BadInput:
            continue
        units.append(p)
    return Defaults(weapon, unit_labels(units), phase)


def _int(answers: Mapping[str, Any], key: str, label: str) -> int | None:
    text = str(answers.get(key) or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise BadInput(f"the dialog's {label}: {text!r} is not a whole number") from None


def request_from_answers(answers: Mapping[str, Any]) -> AttackRequest:
    """The declaration the dialog's answers make (the same :class:`AttackRequest` as ``asl-fire bridge attack``'s
    options).

    >>> r = request_from_answers({"weapon": "MOL", "firer": "sq-1", "target": "E3", "phase": "PFPh", "cx": True})
    >>> r.weapon, r.firer, r.target, r.phase.value, dict(r.options)
    ('mol', 'sq-1', 'E3', 'PFPh', {'cx': True, 'available': True})
    """
    weapon = str(answers.get("weapon") or "").strip().lower()
    target = str(answers.get("target") or "").strip()
    if not target:
        raise BadInput("the dialog's target is empty: give a Location (E3) or the AFV's piece id; nothing rolled")
    try:
        phase = Phase.from_name(str(answers.get("phase") or "PFPh"))
    except ValueError as e:
        raise BadInput(f"the dialog's phase: {e}") from None
    opts: dict[str, Any] = {}
    if answers.get("cx") is True:
        opts["cx"] = True
    leader = _int(answers, "leader", "directing leader DRM")
    if leader:
        opts["leader_drm"] = leader
    if answers.get("predesignated") is True:
        opts["predesignated"] = True
    tk = _int(answers, "basic_tk", "Basic TK#")
    if tk is not None:
        opts["basic_tk"] = tk
    original = str(answers.get("original_ift_result") or "").strip() or None
    if weapon == "mol":
        opts["available"] = True
        if original is not None:
            raise BadInput("the dialog's IFT result of the Original DR is a FT option (B25.12), not for a MOL "
                           "attack; nothing rolled")
    firer = str(answers.get("firer") or "").strip() or None
    return AttackRequest(weapon, firer, target, phase, opts, str(answers.get("ift_result") or "").strip() or None,
                         None, original)


def _target(snapshot: Mapping[str, Any], target: str) -> str:
    """The target as the attack reads it: a Location as typed, an AFV named as its counter is (unique) as its id."""
    named = [p for p in snapshot.get("pieces") or () if str(p.get("name") or "").strip() == target]
    ids = {str(p.get("id")) for p in snapshot.get("pieces") or ()}
    if len(named) == 1 and target not in ids:
        return str(named[0]["id"])
    return target


def attack_button(client: BridgeClient, *, vasl: VaslSetup | None = None) -> str:
    """The FT/MOL attack button: the dialog, filled from the game (the selected stack's units by their counters'
    names, FT when it holds one, the Phase Track's phase), then the attack as one command; returns the line shown to
    this player ("" when the attack's own chat says it all, or the player cancelled)."""
    from .hob import _catalogue

    selected = json.loads(str(client.api.selection()))
    selected = [str(x) for x in selected] if isinstance(selected, list) else []
    snap = client.snapshot(with_terrain=False)
    try:
        defaults = read_defaults(snap, selected, _catalogue(client))
    except BadInput:
        defaults = Defaults()
    answers = client.ask_form(form_spec(selected[0] if len(selected) == 1 else None, defaults))
    if answers is None:
        return "ASL fire bridge: FT/MOL attack cancelled; nothing rolled"
    firer = str(answers.get("firer") or "").strip()
    answers = dict(answers, firer=defaults.firers.get(firer, firer))
    answers["target"] = _target(snap, str(answers.get("target") or "").strip())
    if answers.get("afv") is True and answers["target"] not in {str(p.get("id")) for p in snap.get("pieces") or ()}:
        raise BadInput(f"the dialog's target {answers['target']!r}: \"Target is an AFV\" is checked, so give the AFV's "
                       "counter name or piece id; nothing rolled")
    request = request_from_answers(answers)
    if request.firer is None:
        from .hob import selected_piece

        request = replace(request, firer=selected_piece(client, what="the firing unit"))
    run_attack(client, request, vasl=vasl)
    return ""
