"""Gemini CLI adapter: `~/.gemini/tmp/<project>/chats/session-*.json[l]` in, Sessions out.

Format notes live in docs/session-formats.md §3. Two containers for the same ConversationRecord:

- a single JSON object (Sept 2025 → Apr 2026, still written by lagging installs), re-read whole;
- a JSONL operation log (Apr 2026 →): a metadata header line, MessageRecord lines (an id written
  again is an update: the last write wins, in the first write's place), `{"$set": {…}}` metadata
  merges and `{"$rewindTo": id}`, which drops that message and everything after it (a `/rewind`
  is the person taking it back). `$set.messages` is a checkpoint written after compression or
  output masking: its messages are rewrites, but what it leaves out is kept, since compression
  only removed it from the model's context.

The op-log is resumed, not re-read: every message line is a complete record, so a resumed parse
re-emits each written (or re-written) message under its stable key and the store replaces it;
the resume point carries the ordered ids so a later `$rewindTo` still knows what it drops. A
rewind cannot take back what an earlier parse stored, whichever way the file is read.

Session files hold no cwd: it comes from the project folder's `.project_root`, or from
`~/.gemini/projects.json` (slug or sha256 of the path). The parser never raises.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from smriti.adapters._common import (
    OUTPUT_MAX,
    UUID_RE,
    classify_user_text,
    compact_json,
    guarded_parse,
    home_dir,
    input_paths,
    input_summary,
    iso_utc,
    join_parts,
    no_messages_error,
    nonempty_str,
    plural,
    read_json_or_none,
    tool_call_text,
)
from smriti.adapters._jsonl import (
    MAX_SIDE_FILE_BYTES,
    MAX_WHOLE_SOURCE_BYTES,
    json_type_name,
    open_regular,
    read_jsonl,
    read_regular,
)
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "gemini"

SESSION_NAME_RE = re.compile(r"^session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-(?P<short>[^.]+)\.jsonl?$")
# `*.unreadable-<ms>` quarantines and `*.tmp-<pid>` atomic-write temporaries are never sources.
SIDE_FILE_RE = re.compile(r"\.(unreadable|tmp)-[^/]*$")
SKIPPED_TYPES = frozenset({"info", "error", "warning"})  # UI notices, not conversation
RESPONSE_TYPES = frozenset({"gemini", "model"})  # "model" from third-party writers [obs]
# Chat compression replaces the old history with a user turn holding the model's `<state_snapshot>`
# [src chatCompressionService.ts]; it reaches the file through a `$set.messages` checkpoint.
SUMMARY_MARK = "<state_snapshot>"
INJECTED_PREFIXES = ("<system-reminder>", "<session_context>", "<environment_details>", "<user-memory-input>")
# The turn Gemini CLI sends by itself when a reply stopped short (an invalid stream): the agent's
# words, recorded as a user turn. A person typing "please continue" has no "System: " in front.
AUTO_CONTINUE = "System: Please continue."
SUMMARY_KEYS = ("command", "file_path", "absolute_path", "path", "dir_path", "pattern", "url", "query", "description")
PATH_KEYS = ("file_path", "absolute_path", "path", "notebook_path", "filePath")


class GeminiAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return [c for c in self.candidate_roots() if c.is_dir()]

    def candidate_roots(self) -> list[Path]:
        return list(dict.fromkeys(home / "tmp" for home in _gemini_homes()))

    def discover(self, root: Path) -> Iterator[Path]:
        """Every chat file under root: `chats/session-*.json[l]` and sub-agent `chats/<parent>/*.jsonl`.

        A `.json` whose `.jsonl` twin exists is skipped: resuming an old session rewrites it into
        the op-log, which then holds everything the `.json` had.
        """
        if root.is_file():
            yield root
            return
        if not root.is_dir():
            return
        found: list[Path] = []
        for path in root.rglob("*.json*"):
            if _is_chat_file(path) and not (path.suffix == ".json" and path.with_name(path.name + "l").exists()):
                found.append(path)
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                return (
                    (path.name == ".gemini" and (path / "tmp").is_dir())
                    or (path.name == "tmp" and path.parent.name == ".gemini")
                    or (path.name == "chats" and path.parent.parent.name == "tmp")
                )
            if _is_chat_file(path):
                return True
            with open_regular(path) as fh:
                head = fh.read(4096).decode("utf-8", "replace").lstrip()
            if '"projectHash"' in head and '"sessionId"' in head:
                return True
            # A header-less op-log: MessageRecord lines with Gemini's types.
            return bool(re.match(r'\{"id":"[^"]+","timestamp":"[^"]+","type":"(user|gemini)"', head))
        except Exception:  # a sniff must never raise
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(_parse, path, resume, "could not read the session")


def _parse(path: Path, resume: Any) -> ParseResult:
    if path.suffix == ".json":
        return _parse_json(path)
    return _parse_jsonl(path, resume)


# --- locations -----------------------------------------------------------------------------------


def _gemini_homes() -> list[Path]:
    """`$GEMINI_CLI_HOME/.gemini` (Gemini CLI's home override), then `~/.gemini`."""
    homes: list[Path] = []
    override = os.environ.get("GEMINI_CLI_HOME", "").strip()
    if override:
        homes.append(Path(override) / ".gemini")
    homes.append(home_dir() / ".gemini")
    userprofile = os.environ.get("USERPROFILE")
    if userprofile:
        homes.append(Path(userprofile) / ".gemini")
    return list(dict.fromkeys(homes))


def _is_chat_file(path: Path) -> bool:
    if SIDE_FILE_RE.search(path.name) or path.suffix not in (".json", ".jsonl"):
        return False
    if path.parent.name == "chats":
        return path.name.startswith("session-")
    # Sub-agent sessions: chats/<parentSessionId>/<sessionId>.jsonl
    return path.suffix == ".jsonl" and path.parent.parent.name == "chats"


def _project_dir(path: Path) -> Path | None:
    for ancestor in path.parents:
        if ancestor.name == "chats":
            return ancestor.parent
    return None


_PROJECTS_CACHE: dict[str, tuple[tuple[int, int], dict[str, str]]] = {}


def _projects(gemini_home: Path) -> dict[str, str]:
    """`projects.json`: {absolute project path: slug}."""
    path = gemini_home / "projects.json"
    try:
        st = path.stat()
    except OSError:
        return {}
    stamp = (st.st_mtime_ns, st.st_size)
    cached = _PROJECTS_CACHE.get(str(path))
    if cached is None or cached[0] != stamp:
        data = read_json_or_none(path)
        projects = data.get("projects") if isinstance(data, dict) else None
        mapping = (
            {k: v for k, v in projects.items() if nonempty_str(k) and nonempty_str(v)}
            if isinstance(projects, dict)
            else {}
        )
        cached = _PROJECTS_CACHE[str(path)] = (stamp, mapping)
    return cached[1]


def _cwd_for(path: Path, project_hash: str | None) -> str | None:
    """The project root of a chat file, from the sidecars Gemini CLI keeps [docs §3.1, §10.4]."""
    project = _project_dir(path)
    if project is None:
        return None
    try:
        root = read_regular(project / ".project_root", MAX_SIDE_FILE_BYTES).decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):
        root = ""
    if root:
        return root
    projects = _projects(project.parent.parent)
    for cwd, slug in projects.items():
        if slug == project.name:
            return cwd
    # Hash-named folders (before Feb 2026): sha256 of the absolute project root; the folder's
    # name first, then the hash the file itself records.
    hashes = {hashlib.sha256(cwd.encode("utf-8")).hexdigest(): cwd for cwd in projects}
    return hashes.get(project.name) or (hashes.get(project_hash) if project_hash else None)


