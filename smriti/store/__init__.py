"""The store: smriti's single source of truth on a machine, and the only module with SQL.

apsw over one SQLite file in WAL mode. Writes run in IMMEDIATE transactions (apsw's `with conn:`
otherwise begins DEFERRED, and a read-then-write then fails with BusyError at once, ignoring the
busy timeout). Every write that changes what search sees also records the change in the `outbox`
table in the same transaction; the index drains it (see index.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import apsw

from smriti.errors import NotFound, StoreError
from smriti.models import UNINDEXED_KINDS, Message, Session
from smriti.store.migrations import migrate

BUSY_TIMEOUT_MS = 10_000


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _sha256(data: bytes) -> Any:
    # hashlib costs the first prompt's in-process recall ~3 ms (OpenSSL), which reads no hashes
    global _sha256
    from hashlib import sha256

    _sha256 = sha256
    return sha256(data)


def text_hash(text: str) -> bytes:
    return _sha256(text.encode("utf-8", "surrogatepass")).digest()


def key_hash(agent: str, key: str) -> int:
    """A message key as a signed 64-bit integer, unique within the agent (collisions: ~n²/2⁶⁴)."""
    digest = _sha256(f"{agent}\0{key}".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def public_session_id(agent: str, native_id: str) -> str:
    """smriti's id for a session: stable on every machine for the same agent session."""
    return _sha256(f"{agent}\0{native_id}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class WriteResult:
    session_rowid: int
    session_id: str
    added: int
    updated: int
    created: bool


@dataclass(frozen=True)
class SourceState:
    path: str
    agent: str
    size: int
    mtime_ns: int
    inode: int | None
    resume: Any
    sessions: list[str]


@dataclass(frozen=True)
class SessionRow:
    rowid: int
    session_id: str
    agent: str
    native_id: str
    project: str | None
    project_name: str | None
    cwd: str | None
    git_branch: str | None
    agent_title: str | None  # the title the agent stored (user-set or the agent's own summary)
    started_at: str | None
    ended_at: str | None
    models: list[str]
    source_paths: list[str]
    parent_native_id: str | None
    category: str | None
    message_count: int
    digest_title: str | None = None  # smriti's, distilled from the first real request

    @property
    def title(self) -> str | None:
        """What a person sees: the agent's title when it has one, else smriti's distilled one."""
        return self.agent_title or self.digest_title

    def to_json(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "native_id": self.native_id,
            "agent": self.agent,
            "project": self.project_name,
            "project_key": self.project,
            "title": self.title,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "messages": self.message_count,
            "category": self.category or "uncategorized",
            "cwd": self.cwd,
            "git_branch": self.git_branch,
            "models": self.models,
            "parent_native_id": self.parent_native_id,
            "source_paths": self.source_paths,
        }


@dataclass(frozen=True)
class MessageRow:
    rowid: int
    session_rowid: int
    seq: int
    role: str
    kind: str
    text: str
    timestamp: str | None
    tool_name: str | None
    tool_input: Any
    files: list[str]
    sidechain: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "role": self.role,
            "kind": self.kind,
            "text": self.text,
            "timestamp": self.timestamp,
            "tool_name": self.tool_name,
            "tool_input": self.tool_input,
            "files": self.files,
            "sidechain": self.sidechain,
        }


@dataclass(frozen=True)
class IndexDoc:
    """What the index needs of one document: a message (joined with its session), a session's
    digest (message_rowid = -session rowid) or a knowledge item (knowledge_rowid set)."""

    message_rowid: int
    session_rowid: int
    text: str
    role: str
    kind: str
    timestamp: str | None
    agent: str
    project: str | None
    category: str | None
    knowledge_rowid: int = 0
    status: str = "active"


_SESSION_COLS = (
    "id, session_id, agent, native_id, project, project_name, cwd, git_branch, title, started_at, "
    "ended_at, models, source_paths, parent_native_id, category, message_count, "
    "(select d.title from digests d where d.session = sessions.id)"
)


def _session_row(r: tuple) -> SessionRow:
    return SessionRow(
        r[0],
        r[1],
        r[2],
        r[3],
        r[4],
        r[5],
        r[6],
        r[7],
        r[8],
        r[9],
        r[10],
        json.loads(r[11]),
        json.loads(r[12]),
        r[13],
        r[14],
        r[15],
        r[16],
    )


def _knowledge_dict(r: tuple) -> dict[str, Any]:
    return {
        "id": r[0],
        "title": r[1],
        "category": r[2],
        "tags": json.loads(r[3]),
        "project": r[4],
        "agent": r[5],
        "session": r[6],
        "author": r[7],
        "created": r[8],
        "shared": r[9],
        "files": json.loads(r[10]),
        "status": r[11],
        "supersedes": json.loads(r[12]),
        "content_hash": r[13],
        "body": r[14],
        "origin": r[15],
        "repo": r[16],
        "path": r[17],
        "rowid": r[18],
    }


