"""VASL's unit counters → the rules core's :class:`~asl_vassal_bridge.core.position.Unit`.

A unit counter is known by its gpid (the palette group it comes from:
``SQ``, ``HS``, ``SMC``, ``Veh``, ``Gun`` of a nationality's tab, see
:mod:`.catalogue`) or, failing that, by the names VASL gives it, which the
unit catalogue knows (``4-6-7 1sq``).  Its state comes from the counter and
its stack, as VASL players mark it:

* broken — the counter's ``broken`` layer switched on (A7.4);
* berserk — its ``Berserk +`` layer (A15.4); without the layers (a snapshot
  that left them out) both are read from the name VASSAL gives the counter
  (``broken 4-6-7 1sq``);
* pinned, CX — VASL's Pin and CX markers above it in its stack (markers
  cover the units beneath them), except on a berserk unit, which loses any
  pinned or CX status (A15.42);
* Immobilized (a vehicle) — VASL's ``Immob.`` marker (gpid 111) above it;
* in Melee — a Melee / H-t-H marker in its Location (A11);
* FT possessed (A22.4) — each FT counter of its stack belongs to the nearest
  infantry unit beneath it (a SW sits on the unit possessing it), else, with
  none beneath, to the nearest above; a FT on a concealed stack is nobody's
  (nothing about a hidden unit leaves VASSAL);
* its Location — the hex, and the level a Level marker in its stack shows.

Concealed and hidden pieces never become units: a counter under a ``?``
concealment counter, one whose name VASL shows with ``(?)`` (concealed to the
other players) and the ``?`` counters themselves are left out, so nothing
hidden reaches the Position or the chat.

Pure: counters in (the bridge snapshot's piece dicts, or :func:`piece_dict`
of a saved game's piece), units out.

>>> counters = CounterIndex.from_dict({"german": {"Veh": ["2524"]}})
>>> nat, group = counters.of("2524")
>>> nat.label, group
('German', 'Veh')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BadInput
from ..core.position import Location, Unit, UnitKind
from ..core.units import Nationality, UnitCatalogue, UnknownNationalityError
from ..core.values import replace
from .counters import classify
from .pieces import active_markers, is_broken, is_ft_counter, nationality_of, unit_kind, unit_type

__all__ = [
    "CX_GPIDS",
    "IMMOB_GPIDS",
    "MELEE_GPIDS",
    "PIN_GPIDS",
    "CounterIndex",
    "UnitCounter",
    "is_concealed",
    "piece_dict",
    "read_units",
]

#: VASL's Pin markers (the palette's and the hidden window's, which unit and Flame traits place).
PIN_GPIDS = frozenset({"1", "5704"})
#: VASL's CX markers (palette and hidden window).
CX_GPIDS = frozenset({"4", "5706"})
#: VASL's Immobilized marker ("Immob.", D5.7).
IMMOB_GPIDS = frozenset({"111"})
#: VASL's Melee / H-t-H markers.
MELEE_GPIDS = frozenset({"73", "74", "75", "76"})

_GROUP_KIND = {"SQ": UnitKind.SQUAD, "HS": UnitKind.HALF_SQUAD, "Veh": UnitKind.VEHICLE, "Gun": UnitKind.GUN}


@dataclass(frozen=True)
class CounterIndex:
    """gpid → (nationality, palette group) of every unit counter a module's palette has."""

    groups: Mapping[str, tuple[Nationality, str]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, Sequence[str]]]) -> CounterIndex:
        """From the catalogue's ``counters`` (nationality key → group → gpids); unknown keys are skipped."""
        out: dict[str, tuple[Nationality, str]] = {}
        for key, groups in data.items():
            try:
                nat = Nationality.from_name(key)
            except UnknownNationalityError:
                continue
            for group, gpids in groups.items():
                for g in gpids:
                    out.setdefault(str(g), (nat, str(group)))
        return cls(out)

    def of(self, gpid: str | None) -> tuple[Nationality, str] | None:
        return self.groups.get(str(gpid or "").strip())

    def gpids(self) -> frozenset[str]:
        return frozenset(self.groups)


