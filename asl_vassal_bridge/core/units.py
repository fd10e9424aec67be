"""Unit types: nationalities, classes, strength factors, leader ratings and their ladders.

Pure data and functions; the catalogue's numbers come from a data file that
:mod:`asl_vassal_bridge.data` reads and hands to :meth:`UnitCatalogue.from_dict`.

>>> StrengthFactor.parse("4-6-7")
StrengthFactor(firepower=4, range=6, morale=7)
>>> str(LeaderRating.parse("6+1"))
'6+1'
>>> next_grade(LeaderRating.parse("9-2"), STANDARD_LEADER_LADDER)
LeaderRating(morale=10, modifier=-2)
>>> UnitClass.FIRST_LINE < UnitClass.ELITE
True
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import BadInput
from .position import UnitKind
from .values import field, value

__all__ = [
    "STANDARD_LEADER_LADDER",
    "BadCatalogue",
    "BadDesignationError",
    "LeaderRating",
    "MMCType",
    "NationalCatalogue",
    "Nationality",
    "StrengthFactor",
    "UnitCatalogue",
    "UnitClass",
    "UnknownNationalityError",
    "next_grade",
    "parse_designation",
    "parse_nationality",
]


class BadDesignationError(BadInput):
    """A unit designation that is neither ``FP-range-morale`` (``4-6-7``) nor a leader rating (``8-1``)."""


class UnknownNationalityError(BadInput):
    """A nationality name the catalogue does not know."""


class BadCatalogue(BadInput):
    """A unit catalogue data file that does not have the expected shape."""


class UnitClass(enum.IntEnum):
    """Infantry quality (A1.25), worst first, so ``<`` compares quality."""

    CONSCRIPT = 1
    GREEN = 2
    SECOND_LINE = 3
    FIRST_LINE = 4
    ELITE = 5

    @property
    def label(self) -> str:
        return _CLASS_LABELS[self]

    @property
    def is_inexperienced(self) -> bool:
        """Green and Conscript units are Inexperienced (A19.3)."""
        return self <= UnitClass.GREEN

    @classmethod
    def from_name(cls, name: str) -> UnitClass:
        """``"elite"``, ``"1st line"``, ``"1st"``, ``"2nd"``, ``"green"``, ``"conscript"`` (or the VASL letter).

        :raises BadInput: for any other name.
        """
        key = name.strip().lower().replace("_", " ").replace("-", " ")
        for c, names in _CLASS_NAMES.items():
            if key in names:
                return c
        raise BadInput(f"unknown unit class {name!r}: expected elite, 1st line, 2nd line, green or conscript")


_CLASS_LABELS = {
    UnitClass.CONSCRIPT: "Conscript",
    UnitClass.GREEN: "Green",
    UnitClass.SECOND_LINE: "2nd Line",
    UnitClass.FIRST_LINE: "1st Line",
    UnitClass.ELITE: "Elite",
}
_CLASS_NAMES = {
    UnitClass.CONSCRIPT: {"conscript", "c"},
    UnitClass.GREEN: {"green", "g"},
    UnitClass.SECOND_LINE: {"2nd line", "2nd", "second line", "2"},
    UnitClass.FIRST_LINE: {"1st line", "1st", "first line", "1"},
    UnitClass.ELITE: {"elite", "e"},
}


class Nationality(enum.Enum):
    """The nationalities of VASL's counter palette, as the catalogue names them."""

    AMERICAN = ("american", "American", "Allied")
    BRITISH = ("british", "British", "Allied")
    FRENCH = ("french", "French", "Allied")
    CHINESE = ("chinese", "Chinese", "Allied")
    ALLIED_MINOR = ("allied_minor", "Allied Minor", "Allied")
    RUSSIAN = ("russian", "Russian", "Allied")
    PARTISAN = ("partisan", "Partisan", "Allied")
    SOUTH_KOREAN = ("south_korean", "South Korean", "Allied")
    UN_KOREA = ("un_korea", "Other UNC (Korea)", "Allied")
    GERMAN = ("german", "German", "Axis")
    JAPANESE = ("japanese", "Japanese", "Axis")
    ITALIAN = ("italian", "Italian", "Axis")
    FINNISH = ("finnish", "Finnish", "Axis")
    AXIS_MINOR = ("axis_minor", "Axis Minor", "Axis")
    CHINESE_COMMUNIST = ("chinese_communist", "Communist Chinese (Korea)", "Axis")
    NORTH_KOREAN = ("north_korean", "North Korean", "Axis")

    def __init__(self, code: str, label: str, side: str) -> None:
        self.code = code
        self.label = label
        self.side = side

    def __repr__(self) -> str:
        return f"Nationality.{self.name}"

    @classmethod
    def from_name(cls, name: str) -> Nationality:
        """A nationality from its name, its VASL prefix (``ge``, ``ru``) or a minor country (``hungarian``).

        A name that also carries a special status (``gurkha``, ``ss``, ``nkvd``) is refused here, since a
        bare Nationality would lose that status (A15.1, A15.5): read it with :func:`parse_nationality`.

        :raises UnknownNationalityError: naming the accepted names.
        """
        key = re.sub(r"[\s\-]+", "_", name.strip().lower())
        if key in _STATUS_ALIASES:
            nat, statuses = _STATUS_ALIASES[key]
            raise UnknownNationalityError(
                f"{name!r} is {nat.label} with {', '.join(_STATUS_LABELS[s] for s in sorted(statuses))} status "
                f"(A15.1, A15.5): give the nationality {nat.code} and the status "
                f"({', '.join('--' + s for s in sorted(statuses))}), or read the name with parse_nationality")
        for n in cls:
            if key in (n.code, n.name.lower(), n.label.lower().replace(" ", "_")):
                return n
        if key in _NATIONALITY_ALIASES:
            return _NATIONALITY_ALIASES[key]
        known = ", ".join(n.code for n in cls)
        raise UnknownNationalityError(f"unknown nationality {name!r}: expected one of {known} "
                                      f"(or a minor country such as hungarian, romanian, polish, greek; or gurkha, "
                                      f"ss, nkvd, with their status)")


