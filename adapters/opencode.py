"""OpenCode adapter: the `opencode.db` SQLite store and the older `storage/` JSON tree in, Sessions out.

Format notes live in docs/session-formats.md §8. Both stores hold the same three things:

- a session (`id`, `directory` = the cwd, `title`, `parentID` for a sub-agent's session, times);
- its messages (`role`, `time.created`, the model, `summary: true` on a compaction summary);
- each message's parts: `text` (the visible text; `synthetic` ones were added by OpenCode),
  `tool` (one call with its `state.input`/`state.output`), `file`, `reasoning`, `step-*`, ….

v1.2 moved the tree into `opencode.db` (tables `session`, `message`, `part`; the `data` JSON of a
row does not repeat its ids). Old trees may remain after the migration: both copies of a session
carry the same session, message and part ids, so they yield the same native id and keys and the
store keeps one copy.

Before the TypeScript rewrite, OpenCode was a Go program that kept one SQLite database per
project, `<project>/.opencode/opencode.db`: tables `sessions` (id, parent_session_id, title,
created_at/updated_at in epoch seconds or ms) and `messages` (id, session_id, role, `parts`: a JSON
array of `{type, data}` with text, reasoning, tool_call, tool_result, finish, image_url and binary
parts; tool results sit in `tool` messages). The project folder is the cwd. Ingest finds these
databases at the root of every known project (`project_files`) and under a `--path` folder.

The tree spreads one session over many files (`storage/session/<projectID>/<id>.json`,
`storage/message/<id>/*.json`, `storage/part/<messageID>/*.json`). The session file is the
source that discover() yields and ingest watches (one source per session, so ingest's size/mtime
check stays one stat); parse() gathers the rest from the sibling folders. OpenCode rewrites the
session file when a prompt starts (`time.updated`) and when it updates the diff summary, so new
turns change it; a part written after the last rewrite is read at the next one. Trees are
frozen once 1.2 migrates them into the DB, so this matters only for pre-1.2 installs in use.
"""

from __future__ import annotations

import json
import os
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
    as_dict,
    classify_user_text,
    connect_read_only,
    existing_dirs,
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
    table_names,
    tool_call_text,
    without_inline_images,
)
from smriti.adapters._jsonl import MAX_WHOLE_SOURCE_BYTES, open_regular, oserror_text, read_regular
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "opencode"

INJECTED_PREFIXES = ("<system-reminder>", "<environment_details>", "<user_instructions>")
SUMMARY_KEYS = ("command", "file_path", "filePath", "path", "pattern", "url", "query", "description")
FILE_KEYS = ("file_path", "filePath", "path", "notebook_path")
# Parts that carry no text worth storing: reasoning is not stored, the rest is bookkeeping.
KNOWN_PARTS = frozenset(
    {"reasoning", "step-start", "step-finish", "snapshot", "patch", "agent", "subtask", "retry", "compaction"}
)
FINISHED_TOOL = frozenset({"completed", "success", "error"})
TREE_HINT = "ingest storage/session/<project>/<session>.json or the storage folder"


# The Go-era database, relative to its project folder.
GO_DB = Path(".opencode") / "opencode.db"
GO_TABLES = frozenset({"sessions", "messages"})
# Go-era parts that carry nothing to store: reasoning is not stored, `finish` is bookkeeping.
GO_SKIPPED_PARTS = frozenset({"reasoning", "finish"})


