"""Fixtures that run a real VASSAL engine (under Xvfb) with the bridge extension built by the project."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from asl_vassal_bridge.bridge.client import BridgeClient, connect
from tests.conftest import missing
from tests.support import vassal_harness as vh


def _need_engine() -> None:
    try:
        vh.check_tools()
        vh.vassal_jar()
        vh.debian_classpath()
    except vh.Unavailable as e:
        missing("engine", str(e))


@pytest.fixture(scope="session")
def engine_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _need_engine()
    return tmp_path_factory.mktemp("vassal")


@pytest.fixture(scope="session")
def support_jar(engine_dir: Path) -> Path:
    """The test-support jar with the stand-ins of VASL 6.7.x's API and map building (the default)."""
    return vh.build_support_jar(engine_dir)


_JARS: dict[str, Path] = {}


@pytest.fixture(scope="module", params=vh.VASL_APIS)
def vasl_api(request: pytest.FixtureRequest) -> str:
    """Each VASL API the stand-ins copy: ``"6.7"`` (VASL 6.7.x) and ``"2020"`` (the VASL of 2020)."""
    return str(request.param)


@pytest.fixture(scope="module")
def api_jar(vasl_api: str, engine_dir: Path) -> Path:
    """The test-support jar with the stand-ins of *vasl_api* (built once per session)."""
    if vasl_api not in _JARS:
        _JARS[vasl_api] = vh.build_support_jar(engine_dir, vasl_api=vasl_api)
    return _JARS[vasl_api]


@pytest.fixture(scope="session")
def module_with_extension(engine_dir: Path) -> Path:
    """The test module, with the extension built by `asl-fire build-extension` in `<module>_ext/`."""
    from asl_vassal_bridge.cli import main

    mod = vh.build_module(engine_dir / "firetest.vmod")
    ext = engine_dir / "firetest_ext"
    ext.mkdir(exist_ok=True)
    rc = main(["build-extension", "--vassal-jar", str(vh.vassal_jar()), "-o", str(ext / "asl-fire-bridge.vmdx")])
    assert rc == 0
    return mod


def _with_extension(module: Path, built_by: Path) -> Path:
    """*module* with the extension the session built (copied into ``<module>_ext/``)."""
    ext = module.parent / f"{module.stem}_ext"
    ext.mkdir(exist_ok=True)
    built = built_by.parent / f"{built_by.stem}_ext" / "asl-fire-bridge.vmdx"
    shutil.copy(built, ext / built.name)
    return module


@pytest.fixture(scope="session")
def three_board_module(module_with_extension: Path, engine_dir: Path) -> Path:
    """The test module with the three boards of :mod:`tests.bridge.three_boards` and their stand-in terrain."""
    from .three_boards import BOARDS, TERRAIN

    mod = vh.build_module(engine_dir / "threeboards.vmod", board_class=vh.VASL_BOARD, boards=[b.name for b in BOARDS],
                          terrain=TERRAIN)
    return _with_extension(mod, module_with_extension)


@pytest.fixture(scope="session")
def xvfb() -> Iterator[vh.Xvfb]:
    _need_engine()
    x = vh.Xvfb()
    yield x
    x.stop()


def launch(name: str, module: Path, pieces: list[vh.GamePiece], support_jar: Path, display: str,
           workdir: Path, boards: tuple[vh.BoardAt, ...] = (vh.BoardAt(vh.BOARD),),
           stacks: bool = False) -> vh.VassalPlayer:
    game = vh.write_saved_game(workdir / f"{name}.vsav", pieces, stacks=stacks, boards=boards)
    return vh.VassalPlayer(name, module, game, support_jar, display, workdir, workdir / f"{name}.json")


def wait_started(client: BridgeClient, timeout: float = 30.0) -> None:
    """Wait until the bridge says the game has started."""
    end = time.time() + timeout
    while time.time() < end:
        if client.status().get("started"):
            return
        time.sleep(0.2)
    raise AssertionError("the game did not start")


@contextmanager
def started_player(name: str, module: Path, support_jar: Path, display: str, workdir: Path,
                   pieces: list[vh.GamePiece] | None = None,
                   boards: tuple[vh.BoardAt, ...] = (vh.BoardAt(vh.BOARD),), stacks: bool = False) -> Iterator[
                       tuple[vh.VassalPlayer, BridgeClient]]:
    """A VASSAL player with *pieces* (the standard ones by default) on *boards*, its bridge connected and its game
    started; stopped after.  With *stacks* every hex's pieces are in one VASSAL Stack, as in real saves."""
    workdir.mkdir(exist_ok=True)
    player = launch(name, module, standard_pieces() if pieces is None else pieces, support_jar, display, workdir,
                    boards, stacks)
    try:
        player.wait_connection_file()
        client = connect(player.connection_file)
        wait_started(client)
        yield player, client
        client.close()
    finally:
        player.stop()


def hidden_piece(pid: str, hex_name: str, owner: str) -> vh.GamePiece:
    """A piece hidden (VASSAL's Invisible trait) by another player: INVISIBLE_TO_ME for this one."""
    return vh.GamePiece(pid, hex_name, type="hide;72,130;HIP;;player:;0.3\tpiece;;;;Hidden Squad",
                       state=f"{owner}\t@XY@;;0")


def masked_piece(pid: str, hex_name: str, owner: str) -> vh.GamePiece:
    """A piece masked (VASSAL's Mask trait, concealment) by another player: OBSCURED_TO_ME for this one."""
    return vh.GamePiece(pid, hex_name, type="obs;77,130;;Conceal;G;?;player:\tpiece;;;;Concealed Squad",
                       state=f"{owner}\t@XY@;;0")


def standard_pieces() -> list[vh.GamePiece]:
    """Flames and a Blaze in and around woods, EC, Wind Dir, Wind and Gusts counters, one hidden and one masked."""
    return [
        vh.GamePiece("flame-c2", "C2", gpid="192"),
        vh.GamePiece("flame-d3", "D3", gpid="192"),
        vh.GamePiece("flame-e2", "E2", gpid="192"),
        vh.GamePiece("blaze-d2", "D2", gpid="195"),
        vh.GamePiece("blaze-h2", "H2", gpid="195"),
        vh.GamePiece("ec", "A1", gpid="284"),
        vh.GamePiece("wind-dir", "A3", gpid="285"),
        vh.GamePiece("wind", "A5", gpid="287"),
        vh.GamePiece("gusts", "B5", gpid="286"),
        hidden_piece("hidden-1", "F5", "someone-else"),
        masked_piece("masked-1", "F6", "someone-else"),
    ]
