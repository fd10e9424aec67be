"""Test builders: LOSData streams and saved games made the way VASSAL writes them."""

from __future__ import annotations

import gzip
import io
import struct
import zipfile
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from asl_vassal_bridge.vasl.module import PieceSlot
from asl_vassal_bridge.vasl.traits import Trait, encode_sequence, encode_traits
from asl_vassal_bridge.vasl.vsav import obfuscate


def java_block_stream(payload: bytes) -> bytes:
    """Java ObjectOutputStream framing: header, then 1024-byte block-data records."""
    out = bytearray(b"\xac\xed\x00\x05")
    for i in range(0, len(payload), 1024):
        chunk = payload[i:i + 1024]
        if len(chunk) >= 256:
            out += b"\x7a" + struct.pack(">i", len(chunk))
        else:
            out += bytes([0x77, len(chunk)])
        out += chunk
    return bytes(out)


def make_losdata(width: int, height: int, terrain: npt.NDArray[np.uint8], elevation: npt.NDArray[np.int8],
                 stairs: Sequence[int] | None = None) -> bytes:
    """A gzipped LOSData for a [y, x] terrain and elevation grid."""
    gh, gw = terrain.shape
    grid = np.empty((gw, gh, 2), dtype=np.uint8)
    grid[:, :, 0] = elevation.T.view(np.uint8)
    grid[:, :, 1] = terrain.T
    n = sum(height + (c % 2) for c in range(width))
    st = bytes(stairs) if stairs is not None else bytes(n)
    payload = struct.pack(">4i", width, height, gw, gh) + grid.tobytes() + st
    return gzip.compress(java_block_stream(payload))


def board_zip(metadata: bytes, losdata: bytes, extra: dict[str, bytes] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("BoardMetadata.xml", metadata)
        z.writestr("LOSData", losdata)
        for k, v in (extra or {}).items():
            z.writestr(k, v)
    return buf.getvalue()


def placed(slot: PieceSlot, x: int, y: int, *, layer: int | None = None, hide_by: str | None = None) -> tuple[str, str]:
    """(type, state) of a palette slot's piece put on Map0 at (x, y), optionally on another layer or hidden."""
    traits = list(slot.traits)
    basic = traits[-1]
    f = basic.state_fields
    traits[-1] = Trait(basic.type, encode_sequence(["Map0", str(x), str(y), *f[3:]], ";"))
    if layer is not None:
        for i in range(len(traits) - 2, -1, -1):
            if traits[i].id == "emb2" and "," in traits[i].fields[16]:
                traits[i] = Trait(traits[i].type, str(layer))
                break
    if hide_by is not None:
        hide = Trait("hide;72,130;HIP;;player:;0.3", hide_by)
        traits.insert(0, hide)
    return encode_traits(traits)


def make_vsav(pieces: Sequence[tuple[str, str, str]], boards: str = "bd\t",
              stacks: Sequence[tuple[str, Sequence[str], int, int]] = ()) -> bytes:
    """A .vsav zip: pieces are (id, type, state); *boards* the VASL bd line."""
    cmds = [encode_sequence(["+", pid, t, s], "/") for pid, t, s in pieces]
    for sid, members, x, y in stacks:
        cmds.append(encode_sequence(["+", sid, "stack", encode_sequence(["Map0", str(x), str(y), *members], ";")], "/"))
    text = encode_sequence(["begin_save", "", encode_sequence(cmds, "\x1b"), boards, "end_save"], "\x1b")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("savedGame", obfuscate(text))
        z.writestr("moduledata", "<data><version>6.5-beta3</version></data>")
    return buf.getvalue()


# --- Board archives for VASL's hex-terrain rules ------------------------------------------------

#: A few real VASL terrain types (name, typeCode, LOSCategory, isInherentTerrain), as in SharedBoardMetadata.xml.
TERRAIN_TYPES: tuple[tuple[str, int, str, bool], ...] = (
    ("Open Ground", 0, "OPEN", False), ("Gully", 30, "DEPRESSION", False),
    ("Shallow Stream", 32, "DEPRESSION", False), ("Stone Building", 40, "BUILDING", False),
    ("Stone Market Place", 49, "MARKETPLACE", False), ("Wooden Building", 50, "BUILDING", False),
    ("Woods", 60, "WOODS", False), ("Orchard", 63, "OTHER", True), ("Dirt Road", 65, "ROAD", False),
    ("Single Hex Stone Bridge", 82, "BRIDGE", False), ("Olive Grove", 118, "OTHER", True),
)


def terrain_types_xml(types: Sequence[tuple[str, int, str, bool]] = TERRAIN_TYPES) -> bytes:
    """A SharedBoardMetadata-style ``<terrainTypes>`` block of *types*."""
    rows = "".join(f'<terrainType name="{n}" typeCode="{c}" LOSCategory="{cat}" '
                   f'isInherentTerrain="{str(inh).upper()}" height="0"/>' for n, c, cat, inh in types)
    return f"<terrainTypes>{rows}</terrainTypes>".encode()


def code_of(name: str) -> int:
    return next(c for n, c, _, _ in TERRAIN_TYPES if n == name)


def blank_grid(width: int, height: int, hex_width: float = 56.25,
               hex_height: float = 64.5) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int8]]:
    """Open Ground at level 0 for a board of width × height hexes, sized as VASL does ((w − 1) × h hexes)."""
    shape = (round(height * hex_height), round((width - 1) * hex_width))
    return np.zeros(shape, dtype=np.uint8), np.zeros(shape, dtype=np.int8)


