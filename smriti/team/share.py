"""Share: turn stored sessions into redacted knowledge files in a repo's `.smriti/knowledge/`.

One file per item at `knowledge/<category>/<date>-<slug>-<id8>.md`, fixed at first share; an item
is found again by its id wherever a reviewer moved it. Re-sharing unchanged content changes no
byte; a file a person edited is never overwritten unless `refresh`. Everything written passes
redaction first and an item with a residual finding is skipped with the reason (fail closed).
"""

from __future__ import annotations

import bisect
import dataclasses
import fcntl
import hashlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache, lru_cache
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlparse

from rapidfuzz import fuzz, process

from smriti import project as projects
from smriti.errors import InvalidInput, SmritiError
from smriti.recall import fence
from smriti.search import category_filter, parse_since, project_keys
from smriti.store import MessageRow, SessionRow, Store
from smriti.team import gate, knowledge, redact
from smriti.team.config import TeamConfig, load_team_config
from smriti.team.git import KNOWLEDGE_DIR, user_name
from smriti.team.knowledge import KnowledgeError, KnowledgeItem

MAX_MESSAGE_CHARS = 4000  # per message in a condensed transcript: knowledge files stay small
MAX_BODY_CHARS = 200_000  # under knowledge.MAX_FILE_BYTES with room for the frontmatter
PROPOSE_SUPERSEDE_AT = 85  # rapidfuzz token_set_ratio of titles, same project and category
# Message kinds whose text reaches a knowledge file (tool results only with transcript "full").
_REDACTED_KINDS = frozenset({"prompt", "response", "summary", "tool_call"})
_ID_LINE = re.compile(rb'^id:\s*"?([0-9a-f]{16})"?\s*$', re.MULTILINE)


@dataclass
class ShareResult:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    proposed_supersedes: list[dict[str, Any]] = field(default_factory=list)
    dry_run: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "written": self.written,
            "unchanged": self.unchanged,
            "skipped": self.skipped,
            "proposed_supersedes": self.proposed_supersedes,
            "dry_run": self.dry_run,
        }


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# --- how a transcript shows tool calls and files (shared files and `smriti show`) ----------------

# The input keys that say what a call was about, per action, in order; the first one set leads.
_SUBJECT_KEYS: dict[str, tuple[str, ...]] = {
    "shell": ("command", "cmd", "args"),
    "search": ("pattern", "query", "regex", "glob", "search_term", "q", "name"),
    "read": ("file_path", "path", "filePath", "target_file", "absolute_path", "notebook_path", "file", "url", "args"),
    "edit": ("file_path", "path", "filePath", "target_file", "TargetFile", "notebook_path", "file", "args"),
    "write": ("file_path", "path", "filePath", "target_file", "TargetFile", "file", "args"),
    "fetch": ("url", "query", "q", "args"),
    "task": ("description", "prompt", "task", "subagent_type"),
}
_ANY_SUBJECT = ("command", "file_path", "path", "pattern", "query", "url", "description", "prompt", "name", "args")
# Where a search looked: shown after its pattern ("Grep: ConnectionPool\( in src").
_WHERE_KEYS = (
    "path",
    "include",
    "glob",
    "search_path",
    "search_directory",
    "directory",
    "dir_path",
    "target_directories",
)
SUMMARY_CHARS = 300