# --- small value helpers -------------------------------------------------------------------------


def _id_from_name(path: Path) -> str:
    """`session-<date>-<first 8 of id>.jsonl` holds only a prefix; sub-agent files the full id."""
    match = SESSION_NAME_RE.match(path.name)
    return match.group("short") if match else path.name.split(".", 1)[0]


# --- state ---------------------------------------------------------------------------------------

META_KEYS = ("sessionId", "projectHash", "startTime", "lastUpdated", "summary", "kind", "directories")


@dataclass
class _State:
    """The replayed conversation: metadata, and message ids in the order Gemini keeps them."""

    meta: dict[str, Any] = field(default_factory=dict)
    ids: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    started_at: str | None = None
    ended_at: str | None = None
    header: bool = False
    emitted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "meta": self.meta,
            "ids": self.ids,
            "models": self.models,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "header": self.header,
            "emitted": self.emitted,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> _State:
        meta = data.get("meta")
        ids = data.get("ids")
        models = data.get("models")
        return cls(
            meta={k: v for k, v in meta.items() if k in META_KEYS} if isinstance(meta, dict) else {},
            ids=[i for i in ids if isinstance(i, str)] if isinstance(ids, list) else [],
            models=[m for m in models if nonempty_str(m)] if isinstance(models, list) else [],
            started_at=nonempty_str(data.get("started_at")),
            ended_at=nonempty_str(data.get("ended_at")),
            header=data.get("header") is True,
            emitted=data.get("emitted") is True,
        )

    def facts(self) -> tuple[Any, ...]:
        return (compact_json(self.meta), tuple(self.models), self.started_at, self.ended_at)


