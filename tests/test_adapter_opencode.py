"""Tests for the OpenCode adapter.

The conformance table was written by reading each shared fixture by hand (the DB rows with
sqlite3, every JSON file of the two trees), not by copying the adapter's output. The shared trees
are anonymised and small; tests/fixtures/opencode/storage/ is a hand-written tree with real-shaped
ids, a sub-agent session, a compaction summary, synthetic text and tool errors. The DB copy of
that tree (what OpenCode 1.2's migration produces) is built in the tests.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from adapter_helpers import by_id, errors_of, kinds
from conftest import SHARED_FIXTURES, invoke_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters import Adapter
from smriti.adapters.opencode import OpenCodeAdapter
from smriti.models import Message, ParseResult, Problem

SHARED = SHARED_FIXTURES / "opencode"
OWN = Path(__file__).parent / "fixtures" / "opencode" / "storage"
ADAPTER = OpenCodeAdapter()

PROJECT = "4f2e8a1c9b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f"
PARENT = "ses_5a3f1c2e9ffeXq7LmN2pR4sT6v"
CHILD = "ses_5a3f1d4b2ffeKc8VbN1mQ3wE5r"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not available")


def session_file(storage: Path, session_id: str) -> Path:
    return storage / "session" / PROJECT / f"{session_id}.json"


# --- conformance over the shared fixtures --------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    sessions: dict[str, dict[str, int]]  # native_id → message count per kind
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


NOT_A_SOURCE = "not an OpenCode source: expected opencode.db or a storage/session/… JSON file"
TREE_HINT = "ingest storage/session/<project>/<session>.json or the storage folder"
MESSAGE_FILE = Expect({}, errors=[f"an OpenCode message file, not a session: {TREE_HINT}"])
PART_FILE = Expect({}, errors=[f"an OpenCode part file, not a session: {TREE_HINT}"])
EXPECTED: dict[str, Expect] = {
    # 1 session row; 2 message rows; 4 part rows: user text; assistant text, completed edit tool,
    # text (the tool splits the two texts into two responses).
    "opencode.db": Expect({"test-session-123": {"prompt": 1, "response": 2, "tool_call": 1, "tool_result": 1}}),
    "schema.sql": Expect({}, errors=[NOT_A_SOURCE]),
    # Legacy tree: the user message has no parts at all; the assistant's two parts lie flat in
    # part/ with messageID inside: a bash tool ("success" status, with output) and a text.
    "storage_legacy/session/proj_test/ses_s_stage0_drift.json": Expect(
        {"s_stage0_drift": {"tool_call": 1, "tool_result": 1, "response": 1}}
    ),
    "storage_legacy/message/s_stage0_drift/msg_0001.json": MESSAGE_FILE,
    "storage_legacy/message/s_stage0_drift/msg_0002.json": MESSAGE_FILE,
    "storage_legacy/part/prt_0001.json": PART_FILE,
    "storage_legacy/part/prt_0002.json": PART_FILE,
    # m_user_large_1/2: one text part each. m_assistant_large_1: bash tool (exit 1), a synthetic
    # text (injected), then file, reasoning, step-start/finish, compaction and patch parts that
    # carry no message. m_assistant_large_2: one text.
    "storage_v2/session/proj_test/ses_s_stage0_large.json": Expect(
        {"s_stage0_large": {"prompt": 2, "tool_call": 1, "tool_result": 1, "injected_context": 1, "response": 1}}
    ),
    # m_user_small: "Hello"; m_assistant_small: bash tool with output, then a text part.
    "storage_v2/session/proj_test/ses_s_stage0_small.json": Expect(
        {"s_stage0_small": {"prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1}}
    ),
    **{f"storage_v2/message/s_stage0_large/msg_000{n}.json": MESSAGE_FILE for n in (1, 2, 3, 4)},
    **{f"storage_v2/message/s_stage0_small/msg_000{n}.json": MESSAGE_FILE for n in (1, 2)},
    "storage_v2/migration": Expect({}, errors=[NOT_A_SOURCE]),
    **{f"storage_v2/part/m_assistant_large_1/00{n}.json": PART_FILE for n in range(1, 9)},
    "storage_v2/part/m_assistant_large_2/001.json": PART_FILE,
    "storage_v2/part/m_assistant_small/001.json": PART_FILE,
    "storage_v2/part/m_assistant_small/002.json": PART_FILE,
    "storage_v2/part/m_user_large_1/001.json": PART_FILE,
    "storage_v2/part/m_user_large_2/001.json": PART_FILE,
    "storage_v2/part/m_user_small/001.json": PART_FILE,
}


def shared_files() -> list[str]:
    if not SHARED.is_dir():
        return []
    return sorted(str(p.relative_to(SHARED)) for p in SHARED.rglob("*") if p.is_file())


@needs_shared
def test_every_shared_fixture_has_an_expectation() -> None:
    assert shared_files() == sorted(EXPECTED)


@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_conformance(name: str) -> None:
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{name} not in the shared fixtures")
    expect = EXPECTED[name]
    result = ADAPTER.parse(path)
    assert {s.native_id: kinds(s) for s in result.sessions} == expect.sessions
    assert errors_of(result.errors, path) == expect.errors
    assert errors_of(result.warnings, path) == expect.warnings
    assert result.resume is None
    for session in result.sessions:
        assert session.agent == "opencode"
        assert session.source_paths == (str(path),)
        assert len({m.key for m in session.messages}) == len(session.messages)


@needs_shared
def test_shared_fixture_details() -> None:
    db = by_id(ADAPTER.parse(SHARED / "opencode.db"))["test-session-123"]
    assert (db.cwd, db.title, db.parent_native_id) == ("/Users/test/project", "Test Session", "parent-session-456")
    assert db.models == ("gpt-5",)
    assert (db.started_at, db.ended_at) == ("2024-01-28T16:37:10.000Z", "2024-01-28T16:37:15.000Z")
    assert [(m.kind, m.key) for m in db.messages] == [
        ("prompt", "prt-sql-001"),
        ("response", "prt-sql-002"),
        ("tool_call", "prt-sql-003"),
        ("tool_result", "prt-sql-003:result"),
        ("response", "prt-sql-004"),
    ]
    assert db.messages[2].text == "edit: /Users/test/project/index.ts"
    assert db.messages[2].files == ("/Users/test/project/index.ts",)
    large = ADAPTER.parse(SHARED / "storage_v2/session/proj_test/ses_s_stage0_large.json").sessions[0]
    failed = next(m for m in large.messages if m.kind == "tool_result")
    assert failed.text == "[error] ls: /non-existent-directory: No such file or directory\n"  # metadata.exit 1
    assert (large.cwd, large.title) == ("/tmp/large", "OpenCode Large")
    drift = ADAPTER.parse(SHARED / "storage_legacy/session/proj_test/ses_s_stage0_drift.json").sessions[0]
    assert drift.messages[1].text == "# Title\n\nBody\n"
    assert drift.models == ("gpt-4o-mini",)


@needs_shared
def test_discover_on_the_shared_trees() -> None:
    assert list(ADAPTER.discover(SHARED)) == [SHARED / "opencode.db"]  # the trees are not named storage/
    assert list(ADAPTER.discover(SHARED / "storage_v2")) == [
        SHARED / "storage_v2/session/proj_test/ses_s_stage0_large.json",
        SHARED / "storage_v2/session/proj_test/ses_s_stage0_small.json",
    ]


# --- own fixture tree ----------------------------------------------------------------------------


def test_tree_session() -> None:
    path = session_file(OWN, PARENT)
    result = ADAPTER.parse(path)
    assert errors_of(result.errors, path) == []
    assert errors_of(result.warnings, path) == ["skipped 1 part of unknown type 'hologram'"]
    (session,) = result.sessions
    assert (session.native_id, session.cwd, session.parent_native_id) == (PARENT, "/home/dev/shop", None)
    assert session.title == "Add a discount code field to checkout"
    assert [m.kind for m in session.messages] == [
        "prompt",
        "injected_context",
        "injected_context",  # 2 synthetic parts: the Read call and file text
        "response",
        "tool_call",
        "tool_result",
        "tool_call",
        "tool_result",
        "response",
        "prompt",
        "injected_context",  # smriti's recall block split out of the prompt
        "tool_call",
        "tool_result",  # the task tool that ran the sub-agent
        "summary",  # the compaction trigger (a user message with only a compaction part) is not stored
        "tool_call",  # still running: no result yet
    ]
    prompt = session.messages[0]
    assert prompt.text == "Add a discount code field to the checkout form in @src/checkout.tsx"
    assert prompt.files == ("/home/dev/shop/src/checkout.tsx",)
    assert session.messages[7].text == "[error] Error: command timed out after 120000 ms"
    assert session.messages[9].text == "also validate the code server-side"
    assert session.messages[13].role == "system"
    assert session.messages[13].text.startswith("Summary: added a discountCode input")
    assert session.messages[4].text == "edit: /home/dev/shop/src/checkout.tsx"
    assert session.messages[11].text == "task: Validate discount codes"
    assert session.models == ("claude-sonnet-4-5",)
    assert session.started_at == "2025-12-06T05:46:40.000Z"


def test_sub_agent_session_names_its_parent() -> None:
    (child,) = ADAPTER.parse(session_file(OWN, CHILD)).sessions
    assert child.parent_native_id == PARENT
    assert kinds(child) == {"prompt": 1, "response": 1}
    assert child.models == ("claude-sonnet-4-5", "claude-haiku-4-5")


# --- the DB copy of the tree (what the 1.2 migration writes) -------------------------------------

SCHEMA = (
    "CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, vcs TEXT, name TEXT,"
    " time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_initialized INTEGER)",
    "CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL,"
    " directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, summary_additions INTEGER,"
    " summary_deletions INTEGER, summary_files INTEGER, summary_diffs TEXT, revert TEXT, permission TEXT,"
    " time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER, time_archived INTEGER)",
    "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,"
    " time_updated INTEGER NOT NULL, data TEXT NOT NULL)",
    "CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL,"
    " time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)",
    "CREATE INDEX message_session_idx ON message (session_id)",
    "CREATE INDEX part_session_idx ON part (session_id)",
    "CREATE TABLE todo (session_id TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL, priority TEXT NOT NULL,"
    " position INTEGER NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL)",
)


def tree_to_db(storage: Path, db: Path) -> Path:
    """Copy a storage tree into tables; `data` keeps everything but the ids, as OpenCode's migration does."""
    db.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(db) as conn:
        for ddl in SCHEMA:
            conn.execute(ddl)
        for file in sorted((storage / "session").glob("*/*.json")):
            s = json.loads(file.read_text())
            columns = "id, project_id, parent_id, slug, directory, title, version, time_created, time_updated"
            values = (
                s["id"],
                s["projectID"],
                s.get("parentID"),
                s.get("slug", ""),
                s["directory"],
                s["title"],
                s["version"],
                s["time"]["created"],
                s["time"]["updated"],
            )
            conn.execute(f"insert into session ({columns}) values (?,?,?,?,?,?,?,?,?)", values)
            for mfile in sorted((storage / "message" / s["id"]).glob("*.json")):
                m = json.loads(mfile.read_text())
                created = m["time"]["created"]
                data = {k: v for k, v in m.items() if k not in ("id", "sessionID")}
                conn.execute(
                    "insert into message values (?,?,?,?,?)", (m["id"], s["id"], created, created, json.dumps(data))
                )
                for index, pfile in enumerate(sorted((storage / "part" / m["id"]).glob("*.json"))):
                    p = json.loads(pfile.read_text())
                    data = {k: v for k, v in p.items() if k not in ("id", "sessionID", "messageID")}
                    row = (p["id"], m["id"], s["id"], created + index, created + index, json.dumps(data))
                    conn.execute("insert into part values (?,?,?,?,?,?)", row)
    conn.close()
    return db


