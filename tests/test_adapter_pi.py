"""pi coding agent adapter: the real shared sessions, a hand-written branching tree, bad lines,
resume (also across a branch switch), the on-disk layout."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from adapter_helpers import (
    FIXTURES,
    FUZZ,
    assert_garbage_bytes_handled,
    assert_garbage_handled,
    assert_not_detected,
    assert_nothing_new,
    assert_resume_at_cut,
    assert_unreadable,
    clean_session,
    copy_to,
    garbage_lines,
    json_value,
    keys,
    kinds,
    make_old,
    only,
    parse_in_two,
    shared_files,
    shared_fixtures,
)
from conftest import invoke_json
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.adapters import Adapter
from smriti.adapters.pi import PiAdapter

SHARED_PI, needs_shared = shared_fixtures("pi-agent")
SHARED_FILES = shared_files(SHARED_PI)
OWN = FIXTURES / "pi"
SID = "5b1e0c3a-8d2f-4e6a-9b7c-1d2e3f4a5b6c"
TREE = OWN / "sessions" / "--home-dev-app--" / f"2026-05-04T09-00-00-000Z_{SID}.jsonl"
BROKEN = OWN / "broken.jsonl"
ADAPTER = PiAdapter()

# Counted by hand (jq -c '.type, .message.role, [.message.content[]?.type]'):
# - pi-session-simple.jsonl: session header; user (string content); assistant [text].
# - pi-session-tool.jsonl: session header; user [text]; assistant [text, toolCall edit]; toolResult.
# Both are one linear branch (each parentId is the line before).
EXPECTED_SHARED = {
    "pi-session-simple.jsonl": {
        "native_id": "pi-session-123",
        "kinds": {"prompt": 1, "response": 1},
        "started_at": "2026-03-31T10:00:00.000Z",  # the header's timestamp
        "ended_at": "2026-03-31T10:00:02.000Z",
    },
    "pi-session-tool.jsonl": {
        "native_id": "pi-session-456",
        "kinds": {"prompt": 1, "response": 1, "tool_call": 1, "tool_result": 1},
        "started_at": "2026-03-31T10:10:00.000Z",
        "ended_at": "2026-03-31T10:10:03.000Z",
    },
}

# The hand-written tree (22 lines; entry ids a0000001…a0000015 on lines 2…22):
#   2 model_change → 3 thinking_level_change → 4 user → 5 assistant [thinking, text, toolCall read]
#   → 6 toolResult → 7 assistant [text] ─┬─ 8 user → 9 assistant [toolCall bash] → 10 toolResult
#                                        │  (the branch left with /tree: not on the last entry's path)
#                                        └─ 11 branch_summary → 12 user [text, image] → 13 model_change
#   → 14 assistant [text] → 15 compaction → 16 custom_message → 17 bashExecution → 18 user (a
#   <smriti-context> block + prompt) → 19 label → 20 session_info → 21 assistant [text] → 22 an
#   unknown entry type (the last entry: the leaf).
# On the path: prompts 4, 12, 18; responses 5, 7, 14, 21; tool_call 5; tool_result 6; summaries 11,
# 15; injected context 16, 17, 18.
TREE_KINDS = {"prompt": 3, "response": 4, "tool_call": 1, "tool_result": 1, "summary": 2, "injected_context": 3}
ABANDONED = [f"{SID}:a0000007", f"{SID}:a0000008:0", f"{SID}:a0000009"]


def tree_lines() -> list[bytes]:
    return TREE.read_bytes().splitlines(keepends=True)


def entry(entry_id: str, parent: str | None, role: str, text: str, minute: int = 20) -> bytes:
    message = {"role": role, "content": [{"type": "text", "text": text}]}
    line = {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": f"2026-05-04T09:{minute}:00.000Z",
        "message": message,
    }
    return (json.dumps(line) + "\n").encode()


# --- conformance over the shared fixtures --------------------------------------------------------


@needs_shared
def test_every_shared_fixture_has_an_expectation() -> None:
    assert {p.name for p in SHARED_FILES} == set(EXPECTED_SHARED)


@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name)
def test_shared_fixture_conformance(path: Path) -> None:
    expected = EXPECTED_SHARED[path.name]
    session = clean_session(ADAPTER, path)
    assert session.agent == "pi" and session.native_id == expected["native_id"]
    assert kinds(session) == expected["kinds"]
    assert (session.started_at, session.ended_at) == (expected["started_at"], expected["ended_at"])
    assert session.cwd == "/tmp/project" and session.models == ("claude-sonnet-4-5",)
    assert session.title is None and session.parent_native_id is None
    assert session.source_paths == (str(path),)
    assert all(m.key.startswith(f"{session.native_id}:") for m in session.messages)


@needs_shared
def test_shared_tool_call_and_result() -> None:
    session = only(ADAPTER.parse(SHARED_PI / "pi-session-tool.jsonl"))
    assert [(m.kind, m.text) for m in session.messages] == [
        ("prompt", "Rename helper and edit the file."),
        ("response", "Applying the requested change."),
        ("tool_call", "edit: src/main.rs"),
        ("tool_result", "Applied edit to src/main.rs"),
    ]
    call, result = session.messages[2:]
    assert call.files == ("src/main.rs",) and call.tool_input["edits"][0]["newText"] == "after"
    assert result.tool_name == "edit" and result.role == "tool"
    assert [m.key for m in session.messages] == [
        "pi-session-456:aaaa1111",
        "pi-session-456:bbbb2222",
        "pi-session-456:bbbb2222:1",
        "pi-session-456:cccc3333",
    ]


# --- the hand-written tree -----------------------------------------------------------------------


def test_tree_follows_the_path_to_the_last_entry() -> None:
    result = ADAPTER.parse(TREE)
    assert result.errors == []
    assert [str(w) for w in result.warnings] == [f"{TREE}: skipped 1 entry of unknown type 'future_thing'"]
    session = only(result)
    assert kinds(session) == TREE_KINDS
    assert not {m.key for m in session.messages} & set(ABANDONED)
    assert not any("beforeAll" in m.text for m in session.messages if m.kind != "summary")
    assert session.native_id == SID and session.cwd == "/home/dev/app"
    assert session.title == "Fix login test timeout"  # session_info
    assert session.models == ("claude-sonnet-4-5", "gpt-5")  # model_change and assistant messages
    assert session.parent_native_id == "0f0e0d0c-0b0a-4909-8807-060504030201"  # from parentSession's file name
    assert (session.started_at, session.ended_at) == ("2026-05-04T09:00:00.000Z", "2026-05-04T09:10:40.000Z")


def test_tree_message_kinds() -> None:
    session = only(ADAPTER.parse(TREE))
    by_kind = {k: [m for m in session.messages if m.kind == k] for k in TREE_KINDS}
    assert [m.text for m in by_kind["prompt"]] == [
        "Why does the login test time out?",
        "Use a random port for the mock server instead.\n\n[image]",  # never the base64 data
        "Now commit it.",
    ]
    assert [m.text.split(";")[0] for m in by_kind["summary"]] == [
        "Tried starting the mock server in beforeAll",  # branch_summary
        "The login test timed out because the mock server never started",  # compaction
    ]
    assert all(m.role == "system" for m in by_kind["summary"])
    assert [m.text[:24] for m in by_kind["injected_context"]] == [
        "Remember: run the linter",  # custom_message
        "$ npm run lint\n0 problem",  # bashExecution
        '<smriti-context source="',  # split out of the prompt
    ]
    assert by_kind["response"][0].text == "Let me look at the test."  # thinking is not kept
    (call,) = by_kind["tool_call"]
    (result,) = by_kind["tool_result"]
    assert (call.text, call.files) == ("read: tests/login.test.ts", ("tests/login.test.ts",))
    assert call.key == f"{SID}:a0000004:2"  # <entry>:<block index>
    assert (result.tool_name, result.key) == ("read", f"{SID}:a0000005")
    assert all(m.timestamp for m in session.messages)


def test_the_last_entry_decides_the_branch(tmp_path: Path) -> None:
    """An entry appended under the branch that was left makes that branch the path again."""
    path = tmp_path / TREE.name
    path.write_bytes(b"".join(tree_lines()) + entry("a0000016", "a0000009", "user", "Kill whatever holds port 4000."))
    session = only(ADAPTER.parse(path))
    assert {*ABANDONED, f"{SID}:a0000016"} <= {m.key for m in session.messages}
    assert kinds(session) == {"prompt": 3, "response": 2, "tool_call": 2, "tool_result": 2}
    assert session.title == "Fix login test timeout"  # the latest session_info, on any branch (as pi does)


def test_version_1_files_are_linear(tmp_path: Path) -> None:
    path = tmp_path / "v1.jsonl"
    lines = [
        {"type": "session", "id": "v1-session", "timestamp": "2025-11-01T10:00:00.000Z", "cwd": "/w"},
        {"type": "message", "timestamp": "2025-11-01T10:00:01.000Z", "message": {"role": "user", "content": "hi"}},
        {
            "type": "message",
            "timestamp": "2025-11-01T10:00:02.000Z",
            "message": {"role": "assistant", "content": [{"type": "text", "text": "hello"}]},
        },
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    session = only(ADAPTER.parse(path))
    assert [(m.key, m.text) for m in session.messages] == [("v1-session:line2", "hi"), ("v1-session:line3", "hello")]


# --- bad input -----------------------------------------------------------------------------------


def test_bad_lines_are_errors_and_the_path_links_past_them(tmp_path: Path) -> None:
    path = copy_to(tmp_path, BROKEN)
    make_old(path)
    result = ADAPTER.parse(path)
    assert [(e.line, e.error) for e in result.errors] == [
        (3, "malformed JSON (Expecting ',' delimiter at column 179); line skipped"),
        (5, "line is a JSON string, not an object; skipped"),
        (7, "last line is truncated (no newline, not valid JSON); left unread"),
    ]
    # Line 4's parent is the malformed line 3: it is linked past it, so the prompt is still read.
    assert [m.text for m in only(result).messages] == ["Which port does the dev server use?", "PORT=5173", "Port 5173."]


def test_resuming_past_a_bad_line_links_past_it(tmp_path: Path) -> None:
    lines = BROKEN.read_bytes().splitlines(keepends=True)
    path = tmp_path / BROKEN.name
    path.write_bytes(b"".join(lines[:2]))
    first = ADAPTER.parse(path)
    with open(path, "ab") as fh:
        fh.write(b"".join(lines[2:6]))
    second = ADAPTER.parse(path, first.resume)
    assert [e.line for e in second.errors] == [3, 5]
    assert [m.text for m in only(second).messages] == ["PORT=5173", "Port 5173."]  # no re-read of line 2


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"", "empty file: no records"),
        (
            b'{"type":"session","id":"s","cwd":"/w"}\n'
            b'{"type":"message","id":"x","parentId":null,"message":{"role":"robot"}}\n',
            "found 1 session (1 entry) but no messages: the format may have changed",
        ),
    ],
)
def test_unreadable_sessions_are_errors(tmp_path: Path, content: bytes, error: str) -> None:
    assert_unreadable(ADAPTER, tmp_path / "s.jsonl", content, error)


def test_a_cycle_in_the_tree_does_not_hang(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(entry("c1", "c2", "user", "one") + entry("c2", "c1", "assistant", "two"))
    assert [m.text for m in only(ADAPTER.parse(path)).messages] == ["one", "two"]


# --- resume --------------------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [c for c in range(1, 22) if c not in (8, 9, 10)])
def test_resume_returns_only_new_messages_with_the_same_keys(tmp_path: Path, cut: int) -> None:
    _, second, full = assert_resume_at_cut(ADAPTER, TREE, tmp_path / TREE.name, cut)
    if cut == 21:  # only the unknown last entry is new: nothing to return
        assert second.sessions == []
        return
    session = only(second)
    assert (session.native_id, session.cwd, session.parent_native_id) == (SID, full.cwd, full.parent_native_id)
    assert (session.title, session.models, session.ended_at) == (full.title, full.models, full.ended_at)


@pytest.mark.parametrize("cut", [8, 9, 10])
def test_resume_across_a_branch_switch_reads_the_new_path_whole(tmp_path: Path, cut: int) -> None:
    """The first read ended on the branch that was later left: the new entries branch off an older
    entry, so the file is read again and the new path comes back whole (the store dedupes)."""
    path = tmp_path / TREE.name
    first, second = parse_in_two(ADAPTER, tree_lines(), path, cut)
    assert f"{SID}:a0000007" in keys(first)  # on the path when it was the last entry
    full = ADAPTER.parse(TREE)
    assert keys(second) == keys(full) and kinds(only(second)) == TREE_KINDS
    third = ADAPTER.parse(path, second.resume)
    assert third.sessions == [] and third.errors == []


def test_resume_that_switches_back_to_an_old_branch(tmp_path: Path) -> None:
    path = copy_to(tmp_path, TREE)
    first = ADAPTER.parse(path)
    with open(path, "ab") as fh:
        fh.write(entry("a0000016", "a0000009", "user", "Kill whatever holds port 4000."))
    second = ADAPTER.parse(path, first.resume)
    assert {*ABANDONED, f"{SID}:a0000016"} <= keys(second)  # the old branch's messages, never read before
    with open(path, "ab") as fh:
        fh.write(entry("a0000017", "a0000016", "assistant", "Stopped the stale server.", 21))
    third = ADAPTER.parse(path, second.resume)
    assert keys(third) == {f"{SID}:a0000017"}  # a linear continuation again


def test_resume_with_nothing_new(tmp_path: Path) -> None:
    assert_nothing_new(ADAPTER, copy_to(tmp_path, TREE))


def test_a_later_session_name_alone_updates_the_session(tmp_path: Path) -> None:
    path = copy_to(tmp_path, TREE)
    first = ADAPTER.parse(path)
    line = {
        "type": "session_info",
        "id": "a0000016",
        "parentId": "a0000015",
        "timestamp": "2026-05-04T09:30:00.000Z",
        "name": "Login test: random port",
    }
    with open(path, "a") as fh:
        fh.write(json.dumps(line) + "\n")
    session = only(ADAPTER.parse(path, first.resume))
    assert session.messages == () and session.title == "Login test: random port"


# --- layout --------------------------------------------------------------------------------------


def test_default_roots_and_discover_under_home(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_CODING_AGENT_DIR", raising=False)
    assert ADAPTER.default_roots() == []
    sessions = isolated_env / ".pi" / "agent" / "sessions"
    project = sessions / "--home-dev-app--"
    project.mkdir(parents=True)
    shutil.copy(TREE, project)
    (project / "notes.txt").write_text("not a session")
    assert ADAPTER.default_roots() == [sessions]
    expected = [project / TREE.name]
    for root in (sessions, sessions.parent, sessions.parent.parent, project, expected[0]):  # ~/.pi, ~/.pi/agent too
        assert list(ADAPTER.discover(root)) == expected, root


def test_pi_coding_agent_dir_env(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    custom = tmp_path / "pi-agent-dir"
    (custom / "sessions").mkdir(parents=True)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(custom))
    assert ADAPTER.default_roots() == [custom / "sessions"]
    (isolated_env / "agent-dir" / "sessions").mkdir(parents=True)
    monkeypatch.setenv("PI_CODING_AGENT_DIR", "~/agent-dir")
    assert ADAPTER.default_roots() == [isolated_env / "agent-dir" / "sessions"]


def test_detect() -> None:
    assert ADAPTER.detect(TREE) and ADAPTER.detect(OWN / "sessions") and ADAPTER.detect(TREE.parent)
    assert not ADAPTER.detect(Path("/nonexistent/x.jsonl"))


@needs_shared
def test_detect_tells_other_agents_apart() -> None:
    assert all(ADAPTER.detect(p) for p in SHARED_FILES) and ADAPTER.detect(SHARED_PI)
    assert_not_detected(ADAPTER, "claude-code", "codex", "droid", "windsurf", "copilot-cli", "cursor", "gemini-cli")


def test_is_an_adapter() -> None:
    assert isinstance(ADAPTER, Adapter) and ADAPTER.name == "pi"


# --- garbage never makes parse raise -------------------------------------------------------------

value = json_value
ids = st.sampled_from(["e1", "e2", "e3", "e4"])
block = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "toolCall", "thinking", "image", "x"]) | value},
    optional={"text": value, "id": value, "name": value, "arguments": value},
)
message = st.fixed_dictionaries(
    {
        "role": st.sampled_from(["user", "assistant", "toolResult", "bashExecution", "custom", "compactionSummary"])
        | value
    },
    optional={
        "content": st.lists(block | value, max_size=3) | value,
        "model": value,
        "toolCallId": value,
        "toolName": value,
        "isError": value,
        "command": value,
        "output": value,
        "summary": value,
    },
)
record = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "session",
                "message",
                "model_change",
                "compaction",
                "branch_summary",
                "custom_message",
                "session_info",
                "label",
                "x",
            ]
        )
        | value
    },
    optional={
        "id": ids | value,
        "parentId": ids | value,
        "timestamp": value,
        "message": message | value,
        "summary": value,
        "name": value,
        "modelId": value,
        "content": value,
        "cwd": value,
        "parentSession": value,
    },
)


@FUZZ
@given(lines=garbage_lines(record.map(json.dumps)), cut=st.integers(min_value=0, max_value=10))
def test_garbage_lines_never_raise(tmp_path: Path, lines: list[str], cut: int) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes("".join(line + "\n" for line in lines[:cut]).encode("utf-8", "replace"))
    first = ADAPTER.parse(path)
    json.dumps(first.resume)
    with open(path, "ab") as fh:
        fh.write("\n".join(lines[cut:]).encode("utf-8", "replace"))
    result = ADAPTER.parse(path, first.resume)
    damaged = {"offset": 1, "sid": 5, "last_id": [], "tool_names": [1], "models": "x"}
    assert_garbage_handled(ADAPTER, path, result, damaged)


@settings(FUZZ, max_examples=100)
@given(raw=st.binary(max_size=300))
def test_garbage_bytes_never_raise(tmp_path: Path, raw: bytes) -> None:
    assert_garbage_bytes_handled(ADAPTER, tmp_path / "s.jsonl", raw)


# --- end to end through the CLI ------------------------------------------------------------------


@needs_shared
def test_ingest_the_shared_fixtures(runner: Any) -> None:
    out = invoke_json(runner, "ingest", "--agent", "pi", "--path", str(SHARED_PI))
    assert (out["sessions_found"], out["messages_added"], out["errors"]) == (2, 6, [])
    assert invoke_json(runner, "show", "pi-session-456")["messages"] == 4


def test_ingest_the_tree_then_an_appended_line(runner: Any, tmp_path: Path) -> None:
    project = tmp_path / "sessions" / "--home-dev-app--"
    project.mkdir(parents=True)
    path = project / TREE.name
    shutil.copy(TREE, path)
    out = invoke_json(runner, "ingest", "--path", str(tmp_path / "sessions"))  # no --agent: detected
    assert (out["sessions_found"], out["messages_added"]) == (1, sum(TREE_KINDS.values()))
    with open(path, "ab") as fh:
        fh.write(entry("a0000016", "a0000015", "user", "Push it too."))
    again = invoke_json(runner, "ingest", "--agent", "pi", "--path", str(path))
    assert (again["messages_added"], again["errors"]) == (1, [])
    assert invoke_json(runner, "show", SID)["messages"] == sum(TREE_KINDS.values()) + 1