class OpenCodeAdapter:
    name = AGENT
    # The Go-era OpenCode kept its database in each project: ingest looks for it in known projects.
    project_files = (str(GO_DB),)

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        home = home_dir()
        candidates: list[Path] = []
        if os.environ.get("OPENCODE_DATA_DIR"):
            candidates.append(Path(os.environ["OPENCODE_DATA_DIR"]))
        if os.environ.get("XDG_DATA_HOME"):
            candidates.append(Path(os.environ["XDG_DATA_HOME"]) / "opencode")
        # Linux, macOS and Windows alike: OpenCode uses ~/.local/share/opencode everywhere.
        candidates.append(home / ".local" / "share" / "opencode")
        return candidates

    def discover(self, root: Path) -> Iterator[Path]:
        """The databases, then one session file per session of the JSON tree, each sorted."""
        if root.is_file():
            yield root
            return
        yield from sorted(p for p in root.glob("opencode*.db") if p.is_file())
        if (root / GO_DB).is_file():  # a project folder of the Go-era OpenCode
            yield root / GO_DB
        if root.parent.name == "session":  # storage/session/<projectID>/
            patterns = ["*.json"]
        elif root.name == "session":
            patterns = ["*/*.json"]
        else:
            patterns = ["storage/session/*/*.json", "session/*/*.json"]
        found: set[Path] = set()
        for pattern in patterns:
            found.update(p for p in root.glob(pattern) if p.is_file())
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                if path.name == "storage":
                    messages = (path / "message").is_dir() or (path / "session" / "message").is_dir()
                    return (path / "session").is_dir() and messages
                return (
                    (path / "storage" / "session").is_dir()
                    or any(path.glob("opencode*.db"))
                    or (path / GO_DB).is_file()
                )
            if path.suffix == ".db":
                tables = _tables(path) if is_sqlite(path) else set()
                return {"session", "message", "part"} <= tables or (path.name == GO_DB.name and GO_TABLES <= tables)
            if path.suffix == ".json" and path.parent.parent.name == "session":
                with open_regular(path) as fh:
                    head = fh.read(4096).decode("utf-8", errors="replace")
                return '"id"' in head and '"role"' not in head and ('"directory"' in head or '"projectID"' in head)
        except Exception:  # a sniff must never raise
            return False
        return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(self._parse, path, resume, "could not be read")

    def _parse(self, path: Path, resume: Any) -> ParseResult:
        p = str(path)
        if path.is_dir():
            return ParseResult(errors=[Problem(p, "is a directory: pass opencode.db or a storage/session/… file")])
        try:
            is_db = is_sqlite(path)
        except OSError as exc:
            return ParseResult(errors=[Problem(p, f"cannot read the file: {exc.strerror or exc}")])
        if is_db:
            return _DbReader(path).parse()
        if path.suffix == ".json":
            return _parse_session_file(path)
        return ParseResult(
            errors=[Problem(p, "not an OpenCode source: expected opencode.db or a storage/session/… JSON file")]
        )


# --- small helpers -------------------------------------------------------------------------------


def _tables(path: Path) -> set[str]:
    with closing(connect_read_only(path)) as conn:
        return table_names(conn)


def _iso_time(value: Any) -> str | None:
    """OpenCode's epoch-ms times; the database may hold them as digit strings in TEXT columns."""
    return iso_utc(value, digit_strings=True)


def _time(obj: Any, key: str) -> Any:
    """`obj.time.<key>` when obj is a dict with a `time` object."""
    times = obj.get("time") if isinstance(obj, dict) else None
    return times.get(key) if isinstance(times, dict) else None


def _file_path(part: dict[str, Any]) -> str | None:
    """The local path of a file part: its source path, a file:// URL, or its name."""
    source = part.get("source")
    path = source.get("path") if isinstance(source, dict) else None
    if nonempty_str(path):
        return path
    url = nonempty_str(part.get("url"))
    if url and url.startswith("file://"):
        return unquote(urlparse(url).path) or None
    return nonempty_str(part.get("filename"))


# --- one session's messages and parts → Messages -------------------------------------------------


@dataclass
class _RawMessage:
    id: str
    info: dict[str, Any]
    created: Any  # the row's time_created, or the file's time.created
    # (part id, part, when it was created: the row's time_created or the part's time.start), in order
    parts: list[tuple[str, dict[str, Any], Any]] = field(default_factory=list)


@dataclass
class _Turn:
    """What one message is assembling: its role, time, attachments and pending text parts."""

    role: str
    ts: str | None
    summary: bool
    files: list[str]
    texts: list[tuple[str, str, str | None]] = field(
        default_factory=list
    )  # (key, text, time) of consecutive text parts
    prompted: bool = False


