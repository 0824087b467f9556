"""Ingest and search through the real CLI, on a real store and index."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest
from conftest import EXAMPLES, SHARED_FIXTURES, claude_code_line, claude_tree, invoke, invoke_json, run_smriti
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EX = str(EXAMPLES / "claude-code")


line = claude_code_line  # one Claude Code transcript line (conftest)


def test_examples_ingest_then_search(runner) -> None:
    out = invoke_json(runner, "ingest", "--path", EX)
    assert (out["sessions_found"], out["sessions_ingested"], out["messages_added"], out["errors"]) == (3, 3, 25, [])
    hits = invoke_json(runner, "search", "connection pool exhausted")
    assert hits[0]["native_id"] == "6c0e2a4e-1b7d-4c61-9d1e-3a5f7b9c2d10"
    assert set(hits[0]) >= {"session_id", "native_id", "agent", "project", "category", "score", "snippet", "timestamp"}
    assert hits[0]["project"] == "payments-api" and hits[0]["agent"] == "claude-code"


def test_reingest_adds_nothing_and_leaves_files_untouched(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    before = {p: p.stat().st_mtime_ns for p in Path(EX).rglob("*.jsonl")}
    again = invoke_json(runner, "ingest", "--path", EX)
    assert (again["sessions_found"], again["sessions_ingested"], again["messages_added"]) == (3, 0, 0)
    assert again["files_unchanged"] == 3 and again["files_read"] == 0
    assert before == {p: p.stat().st_mtime_ns for p in Path(EX).rglob("*.jsonl")}


def test_search_filters_project_and_agent(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    assert [h["project"] for h in invoke_json(runner, "search", "test", "--project", "web-frontend")] == [
        "web-frontend"
    ]
    assert invoke_json(runner, "search", "flaky checkout", "--project", "payments-api") == []
    assert invoke_json(runner, "search", "flaky checkout", "--agent", "claude-code")[0]["project"] == "web-frontend"
    bad = invoke(runner, "search", "x", "--agent", "nope", expect=2)  # a usage error, as the README says
    assert "unknown agent 'nope'; supported: " in bad.stderr


def test_sessions_and_show(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    rows = invoke_json(runner, "sessions", "--limit", "2")
    assert [r["title"] for r in rows] == ["Fix flaky checkout page test", "Choose a migration tool for payments-api"]
    assert set(rows[0]) >= {
        "session_id",
        "native_id",
        "agent",
        "project",
        "title",
        "started_at",
        "messages",
        "category",
    }
    shown = invoke_json(runner, "show", rows[1]["session_id"][:8])
    assert shown["native_id"] == "9b2f4d61-8c3a-4e7f-a1b2-c3d4e5f60718"
    assert [m["kind"] for m in shown["messages_list"]][:2] == ["prompt", "response"]
    text = invoke(runner, "show", rows[1]["native_id"]).stdout
    assert "Let's go with Alembic because" in text
    assert "no session" in invoke(runner, "show", "doesnotexist", expect=1).stderr


def test_status_counts(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    st = invoke_json(runner, "status")
    # one document per message and one per session digest (title, summary, entities)
    assert (st["sessions"], st["messages"], st["pending_index"], st["index_docs"]) == (3, 25, 0, 28)
    assert st["agents"]["claude-code"]["sessions"] == 3


def test_index_rebuild_keeps_results(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    before = invoke_json(runner, "search", "alembic")
    assert "Indexed 25 messages" in invoke(runner, "index", "rebuild").stdout
    assert invoke_json(runner, "search", "alembic") == before


def test_default_roots_from_home_and_claude_config_dir(runner, isolated_env: Path, tmp_path: Path, monkeypatch) -> None:
    claude_tree(isolated_env, [next(Path(EX).glob("*/6c0e*.jsonl"))])
    xdg = isolated_env / ".config" / "claude" / "projects" / "-x"
    xdg.mkdir(parents=True)
    shutil.copy(next(Path(EX).glob("*/9b2f*.jsonl")), xdg)
    custom = tmp_path / "custom-claude"
    (custom / "projects" / "-y").mkdir(parents=True)
    shutil.copy(next(Path(EX).glob("*/d41d*.jsonl")), custom / "projects" / "-y")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(custom))
    out = invoke_json(runner, "ingest")
    assert (out["sessions_found"], out["messages_added"]) == (3, 25)


def test_appended_transcript_ingests_only_new_lines(runner, tmp_path: Path) -> None:
    f = tmp_path / "proj" / "s-1.jsonl"
    f.parent.mkdir()
    f.write_text(
        line("user", "u1", "how do I rotate the signing keys") + line("assistant", "a1", "use the rotate command")
    )
    first = invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(f))
    assert first["messages_added"] == 2
    with f.open("a") as fh:
        fh.write(line("user", "u2", "and revoke the old ones?", parent="a1"))
        fh.write('{"parentUuid": "u2", "type": "assistant", "uuid": "a2", "mess')  # half-written
    second = invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(f))
    assert (second["messages_added"], second["errors"]) == (1, [])
    assert second["warnings"] and "still being written" in second["warnings"][0]["error"]
    with f.open("a") as fh:
        fh.write(
            'age": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "yes, revoke"}]}, '
            '"sessionId": "s-1", "timestamp": "2026-11-01T10:01:00Z"}\n'
        )
    third = invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(f))
    assert (third["messages_added"], third["errors"]) == (1, [])
    assert invoke_json(runner, "show", "s-1")["messages"] == 4


def test_bad_input_is_reported_and_the_rest_is_ingested(runner, tmp_path: Path) -> None:
    d = tmp_path / "bad"
    d.mkdir()
    good = line("user", "g1", "valid prompt about kafka consumers", session="mixed")
    (d / "mixed.jsonl").write_bytes(
        good.encode()
        + b"{not json\n"
        + b'"a string"\n[1, 2]\n42\n'
        + b'{"type": "user", "text": "\xff\xfe bad utf8"}\n'
        + line("assistant", "g2", "valid answer about consumer groups", session="mixed").encode()
    )
    (d / "empty.jsonl").write_bytes(b"")
    (d / "huge.jsonl").write_bytes(
        line("user", "h1", "before the huge line zeppelin", session="huge").encode()
        + b'{"type": "user", "pad": "'
        + b"x" * (5 * 1024 * 1024)
        + b'"}\n'
        + line("assistant", "h2", "after the huge line", session="huge").encode()
    )
    (d / "dir-like.jsonl").mkdir()
    old = d / "torn.jsonl"
    old.write_text(line("user", "t1", "a torn file", session="torn") + '{"type": "user", "uu')
    os.utime(old, (time.time() - 86400, time.time() - 86400))
    locked = d / "locked.jsonl"
    locked.write_text(line("user", "l1", "locked", session="locked"))
    locked.chmod(0)
    try:
        result = invoke(runner, "ingest", "--agent", "claude-code", "--path", str(d), "--json", expect=1)
    finally:
        locked.chmod(0o644)
    out = json.loads(result.stdout)
    errors = {(Path(e["path"]).name, e.get("line"), e["error"]) for e in out["errors"]}
    expected = {
        (
            "mixed.jsonl",
            2,
            "malformed JSON (Expecting property name enclosed in double quotes at column 2); line skipped",
        ),
        ("mixed.jsonl", 3, "line is a JSON string, not an object; skipped"),
        ("mixed.jsonl", 4, "line is a JSON array, not an object; skipped"),
        ("mixed.jsonl", 5, "line is a JSON number, not an object; skipped"),
        ("mixed.jsonl", 6, "invalid UTF-8 at byte 26; line skipped"),
        ("huge.jsonl", 2, "line is 5.0 MB, over the 4 MB limit; skipped"),
        ("dir-like.jsonl", None, "is a directory, not a transcript file"),
        ("torn.jsonl", 2, "last line is truncated (no newline, not valid JSON); left unread"),
    }
    if os.geteuid() != 0:  # root reads anything: the permission case only exists for users
        expected.add(("locked.jsonl", None, "permission denied: cannot read the file"))
    assert errors == expected
    assert out["messages_added"] >= 5
    # an empty file is not an error (an agent creates its log before writing to it)
    assert {"path": str(d / "empty.jsonl"), "reason": "empty file: nothing to read yet"} in out["skipped"]
    # exit 1 names only the sources nothing could be read from; partly read ones are stored
    unreadable = {Path(p).name for p in out["unreadable"]}
    assert unreadable == {"dir-like.jsonl"} | ({"locked.jsonl"} if os.geteuid() != 0 else set())
    shown = invoke_json(runner, "show", "mixed")
    assert [m["text"] for m in shown["messages_list"]] == [
        "valid prompt about kafka consumers",
        "valid answer about consumer groups",
    ]
    assert invoke_json(runner, "show", "huge")["messages"] == 2
    assert invoke_json(runner, "search", "zeppelin")[0]["native_id"] == "huge"


def test_nothing_stored_is_lost_when_a_file_turns_bad(runner, tmp_path: Path) -> None:
    f = tmp_path / "s.jsonl"
    f.write_text(line("user", "u1", "original content about grpc deadlines"))
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(f))
    f.write_bytes(b"\x00\x01garbage that replaced the file\n")
    invoke(runner, "ingest", "--agent", "claude-code", "--path", str(f), "--json", expect=1)
    assert invoke_json(runner, "search", "grpc deadlines")[0]["native_id"] == "s-1"


def test_unknown_agent_is_a_usage_error_listing_the_valid_ones(runner) -> None:
    for command in (["ingest"], ["search", "x"], ["sessions"]):
        result = invoke(runner, *command, "--agent", "nope", expect=2)
        listed = result.stderr.split("supported: ", 1)[1].strip().split(", ")
        assert "unknown agent 'nope'" in result.stderr and "claude-code" in listed and listed == sorted(listed)


def test_disable_switch(runner, monkeypatch) -> None:
    monkeypatch.setenv("SMRITI_DISABLE", "1")
    out = invoke_json(runner, "ingest", "--path", EX)
    assert out["disabled"] is True and out["messages_added"] == 0
    assert (out["unreadable"], out["problem_groups"]) == ([], [])  # the same keys as a real run
    monkeypatch.delenv("SMRITI_DISABLE")
    assert invoke_json(runner, "status")["sessions"] == 0


def test_exclude_list_and_no_save_marker(runner, data_dir: Path, tmp_path: Path) -> None:
    d = tmp_path / "t"
    d.mkdir()
    (d / "a.jsonl").write_text(line("user", "a1", "secret client work", session="a", cwd="/work/secret-client/api"))
    (d / "b.jsonl").write_text(line("user", "b1", "smriti: no-save — personal stuff", session="b"))
    (d / "c.jsonl").write_text(line("user", "c1", "normal work", session="c"))
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "config.toml").write_text('exclude = ["/work/secret-client"]\n')
    out = invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(d))
    assert sorted(s.get("session") for s in out["skipped"]) == ["a", "b"]
    assert [s["native_id"] for s in invoke_json(runner, "sessions")] == ["c"]
    # A marker typed later in a stored session removes it and keeps it out.
    with (d / "c.jsonl").open("a") as fh:
        fh.write(line("user", "c2", "actually, smriti: no-save", session="c", parent="c1"))
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(d))
    assert invoke_json(runner, "sessions") == []
    assert invoke_json(runner, "search", "normal work") == []


def test_bad_user_config_is_a_clear_error(runner, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "config.toml").write_text("exclude = 3\n")
    result = invoke(runner, "ingest", "--path", EX, expect=1)
    assert "'exclude' must be a list of strings" in result.stderr


def test_a_killed_ingest_leaves_a_consistent_store(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    subprocess.run(
        [
            sys.executable,
            str(Path(__file__).parent.parent / "benchmarks" / "corpus.py"),
            str(corpus),
            "--sessions",
            "300",
            "--seed",
            "3",
        ],
        check=True,
        capture_output=True,
    )
    env = {"SMRITI_HOME": str(tmp_path / "killed")}
    exe = shutil.which("smriti", path=str(Path(sys.executable).parent)) or "smriti"
    proc = subprocess.Popen(
        [exe, "ingest", "--agent", "claude-code", "--path", str(corpus), "-q"],
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finish = run_smriti("ingest", "--agent", "claude-code", "--path", str(corpus), "--json", env=env)
    assert finish.returncode == 0, finish.stderr
    clean = run_smriti(
        "ingest",
        "--agent",
        "claude-code",
        "--path",
        str(corpus),
        "--json",
        env={"SMRITI_HOME": str(tmp_path / "clean")},
    )
    a = json.loads(run_smriti("status", "--json", env=env).stdout)
    b = json.loads(run_smriti("status", "--json", env={"SMRITI_HOME": str(tmp_path / "clean")}).stdout)
    assert (a["sessions"], a["messages"], a["index_docs"], a["pending_index"]) == (
        b["sessions"],
        b["messages"],
        b["index_docs"],
        0,
    )
    conn = apsw.Connection(str(tmp_path / "killed" / "smriti.db"))
    assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert clean.returncode == 0


CLAUDE_FIXTURES = SHARED_FIXTURES / "claude-code"

# Every session the shared Claude Code fixtures hold, with its stored message count (the
# per-file detail, kinds included, is asserted in test_adapter_claude_code.py). Two files add to
# `todowrite_session`; its one line in edge_cases.jsonl is a replay of todowrite_examples.jsonl.
EXPECTED_CLAUDE_SESSIONS = {
    "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f": 3,
    "agent-a0ad4f44468bdf20d": 4,
    "sess-parent-abc/agent-a1b2c3d4e5f6": 3,
    "ae4a77f8-aedd-4bc1-888f-c94edc91af04/agent-aac57f5": 28,
    "4d5611e5-241a-462a-8d15-5122611a9569/agent-acompact-e1f845": 5,
    "test-session-plan": 9,
    "dac34307-159f-4fcd-9c21-35210246ad38": 5,
    "sess-1": 2,
    "edge_cases": 11,
    "todowrite_session": 11,
    "cb947e5b-246e-4253-a953-631f7e464c6b": 38,
    "c45af7b1-cb7c-4e51-93db-8cbb250a877a/agent-af1ff21": 2,
    "c45af7b1-cb7c-4e51-93db-8cbb250a877a": 35,
    "06090cb1-3e64-433a-bc7e-a621c0f596d2": 2,
    "55604662-cf2a-4331-851a-ec234028f8ca": 7,
    "ses_stage0_drift": 3,
    "ses_stage0_small": 11,
    "[trimmed for fixture]": 1,
    "491e126e-1e71-469c-ade2-fcc8af567c74": 43,
    "d6e0bada-1959-4eec-a9d2-0bfade768d8f": 20,
}


@pytest.mark.skipif(not CLAUDE_FIXTURES.is_dir(), reason="../shared/fixtures is not present")
def test_all_claude_code_fixtures_through_the_cli(tmp_path: Path) -> None:
    env = {"SMRITI_HOME": str(tmp_path / "data")}
    first = run_smriti("ingest", "--path", str(CLAUDE_FIXTURES), "--json", env=env)
    # edge_cases.jsonl holds deliberately broken lines; the rest of it is read, so the run is a success
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    assert out["unreadable"] == []
    assert {(Path(e["path"]).name, e["line"], e["error"]) for e in out["errors"]} == {
        ("edge_cases.jsonl", 13, "line is a JSON string, not an object; skipped"),
        ("edge_cases.jsonl", 15, "line is a JSON number, not an object; skipped"),
        ("edge_cases.jsonl", 16, "line is a JSON array, not an object; skipped"),
    }
    assert (out["sessions_found"], out["messages_added"]) == (21, 243)  # 21: two files share one session
    sessions = json.loads(run_smriti("sessions", "--limit", "100", "--json", env=env).stdout)
    assert {s["native_id"]: s["messages"] for s in sessions} == EXPECTED_CLAUDE_SESSIONS
    again = run_smriti("ingest", "--path", str(CLAUDE_FIXTURES), "--json", env=env)
    assert again.returncode == 0
    assert (json.loads(again.stdout)["messages_added"], json.loads(again.stdout)["files_read"]) == (0, 0)
    hits = json.loads(run_smriti("search", "TodoWrite", "--agent", "claude-code", "--json", env=env).stdout)
    assert hits and hits[0]["native_id"] == "todowrite_session"
    # two of these files hold one session (todowrite_session) with different versions of a message:
    # the replaced text goes with the replacement, so doctor finds nothing wrong after a clean ingest
    doctor = run_smriti("doctor", "--json", env=env)
    assert doctor.returncode == 0, doctor.stdout


# ---------------------------------------------------------------------------------------------
# Exit codes, grouped problems, and reruns that report what the first run did (issue #16)


def codex_rollout(path: Path) -> Path:
    """A small Codex rollout: read as Claude Code, every record is of an unknown type."""
    records = [
        {"timestamp": "2026-11-01T10:00:00Z", "type": "session_meta", "payload": {"id": "cx-1", "cwd": "/w/proj"}},
        {
            "timestamp": "2026-11-01T10:00:01Z",
            "type": "response_item",
            "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi codex"}]},
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_wrong_agent_is_reported_again_on_the_json_rerun(runner, tmp_path: Path) -> None:
    f = codex_rollout(tmp_path / "rollout.jsonl")
    first = invoke(runner, "ingest", "--path", str(f), "--agent", "claude-code", expect=1)
    assert "unknown type 'session_meta'" in first.stderr and "1 source could not be read" in first.stderr
    # the rerun with --json shows the same problems: the file was not remembered as read
    rerun = invoke(runner, "ingest", "--path", str(f), "--agent", "claude-code", "--json", expect=1)
    out = json.loads(rerun.stdout)
    assert out["unreadable"] == [str(f)] and out["files_unchanged"] == 0
    assert any("unknown type 'session_meta'" in w["error"] for w in out["warnings"])
    assert [e["error"] for e in out["errors"]] == [
        "nothing readable as claude-code: another agent's log? (see --agent)"
    ]
    assert invoke_json(runner, "status")["adapter_errors"][0]["path"] == str(f)  # status knows too
    # the right agent reads it, and the problem is gone everywhere
    right = invoke_json(runner, "ingest", "--path", str(f), "--agent", "codex")
    assert (right["sessions_ingested"], right["unreadable"], right["errors"]) == (1, [], [])
    assert invoke_json(runner, "status")["adapter_errors"] == []


def test_skipped_lines_exit_0_and_repeats_are_grouped(runner, tmp_path: Path) -> None:
    f = tmp_path / "junk.jsonl"
    junk = b"".join(b'{"type": "user", "text": "\xff bad %d"}\n' % i for i in range(81))
    f.write_bytes(line("user", "j1", "the one good line about zookeeper quorum").encode() + junk)
    result = invoke(runner, "ingest", "--path", str(f), "--agent", "claude-code")  # exit 0: the file was read
    utf8 = [x for x in result.stderr.splitlines() if "invalid UTF-8" in x]
    assert utf8 == [f"error: {f}: line 2: invalid UTF-8 at byte 26; line skipped (and 80 more lines like it)"]
    assert invoke_json(runner, "search", "zookeeper")[0]["native_id"] == "s-1"
    # an append is read from where the last read stopped: only the new bad line is reported
    f.write_bytes(f.read_bytes() + line("assistant", "j2", "quorum answer").encode() + b"\xfe\n")
    out = invoke_json(runner, "ingest", "--path", str(f), "--agent", "claude-code")
    assert out["unreadable"] == [] and out["messages_added"] == 1
    assert [(e["line"], e["error"]) for e in out["errors"]] == [(84, "invalid UTF-8 at byte 0; line skipped")]
    # --json keeps every line for scripts, and the same grouping
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(f.read_bytes().replace(b'"s-1"', b'"s-copy"'))
    out = invoke_json(runner, "ingest", "--path", str(copy), "--agent", "claude-code")
    assert len([e for e in out["errors"] if "invalid UTF-8" in e["error"]]) == 82
    [group] = out["problem_groups"]
    assert (group["severity"], group["path"], group["count"]) == ("error", str(copy), 82)
    assert group["lines"] == [*range(2, 83), 84]


def test_resumed_session_in_two_transcripts_leaves_nothing_for_doctor(runner, tmp_path: Path) -> None:
    """Two transcripts of one session (a resume) hold two versions of one message: the store keeps
    the one it read last and must not keep the other's text behind as an orphan."""
    first = tmp_path / "a" / "first.jsonl"
    second = tmp_path / "b" / "second.jsonl"
    for f in (first, second):
        f.parent.mkdir()
    first.write_text(line("user", "u1", "resume me: the etcd lease") + line("assistant", "u2", "Looking at it"))
    second.write_text(
        line("user", "u1", "resume me: the etcd lease")
        + line("assistant", "u2", "Looking at it: the lease TTL was 5 s; raised it to 60 s")
    )
    for f in (first, second):
        assert invoke_json(runner, "ingest", "--path", str(f), "--agent", "claude-code")["unreadable"] == []
    doctor = invoke(runner, "doctor", "--json")  # exit 0
    orphans = [c for c in json.loads(doctor.stdout)["checks"] if c["check"] == "orphaned message bodies"]
    assert orphans[0]["ok"] is True
    shown = invoke_json(runner, "show", "s-1")
    assert [m["text"] for m in shown["messages_list"]][-1].endswith("raised it to 60 s")
    # a no-save marker deletes the session: its texts go with it
    third = tmp_path / "third.jsonl"
    third.write_text(line("user", "n1", "the vault unseal keys rotation", session="s-2"))
    invoke_json(runner, "ingest", "--path", str(third), "--agent", "claude-code")
    with third.open("a") as fh:
        fh.write(line("user", "n2", "smriti: no-save, forget all of this", session="s-2", parent="n1"))
    out = invoke_json(runner, "ingest", "--path", str(third), "--agent", "claude-code")
    assert out["skipped"] and invoke(runner, "show", "s-2", expect=1)
    invoke(runner, "doctor")


