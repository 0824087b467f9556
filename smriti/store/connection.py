"""The one apsw connection every area of the store shares, and the helpers they use."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

import apsw

from smriti.errors import StoreError
from smriti.store.migrations import migrate, pending_migrations

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any, Self, TypeAlias, TypeVar

    T = TypeVar("T")
    StrPath: TypeAlias = str | os.PathLike[str]  # a path as a string or a Path

BUSY_TIMEOUT_MS = 10_000
# The page size of a store made new (SQLite's default is 4 KB; a store made before keeps its own).
# A first ingest writes every page twice, into the WAL and back into the file: with 32 KB pages it
# makes an eighth of the frames, message texts of a few KB sit in their row's page instead of a
# chain of overflow pages, and the file is a tenth smaller. Measured on 10,000 sessions (378 MB of
# transcripts): ~10 % less wall and ~7 % less CPU than with 4 KB pages, 193 MB against 221 MB; recall
# and search take the same time (benchmarks/README.md, thirteenth round).
NEW_STORE_PAGE_SIZE = 32_768
# The WAL's size between checkpoints while `Store.bulk` runs (in pages of the store's size)
BULK_CHECKPOINT_BYTES = 64 * 1024 * 1024
# A WAL below SQLite's own checkpoint size (1,000 pages of 4 KB) is left to SQLite's own checkpoints
SMALL_WAL_BYTES = 4_096_000

# What apsw raises on a file that is no SQLite database, or on a damaged page found on a read: the
# CLI and doctor turn it into one clear message without importing apsw themselves.
DAMAGED_DB_ERRORS: tuple[type[Exception], ...] = (apsw.NotADBError, apsw.CorruptError)
# A write that cannot happen: the disk (or quota) is full, the store was opened read-only, another
# process held the write lock past the busy timeout. Each rolls its transaction back (nothing
# half-written); the CLI says which in one line.
FULL_ERRORS: tuple[type[Exception], ...] = (apsw.FullError,)
READ_ONLY_ERRORS: tuple[type[Exception], ...] = (apsw.ReadOnlyError,)
BUSY_ERRORS: tuple[type[Exception], ...] = (apsw.BusyError, apsw.LockedError)
# A write the OS failed (SQLite says "disk I/O error" for a file size limit or a failing disk).
IO_ERRORS: tuple[type[Exception], ...] = (apsw.IOError,)


# `in (…)` lists go in chunks: SQLite caps the parameters of one statement (999 in older builds).
IN_CHUNK = 500


def in_chunks(values: Sequence[T], size: int = IN_CHUNK) -> Iterator[tuple[Sequence[T], str]]:
    """`values` in chunks of at most `size`, each with its `?,?,…` placeholders for an `in (…)` list."""
    for start in range(0, len(values), size):
        chunk = values[start : start + size]
        yield chunk, ",".join("?" * len(chunk))


def where_in(column: str, values: Sequence[T] | None) -> Iterator[tuple[str, list[T]]]:
    """(where clause, its arguments) pairs that cover `values` in chunks; None: one clause for every row."""
    if values is None:
        yield "1", []
        return
    for chunk, marks in in_chunks(values):
        yield f"{column} in ({marks})", list(chunk)


_now: tuple[int, str] = (-1, "")  # the last second utc_now formatted, and its text


def utc_now() -> str:
    # time, not datetime: the same text (UTC, whole seconds) without importing datetime in every
    # process that opens a store (a search needs no date). Formatted once a second: a first ingest
    # asks a few times for each of thousands of sessions.
    global _now
    second = int(time.time())
    if second != _now[0]:
        _now = (second, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second)))
    return _now[1]


def _first_sha256(data: bytes) -> Any:
    # hashlib costs the first prompt's in-process recall ~3 ms (OpenSSL), which reads no hashes:
    # imported on the first hash, which then rebinds _sha256 to hashlib's own.
    global _sha256
    from hashlib import sha256

    _sha256 = sha256
    return sha256(data)


_sha256: Callable[[bytes], Any] = _first_sha256


def text_hash(text: str) -> bytes:
    return _sha256(text.encode("utf-8", "surrogatepass")).digest()


def key_hash(agent: str, key: str) -> int:
    """A message key as a signed 64-bit integer, unique within the agent (collisions: ~n²/2⁶⁴)."""
    digest = _sha256(f"{agent}\0{key}".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def public_session_id(agent: str, native_id: str) -> str:
    """smriti's id for a session: stable on every machine for the same agent session."""
    return _sha256(f"{agent}\0{native_id}".encode()).hexdigest()[:16]


