"""asl-vassal-bridge: ASL's fire rules for VASL players.

The rules core (:mod:`asl_vassal_bridge.core`) is pure Python with no I/O;
readers for VASL's files (:mod:`asl_vassal_bridge.vasl`), position files
(:mod:`asl_vassal_bridge.posfile`), the live VASSAL bridge
(:mod:`asl_vassal_bridge.bridge`) and the CLI are built on it.
"""

#: The one version of the package and of the VASSAL extension it carries (``FireBridge.VERSION`` in Java).
__version__ = "0.4.0"
