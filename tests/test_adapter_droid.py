"""Factory Droid adapter: the real shared session, a hand-written one, bad lines, resume, the layout."""

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
    kinds,
    make_old,
    only,
    shared_files,
    shared_fixtures,
)
from conftest import invoke_json
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.adapters import Adapter
from smriti.adapters.droid import DroidAdapter

SHARED_DROID, needs_shared = shared_fixtures("droid")
SHARED_FILES = shared_files(SHARED_DROID, "*.jsonl")
OWN = FIXTURES / "droid"
OWN_SID = "7c9e6679-7425-40de-944b-e07fc1f90ae7"
OWN_SESSION = OWN / "sessions" / "-home-dev-api" / f"{OWN_SID}.jsonl"
BROKEN = OWN / "broken.jsonl"
ADAPTER = DroidAdapter()

# Counted by hand (jq -c '.type, .message.role, [.message.content[]?.type]') over droid-session.jsonl's
# 13 lines: 1 session_start; 2 user [text, text] = the prompt plus the "Contents of …index.ts" block
# Droid adds for the @index.ts mention (injected context); 3 assistant [tool_use Read, tool_use
# TodoWrite]; 4 todo_state (skipped); 5 user [tool_result, tool_result]; 6 assistant [tool_use
# ApplyPatch]; 7 user [tool_result]; 8 assistant [tool_use Read]; 9 user [tool_result]; 10 assistant
# [tool_use TodoWrite]; 11 todo_state (skipped); 12 user [tool_result]; 13 assistant [text].
# → prompt 1, injected_context 1, tool_call 5, tool_result 5, response 1 (13 messages).
EXPECTED_SHARED = {
    "droid-session.jsonl": {
        "native_id": "052cb8d0-4616-488a-99fe-bfbbbe9429b3",
        "title": 'Update the first comment in @index.ts to "DROID3"',  # sessionTitle is the default "New Session"
        "cwd": "/Users/testuser/projects/testing-git",
        "models": ("custom:BYOK-GPT-5-MINI-0",),  # from droid-session.settings.json
        "kinds": {"prompt": 1, "injected_context": 1, "tool_call": 5, "tool_result": 5, "response": 1},
        "started_at": "2026-01-28T16:57:01.391Z",
        "ended_at": "2026-01-28T16:57:29.003Z",
    },
}

# The hand-written session (12 lines): 1 session_start; 2 user [text with a <smriti-context> block
# and the prompt, "Contents of …" block]; 3 assistant [thinking, text, tool_use Execute, tool_use
# Read]; 4 todo_state; 5 user [tool_result for Read]; 6 user [tool_result for Execute, is_error];
# 7 assistant [tool_use Edit]; 8 user [tool_result for Edit, text prompt]; 9 compaction_state (an
# unknown type); 10 assistant [tool_use ApplyPatch]; 11 user [tool_result]; 12 assistant [text].
OWN_KINDS = {"injected_context": 1, "prompt": 2, "response": 2, "tool_call": 4, "tool_result": 4}


def copy_session(tmp_path: Path) -> Path:
    """The hand-written session and its settings sidecar in a fresh folder."""
    folder = tmp_path / "-home-dev-api"
    folder.mkdir(exist_ok=True)
    shutil.copy(OWN_SESSION.with_name(f"{OWN_SID}.settings.json"), folder)
    return copy_to(folder, OWN_SESSION)


# --- conformance over the shared fixtures --------------------------------------------------------


@needs_shared
def test_every_shared_fixture_has_an_expectation() -> None:
    assert {p.name for p in SHARED_FILES} == set(EXPECTED_SHARED)
    assert list(ADAPTER.discover(SHARED_DROID)) == SHARED_FILES  # the settings sidecar is not a source


@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name)
def test_shared_fixture_conformance(path: Path) -> None:
    expected = EXPECTED_SHARED[path.name]
    session = clean_session(ADAPTER, path)
    assert session.agent == "droid"
    for field in ("native_id", "title", "cwd", "models", "started_at", "ended_at"):
        assert getattr(session, field) == expected[field], field
    assert kinds(session) == expected["kinds"]
    assert session.source_paths == (str(path),)
    keys = [m.key for m in session.messages]
    assert len(keys) == len(set(keys))