_NATIONALITY_ALIASES: dict[str, Nationality] = {
    "am": Nationality.AMERICAN, "us": Nationality.AMERICAN, "usmc": Nationality.AMERICAN,
    "br": Nationality.BRITISH, "commonwealth": Nationality.BRITISH,
    "fr": Nationality.FRENCH, "free_french": Nationality.FRENCH,
    "ch": Nationality.CHINESE, "gmd": Nationality.CHINESE,
    "al": Nationality.ALLIED_MINOR, "polish": Nationality.ALLIED_MINOR, "belgian": Nationality.ALLIED_MINOR,
    "dutch": Nationality.ALLIED_MINOR, "greek": Nationality.ALLIED_MINOR, "yugoslav": Nationality.ALLIED_MINOR,
    "danish": Nationality.ALLIED_MINOR, "norwegian": Nationality.ALLIED_MINOR,
    "ru": Nationality.RUSSIAN, "soviet": Nationality.RUSSIAN,
    "pa": Nationality.PARTISAN, "partisans": Nationality.PARTISAN,
    "sk": Nationality.SOUTH_KOREAN, "rok": Nationality.SOUTH_KOREAN,
    "un": Nationality.UN_KOREA,
    "ge": Nationality.GERMAN,
    "ja": Nationality.JAPANESE, "it": Nationality.ITALIAN, "fi": Nationality.FINNISH,
    "ax": Nationality.AXIS_MINOR, "hu": Nationality.AXIS_MINOR, "hungarian": Nationality.AXIS_MINOR,
    "romanian": Nationality.AXIS_MINOR, "bulgarian": Nationality.AXIS_MINOR, "slovakian": Nationality.AXIS_MINOR,
    "croatian": Nationality.AXIS_MINOR,
    "cc": Nationality.CHINESE_COMMUNIST, "cpva": Nationality.CHINESE_COMMUNIST,
    "nk": Nationality.NORTH_KOREAN, "kpa": Nationality.NORTH_KOREAN,
}

#: Names a player may type that are a nationality *and* a special status of A15 (the HobUnit flags they set):
#: Gurkhas never surrender (A15.5), nor do SS vs Russians; NKVD take an extra −1 (A15.1, rules-data.md).
_STATUS_ALIASES: dict[str, tuple[Nationality, frozenset[str]]] = {
    "gurkha": (Nationality.BRITISH, frozenset({"gurkha"})), "gurkhas": (Nationality.BRITISH, frozenset({"gurkha"})),
    "ss": (Nationality.GERMAN, frozenset({"ss"})), "waffen_ss": (Nationality.GERMAN, frozenset({"ss"})),
    "nkvd": (Nationality.RUSSIAN, frozenset({"nkvd"})),
}
_STATUS_LABELS = {"gurkha": "Gurkha", "ss": "SS", "nkvd": "NKVD"}


