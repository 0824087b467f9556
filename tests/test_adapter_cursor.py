"""Tests for the Cursor adapter.

The conformance table was written by reading each shared fixture by hand (jq over the transcripts,
a small sqlite3 dump of the composer DB, the Datasette export's rows), not by copying the
adapter's output. Eras the shared folder lacks (workspace ItemTable DBs, a realistic era-3 global
DB) are built in the tests from the JSON rows in tests/fixtures/cursor/.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from adapter_helpers import by_id, errors_of, kinds
from conftest import SHARED_FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters import Adapter
from smriti.adapters.cursor import CursorAdapter
from smriti.models import Message, ParseResult

SHARED = SHARED_FIXTURES / "cursor"
OWN = Path(__file__).parent / "fixtures" / "cursor"
ADAPTER = CursorAdapter()

COMPOSER = "1b7e0c6a-2f43-4f7e-9d1a-6a0d2c9e5f01"
CHILD = "4c2d9e8f-7a61-4b0e-8f3c-2e5d1a9b7c60"
ERA2 = "9c3f5a7b-1d2e-4f60-8a9b-0c1d2e3f4a5b"
TAB = "5e0d3c2b-9a8f-4e7d-b6c5-a4f3e2d1c0b9"

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not available")


def keys(result: ParseResult) -> list[str]:
    return [m.key for s in result.sessions for m in s.messages]


# --- building state DBs the way Cursor lays them out ---------------------------------------------

# Cursor's own DDL; the shared synthetic DB uses a different one, so the reader must not care.
DDL = (
    "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)",
    "CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)",
)


def make_db(path: Path, item_rows: dict[str, Any] | None = None, kv_rows: dict[str, Any] | None = None) -> Path:
    """A state.vscdb with JSON values; every other kv value is stored as a BLOB, as Cursor does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as conn:
        for ddl in DDL:
            conn.execute(ddl)
        for key, value in (item_rows or {}).items():
            conn.execute("insert into ItemTable values (?, ?)", (key, json.dumps(value)))
        for index, (key, value) in enumerate((kv_rows or {}).items()):
            raw: Any = None if value is None else json.dumps(value)
            if raw is not None and index % 2:
                raw = raw.encode()
            conn.execute("insert into cursorDiskKV values (?, ?)", (key, raw))
    conn.close()
    return path


def own_rows(name: str) -> dict[str, Any]:
    return json.loads((OWN / name).read_text())["rows"]


def global_db(tmp_path: Path) -> Path:
    return make_db(tmp_path / "globalStorage" / "state.vscdb", kv_rows=own_rows("global-cursorDiskKV.json"))


def workspace_db(tmp_path: Path, folder: str = "abc123") -> Path:
    storage = tmp_path / "workspaceStorage" / folder
    storage.mkdir(parents=True)
    shutil.copy(OWN / "workspace.json", storage / "workspace.json")
    return make_db(storage / "state.vscdb", item_rows=own_rows("workspace-ItemTable.json"))


# --- conformance over the shared fixtures --------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    sessions: dict[str, dict[str, int]]  # native_id → message count per kind
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


