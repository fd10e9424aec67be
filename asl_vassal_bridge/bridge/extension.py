"""Build the VASSAL extension (``.vmdx``) of the live bridge from ``vasl_extension/``.

The archive holds ``buildFile.xml``, ``extensiondata`` and loose ``.class``
files: the bridge's own (compiled with ``javac --release 11`` against the
player's VASSAL jar) and py4j's, unpacked from the jar in the ``py4j`` Python
package (VASSAL does not put jars nested in an extension on its class path).

With a wheel of the package to carry (:func:`carry_python`, ``--carry-wheel``) the archive also holds
``aslfire-python/``: ``manifest.json`` (package, version, wheel file name, its SHA-256, ``requires_python``),
``requirements.txt`` (the lock ``vasl_extension/python-requirements.txt``: the runtime dependencies pinned with
every platform's hashes) and the wheel, which the extension's first-run setup installs into a venv of its own.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..core.errors import BadInput

__all__ = ["CARRIED", "EXTENSION_VERSION", "BuildError", "BuiltExtension", "build_extension", "carry_python",
           "extension_sources", "lock_file", "py4j_jar"]

#: The version written into the extension: the package's (``FireBridge.VERSION`` in Java says the same).
EXTENSION_VERSION = __version__
#: The VASSAL version the extension declares: at or below every engine it runs on.
DECLARED_VASSAL_VERSION = "3.5.0"


#: The archive folder of the Python the extension carries (contracts: manifest.json, requirements.txt, the wheel).
CARRIED = "aslfire-python/"
#: The lock's file name beside the Java sources.
LOCK_NAME = "python-requirements.txt"
_WHEEL_NAME = re.compile(r"(?P<name>[A-Za-z0-9_.]+)-(?P<version>[A-Za-z0-9_.!+]+)(-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl")


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


def lock_file() -> Path:
    """The lock of the carried Python's dependencies (``scripts/lock-python-requirements.sh`` writes it)."""
    return extension_sources() / LOCK_NAME


def _wheel_facts(wheel: Path) -> tuple[str, str]:
    """(distribution name, version) of *wheel*, from its ``*.dist-info/METADATA``.

    :raises BuildError: if *wheel* is not a wheel of asl-vassal-bridge.
    """
    if not wheel.is_file():
        raise BuildError(f"--carry-wheel {wheel}: no such file (expected the package's wheel, "
                         "asl_vassal_bridge-VERSION-py3-none-any.whl)")
    if _WHEEL_NAME.fullmatch(wheel.name) is None:
        raise BuildError(f"--carry-wheel {wheel}: not a wheel's file name (NAME-VERSION-PY-ABI-PLATFORM.whl)")
    try:
        with zipfile.ZipFile(wheel) as z:
            meta = next((n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")), None)
            if meta is None:
                raise BuildError(f"--carry-wheel {wheel}: no .dist-info/METADATA inside, so not a wheel")
            text = z.read(meta).decode("utf-8", "replace")
    except zipfile.BadZipFile:
        raise BuildError(f"--carry-wheel {wheel}: not a zip file, so not a wheel") from None
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line and not line.startswith(" "))
    name, version = fields.get("Name", ""), fields.get("Version", "")
    if name.replace("_", "-").lower() != "asl-vassal-bridge":
        raise BuildError(f"--carry-wheel {wheel}: a wheel of {name or 'an unnamed package'!r}, not of "
                         "asl-vassal-bridge")
    return name, version


def carry_python(vmdx: Path, wheel: Path, lock: Path | None = None) -> dict[str, str]:
    """Add the package's *wheel*, the dependency lock and their manifest to the extension *vmdx* (``aslfire-python/``,
    replacing any carried before); returns the manifest.

    :raises BuildError: a file that is not the package's wheel, or no lock.
    """
    wheel, lock = Path(wheel), Path(lock) if lock is not None else lock_file()
    _, version = _wheel_facts(wheel)
    if not lock.is_file():
        raise BuildError(f"{lock}: no such file (the carried dependencies' lock; make it with "
                         "`bash scripts/lock-python-requirements.sh`)")
    manifest = {"package": "asl-vassal-bridge", "version": version, "wheel": wheel.name,
                "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(), "requires_python": ">=3.11"}
    vmdx = Path(vmdx)
    from .._outputs import replacing

    with replacing(vmdx) as part, zipfile.ZipFile(vmdx) as src, zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            if not info.filename.startswith(CARRIED):
                z.writestr(info, src.read(info))
        z.writestr(CARRIED + "manifest.json", json.dumps(manifest, indent=2) + "\n")
        z.writestr(CARRIED + "requirements.txt", lock.read_bytes())
        z.write(wheel, CARRIED + wheel.name, compress_type=zipfile.ZIP_STORED)
    return manifest


def build_extension(vassal_jar: Path, out: Path, javac: str | None = None,
                    carry_wheel: Path | None = None) -> BuiltExtension:
    """Compile the Java sources and write the ``.vmdx`` to *out*; with *carry_wheel*, the package's wheel, its
    dependencies' lock and their manifest go in too (:func:`carry_python`).

    :raises BuildError: if the jar is not VASSAL's, no ``javac`` is found, compiling fails, or *carry_wheel* is not
        the package's wheel.
    """
    if carry_wheel is not None:
        _wheel_facts(Path(carry_wheel))
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
        count = 0
        from .._outputs import replacing

        with replacing(out) as part, zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z:
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
    if carry_wheel is not None:
        carry_python(out, Path(carry_wheel))
    return BuiltExtension(out, count, time.perf_counter() - t0)
