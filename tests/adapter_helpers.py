"""Scaffolding the adapter tests share: where the shared fixtures are,
small readers of a ParseResult, the resume-at-a-cut check, and the garbage-input checks with their
hypothesis strategies. Imported like conftest: `from adapter_helpers import …`."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_FIXTURES
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from smriti.models import Message, ParseResult, Problem, Session

SHARED = SHARED_FIXTURES  # the fixtures shared between the agents' tools, when present
FIXTURES = Path(__file__).resolve().parent / "fixtures"

# --- fixtures ------------------------------------------------------------------------------------


def shared_fixtures(folder: str) -> tuple[Path, pytest.MarkDecorator]:
    """One agent's shared fixture folder, and the mark that skips a test when it is absent."""
    path = SHARED / folder
    return path, pytest.mark.skipif(not path.is_dir(), reason="shared fixtures absent")


def shared_files(folder: Path, pattern: str = "*") -> list[Path]:
    """The shared fixture files, sorted; none when the folder is absent (a parametrized test then has no case)."""
    return sorted(folder.glob(pattern)) if folder.is_dir() else []


def copy_to(tmp_path: Path, source: Path) -> Path:
    """A copy of a fixture under its own name in tmp_path, for a test that appends to or rewrites it."""
    path = tmp_path / source.name
    shutil.copy(source, path)
    return path


def make_old(path: Path) -> float:
    """Date the file a day back, so a torn last line is an error, not a live write; returns the time set."""
    old = time.time() - 86400
    os.utime(path, (old, old))
    return old


def physical_lines(path: Path) -> list[bytes]:
    """The file's lines split on LF only (bytes.splitlines would also split on a raw CR inside a line)."""
    return [line + b"\n" for line in path.read_bytes().split(b"\n")[:-1]]


# --- reading a ParseResult -----------------------------------------------------------------------


def kinds(session: Session) -> dict[str, int]:
    return dict(Counter(m.kind for m in session.messages))


def only(result: ParseResult) -> Session:
    (session,) = result.sessions
    return session


def texts(session: Session, kind: str) -> list[str]:
    return [m.text for m in session.messages if m.kind == kind]


def by_id(result: ParseResult) -> dict[str, Session]:
    return {s.native_id: s for s in result.sessions}


def problems(items: list[Any], path: Path) -> list[str]:
    """Problems as "line: error" text without the path in front (one file's)."""
    return [str(p).removeprefix(f"{path}:").removeprefix(f"{path}").lstrip(": ") for p in items]


def errors_of(items: list[Problem], path: Path) -> list[str]:
    """Problems as "line: error" text, all of them about `path`."""
    assert {p.path for p in items} <= {str(path)}
    return [p.error if p.line is None else f"{p.line}: {p.error}" for p in items]


def keys(result: ParseResult) -> set[str]:
    return {m.key for s in result.sessions for m in s.messages}


def merged(*results: ParseResult) -> dict[str, Message]:
    out: dict[str, Message] = {}
    for result in results:
        for session in result.sessions:
            out.update({m.key: m for m in session.messages})
    return out


def clean_session(adapter: Any, path: Path) -> Session:
    """The one session of a file that parses without errors or warnings (its resume point is JSON)."""
    result = adapter.parse(path)
    assert result.errors == [] and result.warnings == []
    json.dumps(result.resume)
    return only(result)


def assert_unreadable(adapter: Any, path: Path, content: bytes, error: str) -> None:
    """A file holding `content` yields no session and exactly this error."""
    path.write_bytes(content)
    result = adapter.parse(path)
    assert result.sessions == [] and [e.error for e in result.errors] == [error]


def assert_not_detected(adapter: Any, *folders: str) -> None:
    """No file of these other agents' shared fixtures is taken for this adapter's."""
    for folder in folders:
        for path in sorted((SHARED / folder).iterdir()):
            assert not adapter.detect(path), path


# --- resume --------------------------------------------------------------------------------------


def parse_in_two(adapter: Any, lines: list[bytes], path: Path, cut: int) -> tuple[ParseResult, ParseResult]:
    """The first `cut` lines written to `path` and parsed, then the rest appended and parsed from the resume point."""
    path.write_bytes(b"".join(lines[:cut]))
    first = adapter.parse(path)
    with open(path, "ab") as fh:
        fh.write(b"".join(lines[cut:]))
    return first, adapter.parse(path, first.resume)


def assert_resume_at_cut(adapter: Any, source: Path, path: Path, cut: int) -> tuple[ParseResult, ParseResult, Session]:
    """`source` read in two at line `cut`: no message comes twice and the two reads make the whole
    file's messages. Returns (first read, second read, the whole file's session)."""
    first, second = parse_in_two(adapter, physical_lines(source), path, cut)
    json.dumps(second.resume)
    assert second.errors == [] and not keys(first) & keys(second)
    whole = only(adapter.parse(source))
    assert merged(first, second) == {m.key: m for m in whole.messages}
    return first, second, whole


def assert_nothing_new(adapter: Any, path: Path) -> None:
    """A parse from the resume point of an unchanged file returns nothing at all."""
    first = adapter.parse(path)
    again = adapter.parse(path, first.resume)
    assert again.sessions == [] and again.errors == [] and again.warnings == []


# --- garbage never makes parse raise -------------------------------------------------------------

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)


def garbage_lines(record: st.SearchStrategy[str], *more: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """Up to ten lines, each a record (or one of `more`), any JSON value, or junk bytes."""
    junk = st.binary(max_size=40).map(lambda b: b.decode("latin-1"))
    return st.lists(st.one_of(record, json_value.map(json.dumps), *more, junk), max_size=10)


def assert_garbage_handled(adapter: Any, path: Path, result: ParseResult, damaged_resume: dict[str, Any]) -> None:
    """What garbage must give: only Problems, a JSON resume point, and no exception from a damaged
    resume point or from detect."""
    assert all(isinstance(p, Problem) for p in [*result.errors, *result.warnings])
    json.dumps(result.resume)
    adapter.parse(path, damaged_resume)
    assert isinstance(adapter.detect(path), bool)


def assert_garbage_bytes_handled(adapter: Any, path: Path, raw: bytes) -> None:
    """Any bytes at all: parse returns a ParseResult and detect a bool, neither raises."""
    path.write_bytes(raw)
    assert isinstance(adapter.parse(path), ParseResult)
    assert isinstance(adapter.detect(path), bool)
