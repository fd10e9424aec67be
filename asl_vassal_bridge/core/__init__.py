"""The ASL fire rules core: pure functions on immutable values, no I/O.

Modules, one concern each: :mod:`.hexes` (Hex, Direction, names),
:mod:`.terrain` (Kindle/Spread #, buildings), :mod:`.environment` (EC,
wind), :mod:`.position` (Location, GameMap, fires, clock), :mod:`.dice`,
:mod:`.explain` (DRMs, checks, reports), :mod:`.fire` (Flame→Blaze,
Spreading Fire), :mod:`.wind` (Wind Change, Gusts, Collapse),
:mod:`.firestarts`, :mod:`.clearance`, :mod:`.smoke`, :mod:`.exits`,
:mod:`.victory`, :mod:`.flamethrower` and :mod:`.molotov` (A22 attacks),
:mod:`.heat_of_battle` and :mod:`.units` (A15), :mod:`.forecast` (Monte Carlo),
:mod:`.turn` (the phases as played: the clock moved on, an AFPh already past refused).

The package's ``rally_phase``, ``end_of_afph`` and ``pending_rolls`` are :mod:`.turn`'s, which
``asl-fire`` runs too; the rules' steps of the same names in :mod:`.wind` and :mod:`.fire` leave the
clock alone.

>>> from asl_vassal_bridge.core import Hex, Direction
>>> Hex.parse("M4") + Direction.DOWN
Hex(q=12, r=-1)
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .clearance import clearance_attempt, clearance_check
    from .dice import CallbackDice, Dice, Roll, ScriptedDice, SeededDice
    from .environment import EC, Environment, Ground, Wind, WindForce, wind_direction_drm
    from .errors import BadInput, IllegalAction
    from .exits import blaze_fates, blaze_report
    from .explain import DRM, Check, CheckResult, Event, Report
    from .fire import (
        PendingRoll,
        SpreadCheck,
        directly_attached,
        flame_to_blaze,
        pending_spreads,
        spread_fire,
    )
    from .firestarts import (
        ft_fire_check,
        he_fire_check,
        hut_flame,
        kindling_attempt,
        kindling_check,
        mol_flames,
        place_flame,
        wp_fire_check,
        wreck_blaze,
    )
    from .flamethrower import AttackOutcome, ConsequenceKind, FtAttack, ft_attack, resolve_ft_attack
    from .hexes import BoardPlacement, Direction, Hex, HexNameError, Hexside, MapLayout
    from .molotov import MolAttack, location_tem, mol_attack, resolve_mol_attack
    from .position import (
        Clock,
        Fire,
        FireKind,
        GameMap,
        HexInfo,
        Location,
        OffBoardError,
        Phase,
        Position,
        Unit,
        UnitKind,
        Wreck,
    )
    from .smoke import fire_smoke
    from .terrain import Building, BuildingKind, Material, Terrain, UnknownTerrainError
    from .turn import end_of_afph, pending_rolls, rally_phase
    from .victory import fire_control

#: Where each name of :data:`__all__` lives.  The modules are imported when a name is first used
#: (PEP 562), so that ``asl-fire odds`` does not pay for the A22/A15 modules it does not need.
_WHERE = {
    "AttackOutcome": "flamethrower",
    "BadInput": "errors",
    "BoardPlacement": "hexes",
    "Building": "terrain",
    "BuildingKind": "terrain",
    "CallbackDice": "dice",
    "Check": "explain",
    "CheckResult": "explain",
    "Clock": "position",
    "ConsequenceKind": "flamethrower",
    "DRM": "explain",
    "Dice": "dice",
    "Direction": "hexes",
    "EC": "environment",
    "Environment": "environment",
    "Event": "explain",
    "Fire": "position",
    "FireKind": "position",
    "FtAttack": "flamethrower",
    "GameMap": "position",
    "Ground": "environment",
    "Hex": "hexes",
    "HexInfo": "position",
    "HexNameError": "hexes",
    "Hexside": "hexes",
    "IllegalAction": "errors",
    "Location": "position",
    "MapLayout": "hexes",
    "Material": "terrain",
    "MolAttack": "molotov",
    "OffBoardError": "position",
    "PendingRoll": "fire",
    "Phase": "position",
    "Position": "position",
    "Report": "explain",
    "Roll": "dice",
    "ScriptedDice": "dice",
    "SeededDice": "dice",
    "SpreadCheck": "fire",
    "Terrain": "terrain",
    "Unit": "position",
    "UnitKind": "position",
    "UnknownTerrainError": "terrain",
    "Wind": "environment",
    "WindForce": "environment",
    "Wreck": "position",
    "blaze_fates": "exits",
    "blaze_report": "exits",
    "clearance_attempt": "clearance",
    "clearance_check": "clearance",
    "directly_attached": "fire",
    "end_of_afph": "turn",
    "fire_control": "victory",
    "fire_smoke": "smoke",
    "flame_to_blaze": "fire",
    "ft_attack": "flamethrower",
    "ft_fire_check": "firestarts",
    "he_fire_check": "firestarts",
    "hut_flame": "firestarts",
    "kindling_attempt": "firestarts",
    "kindling_check": "firestarts",
    "location_tem": "molotov",
    "mol_attack": "molotov",
    "mol_flames": "firestarts",
    "pending_rolls": "turn",
    "pending_spreads": "fire",
    "place_flame": "firestarts",
    "rally_phase": "turn",
    "resolve_ft_attack": "flamethrower",
    "resolve_mol_attack": "molotov",
    "spread_fire": "fire",
    "wind_direction_drm": "environment",
    "wp_fire_check": "firestarts",
    "wreck_blaze": "firestarts",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


__all__ = [
    "DRM",
    "EC",
    "AttackOutcome",
    "BadInput",
    "BoardPlacement",
    "Building",
    "BuildingKind",
    "CallbackDice",
    "Check",
    "CheckResult",
    "Clock",
    "ConsequenceKind",
    "Dice",
    "Direction",
    "Environment",
    "Event",
    "Fire",
    "FireKind",
    "FtAttack",
    "GameMap",
    "Ground",
    "Hex",
    "HexInfo",
    "HexNameError",
    "Hexside",
    "IllegalAction",
    "Location",
    "MapLayout",
    "Material",
    "MolAttack",
    "OffBoardError",
    "PendingRoll",
    "Phase",
    "Position",
    "Report",
    "Roll",
    "ScriptedDice",
    "SeededDice",
    "SpreadCheck",
    "Terrain",
    "Unit",
    "UnitKind",
    "UnknownTerrainError",
    "Wind",
    "WindForce",
    "Wreck",
    "blaze_fates",
    "blaze_report",
    "clearance_attempt",
    "clearance_check",
    "directly_attached",
    "end_of_afph",
    "fire_control",
    "fire_smoke",
    "flame_to_blaze",
    "ft_attack",
    "ft_fire_check",
    "he_fire_check",
    "hut_flame",
    "kindling_attempt",
    "kindling_check",
    "location_tem",
    "mol_attack",
    "mol_flames",
    "pending_rolls",
    "pending_spreads",
    "place_flame",
    "rally_phase",
    "resolve_ft_attack",
    "resolve_mol_attack",
    "spread_fire",
    "wind_direction_drm",
    "wp_fire_check",
    "wreck_blaze",
]
