"""Build the VASSAL extension (``.vmdx``) of the live bridge from ``vasl_extension/``.

The archive holds ``buildFile.xml``, ``extensiondata`` and loose ``.class``
files: the bridge's own (compiled with ``javac --release 11`` against the
player's VASSAL jar) and py4j's, unpacked from the jar in the ``py4j`` Python
package (VASSAL does not put jars nested in an extension on its class path).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.errors import BadInput

__all__ = ["EXTENSION_VERSION", "BuildError", "BuiltExtension", "build_extension", "extension_sources", "py4j_jar"]

#: The version written into the extension: the package's (``FireBridge.VERSION`` in Java says the same).
EXTENSION_VERSION = __version__
#: The VASSAL version the extension declares: at or below every engine it runs on.
DECLARED_VASSAL_VERSION = "3.5.0"


class BuildError(BadInput):
    """The extension could not be built: a missing jar or JDK, or a compile error."""


@dataclass(frozen=True, slots=True)
class BuiltExtension:
    path: Path
    classes: int
    seconds: float


def extension_sources() -> Path:
    """The Java sources and buildFile template: ``asl_vassal_bridge/java/`` when packaged, else ``vasl_extension/``."""
    here = Path(__file__).resolve()
    packaged = here.parents[1] / "java"
    if (packaged / "buildFile.xml").is_file():
        return packaged
    for parent in here.parents:
        cand = parent / "vasl_extension"
        if (cand / "buildFile.xml").is_file():
            return cand
    raise BuildError("the Java sources (vasl_extension/ with buildFile.xml) were not found next to the package; "
                     "build the extension from a checkout of asl-vassal-bridge")


def py4j_jar() -> Path:
    """py4j's Java jar, shipped in the ``py4j`` Python package."""
    from py4j.java_gateway import find_jar_path

    jar = find_jar_path()
    if not jar or not Path(jar).is_file():
        raise BuildError("py4j's jar was not found (reinstall the 'py4j' Python package)")
    return Path(jar)


def _check_vassal_jar(jar: Path) -> None:
    if not jar.is_file():
        raise BuildError(f"{jar}: no such file (expected VASSAL's engine jar, "
                         "e.g. lib/Vengine.jar in a VASSAL install)")
    try:
        with zipfile.ZipFile(jar) as z:
            if "VASSAL/build/GameModule.class" not in z.namelist():
                raise BuildError(f"{jar}: not VASSAL's engine jar (no VASSAL/build/GameModule.class inside)")
    except zipfile.BadZipFile:
        raise BuildError(f"{jar}: not a jar (zip) file") from None


def build_extension(vassal_jar: Path, out: Path, javac: str | None = None) -> BuiltExtension:
    """Compile the Java sources and write the ``.vmdx`` to *out*.

    :raises BuildError: if the jar is not VASSAL's, no ``javac`` is found, or compiling fails.
    """
    t0 = time.perf_counter()
    vassal_jar = Path(vassal_jar)
    _check_vassal_jar(vassal_jar)
    src = extension_sources()
    p4j = py4j_jar()
    javac = javac or shutil.which("javac")
    if javac is None:
        raise BuildError("javac was not found: install a JDK (11 or newer) to build the extension")
    java_files = sorted(str(p) for p in (src / "src").rglob("*.java"))
    with tempfile.TemporaryDirectory(prefix="aslfire-ext-") as tmp:
        classes = Path(tmp) / "classes"
        classes.mkdir()
        cmd = [javac, "--release", "11", "-nowarn", "-encoding", "UTF-8",
               "-cp", os.pathsep.join([str(vassal_jar), str(p4j)]), "-d", str(classes), *java_files]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            err = (proc.stderr or proc.stdout).strip().splitlines()
            raise BuildError("compiling the extension failed: " + " | ".join(err[:6]))
        build_file = (src / "buildFile.xml").read_text(encoding="utf-8")
        build_file = build_file.replace("@VERSION@", EXTENSION_VERSION).replace("@VASSAL_VERSION@",
                                                                                DECLARED_VASSAL_VERSION)
        ext_data = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n'
                    f"  <version>{EXTENSION_VERSION}</version>\n"
                    f"  <VassalVersion>{DECLARED_VASSAL_VERSION}</VassalVersion>\n"
                    f"  <dateSaved>{int(time.time() * 1000)}</dateSaved>\n"
                    "  <description>ASL fire bridge (asl-vassal-bridge)</description>\n"
                    "  <extensionId>asl-fire-bridge</extensionId>\n</data>\n")
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        part = out.with_name(out.name + ".part")
        count = 0
        with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("buildFile.xml", build_file)
            z.writestr("extensiondata", ext_data)
            for f in sorted(classes.rglob("*.class")):
                z.write(f, f.relative_to(classes).as_posix())
                count += 1
            with zipfile.ZipFile(p4j) as pj:
                for name in pj.namelist():
                    if name.startswith("py4j/") and name.endswith(".class"):
                        z.writestr(name, pj.read(name))
                        count += 1
        part.replace(out)
    return BuiltExtension(out, count, time.perf_counter() - t0)
