"""The colours of the widget's HTML: JupyterLab's theme variables (light and dark), with light fallbacks, chosen so
that every text is at least 4.5:1 against the page in both themes."""

from __future__ import annotations

__all__ = ["ERROR", "INK"]

#: The theme's own text colour.
INK = "var(--jp-ui-font-color1, #222)"
#: The error colour mixed with the theme's text colour: JupyterLab's error red alone is 4.4:1 on its dark background.
ERROR = "color-mix(in srgb, var(--jp-error-color1, #c00) 70%, var(--jp-ui-font-color1, #222))"