def test_sessions_says_no_match_on_a_populated_store(runner) -> None:
    empty = invoke(runner, "sessions")
    assert "No sessions yet: run `smriti ingest`" in empty.stderr
    invoke_json(runner, "ingest", "--path", EX)
    for args, said in (
        (["--agent", "codex"], "--agent codex"),
        (["--project", "no-such-project"], "--project no-such-project"),
        (["--category", "feature"], "--category feature"),
        (["--agent", "codex", "--category", "bug"], "--agent codex --category bug"),
    ):
        result = invoke(runner, "sessions", *args)
        assert result.stderr == f"No sessions match {said}.\n" and result.stdout == ""
        assert invoke_json(runner, "sessions", *args) == []
    assert invoke(runner, "sessions", "--agent", "claude-code").stdout.count("\n") == 3


def test_unknown_category_before_any_ingest_lists_the_builtin_ones(runner) -> None:
    bad = invoke(runner, "search", "x", "--category", "bogus", expect=2)
    known = bad.stderr.split("known: ", 1)[1].split(", ")
    assert "bug/fix" in known and "feature" in known
    assert invoke(runner, "search", "x", "--category", "bug/").exit_code == 0  # a trailing slash is fine


def test_the_readme_demo_leaves_the_users_store_alone(isolated_env: Path, tmp_path: Path) -> None:
    """The README's first command, as written (minus the install), in a shell: it finds the sample
    session, and the user's own data dir (where hooks recall from) is never created."""
    readme = (EXAMPLES.parent / "README.md").read_text()
    first = readme.split("```bash\n", 1)[1].split("\n```", 1)[0]
    assert first.startswith("pip install . && ") and "\n" not in first
    env = {k: v for k, v in os.environ.items() if k not in ("SMRITI_HOME", "XDG_DATA_HOME")}
    env.update(HOME=str(isolated_env), PATH=f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}")
    proc = subprocess.run(
        ["bash", "-c", first.removeprefix("pip install . && ")],
        cwd=EXAMPLES.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "pool" in proc.stdout.lower() and "payments-api" in proc.stdout
    # the platform data dir under HOME (~/.local/share/smriti, ~/Library/Application Support/smriti)
    assert list(isolated_env.rglob("smriti")) == []
    # and the README's way out for samples ingested into a real store takes out exactly them
    env["SMRITI_HOME"] = str(tmp_path / "real")
    other = tmp_path / "mine.jsonl"
    other.write_text(line("user", "m1", "my own work on the payments-api", session="mine", cwd="/w/payments-api"))
    for source in (str(EXAMPLES / "claude-code"), str(other)):
        subprocess.run(["smriti", "ingest", "-q", "--path", source], env=env, check=True, timeout=300)
    removals = re.findall(r"`(smriti forget --project \S+ --yes)`", readme)
    assert len(removals) == 2
    for command in removals:
        subprocess.run(["bash", "-c", command], env=env, check=True, timeout=300, capture_output=True)
    left = subprocess.run(["smriti", "sessions", "--json"], env=env, capture_output=True, text=True, timeout=300)
    assert [s["native_id"] for s in json.loads(left.stdout)] == ["mine"]


# The autouse isolated_env fixture is function-scoped; this test does not use it.
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.booleans(),
            st.sampled_from(["a.jsonl", "b.jsonl"]),
            st.sampled_from(["invalid UTF-8 at byte {}; line skipped", "malformed JSON ({}); line skipped", "gone"]),
            st.integers(0, 10**6),
            st.one_of(st.none(), st.integers(1, 10**6)),
        ),
        max_size=60,
    )
)
def test_problem_groups_account_for_every_problem_once(problems) -> None:
    """Folding never loses or double-counts a problem, and never merges two files or two kinds."""
    from smriti.ingest import IngestResult
    from smriti.models import Problem

    result = IngestResult()
    for is_error, path, template, number, line_no in problems:
        (result.errors if is_error else result.warnings).append(Problem(path, template.format(number), line_no))
    groups = result.problem_groups()
    assert sum(g["count"] for g in groups) == len(problems)
    assert sum(len(g["lines"]) for g in groups) == sum(p[4] is not None for p in problems)
    keys = [(g["severity"], g["path"], g["error"].split(" ")[0]) for g in groups]
    assert len(keys) == len(set(keys))


