"""Entering buildings and opening them: Scaling into a Blaze (B23.424), Fortified Building entry (B23.922), the
Breach (B23.711, B23.9221) and an AFV entering a building (B23.41).

Units are moved by hand; these say whether a move is allowed and apply what changes the map (a Breach, rubble).

>>> from .position import GameMap, HexInfo
>>> from .terrain import Building, BuildingKind, Material, Terrain
>>> m = GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.WOODEN_BUILDING, building="r"),
...                         Hex.parse("A2"): HexInfo(Terrain.WOODEN_BUILDING, building="r")},
...                        [Building("r", Material.WOODEN, BuildingKind.TWO_STORY, rowhouse=True)])
>>> new, rep = dc_breach(Position(m), Location(Hex.parse("A1")), Hex.parse("A2"), dc_result="NMC",
...                      original=Roll(2, 3))
>>> new.map.is_breached(Location(Hex.parse("A2")), Hex.parse("A1")), rep.events[0].text
(True, 'the DC attack vs the A1–A2 hexside: NMC, NMC or better: Breach in A1 toward A2')
"""

from __future__ import annotations

import re

from .dice import Dice, Roll
from .errors import BadInput, IllegalAction
from .explain import DRM, Event, Report, format_drms
from .hexes import Hex
from .position import HexInfo, Location, Position, UnitKind
from .terrain import BuildingKind, Material, Terrain
from .values import replace

__all__ = ["AREA_FIRE_FP_CONCEALED", "AREA_FIRE_FP_UNCONCEALED", "afv_building_entry", "dc_breach",
           "fortified_entry", "nmc_or_better"]

#: The Area Fire a Breach's DC attack makes on the adjacent Rowhouse Location (B23.711).
AREA_FIRE_FP_UNCONCEALED = 12
AREA_FIRE_FP_CONCEALED = 6

_MC = re.compile(r"^(?:[1-9]?KIA|K/[1-9]|[1-9]MC|NMC)$")


def nmc_or_better(result: str) -> bool:
    """An IFT result of NMC or better: NMC, a MC, K/# or KIA (not PTC nor none).

    >>> [nmc_or_better(r) for r in ("PTC", "NMC", "1MC", "K/2", "2KIA", "-")]
    [False, True, True, True, True, False]
    """
    return bool(_MC.match(result.strip().upper()))


def fortified_entry(pos: Position, loc: Location, side: str, *, from_hex: Hex | None = None,
                    berserk: bool = False) -> tuple[bool, str]:
    """Whether Infantry of *side* may enter Fortified Building Location *loc* (B23.922, B23.9221).

    Refused while an unpinned Good Order enemy squad (or its equivalent: two HS/crews) is inside, unless the
    unit enters across a Breach of that hexside and level (*from_hex*, the hex it comes from).  A refused
    unit stays where it is and loses that MPh/APh.  A *berserk* unit stays adjacent attacking it in its
    AFPh/DFPh until the occupants no longer bar it (B23.922).
    """
    pos._check_location(loc)
    name = pos.loc_name(loc)
    if not pos.map.is_fortified(loc):
        return True, f"{name} is no Fortified Building Location: normal building entry (B23.92)"
    if side not in pos.sides:
        raise BadInput(f"side {side!r} is not one of the position's sides {list(pos.sides)}")
    defenders = [u for u in pos.units if u.location == loc and u.side != side and not u.broken and not u.is_pinned
                 and not u.in_melee]
    squads = sum(2 if u.kind is UnitKind.SQUAD else 1 for u in defenders
                 if u.kind in (UnitKind.SQUAD, UnitKind.HALF_SQUAD, UnitKind.CREW))
    if squads < 2:
        return True, f"no unpinned Good Order enemy squad (or two HS/crews) holds {name}: it may be entered (B23.922)"
    if from_hex is not None and pos.map.is_breached(loc, from_hex):
        return True, (f"a Breach opens the hexside from {pos.map.hex_name(from_hex)}: {name} is entered as any "
                      "building, its other Fortified Building benefits stand (B23.9221)")
    why = (f"{name} is a Fortified Building Location held by an unpinned Good Order enemy squad (or equivalent): "
           "Infantry may not enter it except through a Breach; the unit stays put and loses that MPh/APh (its MF "
           "count as spent in its own hex for fire on it) (B23.922)")
    if berserk:
        why += "; a berserk unit stays adjacent attacking it in its AFPh/DFPh until it may enter (B23.922)"
    return False, why


