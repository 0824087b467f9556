"""A first load: a bulk run into an empty store, without the unique indexes on random keys.

`Store.bulk` on an empty store drops `messages_key` and `blobs_hash`, keeps their keys in memory,
and builds both at the end, in one transaction. These tests hold it to what the indexes did:
the same rows, ids and dedupe as writes into a store that has them; the indexes back and unique
afterwards; nothing of it visible to another connection until the commit; nothing left behind by
a run that fails.
"""

from __future__ import annotations

import sys
from pathlib import Path

import apsw
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.models import Message, Session
from smriti.store import Store, key_hash, migrations
from smriti.store.connection import DEFERRED_INDEXES
from smriti.store.migrations import MIGRATIONS

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
from snapshot import store_lines  # noqa: E402

UNIQUE_INDEXES = {"messages_key", "blobs_hash"}


def _indexes(conn: apsw.Connection) -> set[str]:
    return {n for (n,) in conn.execute("select name from sqlite_master where type = 'index'")} & UNIQUE_INDEXES


def _definitions(conn: apsw.Connection) -> dict[str, str | None]:
    """Every index of the store with its definition (None: a constraint's own)."""
    return dict(conn.execute("select name, sql from sqlite_master where type = 'index'"))


def _session(native: str, messages: list[tuple[str, str, str]], agent: str = "claude-code") -> Session:
    return Session(
        agent=agent,
        native_id=native,
        messages=tuple(
            Message(role="user" if kind == "prompt" else "assistant", text=text, kind=kind, key=key)
            for key, text, kind in messages
        ),
    )


# Sessions drawn from small pools of ids, keys and texts, so that a run holds what the unique
# indexes settle: a session written twice (appended, or a message that grew), a key replayed in
# another session with the same text (kept once) or another text (kept under a scoped key), texts
# shared by several messages (one body), keys repeated within one session, and no-save deletions.
_messages = st.lists(
    st.tuples(
        st.sampled_from([f"k{i}" for i in range(8)]),
        st.sampled_from(["fix the build", "run the tests", "it works", "x" * 300, "ok"]),
        st.sampled_from(["prompt", "response", "tool_result"]),
    ),
    max_size=6,
)
_steps = st.lists(
    st.one_of(
        st.tuples(st.just("write"), st.sampled_from(["a", "b", "c", "d"]), _messages),
        st.tuples(st.just("delete"), st.sampled_from(["a", "b", "c", "d"]), st.just([])),
    ),
    min_size=1,
    max_size=12,
)


def _apply(store: Store, steps: list) -> None:
    for op, native, messages in steps:
        if op == "write":
            store.write_session(_session(native, messages), "p", "p")
        elif store.delete_session("claude-code", native):  # what ingest does on a no-save marker
            store.drop_orphan_blobs()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_steps)
def test_a_first_load_stores_what_writes_with_the_indexes_store(tmp_path_factory, steps) -> None:
    folder = tmp_path_factory.mktemp("first-load")
    loaded, plain = Store(folder / "loaded.db"), Store(folder / "plain.db")
    try:
        with loaded.bulk():
            assert not _indexes(loaded.conn)  # a first load indeed
            _apply(loaded, steps)
        _apply(plain, steps)  # outside bulk: every write through the unique indexes
        assert _indexes(loaded.conn) == UNIQUE_INDEXES
        assert loaded.conn.execute("pragma integrity_check").fetchone() == ("ok",)
        assert loaded.conn.execute("pragma foreign_key_check").fetchall() == []
        loaded.close()
        plain.close()
        assert list(store_lines(folder / "loaded.db")) == list(store_lines(folder / "plain.db"))
    finally:
        loaded.close()
        plain.close()


