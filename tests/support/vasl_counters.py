"""The few VASL counter definitions the live tests need, built here (no ``../shared/vasl`` needed).

Each palette slot and prototype is written trait by trait, the way VASL 6.5's
``buildFile.xml`` defines it (VASSAL's trait texts, encoded with the
project's :func:`~asl_vassal_bridge.vasl.traits.encode_traits`): the fire
counters (Flame, Blaze and their hidden ``?`` window twins the Flame's Place
Marker and Replace traits name), EC, Wind, Wind Dir, Gusts, Pin, a German
squad, the German FT and the Partisan MOL, and the prototypes they use.
``tests/bridge/test_live_vassal.py`` checks them against VASL's own buildFile
when ``../shared/vasl`` is there, so they cannot drift from VASL's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from asl_vassal_bridge.vasl.traits import Trait, encode_sequence, encode_traits

__all__ = ["PROTOTYPES", "SLOTS", "Slot", "phase_track_at", "piece_text", "prototype_xml", "slot_xml"]

#: VASSAL's Label trait as VASL's fire counters carry it (the Label command on Alt+L).
_FIRE_LABEL = "label;76,130;Label;10;255,255,255;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;"
#: The weather counters' label (no command; text turned 270°).
_WEATHER_LABEL = "label;;;12;255,255,255;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;270;TextLabel;"
_AOE = "AreaOfEffect;;30;{};true;;;Night;true;;"


def _hidden(kind: str) -> str:
    """The hidden ``?`` palette window's slot of a kind, as VASL's Place Marker and Replace traits name it."""
    return f"VASSAL.build.module.PieceWindow:?/VASSAL.build.widget.PieceSlot:{kind}"


def _placemark(kind: str, gpid: str, placement: int) -> str:
    return f"placemark;{kind};80,130;{_hidden(kind)};null;0;0;false;;;{gpid};{placement};false"


def _replace(kind: str, gpid: str) -> str:
    return f"replace;{kind};70,130;{_hidden(kind)};null;0;0;false;;;{gpid};0;false"


def _layers(images: Sequence[str], names: Sequence[str], *, activate: str = "", act_key: str = "", up: str = "",
            up_key: str = "", down: str = "", down_key: str = "", loop: bool = True, name: str = "",
            tail: str = "1;1;true;;70,130;") -> str:
    """VASSAL's Layer trait (``emb2``): images and level names, with its menu commands and keys."""
    return ";".join(["emb2", activate, "2", act_key, up, "2", up_key, down, "2", down_key, "", "", "0", "false",
                     "0", "0", ",".join(images), ",".join(names), "true" if loop else "false", name, "", "",
                     "false", "", tail])


def _basic(image: str, name: str, gpid: str, *, state: str = "null;0;0;") -> Trait:
    return Trait(f"piece;K;D;{image};{name}", f"{state}{gpid}")


def _proto(name: str) -> Trait:
    return Trait(f"prototype;{name}", "")


@dataclass(frozen=True)
class Slot:
    """A palette slot: its entry name, gpid, size and trait chain (outermost first)."""

    name: str
    gpid: str
    width: int
    height: int
    traits: tuple[Trait, ...]


def _flame(gpid: str, pin: str, blaze: str) -> Slot:
    return Slot("Flame", gpid, 48, 48, (
        _proto("DBGlobal"), Trait(_placemark("Pin", pin, 2), ""), Trait(_FIRE_LABEL, ""),
        Trait(_replace("Blaze", blaze), ""), Trait(_AOE.format(0), ""), Trait("mark;Location", ""),
        _basic("MS/Flame", "Flame", gpid)))


def _blaze(gpid: str, flame: str, *, label_first: bool) -> Slot:
    label, repl = Trait(_FIRE_LABEL, ""), Trait(_replace("Flame", flame), "")
    return Slot("Blaze", gpid, 48, 48, (
        _proto("DBGlobal"), *((label, repl) if label_first else (repl, label)), Trait(_AOE.format(2), ""),
        Trait("mark;Hindrance", "true"), Trait("mark;Location", ""), _basic("MS/Blaze", "Blaze", gpid)))