NOT_A_SOURCE = "not a Cursor source: expected a state.vscdb SQLite database or an agent-transcript .jsonl"
SYNTHETIC_COMPOSER = "00000000-0016-4016-8016-000000000016"
EXPECTED: dict[str, Expect] = {
    # One composerData row; 7 headers. Row keys resolve 4 headers directly, "store:v1:…" names the
    # bubbleId inside row `synthetic-collision-row`, "" the one inside `empty-id-row-016`. The
    # NULL-value row is the one skipped. Bubbles: 2 type-1 texts, 2 type-2 texts, 2 toolFormerData
    # bubbles (no text, each with a result) → 2 prompts, 2 responses, 2 calls, 2 results.
    "composer-global-state.vscdb": Expect(
        {SYNTHETIC_COMPOSER: {"prompt": 2, "response": 2, "tool_call": 2, "tool_result": 2}},
        warnings=["skipped 1 bubble row with a NULL value"],
    ),
    # 1 user line; 10 assistant lines holding 10 tool_use blocks; only lines 2, 9 and 11 have text
    # besides [REDACTED]. No tool_result blocks at all.
    "cursor-session-simple.jsonl": Expect({"cursor-session-simple": {"prompt": 1, "response": 3, "tool_call": 10}}),
    # "hi", a {"type":"error"} line (not conversation), and an assistant line that is only [REDACTED].
    "error-line.jsonl": Expect({"error-line": {"prompt": 1}}),
    # A Datasette JSON export of ItemTable rows, not a file Cursor writes (see the export → DB test).
    "f87f6e0b2cf1ae8645cc0c5ffaa99529.json": Expect({}, errors=[NOT_A_SOURCE]),
    # The chats-store sidecar: read for a transcript's cwd, not a source of its own.
    "meta.json": Expect({}, errors=[NOT_A_SOURCE]),
    # One assistant line: a text block and two tool_use blocks (Grep, Glob).
    "multi-parts.jsonl": Expect({"multi-parts": {"response": 1, "tool_call": 2}}),
    # 3 user texts, 2 user tool_result lines; assistant: 4 lines with text (one also thinking +
    # tool_use), one tool_use-only line.
    "stage0_large.jsonl": Expect({"stage0_large": {"prompt": 3, "response": 4, "tool_call": 2, "tool_result": 2}}),
    # Drift: `tool_call` and `tool-result` spellings are read as tool_use/tool_result; thinking is
    # dropped; `custom_block` is unknown. The last assistant line has the only text.
    "stage0_schema_drift.jsonl": Expect(
        {"stage0_schema_drift": {"prompt": 1, "response": 1, "tool_call": 1, "tool_result": 1}},
        warnings=["skipped 1 content block of unknown type 'custom_block'"],
    ),
    # <user_query> prompt; one assistant line with text and one Read tool_use.
    "with-tools.jsonl": Expect({"with-tools": {"prompt": 1, "response": 1, "tool_call": 1}}),
}


def shared_files() -> list[str]:
    return sorted(p.name for p in SHARED.iterdir() if p.is_file()) if SHARED.is_dir() else []


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
    for session in result.sessions:
        assert session.agent == "cursor"
        assert session.source_paths == (str(path),)
        assert session.project is None
        assert len({m.key for m in session.messages}) == len(session.messages)


@needs_shared
def test_synthetic_composer_details() -> None:
    session = by_id(ADAPTER.parse(SHARED / "composer-global-state.vscdb"))[SYNTHETIC_COMPOSER]
    assert session.title == "Synthetic v0.16 Composer session"
    assert session.cwd == "/fixture/v016/project"  # composerData.workspaceIdentifier.uri.fsPath
    assert (session.started_at, session.ended_at) == ("2024-01-16T00:00:00.000Z", "2024-01-16T00:01:00.000Z")
    # Header order, keyed by the row key; the JSON bubbleId may differ from it.
    assert [(m.kind, m.key.split(":", 1)[1]) for m in session.messages] == [
        ("prompt", "native-user-016"),
        ("response", "synthetic-collision-row"),
        ("response", "fallback-assistant-016"),
        ("tool_call", "native-tool-read-016:tool"),
        ("tool_result", "native-tool-read-016:result"),
        ("tool_call", "native-tool-search-016:tool"),
        ("tool_result", "native-tool-search-016:result"),
        ("prompt", "empty-id-row-016"),
    ]
    read = session.messages[3]
    assert read.text == "read_file: /fixture/v016/project/synthetic.ts"
    assert read.tool_input == {"path": "/fixture/v016/project/synthetic.ts"}
    assert read.files == ("/fixture/v016/project/synthetic.ts",)
    assert session.messages[4].text == "synthetic read result"
    assert session.messages[4].tool_name == "read_file"
    assert session.messages[0].timestamp == "2024-01-16T00:00:01.000Z"


