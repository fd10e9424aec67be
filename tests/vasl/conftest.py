"""Shared fixtures: the real VASL files in ``../shared/vasl`` (skipped, with the reason, when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from asl_vassal_bridge.vasl.board import VaslBoard, read_board
from asl_vassal_bridge.vasl.terrain import TerrainTable, read_terrain_types
from tests.conftest import SHARED_VASL, shared_vasl_file

VASL_DIR = SHARED_VASL


def vasl_file(*parts: str) -> Path:
    """A file of the real VASL data, or skip the test (fail it under CI) saying which one is missing."""
    return shared_vasl_file(*parts)


@pytest.fixture(scope="session")
def vasl_dir() -> Path:
    return shared_vasl_file()


@pytest.fixture(scope="module")
def table() -> TerrainTable:
    """VASL's real terrain types (SharedBoardMetadata and the 6.7 additions)."""
    return read_terrain_types(vasl_file("SharedBoardMetadata.xml"),
                              vasl_file("SharedBoardMetadata-6.7-newer-terrain-types.xml"))


@pytest.fixture(scope="module")
def bd01(table: TerrainTable) -> VaslBoard:
    """VASL's real board 01, decoded."""
    return read_board(vasl_file("boards", "bd01"), table)

