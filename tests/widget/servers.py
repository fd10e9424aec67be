"""The servers the browser tests start (Voilà, JupyterLab): each in its own process group, ended with the test run
even when the run is killed.

* ended by the fixture that started it (SIGTERM to its group, SIGKILL after 10 s);
* else at the interpreter's exit (``atexit``), which a SIGTERM or SIGINT to pytest reaches too (the handler installed
  here turns them into ``SystemExit``);
* else, when pytest is killed outright (SIGKILL, a CI timeout), by the kernel: the server gets SIGTERM when its
  parent dies (Linux ``PR_SET_PDEATHSIG``), which it answers by shutting its kernels down.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

__all__ = ["serve", "stop"]

_RUNNING: dict[int, subprocess.Popen[bytes]] = {}
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the parent (pytest) dies, however it dies."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def serve(cmd: Sequence[str], *, cwd: Path, env: dict[str, str], log: IO[bytes]) -> subprocess.Popen[bytes]:
    """Start a server in a process group of its own, registered to be ended at exit."""
    _install_handlers()
    proc = subprocess.Popen(list(cmd), cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True, preexec_fn=_die_with_parent)
    _RUNNING[proc.pid] = proc
    return proc


def stop(proc: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """End the server's whole process group: SIGTERM, then SIGKILL after *grace* seconds."""
    _RUNNING.pop(proc.pid, None)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(5)


def _stop_all() -> None:
    for proc in list(_RUNNING.values()):
        stop(proc, grace=5.0)


_installed = False


def _install_handlers() -> None:
    global _installed
    if _installed:
        return
    _installed = True
    atexit.register(_stop_all)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) in (signal.SIG_DFL, None):
            with contextlib.suppress(ValueError):  # not the main thread: atexit and the parent-death signal remain
                signal.signal(sig, _exit_on_signal)


def _exit_on_signal(signum: int, _frame: Any) -> None:
    _stop_all()
    raise SystemExit(128 + signum)