@pytest.mark.skipif(sys.platform != "linux", reason="the ingest worker process is Linux-only")
def test_ingest_through_the_cli_says_and_stores_the_same_with_the_worker_process(
    runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SMRITI_INGEST_WORKER=1 forces the second process (README); what `smriti ingest` prints and
    what the store then holds are those of a one-process run."""
    from smriti import ingest_worker

    monkeypatch.setattr(ingest_worker, "MIN_BYTES", 0)  # the examples are far below a big run's size
    started: list[str] = []  # the settings under which a worker process really started
    start = ingest_worker.start

    def start_and_note(*args):
        worker = start(*args)
        if worker is not None:
            started.append(os.environ["SMRITI_INGEST_WORKER"])
        return worker

    monkeypatch.setattr(ingest_worker, "start", start_and_note)
    seen = {}
    for setting in ("0", "1"):
        monkeypatch.setenv("SMRITI_INGEST_WORKER", setting)
        monkeypatch.setenv("SMRITI_HOME", str(tmp_path / f"data-{setting}"))
        text = invoke(runner, "ingest", "--path", EX).stdout
        seen[setting] = (
            text,
            invoke_json(runner, "ingest", "--path", EX),  # the second run: every source unchanged
            invoke_json(runner, "sessions"),
            invoke_json(runner, "search", "connection pool exhausted"),
        )
    assert started == ["1"], started  # the first ingest of "1" only: the second has nothing to parse
    assert seen["0"] == seen["1"]
    assert "3 ingested" in seen["1"][0]
