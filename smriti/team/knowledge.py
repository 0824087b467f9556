"""Knowledge files: render and parse the markdown + YAML frontmatter items of `.smriti/knowledge/`.

Pure: strings/bytes in, strings/bytes/paths out. Nothing here reads or writes a file, touches the
store, the index or git. The spec is DESIGN.md, "Knowledge files"; the decisions this module makes
on top of it are written down here, next to the code that carries them out.

Format (version 1), exactly as `render` writes it::

    ---
    smriti: 1
    id: "3f9a2c1e5b7d4a60"
    title: "Fix connection pool exhaustion under load"
    category: "bug/fix"
    tags: ["bug", "bug/fix", "postgres"]
    project: "payments-api"
    agent: "claude-code"
    session: "6c0e2a4e-…"
    author: "alice"
    created: "2026-11-20T10:31:00Z"
    shared: "2026-11-21T09:00:00Z"
    files: ["src/db/pool.py"]
    status: "active"
    supersedes: []
    content_hash: "sha256:…"
    ---
    <body: opaque markdown>

Decisions (the integrator of share/sync/check relies on them):

* Required: smriti, id, title, category, created (enough for a hand-written item). Optional:
  project, agent, session, author, shared, content_hash (None when absent); tags, files,
  supersedes (empty tuples) and status ("active").
* Keys always come in the order above. The optional string fields (project, agent, session,
  author, shared, content_hash) are *omitted* when None; an empty string means absent too and is
  normalised to None when the item is built. List fields and `status` are always written.
* Every string is double-quoted, on one line, never wrapped. Escaped: `"` and `\\`, every control
  character (C0, DEL, C1), the characters YAML treats as line breaks or BOM (U+0085, U+2028,
  U+2029, U+FEFF), the non-characters U+FFFE/U+FFFF, and the invisible bidi controls (U+061C,
  U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) so a reviewer sees them in the diff. Everything
  else (RTL letters, emoji, CJK …) is written as is.
* Single-line fields (everything but the body) cannot hold a line break (\\n, \\r, U+0085,
  U+2028, U+2029) or NUL: the item is rejected rather than silently changed. `clean_title`
  turns arbitrary text into an acceptable title for share.
* Reading uses a strict YAML loader that resolves *no* implicit types: every scalar is read as
  the literal text that was written (`id: 0123` is the string "0123", `title: no` is "no",
  an unquoted `created: 2026-11-20T10:31:00Z` is that string), then type-checked against the
  schema. Nothing can turn into a bool, number, date or object. Two exceptions, both for plain
  (unquoted) scalars only: `smriti` must be a plain decimal integer, and a plain empty value,
  `~` or `null` means "absent" (allowed for optional fields, "missing" for required ones).
* Rejected with a KnowledgeError: files over MAX_FILE_BYTES (checked before anything else), NUL
  bytes (binary), invalid UTF-8, a missing/unterminated frontmatter, YAML syntax errors, anchors,
  aliases, any explicit tag (`!!python/...`, `!x`, even `!!str`), `%` directives, merge keys
  (`<<`), duplicate keys, non-string keys, nesting deeper than MAX_YAML_DEPTH, more than one
  YAML document, raw tabs / BOMs / NEL, LS, PS characters in the frontmatter (smriti writes them
  as escapes; libyaml and PyYAML disagree about them raw), wrong types and invalid values, a
  format version other than 1.
* The YAML parser is libyaml's when PyYAML has it (every PyPI wheel does), else PyYAML's slower
  pure-Python parser (benchmarks/README.md, "Measurements moved out of docstrings"). Only the event
  parser is used (no composer, resolver or constructor). The two agree on everything smriti writes
  and, by the differential test, on hand-written YAML too, with one known exception: a block-scalar
  header directly followed by a comment (`title: |#x`) is refused by the pure-Python parser only.
* Unknown keys are ignored but reported (`parse_report(...).warnings`, rule "unknown-key"):
  forward compatibility for additive fields; breaking changes bump `smriti`, which is rejected.
  Unknown keys are not kept in the item, so re-rendering drops them.
* Line endings: CRLF and lone CR are normalised to LF before parsing (Windows checkouts with
  core.autocrlf), and the body's trailing newlines collapse to exactly one. content_hash is over
  the normalised body, so a CRLF checkout of an unedited file is not "edited". A leading UTF-8
  BOM is dropped. Everything else in the body is kept byte for byte: it is never re-split into
  messages, `---` lines and `**user**:` lines inside it are just text.
* status is one of "active" (default), "superseded" (a person marked it; normally supersession
  is said by the newer item's `supersedes`), "withdrawn" (kept in the repo but not recalled;
  `unshare` deletes the file instead). Anything else is rejected.
* `edited(item)` is True when the body no longer hashes to content_hash, and also when there is
  no content_hash at all (a hand-written item: the body is a person's, not smriti's).
* Item ids are 16 lowercase hex digits. `new_item_id(agent, native_session_id)` derives them
  deterministically so re-sharing a session finds the same item; `random_item_id()` is for
  items that come from no session.
* `item_path` is computed from immutable fields (category, created date, title, id) and is only
  the path for a *new* file: items are found by id, never by path.

YAML and python-frontmatter are imported lazily (first `parse`), so importing this module costs
nothing on the hook path (DESIGN: frontmatter must not be in sys.modules after a hook run).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import Any

from smriti.errors import InvalidInput

__all__ = [
    "FORMAT_VERSION",
    "KEYS",
    "MAX_FILE_BYTES",
    "STATUSES",
    "KnowledgeError",
    "KnowledgeWarning",
    "KnowledgeItem",
    "ParsedKnowledge",
    "render",
    "render_bytes",
    "parse",
    "parse_report",
    "body_hash",
    "normalize_body",
    "edited",
    "item_path",
    "slugify",
    "clean_title",
    "new_item",
    "new_item_id",
    "random_item_id",
    "utc_timestamp",
    "validate_category",
    "strict_handler",
]

FORMAT_VERSION = 1
MAX_FILE_BYTES = 256 * 1024  # whole file, checked before any decoding or YAML parsing
MAX_YAML_DEPTH = 8  # nesting of collections in the frontmatter (only unknown keys can nest)
MAX_TITLE_CHARS = 1000
MAX_FIELD_CHARS = 1000  # project, agent, session, author, each tag, each file
MAX_LIST_ITEMS = 1000  # tags, files, supersedes
MAX_CATEGORY_DEPTH = 4
MAX_CATEGORY_SEGMENT = 64
MAX_SLUG_CHARS = 50

STATUSES = ("active", "superseded", "withdrawn")

# Frontmatter keys in the order they are written. `body` is not a key.
KEYS = (
    "smriti",
    "id",
    "title",
    "category",
    "tags",
    "project",
    "agent",
    "session",
    "author",
    "created",
    "shared",
    "files",
    "status",
    "supersedes",
    "content_hash",
)
_REQUIRED = ("smriti", "id", "title", "category", "created")
_OPTIONAL_STR = ("project", "agent", "session", "author", "shared", "content_hash")
_LISTS = ("tags", "files", "supersedes")

_ID_RE = re.compile(r"[0-9a-f]{16}")
_HASH_RE = re.compile(r"sha256:[0-9a-f]{64}")
_TIMESTAMP_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")  # ASCII digits only
_SEGMENT_RE = re.compile(r"[a-z0-9][a-z0-9_-]*")
# Names Windows cannot create as a file or folder: a category segment must not be one.
_WINDOWS_RESERVED = frozenset(
    ["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(10)] + [f"lpt{i}" for i in range(10)]
)
_LINE_BREAKS = frozenset("\n\r\x85\u2028\u2029")
_NULL_WORDS = frozenset(["", "~", "null", "Null", "NULL"])


# --------------------------------------------------------------------------------------------
# Errors


class KnowledgeError(InvalidInput):
    """A knowledge file or item that smriti will not accept.

    `message` says what is wrong, `line` is the 1-based line in the file when known, `path` is the
    path given to `parse`, `rule` a short stable code for `smriti check` (e.g. "yaml-alias"),
    `field` the frontmatter key concerned, if any.
    """

    def __init__(
        self,
        message: str,
        line: int | None = None,
        *,
        path: str | None = None,
        rule: str = "invalid",
        field: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.path = path
        self.rule = rule
        self.field = field
        super().__init__(message)

    def __str__(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True, slots=True)
class KnowledgeWarning:
    """Something tolerated in a file (an unknown key), reported so `check` can show it."""

    message: str
    line: int | None = None
    path: str | None = None
    rule: str = "unknown-key"

    def __str__(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        return f"{where}: {self.message}" if where else self.message


def _fail(message: str, *, rule: str = "invalid-value", field: str | None = None) -> KnowledgeError:
    return KnowledgeError(message, rule=rule, field=field)


# --------------------------------------------------------------------------------------------
# The item


@dataclass(frozen=True, slots=True, kw_only=True)
class KnowledgeItem:
    """One knowledge file: the frontmatter fields in file order, then the body.

    List fields are stored as tuples (the item is frozen and hashable); lists are accepted and
    converted. Construction validates every field and raises KnowledgeError, so an item that
    exists can always be rendered (except when its file would exceed MAX_FILE_BYTES).
    """

    smriti: int = FORMAT_VERSION
    id: str
    title: str
    category: str
    tags: tuple[str, ...] = ()
    project: str | None = None
    agent: str | None = None
    session: str | None = None  # the agent's own (native) session id, preferably
    author: str | None = None
    created: str  # "YYYY-MM-DDTHH:MM:SSZ", UTC
    shared: str | None = None  # same format
    files: tuple[str, ...] = ()
    status: str = "active"
    supersedes: tuple[str, ...] = ()
    content_hash: str | None = None  # "sha256:<64 hex>" of the body as smriti wrote it
    body: str = field(default="", repr=False)

    def __post_init__(self) -> None:
        for name in _LISTS:
            value = getattr(self, name)
            if isinstance(value, (list, tuple)):
                object.__setattr__(self, name, tuple(value))
            else:
                raise _fail(f"{name} must be a list of strings", rule="wrong-type", field=name)
        for name in _OPTIONAL_STR:
            if getattr(self, name) == "":
                object.__setattr__(self, name, None)
        _validate(self)


def _validate(item: KnowledgeItem) -> None:
    if type(item.smriti) is not int:
        raise _fail("smriti (format version) must be an integer", rule="wrong-type", field="smriti")
    if item.smriti != FORMAT_VERSION:
        raise _fail(
            f"unsupported format version smriti: {item.smriti} (this smriti reads version "
            f"{FORMAT_VERSION}; upgrade smriti to read newer files)",
            rule="unsupported-version",
            field="smriti",
        )
    _check_id(item.id, "id")
    _check_line(item.title, "title", MAX_TITLE_CHARS)
    if not item.title.strip():
        raise _fail("title must not be blank", field="title")
    _check_category(item.category, "category")
    for name in ("project", "agent", "session", "author"):
        value = getattr(item, name)
        if value is not None:
            _check_line(value, name, MAX_FIELD_CHARS)
    _check_timestamp(item.created, "created")
    if item.shared is not None:
        _check_timestamp(item.shared, "shared")
    for name in ("tags", "files"):
        values = getattr(item, name)
        _check_list_len(values, name)
        for value in values:
            _check_line(value, name, MAX_FIELD_CHARS, what=f"each of {name}")
            if not value.strip():
                raise _fail(f"{name} must not contain blank entries", field=name)
    if not isinstance(item.status, str) or item.status not in STATUSES:
        raise _fail(f"status must be one of {', '.join(STATUSES)} (got {item.status!r})", field="status")
    _check_list_len(item.supersedes, "supersedes")
    for value in item.supersedes:
        _check_id(value, "supersedes", what="each of supersedes")
        if value == item.id:
            raise _fail("an item cannot supersede itself", field="supersedes")
    if item.content_hash is not None:
        if not isinstance(item.content_hash, str) or not _HASH_RE.fullmatch(item.content_hash):
            raise _fail(
                f'content_hash must look like "sha256:<64 lowercase hex digits>" (got {_show(item.content_hash)})',
                field="content_hash",
            )
    _check_body(item.body)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_str(value: Any, name: str, what: str | None = None) -> str:
    if not isinstance(value, str):
        raise _fail(f"{what or name} must be a string (got {_show(value)})", rule="wrong-type", field=name)
    return value


def _check_line(value: Any, name: str, limit: int, what: str | None = None) -> None:
    _check_str(value, name, what)
    label = what or name
    if len(value) > limit:
        raise _fail(f"{label} is longer than {limit} characters", field=name)
    if "\x00" in value:
        raise _fail(f"{label} must not contain a NUL character", field=name)
    if not _LINE_BREAKS.isdisjoint(value):
        raise _fail(f"{label} must be a single line (it contains a line break)", field=name)
    _check_encodable(value, label, name)


def _check_encodable(value: str, label: str, name: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(f"{label} is not valid unicode (it holds a lone surrogate)", field=name) from None


def _check_id(value: Any, name: str, what: str | None = None) -> None:
    _check_str(value, name, what)
    if not _ID_RE.fullmatch(value):
        raise _fail(f"{what or name} must be 16 lowercase hex digits (got {_show(value)})", field=name)


def _check_timestamp(value: Any, name: str) -> None:
    _check_str(value, name)
    if _TIMESTAMP_RE.fullmatch(value):
        try:  # what strptime("%Y-%m-%dT%H:%M:%SZ") accepts of fixed-width digits, at a tenth of its cost
            datetime(
                int(value[:4]),
                int(value[5:7]),
                int(value[8:10]),
                int(value[11:13]),
                int(value[14:16]),
                int(value[17:19]),
            )
            return
        except ValueError:
            pass
    raise _fail(f'{name} must be a UTC time written "YYYY-MM-DDTHH:MM:SSZ" (got {_show(value)})', field=name)


def _check_list_len(values: tuple[Any, ...], name: str) -> None:
    if len(values) > MAX_LIST_ITEMS:
        raise _fail(f"{name} has more than {MAX_LIST_ITEMS} entries", field=name)


def _check_category(value: Any, name: str = "category") -> None:
    _check_str(value, name)
    segments = value.split("/")
    problem = None
    if value.startswith("/"):
        problem = "must be relative (it starts with '/')"
    elif ".." in segments:
        problem = "must not contain '..'"
    elif len(segments) > MAX_CATEGORY_DEPTH:
        problem = f"has more than {MAX_CATEGORY_DEPTH} levels"
    else:
        for segment in segments:
            if not _SEGMENT_RE.fullmatch(segment) or len(segment) > MAX_CATEGORY_SEGMENT:
                problem = (
                    f"segment {segment!r} is not allowed: each segment is 1-{MAX_CATEGORY_SEGMENT} "
                    "of a-z 0-9 - _ starting with a letter or digit, segments joined by '/'"
                )
                break
            if segment in _WINDOWS_RESERVED:
                problem = f"segment {segment!r} is a reserved file name on Windows"
                break
    if problem:
        raise _fail(f"category {_show(value)} {problem}", field=name)


def validate_category(category: str) -> str:
    """Return `category` if it is a safe relative path of folder names, else raise KnowledgeError."""
    _check_category(category)
    return category


def _check_body(body: Any) -> None:
    if not isinstance(body, str):
        raise _fail("body must be a string", rule="wrong-type", field="body")
    if "\x00" in body:
        raise _fail("body must not contain NUL characters", rule="binary", field="body")
    if "\r" in body:
        raise _fail("body must use LF line endings only (use normalize_body)", field="body")
    if body and (not body.endswith("\n") or body.endswith("\n\n")):
        raise _fail("body must end with exactly one newline (use normalize_body)", field="body")
    _check_encodable(body, "body", "body")


# --------------------------------------------------------------------------------------------
# Small pure helpers


def normalize_body(text: str) -> str:
    """The body as smriti writes it: LF line endings, exactly one final newline ("" stays "")."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
    return text + "\n" if text else ""


