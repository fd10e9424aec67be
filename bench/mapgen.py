"""A generated multi-board map for benchmarks: geomorphic boards with woods, brush, grain, orchards,
hills, roads and buildings (wooden and stone, single and two-story, some multi-hex), and fires.

Deterministic for a seed.  ``ten_board_position()`` is the 10-board map (5 × 2 boards, ~3,300 hexes)
with 100 fires the benchmarks use.
"""

from __future__ import annotations

import random

from asl_vassal_bridge.core import (
    EC,
    BoardPlacement,
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
    MapLayout,
    Material,
    Phase,
    Position,
    Terrain,
    Wind,
    WindForce,
    Wreck,
)

__all__ = ["generated_map", "ten_board_position"]


def _blob(rng: random.Random, start: Hex, size: int, hexes: dict[Hex, HexInfo]) -> list[Hex]:
    out = [start]
    seen = {start}
    while len(out) < size:
        h = rng.choice(out)
        n = h + Direction(rng.randint(1, 6))
        if n in hexes and n not in seen:
            seen.add(n)
            out.append(n)
        elif rng.random() < 0.05:
            break
    return out


def generated_map(boards_x: int = 5, boards_y: int = 2, seed: int = 1) -> GameMap:
    """A map of ``boards_x × boards_y`` generated geomorphic boards."""
    rng = random.Random(seed)
    placements = tuple(BoardPlacement(str(10 + i), x=i % boards_x, y=i // boards_x)
                       for i in range(boards_x * boards_y))
    layout = MapLayout(placements)
    hexes: dict[Hex, HexInfo] = {}
    for b in placements:
        for h in b.hexes():
            hexes[h] = HexInfo()
    keys = sorted(hexes)
    buildings: list[Building] = []
    n_boards = len(placements)
    # Hills first (elevation), then terrain patches on top.
    for _ in range(3 * n_boards):
        level = rng.choice((1, 1, 2))
        for h in _blob(rng, rng.choice(keys), rng.randint(4, 14), hexes):
            hexes[h] = HexInfo(elevation=max(hexes[h].elevation, level))
    patches = [(Terrain.WOODS, 6, (3, 12)), (Terrain.BRUSH, 3, (2, 6)), (Terrain.GRAIN, 3, (3, 8)),
               (Terrain.ORCHARD, 2, (2, 5))]
    fid = 0
    for terrain, per_board, (lo, hi) in patches:
        for _ in range(per_board * n_boards):
            fid += 1
            feature = f"{terrain.name.lower()}-{fid}"
            for h in _blob(rng, rng.choice(keys), rng.randint(lo, hi), hexes):
                old = hexes[h]
                hexes[h] = HexInfo(terrain, old.elevation, None, False, feature, old.road)
    for _ in range(14 * n_boards):
        h = rng.choice(keys)
        if hexes[h].building is not None:
            continue
        material = Material.STONE if rng.random() < 0.4 else Material.WOODEN
        kind = BuildingKind.TWO_STORY if rng.random() < 0.3 else BuildingKind.SINGLE_STORY
        b = Building(f"b{len(buildings) + 1}", material, kind)
        size = 1 if rng.random() < 0.6 else rng.randint(2, 4)
        for bh in _blob(rng, h, size, hexes):
            if hexes[bh].building is None:
                old = hexes[bh]
                hexes[bh] = HexInfo(b.terrain, old.elevation, b.id, False, None, old.road)
        buildings.append(b)
    # A few roads: straight lines along the hex grain.
    for _ in range(n_boards):
        h = rng.choice(keys)
        d = Direction(rng.randint(1, 6))
        while h in hexes:
            old = hexes[h]
            if old.building is None:
                terrain = Terrain.WOODS_ROAD if old.terrain is Terrain.WOODS else old.terrain
                hexes[h] = HexInfo(terrain, old.elevation, None, False, old.feature, True)
            h = h + d
    used = {info.building for info in hexes.values() if info.building is not None}
    return GameMap.from_hexes(hexes, [b for b in buildings if b.id in used], layout, f"generated {n_boards} boards")


def ten_board_position(fires: int = 100, seed: int = 1) -> Position:
    """The benchmark Position: 10 generated boards, *fires* fires (a third Blazes), a Mild Breeze, Dry EC."""
    gm = generated_map(seed=seed)
    rng = random.Random(seed + 1)
    burnable = sorted(loc for loc in gm.all_locations() if gm.is_burnable(loc) and loc.level == 0)
    clock = Clock(2, 1, Phase.RPH)
    chosen = rng.sample(burnable, fires)
    out = [Fire(loc, FireKind.BLAZE if i % 3 == 0 else FireKind.FLAME, since=1) for i, loc in enumerate(chosen)]
    wrecks = tuple(Wreck(Location(loc.hex), True, name=f"wreck {i}", since=1)
                   for i, loc in enumerate(rng.sample(burnable, 3)))
    env = Environment(EC.DRY, Wind(WindForce.MILD_BREEZE, Direction(3)))
    return Position(gm, env, clock, tuple(out), wrecks, name="generated 10-board map, 100 fires")
