"""The package's own data files, read without importing :mod:`importlib.resources`.

``asl-fire odds`` reads two of them at every start (the position schema, and the
demo scenario when asked for ``demo``); :mod:`importlib.resources` pulls in
:mod:`zipfile`, :mod:`pathlib` and more, about 10 ms per start.  The loader that
imported the package can read its files itself, from a folder or a zip archive alike.
"""

from __future__ import annotations

import os
import sys

__all__ = ["read_text"]


def read_text(package: str, name: str) -> str:
    """The UTF-8 text of data file *name* (``/``-separated) of the imported *package*.

    Newlines are read as ``\\n`` whatever the file has, as text files are.

    >>> read_text("asl_vassal_bridge", "scenarios/demo.toml").startswith("#")
    True
    """
    module = sys.modules[package]
    get_data = getattr(module.__spec__.loader, "get_data", None) if module.__spec__ else None
    if get_data is None or module.__file__ is None:  # pragma: no cover - a loader without files of its own
        from importlib import resources

        return resources.files(package).joinpath(name).read_text("utf-8")
    data: bytes = get_data(os.path.join(os.path.dirname(module.__file__), *name.split("/")))
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
