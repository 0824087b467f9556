"""Upgrades: a store written at every older schema version opens at the latest with its data intact.

For each N, the first N migrations build the file (through the real `migrate`), the test writes
what a store of that version held with that version's own SQL, and `Store(path)` then migrates it
the rest of the way. Everything written must read back through the Store API, and keep working:
a re-ingest of the same session adds nothing, a new session is stored as usual.
"""

from __future__ import annotations

import json
from pathlib import Path

import apsw
import pytest

from smriti.models import Message, Session
from smriti.store import Store, key_hash, migrations, public_session_id, text_hash
from smriti.store.migrations import MIGRATIONS

NAMES = [fn.__name__ for fn in MIGRATIONS]
AGENT = "claude-code"
NOW = "2026-03-01T12:00:00Z"
PROJECT = "github.com/acme/payments"

# The messages of the older session: (key, role, kind, text, tool_name, tool_input, files, sidechain).
# "r-shared" repeats p1's text: the store keeps one body for both.
OLD_MESSAGES = [
    ("p1", "user", "prompt", "Why does the webhook retry twice on a 502?", None, None, None, 0),
    ("t1", "assistant", "tool_call", "grep -rn retry src/", "Bash", {"command": "grep -rn retry src/"}, None, 0),
    (
        "e1",
        "assistant",
        "tool_call",
        "edit src/webhooks/retry.py",
        "Edit",
        {"path": "src/webhooks/retry.py"},
        ["src/webhooks/retry.py"],
        1,
    ),
    ("r1", "assistant", "response", "The retry decorator wraps the handler twice.", None, None, None, 0),
    ("i1", "user", "injected_context", "<smriti-context>earlier work</smriti-context>", None, None, None, 0),
    ("r-shared", "assistant", "response", "Why does the webhook retry twice on a 502?", None, None, None, 0),
]
KNOWLEDGE_ID = "0a1b2c3d4e5f6071"


def _store_at_version(path: Path, n: int, monkeypatch: pytest.MonkeyPatch) -> apsw.Connection:
    conn = apsw.Connection(str(path))
    conn.pragma("foreign_keys", True)
    with monkeypatch.context() as m:
        m.setattr(migrations, "MIGRATIONS", MIGRATIONS[:n])
        assert migrations.migrate(conn) == NAMES[:n]
    return conn


def _blob(conn: apsw.Connection, text: str) -> int:
    conn.execute("insert or ignore into blobs (hash, text) values (?, ?)", (text_hash(text), text))
    return conn.execute("select id from blobs where hash = ?", (text_hash(text),)).fetchone()[0]


def _session(conn: apsw.Connection, native: str, title: str, started: str, messages: list[tuple]) -> int:
    values = {
        "session_id": public_session_id(AGENT, native),
        "agent": AGENT,
        "native_id": native,
        "project": PROJECT,
        "project_name": "payments",
        "cwd": "/home/dev/payments",
        "git_branch": "main",
        # columns of the versions before m008 (written, never read, then dropped)
        "git_remote": "git@github.com:acme/payments.git",
        "extra": json.dumps({"version": "2.1"}),
        "title": title,
        "started_at": started,
        "ended_at": started.replace("T12", "T13"),
        "models": json.dumps(["claude-sonnet-4"]),
        "source_paths": json.dumps([f"/home/dev/.claude/projects/payments/{native}.jsonl"]),
        "parent_native_id": None,
        "message_count": len(messages),
        "ingested_at": NOW,
        "updated_at": NOW,
    }
    columns = {row[1] for row in conn.execute("pragma table_info(sessions)")}
    names = [name for name in values if name in columns]
    rowid = conn.execute(
        f"insert into sessions ({', '.join(names)}) values ({', '.join('?' * len(names))}) returning id",
        [values[name] for name in names],
    ).fetchone()[0]
    for seq, (key, role, kind, text, tool, tool_input, files, sidechain) in enumerate(messages):
        mid = conn.execute(
            "insert into messages (session, seq, key_hash, role, kind, blob, ts, tool_name, tool_input, files, "
            "sidechain) values (?,?,?,?,?,?,?,?,?,?,?) returning id",
            (
                rowid,
                seq,
                key_hash(AGENT, key),
                role,
                kind,
                _blob(conn, text),
                started,
                tool,
                None if tool_input is None else json.dumps(tool_input),
                None if files is None else json.dumps(files),
                sidechain,
            ),
        ).fetchone()[0]
        if kind != "injected_context":
            conn.execute("insert into outbox (op, ref) values ('message', ?)", (mid,))
    return rowid


