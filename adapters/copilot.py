"""GitHub Copilot Chat in VS Code: chatSessions JSON/JSONL and agent transcripts in, Sessions out.

Format notes live in docs/session-formats.md §5.1. VS Code's chat service stores one session per
file under `<Code user dir>/User/`:

- `workspaceStorage/<hash>/chatSessions/<id>.json`: a whole `ISerializableChatData` (v1-v3);
- `workspaceStorage/<hash>/chatSessions/<id>.jsonl`: the newer object-mutation journal, a
  `kind:0` snapshot then patches (`1` set at path `k`, `2` push onto the array at `k`, truncating
  to `i` first when given, `3` delete), replayed here into the same object;
- `globalStorage/emptyWindowChatSessions/<id>.json[l]`: sessions of windows with no folder;
- `workspaceStorage/<hash>/GitHub.copilot-chat/transcripts/<id>.jsonl`: the extension's agent
  event stream (`session.start`, `user.message`, `assistant.message`, `tool.execution_*`).

A session is a list of requests; each request becomes its prompt, the context Copilot rendered
around it (injected), its tool calls with their results, and one response. Keys are derived from
`requestId`, so the `.json` and `.jsonl` copies of one session (VS Code migrated them) and an
"Export Chat" file of it all name the same messages. `workspace.json` next to `chatSessions/`
maps the storage folder to the workspace folder, the session's cwd.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from smriti.adapters._common import (
    OUTPUT_MAX,
    as_dict,
    as_list,
    editor_user_dirs,
    first_sight,
    guarded_parse,
    home_dir,
    input_paths,
    input_summary,
    iso_utc,
    maybe_json,
    no_messages_error,
    nonempty_str,
    plural,
    read_json_or_none,
    strip_smriti_context,
    tool_call_text,
    without_inline_images,
)
from smriti.adapters._jsonl import (
    MAX_WHOLE_SOURCE_BYTES,
    JsonlRead,
    open_regular,
    oserror_text,
    read_jsonl,
    read_regular,
)
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "copilot"

# VS Code builds whose chat storage has the same shape, and the remote-server data dirs.
VARIANTS = ("Code", "Code - Insiders", "VSCodium", "Code - OSS")
SERVER_DIRS = (".vscode-server", ".vscode-server-insiders", ".vscode-remote")
EXTENSION_DIRS = ("GitHub.copilot-chat", "github.copilot-chat")
SESSION_FOLDERS = ("chatSessions", "emptyWindowChatSessions")

MARKDOWN_LINK_RE = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
SUMMARY_KEYS = ("command", "file_path", "filePath", "path", "pattern", "url", "query", "description")
FILE_KEYS = ("file_path", "filePath", "path", "notebook_path", "dirPath")
# A journal's `kind: 0` line is a snapshot of the whole session: tens of MB for a long one.
JOURNAL_MAX_LINE_BYTES = 64 * 1024 * 1024
# A model id names its vendor first; the built-in `copilot/` prefix says nothing.
MODEL_PREFIX = "copilot/"

# Transcript events that carry no conversation text of their own.
KNOWN_EVENTS = frozenset(
    {
        "session.start",
        "session.info",
        "session.error",
        "session.resume",
        "session.shutdown",
        "session.truncation",
        "session.usage_checkpoint",
        "session.model_change",
        "session.compaction_start",
        "session.compaction_complete",
        "assistant.turn_start",
        "assistant.turn_end",
        "assistant.reasoning",
        "assistant.usage",
        "system.message",
        "system.notification",
        "abort",
        "permission.requested",
        "permission.completed",
        "hook.start",
        "hook.end",
        "subagent.started",
        "subagent.completed",
        "subagent.selected",
        "tool.execution_partial_result",
        "tool.user_requested",
    }
)


class CopilotAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return [c for c in self.candidate_roots() if c.is_dir()]

    def candidate_roots(self) -> list[Path]:
        return list(editor_user_dirs(home_dir(), VARIANTS, SERVER_DIRS))

    def discover(self, root: Path) -> Iterator[Path]:
        """Every session file under root (a User dir or anything below it), sorted.

        A `.json` whose `.jsonl` twin exists is skipped (VS Code migrated it and keeps writing the
        journal), and so is a transcript whose session also has a chatSessions file: the
        chatSessions copy is the richer one and both name the same conversation.
        """
        if root.is_file():
            yield root
            return
        found: set[Path] = set()
        for pattern in _discover_patterns(root):
            found.update(p for p in root.glob(pattern) if p.is_file())
        for path in sorted(found):
            if path.suffix == ".json" and path.with_suffix(".jsonl") in found:
                continue
            if path.parent.name == "transcripts" and _has_chat_session(path):
                continue
            yield path

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                return _detect_folder(path)
            if path.parent.name in SESSION_FOLDERS and path.suffix in (".json", ".jsonl"):
                return True
            if path.suffix == ".jsonl":
                return _detect_jsonl(path)
            if path.suffix == ".json":
                return _detect_json(path)
        except Exception:  # a sniff must never raise
            return False
        return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(self._parse, path, resume, "could not be read")

    def _parse(self, path: Path, resume: Any) -> ParseResult:
        p = str(path)
        if path.is_dir():
            return ParseResult(errors=[Problem(p, "is a directory, not a Copilot chat session file")])
        if path.suffix == ".jsonl":
            if _first_key(path) == "type":
                return _parse_transcript(path, resume)
            return _parse_journal(path, resume)
        return _parse_json(path)


# --- discovery and detection helpers -------------------------------------------------------------


def _discover_patterns(root: Path) -> list[str]:
    """Globs for every level a root may name: a User dir, its parent, a storage folder, a session folder."""
    if root.name in (*SESSION_FOLDERS, "transcripts"):
        return ["*.json", "*.jsonl"] if root.name != "transcripts" else ["*.jsonl"]
    per_storage = ["chatSessions/*.json", "chatSessions/*.jsonl"]
    per_storage += [f"{ext}/transcripts/*.jsonl" for ext in EXTENSION_DIRS]
    user = [f"workspaceStorage/*/{p}" for p in per_storage]
    user += ["globalStorage/emptyWindowChatSessions/*.json", "globalStorage/emptyWindowChatSessions/*.jsonl"]
    user += [f"globalStorage/{ext}/transcripts/*.jsonl" for ext in EXTENSION_DIRS]
    return [*per_storage, *[f"*/{p}" for p in per_storage], *user, *[f"User/{p}" for p in user]]


def _has_chat_session(transcript: Path) -> bool:
    """A transcript in <storage>/<extension>/transcripts/ whose session has a chatSessions file."""
    storage = transcript.parent.parent.parent
    stem = transcript.stem
    return any(
        (storage / folder / f"{stem}{ext}").is_file() for folder in SESSION_FOLDERS for ext in (".json", ".jsonl")
    )


def _detect_folder(path: Path) -> bool:
    if path.name in SESSION_FOLDERS:
        return True
    if path.name == "transcripts" and path.parent.name in EXTENSION_DIRS:
        return True
    named = any(part in VARIANTS or part in SERVER_DIRS for part in path.parts)
    return named and ((path / "workspaceStorage").is_dir() or (path / "User" / "workspaceStorage").is_dir())


def _head(path: Path, size: int = 8192) -> str:
    with open_regular(path) as fh:
        return fh.read(size).decode("utf-8", errors="replace")


def _first_key(path: Path) -> str | None:
    """The first key of the first record: `kind` (journal) or `type` (event transcript)."""
    try:
        match = re.match(r'\s*\{\s*"([^"]+)"', _head(path, 256))
    except OSError:
        return None
    return match.group(1) if match else None


def _detect_jsonl(path: Path) -> bool:
    head = _head(path)
    if re.match(r'\s*\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{', head):
        return True
    first = head.split("\n", 1)[0]
    # A VS Code transcript names vscodeVersion in session.start; Copilot CLI's does not.
    return '"session.start"' in first and '"vscodeVersion"' in first


def _detect_json(path: Path) -> bool:
    head = _head(path)
    if not head.lstrip().startswith("{") or '"requests"' not in head:
        return False
    return any(f'"{k}"' in head for k in ("responderUsername", "requesterUsername", "initialLocation", "creationDate"))


# --- small value helpers -------------------------------------------------------------------------


def _uri_to_path(uri: Any) -> str | None:
    """A VS Code URI (string or `{fsPath, path, scheme}`) as a local path."""
    if isinstance(uri, dict):
        return nonempty_str(uri.get("fsPath")) or nonempty_str(uri.get("path"))
    if not isinstance(uri, str) or not uri:
        return None
    if "://" not in uri:
        return uri
    path = unquote(urlparse(uri).path)
    if re.match(r"^/[A-Za-z]:", path):  # file:///c%3A/Users/... on Windows
        path = path[1:]
    return path or None


def _plain(value: Any) -> str | None:
    """A VS Code markdown string (`str` or `{value}`) as text, links reduced to their target."""
    text = value.get("value") if isinstance(value, dict) else value
    if not isinstance(text, str) or not text.strip():
        return None
    return MARKDOWN_LINK_RE.sub(lambda m: m.group(1) or _uri_to_path(m.group(2)) or m.group(2), text).strip()


def _model(model_id: Any) -> str | None:
    model = nonempty_str(model_id)
    return model.removeprefix(MODEL_PREFIX) if model else None


def _tool_call(name: str, tool_input: Any, key: str, ts: str | None, fallback: str | None = None) -> Message:
    summary = input_summary(tool_input, SUMMARY_KEYS)
    if summary is None and tool_input in (None, {}, ""):
        # An empty input says nothing; the "Reading file.ts" line VS Code showed says more.
        summary = fallback or None
    text = tool_call_text(name, tool_input, summary)
    files = input_paths(tool_input, FILE_KEYS)
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


def _rendered_text(parts: Any) -> str:
    """Text of a rendered prompt: a list of `{type, text}` pieces (cache markers have no text)."""
    if isinstance(parts, str):
        return parts
    if not isinstance(parts, list):
        return ""
    return "\n".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str))


def _tsx_text(node: Any) -> str:
    """Text of a tool result: plain strings, or a prompt-tsx tree whose leaves carry `text`."""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            mime = value.get("mimeType")
            if isinstance(mime, str) and mime.startswith("image/"):
                out.append("[image]")  # never the base64 payload
            elif isinstance(value.get("text"), str):
                out.append(value["text"])
            else:
                for key in ("value", "node", "children", "content"):
                    if key in value:
                        walk(value[key])

    walk(node)
    return "".join(out)


# --- chat sessions: one request → messages -------------------------------------------------------


@dataclass
class _Chat:
    """A session (ISerializableChatData or an export) turned into messages, request by request."""

    path: Path
    data: dict[str, Any]
    requests: list[tuple[str, list[Message]]] = field(default_factory=list)  # (request key, messages)
    models: list[str] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    found: int = 0

    def build(self) -> _Chat:
        requests = self.data.get("requests")
        for index, request in enumerate(requests if isinstance(requests, list) else []):
            if not isinstance(request, dict):
                self.skipped["request that is not a JSON object"] += 1
                continue
            self.found += 1
            rid = nonempty_str(request.get("requestId")) or f"{self.native_id}:{index}"
            try:
                self.requests.append((rid, self._request(rid, request)))
            except Exception as exc:  # one odd request must never lose the session
                self.skipped[f"request that could not be read ({type(exc).__name__}: {exc})"[:200]] += 1
            model = _model(request.get("modelId"))
            if model and model not in self.models:
                self.models.append(model)
        return self

    @cached_property
    def native_id(self) -> str:
        """The session id. A session file is named after it; an "Export Chat" file (any name, no
        sessionId) falls back to the extension's conversation id or its first request id."""
        sid = nonempty_str(self.data.get("sessionId"))
        if sid:
            return sid
        if self.path.suffix == ".jsonl" or self.path.parent.name in SESSION_FOLDERS:
            return self.path.stem
        for request in as_list(self.data.get("requests")):
            request = as_dict(request)
            found = nonempty_str(
                as_dict(as_dict(request.get("result")).get("metadata")).get("sessionId")
            ) or nonempty_str(request.get("requestId"))
            if found:
                return found
        return self.path.stem

    def _request(self, rid: str, request: dict[str, Any]) -> list[Message]:
        ts = iso_utc(request.get("timestamp"))
        out: list[Message] = []
        prompt, smriti = strip_smriti_context(_message_text(request.get("message")))
        if prompt:
            out.append(Message("user", prompt, "prompt", rid, ts, files=_attached_files(request)))
        result = as_dict(request.get("result"))
        metadata = as_dict(result.get("metadata"))
        injected = "\n\n".join(
            t
            for t in (
                smriti,
                _rendered_text(metadata.get("renderedGlobalContext")),
                _rendered_text(metadata.get("renderedUserMessage")),
            )
            if t.strip()
        )
        if injected:
            out.append(Message("user", injected, "injected_context", f"{rid}:context", ts))
        out += self._tools(rid, request, metadata)
        reply = _response_text(request, metadata)
        if reply:
            out.append(
                Message("assistant", reply, "response", f"{rid}:response", _response_time(request, result) or ts)
            )
        if not out and request.get("message") is None:
            self.skipped["request with no message"] += 1
        return out

    def _tools(self, rid: str, request: dict[str, Any], metadata: dict[str, Any]) -> list[Message]:
        """Tool calls keyed by their order in the request, so a request read while still running
        (only response items) and after it finished (toolCallRounds) names its calls the same."""
        invocations = [
            i for i in as_list(request.get("response")) if as_dict(i).get("kind") == "toolInvocationSerialized"
        ]
        rounds = as_list(metadata.get("toolCallRounds"))
        calls = [c for r in rounds for c in as_list(as_dict(r).get("toolCalls")) if isinstance(c, dict)]
        out: list[Message] = []
        if calls:
            results = as_dict(metadata.get("toolCallResults"))
            # Invocations line up with calls only when they are as many (one edit can show twice).
            errors = [_invocation_failed(i) for i in invocations] if len(invocations) == len(calls) else []
            for n, call in enumerate(calls):
                name = nonempty_str(call.get("name")) or "tool"
                key = f"{rid}:tool:{n}"
                out.append(_tool_call(name, maybe_json(call.get("arguments")), key, None))
                call_id = nonempty_str(call.get("id"))
                if call_id and call_id in results:
                    failed = bool(errors and errors[n])
                    out.append(_result(name, _tsx_text(results[call_id]), failed, f"{key}:result"))
            return out
        for n, item in enumerate(invocations):
            name = nonempty_str(item.get("toolId")) or "tool"
            key = f"{rid}:tool:{n}"
            out.append(_tool_call(name, _invocation_input(item), key, None, _plain(item.get("invocationMessage"))))
            details = item.get("resultDetails")
            output = details.get("output") if isinstance(details, dict) else None
            if output is not None:
                out.append(_result(name, _tsx_text(output), _invocation_failed(item), f"{key}:result"))
        return out

    def session(self, messages: list[Message], cwd: str | None) -> Session:
        stamps = [m.timestamp for m in messages if m.timestamp]
        started = iso_utc(self.data.get("creationDate")) or min(stamps, default=None)
        ended = max(filter(None, [iso_utc(self.data.get("lastMessageDate")), *stamps]), default=None)
        title = nonempty_str(self.data.get("customTitle")) or nonempty_str(self.data.get("computedTitle"))
        return Session(
            agent=AGENT,
            native_id=self.native_id,
            messages=tuple(messages),
            cwd=cwd,
            title=title,
            started_at=started,
            ended_at=ended,
            models=tuple(self.models),
            source_paths=(str(self.path),),
        )

    def warnings(self) -> list[Problem]:
        return [Problem(str(self.path), f"skipped {plural(n, what)}") for what, n in self.skipped.items()]


