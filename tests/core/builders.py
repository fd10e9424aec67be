"""Small, readable builders for core test positions."""

from __future__ import annotations

from collections.abc import Iterable

from asl_vassal_bridge.core import (
    EC,
    Building,
    BuildingKind,
    Clock,
    Direction,
    Environment,
    Fire,
    FireKind,
    GameMap,
    Hex,
    HexInfo,
    Location,
    Material,
    Phase,
    Position,
    Terrain,
    Wind,
    WindForce,
    Wreck,
)
from asl_vassal_bridge.core.hexes import column_index

NOW = Clock(3, 1, Phase.AFPH)  # player turn 5


def H(name: str) -> Hex:
    return Hex.parse(name)


def L(name: str) -> Location:
    return Location.parse(name)


def grid(cols: str = "A-J", rows: str = "1-10") -> dict[Hex, HexInfo]:
    c1, c2 = (column_index(c) for c in cols.split("-"))
    r1, r2 = (int(r) for r in rows.split("-"))
    return {Hex.from_offset(c, r): HexInfo() for c in range(c1, c2 + 1) for r in range(r1, r2 + 1)}


def put(hexes: dict[Hex, HexInfo], terrain: Terrain, names: Iterable[str], *, feature: str | None = None,
        elevation: int | None = None) -> None:
    for n in names:
        h = H(n)
        old = hexes[h]
        hexes[h] = HexInfo(terrain, old.elevation if elevation is None else elevation, old.building, old.stairwell,
                           feature, old.road)


def building(hexes: dict[Hex, HexInfo], bid: str, material: Material, names: Iterable[str],
             kind: BuildingKind = BuildingKind.SINGLE_STORY, **kw: object) -> Building:
    b = Building(bid, material, kind, **kw)  # type: ignore[arg-type]
    for n in names:
        h = H(n)
        old = hexes[h]
        hexes[h] = HexInfo(b.terrain, old.elevation, bid, old.stairwell, None, old.road)
    return b


def mild(d: int, ec: EC = EC.MODERATE) -> Environment:
    return Environment(ec, Wind(WindForce.MILD_BREEZE, Direction(d)))


def heavy(d: int, ec: EC = EC.MODERATE) -> Environment:
    return Environment(ec, Wind(WindForce.HEAVY_WINDS, Direction(d)))


def blaze(name: str, since: int = 1, kindled_by: str | None = None) -> Fire:
    return Fire(L(name), FireKind.BLAZE, since, kindled_by=kindled_by)


def flame(name: str, since: int = 1, hampered: bool = False) -> Fire:
    return Fire(L(name), FireKind.FLAME, since, hampered)


def pos(hexes: dict[Hex, HexInfo], buildings: Iterable[Building] = (), fires: Iterable[Fire] = (),
        env: Environment = Environment(), wrecks: Iterable[Wreck] = (), clock: Clock = NOW) -> Position:
    return Position(GameMap.from_hexes(hexes, buildings), env, clock, tuple(fires), tuple(wrecks),
                    sides=("German", "Russian"))
