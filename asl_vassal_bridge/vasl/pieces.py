"""Read units off VASL counters in a bridge snapshot: nationality, unit type, broken side, stack-mates.

VASL draws a unit's nationality and type in its counter's Embellishment
layers: images live in a folder named for the nationality (``ge/ge467S``,
``ru/ruMOL``), the type's layer carries VASL's names (``4-6-7 1sq``) and the
broken side is a layer named ``broken +`` switched on with Ctrl-F (squads)
or with Ctrl-F after Ctrl-V (a half-squad's).  Everything here is pure:
a snapshot piece (a dict from :mod:`asl_vassal_bridge.bridge.client`) in, plain values out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..core.errors import BadInput
from ..core.position import UnitKind
from ..core.units import MMCType, Nationality, UnknownNationalityError, parse_designation
from .counters import BadCounterState, Layers, embellishment_layers
from .traits import Trait

__all__ = [
    "NoSuchPiece",
    "active_markers",
    "art_folder",
    "broken_layer_change",
    "find_piece",
    "is_broken",
    "is_ft_counter",
    "layers_of",
    "nationality_of",
    "stack_of",
    "unit_kind",
    "unit_names",
    "unit_type",
]

#: Image folders of VASL's shared markers, never a nationality.
_NOT_NATIONAL = frozenset({"ms", "ml", "tables", "images"})
_PREFIX_STRIP = re.compile(r"^(?:(?:broken|wnd|wounded|dm|berserk|fanatic)\s+)+", re.I)


class NoSuchPiece(BadInput):
    """The snapshot has no visible piece with that id (gone, hidden or concealed)."""


def find_piece(snapshot: Mapping[str, Any], piece_id: str) -> Mapping[str, Any]:
    """The snapshot's piece *piece_id*.

    :raises NoSuchPiece: if no visible piece has that id.
    """
    for p in snapshot.get("pieces") or ():
        if str(p.get("id")) == piece_id:
            return p  # type: ignore[no-any-return]
    raise NoSuchPiece(f"piece {piece_id!r}: no such visible piece in the game (moved off, hidden or concealed?)")


def stack_of(snapshot: Mapping[str, Any], piece: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The visible pieces at the same point of the same map as *piece* (its stack), itself included."""
    key = (piece.get("map"), piece.get("x"), piece.get("y"))
    return [p for p in snapshot.get("pieces") or () if (p.get("map"), p.get("x"), p.get("y")) == key]


@lru_cache(maxsize=8192)
def _decoded(texts: tuple[tuple[str, str], ...]) -> tuple[tuple[Layers, Trait], ...] | str:
    """The decoded layers of one counter's (type, state) texts, or the error; many counters share them."""
    traits = [t for t in (Trait(ty, st) for ty, st in texts) if t.id in ("emb2", "emb")]
    try:
        return tuple(zip(embellishment_layers(traits), traits, strict=True))
    except BadCounterState as e:
        return str(e)


def layers_of(piece: Mapping[str, Any]) -> list[tuple[Layers, Trait]]:
    """The piece's Embellishments with their traits, in the snapshot's (and the batch's) layer order.

    Decoded once per distinct counter state (a game's many identical squads share one decoding).

    :raises BadInput: naming the piece if a layer's state is not a number.
    """
    got = _decoded(tuple((str(lay["type"]), str(lay["state"])) for lay in piece.get("layers") or ()))
    if isinstance(got, str):
        raise BadInput(f"piece {piece.get('id')} ({piece.get('name')}): {got}")
    return list(got)


def art_folder(piece: Mapping[str, Any]) -> str | None:
    """The nationality folder of the counter's art (``ge`` for ``ge/ge467S``), None if it has none."""
    for lay, _t in layers_of(piece):
        for image in lay.images:
            if "/" not in image:
                continue
            folder = image.replace("\\", "").split("/", 1)[0].strip().lower()
            if folder and folder not in _NOT_NATIONAL:
                return folder
    return None


def nationality_of(piece: Mapping[str, Any]) -> Nationality:
    """The nationality VASL's counter art names: the folder of its layer images (``ge/ge467S`` → German).

    :raises BadInput: if the counter's images name no known nationality.
    """
    seen: list[str] = []
    for lay, _t in layers_of(piece):
        for image in lay.images:
            folder = image.replace("\\", "").split("/", 1)[0].strip().lower() if "/" in image else ""
            if not folder or folder in _NOT_NATIONAL or folder in seen:
                continue
            seen.append(folder)
            try:
                return Nationality.from_name(folder)
            except UnknownNationalityError:
                continue
    raise BadInput(f"piece {piece.get('id')} ({piece.get('name')}): its counter art names no nationality "
                   f"(image folders seen: {', '.join(seen) or 'none'}); is it a VASL unit counter?")