@dataclass
class _Skips:
    """Counts of skipped parts and messages, summed over every session of a source."""

    parts: Counter[str] = field(default_factory=Counter)
    roles: Counter[str] = field(default_factory=Counter)
    broken: Counter[str] = field(default_factory=Counter)

    def warnings(self, path: str) -> list[Problem]:
        out = [Problem(path, f"skipped {plural(n, 'part')} of unknown type {t}") for t, n in self.parts.items()]
        out += [Problem(path, f"skipped {plural(n, 'message')} with unknown role {r}") for r, n in self.roles.items()]
        out += [
            Problem(path, f"skipped {plural(n, 'message')} that could not be read ({e})")
            for e, n in self.broken.items()
        ]
        return out


@dataclass
class _Assembler:
    """Messages of one session, built from its raw messages in order."""

    skips: _Skips
    messages: list[Message] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    cwd: str | None = None

    def add(self, raw: _RawMessage) -> None:
        try:
            self._add(raw)
        except Exception as exc:  # one odd message must never lose the session
            self.skips.broken[f"{type(exc).__name__}: {exc}"[:160]] += 1

    def _add(self, raw: _RawMessage) -> None:
        info = raw.info
        role = info.get("role")
        if role not in ("user", "assistant"):
            self.skips.roles[repr(role)[:60]] += 1
            return
        model = info.get("model")
        self._model(info.get("modelID") or (model.get("modelID") if isinstance(model, dict) else None))
        path = info.get("path")
        self.cwd = self.cwd or (nonempty_str(path.get("cwd")) if isinstance(path, dict) else nonempty_str(path))
        turn = _Turn(
            role=role,
            ts=_iso_time(_time(info, "created")) or _iso_time(raw.created),
            # An assistant message flagged `summary: true` is the compaction summary of what came before.
            summary=role == "assistant" and info.get("summary") is True,
            files=[f for _, part, _ in raw.parts if part.get("type") == "file" for f in [_file_path(part)] if f],
        )
        for index, (part_id, part, created) in enumerate(raw.parts):
            key = part_id or f"{raw.id}:{index}"
            ptype = part.get("type")
            ts = _iso_time(_time(part, "start")) or _iso_time(created) or turn.ts
            if ptype == "text" and isinstance(part.get("text"), str):
                if part.get("synthetic") is True:  # OpenCode's own text (file contents, reminders)
                    self._flush(turn)
                    if part["text"].strip():
                        self.messages.append(Message(role, part["text"], "injected_context", key, ts))
                else:
                    turn.texts.append((key, part["text"], ts))
                continue
            self._flush(turn)
            if ptype == "tool":
                self._tool(key, part, ts)
            elif ptype != "file" and (not isinstance(ptype, str) or ptype not in KNOWN_PARTS):
                self.skips.parts[repr(ptype)[:60]] += 1
        self._flush(turn)
        if role == "user" and turn.files and not turn.prompted:
            # Only attachments: say so rather than drop the turn (never the file's bytes).
            mimes = [str(part.get("mime") or "") for _, part, _ in raw.parts if part.get("type") == "file"]
            text = "[image]" if all(m.startswith("image/") for m in mimes) else "[file: " + ", ".join(turn.files) + "]"
            self.messages.append(Message("user", text, "prompt", raw.id, turn.ts, files=tuple(turn.files)))

    def _flush(self, turn: _Turn) -> None:
        """Consecutive text parts are one streamed text: one message under the first part's key."""
        if not turn.texts:
            return
        key, _, ts = turn.texts[0]
        text = "\n\n".join(t for _, t, _ in turn.texts if t.strip())
        turn.texts.clear()
        if not text.strip():
            return
        if turn.summary:
            self.messages.append(Message("system", text, "summary", key, ts))
            return
        if turn.role == "assistant":
            self.messages.append(Message("assistant", text, "response", key, ts))
            return
        # What the person typed vs. context pasted in (smriti's recall blocks, system reminders).
        prompt, injected = join_parts(classify_user_text(text, INJECTED_PREFIXES))
        if prompt:
            files = () if turn.prompted else tuple(turn.files)  # attachments go on the first prompt
            self.messages.append(Message("user", prompt, "prompt", key, ts, files=files))
            turn.prompted = True
        if injected:
            self.messages.append(Message("user", injected, "injected_context", key + ":ctx" if prompt else key, ts))

    def _tool(self, key: str, part: dict[str, Any], ts: str | None) -> None:
        name = nonempty_str(part.get("tool")) or "tool"
        state = as_dict(part.get("state"))
        tool_input = state.get("input") if "input" in state else {}
        started = _iso_time(_time(state, "start")) or ts
        text = tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS))
        files = input_paths(tool_input, FILE_KEYS)
        self.messages.append(
            Message(
                "assistant",
                text,
                "tool_call",
                key,
                started,
                tool_name=name,
                tool_input=tool_input,
                files=files,
            )
        )
        status = state.get("status")
        if status not in FINISHED_TOOL:
            return  # pending or running: no output yet
        output = state.get("error") if status == "error" else state.get("output")
        text = (
            output or ""
            if isinstance(output, str) or output is None
            else json.dumps(output, ensure_ascii=False, default=str)
        )
        exit_code = as_dict(state.get("metadata")).get("exit")
        # A shell command that exited non-zero failed, even though the tool call itself completed.
        failed = status == "error" or (
            isinstance(exit_code, int) and not isinstance(exit_code, bool) and exit_code != 0
        )
        ended = _iso_time(_time(state, "end")) or started
        output_text = ("[error] " if failed else "") + without_inline_images(text)[:OUTPUT_MAX]
        self.messages.append(Message("tool", output_text, "tool_result", f"{key}:result", ended, tool_name=name))

    def _model(self, model: Any) -> None:
        if nonempty_str(model) and model not in self.models:
            self.models.append(model)


