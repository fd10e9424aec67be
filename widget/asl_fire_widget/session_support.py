"""What the widget's session shows and reads beside it: the one-line load error, the hover panel of a hex, a live
game's snapshot (:mod:`.state` keeps the session itself)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asl_vassal_bridge.core import BadInput, Hex, Location, Position, UnitKind
from asl_vassal_bridge.core.fire import SpreadCheck, pending_blaze_checks
from asl_vassal_bridge.core.turn import pending_from_clock

from .attacks import tem_line
from .colours import ERROR

if TYPE_CHECKING:
    from asl_vassal_bridge.core.forecast import Forecast

__all__ = ["KINDLERS", "TOOLS", "HoverInfo", "LoadError", "hover_info", "live_setup", "live_snapshot",
           "live_unit_pieces", "notebook_words", "stack_line", "status_line"]


#: Click tools: what a click on a hex does.
TOOLS = ("inspect", "flame", "blaze", "wreck", "remove", "kindling", "attack", "wp", "he", "hut", "huts")

#: Who attempts Kindling (B25.11): unit kind and directing leader's modifier.
KINDLERS: dict[str, tuple[UnitKind, int | None]] = {
    "squad + leader (0)": (UnitKind.SQUAD, 0),
    "squad + 8-1 leader (−1)": (UnitKind.SQUAD, -1),
    "half-squad + leader (0)": (UnitKind.HALF_SQUAD, 0),
    "SMC alone (−2)": (UnitKind.LEADER, None),
}


def notebook_words(line: str) -> str:
    """A line of the readers in the notebook's words: ``boards=``, ``vasl=`` for the commands' options.

    >>> notebook_words("boards folder /b (--boards)")
    'boards folder /b (boards=)'
    """
    for cli, nb in (("give --boards DIR", "pass boards=DIR"), ("--boards", "boards="), ("--vasl", "vasl=")):
        line = line.replace(cli, nb)
    return line


class LoadError(BadInput):
    """A position, saved game, boards folder or module the widget cannot load: the message is one line, in
    the notebook's words (``boards=``, ``vasl=``), and a notebook shows it without a traceback.

    >>> e = LoadError("game.vsav: no such file")
    >>> e._render_traceback_()
    ['LoadError: game.vsav: no such file']
    """

    def __init__(self, message: str) -> None:
        super().__init__(notebook_words(" ".join(message.split())))

    def _render_traceback_(self) -> list[str]:
        """What IPython (JupyterLab, Voilà) shows for it: the one line, no traceback."""
        return [f"LoadError: {self}"]

    def widget(self) -> Any:
        """The message as a one-line notebook output (red, no traceback), to show instead of the widget."""
        from html import escape

        import ipywidgets as W  # noqa: N812

        html = W.HTML(f"<div class='asl-load-error' style='color:{ERROR};"
                      f"font-family:sans-serif;font-size:14px'>✗ {escape(str(self))}</div>")
        html.add_class("asl-load-error-box")
        return html


@dataclass(frozen=True)
class HoverInfo:
    """What the hover panel shows for one hex: its Locations, terrain, fires and odds."""

    hex: Hex
    name: str
    lines: tuple[str, ...]
    odds: tuple[tuple[Location, SpreadCheck], ...]

    def html(self) -> str:
        from html import escape

        body = "<br>".join(escape(line) for line in self.lines)
        return f"<b>{escape(self.name)}</b><br>{body}"


def stack_line(pos: Position, h: Hex) -> str:
    """The hex's counters bottom to top, as the map stacks them (a big stack shows one with "+n"): ``Counters:
    4-6-7 (German), 8-1 (German), Blaze, Smoke``."""
    from asl_vassal_bridge.mapview import counters_in

    stack = counters_in(pos).get(h, [])
    if not stack:
        return ""
    names = [f"{c.text} ({c.unit.side}{', broken' if c.unit.broken else ''})" if c.unit is not None else c.text
             for c in stack]
    return f"Counters ({len(stack)}, bottom to top): {', '.join(names)}"


def _pct(p: Fraction | float) -> str:
    return f"{float(p):.1%}"

if TYPE_CHECKING:
    from asl_vassal_bridge.vasl.setup import VaslSetup


def live_setup(boards: str | Path | None, vasl: str | Path | None) -> VaslSetup:
    """The boards folder and VASL module for a live game: those given, else VASSAL's preferences (none needed)."""
    from asl_vassal_bridge.vasl.setup import resolve_vasl

    return resolve_vasl(vasl, boards, need_boards=False)


