"""The taxonomy and a session's categories: rule tags, a user's tags, the primary category."""

from __future__ import annotations

from collections.abc import Iterable

from smriti.store.connection import StoreConnection

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any


class TagsMixin(StoreConnection):
    def sync_categories(self, categories: Iterable[tuple[str, str | None, str, str]]) -> None:
        """Make the stored taxonomy hold these (id, parent, description, source) rows."""
        with self.conn:
            for cid, parent, description, source in categories:
                self.conn.execute(
                    "insert into categories (id, parent, description, source) values (?,?,?,?) "
                    "on conflict (id) do update set parent = excluded.parent, description = excluded.description, "
                    "source = case when categories.source = 'seed' then 'seed' else excluded.source end",
                    (cid, parent, description, source),
                )

    def category_rows(self) -> list[dict[str, Any]]:
        """The taxonomy with counts: sessions whose primary category it is, and sessions tagged."""
        rows = self.conn.execute(
            "select c.id, c.parent, c.description, c.source, "
            "(select count(*) from sessions s where s.category = c.id), "
            "(select count(*) from session_tags t where t.category = c.id) "
            "from categories c order by c.id"
        )
        return [
            {"id": r[0], "parent": r[1], "description": r[2], "source": r[3], "sessions": r[4], "tagged": r[5]}
            for r in rows
        ]

    def has_category(self, category: str) -> bool:
        return self.conn.execute("select 1 from categories where id = ?", (category,)).fetchone() is not None

    def category_known(self, category: str) -> bool:
        """`category` (slashes around it ignored) is one the store knows: in the taxonomy written
        to it, or a knowledge item's. False says only that the taxonomy may not be written yet
        (`digest.apply.unknown_category` decides)."""
        value = category.strip("/")
        return self.has_category(value) or (
            self.conn.execute("select 1 from knowledge where category = ? limit 1", (value,)).fetchone() is not None
        )

    def categories_in_use(self) -> list[str]:
        return [c for (c,) in self.conn.execute("select distinct category from sessions where category is not null")]

    def user_primary(self, session_rowid: int) -> str | None:
        row = self.conn.execute(
            "select category from session_tags where session = ? and source = 'user' and is_primary = 1",
            (session_rowid,),
        ).fetchone()
        return row[0] if row else None

    def set_rule_tags(
        self, session_rowid: int, tags: list[tuple[str, float]], primary: str, *, new_session: bool = False
    ) -> str:
        """Replace a session's rule tags; the primary is the user's tag when there is one.

        Returns the session's primary category now: the user's tag, else `primary` (when it changed,
        the outbox has the session, and the index re-labels it). `new_session`: the session has no tags yet
        (`Enricher.enrich`).
        """
        with self.conn:
            user = None
            if not new_session:
                self.conn.execute("delete from session_tags where session = ? and source = 'rule'", (session_rowid,))
                user = self.user_primary(session_rowid)
            self.conn.executemany(
                "insert into session_tags (session, category, confidence, source, is_primary) values (?,?,?,?,?) "
                "on conflict (session, category) do nothing",
                [
                    (session_rowid, category, confidence, "rule", int(user is None and category == primary))
                    for category, confidence in tags
                ],
            )
            category = user or primary
            self._set_primary(session_rowid, category, unset=new_session)
        return category

    def _set_primary(self, session_rowid: int, category: str, *, unset: bool = False) -> bool:
        """`unset`: the session is known to have no category yet (a row just made), so it is not read."""
        old = (
            (None,)
            if unset
            else self.conn.execute("select category from sessions where id = ?", (session_rowid,)).fetchone()
        )
        if old is None or old[0] == category:
            return False
        self.conn.execute("update sessions set category = ? where id = ?", (category, session_rowid))
        if self._first_load is not None:
            self._first_load.note_category(session_rowid, category)
        if not self._queued_in_load(session_rowid):
            self.conn.execute("insert into outbox (op, ref) values ('session', ?)", (session_rowid,))
        return True

    def tag(self, session_rowid: int, category: str) -> None:
        """A user's tag: it becomes the primary category and wins over every rule."""
        with self.conn:
            self.conn.execute("update session_tags set is_primary = 0 where session = ?", (session_rowid,))
            self.conn.execute(
                "insert into session_tags (session, category, confidence, source, is_primary) "
                "values (?,?,1.0,'user',1) on conflict (session, category) "
                "do update set source = 'user', confidence = 1.0, is_primary = 1",
                (session_rowid, category),
            )
            self._set_primary(session_rowid, category)

    def untag(self, session_rowid: int, category: str | None = None) -> list[str]:
        """Remove a user's tag (or all of them); the rules' primary category takes over again."""
        with self.conn:
            where = "session = ? and source = 'user'"
            args: list[Any] = [session_rowid]
            if category:
                where += " and category = ?"
                args.append(category)
            removed = [c for (c,) in self.conn.execute(f"select category from session_tags where {where}", args)]
            self.conn.execute(f"delete from session_tags where {where}", args)
            if self.user_primary(session_rowid) is None:
                rule = self.conn.execute(
                    "select category from session_tags where session = ? and source = 'rule' "
                    "order by is_primary desc, confidence desc limit 1",
                    (session_rowid,),
                ).fetchone()
                primary = self.conn.execute(
                    "select category from session_tags where session = ? and is_primary = 1", (session_rowid,)
                ).fetchone()
                self._set_primary(session_rowid, (primary or rule or ("uncategorized",))[0])
        return removed

    def session_tags(self, session_rowid: int) -> list[dict[str, Any]]:
        return [
            {"category": c, "confidence": round(conf, 3), "source": src, "primary": bool(p)}
            for c, conf, src, p in self.conn.execute(
                "select category, confidence, source, is_primary from session_tags where session = ? "
                "order by is_primary desc, confidence desc, category",
                (session_rowid,),
            )
        ]