def _message_text(message: Any) -> str:
    if isinstance(message, str):
        return message
    if not isinstance(message, dict):
        return ""
    if isinstance(message.get("text"), str):
        return message["text"]
    parts = message.get("parts")
    if not isinstance(parts, list):
        return ""
    return "".join(p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str))


def _attached_files(request: dict[str, Any]) -> tuple[str, ...]:
    data = request.get("variableData")
    variables = data.get("variables") if isinstance(data, dict) else None
    paths: list[str] = []
    for var in variables if isinstance(variables, list) else []:
        if isinstance(var, dict) and var.get("kind") == "file":
            value = var.get("value")
            uri = value.get("uri") if isinstance(value, dict) and "uri" in value else value
            path = _uri_to_path(uri)
            if path:
                paths.append(path)
    return tuple(dict.fromkeys(paths))


def _response_text(request: dict[str, Any], metadata: dict[str, Any]) -> str:
    """The model's text: its rounds when the request finished, else the streamed markdown pieces."""
    rounds = metadata.get("toolCallRounds")
    if isinstance(rounds, list):
        texts = [r["response"].strip() for r in rounds if isinstance(r, dict) and isinstance(r.get("response"), str)]
        if any(texts):
            return "\n\n".join(t for t in texts if t)
    pieces: list[str] = []
    for item in as_list(request.get("response")):
        if not isinstance(item, dict):
            continue
        kind = item.get("kind")
        if kind is None and isinstance(item.get("value"), str):
            pieces.append(item["value"])  # markdown fragments: adjacent ones form one text
        elif kind == "markdownContent":
            pieces.append(_plain(item.get("content")) or "")
        elif kind == "inlineReference":
            ref = item.get("inlineReference")
            target = ref.get("uri") if isinstance(ref, dict) and "uri" in ref else ref
            label = nonempty_str(item.get("name")) or os.path.basename(_uri_to_path(target) or "")
            if label:
                pieces.append(f"`{label}`")
    return "".join(pieces).strip()


