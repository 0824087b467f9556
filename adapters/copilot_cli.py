"""GitHub Copilot CLI adapter: `~/.copilot/session-state/<id>/events.jsonl` in, Sessions out.

Before 1.0 the CLI kept one JSON object per session in `~/.copilot/history-session-state/*.json`:
`{sessionId, startTime, chatMessages, timeline}`, rewritten in place as the session goes. Its
`timeline` is the UI's view (`user`, `copilot`, `tool_call_requested`, `tool_call_completed`,
`info` entries, each with an id and a timestamp) and is read first; `chatMessages` (the model's
OpenAI-style messages, no times) stands in when a file has no timeline.

Format notes live in docs/session-formats.md §5.2. Every line is one event
`{type, data, id, timestamp, parentId}`; the older layout is `session-state/<id>.jsonl` with the
same events. Prompts are `user.message`, answers `assistant.message` (whose `toolRequests` are the
tool calls), results `tool.execution_complete` joined on `toolCallId`. Sub-agent events sit in the
same file, marked by `data.parentToolCallId` (or a top-level `agentId`): they stay in the session
as sidechain messages. VS Code's agent transcripts share this event shape but belong to the
`copilot` adapter (`session.start` has `vscodeVersion` there, `context.cwd` here).
The parser never raises: an odd record becomes a warning and everything around it is still read.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti.adapters._common import (
    OUTPUT_MAX,
    PATH_KEYS,
    SUMMARY_KEYS,
    SourceKind,
    as_dict,
    as_list,
    classify_user_text,
    compact_json,
    decode_arguments,
    first_sight,
    guarded_parse,
    home_dir,
    input_paths,
    input_summary,
    iso_utc,
    join_parts,
    load_json_file,
    looks_like_path,
    no_messages_error,
    nonempty_str,
    plural,
    tool_call_text,
    type_label,
    user_messages,
)
from smriti.adapters._jsonl import MAX_SIDE_FILE_BYTES, open_regular, read_jsonl, read_regular
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "copilot-cli"

# Events that carry no conversation text (lifecycle, usage, hooks, permissions, streaming deltas).
SKIPPED_EVENTS = frozenset(
    {
        "session.start",
        "session.resume",
        "session.info",
        "session.error",
        "session.idle",
        "session.shutdown",
        "session.truncation",
        "session.usage_checkpoint",
        "session.usage_info",
        "session.auto_mode_resolved",
        "session.handoff",
        "session.snapshot_rewind",
        "session.mode_changed",
        "session.compaction_start",
        "session.model_change",
        "session.title_changed",
        "session.end",
        "assistant.turn_start",
        "assistant.turn_end",
        "assistant.intent",
        "assistant.reasoning",
        "assistant.usage",
        "tool.execution_start",
        "tool.execution_partial_result",
        "tool.execution_progress",
        "tool.user_requested",
        "abort",
        "hook.start",
        "hook.end",
        "subagent.started",
        "subagent.completed",
        "subagent.failed",
        "subagent.selected",
        "skill.invoked",
        "permission.requested",
        "permission.completed",
        "pending_messages.modified",
    }
)
FAILED_RESULT_TYPES = frozenset({"failure", "error", "rejected", "denied", "cancelled"})
INJECTED_PREFIXES = ("<system-reminder>", "<current_datetime>", "<environment_details>", "<reminder>")
MAX_KNOWN_CALLS = 1000
LEGACY_DIR = "history-session-state"
# One block the CLI puts in front of what the person typed: `<current_datetime>…</current_datetime>`.
LEADING_BLOCK_RE = re.compile(r"\s*(<(current_datetime|reminder|system-reminder)>.*?</\2>)\s*", re.DOTALL)
LEGACY_FILE = SourceKind("a session file", "session", "a JSON session", mid_write="; it may be mid-write")


class CopilotCliAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return [c for c in self.candidate_roots() if c.is_dir()]

    def candidate_roots(self) -> list[Path]:
        return list(
            dict.fromkeys(
                candidate for home in _copilot_homes() for candidate in (home / "session-state", home / LEGACY_DIR)
            )
        )

    def discover(self, root: Path) -> Iterator[Path]:
        """`<id>/events.jsonl` (v1.0.11+) and the older flat `<id>.jsonl` under session-state; the
        pre-1.0 `<name>.json` files under history-session-state."""
        if root.is_file():
            yield root
            return
        if not root.is_dir():
            return
        if root.name == LEGACY_DIR:
            yield from sorted(p for p in root.glob("*.json") if p.is_file())
            return
        legacy = root / LEGACY_DIR
        if (root / "session-state").is_dir():
            root = root / "session-state"
        found = [
            p
            for p in root.rglob("*.jsonl")
            if p.is_file() and (p.name == "events.jsonl" or p.parent == root or p.parent.name == "session-state")
        ]
        yield from sorted(found)
        if legacy.is_dir():
            yield from self.discover(legacy)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                return (
                    path.name == LEGACY_DIR
                    or (path.name == "session-state" and path.parent.name == ".copilot")
                    or (path.name == ".copilot" and any((path / d).is_dir() for d in ("session-state", LEGACY_DIR)))
                )
            if path.suffix == ".json":
                if path.parent.name == LEGACY_DIR:
                    return True
                with open_regular(path) as fh:
                    head = fh.read(4096).decode("utf-8", "replace")
                return '"sessionId"' in head and ('"chatMessages"' in head or '"timeline"' in head)
            if path.suffix != ".jsonl":
                return False
            if path.parent.name == "session-state" or (
                path.name == "events.jsonl" and path.parent.parent.name == "session-state"
            ):
                return True
            with open_regular(path) as fh:
                head = fh.read(4096).decode("utf-8", "replace")
            starts = re.match(r'\s*\{"type":\s*"session\.start"', head) is not None
            return starts and '"copilot-agent"' in head and '"vscodeVersion"' not in head
        except Exception:  # a sniff must never raise
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        if path.suffix == ".json":  # a pre-1.0 session object, rewritten in place: read whole
            return guarded_parse(lambda p, _r: _parse_legacy(p), path, None)
        read = read_jsonl(path, resume)
        resuming = isinstance(resume, dict) and isinstance(resume.get("offset"), int) and not read.restarted
        parser = _Parser(path, _State.load(resume) if resuming else _State())
        for line_no, record in read.records:
            parser.feed(line_no, record)
        sessions = parser.sessions()
        errors = list(read.errors)
        if not resuming and parser.events and not any(s.messages for s in sessions):
            errors.append(Problem(str(path), no_messages_error("1 session(s)")))
        return ParseResult(
            sessions=sessions,
            resume=read.resume_point(**parser.state.to_json()),
            warnings=[*read.warnings, *parser.warnings()],
            errors=errors,
        )


# --- locations -----------------------------------------------------------------------------------


def _copilot_homes() -> list[Path]:
    """`$COPILOT_HOME`, `$XDG_CONFIG_HOME/copilot`, then `~/.copilot` [3p]."""
    homes: list[Path] = []
    for var, sub in (("COPILOT_HOME", ""), ("XDG_CONFIG_HOME", "copilot")):
        value = os.environ.get(var, "").strip()
        if value:
            homes.append(Path(value) / sub if sub else Path(value))
    homes.append(home_dir() / ".copilot")
    userprofile = os.environ.get("USERPROFILE")
    if userprofile:
        homes.append(Path(userprofile) / ".copilot")
    return list(dict.fromkeys(homes))


def _workspace_yaml(path: Path) -> dict[str, str]:
    """Top-level scalars of the `workspace.yaml` next to `events.jsonl` (name, cwd, branch, …)."""
    if path.name != "events.jsonl":
        return {}
    try:
        text = read_regular(path.parent / "workspace.yaml", MAX_SIDE_FILE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z_][\w-]*):\s*(.*?)\s*$", line)
        if not match or match.group(2) in ("", "|", ">", "|-", ">-"):
            continue
        value = match.group(2)
        if value.startswith('"'):
            try:
                value = json.loads(value)
            except ValueError:
                continue
        elif value.startswith("'") and value.endswith("'") and len(value) >= 2:
            value = value[1:-1].replace("''", "'")
        if isinstance(value, str) and value not in ("null", "~"):
            out[match.group(1)] = value
    return out


# --- small value helpers -------------------------------------------------------------------------


def _session_from_name(path: Path) -> str:
    """`<id>/events.jsonl` or `<id>.jsonl`: the id when the header line is missing."""
    return path.parent.name if path.name == "events.jsonl" else path.stem


# --- resume state --------------------------------------------------------------------------------


@dataclass
class _State:
    sid: str | None = None
    cwds: list[str] = field(default_factory=list)  # session.start, then any session.resume change
    git_branch: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    models: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    tool_names: dict[str, str] = field(default_factory=dict)  # toolCallId → name, for results
    emitted: bool = False

    def facts(self) -> tuple[Any, ...]:
        return (self.sid, tuple(self.cwds), self.git_branch, self.started_at, self.ended_at, tuple(self.models))

    def to_json(self) -> dict[str, Any]:
        return {
            "sid": self.sid,
            "cwds": self.cwds,
            "git_branch": self.git_branch,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "models": self.models,
            "extra": self.extra,
            "tool_names": dict(list(self.tool_names.items())[-MAX_KNOWN_CALLS:]),
            "emitted": self.emitted,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> _State:
        def strs(value: Any) -> list[str]:
            return [v for v in value if nonempty_str(v)] if isinstance(value, list) else []

        names = data.get("tool_names")
        return cls(
            sid=nonempty_str(data.get("sid")),
            cwds=strs(data.get("cwds")),
            git_branch=nonempty_str(data.get("git_branch")),
            started_at=nonempty_str(data.get("started_at")),
            ended_at=nonempty_str(data.get("ended_at")),
            models=strs(data.get("models")),
            extra=as_dict(data.get("extra")),
            tool_names={k: v for k, v in names.items() if isinstance(v, str)} if isinstance(names, dict) else {},
            emitted=data.get("emitted") is True,
        )


# --- the parser ----------------------------------------------------------------------------------


class _Parser:
    def __init__(self, path: Path, state: _State) -> None:
        self.path = path
        self.p = str(path)
        self.state = state
        self.facts_before = state.facts() if state.emitted else None
        self.messages: list[Message] = []
        self.keys: set[str] = set()
        self.events = 0
        self.problems: list[Problem] = []
        self.unknown: Counter[str] = Counter()

    def feed(self, line_no: int, record: dict[str, Any]) -> None:
        try:
            self._feed(line_no, record)
        except Exception as exc:  # one odd record must never stop the file
            self.problems.append(
                Problem(self.p, f"record could not be read ({type(exc).__name__}: {exc}); skipped", line_no)
            )

    def _feed(self, line_no: int, record: dict[str, Any]) -> None:
        etype = record.get("type")
        data = record.get("data")
        if not isinstance(etype, str):
            self.unknown["None" if etype is None else repr(etype)[:60]] += 1
            return
        if not isinstance(data, dict):
            self.problems.append(Problem(self.p, f"{etype} event has no data object; skipped", line_no))
            return
        self.events += 1
        s = self.state
        ts = iso_utc(record.get("timestamp"))
        if ts:
            s.started_at = min(filter(None, [s.started_at, ts]))
            s.ended_at = max(filter(None, [s.ended_at, ts]))
        if etype == "session.start":
            self._start(data)
        if s.sid is None:
            s.sid = _session_from_name(self.path)
        self._models(etype, data)
        if etype == "session.resume":
            self._context(data.get("context"))
        side = nonempty_str(data.get("parentToolCallId")) is not None or nonempty_str(record.get("agentId")) is not None
        key = self._key(nonempty_str(record.get("id")) or f"line{line_no}", line_no)
        if etype == "user.message":
            self._user(data, key, ts, side)
        elif etype == "assistant.message":
            self._assistant(data, key, ts, side, line_no)
        elif etype == "tool.execution_start":
            self._tool_start(data, key, ts, side, line_no)
        elif etype == "tool.execution_complete":
            self._tool_complete(data, ts, side, line_no)
        elif etype in ("system.message", "system.notification"):
            text = data.get("content")
            if isinstance(text, str) and text.strip():
                self._add(Message("system", text, "injected_context", key, ts, sidechain=side))
        elif etype == "session.compaction_complete":
            text = data.get("summaryContent")
            if isinstance(text, str) and text.strip():
                self._add(Message("system", text, "summary", key, ts, sidechain=side))
        elif etype not in SKIPPED_EVENTS and not etype.endswith("_delta"):
            self.unknown[repr(etype)[:60]] += 1

    def _key(self, local: str, line_no: int) -> str:
        """`<session>:<event id>`; a repeated id (anonymised files) falls back to its line."""
        key = f"{self.state.sid}:{local}"
        return key if key not in self.keys else f"{key}:{line_no}"

    # -- session facts --

    def _start(self, data: dict[str, Any]) -> None:
        s = self.state
        if s.sid is None:
            s.sid = nonempty_str(data.get("sessionId"))
        started = iso_utc(data.get("startTime"))
        if started:
            s.started_at = min(filter(None, [s.started_at, started]))
        self._context(data.get("context"))
        extra = {
            "copilot_version": nonempty_str(data.get("copilotVersion")),
            "producer": nonempty_str(data.get("producer")),
        }
        context = data.get("context")
        if isinstance(context, dict):
            extra["repository"] = nonempty_str(context.get("repository"))
            extra["git_root"] = nonempty_str(context.get("gitRoot"))
        s.extra.update({k: v for k, v in extra.items() if v})

    def _context(self, context: Any) -> None:
        if not isinstance(context, dict):
            return
        cwd = nonempty_str(context.get("cwd"))
        if cwd and cwd not in self.state.cwds:
            self.state.cwds.append(cwd)
        self.state.git_branch = nonempty_str(context.get("branch")) or self.state.git_branch

    def _models(self, etype: str, data: dict[str, Any]) -> None:
        """`selectedModel` is often absent: also take model changes and per-event `model`."""
        field_name = {
            "session.start": "selectedModel",
            "session.resume": "selectedModel",
            "session.model_change": "newModel",
        }.get(etype, "model")
        model = nonempty_str(data.get(field_name))
        if model and model != "auto" and model not in self.state.models:
            self.state.models.append(model)

    # -- messages --

    def _user(self, data: dict[str, Any], key: str, ts: str | None, side: bool) -> None:
        content = data.get("content")
        text = content if isinstance(content, str) and content.strip() else data.get("transformedContent")
        if not isinstance(text, str):
            return
        attachments = data.get("attachments")
        files = tuple(
            a["path"]
            for a in (attachments if isinstance(attachments, list) else [])
            if isinstance(a, dict) and looks_like_path(a.get("path"))
        )
        parts = classify_user_text(text, INJECTED_PREFIXES, strip=True)
        prompt, injected = join_parts(parts)
        order = [k for k, _ in parts]
        for kind in sorted(set(order), key=order.index):
            if kind == "prompt":
                self._add(Message("user", prompt, "prompt", key, ts, files=files, sidechain=side))
            else:
                self._add(
                    Message("user", injected, "injected_context", key + ":ctx" if prompt else key, ts, sidechain=side)
                )

    def _assistant(self, data: dict[str, Any], key: str, ts: str | None, side: bool, line_no: int) -> None:
        content = data.get("content")
        if isinstance(content, str) and content.strip():
            self._add(Message("assistant", content, "response", key, ts, sidechain=side))
        requests = data.get("toolRequests")
        if isinstance(requests, list):
            for index, request in enumerate(requests):
                if isinstance(request, dict):
                    name = nonempty_str(request.get("name"))
                    self._call(
                        request.get("toolCallId"), name, request.get("arguments"), ts, side, line_no, f"{key}:{index}"
                    )

    def _tool_start(self, data: dict[str, Any], key: str, ts: str | None, side: bool, line_no: int) -> None:
        """Normally a repeat of a `toolRequests` entry; a call only announced here is kept."""
        call_id = nonempty_str(data.get("toolCallId"))
        if call_id and call_id in self.state.tool_names:
            return
        self._call(call_id, nonempty_str(data.get("toolName")), data.get("arguments"), ts, side, line_no, key)

    def _call(
        self, call_id: Any, name: str | None, arguments: Any, ts: str | None, side: bool, line_no: int, fallback: str
    ) -> None:
        call_id = nonempty_str(call_id)
        if call_id:
            self.state.tool_names[call_id] = name or ""  # known even without a name
        if isinstance(arguments, str):
            try:
                decoded = json.loads(arguments)
            except ValueError:
                decoded = {"arguments": arguments}
            arguments = decoded
        tool_input = (
            arguments if isinstance(arguments, dict) else ({} if arguments is None else {"arguments": arguments})
        )
        text = tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS))
        files = input_paths(tool_input, PATH_KEYS)
        key = self._key(f"call:{call_id}", line_no) if call_id else fallback
        self._add(
            Message(
                "assistant",
                text,
                "tool_call",
                key,
                ts,
                tool_name=name,
                tool_input=tool_input,
                files=files,
                sidechain=side,
            )
        )

    def _tool_complete(self, data: dict[str, Any], ts: str | None, side: bool, line_no: int) -> None:
        call_id = nonempty_str(data.get("toolCallId"))
        name = (self.state.tool_names.get(call_id) or None) if call_id else None
        text, failed = _result_text(data)
        if failed or data.get("success") is False:
            text = "[error] " + text
        key = self._key(f"result:{call_id or f'line{line_no}'}", line_no)
        self._add(
            Message(
                "tool",
                text[:OUTPUT_MAX],
                "tool_result",
                key,
                ts,
                tool_name=name,
                sidechain=side,
            )
        )

    def _add(self, message: Message) -> None:
        if first_sight(self.keys, message):
            self.messages.append(message)

    # -- results --

    def sessions(self) -> list[Session]:
        s = self.state
        if s.sid is None:
            return []
        changed = self.facts_before is not None and s.facts() != self.facts_before
        if not self.messages and not changed:
            return []
        s.emitted = True
        workspace = _workspace_yaml(self.path)
        extra = dict(s.extra)
        if len(s.cwds) > 1:
            extra["cwds"] = list(s.cwds)
        return [
            Session(
                agent=AGENT,
                native_id=s.sid,
                messages=tuple(self.messages),
                cwd=(s.cwds[0] if s.cwds else None) or workspace.get("cwd"),
                git_branch=s.git_branch or workspace.get("branch"),
                title=workspace.get("name") or workspace.get("summary"),
                started_at=s.started_at,
                ended_at=s.ended_at,
                models=tuple(s.models),
                source_paths=(self.p,),
                extra=extra,
            )
        ]

    def warnings(self) -> list[Problem]:
        out = list(self.problems)
        for label, n in self.unknown.items():
            what = "with no type" if label == "None" else f"of unknown type {label}"
            out.append(Problem(self.p, f"skipped {plural(n, 'event')} {what}"))
        return out


def _result_text(data: dict[str, Any]) -> tuple[str, bool]:
    """(text, failed) of `tool.execution_complete`: `result.content`, or the older
    `result.text_result_for_llm` with a `result_type`, or an `error`."""
    result = data.get("result")
    failed = False
    text = ""
    if isinstance(result, str):
        text = result
    elif isinstance(result, dict):
        value = next(
            (
                result[k]
                for k in ("content", "text_result_for_llm", "textResultForLlm")
                if isinstance(result.get(k), str)
            ),
            None,
        )
        text = value if value is not None else (compact_json(result.get("content")) if "content" in result else "")
        kind = result.get("result_type") or result.get("resultType")
        failed = isinstance(kind, str) and kind.lower() in FAILED_RESULT_TYPES
    error = data.get("error")
    if not text and error is not None:
        text = error.get("message", compact_json(error)) if isinstance(error, dict) else str(error)
        failed = True
    return text, failed


# --- pre-1.0 session objects (history-session-state/*.json) ---------------------------------------


def _parse_legacy(path: Path) -> ParseResult:
    p = str(path)
    data, error = load_json_file(path, LEGACY_FILE)
    if error is not None:
        return ParseResult(errors=[Problem(p, error)])
    if not isinstance(data, dict) or not ("timeline" in data or "chatMessages" in data):
        return ParseResult(errors=[Problem(p, "not a Copilot CLI session: no 'timeline' or 'chatMessages'")])
    sid = nonempty_str(data.get("sessionId")) or path.stem
    parser = _LegacyParser(p, sid)
    timeline = as_list(data.get("timeline"))
    if timeline:
        for index, entry in enumerate(timeline):
            parser.entry(index, entry)
    else:
        for index, message in enumerate(as_list(data.get("chatMessages"))):
            parser.chat_message(index, message)
    found = len(timeline) or len(as_list(data.get("chatMessages")))
    if not parser.messages:
        errors = [Problem(p, no_messages_error(f"1 session ({plural(found, 'entry')})"))] if found else []
        return ParseResult(warnings=parser.warnings(), errors=errors)
    stamps = [m.timestamp for m in parser.messages if m.timestamp]
    started = iso_utc(data.get("startTime"))
    stamps += [started] if started else []
    session = Session(
        agent=AGENT,
        native_id=sid,
        messages=tuple(parser.messages),
        started_at=min(stamps, default=None),
        ended_at=max(stamps, default=None),
        source_paths=(p,),
        extra={"format": "history-session-state"},
    )
    return ParseResult(sessions=[session], warnings=parser.warnings())


class _LegacyParser:
    """One pre-1.0 session: timeline entries (or chat messages) to messages, keyed by their ids."""

    def __init__(self, p: str, sid: str) -> None:
        self.p = p
        self.sid = sid
        self.messages: list[Message] = []
        self.keys: set[str] = set()
        self.unknown: Counter[str] = Counter()
        self.problems: list[Problem] = []

    def entry(self, index: int, entry: Any) -> None:
        if not isinstance(entry, dict):
            self.problems.append(Problem(self.p, f"timeline entry {index} is not an object; skipped"))
            return
        etype = entry.get("type")
        ts = iso_utc(entry.get("timestamp"))
        key = f"{self.sid}:{nonempty_str(entry.get('id')) or f'i{index}'}"
        raw_text = entry.get("text")
        text: str = raw_text if isinstance(raw_text, str) else ""
        if etype == "user":
            self._user(text, key, ts)
        elif etype == "copilot":
            if text.strip():
                self._add(Message("assistant", text, "response", key, ts))
        elif etype in ("tool_call_requested", "tool_call_completed"):
            call_id = nonempty_str(entry.get("callId"))
            name = nonempty_str(entry.get("name")) or nonempty_str(entry.get("toolTitle"))
            self._call(call_id, name, entry.get("arguments"), ts, key)
            if etype == "tool_call_completed":
                result = entry.get("result")
                output = as_dict(result).get("log") if isinstance(result, dict) else result
                out = output if isinstance(output, str) else compact_json(output) if output is not None else ""
                if as_dict(result).get("type") in FAILED_RESULT_TYPES:
                    out = "[error] " + out
                result_key = f"{self.sid}:result:{call_id}" if call_id else f"{key}:result"
                self._add(Message("tool", out[:OUTPUT_MAX], "tool_result", result_key, ts, tool_name=name))
        elif etype == "info":
            if text.strip():  # "Operation cancelled by user": the CLI's note, not conversation
                self._add(Message("system", text, "injected_context", key, ts))
        else:
            self.unknown["None" if etype is None else repr(etype)[:60]] += 1

    def chat_message(self, index: int, message: Any) -> None:
        """An OpenAI-style chat message (no times): the fallback when a file has no timeline."""
        if not isinstance(message, dict):
            self.problems.append(Problem(self.p, f"chat message {index} is not an object; skipped"))
            return
        role = message.get("role")
        key = f"{self.sid}:m{index}"
        content = message.get("content")
        text = content if isinstance(content, str) else ""
        if role == "user":
            self._user(text, key, None)
        elif role == "assistant":
            if text.strip():
                self._add(Message("assistant", text, "response", key, None))
            for n, call in enumerate(as_list(message.get("tool_calls"))):
                function = as_dict(as_dict(call).get("function"))
                self._call(
                    nonempty_str(as_dict(call).get("id")),
                    nonempty_str(function.get("name")),
                    decode_arguments(function.get("arguments")),
                    None,
                    f"{key}:{n}",
                )
        elif role == "tool":
            call_id = nonempty_str(message.get("tool_call_id"))
            name = next((m.tool_name for m in self.messages if m.key == f"{self.sid}:call:{call_id}"), None)
            result_key = f"{self.sid}:result:{call_id}" if call_id else key
            self._add(Message("tool", text[:OUTPUT_MAX], "tool_result", result_key, None, tool_name=name))
        elif role != "system":  # the system prompt is the CLI's own text
            self.unknown[f"chat message of role {type_label(role)}"] += 1

    def _user(self, text: str, key: str, ts: str | None) -> None:
        """A user text: the blocks the CLI put in front of it (`<current_datetime>…`) are context."""
        parts: list[tuple[str, str]] = []
        lead = LEADING_BLOCK_RE.match(text)
        while lead is not None:
            parts.append(("injected_context", lead.group(1)))
            text = text[lead.end() :]
            lead = LEADING_BLOCK_RE.match(text)
        parts += classify_user_text(text, INJECTED_PREFIXES, strip=True)
        for message in user_messages(parts, key, ts):
            self._add(message)

    def _call(self, call_id: str | None, name: str | None, arguments: Any, ts: str | None, fallback: str) -> None:
        tool_input = arguments if isinstance(arguments, dict) else {} if arguments is None else {"arguments": arguments}
        text = tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS))
        key = f"{self.sid}:call:{call_id}" if call_id else fallback
        files = input_paths(tool_input, PATH_KEYS)
        self._add(Message("assistant", text, "tool_call", key, ts, tool_name=name, tool_input=tool_input, files=files))

    def _add(self, message: Message) -> None:
        if first_sight(self.keys, message):
            self.messages.append(message)

    def warnings(self) -> list[Problem]:
        out = list(self.problems)
        for label, n in self.unknown.items():
            out.append(Problem(self.p, f"skipped {plural(n, 'timeline entry')} of unknown type {label}"))
        return out
