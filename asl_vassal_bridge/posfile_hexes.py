"""A position file's limits, its error and its hex lists (the first step of :mod:`.posfile`): single hexes
(``E4``), column ranges (``H2-H5``) and Locations (``E4.1``, ``E4.roof``) on the file's map."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .core.errors import BadInput
from .core.hexes import Hex, MapLayout, column_index
from .core.position import GameMap, Location

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
    "parse_hex_list",
]


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


#: A Collapsed hut (huts, G5): Burnable hut terrain that is no longer a building.
COLLAPSED_HUT = "collapsed-hut"
