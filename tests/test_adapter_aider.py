"""Aider adapter: real chat histories, hand-written ones, discovery under project roots, resume."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import SHARED_FIXTURES, invoke_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti.adapters.aider import AiderAdapter
from smriti.models import Message, Problem

REPO = Path(__file__).resolve().parent.parent
SHARED = SHARED_FIXTURES
SHARED_AIDER = SHARED / "aider"
OWN = Path(__file__).resolve().parent / "fixtures" / "aider"
UDIFF = OWN / "udiff-session.aider.chat.history.md"
TRUNCATED = OWN / "truncated-top.aider.chat.history.md"
COMMANDS = OWN / "commands.aider.chat.history.md"

K = ("injected_context", "prompt", "response", "tool_result", "tool_call")
NO_HEADER = "no '# aider chat started at' header: not an aider chat history"

# Per session, in file order: header, then counts of (injected_context, prompt, response, tool_result,
# tool_call). Counted by hand with an awk pass that classifies every non-blank line as P (`#### `,
# except the logged "(Y)es/(N)o … [Yes]: x" answers), T (`> `/`>`) or A (anything else) and collapses
# runs (a P run ends at a blank line; T and A runs continue across blank lines). The first T run
# before any prompt is the startup banner (injected_context), later T runs are aider's output. A P
# run starting with a chat command (`/add`, `/ls`, `!find`, …) is a tool_call, except
# `/copy-context Q` (a prompt). A run without a prompt or an answer (a banner, a few commands) is
# no session.
# afi-core: e.g. 15:18:04 is TPATPATPAT; 20:11:30 has 57 runs (19 P of which 9 commands, 14 A, 24 T);
# 20:10:38 is only the "newer version" banner (no session). zen-mcp-server: 21:49:17 and 09:29:12
# are banners only, 21:49:22 a banner and `/add **` (no sessions); 17:04:56 alternates 2 `/add`
# and 5 `/copy-context` prompts with their output (no assistant text at all).
EXPECTED_SHARED: dict[str, object] = {
    "afi-core__.aider.chat.history.md": [
        ("2025-07-15 11:38:37", (1, 1, 1, 1, 0)),
        ("2025-07-15 14:53:34", (1, 2, 3, 3, 0)),
        ("2025-07-15 15:06:38", (1, 1, 1, 2, 0)),
        ("2025-07-15 15:18:04", (1, 3, 3, 3, 0)),
        ("2025-07-16 20:11:30", (1, 10, 14, 23, 9)),
        ("2025-07-22 17:49:27", (1, 3, 4, 5, 0)),
        ("2025-07-23 11:25:21", (1, 1, 1, 3, 1)),  # `!find …` is a shell call
        ("2025-08-04 13:59:12", (1, 7, 15, 17, 2)),  # /bye, /exit
    ],
    "zen-mcp-server__.aider.chat.history.md": [
        ("2025-10-23 17:04:56", (1, 5, 0, 7, 2)),
    ],
    # The prompt_toolkit input history is not a chat history: it has no session header.
    "afi-core__.aider.input.history": NO_HEADER,
    "zen-mcp-server__.aider.input.history": NO_HEADER,
}
EXPECTED_MODELS = {
    "afi-core__.aider.chat.history.md": {
        "2025-07-16 20:10:38": (),
        "2025-08-04 13:59:12": ("gpt-4.1",),
        "*": ("gpt-4o",),
    },
    "zen-mcp-server__.aider.chat.history.md": {
        "2025-10-20 21:49:17": (),
        "*": ("gemini/gemini-2.5-pro-preview-06-05",),
    },
}


def _nid(path: Path, header: str, repeat: int = 1) -> str:
    identity = f"{path.absolute()}#{header}" + (f"#{repeat}" if repeat > 1 else "")
    return hashlib.sha256(identity.encode()).hexdigest()[:16]


def _kinds(messages: tuple[Message, ...]) -> tuple[int, ...]:
    counts = Counter(m.kind for m in messages)
    return tuple(counts.get(k, 0) for k in K)


def _shared_files() -> list[Path]:
    return sorted(SHARED_AIDER.glob("*")) if SHARED_AIDER.is_dir() else []


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch):
    """Header times are local: pin this machine's zone so expectations are exact."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.skipif(not SHARED_AIDER.is_dir(), reason="shared fixtures absent")
