"""Every file an opponent sends and every number a player types: bounded, explained, never a traceback.

A table of hostile inputs, one row each: the command line, the input files it needs (made here, in the
test's folder: nothing large is committed) and the words its one error line must hold (the file, field
or option, and what was expected).  Each row runs ``asl-fire`` in a subprocess under a memory limit
(:data:`MEMORY_LIMIT` of address space, ``resource.setrlimit`` in ``preexec_fn``) and a time limit
(:data:`TIME_LIMIT`, the subprocess's timeout), and asserts:

* exit status 2;
* stderr is exactly one line, ``asl-fire COMMAND: …``, holding the row's words (after the lines naming the
  VASL files used, ``asl-fire: using …``);
* no traceback, and nothing was written where the command would write.

The limits are bounds, not measurements: without the caps these inputs take gigabytes or hang.
"""

from __future__ import annotations

import os
import re
import resource
import socket
import stat
import struct
import subprocess
import sys
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import SHARED_VASL, missing
from tests.support.vassal_prefs import TERRAIN_XML, fake_module

ROOT = Path(__file__).resolve().parents[1]

#: Address space each command may use (numpy, lxml and PIL loaded take ~0.6 GB of it).
MEMORY_LIMIT = 2 * 1024**3
#: Seconds each command may take (the bridge's handshake waits 10 s for a silent port).
TIME_LIMIT = 60


@dataclass(frozen=True)
class Case:
    """One hostile input: ``asl-fire ARGS`` (``{tmp}`` is the test's folder) after *make* wrote its files."""

    id: str
    args: tuple[str, ...]
    expect: tuple[str, ...]  # words the one error line must hold
    make: Callable[[Path], None] | None = None
    needs_data: bool = False  # the real VASL files of ../shared/vasl
    env: dict[str, str] = field(default_factory=dict)


# --- input makers -------------------------------------------------------------------------------------

def _text(name: str, text: str) -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        (tmp / name).write_text(text, "utf-8")

    return make


def _symlink(name: str, target: str) -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        (tmp / name).symlink_to(target)

    return make


def _fifo(tmp: Path) -> None:
    os.mkfifo(tmp / "pipe.toml")


def _folder(tmp: Path) -> None:
    (tmp / "folder.toml").mkdir()


MAP = 'format = 1\n[map]\ncolumns = "A-C"\nrows = "1-3"\n'


def _big_file(tmp: Path) -> None:
    with (tmp / "big.toml").open("w") as f:
        f.write(MAP)
        line = "# " + "x" * 1000 + "\n"
        for _ in range(5000):  # 5 MB of comments
            f.write(line)


def _many(kind: str, entry: str, n: int = 20_000) -> Callable[[Path], None]:
    return _text(f"many-{kind}.toml", MAP + entry * n)


def _java_jar_bomb(tmp: Path) -> None:
    """A 'VASSAL engine jar' whose class files unpack to 64 MiB each (a few KB on disk)."""
    fake_module(tmp / "vasl" / "VASL.vmod")
    with zipfile.ZipFile(tmp / "Vengine.jar", "w", zipfile.ZIP_DEFLATED) as z:
        for name in ("VASSAL/build/GameModule.class", "VASSAL/build/module/Map.class",
                     "VASSAL/build/AbstractConfigurable.class", "VASSAL/command/Command.class"):
            z.writestr(name, bytes(64 * 1024 * 1024))


def _not_vasl(tmp: Path) -> None:
    with zipfile.ZipFile(tmp / "bd99.zip", "w") as z:  # a board archive, not a module
        z.writestr("BoardMetadata.xml", "<boardMetadata/>")
        z.writestr("LOSData", b"\0" * 16)
    with zipfile.ZipFile(tmp / "Other.vmod", "w") as z:
        z.writestr("buildFile.xml", '<VASSAL.launch.BasicModule name="Paths of Glory" version="1"/>')


def _vasl_module(tmp: Path) -> None:
    fake_module(tmp / "vasl" / "VASL.vmod")
    (tmp / "home").mkdir()


