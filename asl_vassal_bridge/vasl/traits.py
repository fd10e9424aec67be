"""VASSAL's SequenceEncoder text and a piece's trait (Decorator) chain, undone.

VASSAL stores a piece as two strings, *type* and *state*.  Each is a
SequenceEncoder sequence: tokens joined by a delimiter, a delimiter inside a
token escaped by a backslash in front of it, and a token that ends in a
backslash (or is itself quoted) wrapped in single quotes.  A decorated piece
nests: the outermost trait's own text, a TAB, then the rest of the piece
encoded again, so every level of nesting adds one more backslash.

This module is pure (no I/O, no lxml): the file readers and the live bridge
both use it.

>>> decode_sequence(r"a;b\\;c;", ";")
['a', 'b;c', '']
>>> [t.id for t in decode_traits("mark;Location\\tpiece;K;D;MS/Flame;Flame", "\\tnull;0;0;192")]
['mark', 'piece']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.errors import BadInput

__all__ = [
    "BadPieceText",
    "Trait",
    "decode_sequence",
    "decode_traits",
    "encode_sequence",
    "encode_traits",
    "first_token",
]

#: A guard against pathological nesting (real VASL pieces have < 60 traits).
MAX_TRAITS = 400


class BadPieceText(BadInput):
    """A piece type/state or command text that does not decode."""


def _unquote(token: str) -> str:
    if len(token) > 1 and token.startswith("'") and token.endswith("'"):
        return token[1:-1]
    return token


def first_token(text: str, delimiter: str) -> tuple[str, str | None]:
    """The first token of a sequence and the encoded rest (None if there is no rest).

    A delimiter right after a backslash belongs to the token (the backslash is
    dropped); quotes around the token are removed.

    >>> first_token(r"x\\\\ty\\tz".replace("\\\\t", "\\t"), "\\t")[0]
    'x\\ty'
    """
    i = text.find(delimiter)
    if i < 0:
        return _unquote(text), None
    parts: list[str] = []
    begin = 0
    end = i
    while begin < end and text[end - 1] == "\\":
        parts.append(text[begin:end - 1])
        parts.append(delimiter)
        begin = end + 1
        end = text.find(delimiter, begin)
        if end < 0:
            break
    if end < 0:
        parts.append(text[begin:])
        return _unquote("".join(parts)), None
    parts.append(text[begin:end])
    return _unquote("".join(parts)), text[end + 1:]


def decode_sequence(text: str | None, delimiter: str) -> list[str]:
    """All tokens of a SequenceEncoder string (VASSAL ``SequenceEncoder.Decoder``).

    A trailing delimiter gives a final empty token; None or no text gives [].

    >>> decode_sequence("+/null/type/state", "/")
    ['+', 'null', 'type', 'state']
    """
    if text is None:
        return []
    pieces = text.split(delimiter)
    out: list[str] = []
    buf: list[str] = []
    last = len(pieces) - 1
    for i, piece in enumerate(pieces):
        if i < last and piece and piece[-1] == "\\":  # an escaped delimiter: the token goes on
            buf.append(piece[:-1])
            buf.append(delimiter)
            continue
        buf.append(piece)
        out.append(_unquote("".join(buf)))
        buf = []
    return out


def encode_sequence(tokens: Iterable[str], delimiter: str) -> str:
    """The SequenceEncoder string of *tokens* (the inverse of :func:`decode_sequence`).

    >>> encode_sequence(["a", "b;c", "d\\\\"], ";")
    "a;b\\\\;c;'d\\\\'"
    """
    out: list[str] = []
    for tok in tokens:
        esc = tok.replace(delimiter, "\\" + delimiter)
        if tok.endswith("\\") or (tok.startswith("'") and tok.endswith("'")):
            esc = f"'{esc}'"
        out.append(esc)
    return delimiter.join(out)


@dataclass(frozen=True, slots=True)
class Trait:
    """One trait of a piece: its id (``emb2``, ``piece``, ``hide``…), type text and state text.

    >>> Trait("emb2;;2;;Incr", "5").fields
    ['emb2', '', '2', '', 'Incr']
    """

    type: str
    state: str

    @property
    def id(self) -> str:
        """The trait's id: the type text up to the first ``;`` (``piece`` for the BasicPiece)."""
        return self.type.split(";", 1)[0]

    @property
    def fields(self) -> list[str]:
        """The type text split on ``;`` (escapes undone); fields[0] is the id."""
        return decode_sequence(self.type, ";")

    @property
    def state_fields(self) -> list[str]:
        """The state text split on ``;`` (escapes undone)."""
        return decode_sequence(self.state, ";")