def body_hash(body: str) -> str:
    """`sha256:<hex>` of the body's UTF-8 bytes, exactly as given (no normalisation)."""
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


def edited(item: KnowledgeItem) -> bool:
    """True when a person changed the body after smriti wrote it (or smriti never wrote it)."""
    return item.content_hash is None or body_hash(item.body) != item.content_hash


def new_item_id(agent: str, native_session_id: str, discriminator: str = "") -> str:
    """Deterministic id of the item shared from one agent session.

    sha256("smriti-knowledge\\0<agent>\\0<native_session_id>\\0<discriminator>"), first 16 hex.
    Re-sharing the same session (from any machine) gives the same id; `discriminator` tells apart
    several items deliberately shared from one session.
    """
    if not agent or not native_session_id:
        raise ValueError("new_item_id needs both the agent id and the agent's session id")
    seed = "\0".join(("smriti-knowledge", agent, native_session_id, discriminator))
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()[:16]


def random_item_id() -> str:
    """A fresh random id, for items that come from no session (written by hand, imported)."""
    return secrets.token_hex(8)


def utc_timestamp(value: str | datetime) -> str:
    """Normalise a time to the file format "YYYY-MM-DDTHH:MM:SSZ" (UTC, whole seconds).

    Accepts an aware datetime or an ISO-8601 string with an offset or "Z" (fractions are
    dropped). A naive datetime or a string without an offset is rejected: guessing the zone is
    how one teammate's "10:31" becomes another's.
    """
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise _fail(f"not an ISO-8601 time: {_show(value)}") from None
        value = parsed
    if value.tzinfo is None or value.utcoffset() is None:
        raise _fail(f"time without a UTC offset: {value.isoformat()}")
    u = value.astimezone(UTC)
    # not strftime: its %Y does not zero-pad years before 1000 on every platform
    return f"{u.year:04d}-{u.month:02d}-{u.day:02d}T{u.hour:02d}:{u.minute:02d}:{u.second:02d}Z"


