"""pi coding agent (badlogic/pi-mono) adapter: `~/.pi/agent/sessions/--<cwd slug>--/<ts>_<uuid>.jsonl`.

Format notes live in docs/session-formats.md §9.6 (and pi's own docs/session.md). One append-only
JSONL file per session. The first line is the header `{type: "session", version, id, timestamp,
cwd, parentSession?}`; every other line is an entry `{type, id, parentId, timestamp, …}`:
`message` (`message.role` is `user`, `assistant` with `provider`/`model` and `text`/`thinking`/
`toolCall{id, name, arguments}` blocks, `toolResult` with `toolCallId`/`toolName`/`isError`, or
pi's own `bashExecution`, `custom`, `branchSummary`, `compactionSummary`), `model_change`,
`thinking_level_change`, `compaction{summary, firstKeptEntryId}`, `branch_summary{summary,
fromId}`, `custom`, `custom_message`, `label`, `session_info{name}`.

The tree. `parentId` links the entries into a tree: `/tree` in pi moves the leaf back to an earlier
entry and the next entry becomes a second child there. pi itself continues from the last entry of
the file, so this adapter does the same: **only the path from the root to the last entry is
read**; entries on abandoned branches are skipped. When a resumed read finds that the new entries
branch off an entry read earlier (not the previous last entry), the whole file is read again so the
new path is complete; messages of the branch that was left stay in the store (they were real, and
the store never retracts). An entry whose parent is missing because the line holding it was
malformed is linked to the line before it, so one bad line does not cut off the conversation.
Version 1 files (no ids) are linear.

Kinds. Prompts are `user` messages (smriti's `<smriti-context>` blocks split out); `bashExecution`
(a `!command` the person ran) and `custom`/`custom_message` (text an extension put into the
context) are injected context; compaction and branch summaries are `summary` messages, as the
other adapters store compaction summaries. Reasoning is not stored. Keys are `<session id>:<entry
id>` (pi's ids are 8 hex characters, unique only within a file). The parser never raises.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from smriti.adapters._common import (
    OUTPUT_MAX,
    SUMMARY_KEYS,
    JsonlFileParser,
    classify_user_text,
    compact_json,
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
    resumed,
    tool_call_text,
    type_label,
    user_messages,
)
from smriti.adapters._jsonl import JsonlRead, read_jsonl
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "pi"

# Entry types that carry nothing to store: settings changes, extension state, bookmarks.
SKIPPED_ENTRIES = frozenset({"thinking_level_change", "custom", "label"})
SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking"})  # reasoning is not stored
SUMMARY_ROLES = frozenset({"compactionSummary", "branchSummary"})
CONTEXT_ROLES = frozenset({"custom", "hookMessage"})  # extension-injected (v3 renamed hookMessage)
TOOL_SUMMARY_KEYS = (*SUMMARY_KEYS, "prompt")
TOOL_PATH_KEYS = ("path", "file_path", "filePath", "notebook_path")
FILE_NAME_RE = re.compile(r"_([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$")
MAX_PENDING_TOOLS = 1000


class PiAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        """`$PI_CODING_AGENT_DIR/sessions` when set (pi's own override), else `~/.pi/agent/sessions`."""
        candidates: list[Path] = []
        agent_dir = os.environ.get("PI_CODING_AGENT_DIR", "").strip()
        if agent_dir:
            candidates.append(_expand_home(agent_dir) / "sessions")
        candidates.append(home_dir() / ".pi" / "agent" / "sessions")
        return candidates

    def discover(self, root: Path) -> Iterator[Path]:
        """`--<cwd slug>--/<ts>_<uuid>.jsonl` under the sessions folder (or `~/.pi`, `~/.pi/agent`,
        or one project folder)."""
        if root.is_file():
            yield root
            return
        for sub in ("agent/sessions", "sessions"):
            if (root / sub).is_dir():
                root = root / sub
                break
        try:
            found = {p for pattern in ("*.jsonl", "*/*.jsonl") for p in root.glob(pattern) if p.is_file()}
        except OSError:
            return
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        """A first line `{"type":"session", …, "cwd": …}`, or pi's sessions folder."""
        return detect_jsonl(path, (".pi", "agent", "sessions"), self.discover, _sniff)

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(_parse, path, resume)


def _expand_home(value: str) -> Path:
    if value == "~" or value.startswith("~/"):
        return home_dir() / value[2:]
    return Path(value)


def _sniff(path: Path) -> bool:
    first = first_json_line(path)
    return isinstance(first, dict) and first.get("type") == "session" and "cwd" in first and "id" in first


def _parse(path: Path, resume: Any) -> ParseResult:
    read = read_jsonl(path, resume)
    resuming = resumed(resume, read)
    parser = _Parser(path, _State.load(resume) if resuming else _State(), resuming)
    if not parser.read(read) and resuming:
        # The new entries branch off an entry read by an earlier parse: read it all again so the
        # new path is complete (the store keeps one copy of what it already has).
        read = read_jsonl(path)
        parser = _Parser(path, _State(), resuming=False)
        parser.read(read)
        resuming = False
    found = f"1 session ({plural(parser.conversational, 'entry')})" if parser.conversational else None
    return parser.result(read, resuming=resuming, found=found)


# --- resume state --------------------------------------------------------------------------------


@dataclass
class _State:
    sid: str | None = None
    cwd: str | None = None
    parent: str | None = None
    title: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    models: list[str] = field(default_factory=list)
    last_id: str | None = None  # the last entry read: where a linear continuation attaches
    tool_names: dict[str, str] = field(default_factory=dict)  # toolCall id → name, until its result
    emitted: bool = False

    def facts(self) -> tuple[Any, ...]:
        return (self.sid, self.cwd, self.parent, self.title, self.started_at, self.ended_at, tuple(self.models))

    def to_json(self) -> dict[str, Any]:
        return {
            "sid": self.sid,
            "cwd": self.cwd,
            "parent": self.parent,
            "title": self.title,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "models": self.models,
            "last_id": self.last_id,
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
            parent=nonempty_str(data.get("parent")),
            title=nonempty_str(data.get("title")),
            started_at=nonempty_str(data.get("started_at")),
            ended_at=nonempty_str(data.get("ended_at")),
            models=[m for m in models if nonempty_str(m)] if isinstance(models, list) else [],
            last_id=nonempty_str(data.get("last_id")),
            tool_names={k: v for k, v in names.items() if isinstance(v, str)} if isinstance(names, dict) else {},
            emitted=data.get("emitted") is True,
        )


# --- the parser ----------------------------------------------------------------------------------


@dataclass
class _Entry:
    line: int
    record: dict[str, Any]
    id: str | None
    parent: Any  # a string, or None for a root (or a v1 entry without ids)


class _Parser(JsonlFileParser):
    def __init__(self, path: Path, state: _State, resuming: bool) -> None:
        super().__init__(path)
        self.state = state
        self.resuming = resuming
        self.facts_before = state.facts() if state.emitted else None
        self.conversational = 0
        self.unknown_types: Counter[str] = Counter()
        self.unknown_roles: Counter[str] = Counter()
        self.unknown_blocks: Counter[str] = Counter()

    @property
    def sid(self) -> str:
        if self.state.sid is None:  # no header line: the file name ends with the session uuid
            match = FILE_NAME_RE.search(self.path.name)
            self.state.sid = match.group(1) if match else self.path.stem
        return self.state.sid

    def read(self, read: JsonlRead) -> bool:
        """Feed this read's records; False when a resumed read must start over (see `_path`)."""
        entries: list[_Entry] = []
        for line_no, record in read.records:
            if record.get("type") == "session":
                self._header(record)
                continue
            entry_id = nonempty_str(record.get("id"))
            entries.append(_Entry(line_no, record, entry_id, record.get("parentId")))
        bad_lines = sorted(p.line for p in read.errors if p.line is not None)
        path = self._path(entries, bad_lines)
        if path is None:
            return False
        for entry in entries:  # a session's name is its latest session_info, on any branch (as in pi)
            if entry.record.get("type") == "session_info" and nonempty_str(entry.record.get("name")):
                self.state.title = entry.record["name"].strip() or self.state.title
        for entry in path:
            self.feed(entry)
        if entries:
            self.state.last_id = entries[-1].id or self.state.last_id
        return True

    def _path(self, entries: list[_Entry], bad_lines: list[int]) -> list[_Entry] | None:
        """The entries on the path from the root to the last entry, in file order.

        When resuming, the walk stops at the previous last entry. It returns None when the path
        leaves the new entries anywhere else (a branch off an older entry: read everything again).
        """
        if not entries:
            return []
        by_id = {e.id: i for i, e in enumerate(entries) if e.id is not None}
        path: list[_Entry] = []
        seen: set[int] = set()
        index: int | None = len(entries) - 1
        while index is not None and index not in seen:
            seen.add(index)
            entry = entries[index]
            path.append(entry)
            previous = index - 1 if index > 0 else None
            if entry.id is None:  # version 1: no tree, one line after the other
                index = previous
                continue
            parent = entry.parent
            if not isinstance(parent, str) or not parent or parent == entry.id:
                index = None  # a root
            elif parent in by_id and by_id[parent] < index:
                index = by_id[parent]
            elif self.resuming and parent == self.state.last_id:
                index = None  # continues what an earlier parse read
            elif previous is not None and (not self.resuming or _bad_line_between(bad_lines, entries, index)):
                index = previous  # the parent's line was unreadable: link past it
            elif self.resuming and not (previous is None and bad_lines and bad_lines[0] < entry.line):
                return None  # branches off an entry read earlier
            else:
                index = None
        path.reverse()
        return path

    def _header(self, record: dict[str, Any]) -> None:
        s = self.state
        s.sid = s.sid or nonempty_str(record.get("id"))
        s.cwd = s.cwd or nonempty_str(record.get("cwd"))
        started = iso_utc(record.get("timestamp"))
        if started:
            s.started_at = min(filter(None, [s.started_at, started]))
        parent = nonempty_str(record.get("parentSession"))
        if parent and not s.parent:
            match = FILE_NAME_RE.search(_file_name(parent))
            s.parent = match.group(1) if match else None

    def feed(self, entry: _Entry) -> None:
        self._guarded("record", entry.line, self._feed, entry)

    def _feed(self, entry: _Entry) -> None:
        record = entry.record
        etype = record.get("type")
        ts = iso_utc(record.get("timestamp"))
        key = f"{self.sid}:{entry.id or f'line{entry.line}'}"
        if etype == "message":
            self.conversational += 1
            self._stamp(ts)
            self._message(entry, key, ts)
        elif etype in ("compaction", "branch_summary"):
            self.conversational += 1
            self._stamp(ts)
            summary = record.get("summary")
            if isinstance(summary, str) and summary.strip():
                self._add(Message("system", summary, "summary", key, ts))
        elif etype == "custom_message":
            self.conversational += 1
            self._stamp(ts)
            text = _content_text(record.get("content"))
            if text.strip():
                self._add(Message("user", text, "injected_context", key, ts))
        elif etype == "model_change":
            self._model(nonempty_str(record.get("modelId")))
        elif etype == "session_info":
            pass  # the title, read from every entry in `read`
        elif not isinstance(etype, str) or etype not in SKIPPED_ENTRIES:
            self.unknown_types[type_label(etype)] += 1

    def _message(self, entry: _Entry, key: str, ts: str | None) -> None:
        message = entry.record.get("message")
        if not isinstance(message, dict):
            self.problems.append(Problem(self.p, "message entry has no message object; skipped", entry.line))
            return
        ts = ts or iso_utc(message.get("timestamp"))
        role = message.get("role")
        if role == "user":
            self._user(entry, message, key, ts)
        elif role == "assistant":
            self._model(nonempty_str(message.get("model")))
            self._assistant(entry, message, key, ts)
        elif role == "toolResult":
            self._tool_result(message, key, ts)
        elif role == "bashExecution":
            command = message.get("command") if isinstance(message.get("command"), str) else ""
            output = message.get("output") if isinstance(message.get("output"), str) else ""
            text = f"$ {command}\n{output}".rstrip()
            if command or output:
                self._add(Message("user", text[:OUTPUT_MAX], "injected_context", key, ts))
        elif role in CONTEXT_ROLES:
            text = _content_text(message.get("content"))
            if text.strip():
                self._add(Message("user", text[:OUTPUT_MAX], "injected_context", key, ts))
        elif role in SUMMARY_ROLES:
            summary = message.get("summary")
            if isinstance(summary, str) and summary.strip():
                self._add(Message("system", summary, "summary", key, ts))
        else:
            self.unknown_roles[type_label(role)] += 1

    def _user(self, entry: _Entry, message: dict[str, Any], key: str, ts: str | None) -> None:
        content = message.get("content")
        blocks: Any = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            self.problems.append(Problem(self.p, "user message has no content; skipped", entry.line))
            return
        parts: list[tuple[str, str]] = []
        for block in blocks:
            if not isinstance(block, dict):
                self._bad_block(entry.line, "user", block)
                continue
            btype = block.get("type")
            if btype == "text" and isinstance(block.get("text"), str):
                parts += classify_user_text(block["text"])
            elif btype == "image":
                parts.append(("prompt", "[image]"))  # never the base64 payload
            else:
                self.unknown_blocks[type_label(btype)] += 1
        for message in user_messages(parts, key, ts):
            self._add(message)

    def _assistant(self, entry: _Entry, message: dict[str, Any], key: str, ts: str | None) -> None:
        content = message.get("content")
        blocks: Any = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list):
            self.problems.append(Problem(self.p, "assistant message has no content; skipped", entry.line))
            return
        self._assistant_blocks(
            entry.line,
            blocks,
            key,
            ts,
            call_type="toolCall",
            tool_call=lambda block, fallback_key: self._tool_call(block, fallback_key, ts),
            skipped=SKIPPED_BLOCKS,
        )

    def _tool_call(self, block: dict[str, Any], key: str, ts: str | None) -> Message:
        tool_id = nonempty_str(block.get("id"))
        name = nonempty_str(block.get("name"))
        if tool_id:
            self.state.tool_names[tool_id] = name or ""
        arguments = block.get("arguments")
        text = tool_call_text(name, arguments, input_summary(arguments, TOOL_SUMMARY_KEYS))
        files = input_paths(arguments, TOOL_PATH_KEYS)
        return Message(
            "assistant",
            text,
            "tool_call",
            key,
            ts,
            tool_name=name,
            tool_input=arguments,
            files=files,
        )

    def _tool_result(self, message: dict[str, Any], key: str, ts: str | None) -> None:
        tool_id = nonempty_str(message.get("toolCallId"))
        known = self.state.tool_names.pop(tool_id, None) if tool_id else None
        name = nonempty_str(message.get("toolName")) or known or None
        text = _content_text(message.get("content"))
        if message.get("isError") is True:
            text = "[error] " + text
        self._add(Message("tool", text[:OUTPUT_MAX], "tool_result", key, ts, tool_name=name))

    def _stamp(self, ts: str | None) -> None:
        s = self.state
        if ts:
            s.started_at = min(filter(None, [s.started_at, ts]))
            s.ended_at = max(filter(None, [s.ended_at, ts]))

    def _model(self, model: str | None) -> None:
        if model and model not in self.state.models:
            self.state.models.append(model)

    # -- results --

    def sessions(self) -> list[Session]:
        s = self.state
        if s.sid is None and not self.messages:
            return []
        sid = self.sid
        if not emit_due(s, self.messages, self.facts_before):
            return []
        return [
            Session(
                agent=AGENT,
                native_id=sid,
                messages=tuple(self.messages),
                cwd=s.cwd,
                title=s.title,
                started_at=s.started_at,
                ended_at=s.ended_at,
                models=tuple(s.models),
                source_paths=(self.p,),
                parent_native_id=s.parent,
            )
        ]

    def warnings(self) -> list[Problem]:
        out = [*self.problems, *self._skipped_types(self.unknown_types, "entry")]
        roles = self.unknown_roles.items()
        out += [Problem(self.p, f"skipped {plural(n, 'message')} of unknown role {r}") for r, n in roles]
        return out + self._skipped_types(self.unknown_blocks, "content block")


# --- helpers -------------------------------------------------------------------------------------


def _bad_line_between(bad_lines: list[int], entries: list[_Entry], index: int) -> bool:
    """Whether an unreadable line sits between entry `index` and the entry before it."""
    low, high = entries[index - 1].line, entries[index].line
    return any(low < line < high for line in bad_lines)


def _file_name(path: str) -> str:
    """The last part of a path written on any system (a parent session's file)."""
    return PureWindowsPath(path).name if "\\" in path else PurePosixPath(path).name


def _content_text(content: Any) -> str:
    """A string, or the text of `text` blocks (an image is "[image]", never its base64 data)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return "" if content is None else compact_json(content)
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict):
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                parts.append(block["text"])
            elif block.get("type") == "image":
                parts.append("[image]")
    return "\n".join(parts)
