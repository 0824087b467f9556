"""Tests for the Gemini CLI adapter.

The conformance table was written by reading each shared fixture (they are small) record by
record: one `user` record = one prompt, one `gemini`/`model` record with text = one response,
each `toolCalls[]` entry = one call, plus one result when it has a `result` or failed;
`info`/`error`/`warning` records are not conversation (docs/session-formats.md §3.5).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from adapter_helpers import kinds, merged, only, problems, texts
from conftest import SHARED_FIXTURES, invoke_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters.gemini import GeminiAdapter
from smriti.models import ParseResult

SHARED = SHARED_FIXTURES / "gemini-cli"
OTHER_AGENTS = SHARED_FIXTURES
OWN = Path(__file__).parent / "fixtures" / "gemini"
ADAPTER = GeminiAdapter()

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared fixtures not available")

SID = "7c1e9a3b-5d2f-4e8a-9b1c-0f3e2d4c5b6a"
OPLOG = OWN / "session-2026-05-02T09-15-7c1e9a3b.jsonl"
CHECKPOINT = OWN / "session-2026-05-03T10-00-1f2e3d4c.jsonl"
LEGACY = OWN / "session-2025-11-20T14-05-2b3c4d5e.json"
AUTO_CONTINUE = OWN / "session-2025-12-01T10-00-5a6b7c8d.json"
SUB = "9a8b7c6d-1111-4222-8333-444455556666"
SUBAGENT = OWN / SID / f"{SUB}.jsonl"


@pytest.fixture(autouse=True)
def no_gemini_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("GEMINI_CLI_HOME", "USERPROFILE"):
        monkeypatch.delenv(var, raising=False)


# --- conformance over the shared fixtures --------------------------------------------------------

EXPECTED: dict[str, tuple[dict[str, dict[str, int]], list[str], list[str]]] = {
    # No header line (id from the file name); 1 user + 5 gemini records, all with text; 4 of
    # them carry one toolCall each without status or result; a trailing $set.
    "gemini-session-simple.jsonl": (
        {"gemini-session-simple": {"prompt": 1, "response": 5, "tool_call": 4}},
        [],
        ["no metadata header line: the session id is taken from the file name"],
    ),
    # Header, user (Part list), gemini with empty text + a run_shell_command with its result,
    # gemini with text; the $set only touches lastUpdated.
    "jsonl_v040.jsonl": (
        {"gemini_stage0_jsonl": {"prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1}},
        [],
        [],
    ),
    # m1, m5 user; m2, m2b empty-text gemini with one shell call each (results present);
    # m4, m6 "model" records with `parts`; m3 is an info notice.
    "large.json": (
        {"session-2025-12-16T23-47-b4f17607": {"prompt": 2, "tool_call": 2, "tool_result": 2, "response": 2}},
        [],
        [],
    ),
    # No sessionId, no messages: a `history` array instead.
    "schema_drift.json": ({}, ["no 'messages' array: not a Gemini CLI session, or the format has changed"], []),
    "session-01.json": ({"dcbe78d3-ea75-4786-929e-d6cff0fc00ed": {"prompt": 1, "response": 1}}, [], []),
    "small.json": ({"session-2026-01-16T18-34-3739ef95": {"prompt": 1, "response": 1}}, [], []),
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
        assert session.agent == "gemini"
        assert session.source_paths == (str(path),)
        assert session.project is None and session.parent_native_id is None
        keys = [m.key for m in session.messages]
        assert len(keys) == len(set(keys)) and all(k.startswith(session.native_id + ":") for k in keys)
    assert problems(result.errors, path) == errors
    assert problems(result.warnings, path) == warnings
    json.dumps(result.resume)


@needs_shared
def test_whole_shared_folder_never_raises() -> None:
    for path in [*sorted(SHARED.iterdir()), SHARED]:
        assert isinstance(ADAPTER.parse(path), ParseResult)


@needs_shared
def test_shared_details() -> None:
    simple = only(ADAPTER.parse(SHARED / "gemini-session-simple.jsonl"))
    calls = [m for m in simple.messages if m.kind == "tool_call"]
    assert [m.tool_name for m in calls] == ["replace", "read_file", "replace", "read_file"]
    assert calls[0].files == ("/Users/svarlamov/projects/testing-git/index.ts",)
    assert simple.models == ("gemini-2.5-flash",)
    assert simple.ended_at == "2025-12-06T18:27:49.718Z"  # the trailing $set lastUpdated

    large = only(ADAPTER.parse(SHARED / "large.json"))
    assert texts(large, "response") == ["Captured multiline output.", "Ok"]
    assert large.models == ("gemini-3-flash-preview",)  # `meta.model` is not a Gemini field

    v040 = only(ADAPTER.parse(SHARED / "jsonl_v040.jsonl"))
    (result,) = [m for m in v040.messages if m.kind == "tool_result"]
    assert result.text.startswith("Output: AgentSessions/") and result.tool_name == "run_shell_command"
    assert v040.extra == {
        "project_hash": "0b7dfb1274ee51b336813b17f2ddab1f56b6591f723e7314126bbd502c69e9c9",
        "kind": "main",
    }
    session01 = only(ADAPTER.parse(SHARED / "session-01.json"))
    assert "REDACTED_THOUGHT" not in "".join(m.text for m in session01.messages)  # thoughts not stored


# --- own fixtures --------------------------------------------------------------------------------


def test_oplog_updates_rewind_and_set() -> None:
    result = ADAPTER.parse(OPLOG)
    session = only(result)
    assert session.native_id == SID
    # The rewound prompt and its failed write_file answer are gone; the first answer was
    # re-written with its tool call and result (last write wins, in its first place).
    assert kinds(session) == {"prompt": 2, "response": 2, "tool_call": 2, "tool_result": 2, "injected_context": 1}
    assert texts(session, "prompt") == ["add a discount test", "add a discount test with parametrize"]
    assert "Permission denied" not in "".join(m.text for m in session.messages)
    order = [m.key.split(":")[1][-2:] for m in session.messages]
    assert order == ["01", "02", "02", "02", "05", "05", "06", "06", "06"]
    read = next(m for m in session.messages if m.tool_name == "read_file" and m.kind == "tool_call")
    assert (read.text, read.files) == ("read_file: /home/dev/shop/pricing.py", ("/home/dev/shop/pricing.py",))
    assert session.title == "Add a parametrized discount test"
    assert session.models == ("gemini-2.5-flash", "gemini-2.5-pro")
    assert (session.started_at, session.ended_at) == ("2026-05-02T09:15:02.000Z", "2026-05-02T09:17:12.000Z")
    smriti = next(m for m in session.messages if m.kind == "injected_context")
    assert smriti.key.endswith(":ctx") and smriti.text.startswith("<smriti-context")
    assert problems(result.warnings, OPLOG) == [
        "skipped 1 record with no id",
        "skipped 1 message of unknown type 'tool_status'",
    ]


def test_checkpoints_rewrite_but_keep_what_they_leave_out() -> None:
    session = only(ADAPTER.parse(CHECKPOINT))
    # Line 4 (masking) rewrites the first answer; line 7 (compression) lists only the snapshot, its
    # acknowledgement and the last exchange: the first exchange is kept all the same.
    assert kinds(session) == {"prompt": 3, "response": 3, "tool_call": 1, "tool_result": 1, "summary": 1}
    assert texts(session, "tool_result") == ["[output masked to save context: 2 of 10 runs failed]"]
    assert texts(session, "prompt") == ["why is the login test flaky?", "fix it with a fake clock", "commit it"]
    (summary,) = [m for m in session.messages if m.kind == "summary"]
    assert summary.role == "system" and summary.text.startswith("<state_snapshot>")


def test_legacy_json() -> None:
    result = ADAPTER.parse(LEGACY)
    session = only(result)
    assert kinds(session) == {"prompt": 2, "response": 1, "tool_call": 1, "tool_result": 1}
    assert texts(session, "prompt")[0] == "explain this diagram\n\n[image]"
    assert texts(session, "response") == ["It shows a read-through cache in front of Postgres."]  # no thought part
    assert texts(session, "tool_result") == ["[error] cancelled"]
    assert "iVBOR" not in "".join(m.text for m in session.messages)
    assert session.title == "Explain the cache diagram" and result.resume is None


def test_subagent_file() -> None:
    session = only(ADAPTER.parse(SUBAGENT))
    assert session.native_id == SUB and session.parent_native_id == SID
    assert all(m.sidechain for m in session.messages)
    assert kinds(session) == {"prompt": 1, "tool_call": 1, "tool_result": 1, "response": 1}
    assert session.cwd == "/home/dev/shop"  # its `directories`, there being no sidecar


def test_json_and_jsonl_twins_share_keys(tmp_path: Path) -> None:
    """Resuming an old session migrates the .json into a .jsonl op-log: same ids, same keys."""
    data = json.loads(LEGACY.read_text())
    header = {k: v for k, v in data.items() if k != "messages"}
    migrated = tmp_path / (LEGACY.name + "l")
    migrated.write_text("\n".join(json.dumps(r) for r in [header, *data["messages"]]) + "\n")
    assert only(ADAPTER.parse(migrated)).messages == only(ADAPTER.parse(LEGACY)).messages


# --- layout under a fake HOME --------------------------------------------------------------------


def build_home(home: Path) -> Path:
    gemini = home / ".gemini"
    chats = gemini / "tmp" / "shop" / "chats"
    (chats / SID).mkdir(parents=True)
    for src in (OPLOG, CHECKPOINT):
        shutil.copy(src, chats)
    shutil.copy(SUBAGENT, chats / SID)
    shutil.copy(OPLOG, chats / (OPLOG.stem + ".json"))  # a migrated .json twin: skipped
    (chats / (OPLOG.name + ".tmp-4242")).write_text("{}")
    (gemini / "tmp" / "shop" / "logs.json").write_text("[]")
    (gemini / "tmp" / "shop" / ".project_root").write_text("/home/dev/shop\n")
    blog_hash = hashlib.sha256(b"/home/dev/blog").hexdigest()
    old = gemini / "tmp" / blog_hash / "chats"
    old.mkdir(parents=True)
    shutil.copy(LEGACY, old)
    (gemini / "projects.json").write_text(
        json.dumps({"projects": {"/home/dev/shop": "shop", "/home/dev/blog": "blog"}})
    )
    return gemini


def test_default_roots_and_discover_under_home(isolated_env: Path) -> None:
    gemini = build_home(isolated_env)
    roots = ADAPTER.default_roots()
    assert roots == [gemini / "tmp"]
    found = list(ADAPTER.discover(roots[0]))
    names = [p.relative_to(gemini / "tmp").as_posix() for p in found]
    blog = hashlib.sha256(b"/home/dev/blog").hexdigest()
    assert sorted(names) == sorted(
        [
            f"{blog}/chats/{LEGACY.name}",
            f"shop/chats/{SID}/{SUB}.jsonl",
            f"shop/chats/{CHECKPOINT.name}",
            f"shop/chats/{OPLOG.name}",
        ]
    )
    cwds = {only(ADAPTER.parse(p)).native_id: only(ADAPTER.parse(p)).cwd for p in found}
    assert cwds[SID] == "/home/dev/shop"  # .project_root
    assert cwds["2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901"] == "/home/dev/blog"  # sha256 folder name
    assert all(ADAPTER.detect(p) for p in found)
    assert ADAPTER.detect(gemini) and ADAPTER.detect(gemini / "tmp")


def test_slug_without_project_root(isolated_env: Path) -> None:
    gemini = build_home(isolated_env)
    (gemini / "tmp" / "shop" / ".project_root").unlink()
    assert only(ADAPTER.parse(gemini / "tmp" / "shop" / "chats" / OPLOG.name)).cwd == "/home/dev/shop"


def test_gemini_cli_home(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "profile"
    (other / ".gemini" / "tmp").mkdir(parents=True)
    monkeypatch.setenv("GEMINI_CLI_HOME", str(other))
    assert ADAPTER.default_roots() == [other / ".gemini" / "tmp"]


# --- resume --------------------------------------------------------------------------------------


def split_parse(tmp_path: Path, src: Path, cut: int) -> tuple[ParseResult, ParseResult, Path]:
    lines = src.read_bytes().splitlines(keepends=True)
    path = tmp_path / src.name
    path.write_bytes(b"".join(lines[:cut]))
    first = ADAPTER.parse(path)
    with open(path, "ab") as fh:
        fh.write(b"".join(lines[cut:]))
    return first, ADAPTER.parse(path, first.resume), path


@pytest.mark.parametrize("cut", [1, 2, 4, 5, 9, 10, 12, 14])
def test_resume_matches_a_full_read(tmp_path: Path, cut: int) -> None:
    first, second, _ = split_parse(tmp_path, OPLOG, cut)
    json.dumps(second.resume)
    full = {m.key: m for m in only(ADAPTER.parse(OPLOG)).messages}
    assert merged(first, second) == full
    (session,) = second.sessions
    assert session.title == "Add a parametrized discount test" and session.native_id == SID
    assert (second.warnings == []) == (cut >= 14)


@pytest.mark.parametrize("cut", [7, 8])
def test_rewind_after_a_parse_cannot_unstore(tmp_path: Path, cut: int) -> None:
    """Documented limit: what an earlier parse returned stays; the later parse returns nothing of it."""
    first, second, _ = split_parse(tmp_path, OPLOG, cut)
    full = {m.key: m for m in only(ADAPTER.parse(OPLOG)).messages}
    extra = set(merged(first, second)) - set(full)
    assert extra and all(k.split(":")[1][-2:] in ("03", "04") for k in extra)
    assert not any(k.split(":")[1][-2:] in ("03", "04") for s in second.sessions for m in s.messages for k in [m.key])


def test_resume_update_reemits_the_message(tmp_path: Path) -> None:
    first, second, _ = split_parse(tmp_path, OPLOG, 5)  # g1 written without its tool call
    assert [m.kind for m in only(first).messages] == ["prompt", "response"]
    assert [m.kind for m in only(second).messages][:3] == ["response", "tool_call", "tool_result"]


def test_resume_with_nothing_new(tmp_path: Path) -> None:
    path = tmp_path / OPLOG.name
    shutil.copy(OPLOG, path)
    first = ADAPTER.parse(path)
    again = ADAPTER.parse(path, first.resume)
    assert again.sessions == [] and again.errors == [] and again.warnings == []


def test_resume_with_only_a_new_title(tmp_path: Path) -> None:
    path = tmp_path / OPLOG.name
    shutil.copy(OPLOG, path)
    first = ADAPTER.parse(path)
    with open(path, "a") as fh:
        fh.write(json.dumps({"$set": {"summary": "Renamed"}}) + "\n")
    (session,) = ADAPTER.parse(path, first.resume).sessions
    assert session.messages == () and session.title == "Renamed"


# --- robustness ----------------------------------------------------------------------------------

value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
shaped = st.dictionaries(
    st.sampled_from(
        [
            "id",
            "type",
            "content",
            "parts",
            "toolCalls",
            "timestamp",
            "model",
            "sessionId",
            "projectHash",
            "$set",
            "$rewindTo",
            "messages",
            "kind",
            "summary",
        ]
    ),
    value | st.sampled_from(["user", "gemini", "m1", "x"]),
    max_size=6,
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
    path = tmp_path / "session-2026-01-01T00-00-abcdef12.jsonl"
    data = "\n".join(lines).encode("utf-8", "replace")
    path.write_bytes(data)
    result = ADAPTER.parse(path)
    json.dumps(result.resume)
    ADAPTER.parse(path, result.resume)
    ADAPTER.parse(path, {"offset": 1, "ids": "x", "meta": [], "tail": "nope"})
    single = path.with_suffix(".json")
    single.write_bytes(data)
    assert isinstance(ADAPTER.parse(single), ParseResult)
    obj = path.with_name("session-2026-01-01T00-00-abcdef13.json")
    obj.write_text(
        json.dumps(
            {
                "sessionId": "s",
                "messages": [json.loads(x) if x.startswith(("{", "[")) else x for x in lines[:3] if _is_json(x)],
            }
        )
    )
    assert isinstance(ADAPTER.parse(obj), ParseResult)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# --- detect --------------------------------------------------------------------------------------


def test_detect_own_fixtures() -> None:
    for path in (OPLOG, CHECKPOINT, LEGACY, SUBAGENT):
        assert ADAPTER.detect(path), path


@needs_shared
def test_detect_tells_other_agents_apart() -> None:
    for name in ("gemini-session-simple.jsonl", "jsonl_v040.jsonl", "large.json", "session-01.json", "small.json"):
        assert ADAPTER.detect(SHARED / name), name
    for folder in ("codex", "copilot-cli", "claude-code"):
        for path in (OTHER_AGENTS / folder).iterdir():
            assert not ADAPTER.detect(path), path
    assert not ADAPTER.detect(OTHER_AGENTS / "missing.json")


def test_failed_tool_call_is_an_error_result(tmp_path: Path) -> None:
    lines = OPLOG.read_text().splitlines(keepends=True)
    path = tmp_path / OPLOG.name
    path.write_text("".join(lines[:8]))  # up to the failed write_file, before the rewind
    session = only(ADAPTER.parse(path))
    assert texts(session, "tool_result")[-1] == "[error] Permission denied"


def test_automatic_continue_turn_is_not_a_prompt() -> None:
    # Gemini CLI sends "System: Please continue." by itself after a reply stopped short.
    session = only(ADAPTER.parse(AUTO_CONTINUE))
    assert [(m.kind, m.text) for m in session.messages if m.role == "user"] == [
        ("prompt", "rename the retries flag to max_attempts everywhere"),
        ("injected_context", "System: Please continue."),
    ]
    assert not next(m for m in session.messages if m.text == "System: Please continue.").indexed


def test_automatic_continue_turn_through_the_cli(runner, tmp_path: Path) -> None:
    chats = tmp_path / ".gemini" / "tmp" / "3f1c0a9e" / "chats"
    chats.mkdir(parents=True)
    shutil.copy(AUTO_CONTINUE, chats / AUTO_CONTINUE.name)
    out = invoke_json(runner, "ingest", "--agent", "gemini", "--path", str(chats))
    assert (out["sessions_found"], out["errors"]) == (1, [])
    [row] = invoke_json(runner, "sessions")
    assert row["title"].lower().startswith("rename the retries flag")
    assert invoke_json(runner, "search", "please continue") == []  # context is stored, never indexed