_WS_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def clean_title(text: str, limit: int = 120) -> str:
    """A single-line, trimmed title from arbitrary text (e.g. a session's first prompt).

    Whitespace and control-character runs become one space; cut at `limit` characters (at a
    word boundary when one is near) with "…" appended. Returns "" for blank input.
    """
    text = _WS_OR_CONTROL.sub(" ", text).strip()
    text = "".join(ch for ch in text if not 0xD800 <= ord(ch) <= 0xDFFF)
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


def slugify(title: str, limit: int = MAX_SLUG_CHARS) -> str:
    """Lowercase ASCII words joined by '-', at most `limit` characters, never empty ("item")."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    if len(slug) > limit:
        cut = slug[:limit]
        # cut at a word boundary when the cut falls inside a word and that keeps half the slug
        if slug[limit] != "-":
            hyphen = cut.rfind("-")
            if hyphen >= limit // 2:
                cut = cut[:hyphen]
        slug = cut.strip("-")
    return slug or "item"


def item_path(item: KnowledgeItem) -> PurePosixPath:
    """Where a new file for `item` goes, relative to the repo's `.smriti/` folder:
    `knowledge/<category>/<YYYY-MM-DD>-<slug>-<id8>.md` (date of `created`).

    Only for the first share: an existing file for the same id keeps its path (it may have been
    moved in review; items are found by id).
    """
    _check_category(item.category)
    _check_id(item.id, "id")
    name = f"{item.created[:10]}-{slugify(item.title)}-{item.id[:8]}.md"
    return PurePosixPath("knowledge", *item.category.split("/"), name)


def new_item(
    *,
    title: str,
    category: str,
    body: str,
    created: str | datetime,
    agent: str | None = None,
    session: str | None = None,
    id: str | None = None,
    discriminator: str = "",
    shared: str | datetime | None = None,
    tags: Iterable[str] = (),
    project: str | None = None,
    author: str | None = None,
    files: Iterable[str] = (),
    status: str = "active",
    supersedes: Iterable[str] = (),
) -> KnowledgeItem:
    """Build an item the way share does: body normalised, content_hash computed, times in UTC,
    id derived from (agent, session, discriminator) unless given."""
    body = normalize_body(body)
    if id is None:
        if not agent or not session:
            raise _fail("an item needs an id: pass id= (random_item_id()) or agent and session", field="id")
        id = new_item_id(agent, session, discriminator)
    return KnowledgeItem(
        id=id,
        title=title,
        category=category,
        tags=tuple(tags),
        project=project,
        agent=agent,
        session=session,
        author=author,
        created=utc_timestamp(created),
        shared=None if shared is None else utc_timestamp(shared),
        files=tuple(files),
        status=status,
        supersedes=tuple(supersedes),
        content_hash=body_hash(body),
        body=body,
    )


# --------------------------------------------------------------------------------------------
# Rendering


_SHORT_ESCAPES = {"\\": "\\\\", '"': '\\"', "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_ESCAPE_RE = re.compile(
    '[\x00-\x1f\x7f-\x9f"\\\\\u2028\u2029\ufeff\ufffe\uffff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]'
)


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    short = _SHORT_ESCAPES.get(ch)
    if short:
        return short
    o = ord(ch)
    return f"\\x{o:02X}" if o <= 0xFF else f"\\u{o:04X}"


def _quote(value: str) -> str:
    return '"' + _ESCAPE_RE.sub(_escape, value) + '"'


def _flow_list(values: tuple[str, ...]) -> str:
    return "[" + ", ".join(_quote(v) for v in values) + "]"


def render(item: KnowledgeItem) -> str:
    """The file text smriti writes for `item`: deterministic, LF only, one final newline.

    Raises KnowledgeError (rule "too-large") when the file would exceed MAX_FILE_BYTES, since
    `parse` would refuse it. Write it as bytes (`render_bytes`) so no platform adds CRs.
    """
    _validate(item)  # a frozen item is valid, unless someone bypassed __init__
    lines = ["---", f"smriti: {item.smriti}"]
    for key in KEYS[1:]:
        value = getattr(item, key)
        if value is None:
            continue
        if isinstance(value, tuple):
            lines.append(f"{key}: {_flow_list(value)}")
        else:
            lines.append(f"{key}: {_quote(value)}")
    lines.append("---")
    text = "\n".join(lines) + "\n" + item.body
    size = len(text.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise KnowledgeError(
            f"the file would be {size} bytes, over the {MAX_FILE_BYTES}-byte limit: shorten the body",
            rule="too-large",
        )
    return text


def render_bytes(item: KnowledgeItem) -> bytes:
    """`render(item)` encoded as UTF-8: the exact bytes to write (compare them for 'unchanged')."""
    return render(item).encode("utf-8")


# --------------------------------------------------------------------------------------------
# Parsing


@dataclass(frozen=True, slots=True)
class ParsedKnowledge:
    item: KnowledgeItem
    warnings: tuple[KnowledgeWarning, ...] = ()


@dataclass(slots=True)
class _Node:
    kind: str  # "scalar" | "seq" | "map"
    value: Any  # str | list[_Node] | dict[str, tuple[_Node, int]]
    line: int  # 1-based, in the file
    plain: bool = False  # scalar written without quotes or block style


_OPEN_RE = re.compile(r"---[ \t]*\n")
_CLOSE_RE = re.compile(r"^---[ \t]*$\n?", re.MULTILINE)


def _decode(data: str | bytes, path: str | None) -> str:
    """Size cap, binary check, UTF-8 decoding, BOM and newline normalisation."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        if len(raw) > MAX_FILE_BYTES:
            raise KnowledgeError(
                f"file is {len(raw)} bytes, over the {MAX_FILE_BYTES}-byte limit",
                path=path,
                rule="too-large",
            )
        if b"\x00" in raw:
            raise KnowledgeError("binary file (it contains NUL bytes)", path=path, rule="binary")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise KnowledgeError(
                f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
                line,
                path=path,
                rule="encoding",
            ) from None
    elif isinstance(data, str):
        # a str of more than MAX characters is surely more than MAX bytes; else count exactly
        if len(data) > MAX_FILE_BYTES:
            raise KnowledgeError(f"file is over the {MAX_FILE_BYTES}-byte limit", path=path, rule="too-large")
        try:
            size = len(data.encode("utf-8"))
        except UnicodeEncodeError as exc:
            line = data[: exc.start].count("\n") + 1
            raise KnowledgeError(
                "not valid unicode (it holds a lone surrogate)", line, path=path, rule="encoding"
            ) from None
        if size > MAX_FILE_BYTES:
            raise KnowledgeError(
                f"file is {size} bytes, over the {MAX_FILE_BYTES}-byte limit",
                path=path,
                rule="too-large",
            )
        if "\x00" in data:
            raise KnowledgeError("binary file (it contains NUL characters)", path=path, rule="binary")
        text = data
    else:
        raise TypeError(f"parse() takes str or bytes, not {type(data).__name__}")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _split(text: str, path: str | None = None) -> tuple[str, str]:
    """(frontmatter, body) of normalised text. The frontmatter starts on file line 2."""
    if not _OPEN_RE.match(text):
        raise KnowledgeError(
            "not a knowledge file: it must start with a '---' line opening the YAML frontmatter",
            1,
            path=path,
            rule="no-frontmatter",
        )
    start = text.index("\n") + 1
    close = _CLOSE_RE.search(text, start)
    if close is None:
        raise KnowledgeError(
            "the frontmatter opened on line 1 is never closed by a '---' line",
            1,
            path=path,
            rule="no-frontmatter",
        )
    return text[start : close.start()], text[close.end() :]


