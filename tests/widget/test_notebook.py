"""examples/fire_widget.ipynb is a valid notebook that runs headless (nbclient)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import import_or_missing

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "fire_widget.ipynb"


@pytest.mark.filterwarnings("error")  # nbformat's warnings too (a cell without an id will be a hard error)
def test_example_notebook_is_valid_and_runs_headless() -> None:
    install = "run `pip install -e '.[test]'`"
    nbformat: Any = import_or_missing("nbformat", "browser", install)
    nbclient: Any = import_or_missing("nbclient", "browser", install)
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(
        NOTEBOOK.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets, "the widget is displayed"
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "B25.6" in text  # the odds printed from code name their rule
    assert "chance 1/3" in text and "MOL Check (A22.611)" in text  # the FT/MOL section's preview
    assert "9/36" in text  # the Heat of Battle odds (A15)
