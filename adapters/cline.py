"""Cline and Roo Code adapters: task folders (and Cline SDK session files) in, Sessions out.

Format notes live in docs/session-formats.md §6. Both extensions keep one folder per task under
`<editor user dir>/User/globalStorage/<extension id>/tasks/<taskId>/`; Cline's CLI keeps the same
layout in `~/.cline/data/`, and Cline's SDK era writes `~/.cline/data/sessions/<id>/<id>.messages.json`
(+ a `<id>.json` manifest; subagents as `<root>/<agentId>.messages.json`).

A task folder holds two views of one conversation. `api_conversation_history.json` (the model's
view: Anthropic message params, or Roo's `{version: 2, messages}` AI-SDK form) is canonical, so each
message is emitted once; `ui_messages.json` (the user's view) only lends timestamps, and is parsed
on its own when the API file is missing. Files are rewritten whole, so there is no resume point:
ingest re-parses a changed file and the store dedupes by message key.

Older versions wrote tool calls as XML inside the assistant's text (`<read_file><path>…</path>
</read_file>`) and results as user text blocks (`[read_file for 'x'] Result:` + the output); newer
ones use `tool_use`/`tool_result` blocks. User turns wrap the typed text (`<task>`, `<feedback>`,
`<answer>`, `<user_message>`) and append `<environment_details>` (injected context, and the cwd).
The index files (`state/taskHistory.json`, Roo's `history_item.json`/`tasks/_index.json`) only add
facts (cwd, title, parent task): folders are scanned, because the index can lose entries.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from smriti.adapters._common import (
    OUTPUT_MAX,
    UUID_RE,
    SourceKind,
    as_dict,
    as_list,
    editor_user_dirs,
    existing_dirs,
    first_sight,
    home_dir,
    input_paths,
    input_summary,
    is_injected,
    iso_utc,
    load_json_file,
    no_messages_error,
    nonempty_str,
    plural,
    strip_smriti_context,
    tool_call_text,
)
from smriti.adapters._jsonl import MAX_SIDE_FILE_BYTES, json_type_name, open_regular, read_regular
from smriti.models import Message, ParseResult, Problem, Session

API_FILE = "api_conversation_history.json"
UI_FILE = "ui_messages.json"
TASK_FILES = (API_FILE, UI_FILE)
TASK_AUX_FILES = frozenset(
    {UI_FILE, "task_metadata.json", "history_item.json", "context_history.json", "settings.json"}
)
MESSAGES_SUFFIX = ".messages.json"
CLINE_EXTENSION = "saoudrizwan.claude-dev"
ROO_EXTENSION = "rooveterinaryinc.roo-cline"
EDITORS = ("Code", "Code - Insiders", "Code - OSS", "VSCodium", "Cursor", "Windsurf", "Trae", "Kiro")
REMOTE_SERVERS = (".vscode-server", ".vscode-server-insiders", ".cursor-server", ".windsurf-server")
# Folders of an extension's storage that never hold tasks (checkpoints are shadow git repos).
SKIPPED_DIRS = frozenset(
    {"checkpoints", "cache", "settings", "puppeteer", "node_modules", ".git", "logs", "db", "hooks"}
)
WALK_DEPTH = 3

# Text the extension (not the person) put into a user turn.
INJECTED_PREFIXES = (
    "<environment_details>",
    "[TASK RESUMPTION]",
    "[ERROR] You did not use a tool",
    "<explicit_instructions",
    "[NOTE] Some previous conversation history",
    "# .clinerules",
    "# .clineignore",
    "<system-reminder>",
    # Newer Cline's focus-chain reminders and the resumption note when the person typed nothing:
    # the extension's words, never the person's (they made a title of a real task).
    "# task_progress",
    "# TODO LIST UPDATE REQUIRED",
    "(The user did not provide a new message",
)
# A focus-chain reminder appended to a block the person or a tool wrote: cut off and kept as context.
APPENDED_REMINDER_RE = re.compile(r"\n[ \t]*# (?:task_progress\b|TODO LIST UPDATE REQUIRED)")
# Tags wrapping what the person typed: the first prompt, feedback, an answer, a new message.
TYPED_RE = re.compile(r"<(task|feedback|answer|user_message)>\s*(.*?)\s*</\1>", re.DOTALL)
THINKING_RE = re.compile(r"<thinking>.*?(?:</thinking>|\Z)", re.DOTALL)
# `[read_file for 'x.cs'] Result:` on its own first line; newer Cline puts the output after it in the
# same block, older Cline in the blocks that follow ("for patch application" has no quotes).
RESULT_HEADER_RE = re.compile(r"\[([A-Za-z_][\w-]*)(?: for (?:'([^\n]*?)'|[^\]\n]*))?\] Result:[ \t]*(?:\n|$)")
CWD_RE = re.compile(r"# Current (?:Working|Workspace) Directory \((.+?)\) Files")

# Tool names of both extensions; XML-era assistant text is only parsed for these tags.
KNOWN_TOOLS = frozenset(
    {
        "execute_command",
        "read_file",
        "write_to_file",
        "replace_in_file",
        "apply_diff",
        "search_files",
        "list_files",
        "list_code_definition_names",
        "browser_action",
        "use_mcp_tool",
        "access_mcp_resource",
        "ask_followup_question",
        "attempt_completion",
        "plan_mode_respond",
        "plan_mode_response",
        "new_task",
        "load_mcp_documentation",
        "web_fetch",
        "web_search",
        "insert_content",
        "search_and_replace",
        "switch_mode",
        "codebase_search",
        "fetch_instructions",
        "new_rule",
        "condense",
        "summarize_task",
        "report_bug",
        "update_todo_list",
        "focus_chain",
        "run_slash_command",
        "generate_image",
        "apply_patch",
        "edit_file",
        "search_replace",
        "use_skill",
        "read_command_output",
    }
)
# Tools that are the assistant talking to the person: their text is a response, not a tool call,
# and their "result" is the person's reply (a prompt), not tool output.
CONVERSATIONAL_TOOLS = {
    "attempt_completion": "result",
    "ask_followup_question": "question",
    "plan_mode_respond": "response",
    "plan_mode_response": "response",
}
# A tool call opens its own line; a tag mentioned inside prose (`use <read_file>`) is not a call.
XML_TOOL_RE = re.compile(r"(?:^|\n)[ \t]*<(" + "|".join(sorted(KNOWN_TOOLS)) + r")>(.*?)(?:</\1>|\Z)", re.DOTALL)
XML_PARAM_RE = re.compile(r"<([A-Za-z_][\w-]*)>\n?(.*?)\n?</\1>", re.DOTALL)

SUMMARY_KEYS = ("command", "file_path", "path", "pattern", "url", "query", "description", "regex")
PATH_KEYS = ("file_path", "path", "notebook_path", "filePath", "target_file")
SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking", "reasoning", "thoughtSignature"})
TITLE_MAX = 200
SNIFF_BYTES = 4096
# Cline writes its task files in place, so a read can catch one half-written.
TASK_FILE = SourceKind("a JSON file", "messages", mid_write="; it may be mid-write", missing="file not found")

# ui_messages.json `say`/`ask` types that carry no conversation (progress, bookkeeping).
UI_SKIPPED = frozenset(
    {
        "api_req_started",
        "api_req_finished",
        "api_req_retried",
        "api_req_retry_delayed",
        "api_req_failed",
        "reasoning",
        "checkpoint_created",
        "deleted_api_reqs",
        "shell_integration_warning",
        "error",
        "diff_error",
        "clineignore_error",
        "resume_task",
        "resume_completed_task",
        "mistake_limit_reached",
        "auto_approval_max_req_reached",
        "info",
        "load_mcp_documentation",
        "condense_context",
        "condense_context_error",
        "user_feedback_diff",
        "browser_action_launch",
        "browser_action_result",
        "hook",
        "hook_output",
        "task_progress",
        "new_task",
        "subtask_result",
        "too_many_tools_warning",
        "codebase_search_result",
        "rooignore_error",
        "image",
        "text_partial",
    }
)


# --- the adapters --------------------------------------------------------------------------------


class _TaskFolderAdapter:
    """What Cline and Roo share: their task folders have the same files and the same shapes."""

    name = ""
    extension = ""

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        home = home_dir()
        candidates = [u / "globalStorage" / self.extension for u in editor_user_dirs(home, EDITORS, REMOTE_SERVERS)]
        return candidates + self._extra_roots(home)

    def _extra_roots(self, home: Path) -> list[Path]:
        return []

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield _canonical_source(root)
            return
        found: set[Path] = set()
        for dirpath, dirnames, filenames in _walk(root, WALK_DEPTH):
            source = _task_source(dirpath, filenames)
            if source is not None and self._owns_task(dirpath):
                found.add(source)
            if self.name == "cline" and dirpath.parent.name == "sessions":
                found.update(dirpath / f for f in filenames if f.endswith(MESSAGES_SUFFIX))
            dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS]
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                if (
                    path.name == self.extension
                    or path.parent.name == self.extension
                    or (path / self.extension).is_dir()
                ):
                    return True
                return any((path / f).is_file() for f in TASK_FILES) and self._owns_task(path)
            if path.name in TASK_FILES or path.name in TASK_AUX_FILES:
                return any((path.parent / f).is_file() for f in TASK_FILES) and self._owns_task(path.parent)
            return False
        except OSError:
            return False

    def _owns_task(self, task_dir: Path) -> bool:
        return _is_roo_task(task_dir) == (self.name == "roo")

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        p = str(path)
        if path.is_dir():
            return ParseResult(errors=[Problem(p, "is a directory: pass a task's api_conversation_history.json")])
        try:
            if path.name.endswith(MESSAGES_SUFFIX):
                return _SdkSession(self.name, path).parse()
            return _Task(self.name, path.parent, path).parse()
        except Exception as exc:  # odd input must never take ingest down
            return ParseResult(errors=[Problem(p, f"task could not be read ({type(exc).__name__}: {exc})")])


class ClineAdapter(_TaskFolderAdapter):
    name = "cline"
    extension = CLINE_EXTENSION

    def _extra_roots(self, home: Path) -> list[Path]:
        """The CLI/JetBrains/SDK data dir: CLINE_DATA_DIR, else $CLINE_DIR/data, else ~/.cline/data."""
        roots: list[Path] = []
        if os.environ.get("CLINE_DATA_DIR"):
            roots.append(Path(os.environ["CLINE_DATA_DIR"]).expanduser())
        if os.environ.get("CLINE_DIR"):
            roots.append(Path(os.environ["CLINE_DIR"]).expanduser() / "data")
        return [*roots, home / ".cline" / "data"]

    def detect(self, path: Path) -> bool:
        try:
            if path.is_file() and path.name.endswith(MESSAGES_SUFFIX):
                with open_regular(path) as fh:
                    head = fh.read(SNIFF_BYTES).decode("utf-8", "ignore")
                return '"messages"' in head and ('"agent"' in head or '"sessionId"' in head)
            if path.is_dir() and path.name == "data" and path.parent.name == ".cline":
                return True
        except OSError:
            return False
        return super().detect(path)


class RooAdapter(_TaskFolderAdapter):
    name = "roo"
    extension = ROO_EXTENSION

    def _extra_roots(self, home: Path) -> list[Path]:
        """`roo-cline.customStoragePath` in an editor's settings.json relocates everything."""
        roots: list[Path] = []
        for user_dir in editor_user_dirs(home, EDITORS, REMOTE_SERVERS):
            try:
                text = read_regular(user_dir / "settings.json", MAX_SIDE_FILE_BYTES).decode("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            match = re.search(r'"roo-cline\.customStoragePath"\s*:\s*"((?:[^"\\]|\\.)+)"', text)
            if match:
                roots.append(Path(json.loads(f'"{match.group(1)}"')).expanduser())
        return roots


# --- one legacy task folder ----------------------------------------------------------------------


class _Task:
    def __init__(self, agent: str, task_dir: Path, source: Path) -> None:
        self.agent = agent
        self.dir = task_dir
        self.p = str(source)
        self.task_id = task_dir.name

    def parse(self) -> ParseResult:
        api_path = self.dir / API_FILE
        ui_path = self.dir / UI_FILE
        history = _history_item(self.dir)
        ui, ui_error = load_json_file(ui_path, TASK_FILE) if ui_path.exists() else (None, None)
        conv = _Conversation(self.agent, self.task_id, self.p)
        errors: list[Problem] = []
        if api_path.exists():
            data, error = load_json_file(api_path, TASK_FILE)
            if error is not None:
                return ParseResult(errors=[Problem(str(api_path), error)])
            messages = _api_messages(data)
            if messages is None:
                return ParseResult(
                    errors=[
                        Problem(str(api_path), f"not a task history: the top level is a JSON {json_type_name(data)}")
                    ]
                )
            conv.ui_times = _ui_index_times(ui)
            for index, message in enumerate(messages):
                conv.api_message(index, message)
            found = len(messages)
        elif ui_error is not None:
            return ParseResult(errors=[Problem(str(ui_path), ui_error)])
        elif isinstance(ui, list):
            for index, message in enumerate(ui):
                conv.ui_message(index, message)
            found = len(ui)
        else:
            return ParseResult(
                errors=[Problem(self.p, "no api_conversation_history.json or ui_messages.json in the task folder")]
            )
        if found and not conv.messages:
            errors.append(Problem(self.p, no_messages_error("1 session(s)")))
        session = self._session(conv, history, ui)
        return ParseResult(sessions=[session] if conv.messages else [], warnings=conv.warnings(), errors=errors)

    def _session(self, conv: _Conversation, history: dict[str, Any], ui: Any) -> Session:
        stamps = [m.timestamp for m in conv.messages if m.timestamp]
        stamps += [s for s in (iso_utc(m.get("ts")) for m in as_list(ui) if isinstance(m, dict)) if s]
        stamps += [s for s in (iso_utc(history.get("ts")),) if s]
        if self.task_id.isdigit() and len(self.task_id) == 13:  # Cline task ids are epoch ms
            stamps += [s for s in (iso_utc(int(self.task_id)),) if s]
        models = list(conv.models)
        for model in [history.get("modelId"), *_metadata_models(self.dir)]:
            if isinstance(model, str) and model and model not in models:
                models.append(model)
        cwd = (
            nonempty_str(history.get("cwdOnTaskInitialization"))
            or nonempty_str(history.get("workspace"))
            or conv.env_cwd
        )
        return Session(
            agent=self.agent,
            native_id=self.task_id,
            messages=tuple(conv.messages),
            cwd=cwd,
            title=_title(history.get("task")),
            started_at=min(stamps, default=None),
            ended_at=max(stamps, default=None),
            models=tuple(models),
            source_paths=(self.p,),
            parent_native_id=nonempty_str(history.get("parentTaskId")),
        )


# --- one Cline SDK session file ------------------------------------------------------------------


class _SdkSession:
    """`sessions/<id>/<id>.messages.json`, or a subagent's `sessions/<root>/<agent>.messages.json`."""

    def __init__(self, agent: str, path: Path) -> None:
        self.agent = agent
        self.path = path
        self.p = str(path)
        self.root_id = path.parent.name
        stem = path.name.removesuffix(MESSAGES_SUFFIX)
        self.parent: str | None = None
        if stem == self.root_id:
            self.native_id = stem
        else:  # the SDK names child sessions <root>__<agent> and <root>__teamtask__<agent>__<task>
            self.parent = self.root_id
            agent_id, _, team_task = stem.partition("__")
            self.native_id = (
                f"{self.root_id}__teamtask__{agent_id}__{team_task}" if team_task else f"{self.root_id}__{stem}"
            )

    def parse(self) -> ParseResult:
        data, error = load_json_file(self.path, TASK_FILE)
        if error is not None:
            return ParseResult(errors=[Problem(self.p, error)])
        messages = data.get("messages") if isinstance(data, dict) else None
        if not isinstance(messages, list):
            return ParseResult(errors=[Problem(self.p, "not a Cline session: no 'messages' list")])
        manifest, _ = load_json_file(self.path.parent / f"{self.root_id}.json", TASK_FILE)
        manifest = manifest if isinstance(manifest, dict) else {}
        conv = _Conversation(self.agent, self.native_id, self.p)
        for index, message in enumerate(messages):
            conv.api_message(index, message, sdk=True)
        errors: list[Problem] = []
        if messages and not conv.messages:
            errors.append(Problem(self.p, no_messages_error("1 session(s)")))
        own = self.parent is None
        stamps = [m.timestamp for m in conv.messages if m.timestamp]
        if own:
            stamps += [s for s in (iso_utc(manifest.get("started_at")), iso_utc(manifest.get("ended_at"))) if s]
        models = list(conv.models)
        if own and nonempty_str(manifest.get("model")) and manifest["model"] not in models:
            models.append(manifest["model"])
        metadata = as_dict(manifest.get("metadata"))
        session = Session(
            agent=self.agent,
            native_id=self.native_id,
            messages=tuple(conv.messages),
            cwd=nonempty_str(manifest.get("cwd")) or nonempty_str(manifest.get("workspace_root")) or conv.env_cwd,
            title=_title(metadata.get("title")) if own else None,
            started_at=min(stamps, default=None),
            ended_at=max(stamps, default=None),
            models=tuple(models),
            source_paths=(self.p,),
            parent_native_id=self.parent,
        )
        return ParseResult(sessions=[session] if conv.messages else [], warnings=conv.warnings(), errors=errors)


# --- the conversation: API view (canonical) and UI view (fallback) --------------------------------


@dataclass
class _PendingResult:
    """An XML-era tool result: a `[tool for 'x'] Result:` block and the text blocks after it."""

    name: str
    key: str
    parts: list[str] = field(default_factory=list)


class _Conversation:
    def __init__(self, agent: str, native_id: str, p: str) -> None:
        self.agent = agent
        self.native_id = native_id
        self.p = p
        self.messages: list[Message] = []
        self.keys: set[str] = set()
        self.bases: set[str] = set()
        self.tool_names: dict[str, str] = {}
        self.models: list[str] = []
        self.env_cwd: str | None = None
        self.ui_times: dict[int, str] = {}
        self.unknown: Counter[str] = Counter()
        self.problems: list[Problem] = []

    # -- API view --

    def api_message(self, index: int, message: Any, sdk: bool = False) -> None:
        if not isinstance(message, dict):
            self.problems.append(
                Problem(self.p, f"message {index} is a JSON {json_type_name(message)}, not an object; skipped")
            )
            return
        role = message.get("role")
        ts = iso_utc(message.get("ts")) or self.ui_times.get(index)
        base = self._base(index, message, sdk)
        model = nonempty_str(as_dict(message.get("modelInfo")).get("modelId")) or nonempty_str(
            as_dict(message.get("modelInfo")).get("id")
        )
        if model and model not in self.models:
            self.models.append(model)
        if message.get("isTruncationMarker") is True or message.get("type") == "reasoning" or role == "error":
            return  # a truncation marker, encrypted reasoning, or an SDK display-only error
        content = message.get("content")
        if message.get("isSummary") is True:
            text = _plain_text(content)
            if text.strip():
                self._add(Message("system", text, "summary", base, ts))
            return
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else as_list(content)
        if role == "user":
            self._user(blocks, base, ts)
        elif role == "assistant":
            self._assistant(blocks, base, ts)
        elif role == "tool":  # Roo's AI-SDK form keeps results in their own message
            for n, block in enumerate(blocks):
                if isinstance(block, dict):
                    self._tool_result_block(block, f"{base}:{n}", ts)
        else:
            self.unknown[f"message of unknown role {role!r}"] += 1

    def _base(self, index: int, message: dict[str, Any], sdk: bool) -> str:
        """A message key that survives the file being rewritten: its id or its `ts`, else its index."""
        ident = nonempty_str(message.get("id")) if sdk else None
        ts = message.get("ts")
        if ident:
            base = f"{self.native_id}:{ident}"
        elif isinstance(ts, int) and not isinstance(ts, bool):
            base = f"{self.native_id}:{ts}"
        else:
            base = f"{self.native_id}:i{index}"
        if base in self.bases:  # two messages written in the same millisecond
            base = f"{base}#{index}"
        self.bases.add(base)
        return base

    def _user(self, blocks: list[Any], base: str, ts: str | None) -> None:
        pending: _PendingResult | None = None
        prompts: list[str] = []
        injected: list[str] = []
        for n, block in enumerate(blocks):
            btype = block.get("type") if isinstance(block, dict) else None
            if btype in ("tool_result", "tool-result"):
                self._flush_result(pending, ts)
                pending = None
                prompts += self._tool_result_block(block, f"{base}:{n}", ts)
            elif btype == "text" and isinstance(block.get("text"), str):
                text = block["text"]
                header = RESULT_HEADER_RE.match(text.lstrip())
                if header:
                    self._flush_result(pending, ts)
                    pending = _PendingResult(header.group(1), f"{base}:{n}")
                    output, reminder = _split_reminder(text.lstrip()[header.end() :])
                    pending.parts += [output] if output.strip() else []
                    injected += [reminder] if reminder else []
                elif is_injected(text, INJECTED_PREFIXES):
                    self._flush_result(pending, ts)
                    pending = None
                    self._env(text)
                    injected.append(text)
                    prompts += _typed(text)  # a resumption can carry the person's new message
                elif pending is not None:
                    pending.parts.append(text)
                else:
                    typed, reminder = _split_reminder(text)
                    kind, part = _classify_typed(typed)
                    (prompts if kind == "prompt" else injected).append(part)
                    injected += [reminder] if reminder else []
            elif btype in ("image", "document", "file"):
                (pending.parts if pending is not None else prompts).append(f"[{btype}]")  # never base64
            elif btype not in SKIPPED_BLOCKS:
                self.unknown[f"content block of unknown type {btype!r}"] += 1
        self._flush_result(pending, ts)
        self._emit_user(prompts, injected, base, ts)

    def _emit_user(self, prompts: list[str], injected: list[str], base: str, ts: str | None) -> None:
        context: list[str] = []
        typed: list[str] = []
        for text in prompts:
            rest, blocks = strip_smriti_context(text)
            context += [blocks] if blocks else []
            typed += [rest] if rest else []
        if typed:
            self._add(Message("user", "\n\n".join(typed), "prompt", base, ts))
        if injected or context:
            self._add(
                Message("user", "\n\n".join([*context, *injected])[:OUTPUT_MAX], "injected_context", f"{base}:ctx", ts)
            )

    def _flush_result(self, pending: _PendingResult | None, ts: str | None) -> None:
        if pending is None:
            return
        text = "\n".join(p for p in pending.parts if p.strip())
        if pending.name in CONVERSATIONAL_TOOLS:
            # The person's reply to a question/completion: a prompt, not tool output.
            typed = _typed(text)
            if typed:
                self._add(Message("user", "\n\n".join(typed), "prompt", pending.key, ts))
            return
        self._add(self._result_message(pending.key, pending.name, text, ts))
        for n, reply in enumerate(_typed(text)):  # feedback given while denying/approving a tool
            self._add(Message("user", reply, "prompt", f"{pending.key}:fb{n}", ts))

    def _tool_result_block(self, block: dict[str, Any], fallback: str, ts: str | None) -> list[str]:
        """One `tool_result` (or AI-SDK `tool-result`) block; returns the person's typed replies."""
        tool_id = nonempty_str(block.get("tool_use_id")) or nonempty_str(block.get("toolCallId"))
        name = (self.tool_names.get(tool_id) if tool_id else None) or nonempty_str(block.get("toolName"))
        raw = block.get("content") if "content" in block else block.get("output")
        text = _result_text(raw)
        header = RESULT_HEADER_RE.match(text.lstrip())
        if header:  # the header some versions also put inside a tool_result block: the call says it
            text = text.lstrip()[header.end() :]
        error = block.get("is_error") is True or as_dict(raw).get("type") == "error-text"
        key = f"{self.native_id}:result:{tool_id}" if tool_id else fallback
        typed = _typed(text)
        if name in CONVERSATIONAL_TOOLS:
            return typed
        self._add(self._result_message(key, name, text, ts, error))
        return typed

    def _result_message(self, key: str, name: str | None, text: str, ts: str | None, error: bool = False) -> Message:
        failed = error or "<error>" in text or text.startswith(("The user denied this operation", "[ERROR]"))
        text = ("[error] " + text if failed else text)[:OUTPUT_MAX]
        return Message("tool", text, "tool_result", key, ts, tool_name=name)

    def _assistant(self, blocks: list[Any], base: str, ts: str | None) -> None:
        texts: list[str] = []
        calls: list[Message] = []
        for n, block in enumerate(blocks):
            btype = block.get("type") if isinstance(block, dict) else None
            if btype == "text" and isinstance(block.get("text"), str):
                prose, xml_calls = self._xml_tools(block["text"], f"{base}:{n}", ts)
                texts += prose
                calls += xml_calls
            elif btype in ("tool_use", "tool-call"):
                tool_id = nonempty_str(block.get("id")) or nonempty_str(block.get("toolCallId"))
                name = nonempty_str(block.get("name")) or nonempty_str(block.get("toolName"))
                tool_input = block.get("input") if "input" in block else block.get("args")
                spoken = self._conversational(name, tool_input)
                if spoken is not None:
                    if tool_id and name:  # so its result is read as the person's reply
                        self.tool_names[tool_id] = name
                    texts.append(spoken)
                else:
                    calls.append(self._tool_call(tool_id, name, tool_input, f"{base}:{n}", ts))
            elif btype not in SKIPPED_BLOCKS and btype not in ("image",):
                self.unknown[f"content block of unknown type {btype!r}"] += 1
        text = "\n\n".join(t.strip() for t in texts if t.strip())
        if text:
            self._add(Message("assistant", text, "response", base, ts))
        for call in calls:
            self._add(call)

    def _xml_tools(self, text: str, base: str, ts: str | None) -> tuple[list[str], list[Message]]:
        """Prose and tool calls of one XML-era text block; `<thinking>` is reasoning, not stored."""
        text = THINKING_RE.sub("", text)
        prose: list[str] = []
        calls: list[Message] = []
        pos = 0
        for n, match in enumerate(XML_TOOL_RE.finditer(text)):
            prose.append(text[pos : match.start()])
            pos = match.end()
            name = match.group(1)
            params = {m.group(1): m.group(2) for m in XML_PARAM_RE.finditer(match.group(2))}
            spoken = self._conversational(name, params)
            if spoken is not None:
                prose.append(spoken)
            else:
                calls.append(self._tool_call(None, name, params, f"{base}:t{n}", ts))
        prose.append(text[pos:])
        return [p for p in prose if p.strip()], calls

    def _conversational(self, name: str | None, tool_input: Any) -> str | None:
        """What the assistant said through attempt_completion / ask_followup_question / plan mode."""
        if name not in CONVERSATIONAL_TOOLS:
            return None
        value = as_dict(tool_input).get(CONVERSATIONAL_TOOLS[name])
        return value if isinstance(value, str) else ""

    def _tool_call(
        self, tool_id: str | None, name: str | None, tool_input: Any, fallback: str, ts: str | None
    ) -> Message:
        if tool_id and name:
            self.tool_names[tool_id] = name
        text, files = _tool_summary(name, tool_input)
        key = f"{self.native_id}:{tool_id}" if tool_id else fallback
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

    def _env(self, text: str) -> None:
        match = CWD_RE.search(text)
        if match and self.env_cwd is None:
            self.env_cwd = match.group(1).strip()

    # -- UI view (only when the API file is missing) --

    def ui_message(self, index: int, message: Any) -> None:
        if not isinstance(message, dict):
            self.problems.append(
                Problem(self.p, f"ui message {index} is a JSON {json_type_name(message)}, not an object; skipped")
            )
            return
        kind = message.get("say") if message.get("type") == "say" else message.get("ask")
        ts = iso_utc(message.get("ts"))
        stamp = message.get("ts")
        base = f"{self.native_id}:ui:{stamp if isinstance(stamp, int) else f'i{index}'}"
        if base in self.bases:
            base = f"{base}#{index}"
        self.bases.add(base)
        raw_text = message.get("text")
        text = raw_text if isinstance(raw_text, str) else ""
        images = ["[image]"] * len(as_list(message.get("images")))
        if kind in ("task", "user_feedback"):
            self._emit_user([t for t in [text, *images] if t.strip()], [], base, ts)
        elif kind in ("text", "completion_result"):
            if text.strip():
                self._add(Message("assistant", THINKING_RE.sub("", text).strip(), "response", base, ts))
        elif kind in ("followup", "plan_mode_respond", "plan_mode_response"):
            spoken = _json_field(text, "question", "response")
            if spoken.strip():
                self._add(Message("assistant", spoken, "response", base, ts))
        elif kind == "tool":
            tool_input = _json_obj(text)
            name = nonempty_str(tool_input.get("tool"))
            self._add(self._tool_call(None, name, tool_input, base, ts))
        elif kind == "command":
            self._add(self._tool_call(None, "execute_command", {"command": text}, base, ts))
        elif kind == "use_mcp_server":
            tool_input = _json_obj(text)
            self._add(
                self._tool_call(None, nonempty_str(tool_input.get("toolName")) or "use_mcp_tool", tool_input, base, ts)
            )
        elif kind in ("command_output", "mcp_server_response"):
            name = "execute_command" if kind == "command_output" else "use_mcp_tool"
            if text.strip():
                self._add(self._result_message(base, name, text, ts))
        elif kind not in UI_SKIPPED:
            self.unknown[f"ui message of unknown type {kind!r}"] += 1

    # -- shared --

    def _add(self, message: Message) -> None:
        # an empty text is no message (unless it is a call: its input is what matters)
        if (message.text.strip() or message.kind == "tool_call") and first_sight(self.keys, message):
            self.messages.append(message)

    def warnings(self) -> list[Problem]:
        return [*self.problems, *(Problem(self.p, f"skipped {plural(n, what)}") for what, n in self.unknown.items())]


# --- task-folder facts ---------------------------------------------------------------------------


def _api_messages(data: Any) -> list[Any] | None:
    if isinstance(data, list):
        return data
    messages = data.get("messages") if isinstance(data, dict) else None  # Roo's {version: 2, messages}
    return messages if isinstance(messages, list) else None


def _ui_index_times(ui: Any) -> dict[int, str]:
    """API message index → time of the first UI message recorded after it (older files have no `ts`)."""
    times: dict[int, str] = {}
    for message in as_list(ui):
        if not isinstance(message, dict):
            continue
        index = message.get("conversationHistoryIndex")
        stamp = iso_utc(message.get("ts"))
        if isinstance(index, int) and stamp and (index + 1) not in times:
            times[index + 1] = stamp
    return times


def _history_item(task_dir: Path) -> dict[str, Any]:
    """The task's HistoryItem: Roo's own file, else Roo's index, else Cline's taskHistory.json."""
    item, _ = load_json_file(task_dir / "history_item.json", TASK_FILE)
    if isinstance(item, dict):
        return item
    tasks_dir = task_dir.parent
    for index_path in (tasks_dir / "_index.json", tasks_dir.parent / "state" / "taskHistory.json"):
        entries = _cached_index(str(index_path), *_stat_key(index_path))
        if task_dir.name in entries:
            return entries[task_dir.name]
    return {}


def _stat_key(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
        return st.st_mtime_ns, st.st_size
    except OSError:
        return 0, -1


@lru_cache(maxsize=8)
def _cached_index(path: str, mtime_ns: int, size: int) -> dict[str, dict[str, Any]]:
    """An index file read once per version (ingest parses many tasks against the same index)."""
    if size < 0:
        return {}
    data, _ = load_json_file(Path(path), TASK_FILE)
    entries = data.get("entries") if isinstance(data, dict) else data
    return {e["id"]: e for e in as_list(entries) if isinstance(e, dict) and isinstance(e.get("id"), str)}


def _metadata_models(task_dir: Path) -> list[str]:
    data, _ = load_json_file(task_dir / "task_metadata.json", TASK_FILE)
    usage = as_list(data.get("model_usage")) if isinstance(data, dict) else []
    return [u["model_id"] for u in usage if isinstance(u, dict) and nonempty_str(u.get("model_id"))]


def _is_roo_task(task_dir: Path) -> bool:
    parts = task_dir.parts
    if ROO_EXTENSION in parts:
        return True
    if CLINE_EXTENSION in parts or ".cline" in parts:
        return False
    return (task_dir / "history_item.json").exists() or bool(UUID_RE.fullmatch(task_dir.name))


def _canonical_source(path: Path) -> Path:
    """Any file of a task folder names the task: its source file, so one task is tracked under one path."""
    if path.name not in TASK_AUX_FILES:
        return path
    try:
        names = os.listdir(path.parent)
    except OSError:
        return path
    return _task_source(path.parent, names) or path


def _task_source(dirpath: Path, filenames: list[str]) -> Path | None:
    for name in TASK_FILES:  # the API view when present, else the UI view
        if name in filenames:
            return dirpath / name
    return None


# --- text helpers --------------------------------------------------------------------------------


def _typed(text: str) -> list[str]:
    """What the person typed inside the extension's wrapper tags."""
    return [m.group(2).strip() for m in TYPED_RE.finditer(text) if m.group(2).strip()]


def _split_reminder(text: str) -> tuple[str, str]:
    """(the text, a focus-chain reminder the extension appended to it, or "")."""
    match = APPENDED_REMINDER_RE.search(text)
    if match is None:
        return text, ""
    return text[: match.start()].rstrip(), text[match.start() :].strip()


def _classify_typed(text: str) -> tuple[str, str]:
    """A user text block: the typed text unwrapped from its tag, or plain text as a prompt."""
    typed = _typed(text)
    if typed:
        return "prompt", "\n\n".join(typed)
    return "prompt", text


def _plain_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n\n".join(b["text"] for b in as_list(content) if isinstance(b, dict) and isinstance(b.get("text"), str))


def _result_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts: list[str] = []
        for item in content:
            if isinstance(item, dict) and item.get("type") in ("image", "media", "image-data"):
                parts.append("[image]")
            else:
                parts.append(_result_text(item.get("text", item.get("value")) if isinstance(item, dict) else item))
        return "\n".join(p for p in parts if p)
    if isinstance(content, dict):  # AI-SDK output {type: text|json|error-text, value}
        value = content.get("value", content.get("text"))
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return str(content)


def _tool_summary(name: str | None, tool_input: Any) -> tuple[str, tuple[str, ...]]:
    # Roo's multi-file tools list their files; XML-era params keep the line breaks around a value.
    files = input_paths(tool_input, PATH_KEYS, lists=("files", "edits"), item_keys=("path", "file_path"), strip=True)
    summary = input_summary(tool_input, SUMMARY_KEYS) or (", ".join(files) if files else None)
    return tool_call_text(name, tool_input, summary.strip() if summary is not None else None), files


def _json_obj(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {"text": text}
    return value if isinstance(value, dict) else {"value": value}


def _json_field(text: str, *keys: str) -> str:
    """A UI ask's JSON payload field (newer builds), or the text itself (older ones)."""
    obj = _json_obj(text)
    return next((obj[k] for k in keys if isinstance(obj.get(k), str)), text if "text" in obj else "")


def _title(task: Any) -> str | None:
    if not isinstance(task, str):
        return None
    inner = _typed(task)
    line = next((ln.strip() for ln in (inner[0] if inner else task).splitlines() if ln.strip()), "")
    return line[:TITLE_MAX] or None


# --- files and paths -----------------------------------------------------------------------------


def _walk(root: Path, depth: int) -> Iterator[tuple[Path, list[str], list[str]]]:
    """os.walk with a depth limit; the caller prunes `dirnames` in place."""
    base = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root, onerror=lambda _e: None):
        path = Path(dirpath)
        yield path, dirnames, filenames
        if len(path.parts) - base >= depth:
            dirnames[:] = []
