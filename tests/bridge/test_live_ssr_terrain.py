"""A map whose board has colour SSRs and an overlay, through the real VASSAL engine on the stand-ins of VASL 6.7.x's
map building: the stand-in applies the board's SSR rules (VASL's real SharedBoardMetadata ``LOSSSRule``s of type
terrainMap, in the module as VASL has it), then the overlay's picture (its archive in the module, its colours
through SharedBoardMetadata's colours) to the board's pixels before placing them, in the order of 6.7.x's
``BoardArchive.addLOSDatatoVASLMap`` (tests/support/java/README.md).  The live bridge's terrain then equals the
board-archive readers' map of the same snapshot (``game_map_from_boards``: archives painted as the stand-in boards
are described, VASL's SharedBoardMetadata beside them, the same overlay archive in ``overlays/``), hex for hex, the
SSR's and the overlay's changes included.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from asl_vassal_bridge.bridge import snapshot as bridge_snapshot
from asl_vassal_bridge.bridge.client import BridgeClient
from asl_vassal_bridge.core.terrain import Terrain
from asl_vassal_bridge.vasl.board import BoardGeometry, default_terrain_table
from asl_vassal_bridge.vasl.board_hexes import _labels
from asl_vassal_bridge.vasl.setup import VaslSetup
from tests.conftest import shared_vasl_file
from tests.support import vassal_harness as vh
from tests.vasl.builders import board_zip, make_losdata
from tests.vasl.test_overlays import disc, gif, picture

from .conftest import _with_extension, started_player

pytestmark = [pytest.mark.vassal, pytest.mark.slow]

BOARDS = (vh.BoardAt("bd01", 0, 0), vh.BoardAt("bd03", 1, 0))
#: bd01 with two colour SSRs VASL's SharedBoardMetadata defines (Woods → Brush, Grain → Open Ground); bd03 none.
SSR = "WoodsToBrush NoGrain"
TERRAIN = {
    "bd01": f"#ssr\t{SSR}\n#overlay\twd9\tF4\tF4\nC2\tWoods\nC3\tWoods\nD3\tWoods\t1\nE5\tGrain\nE6\tGrain\nH2\tBrush\n"
            "G4\tWooden Building\nK5\tOrchard\nM7\tOpen Ground\t1\n",
    "bd03": "C2\tWoods\nE5\tGrain\nH2\tBrush\n",
}
#: Overlay wd9 (archive ovrWD): a disc of VASL's WoodsGreen around its origin hex B2 (56, 129), placed on bd01 F4.
WOODS_GREEN = (85, 95, 45)


def _overlay_archive() -> bytes:
    p = picture(200, 260)
    disc(p, WOODS_GREEN, 56, 129, 45)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("data", "wd9 b2;b1;c1;d1;d2;c3\n\nversion 1\n")
        z.writestr("ovrwd9a.gif", gif(p))
    return out.getvalue()


GEO = BoardGeometry(33, 10, vh.BOARD_WIDTH, vh.BOARD_HEIGHT, 56.25, 64.5, 0.0, 32.25)


def _archive(description: str, shared: Path) -> bytes:
    """A board archive whose every pixel has the terrain and level its nearest hex centre is described with."""
    table = default_terrain_table(shared.parent)
    described = {f[0]: (f[1], int(f[2]) if len(f) > 2 else 0)
                 for f in (line.split("\t") for line in description.splitlines()) if f[0] and not f[0].startswith("#")}
    hexes = GEO.hexes()
    codes = np.array([table.code_of(described.get(n, ("Open Ground", 0))[0]) for _, _, n in hexes], dtype=np.uint8)
    levels = np.array([described.get(n, ("Open Ground", 0))[1] for _, _, n in hexes], dtype=np.int8)
    labels, _ = _labels(GEO)
    meta = ('<boardMetadata name="t" version="1" width="33" height="10" hexWidth="56.25" hexHeight="64.5" '
            'A1CenterX="0" A1CenterY="32.25"><buildingTypes/><colors/><colorSSRules/><overlaySSRules/>'
            '</boardMetadata>')
    return board_zip(meta.encode(), make_losdata(33, 10, codes[labels], levels[labels]))


@pytest.fixture(scope="module")
def sara(module_with_extension: Path, support_jar: Path, xvfb: vh.Xvfb, engine_dir: Path) -> Iterator[BridgeClient]:
    shared = shared_vasl_file("SharedBoardMetadata.xml")
    mod = vh.build_module(engine_dir / "ssr.vmod", board_class=vh.VASL_BOARD, boards=[b.name for b in BOARDS],
                          terrain=TERRAIN, files={"boardData/SharedBoardMetadata.xml": shared.read_bytes(),
                                                  "standin-overlays/ovrWD": _overlay_archive()})
    _with_extension(mod, module_with_extension)
    pieces = [vh.GamePiece("flame-bd01M4", "M4", gpid="192", board="bd01")]
    with started_player("sara", mod, support_jar, xvfb.display, engine_dir / "ssr", pieces=pieces,
                        boards=BOARDS) as (_, client):
        yield client


def test_the_live_terrain_with_ssr_equals_the_archive_readers_map(sara: BridgeClient, tmp_path: Path) -> None:
    shared = shared_vasl_file("SharedBoardMetadata.xml")
    boards_dir = tmp_path / "boards"
    boards_dir.mkdir()
    (boards_dir / "SharedBoardMetadata.xml").write_bytes(shared.read_bytes())
    for name, description in TERRAIN.items():
        (boards_dir / name).write_bytes(_archive(description, boards_dir / "SharedBoardMetadata.xml"))
    (boards_dir / "overlays").mkdir()
    (boards_dir / "overlays" / "ovrWD").write_bytes(_overlay_archive())
    snap = sara.snapshot()
    (m,) = snap["maps"]
    assert "error" not in m["terrain"] and m["vasl_model"] == "6.7"
    entries = bridge_snapshot.board_entries(snap)
    assert [e.ssr for e in entries] == [SSR, ""]
    assert [(o.name, o.hex1, o.hex2) for o in entries[0].overlays if o.name] == [("wd9", "F4", "F4")]
    live = bridge_snapshot.game_map_from_snapshot(snap)
    archives = bridge_snapshot.game_map_from_boards(snap, VaslSetup(None, boards_dir))
    assert live is not None
    on = {b.name: b for b in live.layout.boards}
    compared = 0
    differ = []
    for h in live.hexes:
        named = bridge_snapshot.board_hex(live.layout, h)
        assert named is not None
        local = on[named[0]].to_local(h)
        assert local is not None
        if local.col in (0, 32) or local.row in (0, 10):
            continue  # an edge half hex: VASL keeps one board's, the archive reader the other's
        compared += 1
        ours, theirs = archives.info(h), live.info(h)
        if (ours.terrain, ours.elevation) != (theirs.terrain, theirs.elevation):
            differ.append((live.hex_name(h), theirs.terrain.name, ours.terrain.name))
    assert compared > 500 and not differ, differ[:10]
    layout = live.layout
    # the SSRs changed bd01 only: its woods are brush, its grain open ground, on both paths; the overlay (after the
    # SSRs) put woods on bd01 F4
    for name, terrain in (("bd01F4", Terrain.WOODS), ("bd01F3", Terrain.OPEN_GROUND), ("bd01C2", Terrain.BRUSH),
                          ("bd01D3", Terrain.BRUSH), ("bd01E5", Terrain.OPEN_GROUND), ("bd01H2", Terrain.BRUSH),
                          ("bd03C2", Terrain.WOODS), ("bd03E5", Terrain.GRAIN)):
        assert live.info(layout.parse(name)).terrain is terrain, name
        assert archives.info(archives.layout.parse(name)).terrain is terrain, name
    assert live.info(layout.parse("bd01D3")).elevation == 1