def parse_nationality(name: str) -> tuple[Nationality, frozenset[str]]:
    """A nationality a player types, with the special status its name carries (A15.1, A15.5).

    The statuses are the :class:`~.heat_of_battle.HobUnit` flags the name sets: ``gurkha`` (never
    surrenders: Berserk instead), ``ss`` (never surrenders vs Russians), ``nkvd`` (−1).  Nationalities
    whose status is their own (Japanese, Partisan) come back as themselves with no flag.

    >>> parse_nationality("Gurkha")
    (Nationality.BRITISH, frozenset({'gurkha'}))
    >>> parse_nationality("waffen-ss")
    (Nationality.GERMAN, frozenset({'ss'}))
    >>> parse_nationality("japanese")
    (Nationality.JAPANESE, frozenset())

    :raises UnknownNationalityError: naming the accepted names.
    """
    key = re.sub(r"[\s\-]+", "_", name.strip().lower())
    if key in _STATUS_ALIASES:
        return _STATUS_ALIASES[key]
    return Nationality.from_name(name), frozenset()


_SF = re.compile(r"^(\d{1,2})-(\(?)(\d{1,2})(\)?)-(\d{1,2})$")
_LEADER = re.compile(r"^(10|[5-9])([-+])([0-3])$")


@value
class StrengthFactor:
    """A Personnel Strength Factor: firepower, normal range, morale (``4-6-7``).

    *bracketed_range* keeps a printed ``(1)`` range (``4-(1)-7``); the number counts as usual.
    """

    firepower: int
    range: int
    morale: int
    bracketed_range: bool = field(default=False, repr=False)

    @classmethod
    def parse(cls, text: str) -> StrengthFactor:
        """``"4-6-7"`` (a bracketed range such as ``4-(1)-7`` reads as 1).

        :raises BadDesignationError: for anything else.
        """
        m = _SF.match(text.strip())
        if not m or bool(m.group(2)) != bool(m.group(4)):
            raise BadDesignationError(f"bad unit strength {text!r}: expected firepower-range-morale such as 4-6-7")
        return cls(int(m.group(1)), int(m.group(3)), int(m.group(5)), bool(m.group(2)))

    def __str__(self) -> str:
        rng = f"({self.range})" if self.bracketed_range else str(self.range)
        return f"{self.firepower}-{rng}-{self.morale}"

    def none_lower_than(self, other: StrengthFactor) -> bool:
        """True if no number of this factor is below *other*'s (A15.3)."""
        return self.firepower >= other.firepower and self.range >= other.range and self.morale >= other.morale

    def gain_over(self, other: StrengthFactor) -> int:
        """The total of the increases over *other* (A15.3: the least gain is chosen)."""
        return (self.firepower - other.firepower) + (self.range - other.range) + (self.morale - other.morale)


@functools.total_ordering
@value
class LeaderRating:
    """A leader's morale and leadership modifier (``8-1`` is morale 8, modifier −1; ``6+1`` is +1).

    Ordered worst to best: by morale, then by the more negative modifier.
    """

    morale: int
    modifier: int = 0

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, LeaderRating):
            return NotImplemented
        return (self.morale, -self.modifier) < (other.morale, -other.modifier)

    @classmethod
    def parse(cls, text: str) -> LeaderRating:
        """``"8-1"``, ``"10-0"``, ``"6+1"``.

        :raises BadDesignationError: for anything else.
        """
        m = _LEADER.match(text.strip())
        if not m:
            raise BadDesignationError(f"bad leader rating {text!r}: expected morale and modifier such as 8-1 or 6+1")
        sign = 1 if m.group(2) == "+" else -1
        return cls(int(m.group(1)), sign * int(m.group(3)))

    def __str__(self) -> str:
        sign = "+" if self.modifier > 0 else "-"
        return f"{self.morale}{sign}{abs(self.modifier)}"


def parse_designation(text: str) -> StrengthFactor | LeaderRating:
    """A unit designation: a Strength Factor (``4-6-7``) or a leader rating (``8-1``).

    :raises BadDesignationError: for anything else.
    """
    t = text.strip()
    if _LEADER.match(t):
        return LeaderRating.parse(t)
    if _SF.match(t):
        return StrengthFactor.parse(t)
    raise BadDesignationError(f"bad unit {text!r}: expected a Strength Factor such as 4-6-7 or a leader such as 8-1")


#: The usual leader ladder, worst to best (A15.3: 6+1 → 7-0 … 9-2 → 10-2).
STANDARD_LEADER_LADDER: tuple[LeaderRating, ...] = tuple(
    LeaderRating.parse(r) for r in ("6+1", "7-0", "8-0", "8-1", "9-1", "9-2", "10-2", "10-3"))


def next_grade(rating: LeaderRating, ladder: Sequence[LeaderRating]) -> LeaderRating | None:
    """The next higher grade on *ladder* (worst first), or None if *rating* is the best there (A15.3).

    A rating that is not on the ladder steps to the lowest grade above it.
    """
    for r in sorted(ladder):
        if rating < r:
            return r
    return None


