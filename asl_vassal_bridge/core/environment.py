"""Environmental Conditions (B25.5) and wind (B25.63–.64).

>>> EC.from_chart(4, month=8)
<EC.VERY_DRY: 2>
>>> wind_direction_drm(Direction.DOWN, Direction.LOWER_LEFT)
1
"""

from __future__ import annotations

import enum

from .hexes import Direction
from .values import replace, value

__all__ = [
    "EC",
    "Environment",
    "Ground",
    "Wind",
    "WindForce",
    "month_drm",
    "wind_direction_drm",
    "wind_force_from_dr",
]


class EC(enum.Enum):
    """Environmental Conditions; the value is the EC DRM (B25.5)."""

    SNOW = -3, "Snow"
    MUD = -3, "Mud"
    WET = -2, "Wet"
    MOIST = -1, "Moist"
    MODERATE = 0, "Moderate"
    DRY = 1, "Dry"
    VERY_DRY = 2, "Very Dry"

    def __new__(cls, drm: int, label: str) -> EC:
        obj = object.__new__(cls)
        obj._value_ = len(cls.__members__)
        obj.drm = drm  # type: ignore[attr-defined]
        obj.label = label  # type: ignore[attr-defined]
        return obj

    drm: int
    label: str

    def __repr__(self) -> str:
        return f"<EC.{self.name}: {self.drm}>"

    @classmethod
    def from_chart(cls, dr: int, month: int | None = None) -> EC:
        """The EC for an EC Chart dr, modified by the month drm (B25.5).

        >>> EC.from_chart(4)
        <EC.MODERATE: 0>
        """
        final = dr + (month_drm(month) if month is not None else 0)
        table = {1: EC.MUD, 2: EC.WET, 3: EC.MOIST, 4: EC.MODERATE, 5: EC.DRY}
        if final <= 0:
            return EC.SNOW
        if final >= 6:
            return EC.VERY_DRY
        return table[final]

    @classmethod
    def from_name(cls, name: str) -> EC:
        key = name.strip().upper().replace("-", "_").replace(" ", "_")
        try:
            return cls[key]
        except KeyError:
            known = ", ".join(m.name.lower().replace("_", "-") for m in cls)
            raise ValueError(f"unknown EC {name!r} (expected one of: {known})") from None


_MONTH_DRM = {1: -3, 2: -3, 12: -2, 3: -2, 11: -1, 4: -1, 5: 0, 10: 0, 6: 1, 9: 1, 7: 2, 8: 2}


def month_drm(month: int) -> int:
    """The EC Chart month drm (B25.5): Jan–Feb −3 … July–Aug +2."""
    if month not in _MONTH_DRM:
        raise ValueError(f"month must be 1–12, not {month}")
    return _MONTH_DRM[month]


class Ground(enum.Enum):
    """Ground conditions that restrict fire spread (cheat sheet: Mud/Snow)."""

    NORMAL = "normal"
    MUD = "mud"
    GROUND_SNOW = "ground-snow"
    DEEP_SNOW = "deep-snow"


class WindForce(enum.IntEnum):
    """Wind Force (B25.63)."""

    NO_WIND = 0
    MILD_BREEZE = 1
    HEAVY_WINDS = 2

    @property
    def label(self) -> str:
        return ("No Wind", "Mild Breeze", "Heavy Winds")[self.value]

    @classmethod
    def from_name(cls, name: str) -> WindForce:
        key = name.strip().upper().replace("-", "_").replace(" ", "_")
        aliases = {"NONE": "NO_WIND", "MILD": "MILD_BREEZE", "BREEZE": "MILD_BREEZE", "HEAVY": "HEAVY_WINDS"}
        try:
            return cls[aliases.get(key, key)]
        except KeyError:
            raise ValueError(f"unknown wind force {name!r} (expected no-wind, mild-breeze or heavy-winds)") from None


def wind_force_from_dr(dr: int) -> WindForce:
    """Wind Force Table dr (B25.63): 1–3 No Wind, 4–5 Mild Breeze, 6 Heavy Winds."""
    if dr <= 3:
        return WindForce.NO_WIND
    return WindForce.MILD_BREEZE if dr <= 5 else WindForce.HEAVY_WINDS


@value
class Wind:
    """Wind Force and the direction it blows *to* (None with No Wind)."""

    force: WindForce = WindForce.NO_WIND
    direction: Direction | None = None

    def __post_init__(self) -> None:
        if self.force is not WindForce.NO_WIND and self.direction is None:
            raise ValueError(f"{self.force.label} needs a Wind Direction (1–6, B25.64)")

    def __str__(self) -> str:
        if self.force is WindForce.NO_WIND or self.direction is None:
            return "No Wind"
        return f"{self.force.label} to {int(self.direction)}"


def wind_direction_drm(wind: Direction, spread: Direction) -> int:
    """Mild Breeze Spreading Fire DRM for fire spreading in direction *spread* (B25.64).

    Downwind +2, downwind flanks +1, upwind flanks 0, upwind −1.
    """
    return (2, 1, 0, -1)[spread.steps_from(wind)]


@value
class Environment:
    """EC, wind and ground for the fire rules.

    *gusts* is true for the rest of a Player Turn whose Wind Change DR was
    12 (B25.651).  *ec_given* / *wind_given* are false while the scenario
    has not said its EC or wind and they were not rolled at its start
    (B25.5, B25.63): the rules then use Moderate / No Wind and say so.
    *drift_cleared* is true from an RPh whose wind change removed the
    drifting smoke (Fire cheat sheet) to the start of the next AFPh, when
    smoke drifts again; *gusts* does the same (B25.651).
    *rain_has_fallen*: Rain has occurred in the scenario; from then on no
    Flame can be created in a Collapsed hut (Fire cheat sheet: huts).
    """

    ec: EC = EC.MODERATE
    wind: Wind = Wind()
    ground: Ground = Ground.NORMAL
    gusts: bool = False
    month: int | None = None
    ec_given: bool = True
    wind_given: bool = True
    drift_cleared: bool = False
    rain_has_fallen: bool = False

    @property
    def ec_drm(self) -> int:
        return self.ec.drm

    @property
    def stream_depth_drm(self) -> int:
        """The drm to the stream/river depth dr when no SSR lists the depth: the EC DRM (B25.5, B21.122).

        >>> Environment(EC.WET).stream_depth_drm
        -2
        """
        return self.ec.drm

    @property
    def restricts_spread(self) -> bool:
        """Mud or snow: fire spreads only across connected depictions (cheat sheet)."""
        return self.ground is not Ground.NORMAL or self.ec in (EC.MUD, EC.SNOW)

    @property
    def effective_ground(self) -> Ground:
        if self.ground is not Ground.NORMAL:
            return self.ground
        if self.ec is EC.MUD:
            return Ground.MUD
        if self.ec is EC.SNOW:
            return Ground.GROUND_SNOW
        return Ground.NORMAL

    def with_wind(self, wind: Wind) -> Environment:
        return replace(self, wind=wind)
