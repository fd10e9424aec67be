"""``SizeProbe``: how wide the widget's map column really is in the page, and how tall the window.

JupyterLab with its file browser open, a narrow window or Voilà give the map different room; the
browser reports it (a ``ResizeObserver``, so resizes are followed) and the widget sizes its canvas to
it, so one canvas pixel is one screen pixel and text keeps its size.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["SizeProbe"]

_ESM = """
function render({ model, el }) {
  el.style.width = '100%';
  el.style.height = '0px';
  let timer = null;
  const send = () => {
    timer = null;
    const w = Math.floor(el.getBoundingClientRect().width);
    const h = window.innerHeight;
    if (w > 0 && (w !== model.get('width') || h !== model.get('window_height'))) {
      model.set('width', w);
      model.set('window_height', h);
      model.save_changes();
    }
  };
  const later = () => { if (timer === null) timer = setTimeout(send, 120); };
  const ro = new ResizeObserver(later);
  ro.observe(el);
  window.addEventListener('resize', later);
  later();
  return () => { ro.disconnect(); window.removeEventListener('resize', later); };
}
export default { render };
"""


class SizeProbe(anywidget.AnyWidget):  # type: ignore[misc]
    """A zero-height, full-width element reporting its width and the window's height in CSS pixels."""

    _esm = _ESM
    width = traitlets.Int(0).tag(sync=True)
    window_height = traitlets.Int(0).tag(sync=True)
