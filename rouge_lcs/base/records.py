"""Frozen records: what ``@dataclass(frozen=True)`` makes, without importing :mod:`dataclasses`.

``import dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``,
``linecache``), ``copy`` and ``re``: ~10 ms of a fresh process, for the few records that the
scoring path declares.  This decorator writes the methods ``dataclass(frozen=True)`` writes for
a class of plain fields (annotations, optional defaults, no ``field()``): ``__init__``
(positional or keyword; it ends by calling the class's ``__post_init__()`` if it has one),
``__repr__``, ``__eq__`` (same class, fields compared as a tuple), ``__hash__`` (of that tuple),
and ``__setattr__`` / ``__delattr__`` that raise :class:`FrozenInstanceError`.  Instances keep
a ``__dict__``, so they pickle and copy as frozen dataclasses do.  Methods the class defines
itself (``__reduce__``, ``__repr__`` …) are kept, as ``dataclass`` keeps them.

>>> @record
... class Point:
...     x: int
...     y: int = 0
>>> Point(1), Point(1) == Point(1, 0), hash(Point(1)) == hash((1, 0))
(Point(x=1, y=0), True, True)
>>> replace(Point(1), y=2)
Point(x=1, y=2)
"""

from __future__ import annotations

from operator import attrgetter

# Not `from typing import TYPE_CHECKING`: importing typing costs ~5 ms of a fresh process (it
# imports re), and type checkers (mypy among them) treat any name TYPE_CHECKING as true.  The
# package's modules do the same, pointing here.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from typing_extensions import dataclass_transform

    _T = TypeVar("_T")
else:

    def dataclass_transform(**_options: object) -> Callable[[_T], _T]:
        """At run time a no-op: the marker only tells type checkers what :func:`record` makes."""
        return lambda decorated: decorated


class FrozenInstanceError(AttributeError):
    """Raised on assigning to or deleting a field of a record (as ``dataclasses`` raises its
    ``FrozenInstanceError``, also an ``AttributeError``)."""


#: Each record class's field names, in declaration order.
FIELDS = "__record_fields__"


def _init(names: tuple[str, ...], defaults: dict[str, object], post_init: bool) -> Any:
    """``__init__`` for fields ``names``, compiled from source as ``dataclasses`` compiles its
    own (binding ``*args, **kwargs`` in a loop would make every construction several times
    slower); ``post_init``: it ends by calling ``self.__post_init__()``."""
    params = ", ".join(f"{n}=_default_{n}" if n in defaults else n for n in names)
    # Into the instance's __dict__ at once (past the frozen __setattr__, as dataclasses' own
    # object.__setattr__ calls go): half the source to compile, and a faster construction.
    fields = ", ".join(f"{n!r}: {n}" for n in names)
    body = f"    self.__dict__.update({{{fields}}})\n"
    body += "    self.__post_init__()\n" if post_init else ""
    namespace: dict[str, Any] = {f"_default_{n}": value for n, value in defaults.items()}
    exec(f"def __init__(self, {params}):\n{body}", namespace)  # noqa: S102 - names only
    return namespace["__init__"]


def _key(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The tuple of a record's fields, which ``__eq__`` compares and ``__hash__`` hashes (as
    ``dataclasses`` does); ``attrgetter`` rather than compiled source: ~0.1 ms less a class."""
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return attrgetter(*names) if names else lambda obj: ()


@dataclass_transform(frozen_default=True)
def record(cls: type[_T]) -> type[_T]:
    """Make ``cls`` a frozen record of its annotated fields (see the module docstring)."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    for before, after in zip(names, names[1:]):
        if before in defaults and after not in defaults:
            raise TypeError(f"non-default argument {after!r} follows default argument")

    key = _key(names)

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: object) -> int:
        return hash(key(self))

    def __repr__(self: object) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    methods = {
        "__init__": _init(names, defaults, hasattr(cls, "__post_init__")),
        "__eq__": __eq__,
        "__hash__": __hash__,
        "__repr__": __repr__,
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
    }
    for name, method in methods.items():
        if name == "__hash__" and cls.__dict__.get("__hash__") is not None:
            continue  # the class's own hash
        if name != "__hash__" and name in cls.__dict__:
            continue  # the class's own method
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)
    for attribute in (FIELDS, "__match_args__"):
        setattr(cls, attribute, names)
    return cls


def replace(obj: _T, **changes: object) -> _T:
    """A copy of the record ``obj`` with the given fields changed (``dataclasses.replace``)."""
    names: tuple[str, ...] = getattr(type(obj), FIELDS)
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    values = {n: getattr(obj, n) for n in names}
    values.update(changes)
    return type(obj)(**values)


class _TupleMaker(type):
    """Makes each class written as ``class Name(NamedTuple): field: type ...`` a
    ``collections.namedtuple`` with the class's docstring and methods (what
    ``typing.NamedTuple`` makes, without importing typing)."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> Any:
        if not any(isinstance(base, _TupleMaker) for base in bases):
            return super().__new__(mcls, name, bases, namespace)  # the base class itself
        from collections import namedtuple

        make: Callable[..., Any] = namedtuple  # called with names only known here
        fields = tuple(namespace.get("__annotations__", {}))
        defaults = [namespace[f] for f in fields if f in namespace]
        made = make(name, fields, defaults=defaults, module=namespace["__module__"])
        for key, value in namespace.items():
            if key not in fields and key not in ("__annotations__", "__module__", "__dict__"):
                setattr(made, key, value)
        return made


class _TupleBase(metaclass=_TupleMaker):
    __slots__ = ()


if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    NamedTuple = _TupleBase
    NamedTuple.__doc__ = (
        "Base of typed named tuples (``typing.NamedTuple``'s class syntax; the class made is a "
        "``collections.namedtuple``)."
    )
