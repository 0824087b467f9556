"""Amp (Sourcegraph) adapter: `~/.local/share/amp/threads/T-<uuid>.json` threads in, Sessions out.

Format notes live in docs/session-formats.md §9.1. One JSON file per thread, rewritten whole on
every change (so there is no resume point: ingest re-parses a thread whose size/mtime changed and
the store dedupes by message key). Messages follow the Anthropic block shape: `text`, `thinking`,
`tool_use`; tool results come back as `role: "user"` messages holding only `tool_result` blocks
whose payload sits in `run.result`. A human prompt is a user message with a `text` block.
"""

from __future__ import annotations

import json
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
    classify_user_text,
    compact_json,
    editor_user_dirs,
    existing_dirs,
    first_sight,
    home_dir,
    input_paths,
    input_summary,
    iso_utc,
    join_parts,
    load_json_file,
    no_messages_error,
    nonempty_str,
    plural,
    tool_call_text,
)
from smriti.adapters._jsonl import json_type_name, open_regular
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "amp"

THREAD_NAME_RE = re.compile(r"^T-[0-9a-fA-F-]{8,}\.json$")
PATH_KEYS = ("file_path", "path", "notebook_path", "filePath", "filepath", "target_file")
# Editors whose global storage held threads in older VS Code extension builds.
EDITORS = ("Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf")
# Block types that carry nothing to store: reasoning is never kept.
SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking"})
# `run.status` values that mean the tool did not produce its normal output.
FAILED_STATUSES = frozenset({"error", "failed", "rejected-by-user", "cancelled", "canceled"})
# Keys of a structured `run.result` that hold the output a person would read, best first.
RESULT_TEXT_KEYS = ("output", "content", "diff", "stdout", "result", "text", "message")
SNIFF_BYTES = 4096
# Amp rewrites a thread file in place on every change, so a read can catch one half-written.
THREAD_FILE = SourceKind("a thread file", "thread", "a JSON thread", mid_write="; the thread may be mid-write")


class AmpAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        home = home_dir()
        candidates: list[Path] = []
        if os.environ.get("AMP_DATA_DIR"):
            candidates.append(Path(os.environ["AMP_DATA_DIR"]).expanduser() / "threads")
        xdg = os.environ.get("XDG_DATA_HOME")
        if xdg:
            candidates.append(Path(xdg) / "amp" / "threads")
        candidates += [
            home / ".local" / "share" / "amp" / "threads",
            home / "Library" / "Application Support" / "amp" / "threads",
        ]
        # Older VS Code extension builds kept threads in the editor's global storage.
        for user_dir in editor_user_dirs(home, EDITORS):
            candidates.append(user_dir / "globalStorage" / "sourcegraph.amp" / "threads3")
        return candidates

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
            return
        if (root / "threads").is_dir():  # the amp data dir itself
            root = root / "threads"
        try:
            found = [p for p in root.glob("*.json") if p.is_file()]
        except OSError:
            return
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                return any(THREAD_NAME_RE.match(p.name) for p in path.glob("T-*.json"))
            if THREAD_NAME_RE.match(path.name):
                return True
            if path.suffix != ".json":
                return False
            with open_regular(path) as fh:
                head = fh.read(SNIFF_BYTES).decode("utf-8", "ignore")
            return bool(re.search(r'"id"\s*:\s*"T-[0-9a-fA-F-]{8,}"', head)) and '"messages"' in head
        except OSError:
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        p = str(path)
        data, error = load_json_file(path, THREAD_FILE)
        if error is not None:
            return ParseResult(errors=[Problem(p, error)])
        if not isinstance(data, dict):
            return ParseResult(
                errors=[Problem(p, f"not an Amp thread: the top level is a JSON {json_type_name(data)}, not an object")]
            )
        messages = data.get("messages")
        if not isinstance(messages, list):
            return ParseResult(errors=[Problem(p, "not an Amp thread: no 'messages' list")])
        parser = _ThreadParser(path, data)
        try:
            session = parser.session(messages)
        except Exception as exc:  # a bug on odd input must not take ingest down
            return ParseResult(errors=[Problem(p, f"thread could not be read ({type(exc).__name__}: {exc})")])
        errors: list[Problem] = []
        sessions = [session] if session.messages else []
        if messages and not session.messages:
            errors.append(Problem(p, no_messages_error("1 session(s)")))
        return ParseResult(sessions=sessions, resume=None, warnings=parser.warnings(), errors=errors)


