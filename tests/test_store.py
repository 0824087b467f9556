"""The store through a real SQLite file: content addressing, merging, dedupe, migrations."""

from __future__ import annotations

import json
from pathlib import Path

import apsw
import pytest

from smriti.errors import StoreError
from smriti.models import Message, Session
from smriti.store import KnowledgeRow, SourceState, Store, public_session_id
from smriti.store.connection import fold_wal
from smriti.store.migrations import MIGRATIONS
from smriti.team.knowledge import KnowledgeItem


def msg(key: str, text: str, kind: str = "prompt", role: str = "user", ts: str = "2026-11-01T10:00:00Z") -> Message:
    return Message(role=role, text=text, kind=kind, key=key, timestamp=ts)


def sess(native: str, *messages: Message, agent: str = "claude-code", **kw) -> Session:
    return Session(agent=agent, native_id=native, messages=tuple(messages), **kw)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "s.db")
    yield s
    s.close()


def test_migrations_apply_once_and_are_recorded(tmp_path: Path) -> None:
    Store(tmp_path / "a.db").close()
    s = Store(tmp_path / "a.db")
    names = [n for (n,) in s.conn.execute("select name from _smriti_migrations order by name")]
    assert names == sorted(fn.__name__ for fn in MIGRATIONS)
    assert s.conn.pragma("journal_mode") == "wal"
    assert s.conn.transaction_mode == "IMMEDIATE"
    s.close()


def test_bodies_are_stored_once_by_content(store: Store) -> None:
    same = "run the tests again"
    store.write_session(sess("a", msg("a1", same), msg("a2", "other")), "p", "p")
    store.write_session(sess("b", msg("b1", same)), "p", "p")
    assert store.conn.execute("select count(*) from messages").fetchone()[0] == 3
    assert store.conn.execute("select count(*) from blobs").fetchone()[0] == 2


def test_rewriting_the_same_session_adds_nothing(store: Store) -> None:
    s = sess("a", msg("a1", "hello"), msg("a2", "world", kind="response", role="assistant"))
    first = store.write_session(s, "p", "p")
    outbox = store.outbox_size()
    again = store.write_session(s, "p", "p")
    assert (first.added, first.created) == (2, True)
    assert (again.added, again.updated, again.created) == (0, 0, False)
    assert store.outbox_size() == outbox


def test_appended_messages_continue_the_order_and_changed_text_replaces(store: Store) -> None:
    store.write_session(sess("a", msg("a1", "one"), msg("r1", "partial", "response", "assistant")), "p", "p")
    w = store.write_session(
        sess("a", msg("r1", "partial and complete", "response", "assistant"), msg("a3", "three")), "p", "p"
    )
    assert (w.added, w.updated) == (1, 1)
    rows = store.messages(w.session_rowid)
    assert [(m.seq, m.text) for m in rows] == [(0, "one"), (1, "partial and complete"), (2, "three")]
    assert store.get_session(w.session_id).message_count == 3


def test_replayed_keys_of_a_resumed_session_count_once(store: Store) -> None:
    store.write_session(sess("orig", msg("u1", "first"), msg("u2", "second")), "p", "p")
    w = store.write_session(sess("resumed", msg("u1", "first"), msg("u2", "second"), msg("u3", "new")), "p", "p")
    assert w.added == 1
    assert [m.text for m in store.messages(w.session_rowid)] == ["new"]


def test_session_fields_merge(store: Store) -> None:
    store.write_session(
        sess(
            "a",
            msg("1", "x", ts="2026-11-02T00:00:00Z"),
            started_at="2026-11-02T00:00:00Z",
            ended_at="2026-11-02T00:00:00Z",
            models=("m1",),
            source_paths=("/f1",),
        ),
        "p",
        "p",
    )
    w = store.write_session(
        sess(
            "a",
            msg("2", "y"),
            started_at="2026-11-01T00:00:00Z",
            ended_at="2026-11-03T00:00:00Z",
            models=("m2",),
            source_paths=("/f2",),
            title="T",
        ),
        "p",
        "p",
    )
    row = store.get_session(w.session_id)
    assert (row.started_at, row.ended_at, row.models, row.source_paths, row.title) == (
        "2026-11-01T00:00:00Z",
        "2026-11-03T00:00:00Z",
        ["m1", "m2"],
        ["/f1", "/f2"],
        "T",
    )