def test_every_shared_fixture_has_an_expectation() -> None:
    assert {p.name for p in _shared_files()} == set(EXPECTED_SHARED)


@pytest.mark.parametrize("path", _shared_files(), ids=lambda p: p.name)
def test_shared_fixture_conformance(path: Path, utc: None) -> None:
    expected = EXPECTED_SHARED[path.name]
    result = AiderAdapter().parse(path)
    assert result.warnings == []
    if isinstance(expected, str):
        assert result.sessions == [] and result.errors == [Problem(str(path), expected)]
        return
    assert result.errors == []
    assert [(s.started_at, _kinds(s.messages)) for s in result.sessions] == [
        (f"{header.replace(' ', 'T')}.000Z", counts) for header, counts in expected
    ]
    models = EXPECTED_MODELS[path.name]
    for (header, _), session in zip(expected, result.sessions, strict=True):
        assert session.native_id == _nid(path, header)
        assert session.models == models.get(header, models["*"])
        assert session.cwd == str(path.absolute().parent)
        assert session.agent == "aider" and session.source_paths == (str(path),)
    keys = [m.key for s in result.sessions for m in s.messages]
    assert len(keys) == len(set(keys))


@pytest.mark.skipif(not SHARED_AIDER.is_dir(), reason="shared fixtures absent")
def test_shared_grammar_details() -> None:
    sessions = AiderAdapter().parse(SHARED_AIDER / "afi-core__.aider.chat.history.md").sessions
    second = sessions[1].messages
    assert second[0].kind == "injected_context" and second[0].text.startswith(
        "/opt/homebrew/bin/aider .aider.conf.json"
    )
    prompts = [m.text for m in second if m.kind == "prompt"]
    assert prompts == ["chmod +x ~/AFI_Modular_Repos/*.sh", "sync-afi\naider-afi"]  # a two-line prompt
    edits = [m for m in second if m.files]
    assert edits[0].files == ("aider-afi.sh", "sync-afi.sh")  # from "> Applied edit to …"
    response = next(m for m in second if "SEARCH/REPLACE" in m.text)
    assert ">>>>>>> REPLACE" in response.text  # an edit block line is not aider output
    fourth = [m.text for m in sessions[3].messages if m.kind == "prompt"]
    assert not any("(Y)es/(N)o" in p for p in fourth)  # logged confirmation answers are not prompts
    [zen] = AiderAdapter().parse(SHARED_AIDER / "zen-mcp-server__.aider.chat.history.md").sessions
    add = next(m for m in zen.messages if m.kind == "tool_call")  # a multi-line /add is one command
    assert (add.tool_name, add.action, add.tool_input["args"].splitlines()[1]) == (
        "/add",
        "other",
        "  /home/dragonfsky/git/github/zen-mcp-server/utils/token_utils.py",
    )
    assert add.files[:2] == (
        "/home/dragonfsky/git/github/zen-mcp-server/utils/file_utils.py",
        "/home/dragonfsky/git/github/zen-mcp-server/utils/token_utils.py",
    )
    add_output = next(m for m in zen.messages if m.kind == "tool_result")
    assert add_output.tool_name == "/add" and add_output.text.startswith("Added config.py to the chat")
    # `/copy-context Q`: the question is the prompt, without the command
    assert next(m for m in zen.messages if m.kind == "prompt").text == "请你分析一下我这列的处理，我想知道我"
    shell = next(m for m in sessions[6].messages if m.kind == "tool_call")
    assert (shell.tool_name, shell.action, shell.tool_input["command"][:7]) == ("!", "shell", "find . ")


def test_own_udiff_fixture(utc: None) -> None:
    result = AiderAdapter().parse(UDIFF)
    assert result.errors == [] and result.warnings == []
    first, second = result.sessions
    # Both runs started in the same second: the repeat gets its own id.
    assert (first.native_id, second.native_id) == (
        _nid(UDIFF, "2024-03-02 09:15:44"),
        _nid(UDIFF, "2024-03-02 09:15:44", 2),
    )
    assert first.started_at == second.started_at == "2024-03-02T09:15:44.000Z"
    # `#### <blank>` is an empty input, not a prompt; /add and /run are calls
    assert _kinds(first.messages) == (1, 1, 2, 4, 2)
    assert first.models == ("gpt-4-1106-preview",)  # the old "Model: … using udiff" banner
    assert [m.tool_name for m in first.messages if m.kind == "tool_result"] == ["/add", None, "/run", None]
    assert _kinds(second.messages) == (2, 1, 1, 0, 0)
    context, prompt = second.messages[1:3]
    assert context.kind == "injected_context" and context.text.startswith("<smriti-context")
    assert prompt.text == "why does tokenize skip tabs?"