@needs_shared
def test_transcript_details() -> None:
    session = ADAPTER.parse(SHARED / "cursor-session-simple.jsonl").sessions[0]
    first, reply = session.messages[0], session.messages[1]
    assert first.text == "Generate a file with all the HBO shows from the 90's in it"  # <user_query> unwrapped
    assert reply.text.startswith("Creating a file listing 1990s HBO shows.")
    assert "[REDACTED]" not in " ".join(m.text for m in session.messages)
    search = session.messages[3]
    assert (search.tool_name, search.text) == ("WebSearch", "WebSearch: HBO original series 1990s list complete")
    assert session.cwd is None and session.started_at is None  # no meta.json next to it
    stage0 = ADAPTER.parse(SHARED / "stage0_large.jsonl").sessions[0]
    results = [m for m in stage0.messages if m.kind == "tool_result"]
    # Calls carry no ids: each result answers the oldest open call.
    assert [(m.tool_name, m.text) for m in results] == [("Bash", "file1.txt\nfile2.txt"), ("Read", "hello world")]
    drift = ADAPTER.parse(SHARED / "stage0_schema_drift.jsonl").sessions[0]
    assert drift.models == ("cursor-auto",)


@needs_shared
def test_legacy_chat_export_loaded_into_a_db(tmp_path: Path) -> None:
    """The real 2024 Datasette export holds era-1 rows; put them back into an ItemTable."""
    export = json.loads((SHARED / "f87f6e0b2cf1ae8645cc0c5ffaa99529.json").read_text())
    rows = {key: json.loads(value) for _, key, value in export["rows"]}
    db = make_db(tmp_path / "ws" / "state.vscdb", item_rows=rows)
    result = ADAPTER.parse(db)
    assert result.errors == [] and result.warnings == []
    sessions = by_id(result)
    # Tab 1: 4 user + 4 ai bubbles with text, then the empty input bubble; tab 2: 1 + 1, then empty.
    assert {sid: kinds(s) for sid, s in sessions.items()} == {
        "8420c7ae-355b-48e8-a441-87fb714a6ef5": {"prompt": 4, "response": 4},
        "cf567e3f-3326-4ed1-b21a-ebf77816d0b8": {"prompt": 1, "response": 1},
    }
    tab = sessions["8420c7ae-355b-48e8-a441-87fb714a6ef5"]
    assert tab.title == "Identifying Outliers in Helpdesk Tickets"
    assert tab.models == ("claude-3.5-sonnet",)
    assert tab.ended_at == "2024-11-15T01:37:41.220Z"  # lastSendTime 1731634661220
    assert tab.messages[0].key == "8420c7ae-355b-48e8-a441-87fb714a6ef5:ec134833-a069-477e-a648-b0bbb2607ad3"
    assert "c:\\Users\\ydebray\\Downloads\\ticketing\\helpdesk_tickets.csv" in tab.messages[0].files


# --- own fixtures: realistic era-3 global DB and workspace DB -----------------------------------


def test_era3_global_db(tmp_path: Path) -> None:
    path = global_db(tmp_path)
    result = ADAPTER.parse(path)
    assert errors_of(result.errors, path) == []
    # b-gone is in the headers but has no row; the orphan row (not in the headers) is not read.
    assert errors_of(result.warnings, path) == [
        "skipped 1 bubble listed in a conversation header but missing from the database"
    ]
    sessions = by_id(result)
    assert set(sessions) == {COMPOSER, CHILD}  # the empty "New chat" composer is not a session
    main = sessions[COMPOSER]
    assert [(m.kind, m.key.removeprefix(COMPOSER + ":")) for m in main.messages] == [
        ("prompt", "b-user-1"),
        ("response", "b-ai-1"),
        ("tool_call", "b-tool-1:tool"),
        ("tool_result", "b-tool-1:result"),
        ("tool_call", "b-tool-2:tool"),
        ("tool_result", "b-tool-2:result"),
        ("response", "b-ai-2"),  # the thinking-only bubble before it is not stored
        ("prompt", "b-user-2"),
        ("response", "b-ai-3"),
    ]
    read, failed, rich = main.messages[2], main.messages[5], main.messages[7]
    assert read.text == "read_file: tests/test_http.py"  # rawArgs, not the empty params
    assert read.files == ("tests/test_http.py",)
    assert main.messages[3].text == "def test_retry():\n    assert fetch_with_retry(url) == 200\n"
    assert failed.text == "[error] F\n1 failed in 0.42s"
    assert failed.tool_name == "run_terminal_cmd"
    assert rich.text == "Also run the whole suite, please."  # from the Lexical richText
    assert main.title == "Fix flaky retry test"
    assert main.models == ("claude-4-sonnet",)
    assert (main.started_at, main.ended_at) == ("2025-05-23T11:33:20.000Z", "2025-05-23T11:38:20.000Z")
    assert main.cwd is None  # no workspace DB lists it here (see the layout test)
    child = sessions[CHILD]
    assert child.parent_native_id == COMPOSER  # listed in the parent's subComposerIds
    assert [m.kind for m in child.messages] == ["prompt", "injected_context", "response"]
    assert child.messages[0].text == "Run the whole test suite and report failures."
    assert child.messages[1].text.startswith("<smriti-context")
    assert child.cwd == "/home/dev/api"  # the bubble's workspaceUris
    assert child.models == ("gpt-4.1",)


