"""Amp adapter: real threads from the shared fixtures, a hand-written thread, the on-disk layout."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from conftest import SHARED_FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters.amp import AmpAdapter
from smriti.models import Problem

SHARED = SHARED_FIXTURES
SHARED_AMP = SHARED / "amp"
OWN = Path(__file__).resolve().parent / "fixtures" / "amp" / "threads"
OWN_THREAD = OWN / "T-7f3e1d2c-4b5a-4c6d-9e8f-0a1b2c3d4e5f.json"

# Counted by hand with jq over each thread's `messages`:
# - T-019ca1ce…: user 0 prompt; assistant 1 has text blocks "\n\n" (blank) + "Let me check…", a thinking
#   block and 3 tool_use; user 2 has 3 tool_result; assistant 3 one tool_use; user 4 one tool_result;
#   assistant 5 the plan text → prompt 1, response 2, tool_call 4, tool_result 4.
# - T-019ca1f6…: prompt, tool_use Read, its result, tool_use edit_file, its result, final text.
EXPECTED_SHARED = {
    "T-019ca1ce-3ae2-7686-a41e-ccc078837f8a.json": {
        "title": "Add jokes CLI with CSV data source",
        "kinds": {"prompt": 1, "response": 2, "tool_call": 4, "tool_result": 4},
        "started_at": "2026-02-28T01:12:53.221Z",  # `created` (ms) is earlier than the first sentAt
        "ended_at": "2026-02-28T01:13:38.820Z",  # usage.timestamp of the last assistant message
    },
    "T-019ca1f6-7f21-77b5-a308-65416ebbdf48.json": {
        "title": "Read jokes CSV and append new row",
        "kinds": {"prompt": 1, "response": 1, "tool_call": 2, "tool_result": 2},
        "started_at": "2026-02-28T01:56:52.131Z",
        "ended_at": "2026-02-28T01:57:00.163Z",
    },
}


def _shared_files() -> list[Path]:
    return sorted(SHARED_AMP.glob("*")) if SHARED_AMP.is_dir() else []


@pytest.mark.skipif(not SHARED_AMP.is_dir(), reason="shared fixtures absent")
def test_every_shared_fixture_has_an_expectation() -> None:
    assert {p.name for p in _shared_files()} == set(EXPECTED_SHARED)


@pytest.mark.parametrize("path", _shared_files(), ids=lambda p: p.name)
def test_shared_fixture_conformance(path: Path) -> None:
    expected = EXPECTED_SHARED[path.name]
    result = AmpAdapter().parse(path)
    assert result.errors == [] and result.warnings == []
    assert result.resume is None  # rewritten whole: no resume point
    [session] = result.sessions
    assert session.agent == "amp"
    assert session.native_id == path.stem
    assert session.title == expected["title"]
    assert dict(Counter(m.kind for m in session.messages)) == expected["kinds"]
    assert session.started_at == expected["started_at"]
    assert session.ended_at == expected["ended_at"]
    assert session.models == ("claude-opus-4-6",)
    assert session.cwd == "/Users/svarlamov/projects/testing-git-amp"
    assert session.git_branch == "master"
    assert session.git_remote == "https://github.com/svarlamov/testing-git"
    assert session.source_paths == (str(path),)
    assert session.project is None
    keys = [m.key for m in session.messages]
    assert len(keys) == len(set(keys))


@pytest.mark.skipif(not SHARED_AMP.is_dir(), reason="shared fixtures absent")
def test_shared_tool_calls_pair_with_results() -> None:
    session = AmpAdapter().parse(SHARED_AMP / "T-019ca1f6-7f21-77b5-a308-65416ebbdf48.json").sessions[0]
    calls = [m for m in session.messages if m.kind == "tool_call"]
    results = [m for m in session.messages if m.kind == "tool_result"]
    assert [c.text for c in calls] == [
        "Read: /Users/svarlamov/projects/testing-git-amp/jokes.csv",
        "edit_file: /Users/svarlamov/projects/testing-git-amp/jokes.csv",
    ]
    assert calls[1].files == ("/Users/svarlamov/projects/testing-git-amp/jokes.csv",)
    assert calls[1].tool_input["old_str"].startswith("13,")
    assert [r.tool_name for r in results] == ["Read", "edit_file"]
    assert results[0].text.startswith("1: id,setup,punchline")
    assert results[1].text.startswith("```diff\nIndex: /Users/svarlamov/projects/testing-git-amp/jokes.csv")
    assert all(r.role == "tool" and r.timestamp is None for r in results)  # tool results carry no time


@pytest.mark.skipif(not SHARED_AMP.is_dir(), reason="shared fixtures absent")
def test_shared_thinking_and_blank_text_are_not_stored() -> None:
    session = AmpAdapter().parse(SHARED_AMP / "T-019ca1ce-3ae2-7686-a41e-ccc078837f8a.json").sessions[0]
    first_response = next(m for m in session.messages if m.kind == "response")
    assert first_response.text == "Let me check what's already in the workspace."
    assert not any("user wants me to create a plan" in m.text for m in session.messages)


def test_own_thread() -> None:
    result = AmpAdapter().parse(OWN_THREAD)
    assert result.errors == []
    assert [str(w) for w in result.warnings] == [
        f"{OWN_THREAD}: skipped 1 message of unknown role 'info'",
        f"{OWN_THREAD}: skipped 1 content block of unknown type 'citation'",
    ]
    [s] = result.sessions
    assert dict(Counter(m.kind for m in s.messages)) == {
        "injected_context": 1,
        "prompt": 3,
        "response": 4,
        "tool_call": 3,
        "tool_result": 3,
    }
    assert s.git_branch == "fix/ci-tz" and s.cwd == "/home/dev/app"
    assert s.started_at == "2025-10-24T10:40:00.000Z" and s.ended_at == "2025-10-24T10:41:40.250Z"
    by_kind = {k: [m for m in s.messages if m.kind == k] for k in ("injected_context", "prompt", "tool_result")}
    # smriti's own recalled context is split out of the prompt, and the image is never stored.
    assert by_kind["injected_context"][0].text.startswith('<smriti-context source="recall"')
    assert by_kind["prompt"][0].text == "Why does `npm test` fail on CI but not locally?\n\n[image]"
    assert not any("iVBORw0KGgo" in m.text for m in s.messages)
    assert [r.text.split("\n")[0] for r in by_kind["tool_result"]] == [
        "[error] Command exited with code 1",
        "[error] rejected-by-user",
        "[error] cancelled",
    ]
    bash = next(m for m in s.messages if m.tool_name == "Bash" and m.kind == "tool_call")
    assert bash.text == 'Bash: {"cmd":"npm test","cwd":"/home/dev/app"}'  # no summary key: compact JSON


def test_fake_home_layout_default_roots_and_discover(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = isolated_env / ".local" / "share" / "amp" / "threads"
    threads.mkdir(parents=True)
    shutil.copy(OWN_THREAD, threads)
    (threads / "notes.txt").write_text("not a thread")
    adapter = AmpAdapter()
    monkeypatch.delenv("AMP_DATA_DIR", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert adapter.default_roots() == [threads]
    assert list(adapter.discover(threads)) == [threads / OWN_THREAD.name]
    assert list(adapter.discover(threads.parent)) == [threads / OWN_THREAD.name]  # the amp data dir


def test_amp_data_dir_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "custom" / "threads").mkdir(parents=True)
    monkeypatch.setenv("AMP_DATA_DIR", str(tmp_path / "custom"))
    assert AmpAdapter().default_roots() == [tmp_path / "custom" / "threads"]


def test_no_roots_when_nothing_is_installed(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("AMP_DATA_DIR", "XDG_DATA_HOME", "APPDATA"):
        monkeypatch.delenv(var, raising=False)
    assert AmpAdapter().default_roots() == []


def test_detect() -> None:
    adapter = AmpAdapter()
    assert adapter.detect(OWN_THREAD)
    assert adapter.detect(OWN)
    for path in _shared_files():
        assert adapter.detect(path)
    others = [SHARED / "continue" / "continue-cli-session-simple.json", SHARED / "claude-code" / "session-01.jsonl"]
    for other in others:
        if other.exists():
            assert not adapter.detect(other)
    assert not adapter.detect(Path("/nonexistent/T-x.txt"))


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"", "empty file: no thread"),
        (b"[1, 2]", "not an Amp thread: the top level is a JSON array, not an object"),
        (b'{"id": "T-1"}', "not an Amp thread: no 'messages' list"),
        (b'{"id": "T-1", "messages": [', "malformed JSON (Expecting value at line 1); the thread may be mid-write"),
        (b"\xff\xfe", "invalid UTF-8 at byte 0: not a JSON thread"),
    ],
)
def test_unreadable_threads_are_errors(tmp_path: Path, content: bytes, error: str) -> None:
    path = tmp_path / "T-1.json"
    path.write_bytes(content)
    result = AmpAdapter().parse(path)
    assert result.sessions == [] and result.errors == [Problem(str(path), error)]


def test_messages_but_nothing_readable_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "T-2.json"
    path.write_text(json.dumps({"id": "T-2", "messages": [{"role": "robot", "content": []}]}))
    result = AmpAdapter().parse(path)
    assert result.sessions == []
    assert [e.error for e in result.errors] == ["found 1 session(s) but no messages: the format may have changed"]
    assert [w.error for w in result.warnings] == ["skipped 1 message of unknown role 'robot'"]


def test_empty_new_thread_is_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "T-3.json"
    path.write_text(json.dumps({"v": 1, "id": "T-3", "created": 1, "messages": []}))
    result = AmpAdapter().parse(path)
    assert result.sessions == [] and result.errors == []


def test_keys_are_stable_across_reads() -> None:
    first = [m.key for m in AmpAdapter().parse(OWN_THREAD).sessions[0].messages]
    assert first == [m.key for m in AmpAdapter().parse(OWN_THREAD).sessions[0].messages]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=25,
)
block = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "tool_use", "tool_result", "thinking", "image", "x"])},
    optional={
        "text": json_values,
        "id": json_values,
        "name": json_values,
        "input": json_values,
        "toolUseID": json_values,
        "run": json_values,
    },
)
message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "info"]) | json_values},
    optional={
        "messageId": json_values,
        "content": st.lists(block | json_values, max_size=4) | json_values,
        "meta": json_values,
        "usage": json_values,
    },
)
thread = st.fixed_dictionaries(
    {"messages": st.lists(message | json_values, max_size=5)},
    optional={"id": json_values, "created": json_values, "title": json_values, "env": json_values},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=thread | json_values)
def test_garbage_json_never_raises(data: object) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "T-garbage.json"
        path.write_text(json.dumps(data))
        AmpAdapter().parse(path)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300))
def test_garbage_bytes_never_raise(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "T-garbage.json"
        path.write_bytes(raw)
        AmpAdapter().parse(path)