def _pin(gpid: str, *, hidden: bool) -> Slot:
    flip = _layers(["MS/pin", "MS/pinb"], ["", ""], up="Flip", up_key="F")
    if not hidden:  # the palette's Pin: no activate/decrease modifiers (VASL writes 0 there)
        flip = flip.replace("emb2;;2;;Flip;2;F;;2;", "emb2;;0;;Flip;2;F;;0;")
    protos = (_proto("DBCommon"), _proto("DBCommon")) if hidden else (_proto("DBCommon"),)
    return Slot("Pin", gpid, 68, 48, (*protos, Trait("moved;moved", "false"), Trait(_FIRE_LABEL, ""),
                                      Trait(flip, "1"), _basic(" ", "Pin", gpid)))


def _weather(name: str, gpid: str, label: str, layer: Trait, *, report: str | None, extra: Sequence[Trait] = (),
             hindrance: bool = False, image: str = "ML/_white58", text_label: str = _WEATHER_LABEL) -> Slot:
    traits: list[Trait] = [Trait(text_label, label), _proto("DBGlobal")]
    if report is not None:
        traits.append(Trait(f"report;{report};$location$: $newPieceName$ *;;;", "-1"))
    traits += list(extra)
    traits.append(Trait("mark;Hindrance", "true") if hindrance else Trait("mark;Location", ""))
    traits.append(layer)
    return Slot(name, gpid, 60, 60, (*traits, _basic(image, name, gpid)))


_EC_LEVELS = ("-3 Snow", "-3 Mud", "-2 Wet", "-1 Moist", "0 Moderate", "\\+1 Dry", "\\+2 Very Dry")
_EC = _weather("EC", "284", "EC", Trait(_layers(
    [f"ML/EC{s}" for s in ("sno", "mud", "wet", "moi", "mod", "dry", "vdr")], [f"+: {x}" for x in _EC_LEVELS],
    up="Incr", up_key="]", down="Decr", down_key="[", tail="1;1;true;;93,130;91,130"), "5"),
    report=None, hindrance=True, image=" ")
_WIND_DIR = _weather("Wind Dir", "285", "Wind Dir", Trait(_layers(
    [f"ML/Wind{i}" for i in (3, 4, 5, 6, 1, 2)], [""] * 6, up="cw", up_key="X", down="ccw", down_key="Z",
    tail="1;1;true;;88,130;90,130"), "1"),
    report="90\\,130,88\\,130", extra=(_proto("repCA"),))
_WIND = _weather("Wind", "287", "W. Force", Trait(_layers(
    ["ML/WindNo", "ML/WindMB", "ML/WindHW"], ["No Wind", "Mild Breeze", "Heavy Winds"], up="Flip", up_key="F"), "1"),
    report="70\\,130", image=" ", text_label=_WEATHER_LABEL.replace("label;;;", "label;;Change Label;"))
_GUSTS = _weather("Gusts", "286", "Gusts", Trait(_layers(
    ["ML/Gust", "ML/GustB"], ["", "No Gusts"], up="Flip", up_key="F"), "2"), report="70\\,130")


def _wind_dir_fix(slot: Slot) -> Slot:
    """Wind Dir: its Location mark and the 'blown' (WindB) layer sit between repCA and the direction layer."""
    t = list(slot.traits)
    blown = Trait(_layers(["ML/WindB"], [""], activate="Flip", act_key="F", loop=True,
                          tail="1;1;false;70,130;;"), "-1")
    i = next(k for k, x in enumerate(t) if x.type.startswith("emb2"))
    t.insert(i, blown)
    return Slot(slot.name, slot.gpid, slot.width, slot.height, tuple(t))