# --- parsing -------------------------------------------------------------------------------------


def _parse_json(path: Path) -> ParseResult:
    """A legacy ConversationRecord, re-read whole."""
    p = str(path)
    try:
        data = json.loads(read_regular(path, MAX_WHOLE_SOURCE_BYTES).decode("utf-8"))
    except IsADirectoryError:
        return ParseResult(errors=[Problem(p, "is a directory, not a session file")])
    except (OSError, UnicodeDecodeError) as exc:
        return ParseResult(errors=[Problem(p, f"cannot read the file: {exc}")])
    except ValueError as exc:
        return ParseResult(errors=[Problem(p, f"malformed JSON: {exc}")])
    if not isinstance(data, dict):
        return ParseResult(errors=[Problem(p, f"the file is a JSON {json_type_name(data)}, not a session object")])
    if not isinstance(data.get("messages"), list):
        return ParseResult(
            errors=[Problem(p, "no 'messages' array: not a Gemini CLI session, or the format has changed")]
        )
    replay = _Replay(path, _State(), resuming=False)
    replay.state.header = True
    replay.apply_record(data)
    return replay.result()


def _parse_jsonl(path: Path, resume: Any) -> ParseResult:
    read = read_jsonl(path, resume)
    resuming = isinstance(resume, dict) and isinstance(resume.get("offset"), int) and not read.restarted
    replay = _Replay(path, _State.load(resume) if resuming else _State(), resuming=resuming)
    for line_no, record in read.records:
        replay.apply(line_no, record)
    result = replay.result()  # first: building the result updates the state
    return replace(
        result,
        resume=read.resume_point(**replay.state.to_json()),
        errors=[*read.errors, *result.errors],
        warnings=[*read.warnings, *result.warnings],
    )