def _yaml_error(exc: Exception, fm: str, path: str | None) -> KnowledgeError:
    import yaml

    line = None
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        if mark is not None:
            line = mark.line + 2
        parts = [p for p in (exc.context, exc.problem) if p]
        message = "; ".join(parts) or "invalid YAML"
    elif isinstance(exc, yaml.reader.ReaderError):
        line = fm[: max(exc.position, 0)].count("\n") + 2
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
        message = f"unprintable character U+{code:04X} (write it as an escape in a double-quoted string)"
    else:
        message = str(exc) or "invalid YAML"
    return KnowledgeError(f"YAML syntax error in the frontmatter: {message}", line, path=path, rule="yaml-syntax")


# "auto": libyaml's parser when PyYAML was built with it (about 10x faster, which sync of 10k
# files needs), else the pure-Python one. Both only produce events; tests run both on every
# fixture and on the round-trip property so they accept and reject the same files.
YAML_BACKEND = "auto"  # "auto" | "libyaml" | "python"
_PY_PARSER: Any = None


def _event_parser(fm: str) -> Any:
    """A YAML *event* parser over `fm`: no composer, resolver or constructor, so no implicit type
    and no object can come out of it."""
    global _PY_PARSER
    import yaml

    backend = YAML_BACKEND
    if backend == "auto":
        backend = "libyaml" if getattr(yaml, "__with_libyaml__", False) else "python"
    if backend == "libyaml":
        from yaml._yaml import CParser

        return CParser(fm)
    if _PY_PARSER is None:

        class _EventParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
            def __init__(self, stream: str) -> None:
                yaml.reader.Reader.__init__(self, stream)
                yaml.scanner.Scanner.__init__(self)
                yaml.parser.Parser.__init__(self)

        _PY_PARSER = _EventParser
    return _PY_PARSER(fm)


