"""Talk to the VASSAL extension through py4j: snapshot out, batch in, dice from VASSAL.

The extension writes its port and auth token to a file only the user can
read (see :func:`default_connection_file`); :func:`connect` reads it.
Calls are plain strings (one JSON string per snapshot or batch), on sockets
with TCP_NODELAY so large replies do not stall on delayed ACKs.
"""

from __future__ import annotations

import contextlib
import gc
import gzip
import json
import os
import socket
import stat
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ..core.dice import CallbackDice
from ..core.errors import BadInput

__all__ = [
    "BridgeClient",
    "BridgeRefused",
    "ConnectionInfo",
    "NotConnected",
    "NothingAnswers",
    "connect",
    "default_connection_file",
    "handshake",
    "loopback_host",
    "read_connection_file",
]


class NotConnected(BadInput):
    """No VASSAL extension answers: not running, wrong port, or the token was refused."""


class NothingAnswers(NotConnected):
    """Nothing listens on the port (connection refused)."""


#: The most bytes the handshake reads for the gateway's answer to the token (py4j answers ``!yv``).
HANDSHAKE_BYTES = 256
#: Seconds the handshake waits for the connection and for the answer.
HANDSHAKE_TIMEOUT = 10.0


def handshake(host: str, port: int, token: str, timeout: float = HANDSHAKE_TIMEOUT) -> None:
    """Check, before py4j is given the port, that a py4j gateway answers there and takes the token.

    py4j reads its answers line by line without a limit or (before the first call) a short timeout: a
    port that streams bytes would fill the memory, one that never answers would keep the player
    waiting.  This reads at most :data:`HANDSHAKE_BYTES` within *timeout* seconds.

    :raises NothingAnswers: when nothing listens on the port.
    :raises NotConnected: for anything else that is not the extension's gateway taking the token.
    """
    where = f"{host}:{port}"
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except socket.gaierror:
        raise NotConnected(f"{host}: not a host name this machine can find (expected 127.0.0.1, where the "
                           "extension listens)") from None
    except ConnectionRefusedError:
        raise NothingAnswers(f"{where}: nothing answers on that port") from None
    except TimeoutError:
        raise NotConnected(f"{where}: no answer to the connection within {timeout:g} s") from None
    except OSError as e:
        raise NotConnected(f"{where}: cannot connect ({e.strerror or e})") from None
    with sock:
        answer = b""
        try:
            sock.sendall(f"A\n{token}\n".encode())
            deadline = time.monotonic() + timeout
            while b"\n" not in answer and len(answer) <= HANDSHAKE_BYTES:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(HANDSHAKE_BYTES + 1 - len(answer))
                if not chunk:
                    break
                answer += chunk
        except TimeoutError:
            raise NotConnected(f"{where}: something accepted the connection but did not answer within {timeout:g} s "
                               "(expected VASSAL's ASL fire bridge extension): check the port") from None
        except OSError as e:
            raise NotConnected(f"{where}: the connection broke during the handshake ({e.strerror or e})") from None
    line = answer.split(b"\n", 1)[0]
    if b"\n" not in answer:
        what = "closed the connection" if len(answer) <= HANDSHAKE_BYTES else f"sent over {HANDSHAKE_BYTES} bytes"
        raise NotConnected(f"{where}: {what} without a py4j answer (expected VASSAL's ASL fire bridge extension): "
                           "check the port")
    if line.startswith(b"!x"):
        raise NotConnected(f"{where}: the bridge refused the token; the connection file or --token-file is stale: "
                           "restart VASSAL's game or check the file")
    if not line.startswith(b"!y"):
        raise NotConnected(f"{where}: answered {line[:40]!r}, not as py4j does (expected VASSAL's ASL fire bridge "
                           "extension): check the port")


class BridgeRefused(BadInput):
    """VASSAL refused a change (outside a game, Main Room, stale snapshot…); nothing was changed."""


@dataclass(frozen=True, slots=True)
class ConnectionInfo:
    host: str
    port: int
    token: str
    pid: int | None = None
    module: str | None = None


