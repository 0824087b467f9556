"""Cursor adapter: `state.vscdb` SQLite stores and agent-transcript JSONL in, Sessions out.

Format notes live in docs/session-formats.md §4. Cursor has kept its chats in three storage eras,
and one install can hold all of them at once:

1. legacy chat tabs: workspace `ItemTable` key `workbench.panel.aichat.view.aichat.chatdata`
   (`tabs[].bubbles[]`, one tab = one session);
2. composers with an inline conversation: workspace `ItemTable` key `composer.composerData`
   (`allComposers[].conversation[]`);
3. split storage: global `cursorDiskKV` rows `composerData:<composerId>` (message order in
   `fullConversationHeadersOnly`) plus one `bubbleId:<composerId>:<bubbleId>` row per message.
   The workspace DB's `composer.composerData` then lists only ids: it is how a composer is tied to
   a workspace folder (`workspace.json` next to the workspace DB).

A composer seen in era 2 and era 3 yields the same keys (`<composerId>:<bubbleId>`), so the store
keeps one copy. The Cursor agent also writes append-only transcripts
(`~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl`) with no ids and no times; those
resume like any JSONL source. SQLite sources are re-read whole (resume None) when they change.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from smriti.adapters._common import (
    OUTPUT_MAX,
    classify_user_text,
    compact_json,
    connect_read_only,
    editor_user_dirs,
    first_sight,
    guarded_parse,
    home_dir,
    input_paths,
    input_summary,
    is_sqlite,
    iso_utc,
    join_parts,
    maybe_json,
    no_messages_error,
    nonempty_str,
    plural,
    read_json_or_none,
    table_names,
    tool_call_text,
    without_inline_images,
)
from smriti.adapters._jsonl import open_regular, read_jsonl
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "cursor"

CHATDATA_KEY = "workbench.panel.aichat.view.aichat.chatdata"
COMPOSER_LIST_KEY = "composer.composerData"

# Bubble `type`: numbers in composers (eras 2-3), words in legacy chat tabs (era 1).
BUBBLE_ROLES: dict[Any, str] = {1: "user", "user": "user", 2: "assistant", "ai": "assistant"}
TOOL_ERROR_STATUSES = frozenset({"error", "failed", "rejected"})
# The agent writes `[REDACTED]` where its reasoning was; it is not part of the reply.
REDACTED = "[REDACTED]"
USER_QUERY_RE = re.compile(r"<user_query>\s*(.*?)\s*</user_query>", re.S)
INJECTED_PREFIXES = (
    "<system-reminder>",
    "<user_info>",
    "<environment_details>",
    "<user_instructions>",
    "<attached_files>",
    "<additional_data>",
    "<rules>",
    "<project_layout>",
)

# Tool inputs: the first of these names the call in its one-line text; the file keys fill `files`.
SUMMARY_KEYS = (
    "command",
    "file_path",
    "target_file",
    "path",
    "relativeWorkspacePath",
    "pattern",
    "glob_pattern",
    "url",
    "query",
    "search_term",
    "description",
)
FILE_KEYS = ("file_path", "filePath", "target_file", "targetFile", "path", "relativeWorkspacePath", "notebook_path")
RESULT_TEXT_KEYS = ("contents", "output", "stdout", "result", "content", "text")
KNOWN_TRANSCRIPT_BLOCKS = frozenset({"thinking", "redacted_thinking", "reasoning"})
TRANSCRIPT_TOOL_USE = frozenset({"tool_use", "tool_call"})  # `tool_call` is a drift spelling
TRANSCRIPT_TOOL_RESULT = frozenset({"tool_result", "tool-result"})
# Top-level transcript records that carry no conversation: a provider error line.
KNOWN_TRANSCRIPT_TYPES = frozenset({"error"})
# Transcripts hold no tool results in practice, so open calls pile up: keep only the newest.
MAX_PENDING_TOOLS = 200


class CursorAdapter:
    name = AGENT

    def default_roots(self) -> list[Path]:
        return [c for c in self.candidate_roots() if c.is_dir()]

    def candidate_roots(self) -> list[Path]:
        home = home_dir()
        return [*editor_user_dirs(home, ("Cursor",)), home / ".cursor" / "projects"]

    def discover(self, root: Path) -> Iterator[Path]:
        """Global and workspace state DBs, then agent transcripts, each group sorted by path.

        The global DB sorts before workspaceStorage, so the richer era-3 copy of a composer is
        stored first and an era-2 copy of it in a workspace DB only repeats known keys.
        """
        if root.is_file():
            yield root
            return
        found: set[Path] = set()
        for pattern in (
            "state.vscdb",
            "*/state.vscdb",
            "globalStorage/state.vscdb",
            "workspaceStorage/*/state.vscdb",
            "User/globalStorage/state.vscdb",
            "User/workspaceStorage/*/state.vscdb",
        ):
            found.update(p for p in root.glob(pattern) if p.is_file())
        yield from sorted(found)
        transcripts: set[Path] = set()
        for folder in _transcript_folders(root):
            transcripts.update(p for p in folder.rglob("*.jsonl") if p.is_file())
        yield from sorted(transcripts)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                return _detect_folder(path)
            if path.suffix == ".jsonl":
                return "agent-transcripts" in path.parts or _looks_like_transcript(path)
            return is_sqlite(path) and _is_cursor_db(path)
        except Exception:  # a sniff must never raise
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(self._parse, path, resume, "could not be read")

    def _parse(self, path: Path, resume: Any) -> ParseResult:
        p = str(path)
        if path.is_dir():
            return ParseResult(errors=[Problem(p, "is a directory, not a Cursor database or transcript")])
        if path.suffix == ".jsonl":
            return _parse_transcript(path, resume)
        try:
            is_db = is_sqlite(path)
        except OSError as exc:
            return ParseResult(errors=[Problem(p, f"cannot read the file: {exc.strerror or exc}")])
        if not is_db:
            return ParseResult(
                errors=[
                    Problem(
                        p, "not a Cursor source: expected a state.vscdb SQLite database or an agent-transcript .jsonl"
                    )
                ]
            )
        return _DbParser(path).parse()


# --- discovery and detection helpers -------------------------------------------------------------


def _transcript_folders(root: Path) -> list[Path]:
    """`agent-transcripts` folders at most three levels down: ~/.cursor, projects/, a project."""
    if root.name == "agent-transcripts":
        return [root]
    folders: list[Path] = []
    for pattern in ("agent-transcripts", "*/agent-transcripts", "*/*/agent-transcripts"):
        folders += [f for f in root.glob(pattern) if f.is_dir()]
    return folders


def _detect_folder(path: Path) -> bool:
    if path.name in ("agent-transcripts", ".cursor") or (path / "agent-transcripts").is_dir():
        return True
    cursor_named = any(part.lower() == "cursor" for part in path.parts)
    has_state = (path / "globalStorage").is_dir() or (path / "workspaceStorage").is_dir() or (path / "User").is_dir()
    return cursor_named and has_state


def _looks_like_transcript(path: Path) -> bool:
    """An agent-transcript line has a top-level role and message, and no `type`/`uuid` envelope."""
    with open_regular(path) as fh:
        head = fh.read(65536)
    for raw in head.splitlines():
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            return False
        return (
            isinstance(record, dict)
            and record.get("role") in ("user", "assistant")
            and isinstance(record.get("message"), dict)
            and "type" not in record
            and "uuid" not in record
        )
    return False


def _is_cursor_db(path: Path) -> bool:
    """Cursor's DBs have a cursorDiskKV table; plain VS Code state DBs do not."""
    with closing(connect_read_only(path)) as conn:
        tables = table_names(conn)
    return "cursorDiskKV" in tables or any(part.lower() == "cursor" for part in path.parts)


