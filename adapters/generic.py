"""Generic adapter: any markdown, JSON or JSONL conversation file given with `ingest --path`.

Never chosen by detection (`detect()` is always False): a user picks it with `--agent generic` for
a transcript no other adapter reads, e.g. an exported chat. One file is one session; its native id
is derived from the file's absolute path, so re-importing the same file updates the same session.

Layouts understood:
- JSON: `[{role, content}]`; `{messages|conversation|chat_messages|contents|loglines: [...]}`;
  OpenAI chat (`tool_calls`, `role: "tool"`), OpenAI Responses items (`function_call`,
  `function_call_output`), Anthropic blocks (`text`, `tool_use`, `tool_result`), Gemini
  `{role: "model", parts}`, claude.ai exports (`sender`, `text`) and ChatGPT `mapping` trees.
  Records may nest the message (`{type, message: {role, content}}`, as in `{"loglines": [...]}` web
  exports and Claude Code lines).
- JSONL: one such record per line (read with the shared resumable reader).
- Markdown / text: role headers `## User`, `### Assistant`, `**user**:`, `> **User**`, or line
  prefixes `User:` / `Assistant:`; fenced code blocks are never split.
"""

from __future__ import annotations

import hashlib
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
    SourceKind,
    as_dict,
    as_list,
    context_then_prompt,
    decode_arguments,
    input_paths,
    input_summary,
    iso_utc,
    nonempty_str,
    plural,
    read_source_bytes,
    tool_call_text,
)
from smriti.adapters._jsonl import read_jsonl
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "generic"

MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".txt"})
JSON_SUFFIXES = frozenset({".json"})
JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson"})
SKIPPED_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox"})
MESSAGE_LIST_KEYS = ("messages", "conversation", "chat_messages", "contents", "loglines", "items", "history", "turns")
TIMESTAMP_KEYS = ("timestamp", "created_at", "createdAt", "create_time", "ts", "time", "date")

# Words naming a speaker, as they appear in headers and prefixes.
ROLE_WORDS = {
    "user": "user",
    "human": "user",
    "you": "user",
    "me": "user",
    "prompt": "user",
    "question": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "model": "assistant",
    "bot": "assistant",
    "claude": "assistant",
    "chatgpt": "assistant",
    "gpt": "assistant",
    "gemini": "assistant",
    "copilot": "assistant",
    "agent": "assistant",
    "answer": "assistant",
    "response": "assistant",
    "system": "system",
    "developer": "system",
    "tool": "tool",
    "function": "tool",
    "tool result": "tool",
    "tool output": "tool",
    "output": "tool",
}
# Plain `Word:` prefixes only for unambiguous speaker names: "Output: 42" inside an answer is prose.
PLAIN_WORDS = ("user", "human", "assistant", "ai", "system", "claude", "chatgpt", "gemini", "copilot", "bot", "tool")
_WORDS = "|".join(sorted((re.escape(w) for w in ROLE_WORDS), key=len, reverse=True))
_PLAIN = "|".join(PLAIN_WORDS)
# `## User`, `### Assistant:` (optionally bold, optionally inside a `> ` blockquote).
HEADING_RE = re.compile(rf"^(?:>\s*)?#{{1,6}}\s+(?:\*\*|__)?\s*({_WORDS})\s*:?\s*(?:\*\*|__)?\s*:?\s*$", re.IGNORECASE)
# `**user**:`, `**User:**`, `__Assistant__` with the message on the same line or the next ones.
BOLD_RE = re.compile(
    rf"^(?:>\s*)?(?:\*\*|__)\s*({_WORDS})\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:?)\s?(.*)$", re.IGNORECASE
)
# `User: text` / `Assistant:`.
PLAIN_RE = re.compile(rf"^(?:>\s*)?({_PLAIN})\s*:\s?(.*)$", re.IGNORECASE)
FENCE_RE = re.compile(r"^\s*(```|~~~)")

