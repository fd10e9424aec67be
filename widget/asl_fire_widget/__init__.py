"""A Jupyter/Voilà widget for the ASL fire rules (B25) on a map, built on ``asl_vassal_bridge.core``.

>>> from asl_fire_widget import FireWidget   # doctest: +SKIP
>>> FireWidget.demo(seed=1)                  # doctest: +SKIP

See ``examples/fire_widget.ipynb``.
"""

from __future__ import annotations

from .attacks import AttackForm, AttackPreview, HobForm, HobPreview
from .state import KINDLERS, TOOLS, FireSession, HoverInfo, LoadError
from .widget import LAYERS, FireWidget

__all__ = ["KINDLERS", "LAYERS", "TOOLS", "AttackForm", "AttackPreview", "FireSession", "FireWidget", "HobForm",
           "HobPreview", "HoverInfo", "LoadError"]