def test_workspace_db_eras_1_and_2(tmp_path: Path) -> None:
    path = workspace_db(tmp_path)
    result = ADAPTER.parse(path)
    assert result.errors == [] and result.warnings == []
    sessions = by_id(result)
    # The era-3 entry in composer.composerData is only a pointer: its messages are in the global DB.
    assert {sid: kinds(s) for sid, s in sessions.items()} == {
        TAB: {"prompt": 1, "response": 1},
        ERA2: {"prompt": 1, "response": 1},
    }
    tab = sessions[TAB]
    assert tab.title == "Why is the build slow"
    assert tab.cwd == "/home/dev/api"  # workspace.json next to the DB
    assert tab.messages[0].files == ("/home/dev/api/Makefile",)
    assert tab.models == ("gpt-4o",)
    assert tab.ended_at == "2024-08-01T08:13:20.000Z"  # lastSendTime 1722500000000
    era2 = sessions[ERA2]
    assert era2.title == "Explain the config loader"
    assert era2.cwd == "/home/dev/api"
    assert [m.key for m in era2.messages] == [f"{ERA2}:e2-u1", f"{ERA2}:e2-a1"]
    assert era2.started_at == "2024-11-07T17:20:00.000Z"


def test_era2_and_era3_copies_of_a_composer_share_keys(tmp_path: Path) -> None:
    """A composer still inline in a workspace DB and already split in the global DB: same keys."""
    rows = own_rows("global-cursorDiskKV.json")
    headers = rows[f"composerData:{COMPOSER}"]["fullConversationHeadersOnly"]
    inline = [
        rows[f"bubbleId:{COMPOSER}:{h['bubbleId']}"] for h in headers if f"bubbleId:{COMPOSER}:{h['bubbleId']}" in rows
    ]
    composer = {"composerId": COMPOSER, "name": "Fix flaky retry test", "conversation": inline}
    ws = make_db(tmp_path / "ws" / "state.vscdb", item_rows={"composer.composerData": {"allComposers": [composer]}})
    from_workspace = by_id(ADAPTER.parse(ws))[COMPOSER]
    from_global = by_id(ADAPTER.parse(global_db(tmp_path)))[COMPOSER]
    assert [m.key for m in from_workspace.messages] == [m.key for m in from_global.messages]
    assert [m.text for m in from_workspace.messages] == [m.text for m in from_global.messages]


