"""The VASL counters the unit and level tests add to the test module, written as VASL 6.5 defines them.

Built here trait by trait (as :mod:`tests.support.vasl_counters` builds the
fire counters), so the live suite needs nothing from ``../shared/vasl``:
VASL's Level markers (Info / Locate / Building: one slot per level, each
showing its level as placed), its 1- and 2-level Blaze, the CX marker, the
German PzKw IB tank and its Wreck. Traits VASSAL cannot build without VASL's
Java code (VASL's ``info``) and those the bridge never reads (the tank's
turret and Replace traits) are left out. ``test_unit_slots_match_vasl`` checks
every trait kept against VASL's own buildFile when ``../shared/vasl`` is there.

:func:`module_with_units` writes a copy of a test module with these slots and
a "VASL Counters" palette laid out as VASL's (Axis O/B / German / SQ and Veh),
so the bridge learns the module's own counters from it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from asl_vassal_bridge.vasl.traits import Trait, encode_sequence, encode_traits
from tests.support import vassal_harness as vh
from tests.support.vasl_counters import SLOTS, Slot, slot_xml

SQUAD, PZ_IB, PZ_IB_WRECK = "11467", "2524", "5207"

_LABEL = "label;76,130;Label;10;255,255,255;0,0,0;t;0;c;0;b;c;$pieceName$ ($label$);Dialog;0;0;TextLabel;"
_LEVELS = ("emb2;;2;;Higher;2;];Lower;2;[;;;0;false;0;0;ML/Lev-1,ML/Lev0,ML/Lev1,ML/Lev2,ML/Lev3,ML/LevRoof;"
           "+ Cellar,+ Ground Level,+ Level 1,+ Level 2,+ Level 3,+ Roof Level;true;;;;false;;1;1;true;;93,130;91,130")


def _level(gpid: str, layer: int) -> Slot:
    return Slot("Building", gpid, 48, 48, (
        Trait("prototype;DBCommon", ""), Trait("hide;72,130;HIP;;player:;0.30000001192092896", "null"),
        Trait(_LABEL, ""), Trait(_LEVELS, str(layer)), Trait("piece;K;D;ML/_white58;Building", f"null;0;0;{gpid}")))


def _level_blaze(n: int, gpid: str) -> Slot:
    return Slot(f"{n}-level Blaze", gpid, 48, 48, (
        Trait("prototype;DBGlobal", ""), Trait(f"AreaOfEffect;;30;{2 * n};true;Show Area;;Night;true;;", ""),
        Trait("mark;Hindrance", "true"), Trait("mark;Location", ""), Trait(_LABEL, ""),
        Trait(f"piece;K;D;ML/FlameBldg{n};{n}-level Blaze", f"null;0;0;{gpid}")))


#: The extra slots by (entry name, gpid).
EXTRA: dict[tuple[str, str], Slot] = {(s.name, s.gpid): s for s in (
    _level("171", 1), _level("173", 2), _level("167", 3), _level("169", 4), _level("163", 5), _level("165", 6),
    _level_blaze(1, "197"), _level_blaze(2, "198"),
    Slot("CX", "4", 48, 48, (Trait("prototype;DBCommon", ""), Trait(_LABEL, ""),
                             Trait("piece;K;D;MS/cx;CX", "null;0;0;4"))),
    Slot("PzKw IB", PZ_IB, 60, 60, (Trait("prototype;DBUnit", ""),
                                    Trait("PROP;tCVP;true,0,100,false;Reset CVP:86\\,195:R\\,Change value of CVP", "5"),
                                    Trait("piece;K;D;ge/veh/pzib;PzKw IB", f"null;0;0;{PZ_IB}"))),
    Slot("PzKw IB Wreck", PZ_IB_WRECK, 60, 60, (Trait("prototype;DBGlobal", ""),
                                                Trait("piece;K;D;ge/veh/pzibb.gif;PzKw IB Wreck",
                                                      f"null;0;0;{PZ_IB_WRECK}"))),
)}


def piece(pid: str, hex_name: str, gpid: str, board: str | None = None) -> vh.GamePiece:
    """A saved-game piece of one of :data:`EXTRA`'s slots (by its type and state, so the harness needs no entry)."""
    slot = next(s for s in EXTRA.values() if s.gpid == gpid)
    t, st = encode_traits(slot.traits)
    # each token as the saved game's "+/id/type/state" command encodes it ("/" escaped)
    t = encode_sequence(["+", "null", t, "x"], "/")[len("+/null/"):-len("/x")]
    st = encode_sequence(["+", "null", "x", st], "/")[len("+/null/x/"):]
    assert st.count(f"null;0;0;{gpid}") == 1
    return vh.GamePiece(pid, hex_name, type=t, state=st.replace(f"null;0;0;{gpid}", f"@XY@;{gpid}"), board=board)


def _palette() -> str:
    def tab(name: str, body: str) -> str:
        return f'<VASSAL.build.widget.TabWidget entryName="{name}">{body}</VASSAL.build.widget.TabWidget>'

    def panel(name: str, body: str) -> str:
        return (f'<VASSAL.build.widget.PanelWidget entryName="{name}" fixed="false" nColumns="4" vert="false">'
                f"{body}</VASSAL.build.widget.PanelWidget>")

    german = tab("German", panel("SQ", slot_xml(SLOTS[("4-6-8 Esq", SQUAD)]))
                 + panel("Veh", slot_xml(EXTRA[("PzKw IB", PZ_IB)])))
    extra = panel("Info", "".join(slot_xml(s) for s in EXTRA.values() if s.gpid != PZ_IB))
    return ('<VASSAL.build.module.PieceWindow hidden="false" hotkey="" icon="" name="VASL Counters" '
            f'text="VASL Counters" tooltip="">{tab("Axis O/B", german)}{extra}</VASSAL.build.module.PieceWindow>')


def module_with_units(src: Path, dest: Path) -> Path:
    """A copy of the test module *src* with :data:`EXTRA`'s slots and VASL's palette layout."""
    with zipfile.ZipFile(src) as z:
        names = {i.filename: z.read(i.filename) for i in z.infolist()}
    bf = names.pop("buildFile.xml").decode("utf-8")
    bf = bf.replace("</VASSAL.launch.BasicModule>", _palette() + "\n</VASSAL.launch.BasicModule>")
    for name, data in vh._placeholder_images(bf).items():
        names.setdefault(name, data)
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", bf)
        for name, data in names.items():
            z.writestr(name, data)
    return dest