def board_archive(terrain: npt.NDArray[np.uint8], elevation: npt.NDArray[np.int8], width: int, height: int,
                  name: str = "t", attrs: str = "") -> bytes:
    """A board archive (BoardMetadata.xml + LOSData) of that grid."""
    meta = f'<boardMetadata name="{name}" version="1" width="{width}" height="{height}" {attrs}/>'.encode()
    return board_zip(meta, make_losdata(width, height, terrain, elevation))


def _disk(grid: npt.NDArray[Any], cx: float, cy: float, r: float, value: int) -> None:
    ys, xs = np.ogrid[:grid.shape[0], :grid.shape[1]]
    grid[(xs - cx) ** 2 + (ys - cy) ** 2 <= r * r] = value


#: Hex centres (board pixels) of the SSR test board (7 × 4 geomorphic hexes, columns A–G).
SSR_BOARD_CENTRES = {"B2": (56.25, 129.0), "B3": (56.25, 193.5), "C2": (112.5, 96.75), "C3": (112.5, 161.25),
                     "D2": (168.75, 129.0), "E2": (225.0, 96.75), "E3": (225.0, 161.25), "F2": (281.25, 129.0),
                     "F3": (281.25, 193.5)}


def ssr_board(code: Callable[[str], int]) -> bytes:
    """A 7 × 4-hex board archive painted with the terrain VASL's SSR rules change, in the codes *code* gives
    (VASL's real SharedBoardMetadata): woods with a pond (C2) beside marsh (D2), brush (B2), grain (E2), an
    orchard (C3), a road through a woods hexside (E3), a two-story stone building split by a rowhouse wall (F2),
    a single-hex stone bridge over a shallow stream at level −1 (B3) and a hill of levels 1–2 (F3)."""
    ter, elev = blank_grid(7, 4)
    c = SSR_BOARD_CENTRES
    _disk(ter, *c["C2"], 26, code("Woods"))
    ter[85:92, 95:102] = code("Water")
    _disk(ter, *c["D2"], 26, code("Marsh"))
    _disk(ter, *c["B2"], 24, code("Brush"))
    _disk(ter, *c["E2"], 24, code("Grain"))
    _disk(ter, *c["C3"], 20, code("Orchard"))
    ter[129:151, 200:251] = code("Woods")  # over E3's top hexside point (225, 130)
    ter[155:168, 190:261] = code("Dirt Road")  # across E3's centre
    ter[105:153, 255:308] = code("Stone Building, 1 Level")
    ter[105:153, 279:284] = code("Rowhouse Wall, 1 Level")  # through F2's centre
    ter[150:258, 40:73] = code("Shallow Stream")
    elev[150:258, 40:73] = -1
    ter[186:201, 30:83] = code("Single Hex Stone Bridge")
    elev[186:201, 30:83] = 0
    _disk(elev, *c["F3"], 30, 1)
    _disk(elev, *c["F3"], 12, 2)
    meta = ('<boardMetadata name="SSRT" version="1" boardImageFileName="bdSSRT.gif" hasHills="TRUE" width="7" '
            'height="4" hexWidth="56.25" hexHeight="64.5" A1CenterX="0" A1CenterY="32.25"><buildingTypes/><colors/>'
            '<colorSSRules/><overlaySSRules/></boardMetadata>')  # what VASL's BoardMetadata parser needs
    return board_zip(meta.encode(), make_losdata(7, 4, ter, elev))
