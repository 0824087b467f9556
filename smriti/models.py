"""The data model every adapter produces and every other part consumes. Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ROLES = ("user", "assistant", "tool", "system")

# What a message is, independent of who said it. `injected_context` is text an agent (or smriti
# itself) pasted into the conversation: it is stored so `show` is faithful, but never indexed,
# so recall never feeds on its own output.
KINDS = ("prompt", "response", "tool_call", "tool_result", "summary", "injected_context")
UNINDEXED_KINDS = frozenset({"injected_context"})


@dataclass(frozen=True, slots=True)
class Message:
    role: str
    text: str
    kind: str
    # A key that names this message inside its agent, stable across re-reads of the source
    # (Claude's uuid, a tool_use id, "<thread>:<ordinal>" …). The store dedupes on it, which is
    # how replayed lines of resumed sessions are counted once.
    key: str
    timestamp: str | None = None  # ISO-8601 UTC ("…Z") or None when the agent wrote none
    tool_name: str | None = None
    tool_input: Any = None  # JSON-serialisable
    files: tuple[str, ...] = ()
    sidechain: bool = False

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}")

    @property
    def indexed(self) -> bool:
        return self.kind not in UNINDEXED_KINDS and bool(self.text.strip())


@dataclass(frozen=True, slots=True)
class Session:
    agent: str
    native_id: str
    messages: tuple[Message, ...] = ()
    cwd: str | None = None
    project: str | None = None  # filled in by ingest from the cwd (git root/remote), see project.py
    git_branch: str | None = None
    git_remote: str | None = None
    title: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    models: tuple[str, ...] = ()
    source_paths: tuple[str, ...] = ()
    parent_native_id: str | None = None  # subagent or fork: the agent's id of the parent session
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Problem:
    """One clear line about one bad piece of input: where, and what is wrong with it."""

    path: str
    error: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.error}"


@dataclass(frozen=True, slots=True)
class ParseResult:
    """What `Adapter.parse` returns.

    `resume` is the adapter's opaque, JSON-serialisable resume point: the next parse of the same
    source starts there, so an appended transcript is read from where it stopped. When resuming,
    `sessions` hold only what is new (the store merges by session and message key).
    `warnings` are tolerated oddities (an unknown record type, counted); `errors` are input the
    adapter could not read (a malformed line). Everything valid around an error is still returned.
    """

    sessions: list[Session] = field(default_factory=list)
    resume: Any = None
    warnings: list[Problem] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
