"""Generic adapter: one hand-written file per layout it understands, resume of JSONL, garbage."""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from conftest import SHARED_FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters.generic import GenericAdapter
from smriti.models import Problem

SHARED = SHARED_FIXTURES
OWN = Path(__file__).resolve().parent / "fixtures" / "generic"

# Counted by hand from each file:
EXPECTED = {
    # system message; user; assistant with one tool_call and no text; tool message; final answer.
    "openai-chat.json": {"injected_context": 1, "prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1},
    # user string; assistant thinking (dropped) + text + tool_use; user tool_result (error) + text; answer.
    "anthropic-messages.json": {"prompt": 2, "response": 2, "tool_call": 1, "tool_result": 1},
    # summary record (the title); a <system-reminder> user line; a prompt; a text answer; an Edit call.
    "web-export.json": {"injected_context": 1, "prompt": 1, "response": 1, "tool_call": 1},
    # current branch root → n1 → n2 → n3; n2b is an abandoned branch.
    "chatgpt-export.json": {"prompt": 2, "response": 1},
    # 4 lines; line 3 is malformed JSON (missing the closing brace).
    "conversation.jsonl": {"prompt": 1, "response": 2},
    # ## User / ## Assistant / ### User: / ### Assistant: (a `User:` line inside a fence is not a header).
    "headings.md": {"prompt": 2, "response": 2},
    # User: / Assistant: prefixes, **User**: / **Assistant:** and a `> **User**` blockquote header.
    "prefixes.txt": {"prompt": 3, "response": 2},
}
TITLES = {
    "web-export.json": "Fix flaky retry test",
    "chatgpt-export.json": "Regex for ISO dates",
    "headings.md": "Pairing notes: flaky upload test",
}


def test_every_fixture_has_an_expectation() -> None:
    assert {p.name for p in OWN.iterdir()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture(name: str) -> None:
    path = OWN / name
    result = GenericAdapter().parse(path)
    [s] = result.sessions
    assert dict(Counter(m.kind for m in s.messages)) == EXPECTED[name]
    assert s.agent == "generic" and s.cwd is None and s.project is None
    assert s.native_id == hashlib.sha256(str(path.absolute()).encode()).hexdigest()[:16]
    assert s.title == TITLES.get(name)
    assert s.source_paths == (str(path),)
    keys = [m.key for m in s.messages]
    assert len(keys) == len(set(keys))
    if name == "conversation.jsonl":
        assert result.errors == [
            Problem(str(path), "malformed JSON (Expecting ',' delimiter at column 52); line skipped", 3)
        ]
        assert isinstance(result.resume, dict)
    else:
        assert result.errors == [] and result.resume is None
    assert result.warnings == []


def test_openai_tool_calls_pair_with_results() -> None:
    s = GenericAdapter().parse(OWN / "openai-chat.json").sessions[0]
    call, result = s.messages[2], s.messages[3]
    assert (call.kind, call.text, call.files, call.tool_input) == (
        "tool_call",
        "read_file: worker/fetch.py",
        ("worker/fetch.py",),
        {"path": "worker/fetch.py"},
    )
    assert (result.kind, result.tool_name, result.text) == (
        "tool_result",
        "read_file",
        "resp = requests.get(url, timeout=None)",
    )
    assert s.messages[0].role == "system"


def test_anthropic_blocks() -> None:
    s = GenericAdapter().parse(OWN / "anthropic-messages.json").sessions[0]
    assert [m.kind for m in s.messages] == ["prompt", "response", "tool_call", "tool_result", "prompt", "response"]
    assert s.messages[3].text.startswith("[error] sort: cannot read")
    assert s.messages[3].tool_name == "bash"
    assert not any("grep for the max duration" in m.text for m in s.messages)  # thinking


def test_web_export_and_chatgpt_details() -> None:
    web = GenericAdapter().parse(OWN / "web-export.json").sessions[0]
    assert web.models == ("claude-opus-4-1-20250805",)
    assert (web.started_at, web.ended_at) == ("2025-09-30T14:00:05.120Z", "2025-09-30T14:00:12.500Z")
    assert web.messages[-1].files == ("/repo/tests/test_retry.py",)
    chat = GenericAdapter().parse(OWN / "chatgpt-export.json").sessions[0]
    assert [m.text for m in chat.messages] == ["Regex for 2024-05-01?", "`\\d{4}-\\d{2}-\\d{2}`", "thanks"]
    assert chat.started_at == "2024-09-22T10:13:21.500Z"


def test_markdown_turns() -> None:
    s = GenericAdapter().parse(OWN / "headings.md").sessions[0]
    assert "User: this line is inside a fence" in s.messages[1].text
    prefixes = GenericAdapter().parse(OWN / "prefixes.txt").sessions[0]
    assert [m.text for m in prefixes.messages] == [
        "what's the difference between git reset --soft and --mixed?",
        "--soft moves HEAD only; --mixed (the default) also resets the index.\nBoth leave the working tree alone.",
        "and --hard?",
        "--hard also overwrites the working tree. Output: whatever HEAD had.",  # "Output:" mid-answer is prose
        "thanks!",
    ]


def test_smriti_context_is_split_out(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps([{"role": "user", "content": "<smriti-context n=1>old</smriti-context>\nnew question"}]))
    [context, prompt] = GenericAdapter().parse(path).sessions[0].messages
    assert (context.kind, context.text) == ("injected_context", "<smriti-context n=1>old</smriti-context>")
    assert (prompt.kind, prompt.text) == ("prompt", "new question")


def test_jsonl_resume(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    path.write_text('{"role": "user", "content": "one"}\n{"role": "assistant", "content": "two"}\n')
    adapter = GenericAdapter()
    first = adapter.parse(path)
    with open(path, "a") as fh:
        fh.write('{"role": "user", "content": "three"}\n')
    second = adapter.parse(path, first.resume)
    [s] = second.sessions
    assert [(m.key.split(":")[-1], m.text) for m in s.messages] == [("L3", "three")]
    assert s.native_id == first.sessions[0].native_id
    nothing = adapter.parse(path, second.resume)
    assert nothing.sessions == [] and nothing.errors == []


def test_nothing_recognisable_is_an_error(tmp_path: Path) -> None:
    prose = tmp_path / "notes.md"
    prose.write_text("# Notes\n\nJust some notes, no conversation.\n")
    assert GenericAdapter().parse(prose).errors == [
        Problem(
            str(prose),
            (
                "no conversation found: expected [{role, content}] messages, a {messages: [...]} object, JSONL with "
                "role/content per line, or markdown with role headers such as '## User' / '**Assistant**:' / 'User:'"
            ),
        )
    ]
    number = tmp_path / "n.json"
    number.write_text("42")
    assert GenericAdapter().parse(number).errors == [
        Problem(str(number), "no conversation found: the top level is a JSON int, not a list of messages")
    ]
    empty = tmp_path / "e.md"
    empty.write_text("")
    assert GenericAdapter().parse(empty).errors == [Problem(str(empty), "empty file: no conversation")]


def test_roots_discover_and_detect(tmp_path: Path) -> None:
    adapter = GenericAdapter()
    assert adapter.default_roots() == []
    shutil.copytree(OWN, tmp_path / "exports")
    (tmp_path / "exports" / "node_modules").mkdir()
    (tmp_path / "exports" / "node_modules" / "x.json").write_text("[]")
    (tmp_path / "exports" / "image.png").write_bytes(b"\x89PNG")
    assert [p.name for p in adapter.discover(tmp_path / "exports")] == sorted(EXPECTED)
    # generic is only used with --agent generic: it never claims a file.
    for path in [*OWN.iterdir(), SHARED / "claude-code" / "session-01.jsonl", tmp_path]:
        assert adapter.detect(path) is False


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=25,
)
record = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "system", "model", "x"]) | json_values},
    optional={
        "content": json_values,
        "tool_calls": json_values,
        "message": json_values,
        "type": json_values,
        "timestamp": json_values,
        "mapping": json_values,
        "parts": json_values,
    },
)
markdown = st.lists(
    st.sampled_from(["## User", "### Assistant:", "**user**: hi", "User: x", "> **User**", "```", "", "text"])
    | st.text(max_size=20),
    max_size=20,
).map("\n".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.lists(record | json_values, max_size=5)
    | st.dictionaries(st.sampled_from(["messages", "loglines", "mapping", "current_node"]), json_values)
    | json_values,
    text=markdown,
    raw=st.binary(max_size=200),
)
def test_garbage_never_raises(data: object, text: str, raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, content in (
            ("g.json", json.dumps(data).encode()),
            ("g.md", text.encode("utf-8", "surrogatepass")),
            ("g.jsonl", raw),
            ("g.txt", raw),
        ):
            path = Path(tmp) / name
            path.write_bytes(content)
            GenericAdapter().parse(path)
        lines = Path(tmp) / "h.jsonl"
        lines.write_text("\n".join(json.dumps(r) for r in (data if isinstance(data, list) else [data])) + "\n")
        GenericAdapter().parse(lines)
