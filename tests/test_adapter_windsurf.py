"""Windsurf adapter (Cascade hook transcripts): the real shared transcript, a hand-written one with
raw control characters, bad lines, resume, the on-disk layout."""

from __future__ import annotations

import json
import os
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
    physical_lines,
    shared_files,
    shared_fixtures,
)
from conftest import invoke_json
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.adapters import Adapter
from smriti.adapters import windsurf as windsurf_module
from smriti.adapters._common import iso_utc
from smriti.adapters.windsurf import WindsurfAdapter

SHARED_WINDSURF, needs_shared = shared_fixtures("windsurf")
SHARED_FILES = shared_files(SHARED_WINDSURF)
SHARED_TRANSCRIPT = SHARED_WINDSURF / "windsurf-session-simple.jsonl"
OWN = FIXTURES / "windsurf"
TRAJECTORY = "3f2a9c1e-7b4d-4e8a-a1c2-5d6e7f8091ab"
OWN_TRANSCRIPT = OWN / "transcripts" / f"{TRAJECTORY}.jsonl"
BROKEN = OWN / "broken.jsonl"
ADAPTER = WindsurfAdapter()

# Counted by hand (jq -r '.type + " " + (.[.type] | keys | join(","))') over the 27 steps of
# windsurf-session-simple.jsonl: user_input on lines 1, 9, 11, 18 → 4 prompts; planner_response on
# 2, 5, 10, 13, 27 → 5 responses; the other 18 steps are tool calls: view_file ×5 (3, 8, 16, 21, 25,
# each with `content`), code_action ×2 (4, 12, no output), run_command ×6 (6, 14, 15, 23 with
# `output`; 7, 17 with only exit_code 0), list_directory (19, nothing), find ×2 (20, 26, `output`),
# grep_search (22, total_results 0), list_resources (24, status "error"). Results: 5 view_file + 6
# run_command + 2 find + grep_search's count + the failed list_resources = 15.
EXPECTED_SHARED = {
    "windsurf-session-simple.jsonl": {
        "kinds": {"prompt": 4, "response": 5, "tool_call": 18, "tool_result": 15},
        "cwd": "/Users/aidancunniffe/Desktop/testing-gitflows-git-ai",
    },
}

# The hand-written transcript: 11 physical lines, 10 steps. 1 user_input (a <smriti-context> block
# and the prompt); 2 planner_response; 3 view_file whose content holds a raw TAB; 4 run_command with
# raw ESC and CR characters in its output and exit_code 1; 5 code_action; 6-7 one run_command whose
# output holds a raw newline; 8 grep_search with output; 9 list_directory with status "error";
# 10 planner_response; 11 user_input.
OWN_KINDS = {"injected_context": 1, "prompt": 2, "response": 2, "tool_call": 6, "tool_result": 5}


# --- conformance over the shared fixtures --------------------------------------------------------


@needs_shared
def test_every_shared_fixture_has_an_expectation() -> None:
    assert {p.name for p in SHARED_FILES} == set(EXPECTED_SHARED)


@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: p.name)
def test_shared_fixture_conformance(path: Path) -> None:
    expected = EXPECTED_SHARED[path.name]
    session = clean_session(ADAPTER, path)
    assert session.agent == "windsurf" and session.native_id == path.stem  # the trajectory id
    assert kinds(session) == expected["kinds"]
    assert session.cwd == expected["cwd"]
    # No times on any line: the file's mtime is when Cascade last wrote it; the start is unknown.
    assert session.started_at is None and session.ended_at == iso_utc(path.stat().st_mtime)
    assert all(m.timestamp is None for m in session.messages)
    assert session.models == () and session.title is None
    assert session.source_paths == (str(path),)
    keys = [m.key for m in session.messages]
    assert len(keys) == len(set(keys))