# --- the parser ----------------------------------------------------------------------------------


class _ThreadParser:
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.p = str(path)
        self.data = data
        self.thread_id = nonempty_str(data.get("id")) or path.stem
        self.out: list[Message] = []
        self.keys: set[str] = set()
        self.tool_names: dict[str, str] = {}
        self.models: list[str] = []
        self.problems: list[Problem] = []
        self.unknown_roles: Counter[str] = Counter()
        self.unknown_blocks: Counter[str] = Counter()

    def session(self, messages: list[Any]) -> Session:
        for index, message in enumerate(messages):
            if not isinstance(message, dict):
                self.problems.append(
                    Problem(self.p, f"message {index} is a JSON {json_type_name(message)}, not an object; skipped")
                )
                continue
            self._message(index, message)
        cwd, branch, remote = _environment(self.data.get("env"))
        for tag in as_list(as_dict(as_dict(self.data.get("env")).get("initial")).get("tags")):
            if isinstance(tag, str) and tag.startswith("model:"):
                self._model(tag.removeprefix("model:"))
        stamps = [m.timestamp for m in self.out if m.timestamp]
        created = iso_utc(self.data.get("created"))
        started = min([*stamps, *([created] if created else [])], default=None)
        return Session(
            agent=AGENT,
            native_id=self.thread_id,
            messages=tuple(self.out),
            cwd=cwd,
            git_branch=branch,
            git_remote=remote,
            title=nonempty_str(self.data.get("title")),
            started_at=started,
            ended_at=max(stamps, default=started),
            models=tuple(self.models),
            source_paths=(self.p,),
        )

    def _message(self, index: int, message: dict[str, Any]) -> None:
        role = message.get("role")
        ordinal = message.get("messageId")
        base = (
            f"{self.thread_id}:{ordinal if isinstance(ordinal, int) and not isinstance(ordinal, bool) else f'i{index}'}"
        )
        content = message.get("content")
        blocks: list[Any] = [{"type": "text", "text": content}] if isinstance(content, str) else as_list(content)
        if role == "user":
            ts = iso_utc(as_dict(message.get("meta")).get("sentAt"))
            self._user(base, blocks, ts)
        elif role == "assistant":
            usage = as_dict(message.get("usage"))
            self._model(nonempty_str(usage.get("model")))
            self._assistant(base, blocks, iso_utc(usage.get("timestamp")))
        else:
            self.unknown_roles[repr(role)[:60]] += 1

    def _user(self, base: str, blocks: list[Any], ts: str | None) -> None:
        texts: list[str] = []
        for block in blocks:
            btype = block.get("type") if isinstance(block, dict) else None
            if btype == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif btype == "tool_result":
                self._add(self._tool_result(base, block))
            elif btype in ("image", "document", "file"):
                texts.append(f"[{btype}]")  # never the base64 payload
            else:
                self.unknown_blocks[repr(btype)[:60]] += 1
        text = "\n\n".join(t for t in texts if t.strip())
        for kind, part in _classify(text):
            key = base if kind == "prompt" else f"{base}:ctx"
            self._add(Message("user", part, kind, key, ts))

    def _assistant(self, base: str, blocks: list[Any], ts: str | None) -> None:
        texts: list[str] = []
        calls: list[Message] = []
        for index, block in enumerate(blocks):
            btype = block.get("type") if isinstance(block, dict) else None
            if btype == "text" and isinstance(block.get("text"), str):
                if block["text"].strip():
                    texts.append(block["text"].strip())
            elif btype == "tool_use":
                calls.append(self._tool_call(block, f"{base}:{index}", ts))
            elif btype not in SKIPPED_BLOCKS:
                self.unknown_blocks[repr(btype)[:60]] += 1
        if texts:
            self._add(Message("assistant", "\n\n".join(texts), "response", base, ts))
        for call in calls:
            self._add(call)

    def _tool_call(self, block: dict[str, Any], fallback_key: str, ts: str | None) -> Message:
        tool_id = nonempty_str(block.get("id"))
        name = nonempty_str(block.get("name"))
        if tool_id and name:
            self.tool_names[tool_id] = name
        tool_input = block.get("input")
        text, files = _tool_summary(name, tool_input)
        key = f"{self.thread_id}:{tool_id}" if tool_id else fallback_key
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

    def _tool_result(self, base: str, block: dict[str, Any]) -> Message:
        tool_id = nonempty_str(block.get("toolUseID")) or nonempty_str(block.get("tool_use_id"))
        run = as_dict(block.get("run"))
        status = nonempty_str(run.get("status"))
        text = _result_text(run.get("result")) if "result" in run else _result_text(block.get("content"))
        if status in FAILED_STATUSES:
            reason = _result_text(run.get("error")) or status
            text = "[error] " + (f"{reason}\n{text}" if text and reason not in text else text or reason)
        key = f"{self.thread_id}:result:{tool_id}" if tool_id else f"{base}:result{len(self.out)}"
        name = self.tool_names.get(tool_id) if tool_id else None
        return Message("tool", text[:OUTPUT_MAX], "tool_result", key, None, tool_name=name)

    def _model(self, model: str | None) -> None:
        if model and model not in self.models:
            self.models.append(model)

    def _add(self, message: Message) -> None:
        if first_sight(self.keys, message):
            self.out.append(message)

    def warnings(self) -> list[Problem]:
        out = list(self.problems)
        out += [
            Problem(self.p, f"skipped {plural(n, 'message')} of unknown role {r}")
            for r, n in self.unknown_roles.items()
        ]
        out += [
            Problem(self.p, f"skipped {plural(n, 'content block')} of unknown type {t}")
            for t, n in self.unknown_blocks.items()
        ]
        return out


