"""Every agent at once, through the real CLI, with HOME laid out like a real machine.

Each agent's files are placed where that agent writes them; `smriti ingest` (no arguments) must
find every source through the adapters' default roots, store every session the adapters parse
from those files, add nothing on a second run, and `search --agent` must work for each agent.
Per-file parsing is asserted by each adapter's conformance tests; this test is about discovery
and the whole pipeline.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, SHARED_FIXTURES, run_smriti

REPO = Path(__file__).resolve().parent.parent
OWN = REPO / "tests" / "fixtures"


def _copy(src: Path, dst: Path) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dst)
    else:
        shutil.copy(src, dst)
    return dst


def lay_out(home: Path) -> dict[str, list[Path]]:
    """Place sample sources as each agent would; returns agent -> placed source paths."""
    placed: dict[str, list[Path]] = {}
    shared = SHARED_FIXTURES

    claude = home / ".claude" / "projects" / "-home-dev-payments-api"
    placed["claude-code"] = [_copy(p, claude / p.name) for p in sorted((EXAMPLES / "claude-code").rglob("*.jsonl"))]

    codex = home / ".codex" / "sessions" / "2026" / "02" / "23"
    placed["codex"] = [_copy(p, codex / p.name) for p in sorted((shared / "codex").glob("rollout-*.jsonl"))]

    gemini = home / ".gemini" / "tmp" / "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0" / "chats"
    placed["gemini"] = [
        _copy(shared / "gemini-cli" / "session-01.json", gemini / "session-2026-06-01T10-00-aaaa1111.json"),
        _copy(shared / "gemini-cli" / "jsonl_v040.jsonl", gemini / "session-2026-06-02T10-00-bbbb2222.jsonl"),
    ]

    state = home / ".copilot" / "session-state"
    placed["copilot-cli"] = [
        _copy(
            shared / "copilot-cli" / "copilot_cli_session_events.jsonl",
            state / "5a1b2c3d-0000-4000-8000-000000000001" / "events.jsonl",
        ),
        _copy(shared / "copilot-cli" / "events.jsonl", state / "5a1b2c3d-0000-4000-8000-000000000002" / "events.jsonl"),
    ]

    cursor = home / ".config" / "Cursor" / "User" / "globalStorage" / "state.vscdb"
    placed["cursor"] = [_copy(shared / "cursor" / "composer-global-state.vscdb", cursor)]

    code_ws = home / ".config" / "Code" / "User" / "workspaceStorage" / "a1b2c3d4e5f6"
    _copy(shared / "copilot-vscode" / "workspace.json", code_ws / "workspace.json")
    placed["copilot"] = [
        _copy(shared / "copilot-vscode" / "copilot_session_simple.json", code_ws / "chatSessions" / "simple.json"),
        _copy(shared / "copilot-vscode" / "chat_succes_mcp.json", code_ws / "chatSessions" / "mcp.json"),
    ]

    opencode = home / ".local" / "share" / "opencode"
    placed["opencode"] = [_copy(shared / "opencode" / "opencode.db", opencode / "opencode.db")]

    amp = home / ".local" / "share" / "amp" / "threads"
    placed["amp"] = [_copy(p, amp / p.name) for p in sorted((shared / "amp").glob("T-*.json"))]

    cont = home / ".continue" / "sessions"
    placed["continue"] = [
        _copy(
            OWN / "continue" / "sessions" / "5b2c8e1f-7a3d-4f60-9b1e-2d4c6a8e0f13.json",
            cont / "5b2c8e1f-7a3d-4f60-9b1e-2d4c6a8e0f13.json",
        )
    ]

    global_storage = home / ".config" / "Code" / "User" / "globalStorage"
    cline = _copy(OWN / "cline" / "saoudrizwan.claude-dev", global_storage / "saoudrizwan.claude-dev")
    placed["cline"] = [p for p in sorted((cline / "tasks").iterdir()) if p.is_dir()]
    roo = _copy(OWN / "roo" / "rooveterinaryinc.roo-cline", global_storage / "rooveterinaryinc.roo-cline")
    placed["roo"] = [p for p in sorted((roo / "tasks").iterdir()) if p.is_dir()]

    placed["aider"] = [
        _copy(shared / "aider" / "zen-mcp-server__.aider.chat.history.md", home / ".aider.chat.history.md")
    ]

    droid = home / ".factory" / "sessions" / "-home-dev-api"
    _copy(shared / "droid" / "droid-session.settings.json", droid / "3f9c2a1e-droid.settings.json")
    placed["droid"] = [_copy(shared / "droid" / "droid-session.jsonl", droid / "3f9c2a1e-droid.jsonl")]

    pi = home / ".pi" / "agent" / "sessions" / "--home-dev-app--"
    placed["pi"] = [
        _copy(p, pi / f"2026-06-0{i}T10-00-00-000Z_{p.stem}.jsonl")
        for i, p in enumerate(sorted((shared / "pi-agent").glob("*.jsonl")), 1)
    ]

    windsurf = home / ".windsurf" / "transcripts"
    placed["windsurf"] = [_copy(shared / "windsurf" / "windsurf-session-simple.jsonl", windsurf / "traj-0001.jsonl")]
    return placed


def expected_sessions(agent: str, sources: list[Path]) -> set[str]:
    """What the adapter itself parses from the placed sources (its own sources, however it splits them)."""
    from smriti.adapters import load_registry

    adapter = load_registry().get(agent)
    found: set[str] = set()
    for source in sources:
        for path in adapter.discover(source) if source.is_dir() else [source]:
            found.update(s.native_id for s in adapter.parse(path).sessions if s.messages)
    return found


@pytest.mark.skipif(not SHARED_FIXTURES.is_dir(), reason="../shared/fixtures is not present")
def test_ingest_finds_every_agent_on_a_real_looking_machine(tmp_path: Path, isolated_env: Path) -> None:
    home = isolated_env
    placed = lay_out(home)
    env = {"HOME": str(home), "SMRITI_HOME": str(tmp_path / "data")}
    first = run_smriti("ingest", "--json", env=env)
    out = json.loads(first.stdout)
    assert out["sessions_ingested"] > 0
    sessions = json.loads(run_smriti("sessions", "--limit", "10000", "--json", env=env).stdout)
    stored: dict[str, set[str]] = {}
    for s in sessions:
        stored.setdefault(s["agent"], set()).add(s["native_id"])
    for agent, sources in placed.items():
        want = expected_sessions(agent, sources)
        assert want, f"{agent}: the placed fixtures hold no sessions"
        assert stored.get(agent, set()) == want, agent
    # every adapter that has sources on this machine ran; none left anything unread
    assert set(stored) == set(placed)
    again = json.loads(run_smriti("ingest", "--json", env=env).stdout)
    assert (again["messages_added"], again["sessions_ingested"], again["files_read"]) == (0, 0, 0)
    for agent in placed:
        words: list[str] = []
        for native in sorted(stored[agent]):
            show = json.loads(run_smriti("show", native, "--json", env=env).stdout)
            words = [
                w
                for m in show["messages_list"]
                if m["kind"] != "injected_context"
                for w in re.findall(r"[A-Za-z]{5,}", m["text"])
            ]
            if words:
                break
        assert words, agent
        hits = json.loads(run_smriti("search", words[0], "--agent", agent, "--json", env=env).stdout)
        assert hits and all(h["agent"] == agent for h in hits), agent
