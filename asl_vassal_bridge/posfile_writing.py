"""A Position written as a position file (the last step of :mod:`.posfile`): the TOML data :func:`~.posfile.loads` reads
back to the same Position."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core.errors import BadInput
from .core.hexes import BoardPlacement, Hex, column_letters
from .core.position import Location, Position
from .core.terrain import Terrain
from .posfile_hexes import COLLAPSED_HUT

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["dump", "dumps", "to_dict"]


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
