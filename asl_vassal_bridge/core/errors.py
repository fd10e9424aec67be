"""The base of every bad-input error the project raises.

Each subclass names what went wrong; each message names the file, hex or
field and what was expected.  The CLI prints them without a traceback.
"""

from __future__ import annotations

__all__ = ["BadInput", "IllegalAction"]


class BadInput(ValueError):
    """Input that does not fit: a file, a hex name, a field, a token."""


class IllegalAction(BadInput):
    """An action the rules forbid; the message names the rule (e.g. ``A22.5``)."""