def vassal_conf_dir() -> Path:
    """VASSAL's conf folder on this system (``$ASL_FIRE_VASSAL_CONF`` stands for VASSAL's ``-DVASSAL.conf``)."""
    from ..vasl.setup import Platform

    return Platform.current().conf_dir()


def default_connection_file() -> Path:
    """Where the extension writes port and token: ``<VASSAL conf dir>/aslfire/bridge.json``.

    ``ASL_FIRE_BRIDGE_FILE`` overrides it (the Java side: ``-Daslfire.connectionFile=``); ``ASL_FIRE_VASSAL_CONF``
    names the conf dir of a VASSAL started with ``-DVASSAL.conf=DIR``.
    """
    env = os.environ.get("ASL_FIRE_BRIDGE_FILE")
    return Path(env) if env else vassal_conf_dir() / "aslfire" / "bridge.json"


def read_connection_file(path: Path | None = None) -> ConnectionInfo:
    """Read port and token.

    :raises NotConnected: if the file is missing (VASSAL not running with the extension).
    :raises BadInput: if it is malformed or readable by other users.
    """
    path = Path(path) if path is not None else default_connection_file()
    expected = "expected the JSON object with port and token the ASL fire bridge extension writes"
    try:
        mode = path.stat().st_mode
        if not stat.S_ISREG(mode):
            raise BadInput(f"{path}: not a file ({expected})")
        if mode and path.stat().st_size > 64 * 1024:
            raise BadInput(f"{path}: {path.stat().st_size} bytes, too big for a connection file ({expected})")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NotConnected(f"{path}: no connection file; is VASSAL running with the ASL fire bridge extension?"
                           ) from None
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not a bridge connection file (not UTF-8 text; {expected})") from None
    except OSError as e:
        raise BadInput(f"{path}: cannot read it ({e.strerror or e})") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise BadInput(f"{path}: readable by other users (expected mode 600); not using its token")
    try:
        data = json.loads(text)
    except ValueError:
        raise BadInput(f"{path}: not a bridge connection file (not JSON; {expected})") from None
    except RecursionError:
        raise BadInput(f"{path}: not a bridge connection file (JSON nested too deep; {expected})") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path}: not a bridge connection file (a JSON {type(data).__name__}; {expected})")
    port, token = data.get("port"), data.get("token")
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise BadInput(f"{path}: port {port!r} is not a TCP port number ({expected})")
    if not isinstance(token, str) or not token:
        raise BadInput(f"{path}: no token string ({expected})")
    if len(token) > MAX_TOKEN_CHARS or not token.isprintable():
        raise BadInput(f"{path}: the token is not one line of printable text of at most {MAX_TOKEN_CHARS} characters "
                       f"({expected}); not using it")
    host = loopback_host(data.get("host", "127.0.0.1"), f"{path}: host")
    pid, module = data.get("pid"), data.get("module")
    return ConnectionInfo(host, port, token, pid if isinstance(pid, int) else None,
                          module if isinstance(module, str) else None)


#: The longest auth token accepted (the extension writes 32 hex digits; a token file holds one line of 4 KiB).
MAX_TOKEN_CHARS = 4096


def loopback_host(host: object, what: str) -> str:
    """*host* if it is this machine's loopback (127.0.0.0/8 or ::1; ``localhost`` is 127.0.0.1, not looked up).

    The extension's gateway listens on 127.0.0.1 only, and the bridge sends its auth token to whatever host the
    connection names: a host of another machine is refused here, before any connection or name lookup.

    :raises BadInput: naming *what* and the host.
    """
    import ipaddress

    text = host if isinstance(host, str) else repr(host)
    if text.strip().lower() == "localhost":
        return "127.0.0.1"
    try:
        ip = ipaddress.ip_address(text.strip())
    except ValueError:
        ip = None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip is None or not ip.is_loopback:
        raise BadInput(f"{what} {text[:80]!r} is not this machine's loopback address (expected 127.0.0.1, where the "
                       "extension listens); the bridge sends its token to no other host")
    return str(ip)