def dc_breach(pos: Position, loc: Location, toward: Hex, *, dc_result: str | None = None,
              original: Roll | None = None, concealed: bool = False, malfunction: bool = False,
              he_kia: bool = False) -> tuple[Position, Report]:
    """A Breach attempt on the hexside of *loc* toward *toward* (B23.711, B23.9221).

    A DC Placed in the MPh attacks the hexside alone in the AFPh with normal TEM (a Fortified Location's +1
    included, B23.921); an IFT result (*dc_result*) of NMC or better breaches it — unless the DC malfunctions
    (A23.4).  In a Rowhouse the same Original IFT DR (*original*) attacks the units in the adjacent Rowhouse
    Location as Area Fire, 12 FP (6 if they are concealed), with full TEM.  A Fortified Building hexside is
    also breached by an HE attack whose Final IFT DR gives a KIA with its LOF crossing it (*he_kia*,
    B23.9221).  The Breach counter goes in *loc* pointing at that hexside: the Locations at that level then
    see and enter each other as any building's.

    :raises IllegalAction: not a Rowhouse black bar nor a Fortified Building hexside, or a rooftop.
    """
    pos._check_location(loc)
    m = pos.map
    b = m.building(loc.hex)
    name, tname = pos.loc_name(loc), m.hex_name(toward) if toward in m.hexes else str(toward)
    if toward not in m.hexes or loc.hex.distance(toward) != 1:
        raise BadInput(f"the Breach's hexside: {tname} is not a hex adjacent to {name}")
    other = m.building(toward)
    # a black bar: between hexes of one Rowhouse building, or of two (a VASL board splits them at the bar)
    rowhouse = b is not None and b.rowhouse and other is not None and other.rowhouse
    fortified = m.is_fortified(loc)
    if b is None or loc.rooftop or not (rowhouse or fortified):
        raise IllegalAction(f"{name}: a Breach opens a Rowhouse's black bar (B23.711) or a Fortified Building "
                            "Location's hexside (B23.9221), below the rooftops")
    if rowhouse and not fortified and he_kia:
        raise IllegalAction("an HE KIA breaches only a Fortified Building hexside (B23.9221); a Rowhouse black bar "
                            "needs a DC (B23.711)")
    hexside = f"{m.hex_name(loc.hex)}–{tname}"
    events: list[Event] = []
    if he_kia:
        breached = True
        events.append(Event("B23.9221", f"an HE attack's KIA with its LOF across the {hexside} hexside: Breach in "
                            f"{name} toward {tname}", name, kind="breach"))
    else:
        if malfunction:
            events.append(Event("B23.711, A23.4", f"the DC malfunctions: no Breach of the {hexside} hexside and no "
                                "attack", name))
            return pos, Report(f"Breach attempt {name} → {tname} (B23.711)", tuple(events))
        if dc_result is None:
            raise BadInput("a DC Breach attempt needs the IFT result of the DC attack vs the hexside (e.g. NMC), "
                           "which our rule texts cannot look up (B23.711)")
        breached = nmc_or_better(dc_result)
        verdict = (f"NMC or better: Breach in {name} toward {tname}" if breached
                   else "less than a NMC: no Breach")
        events.append(Event("B23.711", f"the DC attack vs the {hexside} hexside: {dc_result.upper()}, {verdict}",
                            name, kind="breach" if breached else ""))
        if rowhouse:
            beyond = Location(toward, loc.level)
            if beyond not in m.locations(toward):
                events.append(Event("B23.711", f"{tname} has no level {loc.level}: no attack beyond the wall"))
            else:
                from .location_tem import location_tem

                tem = location_tem(pos, beyond, firer=loc)
                fp = AREA_FIRE_FP_CONCEALED if concealed else AREA_FIRE_FP_UNCONCEALED
                dr = f"the same Original IFT DR {original}" if original is not None else "the same Original IFT DR"
                total = sum(d.value for d in tem)
                final = f" → Final DR {original.total + total}" if original is not None else ""
                events.append(Event("B23.711", f"{dr} attacks the units in {pos.loc_name(beyond)} as Area Fire with "
                                    f"{fp} FP ({'concealed' if concealed else 'unconcealed'}), full TEM "
                                    f"{format_drms(tem)}{final}", pos.loc_name(beyond), kind="ift"))
    if not breached:
        return pos, Report(f"Breach attempt {name} → {tname} (B23.711)", tuple(events))
    key = (m.hex_name(loc.hex), loc.level, tname)
    nb = replace(b, breaches=b.breaches | {key})
    new = replace(pos, map=m.with_building(nb))
    events.append(Event("B23.711", f"{name} and {pos.loc_name(Location(toward, loc.level))} now see and enter each "
                        "other as any building Locations" + (" (its other Fortified Building benefits stand, B23.9221)"
                                                if fortified else ""), name))
    return new, Report(f"Breach {name} → {tname} (B23.711, B23.9221)", tuple(events))