# --- small value helpers -------------------------------------------------------------------------


def _uri_to_path(uri: Any) -> str | None:
    """`file:///home/x/p` → `/home/x/p`; other schemes (vscode-remote) keep their path part."""
    if isinstance(uri, dict):
        return nonempty_str(uri.get("fsPath")) or _uri_to_path(uri.get("external")) or nonempty_str(uri.get("path"))
    if not isinstance(uri, str) or not uri:
        return None
    if "://" not in uri:
        return uri
    parsed = urlparse(uri)
    path = unquote(parsed.path)
    if re.match(r"^/[A-Za-z]:", path):  # file:///c%3A/Users/... on Windows
        path = path[1:]
    return path or None


def _json_value(raw: Any) -> Any:
    """A JSON document stored as TEXT or BLOB; raises ValueError when it does not parse."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = bytes(raw).decode("utf-8")
    return json.loads(raw)


def _tool_call(name: str, tool_input: Any, key: str, ts: str | None) -> Message:
    text = tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS))
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


def _result_text(value: Any) -> str:
    """Tool output as text: a JSON result's main text field, else compact JSON; never base64."""
    return without_inline_images(_result_body(maybe_json(value)))[:OUTPUT_MAX]


def _result_body(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        main = next((value[k] for k in RESULT_TEXT_KEYS if isinstance(value.get(k), str)), None)
        if main is not None:
            return main
    if isinstance(value, list):
        texts = [
            item if isinstance(item, str) else nonempty_str(item.get("text")) if isinstance(item, dict) else None
            for item in value
        ]
        if any(texts):
            return "\n".join(t for t in texts if t)
    return compact_json(value)


def _split_user_text(text: str) -> list[tuple[str, str]]:
    """One user text as (kind, text) parts: the typed prompt and any injected context around it.

    The agent wraps what the person typed in `<user_query>`; anything outside it is context the
    agent added. smriti's own `<smriti-context>` blocks are split out of the prompt.
    """
    queries = USER_QUERY_RE.findall(text)
    if queries:
        rest = USER_QUERY_RE.sub("", text).strip()
        parts = [p for q in queries for p in classify_user_text(q)]
        return parts + ([("injected_context", rest)] if rest else [])
    return classify_user_text(text, INJECTED_PREFIXES)


def _user_messages(text: str, key: str, ts: str | None, files: tuple[str, ...] = ()) -> list[Message]:
    """A prompt and/or one injected-context message, keyed so each keeps its identity."""
    prompt, injected = join_parts(_split_user_text(text))
    out: list[Message] = []
    if prompt:
        out.append(Message("user", prompt, "prompt", key, ts, files=files))
    if injected:
        out.append(Message("user", injected, "injected_context", key + ":ctx" if prompt else key, ts))
    return out


def _lexical_text(rich: Any) -> str:
    """Plain text of a Lexical editor state (bubble `richText`), used when `text` is empty."""
    try:
        root = json.loads(rich) if isinstance(rich, str) else rich
    except ValueError:
        return ""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("text"), str):
                out.append(node["text"])
            children = node.get("children")
            for child in children if isinstance(children, list) else ():
                walk(child)
            if node.get("type") == "paragraph":
                out.append("\n")
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(root.get("root") if isinstance(root, dict) else None)
    return "".join(out).strip()