def _split_decorator(text: str) -> tuple[str, str | None]:
    """A Decorator's own text and its inner piece's text (one level of escapes undone)."""
    head, rest = first_token(text, "\t")
    if rest is None:
        return head, None
    inner, _extra = first_token(rest, "\t")
    return head, inner


def _fast_chain(text: str) -> list[str] | None:
    """Split a decorator chain in one pass, or None when the text needs the general decoder.

    In a chain, the separator after the k-th trait is k backslashes and a TAB
    (one escape per level of nesting).  When the separators found are exactly
    0, 1, 2 … backslashes long and no token is quoted, the tokens need no
    unescaping at all.
    """
    pieces = text.split("\t")
    parts: list[str] = []
    last = len(pieces) - 1
    for level, piece in enumerate(pieces):
        if level == last:
            parts.append(piece)
            break
        body = piece.rstrip("\\")
        if len(piece) - len(body) != level:
            return None
        parts.append(body)
    for p in parts:
        if p.startswith("'") or p.endswith("'"):
            return None
    return parts


def decode_traits(type_text: str, state_text: str) -> tuple[Trait, ...]:
    """The trait chain of a piece, outermost first, the BasicPiece (``piece;…``) last.

    States are paired with types level by level; a missing state is "".

    :raises BadPieceText: if the chain nests deeper than :data:`MAX_TRAITS`.
    """
    types = _fast_chain(type_text)
    states = _fast_chain(state_text) if types is not None else None
    if types is not None and states is not None:
        if len(types) > MAX_TRAITS:
            raise BadPieceText(f"piece type nests more than {MAX_TRAITS} traits (expected a VASSAL piece)")
        out: list[Trait] = []
        for i, t_tok in enumerate(types):
            out.append(Trait(t_tok, states[i] if i < len(states) else ""))
            if t_tok.startswith("piece;") or t_tok == "piece":
                break
        return tuple(out)
    return _decode_traits_general(type_text, state_text)


def _decode_traits_general(type_text: str, state_text: str) -> tuple[Trait, ...]:
    traits: list[Trait] = []
    t_rest: str | None = type_text
    s_rest: str | None = state_text
    while t_rest is not None:
        if len(traits) >= MAX_TRAITS:
            raise BadPieceText(f"piece type nests more than {MAX_TRAITS} traits (expected a VASSAL piece)")
        t_tok, t_rest = _split_decorator(t_rest)
        if s_rest is None:
            s_tok = ""
        else:
            s_tok, s_rest = _split_decorator(s_rest)
        traits.append(Trait(t_tok, s_tok))
        if t_tok.startswith("piece;") or t_tok == "piece":
            break
    return tuple(traits)


def split_list(text: str) -> list[str]:
    """A comma list inside a trait field (VASSAL ``StringArrayConfigurer``), escapes undone.

    >>> split_list(r"ML/ECsno,+: \\+1 Dry")
    ['ML/ECsno', '+: +1 Dry']
    """
    if text == "":
        return []
    return [tok.replace("\\+", "+") for tok in decode_sequence(text, ",")]


def index_or_none(seq: Sequence[str], i: int) -> str | None:
    """``seq[i]`` or None when *seq* is too short."""
    return seq[i] if 0 <= i < len(seq) else None


def encode_traits(traits: Sequence[Trait]) -> tuple[str, str]:
    """The (type, state) strings of a trait chain (the inverse of :func:`decode_traits`).

    >>> t = decode_traits("mark;Location\\tpiece;K;D;;Flame", "\\tnull;0;0;192")
    >>> encode_traits(t)
    ('mark;Location\\tpiece;K;D;;Flame', '\\tnull;0;0;192')
    """
    if not traits:
        return "", ""
    type_text, state_text = traits[-1].type, traits[-1].state
    for t in reversed(traits[:-1]):
        type_text = encode_sequence([t.type, type_text], "\t")
        state_text = encode_sequence([t.state, state_text], "\t")
    return type_text, state_text