@value
class MMCType:
    """One Multi-Man Counter type of a nationality: Strength Factor, size, class and tags (``SS``, ``NKVD``)."""

    strength: StrengthFactor
    kind: UnitKind
    unit_class: UnitClass | None = None
    tags: frozenset[str] = frozenset()
    vasl_names: tuple[str, ...] = ()
    class_source: str | None = None

    @property
    def designation(self) -> str:
        return str(self.strength)

    def describe(self) -> str:
        cls = self.unit_class.label if self.unit_class else "class unknown"
        tags = f" [{', '.join(sorted(self.tags))}]" if self.tags else ""
        return f"{self.designation} {cls} {self.kind.value}{tags}"


_SIZES = {"squad": UnitKind.SQUAD, "half-squad": UnitKind.HALF_SQUAD, "crew": UnitKind.CREW}


@value
class NationalCatalogue:
    """One nationality's MMC types and leader/commissar ladders (worst first)."""

    nationality: Nationality
    mmc: tuple[MMCType, ...] = ()
    leaders: tuple[LeaderRating, ...] = STANDARD_LEADER_LADDER
    commissars: tuple[LeaderRating, ...] = ()

    def find(self, designation: str, kind: UnitKind | None = None) -> tuple[MMCType, ...]:
        """The MMC types with this Strength Factor (and size, if given)."""
        sf = StrengthFactor.parse(designation)
        return tuple(m for m in self.mmc if m.strength == sf and (kind is None or m.kind == kind))


@value
class UnitCatalogue:
    """Every nationality's unit types, with the data's source."""

    nationalities: Mapping[Nationality, NationalCatalogue]
    source: str = ""

    def __getitem__(self, nationality: Nationality) -> NationalCatalogue:
        return self.nationalities.get(nationality, NationalCatalogue(nationality))

    def by_vasl_name(self, name: str,
                     nationality: Nationality | None = None) -> tuple[tuple[Nationality, MMCType], ...]:
        """The MMC types a VASL counter name (``"4-6-7 1sq"``, ``"3-4-8 SShs"``) stands for, for the live bridge.

        >>> cat = UnitCatalogue({Nationality.GERMAN: NationalCatalogue(Nationality.GERMAN, (
        ...     MMCType(StrengthFactor(4, 6, 7), UnitKind.SQUAD, UnitClass.FIRST_LINE, vasl_names=("4-6-7 1sq",)),))})
        >>> [(n.code, m.describe()) for n, m in cat.by_vasl_name("4-6-7 1sq")]
        [('german', '4-6-7 1st Line squad')]
        """
        key = " ".join(name.split())
        nats = [nationality] if nationality else list(self.nationalities)
        return tuple((n, m) for n in nats for m in self[n].mmc if key in m.vasl_names)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "unit catalogue") -> UnitCatalogue:
        """Build from the parsed data file (the shape written by ``scripts/gen_unit_catalogue.py``).

        :raises BadCatalogue: naming *name* and the field that is wrong.
        """
        try:
            nats = data["nationalities"]
            src = data.get("source", {})
            source = f"{src.get('module', '?')} ({src.get('file', '?')})" if isinstance(src, Mapping) else str(src)
            out: dict[Nationality, NationalCatalogue] = {}
            for key, entry in nats.items():
                nat = Nationality.from_name(key)
                mmc = tuple(_mmc_from_dict(e) for e in entry.get("mmc", ()))
                leaders = tuple(LeaderRating.parse(r) for r in entry.get("leaders", ())) or STANDARD_LEADER_LADDER
                commissars = tuple(LeaderRating.parse(r) for r in entry.get("commissars", ()))
                out[nat] = NationalCatalogue(nat, mmc, tuple(sorted(leaders)), tuple(sorted(commissars)))
        except (KeyError, TypeError, AttributeError, BadInput) as e:
            raise BadCatalogue(f"{name}: {e.__class__.__name__}: {e} (expected the shape written by "
                               f"scripts/gen_unit_catalogue.py)") from None
        return cls(out, source)


def _mmc_from_dict(e: Mapping[str, Any]) -> MMCType:
    size = e["size"]
    if size not in _SIZES:
        raise BadCatalogue(f"size {size!r} of {e.get('designation')!r}: expected squad, half-squad or crew")
    cls = UnitClass.from_name(e["class"]) if e.get("class") else None
    return MMCType(StrengthFactor.parse(e["designation"]), _SIZES[size], cls, frozenset(e.get("tags", ())),
                   tuple(e.get("vasl_names", ())), e.get("class_source"))


def classes_above(unit_class: UnitClass, available: Iterable[UnitClass]) -> list[UnitClass]:
    """The classes better than *unit_class* among *available*, nearest first."""
    return sorted({c for c in available if c > unit_class})
