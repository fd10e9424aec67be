"""Shared fixtures: the real VASL files in ``../shared/vasl`` (skipped, with the reason, when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED_VASL, shared_vasl_file

VASL_DIR = SHARED_VASL


def vasl_file(*parts: str) -> Path:
    """A file of the real VASL data, or skip the test (fail it under CI) saying which one is missing."""
    return shared_vasl_file(*parts)


@pytest.fixture(scope="session")
def vasl_dir() -> Path:
    return shared_vasl_file()
