"""The extension the package carries compiled is built from the Java sources as they are now."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from asl_vassal_bridge.bridge.extension import extension_sources
from asl_vassal_bridge.bridge.prebuilt import REBUILD, prebuilt_extension, prebuilt_info, sources_digest


def test_prebuilt_extension_matches_the_java_sources() -> None:
    info = prebuilt_info()
    assert info["sources_sha256"] == sources_digest(), (
        f"asl_vassal_bridge/data/asl-fire-bridge.vmdx was built from other sources than {extension_sources()}: "
        f"run `{REBUILD}` and commit the new archive")


def test_prebuilt_extension_is_complete_and_was_linkage_checked() -> None:
    with zipfile.ZipFile(prebuilt_extension()) as z:
        names = set(z.namelist())
    assert {"buildFile.xml", "extensiondata", "aslfire/FireBridge.class", "py4j/GatewayServer.class"} <= names
    info = prebuilt_info()
    assert info["linkage"]["missing"] == 0 and info["linkage"]["references"] > 50
    assert info["built_against"]["vassal_version"].startswith("3.6")


def test_the_digest_changes_with_any_source(tmp_path: Path) -> None:
    copy = Path(tmp_path) / "ext"
    shutil.copytree(extension_sources(), copy)
    before = sources_digest(copy)
    java = next((copy / "src").rglob("*.java"))
    java.write_text(java.read_text("utf-8") + "\n// changed\n", "utf-8")
    assert sources_digest(copy) != before



def test_every_class_loads_under_the_java_vassal_ships() -> None:
    """VASSAL 3.7.25+ ships Java 17 and warns about class files newer than it (major version 61): every class of the
    extension (and of py4j inside it) is at most that."""
    with zipfile.ZipFile(prebuilt_extension()) as z:
        heads = {n: z.read(n)[:8] for n in z.namelist() if n.endswith(".class")}
    assert heads and all(h[:4] == b"\xca\xfe\xba\xbe" for h in heads.values())
    majors = {n: int.from_bytes(h[6:8], "big") for n, h in heads.items()}
    assert max(majors.values()) <= 61, {n: v for n, v in majors.items() if v > 61}
    assert {v for n, v in majors.items() if n.startswith("aslfire/")} == {55}  # javac --release 11
