"""Share and sync records: what this user wrote into a repo, and each repo's last sync."""

from __future__ import annotations

import hashlib
from typing import Any

from smriti.store.connection import StoreConnection, utc_now


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

    def session_content_digest(self, session_rowid: int) -> bytes:
        """A sha256 over every stored field of a session's messages, the texts by their hashes (the
        blobs are content-addressed): it changes whenever a message is added, replaced or edited,
        without reading a single text."""
        h = hashlib.sha256()
        for row in self.conn.execute(
            "select m.seq, m.role, m.kind, m.ts, m.tool_name, m.tool_input, m.files, m.sidechain, m.action, b.hash "
            "from messages m join blobs b on b.id = m.blob where m.session = ? order by m.seq",
            (session_rowid,),
        ):
            h.update(repr(row).encode())
        return h.digest()

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
