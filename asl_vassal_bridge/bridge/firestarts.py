"""HE, WP and hut fire starts in a live VASSAL game: VASSAL's dice → the core's answer → one batch.

The attack itself (an HE shot, an MG burst, WP placed) is resolved by the
players on VASSAL's own tables; what the rules core adds is the Flame it
may start (:mod:`asl_vassal_bridge.core.firestarts`):

* ``he`` — after an HE/HEAT or DC attack with an Original KIA, the B25.13
  fire-start DR (EC DRM unless a building), rolled with VASSAL's dice; vs a
  hut Location an Original colored dr 1 of the attack places the Flame
  (huts);
* ``wp`` — the WP fire DR of the player who placed it, in his MPh (A24.32);
* ``hut`` — an attack vs a hut Location (Small Arms PBF/TPBF, MG, IFE, DC,
  HE) with an Original colored dr 1, or an ordnance SW fired in a hut
  (huts): no die to roll; vs several hut Locations (``at`` = ``B3,B4``) its
  one Flame goes to the one VASSAL's Random Selection drs pick.

A Flame placed is one counter (with VASL's own PIN: it appeared this Player
Turn, B25.15); the chat shows every roll with its DRMs and rule, as ONE
command (one Undo).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.dice import Dice, Roll
from ..core.errors import BadInput
from ..core.explain import Report
from ..core.firestarts import HutAttack, he_fire_start, huts_fire_start, wp_fire_start
from ..core.position import GameMap, Location, Phase, Position
from ..vasl.counters import PLACE_GPIDS, FireCounter
from ..vasl.setup import VaslSetup
from .chat import listing, roll_lines
from .client import BridgeClient, VassalDice
from .position import LiveGame, position_from_snapshot

__all__ = ["FIRE_STARTS", "FireStartRequest", "attack_dr", "fire_start_batch", "resolve_fire_start",
           "run_fire_start"]

log = logging.getLogger("asl_fire.bridge")

#: The fire starts the bridge makes, and the rule of each.
FIRE_STARTS = {"he": "B25.13", "wp": "A24.32", "hut": "huts"}

#: ``--attack`` of a hut fire start → the attack it was.
HUT_ATTACKS = {"small-arms": HutAttack.SMALL_ARMS_PBF_TPBF, "mg": HutAttack.MG, "ife": HutAttack.IFE,
               "dc": HutAttack.DC, "he": HutAttack.HE, "he-equivalency": HutAttack.HE_EQUIVALENCY,
               "collateral": HutAttack.COLLATERAL, "mol": HutAttack.MOL, "sw-in-hut": HutAttack.SW_FIRED_IN_HUT}


def attack_dr(text: str, what: str) -> tuple[int, int] | None:
    """An attack's Original DR typed as its two faces, colored first (``"1,4"``); None for an empty *text*.

    >>> attack_dr("1, 4", "--attack-dr"), attack_dr("", "--attack-dr")
    ((1, 4), None)

    :raises BadInput: naming *what* for anything else (two faces 1–6 expected).
    """
    text = text.replace(" ", "")
    if not text:
        return None
    try:
        colored, white = (int(x) for x in text.split(","))
    except ValueError:
        raise BadInput(f"{what} {text!r}: expected the Original DR's two faces, colored first, e.g. 1,4") from None
    if not (1 <= colored <= 6 and 1 <= white <= 6):
        raise BadInput(f"{what} {text!r}: die faces are 1 to 6")
    return colored, white


@dataclass(frozen=True)
class FireStartRequest:
    """A fire start asked of the live game: *kind* (``he``, ``wp``, ``hut``) in the Location *at* (a hut
    fire start: the hut Locations the attack affected, comma-separated).

    *attack_dr* is the Original DR (colored, white) of the attack the players resolved (huts: its colored
    dr); *original_kia* says the HE attack's Original DR gave a KIA (B25.13); *hut_attack* names the
    attack vs the hut; *options* are the B25.13 exceptions (``collateral``, ``vehicle_target_type``,
    ``created_rubble``, ``he_equivalency``, ``dc``).
    """

    kind: str
    at: str
    phase: Phase | None = None
    attack_dr: tuple[int, int] | None = None
    original_kia: bool = False
    hut_attack: str = "small-arms"
    options: Mapping[str, bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in FIRE_STARTS:
            raise BadInput(f"fire start {self.kind!r}: expected one of {', '.join(FIRE_STARTS)}")
        if self.hut_attack not in HUT_ATTACKS:
            raise BadInput(f"hut attack {self.hut_attack!r}: expected one of {', '.join(sorted(HUT_ATTACKS))}")


def resolve_fire_start(live: LiveGame, request: FireStartRequest, dice: Dice) -> tuple[Position, Report, Location]:
    """The core's fire start on the live Position (B25.13, A24.32, huts).

    :raises BadInput: for a Location not on the map; :class:`~asl_vassal_bridge.core.errors.IllegalAction`
        (a BadInput) with the rule when the rules refuse it (WP outside the MPh, no hut there…).
    """
    pos = live.position
    if request.phase is not None:
        from ..core.values import replace

        pos = replace(pos, clock=replace(pos.clock, phase=request.phase))
    locs = [pos.map.parse_location(a) for a in request.at.split(",")] if request.kind == "hut" else []
    loc = locs[0] if locs else pos.map.parse_location(request.at)
    roll = Roll(*request.attack_dr) if request.attack_dr is not None else None
    if request.kind == "he":
        new, rep = he_fire_start(pos, loc, dice, original_kia=request.original_kia, attack_dr=roll,
                                 **dict(request.options))
    elif request.kind == "wp":
        new, rep = wp_fire_start(pos, Location(loc.hex), dice)
    else:
        new, rep = huts_fire_start(pos, locs, HUT_ATTACKS[request.hut_attack], dice, original=roll)
    return new, rep, loc


def fire_start_batch(live: LiveGame, before: Position, after: Position, report: Report, *, session: int | None,
                     rolls: Sequence[tuple[str, Sequence[int]]], request: FireStartRequest,
                     map_name: str | None = None) -> dict[str, Any]:
    """The ONE batch of a fire start: a Flame counter for each new Flame (on *map_name*, else the live game's
    map), and the chat lines."""
    gpid = PLACE_GPIDS[FireCounter.FLAME]
    if live.counters is not None:
        gpid = live.counters.place_gpid(FireCounter.FLAME)
    place: list[dict[str, Any]] = []
    notes: list[str] = []
    # Flames are counted, not compared as a set: the one a fire start adds may equal one already there (B25.15)
    new = list((Counter(after.flames()) - Counter(before.flames())).elements())
    for f in new:
        entry: dict[str, Any] = {"gpid": gpid, "location": after.map.hex_name(f.location.hex)}
        where = map_name or live.map_name
        if where:
            entry["map"] = where
        place.append(entry)
        if f.location.level != 0 or f.location.rooftop:
            notes.append(f"* Flame placed for {after.loc_name(f.location)}: mark its level with VASL's Level marker")
    done = listing("Flame", [after.loc_name(f.location) for f in new], "Flames") or "no Flame"
    header = [f"* ASL fire bridge, {report.title} ({FIRE_STARTS[request.kind]}): {done}"]
    summary = [f"* {e.describe()}" for e in report.events if e.roll is None]
    # a roll no check explains (the Random Selection of a hut Flame) is shown with its purpose
    texts = roll_lines(rolls, report)
    return {"phase": None, "session": session, "expect": {}, "chat": header,
            "rolls": [{"text": t} for t in texts], "remove": [], "place": place, "layers": [],
            "summary": summary + notes}


@dataclass(frozen=True)
class FireStartResult:
    """What a fire start did: the report, the batch sent and VASSAL's answer."""

    report: Report
    batch: dict[str, Any]
    applied: dict[str, Any]