def is_ft_counter(p: Mapping[str, Any]) -> bool:
    """VASL's FT support weapon counter (named ``FT``, art ``xx/xxFT``), not a vehicle such as the FT-17."""
    names = {str(p.get("name") or "").strip(), str(p.get("basic_name") or "").strip()}
    if "FT" in names:
        return True
    try:
        return any(im.replace("\\", "").rsplit("/", 1)[-1][2:] in ("FT", "FTb")
                   for lay, _t in layers_of(p) for im in lay.images)
    except BadInput:
        return False


def unit_names(piece: Mapping[str, Any]) -> list[str]:
    """Names the counter may go by in VASL's palette: its name, without ``broken``/``Wnd``, and its layers'."""
    out: list[str] = []

    def add(name: str) -> None:
        name = " ".join(name.split())
        if name and name not in out:
            out.append(name)

    for raw in (str(piece.get("name") or ""), str(piece.get("basic_name") or "")):
        add(raw)
        add(_PREFIX_STRIP.sub("", raw))
    for lay, _t in layers_of(piece):
        if lay.active and 0 < lay.value <= len(lay.names) and "+" not in lay.names[lay.value - 1]:
            add(lay.names[lay.value - 1])
    return out


def unit_type(piece: Mapping[str, Any], catalogue: Any,
              nationality: Nationality | None = None) -> tuple[Nationality, MMCType | None, str]:
    """The unit a counter shows: nationality, catalogue MMC type (None for a leader/hero) and its designation.

    *catalogue* is a :class:`~asl_vassal_bridge.core.units.UnitCatalogue`.

    :raises BadInput: naming the piece if neither the catalogue nor the name tells what unit it is.
    """
    nat = nationality or nationality_of(piece)
    names = unit_names(piece)
    for name in names:
        found = catalogue.by_vasl_name(name, nat)
        if found:
            return found[0][0], found[0][1], name
    for name in names:
        head = name.split()[0] if name.split() else ""
        try:
            parse_designation(head)
        except BadInput:
            continue
        return nat, None, head
    raise BadInput(f"piece {piece.get('id')} ({piece.get('name')}): not a {nat.label} unit of the catalogue "
                   f"(names tried: {', '.join(names) or 'none'})")


def _keys(trait: Trait) -> str:
    f = trait.fields
    return f[3] if len(f) > 3 else ""


def _broken_layers(piece: Mapping[str, Any]) -> list[tuple[int, Layers, str]]:
    out = []
    for i, (lay, t) in enumerate(layers_of(piece)):
        if any(lay.names) and all("broken" in n.lower() for n in lay.names if n):
            out.append((i, lay, _keys(t)))
    return out


def is_broken(piece: Mapping[str, Any]) -> bool:
    """Whether the counter shows its broken side (a ``broken`` layer switched on)."""
    return any(lay.active for _i, lay, _k in _broken_layers(piece))


def active_markers(piece: Mapping[str, Any]) -> frozenset[str]:
    """The counter's switched-on marker layers, lower case without ``+`` (``{"berserk"}`` for ``Berserk +``)."""
    out = set()
    for lay, _t in layers_of(piece):
        if lay.active and 0 < abs(lay.value) <= len(lay.names):
            name = lay.names[abs(lay.value) - 1]
            if "+" in name:
                out.add(" ".join(name.replace("+", " ").split()).lower())
    return frozenset(out)


def _half_squad(piece: Mapping[str, Any]) -> bool:
    for lay, _t in layers_of(piece):
        if lay.active and 0 < lay.value <= len(lay.names) and lay.names[lay.value - 1].endswith("hs"):
            return True
    return False


def broken_layer_change(piece: Mapping[str, Any], broken: bool = True) -> dict[str, Any] | None:
    """The batch layer change that shows (or hides) the counter's broken side, None if already so.

    A squad's broken side is the layer switched by Ctrl-F alone; a half-squad's
    the one needing Ctrl-V too (VASL's counters, A7.4: a broken unit is flipped).

    :raises BadInput: if the counter has no broken side.
    """
    layers = _broken_layers(piece)
    if not layers:
        raise BadInput(f"piece {piece.get('id')} ({piece.get('name')}): the counter has no broken side to show")
    hs = _half_squad(piece)
    chosen = next((x for x in layers if set(x[2].upper()) == ({"F", "V"} if hs else {"F"})), None)
    if chosen is None:
        chosen = layers[-1] if not hs else layers[0]
    index, lay, _k = chosen
    if lay.active == broken:
        return None
    level = abs(lay.value) or 1
    return {"id": str(piece["id"]), "index": index, "value": level if broken else -level}


def unit_kind(mmc: MMCType | None, designation: str) -> UnitKind:
    """The unit's kind for the A22 declaration: the catalogue's, else leader for a rating like ``8-1``."""
    if mmc is not None:
        return mmc.kind
    from ..core.units import LeaderRating

    return UnitKind.LEADER if isinstance(parse_designation(designation), LeaderRating) else UnitKind.HERO