def _nodelay(sock: Any) -> None:
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _Collector:
    """Python's cyclic garbage collection, done between two presses rather than inside one.

    A full collection walks every object the bridge keeps (the game's pieces, the terrain, the module's counters):
    20–30 ms in a 3,000-piece game, which Python would otherwise start in the middle of some press, when enough
    young collections have added up.  A moment after each press this collects once, which also starts that count
    again: a later press (a few young collections) never reaches a full one.
    """

    #: Seconds after a press before collecting (the chat report and VASSAL's repaint come first).
    DELAY = 0.2

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0  # button handlers running now (py4j may call two at once)
        self._timer: threading.Timer | None = None
        self.collections = 0

    def press_started(self) -> None:
        with self._lock:
            self._running += 1
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def press_ended(self) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0:
                self._timer = threading.Timer(self.DELAY, self.collect)
                self._timer.daemon = True
                self._timer.start()

    def collect(self) -> None:
        with self._lock:  # a press starting meanwhile waits for the collection (it holds the interpreter anyway)
            if self._running:
                return  # the press running now collects after it
            gc.collect()
            self.collections += 1


class _Listener:
    """The Python side of the toolbar buttons (a py4j callback implementing aslfire.PythonListener)."""

    def __init__(self, handler: Callable[[str], str]) -> None:
        self._handler = handler
        self.collector = _Collector()

    def onButton(self, action: str) -> str:  # noqa: N802 - Java interface name
        self.collector.press_started()
        try:
            return self._handler(str(action)) or ""
        except BadInput as e:
            return f"ASL fire bridge: {e}"
        except Exception as e:  # a button must always get an answer, never a hang
            return f"ASL fire bridge: {action} failed in Python: {type(e).__name__}: {e}"
        finally:
            self.collector.press_ended()

    def ping(self) -> str:
        return "pong"

    class Java:
        implements: ClassVar[list[str]] = ["aslfire.PythonListener"]


def _at_least(version: str, wanted: tuple[int, ...]) -> bool:
    """True if a dotted version is *wanted* or newer.

    >>> _at_least("0.3.0", (0, 3)), _at_least("0.2.9", (0, 3)), _at_least("x", (0, 3))
    (True, False, False)
    """
    try:
        return tuple(int(x) for x in version.split(".")[:len(wanted)]) >= wanted
    except ValueError:
        return False


def _fast_byte_arrays() -> None:
    """py4j turns a Java ``byte[]`` into ``bytes`` byte by byte in Python (about 6 ms for the gzipped snapshot
    of a 3,000-piece game); the same ``bytes`` from one base64 decode take a twentieth of it."""
    import base64

    from py4j import protocol

    def decode(value: str, _client: Any) -> bytes:
        return base64.standard_b64decode(value)

    protocol.OUTPUT_CONVERTER[protocol.BYTES_TYPE] = decode


@dataclass(frozen=True, slots=True)
class SentPieces:
    """The pieces of this client's last delta snapshot: their generation (VASSAL's number for what it sent), the
    layer selection asked for, and each piece's dict by its VASSAL id in VASSAL's order."""

    selection: str
    generation: int
    pieces: dict[str, dict[str, Any]]

    @staticmethod
    def merge(kept: SentPieces | None, selection: str, data: Mapping[str, Any]) -> SentPieces:
        """*data*'s pieces: all of them, or (``since`` = *kept*'s generation) *kept*'s with those removed dropped,
        those added or changed put in, in VASSAL's ``order`` when it sends one (else new ones last).

        >>> one = SentPieces.merge(None, "[]", {"generation": 1, "pieces": [{"id": "a"}, {"id": "b"}]})
        >>> two = SentPieces.merge(one, "[]", {"generation": 2, "since": 1, "removed": ["a"],
        ...                                    "pieces": [{"id": "c"}, {"id": "b", "x": 1}]})
        >>> list(two.pieces), two.pieces["b"], two.generation
        (['b', 'c'], {'id': 'b', 'x': 1}, 2)
        """
        generation = int(data.get("generation", -1))
        listed = data.get("pieces") or ()
        if kept is None or data.get("since") != kept.generation:
            return SentPieces(selection, generation, {str(p["id"]): p for p in listed})
        pieces = dict(kept.pieces)
        for gone in data.get("removed") or ():
            pieces.pop(str(gone), None)
        for p in listed:
            pieces[str(p["id"])] = p
        order = data.get("order")
        if order is not None:
            ids = [i if isinstance(i, str) else str(i) for i in order]
            pieces = dict(zip(ids, map(pieces.__getitem__, ids), strict=True))
        return SentPieces(selection, generation, pieces)