def _response_time(request: dict[str, Any], result: dict[str, Any]) -> str | None:
    state = request.get("modelState")
    if isinstance(state, dict) and iso_utc(state.get("completedAt")):
        return iso_utc(state.get("completedAt"))
    timings = result.get("timings")
    start = request.get("timestamp")
    elapsed = timings.get("totalElapsed") if isinstance(timings, dict) else None
    if isinstance(start, (int, float)) and isinstance(elapsed, (int, float)) and not isinstance(elapsed, bool):
        return iso_utc(start + elapsed)
    return None


def _invocation_input(item: dict[str, Any]) -> Any:
    specific = item.get("toolSpecificData")
    if isinstance(specific, dict) and "rawInput" in specific:
        return specific["rawInput"]
    details = item.get("resultDetails")
    if isinstance(details, dict) and "input" in details:
        return maybe_json(details["input"])
    return {}


def _invocation_failed(item: dict[str, Any]) -> bool:
    details = item.get("resultDetails")
    return isinstance(details, dict) and details.get("isError") is True


def _result(name: str | None, text: str, failed: bool, key: str, ts: str | None = None) -> Message:
    text = ("[error] " if failed else "") + without_inline_images(text)[:OUTPUT_MAX]
    return Message("tool", text, "tool_result", key, ts, tool_name=name)


