"""VASSAL's preferences and a VASL module, faked for tests: what VASSAL 3.7 keeps and where (see vasl/setup.py)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from asl_vassal_bridge.vasl.setup import Platform
from asl_vassal_bridge.vasl.traits import encode_sequence

TERRAIN_XML = (b'<?xml version="1.0"?><boardMetadata><terrainTypes>'
               b'<terrainType name="Open Ground" typeCode="0" LOSCategory="OPEN" height="0"/>'
               b"</terrainTypes></boardMetadata>")


def java_escape(value: str) -> str:
    """A properties value as java.util.Properties.store writes it (backslash, colon, equals escaped)."""
    return value.replace("\\", "\\\\").replace(":", "\\:").replace("=", "\\=")


def fake_module(path: Path, terrain: bytes = TERRAIN_XML, buildfile: bytes | None = None) -> Path:
    """A module file with a buildFile (VASL's real one when given) and VASL's terrain types in boardData/."""
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("buildFile.xml", buildfile or b'<VASSAL.launch.BasicModule name="VASL" version="6.6.9"/>')
        z.writestr("boardData/SharedBoardMetadata.xml", terrain)
    path.write_bytes(buf.getvalue())
    return path


def write_prefs(pf: Platform, modules: list[Path], boards: Path | None) -> None:
    prefs = pf.prefs_dir()
    prefs.mkdir(parents=True, exist_ok=True)
    entries = [encode_sequence([str(m), str(m.parent / "games")], ";") for m in modules]
    (prefs / "V_Global").write_text("#VASSAL preferences\nMainWindowHeight=600\n"
                                    f"Modules={java_escape(encode_sequence(entries, ','))}\n", "latin-1")
    if boards is not None:
        (prefs / "VASL").write_text(f"#VASL\nboardURL={java_escape(str(boards))}\n", "latin-1")
