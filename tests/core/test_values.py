"""The core's value types (``core/values.py``) behave as the frozen dataclasses they replace."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

import pytest

from asl_vassal_bridge.core.explain import Check
from asl_vassal_bridge.core.hexes import Hex
from asl_vassal_bridge.core.position import Clock, Fire, FireKind, GameMap, Location, Phase
from asl_vassal_bridge.core.values import Field, FrozenInstanceError, field, fields, replace, value
from asl_vassal_bridge.scenarios import demo_position


@value
class Point:
    x: int
    y: int = 0


@value
class OtherPoint:
    x: int
    y: int = 0


@value(order=True)
class Rank:
    major: int
    minor: int = 0
    note: str = field(default="", compare=False)


@value
class Marked:
    """An init=False field made by __post_init__, left out of repr and the comparisons."""

    name: str
    drms: tuple[int, ...] = ()
    tags: list[str] = field(default_factory=list, compare=False)
    total: int = field(init=False, repr=False, compare=False)
    kinds: ClassVar[int] = 3

    def __post_init__(self) -> None:
        if self.name == "":
            raise ValueError("a name is needed")
        object.__setattr__(self, "total", sum(self.drms))


@value(slots=False)
class Cached:
    items: tuple[int, ...]
    label: str = "n"

    @cached_property
    def total(self) -> int:
        return sum(self.items)


@value(slots=False, eq=False)
class Labelled(Point):
    label: str = ""


@value
class Many:
    a: int
    b: int
    c: int
    d: int
    e: int
    f: int
    g: int
    h: int
    i: int
    j: int = 10
    k: int = 11


def test_a_value_is_frozen() -> None:
    p = Point(1, 2)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'y'"):
        del p.y
    with pytest.raises(AttributeError):  # FrozenInstanceError is an AttributeError, as in dataclasses
        p.z = 1  # type: ignore[attr-defined]
    assert (p.x, p.y) == (1, 2)


def test_slots_and_no_instance_dictionary() -> None:
    assert Point.__slots__ == ("x", "y")  # type: ignore[attr-defined]
    assert not hasattr(Point(1), "__dict__")
    assert Many.__slots__ == tuple("abcdefghijk")  # type: ignore[attr-defined]
    m = Many(*range(9))
    assert [getattr(m, n) for n in "abcdefghijk"] == [*range(9), 10, 11]


def test_a_class_without_slots_keeps_its_cached_properties() -> None:
    c = Cached((1, 2, 3))
    assert c.total == 6 and c.__dict__["total"] == 6
    assert Cached.label == "n"  # a plain default stays a class attribute, as in dataclasses
    with pytest.raises(FrozenInstanceError):
        c.label = "m"  # type: ignore[misc]


def test_equality_needs_the_same_class() -> None:
    assert Point(1, 2) == Point(1, 2) and Point(1, 2) is not Point(1, 2)
    assert Point(1, 2) != Point(1, 3)
    assert Point(1, 2) != OtherPoint(1, 2)
    assert Point(1, 2) != (1, 2)
    assert Point(1, 2).__eq__(OtherPoint(1, 2)) is NotImplemented


def test_compare_false_fields_are_left_out_of_eq_and_hash() -> None:
    a, b = Marked("k", (1, 2), ["x"]), Marked("k", (1, 2), ["y"])
    assert a == b and hash(a) == hash(b)
    assert Rank(1, 2, "a") == Rank(1, 2, "b")
    assert {Point(1, 2): "p"}[Point(1, 2)] == "p"
    assert hash(Point(1, 2)) != hash(Point(2, 1))


def test_an_explicit_hash_or_eq_is_kept() -> None:
    @value
    class Loose:
        x: int

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7

    assert Loose(1) == Loose(2) and hash(Loose(1)) == 7


def test_eq_false_inherits_the_base_comparisons() -> None:
    a, b = Labelled(1, 2, "a"), Labelled(1, 2, "b")
    assert a == b and hash(a) == hash(b)  # as dataclasses' eq=False: Point's __eq__ and __hash__
    assert a.label == "a" and (a.x, a.y) == (1, 2)
    assert Labelled.__match_args__ == ("x", "y", "label")
    with pytest.raises(FrozenInstanceError):
        a.x = 5  # type: ignore[misc]


def test_defaults_and_default_factories_are_not_shared() -> None:
    a, b = Marked("a"), Marked("b")
    assert a.tags == [] and a.tags is not b.tags
    a.tags.append("x")
    assert b.tags == []
    assert Marked("c", tags=["t"]).tags == ["t"]
    assert Marked("d", (1,)).tags == [] and Marked(name="e").tags == []


def test_post_init_sets_derived_fields_and_checks() -> None:
    m = Marked("k", (1, -3))
    assert m.total == -2
    with pytest.raises(ValueError, match="a name is needed"):
        Marked("")
    assert Check("Kindling", "B25.11", 7, ()).total_drm == 0


def test_repr_shows_the_repr_fields() -> None:
    assert repr(Point(1, 2)) == "Point(x=1, y=2)"
    assert repr(Marked("k", (1,))) == "Marked(name='k', drms=(1,), tags=[])"
    assert repr(Rank(1)) == "Rank(major=1, minor=0, note='')"
    assert repr(Labelled(1, 2, "a")) == "Labelled(x=1, y=2, label='a')"
    assert repr(Fire(Location(Hex(0, 0)), FireKind.FLAME)).startswith("Fire(location=Location(")


def test_order_compares_field_tuples_of_the_same_class() -> None:
    assert Rank(1, 5) < Rank(2, 0) <= Rank(2, 0, "x") < Rank(2, 1)
    assert Rank(3) > Rank(2, 9) >= Rank(2, 9)
    assert sorted([Rank(2), Rank(1, 3), Rank(1, 2)]) == [Rank(1, 2), Rank(1, 3), Rank(2)]
    with pytest.raises(TypeError):
        _ = Rank(1) < Point(1)  # type: ignore[operator]
    with pytest.raises(TypeError):
        _ = Point(1) < Point(2)  # type: ignore[operator]
    assert Clock(1, 2) < Clock(2, 1) < Clock(2, 2)


def test_a_nested_class_keeps_its_qualified_name() -> None:
    @value
    class Inner:
        x: int

    assert Inner.__qualname__.endswith("test_a_nested_class_keeps_its_qualified_name.<locals>.Inner")
    assert repr(Inner(1)).startswith("test_a_nested_class_keeps_its_qualified_name.<locals>.Inner(x=1)")


def test_order_refuses_a_comparison_the_class_defines() -> None:
    with pytest.raises(TypeError, match="__lt__"):
        @value(order=True)
        class Twice:
            x: int

            def __lt__(self, other: object) -> bool:
                return False


def test_keyword_and_positional_arguments() -> None:
    assert Point(1) == Point(x=1) == Point(1, 0) == Point(y=0, x=1)
    m = Many(1, 2, 3, 4, 5, 6, 7, 8, 9, k=0)
    assert (m.i, m.j, m.k) == (9, 10, 0)


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Point(), r"^Point.__init__\(\) missing 1 required positional argument: 'x'$"),
    (lambda: Many(1, 2, 3, 4, 5, 6, 7),
     r"^Many.__init__\(\) missing 2 required positional arguments: 'h' and 'i'$"),
    (lambda: Many(1, 2, 3, 4, 5, 6),
     r"^Many.__init__\(\) missing 3 required positional arguments: 'g', 'h', and 'i'$"),
    (lambda: Point(y=2), r"^Point.__init__\(\) missing 1 required positional argument: 'x'$"),
    (lambda: Point(1, 2, 3), r"^Point.__init__\(\) takes from 2 to 3 positional arguments but 4 were given$"),
    (lambda: Point(1, z=3), r"^Point.__init__\(\) got an unexpected keyword argument 'z'$"),
    (lambda: Point(1, x=3), r"^Point.__init__\(\) got multiple values for argument 'x'$"),
    (lambda: Marked("k", total=3), r"^Marked.__init__\(\) got an unexpected keyword argument 'total'$"),
])
def test_wrong_arguments_name_the_class_and_the_argument(make: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        make()


def test_a_field_without_a_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):
        @value
        class Bad:
            x: int = 0
            y: int  # type: ignore[misc]


def test_replace_makes_a_new_value_through_init() -> None:
    p = Point(1, 2)
    assert replace(p, y=5) == Point(1, 5) and p == Point(1, 2)
    assert replace(p) == p and replace(p) is not p
    m = replace(Marked("k", (1,), ["t"]), drms=(2, 3))
    assert m.total == 5 and m.tags == ["t"]  # the init=False field made again by __post_init__
    with pytest.raises(ValueError, match="init=False"):
        replace(m, total=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        replace(p, z=1)
    with pytest.raises(ValueError, match="a name is needed"):
        replace(m, name="")
    with pytest.raises(TypeError, match="value or dataclass instances"):
        replace((1, 2))
    # The other layers' dataclasses go through dataclasses.replace: one replace for every type.
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Entry:
        name: str
        crop: tuple[int, ...] | None = None

    assert replace(Entry("bd01"), crop=(0, 0, 1, 1)) == Entry("bd01", (0, 0, 1, 1))
    labelled = replace(Labelled(1, 2, "a"), x=3)
    assert type(labelled) is Labelled and (labelled.x, labelled.label) == (3, "a")


def test_copy_replace_calls_dunder_replace() -> None:
    p = Point(1, 2)
    assert p.__replace__(y=3) == Point(1, 3)
    if hasattr(copy, "replace"):  # Python 3.13
        assert copy.replace(p, y=3) == Point(1, 3)


def test_fields_lists_the_fields_in_order() -> None:
    fs = fields(Marked)
    assert [f.name for f in fs] == ["name", "drms", "tags", "total"]  # not the ClassVar
    assert fields(Marked("k")) == fs and all(isinstance(f, Field) for f in fs)
    assert [(f.init, f.repr, f.compare) for f in fs][-1] == (False, False, False)
    assert fs[1].default == () and fs[2].default_factory is list
    assert [f.name for f in fields(Labelled)] == ["x", "y", "label"]
    with pytest.raises(TypeError):
        fields(object())


def test_match_statements_use_the_init_fields() -> None:
    assert Marked.__match_args__ == ("name", "drms", "tags")
    match Point(1, 2):
        case Point(1, y):
            assert y == 2
        case _:
            pytest.fail("no match")
    match Clock(3, 2, Phase.AFPH):
        case Clock(turn, 2, phase=Phase.AFPH):
            assert turn == 3
        case _:
            pytest.fail("no match")


@pytest.mark.parametrize("obj", [
    Point(1, 2), Rank(1, 2, "n"), Marked("k", (1, 2), ["t"]), Cached((1, 2)), Labelled(1, 2, "l"),
    Many(*range(11)), Clock(2, 1, Phase.AFPH), Check("Kindling", "B25.11", 7, ()),
])
def test_pickle_copy_and_deepcopy_round_trip(obj: Any) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(obj, protocol))
        assert back == obj and type(back) is type(obj) and repr(back) == repr(obj)
    assert copy.copy(obj) == obj
    deep = copy.deepcopy(obj)
    assert deep == obj and repr(deep) == repr(obj)
    if isinstance(obj, Marked):
        assert deep.total == obj.total and deep.tags is not obj.tags


def test_the_core_types_round_trip() -> None:
    pos = demo_position()
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert copy.deepcopy(pos) == pos
    assert isinstance(pos.map, GameMap) and replace(pos, name="x").map is pos.map


MYPY_SNIPPET = """
from asl_vassal_bridge.core.values import field, value

@value(order=True)
class P:
    x: int
    y: str = ""
    z: int = field(init=False, compare=False)

p = P(1, "a")
P("one")
P(1, w=2)
P(1, z=2)
p.x = 3
n: int = p.y
p < P(2)
"""


def test_mypy_sees_the_fields_and_that_values_are_frozen(tmp_path: Path) -> None:
    """``value`` is a PEP 681 dataclass_transform: mypy (a dev dependency) checks the constructor and
    refuses assignments."""
    f = tmp_path / "snippet.py"
    f.write_text(MYPY_SNIPPET, "utf-8")
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent",
                          "--cache-dir", str(tmp_path / "cache"), str(f)], capture_output=True, text=True).stdout
    errors = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith(str(f))]
    assert errors == [
        'error: Argument 1 to "P" has incompatible type "str"; expected "int"  [arg-type]',
        'error: Unexpected keyword argument "w" for "P"  [call-arg]',
        'error: Unexpected keyword argument "z" for "P"  [call-arg]',
        'error: Property "x" defined in "P" is read-only  [misc]',
        'error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
    ], out
