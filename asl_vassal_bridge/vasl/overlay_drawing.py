"""The overlays as VASL draws them on a board (the last step of :mod:`.overlay`): each placed picture, for the
board art, and the hexes under an overlay's art."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .board import VaslBoard
from .overlay_placement import OverlayArchive, PlacedOverlay, find_overlay_archive, place_overlay
from .safe import VaslFileError

__all__ = ["covered_hexes", "overlay_art"]


def overlay_art(board: VaslBoard, overlays: Sequence[Any], dirs: Iterable[Path | str]) -> list[PlacedOverlay]:
    """The overlays VASL draws on *board* (every one it can place, applied to the terrain or not), for pictures."""
    out: list[PlacedOverlay] = []
    for o in overlays:
        path = find_overlay_archive(tuple(dirs), str(o.name)) if o.name else None
        if path is None:
            continue
        try:
            out.append(place_overlay(board, str(o.name), str(o.hex1), str(o.hex2 or o.hex1),
                                     OverlayArchive.read(path)))
        except VaslFileError:
            continue
    return out


def covered_hexes(board: VaslBoard, placed: PlacedOverlay) -> list[str]:
    """The hexes of *board* whose centre point lies under an opaque pixel of *placed*'s picture."""
    out = []
    for h in board.hexes.values():
        u, v = int(h.x) - placed.x, int(h.y) - placed.y
        if 0 <= u < placed.width and 0 <= v < placed.height and placed.rgba[v, u, 3] > 0:
            out.append(h.name)
    return out
