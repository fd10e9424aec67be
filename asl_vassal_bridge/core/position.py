"""Locations, the map, fire state and the game clock: the immutable Position.

One module per step: :mod:`.position_map` (Locations, hexes, the map),
:mod:`.position_pieces` (Fires, Wrecks, Smoke, units, the clock); this
module holds them in the immutable Position.  Every name is importable from
here as before.

>>> from .terrain import Terrain
>>> pos = Position(GameMap.from_hexes({Hex.parse("A1"): HexInfo(Terrain.WOODS)}))
>>> pos.add_fire(Fire(Location(Hex.parse("A1")), FireKind.FLAME, since=pos.clock.player_turn)).flames()[0].location.name
'A1'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property

from .environment import Environment
from .errors import IllegalAction
from .hexes import Hex
from .position_map import ROOFTOP_NAME, GameMap, HexInfo, Location, OffBoardError
from .position_pieces import Clock, Fire, FireKind, Phase, Smoke, Unit, UnitKind, Wreck
from .values import field, replace, value

__all__ = [
    "ROOFTOP_NAME",
    "Clock",
    "Fire",
    "FireKind",
    "GameMap",
    "HexInfo",
    "Location",
    "OffBoardError",
    "Phase",
    "Position",
    "Smoke",
    "Unit",
    "UnitKind",
    "Wreck",
]


@value(slots=False)
class Position:
    """Everything the fire rules act on; rules return a new Position.

    *sides* are the two sides' names, the first moving in half 1 of each turn.
    *control* names the side controlling a hex, where the position says so
    (Fire & Victory gives the Control of Locations made unenterable by fires
    no side kindled to the side controlling their hex).  *smoke* are the SMOKE
    counters on the map (A24), which a Gust disperses or eliminates (B25.651).
    """

    map: GameMap
    environment: Environment = Environment()
    clock: Clock = Clock()
    fires: tuple[Fire, ...] = ()
    wrecks: tuple[Wreck, ...] = ()
    units: tuple[Unit, ...] = ()
    sides: tuple[str, str] = ("Axis", "Allied")
    name: str = ""
    notes: str = ""
    control: Mapping[Hex, str] = field(default_factory=dict)
    smoke: tuple[Smoke, ...] = ()

    @property
    def attacker(self) -> str:
        return self.sides[self.clock.half - 1]

    @property
    def defender(self) -> str:
        return self.sides[2 - self.clock.half]

    def loc_name(self, loc: Location) -> str:
        """The Location's name on this map (``E4``, ``22E4.1``, ``E4.roof``)."""
        return self.map.location_name(loc)

    @cached_property
    def _blazes(self) -> dict[Location, Fire]:
        return {f.location: f for f in self.fires if f.is_blaze}

    @cached_property
    def _flames(self) -> dict[Location, tuple[Fire, ...]]:
        out: dict[Location, list[Fire]] = {}
        for f in self.fires:
            if f.is_flame:
                out.setdefault(f.location, []).append(f)
        return {k: tuple(v) for k, v in out.items()}

    def blaze_at(self, loc: Location) -> Fire | None:
        return self._blazes.get(loc)

    def flames_at(self, loc: Location) -> tuple[Fire, ...]:
        return self._flames.get(loc, ())

    def is_burning(self, loc: Location) -> bool:
        """A Flame or Blaze is in the Location."""
        return loc in self._blazes or loc in self._flames

    def blazes(self) -> list[Fire]:
        return [f for f in self.fires if f.is_blaze]

    def flames(self) -> list[Fire]:
        return [f for f in self.fires if f.is_flame]

    def building_blaze_levels(self, h: Hex) -> int | None:
        """The level count of a burning-building counter for hex *h*, or None.

        A multi-level building hex with a Blaze on every non-rooftop level is
        marked with one burning building counter (B23.6); VASL has 1–4-level
        Blaze counters for it.
        """
        if self.map.hexes.get(h, HexInfo()).building is None:
            return None
        levels = [loc for loc in self.map.locations(h) if not loc.rooftop]
        if len(levels) < 2 or any(loc not in self._blazes for loc in levels):
            return None
        return len(levels)

    def no_flame_reason(self, loc: Location) -> str | None:
        """Why no Flame can be created in *loc*, whatever creates it (a fire start or Spreading Fire), or None:
        no Burnable Terrain (B25.1), a Blaze already there (B25.15), or a Collapsed hut once Rain has fallen
        (Fire cheat sheet: huts).
        """
        if not self.map.is_burnable(loc):
            return f"{self.map.terrain_at(loc).label} cannot burn (B25.1)"
        if loc in self._blazes:
            return "a Blaze already burns there (B25.15)"
        if self.environment.rain_has_fallen and self.map.is_collapsed_hut(loc.hex):
            return "no Flame in a Collapsed hut once Rain has fallen (huts)"
        return None

    def target_ft(self, loc: Location) -> int:
        """The FT possessed by the Personnel units in *loc* an attack on it must count (A22.4: −1 per FT to
        the IFT DR vs the unit possessing them), 0 if none.

        :raises IllegalAction: units of *loc* possess different numbers of FT (the attack vs each differs:
            say which with ``--target-ft``).
        """
        counts = sorted({u.ft for u in self.units if u.location == loc and u.kind.is_infantry and u.ft})
        if len(counts) > 1:
            raise IllegalAction(f"units in {self.loc_name(loc)} possess {' and '.join(map(str, counts))} FT: the "
                                "attack vs each is one lower per FT it possesses (A22.4); give --target-ft N")
        return counts[0] if counts else 0

    def burning_wrecks(self) -> list[Wreck]:
        return [w for w in self.wrecks if w.burning]

    def add_fire(self, fire: Fire) -> Position:
        """A new Position with *fire* added (a Blaze replaces the Location's Flames, B25.15).

        :raises IllegalAction: the Location cannot burn (Water, a Graveyard, Open Ground…, B25.1), or
            it already holds a Blaze and *fire* is a Flame (B25.15).
        """
        self._check_location(fire.location)
        t = self.map.terrain_at(fire.location)
        if not t.burnable:
            raise IllegalAction(f"{self.loc_name(fire.location)} holds {t.label}, which cannot burn (B25.1)")
        if fire.is_flame and self.blaze_at(fire.location) is not None:
            raise IllegalAction(f"{self.loc_name(fire.location)} already holds a Blaze (B25.15)")
        fires = self.fires
        if fire.is_blaze:
            fires = tuple(f for f in fires if f.location != fire.location)
        return replace(self, fires=(*fires, fire))

    def remove_fires(self, loc: Location) -> Position:
        return replace(self, fires=tuple(f for f in self.fires if f.location != loc))

    def _check_location(self, loc: Location) -> None:
        if loc.hex not in self.map.hexes:
            raise OffBoardError(f"hex {self.map.hex_name(loc.hex)} is not on the map")
        if loc not in self.map.locations(loc.hex):
            raise OffBoardError(f"{self.loc_name(loc)} is not a Location of hex {self.map.hex_name(loc.hex)}")

    def with_(self, **changes: object) -> Position:
        """A copy with fields changed (:func:`.values.replace`)."""
        return replace(self, **changes)  # type: ignore[arg-type]
