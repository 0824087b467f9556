"""Tests for the Copilot (VS Code) adapter.

The conformance table was written by reading each shared fixture by hand (jq over the requests,
their `result.metadata.toolCallRounds`/`toolCallResults` and response items; a replay of the
journals' kind-2 pushes), not by copying the adapter's output. Formats the shared folder lacks
(v1/v2 chatSessions, a journal with set/push-with-truncate/delete patches, a transcript with
tool output, the on-disk layout) are hand-written in tests/fixtures/copilot/.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from adapter_helpers import errors_of, kinds
from conftest import SHARED_FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters import Adapter
from smriti.adapters.copilot import CopilotAdapter
from smriti.models import Message, ParseResult

SHARED = SHARED_FIXTURES / "copilot-vscode"
OWN = Path(__file__).parent / "fixtures" / "copilot"
ADAPTER = CopilotAdapter()

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not available")

JOURNAL_ID = "5d6c7b8a-9f0e-4d1c-a2b3-c4d5e6f7a8b9"
TRANSCRIPT_ID = "8b7a6c5d-4e3f-4a2b-9c1d-0e9f8a7b6c5d"


def keys(result: ParseResult) -> list[str]:
    return [m.key for s in result.sessions for m in s.messages]


# --- conformance over the shared fixtures --------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    sessions: dict[str, dict[str, int]]  # native_id → message count per kind
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


SIMPLE = "331fed7f-cfd6-409c-8502-06a56322b636"
SIMPLE_KINDS = {"prompt": 3, "injected_context": 3, "tool_call": 2, "tool_result": 2, "response": 3}
TURN = {"prompt": 1, "injected_context": 1, "response": 1}  # one request: prompt, rendered context, answer
TWO_TURNS = {kind: 2 * n for kind, n in TURN.items()}
EXPECTED: dict[str, Expect] = {
    # Export (no sessionId: the extension's result.metadata.sessionId names it). 1 request: prompt,
    # rendered context, 1 MCP call whose result the invocation marks isError, rounds text.
    "chat_error_mcp.json": Expect({"4d94cc58-21b2-4fa8-a208-72d86a8990ef": {**TURN, "tool_call": 1, "tool_result": 1}}),
    # Export, 1 request, 4 rounds with 3 MCP calls, each with an entry in toolCallResults.
    "chat_succes_mcp.json": Expect(
        {"ee843e6a-d4f3-4e9d-bf1a-7c51fe4b033a": {**TURN, "tool_call": 3, "tool_result": 3}}
    ),
    # Journal with no sessionId (the file name stands in): empty snapshot, a kind-2 push of one
    # request with markdown "The meaning of life is 42." and no metadata, then an inputState set.
    "copilot_session_empty_then_patched.jsonl": Expect(
        {"copilot_session_empty_then_patched": {"prompt": 1, "response": 1}}
    ),
    # VS Code transcript: 1 user.message, 3 assistant.message with text, 2 toolRequests; the 2
    # tool.execution_start events repeat those calls; no execution_complete.
    "copilot_session_event_stream.jsonl": Expect({"event-session-1": {"prompt": 1, "response": 3, "tool_call": 2}}),
    # Journal: snapshot with 1 request (2 rounds, read_file + insert_edit_into_file with results,
    # final text), 2 inputState sets, a kind-2 push of a second request (1 round, text only).
    "copilot_session_multiline.jsonl": Expect(
        {"7de89a80-6d93-43e7-be0a-0a9afe980198": {**TWO_TURNS, "tool_call": 2, "tool_result": 2}}
    ),
    # v3 chatSessions: 3 requests, each with renderedUserMessage; requests 2 and 3 have one tool
    # call each with a toolCallResults entry; every request has rounds text.
    "copilot_session_simple.json": Expect({SIMPLE: SIMPLE_KINDS}),
    # The same session as a kind-0-only journal: the same messages.
    "copilot_session_simple.jsonl": Expect({SIMPLE: SIMPLE_KINDS}),
    # Transcript: 1 user.message, 2 assistant.message with text and a toolRequest each; the two
    # execution_complete events say only success=true (no output recorded).
    "copilot_vscode_event_stream.jsonl": Expect(
        {"5fcddc54-3ba1-4fc4-88ac-86bd2ce74c19": {"prompt": 1, "response": 2, "tool_call": 2}}
    ),
    # Export captured mid-request: no result at all, so the 2 toolInvocationSerialized items are the
    # calls (no output) and the markdown items the response; no rendered context.
    "in_progress_chat.json": Expect(
        {"request_962e76d4-743c-490e-9609-c8f65ef52f56": {"prompt": 1, "tool_call": 2, "response": 1}}
    ),
    # Export: request 1 answered (thinking items are not stored), request 2 canceled with no text.
    "parse-export-canceled-chat__chat.json": Expect(
        {"fbec814e-570a-4a23-84fa-377a83276eab": {"prompt": 2, "injected_context": 1, "response": 1}}
    ),
    # Export: 2 requests, each with rendered context and a one-round answer.
    "parse-export-chat-json__chat.json": Expect(
        {"ff72bca6-0dec-4953-b130-a103a97e5380": {"prompt": 2, "injected_context": 2, "response": 2}}
    ),
    # Export: one request that failed (errorDetails 401) with an empty round: the prompt only.
    "parse-export-chat-with-error__chat.json": Expect({"f0be36b7-b4c8-4a77-b238-7bd8e6fba472": {"prompt": 1}}),
    # Transcript: 1 user.message, a tool.execution_start with no assistant.message before it.
    "test-session-abc.jsonl": Expect({"test-session-abc": {"prompt": 1, "tool_call": 1}}),
    # The workspace.json sidecar: read for a session's cwd, not a session.
    "workspace.json": Expect({}, errors=["not a Copilot chat session: no `requests` list"]),
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
        assert session.agent == "copilot"
        assert session.source_paths == (str(path),)
        assert session.cwd is None  # no workspace.json where VS Code would put it
        assert len({m.key for m in session.messages}) == len(session.messages)


@needs_shared
def test_json_and_jsonl_copies_of_a_session_are_the_same_messages() -> None:
    """VS Code migrated .json to .jsonl: both name the same messages, so the store keeps one."""
    from_json = ADAPTER.parse(SHARED / "copilot_session_simple.json").sessions[0]
    from_jsonl = ADAPTER.parse(SHARED / "copilot_session_simple.jsonl").sessions[0]
    assert [(m.key, m.kind, m.text) for m in from_json.messages] == [
        (m.key, m.kind, m.text) for m in from_jsonl.messages
    ]
    assert (from_json.title, from_json.started_at, from_json.ended_at) == (
        "Assistance with TypeScript project tasks",
        "2025-10-07T13:50:46.680Z",
        "2025-10-07T15:15:59.544Z",
    )


@needs_shared
def test_request_details() -> None:
    session = ADAPTER.parse(SHARED / "copilot_session_simple.json").sessions[0]
    second = [m for m in session.messages if m.key.startswith("request_e838f1ef")]
    assert [m.kind for m in second] == ["prompt", "injected_context", "tool_call", "tool_result", "response"]
    prompt, context, call, result, reply = second
    assert prompt.text == "Change Bonjour World to hello world"
    assert prompt.files == ("/Users/svarlamov/projects/testing-git/index.ts",)
    assert "<userRequest>" in context.text  # renderedUserMessage is context, not the prompt
    assert call.text == "replace_string_in_file: /Users/svarlamov/projects/testing-git/index.ts"
    assert call.tool_input["filePath"] == "/Users/svarlamov/projects/testing-git/index.ts"
    assert (
        result.text == "The following files were successfully edited:\n/Users/svarlamov/projects/testing-git/index.ts\n"
    )
    assert result.tool_name == "replace_string_in_file"
    # The two rounds' text, not the markdown fragments around the edit.
    assert reply.text == (
        'I\'ll change "Bonjour World" to "hello world" in your selected text.\n\n'
        'Done! I\'ve changed "Bonjour World" to "hello world" in line 10 of your `index.ts` file.'
    )
    assert reply.timestamp == "2025-10-07T13:51:50.791Z"  # timestamp + timings.totalElapsed
    assert session.models == ("claude-sonnet-4",)
    error = ADAPTER.parse(SHARED / "chat_error_mcp.json").sessions[0]
    failed = next(m for m in error.messages if m.kind == "tool_result")
    assert failed.text.startswith("[error] Error calling tool 'update_entry_fields': 400")
    custom = ADAPTER.parse(SHARED / "parse-export-chat-with-error__chat.json").sessions[0]
    assert custom.models == ("oaicopilot/germes-120b",)
    in_progress = ADAPTER.parse(SHARED / "in_progress_chat.json").sessions[0]
    assert [m.text for m in in_progress.messages if m.kind == "tool_call"] == [
        'copilot_fetchWebPage: Using "Fetch Web Page"',
        "vscode_fetchWebPage_internal: Fetching 3 resources",
    ]


# --- own fixtures: older chatSessions, the journal, transcripts ----------------------------------


def test_v1_session_without_version_or_rounds() -> None:
    path = OWN / "chatsession-v1.json"
    result = ADAPTER.parse(path)
    assert result.errors == [] and result.warnings == []
    (session,) = result.sessions
    assert session.native_id == "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
    assert session.title is None
    assert [m.kind for m in session.messages] == ["prompt", "injected_context", "response"]
    prompt, context, reply = session.messages
    assert prompt.text == "write a fetch helper with retries"  # smriti's recall split out
    assert context.text.startswith("<smriti-context") and context.key.endswith(":context")
    # No toolCallRounds: the markdown fragments joined as VS Code shows them.
    assert reply.text == "Here is a helper using `httpx`:\n\n```python\ndef fetch(url, tries=3):\n    ...\n```"
    assert reply.timestamp == "2024-06-10T06:13:27.100Z"  # 1718000005000 + 2100 ms
    assert session.models == ("gpt-4o",)
    assert session.started_at == "2024-06-10T06:13:20.000Z"


def test_v2_session_with_a_failed_tool() -> None:
    (session,) = ADAPTER.parse(OWN / "chatsession-v2.json").sessions
    assert session.title == "Rename the --dry flag"  # v2 computedTitle
    assert session.ended_at == "2024-10-27T03:34:20.000Z"  # lastMessageDate
    assert [m.kind for m in session.messages] == ["prompt", "injected_context", "tool_call", "tool_result", "response"]
    call, result = session.messages[2], session.messages[3]
    assert call.text == "grep_search: --dry"
    # One call, one invocation: the invocation's isError marks the result.
    assert result.text == "[error] grep: cli.py: No such file or directory"
    assert session.messages[0].files == ("/home/dev/tool/cli.py",)
    assert session.models == ("gpt-4.1",)


def journal_copy(tmp_path: Path) -> Path:
    path = tmp_path / f"{JOURNAL_ID}.jsonl"
    shutil.copy(OWN / "journal.jsonl", path)
    return path


def append(path: Path, source: Path) -> None:
    with open(path, "a") as fh:
        fh.write(source.read_text())


def test_journal_replay(tmp_path: Path) -> None:
    path = journal_copy(tmp_path)
    append(path, OWN / "journal-appended.jsonl")
    result = ADAPTER.parse(path)
    assert errors_of(result.errors, path) == []
    assert sorted(errors_of(result.warnings, path)) == [
        "skipped 1 journal entry of unknown kind 7",
        "skipped 1 journal patch whose path does not exist",
    ]
    (session,) = result.sessions
    assert session.title == "Add pagination to /users"  # set by a kind-1 patch
    prompts = [m.text for m in session.messages if m.kind == "prompt"]
    # The typo'd third request was replaced: kind 2 with i=2 truncates before pushing.
    assert prompts == ["list the endpoints in server.py", "add pagination to /users", "add pagination to /orders too"]
    second = [m for m in session.messages if m.key.startswith("request_31aa0002")]
    assert [m.kind for m in second] == ["prompt", "injected_context", "tool_call", "tool_result", "response"]
    assert second[3].text == '@app.get("/users")\ndef users(): ...'
    assert second[4].text == "Reading the handler.\n\nAdded `limit`/`offset` query parameters to `/users`."
    assert second[4].timestamp == "2025-10-09T08:53:49.000Z"  # modelState.completedAt 1760000029000


def test_journal_resume_returns_only_changed_requests(tmp_path: Path) -> None:
    path = journal_copy(tmp_path)
    first = ADAPTER.parse(path)
    assert len(first.sessions[0].messages) == 2 + 5
    append(path, OWN / "journal-appended.jsonl")
    second = ADAPTER.parse(path, first.resume)
    (session,) = second.sessions
    assert [m.key for m in session.messages] == [
        "request_31aa0004-aaaa-4bbb-8ccc-000000000004",
        "request_31aa0004-aaaa-4bbb-8ccc-000000000004:response",
    ]
    # Nothing changed: nothing returned.
    assert ADAPTER.parse(path, second.resume).sessions == []
    # A title change alone returns the session (for its title) without messages.
    with open(path, "a") as fh:
        fh.write(json.dumps({"kind": 1, "k": ["customTitle"], "v": "Paginate /users and /orders"}) + "\n")
    (retitled,) = ADAPTER.parse(path, second.resume).sessions
    assert retitled.title == "Paginate /users and /orders" and retitled.messages == ()


def test_a_request_read_while_running_and_after_keeps_its_keys(tmp_path: Path) -> None:
    """The in-progress copy (response items only) and the finished one name calls alike."""
    path = tmp_path / "s.jsonl"
    lines = (OWN / "journal.jsonl").read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:3]))  # request 2 pushed, its result not yet written
    running = [m for m in ADAPTER.parse(path).sessions[0].messages if m.key.startswith("request_31aa0002")]
    assert [(m.kind, m.key.split(":", 1)[1] if ":" in m.key else "") for m in running] == [
        ("prompt", ""),
        ("tool_call", "tool:0"),
        ("response", "response"),
    ]
    assert running[1].text == "copilot_readFile: Reading /home/dev/shop/server.py"
    path.write_text("".join(lines))
    done = [m for m in ADAPTER.parse(path).sessions[0].messages if m.key.startswith("request_31aa0002")]
    assert {m.key for m in running} <= {m.key for m in done}


def test_transcript_events(tmp_path: Path) -> None:
    path = OWN / "transcript.jsonl"
    result = ADAPTER.parse(path)
    assert errors_of(result.warnings, path) == ["skipped 1 event of unknown type 'session.frobnicate'"]
    (session,) = result.sessions
    assert session.native_id == TRANSCRIPT_ID
    assert [(m.kind, m.key) for m in session.messages] == [
        ("prompt", "e-03"),
        ("response", "m-01"),
        ("tool_call", "call_Lint01:call"),  # the execution_start repeats it
        ("tool_result", "call_Lint01:result"),
        ("response", "m-02"),
    ]
    assert session.messages[2].text == "run_in_terminal: npm run lint"
    assert session.messages[3].text == '[error] npm ERR! Missing script: "lint"'
    assert session.messages[3].tool_name == "run_in_terminal"
    assert session.models == ("claude-sonnet-4.5",)
    assert (session.started_at, session.ended_at) == ("2026-05-20T09:00:00.000Z", "2026-05-20T09:00:06.000Z")


def test_transcript_resume_returns_only_new_messages(tmp_path: Path) -> None:
    path = tmp_path / f"{TRANSCRIPT_ID}.jsonl"
    shutil.copy(OWN / "transcript.jsonl", path)
    first = ADAPTER.parse(path)
    append(path, OWN / "transcript-appended.jsonl")
    second = ADAPTER.parse(path, first.resume)
    (session,) = second.sessions
    assert session.native_id == TRANSCRIPT_ID  # carried in the resume point
    assert [(m.kind, m.key) for m in session.messages] == [
        ("prompt", "e-11"),
        ("response", "m-03"),
        ("tool_call", "call_Edit02:call"),
        ("tool_result", "call_Edit02:result"),
    ]
    assert session.messages[3].tool_name == "replace_string_in_file"
    assert session.models == ("claude-sonnet-4.5",)
    assert keys(ADAPTER.parse(path)) == keys(first) + keys(second)
    assert ADAPTER.parse(path, second.resume).sessions == []


# --- a real on-disk layout under a fake HOME -----------------------------------------------------


def code_home(home: Path) -> dict[str, Path]:
    user = home / ".config" / "Code" / "User"
    storage = user / "workspaceStorage" / "a1b2c3d4e5f6"
    (storage / "chatSessions").mkdir(parents=True)
    shutil.copy(OWN / "workspace.json", storage / "workspace.json")
    journal = storage / "chatSessions" / f"{JOURNAL_ID}.jsonl"
    shutil.copy(OWN / "journal.jsonl", journal)
    twin = storage / "chatSessions" / f"{JOURNAL_ID}.json"  # the pre-migration copy
    twin.write_text(json.dumps({"version": 3, "sessionId": JOURNAL_ID, "requests": []}))
    v2 = storage / "chatSessions" / "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d.json"
    shutil.copy(OWN / "chatsession-v2.json", v2)
    transcripts = storage / "GitHub.copilot-chat" / "transcripts"
    transcripts.mkdir(parents=True)
    shutil.copy(OWN / "transcript.jsonl", transcripts / f"{JOURNAL_ID}.jsonl")  # same session: skipped
    transcript = transcripts / f"{TRANSCRIPT_ID}.jsonl"
    shutil.copy(OWN / "transcript.jsonl", transcript)
    insiders = home / "Library" / "Application Support" / "Code - Insiders" / "User"
    empty_window = insiders / "globalStorage" / "emptyWindowChatSessions"
    empty_window.mkdir(parents=True)
    v1 = empty_window / "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0.json"
    shutil.copy(OWN / "chatsession-v1.json", v1)
    remote = home / ".vscode-server" / "data" / "User" / "workspaceStorage" / "ffee" / "chatSessions"
    remote.mkdir(parents=True)
    remote_session = remote / "remote.json"
    shutil.copy(OWN / "chatsession-v2.json", remote_session)
    (storage / "state.vscdb").write_bytes(b"SQLite format 3\x00")  # not ours to read
    return {
        "user": user,
        "journal": journal,
        "v2": v2,
        "transcript": transcript,
        "v1": v1,
        "remote": remote_session,
        "insiders": empty_window.parent.parent,
        "server": home / ".vscode-server" / "data" / "User",
    }


def test_default_roots_and_discover_on_a_real_layout(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("APPDATA", raising=False)
    paths = code_home(isolated_env)
    roots = ADAPTER.default_roots()
    assert roots == [paths["user"], paths["insiders"], paths["server"]]
    found = [p for root in roots for p in ADAPTER.discover(root)]
    # The .json twin of the journal and the transcript of a session with a chatSessions file are skipped.
    assert found == [paths["transcript"], paths["journal"], paths["v2"], paths["v1"], paths["remote"]]
    # Any level below the User dir works as a root too.
    storage = paths["journal"].parent.parent
    assert list(ADAPTER.discover(storage)) == [paths["transcript"], paths["journal"], paths["v2"]]
    assert list(ADAPTER.discover(storage / "chatSessions")) == [paths["journal"], paths["v2"]]


def test_workspace_folder_is_the_cwd(isolated_env: Path) -> None:
    paths = code_home(isolated_env)
    assert ADAPTER.parse(paths["journal"]).sessions[0].cwd == "/home/dev/shop"
    assert ADAPTER.parse(paths["transcript"]).sessions[0].cwd == "/home/dev/shop"
    assert ADAPTER.parse(paths["v1"]).sessions[0].cwd is None  # an empty window has no folder


def test_default_roots_on_windows(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    appdata = isolated_env / "AppData" / "Roaming"
    (appdata / "VSCodium" / "User").mkdir(parents=True)
    monkeypatch.setenv("APPDATA", str(appdata))
    assert ADAPTER.default_roots() == [appdata / "VSCodium" / "User"]


# --- detect --------------------------------------------------------------------------------------


def test_detect(tmp_path: Path, isolated_env: Path) -> None:
    paths = code_home(isolated_env)
    own = [OWN / name for name in ("chatsession-v1.json", "chatsession-v2.json", "journal.jsonl", "transcript.jsonl")]
    for mine in (*own, paths["user"], paths["journal"].parent, paths["transcript"].parent):
        assert ADAPTER.detect(mine), mine
    claude = tmp_path / "claude.jsonl"
    claude.write_text(json.dumps({"type": "user", "uuid": "u", "message": {"role": "user", "content": "hi"}}) + "\n")
    cli = tmp_path / "events.jsonl"  # Copilot CLI: session.start has context, not vscodeVersion
    cli.write_text(json.dumps({"type": "session.start", "data": {"sessionId": "s", "context": {"cwd": "/x"}}}) + "\n")
    cursor = tmp_path / "cursor.jsonl"
    cursor.write_text(json.dumps({"role": "user", "message": {"content": [{"type": "text", "text": "hi"}]}}) + "\n")
    for other in (claude, cli, cursor, OWN / "workspace.json", tmp_path, tmp_path / "missing.json"):
        assert not ADAPTER.detect(other), other


@needs_shared
def test_detect_on_shared_fixtures() -> None:
    for name in sorted(EXPECTED):
        assert ADAPTER.detect(SHARED / name) == (name != "workspace.json"), name
    for folder in ("copilot-cli", "claude-code", "cursor", "codex"):
        for other in sorted((SHARED_FIXTURES / folder).glob("*.json*"))[:6]:
            assert not ADAPTER.detect(other), other


def test_is_an_adapter() -> None:
    assert isinstance(ADAPTER, Adapter)
    assert ADAPTER.name == "copilot"


# --- garbage never makes parse raise -------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "kind",
                    "k",
                    "v",
                    "i",
                    "requests",
                    "requestId",
                    "message",
                    "text",
                    "response",
                    "result",
                    "metadata",
                    "toolCallRounds",
                    "toolCalls",
                    "toolCallResults",
                    "value",
                    "type",
                    "data",
                    "content",
                    "toolRequests",
                    "toolCallId",
                    "sessionId",
                    "timestamp",
                    "modelId",
                    "resultDetails",
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
    for name in ("s.json", "s.jsonl"):
        path = tmp_path / name
        path.write_bytes(data)
        assert isinstance(ADAPTER.parse(path), ParseResult)
        ADAPTER.detect(path)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=st.sampled_from(["kind", "type"]), lines=st.lists(json_values, max_size=6), snapshot=json_values)
def test_odd_records_never_raise(tmp_path: Path, first: str, lines: list[Any], snapshot: Any) -> None:
    path = tmp_path / "s.jsonl"
    head = {"kind": 0, "v": snapshot} if first == "kind" else {"type": "session.start", "data": snapshot}
    path.write_text("".join(json.dumps(line) + "\n" for line in [head, *lines]))
    result = ADAPTER.parse(path)
    assert all(isinstance(m, Message) for s in result.sessions for m in s.messages)
    ADAPTER.parse(path, result.resume)
    whole = tmp_path / "s.json"
    whole.write_text(json.dumps({"requests": lines, "sessionId": snapshot}))
    assert isinstance(ADAPTER.parse(whole), ParseResult)