@needs_shared
def test_shared_tool_calls_pair_with_their_results() -> None:
    session = only(ADAPTER.parse(SHARED_DROID / "droid-session.jsonl"))
    calls = [m for m in session.messages if m.kind == "tool_call"]
    results = [m for m in session.messages if m.kind == "tool_result"]
    assert [c.tool_name for c in calls] == ["Read", "TodoWrite", "ApplyPatch", "Read", "TodoWrite"]
    assert [r.tool_name for r in results] == ["Read", "TodoWrite", "ApplyPatch", "Read", "TodoWrite"]
    path = "/Users/testuser/projects/testing-git/index.ts"
    assert calls[0].text == f"Read: {path}" and calls[0].files == (path,)
    assert calls[2].text == f"ApplyPatch: {path}" and calls[2].files == (path,)  # named inside the patch
    assert [r.key.rsplit(":", 1)[1] for r in results] == [c.key.rsplit(":", 1)[1] for c in calls]
    assert results[0].text == "// DROID2\nconsole.log('Hello');\n"
    prompt, context = (m for m in session.messages if m.role == "user")
    assert prompt.text == 'Update the first comment in @index.ts to "DROID3"'
    assert context.kind == "injected_context" and context.text.startswith("Contents of /Users/testuser/")
    assert all(m.timestamp for m in session.messages)


# --- the hand-written session --------------------------------------------------------------------


def test_own_session() -> None:
    result = ADAPTER.parse(OWN_SESSION)
    assert result.errors == []
    assert [str(w) for w in result.warnings] == [f"{OWN_SESSION}: skipped 1 line of unknown type 'compaction_state'"]
    session = only(result)
    assert (session.native_id, session.title, session.cwd) == (OWN_SID, "Retry test flake", "/home/dev/api")
    assert session.models == ("claude-opus-4-1-20250805",)
    assert (session.started_at, session.ended_at) == ("2026-02-10T09:00:00.000Z", "2026-02-10T09:00:35.000Z")
    assert kinds(session) == OWN_KINDS
    context, prompt = session.messages[:2]
    assert context.kind == "injected_context" and context.key == f"{OWN_SID}:0b6f3a52-1c1e-4a8e-9f3e-7d6c5b4a3921:ctx"
    assert context.text.startswith('<smriti-context source="recall">') and "Contents of /home/dev/api/" in context.text
    assert prompt.text == "The retry test fails on CI, see @tests/test_retry.py"
    assert not any("flaky test fixed; run it first" in m.text for m in session.messages)  # thinking is not kept
    results = {m.tool_name: m.text for m in session.messages if m.kind == "tool_result"}
    # Results arrive in another order than the calls and still find their names.
    assert results["Read"].startswith("def fetch(url, timeout=1")
    assert results["Execute"] == "[error] FAILED tests/test_retry.py::test_retry - TimeoutError"
    calls = {m.tool_name: m for m in session.messages if m.kind == "tool_call"}
    assert calls["Execute"].text == "Execute: pytest tests/test_retry.py -x"
    assert calls["Edit"].files == ("/home/dev/api/src/fetch.py",)
    assert calls["ApplyPatch"].files == ("/home/dev/api/src/fetch.py",)
    assert [m.text for m in session.messages if m.kind == "prompt"][1] == "Also raise the retry count to 3."


def test_keys_are_stable_across_reads() -> None:
    first = [m.key for m in only(ADAPTER.parse(OWN_SESSION)).messages]
    assert first == [m.key for m in only(ADAPTER.parse(OWN_SESSION)).messages]


def test_without_a_settings_file_or_a_session_start(tmp_path: Path) -> None:
    path = tmp_path / "1e2d3c4b-0000-4000-8000-000000000001.jsonl"
    lines = OWN_SESSION.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[1:]))  # no session_start line, no sidecar
    session = only(ADAPTER.parse(path))
    assert session.native_id == path.stem and session.models == () and session.title is None
    assert kinds(session) == OWN_KINDS


