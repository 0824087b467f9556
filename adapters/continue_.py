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

import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from smriti.adapters._common import (
    OUTPUT_MAX,
    SUMMARY_KEYS,
    SourceKind,
    as_dict,
    as_list,
    context_then_prompt,
    decode_arguments,
    existing_dirs,
    first_sight,
    home_dir,
    input_paths,
    input_summary,
    iso_utc,
    load_json_file,
    no_messages_error,
    nonempty_str,
    plural,
    read_json_or_none,
    tool_call_text,
)
from smriti.adapters._jsonl import json_type_name, open_regular
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "continue"
INDEX_NAME = "sessions.json"

PATH_KEYS = ("file_path", "filepath", "filePath", "path", "notebook_path", "target_file")
FAILED_STATUSES = frozenset({"errored", "error", "canceled", "cancelled"})
SKIPPED_ROLES = frozenset({"thinking"})  # reasoning is not stored
SNIFF_BYTES = 4096
DETECT_FILES = 20  # a folder is sniffed through its first few JSON files only: detect must be cheap
SESSION_FILE = SourceKind("a session file", "session", "a JSON session")


class ContinueAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        home = home_dir()
        candidates: list[Path] = []
        if os.environ.get("CONTINUE_GLOBAL_DIR"):
            candidates.append(Path(os.environ["CONTINUE_GLOBAL_DIR"]).expanduser() / "sessions")
        candidates.append(home / ".continue" / "sessions")
        if os.environ.get("USERPROFILE"):  # Windows keeps it in %USERPROFILE%\.continue
            candidates.append(Path(os.environ["USERPROFILE"]) / ".continue" / "sessions")
        return candidates

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
            with open_regular(path) as fh:
                head = fh.read(SNIFF_BYTES).decode("utf-8", "ignore")
            return '"sessionId"' in head and '"history"' in head and '"requests"' not in head
        except OSError:
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        p = str(path)
        data, error = load_json_file(path, SESSION_FILE)
        if error is not None:
            return ParseResult(errors=[Problem(p, error)])
        if not isinstance(data, dict):
            return ParseResult(
                errors=[
                    Problem(p, f"not a Continue session: the top level is a JSON {json_type_name(data)}, not an object")
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
            errors.append(Problem(p, no_messages_error("1 session(s)")))
        return ParseResult(
            sessions=[session] if session.messages else [], resume=None, warnings=parser.warnings(), errors=errors
        )


class _SessionParser:
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.p = str(path)
        self.data = data
        self.sid = nonempty_str(data.get("sessionId")) or path.stem
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
            self._model(nonempty_str(self.data.get("chatModelTitle")))
        entry = _index_entry(self.path.parent / INDEX_NAME, self.sid)
        started = iso_utc(_number(entry.get("dateCreated")))
        return Session(
            agent=AGENT,
            native_id=self.sid,
            messages=tuple(self.out),
            cwd=_workspace(self.data.get("workspaceDirectory")) or _workspace(entry.get("workspaceDirectory")),
            title=nonempty_str(self.data.get("title")) or nonempty_str(entry.get("title")),
            started_at=started,
            ended_at=None,
            models=tuple(self.models),
            source_paths=(self.p,),
        )

    def _item(self, index: int, item: dict[str, Any]) -> None:
        message = item["message"]
        role = message.get("role")
        base = nonempty_str(message.get("id")) or f"{self.sid}:{index}"
        for log in as_list(item.get("promptLogs")):
            if isinstance(log, dict):
                self._model(
                    nonempty_str(as_dict(log.get("completionOptions")).get("model"))
                    or nonempty_str(log.get("modelTitle"))
                )
        summary = nonempty_str(item.get("conversationSummary"))
        if summary:  # Continue's compaction: the summary replaces what came before
            self._add(Message("system", summary, "summary", f"{base}:summary"))
        if role == "user":
            self._context(base, item.get("contextItems"))
            for kind, text in context_then_prompt(_content_text(message.get("content"))):
                self._add(Message("user", text, kind, base if kind == "prompt" else f"{base}:smriti"))
        elif role == "assistant":
            text = _content_text(message.get("content")).strip()
            if text:
                self._add(Message("assistant", text, "response", base))
            for n, call in enumerate(as_list(message.get("toolCalls"))):
                if isinstance(call, dict):
                    self._tool_call(call, f"{base}:call{n}")
            states = item.get("toolCallStates")
            if isinstance(item.get("toolCallState"), dict):  # older builds: one state per item
                states = [item["toolCallState"]]
            for state in as_list(states):
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
        for item in as_list(items):
            if not isinstance(item, dict) or item.get("hidden") is True:
                continue
            name = nonempty_str(item.get("name")) or nonempty_str(item.get("description")) or "context"
            content = item.get("content") if isinstance(item.get("content"), str) else ""
            parts.append(f"{name}\n{content}".strip())
        if parts:
            self._add(Message("user", "\n\n".join(parts)[:OUTPUT_MAX], "injected_context", f"{base}:ctx"))

    def _tool_call(self, call: dict[str, Any], fallback: str) -> None:
        function = as_dict(call.get("function"))
        name = nonempty_str(function.get("name"))
        tool_input = decode_arguments(function.get("arguments"))
        tool_id = nonempty_str(call.get("id"))
        if tool_id and name:
            self.tool_names[tool_id] = name
        text, files = _tool_summary(name, tool_input)
        key = f"{self.sid}:{tool_id}" if tool_id else fallback
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

    def _tool_state(self, state: dict[str, Any]) -> None:
        tool_id = nonempty_str(state.get("toolCallId"))
        call = as_dict(state.get("toolCall"))
        if tool_id and f"{self.sid}:{tool_id}" not in self.keys and call:
            self._tool_call(call, f"{self.sid}:state:{tool_id}")  # a state whose call the message lacks
        if "output" not in state and state.get("status") not in FAILED_STATUSES:
            return  # still generating or waiting for approval: no result yet
        parts: list[str] = [
            o["content"]
            for o in as_list(state.get("output"))
            if isinstance(o, dict) and isinstance(o.get("content"), str)
        ]
        text = "\n".join(parts)
        status = nonempty_str(state.get("status"))
        if status in FAILED_STATUSES:
            text = f"[error] {text or status}"
        self._result(tool_id, text)

    def _tool_message(self, base: str, message: dict[str, Any]) -> None:
        tool_id = nonempty_str(message.get("toolCallId"))
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
        if first_sight(self.keys, message):
            self.out.append(message)

    def warnings(self) -> list[Problem]:
        return [
            *self.problems,
            *(
                Problem(self.p, f"skipped {plural(n, 'message')} of unknown role {r}")
                for r, n in self.unknown_roles.items()
            ),
        ]


# --- helpers -------------------------------------------------------------------------------------


def _index_entry(index_path: Path, sid: str) -> dict[str, Any]:
    """This session's entry in `sessions.json`, or {} (the index can be stale or missing)."""
    for entry in as_list(read_json_or_none(index_path)):
        if isinstance(entry, dict) and entry.get("sessionId") == sid:
            return entry
    return {}


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for part in as_list(content):
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif part.get("type") in ("imageUrl", "image_url", "image"):
                parts.append("[image]")  # never the data URL
    return "\n".join(parts)


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
    files = input_paths(tool_input, PATH_KEYS, lists=("edits",))
    # Continue's tools name their file as `filepath`: with no summary key, the file names the call.
    return tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS + PATH_KEYS)), files