def _token_readable_by_others(tmp: Path) -> None:
    (tmp / "token").write_text("secret\n")
    (tmp / "token").chmod(0o644)


def _connection_file_unknown_host(tmp: Path) -> None:
    (tmp / "conn.json").write_text('{"port": 4444, "token": "x", "host": "nonexistent.invalid"}')
    (tmp / "conn.json").chmod(0o600)


def _vsav(tmp: Path, name: str, commands: list[str], boards: str) -> None:
    from asl_vassal_bridge.vasl.traits import encode_sequence
    from asl_vassal_bridge.vasl.vsav import obfuscate

    text = encode_sequence(["begin_save", "", encode_sequence(commands, "\x1b"), boards, "end_save"], "\x1b")
    with zipfile.ZipFile(tmp / name, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", obfuscate(text))
        z.writestr("moduledata", "<data><version>6.6.9</version></data>")


def _thousand_boards(tmp: Path) -> None:
    boards = "".join(f"bd\t{i % 40}\t{i // 40}\t01\tVER\t6.1\t" for i in range(1000))
    _vsav(tmp, "boards.vsav", [], boards)


def _many_pieces(tmp: Path) -> None:
    _vsav(tmp, "pieces.vsav", [f"+/p{i}/;x/Map0;1;1;1" for i in range(60_000)], "bd\t0\t0\t01\tVER\t6.1\t")


def _two_ec_counters(tmp: Path) -> None:
    from asl_vassal_bridge.core.hexes import Hex
    from asl_vassal_bridge.vasl.module import read_module
    from asl_vassal_bridge.vasl.position import DEFAULT_EDGE
    from tests.vasl.builders import make_vsav, placed

    s = read_module(SHARED_VASL / "buildFile-6.5.xml").by_gpid
    pieces = []
    for pid, hexname, layer in (("ec1", "A1", 4), ("ec2", "A2", 6)):  # Moist, and another EC
        x, y = Hex.parse(hexname).pixel()
        t, st = placed(s["284"], int(x) + DEFAULT_EDGE[0], int(y) + DEFAULT_EDGE[1], layer=layer)
        pieces.append((pid, t, st))
    (tmp / "two-ec.vsav").write_bytes(make_vsav(pieces, boards="bd\t0\t0\t01"))


def _terrain(tmp: Path) -> None:
    (tmp / "shared.xml").write_bytes(TERRAIN_XML)


def _zero_hex_width(tmp: Path) -> None:
    from tests.vasl.builders import blank_grid, board_archive

    _terrain(tmp)
    terrain, elevation = blank_grid(5, 3)
    (tmp / "bdzero").write_bytes(board_archive(terrain, elevation, 5, 3, attrs='hexWidth="0"'))


def _png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))


def _image_bomb(tmp: Path) -> None:
    from tests.vasl.builders import blank_grid, board_zip, make_losdata

    _terrain(tmp)
    terrain, elevation = blank_grid(5, 3)
    meta = b'<boardMetadata name="bomb" version="1" width="5" height="3" boardImageFileName="bomb.png"/>'
    (tmp / "bdbomb").write_bytes(board_zip(meta, make_losdata(5, 3, terrain, elevation),
                                           {"bomb.png": _png_header(20_000, 20_000)}))


def _deep_xml(tmp: Path) -> None:
    with zipfile.ZipFile(tmp / "Deep.vmod", "w") as z:
        z.writestr("buildFile.xml", "<a>" * 300 + "</a>" * 300)


# --- the table ----------------------------------------------------------------------------------------

