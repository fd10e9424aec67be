"""VASSAL saved games (``.vsav``) of VASL: deobfuscate, parse the commands, list the pieces.

A ``.vsav`` is a zip with ``savedGame``: ``!VCSK``, two hex digits (the key)
and hex pairs of (byte XOR key), as VASSAL up to 3.7 writes; ``VOBS``, one raw
key byte and the bytes XOR key, as VASSAL 3.8 writes (vassalengine/vassal PR
#15060); or plain text.

The text is VASSAL commands joined by ESC (nested command lists escape their
ESCs one level more): ``+/id/type/state`` adds a piece (``type`` ``stack``
adds a stack), ``D/id/state`` changes one, ``M/id/map/x/y/…`` moves one,
``-/id`` removes one; VASL's ``bd\\t…`` line lists the boards.

Privacy: a piece VASSAL hides or obscures from the other player (its
``hide`` trait holds a player id: HIDDEN_BY; its ``obs``/``conceal`` trait
holds one: OBSCURED_BY), and every piece under a concealment ``?`` counter
in its stack, is dropped while reading.  Such pieces are never in
:attr:`SavedGame.pieces`, never in a Position and never in a message; not
even their number is kept (in ASL the number of HIP units is itself secret),
and a stack lists only the pieces shown (a stack of hidden pieces alone is
dropped).  A concealment ``?`` counter both players see is kept as VASSAL
shows it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.hexes import BoardPlacement
from .counters import FireCounter, classify, piece_name
from .names import is_plain_name
from .safe import Archive, VaslFileError, read_file_limited
from .terrain import TerrainTable, ssr_problems, ssr_tokens
from .traits import Trait, decode_sequence, decode_traits

__all__ = [
    "BadSavedGameError",
    "BoardEntry",
    "BoardOverlay",
    "SavedGame",
    "SavedPiece",
    "deobfuscate",
    "obfuscate",
    "overlay_notes",
    "parse_board_state",
    "parse_boards",
    "parse_commands",
    "read_vsav",
    "read_vsav_bytes",
]

#: The largest savedGame member accepted (obfuscated text is twice the size of the game).
MAX_SAVE_BYTES = 64 * 1024 * 1024

#: The most boards a saved game may name (each takes ~60 ms and ~3 MB to read; VASL's largest maps have ~30).
MAX_BOARDS = 64

#: The most pieces a saved game may add (a large HASL game has a few thousand counters).
MAX_PIECES = 50_000

#: The most board overlays a saved game may name, all boards together (each is applied to its board's terrain,
#: ~0.1 s apiece; a scenario has a handful).
MAX_OVERLAYS = 100

#: The most SSR terrain-change tokens one board entry may hold (VASL's SharedBoardMetadata names about 270 SSR
#: rules in all; a scenario uses a few).
MAX_SSR_TOKENS = 300

#: How deep saved-game commands may nest (a saved game nests one level: its restore command in begin_save).
MAX_NESTING = 50

#: The most characters the nested command lists of a saved game may hold, all levels together (each level is
#: unpacked again from the one above: a 64 MB game nested 50 deep would be 3 GB to unpack).
MAX_NESTED_CHARS = 2 * MAX_SAVE_BYTES


class BadSavedGameError(VaslFileError):
    """A saved game that cannot be read."""


def deobfuscate(data: bytes, source: str) -> str:
    """The command text of a ``savedGame`` member (``!VCSK`` or VASSAL 3.8's ``VOBS`` obfuscation undone, or plain
    text).

    :raises BadSavedGameError: for broken hex digits or text that is not VASSAL commands.
    """
    if data.startswith(b"!VCSK"):
        body = data[5:].strip()
        try:
            key = int(body[:2], 16)
            raw = bytes.fromhex(body[2:].decode("ascii"))
        except (ValueError, UnicodeDecodeError):
            raise BadSavedGameError(f"{source}: broken !VCSK obfuscation (expected hex digit pairs)") from None
        plain = bytes(b ^ key for b in raw) if key else raw
    elif data.startswith(b"VOBS") and len(data) > 4:  # VASSAL 3.8: one raw key byte, then the bytes XOR it
        key = data[4]
        plain = data[5:].translate(bytes(i ^ key for i in range(256)))
    else:
        plain = data
    try:
        text = plain.decode("utf-8")
    except UnicodeDecodeError:
        raise BadSavedGameError(f"{source}: saved game text is not UTF-8 (expected VASSAL commands)") from None
    if "begin_save" not in text[:200] and not text.startswith(("+/", "bd\t")):
        raise BadSavedGameError(f"{source}: no begin_save command (expected a VASSAL saved game)")
    return text


def obfuscate(text: str, key: int = 0xD8) -> bytes:
    """The ``!VCSK`` form of saved-game text (VASSAL ``ObfuscatingOutputStream``), for writing saves."""
    raw = text.encode("utf-8")
    return b"!VCSK" + f"{key:02x}".encode() + bytes(b ^ key for b in raw).hex().encode()


def parse_commands(text: str, source: str = "saved game") -> list[str]:
    """Every command of a saved game, nested command lists flattened, in order.

    :raises BadSavedGameError: naming *source* when commands nest more than :data:`MAX_NESTING` deep or their
        nested lists hold more than :data:`MAX_NESTED_CHARS` characters in all.
    """
    out: list[str] = []
    left = [MAX_NESTED_CHARS]

    def flatten(text: str, depth: int) -> None:
        if depth > MAX_NESTING:
            raise BadSavedGameError(f"{source}: saved game commands nest more than {MAX_NESTING} levels deep")
        if depth:
            left[0] -= len(text)
            if left[0] < 0:
                raise BadSavedGameError(f"{source}: saved game commands nest {depth} deep and hold more than "
                                        f"{MAX_NESTED_CHARS:,} characters in their nested lists (expected a VASSAL "
                                        "saved game)")
        for tok in decode_sequence(text, "\x1b"):
            if "\x1b" in tok:
                flatten(tok, depth + 1)
            elif tok:
                out.append(tok)

    flatten(text, 0)
    return out


@dataclass(frozen=True, slots=True)
class BoardOverlay:
    """One overlay of a board entry (VASL ``Overlay``): its name and the two hexes it is placed on.

    VASL writes it as ``OVR, name, hex1, hex2`` (a single-hex overlay has
    hex1 = hex2); *preserve_elevation* is read when a ``true``/``false``
    token follows (VASL's Overlay reads one there; its ``toString`` does not
    write it, so saved games normally lack it).
    """

    name: str
    hex1: str = ""
    hex2: str = ""
    preserve_elevation: bool = False

    def __str__(self) -> str:
        where = self.hex1 if self.hex1 == self.hex2 or not self.hex2 else f"{self.hex1}-{self.hex2}"
        keep = ", elevation preserved" if self.preserve_elevation else ""
        return f"{self.name} ({where}{keep})" if where or keep else self.name

    def as_dict(self) -> dict[str, str | bool]:
        return {"name": self.name, "hex1": self.hex1, "hex2": self.hex2,
                "preserve_elevation": self.preserve_elevation}


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One board of VASL's ``bd`` line (VASL ``ASLBoard.getState``).

    *x*, *y*: its column and row in the grid of boards; *name* the board
    name (``01``; the line writes a reversed board as ``r01``); *crop* the
    cropped rectangle (x, y, width, height) in board pixels, if cropped;
    *overlays* the overlays VASL draws on it (the readers apply them as VASL
    6.7.x's LOS model does, :mod:`asl_vassal_bridge.vasl.overlay`); *ssr* its
    SSR terrain changes (applied as VASL's LOS model does,
    :mod:`asl_vassal_bridge.vasl.ssr`); :meth:`overlay_note` says which SSR
    tokens are not applied.
    """

    x: int
    y: int
    name: str
    reversed: bool = False
    crop: tuple[int, int, int, int] | None = None
    version: str = ""
    overlays: tuple[BoardOverlay, ...] = ()
    ssr: str = ""

    @property
    def archive_names(self) -> tuple[str, ...]:
        """File names the board archive may have (VASL: ``bd`` + the name upper-cased)."""
        n = self.name
        return tuple(dict.fromkeys((f"bd{n.upper()}", f"bd{n}", n, f"bd{n.zfill(2)}", f"bd{n.lstrip('0')}")))

    @property
    def archive_name(self) -> str:
        """The usual archive file name, ``bd`` + the name (``bd01``)."""
        return f"bd{self.name}"

    def placement(self) -> BoardPlacement:
        return BoardPlacement(self.name, self.x, self.y, self.reversed)

    @property
    def ssr_rules(self) -> tuple[str, ...]:
        """The SSR tokens of :attr:`ssr`, in order (VASL's names: ``NoGrain``, ``LightWoods`` …)."""
        return ssr_tokens(self.ssr)

    def overlay_note(self, table: TerrainTable | None = None, *, ssr: bool = True) -> str | None:
        """The SSR tokens of this board VASL's LOS model cannot apply either, with why, as *table* (VASL's
        SharedBoardMetadata) says (without *table*, every token is listed as not checked), or None.

        *ssr* False for terrain that is VASL's own model, which has its SSR terrain changes applied.  The
        overlays' notes come from :func:`asl_vassal_bridge.vasl.overlay.entry_notes` (the readers apply them
        as VASL 6.7.x does).
        """
        parts = []
        applied: tuple[str, ...] = ()
        if ssr and self.ssr and table is None:
            parts.append(f"SSR terrain changes {self.ssr!r} (not checked: VASL's SharedBoardMetadata.xml is needed to "
                         "apply them)")
        elif ssr and self.ssr and table is not None:
            left = ssr_problems(self.ssr, table, self.name)
            if left:
                parts.append("SSR " + "; ".join(f"{t} ({why})" for t, why in left))
            skipped = {t for t, _ in left}
            applied = tuple(t for t in self.ssr_rules if t not in skipped)
        if not parts:
            return None
        done = f"; SSR {' '.join(applied)} read as VASL's LOS model reads it" if applied else ""
        return f"board {self.name}: {' and '.join(parts)} not applied to the terrain{done}"


