"""Immutable value types for the rules core: :func:`value`, a frozen ``@dataclass`` without its start-up cost.

``dataclasses`` imports inspect and ast and compiles six methods per class, a quarter of ``asl-fire odds``'s
start (issue 11); :func:`value` builds the same methods from closures, with no source compiled.

>>> @value(order=True)
... class Point:
...     x: int
...     y: int = 0
...     tags: tuple[str, ...] = field(default_factory=tuple, compare=False)
>>> p = Point(1, y=2)
>>> p, p == Point(1, 2, ("a",)), p < Point(2)
(Point(x=1, y=2, tags=()), True, True)
>>> replace(p, y=5)
Point(x=1, y=5, tags=())
>>> p.x = 3  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
FrozenInstanceError: cannot assign to field 'x'

A class is frozen and has ``__init__``, ``__repr__``, ``__eq__`` (same class only), ``__hash__``,
``__match_args__``, ``__replace__`` (``copy.replace``) and, with *order*, ``<`` and the rest, as
``@dataclass(frozen=True)`` gives them; methods the class defines itself are kept.  With *slots* (the default)
the class is made again with ``__slots__`` and pickles as dataclasses' slotted classes do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from types import MemberDescriptorType
from typing import Any, ClassVar, TypeVar, dataclass_transform, overload

__all__ = ["Field", "FrozenInstanceError", "field", "fields", "replace", "value"]

_T = TypeVar("_T")


class FrozenInstanceError(AttributeError):
    """An assignment to, or deletion of, a field of a value (as ``dataclasses.FrozenInstanceError``)."""


class _Missing:
    __slots__ = ()

    def repr_(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class _Factory:
    """A default made by calling *factory* for each instance."""

    __slots__ = ("factory",)

    def __init__(self, factory: Callable[[], Any]) -> None:
        self.factory = factory


class Field:
    """One field of a value type, as :func:`fields` returns it."""

    __slots__ = ("compare", "default", "default_factory", "init", "name", "repr", "type")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool, compare: bool) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def repr_(self) -> str:
        return (f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, "
                f"default_factory={self.default_factory!r}, init={self.init}, repr={self.repr}, "
                f"compare={self.compare})")


@overload
def field(*, default: _T, init: bool = True, repr: bool = True, compare: bool = True) -> _T: ...
@overload
def field(*, default_factory: Callable[[], _T], init: bool = True, repr: bool = True, compare: bool = True) -> _T: ...
@overload
def field(*, init: bool = True, repr: bool = True, compare: bool = True) -> Any: ...
def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True, repr: bool = True,
          compare: bool = True) -> Any:
    """A field with a default, a *default_factory* (called for each instance), or left out of ``__init__``
    (``init=False``: ``__post_init__`` sets it), ``repr`` or the comparisons (as ``dataclasses.field``)."""
    return Field(default, default_factory, init, repr, compare)


def fields(class_or_instance: object) -> tuple[Field, ...]:
    """The fields of a value type or value, in order (as ``dataclasses.fields``)."""
    try:
        fs: dict[str, Field] = class_or_instance.__value_fields__  # type: ignore[attr-defined]
    except AttributeError:
        raise TypeError("must be called with a value type or instance") from None
    return tuple(fs.values())


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of value *obj* with *changes*; ``init=False`` fields are made again by ``__post_init__``
    (as ``dataclasses.replace``, which it calls for a dataclass: one ``replace`` for every layer's types)."""
    if not hasattr(type(obj), "__value_fields__"):
        if hasattr(type(obj), "__dataclass_fields__"):
            import dataclasses

            return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
        raise TypeError("replace() should be called on value or dataclass instances")
    return obj.__replace__(**changes)  # type: ignore[attr-defined, no-any-return]


def _is_classvar(annotation: object) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return annotation is ClassVar or getattr(annotation, "__origin__", None) is ClassVar


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple of the named attributes (as the methods dataclasses writes compare)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return attrgetter(*names)


_Setter = Callable[[Any, Sequence[Any]], None]


