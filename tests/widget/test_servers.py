"""The browser tests' servers end with the test run, even when it is killed (issue 34): a stand-in server (a
Python process with a kernel of its own, as Voilà has) started by :func:`tests.widget.servers.serve` from a run that
is then killed with SIGTERM, or with SIGKILL, leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: A stand-in for Voilà: a kernel of its own in its own session (as jupyter_client starts kernels), shut down on
#: SIGTERM (as Jupyter's server shuts its kernels down).
SERVER = """
import signal, subprocess, sys, time
kernel = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)
def shut_down(*_):
    kernel.terminate()
    kernel.wait()
    sys.exit(0)
signal.signal(signal.SIGTERM, shut_down)
print(kernel.pid, flush=True)
time.sleep(300)
"""

RUN = f"""
SERVER = {SERVER!r}
import sys, time
from pathlib import Path
from tests.widget.servers import serve
log = open(sys.argv[1], "wb")
server = serve([sys.executable, "-c", SERVER], cwd=Path.cwd(), env=dict(__import__('os').environ), log=log)
print(server.pid, flush=True)
time.sleep(300)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie no one reaped yet is gone too
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_the_servers_end_when_the_test_run_is_killed(sig: signal.Signals, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    run = subprocess.Popen([sys.executable, "-c", RUN, str(log)], cwd=REPO, stdout=subprocess.PIPE, text=True,
                           env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert run.stdout is not None
    server = int(run.stdout.readline())
    deadline = time.monotonic() + 30
    while not log.read_text().strip() and time.monotonic() < deadline:
        time.sleep(0.1)
    kernel = int(log.read_text().split()[0])
    assert _alive(server) and _alive(kernel)
    assert os.getpgid(server) == server != os.getpgid(run.pid)  # a process group of its own
    run.send_signal(sig)
    run.wait(30)
    deadline = time.monotonic() + 30
    while (_alive(server) or _alive(kernel)) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [p for p in (server, kernel) if _alive(p)]
    for p in alive:
        os.kill(p, signal.SIGKILL)
    assert not alive, f"left running after {sig.name}: {alive}"