# --- the state DB parser -------------------------------------------------------------------------


@dataclass
class _Acc:
    """One session being assembled from one or more places in the DB."""

    native_id: str
    messages: list[Message] = field(default_factory=list)
    cwd: str | None = None
    title: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    models: list[str] = field(default_factory=list)
    parent: str | None = None

    def add_model(self, model: Any) -> None:
        if nonempty_str(model) and model != "default" and model not in self.models:
            self.models.append(model)


class _DbParser:
    """Reads every session of one state.vscdb (global or workspace)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.p = str(path)
        self.accs: dict[str, _Acc] = {}
        self.keys: set[str] = set()
        self.found = 0  # sessions with conversation content (an empty composer does not count)
        self.errors: list[Problem] = []
        self.counts: Counter[str] = Counter()  # warning text templates → occurrences
        self.unknown_bubbles: Counter[str] = Counter()
        self._folder_of_composer: dict[str, str] | None = None

    def parse(self) -> ParseResult:
        try:
            conn = connect_read_only(self.path)
        except sqlite3.Error as exc:
            return ParseResult(errors=[Problem(self.p, f"cannot open the database read-only: {exc}")])
        try:
            with closing(conn):
                tables = table_names(conn)
                if "cursorDiskKV" in tables:
                    self._split_composers(conn)
                if "ItemTable" in tables:
                    self._legacy_tabs(conn)
                    self._inline_composers(conn)
        except sqlite3.Error as exc:
            # Locked mid-read or a damaged page: keep what was read, report the rest.
            self.errors.append(Problem(self.p, f"database read failed: {exc}"))
        sessions = [self._session(acc) for acc in self.accs.values() if acc.messages]
        if self.found and not sessions:
            self.errors.append(Problem(self.p, no_messages_error(plural(self.found, "session"))))
        return ParseResult(sessions=sessions, resume=None, warnings=self._warnings(), errors=self.errors)

    # -- reading rows --

    def _item(self, conn: sqlite3.Connection, key: str) -> Any:
        row = conn.execute("select value from ItemTable where key = ?", (key,)).fetchone()
        if row is None or row[0] is None:
            return None
        return self._decode(row[0], key)

    def _decode(self, raw: Any, key: str) -> Any:
        try:
            return _json_value(raw)
        except (ValueError, UnicodeDecodeError):
            self.errors.append(Problem(self.p, f"row {key!r} is not valid JSON; skipped"))
            return None

    def _range(self, conn: sqlite3.Connection, prefix: str) -> Iterator[tuple[str, Any]]:
        """Rows whose key starts with prefix, through the key index (no full scan of a huge DB)."""
        upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        yield from conn.execute(
            "select key, value from cursorDiskKV where key >= ? and key < ? order by key", (prefix, upper)
        )

    # -- era 3: composerData + bubbleId rows --

    def _split_composers(self, conn: sqlite3.Connection) -> None:
        """One composer at a time (a global DB can hold thousands); sub-composers learn their parent
        from the parent's `subComposerIds` once every composer has been read."""
        parents: dict[str, str] = {}
        for key, raw in self._range(conn, "composerData:"):
            if raw is None:
                self.counts["composer row with a NULL value"] += 1
                continue
            data = self._decode(raw, key)
            if not isinstance(data, dict):
                continue
            cid = key.removeprefix("composerData:")
            children = data.get("subComposerIds")
            for child in children if isinstance(children, list) else []:
                if isinstance(child, str):
                    parents[child] = cid
            self._composer(conn, cid, data)
        for child, parent in parents.items():
            if child in self.accs:
                self.accs[child].parent = self.accs[child].parent or parent

    def _composer(self, conn: sqlite3.Connection, cid: str, data: dict[str, Any]) -> None:
        headers = data.get("fullConversationHeadersOnly")
        if isinstance(headers, list) and headers:
            entries = self._resolve_headers(conn, cid, headers)
        elif isinstance(data.get("conversation"), list) and data["conversation"]:
            entries = _inline_entries(data["conversation"])
        else:
            return  # an empty chat: nothing to store
        acc = self._composer_acc(cid, data)
        self.found += 1
        for bubble_id, bubble in entries:
            self._safe_bubble(acc, f"{cid}:{bubble_id}", bubble)
        if acc.cwd is None:
            acc.cwd = self._composer_folder(cid)

    def _resolve_headers(self, conn: sqlite3.Connection, cid: str, headers: list[Any]) -> list[tuple[str, Any]]:
        """Bubbles in header order. A header names a row by its key, or else by the bubbleId inside
        the row's JSON (the two can differ); header ids with no row are counted, not fatal."""
        prefix = f"bubbleId:{cid}:"
        rows: dict[str, Any] = {}
        by_inner_id: dict[str, list[str]] = {}
        for key, raw in self._range(conn, prefix):
            bubble_id = key[len(prefix) :]
            value = None if raw is None else self._decode(raw, key)
            rows[bubble_id] = value if raw is not None else _NULL
            inner = value.get("bubbleId") if isinstance(value, dict) else None
            if isinstance(inner, str) and inner != bubble_id:
                by_inner_id.setdefault(inner, []).append(bubble_id)
        entries: list[tuple[str, Any]] = []
        used: set[str] = set()
        for header in headers:
            hid = header.get("bubbleId") if isinstance(header, dict) else None
            if not isinstance(hid, str):
                self.counts["conversation header without a bubble id"] += 1
                continue
            row_id: str | None = (
                hid if hid in rows else next((r for r in by_inner_id.get(hid, []) if r not in used), None)
            )
            if row_id is None or row_id in used:
                self.counts["bubble listed in a conversation header but missing from the database"] += 1
                continue
            used.add(row_id)
            value = rows[row_id]
            if value is _NULL:
                self.counts["bubble row with a NULL value"] += 1
            elif isinstance(value, dict):
                # Some bubbles leave their type to the header that lists them.
                if "type" not in value and "type" in header:
                    value = {**value, "type": header["type"]}
                entries.append((row_id, value))
            elif value is not None:
                self.counts["bubble row that is not a JSON object"] += 1
        return entries

    def _composer_acc(self, cid: str, data: dict[str, Any]) -> _Acc:
        acc = self._acc(cid)
        acc.title = acc.title or nonempty_str(data.get("name"))
        acc.started_at = acc.started_at or iso_utc(data.get("createdAt"))
        acc.ended_at = iso_utc(data.get("lastUpdatedAt")) or acc.ended_at
        model_config = data.get("modelConfig")
        if isinstance(model_config, dict):
            acc.add_model(model_config.get("modelName"))
        identifier = data.get("workspaceIdentifier")
        uri = identifier.get("uri") if isinstance(identifier, dict) else None
        acc.cwd = acc.cwd or nonempty_str(data.get("workspaceProjectDir")) or _uri_to_path(uri)
        return acc

    def _composer_folder(self, cid: str) -> str | None:
        """A workspace DB's own folder; for the global DB, the folder of the workspace listing it."""
        if self.path.parent.name != "globalStorage":
            return _workspace_folder(self.path.parent)
        if self._folder_of_composer is None:
            self._folder_of_composer = _workspace_composer_folders(self.path)
        return self._folder_of_composer.get(cid)

    # -- era 2: composers inline in the workspace DB --

    def _inline_composers(self, conn: sqlite3.Connection) -> None:
        data = self._item(conn, COMPOSER_LIST_KEY)
        composers = data.get("allComposers") if isinstance(data, dict) else data
        if not isinstance(composers, list):
            return
        for composer in composers:
            if not isinstance(composer, dict) or not nonempty_str(composer.get("composerId")):
                continue
            conversation = composer.get("conversation")
            if not isinstance(conversation, list) or not conversation:
                continue  # era 3: only a pointer to the global DB, which holds the messages
            cid = composer["composerId"]
            acc = self._composer_acc(cid, composer)
            acc.cwd = acc.cwd or _workspace_folder(self.path.parent)
            self.found += 1
            for bubble_id, bubble in _inline_entries(conversation):
                self._safe_bubble(acc, f"{cid}:{bubble_id}", bubble)

    # -- era 1: chat tabs --

    def _legacy_tabs(self, conn: sqlite3.Connection) -> None:
        data = self._item(conn, CHATDATA_KEY)
        tabs = data.get("tabs") if isinstance(data, dict) else None
        if not isinstance(tabs, list):
            return
        folder = _workspace_folder(self.path.parent)
        for tab in tabs:
            bubbles = tab.get("bubbles") if isinstance(tab, dict) else None
            tab_id = nonempty_str(tab.get("tabId")) if isinstance(tab, dict) else None
            if not isinstance(bubbles, list) or not bubbles or tab_id is None:
                continue
            if not any(
                isinstance(b, dict) and (nonempty_str(b.get("text")) or nonempty_str(b.get("rawText"))) for b in bubbles
            ):
                continue  # a fresh tab holding only the empty input box
            acc = self._acc(tab_id)
            acc.title = acc.title or nonempty_str(tab.get("chatTitle"))
            acc.ended_at = iso_utc(tab.get("lastSendTime")) or acc.ended_at
            acc.cwd = acc.cwd or folder
            self.found += 1
            for index, bubble in enumerate(bubbles):
                if isinstance(bubble, dict):
                    self._safe_bubble(acc, f"{tab_id}:{nonempty_str(bubble.get('id')) or index}", bubble)
                else:
                    self.counts["bubble that is not a JSON object"] += 1

    # -- one bubble → messages --

    def _safe_bubble(self, acc: _Acc, key: str, bubble: dict[str, Any]) -> None:
        try:
            self._bubble(acc, key, bubble)
        except Exception as exc:  # one odd bubble must never lose the rest of the DB
            self.counts[f"bubble that could not be read ({type(exc).__name__}: {exc})"[:200]] += 1

    def _bubble(self, acc: _Acc, key: str, bubble: dict[str, Any]) -> None:
        btype = bubble.get("type")
        role = BUBBLE_ROLES.get(btype) if isinstance(btype, (int, str)) and not isinstance(btype, bool) else None
        if role is None:
            self.unknown_bubbles[repr(btype)[:60]] += 1
            return
        ts = iso_utc(bubble.get("createdAt"))
        acc.cwd = acc.cwd or nonempty_str(bubble.get("workspaceProjectDir")) or _first_uri(bubble.get("workspaceUris"))
        text: str = bubble["text"] if isinstance(bubble.get("text"), str) else ""
        if not text.strip():
            text = nonempty_str(bubble.get("rawText")) or _lexical_text(bubble.get("richText"))
        if role == "user":
            if not text.strip() and bubble.get("images"):
                text = "[image]"  # never the image payload
            # An empty user bubble is the unsent input box, not a message.
            for message in _user_messages(text, key, ts, _selected_files(bubble)):
                self._add(acc, message)
            return
        model_info = bubble.get("modelInfo")
        acc.add_model(model_info.get("modelName") if isinstance(model_info, dict) else bubble.get("modelType"))
        reply = text.replace(REDACTED, "").strip()
        if reply:
            self._add(acc, Message("assistant", reply, "response", key, ts))
        tool = bubble.get("toolFormerData")
        if isinstance(tool, dict) and (tool.get("name") or tool.get("tool") is not None):
            self._tool(acc, key, tool, ts)

    def _tool(self, acc: _Acc, key: str, tool: dict[str, Any], ts: str | None) -> None:
        name = nonempty_str(tool.get("name")) or f"tool-{tool.get('tool')}"
        # rawArgs is what the model sent; params is Cursor's normalised copy, sometimes just "{}".
        args = maybe_json(tool.get("rawArgs"))
        if not (isinstance(args, dict) and args):
            params = maybe_json(tool.get("params"))
            if params is not None and params != "":
                args = params
        self._add(acc, _tool_call(name, args if args is not None else {}, key + ":tool", ts))
        result = tool.get("result")
        status = tool.get("status")
        failed = isinstance(status, str) and status.lower() in TOOL_ERROR_STATUSES
        if result in (None, "") and not failed:
            return  # not run yet, or cancelled before it produced anything
        text = _result_text(result) if result not in (None, "") else f"tool {status}"
        self._add(
            acc,
            Message(
                "tool",
                ("[error] " if failed else "") + text,
                "tool_result",
                key + ":result",
                ts,
                tool_name=name,
            ),
        )

    # -- shared --

    def _acc(self, native_id: str) -> _Acc:
        if native_id not in self.accs:
            self.accs[native_id] = _Acc(native_id)
        return self.accs[native_id]

    def _add(self, acc: _Acc, message: Message) -> None:
        if first_sight(self.keys, message):
            acc.messages.append(message)

    def _session(self, acc: _Acc) -> Session:
        stamps = [m.timestamp for m in acc.messages if m.timestamp]
        started = min(filter(None, [acc.started_at, *stamps]), default=None)
        ended = max(filter(None, [acc.ended_at, *stamps]), default=None)
        return Session(
            agent=AGENT,
            native_id=acc.native_id,
            messages=tuple(acc.messages),
            cwd=acc.cwd,
            title=acc.title,
            started_at=started,
            ended_at=ended,
            models=tuple(acc.models),
            source_paths=(self.p,),
            parent_native_id=acc.parent,
        )

    def _warnings(self) -> list[Problem]:
        out = [Problem(self.p, f"skipped {plural(n, what)}") for what, n in self.counts.items()]
        out += [
            Problem(self.p, f"skipped {plural(n, 'bubble')} of unknown type {label}")
            for label, n in self.unknown_bubbles.items()
        ]
        return out


