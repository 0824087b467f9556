"""Relations between sessions: a newer session that supersedes or relates to an older one."""

from __future__ import annotations

from collections.abc import Iterable

from smriti.store.connection import in_chunks
from smriti.store.sessions import SessionsMixin

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any


def touched_files(joined: str | None) -> frozenset[str]:
    """A session's touched files as `relation_details` reads them: the stored paths joined by NUL
    (`group_concat`), split again. Callers that keep a session's files give the paths they saved
    joined the same way, so a path holding a NUL (hostile transcripts) comes out as read back."""
    return frozenset(joined.split("\0")) if joined else frozenset()


class RelationsMixin(SessionsMixin):
    def relation_candidates(
        self, session_rowid: int, project: str | None, category: str, limit: int = 30
    ) -> list[tuple[int, str | None]]:
        """Recent sessions of the same project and category that have a digest: (rowid, time), newest
        first. Ingest asks this once per session; their titles and files come from `relation_details`
        (which a caller may keep: they change only when the session's digest is saved again)."""
        if not project or category == "uncategorized":
            return []
        load = self._first_load
        if load is not None:
            remembered = load.candidates(session_rowid, project, category, limit)
            if remembered is not None:
                return remembered
            self._index_needed("sessions_related")  # the query below reads it
        # A session's category is set only with its digest (`Enricher._save`), so in a first load
        # into a store that held no session every session with a category has a digest: the
        # sessions_related index answers alone, without a read of each candidate's digest row
        # (23 against 54 µs a session, at 10,000 sessions). Otherwise a digest may be gone (forget).
        join = "" if load is not None and load.sessions_all_new else "join digests d on d.session = s.id "
        return list(
            self.conn.execute(
                f"select s.id, coalesce(s.ended_at, s.started_at) from sessions s {join}"
                "where s.project = ? and s.category = ? and s.id != ? "
                "order by coalesce(s.ended_at, s.started_at) desc limit ?",
                (project, category, session_rowid, limit),
            )
        )

    def relation_details(self, session_rowids: list[int]) -> dict[int, tuple[str, frozenset[str]]]:
        """Each session's digest title and the files it touched (sessions without a digest left out)."""
        out: dict[int, tuple[str, frozenset[str]]] = {}
        for chunk, marks in in_chunks(session_rowids):
            for rowid, title, files in self.conn.execute(
                "select d.session, d.title, (select group_concat(f.path, char(0)) from session_files f "
                f"where f.session = d.session) from digests d where d.session in ({marks})",
                chunk,
            ):
                out[rowid] = (title, touched_files(files))
        return out

    def save_relations(
        self, session_rowid: int, relations: list[tuple[int, str, float]], *, new_session: bool = False
    ) -> None:
        """Replace the relations a session records; `new_session`: it has none yet (`Enricher.enrich`)."""
        with self.conn:
            if not new_session:
                self.conn.execute("delete from session_relations where session = ?", (session_rowid,))
            self.conn.executemany(
                "insert or replace into session_relations (session, other, relation, score) values (?,?,?,?)",
                [(session_rowid, other, rel, score) for other, rel, score in relations],
            )

    def add_relation(self, session_rowid: int, other: int, relation: str, score: float) -> None:
        with self.conn:
            self.conn.execute(
                "insert or replace into session_relations (session, other, relation, score) values (?,?,?,?)",
                (session_rowid, other, relation, score),
            )

    def relations(self, session_rowid: int) -> list[dict[str, Any]]:
        """Both directions: what this session supersedes or relates to, and what supersedes it."""
        out = []
        for other, rel, score, direction in self.conn.execute(
            "select r.other, r.relation, r.score, 'out' from session_relations r where r.session = ? "
            "union all select r.session, r.relation, r.score, 'in' from session_relations r where r.other = ?",
            (session_rowid, session_rowid),
        ):
            row = self.sessions_by_rowid([other]).get(other)
            if row is None:
                continue
            name = rel if direction == "out" else ("superseded_by" if rel == "supersedes" else "related")
            out.append({"relation": name, "session_id": row.session_id, "title": row.title, "score": round(score, 3)})
        return out

    def superseders_of(self, session_rowids: Iterable[int]) -> dict[int, set[int]]:
        """Session → the newer sessions that supersede it, for these sessions only (the prompt
        hook asks this of its candidates; reading every relation is too slow on a big store)."""
        ids = list(session_rowids)
        if not ids:
            return {}
        out: dict[int, set[int]] = {}
        for chunk, marks in in_chunks(ids):
            for newer, older in self.conn.execute(
                f"select session, other from session_relations where relation = 'supersedes' and other in ({marks})",
                chunk,
            ):
                out.setdefault(older, set()).add(newer)
        return out
