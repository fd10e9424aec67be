"""The FT/MOL attack button (A22): a small VASSAL dialog asks the declaration, then :func:`~.attacks.run_attack`
rolls with VASSAL's dice and places every consequence as one command (one Undo), as ``asl-fire bridge attack``.

The dialog's fields are the declaration's (weapon, firer, target, phase) and the options the rules ask for
that the counters cannot show (a directing leader, CX, the IFT result read, an AFV's predesignation and Basic
TK#); the extension only shows them (``BridgeApi.askForm``) and sends the answers back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.errors import BadInput
from ..core.position import Phase
from ..core.values import replace
from ..vasl.setup import VaslSetup
from .attacks import AttackRequest, run_attack
from .client import BridgeClient

__all__ = ["FIELDS", "attack_button", "form_spec", "request_from_answers"]

#: The dialog's fields: key, label, kind ("text", "choice", "bool"), default, choices, help (with the rule).
FIELDS: tuple[dict[str, Any], ...] = (
    {"key": "weapon", "label": "Weapon", "kind": "choice", "value": "MOL", "choices": ["FT", "MOL"],
     "help": "FT (A22.1-.5) or Molotov Cocktail (A22.6-.62)"},
    {"key": "firer", "label": "Firer (piece id)", "kind": "text", "value": "",
     "help": "the firing unit, or its FT counter; filled with the unit selected on the map"},
    {"key": "target", "label": "Target (Location or AFV id)", "kind": "text", "value": "",
     "help": "the target Location (E3, G4.1) or the id of the AFV attacked"},
    {"key": "phase", "label": "Phase", "kind": "choice", "value": "PFPh",
     "choices": ["PFPh", "MPh", "DFPh", "AFPh", "CCPh"]},
    {"key": "leader", "label": "Directing leader DRM", "kind": "text", "value": "0", "help": "e.g. -1 (A7.53)"},
    {"key": "cx", "label": "Firer CX", "kind": "bool", "value": False, "help": "A4.51; read from a CX counter"},
    {"key": "ift_result", "label": "IFT result read", "kind": "text", "value": "",
     "help": "the IFT result at the column and Final DR (e.g. 1MC, K/1, KIA); empty: none said"},
    {"key": "original_ift_result", "label": "FT: IFT result of the Original DR", "kind": "text", "value": "",
     "help": "the FT fire start keys on an Original K/KIA (B25.12)"},
    {"key": "predesignated", "label": "AFV predesignated", "kind": "bool", "value": False,
     "help": "A22.34, A22.612"},
    {"key": "basic_tk", "label": "Basic TK# vs an AFV", "kind": "text", "value": "",
     "help": "from the C7.34 HE & Flame To Kill Table"},
)


def form_spec(firer: str | None) -> str:
    """The dialog's description for the extension (JSON), the firer filled in when one is selected."""
    fields = [dict(f, value=firer) if f["key"] == "firer" and firer else dict(f) for f in FIELDS]
    return json.dumps({"title": "ASL fire bridge: FT/MOL attack (A22)", "ok": "Attack", "fields": fields})


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


def attack_button(client: BridgeClient, *, vasl: VaslSetup | None = None) -> str:
    """The FT/MOL attack button: the dialog (firer filled with the selected unit), then the attack as one command;
    returns the line shown to this player ("" when the attack's own chat says it all, or the player cancelled)."""
    from .hob import selected_piece

    try:
        firer: str | None = selected_piece(client, what="the firing unit")
    except BadInput:
        firer = None
    raw = client.api.askForm(form_spec(firer))
    if raw is None:
        return "ASL fire bridge: FT/MOL attack cancelled; nothing rolled"
    request = request_from_answers(json.loads(str(raw)))
    if request.firer is None:
        request = replace(request, firer=selected_piece(client, what="the firing unit"))
    run_attack(client, request, vasl=vasl)
    return ""
