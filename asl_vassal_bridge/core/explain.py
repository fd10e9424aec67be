"""Explanations: every DRM with its reason and rule, every result with what was needed.

>>> check = Check("Spreading Fire", "B25.6", needed=8, drms=(DRM(-2, "not directly attached", "B25.62"),))
>>> check.needed_original
10
>>> check.chance
Fraction(1, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .dice import Roll, chance_dr_at_least, chance_dr_at_most, chance_sr_at_least, chance_sr_at_most
from .values import field, value

__all__ = ["DRM", "Check", "CheckResult", "Event", "Report", "format_drms"]


@value
class DRM:
    """A die roll modifier with its reason and rule number."""

    value: int
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.rule})"


def format_drms(drms: Sequence[DRM]) -> str:
    """``"-2 not directly attached (B25.62), +1 Dry EC (B25.5)"`` or ``"no DRM"``."""
    return ", ".join(str(d) for d in drms) if drms else "no DRM"


@value
class Check:
    """A pending roll: succeed if the Final roll is ≥ *needed* (or ≤ when *at_most*).

    *dice* is 2 for a DR, 1 for a dr.  The chance is exact.
    """

    name: str
    rule: str
    needed: int
    drms: tuple[DRM, ...] = ()
    dice: int = 2
    at_most: bool = False
    total_drm: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total_drm", sum(d.value for d in self.drms))

    @property
    def needed_original(self) -> int:
        """The Original roll that just succeeds."""
        return self.needed - self.total_drm

    @property
    def chance(self) -> Fraction:
        """Exact chance of success."""
        n = self.needed_original
        if self.dice == 2:
            return chance_dr_at_most(n) if self.at_most else chance_dr_at_least(n)
        return chance_sr_at_most(n) if self.at_most else chance_sr_at_least(n)

    def succeeds(self, final: int) -> bool:
        return final <= self.needed if self.at_most else final >= self.needed

    def describe(self) -> str:
        kind = "DR" if self.dice == 2 else "dr"
        cmp = "≤" if self.at_most else "≥"
        return (f"{self.name} ({self.rule}): Final {kind} {cmp} {self.needed}; "
                f"{format_drms(self.drms)}; Original {cmp} {self.needed_original}; chance {self.chance}")


@value
class CheckResult:
    """A resolved roll: the check, the dice, the Final roll and the outcome."""

    check: Check
    roll: Roll
    outcome: str

    @property
    def final(self) -> int:
        return self.roll.total + self.check.total_drm

    @property
    def success(self) -> bool:
        return self.check.succeeds(self.final)

    def describe(self) -> str:
        kind = "DR" if self.check.dice == 2 else "dr"
        cmp = "≤" if self.check.at_most else "≥"
        return (f"{self.check.name} ({self.check.rule}): {kind} {self.roll}, {format_drms(self.check.drms)} "
                f"→ Final {self.final} vs {cmp} {self.check.needed}: {self.outcome}")


@value
class Event:
    """One line of a phase report: what happened, where, under which rule, from which roll."""

    rule: str
    text: str
    location: str | None = None
    roll: CheckResult | None = None
    kind: str = "info"

    def describe(self) -> str:
        if self.roll is not None:
            where = f"{self.location}: " if self.location else ""
            return f"{where}{self.roll.describe()}"
        return f"{self.text} ({self.rule})"


@value
class Report:
    """The events of one phase, in order."""

    title: str
    events: tuple[Event, ...] = field(default_factory=tuple)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def text(self) -> str:
        lines = [self.title]
        lines += [f"  {e.describe()}" for e in self.events] or ["  (nothing to do)"]
        return "\n".join(lines)

    def rolls(self) -> list[CheckResult]:
        return [e.roll for e in self.events if e.roll is not None]
