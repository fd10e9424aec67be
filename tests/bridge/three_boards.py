"""A three-board scenario for the live tests: boards in a 2×2 layout, one reversed, fires on each board.

Reusable: :data:`BOARDS` and :data:`TERRAIN` make the test module (fixture
``three_board_module`` in ``conftest.py``), :func:`fires` the fire counters;
a test adds its own pieces (units, a Level marker…) with
``started_player(…, pieces=fires() + mine, boards=BOARDS)``.

Layout (VASSAL's board picker, column × row)::

    bd01 (0, 0)    bd22 (1, 0) reversed
    bd03 (0, 1)    —

The stand-in terrain of each board (``standin-terrain/<board>.txt``, read
by the ASLMap stand-in as VASL reads LOSData) differs on purpose, so a hex
read from the wrong board shows: Woods in bd01 C3/D3 but nothing in bd22's
or bd03's C3; Woods in bd22 M4/M5 (reversed: they lie bottom-right of the
board's top-left corner on the map); an upper-level building in bd01 G4 and
in bd22 P6; Brush in bd03 B0, the half hex VASL merges into bd01 B10
(Woods on bd01): the lower board's, inserted last, wins, as in VASL.
Roads: a road through woods in bd03 R3 and bd22 X8 (``Dirt Road/Woods``: the
road down the hex's centre, woods drawn around it), a woods hex with a road
through it in bd03 T4, and a plain road in bd03 S3.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from tests.support import vassal_harness as vh

if TYPE_CHECKING:
    from asl_vassal_bridge.bridge.client import BridgeClient

BOARDS = (vh.BoardAt("bd01", 0, 0), vh.BoardAt("bd22", 1, 0, reversed=True), vh.BoardAt("bd03", 0, 1))

TERRAIN = {
    "bd01": "C3\tWoods\nD3\tWoods\nD4\tWoods\nG4\tWooden Building, 1 Level\t0\t1\nB10\tWoods\nH2\tBrush\n",
    "bd22": "M4\tWoods\nM5\tWoods\nN4\tBrush\nP6\tStone Building, 1 Level\t0\t1\nY3\tGrain\t1\n"
            "X8\tDirt Road/Woods\n",
    "bd03": "B0\tBrush\nF5\tWoods\nF6\tWoods\nK2\tOrchard\nR3\tDirt Road/Woods\nS3\tDirt Road\nT4\tWoods/Dirt Road\n",
}

#: Board-qualified names of the hexes with fires: Flames in bd01 C3, bd22 M4, bd03 F5; Blazes in bd01 D3, bd22 M5.
FLAMES = ("bd01C3", "bd22M4", "bd03F5")
BLAZES = ("bd01D3", "bd22M5")


def fires() -> list[vh.GamePiece]:
    """The scenario's fire counters and its EC (Moderate) and Wind (none) counters."""
    out = [vh.GamePiece(f"flame-{n}", n[4:], gpid="192", board=n[:4]) for n in FLAMES]
    out += [vh.GamePiece(f"blaze-{n}", n[4:], gpid="195", board=n[:4]) for n in BLAZES]
    out += [vh.GamePiece("ec", "A10", gpid="284", board="bd03"), vh.GamePiece("wind", "C10", gpid="287", board="bd03")]
    return out


def check_risk_layer_on_the_flames(client: BridgeClient) -> None:
    """The Fire risk layer turned on and off by the toolbar: its numbers are Fire odds', and each Flame's
    Flame→Blaze shade lies on that Flame's counter (the hex's point as VASSAL's grid gives it: reversed and cropped
    boards included; to a pixel, as the test game places counters by its own arithmetic)."""
    from asl_vassal_bridge.bridge.convert import position_from_snapshot
    from asl_vassal_bridge.bridge.phases import handle_button
    from asl_vassal_bridge.bridge.report import odds_lines
    from asl_vassal_bridge.core.position import Phase

    hooks = client.jvm.aslbridgetest.TestHooks
    client.listen(lambda action: handle_button(client, action))
    try:
        assert hooks.clickToolbar("aslfire-risk")
        end = time.time() + 60
        while json.loads(str(client.api.riskLayer()))["updates"] == 0 and time.time() < end:
            time.sleep(0.1)
        shades = json.loads(str(client.api.riskLayer()))["shades"]
        assert hooks.clickToolbar("aslfire-risk")
    finally:
        client.api.clearListener()
    snap = client.snapshot()
    live = position_from_snapshot(snap, phase=Phase.AFPH)
    odds: dict[str, int] = {}
    for line in odds_lines(live.position)[1:]:
        name, rest = line.split(":", 1)
        pct = int(rest.rsplit("%", 1)[0].rsplit(" ", 1)[1]) if "%" in rest else 0
        h = name.split()[-1].split(".")[0]
        odds[h] = max(odds.get(h, 0), pct)
    by_hex = {s["tip"].split(":", 1)[0]: s for s in shades}
    assert {h: round(s["chance"] * 100) for h, s in by_hex.items()} == {h: v for h, v in odds.items() if v > 0}
    flames = {f"{p['board']}{p['hex']}": p for p in snap["pieces"] if p["name"] == "Flame"}
    assert set(flames) == set(FLAMES)
    for name, p in flames.items():
        s = by_hex[name]
        assert s["label"].startswith("→B ") and abs(s["x"] - p["x"]) <= 1 and abs(s["y"] - p["y"]) <= 1, (name, s, p)