def test_bad_rows_are_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    rows = own_rows("global-cursorDiskKV.json")
    db = make_db(tmp_path / "state.vscdb", kv_rows=rows)
    with sqlite3.connect(db) as conn:
        conn.execute("insert into cursorDiskKV values (?, ?)", (f"bubbleId:{COMPOSER}:b-ai-3", b"{not json"))
        conn.execute("insert into cursorDiskKV values (?, ?)", ("composerData:dead-beef", None))
        conn.execute(
            "insert into cursorDiskKV values (?, ?)", (f"bubbleId:{CHILD}:c-ai-1", json.dumps({"type": 9, "text": "?"}))
        )
    conn.close()
    result = ADAPTER.parse(db)
    assert errors_of(result.errors, db) == [f"row 'bubbleId:{COMPOSER}:b-ai-3' is not valid JSON; skipped"]
    assert sorted(errors_of(result.warnings, db)) == [
        "skipped 1 bubble listed in a conversation header but missing from the database",
        "skipped 1 bubble of unknown type 9",
        "skipped 1 composer row with a NULL value",
    ]
    assert kinds(by_id(result)[COMPOSER])["response"] == 2  # b-ai-3 lost, the rest kept


def test_composers_found_but_no_messages_is_an_error(tmp_path: Path) -> None:
    rows = {
        "composerData:c1": {"composerId": "c1", "fullConversationHeadersOnly": [{"bubbleId": "x"}]},
        "bubbleId:c1:x": {"type": 1, "text": "", "newShape": {"content": "the text moved here"}},
    }
    db = make_db(tmp_path / "state.vscdb", kv_rows=rows)
    result = ADAPTER.parse(db)
    assert result.sessions == []
    assert errors_of(result.errors, db) == ["found 1 session but no messages: the format may have changed"]


def test_an_empty_db_is_quietly_empty(tmp_path: Path) -> None:
    db = make_db(tmp_path / "state.vscdb")
    assert ADAPTER.parse(db) == ParseResult()


# --- agent transcripts ---------------------------------------------------------------------------


def test_transcript_prompts_and_injected_context() -> None:
    path = OWN / "agent-transcript.jsonl"
    result = ADAPTER.parse(path)
    assert result.errors == [] and result.warnings == []
    session = result.sessions[0]
    assert [(m.kind, m.key) for m in session.messages] == [
        ("prompt", "agent-transcript:1"),
        ("injected_context", "agent-transcript:1:ctx"),  # <user_info> around the <user_query>
        ("tool_call", "agent-transcript:2:1"),  # the [REDACTED] text block adds nothing
        ("response", "agent-transcript:3"),
        ("prompt", "agent-transcript:4"),
        ("injected_context", "agent-transcript:4:ctx"),  # smriti's recall inside the query
        ("response", "agent-transcript:5"),
        ("tool_call", "agent-transcript:5:1"),
    ]
    texts = [m.text for m in session.messages]
    assert texts[0] == "why does the retry test fail?"
    assert texts[1].startswith("<user_info>")
    assert texts[3] == "The jitter in `fetch_with_retry` is unseeded."
    assert texts[4] == "fix it like last time"
    assert texts[5].startswith("<smriti-context") and texts[5].endswith("</smriti-context>")
    edit = session.messages[7]
    assert edit.text == "StrReplace: /home/dev/api/tests/conftest.py"
    assert edit.files == ("/home/dev/api/tests/conftest.py",)


def test_transcript_resume_returns_only_new_messages(tmp_path: Path) -> None:
    path = tmp_path / "9d8c7b6a.jsonl"
    shutil.copy(OWN / "agent-transcript.jsonl", path)
    first = ADAPTER.parse(path)
    assert len(first.sessions[0].messages) == 8
    with open(path, "a") as fh:
        fh.write((OWN / "agent-transcript-appended.jsonl").read_text())
    second = ADAPTER.parse(path, first.resume)
    assert second.errors == [] and second.warnings == []
    assert [(m.kind, m.key, m.text) for m in second.sessions[0].messages] == [
        ("response", "9d8c7b6a:7", "Done: the retry test is deterministic now."),  # line 6 is an error line
        ("prompt", "9d8c7b6a:8", "thanks"),
    ]
    # Nothing new: no sessions, and the resume point stays put.
    third = ADAPTER.parse(path, second.resume)
    assert third.sessions == [] and third.errors == []
    assert third.resume["offset"] == second.resume["offset"]
    # Keys match a fresh read of the whole file.
    whole = keys(ADAPTER.parse(path))
    assert whole == keys(first) + keys(second)


