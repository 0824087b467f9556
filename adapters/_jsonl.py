"""Resumable reading of append-only JSONL transcripts, shared by every JSONL adapter.

The resume point is `{"offset": bytes consumed, "line": next line number, "tail": sha256 of the
bytes just before the offset, "head": sha256 of the file's first bytes}`: if the file shrank or
either changed (the file was rewritten, not appended), reading starts over from 0. A last line
without a newline that does not parse yet is the agent still writing: it is left for the next run
(a warning while the file is fresh, an error once it is old).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from smriti.models import Problem

MAX_LINE_BYTES = 4 * 1024 * 1024
# A source larger than this is refused, not read: no agent writes a transcript near it, and a file
# that claims to be one (a link to a disk image, a log gone wild) would otherwise fill memory.
MAX_SOURCE_BYTES = 1024 * 1024 * 1024
# A source read whole (one JSON document, a Markdown history, a compressed rollout) is held in
# memory at once, bytes and parsed values together (several times its size): a lower cap. The
# largest real ones (a long Cline task, a Gemini chat) are tens of MB.
MAX_WHOLE_SOURCE_BYTES = 256 * 1024 * 1024
# A side file that only adds facts (a sidecar's metadata, a workspace.yaml, an editor's settings).
MAX_SIDE_FILE_BYTES = 16 * 1024 * 1024
TAIL_BYTES = 4096
# Sources with more unread bytes than this are split line by line as they are read (bounded memory).
STREAM_ABOVE = 8 * 1024 * 1024
# A torn last line in a file untouched for this long is no longer a live write: report it.
LIVE_WRITE_SECONDS = 600


@dataclass
class JsonlRead:
    """The outcome of reading a JSONL file: records with their line numbers, and problems."""

    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    offset: int = 0  # bytes consumed: resume here next time
    first_line: int = 1  # line number of the first line read
    restarted: bool = False  # the resume point was stale and the file was read from the start
    tail: str = ""

    # sha256 of the file's first bytes (head_len of them, fixed at the first read): a rewrite of
    # the start is caught even when the bytes just before the offset happen to match.
    head: str | None = None
    head_len: int | None = None

    def resume_point(self, **state: Any) -> dict[str, Any]:
        return {
            "offset": self.offset,
            "line": self.first_line + self._lines_consumed,
            "tail": self.tail,
            "head": self.head,
            "head_len": self.head_len,
            **state,
        }

    _lines_consumed: int = 0


_decoder = msgspec.json.Decoder()


def decode_json(data: bytes) -> Any:
    """One JSON document from UTF-8 bytes, exactly as `json.loads(data.decode("utf-8"))` reads it
    (the same values, the same exceptions), about four times faster: the ingest path's decoder.

    msgspec reads what it can; whatever it refuses (malformed or invalid UTF-8, but also what the
    stdlib accepts and msgspec does not: NaN, 1e400, lone surrogate escapes) is read again by the
    stdlib, so those values and every error message stay as they were. The prompt hook does not
    come here (it has its own lean reader)."""
    try:
        return _decoder.decode(data)
    except (msgspec.MsgspecError, ValueError, RecursionError):
        return json.loads(data.decode("utf-8"))


class NotRegularFile(OSError):
    """A source that is a device, a FIFO or a socket (directly or through a link): never read."""


def describe_mode(mode: int) -> str:
    """How a user would name a non-regular file's type."""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a regular file"


def open_regular(path: Path | str, max_bytes: int = MAX_SOURCE_BYTES) -> BinaryIO:
    """`path` (links followed) opened for reading when it is a regular file of at most `max_bytes`.

    Opened non-blocking and checked with fstat on the open descriptor: opening a FIFO for reading
    would wait for a writer for ever, and a check by path before opening could be raced. Raises
    NotRegularFile (an OSError) for a device, FIFO or socket, IsADirectoryError for a folder, and
    an OSError saying so for a file over the size cap.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(f"is {describe_mode(st.st_mode)}, not a regular file; not read")
        if st.st_size > max_bytes:
            size, cap = st.st_size / 1_048_576, max_bytes // 1_048_576
            raise OSError(f"is {size:,.0f} MB, over the {cap:,} MB limit for a source; not read")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_whole(path: Path | str) -> bool:
    """Whether a source is read whole into memory: every one but a JSONL transcript (read line by
    line) and a SQLite database (queried). Looked at by name, and by header only for a file that
    is not named .jsonl (16 bytes)."""
    if str(path).endswith(".jsonl"):
        return False
    try:
        with open_regular(path) as fh:
            return fh.read(16) != b"SQLite format 3\x00"
    except OSError:
        return True


def read_regular(path: Path | str, max_bytes: int = MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a regular file (see `open_regular`), never more than its size when opened: a
    file that keeps growing while it is read is read up to that size."""
    with open_regular(path, max_bytes) as fh:
        return fh.read(os.fstat(fh.fileno()).st_size)