@needs_shared
def test_shared_steps() -> None:
    session = only(ADAPTER.parse(SHARED_TRANSCRIPT))
    by_line = {int(m.key.split(":")[1]): m for m in session.messages if m.kind in ("prompt", "response", "tool_call")}
    assert by_line[1].text == "Write a song in @[xyz.md] " and by_line[1].key == "windsurf-session-simple:1"
    assert by_line[2].text == "I'll write a song in the xyz.md file for you."
    xyz = "/Users/aidancunniffe/Desktop/testing-gitflows-git-ai/xyz.md"
    assert (by_line[3].text, by_line[3].files, by_line[3].tool_name) == (f"view_file: {xyz}", (xyz,), "view_file")
    assert by_line[4].files == (xyz,) and "original_content" not in by_line[4].tool_input
    assert by_line[6].text == "run_command: git commit -a" and by_line[6].tool_input["cwd"].endswith("git-ai")
    results = {m.key: m.text for m in session.messages if m.kind == "tool_result"}
    assert results["windsurf-session-simple:7:result"] == "exit code 0"
    assert results["windsurf-session-simple:22:result"] == "0 results"
    assert results["windsurf-session-simple:24:result"] == "[error] status: error"
    assert results["windsurf-session-simple:23:result"].startswith("049a887 (HEAD -> main) abc")
    assert "windsurf-session-simple:19:result" not in results  # list_directory carries no output
    assert by_line[20].text == "find: *.md"


# --- the hand-written transcript -----------------------------------------------------------------


def test_raw_control_characters_are_read() -> None:
    raw = OWN_TRANSCRIPT.read_bytes()
    assert b"\t" in raw and b"\x1b" in raw and b"\r" in raw and raw.count(b"\n") == 11
    result = ADAPTER.parse(OWN_TRANSCRIPT)
    assert result.errors == [] and result.warnings == []
    session = only(result)
    assert kinds(session) == OWN_KINDS
    results = {m.key.removeprefix(f"{TRAJECTORY}:"): m.text for m in session.messages if m.kind == "tool_result"}
    assert results["3:result"] == "export const port = Number(process.env.PORT)\n\tif (!port) throw new Error('PORT')"
    assert results["4:result"] == "[error] exit code 1\n\x1b[31mFAIL\x1b[0m src/server.test.ts\r\n  Error: PORT"
    # The step that a raw newline split over lines 6 and 7 is one step, keyed by its first line.
    assert results["6:result"] == "PASS src/server.test.ts\nTests: 4 passed"
    assert results["9:result"] == "[error] status: error"


def test_own_transcript() -> None:
    session = only(ADAPTER.parse(OWN_TRANSCRIPT))
    assert session.native_id == TRAJECTORY and session.cwd == "/home/dev/my app"
    context, prompt = session.messages[:2]
    assert context.kind == "injected_context" and context.text.startswith('<smriti-context source="recall">')
    assert (prompt.text, prompt.key) == ("Why does npm test fail in my app?", f"{TRAJECTORY}:1")
    assert context.key == f"{TRAJECTORY}:1:ctx"
    calls = [m for m in session.messages if m.kind == "tool_call"]
    assert [c.tool_name for c in calls] == [
        "view_file",
        "run_command",
        "code_action",
        "run_command",
        "grep_search",
        "list_directory",
    ]
    server = "/home/dev/my app/src/server.ts"  # the URI's %20 decoded
    assert calls[0].files == (server,) and calls[0].text == f"view_file: {server}"
    assert calls[2].files == (server,) and calls[2].tool_input["new_content"].endswith("?? 3000)\n")
    assert calls[1].tool_input == {"command": "npm test", "cwd": "/home/dev/my app"}  # outcome fields are the result's
    assert calls[4].text == "grep_search: process.env.PORT" and calls[4].files == ()


