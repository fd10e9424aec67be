"""A VASL board's hex grid in its own pixels (``VASL.LOS.Map.Map``'s geometry and hex names), shared by the board
archive reader (:mod:`.board`) and the crop arithmetic (:mod:`.crop`); re-exported by :mod:`.board`."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.hexes import Hex, HexNameError, column_index, column_letters

__all__ = ["BoardGeometry", "row_counts"]


def row_counts(width: int, height: int, alt_grain: bool = False) -> list[int]:
    """Hexes per column: odd columns (B, D…) start with a half hex and have one more (VASL ``Map``).

    VASL's LOS model reads and builds every board this way; *alt_grain* is
    accepted for compatibility and ignored, as VASL's LOS model ignores
    ``altHexGrain`` (it only reaches VASSAL's drawn grid).
    """
    return [height + c % 2 for c in range(width)]


#: VASL's geomorphic defaults (``BoardArchive.GEO_*``): hex width 1800/32, height 645/10, A1 at (0, 32.25).
GEO_HEX_WIDTH = 1800 / 32
GEO_HEX_HEIGHT = 64.5
GEO_A1 = (0.0, 32.25)
#: ``BoardMetadata`` value meaning "not given" (VASL ``BoardMetadata.MISSING``).
MISSING = -999.0
#: ``A1CenterX`` of the right-hand half boards 1b–13b, whose columns VASL names Q…Z, AA…GG.
HALF_BOARD_B_X = -901.0
#: The ``A1CenterY`` values for which VASL's LOS map builds a hex grid (odd columns long): geomorphic
#: boards, the BFP DW "b" boards (rows numbered from 10) and the big-hex BFP boards.
VASL_GRID_ORIGINS_Y = (32.25, -612.75, 97.1)


def _vasl_column_name(col: int, half_board_b: bool) -> str:
    """VASL ``Map.getGEOHexName``'s column letters: A…Z, AA…; Q…Z, AA…GG on a half board "b"."""
    if half_board_b:
        return chr(ord("Q") + col) if col < 10 else chr(ord("A") + (col - 10) % 26) * 2
    return column_letters(col)


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Hex grid geometry of one board in its own pixels, as VASL's LOS model (``VASL.LOS.Map.Map``) builds it.

    *a1_x*, *a1_y* are the board's ``A1CenterX``/``A1CenterY`` (VASL's
    defaults applied); odd columns (B, D…) are the long ones, starting with a
    half hex at row index 0.  Hex names follow VASL: a half board "b"
    (``A1CenterX`` −901) names its columns Q…GG, and a negative ``A1CenterY``
    (BFP DW "b" boards) numbers rows from ``int(−A1CenterY / hexHeight) + 1``.

    >>> g = BoardGeometry(17, 20, 957, 1290, 56.3125, 64.5, HALF_BOARD_B_X, 32.25)
    >>> g.hexes()[0], g.hexes()[-1], g.first_column
    ((0, 0, 'Q1'), (16, 19, 'GG20'), 16)
    """

    width: int
    height: int
    grid_width: int
    grid_height: int
    hex_width: float
    hex_height: float
    a1_x: float
    a1_y: float
    alt_grain: bool = False
    #: added to every centre's x: −hexWidth for a crop window whose column 0 lies off its pixels, left of a first
    #: column that is a long one (:func:`~.board.crop_window`)
    x0: float = 0.0

    @property
    def long_parity(self) -> int:
        """Column parity of the columns that start with a half hex at row index 0 (always 1, as in VASL)."""
        return 1

    @property
    def half_board_b(self) -> bool:
        """A right-hand half board (12b, 13b…): VASL names its columns Q…GG."""
        return self.a1_x == HALF_BOARD_B_X

    @property
    def first_column(self) -> int:
        """Column index (A = 0) of the letters VASL gives column 0: 16 (Q) on a half board "b"."""
        return 16 if self.half_board_b else 0

    @property
    def first_row(self) -> int:
        """Added to the printed row numbers (VASL: 10 on the BFP DW "b" boards, else 0)."""
        return int(-self.a1_y / self.hex_height) + 1 if self.a1_y < 0 else 0

    def name(self, col: int, row_index: int) -> str:
        """VASL's name of the hex in column *col*, row index *row_index*."""
        return f"{_vasl_column_name(col, self.half_board_b)}{row_index + self.first_row + (1 - col % 2)}"

    def hexes(self) -> list[tuple[int, int, str]]:
        """(column, row index, name) of every hex, column-major as LOSData stores stairways."""
        return [(c, r, self.name(c, r)) for c, n in enumerate(row_counts(self.width, self.height))
                for r in range(n)]

    def centre(self, col: int, row_index: int) -> tuple[float, float]:
        """Pixel centre of hex (column, row index) (VASL ``Map.getHexCenterPoint``)."""
        x = max(self.a1_x, 0.0) + self.x0 + self.hex_width * col
        y0 = self.hex_height / 2 if self.a1_y < 0 else self.a1_y
        return x, y0 + self.hex_height * row_index - self.hex_height / 2 * (col % 2)

    def parse(self, name: str) -> tuple[int, int]:
        """(column, row index) of a board hex name.

        :raises HexNameError: if the name is not a hex of this board.
        """
        h = name.strip().upper()
        letters = h.rstrip("0123456789")
        digits = h[len(letters):]
        if not letters or not digits:
            raise HexNameError(f"{name!r} is not a hex name (expected e.g. E4)")
        col = column_index(letters) - self.first_column
        idx = int(digits) - self.first_row - (1 - col % 2)
        if not (0 <= col < self.width and 0 <= idx < row_counts(self.width, self.height)[col]):
            raise HexNameError(f"hex {name} is off the board ({self.width}×{self.height} hexes)")
        return col, idx

    def hex_at(self, x: float, y: float) -> tuple[int, int] | None:
        """(column, row index) of the hex whose centre is nearest to board pixel (x, y), or None off the board."""
        x0, y0 = self.centre(0, 0)
        col0 = round((x - x0) / self.hex_width)
        counts = row_counts(self.width, self.height)
        best: tuple[int, int] | None = None
        best_d = math.inf
        for col in (col0 - 1, col0, col0 + 1):
            if not 0 <= col < self.width:
                continue
            shift = self.hex_height / 2 * (col % 2)
            r0 = round((y - y0 + shift) / self.hex_height)
            for r in (r0 - 1, r0, r0 + 1):
                if 0 <= r < counts[col]:
                    cx, cy = self.centre(col, r)
                    d = ((cx - x) / self.hex_width) ** 2 + ((cy - y) / self.hex_height) ** 2
                    if d < best_d:
                        best, best_d = (col, r), d
        return best

    def local_hex(self, col: int, row_index: int) -> Hex:
        """The core :class:`Hex` of (column, row index) on this board alone (A1 = column 0, row 1)."""
        return Hex.from_offset(col, row_index + 1 - col % 2)
