"""Hex coordinates, directions and VASL-style hex names.

ASL maps are flat-topped hexes in vertical columns.  Columns are lettered
``A``…``Z``, ``AA``…``GG`` (then ``AAA``…) left to right and rows are
numbered downwards; on a geomorphic board odd-lettered columns (``A``,
``C``…) run from row 1 and even ones (``B``, ``D``…) from row 0, half a hex
higher.  That is an *offset* system: names and pixels are converted at the
edges, everything else is computed in axial coordinates (Red Blob Games,
"Hexagonal Grids").

>>> Hex.parse("M4").neighbour(Direction.UP).name
'M3'
>>> Hex.parse("A1").distance(Hex.parse("C1"))
2
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from typing import NamedTuple

from .errors import BadInput
from .values import value

__all__ = [
    "BOARD_COLUMNS",
    "BOARD_ROWS",
    "BoardPlacement",
    "Direction",
    "Hex",
    "HexNameError",
    "Hexside",
    "MapLayout",
    "column_index",
    "column_letters",
]

#: Column spacing and hex height of a VASL geomorphic board, in pixels.
HEX_WIDTH = 56.25
HEX_HEIGHT = 64.5

#: A geomorphic board spans columns A…GG (33, the outer two half hexes) and
#: rows 0…10.
BOARD_COLUMNS = 33
BOARD_ROWS = 10


class HexNameError(BadInput):
    """A hex name that cannot be parsed or is not on the map."""


class Direction(enum.IntEnum):
    """The six hexside directions, numbered as in B.8: 1 up, then clockwise.

    A Wind Direction is the direction the wind blows *to* (B25.64).

    >>> Direction.UP.clockwise(2)
    <Direction.LOWER_RIGHT: 3>
    >>> Direction(5).opposite
    <Direction.UPPER_RIGHT: 2>
    """

    UP = 1
    UPPER_RIGHT = 2
    LOWER_RIGHT = 3
    DOWN = 4
    LOWER_LEFT = 5
    UPPER_LEFT = 6

    def clockwise(self, steps: int = 1) -> Direction:
        """The direction *steps* hexsides clockwise (negative: counter-clockwise)."""
        return Direction((self.value - 1 + steps) % 6 + 1)

    @property
    def opposite(self) -> Direction:
        """The direction 180° away."""
        return self.clockwise(3)

    def steps_from(self, other: Direction) -> int:
        """Hexsides between two directions, 0…3 either way round."""
        d = (self.value - other.value) % 6
        return min(d, 6 - d)

    @property
    def vector(self) -> tuple[int, int]:
        """The axial (q, r) step of this direction."""
        return _AXIAL_STEPS[self.value - 1]


# Flat-topped hexes, y growing downwards: 1 up, 2 upper right, 3 lower right,
# 4 down, 5 lower left, 6 upper left.
_AXIAL_STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
_STEP_TO_DIRECTION = {v: Direction(i + 1) for i, v in enumerate(_AXIAL_STEPS)}
_DIRECTIONS = tuple(Direction)

_NAME = re.compile(r"^\s*([A-Za-z]+)\s*(-?\d+)\s*$")


def column_letters(col: int) -> str:
    """ASL column letters of a 0-based column index: 0 → ``A``, 26 → ``AA``, 32 → ``GG``.

    >>> column_letters(32)
    'GG'
    """
    if col < 0:
        raise HexNameError(f"column index {col} is off the map (columns start at A = 0)")
    return chr(ord("A") + col % 26) * (col // 26 + 1)


def column_index(letters: str) -> int:
    """0-based column index of ASL column letters (``A`` → 0, ``GG`` → 32).

    :raises HexNameError: if the letters are not one letter repeated.
    """
    up = letters.upper()
    if not up or not up.isalpha() or not up.isascii() or up != up[0] * len(up):
        raise HexNameError(f"column {letters!r} is not an ASL column (A…Z, AA…ZZ, …)")
    return (len(up) - 1) * 26 + ord(up[0]) - ord("A")


class Hex(NamedTuple):
    """A hex in axial coordinates (q = column, r = axial row).

    A named tuple, so hashing and comparing cost what a pair of ints does.

    >>> Hex.parse("B0").col, Hex.parse("B0").row
    (1, 0)
    """

    q: int
    r: int

    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        """The hex in column *col* (A = 0) and printed row *row*."""
        return cls(col, row - (col - (col & 1)) // 2)

    @classmethod
    def parse(cls, name: str) -> Hex:
        """The hex of a single-board name such as ``M4`` or ``GG10``.

        :raises HexNameError: if *name* is not a hex name.
        """
        m = _NAME.match(name)
        if not m:
            raise HexNameError(f"{name!r} is not a hex name (expected column letters and a row, e.g. M4)")
        return cls.from_offset(column_index(m.group(1)), int(m.group(2)))

    @property
    def col(self) -> int:
        """0-based column index (A = 0)."""
        return self.q

    @property
    def row(self) -> int:
        """Printed row number."""
        return self.r + (self.q - (self.q & 1)) // 2

    @property
    def name(self) -> str:
        """Single-board name, e.g. ``M4``."""
        return f"{column_letters(self.q)}{self.row}"

    def __str__(self) -> str:
        return self.name

    def __add__(self, d: Direction) -> Hex:  # type: ignore[override]
        dq, dr = _AXIAL_STEPS[d - 1]
        return Hex(self.q + dq, self.r + dr)

    def neighbour(self, d: Direction, distance: int = 1) -> Hex:
        """The hex *distance* hexes away in direction *d*."""
        dq, dr = d.vector
        return Hex(self.q + dq * distance, self.r + dr * distance)

    def neighbours(self) -> Iterator[tuple[Direction, Hex]]:
        """The six adjacent hexes with their directions, 1 to 6."""
        q, r = self
        for d, (dq, dr) in zip(_DIRECTIONS, _AXIAL_STEPS, strict=True):
            yield d, Hex(q + dq, r + dr)

    def adjacent(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order 1 to 6 (:meth:`neighbours` without the directions).

        >>> [h.name for h in Hex.parse("B2").adjacent()]
        ['B1', 'C2', 'C3', 'B3', 'A3', 'A2']
        """
        q, r = self
        return (Hex(q, r - 1), Hex(q + 1, r - 1), Hex(q + 1, r), Hex(q, r + 1), Hex(q - 1, r + 1), Hex(q - 1, r))

    def direction_to(self, other: Hex) -> Direction | None:
        """The direction of an adjacent hex, or None if *other* is not adjacent."""
        return _STEP_TO_DIRECTION.get((other.q - self.q, other.r - self.r))

    def distance(self, other: Hex) -> int:
        """Range in hexes (B.8)."""
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def line_to(self, other: Hex) -> tuple[Hex, ...]:
        """The hexes a line from this hex's centre to *other*'s passes, both ends included, in order (the
        hex-centre LOS of A6.1); a line running along a hexside takes one of its two hexes.

        >>> [h.name for h in Hex.parse("A1").line_to(Hex.parse("A4"))]
        ['A1', 'A2', 'A3', 'A4']
        >>> [h.name for h in Hex.parse("B2").line_to(Hex.parse("D3"))]
        ['B2', 'C3', 'D3']
        """
        n = self.distance(other)
        out = [self]
        for i in range(1, n + 1):
            t = i / n
            q = self.q + (other.q - self.q) * t + 1e-6
            r = self.r + (other.r - self.r) * t + 1e-6
            s = -q - r - 2e-6
            rq, rr, rs = round(q), round(r), round(s)
            dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
            if dq > dr and dq > ds:
                rq = -rr - rs
            elif dr > ds:
                rr = -rq - rs
            out.append(Hex(rq, rr))
        return tuple(out)

    def hexside(self, d: Direction) -> Hexside:
        """The hexside of this hex in direction *d*."""
        return Hexside.of(self, self + d)

    def pixel(self) -> tuple[float, float]:
        """Centre in VASL board pixels (A1 at (0, 32.25), B0 at (56.25, 0))."""
        x = self.col * HEX_WIDTH
        y = self.row * HEX_HEIGHT - (HEX_HEIGHT / 2 if self.col % 2 == 0 else 0.0)
        return x, y

    @classmethod
    def from_pixel(cls, x: float, y: float) -> Hex:
        """The hex whose centre is nearest to board pixel (x, y)."""
        col0 = round(x / HEX_WIDTH)
        best_col = best_row = 0
        best_d = float("inf")
        for col in (col0 - 1, col0, col0 + 1):
            shift = HEX_HEIGHT / 2 if col % 2 == 0 else 0.0
            row = round((y + shift) / HEX_HEIGHT)
            dx = ((col * HEX_WIDTH - x) / HEX_WIDTH) ** 2
            for rr in (row - 1, row, row + 1):
                d = dx + ((rr * HEX_HEIGHT - shift - y) / HEX_HEIGHT) ** 2  # the centre of hex (col, rr): pixel()
                if d < best_d:
                    best_col, best_row, best_d = col, rr, d
        return cls.from_offset(best_col, best_row)