def _scalar(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return " ".join(value)  # an argv list (["bash", "-lc", "make"]) or several paths
    return None


def call_summary(
    name: str | None, tool_input: Any, action: str | None, fallback: str = "", *, typed: bool = False
) -> str:
    r"""A tool call as one readable line: its name and what it was about, e.g. `Grep: ConnectionPool\(
    in src`, `Glob: **/*.py`, `Bash: pytest -q`. The agent's own line (`fallback`) when the input
    says nothing more, or when the person `typed` the call (Aider's `/run make`: shown as typed).
    Never cut here: callers redact first, then cut."""
    label = name or "tool"
    if typed and fallback:
        return fallback
    if not isinstance(tool_input, dict) or not tool_input:
        return fallback or label
    own = _SUBJECT_KEYS.get(action or "", ())
    found = next(((k, v) for k in own + _ANY_SUBJECT if (v := _scalar(tool_input.get(k))) is not None), None)
    if found is None:
        return fallback or f"{label}: " + ", ".join(
            f"{k}={v}" for k, v in tool_input.items() if isinstance(v, (str, int, float, bool)) and str(v).strip()
        )
    key, subject = found[0], _local(found[1])
    if action == "search" and key in own:  # a pattern: say where it was looked for
        where = next((w for k in _WHERE_KEYS if (w := _scalar(tool_input.get(k))) is not None), None)
        if where is not None and _local(where) != subject:
            subject = f"{subject} in {_local(where)}"
    # one line: a multi-line command or prompt shows its first line
    first = subject.splitlines()[0] + " …" if "\n" in subject.strip() else subject
    return f"{label}: {' '.join(first.split())}"


def _local(value: str) -> str:
    """A `file://` URL as the path it names (`file:///w/my%20app` → `/w/my app`); else as is."""
    if value.startswith("file://~"):  # not a real URL, but agents write it
        return unquote(value.removeprefix("file://"))
    if value.startswith("file://"):
        path = unquote(urlparse(value).path) or value
        return path[1:] if re.match(r"^/[A-Za-z]:/", path) else path  # file:///C:/x on Windows
    return value


def call_details(tool_input: Any) -> list[str]:
    """A call's whole input, one field a line, long and multi-line text (an edit's new content, a
    patch) under its key: what `smriti show --full` prints below the call's line."""
    if not isinstance(tool_input, dict):
        return [] if tool_input in (None, "") else [str(tool_input)]
    lines: list[str] = []
    for key, value in tool_input.items():
        if isinstance(value, str) and ("\n" in value or len(value) > 100):
            lines += [f"{key}:", value.rstrip("\n")]
        elif isinstance(value, (str, int, float, bool)) or value is None:
            lines.append(f"{key}: {value}")
        else:
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False, default=str)}")
    return lines


_HOME_RE = re.compile(r"^(/Users/[^/]+|/home/[^/]+|[A-Za-z]:[/\\]Users[/\\][^/\\]+)")


def display_files(files: list[str], cwd: str | None, root: str | None = None) -> list[str]:
    """Files as a reader wants them, each once: `file://` URLs as paths, `~` as the session's home (when
    its cwd is under one), and paths inside the project (else the cwd) relative to it. So
    `file:///w/app/x.md`, `~/w/app/x.md` (cwd /home/me/w/app) and `x.md` are one file."""
    home = _HOME_RE.match(cwd or "")
    bases = [b.rstrip("/") + "/" for b in (root, cwd) if b]
    out: list[str] = []
    for f in files:
        f = _local(f)
        if f.startswith("~/") and home:
            f = home.group(1) + f[1:]
        for base in bases:
            if f.startswith(base):
                f = f[len(base) :]
                break
        f = f.removeprefix("./")
        if f and f not in out:
            out.append(f)
    return out


def render_body(title: str, summary: list[str], files: list[str], messages: list[MessageRow], transcript: str) -> str:
    parts = [f"# {title}", ""]
    if summary:
        parts += ["## Summary", "", *(f"- {line}" for line in summary), ""]
    if files:
        parts += ["## Files", "", *(f"- `{f}`" for f in files[:50]), ""]
    if transcript != "none":
        parts += ["## Conversation", ""]
        for m in messages:
            if m.sidechain or m.kind == "injected_context":
                continue
            if m.kind == "summary":
                # A compaction summary is background the agent wrote for itself, not a turn of the
                # conversation: marked as such, and quoted so it never reads as an answer.
                text = m.text.strip()
                if transcript == "condensed" and len(text) > MAX_MESSAGE_CHARS:
                    text = text[:MAX_MESSAGE_CHARS] + f"… [{len(m.text) - MAX_MESSAGE_CHARS} more characters]"
                parts += ["> **summary of the earlier conversation** (written by the agent when it compacted):", ">"]
                parts += [f"> {line}".rstrip() for line in text.splitlines()] + [""]
            elif m.kind in ("prompt", "response"):
                who = "user" if m.role == "user" else "assistant"
                text = m.text.strip()
                if transcript == "condensed" and len(text) > MAX_MESSAGE_CHARS:
                    text = text[:MAX_MESSAGE_CHARS] + f"… [{len(m.text) - MAX_MESSAGE_CHARS} more characters]"
                parts += [f"**{who}**: {text}", ""]
            elif m.kind == "tool_call":
                parts += [f"> tool: {_one_line(m.text, SUMMARY_CHARS)}", ""]
            elif m.kind == "tool_result":
                lines = m.text.count("\n") + 1 if m.text.strip() else 0
                if transcript == "full":
                    f = fence(m.text)
                    parts += [f"{f}text", m.text.rstrip("\n"), f, ""]
                else:
                    parts += [
                        f"> output: {lines} line{'s' if lines != 1 else ''}"
                        + (" (error)" if m.text.startswith("[error]") else ""),
                        "",
                    ]
    body = "\n".join(parts).rstrip("\n") + "\n"
    if len(body) > MAX_BODY_CHARS:
        body = body[:MAX_BODY_CHARS].rsplit("\n", 1)[0] + "\n\n… [transcript cut to fit the file size limit]\n"
    return body


