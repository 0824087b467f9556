"""OpenAI Codex adapter: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl[.zst]` in, Sessions out.

Format notes live in docs/session-formats.md §2. One rollout file is one thread. Three eras:

- wrapped lines `{timestamp, type, payload}` (Sept 2025 →), the current format;
- bare JSONL (Rust CLI before Sept 2025): a `{id, timestamp, instructions}` header line, then raw
  Responses-API items and `{"record_type": "state"}` lines, without timestamps;
- one JSON object `{session, items}` (TypeScript CLI, spring 2025), re-read whole.

Cold rollouts are rewritten as `.jsonl.zst`; they decompress to the same bytes, so their keys equal
the plain file's. Codex keeps two copies of a conversation (`response_item` for the model and
`event_msg` for the UI): prompts are the `event_msg/user_message` events paired with their
`response_item` twin, everything else comes from `response_item`. Sub-agents and forks may start
with a copy of the parent's history; that copy is skipped, never re-emitted as the child's.
The parser never raises: an odd record becomes a warning and everything around it is still read.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti.adapters._common import (
    OUTPUT_MAX,
    PATH_KEYS,
    UUID_RE,
    as_dict,
    compact_json,
    first_sight,
    guarded_parse,
    home_dir,
    input_paths,
    is_injected,
    iso_utc,
    join_parts,
    no_messages_error,
    nonempty_str,
    plural,
    split_smriti_context,
    tool_call_text,
)
from smriti.adapters._jsonl import (
    MAX_WHOLE_SOURCE_BYTES,
    STREAM_ABOVE,
    JsonlRead,
    json_type_name,
    open_regular,
    read_jsonl,
    read_jsonl_bytes,
    read_regular,
)
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "codex"

ROLLOUT_RE = re.compile(r"^rollout-.*\.(jsonl|jsonl\.zst|json)$")
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
MAX_DECOMPRESSED = 1 << 30  # a rollout is at most a few hundred MB; anything bigger is refused

# Wrapped record types that hold no conversation (settings snapshots, inter-agent bookkeeping).
SKIPPED_WRAPPED = frozenset(
    {
        "world_state",
        "inter_agent_communication",
        "inter_agent_communication_metadata",
        "security_risk_score",
        "realtime_item",
        "token_usage_record",
    }
)
# Response items that are not conversation text: reasoning is never stored (its summary is
# reasoning too, and `encrypted_content` cannot be read), snapshots and compaction blobs are opaque.
SKIPPED_ITEMS = frozenset({"reasoning", "ghost_snapshot", "compaction", "compaction_summary", "other"})
# UI events: prompts come from `user_message`, titles from `thread_name_updated`; the rest either
# repeats a response item (agent_message, agent_reasoning, exec_command_end, …) or is bookkeeping.
SKIPPED_EVENTS = frozenset(
    {
        "agent_message",
        "agent_reasoning",
        "agent_reasoning_raw_content",
        "agent_reasoning_section_break",
        "token_count",
        "task_started",
        "turn_started",
        "task_complete",
        "turn_complete",
        "turn_aborted",
        "context_compacted",
        "thread_rolled_back",
        "entered_review_mode",
        "exited_review_mode",
        "patch_apply_begin",
        "patch_apply_end",
        "image_generation_end",
        "item_started",
        "item_completed",
        "exec_command_begin",
        "exec_command_end",
        "mcp_tool_call_begin",
        "mcp_tool_call_end",
        "web_search_begin",
        "web_search_end",
        "view_image_tool_call",
        "guardian_assessment",
        "dynamic_tool_call_request",
        "dynamic_tool_call_response",
        "error",
        "warning",
        "stream_error",
        "thread_settings_applied",
        "thread_goal_updated",
        "sub_agent_activity",
        "undo_started",
        "undo_completed",
        "plan_update",
        "background_event",
        "session_configured",
        "shutdown_complete",
        "turn_diff",
        "get_history_entry_response",
        "mcp_list_tools_response",
        "list_custom_prompts_response",
        "conversation_path",
        "deprecation_notice",
        "user_message_edited",
        "raw_response_item",
    }
)
SKIPPED_EVENT_PREFIXES = ("collab_", "realtime_", "mcp_startup")

# User-role text that Codex (not the person) put into the conversation [codex-rs contextual
# user fragments]. Matched case-insensitively at the start of the text, as Codex does.
INJECTED_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# agents.md instructions for",
    "<instructions>",
    "<skill>",
    "<user_shell_command>",
    "<turn_aborted>",
    "<subagent_notification>",
    "<collaboration_mode>",
    "<realtime_conversation>",
    "<personality_spec>",
    "<tool_context>",
    "<reasoning_context>",
    "<pinned_notes>",
    "<agent_message_board_notification>",
    "<recommended_plugins>",
    "<permissions instructions>",
    "<model_switch>",
    "<apps_instructions>",
    "<system-reminder>",
    "<environment_details>",
    "<user-memory-input>",
)
# The IDE extension wraps a prompt as "# Context from my IDE setup: … ## My request for Codex: …".
IDE_CONTEXT_HEAD = "# Context from my IDE setup:"
IDE_REQUEST_MARK = "## My request for Codex:"
ENV_CWD_RE = re.compile(r"<cwd>([^<\n]+)</cwd>")
PATCH_FILE_RE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$", re.M)

SUMMARY_KEYS = ("command", "cmd", "file_path", "path", "pattern", "url", "query", "description")
MAX_PENDING_TOOLS = 1000


class CodexAdapter:
    name = AGENT
    sqlite_sources = False  # text transcripts: no -wal file to fingerprint

    def default_roots(self) -> list[Path]:
        return [c for c in self.candidate_roots() if c.is_dir()]

    def candidate_roots(self) -> list[Path]:
        return list(dict.fromkeys(home / sub for home in _codex_homes() for sub in ("sessions", "archived_sessions")))

    def discover(self, root: Path) -> Iterator[Path]:
        """Every rollout under root, by path (date folders make that chronological).

        A `.jsonl.zst` whose plain `.jsonl` twin exists is skipped, as Codex itself does: both hold
        the same thread, and the plain file is the one still growing.
        """
        if root.is_file():
            yield root
            return
        if not root.is_dir():
            return
        found: list[Path] = []
        for path in root.rglob("rollout-*"):
            name = path.name
            if not ROLLOUT_RE.match(name) or not path.is_file():
                continue
            if name.endswith(".jsonl.zst") and path.with_name(name[: -len(".zst")]).exists():
                continue
            found.append(path)
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                # A Codex home or its sessions folder; or any folder holding rollouts in Codex's
                # date folders (a copied `sessions/` renamed, a backup), told by a rollout's content.
                return _is_codex_dir(path) or any(_sniff_rollout(f) for f in _first_rollouts(path))
            if path.name.startswith("rollout-") and ROLLOUT_RE.match(path.name):
                return True
            return _sniff_rollout(path)
        except Exception:  # a sniff must never raise
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        return guarded_parse(_parse, path, resume, "could not read the rollout")


# --- locations -----------------------------------------------------------------------------------


def _codex_homes() -> list[Path]:
    """`$CODEX_HOME` when set (as Codex does), plus the default `~/.codex`."""
    homes: list[Path] = []
    env = os.environ.get("CODEX_HOME", "").strip()
    if env:
        homes.append(home_dir() / env[2:] if env.startswith("~/") else Path(env))
    homes.append(home_dir() / ".codex")
    userprofile = os.environ.get("USERPROFILE")
    if userprofile:
        homes.append(Path(userprofile) / ".codex")
    return list(dict.fromkeys(homes))


def _is_codex_dir(path: Path) -> bool:
    if path.name in ("sessions", "archived_sessions"):
        return (
            path.parent.name == ".codex"
            or (path.parent / "config.toml").exists()
            or any(p.name.startswith("rollout-") for p in _first_entries(path))
        )
    if (path / "sessions").is_dir() or (path / "archived_sessions").is_dir():
        return path.name == ".codex" or any(
            (path / f).exists() for f in ("config.toml", "history.jsonl", "session_index.jsonl")
        )
    return False


def _is_bare_header(line: str) -> bool:
    """The first line of a bare-era rollout: `{id, timestamp, instructions, git?}` and no type."""
    try:
        obj = json.loads(line)
    except ValueError:
        return False
    return (
        isinstance(obj, dict)
        and {"id", "timestamp"} <= obj.keys() <= {"id", "timestamp", "instructions", "git"}
        and ("instructions" in obj or "git" in obj)
    )


def _sniff_rollout(path: Path) -> bool:
    """Whether a file's first bytes read as a rollout of any era."""
    with open_regular(path) as fh:
        head = fh.read(4096)
    if head.startswith(ZSTD_MAGIC):
        return path.name.endswith(".jsonl.zst")
    text = head.decode("utf-8", "replace").lstrip()
    if re.match(r'\{"timestamp":"[^"]*",("ordinal":\d+,)?"type":"session_meta"', text):
        return True
    if text.startswith("{") and '"session"' in text and '"items"' in text and '"instructions"' in text:
        return True
    return _is_bare_header(text.split("\n", 1)[0])