def _like_escape(text: str) -> str:
    """`text` as a literal inside a LIKE pattern that uses `escape '\\'`."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _merge_list(old: list[str], new: Iterable[str]) -> list[str]:
    out = list(old)
    for item in new:
        if item not in out:
            out.append(item)
    return out


def _min(a: str | None, b: str | None) -> str | None:
    return min(x for x in (a, b) if x) if (a or b) else None


def _max(a: str | None, b: str | None) -> str | None:
    return max(x for x in (a, b) if x) if (a or b) else None


class Store:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = apsw.Connection(str(self.path))
            self.conn.set_busy_timeout(BUSY_TIMEOUT_MS)
            self.conn.transaction_mode = "IMMEDIATE"
            self.conn.pragma("journal_mode", "wal")
            self.conn.pragma("synchronous", "normal")
            self.conn.pragma("foreign_keys", True)
            # The content-addressed tables take random-order inserts; a bigger page cache than
            # SQLite's 2 MB default keeps their b-trees in memory during an ingest.
            self.conn.pragma("cache_size", -64_000)
            migrate(self.conn)
        except (apsw.NotADBError, apsw.CorruptError) as exc:
            raise StoreError(
                f"{self.path} is not a readable smriti database ({exc}). Move it aside and run "
                "`smriti ingest` to rebuild it from the agents' logs."
            ) from None

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction around several writes (each write's own is then a savepoint).

        Ingest groups many small sessions: a commit per session rewrites the same b-tree pages
        over and over. A crash still leaves whole sessions only: the batch commits or not at all.
        """
        with self.conn:
            yield

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- sessions and messages ------------------------------------------------------------

    def write_session(self, session: Session, project_key: str | None, project_name: str | None) -> WriteResult:
        """Merge a parsed session into the store, in one transaction.

        New messages are appended in order; a message whose key is already stored in this
        session is replaced when its text changed (a response that grew across a resume);
        a key stored in another session of the same agent (a resumed session replaying the
        original's lines) is kept where it was, so it counts once.
        """
        now = utc_now()
        sid = public_session_id(session.agent, session.native_id)
        c = self.conn
        with c:
            row = c.execute(
                "select id, title, started_at, ended_at, models, source_paths, cwd, git_branch, project, "
                "project_name, parent_native_id from sessions where agent = ? and native_id = ?",
                (session.agent, session.native_id),
            ).fetchone()
            if row is None:
                created = True
                rowid = c.execute(
                    "insert into sessions (session_id, agent, native_id, project, project_name, cwd, git_branch, "
                    "git_remote, title, started_at, ended_at, models, source_paths, parent_native_id, extra, "
                    "ingested_at, updated_at) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) returning id",
                    (
                        sid,
                        session.agent,
                        session.native_id,
                        project_key,
                        project_name,
                        session.cwd,
                        session.git_branch,
                        session.git_remote,
                        session.title,
                        session.started_at,
                        session.ended_at,
                        json.dumps(list(session.models)),
                        json.dumps(list(session.source_paths)),
                        session.parent_native_id,
                        json.dumps(session.extra, default=str),
                        now,
                        now,
                    ),
                ).fetchone()[0]
            else:
                created = False
                rowid = row[0]
                c.execute(
                    "update sessions set title = ?, started_at = ?, ended_at = ?, models = ?, source_paths = ?, "
                    "cwd = ?, git_branch = ?, project = ?, project_name = ?, parent_native_id = ?, updated_at = ? "
                    "where id = ?",
                    (
                        session.title or row[1],
                        _min(row[2], session.started_at),
                        _max(row[3], session.ended_at),
                        json.dumps(_merge_list(json.loads(row[4]), session.models)),
                        json.dumps(_merge_list(json.loads(row[5]), session.source_paths)),
                        row[6] or session.cwd,
                        session.git_branch or row[7],
                        row[8] or project_key,
                        row[9] or project_name,
                        row[10] or session.parent_native_id,
                        now,
                        rowid,
                    ),
                )
            next_seq = c.execute(
                "select coalesce(max(seq), -1) + 1 from messages where session = ?", (rowid,)
            ).fetchone()[0]
            added = updated = 0
            for m in session.messages:
                outcome = self._put_message(rowid, session.agent, session.native_id, next_seq, m)
                if outcome == "added":
                    next_seq += 1
                    added += 1
                elif outcome == "updated":
                    updated += 1
            if added:
                c.execute(
                    "update sessions set message_count = (select count(*) from messages where session = ?) where id = ?",
                    (rowid, rowid),
                )
        return WriteResult(rowid, sid, added, updated, created)

    def _put_message(self, session_rowid: int, agent: str, native_id: str, seq: int, m: Message) -> str | None:
        """Store one message of a session: "added", "updated" (its text changed) or None (known)."""
        c = self.conn
        blob = self._blob_id(m.text)
        tool_input = None if m.tool_input is None else json.dumps(m.tool_input, default=str, ensure_ascii=False)
        files = json.dumps(list(m.files)) if m.files else None
        kh = key_hash(agent, m.key)
        for _ in range(2):
            new = c.execute(
                "insert into messages (session, seq, key_hash, role, kind, blob, ts, tool_name, tool_input, files, "
                "sidechain) values (?,?,?,?,?,?,?,?,?,?,?) on conflict(key_hash) do nothing returning id",
                (
                    session_rowid,
                    seq,
                    kh,
                    m.role,
                    m.kind,
                    blob,
                    m.timestamp,
                    m.tool_name,
                    tool_input,
                    files,
                    int(m.sidechain),
                ),
            ).fetchone()
            if new is not None:
                if m.kind not in UNINDEXED_KINDS:
                    c.execute("insert into outbox (op, ref) values ('message', ?)", (new[0],))
                return "added"
            old_id, old_session, old_blob, old_kind = c.execute(
                "select id, session, blob, kind from messages where key_hash = ?", (kh,)
            ).fetchone()
            if old_session == session_rowid:
                if (old_blob, old_kind) == (blob, m.kind):
                    return None
                # A message that grew (a streamed response completed across a resume), or that a
                # later read classified better (injected context that turned out to be a prompt).
                c.execute(
                    "update messages set blob = ?, role = ?, kind = ?, tool_name = ?, tool_input = ?, files = ? "
                    "where id = ?",
                    (blob, m.role, m.kind, m.tool_name, tool_input, files, old_id),
                )
                c.execute("insert into outbox (op, ref) values ('message', ?)", (old_id,))
                return "updated"
            if old_blob == blob:
                # A resumed session replaying another session's line: stored once, where it was first.
                return None
            # Same key, different text, another session: not a replay but two sessions that reuse
            # an id (hand-made fixtures, exports). Keep it, under a key scoped to this session.
            kh = key_hash(agent, f"{native_id}\0{m.key}")
        return None

    def _blob_id(self, text: str) -> int:
        digest = text_hash(text)
        row = self.conn.execute(
            "insert into blobs (hash, text) values (?, ?) on conflict (hash) do nothing returning id", (digest, text)
        ).fetchone()
        if row is None:
            row = self.conn.execute("select id from blobs where hash = ?", (digest,)).fetchone()
        return row[0]

    def delete_session(self, agent: str, native_id: str, reason: str | None = None) -> bool:
        """Remove a session and its messages (and, with a reason, keep it out of future ingests)."""
        with self.conn:
            row = self.conn.execute(
                "select id from sessions where agent = ? and native_id = ?", (agent, native_id)
            ).fetchone()
            if reason:
                self.conn.execute(
                    "insert or replace into tombstones (agent, native_id, reason, at) values (?,?,?,?)",
                    (agent, native_id, reason, utc_now()),
                )
            if row is None:
                return False
            self.conn.execute("delete from messages where session = ?", (row[0],))
            self.conn.execute("delete from sessions where id = ?", (row[0],))
            self.conn.execute("insert into outbox (op, ref) values ('session', ?)", (row[0],))
            return True

    def is_tombstoned(self, agent: str, native_id: str) -> bool:
        return (
            self.conn.execute(
                "select 1 from tombstones where agent = ? and native_id = ?", (agent, native_id)
            ).fetchone()
            is not None
        )

    def session_row(self, rowid: int) -> SessionRow:
        return self.sessions_by_rowid([rowid])[rowid]

    def get_session(self, ident: str) -> SessionRow:
        """A session by smriti id or the agent's native id, or a unique prefix of either."""
        rows = self.conn.execute(
            f"select {_SESSION_COLS} from sessions where session_id = ? or native_id = ?", (ident, ident)
        ).fetchall()
        if not rows and len(ident) >= 4:
            rows = self.conn.execute(
                f"select {_SESSION_COLS} from sessions where session_id like ? escape '\\' "
                "or native_id like ? escape '\\' limit 3",
                (_like_escape(ident) + "%", _like_escape(ident) + "%"),
            ).fetchall()
        if not rows:
            raise NotFound(f"no session {ident!r}: see `smriti sessions` for ids")
        if len(rows) > 1:
            ids = ", ".join(r[1] for r in rows)
            raise NotFound(f"{ident!r} is ambiguous ({ids}): give more of the id")
        return _session_row(rows[0])

    def sessions_by_rowid(self, rowids: Iterable[int]) -> dict[int, SessionRow]:
        ids = list(set(rowids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return {
            r[0]: _session_row(r)
            for r in self.conn.execute(f"select {_SESSION_COLS} from sessions where id in ({marks})", ids)
        }

    def list_sessions(
        self,
        agent: str | None = None,
        projects: list[str] | None = None,
        limit: int = 20,
        categories: tuple[str, ...] = (),
    ) -> list[SessionRow]:
        where: list[str] = []
        args: list[Any] = []
        if categories:
            where.append(f"category in ({','.join('?' * len(categories))})")
            args.extend(categories)
        if agent:
            where.append("agent = ?")
            args.append(agent)
        if projects is not None:
            if not projects:
                return []
            where.append(f"project in ({','.join('?' * len(projects))})")
            args.extend(projects)
        sql = f"select {_SESSION_COLS} from sessions"
        if where:
            sql += " where " + " and ".join(where)
        sql += " order by coalesce(ended_at, started_at, ingested_at) desc, id desc limit ?"
        args.append(limit)
        return [_session_row(r) for r in self.conn.execute(sql, args)]

    def messages(self, session_rowid: int) -> list[MessageRow]:
        out = []
        for r in self.conn.execute(
            "select m.id, m.session, m.seq, m.role, m.kind, b.text, m.ts, m.tool_name, m.tool_input, m.files, "
            "m.sidechain from messages m join blobs b on b.id = m.blob where m.session = ? order by m.seq",
            (session_rowid,),
        ):
            out.append(
                MessageRow(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    r[5],
                    r[6],
                    r[7],
                    json.loads(r[8]) if r[8] else None,
                    json.loads(r[9]) if r[9] else [],
                    bool(r[10]),
                )
            )
        return out

    def message_texts(self, message_rowids: Iterable[int]) -> dict[int, str]:
        ids = list(set(message_rowids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(
            self.conn.execute(
                f"select m.id, b.text from messages m join blobs b on b.id = m.blob where m.id in ({marks})", ids
            )
        )

    def message_seqs(self, message_rowids: Iterable[int]) -> dict[int, int]:
        ids = list(set(message_rowids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self.conn.execute(f"select id, seq from messages where id in ({marks})", ids))

    def known_cwds(self) -> list[str]:
        return [c for (c,) in self.conn.execute("select distinct cwd from sessions where cwd is not null")]

    def categories_in_use(self) -> list[str]:
        return [c for (c,) in self.conn.execute("select distinct category from sessions where category is not null")]

    def resolve_projects(self, value: str) -> list[str]:
        """Project keys matching what a user typed: a key, a display name, or a path."""
        value = value.rstrip("/") or value
        keys = [
            k
            for (k,) in self.conn.execute(
                "select distinct project from sessions where project = ? or project_name = ? or project like ?",
                (value, value, "%/" + value),
            )
        ]
        return keys

    # ---- categories, tags, digests ---------------------------------------------------------

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

    def user_primary(self, session_rowid: int) -> str | None:
        row = self.conn.execute(
            "select category from session_tags where session = ? and source = 'user' and is_primary = 1",
            (session_rowid,),
        ).fetchone()
        return row[0] if row else None

    def set_rule_tags(self, session_rowid: int, tags: list[tuple[str, float]], primary: str) -> bool:
        """Replace a session's rule tags; the primary is the user's tag when there is one.

        Returns True when the session's primary category changed (the index then re-labels it).
        """
        with self.conn:
            self.conn.execute("delete from session_tags where session = ? and source = 'rule'", (session_rowid,))
            user = self.user_primary(session_rowid)
            for category, confidence in tags:
                self.conn.execute(
                    "insert into session_tags (session, category, confidence, source, is_primary) values (?,?,?,?,?) "
                    "on conflict (session, category) do nothing",
                    (session_rowid, category, confidence, "rule", int(user is None and category == primary)),
                )
            return self._set_primary(session_rowid, user or primary)

    def _set_primary(self, session_rowid: int, category: str) -> bool:
        old = self.conn.execute("select category from sessions where id = ?", (session_rowid,)).fetchone()
        if old is None or old[0] == category:
            return False
        self.conn.execute("update sessions set category = ? where id = ?", (category, session_rowid))
        self.conn.execute("insert into outbox (op, ref) values ('session', ?)", (session_rowid,))
        return True

    def tag(self, session_rowid: int, category: str) -> None:
        """A user's tag: it becomes the primary category and wins over every rule."""
        with self.conn:
            self.conn.execute("update session_tags set is_primary = 0 where session = ?", (session_rowid,))
            self.conn.execute(
                "insert into session_tags (session, category, confidence, source, is_primary) values (?,?,1.0,'user',1) "
                "on conflict (session, category) do update set source = 'user', confidence = 1.0, is_primary = 1",
                (session_rowid, category),
            )
            self._set_primary(session_rowid, category)

    def untag(self, session_rowid: int, category: str | None = None) -> list[str]:
        """Remove a user's tag (or all of them); the rules' primary category takes over again."""
        with self.conn:
            where, args = "session = ? and source = 'user'", [session_rowid]
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

    def get_digest(self, session_rowid: int) -> dict[str, Any] | None:
        r = self.conn.execute(
            "select title, summary, entities, confidence, scores, settings, scored_messages from digests where session = ?",
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
    ) -> None:
        with self.conn:
            old = self.conn.execute(
                "select title, summary, entities from digests where session = ?", (session_rowid,)
            ).fetchone()
            new = (title, json.dumps(summary, ensure_ascii=False), json.dumps(entities, ensure_ascii=False))
            self.conn.execute(
                "insert or replace into digests (session, title, summary, entities, confidence, scores, settings, "
                "scored_messages, updated_at) values (?,?,?,?,?,?,?,?,?)",
                (session_rowid, *new, confidence, json.dumps(scores), settings, scored_messages, utc_now()),
            )
            self.conn.execute("delete from session_files where session = ?", (session_rowid,))
            self.conn.executemany(
                "insert or ignore into session_files (session, path) values (?, ?)",
                [(session_rowid, f) for f in files],
            )
            if old is None or tuple(old) != new:
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
                    (p, "%/" + _like_escape(p)),
                )
            )
        return sorted(out)

    def relation_candidates(
        self, session_rowid: int, project: str | None, category: str, limit: int = 30
    ) -> list[dict[str, Any]]:
        """Recent sessions of the same project and category: id, time, digest title, touched files."""
        if not project or category == "uncategorized":
            return []
        rows = self.conn.execute(
            "select s.id, s.session_id, coalesce(s.ended_at, s.started_at), d.title, "
            "(select group_concat(f.path, char(0)) from session_files f where f.session = s.id) "
            "from sessions s join digests d on d.session = s.id "
            "where s.project = ? and s.category = ? and s.id != ? "
            "order by coalesce(s.ended_at, s.started_at) desc limit ?",
            (project, category, session_rowid, limit),
        )
        return [
            {"rowid": r[0], "session_id": r[1], "time": r[2], "title": r[3], "files": r[4].split("\0") if r[4] else []}
            for r in rows
        ]

    def save_relations(self, session_rowid: int, relations: list[tuple[int, str, float]]) -> None:
        with self.conn:
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
        for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
            marks = ",".join("?" * len(chunk))
            for newer, older in self.conn.execute(
                f"select session, other from session_relations where relation = 'supersedes' and other in ({marks})",
                chunk,
            ):
                out.setdefault(older, set()).add(newer)
        return out

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

        # ---- knowledge items -------------------------------------------------------------------

    def knowledge_blobs(self, repo: str) -> dict[str, tuple[str, str]]:
        """item id → (path, blob) of the items a repo's last sync imported."""
        return {
            r[0]: (r[1], r[2])
            for r in self.conn.execute(
                "select item_id, path, blob from knowledge where repo = ? and origin = 'sync'", (repo,)
            )
        }

    def upsert_knowledge(self, item: Any, *, origin: str, repo: str | None, path: str | None, blob: str) -> str:
        """Insert or update one item; returns 'imported', 'updated' or 'unchanged'."""
        row = self.conn.execute(
            "select id, blob, path, origin from knowledge where item_id = ? and coalesce(repo, '') = coalesce(?, '')",
            (item.id, repo),
        ).fetchone()
        values = (
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
        )
        with self.conn:
            if row is None:
                rowid = self.conn.execute(
                    "insert into knowledge (item_id, title, category, tags, project, agent, session, author, created, "
                    "shared, files, status, supersedes, content_hash, body, origin, repo, path, blob, updated_at) "
                    "values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) returning id",
                    (item.id, *values),
                ).fetchone()[0]
                self.conn.execute("insert into outbox (op, ref) values ('knowledge', ?)", (rowid,))
                return "imported"
            if (row[1], row[2], row[3]) == (blob, path, origin):
                return "unchanged"
            self.conn.execute(
                "update knowledge set title = ?, category = ?, tags = ?, project = ?, agent = ?, session = ?, "
                "author = ?, created = ?, shared = ?, files = ?, status = ?, supersedes = ?, content_hash = ?, "
                "body = ?, origin = ?, repo = ?, path = ?, blob = ?, updated_at = ? where id = ?",
                (*values, row[0]),
            )
            self.conn.execute("insert into outbox (op, ref) values ('knowledge', ?)", (row[0],))
            return "updated"

    def move_knowledge(self, repo: str, item_id: str, path: str) -> None:
        with self.conn:
            self.conn.execute(
                "update knowledge set path = ?, updated_at = ? where item_id = ? and repo = ?",
                (path, utc_now(), item_id, repo),
            )

    def remove_knowledge(self, repo: str, item_ids: Iterable[str]) -> int:
        n = 0
        with self.conn:
            for item_id in item_ids:
                row = self.conn.execute(
                    "select id from knowledge where item_id = ? and repo = ?", (item_id, repo)
                ).fetchone()
                if row:
                    self.conn.execute("delete from knowledge where id = ?", (row[0],))
                    self.conn.execute("insert into outbox (op, ref) values ('knowledge', ?)", (row[0],))
                    n += 1
        return n

    def knowledge_item(self, item_id: str) -> dict[str, Any] | None:
        rows = self.conn.execute(
            "select item_id, title, category, tags, project, agent, session, author, created, shared, files, status, "
            "supersedes, content_hash, body, origin, repo, path, id from knowledge where item_id = ? or item_id like ?",
            (item_id, _like_escape(item_id) + "%" if len(item_id) >= 4 else item_id),
        ).fetchall()
        if len(rows) != 1:
            return None
        return _knowledge_dict(rows[0])

    def knowledge_by_rowid(self, rowids: Iterable[int]) -> dict[int, dict[str, Any]]:
        ids = list(set(rowids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return {
            r[18]: _knowledge_dict(r)
            for r in self.conn.execute(
                "select item_id, title, category, tags, project, agent, session, author, created, shared, files, "
                f"status, supersedes, content_hash, body, origin, repo, path, id from knowledge where id in ({marks})",
                ids,
            )
        }

    def superseded_item_ids(self) -> set[str]:
        """Items that an active item names in its `supersedes`, plus those marked superseded."""
        out = {i for (i,) in self.conn.execute("select item_id from knowledge where status != 'active'")}
        for (sup,) in self.conn.execute(
            "select supersedes from knowledge where status = 'active' and supersedes != '[]'"
        ):
            out.update(json.loads(sup))
        return out

    def knowledge_docs(self, rowids: Iterable[int] | None = None) -> Iterator[IndexDoc]:
        """Index documents for knowledge items: title, tags, files and body; `message_rowid` 0."""
        ids = None if rowids is None else sorted(set(rowids))
        chunks = [None] if ids is None else [ids[i : i + 500] for i in range(0, len(ids), 500)]
        for chunk in chunks:
            where = "1" if chunk is None else f"id in ({','.join('?' * len(chunk))})"
            for r in self.conn.execute(
                f"select id, title, tags, files, body, category, agent, repo, created, status from knowledge where {where}",
                chunk or [],
            ):
                text = "\n".join([r[1], " ".join(json.loads(r[2])), " ".join(json.loads(r[3])), r[4]])
                yield IndexDoc(
                    0, 0, text, "system", "knowledge", r[8], r[6] or "", r[7], r[5], knowledge_rowid=r[0], status=r[9]
                )

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

    def save_sync_state(self, repo: str, ref: str, commit: str | None) -> None:
        with self.conn:
            self.conn.execute(
                "insert or replace into sync_state (repo, ref, commit_sha, synced_at) values (?,?,?,?)",
                (repo, ref, commit, utc_now()),
            )

    def project_knowledge(
        self, project: tuple[str, ...], categories: tuple[str, ...], limit: int = 10
    ) -> list[dict[str, Any]]:
        """Active team items of a project in these categories (or their children), newest first."""
        if not project:
            return []
        cats = " or ".join(["category = ? or category like ?"] * len(categories))
        args: list[Any] = [*project]
        for c in categories:
            args += [c, c + "/%"]
        rows = self.conn.execute(
            "select item_id, title, category, tags, project, agent, session, author, created, shared, files, status, "
            f"supersedes, content_hash, body, origin, repo, path, id from knowledge where repo in ({','.join('?' * len(project))}) "
            f"and status = 'active' and ({cats}) order by coalesce(shared, created) desc limit ?",
            [*args, limit],
        )
        superseded = self.superseded_item_ids()
        return [d for d in map(_knowledge_dict, rows) if d["id"] not in superseded]

    def session_rowids_for_native(self, native_ids: Iterable[str]) -> list[int]:
        ids = [i for i in native_ids if i]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [r for (r,) in self.conn.execute(f"select id from sessions where native_id in ({marks})", ids)]

    def knowledge_count(self) -> int:
        return self.conn.execute("select count(*) from knowledge").fetchone()[0]

        # ---- ingest state ---------------------------------------------------------------------

    def source_state(self, path: str) -> SourceState | None:
        r = self.conn.execute(
            "select path, agent, size, mtime_ns, inode, resume, sessions from sources where path = ?", (path,)
        ).fetchone()
        if r is None:
            return None
        return SourceState(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]) if r[5] else None, json.loads(r[6]))

    def all_source_states(self) -> dict[str, SourceState]:
        return {
            r[0]: SourceState(r[0], r[1], r[2], r[3], r[4], None, json.loads(r[6]))
            for r in self.conn.execute("select path, agent, size, mtime_ns, inode, null, sessions from sources")
        }

    def save_source_state(self, state: SourceState) -> None:
        with self.conn:
            self.conn.execute(
                "insert or replace into sources (path, agent, size, mtime_ns, inode, resume, sessions, ingested_at) "
                "values (?,?,?,?,?,?,?,?)",
                (
                    state.path,
                    state.agent,
                    state.size,
                    state.mtime_ns,
                    state.inode,
                    json.dumps(state.resume) if state.resume is not None else None,
                    json.dumps(state.sessions),
                    utc_now(),
                ),
            )

    # ---- index feed -----------------------------------------------------------------------

    def outbox_batch(self, limit: int = 5000) -> list[tuple[int, str, int]]:
        return list(self.conn.execute("select id, op, ref from outbox order by id limit ?", (limit,)))

    def outbox_done(self, upto_id: int) -> None:
        with self.conn:
            self.conn.execute("delete from outbox where id <= ?", (upto_id,))

    def outbox_size(self) -> int:
        return self.conn.execute("select count(*) from outbox").fetchone()[0]

    def index_docs_for_messages(self, message_rowids: list[int]) -> Iterator[IndexDoc]:
        for chunk_start in range(0, len(message_rowids), 500):
            chunk = message_rowids[chunk_start : chunk_start + 500]
            marks = ",".join("?" * len(chunk))
            yield from self._index_docs(f"m.id in ({marks})", chunk)

    def index_docs_for_sessions(self, session_rowids: list[int]) -> Iterator[IndexDoc]:
        for chunk_start in range(0, len(session_rowids), 500):
            chunk = session_rowids[chunk_start : chunk_start + 500]
            marks = ",".join("?" * len(chunk))
            yield from self._index_docs(f"m.session in ({marks})", chunk)

    def all_index_docs(self) -> Iterator[IndexDoc]:
        yield from self._index_docs("1", [])

    def _index_docs(self, where: str, args: list[Any]) -> Iterator[IndexDoc]:
        unindexed = ",".join(f"'{k}'" for k in sorted(UNINDEXED_KINDS))
        for r in self.conn.execute(
            "select m.id, m.session, b.text, m.role, m.kind, m.ts, s.agent, s.project, s.category "
            "from messages m join sessions s on s.id = m.session join blobs b on b.id = m.blob "
            f"where {where} and m.kind not in ({unindexed})",
            args,
        ):
            yield IndexDoc(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])

    def digest_docs(self, session_rowids: Iterable[int] | None = None) -> Iterator[IndexDoc]:
        """One document per session digest (title, summary, entities), keyed by -session rowid."""
        ids = None if session_rowids is None else sorted(set(session_rowids))
        chunks = [None] if ids is None else [ids[i : i + 500] for i in range(0, len(ids), 500)]
        for chunk in chunks:
            where = "1" if chunk is None else f"d.session in ({','.join('?' * len(chunk))})"
            for r in self.conn.execute(
                "select d.session, d.title, d.summary, d.entities, s.agent, s.project, s.category, "
                "coalesce(s.ended_at, s.started_at) from digests d join sessions s on s.id = d.session "
                f"where {where}",
                chunk or [],
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

    def count_indexable(self) -> int:
        unindexed = ",".join(f"'{k}'" for k in sorted(UNINDEXED_KINDS))
        return self.conn.execute(f"select count(*) from messages where kind not in ({unindexed})").fetchone()[0]

    # ---- maintenance ----------------------------------------------------------------------

    def session_keys(
        self, *, project_keys: tuple[str, ...] | None = None, agent: str | None = None, older_than: str | None = None
    ) -> list[tuple[int, str, str]]:
        """(rowid, agent, native_id) of the sessions matching every given condition."""
        where, args = ["1"], []
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
                    "update sessions set message_count = (select count(*) from messages where session = ?) where id = ?",
                    (sid, sid),
                )
        return len(ids)

    def orphan_blobs(self) -> int:
        return self.conn.execute(
            "select count(*) from blobs b where not exists (select 1 from messages m where m.blob = b.id)"
        ).fetchone()[0]

    def drop_orphan_blobs(self) -> int:
        with self.conn:
            self.conn.execute("delete from blobs where not exists (select 1 from messages m where m.blob = blobs.id)")
            return self.conn.changes()

    def integrity(self) -> list[str]:
        """SQLite's own check: ["ok"] when the file is sound."""
        return [r[0] for r in self.conn.execute("pragma integrity_check")]

    def expected_index_docs(self) -> int:
        """Documents a fully synced index holds, chunks of long messages counted once each."""
        return (
            self.count_indexable()
            + self.conn.execute("select count(*) from digests").fetchone()[0]
            + self.knowledge_count()
        )

    def source_paths(self) -> list[str]:
        return [p for (p,) in self.conn.execute("select path from sources")]

    def drop_sources(self, paths: Iterable[str]) -> int:
        with self.conn:
            n = 0
            for p in paths:
                self.conn.execute("delete from sources where path = ?", (p,))
                n += self.conn.changes()
            return n

    def vacuum(self) -> None:
        self.conn.execute("vacuum")

        # ---- status ---------------------------------------------------------------------------

    def stats(self) -> dict[str, Any]:
        c = self.conn
        per_agent = {
            agent: {"sessions": n, "messages": m}
            for agent, n, m in c.execute(
                "select agent, count(*), sum(message_count) from sessions group by agent order by agent"
            )
        }
        return {
            "sessions": c.execute("select count(*) from sessions").fetchone()[0],
            "messages": c.execute("select count(*) from messages").fetchone()[0],
            "blobs": c.execute("select count(*) from blobs").fetchone()[0],
            "projects": c.execute("select count(distinct project) from sessions").fetchone()[0],
            "knowledge": c.execute("select count(*) from knowledge").fetchone()[0],
            "sources": c.execute("select count(*) from sources").fetchone()[0],
            "pending_index": self.outbox_size(),
            "agents": per_agent,
            "last_ingest": c.execute("select max(ingested_at) from sources").fetchone()[0],
        }

    # ---- status: the health report's readers, and the per-source error record ---------------

    def save_source_errors(self, path: str, agent: str, errors: list[str]) -> None:
        """Replace what the last read of a source went wrong on (nothing: the record goes)."""
        with self.conn:
            if not errors:
                self.conn.execute("delete from source_errors where path = ?", (path,))
                return
            self.conn.execute(
                "insert or replace into source_errors (path, agent, errors, first_error, at) values (?,?,?,?,?)",
                (path, agent, len(errors), errors[0], utc_now()),
            )

    def source_errors(self) -> list[dict[str, Any]]:
        """Sources whose last read reported problems, newest first."""
        return [
            {"path": r[0], "agent": r[1], "errors": r[2], "error": r[3], "at": r[4]}
            for r in self.conn.execute(
                "select path, agent, errors, first_error, at from source_errors order by at desc, path"
            )
        ]

    def drop_source_errors(self, paths: Iterable[str]) -> int:
        with self.conn:
            n = 0
            for p in paths:
                self.conn.execute("delete from source_errors where path = ?", (p,))
                n += self.conn.changes()
            return n

    def source_error_paths(self) -> list[str]:
        return [p for (p,) in self.conn.execute("select path from source_errors")]

    def ingest_by_agent(self) -> dict[str, dict[str, Any]]:
        """Per agent: sources read and when one was last read."""
        return {
            agent: {"sources": n, "last_ingest": last}
            for agent, n, last in self.conn.execute(
                "select agent, count(*), max(ingested_at) from sources group by agent order by agent"
            )
        }

    def project_counts(self) -> list[dict[str, Any]]:
        """Sessions and messages per project (None: sessions outside any project), biggest first."""
        return [
            {"project": r[1], "project_key": r[0], "sessions": r[2], "messages": r[3], "last_activity": r[4]}
            for r in self.conn.execute(
                "select project, max(project_name), count(*), coalesce(sum(message_count), 0), "
                "max(coalesce(ended_at, started_at, ingested_at)) from sessions group by project "
                "order by count(*) desc, coalesce(sum(message_count), 0) desc, project"
            )
        ]

    def category_counts(self) -> dict[str, int]:
        """Sessions per primary category (uncategorized included)."""
        return {
            c: n
            for c, n in self.conn.execute(
                "select coalesce(category, 'uncategorized'), count(*) from sessions group by 1 order by 1"
            )
        }

    def knowledge_counts(self) -> list[dict[str, Any]]:
        """Knowledge items per (category, status, origin, repo, agent)."""
        return [
            {"category": r[0], "status": r[1], "origin": r[2], "repo": r[3] or "-", "agent": r[4] or "-", "items": r[5]}
            for r in self.conn.execute(
                "select category, status, origin, repo, agent, count(*) from knowledge group by 1, 2, 3, 4, 5 "
                "order by 1, 2, 3, 4, 5"
            )
        ]

    def sync_states(self) -> list[dict[str, Any]]:
        """The last sync of every repo: ref, commit and when, newest first."""
        return [
            {"repo": r[0], "ref": r[1], "commit": r[2], "synced_at": r[3]}
            for r in self.conn.execute(
                "select repo, ref, commit_sha, synced_at from sync_state order by synced_at desc, repo"
            )
        ]

    def shared_paths(self, repo: str) -> set[str]:
        """Paths (relative to the repo root) of the files this user's share wrote into a repo."""
        return {
            p for (p,) in self.conn.execute("select path from shares where repo = ? and status = 'shared'", (repo,))
        }