def test_db_and_tree_copies_are_the_same_sessions(tmp_path: Path) -> None:
    db = tree_to_db(OWN, tmp_path / "opencode.db")
    result = ADAPTER.parse(db)
    assert errors_of(result.errors, db) == []
    assert errors_of(result.warnings, db) == ["skipped 1 part of unknown type 'hologram'"]
    from_db = by_id(result)
    assert set(from_db) == {PARENT, CHILD}
    for sid in (PARENT, CHILD):
        (from_tree,) = ADAPTER.parse(session_file(OWN, sid)).sessions
        assert [(m.key, m.kind, m.text) for m in from_db[sid].messages] == [
            (m.key, m.kind, m.text) for m in from_tree.messages
        ]
        assert (from_db[sid].cwd, from_db[sid].title, from_db[sid].parent_native_id) == (
            from_tree.cwd,
            from_tree.title,
            from_tree.parent_native_id,
        )
        assert from_db[sid].started_at == from_tree.started_at


def test_db_edge_cases(tmp_path: Path) -> None:
    db = tree_to_db(OWN, tmp_path / "opencode.db")
    with sqlite3.connect(db) as conn:
        # A session opened and never used, a message row whose data is not JSON, and messages of a
        # session that has no session row (its id is still known from the message table).
        conn.execute(
            "insert into session (id, project_id, slug, directory, title, version, time_created, time_updated)"
            " values ('ses_empty', 'p', 's', '/tmp', 'New session', '1.2.0', 1, 2)"
        )
        conn.execute("insert into message values ('msg_bad', ?, 5, 5, 'not json')", (PARENT,))
        data = json.dumps({"role": "user", "time": {"created": 1765000000000}})
        conn.execute(
            "insert into message values ('msg_orphan', 'ses_orphan', 1765000000000, 1765000000000, ?)", (data,)
        )
        conn.execute(
            "insert into part values ('prt_orphan', 'msg_orphan', 'ses_orphan', 1, 1, ?)",
            (json.dumps({"type": "text", "text": "hello from nowhere"}),),
        )
    conn.close()
    result = ADAPTER.parse(db)
    assert sorted(errors_of(result.warnings, db)) == [
        "skipped 1 message row whose data is not a JSON object",
        "skipped 1 part of unknown type 'hologram'",
    ]
    sessions = by_id(result)
    assert set(sessions) == {PARENT, CHILD, "ses_orphan"}
    assert sessions["ses_orphan"].messages[0].text == "hello from nowhere"
    assert sessions["ses_orphan"].cwd is None


