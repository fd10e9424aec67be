"""Make the widget tests import ``asl_fire_widget`` from this checkout (``widget/``), whatever is installed.

An editable install made from another checkout would otherwise be tested instead.  The path is also
put in ``PYTHONPATH`` so the Voilà/JupyterLab kernels the browser test starts import the same copy.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

WIDGET_SRC = str(Path(__file__).resolve().parents[2] / "widget")

if sys.path[:1] != [WIDGET_SRC]:
    sys.path.insert(0, WIDGET_SRC)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [WIDGET_SRC, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != WIDGET_SRC)])
