"""`NamedTuple` for the classes a `smriti search` process builds, without importing `typing`.

The store's rows, `index.Hit`/`Filters` and `search.SearchHit` are declared as
`class Row(NamedTuple): field: type = default …` with methods, exactly as with
`typing.NamedTuple`, which is what the type checker sees (`if TYPE_CHECKING:` in each module).
At run time this one makes the same class (`collections.namedtuple` with the class body's
methods, properties and docstring) without `typing`'s import (a few ms of every search process)
or its checking of each annotation (with `from __future__ import annotations` they are strings,
and `typing` compiles each into a ForwardRef). tests/test_records.py compares the two.
"""

from __future__ import annotations

from collections import namedtuple

# What a class body may not define (namedtuple's own), and what it defines that is not an attribute.
_PROHIBITED = frozenset(
    {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults", "_make", "_replace", "_asdict"}
)
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})


class _NamedTupleMeta(type):
    def __new__(mcs, typename: str, bases: tuple, ns: dict) -> type:
        fields = list(ns.get("__annotations__", {}))
        defaults = [ns[name] for name in fields if name in ns]
        cls = namedtuple(typename, fields, defaults=defaults, module=ns["__module__"])  # type: ignore[misc]
        cls.__annotations__ = dict(ns.get("__annotations__", {}))
        for key, value in ns.items():
            if key in _PROHIBITED:
                raise AttributeError(f"cannot overwrite NamedTuple attribute {key}")
            if key not in _SPECIAL and key not in fields:
                setattr(cls, key, value)
        return cls


NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
