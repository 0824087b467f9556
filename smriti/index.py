"""The search index: Tantivy BM25 over messages, derived from the store and rebuildable.

- One document per message, or per chunk of a long one, carrying the message and session row
  ids as fast fields (hits are resolved through the store; the index stores no text).
- Every document also carries its passage (`pid`): the window of a user turn it belongs to (the
  store numbers them, see `IndexDoc.passage`), a session digest's own, or the section of a
  knowledge item (items are indexed one document per `## ` section). Recall ranks sessions and
  items by their best passages, so a long session does not win by holding more words.
- Fed only from the store's outbox, under one cross-process writer lock (an flock on
  `<data dir>/index.lock`), so concurrent ingests never lose or double a change.
- Filters are MUST clauses inside the query, never applied after a global top-k.
- User text never reaches Tantivy's query parser: it runs through the text field's own analyzer
  (stemmer included) and becomes term queries.
- The schema carries a version; a mismatch (or an unreadable index) rebuilds from the store.
"""

from __future__ import annotations

import fcntl
import os
import time
from _thread import get_ident  # threading's own source of it, without importing threading
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import compress, islice, repeat
from operator import abs as _abs
from operator import add, eq, le, lt, neg

import tantivy

from smriti.hooks import leanjson
from smriti.store import IndexDoc, MessageDocRow, Store

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any, NamedTuple, TypeAlias

    StrPath: TypeAlias = str | os.PathLike[str]  # a path as a string or a Path
else:
    from smriti.records import NamedTuple  # typing.NamedTuple's classes, without importing typing

SCHEMA_VERSION = 5  # 5: the `prompt` fast field
TOKENIZER = "smriti_en"
CHUNK_CHARS = 4000  # long messages are indexed in chunks so one huge tool output does not
CHUNK_OVER = 6000  # drown BM25's length normalisation; chunks share the message id
# Tantivy flushes a segment each time the heap fills: a big heap means few segments and merges on
# a first ingest. A big build (a rebuild, a drain of BIG_DRAIN changes or more, e.g. a first sync)
# uses two indexing threads where there are two cores: documents then land in segments in a varying
# order, and Tantivy orders hits of equal score by document address, so searches order ties by a
# stable key of their own (`_tie_order`). A small drain keeps one thread (and one new segment).
WRITER_HEAP = 256_000_000
WRITER_THREADS = 1
BUILD_THREADS = 2
BIG_DRAIN = 2000  # outbox changes
TIE_MARGIN = 16  # hits fetched past a search's limit, to see whether the last score's tie group goes on
COMMIT_SECONDS = 60.0  # a long outbox drain commits at least this often
VERSION_FILE = "smriti-index.json"
# smriti.team.knowledge.STATUSES but "active" (a test holds them equal): the knowledge items search and
# recall leave out. Not imported from there (its regexes cost the first prompt ~10 ms), and kept here,
# not in smriti.recall, so `smriti search` does not import recall's vocabularies.
INACTIVE_STATUSES = ("superseded", "withdrawn")
TIERS = ("own", "team")  # a document's tier: a session's ("own") or a knowledge item's ("team")
SMALL_SET = 512  # up to this many sessions, a session filter is a disjunction of term queries
CLAUSES_MEMO = 16  # filters whose query clauses are kept (the same few serve every search of a prompt)

Progress = Callable[[int, int], None]
Address = tuple[int, int]  # a document's (segment, doc) within one searcher: equal addresses, one document


class HitColumns(NamedTuple):
    """Recall's hits as parallel columns, best first (no object per hit: recall reads thousands per
    prompt). A field is None for a document without it (none today: every document has all)."""

    # The integer columns are fast field values as Tantivy returns them (typed int | float | bool | None).
    scores: Sequence[float]
    mids: Sequence[Any]  # message rowid (< 0: a session digest, 0: a knowledge item)
    sids: Sequence[Any]  # session rowid
    kids: Sequence[Any]  # knowledge item rowid, else 0
    pids: Sequence[Any]  # passage
    addrs: Sequence[Address]  # only when asked for
    prompts: Sequence[Any] = ()  # 1 for a user's prompt (message kind "prompt"), else 0 (recall's boost)


NO_HITS = HitColumns((), (), (), (), (), (), ())


def _analyzer() -> tantivy.TextAnalyzer:
    # Simple tokenizer (splits on non-alphanumerics, so `src/db/pool.py` → src, db, pool, py),
    # lowercase, English stop words out, English stemmer; very long tokens (base64, minified code) dropped.
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(40))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.stopword("english"))
        .filter(tantivy.Filter.stemmer("english"))
        .build()
    )


