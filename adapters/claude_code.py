"""Claude Code adapter: `~/.claude/projects/<slug>/<sessionId>.jsonl` transcripts in, Sessions out.

Format notes live in docs/session-formats.md §1. In short: every line is one record; `user` lines
carry prompts, tool results or injected text; one assistant API response is split over several
`assistant` lines sharing `message.id`; subagents live in their own `agent-<id>.jsonl` files.
The parser never raises: an odd record becomes a warning and everything around it is still read.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice, pairwise
from pathlib import Path
from typing import Any

from smriti.adapters._common import (
    child_path,
    classify_user_text,
    existing_dirs,
    first_sight,
    home_dir,
    input_paths,
    input_summary,
    is_injected,
    iso_utc,
    join_parts,
    no_messages_error,
    nonempty_str,
    plural,
    tool_call_text,
)
from smriti.adapters._jsonl import (
    MAX_SIDE_FILE_BYTES,
    JsonlRead,
    json_type_name,
    open_regular,
    read_jsonl,
    read_regular,
)
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "claude-code"

# Record types that carry no conversation. `summary`, `custom-title` and `ai-title` are read for
# the session title; `progress` includes agent_progress copies of subagent messages, which the
# subagent's own file already holds, so they are never counted.
KNOWN_SKIPPED_TYPES = frozenset(
    {
        "summary",
        "file-history-snapshot",
        "progress",
        "queue-operation",
        "attachment",
        "system",
        "last-prompt",
        "permission-mode",
        "mode",
        "custom-title",
        "ai-title",
        "agent-name",
        "pr-link",
        "worktree-state",
        "bridge-session",
        "frame-link",
        "relocated",
        "started",
        "result",
        "atis-latch",
        "tag",
    }
)
TITLE_FIELDS = {"custom-title": "customTitle", "ai-title": "aiTitle", "summary": "summary"}
TITLE_PRECEDENCE = ("custom-title", "ai-title", "summary")

# User text that the agent (not the person) put into the conversation.
INJECTED_PREFIXES = (
    "<command-name>",
    "<command-message>",
    "<local-command-stdout>",
    "<local-command-caveat>",
    "Caveat: The messages below were generated",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<system-reminder>",
    "<task-notification>",
    "<ide_opened_file>",
    "<ide_selection>",
    "<user-memory-input>",
    "<environment_context>",
    "<user_instructions>",
    "[Request interrupted by user",
)

COMMAND_NAME_RE = re.compile(r"<command-name>(.*?)</command-name>", re.DOTALL)
COMMAND_ARGS_RE = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)

SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking"})  # reasoning is not stored
# Line keys this adapter never reads, dropped as lines are parsed: `toolUseResult` repeats every
# tool output (a third of a large transcript's parsed records in memory).
UNREAD_KEYS = frozenset({"toolUseResult"})
SUMMARY_KEYS = ("command", "file_path", "path", "pattern", "url", "query", "description", "prompt")
PATH_KEYS = ("file_path", "path", "notebook_path")
SPILL_MAX_CHARS = 200_000
SYNTHETIC_MODEL = "<synthetic>"
# Unanswered tool calls carried in the resume point; a few very old ones may be dropped.
MAX_PENDING_TOOLS = 1000
# How much `detect` reads: the first lines of the first files.
DETECT_FILES, DETECT_LINES, DETECT_BYTES = 5, 20, 256 * 1024


class ClaudeCodeAdapter:
    name = AGENT
    sqlite_sources = False  # text transcripts: no -wal file to fingerprint

    def default_roots(self) -> list[Path]:
        return existing_dirs(self.candidate_roots())

    def candidate_roots(self) -> list[Path]:
        home = home_dir()
        candidates = [
            _expand_home(entry.strip(), home) / "projects"
            for entry in os.environ.get("CLAUDE_CONFIG_DIR", "").split(",")
            if entry.strip()
        ]
        candidates += [home / ".claude" / "projects", home / ".config" / "claude" / "projects"]
        return candidates

    def discover(self, root: Path) -> Iterator[Path]:
        """Every transcript under root, oldest first.

        Sorted by (mtime, path) so an original session is ingested before the resumed copy that
        replays its lines: the store keeps the first copy of a replayed message.
        """
        for path, _ in self.discover_stats(root):
            yield path

    def discover_stats(self, root: Path) -> list[tuple[Path, os.stat_result | None]]:
        """`discover`'s transcripts, in its order, each with the stat taken to sort it (None: it
        could not be taken, or `root` is a file). Ingest vets and fingerprints each source with
        this stat instead of taking its own: one stat per unchanged transcript and run, not two.
        """
        if root.is_file():
            return [(root, None)]
        return [(path, st) for _, _, path, st in sorted(_transcripts(root))]

    def detect(self, path: Path) -> bool:
        """Whether `path` (a transcript or a folder of them) looks like Claude Code's.

        Optional hook used by `ingest --path` without `--agent`: a cheap sniff of the first
        lines of at most a few files.
        """
        files = [path] if path.is_file() else list(islice(self.discover(path), DETECT_FILES))
        return any(_sniff(f) for f in files)

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        # One pass: each record is fed as it is parsed, never all held (a transcript of hundreds of
        # MB would hold its records at twice its size). The parser needs the resume state, which
        # the reader settles before the first record.
        made: list[_FileParser] = []

        def start(read: JsonlRead) -> Callable[[int, dict[str, Any]], None]:
            made.append(_FileParser(path, _state(resume, read)))
            return made[0].feed

        read = read_jsonl(path, resume, drop_keys=UNREAD_KEYS, consumer=start)
        resuming = _resuming(resume, read)
        parser = made[0] if made else _FileParser(path, _state(resume, read))
        sessions = parser.sessions()
        errors = list(read.errors)
        if not resuming and parser.conversational and not any(s.messages for s in sessions):
            errors.append(Problem(str(path), no_messages_error(f"{parser.conversational} records")))
        return ParseResult(
            sessions=sessions,
            resume=read.resume_point(**parser.state()),
            warnings=[*read.warnings, *parser.warnings()],
            errors=errors,
        )


def _resuming(resume: Any, read: JsonlRead) -> bool:
    return isinstance(resume, dict) and isinstance(resume.get("offset"), int) and not read.restarted


def _state(resume: Any, read: JsonlRead) -> _ResumeState:
    return _ResumeState.load(resume) if _resuming(resume, read) else _ResumeState()


# --- discovery helpers ---------------------------------------------------------------------------


def _expand_home(entry: str, home: Path) -> Path:
    if entry == "~" or entry.startswith("~/"):
        return home / entry[2:]
    return Path(entry)


def _transcripts(root: Path) -> list[tuple[float, str, Path, os.stat_result | None]]:
    """(mtime, path text, path, stat) of every `*.jsonl` under root, in no order.

    What `root.rglob("*.jsonl")` finds (links to folders are not followed; anything so named,
    file or not, is found: ingest vets it), with its stat from the directory entry (links
    followed, as `Path.stat`; on POSIX a full stat, inode included), without rglob's costs: a
    set of every path yielded (a hash of each), a Path parsed per result. A folder whose parts
    below root exclude all it holds (`_excluded_folder`) is not walked; one that cannot be
    listed is passed over (rglob stopped at the first folder it was denied).
    """
    found: list[tuple[float, str, Path, os.stat_result | None]] = []
    folders: list[tuple[Path, tuple[str, ...]]] = [(root, ())]
    while folders:
        folder, below = folders.pop()
        child = child_path(folder)
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = entry.name
                    if name.endswith(".jsonl"):
                        path = child(name)
                        try:
                            st: os.stat_result | None = entry.stat()
                        except OSError:  # a dangling link, a file gone since it was listed
                            st = None
                        found.append((st.st_mtime if st else 0.0, str(path), path, st))
                    try:
                        walk = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        walk = False
                    if walk and not _excluded_folder(parts := (*below, name)):
                        folders.append((child(name), parts))
        except OSError:
            continue
    return found


def _excluded_folder(parts: tuple[str, ...]) -> bool:
    """Whether a folder (its parts below the root searched) holds no transcripts, at any depth:
    workflow run journals and spilled tool output are not transcripts."""
    return "tool-results" in parts or any(a == "subagents" and b == "workflows" for a, b in pairwise(parts))


def _sniff(path: Path) -> bool:
    """A Claude Code line: a known record type plus a Claude-only envelope field."""
    try:
        with open_regular(path) as fh:
            head = fh.read(DETECT_BYTES).splitlines()[:DETECT_LINES]
    except OSError:
        return False
    for raw in head:
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        rtype = record.get("type")
        if rtype in ("user", "assistant") and isinstance(record.get("message"), dict) and "sessionId" in record:
            return True
        if rtype in ("summary", "file-history-snapshot") and ("leafUuid" in record or "snapshot" in record):
            return True
    return False


# --- small value helpers -------------------------------------------------------------------------


def _type_label(value: Any) -> str:
    """How an unknown `type` value is named in warnings: its repr, or "None" when missing."""
    return repr(value)[:60]


def _skipped_types(path: str, counts: Counter[str], noun: str) -> list[Problem]:
    """One warning per unknown type: "skipped 2 records of unknown type 'tool_use'"."""
    return [
        Problem(
            path, f"skipped {plural(n, noun)} " + ("with no type" if label == "None" else f"of unknown type {label}")
        )
        for label, n in counts.items()
    ]


# --- resume state --------------------------------------------------------------------------------


@dataclass
class _SessionAcc:
    """Session-level facts, accumulated over this parse and carried across resumes."""

    session_id: str
    native_id: str | None = None  # None until a conversational line decided main vs subagent
    parent: str | None = None
    subagent: bool = False
    cwd: str | None = None
    git_branch: str | None = None
    titles: dict[str, str] = field(default_factory=dict)  # record type → latest title
    started_at: str | None = None
    ended_at: str | None = None
    models: list[str] = field(default_factory=list)
    emitted: bool = False  # returned with messages by this or an earlier parse

    @property
    def title(self) -> str | None:
        return next((self.titles[t] for t in TITLE_PRECEDENCE if t in self.titles), None)

    def facts(self) -> tuple[Any, ...]:
        return (
            self.native_id,
            self.parent,
            self.cwd,
            self.git_branch,
            self.title,
            self.started_at,
            self.ended_at,
            tuple(self.models),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "native_id": self.native_id,
            "parent": self.parent,
            "subagent": self.subagent,
            "cwd": self.cwd,
            "git_branch": self.git_branch,
            "titles": self.titles,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "models": self.models,
            "emitted": self.emitted,
        }

    @classmethod
    def from_json(cls, session_id: str, data: dict[str, Any]) -> _SessionAcc:
        titles = data.get("titles")
        models = data.get("models")
        return cls(
            session_id=session_id,
            native_id=nonempty_str(data.get("native_id")),
            parent=nonempty_str(data.get("parent")),
            subagent=data.get("subagent") is True,
            cwd=nonempty_str(data.get("cwd")),
            git_branch=nonempty_str(data.get("git_branch")),
            titles={k: v for k, v in titles.items() if k in TITLE_FIELDS and nonempty_str(v)}
            if isinstance(titles, dict)
            else {},
            started_at=nonempty_str(data.get("started_at")),
            ended_at=nonempty_str(data.get("ended_at")),
            models=[m for m in models if nonempty_str(m)] if isinstance(models, list) else [],
            emitted=data.get("emitted") is True,
        )


@dataclass
class _Response:
    """One assistant API response whose text blocks are spread over several lines."""

    key: str
    session_id: str
    timestamp: str | None
    sidechain: bool
    prior: str = ""  # text already returned by an earlier parse (resume across a split response)
    texts: list[str] = field(default_factory=list)
    placed: bool = False  # has a slot in this parse's message order

    @property
    def full_text(self) -> str:
        return "\n\n".join([self.prior, *self.texts] if self.prior else self.texts)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "session": self.session_id,
            "text": self.full_text,
            "timestamp": self.timestamp,
            "sidechain": self.sidechain,
        }


@dataclass
class _ResumeState:
    sessions: dict[str, _SessionAcc] = field(default_factory=dict)
    tool_names: dict[str, str] = field(default_factory=dict)  # unanswered tool_use id → tool name
    last_response: _Response | None = None
    primary: str | None = None  # the file's first session: owner of records without a sessionId

    @classmethod
    def load(cls, resume: dict[str, Any]) -> _ResumeState:
        """Tolerant: a damaged resume state loses only the parts that do not parse."""
        state = cls(primary=nonempty_str(resume.get("primary")))
        sessions = resume.get("sessions")
        if isinstance(sessions, dict):
            state.sessions = {
                sid: _SessionAcc.from_json(sid, data) for sid, data in sessions.items() if isinstance(data, dict)
            }
        names = resume.get("tool_names")
        if isinstance(names, dict):
            state.tool_names = {k: v for k, v in names.items() if isinstance(v, str)}
        last = resume.get("last_response")
        if isinstance(last, dict) and nonempty_str(last.get("key")) and nonempty_str(last.get("session")):
            text = last.get("text")
            state.last_response = _Response(
                key=last["key"],
                session_id=last["session"],
                timestamp=nonempty_str(last.get("timestamp")),
                sidechain=last.get("sidechain") is True,
                prior=text if isinstance(text, str) else "",
            )
        return state


# --- the parser ----------------------------------------------------------------------------------


class _FileParser:
    """Turns the records of one file (or of its appended part) into messages and session facts."""

    def __init__(self, path: Path, state: _ResumeState) -> None:
        self.path = path
        self.source = str(path)
        self.accs = state.sessions
        self.facts_before = {sid: acc.facts() for sid, acc in state.sessions.items()}
        self.tool_names = state.tool_names
        self.primary = state.primary
        self.responses: dict[str, _Response] = {}
        if state.last_response is not None:
            self.responses[state.last_response.key] = state.last_response
        self.last_response = state.last_response
        self.slots: list[tuple[str, Message | _Response]] = []  # (session id, message) in file order
        self.keys: set[str] = set()
        self.uuid_owner: dict[str, str] = {}  # uuids of lines already handled → session id
        self.titles: list[tuple[str | None, str | None, str, str]] = []  # (session, leafUuid, type, title)
        self.conversational = 0
        self.problems: list[Problem] = []
        self.unknown_types: Counter[str] = Counter()
        self.unknown_blocks: Counter[str] = Counter()
        stem = path.name.removesuffix(".jsonl")
        self.file_agent_id = stem.removeprefix("agent-") if stem.startswith("agent-") and stem != path.name else None
        # A subagent file in the new layout sits in <parentSessionId>/subagents/.
        self.folder_parent = path.parent.parent.name if path.parent.name == "subagents" else None
        # Spilled tool output lives next to the main session file, even for subagents.
        self.main_dir = path.parent.parent.parent if self.folder_parent else path.parent
        # Per session: the first agentId of its lines, and whether every line is a sidechain line
        # with an agentId (how a subagent file not named agent-*.jsonl is recognised).
        self.line_agents: dict[str, tuple[str | None, bool]] = {}
        # Sessions seen in this parse whose identity an earlier one did not decide (in order).
        self.undecided: dict[str, None] = {}
        # Tool results of undecided sessions whose spilled output was looked for under the session's
        # own folder: (slot index, spill file name, preview text, is_error), looked for again under
        # the parent's once a subagent's parent is known (`_respill`).
        self.spills: list[tuple[int, str, str, bool]] = []

    def _session_of(self, record: dict[str, Any]) -> str:
        """A conversational line's session; the file is named after it when the field is missing."""
        return nonempty_str(record.get("sessionId")) or self.path.stem

    def _survey(self, sid: str, record: dict[str, Any]) -> None:
        """Whether a session's lines are all subagent lines, and its first agentId: gathered as
        lines come, read when its identity is decided at the end (see `_decide_identities`)."""
        agent = nonempty_str(record.get("agentId"))
        side_agent = record.get("isSidechain") is True and agent is not None
        first, every = self.line_agents.get(sid, (None, True))
        self.line_agents[sid] = (first or agent, every and side_agent)

    # -- feeding records --

    def feed(self, line_no: int, record: dict[str, Any]) -> None:
        try:
            self._feed(line_no, record)
        except Exception as exc:  # one odd record must never stop the file
            self.problems.append(
                Problem(self.source, f"record could not be read ({type(exc).__name__}: {exc}); skipped", line_no)
            )

    def _feed(self, line_no: int, record: dict[str, Any]) -> None:
        rtype = record.get("type")
        conversational = rtype in ("user", "assistant")
        sid = self._session_of(record) if conversational else nonempty_str(record.get("sessionId"))
        if sid is not None:
            acc = self._acc(sid)
            acc.cwd = acc.cwd or nonempty_str(record.get("cwd"))
            acc.git_branch = acc.git_branch or nonempty_str(record.get("gitBranch"))
        if not conversational:
            if not isinstance(rtype, str) or rtype not in KNOWN_SKIPPED_TYPES:
                self.unknown_types[_type_label(rtype)] += 1
            elif rtype in TITLE_FIELDS and nonempty_str(record.get(TITLE_FIELDS[rtype])):
                self.titles.append((sid, nonempty_str(record.get("leafUuid")), rtype, record[TITLE_FIELDS[rtype]]))
            return
        assert sid is not None  # for the type checker: conversational lines always have one
        self.conversational += 1
        self._survey(sid, record)
        uuid = nonempty_str(record.get("uuid"))
        if uuid is not None and uuid in self.uuid_owner:
            return  # a replayed line: the first copy is kept
        self.primary = self.primary or sid
        acc = self.accs[sid]
        if acc.native_id is None:
            # Main session or subagent needs all of its lines: decided once they are all read.
            # Until then its messages are marked sidechain by their own lines only.
            self.undecided.setdefault(sid, None)
        handled = self._assistant(line_no, record, acc) if rtype == "assistant" else self._user(line_no, record, acc)
        if handled and uuid is not None:
            self.uuid_owner[uuid] = sid

    def _acc(self, sid: str) -> _SessionAcc:
        if sid not in self.accs:
            self.accs[sid] = _SessionAcc(sid)
        return self.accs[sid]

    def _decide_identities(self) -> None:
        """Decide the sessions this parse first read (their lines are all seen now): a subagent's
        messages are all sidechain ones, and its spilled tool output lives under its parent."""
        if not self.undecided:
            return
        subagents = set()
        for sid in self.undecided:
            acc = self.accs[sid]
            self._decide_identity(acc)
            if acc.subagent:
                subagents.add(sid)
        if not subagents:
            return
        for index, (sid, slot) in enumerate(self.slots):
            if sid not in subagents:
                continue
            if isinstance(slot, _Response):
                slot.sidechain = True
            elif not slot.sidechain:
                self.slots[index] = (sid, replace(slot, sidechain=True))
        for index, name, preview, is_error in self.spills:
            sid, slot = self.slots[index]
            main_sid = self.accs[sid].parent or sid
            if main_sid != sid and isinstance(slot, Message):
                text = _read_spill(self.main_dir / main_sid / "tool-results" / name) or preview
                self.slots[index] = (sid, replace(slot, text="[error] " + text if is_error else text))

    def _decide_identity(self, acc: _SessionAcc) -> None:
        """Main session or subagent, decided by the first parse that sees the session's lines.

        A subagent file is named agent-*.jsonl, or every line is a sidechain line with an agentId.
        Inline sidechain lines of the oldest versions carry no agentId and stay in the main session.
        """
        line_agent, every_line_side = self.line_agents.get(acc.session_id, (None, False))
        if self.file_agent_id is None and not every_line_side:
            acc.native_id = acc.session_id
            return
        agent_id = line_agent or self.file_agent_id
        acc.subagent = True
        if acc.session_id == f"agent-{agent_id}":
            # Anonymised exports name the subagent's own file as its sessionId: the parent is
            # only known from the folder layout.
            acc.parent = self.folder_parent
            acc.native_id = f"{acc.parent}/agent-{agent_id}" if acc.parent else acc.session_id
        else:
            acc.parent = acc.session_id
            acc.native_id = f"{acc.session_id}/agent-{agent_id}"

    # -- user lines --

    def _user(self, line_no: int, record: dict[str, Any], acc: _SessionAcc) -> bool:
        content = self._content(line_no, record, "user")
        if content is None:
            return False
        uuid = nonempty_str(record.get("uuid")) or f"{acc.session_id}:line{line_no}"
        ts = iso_utc(record.get("timestamp"))
        side = acc.subagent or record.get("isSidechain") is True
        blocks: list[Any] = [{"type": "text", "text": content}] if isinstance(content, str) else content

        if record.get("isCompactSummary") is True:
            text = "\n\n".join(b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str))
            self._add(acc, Message("system", text, "summary", uuid, ts, sidechain=side))
            return True

        meta = record.get("isMeta") is True
        parts: list[tuple[str, str]] = []  # (kind, text) in block order
        for index, block in enumerate(blocks):
            if not isinstance(block, dict):
                self._bad_block(line_no, "user", block)
                continue
            btype = block.get("type")
            if btype == "tool_result":
                self._add_result(acc, block, uuid, index, ts, side)
            elif btype == "text" and isinstance(block.get("text"), str):
                command = None if meta else _slash_command(block["text"])
                if command is not None:
                    parts.append(("prompt", command))
                else:
                    parts += (
                        [("injected_context", block["text"])]
                        if meta
                        else classify_user_text(block["text"], INJECTED_PREFIXES)
                    )
            elif btype in ("image", "document"):
                parts.append(("prompt", f"[{btype}]"))
            else:
                self.unknown_blocks[_type_label(btype)] += 1
        self._add_user_text(acc, parts, uuid, ts, side)
        return True

    def _add_user_text(
        self, acc: _SessionAcc, parts: list[tuple[str, str]], uuid: str, ts: str | None, side: bool
    ) -> None:
        """One prompt and/or one injected-context message per line, in the order they appear."""
        prompt, injected = join_parts(parts)
        order = [k for k, t in parts if t.strip()]
        for kind in sorted(set(order), key=order.index):
            if kind == "prompt":
                self._add(acc, Message("user", prompt, "prompt", uuid, ts, sidechain=side))
            else:
                key = uuid + ":ctx" if prompt else uuid
                self._add(acc, Message("user", injected, "injected_context", key, ts, sidechain=side))

    def _add_result(
        self, acc: _SessionAcc, block: dict[str, Any], uuid: str, index: int, ts: str | None, side: bool
    ) -> None:
        tool_id = nonempty_str(block.get("tool_use_id"))
        text = preview = _result_text(block.get("content"))
        spilled = bool(tool_id) and "<persisted-output>" in text
        if spilled:
            main_sid = acc.parent or acc.session_id  # an undecided session: its own, for now
            text = _read_spill(self.main_dir / main_sid / "tool-results" / f"{tool_id}.txt") or text
        is_error = block.get("is_error") is True
        if is_error:
            text = "[error] " + text
        name = self.tool_names.pop(tool_id, None) if tool_id else None
        key = f"result:{tool_id}" if tool_id else f"{uuid}:{index}"
        message = Message("tool", text, "tool_result", key, ts, tool_name=name, sidechain=side)
        if first_sight(self.keys, message):
            if spilled and acc.session_id in self.undecided and self.folder_parent:
                self.spills.append((len(self.slots), f"{tool_id}.txt", preview, is_error))
            self.slots.append((acc.session_id, message))

    # -- assistant lines --

    def _assistant(self, line_no: int, record: dict[str, Any], acc: _SessionAcc) -> bool:
        content = self._content(line_no, record, "assistant")
        if content is None:
            return False
        message = record["message"]
        model = nonempty_str(message.get("model"))
        if model and model != SYNTHETIC_MODEL and model not in acc.models:
            acc.models.append(model)
        uuid = nonempty_str(record.get("uuid")) or f"{acc.session_id}:line{line_no}"
        ts = iso_utc(record.get("timestamp"))
        side = acc.subagent or record.get("isSidechain") is True
        msg_id = nonempty_str(message.get("id"))
        response = self._response(msg_id or uuid, acc.session_id, ts, side)
        self.last_response = response if msg_id else None
        blocks: list[Any] = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for index, block in enumerate(blocks):
            if not isinstance(block, dict):
                self._bad_block(line_no, "assistant", block)
                continue
            btype = block.get("type")
            if btype == "text" and isinstance(block.get("text"), str):
                if response is not None and block["text"].strip():
                    response.texts.append(block["text"])
            elif btype == "tool_use":
                self._add(acc, self._tool_call(block, f"{uuid}:{index}", ts, side))
            elif not isinstance(btype, str) or btype not in SKIPPED_BLOCKS:
                self.unknown_blocks[_type_label(btype)] += 1
        return True

    def _response(self, key: str, sid: str, ts: str | None, side: bool) -> _Response | None:
        """The response this line belongs to, placed in the order at its first line.

        None when another message already took the key (the line is then a duplicate).
        """
        response = self.responses.get(key)
        if response is None:
            if key in self.keys:
                return None
            response = self.responses[key] = _Response(key, sid, ts, side)
        if not response.placed:
            response.placed = True
            self.keys.add(key)
            self.slots.append((response.session_id, response))
        return response

    def _tool_call(self, block: dict[str, Any], fallback_key: str, ts: str | None, side: bool) -> Message:
        tool_id = nonempty_str(block.get("id"))
        name = nonempty_str(block.get("name"))
        tool_input = block.get("input")
        if tool_id and name:
            self.tool_names[tool_id] = name
        text = tool_call_text(name, tool_input, input_summary(tool_input, SUMMARY_KEYS))
        files = input_paths(tool_input, PATH_KEYS, lists=("edits",))  # MultiEdit names its files in edits
        return Message(
            "assistant",
            text,
            "tool_call",
            tool_id or fallback_key,
            ts,
            tool_name=name,
            tool_input=tool_input,
            files=files,
            sidechain=side,
        )

    # -- shared --

    def _content(self, line_no: int, record: dict[str, Any], rtype: str) -> str | list[Any] | None:
        message = record.get("message")
        if not isinstance(message, dict):
            self.problems.append(Problem(self.source, f"{rtype} line has no message object; skipped", line_no))
            return None
        content = message.get("content")
        if not isinstance(content, (str, list)):
            self.problems.append(Problem(self.source, f"{rtype} line has no message content; skipped", line_no))
            return None
        return content

    def _bad_block(self, line_no: int, rtype: str, block: Any) -> None:
        what = json_type_name(block)
        self.problems.append(
            Problem(
                self.source, f"{rtype} line has a content block that is a JSON {what}, not an object; skipped", line_no
            )
        )

    def _add(self, acc: _SessionAcc, message: Message) -> None:
        if first_sight(self.keys, message):
            self.slots.append((acc.session_id, message))

    # -- results --

    def sessions(self) -> list[Session]:
        """Sessions with messages from this parse, or whose facts changed since the last one."""
        self._decide_identities()
        self._apply_titles()
        by_session: dict[str, list[Message]] = {}
        for sid, slot in self.slots:
            message = _materialise(slot)
            if message is not None:
                by_session.setdefault(sid, []).append(message)
        out: list[Session] = []
        for sid, acc in self.accs.items():
            messages = by_session.get(sid, [])
            stamps = [t for t in (acc.started_at, acc.ended_at, *(m.timestamp for m in messages)) if t]
            if stamps:
                acc.started_at, acc.ended_at = min(stamps), max(stamps)
            changed = acc.emitted and acc.facts() != self.facts_before.get(sid)
            if not messages and not changed:
                continue
            acc.emitted = True
            out.append(
                Session(
                    agent=AGENT,
                    native_id=acc.native_id or sid,
                    messages=tuple(messages),
                    cwd=acc.cwd,
                    git_branch=acc.git_branch,
                    title=acc.title,
                    started_at=acc.started_at,
                    ended_at=acc.ended_at,
                    models=tuple(acc.models),
                    source_paths=(self.source,),
                    parent_native_id=acc.parent,
                    extra=self._extra(acc),
                )
            )
        return out

    def _apply_titles(self) -> None:
        """Title records go to their session; a `summary` has only a leafUuid (if anything)."""
        for sid, leaf, rtype, title in self.titles:
            owner = sid or (self.uuid_owner.get(leaf) if leaf else None) or self.primary
            if owner is not None:
                self._acc(owner).titles[rtype] = title

    def _extra(self, acc: _SessionAcc) -> dict[str, Any]:
        if not acc.subagent:
            return {}
        meta_path = self.path.with_suffix(".meta.json")
        try:
            meta = json.loads(read_regular(meta_path, MAX_SIDE_FILE_BYTES).decode("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            self.problems.append(Problem(str(meta_path), f"cannot read the subagent sidecar: {exc}"))
            return {}
        agent_type = meta.get("agentType") if isinstance(meta, dict) else None
        return {"agent_type": agent_type} if nonempty_str(agent_type) else {}

    def state(self) -> dict[str, Any]:
        """What the next parse needs to continue this one (merged into the resume point)."""
        return {
            "sessions": {sid: acc.to_json() for sid, acc in self.accs.items()},
            "tool_names": dict(list(self.tool_names.items())[-MAX_PENDING_TOOLS:]),
            "last_response": self.last_response.to_json() if self.last_response else None,
            "primary": self.primary,
        }

    def warnings(self) -> list[Problem]:
        return [
            *self.problems,
            *_skipped_types(self.source, self.unknown_types, "record"),
            *_skipped_types(self.source, self.unknown_blocks, "content block"),
        ]


def _slash_command(text: str) -> str | None:
    """A slash-command turn the person typed with arguments, as they typed it: "/review the auth module".

    `<command-name>/x</command-name>` (with `<command-message>` and `<command-args>`, in either order)
    is what the person typed; its expansion follows on a meta line. Without arguments it is a
    built-in like /clear or /model, which asks nothing: that stays context.
    """
    if not is_injected(text, ("<command-name>", "<command-message>")):
        return None
    name = COMMAND_NAME_RE.search(text)
    args = COMMAND_ARGS_RE.search(text)
    if name is None or args is None or not args.group(1).strip():
        return None
    command = name.group(1).strip()
    command = command if command.startswith("/") else f"/{command}"
    return f"{command} {args.group(1).strip()}"


def _materialise(slot: Message | _Response) -> Message | None:
    if isinstance(slot, Message):
        return slot
    if not slot.texts:  # thinking/tool-only response, or nothing new since the last parse
        return None
    return Message("assistant", slot.full_text, "response", slot.key, slot.timestamp, sidechain=slot.sidechain)


def _result_text(content: Any) -> str:
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
            if ptype == "text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif ptype in ("image", "document"):
                parts.append(f"[{ptype}]")  # never the base64 payload
    return "\n".join(parts)


def _read_spill(path: Path) -> str | None:
    """The full output of a large tool result, which the transcript only previews."""
    try:
        with open_regular(path) as fh:  # never a FIFO (it would wait for a writer) or a device
            return fh.read(4 * SPILL_MAX_CHARS).decode("utf-8", errors="replace")[:SPILL_MAX_CHARS]
    except OSError:
        return None