def _slot_setter(sets: tuple[Callable[[Any, Any], None], ...]) -> _Setter:
    """A function calling ``sets[i](obj, values[i])`` for each i, unrolled (a loop costs twice as much);
    more than eight are set eight at a time."""
    if len(sets) > 8:
        head, rest = _slot_setter(sets[:8]), _slot_setter(sets[8:])

        def set_more(obj: Any, values: Sequence[Any]) -> None:
            head(obj, values)
            rest(obj, values[8:])
        return set_more
    return _unrolled(len(sets))(*sets)


_UNROLLED: dict[int, Callable[..., _Setter]] = {}


def _unrolled(n: int) -> Callable[..., _Setter]:
    """``make(s0, …, s{n-1})``: a setter whose body is the *n* calls ``s{i}(obj, v[{i}])`` written out, made
    once per arity from this one template."""
    make = _UNROLLED.get(n)
    if make is None:
        calls = "".join(f"        s{i}(obj, v[{i}])\n" for i in range(n)) or "        pass\n"
        params = ", ".join(f"s{i}" for i in range(n))
        source = f"def make({params}):\n    def set{n}(obj, v):\n{calls}    return set{n}\n"
        namespace: dict[str, Any] = {}
        exec(compile(source, f"<values setter of {n}>", "exec"), namespace)
        make = _UNROLLED[n] = namespace["make"]
    return make


def _setter(cls: type, names: tuple[str, ...]) -> _Setter:
    """A function storing a tuple of values in the named attributes of a new instance of *cls*, past
    any ``__setattr__``: straight into the slots, or into the instance dictionary."""
    descriptors = []
    for name in names:
        for base in cls.__mro__:
            if name in base.__dict__:
                descriptors.append(base.__dict__[name])
                break
        else:
            descriptors.append(None)
    if all(type(d) is MemberDescriptorType for d in descriptors):
        return _slot_setter(tuple(d.__set__ for d in descriptors))
    if not any(type(d) is MemberDescriptorType for d in descriptors) and "__slots__" not in cls.__dict__:
        def set_dict(obj: Any, values: Sequence[Any]) -> None:
            obj.__dict__.update(zip(names, values, strict=False))
        return set_dict
    set_attr = object.__setattr__

    def set_attrs(obj: Any, values: Sequence[Any]) -> None:
        for n, v in zip(names, values, strict=False):
            set_attr(obj, n, v)
    return set_attrs


def _missing_message(names: list[str]) -> str:
    quoted = [repr(n) for n in names]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) == 2:
        listed = f"{quoted[0]} and {quoted[1]}"
    else:
        listed = ", ".join(quoted[:-1]) + f", and {quoted[-1]}"
    s = "" if len(names) == 1 else "s"
    return f"missing {len(names)} required positional argument{s}: {listed}"


