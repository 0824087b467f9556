"""The index feed: the outbox of changes and the documents the index builds from the store."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from smriti.store import jsoncols as json
from smriti.store.connection import StoreConnection, where_in
from smriti.store.rows import PASSAGE_MESSAGES, IndexDoc, MessageDocRow

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any


def _message_doc(row: MessageDocRow) -> IndexDoc:
    mid, session, text, role, kind, ts, agent, project, category, passage = row
    return IndexDoc(mid, session, text, role, kind, ts, agent, project, category, passage=passage)


class OutboxMixin(StoreConnection):
    def outbox_batch(self, limit: int = 5000, after: int = 0) -> list[tuple[int, str, int]]:
        """The next changes to index, oldest first: those after outbox id `after` (a drain that
        commits once reads on past what it has applied but not yet marked done)."""
        return list(
            self.conn.execute("select id, op, ref from outbox where id > ? order by id limit ?", (after, limit))
        )

    def outbox_done(self, upto_id: int) -> None:
        with self.conn:
            self.conn.execute("delete from outbox where id <= ?", (upto_id,))

    def outbox_size(self) -> int:
        return self._scalar("select count(*) from outbox")

    def all_index_docs(self) -> Iterator[IndexDoc]:
        """Every indexed message as an IndexDoc (the index itself reads `message_doc_rows`)."""
        return map(_message_doc, self.message_doc_rows())

    def message_doc_rows(
        self, *, message_rowids: list[int] | None = None, session_rowids: list[int] | None = None
    ) -> Iterator[MessageDocRow]:
        """What the index needs of each indexed message, as plain tuples (`MessageDocRow`): of those
        messages, of those sessions' messages, or (neither given) of every message. A rebuild reads
        every message of the store, so its loop makes no object per row beyond the tuple."""
        if message_rowids is not None:
            clauses = where_in("m.id", message_rowids)
        else:
            clauses = where_in("m.session", session_rowids)
        for where, args in clauses:
            yield from self._message_doc_rows(where, args)

    def _message_doc_rows(self, where: str, args: list[Any]) -> Iterator[MessageDocRow]:
        from smriti.models import UNINDEXED_KINDS  # here: the models' dataclasses are off a search's path

        unindexed = ",".join(f"'{k}'" for k in sorted(UNINDEXED_KINDS))
        # The previous row of the stream per session: (seq, turn start). Rows mostly come in seq
        # order, so a message's turn is known from the row before it; otherwise it is looked up.
        previous: dict[int, tuple[int, int]] = {}
        for mid, session, text, role, kind, ts, agent, project, category, seq in self.conn.execute(
            "select m.id, m.session, b.text, m.role, m.kind, m.ts, s.agent, s.project, s.category, m.seq "
            "from messages m join sessions s on s.id = m.session join blobs b on b.id = m.blob "
            f"where {where} and m.kind not in ({unindexed})",
            args,
        ):
            if kind == "prompt":
                turn = seq
            else:
                before = previous.get(session)
                if before is not None and before[0] == seq - 1:
                    turn = before[1]
                else:
                    turn = self._turn_start(session, seq)
            previous[session] = (seq, turn)
            passage = turn + (seq - turn) // PASSAGE_MESSAGES * PASSAGE_MESSAGES
            yield mid, session, text, role, kind, ts, agent, project, category, passage

    def _turn_start(self, session: int, seq: int) -> int:
        """The seq of the prompt that opened the turn holding message `seq` (0 before any prompt)."""
        row = self.conn.execute(
            "select max(seq) from messages where session = ? and seq < ? and kind = 'prompt'", (session, seq)
        ).fetchone()
        return row[0] if row and row[0] is not None else 0

    def digest_docs(self, session_rowids: Iterable[int] | None = None) -> Iterator[IndexDoc]:
        """One document per session digest (title, summary, entities), keyed by -session rowid."""
        ids = None if session_rowids is None else sorted(set(session_rowids))
        for where, args in where_in("d.session", ids):
            for r in self.conn.execute(
                "select d.session, d.title, d.summary, d.entities, s.agent, s.project, s.category, "
                "coalesce(s.ended_at, s.started_at) from digests d join sessions s on s.id = d.session "
                f"where {where}",
                args,
            ):
                entities = json.loads(r[3])
                text = "\n".join(
                    [
                        r[1],
                        *json.loads(r[2]),
                        *entities.get("files", []),
                        *entities.get("errors", []),
                        *(lib.get("text", "") for lib in entities.get("libraries", [])),
                        *entities.get("commands", []),
                    ]
                )
                yield IndexDoc(-r[0], r[0], text, "system", "digest", r[7], r[4], r[5], r[6])

    def knowledge_docs(self, rowids: Iterable[int] | None = None) -> Iterator[IndexDoc]:
        """Index documents for knowledge items: title, tags, files and body; `message_rowid` 0."""
        ids = None if rowids is None else sorted(set(rowids))
        for where, args in where_in("id", ids):
            for r in self.conn.execute(
                "select id, title, tags, files, body, category, agent, repo, created, status from knowledge "
                f"where {where}",
                args,
            ):
                text = "\n".join([r[1], " ".join(json.loads(r[2])), " ".join(json.loads(r[3])), r[4]])
                yield IndexDoc(
                    0, 0, text, "system", "knowledge", r[8], r[6] or "", r[7], r[5], knowledge_rowid=r[0], status=r[9]
                )

    def count_indexable(self) -> int:
        from smriti.models import UNINDEXED_KINDS

        unindexed = ",".join(f"'{k}'" for k in sorted(UNINDEXED_KINDS))
        return self._scalar(f"select count(*) from messages where kind not in ({unindexed})")