def like_escape(text: str) -> str:
    """`text` as a literal inside a LIKE pattern that uses `escape '\\'`."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def merge_list(old: list[str], new: Iterable[str]) -> list[str]:
    out = list(old)
    for item in new:
        if item not in out:
            out.append(item)
    return out


def earliest(a: str | None, b: str | None) -> str | None:
    return min(x for x in (a, b) if x) if (a or b) else None


def latest(a: str | None, b: str | None) -> str | None:
    return max(x for x in (a, b) if x) if (a or b) else None


def _checkpoint_without_waiting(conn: apsw.Connection) -> tuple[int, int]:
    """Fold the whole WAL back and truncate it, as far as readers allow: no busy timeout (the
    caller restores its own), so a reader makes this a passive checkpoint instead of a wait.
    SQLite's (frames in the WAL, frames folded back): (0, 0) once folded and truncated, (-1, -1)
    when nothing could be done; a reader that kept the WAL from being truncated gives (-1, -1) too."""
    conn.set_busy_timeout(0)
    try:
        frames: tuple[int, int] = conn.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE)
    except apsw.BusyError:
        return (-1, -1)
    return frames


def fold_wal(path: str) -> tuple[int, int]:
    """`_checkpoint_without_waiting` on a connection of its own (`fold_wal_in_background`'s thread).

    A connection that has read nothing yet has not opened the database, so it does not know the
    file is in WAL mode: SQLite answers its checkpoint with (-1, -1) and folds nothing. Until
    2026-12 that is what the background fold did, and the run's whole WAL was copied back in the
    foreground by the next commit's automatic checkpoint instead (1.1 s of ingest's index build at
    10,000 sessions). One read first, then the checkpoint."""
    conn = apsw.Connection(path)
    try:
        conn.execute("select count(*) from sqlite_master").fetchall()
        return _checkpoint_without_waiting(conn)
    finally:
        conn.close()


# Secondary indexes that a first load into a store without sessions drops at its start and builds
# again at its end (each one sort, like the two unique ones): they name sessions by project, time or
# category, tags by category, files by path, relations by their other session (a deletion's cascade
# scans those few rows instead) and messages by body. Kept during the inserts, their b-trees cost a
# first load's writes ~75 µs a session, a quarter of writing its rows (measured on 8,000 sessions).
# The two a load's queries read are built again as soon as one asks (`_index_needed`): the relation
# candidates' (answered from memory, `FirstLoad.candidates`, until that gives up) and the bodies'
# (a body is dropped only when no message uses it: a no-save deletion, a message that grew).
DEFERRED_INDEXES = (
    "sessions_project",
    "sessions_started",
    "sessions_related",
    "session_tags_category",
    "session_files_path",
    "session_relations_other",
    "messages_blob",
)


class FirstLoad:
    """What a first load (`StoreConnection.bulk`) holds in place of the indexes it dropped: every
    stored message's key hash and every body's hash, each with its row id (for the two unique
    indexes); the deferred secondary indexes' definitions; the relation candidates' order; and the
    sessions whose documents it queued for the index."""

    __slots__ = (
        "_related",
        "_related_facts",
        "blob_ids",
        "deferred_indexes",
        "message_ids",
        "queued_sessions",
        "sessions_all_new",
    )

    def __init__(self, sessions_all_new: bool) -> None:
        self.message_ids: dict[int, int] = {}  # key_hash -> messages.id
        self.blob_ids: dict[bytes, int] = {}  # hash -> blobs.id
        # No session was stored before the load: every session there is, this run wrote (and gave
        # its category and digest together, `Enricher._save`).
        self.sessions_all_new = sessions_all_new
        # Sessions this load queued a 'session' change for (`_put_new_messages`). The load is one
        # transaction that drains nothing, and a drain reads a session's messages, category and
        # digest as they are then: so that row covers what later writes of the load change in the
        # session's documents, and they add none of their own (two outbox rows a session fewer).
        self.queued_sessions: set[int] = set()
        # Relation candidates (`relation_candidates`) from memory, when the load made every session
        # there is: per (project, category), its sessions' keys in the order of the sessions_related
        # index (time, NULL first, then rowid), and per session its (project, time, category). A
        # candidate query cost ~45 µs a session in a first load (its pages cold in the CPU's caches),
        # this a few. None: not kept (sessions stored before; a time that SQLite might order otherwise).
        self._related: dict[tuple[str, str], list[tuple[bool, str, int]]] | None = {} if sessions_all_new else None
        self._related_facts: dict[int, tuple[str | None, str | None, str | None]] = {}
        self.deferred_indexes: dict[str, str] = {}  # name -> its `create index` (DEFERRED_INDEXES)

    def note_session(self, rowid: int, project: str | None, started: str | None, ended: str | None) -> None:
        """A session written (made or merged into): its project and times as the row now holds them."""
        if self._related is None:
            return
        stamp = started if ended is None else ended  # the index's coalesce(ended_at, started_at)
        if stamp is not None and not (type(stamp) is str and stamp.isascii()):
            # Python orders strings by code point, SQLite by their UTF-8 bytes: the same for ASCII.
            self._related = None
            return
        old = self._related_facts.get(rowid)
        self._relink(rowid, old, (project, stamp, old[2] if old else None))

    def note_category(self, rowid: int, category: str) -> None:
        if self._related is None:
            return
        old = self._related_facts.get(rowid)
        if old is None:  # a session this load did not write: not one the memory can stand for
            self._related = None
            return
        self._relink(rowid, old, (old[0], old[1], category))

    def forget_session(self, rowid: int) -> None:
        if self._related is not None:
            self._relink(rowid, self._related_facts.get(rowid), None)

    def _relink(
        self,
        rowid: int,
        old: tuple[str | None, str | None, str | None] | None,
        new: tuple[str | None, str | None, str | None] | None,
    ) -> None:
        from bisect import bisect_left, insort  # here: only a first load needs it, not every process with a store

        assert self._related is not None
        if old is not None and old[0] is not None and old[2] is not None:
            keys = self._related[(old[0], old[2])]
            key = (old[1] is not None, old[1] or "", rowid)
            at = bisect_left(keys, key)
            if at == len(keys) or keys[at] != key:  # never so; if it were, the memory could not be trusted
                self._related = None
                return
            del keys[at]
        if new is None:
            self._related_facts.pop(rowid, None)
            return
        self._related_facts[rowid] = new
        if new[0] is not None and new[2] is not None:
            insort(self._related.setdefault((new[0], new[2]), []), (new[1] is not None, new[1] or "", rowid))

    def candidates(self, rowid: int, project: str, category: str, limit: int) -> list[tuple[int, str | None]] | None:
        """What `relation_candidates`' query answers (newest first: time descending, then rowid
        descending, NULL times last, as SQLite reads the index backwards); None when not kept."""
        if self._related is None:
            return None
        out: list[tuple[int, str | None]] = []
        for has_stamp, stamp, other in reversed(self._related.get((project, category), ())):
            if other != rowid:
                out.append((other, stamp if has_stamp else None))
                if len(out) == limit:
                    break
        return out


class StoreConnection:
    """Opens (and migrates) the file; every area mixin works on its `conn`.

    A store that cannot be written (a read-only data dir or file, a read-only mount) is opened
    read-only when its schema is current: reading commands work, and the first write raises one of
    READ_ONLY_ERRORS. One that needs a migration then is refused with a StoreError that says so.
    """

    def __init__(self, path: StrPath):
        # A string (os.path), not a pathlib.Path: pathlib imports `re` and `urllib.parse`, ~7 ms of
        # every `smriti search` process.
        self.path = os.fspath(path)
        self.read_only = False
        self._first_load: FirstLoad | None = None
        folder = os.path.dirname(self.path) or "."
        try:
            os.makedirs(folder, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise StoreError(
                f"{folder} is not a folder (a file is in its way): point SMRITI_HOME at a folder"
            ) from None
        except PermissionError:
            if not os.path.isfile(self.path):
                raise StoreError(f"cannot create {folder}: permission denied") from None
        try:
            try:
                self.conn = self._open_writable()
            except (apsw.CantOpenError, apsw.ReadOnlyError, apsw.IOError) as exc:
                if not os.path.isfile(self.path):
                    raise StoreError(f"cannot open {self.path}: {exc}") from None
                self.conn = self._open_read_only(exc)
        except DAMAGED_DB_ERRORS as exc:
            raise StoreError(
                f"{self.path} is not a readable smriti database ({exc}). Move it aside and run "
                "`smriti ingest` to rebuild it from the agents' logs."
            ) from None
        except FULL_ERRORS:
            raise StoreError(f"the disk holding {self.path} is full: free some space and try again") from None

    def _configure(self, conn: apsw.Connection) -> None:
        conn.set_busy_timeout(BUSY_TIMEOUT_MS)
        conn.transaction_mode = "IMMEDIATE"
        conn.pragma("foreign_keys", True)
        # The content-addressed tables take random-order inserts; a bigger page cache than
        # SQLite's 2 MB default keeps their b-trees in memory during an ingest.
        conn.pragma("cache_size", -64_000)

    def _open_writable(self) -> apsw.Connection:
        conn = apsw.Connection(self.path)
        try:
            self._configure(conn)
            if conn.readonly("main"):  # SQLite opens a file it may not write read-only, silently
                raise apsw.ReadOnlyError("the database file is read-only")
            if conn.pragma("page_count") == 0:  # a new file: its size is set before its first page
                conn.pragma("page_size", NEW_STORE_PAGE_SIZE)
            # WAL: readers never wait for a writer, so one that hangs (a stuck ingest) blocks nobody
            # but other writers. Set only when it is not already: the pragma is a write.
            if str(conn.pragma("journal_mode")).lower() != "wal":
                conn.pragma("journal_mode", "wal")
            conn.pragma("synchronous", "normal")
            migrate(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_read_only(self, why: Exception) -> apsw.Connection:
        """The store for reading only; raises StoreError when its schema needs a migration.

        A WAL database needs its -shm file; where it cannot be created (a read-only folder after
        the last writer cleaned up), `immutable` reads the file as it is, without locks: nothing
        can write it meanwhile, since a writer could not create the -wal file either.
        """
        from pathlib import Path  # only for a store that cannot be written

        uri = Path(self.path).resolve().as_uri()
        flags = apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI
        conn = None
        for query in ("?mode=ro", "?immutable=1"):
            conn = apsw.Connection(uri + query, flags=flags)
            try:
                self._configure(conn)
                pending = pending_migrations(conn)
                break
            except (apsw.CantOpenError, apsw.ReadOnlyError):  # no -shm file, and none can be made
                conn.close()
                conn = None
        if conn is None:
            raise StoreError(f"cannot open {self.path}: {why}")
        if pending:
            conn.close()
            raise StoreError(
                f"{self.path} needs a schema migration ({', '.join(pending)}) but cannot be written "
                "(read-only file or folder): run any smriti command once with write access to it"
            )
        self.read_only = True
        return conn

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction around several writes (each write's own is then a savepoint).

        Ingest groups many small sessions: a commit per session rewrites the same b-tree pages
        over and over. A crash still leaves whole sessions only: the batch commits or not at all.
        """
        with self.conn:
            yield

    @contextmanager
    def bulk(self) -> Iterator[None]:
        """A long run of batches (a first ingest of months of sessions).

        Into an empty store, the run is a first load (`_first_load`): one transaction, without the
        two unique indexes on random keys until its end.

        Otherwise the WAL is checkpointed every BULK_CHECKPOINT_BYTES instead of SQLite's 1,000 pages.

        The content-addressed tables' unique indexes (blob hash, message key hash) take inserts at
        random places, so every batch dirties most of their leaf pages again, and each checkpoint
        copies them back into the database file. A checkpoint writes a page once however many
        batches changed it, so checkpointing 16× less often copies far fewer pages
        (.smriti/knowledge/code/pattern/, "Random-key unique indexes"). The WAL grows to ~64 MB at
        most meanwhile; the caller folds it back afterwards (`fold_wal_in_background`).
        """
        if self.read_only:
            yield
            return
        before = self.conn.pragma("wal_autocheckpoint")
        try:
            if self._first_load is None and self._looks_empty():
                # Its one commit puts the whole run in the WAL, and SQLite's checkpoint right after
                # it would copy all of that back while the caller waits (0.8 s at 10,000 sessions):
                # none here, so the caller's fold does it beside the index build.
                self.conn.pragma("wal_autocheckpoint", 0)
                with self.conn:  # IMMEDIATE: the write lock, then a second look under it
                    load = self._start_first_load()
                    if load is not None:
                        try:
                            yield
                        finally:
                            self._first_load = None
                        self._end_first_load(load)
                        return
                # another process wrote between the look and the lock: an ordinary run
            self.conn.pragma("wal_autocheckpoint", BULK_CHECKPOINT_BYTES // self.conn.pragma("page_size"))
            yield
        finally:
            self.conn.pragma("wal_autocheckpoint", before)

    def _looks_empty(self) -> bool:
        """No message and no body stored, and both unique indexes droppable (a store made before
        m013 with an empty `blobs` was given its named index by it)."""
        return bool(
            self._scalar(
                "select not exists (select 1 from messages) and not exists (select 1 from blobs) "
                "and (select count(*) from sqlite_master where type = 'index' "
                "and name in ('messages_key', 'blobs_hash')) = 2"
            )
        )

    def _start_first_load(self) -> FirstLoad | None:
        """Inside the run's transaction: drop the unique indexes on `messages.key_hash` and
        `blobs.hash` if the store is still empty, and keep their keys in memory instead.

        Kept during the inserts, those two indexes take each row at a random page: every batch
        rewrote most of their pages, and a first ingest of 10,000 sessions wrote 3.9 GB for a
        194 MB store. Built once at the end, each is one sort. The whole run is one transaction,
        so no other process ever sees the store without them: its writers wait for the lock
        (BUSY_TIMEOUT_MS, then a busy error), its readers see the empty store until the commit,
        and a run that fails or is interrupted leaves the store as empty as it found it."""
        if not self._looks_empty():
            return None
        self.conn.execute("drop index messages_key; drop index blobs_hash")
        load = FirstLoad(sessions_all_new=not self._scalar("select exists (select 1 from sessions)"))
        if load.sessions_all_new:
            marks = ",".join("?" * len(DEFERRED_INDEXES))
            for name, sql in self.conn.execute(
                f"select name, sql from sqlite_master where type = 'index' and name in ({marks})", DEFERRED_INDEXES
            ).fetchall():
                load.deferred_indexes[str(name)] = str(sql)
                self.conn.execute(f'drop index "{name}"')
        self._first_load = load
        return load

    def _end_first_load(self, load: FirstLoad) -> None:
        # The same definitions as the migrations' (m001, m013), built from the stored rows. The
        # writes kept keys unique through FirstLoad, so neither can fail on a duplicate.
        self.conn.execute(
            "create unique index messages_key on messages(key_hash); create unique index blobs_hash on blobs(hash)"
        )
        for name in list(load.deferred_indexes):
            self._undefer_index(load, name)

    def _index_needed(self, name: str) -> None:
        """A query about to read index `name`: built now if a first load deferred it."""
        if self._first_load is not None:
            self._undefer_index(self._first_load, name)

    def _undefer_index(self, load: FirstLoad, name: str) -> None:
        """Build a secondary index the first load dropped (`DEFERRED_INDEXES`), as it was defined."""
        sql = load.deferred_indexes.pop(name, None)
        if sql is not None:
            self.conn.execute(sql)

    def _wal_bytes(self) -> int:
        try:
            return os.path.getsize(f"{self.path}-wal")
        except OSError:
            return 0

    def fold_wal_in_background(self) -> Callable[[], None]:
        """Copy the WAL back into the database file on a connection of its own, in a thread, while
        this one goes on (SQLite works without Python's lock): ingest builds the index meanwhile.
        Returns the function that waits for it and then truncates the folded WAL.

        Neither step waits for anyone: a reader on an old snapshot (a warm recall server) makes
        them passive checkpoints that leave the rest to SQLite's usual ones, harmlessly."""
        if self.read_only or self._wal_bytes() < SMALL_WAL_BYTES:
            return lambda: None  # a run that wrote little: SQLite's own checkpoints, as always
        import threading  # only for the commands that write a lot

        path = self.path

        def fold() -> None:
            try:
                fold_wal(path)
            except apsw.Error:  # best effort: SQLite's own checkpoints do it later
                pass

        thread = threading.Thread(target=fold, name="smriti-wal-fold", daemon=True)
        thread.start()

        def wait() -> None:
            thread.join()
            # What readers kept the thread from truncating: only the truncation is left.
            if not self.conn.in_transaction and self._wal_bytes():
                try:
                    _checkpoint_without_waiting(self.conn)
                finally:
                    self.conn.set_busy_timeout(BUSY_TIMEOUT_MS)

        return wait

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _row(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...]:
        """The first row of a query that always yields one (a count, an insert's `returning`, a known id)."""
        row = self.conn.execute(sql, tuple(args)).fetchone()
        if row is None:
            raise StoreError(f"the store returned no row for {sql!r}")
        return row

    def _scalar(self, sql: str, args: Iterable[Any] = ()) -> Any:
        """The first column of `_row`."""
        return self._row(sql, args)[0]

    def _queued_in_load(self, session_rowid: int) -> bool:
        """Whether this first load queued the session's documents already (`FirstLoad.queued_sessions`)."""
        load = self._first_load
        return load is not None and session_rowid in load.queued_sessions
