"""The docs' samples of command output come from the commands, so that they cannot drift.

* The README's sample ``asl-fire install`` output is what the install prints on a player's machine laid
  out as the sample says (``/home/you``, VASSAL 3.7.26's folder holding the real engine jar).
* The extension's toolbar buttons, as the Java side declares them, are the ones the install's ``next:``
  line, the README and docs/bridge.md name, and the docs count them right.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from asl_vassal_bridge.bridge.install import BUTTON_NAMES, install_extension
from asl_vassal_bridge.vasl.setup import Platform
from tests.conftest import missing
from tests.support import vassal_harness as vh
from tests.support.vassal_prefs import fake_module, write_prefs

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BRIDGE_DOC = ROOT / "docs" / "bridge.md"
JAVA = ROOT / "asl_vassal_bridge" / "java" / "src" / "aslfire" / "FireBridge.java"
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}


def _readme_install_sample() -> list[str]:
    text = README.read_text("utf-8")
    m = re.search(r"```\n((?:   VASL module: /home/you/.*\n)(?:   .*\n)*?)   ```", text)
    assert m, "README: the sample install output block is gone"
    return [line[3:] for line in m.group(1).splitlines()]


def test_the_readme_install_sample_is_what_install_prints(tmp_path: Path) -> None:
    try:
        jar = vh.vassal_jar()
    except vh.Unavailable as e:
        missing("engine", str(e))
    home = tmp_path / "home" / "you"
    pf = Platform("linux", home, {}, tmp_path)
    engine = home / "VASSAL-3.7.26" / "lib"
    engine.mkdir(parents=True)
    shutil.copy(jar, engine / "Vengine.jar")
    module = fake_module(home / "vasl" / "VASL.vmod")
    (module.parent / "boards").mkdir()
    write_prefs(pf, [module], module.parent / "boards")
    report = install_extension(pf=pf, which={"javac": None}.get)  # a player's machine: no JDK
    printed = [line.replace(str(tmp_path), "") for line in report.lines]
    assert _readme_install_sample() == printed


def test_the_buttons_are_the_extensions_own() -> None:
    java = JAVA.read_text("utf-8")
    actions = re.findall(r'\{"\w+", "([^"]+)", "[^"]*"\}', java)
    assert tuple(actions) == BUTTON_NAMES


@pytest.mark.parametrize("doc", [README, BRIDGE_DOC], ids=lambda p: p.name)
def test_the_docs_count_and_name_the_buttons(doc: Path) -> None:
    text = " ".join(doc.read_text("utf-8").split())
    counts = [NUMBERS[w.lower()] for w in re.findall(r"\b(\w+) (?:toolbar )?buttons\b", text) if w.lower() in NUMBERS]
    assert counts and set(counts) == {len(BUTTON_NAMES)}, counts
    for name in BUTTON_NAMES:
        assert f"**{name}**" in text, name