def _write_version_data(conn: apsw.Connection, n: int) -> tuple[int, int]:
    """What a store at version n held: each version's tables, written with its own columns."""
    with conn:
        old = _session(conn, "sess-old", "Webhook retries", "2026-02-01T12:00:00Z", OLD_MESSAGES)
        new = _session(
            conn,
            "sess-new",
            "Webhook retries, fixed",
            "2026-02-20T12:00:00Z",
            [("p2", "user", "prompt", "Remove the second retry decorator", None, None, None, 0)],
        )
        conn.execute(
            "insert into sources (path, agent, size, mtime_ns, inode, resume, sessions, ingested_at) "
            "values (?,?,?,?,?,?,?,?)",
            (
                "/home/dev/.claude/projects/payments/sess-old.jsonl",
                AGENT,
                4096,
                1_760_000_000_000_000_000,
                1234,
                json.dumps({"offset": 4096, "line": 6}),
                json.dumps(["sess-old"]),
                NOW,
            ),
        )
        conn.execute(
            "insert into tombstones (agent, native_id, reason, at) values (?,?,?,?)",
            (AGENT, "sess-gone", "forget", NOW),
        )
        conn.execute("insert into meta (key, value) values ('created_by', 'smriti 0.1')")
        if n >= 2:
            conn.execute(
                "insert into categories (id, parent, description, source) values "
                "('bug', null, 'Something broken', 'seed'), ('bug/fix', 'bug', 'A fix', 'seed'), "
                "('payments', null, 'Team category', 'team')"
            )
            conn.executemany(
                "insert into session_tags (session, category, confidence, source, is_primary) values (?,?,?,?,?)",
                [(old, "bug/fix", 0.8, "rule", 0), (old, "bug", 0.8, "rule", 0), (old, "payments", 1.0, "user", 1)],
            )
            conn.execute("update sessions set category = 'payments' where id = ?", (old,))
            conn.execute("update sessions set category = 'bug/fix' where id = ?", (new,))
            conn.execute(
                "insert into digests (session, title, summary, entities, confidence, scores, settings, "
                "scored_messages, updated_at) values (?,?,?,?,?,?,?,?,?)",
                (
                    old,
                    "Webhook retries twice on 502",
                    json.dumps(["Found a double retry decorator"]),
                    json.dumps({"files": ["src/webhooks/retry.py"], "errors": ["502 Bad Gateway"]}),
                    0.8,
                    json.dumps({"bug/fix": 3.5}),
                    "settings-v1",
                    6,
                    NOW,
                ),
            )
            conn.execute("insert into session_files (session, path) values (?, 'src/webhooks/retry.py')", (old,))
            conn.execute(
                "insert into session_relations (session, other, relation, score) values (?, ?, 'supersedes', 0.9)",
                (new, old),
            )
        if n >= 3:
            rowid = conn.execute(
                "insert into knowledge (item_id, title, category, tags, project, agent, session, author, created, "
                "shared, files, status, supersedes, content_hash, body, origin, repo, path, blob, updated_at) "
                "values (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) returning id",
                (
                    KNOWLEDGE_ID,
                    "Webhook handlers retry once",
                    "bug/fix",
                    json.dumps(["webhooks", "retry"]),
                    "payments",
                    AGENT,
                    "sess-old",
                    "alice",
                    "2026-02-01T13:00:00Z",
                    "2026-02-02T09:00:00Z",
                    json.dumps(["src/webhooks/retry.py"]),
                    "active",
                    json.dumps([]),
                    "sha256:" + "ab" * 32,
                    "## Summary\n- One retry decorator per handler.\n",
                    "sync",
                    PROJECT,
                    ".smriti/knowledge/bug/webhook-retry.md",
                    "f" * 40,
                    NOW,
                ),
            ).fetchone()[0]
            conn.execute("insert into outbox (op, ref) values ('knowledge', ?)", (rowid,))
            conn.execute(
                "insert into shares (item_id, repo, path, session, file_sha, status, shared_at) values (?,?,?,?,?,?,?)",
                (KNOWLEDGE_ID, PROJECT, ".smriti/knowledge/bug/webhook-retry.md", old, "c" * 64, "shared", NOW),
            )
            conn.execute(
                "insert into sync_state (repo, ref, commit_sha, synced_at) values (?,?,?,?)",
                (PROJECT, "origin/main", "d" * 40, NOW),
            )
        if n >= 4:
            conn.execute(
                "insert into source_errors (path, agent, errors, first_error, at) values (?,?,?,?,?)",
                ("/home/dev/.codex/sessions/broken.jsonl", "codex", 2, "line 3: not JSON", NOW),
            )
    return old, new


def _message(key: str, role: str, kind: str, text: str, tool: str | None, tool_input: object, files: object) -> Message:
    return Message(
        role=role, text=text, kind=kind, key=key, tool_name=tool, tool_input=tool_input, files=tuple(files or ())
    )