def overlay_notes(boards: Iterable[BoardEntry], table: TerrainTable | None = None, *, ssr: bool = True) -> list[str]:
    """:meth:`BoardEntry.overlay_note` of every board that has SSR tokens VASL cannot apply."""
    return [n for n in (b.overlay_note(table, ssr=ssr) for b in boards) if n]


#: Keywords of VASL's board entry after the overlays (``ZOOM`` magnification, ``FH`` crop to full hexes).
_ENTRY_KEYWORDS = ("OVR", "SSR", "ZOOM", "FH")


def _board_entry(desc: str, source: str) -> BoardEntry | None:
    toks = [t for t in re.split(r"[\t\n]", desc) if t != ""]
    if not toks:
        return None
    try:
        x, y = int(toks[0]), int(toks[1])
    except (ValueError, IndexError):
        raise BadSavedGameError(f"{source}: board entry {desc[:40]!r} does not start with its column and "
                                "row") from None
    if len(toks) < 3:
        raise BadSavedGameError(f"{source}: board entry {desc[:40]!r} has no board name")
    name, rest = toks[2], toks[3:]
    rev = len(name) > 1 and name.startswith("r")
    if rev:
        name = name[1:]
    if not is_plain_name(name):
        raise BadSavedGameError(f"{source}: board name {name[:100]!r} is not a board's name (a file name in the boards "
                                "folder, e.g. 01); refused")
    crop = None
    if len(rest) >= 4 and all(re.fullmatch(r"-?\d+", t) for t in rest[:4]):
        cx, cy, cw, ch = (int(t) for t in rest[:4])
        crop, rest = (cx, cy, cw, ch), rest[4:]
    version = ""
    if len(rest) >= 2 and rest[0] == "VER":
        version, rest = rest[1], rest[2:]
    overlays: list[BoardOverlay] = []
    ssr: list[str] = []
    i = 0
    while i < len(rest):
        tok = rest[i]
        i += 1
        if tok == "OVR":
            # VASL Overlay.toString: OVR, name, hex1, hex2 (an SSR's overlays write nothing)
            group: list[str] = []
            while i < len(rest) and len(group) < 3 and rest[i] not in _ENTRY_KEYWORDS:
                group.append(rest[i])
                i += 1
            if not group:
                raise BadSavedGameError(f"{source}: board {name}: overlay entry (OVR) without an overlay name "
                                        "(expected OVR, name, hex1, hex2)")
            keep = False
            if i < len(rest) and rest[i].lower() in ("true", "false"):
                keep = rest[i].lower() == "true"
                i += 1
            if not is_plain_name(group[0]):
                raise BadSavedGameError(f"{source}: board {name}: overlay name {group[0][:100]!r} is not an overlay's "
                                        "name (e.g. x1, its archive in the boards folder's overlays/); refused")
            group += [""] * (3 - len(group))
            overlays.append(BoardOverlay(group[0], group[1], group[2], keep))
        elif tok == "SSR":
            # VASL reads everything after SSR as tab-separated rule names (kept here joined by spaces)
            while i < len(rest) and rest[i] not in ("ZOOM", "FH"):
                ssr.append(rest[i])
                i += 1
        elif tok in ("ZOOM", "FH"):
            i += 1  # its value
        # anything else: VASL ignores it too
        if len(overlays) > MAX_OVERLAYS:
            raise BadSavedGameError(f"{source}: board {name}: more than {MAX_OVERLAYS} overlays (OVR); a saved game "
                                    f"may name at most {MAX_OVERLAYS}")
        if len(ssr) > MAX_SSR_TOKENS:
            raise BadSavedGameError(f"{source}: board {name}: more than {MAX_SSR_TOKENS} SSR terrain changes; a board "
                                    f"may have at most {MAX_SSR_TOKENS} (VASL names about 270)")
    return BoardEntry(x, y, name, rev, crop, version, tuple(overlays), " ".join(ssr))