def test_get_session_by_id_prefix_and_native_id(store: Store) -> None:
    w = store.write_session(sess("native-123", msg("1", "x")), "p", "p")
    assert w.session_id == public_session_id("claude-code", "native-123")
    assert store.get_session(w.session_id[:6]).native_id == "native-123"
    assert store.get_session("native-123").session_id == w.session_id
    with pytest.raises(Exception, match="no session"):
        store.get_session("zzzz-nope")


def test_delete_with_reason_leaves_a_tombstone(store: Store) -> None:
    store.write_session(sess("a", msg("1", "x")), "p", "p")
    assert store.delete_session("claude-code", "a", reason="no-save")
    assert store.is_tombstoned("claude-code", "a")
    assert store.stats()["sessions"] == 0


def test_a_failed_transaction_leaves_the_old_session(store: Store) -> None:
    store.write_session(sess("a", msg("1", "x")), "p", "p")
    # Make the write fail half way (on its second message), as a crash or full disk would.
    store.conn.execute(
        "create temp trigger boom before insert on blobs when new.text = 'boom' "
        "begin select raise(abort, 'disk full'); end"
    )
    with pytest.raises(apsw.ConstraintError):
        store.write_session(sess("a", msg("2", "y"), msg("3", "boom")), "p", "p")
    assert [m.text for m in store.messages(store.get_session("a").rowid)] == ["x"]
    assert store.outbox_size() == 1


def test_a_broken_database_file_gets_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "smriti.db"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a readable smriti database"):
        Store(bad)
    assert bad.read_bytes().startswith(b"this is not")  # nothing overwritten


def test_a_second_connection_waits_instead_of_failing(tmp_path: Path) -> None:
    a, b = Store(tmp_path / "s.db"), Store(tmp_path / "s.db")
    a.write_session(sess("a", msg("1", "x")), "p", "p")
    b.write_session(sess("b", msg("2", "y")), "p", "p")
    assert a.stats()["sessions"] == 2
    a.close()
    b.close()
    assert isinstance(apsw.sqlite_lib_version(), str)


def _item(**fields: object) -> KnowledgeItem:
    base: dict = {
        "id": "3f9a2c1e5b7d4a60",
        "title": "Retry webhooks once",
        "category": "bug/fix",
        "tags": ["webhooks"],
        "project": "payments",
        "agent": "claude-code",
        "session": "a",
        "author": "alice",
        "created": "2026-11-20T10:31:00Z",
        "files": ["src/retry.py"],
        "body": "## Summary\n- once\n",
    }
    return KnowledgeItem(**{**base, **fields})


def test_knowledge_rows_are_typed_and_their_json_is_every_field_but_the_rowid(store: Store) -> None:
    assert store.upsert_knowledge(_item(), origin="sync", repo="r", path="k/a.md", blob="b1") == "imported"
    assert store.upsert_knowledge(_item(), origin="sync", repo="r", path="k/a.md", blob="b1") == "unchanged"
    assert store.upsert_knowledge(_item(title="Retry once"), origin="sync", repo="r", path="k/a.md", blob="b2") == (
        "updated"
    )
    row = store.knowledge_item("3f9a")
    assert isinstance(row, KnowledgeRow)
    assert (row.title, row.tags, row.files, row.repo, row.path, row.origin) == (
        "Retry once",
        ["webhooks"],
        ["src/retry.py"],
        "r",
        "k/a.md",
        "sync",
    )
    assert store.knowledge_by_rowid([row.rowid]) == {row.rowid: row}
    assert store.project_knowledge(("r",), ("bug",)) == [row]
    as_json = row.to_json()
    assert list(as_json) == [f for f in KnowledgeRow._fields if f != "rowid"]
    assert as_json["id"] == "3f9a2c1e5b7d4a60" and json.loads(json.dumps(as_json)) == as_json


