"""The live bridge to VASSAL: the extension's py4j client, snapshot → Position, phases, batches.

Nothing here is imported by the rules core; the bridge depends on the core.
"""

from __future__ import annotations

from .client import BridgeClient, BridgeRefused, NotConnected, connect, default_connection_file
from .extension import build_extension

__all__ = ["BridgeClient", "BridgeRefused", "NotConnected", "build_extension", "connect", "default_connection_file"]