def test_transcript_results_pair_across_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    call = {
        "role": "assistant",
        "message": {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}]},
    }
    result = {"role": "user", "message": {"content": [{"type": "tool_result", "content": "a.txt", "is_error": True}]}}
    path.write_text(json.dumps(call) + "\n")
    first = ADAPTER.parse(path)
    with open(path, "a") as fh:
        fh.write(json.dumps(result) + "\n")
    second = ADAPTER.parse(path, first.resume)
    (message,) = second.sessions[0].messages
    assert (message.kind, message.tool_name, message.text) == ("tool_result", "Bash", "[error] a.txt")


# --- a real on-disk layout under a fake HOME -----------------------------------------------------


def cursor_home(home: Path) -> dict[str, Path]:
    user = home / ".config" / "Cursor" / "User"
    db = make_db(user / "globalStorage" / "state.vscdb", kv_rows=own_rows("global-cursorDiskKV.json"))
    ws = user / "workspaceStorage" / "3f9a1c0e5b7d"
    ws.mkdir(parents=True)
    shutil.copy(OWN / "workspace.json", ws / "workspace.json")
    ws_db = make_db(ws / "state.vscdb", item_rows=own_rows("workspace-ItemTable.json"))
    (user / "workspaceStorage" / "no-db-here").mkdir()
    sid = "7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6"
    transcript = home / ".cursor" / "projects" / "home-dev-api" / "agent-transcripts" / sid / f"{sid}.jsonl"
    transcript.parent.mkdir(parents=True)
    shutil.copy(OWN / "agent-transcript.jsonl", transcript)
    meta = home / ".cursor" / "chats" / hashlib.md5(b"/home/dev/api").hexdigest() / sid / "meta.json"
    meta.parent.mkdir(parents=True)
    shutil.copy(OWN / "chat-meta.json", meta)
    (home / ".cursor" / "extensions" / "ms-python").mkdir(parents=True)  # never scanned
    return {"global": db, "workspace": ws_db, "transcript": transcript, "user": user}


