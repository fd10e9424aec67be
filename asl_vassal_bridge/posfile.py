"""Position files: a human-writable TOML format, validated against a JSON Schema.

A file describes a map (hexes, terrain depictions, elevations, buildings),
the fires, wrecks, units, wind, EC and the clock.  Hex lists take single
hexes (``E4``) and column ranges (``H2-H5``); Locations add a level
(``E4.1``, ``E4.roof``).  See ``docs/position-files.md`` and the embedded demo
scenario (``asl_vassal_bridge/scenarios/demo.toml``).

One module per step: :mod:`.posfile_hexes` (the format's limits, its error,
hex lists and Locations), :mod:`.posfile_schema` (sizes and the JSON Schema
checked first), this module (the file read into a Position) and
:mod:`.posfile_writing` (a Position written back).  Every name is importable
from here as before.

>>> pos = loads('format = 1\\n[map]\\ncolumns = "A-C"\\nrows = "1-3"\\n'
...             '[[map.terrain]]\\nkind = "woods"\\nhexes = ["B2"]\\n')
>>> pos.map.info(pos.map.parse_hex("B2")).terrain.label
'Woods'
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._files import read_limited
from .core.environment import EC, Environment, Ground, Wind, WindForce
from .core.hexes import BoardPlacement, Direction, Hex, MapLayout
from .core.position import Clock, Fire, FireKind, GameMap, HexInfo, Phase, Position, Smoke, Unit, UnitKind, Wreck
from .core.terrain import Building, BuildingKind, Material, Terrain
from .core.values import replace
from .posfile_hexes import (
    COLLAPSED_HUT,
    MAX_ELEVATION,
    MAX_FILE_BYTES,
    MAX_MAP_HEXES,
    MAX_NAMED_HEXES,
    MAX_NESTING,
    MAX_PIECES,
    MIN_ELEVATION,
    BadPositionFile,
    HexBudget,
    _extent,
    _field,
    _location,
    parse_hex_list,
)
from .posfile_schema import _check_sizes, _schema, _validator, quick_valid
from .posfile_writing import dump, dumps, to_dict

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "COLLAPSED_HUT",
    "MAX_ELEVATION",
    "MAX_FILE_BYTES",
    "MAX_MAP_HEXES",
    "MAX_NAMED_HEXES",
    "MAX_NESTING",
    "MAX_PIECES",
    "MIN_ELEVATION",
    "BadPositionFile",
    "HexBudget",
    "dump",
    "dumps",
    "load",
    "loads",
    "parse_hex_list",
    "quick_valid",
    "to_dict",
]


def _ft_count(u: dict[str, Any], where: str) -> int:
    """A unit's ``ft`` (FT possessed, A22.4): infantry only."""
    ft = int(u.get("ft", 0))
    if ft and not UnitKind(u.get("kind", "squad")).is_infantry:
        raise BadPositionFile(f"{where}.ft: a {u.get('kind', 'squad')} possesses no FT (A22.4: Personnel units)")
    return ft


def _side(name: str, sides: tuple[str, str], where: str) -> str:
    if name not in sides:
        raise BadPositionFile(f"{where}: side {name!r} is not one of the file's sides {list(sides)}")
    return name


def _enum(fn: Any, value: str, where: str) -> Any:
    try:
        return fn(value)
    except (ValueError, KeyError) as e:
        raise BadPositionFile(f"{where}: {e}") from None