def test_one_batch_is_one_transaction_across_every_area(store: Store) -> None:
    """The areas are mixins over one connection: a batch that fails undoes the writes of all of them."""
    with pytest.raises(RuntimeError), store.batch():
        w = store.write_session(sess("a", msg("1", "x")), "p", "p")
        store.sync_categories([("bug", None, "", "seed")])
        store.tag(w.session_rowid, "bug")
        store.upsert_knowledge(_item(), origin="share", repo="r", path=None, blob="b")
        store.record_share("3f9a2c1e5b7d4a60", "r", "k/a.md", w.session_rowid, "sha")
        store.save_source_state(SourceState("/f", "claude-code", 1, 1, None, None, ["a"]))
        raise RuntimeError("crash before the commit")
    stats = store.stats()
    assert (stats["sessions"], stats["messages"], stats["knowledge"], stats["sources"]) == (0, 0, 0, 0)
    assert store.category_rows() == [] and store.share_record("3f9a2c1e5b7d4a60", "r") is None
    assert store.outbox_size() == 0


def test_one_item_of_a_repo_is_found_without_walking_the_repo(store: Store) -> None:
    """Finding one item of a repo (a sync's committer update, a move, a removal, a label's item)
    must cost the same with 20 items as with 2,000: SQLite once chose the index on repo alone for
    these and visited every item of the repo, which made a sync after one edit quadratic. Counted
    in SQLite VM steps (a progress handler), not in time."""

    def steps(call) -> int:
        count = [0]

        def tick() -> bool:
            count[0] += 1
            return False

        store.conn.set_progress_handler(tick, 10)
        try:
            call()
        finally:
            store.conn.set_progress_handler(None)
        return count[0]

    def add(start: int, n: int) -> None:
        with store.batch():
            for i in range(start, start + n):
                store.upsert_knowledge(_item(id=f"{i:016x}"), origin="sync", repo="r", path=f"k/{i}.md", blob=f"b{i}")

    def lookups(base: int) -> dict[str, int]:
        return {
            "committer": steps(lambda: store.set_knowledge_committer("r", f"{base:016x}", "Alice <a@example.com>")),
            "move": steps(lambda: store.move_knowledge("r", f"{base + 1:016x}", "k/moved.md")),
            "in_repo": steps(lambda: store.knowledge_in_repo("r", f"{base + 2:016x}")),
            "remove": steps(lambda: store.remove_knowledge("r", [f"{base + 3:016x}"])),
        }

    add(0, 20)
    few = lookups(0)
    add(20, 2000)
    many = lookups(10)
    assert store.knowledge_in_repo("r", f"{12:016x}") is not None
    for name in few:
        assert many[name] <= 2 * few[name] + 10, (name, few, many)


def _bulk_sessions(store: Store, start: int, count: int) -> None:
    for i in range(start, start + count):
        # distinct texts of ~2 KB: enough pages that SQLite's own 1,000-page checkpoint would run
        body = f"session {i} " + "x" * 2000 + str(i)
        store.write_session(sess(f"n{i}", msg(f"k{i}", body)), None, None)


