"""Share and sync records: what this user wrote into a repo, and each repo's last sync."""

from __future__ import annotations

from typing import Any

from smriti.store.connection import StoreConnection, utc_now


class SharingMixin(StoreConnection):
    def record_share(
        self, item_id: str, repo: str, path: str, session_rowid: int | None, file_sha: str, status: str = "shared"
    ) -> None:
        with self.conn:
            self.conn.execute(
                "insert or replace into shares (item_id, repo, path, session, file_sha, status, shared_at) "
                "values (?,?,?,?,?,?,?)",
                (item_id, repo, path, session_rowid, file_sha, status, utc_now()),
            )

    def share_record(self, item_id: str, repo: str) -> dict[str, Any] | None:
        r = self.conn.execute(
            "select path, session, file_sha, status, shared_at from shares where item_id = ? and repo = ?",
            (item_id, repo),
        ).fetchone()
        return (
            None if r is None else {"path": r[0], "session": r[1], "file_sha": r[2], "status": r[3], "shared_at": r[4]}
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
