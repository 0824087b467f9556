"""Category labels: a reviewer's corrections (tags, moved knowledge files) that categorize learns from."""

from __future__ import annotations

from smriti.store.connection import StoreConnection, utc_now
from smriti.store.knowledge import _KNOWLEDGE_COLS, _knowledge_row
from smriti.store.rows import KnowledgeRow

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any


class LabelsMixin(StoreConnection):
    def save_tag_label(self, session_rowid: int, project: str | None, category: str, document: str) -> None:
        """The session's latest `smriti tag` as a label (replacing an earlier tag's)."""
        with self.conn:
            self.conn.execute("delete from category_labels where session = ? and source = 'tag'", (session_rowid,))
            self.conn.execute(
                "insert into category_labels (project, session, category, source, document, created_at) "
                "values (?,?,?,'tag',?,?)",
                (project or "", session_rowid, category, document, utc_now()),
            )

    def remove_tag_label(self, session_rowid: int, category: str | None = None) -> int:
        """Forget the session's tag label (only if it is `category`, when given); returns how many."""
        where, args = "session = ? and source = 'tag'", [session_rowid]
        if category:
            where += " and category = ?"
            args.append(category)  # type: ignore[arg-type]
        with self.conn:
            row = self.conn.execute(f"select count(*) from category_labels where {where}", args).fetchone()
            self.conn.execute(f"delete from category_labels where {where}", args)
        return int(row[0]) if row else 0

    def save_knowledge_label(
        self, project: str, item_id: str, category: str, document: str, session_rowid: int | None = None
    ) -> None:
        """A knowledge file moved to `category`'s folder: the item's (latest) label in that repo."""
        with self.conn:
            self.conn.execute(
                "delete from category_labels where project = ? and item_id = ? and source = 'knowledge'",
                (project, item_id),
            )
            self.conn.execute(
                "insert into category_labels (project, session, item_id, category, source, document, created_at) "
                "values (?,?,?,?,'knowledge',?,?)",
                (project, session_rowid, item_id, category, document, utc_now()),
            )

    def category_labels(self, project: str | None, limit: int) -> list[tuple[str, str, int | None]]:
        """(document, category, session rowid or None) of a team's newest `limit` labels, newest first."""
        return [
            (d, c, s)
            for d, c, s in self.conn.execute(
                "select document, category, session from category_labels where project = ? order by id desc limit ?",
                (project or "", limit),
            )
        ]

    def label_counts(self, limit: int) -> dict[str, dict[str, Any]]:
        """Per category: labels in use (each team's newest `limit`), and how many came from tags and moves."""
        out: dict[str, dict[str, Any]] = {}
        for category, source, n in self.conn.execute(
            "select category, source, count(*) from ("
            "  select category, source, row_number() over (partition by project order by id desc) as rn"
            "  from category_labels"
            ") where rn <= ? group by category, source",
            (limit,),
        ):
            row = out.setdefault(category, {"corrections": 0, "tag": 0, "knowledge": 0})
            row["corrections"] += n
            row[source] += n
        return out

    def session_for_native(self, agent: str, native_id: str) -> int | None:
        row = self.conn.execute(
            "select id from sessions where agent = ? and native_id = ?", (agent, native_id)
        ).fetchone()
        return int(row[0]) if row else None

    def knowledge_in_repo(self, repo: str, item_id: str) -> KnowledgeRow | None:
        """The item a repo's sync imported, by its full id."""
        row = self.conn.execute(
            # `+repo`: the unique index on item_id, not a walk of the repo's items (see set_knowledge_committer)
            f"select {_KNOWLEDGE_COLS} from knowledge where +repo = ? and item_id = ?",
            (repo, item_id),
        ).fetchone()
        return _knowledge_row(row) if row else None
