"""Tests for the Codex adapter.

The conformance table was written from a per-file histogram of (record type, payload type, role)
made with jq/python, and from reading the small files line by line, not from the adapter's output.
Counting rules (docs/session-formats.md §2.5): prompts = `event_msg/user_message` (or, in files
without events, user items that are not injected context); responses = assistant message items;
tool calls = `*_call` items; results = `*_output` items; injected = developer items + user items
that no user_message event claims.
"""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
import zstandard
from adapter_helpers import kinds, merged, only, problems, texts
from click.testing import CliRunner
from conftest import SHARED_FIXTURES, invoke_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters.codex import CodexAdapter
from smriti.models import ParseResult

SHARED = SHARED_FIXTURES / "codex"
OTHER_AGENTS = SHARED_FIXTURES
OWN = Path(__file__).parent / "fixtures" / "codex"
ADAPTER = CodexAdapter()

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not available")

RICH = "0195a1b2-0000-7000-8000-000000000001"
RICH_FILE = OWN / f"rollout-2026-03-01T11-00-00-{RICH}.jsonl"
BARE = "c3c4b301-27c8-4c70-b6e4-46b99fdf0236"
TS = "5973b6c0-94b8-487b-a530-2aeb6098ae0e"
PARENT = "0195a1b2-0000-7000-8000-00000000000a"
FORK = "0195a1b2-0000-7000-8000-00000000000b"
SUB = "0195a1b2-0000-7000-8000-00000000000c"


# --- conformance over the shared fixtures --------------------------------------------------------

EXPECTED: dict[str, tuple[dict[str, dict[str, int]], list[str], list[str]]] = {
    # No event_msg at all: the one user item is the prompt; the apply_patch call has no output.
    "codex-session-simple.jsonl": (
        {"019c4b43-1451-7af3-be4c-5576369bf1ba": {"prompt": 1, "tool_call": 1, "response": 1}},
        [],
        [],
    ),
    # The same thread re-captured: one more function_call (shell_command), still no outputs.
    "codex-session-updated.jsonl": (
        {"019c4b43-1451-7af3-be4c-5576369bf1ba": {"prompt": 1, "tool_call": 2, "response": 1}},
        [],
        [],
    ),
    # A session_meta and only token_count / odd "turn.completed" events: no conversation at all.
    "codex_050_legacy.jsonl": (
        {},
        ["found 1 session(s) but no messages: the format may have changed"],
        ["skipped 2 event_msg records of unknown type 'turn.completed'"],
    ),
    # 5 user_message events each right after their user item twin; the other 5 user items
    # (AGENTS.md, environment) and 10 developer items are context; 43 assistant items;
    # 82 function_call + 22 custom_tool_call + 1 web_search_call; 82 + 22 outputs.
    "rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl": (
        {
            "019c8a4c-ed82-79a1-aa28-7738fc5ab61a": {
                "prompt": 5,
                "response": 43,
                "tool_call": 105,
                "tool_result": 104,
                "injected_context": 15,
            }
        },
        [],
        [],
    ),
    # 1 prompt (3 user items, 2 are context) + 4 developer items; 17 answers; 118 calls/outputs.
    "rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl": (
        {
            "019c8a4d-8f45-7010-8b5d-7fad920aa6f9": {
                "prompt": 1,
                "response": 17,
                "tool_call": 118,
                "tool_result": 118,
                "injected_context": 6,
            }
        },
        [],
        [],
    ),
    # Interrupted: ends on an unanswered function_call. 4 user items (1 twin) + 4 developer items.
    "rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl": (
        {"019c8a70-dda7-7f33-98ea-f30553347322": {"prompt": 1, "response": 1, "tool_call": 1, "injected_context": 7}},
        [],
        [],
    ),
    # 3 user items (1 twin) + 4 developer items; 6 answers; 5 calls and outputs.
    "rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl": (
        {
            "019c8bfe-ec25-79e0-97d7-bda6a9c575ff": {
                "prompt": 1,
                "response": 6,
                "tool_call": 5,
                "tool_result": 5,
                "injected_context": 6,
            }
        },
        [],
        [],
    ),
    # codex_exec 0.135: developer item + <environment_context> user item are context.
    "session-01.jsonl": (
        {"019e9625-802f-7e91-840a-cfe88d14117a": {"prompt": 1, "response": 1, "injected_context": 2}},
        [],
        [],
    ),
    # No session_meta (id from the file name); lines 1 and 4 have no type; line 2 is a bare
    # function_call; line 3 an unknown bare "function_result"; line 5 a wrapped world_state.
    "stage0_schema_drift.jsonl": (
        {"stage0_schema_drift": {"tool_call": 1}},
        [],
        ["skipped 2 records with no type", "skipped 1 response_item record of unknown type 'function_result'"],
    ),
    # 3 user_message events (the first one's item twin comes 2 lines later); 1 developer item and
    # 2 agent_message items are context; calls: 2 custom + 2 function + 2 tool_search + web_search +
    # image_generation; outputs: 3 custom + 2 function + 1 tool_search; 6 compacted, one empty.
    # The later session_meta lines are replays: the first one owns the thread.
    "stage0_small.jsonl": (
        {
            "019fc8be-3658-7ca3-9e29-000000000000": {
                "prompt": 3,
                "response": 1,
                "tool_call": 8,
                "tool_result": 6,
                "injected_context": 3,
                "summary": 5,
            }
        },
        [],
        [],
    ),
}