_RAW_REFUSED = {
    "\t": "tab (\\t)",
    "\x85": "NEL line break (U+0085)",
    "\u2028": "line separator (U+2028)",
    "\u2029": "paragraph separator (U+2029)",
    "\ufeff": "byte order mark (U+FEFF)",
}
_RAW_REFUSED_RE = re.compile("[" + "".join(_RAW_REFUSED) + "]")


def _load_nodes(fm: str, path: str | None = None) -> _Node:
    """Parse the frontmatter into _Nodes with a loader that constructs nothing: no implicit types,
    no anchors/aliases/tags/directives, no duplicate or merge keys, bounded depth."""
    import yaml
    from yaml import events as ev

    def err(message: str, event: Any, rule: str) -> KnowledgeError:
        return KnowledgeError(message, event.start_mark.line + 2, path=path, rule=rule)

    def node(loader: Any, depth: int) -> _Node:
        event = loader.get_event()
        line = event.start_mark.line + 2
        if isinstance(event, ev.AliasEvent):
            raise err(f"YAML aliases (*{event.anchor}) are not allowed", event, "yaml-alias")
        if getattr(event, "anchor", None) is not None:
            raise err(f"YAML anchors (&{event.anchor}) are not allowed", event, "yaml-anchor")
        if getattr(event, "tag", None) is not None:
            raise err(f"YAML tags ({event.tag}) are not allowed", event, "yaml-tag")
        if isinstance(event, ev.ScalarEvent):
            return _Node("scalar", event.value, line, plain=not event.style)  # None or ""
        if depth >= MAX_YAML_DEPTH:
            raise err(f"the frontmatter nests deeper than {MAX_YAML_DEPTH} levels", event, "yaml-depth")
        if isinstance(event, ev.SequenceStartEvent):
            items = []
            while not loader.check_event(ev.SequenceEndEvent):
                items.append(node(loader, depth + 1))
            loader.get_event()
            return _Node("seq", items, line)
        if isinstance(event, ev.MappingStartEvent):
            mapping: dict[str, tuple[_Node, int]] = {}
            while not loader.check_event(ev.MappingEndEvent):
                key_event = loader.peek_event()
                key = node(loader, depth + 1)
                if key.kind != "scalar":
                    raise err("mapping keys must be plain strings", key_event, "wrong-type")
                if key.plain and key.value == "<<":
                    raise err("YAML merge keys (<<) are not allowed", key_event, "yaml-merge")
                if key.value in mapping:
                    raise err(
                        f"duplicate key {key.value!r} (first on line {mapping[key.value][1]})",
                        key_event,
                        "duplicate-key",
                    )
                mapping[key.value] = (node(loader, depth + 1), key.line)
            loader.get_event()
            return _Node("map", mapping, line)
        raise err(f"unexpected YAML event {type(event).__name__}", event, "yaml-syntax")

    odd = _RAW_REFUSED_RE.search(fm)
    if odd:
        # libyaml and PyYAML disagree about these raw characters (tabs around plain scalars, BOMs
        # and the YAML 1.1 line breaks NEL/LS/PS inside the stream). smriti never writes them raw
        # (they are escapes inside quotes), so refusing them keeps every machine's verdict equal.
        raise KnowledgeError(
            f"raw {_RAW_REFUSED[odd.group()]} in the frontmatter (indent with spaces; write it as "
            'an escape inside a "double-quoted" string)',
            fm[: odd.start()].count("\n") + 2,
            path=path,
            rule="yaml-syntax",
        )
    loader = None
    try:
        loader = _event_parser(fm)  # the reader rejects unprintable characters here
        loader.get_event()  # StreamStart
        if loader.check_event(ev.StreamEndEvent):
            raise KnowledgeError("the frontmatter is empty", 2, path=path, rule="missing-field")
        start = loader.get_event()
        if not isinstance(start, ev.DocumentStartEvent):
            raise err("expected a YAML document", start, "yaml-syntax")
        if start.version is not None or start.tags:
            raise err("YAML directives (%YAML, %TAG) are not allowed", start, "yaml-tag")
        root = node(loader, 0)
        loader.get_event()  # DocumentEnd
        if not loader.check_event(ev.StreamEndEvent):
            raise err("the frontmatter must hold exactly one YAML document", loader.peek_event(), "yaml-syntax")
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, fm, path) from None
    except RecursionError:  # pragma: no cover - the depth bound should make this unreachable
        raise KnowledgeError("the frontmatter nests too deeply", path=path, rule="yaml-depth") from None
    finally:
        if loader is not None:
            loader.dispose()
    if root.kind != "map":
        raise KnowledgeError(
            "the frontmatter must be a mapping of keys to values", root.line, path=path, rule="wrong-type"
        )
    return root


