"""Windsurf (Cascade) adapter: hook transcripts `~/.windsurf/transcripts/<trajectory_id>.jsonl` in.

Format notes live in docs/session-formats.md §9.3. Only the transcripts Cascade writes for its
hooks can be read. Cascade's own conversations (`~/.codeium/windsurf/cascade/<uuid>.pb`) are
encrypted protobuf with a per-conversation key: they are NOT ingestible, and this adapter never
looks at them.

One append-only JSONL file per trajectory (the session; its id is the file name), one step per
line: `{status, type, <type>: {…}}`. `user_input.user_response` is the prompt,
`planner_response.response` the answer; every other step (`view_file`, `code_action`,
`run_command`, `find`, `grep_search`, `list_directory`, `list_resources`, …) is a tool call named
after its type, with a tool result where the step carries output (`run_command.output` and
`exit_code`, `view_file.content`, `find.output`, a search's `total_results`, …) or failed
(`status: "error"`); a step with nothing of the kind (`list_directory`, `code_action`) is a call
only. The call's input is the step without its output and outcome fields, and without
`code_action.original_content` (the file before the edit, not stored). File paths are `file://`
URIs, read into `files`. The lines carry no ids and no times: keys are
`<trajectory>:<line number>` (stable, the file only grows), messages have no timestamp, and the
session's `ended_at` is the file's mtime (when Cascade last wrote to it), as for Cursor's agent
transcripts; `started_at` stays unknown.

Cascade may write raw control characters inside JSON strings. A line that fails to parse is read
again with control characters allowed, and a step split over several lines by a raw newline is
joined back; only lines that fail the strict read pay for this.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from smriti.adapters._common import (
    OUTPUT_MAX,
    JsonlFileParser,
    classify_user_text,
    compact_json,
    detect_jsonl,
    existing_dirs,
    first_json_line,
    guarded_parse,
    home_dir,
    iso_utc,
    looks_like_path,
    nonempty_str,
    plural,
    resumed,
    tool_call_text,
    user_messages,
)
from smriti.adapters._jsonl import JsonlRead, json_type_name, open_regular, read_jsonl
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "windsurf"

# Keys of a tool step that hold what the tool returned (the result), best first; they and the
# outcome fields are left out of the call's input. `original_content` (the file before a
# code_action) is neither input nor result: it is not stored.
OUTPUT_KEYS = ("output", "content", "results", "result", "stdout", "stderr")
OUTCOME_KEYS = frozenset({"exit_code", "user_rejected", "total_results"})
DROPPED_KEYS = frozenset({"original_content", *OUTCOME_KEYS})
SUMMARY_KEYS = (
    "command",
    "path",
    "file_path",
    "query",
    "pattern",
    "search_path",
    "search_directory",
    "directory_path",
    "url",
    "server_name",
    "uri",
)
PATH_KEYS = ("path", "file_path", "absolute_path", "target_file")
FAILED_STATUSES = frozenset({"error", "failed", "cancelled", "canceled"})
# How many lines a step split by raw newlines may span before it is given up on.
MAX_JOINED_LINES = 64


class WindsurfAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        return [home_dir() / ".windsurf" / "transcripts"]

    def discover(self, root: Path) -> Iterator[Path]:
        """`<trajectory_id>.jsonl` in the transcripts folder (or in `~/.windsurf`)."""
        if root.is_file():
            yield root
            return
        if (root / "transcripts").is_dir():  # ~/.windsurf itself
            root = root / "transcripts"
        try:
            found = [p for p in root.glob("*.jsonl") if p.is_file()]
        except OSError:
            return
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        """A first line shaped `{"type": T, T: {…}, "status": …}`, or the transcripts folder."""
        return detect_jsonl(path, (".windsurf", "transcripts"), self.discover, _sniff)

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(_parse, path, resume, "transcript could not be read")


def _sniff(path: Path) -> bool:
    first = first_json_line(path, strict=False)  # Cascade may write raw control characters
    if not isinstance(first, dict):
        return False
    stype = first.get("type")
    return isinstance(stype, str) and isinstance(first.get(stype), dict) and "status" in first


def _parse(path: Path, resume: Any) -> ParseResult:
    read = read_jsonl(path, resume)
    resuming = resumed(resume, read)
    _recover_control_characters(path, read, resume["offset"] if resuming else 0)
    parser = _Parser(path, _State.load(resume) if resuming else _State())
    for line_no, record in read.records:
        parser.feed(line_no, record)
    found = f"1 session ({plural(parser.steps, 'step')})" if parser.steps else None
    return parser.result(read, resuming=resuming, found=found)


# --- the tolerant read ---------------------------------------------------------------------------


def _recover_control_characters(path: Path, read: JsonlRead, start: int) -> None:
    """Re-read the lines the strict read rejected as malformed JSON, allowing raw control
    characters inside strings and joining a step that raw newlines split over several lines.

    Works in place on `read`: recovered lines become records, their errors go away. Nothing is
    re-read when every line parsed, so the normal path costs nothing.
    """
    malformed = {p.line for p in read.errors if p.line is not None and p.error.startswith("malformed JSON")}
    if not malformed:
        return
    try:
        with open_regular(path) as fh:
            fh.seek(start)
            data = fh.read(read.offset - start)
    except OSError:
        return
    lines = data.split(b"\n")
    first = read.first_line
    recovered: dict[int, dict[str, Any]] = {}
    consumed: set[int] = set()
    for line_no in sorted(malformed):
        if line_no in consumed:
            continue
        chunk: list[bytes] = []
        for end in range(line_no, line_no + MAX_JOINED_LINES):
            index = end - first
            if not 0 <= index < len(lines):
                break
            if end != line_no and end not in malformed and lines[index].strip():
                break  # a step only continues over lines that did not parse on their own (or blank ones)
            chunk.append(lines[index])
            obj = _loads_tolerant(b"\n".join(chunk))
            if isinstance(obj, dict):
                recovered[line_no] = obj
                consumed.update(range(line_no, end + 1))
                break
    if not recovered:
        return
    read.errors = [p for p in read.errors if p.line not in consumed or not p.error.startswith("malformed JSON")]
    read.records = sorted([*read.records, *recovered.items()], key=lambda r: r[0])


def _loads_tolerant(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"), strict=False)
    except ValueError:  # UnicodeDecodeError is a ValueError
        return None


# --- resume state --------------------------------------------------------------------------------


@dataclass
class _State:
    cwds: list[str] = field(default_factory=list)  # run_command cwds, first seen first
    emitted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"cwds": self.cwds[:20], "emitted": self.emitted}

    @classmethod
    def load(cls, data: dict[str, Any]) -> _State:
        cwds = data.get("cwds")
        return cls(
            cwds=[c for c in cwds if nonempty_str(c)] if isinstance(cwds, list) else [],
            emitted=data.get("emitted") is True,
        )


# --- the parser ----------------------------------------------------------------------------------


class _Parser(JsonlFileParser):
    def __init__(self, path: Path, state: _State) -> None:
        super().__init__(path)
        self.sid = path.stem
        self.state = state
        self.cwd_before = state.cwds[0] if state.emitted and state.cwds else None
        self.steps = 0
        self.untyped = 0

    def feed(self, line_no: int, record: dict[str, Any]) -> None:
        self._guarded("step", line_no, self._feed, line_no, record)

    def _feed(self, line_no: int, record: dict[str, Any]) -> None:
        stype = record.get("type")
        if not isinstance(stype, str) or not stype.strip():
            self.untyped += 1
            return
        self.steps += 1
        body = record.get(stype)
        if body is None:
            body = {}
        if not isinstance(body, dict):
            self.problems.append(
                Problem(self.p, f"{stype} step holds a JSON {json_type_name(body)}, not an object; skipped", line_no)
            )
            return
        key = f"{self.sid}:{line_no}"
        status = nonempty_str(record.get("status"))
        if stype == "user_input":
            text = body.get("user_response")
            if isinstance(text, str):
                self._user(text, key)
        elif stype == "planner_response":
            text = body.get("response")
            if isinstance(text, str) and text.strip():
                self._add(Message("assistant", text.strip(), "response", key))
        else:
            self._tool(stype, body, status, key)

    def _user(self, text: str, key: str) -> None:
        for message in user_messages(classify_user_text(text), key):
            self._add(message)

    def _tool(self, name: str, body: dict[str, Any], status: str | None, key: str) -> None:
        cwd = nonempty_str(body.get("cwd"))
        if cwd and cwd not in self.state.cwds:
            self.state.cwds.append(cwd)
        tool_input = {k: v for k, v in body.items() if k not in OUTPUT_KEYS and k not in DROPPED_KEYS}
        summary = next((_display(tool_input[k]) for k in SUMMARY_KEYS if nonempty_str(tool_input.get(k))), None)
        files = tuple(dict.fromkeys(p for k in PATH_KEYS if (p := _uri_path(tool_input.get(k))) and looks_like_path(p)))
        text = tool_call_text(name, tool_input, summary)
        self._add(
            Message(
                "assistant",
                text,
                "tool_call",
                key,
                tool_name=name,
                tool_input=tool_input,
                files=files,
            )
        )
        result = _result_text(body, status)
        if result is not None:
            self._add(
                Message(
                    "tool",
                    result[:OUTPUT_MAX],
                    "tool_result",
                    f"{key}:result",
                    tool_name=name,
                )
            )

    def sessions(self) -> list[Session]:
        cwd = self.state.cwds[0] if self.state.cwds else None
        changed = self.state.emitted and cwd != self.cwd_before
        if not self.messages and not changed:
            return []
        self.state.emitted = True
        try:
            ended = iso_utc(self.path.stat().st_mtime)  # the lines carry no times
        except OSError:
            ended = None
        return [
            Session(
                agent=AGENT,
                native_id=self.sid,
                messages=tuple(self.messages),
                cwd=cwd,
                ended_at=ended,
                source_paths=(self.p,),
            )
        ]

    def warnings(self) -> list[Problem]:
        out = list(self.problems)
        if self.untyped:
            out.append(Problem(self.p, f"skipped {plural(self.untyped, 'line')} with no step type"))
        return out


# --- helpers -------------------------------------------------------------------------------------


def _uri_path(value: Any) -> str | None:
    """A `file://` URI as a path (a plain absolute path as is); anything else None."""
    if not isinstance(value, str) or not value:
        return None
    if not value.startswith("file:"):
        return value if value.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", value) else None
    path = unquote(urlparse(value).path)
    if re.match(r"^/[A-Za-z]:/", path):  # file:///c%3A/Users/… on Windows
        path = path[1:]
    return path or None


def _display(value: str) -> str:
    """A summary value as a person reads it: a `file://` URI as its path."""
    if value.startswith("file:"):
        return _uri_path(value) or value
    return value


def _result_text(body: dict[str, Any], status: str | None) -> str | None:
    """What a tool step returned, or None when it carries nothing (a listing without output).

    A command's exit code is kept: alone when there is no output, and as an "[error]" line when
    it is not zero. A failed step (`status: "error"`) is an "[error]" result even without output;
    a search without output says how many results it found.
    """
    text: str | None = None
    for k in OUTPUT_KEYS:
        value = body.get(k)
        if isinstance(value, str):
            text = value
            break
        if value is not None:
            text = compact_json(value)
            break
    code = body.get("exit_code")
    if isinstance(code, bool) or not isinstance(code, int):
        code = None
    failed = (status or "").lower() in FAILED_STATUSES
    if body.get("user_rejected") is True:
        return "[error] rejected by the user" + (f"\n{text}" if text else "")
    if code is not None and code != 0:
        return f"[error] exit code {code}" + (f"\n{text}" if text else "")
    if failed:
        return f"[error] status: {status}" + (f"\n{text}" if text else "")
    if text is None and code is not None:
        return f"exit code {code}"
    total = body.get("total_results")
    if text is None and isinstance(total, int) and not isinstance(total, bool):
        return plural(total, "result")
    return text