def _answers(raw: str) -> dict[str, Any]:
    data = json.loads(raw)
    return data if isinstance(data, dict) else {}


def _who() -> str:
    """This Python as the extension knows it: the id it gave a bridge it started, else this process."""
    return os.environ.get("ASLFIRE_BRIDGE_ID") or f"pid {os.getpid()}"


class BridgeClient:
    """A connection to one VASSAL player's extension."""

    def __init__(self, info: ConnectionInfo, timeout: float = 30.0) -> None:
        from py4j.java_gateway import CallbackServerParameters, GatewayParameters, JavaGateway
        from py4j.protocol import Py4JError, Py4JNetworkError

        _fast_byte_arrays()
        self.info = info
        #: py4j's read timeout (seconds): the longest any one call may take.
        self.timeout = timeout
        loopback_host(info.host, "the connection's host")  # whatever built *info*: the token goes nowhere else
        handshake(info.host, info.port, info.token, min(timeout, HANDSHAKE_TIMEOUT))
        params = GatewayParameters(address=info.host, port=info.port, auth_token=info.token,
                                   auto_convert=False, read_timeout=timeout)
        self._gateway = JavaGateway(gateway_parameters=params)
        client = self._gateway._gateway_client
        original = client._create_connection

        def create() -> Any:
            conn = original()
            _nodelay(conn.socket)
            return conn

        client._create_connection = create
        self._callback_started = False
        self._cb_params = CallbackServerParameters(address="127.0.0.1", port=0, auth_token=info.token,
                                                   daemonize=True, daemonize_connections=True)
        try:
            self.api = self._gateway.entry_point
            self.version = str(self.api.version())
            self._gz = _at_least(self.version, (0, 3))  # snapshotGz: extension 0.3.0 on
            self._since = self._gz  # snapshotSinceGz: tried, and dropped if this extension lacks it
            self._sent: SentPieces | None = None
        except (Py4JError, Py4JNetworkError, OSError) as e:
            self._gateway.close()
            why = "nothing answers" if isinstance(e, Py4JNetworkError) else "the extension did not answer its version"
            raise NotConnected(f"VASSAL at {info.host}:{info.port}: {why} after the handshake; restart VASSAL or "
                               "check the connection file") from None
        #: The module file VASSAL opened (learnt once, at connect; None from an extension before 0.3).
        self.module_path: str | None = None
        try:
            path = self.api.modulePath()
            self.module_path = str(path) if path else None
        except Py4JError:
            self.module_path = None

    # --- reading ------------------------------------------------------------------------

    def snapshot(self, with_terrain: bool = True, layers_for: Iterable[str] | None = None,
                 known_terrain: str | None = None, *, delta: bool = False) -> dict[str, Any]:
        """The visible game as a dict (see docs/bridge.md for the fields).

        *layers_for* limits the (bulky) layer details to pieces with these gpids or basic names.  With
        *known_terrain* (a ``terrain_key`` read before), a map whose boards are unchanged sends
        ``{"key": …, "same": true}`` instead of its terrain.

        With *delta* (and *layers_for*), VASSAL sends only the pieces added, changed or removed since this client's
        last delta snapshot of the same selection (:class:`SentPieces`), and they are merged into the pieces kept
        from it: the answer is the same whole snapshot, its unchanged pieces the very dicts of the last one.
        """
        if delta and layers_for is not None and getattr(self, "_since", False):
            got = self._snapshot_since(with_terrain, json.dumps(sorted(set(layers_for))), known_terrain)
            if got is not None:
                return got
        if layers_for is not None and getattr(self, "_gz", False):
            # gzipped: py4j moves a long string slowly, its compressed bytes quickly
            blob = self.api.snapshotGz(with_terrain, json.dumps(sorted(set(layers_for))), known_terrain)
            text = gzip.decompress(bytes(blob))
        elif known_terrain is not None:
            text = self.api.snapshot(with_terrain, json.dumps(sorted(set(layers_for or ()))), known_terrain)
        elif layers_for is None:
            text = self.api.snapshot(with_terrain)
        else:
            text = self.api.snapshot(with_terrain, json.dumps(sorted(set(layers_for))))
        data: dict[str, Any] = json.loads(text if isinstance(text, bytes) else str(text))
        if "error" in data:
            raise BridgeRefused(str(data["error"]))
        module = data.setdefault("module", {})
        if isinstance(module, dict) and self.module_path and not module.get("path"):
            module["path"] = self.module_path  # the module file, learnt at connect
        return data

    def _snapshot_since(self, with_terrain: bool, selection: str, known_terrain: str | None) -> dict[str, Any] | None:
        """A delta snapshot merged into the pieces kept (None: this extension has no ``snapshotSinceGz``)."""
        from py4j.protocol import Py4JError

        kept = self._sent if self._sent is not None and self._sent.selection == selection else None
        try:
            blob = self.api.snapshotSinceGz(with_terrain, selection, known_terrain,
                                            kept.generation if kept is not None else -1)
        except Py4JError as e:
            if "does not exist" not in str(e):
                raise
            self._since = False  # an older extension: whole snapshots
            return None
        data: dict[str, Any] = json.loads(gzip.decompress(bytes(blob)))
        if "error" in data:
            raise BridgeRefused(str(data["error"]))
        try:
            self._sent = SentPieces.merge(kept, selection, data)
        except KeyError:  # an order naming a piece neither kept nor sent: ask for them all
            self._sent = None
            return self._snapshot_since(with_terrain, selection, known_terrain) if kept is not None else None
        if "since" in data:  # what VASSAL sent (bench/bench_bridge.py)
            data["delta"] = {"pieces": len(data.get("pieces") or ()), "removed": len(data.get("removed") or ())}
        data["pieces"] = list(self._sent.pieces.values())
        module = data.setdefault("module", {})
        if isinstance(module, dict) and self.module_path and not module.get("path"):
            module["path"] = self.module_path
        return data

    def status(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(str(self.api.status()))
        if "error" in data:
            raise BridgeRefused(str(data["error"]))
        return data

    # --- dice ---------------------------------------------------------------------------

    def new_roll_session(self) -> int:
        return int(self.api.newRollSession())

    def roll(self, session: int, purpose: str, count: int) -> Sequence[int]:
        """*count* dice (1 dr, 2 DR, colored first) from VASSAL's RNG, recorded for the chat."""
        text = str(self.api.roll(session, purpose, count))
        return [int(x) for x in text.split(",")]

    def roll_many(self, session: int, purposes: Sequence[str]) -> list[Sequence[int]] | None:
        """A DR (colored, white) for each purpose, in order, in one call; each recorded for the chat as :meth:`roll`
        records it.  None from an extension without ``rollMany`` (then roll them one by one)."""
        from py4j.protocol import Py4JError

        if not getattr(self, "_many", True):
            return None
        try:
            text = str(self.api.rollMany(session, json.dumps(list(purposes))))
        except Py4JError as e:
            if "does not exist" not in str(e):
                raise
            self._many = False
            return None
        return [[int(x) for x in pair.split(",")] for pair in text.split(";")] if text else []

    # --- changing -----------------------------------------------------------------------

    def apply(self, batch: dict[str, Any]) -> dict[str, Any]:
        """Apply a batch as one VASSAL command.

        :raises BridgeRefused: with VASSAL's reason if it refused; nothing was changed then.
        """
        result: dict[str, Any] = json.loads(str(self.api.apply(json.dumps(batch))))
        if not result.get("ok"):
            raise BridgeRefused(str(result.get("error", "refused")))
        return result

    def say(self, text: str) -> None:
        self.api.say(text)

    # --- dialogs ------------------------------------------------------------------------

    #: The longest one poll of an open dialog waits in VASSAL (seconds), kept well under the read timeout.
    FORM_POLL = 2.0

    def ask_form(self, spec: str) -> dict[str, Any] | None:
        """Show the dialog *spec* describes (``BridgeApi.openForm``) and wait for the player's answers, as long as
        the dialog is open: no py4j call stays open meanwhile (each poll waits at most :attr:`FORM_POLL` s, under the
        read timeout), so an answer given after any wait is read.  None when the player cancelled, or the dialog
        closed itself.  An extension without ``openForm`` is asked the one-call way (``askForm``).
        """
        from py4j.protocol import Py4JError

        try:
            form = str(self.api.openForm(spec))
        except Py4JError as e:
            if "does not exist" not in str(e):
                raise
            raw = self.api.askForm(spec)
            return None if raw is None else _answers(str(raw))
        wait_ms = int(max(0.05, min(self.FORM_POLL, self.timeout / 2)) * 1000)
        while True:
            state = json.loads(str(self.api.pollForm(form, wait_ms)))
            if state.get("state") == "open":
                continue
            if state.get("state") == "answered":
                answers = state.get("answers")
                return answers if isinstance(answers, dict) else {}
            return None

    # --- buttons ------------------------------------------------------------------------

    def listen(self, handler: Callable[[str], str]) -> None:
        """Let VASSAL's buttons call *handler(action)* ("wind", "upkeep", "odds"); it returns a chat line."""
        if not self._callback_started:
            self._gateway.start_callback_server(self._cb_params)
            server = self._gateway.get_callback_server()
            for s in (getattr(server, "server_socket", None),):
                if s is not None:
                    _nodelay(s)
            self._callback_started = True
        # every time: another Python (a second `asl-fire bridge`) may have pointed VASSAL's callbacks elsewhere since
        self.api.setCallbackPort(self._gateway.get_callback_server().get_listening_port())
        self._listener = _Listener(handler)
        from py4j.protocol import Py4JError

        try:
            self.api.setListenerOf(self._listener, _who())
        except Py4JError as e:  # an extension before 0.4
            if "does not exist" not in str(e):
                raise
            self.api.setListener(self._listener)

    def hand_over(self) -> int | None:
        """After :meth:`listen`: stop the bridge the extension started, if one runs (this one serves the buttons
        now, not both); its pid, or None."""
        from py4j.protocol import Py4JError

        try:
            pid = int(self.api.handOver(_who()))
        except Py4JError as e:  # an extension before 0.4
            if "does not exist" not in str(e):
                raise
            return None
        return pid if pid > 0 else None

    def press(self, action: str) -> None:
        """Press one of the extension's toolbar buttons (as a player would)."""
        self.api.press(action)

    @property
    def jvm(self) -> Any:
        """py4j's view of the JVM (scripts and tests)."""
        return self._gateway.jvm

    def close(self) -> None:
        try:
            if self._callback_started:
                self.api.clearListener()
        except Exception:  # closing anyway
            pass
        self._gateway.shutdown_callback_server() if self._callback_started else None
        self._gateway.close()

    def __enter__(self) -> BridgeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(path: Path | None = None, *, port: int | None = None, token: str | None = None,
            timeout: float = 30.0) -> BridgeClient:
    """Connect with explicit *port* and *token*, or from the connection file."""
    if port is not None:
        if not token:
            raise BadInput("a port was given without a token (the extension refuses calls without its token)")
        return BridgeClient(ConnectionInfo("127.0.0.1", port, token), timeout)
    return BridgeClient(read_connection_file(path), timeout)


class VassalDice(CallbackDice):
    """Dice from VASSAL's RNG for one batch, remembering every roll (purpose, faces) for the chat."""

    def __init__(self, client: BridgeClient) -> None:
        self.session = client.new_roll_session()
        self.rolled: list[tuple[str, Sequence[int]]] = []

        def roll(purpose: str, count: int) -> Sequence[int]:
            faces = client.roll(self.session, purpose, count)
            self.rolled.append((purpose, faces))
            return faces

        def roll_many(purposes: Sequence[str]) -> Sequence[Sequence[int]]:
            got = client.roll_many(self.session, purposes)
            if got is None:  # an older extension: one call per DR
                return [roll(p, 2) for p in purposes]
            self.rolled.extend(zip(purposes, got, strict=True))
            return got

        super().__init__(roll, roll_many)
