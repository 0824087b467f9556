"""Continue adapter: the real CLI session, a hand-written VS Code session, the on-disk layout."""

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

from smriti.adapters.continue_ import ContinueAdapter
from smriti.models import Problem

SHARED = SHARED_FIXTURES
SHARED_CONTINUE = SHARED / "continue"
OWN = Path(__file__).resolve().parent / "fixtures" / "continue" / "sessions"
OWN_SESSION = OWN / "5b2c8e1f-7a3d-4f60-9b1e-2d4c6a8e0f13.json"

# Counted by hand with jq '.history[] | .message.role, (.message.toolCalls|length), (.toolCallStates|length)':
# continue-cli-session-simple.json has 4 items: the user prompt; an assistant item with text and one
# Read call (its output in toolCallStates); an assistant item with empty text and one MultiEdit call
# (output in toolCallStates); a final assistant text. No role:"tool" messages, no contextItems content.
EXPECTED_SHARED = {
    "continue-cli-session-simple.json": {
        "native_id": "2dbfd673-096d-4773-b5f3-9023894a7355",
        "title": "File Reading and Appending",
        "cwd": "/Users/svarlamov/projects/testing-git",
        "kinds": {"prompt": 1, "response": 2, "tool_call": 2, "tool_result": 2},
        "tools": ["Read", "MultiEdit"],
    },
}


def _shared_files() -> list[Path]:
    return sorted(SHARED_CONTINUE.glob("*")) if SHARED_CONTINUE.is_dir() else []


@pytest.mark.skipif(not SHARED_CONTINUE.is_dir(), reason="shared fixtures absent")
def test_every_shared_fixture_has_an_expectation() -> None:
    assert {p.name for p in _shared_files()} == set(EXPECTED_SHARED)


@pytest.mark.parametrize("path", _shared_files(), ids=lambda p: p.name)
def test_shared_fixture_conformance(path: Path) -> None:
    expected = EXPECTED_SHARED[path.name]
    result = ContinueAdapter().parse(path)
    assert result.errors == [] and result.warnings == [] and result.resume is None
    [s] = result.sessions
    assert (s.agent, s.native_id, s.title, s.cwd) == (
        "continue",
        expected["native_id"],
        expected["title"],
        expected["cwd"],
    )
    assert dict(Counter(m.kind for m in s.messages)) == expected["kinds"]
    assert [m.tool_name for m in s.messages if m.kind == "tool_call"] == expected["tools"]
    # The CLI file has no timestamps and no model name anywhere (docs §9.2).
    assert s.started_at is None and s.ended_at is None and s.models == ()
    assert all(m.timestamp is None for m in s.messages)
    keys = [m.key for m in s.messages]
    assert len(keys) == len(set(keys))


@pytest.mark.skipif(not SHARED_CONTINUE.is_dir(), reason="shared fixtures absent")
def test_shared_tool_calls_and_results() -> None:
    s = ContinueAdapter().parse(SHARED_CONTINUE / "continue-cli-session-simple.json").sessions[0]
    read, edit = [m for m in s.messages if m.kind == "tool_call"]
    assert read.text == "Read: /Users/svarlamov/projects/testing-git/index.ts"  # `filepath` names the file
    assert read.files == ("/Users/svarlamov/projects/testing-git/index.ts",)
    assert edit.files == ("/Users/svarlamov/projects/testing-git/index.ts",)
    assert isinstance(edit.tool_input["edits"], list)  # arguments JSON string decoded
    results = [m for m in s.messages if m.kind == "tool_result"]
    assert [r.tool_name for r in results] == ["Read", "MultiEdit"]
    assert results[1].text.startswith("Successfully edited /Users/svarlamov/projects/testing-git/index.ts")


def test_own_vscode_session() -> None:
    result = ContinueAdapter().parse(OWN_SESSION)
    assert result.errors == [] and result.warnings == []
    [s] = result.sessions
    # item 0: context + prompt; 1: thinking (not stored); 2: response; 3: prompt; 4: call + result from
    # toolCallStates; 5: role:"tool" copy of that result (emitted once); 6: response; 7: prompt;
    # 8: call + errored result; 9: response.
    assert dict(Counter(m.kind for m in s.messages)) == {
        "injected_context": 1,
        "prompt": 3,
        "response": 3,
        "tool_call": 2,
        "tool_result": 2,
    }
    assert s.cwd == "/home/dev/ui-kit"  # file:// URI
    assert s.started_at == "2024-06-01T12:05:00.000Z"  # dateCreated from sessions.json
    assert s.models == ("claude-3-5-sonnet-latest",)
    context = s.messages[0]
    assert context.kind == "injected_context" and context.text.startswith("useDebounce.ts\n```ts")
    assert s.messages[1].text == "Why does useDebounce fire twice in StrictMode?\n[image]"
    assert not any("iVBORw0KGgo" in m.text for m in s.messages)
    assert not any("double-invokes effects" in m.text for m in s.messages)  # thinking
    results = [m for m in s.messages if m.kind == "tool_result"]
    assert results[1].text == '[error] npm ERR! Missing script: "test"'
    assert results[0].key == "5b2c8e1f-7a3d-4f60-9b1e-2d4c6a8e0f13:result:toolu_01Cn7rEaD1fl"


