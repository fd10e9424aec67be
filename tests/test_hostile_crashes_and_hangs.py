"""Issue 32, points 6–14: hostile inputs that crashed a command or made it hang or eat memory.

Each row builds its input here (in the test's folder: nothing large is committed), runs ``asl-fire`` in a
subprocess under :data:`MEMORY_LIMIT` of address space (``resource.setrlimit`` in ``preexec_fn``) and a
:data:`TIME_LIMIT` timeout, and asserts: exit status 2; one error line, ``asl-fire COMMAND: …``, holding the
row's words (the file, field or option, and the limit); no traceback; nothing written.  The limits are bounds
the test enforces, not timings: before the fixes these inputs took minutes or gigabytes, or hung.

Inputs a player may legitimately send that used to be quadratic (a building naming 50,000 hexes, 3,000
``hex_levels``, 2,000 fortified buildings, a 52 × 40 map drawn with ``--png``) are run to success under the
same bounds.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import SHARED_VASL, missing
from tests.test_hostile_inputs import _png_header, _vsav

ROOT = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 2 * 1024**3
TIME_LIMIT = 30


@dataclass(frozen=True)
class Case:
    """One hostile input: ``asl-fire ARGS`` (``{tmp}`` is the test's folder) after *make* wrote its files."""

    id: str
    args: tuple[str, ...]
    expect: tuple[str, ...]
    make: Callable[[Path], None] | None = None
    needs_data: bool = False
    env: dict[str, str] = field(default_factory=dict)


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _run(args: list[str], tmp: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    full.update(env or {})
    full.update(PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "asl_vassal_bridge", *args], cwd=tmp, env=full, capture_output=True,
                          text=True, timeout=TIME_LIMIT, preexec_fn=_limits, check=False)


# --- input makers -------------------------------------------------------------------------------------

def _text(name: str, text: str) -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        (tmp / name).write_text(text, "utf-8")

    return make


MAP = 'format = 1\n[map]\ncolumns = "A-C"\nrows = "1-3"\n'
#: The largest map a position file may have: 5 columns of 50,000 hexes.
BIG_MAP = 'format = 1\n[map]\ncolumns = "A-E"\nrows = "1-50000"\n'


def _unit_picture_bomb(tmp: Path) -> None:
    """The real pieces on bd01 and a VASL.vmod whose half-squad picture claims 20,000 × 20,000 pixels."""
    from tests import unit_art

    unit_art.write_game(tmp)
    unit_art.write_boards(tmp)
    vmod = unit_art.write_module(tmp, images={k: v for k, v in unit_art.COLOURS.items() if k != "ru/ru226H"})
    with zipfile.ZipFile(vmod, "a") as z:
        z.writestr("images/ru/ru226H.png", _png_header(20_000, 20_000))


def _connection_nested(tmp: Path) -> None:
    (tmp / "conn.json").write_text('{"port": 4444, "token": "x", "a": ' + "[" * 20_000 + "]" * 20_000 + "}")
    (tmp / "conn.json").chmod(0o600)


def _prefs(make_file: Callable[[Path], None], name: str = "V_Global") -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        (tmp / "home").mkdir()
        prefs = tmp / "conf" / "prefs"
        prefs.mkdir(parents=True)
        make_file(prefs / name)
        if name != "V_Global":
            _vsav(tmp, "game.vsav", [], "bd\t0\t0\t01\tVER\t6.1\t")

    return make


def _sparse_3_gib(path: Path) -> None:
    with path.open("wb") as f:
        f.truncate(3 * 1024**3)


def _many_modules(path: Path) -> None:
    path.write_text("Modules=" + ",".join(f"/m/mod{i}.vmod;/g{i}" for i in range(15_000)) + "\n")


def _continuations(path: Path) -> None:
    path.write_text("Modules=/a/VASL.vmod\\\n" + "x\\\n" * 600_000 + "y\n")


PREFS_ENV = {"HOME": "{tmp}/home", "ASL_FIRE_VASSAL_CONF": "{tmp}/conf"}


def _concealed_stack(tmp: Path) -> None:
    q = "+/q/concealment;A;?/null;Map0;100;100;4"
    _vsav(tmp, "conceal.vsav", [q, "+/s/stack/Map0;100;100;" + ";".join(["q"] * 100_000)], "bd\t0\t0\t01\tVER\t6.1\t")


def _nested_64_mb(tmp: Path) -> None:
    """Commands nested 50 deep around 60 MB (VASSAL 3.8's VOBS: the member holds the text itself)."""
    inner = b"+/p/x/y;" + b"a" * (60 * 1024 * 1024)
    for _ in range(50):  # SequenceEncoder: each level escapes its delimiter (ESC) with a backslash
        inner = inner.replace(b"\x1b", b"\\\x1b") + b"\x1b+/p2/x/y"
    text = b"begin_save\x1b\x1b" + inner.replace(b"\x1b", b"\\\x1b") + b"\x1bbd\t0\t0\t01\tVER\t6.1\t\x1bend_save"
    key = 0x5A
    with zipfile.ZipFile(tmp / "deep.vsav", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", b"VOBS" + bytes([key]) + text.translate(bytes(i ^ key for i in range(256))))


def _fifo(name: str) -> Callable[[Path], None]:
    def make(tmp: Path) -> None:
        os.mkfifo(tmp / name)

    return make


BOARDS = str(SHARED_VASL / "boards")

CASES: tuple[Case, ...] = (
    # 7: a float where an integer belongs.
    Case("float-board-x", ("odds", "{tmp}/x.toml"), ("x.toml", "map.boards[0].x", "1.0 is not of type 'integer'"),
         _text("x.toml", 'format = 1\n[map]\nboards = [{ name = "22", x = 1.0 }]\n')),
    Case("float-levels", ("odds", "{tmp}/levels.toml"), ("levels.toml", "buildings[0].levels", "2.0", "'integer'"),
         _text("levels.toml", MAP + '[[buildings]]\nid = "b"\nmaterial = "stone"\nhexes = ["A1"]\nlevels = 2.0\n')),
    Case("float-turn", ("upkeep", "{tmp}/turn.toml", "--phase", "rph", "-o", "{tmp}/out.toml"),
         ("turn.toml", "clock.turn", "3.0 is not of type 'integer'"),
         _text("turn.toml", MAP + "[clock]\nturn = 3.0\n")),
    # 8: superscript digits in --dice.
    Case("dice-superscript-ft", ("ft", "--dice", "³,4"), ("--dice", "'³' is not a die face")),
    Case("dice-superscript-upkeep", ("upkeep", "demo", "--phase", "rph", "--dice", "²,5"),
         ("--dice", "'²' is not a die face")),
    # 9: a connection file nested 20,000 deep (40 kB).
    Case("connection-file-nested", ("bridge", "--connection-file", "{tmp}/conn.json"),
         ("conn.json", "nested too deep"), _connection_nested),
    # 10: VASSAL's preference files.
    Case("prefs-v-global-3-gib", ("install",), ("V_Global", "3,221,225,472 bytes", "at most 4,194,304"),
         _prefs(_sparse_3_gib), env=PREFS_ENV),
    Case("prefs-v-global-dev-zero", ("install",), ("V_Global", "a device", "VASSAL preferences file"),
         _prefs(lambda p: p.symlink_to("/dev/zero")), env=PREFS_ENV),
    Case("prefs-v-global-fifo", ("install",), ("V_Global", "FIFO", "VASSAL preferences file"),
         _prefs(os.mkfifo), env=PREFS_ENV),
    Case("prefs-v-global-15000-modules", ("install",), ("V_Global", "no VASL*.vmod"), _prefs(_many_modules),
         env=PREFS_ENV),
    Case("prefs-v-global-600000-continuations", ("install",), ("V_Global", "no VASL*.vmod"), _prefs(_continuations),
         env=PREFS_ENV),
    Case("prefs-vasl-fifo-odds-vsav", ("odds", "{tmp}/game.vsav"), ("prefs/VASL", "FIFO", "VASSAL preferences file"),
         _prefs(os.mkfifo, "VASL"), env=PREFS_ENV),
    # 11: an opponent's saved game.
    Case("vsav-stack-100000-concealed", ("vsav", "{tmp}/conceal.vsav"),
         ("conceal.vsav", "stacks name more than 50,000 pieces"), _concealed_stack),
    Case("vsav-2000-overlays", ("odds", "{tmp}/ovr.vsav", "--boards", BOARDS),
         ("ovr.vsav", "board 01", "more than 100 overlays"),
         lambda tmp: _vsav(tmp, "ovr.vsav", [], "bd\t0\t0\t01\tVER\t6.1\t" + "OVR\tx1\tE5\tE5\t" * 2000),
         needs_data=True),
    Case("vsav-60000-ssr-tokens", ("odds", "{tmp}/ssr.vsav", "--boards", BOARDS),
         ("ssr.vsav", "board 01", "more than 300 SSR terrain changes"),
         lambda tmp: _vsav(tmp, "ssr.vsav", [], "bd\t0\t0\t01\tVER\t6.1\tSSR\t" + "NoGrain\t" * 60_000),
         needs_data=True),
    Case("vsav-nested-50-deep-64-mb", ("vsav", "{tmp}/deep.vsav"),
         ("deep.vsav", "nest", "more than 134,217,728 characters"), _nested_64_mb),
    # 12: position-file amplification.
    Case("posfile-400-terrain-ranges", ("odds", "{tmp}/terrain.toml"),
         ("terrain.toml", "map.terrain[20].hexes[0]", "more than 1,000,000 hexes in all"),
         _text("terrain.toml", BIG_MAP + '[[map.terrain]]\nkind = "woods"\nhexes = ["A1-A50000"]\n' * 400)),
    Case("posfile-99-elevations", ("odds", "{tmp}/elev.toml"),
         ("elev.toml", "map.elevation.", "more than 1,000,000 hexes in all"),
         _text("elev.toml", BIG_MAP + "[map.elevation]\n"
               + "".join(f'{i} = ["A1-A50000", "B1-B50000"]\n' for i in range(1, 100)))),
    Case("posfile-rooftop-gone-50000-then-one-outside", ("odds", "{tmp}/roof.toml"),
         ("roof.toml", "buildings[0].rooftop_gone", "B1 is not a hex of building 'b'"),
         _text("roof.toml", BIG_MAP + '[[buildings]]\nid = "b"\nmaterial = "stone"\nkind = "two-story"\n'
               'rooftop = true\nhexes = ["A1-A50000"]\nrooftop_gone = ["A1-A50000", "B1"]\n')),
    Case("posfile-marketplace-50000-then-one-outside", ("odds", "{tmp}/market.toml"),
         ("market.toml", "buildings[0].marketplace", "B1 must be a hex of building 'b'"),
         _text("market.toml", BIG_MAP + '[[buildings]]\nid = "b"\nmaterial = "stone"\nkind = "two-story"\n'
               'hexes = ["A1-A50000"]\nmarketplace = ["A1-A50000", "B1"]\n')),
    # 13: a map too large to draw.
    Case("png-249600-hexes", ("forecast", "{tmp}/huge.toml", "--turns", "1", "--trials", "10", "--png",
                              "{tmp}/huge.png"),
         ("--png", "huge.png", "249,600 hexes", "at most 40,000,000", "nothing was drawn"),
         _text("huge.toml", 'format = 1\n[map]\ncolumns = "A-LLLLLLLLLLLLLLLLLLL"\nrows = "1-520"\n')),
    # 14: asl-fire module on a FIFO.
    Case("module-fifo", ("module", "{tmp}/buildFile"), ("buildFile", "FIFO", "not a regular file"),
         _fifo("buildFile")),
    Case("module-dev-zero", ("module", "/dev/zero"), ("/dev/zero", "a device")),
)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input_ends_in_one_line_within_the_bounds(case: Case, tmp_path: Path) -> None:
    if case.needs_data and not (SHARED_VASL / "boards" / "bd01").is_file():
        missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
    if case.make is not None:
        case.make(tmp_path)
    before = {p.relative_to(tmp_path) for p in tmp_path.rglob("*")}

    def fill(text: str) -> str:
        return text.format(tmp=tmp_path)

    run = _run([fill(a) for a in case.args], tmp_path, {k: fill(v) for k, v in case.env.items()})
    err = [line for line in run.stderr.strip().splitlines() if not line.startswith("asl-fire: using ")]
    assert "Traceback" not in run.stderr + run.stdout, run.stderr[-3000:]
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    assert len(err) == 1, err
    line = err[0]
    assert line.startswith(f"asl-fire {case.args[0]}:"), line
    for word in case.expect:
        assert fill(word) in line, (word, line)
    assert not re.search(r"\((?:KeyError|ValueError|TypeError|RecursionError|MemoryError)\)|\bNone\b", line), line
    after = {p.relative_to(tmp_path) for p in tmp_path.rglob("*")}
    assert after == before, f"written: {sorted(map(str, after - before))}"


def test_the_table_covers_points_6_to_14() -> None:
    ids = " ".join(c.id for c in CASES)
    for needle in ("float-board-x", "float-levels", "float-turn", "dice-superscript",
                   "connection-file-nested", "3-gib", "dev-zero", "v-global-fifo", "15000-modules",
                   "600000-continuations", "vasl-fifo", "100000-concealed", "2000-overlays", "60000-ssr",
                   "nested-50-deep", "400-terrain", "99-elevations", "rooftop-gone", "marketplace", "png-249600",
                   "module-fifo"):
        assert needle in ids, needle


# --- what a player may send, once quadratic: accepted within the same bounds ----------------------------

def _accepted(tmp: Path, *args: str) -> str:
    run = _run(list(args), tmp)
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def test_a_building_of_50000_hexes_with_its_rooftops_gone_and_marketplaces_loads(tmp_path: Path) -> None:
    (tmp_path / "b.toml").write_text(BIG_MAP + '[[buildings]]\nid = "b"\nmaterial = "stone"\nkind = "two-story"\n'
                                     'rooftop = true\nhexes = ["A1-A50000"]\nrooftop_gone = ["A1-A50000"]\n'
                                     'marketplace = ["A1-A50000"]\n')
    assert "Turn 1.1" in _accepted(tmp_path, "odds", str(tmp_path / "b.toml"))


def test_3000_hex_levels_and_2000_fortified_buildings_load_and_forecast(tmp_path: Path) -> None:
    levels = "".join(f"{c}{r} = 2\n" for c in "ABC" for r in range(1, 1001))
    (tmp_path / "levels.toml").write_text(
        'format = 1\n[map]\ncolumns = "A-C"\nrows = "1-1000"\n[[buildings]]\nid = "b"\nmaterial = "stone"\n'
        'kind = "two-story"\nhexes = ["A1-A1000", "B1-B1000", "C1-C1000"]\n[buildings.hex_levels]\n' + levels
        + '[[fires]]\nat = "B500.2"\nkind = "blaze"\n')
    cols = "ABCDEFGHIJKLMNOPQRST"
    forts = "".join(f'[[buildings]]\nid = "b{i}"\nmaterial = "stone"\nhexes = ["{cols[i // 100]}{i % 100 + 1}"]\n'
                    f'fortified = ["{cols[i // 100]}{i % 100 + 1}"]\n' for i in range(2000))
    (tmp_path / "forts.toml").write_text('format = 1\n[map]\ncolumns = "A-T"\nrows = "1-100"\n' + forts
                                         + '[[fires]]\nat = "A1"\nkind = "blaze"\n')
    for name in ("levels.toml", "forts.toml"):
        out = _accepted(tmp_path, "forecast", str(tmp_path / name), "--turns", "2", "--trials", "20", "--seed", "1")
        assert "20 trajectories" in out, out


def test_a_52_by_40_map_is_drawn_with_its_chances(tmp_path: Path) -> None:
    """2,080 hexes, each with its translucent name band and chance tint: one small layer per shape."""
    from PIL import Image

    (tmp_path / "wide.toml").write_text('format = 1\n[map]\ncolumns = "A-ZZ"\nrows = "1-40"\ndefault = "woods"\n'
                                        '[[fires]]\nat = "M20"\nkind = "blaze"\n')
    _accepted(tmp_path, "forecast", str(tmp_path / "wide.toml"), "--turns", "3", "--trials", "50", "--seed", "1",
              "--png", str(tmp_path / "wide.png"))
    with Image.open(tmp_path / "wide.png") as im:
        assert im.width > 52 * 55 and im.height > 40 * 64


def test_an_image_bomb_among_the_unit_pictures_is_named_and_the_units_drawn_in_their_sides_colour(
        tmp_path: Path) -> None:
    """Point 6: ``forecast --png`` of a saved game whose VASL.vmod holds a unit picture claiming 400 M pixels.

    As for any module whose pictures cannot be read, the picture is drawn with the units in their side's colour,
    and one line says why, naming the module and the member (PIL's DecompressionBombError was a traceback).
    """
    if not (SHARED_VASL / "boards" / "bd01").is_file():
        missing("data", f"{SHARED_VASL} does not exist (the shared/vasl folder beside the repository)")
    _unit_picture_bomb(tmp_path)
    run = _run(["forecast", str(tmp_path / "units.vsav"), "--boards", str(tmp_path / "boards"), "--vasl",
                str(tmp_path / "VASL.vmod"), "--turns", "0", "--trials", "1", "--seed", "1", "--png",
                str(tmp_path / "out.png")], tmp_path)
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stderr.splitlines() if "unit pictures" in line]
    assert len(said) == 1, run.stderr
    for word in ("VASL.vmod", "unit picture 'images/ru/ru226H.png'", "more than 40,000,000 pixels",
                 "side's colour instead"):
        assert word in said[0], (word, said[0])
    assert (tmp_path / "out.png").is_file()
