"""Continue (continuedev) adapter: `~/.continue/sessions/<sessionId>.json` in, Sessions out.

Format notes live in docs/session-formats.md §9.2. One JSON file per session (VS Code, JetBrains and
the `cn` CLI), rewritten whole, so there is no resume point: ingest re-parses a changed file and the
store dedupes by message key. `history[]` items hold a `message` ({role, content, toolCalls?}),
`contextItems` (files and snippets the user attached: injected context) and, in the CLI,
`toolCallStates` carrying each tool's output; older/IDE builds write `role: "tool"` messages
instead. Both places are read and a result is emitted once per tool call id. The files carry no
timestamps; `sessions.json` next to them (the index) gives `dateCreated` when it lists the session.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard
from urllib.parse import unquote, urlparse

from smriti.models import Message, ParseResult, Problem, Session

AGENT = "continue"
INDEX_NAME = "sessions.json"

SMRITI_CONTEXT_RE = re.compile(r"<smriti-context\b.*?(?:</smriti-context>|\Z)", re.DOTALL)
SUMMARY_KEYS = ("command", "file_path", "path", "pattern", "url", "query", "description")
PATH_KEYS = ("file_path", "filepath", "filePath", "path", "notebook_path", "target_file")
SUMMARY_MAX = 500
OUTPUT_MAX = 200_000
FAILED_STATUSES = frozenset({"errored", "error", "canceled", "cancelled"})
SKIPPED_ROLES = frozenset({"thinking"})  # reasoning is not stored
SNIFF_BYTES = 4096
DETECT_FILES = 20  # a folder is sniffed through its first few JSON files only: detect must be cheap


class ContinueAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        home = Path(os.environ.get("HOME") or Path.home())
        candidates: list[Path] = []
        if os.environ.get("CONTINUE_GLOBAL_DIR"):
            candidates.append(Path(os.environ["CONTINUE_GLOBAL_DIR"]).expanduser() / "sessions")
        candidates.append(home / ".continue" / "sessions")
        if os.environ.get("USERPROFILE"):  # Windows keeps it in %USERPROFILE%\.continue
            candidates.append(Path(os.environ["USERPROFILE"]) / ".continue" / "sessions")
        roots: list[Path] = []
        seen: set[Path] = set()
        for candidate in candidates:
            try:
                if candidate.is_dir() and candidate.resolve() not in seen:
                    seen.add(candidate.resolve())
                    roots.append(candidate)
            except OSError:
                continue
        return roots

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
            return
        if (root / "sessions").is_dir():  # the ~/.continue folder itself
            root = root / "sessions"
        try:
            found = [p for p in root.glob("*.json") if p.name != INDEX_NAME and p.is_file()]
        except OSError:
            return
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                if path.name == "sessions" and path.parent.name == ".continue":
                    return True
                return any(self.detect(p) for p in sorted(path.glob("*.json"))[:DETECT_FILES])
            if path.suffix != ".json" or path.name == INDEX_NAME:
                return False
            with open(path, "rb") as fh:
                head = fh.read(SNIFF_BYTES).decode("utf-8", "ignore")
            return '"sessionId"' in head and '"history"' in head and '"requests"' not in head
        except OSError:
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        p = str(path)
        data, error = _load_json(path)
        if error is not None:
            return ParseResult(errors=[Problem(p, error)])
        if not isinstance(data, dict):
            return ParseResult(
                errors=[
                    Problem(p, f"not a Continue session: the top level is a JSON {_json_type(data)}, not an object")
                ]
            )
        history = data.get("history")
        if not isinstance(history, list):
            return ParseResult(errors=[Problem(p, "not a Continue session: no 'history' list")])
        parser = _SessionParser(path, data)
        try:
            session = parser.session(history)
        except Exception as exc:  # one odd file must never stop ingest
            return ParseResult(errors=[Problem(p, f"session could not be read ({type(exc).__name__}: {exc})")])
        errors: list[Problem] = []
        if history and not session.messages:
            errors.append(Problem(p, "found 1 session(s) but no messages: the format may have changed"))
        return ParseResult(
            sessions=[session] if session.messages else [], resume=None, warnings=parser.warnings(), errors=errors
        )


class _SessionParser:
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.p = str(path)
        self.data = data
        self.sid = _str(data.get("sessionId")) or path.stem
        self.out: list[Message] = []
        self.keys: set[str] = set()
        self.tool_names: dict[str, str] = {}
        self.models: list[str] = []
        self.problems: list[Problem] = []
        self.unknown_roles: Counter[str] = Counter()

    def session(self, history: list[Any]) -> Session:
        for index, item in enumerate(history):
            if not isinstance(item, dict) or not isinstance(item.get("message"), dict):
                self.problems.append(Problem(self.p, f"history item {index} has no message object; skipped"))
                continue
            self._item(index, item)
        if not self.models:  # the display title of the chosen model, when no prompt log names it
            self._model(_str(self.data.get("chatModelTitle")))
        entry = _index_entry(self.path.parent / INDEX_NAME, self.sid)
        started = _iso_utc(_number(entry.get("dateCreated")))
        return Session(
            agent=AGENT,
            native_id=self.sid,
            messages=tuple(self.out),
            cwd=_workspace(self.data.get("workspaceDirectory")) or _workspace(entry.get("workspaceDirectory")),
            title=_str(self.data.get("title")) or _str(entry.get("title")),
            started_at=started,
            ended_at=None,
            models=tuple(self.models),
            source_paths=(self.p,),
        )

    def _item(self, index: int, item: dict[str, Any]) -> None:
        message = item["message"]
        role = message.get("role")
        base = _str(message.get("id")) or f"{self.sid}:{index}"
        for log in _list(item.get("promptLogs")):
            if isinstance(log, dict):
                self._model(_str(_dict(log.get("completionOptions")).get("model")) or _str(log.get("modelTitle")))
        summary = _str(item.get("conversationSummary"))
        if summary:  # Continue's compaction: the summary replaces what came before
            self._add(Message("system", summary, "summary", f"{base}:summary"))
        if role == "user":
            self._context(base, item.get("contextItems"))
            for kind, text in _classify(_content_text(message.get("content"))):
                self._add(Message("user", text, kind, base if kind == "prompt" else f"{base}:smriti"))
        elif role == "assistant":
            text = _content_text(message.get("content")).strip()
            if text:
                self._add(Message("assistant", text, "response", base))
            for n, call in enumerate(_list(message.get("toolCalls"))):
                if isinstance(call, dict):
                    self._tool_call(call, f"{base}:call{n}")
            states = item.get("toolCallStates")
            if isinstance(item.get("toolCallState"), dict):  # older builds: one state per item
                states = [item["toolCallState"]]
            for state in _list(states):
                if isinstance(state, dict):
                    self._tool_state(state)
        elif role == "tool":
            self._tool_message(base, message)
        elif role == "system":
            text = _content_text(message.get("content"))
            if text.strip():
                self._add(Message("system", text, "injected_context", base))
        elif role not in SKIPPED_ROLES:
            self.unknown_roles[repr(role)[:60]] += 1

    def _context(self, base: str, items: Any) -> None:
        """Files and snippets attached with @-mentions: stored for `show`, never indexed."""
        parts: list[str] = []
        for item in _list(items):
            if not isinstance(item, dict) or item.get("hidden") is True:
                continue
            name = _str(item.get("name")) or _str(item.get("description")) or "context"
            content = item.get("content") if isinstance(item.get("content"), str) else ""
            parts.append(f"{name}\n{content}".strip())
        if parts:
            self._add(Message("user", "\n\n".join(parts)[:OUTPUT_MAX], "injected_context", f"{base}:ctx"))

    def _tool_call(self, call: dict[str, Any], fallback: str) -> None:
        function = _dict(call.get("function"))
        name = _str(function.get("name"))
        tool_input = _arguments(function.get("arguments"))
        tool_id = _str(call.get("id"))
        if tool_id and name:
            self.tool_names[tool_id] = name
        text, files = _tool_summary(name, tool_input)
        key = f"{self.sid}:{tool_id}" if tool_id else fallback
        self._add(Message("assistant", text, "tool_call", key, tool_name=name, tool_input=tool_input, files=files))

    def _tool_state(self, state: dict[str, Any]) -> None:
        tool_id = _str(state.get("toolCallId"))
        call = _dict(state.get("toolCall"))
        if tool_id and f"{self.sid}:{tool_id}" not in self.keys and call:
            self._tool_call(call, f"{self.sid}:state:{tool_id}")  # a state whose call the message lacks
        if "output" not in state and state.get("status") not in FAILED_STATUSES:
            return  # still generating or waiting for approval: no result yet
        parts: list[str] = [
            o["content"]
            for o in _list(state.get("output"))
            if isinstance(o, dict) and isinstance(o.get("content"), str)
        ]
        text = "\n".join(parts)
        status = _str(state.get("status"))
        if status in FAILED_STATUSES:
            text = f"[error] {text or status}"
        self._result(tool_id, text)

    def _tool_message(self, base: str, message: dict[str, Any]) -> None:
        tool_id = _str(message.get("toolCallId"))
        self._result(tool_id, _content_text(message.get("content")), fallback=f"{base}:result")

    def _result(self, tool_id: str | None, text: str, fallback: str | None = None) -> None:
        key = f"{self.sid}:result:{tool_id}" if tool_id else fallback
        if key is None:
            return
        name = self.tool_names.get(tool_id) if tool_id else None
        self._add(Message("tool", text[:OUTPUT_MAX], "tool_result", key, tool_name=name))

    def _model(self, model: str | None) -> None:
        if model and model not in self.models:
            self.models.append(model)

    def _add(self, message: Message) -> None:
        if message.key not in self.keys:
            self.keys.add(message.key)
            self.out.append(message)

    def warnings(self) -> list[Problem]:
        return [
            *self.problems,
            *(
                Problem(self.p, f"skipped {_plural(n, 'message')} of unknown role {r}")
                for r, n in self.unknown_roles.items()
            ),
        ]


# --- helpers -------------------------------------------------------------------------------------


def _index_entry(index_path: Path, sid: str) -> dict[str, Any]:
    """This session's entry in `sessions.json`, or {} (the index can be stale or missing)."""
    try:
        entries = json.loads(index_path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    for entry in _list(entries):
        if isinstance(entry, dict) and entry.get("sessionId") == sid:
            return entry
    return {}


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for part in _list(content):
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif part.get("type") in ("imageUrl", "image_url", "image"):
                parts.append("[image]")  # never the data URL
    return "\n".join(parts)


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw) if raw.strip() else {}
        except ValueError:
            return {"arguments": raw}
    return raw