# --- bad input -----------------------------------------------------------------------------------


def test_bad_lines_are_errors_and_the_rest_is_read(tmp_path: Path) -> None:
    path = copy_to(tmp_path, BROKEN)
    make_old(path)
    result = ADAPTER.parse(path)
    assert [(e.line, e.error) for e in result.errors] == [
        (3, "malformed JSON (Expecting property name enclosed in double quotes at column 62); line skipped"),
        (4, "line is a JSON array, not an object; skipped"),
        (6, "last line is truncated (no newline, not valid JSON); left unread"),
    ]
    session = only(result)
    assert [m.text for m in session.messages] == ["List the migrations.", "There are three migrations."]


def test_a_fresh_torn_last_line_is_left_for_the_next_run(tmp_path: Path) -> None:
    path = copy_to(tmp_path, BROKEN)
    result = ADAPTER.parse(path)
    assert [w.line for w in result.warnings] == [6] and [e.line for e in result.errors] == [3, 4]
    with open(path, "a") as fh:
        fh.write('tent":[{"type":"text","text":"And the seeds?"}]}}\n')
    again = ADAPTER.parse(path, result.resume)
    assert again.errors == [] and [m.text for m in only(again).messages] == ["And the seeds?"]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"", "empty file: no records"),
        (
            b'{"type": "session_start", "id": "s"}\n{"type": "message", "message": {"role": "robot", "content": []}}\n',
            "found 1 session (1 message line) but no messages: the format may have changed",
        ),
    ],
)
def test_unreadable_sessions_are_errors(tmp_path: Path, content: bytes, error: str) -> None:
    assert_unreadable(ADAPTER, tmp_path / "s.jsonl", content, error)


def test_odd_records_are_warnings(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    records = [
        {"type": "session_start", "id": "s"},
        {"type": "message", "id": "m1", "message": "not an object"},
        {
            "type": "message",
            "id": "m2",
            "message": {"role": "user", "content": ["a string block", {"type": "text", "text": "hi"}]},
        },
        {"type": "message", "id": "m3", "message": {"role": "assistant", "content": [{"type": "citation"}]}},
        {"no": "type"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    result = ADAPTER.parse(path)
    assert [(w.line, w.error) for w in result.warnings] == [
        (2, "message line has no message object; skipped"),
        (3, "user message has a content block that is a JSON string, not an object; skipped"),
        (None, "skipped 1 line with no type"),
        (None, "skipped 1 content block of unknown type 'citation'"),
    ]
    assert [m.text for m in only(result).messages] == ["hi"]


# --- resume --------------------------------------------------------------------------------------


@pytest.mark.parametrize("cut", range(1, 12))
def test_resume_returns_only_new_messages_with_the_same_keys(tmp_path: Path, cut: int) -> None:
    _, second, full = assert_resume_at_cut(ADAPTER, OWN_SESSION, copy_session(tmp_path), cut)
    session = only(second)
    assert (session.native_id, session.title, session.cwd) == (full.native_id, full.title, full.cwd)
    assert session.ended_at == full.ended_at and session.models == full.models
    assert all(m.tool_name for m in session.messages if m.kind == "tool_result")  # names from the earlier parse


def test_resume_with_nothing_new(tmp_path: Path) -> None:
    assert_nothing_new(ADAPTER, copy_session(tmp_path))


def test_a_rewritten_file_is_read_again(tmp_path: Path) -> None:
    path = copy_session(tmp_path)
    first = ADAPTER.parse(path)
    path.write_bytes(BROKEN.read_bytes().split(b"\n", 2)[0] + b"\n" + OWN_SESSION.read_bytes().split(b"\n", 1)[1])
    again = ADAPTER.parse(path, first.resume)
    assert only(again).native_id == "broken-session" and kinds(only(again)) == OWN_KINDS


# --- layout --------------------------------------------------------------------------------------


def test_default_roots_and_discover_under_home(isolated_env: Path) -> None:
    assert ADAPTER.default_roots() == []
    sessions = isolated_env / ".factory" / "sessions"
    project = sessions / "-home-dev-api"
    project.mkdir(parents=True)
    shutil.copy(OWN_SESSION, project)
    shutil.copy(OWN_SESSION.with_name(f"{OWN_SID}.settings.json"), project)
    (project / "notes.txt").write_text("not a session")
    assert ADAPTER.default_roots() == [sessions]
    expected = [project / OWN_SESSION.name]
    assert list(ADAPTER.discover(sessions)) == expected
    assert list(ADAPTER.discover(sessions.parent)) == expected  # ~/.factory itself
    assert list(ADAPTER.discover(project)) == expected
    assert list(ADAPTER.discover(expected[0])) == expected


def test_detect() -> None:
    assert ADAPTER.detect(OWN_SESSION) and ADAPTER.detect(OWN / "sessions")
    assert not ADAPTER.detect(OWN_SESSION.with_name(f"{OWN_SID}.settings.json"))
    assert not ADAPTER.detect(Path("/nonexistent/x.jsonl"))


@needs_shared
def test_detect_tells_other_agents_apart() -> None:
    assert all(ADAPTER.detect(p) for p in SHARED_FILES) and ADAPTER.detect(SHARED_DROID)
    assert_not_detected(ADAPTER, "claude-code", "codex", "pi-agent", "windsurf", "copilot-cli", "cursor")


def test_is_an_adapter() -> None:
    assert isinstance(ADAPTER, Adapter) and ADAPTER.name == "droid"


# --- garbage never makes parse raise -------------------------------------------------------------

value = json_value
block = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "thinking", "image", "x"]) | value},
    optional={
        "text": value,
        "id": value,
        "name": value,
        "input": value,
        "tool_use_id": value,
        "content": value,
        "is_error": value,
    },
)
record = st.fixed_dictionaries(
    {"type": st.sampled_from(["session_start", "message", "todo_state", "x"]) | value},
    optional={
        "id": value,
        "timestamp": value,
        "title": value,
        "sessionTitle": value,
        "cwd": value,
        "message": st.fixed_dictionaries(
            {},
            optional={
                "role": st.sampled_from(["user", "assistant"]) | value,
                "content": st.lists(block | value, max_size=4) | value,
                "model": value,
            },
        )
        | value,
    },
)


