"""Every ``asl-fire`` command in README.md and docs/*.md is run here.

Examples (lines of fenced or indented code blocks that start with ``asl-fire``) are run as written, in a
folder laid out as a player's: ``demo`` is the embedded scenario, ``VASL.vmod`` a module with VASL's real
buildFile and terrain types, ``boards/`` VASL's real bd01, ``game.vsav`` a saved game on bd01, and VASSAL's
preferences (in a fake home) naming the module and the boards folder.  Placeholders such as
``/path/to/VASSAL/lib/Vengine.jar`` stand for those files.  Commands that talk to a running VASSAL
(``asl-fire bridge …``) are run too: with no VASSAL they must get as far as looking for its connection
file.  Synopses with placeholders (``asl-fire odds POSITION [--json]``, in inline code) are checked
option by option against the command's parser.

A comment that starts with ``→`` is a sample of what the command prints: its parts (split at `` … ``) must
appear in that order in the command's output (stdout, then stderr), spaces normalised.
"""

from __future__ import annotations

import re
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from asl_vassal_bridge import cli
from tests.conftest import REPO, missing, shared_vasl_file
from tests.support import vassal_harness as vh

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

#: Placeholder paths of the docs → the files of the test's layout.
PLACEHOLDERS = {
    "/path/to/VASSAL/lib/Vengine.jar": "{jar}",
    "/path/to/VASL/boards": "{tmp}/vasl/boards",
    "/path/to/VASL.vmod": "{tmp}/vasl/VASL.vmod",
    "PATH/VASL.vmod": "{tmp}/vasl/VASL.vmod",
    "/path/to/VASSAL-3.7.26": "{tmp}/home/VASSAL-3.7.26",
}


def doc_commands() -> Iterator[tuple[str, int, str]]:
    """(doc, line number, command) of every example command in the docs' code blocks."""
    for doc in DOCS:
        lines = doc.read_text("utf-8").splitlines()
        fenced = False
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif fenced or line.startswith("    "):
                text = line.strip()
                n = i + 1
                while text.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text[:-1] + " " + lines[i].strip()
                if text.startswith("asl-fire ") or text.startswith("pip install . && asl-fire "):
                    yield doc.relative_to(REPO).as_posix(), n, text
            i += 1


def _spans() -> Iterator[tuple[str, str]]:
    """(doc, text) of every inline ``asl-fire …`` code span outside code blocks."""
    for doc in DOCS:
        text = re.sub(r"```.*?```", "", doc.read_text("utf-8"), flags=re.S)
        text = re.sub(r"^    .*$", "", text, flags=re.M)
        for m in re.finditer(r"`(asl-fire [^`]*)`", text.replace("\n", " ")):
            yield doc.relative_to(REPO).as_posix(), re.sub(r"\s+", " ", m.group(1)).strip()


#: A synopsis, not an example: optional parts, alternatives, "…", or a placeholder such as POSITION or N.
SYNOPSIS = re.compile(r"[\[\]|…]|(?<![\w/-])[A-Z][A-Z_]*(?:\.vsav)?(?![\w-])")
COMMAND_WORDS = {name for name, _, _ in cli.COMMANDS} | {"attack", "hob", "ft", "mol"}


def doc_synopses() -> Iterator[tuple[str, str]]:
    """Inline spans that are synopses or just name a command: checked against the parsers."""
    for doc, text in _spans():
        if SYNOPSIS.search(text) or all(w in COMMAND_WORDS for w in text.split()[1:]):
            yield doc, text


def inline_examples() -> Iterator[tuple[str, int, str]]:
    """Inline spans that are complete commands (``asl-fire mol demo --firer-id g3 …``): run like the others."""
    for doc, text in _spans():
        if not (SYNOPSIS.search(text) or all(w in COMMAND_WORDS for w in text.split()[1:])):
            yield doc, 0, text


COMMANDS = list(doc_commands()) + list(inline_examples())


def test_the_docs_have_examples() -> None:
    docs = {d for d, _, _ in COMMANDS}
    assert {"README.md", "docs/attacks.md", "docs/heat-of-battle.md", "docs/vasl-readers.md",
            "docs/bridge.md"} <= docs
    assert len(COMMANDS) > 25