def _make_init(cls: type, all_fields: list[Field]) -> Callable[..., None]:
    init_fields = [f for f in all_fields if f.init]
    names = tuple(f.name for f in init_fields)
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    defaults = tuple(MISSING if f.default is MISSING and f.default_factory is MISSING else
                     _Factory(f.default_factory) if f.default_factory is not MISSING else f.default
                     for f in init_fields)
    required = next((i for i, d in enumerate(defaults) if d is not MISSING), n)
    factory_at = tuple(i for i, d in enumerate(defaults) if type(d) is _Factory)
    # By the number k of positional arguments: the other fields with their defaults (MISSING for required
    # ones), in order, and whether a default is made by a factory.
    tails = [defaults[k:] for k in range(n + 1)]
    by_name = [dict(zip(names[k:], defaults[k:], strict=True)) for k in range(n + 1)]
    factories = [any(i >= k for i in factory_at) for k in range(n + 1)]
    # init=False fields with a default are set too; the others are left to __post_init__.
    extra = [f for f in all_fields if not f.init and (f.default is not MISSING or f.default_factory is not MISSING)]
    extra_defaults = tuple(_Factory(f.default_factory) if f.default_factory is not MISSING else f.default
                           for f in extra)
    set_values = _setter(cls, names)
    set_extra = _setter(cls, tuple(f.name for f in extra)) if extra else None
    post_init = hasattr(cls, "__post_init__")
    qualname = f"{cls.__qualname__}.__init__()"

    def fail(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Raise the TypeError Python gives for these arguments to a function with the fields' signature."""
        k = len(args)
        if k > n:
            takes = f"{n + 1}" if required == n else f"from {required + 1} to {n + 1}"
            raise TypeError(f"{qualname} takes {takes} positional arguments but {k + 1} were given")
        for key in kwargs:
            i = index.get(key)
            if i is None:
                raise TypeError(f"{qualname} got an unexpected keyword argument {key!r}")
            if i < k:
                raise TypeError(f"{qualname} got multiple values for argument {key!r}")
        missing = [name for name in names[k:required] if name not in kwargs]
        raise TypeError(f"{qualname} {_missing_message(missing)}")

    def make(values: tuple[Any, ...]) -> list[Any]:
        out = list(values)
        for i in factory_at:
            if type(out[i]) is _Factory:
                out[i] = out[i].factory()
        return out

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        values: Sequence[Any] = args
        k = len(args)
        if kwargs:
            if k > n:
                fail(args, kwargs)
            rest = {**by_name[k], **kwargs}  # in field order; a new key is a wrong keyword
            if len(rest) != n - k or (k < required and any(v is MISSING for v in rest.values())):
                fail(args, kwargs)
            values = args + tuple(rest.values())
            if factories[k]:
                values = make(values)
        elif k != n:
            if not required <= k < n:
                fail(args, kwargs)
            values = args + tails[k]
            if factories[k]:
                values = make(values)
        set_values(self, values)
        if set_extra is not None:
            set_extra(self, tuple(d.factory() if type(d) is _Factory else d for d in extra_defaults))
        if post_init:
            self.__post_init__()

    return init


def _make_replace(cls: type, all_fields: list[Field]) -> Callable[..., Any]:
    names = tuple(f.name for f in all_fields if f.init)
    index = {name: i for i, name in enumerate(names)}
    get_all = _key(names)
    not_init = frozenset(f.name for f in all_fields if not f.init)

    def replace_(self: Any, /, **changes: Any) -> Any:
        if not_init and not not_init.isdisjoint(changes):
            name = min(not_init.intersection(changes))
            raise ValueError(f"field {name} is declared with init=False, it cannot be specified with replace()")
        values = list(get_all(self))
        try:
            for name, v in changes.items():
                values[index[name]] = v
        except KeyError:  # __init__ says which keyword is wrong
            return self.__class__(**{**dict(zip(names, values, strict=True)), **changes})
        return self.__class__(*values)

    return replace_


def _with_slots(cls: type, names: list[str]) -> type:
    """*cls* made again with ``__slots__`` for its fields (those no base class has a slot for)."""
    inherited: set[str] = set()
    for base in cls.__mro__[1:-1]:
        slots = base.__dict__.get("__slots__", ())
        inherited.update((slots,) if isinstance(slots, str) else slots)
    cls_dict = dict(cls.__dict__)
    if "__slots__" in cls_dict:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    for name in names:
        cls_dict.pop(name, None)
    cls_dict.pop("__dict__", None)
    cls_dict.pop("__weakref__", None)
    cls_dict["__slots__"] = tuple(n for n in names if n not in inherited)
    slotted = type(cls)(cls.__name__, cls.__bases__, cls_dict)
    slotted.__qualname__ = cls.__qualname__  # kept by the class, not in its __dict__
    return slotted


def _set_new(cls: type, name: str, method: Any) -> None:
    if name not in cls.__dict__:
        if callable(method) and hasattr(method, "__qualname__"):
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            method.__name__ = name
        setattr(cls, name, method)


def _process(cls: type, slots: bool, eq: bool, order: bool) -> type:
    all_fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        all_fields.update(base.__dict__.get("__value_fields__", {}))
    own: list[Field] = []
    # inspect.get_annotations would import inspect, which is what this module avoids.
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063
        if _is_classvar(annotation):
            continue
        default = cls.__dict__.get(name, MISSING)
        f = default if isinstance(default, Field) else Field(default, MISSING, True, True, True)
        f.name, f.type = name, annotation
        all_fields[name] = f
        own.append(f)
    seen_default = False
    for f in all_fields.values():
        if not f.init:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
    for f in own:
        if isinstance(cls.__dict__.get(f.name), Field):  # as dataclasses: the class attribute is the default
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
    if order:
        for name in ("__lt__", "__le__", "__gt__", "__ge__"):
            if name in cls.__dict__:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}; "
                                f"consider using functools.total_ordering")
    class_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in cls.__dict__))

    if slots:
        cls = _with_slots(cls, list(all_fields))
    cls.__value_fields__ = all_fields  # type: ignore[attr-defined]
    flist = list(all_fields.values())
    names = frozenset(all_fields)
    frozen_cls: type = cls

    _set_new(cls, "__init__", _make_init(cls, flist))

    repr_names = tuple(f.name for f in flist if f.repr)
    repr_values = _key(repr_names)

    shown = ", ".join(f"{n}={{!r}}" for n in repr_names)

    def repr_(self: Any) -> str:
        return f"{self.__class__.__qualname__}({shown.format(*repr_values(self))})"
    _set_new(cls, "__repr__", repr_)

    key = _key(tuple(f.name for f in flist if f.compare))
    if eq:
        def eq_(self: Any, other: object) -> Any:
            if other.__class__ is self.__class__:
                return key(self) == key(other)
            return NotImplemented
        _set_new(cls, "__eq__", eq_)
        if not explicit_hash:
            def hash_(self: Any) -> int:
                return hash(key(self))
            hash_.__name__, hash_.__qualname__ = "__hash__", f"{cls.__qualname__}.__hash__"
            cls.__hash__ = hash_  # type: ignore[assignment]
    if order:
        def lt(self: Any, other: object) -> Any:
            if other.__class__ is self.__class__:
                return key(self) < key(other)
            return NotImplemented

        def le(self: Any, other: object) -> Any:
            if other.__class__ is self.__class__:
                return key(self) <= key(other)
            return NotImplemented

        def gt(self: Any, other: object) -> Any:
            if other.__class__ is self.__class__:
                return key(self) > key(other)
            return NotImplemented

        def ge(self: Any, other: object) -> Any:
            if other.__class__ is self.__class__:
                return key(self) >= key(other)
            return NotImplemented
        for name, method in (("__lt__", lt), ("__le__", le), ("__gt__", gt), ("__ge__", ge)):
            _set_new(cls, name, method)

    def setattr_(self: Any, name: str, value: Any) -> None:
        if type(self) is frozen_cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(frozen_cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def delattr_(self: Any, name: str) -> None:
        if type(self) is frozen_cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(frozen_cls, self).__delattr__(name)  # type: ignore[arg-type]
    _set_new(cls, "__setattr__", setattr_)
    _set_new(cls, "__delattr__", delattr_)

    _set_new(cls, "__match_args__", tuple(f.name for f in flist if f.init))
    _set_new(cls, "__replace__", _make_replace(cls, flist))

    if slots:
        get_state = _key(tuple(all_fields))
        set_state = _setter(cls, tuple(all_fields))
        set_attr = object.__setattr__

        def getstate(self: Any) -> tuple[Any, ...]:
            if self.__class__ is frozen_cls:
                return get_state(self)
            return tuple(getattr(self, name) for name in self.__value_fields__)  # a subclass's fields too

        def setstate(self: Any, state: Sequence[Any]) -> None:
            if self.__class__ is frozen_cls:
                set_state(self, state)
            else:
                for name, v in zip(self.__value_fields__, state, strict=True):
                    set_attr(self, name, v)
        _set_new(cls, "__getstate__", getstate)
        _set_new(cls, "__setstate__", setstate)
    return cls


@overload
def value(cls: type[_T], /) -> type[_T]: ...
@overload
def value(*, slots: bool = True, eq: bool = True, order: bool = False) -> Callable[[type[_T]], type[_T]]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def value(cls: type[_T] | None = None, /, *, slots: bool = True, eq: bool = True,
          order: bool = False) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """Make *cls* a frozen value type (as ``@dataclass(frozen=True, slots=slots, eq=eq, order=order)``)."""
    def wrap(c: type[_T]) -> type[_T]:
        return _process(c, slots, eq, order)
    return wrap if cls is None else wrap(cls)