def test_the_tolerant_read_costs_nothing_on_clean_lines(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def boom(raw: bytes) -> Any:
        raise AssertionError("the tolerant path ran")

    monkeypatch.setattr(windsurf_module, "_loads_tolerant", boom)
    clean = tmp_path / "clean.jsonl"
    clean.write_bytes(b"".join(line for line in physical_lines(OWN_TRANSCRIPT)[:3] if b"\t" not in line))
    assert only(ADAPTER.parse(clean)).messages
    if SHARED_TRANSCRIPT.exists():
        assert only(ADAPTER.parse(SHARED_TRANSCRIPT)).messages


def test_keys_are_line_numbers_stable_across_reads_and_appends(tmp_path: Path) -> None:
    path = copy_to(tmp_path, OWN_TRANSCRIPT)
    first = [m.key for m in only(ADAPTER.parse(path)).messages]
    assert first == [m.key for m in only(ADAPTER.parse(path)).messages]
    with open(path, "a") as fh:
        fh.write(json.dumps({"status": "done", "type": "user_input", "user_input": {"user_response": "bye"}}) + "\n")
    again = [m.key for m in only(ADAPTER.parse(path)).messages]
    assert again == [*first, f"{TRAJECTORY}:12"]


# --- bad input -----------------------------------------------------------------------------------


def test_bad_lines_are_errors_and_the_rest_is_read(tmp_path: Path) -> None:
    path = copy_to(tmp_path, BROKEN)
    old = make_old(path)
    result = ADAPTER.parse(path)
    assert [(e.line, e.error) for e in result.errors] == [
        (2, "malformed JSON (Expecting ',' delimiter at column 99); line skipped"),
        (3, "line is a JSON array, not an object; skipped"),
        (6, "last line is truncated (no newline, not valid JSON); left unread"),
    ]
    assert [w.error for w in result.warnings] == ["skipped 1 line with no step type"]
    session = only(result)
    assert [m.text for m in session.messages] == [
        "Rename the config loader.",
        "Renamed loadConfig to readConfig in 3 files.",
    ]
    assert session.ended_at == iso_utc(old)


def test_a_line_that_stays_malformed_with_control_characters_allowed_is_still_an_error(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    good = json.dumps({"status": "done", "type": "user_input", "user_input": {"user_response": "hi"}})
    path.write_bytes(b'{"type": "run_command", "run_command": {"output": "a\x01b"\n' + good.encode() + b"\n")
    result = ADAPTER.parse(path)
    assert [e.line for e in result.errors] == [1] and [m.text for m in only(result).messages] == ["hi"]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"", "empty file: no records"),
        (
            b'{"status": "done", "type": "user_input", "user_input": {"user_response": 5}}\n',
            "found 1 session (1 step) but no messages: the format may have changed",
        ),
    ],
)
def test_unreadable_transcripts_are_errors(tmp_path: Path, content: bytes, error: str) -> None:
    assert_unreadable(ADAPTER, tmp_path / "t.jsonl", content, error)