CASES: tuple[Case, ...] = (
    # Position files: what they are, how big, how deep, how many.
    Case("toml-nested-100000-deep", ("odds", "{tmp}/deep.toml"), ("deep.toml", "nest more than 32 deep"),
         _text("deep.toml", "format = 1\nx = " + "[" * 100_000 + "]" * 100_000 + "\n")),
    Case("position-dev-zero", ("odds", "/dev/zero"), ("/dev/zero", "a device", "expected a position file")),
    Case("position-dev-urandom", ("forecast", "/dev/urandom"), ("/dev/urandom", "not a regular file")),
    Case("position-fifo", ("odds", "{tmp}/pipe.toml"), ("pipe.toml", "FIFO", "not a regular file"), _fifo),
    Case("position-folder", ("upkeep", "{tmp}/folder.toml", "--phase", "rph"), ("folder.toml", "a folder"),
         _folder),
    Case("position-over-4-MiB", ("odds", "{tmp}/big.toml"), ("big.toml", "at most 4,194,304"), _big_file),
    Case("explicit-hexes-300000", ("odds", "{tmp}/hexes.toml"), ("hexes.toml", "map.hexes[250000]", "at most 250,000"),
         _text("hexes.toml", "format = 1\n[map]\nhexes = [" + ",".join(f'"A{i}"' for i in range(300_000)) + "]\n")),
    Case("fires-20000", ("forecast", "{tmp}/many-fires.toml", "--turns", "1"),
         ("many-fires.toml", "fires: 20,000 entries", "at most 10,000"),
         _many("fires", '[[fires]]\nat = "A1"\nkind = "flame"\n')),
    Case("units-20000", ("odds", "{tmp}/many-units.toml"), ("many-units.toml", "units: 20,000 entries"),
         _many("units", '[[units]]\nid = "u"\nname = "4-6-7"\nside = "Axis"\nat = "A1"\n')),
    Case("elevation-2000000000", ("odds", "{tmp}/elev.toml"), ("elev.toml", "map.elevation.2000000000", "-9 to 99"),
         _text("elev.toml", MAP + '[map.elevation]\n2000000000 = ["A1"]\n')),
    Case("turn-10e20", ("odds", "{tmp}/turn.toml"), ("turn.toml", "clock.turn", "maximum of 99"),
         _text("turn.toml", MAP + "[clock]\nturn = 100000000000000000000\n")),
    Case("fire-since-huge", ("odds", "{tmp}/since.toml"), ("since.toml", "fires[0].since", "maximum of 200"),
         _text("since.toml", MAP.replace('"A-C"', '"A-C"\ndefault = "woods"')
               + '[[fires]]\nat = "A1"\nkind = "flame"\nsince = 99999999999\n')),
    Case("board-placement-huge", ("odds", "{tmp}/place.toml"), ("place.toml", "map.boards[0].x", "maximum of 99"),
         _text("place.toml", 'format = 1\n[map]\nboards = [{ name = "22", x = 1000000000 }]\n')),
    # Seeds: one rule everywhere.
    Case("forecast-seed-negative", ("forecast", "demo", "--seed", "-1"), ("--seed", "-1", "0 to 18446744073709551615")),
    Case("demo-seed-negative", ("demo", "--seed", "-1", "--out", "{tmp}/out"), ("--seed", "-1", "0 to")),
    Case("upkeep-seed-huge", ("upkeep", "demo", "--phase", "rph", "--seed", str(2**70)), ("--seed", "0 to")),
    Case("hob-seed-negative", ("hob", "--unit", "4-6-7", "--nationality", "german", "--seed", "-5"), ("--seed",)),
    # Forecast caps.
    Case("forecast-trials-10e12", ("forecast", "demo", "--trials", "1000000000000", "--turns", "1"),
         ("--trials", "1 to 1,000,000 trajectories")),
    Case("forecast-trials-10e8", ("forecast", "demo", "--trials", "100000000"), ("--trials", "1,000,000")),
    Case("forecast-turns-10e8", ("forecast", "demo", "--turns", "100000000"), ("--turns", "0 to 50 Player Turns")),
    Case("forecast-top-negative", ("forecast", "demo", "--top", "-3"), ("--top",)),
    # Numbers that make no sense.
    Case("mol-fp-negative", ("mol", "--fp", "-3"), ("--fp", "-3", "more than 0")),
    Case("mol-fp-nan", ("mol", "--fp", "nan"), ("--fp", "nan")),
    Case("mol-tem-1000", ("mol", "--fp", "3", "--tem", "1000"), ("--tem", "1000", "a TEM")),
    Case("clear-squads-10e9", ("clear", "demo", "--at", "E5", "--squads", "1000000000", "--odds"),
         ("--squads", "1000000000", "0 to 20")),
    Case("clear-labor-negative", ("clear", "demo", "--at", "E5", "--squads", "1", "--labor", "-5", "--odds"),
         ("--labor", "-5", "Labor status", "B24.7")),
    Case("kindle-leader-minus-99", ("kindle", "demo", "--at", "E5", "--leader", "-99", "--odds"),
         ("--leader", "-99", "a leader's modifier")),
    Case("ft-ift-result-dead", ("ft", "--ift-result", "DEAD", "--dice", "3,3"),
         ("--ift-result", "'DEAD' is not an IFT result", "KIA")),
    Case("ft-basic-tk-negative", ("ft", "--vs-afv", "--predesignated", "--basic-tk", "-5"),
         ("--basic-tk", "-5", "Basic TK#")),
    Case("mol-basic-tk-negative", ("mol", "--fp", "3", "--vs-afv", "--basic-tk", "-5"), ("--basic-tk",)),
    Case("ft-range-huge", ("ft", "--range", "100000000"), ("--range", "0 to 99")),
    # Dice: exactly the dice the command rolls.
    Case("dice-empty", ("upkeep", "demo", "--phase", "rph", "--dice", ""), ("--dice", "no die faces")),
    Case("dice-extra", ("upkeep", "demo", "--phase", "rph", "--dice", "3,4,5,6,1,1"),
         ("--dice", "6 die faces given", "rolled 2", "nothing was applied")),
    Case("dice-too-few", ("upkeep", "demo", "--phase", "afph", "--dice", "3"), ("--dice", "ran out")),
    Case("dice-not-a-face", ("upkeep", "demo", "--phase", "rph", "--dice", "3,9"),
         ("--dice", "'9' is not a die face")),
    Case("dice-mol-extra", ("mol", "--fp", "3", "--dice", "3,4,5,6,1"), ("--dice", "5 die faces given", "rolled 3")),
    Case("dice-hob-three", ("hob", "--unit", "4-6-7", "--nationality", "german", "--dice", "3,4,5"),
         ("--dice", "expected the two faces")),
    Case("dice-ft-empty", ("ft", "--dice", ""), ("--dice", "no die faces")),
    # Saved games and board archives.
    Case("vsav-1000-boards", ("vsav", "{tmp}/boards.vsav"), ("boards.vsav", "more than 64 boards"), _thousand_boards),
    Case("vsav-60000-pieces", ("vsav", "{tmp}/pieces.vsav"), ("pieces.vsav", "more than 50,000 pieces"), _many_pieces),
    Case("vsav-dev-zero", ("vsav", "{tmp}/zero.vsav"), ("zero.vsav", "a device"), _symlink("zero.vsav", "/dev/zero")),
    Case("vsav-two-ec-counters", ("odds", "{tmp}/two-ec.vsav", "--boards", str(SHARED_VASL / "boards")),
         ("two-ec.vsav", "two EC counters disagree", "ec1", "ec2"), _two_ec_counters, needs_data=True),
    Case("board-hexwidth-zero", ("board", "{tmp}/bdzero", "--terrain", "{tmp}/shared.xml"),
         ("bdzero", "hexWidth='0'", "more than 0"), _zero_hex_width),
    Case("board-png-400M-pixels",
         ("board", "{tmp}/bdbomb", "--terrain", "{tmp}/shared.xml", "--png", "{tmp}/out.png"),
         ("bdbomb", "pixels", "40,000,000"), _image_bomb),
    Case("xml-nested-300-deep", ("module", "{tmp}/Deep.vmod"),
         ("Deep.vmod", "Excessive depth", "limits of a safe read"),
         _deep_xml),
    # install.
    Case("install-board-archive-as-vasl", ("install", "--vasl", "{tmp}/bd99.zip", "--no-check"),
         ("bd99.zip", "no buildFile", "VASL.vmod"), _not_vasl),
    Case("install-other-module-as-vasl", ("install", "--vasl", "{tmp}/Other.vmod", "--no-check"),
         ("Other.vmod", "'Paths of Glory', not VASL"), _not_vasl),
    Case("install-no-vassal-found", ("install", "--vasl", "{tmp}/vasl/VASL.vmod"),
         ("VASSAL engine: not found", "cannot be checked", "--no-check"), _vasl_module, env={"HOME": "{tmp}/home"}),
    Case("install-jar-members-64-MiB", ("install", "--vasl", "{tmp}/vasl/VASL.vmod", "--vassal", "{tmp}/Vengine.jar"),
         ("Vengine.jar!VASSAL/", "4,194,304-byte limit"), _java_jar_bomb),
    Case("build-extension-into-a-folder", ("build-extension", "--vassal-jar", "{tmp}/x.jar", "-o", "{tmp}"),
         ("-o", "a folder", "asl-fire-bridge.vmdx")),
    # bridge.
    Case("bridge-token-file-readable-by-others", ("bridge", "--port", "1", "--token-file", "{tmp}/token"),
         ("--token-file", "token", "readable by other users", "600"), _token_readable_by_others),
    Case("bridge-connection-file-unknown-host", ("bridge", "--connection-file", "{tmp}/conn.json"),
         ("nonexistent.invalid", "not this machine's loopback address", "127.0.0.1"), _connection_file_unknown_host),
    Case("bridge-port-out-of-range", ("bridge", "--port", "70000", "--token-file", "{tmp}/token"),
         ("--port", "70000", "1 to 65,535")),
    Case("bridge-port-streams-bytes", ("bridge", "--port", "{stream}", "--token-file", "{tmp}/tok600"),
         ("127.0.0.1:", "sent over 256 bytes", "check the port")),
    Case("bridge-port-never-answers", ("bridge", "--port", "{silent}", "--token-file", "{tmp}/tok600"),
         ("127.0.0.1:", "did not answer within 10 s")),
)


