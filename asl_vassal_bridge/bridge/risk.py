"""The Fire risk layer on VASL's map: each hex that may catch fire at the end of this AFPh, by its exact chance.

The numbers are Fire odds' (:func:`~asl_vassal_bridge.core.fire.pending_rolls`, B25.6: each Burnable Location's
best Spreading Fire DR, each Flame's Flame→Blaze DR, the Gusts' spreads); the extension draws them on this player's
map only (``RiskLayer.java``: no Command, nothing sent or logged) and asks again whenever the counters change.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.errors import BadInput
from ..core.fire import PendingRoll, pending_rolls
from ..core.hexes import Hex
from ..core.position import GameMap, Phase, Position
from .position import LiveGame, position_from_snapshot, press_snapshot
from .report import roll_source
from .snapshot import board_hex

if TYPE_CHECKING:
    from ..vasl.setup import VaslSetup
    from .client import BridgeClient

__all__ = ["EVENT", "risk_layer", "show_risk"]

log = logging.getLogger("asl_fire.bridge")

#: The event the extension sends when the layer is turned on or the counters changed under it.
EVENT = "risk"


def _pct(chance: Fraction) -> str:
    return f"{float(chance) * 100:.0f}%"


def _line(pos: Position, r: PendingRoll) -> str:
    """One roll as Fire odds says it, with its DRMs."""
    what = "Flame→Blaze" if r.kind == "blaze" else f"Spreading Fire from {roll_source(pos, r)}"
    extra = f" ({r.reason})" if r.reason else ""
    why = f" — {r.check.describe()}" if r.check is not None else ""
    return f"{pos.loc_name(r.location)}: {what} {_pct(r.chance)}{extra}{why}"


def risk_layer(live: LiveGame) -> dict[str, Any]:
    """What the extension draws: a shade per hex, its chance the highest of its Locations' rolls (B25.6).

    Each shade names its hex as VASSAL places a counter there (the board and its own hex name), its label (the
    chance; "→B" before a Flame→Blaze chance) and a tooltip with every roll of the hex and its DRMs.
    """
    pos = live.position
    by_hex: dict[Hex, list[PendingRoll]] = {}
    for r in pending_rolls(pos):
        if r.chance > 0:
            by_hex.setdefault(r.location.hex, []).append(r)
    shades = []
    for h, rolls in sorted(by_hex.items(), key=lambda kv: pos.map.hex_name(kv[0])):
        top = max(rolls, key=lambda r: (r.chance, r.kind != "blaze"))
        shade: dict[str, Any] = {"hex": pos.map.hex_name(h), "chance": float(top.chance),
                                 "label": ("→B " if top.kind == "blaze" else "") + _pct(top.chance),
                                 "tip": "\n".join([f"{pos.map.hex_name(h)}: at the end of this AFPh (B25.6)"]
                                                  + [_line(pos, r) for r in rolls])}
        on = board_hex(pos.map.layout, h)
        if on is not None:
            shade["board"], shade["hex"] = on
        if live.map_name:
            shade["map"] = live.map_name
        shades.append(shade)
    watch: Sequence[str] = sorted(live.kinds) if live.kinds is not None else ()
    return {"title": f"Fire risk at the end of the AFPh, {len(shades)} hexes (B25.6)", "watch": list(watch),
            "shades": shades}


def show_risk(client: BridgeClient, *, game_map: GameMap | None = None, vasl: VaslSetup | None = None) -> str:
    """The layer's numbers for the game as it is now, sent to the extension; a refusal is said in its legend."""
    try:
        snap = press_snapshot(client, game_map)
        live = position_from_snapshot(snap, game_map=game_map, phase=Phase.AFPH, vasl=vasl)
        answer: Mapping[str, Any] = json.loads(str(client.api.setRiskLayer(json.dumps(risk_layer(live)))))
        if not answer.get("ok"):
            client.api.riskLayerFailed(f"refused by the extension: {answer.get('error')}")
    except BadInput as e:
        log.warning("risk layer refused: %s", e)
        client.api.riskLayerFailed(str(e))
    return ""