class _Null:
    """A row whose value column is NULL (distinct from a row that is missing)."""


_NULL = _Null()


def _inline_entries(conversation: list[Any]) -> list[tuple[str, Any]]:
    return [
        (nonempty_str(b.get("bubbleId")) or str(index), b)
        for index, b in enumerate(conversation)
        if isinstance(b, dict)
    ]


def _first_uri(uris: Any) -> str | None:
    return _uri_to_path(uris[0]) if isinstance(uris, list) and uris else None


def _selected_files(bubble: dict[str, Any]) -> tuple[str, ...]:
    """Files the person attached to a legacy chat prompt."""
    selections = bubble.get("fileSelections")
    if not isinstance(selections, list):
        return ()
    paths = [_uri_to_path(s.get("uri")) for s in selections if isinstance(s, dict)]
    return tuple(dict.fromkeys(p for p in paths if p))


def _workspace_folder(storage_dir: Path) -> str | None:
    """The folder a workspaceStorage/<hash>/ belongs to, from its workspace.json."""
    data = read_json_or_none(storage_dir / "workspace.json")
    return _uri_to_path(data.get("folder")) if isinstance(data, dict) else None


def _workspace_composer_folders(global_db: Path) -> dict[str, str]:
    """composerId → workspace folder, from the composer lists of the sibling workspace DBs.

    Era-3 composers keep their messages in the global DB and often no folder of their own; the
    workspace that created one lists its id under `composer.composerData`.
    """
    out: dict[str, str] = {}
    storage = global_db.parent.parent / "workspaceStorage"
    if not storage.is_dir():
        return out
    for db in sorted(storage.glob("*/state.vscdb")):
        folder = _workspace_folder(db.parent)
        if folder is None:
            continue
        try:
            with closing(connect_read_only(db)) as conn:
                row = conn.execute("select value from ItemTable where key = ?", (COMPOSER_LIST_KEY,)).fetchone()
            data = _json_value(row[0]) if row and row[0] is not None else None
        except (sqlite3.Error, ValueError, UnicodeDecodeError):
            continue  # that workspace's link is lost; its composers keep cwd None
        composers = data.get("allComposers") if isinstance(data, dict) else None
        for composer in composers if isinstance(composers, list) else []:
            if isinstance(composer, dict) and nonempty_str(composer.get("composerId")):
                out.setdefault(composer["composerId"], folder)
    return out