@needs_shared
def test_table_covers_every_shared_fixture() -> None:
    assert sorted(p.name for p in SHARED.iterdir()) == sorted(EXPECTED)


@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shared_fixture_conformance(name: str) -> None:
    path = SHARED / name
    sessions, errors, warnings = EXPECTED[name]
    result = ADAPTER.parse(path)
    assert {s.native_id: kinds(s) for s in result.sessions} == sessions
    for session in result.sessions:
        assert session.agent == "codex"
        assert session.source_paths == (str(path),)
        assert session.project is None and session.parent_native_id is None
        keys = [m.key for m in session.messages]
        assert len(keys) == len(set(keys))
        assert all(k.startswith(session.native_id + ":") for k in keys)
    assert problems(result.errors, path) == errors
    assert problems(result.warnings, path) == warnings
    json.dumps(result.resume)


@needs_shared
def test_whole_shared_folder_never_raises() -> None:
    for path in [*sorted(SHARED.iterdir()), SHARED]:
        assert isinstance(ADAPTER.parse(path), ParseResult)
    assert problems(ADAPTER.parse(SHARED).errors, SHARED) == ["is a directory, not a transcript file"]


@needs_shared
def test_desktop_rollout_details() -> None:
    path = SHARED / "rollout-2026-02-23T12-40-23-019c8a4c-ed82-79a1-aa28-7738fc5ab61a.jsonl"
    session = only(ADAPTER.parse(path))
    prompts = [m for m in session.messages if m.kind == "prompt"]
    # The prompt takes the key and place of its response_item twin (lines 9, 188, 290, 530, 653)
    # and the text of the event (what the person typed).
    assert [m.key.rsplit(":", 1)[1] for m in prompts] == ["9", "188", "290", "530", "653"]
    assert all(m.text.startswith("[REDACTED_MESSAGE len=") for m in prompts)
    everything = "\n".join(m.text for m in session.messages)
    assert "REDACTED_ENCRYPTED_CONTENT" not in everything  # reasoning is never stored
    assert session.models == ("gpt-5.3-codex",)
    assert session.cwd == "/redacted/path/fa3f7eaace" and session.git_branch == "main"
    assert (session.started_at, session.ended_at) == ("2026-02-23T11:40:23.298Z", "2026-02-23T12:45:33.362Z")
    assert session.extra["originator"] == "Codex Desktop"
    calls = {m.key: m.tool_name for m in session.messages if m.kind == "tool_call"}
    assert Counter(calls.values()) == {
        "exec_command": 71,
        "write_stdin": 9,
        "update_plan": 2,
        "apply_patch": 22,
        "web_search": 1,
    }
    assert all(m.tool_name is not None for m in session.messages if m.kind == "tool_result")