def _first_rollouts(folder: Path, depth: int = 5, limit: int = 3, folders: int = 200) -> list[Path]:
    """Up to `limit` files named as rollouts in `folder` or its subfolders (`depth` levels: a
    `sessions/YYYY/MM/DD/` tree is four), looking at no more than 50 entries of any folder and
    `folders` folders in all (a sessions tree's first day is reached within ~30), so a sniff of a
    big unrelated tree (`smriti ingest --path ~`) stays cheap."""
    found: list[Path] = []
    pending = [(folder, 0)]
    while pending and len(found) < limit and folders > 0:
        here, level = pending.pop(0)
        folders -= 1
        for entry in sorted(_first_entries(here)):
            if entry.is_file() and ROLLOUT_RE.match(entry.name):
                found.append(entry)
            elif level < depth and entry.is_dir() and not entry.is_symlink():
                pending.append((entry, level + 1))
    return found[:limit]


def _first_entries(path: Path, limit: int = 50) -> list[Path]:
    out: list[Path] = []
    for entry in path.iterdir():
        out.append(entry)
        if len(out) >= limit:
            break
    return out


def _codex_home_of(path: Path) -> Path | None:
    for ancestor in path.parents:
        if ancestor.name in ("sessions", "archived_sessions"):
            return ancestor.parent
    return None


# --- small value helpers -------------------------------------------------------------------------


def _thread_from_name(path: Path) -> str:
    """The thread id in `rollout-<local time>-<uuid>.jsonl`, else the file's stem."""
    found = UUID_RE.findall(path.name)
    return found[-1].lower() if found else path.name.split(".", 1)[0]


# --- reading compressed and single-JSON rollouts -------------------------------------------------


def _read_zst(path: Path) -> JsonlRead:
    """A `.jsonl.zst` rollout as JsonlRead records.

    Decompressed here (with a size cap), then split by the shared JSONL rules: a compressed
    rollout is a finished file, so a torn last line is an error.
    """
    out = JsonlRead()
    p = str(path)
    try:
        import zstandard
    except ImportError:
        out.errors.append(Problem(p, "the zstandard package is needed to read .jsonl.zst rollouts"))
        return out
    try:
        with open_regular(path, MAX_WHOLE_SOURCE_BYTES) as fh:
            reader = zstandard.ZstdDecompressor().stream_reader(fh)
            chunks: list[bytes] = []
            size = 0
            while chunk := reader.read(1 << 20):
                size += len(chunk)
                if size > MAX_DECOMPRESSED:
                    out.errors.append(Problem(p, f"decompresses to more than {MAX_DECOMPRESSED >> 20} MB; not read"))
                    return out
                chunks.append(chunk)
    except zstandard.ZstdError as exc:
        out.errors.append(Problem(p, f"cannot decompress the zstd data: {exc}"))
        return out
    except OSError as exc:
        out.errors.append(Problem(p, f"cannot read the file: {exc.strerror or exc}"))
        return out
    return read_jsonl_bytes(b"".join(chunks), p)