@value
class Hexside:
    """The side shared by two adjacent hexes (unordered).

    >>> Hexside.of(Hex.parse("A1"), Hex.parse("B1")) == Hexside.of(Hex.parse("B1"), Hex.parse("A1"))
    True
    """

    a: Hex
    b: Hex

    @classmethod
    def of(cls, a: Hex, b: Hex) -> Hexside:
        """The hexside between adjacent hexes *a* and *b*."""
        if a.direction_to(b) is None:
            raise HexNameError(f"{a} and {b} are not adjacent, so they share no hexside")
        return cls(a, b) if a < b else cls(b, a)

    def __str__(self) -> str:
        return f"{self.a}/{self.b}"


@value
class BoardPlacement:
    """A board on a map: its name and where it lies in the layout.

    *x* and *y* count boards (0, 0 is top left); a reversed board is turned
    180°.  *columns* × *rows* is the board's size in hexes (33 × 10 for a
    geomorphic board, 17 × 20 for the half boards 1a–13b).  VASL names some
    boards' hexes from other letters and numbers: *first_column* is the
    column index whose letters the board's first column carries (16, ``Q``,
    on the half boards "b", whose columns run Q…GG) and *first_row* is added
    to every row number.  *col_start*/*row_start*, when given, are the map
    column and row of the board's own A1 column and row 0 (boards of
    different sizes side by side); otherwise ``x × (columns − 1)`` and
    ``y × rows``.  *crop*, when given, is the set of board-local hexes on
    the map (a board VASL crops keeps only these); the others have no map
    hex.

    >>> b = BoardPlacement("12b", x=1, columns=17, rows=20, first_column=16)
    >>> b.local_name(Hex.parse("A1")), b.to_map(b.parse_local("Q1")).name
    ('Q1', 'Q1')
    """

    name: str
    x: int = 0
    y: int = 0
    reversed: bool = False
    columns: int = BOARD_COLUMNS
    rows: int = BOARD_ROWS
    first_column: int = 0
    first_row: int = 0
    col_start: int | None = None
    row_start: int | None = None
    crop: frozenset[Hex] | None = None

    @property
    def col_offset(self) -> int:
        return self.col_start if self.col_start is not None else self.x * (self.columns - 1)

    @property
    def row_offset(self) -> int:
        return self.row_start if self.row_start is not None else self.y * self.rows

    def local_name(self, local: Hex) -> str:
        """The name VASL gives board-local hex *local* (``Q1`` for column 0, row 1 of a half board "b")."""
        if not self.first_column and not self.first_row:
            return local.name
        return f"{column_letters(local.col + self.first_column)}{local.row + self.first_row}"

    def parse_local(self, name: str) -> Hex:
        """The board-local hex of one of this board's hex names (the inverse of :meth:`local_name`).

        :raises HexNameError: if *name* is not a hex name of this board.
        """
        m = _NAME.match(name)
        if not m:
            raise HexNameError(f"{name!r} is not a hex name (expected column letters and a row, e.g. M4)")
        col = column_index(m.group(1)) - self.first_column
        if col < 0:
            raise HexNameError(f"hex {name.strip()} is not on board {self.name} (its columns start at "
                               f"{column_letters(self.first_column)})")
        row = int(m.group(2)) - self.first_row
        if col >= self.columns or not (0 if col % 2 == 1 else 1) <= row <= self.rows:
            raise HexNameError(f"hex {name.strip()} is off board {self.name} (columns "
                               f"{column_letters(self.first_column)}–"
                               f"{column_letters(self.first_column + self.columns - 1)}, rows up to "
                               f"{self.rows + self.first_row})")
        local = Hex.from_offset(col, row)
        if self.crop is not None and local not in self.crop:
            raise HexNameError(f"hex {name.strip()} of board {self.name} is cropped off the map")
        return local

    def to_map(self, local: Hex) -> Hex:
        """The map hex of a board-local hex."""
        col, row = local.col, local.row
        if self.reversed:
            last = self.columns - 1
            row = (self.rows - row) if col % 2 == 1 else (self.rows + 1 - row)
            col = last - col
        return Hex.from_offset(col + self.col_offset, row + self.row_offset)

    def to_local(self, h: Hex) -> Hex | None:
        """The board-local hex of map hex *h*, or None if it is not on this board."""
        col = h.col - self.col_offset
        row = h.row - self.row_offset
        if not 0 <= col < self.columns:
            return None
        lo = 0 if col % 2 == 1 else 1
        if not lo <= row <= self.rows:
            return None
        if self.reversed:
            last = self.columns - 1
            row = (self.rows - row) if col % 2 == 1 else (self.rows + 1 - row)
            col = last - col
        local = Hex.from_offset(col, row)
        return local if self.crop is None or local in self.crop else None

    def hexes(self) -> Iterator[Hex]:
        """Every map hex of this board (half hexes at the edges included)."""
        for col in range(self.columns):
            lo = 0 if col % 2 == 1 else 1
            for row in range(lo, self.rows + 1):
                local = Hex.from_offset(col, row)
                if self.crop is None or local in self.crop:
                    yield self.to_map(local)