@pytest.fixture(scope="module")
def player(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A player's folder: VASL.vmod, boards/bd01, game.vsav, my-game.toml, VASSAL preferences naming them."""
    from asl_vassal_bridge.vasl.module import read_module
    from asl_vassal_bridge.vasl.setup import Platform
    from tests.test_install import fake_module, write_prefs
    from tests.vasl.builders import make_vsav, placed

    tmp = tmp_path_factory.mktemp("player")
    buildfile = shared_vasl_file("buildFile-6.5.xml")
    shared_meta = shared_vasl_file("SharedBoardMetadata.xml")
    vasl = tmp / "vasl"
    module = fake_module(vasl / "VASL.vmod", shared_meta.read_bytes(), buildfile.read_bytes())
    (vasl / "boards").mkdir()
    shutil.copy(shared_vasl_file("boards", "bd01"), vasl / "boards" / "bd01")
    work = tmp / "work"
    work.mkdir()
    (work / "boards").mkdir()
    shutil.copy(shared_vasl_file("boards", "bd01"), work / "boards" / "bd01")
    shutil.copy(shared_meta, work / "SharedBoardMetadata.xml")
    shutil.copy(buildfile, work / "buildFile.xml")
    shutil.copy(module, work / "VASL.vmod")
    slots = read_module(buildfile).by_gpid
    t, s = placed(slots["192"], 300, 200)
    (work / "game.vsav").write_bytes(make_vsav([("f1", t, s)], boards="bd\t0\t0\t01"))
    from asl_vassal_bridge.scenarios import demo_text

    (work / "my-game.toml").write_text(demo_text(), "utf-8")
    home = tmp / "home"
    write_prefs(Platform("linux", home), [module], vasl / "boards")
    return {"tmp": tmp, "work": work, "home": home}


def _prepare(cmd: str, player: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    cmd = cmd.split(" && ", 1)[-1]  # "pip install . && asl-fire demo": the asl-fire part
    cmd = re.sub(r"\s#\s.*$", "", cmd)
    jar = ""
    needs_engine = "{jar}" in "".join(PLACEHOLDERS[p] for p in PLACEHOLDERS if p in cmd) or "VASSAL-3.7.26" in cmd
    if needs_engine or cmd.startswith(("asl-fire install", "asl-fire build-extension")):
        try:
            jar = str(vh.vassal_jar())
        except vh.Unavailable as e:
            missing("engine", str(e))
        engine = player["home"] / "VASSAL-3.7.26" / "lib"
        engine.mkdir(parents=True, exist_ok=True)
        if not (engine / "Vengine.jar").exists():
            shutil.copy(jar, engine / "Vengine.jar")
    for placeholder, value in PLACEHOLDERS.items():
        cmd = cmd.replace(placeholder, value.format(jar=jar, tmp=player["tmp"]))
    return shlex.split(cmd)[1:]


@pytest.mark.parametrize(("doc", "line", "cmd"), COMMANDS, ids=[f"{d}:{n}" for d, n, _ in COMMANDS])
def test_doc_command_runs(doc: str, line: int, cmd: str, player: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                          capsys: pytest.CaptureFixture[str]) -> None:
    argv = _prepare(cmd, player, monkeypatch)
    monkeypatch.chdir(player["work"])
    monkeypatch.setenv("HOME", str(player["home"]))
    monkeypatch.setenv("ASL_FIRE_BRIDGE_FILE", str(player["tmp"] / "no-vassal-running.json"))
    for var in ("ASL_FIRE_SHARED_METADATA", "ASL_FIRE_VASSAL_CONF"):
        monkeypatch.delenv(var, raising=False)
    rc = cli.main(argv)
    _out, err = capsys.readouterr()
    if argv[0] == "bridge":  # no VASSAL here: it must have parsed and looked for the connection file
        assert rc == 2 and "no connection file" in err, err
        return
    assert rc == 0, f"{doc}:{line}: `{cmd}` exited {rc}: {err}"
    assert "Traceback" not in err
    sample = output_sample(cmd)
    if sample:
        assert_printed_in_order(sample, _out + err, f"{doc}:{line}")


def output_sample(cmd: str) -> list[str]:
    """The parts of the ``# → …`` comment of a doc command (its sample of the output), or []."""
    m = re.search(r"\s#\s+→\s+(.*)$", cmd)
    return [part.strip() for part in m.group(1).split(" … ")] if m else []


def assert_printed_in_order(parts: list[str], printed: str, where: str) -> None:
    """Each of *parts* is in *printed*, in that order (runs of spaces count as one)."""
    text = " ".join(printed.split())
    at = 0
    for part in (" ".join(p.split()) for p in parts):
        found = text.find(part, at)
        assert found >= 0, f"{where}: the sample's {part!r} is not in the output after {text[:at][-80:]!r}:\n{printed}"
        at = found + len(part)


def test_the_output_samples_are_checked() -> None:
    """The ``# →`` samples are found (so a change of the convention cannot silently check nothing)."""
    samples = [(d, c) for d, _, c in COMMANDS if output_sample(c)]
    assert len(samples) >= 5 and all(d == "docs/attacks.md" for d, _ in samples[:5]), samples


def _options(argv: list[str]) -> set[str]:
    """The option strings the parser of the command *argv* names accepts (sub-actions included)."""
    import argparse

    parser = cli.build_parser(only=cli._command_module(argv) or "")
    cur: argparse.ArgumentParser = parser
    for word in argv:
        subs = [a for a in cur._actions if isinstance(a, argparse._SubParsersAction)]
        if subs and word in subs[0].choices:
            cur = subs[0].choices[word]
    return {o for a in cur._actions for o in a.option_strings}


SYNOPSES = list(doc_synopses())


@pytest.mark.parametrize(("doc", "text"), SYNOPSES, ids=[f"{d}:{t[:40]}" for d, t in SYNOPSES])
def test_doc_synopsis_names_real_commands_and_options(doc: str, text: str) -> None:
    words = [w for w in re.split(r"[\s\[\]\\]+", text) if w and w != "…"]
    command = words[1]
    names = {name for name, _, _ in cli.COMMANDS}
    assert any(command == n or command in n.split("|") for n in names) or set(command.split("|")) <= names, text
    first = command.split("|")[0]
    subwords = [w for w in words[1:] if not w.startswith("-")][:2]
    opts = _options([first, *subwords[1:]])
    for w in words:
        if w.startswith("--"):
            assert w.split("=")[0] in opts, f"{doc}: `{text}`: {first} has no option {w}"


# --- the README's set-up commands and the players' path, per OS --------------------------------------------------

README_TEXT = (REPO / "README.md").read_text("utf-8")
OS_WORDS = ("Windows", "macOS", "Linux", "Command Prompt", "PowerShell")


def _players_section() -> str:
    start = README_TEXT.index("## For VASL players")
    return README_TEXT[start:README_TEXT.index("\n## ", start + 1)]


def test_the_readme_starts_with_its_two_setup_commands_then_the_players_path() -> None:
    m = re.match(r"# asl-vassal-bridge\n\n```bash\n(.*?)```\n", README_TEXT, flags=re.S)
    assert m, "README: the set-up commands are no longer its first block"
    lines = m.group(1).splitlines()
    assert [ln.split("#")[0].strip() for ln in lines] == ["bash scripts/demo.sh", "bash scripts/test-all.sh"]
    headings = re.findall(r"^## (.*)$", README_TEXT, flags=re.M)
    assert headings[0].startswith("For VASL players"), headings[:3]


def test_every_players_command_says_which_os_it_is_for() -> None:
    section = _players_section()
    blocks = list(re.finditer(r"```[a-z]*\n(.*?)```", section, flags=re.S))
    assert len(blocks) >= 3
    for b in blocks:
        before = section[max(0, b.start() - 300):b.start()]
        assert any(w in before + b.group(1) for w in OS_WORDS), f"README: no OS named for the block {b.group(1)!r}"
    for os_name in ("Windows", "macOS", "Linux"):
        assert f"**{os_name}" in section or f"{os_name}**" in section, os_name


def test_the_players_path_asks_for_no_terminal_kept_open() -> None:
    section = " ".join(_players_section().split())
    assert "leave it running" not in section and "keep it running" not in section
    assert "no terminal is needed during play" in section
    assert "Module Manager, right-click VASL" in section and "Add Extension" in section


def test_pip_extras_are_quoted_for_every_shell() -> None:
    """``pip install '.[widget]'`` breaks in cmd.exe (single quotes are not quotes there); double quotes work in
    bash, PowerShell and cmd.exe alike."""
    for doc in DOCS:
        for m in re.finditer(r"pip install ([^`\n]*)", doc.read_text("utf-8")):
            args = m.group(1)
            assert "'" not in args, f"{doc.name}: `pip install {args}`: quote extras with double quotes"
            for word in args.split():
                assert "[" not in word or (word.startswith('"') and word.endswith('"')), (doc.name, args)


def test_the_release_files_the_readme_names_are_those_build_dist_makes() -> None:
    from asl_vassal_bridge import __version__

    section = _players_section()
    wheels = set(re.findall(r"asl_vassal_bridge-([\w.]+)-py3-none-any\.whl", section))
    extensions = set(re.findall(r"asl-fire-bridge-(\d[\w.]*)\.vmdx", section))
    assert wheels == {__version__} and extensions == {__version__}, (wheels, extensions)
    script = (REPO / "scripts" / "build-dist.sh").read_text("utf-8")
    assert 'asl_vassal_bridge-$VERSION-py3-none-any.whl' in script and 'asl-fire-bridge-$VERSION.vmdx' in script


def test_the_readme_is_read_in_minutes_and_links_what_it_leaves_out() -> None:
    """Issue 36: at most 250 lines, one picture that is in the checkout, and every local link leads to a file."""
    assert len(README_TEXT.splitlines()) <= 250
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README_TEXT)
    assert len(pictures) == 1 and (REPO / pictures[0]).is_file(), pictures
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text("utf-8")):
            assert (doc.parent / target).exists(), f"{doc.relative_to(REPO)}: the link {target} leads nowhere"
    assert "(docs/players-guide.md" in README_TEXT and "(docs/developers.md" in README_TEXT


def test_the_players_guide_says_what_is_not_done_near_its_top() -> None:
    guide = (REPO / "docs" / "players-guide.md").read_text("utf-8")
    headings = re.findall(r"^## (.*)$", guide, flags=re.M)
    assert headings[:2] == ["Not done yet", "Checked against"], headings
    assert "Not yet run on a released `VASL.vmod`" in guide