def _squad() -> Slot:
    """VASL's German 4-6-8 Esq slot (the A22 attack and A15 Heat of Battle tests show its 4-6-7 1sq layer)."""
    fmt = ";".join
    return Slot("4-6-8 Esq", "11467", 68, 48, (
        _proto("DBUnit"), _proto("geINF"),
        Trait("PROP;iCVP;true,0,100,false;Reset CVP:86\\,195:R\\,Change value of CVP,:72\\,585:P\\,"
              "{If(iCVP==2\\\\,iCVP-1\\\\,iCVP+1)}", "2"),
        Trait(fmt(["emb2", "", "2", "FV", "", "2", "E", "", "2", "Q", "", "", "0", "false", "0", "0",
                   "ge/geh7b,ge/geh6b,ge/geh6b,ge/geh4b", ",".join(["broken +"] * 4), "false", "", "", "", "false",
                   "", "1"]), "-2;"),
        Trait(fmt(["emb2", "SQ/HS", "2", "V", "", "2", "E", "", "2", "Q", "", "", "0", "false", "0", "0",
                   "ge/ge248H,ge/ge247H,ge/ge237H,ge/ge236H", "2-4-8 Ehs,2-4-7 1hs,2-3-7 2hs,2-3-6 Chs", "false",
                   "", "", "", "false", "", "1;1;false;86,130;69,130;81,130"]), "-2"),
        Trait(fmt(["emb2", "", "2", "F", "", "2", "E", "", "2", "Q", "", "", "0", "false", "0", "0",
                   "ge/ges8b,ge/ges7b,ge/ges7b,ge/ges5b", ",".join(["broken +"] * 4), "false", "BRK", "", "",
                   "false", "", "1;1;false;70,130;69,130;81,130"]), "-2"),
        Trait(fmt(["emb2", "", "2", "", "ELR", "2", "E", "BH", "2", "Q", "", "", "0", "false", "0", "0",
                   "ge/ge468S,ge/ge467S,ge/ge447S,ge/ge436S", "4-6-8 Esq,4-6-7 1sq,4-4-7 2sq,4-3-6 Csq", "false",
                   "", "", "", "false", "", "1;1;true;;69,130;81,130"]), "2"),
        _basic(" ", "4-6-8 Esq", "11467")))


def _sw(name: str, gpid: str, nation: str, layer: str, state: str, image: str = " ") -> Slot:
    return Slot(name, gpid, 68, 48, (_proto("DBCommon"), _proto(f"{nation}12"), Trait(layer, state),
                                     _basic(image, name, gpid)))


_FT = _sw("FT", "2473", "ge", _layers(["ge/geFT", "ge/geFTb"], ["", ""], up="Flip", up_key="F"), "1")
_MOL = _sw("MOL-P", "490", "ru", _layers(["ru/ruMOLb"], ["malf +"], activate="malf", act_key="F", name="BRK",
                                         tail="1;1;false;70,130;;"), "-1", image="ru/ruMOL")

def _phase_track_replace(command: str, key: str, target: str, gpid: str) -> Trait:
    path = ("VASSAL.build.module.PieceWindow:VASL Counters/VASSAL.build.widget.TabWidget/VASSAL.build.widget."
            "TabWidget:Other/VASSAL.build.widget.ListWidget:Map/VASSAL.build.widget.PanelWidget:Phase Track/"
            f"VASSAL.build.widget.PieceSlot:Phase Track {target}")
    return Trait(f"replace;{command};{key};{path};null;0;0;false;;;{gpid};0;false", "")


def _phase_track_layer(images: Sequence[str], names: Sequence[str], up_mods: str, name: str, key: str) -> Trait:
    return Trait(";".join(["emb2", "", "2", "", "", up_mods, "F", "", "2", "", "", "", "0", "false", "0", "0",
                           ",".join(images), ",".join(names), "true", name, "", "", "false", "", "1", "1", "true",
                           "", key, ""]), "1")


