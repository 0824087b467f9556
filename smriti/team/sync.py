"""Sync: import the knowledge committed on a repo's default branch into the local store.

Only reviewed knowledge reaches recall: by default the files are read from the default branch's
commit (its `origin/HEAD`, else `main`) through git, never from the working tree (`--worktree`
and `--ref` choose otherwise on purpose). The remote is fetched first, so what a teammate pushed
is seen without a `git fetch` of one's own; offline (or with no remote) sync warns and reads the
ref as it is locally, which is still a consistent, reviewed state, only perhaps an older one.
Items are matched by id: a reviewer's edit becomes the new version, a moved file is the same
item (moved to another category's folder, it is also a correction the next categorize learns
from), a deleted file's item leaves recall, and one's own share comes back as the same item. A
no-op sync compares (path, blob) pairs only. Every file is untrusted data: symlinks, unsafe names
(`check`'s rules), oversized or binary files and malformed frontmatter are rejected with a
reason, and the rest is still imported. An id claimed by two files is rejected on both (the item
already known keeps its content), so a copy cannot take over an item's id. Each item records who
git says committed its file: the author a person is shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti import project as projects
from smriti.errors import SmritiError
from smriti.store import Store
from smriti.team import knowledge
from smriti.team.check import name_problem
from smriti.team.git import (
    KNOWLEDGE_DIR,
    blob_id,
    default_ref,
    fetch,
    knowledge_tree,
    last_authors,
    object_format,
    remote_of,
    resolve_commit,
    stream_blobs,
)
from smriti.team.knowledge import KnowledgeError, KnowledgeItem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from smriti.index import Feed, Index

# With an index, items are handed to its writer every FEED_EVERY stored: Tantivy's threads index
# them on the other core while Python stores the next ones (instead of all of it after the import).
FEED_EVERY = 250


@dataclass
class SyncResult:
    imported: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    relabelled: int = 0  # moved to another category's folder: corrections categorize learns from
    rejected: list[dict[str, str]] = field(default_factory=list)
    ref: str | None = None
    commit: str | None = None
    fetched: str | None = None  # the remote fetched before reading, None when none was
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "imported": self.imported,
            "updated": self.updated,
            "removed": self.removed,
            "unchanged": self.unchanged,
            "relabelled": self.relabelled,
            "rejected": self.rejected,
            "ref": self.ref,
            "commit": self.commit,
            "fetched": self.fetched,
            "warnings": self.warnings,
        }


@dataclass(frozen=True)
class _Entry:
    path: str  # relative to the repo root
    blob: str
    problem: str | None = None  # why it is rejected without reading it


def repo_key(repo: Path) -> str:
    return (projects.resolve(str(repo)) or projects.Project(str(repo), repo.name)).key


def _committed_entries(repo: Path, commit: str) -> list[_Entry]:
    out = []
    for e in knowledge_tree(repo, commit):
        if not e.path.endswith(".md"):
            continue
        problem = None
        if e.mode == "120000":
            problem = "a symlink: knowledge files must be regular files"
        elif e.kind != "blob":
            problem = f"not a regular file ({e.kind})"
        elif e.size is not None and e.size > knowledge.MAX_FILE_BYTES:
            problem = f"{e.size:,} bytes, over the {knowledge.MAX_FILE_BYTES // 1024} KB limit"
        out.append(_Entry(e.path, e.sha, problem))
    return out


def _worktree_entries(repo: Path) -> tuple[list[_Entry], dict[str, bytes]]:
    """The files on disk, each named by the blob id git would give it, so a file that is the same
    on disk and in a commit is the same to sync (a --worktree sync followed by a plain one, or the
    other way round, finds it unchanged)."""
    out, data = [], {}
    fmt = object_format(repo)
    base = repo / KNOWLEDGE_DIR
    for path in sorted(base.rglob("*.md")) if base.is_dir() else []:
        rel = path.relative_to(repo).as_posix()
        if path.is_symlink():
            out.append(_Entry(rel, "", "a symlink: knowledge files must be regular files"))
            continue
        if not path.is_file():
            continue
        size = path.stat().st_size
        if size > knowledge.MAX_FILE_BYTES:
            out.append(_Entry(rel, "", f"{size:,} bytes, over the {knowledge.MAX_FILE_BYTES // 1024} KB limit"))
            continue
        content = path.read_bytes()
        sha = blob_id(content, fmt)
        data[sha] = content
        out.append(_Entry(rel, sha))
    return out, data


def _name_checked(entries: list[_Entry]) -> list[_Entry]:
    """`check`'s name and folder rules, applied to what a sync would import: a file named `..`, with a
    newline, tab or escape character, or `C:\\x.md`, is rejected like any other unsafe file."""
    out = []
    for e in entries:
        under = e.path.split("/")[len(KNOWLEDGE_DIR.split("/")) :]
        problem = e.problem or (name_problem(under[-1], under[:-1]) if under else "not under .smriti/knowledge")
        out.append(_Entry(e.path, e.blob, problem) if problem != e.problem else e)
    return out


def _authors(repo: Path, commit: str | None, entries: list[_Entry]) -> dict[str, str]:
    """path → git's author of the commit that added or last changed it. A --worktree sync knows it
    only for files that are as HEAD has them."""
    paths = {e.path for e in entries}
    if commit is not None:
        return last_authors(repo, commit, paths)
    try:
        head = resolve_commit(repo, "HEAD")
    except SmritiError:
        return {}
    committed = {(t.path, t.sha) for t in knowledge_tree(repo, head)}
    same = {e.path for e in entries if (e.path, e.blob) in committed}
    return last_authors(repo, head, same)


def sync(
    store: Store,
    repo: Path,
    *,
    ref: str | None = None,
    worktree: bool = False,
    fetch_first: bool = True,
    index: Index | None = None,
) -> SyncResult:
    """Import the repo's knowledge. With `index`, what the import changes is indexed as it is
    stored, and committed to the index right after the store's commit (`Index.feed`); without, the
    changes wait in the outbox for the next `Index.sync`."""
    key = repo_key(repo)
    result = SyncResult()
    contents: dict[str, bytes] = {}
    if worktree:
        result.ref = "worktree"
        entries, contents = _worktree_entries(repo)
    else:
        problem = None
        remote = remote_of(repo, ref) if fetch_first else None
        if remote is not None:
            problem = fetch(repo, remote)
            result.fetched = None if problem else remote
        # Before default_ref: a clone made while the remote was empty has no origin/main until a fetch.
        result.ref = ref or default_ref(repo)
        if problem:
            result.warnings.append(f"{problem}; importing the local {result.ref}, which may be behind")
        elif fetch_first and remote is None and ref is None:
            result.warnings.append(f"no remote named origin to fetch; importing the local {result.ref}")
        result.commit = resolve_commit(repo, result.ref)
        entries = _committed_entries(repo, result.commit)
    entries = _name_checked(entries)

    known = store.knowledge_blobs(key)  # id -> (path, blob)
    by_blob = {blob: item_id for item_id, (_, blob) in known.items()}
    good = [e for e in entries if e.problem is None]
    result.rejected += [{"path": e.path, "reason": e.problem} for e in entries if e.problem]

    # The no-op fast path: every (path, blob) pair is one the last sync imported (and knows who
    # committed: a store from before that was recorded learns it once).
    if (
        {(e.path, e.blob) for e in good} == {(p, b) for p, b in known.values()}
        and not result.rejected
        and (worktree or not store.knowledge_missing_committer(key))
    ):
        result.unchanged = len(known)
        store.save_sync_state(key, result.ref, result.commit)
        return result

    ordered = sorted(good, key=lambda e: e.path)
    # The blobs to read, in the order they are parsed below: git streams them while Python parses.
    to_read = list(dict.fromkeys(e.blob for e in ordered if e.blob not in by_blob and e.blob not in contents))
    blobs = stream_blobs(repo, to_read)
    to_read_set, read = set(to_read), set()

    def content(blob: str) -> bytes:
        while blob in to_read_set and blob not in read:
            sha, data = next(blobs)
            read.add(sha)
            if data is not None:
                contents[sha] = data
        return contents.get(blob, b"")

    authors = _authors(repo, result.commit, good)
    # item id -> every file that claims it: its known content's id, else its parsed frontmatter's
    claims: dict[str, list[tuple[_Entry, KnowledgeItem | None]]] = {}
    for e in ordered:
        item_id = by_blob.get(e.blob)
        if item_id is not None:  # content known: unchanged or moved
            claims.setdefault(item_id, []).append((e, None))
            continue
        try:
            item = knowledge.parse(content(e.blob), path=e.path)
        except KnowledgeError as exc:
            where = f"line {exc.line}: " if exc.line else ""
            result.rejected.append({"path": e.path, "reason": f"{where}{exc.message}"})
            continue
        claims.setdefault(item.id, []).append((e, item))
    for _ in blobs:  # every blob was read above; this lets git finish and says if it failed
        pass
    kept: set[str] = set()  # item ids that stay in the store
    moves: list[tuple[str, str, str]] = []  # (item id, old path, new path)
    writes = sum(len(c) == 1 and c[0][1] is not None for c in claims.values())
    with _feed(index, store, writes) as feed:
        with store.batch():
            # Items no row has the id of are inserted together, in this order (so with the row ids
            # one insert each gave them), before the feed reads the outbox and before anything else.
            fresh = store.knowledge_item_ids(key)
            new: list[tuple[KnowledgeItem, str, str, str | None]] = []
            for n, (item_id, claimants) in enumerate(claims.items(), 1):
                if feed is not None and n % FEED_EVERY == 0:
                    store.insert_knowledge_many(new, origin="sync", repo=key)
                    new.clear()
                    feed.step()
                if len(claimants) > 1:
                    # Whichever path sorts first must not win: a copy could replace a genuine item's body
                    # under its id. None is imported; an item already known keeps its body and path.
                    paths = [e.path for e, _ in claimants]
                    keeps = " (the item already synced keeps its content)" if item_id in known else ""
                    for e, _ in claimants:
                        others = ", ".join(p for p in paths if p != e.path)
                        reason = f"id {item_id} is also claimed by {others}: none is imported{keeps}"
                        result.rejected.append({"path": e.path, "reason": reason})
                    if item_id in known:
                        kept.add(item_id)
                    continue
                ((e, parsed),) = claimants
                kept.add(item_id)
                committer = authors.get(e.path)
                if parsed is None:
                    if known[item_id][0] == e.path:
                        store.set_knowledge_committer(key, item_id, committer)
                        result.unchanged += 1
                    else:
                        store.move_knowledge(key, item_id, e.path, committer)
                        moves.append((item_id, known[item_id][0], e.path))
                        result.updated += 1
                    continue
                if item_id not in fresh:
                    new.append((parsed, e.path, e.blob, committer))
                    result.imported += 1
                    continue
                outcome = store.upsert_knowledge(
                    parsed, origin="sync", repo=key, path=e.path, blob=e.blob, committed_by=committer
                )
                if item_id in known and known[item_id][0] != e.path:  # edited and moved
                    moves.append((item_id, known[item_id][0], e.path))
                if outcome == "imported":
                    result.imported += 1
                elif outcome == "updated":
                    result.updated += 1
                else:
                    result.unchanged += 1
            store.insert_knowledge_many(new, origin="sync", repo=key)
            result.removed = store.remove_knowledge(key, (i for i in known if i not in kept))
            # A file a reviewer moved to another category's folder corrects that category: a label the
            # next categorize of this repo's sessions learns from.
            result.relabelled = _learn_from_moves(store, key, moves)
            store.save_sync_state(key, result.ref, result.commit)
        if feed is not None:  # after the store's commit, under the same writer lock
            feed.commit()
    return result


def _learn_from_moves(store: Store, key: str, moves: list[tuple[str, str, str]]) -> int:
    if not moves:
        return 0
    # Imported only when a file moved: categorize's vocabularies cost every other sync ~50 ms.
    from smriti.digest.apply import learn_from_move

    return sum(bool(learn_from_move(store, key, item_id, old, new)) for item_id, old, new in moves)


@contextmanager
def _feed(index: Index | None, store: Store, items: int) -> Iterator[Feed | None]:
    if index is None:
        yield None
        return
    from smriti.index import BIG_DRAIN

    with index.feed(store, big=items >= BIG_DRAIN) as feed:
        yield feed