@dataclass(frozen=True, slots=True)
class UnitCounter:
    """A unit read off its counter: the core Unit and what the counter is."""

    unit: Unit
    piece: Mapping[str, Any]
    nationality: Nationality
    designation: str
    cx: bool = False


def piece_dict(piece: Any) -> dict[str, Any]:
    """A saved game's :class:`~asl_vassal_bridge.vasl.vsav.SavedPiece` in the bridge snapshot's piece shape."""
    basic = piece.traits[-1].fields if piece.traits and piece.traits[-1].id == "piece" else []
    return {"id": piece.id, "gpid": piece.gpid, "name": piece.name, "basic_name": piece.basic_name,
            "image": basic[3] if len(basic) > 3 else "",
            "map": piece.map, "x": piece.x, "y": piece.y, "rev": "",
            "layers": [{"type": t.type, "state": t.state} for t in piece.traits if t.id in ("emb2", "emb")]}


def is_concealed(piece: Mapping[str, Any]) -> bool:
    """A ``?`` counter, or a counter VASL names ``… (?)`` (concealed from the other players)."""
    name = str(piece.get("name") or "")
    if "?" not in name:
        return False
    name = " ".join(name.split())
    return name == "?" or name.endswith("(?)")


def _stack_key(p: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    return (p.get("map"), p.get("x"), p.get("y"))


def _berserk(piece: Mapping[str, Any]) -> bool:
    return "berserk" in active_markers(piece)


def _shown(p: Mapping[str, Any], by_layers: Callable[[Mapping[str, Any]], bool], prefix: str) -> bool:
    """A state the counter shows: by its layers, or without them (a snapshot that left them out) by the name
    VASSAL gives it (a layer named ``broken +`` or ``Berserk +`` puts that word in front of the name)."""
    if p.get("layers"):
        return by_layers(p)
    return str(p.get("name") or "").strip().lower().startswith(prefix + " ")


def _marker_kind(p: Mapping[str, Any]) -> str | None:
    """``"pin"``, ``"cx"``, ``"immob"`` or ``"melee"`` for VASL's Pin, CX, Immobilized and Melee markers (by
    gpid, then name), else None."""
    gpid = str(p.get("gpid") or "")
    if gpid in PIN_GPIDS:
        return "pin"
    if gpid in CX_GPIDS:
        return "cx"
    if gpid in IMMOB_GPIDS:
        return "immob"
    if gpid in MELEE_GPIDS:
        return "melee"
    for k in ("name", "basic_name"):
        raw = p.get(k)
        if not raw or len(raw) > 24:  # VASL's marker names are short; unit names need no lower-casing here
            continue
        name = str(raw).strip().lower()
        if name in ("pin", "cx"):
            return name
        if name in ("immob.", "immob", "immobilized"):
            return "immob"
        if name.startswith("melee"):
            return "melee"
    return None


def _identify(p: Mapping[str, Any], counters: CounterIndex,
              catalogue: UnitCatalogue) -> tuple[Nationality, UnitKind, str] | None:
    """The unit a counter is (nationality, kind, designation), or None if it is no unit counter."""
    if classify(p.get("name"), p.get("gpid")) is not None or classify(p.get("basic_name"), None) is not None:
        return None  # fire counters, markers, wrecks
    known = counters.of(p.get("gpid"))
    name = " ".join(str(p.get("name") or p.get("basic_name") or "").split())
    if known is not None:
        nat, group = known
        if group in ("Veh", "Gun"):
            return nat, _GROUP_KIND[group], name
        try:
            nat, mmc, designation = unit_type(p, catalogue, nat)
            return nat, unit_kind(mmc, designation), designation
        except BadInput:
            kind = UnitKind.LEADER if group == "SMC" else _GROUP_KIND.get(group, UnitKind.SQUAD)
            return nat, kind, name
    try:
        nat = nationality_of(p)
        nat, mmc, designation = unit_type(p, catalogue, nat)
    except BadInput:
        return None
    return nat, unit_kind(mmc, designation), designation


def _ft_possession(stack: Sequence[Mapping[str, Any]], top_concealment: int,
                   infantry: Sequence[int]) -> dict[int, int]:
    """stack index of an infantry unit → the FT counters it possesses (A22.4): each visible FT counter goes to
    the nearest infantry unit beneath it, else (none beneath) to the nearest above; one lying on a concealed
    part of the stack (a ``?`` beneath it before any visible unit) is nobody's."""
    out: dict[int, int] = {}
    for i, p in enumerate(stack):
        if i <= top_concealment or not is_ft_counter(p):
            continue
        below = [k for k in infantry if k < i]
        above = [k for k in infantry if k > i]
        if below:
            owner = below[-1]
        elif top_concealment >= 0 or not above:
            continue  # on a concealed stack, or no unit here: nobody's
        else:
            owner = above[0]
        out[owner] = out.get(owner, 0) + 1
    return out


def read_units(pieces: Iterable[Mapping[str, Any]], locate: Callable[[Mapping[str, Any]], Location | None],
               catalogue: UnitCatalogue, counters: CounterIndex = CounterIndex()) -> list[UnitCounter]:
    """Every visible unit counter as a core Unit, with its state from its layers and its stack.

    *pieces* are in stack order (bottom first, as the snapshot and the saved
    game list them); *locate* gives a piece's Location (None: off the map,
    the piece is skipped).  Concealed pieces and those under a ``?`` are left
    out (see the module's docstring).
    """
    stacks: dict[tuple[Any, Any, Any], list[Mapping[str, Any]]] = {}
    for p in pieces:
        stacks.setdefault(_stack_key(p), []).append(p)
    found: list[tuple[UnitCounter, Location]] = []
    memo: dict[Any, tuple[Nationality, UnitKind, str, bool, bool] | None] = {}
    melee: set[Location] = set()
    for stack in stacks.values():
        top_concealment = max((i for i, p in enumerate(stack) if is_concealed(p)), default=-1)
        marks = [_marker_kind(p) for p in stack]
        here: list[Location | None] = []  # the stack's Location: one point, one Location (found once)
        here_units: list[tuple[int, UnitCounter, Location]] = []  # (stack index, unit, Location)

        def spot(p: Mapping[str, Any], here: list[Location | None] = here) -> Location | None:
            if not here:
                here.append(locate(p))
            return here[0]

        for i, p in enumerate(stack):
            if marks[i] == "melee":
                loc = spot(p)
                if loc is not None:
                    melee.add(loc)
            if i <= top_concealment:
                continue  # a "?" or a counter under one: concealed (A12)
            lays = p.get("layers")
            key = (p.get("gpid"), p.get("name"), p.get("basic_name"),
                   tuple((lay.get("type"), lay.get("state")) for lay in lays) if lays else ())
            if key not in memo:  # a game's many identical counters are read once
                what = _identify(p, counters, catalogue)
                memo[key] = None if what is None else (
                    *what, what[1].is_infantry and _shown(p, is_broken, "broken"),
                    what[1].is_infantry and _shown(p, _berserk, "berserk"))
            known = memo[key]
            if known is None:
                continue
            where = spot(p)
            if where is None:
                continue
            nat, kind, designation, broken, berserk = known
            above = marks[i + 1:]  # markers cover the units beneath them
            pinned = "pin" in above and not berserk  # a berserk unit loses any pinned status (A15.42)
            cx = "cx" in above and not berserk  # and any CX status (A15.42)
            immobilized = kind is UnitKind.VEHICLE and "immob" in above
            unit = Unit(str(p.get("id")), f"{nat.label} {designation}", nat.side, where, kind, broken=broken,
                        pinned=pinned, berserk=berserk, may_break_voluntarily=not broken and not berserk,
                        immobilized=immobilized, cx=cx)
            here_units.append((i, UnitCounter(unit, p, nat, designation, cx), where))
        infantry = [i for i, uc, _ in here_units if uc.unit.kind.is_infantry]
        fts = _ft_possession(stack, top_concealment, infantry) if infantry else {}
        for i, uc, where in here_units:
            if fts.get(i):
                uc = replace(uc, unit=replace(uc.unit, ft=fts[i]))
            found.append((uc, where))
    out = []
    for uc, where in found:
        if where in melee:
            uc = replace(uc, unit=replace(uc.unit, in_melee=True))
        out.append(uc)
    return out