def afv_building_entry(pos: Position, loc: Location, dice: Dice, *, fully_tracked: bool = True, ct: bool = True,
                       bu: bool = True, riders: bool = False, afv_id: str = "AFV",
                       through_black_bar_from: Hex | None = None) -> tuple[Position, Report]:
    """An AFV entering a building hex without VBM (B23.41): the Bog Check DR and its rubble/cellar results.

    B23.41 admits an AFV that is fully-tracked, CT and BU, carrying no Riders (not into a Marketplace, B23.73, nor
    by a Factory's vehicular entrance, B23.742, which are Open Ground costs).  It pays half its printed MP (plus
    a fourth for an OVR).  The Bog Check DR has +3 (+4 stone) — the Bog Check itself (D8) is not in our texts and is
    reported for the players.  Its colored dr ≤ 0 after −1 for a wooden building and −1 for a Single Story
    House rubbles the hex; an Original colored 6 drops the AFV into the cellar (none in a Factory,
    B23.742): it is removed, a surviving crew at ground level.  Driving through a Rowhouse black bar from
    *through_black_bar_from* without rubbling makes a Breach (B23.711).

    :raises IllegalAction: not a building hex, or an AFV the rule bars.
    """
    pos._check_location(loc)
    m = pos.map
    name = pos.loc_name(loc)
    b = m.building(loc.hex)
    if b is None or b.kind is BuildingKind.HUT or loc.level or loc.rooftop:
        raise IllegalAction(f"{name}: an AFV enters the ground level of a building hex (B23.4, B23.41)")
    if m.is_marketplace_ground(loc):
        raise IllegalAction(f"{name}: a Marketplace's ground level is open ground: no Bog Check for a building "
                            "(B23.73)")
    missing = [w for w, ok in (("fully-tracked", fully_tracked), ("CT", ct), ("BU", bu), ("without Riders",
                                                                                         not riders)) if not ok]
    if missing:
        raise IllegalAction(f"{name}: this AFV cannot drive into the building: it is not {', '.join(missing)} "
                            "(B23.41 asks a fully-tracked, CT, BU AFV with no Riders)")
    stone = b.material is Material.STONE
    roll = dice.DR(f"Bog Check entering {name} (B23.41)")
    bog = DRM(4 if stone else 3, f"{'stone' if stone else 'wooden'} building (Bog Check only)", "B23.41")
    rubble_drms = []
    if b.material is Material.WOODEN:
        rubble_drms.append(DRM(-1, "wooden building", "B23.41"))
    if b.kind in (BuildingKind.SINGLE_STORY, BuildingKind.LUMBERYARD):
        rubble_drms.append(DRM(-1, "Single Story House", "B23.41"))
    colored = roll.colored + sum(d.value for d in rubble_drms)
    events = [Event("B23.41", f"{afv_id} enters {name}: half its printed MP (+ a fourth for an OVR); Bog Check DR "
                    f"{roll} {bog} → {roll.total + bog.value}: resolve the Bog Check (D8, not in our texts)", name,
                    kind="bog-check")]
    new = pos
    rubbled = colored <= 0
    cellar = roll.colored == 6 and b.kind is not BuildingKind.FACTORY
    if rubbled:
        events.append(Event("B23.41", f"colored dr {roll.colored} {format_drms(rubble_drms)} = {colored} ≤ 0: "
                            f"{m.hex_name(loc.hex)} is rubbled", name, kind="rubble"))
        new, fell = _rubble_hex(pos, loc.hex)
        if fell:
            events.append(Event("B23.41, B24.11-.121", f"its upper levels fall: {fell} (resolve B24.11-.121 by "
                                "hand)", name, kind="rubble"))
        else:
            events.append(Event("B23.41", "rubbling a Single Story House does not affect its occupants", name))
    else:
        events.append(Event("B23.41", f"colored dr {roll.colored} {format_drms(rubble_drms)} = {colored}: no rubble",
                            name))
    if cellar:
        events.append(Event("B23.41", f"Original colored dr 6: {afv_id} falls through the floor into the cellar and "
                            "is removed; a surviving crew is placed at ground level, subject to Hazardous Movement "
                            "for the rest of the phase (D5.6)", name, kind="eliminated"))
        new = replace(new, units=tuple(u for u in new.units if u.id != afv_id))
    elif roll.colored == 6:
        events.append(Event("B23.742", "a Factory has no cellars: the colored 6 does nothing more", name))
    if through_black_bar_from is not None and not rubbled:
        other = m.building(through_black_bar_from)
        if not (b.rowhouse and other is not None and other.rowhouse and loc.hex.distance(through_black_bar_from) == 1):
            raise IllegalAction(f"{m.hex_name(through_black_bar_from)}–{m.hex_name(loc.hex)} is no Rowhouse black "
                                "bar (B23.71)")
        key = (m.hex_name(loc.hex), 0, m.hex_name(through_black_bar_from))
        nb = replace(b, breaches=b.breaches | {key})
        new = replace(new, map=new.map.with_building(nb))
        events.append(Event("B23.711", f"{afv_id} drove through the black bar without rubble: Breach in {name} toward "
                            f"{m.hex_name(through_black_bar_from)}", name, kind="breach"))
    return new, Report(f"{afv_id} enters building {name} (B23.41)", tuple(events))