def _relative_files(files: list[str], session: SessionRow) -> list[str]:
    proj = projects.resolve(session.cwd) if session.cwd else None
    return display_files(files, session.cwd, proj.root if proj else None)


StatKey = tuple[int, int, int, int]  # (size, mtime_ns, ctime_ns, inode) of a file's lstat
# A file whose mtime is not this much older than the moment it was stat'ed may still change without
# a new mtime (file systems stamp times from a coarse clock): it is read again next time.
RACY_NS = 2_000_000_000


def _stat_key(st: os.stat_result) -> StatKey:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


@dataclass
class KnowledgeScan:
    """The knowledge files of a working tree: `found` (item id → file, wherever it was moved), each
    file's path relative to the repo, and the sha256 of the files whose bytes are known (read in
    this scan, or unchanged since the cache of the last one); `cache` is what to record for next time."""

    found: dict[str, Path] = field(default_factory=dict)
    rel: dict[Path, str] = field(default_factory=dict)
    shas: dict[Path, str] = field(default_factory=dict)
    root: str = ""
    put: list[tuple[str, StatKey, str | None, str]] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    # Files written by this run, relative to the knowledge folder: their stat right after writing.
    written: dict[str, tuple[StatKey, str, str]] = field(default_factory=dict)

    def note_written(self, path: Path, item_id: str, data: bytes) -> None:
        try:
            st = os.lstat(path)
            rel = path.absolute().relative_to(self.root).as_posix()
        except (OSError, ValueError):
            return
        self.written[rel] = (_stat_key(st), item_id, _sha(data))


def _md_files(base: Path) -> list[tuple[tuple[str, ...], os.DirEntry[str]]]:
    """What `sorted(base.rglob("*.md"))` filtered to regular files (not symlinks) lists, in the same
    order (by path components), each with its relative parts: one `scandir` per folder, no Path
    per file. Like rglob it does not descend into symlinked folders."""
    out: list[tuple[tuple[str, ...], os.DirEntry[str]]] = []
    stack: list[tuple[str, tuple[str, ...]]] = [(str(base), ())]
    while stack:
        folder, parts = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir() and not entry.is_symlink():
                    stack.append((entry.path, (*parts, entry.name)))
                elif entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    out.append(((*parts, entry.name), entry))
            except OSError:
                continue
    out.sort(key=lambda pe: pe[0])
    return out


def _read_id(path: Path) -> tuple[str | None, bytes | None, bool]:
    """A knowledge file's id (from its frontmatter), its bytes when it is no bigger than a knowledge
    file may be (else None: only its head was read), and whether it could be read at all."""
    limit = knowledge.MAX_FILE_BYTES
    try:
        with path.open("rb") as fh:
            data = fh.read(limit + 1)
    except OSError:
        return None, None, False
    head = data[:2048]
    m = _ID_LINE.search(head)
    if m is None and len(head) == 2048:  # a hand-written file with a long frontmatter before its id
        text = data[:limit]
        end = text.find(b"\n---", 3)
        m = _ID_LINE.search(text, 0, end if end != -1 else len(text))
    return (m.group(1).decode() if m else None), (data if len(data) <= limit else None), True


def scan_items(repo: Path, cache: dict[str, tuple[StatKey, str | None, str]] | None = None) -> KnowledgeScan:
    """`existing_items` with the bytes' hashes, and with a cache (`Store.share_files`): a file whose
    lstat is what the cache recorded is not opened. The id and sha of every file read are put in
    `scan.put` (when its mtime is safely in the past) and the cached paths now gone in `scan.drop`."""
    base = repo / KNOWLEDGE_DIR
    scan = KnowledgeScan(root=str(base.absolute()))
    cache = cache or {}
    if not base.is_dir():
        scan.drop = list(cache)
        return scan
    prefix = str(KNOWLEDGE_DIR)
    seen: set[str] = set()
    for parts, entry in _md_files(base):
        key_path = "/".join(parts)
        seen.add(key_path)
        path = base.joinpath(*parts)
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        stat_key = _stat_key(st)
        hit = cache.get(key_path)
        if hit is not None and hit[0] == stat_key:
            item_id: str | None = hit[1]
            scan.shas[path] = hit[2]
        else:
            item_id, data, ok = _read_id(path)
            if not ok:
                continue
            if data is not None:
                sha = _sha(data)
                scan.shas[path] = sha
                if max(st.st_mtime_ns, st.st_ctime_ns) + RACY_NS < time.time_ns():
                    scan.put.append((key_path, stat_key, item_id, sha))
                    hit = None
            if hit is not None:
                scan.drop.append(key_path)
        scan.rel[path] = f"{prefix}/{key_path}"
        if item_id is not None:
            scan.found.setdefault(item_id, path)
    scan.drop += [p for p in cache if p not in seen]
    return scan