def _schema() -> tantivy.Schema:
    b = tantivy.SchemaBuilder()
    b.add_text_field("text", stored=False, tokenizer_name=TOKENIZER, index_option="freq")
    b.add_integer_field("mid", stored=False, indexed=True, fast=True)
    b.add_integer_field("sid", stored=False, indexed=True, fast=True)
    b.add_integer_field("kid", stored=False, indexed=True, fast=True)  # knowledge item row, else 0
    b.add_integer_field("pid", stored=False, indexed=False, fast=True)  # passage within the session/item
    b.add_integer_field("ts", stored=False, indexed=True, fast=True)
    # 1 for a user's prompt: recall weighs what the user said above tool output and replies, and
    # reads it per hit (a fast field), not through the store on the prompt hook's path
    b.add_integer_field("prompt", stored=False, indexed=False, fast=True)
    for name in ("agent", "project", "category", "role", "kind", "tier", "status"):
        b.add_text_field(name, stored=False, tokenizer_name="raw", index_option="basic")
    return b.build()


def epoch_seconds(ts: str | None) -> int:
    if not ts:
        return 0
    try:
        return int(_fromisoformat(ts.replace("Z", "+00:00")).timestamp())
    except ValueError:
        return 0


def _first_fromisoformat(text: str) -> Any:
    # datetime is imported by the first document indexed, not by every search process (which
    # reads no dates); this then rebinds _fromisoformat to datetime's own.
    global _fromisoformat
    from datetime import datetime

    _fromisoformat = datetime.fromisoformat
    return datetime.fromisoformat(text)


_fromisoformat: Callable[[str], Any] = _first_fromisoformat


def chunks(text: str) -> list[str]:
    if len(text) <= CHUNK_OVER:
        return [text]
    return [text[i : i + CHUNK_CHARS] for i in range(0, len(text), CHUNK_CHARS)]


def _document(
    text: str,
    mid: int,
    sid: int,
    kid: int,
    passage: int,
    ts: int,
    prompt: int,
    agent: str,
    project: str,
    category: str,
    role: str,
    kind: str,
    tier: str,
    status: str,
) -> tantivy.Document:
    """One document of the schema (`_schema`), one field at a time: cheaper than a Document built
    from keywords or a dict, or than `add_json` (measured, benchmarks/README's fifth round)."""
    d = tantivy.Document()
    d.add_text("text", text)
    d.add_integer("mid", mid)
    d.add_integer("sid", sid)
    d.add_integer("kid", kid)
    d.add_integer("pid", passage)
    d.add_integer("ts", ts)
    d.add_integer("prompt", prompt)
    d.add_text("agent", agent)
    d.add_text("project", project)
    d.add_text("category", category)
    d.add_text("role", role)
    d.add_text("kind", kind)
    d.add_text("tier", tier)
    d.add_text("status", status)
    return d


def sections(text: str) -> list[str]:
    """A knowledge item's text cut before each `## ` heading: the title and front matter words
    stay with the first section. Recall and search find an item by its best section."""
    # A cut before every line but the first that starts with "## ": before each "\n## ".
    first, *rest = text.split("\n## ")
    return [
        first,
        *("## " + piece for piece in rest),
    ]  # blank pieces kept: a section's number must not depend on what precedes it


def bm25_idf(df: int, n_docs: int) -> float:
    """BM25's inverse document frequency (Tantivy's formula) of a term that `df` of `n_docs` documents hold."""
    import math  # a builtin module, loaded already by the time anything asks (tantivy imports datetime)

    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def _top(searcher: tantivy.Searcher, query: tantivy.Query, limit: int) -> list[tuple[Any, tantivy.DocAddress]]:
    """The `limit` best hits, or more when the limit cuts a group of equal scores: then the whole
    group (which of it stays is decided by `_tie_order`, not by Tantivy's document addresses)."""
    fetch = limit + TIE_MARGIN
    while True:
        hits = searcher.search(query, limit=fetch, count=False).hits
        if len(hits) <= limit or hits[limit][0] != hits[limit - 1][0]:
            return hits[:limit]
        last = hits[limit - 1][0]
        if len(hits) < fetch or hits[-1][0] != last:  # the group ends within these
            end = limit + 1
            while end < len(hits) and hits[end][0] == last:
                end += 1
            return hits[:end]
        fetch *= 4