def test_chat_model_title_when_no_prompt_log(tmp_path: Path) -> None:
    data = json.loads(OWN_SESSION.read_text())
    for item in data["history"]:
        item.pop("promptLogs", None)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    assert ContinueAdapter().parse(path).sessions[0].models == ("Claude 3.5 Sonnet",)


def test_fake_home_layout(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sessions = isolated_env / ".continue" / "sessions"
    shutil.copytree(OWN, sessions)
    monkeypatch.delenv("CONTINUE_GLOBAL_DIR", raising=False)
    monkeypatch.delenv("USERPROFILE", raising=False)
    adapter = ContinueAdapter()
    assert adapter.default_roots() == [sessions]
    found = list(adapter.discover(sessions))
    assert found == [sessions / OWN_SESSION.name]  # sessions.json is the index, not a session
    assert list(adapter.discover(isolated_env / ".continue")) == found
    assert adapter.detect(sessions)


def test_continue_global_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cn" / "sessions").mkdir(parents=True)
    monkeypatch.setenv("CONTINUE_GLOBAL_DIR", str(tmp_path / "cn"))
    assert ContinueAdapter().default_roots() == [tmp_path / "cn" / "sessions"]


def test_detect() -> None:
    adapter = ContinueAdapter()
    assert adapter.detect(OWN_SESSION)
    assert not adapter.detect(OWN / "sessions.json")
    for path in _shared_files():
        assert adapter.detect(path)
    assert adapter.detect(OWN)  # a folder holding session files
    if SHARED_CONTINUE.is_dir():
        assert adapter.detect(SHARED_CONTINUE) and not adapter.detect(SHARED / "amp")
    others = [
        SHARED / "amp" / "T-019ca1ce-3ae2-7686-a41e-ccc078837f8a.json",
        SHARED / "copilot-vscode" / "copilot_session_simple.json",
        SHARED / "claude-code" / "session-01.jsonl",
    ]
    for other in others:
        if other.exists():
            assert not adapter.detect(other), other


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"  ", "empty file: no session"),
        (b'"x"', "not a Continue session: the top level is a JSON string, not an object"),
        (b'{"sessionId": "x"}', "not a Continue session: no 'history' list"),
        (b'{"history": [', "malformed JSON (Expecting value at line 1)"),
    ],
)
def test_unreadable_sessions_are_errors(tmp_path: Path, content: bytes, error: str) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(content)
    assert ContinueAdapter().parse(path).errors == [Problem(str(path), error)]


def test_history_without_messages_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"sessionId": "x", "history": [{"message": {"role": "oracle", "content": "?"}}, 3]}))
    result = ContinueAdapter().parse(path)
    assert result.sessions == []
    assert [e.error for e in result.errors] == ["found 1 session(s) but no messages: the format may have changed"]
    assert [w.error for w in result.warnings] == [
        "history item 1 has no message object; skipped",
        "skipped 1 message of unknown role 'oracle'",
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=25,
)
item = st.fixed_dictionaries(
    {
        "message": st.fixed_dictionaries(
            {"role": st.sampled_from(["user", "assistant", "tool", "system", "thinking"]) | json_values},
            optional={"content": json_values, "toolCalls": json_values, "toolCallId": json_values, "id": json_values},
        )
    },
    optional={
        "contextItems": json_values,
        "toolCallStates": json_values,
        "promptLogs": json_values,
        "conversationSummary": json_values,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.fixed_dictionaries(
        {"history": st.lists(item | json_values, max_size=5)},
        optional={"sessionId": json_values, "workspaceDirectory": json_values},
    )
    | json_values
)
def test_garbage_never_raises(data: object) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "s.json"
        path.write_text(json.dumps(data))
        ContinueAdapter().parse(path)
