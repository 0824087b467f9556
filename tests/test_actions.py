"""Normalised tool actions: one table from agents' tool names to what a call does, set by the adapters,
stored with each message, and read by the digest instead of any tool's name."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from smriti.adapters import load_registry
from smriti.digest.apply import Enricher
from smriti.digest.categorize import categorize_session, score_messages
from smriti.digest.distill import entities
from smriti.models import ACTIONS, TOOL_ACTIONS, Message, Session, tool_action
from smriti.store import Store

_keys = itertools.count()
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def call(tool: str, text: str, action: str | None = None, **tool_input: object) -> Message:
    return Message(
        "assistant",
        f"{tool}: {text}",
        "tool_call",
        f"k{next(_keys)}",
        tool_name=tool,
        tool_input=tool_input,
        action=action,
    )


def result(text: str, tool: str, action: str | None = None) -> Message:
    return Message("tool", text, "tool_result", f"k{next(_keys)}", tool_name=tool, action=action)


def prompt(text: str) -> Message:
    return Message("user", text, "prompt", f"k{next(_keys)}")


@pytest.mark.parametrize(
    ("names", "action"),
    [
        (["Bash", "shell", "run_terminal_cmd", "execute_command", "exec_command"], "shell"),
        (["Edit", "MultiEdit", "str_replace", "apply_patch", "replace_in_file", "edit_file"], "edit"),
        (["Write", "write_to_file", "create_file"], "write"),
        (["Read", "read_file", "view"], "read"),
        (["Grep", "Glob", "search", "codebase_search", "grep_search"], "search"),
        (["WebFetch", "fetch"], "fetch"),
        (["Task"], "task"),
        (["TodoWrite", "mystery_tool", None], "other"),
    ],
)
def test_agents_tool_names_map_to_one_action(names: list[str | None], action: str) -> None:
    assert {tool_action(name) for name in names} == {action}


def test_the_table_only_names_known_actions_in_lowercase() -> None:
    assert set(TOOL_ACTIONS.values()) <= set(ACTIONS)
    assert all(name == name.lower() for name in TOOL_ACTIONS)


def test_an_unlisted_tool_that_runs_a_command_is_a_shell() -> None:
    assert tool_action("mcp__box__exec_shell", {"command": "ls"}) == "shell"
    assert tool_action("mcp__box__exec_shell", {"query": "ls"}) == "other"


def test_a_message_knows_its_action_from_the_adapter_or_else_the_tool_name() -> None:
    assert call("Frobnicate", "x", action="edit").action == "edit"
    assert call("Bash", "ls", command="ls").action == "shell"  # stored before actions: derived
    assert prompt("hello").action is None
    with pytest.raises(ValueError, match="unknown action"):
        call("Bash", "ls", action="teleport")


def test_the_digest_reads_the_action_not_the_tool_name() -> None:
    ask = prompt("the csv export shows wrong totals for refunded orders, please look into it")
    by_name = [ask, call("Edit", "export.py", file_path="export.py"), call("Edit", "export.py", file_path="export.py")]
    by_action = [ask, *(call("patchwork", "export.py", "edit", file_path="export.py") for _ in range(2))]
    assert score_messages(by_name) == score_messages(by_action)
    # the same category whatever the editing tool is called, and a bug (which child, if any, is the model's call)
    assert categorize_session(by_action).category == categorize_session(by_name).category
    assert categorize_session(by_action).parent == "bug"
    # a command run by a tool no table names is a command, because its adapter says it is a shell
    ran = entities([call("sandbox_run", "pytest -q", "shell", command="pytest -q")])
    assert ran.commands == ("pytest -q",)
    # what a reading tool returned is not evidence of what happened, whatever the tool is called
    read = [result("Traceback (most recent call last):\n  raise ValueError('x')\nValueError: x", "peek", "read")]
    assert score_messages(read).get("bug", 0) == 0 and entities(read).errors == ()


def test_adapters_set_the_action_of_tool_calls() -> None:
    adapter = load_registry().get("claude-code")
    seen: dict[str, str | None] = {}
    for path in adapter.discover(FIXTURES / "claude-code"):
        for session in adapter.parse(path).sessions:
            for m in session.messages:
                if m.kind == "tool_call" and m.tool_name:
                    seen[m.tool_name] = m.action
    assert seen, "the fixture has tool calls"
    assert all(action == tool_action(name) or action == "shell" for name, action in seen.items())
    assert seen.get("Bash", "shell") == "shell" and None not in seen.values()


def test_the_action_is_stored_and_rows_stored_without_one_read_by_tool_name(tmp_path: Path) -> None:
    messages = (
        prompt("the csv export shows wrong totals for refunded orders, please look into it"),
        call("patchwork", "export.py", "edit", file_path="export.py"),
        call("patchwork", "export.py", "edit", file_path="export.py"),
    )
    as_before = [replace(m, action=None) for m in messages]
    assert categorize_session(messages) != categorize_session(as_before)  # "patchwork" is no known tool
    store = Store(tmp_path / "s.db")
    try:
        written = store.write_session(Session("claude-code", "n1", messages), "p", "p")
        row = store.get_session(written.session_id)
        assert [m.action for m in store.messages(row.rowid)] == [None, "edit", "edit"]
        assert Enricher(store).enrich(row, full=True) == categorize_session(messages)
        # a store from before the action column: NULL, so the tool's name decides
        store.conn.execute("update messages set action = null")
        assert Enricher(store).enrich(row, full=True) == categorize_session(as_before)
    finally:
        store.close()