def _tie_order(
    scores: Sequence[Any], mids: Sequence[Any], kids: Sequence[Any], pids: Sequence[Any]
) -> list[int] | None:
    """The order (positions, best first) that puts hits of equal score in the order of a stable key
    of their documents: messages by rowid, then session digests by session, then knowledge items by
    rowid and section: the order a rebuild adds them in, so a one-segment index's order is kept.
    Tantivy orders ties by document address, which depends on how a writer's threads split the
    documents into segments. None when the order is already this one. Only C-level loops (map, zip,
    sort): recall reads thousands of hits a prompt, and most tie with a neighbour. Chunks of one
    message (or section) share the key and every column but their address: their order is moot."""
    n = len(scores)
    ties = list(map(eq, scores, islice(scores, 1, None)))  # ties[i]: hit i ties with hit i + 1
    if n < 2 or True not in ties:
        return None
    if None in mids:  # no document lacks a field today; keep the key comparable if one ever does
        mids = [m or 0 for m in mids]
    keys: list[tuple[Any, ...]]
    if min(mids) > 0:  # messages only (the common case): the rowid is the key
        if all(map(lt, compress(mids, ties), compress(islice(mids, 1, None), ties))):
            return None  # each tie in rowid order already (an index built by one thread)
        keys = list(zip(map(neg, scores), mids, strict=True))
    else:
        kinds = map(add, map(le, mids, repeat(0)), map(eq, mids, repeat(0)))  # 0 message, 1 digest, 2 knowledge
        keys = list(zip(map(neg, scores), kinds, map(_abs, mids), kids, pids, strict=True))
    order = sorted(range(n), key=keys.__getitem__)
    return None if order == list(range(n)) else order


def _threads(big: bool) -> int:
    """Indexing threads for a writer: BUILD_THREADS for a big build where there are as many cores."""
    if not big:
        return WRITER_THREADS
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(WRITER_THREADS, min(BUILD_THREADS, cores))


def _pick(column: Sequence[Any], positions: Iterable[int]) -> list[Any]:
    return list(map(column.__getitem__, positions))


def _ranked(searcher: tantivy.Searcher, query: tantivy.Query, limit: int) -> tuple[list[Any], ...]:
    """The `limit` best hits in a stable order (`_top`, `_tie_order`) as columns: scores,
    addresses, and the `mid`, `kid` and `pid` fast fields the order is decided by."""
    hits = _top(searcher, query, limit)
    scores = [score for score, _ in hits]
    addrs = [addr for _, addr in hits]
    columns = [scores, addrs, *(searcher.fast_field_values(f, addrs) if hits else [] for f in ("mid", "kid", "pid"))]
    order = _tie_order(scores, *columns[2:])
    if order is not None or len(hits) > limit:
        keep = order[:limit] if order is not None else range(limit)
        columns = [_pick(c, keep) for c in columns]
    return tuple(columns)


class Hit(NamedTuple):
    score: float
    message_rowid: int  # > 0 a message, < 0 the digest of session -message_rowid, 0 a knowledge item
    session_rowid: int
    knowledge_rowid: int = 0


class Filters(NamedTuple):
    agents: tuple[str, ...] = ()
    projects: tuple[str, ...] | None = None  # None: any project; (): no project matched
    categories: tuple[str, ...] = ()
    sessions: tuple[int, ...] | None = None  # None: any session; (): none matched (e.g. --file)
    since: int | None = None  # epoch seconds
    exclude_sessions: tuple[int, ...] = ()
    tiers: tuple[str, ...] = ()  # "own" (sessions), "team" (knowledge items); () both
    statuses: tuple[str, ...] = ()  # knowledge status; () any
    exclude_statuses: tuple[str, ...] = ()  # cheaper than `statuses` when most documents pass