def oserror_text(exc: OSError) -> str:
    """An OSError's words for a user: our own refusals carry their full sentence."""
    if isinstance(exc, NotRegularFile) or exc.errno is None:
        return str(exc)
    return f"cannot read the file: {exc.strerror or exc}"


def json_type_name(obj: Any) -> str:
    """How a user would name a JSON value's type in an error message."""
    if isinstance(obj, bool):
        return "boolean"
    if isinstance(obj, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}.get(type(obj), type(obj).__name__)


def _hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _resume_at(fh: BinaryIO, size: int, resume: Any) -> tuple[int, int] | None:
    """The offset and line of a still-valid resume point, `fh` positioned there; None when stale.

    Only the first and the last TAIL_BYTES before the offset are re-read and compared, so a
    large transcript that grew by one line costs one small read, not a full one.
    """
    if not (isinstance(resume, dict) and isinstance(resume.get("offset"), int)):
        return None
    off = resume["offset"]
    if not 0 < off <= size:
        return None
    head_len = resume.get("head_len")
    if isinstance(head_len, int) and 0 < head_len <= off and _hash(fh.read(head_len)) != resume.get("head"):
        return None
    window = max(0, off - TAIL_BYTES)
    fh.seek(window)
    if _hash(fh.read(off - window)) != resume.get("tail"):
        return None
    return off, int(resume.get("line") or 1)


# One line of a file: (its bytes without the newline, or None when it was over the size limit and
# skipped unread; its length without the newline; whether a newline ended it; bytes consumed).
Line = tuple[bytes | None, int, bool, int]


def _file_lines(fh: BinaryIO, max_line_bytes: int) -> Iterator[Line]:
    """The lines from `fh`'s position to its end, one at a time: a huge transcript is never held
    whole (its records are what the adapter needs), and a line over the limit is skipped in
    chunks, never loaded."""
    while True:
        raw = fh.readline(max_line_bytes + 2)  # the limit, one byte over it, and the newline
        if not raw:
            return
        if raw.endswith(b"\n"):
            yield raw[:-1], len(raw) - 1, True, len(raw)
        elif len(raw) <= max_line_bytes + 1:  # the end of the file came first: a last line without newline
            yield raw, len(raw), False, len(raw)
        else:
            consumed, complete = len(raw), False
            while not complete:
                more = fh.readline(1 << 20)
                if not more:
                    break
                consumed += len(more)
                complete = more.endswith(b"\n")
            yield None, consumed - complete, complete, consumed


def _bytes_lines(data: bytes) -> Iterator[Line]:
    pos, n = 0, len(data)
    while pos < n:
        nl = data.find(b"\n", pos)
        end = nl if nl != -1 else n
        consumed = end + 1 - pos if nl != -1 else n - pos
        yield data[pos:end], end - pos, nl != -1, consumed
        pos += consumed


# A record consumer: called with each record as it is parsed; a true return stops the reading.
Sink = Callable[[int, dict[str, Any]], Any]


