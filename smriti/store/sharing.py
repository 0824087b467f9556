"""Share and sync records: what this user wrote into a repo, and each repo's last sync."""

from __future__ import annotations

from collections.abc import Sequence

from smriti.store.connection import StoreConnection, in_chunks, utc_now

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from typing import Any


class SharingMixin(StoreConnection):
    def record_share(
        self,
        item_id: str,
        repo: str,
        path: str,
        session_rowid: int | None,
        file_sha: str,
        status: str = "shared",
        inputs: str | None = None,
    ) -> None:
        """`inputs`: the fingerprint of what the file was rendered from (see `smriti.team.share.share_inputs`)."""
        with self.conn:
            self.conn.execute(
                "insert or replace into shares (item_id, repo, path, session, file_sha, status, shared_at, inputs) "
                "values (?,?,?,?,?,?,?,?)",
                (item_id, repo, path, session_rowid, file_sha, status, utc_now(), inputs),
            )

    def share_record(self, item_id: str, repo: str) -> dict[str, Any] | None:
        r = self.conn.execute(
            "select path, session, file_sha, status, shared_at, inputs from shares where item_id = ? and repo = ?",
            (item_id, repo),
        ).fetchone()
        if r is None:
            return None
        return {"path": r[0], "session": r[1], "file_sha": r[2], "status": r[3], "shared_at": r[4], "inputs": r[5]}

    def share_records(self, repo: str) -> dict[str, dict[str, Any]]:
        """Every record of a repo by item id (`share_record` for each, in one query)."""
        return {
            r[0]: {"path": r[1], "session": r[2], "file_sha": r[3], "status": r[4], "shared_at": r[5], "inputs": r[6]}
            for r in self.conn.execute(
                "select item_id, path, session, file_sha, status, shared_at, inputs from shares where repo = ?", (repo,)
            )
        }

    def session_content_digests(self, session_rowids: Sequence[int]) -> dict[int, bytes]:
        """Per session, a sha256 over every stored field of its messages (texts by their hashes: the
        blobs are content-addressed), its digest row and its tags: it changes whenever a message is
        added, replaced or removed, or the session is categorized or distilled again, without reading
        a text. Three queries per 500 sessions, not three per session."""
        import hashlib  # OpenSSL's ~2-3 ms, paid by share only, not by every process that opens a store

        hashers = {rowid: hashlib.sha256() for rowid in session_rowids}
        ids = list(hashers)
        c = self.conn
        for chunk, marks in in_chunks(ids):
            for row in c.execute(
                "select m.session, m.seq, m.role, m.kind, m.ts, m.tool_name, m.tool_input, m.files, m.sidechain, "
                f"m.action, b.hash from messages m join blobs b on b.id = m.blob where m.session in ({marks}) "
                "order by m.session, m.seq",
                chunk,
            ):
                hashers[row[0]].update(repr(row[1:]).encode())
            for row in c.execute(
                "select session, title, summary, entities, confidence, scores, settings, scored_messages "
                f"from digests where session in ({marks})",
                chunk,
            ):
                hashers[row[0]].update(b"\0digest" + repr(row[1:]).encode())
            for row in c.execute(
                "select session, category, confidence, source, is_primary from session_tags "
                f"where session in ({marks}) order by session, is_primary desc, confidence desc, category",
                chunk,
            ):
                hashers[row[0]].update(b"\0tag" + repr(row[1:]).encode())
        return {rowid: h.digest() for rowid, h in hashers.items()}

    def share_files(self, root: str) -> dict[str, tuple[tuple[int, int, int, int], str | None, str]]:
        """The file cache of a knowledge folder (`m012_share_files`): path → ((size, mtime_ns,
        ctime_ns, inode), item id, sha256)."""
        return {
            r[0]: ((r[1], r[2], r[3], r[4]), r[5], r[6])
            for r in self.conn.execute(
                "select path, size, mtime_ns, ctime_ns, inode, item_id, file_sha from share_files where root = ?",
                (root,),
            )
        }

    def update_share_files(
        self,
        root: str,
        put: Sequence[tuple[str, tuple[int, int, int, int], str | None, str]],
        drop: Sequence[str],
    ) -> None:
        """Upsert `put` (path, stat key, item id, sha256) and delete `drop` (paths), in one transaction."""
        if not put and not drop:
            return
        with self.conn:
            self.conn.executemany(
                "delete from share_files where root = ? and path = ?", [(root, path) for path in drop]
            )
            self.conn.executemany(
                "insert or replace into share_files (root, path, size, mtime_ns, ctime_ns, inode, item_id, file_sha) "
                "values (?,?,?,?,?,?,?,?)",
                [(root, path, *key, item_id, sha) for path, key, item_id, sha in put],
            )

    def shared_paths(self, repo: str) -> set[str]:
        """Paths (relative to the repo root) of the files this user's share wrote into a repo."""
        return {
            p for (p,) in self.conn.execute("select path from shares where repo = ? and status = 'shared'", (repo,))
        }

    def save_sync_state(self, repo: str, ref: str, commit: str | None) -> None:
        with self.conn:
            self.conn.execute(
                "insert or replace into sync_state (repo, ref, commit_sha, synced_at) values (?,?,?,?)",
                (repo, ref, commit, utc_now()),
            )

    def sync_states(self) -> list[dict[str, Any]]:
        """The last sync of every repo: ref, commit and when, newest first."""
        return [
            {"repo": r[0], "ref": r[1], "commit": r[2], "synced_at": r[3]}
            for r in self.conn.execute(
                "select repo, ref, commit_sha, synced_at from sync_state order by synced_at desc, repo"
            )
        ]
