"""Resumable reading of append-only JSONL transcripts, shared by every JSONL adapter.

The resume point is `{"offset": bytes consumed, "tail": sha256 of the bytes just before it}`:
if the file shrank or those bytes changed (the file was rewritten, not appended), reading starts
over from 0. A last line without a newline that does not parse yet is the agent still writing:
it is left for the next run (a warning while the file is fresh, an error once it is old).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti.models import Problem

MAX_LINE_BYTES = 4 * 1024 * 1024
TAIL_BYTES = 4096
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

    def resume_point(self, **state: Any) -> dict[str, Any]:
        return {"offset": self.offset, "line": self.first_line + self._lines_consumed, "tail": self.tail, **state}

    _lines_consumed: int = 0


def _json_type(obj: Any) -> str:
    if isinstance(obj, bool):
        return "boolean"
    if isinstance(obj, (int, float)):
        return "number"
    return {str: "string", list: "array", type(None): "null"}.get(type(obj), type(obj).__name__)


def _tail_hash(data: bytes) -> str:
    return hashlib.sha256(data[-TAIL_BYTES:]).hexdigest()


def read_jsonl(path: Path, resume: Any = None, *, now: float | None = None) -> JsonlRead:
    """Read the complete lines of `path` after the resume point; never raises for bad content."""
    out = JsonlRead()
    p = str(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
        mtime = os.stat(path).st_mtime
    except IsADirectoryError:
        out.errors.append(Problem(p, "is a directory, not a transcript file"))
        return out
    except PermissionError:
        out.errors.append(Problem(p, "permission denied: cannot read the file"))
        return out
    except OSError as exc:
        out.errors.append(Problem(p, f"cannot read the file: {exc.strerror or exc}"))
        return out

    start, line_no = 0, 1
    if isinstance(resume, dict) and isinstance(resume.get("offset"), int):
        off = resume["offset"]
        if 0 < off <= len(data) and _tail_hash(data[:off]) == resume.get("tail"):
            start, line_no = off, int(resume.get("line") or 1)
        else:
            out.restarted = True
    out.first_line = line_no

    if not data:
        out.errors.append(Problem(p, "empty file: no records"))
        return out

    pos = start
    consumed = start
    n = len(data)
    while pos < n:
        nl = data.find(b"\n", pos)
        complete = nl != -1
        end = nl if complete else n
        raw = data[pos:end]
        next_pos = end + 1 if complete else n
        if len(raw) > MAX_LINE_BYTES:
            out.errors.append(
                Problem(p, f"line is {len(raw) / 1_048_576:.1f} MB, over the {MAX_LINE_BYTES // 1_048_576} MB limit; skipped", line_no)
            )
        elif raw.strip():
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                out.errors.append(Problem(p, f"invalid UTF-8 at byte {exc.start}; line skipped", line_no))
            else:
                try:
                    obj = json.loads(text)
                except ValueError as exc:
                    if not complete:
                        # A torn last line: the agent may still be writing it.
                        age = (now if now is not None else time.time()) - mtime
                        if age < LIVE_WRITE_SECONDS:
                            out.warnings.append(Problem(p, "last line is incomplete (still being written); left for the next run", line_no))
                        else:
                            out.errors.append(Problem(p, "last line is truncated (no newline, not valid JSON); left unread", line_no))
                        break
                    out.errors.append(Problem(p, f"malformed JSON ({exc.msg} at column {exc.colno}); line skipped", line_no))
                else:
                    if isinstance(obj, dict):
                        out.records.append((line_no, obj))
                    else:
                        out.errors.append(Problem(p, f"line is a JSON {_json_type(obj)}, not an object; skipped", line_no))
        pos = next_pos
        consumed = pos
        line_no += 1
    out.offset = consumed
    out._lines_consumed = line_no - out.first_line
    out.tail = _tail_hash(data[:consumed])
    return out


def iter_files(root: Path, patterns: tuple[str, ...]) -> Iterator[Path]:
    """Files under root matching any glob pattern, sorted for a stable ingest order."""
    if root.is_file():
        yield root
        return
    seen: set[Path] = set()
    for pattern in patterns:
        for found in sorted(root.glob(pattern)):
            if found not in seen:
                seen.add(found)
                yield found