def read_jsonl(
    path: Path,
    resume: Any = None,
    *,
    now: float | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
    drop_keys: frozenset[str] = frozenset(),
    consumer: Callable[[JsonlRead], Sink] | None = None,
    stop_at: int | None = None,
) -> JsonlRead:
    """Read the complete lines of `path` after the resume point; never raises for bad content.

    `drop_keys`: top-level keys the adapter never reads, dropped as each line is parsed — in a
    large transcript a duplicate of every tool output (Claude Code's `toolUseResult`) is a third
    of the records' memory.

    `consumer`: stream the records instead of returning them. Called once, once the resume point
    is settled (`restarted` is known), it returns the sink that then gets each record as it is
    parsed; `records` stays empty, so a huge transcript's records are never all alive at once (an
    adapter that needs to look at them all before reading any reads the file twice, the first
    time with a sink that returns true to stop as soon as it knows enough: `offset` and `tail`
    then stand for the lines read, not the file).

    `stop_at`: a file offset where complete lines are no longer read (left for the next run): the
    second read of a two-pass adapter reads what the first one saw, even of a file still growing."""
    p = str(path)
    out = JsonlRead()
    whole: bytes | None = None  # a small source's unread bytes, read at once
    try:
        with open_regular(path) as fh:
            st = os.fstat(fh.fileno())
            resumed = _resume_at(fh, st.st_size, resume)
            if resumed is None:
                out.restarted = resume is not None
                fh.seek(0)
                # a small source's head is the start of its bytes, read whole below: one read, not two
                whole = fh.read(st.st_size) if st.st_size <= STREAM_ABOVE else None
                head: bytes | None = whole[:TAIL_BYTES] if whole is not None else fh.read(TAIL_BYTES)
                start, line = 0, 1
            else:
                (start, line), head = resumed, None
            if start == 0 and not head:
                out.errors.append(Problem(p, "empty file: no records"))
                return out
            age = (now if now is not None else time.time()) - st.st_mtime
            # A big file line by line, not the whole of it read first: the bytes of a huge
            # transcript and its parsed records are never held at once. A small one in one read
            # (the same lines, ~20% faster to split than line by line: most sources are small).
            if whole is None:
                fh.seek(start)
                # up to the size seen at open: a file that keeps growing is read up to there (small ones)
                whole = None if st.st_size - start > STREAM_ABOVE else fh.read(st.st_size - start)
            lines = _file_lines(fh, max_line_bytes) if whole is None else _bytes_lines(whole)
            _split(
                lines,
                p,
                start,
                line,
                out,
                live=age < LIVE_WRITE_SECONDS,
                max_line_bytes=max_line_bytes,
                drop_keys=drop_keys,
                sink=consumer(out) if consumer is not None else None,
                stop_at=stop_at,
            )
    except IsADirectoryError:
        out.errors.append(Problem(p, "is a directory, not a transcript file"))
        return out
    except PermissionError:
        out.errors.append(Problem(p, "permission denied: cannot read the file"))
        return out
    except OSError as exc:
        out.errors.append(Problem(p, oserror_text(exc)))
        return out
    if head is not None:
        out.head, out.head_len = _hash(head), len(head)
    else:
        out.head, out.head_len = resume.get("head"), resume.get("head_len")
    if out.offset > start or start == 0:
        # The tail hash covers the last TAIL_BYTES before the new offset.
        window = max(0, out.offset - TAIL_BYTES)
        if whole is not None and window >= start:  # those bytes were read already (a small source)
            out.tail = _hash(whole[window - start : out.offset - start])
        else:
            with open_regular(path) as fh:
                fh.seek(window)
                out.tail = _hash(fh.read(out.offset - window))
    else:
        out.tail = (resume or {}).get("tail", "")
    return out


def read_jsonl_bytes(data: bytes, path: str, *, max_line_bytes: int = MAX_LINE_BYTES) -> JsonlRead:
    """Split already-loaded JSONL (a decompressed `.jsonl.zst`): a finished file, so a torn last
    line is an error, and there is no resume point."""
    out = JsonlRead()
    if not data.strip():
        out.errors.append(Problem(path, "empty file: no records"))
        return out
    _split(_bytes_lines(data), path, 0, 1, out, live=False, max_line_bytes=max_line_bytes)
    return out


def _split(
    lines: Iterable[Line],
    p: str,
    start: int,
    line_no: int,
    out: JsonlRead,
    *,
    live: bool,
    max_line_bytes: int,
    drop_keys: frozenset[str] = frozenset(),
    sink: Sink | None = None,
    stop_at: int | None = None,
) -> None:
    """Parse `lines` (the first begins at file offset `start`) into `out` (its records into `sink`, if given)."""
    out.first_line = line_no
    pos = 0
    keep = out.records.append
    for raw, length, complete, consumed in lines:
        if stop_at is not None and complete and start + pos >= stop_at:
            break
        if raw is None or length > max_line_bytes:
            out.errors.append(
                Problem(
                    p,
                    f"line is {length / 1_048_576:.1f} MB, over the {max_line_bytes // 1_048_576} MB limit; skipped",
                    line_no,
                )
            )
        elif raw.strip():
            try:
                obj = decode_json(raw)
            except UnicodeDecodeError as exc:
                out.errors.append(Problem(p, f"invalid UTF-8 at byte {exc.start}; line skipped", line_no))
            except RecursionError:
                # nested deeper than the parser's stack: this line only, never the whole file
                out.errors.append(Problem(p, "JSON nested too deeply to read; line skipped", line_no))
            except ValueError as exc:
                if not complete:
                    # A torn last line: the agent may still be writing it. Not consumed.
                    if live:
                        out.warnings.append(
                            Problem(p, "last line is incomplete (still being written); left for the next run", line_no)
                        )
                    else:
                        out.errors.append(
                            Problem(p, "last line is truncated (no newline, not valid JSON); left unread", line_no)
                        )
                    break
                # getattr: a too-long integer raises a plain ValueError, with no position.
                where = f"{getattr(exc, 'msg', exc)} at column {getattr(exc, 'colno', '?')}"
                out.errors.append(Problem(p, f"malformed JSON ({where}); line skipped", line_no))
            else:
                if isinstance(obj, dict):
                    for key in drop_keys:
                        obj.pop(key, None)
                    if sink is None:
                        keep((line_no, obj))
                    elif sink(line_no, obj):
                        pos += consumed
                        line_no += 1
                        break
                else:
                    out.errors.append(
                        Problem(p, f"line is a JSON {json_type_name(obj)}, not an object; skipped", line_no)
                    )
        pos += consumed
        line_no += 1
    out.offset = start + pos
    out._lines_consumed = line_no - out.first_line
