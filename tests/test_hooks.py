"""`smriti hook AGENT EVENT`: the real console script, hook JSON on stdin exactly as each agent
sends it, a real store and index built from examples/claude-code (cwd /home/dev/payments-api)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_smriti

from smriti.hooks import log as hooklog
from smriti.hooks import protocol
from smriti.hooks import server as hookserver

CWD = "/home/dev/payments-api"
POOL_SESSION = "6c0e2a4e-1b7d-4c61-9d1e-3a5f7b9c2d10"
POOL_PROMPT = "The pool times out again under load: why did we pin psycopg last time?"
UNRELATED_PROMPT = "Write a haiku about autumn leaves falling on a quiet lake"


@pytest.fixture(autouse=True)
def _hook_env(monkeypatch: pytest.MonkeyPatch, data_dir: Path):
    monkeypatch.setenv("SMRITI_HOOK_SERVER_IDLE", "60")  # a server a test leaves behind dies soon
    monkeypatch.setenv("SMRITI_RECORD_DELAY", "0.05")
    for var in (
        "CURSOR_VERSION",
        "CURSOR_PROJECT_DIR",
        "CURSOR_TRANSCRIPT_PATH",
        "CLAUDE_PROJECT_DIR",
        "GEMINI_CWD",
        "GEMINI_PROJECT_DIR",
        "SMRITI_HOOK_SERVER",
        "SMRITI_HOOK_TIMEOUT",
    ):
        monkeypatch.delenv(var, raising=False)
    yield
    if os.path.isdir("/proc"):
        _wait_for_recorders(data_dir)
        _stop_servers(data_dir)
    else:
        hookserver.stop(str(data_dir))  # the recorders cannot be seen; the server's lock still can


def _env(home: Path, data: Path, **extra: str) -> dict[str, str]:
    return {"SMRITI_HOME": str(data), "HOME": str(home), **extra}


def hook(
    agent: str, event: str, payload: dict | str, home: Path, data: Path, **extra: str
) -> subprocess.CompletedProcess:
    stdin = payload if isinstance(payload, str) else json.dumps(payload)
    return run_smriti("hook", agent, event, stdin=stdin, env=_env(home, data, **extra))


@pytest.fixture
def store(isolated_env: Path, data_dir: Path) -> Path:
    proc = run_smriti(
        "ingest",
        "--agent",
        "claude-code",
        "--path",
        str(EXAMPLES / "claude-code"),
        "-q",
        env=_env(isolated_env, data_dir),
    )
    assert proc.returncode == 0, proc.stderr
    return data_dir


def _context(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.strip()
    if not out:
        return ""
    data = json.loads(out)
    if "hookSpecificOutput" in data:
        return data["hookSpecificOutput"]["additionalContext"]
    return data.get("additional_context") or data.get("contextModification") or ""


# ---- payloads exactly as the agents send them (docs/agent-hooks.md) --------------------------


def claude_prompt(prompt: str, sid: str = "11111111-aaaa-4bbb-8ccc-000000000001") -> dict:
    return {
        "session_id": sid,
        "transcript_path": f"/home/dev/.claude/projects/-home-dev-payments-api/{sid}.jsonl",
        "cwd": CWD,
        "permission_mode": "default",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }


def codex_prompt(prompt: str, sid: str = "019a1111-2222-7333-8444-555566667777") -> dict:
    return {
        "session_id": sid,
        "turn_id": "1",
        "transcript_path": None,
        "cwd": CWD,
        "hook_event_name": "UserPromptSubmit",
        "model": "gpt-5.1-codex",
        "permission_mode": "default",
        "prompt": prompt,
    }


def gemini_prompt(prompt: str, sid: str = "gem-0001") -> dict:
    return {
        "session_id": sid,
        "transcript_path": f"/home/dev/.gemini/tmp/x/chats/session-{sid}.json",
        "cwd": CWD,
        "hook_event_name": "BeforeAgent",
        "timestamp": "2026-11-21T10:00:00.000Z",
        "prompt": prompt,
    }


def cline_prompt(prompt: str, task: str = "1763712000000") -> dict:
    return {
        "clineVersion": "3.40.0",
        "hookName": "UserPromptSubmit",
        "timestamp": "1763712000000",
        "taskId": task,
        "workspaceRoots": [CWD],
        "userId": "u1",
        "userPromptSubmit": {"prompt": prompt, "attachments": []},
    }


def cursor_session_start(conversation: str = "c0ffee00-1111-2222-3333-444455556666") -> dict:
    return {
        "conversation_id": conversation,
        "generation_id": "g1",
        "model": "claude-sonnet-4-5",
        "hook_event_name": "sessionStart",
        "cursor_version": "2.1.0",
        "workspace_roots": [CWD],
        "user_email": "dev@example.com",
        "transcript_path": None,
        "session_id": conversation,
        "is_background_agent": False,
        "composer_mode": "agent",
    }


def _wait_for_server(data: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if hookserver.request(str(data), {"op": "ping"}, timeout=2).get("ok"):
                return
        except (hookserver.Unavailable, OSError, ValueError):
            pass
        time.sleep(0.1)
    raise AssertionError("the recall server did not come up")


# ---- injection --------------------------------------------------------------------------------


def test_prompt_about_an_earlier_topic_gets_that_session(store: Path, isolated_env: Path) -> None:
    proc = hook("claude-code", "prompt", claude_prompt(POOL_PROMPT), isolated_env, store)
    out = json.loads(proc.stdout)
    assert set(out) == {"hookSpecificOutput"}
    assert out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    context = out["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("<smriti-context") and context.endswith("</smriti-context>")
    assert "connection pool" in context.lower()
    assert len(context) <= 4 * 1000 + 200
    log = hooklog.injections(str(store))
    assert log[-1]["agent"] == "claude-code" and log[-1]["chars"] == len(context) and log[-1]["items"]
    assert log[-1]["session"] == "11111111-aaaa-4bbb-8ccc-000000000001" and log[-1]["cwd"] == CWD


def test_a_synced_teammates_item_reaches_the_prompt_in_its_repo(
    isolated_env: Path, data_dir: Path, tmp_path: Path
) -> None:
    from smriti.team import knowledge

    origin, clone = tmp_path / "origin.git", tmp_path / "payments"
    git = ["git", "-c", "user.name=bob", "-c", "user.email=bob@example.com"]
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True, capture_output=True)
    item = knowledge.new_item(
        id="7e1a5b0c9d2f4e11",
        title="Stripe webhooks arrive twice: dedupe on the event id",
        category="bug/fix",
        author="bob",
        created="2026-11-01T00:00:00Z",
        body="# Stripe webhooks arrive twice\n\n## Summary\nStripe retries a webhook when our "
        "handler is slow, so `invoice.paid` arrived twice and customers were credited "
        "twice. Fix: an idempotency table keyed on the Stripe event id.\n",
    )
    path = clone / ".smriti" / knowledge.item_path(item)
    path.parent.mkdir(parents=True)
    path.write_bytes(knowledge.render_bytes(item))
    for cmd in (["add", "-A"], ["commit", "-qm", "Share: webhook dedupe"], ["push", "-q", "origin", "main"]):
        subprocess.run([*git, "-C", str(clone), *cmd], check=True, capture_output=True)
    env = _env(isolated_env, data_dir)
    synced = run_smriti("sync", "--repo", str(clone), "--json", env=env)
    assert synced.returncode == 0 and json.loads(synced.stdout)["imported"] == 1, synced.stderr

    def ask(cwd: str, sid: str) -> str:
        payload = {
            **claude_prompt("customers got credited twice when a stripe webhook fired, how do we dedupe?", sid),
            "cwd": cwd,
        }
        return _context(hook("claude-code", "prompt", payload, isolated_env, data_dir))

    context = ask(str(clone), "team-1")
    assert "Stripe webhooks arrive twice" in context and "team" in context and "bob" in context
    assert "smriti show 7e1a5b0c9d2f4e11" in context
    assert "7e1a5b0c9d2f4e11" not in ask(str(tmp_path), "team-2")  # a team's items stay in their repo


def test_unrelated_prompt_gets_nothing(store: Path, isolated_env: Path) -> None:
    proc = hook("claude-code", "prompt", claude_prompt(UNRELATED_PROMPT), isolated_env, store)
    assert proc.returncode == 0 and proc.stdout == ""
    assert hooklog.injections(str(store))[-1]["chars"] == 0


def test_warm_server_gives_the_same_answer_as_in_process(store: Path, isolated_env: Path) -> None:
    first = _context(
        hook("claude-code", "prompt", claude_prompt(POOL_PROMPT, "sess-a"), isolated_env, store, SMRITI_HOOK_SERVER="0")
    )
    assert first
    hook("claude-code", "prompt", claude_prompt(POOL_PROMPT, "sess-b"), isolated_env, store)  # starts the server
    _wait_for_server(store)
    served = _context(hook("claude-code", "prompt", claude_prompt(POOL_PROMPT, "sess-c"), isolated_env, store))
    assert served == first
    assert hooklog.injections(str(store))[-1]["session"] == "sess-c"


def test_the_server_sees_sessions_ingested_after_it_started(store: Path, isolated_env: Path, tmp_path: Path) -> None:
    hook("claude-code", "prompt", claude_prompt("warm it up", "s1"), isolated_env, store)
    _wait_for_server(store)
    prompt = "zebrafish ontology migration for the quarantine ledger"
    assert _context(hook("claude-code", "prompt", claude_prompt(prompt, "s2"), isolated_env, store)) == ""
    new = tmp_path / "new" / "-home-dev-payments-api"
    new.mkdir(parents=True)
    line = {
        "type": "user",
        "sessionId": "fresh-0001",
        "uuid": "u1",
        "cwd": CWD,
        "timestamp": "2026-11-20T10:00:00.000Z",
        "message": {
            "role": "user",
            "content": "Plan the zebrafish ontology migration for the quarantine ledger service",
        },
    }
    (new / "fresh-0001.jsonl").write_text(json.dumps(line) + "\n")
    assert (
        run_smriti(
            "ingest", "--agent", "claude-code", "--path", str(new), "-q", env=_env(isolated_env, store)
        ).returncode
        == 0
    )
    assert "zebrafish" in _context(hook("claude-code", "prompt", claude_prompt(prompt, "s3"), isolated_env, store))


@pytest.mark.parametrize(
    "agent,payload,check",
    [
        (
            "codex",
            codex_prompt(POOL_PROMPT),
            lambda out: out["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit",
        ),
        ("gemini", gemini_prompt(POOL_PROMPT), lambda out: out["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"),
        ("cline", cline_prompt(POOL_PROMPT), lambda out: out["cancel"] is False and "contextModification" in out),
    ],
    ids=["codex", "gemini", "cline"],
)
def test_each_agent_gets_its_own_output_shape(store: Path, isolated_env: Path, agent, payload, check) -> None:
    proc = hook(agent, "prompt", payload, isolated_env, store)
    out = json.loads(proc.stdout)
    assert check(out)
    assert "connection pool" in _context(proc).lower()
    if agent == "codex":  # Codex's schema is strict: nothing but these keys
        assert set(out) == {"hookSpecificOutput"} and set(out["hookSpecificOutput"]) == {
            "hookEventName",
            "additionalContext",
        }


@pytest.mark.parametrize(
    "agent,event,payload,expected",
    [
        ("claude-code", "prompt", claude_prompt(UNRELATED_PROMPT), ""),
        ("codex", "prompt", codex_prompt(UNRELATED_PROMPT), ""),
        ("gemini", "prompt", gemini_prompt(UNRELATED_PROMPT), "{}"),
        ("cline", "prompt", cline_prompt(UNRELATED_PROMPT), '{"cancel": false}'),
        (
            "cursor",
            "prompt",
            {
                "conversation_id": "c1",
                "hook_event_name": "beforeSubmitPrompt",
                "cursor_version": "2.1.0",
                "workspace_roots": [CWD],
                "prompt": POOL_PROMPT,
                "attachments": [],
            },
            "{}",
        ),
        (
            "copilot-cli",
            "prompt",
            {"sessionId": "cli-1", "timestamp": 1763712000000, "cwd": CWD, "prompt": POOL_PROMPT},
            "",
        ),
    ],
    ids=["claude", "codex", "gemini", "cline", "cursor-cannot-inject", "copilot-cli-cannot-inject"],
)
def test_nothing_to_say_is_each_agents_own_empty_answer(
    store: Path, isolated_env: Path, agent, event, payload, expected
) -> None:
    proc = hook(agent, event, payload, isolated_env, store)
    assert proc.returncode == 0 and proc.stdout.strip() == expected


def test_session_start_gives_the_projects_recent_work(store: Path, isolated_env: Path) -> None:
    payload = {
        "session_id": "new-1",
        "transcript_path": "/x.jsonl",
        "cwd": CWD,
        "hook_event_name": "SessionStart",
        "source": "startup",
        "model": "claude-sonnet-5",
    }
    out = json.loads(hook("claude-code", "session-start", payload, isolated_env, store).stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "<smriti-context" in out["hookSpecificOutput"]["additionalContext"]
    elsewhere = {**payload, "session_id": "new-2", "cwd": "/home/dev/somewhere-else"}
    assert hook("claude-code", "session-start", elsewhere, isolated_env, store).stdout == ""


def test_cursor_native_session_start(store: Path, isolated_env: Path) -> None:
    out = json.loads(hook("cursor", "session-start", cursor_session_start(), isolated_env, store).stdout)
    assert set(out) == {"additional_context"} and "<smriti-context" in out["additional_context"]


def test_cursor_payload_through_the_claude_code_hook_is_recognised(store: Path, isolated_env: Path) -> None:
    payload = cursor_session_start("c0ffee00-0000-0000-0000-000000000001")
    out = json.loads(hook("claude-code", "session-start", payload, isolated_env, store).stdout)
    # Cursor accepts Claude's nested shape from Claude's settings files.
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert hooklog.injections(str(store))[-1]["agent"] == "cursor"
    # Cursor's prompt event (mapped from UserPromptSubmit) cannot inject: Cursor's empty answer.
    prompt = {**payload, "hook_event_name": "beforeSubmitPrompt", "prompt": POOL_PROMPT}
    assert hook("claude-code", "prompt", prompt, isolated_env, store).stdout.strip() == "{}"


def test_cursor_runs_both_hook_files_and_context_is_injected_once(store: Path, isolated_env: Path) -> None:
    payload = cursor_session_start("c0ffee00-0000-0000-0000-000000000002")
    # Only the Claude Code hooks: that copy answers.
    assert _context(hook("claude-code", "session-start", payload, isolated_env, store))
    # smriti's native Cursor hooks installed too: Cursor runs both; exactly one answers.
    assert run_smriti("hooks", "install", "--agent", "cursor", env=_env(isolated_env, store)).returncode == 0
    payload = cursor_session_start("c0ffee00-0000-0000-0000-000000000003")
    via_claude = hook("claude-code", "session-start", payload, isolated_env, store)
    native = hook("cursor", "session-start", payload, isolated_env, store)
    assert via_claude.stdout.strip() == "{}"
    assert "additional_context" in json.loads(native.stdout)
    # The same event delivered twice (two hook files of one agent): the second run is a no-op.
    again = hook("cursor", "session-start", payload, isolated_env, store)
    assert again.returncode == 0 and again.stdout.strip() == "{}"


def test_vscode_payload_through_the_claude_code_hook(store: Path, isolated_env: Path) -> None:
    payload = {
        "timestamp": "2026-11-21T10:00:00.000Z",
        "cwd": CWD,
        "sessionId": "vs-1",
        "hookEventName": "SessionStart",
        "transcript_path": "/x/transcripts/vs-1.jsonl",
        "source": "new",
    }
    out = json.loads(hook("claude-code", "session-start", payload, isolated_env, store).stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert hooklog.injections(str(store))[-1]["agent"] == "copilot"
    # VS Code's UserPromptSubmit cannot inject: print nothing.
    prompt = {**payload, "hookEventName": "UserPromptSubmit", "prompt": POOL_PROMPT, "sessionId": "vs-2"}
    assert hook("claude-code", "prompt", prompt, isolated_env, store).stdout == ""


# ---- fail open --------------------------------------------------------------------------------


def test_missing_data_dir_is_a_quiet_no_op(isolated_env: Path, tmp_path: Path) -> None:
    data = tmp_path / "never-created"
    proc = hook("claude-code", "prompt", claude_prompt(POOL_PROMPT), isolated_env, data)
    assert proc.returncode == 0 and proc.stdout == ""
    assert not data.exists()


def test_broken_store_fails_open_and_is_logged(isolated_env: Path, data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "smriti.db").write_bytes(os.urandom(8192))
    for agent, payload, expected in (
        ("claude-code", claude_prompt(POOL_PROMPT), ""),
        ("gemini", gemini_prompt(POOL_PROMPT), "{}"),
    ):
        proc = hook(agent, "prompt", payload, isolated_env, data_dir)
        assert proc.returncode == 0 and proc.stdout.strip() == expected, proc.stderr
    failures = hooklog.failures(str(data_dir))
    assert failures and any("smriti.db" in f["error"] for f in failures)
    health = hooklog.health(str(data_dir))
    assert health["failing"] and health["failures_24h"] >= 2


def test_garbage_stdin_and_unknown_names_never_break_the_agent(store: Path, isolated_env: Path) -> None:
    assert hook("claude-code", "UserPromptSubmit", "\x00not json{{{", isolated_env, store).returncode == 0
    proc = hook("no-such-agent", "prompt", claude_prompt(POOL_PROMPT), isolated_env, store)
    assert proc.returncode == 0 and proc.stdout == ""
    assert "unknown agent" in hooklog.failures(str(store))[-1]["error"]


def test_stdin_never_closed_hits_the_timeout(store: Path, isolated_env: Path) -> None:
    exe = shutil.which("smriti", path=str(Path(sys.executable).parent))
    proc = subprocess.Popen(
        [exe, "hook", "gemini", "prompt"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "SMRITI_HOOK_TIMEOUT": "0.5"},
    )
    try:
        rc = proc.wait(timeout=20)  # stdin stays open: the read blocks until the alarm
        assert rc == 0
        assert proc.stdout.read().strip() == b"{}"
    finally:
        proc.stdin.close()
        proc.kill() if proc.poll() is None else None
    assert "timeout" in hooklog.failures(str(store))[-1]["error"]


def test_disabled_means_no_context_and_no_recording(store: Path, isolated_env: Path) -> None:
    proc = hook("claude-code", "prompt", claude_prompt(POOL_PROMPT), isolated_env, store, SMRITI_DISABLE="1")
    assert proc.returncode == 0 and proc.stdout == ""
    transcript = _claude_transcript(isolated_env)
    stop = {
        "session_id": POOL_SESSION,
        "transcript_path": str(transcript),
        "cwd": CWD,
        "hook_event_name": "Stop",
        "stop_hook_active": False,
        "last_assistant_message": "done",
    }
    fresh = isolated_env.parent / "fresh-data"
    proc = hook("claude-code", "stop", stop, isolated_env, fresh, SMRITI_DISABLE="1")
    assert proc.returncode == 0 and proc.stdout == ""
    time.sleep(0.5)
    assert not fresh.exists()
    assert not hooklog.injections(str(store))


def test_excluded_project_gets_no_context_and_is_not_recorded(store: Path, isolated_env: Path, tmp_path: Path) -> None:
    (store / "config.toml").write_text(f'exclude = ["{CWD}"]\n')
    assert _context(hook("claude-code", "prompt", claude_prompt(POOL_PROMPT, "ex-1"), isolated_env, store)) == ""
    other = tmp_path / "other-data"
    other.mkdir()
    (other / "config.toml").write_text(f'exclude = ["{CWD}"]\n')
    transcript = _claude_transcript(isolated_env)
    stop = {"session_id": POOL_SESSION, "transcript_path": str(transcript), "cwd": CWD, "hook_event_name": "Stop"}
    assert hook("claude-code", "stop", stop, isolated_env, other).returncode == 0
    _wait_for_recorders(other)
    sessions = run_smriti("sessions", "--json", env=_env(isolated_env, other))
    assert json.loads(sessions.stdout or "[]") == []


# ---- recording --------------------------------------------------------------------------------


def _claude_transcript(home: Path) -> Path:
    folder = home / ".claude" / "projects" / "-home-dev-payments-api"
    folder.mkdir(parents=True, exist_ok=True)
    src = EXAMPLES / "claude-code" / "-home-dev-payments-api" / f"{POOL_SESSION}.jsonl"
    dest = folder / src.name
    if not dest.exists():
        shutil.copy(src, dest)
    return dest


def _recorders(data: Path) -> list[int]:
    return _processes(b"smriti.hooks.record", data)


def _processes(module: bytes, data: Path) -> list[int]:
    """Our background processes for this data dir, read from /proc. Without /proc (macOS) a test
    that waits for them is skipped: it would otherwise check the store before the recorder ran."""
    if not os.path.isdir("/proc"):
        pytest.skip("seeing the detached recorder and recall server needs /proc (Linux)")
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if module in cmd and os.fsencode(str(data)) in cmd:
            pids.append(int(entry))
    return pids


def _servers(data: Path) -> list[int]:
    return _processes(b"smriti.hooks.server", data)


def _stop_servers(data: Path, timeout: float = 30) -> None:
    """Stop the recall server a test's hooks started, even one still starting up."""
    deadline = time.monotonic() + timeout
    while _servers(data):
        hookserver.stop(str(data))
        if time.monotonic() > deadline:
            raise AssertionError(f"recall server still running: {_servers(data)}")
        time.sleep(0.05)


