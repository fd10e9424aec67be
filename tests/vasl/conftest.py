"""Shared fixtures: the real VASL files in ``../shared/vasl`` (skipped, with the reason, when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

VASL_DIR = Path(__file__).resolve().parents[2] / ".." / "shared" / "vasl"


def vasl_file(*parts: str) -> Path:
    """A file of the real VASL data, or skip the test saying which one is missing."""
    p = VASL_DIR.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"real VASL data {p} is absent (the shared/vasl folder beside the repo)")
    return p


@pytest.fixture(scope="session")
def vasl_dir() -> Path:
    if not VASL_DIR.is_dir():
        pytest.skip(f"real VASL data folder {VASL_DIR} is absent")
    return VASL_DIR