def test_a_step_body_that_is_not_an_object_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [
        {"type": "run_command", "run_command": "ls", "status": "done"},
        {"type": "user_input", "user_input": {"user_response": "ok"}, "status": "done"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = ADAPTER.parse(path)
    assert [(w.line, w.error) for w in result.warnings] == [
        (1, "run_command step holds a JSON string, not an object; skipped")
    ]
    assert [m.text for m in only(result).messages] == ["ok"]


# --- resume --------------------------------------------------------------------------------------


# Not 6: that cut falls inside the step split by a raw newline (a reader that sees only its first
# half reports it as malformed; Cascade writes a step in one go).
@pytest.mark.parametrize("cut", [1, 2, 3, 4, 5, 7, 8, 9, 10])
def test_resume_returns_only_new_messages_with_the_same_keys(tmp_path: Path, cut: int) -> None:
    assert len(physical_lines(OWN_TRANSCRIPT)) == 11
    first, second, _ = assert_resume_at_cut(ADAPTER, OWN_TRANSCRIPT, tmp_path / OWN_TRANSCRIPT.name, cut)
    assert first.errors == []
    assert only(second).cwd == "/home/dev/my app"


def test_resume_with_nothing_new(tmp_path: Path) -> None:
    assert_nothing_new(ADAPTER, copy_to(tmp_path, OWN_TRANSCRIPT))


# --- layout --------------------------------------------------------------------------------------


def test_default_roots_and_discover_under_home(isolated_env: Path) -> None:
    assert ADAPTER.default_roots() == []
    transcripts = isolated_env / ".windsurf" / "transcripts"
    transcripts.mkdir(parents=True)
    shutil.copy(OWN_TRANSCRIPT, transcripts)
    (transcripts / "notes.txt").write_text("not a transcript")
    # Cascade's encrypted conversations are never read.
    cascade = isolated_env / ".codeium" / "windsurf" / "cascade"
    cascade.mkdir(parents=True)
    (cascade / "0b1c2d3e.pb").write_bytes(os.urandom(64))
    assert ADAPTER.default_roots() == [transcripts]
    expected = [transcripts / OWN_TRANSCRIPT.name]
    assert list(ADAPTER.discover(transcripts)) == expected
    assert list(ADAPTER.discover(transcripts.parent)) == expected  # ~/.windsurf itself
    assert list(ADAPTER.discover(expected[0])) == expected


def test_detect() -> None:
    assert ADAPTER.detect(OWN_TRANSCRIPT) and ADAPTER.detect(OWN / "transcripts") and ADAPTER.detect(BROKEN)
    assert not ADAPTER.detect(Path("/nonexistent/x.jsonl"))


@needs_shared
def test_detect_tells_other_agents_apart() -> None:
    assert ADAPTER.detect(SHARED_TRANSCRIPT) and ADAPTER.detect(SHARED_WINDSURF)
    assert_not_detected(ADAPTER, "claude-code", "codex", "droid", "pi-agent", "copilot-cli", "cursor", "gemini-cli")


def test_is_an_adapter() -> None:
    assert isinstance(ADAPTER, Adapter) and ADAPTER.name == "windsurf"


# --- garbage never makes parse raise -------------------------------------------------------------

value = json_value
step_types = st.sampled_from(["user_input", "planner_response", "view_file", "run_command", "grep_search", "x"])
body = st.fixed_dictionaries(
    {},
    optional={
        "user_response": value,
        "response": value,
        "path": value,
        "command": value,
        "cwd": value,
        "output": value,
        "content": value,
        "exit_code": value,
        "user_rejected": value,
        "total_results": value,
    },
)
step = step_types.flatmap(
    lambda t: st.fixed_dictionaries({"type": st.just(t), t: body | value}, optional={"status": value})
)


@FUZZ
@given(
    lines=garbage_lines(
        step.map(json.dumps),
        step.map(lambda s: json.dumps(s).replace("\\n", "\n").replace("\\t", "\t")),  # raw control characters
    )
)
def test_garbage_lines_never_raise(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8", "replace"))
    result = ADAPTER.parse(path)
    ADAPTER.parse(path, result.resume)
    assert_garbage_handled(ADAPTER, path, result, {"offset": 1, "cwds": "x", "emitted": 3})


@settings(FUZZ, max_examples=100)
@given(raw=st.binary(max_size=300))
def test_garbage_bytes_never_raise(tmp_path: Path, raw: bytes) -> None:
    assert_garbage_bytes_handled(ADAPTER, tmp_path / "t.jsonl", raw)


# --- end to end through the CLI ------------------------------------------------------------------


@needs_shared
def test_ingest_the_shared_fixture(runner: Any) -> None:
    out = invoke_json(runner, "ingest", "--agent", "windsurf", "--path", str(SHARED_WINDSURF))
    assert (out["sessions_found"], out["messages_added"], out["errors"]) == (1, 42, [])
    assert invoke_json(runner, "show", "windsurf-session-simple")["messages"] == 42


def test_ingest_detects_the_own_fixture(runner: Any) -> None:
    out = invoke_json(runner, "ingest", "--path", str(OWN / "transcripts"))  # no --agent: detected
    assert (out["sessions_found"], out["messages_added"], out["errors"]) == (1, sum(OWN_KINDS.values()), [])