INJECTED_PREFIXES = (
    "<system-reminder>",
    "<environment_details>",
    "<environment_context>",
    "<user_instructions>",
    "<command-name>",
    "<command-message>",
    "<local-command-stdout>",
    "<ide_opened_file>",
    "<ide_selection>",
    "Caveat: The messages below were generated",
)
PATH_KEYS = ("file_path", "path", "notebook_path", "filePath", "filepath", "target_file")
SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking", "reasoning"})
IMAGE_BLOCKS = frozenset({"image", "image_url", "input_image", "imageUrl", "document", "file", "input_file"})
CONVERSATION_FILE = SourceKind("a conversation file", "conversation", "a text conversation")


class GenericAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return []  # only ever given a path explicitly

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
            return
        suffixes = MARKDOWN_SUFFIXES | JSON_SUFFIXES | JSONL_SUFFIXES
        found: list[Path] = []
        try:
            for path in root.rglob("*"):
                if (
                    path.suffix.lower() in suffixes
                    and path.is_file()
                    and not SKIPPED_DIRS & set(path.relative_to(root).parts)
                ):
                    found.append(path)
        except OSError:
            return
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        return False  # generic is only used when asked for with --agent generic

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        p = str(path)
        native_id = hashlib.sha256(str(path.absolute()).encode("utf-8", "surrogateescape")).hexdigest()[:16]
        builder = _Builder(p, native_id)
        errors: list[Problem] = []
        warnings: list[Problem] = []
        new_resume: Any = None
        try:
            if path.suffix.lower() in JSONL_SUFFIXES:
                read = read_jsonl(path, resume)
                errors += read.errors
                warnings += read.warnings
                for line_no, record in read.records:
                    builder.record(record, f"L{line_no}")
                new_resume = read.resume_point()
            else:
                text, error = _read_text(path)
                if error is not None:
                    return ParseResult(errors=[Problem(p, error)])
                if _looks_like_json(path, text):
                    _parse_json(text, builder, errors)
                else:
                    _parse_markdown(text, builder)
        except Exception as exc:  # odd input must never take ingest down
            return ParseResult(errors=[Problem(p, f"file could not be read ({type(exc).__name__}: {exc})")])
        warnings += builder.warnings()
        resuming = isinstance(resume, dict) and new_resume is not None
        if not builder.messages and not errors and not resuming:
            errors.append(Problem(p, f"no conversation found: {builder.why_empty()}"))
        sessions = [builder.session()] if builder.messages else []
        return ParseResult(sessions=sessions, resume=new_resume, warnings=warnings, errors=errors)


