#!/usr/bin/env python3
"""Derive the unit catalogue (MMC types, classes, leader ladders) from VASL's counter palette.

Usage::

    python3 scripts/gen_unit_catalogue.py ../shared/vasl/buildFile-6.5.xml \
        > asl_vassal_bridge/data/units/vasl-6.5.json

The reading is :mod:`asl_vassal_bridge.vasl.catalogue` (the live bridge uses
the same code on the module a game runs).  VASL's infantry counters are
multi-layer pieces.  Their "ELR/BH" layer lists
the unit types a counter can become through ELR Replacement (A19.13) and
Battle Hardening (A15.3), best first, each named with its class letter
(``4-6-8 Esq``, ``4-6-7 1sq``, ``4-4-7 2sq``, ``3-3-6 Gsq``, ``4-3-6 Csq``);
the "SQ/HS" layer names the Half-Squads the same way.  Leader counters carry
their whole ladder (``10-3,10-2,…,6+1``).  This script reads those names, not
the images, and writes JSON with its source and every decision it made:

* a class comes from the letter in the name (E, 1, 2, G, C; ``AE`` Assault
  Engineers are elite); a name without one takes the class of the same
  designation and size elsewhere in the nationality (``4-4-7 SSsq`` → 2nd
  Line); the few still unknown come from :data:`CORRECTIONS` (with their
  source) or stay ``null``;
* a piece whose layers name a different unit than the piece itself (copy
  errors in the palette) is skipped and listed under ``skipped``;
* Korean War panels are tagged ``korea`` so the two eras do not mix.

The buildFile is read with the project's lxml reader (:mod:`asl_vassal_bridge.vasl.module`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from asl_vassal_bridge.vasl.catalogue import catalogue_from_module, parse_mmc
from asl_vassal_bridge.vasl.module import read_module
from asl_vassal_bridge.vasl.safe import BadXmlError, VaslFileError

__all__ = ["generate", "main", "parse_mmc"]

def generate(build_file: Path) -> dict[str, Any]:
    """Read *build_file* (a VASL ``buildFile``) and return the catalogue dict with its source."""
    raw = build_file.read_bytes()
    try:
        index = read_module(build_file)
    except BadXmlError as e:
        if "not well-formed" in str(e):
            raise SystemExit(str(e)) from None
        raise SystemExit(f"{build_file}: expected a VASSAL module (BasicModule root): {e}") from None
    except VaslFileError as e:
        raise SystemExit(str(e)) from None
    if index.root != "VASSAL.launch.BasicModule":
        raise SystemExit(f"{build_file}: expected a VASSAL module (BasicModule root), found <{index.root}>")
    data = catalogue_from_module(index)
    data["source"] = {
        "what": "VASL counter palette (PieceWindow 'VASL Counters'): the ELR/BH and SQ/HS layer names of the "
                "infantry counters, the ELR/BH ladders of the leader counters, and the unit counters' gpids",
        "module": f"{index.name} {index.version}",
        "file": build_file.name,
        "sha256": hashlib.sha256(raw).hexdigest(),
        "generator": "scripts/gen_unit_catalogue.py",
        "licence": "derived facts from VASL (LGPL 2.1); no images or rule text",
    }
    return {"source": data.pop("source"), **data}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build_file", type=Path)
    parser.add_argument("-o", "--output", type=Path, help="write here instead of standard output")
    args = parser.parse_args(argv)
    try:
        data = generate(args.build_file)
    except OSError as e:
        print(f"gen_unit_catalogue: {e.strerror or e}: {args.build_file}", file=sys.stderr)
        return 2
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
