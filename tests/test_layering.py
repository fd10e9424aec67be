"""The rules core imports no I/O layer (developers' guide: the core stands alone)."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "asl_vassal_bridge" / "core"
FORBIDDEN = {"lxml", "py4j", "ipywidgets", "ipycanvas", "PIL", "jsonschema", "tomllib", "tomli_w", "zipfile",
             "gzip", "socket", "subprocess", "urllib", "requests", "json", "pathlib"}


def test_core_imports_nothing_outside_the_core_and_the_standard_library() -> None:
    problems = []
    for path in sorted(CORE.rglob("*.py")):  # the core's subpackages (core/forecast/) too
        depth = len(path.relative_to(CORE).parts)  # 1 for core/x.py: ``from .`` stays in the core, ``from ..`` not
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    if node.level > depth:
                        problems.append(f"{path.name}: relative import out of the core ({node.module})")
                    continue
                names = [node.module or ""]
            for n in names:
                top = n.split(".")[0]
                if top in FORBIDDEN or (top == "asl_vassal_bridge" and not n.startswith("asl_vassal_bridge.core")):
                    problems.append(f"{path.name}: imports {n}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "open":
                problems.append(f"{path.name}: calls open()")
    assert problems == []


def _package_imports(path: Path, package: Path) -> set[str]:
    """The project subpackages *path* imports (``core``, ``vasl``, ``bridge``, …), relative imports resolved."""
    out = set()
    parts = path.relative_to(package.parent).with_suffix("").parts  # ("asl_vassal_bridge", "vasl", "units")
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(parts[: len(parts) - node.level])
            target = [*base, *(node.module or "").split(".")] if node.module else base
            names = [".".join(target)] if node.module else [".".join([*base, a.name]) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        out |= {n.split(".")[1] for n in names if n.startswith("asl_vassal_bridge.") and n.count(".") >= 1}
    return out


def test_the_vasl_readers_depend_on_the_core_only_never_on_the_bridge_cli_or_widget() -> None:
    """Layers: core ← vasl ← bridge ← cli; the VASL file readers know nothing of the live bridge."""
    package = CORE.parent
    problems = []
    for path in sorted((package / "vasl").glob("*.py")):
        for sub in _package_imports(path, package) - {"core", "vasl", "_packagedata", "_files", "data"}:
            problems.append(f"vasl/{path.name}: imports asl_vassal_bridge.{sub}")
    assert problems == []