def _session(
    info: dict[str, Any], session_id: str, asm: _Assembler, source: str, created: Any = None, updated: Any = None
) -> Session:
    stamps = [m.timestamp for m in asm.messages if m.timestamp]
    started = min(filter(None, [_iso_time(_time(info, "created")) or _iso_time(created), *stamps]), default=None)
    ended = max(filter(None, [_iso_time(_time(info, "updated")) or _iso_time(updated), *stamps]), default=None)
    parent = info.get("parentID") if "parentID" in info else info.get("parent_id")
    return Session(
        agent=AGENT,
        native_id=session_id,
        messages=tuple(asm.messages),
        cwd=nonempty_str(info.get("directory")) or asm.cwd,
        title=nonempty_str(info.get("title")),
        started_at=started,
        ended_at=ended,
        models=tuple(asm.models),
        source_paths=(source,),
        parent_native_id=nonempty_str(parent),
    )


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _sort_key(raw: _RawMessage) -> tuple[float, str]:
    """Creation time, then id: real ids sort by time, but the times decide when both exist."""
    return (_number(_time(raw.info, "created")) or _number(raw.created), raw.id)


# --- opencode.db ---------------------------------------------------------------------------------


class _DbReader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.p = str(path)
        self.errors: list[Problem] = []
        self.bad_rows: Counter[str] = Counter()
        self.skips = _Skips()

    def parse(self) -> ParseResult:
        try:
            conn = connect_read_only(self.path)
        except sqlite3.Error as exc:
            return ParseResult(errors=[Problem(self.p, f"cannot open the database read-only: {exc}")])
        sessions: list[Session] = []
        found = 0
        try:
            with closing(conn):
                conn.row_factory = sqlite3.Row
                tables = table_names(conn)
                if "message" not in tables and GO_TABLES <= tables:
                    return _GoDbReader(self.path, conn).parse()
                if "message" not in tables:
                    return ParseResult(errors=[Problem(self.p, "not an OpenCode database: it has no message table")])
                for session_id, info in self._sessions(conn, tables):
                    raws = self._messages(conn, session_id, "part" in tables)
                    if not raws:
                        continue  # a session opened but never used
                    found += 1
                    asm = _Assembler(self.skips)
                    for raw in raws:
                        asm.add(raw)
                    if asm.messages:
                        created, updated = info.get("time_created"), info.get("time_updated")
                        sessions.append(_session(info, session_id, asm, self.p, created, updated))
        except sqlite3.Error as exc:
            # Locked mid-read or a damaged page: keep what was read, report the rest.
            self.errors.append(Problem(self.p, f"database read failed: {exc}"))
        if found and not sessions:
            self.errors.append(Problem(self.p, no_messages_error(plural(found, "session"))))
        warnings = self.skips.warnings(self.p)
        for what, n in self.bad_rows.items():
            warnings.append(Problem(self.p, f"skipped {plural(n, what)} whose data is not a JSON object"))
        return ParseResult(sessions=sessions, resume=None, warnings=warnings, errors=self.errors)

    def _sessions(self, conn: sqlite3.Connection, tables: set[str]) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every session row, plus any session id that only the message table names."""
        rows: dict[str, dict[str, Any]] = {}
        if "session" in tables:
            for row in conn.execute("select * from session"):
                info = dict(row)
                if nonempty_str(info.get("id")):
                    rows[info["id"]] = info
        for (sid,) in conn.execute("select distinct session_id from message"):
            if nonempty_str(sid) and sid not in rows:
                rows[sid] = {"id": sid}
        order = sorted(rows.values(), key=lambda i: (_number(i.get("time_created")), i["id"]))
        for info in order:
            yield info["id"], info

    def _messages(self, conn: sqlite3.Connection, session_id: str, has_parts: bool) -> list[_RawMessage]:
        raws: dict[str, _RawMessage] = {}
        for row in conn.execute(
            "select id, time_created, data from message where session_id = ? order by time_created, id", (session_id,)
        ):
            info = self._data(row["data"], "message row")
            if info is not None:
                raws[row["id"]] = _RawMessage(row["id"], info, row["time_created"])
        if has_parts:
            for row in conn.execute(
                "select id, message_id, time_created, data from part where session_id = ? order by time_created, id",
                (session_id,),
            ):
                part = self._data(row["data"], "part row")
                owner = raws.get(row["message_id"])
                if part is not None and owner is not None:
                    owner.parts.append((row["id"], part, row["time_created"]))
        return sorted(raws.values(), key=_sort_key)

    def _data(self, raw: Any, what: str) -> dict[str, Any] | None:
        try:
            data = json.loads(bytes(raw).decode("utf-8") if isinstance(raw, (bytes, memoryview)) else raw)
        except (TypeError, ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            self.bad_rows[what] += 1
            return None
        return data


# --- the Go-era <project>/.opencode/opencode.db ---------------------------------------------------


class _GoDbReader:
    """Sessions of a Go-era database: `sessions` rows, and `messages` rows whose `parts` column is a
    JSON array of `{type, data}` parts."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.p = str(path)
        self.conn = conn
        self.unknown: Counter[str] = Counter()
        self.bad_rows = 0
        # The database sits in <project>/.opencode/: the project folder is where the work happened.
        self.cwd = str(path.absolute().parent.parent) if path.parent.name == GO_DB.parent.name else None

    def parse(self) -> ParseResult:
        sessions: list[Session] = []
        errors: list[Problem] = []
        found = 0
        try:
            rows = {r["id"]: dict(r) for r in self.conn.execute("select * from sessions") if nonempty_str(r["id"])}
            for (sid,) in self.conn.execute("select distinct session_id from messages"):
                if nonempty_str(sid) and sid not in rows:
                    rows[sid] = {"id": sid}
            for info in sorted(rows.values(), key=lambda i: (_number(i.get("created_at")), i["id"])):
                messages, models = self._messages(info["id"])
                found += bool(messages is not None)
                if messages:
                    sessions.append(self._session(info, messages, models))
        except sqlite3.Error as exc:
            errors.append(Problem(self.p, f"database read failed: {exc}"))
        if found and not sessions:
            errors.append(Problem(self.p, no_messages_error(plural(found, "session"))))
        warnings = [
            Problem(self.p, f"skipped {plural(n, 'part')} of unknown type {t}") for t, n in self.unknown.items()
        ]
        if self.bad_rows:
            warnings.append(Problem(self.p, f"skipped {plural(self.bad_rows, 'message row')} whose parts are not JSON"))
        return ParseResult(sessions=sessions, resume=None, warnings=warnings, errors=errors)

    def _messages(self, session_id: str) -> tuple[list[Message] | None, list[str]]:
        """The session's messages (None when it has no rows) and its models, in order."""
        out: list[Message] = []
        models: list[str] = []
        names: dict[str, str] = {}  # tool call id → tool name, for results that do not repeat it
        rows = list(
            self.conn.execute(
                "select id, role, parts, model, created_at from messages where session_id = ? order by created_at, id",
                (session_id,),
            )
        )
        for row in rows:
            try:
                parts = json.loads(row["parts"]) if isinstance(row["parts"], (str, bytes)) else None
            except ValueError:
                parts = None
            if not isinstance(parts, list):
                self.bad_rows += 1
                continue
            model = nonempty_str(row["model"])
            if model and model not in models:
                models.append(model)
            out += self._parts(row["id"], row["role"], parts, _iso_time(row["created_at"]), names)
        return (out if rows else None), models

    def _parts(
        self, message_id: str, role: Any, parts: list[Any], ts: str | None, names: dict[str, str]
    ) -> list[Message]:
        out: list[Message] = []
        texts: list[str] = []
        for index, wrapper in enumerate(parts):
            ptype = as_dict(wrapper).get("type")
            data = as_dict(as_dict(wrapper).get("data"))
            key = f"{message_id}:{index}"
            if ptype == "text" and isinstance(data.get("text"), str):
                texts.append(data["text"])
            elif ptype in ("image_url", "binary"):
                texts.append("[image]" if ptype == "image_url" else "[file]")  # never the bytes
            elif ptype == "tool_call":
                name = nonempty_str(data.get("name")) or "tool"
                call_id = nonempty_str(data.get("id"))
                names.update({call_id: name} if call_id else {})
                tool_input = maybe_json(data.get("input"))
                tool_input = tool_input if isinstance(tool_input, dict) else {"input": tool_input}
                text = tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS))
                out.append(
                    Message(
                        "assistant",
                        text,
                        "tool_call",
                        f"{message_id}:{call_id or index}",
                        ts,
                        tool_name=name,
                        tool_input=tool_input,
                        files=input_paths(tool_input, FILE_KEYS),
                    )
                )
            elif ptype == "tool_result":
                call_id = nonempty_str(data.get("tool_call_id"))
                name = nonempty_str(data.get("name")) or (names.get(call_id) if call_id else None)
                content = data.get("content")
                text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False, default=str)
                text = ("[error] " if data.get("is_error") is True else "") + without_inline_images(text)[:OUTPUT_MAX]
                out.append(
                    Message("tool", text, "tool_result", f"result:{call_id}" if call_id else key, ts, tool_name=name)
                )
            elif not isinstance(ptype, str) or ptype not in GO_SKIPPED_PARTS:
                self.unknown[repr(ptype)[:60]] += 1
        text = "\n\n".join(t for t in texts if t.strip())
        if not text.strip():
            return out
        if role == "assistant":
            return [Message("assistant", text, "response", message_id, ts), *out]
        if role == "user":
            prompt, injected = join_parts(classify_user_text(text, INJECTED_PREFIXES))
            head = [Message("user", prompt, "prompt", message_id, ts)] if prompt else []
            if injected:
                head.append(
                    Message("user", injected, "injected_context", f"{message_id}:ctx" if prompt else message_id, ts)
                )
            return [*head, *out]
        return out  # a system row: OpenCode's own text, not conversation

    def _session(self, info: dict[str, Any], messages: list[Message], models: list[str]) -> Session:
        stamps = [m.timestamp for m in messages if m.timestamp]
        started = min(filter(None, [_iso_time(info.get("created_at")), *stamps]), default=None)
        ended = max(filter(None, [_iso_time(info.get("updated_at")), *stamps]), default=None)
        return Session(
            agent=AGENT,
            native_id=info["id"],
            messages=tuple(messages),
            cwd=self.cwd,
            title=nonempty_str(info.get("title")),
            started_at=started,
            ended_at=ended,
            models=tuple(models),
            source_paths=(self.p,),
            parent_native_id=nonempty_str(info.get("parent_session_id")),
            extra={"format": "opencode-go"},
        )


