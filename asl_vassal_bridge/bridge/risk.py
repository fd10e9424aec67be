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
from ..core.position import GameMap, Location, Phase, Position
from .position import LiveGame, position_from_snapshot, press_snapshot
from .report import roll_source
from .snapshot import board_hex

if TYPE_CHECKING:
    from ..vasl.setup import VaslSetup
    from .client import BridgeClient

__all__ = ["EVENT", "forecast_layer", "risk_layer", "show_risk"]

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


def _level_mark(loc: Location) -> str:
    """Where in its hex a Location is, for a label: "" on the ground, "L1 " up one level, "Roof ", "Cellar "."""
    if loc.rooftop:
        return "Roof "
    if loc.level < 0:
        return "Cellar "
    return f"L{loc.level} " if loc.level else ""


def _shade(live: LiveGame, h: Hex, chance: float, label: str, tip: Sequence[str]) -> dict[str, Any]:
    """One hex's shade, its hex named as VASSAL places a counter there (the board and its own hex name)."""
    pos = live.position
    shade: dict[str, Any] = {"hex": pos.map.hex_name(h), "chance": chance, "label": label, "tip": "\n".join(tip)}
    on = board_hex(pos.map.layout, h)
    if on is not None:
        shade["board"], shade["hex"] = on
    if live.map_name:
        shade["map"] = live.map_name
    return shade


def _watch(live: LiveGame) -> list[str]:
    return sorted(live.kinds) if live.kinds is not None else []


def risk_layer(live: LiveGame) -> dict[str, Any]:
    """What the extension draws: a shade per hex, its chance the highest of its Locations' rolls (B25.6).

    Each shade has its label (the chance; "→B" before a Flame→Blaze chance, the level of an upper Location) and a
    tooltip with every roll of the hex and its DRMs, as Fire odds prints them.
    """
    pos = live.position
    by_hex: dict[Hex, list[PendingRoll]] = {}
    for r in pending_rolls(pos):
        if r.chance > 0:
            by_hex.setdefault(r.location.hex, []).append(r)
    shades = []
    for h, rolls in sorted(by_hex.items(), key=lambda kv: pos.map.hex_name(kv[0])):
        top = max(rolls, key=lambda r: (r.chance, r.kind != "blaze"))
        label = ("→B " if top.kind == "blaze" else "") + _level_mark(top.location) + _pct(top.chance)
        tip = [f"{pos.map.hex_name(h)}: at the end of this AFPh (B25.6)"] + [_line(pos, r) for r in rolls]
        shades.append(_shade(live, h, float(top.chance), label, tip))
    return {"title": f"Fire risk at the end of the AFPh, {len(shades)} hexes (B25.6)", "watch": _watch(live),
            "shades": shades}


def forecast_layer(live: LiveGame, turns: int, trials: int) -> dict[str, Any]:
    """The forecast mode: each hex by the highest chance of its Locations not burning now to be burning (Flame or
    Blaze) after *turns* Player Turns, from *trials* trajectories (B25.151, B25.6–.66; the same seed each time, so
    the shading stays still while nothing changes)."""
    from ..core.forecast import forecast

    pos = live.position
    fc = forecast(pos, turns, trials, seed=0)
    now = {f.location for f in pos.fires}
    by_hex: dict[Hex, list[tuple[Location, float, float]]] = {}
    for loc, (p, se) in fc.as_dict().items():
        if loc not in now:
            by_hex.setdefault(loc.hex, []).append((loc, p, se))
    shades = []
    for h, locs in sorted(by_hex.items(), key=lambda kv: pos.map.hex_name(kv[0])):
        loc, p, _se = max(locs, key=lambda x: x[1])
        tip = [f"{pos.map.hex_name(h)}: burning after {turns} Player Turn{'s' if turns != 1 else ''} "
               f"(forecast of {trials:,} trials; B25.151, B25.6–.66)"]
        tip += [f"{pos.loc_name(q)}: {pq:.0%} (± {sq:.1%})" for q, pq, sq in sorted(locs, key=lambda x: -x[1])]
        shades.append(_shade(live, h, p, _level_mark(loc) + f"{p * 100:.0f}%", tip))
    return {"title": f"Fire risk: burning after {turns} Player Turn{'s' if turns != 1 else ''}, {len(shades)} hexes "
                     f"({trials:,} trials)", "watch": _watch(live), "shades": shades}


def _mode(client: BridgeClient) -> Mapping[str, Any]:
    """The layer's mode from the extension's preferences (this AFPh's odds, or a forecast of N Player Turns)."""
    from py4j.protocol import Py4JError

    try:
        mode = json.loads(str(client.api.riskMode()))
    except (Py4JError, ValueError):  # an extension without the preference: this AFPh's odds
        return {"mode": "afph"}
    return mode if isinstance(mode, dict) else {"mode": "afph"}


def show_risk(client: BridgeClient, *, game_map: GameMap | None = None, vasl: VaslSetup | None = None) -> str:
    """The layer's numbers for the game as it is now, sent to the extension; a refusal is said in its legend."""
    try:
        snap = press_snapshot(client, game_map)
        # units beyond a fire's neighbours change no Spreading Fire DR (B25.6): not read
        live = position_from_snapshot(snap, game_map=game_map, phase=Phase.AFPH, vasl=vasl, units_near_fires=True)
        mode = _mode(client)
        layer = (forecast_layer(live, int(mode["turns"]), int(mode["trials"])) if mode.get("mode") == "forecast"
                 else risk_layer(live))
        answer: Mapping[str, Any] = json.loads(str(client.api.setRiskLayer(json.dumps(layer))))
        if not answer.get("ok"):
            client.api.riskLayerFailed(f"refused by the extension: {answer.get('error')}")
    except BadInput as e:
        log.warning("risk layer refused: %s", e)
        client.api.riskLayerFailed(str(e))
    except Exception as e:  # a view: said in its legend and the log, never a lost connection
        log.exception("risk layer failed")
        client.api.riskLayerFailed(f"could not be computed ({type(e).__name__}: {e}); see the bridge's log")
    return ""