# The frontmatter `render` writes, and nothing else: one `key: value` line per known key, each value
# `smriti: <digits>`, a double-quoted string with only `_quote`'s escapes, or a flow list of those.
# Such text is read without the YAML parser (sync reads thousands of files: the event loop above
# costs ~0.3 ms a file); anything else, hostile or hand-written, takes the full path. A raw
# character is one `_quote` leaves raw and YAML calls printable; a \u escape of a surrogate (which
# libyaml refuses) is not matched. tests/test_knowledge_fast.py holds the two paths equal.
_FAST_RAW = (
    '[^\x00-\x1f\x7f-\x9f"\\\\\u2028\u2029\ufeff\ufffe\uffff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]'
)
_FAST_QUOTED = '"(?:' + _FAST_RAW + r'|\\[\\"tnr]|\\x[0-9A-F]{2}|\\u(?!D[89AB])[0-9A-F]{4})*"'
_FAST_LINE = re.compile(
    "("
    + "|".join(KEYS)
    + r"): (?:([0-9]+)|("
    + _FAST_QUOTED
    + r")|\[((?:"
    + _FAST_QUOTED
    + "(?:, "
    + _FAST_QUOTED
    + r")*)?)\])\n"
)
_FAST_ITEM = re.compile(_FAST_QUOTED)
_FAST_ESCAPE = re.compile(r'\\(?:([\\"tnr])|x([0-9A-F]{2})|u([0-9A-F]{4}))')
_FAST_SHORT = {"\\": "\\", '"': '"', "t": "\t", "n": "\n", "r": "\r"}