def run_fire_start(client: BridgeClient, request: FireStartRequest, *, game_map: GameMap | None = None,
                   vasl: VaslSetup | None = None) -> FireStartResult:
    """Roll a fire start with VASSAL's dice and place its Flame as ONE command (B25.13, A24.32, huts).

    :raises BadInput: (or :class:`~.client.BridgeRefused`) with the reason; nothing is changed then.
    """
    snap = client.snapshot(with_terrain=game_map is None)
    if not (snap.get("game") or {}).get("may_change", False):
        from .client import BridgeRefused

        raise BridgeRefused(str((snap.get("game") or {}).get("why_not") or "VASSAL does not allow changes now"))
    live = position_from_snapshot(snap, game_map=game_map, phase=request.phase or Phase.MPH, vasl=vasl)
    dice = VassalDice(client)
    after, report, _loc = resolve_fire_start(live, request, dice)
    maps = snap.get("maps") or []
    map_name = live.map_name or (str(maps[0].get("name")) if len(maps) == 1 and maps[0].get("name") else None)
    batch = fire_start_batch(live, live.position, after, report, session=dice.session, rolls=dice.rolled,
                             request=request, map_name=map_name)
    applied = client.apply(batch)
    log.info("%s fire start in %s: %d rolls, %d placed", request.kind.upper(), request.at, len(dice.rolled),
             len(applied.get("placed", [])))
    return FireStartResult(report, batch, applied)