def _workspace_folder(path: Path) -> str | None:
    """The workspace folder of a session file in <storage>/chatSessions/ or <storage>/<ext>/transcripts/."""
    if path.parent.name == "chatSessions":
        storage = path.parent.parent
    elif path.parent.name == "transcripts" and path.parent.parent.name in EXTENSION_DIRS:
        storage = path.parent.parent.parent
    else:
        return None
    data = read_json_or_none(storage / "workspace.json")
    # A multi-root `workspace` file has no single folder: leave the cwd unknown.
    return _uri_to_path(data.get("folder")) if isinstance(data, dict) else None


# --- whole-file JSON -----------------------------------------------------------------------------


def _parse_json(path: Path) -> ParseResult:
    p = str(path)
    try:
        data = json.loads(read_regular(path, MAX_WHOLE_SOURCE_BYTES))
    except OSError as exc:
        return ParseResult(errors=[Problem(p, oserror_text(exc))])
    except ValueError as exc:
        return ParseResult(errors=[Problem(p, f"malformed JSON: {exc}")])
    if not isinstance(data, dict) or not isinstance(data.get("requests"), list):
        return ParseResult(errors=[Problem(p, "not a Copilot chat session: no `requests` list")])
    chat = _Chat(path, data).build()
    return _result_of(chat, chat.requests, [], None)