def _parse(path: Path, resume: Any) -> ParseResult:
    if path.name.endswith(".zst"):  # compressed cold rollouts are whole-file sources
        return _finish(path, _read_zst(path), _Parser(path, _State()), resuming=False, resume_point=None)
    if path.suffix == ".json":
        return _parse_single_json(path)
    if _unread(path, resume) > STREAM_ABOVE and (streamed := _parse_streamed(path, resume)) is not None:
        return streamed
    read = read_jsonl(path, resume)
    resuming = _resuming(resume, read)
    parser = _Parser(path, _State.load(resume) if resuming else _State())
    return _finish(path, read, parser, resuming=resuming, resume_point=read.resume_point)


def _resuming(resume: Any, read: JsonlRead) -> bool:
    return isinstance(resume, dict) and isinstance(resume.get("offset"), int) and not read.restarted


def _unread(path: Path, resume: Any) -> int:
    """About how many bytes a parse would read (the whole file when the resume point is stale)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return 0
    offset = resume.get("offset") if isinstance(resume, dict) else None
    return size - offset if isinstance(offset, int) and 0 < offset <= size else size


def _parse_streamed(path: Path, resume: Any) -> ParseResult | None:
    """A big rollout in two reads that never hold all of its records (a small one is read once,
    records held, which is faster): the survey reads records until it knows what it needs (often
    within the first lines; all of them if it must), then the parse is fed the records as they are
    read, up to where the survey stopped reading. None when the plain read must do it: the file
    could not be opened, or it was rewritten between the two reads."""
    made: list[_Parser] = []

    def survey(read: JsonlRead) -> Callable[[int, dict[str, Any]], bool]:
        made.append(_Parser(path, _State.load(resume) if _resuming(resume, read) else _State()))
        return lambda _line, record: made[0].survey_record(record)

    first = read_jsonl(path, resume, consumer=survey)
    if not made:
        return None
    parser = made[0]
    seen: list[bool] = []

    def feed(read: JsonlRead) -> Callable[[int, dict[str, Any]], None]:
        seen.append(read.restarted)
        return parser.feed

    read = read_jsonl(path, resume, consumer=feed, stop_at=None if parser.surveyed() else first.offset)
    if seen != [first.restarted]:
        return None
    return _finish(path, read, parser, resuming=_resuming(resume, read), resume_point=read.resume_point, surveyed=True)


def _parse_single_json(path: Path) -> ParseResult:
    """The 2025 TypeScript CLI's `rollout-<date>-<uuid>.json`: `{session, items}`, re-read whole."""
    p = str(path)
    try:
        data = json.loads(read_regular(path, MAX_WHOLE_SOURCE_BYTES).decode("utf-8"))
    except IsADirectoryError:
        return ParseResult(errors=[Problem(p, "is a directory, not a rollout file")])
    except (OSError, UnicodeDecodeError) as exc:
        return ParseResult(errors=[Problem(p, f"cannot read the file: {exc}")])
    except ValueError as exc:
        return ParseResult(errors=[Problem(p, f"malformed JSON: {exc}")])
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        return ParseResult(errors=[Problem(p, "not a Codex rollout: expected an object with an 'items' array")])
    session = as_dict(data.get("session"))
    header = {"id": session.get("id") or _thread_from_name(path), "timestamp": session.get("timestamp")}
    records: list[tuple[int, dict[str, Any]]] = []
    problems: list[Problem] = []
    for index, item in enumerate(data["items"], start=1):
        if isinstance(item, dict):
            records.append((index, item))
        else:
            problems.append(Problem(p, f"item {index} is a JSON {json_type_name(item)}, not an object; skipped"))
    parser = _Parser(path, _State())
    parser.feed_meta(header)
    return _finish(path, JsonlRead(records=records, warnings=problems), parser, resuming=False, resume_point=None)


def _finish(
    path: Path, read: JsonlRead, parser: _Parser, *, resuming: bool, resume_point: Any, surveyed: bool = False
) -> ParseResult:
    if not surveyed:
        parser.survey(read.records)
    for line_no, record in read.records:
        parser.feed(line_no, record)
    sessions = parser.sessions()
    errors = list(read.errors)
    if not resuming and parser.identified and not any(s.messages for s in sessions) and not parser.inherited:
        errors.append(Problem(str(path), no_messages_error("1 session(s)")))
    return ParseResult(
        sessions=sessions,
        resume=resume_point(**parser.state.to_json()) if resume_point is not None else None,
        warnings=[*read.warnings, *parser.warnings()],
        errors=errors,
    )


# --- resume state --------------------------------------------------------------------------------


@dataclass
class _Candidate:
    """A user `response_item` that may be the twin of a `user_message` event."""

    key: str
    text: str  # the prompt part of the text, used to match the event
    line: int
    timestamp: str | None
    emitted: bool = False  # already returned (as injected context) by an earlier parse