class _Replay:
    """Replays op-log lines (or one legacy record) and turns the surviving records into messages."""

    def __init__(self, path: Path, state: _State, *, resuming: bool) -> None:
        self.path = path
        self.p = str(path)
        self.state = state
        self.resuming = resuming
        self.facts_before = state.facts() if state.emitted else None
        self.written: dict[str, tuple[int, dict[str, Any]]] = {}  # id → last write in this parse
        self.message_records = 0
        self.problems: list[Problem] = []
        self.unknown: Counter[str] = Counter()

    # -- replay --

    def apply(self, line_no: int, record: dict[str, Any]) -> None:
        try:
            self._apply(line_no, record)
        except Exception as exc:  # one odd record must never stop the file
            self.problems.append(
                Problem(self.p, f"record could not be read ({type(exc).__name__}: {exc}); skipped", line_no)
            )

    def apply_record(self, record: dict[str, Any]) -> None:
        """A whole legacy ConversationRecord: its metadata and its message list."""
        self._merge(record, 0)

    def _apply(self, line_no: int, record: dict[str, Any]) -> None:
        if "$rewindTo" in record:
            self._rewind(record["$rewindTo"], line_no)
        elif "$set" in record:
            if isinstance(record["$set"], dict):
                self._merge(record["$set"], line_no)
            else:
                self.problems.append(Problem(self.p, "$set is not an object; skipped", line_no))
        elif isinstance(record.get("id"), str):
            self._write(line_no, record)
        elif nonempty_str(record.get("sessionId")):
            # The header (or a whole legacy record written as one line).
            self.state.header = True
            self._merge(record, line_no)
        else:
            self.unknown["record with no id"] += 1

    def _write(self, line_no: int, record: dict[str, Any]) -> None:
        """A MessageRecord: new, or a rewrite that keeps its first place."""
        self.message_records += 1
        mid = record["id"]
        if mid not in self.state.ids:
            self.state.ids.append(mid)
        self.written[mid] = (line_no, record)

    def _merge(self, values: dict[str, Any], line_no: int) -> None:
        meta = self.state.meta
        for key in META_KEYS:
            if key in values and values[key] is not None:
                meta[key] = values[key]
        messages = values.get("messages")
        if isinstance(messages, list):
            # A checkpoint. Gemini CLI loads it in place of the whole list, but the messages it
            # leaves out were compressed out of the model's context, not un-said: they are kept
            # (a whole read then agrees with a resumed one). Listed messages are rewritten.
            for index, message in enumerate(messages):
                if isinstance(message, dict) and isinstance(message.get("id"), str):
                    self._write(line_no, message)
                else:
                    self.problems.append(Problem(self.p, f"message {index} has no string id; skipped", line_no))

    def _rewind(self, target: Any, line_no: int) -> None:
        """`/rewind`: drop the message and everything after it (everything, if it is unknown)."""
        ids = self.state.ids
        index = ids.index(target) if isinstance(target, str) and target in ids else 0
        for mid in ids[index:]:
            self.written.pop(mid, None)
        del ids[index:]

    # -- results --

    def result(self) -> ParseResult:
        s = self.state
        meta = s.meta
        native_id = nonempty_str(meta.get("sessionId")) or _id_from_name(self.path)
        sidechain = meta.get("kind") == "subagent"
        builder = _Builder(native_id, sidechain)
        for mid in s.ids:
            if mid in self.written:
                line_no, record = self.written[mid]
                self._build(builder, line_no, record)
        for message in builder.messages:
            if message.timestamp:
                s.started_at = min(filter(None, [s.started_at, message.timestamp]))
                s.ended_at = max(filter(None, [s.ended_at, message.timestamp]))
        for model in builder.models:
            if model not in s.models:
                s.models.append(model)
        started = iso_utc(meta.get("startTime"))
        s.started_at = min(filter(None, [started, s.started_at]), default=None)
        s.ended_at = max(filter(None, [iso_utc(meta.get("lastUpdated")), s.ended_at]), default=None)

        errors: list[Problem] = []
        warnings = [*self.problems, *self._unknown_warnings(builder)]
        if not self.resuming and self.path.suffix == ".jsonl" and not s.header and self.message_records:
            warnings.append(Problem(self.p, "no metadata header line: the session id is taken from the file name"))
        sessions: list[Session] = []
        changed = self.facts_before is not None and s.facts() != self.facts_before
        if builder.messages or changed:
            s.emitted = True
            sessions.append(self._session(native_id, builder))
        elif not self.resuming and self.message_records:
            errors.append(Problem(self.p, no_messages_error("1 session(s)")))
        return ParseResult(sessions=sessions, warnings=warnings, errors=errors)

    def _build(self, builder: _Builder, line_no: int, record: dict[str, Any]) -> None:
        try:
            builder.add(record)
        except Exception as exc:
            self.problems.append(
                Problem(self.p, f"message could not be read ({type(exc).__name__}: {exc}); skipped", line_no or None)
            )

    def _session(self, native_id: str, builder: _Builder) -> Session:
        s = self.state
        meta = s.meta
        project_hash = nonempty_str(meta.get("projectHash"))
        directories = meta.get("directories")
        first_dir = (
            directories[0] if isinstance(directories, list) and directories and nonempty_str(directories[0]) else None
        )
        parent = self._parent() if meta.get("kind") == "subagent" else None
        extra = {k: v for k, v in {"project_hash": project_hash, "kind": nonempty_str(meta.get("kind"))}.items() if v}
        return Session(
            agent=AGENT,
            native_id=native_id,
            messages=tuple(builder.messages),
            cwd=_cwd_for(self.path, project_hash) or first_dir,
            title=nonempty_str(meta.get("summary")),
            started_at=s.started_at,
            ended_at=s.ended_at,
            models=tuple(s.models),
            source_paths=(self.p,),
            parent_native_id=parent,
            extra=extra,
        )

    def _parent(self) -> str | None:
        """Sub-agent chats live in `chats/<parent session id>/`."""
        folder = self.path.parent
        if folder.name != "chats" and (folder.parent.name == "chats" or UUID_RE.fullmatch(folder.name)):
            return folder.name
        return None

    def _unknown_warnings(self, builder: _Builder) -> list[Problem]:
        out = [Problem(self.p, f"skipped {plural(n, label)}") for label, n in self.unknown.items()]
        for label, n in builder.unknown.items():
            what = "with no type" if label == "None" else f"of unknown type {label}"
            out.append(Problem(self.p, f"skipped {plural(n, 'message')} {what}"))
        return out