# --- hostile servers for the bridge ------------------------------------------------------------------

@pytest.fixture(scope="module")
def hostile_ports() -> Iterator[dict[str, int]]:
    """Two local ports: one streams bytes forever to whoever connects, one accepts and never answers."""
    servers: list[socket.socket] = []
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve(srv: socket.socket, stream: bool) -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            held.append(conn)
            if stream:
                threading.Thread(target=_stream, args=(conn, stop), daemon=True).start()

    ports = {}
    for name, stream in (("stream", True), ("silent", False)):
        srv = socket.create_server(("127.0.0.1", 0))
        servers.append(srv)
        ports[name] = srv.getsockname()[1]
        threading.Thread(target=serve, args=(srv, stream), daemon=True).start()
    yield ports
    stop.set()
    for s in servers + held:
        s.close()


def _stream(conn: socket.socket, stop: threading.Event) -> None:
    block = b"x" * 65536
    try:
        while not stop.is_set():
            conn.sendall(block)
    except OSError:
        return


# --- the run ------------------------------------------------------------------------------------------

def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input_gets_one_line_and_exit_status_2(case: Case, tmp_path: Path,
                                                       hostile_ports: dict[str, int]) -> None:
    if case.needs_data and not (SHARED_VASL / "buildFile-6.5.xml").is_file():
        missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
    if case.make is not None:
        case.make(tmp_path)
    (tmp_path / "tok600").write_text("secret\n")
    (tmp_path / "tok600").chmod(stat.S_IRUSR | stat.S_IWUSR)
    before = {p.relative_to(tmp_path) for p in tmp_path.rglob("*")}

    def fill(text: str) -> str:
        return text.format(tmp=tmp_path, **hostile_ports)

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS",)}
    env.update({k: fill(v) for k, v in case.env.items()})
    env.update(PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    run = subprocess.run([sys.executable, "-m", "asl_vassal_bridge", *map(fill, case.args)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=TIME_LIMIT, preexec_fn=_limits, check=False)
    # The one error line, after the lines saying which VASL files were used ("asl-fire: using …").
    err = [line for line in run.stderr.strip().splitlines() if not line.startswith("asl-fire: using ")]
    assert "Traceback" not in run.stderr + run.stdout, run.stderr[-3000:]
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert len(err) == 1, err
    line = err[0]
    command = case.args[0]
    assert line.startswith(f"asl-fire {command}:"), line
    for word in case.expect:
        assert fill(word) in line, (word, line)
    assert not re.search(r"\((?:KeyError|ValueError|gaierror|OSError|Py4J\w+)\)|XML_PARSE_HUGE|\bNone\b", line), line
    after = {p.relative_to(tmp_path) for p in tmp_path.rglob("*")}
    assert after == before, f"written: {sorted(map(str, after - before))}"


def test_the_table_covers_every_class_of_the_issue() -> None:
    """Tracebacks, unbounded time or memory, nonsense accepted, install, bridge: each has rows."""
    ids = " ".join(c.id for c in CASES)
    for needle in ("nested", "dev-zero", "urandom", "fifo", "seed", "trials", "turns", "fires-20000",
                   "units-20000", "explicit-hexes", "1000-boards", "png-400M", "jar-members", "streams-bytes",
                   "never-answers", "mol-fp", "squads", "leader", "labor", "ift-result", "basic-tk", "elevation",
                   "turn-10e20", "hexwidth", "two-ec", "dice-empty", "dice-extra", "board-archive-as-vasl",
                   "no-vassal", "token-file"):
        assert needle in ids, needle


# --- what is accepted says what it did ----------------------------------------------------------------

def _asl_fire(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "asl_vassal_bridge", *args], cwd=cwd, env=full, capture_output=True,
                          text=True, timeout=TIME_LIMIT, preexec_fn=_limits, check=False)


def test_a_forecast_without_seed_prints_the_seed_that_repeats_it(tmp_path: Path) -> None:
    run = _asl_fire("forecast", "demo", "--turns", "1", "--trials", "50", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    m = re.search(r"50 trajectories, seed (\d+) \(--seed \1 repeats them\)", run.stdout)
    assert m, run.stdout
    again = _asl_fire("forecast", "demo", "--turns", "1", "--trials", "50", "--seed", m.group(1), cwd=tmp_path)
    assert again.stdout == run.stdout


def test_install_no_check_says_the_linkage_was_not_checked(tmp_path: Path) -> None:
    _vasl_module(tmp_path)
    run = _asl_fire("install", "--vasl", str(tmp_path / "vasl" / "VASL.vmod"), "--no-check", cwd=tmp_path,
                    env={"HOME": str(tmp_path / "home")})
    assert run.returncode == 0, run.stderr
    assert "NOT checked: no VASSAL engine found" in run.stdout
    assert (tmp_path / "vasl" / "VASL_ext" / "asl-fire-bridge.vmdx").is_file()


def test_board_names_the_files_it_uses_once_and_suggests_an_ssr_by_its_case(tmp_path: Path) -> None:
    boards = SHARED_VASL / "boards"
    if not (boards / "bd01").is_file():
        missing("data", f"{boards / 'bd01'} does not exist (the shared/vasl folder beside the repository)")
    module = fake_module(tmp_path / "VASL.vmod", (SHARED_VASL / "SharedBoardMetadata.xml").read_bytes())
    run = _asl_fire("board", "bd01", "--boards", str(boards), "--vasl", str(module), "--ssr", "nograin", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    using = [line for line in run.stderr.splitlines() if line.startswith("asl-fire: using ")]
    assert len(using) == len(set(using)) == 2, using
    assert "did you mean 'NoGrain'?" in run.stderr