@value
class MapLayout:
    """How hex names are written on a map.

    With no boards (a hand-made map) names are plain (``M4``); with one
    board too; with several, every name carries its board (``22M4``), as
    VASL writes them.

    >>> layout = MapLayout((BoardPlacement("22"), BoardPlacement("23", x=1)))
    >>> layout.name(layout.parse("23A1"))
    '22GG1'
    """

    boards: tuple[BoardPlacement, ...] = ()

    @property
    def prefixed(self) -> bool:
        return len(self.boards) > 1

    def name(self, h: Hex) -> str:
        """The name players use for map hex *h*."""
        if not self.boards:
            return h.name
        for b in self.boards:
            local = b.to_local(h)
            if local is not None:
                return f"{b.name}{b.local_name(local)}" if self.prefixed else b.local_name(local)
        return h.name

    def parse(self, name: str) -> Hex:
        """The map hex of a name (``M4``; ``22M4`` when boards are prefixed).

        :raises HexNameError: for an unknown board or a malformed name.
        """
        text = name.strip()
        if not self.prefixed:
            return self.boards[0].to_map(self.boards[0].parse_local(text)) if self.boards else Hex.parse(text)
        # The longest board name the text starts with whose rest is a hex of that board: on a map holding
        # boards 1 and 1a, 1aC3 is board 1a's C3 (board 1 has no column aC).
        first_error: HexNameError | None = None
        for b in sorted(self.boards, key=lambda b: len(b.name), reverse=True):
            if text.startswith(b.name) and _NAME.match(text[len(b.name):]):
                try:
                    return b.to_map(b.parse_local(text[len(b.name):]))
                except HexNameError as e:
                    first_error = first_error or e
        if first_error is not None:
            raise first_error
        known = ", ".join(b.name for b in self.boards)
        raise HexNameError(f"{name!r} is not a hex of this map (expected a board name of {known} then a hex, "
                           f"e.g. {self.boards[0].name}M4)")