#: VASL's Phase Track (Allied moves first): layers Player (whose Player Turn), PhaseName (RPh…CCPh), TurnName
#: (Turn 1…10), the CurrentPhase rotation, and the NextPlayer/NextTurn macros turning the Player Turn and Turn.
_PHASE_TRACK = Slot("Phase Track Allied 1st", "297", 120, 120, (
    _phase_track_replace("Axis 1st", "65,130", "Axis 1st", "298"),
    _phase_track_replace("Reset", "82,130", "Allied 1st", "299"),
    Trait("report;82\\,130;Reset: Allied 1st *;;;", "-1"),
    Trait("report;65\\,130;Reset: Axis 1st *;;;", "-1"),
    Trait("report;70\\,130;New: $newPieceName$ *;;;", "-1"),
    Trait("hideCmd;NoChange;Disable;CurrentPhase_Facing != 1;70\\,195,70\\,650", ""),
    Trait("macro;NextTurn;;;CurrentPhase_Facing = 1 && Player_Level = 1;70\\,130;70\\,195;false;;;counted;;;;false;;"
          "1;1", ""),
    Trait("macro;NextPlayer;;;CurrentPhase_Facing = 1;70\\,130;70\\,650;false;;;counted;;;;false;;1;1", ""),
    Trait("report;55\\,130;Current: $newPieceName$ *;;;", "-1"),
    _phase_track_layer(["tables/turn_phase_allied", "tables/turn_phase_axis"], ["Allied +", "Axis +"], "10",
                       "Player", "70,650"),
    _phase_track_layer([" "] * 8, [f"+- {p}" for p in ("RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")],
                       "2", "PhaseName", "70,130"),
    _phase_track_layer([" "] * 10, [f"Turn {n} " for n in range(1, 11)], "3", "TurnName", "70,195"),
    Trait("mark;Hindrance", "true"),
    Trait("mark;Location", ""),
    Trait("rotate;8;;70,130;;Next Phase;;;CurrentPhase", "0"),
    Trait("emb2;Report Phase;2;7;;2;;;2;;;;0;false;0;0; ;;false;Report;;;false;;1;1;false;55,130;;", "1"),
    Trait("submenu;Replace;Reset,Axis 1st", ""),
    Trait("piece;;D;tables/turn_phase;Phase Track Allied 1st", "null;0;0;297")))


def phase_track_at(*, turn: int, half: int, phase: int) -> tuple[str, str]:
    """The Phase Track's (type, state) showing Game Turn *turn*, Player Turn *half* (1 Allied, 2 Axis) and phase
    number *phase* (1 RPh … 8 CCPh), its map position left as ``@XY@`` (for ``GamePiece(type=, state=)``)."""
    levels = {"Player": half, "PhaseName": phase, "TurnName": turn}
    traits = []
    for t in _PHASE_TRACK.traits:
        fields = t.fields
        if t.id == "emb2" and fields[19] in levels:
            t = Trait(t.type, str(levels[fields[19]]))
        elif t.id == "rotate":
            t = Trait(t.type, str(phase - 1))
        elif t.id == "piece":
            t = Trait(t.type, "@XY@;297")
        traits.append(t)
    return encode_traits(traits)


_SMOKE_LABEL = Trait("label;76,130;Label;10;255,255,255;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;"
                     "TextLabel;", "")


def _smoke(gpid: str, grey_wp: str, grey: str, wp: str, smoke: str) -> Slot:
    """VASL's SMOKE counter (A24): a layer per face, outermost first — grey WP, grey SMOKE, white WP (+2/+1),
    white SMOKE (+3/+2); the first one switched on shows. The states: each layer's value (VASSAL's Layer)."""
    return Slot("Smoke", gpid, 60, 60, (
        _proto("DBGlobal"), Trait("rotate;4;82,130;;Rotate;;;;", "0"), _SMOKE_LABEL,
        Trait("emb2;;2;WG;;2;;;2;;;;0;false;0;0;ML/WP1gr;Gray \\+1 WP;true;;;;false;;1", grey_wp),
        Trait("emb2;Gray;2;G;;2;;;2;;;;0;false;0;0;ML/Smk2gr;Gray \\+2 Smoke;true;;;;false;;1;1;false;71,130;;", grey),
        Trait("emb2;WP;2;W;Strength;2;N;;2;;;;0;false;0;0;ML/WP2,ML/WP1;White \\+2 WP,White \\+1 WP;true;;;;false;;1;"
              "1;false;87,130;78,130;", wp),
        Trait("emb2;;2;;Strength;2;N;;2;;;;0;false;0;0;ML/Smk3,ML/Smk2;White \\+3 Smoke,White \\+2 Smoke ;true;;;;"
              "false;;1;1;true;;78,130;", smoke),
        Trait("mark;Hindrance", "true"), Trait("mark;Location", ""), _basic(" ", "Smoke", gpid)))


