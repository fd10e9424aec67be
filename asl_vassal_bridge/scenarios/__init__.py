"""Scenarios embedded in the package (position files)."""

from __future__ import annotations

from importlib import resources

from ..core.position import Position
from ..posfile import loads

__all__ = ["demo_position", "demo_text"]


def demo_text() -> str:
    """The demo scenario's position file text."""
    return resources.files(__name__).joinpath("demo.toml").read_text("utf-8")


def demo_position() -> Position:
    """The embedded demo scenario: a burning village in a dry summer with a Mild Breeze."""
    return loads(demo_text(), "demo.toml (embedded)")
