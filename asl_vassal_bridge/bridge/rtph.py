"""The RtPh button: every unit in a Blaze, what it must do and by when (B25.4), told in the game's chat.

Units come from the live counters (:mod:`asl_vassal_bridge.vasl.units`):
side, broken, pinned, berserk and Melee as the counters show them;
concealed and hidden units never reach the report.  Nothing is moved: the
report goes to both players' chat and the log as one command (one Undo
removes it), with Fire & Victory notes (Control of Locations burning from a
deliberately kindled fire) at the end.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.position import GameMap, Phase
from ..vasl.setup import VaslSetup
from .client import BridgeClient, BridgeRefused
from .gamemodule import CounterData, counter_data
from .position import LAYERS_FOR, position_from_snapshot
from .report import blaze_lines, victory_lines
from .snapshot import known_terrain

__all__ = ["RtphResult", "blaze_lines", "layers_for_units", "run_rtph", "victory_lines"]

log = logging.getLogger("asl_fire.bridge")


def layers_for_units(data: CounterData) -> frozenset[str]:
    """The snapshot's ``layers_for``: the fire counters' and every unit counter's (broken, berserk, type)."""
    return LAYERS_FOR | data.counters.gpids()


@dataclass(frozen=True)
class RtphResult:
    """What the RtPh report said and VASSAL's answer (None if nothing was sent)."""

    lines: tuple[str, ...]
    applied: dict[str, Any] | None
    catalogue: str = ""


def _batch(lines: Iterable[str]) -> dict[str, Any]:
    return {"phase": None, "session": None, "expect": {}, "chat": list(lines), "rolls": [], "remove": [],
            "place": [], "layers": [], "summary": []}


def run_rtph(client: BridgeClient, *, game_map: GameMap | None = None,
             vasl: VaslSetup | None = None) -> RtphResult:
    """Report every unit in a Blaze (B25.4) in the game's chat, as one command.

    :raises BadInput: (or :class:`~.client.BridgeRefused`) with VASSAL's reason; nothing is sent then.
    """
    status = client.status()
    if not status.get("may_change", False):
        raise BridgeRefused(str(status.get("why_not") or "VASSAL does not allow changes now"))
    probe = {"module": {"path": client.module_path}}
    data = counter_data(probe)
    snap = client.snapshot(with_terrain=game_map is None, layers_for=layers_for_units(data),
                           known_terrain=known_terrain())  # unchanged boards' terrain is not sent again
    live = position_from_snapshot(snap, game_map=game_map, phase=Phase.RTPH, vasl=vasl, counters=data)
    pos = live.position
    found = blaze_lines(pos, live)
    told = f"{len(found)} unit{'s' if len(found) != 1 else ''} in a Blaze" if found else "no unit is in a Blaze"
    lines = [f"* ASL fire bridge, units in Blazes ({pos.clock.phase.value}, B25.4): {told}; {len(pos.units)} "
             f"visible units read ({data.source} counters)", *found]
    lines += victory_lines(pos)
    applied = client.apply(_batch(lines))
    log.info("RtPh: %d units in Blazes of %d units (%s)", len(found), len(pos.units), data.description)
    return RtphResult(tuple(lines), applied, data.description)


def rtph_button(client: BridgeClient, **kw: Any) -> str:
    """The RtPh toolbar button; returns the line shown to this player only ("" when all went to the chat)."""
    run_rtph(client, **kw)
    return ""
