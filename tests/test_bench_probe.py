"""bench/bench_bridge.py's probe of VASSAL's Swing thread is a Java agent a JVM loads (``-javaagent:``), whichever
checkout's harness starts VASSAL: built from bench/java, Java 11 class files, loaded by PATH's Java."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

from tests.conftest import REPO, missing
from tests.support import vassal_harness as vh


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bridge", REPO / "bench" / "bench_bridge.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_bridge", module)
    spec.loader.exec_module(module)
    return module


def test_the_probe_is_a_java_agent_a_jvm_loads(tmp_path: Path) -> None:
    try:
        vh.check_tools()
    except vh.Unavailable as e:
        missing("engine", str(e))
    jar = _bench().probe_agent(tmp_path)
    with zipfile.ZipFile(jar) as z:
        assert "Premain-Class: aslbench.EdtProbe" in z.read("META-INF/MANIFEST.MF").decode()
        head = z.read("aslbench/EdtProbe.class")[:8]
    assert int.from_bytes(head[6:8], "big") == 55  # javac --release 11
    run = subprocess.run(["java", f"-javaagent:{jar}", "-version"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