# --- the storage/ JSON tree ----------------------------------------------------------------------


def _read_json(path: Path, errors: list[Problem]) -> Any:
    try:
        return json.loads(read_regular(path, MAX_WHOLE_SOURCE_BYTES))
    except OSError as exc:
        errors.append(Problem(str(path), oserror_text(exc)))
    except ValueError as exc:
        errors.append(Problem(str(path), f"malformed JSON ({exc}); skipped"))
    return None


def _parse_session_file(path: Path) -> ParseResult:
    p = str(path)
    errors: list[Problem] = []
    info = _read_json(path, errors)
    if info is None:
        return ParseResult(errors=errors)
    problem = _not_a_session(info)
    if problem:
        return ParseResult(errors=[Problem(p, problem)])
    session_id = nonempty_str(info.get("id")) or path.stem
    storage = path.parent.parent.parent  # storage/session/<projectID>/<id>.json
    raws = _tree_messages(storage, session_id, errors)
    skips = _Skips()
    asm = _Assembler(skips)
    for raw in raws:
        asm.add(raw)
    sessions = [_session(info, session_id, asm, p)] if asm.messages else []
    if raws and not asm.messages:
        found = plural(len(raws), "message")
        errors.append(Problem(p, no_messages_error(f"1 session ({found})")))
    return ParseResult(sessions=sessions, resume=None, warnings=skips.warnings(p), errors=errors)