def live_snapshot(client: Any = None) -> tuple[Any, dict[str, Any]]:
    """A bridge client and the live game's snapshot: *client* if given, else one connected through the extension's
    connection file.

    :raises LoadError: one line, when no VASSAL with the ASL fire bridge extension answers (``live_not_connected``),
        or the connection breaks while reading.
    """
    try:
        if client is None:
            from asl_vassal_bridge.bridge.client import connect

            client = connect()
        return client, client.snapshot()
    except LoadError:
        raise
    except (BadInput, OSError) as e:
        hint = "" if "?" in str(e) else " (is a game open in VASSAL with the ASL fire bridge extension?)"
        raise LoadError(f"live game: not connected: {e}{hint}") from None
    except Exception as e:  # py4j's errors when VASSAL closed the connection or the extension failed
        if type(e).__module__.startswith("py4j"):
            raise LoadError(f"live game: the connection to VASSAL was lost ({type(e).__name__}: "
                            f"{str(e).splitlines()[0] if str(e) else 'no answer'}); open the game again "
                            "and connect") from None
        raise


def live_unit_pieces(snapshot: Mapping[str, Any], pos: Position) -> dict[str, Mapping[str, Any]]:
    """The snapshot's piece of each of *pos*'s units, by unit id (a unit's id is its piece's)."""
    units = {u.id for u in pos.units}
    return {str(p.get("id")): p for p in snapshot.get("pieces") or () if str(p.get("id")) in units}



def hover_info(pos: Position, odds_now: Mapping[Location, SpreadCheck], forecast_now: Forecast | None,
               h: Hex) -> HoverInfo:
    """The hover panel of hex *h*: its Locations, terrain, fires, and for Burnable Locations the exact chance of
    fire this AFPh (*odds_now*) and, when a current forecast is shown, its chances."""
    m = pos.map
    info = m.hexes[h]
    lines: list[str] = []
    b = m.building(h)
    if b is not None:
        top = b.top_level(m.hex_name(h))
        lines.append(f"{b.material.value} {b.kind.value} building {b.id}, levels 0–{top}"
                     + (", stairwell" if info.stairwell else ""))
    else:
        lines.append(info.terrain.label + (" with road" if info.road else ""))
    if info.elevation:
        lines.append(f"elevation {info.elevation}")
    blaze_checks = {bc.location: bc for bc in pending_blaze_checks(pending_from_clock(pos)[1])}
    odds: list[tuple[Location, SpreadCheck]] = []
    for loc in m.locations(h):
        t = m.terrain_at(loc)
        name = pos.loc_name(loc)
        head = f"{name}: {t.label}"
        if t.burnable:
            head += f" (Kindle {t.kindle}, Spread {t.spread})"
        lines.append(head)
        tem = tem_line(pos, loc)
        if tem is not None:
            lines.append(tem)
        if pos.blaze_at(loc) is not None:
            lines.append("   Blaze")
        flames = pos.flames_at(loc)
        if flames:
            lines.append(f"   {len(flames)} Flame{'s' if len(flames) > 1 else ''}")
            bc = blaze_checks.get(loc)
            if bc is not None:
                lines.append(f"   Flame→Blaze this AFPh: {_pct(bc.chance)}; goes out: {_pct(bc.extinguish_chance)} "
                             f"(a Final DR ≤ 2 removes the Flame, B25.151); {bc.check.describe()}")
        sc = odds_now.get(loc)
        if sc is not None:
            odds.append((loc, sc))
            lines.append(f"   catches fire this AFPh: {_pct(sc.chance)} — {sc.describe(pos)}")
        elif t.burnable and pos.blaze_at(loc) is None:
            lines.append("   catches fire this AFPh: 0% (no Blaze or Burning Wreck can spread here now)")
    for w in pos.wrecks:
        if w.location.hex == h:
            lines.append(f"{w.name}{' (burning)' if w.burning else ''}")
    stack = stack_line(pos, h)
    if stack:
        lines.append(stack)
    if forecast_now is not None:
        for loc in m.locations(h):
            p = forecast_now.chance(loc)
            if p > 0:
                lines.append(f"   forecast: {pos.loc_name(loc)} burning after {forecast_now.turns} "
                             f"Player Turns: {p:.1%}")
    return HoverInfo(h, m.hex_name(h), tuple(lines), tuple(odds))


def status_line(pos: Position) -> str:
    """Turn, phase, EC and wind, as a one-liner."""
    env = pos.environment
    g = ", Gusts" if env.gusts else ""
    return f"{pos.clock} · EC {env.ec.label} ({env.ec_drm:+d}) · {env.wind}{g}"