def _result_of(
    chat: _Chat, requests: list[tuple[str, list[Message]]], problems: list[Problem], resume: Any, changed: bool = True
) -> ParseResult:
    """Sessions, warnings and the zero-message check shared by the .json and .jsonl readers."""
    messages = [m for _, ms in requests for m in ms]
    errors: list[Problem] = []
    sessions: list[Session] = []
    any_messages = any(ms for _, ms in chat.requests)
    # A resumed journal whose title alone changed still returns its session, without messages.
    if messages or (changed and resume is not None and any_messages):
        sessions.append(chat.session(messages, _workspace_folder(chat.path)))
    if chat.found and not any_messages:
        found = plural(chat.found, "request")
        errors.append(Problem(str(chat.path), no_messages_error(f"1 session ({found})")))
    return ParseResult(sessions=sessions, resume=resume, warnings=[*problems, *chat.warnings()], errors=errors)


# --- the JSONL journal ---------------------------------------------------------------------------


@dataclass
class _Replay:
    state: dict[str, Any] | None = None
    skipped: Counter[str] = field(default_factory=Counter)


def _replay(read: JsonlRead) -> _Replay:
    """Apply the journal entries in order; a patch that cannot apply is counted and skipped."""
    out = _Replay()
    for _, entry in read.records:
        kind = entry.get("kind")
        if kind == 0:
            out.state = entry.get("v") if isinstance(entry.get("v"), dict) else {}
            continue
        if out.state is None:
            out.skipped["journal entry before the initial snapshot"] += 1
            continue
        path = entry.get("k")
        if not isinstance(path, list) or not path or not all(isinstance(s, (str, int)) for s in path):
            out.skipped["journal entry without a valid path"] += 1
            continue
        applied = (
            {1: _set, 2: _push, 3: _delete}.get(kind) if isinstance(kind, int) and not isinstance(kind, bool) else None
        )
        if applied is None:
            out.skipped[f"journal entry of unknown kind {kind!r}"[:80]] += 1
        elif not applied(out.state, path, entry):
            out.skipped["journal patch whose path does not exist"] += 1
    return out


