"""Shared test fixtures: where the real VASL data lives, and small position builders."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_VASL = SHARED / "vasl"


@pytest.fixture
def shared_vasl() -> Path:
    """The real VASL data folder (../shared/vasl); skips when absent."""
    if not SHARED_VASL.is_dir():
        pytest.skip(f"real VASL data not found at {SHARED_VASL} (it lives beside the repository in shared/vasl)")
    return SHARED_VASL
