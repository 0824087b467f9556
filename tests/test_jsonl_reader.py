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


@given(
    lines=st.lists(_line, max_size=8),
    trailing_newline=st.booleans(),
    max_line_bytes=st.integers(1, 48),
    stop_after=st.integers(0, 8),
)
@settings(max_examples=300, deadline=None)
def test_records_streamed_to_a_sink_are_the_records_held(
    lines: list[bytes], trailing_newline: bool, max_line_bytes: int, stop_after: int
):
    data = b"\n".join(lines) + (b"\n" if trailing_newline and lines else b"")
    held = _read(_bytes_lines(data), max_line_bytes)
    got: list = []
    streamed = JsonlRead()
    sink = lambda n, r: got.append((n, r))  # noqa: E731
    _split(_bytes_lines(data), "t.jsonl", 7, 3, streamed, live=True, max_line_bytes=max_line_bytes, sink=sink)
    assert streamed.records == []
    assert (got, *_outcome(streamed)[1:]) == _outcome(held)
    # A sink that says "enough" stops the reading right after that record.
    few: list = []
    stopped = JsonlRead()
    _split(
        _bytes_lines(data),
        "t.jsonl",
        7,
        3,
        stopped,
        live=True,
        max_line_bytes=max_line_bytes,
        sink=lambda n, r: few.append((n, r)) or len(few) > stop_after,
    )
    assert few == held.records[: stop_after + 1]


@given(
    lines=st.lists(_line, max_size=8),
    more=st.lists(_line, min_size=1, max_size=4),
    torn=st.booleans(),
    max_line_bytes=st.integers(1, 48),
)
@settings(max_examples=300, deadline=None)
def test_stop_at_reads_what_a_first_read_saw_of_a_file_that_grew(
    lines: list[bytes], more: list[bytes], torn: bool, max_line_bytes: int
):
    """A second read stopped at the first read's offset reads what the first did, whatever was
    appended in between (a torn last line that is still torn reads as torn again)."""
    data = b"".join(line + b"\n" for line in lines) + (b'{"torn": ' if torn else b"")
    first = _read(_bytes_lines(data), max_line_bytes)
    grown = data + (b"" if torn else b"".join(line + b"\n" for line in more))
    again = JsonlRead()
    _split(_bytes_lines(grown), "t.jsonl", 7, 3, again, live=True, max_line_bytes=max_line_bytes, stop_at=first.offset)
    assert _outcome(again) == _outcome(first)


@settings(max_examples=60, deadline=None)
@given(
    first=st.lists(st.integers(0, 3000), min_size=1, max_size=8),
    more=st.lists(st.integers(0, 3000), max_size=5),
    torn=st.booleans(),
    stream=st.booleans(),
)
def test_the_resume_hashes_are_those_of_the_files_bytes(
    tmp_path_factory, first: list[int], more: list[int], torn: bool, stream: bool
) -> None:
    # A small source is read at once and its tail hash taken from those bytes, not read again; it
    # must be the hash of the file's TAIL_BYTES before the offset, as when it is read again
    # (a streamed one), for a fresh read and for one resumed after an append.
    with pytest.MonkeyPatch.context() as patch:
        if stream:
            patch.setattr(_jsonl, "STREAM_ABOVE", 0)
        _check_resume_hashes(tmp_path_factory.mktemp("tails") / "s.jsonl", first, more, torn)


def _check_resume_hashes(path: Path, first: list[int], more: list[int], torn: bool) -> None:

    def lines(sizes: list[int], tag: str) -> bytes:
        return b"".join(json.dumps({"type": tag, "pad": "x" * n}).encode() + b"\n" for n in sizes)

    path.write_bytes(lines(first, "a") + (b'{"torn": ' if torn else b""))
    read = read_jsonl(path)
    data = path.read_bytes()
    assert read.offset == len(lines(first, "a"))
    assert (read.head, read.head_len) == (_jsonl._hash(data[:4096]), min(4096, len(data)))
    assert read.tail == _jsonl._hash(data[max(0, read.offset - 4096) : read.offset])
    with path.open("ab") as fh:  # the torn line completed, and more lines
        fh.write((b"1}\n" if torn else b"") + lines(more, "b"))
    again = read_jsonl(path, read.resume_point())
    data = path.read_bytes()
    assert not again.restarted and again.offset == len(data)
    assert again.tail == _jsonl._hash(data[max(0, again.offset - 4096) : again.offset])
