"""The VASL API variants of the Java stand-ins, made from one source.

``tests/support/java`` holds one ``Hex``, ``Location``, ``Map`` and ``ASLMap``: VASL 6.7.x's names and map building
(what players run).  Every other VASL API the tests run against is a short list of named changes to those files
(:data:`VARIANTS`), applied when the test jar is built (``vassal_harness.build_support_jar(…, vasl_api=…)``), so a
change to VASL's API is written once, in the source, and each variant says only where its VASL differs.  Each change
must apply exactly once; one that does not (the source moved under it) stops the build with one line naming the
variant, the change and the file.  ``tests/support/java/README.md`` says how each variant was checked against VASL's
own classes.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

#: The one source: VASL 6.7.x's API.
JAVA = Path(__file__).resolve().parent / "java"

HEX = "VASL/LOS/Map/Hex.java"
LOCATION = "VASL/LOS/Map/Location.java"
MAP = "VASL/LOS/Map/Map.java"
ASLMAP = "VASL/build/module/ASLMap.java"


class VariantError(ValueError):
    """A variant's change does not apply to the source (one line: the variant, the change, the file, what is wrong)."""


class _Miss(Exception):
    """What is wrong with one change on one file's text (the caller names the variant, the change and the file)."""


class Change(Protocol):
    """One named change to one file of the source, with why the variant needs it."""

    @property
    def file(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def why(self) -> str: ...

    def apply(self, text: str) -> str: ...


@dataclass(frozen=True)
class Substitute:
    """The exact text *old*, found exactly once in *file*, becomes *new*."""

    file: str
    name: str
    why: str
    old: str
    new: str

    def apply(self, text: str) -> str:
        n = text.count(self.old)
        if n != 1:
            raise _Miss(f"{self.old!r} found {n} times (expected exactly once)")
        return text.replace(self.old, self.new)


@dataclass(frozen=True)
class RenameField:
    """The field *old* (declared once in *file*) becomes *new* wherever the name stands as a word in *file*."""

    file: str
    name: str
    why: str
    old: str
    new: str

    def apply(self, text: str) -> str:
        code = code_only(text)
        decls = [m for m in re.finditer(rf"\b(?:private|protected|public)\b[^;(){{}}=]*\b{self.old}\b\s*[;=]", code)
                 if _depth(code, m.start()) == 1]
        if len(decls) != 1:
            raise _Miss(f"field {self.old} declared {len(decls)} times (expected exactly once)")
        if re.search(rf"\b{self.new}\b", text):
            raise _Miss(f"the new name {self.new} is already used")
        return re.sub(rf"\b{self.old}\b", self.new, text)


@dataclass(frozen=True)
class ReplaceMethod:
    """The method *method* (declared once in *file*'s class; its doc comment and annotations go with it) becomes
    *new* (Java text at any indent, re-indented to the method's), or is removed when *new* is empty."""

    file: str
    name: str
    why: str
    method: str
    new: str = ""

    def apply(self, text: str) -> str:
        start, end, indent = _method_span(text, self.method)
        if not self.new.strip():
            if text[:start].endswith("\n\n") and text[end:].startswith("\n"):
                end += 1  # the blank line that separated it from the next member
            return text[:start] + text[end:]
        body = textwrap.indent(textwrap.dedent(self.new).strip("\n"), indent) + "\n"
        return text[:start] + body + text[end:]


def _hex_ground_level(getter: str, why: str) -> Substitute:
    return Substitute(HEX, f"Hex: the ground level is {getter}()", why,
                      old="  public int getBaseLevelofHex() {", new=f"  public int {getter}() {{")


#: Each VASL API's changes to the 6.7.x source, in the order they apply.  "6.7" is the source itself.
VARIANTS: dict[str, tuple[Change, ...]] = {
    "6.7": (),
    "2020": (
        # Hex, Location: the getters' 2020 names
        _hex_ground_level("getBaseHeight", "VASL 6.7.x renamed the 2020 getBaseHeight() getBaseLevelofHex()"),
        Substitute(LOCATION, "Location: the level in the hex is getBaseHeight()",
                   "VASL 6.7.x renamed the 2020 getBaseHeight() getLevelInHex()",
                   old="  public int getLevelInHex() {", new="  public int getBaseHeight() {"),
        # ASLMap: the merged map built as 2020 builds it, each board's own map inserted whole
        ReplaceMethod(ASLMAP, "ASLMap: the merged map sized as 2020's Map(width, height)",
                      "2020's map has no pixel grid of its own: getGridWidth/Height are the hexes' extent "
                      "((columns - 1) × hex width, rows × hex height), not the boards' pixels",
                      method="mapWide", new="""
            /** As the VASL of 2020's {@code Map(width, height)}: the boards' size in hexes, the pixels the hexes'. */
            static VASL.LOS.Map.Map mapWide(Rectangle all) {
              int cols = (int) Math.round(all.width / VASL.LOS.Map.Map.HEX_WIDTH) + 1;
              int rows = (int) Math.round(all.height / VASL.LOS.Map.Map.HEX_HEIGHT);
              return new VASL.LOS.Map.Map(cols, rows, (int) Math.round((cols - 1) * VASL.LOS.Map.Map.HEX_WIDTH),
                  (int) Math.round(rows * VASL.LOS.Map.Map.HEX_HEIGHT));
            }
            """),
        ReplaceMethod(ASLMAP, "ASLMap: a board inserted whole (insertMap, flip)",
                      "2020's ASLMap.setBoards inserts each board's own map, turned by flip() when reversed, at the "
                      "grid place of its top left corner; it has no crop, and no SSR or overlay in the LOS map",
                      method="addBoardToMap", new="""
            /** As the VASL of 2020's {@code ASLMap.setBoards}: the board's own map, flipped when reversed, inserted. */
            static void addBoardToMap(VASL.LOS.Map.Map map, Board b, Rectangle all, VASL.LOS.Map.Map board) {
              if (b.isReversed()) {
                board.flip();
              }
              int col = (int) Math.round((b.bounds().x - all.x) / VASL.LOS.Map.Map.HEX_WIDTH);
              int row = (int) Math.round((b.bounds().y - all.y) / VASL.LOS.Map.Map.HEX_HEIGHT);
              map.insertMap(board, map.getHex(col, row));
            }
            """),
        # Map: without what 6.7.x's map building has and the extension looks for; pixels drawn from the merged grid
        ReplaceMethod(MAP, "Map: no addBoard", "6.7.x's way of adding a board (addLOSDatatoVASLMap); 2020 has "
                      "insertMap and flip, and addBoard calls the two members removed next", method="addBoard"),
        ReplaceMethod(MAP, "Map: no flipTerrainAndElevationGrids",
                      "the extension tells 6.7.x's map building from 2020's by this member (vasl_model)",
                      method="flipTerrainAndElevationGrids"),
        ReplaceMethod(MAP, "Map: no gridToHex", "the extension places each board's survey by it where VASL has it; "
                      "without it that placement is skipped, as on 2020's classes", method="gridToHex"),
        RenameField(MAP, "Map: no field terrainGrid", "so that CI runs the extension's fallback for a VASL whose "
                    "pixel codes it cannot read: getGridTerrain per pixel", old="terrainGrid", new="pixelCodes"),
        RenameField(MAP, "Map: no field terrainList", "as terrainGrid (the extension reads the two together)",
                    old="terrainList", new="pixelTerrains"),
        ReplaceMethod(MAP, "Map: each pixel from the nearest hex of the merged grid",
                      "2020's map is drawn from its own grid's hexes, so a pixel always lies under its hex "
                      "(6.7.x copies each board's pixels from its crop's corner)", method="getGridTerrain", new="""
            /** As VASL's {@code getGridTerrain(x, y)}: the terrain the merged grid's hexes draw there, null off it. */
            public Terrain getGridTerrain(int x, int y) {
              return x < 0 || y < 0 || x >= gridWidth || y >= gridHeight ? null : drawnAt(x, y);
            }
            """),
        ReplaceMethod(MAP, "Map: column centres not pulled in at the right edge",
                      "6.7.x's getHexCenterPoint pulls the last column's centres in to the grid's last pixel; the "
                      "2020 stand-ins, checked against 2020's classes, place them at A1 + column × hex width",
                      method="centreX", new="""
            private double centreX(int col) {
              return HEX_WIDTH * col;
            }
            """),
    ),
    "renamed": (
        _hex_ground_level("getHexLevel", "a VASL that renamed the ground level once more, under neither "
                          "known name: the extension cannot read the terrain (tests/bridge/test_live_vasl_api.py)"),
    ),
}


def variant_sources(api: str, root: Path = JAVA) -> dict[str, str]:
    """The source files *api*'s changes touch (path relative to *root* → the changed text); the others stay as they
    are.  Raises :class:`VariantError` for an unknown *api* or a change that does not apply exactly once."""
    if api not in VARIANTS:
        raise VariantError(f"vasl_api {api!r}: expected one of {', '.join(VARIANTS)}")
    texts: dict[str, str] = {}
    for change in VARIANTS[api]:
        path = root / change.file
        if change.file not in texts:
            if not path.is_file():
                raise VariantError(f"stand-in variant {api!r}, change {change.name!r}: no {_shown(path)}")
            texts[change.file] = path.read_text(encoding="utf-8")
        try:
            texts[change.file] = change.apply(texts[change.file])
        except _Miss as e:
            raise VariantError(f"stand-in variant {api!r}, change {change.name!r}: {e} in {_shown(path)}") from None
    return texts


def _shown(path: Path) -> str:
    """*path* as a contributor finds it: from the checkout's top (``tests/support/java/…``) when it lies there."""
    repo = JAVA.parents[2]
    return path.relative_to(repo).as_posix() if path.is_relative_to(repo) else str(path)


def code_only(text: str) -> str:
    """*text* with its comments and string and character literals blanked (newlines kept): the same offsets."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if two == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif two == "/*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif text[i] in "\"'":
            end = i + 1
            while end < n and text[end] != text[i]:
                end += 2 if text[end] == "\\" else 1
            end = min(n, end + 1)
        else:
            i += 1
            continue
        for k in range(i, end):
            if out[k] != "\n":
                out[k] = " "
        i = end
    return "".join(out)


def _depth(code: str, at: int) -> int:
    return code.count("{", 0, at) - code.count("}", 0, at)


def _method_span(text: str, method: str) -> tuple[int, int, str]:
    """Where the method declared as *method* in the class body lies: (start of its doc comment or first line, end
    after its closing brace's line, its indent)."""
    code = code_only(text)
    decls = [m for m in re.finditer(rf"(?m)^([ \t]*)(?:[\w<>\[\].,?]+[ \t]+)+{method}[ \t]*\(", code)
             if _depth(code, m.start()) == 1]
    if len(decls) != 1:
        raise _Miss(f"method {method}(…) declared {len(decls)} times in the class (expected exactly once)")
    m = decls[0]
    start = m.start()
    while True:  # its doc comment and annotations, just above it
        above = text[:start].rstrip(" \t\n")
        line_start = above.rfind("\n") + 1
        if above.endswith("*/"):
            comment = above.rfind("/**")
            if comment < 0 or "*/" in above[comment:-2]:
                break
            start = above.rfind("\n", 0, comment) + 1
        elif above[line_start:].lstrip().startswith("@"):
            start = line_start
        else:
            break
    body = code.find("{", m.end())
    if body < 0 or ";" in code[m.end():body]:
        raise _Miss(f"method {method}(…) has no body")
    level = 0
    for end in range(body, len(code)):
        level += {"{": 1, "}": -1}.get(code[end], 0)
        if level == 0:
            break
    else:
        raise _Miss(f"method {method}(…) has no closing brace")
    newline = text.find("\n", end)
    return start, (len(text) if newline < 0 else newline + 1), m.group(1)
