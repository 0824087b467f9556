"""`Store.insert_knowledge_many` (sync's new items, one statement) writes the rows, row ids and
outbox changes that `upsert_knowledge` one item at a time writes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_knowledge import items

from smriti.store import Store
from smriti.team.knowledge import KnowledgeItem


def rows(store: Store) -> list[tuple[object, ...]]:
    cols = [r[1] for r in store.conn.execute("pragma table_info(knowledge)") if r[1] != "updated_at"]
    return list(store.conn.execute(f"select {', '.join(cols)} from knowledge order by id"))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(st.lists(items(), max_size=6, unique_by=lambda i: i.id), st.integers(0, 3))
def test_a_batch_insert_writes_what_one_upsert_per_item_writes(
    tmp_path_factory: object, batch: list[KnowledgeItem], before: int
) -> None:
    tmp: Path = tmp_path_factory.mktemp("s")  # type: ignore[attr-defined]
    one, many = Store(tmp / "one.db"), Store(tmp / "many.db")
    try:
        for store in (one, many):  # rows already there (another repo's, one deleted): ids go on after them
            for n in range(before):
                store.conn.execute(
                    "insert into knowledge (item_id, title, category, tags, created, files, status, supersedes, "
                    "body, origin, repo, updated_at) values (?, 't', 'c', '[]', 'x', '[]', 'active', '[]', '', "
                    "'sync', 'other', 'x')",
                    (f"{n:016x}",),
                )
            store.conn.execute("delete from knowledge where id = 1")
        args = [(item, f"p/{n}.md", f"{n:040x}", "A <a@x>" if n % 2 else None) for n, item in enumerate(batch)]
        with one.batch():
            for item, path, blob, committer in args:
                assert (
                    one.upsert_knowledge(item, origin="sync", repo="r", path=path, blob=blob, committed_by=committer)
                    == "imported"
                )
        with many.batch():
            assert many.insert_knowledge_many(args, origin="sync", repo="r") == len(batch)
        assert rows(many) == rows(one)
        outbox = "select op, ref from outbox order by id"
        assert list(many.conn.execute(outbox)) == list(one.conn.execute(outbox))
    finally:
        one.close()
        many.close()
