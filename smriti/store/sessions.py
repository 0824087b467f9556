"""Sessions and their messages: the content-addressed write path and the session readers."""

from __future__ import annotations

from collections.abc import Iterable

from smriti.errors import NotFound
from smriti.store import jsoncols as json
from smriti.store.connection import (
    FirstLoad,
    StoreConnection,
    earliest,
    in_chunks,
    key_hash,
    latest,
    like_escape,
    merge_list,
    public_session_id,
    text_hash,
    utc_now,
)
from smriti.store.rows import PASSAGE_MESSAGES, MessageRow, SessionRow, WriteResult, WrittenRows

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from smriti.models import Message, Session

_SESSION_COLS = (
    "id, session_id, agent, native_id, project, project_name, cwd, git_branch, title, started_at, "
    "ended_at, models, source_paths, parent_native_id, category, message_count, "
    "(select d.title from digests d where d.session = sessions.id)"
)


# One message without its id (`_put_message`), SQLite numbering it
_INSERT_MESSAGE = (
    "insert into messages (session, seq, key_hash, role, kind, blob, ts, tool_name, tool_input, files, sidechain, "
    "action) values (?,?,?,?,?,?,?,?,?,?,?,?)"
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


def _message_row(r: tuple) -> MessageRow:
    """A message's row from its columns as `messages()` selects them, the JSON ones decoded."""
    return MessageRow(
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
        r[11],
    )


class SessionsMixin(StoreConnection):
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
                # The columns a new row shares with the SessionRow handed back below, in its order.
                first = (
                    sid,
                    session.agent,
                    session.native_id,
                    project_key,
                    project_name,
                    session.cwd,
                    session.git_branch,
                    session.title,
                    session.started_at,
                    session.ended_at,
                )
                models, source_paths = list(session.models), list(session.source_paths)
                # The new row's id from the connection, not a `returning` clause: that costs the
                # insert ~3× (17 against 5 µs, measured on a store of 8,000 sessions). No trigger
                # inserts anywhere else, and the id read right after is this insert's.
                c.execute(
                    "insert into sessions (session_id, agent, native_id, project, project_name, cwd, git_branch, "
                    "title, started_at, ended_at, models, source_paths, parent_native_id, "
                    "ingested_at, updated_at) values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*first, json.dumps(models), json.dumps(source_paths), session.parent_native_id, now, now),
                )
                rowid = c.last_insert_rowid()
                if self._first_load is not None:
                    self._first_load.note_session(rowid, project_key, session.started_at, session.ended_at)
            else:
                created = False
                rowid = row[0]
                started, ended = earliest(row[2], session.started_at), latest(row[3], session.ended_at)
                project = row[8] or project_key
                c.execute(
                    "update sessions set title = ?, started_at = ?, ended_at = ?, models = ?, source_paths = ?, "
                    "cwd = ?, git_branch = ?, project = ?, project_name = ?, parent_native_id = ?, updated_at = ? "
                    "where id = ?",
                    (
                        session.title or row[1],
                        started,
                        ended,
                        json.dumps(merge_list(json.loads(row[4]), session.models)),
                        json.dumps(merge_list(json.loads(row[5]), session.source_paths)),
                        row[6] or session.cwd,
                        session.git_branch or row[7],
                        project,
                        row[9] or project_name,
                        row[10] or session.parent_native_id,
                        now,
                        rowid,
                    ),
                )
                if self._first_load is not None:
                    self._first_load.note_session(rowid, project, started, ended)
            # A session row just made has no messages (its id's earlier holder took them along: on
            # delete cascade), so only an existing one's next seq is looked up.
            next_seq = (
                0
                if created
                else self._scalar("select coalesce(max(seq), -1) + 1 from messages where session = ?", (rowid,))
            )
            added = updated = 0
            blobs = self._blob_ids([m.text for m in session.messages])
            fresh = self._put_new_messages(rowid, session, next_seq, blobs, whole=created)
            stored = fresh if created and next_seq == 0 else None
            if fresh is not None:
                added, next_seq = len(fresh), next_seq + len(fresh)
            replaced: list[int] = []
            for m in () if fresh is not None else session.messages:
                outcome = self._put_message(
                    rowid, session.agent, session.native_id, next_seq, m, blobs[m.text], replaced
                )
                if outcome == "added":
                    next_seq += 1
                    added += 1
                elif outcome == "updated":
                    updated += 1
            # Bodies are shared by hash, so a replaced one goes only if no message uses it; left
            # behind, doctor reports it as an orphan right after a clean ingest (two transcripts of
            # one resumed session holding two versions of a message). Only once the whole session
            # is written: a later message of it may take that body again (a key whose text went
            # A, B, A), and `blobs` still names it.
            for blob in dict.fromkeys(replaced):
                self._drop_blob_if_unused(blob)
            if added:
                c.execute(
                    "update sessions set message_count = (select count(*) from messages where session = ?) "
                    "where id = ?",
                    (rowid, rowid),
                )
        made = None
        if created:
            # As `session_row` would read it (~20 µs a session less): every message of a session made
            # now was added now (a key repeated within it updated its first copy), and the JSON
            # columns hold lists of the session's strings, which decode to equal lists.
            made = SessionRow(rowid, *first, models, source_paths, session.parent_native_id, None, added, None)
        return WriteResult(rowid, sid, added, updated, created, stored, made)

    def _put_new_messages(
        self, session_rowid: int, session: Session, seq: int, blobs: dict[str, int], *, whole: bool
    ) -> WrittenRows | None:
        """The common case in a few statements: every message of `session` is new to the store
        (no stored key, none repeated). Inserts them from `seq` on, queues the index work and
        returns the rows added (as `messages()` reads them: built from the very values bound, the
        JSON columns decoded, so enrichment can use them instead of a read-back); None (nothing
        written) when any key is known or repeated:
        then each message takes `_put_message`'s path, which settles replays and updates.
        `whole`: the session is new, so one outbox row names it instead of one per message (the
        index builds the same documents from either, and reads the session's rows in one go).

        The rows, ids and order are exactly those `_put_message` would write one at a time."""
        messages = session.messages
        if not messages:
            return None
        hashes = [key_hash(session.agent, m.key) for m in messages]
        if len(set(hashes)) != len(hashes):
            return None
        c = self.conn
        load = self._first_load
        if load is not None:  # the unique index is dropped meanwhile: its keys are in memory
            known = load.message_ids
            if any(h in known for h in hashes):
                return None
        else:
            for chunk, marks in in_chunks(hashes):
                if c.execute(f"select 1 from messages where key_hash in ({marks}) limit 1", chunk).fetchone():
                    return None
        # Each row's id given, as SQLite would number them (one past the largest, in order): an
        # insert that returns its id costs twice one that does not (~6 µs more a row, on 20,000 messages).
        first = self._next_rowid("messages")
        rows = [
            (
                first + i,
                session_rowid,
                seq + i,
                kh,
                m.role,
                m.kind,
                blobs[m.text],
                m.timestamp,
                m.tool_name,
                None if m.tool_input is None else json.dumps_lenient(m.tool_input),
                json.dumps(list(m.files)) if m.files else None,
                int(m.sidechain),
                m.action,
            )
            for i, (kh, m) in enumerate(zip(hashes, messages, strict=True))
        ]
        c.executemany(
            "insert into messages (id, session, seq, key_hash, role, kind, blob, ts, tool_name, tool_input, files, "
            "sidechain, action) values (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )
        if load is not None:
            load.message_ids.update(zip(hashes, range(first, first + len(rows)), strict=True))
        from smriti.models import UNINDEXED_KINDS  # here: the models' dataclasses are off a search's path

        indexed = [(r[0],) for r, m in zip(rows, messages, strict=True) if m.kind not in UNINDEXED_KINDS]
        if indexed and whole:
            c.execute("insert into outbox (op, ref) values ('session', ?)", (session_rowid,))
            if load is not None:
                load.queued_sessions.add(session_rowid)
        elif indexed:
            c.executemany("insert into outbox (op, ref) values ('message', ?)", indexed)

        def build() -> list[MessageRow]:
            # in `messages()`'s columns; the blob's text is the message's (blobs are keyed by its hash)
            return [
                _message_row((r[0], session_rowid, r[2], r[4], r[5], m.text, *r[7:]))
                for r, m in zip(rows, messages, strict=True)
            ]

        return WrittenRows(len(rows), rows[-1][0], build)

    def _put_message(
        self, session_rowid: int, agent: str, native_id: str, seq: int, m: Message, blob: int, replaced: list[int]
    ) -> str | None:
        """Store one message of a session: "added", "updated" (its text changed) or None (known).
        An update appends the body it replaced to `replaced`, for the caller to drop if unused."""
        c = self.conn
        tool_input = None if m.tool_input is None else json.dumps_lenient(m.tool_input)
        files = json.dumps(list(m.files)) if m.files else None
        kh = key_hash(agent, m.key)
        load = self._first_load
        for _ in range(2):
            values = (
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
                m.action,
            )
            known = None
            if load is None:
                c.execute(_INSERT_MESSAGE + " on conflict(key_hash) do nothing", values)
                new = (c.last_insert_rowid(),) if c.changes() else None  # not `returning` (see write_session)
            else:  # no unique index to conflict with: the keys kept in memory say whether it is stored
                known = self._loaded_message(load, kh)
                new = None
                if not known:
                    c.execute(_INSERT_MESSAGE, values)
                    new = (c.last_insert_rowid(),)  # not `returning` (see write_session)
            if new is not None:
                from smriti.models import UNINDEXED_KINDS

                if load is not None:
                    load.message_ids[kh] = new[0]
                if m.kind not in UNINDEXED_KINDS:
                    c.execute("insert into outbox (op, ref) values ('message', ?)", (new[0],))
                return "added"
            old_id, old_session, old_blob, old_kind = known or self._row(
                "select id, session, blob, kind from messages where key_hash = ?", (kh,)
            )
            if old_session == session_rowid:
                if (old_blob, old_kind) == (blob, m.kind):
                    return None
                # A message that grew (a streamed response completed across a resume), or that a
                # later read classified better (injected context that turned out to be a prompt).
                c.execute(
                    "update messages set blob = ?, role = ?, kind = ?, tool_name = ?, tool_input = ?, files = ?, "
                    "action = ? where id = ?",
                    (blob, m.role, m.kind, m.tool_name, tool_input, files, m.action, old_id),
                )
                c.execute("insert into outbox (op, ref) values ('message', ?)", (old_id,))
                replaced.append(old_blob)
                return "updated"
            if old_blob == blob:
                # A resumed session replaying another session's line: stored once, where it was first.
                return None
            # Same key, different text, another session: not a replay but two sessions that reuse
            # an id (hand-made fixtures, exports). Keep it, under a key scoped to this session.
            kh = key_hash(agent, f"{native_id}\0{m.key}")
        return None

    def _loaded_message(self, load: FirstLoad, kh: int) -> tuple[int, int, int, str] | None:
        """During a first load, the stored message with key hash `kh` (id, session, blob, kind), from
        the keys kept in memory; None if there is none."""
        mid = load.message_ids.get(kh)
        if mid is None:
            return None
        row = self.conn.execute("select id, session, blob, kind from messages where id = ?", (mid,)).fetchone()
        if row is None:  # deleted since (nothing in an ingest deletes messages, but the key must not lie)
            del load.message_ids[kh]
        return row

    def _drop_blob_if_unused(self, blob: int) -> None:
        self._index_needed("messages_blob")  # the look for a message that uses it, and the delete's foreign key
        gone = self.conn.execute(
            "delete from blobs where id = ? and not exists (select 1 from messages where blob = ?) returning hash",
            (blob, blob),
        ).fetchone()
        if gone is not None and self._first_load is not None:
            self._first_load.blob_ids.pop(gone[0], None)

    def _blob_ids(self, texts: list[str]) -> dict[str, int]:
        """Each distinct text's blob id, stored first where new (in order of first appearance, so
        ids come out as one insert per text would number them). Known hashes are looked up in
        one query per chunk: their texts are never sent to SQLite again."""
        by_hash = {text_hash(t): t for t in dict.fromkeys(texts)}
        ids: dict[bytes, int] = {}
        digests = list(by_hash)
        c = self.conn
        load = self._first_load
        if load is not None:  # the unique index is dropped meanwhile: its keys are in memory
            known = load.blob_ids
            ids.update((d, known[d]) for d in digests if d in known)
        else:
            for chunk, marks in in_chunks(digests):
                ids.update(c.execute(f"select hash, id from blobs where hash in ({marks})", chunk))
        new = [d for d in by_hash if d not in ids]
        if new:
            first = self._next_rowid("blobs")  # numbered as SQLite would (see _put_new_messages)
            added = list(zip(new, range(first, first + len(new)), strict=True))
            if load is not None:
                load.blob_ids.update(added)
            ids.update(added)
            c.executemany("insert into blobs (id, hash, text) values (?, ?, ?)", [(ids[d], d, by_hash[d]) for d in new])
        return {t: ids[d] for d, t in by_hash.items()}

    def _next_rowid(self, table: str) -> int:
        """The id SQLite gives the next row inserted into `table` without one (no AUTOINCREMENT: one
        past the largest; an empty table starts at 1). Within a write transaction, so nobody else
        inserts in between."""
        largest: int | None = self._scalar(f"select max(id) from {table}")  # noqa: S608  (our own table names)
        return 1 if largest is None else largest + 1

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
            if row is not None:
                gone = self.conn.execute("delete from messages where session = ? returning key_hash", (row[0],))
                if self._first_load is not None:  # a session deleted during a first load (ingest's no-save)
                    for (kh,) in gone:
                        self._first_load.message_ids.pop(kh, None)
                else:
                    gone.fetchall()
                self.conn.execute("delete from sessions where id = ?", (row[0],))
                if self._first_load is not None:
                    self._first_load.forget_session(row[0])
                self.conn.execute("insert into outbox (op, ref) values ('session', ?)", (row[0],))
        return row is not None

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
                (like_escape(ident) + "%", like_escape(ident) + "%"),
            ).fetchall()
        if not rows:
            raise NotFound(f"no session {ident!r}: see `smriti sessions` for ids")
        if len(rows) > 1:
            ids = ", ".join(str(r[1]) for r in rows)
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
        # Newest first by the session's own times; a session that has none sorts last, not as
        # new as the moment it was ingested.
        sql += " order by coalesce(ended_at, started_at) is null, coalesce(ended_at, started_at) desc, id desc limit ?"
        args.append(limit)
        return [_session_row(r) for r in self.conn.execute(sql, args)]

    def messages(self, session_rowid: int) -> list[MessageRow]:
        out = []
        for r in self.conn.execute(
            "select m.id, m.session, m.seq, m.role, m.kind, b.text, m.ts, m.tool_name, m.tool_input, m.files, "
            "m.sidechain, m.action from messages m join blobs b on b.id = m.blob where m.session = ? order by m.seq",
            (session_rowid,),
        ):
            out.append(_message_row(r))
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

    def passage_texts(self, session_rowid: int, passage: int) -> list[str]:
        """The indexed texts of one passage (see `IndexDoc.passage`), in order: the messages from
        seq `passage` until the next prompt, at most PASSAGE_MESSAGES of them."""
        from smriti.models import UNINDEXED_KINDS

        unindexed = ",".join(f"'{k}'" for k in sorted(UNINDEXED_KINDS))
        out: list[str] = []
        for seq, kind, text in self.conn.execute(
            "select m.seq, m.kind, b.text from messages m join blobs b on b.id = m.blob "
            f"where m.session = ? and m.seq >= ? and m.seq < ? and m.kind not in ({unindexed}) order by m.seq",
            (session_rowid, passage, passage + PASSAGE_MESSAGES),
        ):
            if kind == "prompt" and seq != passage:
                break  # the next turn
            out.append(text)
        return out

    def next_prompt(self, session_rowid: int, seq: int) -> tuple[int, str] | None:
        """The first user prompt after message `seq` (its seq and text): the turn that follows."""
        row = self.conn.execute(
            "select m.seq, b.text from messages m join blobs b on b.id = m.blob where m.session = ? and m.seq > ? "
            "and m.kind = 'prompt' order by m.seq limit 1",
            (session_rowid, seq),
        ).fetchone()
        return (row[0], row[1]) if row else None

    def turn_reply(self, session_rowid: int, seq: int) -> str | None:
        """The agent's last prose reply (a `response`) in the user turn that holds message `seq`:
        after the tool calls, where an agent says what it found or did."""
        row = self.conn.execute(
            "select b.text from messages m join blobs b on b.id = m.blob "
            "where m.session = ?1 and m.kind = 'response' and m.seq >= coalesce("
            "(select max(seq) from messages where session = ?1 and seq <= ?2 and kind = 'prompt'), 0) "
            "and m.seq < coalesce("
            "(select min(seq) from messages where session = ?1 and seq > ?2 and kind = 'prompt'), ?3) "
            "order by m.seq desc limit 1",
            (session_rowid, seq, 1 << 62),
        ).fetchone()
        return row[0] if row else None

    def message_seqs(self, message_rowids: Iterable[int]) -> dict[int, int]:
        ids = list(set(message_rowids))
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self.conn.execute(f"select id, seq from messages where id in ({marks})", ids))

    def session_rowids_for_native(self, native_ids: Iterable[str]) -> list[int]:
        ids = [i for i in native_ids if i]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [r for (r,) in self.conn.execute(f"select id from sessions where native_id in ({marks})", ids)]

    def known_cwds(self) -> list[str]:
        return [c for (c,) in self.conn.execute("select distinct cwd from sessions where cwd is not null")]

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
