"""The JSONL reader streams a file line by line (a huge transcript's bytes are never held with its
records); it must read exactly what splitting the whole file's bytes reads: the same records,
problems, line numbers and resume offset, including lines over the size limit (skipped in chunks,
never loaded) and a torn last line."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.adapters import _jsonl
from smriti.adapters._jsonl import JsonlRead, _bytes_lines, _file_lines, _split, read_jsonl

_line = st.one_of(
    st.dictionaries(st.sampled_from(["type", "a", "b"]), st.text(max_size=12), max_size=3).map(
        lambda d: json.dumps(d).encode()
    ),
    st.binary(max_size=40),  # junk, invalid UTF-8, JSON that is not an object
    st.sampled_from([b"", b"  ", b"[1]", b'{"x": 1', b"\xff\xfe", b'"text"']),
)


def _read(lines, max_line_bytes: int) -> JsonlRead:
    out = JsonlRead()
    _split(lines, "t.jsonl", 7, 3, out, live=True, max_line_bytes=max_line_bytes)
    return out


def _outcome(r: JsonlRead) -> tuple:
    return (r.records, r.errors, r.warnings, r.offset, r.first_line, r._lines_consumed)


@given(
    lines=st.lists(_line, max_size=8),
    trailing_newline=st.booleans(),
    max_line_bytes=st.integers(1, 48),
)
@settings(max_examples=300, deadline=None)
def test_streamed_lines_read_as_the_whole_bytes_do(lines: list[bytes], trailing_newline: bool, max_line_bytes: int):
    data = b"\n".join(lines) + (b"\n" if trailing_newline and lines else b"")
    streamed = _read(_file_lines(io.BufferedReader(io.BytesIO(data), buffer_size=16), max_line_bytes), max_line_bytes)
    whole = _read(_bytes_lines(data), max_line_bytes)
    assert _outcome(streamed) == _outcome(whole)


@pytest.mark.parametrize("stream_above", [0, _jsonl.STREAM_ABOVE], ids=["streamed", "one-read"])
def test_a_line_over_the_limit_is_skipped_and_the_rest_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stream_above: int
) -> None:
    monkeypatch.setattr(_jsonl, "STREAM_ABOVE", stream_above)  # this small file read both ways
    path = tmp_path / "s.jsonl"
    big = json.dumps({"type": "user", "blob": "x" * 5000})
    path.write_text(f'{{"type": "a"}}\n{big}\n{{"type": "b"}}\n')
    out = read_jsonl(path, max_line_bytes=1000, now=time.time() + 10_000)
    assert [r["type"] for _, r in out.records] == ["a", "b"]
    assert [(e.line, e.error) for e in out.errors] == [(2, "line is 0.0 MB, over the 0 MB limit; skipped")]
    assert out.offset == path.stat().st_size
    # resumed at that offset after an append: only the new line, numbered on
    with path.open("a") as fh:
        fh.write('{"type": "c"}\n')
    again = read_jsonl(path, out.resume_point(), max_line_bytes=1000)
    assert [(n, r["type"]) for n, r in again.records] == [(4, "c")] and not again.restarted
