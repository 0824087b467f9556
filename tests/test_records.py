"""smriti.records.NamedTuple makes the classes typing.NamedTuple makes (without importing typing)."""

from __future__ import annotations

import pickle
import typing

import pytest

from smriti import records


def _declare(base: type) -> type:
    class Row(base):  # type: ignore[misc,valid-type]
        """A row."""

        rowid: int
        title: str | None
        tags: list[str] = []  # noqa: RUF012 (a default, shared as in typing.NamedTuple)
        status: str = "active"

        @property
        def label(self) -> str:
            return f"{self.rowid}:{self.title}"

        def to_json(self) -> dict:
            return self._asdict()

    return Row


Ours = _declare(records.NamedTuple)
Theirs = _declare(typing.NamedTuple)


def test_the_class_is_a_named_tuple_like_typings() -> None:
    assert Ours._fields == Theirs._fields == ("rowid", "title", "tags", "status")
    assert Ours._field_defaults == Theirs._field_defaults == {"tags": [], "status": "active"}
    assert Ours.__doc__ == Theirs.__doc__ == "A row."
    # the same annotations, kept as the strings they are (typing wraps each in a ForwardRef)
    assert Ours.__annotations__ == {k: v.__forward_arg__ for k, v in Theirs.__annotations__.items()}
    assert Ours.__module__ == Theirs.__module__ and issubclass(Ours, tuple)
    ours, theirs = Ours(1, "t"), Theirs(1, "t")
    assert tuple(ours) == tuple(theirs)
    assert repr(ours) == repr(theirs) == "Row(rowid=1, title='t', tags=[], status='active')"
    assert ours.label == theirs.label == "1:t" and ours.to_json() == theirs.to_json()
    assert ours._replace(status="withdrawn") == Ours(1, "t", [], "withdrawn")
    assert Ours(rowid=2, title=None, status="x") == Ours(2, None, [], "x")
    with pytest.raises(AttributeError):
        ours.rowid = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        Ours(1)  # type: ignore[call-arg]


def test_a_row_pickles_and_hashes() -> None:
    from smriti.index import Filters

    f = Filters(agents=("codex",))
    assert pickle.loads(pickle.dumps(f)) == f and hash(f) == hash(Filters(agents=("codex",)))


def test_namedtuples_own_names_cannot_be_redefined() -> None:
    with pytest.raises(AttributeError):

        class Bad(records.NamedTuple):  # type: ignore[misc,valid-type]
            x: int

            def _replace(self) -> None: ...
