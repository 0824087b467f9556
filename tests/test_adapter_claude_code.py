"""Tests for the Claude Code adapter.

The conformance table below was written by reading each shared fixture line by line (jq and a
small dump script), not by copying the adapter's output: every count has a justification.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from adapter_helpers import by_id, kinds
from conftest import SHARED_FIXTURES, claude_tree, invoke_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters import Adapter
from smriti.adapters.claude_code import ClaudeCodeAdapter
from smriti.models import Message, ParseResult, Problem, Session

SHARED = SHARED_FIXTURES / "claude-code"
OWN = Path(__file__).parent / "fixtures" / "claude-code"
ADAPTER = ClaudeCodeAdapter()

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not available")


def problems(items: list[Problem], path: Path) -> list[str]:
    """Problems about `path`, as "line: error" (or just "error" when not about one line)."""
    assert {p.path for p in items} <= {str(path)}
    return [p.error if p.line is None else f"{p.line}: {p.error}" for p in items]


def all_messages(result: ParseResult) -> list[Message]:
    return [m for s in result.sessions for m in s.messages]


# --- conformance over the shared fixtures --------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    sessions: dict[str, dict[str, int]]  # native_id → message count per kind
    parents: dict[str, str | None] = field(default_factory=dict)  # native_id → parent (default None)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


PARENT_ANON = "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"
EXPECTED: dict[str, Expect] = {
    # Parent of the anonymised trio: prompt, one assistant line with text + an id-less Task tool_use.
    "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl": Expect(
        {PARENT_ANON: {"prompt": 1, "response": 1, "tool_call": 1}},
    ),
    # Anonymised subagent: sessionId is "agent-<id>" and the file is not under <parent>/subagents/,
    # so the parent is unknown; prompt, text + bash tool_use, one isMeta tool_result (no ids).
    "agent-a0ad4f44468bdf20d.jsonl": Expect(
        {"agent-a0ad4f44468bdf20d": {"prompt": 1, "response": 1, "tool_call": 1, "tool_result": 1}},
    ),
    # Synthetic new-layout subagent without agentId lines: id from the file name; tool_use only.
    "agent-a1b2c3d4e5f6.jsonl": Expect(
        {"sess-parent-abc/agent-a1b2c3d4e5f6": {"prompt": 1, "tool_call": 1, "tool_result": 1}},
        parents={"sess-parent-abc/agent-a1b2c3d4e5f6": "sess-parent-abc"},
    ),
    # Real subagent: 15 assistant lines = 3 responses (all with text) + 12 WebSearch/WebFetch calls,
    # 12 results; the 12 progress lines are skipped.
    "agent-aac57f5.jsonl": Expect(
        {
            "ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5": {
                "prompt": 1,
                "response": 3,
                "tool_call": 12,
                "tool_result": 12,
            }
        },
        parents={"ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5": "ae4a77f8-aedd-4bc1-888f-c94edc91af04"},
    ),
    # Compaction helper: 3 isMeta <system-reminder> lines, the summarise instruction, one answer.
    "agent-acompact-e1f845.jsonl": Expect(
        {
            "4d5611e5-241a-462a-8d15-5122611a9569/agent-acompact-e1f845": {
                "injected_context": 3,
                "prompt": 1,
                "response": 1,
            }
        },
        parents={"4d5611e5-241a-462a-8d15-5122611a9569/agent-acompact-e1f845": "4d5611e5-241a-462a-8d15-5122611a9569"},
    ),
    # 6 assistant lines, 6 ids: 3 with text, 3 tool_use; the last Edit has no result line.
    "claude-code-with-plan.jsonl": Expect(
        {"test-session-plan": {"prompt": 1, "response": 3, "tool_call": 3, "tool_result": 2}},
    ),
    # 5 assistant lines = 2 responses (thinking + text each), one Edit and its result.
    "claude-code-with-thinking.jsonl": Expect(
        {"dac34307-159f-4fcd-9c21-35210246ad38": {"prompt": 1, "response": 2, "tool_call": 1, "tool_result": 1}},
    ),
    # One prompt, one answer; last-prompt and permission-mode are skipped silently.
    "claude-model-not-last.jsonl": Expect({"sess-1": {"prompt": 1, "response": 1}}),
    # Lines 1,3,12 prompts; 2,9 responses; 4,9 tool_use; 5 error result; 6,7,8 caveat/command/stdout.
    # Line 10 has "contenst", 11 a string message, 18 a bare-string block; 14 has no type; 13,15,16
    # are not objects. Line 17 belongs to another session (todowrite_session).
    "edge_cases.jsonl": Expect(
        {
            # edge_007, a slash command with arguments, is a prompt
            "edge_cases": {"prompt": 4, "response": 2, "tool_call": 2, "tool_result": 1, "injected_context": 2},
            "todowrite_session": {"tool_call": 1},
        },
        errors=[
            "13: line is a JSON string, not an object; skipped",
            "15: line is a JSON number, not an object; skipped",
            "16: line is a JSON array, not an object; skipped",
        ],
        warnings=[
            "10: user line has no message content; skipped",
            "11: user line has no message object; skipped",
            "18: user line has a content block that is a JSON string, not an object; skipped",
            "skipped 1 record with no type",
        ],
    ),
    # 23 assistant lines over 13 ids, 10 of them with text; 13 calls and results; final interrupt.
    "example-claude-code.jsonl": Expect(
        {
            "cb947e5b-246e-4253-a953-631f7e464c6b": {
                "prompt": 1,
                "response": 10,
                "tool_call": 13,
                "tool_result": 13,
                "injected_context": 1,
            }
        },
    ),
    # Old-layout warm-up subagent not named agent-*: every line isSidechain with agentId af1ff21.
    "sample_agent_sidechain.jsonl": Expect(
        {"c45af7b1-cb7c-4e51-93db-8cbb250a877a/agent-af1ff21": {"prompt": 1, "response": 1}},
        parents={"c45af7b1-cb7c-4e51-93db-8cbb250a877a/agent-af1ff21": "c45af7b1-cb7c-4e51-93db-8cbb250a877a"},
    ),
    # 28 assistant lines = 12 responses, 6 with text; 10 calls/results; 5 typed prompts; the
    # compaction summary; isMeta caveat, /compact command and its stdout are injected.
    "sample_main_transcript.jsonl": Expect(
        {
            "c45af7b1-cb7c-4e51-93db-8cbb250a877a": {
                "prompt": 5,
                "response": 6,
                "tool_call": 10,
                "tool_result": 10,
                "summary": 1,
                "injected_context": 3,
            }
        },
    ),
    # Minimal SDK session; queue-operations and last-prompt skipped.
    "session-01.jsonl": Expect({"06090cb1-3e64-433a-bc7e-a621c0f596d2": {"prompt": 1, "response": 1}}),
    # 5 assistant lines of one id ("\n\n", thinking, text, 2 tool_use): one response; two rejected
    # results; "[Request interrupted by user for tool use]".
    "short.jsonl": Expect(
        {
            "55604662-cf2a-4331-851a-ec234028f8ca": {
                "prompt": 1,
                "response": 1,
                "tool_call": 2,
                "tool_result": 2,
                "injected_context": 1,
            }
        },
    ),
    # Two prompts and a string-content assistant line; top-level tool_use/tool_result types are unknown.
    "stage0_schema_drift.jsonl": Expect(
        {"ses_stage0_drift": {"prompt": 2, "response": 1}},
        warnings=["skipped 1 record of unknown type 'tool_use'", "skipped 1 record of unknown type 'tool_result'"],
    ),
    # ses_stage0_small: "Hello"; responses a1, a2, a3, msg_stage0_1; tool_use in a1 (no id) and
    # msg_stage0_1; results u2, u2b, u-nested-1; compact summary u3. The trimmed session repeats
    # uuid "[trimmed for fixture]" on every line: only its first line (a <synthetic> text reply) is
    # read, the rest are replays of that uuid. "stage0-session" has only state records.
    "stage0_small.jsonl": Expect(
        {
            "ses_stage0_small": {"prompt": 1, "response": 4, "tool_call": 2, "tool_result": 3, "summary": 1},
            "[trimmed for fixture]": {"response": 1},
        },
    ),
    # 28 assistant lines over 12 ids, 7 with non-blank text; 16 calls/results; the only typed
    # prompt is "create the beads"; slash command, isMeta skill text and an interrupt are injected.
    # The 19 agent_progress copies of subagent messages are not counted.
    "subagent.jsonl": Expect(
        {
            "491e126e-1e71-469c-ade2-fcc8af567c74": {
                "prompt": 2,  # line 4: /handgemacht:create-beads with its arguments
                "response": 7,
                "tool_call": 16,
                "tool_result": 16,
                "injected_context": 2,
            }
        },
    ),
    "todowrite_examples.jsonl": Expect(
        {"todowrite_session": {"prompt": 2, "response": 3, "tool_call": 3, "tool_result": 3}},
    ),
    # 9 assistant lines over 4 ids, only msg_01NUX has non-blank text; 6 calls/results; two
    # interrupts, the local-command caveat, /mcp and its stdout are injected.
    "tool_heavy.jsonl": Expect(
        {
            "d6e0bada-1959-4eec-a9d2-0bfade768d8f": {
                "prompt": 2,
                "response": 1,
                "tool_call": 6,
                "tool_result": 6,
                "injected_context": 5,
            }
        },
    ),
}


@needs_shared
def test_table_covers_every_shared_fixture() -> None:
    assert sorted(p.name for p in SHARED.glob("*.jsonl")) == sorted(EXPECTED)


@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shared_fixture_conformance(name: str) -> None:
    path = SHARED / name
    expect = EXPECTED[name]
    result = ADAPTER.parse(path)
    assert {s.native_id: kinds(s) for s in result.sessions} == expect.sessions
    for session in result.sessions:
        assert session.agent == "claude-code"
        assert session.parent_native_id == expect.parents.get(session.native_id)
        assert session.source_paths == (str(path),)
        assert session.project is None
        if session.parent_native_id is not None or session.native_id.startswith("agent-"):
            assert all(m.sidechain for m in session.messages)
        keys = [m.key for m in session.messages]
        assert len(keys) == len(set(keys))
    assert problems(result.errors, path) == expect.errors
    assert problems(result.warnings, path) == expect.warnings
    json.dumps(result.resume)  # the resume point must be JSON


@needs_shared
def test_whole_shared_folder_never_raises() -> None:
    for path in [*sorted(SHARED.iterdir()), SHARED]:
        result = ADAPTER.parse(path)
        assert isinstance(result, ParseResult)
    assert problems(ADAPTER.parse(SHARED).errors, SHARED) == ["is a directory, not a transcript file"]


@needs_shared
def test_sample_main_transcript_details() -> None:
    path = SHARED / "sample_main_transcript.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assistant_lines = [r for r in lines if r["type"] == "assistant"]
    assert len(assistant_lines) == 28
    assert len({r["message"]["id"] for r in assistant_lines}) == 12

    (session,) = ADAPTER.parse(path).sessions
    responses = [m for m in session.messages if m.kind == "response"]
    # Only the 6 ids with a text block become responses; the other 6 are thinking + tool_use.
    assert len(responses) == 6
    assert {m.key for m in responses} < {r["message"]["id"] for r in assistant_lines}
    prompts = [m.text.strip() for m in session.messages if m.kind == "prompt"]
    assert prompts == [
        "can you run a command ls -la",
        "ok can you create a hello_world.py file and add a minimal code in it?",
        "can you read it back with Read tool?",
        "can you run `cat nonexistent.txt`",
        "do something requiring multiple tools in one turn,",
    ]
    results = [m for m in session.messages if m.kind == "tool_result"]
    calls = {m.key: m.tool_name for m in session.messages if m.kind == "tool_call"}
    assert all(m.tool_name == calls[m.key.removeprefix("result:")] for m in results)
    assert sum(m.text.startswith("[error] ") for m in results) == 2  # lines 30 and 48
    (summary,) = [m for m in session.messages if m.kind == "summary"]
    assert summary.role == "system" and summary.text.startswith("This session is being continued")
    # The response of msg_013yJ… takes the timestamp of its first (thinking) line.
    first = next(m for m in responses if m.key == "msg_013yJNBshX4h4S46vbC3HzWy")
    assert first.timestamp == "2026-01-02T19:18:37.514Z"
    assert session.models == ("claude-haiku-4-5-20251001",)
    assert session.cwd == "/workspace" and session.git_branch is None  # gitBranch is "" throughout
    assert (session.started_at, session.ended_at) == ("2026-01-02T19:18:31.028Z", "2026-01-02T19:21:02.108Z")
    write = next(m for m in session.messages if m.key == "toolu_01HaquTrAhq2raBg86UfK1s6")
    assert write.text == "Write: /workspace/hello_world.py"
    assert write.files == ("/workspace/hello_world.py",)
    assert write.tool_input["content"].startswith("print(")


@needs_shared
def test_shared_titles_and_session_facts() -> None:
    def one(name: str, native_id: str | None = None) -> Session:
        sessions = by_id(ADAPTER.parse(SHARED / name))
        return sessions[native_id] if native_id else next(iter(sessions.values()))

    assert one("claude-code-with-thinking.jsonl").title == "Add Hello World Header Comment to index.ts"
    assert one("todowrite_examples.jsonl").title == "Feature Implementation with Task Management"
    assert str(one("edge_cases.jsonl", "edge_cases").title).startswith("Tested various edge cases")
    small = one("stage0_small.jsonl", "ses_stage0_small")
    # custom-title beats ai-title beats summary
    assert small.title == "Stage0 small fixture"
    assert small.models == ("claude-opus-5",)
    # Inline sidechain lines stay in the main session, flagged.
    assert [m.key for m in small.messages if m.sidechain][:2] == ["u1", "a1"]
    assert not any(m.sidechain for m in small.messages if m.key == "msg_stage0_1")
    trimmed = one("stage0_small.jsonl", "[trimmed for fixture]")
    assert trimmed.models == ()  # its only read line is model <synthetic>
    assert one("session-01.jsonl").git_branch == "HEAD"  # kept as written
    sub = one("agent-a0ad4f44468bdf20d.jsonl")
    assert sub.extra == {"agent_type": "general-purpose"}
    assert one("agent-a1b2c3d4e5f6.jsonl").models == ("claude-sonnet-4",)


@needs_shared
def test_edge_cases_messages() -> None:
    sessions = by_id(ADAPTER.parse(SHARED / "edge_cases.jsonl"))
    edge = sessions["edge_cases"]
    assert [m.key for m in edge.messages] == [
        "edge_001",
        "edge_002",
        "edge_003",
        "tool_edge_001",
        "result:tool_edge_001",
        "edge_006",
        "edge_007",
        "edge_008",
        "edge_009",
        "tool_edge_002",
        "edge_011",
    ]
    result = next(m for m in edge.messages if m.key == "result:tool_edge_001")
    assert result.tool_name == "FailingTool"
    assert result.text == "[error] Error: Tool execution failed with error: Command not found"
    special = edge.messages[-1]
    assert "中文" in special.text and "العربية" in special.text and "🚀" in special.text
    multi = next(m for m in edge.messages if m.key == "tool_edge_002")
    assert multi.files == ("/tmp/complex_example.py",) and multi.text == "MultiEdit: /tmp/complex_example.py"


# --- own fixtures --------------------------------------------------------------------------------


def test_resumed_session_replays_keys_identically() -> None:
    first = ADAPTER.parse(OWN / "resumed" / "11111111-1111-4111-8111-111111111111.jsonl")
    second = ADAPTER.parse(OWN / "resumed" / "22222222-2222-4222-8222-222222222222.jsonl")
    (a,) = first.sessions
    (b,) = second.sessions
    assert a.native_id != b.native_id
    replayed = {m.key: m for m in b.messages}
    assert [m.key for m in a.messages] == [m.key for m in b.messages][: len(a.messages)]
    for message in a.messages:
        assert replayed[message.key] == message  # identical: the store keeps the first copy
    assert [m.kind for m in b.messages[len(a.messages) :]] == ["prompt", "response"]
    assert a.title == "Login test failure" and b.title == "Fix the login test"
    assert b.started_at == a.started_at and b.ended_at == "2026-03-02T10:00:03.000Z"


def test_discover_orders_by_mtime_then_path(tmp_path: Path) -> None:
    """The older file first, whatever its name: the original is ingested before its resumed copy."""
    shutil.copytree(OWN / "resumed", tmp_path / "proj")
    original, resumed = sorted((tmp_path / "proj").glob("*.jsonl"))
    os.utime(original, (1_700_000_100, 1_700_000_100))
    os.utime(resumed, (1_700_000_200, 1_700_000_200))
    assert list(ADAPTER.discover(tmp_path)) == [original, resumed]
    os.utime(original, (1_700_000_300, 1_700_000_300))
    assert list(ADAPTER.discover(tmp_path)) == [resumed, original]
    os.utime(resumed, (1_700_000_300, 1_700_000_300))  # a tie: path order
    assert list(ADAPTER.discover(tmp_path)) == [original, resumed]


def test_spilled_tool_result_is_read_from_tool_results() -> None:
    path = OWN / "spill" / "33333333-3333-4333-8333-333333333333.jsonl"
    (session,) = ADAPTER.parse(path).sessions
    results = {m.key: m for m in session.messages if m.kind == "tool_result"}
    spill = path.parent / path.stem / "tool-results" / "toolu_01SpillBig.txt"
    assert results["result:toolu_01SpillBig"].text == spill.read_text(encoding="utf-8")
    assert results["result:toolu_01SpillBig"].tool_name == "Bash"
    # No spill file: the preview wrapper is kept.
    assert results["result:toolu_01SpillGone"].text.startswith("<persisted-output>")


def test_spill_is_capped(tmp_path: Path) -> None:
    src = OWN / "spill"
    shutil.copytree(src, tmp_path / "spill")
    spill = tmp_path / "spill" / "33333333-3333-4333-8333-333333333333" / "tool-results" / "toolu_01SpillBig.txt"
    spill.write_text("x" * 250_000, encoding="utf-8")
    (session,) = ADAPTER.parse(tmp_path / "spill" / "33333333-3333-4333-8333-333333333333.jsonl").sessions
    big = next(m for m in session.messages if m.key == "result:toolu_01SpillBig")
    assert big.text == "x" * 200_000


def test_new_layout_subagent_with_meta() -> None:
    root = OWN / "subagents"
    parent_id = "44444444-4444-4444-8444-444444444444"
    sub_path = root / parent_id / "subagents" / "agent-a5f3c2e1b0d9e8f7a.jsonl"
    (sub,) = ADAPTER.parse(sub_path).sessions
    assert sub.native_id == f"{parent_id}/agent-a5f3c2e1b0d9e8f7a"
    assert sub.parent_native_id == parent_id
    assert sub.extra == {"agent_type": "Explore"}
    assert all(m.sidechain for m in sub.messages)
    assert kinds(sub) == {"prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1}
    grep = next(m for m in sub.messages if m.kind == "tool_call")
    assert grep.files == ("/home/dev/app",)
    # Anonymised shape: sessionId "agent-anon01"; the parent comes from the folder.
    (anon,) = ADAPTER.parse(sub_path.with_name("agent-anon01.jsonl")).sessions
    assert anon.native_id == f"{parent_id}/agent-anon01"
    assert anon.parent_native_id == parent_id
    (parent,) = ADAPTER.parse(root / f"{parent_id}.jsonl").sessions
    assert parent.parent_native_id is None
    assert not any(m.sidechain for m in parent.messages)
    task = next(m for m in parent.messages if m.kind == "tool_call")
    assert (task.tool_name, task.text) == ("Task", "Task: Find cookie code")


def test_smriti_context_is_split_from_the_prompt() -> None:
    (session,) = ADAPTER.parse(OWN / "smriti_context.jsonl").sessions
    got = [(m.kind, m.key) for m in session.messages]
    assert got == [
        ("injected_context", "g0000001-0000-4000-8000-000000000001:ctx"),
        ("prompt", "g0000001-0000-4000-8000-000000000001"),
        ("response", "msg_01Ctx00000000000000000A"),
        ("injected_context", "g0000003-0000-4000-8000-000000000003"),  # only the block: no :ctx
        ("injected_context", "g0000004-0000-4000-8000-000000000004:ctx"),
        ("prompt", "g0000004-0000-4000-8000-000000000004"),
    ]
    texts = {m.key: m.text for m in session.messages}
    assert texts["g0000001-0000-4000-8000-000000000001"] == "The login test is flaky again, can you look?"
    assert texts["g0000001-0000-4000-8000-000000000001:ctx"].startswith("<smriti-context")
    assert texts["g0000001-0000-4000-8000-000000000001:ctx"].endswith("</smriti-context>")
    # An IDE notice in its own block is context; the typed block and the image stay the prompt.
    assert texts["g0000004-0000-4000-8000-000000000004"] == "Use a fixture for the user instead\n\n[image]"
    assert "iVBOR" not in "".join(texts.values())  # never base64
    assert not any(m.indexed for m in session.messages if m.kind == "injected_context")


@pytest.mark.parametrize(("age", "where"), [(0, "warnings"), (3600, "errors")])
def test_torn_last_line(tmp_path: Path, age: int, where: str) -> None:
    path = tmp_path / "torn.jsonl"
    shutil.copy(OWN / "torn.jsonl", path)
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))
    result = ADAPTER.parse(path)
    (session,) = result.sessions
    assert kinds(session) == {"prompt": 1, "response": 1}
    reported = problems(getattr(result, where), path)
    assert len(reported) == 1 and reported[0].startswith("3: last line is")
    # The torn line is left unread: the resume point stops before it.
    assert result.resume["offset"] == len(path.read_bytes().rsplit(b"\n", 1)[0]) + 1


# --- resume --------------------------------------------------------------------------------------

SID = "77777777-7777-4777-8777-777777777777"


def rec(kind: str, uuid: str, ts: str | int, **fields: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "uuid": uuid,
        "sessionId": SID,
        "cwd": "/srv/app",
        "gitBranch": "dev",
        "timestamp": ts,
        **fields,
    }


def prompt(uuid: str, ts: str | int, text: str) -> dict[str, Any]:
    return rec("user", uuid, ts, message={"role": "user", "content": text})


def assistant(
    uuid: str, ts: str | int, msg_id: str, *blocks: dict[str, Any], model: str = "claude-opus-4-6"
) -> dict[str, Any]:
    return rec(
        "assistant", uuid, ts, message={"id": msg_id, "role": "assistant", "model": model, "content": list(blocks)}
    )


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(tool_id: str, name: str, **tool_input: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}


def tool_result(uuid: str, ts: str, tool_id: str, content: Any, is_error: bool = False) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": tool_id, "content": content, "is_error": is_error}
    return rec("user", uuid, ts, message={"role": "user", "content": [block]})


def write_lines(path: Path, records: list[Any], mode: str = "w") -> None:
    with open(path, mode, encoding="utf-8") as fh:
        fh.writelines((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


FIRST_PART = [
    prompt("u1", "2026-04-01T10:00:00Z", "Deploy the staging branch"),
    assistant("a1", "2026-04-01T10:00:01Z", "msg_A", {"type": "thinking", "thinking": "plan", "signature": "s"}),
    assistant("a2", "2026-04-01T10:00:02Z", "msg_A", tool_use("toolu_early", "Bash", command="make build")),
    assistant("a3", "2026-04-01T10:00:03Z", "msg_A", text("Building first.")),
]


def test_resume_returns_only_new_messages(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl"
    write_lines(path, FIRST_PART)
    first = ADAPTER.parse(path)
    (s1,) = first.sessions
    assert [(m.kind, m.key) for m in s1.messages] == [
        ("prompt", "u1"),
        ("response", "msg_A"),
        ("tool_call", "toolu_early"),
    ]
    assert json.loads(json.dumps(first.resume)) == first.resume

    write_lines(
        path,
        [
            assistant(
                "a4",
                "2026-04-01T10:00:04Z",
                "msg_A",
                text("Then deploying."),
                tool_use("toolu_late", "Bash", command="make deploy"),
            ),
            tool_result("u2", "2026-04-01T10:00:05Z", "toolu_early", "built ok"),
            tool_result("u3", "2026-04-01T10:00:06Z", "toolu_late", [text("deploy failed: no creds")], is_error=True),
            assistant(
                "a5", "2026-04-01T10:00:07Z", "msg_B", text("The deploy needs credentials."), model="claude-sonnet-4-5"
            ),
        ],
        mode="a",
    )
    second = ADAPTER.parse(path, first.resume)
    (s2,) = second.sessions
    assert s2.native_id == SID
    assert [(m.kind, m.key, m.tool_name) for m in s2.messages] == [
        ("response", "msg_A", None),
        ("tool_call", "toolu_late", "Bash"),
        ("tool_result", "result:toolu_early", "Bash"),  # its call was in the first part
        ("tool_result", "result:toolu_late", "Bash"),
        ("response", "msg_B", None),
    ]
    merged = s2.messages[0]
    # The split response is re-emitted whole, under the same key and first-line timestamp.
    assert merged.text == "Building first.\n\nThen deploying."
    assert merged.timestamp == "2026-04-01T10:00:01.000Z"
    assert s2.messages[3].text == "[error] deploy failed: no creds"
    assert (s2.started_at, s2.ended_at) == ("2026-04-01T10:00:00.000Z", "2026-04-01T10:00:07.000Z")
    assert s2.models == ("claude-opus-4-6", "claude-sonnet-4-5")
    assert (s2.cwd, s2.git_branch) == ("/srv/app", "dev")

    # Nothing appended: nothing to return, same resume point.
    third = ADAPTER.parse(path, second.resume)
    assert third.sessions == [] and third.errors == []
    assert third.resume["offset"] == second.resume["offset"]

    # Only a title appended: the session comes back, without messages, with the new title.
    write_lines(path, [{"type": "custom-title", "customTitle": "Staging deploy", "sessionId": SID}], mode="a")
    fourth = ADAPTER.parse(path, third.resume)
    (s4,) = fourth.sessions
    assert s4.messages == () and s4.title == "Staging deploy"
    assert s4.ended_at == "2026-04-01T10:00:07.000Z"

    # A state record that changes nothing: no session.
    write_lines(path, [{"type": "permission-mode", "permissionMode": "default", "sessionId": SID}], mode="a")
    assert ADAPTER.parse(path, fourth.resume).sessions == []


def test_resume_matches_a_full_parse(tmp_path: Path) -> None:
    """Parsing in two steps yields, after merging by key, what one full parse yields."""
    path = tmp_path / f"{SID}.jsonl"
    write_lines(path, FIRST_PART)
    first = ADAPTER.parse(path)
    write_lines(
        path,
        [
            assistant("a4", "2026-04-01T10:00:04Z", "msg_A", text("Then deploying.")),
            tool_result("u2", "2026-04-01T10:00:05Z", "toolu_early", "built ok"),
        ],
        mode="a",
    )
    second = ADAPTER.parse(path, first.resume)
    merged = {m.key: m for r in (first, second) for m in all_messages(r)}
    full = {m.key: m for m in all_messages(ADAPTER.parse(path))}
    assert merged == full


def test_rewritten_file_restarts_from_scratch(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl"
    write_lines(path, FIRST_PART)
    first = ADAPTER.parse(path)
    data = path.read_bytes().replace(b"Deploy the staging branch", b"Deploy the release branch")
    path.write_bytes(data)  # same length, earlier bytes changed: not an append
    again = ADAPTER.parse(path, first.resume)
    (session,) = again.sessions
    assert [m.key for m in session.messages] == ["u1", "msg_A", "toolu_early"]
    assert session.messages[0].text == "Deploy the release branch"


@pytest.mark.parametrize(
    "resume",
    [
        "not a dict",
        {"offset": "x"},
        {"offset": 10**9, "tail": "nope"},
    ],
)
def test_unusable_resume_points_mean_a_full_parse(tmp_path: Path, resume: Any) -> None:
    path = tmp_path / f"{SID}.jsonl"
    write_lines(path, FIRST_PART)
    (session,) = ADAPTER.parse(path, resume).sessions
    assert len(session.messages) == 3


def test_damaged_resume_state_does_not_raise(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl"
    write_lines(path, FIRST_PART)
    point = dict(ADAPTER.parse(path).resume)
    point.update(sessions={SID: "junk", "x": {"models": 5, "titles": []}}, tool_names=[1], last_response={"key": 3})
    write_lines(path, [tool_result("u2", "2026-04-01T10:00:05Z", "toolu_early", "ok")], mode="a")
    (session,) = ADAPTER.parse(path, point).sessions
    assert [(m.key, m.tool_name) for m in session.messages] == [("result:toolu_early", None)]


# --- parsing rules on small inline transcripts ----------------------------------------------------


def parse_lines(tmp_path: Path, records: list[Any], name: str = f"{SID}.jsonl") -> ParseResult:
    path = tmp_path / name
    write_lines(path, records)
    return ADAPTER.parse(path)


def test_injected_text_and_interrupts(tmp_path: Path) -> None:
    injected = [
        "<command-name>/clear</command-name>",
        "<command-message>x</command-message>",
        "<local-command-stdout>ok</local-command-stdout>",
        "<local-command-caveat>Caveat</local-command-caveat>",
        "Caveat: The messages below were generated by the user",
        "<bash-input>ls</bash-input>",
        "<bash-stdout>a</bash-stdout>",
        "<bash-stderr>b</bash-stderr>",
        "  \n<system-reminder>r</system-reminder>",
        "<task-notification>done</task-notification>",
        "<ide_opened_file>f</ide_opened_file>",
        "<ide_selection>s</ide_selection>",
        "<user-memory-input>m</user-memory-input>",
        "<environment_context>e</environment_context>",
        "<user_instructions>i</user_instructions>",
        "[Request interrupted by user]",
        "[Request interrupted by user for tool use]",
    ]
    records = [prompt(f"i{n}", "2026-04-01T10:00:00Z", t) for n, t in enumerate(injected)]
    records.append(
        rec("user", "meta", "2026-04-01T10:00:00Z", isMeta=True, message={"role": "user", "content": "Skill text"})
    )
    records.append(prompt("typed", "2026-04-01T10:00:00Z", "mention <system-reminder> later is still a prompt"))
    (session,) = parse_lines(tmp_path, records).sessions
    assert [m.kind for m in session.messages] == ["injected_context"] * (len(injected) + 1) + ["prompt"]
    assert all(m.role == "user" for m in session.messages)


def test_assistant_rules(tmp_path: Path) -> None:
    records = [
        prompt("u1", "2026-04-01T10:00:00+00:00", "go"),
        assistant(
            "a1", "2026-04-01T12:00:01+02:00", "msg_1", text("  \n\n"), {"type": "redacted_thinking", "data": "x"}
        ),
        assistant("a2", 1775037602000, "msg_1", text("one"), {"type": "server_tool_use", "id": "s1"}),
        assistant(
            "a3",
            "2026-04-01T10:00:03Z",
            "msg_1",
            text("two"),
            tool_use("t1", "Edit", file_path="/a/b.py", old_string="x"),
            tool_use("t2", "MultiEdit", edits=[{"file_path": "/a/c.py"}, {"file_path": "https://x"}]),
            tool_use("t3", "Custom", alpha=1, beta="x" * 600),
        ),
        rec(
            "assistant",
            "a4",
            "2026-04-01T10:00:04Z",
            isApiErrorMessage=True,
            message={"id": "msg_2", "model": "<synthetic>", "content": [text("API Error: overloaded")]},
        ),
        rec("assistant", "a5", "2026-04-01T10:00:05Z", message={"model": "claude-x", "content": [text("no id")]}),
    ]
    result = parse_lines(tmp_path, records)
    (session,) = result.sessions
    msgs = {m.key: m for m in session.messages}
    assert [m.key for m in session.messages] == ["u1", "msg_1", "t1", "t2", "t3", "msg_2", "a5"]
    assert msgs["msg_1"].text == "one\n\ntwo"
    assert msgs["msg_1"].timestamp == "2026-04-01T10:00:01.000Z"  # +02:00 normalised to UTC
    assert msgs["u1"].timestamp == "2026-04-01T10:00:00.000Z"
    assert msgs["t1"].text == "Edit: /a/b.py" and msgs["t1"].files == ("/a/b.py",)
    assert msgs["t2"].files == ("/a/c.py",)
    assert (
        msgs["t3"].text.startswith('Custom: {"alpha":1,"beta":"xxx') and len(msgs["t3"].text) == len("Custom: ") + 500
    )
    assert msgs["msg_2"].text == "API Error: overloaded" and msgs["msg_2"].kind == "response"
    assert msgs["a5"].text == "no id"
    assert session.models == ("claude-opus-4-6", "claude-x")  # <synthetic> excluded
    assert problems(result.warnings, tmp_path / f"{SID}.jsonl") == [
        "skipped 1 content block of unknown type 'server_tool_use'"
    ]


def test_epoch_timestamps(tmp_path: Path) -> None:
    (session,) = parse_lines(
        tmp_path,
        [
            prompt("u1", 1775037600000, "ms"),
            prompt("u2", 1775037601, "seconds"),
            prompt("u3", "garbage", "none"),
        ],
    ).sessions
    assert [m.timestamp for m in session.messages] == ["2026-04-01T10:00:00.000Z", "2026-04-01T10:00:01.000Z", None]


def test_tool_result_shapes(tmp_path: Path) -> None:
    records = [
        assistant("a1", "2026-04-01T10:00:00Z", "msg_1", tool_use("t1", "Read", file_path="/x.png")),
        tool_result(
            "u1", "2026-04-01T10:00:01Z", "t1", [text("caption"), {"type": "image", "source": {"data": "AAAA"}}]
        ),
        tool_result("u2", "2026-04-01T10:00:02Z", "t-unknown", None),
        rec(
            "user",
            "u3",
            "2026-04-01T10:00:03Z",
            message={
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t9", "content": "r"}, text("typed alongside")],
            },
        ),
    ]
    (session,) = parse_lines(tmp_path, records).sessions
    msgs = {m.key: m for m in session.messages}
    assert msgs["result:t1"].text == "caption\n[image]" and msgs["result:t1"].tool_name == "Read"
    assert msgs["result:t1"].role == "tool"
    assert msgs["result:t-unknown"].text == "" and msgs["result:t-unknown"].tool_name is None
    assert msgs["u3"].kind == "prompt" and msgs["u3"].text == "typed alongside"


def test_replayed_uuid_is_read_once(tmp_path: Path) -> None:
    line = assistant("a1", "2026-04-01T10:00:00Z", "msg_1", text("hello"))
    (session,) = parse_lines(tmp_path, [prompt("u1", "2026-04-01T10:00:00Z", "hi"), line, line]).sessions
    assert [(m.key, m.text) for m in session.messages] == [("u1", "hi"), ("msg_1", "hello")]


def test_unknown_types_counted_once_per_type(tmp_path: Path) -> None:
    records = [prompt("u1", "2026-04-01T10:00:00Z", "hi"), {"type": "weird"}, {"type": "weird"}, {"type": 5}, {"x": 1}]
    result = parse_lines(tmp_path, records)
    assert problems(result.warnings, tmp_path / f"{SID}.jsonl") == [
        "skipped 2 records of unknown type 'weird'",
        "skipped 1 record of unknown type 5",
        "skipped 1 record with no type",
    ]


def test_records_without_messages_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / f"{SID}.jsonl"
    result = parse_lines(
        tmp_path, [assistant("a1", "2026-04-01T10:00:00Z", "msg_1", {"type": "thinking", "thinking": "hm"})]
    )
    assert result.sessions == []
    assert problems(result.errors, path) == ["found 1 records but no messages: the format may have changed"]


def test_subagent_recognised_by_lines(tmp_path: Path) -> None:
    side = {"isSidechain": True, "agentId": "beef123"}
    result = parse_lines(
        tmp_path,
        [
            {**prompt("u1", "2026-04-01T10:00:00Z", "Warmup"), **side},
            {**assistant("a1", "2026-04-01T10:00:01Z", "msg_1", text("ok")), **side},
        ],
        name="whatever.jsonl",
    )
    (session,) = result.sessions
    assert session.native_id == f"{SID}/agent-beef123" and session.parent_native_id == SID
    assert all(m.sidechain for m in session.messages)


def test_missing_session_id_falls_back_to_file_name(tmp_path: Path) -> None:
    line = {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}}
    (session,) = parse_lines(tmp_path, [line], name="abc.jsonl").sessions
    assert session.native_id == "abc"


def test_parse_errors_pass_through(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_bytes(b"")
    (tmp_path / "dir.jsonl").mkdir()
    (tmp_path / "bad.jsonl").write_bytes(b'{"type": "user", \n\xff\xfe\n')
    assert problems(ADAPTER.parse(tmp_path / "empty.jsonl").errors, tmp_path / "empty.jsonl") == [
        "empty file: no records"
    ]
    assert problems(ADAPTER.parse(tmp_path / "dir.jsonl").errors, tmp_path / "dir.jsonl") == [
        "is a directory, not a transcript file"
    ]
    errors = problems(ADAPTER.parse(tmp_path / "bad.jsonl").errors, tmp_path / "bad.jsonl")
    assert errors[0].startswith("1: malformed JSON") and errors[1].startswith("2: invalid UTF-8")
    assert ADAPTER.parse(tmp_path / "missing.jsonl").errors


# --- discovery and roots -------------------------------------------------------------------------


def test_discover_layouts(tmp_path: Path) -> None:
    files = [
        "proj/s1.jsonl",
        "proj/agent-abc1234.jsonl",
        "proj/s1/subagents/agent-a1.jsonl",
        "proj/s1/subagents/workflows/run1/journal.jsonl",
        "proj/s1/tool-results/toolu_1.jsonl",
        "proj/s1/subagents/agent-a1.meta.json",
        "proj/notes.txt",
    ]
    for n, rel in enumerate(files):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("{}\n")
        os.utime(p, (1_700_000_000 + n, 1_700_000_000 + n))
    (tmp_path / "proj" / "odd.jsonl").mkdir()
    os.utime(tmp_path / "proj" / "odd.jsonl", (1_600_000_000, 1_600_000_000))
    found = [p.relative_to(tmp_path).as_posix() for p in ADAPTER.discover(tmp_path)]
    assert found == ["proj/odd.jsonl", "proj/s1.jsonl", "proj/agent-abc1234.jsonl", "proj/s1/subagents/agent-a1.jsonl"]
    assert list(ADAPTER.discover(tmp_path / "proj" / "s1.jsonl")) == [tmp_path / "proj" / "s1.jsonl"]
    assert list(ADAPTER.discover(tmp_path / "nowhere")) == []


def test_default_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    for d in ("home/.claude/projects", "home/.config/claude/projects", "cfg1/projects", "cfg2"):
        (tmp_path / d).mkdir(parents=True)
    (home / "alt" / "projects").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", f"{tmp_path / 'cfg1'}, {tmp_path / 'cfg2'},~/alt,{home / '.claude'}")
    assert ADAPTER.default_roots() == [
        tmp_path / "cfg1" / "projects",
        home / "alt" / "projects",
        home / ".claude" / "projects",
        home / ".config" / "claude" / "projects",
    ]
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "nobody"))
    assert ADAPTER.default_roots() == []


def test_detect(tmp_path: Path) -> None:
    assert ADAPTER.detect(OWN / "resumed")
    assert ADAPTER.detect(OWN / "torn.jsonl")
    codex = tmp_path / "rollout.jsonl"
    codex.write_text('{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}\n')
    assert not ADAPTER.detect(codex)
    assert not ADAPTER.detect(tmp_path / "missing")


def test_conforms_to_the_adapter_protocol() -> None:
    assert isinstance(ADAPTER, Adapter)
    assert ADAPTER.name == "claude-code"


# --- robustness ----------------------------------------------------------------------------------

VALID = [
    prompt("valid-u1", "2026-04-01T10:00:00Z", "first real prompt"),
    assistant(
        "valid-a1",
        "2026-04-01T10:00:01Z",
        "valid-msg",
        text("a real answer"),
        tool_use("valid-tool", "Bash", command="ls"),
    ),
    tool_result("valid-u2", "2026-04-01T10:00:02Z", "valid-tool", "a.txt"),
    prompt("valid-u3", "2026-04-01T10:00:03Z", "second real prompt"),
]
VALID_KEYS = {"valid-u1", "valid-msg", "valid-tool", "result:valid-tool", "valid-u3"}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# Records shaped like transcript lines, with wrong types in the places the parser reads.
field_values = json_values | st.sampled_from(
    ["user", "assistant", "text", "tool_use", "tool_result", "image", "u1", "t1", "<synthetic>"]
)
blocks = st.dictionaries(
    st.sampled_from(["type", "text", "id", "name", "input", "tool_use_id", "content", "is_error", "source"]),
    field_values,
    max_size=6,
)
near_records = st.fixed_dictionaries(
    {"type": st.sampled_from(["user", "assistant", "summary", "custom-title", "system", "mystery"]) | json_values},
    optional={
        "uuid": field_values,
        "sessionId": field_values,
        "timestamp": field_values | st.floats(allow_nan=True),
        "isSidechain": field_values,
        "agentId": field_values,
        "isMeta": field_values,
        "isCompactSummary": field_values,
        "leafUuid": field_values,
        "summary": field_values,
        "customTitle": field_values,
        "cwd": field_values,
        "message": st.fixed_dictionaries(
            {},
            optional={
                "id": field_values,
                "model": field_values,
                "content": st.lists(blocks | json_values, max_size=4) | field_values,
            },
        )
        | json_values,
    },
)
garbage_line = (
    st.binary(max_size=60).map(lambda b: b.replace(b"\n", b" "))
    | json_values.map(lambda v: json.dumps(v).encode())
    | near_records.map(lambda v: json.dumps(v).encode())
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(noise=st.lists(st.lists(garbage_line, max_size=3), min_size=len(VALID) + 1, max_size=len(VALID) + 1))
def test_garbage_never_raises_and_valid_lines_survive(noise: list[list[bytes]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{SID}.jsonl"
        chunks: list[bytes] = []
        for garbage, valid in zip(noise, [*VALID, None], strict=True):
            chunks += garbage
            if valid is not None:
                chunks.append(json.dumps(valid).encode())
        path.write_bytes(b"\n".join(chunks) + b"\n")
        result = ADAPTER.parse(path)
        keys = {m.key for m in all_messages(result)}
        assert keys >= VALID_KEYS
        json.dumps(result.resume)
        # Read in two steps, split at a line boundary: nothing raises, nothing valid is lost.
        path.write_bytes(b"\n".join(chunks[: len(chunks) // 2]) + b"\n")
        head = ADAPTER.parse(path)
        path.write_bytes(b"\n".join(chunks) + b"\n")
        tail = ADAPTER.parse(path, head.resume)
        assert {m.key for m in all_messages(head) + all_messages(tail)} >= VALID_KEYS


def test_unread_keys_are_dropped_as_lines_are_parsed(tmp_path: Path) -> None:
    """`toolUseResult` (a copy of every tool output) is never read: the reader drops it, and the
    messages are the same as when it is kept."""
    from smriti.adapters._jsonl import read_jsonl
    from smriti.adapters.claude_code import UNREAD_KEYS

    lines = [
        {
            "type": "user",
            "uuid": "u1",
            "sessionId": "s1",
            "message": {"role": "user", "content": "run the tests"},
            "timestamp": "2026-11-01T10:00:00Z",
            "cwd": "/w",
        },
        {
            "type": "user",
            "uuid": "u2",
            "sessionId": "s1",
            "timestamp": "2026-11-01T10:00:02Z",
            "cwd": "/w",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "3 passed"}],
            },
            "toolUseResult": {"stdout": "3 passed" * 1000, "stderr": ""},
        },
    ]
    path = tmp_path / "s1.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    slim = read_jsonl(path, drop_keys=UNREAD_KEYS)
    assert all("toolUseResult" not in rec for _, rec in slim.records)
    assert [rec["uuid"] for _, rec in slim.records] == ["u1", "u2"]
    assert "toolUseResult" in read_jsonl(path).records[1][1]  # other readers still see it
    parsed = ClaudeCodeAdapter().parse(path)
    assert [(m.kind, m.text) for m in parsed.sessions[0].messages] == [
        ("prompt", "run the tests"),
        ("tool_result", "3 passed"),
    ]


def test_slash_command_with_arguments_is_the_prompt(runner: Any, tmp_path: Path) -> None:
    # /model (no arguments) is a built-in: context. /orchestrator with arguments is what the person
    # asked; its expansion (an isMeta line) stays context.
    (session,) = ADAPTER.parse(OWN / "slash_command.jsonl").sessions
    assert [(m.kind, m.key) for m in session.messages if m.role == "user"] == [
        ("injected_context", "u-0001"),
        ("injected_context", "u-0002"),
        ("prompt", "u-0003"),
        ("injected_context", "u-0004"),
    ]
    prompt = next(m for m in session.messages if m.kind == "prompt")
    assert prompt.text == "/orchestrator split the checkout flow into cart, address and payment steps"
    # Through the real ingest: the arguments are searchable and make the title.
    root = claude_tree(tmp_path / "home", [OWN / "slash_command.jsonl"])
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(root))
    [row] = invoke_json(runner, "sessions")
    assert "split the checkout flow" in row["title"]
    hits = invoke_json(runner, "search", "address payment steps")
    assert hits and hits[0]["native_id"] == "5e1a9c3d-7b2f-4c8e-9d0a-1f2e3d4c5b6a"