def parse_board_state(state: str, source: str) -> BoardEntry:
    """One board entry as VASL's ``ASLBoard.getState()`` writes it (the part of the ``bd`` line for one board).

    :raises BadSavedGameError: naming *source* if it is empty or malformed.
    """
    entry = _board_entry(state, source)
    if entry is None:
        raise BadSavedGameError(f"{source}: empty board entry (expected x, y, name, VER, version…)")
    return entry


def parse_boards(command: str, source: str) -> list[BoardEntry]:
    """The boards of VASL's ``bd\\t…`` command: per board ``x, y, [r]name, [crop x, y, w, h,] VER, version,
    (OVR, name, hex1, hex2)…, [SSR, changes], [ZOOM, magnification]``, boards joined by ``bd\\t``.

    >>> [(b.x, b.y, b.name, b.reversed) for b in parse_boards("bd\\t0\\t0\\t01\\tVER\\t6.1\\t", "g")]
    [(0, 0, '01', False)]
    """
    body = command[3:] if command.startswith("bd\t") else command
    out: list[BoardEntry] = []
    for desc in body.split("bd\t", MAX_BOARDS + 1):
        entry = _board_entry(desc, source)
        if entry is not None:
            out.append(entry)
        if len(out) > MAX_BOARDS:
            raise BadSavedGameError(f"{source}: the board entry names more than {MAX_BOARDS} boards (expected a "
                                    "VASL map of at most that many)")
    overlays = sum(len(b.overlays) for b in out)
    if overlays > MAX_OVERLAYS:
        raise BadSavedGameError(f"{source}: the boards name {overlays:,} overlays (OVR) in all; a saved game may name "
                                f"at most {MAX_OVERLAYS}")
    return out