def test_own_truncated_fixture(utc: None) -> None:
    orphan, run = AiderAdapter().parse(TRUNCATED).sessions
    # Lines above the first header (the top of the file was cut) still form a session.
    assert orphan.native_id == _nid(TRUNCATED, "<no header>") and orphan.started_at is None
    assert [m.kind for m in orphan.messages] == ["response", "injected_context"]
    assert _kinds(run.messages) == (1, 1, 1, 1, 0)
    assert run.models == ("claude-3-opus-20240229",)


def test_own_commands_fixture(utc: None) -> None:
    result = AiderAdapter().parse(COMMANDS)
    assert result.errors == [] and result.warnings == []
    # The first and the last run are aider's banner alone: no session. The last one may still grow
    # into a conversation, so the resume point stops at its header and it is read again next time.
    [run] = result.sessions
    assert run.native_id == _nid(COMMANDS, "2025-09-08 09:00:10")
    assert result.resume["offset"] == COMMANDS.read_bytes().index(b"# aider chat started at 2025-09-08 17:30:44")
    assert [m.text for m in run.messages if m.kind == "prompt"] == [
        "why does the invoice total drift by a cent on refunds?",  # `/ask Q` and its echo `Q`: once
        "switch the line amounts to Decimal",
    ]
    calls = [(m.role, m.tool_name, m.action, m.files) for m in run.messages if m.kind == "tool_call"]
    assert calls == [
        ("user", "/add", "other", ("billing/invoice.py",)),  # a glob names no one file
        ("user", "/model", "other", ()),
        ("user", "/run", "shell", ()),
        ("user", "/drop", "other", ()),
        ("user", "/exit", "other", ()),
    ]
    run_output = next(m for m in run.messages if m.kind == "tool_result" and m.tool_name == "/run")
    assert run_output.action == "shell" and run_output.text.startswith("12 passed")
    answer = next(m for m in run.messages if m.kind == "response")
    assert answer.text.startswith("Each line amount is a float")  # the reasoning and its tags are gone
    assert not any("thinking-content" in m.text or "summed as floats" in m.text for m in run.messages)


def test_commands_fixture_through_the_cli(runner, tmp_path: Path) -> None:
    project = tmp_path / "billing-svc"
    project.mkdir()
    shutil.copy(COMMANDS, project / ".aider.chat.history.md")
    out = invoke_json(runner, "ingest", "--agent", "aider", "--path", str(project))
    assert (out["sessions_found"], out["errors"]) == (1, [])
    [row] = invoke_json(runner, "sessions")
    assert row["title"].lower().startswith("why does the invoice total drift by a cent on refunds")
    assert invoke_json(runner, "search", "drift cent refunds")[0]["native_id"] == row["native_id"]


def test_header_time_is_local_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:
        sessions = AiderAdapter().parse(TRUNCATED).sessions
        assert sessions[1].started_at == "2024-05-10T16:02:03.000Z"  # CEST is UTC+2 in May
        summer = AiderAdapter().parse(UDIFF).sessions[0]
        assert summer.started_at == "2024-03-02T08:15:44.000Z"  # CET is UTC+1 in March
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


# --- resume ----------------------------------------------------------------------------------


