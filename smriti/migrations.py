"""Append-only, named, transactional schema migrations, applied whenever the store opens.

A migration that has shipped is never edited: change the schema by appending a new one.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import apsw

Migration = Callable[[apsw.Connection], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


def migrate(conn: apsw.Connection) -> list[str]:
    """Apply the migrations this database lacks, each with its record in one transaction."""
    conn.execute("create table if not exists _smriti_migrations (name text primary key, applied_at text not null)")
    applied = {name for (name,) in conn.execute("select name from _smriti_migrations")}
    done = []
    for fn in MIGRATIONS:
        if fn.__name__ in applied:
            continue
        with conn:
            fn(conn)
            conn.execute(
                "insert into _smriti_migrations values (?, ?)",
                (fn.__name__, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")),
            )
        done.append(fn.__name__)
    return done


@migration
def m001_core(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- Message bodies, stored once: found by the sha256 of the text (32 raw bytes). A rowid
        -- table, not WITHOUT ROWID: its rows are large, and messages point at a small integer.
        create table blobs (
            id integer primary key,
            hash blob not null unique,
            text text not null
        );

        create table sessions (
            id integer primary key,
            session_id text not null unique,      -- smriti's public id (16 hex)
            agent text not null,
            native_id text not null,              -- the agent's own session id
            project text,                         -- project key (remote or path), see project.py
            project_name text,
            cwd text,
            git_branch text,
            git_remote text,
            title text,
            started_at text,
            ended_at text,
            models text not null default '[]',
            source_paths text not null default '[]',
            parent_native_id text,
            extra text not null default '{}',
            category text,
            message_count integer not null default 0,
            ingested_at text not null,
            updated_at text not null,
            unique (agent, native_id)
        );
        create index sessions_project on sessions(project);
        create index sessions_started on sessions(started_at);

        create table messages (
            id integer primary key,
            session integer not null references sessions(id) on delete cascade,
            seq integer not null,
            -- The adapter's stable message key, unique within its agent, stored as the first
            -- 8 bytes of sha256(agent NUL key): a quarter of the text key's size in row and index.
            key_hash integer not null,
            role text not null,
            kind text not null,
            blob integer not null references blobs(id),
            ts text,
            tool_name text,
            tool_input text,
            files text,
            sidechain integer not null default 0,
            unique (session, seq)
        );
        -- A message key is unique within its agent: replayed lines of a resumed session and
        -- re-reads of the same file are stored once.
        create unique index messages_key on messages(key_hash);

        -- Per source file: what was read, and where to resume.
        create table sources (
            path text primary key,
            agent text not null,
            size integer not null,
            mtime_ns integer not null,
            inode integer,
            resume text,
            sessions text not null default '[]',
            ingested_at text not null
        );

        -- Index changes written in the same transaction as the store change: the indexer
        -- drains this under one cross-process lock, so a change is never lost.
        create table outbox (
            id integer primary key autoincrement,
            op text not null,                     -- 'message' | 'session'
            ref integer not null
        );

        -- Sessions a user removed or kept out (no-save, forget): ingest never brings them back.
        create table tombstones (
            agent text not null,
            native_id text not null,
            reason text not null,
            at text not null,
            primary key (agent, native_id)
        ) without rowid;

        create table meta (
            key text primary key,
            value text
        ) without rowid;
        """
    )