def existing_items(repo: Path) -> dict[str, Path]:
    """Item id → file, for every knowledge file in the working tree (wherever it was moved)."""
    return scan_items(repo).found


def _safe_target(repo: Path, rel: PurePosixPath) -> Path:
    """The absolute path for a knowledge file, refusing anything that escapes through a symlink."""
    target = repo / ".smriti" / Path(*rel.parts)
    if (repo / ".smriti").is_symlink():
        raise SmritiError(f"refusing to write through the symlink {repo / '.smriti'}")
    base = (repo / ".smriti").resolve()
    probe = repo / ".smriti"
    for part in rel.parts[:-1]:
        probe = probe / part
        if probe.is_symlink():
            raise SmritiError(f"refusing to write through the symlink {probe}")
    if base not in target.parent.resolve().parents and target.parent.resolve() != base:
        raise SmritiError(f"refusing to write outside {base}: {target}")
    return target


TEMP_PREFIX, TEMP_SUFFIX = ".smriti-", ".tmp"


def _atomic_write(path: Path, data: bytes) -> None:
    """Write a whole file or none: a temporary file beside it, renamed over it. The temporary file
    is locked while it is written, so `remove_stale_temp_files` can tell one a killed share left
    from one being written right now."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            fh.write(data)
            fh.flush()
            os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove_stale_temp_files(folder: Path) -> list[Path]:
    """Delete the temporary files of writes that never finished (a share killed mid-write): those
    no live process holds locked. Returns what was deleted."""
    removed = []
    for tmp in folder.rglob(f"{TEMP_PREFIX}*{TEMP_SUFFIX}") if folder.is_dir() else ():
        try:
            fd = os.open(tmp, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue  # gone already (renamed into place), or not ours to open
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # being written right now
        else:
            try:
                if os.path.samestat(os.fstat(fd), os.lstat(tmp)):  # still the file we locked
                    tmp.unlink()
                    removed.append(tmp)
            except OSError:
                pass
        finally:
            os.close(fd)
    return removed


def select_sessions(
    store: Store,
    repo: Path,
    team: TeamConfig,
    *,
    session_ids: tuple[str, ...],
    project: str | None,
    category: str | None,
    since: str | None,
) -> list[SessionRow]:
    if session_ids:
        return [store.get_session(i) for i in session_ids]
    if project:
        keys = project_keys(store, project) or ()
    else:
        here = projects.resolve(str(repo))
        keys = (here.key,) if here else ()
    cats: tuple[str, ...] = ()
    if category:
        cats = category_filter(store, category) or (category,)
    elif team.share_categories:
        cats = tuple(c for want in team.share_categories for c in (category_filter(store, want) or (want,)))
    rows = store.list_sessions(projects=list(keys), limit=1_000_000, categories=cats)
    cutoff = parse_since(since)
    out = []
    for row in rows:
        if row.parent_native_id:
            continue  # subagent and fork sessions are shared through their parent
        if not category and (row.category or "uncategorized") == "uncategorized":
            continue
        if cutoff is not None:
            started = row.started_at or ""
            if not started or datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp() < cutoff:
                continue
        out.append(row)
    return sorted(out, key=lambda r: (r.started_at or "", r.session_id))


def share(
    store: Store,
    repo: Path,
    *,
    session_ids: tuple[str, ...] = (),
    project: str | None = None,
    category: str | None = None,
    since: str | None = None,
    dry_run: bool = False,
    refresh: bool = False,
    transcript: str | None = None,
    supersedes: tuple[str, ...] = (),
    now: datetime | None = None,
    force: bool = False,
    redaction: bool = True,
) -> ShareResult:
    if not (repo / ".smriti").is_dir():
        # Without it there is nothing to share into, and a quiet "0 written" reads as success.
        raise InvalidInput(f"{repo} is not set up for sharing: run `smriti init` there first (it creates .smriti/)")
    if session_ids and not force:
        _refuse_other_projects(store, repo, session_ids)
    team = load_team_config(repo)
    transcript = transcript or team.transcript
    settings = team.redact_settings
    author = user_name(repo) or os.environ.get("USER") or None
    repo_key = (projects.resolve(str(repo)) or projects.Project(str(repo), repo.name)).key
    if not dry_run:
        remove_stale_temp_files(repo / KNOWLEDGE_DIR)
    root = str((repo / KNOWLEDGE_DIR).absolute())
    scan = scan_items(repo, store.share_files(root))
    found = scan.found
    result = ShareResult(dry_run=dry_run)
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    if supersedes and len(session_ids) != 1:
        raise InvalidInput("--supersedes names what ONE shared item replaces: use it with a single --session")
    known: dict[str, KnowledgeItem] = {}  # items this run rendered or read: no second parse
    fresh: dict[str, KnowledgeItem] = {}  # items given a new file in this run
    selected = select_sessions(
        store, repo, team, session_ids=session_ids, project=project, category=category, since=since
    )
    # What the skip decision needs, for the whole sweep in a few queries (not several per session).
    records = store.share_records(repo_key)
    contents = store.session_content_digests([s.rowid for s in selected])
    for session in selected:
        try:
            outcome = _share_one(
                store,
                repo,
                repo_key,
                session,
                settings,
                transcript,
                author,
                found,
                refresh,
                dry_run,
                stamp,
                supersedes,
                explicit=bool(session_ids),
                known=known,
                fresh=fresh,
                redaction=redaction,
                records=records,
                content=contents[session.rowid],
                scan=scan,
            )
        except (KnowledgeError, SmritiError) as exc:
            result.skipped.append({"id": session.session_id, "reason": str(exc)})
            continue
        kind, detail = outcome
        if kind == "written":
            result.written.append(detail)
        elif kind == "unchanged":
            result.unchanged += 1
        else:
            result.skipped.append({"id": session.session_id, "reason": detail})
    result.proposed_supersedes = _propose_supersedes(found, known, fresh)
    if not dry_run:
        _save_scan(store, repo, scan)
    return result


def _save_scan(store: Store, repo: Path, scan: KnowledgeScan) -> None:
    """Record the file cache for the next share: what this scan read, and the files this run wrote
    (their bytes are known) when they still have the stat they had right after writing and their
    mtime is safely in the past."""
    base = Path(scan.root)
    now = time.time_ns()
    put = [entry for entry in scan.put if entry[0] not in scan.written]
    drop = list(scan.drop)
    for rel, (stat_key, item_id, sha) in scan.written.items():
        try:
            st = os.lstat(base / rel)
        except OSError:
            st = None
        if st is not None and _stat_key(st) == stat_key and max(st.st_mtime_ns, st.st_ctime_ns) + RACY_NS < now:
            put.append((rel, stat_key, item_id, sha))
        else:
            drop.append(rel)  # read again next time
    store.update_share_files(scan.root, put, drop)


def _refuse_other_projects(store: Store, repo: Path, session_ids: tuple[str, ...]) -> None:
    """A session named with --session goes into this repo only if it ran in this repo's project
    (the same remote, or the same checkout): sharing one project's session into another repo is
    almost always a mistake made in the wrong directory, and the file would go to the wrong team."""
    here = projects.resolve(str(repo))
    key = here.key if here else str(repo)
    others = []
    for ident in session_ids:
        row = store.get_session(ident)
        if row.project != key:
            others.append(f"{row.session_id} ({row.project_name or 'no project'})")
    if others:
        raise InvalidInput(
            f"not sessions of this repo's project ({here.name if here else repo.name}): {', '.join(others)}; "
            "run share in that project's repo, or pass --force to share them here anyway"
        )


DISTILL_SOURCE = Path(__file__).parent.parent / "digest" / "distill.py"
DISTILL_CUES = Path(__file__).parent.parent / "digest" / "data" / "distill.toml"


@cache
def _code_version() -> str:
    """The source of everything that turns a stored session into a file's bytes: every file of the
    team package (share, redaction rules and gates, the file format, and any module or data file
    added there later), distill (a redacted session is distilled again) and recall (`fence`). A new
    rule or format renders every item again: the conservative side."""
    from smriti import recall  # noqa: PLC0415  (fence comes from there; already imported above)

    team_dir = Path(__file__).parent
    sources = sorted(p for p in team_dir.rglob("*") if p.is_file() and p.suffix in (".py", ".toml", ".txt", ".json"))
    # distill's source and cues by path: importing it costs ~20 ms a share that renders nothing does
    # not need (a test holds these paths equal to distill.__file__ and distill.CUES_FILE).
    sources += [DISTILL_SOURCE, DISTILL_CUES, Path(recall.__file__ or "")]
    h = hashlib.sha256()
    for path in sources:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=8)  # one Settings per share run: built once, not per session
def _settings_key(settings: redact.Settings) -> str:
    """The redaction settings as stable text (a frozenset's order changes between processes)."""
    fields = {
        f.name: sorted(v) if isinstance(v := getattr(settings, f.name), frozenset) else v
        for f in dataclasses.fields(settings)
    }
    return json.dumps(fields, sort_keys=True, default=repr)


def share_inputs(
    session: SessionRow,
    content: bytes,
    settings_key: str,
    transcript: str,
    author: str | None,
    supersedes: tuple[str, ...],
) -> str:
    """A fingerprint of everything `_share_one` renders a session's file from: `content` (its
    messages by content hash, digest and tags: `Store.session_content_digests`), its row and its
    project's root on this machine (the displayed files are relative to it); the redaction rules,
    settings and code; the share options. Recorded with the file: a re-share that computes the same
    one, and finds the file still holding the bytes it wrote, has nothing to redo."""
    proj = projects.resolve(session.cwd) if session.cwd else None
    # json.dumps of the list (code version, settings, transcript, author, supersedes, the row, the
    # root), its constant head encoded once per sweep: the same text, element by element.
    head = _inputs_head(_code_version(), settings_key, transcript, author, tuple(supersedes))
    tail = json.dumps(repr(session)) + ", " + json.dumps(proj.root if proj else None) + "]"
    return hashlib.sha256(content + (head + tail).encode()).hexdigest()


@lru_cache(maxsize=8)
def _inputs_head(code: str, settings_key: str, transcript: str, author: str | None, supersedes: tuple[str, ...]) -> str:
    return json.dumps([code, settings_key, transcript, author, list(supersedes)], default=repr)[:-1] + ", "


def _share_one(
    store: Store,
    repo: Path,
    repo_key: str,
    session: SessionRow,
    settings: redact.Settings,
    transcript: str,
    author: str | None,
    found: dict[str, Path],
    refresh: bool,
    dry_run: bool,
    stamp: str,
    supersedes: tuple[str, ...],
    explicit: bool = True,
    known: dict[str, KnowledgeItem] | None = None,
    fresh: dict[str, KnowledgeItem] | None = None,
    redaction: bool = True,
    records: dict[str, dict[str, Any]] | None = None,
    content: bytes | None = None,
    scan: KnowledgeScan | None = None,
) -> tuple[str, str]:
    """`records` (the repo's share records by item id) and `content` (the session's content digest)
    are what a sweep reads for all its sessions at once; read here when not given. `scan`: the
    sweep's scan of the knowledge files (their relative paths and known hashes), and where the
    files written are noted for its cache."""
    known = {} if known is None else known
    fresh = {} if fresh is None else fresh
    item_id = knowledge.new_item_id(session.agent, session.native_id)
    existing_path = found.get(item_id)
    record = store.share_record(item_id, repo_key) if records is None else records.get(item_id)
    if existing_path is None and record is not None and not explicit:
        # Shared before, and the file is gone: withdrawn with `unshare`, deleted in review, or on a
        # branch that is not checked out. A sweep must not bring it back; naming it does.
        how = (
            "was withdrawn with `smriti unshare`"
            if record["status"] == "withdrawn"
            else (
                f"was shared before (to {record['path']}) and is not in this working tree: removed in review, "
                "or on another branch"
            )
        )
        return "skipped", f"{how}; `smriti share --session {session.session_id}` shares it again"
    if content is None:
        content = store.session_content_digests([session.rowid])[session.rowid]
    inputs = share_inputs(session, content, _settings_key(settings), transcript, author, supersedes)
    if (
        existing_path is not None
        and record is not None
        and record["status"] == "shared"
        and record["inputs"] == inputs
        and record["path"] == _rel(scan, existing_path, repo)
        and _known_sha(scan, existing_path) == record["file_sha"]
    ):
        # Rendered from these very inputs into these very bytes, still on disk where recorded:
        # redaction and rendering would produce the same file again.
        return "unchanged", record["path"]
    digest = store.get_digest(session.rowid) or {}
    problems: list[str] = []

    allowed: list[str] = []  # values a person allow-listed: the gate lets them through as well

    def red(text: str, where: str) -> tuple[str, bool]:
        r = redact.redact(text, settings, enabled=redaction)
        allowed.extend(text[f.start : f.end] for f in r.allowed)
        problems.extend(f"{where}: {p}" for p in r.problems() if f"{where}: {p}" not in problems)
        return r.text, bool(r.findings)

    # Redact every text BEFORE it is cut, flattened or summarised: a secret cut in half (a message
    # condensed to MAX_MESSAGE_CHARS, a tool call flattened to one line, a title cut to 120
    # characters) is no longer recognisable, and half a key is still a leak.
    messages, touched_any = [], False
    for m in store.messages(session.rowid):
        if m.kind == "tool_call":  # its line from its input, whole, so it is redacted before any cut
            m = m._replace(text=call_summary(m.tool_name, m.tool_input, m.action, m.text, typed=m.role == "user"))
        if m.kind in _REDACTED_KINDS or (m.kind == "tool_result" and transcript == "full"):
            text, hit = red(m.text, f"message {m.seq}")
            if hit:
                touched_any = True
                m = m._replace(text=text)
        messages.append(m)
    if touched_any:
        # The stored digest was distilled from the unredacted text (and cut there): distill again.
        from smriti.digest import distill

        plain = [m.to_message() for m in messages]
        summary_lines = distill.summary(plain)
        fallback_title: str | None = distill.title(plain)
    else:
        summary_lines = list(digest.get("summary", []))
        fallback_title = session.digest_title or digest.get("title")
    raw_title = session.agent_title or fallback_title or "Untitled session"
    red_title, _ = red(raw_title, "title")
    title = knowledge.clean_title(red_title, limit=120) or "Untitled session"
    summary_lines = [red(line, "summary")[0] for line in summary_lines]
    files = [red(f, "files")[0] for f in _relative_files(list(digest.get("entities", {}).get("files", [])), session)]
    body = render_body(title, summary_lines, files, messages, transcript)
    # The assembled body once more: the residual check (fail closed) and anything spanning parts.
    body, _ = red(body, "body")
    project = red(session.project_name, "project")[0] if session.project_name else None
    author = red(author, "author")[0] if author else None
    if problems:
        more = f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
        return "skipped", "; ".join(problems[:3]) + more
    category = session.category or "uncategorized"
    tags = [t["category"] for t in store.session_tags(session.rowid)] or [category]
    existing: KnowledgeItem | None = None
    if existing_path is not None:
        current = existing_path.read_bytes()
        existing = knowledge.parse(current, path=str(existing_path))
        known[item_id] = existing
    item = knowledge.new_item(
        id=item_id,
        title=title,
        category=category,
        body=body,
        # The session's own date names the file: when it started, else when it was last written to
        # (an agent that records no times); the day of sharing only for a session with neither.
        created=existing.created if existing else (session.started_at or session.ended_at or stamp),
        shared=existing.shared if existing and existing.shared else stamp,
        agent=session.agent,
        session=session.native_id,
        tags=tags,
        project=project,
        author=author,
        files=files,
        supersedes=supersedes or (existing.supersedes if existing else ()),
    )
    data = knowledge.render_bytes(item)
    # The independent gate (rules of its own) decides whether what redaction left may be written.
    refusals = gate.inspect(data.decode("utf-8", "replace"), settings.allow, exempt=allowed)
    if refusals:
        more = f"; and {len(refusals) - 3} more" if len(refusals) > 3 else ""
        return "skipped", "refused by the secret gate: " + "; ".join(f.describe() for f in refusals[:3]) + more
    if existing_path is not None:
        rel_existing = str(existing_path.relative_to(repo))
        if data == current:
            if not dry_run and (
                record is None
                or (record["path"], record["file_sha"], record["inputs"]) != (rel_existing, _sha(current), inputs)
            ):
                # Written by a share killed before it recorded the file (or moved in review, or
                # shared before inputs were recorded): exactly what sharing would write, so it is
                # ours; record it now.
                store.record_share(item_id, repo_key, rel_existing, session.rowid, _sha(current), inputs=inputs)
            return "unchanged", rel_existing
        # `existing` is the parse of existing_path, read above.
        touched = (existing is not None and knowledge.edited(existing)) or (
            record is not None and record["file_sha"] != _sha(current)
        )
        if touched and not refresh:
            return "skipped", f"{rel_existing} was edited by a person; --refresh overwrites it"
        # Content changed since it was shared: keep the reviewer's location, stamp a new share time.
        data = knowledge.render_bytes(replace(item, shared=stamp))
        target = existing_path
    else:
        rel = knowledge.item_path(item)
        target = _safe_target(repo, PurePosixPath(*rel.parts))
        if target.exists():
            raise SmritiError(f"{target.relative_to(repo)} already exists and holds another item")
    rel_target = str(target.relative_to(repo))
    known[item_id] = item
    if existing_path is None:
        fresh[item_id] = item
    if not dry_run:
        _safe_target(repo, PurePosixPath(*target.relative_to(repo / ".smriti").parts))
        _atomic_write(target, data)
        store.record_share(item_id, repo_key, rel_target, session.rowid, _sha(data), inputs=inputs)
        if scan is not None:
            scan.note_written(target, item_id, data)
    return "written", rel_target


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _rel(scan: KnowledgeScan | None, path: Path, repo: Path) -> str:
    rel = scan.rel.get(path) if scan is not None else None
    return rel if rel is not None else str(path.relative_to(repo))


def _known_sha(scan: KnowledgeScan | None, path: Path) -> str:
    sha = scan.shas.get(path) if scan is not None else None
    return sha if sha is not None else _sha(path.read_bytes())


MAX_PROPOSAL_COMPARISONS = 200_000  # title comparisons per share run: hints must not cost O(items²)
_CATEGORY_LINE = re.compile(rb'^category:\s*"([a-z0-9/_-]*)"\s*$', re.MULTILINE)


def _head_category(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            m = _CATEGORY_LINE.search(fh.read(4096))
    except OSError:
        return None
    return m.group(1).decode() if m else None


def _propose_supersedes(
    found: dict[str, Path], known: dict[str, KnowledgeItem], fresh: dict[str, KnowledgeItem]
) -> list[dict[str, Any]]:
    """For each item given a new file in this run: the older active item of its category whose title
    says it covers the same ground (the best match, if any), as a hint for `--supersedes`.

    Bounded: only new items are compared (a re-share proposes nothing again), with at most
    MAX_PROPOSAL_COMPARISONS titles in all (each new item against the most recent older items of
    its category), and files of other categories are not parsed.
    """
    if not fresh:
        return []
    cats = {i.category for i in fresh.values()}
    pools: dict[str, list[KnowledgeItem]] = {}
    for item_id, path in found.items():
        item = known.get(item_id)
        if item is None:
            if _head_category(path) not in cats | {None}:
                continue
            try:
                item = knowledge.parse(path.read_bytes(), path=str(path))
            except (OSError, KnowledgeError):
                continue
        if item.category in cats:
            pools.setdefault(item.category, []).append(item)
    for item in fresh.values():
        if item.id not in found:
            pools.setdefault(item.category, []).append(item)
    superseded = {s for pool in pools.values() for i in pool if i.status == "active" for s in i.supersedes}
    keys: dict[str, list[tuple[str, str]]] = {}
    for cat, pool in pools.items():
        pool[:] = [i for i in pool if i.status == "active" and i.id not in superseded]
        pool.sort(key=lambda i: (i.created, i.id))
        keys[cat] = [(i.created, i.id) for i in pool]
    window = max(20, MAX_PROPOSAL_COMPARISONS // len(fresh))
    out = []
    for newer in sorted(fresh.values(), key=lambda i: (i.created, i.id)):
        pool = pools.get(newer.category, [])
        end = bisect.bisect_left(keys.get(newer.category, []), (newer.created, newer.id))
        older = [o for o in pool[max(0, end - window) : end] if o.id not in newer.supersedes]
        if not older or not newer.session:
            continue
        best = process.extractOne(
            newer.title, [o.title for o in older], scorer=fuzz.token_set_ratio, score_cutoff=PROPOSE_SUPERSEDE_AT
        )
        if best is not None:
            _, score, index = best
            out.append(
                {
                    "id": newer.id,
                    "supersedes": older[index].id,
                    "score": round(score / 100, 3),
                    "hint": f"smriti share --session {newer.session} --supersedes {older[index].id}",
                }
            )
    return out


def unshare(store: Store, repo: Path, item_id: str) -> dict[str, Any]:
    """Remove an item's file and record that it was withdrawn."""
    found = existing_items(repo)
    matches = [i for i in found if i == item_id or (len(item_id) >= 4 and i.startswith(item_id))]
    if not matches:
        raise InvalidInput(f"no knowledge file with id {item_id!r} under {repo / KNOWLEDGE_DIR}")
    if len(matches) > 1:
        raise InvalidInput(f"{item_id!r} is ambiguous: {', '.join(matches)}")
    path = found[matches[0]]
    rel = str(path.relative_to(repo))
    path.unlink()
    repo_key = (projects.resolve(str(repo)) or projects.Project(str(repo), repo.name)).key
    record = store.share_record(matches[0], repo_key)
    store.record_share(matches[0], repo_key, rel, record["session"] if record else None, "", status="withdrawn")
    return {"removed": [rel], "id": matches[0]}
