"""How sessions read back: `smriti show` and shared knowledge files keep what each tool call was
about (a Grep's pattern, a Glob's pattern), list each file once, show an edit's content with
`--full`, and mark a compaction summary as background, never as the assistant's answer. Through the
real CLI, over fixtures of the agents' real shapes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import invoke, invoke_json

from smriti.team.share import call_details, call_summary, display_files

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RENDERING = FIXTURES / "claude-code" / "rendering.jsonl"
RENDERING_SID = "8b2c4d6e-1f3a-4b5c-9d7e-0a1b2c3d4e5f"
WINDSURF = FIXTURES / "windsurf" / "transcripts"


def _transcript_in(folder: Path, cwd: Path) -> Path:
    """The rendering fixture with its cwd moved to `cwd` (a real folder of the test)."""
    path = folder / RENDERING.name
    path.write_text(RENDERING.read_text().replace("/home/dev/payments", str(cwd)))
    return path


def test_call_summary_names_what_each_call_was_about() -> None:
    assert call_summary("Grep", {"pattern": r"ConnectionPool\(", "path": "src"}, "search", "Grep: src") == (
        r"Grep: ConnectionPool\( in src"
    )
    assert call_summary("Glob", {"pattern": "**/*.py"}, "search") == "Glob: **/*.py"
    assert call_summary("Bash", {"command": "make test\nmake lint", "description": "x"}, "shell") == "Bash: make test …"
    assert call_summary("Read", {"file_path": "file:///w/app/a.py"}, "read") == "Read: /w/app/a.py"
    assert call_summary("Task", {"description": "find todos", "prompt": "…"}, "task") == "Task: find todos"
    assert call_summary("mcp__x", {}, "other", "mcp__x: {}") == "mcp__x: {}"  # nothing more to say
    assert call_summary("lookup", {"id": 7, "deep": True}, "other") == "lookup: id=7, deep=True"
    # a command the person typed (Aider's `/run`) reads as typed
    assert call_summary("/run", {"command": "make"}, "shell", "/run make", typed=True) == "/run make"


def test_call_details_put_long_text_under_its_key() -> None:
    assert call_details({"path": "a.ts", "new_content": "line 1\nline 2\n", "n": 2}) == [
        "path: a.ts",
        "new_content:",
        "line 1\nline 2",
        "n: 2",
    ]


def test_display_files_lists_each_file_once() -> None:
    files = ["file://~/notes/x.md", "notes/x.md", "file:///home/me/notes/y.md", "~/notes/y.md", "/etc/hosts"]
    assert display_files(files, "/home/me") == ["notes/x.md", "notes/y.md", "/etc/hosts"]
    assert display_files(["/r/app/src/a.py", "src/a.py", "./src/a.py"], "/r/app/src", "/r/app") == ["src/a.py"]


def test_show_keeps_tool_arguments_and_lists_files_once(runner, tmp_path: Path) -> None:
    project = tmp_path / "payments"
    project.mkdir()
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(_transcript_in(tmp_path, project)))
    text = invoke(runner, "show", RENDERING_SID).stdout
    assert r"Grep: ConnectionPool\( in src" in text and "Glob: **/test_pool*.py" in text
    files_line = next(line for line in text.splitlines() if line.strip().startswith("files:"))
    assert files_line.count("src/db/pool.py") == 1 and str(project) not in files_line
    # stored (and searchable) the same way, the pattern first
    shown = invoke_json(runner, "show", RENDERING_SID)
    assert [m["text"] for m in shown["messages_list"] if m["kind"] == "tool_call"][
        0
    ] == r"Grep: ConnectionPool\( in src"
    assert invoke_json(runner, "search", "ConnectionPool")[0]["native_id"] == RENDERING_SID


def test_show_full_prints_the_input_of_an_edit(runner) -> None:
    invoke_json(runner, "ingest", "--agent", "windsurf", "--path", str(WINDSURF))
    [row] = invoke_json(runner, "sessions")
    brief = invoke(runner, "show", row["native_id"]).stdout
    full = invoke(runner, "show", row["native_id"], "--full").stdout
    new_content = "export const port = Number(process.env.PORT ?? 3000)"
    assert "new_content:" not in brief
    assert f"  new_content:\n  {new_content}" in full  # the code_action's new file content
    assert "list_directory: /home/dev/my app/config\n" in brief  # a file:// URL read as its path


def test_shared_file_keeps_tool_arguments_and_marks_the_compaction_summary(runner, tmp_path: Path) -> None:
    repo = tmp_path / "payments"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    invoke(runner, "init", "--repo", str(repo))
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(_transcript_in(tmp_path, repo)))
    out = invoke_json(runner, "share", "--repo", str(repo), "--session", RENDERING_SID)
    [written] = out["written"]
    body = (repo / written).read_text()
    assert r"> tool: Grep: ConnectionPool\( in src" in body
    assert "> tool: Glob: **/test_pool*.py" in body and "> tool: Read: " in body
    assert "**assistant**: This session is being continued" not in body
    summary = body.index("> **summary of the earlier conversation**")
    assert body.index("> This session is being continued from a previous conversation", summary) > summary
    assert "**assistant**: The pool now releases a connection when a checkout times out." in body
    files = body[body.index("## Files") : body.index("## Conversation")]
    assert files.count("src/db/pool.py") == 1 and str(repo) not in files
    assert json.loads(json.dumps(out))["skipped"] == []


# --- dates ---------------------------------------------------------------------------------------

AIDER_TRUNCATED = FIXTURES / "aider" / "truncated-top.aider.chat.history.md"


def test_sessions_without_times_sort_last_in_newest_first(runner, tmp_path: Path) -> None:
    # The truncated history: lines above its first header form a session with no time at all,
    # then a run from 2024-05-10. Ingested now, the timeless one must not pass for the newest.
    project = tmp_path / "calc"
    project.mkdir()
    (project / ".aider.chat.history.md").write_bytes(AIDER_TRUNCATED.read_bytes())
    invoke_json(runner, "ingest", "--agent", "aider", "--path", str(project))
    rows = invoke_json(runner, "sessions")
    assert [r["started_at"] is None for r in rows] == [False, True]
    assert rows[0]["started_at"].startswith("2024-05-10")


def test_knowledge_file_is_named_after_the_session_date(runner, tmp_path: Path) -> None:
    # Windsurf's lines carry no times: the session's date is when Cascade last wrote the file.
    repo = tmp_path / "api"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    invoke(runner, "init", "--repo", str(repo))
    [source] = sorted(WINDSURF.glob("*.jsonl"))
    copy = tmp_path / "transcripts" / source.name
    copy.parent.mkdir()
    copy.write_text(source.read_text().replace("/home/dev/my%20app", str(repo)).replace("/home/dev/my app", str(repo)))
    when = 1741089600  # 2025-03-04T12:00:00Z
    os.utime(copy, (when, when))
    invoke_json(runner, "ingest", "--agent", "windsurf", "--path", str(copy.parent))
    [row] = invoke_json(runner, "sessions")
    assert (row["started_at"], row["ended_at"][:10]) == (None, "2025-03-04")
    out = invoke_json(runner, "share", "--repo", str(repo), "--session", row["native_id"])
    [written] = out["written"]
    assert Path(written).name.startswith("2025-03-04-")
