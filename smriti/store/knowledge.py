"""Team knowledge items: imported by sync, written by share; read by recall, show and status."""

from __future__ import annotations

from collections.abc import Iterable

from smriti.store import jsoncols as json
from smriti.store.connection import StoreConnection, like_escape, utc_now
from smriti.store.rows import KnowledgeRow

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any

    # smriti.team imports the store: a runtime import would be a cycle
    from smriti.team.knowledge import KnowledgeItem


# The columns a KnowledgeRow is read from, in its field order.
_KNOWLEDGE_COLS = (
    "item_id, title, category, tags, project, agent, session, author, created, shared, files, status, "
    "supersedes, content_hash, body, origin, repo, path, id, committed_by"
)


def _knowledge_row(r: tuple[Any, ...]) -> KnowledgeRow:
    return KnowledgeRow(
        id=r[0],
        title=r[1],
        category=r[2],
        tags=json.loads(r[3]),
        project=r[4],
        agent=r[5],
        session=r[6],
        author=r[7],
        created=r[8],
        shared=r[9],
        files=json.loads(r[10]),
        status=r[11],
        supersedes=json.loads(r[12]),
        content_hash=r[13],
        body=r[14],
        origin=r[15],
        repo=r[16],
        path=r[17],
        rowid=r[18],
        committed_by=r[19],
    )


_INSERT_KNOWLEDGE = (
    "insert into knowledge (item_id, title, category, tags, project, agent, session, author, created, "
    "shared, files, status, supersedes, content_hash, body, origin, repo, path, blob, updated_at, "
    "committed_by) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def _knowledge_values(
    item: KnowledgeItem, origin: str, repo: str | None, path: str | None, blob: str, committed_by: str | None
) -> tuple[Any, ...]:
    """An item's row after its item_id, in `_INSERT_KNOWLEDGE`'s (and `_update_knowledge`'s) order."""
    return (
        item.title,
        item.category,
        json.dumps(list(item.tags)),
        item.project,
        item.agent,
        item.session,
        item.author,
        item.created,
        item.shared,
        json.dumps(list(item.files)),
        item.status,
        json.dumps(list(item.supersedes)),
        item.content_hash,
        item.body,
        origin,
        repo,
        path,
        blob,
        utc_now(),
        committed_by,
    )


