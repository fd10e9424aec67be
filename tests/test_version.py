"""One version for the package and its VASSAL extension: ``asl_vassal_bridge.__version__`` says it, everything else
repeats it (the Java source's ``FireBridge.VERSION``, the extension's records, the installed distribution)."""

from __future__ import annotations

import re
import tomllib
import zipfile
from importlib import metadata

import asl_vassal_bridge
from asl_vassal_bridge.bridge.extension import EXTENSION_VERSION, extension_sources
from asl_vassal_bridge.bridge.prebuilt import BUILD_INFO, prebuilt_extension, prebuilt_info
from tests.conftest import REPO


def test_the_package_says_its_version_in_one_place() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "asl_vassal_bridge.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", asl_vassal_bridge.__version__)
    assert metadata.version("asl-vassal-bridge") == asl_vassal_bridge.__version__  # as installed


def test_the_extension_and_the_prebuilt_vmdx_say_the_packages_version() -> None:
    version = asl_vassal_bridge.__version__
    java = (extension_sources() / "src" / "aslfire" / "FireBridge.java").read_text("utf-8")
    m = re.search(r'public static final String VERSION = "([^"]+)";', java)
    assert m, "FireBridge.java: no VERSION constant"
    assert m.group(1) == version, f"FireBridge.VERSION is {m.group(1)}, the package {version}: make them equal"
    assert version == EXTENSION_VERSION
    with zipfile.ZipFile(prebuilt_extension()) as z:
        build_file = z.read("buildFile.xml").decode("utf-8")
        ext_data = z.read("extensiondata").decode("utf-8")
        assert BUILD_INFO in z.namelist()
    assert re.search(r'<VASSAL\.build\.module\.ModuleExtension [^>]*\bversion="' + re.escape(version) + '"',
                     build_file)
    assert f"<version>{version}</version>" in ext_data
    assert prebuilt_info()["extension_version"] == version
