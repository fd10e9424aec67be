"""A saved game of real VASL unit counters on the real bd01, and a ``VASL.vmod`` for it, built from ``../shared/vasl``.

The pieces are the real saved game's (``saves/basic.vsav``: a Russian half-squad over its squad face, a 6+1
leader, a Komsomolets), with their own traits, put on bd01; VASL's own CX counter (the 6.5 buildFile's slot
gpid 4) lies on the half-squad. The module holds the real 6.5 buildFile and SharedBoardMetadata.xml; VASL's
images themselves are not in ``../shared``, so each image the pieces name is a plain square of its own
colour (:data:`COLOURS`), enough to see which picture was drawn where.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from asl_vassal_bridge.core import Hex
from asl_vassal_bridge.vasl.module import read_module
from asl_vassal_bridge.vasl.position import DEFAULT_EDGE
from asl_vassal_bridge.vasl.traits import Trait, encode_sequence, encode_traits
from asl_vassal_bridge.vasl.vsav import read_vsav
from tests.conftest import shared_vasl_file
from tests.vasl.builders import make_vsav

#: Each image of the test module and its colour (the half-squad's face is drawn over its squad's).
COLOURS: dict[str, tuple[int, int, int]] = {
    "ru/ru426S": (20, 160, 20),  # the squad face under the half-squad's
    "ru/ru226H": (230, 40, 200),  # the half-squad's face: what the player sees
    "ru/ruL61": (250, 230, 0),  # the 6+1 leader
    "ru/veh/kom": (30, 60, 230),  # the Komsomolets
    "MS/cx": (250, 250, 250),
}
#: Where the pieces lie: (basic.vsav's piece id, hex of bd01).
PLACES = {"1563772771923": "E5", "1563772786362": "E5", "1563772843353": "H6"}
HALF_SQUAD, LEADER, VEHICLE = "1563772771923", "1563772786362", "1563772843353"


def _square(rgb: tuple[int, int, int], side: int = 48, fmt: str = "GIF") -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (side, side), rgb).save(buf, fmt)
    return buf.getvalue()


def _at(name: str) -> tuple[int, int]:
    x, y = Hex.parse(name).pixel()
    return int(x) + DEFAULT_EDGE[0], int(y) + DEFAULT_EDGE[1]


def _moved(traits: tuple[Trait, ...], x: int, y: int) -> tuple[str, str]:
    t = list(traits)
    st = t[-1].state_fields
    t[-1] = Trait(t[-1].type, encode_sequence(["Map0", str(x), str(y), *st[3:]], ";"))
    return encode_traits(t)


def write_game(folder: Path, *, cx: bool = True) -> Path:
    """The saved game (``units.vsav`` in *folder*): the real pieces on bd01, VASL's CX counter on the half-squad."""
    real = {p.id: p for p in read_vsav(shared_vasl_file("saves", "basic.vsav")).pieces}
    pieces, stacks = [], []
    for pid, hexname in PLACES.items():
        pieces.append((pid, *_moved(real[pid].traits, *_at(hexname))))
    members = [HALF_SQUAD, LEADER]
    if cx:
        slot = read_module(shared_vasl_file("buildFile-6.5.xml")).by_gpid["4"]
        pieces.append(("cx1", *_moved(slot.traits, *_at("E5"))))
        members.insert(1, "cx1")  # over the half-squad, under the leader
    stacks.append(("s1", members, *_at("E5")))
    path = folder / "units.vsav"
    path.write_bytes(make_vsav(pieces, boards="bd\t0\t0\t01", stacks=stacks))
    return path


def write_module(folder: Path, *, images: dict[str, tuple[int, int, int]] | None = None) -> Path:
    """``VASL.vmod`` in *folder*: the real 6.5 buildFile and terrain types, and an image per name of *images*."""
    path = folder / "VASL.vmod"
    with zipfile.ZipFile(path, "w") as z:
        z.write(shared_vasl_file("buildFile-6.5.xml"), "buildFile.xml")
        z.write(shared_vasl_file("SharedBoardMetadata.xml"), "boardData/SharedBoardMetadata.xml")
        for name, rgb in (COLOURS if images is None else images).items():
            z.writestr(f"images/{name}.gif", _square(rgb))
    return path


def write_boards(folder: Path) -> Path:
    """A boards folder with the real bd01."""
    d = folder / "boards"
    d.mkdir(exist_ok=True)
    (d / "bd01").write_bytes(shared_vasl_file("boards", "bd01").read_bytes())
    return d