def test_bulk_checkpoints_rarely_then_folds_the_wal_back(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    made_before = apsw.Connection(str(path))  # 4 KB pages, as stores made before 2026-12 have
    made_before.pragma("page_size", 4096)
    made_before.pragma("journal_mode", "wal")
    made_before.close()
    store = Store(path)
    _bulk_sessions(store, 0, 1)  # a store that holds messages: no first load (test_first_load_*)
    default = store.conn.pragma("wal_autocheckpoint")
    with store.bulk():
        assert store.conn.pragma("wal_autocheckpoint") == 16_384
        _bulk_sessions(store, 1, 2999)
        # SQLite's default would have checkpointed (and restarted the WAL) long before 3,000 pages
        assert Path(f"{path}-wal").stat().st_size > 1000 * 4096
    assert store.conn.pragma("wal_autocheckpoint") == default
    store.fold_wal_in_background()()
    assert Path(f"{path}-wal").stat().st_size == 0  # nobody reading: checkpointed and truncated
    assert store.conn.execute("select count(*) from sessions").fetchone() == (3000,)
    assert store.conn.execute("pragma integrity_check").fetchone() == ("ok",)
    store.close()


def test_bulk_end_with_a_reader_on_an_old_snapshot_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    _bulk_sessions(store, 0, 10)
    reader = apsw.Connection(str(path))
    reader.execute("begin")
    assert reader.execute("select count(*) from sessions").fetchone() == (10,)  # holds this snapshot
    with store.bulk():
        _bulk_sessions(store, 10, 3000)  # a WAL over SQLite's own 4 MB: the fold runs, into the reader
    assert Path(f"{path}-wal").stat().st_size > 1000 * 4096
    store.fold_wal_in_background()()
    # The reader's snapshot keeps part of the WAL: the checkpoint at the end could not fold it all
    # back, and leaves it for later checkpoints.
    assert Path(f"{path}-wal").stat().st_size > 0
    assert reader.execute("select count(*) from sessions").fetchone() == (10,)
    reader.execute("commit")
    reader.close()
    store.close()
    again = Store(path)
    assert again.conn.execute("select count(*) from sessions").fetchone() == (3010,)
    again.close()


def test_a_bulk_run_folded_in_the_background_while_the_store_is_read(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    with store.bulk():
        _bulk_sessions(store, 0, 3000)
    assert Path(f"{path}-wal").stat().st_size > 1000 * 4096  # left for the caller to fold
    wait = store.fold_wal_in_background()
    # what ingest does meanwhile: read the store (the index's documents)
    assert store.conn.execute("select count(*) from messages").fetchone() == (3000,)
    wait()
    assert Path(f"{path}-wal").stat().st_size == 0
    assert store.conn.execute("pragma integrity_check").fetchone() == ("ok",)
    store.close()
    again = apsw.Connection(str(path))
    assert again.execute("select count(*) from sessions").fetchone() == (3000,)
    again.close()


def test_the_background_fold_folds_the_wal_on_a_connection_of_its_own(tmp_path: Path) -> None:
    """The thread's connection is new: it must read before it checkpoints, or SQLite does not know the
    file is in WAL mode and folds nothing (it did nothing from its first version: the next commit's automatic
    checkpoint then copied the whole run back in the foreground)."""
    path = tmp_path / "s.db"
    store = Store(path)
    with store.bulk():
        _bulk_sessions(store, 0, 3000)
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 1000 * 4096
    fresh = apsw.Connection(str(path))
    assert fresh.wal_checkpoint(mode=apsw.SQLITE_CHECKPOINT_TRUNCATE) == (-1, -1)  # what SQLite does
    fresh.close()
    assert wal.stat().st_size > 1000 * 4096
    assert fold_wal(str(path)) == (0, 0)  # folded back and truncated
    assert wal.stat().st_size == 0
    assert store.conn.execute("select count(*) from sessions").fetchone() == (3000,)
    store.close()
    again = apsw.Connection(str(path))
    assert again.execute("pragma integrity_check").fetchone() == ("ok",)
    assert again.execute("select count(*) from sessions").fetchone() == (3000,)
    again.close()


def test_a_small_wal_is_left_to_sqlites_own_checkpoints(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = Store(path)
    with store.bulk():
        _bulk_sessions(store, 0, 5)
    size = Path(f"{path}-wal").stat().st_size
    assert 0 < size < 1000 * 4096
    store.fold_wal_in_background()()
    assert Path(f"{path}-wal").stat().st_size == size  # no thread, no checkpoint: as without bulk
    store.close()


def test_a_key_whose_text_goes_back_to_an_earlier_one_keeps_its_body(store: Store) -> None:
    """One session whose message key carries text A, then B, then A again: B replaces A, then A
    replaces B. A's body must not be dropped when B replaces it (a later message still names it):
    it was, and the session's whole write failed on the foreign key (found by test_first_load)."""
    store.write_session(sess("z", msg("z1", "another session")), "p", "p")
    written = store.write_session(
        sess("a", msg("k0", "fix the build"), msg("k0", "run the tests"), msg("k0", "fix the build")), "p", "p"
    )
    assert (written.added, written.updated) == (1, 2)
    rows = store.messages(written.session_rowid)
    assert [r.text for r in rows] == ["fix the build"]
    assert store.orphan_blobs() == 0  # "run the tests" went once nothing used it
    assert store.conn.execute("pragma foreign_key_check").fetchall() == []