@dataclass
class _State:
    """What one parse of a growing rollout hands to the next."""

    thread: str | None = None
    parent: str | None = None
    cwd_meta: str | None = None
    cwd_env: str | None = None
    cwds: list[str] = field(default_factory=list)  # turn_context cwds, in order of first use
    git_branch: str | None = None
    git_remote: str | None = None
    event_title: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    models: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    events_mode: bool = False  # the rollout records prompts as event_msg/user_message
    # The rollout has response items: the model's copy of the conversation, where answers are read
    # from. A log of UI events alone (no response_item at all) has its answers only as
    # event_msg/agent_message.
    items_seen: bool = False
    paginated: bool = False  # lines carry thread-wide ordinals: key by them
    start_ordinal: int | None = None  # sub-agent: own history starts at this ordinal
    copy: dict[str, Any] | None = None  # copied parent history: {"parent_path", "pos", "open"}
    tool_names: dict[str, str] = field(default_factory=dict)
    tail_candidate: _Candidate | None = None
    tail_event: dict[str, Any] | None = None  # {"line", "text", "key"} of an unpaired event
    emitted: bool = False

    def cwd_unknown(self) -> bool:
        return self.cwd_env is None and self.cwd_meta is None and not self.cwds

    def facts(self) -> tuple[Any, ...]:
        return (
            self.thread,
            self.parent,
            self.cwd_meta,
            self.cwd_env,
            tuple(self.cwds),
            self.git_branch,
            self.git_remote,
            self.event_title,
            self.started_at,
            self.ended_at,
            tuple(self.models),
        )

    def to_json(self) -> dict[str, Any]:
        tail = self.tail_candidate
        return {
            "thread": self.thread,
            "parent": self.parent,
            "cwd_meta": self.cwd_meta,
            "cwd_env": self.cwd_env,
            "cwds": self.cwds,
            "git_branch": self.git_branch,
            "git_remote": self.git_remote,
            "event_title": self.event_title,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "models": self.models,
            "extra": self.extra,
            "events_mode": self.events_mode,
            "items_seen": self.items_seen,
            "paginated": self.paginated,
            "start_ordinal": self.start_ordinal,
            "copy": self.copy,
            "tool_names": dict(list(self.tool_names.items())[-MAX_PENDING_TOOLS:]),
            "tail_candidate": None
            if tail is None
            else {"key": tail.key, "text": tail.text, "line": tail.line, "timestamp": tail.timestamp},
            "tail_event": self.tail_event,
            "emitted": self.emitted,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> _State:
        """Tolerant: a damaged resume state loses only the parts that do not parse."""

        def strs(value: Any) -> list[str]:
            return [v for v in value if nonempty_str(v)] if isinstance(value, list) else []

        tail = data.get("tail_candidate")
        candidate = None
        if isinstance(tail, dict) and nonempty_str(tail.get("key")) and isinstance(tail.get("line"), int):
            candidate = _Candidate(
                tail["key"],
                str(tail.get("text") or ""),
                tail["line"],
                nonempty_str(tail.get("timestamp")),
                emitted=True,
            )
        event = data.get("tail_event")
        names = data.get("tool_names")
        start = data.get("start_ordinal")
        return cls(
            thread=nonempty_str(data.get("thread")),
            parent=nonempty_str(data.get("parent")),
            cwd_meta=nonempty_str(data.get("cwd_meta")),
            cwd_env=nonempty_str(data.get("cwd_env")),
            cwds=strs(data.get("cwds")),
            git_branch=nonempty_str(data.get("git_branch")),
            git_remote=nonempty_str(data.get("git_remote")),
            event_title=nonempty_str(data.get("event_title")),
            started_at=nonempty_str(data.get("started_at")),
            ended_at=nonempty_str(data.get("ended_at")),
            models=strs(data.get("models")),
            extra=as_dict(data.get("extra")),
            events_mode=data.get("events_mode") is True,
            items_seen=data.get("items_seen") is True,
            paginated=data.get("paginated") is True,
            start_ordinal=start if isinstance(start, int) and not isinstance(start, bool) else None,
            copy=data.get("copy") if isinstance(data.get("copy"), dict) else None,
            tool_names={k: v for k, v in names.items() if isinstance(v, str)} if isinstance(names, dict) else {},
            tail_candidate=candidate,
            tail_event=event if isinstance(event, dict) and isinstance(event.get("line"), int) else None,
            emitted=data.get("emitted") is True,
        )


# --- the parser ----------------------------------------------------------------------------------


class _Parser:
    """Turns the records of one rollout (or of its appended part) into one session."""

    def __init__(self, path: Path, state: _State) -> None:
        self.path = path
        self.p = str(path)
        self.state = state
        self.facts_before = state.facts() if state.emitted else None
        self.slots: list[Message | _Candidate] = []
        self.keys: set[str] = set()
        self.pending: list[_Candidate] = [state.tail_candidate] if state.tail_candidate else []
        self.claimed: dict[int, Message] = {}  # id(candidate) → the prompt it became
        self.identified = state.thread is not None
        self.inherited = 0
        self.last_line = 0
        self.problems: list[Problem] = []
        self.unknown: dict[str, Counter[str]] = {}
        self.unknown_roles: Counter[str] = Counter()
        self.copy_records: list[str] | None = None

    # -- survey and dispatch --

    def survey(self, records: list[tuple[int, dict[str, Any]]]) -> None:
        """Whether this rollout records prompts as events, and whether it has response items at all,
        decided before any record is read."""
        for _, record in records:
            if self.survey_record(record):
                return

    def survey_record(self, record: dict[str, Any]) -> bool:
        """One record of the survey; true once it has nothing left to learn."""
        payload = record.get("payload")
        if record.get("type") == "response_item" or ("type" in record and "payload" not in record):
            self.state.items_seen = True  # a wrapped item, or a bare-era item
        elif record.get("type") == "event_msg" and isinstance(payload, dict) and payload.get("type") == "user_message":
            self.state.events_mode = True
        return self.surveyed()

    def surveyed(self) -> bool:
        return self.state.events_mode and self.state.items_seen

    def feed(self, line_no: int, record: dict[str, Any]) -> None:
        try:
            self._feed(line_no, record)
        except Exception as exc:  # one odd record must never stop the file
            self.problems.append(
                Problem(self.p, f"record could not be read ({type(exc).__name__}: {exc}); skipped", line_no)
            )

    def feed_meta(self, header: dict[str, Any]) -> None:
        """The single-JSON era's `session` object, which stands where session_meta would."""
        self._meta(header, None, 0)

    def _feed(self, line_no: int, record: dict[str, Any]) -> None:
        self.last_line = line_no
        rtype = record.get("type")
        payload = record.get("payload")
        wrapped = isinstance(rtype, str) and "payload" in record
        if not wrapped and "type" not in record:
            if "record_type" in record:
                return  # the bare era's `{"record_type": "state"}` bookkeeping lines
            if nonempty_str(record.get("id")) and "timestamp" in record:
                self._meta(record, None, line_no)  # the bare era's header line
                return
            self._count("record", "None")
            return
        if self._inherited(line_no, record):
            self.inherited += 1
            return
        ts = iso_utc(record.get("timestamp")) if wrapped else None
        self._touch(ts)
        if not wrapped:
            self._ensure_thread()
            self._item(line_no, record, None, self._key(line_no, record))
        elif not isinstance(payload, dict):
            self.problems.append(Problem(self.p, f"{rtype} record has no payload object; skipped", line_no))
        elif rtype == "session_meta":
            self._meta(payload, ts, line_no)
        else:
            self._ensure_thread()
            self._wrapped(line_no, record, str(rtype), payload, ts)

    def _wrapped(
        self, line_no: int, record: dict[str, Any], rtype: str, payload: dict[str, Any], ts: str | None
    ) -> None:
        key = self._key(line_no, record)
        if rtype == "response_item":
            self._item(line_no, payload, ts, key)
        elif rtype == "event_msg":
            self._event(line_no, payload, ts, key)
        elif rtype == "turn_context":
            self._turn_context(payload)
        elif rtype == "compacted":
            text = payload.get("message")
            if isinstance(text, str) and text.strip():
                self._add(Message("system", text, "summary", key, ts))
        elif rtype not in SKIPPED_WRAPPED:
            self._count("record", repr(rtype)[:60])

    def _key(self, line_no: int, record: dict[str, Any]) -> str:
        """`<thread>:<line>`; paginated rollouts key by their thread-wide ordinal instead."""
        ordinal = record.get("ordinal")
        if self.state.paginated and isinstance(ordinal, int) and not isinstance(ordinal, bool):
            key = f"{self.state.thread}:o{ordinal}"
            if key not in self.keys:
                return key
        return f"{self.state.thread}:{line_no}"

    def _ensure_thread(self) -> None:
        if self.state.thread is None:
            self.state.thread = _thread_from_name(self.path)
            self.identified = True

    def _touch(self, ts: str | None) -> None:
        if ts:
            s = self.state
            s.started_at = min(filter(None, [s.started_at, ts]))
            s.ended_at = max(filter(None, [s.ended_at, ts]))

    # -- session metadata --

    def _meta(self, payload: dict[str, Any], ts: str | None, line_no: int) -> None:
        """The first session_meta owns identity; later ones are replayed copies of a parent's."""
        s = self.state
        if s.thread is not None:
            return
        s.thread = (
            nonempty_str(payload.get("id")) or nonempty_str(payload.get("session_id")) or _thread_from_name(self.path)
        )
        self.identified = True
        s.started_at = iso_utc(payload.get("timestamp")) or ts or s.started_at
        self._touch(ts)
        s.cwd_meta = nonempty_str(payload.get("cwd"))
        git = payload.get("git")
        if isinstance(git, dict):
            s.git_branch = nonempty_str(git.get("branch"))
            s.git_remote = nonempty_str(git.get("repository_url"))
        source = payload.get("source")
        spawn = _dig(source, "subagent", "thread_spawn")
        s.parent = (
            nonempty_str(payload.get("forked_from_id"))
            or nonempty_str(payload.get("parent_thread_id"))
            or nonempty_str(spawn.get("parent_thread_id") if isinstance(spawn, dict) else None)
        )
        s.paginated = payload.get("history_mode") == "paginated"
        start = payload.get("subagent_history_start_ordinal")
        s.start_ordinal = start if isinstance(start, int) and not isinstance(start, bool) else None
        s.extra = {k: v for k, v in _meta_extra(payload, source, spawn).items() if v is not None}
        if s.parent and s.start_ordinal is None and not isinstance(payload.get("history_base"), dict):
            s.copy = {"open": True, "pos": None, "parent_path": None}

    def _turn_context(self, payload: dict[str, Any]) -> None:
        s = self.state
        model = nonempty_str(payload.get("model"))
        if model and model not in s.models:
            s.models.append(model)
        cwd = nonempty_str(payload.get("cwd"))
        if cwd and cwd not in s.cwds:
            s.cwds.append(cwd)

    # -- inherited parent history --

    def _inherited(self, line_no: int, record: dict[str, Any]) -> bool:
        """Whether this record is part of a parent's history copied into a child rollout.

        Sub-agents with ordinals say where their own history starts. Older children replay the
        parent's header right after their own, then the parent's records (with new timestamps):
        the copy is the run of records that match the parent's rollout, record by record.
        """
        s = self.state
        if s.thread is None or s.parent is None:
            return False
        if s.start_ordinal is not None:
            ordinal = record.get("ordinal")
            return isinstance(ordinal, int) and not isinstance(ordinal, bool) and ordinal < s.start_ordinal
        copy = s.copy
        if not copy or not copy.get("open"):
            return False
        pos = copy.get("pos")
        if pos is None and record.get("type") != "session_meta":
            copy["open"] = False  # no replayed parent header: nothing was copied
            return False
        parent = self._parent_signatures(copy)
        if parent is None:
            copy["open"] = False
            self.problems.append(
                Problem(
                    self.p, f"kept the history copied from parent thread {s.parent}: its rollout was not found", line_no
                )
            )
            return False
        pos = pos or 0
        if pos < len(parent) and parent[pos] == _signature(record):
            copy["pos"] = pos + 1
            return True
        copy["open"] = False
        return False

    def _parent_signatures(self, copy: dict[str, Any]) -> list[str] | None:
        if self.copy_records is None:
            known = nonempty_str(copy.get("parent_path"))
            found = (
                Path(known) if known and Path(known).is_file() else _find_rollout(self.state.parent or "", self.path)
            )
            if found is None:
                return None
            copy["parent_path"] = str(found)
            read = _read_zst(found) if found.name.endswith(".zst") else read_jsonl(found)
            self.copy_records = [_signature(r) for _, r in read.records]
        return self.copy_records

    # -- response items --

    def _item(self, line_no: int, payload: dict[str, Any], ts: str | None, key: str) -> None:
        itype = payload.get("type")
        if itype == "message":
            self._message(line_no, payload, ts, key)
        elif itype == "agent_message":
            # A message from another agent (a sub-agent's task or report): not typed by a person,
            # and the spawning tool call already carries the task text.
            text = _content_text(payload.get("content"))
            if text.strip():
                self._add(Message("user", text, "injected_context", key, ts))
        elif isinstance(itype, str) and (itype.endswith("_call") or itype == "function_call"):
            self._add(self._tool_call(payload, key, ts))
        elif isinstance(itype, str) and itype.endswith("_output"):
            self._add(self._tool_result(payload, key, ts))
        elif itype not in SKIPPED_ITEMS:
            self._count("response_item record", repr(itype)[:60])

    def _message(self, line_no: int, payload: dict[str, Any], ts: str | None, key: str) -> None:
        role = payload.get("role")
        text = _content_text(payload.get("content"))
        if not text.strip():
            return
        if role == "assistant":
            self._add(Message("assistant", text, "response", key, ts))
        elif role in ("developer", "system"):
            self._add(Message("system", text, "injected_context", key, ts))
        elif role == "user":
            self._user_item(line_no, text, ts, key, _content_text(payload.get("content"), images=False))
        else:
            self.unknown_roles[repr(role)[:60]] += 1

    def _user_item(self, line_no: int, text: str, ts: str | None, key: str, plain: str) -> None:
        prompt, injected = join_parts(_classify(text))
        if self.state.cwd_unknown() and (match := ENV_CWD_RE.search(text)):
            self.state.cwd_env = match.group(1).strip()
        if injected:
            self._add(Message("user", injected, "injected_context", key + ":ctx" if prompt else key, ts))
        if not prompt:
            return
        plain_prompt = join_parts(_classify(plain))[0] or prompt
        if not self.state.events_mode:
            self._add(Message("user", prompt, "prompt", key, ts))
            # No events so far; should the next parse start with this prompt's event, it is a twin.
            self.pending.append(_Candidate(key, plain_prompt, line_no, ts, emitted=True))
            return
        # The prompt itself comes from the user_message event; this is its twin, or context.
        event = self.state.tail_event
        near = event is not None and event["line"] >= line_no - 3
        if event is not None and near and (_same(event["text"], plain_prompt) or event["line"] == line_no - 1):
            self.state.tail_event = None
            return  # the event came first and already made the prompt
        candidate = _Candidate(key, plain_prompt, line_no, ts)
        self.pending.append(candidate)
        self.slots.append(candidate)
        self.keys.add(key)

    def _tool_call(self, payload: dict[str, Any], key: str, ts: str | None) -> Message:
        name, tool_input, raw = _call_parts(payload)
        call_id = nonempty_str(payload.get("call_id")) or nonempty_str(payload.get("id"))
        if call_id and name:
            self.state.tool_names[call_id] = name
        summary = None
        files = list(input_paths(tool_input, PATH_KEYS))
        patch = _patch_text(tool_input, raw)
        if isinstance(tool_input, dict):
            # The first set key decides; an argv list (`command: ["bash", "-lc", …]`) reads as one line.
            value = next((tool_input[k] for k in SUMMARY_KEYS if tool_input.get(k)), None)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                value = " ".join(value)
            summary = value if isinstance(value, str) and value.strip() else None
        if patch:  # "Update File: a.py, Add File: b.py" says more than the patch's first bytes
            ops = PATCH_FILE_RE.findall(patch)
            files += [path.strip() for _, path in ops]
            summary = ", ".join(f"{op} File: {path.strip()}" for op, path in ops) or summary
        text = tool_call_text(name, tool_input, summary if summary is not None else raw)
        return Message(
            "assistant",
            text,
            "tool_call",
            key,
            ts,
            tool_name=name,
            tool_input=tool_input,
            files=tuple(dict.fromkeys(files)),
        )

    def _tool_result(self, payload: dict[str, Any], key: str, ts: str | None) -> Message:
        call_id = nonempty_str(payload.get("call_id")) or nonempty_str(payload.get("id"))
        name = self.state.tool_names.pop(call_id, None) if call_id else None
        if payload.get("type") == "tool_search_output":
            text, failed = compact_json(payload.get("tools", payload.get("output")))[:OUTPUT_MAX], False
        else:
            text, failed = _output_text(payload.get("output"))
        if failed or payload.get("status") in ("failed", "error"):
            text = "[error] " + text
        return Message("tool", text[:OUTPUT_MAX], "tool_result", key, ts, tool_name=name)

    # -- events --

    def _event(self, line_no: int, payload: dict[str, Any], ts: str | None, key: str) -> None:
        etype = payload.get("type")
        if etype == "user_message":
            self._user_event(line_no, payload, ts, key)
        elif etype == "agent_message" and not self.state.items_seen:
            text = payload.get("message")
            if isinstance(text, str) and text.strip():
                self._add(Message("assistant", text, "response", key, ts))
        elif etype == "thread_name_updated":
            self.state.event_title = nonempty_str(payload.get("thread_name")) or self.state.event_title
        elif etype not in SKIPPED_EVENTS and not (isinstance(etype, str) and etype.startswith(SKIPPED_EVENT_PREFIXES)):
            self._count("event_msg record", repr(etype)[:60])

    def _user_event(self, line_no: int, payload: dict[str, Any], ts: str | None, key: str) -> None:
        """One human prompt; it takes over the key and place of its response_item twin."""
        message = payload.get("message")
        text = message if isinstance(message, str) else ""
        images = payload.get("images")
        if isinstance(images, list) and images:
            text = "\n\n".join(filter(None, [text, *["[image]"] * len(images)]))
        prompt, injected = join_parts(_classify(text))
        plain = join_parts(_classify(message if isinstance(message, str) else ""))[0]
        twin = self._twin(plain, line_no)
        self.pending.clear()  # earlier unpaired user items were context of this turn
        if twin is not None:
            self.state.tail_event = None
            if prompt:
                self.claimed[id(twin)] = Message("user", prompt, "prompt", twin.key, twin.timestamp or ts)
                if twin.emitted:  # returned as context by the last parse: return it again as a prompt
                    self._add(self.claimed[id(twin)])
            return
        if injected:
            self._add(Message("user", injected, "injected_context", key + ":ctx" if prompt else key, ts))
        if prompt:
            self._add(Message("user", prompt, "prompt", key, ts))
            self.state.tail_event = {"line": line_no, "text": plain, "key": key}

    def _twin(self, text: str, line_no: int) -> _Candidate | None:
        """The response_item copy of this prompt: same text, else the record just before it."""
        for candidate in reversed(self.pending):
            if _same(candidate.text, text):
                return candidate
        if self.pending and self.pending[-1].line == line_no - 1:
            return self.pending[-1]
        return None

    # -- shared --

    def _add(self, message: Message) -> None:
        if first_sight(self.keys, message):
            self.slots.append(message)

    def _count(self, noun: str, label: str) -> None:
        self.unknown.setdefault(noun, Counter())[label] += 1

    # -- results --

    def sessions(self) -> list[Session]:
        s = self.state
        messages: list[Message] = []
        for slot in self.slots:
            if isinstance(slot, Message):
                messages.append(slot)
            elif id(slot) in self.claimed:
                messages.append(self.claimed[id(slot)])
            else:  # a user response item no event claimed: context Codex added (AGENTS.md, skills, …)
                messages.append(Message("user", slot.text, "injected_context", slot.key, slot.timestamp))
        self._remember_tail()
        if s.thread is None:
            return []
        changed = self.facts_before is not None and s.facts() != self.facts_before
        if not messages and not changed:
            return []
        s.emitted = True
        extra = dict(s.extra)
        if len(s.cwds) > 1:
            extra["cwds"] = list(s.cwds)  # the cwd changed mid-session
        return [
            Session(
                agent=AGENT,
                native_id=s.thread,
                messages=tuple(messages),
                cwd=(s.cwds[0] if s.cwds else None) or s.cwd_meta or s.cwd_env,
                git_branch=s.git_branch,
                git_remote=s.git_remote,
                title=_index_title(self.path, s.thread) or s.event_title,
                started_at=s.started_at,
                ended_at=s.ended_at,
                models=tuple(s.models),
                source_paths=(self.p,),
                parent_native_id=s.parent,
                extra=extra,
            )
        ]

    def _remember_tail(self) -> None:
        """An unpaired twin at the very end may still get its event in the next parse."""
        tail = self.pending[-1] if self.pending else None
        self.state.tail_candidate = tail if tail is not None and tail.line >= self.last_line - 1 else None
        event = self.state.tail_event
        if event is not None and event["line"] < self.last_line - 2:
            self.state.tail_event = None

    def warnings(self) -> list[Problem]:
        out = list(self.problems)
        for noun, counts in self.unknown.items():
            for label, n in counts.items():
                what = "with no type" if label == "None" else f"of unknown type {label}"
                out.append(Problem(self.p, f"skipped {plural(n, noun)} {what}"))
        for label, n in self.unknown_roles.items():
            what = "with no role" if label == "None" else f"with unknown role {label}"
            out.append(Problem(self.p, f"skipped {plural(n, 'message record')} {what}"))
        return out


# --- record helpers ------------------------------------------------------------------------------


def _dig(value: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _meta_extra(payload: dict[str, Any], source: Any, spawn: Any) -> dict[str, Any]:
    spawn = spawn if isinstance(spawn, dict) else {}
    kind = source if isinstance(source, str) else (next(iter(source), None) if isinstance(source, dict) else None)
    return {
        "originator": nonempty_str(payload.get("originator")),
        "cli_version": nonempty_str(payload.get("cli_version")),
        "source": kind,
        "agent_nickname": nonempty_str(payload.get("agent_nickname")) or nonempty_str(spawn.get("agent_nickname")),
        "agent_role": nonempty_str(payload.get("agent_role")) or nonempty_str(spawn.get("agent_role")),
    }


def _signature(record: dict[str, Any]) -> str:
    """What a record says, without what a copy changes.

    A copy gets new timestamps and ordinals, and re-serialising may add default fields, so only
    the fields that carry the conversation are compared.
    """
    payload = as_dict(record.get("payload")) or record
    rtype = record.get("type")
    fields: list[Any] = [rtype, payload.get("type")]
    if rtype == "session_meta":
        fields.append(payload.get("id"))
    elif rtype == "turn_context":
        fields += [payload.get("turn_id"), payload.get("cwd"), payload.get("model")]
    elif rtype == "event_msg":
        fields += [payload.get("message"), payload.get("turn_id")]
    else:
        fields += [payload.get(k) for k in ("role", "call_id", "name", "arguments", "input", "output", "message")]
        fields.append(_content_text(payload.get("content")))
    return compact_json(fields)


def _find_rollout(thread: str, near: Path) -> Path | None:
    """The rollout of `thread` in the same Codex home (or next to `near`), plain before .zst."""
    if not UUID_RE.fullmatch(thread):
        return None
    home = _codex_home_of(near)
    bases = [near.parent]
    if home is not None:
        bases += [home / "sessions", home / "archived_sessions"]
    for suffix in (".jsonl", ".jsonl.zst"):
        pattern = f"rollout-*-{thread}{suffix}"
        for base in bases:
            for glob in (pattern, f"*/*/*/{pattern}"):
                for found in sorted(base.glob(glob)):
                    if found != near and found.is_file():
                        return found
    return None


_INDEX_CACHE: dict[str, tuple[tuple[int, int], dict[str, str]]] = {}


def _index_title(path: Path, thread: str) -> str | None:
    """The thread's name in `session_index.jsonl` (append-only, newest line wins)."""
    home = _codex_home_of(path)
    if home is None:
        return None
    index = home / "session_index.jsonl"
    try:
        st = index.stat()
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    cached = _INDEX_CACHE.get(str(index))
    if cached is None or cached[0] != stamp:
        titles: dict[str, str] = {}
        for _, record in read_jsonl(index).records:
            if nonempty_str(record.get("id")) and nonempty_str(record.get("thread_name")):
                titles[record["id"]] = record["thread_name"]
        cached = _INDEX_CACHE[str(index)] = (stamp, titles)
    return cached[1].get(thread)


def _content_text(content: Any, *, images: bool = True) -> str:
    """Text of a message's content parts; images become "[image]", never their data."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts: list[str] = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            ptype = part.get("type")
            if ptype in ("input_text", "output_text", "text") and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif ptype in ("input_image", "image", "output_image") and images:
                parts.append("[image]")
    return "\n\n".join(p for p in parts if p.strip())


def _classify(text: str) -> list[tuple[str, str]]:
    """Split one user text into typed prompt and injected context, in order."""
    if is_injected(text, INJECTED_PREFIXES, ignore_case=True):
        return [("injected_context", text)]
    parts: list[tuple[str, str]] = []
    if text.lstrip().startswith(IDE_CONTEXT_HEAD) and IDE_REQUEST_MARK in text:
        head, _, text = text.partition(IDE_REQUEST_MARK)
        if head.strip():
            parts.append(("injected_context", head.strip()))
        text = text.strip()
    return parts + split_smriti_context(text)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def _call_parts(payload: dict[str, Any]) -> tuple[str | None, Any, str | None]:
    """(tool name, input as a dict where possible, the raw input string when it was not JSON)."""
    itype = payload.get("type")
    name = nonempty_str(payload.get("name")) or nonempty_str(_dig(payload, "function", "name"))
    if itype == "custom_tool_call":
        raw = payload.get("input")
        return name, {"input": raw}, raw if isinstance(raw, str) else None
    if itype in ("local_shell_call", "web_search_call"):
        action = payload.get("action")
        return name or itype.removesuffix("_call"), action if isinstance(action, dict) else {}, None
    if itype == "image_generation_call":
        # `result` is the generated image in base64: never kept.
        return name or "image_generation", {k: payload[k] for k in ("revised_prompt", "status") if k in payload}, None
    args = payload.get("arguments")
    if args is None and itype != "function_call":
        args = {
            k: v
            for k, v in payload.items()
            if k not in ("type", "id", "call_id", "status", "metadata") and not k.startswith("internal_")
        }
    if isinstance(args, str):
        try:
            decoded = json.loads(args)
        except ValueError:
            return name, {"arguments": args}, args
        return name, decoded if isinstance(decoded, dict) else {"arguments": decoded}, None
    if args is None:
        args = {}
    fallback = itype.removesuffix("_call") if isinstance(itype, str) else None
    return name or fallback, args if isinstance(args, dict) else {"arguments": args}, None


def _patch_text(tool_input: Any, raw: str | None) -> str | None:
    """The apply_patch body of a call, wherever this era put it."""
    candidates = [raw]
    if isinstance(tool_input, dict):
        candidates += [tool_input.get("input"), tool_input.get("patch")]
        command = tool_input.get("command")
        if isinstance(command, list):
            candidates += [c for c in command if isinstance(c, str)]
    return next((c for c in candidates if isinstance(c, str) and "*** Begin Patch" in c), None)


def _output_text(output: Any) -> tuple[str, bool]:
    """(text, failed) of a tool output: a string, `{content, success}`, or content items."""
    if isinstance(output, str):
        # Before 2026 shell outputs were a JSON string {"output", "metadata": {"exit_code"}}.
        if output.startswith("{") and '"output"' in output:
            try:
                decoded = json.loads(output)
            except ValueError:
                return output, False
            if isinstance(decoded, dict) and isinstance(decoded.get("output"), str):
                code = _dig(decoded, "metadata", "exit_code")
                return decoded["output"], isinstance(code, int) and code != 0
        return output, False
    if isinstance(output, dict):
        if "content" in output:
            text, _ = _output_text(output.get("content"))
            return text, output.get("success") is False
        if output.get("type") in ("input_text", "output_text", "text", "input_image"):
            return _content_text([output]), False
        return compact_json(output), False
    if isinstance(output, list):
        return _content_text(output), False
    return ("" if output is None else compact_json(output)), False
