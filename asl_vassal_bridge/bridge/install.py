"""``asl-fire install``: put the bridge extension where the player's VASSAL loads it for VASL.

Finds the VASL module (``--vasl``, else the one VASSAL's module manager
lists) and VASSAL's engine jar (``--vassal``, else the installations found
by :func:`~asl_vassal_bridge.vasl.setup.engine_jars`), checks that the
extension's VASSAL references are all in *that* jar, and copies the
extension into ``VASL_ext/`` beside the module.  The extension is the one the
package carries already compiled (no JDK needed); ``--build`` compiles it
against the player's own jar instead (needs ``javac``), as does the install
when the prebuilt one would not link and a JDK is there.  It records the Python it runs under in
``<VASSAL conf dir>/aslfire/python.json`` (:func:`record_python`), which the extension then starts the bridge
with when a game opens.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import stat
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .._outputs import OutputKind, replacing
from ..core.errors import BadInput
from ..vasl.setup import Platform, engine_jars, extensions_dir, find_vasl_module

__all__ = ["EXTENSION", "PYTHON_FILE", "InstallReport", "install_extension", "is_bridge_extension", "python_record",
           "record_python", "remove_extension"]

EXTENSION_FILE = "asl-fire-bridge.vmdx"
#: Which Python the extension runs the bridge with, in VASSAL's conf dir (python, by, version, venv).
PYTHON_FILE = Path("aslfire") / "python.json"
#: The extension's buttons (its toolbar's ASL fire menu), as ``FireBridge.ACTIONS`` names them
#: (tests/test_docs_samples.py checks).
BUTTON_NAMES = ("Wind change (RPh)", "Fire upkeep (AFPh)", "Fire odds", "Fire finder", "FT/MOL attack",
                "Fire start", "Heat of Battle", "Units in Blazes (RtPh)", "Fire risk on the map")
BUTTONS = ", ".join(BUTTON_NAMES[:-1]) + " and " + BUTTON_NAMES[-1]


#: What every ASL fire bridge extension's buildFile.xml says (vasl_extension/buildFile.xml, since the first one).
_OUR_BUILD_FILE = re.compile(rb"<VASSAL\.build\.module\.ModuleExtension\b[^>]*\bextensionId=\"asl-fire-bridge\"")


def is_bridge_extension(path: Path) -> bool:
    """*path* is an ASL fire bridge extension, as this package writes it: a zip whose ``buildFile.xml`` is a VASSAL
    module extension with ``extensionId="asl-fire-bridge"``.  Anything else (another extension, a module, a file
    that is not a zip) is not, and ``asl-fire install`` neither replaces nor removes it unasked."""
    from ..vasl.safe import Archive

    try:
        arc = Archive(path)
        member = arc.find("buildFile.xml", "buildFile")
        head = arc.read(member, limit=1 << 20)[:65536] if member is not None else b""
    except (BadInput, OSError):
        return False
    return _OUR_BUILD_FILE.search(head) is not None


#: The extension as an output (``asl-fire build-extension -o``): an existing file is replaced only if it is one.
EXTENSION = OutputKind("the ASL fire bridge extension", EXTENSION_FILE, is_bridge_extension)


def _not_ours(target: Path) -> str | None:
    """What is at *target* if it is not an extension of ours (None: nothing there, or ours)."""
    try:
        st = target.lstat()
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return f"a link (to {os.readlink(target)}), not a file this package wrote"
    if stat.S_ISDIR(st.st_mode):
        return "a folder"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if is_bridge_extension(target):
        return None
    return ("a file that is not the ASL fire bridge extension (its buildFile.xml does not name extensionId "
            "asl-fire-bridge)")


@dataclass(frozen=True)
class InstallReport:
    """What the install did (one line each) and the file it wrote."""

    target: Path
    lines: tuple[str, ...]


def _find_module(vasl: Path | None, pf: Platform) -> tuple[Path, str]:
    if vasl is not None:
        if not vasl.is_file():
            raise BadInput(f"--vasl {vasl}: no such file (expected VASL's module, e.g. .../VASL.vmod)")
        how = "--vasl"
        module = vasl
    else:
        found, how = find_vasl_module(pf)
        if found is None:
            raise BadInput(f"no VASL module found ({how}); open VASL once in VASSAL, or give --vasl PATH/VASL.vmod")
        module = found
    if not zipfile.is_zipfile(module):
        raise BadInput(f"{module}: not a zip archive (expected VASL's module, VASL.vmod)")
    _check_vasl_module(module)
    return module, how


_MODULE_ROOT = re.compile(rb"<(VASSAL\.launch\.BasicModule|VASSAL\.build\.GameModule)\b[^>]*?\bname=\"([^\"]*)\"")


def _check_vasl_module(module: Path) -> None:
    """Refuse a zip that is not VASL's module: a board archive, another game's module, a module without a buildFile."""
    from ..vasl.safe import Archive

    arc = Archive(module)
    member = arc.find("buildFile.xml", "buildFile")
    if member is None:
        raise BadInput(f"{module}: no buildFile inside, so not a VASSAL module (expected VASL's module, VASL.vmod)")
    head = arc.read(member, limit=arc.limit)[:65536]
    m = _MODULE_ROOT.search(head)
    if m is None:
        raise BadInput(f"{module}: its buildFile does not start a VASSAL module (expected VASL's module, VASL.vmod)")
    name = m.group(2).decode("utf-8", "replace")
    if name != "VASL":
        raise BadInput(f"{module}: the module {name[:40]!r}, not VASL (expected VASL's module, VASL.vmod)")


def _engine_in(path: Path) -> Path | None:
    """VASSAL's engine jar given as the jar itself or an installation folder (any platform's layout)."""
    if path.is_file():
        return path
    for rel in ("lib/Vengine.jar", "Contents/Resources/Java/Vengine.jar", "Vengine.jar"):
        if (path / rel).is_file():
            return path / rel
    return None


def _find_engine(vassal: Path | None, pf: Platform,
                 which: Callable[[str], str | None] | None) -> tuple[Path | None, str]:
    if vassal is not None:
        jar = _engine_in(vassal)
        if jar is None:
            raise BadInput(f"--vassal {vassal}: no VASSAL engine jar there (expected Vengine.jar or a VASSAL "
                           "installation folder with lib/Vengine.jar)")
        return jar, "--vassal"
    jars = engine_jars(pf, which)
    if not jars:
        return None, "no VASSAL installation found in the usual places"
    more = f"; {len(jars) - 1} other installation(s) found, the newest used" if len(jars) > 1 else ""
    return jars[0], f"installation found{more}"


def _check_target(target: Path, force: bool, doing: str) -> None:
    """Refuse to replace or remove what is at *target* unless it is our extension (or *force*, never a folder)."""
    what = _not_ours(target)
    if what is None:
        return
    if what == "a folder":
        raise BadInput(f"{target}: a folder; not {doing} it (asl-fire install writes only its extension file there)")
    if not force:
        verb = {"replacing": "replace", "removing": "remove"}[doing]
        raise BadInput(f"{target}: {what}; not {doing} it: move it away, or add --force to {verb} it")


def install_extension(*, vasl: Path | None = None, vassal: Path | None = None, build: bool = False,
                      check: bool = True, pf: Platform | None = None,
                      which: Callable[[str], str | None] | None = None, force: bool = False) -> InstallReport:
    """Install the extension for VASL; see the module docstring.

    An existing ``VASL_ext/asl-fire-bridge.vmdx`` is replaced only if it is an extension of ours
    (:func:`is_bridge_extension`), or with *force*; the new file is written to a hidden temporary file of its own
    beside it (created exclusively, never through a link), renamed over it when complete, and removed on every
    failure.

    :raises BadInput: no module found, a bad --vasl/--vassal, an extension that cannot work with the
        player's VASSAL (and no JDK to build one that does), no VASSAL found to check it against unless
        *check* is False, or a file at the target that is not ours; nothing is written then.
    """
    from .linkage import linkage_problems
    from .prebuilt import prebuilt_extension, prebuilt_info

    pf = pf or Platform.current()
    which = which or shutil.which
    module, module_how = _find_module(vasl, pf)
    _check_target(extensions_dir(module) / EXTENSION_FILE, force, "replacing")
    jar, jar_how = _find_engine(vassal, pf, which)
    if jar is None and check and not build:
        raise BadInput(f"VASSAL engine: not found ({jar_how}), so the extension's linkage with your VASSAL cannot be "
                       "checked; give --vassal DIR (the VASSAL installation), or --no-check to install it unchecked")
    lines = [f"VASL module: {module} ({module_how})",
             f"VASSAL engine: {jar} ({jar_how})" if jar else f"VASSAL engine: not found ({jar_how}; --vassal DIR)"]
    with tempfile.TemporaryDirectory(prefix="aslfire-install-") as tmp:
        source: Path
        if build:
            if jar is None:
                raise BadInput("--build needs VASSAL's engine jar: give --vassal DIR (the VASSAL installation)")
            source = _build(jar, Path(tmp), which)
            lines.append(f"extension: compiled against {jar}")
        else:
            source = prebuilt_extension()
            info = prebuilt_info(source)
            against = info.get("built_against", {}).get("vassal_version") or "VASSAL 3.6"
            lines.append(f"extension: the prebuilt one of this package ({info.get('extension_version')}, built "
                         f"against VASSAL {against}; no JDK needed)")
        if jar is not None:
            link = linkage_problems(source, [jar])
            if not link.ok and not build:
                if which("javac") is None:
                    raise BadInput(f"{jar}: this VASSAL lacks {len(link.missing)} member(s) the prebuilt extension "
                                   f"uses ({'; '.join(link.missing[:3])}); install a JDK and run asl-fire install "
                                   "--build, or use VASSAL 3.6 or newer")
                lines.append(f"the prebuilt extension does not link with {jar} ({len(link.missing)} missing); "
                             "compiling it against that jar instead")
                source = _build(jar, Path(tmp), which)
                link = linkage_problems(source, [jar])
            if not link.ok:
                missing = "; ".join(link.missing[:5])
                raise BadInput(f"{jar}: the extension uses VASSAL members this jar lacks: {missing}")
            lines.append(f"checked: all {link.references} VASSAL classes, fields and methods the extension uses are "
                         f"in {jar.name}" + (f" ({link.outside} inherited from Java's own classes)" if link.outside
                                             else ""))
        else:
            lines.append("NOT checked: no VASSAL engine found, so whether the extension links with your VASSAL is "
                         "unknown (--no-check)")
        ext_dir = extensions_dir(module)
        created = not ext_dir.exists()
        if ext_dir.exists() and not ext_dir.is_dir():
            raise BadInput(f"{ext_dir}: exists but is not a folder (VASSAL loads VASL's extensions from it)")
        target = ext_dir / EXTENSION_FILE
        _check_target(target, force, "replacing")
        replaced = os.path.lexists(target)
        ext_dir.mkdir(exist_ok=True)
        try:
            with replacing(target) as part:
                shutil.copyfile(source, part)
        except BaseException:
            if created:  # nothing of ours is left behind: not even the folder made for it
                with contextlib.suppress(OSError):
                    ext_dir.rmdir()
            raise
    lines.append(f"{'replaced' if replaced else 'installed'}: {target}"
                 + (f" (created the folder {ext_dir}, where VASSAL loads VASL's extensions)" if created else ""))
    recorded = record_python(pf)
    lines.append(f"recorded: {recorded} names this Python ({sys.executable}), which the extension starts the bridge "
                 "with when a game opens")
    lines.append(f"next: start VASL in VASSAL and open or start a game: the toolbar's ASL fire menu holds {BUTTONS}; "
                 "the extension starts the bridge with this Python by itself (its log and settings: VASSAL's "
                 "Preferences, tab \"ASL fire bridge\")")
    undo = f"asl-fire install --remove{'' if vasl is None else f' --vasl {module}'}"
    lines.append(f"undo: `{undo}` (deletes {target}" + (f" and the then empty {ext_dir}" if created else "") + ")")
    return InstallReport(target, tuple(lines))


def python_record(by: str = "install") -> dict[str, str | None]:
    """python.json's content for the Python running this: its interpreter, the package version, its venv (or None)."""
    from .. import __version__

    venv = sys.prefix if sys.prefix != getattr(sys, "base_prefix", sys.prefix) else None
    return {"python": sys.executable, "by": by, "version": __version__, "venv": venv}