def _looks_like_json(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    return suffix in JSON_SUFFIXES or (suffix not in MARKDOWN_SUFFIXES and text.lstrip()[:1] in ("[", "{"))


def _parse_json(text: str, builder: _Builder, errors: list[Problem]) -> None:
    try:
        data = json.loads(text)
    except ValueError as exc:
        errors.append(
            Problem(builder.p, f"malformed JSON ({getattr(exc, 'msg', exc)} at line {getattr(exc, 'lineno', '?')})")
        )
        return
    if isinstance(data, dict):
        builder.title = nonempty_str(data.get("title")) or nonempty_str(data.get("name"))
        if isinstance(data.get("mapping"), dict):
            data = _mapping_messages(data)
        else:
            data = next((data[k] for k in MESSAGE_LIST_KEYS if isinstance(data.get(k), list)), [data])
    if not isinstance(data, list):
        builder.shape = f"the top level is a JSON {type(data).__name__}"
        return
    for index, record in enumerate(data):
        if isinstance(record, dict):
            builder.record(record, str(index))
        else:
            builder.unknown["a non-object item"] += 1


# --- normalised records --------------------------------------------------------------------------


@dataclass
class _Builder:
    """Turns normalised records into messages with stable, unique keys."""

    p: str
    native_id: str
    title: str | None = None
    shape: str | None = None
    messages: list[Message] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    tool_names: dict[str, str] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    unknown: Counter[str] = field(default_factory=Counter)

    def record(self, record: dict[str, Any], ordinal: str) -> None:
        base = f"{self.native_id}:{ordinal}"
        ts = _timestamp(record)
        rtype = record.get("type")
        # OpenAI Responses API items carry no role for tool traffic.
        if rtype in ("function_call", "custom_tool_call"):
            call_id = nonempty_str(record.get("call_id")) or nonempty_str(record.get("id"))
            tool_input = decode_arguments(record.get("arguments", record.get("input")))
            self.tool_call(call_id, nonempty_str(record.get("name")), tool_input, base, ts)
            return
        if rtype in ("function_call_output", "custom_tool_call_output"):
            self.tool_result(nonempty_str(record.get("call_id")), _text_of(record.get("output")), False, base, ts)
            return
        if rtype == "summary" and nonempty_str(record.get("summary")):  # a Claude Code title record
            self.title = self.title or record["summary"]
            return
        nested = record.get("message")
        message: dict[str, Any] = nested if isinstance(nested, dict) else record
        role = _role(message) or _role(record)
        if role is None:
            self.unknown[f"a record without a role (type {rtype!r})" if rtype else "a record without a role"] += 1
            return
        model = nonempty_str(message.get("model"))
        if model and model not in self.models:
            self.models.append(model)
        content = _content(message)
        if role == "user":
            self._user(content, base, ts)
        elif role == "assistant":
            self._assistant(message, content, base, ts)
        elif role == "system":
            text = _text_of(content)
            if text.strip():
                self.add(Message("system", text, "injected_context", base, ts))
        else:
            tool_id = nonempty_str(message.get("tool_call_id")) or nonempty_str(message.get("toolCallId"))
            name = nonempty_str(message.get("name"))
            if name and tool_id:
                self.tool_names.setdefault(tool_id, name)
            self.tool_result(tool_id, _text_of(content), message.get("is_error") is True, base, ts)

    def _user(self, content: Any, base: str, ts: str | None) -> None:
        texts: list[str] = []
        for index, block in enumerate(_blocks(content)):
            btype = block.get("type")
            if btype == "tool_result":
                self.tool_result(
                    nonempty_str(block.get("tool_use_id")),
                    _text_of(block.get("content")),
                    block.get("is_error") is True,
                    f"{base}:{index}",
                    ts,
                )
            elif btype in IMAGE_BLOCKS:
                texts.append("[image]")
            elif isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif btype not in SKIPPED_BLOCKS:
                self.unknown[f"a content block of type {btype!r}"] += 1
        for kind, text in context_then_prompt("\n\n".join(t for t in texts if t.strip()), INJECTED_PREFIXES):
            self.add(Message("user", text, kind, base if kind == "prompt" else f"{base}:ctx", ts))

    def _assistant(self, message: dict[str, Any], content: Any, base: str, ts: str | None) -> None:
        texts: list[str] = []
        calls: list[tuple[str | None, str | None, Any, str]] = []
        for index, block in enumerate(_blocks(content)):
            btype = block.get("type")
            if btype in ("tool_use", "tool-call", "tool_call"):
                calls.append(
                    (
                        nonempty_str(block.get("id")) or nonempty_str(block.get("toolCallId")),
                        nonempty_str(block.get("name")) or nonempty_str(block.get("toolName")),
                        block.get("input", block.get("args")),
                        f"{base}:{index}",
                    )
                )
            elif btype in IMAGE_BLOCKS:
                texts.append("[image]")
            elif btype not in SKIPPED_BLOCKS and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif btype not in SKIPPED_BLOCKS:
                self.unknown[f"a content block of type {btype!r}"] += 1
        for index, call in enumerate(as_list(message.get("tool_calls"))):
            function = as_dict(as_dict(call).get("function"))
            calls.append(
                (
                    nonempty_str(as_dict(call).get("id")),
                    nonempty_str(function.get("name")),
                    decode_arguments(function.get("arguments")),
                    f"{base}:call{index}",
                )
            )
        legacy = as_dict(message.get("function_call"))
        if legacy:
            calls.append(
                (None, nonempty_str(legacy.get("name")), decode_arguments(legacy.get("arguments")), f"{base}:fn")
            )
        text = "\n\n".join(t.strip() for t in texts if t.strip())
        if text:
            self.add(Message("assistant", text, "response", base, ts))
        for tool_id, name, tool_input, fallback in calls:
            self.tool_call(tool_id, name, tool_input, fallback, ts)

    def tool_call(self, tool_id: str | None, name: str | None, tool_input: Any, fallback: str, ts: str | None) -> None:
        if tool_id and name:
            self.tool_names[tool_id] = name
        text, files = _tool_summary(name, tool_input)
        key = f"{self.native_id}:{tool_id}" if tool_id else fallback
        self.add(
            Message(
                "assistant",
                text,
                "tool_call",
                key,
                ts,
                tool_name=name,
                tool_input=tool_input,
                files=files,
            )
        )

    def tool_result(self, tool_id: str | None, text: str, error: bool, fallback: str, ts: str | None) -> None:
        key = f"{self.native_id}:result:{tool_id}" if tool_id else fallback
        text = ("[error] " + text if error else text)[:OUTPUT_MAX]
        name = self.tool_names.get(tool_id) if tool_id else None
        self.add(Message("tool", text, "tool_result", key, ts, tool_name=name))

    def add(self, message: Message) -> None:
        if message.key not in self.keys:
            self.keys.add(message.key)
            self.messages.append(message)

    def session(self) -> Session:
        stamps = [m.timestamp for m in self.messages if m.timestamp]
        return Session(
            agent=AGENT,
            native_id=self.native_id,
            messages=tuple(self.messages),
            cwd=None,
            title=self.title,
            started_at=min(stamps, default=None),
            ended_at=max(stamps, default=None),
            models=tuple(self.models),
            source_paths=(self.p,),
        )

    def warnings(self) -> list[Problem]:
        return [Problem(self.p, f"skipped {plural(n, 'item')}: {what}") for what, n in self.unknown.items()]

    def why_empty(self) -> str:
        if self.shape:
            return f"{self.shape}, not a list of messages"
        return (
            "expected [{role, content}] messages, a {messages: [...]} object, JSONL with role/content per line, "
            "or markdown with role headers such as '## User' / '**Assistant**:' / 'User:'"
        )


# --- markdown ------------------------------------------------------------------------------------


def _parse_markdown(text: str, builder: _Builder) -> None:
    turns: list[tuple[str, list[str]]] = []
    preamble: list[str] = []
    in_fence = False
    for line in text.splitlines():
        if FENCE_RE.match(line):
            in_fence = not in_fence
        role, rest = (None, None) if in_fence else _header(line)
        if role is not None:
            turns.append((role, [rest] if rest else []))
        elif turns:
            turns[-1][1].append(line)
        else:
            preamble.append(line)
    title = next((ln[2:].strip() for ln in preamble if ln.startswith("# ")), None)
    builder.title = builder.title or title
    for index, (role, lines) in enumerate(turns):
        body = _unquote("\n".join(lines)).strip()
        if not body:
            continue
        base = f"{builder.native_id}:{index}"
        if role == "user":
            for kind, part in context_then_prompt(body, INJECTED_PREFIXES):
                builder.add(Message("user", part, kind, base if kind == "prompt" else f"{base}:ctx"))
        elif role == "assistant":
            builder.add(Message("assistant", body, "response", base))
        elif role == "system":
            builder.add(Message("system", body, "injected_context", base))
        else:
            builder.add(Message("tool", body[:OUTPUT_MAX], "tool_result", base))


def _header(line: str) -> tuple[str | None, str | None]:
    """The role a line opens, with any text that follows it on the same line."""
    stripped = line.strip()
    if not stripped or len(stripped) > 200:
        return None, None
    match = HEADING_RE.match(stripped)
    if match:
        return ROLE_WORDS[match.group(1).lower()], None
    match = BOLD_RE.match(stripped) or PLAIN_RE.match(stripped)
    if match:
        return ROLE_WORDS[match.group(1).lower()], match.group(2).strip()
    return None, None


def _unquote(body: str) -> str:
    """A turn written entirely as a `> ` blockquote is unquoted; mixed text is kept as is."""
    lines = [ln for ln in body.splitlines() if ln.strip()]
    if lines and all(ln.lstrip().startswith(">") for ln in lines):
        return "\n".join(re.sub(r"^\s*> ?", "", ln) for ln in body.splitlines())
    return body


# --- record normalisation ------------------------------------------------------------------------


def _role(record: dict[str, Any]) -> str | None:
    for value in (
        record.get("role"),
        as_dict(record.get("author")).get("role"),
        record.get("sender"),
        record.get("type"),
    ):
        if isinstance(value, str) and value.lower() in ROLE_WORDS:
            return ROLE_WORDS[value.lower()]
    return None


def _content(message: dict[str, Any]) -> Any:
    for key in ("content", "parts", "text", "message"):
        value = message.get(key)
        if isinstance(value, dict) and isinstance(value.get("parts"), list):  # ChatGPT export
            return value["parts"]
        if isinstance(value, (str, list)):
            return value
    return ""


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    out: list[dict[str, Any]] = []
    for block in as_list(content):
        if isinstance(block, str):
            out.append({"type": "text", "text": block})
        elif isinstance(block, dict):
            out.append(block)
    return out


def _text_of(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts: list[str] = []
        for item in value:
            if isinstance(item, dict) and item.get("type") in IMAGE_BLOCKS:
                parts.append("[image]")
            else:
                parts.append(_text_of(item.get("text", item.get("content")) if isinstance(item, dict) else item))
        return "\n".join(p for p in parts if p)
    if isinstance(value, dict):
        for key in ("text", "content", "output", "value"):
            if key in value:
                return _text_of(value[key])
    return json.dumps(value, ensure_ascii=False, default=str)


def _mapping_messages(data: dict[str, Any]) -> list[Any]:
    """A ChatGPT export's message tree, as the list of messages on the current branch."""
    mapping: dict[str, Any] = data["mapping"]
    node_id = data.get("current_node")
    chain: list[Any] = []
    seen: set[str] = set()
    while isinstance(node_id, str) and node_id in mapping and node_id not in seen:
        seen.add(node_id)
        node = as_dict(mapping[node_id])
        if isinstance(node.get("message"), dict):
            chain.append(node["message"])
        node_id = node.get("parent")
    if not chain:  # no current_node: take every message, ordered by time
        chain = [n["message"] for n in mapping.values() if isinstance(n, dict) and isinstance(n.get("message"), dict)]
        chain.sort(key=lambda m: m.get("create_time") or 0)
        return chain
    return list(reversed(chain))


def _timestamp(record: dict[str, Any]) -> str | None:
    message = as_dict(record.get("message"))
    for source in (record, message):
        for key in TIMESTAMP_KEYS:
            if key in source:
                stamp = iso_utc(source[key])
                if stamp:
                    return stamp
    return None


def _tool_summary(name: str | None, tool_input: Any) -> tuple[str, tuple[str, ...]]:
    return tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS)), input_paths(tool_input, PATH_KEYS)


def _read_text(path: Path) -> tuple[str, str | None]:
    raw, error = read_source_bytes(path, CONVERSATION_FILE)
    if error is not None:
        return "", error
    try:
        return raw.decode("utf-8-sig"), None  # exports from Windows tools often start with a BOM
    except UnicodeDecodeError as exc:
        return "", f"invalid UTF-8 at byte {exc.start}: not {CONVERSATION_FILE.document}"
