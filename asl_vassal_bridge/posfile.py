"""Position files: a human-writable TOML format, validated against a JSON Schema.

A file describes a map (hexes, terrain depictions, elevations, buildings),
the fires, wrecks, units, wind, EC and the clock.  Hex lists take single
hexes (``E4``) and column ranges (``H2-H5``); Locations add a level
(``E4.1``, ``E4.roof``).  See ``docs/position-files.md`` and the embedded demo
scenario (``asl_vassal_bridge/scenarios/demo.toml``).

>>> pos = loads('format = 1\\n[map]\\ncolumns = "A-C"\\nrows = "1-3"\\n'
...             '[[map.terrain]]\\nkind = "woods"\\nhexes = ["B2"]\\n')
>>> pos.map.info(pos.map.parse_hex("B2")).terrain.label
'Woods'
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._files import read_limited
from ._packagedata import read_text
from .core.environment import EC, Environment, Ground, Wind, WindForce
from .core.errors import BadInput
from .core.hexes import BoardPlacement, Direction, Hex, MapLayout, column_index, column_letters
from .core.position import (
    Clock,
    Fire,
    FireKind,
    GameMap,
    HexInfo,
    Location,
    Phase,
    Position,
    Smoke,
    Unit,
    UnitKind,
    Wreck,
)
from .core.terrain import Building, BuildingKind, Material, Terrain
from .core.values import replace

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["BadPositionFile", "dump", "dumps", "load", "loads", "parse_hex_list"]


class BadPositionFile(BadInput):
    """A position file that does not fit the format; the message names the file, field and hex."""


#: The most hexes a position file's map may have: 500 × 500, the board reader's limit for one board's
#: grid (a 10-board VASL map has about 3,300 hexes).  Larger maps are refused before any hex is made.
MAX_MAP_HEXES = 250_000


#: The largest position file read, in bytes (4 MiB: an explicit list of 250,000 hexes fits; the demo is 3 KB).
MAX_FILE_BYTES = 4 * 1024 * 1024

#: The most fires, wrecks or units a position file may list (a whole HASL campaign has far fewer).
MAX_PIECES = 10_000

#: Base elevations a map may give (``[map.elevation]``), in levels: ASL's hills and depressions lie well within.
MIN_ELEVATION, MAX_ELEVATION = -9, 99

#: How deeply TOML arrays and tables may nest (the format needs 4).
MAX_NESTING = 32

#: The most hexes all of a file's hex lists may name together (ranges counted hex by hex): four times the
#: largest map, so that every hex of the largest map can be named by its terrain, elevation, building and more,
#: while 400 ``A1-A50000`` ranges in a 20 kB file are refused before they are made.
MAX_NAMED_HEXES = 4 * MAX_MAP_HEXES


def _too_big(where: str, count: int) -> BadPositionFile:
    return BadPositionFile(f"{where}: {count:,} hexes; a map may have at most {MAX_MAP_HEXES:,} "
                           "(e.g. columns = \"A-J\", rows = \"1-10\")")


_SCHEMA: dict[str, Any] | None = None


def _schema() -> dict[str, Any]:
    global _SCHEMA
    if _SCHEMA is None:
        text = read_text("asl_vassal_bridge", "schema/position.schema.json")
        _SCHEMA = json.loads(text)
    return _SCHEMA


def _field(path: Iterable[object]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


_RANGE = re.compile(r"^\s*([A-Za-z]+)(-?\d+)\s*-\s*([A-Za-z]*)(-?\d+)\s*$")


class HexBudget:
    """How many hexes a file's hex lists have named so far, against :data:`MAX_NAMED_HEXES`."""

    def __init__(self, limit: int = MAX_NAMED_HEXES) -> None:
        self.left = limit
        self.limit = limit

    def take(self, count: int, where: str) -> None:
        """Count *count* more hexes named at *where*.

        :raises BadPositionFile: when the file's hex lists name more than the limit in all.
        """
        self.left -= count
        if self.left < 0:
            raise BadPositionFile(f"{where}: the file's hex lists name more than {self.limit:,} hexes in all; a "
                                  f"position file may name at most {self.limit:,} (four times the largest map)")