# --- helpers -------------------------------------------------------------------------------------


def _environment(env: Any) -> tuple[str | None, str | None, str | None]:
    """cwd, branch and remote of the thread's first workspace tree (`file://` URI)."""
    for tree in as_list(as_dict(as_dict(env).get("initial")).get("trees")):
        if not isinstance(tree, dict):
            continue
        cwd = _uri_path(tree.get("uri"))
        repo = as_dict(tree.get("repository"))
        ref = nonempty_str(repo.get("ref"))
        branch = ref.removeprefix("refs/heads/") if ref and ref.startswith("refs/heads/") else None
        if cwd:
            return cwd, branch, nonempty_str(repo.get("url"))
    return None, None, None


def _uri_path(uri: Any) -> str | None:
    if not isinstance(uri, str) or not uri:
        return None
    if not uri.startswith("file:"):
        return uri if uri.startswith("/") else None
    path = unquote(urlparse(uri).path)
    # file:///c%3A/Users/... on Windows: drop the slash before the drive letter.
    if re.match(r"^/[A-Za-z]:/", path):
        path = path[1:]
    return path or None


def _result_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [_result_text(v.get("text") if isinstance(v, dict) and "text" in v else v) for v in value]
        return "\n".join(p for p in parts if p)
    if isinstance(value, dict):
        if value.get("type") in ("image", "document"):
            return f"[{value['type']}]"
        found: list[str] = [value[k] for k in RESULT_TEXT_KEYS if isinstance(value.get(k), str) and value[k]]
        if found:
            stderr = value.get("stderr")
            return found[0] + (f"\n{stderr}" if isinstance(stderr, str) and stderr.strip() else "")
        if isinstance(value.get("directoryEntries"), list):
            return "\n".join(str(e) for e in value["directoryEntries"])
        return compact_json(value)
    return json.dumps(value, ensure_ascii=False, default=str)


def _tool_summary(name: str | None, tool_input: Any) -> tuple[str, tuple[str, ...]]:
    files = input_paths(tool_input, PATH_KEYS, lists=("edits",))
    return tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS)), files


def _classify(text: str) -> list[tuple[str, str]]:
    """A prompt, with any `<smriti-context>` block split out as injected context."""
    prompt, context = join_parts(classify_user_text(text))
    return [(k, t) for k, t in (("injected_context", context), ("prompt", prompt)) if t]