def _fast_unescape(m: re.Match[str]) -> str:
    short, hex2, hex4 = m.groups()
    return _FAST_SHORT[short] if short else chr(int(hex2 or hex4, 16))


def _fast_string(quoted: str) -> str:
    inner = quoted[1:-1]
    return _FAST_ESCAPE.sub(_fast_unescape, inner) if "\\" in inner else inner


def _fast_nodes(fm: str) -> _Node | None:
    """`_load_nodes(fm)` for frontmatter as `render` writes it (see _FAST_LINE); None for any other."""
    mapping: dict[str, tuple[_Node, int]] = {}
    pos, line, end = 0, 2, len(fm)
    match = _FAST_LINE.match
    while pos < end:
        m = match(fm, pos)
        if m is None:
            return None
        key, digits, quoted, items = m.groups()
        if key in mapping:
            return None  # the full parser names the duplicate
        if digits is not None:
            node = _Node("scalar", digits, line, plain=True)
        elif quoted is not None:
            node = _Node("scalar", _fast_string(quoted), line)
        else:
            node = _Node("seq", [_Node("scalar", _fast_string(q), line) for q in _FAST_ITEM.findall(items or "")], line)
        mapping[key] = (node, line)
        pos = m.end()
        line += 1
    return _Node("map", mapping, 2) if mapping else None


def _plain_value(node: _Node) -> Any:
    if node.kind == "scalar":
        return node.value
    if node.kind == "seq":
        return [_plain_value(n) for n in node.value]
    return {k: _plain_value(v) for k, (v, _line) in node.value.items()}


def _field_values(
    mapping: dict[str, tuple[_Node, int]], path: str | None
) -> tuple[dict[str, Any], dict[str, int], list[KnowledgeWarning]]:
    values: dict[str, Any] = {}
    lines: dict[str, int] = {}
    warnings: list[KnowledgeWarning] = []

    def bad(key: str, message: str, line: int, rule: str = "wrong-type") -> KnowledgeError:
        return KnowledgeError(message, line, path=path, rule=rule, field=key)

    for key, (node, key_line) in mapping.items():
        if key not in KEYS:
            warnings.append(KnowledgeWarning(f"unknown key {key!r} ignored", key_line, path=path))
            continue
        lines[key] = key_line
        is_null = node.kind == "scalar" and node.plain and node.value in _NULL_WORDS
        if is_null:
            continue  # absent; a missing required field is reported below
        if key == "smriti":
            if node.kind != "scalar" or not node.plain or not re.fullmatch(r"[0-9]{1,6}", node.value):
                raise bad(key, "smriti (format version) must be an unquoted integer, e.g. smriti: 1", node.line)
            values[key] = int(node.value)
        elif key in _LISTS:
            if node.kind != "seq":
                raise bad(key, f'{key} must be a list, e.g. {key}: ["a", "b"]', node.line)
            items = []
            for child in node.value:
                if child.kind != "scalar":
                    raise bad(key, f"each of {key} must be a string, not a nested list or mapping", child.line)
                items.append(child.value)
            values[key] = tuple(items)
        else:
            if node.kind != "scalar":
                raise bad(key, f"{key} must be a string, not a list or mapping", node.line)
            values[key] = node.value
    for key in _REQUIRED:
        if key not in values:
            raise KnowledgeError(
                f"required field {key!r} is missing" + (" (it is empty)" if key in lines else ""),
                lines.get(key, 1),
                path=path,
                rule="missing-field",
                field=key,
            )
    return values, lines, warnings


# A whole file as `render` writes it, when no string in it needs an escape, in one match: every key
# in render's order (the optional ones may be missing), each value of the shape the checks of
# `_validate` accept (ids, category segments, times, status, hash). What a pattern cannot say (the
# lengths, blank titles and entries, Windows names, whether a time exists) `_rendered_item` checks.
# Sync reads thousands of such files; anything else (an escape, a hand-written or hostile file, a
# value that fails a check) takes the path through `_fast_nodes`/`_load_nodes` and `KnowledgeItem`,
# which decides and words every rejection. tests/test_knowledge_fast.py holds the two paths equal.
_R_STR = '"(' + _FAST_RAW + '*)"'
_R_LIST = r'\[((?:"' + _FAST_RAW + '*"(?:, "' + _FAST_RAW + r'*")*)?)\]'
_R_TIME = '"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)"'
_R_SEGMENT = "[a-z0-9][a-z0-9_-]{0," + str(MAX_CATEGORY_SEGMENT - 1) + "}"
_RENDERED = re.compile(
    r"---[ \t]*\n"
    f"smriti: {FORMAT_VERSION}\n"
    'id: "([0-9a-f]{16})"\n'
    f"title: {_R_STR}\n"
    f'category: "({_R_SEGMENT}(?:/{_R_SEGMENT}){{0,{MAX_CATEGORY_DEPTH - 1}}})"\n'
    f"tags: {_R_LIST}\n"
    f"(?:project: {_R_STR}\n)?"
    f"(?:agent: {_R_STR}\n)?"
    f"(?:session: {_R_STR}\n)?"
    f"(?:author: {_R_STR}\n)?"
    f"created: {_R_TIME}\n"
    f"(?:shared: {_R_TIME}\n)?"
    f"files: {_R_LIST}\n"
    f'status: "({"|".join(STATUSES)})"\n'
    r'supersedes: \[((?:"[0-9a-f]{16}"(?:, "[0-9a-f]{16}")*)?)\]\n'
    '(?:content_hash: "(sha256:[0-9a-f]{64})"\n)?'
    r"---[ \t]*(?:\n|\Z)"
)
_ITEM_FIELDS = tuple(f for f in KnowledgeItem.__dataclass_fields__)  # the slots, in field order