def parse_hex_list(items: Iterable[str], layout: MapLayout, where: str, budget: HexBudget | None = None) -> list[Hex]:
    """Hexes from names and column ranges (``H2-H5``; on prefixed maps ``22H2-H5``); *budget* counts them
    against what the whole file may name."""
    out: list[Hex] = []
    for i, item in enumerate(items):
        text = item.strip()
        prefix = ""
        if layout.prefixed:
            for b in sorted(layout.boards, key=lambda b: -len(b.name)):
                if text.startswith(b.name) and re.match(r"^[A-Za-z]+-?\d", text[len(b.name):]):
                    prefix, text = b.name, text[len(b.name):]
                    break
        m = _RANGE.match(text)
        try:
            if m and "-" in text[1:]:
                col1, r1, col2, r2 = m.group(1), int(m.group(2)), m.group(3) or m.group(1), int(m.group(4))
                if column_index(col1) != column_index(col2):
                    raise BadPositionFile(f"{where}[{i}]: range {item!r} must stay in one column (e.g. H2-H5)")
                lo, hi = sorted((r1, r2))
                if len(out) + hi - lo + 1 > MAX_MAP_HEXES:
                    raise _too_big(f"{where}[{i}] {item!r}", len(out) + hi - lo + 1)
                if budget is not None:
                    budget.take(hi - lo + 1, f"{where}[{i}]")
                if layout.boards:
                    out += [layout.parse(f"{prefix}{col1}{r}") for r in range(lo, hi + 1)]
                else:  # a map without boards: its hexes are the names' own (Hex.parse), made without parsing each
                    layout.parse(f"{col1}{lo}")
                    c = column_index(col1)
                    out += [Hex.from_offset(c, r) for r in range(lo, hi + 1)]
            else:
                if len(out) >= MAX_MAP_HEXES:
                    raise _too_big(f"{where}[{i}] {item!r}", len(out) + 1)
                if budget is not None:
                    budget.take(1, f"{where}[{i}]")
                out.append(layout.parse(prefix + text))
        except BadPositionFile:
            raise
        except BadInput as e:
            raise BadPositionFile(f"{where}[{i}]: {e}") from None
    return out


def _extent(m: Mapping[str, Any], layout: MapLayout, src: str) -> list[Hex]:
    if "boards" in m:
        seen: dict[Hex, None] = {}
        for b in layout.boards:
            for h in b.hexes():
                seen[h] = None
            if len(seen) > MAX_MAP_HEXES:
                raise _too_big(f"{src}: map.boards", len(seen))
        return list(seen)
    if "hexes" in m:
        return parse_hex_list(m["hexes"], layout, f"{src}: map.hexes")
    if "columns" not in m or "rows" not in m:
        raise BadPositionFile(f"{src}: map: give its extent as columns + rows (e.g. \"A-J\", \"1-10\"), boards, "
                              "or hexes")
    c1, c2 = (column_index(c) for c in m["columns"].split("-"))
    rm = re.match(r"^(-?\d+)-(-?\d+)$", m["rows"])
    assert rm is not None
    r1, r2 = int(rm.group(1)), int(rm.group(2))
    if c2 < c1 or r2 < r1:
        raise BadPositionFile(f"{src}: map.columns/rows: ranges must run low to high, not {m['columns']} / {m['rows']}")
    count = (c2 - c1 + 1) * (r2 - r1 + 1)
    if count > MAX_MAP_HEXES:
        raise _too_big(f"{src}: map.columns/rows {m['columns']} / {m['rows']}", count)
    return [Hex.from_offset(c, r) for c in range(c1, c2 + 1) for r in range(r1, r2 + 1)]


def _location(text: str, gm: GameMap, where: str) -> Location:
    try:
        return gm.parse_location(text)
    except BadInput as e:
        raise BadPositionFile(f"{where}: {e}") from None


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


#: A Collapsed hut (huts, G5): Burnable hut terrain that is no longer a building.
COLLAPSED_HUT = "collapsed-hut"

_IGNORED = frozenset(("description", "title", "$schema", "$id", "$defs", "$comment"))
_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool), "null": lambda v: v is None,
}


def _same(a: object, b: object) -> bool:
    return isinstance(a, bool) == isinstance(b, bool) and type(a) is type(b) and a == b


