"""The docs' samples of command output come from the commands, so that they cannot drift.

* The players' guide's sample ``asl-fire install`` output is what the install prints on a player's machine laid
  out as the sample says (``/home/you``, VASSAL 3.7.26's folder holding the real engine jar).
* The players' guide's sample of the demo is the start of what ``asl-fire demo`` prints (its default seed), line
  for line, up to the ``…`` that ends it.
* The board notes docs/bridge.md and docs/vasl-readers.md show (overlays applied; SSR tokens VASL's LOS model
  cannot apply) are lines ``asl-fire vsav`` prints for a saved game on VASL's real bd01 with those overlays
  and SSR, read with VASL's real overlay archives and SharedBoardMetadata.xml.
* Every ``python`` code block of README.md and docs/*.md runs, in a folder holding ``my-game.toml`` (the demo
  scenario); a comment that is a quoted string is a sample: after ``print(…)`` it must be in what the block
  printed, after a bare expression it is that expression's ``repr``.
* The extension's toolbar buttons, as the Java side declares them, are the ones the install's ``next:``
  line, the README and docs/bridge.md name, and the docs count them right.
"""

from __future__ import annotations

import ast
import contextlib
import io
import re
import shutil
import sys
from pathlib import Path

import pytest

from asl_vassal_bridge import cli
from asl_vassal_bridge.bridge.install import BUTTON_NAMES, install_extension
from asl_vassal_bridge.vasl.setup import Platform
from tests.conftest import missing, shared_vasl_file
from tests.support import vassal_harness as vh
from tests.support.vassal_prefs import fake_module, write_prefs
from tests.vasl.builders import make_vsav

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "players-guide.md"
BRIDGE_DOC = ROOT / "docs" / "bridge.md"
READERS_DOC = ROOT / "docs" / "vasl-readers.md"
JAVA = ROOT / "asl_vassal_bridge" / "java" / "src" / "aslfire" / "FireBridge.java"
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _guide_install_sample() -> list[str]:
    text = GUIDE.read_text("utf-8")
    m = re.search(r"```\n((?:   VASL module: /home/you/.*\n)(?:   .*\n)*?)   ```", text)
    assert m, "docs/players-guide.md: the sample install output block is gone"
    return [line[3:] for line in m.group(1).splitlines()]


def test_the_guides_install_sample_is_what_install_prints(tmp_path: Path) -> None:
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
    printed = [line.replace(str(tmp_path), "").replace(sys.executable, "/home/you/.venv/bin/python")
               for line in report.lines]
    assert _guide_install_sample() == printed


def _guide_demo_sample() -> list[str]:
    text = GUIDE.read_text("utf-8")
    m = re.search(r"\(`asl-fire demo`, seed 1944\):\n\n```\n(.*?)\n…\n```", text, flags=re.S)
    assert m, "docs/players-guide.md: the sample demo output block (ending with a … line) is gone"
    return m.group(1).splitlines()


def test_the_guides_demo_sample_is_what_the_demo_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["demo"]) == 0
    printed = capsys.readouterr().out.splitlines()
    sample = _guide_demo_sample()
    assert "Seed 1944;" in printed[1] and len(sample) > 20
    assert sample == printed[:len(sample)]


def _indented_sample(doc: Path, start: str) -> str:
    """The line of the indented sample in *doc* that starts with *start*."""
    lines = [line[4:] for line in doc.read_text("utf-8").splitlines() if line.startswith("    " + start)]
    assert len(lines) == 1, f"{doc.name}: one sample line starting {start!r} expected, found {len(lines)}"
    return lines[0]


