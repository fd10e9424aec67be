"""Step 5 of a press: the batch of counter changes that turns the game's Position into the rules' new one.

Fire counters (upper levels, multi-level Blazes) are marked by :mod:`.marking`; Wind, Wind Dir, Gusts and EC
change their counters' layers.  The extension applies a batch as one command (one Undo).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core.environment import EC, WindForce
from ..core.position import Phase, Position
from ..core.values import replace
from ..vasl.counters import (
    embellishment_layers,
)
from .marking import fire_changes
from .position import LiveGame
from .snapshot import piece_traits

__all__ = ["batch_for"]

_WIND_DIR_LAYERS = (3, 4, 5, 6, 1, 2)  # VASL's Wind Dir faces, layer 1…6 (see vasl.counters)
_FORCES = (WindForce.NO_WIND, WindForce.MILD_BREEZE, WindForce.HEAVY_WINDS)


def _image_matches(image: str, kind: str) -> bool:
    base = image.rsplit("/", 1)[-1].lower().split(".")[0]
    if kind == "wind-dir":
        return base.startswith("wind") and base[4:].isdigit()
    if kind == "wind":
        return base in ("windno", "windmb", "windhw")
    if kind == "gust":
        return base in ("gust", "gustb")
    return base.startswith("ec")


def _layer_change(piece: Mapping[str, Any], kind: str, value: int) -> dict[str, Any] | None:
    for i, lay in enumerate(embellishment_layers(piece_traits(piece))):
        imgs = list(lay.images)
        if imgs and all(_image_matches(im, kind) for im in imgs) and len(imgs) >= value:
            if lay.value == value:
                return None
            return {"id": piece["id"], "index": i, "value": value}
    return None


def _smoke_changes(game: LiveGame, new: Position) -> tuple[list[str], list[tuple[str, int, int]]]:
    """The SMOKE counters to remove and the layer changes (piece, index, value) that show the others' Dispersed
    face, turning the game's SMOKE into *new*'s (B25.651: a Gust disperses SMOKE and eliminates the Dispersed)."""
    if new.smoke == game.position.smoke:
        return [], []
    left = Counter(new.smoke)
    gone: list[str] = []
    changes: list[tuple[str, int, int]] = []
    # a counter that was not Dispersed first: it may have become one of new's Dispersed counters
    for smoke, pid, to_dispersed in sorted(game.smoke_pieces, key=lambda x: x[0].dispersed):
        grey = replace(smoke, dispersed=True)
        if left[smoke] > 0:
            left[smoke] -= 1
        elif not smoke.dispersed and left[grey] > 0:
            left[grey] -= 1
            changes += [(pid, index, value) for index, value in to_dispersed]
        else:
            gone.append(pid)
    return gone, changes


def batch_for(game: LiveGame, new: Position, *, phase_key: str | None, session: int | None,
              roll_texts: Sequence[str], header: Iterable[str] = (), summary: Iterable[str] = ()) -> dict[str, Any]:
    """The batch that turns the game's Position into *new*: removals, placements, layer changes, chat."""
    old = game.position
    expect: dict[str, str] = {}
    remove: list[str] = []
    place: list[dict[str, Any]] = []
    layers: list[dict[str, Any]] = []
    notes: list[str] = []
    fc = fire_changes(game, new)
    remove += fc.remove
    expect.update(fc.expect)
    place += fc.place
    notes += fc.notes
    ow, nw = old.environment.wind, new.environment.wind
    changes: list[tuple[str, str, int]] = []
    if game.wind_piece and nw.force != ow.force:
        changes.append((game.wind_piece, "wind", _FORCES.index(nw.force) + 1))
    if game.wind_dir_piece and nw.direction is not None and nw.direction != ow.direction:
        changes.append((game.wind_dir_piece, "wind-dir", _WIND_DIR_LAYERS.index(int(nw.direction)) + 1))
    if game.gusts_piece and new.environment.gusts != old.environment.gusts:
        changes.append((game.gusts_piece, "gust", 1 if new.environment.gusts else 2))
    if game.ec_piece and new.environment.ec != old.environment.ec:
        order = (EC.SNOW, EC.MUD, EC.WET, EC.MOIST, EC.MODERATE, EC.DRY, EC.VERY_DRY)
        changes.append((game.ec_piece, "ec", order.index(new.environment.ec) + 1))
    for pid, what, value in changes:
        ch = _layer_change(game.pieces[pid], what, value)
        if ch is not None:
            layers.append(ch)
            expect[pid] = str(game.pieces[pid]["rev"])
    gone, dispersed = _smoke_changes(game, new)
    for pid in gone:
        remove.append(pid)
        expect[pid] = str(game.pieces[pid]["rev"])
    for pid, index, value in dispersed:
        layers.append({"id": pid, "index": index, "value": value})
        expect[pid] = str(game.pieces[pid]["rev"])
    if new.clock.phase is Phase.RPH and new.environment.gusts:
        notes += [f"* {what}: VASL's counter has no Dispersed face the bridge knows: apply the Gust to it by hand "
                  "(B25.651: Dispersed SMOKE eliminated, other SMOKE dispersed)"
                  for what in game.smoke_by_hand.values()]
    batch: dict[str, Any] = {
        "phase": phase_key,
        "session": session,
        "expect": expect,
        "chat": list(header),
        "rolls": [{"text": t} for t in roll_texts],
        "remove": remove,
        "place": place,
        "layers": layers,
        "summary": list(summary) + notes,
    }
    return batch


