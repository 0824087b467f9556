"""The data model every adapter produces and every other part consumes. Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from smriti.utf8 import encodes, utf8_text

ROLES = ("user", "assistant", "tool", "system")

# What a message is, independent of who said it. `injected_context` is text an agent (or smriti
# itself) pasted into the conversation: it is stored so `show` is faithful, but never indexed,
# so recall never feeds on its own output.
KINDS = ("prompt", "response", "tool_call", "tool_result", "summary", "injected_context")
UNINDEXED_KINDS = frozenset({"injected_context"})

# What a tool call does, whatever the agent calls its tool: Claude's `Edit`, Codex's `apply_patch` and
# Cline's `replace_in_file` are all an "edit". Adapters set `Message.action` from `tool_action`, and
# the digest reads the action, never a tool's name. "other" is a call none of these describe.
ACTIONS = ("edit", "write", "read", "shell", "search", "fetch", "task", "other")

# Every agent's tool names, lowercased, and the action each performs. One table: the adapters set
# actions from it, and messages stored before actions were (action NULL) are read back through it.
TOOL_ACTIONS: dict[str, str] = {
    **dict.fromkeys(
        (
            "bash",
            "shell",
            "local_shell",
            "local_shell_call",
            "shell_command",
            "container.exec",
            "exec",
            "exec_command",
            "execute",
            "execute_command",
            "command",
            "run_command",
            "run_shell_command",
            "run_in_terminal",
            "run_terminal_cmd",
            "terminal",
            "builtin_run_terminal_command",
        ),
        "shell",
    ),
    **dict.fromkeys(
        (
            "edit",
            "multiedit",
            "multi_edit",
            "notebookedit",
            "edit_file",
            "apply_patch",
            "applypatch",
            "apply_diff",
            "str_replace",
            "strreplace",
            "str_replace_editor",
            "str_replace_based_edit_tool",
            "replace",
            "replace_in_file",
            "replace_string_in_file",
            "search_replace",
            # multi-command editors ({"command": "str_replace" | "create" | "view", …}): mostly edits
            "editor",
            "text_editor",
            "code_action",  # Windsurf's edit step
            "editedexistingfile",  # Cline's UI record of an edit
        ),
        "edit",
    ),
    **dict.fromkeys(("write", "write_file", "write_to_file", "create_file", "create", "newfilecreated"), "write"),
    **dict.fromkeys(
        (
            "read",
            "read_file",
            "readfile",
            "read_many_files",
            "builtin_read_file",
            "view",
            "view_file",
            "cat",
            "open",
            "open_file",
            "notebookread",
        ),
        "read",
    ),
    **dict.fromkeys(
        (
            "grep",
            "grep_search",
            "glob",
            "ls",
            "find",
            "find_files",
            "file_search",
            "search",
            "search_files",
            "search_file_content",
            "codebase_search",
            "search_codebase",
            "list_dir",
            "list_directory",
            "list_files",
        ),
        "search",
    ),
    **dict.fromkeys(("webfetch", "web_fetch", "fetch", "websearch", "web_search", "google_web_search"), "fetch"),
    **dict.fromkeys(("task", "agent"), "task"),
}
# A tool the table does not name is still a shell when it runs a command and says so in its name
# (`mcp__box__exec_shell` with {"command": …}).
_SHELL_NAME_PARTS = ("shell", "bash", "terminal", "command", "exec")


def tool_action(tool_name: str | None, tool_input: Any = None) -> str:
    """The action (one of `ACTIONS`) of a call to the tool of this name with this input."""
    name = (tool_name or "").lower()
    action = TOOL_ACTIONS.get(name)
    if action is not None:
        return action
    if isinstance(tool_input, dict) and ("command" in tool_input or "cmd" in tool_input):
        if any(part in name for part in _SHELL_NAME_PARTS):
            return "shell"
    return "other"


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
    # What a tool call (and its result) does, one of ACTIONS. Derived from the tool's name and input
    # (`tool_action`) unless the adapter says otherwise; None for prose. Last, so that adapters
    # written before it existed keep working.
    action: str | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}")
        if self.action is None:
            if self.kind in ("tool_call", "tool_result"):
                # set once here, so adapters (third-party ones too) and rows stored before the action
                # column all get it the same way; frozen, hence object.__setattr__
                object.__setattr__(self, "action", tool_action(self.tool_name, self.tool_input))
        elif self.action not in ACTIONS:
            raise ValueError(f"unknown action {self.action!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its constructor's arguments: ingest's worker process sends thousands of messages,
        # and the slots dataclass default (fields() walked per object, both ways) costs 2-3x as much.
        # Its own class: an adapter's subclass of Message comes back as itself.
        return (type(self), _message_fields(self))

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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled as its fields, and its messages as theirs: ingest's worker process sends every
        # session it parses, and the parent then builds each message through its slots (0.7 µs)
        # instead of a constructor call from the pickle (2 µs, `__post_init__`'s checks again).
        return (
            _session_from_fields,
            (
                type(self),
                self.agent,
                self.native_id,
                [_message_fields(m) if type(m) is Message else m for m in self.messages],
                self.cwd,
                self.project,
                self.git_branch,
                self.git_remote,
                self.title,
                self.started_at,
                self.ended_at,
                self.models,
                self.source_paths,
                self.parent_native_id,
                self.extra,
            ),
        )


# A Message's fields in the order of its slots (and of its constructor's arguments). The setters are
# named one by one, and `_session_from_fields` calls them so, not in a loop over the slots: 0.4 µs
# less a message (a new field fails these unpackings at import, and the pickle round-trip test).
_message_fields = attrgetter(*Message.__slots__)
_new_object = object.__new__
(
    _set_role,
    _set_text,
    _set_kind,
    _set_key,
    _set_timestamp,
    _set_tool_name,
    _set_tool_input,
    _set_files,
    _set_sidechain,
    _set_action,
) = (Message.__dict__[name].__set__ for name in Message.__slots__)


def _session_from_fields(cls: type[Session], agent: str, native_id: str, messages: list[Any], *rest: Any) -> Session:
    """`Session.__reduce__`'s inverse. A message pickled as its fields was a Message that its own
    `__post_init__` had checked (and given its action) when it was made: its slots are set as they
    were, which gives an equal Message. One of a subclass was pickled as itself. `cls` is the
    session's class, built from Session's fields (a subclass adds none)."""
    built: list[Message] = []
    for item in messages:
        if type(item) is tuple:
            role, text, kind, key, timestamp, tool_name, tool_input, files, sidechain, action = item
            item = _new_object(Message)
            _set_role(item, role)
            _set_text(item, text)
            _set_kind(item, kind)
            _set_key(item, key)
            _set_timestamp(item, timestamp)
            _set_tool_name(item, tool_name)
            _set_tool_input(item, tool_input)
            _set_files(item, files)
            _set_sidechain(item, sidechain)
            _set_action(item, action)
        built.append(item)
    return cls(agent, native_id, tuple(built), *rest)


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


def _all_encode(value: Any) -> bool:
    """Whether every text in `value` (a string, or a tool's input of dicts, lists and tuples) can
    be written as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not encodes(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return True


def _storable(value: Any) -> Any:
    """`value` with each lone surrogate in its texts as its escape (`smriti.utf8`)."""
    if isinstance(value, str):
        return utf8_text(value)
    if isinstance(value, dict):
        return {_storable(k): _storable(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(map(_storable, value))
    return value


def _message_encodes(m: Message) -> bool:
    return _all_encode((m.text, m.timestamp, m.tool_name, m.files, m.tool_input))


def _storable_message(m: Message) -> Message:
    return Message(
        role=m.role,
        text=_storable(m.text),
        kind=m.kind,
        key=m.key,  # never stored as text: its hash takes any string
        timestamp=_storable(m.timestamp),
        tool_name=_storable(m.tool_name),
        tool_input=_storable(m.tool_input),
        files=_storable(m.files),
        sidechain=m.sidechain,
        action=m.action,
    )


_SESSION_TEXTS = (
    "agent",
    "native_id",
    "cwd",
    "project",
    "git_branch",
    "git_remote",
    "title",
    "started_at",
    "ended_at",
    "models",
    "source_paths",
    "parent_native_id",
)


def _storable_session(s: Session) -> Session:
    messages = s.messages
    # Column by column, so the usual all-ASCII session costs a few C loops, not a call per message.
    if (
        _all_encode([getattr(s, name) for name in _SESSION_TEXTS])
        and all(map(encodes, [m.text for m in messages]))
        and encodes("".join([m.timestamp or "" for m in messages]))  # short: one check of them all
        and encodes("".join([m.tool_name or "" for m in messages]))
        and _all_encode([m.files for m in messages if m.files])
        and _all_encode([m.tool_input for m in messages if m.tool_input is not None])
    ):
        return s
    messages = tuple(m if _message_encodes(m) else _storable_message(m) for m in messages)
    texts = {name: _storable(getattr(s, name)) for name in _SESSION_TEXTS}
    return Session(**texts, messages=messages, extra=s.extra)


def storable(result: ParseResult) -> ParseResult:
    """`result` with every text the store writes (or a problem prints) made writable as UTF-8: a
    lone surrogate (a JSON escape of half a pair, or a file name's undecodable byte) cannot be, and
    one in a single line would otherwise fail the write of everything around it. The same object
    when nothing needs it, which is almost always: ASCII text is checked in constant time."""
    problems = (*result.warnings, *result.errors)
    sessions = [_storable_session(s) for s in result.sessions]
    if all(a is b for a, b in zip(sessions, result.sessions, strict=True)) and _all_encode(
        [(p.path, p.error) for p in problems]
    ):
        return result

    def fixed(ps: list[Problem]) -> list[Problem]:
        return [Problem(_storable(p.path), _storable(p.error), p.line) for p in ps]

    return ParseResult(sessions, result.resume, fixed(result.warnings), fixed(result.errors))
