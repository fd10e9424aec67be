"""Scenarios embedded in the package (position files)."""

from __future__ import annotations

from .._packagedata import read_text
from ..core.position import Position
from ..posfile import loads

__all__ = ["demo_position", "demo_text"]


def demo_text() -> str:
    """The demo scenario's position file text."""
    return read_text(__name__, "demo.toml")


def demo_position() -> Position:
    """The embedded demo scenario: a burning village in a dry summer with a Mild Breeze."""
    return loads(demo_text(), "demo.toml (embedded)")
