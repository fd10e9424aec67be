"""Board overlays applied to a board's terrain as VASL 6.7.x applies them to its LOS model.

A scenario puts overlays on boards (a hill, woods, a building, a stream…);
VASL's board picker keeps them in the board entry of the saved game
(:attr:`~asl_vassal_bridge.vasl.vsav.BoardEntry.overlays`: name, hex 1,
hex 2) and since 6.6.4 its ``ASLMap.adjustLOSForOverlays`` puts them into
its LOS model (vasl-developers/vasl #1088, #1439).  The art of an overlay
lives in an archive of VASL's ``boards/overlays`` folder (``ovrX`` holds
``x1`` … ``x30``), one picture per orientation ``a`` … ``f``; its ``data``
file names, per overlay, the hex whose centre lies where the picture's
top-left pixel does, per orientation (VASL ``Overlay``).  VASL places the
picture's top-left corner at hex 1's point less that origin hex's point, both
in whole pixels as VASL's board grid gives them (``ASLHexGrid.getLocation``:
the ``A1CenterX``/``A1CenterY`` origin cut to whole pixels, each offset from
it rounded on its own: a pixel off the rounded centre on odd columns, bd03
P5 at y 322 where its centre is at 322.5).  This module does what VASL
6.7.x does, in two passes per overlay, on the board's own pixel
grids (before crop and reversal), then lets the board reader derive every
hex from the changed pixels (:func:`~asl_vassal_bridge.vasl.board.derive_hexes`,
VASL's final ``Map.resetHexTerrain``):

1. *Pixels* (``updateTerrainElevationGridsforOverlays``).  Every opaque
   pixel of the picture gets the terrain and level its colour has in the
   board's colour table (SharedBoardMetadata's ``<colors>``, the board's
   own ``<colors>`` winning).  A colour with no terrain or no level takes
   the one of the nearest usable colour of the picture (VASL's
   ``getOverlayNearestColor``: diagonal steps 2–6), white meaning Open
   Ground at level 0 and nothing found leaving the board's own terrain or
   level.  A transparent pixel takes the terrain of the first picture
   pixel 2, 4, 6 or 8 pixels away diagonally, if that one is opaque, and is
   left alone otherwise (or on the picture's edge, next to a transparent
   edge pixel).  Depression terrain (gully, stream, sunken road…) lies at
   level −1; building colours on a numbered ``x`` overlay become that
   overlay's building type (``x1`` stone, ``x3`` wooden, ``x8`` two-level
   stone…).  With elevation preserved (the overlay's fourth token
   ``true``), open colours become transparent (or the board's open colour
   where the board shows other terrain: VASL ``Overlay.transform``) and
   every level stays the board's.
2. *Hexes* (``updateHexGridforOverlayTerrain``).  Over a window the size of
   the board's grid (its crop window on a cropped board) from the picture's
   top-left corner, clipped to the board (VASL walks that far, not only the
   picture; a picture reaching off the board's top or left edge leaves the
   last rows or columns out: st1 on bd04 Q3–Q4 ends the window at y 484, and
   Q9 keeps its Open Ground at level 0), a hex whose centre has inherent
   terrain (orchard, rubble…) within 25 pixels is filled with it, and its
   six hexside points too; then the highest level drawn in every hex
   touched (−1 where it holds depression pixels all round) is written at
   its centre point, in the grid VASL checks LOS on (VASL 6.7.x's
   ``Hex.resetTerrain`` reads a hex's level one pixel off the centre: the
   hexes are derived without those points); a hex whose centre Location
   the pass leaves remembering a depression is named in
   :attr:`OverlayResult.depressions`.

Then VASL rebuilds its hillocks and dier lips from the grid (the hex reader
reads the same Hillock and Dier Lip pixels).

VASL skips underlays (no name), ``NoCliffs``, ``LightWoods`` and
``RB_Gutted`` overlays (its SSR code handles those); VASL 6.7.0–6.7.1 also
skipped most ``BSO`` board-specific overlays, 6.7.2 on does not.  Rice
paddy overlays are applied as VASL applies them, but VASL 6.7.x checks no
LOS rule of rice paddies (#1439): :data:`RICE_PADDY_NOTE`.

Whole-array numpy: no per-pixel Python loop but over the few pixels an
elevation-preserving overlay recolours.

One module per step: :mod:`.overlay_placement` (archives, pictures, where
VASL puts them), :mod:`.overlay_pixel_pass`, :mod:`.overlay_hex_pass`,
:mod:`.overlay_drawing` (the pictures on the board art); this module applies
them in VASL's order and says what was applied.  Every name is importable
from here as before.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.values import replace
from .board import LOSData, VaslBoard, VaslModel, derive_hexes, reversed_board, vasl_centres
from .overlay_drawing import covered_hexes, overlay_art
from .overlay_hex_pass import edge_points, hex_pass, hex_pass_window, hex_pixels
from .overlay_pixel_pass import (
    NO_ELEVATION,
    ColourTable,
    board_colours,
    pixel_pass,
    preserve_transform,
    rgb_of,
    terrain_luts,
)
from .overlay_placement import (
    MAX_OVERLAY_PIXELS,
    BoardGrid,
    OverlayArchive,
    OverlayError,
    PlacedOverlay,
    archive_name,
    find_overlay_archive,
    image_member,
    is_rice_paddy,
    overlay_dirs,
    overlay_label,
    overlay_terrain_type,
    place_overlay,
    skip_reason,
)
from .terrain import TerrainTable

__all__ = [
    "MAX_OVERLAY_PIXELS",
    "NO_ELEVATION",
    "RICE_PADDY_NOTE",
    "BoardGrid",
    "ColourTable",
    "OverlayArchive",
    "OverlayError",
    "OverlayResult",
    "PlacedOverlay",
    "apply_entry",
    "apply_overlays",
    "archive_name",
    "board_colours",
    "covered_hexes",
    "entry_notes",
    "find_overlay_archive",
    "image_member",
    "is_rice_paddy",
    "overlay_art",
    "overlay_dirs",
    "overlay_terrain_type",
    "place_overlay",
    "plan_notes",
    "skip_reason",
]

#: One line said wherever a rice paddy overlay is applied.
RICE_PADDY_NOTE = ("VASL 6.7.x checks no LOS rule of rice paddies (vasl-developers/vasl #1439): their pixels are "
                   "in its model, their banks and B.8/G8 rules are not")


# --- applying ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class OverlayResult:
    """A board with its overlays applied: the overlays applied, those left out with why, and notes to show."""

    board: VaslBoard
    applied: tuple[PlacedOverlay, ...] = ()
    not_applied: tuple[tuple[str, str], ...] = ()
    #: Hex → the depression terrain VASL's hex pass leaves its centre Location remembering (VASL 6.7.x's
    #: ``Hex.resetTerrain`` makes a remembered depression the centre terrain again; the hex reader starts from it).
    depressions: Mapping[str, str] = field(default_factory=dict)

    def notes(self) -> list[str]:
        """One line per fact a player must see: what was applied, what not and why, and rice paddies."""
        return _board_notes(self.board.name, [o.label() for o in self.applied], self.not_applied,
                            any(is_rice_paddy(o.name) for o in self.applied))


def apply_overlays(board: VaslBoard, overlays: Sequence[Any], dirs: Iterable[Path | str], *,
                   reversed_: bool = False, crop: tuple[int, int, int, int] | None = None,
                   ssr: str = "") -> OverlayResult:
    """*board* with *overlays* (each with ``name``, ``hex1``, ``hex2``, ``preserve_elevation``, as
    :class:`~asl_vassal_bridge.vasl.vsav.BoardOverlay`) applied as VASL 6.7.x applies them, in order.

    Overlay archives are looked up in *dirs* (:func:`overlay_dirs` of the boards folder).  An overlay VASL
    skips (:func:`skip_reason`) or whose archive is missing is left out and named with why in
    :attr:`OverlayResult.not_applied`; the others are applied.

    :raises OverlayError: naming the board and overlay VASL could not have placed (a hex off the board, no
        picture for its orientation, no origin in the archive's data file): nothing is applied then.

    *reversed_* and *crop* are the board entry's (VASL's hex pass walks other pixels on a reversed board);
    *ssr* its SSR tokens (``Bamboo`` turns an overlay's brush into bamboo).
    """
    dirs = tuple(dirs)
    if not overlays:
        return OverlayResult(reversed_board(board, crop) if reversed_ else board)
    table = board.table
    placed: list[PlacedOverlay] = []
    not_applied: list[tuple[str, str]] = []
    archives: dict[str, OverlayArchive] = {}
    for o in overlays:
        name, hex1, hex2 = str(o.name), str(o.hex1), str(o.hex2)
        label = overlay_label(o)
        why = skip_reason(name)
        if why is not None:
            not_applied.append((label, why))
            continue
        path = find_overlay_archive(dirs, name)
        if path is None:
            not_applied.append((label, _missing(name, dirs)))
            continue
        arc = archives.get(str(path)) or OverlayArchive.read(path)
        archives[str(path)] = arc
        try:
            placed.append(place_overlay(board, name, hex1, hex2 or hex1, arc,
                                        bool(getattr(o, "preserve_elevation", False))))
        except OverlayError as e:
            raise OverlayError(f"board {board.name}: overlay {label}: {e}") from None
    if not placed:
        return OverlayResult(reversed_board(board, crop) if reversed_ else board, (), tuple(not_applied))
    luts = terrain_luts(table)
    colours = ColourTable.build(table, board_colours(board))
    shared = ColourTable.build(table)
    ter = board.los.terrain.copy()
    elev = board.los.elevation.copy()
    board_rgb: npt.NDArray[np.int64] | None = None
    if any(p.preserve_elevation for p in placed) and board.image:
        from PIL import Image
        try:
            board_rgb = rgb_of(np.asarray(Image.open(io.BytesIO(board.image)).convert("RGBA")))
        except (OSError, ValueError):
            board_rgb = None
    # pass 1 (before VASL flips a reversed board), then pass 2 (on the hex grid), overlay by overlay each
    rgbas = [(preserve_transform(p, board_rgb, shared, table, luts) if p.preserve_elevation else p.rgba)
             for p in placed]
    for p, rgba in zip(placed, rgbas, strict=True):
        pixel_pass(ter, elev, p, rgba, colours, table, luts, ssr)
    pts = vasl_centres(board.geometry)
    edges = edge_points(pts)
    remembered = np.full(len(pts.los), -1, dtype=np.int64)
    geo = board.geometry
    polygons = hex_pixels(pts, np.arange(len(pts.los), dtype=np.int64), geo.grid_width, geo.grid_height,
                           geo.hex_height)
    centre_levels: dict[int, int] = {}
    for p in placed:
        hex_pass(board, ter, elev, p, table, luts, hex_pass_window(p, board, reversed_, crop), pts, edges, remembered,
                  polygons, centre_levels)
    old = board.los
    read = LOSData(old.width, old.height, old.grid_width, old.grid_height, ter, elev, old.stairways)
    hexes, buildings = derive_hexes(read, board.geometry, table, board.metadata, board.source, remembered,
                                    reversed_=reversed_, crop=crop, model=board.model)
    elev_los = elev.copy()
    for i, lv in centre_levels.items():
        elev_los[pts.los[i, 1], pts.los[i, 0]] = lv
    los = LOSData(old.width, old.height, old.grid_width, old.grid_height, ter, elev_los, old.stairways)
    names = [nm for _, _, nm in board.geometry.hexes()]
    kept = {names[i]: table[int(c)].name for i, c in enumerate(remembered) if c >= 0}
    return OverlayResult(replace(board, los=los, hexes=hexes, buildings=buildings), tuple(placed), tuple(not_applied),
                         kept)


# --- a saved game's board entry ------------------------------------------------------------

def _board_notes(board: str, applied: Sequence[str], not_applied: Sequence[tuple[str, str]], rice: bool) -> list[str]:
    out: list[str] = []
    if applied:
        out.append(f"board {board}: overlay{'s' if len(applied) > 1 else ''} {', '.join(applied)} applied to the "
                   "terrain as VASL 6.7.x applies them")
    for what, why in not_applied:
        out.append(f"board {board}: overlay {what} not applied to the terrain: {why}")
    if rice:
        out.append(f"board {board}: {RICE_PADDY_NOTE}")
    return out


def plan_notes(entry: Any, dirs: Iterable[Path | str]) -> list[str]:
    """What :func:`apply_overlays` will say of a board entry's overlays, without reading any picture: which are
    applied, which not and why (VASL skips it, or its archive is not in *dirs*)."""
    dirs = tuple(dirs)
    applied: list[str] = []
    left: list[tuple[str, str]] = []
    rice = False
    for o in entry.overlays:
        why = skip_reason(str(o.name))
        if why is None and find_overlay_archive(dirs, str(o.name)) is None:
            why = _missing(str(o.name), dirs)
        if why is None:
            applied.append(overlay_label(o))
            rice = rice or is_rice_paddy(str(o.name))
        else:
            left.append((overlay_label(o), why))
    return _board_notes(entry.name, applied, left, rice)


def _missing(name: str, dirs: Sequence[Path | str]) -> str:
    where = ", ".join(str(d) for d in dirs) or "no folder"
    return f"its archive {archive_name(name)} is not in {where} (VASL's boards/overlays folder holds it)"


def entry_notes(entry: Any, table: TerrainTable | None, dirs: Iterable[Path | str] | None,
                model: VaslModel = "6.7") -> list[str]:
    """Every note of a board entry read from the board archives: SSR tokens VASL cannot apply, then its overlays
    (:func:`plan_notes`; with no overlay folder known, every overlay is named as not applied; read as the VASL of
    2020 reads it, *model* ``"2020"``, every overlay is named as not in that VASL's terrain model)."""
    out: list[str] = []
    ssr = entry.overlay_note(table)
    if ssr:
        out.append(ssr)
    if model == "2020":  # VASL's terrain model takes overlays in since 6.6.4 (VASL issues #1088, #1439)
        return out + [f"board {entry.name}: overlay {overlay_label(o)} not applied to the terrain: the VASL of 2020 "
                      "puts no overlay in its terrain model" for o in entry.overlays]
    if dirs is None:
        for o in entry.overlays:
            out.append(f"board {entry.name}: overlay {overlay_label(o)} not applied to the terrain: no VASL boards "
                       "folder (its overlays/ folder holds the overlay archives)")
        return out
    return out + plan_notes(entry, dirs)


def apply_entry(board: VaslBoard, entry: Any, boards_dir: Path | str | None) -> tuple[VaslBoard, list[str]]:
    """*board* as VASL 6.7.x's LOS model holds it for a saved game's board entry: its SSR terrain changes
    (:func:`~asl_vassal_bridge.vasl.ssr.apply_ssr`), then its overlays (archives in *boards_dir*'s
    ``overlays/`` folder), with the notes to show the player (:func:`entry_notes`).  A board read as the VASL of
    2020 reads it (``board.model == "2020"``) gets its SSR changes only: that VASL's model has no overlays.

    :raises OverlayError: for an overlay VASL could not have placed (a hex off the board, no picture).
    """
    from .ssr import apply_ssr

    b = apply_ssr(board, entry.ssr).board
    dirs = overlay_dirs(boards_dir) if boards_dir is not None else None
    notes = entry_notes(entry, board.table, dirs, board.model)
    if dirs is None or not entry.overlays or board.model == "2020":
        return (reversed_board(b, entry.crop) if entry.reversed else b), notes
    res = apply_overlays(b, entry.overlays, dirs, reversed_=bool(entry.reversed), crop=entry.crop, ssr=entry.ssr)
    return res.board, notes