def _has(node: Any, step: Any) -> bool:
    """Whether a path step names an existing key or index of node."""
    if isinstance(node, dict):
        return isinstance(step, str) and step in node
    return isinstance(node, list) and isinstance(step, int) and not isinstance(step, bool) and 0 <= step < len(node)


def _walk(state: Any, path: list[str | int]) -> Any:
    node = state
    for step in path:
        if not _has(node, step):
            return _MISSING
        node = node[step]
    return node


def _set(state: dict[str, Any], path: list[str | int], entry: dict[str, Any]) -> bool:
    parent, last = _walk(state, path[:-1]), path[-1]
    if (isinstance(parent, dict) and isinstance(last, str)) or _has(parent, last):
        parent[last] = entry.get("v")
        return True
    return False


def _push(state: dict[str, Any], path: list[str | int], entry: dict[str, Any]) -> bool:
    target = _walk(state, path)
    if target is _MISSING:
        parent, last = _walk(state, path[:-1]), path[-1]
        if not (isinstance(parent, dict) and isinstance(last, str)):
            return False
        target = parent[last] = []
    if not isinstance(target, list):
        return False
    cut = entry.get("i")
    if isinstance(cut, int) and not isinstance(cut, bool) and cut >= 0:
        del target[cut:]  # a retried or edited request replaces the ones after it
    items = entry.get("v")
    if isinstance(items, list):
        target.extend(items)
    return True


def _delete(state: dict[str, Any], path: list[str | int], entry: dict[str, Any]) -> bool:
    parent, last = _walk(state, path[:-1]), path[-1]
    if _has(parent, last):
        del parent[last]
        return True
    return False


class _Missing:
    pass


_MISSING = _Missing()


def _digest(value: Any) -> str:
    """A short fingerprint of what a request (or the session header) yields."""
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, default=str).encode()).hexdigest()[:16]


