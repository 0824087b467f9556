"""Append-only, named, transactional schema migrations, applied whenever the store opens.

A migration that has shipped is never edited: change the schema by appending a new one.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import apsw

Migration = Callable[[apsw.Connection], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append(fn)
    return fn


def pending_migrations(conn: apsw.Connection) -> list[str]:
    """The names of the migrations this database lacks, found by reading only."""
    try:
        applied = {name for (name,) in conn.execute("select name from _smriti_migrations")}
    except apsw.SQLError:  # no such table: a new database
        applied = set()
    return [fn.__name__ for fn in MIGRATIONS if fn.__name__ not in applied]


def migrate(conn: apsw.Connection) -> list[str]:
    """Apply the migrations this database lacks, each with its record in one transaction.

    A current database is only read: opening the store takes no write lock, so a reader is never
    queued behind a writer (or refused on a read-only data dir)."""
    if not pending_migrations(conn):
        return []
    with conn:
        conn.execute("create table if not exists _smriti_migrations (name text primary key, applied_at text not null)")
    applied = {name for (name,) in conn.execute("select name from _smriti_migrations")}
    done = []
    for fn in MIGRATIONS:
        if fn.__name__ in applied:
            continue
        # Processes that start together on a new (or upgraded) store all see a migration missing:
        # each asks again inside its write transaction (the connection's transactions are
        # IMMEDIATE), so one applies it and the others wait, then find it done.
        with conn:
            if conn.execute("select 1 from _smriti_migrations where name = ?", (fn.__name__,)).fetchone():
                continue
            fn(conn)
            conn.execute(
                "insert into _smriti_migrations values (?, ?)",
                (fn.__name__, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
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


@migration
def m002_categories_and_digests(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- The taxonomy: seeded categories plus those a team adds in .smriti/config.toml.
        create table categories (
            id text primary key,                  -- "bug" or "bug/fix"
            parent text,
            description text not null default '',
            source text not null                  -- 'seed' | 'team'
        ) without rowid;

        -- Every category a session carries: the primary (rule or user), its parent and the
        -- secondary tags. A user's tag always wins and survives re-categorization and re-ingest.
        create table session_tags (
            session integer not null references sessions(id) on delete cascade,
            category text not null,
            confidence real not null,
            source text not null,                 -- 'rule' | 'user' | 'sync'
            is_primary integer not null default 0,
            primary key (session, category)
        ) without rowid;
        create index session_tags_category on session_tags(category);

        -- What smriti distilled from a session (no LLM): title, summary lines, entities, and the
        -- saved per-category score totals that let appended messages be scored alone.
        create table digests (
            session integer primary key references sessions(id) on delete cascade,
            title text not null,
            summary text not null,                -- JSON list of lines
            entities text not null,               -- JSON object (files, commands, errors, ...)
            confidence real not null,
            scores text not null,                 -- JSON {category: total}
            settings text not null,               -- fingerprint of the settings the scores used
            scored_messages integer not null,     -- highest message id folded into `scores`
            updated_at text not null
        );

        -- Files a session touched (from its tool calls), for `--file` filters.
        create table session_files (
            session integer not null references sessions(id) on delete cascade,
            path text not null,
            primary key (session, path)
        ) without rowid;
        create index session_files_path on session_files(path);

        -- A newer session covering the same ground as an older one (same project and category).
        create table session_relations (
            session integer not null references sessions(id) on delete cascade,
            other integer not null references sessions(id) on delete cascade,
            relation text not null,               -- 'supersedes' | 'related'
            score real not null,
            primary key (session, other)
        ) without rowid;
        create index session_relations_other on session_relations(other);
        """
    )


@migration
def m003_knowledge(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- Knowledge items: imported by sync from a repo's reviewed .smriti/knowledge/ files, or
        -- written by this user's share. One row per item id: one's own share synced back is the
        -- same item, never a duplicate.
        create table knowledge (
            id integer primary key,
            item_id text not null,                -- the 16-hex id in the frontmatter
            title text not null,
            category text not null,
            tags text not null,                   -- JSON list
            project text,                         -- as the file says
            agent text,
            session text,                         -- the agent's session id it came from
            author text,
            created text not null,
            shared text,
            files text not null,                  -- JSON list
            status text not null,                 -- active | superseded | withdrawn
            supersedes text not null,             -- JSON list of item ids
            content_hash text,
            body text not null,
            origin text not null,                 -- 'sync' | 'share'
            repo text,                            -- the repo's project key
            path text,                            -- where the file was, relative to the repo root
            blob text,                            -- git blob sha (sync) or sha256 of the bytes written
            updated_at text not null
        );
        -- One item per id and repo: the same session shared into two repos is two items.
        create unique index knowledge_item on knowledge(item_id, coalesce(repo, ''));
        create index knowledge_repo on knowledge(repo);

        -- What this user shared, per repo: the file it wrote and the bytes' hash, so a re-share
        -- knows the item and a reviewer's edit (of any field) is never overwritten.
        create table shares (
            item_id text not null,
            repo text not null,
            path text not null,
            session integer,
            file_sha text not null,
            status text not null,                 -- 'shared' | 'withdrawn'
            shared_at text not null,
            primary key (item_id, repo)
        ) without rowid;

        create table sync_state (
            repo text primary key,
            ref text not null,
            commit_sha text,
            synced_at text not null
        ) without rowid;
        """
    )


@migration
def m004_source_errors(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- What the last read of a source went wrong on (bad lines, an adapter that failed), for
        -- `smriti status`. Replaced on the source's next read; no row when that read was clean.
        -- Not tied to `sources`: an unreadable source has errors but no read position.
        create table source_errors (
            path text primary key,
            agent text not null,
            errors integer not null,              -- how many problems that read reported
            first_error text not null,            -- the first of them, as ingest printed it
            at text not null
        ) without rowid;
        """
    )


