"""Small helpers every built-in adapter shares: one version of each, so a fix lands everywhere.

Pure and stdlib only, like the adapters themselves: values in, values out. The few that touch the
file system only read (the path they are given, or the environment for default locations); none
writes. Error texts are returned as strings: adapters wrap them in `Problem`s with their path and
line. The exceptions are the adapter-contract helpers at the end (the never-raise parse guard, the
cheap JSONL detect, the per-file parser base), which build `ParseResult`s and `Problem`s themselves.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any, Protocol, TypeGuard

from smriti.adapters._jsonl import (
    MAX_WHOLE_SOURCE_BYTES,
    JsonlRead,
    json_type_name,
    open_regular,
    oserror_text,
    read_regular,
)
from smriti.models import Message, ParseResult, Problem, Session, tool_action

Part = tuple[str, str]  # (message kind, text): "prompt" or "injected_context"

# --- plain values --------------------------------------------------------------------------------


def nonempty_str(value: Any) -> str | None:
    """A non-empty string field, or None for anything else (missing, "", another JSON type)."""
    return value if isinstance(value, str) and value else None


def as_dict(value: Any) -> dict[str, Any]:
    """The value when it is an object, else an empty one: absent and malformed read the same."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """The value when it is an array, else an empty one."""
    return value if isinstance(value, list) else []


def plural(count: int, noun: str) -> str:
    """Counts in warnings: "1 record", "3 records", "2 entries"."""
    if count == 1:
        return f"{count} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}s"


def compact_json(value: Any) -> str:
    """One-line JSON without spaces; anything JSON cannot encode becomes its str()."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def maybe_json(value: Any) -> Any:
    """A JSON document inside a string (tool args and results often are one), decoded; else as is."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def decode_arguments(raw: Any) -> Any:
    """OpenAI-style `arguments`: a JSON string decoded ("" is no arguments), kept whole when it is
    not JSON; any other value as is."""
    if isinstance(raw, str):
        try:
            return json.loads(raw) if raw.strip() else {}
        except ValueError:
            return {"arguments": raw}
    return raw


# A UUID: found in a text with `.search`/`.findall`, or the whole of it with `.fullmatch`.
UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def first_sight(keys: set[str], message: Message) -> bool:
    """Whether the message's key is new (and mark it seen): a key names one message however often it is read.

    Every adapter keeps messages through this, whatever it keeps them in."""
    if message.key in keys:
        return False
    keys.add(message.key)
    return True


def no_messages_error(found: str) -> str:
    """The error for a source that holds conversation but yielded no message: never silently empty.

    `found` says what was there: "1 session(s)", "2 sessions", "1 session (3 events)".
    """
    return f"found {found} but no messages: the format may have changed"


# --- times ---------------------------------------------------------------------------------------


# A stamp already in iso_utc's shape (Claude Code and Codex write theirs so): checked by one match
# and a parse, not rebuilt (half the time, on every message of every transcript).
_ISO_UTC_MS = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T(?:[01][0-9]|2[0-3]):[0-9]{2}:[0-9]{2}\.[0-9]{3}Z")


def iso_utc(value: Any, *, digit_strings: bool = False) -> str | None:
    """A time as ISO-8601 UTC with milliseconds and "Z" (2025-01-02T03:04:05.678Z), or None.

    One shape for every agent, so stamps sort as strings. Numbers are epoch seconds or milliseconds:
    a magnitude of 1e11 or more can only be ms (1e11 ms is 1973, 1e11 s the year 5138). An ISO
    string without a zone is UTC. With `digit_strings`, a string of digits is an epoch number too
    (databases that keep times in TEXT columns).
    """
    if isinstance(value, bool):  # JSON true/false: an int to Python, never a time
        return None
    try:
        if isinstance(value, (int, float)):
            dt = datetime.fromtimestamp(value / 1000 if abs(value) >= 1e11 else value, tz=UTC)
        elif isinstance(value, str) and value.strip():
            text = value.strip()
            if _ISO_UTC_MS.fullmatch(text):
                datetime.fromisoformat(text)  # a real date and time (no 31 February): else ValueError, None
                return text
            if digit_strings and text.isdigit():
                return iso_utc(int(text))
            dt = datetime.fromisoformat(text)  # Python 3.11 reads a trailing "Z" itself
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=UTC)
        else:
            return None
        return dt.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    except (ValueError, OverflowError, OSError):
        return None


# --- tool calls ----------------------------------------------------------------------------------

# Input keys that name a call best, in order, and keys that hold a file path. Adapters whose agents
# use other names (Gemini's `absolute_path`, Cursor's `target_file`, …) pass their own tuples.
SUMMARY_KEYS = ("command", "file_path", "path", "pattern", "url", "query", "description")
PATH_KEYS = ("file_path", "path", "notebook_path", "filePath")
SUMMARY_MAX = 500  # a tool call's text is one line: the full input stays in tool_input
OUTPUT_MAX = 200_000  # tool output and pasted context beyond this is cut


def input_summary(tool_input: Any, keys: Sequence[str] = SUMMARY_KEYS) -> str | None:
    """The first non-empty string among `keys` of a tool input: what a person would call the call."""
    if not isinstance(tool_input, dict):
        return None
    return next((tool_input[k] for k in keys if nonempty_str(tool_input.get(k))), None)


# What a search looked for: a search call's text leads with it ("Grep: ConnectionPool\( in src"), not
# with only where it looked ("Grep: src"), whichever key the adapter's summary picked.
SEARCH_TERM_KEYS = ("pattern", "query", "regex", "search_term", "q")


def tool_call_text(name: str | None, tool_input: Any, summary: str | None) -> str:
    """A tool call's one-line text, "<name>: <summary>" cut to SUMMARY_MAX characters.

    Without a summary the input itself stands in, as compact JSON; an unnamed tool is "tool". A
    search names its pattern first, then where it looked.
    """
    if summary is not None and isinstance(tool_input, dict) and tool_action(name, tool_input) == "search":
        term = next((tool_input[k].strip() for k in SEARCH_TERM_KEYS if nonempty_str(tool_input.get(k))), None)
        if term and term != summary.strip():
            summary = f"{term} in {summary}"
    return f"{name or 'tool'}: {(compact_json(tool_input) if summary is None else summary)[:SUMMARY_MAX]}"


def looks_like_path(value: Any) -> TypeGuard[str]:
    """Whether a tool-input value can be a file path: one non-blank line, not a URL, not huge."""
    return (
        isinstance(value, str)
        and bool(value.strip())
        and len(value) <= 1024
        and "\n" not in value
        and "\0" not in value
        and "://" not in value
    )


def input_paths(
    tool_input: Any,
    keys: Sequence[str] = PATH_KEYS,
    *,
    lists: Sequence[str] = (),
    item_keys: Sequence[str] = ("file_path",),
    strip: bool = False,
) -> tuple[str, ...]:
    """The files a tool call touches: path-like values of `keys`, first seen first, no repeats.

    `lists` names arrays of objects that each name a file (a multi-file edit's `edits`): the first
    set `item_keys` value of every item is a candidate too. `strip` trims candidates first, for
    inputs parsed out of text that keep the line breaks around a value.
    """
    if not isinstance(tool_input, dict):
        return ()
    candidates = [tool_input.get(k) for k in keys]
    for name in lists:
        for item in as_list(tool_input.get(name)):
            if isinstance(item, dict):
                candidates.append(next((item[k] for k in item_keys if item.get(k)), None))
    if strip:
        candidates = [c.strip() if isinstance(c, str) else c for c in candidates]
    return tuple(dict.fromkeys(c for c in candidates if looks_like_path(c)))


# Inline images in tool output (`data:image/png;base64,…`): never stored, only marked.
DATA_URL_RE = re.compile(r"data:image/[\w.+-]+;base64,[A-Za-z0-9+/=\s]{64,}")


def without_inline_images(text: str) -> str:
    """Tool output with every base64 data-URL image replaced by "[image]"."""
    return DATA_URL_RE.sub("[image]", text) if "base64," in text else text


# --- prompts and injected context ----------------------------------------------------------------

# smriti's own recall output, pasted into a prompt; an unclosed block runs to the end of the text.
SMRITI_CONTEXT_RE = re.compile(r"<smriti-context\b.*?(?:</smriti-context>|\Z)", re.DOTALL)
SMRITI_CONTEXT_OPEN = "<smriti-context"


def is_injected(text: str, prefixes: tuple[str, ...], *, ignore_case: bool = False) -> bool:
    """Whether a user text is something the agent pasted in: it starts with one of `prefixes`
    (`<environment_details>`, `<system-reminder>`, …). `ignore_case` wants lower-case prefixes."""
    head = text.lstrip()
    return (head.lower() if ignore_case else head).startswith(prefixes)


def split_smriti_context(text: str) -> list[Part]:
    """The text as ordered ("prompt", …) and ("injected_context", <smriti-context> block) parts.

    Prompt parts are stripped and empty parts dropped, so a text with no block is one stripped
    prompt (or nothing).
    """
    parts: list[Part] = []
    pos = 0
    for match in SMRITI_CONTEXT_RE.finditer(text):
        parts += [("prompt", text[pos : match.start()].strip()), ("injected_context", match.group())]
        pos = match.end()
    parts.append(("prompt", text[pos:].strip()))
    return [(k, t) for k, t in parts if t]


def strip_smriti_context(text: str) -> tuple[str, str]:
    """(the text without smriti's blocks, stripped; the blocks, joined by a blank line)."""
    blocks = [m.group() for m in SMRITI_CONTEXT_RE.finditer(text)]
    return SMRITI_CONTEXT_RE.sub("", text).strip(), "\n\n".join(blocks)


def classify_user_text(text: str, injected_prefixes: tuple[str, ...] = (), *, strip: bool = False) -> list[Part]:
    """One user text as ordered (kind, text) parts; a blank text yields none.

    All of it is injected context when it starts with one of `injected_prefixes`; otherwise it is
    the prompt, with smriti's blocks split out. A text without a block is kept as written unless
    `strip` (blocks or not, prompt parts are then stripped).
    """
    if is_injected(text, injected_prefixes):
        return [("injected_context", text)]
    if not strip and SMRITI_CONTEXT_OPEN not in text:
        return [("prompt", text)] if text.strip() else []
    return split_smriti_context(text)


def context_then_prompt(text: str, injected_prefixes: tuple[str, ...] = ()) -> list[Part]:
    """Like `classify_user_text`, but a prompt holding smriti blocks becomes at most two parts: the
    blocks as one injected context, then the prompt with the blocks cut out of it."""
    if SMRITI_CONTEXT_OPEN not in text or is_injected(text, injected_prefixes):
        return classify_user_text(text, injected_prefixes)
    prompt, context = strip_smriti_context(text)
    return [(k, t) for k, t in (("injected_context", context), ("prompt", prompt)) if t]


def join_parts(parts: Iterable[Part]) -> tuple[str, str]:
    """(prompt, injected context): the non-blank parts of each kind, joined by a blank line."""
    parts = list(parts)
    prompt = "\n\n".join(t for k, t in parts if k == "prompt" and t.strip())
    injected = "\n\n".join(t for k, t in parts if k == "injected_context" and t.strip())
    return prompt, injected


def user_messages(parts: Sequence[Part], key: str, ts: str | None = None) -> list[Message]:
    """A user turn's parts as at most two messages, in order: the prompt (`key`), the context (`key:ctx` beside one)."""
    prompt, injected = join_parts(parts)
    order = [k for k, t in parts if t.strip()]
    out: list[Message] = []
    for kind in sorted(set(order), key=order.index):
        if kind == "prompt":
            out.append(Message("user", prompt, "prompt", key, ts))
        else:
            out.append(Message("user", injected, "injected_context", f"{key}:ctx" if prompt else key, ts))
    return out


# --- whole-file JSON sources and side files ------------------------------------------------------


@dataclass(frozen=True)
class SourceKind:
    """How error messages name one kind of source file (each agent says it its own way)."""

    file: str  # "is a directory, not <file>": "a thread file"
    contents: str  # "empty file: no <contents>": "thread"
    document: str = "a JSON file"  # "invalid UTF-8 at byte 0: not <document>": "a JSON thread"
    mid_write: str = ""  # appended to a malformed-JSON error where files are rewritten in place
    missing: str | None = None  # the error for a missing file; else the OS error's own words


def read_source_bytes(path: Path, kind: SourceKind) -> tuple[bytes, str | None]:
    """A whole source file's bytes, or (b"", why not) when it is unreadable or blank."""
    try:
        raw = read_regular(path, MAX_WHOLE_SOURCE_BYTES)  # never a device or a FIFO, never past the cap
    except FileNotFoundError as exc:
        return b"", kind.missing or f"cannot read the file: {exc.strerror or exc}"
    except IsADirectoryError:
        return b"", f"is a directory, not {kind.file}"
    except PermissionError:
        return b"", "permission denied: cannot read the file"
    except OSError as exc:
        return b"", oserror_text(exc)
    if not raw.strip():
        return b"", f"empty file: no {kind.contents}"
    return raw, None


def load_json_file(path: Path, kind: SourceKind) -> tuple[Any, str | None]:
    """A whole-file JSON source: (its value, None), or (None, a clear message why it cannot be read)."""
    raw, error = read_source_bytes(path, kind)
    if error is not None:
        return None, error
    try:
        return json.loads(raw.decode("utf-8")), None
    except RecursionError:
        return None, "JSON nested too deeply to read"
    except UnicodeDecodeError as exc:
        return None, f"invalid UTF-8 at byte {exc.start}: not {kind.document}"
    except ValueError as exc:  # a JSONDecodeError, or e.g. an integer too long to convert
        where = f"{getattr(exc, 'msg', exc)} at line {getattr(exc, 'lineno', '?')}"
        return None, f"malformed JSON ({where}){kind.mid_write}"


def read_json_or_none(path: Path) -> Any:
    """A side file's JSON (an index, a workspace.json, a sidecar), or None when it is missing,
    unreadable or not JSON: side files only add facts, so their absence is never an error."""
    try:
        return json.loads(read_regular(path, MAX_WHOLE_SOURCE_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None


# --- SQLite sources ------------------------------------------------------------------------------

SQLITE_MAGIC = b"SQLite format 3\x00"
LOCK_RETRIES = 3


def is_sqlite(path: Path) -> bool:
    """Whether the file starts with SQLite's header; raises OSError when it cannot be read."""
    with open_regular(path) as fh:
        return fh.read(16) == SQLITE_MAGIC


def connect_read_only(path: Path) -> sqlite3.Connection:
    """The database opened read-only in place, retrying briefly while another process locks it.

    In place, not copied: the agent keeps it open in WAL mode, and a copy without its -wal file
    would miss the newest writes. Raises sqlite3.Error when it cannot be opened.
    """
    uri = path.resolve().as_uri() + "?mode=ro"
    for attempt in range(LOCK_RETRIES):
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=2.0)
            conn.execute("select count(*) from sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError as exc:
            if attempt + 1 < LOCK_RETRIES and ("locked" in str(exc) or "busy" in str(exc)):
                time.sleep(0.2 * (attempt + 1))
                continue
            raise
    raise sqlite3.OperationalError("database is locked")  # unreachable: the loop returns or raises


def table_names(conn: sqlite3.Connection) -> set[str]:
    """The database's tables: which era or kind of store it is."""
    return {row[0] for row in conn.execute("select name from sqlite_master where type = 'table'")}


# --- locations -----------------------------------------------------------------------------------


def home_dir() -> Path:
    """The user's home, from HOME first (tests and sandboxes point it elsewhere)."""
    return Path(os.environ.get("HOME") or Path.home())


def editor_user_dirs(home: Path, editors: Sequence[str], servers: Sequence[str] = ()) -> list[Path]:
    """The `User` folders of VS Code-family editors, whether or not they exist: Linux, macOS, the
    remote-server data dirs, then Windows %APPDATA% when it is set."""
    dirs = [home / ".config" / e / "User" for e in editors]
    dirs += [home / "Library" / "Application Support" / e / "User" for e in editors]
    dirs += [home / server / "data" / "User" for server in servers]
    appdata = os.environ.get("APPDATA")
    if appdata:
        dirs += [Path(appdata) / e / "User" for e in editors]
    return dirs


def child_path(folder: Path) -> Callable[[str], Path]:
    """A function making `folder / name` for names listed in folder (one part each, no separator).

    pathlib's own glob makes its results with `_make_child_relpath` (CPython up to 3.12), a
    sixth of the cost of `/`, which parses its argument: a walk over thousands of transcripts
    pays for it per file. Where that method is missing (3.13 on) this is plain `/`.
    """
    make = getattr(folder, "_make_child_relpath", None)
    return make if make is not None else folder.joinpath


def existing_dirs(candidates: Iterable[Path]) -> list[Path]:
    """The candidates that are folders, in order, each once even when reached through a link."""
    roots: list[Path] = []
    seen: set[Path] = set()
    for candidate in candidates:
        try:
            if not candidate.is_dir():
                continue
            resolved = candidate.resolve()
        except OSError:
            continue
        if resolved not in seen:
            seen.add(resolved)
            roots.append(candidate)
    return roots


# --- the adapter contract: parse never raises, detect is a cheap sniff ----------------------------

SNIFF_BYTES = 4096  # what a sniff reads of a file
DETECT_FILES = 5  # a folder is sniffed through its first few sources only: detect must be cheap


def guarded_parse(
    parse: Callable[[Path, Any], ParseResult], path: Path, resume: Any, error: str = "session could not be read"
) -> ParseResult:
    """`parse(path, resume)` with any exception turned into one error: the contract says parse never raises."""
    try:
        return parse(path, resume)
    except Exception as exc:  # defensive: parse must never raise
        return ParseResult(errors=[Problem(str(path), f"{error} ({type(exc).__name__}: {exc})")])


def first_json_line(path: Path, *, strict: bool = True, limit: int = SNIFF_BYTES) -> Any:
    """A file's first line as JSON, None when it is not: what a JSONL sniff looks at (OSError propagates)."""
    with open_regular(path) as fh:
        head = fh.read(limit).split(b"\n", 1)[0]
    try:
        return json.loads(head, strict=strict)  # strict=False: raw control characters inside strings
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None


def detect_jsonl(
    path: Path,
    home: tuple[str, ...],
    discover: Callable[[Path], Iterable[Path]],
    sniff: Callable[[Path], bool],
    *,
    files: int = DETECT_FILES,
) -> bool:
    """`detect` for agents with one JSONL file a session: their home folder, or what sniffs as theirs; never raises."""
    try:
        if path.is_dir():  # `home`: the folder's last parts, e.g. (".factory", "sessions")
            return path.parts[-len(home) :] == home or any(sniff(f) for f in islice(discover(path), files))
        return path.suffix == ".jsonl" and sniff(path)
    except Exception:  # a sniff must never raise
        return False


# --- per-file parsers ----------------------------------------------------------------------------


def type_label(value: Any) -> str:
    """An unknown type or role as a warning names it: its repr cut to 60 characters, "None" when missing."""
    return "None" if value is None else repr(value)[:60]


class _Facts(Protocol):
    emitted: bool

    def facts(self) -> tuple[Any, ...]: ...


def emit_due(state: _Facts, messages: Sequence[Message], facts_before: tuple[Any, ...] | None) -> bool:
    """Whether a read returns its session (new messages, or facts changed since it was returned); marks it emitted."""
    changed = facts_before is not None and state.facts() != facts_before
    if not messages and not changed:
        return False
    state.emitted = True
    return True


class FileParser:
    """Base of the per-file parsers: messages kept once per key, problems tied to the file's path."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.p = str(path)
        self.messages: list[Message] = []
        self.keys: set[str] = set()
        self.problems: list[Problem] = []
        self.unknown_blocks: Counter[str] = Counter()

    def _add(self, message: Message) -> None:
        """Keep a message unless its key was seen: a key names one message however often it is read."""
        if first_sight(self.keys, message):
            self.messages.append(message)

    def _assistant_blocks(
        self,
        line_no: int,
        blocks: list[Any],
        key: str,
        ts: str | None,
        *,
        call_type: str,
        tool_call: Callable[[dict[str, Any], str], Message],
        skipped: frozenset[str],
    ) -> None:
        """An assistant turn of Anthropic-style content blocks: its text blocks as one response (`key`),
        then a call for every `call_type` block (`tool_call(block, "<key>:<index>")`, the fallback key).
        Other blocks are counted as unknown, unless their type is in `skipped` (reasoning)."""
        texts: list[str] = []
        calls: list[Message] = []
        for index, block in enumerate(blocks):
            if not isinstance(block, dict):
                self._bad_block(line_no, "assistant", block)
                continue
            btype = block.get("type")
            if btype == "text" and isinstance(block.get("text"), str):
                if block["text"].strip():
                    texts.append(block["text"].strip())
            elif btype == call_type:
                calls.append(tool_call(block, f"{key}:{index}"))
            elif not isinstance(btype, str) or btype not in skipped:
                self.unknown_blocks[type_label(btype)] += 1
        if texts:
            self._add(Message("assistant", "\n\n".join(texts), "response", key, ts))
        for call in calls:
            self._add(call)

    def _guarded(self, what: str, line_no: int | None, feed: Callable[..., None], *args: Any) -> None:
        """`feed(*args)`, an exception becoming a "could not be read" warning: one odd record never stops a file."""
        try:
            feed(*args)
        except Exception as exc:  # one odd record must never stop the file
            self.problems.append(
                Problem(self.p, f"{what} could not be read ({type(exc).__name__}: {exc}); skipped", line_no)
            )

    def _bad_block(self, line_no: int, role: str, block: Any) -> None:
        """A content block that is not an object: a warning, and the block is skipped (never fatal)."""
        self.problems.append(
            Problem(
                self.p,
                f"{role} message has a content block that is a JSON {json_type_name(block)}, not an object; skipped",
                line_no,
            )
        )

    def _skipped_types(self, counts: Counter[str], noun: str) -> list[Problem]:
        """One warning per unknown type counted: "skipped 2 lines of unknown type 'x'" (or "… with no type")."""
        out: list[Problem] = []
        for label, n in counts.items():
            what = "with no type" if label == "None" else f"of unknown type {label}"
            out.append(Problem(self.p, f"skipped {plural(n, noun)} {what}"))
        return out


class _State(Protocol):
    def to_json(self) -> dict[str, Any]: ...


def resumed(resume: Any, read: JsonlRead) -> bool:
    """Whether a JSONL read went on from `resume` (a resume point that was still valid), not from the start."""
    return isinstance(resume, dict) and isinstance(resume.get("offset"), int) and not read.restarted


class JsonlFileParser(FileParser):
    """Base of the parsers of a JSONL transcript with one session a file: what a read of it returns."""

    state: _State  # the resume state, saved in the resume point

    def sessions(self) -> list[Session]:
        raise NotImplementedError

    def warnings(self) -> list[Problem]:
        raise NotImplementedError

    def result(self, read: JsonlRead, *, resuming: bool, found: str | None) -> ParseResult:
        """The ParseResult of a read; `found` says what conversation the file held ("1 session (3
        steps)", None: none), and a file read from the start that held some but yielded no message
        is an error."""
        sessions = self.sessions()
        errors = list(read.errors)
        if not resuming and found is not None and not any(s.messages for s in sessions):
            errors.append(Problem(self.p, no_messages_error(found)))
        return ParseResult(
            sessions=sessions,
            resume=read.resume_point(**self.state.to_json()),
            warnings=[*read.warnings, *self.warnings()],
            errors=errors,
        )