@FUZZ
@given(lines=garbage_lines(record.map(json.dumps)))
def test_garbage_lines_never_raise(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8", "replace"))
    result = ADAPTER.parse(path)
    ADAPTER.parse(path, result.resume)
    damaged = {"offset": 1, "sid": 5, "tool_names": [1], "models": "x", "emitted": "yes"}
    assert_garbage_handled(ADAPTER, path, result, damaged)


@settings(FUZZ, max_examples=100)
@given(raw=st.binary(max_size=300))
def test_garbage_bytes_never_raise(tmp_path: Path, raw: bytes) -> None:
    assert_garbage_bytes_handled(ADAPTER, tmp_path / "s.jsonl", raw)


# --- end to end through the CLI ------------------------------------------------------------------


@needs_shared
def test_ingest_the_shared_fixture(runner: Any) -> None:
    out = invoke_json(runner, "ingest", "--agent", "droid", "--path", str(SHARED_DROID))
    assert (out["sessions_found"], out["messages_added"], out["errors"]) == (1, 13, [])
    shown = invoke_json(runner, "show", "052cb8d0-4616-488a-99fe-bfbbbe9429b3")
    assert shown["messages"] == 13
    again = invoke_json(runner, "ingest", "--agent", "droid", "--path", str(SHARED_DROID))
    assert (again["messages_added"], again["files_unchanged"]) == (0, 1)


def test_ingest_detects_the_own_fixture(runner: Any) -> None:
    out = invoke_json(runner, "ingest", "--path", str(OWN / "sessions"))  # no --agent: detected
    assert (out["sessions_found"], out["messages_added"]) == (1, sum(OWN_KINDS.values()))
    assert [w["error"] for w in out["warnings"]] == ["skipped 1 line of unknown type 'compaction_state'"]