def test_db_without_a_message_table(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    with sqlite3.connect(db) as conn:
        conn.execute("create table kv (k text, v text)")
    conn.close()
    assert errors_of(ADAPTER.parse(db).errors, db) == ["not an OpenCode database: it has no message table"]


def test_messages_found_but_none_read_is_an_error(tmp_path: Path) -> None:
    storage = tmp_path / "storage"
    sfile = storage / "session" / "global" / "ses_x.json"
    sfile.parent.mkdir(parents=True)
    sfile.write_text(json.dumps({"id": "ses_x", "directory": "/tmp/x", "title": "t", "time": {"created": 1}}))
    (storage / "message" / "ses_x").mkdir(parents=True)
    (storage / "message" / "ses_x" / "msg_1.json").write_text(json.dumps({"id": "msg_1", "role": "user"}))
    (storage / "part" / "msg_1").mkdir(parents=True)
    (storage / "part" / "msg_1" / "prt_1.json").write_text(json.dumps({"id": "prt_1", "type": "text-v2", "body": "hi"}))
    (storage / "message" / "ses_x" / "msg_2.json").write_text("{broken")
    result = ADAPTER.parse(sfile)
    assert result.sessions == []
    assert [str(p) for p in result.errors] == [
        f"{storage}/message/ses_x/msg_2.json: malformed JSON (Expecting property name enclosed in double quotes:"
        " line 1 column 2 (char 1)); skipped",
        f"{sfile}: found 1 session (1 message) but no messages: the format may have changed",
    ]
    assert errors_of(result.warnings, sfile) == ["skipped 1 part of unknown type 'text-v2'"]
    # A session that was never used has no message files: quietly empty.
    (storage / "session" / "global" / "ses_y.json").write_text(json.dumps({"id": "ses_y", "directory": "/tmp/y"}))
    assert ADAPTER.parse(storage / "session" / "global" / "ses_y.json") == ParseResult()


def test_oldest_tree_layout(tmp_path: Path) -> None:
    """Early versions: session/info/<id>.json, session/message/<sid>/, session/part/<sid>/<mid>/."""
    storage = tmp_path / "storage"
    info = storage / "session" / "info"
    info.mkdir(parents=True)
    shutil.copy(session_file(OWN, CHILD), info / f"{CHILD}.json")
    shutil.copytree(OWN / "message" / CHILD, storage / "session" / "message" / CHILD)
    for mfile in (OWN / "message" / CHILD).glob("*.json"):
        shutil.copytree(OWN / "part" / mfile.stem, storage / "session" / "part" / CHILD / mfile.stem)
    assert list(ADAPTER.discover(storage)) == [info / f"{CHILD}.json"]
    (session,) = ADAPTER.parse(info / f"{CHILD}.json").sessions
    (expected,) = ADAPTER.parse(session_file(OWN, CHILD)).sessions
    assert [(m.key, m.text) for m in session.messages] == [(m.key, m.text) for m in expected.messages]


# --- a real on-disk layout under a fake HOME -----------------------------------------------------


def opencode_home(data: Path) -> dict[str, Path]:
    shutil.copytree(OWN, data / "storage")
    db = tree_to_db(OWN, data / "opencode.db")
    (data / "opencode.db-wal").write_bytes(b"")
    (data / "log").mkdir()
    (data / "log" / "2025-12-06.log").write_text("INFO service=server\n")
    return {"db": db, "parent": session_file(data / "storage", PARENT), "child": session_file(data / "storage", CHILD)}


def test_default_roots_and_discover_on_a_real_layout(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("OPENCODE_DATA_DIR", raising=False)
    data = isolated_env / ".local" / "share" / "opencode"
    paths = opencode_home(data)
    assert ADAPTER.default_roots() == [data]
    assert list(ADAPTER.discover(data)) == [paths["db"], paths["parent"], paths["child"]]
    assert list(ADAPTER.discover(data / "storage")) == [paths["parent"], paths["child"]]
    assert list(ADAPTER.discover(paths["db"])) == [paths["db"]]


def test_data_dir_env_vars(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    xdg = tmp_path / "xdg"
    (xdg / "opencode").mkdir(parents=True)
    custom = tmp_path / "custom-opencode"
    custom.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(xdg))
    monkeypatch.setenv("OPENCODE_DATA_DIR", str(custom))
    assert ADAPTER.default_roots() == [custom, xdg / "opencode"]
    monkeypatch.delenv("OPENCODE_DATA_DIR")
    (isolated_env / ".local" / "share" / "opencode").mkdir(parents=True)
    assert ADAPTER.default_roots() == [xdg / "opencode", isolated_env / ".local" / "share" / "opencode"]


# --- detect --------------------------------------------------------------------------------------


def test_detect(tmp_path: Path) -> None:
    data = tmp_path / "opencode"
    paths = opencode_home(data)
    for mine in (paths["db"], paths["parent"], paths["child"], data, data / "storage"):
        assert ADAPTER.detect(mine), mine
    cursor_db = tmp_path / "state.vscdb"
    with sqlite3.connect(cursor_db) as conn:
        conn.execute("create table cursorDiskKV (key text, value blob)")
    conn.close()
    claude = tmp_path / "claude.jsonl"
    claude.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": "hi"}}) + "\n")
    amp = tmp_path / "session" / "x" / "T-1.json"  # a JSON thread that merely sits in a session/ folder
    amp.parent.mkdir(parents=True)
    amp.write_text(json.dumps({"id": "T-1", "messages": []}))
    for other in (cursor_db, claude, amp, OWN / "message" / PARENT, tmp_path / "missing.db", tmp_path / "session"):
        assert not ADAPTER.detect(other), other
    for message in (OWN / "message" / PARENT).glob("*.json"):
        assert not ADAPTER.detect(message)


@needs_shared
def test_detect_on_shared_fixtures() -> None:
    for name, expect in EXPECTED.items():
        assert ADAPTER.detect(SHARED / name) == bool(expect.sessions), name
    for folder in ("cursor", "copilot-vscode", "amp", "continue"):
        for other in sorted((SHARED_FIXTURES / folder).glob("*"))[:6]:
            assert not ADAPTER.detect(other), other


def test_is_an_adapter() -> None:
    assert isinstance(ADAPTER, Adapter)
    assert ADAPTER.name == "opencode"


# --- garbage never makes parse raise -------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "role",
                    "type",
                    "text",
                    "synthetic",
                    "tool",
                    "state",
                    "status",
                    "input",
                    "output",
                    "error",
                    "metadata",
                    "exit",
                    "time",
                    "created",
                    "start",
                    "summary",
                    "modelID",
                    "model",
                    "path",
                    "cwd",
                    "messageID",
                    "mime",
                    "source",
                    "url",
                    "filename",
                    "directory",
                    "title",
                    "parentID",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_garbage_bytes_never_raise(tmp_path: Path, data: bytes) -> None:
    for name in ("opencode.db", "ses_x.json"):
        path = tmp_path / name
        path.write_bytes(data)
        assert isinstance(ADAPTER.parse(path), ParseResult)
        ADAPTER.detect(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(info=json_values, messages=st.lists(json_values, max_size=3), parts=st.lists(json_values, max_size=4))
def test_odd_rows_and_files_never_raise(tmp_path: Path, info: Any, messages: list[Any], parts: list[Any]) -> None:
    db = tmp_path / "opencode.db"
    db.unlink(missing_ok=True)
    with sqlite3.connect(db) as conn:
        conn.execute("create table message (id text, session_id text, time_created, time_updated, data)")
        conn.execute("create table part (id text, message_id text, session_id text, time_created, time_updated, data)")
        for i, m in enumerate(messages):
            conn.execute("insert into message values (?, 's', ?, 0, ?)", (f"m{i}", json.dumps(info), json.dumps(m)))
        for i, p in enumerate(parts):
            conn.execute("insert into part values (?, ?, 's', ?, 0, ?)", (f"p{i}", f"m{i % 3}", i, json.dumps(p)))
    conn.close()
    assert all(isinstance(m, Message) for s in ADAPTER.parse(db).sessions for m in s.messages)
    storage = tmp_path / "storage"
    shutil.rmtree(storage, ignore_errors=True)
    sfile = storage / "session" / "p" / "ses_1.json"
    sfile.parent.mkdir(parents=True)
    sfile.write_text(json.dumps(info if isinstance(info, dict) else {"id": "ses_1", "directory": "/x", "v": info}))
    sid = info.get("id") if isinstance(info, dict) and isinstance(info.get("id"), str) and info.get("id") else "ses_1"
    for i, m in enumerate(messages):
        folder = storage / "message" / sid
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"msg_{i}.json").write_text(json.dumps(m))
        for j, p in enumerate(parts):
            pfolder = storage / "part" / f"msg_{i}"
            pfolder.mkdir(parents=True, exist_ok=True)
            (pfolder / f"prt_{j}.json").write_text(json.dumps(p))
    assert isinstance(ADAPTER.parse(sfile), ParseResult)


# --- the Go-era OpenCode: <project>/.opencode/opencode.db -------------------------------------------

GO_SQL = Path(__file__).parent / "fixtures" / "opencode" / "go" / "opencode.db.sql"
GO_MAIN = "6f1d2c3b-8a9e-4f7d-b6c5-1e2d3c4b5a69"
GO_CHILD = "0b9e8d7c-6f5a-4e3d-9c2b-1a0f9e8d7c6b"


def go_project(folder: Path) -> Path:
    """A project folder holding a Go-era database built from the SQL fixture; returns the database."""
    db = folder / ".opencode" / "opencode.db"
    db.parent.mkdir(parents=True)
    with sqlite3.connect(db) as conn:
        conn.executescript(GO_SQL.read_text())
    return db


def test_go_era_database(tmp_path: Path) -> None:
    db = go_project(tmp_path / "shop")
    result = ADAPTER.parse(db)
    assert (result.errors, result.warnings) == ([], [])
    sessions = by_id(result)
    assert set(sessions) == {GO_MAIN, GO_CHILD}  # the third session has no messages
    main = sessions[GO_MAIN]
    # u: prompt; a: reasoning (dropped) + text + grep call; tool: result; a: bash call; tool: failed
    # result; a: text
    assert kinds(main) == {"prompt": 1, "response": 2, "tool_call": 2, "tool_result": 2}
    assert (main.title, main.cwd, main.models) == (
        "Flaky payment webhook test",
        str(tmp_path / "shop"),
        ("claude-3.7-sonnet",),
    )
    assert (main.started_at, main.ended_at) == ("2025-04-25T16:56:40.000Z", "2025-04-25T16:57:40.000Z")
    grep, bash = (m for m in main.messages if m.kind == "tool_call")
    assert (grep.tool_name, grep.action, grep.tool_input["pattern"]) == ("grep", "search", "def handle_webhook\\(")
    assert (bash.action, bash.tool_input["command"]) == ("shell", "pytest payments/tests/test_webhooks.py -x")
    results = [m for m in main.messages if m.kind == "tool_result"]
    assert [r.tool_name for r in results] == ["grep", "bash"] and results[1].text.startswith("[error] FAILED")
    assert not any("timing issue" in m.text for m in main.messages)  # reasoning is not stored
    assert sessions[GO_CHILD].parent_native_id == GO_MAIN


def git_project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def test_go_era_database_in_a_project_folder_given_as_path(runner, tmp_path: Path) -> None:
    project = git_project(tmp_path / "shop")
    db = go_project(project)
    assert ADAPTER.detect(project) and ADAPTER.detect(db)
    assert list(ADAPTER.discover(project)) == [db]
    out = invoke_json(runner, "ingest", "--path", str(project))  # no --agent: detected
    assert (out["sessions_found"], out["errors"]) == (2, [])
    assert invoke_json(runner, "search", "time.monotonic wall clock")[0]["native_id"] == GO_MAIN


def test_go_era_database_of_a_known_project_is_found_by_a_plain_ingest(
    runner, tmp_path: Path, isolated_env: Path
) -> None:
    # As for Aider: a plain `ingest` looks at the root of every project a stored session ran in.
    project = git_project(tmp_path / "shop")
    go_project(project)
    line = {
        "type": "user",
        "uuid": "u1",
        "sessionId": "s-known",
        "cwd": str(project),
        "timestamp": "2025-04-26T10:00:00Z",
        "message": {"role": "user", "content": "list the payment providers"},
    }
    claude = isolated_env / ".claude" / "projects" / "-shop"
    claude.mkdir(parents=True)
    (claude / "s-known.jsonl").write_text(json.dumps(line) + "\n")
    invoke_json(runner, "ingest")  # learns the project from the Claude session
    assert invoke_json(runner, "sessions", "--agent", "opencode") == []
    invoke_json(runner, "ingest")
    rows = invoke_json(runner, "sessions", "--agent", "opencode")
    assert sorted(r["native_id"] for r in rows) == sorted([GO_MAIN, GO_CHILD])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(json_values, max_size=4), role=json_values, created=json_values)
def test_odd_go_era_rows_never_raise(tmp_path: Path, parts: list[Any], role: Any, created: Any) -> None:
    db = tmp_path / ".opencode" / "opencode.db"
    if db.exists():
        db.unlink()
    db.parent.mkdir(exist_ok=True)
    with sqlite3.connect(db) as conn:
        conn.execute("create table sessions (id text primary key, title text, created_at, updated_at)")
        conn.execute("create table messages (id text, session_id text, role, parts, model, created_at)")
        conn.execute("insert into sessions values ('s', 't', 0, 0)")
        conn.execute(
            "insert into messages values ('m1', 's', ?, ?, null, ?)",
            (json.dumps(role), json.dumps(parts), json.dumps(created)),
        )
        conn.execute("insert into messages values ('m2', 's', 'user', ?, null, 1)", (json.dumps(parts),))
        conn.execute("insert into messages values ('m3', 's', 'assistant', 'not json', null, 2)")
    result = ADAPTER.parse(db)
    assert isinstance(result, ParseResult)
    assert all(isinstance(p, Problem) for p in [*result.warnings, *result.errors])