def _workspace(value: Any) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    if value.startswith("file:"):
        path = unquote(urlparse(value).path)
        return path[1:] if re.match(r"^/[A-Za-z]:/", path) else path or None
    return value


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _tool_summary(name: str | None, tool_input: Any) -> tuple[str, tuple[str, ...]]:
    files: list[str] = []
    summary: str | None = None
    if isinstance(tool_input, dict):
        summary = next((tool_input[k] for k in SUMMARY_KEYS if _str(tool_input.get(k))), None)
        summary = summary or next((tool_input[k] for k in PATH_KEYS if _str(tool_input.get(k))), None)
        candidates = [tool_input.get(k) for k in PATH_KEYS]
        edits = tool_input.get("edits")
        if isinstance(edits, list):
            candidates += [e.get("file_path") for e in edits if isinstance(e, dict)]
        files = list(dict.fromkeys(c for c in candidates if _looks_like_path(c)))
    if summary is None:
        summary = json.dumps(tool_input, ensure_ascii=False, separators=(",", ":"), default=str)
    return f"{name or 'tool'}: {summary[:SUMMARY_MAX]}", tuple(files)


def _classify(text: str) -> list[tuple[str, str]]:
    """A prompt, with any `<smriti-context>` block split out as injected context."""
    if not text.strip():
        return []
    if "<smriti-context" not in text:
        return [("prompt", text)]
    context = "\n\n".join(m.group() for m in SMRITI_CONTEXT_RE.finditer(text))
    prompt = SMRITI_CONTEXT_RE.sub("", text).strip()
    return [(k, t) for k, t in (("injected_context", context), ("prompt", prompt)) if t]