@needs_shared
def test_stage0_small_details() -> None:
    session = only(ADAPTER.parse(SHARED / "stage0_small.jsonl"))
    first = next(m for m in session.messages if m.kind == "prompt")
    # The event (line 4) came before its item twin (line 6, text + an image): the event's key.
    assert (first.key, first.text) == ("019fc8be-3658-7ca3-9e29-000000000000:4", "List the files")
    assert session.title == "[trimmed for fixture]"  # from thread_name_updated
    assert session.models[:2] == ("gpt-5.6-luna", "gpt-5.5")
    generated = next(m for m in session.messages if m.tool_name == "image_generation")
    assert "result" not in generated.tool_input  # the base64 image is never kept


# --- own fixtures: older eras ---------------------------------------------------------------------


def test_bare_era_rollout() -> None:
    path = OWN / f"rollout-2025-08-18T03-16-13-{BARE}.jsonl"
    result = ADAPTER.parse(path)
    session = only(result)
    assert session.native_id == BARE
    assert kinds(session) == {"injected_context": 1, "prompt": 1, "tool_call": 2, "tool_result": 2, "response": 1}
    assert session.cwd == "/home/dev/shop"  # only in the <environment_context> text in this era
    assert (session.git_branch, session.git_remote) == ("main", "git@github.com:acme/shop.git")
    assert session.started_at == "2025-08-18T01:16:13.522Z" and session.ended_at is None
    assert all(m.timestamp is None for m in session.messages)
    assert texts(session, "prompt") == ["why does the cart total test fail?"]
    results = texts(session, "tool_result")
    assert results[0].startswith("[error] F.") and not results[1].startswith("[error]")
    patch = [m for m in session.messages if m.kind == "tool_call"][1]
    assert (patch.text, patch.files) == ("shell: Update File: shop/cart.py", ("shop/cart.py",))
    assert "SECRET" not in "".join(m.text for m in session.messages)
    assert result.errors == [] and result.warnings == []