def _message_digest(messages: list[Message]) -> str:
    return _digest([[m.key, m.kind, m.timestamp, m.text, m.tool_name, m.files] for m in messages])


def _parse_journal(path: Path, resume: Any) -> ParseResult:
    """Replay the whole journal (a patch may touch any earlier request), but return only requests
    whose messages changed since the resume point: it holds one short digest per request."""
    read = read_jsonl(path, max_line_bytes=JOURNAL_MAX_LINE_BYTES)
    replay = _replay(read)
    p = str(path)
    problems = [Problem(p, f"skipped {plural(n, what)}") for what, n in replay.skipped.items()]
    if replay.state is None:
        # Entries but no snapshot: not a journal. No entries: read_jsonl has said why (empty, torn).
        missing = [Problem(p, "no initial snapshot (kind 0): not a chat session journal")] if read.records else []
        return ParseResult(warnings=[*read.warnings, *problems], errors=[*read.errors, *missing])
    chat = _Chat(path, replay.state).build()
    digests = {rid: _message_digest(ms) for rid, ms in chat.requests}
    facts = _digest([chat.native_id, chat.data.get("customTitle"), chat.data.get("computedTitle"), chat.models])
    before = resume.get("requests") if isinstance(resume, dict) else None
    if isinstance(before, dict):
        changed = [(rid, ms) for rid, ms in chat.requests if before.get(rid) != digests[rid]]
        facts_changed = resume.get("facts") != facts
    else:
        changed, facts_changed = chat.requests, True
    result = _result_of(chat, changed, problems, {"requests": digests, "facts": facts}, facts_changed)
    result.warnings[:0] = read.warnings
    result.errors[:0] = read.errors
    return result


# --- agent transcripts (event stream) ------------------------------------------------------------


@dataclass
class _EventState:
    """Carried across resumes: the session id, open tool calls and the models seen so far."""

    session_id: str | None = None
    started_at: str | None = None
    tools: dict[str, str] = field(default_factory=dict)  # open toolCallId → tool name
    models: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, resume: dict[str, Any]) -> _EventState:
        tools = resume.get("tools")
        models = resume.get("models")
        return cls(
            session_id=nonempty_str(resume.get("session_id")),
            started_at=nonempty_str(resume.get("started_at")),
            tools={k: v for k, v in tools.items() if isinstance(v, str)} if isinstance(tools, dict) else {},
            models=[m for m in models if nonempty_str(m)] if isinstance(models, list) else [],
        )

    def to_json(self) -> dict[str, Any]:
        open_tools = dict(list(self.tools.items())[-1000:])
        return {
            "session_id": self.session_id,
            "started_at": self.started_at,
            "tools": open_tools,
            "models": self.models,
        }


def _parse_transcript(path: Path, resume: Any) -> ParseResult:
    read = read_jsonl(path, resume)
    resuming = isinstance(resume, dict) and isinstance(resume.get("offset"), int) and not read.restarted
    state = _EventState.load(resume) if resuming else _EventState()
    parser = _EventParser(path, state)
    for line_no, record in read.records:
        parser.feed(line_no, record)
    errors = list(read.errors)
    sessions = [parser.session()] if parser.messages else []
    if not resuming and parser.conversational and not parser.messages:
        errors.append(
            Problem(
                str(path),
                no_messages_error(f"1 session ({parser.conversational} events)"),
            )
        )
    return ParseResult(
        sessions=sessions,
        resume=read.resume_point(**state.to_json()),
        warnings=[*read.warnings, *parser.warnings()],
        errors=errors,
    )