def _vsav_notes(tmp_path: Path, boards: str, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What ``asl-fire vsav game.vsav --boards BOARDS`` prints on stderr for a game on bd01 with VASL's
    board entry *boards*, the real bd01, overlay archives and SharedBoardMetadata.xml."""
    bd01 = shared_vasl_file("boards", "bd01")
    shared_vasl_file("boards", "overlays")
    shared_vasl_file("SharedBoardMetadata.xml")
    save = tmp_path / "game.vsav"
    save.write_bytes(make_vsav([], boards=boards))
    for var in ("ASL_FIRE_SHARED_METADATA", "ASL_FIRE_VASSAL_CONF"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["vsav", str(save), "--boards", str(bd01.parent)]) == 0
    return [line.removeprefix("asl-fire: ") for line in capsys.readouterr().err.splitlines()]


def test_the_bridge_docs_overlay_note_is_what_is_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """docs/bridge.md: the bridge logs it as a WARNING, the same line ``asl-fire vsav`` prints."""
    sample = _indented_sample(BRIDGE_DOC, "WARNING board 01: ")
    printed = _vsav_notes(tmp_path, "bd\t0\t0\t01\tVER\t6.1\tOVR\tst1\tC2\tD3\tOVR\th2\tE2\tE2\t", monkeypatch, capsys)
    assert sample.removeprefix("WARNING ") in printed, printed


def test_the_readers_docs_ssr_note_is_what_is_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    sample = _indented_sample(READERS_DOC, "board 01: SSR ")
    entry = "bd\t0\t0\t01\tVER\t6.1\tSSR\tDenseJungle\tNoStairwells\tOrchardsToCrags\t"
    assert sample in _vsav_notes(tmp_path, entry, monkeypatch, capsys)


DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
PYTHON_BLOCKS = [(doc, m.group(1)) for doc in DOCS
                 for m in re.finditer(r"^```python\n(.*?)^```", doc.read_text("utf-8"), flags=re.S | re.M)]
SAMPLE_COMMENT = re.compile(r"#\s+((?:\"[^\"]*\"|'[^']*'))(?:\s+…)?\s*$")


#: Each block runs on the demo scenario ("before"); the README's also on the position `asl-fire demo` leaves
#: ("after": its clock past the AFPh of 3.2, where the API moves on to the next Player Turn as the commands do).
PYTHON_RUNS = [(doc, code, at) for doc, code in PYTHON_BLOCKS
               for at in (("before", "after") if doc == README else ("before",))]


@pytest.mark.parametrize(("doc", "code", "at"), PYTHON_RUNS,
                         ids=[f"{d.name}:{i}:{at}" for i, (d, _, at) in enumerate(PYTHON_RUNS)])
def test_the_docs_python_runs_and_prints_its_samples(doc: Path, code: str, at: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from asl_vassal_bridge.scenarios import demo_text

    if at == "after":
        assert cli.main(["demo", "--out", str(tmp_path / "demo")]) == 0
        capsys.readouterr()
        shutil.copy(tmp_path / "demo" / "after.toml", tmp_path / "my-game.toml")
    else:
        (tmp_path / "my-game.toml").write_text(demo_text(), "utf-8")
    monkeypatch.chdir(tmp_path)
    lines = code.splitlines()
    namespace: dict[str, object] = {}
    out = io.StringIO()
    printed_samples: list[str] = []
    with contextlib.redirect_stdout(out):
        for stmt in ast.parse(code).body:
            source = ast.get_source_segment(code, stmt) or ""
            comment = SAMPLE_COMMENT.search(lines[stmt.end_lineno - 1] if stmt.end_lineno else "")
            sample = ast.literal_eval(comment.group(1)) if comment else None
            if sample is not None and isinstance(stmt, ast.Expr) and not (
                    isinstance(stmt.value, ast.Call) and getattr(stmt.value.func, "id", "") == "print"):
                value = eval(compile(ast.Expression(stmt.value), doc.name, "eval"), namespace)
                assert repr(value) == comment.group(1), f"{doc.name}: {source}"
                continue
            exec(compile(ast.Module([stmt], []), doc.name, "exec"), namespace)
            if sample is not None:
                printed_samples.append(sample)
    printed = out.getvalue()
    assert printed
    for sample in printed_samples:
        assert sample in printed, f"{doc.name}: the sample {sample!r} is not in what the block printed:\n{printed}"


def test_the_python_samples_are_checked() -> None:
    samples = [line for _, code in PYTHON_BLOCKS for line in code.splitlines() if SAMPLE_COMMENT.search(line)]
    assert len(PYTHON_BLOCKS) >= 2 and len(samples) >= 2, samples


def test_the_buttons_are_the_extensions_own() -> None:
    java = JAVA.read_text("utf-8")
    actions = re.findall(r'\{"\w+", "([^"]+)", "[^"]*"\}', java)
    assert tuple(actions) == BUTTON_NAMES


@pytest.mark.parametrize("doc", [README, GUIDE, BRIDGE_DOC], ids=lambda p: p.name)
def test_the_docs_count_and_name_the_buttons(doc: Path) -> None:
    text = " ".join(doc.read_text("utf-8").split())
    counts = [NUMBERS[w.lower()] for w in re.findall(r"\b(\w+) (?:toolbar )?buttons\b", text) if w.lower() in NUMBERS]
    assert counts and set(counts) == {len(BUTTON_NAMES)}, counts
    for name in BUTTON_NAMES:
        assert f"**{name}**" in text, name
