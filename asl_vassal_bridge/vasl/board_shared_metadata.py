"""VASL's terrain types found for a board archive (a step of :mod:`.board`): the ``SharedBoardMetadata.xml`` (and
the 6.7 additions) beside the archive or named by ``$ASL_FIRE_SHARED_METADATA``."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from .safe import VaslFileError
from .terrain import TerrainTable

__all__ = ["NEWER_TYPES_NAMES", "SHARED_METADATA_NAMES", "default_terrain_table", "find_shared_metadata"]


SHARED_METADATA_NAMES = ("SharedBoardMetadata.xml",)


NEWER_TYPES_NAMES = ("SharedBoardMetadata-6.7-newer-terrain-types.xml",)


def find_shared_metadata(*dirs: Path) -> list[Path]:
    """SharedBoardMetadata.xml (and the 6.7 additions, if present) in *dirs* or their parents,
    else the file named by ``$ASL_FIRE_SHARED_METADATA``."""
    env = os.environ.get("ASL_FIRE_SHARED_METADATA")
    for d in dirs:
        for base in (d, d.parent):
            main = base / SHARED_METADATA_NAMES[0]
            if main.is_file():
                extra = [base / n for n in NEWER_TYPES_NAMES if (base / n).is_file()]
                return [main, *extra]
    if env and Path(env).is_file():
        base = Path(env).parent
        return [Path(env), *[base / n for n in NEWER_TYPES_NAMES if (base / n).is_file()]]
    return []


@lru_cache(maxsize=4)
def _cached_table(paths: tuple[str, ...]) -> TerrainTable:
    from .terrain import read_terrain_types
    return read_terrain_types(*paths)


def default_terrain_table(*dirs: Path) -> TerrainTable:
    """VASL's terrain types from the SharedBoardMetadata.xml beside *dirs*.

    :raises VaslFileError: when none is found (say where to put it).
    """
    found = find_shared_metadata(*dirs)
    if not found:
        where = ", ".join(str(d) for d in dirs)
        raise VaslFileError(f"no SharedBoardMetadata.xml in {where} or its parent folder, and "
                            "$ASL_FIRE_SHARED_METADATA is not set (VASL's terrain types are needed to decode LOSData; "
                            "it is in VASL's boardData folder)")
    return _cached_table(tuple(str(p) for p in found))