class Index:
    def __init__(self, directory: StrPath, lock_path: StrPath | None = None):
        # Paths as strings (os.path), not pathlib: pathlib imports `re` and `urllib.parse`, ~7 ms
        # of every `smriti search` process (the hook's recall server opens this too).
        self.dir = os.fspath(directory)
        # Beside the index folder, as pathlib's `parent` names it (a trailing slash is no level).
        parent = os.path.dirname(self.dir.rstrip("/") or "/")
        self.lock_path = os.fspath(lock_path) if lock_path else os.path.join(parent, "index.lock")
        self.schema = _schema()
        self.analyzer = _analyzer()
        self.needs_rebuild = False
        self.read_only = False  # a folder this process cannot write: searched through a shadow copy
        self._sessions_memo: tuple[tuple[int, ...] | None, tantivy.Query | None] = (None, None)
        self._pinned: dict[int, tantivy.Searcher] = {}  # thread id -> its pinned searcher
        self._clauses_memo: dict[Filters, list[tuple[tantivy.Occur, tantivy.Query]] | None] = {}
        self._index = self._open()

    def _state(self) -> str:
        """ "built", "empty" (started over, waiting for its first rebuild) or "stale" (missing,
        another schema version, or its files are gone): read from the version file."""
        try:
            with open(os.path.join(self.dir, VERSION_FILE), encoding="utf-8") as fh:
                meta = leanjson.loads(fh.read())
        except (OSError, ValueError):
            return "stale"
        if not isinstance(meta, dict) or meta.get("schema_version") != SCHEMA_VERSION:
            return "stale"
        if not os.path.exists(os.path.join(self.dir, "meta.json")):
            return "stale"
        return "empty" if meta.get("built") is False else "built"

    def _mark(self, built: bool) -> None:
        import json  # only when the index is (re)built

        tmp = os.path.join(self.dir, f".{VERSION_FILE}.{os.getpid()}")
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(json.dumps({"schema_version": SCHEMA_VERSION, "built": built}))
        os.replace(tmp, os.path.join(self.dir, VERSION_FILE))  # never half-written: a reader would start over

    def _try_open(self, directory: str | None = None) -> tantivy.Index | None:
        try:
            return tantivy.Index(self.schema, path=directory or self.dir, reuse=True)
        except ValueError:  # unreadable files
            return None

    def _writable(self) -> bool:
        import tempfile  # only when the index did not open

        try:
            with tempfile.TemporaryFile(dir=self.dir):
                return True
        except OSError:
            return False

    def _open_shadow(self, state: str) -> tantivy.Index:
        """A read-only index folder, opened through a private copy: Tantivy must take its lock file
        and write `.managed.json` even to read. Files are hard-linked where the file system allows
        (free), copied otherwise; the copy goes when the process exits."""
        import atexit
        import shutil
        import tempfile
        from pathlib import Path

        from smriti.errors import StoreError

        if state != "built":
            raise StoreError(f"the search index at {self.dir} needs a rebuild but its folder is read-only")
        shadow = Path(tempfile.mkdtemp(prefix="smriti-index-"))
        atexit.register(shutil.rmtree, shadow, True)
        for f in Path(self.dir).iterdir():
            if f.is_file() and not f.name.startswith(".tantivy-"):
                try:
                    os.link(f, shadow / f.name)
                except OSError:
                    shutil.copy2(f, shadow / f.name)
        index = self._try_open(str(shadow))
        if index is None:
            raise StoreError(f"cannot read the search index at {self.dir} (read-only); `smriti doctor` explains more")
        self.read_only = True
        return index

    def _check_writable(self) -> None:
        if self.read_only:
            from smriti.errors import StoreError

            raise StoreError(f"the search index at {self.dir} is read-only: this command needs to update it")

    def _open(self) -> tantivy.Index:
        state = self._state()
        index = self._try_open() if state != "stale" else None
        if index is None and os.path.isdir(self.dir) and not self._writable():
            index = self._open_shadow(state)
            index.register_tokenizer(TOKENIZER, self.analyzer)
            return index
        if index is None:
            # Start over, under the writer lock: processes that open a new or stale index together
            # must not wipe it under each other; the first starts over, the others find it started.
            with self._writer_lock():
                state = self._state()
                index = self._try_open() if state != "stale" else None
                if index is None:
                    self._wipe()
                    index = tantivy.Index(self.schema, path=self.dir, reuse=True)
                    self._mark(built=False)
                    state = "empty"
        self.needs_rebuild = state == "empty"
        # Tokenizers that are not built in live only in this process: register on every open.
        index.register_tokenizer(TOKENIZER, self.analyzer)
        return index

    def _wipe(self) -> None:
        import shutil  # only to start over: not on the hook's path

        if os.path.exists(self.dir):
            shutil.rmtree(self.dir)
        os.makedirs(self.dir)

    # ---- writing ---------------------------------------------------------------------------

    @contextmanager
    def _writer_lock(self) -> Iterator[None]:
        os.makedirs(os.path.dirname(self.lock_path) or ".", exist_ok=True)
        with open(self.lock_path, "a+") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _add(self, writer: tantivy.IndexWriter, doc: IndexDoc) -> None:
        if doc.knowledge_rowid:
            pieces = [
                (n, chunk)
                for n, section in enumerate(sections(doc.text))
                if section.strip()
                for chunk in chunks(section)
            ]
        else:
            passage = doc.passage if doc.message_rowid > 0 else -1  # -1: a session's digest
            pieces = [(passage, chunk) for chunk in chunks(doc.text)]
        # What every piece of the document shares, worked out once (a knowledge item has ~4 pieces).
        mid, sid, kid = doc.message_rowid, doc.session_rowid, doc.knowledge_rowid
        ts = epoch_seconds(doc.timestamp)
        prompt = int(doc.kind == "prompt" and mid > 0)
        agent, project, category = doc.agent, doc.project or "", doc.category or "uncategorized"
        role, kind, tier, status = doc.role, doc.kind, TIERS[1] if kid else TIERS[0], doc.status
        for passage, piece in pieces:
            doc_fields = (mid, sid, kid, passage, ts, prompt, agent, project, category, role, kind, tier, status)
            writer.add_document(_document(piece, *doc_fields))

    def _add_messages(
        self,
        writer: tantivy.IndexWriter,
        rows: Iterable[MessageDocRow],
        skip_sessions: Container[int] = (),
        progress: Progress | None = None,
        total: int = 0,
    ) -> int:
        """`_add` of each message row (`Store.message_doc_rows`) but those of `skip_sessions` (whose
        messages the caller adds anyway), without an IndexDoc each: a first ingest's rebuild adds
        ~200,000 of them while Tantivy's threads want both cores. Returns the number of messages added."""
        add, own, n = writer.add_document, TIERS[0], 0
        for mid, sid, text, role, kind, stamp, agent, project, category, passage in rows:
            if sid in skip_sessions:
                continue
            # As `_add` works them out for a message (its rowid > 0): a prompt is the user's, the tier own.
            ts, prompt = epoch_seconds(stamp), int(kind == "prompt")
            project, category = project or "", category or "uncategorized"
            fields = (mid, sid, 0, passage, ts, prompt, agent, project, category, role, kind, own, "active")
            for piece in chunks(text):
                add(_document(piece, *fields))
            n += 1
            if progress and not n % 5000:
                progress(n, total)
        return n

    def _commit(self, writer: tantivy.IndexWriter) -> None:
        writer.commit()
        # Wait for merges so the next writer (another process, maybe) finds a settled index;
        # a writer is never reused after waiting.
        writer.wait_merging_threads()
        self._index.reload()

    def sync(self, store: Store, progress: Progress | None = None) -> int:
        """Drain the store's outbox into the index; returns the number of changes applied.

        One writer and one commit for the whole outbox (a commit costs a segment flush, a merge
        and a reload), or one per COMMIT_SECONDS on a long drain so a crash replays little."""
        if self.needs_rebuild:
            rebuilt = self.rebuild(store, progress, if_needed=True)
            if rebuilt is not None:
                return rebuilt
        applied = 0
        if self.read_only:
            if store.outbox_size():
                self._check_writable()
            return 0
        with self._writer_lock():
            total = store.outbox_size()
            writer: tantivy.IndexWriter | None = None
            done_upto = 0  # the last outbox id whose change is in the writer, not yet committed
            started = time.monotonic()
            while True:
                batch = store.outbox_batch(after=done_upto)
                if not batch:
                    break
                if writer is None:
                    writer = self._index.writer(WRITER_HEAP, _threads(total - applied >= BIG_DRAIN))
                    started = time.monotonic()
                self._apply(writer, store, batch)
                done_upto = batch[-1][0]
                applied += len(batch)
                if time.monotonic() - started > COMMIT_SECONDS:
                    self._commit(writer)
                    store.outbox_done(done_upto)
                    writer = None
                if progress:
                    progress(applied, total)
            if writer is not None:
                self._commit(writer)
                # Only after the index commit: a crash in between replays the changes, and
                # replaying is harmless (delete, then add again).
                store.outbox_done(done_upto)
        return applied

    def _apply(self, writer: tantivy.IndexWriter, store: Store, batch: list[tuple[int, str, int]]) -> None:
        """One batch of outbox changes: delete what they name, add it again from the store."""
        session_set = {ref for _, op, ref in batch if op == "session"}
        message_ids = sorted({ref for _, op, ref in batch if op == "message"})
        session_ids = sorted(session_set)
        digest_ids = sorted({ref for _, op, ref in batch if op == "digest"} - session_set)
        knowledge_ids = sorted({ref for _, op, ref in batch if op == "knowledge"})
        for kid in knowledge_ids:
            writer.delete_documents_by_term("kid", kid)
        for mid in message_ids:
            writer.delete_documents_by_term("mid", mid)
        for sid in session_ids:
            writer.delete_documents_by_term("sid", sid)
        for sid in digest_ids:
            writer.delete_documents_by_term("mid", -sid)  # a session digest's document
        self._add_messages(writer, store.message_doc_rows(message_rowids=message_ids), skip_sessions=session_set)
        self._add_messages(writer, store.message_doc_rows(session_rowids=session_ids))
        for doc in store.digest_docs([*session_ids, *digest_ids]):
            self._add(writer, doc)
        for doc in store.knowledge_docs(knowledge_ids):
            self._add(writer, doc)

    @contextmanager
    def feed(self, store: Store, *, big: bool) -> Iterator[Feed | None]:
        """A drain of the outbox run WHILE a transaction of the store writes it, so Tantivy's
        indexing threads (no GIL) work on the other core while Python stores the next items. None
        when this index cannot take one (read-only, or waiting for a rebuild): the caller then
        stores as before and `sync` drains afterwards. Use it around the transaction (the writer lock
        is taken before the store's write lock, the order every other writer of both keeps), call
        `Feed.step` inside it, and `Feed.commit` after the store committed."""
        if self.read_only or self.needs_rebuild:
            yield None
            return
        with self._writer_lock():
            feed = Feed(self, store, big)
            try:
                yield feed
            finally:
                feed.writer = None  # uncommitted (the transaction failed, or commit was never called): dropped

    def rebuild(self, store: Store, progress: Progress | None = None, *, if_needed: bool = False) -> int | None:
        """Throw the index away and index every message in the store again. With `if_needed`, not
        when another process has built it meanwhile (then None: the caller drains the outbox)."""
        self._check_writable()
        with self._writer_lock():
            if if_needed and self._state() == "built":
                self._index.reload()
                self.needs_rebuild = False
                return None
            # Everything pending is covered by a full rebuild; clear it first so a change
            # arriving during the rebuild stays queued for the next sync.
            upto = store.outbox_batch(limit=1_000_000)
            writer = self._index.writer(WRITER_HEAP, _threads(True))
            writer.delete_all_documents()
            total = store.count_indexable()
            n = self._add_messages(writer, store.message_doc_rows(), progress=progress, total=total)
            for doc in [*store.digest_docs(), *store.knowledge_docs()]:
                self._add(writer, doc)
            self._commit(writer)
            if upto:
                store.outbox_done(upto[-1][0])
            self._mark(built=True)
            self.needs_rebuild = False
            if progress:
                progress(n, total)
            return n

    # ---- reading ---------------------------------------------------------------------------

    def _searcher(self) -> tantivy.Searcher:
        pinned = self._pinned.get(get_ident())
        return pinned if pinned is not None else self._index.searcher()

    @contextmanager
    def pinned(self) -> Iterator[None]:
        """Every read inside, in this thread, sees one searcher (one commit): recall compares
        document addresses and frequencies across its searches, and another process may commit
        between two of them."""
        me = get_ident()
        if me in self._pinned:
            yield
            return
        self._pinned[me] = self._index.searcher()
        try:
            yield
        finally:
            del self._pinned[me]

    def analyze(self, text: str) -> list[str]:
        seen: dict[str, None] = {}
        for tok in self.analyzer.analyze(text):
            seen.setdefault(tok, None)
        return list(seen)

    def _any_of(self, field: str, values: Iterable[str]) -> tantivy.Query:
        subs = [
            (tantivy.Occur.Should, tantivy.Query.term_query(self.schema, field, v, index_option="basic"))
            for v in values
        ]
        return tantivy.Query.boolean_query(subs)

    def _sessions(self, rowids: tuple[int, ...]) -> tantivy.Query:
        # A term-set query walks the whole field (~1 ms at 200k documents whatever the set's size);
        # a few hundred term queries OR'd cost a tenth of that. Recall's refine step runs one per
        # common concept of a prompt.
        memo_rowids, memo_query = self._sessions_memo
        if memo_rowids == rowids and memo_query is not None:
            return memo_query  # the same pool, once per common concept
        if len(rowids) > SMALL_SET:
            query = tantivy.Query.term_set_query(self.schema, "sid", list(rowids))
        else:
            query = tantivy.Query.boolean_query(
                [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "sid", r)) for r in rowids]
            )
        self._sessions_memo = (rowids, query)
        return query

    def _filter_clauses(self, filters: Filters) -> list[tuple[tantivy.Occur, tantivy.Query]] | None:
        """The filters as MUST/MUST_NOT clauses; None when a filter can match nothing."""
        clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
        if filters.projects is not None:
            if not filters.projects:
                return None
            clauses.append((tantivy.Occur.Must, self._any_of("project", filters.projects)))
        if filters.agents:
            clauses.append((tantivy.Occur.Must, self._any_of("agent", filters.agents)))
        if filters.categories:
            clauses.append((tantivy.Occur.Must, self._any_of("category", filters.categories)))
        if filters.sessions is not None:
            if not filters.sessions:
                return None
            clauses.append((tantivy.Occur.Must, self._sessions(filters.sessions)))
        if filters.since is not None:
            clauses.append(
                (
                    tantivy.Occur.Must,
                    tantivy.Query.range_query(self.schema, "ts", tantivy.FieldType.Integer, filters.since, None),
                )
            )
        if filters.tiers and not set(filters.tiers) <= set(TIERS):
            clauses.append((tantivy.Occur.Must, self._any_of("tier", filters.tiers)))
        elif filters.tiers:
            # Every document has one of TIERS: "not the others" selects the same documents, and a
            # MUST_NOT on the rare tier skips its few documents where a MUST on the common one
            # walks nearly all of them (issue #18 measured search at a million messages 6.2 -> 3.2 ms).
            for tier in TIERS:
                if tier not in filters.tiers:
                    clauses.append(
                        (
                            tantivy.Occur.MustNot,
                            tantivy.Query.term_query(self.schema, "tier", tier, index_option="basic"),
                        )
                    )
        if filters.statuses:
            clauses.append((tantivy.Occur.Must, self._any_of("status", filters.statuses)))
        for sid in filters.exclude_sessions:
            clauses.append((tantivy.Occur.MustNot, tantivy.Query.term_query(self.schema, "sid", sid)))
        for status in filters.exclude_statuses:
            clauses.append(
                (tantivy.Occur.MustNot, tantivy.Query.term_query(self.schema, "status", status, index_option="basic"))
            )
        return clauses

    def build_query(self, terms: list[str], filters: Filters) -> tantivy.Query | None:
        if not terms:
            return None
        clauses = self._filter_clauses(filters)
        if clauses is None:
            return None
        text_q = tantivy.Query.boolean_query(
            [
                (tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "text", t, index_option="freq"))
                for t in terms
            ]
        )
        return tantivy.Query.boolean_query([(tantivy.Occur.Must, text_q), *clauses])

    def search(self, text: str, filters: Filters = Filters(), limit: int = 200) -> list[Hit]:
        query = self.build_query(self.analyze(text), filters)
        if query is None:
            return []
        searcher = self._searcher()
        scores, addrs, mids, kids, _ = _ranked(searcher, query, limit)
        if not scores:
            return []
        sids = searcher.fast_field_values("sid", addrs)
        return [
            Hit(score, int(m), int(s or 0), int(k or 0))
            for score, m, s, k in zip(scores, mids, sids, kids, strict=True)
            if m is not None
        ]

    def filter_clauses(self, filters: Filters) -> list[tuple[tantivy.Occur, tantivy.Query]] | None:
        """The filters as clauses to AND with a scored query without adding to its score (recall's
        query helper): the positive ones inside one constant-score query, the exclusions as they
        are. A MUST term on a field every document has (e.g. status:active) costs a walk over every
        document, so exclusions are cheaper spelled as MUST_NOT. None when nothing can match."""
        if filters in self._clauses_memo:
            return self._clauses_memo[filters]  # a prompt's searches share two or three filters
        clauses = self._filter_clauses(filters)
        out = None
        if clauses is not None:
            must = [c for c in clauses if c[0] == tantivy.Occur.Must]
            out = [c for c in clauses if c[0] != tantivy.Occur.Must]
            if must:
                whole = tantivy.Query.const_score_query(tantivy.Query.boolean_query(must), 0.0)
                out.insert(0, (tantivy.Occur.Must, whole))
        if len(self._clauses_memo) >= CLAUSES_MEMO:
            self._clauses_memo.clear()
        self._clauses_memo[filters] = out
        return out

    def _text_and_filters(self, text_q: tantivy.Query, filters: Filters) -> tantivy.Query | None:
        clauses = self.filter_clauses(filters)
        if clauses is None:
            return None
        return tantivy.Query.boolean_query([(tantivy.Occur.Must, text_q), *clauses]) if clauses else text_q

    def _run(self, text_q: tantivy.Query, filters: Filters, limit: int, *, addresses: bool = False) -> HitColumns:
        query = self._text_and_filters(text_q, filters)
        if query is None:
            return NO_HITS
        searcher = self._searcher()
        scores, addrs, mids, kids, pids = _ranked(searcher, query, limit)
        if not scores:
            return NO_HITS
        return HitColumns(
            scores,
            mids,
            searcher.fast_field_values("sid", addrs),
            kids,
            pids,
            [(a.segment_ord, a.doc) for a in addrs] if addresses else [],
            searcher.fast_field_values("prompt", addrs),
        )

    def _best_of(self, alternatives: list[tuple[list[str], float]]) -> tantivy.Query | None:
        subs = []
        for words, weight in alternatives:
            if not words:
                continue
            terms = [tantivy.Query.term_query(self.schema, "text", w, index_option="freq") for w in words]
            q = terms[0] if len(terms) == 1 else tantivy.Query.boolean_query([(tantivy.Occur.Must, t) for t in terms])
            subs.append(q if weight == 1.0 else tantivy.Query.boost_query(q, weight))
        if not subs:
            return None
        return subs[0] if len(subs) == 1 else tantivy.Query.disjunction_max_query(subs)

    def _any_of_groups(self, groups: list[list[tuple[list[str], float]]]) -> tantivy.Query | None:
        subs = [q for q in map(self._best_of, groups) if q is not None]
        if not subs:
            return None
        return subs[0] if len(subs) == 1 else tantivy.Query.boolean_query([(tantivy.Occur.Should, q) for q in subs])

    def search_best_of(
        self,
        alternatives: list[tuple[list[str], float]],
        filters: Filters = Filters(),
        limit: int = 200,
        *,
        addresses: bool = False,
    ) -> HitColumns:
        """Recall's query helper: documents matching any of `alternatives` (analyzed words that must
        all occur, and a weight), each scored by its best alternative's BM25 times that weight
        (a disjunction-max of boosted queries; the filters add nothing to the score). Returned as
        columns, not one object per hit: recall reads thousands per prompt. With `addresses`, each
        hit's document address too (comparable only within one `pinned()` block)."""
        text_q = self._best_of(alternatives)
        return NO_HITS if text_q is None else self._run(text_q, filters, limit, addresses=addresses)

    def search_any_of(
        self, groups: list[list[tuple[list[str], float]]], filters: Filters = Filters(), limit: int = 200
    ) -> HitColumns:
        """Documents matching any of `groups` (each a `search_best_of` alternatives list), scored by
        the sum of each group's best-alternative score: the documents that hold most of them first."""
        text_q = self._any_of_groups(groups)
        return NO_HITS if text_q is None else self._run(text_q, filters, limit)

    def addresses_any_of(
        self, groups: list[list[tuple[list[str], float]]], filters: Filters = Filters(), limit: int = 200
    ) -> set[Address]:
        """The addresses of (up to `limit`) documents matching any of `groups`: one search that says
        which of several searches' hits pass a further filter, without reading their fields."""
        text_q = self._any_of_groups(groups)
        query = None if text_q is None else self._text_and_filters(text_q, filters)
        if query is None:
            return set()
        limit = max(limit, 1)
        searcher = self._searcher()
        hits = _top(searcher, query, limit)
        addrs = [addr for _, addr in hits]
        if len(hits) > limit:  # a tie group cut by the limit: its members with the first keys stay
            fields = [searcher.fast_field_values(f, addrs) for f in ("mid", "kid", "pid")]
            order = _tie_order([score for score, _ in hits], *fields)
            addrs = _pick(addrs, order[:limit] if order is not None else range(limit))
        return {(addr.segment_ord, addr.doc) for addr in addrs}

    def idf(self, terms: list[str]) -> dict[str, float]:
        """BM25's inverse document frequency of each analyzed term in the text field (a term no
        document holds gets the highest value: it is the rarest)."""
        searcher = self._searcher()
        n = max(searcher.num_docs, 1)
        return {t: bm25_idf(searcher.doc_freq("text", t), n) for t in terms}

    def doc_freqs(self, terms: Iterable[str], field: str = "text") -> dict[str, int]:
        """How many documents hold each term (analyzed for the text field, raw for the others)."""
        searcher = self._searcher()
        return {t: searcher.doc_freq(field, t) for t in terms}

    def num_docs(self) -> int:
        return self._searcher().num_docs

    def size_bytes(self) -> int:
        from pathlib import Path

        return sum(p.stat().st_size for p in Path(self.dir).rglob("*") if p.is_file())