@migration
def m005_messages_blob_index(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- Which messages use a body. Without it, finding orphaned bodies (doctor, forget, prune) and
        -- the foreign-key check of each deleted body scanned every message per body: 112 s for
        -- doctor at 200k messages, 0.06 s with it.
        create index messages_blob on messages(blob);
        """
    )


@migration
def m006_sessions_related_index(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- The newest sessions of a project and category: what enrich compares a new session with
        -- (Store.relation_candidates, once per ingested session). Through sessions_project alone
        -- that read and sorted every session of the project: 3 ms a session at 3k sessions a
        -- project, growing with it; 0.09 ms with this index, whatever the size.
        create index sessions_related on sessions(project, category, coalesce(ended_at, started_at));
        """
    )


@migration
def m007_messages_action(conn: apsw.Connection) -> None:
    # What a tool call or result does (smriti.models.ACTIONS), as its adapter said. NULL for prose and
    # for messages stored before this column: readers then take it from the tool's name.
    conn.execute("alter table messages add column action text")


@migration
def m008_drop_unread_session_columns(conn: apsw.Connection) -> None:
    # sessions.git_remote and sessions.extra were written on every ingest and never read: the project
    # key already carries the remote, and adapters' extras were never shown. Dropping them keeps the
    # schema honest (a column nobody reads is a column nobody notices going stale).
    conn.execute("alter table sessions drop column git_remote")
    conn.execute("alter table sessions drop column extra")


@migration
def m009_knowledge_committed_by(conn: apsw.Connection) -> None:
    # Who git says added or last changed a synced file ("Name <email>"): the author a person is shown.
    # The frontmatter's `author` is free text anyone can write, kept and shown as the file's claim.
    conn.execute("alter table knowledge add column committed_by text")


@migration
def m010_category_labels(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- A reviewer's corrections, as labels the next categorize learns from (smriti.digest.learned):
        -- a `smriti tag` (one per session: the latest tag) and a knowledge file moved to another
        -- category folder and synced (one per item and repo). `document` is the text the classifier
        -- reads, kept here so a label outlives its session and loading labels reads no messages.
        create table category_labels (
            id integer primary key,
            project text not null default '',          -- the team: the session's project or the repo's key
            session integer references sessions(id) on delete set null,
            item_id text,                               -- the knowledge item whose file moved
            category text not null,
            source text not null check (source in ('tag', 'knowledge')),
            document text not null,
            created_at text not null
        );
        create unique index category_labels_tag on category_labels(session) where source = 'tag';
        create unique index category_labels_item on category_labels(project, item_id) where source = 'knowledge';
        create index category_labels_project on category_labels(project, id);
        """
    )


@migration
def m011_shares_inputs(conn: apsw.Connection) -> None:
    # A fingerprint of everything a shared file was rendered from (the session's messages, digest,
    # tags and row; the redaction rules and settings; the share options): a re-share that finds it
    # unchanged, and the file on disk still the bytes it wrote, skips redaction and rendering.
    # NULL for files shared before this column: they take the full path once and get one.
    conn.execute("alter table shares add column inputs text")


@migration
def m012_share_files(conn: apsw.Connection) -> None:
    conn.execute(
        """
        -- What share last read in a working tree's knowledge files, by their lstat: a file whose
        -- size, times and inode are unchanged is not opened again to find its id or hash its bytes
        -- (a no-op re-share of thousands of items stats them, nothing more). A cache: any row may be
        -- deleted; a file without one is read as before. `root`: the knowledge folder's absolute
        -- path (two checkouts of one repo share a project key, not their files).
        create table share_files (
            root text not null,
            path text not null,                   -- relative to root, '/'-separated
            size integer not null,
            mtime_ns integer not null,
            ctime_ns integer not null,
            inode integer not null,
            item_id text,                         -- the id in its frontmatter; NULL: none found
            file_sha text not null,               -- sha256 of its bytes
            primary key (root, path)
        ) without rowid;
        """
    )


@migration
def m013_blobs_hash_index(conn: apsw.Connection) -> None:
    # A first ingest into an empty store drops the two unique indexes on random keys (this one and
    # messages_key), keeps their keys in memory meanwhile, and builds both once at its end: kept
    # during the inserts they were most of what it wrote (Store.bulk, "first load"). A column's
    # UNIQUE constraint is an index that cannot be dropped, so the hash's uniqueness becomes a
    # named index. Only where `blobs` is empty (a new store): recreating it is then free, and a
    # store that holds bodies can never take a first load anyway, so it keeps its column
    # constraint, which enforces the same.
    if conn.execute("select 1 from blobs limit 1").fetchone() is not None:
        return
    conn.execute(
        """
        drop table blobs;
        create table blobs (
            id integer primary key,
            hash blob not null,
            text text not null
        );
        create unique index blobs_hash on blobs(hash);
        """
    )