def _rendered_list(inner: str | None) -> tuple[str, ...]:
    # No entry holds a quote (the pattern's raw characters exclude it): '", "' only separates.
    return tuple(inner[1:-1].split('", "')) if inner else ()


def _fine_time(value: str) -> bool:
    try:  # _check_timestamp's test, once the pattern has matched
        datetime(
            int(value[:4]), int(value[5:7]), int(value[8:10]), int(value[11:13]), int(value[14:16]), int(value[17:19])
        )
        return True
    except ValueError:
        return False


def _rendered_item(text: str) -> KnowledgeItem | None:
    """The item of normalised file text as `render` writes it (see _RENDERED), built without
    `KnowledgeItem`'s checks, which it is known to pass; None when that is not known."""
    m = _RENDERED.match(text)
    if m is None:
        return None
    (item_id, title, category, tags, project, agent, session, author, created, shared, files, status, sup, chash) = (
        m.groups()
    )
    tags_t, files_t, sup_t = _rendered_list(tags), _rendered_list(files), _rendered_list(sup)
    if (
        len(title) > MAX_TITLE_CHARS
        or not title.strip()
        or not _WINDOWS_RESERVED.isdisjoint(category.split("/"))
        or not all(len(v) <= MAX_FIELD_CHARS for v in (project, agent, session, author) if v is not None)
        or not _fine_time(created)
        or (shared is not None and not _fine_time(shared))
        or item_id in sup_t
    ):
        return None
    for values in (tags_t, files_t):
        if len(values) > MAX_LIST_ITEMS or not all(len(v) <= MAX_FIELD_CHARS and v.strip() for v in values):
            return None
    if len(sup_t) > MAX_LIST_ITEMS:
        return None
    # The body as normalize_body makes it: the text holds no CR (_decode), so only the final newlines.
    body = text[m.end() :].rstrip("\n")
    item = object.__new__(KnowledgeItem)
    fields = (
        FORMAT_VERSION,
        item_id,
        title,
        category,
        tags_t,
        project or None,  # "" means absent, as __post_init__ has it
        agent or None,
        session or None,
        author or None,
        created,
        shared,
        files_t,
        status,
        sup_t,
        chash,
        body + "\n" if body else "",
    )
    for name, value in zip(_ITEM_FIELDS, fields, strict=True):
        object.__setattr__(item, name, value)
    return item


def parse_report(data: str | bytes, path: str | None = None) -> ParsedKnowledge:
    """Parse a knowledge file strictly; return the item and the warnings (unknown keys).

    Raises KnowledgeError (with `line` where known) for anything not accepted; never anything
    else for any str/bytes input.
    """
    text = _decode(data, path)
    fast = _rendered_item(text)
    if fast is not None:
        return ParsedKnowledge(fast)
    fm, body = _split(text, path)  # strict_handler().split without normalising the text again
    root = _fast_nodes(fm) or _load_nodes(fm, path)
    values, lines, warnings = _field_values(root.value, path)
    try:
        item = KnowledgeItem(body=normalize_body(body), **values)
    except KnowledgeError as exc:
        exc.path = path
        if exc.line is None and exc.field is not None:
            exc.line = lines.get(exc.field)
        raise
    return ParsedKnowledge(item, tuple(warnings))


def parse(data: str | bytes, path: str | None = None) -> KnowledgeItem:
    """Parse a knowledge file strictly (see parse_report); the item only."""
    return parse_report(data, path).item


_HANDLER: Any = None


def strict_handler() -> Any:
    """The python-frontmatter handler smriti reads with (created on first use, so importing this
    module does not import frontmatter or yaml).

    `split` is anchored at the start of the text and strict about the delimiters; `load` runs the
    strict loader and returns plain str/list/dict values (literal text, no implicit types).
    `frontmatter.loads(text, handler=strict_handler())` works, but strips the body, so smriti's
    own `parse` calls split/load directly and keeps the body byte for byte. `export` refuses:
    smriti writes with `render`.
    """
    global _HANDLER
    if _HANDLER is None:
        from frontmatter.default_handlers import BaseHandler

        class StrictYAMLHandler(BaseHandler):
            FM_BOUNDARY = re.compile(r"^---[ \t]*$", re.MULTILINE)
            START_DELIMITER = END_DELIMITER = "---"

            def detect(self, text: str) -> bool:
                return bool(_OPEN_RE.match(text.replace("\r\n", "\n")))

            def split(self, text: str, path: str | None = None) -> tuple[str, str]:
                return _split(text.replace("\r\n", "\n").replace("\r", "\n"), path)

            def load(self, fm: str, path: str | None = None) -> dict[str, Any]:
                return _plain_value(_load_nodes(fm, path))

            def export(self, metadata: dict[str, object], **kwargs: object) -> str:
                raise NotImplementedError("smriti writes knowledge files with smriti.team.knowledge.render")

        _HANDLER = StrictYAMLHandler()
    return _HANDLER
