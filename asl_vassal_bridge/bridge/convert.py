"""The bridge's snapshot reading and batch under their former module name, for importers outside the bridge.

The press is now one module per step (see ``docs/bridge.md``): :mod:`.snapshot` (maps, boards, terrain),
:mod:`.clock`, :mod:`.position`, :mod:`.rules`, :mod:`.batch` (with :mod:`.marking`) and :mod:`.report`.
"""

from __future__ import annotations

from .batch import batch_for
from .clock import counted_phase_key, game_clock, phase_track
from .position import LAYERS_FOR, LiveGame, position_from_snapshot
from .rules import explain_rolls
from .snapshot import (
    GridLayout,
    NoTerrain,
    board_entries,
    board_hex,
    fallback_notes,
    game_map_from_boards,
    game_map_from_snapshot,
    known_terrain,
    map_layout,
    model_error,
    piece_hex,
    warn_once,
)

__all__ = ["LAYERS_FOR", "GridLayout", "LiveGame", "NoTerrain", "batch_for", "board_entries", "board_hex",
           "counted_phase_key", "explain_rolls", "fallback_notes", "game_clock", "game_map_from_boards",
           "game_map_from_snapshot", "known_terrain", "map_layout", "model_error", "phase_track", "piece_hex",
           "position_from_snapshot", "warn_once"]
