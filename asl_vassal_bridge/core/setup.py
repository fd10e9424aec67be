"""The start of a scenario: the EC Chart dr (B25.5) and the Wind Force and Direction drs (B25.63, B25.64).

>>> from .dice import ScriptedDice
>>> from .position import GameMap, Position
>>> pos, rep = scenario_start(Position(GameMap.from_hexes({})), ScriptedDice([4, 5, 3]), month=8)
>>> pos.environment.ec.label, str(pos.environment.wind)
('Very Dry', 'Mild Breeze to 3')
>>> [e.text for e in rep.events][0]
'EC Chart dr 4 +2 (August) = 6: Very Dry, EC DRM +2'
"""

from __future__ import annotations

from .dice import Dice
from .environment import EC, Wind, WindForce, month_drm, wind_force_from_dr
from .errors import BadInput
from .explain import Event, Report
from .hexes import Direction
from .position import Position
from .values import replace

__all__ = ["MONTHS", "scenario_start"]

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def scenario_start(pos: Position, dice: Dice, *, ec: bool = True, wind: bool = True,
                   month: int | None = None) -> tuple[Position, Report]:
    """Roll what the scenario leaves unsaid at its start: the EC (*ec*) and the wind (*wind*).

    EC (B25.5): a dr on the EC Chart, modified by the month's drm (Jan–Feb
    −3 … July–Aug +2; *month*, else the position's); the EC DRM is also the
    drm of a stream/river depth dr no SSR settles (B25.5).  Wind (B25.63): a
    Wind Force dr (1–3 No Wind, 4–5 Mild Breeze, 6 Heavy Winds), then, for
    a Mild Breeze or Heavy Winds, a Wind Direction dr (B25.64): the
    direction the wind blows to.  Temperate climates only (Arid F11.4 and
    Tropical G16.3 are not implemented).

    :raises BadInput: the EC is to be rolled and no month is known.
    """
    env = pos.environment
    events: list[Event] = []
    if ec:
        m = month if month is not None else env.month
        if m is None:
            raise BadInput("the EC Chart dr needs the scenario's month for its drm (B25.5): give --month 1–12 or "
                           "environment.month")
        drm = month_drm(m)
        dr = dice.dr("EC Chart (B25.5)").total
        new_ec = EC.from_chart(dr, m)
        events.append(Event("B25.5", f"EC Chart dr {dr} {drm:+d} ({MONTHS[m - 1]}) = {dr + drm}: {new_ec.label}, "
                            f"EC DRM {new_ec.drm:+d}", kind="ec"))
        env = replace(env, ec=new_ec, month=m, ec_given=True)
        events.append(Event("B25.5, B21.122", f"stream/river depth dr without an SSR depth: EC drm "
                            f"{env.stream_depth_drm:+d}",
                            kind="ec"))
    if wind:
        dr = dice.dr("Wind Force (B25.63)").total
        force = wind_force_from_dr(dr)
        if force is WindForce.NO_WIND:
            new_wind = Wind()
            events.append(Event("B25.63", f"Wind Force dr {dr}: No Wind", kind="wind"))
        else:
            d = dice.dr("Wind Direction (B25.64)").total
            new_wind = Wind(force, Direction(d))
            events.append(Event("B25.63", f"Wind Force dr {dr}: {force.label}", kind="wind"))
            events.append(Event("B25.64", f"Wind Direction dr {d}: the wind blows to {d}", kind="wind"))
        env = replace(env, wind=new_wind, wind_given=True, gusts=False)
    return replace(pos, environment=env), Report("Scenario start: EC and wind (B25.5, B25.63, B25.64)",
                                                 tuple(events))