def test_the_rebuilt_indexes_keep_keys_and_bodies_unique(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    with store.bulk():
        store.write_session(_session("a", [("k1", "same text", "prompt"), ("k2", "same text", "response")]), "p", "p")
    assert store.conn.execute("select count(*) from blobs").fetchone() == (1,)
    blob, kh = store.conn.execute("select blob, key_hash from messages limit 1").fetchone()
    assert kh == key_hash("claude-code", "k1")
    with pytest.raises(apsw.ConstraintError):
        store.conn.execute("insert into blobs (hash, text) values ((select hash from blobs), 'copy')")
    with pytest.raises(apsw.ConstraintError):
        store.conn.execute(
            "insert into messages (session, seq, key_hash, role, kind, blob) values (1, 9, ?, 'user', 'prompt', ?)",
            (kh, blob),
        )
    # the next run finds a store that holds messages: an ordinary bulk run, indexes kept
    with store.bulk():
        assert _indexes(store.conn) == UNIQUE_INDEXES
        assert store.conn.pragma("wal_autocheckpoint") * store.conn.pragma("page_size") == 64 * 1024 * 1024
        store.write_session(_session("a", [("k3", "more", "prompt")]), "p", "p")
    store.close()


def test_no_other_connection_sees_a_first_load_until_it_commits(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    reader = apsw.Connection(str(path))
    writer = Store(path)
    writer.conn.set_busy_timeout(50)
    with store.bulk():
        store.write_session(_session("a", [("k1", "hello", "prompt")]), "p", "p")
        assert not _indexes(store.conn)
        # a reader sees the store as it was: empty, with both indexes
        assert _indexes(reader) == UNIQUE_INDEXES
        assert reader.execute("select count(*) from messages").fetchone() == (0,)
        # a writer waits for the run's lock (here only 50 ms, then a busy error)
        with pytest.raises(apsw.BusyError):
            writer.write_session(_session("b", [("k2", "hi", "prompt")]), "p", "p")
    assert _indexes(reader) == UNIQUE_INDEXES
    assert reader.execute("select count(*) from messages").fetchone() == (1,)
    # after the commit, the other writer goes through the rebuilt indexes: a replayed key is kept once
    writer.conn.set_busy_timeout(1000)
    assert writer.write_session(_session("b", [("k1", "hello", "prompt")]), "p", "p").added == 0
    reader.close()
    writer.close()
    store.close()


def test_a_first_load_builds_every_index_it_dropped_as_the_migrations_define_it(tmp_path: Path) -> None:
    """Besides the two unique ones, a first load drops the secondary indexes no query of it reads
    (`DEFERRED_INDEXES`) and builds them at its end: the same names and definitions as a store the
    migrations made, each holding what it would have held had it been kept (integrity_check)."""
    store = Store(tmp_path / "s.db")
    made = _definitions(store.conn)
    assert set(DEFERRED_INDEXES) <= set(made)
    with store.bulk():
        assert not set(DEFERRED_INDEXES) & set(_definitions(store.conn))
        for n in range(3):
            written = store.write_session(_session(f"s{n}", [(f"k{n}", f"fix the build {n}", "prompt")]), "p", "p")
            store.save_digest(
                written.session_rowid,
                title=f"fix the build {n}",
                summary=[],
                entities={},
                confidence=0.9,
                scores={},
                settings="x",
                scored_messages=0,
                files=[f"src/f{n}.py", "src/shared.py"],
                new_session=True,
            )
            store.set_rule_tags(written.session_rowid, [("code/bug", 0.9)], "code/bug", new_session=True)
            if n:
                store.save_relations(written.session_rowid, [(1, "related", 0.6)], new_session=True)
    assert _definitions(store.conn) == made
    assert store.conn.execute("pragma integrity_check").fetchone() == ("ok",)
    # a deletion's cascade, which the dropped index on a relation's other session served, still works
    assert store.delete_session("claude-code", "s0")
    assert store.conn.execute("select count(*) from session_relations").fetchone() == (0,)
    store.close()


def test_a_first_load_that_fails_leaves_the_store_empty_with_its_indexes(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    made = _definitions(store.conn)
    with pytest.raises(RuntimeError), store.bulk():
        store.write_session(_session("a", [("k1", "hello", "prompt")]), "p", "p")
        raise RuntimeError("interrupted")
    assert _indexes(store.conn) == UNIQUE_INDEXES
    assert _definitions(store.conn) == made
    assert store.conn.execute("select count(*) from messages").fetchone() == (0,)
    assert store.conn.execute("select count(*) from sessions").fetchone() == (0,)
    # and the next run is a first load again
    with store.bulk():
        assert not _indexes(store.conn)
        store.write_session(_session("a", [("k1", "hello", "prompt")]), "p", "p")
    assert store.conn.execute("select count(*) from messages").fetchone() == (1,)
    store.close()


def test_m013_names_the_hash_index_of_an_empty_store_and_leaves_a_filled_one(tmp_path: Path) -> None:
    """A store made before m013 that holds bodies keeps its column constraint (an index that cannot
    be dropped), so its bulk runs are ordinary ones; an empty one gets the named index."""
    before = [fn for fn in MIGRATIONS if fn.__name__ < "m013"]
    for name, fill in (("filled", True), ("empty", False)):
        conn = apsw.Connection(str(tmp_path / f"{name}.db"))
        with pytest.MonkeyPatch.context() as m:
            m.setattr(migrations, "MIGRATIONS", before)
            migrations.migrate(conn)
        if fill:
            with conn:
                conn.execute("insert into blobs (hash, text) values (x'00', 'old body')")
        conn.close()
        store = Store(tmp_path / f"{name}.db")
        hash_indexes = {n for (n,) in store.conn.execute("select name from sqlite_master where tbl_name = 'blobs'")}
        if fill:
            assert hash_indexes == {"blobs", "sqlite_autoindex_blobs_1"}
            with pytest.raises(apsw.ConstraintError):
                store.conn.execute("insert into blobs (hash, text) values (x'00', 'same hash')")
            with store.bulk():
                assert store.conn.pragma("wal_autocheckpoint") == 16_384  # not a first load
        else:
            assert hash_indexes == {"blobs", "blobs_hash"}
            with store.bulk():
                assert not _indexes(store.conn)
        store.close()


def test_a_first_load_leaves_its_wal_to_the_callers_fold(tmp_path: Path) -> None:
    """Its one commit puts the whole run in the WAL; SQLite's checkpoint right after it would copy
    all of that back while ingest waits, so none runs: the WAL is folded beside the index build."""
    path = tmp_path / "s.db"
    store = Store(path)
    default = store.conn.pragma("wal_autocheckpoint")
    with store.bulk():
        assert store.conn.pragma("wal_autocheckpoint") == 0
        for i in range(3000):  # ~2 KB bodies: a WAL far over SQLite's own 1,000-page checkpoint
            store.write_session(_session(f"n{i}", [(f"k{i}", f"session {i} " + "x" * 2000, "prompt")]), None, None)
    assert store.conn.pragma("wal_autocheckpoint") == default
    assert Path(f"{path}-wal").stat().st_size > 1000 * 4096  # not checkpointed at the commit
    store.fold_wal_in_background()()
    assert Path(f"{path}-wal").stat().st_size == 0
    assert store.conn.execute("select count(*) from messages").fetchone() == (3000,)
    assert store.conn.execute("pragma integrity_check").fetchone() == ("ok",)
    store.close()


def test_a_new_store_takes_big_pages_and_one_made_before_keeps_its_own(tmp_path: Path) -> None:
    from smriti.store.connection import BULK_CHECKPOINT_BYTES, NEW_STORE_PAGE_SIZE

    old = tmp_path / "old.db"
    conn = apsw.Connection(str(old))  # a store made with SQLite's 4 KB pages, as every one was
    conn.pragma("page_size", 4096)
    conn.pragma("journal_mode", "wal")
    conn.close()
    for path, size in ((tmp_path / "new.db", NEW_STORE_PAGE_SIZE), (old, 4096)):
        store = Store(path)
        try:
            assert store.conn.pragma("page_size") == size
            with store.bulk():  # an empty store: a first load
                store.write_session(_session("s1", [("k1", "first", "prompt")]), None, None)
            with store.bulk():  # a store with rows: the WAL is checkpointed by its size in bytes
                assert store.conn.pragma("wal_autocheckpoint") == BULK_CHECKPOINT_BYTES // size
                store.write_session(_session("s2", [("k2", "second", "prompt")]), None, None)
        finally:
            store.close()
        reopened = Store(path)
        try:
            assert reopened.conn.pragma("page_size") == size
            assert [s.native_id for s in reopened.sessions_by_rowid([1, 2]).values()] == ["s1", "s2"]
        finally:
            reopened.close()


def test_a_first_load_queues_each_session_once_for_the_index(tmp_path: Path) -> None:
    """In a first load a new session's one 'session' change covers its category and digest too:
    the load drains nothing before its end, and the drain reads the documents as they are then.
    (Three changes a session once made a drain that split them over two batches index a session
    twice, and the deleted copy stayed counted in term statistics.) An ordinary run keeps queuing
    the category's and the digest's changes."""
    from smriti.digest.apply import Enricher

    def outbox_ops(store: Store) -> dict[str, int]:
        return dict(store.conn.execute("select op, count(*) from outbox group by op"))

    store = Store(tmp_path / "s.db")
    enricher = Enricher(store)
    prompts = ["fix the flaky login test in the auth module", "add retries to the payment client", "rename a column"]
    with store.bulk():
        assert store._first_load is not None
        for n, prompt in enumerate(prompts):
            written = store.write_session(_session(f"s{n}", [(f"k{n}", prompt, "prompt")]), "p", "p")
            enricher.enrich(written.row or store.session_row(written.session_rowid), new_session=written.created)
    assert outbox_ops(store) == {"session": len(prompts)}
    store.outbox_done(10**9)
    written = store.write_session(_session("s9", [("k9", "bump the version of the client", "prompt")]), "p", "p")
    enricher.enrich(written.row or store.session_row(written.session_rowid), new_session=written.created)
    assert outbox_ops(store) == {"session": 2, "digest": 1}  # its messages, then its category; its digest
    store.close()