@pytest.mark.parametrize("n", range(1, len(MIGRATIONS) + 1), ids=lambda n: f"from-{NAMES[n - 1]}")
def test_a_store_of_every_version_upgrades_with_its_data_intact(
    n: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "smriti.db"
    conn = _store_at_version(path, n, monkeypatch)
    old_rowid, new_rowid = _write_version_data(conn, n)
    conn.close()

    with Store(path) as store:
        # at the latest version, every migration recorded once
        assert sorted(name for (name,) in store.conn.execute("select name from _smriti_migrations")) == sorted(NAMES)
        assert store.integrity() == ["ok"]
        assert list(store.conn.execute("pragma foreign_key_check")) == []

        # sessions and messages
        old = store.get_session("sess-old")
        assert old.rowid == old_rowid and old.session_id == public_session_id(AGENT, "sess-old")
        assert (old.agent, old.project, old.project_name, old.cwd, old.git_branch) == (
            AGENT,
            PROJECT,
            "payments",
            "/home/dev/payments",
            "main",
        )
        assert old.models == ["claude-sonnet-4"] and old.message_count == len(OLD_MESSAGES)
        assert old.agent_title == "Webhook retries"
        assert store.get_session(old.session_id[:8]).rowid == old_rowid
        messages = store.messages(old_rowid)
        assert [(m.seq, m.role, m.kind, m.text) for m in messages] == [
            (seq, role, kind, text) for seq, (_, role, kind, text, *_) in enumerate(OLD_MESSAGES)
        ]
        edit = messages[2]
        assert (edit.tool_name, edit.tool_input, edit.files, edit.sidechain) == (
            "Edit",
            {"path": "src/webhooks/retry.py"},
            ["src/webhooks/retry.py"],
            True,
        )
        assert store.message_texts([messages[0].rowid]) == {messages[0].rowid: OLD_MESSAGES[0][3]}
        assert store.session_row(new_rowid).native_id == "sess-new"
        assert store.list_sessions(projects=[PROJECT], limit=5)[0].native_id == "sess-new"
        assert store.is_tombstoned(AGENT, "sess-gone")

        # ingest state and the index feed
        state = store.source_state("/home/dev/.claude/projects/payments/sess-old.jsonl")
        assert state is not None
        assert (state.size, state.inode, state.resume, state.sessions) == (
            4096,
            1234,
            {"offset": 4096, "line": 6},
            ["sess-old"],
        )
        docs = list(store.all_index_docs())
        assert len(docs) == store.count_indexable() == len(OLD_MESSAGES)  # both sessions' 7, less the injected one
        assert {d.project for d in docs} == {PROJECT}

        stats = store.stats()
        assert (stats["sessions"], stats["messages"], stats["blobs"]) == (2, len(OLD_MESSAGES) + 1, len(OLD_MESSAGES))

        if n >= 2:
            assert old.category == "payments"
            tags = store.session_tags(old_rowid)
            assert tags[0] == {"category": "payments", "confidence": 1.0, "source": "user", "primary": True}
            assert {t["category"] for t in tags} == {"payments", "bug", "bug/fix"}
            digest = store.get_digest(old_rowid)
            assert digest is not None and digest["title"] == "Webhook retries twice on 502"
            assert digest["entities"]["errors"] == ["502 Bad Gateway"]
            assert old.title == "Webhook retries"  # the agent's title wins over the digest's
            assert store.sessions_touching(["retry.py"]) == [old_rowid]
            assert store.superseders_of([old_rowid]) == {old_rowid: {new_rowid}}
            assert [r["relation"] for r in store.relations(old_rowid)] == ["superseded_by"]
            assert {r["id"] for r in store.category_rows()} == {"bug", "bug/fix", "payments"}
            assert len(list(store.digest_docs())) == 1

        if n >= 3:
            item = store.knowledge_item(KNOWLEDGE_ID[:6])
            assert item is not None
            assert (item.id, item.title, item.category, item.author, item.status, item.origin) == (
                KNOWLEDGE_ID,
                "Webhook handlers retry once",
                "bug/fix",
                "alice",
                "active",
                "sync",
            )
            assert item.tags == ["webhooks", "retry"] and item.files == ["src/webhooks/retry.py"]
            assert item.body.startswith("## Summary") and item.repo == PROJECT
            assert store.knowledge_by_rowid([item.rowid]) == {item.rowid: item}
            assert [k.id for k in store.project_knowledge((PROJECT,), ("bug",))] == [KNOWLEDGE_ID]
            assert store.knowledge_blobs(PROJECT) == {KNOWLEDGE_ID: (item.path, "f" * 40)}
            share = store.share_record(KNOWLEDGE_ID, PROJECT)
            assert share is not None and share["session"] == old_rowid and share["status"] == "shared"
            assert store.sync_states()[0]["commit"] == "d" * 40
            assert store.expected_index_docs() == len(OLD_MESSAGES) + 2  # the messages, a digest, an item

        if n >= 4:
            assert store.source_errors()[0]["error"] == "line 3: not JSON"

        # and the upgraded store keeps working: the same session again adds nothing, a new one is stored
        again = Session(
            agent=AGENT,
            native_id="sess-old",
            messages=tuple(_message(*m[:7]) for m in OLD_MESSAGES),
        )
        result = store.write_session(again, PROJECT, "payments")
        assert (result.created, result.added, result.updated) == (False, 0, 0)
        fresh = Session(
            agent=AGENT, native_id="sess-3", messages=(_message("p3", "user", "prompt", "hi", None, None, None),)
        )
        assert store.write_session(fresh, PROJECT, "payments").added == 1
        assert store.delete_session(AGENT, "sess-new", reason="forget")
        assert store.integrity() == ["ok"]