class _EventParser:
    def __init__(self, path: Path, state: _EventState) -> None:
        self.path = path
        self.p = str(path)
        self.state = state
        self.messages: list[Message] = []
        self.keys: set[str] = set()
        self.conversational = 0
        self.problems: list[Problem] = []
        self.unknown: Counter[str] = Counter()

    def feed(self, line_no: int, record: dict[str, Any]) -> None:
        try:
            self._feed(line_no, record)
        except Exception as exc:  # one odd record must never stop the file
            self.problems.append(
                Problem(self.p, f"event could not be read ({type(exc).__name__}: {exc}); skipped", line_no)
            )

    def _feed(self, line_no: int, record: dict[str, Any]) -> None:
        etype = record.get("type")
        data = as_dict(record.get("data"))
        ts = iso_utc(record.get("timestamp"))
        event_id = nonempty_str(record.get("id")) or f"{self.sid}:{line_no}"
        if etype == "session.start":
            self.state.session_id = self.state.session_id or nonempty_str(data.get("sessionId"))
            self.state.started_at = self.state.started_at or iso_utc(data.get("startTime")) or ts
            self._model(data.get("selectedModel"))
        elif etype == "session.model_change":
            self._model(data.get("newModel"))
        elif etype == "user.message":
            self.conversational += 1
            content = data.get("content")
            prompt, smriti = strip_smriti_context(content if isinstance(content, str) else "")
            if prompt:
                self._add(Message("user", prompt, "prompt", event_id, ts))
            if smriti:
                self._add(Message("user", smriti, "injected_context", f"{event_id}:context", ts))
        elif etype == "assistant.message":
            self.conversational += 1
            self._assistant(data, event_id, ts)
        elif etype == "tool.execution_start":
            call_id = nonempty_str(data.get("toolCallId"))
            if call_id and call_id not in self.state.tools and f"{call_id}:call" not in self.keys:
                self._call(call_id, nonempty_str(data.get("toolName")) or "tool", data.get("arguments"), ts)
        elif etype == "tool.execution_complete":
            self._complete(data, ts)
        elif not isinstance(etype, str) or etype not in KNOWN_EVENTS:
            self.unknown[repr(etype)[:60]] += 1

    @property
    def sid(self) -> str:
        return self.state.session_id or self.path.stem

    def _model(self, model: Any) -> None:
        name = _model(model.get("identifier") if isinstance(model, dict) else model)
        if name and name not in self.state.models:
            self.state.models.append(name)

    def _assistant(self, data: dict[str, Any], event_id: str, ts: str | None) -> None:
        self._model(data.get("model"))
        content = data.get("content")
        if isinstance(content, str) and content.strip():
            self._add(
                Message("assistant", content.strip(), "response", nonempty_str(data.get("messageId")) or event_id, ts)
            )
        for request in as_list(data.get("toolRequests")):
            call_id = nonempty_str(request.get("toolCallId")) if isinstance(request, dict) else None
            if call_id:
                self._call(call_id, nonempty_str(request.get("name")) or "tool", request.get("arguments"), ts)

    def _call(self, call_id: str, name: str, arguments: Any, ts: str | None) -> None:
        self.state.tools[call_id] = name
        self._add(_tool_call(name, maybe_json(arguments), f"{call_id}:call", ts))

    def _complete(self, data: dict[str, Any], ts: str | None) -> None:
        call_id = nonempty_str(data.get("toolCallId"))
        if call_id is None:
            return
        name = self.state.tools.pop(call_id, None)
        result = data.get("result")
        text = ""
        if isinstance(result, dict):
            text = _tsx_text(result.get("content")) or (nonempty_str(result.get("text_result_for_llm")) or "")
        elif isinstance(result, str):
            text = result
        failed = data.get("success") is False
        if not text and not failed:
            return  # VS Code transcripts record only that the call succeeded, not its output
        self._add(_result(name, text, failed, f"{call_id}:result", ts))

    def _add(self, message: Message) -> None:
        if first_sight(self.keys, message):
            self.messages.append(message)

    def session(self) -> Session:
        stamps = [m.timestamp for m in self.messages if m.timestamp]
        started = min(filter(None, [self.state.started_at, *stamps]), default=None)
        return Session(
            agent=AGENT,
            native_id=self.sid,
            messages=tuple(self.messages),
            cwd=_workspace_folder(self.path),
            started_at=started,
            ended_at=max(stamps, default=None),
            models=tuple(self.state.models),
            source_paths=(self.p,),
        )

    def warnings(self) -> list[Problem]:
        unknown = [
            Problem(self.p, f"skipped {plural(n, 'event')} of unknown type {t}") for t, n in self.unknown.items()
        ]
        return [*self.problems, *unknown]