def _wait_for_recorders(data: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while _recorders(data):
        if time.monotonic() > deadline:
            raise AssertionError(f"recorders still running: {_recorders(data)}")
        time.sleep(0.05)


def test_stop_hook_records_in_the_background(isolated_env: Path, data_dir: Path) -> None:
    transcript = _claude_transcript(isolated_env)
    stop = {
        "session_id": POOL_SESSION,
        "transcript_path": str(transcript),
        "cwd": CWD,
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": False,
        "last_assistant_message": "Done.",
        "background_tasks": [],
        "session_crons": [],
    }
    # The hook returns before the ingest (benchmarks/bench_hooks.py times it); the detached
    # recorder does the work.
    proc = hook("claude-code", "stop", stop, isolated_env, data_dir)
    assert proc.returncode == 0 and proc.stdout == ""
    _wait_for_recorders(data_dir)
    rows = json.loads(run_smriti("sessions", "--json", env=_env(isolated_env, data_dir)).stdout)
    assert [r["native_id"] for r in rows] == [POOL_SESSION]


def test_twenty_concurrent_stop_hooks_leave_one_consistent_session(isolated_env: Path, data_dir: Path) -> None:
    transcript = _claude_transcript(isolated_env)
    stop = json.dumps(
        {"session_id": POOL_SESSION, "transcript_path": str(transcript), "cwd": CWD, "hook_event_name": "Stop"}
    )
    exe = shutil.which("smriti", path=str(Path(sys.executable).parent))
    env = {**os.environ, **_env(isolated_env, data_dir)}
    procs = [
        subprocess.Popen(
            [exe, "hook", "claude-code", "stop"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for _ in range(20)
    ]
    for p in procs:
        p.stdin.write(stop.encode())
        p.stdin.close()
    for p in procs:
        assert p.wait(timeout=60) == 0
        assert p.stdout.read() == b""
    _wait_for_recorders(data_dir)
    lock = protocol.record_lock_path(str(data_dir), "claude-code", POOL_SESSION)
    assert not os.path.exists(lock + ".dirty")
    rows = json.loads(run_smriti("sessions", "--json", env=_env(isolated_env, data_dir)).stdout)
    assert [r["native_id"] for r in rows] == [POOL_SESSION]
    # The same as one plain ingest of the file.
    reference = isolated_env.parent / "reference"
    run_smriti("ingest", "--agent", "claude-code", "--path", str(transcript), "-q", env=_env(isolated_env, reference))
    ref = json.loads(run_smriti("sessions", "--json", env=_env(isolated_env, reference)).stdout)
    assert rows[0]["messages"] == ref[0]["messages"] and rows[0]["session_id"] == ref[0]["session_id"]
    status = json.loads(run_smriti("status", "--json", env=_env(isolated_env, data_dir)).stdout)
    assert status["sessions"] == 1 and status["pending_index"] == 0


def test_stop_without_a_transcript_path_finds_the_session_in_the_agents_roots(
    isolated_env: Path, data_dir: Path
) -> None:
    _claude_transcript(isolated_env)
    stop = {"session_id": POOL_SESSION, "cwd": CWD, "hook_event_name": "Stop"}
    assert hook("claude-code", "stop", stop, isolated_env, data_dir).returncode == 0
    _wait_for_recorders(data_dir)
    rows = json.loads(run_smriti("sessions", "--json", env=_env(isolated_env, data_dir)).stdout)
    assert [r["native_id"] for r in rows] == [POOL_SESSION]


def test_codex_legacy_notify_payload_in_argv(isolated_env: Path, data_dir: Path) -> None:
    payload = json.dumps(
        {
            "type": "agent-turn-complete",
            "thread-id": "b5f6c1c2-1111-2222-3333-444455556666",
            "turn-id": "12345",
            "cwd": CWD,
            "input-messages": ["Rename foo"],
            "last-assistant-message": "ok",
        }
    )
    proc = run_smriti("hook", "codex", "notify", payload, stdin="", env=_env(isolated_env, data_dir))
    assert proc.returncode == 0 and proc.stdout == ""
    lock = protocol.record_lock_path(str(data_dir), "codex", "b5f6c1c2-1111-2222-3333-444455556666")
    assert os.path.exists(lock)
    _wait_for_recorders(data_dir)


def test_record_hook_through_claude_settings_records_as_cursor(isolated_env: Path, data_dir: Path) -> None:
    payload = {
        "conversation_id": "c0ffee00-9999-0000-0000-000000000009",
        "generation_id": "g",
        "hook_event_name": "stop",
        "cursor_version": "2.1.0",
        "workspace_roots": [CWD],
        "status": "completed",
        "loop_count": 0,
        "transcript_path": None,
    }
    proc = hook("claude-code", "stop", payload, isolated_env, data_dir)
    assert proc.returncode == 0
    assert os.path.exists(protocol.record_lock_path(str(data_dir), "cursor", payload["conversation_id"]))
    _wait_for_recorders(data_dir)


# ---- the lean path ----------------------------------------------------------------------------

LEAN = """
import io, sys
sys.argv = ["smriti", "hook", {agent!r}, {event!r}]
sys.stdin = io.TextIOWrapper(io.BytesIO({payload!r}.encode()))
from smriti.console import main
try:
    main()
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in {heavy!r} if m in sys.modules)
import json
print(json.dumps({{"code": code, "heavy": heavy}}), file=sys.stderr)
"""

EVENTS = {
    "claude-code": [
        ("prompt", claude_prompt(POOL_PROMPT, "lean-c")),
        (
            "session-start",
            {"session_id": "lean-c2", "cwd": CWD, "hook_event_name": "SessionStart", "source": "startup"},
        ),
        ("stop", {"session_id": "lean-c3", "cwd": CWD, "hook_event_name": "Stop"}),
        ("session-end", {"session_id": "lean-c4", "cwd": CWD, "hook_event_name": "SessionEnd", "reason": "other"}),
    ],
    "codex": [
        ("prompt", codex_prompt(POOL_PROMPT, "lean-x")),
        (
            "session-start",
            {
                "session_id": "lean-x2",
                "cwd": CWD,
                "hook_event_name": "SessionStart",
                "source": "startup",
                "transcript_path": None,
            },
        ),
        ("stop", {"session_id": "lean-x3", "cwd": CWD, "hook_event_name": "Stop", "transcript_path": None}),
    ],
    "gemini": [
        ("BeforeAgent", gemini_prompt(POOL_PROMPT, "lean-g")),
        ("SessionStart", {"session_id": "lean-g2", "cwd": CWD, "hook_event_name": "SessionStart", "source": "startup"}),
        (
            "AfterAgent",
            {
                "session_id": "lean-g3",
                "cwd": CWD,
                "hook_event_name": "AfterAgent",
                "prompt": "x",
                "prompt_response": "y",
            },
        ),
    ],
    "cursor": [
        ("sessionStart", cursor_session_start("lean-cu")),
        (
            "stop",
            {
                "conversation_id": "lean-cu2",
                "cursor_version": "2",
                "workspace_roots": [CWD],
                "hook_event_name": "stop",
                "status": "completed",
            },
        ),
    ],
    "copilot": [
        ("SessionStart", {"sessionId": "lean-v", "hookEventName": "SessionStart", "cwd": CWD, "source": "new"}),
        ("Stop", {"sessionId": "lean-v2", "hookEventName": "Stop", "cwd": CWD}),
    ],
    "copilot-cli": [
        ("agentStop", {"sessionId": "lean-cc", "cwd": CWD, "transcriptPath": "/nope", "stopReason": "end_turn"})
    ],
    "cline": [
        ("UserPromptSubmit", cline_prompt(POOL_PROMPT, "lean-cl")),
        (
            "TaskStart",
            {
                "clineVersion": "3",
                "hookName": "TaskStart",
                "taskId": "lean-cl2",
                "workspaceRoots": [CWD],
                "taskStart": {"taskMetadata": {"taskId": "lean-cl2", "initialTask": "x"}},
            },
        ),
        (
            "TaskComplete",
            {"clineVersion": "3", "hookName": "TaskComplete", "taskId": "lean-cl3", "workspaceRoots": [CWD]},
        ),
    ],
}


@pytest.mark.parametrize("server", [False, True], ids=["in-process", "warm-server"])
def test_every_hook_stays_off_click_and_frontmatter(store: Path, isolated_env: Path, server: bool) -> None:
    env = {**os.environ, **_env(isolated_env, store), "SMRITI_HOOK_SERVER": "1" if server else "0"}
    if server:
        hook("claude-code", "prompt", claude_prompt("start the server", "lean-boot"), isolated_env, store)
        _wait_for_server(store)
    # With a warm server the prompt hook loads no store, index or matcher either, and not even the
    # json package (its `re` and `enum` cost half of Python's own start-up; smriti.hooks.leanjson instead).
    warm = ("tantivy", "apsw", "rapidfuzz", "smriti.store", "json", "re", "enum", "socket", "pathlib")
    # (Less what this interpreter loads before any smriti code: an editable install's finder
    # imports pathlib and re at start-up.)
    at_start = subprocess.run(
        [sys.executable, "-c", "import sys; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    heavy = ("click", "frontmatter", "yaml") + tuple(m for m in warm if m not in at_start and server)
    for agent, events in EVENTS.items():
        for n, (event, payload) in enumerate(events):
            for attempt in range(3):
                payload = {**payload, "session_id": f"{agent}-{n}-{attempt}"} if "session_id" in payload else payload
                code = LEAN.format(agent=agent, event=event, payload=json.dumps(payload), heavy=heavy)
                proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
                report = json.loads(proc.stderr.strip().splitlines()[-1])
                if report["heavy"] and server and attempt < 2:
                    # The server restarts when smriti's code changes on disk (an upgrade, or a
                    # teammate editing this tree): the hook then answered in-process. Once more.
                    _wait_for_server(store)
                    continue
                break
            assert report == {"code": 0, "heavy": []}, (agent, event, proc.stderr)
    _wait_for_recorders(store)


def _smriti_imports(module: str) -> set[str]:
    """The smriti modules a module's source imports, at its top or inside any function."""
    import ast
    import importlib.util

    origin = importlib.util.find_spec(module).origin
    tree = ast.parse(Path(origin).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("smriti.")}


def test_the_hook_runner_and_the_recall_server_do_not_import_each_other() -> None:
    # Both start detached processes; the helper lives in smriti.hooks.detach so neither needs the other.
    assert "smriti.hooks.server" in _smriti_imports("smriti.hooks.run")
    assert not {"smriti.hooks.run"} & _smriti_imports("smriti.hooks.server")
    assert not {"smriti.hooks.run", "smriti.hooks.server"} & _smriti_imports("smriti.hooks.detach")


def test_hookio_data_dir_matches_paths(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from smriti import paths

    monkeypatch.delenv("SMRITI_HOME")
    for xdg in (None, str(tmp_path / "xdg")):
        if xdg:
            monkeypatch.setenv("XDG_DATA_HOME", xdg)
        assert protocol.data_dir() == str(paths.data_dir())
    monkeypatch.setenv("SMRITI_HOME", "~/elsewhere")
    assert protocol.data_dir() == str(paths.data_dir())


def test_hooks_log_command(store: Path, isolated_env: Path) -> None:
    hook("claude-code", "prompt", claude_prompt(POOL_PROMPT, "log-1"), isolated_env, store)
    rows = json.loads(run_smriti("hooks", "log", "--json", env=_env(isolated_env, store)).stdout)
    assert rows[-1]["session"] == "log-1"
    assert {"time", "agent", "event", "session", "cwd", "chars", "tokens", "items"} <= set(rows[-1])
    assert rows[-1]["tokens"] == (rows[-1]["chars"] + 3) // 4


def test_injection_log_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hooklog, "INJECTION_MAX_BYTES", 2000)
    for i in range(100):
        hooklog.log_injection(str(tmp_path), {"time": hooklog.now_iso(), "n": i, "pad": "x" * 50})
    files = sorted((tmp_path / "logs").iterdir())
    assert [f.name for f in files] == ["injections.jsonl", "injections.jsonl.1"]
    assert all(f.stat().st_size <= 2000 for f in files)
    assert hooklog.injections(str(tmp_path))[-1]["n"] == 99


def test_status_reports_hook_failures(isolated_env: Path, data_dir: Path) -> None:
    run_smriti(
        "ingest",
        "--agent",
        "claude-code",
        "--path",
        str(EXAMPLES / "claude-code"),
        "-q",
        env=_env(isolated_env, data_dir),
    )
    hooklog.log_failure(str(data_dir), "claude-code", "prompt", "StoreError: boom")
    status = json.loads(run_smriti("status", "--json", env=_env(isolated_env, data_dir)).stdout)
    assert status["hooks"]["failures_24h"] == 1 and status["hooks"]["last_failure"]["error"] == "StoreError: boom"


def test_a_hook_line_missing_its_arguments_does_not_block_the_agent(isolated_env: Path, data_dir: Path) -> None:
    proc = run_smriti("hook", stdin="{}", env=_env(isolated_env, data_dir))
    assert proc.returncode == 0 and "usage" in proc.stderr  # exit 2 would block a Claude Code prompt


def test_recorder_forgets_old_lock_files(tmp_path: Path) -> None:
    from smriti.hooks import record as hookrecord

    folder = tmp_path / "record"
    folder.mkdir()
    old, new = folder / "claude-code--old.lock", folder / "claude-code--new.lock"
    for f in (old, new):
        f.write_text("")
    past = time.time() - (hookrecord.PRUNE_AFTER_DAYS + 1) * 86400
    os.utime(old, (past, past))
    hookrecord._prune(str(folder))
    assert sorted(p.name for p in folder.iterdir()) == ["claude-code--new.lock"]