# --- agent transcripts ---------------------------------------------------------------------------


@dataclass
class _TranscriptState:
    """Carried across resumes: calls waiting for their result, and models seen so far."""

    pending: list[list[str | None]] = field(default_factory=list)  # [tool id or None, name], oldest first
    models: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, resume: Any) -> _TranscriptState:
        state = cls()
        if not isinstance(resume, dict):
            return state
        pending = resume.get("pending")
        if isinstance(pending, list):
            state.pending = [
                [p[0] if isinstance(p[0], str) else None, p[1]]
                for p in pending
                if isinstance(p, list) and len(p) == 2 and isinstance(p[1], str)
            ]
        models = resume.get("models")
        if isinstance(models, list):
            state.models = [m for m in models if nonempty_str(m)]
        return state

    def to_json(self) -> dict[str, Any]:
        return {"pending": self.pending[-MAX_PENDING_TOOLS:], "models": self.models}


def _parse_transcript(path: Path, resume: Any) -> ParseResult:
    read = read_jsonl(path, resume)
    resuming = isinstance(resume, dict) and isinstance(resume.get("offset"), int) and not read.restarted
    state = _TranscriptState.load(resume) if resuming else _TranscriptState()
    parser = _TranscriptParser(path, state)
    for line_no, record in read.records:
        parser.feed(line_no, record)
    errors = list(read.errors)
    sessions: list[Session] = []
    if parser.messages:
        sessions.append(parser.session())
    elif not resuming and parser.conversational:
        errors.append(
            Problem(
                str(path),
                no_messages_error(f"1 session ({parser.conversational} records)"),
            )
        )
    return ParseResult(
        sessions=sessions,
        resume=read.resume_point(**state.to_json()),
        warnings=[*read.warnings, *parser.warnings()],
        errors=errors,
    )