class Feed:
    """The outbox drained inside the store's transaction that fills it (`Index.feed`).

    The outbox keeps its meaning: a change leaves it only after the index committed it, and the
    index commits only after the store did. A process that dies in between leaves the changes in
    the outbox (Tantivy drops a writer's uncommitted documents), so the next command indexes them;
    one that dies before the store's commit leaves neither. One commit at the end, however long the
    transaction: documents committed before the store's commit could outlive a rollback."""

    def __init__(self, index: Index, store: Store, big: bool):
        self.index = index
        self.store = store
        self.big = big
        self.writer: tantivy.IndexWriter | None = None
        self.done_upto = 0  # the last outbox id whose change is in the writer, not yet committed
        self.applied = 0

    def step(self) -> None:
        """Hand the changes the transaction has written since the last step to the writer (deletes,
        then documents read back from the store, as `Index.sync` does)."""
        while batch := self.store.outbox_batch(after=self.done_upto):
            if self.writer is None:
                self.writer = self.index._index.writer(WRITER_HEAP, _threads(self.big))
            self.index._apply(self.writer, self.store, batch)
            self.done_upto = batch[-1][0]
            self.applied += len(batch)

    def commit(self) -> int:
        """After the store's commit: commit the index, then mark the changes done. Returns how many."""
        self.step()  # anything written after the last step (a change outside the transaction too)
        if self.writer is not None:
            self.index._commit(self.writer)
            self.writer = None
            self.store.outbox_done(self.done_upto)
        return self.applied
