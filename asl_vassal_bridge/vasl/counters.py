"""VASL's fire-related counters: which slot is what, and what a counter's face means.

Pure (no lxml, no I/O): the module/saved-game readers and the live bridge
both classify pieces here.  Gpids are VASL's PieceSlot ids, stable from VASL
6.5 to 6.7 (see ``docs/vasl-readers.md``); names are the fallback for pieces
whose gpid is unknown (extensions, older modules).

A Flame placed by VASL carries VASL's own PIN counter (the Flame's
``placemark;Pin`` trait): that is how players mark a Flame that appeared this
Player Turn (B25.15) and may not yet become a Blaze.

>>> classify("Flame", "192")
<FireCounter.FLAME: 'flame'>
>>> classify("T-34/76 Wreck", "3b5:999")
<FireCounter.WRECK: 'wreck'>
>>> ec_from_layer(4)
<EC.MOIST: -1>
>>> wind_direction_from_layer(1)
<Direction.LOWER_RIGHT: 3>
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NoReturn

from ..core.environment import EC, WindForce
from ..core.errors import BadInput
from ..core.hexes import Direction
from .traits import Trait, decode_traits, split_list

__all__ = [
    "BUILDING_BLAZE_GPIDS",
    "BUILDING_BLAZE_LEVELS",
    "FIRE_GPIDS",
    "PLACE_GPIDS",
    "BadCounterState",
    "CounterLevel",
    "FireCounter",
    "SmokeFace",
    "building_blaze_levels",
    "classify",
    "ec_from_layer",
    "ec_from_name",
    "ec_from_piece",
    "embellishment_layers",
    "gusts_from_layer",
    "gusts_from_name",
    "gusts_from_piece",
    "level_from_layer",
    "level_from_name",
    "level_from_piece",
    "piece_name",
    "smoke_face",
    "wind_direction_from_layer",
    "wind_direction_from_piece",
    "wind_force_from_layer",
    "wind_force_from_name",
    "wind_force_from_piece",
]


class BadCounterState(BadInput):
    """A counter's state that does not say what VASL's counter can show."""


class FireCounter(enum.Enum):
    """The VASL counters the fire rules read or place."""

    FLAME = "flame"  # B25.1
    BLAZE = "blaze"  # B25.1; also the vehicle "Bad Things" Blaze (B25.14)
    BUILDING_BLAZE = "building-blaze"  # 1–4-level Blaze (B25.2)
    BURNT_OUT_WRECK = "burnt-out-wreck"  # B25.14
    WRECK = "wreck"  # D10.1; burning when a Blaze is on it
    EC = "ec"  # B25.5
    WIND_DIR = "wind-dir"  # B25.64
    GUSTS = "gusts"  # B25.651
    WIND = "wind"  # B25.63 Wind Force
    SMOKE = "smoke"  # A24
    PIN = "pin"  # A7.8; on a Flame: placed this Player Turn (B25.15)
    PREP_FIRE = "prep-fire"  # A7.2
    LEVEL = "level"  # Cellar / Ground / Level 1–3 / Roof marker


def _gpids(table: Mapping[FireCounter, Sequence[str | int]]) -> dict[str, FireCounter]:
    return {str(g): kind for kind, gs in table.items() for g in gs}


#: Every fire-related gpid of VASL 6.5–6.7, including the copies in the hidden
#: ``?`` window (targets of replace/placemark traits: 5710 Flame, 5713 Blaze,
#: 5704 Pin), the night copies (332, 335, 337–340) and the vehicle Blaze 114.
FIRE_GPIDS: dict[str, FireCounter] = _gpids({
    FireCounter.FLAME: (192, 332, 5710),
    FireCounter.BLAZE: (195, 335, 5713, 114),
    FireCounter.BUILDING_BLAZE: (197, 198, 199, 200, 337, 338, 339, 340),
    FireCounter.BURNT_OUT_WRECK: (191,),
    FireCounter.WRECK: (4142, 5806, 4391, 5807),
    FireCounter.EC: (284,),
    FireCounter.WIND_DIR: (285,),
    FireCounter.GUSTS: (286,),
    FireCounter.WIND: (287,),
    FireCounter.SMOKE: (6, 57, 58, 59, 60, 61, 62, 67, 72, 205, 206, 207, 208, 209, 210, 4121, 4123, 4125, 4370,
                        4372, 4374),
    FireCounter.PIN: (1, 5704),
    FireCounter.PREP_FIRE: (0,),
    FireCounter.LEVEL: (163, 165, 167, 169, 171, 173, 6663, 5718),
})

#: Burning-building levels of the 1–4-level Blaze gpids (day and night sets).
BUILDING_BLAZE_LEVELS: dict[str, int] = {
    "197": 1, "198": 2, "199": 3, "200": 4,
    "337": 1, "338": 2, "339": 3, "340": 4,
}

#: The day-set gpid of the n-level Blaze (n = 1…4), to place one.
BUILDING_BLAZE_GPIDS: dict[int, str] = {1: "197", 2: "198", 3: "199", 4: "200"}

#: The gpid to place for a new counter of each kind (VASL's main palette slot).
#: A new Flame is gpid 192, whose own ``placemark;Pin`` trait adds the PIN
#: (gpid 1 in the palette; VASL's trait draws it from the hidden window, 5704).
PLACE_GPIDS: dict[FireCounter, str] = {
    FireCounter.FLAME: "192",
    FireCounter.BLAZE: "195",
    FireCounter.BUILDING_BLAZE: "197",
    FireCounter.BURNT_OUT_WRECK: "191",
    FireCounter.WRECK: "4142",
    FireCounter.EC: "284",
    FireCounter.WIND_DIR: "285",
    FireCounter.GUSTS: "286",
    FireCounter.WIND: "287",
    FireCounter.SMOKE: "205",
    FireCounter.PIN: "1",
    FireCounter.PREP_FIRE: "0",
    FireCounter.LEVEL: "163",
}

_BUILDING_BLAZE_NAME = re.compile(r"^([1-4])-level blaze$", re.IGNORECASE)
_NAME_TABLE: dict[str, FireCounter] = {
    "flame": FireCounter.FLAME,
    "blaze": FireCounter.BLAZE,
    "burnt out wreck": FireCounter.BURNT_OUT_WRECK,
    "burnt-out wreck": FireCounter.BURNT_OUT_WRECK,
    "wreck": FireCounter.WRECK,
    "ec": FireCounter.EC,
    "wind dir": FireCounter.WIND_DIR,
    "wind direction": FireCounter.WIND_DIR,
    "gusts": FireCounter.GUSTS,
    "no gusts": FireCounter.GUSTS,
    "wind": FireCounter.WIND,
    "w. force": FireCounter.WIND,
    "no wind": FireCounter.WIND,
    "mild breeze": FireCounter.WIND,
    "heavy winds": FireCounter.WIND,
    "pin": FireCounter.PIN,
    "prep fire": FireCounter.PREP_FIRE,
    "building": FireCounter.LEVEL,
    "fort bldg": FireCounter.LEVEL,
}
_LEVEL_NAME = re.compile(r"^(building|fort bldg)\s+(cellar|ground level|level [1-3]|roof level|roof)$", re.IGNORECASE)


def classify(name: str | None, gpid: str | int | None) -> FireCounter | None:
    """The fire counter a piece is, by gpid first, then by name; None if it is none of them.

    Names understood: the palette names (``Flame``, ``2-level Blaze``, ``Wind
    Dir``…), the names VASL gives a counter after flipping it (``EC: -1
    Moist``, ``Mild Breeze``, ``No Gusts``, ``Building Level 1``), and any
    ``… Wreck`` (VASL's per-vehicle wrecks).

    >>> classify("EC: -1 Moist", None)
    <FireCounter.EC: 'ec'>
    >>> classify("Squad 4-6-7", "2300") is None
    True
    """
    if gpid is not None:
        hit = FIRE_GPIDS.get(str(gpid).strip())
        if hit is not None:
            return hit
    if not name:
        return None
    return _by_name(str(name))


@functools.lru_cache(maxsize=8192)
def _by_name(name: str) -> FireCounter | None:
    """:func:`classify` by name alone, once per name (a game's 3,000 counters carry a few hundred names)."""
    key = " ".join(name.split()).lower()
    if key in _NAME_TABLE:
        return _NAME_TABLE[key]
    if _BUILDING_BLAZE_NAME.match(key):
        return FireCounter.BUILDING_BLAZE
    if key.startswith("ec:"):
        return FireCounter.EC
    if _LEVEL_NAME.match(key):
        return FireCounter.LEVEL
    if key.endswith(" wreck") and "burnt out" not in key:
        return FireCounter.WRECK
    if re.search(r"\bsmoke\b", key):
        return FireCounter.SMOKE
    return None


def building_blaze_levels(name: str | None, gpid: str | int | None) -> int | None:
    """How many building levels a 1–4-level Blaze counter covers (B25.2), or None.

    >>> building_blaze_levels("3-level Blaze", None)
    3
    """
    if gpid is not None and str(gpid).strip() in BUILDING_BLAZE_LEVELS:
        return BUILDING_BLAZE_LEVELS[str(gpid).strip()]
    m = _BUILDING_BLAZE_NAME.match(" ".join((name or "").split()))
    return int(m.group(1)) if m else None


# --- Embellishment (layer) faces -------------------------------------------------------

#: EC counter layers, 1-based (VASL images ECsno, ECmud, ECwet, ECmoi, ECmod, ECdry, ECvdr).
_EC_LAYERS = (EC.SNOW, EC.MUD, EC.WET, EC.MOIST, EC.MODERATE, EC.DRY, EC.VERY_DRY)
_EC_IMAGES = {"ecsno": EC.SNOW, "ecmud": EC.MUD, "ecwet": EC.WET, "ecmoi": EC.MOIST,
              "ecmod": EC.MODERATE, "ecdry": EC.DRY, "ecvdr": EC.VERY_DRY}
#: Wind Dir layers, 1-based: VASL's images Wind3, Wind4, Wind5, Wind6, Wind1, Wind2
#: (face N points to hexside N, B25.64).
_WIND_DIR_LAYERS = (3, 4, 5, 6, 1, 2)
_WIND_FORCE_LAYERS = (WindForce.NO_WIND, WindForce.MILD_BREEZE, WindForce.HEAVY_WINDS)
_WIND_FORCE_IMAGES = {"windno": WindForce.NO_WIND, "windmb": WindForce.MILD_BREEZE, "windhw": WindForce.HEAVY_WINDS}


@dataclass(frozen=True, slots=True)
class CounterLevel:
    """The Location level a Level marker shows: −1 cellar, 0 ground, 1–3, or the rooftop.

    >>> level_from_layer(3)
    CounterLevel(level=1, rooftop=False)
    """

    level: int
    rooftop: bool = False


#: Level marker layers, 1-based: Cellar, Ground Level, Level 1, Level 2, Level 3, Roof Level.
_LEVEL_LAYERS = (CounterLevel(-1), CounterLevel(0), CounterLevel(1), CounterLevel(2), CounterLevel(3),
                 CounterLevel(99, True))


def _layer_index(layer: int, count: int, what: str) -> int:
    if not 1 <= layer <= count:
        raise BadCounterState(f"{what} counter layer {layer} is not one of its faces (expected 1–{count})")
    return layer - 1


def ec_from_layer(layer: int) -> EC:
    """The EC an EC counter shows on layer *layer* (1 Snow … 7 Very Dry; B25.5).

    :raises BadCounterState: for a layer outside 1–7.
    """
    return _EC_LAYERS[_layer_index(layer, 7, "EC")]


def wind_direction_from_layer(layer: int) -> Direction:
    """The Wind Direction a Wind Dir counter shows on layer *layer* (B25.64)."""
    return Direction(_WIND_DIR_LAYERS[_layer_index(layer, 6, "Wind Dir")])


def wind_force_from_layer(layer: int) -> WindForce:
    """The Wind Force a Wind counter shows on layer *layer* (1 No Wind, 2 Mild Breeze, 3 Heavy Winds; B25.63)."""
    return _WIND_FORCE_LAYERS[_layer_index(layer, 3, "Wind")]


def gusts_from_layer(layer: int) -> bool:
    """True if the Gusts counter shows Gusts (layer 1), False on its "No Gusts" face (B25.651)."""
    return _layer_index(layer, 2, "Gusts") == 0


def level_from_layer(layer: int) -> CounterLevel:
    """The level a Level marker shows on layer *layer* (1 Cellar … 6 Roof)."""
    return _LEVEL_LAYERS[_layer_index(layer, 6, "Level marker")]


@dataclass(frozen=True, slots=True)
class Layers:
    """One Embellishment (``emb2``) trait: its images, layer names and current value.

    *value* > 0 is the 1-based layer shown; ≤ 0 means the trait is switched
    off (VASSAL keeps −value as the layer to come back to).
    """

    name: str
    images: tuple[str, ...]
    names: tuple[str, ...]
    value: int

    @property
    def active(self) -> bool:
        return self.value > 0

    @property
    def image(self) -> str | None:
        if not self.active or self.value > len(self.images):
            return None
        return self.images[self.value - 1]


def _embellishment(trait: Trait) -> Layers:
    f = trait.fields
    images = tuple(split_list(f[16])) if len(f) > 16 else ()
    names = tuple(split_list(f[17])) if len(f) > 17 else ()
    name = f[19] if len(f) > 19 else ""
    st = trait.state_fields
    try:
        value = int(st[0]) if st and st[0] not in ("", "null") else 1
    except ValueError:
        raise BadCounterState(f"layer value {trait.state!r} of {trait.type[:40]!r} is not a number") from None
    return Layers(name, images, names, value)


def embellishment_layers(traits: Sequence[Trait]) -> list[Layers]:
    """Every Embellishment (``emb2``/``emb``) of a piece, outermost first."""
    return [_embellishment(t) for t in traits if t.id in ("emb2", "emb")]


@dataclass(frozen=True, slots=True)
class SmokeFace:
    """What a VASL SMOKE counter shows (A24): SMOKE or WP (*wp*), *dispersed* (VASL's grey faces) or not, and
    the layer changes (index, value as in :class:`Layers`) that turn it to its Dispersed face (``()`` when it
    is Dispersed already)."""

    wp: bool
    dispersed: bool
    to_dispersed: tuple[tuple[int, int], ...]


def _face_text(lay: Layers, level: int) -> str:
    name = lay.names[level - 1] if level <= len(lay.names) else ""
    image = _image_key(lay.images[level - 1]) if level <= len(lay.images) else ""
    return f"{name} {image}".lower()


def _grey(text: str) -> bool:
    return "gray" in text or "grey" in text


def _smoke_or_wp(text: str) -> bool:
    """A face of VASL's SMOKE counter: white or grey, SMOKE or WP (not a grenade, not an overlay's +3/+2)."""
    return ("white" in text or _grey(text)) and ("smoke" in text or "wp" in text) and "grenade" not in text


def smoke_face(layers: Sequence[Layers]) -> SmokeFace | None:
    """The face of a SMOKE counter from its Embellishments (outermost first: the first one switched on is the
    face shown), or None when it is not one of VASL's SMOKE counter faces with a grey (Dispersed) face of its
    kind — a smoke or WP grenade, an overlay's SMOKE, none switched on: the players apply B25.651 to those.

    VASL's SMOKE counter has a layer per face: grey WP, grey SMOKE, white WP (+2/+1), white SMOKE (+3/+2).

    >>> white = Layers("", ("ML/Smk3", "ML/Smk2"), ("White +3 Smoke", "White +2 Smoke"), 1)
    >>> grey = Layers("Gray", ("ML/Smk2gr",), ("Gray +2 Smoke",), -1)
    >>> smoke_face([grey, white])
    SmokeFace(wp=False, dispersed=False, to_dispersed=((0, 1),))
    >>> smoke_face([Layers("", ("MS/Smk12", "MS/WP12"), ("Smoke grenade +2", "WP grenade +1"), 1)]) is None
    True
    """
    shown = next(((i, lay) for i, lay in enumerate(layers) if lay.active and lay.value <= len(lay.images)), None)
    if shown is None:
        return None
    i, lay = shown
    text = _face_text(lay, lay.value)
    if not _smoke_or_wp(text):
        return None
    wp = "wp" in text
    if _grey(text):
        return SmokeFace(wp, True, ())
    # the grey face of the same kind: another level of the shown layer, else the outermost other layer's
    targets = [(j, m) for j, other in enumerate(layers) for m in range(1, len(other.images) + 1)
               if _grey(t := _face_text(other, m)) and _smoke_or_wp(t) and ("wp" in t) == wp]
    target = next(((j, m) for j, m in targets if j == i), None) or next(iter(targets), None)
    if target is None:
        return None
    j, m = target
    if j <= i:
        return SmokeFace(wp, False, ((j, m),))
    return SmokeFace(wp, False, ((i, -lay.value), (j, m)))  # the grey face lies under the one shown


def _image_key(image: str) -> str:
    base = image.rsplit("/", 1)[-1]
    for ext in (".svg", ".png", ".gif", ".jpg"):
        if base.lower().endswith(ext):
            base = base[: -len(ext)]
    return base.lower()


def _traits(type_text: str | Sequence[Trait], state_text: str = "") -> Sequence[Trait]:
    if isinstance(type_text, str):
        return decode_traits(type_text, state_text)
    return type_text


def _find(layers: list[Layers], keys: Mapping[str, object] | None, prefix: str) -> Layers | None:
    for lay in layers:
        imgs = [_image_key(i) for i in lay.images]
        if keys is not None and imgs and all(i in keys for i in imgs):
            return lay
        if keys is None and imgs and all(i.startswith(prefix) and i[len(prefix):].isdigit() for i in imgs):
            return lay
    return None


def ec_from_piece(type_text: str | Sequence[Trait], state_text: str = "") -> EC:
    """The EC an EC counter (gpid 284) shows, from its type/state or decoded traits.

    :raises BadCounterState: if the piece has no EC layers.
    """
    lay = _find(embellishment_layers(_traits(type_text, state_text)), _EC_IMAGES, "")
    if lay is None or lay.image is None:
        return ec_from_layer(abs(lay.value)) if lay is not None else _missing("EC")
    return _EC_IMAGES[_image_key(lay.image)]


def wind_direction_from_piece(type_text: str | Sequence[Trait], state_text: str = "") -> Direction:
    """The Wind Direction a Wind Dir counter (gpid 285) shows (image WindN: direction N, B25.64)."""
    lay = _find(embellishment_layers(_traits(type_text, state_text)), None, "wind")
    if lay is None:
        return _missing("Wind Dir")
    if lay.image is None:
        return wind_direction_from_layer(abs(lay.value))
    return Direction(int(_image_key(lay.image)[4:]))


def wind_force_from_piece(type_text: str | Sequence[Trait], state_text: str = "") -> WindForce:
    """The Wind Force a Wind counter (gpid 287) shows (B25.63)."""
    lay = _find(embellishment_layers(_traits(type_text, state_text)), _WIND_FORCE_IMAGES, "")
    if lay is None:
        return _missing("Wind")
    if lay.image is None:
        return wind_force_from_layer(abs(lay.value))
    return _WIND_FORCE_IMAGES[_image_key(lay.image)]


def gusts_from_piece(type_text: str | Sequence[Trait], state_text: str = "") -> bool:
    """True if a Gusts counter (gpid 286) shows Gusts rather than its "No Gusts" face (B25.651)."""
    lay = _find(embellishment_layers(_traits(type_text, state_text)), {"gust": True, "gustb": False}, "")
    if lay is None:
        return _missing("Gusts")
    return lay.image is not None and _image_key(lay.image) == "gust"


_LEVEL_IMAGES = {"lev-1": 1, "lev0": 2, "lev1": 3, "lev2": 4, "lev3": 5, "levroof": 6,
                 "fortcell": 1, "fort0": 2, "fort1": 3, "fort2": 4, "fort3": 5}


def level_from_piece(type_text: str | Sequence[Trait], state_text: str = "") -> CounterLevel:
    """The level a Level marker (gpids 163–173, 6663) shows."""
    lay = _find(embellishment_layers(_traits(type_text, state_text)), _LEVEL_IMAGES, "")
    if lay is None:
        return _missing("Level marker")
    if lay.image is None:
        return level_from_layer(abs(lay.value))
    return level_from_layer(_LEVEL_IMAGES[_image_key(lay.image)])


def _missing(what: str) -> NoReturn:
    raise BadCounterState(f"the piece has no {what} layers (expected VASL's {what} counter)")


# --- Faces from the names VASL gives flipped counters (for callers that only see names) --------

def ec_from_name(name: str) -> EC | None:
    """The EC an EC counter's name shows (``EC: -1 Moist`` → Moist), or None if it names none.

    >>> ec_from_name("EC: +2 Very Dry")
    <EC.VERY_DRY: 2>
    """
    key = name.lower()
    for ec in sorted(EC, key=lambda e: -len(e.label)):
        if ec.label.lower() in key:
            return ec
    return None


def wind_force_from_name(name: str) -> WindForce | None:
    """The Wind Force a Wind counter's name shows (``Mild Breeze``), or None."""
    key = " ".join(name.lower().split())
    for wf in WindForce:
        if wf.label.lower() in key:
            return wf
    return None


def gusts_from_name(name: str) -> bool | None:
    """True for ``Gusts``, False for ``No Gusts``, None for any other name (B25.651)."""
    key = " ".join(name.lower().split())
    if key.endswith("no gusts"):
        return False
    return True if key.endswith("gusts") else None


def level_from_name(name: str) -> CounterLevel | None:
    """The level a Level marker's name shows (``Building Level 1``, ``Building Cellar``, ``… Roof Level``)."""
    key = " ".join(name.lower().split())
    if key.endswith("cellar"):
        return CounterLevel(-1)
    if key.endswith("ground level"):
        return CounterLevel(0)
    if key.endswith(("roof level", "roof")):
        return CounterLevel(99, True)
    m = re.search(r"level ([1-3])$", key)
    return CounterLevel(int(m.group(1))) if m else None


def piece_name(traits: Sequence[Trait]) -> str:
    """The name VASSAL shows for a piece: the BasicPiece name changed by active layer names.

    A layer name ``+ x`` is appended, ``x +`` prefixed, any other replaces the name.

    >>> emb = "emb2;;2;;Incr;2;];Decr;2;[;;;0;false;0;0;ML/ECmoi;+: -1 Moist;true"
    >>> piece_name(decode_traits(emb + "\\tpiece;K;D; ;EC", "1\\tnull;0;0;284"))
    'EC: -1 Moist'
    """
    if not traits:
        return ""
    basic = traits[-1].fields
    name = basic[4] if len(basic) > 4 else ""
    for lay in reversed(embellishment_layers(traits)):
        if not lay.active or lay.value > len(lay.names):
            continue
        ln = lay.names[lay.value - 1]
        if not ln:
            continue
        if ln.startswith("+"):
            name = name + ln[1:]
        elif ln.endswith("+"):
            name = ln[:-1] + name
        else:
            name = ln
    return name.strip()