def test_default_roots_and_discover_on_a_real_layout(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("APPDATA", raising=False)
    paths = cursor_home(isolated_env)
    roots = ADAPTER.default_roots()
    assert roots == [paths["user"], isolated_env / ".cursor" / "projects"]
    found = [p for root in roots for p in ADAPTER.discover(root)]
    assert found == [paths["global"], paths["workspace"], paths["transcript"]]
    # ~/.cursor itself (as `smriti ingest --path ~/.cursor`) finds the transcript, not extensions.
    assert list(ADAPTER.discover(isolated_env / ".cursor")) == [paths["transcript"]]
    assert list(ADAPTER.discover(paths["global"])) == [paths["global"]]


def test_global_composers_get_their_workspace_folder(isolated_env: Path) -> None:
    paths = cursor_home(isolated_env)
    sessions = by_id(ADAPTER.parse(paths["global"]))
    # The workspace DB's composer.composerData lists the composer id; workspace.json names the folder.
    assert sessions[COMPOSER].cwd == "/home/dev/api"


def test_transcript_cwd_and_times_come_from_the_chat_meta(isolated_env: Path) -> None:
    paths = cursor_home(isolated_env)
    session = ADAPTER.parse(paths["transcript"]).sessions[0]
    assert session.native_id == "7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6"
    assert session.cwd == "/home/dev/api"
    assert (session.started_at, session.ended_at) == ("2025-05-23T11:33:20.000Z", "2025-05-23T11:39:20.000Z")


def test_default_roots_include_macos_and_windows(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mac = isolated_env / "Library" / "Application Support" / "Cursor" / "User"
    mac.mkdir(parents=True)
    appdata = isolated_env / "AppData" / "Roaming"
    (appdata / "Cursor" / "User").mkdir(parents=True)
    monkeypatch.setenv("APPDATA", str(appdata))
    assert ADAPTER.default_roots() == [mac, appdata / "Cursor" / "User"]


# --- detect --------------------------------------------------------------------------------------


def other_agents_files(tmp_path: Path) -> list[Path]:
    claude = tmp_path / "claude.jsonl"
    line = {"type": "user", "uuid": "u1", "sessionId": "s", "message": {"role": "user", "content": "hi"}}
    claude.write_text(json.dumps(line) + "\n")
    codex = tmp_path / "rollout.jsonl"
    codex.write_text(json.dumps({"timestamp": "2025-01-01T00:00:00Z", "type": "session_meta", "payload": {}}) + "\n")
    copilot = tmp_path / "chat.json"
    copilot.write_text(json.dumps({"requesterUsername": "x", "requests": []}))
    vscode_db = tmp_path / "Code" / "state.vscdb"
    vscode_db.parent.mkdir()
    with sqlite3.connect(vscode_db) as conn:
        conn.execute("create table ItemTable (key text unique on conflict replace, value blob)")
    conn.close()
    opencode_db = tmp_path / "opencode.db"
    with sqlite3.connect(opencode_db) as conn:
        conn.execute("create table message (id text, session_id text, data text)")
    conn.close()
    return [claude, codex, copilot, vscode_db, opencode_db, tmp_path]


def test_detect(tmp_path: Path, isolated_env: Path) -> None:
    paths = cursor_home(isolated_env)
    for mine in (
        paths["global"],
        paths["workspace"],
        paths["transcript"],
        paths["user"],
        isolated_env / ".cursor",
        OWN / "agent-transcript.jsonl",
    ):
        assert ADAPTER.detect(mine), mine
    for other in other_agents_files(tmp_path):
        assert not ADAPTER.detect(other), other
    assert not ADAPTER.detect(tmp_path / "missing.jsonl")


@needs_shared
def test_detect_on_shared_fixtures() -> None:
    for name in ("composer-global-state.vscdb", "cursor-session-simple.jsonl", "stage0_large.jsonl"):
        assert ADAPTER.detect(SHARED / name)
    for other in sorted((SHARED_FIXTURES / "claude-code").glob("*.jsonl"))[:5]:
        assert not ADAPTER.detect(other), other
    for other in sorted((SHARED_FIXTURES / "copilot-vscode").iterdir()):
        assert not ADAPTER.detect(other), other


def test_is_an_adapter() -> None:
    assert isinstance(ADAPTER, Adapter)
    assert ADAPTER.name == "cursor"


# --- garbage never makes parse raise -------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "text",
                    "role",
                    "message",
                    "content",
                    "bubbleId",
                    "toolFormerData",
                    "name",
                    "rawArgs",
                    "params",
                    "result",
                    "status",
                    "createdAt",
                    "fullConversationHeadersOnly",
                    "conversation",
                    "tabs",
                    "bubbles",
                    "tabId",
                    "allComposers",
                    "composerId",
                    "richText",
                    "input",
                    "tool_use_id",
                    "id",
                    "workspaceUris",
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
    for name in ("t.jsonl", "state.vscdb"):
        path = tmp_path / name
        path.write_bytes(data)
        assert isinstance(ADAPTER.parse(path), ParseResult)
        ADAPTER.detect(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(json_values, max_size=6))
def test_odd_transcript_records_never_raise(tmp_path: Path, lines: list[Any]) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = ADAPTER.parse(path)
    assert all(isinstance(m, Message) for s in result.sessions for m in s.messages)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(composer=json_values, bubbles=st.lists(json_values, max_size=4), items=json_values)
def test_odd_db_rows_never_raise(tmp_path: Path, composer: Any, bubbles: list[Any], items: Any) -> None:
    db = tmp_path / "state.vscdb"
    db.unlink(missing_ok=True)
    kv = {"composerData:c": composer, **{f"bubbleId:c:{i}": b for i, b in enumerate(bubbles)}}
    if isinstance(composer, dict):
        composer.setdefault("fullConversationHeadersOnly", [{"bubbleId": str(i)} for i in range(len(bubbles))])
    make_db(
        db, item_rows={"workbench.panel.aichat.view.aichat.chatdata": items, "composer.composerData": items}, kv_rows=kv
    )
    result = ADAPTER.parse(db)
    assert isinstance(result, ParseResult)