def _not_a_session(info: Any) -> str | None:
    if not isinstance(info, dict):
        return "not an OpenCode session file: the JSON is not an object"
    if "role" in info:
        return f"an OpenCode message file, not a session: {TREE_HINT}"
    if "messageID" in info or ("type" in info and "id" in info and "directory" not in info):
        return f"an OpenCode part file, not a session: {TREE_HINT}"
    if not any(k in info for k in ("directory", "projectID", "title", "version")):
        return "not an OpenCode session file: no directory, projectID or title"
    return None


def _tree_messages(storage: Path, session_id: str, errors: list[Problem]) -> list[_RawMessage]:
    """A session's message files and their parts. Layouts differ by version: parts in
    part/<messageID>/, in session/part/<sessionID>/<messageID>/ (oldest), or flat in part/ with
    the messageID inside; ids come from the JSON, else from the file and folder names."""
    raws: dict[str, _RawMessage] = {}
    for folder in (storage / "message" / session_id, storage / "session" / "message" / session_id):
        for file in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            info = _read_json(file, errors)
            if isinstance(info, dict):
                mid = nonempty_str(info.get("id")) or file.stem
                raws.setdefault(mid, _RawMessage(mid, info, _time(info, "created")))
    foldered = False
    for mid, raw in raws.items():
        for folder in (storage / "part" / mid, storage / "session" / "part" / session_id / mid):
            if not folder.is_dir():
                continue
            foldered = True
            for file in sorted(folder.glob("*.json")):
                part = _read_json(file, errors)
                if isinstance(part, dict):
                    raw.parts.append((nonempty_str(part.get("id")) or file.stem, part, None))
    # Flat part files exist only in trees without per-message folders; listing part/ in a big
    # modern tree (one folder per message) for every session would cost far more than reading it.
    flat = storage / "part"
    for file in sorted(flat.glob("*.json")) if raws and not foldered and flat.is_dir() else []:
        part = as_dict(_read_json(file, errors))
        owner = raws.get(part.get("messageID") or "")
        if owner is not None:
            owner.parts.append((nonempty_str(part.get("id")) or file.stem, part, None))
    return sorted(raws.values(), key=_sort_key)
