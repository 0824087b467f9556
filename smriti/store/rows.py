"""Typed rows: what the store's readers return (no SQL).

Named tuples, not dataclasses: every `smriti search` process builds a few rows, and importing
`dataclasses` (it imports `inspect`, `ast`, `dis`, `tokenize`) and generating each class's methods
cost that short-lived process about as much as its search. A field's value is read by name; a row
is immutable, compares field by field, and is copied with `row._replace(...)`."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, NamedTuple

    from smriti.models import Message
else:
    from smriti.records import NamedTuple  # typing.NamedTuple's classes, without importing typing


class SourceState(NamedTuple):
    path: str
    agent: str
    size: int
    mtime_ns: int
    inode: int | None
    resume: Any
    sessions: list[str]


class SourceFingerprint(NamedTuple):
    """What a no-op ingest compares a source with: its state without the resume point, and its
    sessions counted, not listed."""

    path: str
    agent: str
    size: int
    mtime_ns: int
    inode: int | None
    sessions: int


class SessionRow(NamedTuple):
    rowid: int
    session_id: str
    agent: str
    native_id: str
    project: str | None
    project_name: str | None
    cwd: str | None
    git_branch: str | None
    agent_title: str | None  # the title the agent stored (user-set or the agent's own summary)
    started_at: str | None
    ended_at: str | None
    models: list[str]
    source_paths: list[str]
    parent_native_id: str | None
    category: str | None
    message_count: int
    digest_title: str | None = None  # smriti's, distilled from the first real request

    @property
    def title(self) -> str | None:
        """What a person sees: the agent's title when it has one, else smriti's distilled one."""
        return self.agent_title or self.digest_title

    def to_json(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "native_id": self.native_id,
            "agent": self.agent,
            "project": self.project_name,
            "project_key": self.project,
            "title": self.title,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "messages": self.message_count,
            "category": self.category or "uncategorized",
            "cwd": self.cwd,
            "git_branch": self.git_branch,
            "models": self.models,
            "parent_native_id": self.parent_native_id,
            "source_paths": self.source_paths,
        }


class MessageRow(NamedTuple):
    rowid: int
    session_rowid: int
    seq: int
    role: str
    kind: str
    text: str
    timestamp: str | None
    tool_name: str | None
    tool_input: Any
    files: list[str]
    sidechain: bool
    action: str | None = None  # NULL for prose and rows stored before actions were (migration m007)

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "role": self.role,
            "kind": self.kind,
            "text": self.text,
            "timestamp": self.timestamp,
            "tool_name": self.tool_name,
            "tool_input": self.tool_input,
            "files": self.files,
            "sidechain": self.sidechain,
        }

    def to_message(self) -> Message:
        """The row as the model's Message (keyed by its rowid), for code that reads stored sessions
        back through what adapters produce: the digest, share."""
        from smriti.models import ACTIONS, Message  # the models' dataclasses: not on a search's path

        return Message(
            role=self.role,
            text=self.text,
            kind=self.kind,
            key=str(self.rowid),
            timestamp=self.timestamp,
            tool_name=self.tool_name,
            tool_input=self.tool_input,
            files=tuple(self.files),
            sidechain=self.sidechain,
            action=self.action if self.action in ACTIONS else None,  # None (an older row): derived from the tool
        )


class WriteResult(NamedTuple):
    session_rowid: int
    session_id: str
    added: int
    updated: int
    created: bool
    # A new session whose messages were all new: its stored rows, exactly as `messages()` would
    # read them back (same ids, order and decoded JSON), so enrichment need not query them again.
    # None whenever anything else happened (an append, a replay, an update): then read them back.
    stored: WrittenRows | None = None
    # A session this write made: its row as `session_row` reads it back (no category or digest
    # yet), from the values just bound. None for a session that was stored before.
    row: SessionRow | None = None


class WrittenRows:
    """The rows one write just inserted, as `messages()` would read them back, built on first use:
    enrichment that takes the ingest worker's digest needs only their count and last id, and
    building the rows (each tool input's JSON decoded again) was a tenth of writing them."""

    __slots__ = ("_build", "_rows", "count", "last_rowid")

    def __init__(self, count: int, last_rowid: int, build: Callable[[], list[MessageRow]]) -> None:
        self.count = count
        self.last_rowid = last_rowid
        self._build: Callable[[], list[MessageRow]] | None = build
        self._rows: list[MessageRow] | None = None

    def rows(self) -> list[MessageRow]:
        if self._rows is None:
            assert self._build is not None
            self._rows, self._build = self._build(), None
        return self._rows

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[MessageRow]:
        return iter(self.rows())


# A long turn (one prompt, a hundred tool calls) is cut into passages of this many messages.
PASSAGE_MESSAGES = 10


class IndexDoc(NamedTuple):
    """What the index needs of one document: a message (joined with its session), a session's
    digest (message_rowid = -session rowid) or a knowledge item (knowledge_rowid set)."""

    message_rowid: int
    session_rowid: int
    text: str
    role: str
    kind: str
    timestamp: str | None
    agent: str
    project: str | None
    category: str | None
    knowledge_rowid: int = 0
    status: str = "active"
    # The passage a message belongs to: the seq of the first message of its window of a user turn
    # (a turn is a prompt and everything up to the next prompt; long turns are cut every
    # PASSAGE_MESSAGES messages). Recall ranks a session by its best passages.
    passage: int = 0


# A message as the index reads it (`Store.message_doc_rows`), the fields of its IndexDoc as a plain
# tuple: (message rowid, session rowid, text, role, kind, timestamp, agent, project, category, passage).
MessageDocRow = tuple[int, int, str, str, str, str | None, str, str | None, str | None, int]


class KnowledgeRow(NamedTuple):
    """A team knowledge item as the store holds it (see smriti.team.knowledge for the file format)."""

    id: str  # the item's 16-hex id from its frontmatter
    title: str
    category: str
    tags: list[str]
    project: str | None
    agent: str | None
    session: str | None  # the agent's own id of the session it came from
    author: str | None
    created: str
    shared: str | None
    files: list[str]
    status: str  # active | superseded | withdrawn
    supersedes: list[str]
    content_hash: str | None
    body: str
    origin: str  # 'sync' | 'share'
    repo: str | None  # the project key of the repo it was shared into
    path: str | None  # the file, relative to that repo's root
    rowid: int
    # git's author ("Name <email>") of the commit that added or last changed the synced file: the
    # author to show; `author` is what the file claims
    committed_by: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Every field but the store's own rowid, in frontmatter order."""
        return {
            "id": self.id,
            "title": self.title,
            "category": self.category,
            "tags": self.tags,
            "project": self.project,
            "agent": self.agent,
            "session": self.session,
            "author": self.author,
            "created": self.created,
            "shared": self.shared,
            "files": self.files,
            "status": self.status,
            "supersedes": self.supersedes,
            "content_hash": self.content_hash,
            "body": self.body,
            "origin": self.origin,
            "repo": self.repo,
            "path": self.path,
            "committed_by": self.committed_by,
        }