def _history(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(text)
    return path


RUN_1 = "\n# aider chat started at 2024-06-01 10:00:00\n\n> Aider v0.40.0  \n\n#### fix the bug  \n\nDone.\n\n"
RUN_2 = "\n# aider chat started at 2024-06-01 11:00:00\n\n> Aider v0.40.0  \n\n#### add tests  \n\nAdded.\n\n"


def test_resume_reads_a_new_run_alone(tmp_path: Path, utc: None) -> None:
    path = _history(tmp_path, RUN_1)
    adapter = AiderAdapter()
    first = adapter.parse(path)
    assert [s.native_id for s in first.sessions] == [_nid(path, "2024-06-01 10:00:00")]
    with open(path, "a") as fh:
        fh.write(RUN_2)
    second = adapter.parse(path, first.resume)
    assert [s.native_id for s in second.sessions] == [_nid(path, "2024-06-01 11:00:00")]
    assert [m.text for m in second.sessions[0].messages] == ["Aider v0.40.0", "add tests", "Added."]
    third = adapter.parse(path, second.resume)
    assert third.sessions == [] and third.errors == []
    with open(path, "a") as fh:
        fh.write(RUN_1)  # a run that started in the same second as an earlier one
    fourth = adapter.parse(path, third.resume)
    assert [s.native_id for s in fourth.sessions] == [_nid(path, "2024-06-01 10:00:00", 2)]


def test_resume_continues_the_open_run(tmp_path: Path) -> None:
    path = _history(tmp_path, RUN_1)
    adapter = AiderAdapter()
    first = adapter.parse(path)
    with open(path, "a") as fh:
        fh.write("> Applied edit to app.py  \n\n#### thanks  \n")
    second = adapter.parse(path, first.resume)
    [session] = second.sessions
    assert session.native_id == first.sessions[0].native_id
    nid = session.native_id
    assert [(m.key, m.kind, m.text) for m in session.messages] == [
        (f"{nid}:3", "tool_result", "Applied edit to app.py"),
        (f"{nid}:4", "prompt", "thanks"),
    ]
    assert session.messages[0].files == ("app.py",)


def test_resume_regrows_a_block_that_was_still_open(tmp_path: Path) -> None:
    path = _history(tmp_path, RUN_1 + "> Tokens: 1k sent, 20 received.  \n")
    adapter = AiderAdapter()
    first = adapter.parse(path)
    nid = first.sessions[0].native_id
    with open(path, "a") as fh:
        fh.write("> Commit abc123 fix: the bug  \n")
    [session] = adapter.parse(path, first.resume).sessions
    # Same key, grown text: the store replaces the message it already has.
    assert [(m.key, m.text) for m in session.messages] == [
        (f"{nid}:3", "Tokens: 1k sent, 20 received.\nCommit abc123 fix: the bug")
    ]


def test_resume_leaves_a_torn_last_line(tmp_path: Path) -> None:
    path = _history(tmp_path, RUN_1 + "#### half a pro")
    adapter = AiderAdapter()
    first = adapter.parse(path)
    assert [m.text for m in first.sessions[0].messages][-1] == "Done."
    with open(path, "a") as fh:
        fh.write("mpt  \n")
    [session] = adapter.parse(path, first.resume).sessions
    assert [m.text for m in session.messages] == ["half a prompt"]


def test_rewritten_file_is_read_from_the_start(tmp_path: Path) -> None:
    path = _history(tmp_path, RUN_1 + RUN_2)
    adapter = AiderAdapter()
    first = adapter.parse(path)
    path.write_text(RUN_2 + RUN_1 + RUN_2)  # rewritten (e.g. restored from git), not appended
    again = adapter.parse(path, first.resume)
    assert len(again.sessions) == 3


def test_resume_after_every_line_equals_a_full_read(tmp_path: Path) -> None:
    """Cut the file at every line, parse both halves with resume: same messages as one read."""
    adapter = AiderAdapter()
    for fixture in (UDIFF, TRUNCATED, COMMANDS):
        data = fixture.read_bytes()
        path = tmp_path / fixture.name
        path.write_bytes(data)
        full = {m.key: (s.native_id, m) for s in adapter.parse(path).sessions for m in s.messages}
        cuts = [i + 1 for i, b in enumerate(data) if b == 10]
        for cut in cuts:
            path.write_bytes(data[:cut])
            head = adapter.parse(path)
            got = {m.key: (s.native_id, m) for s in head.sessions for m in s.messages}
            path.write_bytes(data)
            got.update({m.key: (s.native_id, m) for s in adapter.parse(path, head.resume).sessions for m in s.messages})
            assert got == full, (fixture.name, cut)


# --- discovery -------------------------------------------------------------------------------


def test_discover_under_a_project_root(tmp_path: Path) -> None:
    root = tmp_path / "code"
    wanted = [
        root / "api" / ".aider.chat.history.md",
        root / "a" / "b" / "c" / "d" / "e" / ".aider.chat.history.md",
        root / "packages" / "web" / ".aider.chat.history.md",
    ]
    ignored = [
        root / "api" / "node_modules" / "left-pad" / ".aider.chat.history.md",
        root / "api" / ".git" / ".aider.chat.history.md",
        root / "api" / ".venv" / ".aider.chat.history.md",
        root / "pyenv311" / ".aider.chat.history.md",  # a virtualenv with a custom name
        root / ".cache" / "x" / ".aider.chat.history.md",
        root / "a" / "b" / "c" / "d" / "e" / "f" / ".aider.chat.history.md",  # deeper than any project
    ]
    for path in wanted + ignored:
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(TRUNCATED, path)
    (root / "pyenv311" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "api" / ".aider.input.history").write_text("\n# 2024-01-01 00:00:00.000000\n+hi\n")
    adapter = AiderAdapter()
    assert list(adapter.discover(root)) == sorted(wanted)
    assert list(adapter.discover(wanted[0])) == [wanted[0]]
    assert adapter.detect(root / "api") and not adapter.detect(root)


def test_default_roots(isolated_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    adapter = AiderAdapter()
    monkeypatch.delenv("AIDER_CHAT_HISTORY_FILE", raising=False)
    assert adapter.default_roots() == []  # project roots come from the config and known repos
    home_history = isolated_env / ".aider.chat.history.md"
    shutil.copy(UDIFF, home_history)
    custom = tmp_path / "chat.md"
    shutil.copy(UDIFF, custom)
    monkeypatch.setenv("AIDER_CHAT_HISTORY_FILE", str(custom))
    assert adapter.default_roots() == [custom, home_history]
    assert list(adapter.discover(custom)) == [custom]


def test_detect() -> None:
    adapter = AiderAdapter()
    assert adapter.detect(UDIFF) and adapter.detect(TRUNCATED)
    for path in _shared_files():
        assert adapter.detect(path) == path.name.endswith(".aider.chat.history.md")
    others = [
        SHARED / "claude-code" / "session-01.jsonl",
        SHARED / "amp" / "T-019ca1ce-3ae2-7686-a41e-ccc078837f8a.json",
    ]
    for other in others:
        if other.exists():
            assert not adapter.detect(other)
    assert not adapter.detect(REPO / "README.md")


def test_unreadable_input(tmp_path: Path) -> None:
    empty = _history(tmp_path, "\n\n")
    assert AiderAdapter().parse(empty).errors == [Problem(str(empty), "empty file: no aider chat history")]
    assert AiderAdapter().parse(tmp_path).errors == [
        Problem(str(tmp_path), "is a directory, not an aider chat history file")
    ]
    missing = tmp_path / "missing.md"
    assert AiderAdapter().parse(missing).errors[0].error.startswith("cannot read the file")


def test_undecodable_bytes_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_bytes(RUN_1.encode().replace(b"fix the bug", b"fix the \xff\xfebug"))
    [session] = AiderAdapter().parse(path).sessions
    assert [m.text for m in session.messages if m.kind == "prompt"] == ["fix the bug"]


lines = st.lists(
    st.sampled_from(
        [
            "# aider chat started at 2024-01-01 00:00:00",
            "#### hi  ",
            "####",
            "> out  ",
            ">",
            "",
            "text",
            ">>>>>>> REPLACE",
            "#### Add? (Y)es/(N)o [Yes]: y",
            "#### <blank>",
            "\r",
        ]
    )
    | st.text(max_size=30),
    max_size=30,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=lines, cut=st.integers(min_value=0, max_value=2000), raw=st.binary(max_size=200))
def test_garbage_never_raises(text: list[str], cut: int, raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ".aider.chat.history.md"
        data = "\n".join(text).encode("utf-8", "surrogatepass") + raw
        path.write_bytes(data[:cut])
        first = AiderAdapter().parse(path)
        path.write_bytes(data)
        AiderAdapter().parse(path, first.resume)
        AiderAdapter().parse(path, {"offset": "x", "run": {"open": {"cls": "text", "lines": [1]}}, "seen": []})