@dataclass(frozen=True, slots=True)
class SavedPiece:
    """A piece of a saved game that VASSAL shows to both players."""

    id: str
    gpid: str
    name: str
    map: str | None
    x: int
    y: int
    traits: tuple[Trait, ...]

    @property
    def fire_counter(self) -> FireCounter | None:
        return classify(self.name, self.gpid) or classify(self.basic_name, None)

    @property
    def basic_name(self) -> str:
        f = self.traits[-1].fields if self.traits else []
        return f[4] if len(f) > 4 else ""


@dataclass(frozen=True)
class SavedGame:
    """What a saved game holds: boards, visible pieces, stacks, extensions."""

    source: str
    boards: tuple[BoardEntry, ...]
    pieces: tuple[SavedPiece, ...]
    stacks: tuple[tuple[str, tuple[str, ...]], ...]  # the pieces shown of each stack, bottom first
    module_version: str = ""
    extensions: tuple[tuple[str, str], ...] = ()

    def fire_pieces(self) -> Iterator[tuple[FireCounter, SavedPiece]]:
        for p in self.pieces:
            k = p.fire_counter
            if k is not None:
                yield k, p

    def stack_of(self, piece_id: str) -> tuple[str, ...]:
        """Ids of the (visible) pieces in the same stack, bottom first."""
        visible = {p.id for p in self.pieces}
        for _, members in self.stacks:
            if piece_id in members:
                return tuple(m for m in members if m in visible)
        return (piece_id,)


def _is_hidden(traits: Sequence[Trait]) -> bool:
    """HIDDEN_BY / OBSCURED_BY: a hide/obs/conceal trait whose state names a player."""
    for t in traits:
        if t.id in ("hide", "obs", "conceal"):
            first = t.state.split(";", 1)[0].strip()
            if first not in ("", "null"):
                return True
    return False


def _is_concealment(traits: Sequence[Trait]) -> bool:
    return any(t.id == "concealment" for t in traits)


def _basic(traits: Sequence[Trait]) -> tuple[str | None, int, int, str]:
    st = traits[-1].state_fields if traits and traits[-1].id == "piece" else []
    mp = st[0] if st and st[0] not in ("", "null") else None
    try:
        x = int(float(st[1])) if len(st) > 1 else 0
        y = int(float(st[2])) if len(st) > 2 else 0
    except ValueError:
        x = y = 0
    gpid = st[3] if len(st) > 3 else ""
    return mp, x, y, gpid


