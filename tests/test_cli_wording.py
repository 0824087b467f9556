"""What the CLI says, through the real CLI: counts that agree, singular and plural, articles, help
text that matches the usage line (issue #16)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import invoke, invoke_json

from smriti.team import knowledge


def claude_line(uuid: str, text: str, session: str, cwd: str | None) -> str:
    return (
        json.dumps(
            {
                "parentUuid": None,
                "isSidechain": False,
                "cwd": cwd,
                "sessionId": session,
                "uuid": uuid,
                "timestamp": "2026-11-01T10:00:00.000Z",
                "type": "user",
                "message": {"role": "user", "content": text},
            }
        )
        + "\n"
    )


def test_status_says_one_session_and_counts_projects_alike(runner, tmp_path: Path) -> None:
    f = tmp_path / "one.jsonl"
    f.write_text(claude_line("u1", "a single question about tls pinning", "s-one", "/w/solo"))
    invoke_json(runner, "ingest", "--path", str(f), "--agent", "claude-code")
    text = invoke(runner, "status").stdout
    assert re.search(r"^store\s+1 session, 1 message, 1 project \(", text, re.M), text
    assert re.search(r"^sources\s+1 file read, ", text, re.M)
    assert "1 sessions" not in text and "(s)" not in text
    # a session outside any project is listed, and still not counted as a project
    g = tmp_path / "nowhere.jsonl"
    g.write_text(claude_line("u2", "a question with no working directory", "s-none", None))
    invoke_json(runner, "ingest", "--path", str(g), "--agent", "claude-code")
    st = invoke_json(runner, "status")
    assert st["projects"] == 1 and len(st["by_project"]) == 2  # the JSON keeps its meaning
    text = invoke(runner, "status").stdout
    assert re.search(r"^store\s+2 sessions, 2 messages, 1 project \(", text, re.M)
    assert re.search(r"^\(no project\)\s+1\s+1\s", text, re.M) and "top 10" not in text


def test_help_texts(runner) -> None:
    top = invoke(runner, "--help").stdout
    assert "(soon)" not in top and "share" in top
    check = invoke(runner, "check", "--help").stdout
    usage = check.splitlines()[0]
    assert usage.endswith("check [OPTIONS] [PATH]...") and "PATH is a repo" in check and "TARGETS" not in check
    ingest = invoke(runner, "ingest", "--help").stdout
    assert "Exit codes:" in ingest and "could not be read at all" in ingest
    assert "--no-fetch" in invoke(runner, "sync", "--help").stdout
    assert "--force" in invoke(runner, "share", "--help").stdout


def test_check_names_a_finding_with_the_right_article(runner, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    invoke_json(runner, "init", "--repo", str(repo))
    body = "# Keys\n\nsee AKIAQ3EGUMZXWPT7JH4N and ghp_Zq8Lm2Rt6Vx0Bn4Cd8Fg2Hj6Kl0Mp4Qs8Tu2W here\n"
    it = knowledge.new_item(
        id="00000000000000a1",
        title="Keys",
        category="bug/fix",
        created="2026-11-01T10:00:00Z",
        body=body,
        agent="claude-code",
        session="sess-keys",
        author="alice",
    )
    path = repo / ".smriti" / knowledge.item_path(it)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(knowledge.render_bytes(it))
    result = invoke(runner, "check", str(repo), expect=1)
    assert "looks like an aws-key (" in result.stdout and "looks like a github-token (" in result.stdout
    assert result.stderr.endswith("1 file checked, 2 problems.\n")