def test_typescript_era_single_json() -> None:
    path = OWN / f"rollout-2025-04-21-{TS}.json"
    result = ADAPTER.parse(path)
    session = only(result)
    assert session.native_id == TS
    assert kinds(session) == {"prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1}
    assert session.started_at == "2025-04-21T09:12:44.120Z"
    call = next(m for m in session.messages if m.kind == "tool_call")
    assert call.text == "shell: bash -lc git ls-files '*.py'"
    assert texts(session, "tool_result") == ["app.py\ntests/test_app.py\n"]
    assert result.resume is None  # whole-file source


def test_rich_wrapped_rollout() -> None:
    result = ADAPTER.parse(RICH_FILE)
    session = only(result)
    assert kinds(session) == {
        "injected_context": 6,
        "prompt": 2,
        "response": 3,
        "tool_call": 4,
        "tool_result": 3,
        "summary": 1,
    }
    # IDE context and smriti's own recall block are split out of the typed prompts.
    assert texts(session, "prompt") == [
        "fix the rounding in the cart total",
        "now check the web checkout page\n\n[image]",
    ]
    by_key = {m.key: m for m in session.messages}
    assert by_key[f"{RICH}:7:ctx"].text.startswith("# Context from my IDE setup:")
    assert by_key[f"{RICH}:27:ctx"].text.startswith("<smriti-context") and not by_key[f"{RICH}:27:ctx"].indexed
    assert by_key[f"{RICH}:7"].kind == "prompt"  # the item twin's key, not the event's (line 8)
    assert f"{RICH}:8" not in by_key and f"{RICH}:28" not in by_key
    everything = "".join(m.text for m in session.messages) + json.dumps([m.tool_input for m in session.messages])
    assert "iVBOR" not in everything and "ENCRYPTED" not in everything
    patch = by_key[f"{RICH}:16"]
    assert (patch.text, patch.files) == ("apply_patch: Update File: shop/cart.py", ("shop/cart.py",))
    assert by_key[f"{RICH}:19"].text == "[error] 1 failed, 11 passed"
    assert by_key[f"{RICH}:19"].tool_name == "exec_command"
    assert by_key[f"{RICH}:29"].text == "web_search: checkout rounding half-even"
    assert by_key[f"{RICH}:33"].kind == "summary"
    assert session.cwd == "/home/dev/shop" and session.extra["cwds"] == ["/home/dev/shop", "/home/dev/shop/web"]
    assert session.models == ("gpt-5.1-codex", "gpt-5.2-codex")
    assert session.title == "Fix cart rounding"
    assert (session.git_branch, session.git_remote) == ("feature/cart", "https://github.com/acme/shop.git")
    assert problems(result.warnings, RICH_FILE) == [
        "skipped 1 event_msg record of unknown type 'brand_new_event'",
        "skipped 1 record of unknown type 'quantum_state'",
    ]


# --- forks and sub-agents ------------------------------------------------------------------------


def test_fork_skips_the_copied_parent_history() -> None:
    parent = only(ADAPTER.parse(OWN / f"rollout-2026-03-02T10-00-00-{PARENT}.jsonl"))
    fork_path = OWN / f"rollout-2026-03-02T10-30-00-{FORK}.jsonl"
    result = ADAPTER.parse(fork_path)
    fork = only(result)
    assert fork.parent_native_id == PARENT
    # Lines 2-10 replay the parent's header and records: none of them becomes a child message.
    assert kinds(fork) == {"prompt": 1, "response": 1}
    assert texts(fork, "prompt") == ["and how are coupon codes validated?"]
    assert not set(texts(parent, "prompt")) & set(texts(fork, "prompt"))
    assert fork.started_at == "2026-03-02T09:30:00.000Z" and result.warnings == []


def test_fork_whose_parent_is_gone_keeps_the_copy(tmp_path: Path) -> None:
    lone = tmp_path / f"rollout-2026-03-02T10-30-00-{FORK}.jsonl"
    shutil.copy(OWN / lone.name, lone)
    result = ADAPTER.parse(lone)
    fork = only(result)
    assert kinds(fork) == {"prompt": 2, "tool_call": 1, "tool_result": 1, "response": 2}
    assert problems(result.warnings, lone) == [
        f"2: kept the history copied from parent thread {PARENT}: its rollout was not found"
    ]


def test_paginated_subagent_starts_at_its_ordinal() -> None:
    session = only(ADAPTER.parse(OWN / f"rollout-2026-03-02T10-40-00-{SUB}.jsonl"))
    assert session.parent_native_id == PARENT
    assert kinds(session) == {"prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1}
    assert [m.key for m in session.messages] == [f"{SUB}:o5", f"{SUB}:o7", f"{SUB}:o8", f"{SUB}:o9"]
    assert session.extra["agent_nickname"] == "Euclid" and session.models == ("gpt-5.4-mini",)


# --- compressed rollouts -------------------------------------------------------------------------


def compress(src: Path, dest: Path) -> Path:
    dest.write_bytes(zstandard.ZstdCompressor().compress(src.read_bytes()))
    return dest


def test_zst_twin_has_the_same_messages(tmp_path: Path) -> None:
    zst = compress(RICH_FILE, tmp_path / (RICH_FILE.name + ".zst"))
    plain = only(ADAPTER.parse(RICH_FILE))
    result = ADAPTER.parse(zst)
    packed = only(result)
    assert packed.messages == plain.messages  # same keys: the store keeps one copy
    assert packed.native_id == plain.native_id and result.resume is None
    assert ADAPTER.detect(zst)


def test_discover_prefers_the_plain_twin(tmp_path: Path) -> None:
    day = tmp_path / "sessions" / "2026" / "03" / "01"
    day.mkdir(parents=True)
    plain = day / RICH_FILE.name
    shutil.copy(RICH_FILE, plain)
    compress(RICH_FILE, day / (plain.name + ".zst"))
    other = compress(
        OWN / f"rollout-2026-03-02T10-00-00-{PARENT}.jsonl", day / f"rollout-2026-03-02T10-00-00-{PARENT}.jsonl.zst"
    )
    (day / "notes.txt").write_text("not a rollout")
    assert list(ADAPTER.discover(tmp_path / "sessions")) == [plain, other]


def test_broken_zst_is_an_error(tmp_path: Path) -> None:
    bad = tmp_path / f"rollout-2026-03-01T11-00-00-{RICH}.jsonl.zst"
    bad.write_bytes(b"\x28\xb5\x2f\xfd" + b"garbage" * 10)
    result = ADAPTER.parse(bad)
    assert result.sessions == [] and len(result.errors) == 1
    assert problems(result.errors, bad)[0].startswith("cannot decompress the zstd data")


# --- layout under a fake HOME --------------------------------------------------------------------


def build_home(home: Path) -> Path:
    codex = home / ".codex"
    day = codex / "sessions" / "2026" / "03" / "01"
    day.mkdir(parents=True)
    shutil.copy(RICH_FILE, day / RICH_FILE.name)
    (codex / "archived_sessions").mkdir()
    shutil.copy(OWN / f"rollout-2025-08-18T03-16-13-{BARE}.jsonl", codex / "archived_sessions")
    (codex / "session_index.jsonl").write_text(
        json.dumps({"id": RICH, "thread_name": "Old name", "updated_at": "2026-03-01T10:00:20Z"})
        + "\n"
        + json.dumps({"id": RICH, "thread_name": "Cart rounding, renamed", "updated_at": "2026-03-02T08:00:00Z"})
        + "\n"
    )
    (codex / "config.toml").write_text('model = "gpt-5.1-codex"\n')
    return codex


def test_default_roots_and_discover_under_home(isolated_env: Path) -> None:
    codex = build_home(isolated_env)
    roots = ADAPTER.default_roots()
    assert roots == [codex / "sessions", codex / "archived_sessions"]
    found = [p for root in roots for p in ADAPTER.discover(root)]
    assert [p.name for p in found] == [RICH_FILE.name, f"rollout-2025-08-18T03-16-13-{BARE}.jsonl"]
    # The thread name in session_index.jsonl (newest line) wins over the rollout's own event.
    assert only(ADAPTER.parse(found[0])).title == "Cart rounding, renamed"
    assert ADAPTER.detect(codex) and ADAPTER.detect(codex / "sessions")


def test_codex_home_env_var(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    custom = tmp_path / "elsewhere"
    (custom / "sessions").mkdir(parents=True)
    monkeypatch.setenv("CODEX_HOME", str(custom))
    assert ADAPTER.default_roots() == [custom / "sessions"]
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "missing"))
    assert ADAPTER.default_roots() == []


# --- resume --------------------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [1, 5, 7, 8, 13, 20, 27, 28, 33])
def test_resume_returns_only_new_messages(tmp_path: Path, cut: int) -> None:
    lines = RICH_FILE.read_bytes().splitlines(keepends=True)
    path = tmp_path / RICH_FILE.name
    path.write_bytes(b"".join(lines[:cut]))
    first = ADAPTER.parse(path)
    with open(path, "ab") as fh:
        fh.write(b"".join(lines[cut:]))
    second = ADAPTER.parse(path, first.resume)
    json.dumps(second.resume)
    full = ADAPTER.parse(RICH_FILE)
    new_keys = {m.key for s in second.sessions for m in s.messages}
    old_keys = {m.key for s in first.sessions for m in s.messages}
    # Only new lines' messages, except a user item twin re-emitted as the prompt it became.
    assert all(int(k.split(":")[1]) > cut for k in new_keys - old_keys)
    assert {k for k in new_keys & old_keys} <= {f"{RICH}:7", f"{RICH}:27"}
    assert merged(first, second) == {m.key: m for m in only(full).messages}
    (session,) = second.sessions
    assert session.title == "Fix cart rounding" and session.models == only(full).models


def test_resume_with_nothing_new(tmp_path: Path) -> None:
    path = tmp_path / RICH_FILE.name
    shutil.copy(RICH_FILE, path)
    first = ADAPTER.parse(path)
    again = ADAPTER.parse(path, first.resume)
    assert again.sessions == [] and again.errors == [] and again.warnings == []


def test_rewritten_file_is_read_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / RICH_FILE.name
    shutil.copy(RICH_FILE, path)
    first = ADAPTER.parse(path)
    lines = RICH_FILE.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-3]))  # shorter than the resume offset: a rewrite
    again = ADAPTER.parse(path, first.resume)
    assert texts(only(again), "prompt") == texts(only(first), "prompt")
    assert "summary" not in kinds(only(again))