def read_vsav_bytes(data: bytes, source: str) -> SavedGame:
    """Read a saved game given as the bytes of the ``.vsav`` zip."""
    arc = Archive(data, source)
    member = arc.find("savedGame")
    if member is None:
        raise BadSavedGameError(f"{source}: no savedGame member (expected a VASSAL .vsav)")
    text = deobfuscate(arc.read(member, limit=MAX_SAVE_BYTES), f"{source}!{member}")
    version = ""
    md = arc.find("moduledata")
    if md is not None:
        m = re.search(rb"<version>([^<]*)</version>", arc.read(md, limit=1_000_000))
        version = m.group(1).decode("utf-8", "replace") if m else ""
    return _game(text, source, version)


def read_vsav(path: Path | str) -> SavedGame:
    """Read a ``.vsav`` file.

    :raises BadArchiveError, BadSavedGameError: naming the file.
    """
    p = Path(path)
    return read_vsav_bytes(read_file_limited(p), str(p))


def _truncated(source: str) -> BadSavedGameError:
    return BadSavedGameError(f"{source}: truncated: the saved game stops before VASSAL's end_save, so pieces and "
                             "boards are missing; expected a complete .vsav (save the game again in VASSAL)")


def _game(text: str, source: str, version: str) -> SavedGame:
    if text.startswith("begin_save") and "\x1bend_save" not in text:  # before a cut-off command is read as one
        raise _truncated(source)
    pieces: dict[str, tuple[tuple[Trait, ...], str, str]] = {}
    stacks: dict[str, tuple[str, ...]] = {}
    boards: list[BoardEntry] = []
    exts: list[tuple[str, str]] = []
    added = stacked = 0
    begun = ended = logged = False
    for cmd in parse_commands(text, source):
        if cmd == "begin_save":
            begun = True
        elif cmd == "end_save":
            ended = True
        elif cmd.startswith("LOG\t"):
            logged = True
        elif cmd.startswith("+/"):
            added += 1
            if added > MAX_PIECES:
                raise BadSavedGameError(f"{source}: more than {MAX_PIECES:,} pieces (expected a VASL game)")
            toks = decode_sequence(cmd, "/")
            if len(toks) < 4:
                raise BadSavedGameError(f"{source}: add-piece command without type and state ({cmd[:40]!r})")
            pid, type_text, state_text = toks[1], toks[2], toks[3]
            if type_text == "stack":
                st = decode_sequence(state_text, ";")
                stacks[pid] = tuple(st[3:])
                stacked += len(st) - 3
                if stacked > MAX_PIECES:
                    raise BadSavedGameError(f"{source}: stacks name more than {MAX_PIECES:,} pieces (expected a VASL "
                                            "game)")
            else:
                pieces[pid] = (decode_traits(type_text, state_text), type_text, state_text)
        elif cmd.startswith("D/"):
            toks = decode_sequence(cmd, "/")
            if len(toks) >= 3 and toks[1] in pieces:
                _, type_text, _old = pieces[toks[1]]
                pieces[toks[1]] = (decode_traits(type_text, toks[2]), type_text, toks[2])
        elif cmd.startswith("-/"):
            pieces.pop(cmd[2:], None)
        elif cmd.startswith("bd\t"):
            boards = parse_boards(cmd, source)
        elif cmd.startswith("EXT\t"):
            f = cmd.split("\t")
            exts.append((f[1] if len(f) > 1 else "", f[2] if len(f) > 2 else ""))
    if logged:
        raise BadSavedGameError(f"{source}: a VASSAL log (.vlog): moves are logged after its saved game, so its pieces "
                                "are where the log starts, not where it ends; step to its end in VASSAL and save the "
                                "game (.vsav), then read that")
    if begun and not ended:
        raise _truncated(source)
    # Pieces under a concealment "?" counter in a stack are concealed too.
    concealed: set[str] = set()
    for members in stacks.values():
        under = max((i for i, mid in enumerate(members) if mid in pieces and _is_concealment(pieces[mid][0])),
                    default=0)  # everything under the topmost "?" (once: a stack may name a "?" many times)
        concealed.update(members[:under])
    visible: list[SavedPiece] = []
    for pid, (traits, _t, _s) in pieces.items():
        if _is_hidden(traits) or pid in concealed:
            continue  # not counted either: nothing of a piece the other player may not see leaves the reader
        mp, x, y, gpid = _basic(traits)
        visible.append(SavedPiece(pid, gpid, piece_name(traits), mp, x, y, traits))
    shown = {p.id for p in visible}
    shown_stacks = tuple((sid, kept) for sid, members in stacks.items()
                         if (kept := tuple(m for m in members if m in shown)))
    return SavedGame(source, tuple(boards), tuple(visible), shown_stacks, version, tuple(exts))