class KnowledgeMixin(StoreConnection):
    def knowledge_blobs(self, repo: str) -> dict[str, tuple[str, str]]:
        """item id → (path, blob) of the items a repo's last sync imported."""
        return {
            r[0]: (r[1], r[2])
            for r in self.conn.execute(
                "select item_id, path, blob from knowledge where repo = ? and origin = 'sync'", (repo,)
            )
        }

    def knowledge_item_ids(self, repo: str) -> set[str]:
        """The ids of every item of a repo, synced or shared."""
        return {r[0] for r in self.conn.execute("select item_id from knowledge where repo = ?", (repo,))}

    def insert_knowledge_many(
        self, rows: list[tuple[KnowledgeItem, str, str, str | None]], *, origin: str, repo: str
    ) -> int:
        """Insert items no row of the repo has the id of (`knowledge_item_ids`), each as
        `upsert_knowledge` would ('imported'): (item, path, blob, committed_by), in this order (their
        row ids). One statement for all, then their outbox changes: sync inserts thousands."""
        if not rows:
            return 0
        before = self._scalar("select coalesce(max(id), 0) from knowledge")
        self.conn.executemany(
            _INSERT_KNOWLEDGE,
            (
                (item.id, *_knowledge_values(item, origin, repo, path, blob, committed_by))
                for item, path, blob, committed_by in rows
            ),
        )
        # New rows take ids above every existing one (no row is deleted in between): the ones just written.
        self.conn.execute(
            "insert into outbox (op, ref) select 'knowledge', id from knowledge where id > ? order by id", (before,)
        )
        return self.conn.changes()

    def upsert_knowledge(
        self,
        item: KnowledgeItem,
        *,
        origin: str,
        repo: str | None,
        path: str | None,
        blob: str,
        committed_by: str | None = None,
    ) -> str:
        """Insert or update one item; returns 'imported', 'updated' or 'unchanged'.

        `committed_by`: git's author of the commit that added or last changed the file (sync)."""
        row = self.conn.execute(
            "select id, blob, path, origin, committed_by from knowledge "
            "where item_id = ? and coalesce(repo, '') = coalesce(?, '')",
            (item.id, repo),
        ).fetchone()
        values = _knowledge_values(item, origin, repo, path, blob, committed_by)
        with self.conn:
            if row is None:
                self.conn.execute(_INSERT_KNOWLEDGE, (item.id, *values))
                rowid = self.conn.last_insert_rowid()  # not `returning`: ~3× the insert (SessionsMixin.write_session)
                self.conn.execute("insert into outbox (op, ref) values ('knowledge', ?)", (rowid,))
                outcome = "imported"
            elif (row[1], row[2], row[3]) == (blob, path, origin):
                if committed_by is not None and row[4] != committed_by:
                    self.conn.execute("update knowledge set committed_by = ? where id = ?", (committed_by, row[0]))
                outcome = "unchanged"
            else:
                self._update_knowledge(row[0], values)
                outcome = "updated"
        return outcome

    def _update_knowledge(self, rowid: int, values: tuple[Any, ...]) -> None:
        self.conn.execute(
            "update knowledge set title = ?, category = ?, tags = ?, project = ?, agent = ?, session = ?, "
            "author = ?, created = ?, shared = ?, files = ?, status = ?, supersedes = ?, content_hash = ?, "
            "body = ?, origin = ?, repo = ?, path = ?, blob = ?, updated_at = ?, committed_by = ? where id = ?",
            (*values, rowid),
        )
        self.conn.execute("insert into outbox (op, ref) values ('knowledge', ?)", (rowid,))

    def move_knowledge(self, repo: str, item_id: str, path: str, committed_by: str | None = None) -> None:
        with self.conn:
            self.conn.execute(
                "update knowledge set path = ?, updated_at = ?, committed_by = coalesce(?, committed_by) "
                "where item_id = ? and +repo = ?",
                (path, utc_now(), committed_by, item_id, repo),
            )

    def knowledge_missing_committer(self, repo: str) -> bool:
        """Whether a synced item of the repo has no committer recorded (synced before it was)."""
        return bool(
            self.conn.execute(
                "select 1 from knowledge where repo = ? and origin = 'sync' and committed_by is null limit 1", (repo,)
            ).fetchone()
        )

    # `+repo` in the lookups of one item of a repo: without it SQLite picks the index on repo alone
    # (no statistics say which is selective) and visits every item of the repo for each one; a sync
    # that touches all of them was quadratic (13 s for 10,000 items after one edit). `+` keeps
    # the column out of index choice, so the unique index on item_id finds the row (one per repo).
    def set_knowledge_committer(self, repo: str, item_id: str, committed_by: str | None) -> None:
        if committed_by is None:
            return
        with self.conn:
            self.conn.execute(
                "update knowledge set committed_by = ? where item_id = ? and +repo = ? and committed_by is not ?",
                (committed_by, item_id, repo, committed_by),
            )

    def remove_knowledge(self, repo: str, item_ids: Iterable[str]) -> int:
        n = 0
        with self.conn:
            for item_id in item_ids:
                row = self.conn.execute(
                    "select id from knowledge where item_id = ? and +repo = ?", (item_id, repo)
                ).fetchone()
                if row:
                    self.conn.execute("delete from knowledge where id = ?", (row[0],))
                    self.conn.execute("insert into outbox (op, ref) values ('knowledge', ?)", (row[0],))
                    n += 1
        return n

    def knowledge_item(self, item_id: str) -> KnowledgeRow | None:
        """An item by id or a unique prefix of one (at least 4 characters)."""
        rows = self.conn.execute(
            f"select {_KNOWLEDGE_COLS} from knowledge where item_id = ? or item_id like ?",
            (item_id, like_escape(item_id) + "%" if len(item_id) >= 4 else item_id),
        ).fetchall()
        if len(rows) != 1:
            return None
        return _knowledge_row(rows[0])

    def knowledge_by_rowid(self, rowids: Iterable[int]) -> dict[int, KnowledgeRow]:
        ids = list(set(rowids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return {
            r[18]: _knowledge_row(r)
            for r in self.conn.execute(f"select {_KNOWLEDGE_COLS} from knowledge where id in ({marks})", ids)
        }

    def superseded_item_ids(self) -> set[str]:
        """Items that an active item names in its `supersedes`, plus those marked superseded."""
        out = {i for (i,) in self.conn.execute("select item_id from knowledge where status != 'active'")}
        for (sup,) in self.conn.execute(
            "select supersedes from knowledge where status = 'active' and supersedes != '[]'"
        ):
            out.update(json.loads(sup))
        return out

    def project_knowledge(
        self, project: tuple[str, ...], categories: tuple[str, ...], limit: int = 10
    ) -> list[KnowledgeRow]:
        """Active team items of a project in these categories (or their children), newest first."""
        if not project:
            return []
        cats = " or ".join(["category = ? or category like ?"] * len(categories))
        args: list[Any] = [*project]
        for c in categories:
            args += [c, c + "/%"]
        rows = self.conn.execute(
            f"select {_KNOWLEDGE_COLS} from knowledge where repo in ({','.join('?' * len(project))}) "
            f"and status = 'active' and ({cats}) order by coalesce(shared, created) desc limit ?",
            [*args, limit],
        )
        superseded = self.superseded_item_ids()
        return [k for k in map(_knowledge_row, rows) if k.id not in superseded]

    def list_knowledge(
        self,
        *,
        repos: tuple[str, ...] | None = None,
        categories: tuple[str, ...] = (),
        statuses: tuple[str, ...] = (),
        limit: int | None = None,
    ) -> list[KnowledgeRow]:
        """Knowledge items, newest first: of these repos (project keys; None any), in these exact
        categories (() any) and statuses (() any)."""
        where: list[str] = ["1"]
        args: list[Any] = []
        if repos is not None:
            if not repos:
                return []
            where.append(f"repo in ({','.join('?' * len(repos))})")
            args += list(repos)
        if categories:
            where.append(f"category in ({','.join('?' * len(categories))})")
            args += list(categories)
        if statuses:
            where.append(f"status in ({','.join('?' * len(statuses))})")
            args += list(statuses)
        sql = (
            f"select {_KNOWLEDGE_COLS} from knowledge where {' and '.join(where)} "
            "order by coalesce(shared, created) desc, item_id"
        )
        if limit is not None:
            sql += " limit ?"
            args.append(limit)
        return [_knowledge_row(r) for r in self.conn.execute(sql, args)]

    def knowledge_count(self) -> int:
        return self._scalar("select count(*) from knowledge")