class _TranscriptParser:
    """One transcript = one session named after the file; keys are `<id>:<line>[:<block>]`."""

    def __init__(self, path: Path, state: _TranscriptState) -> None:
        self.path = path
        self.p = str(path)
        self.sid = path.stem
        self.state = state
        self.messages: list[Message] = []
        self.conversational = 0
        self.problems: list[Problem] = []
        self.unknown_records: Counter[str] = Counter()
        self.unknown_blocks: Counter[str] = Counter()

    def feed(self, line_no: int, record: dict[str, Any]) -> None:
        try:
            self._feed(line_no, record)
        except Exception as exc:  # one odd record must never stop the file
            self.problems.append(
                Problem(self.p, f"record could not be read ({type(exc).__name__}: {exc}); skipped", line_no)
            )

    def _feed(self, line_no: int, record: dict[str, Any]) -> None:
        role = record.get("role")
        if role not in ("user", "assistant"):
            label = record.get("type") if "type" in record else role
            if label not in KNOWN_TRANSCRIPT_TYPES:
                self.unknown_records[repr(label)[:60]] += 1
            return
        self.conversational += 1
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            self.problems.append(Problem(self.p, f"{role} line has no message content; skipped", line_no))
            return
        model = nonempty_str(record.get("model")) or (
            nonempty_str(message.get("model")) if isinstance(message, dict) else None
        )
        if model and model not in self.state.models:
            self.state.models.append(model)
        key = f"{self.sid}:{line_no}"
        if role == "user":
            self._user(key, content)
        else:
            self._assistant(key, content)

    def _user(self, key: str, content: list[Any]) -> None:
        texts: list[str] = []
        for index, block in enumerate(content):
            btype = block.get("type") if isinstance(block, dict) else None
            if btype == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"])
            elif btype in ("image", "image_url"):
                texts.append("[image]")
            elif btype in TRANSCRIPT_TOOL_RESULT:
                self._result(f"{key}:{index}", block)
            else:
                self.unknown_blocks[repr(btype)[:60]] += 1
        self.messages += _user_messages("\n\n".join(texts), key, None)

    def _assistant(self, key: str, content: list[Any]) -> None:
        texts: list[str] = []
        calls: list[Message] = []
        for index, block in enumerate(content):
            btype = block.get("type") if isinstance(block, dict) else None
            if btype == "text" and isinstance(block.get("text"), str):
                texts.append(block["text"].replace(REDACTED, "").strip())
            elif btype in TRANSCRIPT_TOOL_USE:
                name = nonempty_str(block.get("name")) or "tool"
                self.state.pending.append([nonempty_str(block.get("id")), name])
                calls.append(_tool_call(name, block.get("input"), f"{key}:{index}", None))
            elif btype not in KNOWN_TRANSCRIPT_BLOCKS:
                self.unknown_blocks[repr(btype)[:60]] += 1
        reply = "\n\n".join(t for t in texts if t)
        if reply:
            self.messages.append(Message("assistant", reply, "response", key, None))
        self.messages += calls

    def _result(self, key: str, block: dict[str, Any]) -> None:
        """Tool calls carry no ids: a result answers the call with its id, else the oldest open one."""
        tool_id = nonempty_str(block.get("tool_use_id"))
        pending = self.state.pending
        index = next((i for i, (pid, _) in enumerate(pending) if tool_id and pid == tool_id), 0 if pending else None)
        name = pending.pop(index)[1] if index is not None else None
        name = nonempty_str(block.get("name")) or name
        text = _result_text(block.get("content"))
        if block.get("is_error") is True:
            text = "[error] " + text
        self.messages.append(Message("tool", text, "tool_result", key, None, tool_name=name))

    def session(self) -> Session:
        meta = _chat_meta(self.path, self.sid)
        started = iso_utc(meta.get("createdAtMs"))
        ended = iso_utc(meta.get("updatedAtMs"))
        if ended is None:
            # The transcript holds no times; its mtime is when the agent last wrote to it.
            try:
                ended = iso_utc(self.path.stat().st_mtime)
            except OSError:
                ended = None
        return Session(
            agent=AGENT,
            native_id=self.sid,
            messages=tuple(self.messages),
            cwd=nonempty_str(meta.get("cwd")),
            started_at=started,
            ended_at=ended,
            models=tuple(self.state.models),
            source_paths=(self.p,),
        )

    def warnings(self) -> list[Problem]:
        out = list(self.problems)
        out += [
            Problem(self.p, f"skipped {plural(n, 'record')} of unknown type {t}")
            for t, n in self.unknown_records.items()
        ]
        for label, n in self.unknown_blocks.items():
            out.append(Problem(self.p, f"skipped {plural(n, 'content block')} of unknown type {label}"))
        return out


def _chat_meta(transcript: Path, session_id: str) -> dict[str, Any]:
    """`~/.cursor/chats/<md5(cwd)>/<id>/meta.json` for this transcript, when Cursor wrote one.

    The transcript sits in `~/.cursor/projects/<slug>/agent-transcripts/`; the slug must not be
    decoded into a path, but the chat store's sidecar names the cwd outright.
    """
    folder = next((a for a in transcript.parents if a.name == "agent-transcripts"), None)
    if folder is None:
        return {}
    chats = folder.parent.parent.parent / "chats"
    for project in sorted(chats.iterdir()) if chats.is_dir() else []:
        meta_path = project / session_id / "meta.json"
        meta = read_json_or_none(meta_path) if meta_path.is_file() else None
        if isinstance(meta, dict):
            return meta
    return {}
