"""``asl-fire bridge`` (the live client) and ``asl-fire build-extension`` (the VASSAL extension)."""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from pathlib import Path

from ..core.errors import BadInput


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("bridge", help="connect to VASSAL's ASL fire bridge extension and serve its buttons",
                       description="Connect to a running VASSAL (with the ASL fire bridge extension) and answer "
                                   "its toolbar buttons: Wind change (RPh), Fire upkeep (AFPh), Fire odds.")
    p.add_argument("--connection-file", type=Path, default=None,
                   help="the extension's port/token file (default: <VASSAL conf dir>/aslfire/bridge.json)")
    p.add_argument("--port", type=int, default=None, help="the extension's py4j port (with --token-file)")
    p.add_argument("--token-file", type=Path, default=None, help="a file holding the auth token (never on the "
                                                                  "command line)")
    p.add_argument("--boards", type=Path, default=None,
                   help="folder of VASL board archives, for terrain when VASL's own terrain model is not available")
    p.add_argument("--once", choices=("wind", "upkeep", "odds", "snapshot"), default=None,
                   help="do one action now and exit instead of waiting for buttons")
    p.add_argument("-v", "--verbose", action="store_true")
    p.set_defaults(func=run_bridge)

    b = sub.add_parser("build-extension", help="build the VASSAL extension (.vmdx) of the live bridge",
                       description="Compile the bridge extension against your VASSAL's engine jar and write the "
                                   ".vmdx; put it in <module>_ext/ next to the VASL module.")
    b.add_argument("--vassal-jar", type=Path, required=True,
                   help="VASSAL's engine jar (lib/Vengine.jar in a VASSAL install)")
    b.add_argument("-o", "--output", type=Path, default=Path("asl-fire-bridge.vmdx"), help="the .vmdx to write")
    b.set_defaults(func=run_build)


def run_build(args: argparse.Namespace) -> int:
    from ..bridge.extension import build_extension

    built = build_extension(args.vassal_jar, args.output)
    out = built.path.resolve()
    print(f"wrote {out} ({built.classes} classes, {built.seconds:.1f} s)")
    print("install: copy it into the folder <module>_ext/ next to your module, e.g. VASL_ext/ beside VASL.vmod "
          "(or VASSAL's global extension folder), then start the module and press the ASL fire buttons")
    return 0


def run_bridge(args: argparse.Namespace) -> int:
    from ..bridge.client import connect
    from ..bridge.phases import handle_button

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    log = logging.getLogger("asl_fire.bridge")
    token = None
    if args.port is not None:
        if args.token_file is None:
            raise BadInput("--port needs --token-file (the auth token is never passed on the command line)")
        token = args.token_file.read_text(encoding="utf-8").strip()
    client = connect(args.connection_file, port=args.port, token=token)
    log.info("connected to VASSAL (bridge %s, port %d)", client.version, client.info.port)
    try:
        if args.once == "snapshot":
            import json

            print(json.dumps(client.snapshot(), indent=1))
            return 0
        if args.once is not None:
            msg = handle_button(client, args.once, boards_dir=args.boards)
            if msg:
                print(msg)
            return 0
        client.listen(lambda action: handle_button(client, action, boards_dir=args.boards))
        client.say("- ASL fire bridge: Python is connected; the fire buttons are live.")
        log.info("waiting for VASSAL's buttons (Ctrl-C to stop)")
        stop = threading.Event()
        try:
            while not stop.wait(2.0):
                try:
                    client.status()
                except BadInput:
                    continue
                except Exception as e:  # the VASSAL side went away
                    log.info("VASSAL closed the connection (%s); stopping", type(e).__name__)
                    return 0
        except KeyboardInterrupt:
            log.info("stopping")
        return 0
    finally:
        client.close()
