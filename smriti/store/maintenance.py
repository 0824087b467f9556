"""Retention, orphan clean-up and health checks (prune, forget, doctor)."""

from __future__ import annotations

from smriti.store.knowledge import KnowledgeMixin
from smriti.store.outbox import OutboxMixin


class MaintenanceMixin(OutboxMixin, KnowledgeMixin):
    def session_keys(
        self, *, project_keys: tuple[str, ...] | None = None, agent: str | None = None, older_than: str | None = None
    ) -> list[tuple[int, str, str]]:
        """(rowid, agent, native_id) of the sessions matching every given condition."""
        where: list[str] = ["1"]
        args: list[str] = []
        if project_keys is not None:
            where.append(f"project in ({','.join('?' * len(project_keys)) or 'null'})")
            args.extend(project_keys)
        if agent:
            where.append("agent = ?")
            args.append(agent)
        if older_than:
            where.append("coalesce(ended_at, started_at, ingested_at) < ?")
            args.append(older_than)
        return list(self.conn.execute(f"select id, agent, native_id from sessions where {' and '.join(where)}", args))

    def drop_messages(self, *, kind: str, older_than: str) -> int:
        """Delete messages of one kind from sessions older than a time (retention of tool output)."""
        with self.conn:
            ids = [
                (mid, sid)
                for mid, sid in self.conn.execute(
                    "select m.id, m.session from messages m join sessions s on s.id = m.session "
                    "where m.kind = ? and coalesce(s.ended_at, s.started_at, s.ingested_at) < ?",
                    (kind, older_than),
                )
            ]
            for mid, _ in ids:
                self.conn.execute("delete from messages where id = ?", (mid,))
                self.conn.execute("insert into outbox (op, ref) values ('message', ?)", (mid,))
            for sid in {sid for _, sid in ids}:
                self.conn.execute(
                    "update sessions set message_count = (select count(*) from messages where session = ?) "
                    "where id = ?",
                    (sid, sid),
                )
        return len(ids)

    def orphan_blobs(self) -> int:
        return self._scalar(
            "select count(*) from blobs b where not exists (select 1 from messages m where m.blob = b.id)"
        )

    def drop_orphan_blobs(self) -> int:
        self._index_needed("messages_blob")
        with self.conn:
            gone: list[bytes] = [
                digest
                for (digest,) in self.conn.execute(
                    "delete from blobs where not exists (select 1 from messages m where m.blob = blobs.id) "
                    "returning hash"
                )
            ]
            if self._first_load is not None:  # during a first load (ingest's no-save): its hashes kept in memory
                for digest in gone:
                    self._first_load.blob_ids.pop(digest, None)
            dropped = len(gone)
        return dropped

    def integrity(self) -> list[str]:
        """SQLite's own check: ["ok"] when the file is sound."""
        return [r[0] for r in self.conn.execute("pragma integrity_check")]

    def expected_index_docs(self) -> int:
        """Documents a fully synced index holds, chunks of long messages counted once each."""
        return self.count_indexable() + self._scalar("select count(*) from digests") + self.knowledge_count()

    def vacuum(self) -> None:
        self.conn.execute("vacuum")