def _rubble_hex(pos: Position, h: Hex) -> tuple[Position, str]:
    """The building hex *h* becomes rubble of its material (a Factory's stays part of it, B23.743): a Blaze in it
    burns on in the rubble, its Flames go out (Fire cheat sheet: Rubble); units above the ground level are
    listed as falling (B24.11-.121, resolved by hand)."""
    m = pos.map
    b = m.building(h)
    assert b is not None
    info = m.hexes[h]
    rubble = Terrain.WOODEN_RUBBLE if b.material is Material.WOODEN else Terrain.STONE_RUBBLE
    feature = b.id if b.kind is BuildingKind.FACTORY else info.feature
    new_map = m.with_hex(h, HexInfo(rubble, info.elevation, None, False, feature, info.road))
    ground = Location(h)
    blaze = next((f for f in pos.fires if f.location.hex == h and f.is_blaze), None)
    fires = tuple(f for f in pos.fires if f.location.hex != h)
    if blaze is not None:
        fires += (replace(blaze, location=ground),)
    above = [u for u in pos.units if u.location.hex == h and u.location != ground]
    units = tuple(u for u in pos.units if u not in above)
    fell = ", ".join(f"{u.name} ({u.side})" for u in above)
    return replace(pos, map=new_map, fires=fires, units=units), fell