# --- robustness ----------------------------------------------------------------------------------

record = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
shaped = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["session_meta", "response_item", "event_msg", "turn_context", "compacted", "x"]),
        "payload": st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "role",
                    "content",
                    "message",
                    "id",
                    "cwd",
                    "output",
                    "arguments",
                    "call_id",
                    "name",
                    "source",
                    "forked_from_id",
                ]
            ),
            record,
            max_size=6,
        ),
    },
    optional={"timestamp": st.text(max_size=30), "ordinal": st.integers()},
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(
        st.one_of(
            shaped.map(json.dumps), record.map(json.dumps), st.binary(max_size=40).map(lambda b: b.decode("latin-1"))
        ),
        max_size=12,
    )
)
def test_garbage_never_raises(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "rollout-2026-01-01T00-00-00-0195a1b2-0000-7000-8000-0000000000ff.jsonl"
    data = "\n".join(lines).encode("utf-8", "replace")
    path.write_bytes(data)
    result = ADAPTER.parse(path)
    json.dumps(result.resume)
    ADAPTER.parse(path, result.resume)
    ADAPTER.parse(path, {"offset": "x", "thread": 3, "copy": [], "tail_candidate": {"key": 1}})
    zst = path.with_name(path.name + ".zst")
    zst.write_bytes(zstandard.ZstdCompressor().compress(data))
    assert isinstance(ADAPTER.parse(zst), ParseResult)
    single = path.with_suffix(".json")
    single.write_bytes(data)
    assert isinstance(ADAPTER.parse(single), ParseResult)
    assert isinstance(ADAPTER.detect(path), bool)


# --- detect --------------------------------------------------------------------------------------


def test_detect_own_fixtures() -> None:
    for path in OWN.iterdir():
        assert ADAPTER.detect(path), path


@needs_shared
def test_detect_tells_other_agents_apart() -> None:
    for folder in ("gemini-cli", "copilot-cli", "claude-code"):
        for path in (OTHER_AGENTS / folder).iterdir():
            assert not ADAPTER.detect(path), path
    assert not ADAPTER.detect(OTHER_AGENTS / "nope.jsonl")
    # A renamed rollout is still recognised by its first line.
    assert ADAPTER.detect(SHARED / "session-01.jsonl")


def test_detect_unnamed_rollout(tmp_path: Path) -> None:
    renamed = tmp_path / "export.jsonl"
    shutil.copy(RICH_FILE, renamed)
    assert ADAPTER.detect(renamed)
    bare = tmp_path / "old.jsonl"
    shutil.copy(OWN / f"rollout-2025-08-18T03-16-13-{BARE}.jsonl", bare)
    assert ADAPTER.detect(bare)
    assert not ADAPTER.detect(tmp_path / "missing.jsonl")
    os.chmod(renamed, 0o000)
    try:
        assert ADAPTER.detect(renamed) in (True, False)
    finally:
        os.chmod(renamed, 0o644)


def test_detect_a_folder_of_rollouts_in_date_folders_by_their_content(tmp_path: Path) -> None:
    # A copy of `sessions/` under another name (a backup, a teammate's export): no Codex home
    # around it, so only a rollout's content inside its date folders tells what it is.
    backup = tmp_path / "codex-backup"
    day = backup / "2026" / "03" / "01"
    day.mkdir(parents=True)
    shutil.copy(RICH_FILE, day / RICH_FILE.name)
    assert ADAPTER.detect(backup) and ADAPTER.detect(backup / "2026")
    # Named as rollouts but holding something else: not taken for Codex's.
    other = tmp_path / "other" / "2026"
    other.mkdir(parents=True)
    (other / "rollout-notes.jsonl").write_text('{"kind": "shopping list"}\n')
    assert not ADAPTER.detect(tmp_path / "other")
    # A rollout deeper than a sessions tree's four levels is not looked for.
    deep = tmp_path / "deep" / "a" / "b" / "c" / "d" / "e" / "f"
    deep.mkdir(parents=True)
    shutil.copy(RICH_FILE, deep / RICH_FILE.name)
    assert not ADAPTER.detect(tmp_path / "deep")
    # Nor one behind more folders than a sniff looks into: a big unrelated tree stays cheap.
    wide = tmp_path / "wide"
    for i in range(40):
        for j in range(6):
            (wide / f"f{i:02}" / f"g{j}").mkdir(parents=True)
    last = wide / "f39" / "g5"
    shutil.copy(RICH_FILE, last / RICH_FILE.name)
    assert not ADAPTER.detect(wide)
    shutil.copy(RICH_FILE, wide / "f00" / RICH_FILE.name)
    assert ADAPTER.detect(wide)


def test_ingest_path_of_a_renamed_sessions_folder_without_agent(runner: CliRunner, tmp_path: Path) -> None:
    backup = tmp_path / "codex-backup" / "2026" / "03" / "01"
    backup.mkdir(parents=True)
    shutil.copy(RICH_FILE, backup / RICH_FILE.name)
    out = invoke_json(runner, "ingest", "--path", str(tmp_path / "codex-backup"))
    assert (out["errors"], out["sessions_found"]) == ([], 1)
    assert invoke_json(runner, "status")["agents"]["codex"]["sessions"] == 1


EVENTS_ONLY = OWN / "rollout-2026-03-04T08-00-00-0195a1b2-0000-7000-8000-00000000000e.jsonl"


def test_a_log_of_events_alone_keeps_the_answers(runner: CliRunner) -> None:
    # No response_item at all (an exec run logged only its UI events): the answer exists only as
    # event_msg/agent_message, so it is the response; reasoning events are still not stored.
    result = ADAPTER.parse(EVENTS_ONLY)
    assert (result.errors, result.warnings) == ([], [])
    [session] = result.sessions
    assert [(m.kind, m.role) for m in session.messages] == [("prompt", "user"), ("response", "assistant")]
    assert session.messages[1].text.startswith("The export loop uses `range(1, days_in_month)`")
    assert session.messages[1].timestamp == "2026-03-04T08:00:15.000Z"
    out = invoke_json(runner, "ingest", "--agent", "codex", "--path", str(EVENTS_ONLY))
    assert (out["sessions_found"], out["messages_added"]) == (1, 2)
    assert invoke_json(runner, "search", "days_in_month")[0]["native_id"] == "0195a1b2-0000-7000-8000-00000000000e"


# --- a big rollout is read in two passes that never hold all its records ------------------------


@pytest.mark.parametrize("folder", [OWN, SHARED], ids=["own", "shared"])
def test_a_rollout_read_streamed_parses_as_one_read_of_it(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every fixture, whole and resumed after its first half, parsed as a big rollout is (a survey
    read, then a feed read) and as a small one is (one read, records held): the same result."""
    if not folder.is_dir():
        pytest.skip("shared fixtures not available")
    from smriti.adapters import codex

    work = tmp_path / "sessions"
    shutil.copytree(folder, work)
    adapter = CodexAdapter()
    for path in sorted(work.glob("*.jsonl")):
        lines = path.read_bytes().splitlines(keepends=True)
        half = path.with_name("half-" + path.name)
        half.write_bytes(b"".join(lines[: len(lines) // 2]))
        outcomes = []
        for stream_above in (codex.STREAM_ABOVE, 0):
            monkeypatch.setattr(codex, "STREAM_ABOVE", stream_above)
            whole = adapter.parse(path)
            first = adapter.parse(half, None)
            half_grown = half.with_name("grown-" + path.name)
            half_grown.write_bytes(b"".join(lines))
            resumed = adapter.parse(half_grown, first.resume)
            outcomes.append((whole, first, resumed))
        assert outcomes[0] == outcomes[1], path.name
        assert outcomes[0][0].sessions or outcomes[0][0].errors or outcomes[0][0].warnings
