"""Tests for the GitHub Copilot CLI adapter.

The conformance table was written by reading each shared fixture event by event: one
`user.message` = one prompt, each `assistant.message` with text = one response, each
`toolRequests` entry (or a call only announced by `tool.execution_start`) = one call, each
`tool.execution_complete` = one result; `system.*` events are injected context
(docs/session-formats.md §5.3).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from adapter_helpers import kinds, merged, only, problems, texts
from conftest import SHARED_FIXTURES, invoke_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters.copilot_cli import CopilotCliAdapter
from smriti.models import ParseResult

SHARED = SHARED_FIXTURES / "copilot-cli"
OTHER_AGENTS = SHARED_FIXTURES
OWN = Path(__file__).parent / "fixtures" / "copilot-cli"
ADAPTER = CopilotCliAdapter()

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not available")

SID = "3f0c1d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"
EVENTS = OWN / "session-state" / SID / "events.jsonl"
OLD = "0a1b2c3d-0000-4000-8000-000000000000"
LEGACY = OWN / "session-state" / f"{OLD}.jsonl"


@pytest.fixture(autouse=True)
def no_copilot_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("COPILOT_HOME", "XDG_CONFIG_HOME", "USERPROFILE"):
        monkeypatch.delenv(var, raising=False)


# --- conformance over the shared fixtures --------------------------------------------------------

EXPECTED: dict[str, dict[str, dict[str, int]]] = {
    # start, model_change, prompt, answer with one `create` request, its start (a repeat) and
    # its completion (result_type success).
    "copilot_cli_session_events.jsonl": {
        "301561f1-558a-43e9-a144-82d3ca12ab62": {"prompt": 1, "response": 1, "tool_call": 1, "tool_result": 1}
    },
    "copilot_cli_session_no_model.jsonl": {"abc12345-0000-1111-2222-333344445555": {"prompt": 1, "response": 1}},
    # v1 layout: prompt; an empty-text message with one bash request; start/complete; turn
    # markers; the final answer.
    "events.jsonl": {
        "aaaabbbb-1111-2222-3333-ccccddddeeee": {"prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1}
    },
    # Lines 7, 30 prompts; 9, 12, 19, 25, 32 messages with text; requests on 9, 19, 25, 32;
    # completions on 11, 17, 21, 26; system.message (6) and system.notification (23).
    "stage0_small.jsonl": {
        "copilot_stage0_small": {"injected_context": 2, "prompt": 2, "response": 5, "tool_call": 4, "tool_result": 4}
    },
}


@needs_shared
def test_table_covers_every_shared_fixture() -> None:
    assert sorted(p.name for p in SHARED.iterdir()) == sorted(EXPECTED)


@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shared_fixture_conformance(name: str) -> None:
    path = SHARED / name
    result = ADAPTER.parse(path)
    assert {s.native_id: kinds(s) for s in result.sessions} == EXPECTED[name]
    for session in result.sessions:
        assert session.agent == "copilot-cli"
        assert session.source_paths == (str(path),)
        assert session.project is None and session.parent_native_id is None
        keys = [m.key for m in session.messages]
        assert len(keys) == len(set(keys)) and all(k.startswith(session.native_id + ":") for k in keys)
    assert result.errors == [] and result.warnings == []
    json.dumps(result.resume)


@needs_shared
def test_whole_shared_folder_never_raises() -> None:
    for path in [*sorted(SHARED.iterdir()), SHARED]:
        assert isinstance(ADAPTER.parse(path), ParseResult)


@needs_shared
def test_shared_details() -> None:
    events = only(ADAPTER.parse(SHARED / "copilot_cli_session_events.jsonl"))
    assert (events.cwd, events.git_branch, events.models) == ("/Users/test/project", "master", ("gpt-4.1",))
    call = next(m for m in events.messages if m.kind == "tool_call")
    assert (call.text, call.files) == ("create: /Users/test/project/hello.py", ("/Users/test/project/hello.py",))
    assert texts(events, "tool_result") == ["Created file /Users/test/project/hello.py"]
    assert only(ADAPTER.parse(SHARED / "copilot_cli_session_no_model.jsonl")).models == ()
    small = only(ADAPTER.parse(SHARED / "stage0_small.jsonl"))
    # Sub-agent events (data.parentToolCallId, lines 19-21) stay in the session as sidechain.
    assert sum(m.sidechain for m in small.messages) == 3
    assert small.models[:3] == ("gpt-5-mini", "gpt-4.1", "claude-haiku-4.5")
    assert sum(t.startswith("[error] ") for t in texts(small, "tool_result")) == 3  # success false


# --- own fixtures --------------------------------------------------------------------------------


def test_v1_session_with_subagent_compaction_and_resume() -> None:
    result = ADAPTER.parse(EVENTS)
    session = only(result)
    assert session.native_id == SID
    assert kinds(session) == {
        "injected_context": 2,
        "prompt": 3,
        "response": 4,
        "tool_call": 4,
        "tool_result": 4,
        "summary": 1,
    }
    prompt = next(m for m in session.messages if m.kind == "prompt")
    # The typed `content`, not `transformedContent`; smriti's recall block is split out.
    assert prompt.text == "add validation for expired coupon codes"
    assert prompt.files == ("/home/dev/shop/shop/coupons.py",)
    ctx = session.messages[0]
    assert ctx.kind == "injected_context" and ctx.key == prompt.key + ":ctx" and not ctx.indexed
    results = {m.tool_name: m.text for m in session.messages if m.kind == "tool_result"}
    assert results["bash"] == "[error] pytest: command not found"
    # A call announced only by tool.execution_start (inside the sub-agent) is still a call.
    grep = next(m for m in session.messages if m.tool_name == "grep" and m.kind == "tool_call")
    assert grep.sidechain and grep.text == r"grep: validate\( in /home/dev/shop"
    assert [m.sidechain for m in session.messages].count(True) == 3
    assert texts(session, "summary") == ["The user asked for expired-coupon validation; validate() now checks expiry."]
    assert "Need to read coupons.py" not in "".join(m.text for m in session.messages)  # reasoning
    assert session.cwd == "/home/dev/shop" and session.extra["cwds"] == ["/home/dev/shop", "/home/dev/shop/api"]
    assert session.git_branch == "feature/coupons"
    assert session.title == "Expired coupon validation"  # workspace.yaml `name`
    assert session.models == ("claude-sonnet-4.5", "claude-haiku-4.5")
    assert (session.started_at, session.ended_at) == ("2026-04-10T08:00:00.000Z", "2026-04-10T09:30:06.000Z")
    assert problems(result.warnings, EVENTS) == [
        "28: assistant.message event has no data object; skipped",
        "skipped 1 event of unknown type 'session.quantum'",
    ]


def test_legacy_flat_layout() -> None:
    session = only(ADAPTER.parse(LEGACY))
    assert session.native_id == OLD
    assert kinds(session) == {"prompt": 1, "response": 2, "tool_call": 1, "tool_result": 1}
    assert texts(session, "tool_result") == ["[error] No match found for old_str in /home/dev/shop/shop/cart.py"]
    call = next(m for m in session.messages if m.kind == "tool_call")
    assert call.tool_input["path"] == "/home/dev/shop/shop/cart.py"  # JSON-string arguments decoded
    assert call.files == ("/home/dev/shop/shop/cart.py",)
    assert session.cwd is None and session.title is None


def test_missing_header_takes_the_folder_name(tmp_path: Path) -> None:
    folder = tmp_path / "session-state" / SID
    folder.mkdir(parents=True)
    lines = EVENTS.read_text().splitlines(keepends=True)
    (folder / "events.jsonl").write_text("".join(lines[2:8]))
    session = only(ADAPTER.parse(folder / "events.jsonl"))
    assert session.native_id == SID and kinds(session)["prompt"] == 1


# --- layout under a fake HOME --------------------------------------------------------------------


def build_home(home: Path) -> Path:
    state = home / ".copilot" / "session-state"
    shutil.copytree(OWN / "session-state", state)
    (state / "otel").mkdir()
    (state.parent / "otel").mkdir()
    (state.parent / "otel" / "spans.jsonl").write_text("{}\n")
    return state


def test_default_roots_and_discover_under_home(isolated_env: Path) -> None:
    state = build_home(isolated_env)
    roots = ADAPTER.default_roots()
    assert roots == [state]
    assert list(ADAPTER.discover(roots[0])) == [state / f"{OLD}.jsonl", state / SID / "events.jsonl"]
    assert list(ADAPTER.discover(state.parent)) == list(ADAPTER.discover(state))
    assert ADAPTER.detect(state) and ADAPTER.detect(state.parent)


def test_copilot_home_env_var(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    custom = tmp_path / "copilot-profile"
    (custom / "session-state").mkdir(parents=True)
    monkeypatch.setenv("COPILOT_HOME", str(custom))
    assert ADAPTER.default_roots() == [custom / "session-state"]


# --- resume --------------------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [1, 3, 6, 7, 9, 14, 18, 21, 24, 25])
def test_resume_returns_only_new_messages(tmp_path: Path, cut: int) -> None:
    folder = tmp_path / SID
    folder.mkdir()
    shutil.copy(EVENTS.parent / "workspace.yaml", folder)
    lines = EVENTS.read_bytes().splitlines(keepends=True)
    path = folder / "events.jsonl"
    path.write_bytes(b"".join(lines[:cut]))
    first = ADAPTER.parse(path)
    with open(path, "ab") as fh:
        fh.write(b"".join(lines[cut:]))
    second = ADAPTER.parse(path, first.resume)
    json.dumps(second.resume)
    old_keys = {m.key for s in first.sessions for m in s.messages}
    new_keys = {m.key for s in second.sessions for m in s.messages}
    assert not old_keys & new_keys
    full = only(ADAPTER.parse(EVENTS))
    assert merged(first, second) == {m.key: m for m in full.messages}
    (session,) = second.sessions
    assert session.native_id == SID and session.models == full.models
    # Result names come from calls read by the earlier parse.
    assert all(m.tool_name for m in session.messages if m.kind == "tool_result")


def test_resume_with_nothing_new(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    shutil.copy(EVENTS, path)
    first = ADAPTER.parse(path)
    again = ADAPTER.parse(path, first.resume)
    assert again.sessions == [] and again.errors == [] and again.warnings == []


# --- robustness ----------------------------------------------------------------------------------

value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
shaped = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "session.start",
                "user.message",
                "assistant.message",
                "tool.execution_start",
                "tool.execution_complete",
                "session.resume",
                "system.message",
                "x.y",
            ]
        ),
        "data": st.dictionaries(
            st.sampled_from(
                [
                    "sessionId",
                    "content",
                    "toolRequests",
                    "toolCallId",
                    "toolName",
                    "arguments",
                    "result",
                    "success",
                    "context",
                    "model",
                    "attachments",
                    "parentToolCallId",
                    "error",
                    "summaryContent",
                ]
            ),
            value,
            max_size=6,
        ),
    },
    optional={"id": value, "timestamp": value, "agentId": value},
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(
        st.one_of(
            shaped.map(json.dumps), value.map(json.dumps), st.binary(max_size=40).map(lambda b: b.decode("latin-1"))
        ),
        max_size=12,
    )
)
def test_garbage_never_raises(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8", "replace"))
    result = ADAPTER.parse(path)
    json.dumps(result.resume)
    ADAPTER.parse(path, result.resume)
    ADAPTER.parse(path, {"offset": 0, "sid": 5, "tool_names": [1], "models": "x"})
    assert isinstance(ADAPTER.detect(path), bool)


# --- detect --------------------------------------------------------------------------------------


def test_detect_own_fixtures(tmp_path: Path) -> None:
    assert ADAPTER.detect(EVENTS) and ADAPTER.detect(LEGACY)
    renamed = tmp_path / "export.jsonl"
    shutil.copy(EVENTS, renamed)
    assert ADAPTER.detect(renamed)  # by its first line
    assert not ADAPTER.detect(EVENTS.parent / "workspace.yaml")


@needs_shared
def test_detect_tells_other_agents_apart() -> None:
    for path in SHARED.iterdir():
        assert ADAPTER.detect(path), path
    # VS Code's agent transcripts share the event shape but carry vscodeVersion: not ours.
    for folder in ("copilot-vscode", "codex", "gemini-cli", "claude-code"):
        for path in (OTHER_AGENTS / folder).iterdir():
            assert not ADAPTER.detect(path), path


# --- before 1.0: one JSON object per session in history-session-state/ -----------------------------

PRE_1_0_SID = "9c4e2a17-6b3d-4f58-a1e2-7d8c9b0a1f2e"
PRE_1_0 = OWN / "history-session-state" / f"session_{PRE_1_0_SID}.json"


def test_pre_1_0_session_object_is_read_from_its_timeline() -> None:
    # Timeline: user; copilot; tool_call_requested + tool_call_completed of one call (one call, one
    # result); copilot; a completed bash call never requested (error); an info note.
    result = ADAPTER.parse(PRE_1_0)
    assert (result.errors, result.warnings) == ([], [])
    session = only(result)
    assert session.native_id == PRE_1_0_SID
    assert (session.started_at, session.ended_at) == ("2025-09-30T14:02:11.204Z", "2025-09-30T14:03:05.000Z")
    assert kinds(session) == {"prompt": 1, "response": 2, "tool_call": 2, "tool_result": 2, "injected_context": 1}
    assert texts(session, "prompt") == ["why is the docker build cache never reused in CI?"]
    view, bash = (m for m in session.messages if m.kind == "tool_call")
    assert (view.tool_name, view.files) == ("str_replace_editor", ("/home/dev/api/Dockerfile",))
    assert (bash.tool_name, bash.action, bash.tool_input["command"]) == ("bash", "shell", "docker build -t api .")
    assert texts(session, "tool_result")[1] == "[error] Cannot connect to the Docker daemon"
    assert texts(session, "injected_context") == ["Operation cancelled by user"]


def test_pre_1_0_session_without_a_timeline_reads_chat_messages(tmp_path: Path) -> None:
    data = json.loads(PRE_1_0.read_text())
    del data["timeline"]
    path = tmp_path / "history-session-state" / PRE_1_0.name
    path.parent.mkdir()
    path.write_text(json.dumps(data))
    session = only(ADAPTER.parse(path))
    assert kinds(session) == {"injected_context": 1, "prompt": 1, "response": 2, "tool_call": 1, "tool_result": 1}
    assert texts(session, "prompt") == ["why is the docker build cache never reused in CI?"]
    assert texts(session, "injected_context")[0].startswith("<current_datetime>")  # the CLI's, not typed
    assert next(m for m in session.messages if m.kind == "tool_result").tool_name == "str_replace_editor"


def test_pre_1_0_folder_is_discovered_under_home_and_ingested(isolated_env: Path, runner) -> None:
    legacy = isolated_env / ".copilot" / "history-session-state"
    shutil.copytree(OWN / "history-session-state", legacy)
    assert ADAPTER.default_roots() == [legacy]
    assert list(ADAPTER.discover(legacy)) == [legacy / PRE_1_0.name]
    assert list(ADAPTER.discover(legacy.parent)) == [legacy / PRE_1_0.name]
    assert ADAPTER.detect(legacy) and ADAPTER.detect(legacy / PRE_1_0.name)
    # `--path` on the folder reads each file as one JSON object, never as JSONL lines
    out = invoke_json(runner, "ingest", "--agent", "copilot-cli", "--path", str(legacy))
    assert (out["sessions_found"], out["errors"], out["warnings"]) == (1, [], [])
    assert invoke_json(runner, "ingest", "--path", str(legacy))["errors"] == []  # detected without --agent
    assert invoke_json(runner, "search", "docker build cache")[0]["native_id"] == PRE_1_0_SID


def test_pre_1_0_damaged_file_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "session_x.json"
    path.write_text('{"sessionId": "x", "timeline": [')
    result = ADAPTER.parse(path)
    assert result.sessions == [] and [p.error for p in result.errors] == [
        "malformed JSON (Expecting value at line 1); it may be mid-write"
    ]


legacy_entry = st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "copilot", "tool_call_requested", "tool_call_completed", "info", "x"]) | value},
    optional={
        "id": value,
        "timestamp": value,
        "text": value,
        "callId": value,
        "name": value,
        "arguments": value,
        "result": value,
    },
)
chat_message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "system"]) | value},
    optional={"content": value, "tool_calls": value, "tool_call_id": value},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    timeline=st.lists(legacy_entry | value, max_size=6) | value,
    chat=st.lists(chat_message | value, max_size=6) | value,
    sid=value,
)
def test_pre_1_0_garbage_never_raises(tmp_path: Path, timeline: object, chat: object, sid: object) -> None:
    path = tmp_path / "history-session-state" / "session_x.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"sessionId": sid, "startTime": sid, "timeline": timeline, "chatMessages": chat}))
    result = ADAPTER.parse(path)
    assert isinstance(result, ParseResult) and not (result.sessions and result.errors)
    for session in result.sessions:
        assert len({m.key for m in session.messages}) == len(session.messages)
