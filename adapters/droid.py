"""Factory Droid adapter: `~/.factory/sessions/<project-dir>/<uuid>.jsonl` in, Sessions out.

Format notes live in docs/session-formats.md §9.6. One append-only JSONL file per session, next to
a `<uuid>.settings.json` sidecar (model, token usage, autonomy mode) that is rewritten in place. The
first line is `{type: "session_start", id, title, sessionTitle, cwd, version, owner}`; conversation
lines are `{type: "message", id, timestamp, message: {role, content}}` with Anthropic-style blocks:
`text`, `thinking`, `tool_use` on assistant messages; tool results come back as `role: "user"`
messages holding `tool_result` blocks, paired with their call by `tool_use_id`. A user message's
first text block is the prompt; the blocks Droid adds for `@file` mentions ("Contents of <path>
(lines a-b of n):") are injected context. `todo_state` lines (the todo list after a TodoWrite)
are not messages and are skipped. The model comes from the settings sidecar when it names one.
Keys are `<session id>:<line id or tool id>`; the resume point carries the session facts and the
names of calls still waiting for their result. The parser never raises.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti.adapters._common import (
    OUTPUT_MAX,
    SUMMARY_KEYS,
    JsonlFileParser,
    as_dict,
    classify_user_text,
    detect_jsonl,
    emit_due,
    existing_dirs,
    first_json_line,
    guarded_parse,
    home_dir,
    input_paths,
    input_summary,
    iso_utc,
    nonempty_str,
    plural,
    read_json_or_none,
    resumed,
    tool_call_text,
    type_label,
    user_messages,
)
from smriti.adapters._jsonl import read_jsonl
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "droid"

# Line types that are not conversation: the todo list snapshot after each TodoWrite.
SKIPPED_TYPES = frozenset({"todo_state"})
SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking"})  # reasoning is not stored
# Session names Droid shows before it has named the session: the first prompt (`title`) says more.
DEFAULT_TITLES = frozenset({"New Session", "Untitled", "New session"})
# Droid's tools: Read/Edit/Create (file_path), Execute (command), LS (directory_path), Grep
# (pattern, path), Glob (patterns, folder), ApplyPatch (input: a patch text).
TOOL_SUMMARY_KEYS = (*SUMMARY_KEYS, "directory_path", "folder", "prompt")
TOOL_PATH_KEYS = ("file_path", "path", "notebook_path", "filePath")
PATCH_FILE_RE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$", re.MULTILINE)
# The text block Droid adds for an `@file` mention: the file's contents, not the person's words.
FILE_CONTEXT_RE = re.compile(r"^Contents of \S.* \(lines \d+-\d+ of \d+\):")
INJECTED_PREFIXES = ("<system-reminder>", "<system-notification>")
MAX_PENDING_TOOLS = 1000


class DroidAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        return [home_dir() / ".factory" / "sessions"]

    def discover(self, root: Path) -> Iterator[Path]:
        """`<project-dir>/<uuid>.jsonl` under the sessions folder (or `~/.factory`, or one project dir)."""
        if root.is_file():
            yield root
            return
        if (root / "sessions").is_dir():  # ~/.factory itself
            root = root / "sessions"
        try:
            found = {p for pattern in ("*.jsonl", "*/*.jsonl") for p in root.glob(pattern) if p.is_file()}
        except OSError:
            return
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        """A `session_start` first line, or the `~/.factory/sessions` folder."""
        return detect_jsonl(path, (".factory", "sessions"), self.discover, _sniff)

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(_parse, path, resume)


def _sniff(path: Path) -> bool:
    first = first_json_line(path)
    return isinstance(first, dict) and first.get("type") == "session_start" and "id" in first


def _parse(path: Path, resume: Any) -> ParseResult:
    read = read_jsonl(path, resume)
    resuming = resumed(resume, read)
    parser = _Parser(path, _State.load(resume) if resuming else _State())
    for line_no, record in read.records:
        parser.feed(line_no, record)
    found = f"1 session ({plural(parser.conversational, 'message line')})" if parser.conversational else None
    return parser.result(read, resuming=resuming, found=found)


# --- resume state --------------------------------------------------------------------------------


@dataclass
class _State:
    sid: str | None = None
    cwd: str | None = None
    title: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    models: list[str] = field(default_factory=list)  # named by messages (the sidecar is read each time)
    tool_names: dict[str, str] = field(default_factory=dict)  # tool_use id → name, until its result
    emitted: bool = False

    def facts(self) -> tuple[Any, ...]:
        return (self.sid, self.cwd, self.title, self.started_at, self.ended_at, tuple(self.models))

    def to_json(self) -> dict[str, Any]:
        return {
            "sid": self.sid,
            "cwd": self.cwd,
            "title": self.title,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "models": self.models,
            "tool_names": dict(list(self.tool_names.items())[-MAX_PENDING_TOOLS:]),
            "emitted": self.emitted,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> _State:
        """Tolerant: a damaged resume state loses only the parts that do not parse."""
        names = data.get("tool_names")
        models = data.get("models")
        return cls(
            sid=nonempty_str(data.get("sid")),
            cwd=nonempty_str(data.get("cwd")),
            title=nonempty_str(data.get("title")),
            started_at=nonempty_str(data.get("started_at")),
            ended_at=nonempty_str(data.get("ended_at")),
            models=[m for m in models if nonempty_str(m)] if isinstance(models, list) else [],
            tool_names={k: v for k, v in names.items() if isinstance(v, str)} if isinstance(names, dict) else {},
            emitted=data.get("emitted") is True,
        )


# --- the parser ----------------------------------------------------------------------------------


class _Parser(JsonlFileParser):
    def __init__(self, path: Path, state: _State) -> None:
        super().__init__(path)
        self.state = state
        self.facts_before = state.facts() if state.emitted else None
        self.conversational = 0
        self.unknown_types: Counter[str] = Counter()
        self.unknown_roles: Counter[str] = Counter()
        self.unknown_blocks: Counter[str] = Counter()

    @property
    def sid(self) -> str:
        if self.state.sid is None:  # no session_start line: the file is named after the session
            self.state.sid = self.path.stem
        return self.state.sid

    def feed(self, line_no: int, record: dict[str, Any]) -> None:
        self._guarded("record", line_no, self._feed, line_no, record)

    def _feed(self, line_no: int, record: dict[str, Any]) -> None:
        rtype = record.get("type")
        if rtype == "session_start":
            self._start(record)
        elif rtype == "message":
            self._message(line_no, record)
        elif not isinstance(rtype, str) or rtype not in SKIPPED_TYPES:
            self.unknown_types[type_label(rtype)] += 1

    def _start(self, record: dict[str, Any]) -> None:
        s = self.state
        s.sid = s.sid or nonempty_str(record.get("id"))
        s.cwd = s.cwd or nonempty_str(record.get("cwd"))
        named = nonempty_str(record.get("sessionTitle"))
        title = named if named and named not in DEFAULT_TITLES else nonempty_str(record.get("title"))
        s.title = title or s.title

    def _message(self, line_no: int, record: dict[str, Any]) -> None:
        self.conversational += 1
        message = record.get("message")
        if not isinstance(message, dict):
            self.problems.append(Problem(self.p, "message line has no message object; skipped", line_no))
            return
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            self.problems.append(Problem(self.p, "message line has no message content; skipped", line_no))
            return
        ts = iso_utc(record.get("timestamp"))
        s = self.state
        if ts:
            s.started_at = min(filter(None, [s.started_at, ts]))
            s.ended_at = max(filter(None, [s.ended_at, ts]))
        base = f"{self.sid}:{nonempty_str(record.get('id')) or f'line{line_no}'}"
        role = message.get("role")
        if role == "user":
            self._user(line_no, base, content, ts)
        elif role == "assistant":
            model = nonempty_str(message.get("model"))
            if model and model not in s.models:
                s.models.append(model)
            self._assistant(line_no, base, content, ts)
        else:
            self.unknown_roles[type_label(role)] += 1

    def _user(self, line_no: int, base: str, blocks: list[Any], ts: str | None) -> None:
        parts: list[tuple[str, str]] = []
        for index, block in enumerate(blocks):
            if not isinstance(block, dict):
                self._bad_block(line_no, "user", block)
                continue
            btype = block.get("type")
            if btype == "text" and isinstance(block.get("text"), str):
                text = block["text"]
                parts += (
                    [("injected_context", text)]
                    if FILE_CONTEXT_RE.match(text)
                    else classify_user_text(text, INJECTED_PREFIXES)
                )
            elif btype == "tool_result":
                self._add(self._tool_result(block, base, index, ts))
            elif btype in ("image", "document", "file"):
                parts.append(("prompt", f"[{btype}]"))  # never the base64 payload
            else:
                self.unknown_blocks[type_label(btype)] += 1
        for message in user_messages(parts, base, ts):
            self._add(message)

    def _assistant(self, line_no: int, base: str, blocks: list[Any], ts: str | None) -> None:
        self._assistant_blocks(
            line_no,
            blocks,
            base,
            ts,
            call_type="tool_use",
            tool_call=lambda block, fallback_key: self._tool_call(block, fallback_key, ts),
            skipped=SKIPPED_BLOCKS,
        )

    def _tool_call(self, block: dict[str, Any], fallback_key: str, ts: str | None) -> Message:
        tool_id = nonempty_str(block.get("id"))
        name = nonempty_str(block.get("name"))
        if tool_id:
            self.state.tool_names[tool_id] = name or ""
        tool_input = block.get("input")
        patch_files = _patch_files(tool_input)
        summary = input_summary(tool_input, TOOL_SUMMARY_KEYS) or (patch_files[0] if patch_files else None)
        files = tuple(dict.fromkeys((*input_paths(tool_input, TOOL_PATH_KEYS, lists=("edits",)), *patch_files)))
        key = f"{self.sid}:{tool_id}" if tool_id else fallback_key
        text = tool_call_text(name, tool_input, summary)
        return Message(
            "assistant",
            text,
            "tool_call",
            key,
            ts,
            tool_name=name,
            tool_input=tool_input,
            files=files,
        )

    def _tool_result(self, block: dict[str, Any], base: str, index: int, ts: str | None) -> Message:
        tool_id = nonempty_str(block.get("tool_use_id"))
        name = (self.state.tool_names.pop(tool_id, None) or None) if tool_id else None
        text = _result_text(block.get("content"))
        if block.get("is_error") is True:
            text = "[error] " + text
        key = f"{self.sid}:result:{tool_id}" if tool_id else f"{base}:{index}"
        return Message("tool", text[:OUTPUT_MAX], "tool_result", key, ts, tool_name=name)

    # -- results --

    def sessions(self) -> list[Session]:
        s = self.state
        if s.sid is None and not self.messages:
            return []
        sid = self.sid
        if not emit_due(s, self.messages, self.facts_before):
            return []
        models = list(s.models)
        settings = as_dict(read_json_or_none(self.path.with_name(f"{self.path.stem}.settings.json")))
        model = nonempty_str(settings.get("model"))
        if model and model not in models:
            models.append(model)
        return [
            Session(
                agent=AGENT,
                native_id=sid,
                messages=tuple(self.messages),
                cwd=s.cwd,
                title=s.title,
                started_at=s.started_at,
                ended_at=s.ended_at,
                models=tuple(models),
                source_paths=(self.p,),
            )
        ]

    def warnings(self) -> list[Problem]:
        out = [*self.problems, *self._skipped_types(self.unknown_types, "line")]
        roles = self.unknown_roles.items()
        out += [Problem(self.p, f"skipped {plural(n, 'message')} of unknown role {r}") for r, n in roles]
        return out + self._skipped_types(self.unknown_blocks, "content block")


# --- helpers -------------------------------------------------------------------------------------


def _patch_files(tool_input: Any) -> tuple[str, ...]:
    """The files an ApplyPatch call names (`*** Update File: <path>`), first seen first."""
    if isinstance(tool_input, dict):
        patch = tool_input.get("input", tool_input.get("patch"))
    else:
        patch = tool_input
    if not isinstance(patch, str) or "*** " not in patch:
        return ()
    return tuple(dict.fromkeys(m.group(1) for m in PATCH_FILE_RE.finditer(patch) if len(m.group(1)) <= 1024))


def _result_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return "" if content is None else json.dumps(content, ensure_ascii=False, default=str)
    parts: list[str] = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            ptype = part.get("type")
            if ptype == "text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif ptype in ("image", "document"):
                parts.append(f"[{ptype}]")  # never the base64 payload
    return "\n".join(parts)