def quick_valid(value: object, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """True only if *value* is valid against *schema*: a fast check of the JSON Schema keywords the position
    schema uses, so that a valid file needs no jsonschema import (slow to import).  Anything it does not
    know, or is unsure of, is False, and :func:`from_dict` then asks jsonschema, which also words the errors.

    >>> quick_valid({"a": [1, 2]}, {"type": "object", "properties": {"a": {"type": "array", "minItems": 2}}}, {})
    True
    """
    for key, rule in schema.items():
        if key in _IGNORED:
            continue
        if key == "$ref":
            if not (isinstance(rule, str) and rule.startswith("#/$defs/")):
                return False
            target = root.get("$defs", {}).get(rule[len("#/$defs/"):])
            if target is None or not quick_valid(value, target, root):
                return False
        elif key == "type":
            if not any(_TYPES[t](value) for t in ([rule] if isinstance(rule, str) else rule)):
                return False
        elif key == "enum":
            if not any(_same(value, x) for x in rule):
                return False
        elif key == "const":
            if not _same(value, rule):
                return False
        elif key in ("minimum", "maximum"):
            if not _TYPES["number"](value):
                continue
            assert isinstance(value, int | float)
            if (value < rule) if key == "minimum" else (value > rule):
                return False
        elif key in ("minLength", "pattern"):
            if not isinstance(value, str):
                continue
            if (key == "minLength" and len(value) < rule) or (key == "pattern" and not re.search(rule, value)):
                return False
        elif key in ("items", "minItems", "maxItems"):
            if not isinstance(value, list):
                continue
            if key == "items" and not all(quick_valid(v, rule, root) for v in value):
                return False
            if (key == "minItems" and len(value) < rule) or (key == "maxItems" and len(value) > rule):
                return False
        elif key == "required":
            if isinstance(value, dict) and any(r not in value for r in rule):
                return False
        elif key in ("properties", "patternProperties", "additionalProperties"):
            continue  # below, together
        else:
            return False
    if isinstance(value, dict) and any(k in schema for k in ("properties", "patternProperties",
                                                              "additionalProperties")):
        return _object_valid(value, schema, root)
    return True


def _object_valid(value: Mapping[str, Any], schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    props = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    extra = schema.get("additionalProperties", True)
    for k, v in value.items():
        if not isinstance(k, str):
            return False
        matched = False
        if k in props:
            matched = True
            if not quick_valid(v, props[k], root):
                return False
        for pat, sub in patterns.items():
            if re.search(pat, k):
                matched = True
                if not quick_valid(v, sub, root):
                    return False
        if not matched:
            if extra is False or (isinstance(extra, dict) and not quick_valid(v, extra, root)):
                return False
            if extra is not True and not isinstance(extra, dict):
                return False
    return True


def _depth(data: object) -> int:
    """How deeply *data*'s lists and tables nest (iteratively: a hostile file cannot exhaust the stack)."""
    deepest, todo = 0, [(data, 0)]
    while todo:
        item, d = todo.pop()
        if isinstance(item, Mapping):
            todo += [(v, d + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, d + 1) for v in item]
        else:
            continue
        deepest = max(deepest, d + 1)
        if deepest > MAX_NESTING:
            break
    return deepest


def _check_sizes(data: Mapping[str, Any], source: str) -> None:
    """Refuse, before any validation or hex is made, what would take unbounded time or memory."""
    if _depth(data) > MAX_NESTING:
        raise BadPositionFile(f"{source}: arrays or tables nest more than {MAX_NESTING} deep (expected a position "
                              "file: see docs/position-files.md)")
    for key in ("fires", "wrecks", "smoke", "units", "buildings"):
        items = data.get(key)
        if isinstance(items, list) and len(items) > MAX_PIECES:
            raise BadPositionFile(f"{source}: {key}: {len(items):,} entries; a position file may list at most "
                                  f"{MAX_PIECES:,}")
    m = data.get("map")
    terrain = m.get("terrain") if isinstance(m, Mapping) else None
    if isinstance(terrain, list) and len(terrain) > MAX_PIECES:
        raise BadPositionFile(f"{source}: map.terrain: {len(terrain):,} entries; a position file may list at most "
                              f"{MAX_PIECES:,}")


def _validator(schema: Mapping[str, Any]) -> Any:
    """jsonschema's validator of the position schema, with TOML's integers only as ``integer`` (JSON Schema
    counts ``1.0`` as one; a position file's ``x = 1.0`` or ``turn = 3.0`` is not a count)."""
    import jsonschema

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", lambda _checker, v: _TYPES["integer"](v))
    return jsonschema.validators.extend(base, type_checker=checker)(schema)  # type: ignore[no-untyped-call]


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


# ---------------------------------------------------------------------------
# Writing


def _loc(pos: Position, loc: Location) -> str:
    return pos.loc_name(loc)


def to_dict(pos: Position) -> dict[str, Any]:
    """The file data of a Position (round-trips through :func:`from_dict`)."""
    gm = pos.map
    layout = gm.layout
    now = pos.clock.player_turn
    m: dict[str, Any] = {}
    if gm.name:
        m["name"] = gm.name
    if layout.boards:
        m["boards"] = [{"name": b.name, "x": b.x, "y": b.y, "reversed": b.reversed} for b in layout.boards]
        # the file keeps a board's name, place and side: a board of another size or a cropped one does not read back
        extent = {h for b in layout.boards for h in BoardPlacement(b.name, b.x, b.y, b.reversed).hexes()}
    else:
        cols = [h.col for h in gm.hexes]
        rows = [h.row for h in gm.hexes]
        extent = {Hex.from_offset(c, r) for c in range(min(cols, default=0), max(cols, default=-1) + 1)
                  for r in range(min(rows, default=0), max(rows, default=-1) + 1)}
        if extent == set(gm.hexes) and gm.hexes:
            m["columns"] = f"{column_letters(min(cols))}-{column_letters(max(cols))}"
            m["rows"] = f"{min(rows)}-{max(rows)}"
    if extent != set(gm.hexes):
        m.pop("columns", None)
        m.pop("rows", None)
        m.pop("boards", None)
        if layout.boards:
            m["boards"] = [{"name": b.name, "x": b.x, "y": b.y, "reversed": b.reversed} for b in layout.boards]
            raise BadInput("a map with boards and missing hexes cannot be written as a position file")
        m["hexes"] = [layout.name(h) for h in sorted(gm.hexes)]
    m["default"] = "open-ground"
    elev: dict[str, list[str]] = {}
    roads = []
    groups: dict[tuple[Terrain, str | None], list[str]] = {}
    for h in sorted(gm.hexes):
        info = gm.hexes[h]
        if info.elevation:
            elev.setdefault(str(info.elevation), []).append(layout.name(h))
        if info.road:
            roads.append(layout.name(h))
        if info.building is None and info.terrain is not Terrain.OPEN_GROUND:
            groups.setdefault((info.terrain, info.feature), []).append(layout.name(h))
    if elev:
        m["elevation"] = elev
    if roads:
        m["roads"] = roads
    terrain = []
    for (t, feature), names in groups.items():
        kind = COLLAPSED_HUT if t is Terrain.HUT else t.name.lower().replace("_", "-")  # no building: Collapsed
        entry: dict[str, Any] = {"kind": kind, "hexes": names}
        if feature is None:
            entry["attached"] = False
        else:
            entry["feature"] = feature
        terrain.append(entry)
    if terrain:
        m["terrain"] = terrain
    out: dict[str, Any] = {"format": 1}
    if pos.name:
        out["name"] = pos.name
    if pos.notes:
        out["notes"] = pos.notes
    out["sides"] = list(pos.sides)
    out["clock"] = {"turn": pos.clock.turn, "half": pos.clock.half, "phase": pos.clock.phase.value}
    env = pos.environment
    wind: dict[str, Any] = {"force": env.wind.force.name.lower().replace("_", "-")}
    if env.wind.direction is not None:
        wind["direction"] = int(env.wind.direction)
    e: dict[str, Any] = {"ec": env.ec.name.lower().replace("_", "-"), "ground": env.ground.value, "wind": wind}
    if not env.ec_given:  # left for the EC Chart dr (B25.5, `asl-fire setup`)
        del e["ec"]
    if not env.wind_given:  # left for the Wind Force dr (B25.63)
        del e["wind"]
    if env.gusts:
        e["gusts"] = True
    if env.drift_cleared:
        e["drift_cleared"] = True
    if env.month is not None:
        e["month"] = env.month
    if env.rain_has_fallen:
        e["rain_has_fallen"] = True
    out["environment"] = e
    out["map"] = m
    blds = []
    for b in gm.buildings.values():
        hs = [h for h in sorted(gm.hexes) if gm.hexes[h].building == b.id]
        entry = {"id": b.id, "material": b.material.value, "kind": b.kind.value, "hexes": [layout.name(h) for h in hs]}
        if b.levels is not None:
            entry["levels"] = b.levels
        if b.hex_levels:
            entry["hex_levels"] = dict(b.hex_levels)
        stairs = [layout.name(h) for h in hs if gm.hexes[h].stairwell]
        if stairs:
            entry["stairwells"] = stairs
        if b.rooftop:
            entry["rooftop"] = True
        if b.rooftops_gone:
            entry["rooftop_gone"] = sorted(b.rooftops_gone, key=lambda n: layout.parse(n))
        if b.rowhouse:
            entry["rowhouse"] = True
        if b.marketplace:
            entry["marketplace"] = sorted(b.marketplace, key=lambda n: layout.parse(n))
        if b.fortified:
            entry["fortified"] = [n if lv == 0 else f"{n}.{lv}" for n, lv in sorted(b.fortified)]
        if b.breaches:
            entry["breaches"] = [[n if lv == 0 else f"{n}.{lv}", t] for n, lv, t in sorted(b.breaches)]
        blds.append(entry)
    if blds:
        out["buildings"] = blds
    fires = []
    for f in pos.fires:
        d: dict[str, Any] = {"at": _loc(pos, f.location), "kind": f.kind.value}
        if f.since != now - 1:
            d["since"] = f.since
        if f.hampered:
            d["hampered"] = True
        if f.also_kindled_by:
            d["kindled_by"] = list(f.kindlers)
        elif f.kindled_by:
            d["kindled_by"] = f.kindled_by
        fires.append(d)
    if fires:
        out["fires"] = fires
    wrecks = []
    for w in pos.wrecks:
        d = {"at": _loc(pos, w.location), "name": w.name, "burning": w.burning}
        if w.bypass is not None:
            d["bypass"] = int(w.bypass)
        if w.since != now - 1:
            d["since"] = w.since
        wrecks.append(d)
    if wrecks:
        out["wrecks"] = wrecks
    smoke = [{"at": _loc(pos, s.location), **({"wp": True} if s.wp else {}),
              **({"dispersed": True} if s.dispersed else {})} for s in pos.smoke]
    if smoke:
        out["smoke"] = smoke
    units = []
    for u in pos.units:
        d = {"id": u.id, "name": u.name, "side": u.side, "at": _loc(pos, u.location), "kind": u.kind.value}
        for flag in ("broken", "pinned", "in_melee", "berserk", "in_pillbox", "immobilized", "cx"):
            if getattr(u, flag):
                d[flag] = True
        if not u.may_break_voluntarily:
            d["may_break_voluntarily"] = False
        if u.ft:
            d["ft"] = u.ft
        units.append(d)
    if units:
        out["units"] = units
    control: dict[str, list[str]] = {}
    for h in sorted(pos.control):
        control.setdefault(pos.control[h], []).append(layout.name(h))
    if control:
        out["control"] = control
    return out


def dumps(pos: Position) -> str:
    """The position file text of a Position."""
    import tomli_w

    return "# asl-fire position file (format 1); see docs/position-files.md\n" + tomli_w.dumps(to_dict(pos))


def dump(pos: Position, path: str | Path) -> None:
    """Write a position file (atomically: a failed write leaves any old file intact)."""
    from pathlib import Path

    p = Path(path)
    text = dumps(pos)
    if not p.parent.is_dir():
        raise BadInput(f"{p}: cannot write it: folder {p.parent} does not exist")
    if p.is_dir():
        raise BadInput(f"{p}: is a folder (expected a position file name, e.g. {p / 'after.toml'})")
    from ._outputs import replacing

    with replacing(p) as tmp:  # a temporary file of its own (never an existing one, never through a link)
        tmp.write_text(text, "utf-8")
