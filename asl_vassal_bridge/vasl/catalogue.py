"""The unit catalogue (MMC types, classes, leader ladders) derived from a VASL module's counter palette.

VASL's infantry counters are multi-layer pieces.  Their "ELR/BH" layer lists
the unit types a counter can become through ELR Replacement (A19.13) and
Battle Hardening (A15.3), best first, each named with its class letter
(``4-6-8 Esq``, ``4-6-7 1sq``, ``4-4-7 2sq``, ``3-3-6 Gsq``, ``4-3-6 Csq``);
the "SQ/HS" layer names the Half-Squads the same way.  Leader counters carry
their whole ladder (``10-3,10-2,…,6+1``).  :func:`extract` reads those names
(not the images) and returns JSON-ready data with every decision it made:

* a class comes from the letter in the name (E, 1, 2, G, C; ``AE`` Assault
  Engineers are elite); a name without one takes the class of the same
  designation and size elsewhere in the nationality (``4-4-7 SSsq`` → 2nd
  Line); the few still unknown come from :data:`CORRECTIONS` (with their
  source) or stay ``null``;
* a piece whose layers name a different unit than the piece itself (copy
  errors in the palette) is skipped and listed under ``skipped``;
* Korean War panels are tagged ``korea`` so the two eras do not mix;
* every unit counter's gpid with its nationality and palette group (``SQ``,
  ``HS``, ``SMC``, ``Veh``, ``Gun``) goes under ``counters``, so a live
  piece is known as a vehicle or a squad by its gpid.

The same code makes the bundled ``data/units/vasl-6.5.json``
(``scripts/gen_unit_catalogue.py``) and, in the live bridge, the catalogue of
the module the game runs (:func:`catalogue_from_module`, from the lxml
reader :mod:`.module`).  Pure: no I/O here.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .module import ModuleIndex

__all__ = ["CLASS_LETTERS", "CORRECTIONS", "TABS", "UNIT_GROUPS", "catalogue_from_module", "extract", "layers",
           "parse_mmc"]

#: VASL's tabs under "VASL Counters / <side> O/B" → catalogue nationality key.
TABS: dict[str, str] = {
    "American": "american",
    "British": "british",
    "French": "french",
    "Chinese": "chinese",
    "Allied Minor": "allied_minor",
    "Russian": "russian",
    "South Korean": "south_korean",
    "Other UNC (Korea)": "un_korea",
    "German": "german",
    "Waffen SS": "german",
    "Japanese": "japanese",
    "Italian": "italian",
    "Finnish": "finnish",
    "Axis Minor": "axis_minor",
    "Hungarian": "axis_minor",
    "Communist Chinese (Korea)": "chinese_communist",
    "North Korean": "north_korean",
}

#: Panels (sub-tabs) whose counters belong to another nationality.
PANEL_NATIONALITY: dict[tuple[str, str], str] = {
    ("Russian", "Partisan"): "partisan",
}

#: Tags read from panel names.
PANEL_TAGS: dict[str, str] = {
    "Korea": "korea",
    "SS": "SS",
    "FJ": "FJ",
    "Lehr": "Lehr",
    "USMC": "USMC",
    "USMC (Fn16)": "USMC",
    "KMC": "KMC",
    "ROKA": "korea",
    "Com. Guerillas": "guerilla",
    "Abn": "airborne",
    "Airborne": "airborne",
    "Ranger": "ranger",
    "Para": "airborne",
    "OBLI": "OBLI",
}

#: Tab-wide tags.
TAB_TAGS: dict[str, tuple[str, ...]] = {
    "South Korean": ("korea",),
    "Other UNC (Korea)": ("korea",),
    "Communist Chinese (Korea)": ("korea",),
    "North Korean": ("korea",),
    "Waffen SS": ("SS",),
    "Hungarian": ("Hungarian",),
}

CLASS_LETTERS: dict[str, str] = {"E": "elite", "1": "1st line", "2": "2nd line", "G": "green", "C": "conscript"}

#: Unit-type markers in names (after the class letter is taken out).
NAME_TAGS: dict[str, str] = {
    "AE": "assault engineer",
    "SS": "SS",
    "P": "partisan",
    "N": "NKVD",
    "M": "USMC",
    "MR": "USMC raider",
    "PM": "USMC para-marine",
    "MAE": "USMC assault engineer",
    "FJ": "FJ",
    "AB": "airborne",
    "R": "ranger",
    "KL": "KL",
    "RMC": "RMC",
    "KMC(a)": "KMC",
    "KMC(j)": "KMC",
    "SSAE": "SS assault engineer",
    "AE SS": "SS assault engineer",
}

#: Crew markers (A21.2): I = Infantry crew, V = vehicle crew.
CREW_TAGS: dict[str, str] = {"I": "infantry crew", "V": "vehicle crew", "M": "USMC crew", "FJ": "FJ crew",
                             "KMC": "KMC crew"}

#: Tags that name a formation, not a different unit type: a name with only these
#: may take its class from the same designation elsewhere in the nationality.
FORMATION_TAGS = frozenset({"SS", "Lehr", "OBLI", "airborne", "FJ", "korea", "Hungarian"})

#: Classes the palette's names do not give, with their source.
CORRECTIONS: list[dict[str, str]] = [
    {
        "nationality": "german",
        "designation": "6-5-8",
        "size": "squad",
        "class": "elite",
        "source": "A15.3 example: a 3-4-8 SS HS is of the next higher class than a German 2-4-7 (1st Line) HS",
    },
    {
        "nationality": "german",
        "designation": "3-4-8",
        "size": "half-squad",
        "class": "elite",
        "source": "A15.3 example: a 3-4-8 SS HS is of the next higher class than a German 2-4-7 (1st Line) HS",
    },
]

DESIGNATION = re.compile(r"^(\d+)-(\(?\d+\)?)-(\d+)$")
MMC_NAME = re.compile(r"^(?P<d>\d+-\(?\d+\)?-\d+)\s*(?P<mid>.*?)\s*(?P<size>sq|hs|Sq|HS|cr)(?:\s*\(Fn16\))?$")
LEADER = re.compile(r"^(\d+)([-+])(\d)$")
LEADER_IMAGE = re.compile(r"L(\d+)(p|\+|-)?(\d)(?:\.\w+)?$")
SIZES = {"sq": "squad", "Sq": "squad", "hs": "half-squad", "HS": "half-squad", "cr": "crew"}


def layers(piece_text: str) -> Iterator[tuple[str, str, str, list[str], list[str]]]:
    """Each Layer (``emb2``) trait of a piece's type: (activate, up, down commands, image names, level names).

    >>> [x[4] for x in layers("emb2;;2;;ELR;2;E;BH;2;Q;;;0;false;0;0;ge/ge468S,ge/ge467S;4-6-8 Esq,4-6-7 1sq;false")]
    [['4-6-8 Esq', '4-6-7 1sq']]
    """
    for seg in piece_text.split("\t"):
        seg = seg.replace("\\", "")
        if not seg.startswith("emb2;"):
            continue
        f = seg.split(";")
        if len(f) < 18:
            continue
        images = f[16].split(",") if f[16] else []
        names = f[17].split(",")
        yield f[1], f[4], f[7], images, names


def leader_name(name: str, image: str) -> str | None:
    """A leader rating from a level name, or from the image name where VASL left the name blank."""
    name = name.strip()
    if LEADER.match(name):
        return name
    if not name:
        m = LEADER_IMAGE.search(image)
        if m and m.group(2) in ("+", "p"):
            return f"{m.group(1)}+{m.group(3)}"
    return None


def parse_mmc(name: str) -> tuple[str, str, str | None, list[str]] | None:
    """``'4-6-8 Esq'`` → (designation, size, class or None, tags)."""
    m = MMC_NAME.match(name.strip())
    if not m:
        return None
    d, mid, size = m.group("d"), m.group("mid").strip(), SIZES[m.group("size")]
    if d == "0-0-0":
        return None
    words = [w for w in mid.split() if w]
    cls: str | None = None
    tags: list[str] = []
    rest: list[str] = []
    for w in words:
        if w in ("OBLI", "Para", "Lehr"):
            tags.append({"Para": "airborne"}.get(w, w))
        elif w in CLASS_LETTERS:
            cls = CLASS_LETTERS[w]
        else:
            rest.append(w)
    marker = " ".join(rest)
    if size == "crew":
        tags.append(CREW_TAGS.get(marker, marker) if marker else "crew")
        return d, size, None, sorted(set(tags))
    if marker and marker[-1] in CLASS_LETTERS and marker not in NAME_TAGS:
        cls = cls or CLASS_LETTERS[marker[-1]]
        marker = marker[:-1]
    if marker in ("AE", "MAE", "SSAE", "AE SS"):
        cls = "elite"
    if marker:
        tags.append(NAME_TAGS.get(marker, marker))
    return d, size, cls, tags


def _nationality(tab: str, panels: list[str]) -> str:
    for p in panels:
        if (tab, p) in PANEL_NATIONALITY:
            return PANEL_NATIONALITY[(tab, p)]
    return TABS[tab]


def _leader_sort_key(rating: str) -> tuple[int, int]:
    m = LEADER.match(rating)
    assert m
    modifier = int(m.group(3)) * (1 if m.group(2) == "+" else -1)
    return int(m.group(1)), -modifier


def extract(slots: Iterable[tuple[Sequence[str], str, str]]) -> dict[str, Any]:
    """The catalogue as a JSON-ready dict, from each PieceSlot's (palette path, entry name, piece type).

    The palette path is the names of the widgets above the slot, outermost
    first (``("VASL Counters", "Axis O/B", "German", "SQ", …)``); the piece
    type is the slot's trait chain (tab-separated traits).
    """
    mmc: dict[str, dict[tuple[str, str, str, str], dict[str, Any]]] = defaultdict(dict)
    leaders: dict[str, dict[str, list[str]]] = defaultdict(dict)
    commissars: dict[str, dict[str, list[str]]] = defaultdict(dict)
    skipped: list[dict[str, str]] = []
    warnings: list[str] = []

    def add(nat: str, name: str, tags: Iterable[str], where: str) -> None:
        parsed = parse_mmc(name)
        if parsed is None:
            return
        d, size, cls, name_tags = parsed
        if nat == "russian" and "partisan" in name_tags:
            nat = "partisan"  # Russian Partisans (A25.24) sit in VASL's Russian tab
        all_tags = sorted(set(tags) | set(name_tags))
        key = (d, size, ",".join(all_tags), cls or "")
        entry = mmc[nat].setdefault(
            key, {"designation": d, "size": size, "class": cls, "class_source": None, "tags": all_tags,
                  "vasl_names": []})
        if cls:
            entry["class_source"] = "VASL name"
        if name.strip() not in entry["vasl_names"]:
            entry["vasl_names"].append(name.strip())

    for slot_path, entry, text in slots:
        path = list(slot_path)
        if len(path) < 4 or path[0] != "VASL Counters" or path[2] not in TABS:
            continue
        tab, group, panels = path[2], path[3], path[4:]
        if group not in ("SQ", "HS", "SMC"):
            continue
        nat = _nationality(tab, panels)
        tags = set(TAB_TAGS.get(tab, ()))
        tags |= {PANEL_TAGS[p] for p in panels if p in PANEL_TAGS}
        where = "/".join(path[2:]) + f"/{entry}"
        all_layers = list(layers(text))
        if group == "SMC":
            for _act, up, _down, images, level_names in all_layers:
                if up != "ELR":
                    continue
                rungs = [leader_name(n, images[i] if i < len(images) else "") for i, n in enumerate(level_names)]
                ratings = [r for r in rungs if r]
                if not ratings:
                    continue
                target = commissars if "COM" in entry else leaders
                target[nat][where] = ratings
            continue
        names: list[str] = []
        for _act, up, _down, _images, lnames in all_layers:
            if up == "ELR" or "SQ/HS" in (_act, up):
                names += [n for n in lnames if parse_mmc(n)]
        top = parse_mmc(entry)
        if not names:
            if top:
                add(nat, entry, tags, where)
            continue
        layer_squads = [p[0] for p in map(parse_mmc, names) if p and p[1] == "squad"]
        if top and top[1] == "squad":
            if layer_squads and top[0] not in layer_squads:
                skipped.append({"piece": where, "reason": f"its layers name {', '.join(names)}, not {entry}"})
                continue
            if not layer_squads:
                add(nat, entry, tags, where)
        for n in names:
            add(nat, n, tags, where)

    # Classes missing from a name: the same designation and size elsewhere in the nationality.
    for entries in mmc.values():
        for e in entries.values():
            if e["class"] is not None or e["size"] == "crew" or not set(e["tags"]) <= FORMATION_TAGS:
                continue
            if any(o["class"] for o in entries.values() if o["designation"] == e["designation"]
                   and o["size"] == e["size"] and o["tags"] == e["tags"]):
                continue  # the same type is also named with its class
            same = {o["class"] for o in entries.values()
                    if o is not e and o["class"] and o["designation"] == e["designation"] and o["size"] == e["size"]
                    and ("korea" in o["tags"]) == ("korea" in e["tags"])}
            if len(same) == 1:
                e["class"] = same.pop()
                e["class_source"] = "same designation in another VASL counter of this nationality"
    for c in CORRECTIONS:
        for e in mmc[c["nationality"]].values():
            if e["designation"] == c["designation"] and e["size"] == c["size"] and e["class"] is None:
                e["class"] = c["class"]
                e["class_source"] = c["source"]

    for nat, entries in mmc.items():
        for key in [k for k, e in entries.items() if e["class"] is None and any(
                o["class"] for o in entries.values() if o["designation"] == e["designation"]
                and o["size"] == e["size"] and o["tags"] == e["tags"])]:
            del entries[key]  # named once without and once with its class letter
        seen: dict[tuple[str, str, str], str] = {}
        for e in entries.values():
            k = (e["designation"], e["size"], ",".join(e["tags"]))
            if e["class"] and k in seen and seen[k] != e["class"]:
                warnings.append(f"{nat} {e['designation']} {e['size']} {e['tags']}: VASL names give both "
                                f"{seen[k]} and {e['class']}")
            if e["class"]:
                seen[k] = e["class"]

    out_nat: dict[str, Any] = {}
    for nat in sorted(set(mmc) | set(leaders) | set(commissars)):
        def ladder(found: dict[str, list[str]], what: str, nat: str = nat) -> list[str]:
            ratings: set[str] = set()
            for where, lad in found.items():
                ordered = sorted(lad, key=_leader_sort_key, reverse=True)
                if ordered != lad:
                    warnings.append(f"{nat} {what} ladder in {where} is not best-first: {lad}")
                ratings |= set(lad)
            return sorted(ratings, key=_leader_sort_key)
        out_nat[nat] = {
            "mmc": sorted(mmc[nat].values(), key=lambda e: (e["size"], e["designation"], e["tags"], e["class"] or "")),
            "leaders": ladder(leaders[nat], "leader"),
            "commissars": ladder(commissars[nat], "commissar"),
        }
    return {"nationalities": out_nat, "skipped": skipped, "warnings": warnings, "corrections": CORRECTIONS}


#: Palette groups of a nationality's tab that hold units (not support weapons, markers or concealment).
UNIT_GROUPS = ("SQ", "HS", "SMC", "Veh", "Gun")


def unit_counters(slots: Iterable[tuple[Sequence[str], str]]) -> dict[str, dict[str, list[str]]]:
    """The gpids of every unit counter of the nationalities' tabs: nationality key → palette group → gpids.

    *slots* are (palette path, gpid).

    >>> unit_counters([(("VASL Counters", "Axis O/B", "German", "Veh", "PzKpfw"), "3b5:12")])
    {'german': {'Veh': ['3b5:12']}}
    """
    out: dict[str, dict[str, list[str]]] = {}
    seen: set[str] = set()
    for path, gpid in slots:
        if len(path) < 4 or path[0] != "VASL Counters" or path[2] not in TABS or path[3] not in UNIT_GROUPS:
            continue
        if gpid and gpid not in seen:
            seen.add(gpid)
            out.setdefault(_nationality(path[2], list(path[4:])), {}).setdefault(path[3], []).append(gpid)
    return {nat: {g: sorted(ids) for g, ids in sorted(groups.items())} for nat, groups in sorted(out.items())}


def catalogue_from_module(index: ModuleIndex) -> dict[str, Any]:
    """The catalogue data (the shape of ``data/units/vasl-6.5.json``) of a module read by :mod:`.module`.

    Its ``nationalities`` are empty when the module has no VASL counter palette.
    """
    data = extract((s.path, s.name, s.type) for s in index.slots)
    data["counters"] = unit_counters((s.path, s.gpid) for s in index.slots)
    label = " ".join(x for x in (index.name, index.version) if x)
    data["source"] = {"what": "the counter palette of the module the game runs", "module": label or "?",
                      "file": index.source, "generator": "asl_vassal_bridge.vasl.catalogue"}
    return data