#: The smoke grenade counter (A24): SMOKE +2 or WP +1, with no Dispersed face.
_SMOKE_GRENADE = Slot("Smoke", "67", 48, 48, (
    _proto("DBGlobal"), _SMOKE_LABEL,
    Trait("emb2;;2;;WP;2;W;;2;;;;0;false;0;0;MS/Smk12,MS/WP12;Smoke grenade \\+2,WP grenade \\+1;true;;;;false;;1;1;"
          "true;;87,130;", "1"),
    Trait("mark;Hindrance", "true"), Trait("mark;Location", ""), _basic(" ", "Smoke", "67")))


#: Every slot the test module carries, by (entry name, gpid); "?" window ones are the hidden twins.
SLOTS: dict[tuple[str, str], Slot] = {(s.name, s.gpid): s for s in (
    _flame("192", "193", "194"), _blaze("195", "196", label_first=True), _EC, _wind_dir_fix(_WIND_DIR), _GUSTS,
    _WIND, _pin("1", hidden=False), _squad(), _FT, _MOL, _PHASE_TRACK,
    _pin("5704", hidden=True), _flame("5710", "7415", "7416"), _blaze("5713", "5714", label_first=False),
    _smoke("205", "-1;", "-1", "-1", "1"), _smoke("209", "-1;G", "1", "-1", "1"), _SMOKE_GRENADE)}

#: The prototypes those slots use (only the ones that are not empty for the bridge), by name.
PROTOTYPES: dict[str, tuple[Trait, ...]] = {
    "DBOwner": (Trait("PROP;Owner;false,0,100,false;:77\\,650:P\\,$PlayerName$", "David Sullivan"),
                Trait("piece;;;;", "null;258;0;")),
    "DBUnit": (_proto("DBOwner"), Trait("mark;DBCounterType", "unit"), Trait("piece;;;;", "null;270;0;")),
    "DBCommon": (_proto("DBOwner"), Trait("mark;DBCounterType", "common"), Trait("piece;;;;", "null;275;0;")),
    "DBGlobal": (_proto("DBOwner"), Trait("mark;DBCounterType", "global"), Trait("piece;;;;", "null;0;0;")),
    "repCA": (Trait("emb2;;2;;;2;X;;2;Z;;;0;true;0;0; , , , , , ;+ ca3,+ ca4,+ ca5,+ ca6,+ ca1,+ ca2;true;;;", "1;"),
              Trait("piece;;;;", "null;0;0")),
}


def piece_text(traits: Sequence[Trait]) -> str:
    """A slot's or prototype's text as the buildFile holds it: ``+/null/<type>/<state>``."""
    t, s = encode_traits(traits)
    return encode_sequence(["+", "null", t, s], "/")


def slot_xml(slot: Slot) -> str:
    return (f"<VASSAL.build.widget.PieceSlot entryName={quoteattr(slot.name)} gpid={quoteattr(slot.gpid)} "
            f'height="{slot.height}" width="{slot.width}">{escape(piece_text(slot.traits))}'
            "</VASSAL.build.widget.PieceSlot>")


def prototype_xml(name: str) -> str:
    return (f"<VASSAL.build.module.PrototypeDefinition name={quoteattr(name)}>{escape(piece_text(PROTOTYPES[name]))}"
            "</VASSAL.build.module.PrototypeDefinition>")
