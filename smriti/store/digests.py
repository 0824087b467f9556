"""What smriti distilled from a session (title, summary, entities, scores) and the files it touched."""

from __future__ import annotations

from collections.abc import Iterable

from smriti.store import jsoncols as json
from smriti.store.connection import StoreConnection, like_escape, utc_now

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any


class DigestsMixin(StoreConnection):
    def get_digest(self, session_rowid: int) -> dict[str, Any] | None:
        r = self.conn.execute(
            "select title, summary, entities, confidence, scores, settings, scored_messages from digests "
            "where session = ?",
            (session_rowid,),
        ).fetchone()
        if r is None:
            return None
        return {
            "title": r[0],
            "summary": json.loads(r[1]),
            "entities": json.loads(r[2]),
            "confidence": r[3],
            "scores": json.loads(r[4]),
            "settings": r[5],
            "scored_messages": r[6],
        }

    def save_digest(
        self,
        session_rowid: int,
        *,
        title: str,
        summary: list[str],
        entities: dict[str, Any],
        confidence: float,
        scores: dict[str, float],
        settings: str,
        scored_messages: int,
        files: Iterable[str],
        new_session: bool = False,
    ) -> None:
        """`new_session`: the session has nothing stored yet (`Enricher.enrich`), so no old digest or files."""
        with self.conn:
            old = (
                None
                if new_session
                else self.conn.execute(
                    "select title, summary, entities from digests where session = ?", (session_rowid,)
                ).fetchone()
            )
            new = (title, json.dumps(summary, ensure_ascii=False), json.dumps(entities, ensure_ascii=False))
            self.conn.execute(
                "insert or replace into digests (session, title, summary, entities, confidence, scores, settings, "
                "scored_messages, updated_at) values (?,?,?,?,?,?,?,?,?)",
                (session_rowid, *new, confidence, json.dumps(scores), settings, scored_messages, utc_now()),
            )
            if not new_session:
                self.conn.execute("delete from session_files where session = ?", (session_rowid,))
            self.conn.executemany(
                "insert or ignore into session_files (session, path) values (?, ?)",
                [(session_rowid, f) for f in files],
            )
            if (old is None or tuple(old) != new) and not self._queued_in_load(session_rowid):
                self.conn.execute("insert into outbox (op, ref) values ('digest', ?)", (session_rowid,))

    def digest_text(self, session_rowid: int) -> str:
        digest = self.get_digest(session_rowid)
        return "" if digest is None else " ".join([digest["title"], *digest["summary"]])

    def sessions_touching(self, paths: Iterable[str]) -> list[int]:
        """Sessions whose tool calls touched any of these files (a path or its trailing part)."""
        out: set[int] = set()
        for p in paths:
            p = p.strip().removeprefix("./")
            out.update(
                sid
                for (sid,) in self.conn.execute(
                    "select session from session_files where path = ? or path like ? escape '\\'",
                    (p, "%/" + like_escape(p)),
                )
            )
        return sorted(out)

    def sessions_needing_categories(self, settings: str, all_: bool) -> list[int]:
        if all_:
            return [r for (r,) in self.conn.execute("select id from sessions order by id")]
        return [
            r
            for (r,) in self.conn.execute(
                "select s.id from sessions s left join digests d on d.session = s.id "
                "where d.session is null or d.settings != ? order by s.id",
                (settings,),
            )
        ]