def _load_json(path: Path) -> tuple[Any, str | None]:
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        return None, "is a directory, not a session file"
    except PermissionError:
        return None, "permission denied: cannot read the file"
    except OSError as exc:
        return None, f"cannot read the file: {exc.strerror or exc}"
    if not raw.strip():
        return None, "empty file: no session"
    try:
        return json.loads(raw.decode("utf-8")), None
    except UnicodeDecodeError as exc:
        return None, f"invalid UTF-8 at byte {exc.start}: not a JSON session"
    except ValueError as exc:
        return None, f"malformed JSON ({getattr(exc, 'msg', exc)} at line {getattr(exc, 'lineno', '?')})"


def _iso_utc(value: Any) -> str | None:
    try:
        if value is None or isinstance(value, bool):
            return None
        dt = datetime.fromtimestamp(value / 1000 if abs(value) >= 1e11 else value, tz=UTC)
        return dt.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    except (TypeError, ValueError, OverflowError, OSError):
        return None


def _looks_like_path(value: Any) -> TypeGuard[str]:
    return (
        isinstance(value, str)
        and bool(value.strip())
        and len(value) <= 1024
        and "\n" not in value
        and "\0" not in value
        and "://" not in value
    )


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _json_type(obj: Any) -> str:
    if isinstance(obj, bool):
        return "boolean"
    if isinstance(obj, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}.get(type(obj), type(obj).__name__)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
