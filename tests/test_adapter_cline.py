"""Cline and Roo Code adapters: hand-written task folders (no licensed real ones exist, docs §6.4),
Cline SDK session files, realistic on-disk layouts under a fake HOME."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from adapter_helpers import texts
from conftest import SHARED_FIXTURES, invoke_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters.cline import ClineAdapter, RooAdapter
from smriti.models import Problem

SHARED = SHARED_FIXTURES
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CLINE_EXT = FIXTURES / "cline" / "saoudrizwan.claude-dev"
CLINE_DATA = FIXTURES / "cline" / "dot-cline-data"
ROO_EXT = FIXTURES / "roo" / "rooveterinaryinc.roo-cline"
SDK = CLINE_DATA / "sessions" / "1760000000000_k3x9p"
ROO_A = "0f8e2c1a-5b7d-4e3f-9a1b-2c3d4e5f6a7b"
ROO_B = "7c9d1e2f-3a4b-4c5d-8e6f-a7b8c9d0e1f2"

# Counted by hand from each fixture (one API message = one line of the count):
# 1733312345678 (native tools): u0 prompt+env; a1 text+read_file; u2 result+env; a3 text+replace;
#   u4 denied result + <feedback> prompt + env; a5 replace; u6 result+env; a7 execute_command;
#   u8 result+env; a9 attempt_completion → response; u10 its result is the person's <feedback> → prompt
#   (+env); a11 text+write_to_file; u12 failed result+env.
# 1719000000000 (XML tools): u0 <task>+env; a1 <thinking> dropped + <read_file>; u2 "[read_file for
#   'cli.py'] Result:" + output + env; a3 text + <write_to_file>; u4 result+env; a5 ask_followup_question
#   → response; u6 <answer> → prompt (+env); a7 <execute_command>; u8 result+env; a9 attempt_completion
#   → response; u10 [TASK RESUMPTION] (injected) carrying a <user_message> prompt, + env.
# 1720000000000 (UI view only): task, text, tool, command, 2 command_output (one empty), reasoning,
#   completion_result (say), completion_result (empty ask), user_feedback, checkpoint, voice_transcript.
# SDK lead: user; assistant thinking+text+tool_use; tool_result; tool_use; tool_result; an `error`
#   display-only message; final text. SDK subagent: user + assistant.
# Roo A (legacy + condense): u0 <user_message>+env; reasoning item; a2 text+read_file; u3 result+env;
#   u4 isSummary → summary; a5 text+apply_diff; u6 result+env; a7 attempt_completion → response;
#   u8 <feedback> → prompt + env; u9 truncation marker (skipped).
# Roo B ({version: 2} AI-SDK form): user; assistant reasoning+text+tool-call; tool; tool-call; tool
#   (error-text); attempt_completion tool-call → response.
EXPECTED = {
    ("cline", "saoudrizwan.claude-dev/tasks/1733312345678/api_conversation_history.json"): {
        "native_id": "1733312345678",
        "cwd": "/home/dev/webapp",
        "title": "The login form accepts empty passwords. Fix validation in src/auth/login.ts and add a test.",
        "kinds": {"prompt": 3, "injected_context": 7, "response": 4, "tool_call": 5, "tool_result": 5},
        "started_at": "2024-12-04T11:39:05.678Z",
        "ended_at": "2024-12-04T11:40:20.688Z",
        "models": ("claude-sonnet-4-20250514",),
        "parent": None,
        "warnings": [],
    },
    ("cline", "saoudrizwan.claude-dev/tasks/1764000000000/api_conversation_history.json"): {
        "native_id": "1764000000000",
        "cwd": "/home/dev/tactics",
        "title": None,
        "kinds": {"prompt": 2, "injected_context": 5, "response": 5, "tool_call": 2, "tool_result": 2},
        "started_at": "2025-11-24T16:00:00.000Z",
        "ended_at": "2025-11-24T16:04:10.000Z",
        "models": ("claude-sonnet-4-5",),
        "parent": None,
        "warnings": [],
    },
    ("cline", "saoudrizwan.claude-dev/tasks/1719000000000/api_conversation_history.json"): {
        "native_id": "1719000000000",
        "cwd": "/home/dev/tool",
        "title": None,
        "kinds": {"prompt": 3, "injected_context": 6, "response": 3, "tool_call": 3, "tool_result": 3},
        "started_at": "2024-06-21T20:00:00.000Z",
        "ended_at": "2024-06-21T22:01:00.000Z",
        "models": (),
        "parent": None,
        "warnings": [],
    },
    ("cline", "saoudrizwan.claude-dev/tasks/1720000000000/ui_messages.json"): {
        "native_id": "1720000000000",
        "cwd": None,
        "title": None,
        "kinds": {"prompt": 2, "response": 2, "tool_call": 2, "tool_result": 1},
        "started_at": "2024-07-03T09:46:40.000Z",
        "ended_at": "2024-07-03T09:47:00.200Z",
        "models": (),
        "parent": None,
        "warnings": ["skipped 1 ui message of unknown type 'voice_transcript'"],
    },
    ("cline", "dot-cline-data/sessions/1760000000000_k3x9p/1760000000000_k3x9p.messages.json"): {
        "native_id": "1760000000000_k3x9p",
        "cwd": "/home/dev/netlib",
        "title": "Raise the retry budget to 5",
        "kinds": {"prompt": 1, "response": 2, "tool_call": 2, "tool_result": 2},
        "started_at": "2025-10-09T08:53:20.000Z",
        "ended_at": "2025-10-09T08:55:02.512Z",
        "models": ("claude-sonnet-4-5",),
        "parent": None,
        "warnings": [],
    },
    ("cline", "dot-cline-data/sessions/1760000000000_k3x9p/researcher.messages.json"): {
        "native_id": "1760000000000_k3x9p__researcher",
        "cwd": "/home/dev/netlib",
        "title": None,
        "kinds": {"prompt": 1, "response": 1},
        "started_at": "2025-10-09T08:53:50.000Z",
        "ended_at": "2025-10-09T08:54:01.000Z",
        "models": (),
        "parent": "1760000000000_k3x9p",
        "warnings": [],
    },
    ("roo", f"rooveterinaryinc.roo-cline/tasks/{ROO_A}/api_conversation_history.json"): {
        "native_id": ROO_A,
        "cwd": "/home/dev/svc",
        "title": "Migrate the settings loader from JSON to TOML",
        "kinds": {"prompt": 2, "injected_context": 4, "response": 3, "tool_call": 2, "tool_result": 2, "summary": 1},
        "started_at": "2025-05-26T11:46:40.100Z",
        "ended_at": "2025-05-26T11:47:41.001Z",
        "models": (),
        "parent": None,
        "warnings": [],
    },
    ("roo", f"rooveterinaryinc.roo-cline/tasks/{ROO_B}/api_conversation_history.json"): {
        "native_id": ROO_B,
        "cwd": "/home/dev/svc",
        "title": "Write unit tests for the TOML loader",
        "kinds": {"prompt": 1, "response": 2, "tool_call": 2, "tool_result": 2},
        "started_at": "2025-05-26T11:48:20.010Z",
        "ended_at": "2025-05-26T11:48:32.000Z",
        "models": (),
        "parent": ROO_A,
        "warnings": [],
    },
}


def _adapter(agent: str) -> ClineAdapter | RooAdapter:
    return ClineAdapter() if agent == "cline" else RooAdapter()


def _fixture_path(agent: str, rel: str) -> Path:
    return FIXTURES / ("cline" if agent == "cline" else "roo") / rel


@pytest.mark.parametrize(("agent", "rel"), sorted(EXPECTED), ids=lambda v: str(v).split("/")[-2:][0][:24])
def test_fixture(agent: str, rel: str) -> None:
    expected = EXPECTED[(agent, rel)]
    path = _fixture_path(agent, rel)
    result = _adapter(agent).parse(path)
    assert result.errors == [] and result.resume is None
    assert [w.error for w in result.warnings] == expected["warnings"]
    [s] = result.sessions
    assert s.agent == agent and s.native_id == expected["native_id"]
    assert dict(Counter(m.kind for m in s.messages)) == expected["kinds"]
    assert (s.cwd, s.title, s.parent_native_id) == (expected["cwd"], expected["title"], expected["parent"])
    assert (s.started_at, s.ended_at, s.models) == (expected["started_at"], expected["ended_at"], expected["models"])
    assert s.source_paths == (str(path),) and s.project is None
    keys = [m.key for m in s.messages]
    assert len(keys) == len(set(keys))


def test_every_fixture_source_has_an_expectation() -> None:
    found = {("cline", str(p.relative_to(FIXTURES / "cline"))) for p in ClineAdapter().discover(FIXTURES / "cline")}
    found |= {("roo", str(p.relative_to(FIXTURES / "roo"))) for p in RooAdapter().discover(FIXTURES / "roo")}
    assert found == set(EXPECTED)


def test_native_tools_task_details() -> None:
    s = ClineAdapter().parse(CLINE_EXT / "tasks" / "1733312345678" / "api_conversation_history.json").sessions[0]
    prompts = [m.text for m in s.messages if m.kind == "prompt"]
    assert prompts == [
        # the <task> text, unwrapped:
        "The login form accepts empty passwords. Fix validation in src/auth/login.ts and add a test.",
        "Also trim whitespace before checking.",  # feedback given while denying a tool
        "Thanks! Please also add a CHANGELOG entry.",  # reply to attempt_completion
    ]
    results = [m for m in s.messages if m.kind == "tool_result"]
    assert [r.tool_name for r in results] == [
        "read_file",
        "replace_in_file",
        "replace_in_file",
        "execute_command",
        "write_to_file",
    ]
    assert results[1].text.startswith("[error] The user denied this operation")
    assert results[4].text.startswith("[error] The tool execution failed")
    completion = [m for m in s.messages if m.kind == "response"][2]
    assert completion.text == "Login now rejects empty and whitespace-only passwords, and the login tests pass."
    assert not any(m.tool_name == "attempt_completion" for m in s.messages)
    assert all(m.text.startswith("<environment_details>") for m in s.messages if m.kind == "injected_context")
    assert not any("Read the file first." in m.text for m in s.messages)  # thinking
    call = next(m for m in s.messages if m.kind == "tool_call")
    assert (call.key, call.files) == ("1733312345678:toolu_01HkQbq1xT8yV7n2R5cW9mZa", ("src/auth/login.ts",))


NEWER_TASK = CLINE_EXT / "tasks" / "1764000000000"


def test_newer_cline_result_header_and_output_in_one_block_is_a_tool_result() -> None:
    # u2/u4: `[tool for 'x'] Result:` and the output in one text block after a tool_use; u0 and u4
    # carry focus-chain reminders, u6 the "(The user did not provide a new message…)" note.
    s = ClineAdapter().parse(NEWER_TASK / "api_conversation_history.json").sessions[0]
    assert texts(s, "prompt") == [
        "Move ActionSystem off the legacy Input class onto the new input actions",
        "yes, bind Fire to the south gamepad button too",
    ]
    results = [m for m in s.messages if m.kind == "tool_result"]
    assert [(r.tool_name, r.action) for r in results] == [("read_file", "read"), ("replace_in_file", "edit")]
    assert results[0].text.startswith("using System;\nusing UnityEngine;") and "Result:" not in results[0].text
    assert results[1].text == "The content was successfully saved to Assets/Scripts/ActionSystem.cs."
    context = "\n".join(texts(s, "injected_context"))
    assert "# task_progress RECOMMENDED" in context and "# TODO LIST UPDATE REQUIRED" in context
    assert "The user did not provide a new message" in context
    not_context = [m.text for m in s.messages if m.kind != "injected_context"]
    assert not any("task_progress" in text or "did not provide" in text for text in not_context)


def test_newer_cline_task_title_through_the_cli(runner, tmp_path: Path) -> None:
    tasks = tmp_path / "saoudrizwan.claude-dev" / "tasks"
    shutil.copytree(NEWER_TASK, tasks / NEWER_TASK.name)
    out = invoke_json(runner, "ingest", "--agent", "cline", "--path", str(tmp_path / "saoudrizwan.claude-dev"))
    assert (out["sessions_found"], out["errors"]) == (1, [])
    [row] = invoke_json(runner, "sessions")
    assert row["title"].startswith("Move ActionSystem off the legacy Input class")
    assert invoke_json(runner, "search", "gamepad south button")[0]["native_id"] == "1764000000000"
    assert invoke_json(runner, "search", "task_progress parameter") == []


def test_xml_era_task_details() -> None:
    s = ClineAdapter().parse(CLINE_EXT / "tasks" / "1719000000000" / "api_conversation_history.json").sessions[0]
    calls = [(m.tool_name, m.tool_input) for m in s.messages if m.kind == "tool_call"]
    assert calls[0] == ("read_file", {"path": "cli.py"})
    assert calls[2] == ("execute_command", {"command": "python cli.py --verbose", "requires_approval": "false"})
    assert [m.text for m in s.messages if m.kind == "response"] == [
        "I'll add the flag with `store_true`.",
        "Should --verbose also enable debug logging?",
        "--verbose now sets the root logger to DEBUG.",
    ]
    assert [m.text for m in s.messages if m.kind == "prompt"][1:] == [
        "Yes, set the root logger to DEBUG.",
        "Also document the flag in README.md",
    ]
    read_result = next(m for m in s.messages if m.kind == "tool_result")
    assert read_result.tool_name == "read_file" and read_result.text.startswith("import argparse")
    assert not any("<thinking>" in m.text or "I need to see cli.py" in m.text for m in s.messages)
    # No `ts` in this era's API file: times come from the UI messages (conversationHistoryIndex).
    assert s.messages[0].timestamp == "2024-06-21T20:00:00.123Z"
    assert s.messages[-1].timestamp == "2024-06-21T20:00:10.000Z"


def test_ui_file_of_a_task_with_an_api_file_reads_the_api_view() -> None:
    task = CLINE_EXT / "tasks" / "1733312345678"
    via_ui = ClineAdapter().parse(task / "ui_messages.json").sessions[0]
    via_api = ClineAdapter().parse(task / "api_conversation_history.json").sessions[0]
    assert [m.key for m in via_ui.messages] == [m.key for m in via_api.messages]  # each message once


def test_roo_details() -> None:
    a = RooAdapter().parse(ROO_EXT / "tasks" / ROO_A / "api_conversation_history.json").sessions[0]
    summary = next(m for m in a.messages if m.kind == "summary")
    assert summary.role == "system" and summary.text.startswith("## Conversation Summary")
    assert not any("Sliding window truncation" in m.text for m in a.messages)
    assert not any("gAAAAB" in m.text for m in a.messages)  # encrypted reasoning
    b = RooAdapter().parse(ROO_EXT / "tasks" / ROO_B / "api_conversation_history.json").sessions[0]
    results = [m for m in b.messages if m.kind == "tool_result"]
    assert [(r.tool_name, r.text) for r in results] == [
        ("write_to_file", "Created tests/test_settings.py"),
        ("execute_command", "[error] ImportError: cannot import name 'load' from 'settings'"),
    ]
    assert not any("A small pytest module" in m.text for m in b.messages)


# --- on-disk layouts under a fake HOME ----------------------------------------------------------


def _install(home: Path) -> dict[str, Path]:
    paths = {
        "code": home / ".config" / "Code" / "User" / "globalStorage" / "saoudrizwan.claude-dev",
        "cli": home / ".cline" / "data",
        "roo": home
        / "Library"
        / "Application Support"
        / "Code"
        / "User"
        / "globalStorage"
        / "rooveterinaryinc.roo-cline",
    }
    shutil.copytree(CLINE_EXT, paths["code"])
    shutil.copytree(CLINE_DATA, paths["cli"])
    shutil.copytree(ROO_EXT, paths["roo"])
    # Checkpoints are shadow git repos: never walked, even when they hold task-like files.
    shadow = paths["code"] / "checkpoints" / "1733312345678" / ".git" / "tasks" / "1"
    shadow.mkdir(parents=True)
    (shadow / "api_conversation_history.json").write_text("[]")
    return paths


def test_cline_fake_home(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("CLINE_DIR", "CLINE_DATA_DIR", "APPDATA"):
        monkeypatch.delenv(var, raising=False)
    paths = _install(isolated_env)
    adapter = ClineAdapter()
    assert adapter.default_roots() == [paths["code"], paths["cli"]]
    found = [p for root in adapter.default_roots() for p in adapter.discover(root)]
    assert [str(p.relative_to(isolated_env)) for p in found] == [
        ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1719000000000/api_conversation_history.json",
        ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1720000000000/ui_messages.json",
        ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1733312345678/api_conversation_history.json",
        ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1764000000000/api_conversation_history.json",
        ".cline/data/sessions/1760000000000_k3x9p/1760000000000_k3x9p.messages.json",
        ".cline/data/sessions/1760000000000_k3x9p/researcher.messages.json",
    ]
    assert all(adapter.parse(p).sessions for p in found)
    assert list(adapter.discover(paths["roo"])) == []  # Roo's tasks are not Cline's


def test_roo_fake_home(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("APPDATA", raising=False)
    paths = _install(isolated_env)
    adapter = RooAdapter()
    assert adapter.default_roots() == [paths["roo"]]
    found = list(adapter.discover(paths["roo"]))
    assert [p.parent.name for p in found] == [ROO_A, ROO_B]
    assert list(adapter.discover(paths["code"])) == []  # Cline's tasks are not Roo's


def test_cline_env_overrides(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cd" / "data").mkdir(parents=True)
    (tmp_path / "cdd").mkdir()
    monkeypatch.setenv("CLINE_DIR", str(tmp_path / "cd"))
    monkeypatch.setenv("CLINE_DATA_DIR", str(tmp_path / "cdd"))
    assert ClineAdapter().default_roots() == [tmp_path / "cdd", tmp_path / "cd" / "data"]


def test_roo_custom_storage_path(isolated_env: Path, tmp_path: Path) -> None:
    custom = tmp_path / "roo-store"
    shutil.copytree(ROO_EXT, custom)
    settings_file = isolated_env / ".config" / "Code" / "User" / "settings.json"
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(
        f'{{\n  // JSONC comments are allowed here\n  "roo-cline.customStoragePath": "{custom}",\n}}\n'
    )
    adapter = RooAdapter()
    assert adapter.default_roots() == [custom]
    assert len(list(adapter.discover(custom))) == 2


def test_a_task_folder_given_directly(tmp_path: Path) -> None:
    task = tmp_path / "1733312345678"
    shutil.copytree(CLINE_EXT / "tasks" / "1733312345678", task)
    adapter = ClineAdapter()
    assert adapter.detect(task) and not RooAdapter().detect(task)
    assert list(adapter.discover(task)) == [task / "api_conversation_history.json"]
    for aux in ("ui_messages.json", "task_metadata.json"):  # `ingest --path` with any file of the task
        assert adapter.detect(task / aux)
        assert list(adapter.discover(task / aux)) == [task / "api_conversation_history.json"]
    s = adapter.parse(task / "api_conversation_history.json").sessions[0]
    assert s.cwd == "/home/dev/webapp"  # no index next to it: the cwd comes from <environment_details>
    assert s.title is None
    roo_task = tmp_path / ROO_B
    shutil.copytree(ROO_EXT / "tasks" / ROO_B, roo_task)
    assert RooAdapter().detect(roo_task) and not adapter.detect(roo_task)


def test_detect() -> None:
    cline, roo = ClineAdapter(), RooAdapter()
    assert cline.detect(CLINE_EXT) and cline.detect(CLINE_EXT / "tasks") and cline.detect(CLINE_EXT.parent)
    assert not roo.detect(CLINE_EXT.parent) and roo.detect(ROO_EXT.parent)
    assert cline.detect(CLINE_EXT / "tasks" / "1720000000000" / "ui_messages.json")
    assert cline.detect(SDK / "1760000000000_k3x9p.messages.json")
    assert roo.detect(ROO_EXT) and roo.detect(ROO_EXT / "tasks" / ROO_A / "api_conversation_history.json")
    assert not roo.detect(CLINE_EXT / "tasks" / "1733312345678" / "api_conversation_history.json")
    assert not cline.detect(ROO_EXT / "tasks" / ROO_A / "ui_messages.json")
    assert not roo.detect(SDK / "1760000000000_k3x9p.messages.json")
    others = [
        SHARED / "amp" / "T-019ca1ce-3ae2-7686-a41e-ccc078837f8a.json",
        SHARED / "continue" / "continue-cli-session-simple.json",
        SHARED / "claude-code" / "session-01.jsonl",
        SHARED / "aider" / "afi-core__.aider.chat.history.md",
    ]
    for other in others:
        if other.exists():
            assert not cline.detect(other) and not roo.detect(other), other


# --- bad input ---------------------------------------------------------------------------------


def _task(tmp_path: Path, api: bytes | None = None, ui: bytes | None = None, name: str = "1700000000000") -> Path:
    task = tmp_path / "saoudrizwan.claude-dev" / "tasks" / name
    task.mkdir(parents=True)
    if api is not None:
        (task / "api_conversation_history.json").write_bytes(api)
    if ui is not None:
        (task / "ui_messages.json").write_bytes(ui)
    return task


def test_half_written_api_file_is_an_error(tmp_path: Path) -> None:
    task = _task(tmp_path, api=b'[{"role": "user", "content": "hi"}, {"role":', ui=b"[]")
    path = task / "api_conversation_history.json"
    assert ClineAdapter().parse(path).errors == [
        Problem(str(path), "malformed JSON (Expecting value at line 1); it may be mid-write")
    ]


@pytest.mark.parametrize(
    ("api", "error"),
    [
        (b"", "empty file: no messages"),
        (b'{"x": 1}', "not a task history: the top level is a JSON object"),
        (b"\xff", "invalid UTF-8 at byte 0: not a JSON file"),
    ],
)
def test_unreadable_api_files(tmp_path: Path, api: bytes, error: str) -> None:
    path = _task(tmp_path, api=api) / "api_conversation_history.json"
    assert ClineAdapter().parse(path).errors == [Problem(str(path), error)]


def test_messages_but_nothing_readable(tmp_path: Path) -> None:
    path = (
        _task(tmp_path, api=json.dumps([{"role": "critic", "content": "?"}, 7]).encode())
        / "api_conversation_history.json"
    )
    result = ClineAdapter().parse(path)
    assert result.sessions == []
    assert [e.error for e in result.errors] == ["found 1 session(s) but no messages: the format may have changed"]
    assert [w.error for w in result.warnings] == [
        "message 1 is a JSON number, not an object; skipped",
        "skipped 1 message of unknown role 'critic'",
    ]


def test_sdk_file_without_messages(tmp_path: Path) -> None:
    path = tmp_path / "sessions" / "s1" / "s1.messages.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "agent": "lead", "sessionId": "s1"}')
    assert ClineAdapter().parse(path).errors == [Problem(str(path), "not a Cline session: no 'messages' list")]
    path.write_text('{"version": 1, "agent": "lead", "sessionId": "s1", "messages": []}')  # just started
    result = ClineAdapter().parse(path)
    assert result.sessions == [] and result.errors == []


def test_directory_is_not_a_source(tmp_path: Path) -> None:
    task = _task(tmp_path, api=b"[]")
    assert ClineAdapter().parse(task).errors == [
        Problem(str(task), "is a directory: pass a task's api_conversation_history.json")
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=25,
)
block = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            ["text", "tool_use", "tool_result", "tool-call", "tool-result", "image", "thinking", "?"]
        )
    },
    optional={
        "text": st.sampled_from(
            [
                "<task>\nx\n</task>",
                "[read_file for 'a'] Result:",
                "<read_file>\n<path>a</path>",
                "<environment_details>\n# Current Working Directory (/x) Files",
                "<feedback>f</feedback>",
            ]
        )
        | json_values,
        "id": json_values,
        "name": json_values,
        "input": json_values,
        "tool_use_id": json_values,
        "content": json_values,
        "output": json_values,
        "toolCallId": json_values,
        "toolName": json_values,
    },
)
api_message = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "error"]) | json_values},
    optional={
        "content": st.lists(block | json_values, max_size=4) | json_values,
        "ts": json_values,
        "isSummary": json_values,
        "id": json_values,
        "modelInfo": json_values,
        "type": json_values,
    },
)
ui_message = st.fixed_dictionaries(
    {"type": st.sampled_from(["say", "ask"]) | json_values},
    optional={
        "say": st.sampled_from(["task", "text", "tool", "command_output", "x"]) | json_values,
        "ask": st.sampled_from(["tool", "command", "followup", "y"]) | json_values,
        "text": json_values,
        "ts": json_values,
        "images": json_values,
        "conversationHistoryIndex": json_values,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    api=st.lists(api_message | json_values, max_size=5) | json_values,
    ui=st.lists(ui_message | json_values, max_size=5) | json_values,
    history=json_values,
)
def test_garbage_never_raises(api: object, ui: object, history: object) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        task = _task(Path(tmp), api=json.dumps(api).encode(), ui=json.dumps(ui).encode())
        (task / "history_item.json").write_text(json.dumps(history))
        (task / "task_metadata.json").write_text(json.dumps(history))
        ClineAdapter().parse(task / "api_conversation_history.json")
        RooAdapter().parse(task / "api_conversation_history.json")
        (task / "api_conversation_history.json").unlink()
        ClineAdapter().parse(task / "ui_messages.json")
        sdk = Path(tmp) / "sessions" / "s1"
        sdk.mkdir(parents=True)
        (sdk / "s1.json").write_text(json.dumps(history))
        (sdk / "s1.messages.json").write_text(json.dumps({"messages": api} if isinstance(api, list) else api))
        (sdk / "agent.messages.json").write_text(json.dumps(history))
        ClineAdapter().parse(sdk / "s1.messages.json")
        ClineAdapter().parse(sdk / "agent.messages.json")


def test_result_header_inside_a_tool_result_block_is_not_output(tmp_path: Path) -> None:
    task = tmp_path / "tasks" / "1764100000000"
    task.mkdir(parents=True)
    api = [
        {
            "role": "user",
            "content": [{"type": "text", "text": "<task>\nlist the scripts\n</task>"}],
            "ts": 1764100000001,
        },
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_ls", "name": "list_files", "input": {"path": "scripts"}}],
            "ts": 1764100000002,
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_ls",
                    "content": [{"type": "text", "text": "[list_files for 'scripts'] Result:\nbuild.sh\ndeploy.sh"}],
                }
            ],
            "ts": 1764100000003,
        },
    ]
    (task / "api_conversation_history.json").write_text(json.dumps(api))
    [session] = ClineAdapter().parse(task / "api_conversation_history.json").sessions
    [result] = [m for m in session.messages if m.kind == "tool_result"]
    assert (result.tool_name, result.text) == ("list_files", "build.sh\ndeploy.sh")