def from_dict(data: Mapping[str, Any], source: str = "<position>") -> Position:
    """Build a Position from already-parsed file data (validated against the schema first)."""
    _check_sizes(data, source)
    schema = _schema()
    if not quick_valid(data, schema, schema):
        errors = sorted(_validator(schema).iter_errors(data), key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
            raise BadPositionFile(f"{source}: {_field(e.absolute_path)}: {e.message}{more}")
    src = source
    m = data["map"]
    boards = tuple(BoardPlacement(b["name"], b.get("x", 0), b.get("y", 0), b.get("reversed", False))
                   for b in m.get("boards", ()))
    layout = MapLayout(boards)
    default = _enum(Terrain.from_name, m.get("default", "open-ground"), f"{src}: map.default")
    hexes: dict[Hex, HexInfo] = {h: HexInfo(default) for h in _extent(m, layout, src)}

    named = HexBudget()

    def on_map(hs: list[Hex], where: str) -> list[Hex]:
        for h in hs:
            if h not in hexes:
                raise BadPositionFile(f"{where}: hex {layout.name(h)} is not on the map")
        return hs

    def listed(items: Iterable[str], where: str) -> list[Hex]:
        return on_map(parse_hex_list(items, layout, where, named), where)

    for lv, hs in m.get("elevation", {}).items():
        if not MIN_ELEVATION <= int(lv) <= MAX_ELEVATION:
            raise BadPositionFile(f"{src}: map.elevation.{lv[:20]}: a base elevation is {MIN_ELEVATION} to "
                                  f"{MAX_ELEVATION} levels")
        for h in listed(hs, f"{src}: map.elevation.{lv}"):
            hexes[h] = replace(hexes[h], elevation=int(lv))
    for h in listed(m.get("roads", ()), f"{src}: map.roads"):
        hexes[h] = replace(hexes[h], road=True)
    for i, t in enumerate(m.get("terrain", ())):
        where = f"{src}: map.terrain[{i}]"
        collapsed_hut = t["kind"].strip().lower().replace(" ", "-") == COLLAPSED_HUT
        kind = Terrain.HUT if collapsed_hut else _enum(Terrain.from_name, t["kind"], f"{where}.kind")
        if kind.is_building or (kind is Terrain.HUT and not collapsed_hut):
            raise BadPositionFile(f"{where}.kind: {t['kind']!r} — describe buildings and standing huts under "
                                  f"[[buildings]] (a hut: kind = \"hut\"); a Collapsed hut is map terrain "
                                  f"\"{COLLAPSED_HUT}\"")
        feature = t.get("feature") or (f"{kind.name.lower()}-{i}" if t.get("attached", True) else None)
        for h in listed(t["hexes"], f"{where}.hexes"):
            hexes[h] = replace(hexes[h], terrain=kind, feature=feature)
    buildings: list[Building] = []
    ids: set[str] = set()
    for i, b in enumerate(data.get("buildings", ())):
        where = f"{src}: buildings[{i}]"
        if b["id"] in ids:
            raise BadPositionFile(f"{where}.id: building id {b['id']!r} is used twice")
        ids.add(b["id"])
        kind = BuildingKind(b.get("kind", "single-story"))
        hs = listed(b["hexes"], f"{where}.hexes")
        own = set(hs)
        stairs = set(listed(b.get("stairwells", ()), f"{where}.stairwells"))
        hex_levels = []
        for name, lv in b.get("hex_levels", {}).items():
            hx = listed([name], f"{where}.hex_levels")[0]
            if hx not in own:
                raise BadPositionFile(f"{where}.hex_levels.{name[:20]}: hex {layout.name(hx)} is not a hex of building "
                                      f"{b['id']!r} (its hexes: {', '.join(layout.name(h) for h in hs[:8])}"
                                      f"{' …' if len(hs) > 8 else ''})")
            hex_levels.append((layout.name(hx), int(lv)))
        for h in hs:
            if hexes[h].building is not None:
                raise BadPositionFile(f"{where}.hexes: hex {layout.name(h)} is already in building "
                                      f"{hexes[h].building!r}")
        material = Material(b["material"])
        gone_roofs = listed(b.get("rooftop_gone", ()), f"{where}.rooftop_gone")
        for h in gone_roofs:
            if h not in own:
                raise BadPositionFile(f"{where}.rooftop_gone: hex {layout.name(h)} is not a hex of building "
                                      f"{b['id']!r} (B23.86)")
        building = Building(b["id"], material, kind, b.get("levels"), tuple(hex_levels), b.get("rooftop", False),
                            b.get("rowhouse", False),
                            rooftops_gone=frozenset(layout.name(h) for h in gone_roofs))
        market = listed(b.get("marketplace", ()), f"{where}.marketplace")
        for h in market:
            if h not in own or building.top_level(layout.name(h)) < 1:
                raise BadPositionFile(f"{where}.marketplace: hex {layout.name(h)} must be a hex of building "
                                      f"{b['id']!r} with a Level 1 (B23.73)")
        building = replace(building, marketplace=frozenset(layout.name(h) for h in market))
        for h in hs:
            hexes[h] = replace(hexes[h], terrain=building.terrain, building=b["id"], stairwell=h in stairs)
        buildings.append(building)
    if any(b.get("fortified") or b.get("breaches") for b in data.get("buildings", ())):
        # Fortified Locations and Breaches read on the whole map, made once: which Locations a building has does not
        # depend on them.
        whole = GameMap.from_hexes(hexes, buildings, layout)
        read = []
        for i, (b, building) in enumerate(zip(data["buildings"], buildings, strict=True)):
            if b.get("fortified"):
                building = _fortified(building, b, whole, f"{src}: buildings[{i}]")
            if b.get("breaches"):
                building = _breaches(building, b, whole, f"{src}: buildings[{i}]")
            read.append(building)
        buildings = read
    gm = GameMap.from_hexes(hexes, buildings, layout, m.get("name", ""))
    sides_list = data.get("sides", ["Axis", "Allied"])
    if sides_list[0] == sides_list[1]:
        raise BadPositionFile(f"{src}: sides: the two sides need different names, not {sides_list}")
    sides = (sides_list[0], sides_list[1])
    c = data.get("clock", {})
    clock = Clock(c.get("turn", 1), c.get("half", 1), Phase.from_name(c.get("phase", "RPh")))
    now = clock.player_turn
    e = data.get("environment", {})
    w = e.get("wind", {"force": "no-wind"})
    force = WindForce.from_name(w["force"])
    if force is not WindForce.NO_WIND and "direction" not in w:
        raise BadPositionFile(f"{src}: environment.wind.direction: {force.label} needs a direction 1–6 (B25.64)")
    wind = Wind(force, Direction(w["direction"]) if force is not WindForce.NO_WIND else None)
    env = Environment(EC.from_name(e.get("ec", "moderate")), wind, Ground(e.get("ground", "normal")),
                      e.get("gusts", False), e.get("month"), "ec" in e, "wind" in e, e.get("drift_cleared", False),
                      e.get("rain_has_fallen", False))
    fires: list[Fire] = []
    for i, f in enumerate(data.get("fires", ())):
        where = f"{src}: fires[{i}]"
        loc = _location(f["at"], gm, f"{where}.at")
        if not gm.is_burnable(loc):
            raise BadPositionFile(f"{where}.at: {f['at']} holds {gm.terrain_at(loc).label}, which cannot burn (B25.1)")
        since = f.get("since", now if f.get("new") else now - 1)
        owner, also = _kindlers(f.get("kindled_by"), sides, f"{where}.kindled_by")
        kind = FireKind(f["kind"])
        if kind is FireKind.BLAZE and any(x.location == loc and x.is_blaze for x in fires):
            raise BadPositionFile(f"{where}.at: {f['at']} already has a Blaze")
        fires.append(Fire(loc, kind, since, f.get("hampered", False), owner, also))
    blazes = {x.location for x in fires if x.is_blaze}
    for i, f in enumerate(fires):
        if f.is_flame and f.location in blazes:
            raise BadPositionFile(f"{src}: fires[{i}].at: {gm.hex_name(f.location.hex)} has both a Flame and a "
                                  "Blaze; a Blaze removes the Location's Flames (B25.15)")
    wrecks = []
    for i, w_ in enumerate(data.get("wrecks", ())):
        where = f"{src}: wrecks[{i}]"
        loc = _location(w_["at"], gm, f"{where}.at")
        since = w_.get("since", now if w_.get("new") else now - 1)
        bypass = Direction(w_["bypass"]) if "bypass" in w_ else None
        wrecks.append(Wreck(loc, w_.get("burning", True), bypass, w_.get("name", "Wreck"), since))
    smoke = [Smoke(_location(s_["at"], gm, f"{src}: smoke[{i}].at"), s_.get("wp", False), s_.get("dispersed", False))
             for i, s_ in enumerate(data.get("smoke", ()))]
    units = []
    uids: set[str] = set()
    for i, u in enumerate(data.get("units", ())):
        where = f"{src}: units[{i}]"
        if u["id"] in uids:
            raise BadPositionFile(f"{where}.id: unit id {u['id']!r} is used twice")
        uids.add(u["id"])
        if u.get("immobilized") and u.get("kind", "squad") != "vehicle":
            raise BadPositionFile(f"{where}.immobilized: only a vehicle is Immobilized, not a {u.get('kind', 'squad')} "
                                  "(B25.4)")
        units.append(Unit(u["id"], u["name"], _side(u["side"], sides, f"{where}.side"),
                          _location(u["at"], gm, f"{where}.at"), UnitKind(u.get("kind", "squad")),
                          u.get("broken", False), u.get("pinned", False), u.get("in_melee", False),
                          u.get("berserk", False), u.get("in_pillbox", False), u.get("may_break_voluntarily", True),
                          u.get("immobilized", False), u.get("cx", False), _ft_count(u, where)))
    control: dict[Hex, str] = {}
    for side, items in data.get("control", {}).items():
        _side(side, sides, f"{src}: control.{side}")
        for h in parse_hex_list(items, gm.layout, f"{src}: control.{side}", named):
            if h not in gm.hexes:
                raise BadPositionFile(f"{src}: control.{side}: hex {gm.hex_name(h)} is not on the map")
            if control.get(h, side) != side:
                raise BadPositionFile(f"{src}: control.{side}: hex {gm.hex_name(h)} is also controlled by "
                                      f"{control[h]}; a hex has one controlling side")
            control[h] = side
    return Position(gm, env, clock, tuple(fires), tuple(wrecks), tuple(units), sides, data.get("name", ""),
                    data.get("notes", ""), control, tuple(smoke))


def _fortified(building: Building, b: Mapping[str, Any], gm: GameMap, where: str) -> Building:
    """*building* with the Fortified Locations its file entry *b* names (B23.9), read on *gm*."""
    fort = set()
    for j, text in enumerate(b["fortified"]):
        loc = _location(text, gm, f"{where}.fortified[{j}]")
        if gm.hexes[loc.hex].building != b["id"] or loc.rooftop:
            raise BadPositionFile(f"{where}.fortified[{j}]: {text} is not a non-rooftop Location of building "
                                  f"{b['id']!r} (B23.9)")
        fort.add((gm.hex_name(loc.hex), loc.level))
    building = replace(building, fortified=frozenset(fort))
    gaps = building.fortification_gaps()
    if gaps:
        n, lv = gaps[0]
        raise BadPositionFile(f"{where}.fortified: {n}.{lv} is Fortified but {n}"
                              f"{'' if lv == 1 else f'.{lv - 1}'} below it is not: a hex is fortified from "
                              "the ground up (B23.912)")
    return building


def _breaches(building: Building, b: Mapping[str, Any], gm: GameMap, where: str) -> Building:
    """*building* with the Breaches its file entry *b* names (B23.711, B23.9221), read on *gm*."""
    breaches = set()
    for j, pair in enumerate(b["breaches"]):
        at = f"{where}.breaches[{j}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise BadPositionFile(f"{at}: expected [LOCATION, ADJACENT HEX], e.g. [\"E4.1\", \"E5\"]")
        loc = _location(str(pair[0]), gm, at)
        toward = _location(str(pair[1]), gm, at).hex
        if gm.hexes[loc.hex].building != b["id"] or loc.rooftop or loc.hex.distance(toward) != 1:
            raise BadPositionFile(f"{at}: a Breach is in a non-rooftop Location of building {b['id']!r} and "
                                  "points at a hexside toward an adjacent hex (B23.711, B23.9221)")
        breaches.add((gm.hex_name(loc.hex), loc.level, gm.hex_name(toward)))
    return replace(building, breaches=frozenset(breaches))


def _kindlers(value: str | list[str] | None, sides: tuple[str, str], where: str) -> tuple[str | None, str | None]:
    """A fire's ``kindled_by``: a side, or both sides when fires kindled by both reached it (Fire & Victory)."""
    if value is None:
        return None, None
    names = [value] if isinstance(value, str) else list(value)
    for i, name in enumerate(names):
        _side(name, sides, where if isinstance(value, str) else f"{where}[{i}]")
    if len(set(names)) != len(names):
        raise BadPositionFile(f"{where}: {names} names a side twice")
    return (names[0] if names else None), (names[1] if len(names) > 1 else None)


def loads(text: str, source: str = "<string>") -> Position:
    """Parse a position file's text.

    :raises BadPositionFile: naming the line (TOML syntax) or the field and hex.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BadPositionFile(f"{source}: not valid TOML: {e}") from None
    except RecursionError:
        raise BadPositionFile(f"{source}: arrays or tables nest more than {MAX_NESTING} deep (expected a position "
                              "file: see docs/position-files.md)") from None
    return from_dict(data, source)


def load(path: str | Path) -> Position:
    """Read a position file."""
    from pathlib import Path  # here, not at the top: ``asl-fire odds demo`` starts faster without it

    p = Path(path)
    try:
        text = read_limited(p, MAX_FILE_BYTES, "a position file").decode("utf-8")
    except UnicodeDecodeError:
        raise BadPositionFile(f"{p}: not a UTF-8 text file (expected a TOML position file)") from None
    return loads(text, str(p))