def record_python(pf: Platform) -> Path:
    """Write ``<VASSAL conf dir>/aslfire/python.json`` naming the Python running this (``by: install``).

    :raises BadInput: if the file cannot be written.
    """
    target = pf.conf_dir() / PYTHON_FILE
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with replacing(target) as part:
            part.write_text(json.dumps(python_record("install")) + "\n", encoding="utf-8")
    except (OSError, BadInput) as e:
        why = e.strerror if isinstance(e, OSError) else str(e)
        raise BadInput(f"{target}: cannot be written ({why}); the extension will not know this Python") from None
    return target


def _build(jar: Path, tmp: Path, which: Callable[[str], str | None]) -> Path:
    from .extension import build_extension

    javac = which("javac")
    if javac is None:
        raise BadInput("compiling the extension needs a JDK (javac not found); without --build the prebuilt "
                       "extension is installed")
    return build_extension(jar, tmp / EXTENSION_FILE, javac=javac).path


def remove_extension(*, vasl: Path | None = None, pf: Platform | None = None, force: bool = False) -> InstallReport:
    """Undo :func:`install_extension`: delete the extension, and its folder when that is left empty.

    Only an extension of ours is deleted (:func:`is_bridge_extension`); anything else there is left alone and
    refused, unless *force* (a link is then removed, not what it points to; a folder never).
    """
    pf = pf or Platform.current()
    module, how = _find_module(vasl, pf)
    ext_dir = extensions_dir(module)
    target = ext_dir / EXTENSION_FILE
    lines = [f"VASL module: {module} ({how})"]
    if not os.path.lexists(target):
        lines.append(f"nothing to remove: {target} does not exist")
        return InstallReport(target, tuple(lines))
    _check_target(target, force, "removing")
    target.unlink()
    lines.append(f"removed: {target}")
    if ext_dir.is_dir() and not any(ext_dir.iterdir()):
        ext_dir.rmdir()
        lines.append(f"removed the empty folder {ext_dir}")
    return InstallReport(target, tuple(lines))