class _Builder:
    """MessageRecords → Messages, in the conversation's order."""

    def __init__(self, native_id: str, sidechain: bool) -> None:
        self.native_id = native_id
        self.sidechain = sidechain
        self.messages: list[Message] = []
        self.models: list[str] = []
        self.keys: set[str] = set()
        self.unknown: Counter[str] = Counter()

    def add(self, record: dict[str, Any]) -> None:
        mtype = record.get("type")
        key = f"{self.native_id}:{record['id']}"
        ts = iso_utc(record.get("timestamp"))
        content = record.get("content", record.get("parts"))
        if mtype == "user":
            self._user(content, key, ts)
        elif mtype in RESPONSE_TYPES:
            model = nonempty_str(record.get("model"))
            if model and model not in self.models:
                self.models.append(model)
            text = _parts_text(content)
            if text.strip():
                self._emit(Message("assistant", text, "response", key, ts))
            calls = record.get("toolCalls")
            if isinstance(calls, list):
                for index, call in enumerate(calls):
                    if isinstance(call, dict):
                        self._tool(call, key, index, ts)
        elif mtype not in SKIPPED_TYPES:
            self.unknown[repr(mtype)[:60]] += 1

    def _user(self, content: Any, key: str, ts: str | None) -> None:
        text = _parts_text(content)
        if SUMMARY_MARK in text:  # chat compression's summary, put in as a user turn
            self._emit(Message("system", text, "summary", key, ts))
            return
        parts = classify_user_text(text, INJECTED_PREFIXES, strip=True)
        if text.strip() == AUTO_CONTINUE:
            parts = [("injected_context", text.strip())]
        prompt, injected = join_parts(parts)
        order = [k for k, _ in parts]
        for kind in sorted(set(order), key=order.index):
            if kind == "prompt":
                self._emit(Message("user", prompt, "prompt", key, ts))
            else:
                self._emit(Message("user", injected, "injected_context", key + ":ctx" if prompt else key, ts))

    def _tool(self, call: dict[str, Any], key: str, index: int, ts: str | None) -> None:
        call_id = nonempty_str(call.get("id")) or str(index)
        name = nonempty_str(call.get("name"))
        args = call.get("args")
        tool_input = args if isinstance(args, dict) else ({} if args is None else {"args": args})
        text = tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS))
        files = input_paths(tool_input, PATH_KEYS)
        call_ts = iso_utc(call.get("timestamp")) or ts
        call_key = f"{key}:{call_id}"
        self._emit(
            Message(
                "assistant",
                text,
                "tool_call",
                call_key,
                call_ts,
                tool_name=name,
                tool_input=tool_input,
                files=files,
            )
        )
        status = call.get("status")
        output, failed = _result_text(call.get("result"))
        if not output and isinstance(call.get("resultDisplay"), str):
            output = call["resultDisplay"]
        failed = failed or status in ("error", "cancelled")
        if not output and not failed:
            return  # not run yet (or an older record without results)
        if failed:
            output = "[error] " + (output or str(status))
        self._emit(
            Message(
                "tool",
                output[:OUTPUT_MAX],
                "tool_result",
                call_key + ":result",
                call_ts,
                tool_name=name,
            )
        )

    def _emit(self, message: Message) -> None:
        if message.key in self.keys:  # two calls of one record sharing an id
            return
        self.keys.add(message.key)
        if self.sidechain:
            message = replace(message, sidechain=True)
        self.messages.append(message)


def _parts_text(content: Any) -> str:
    """Text of a PartListUnion: a string, a Part, or a list of them. Thoughts and tool parts are
    not text; inline data becomes "[image]"/"[file]", never its bytes."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return ""
    out: list[str] = []
    for part in content:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, dict) and not part.get("thought"):
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            elif isinstance(part.get("inlineData"), dict):
                mime = str(part["inlineData"].get("mimeType") or "")
                out.append("[image]" if mime.startswith("image/") else "[file]")
            elif isinstance(part.get("fileData"), dict):
                out.append("[file]")
    return "\n\n".join(t for t in out if t.strip())


def _result_text(result: Any) -> tuple[str, bool]:
    """(text, failed) of a tool call's `result`: functionResponse {response: {output | error | …}}."""
    if isinstance(result, str):
        return result, False
    if isinstance(result, dict):
        result = [result]
    if not isinstance(result, list):
        return "", False
    out: list[str] = []
    failed = False
    for part in result:
        if not isinstance(part, dict):
            continue
        response = (
            part.get("functionResponse", {}).get("response") if isinstance(part.get("functionResponse"), dict) else None
        )
        if isinstance(response, dict):
            failed = failed or ("error" in response and "output" not in response)
            value = next((response[k] for k in ("output", "error", "llmContent", "content") if k in response), response)
            out.append(value if isinstance(value, str) else _parts_text(value) or compact_json(value))
        elif isinstance(response, str):
            out.append(response)
        else:
            text = _parts_text([part])
            if text:
                out.append(text)
    return "\n".join(out), failed
