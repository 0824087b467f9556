"""`smriti status` and `smriti doctor` through the real CLI, on a populated data dir and on damaged ones."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from conftest import EXAMPLES, claude_code_line, invoke, invoke_json, run_smriti

EX = str(EXAMPLES / "claude-code")


def _example_counts() -> tuple[int, int]:
    """Sessions and messages of examples/claude-code as the adapter reads them (every message is
    indexed, and so is each session's digest: an index of the examples holds their sum)."""
    from smriti.adapters.claude_code import ClaudeCodeAdapter

    adapter = ClaudeCodeAdapter()
    results = [adapter.parse(path) for path in adapter.discover(EXAMPLES / "claude-code")]
    return sum(len(r.sessions) for r in results), sum(len(s.messages) for r in results for s in r.sessions)


EX_SESSIONS, EX_MESSAGES = _example_counts()
TITLES = ("Overview", "Agents", "Projects", "Categories", "Knowledge and sharing", "Hooks", "Index")
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


line = claude_code_line  # one Claude Code transcript line (conftest)


GOOD = line("user", "b1", "why does the kafka consumer lag grow", "bad-1") + line(
    "assistant", "b2", "the consumer group rebalances on every poll timeout", "bad-1", parent="b1"
)


@pytest.fixture(autouse=True)
def outside_any_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from a folder that is no git repo (this source tree is one, with a .smriti/ folder)."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
    proc = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _from_sessions(runner) -> list[dict]:
    return invoke_json(runner, "sessions", "--limit", "1000")


# ---- a populated data dir ---------------------------------------------------------------------


def test_status_counts_match_the_store_and_adapter_errors_come_and_go(runner, tmp_path: Path) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    bad = tmp_path / "bad" / "bad-1.jsonl"
    bad.parent.mkdir()
    bad.write_text(GOOD + "{not json\n" + '"a string"\n')
    out = invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(bad))  # partly read: exit 0
    assert len(out["errors"]) == 2 and out["unreadable"] == []

    st = invoke_json(runner, "status")
    # the examples plus the bad file's one session: two good lines, in project "proj"
    sessions, messages = EX_SESSIONS + 1, EX_MESSAGES + 2
    # the keys scripts already use keep their meaning
    assert (st["sessions"], st["messages"], st["projects"], st["sources"], st["pending_index"]) == (
        sessions,
        messages,
        3,
        4,
        0,
    )
    assert st["agents"] == {"claude-code": {"sessions": sessions, "messages": messages}}
    # per agent, project and category: what the store holds, session by session
    rows = _from_sessions(runner)
    assert len(rows) == sessions
    agent = st["by_agent"]["claude-code"]
    assert (agent["sessions"], agent["messages"], agent["sources"]) == (sessions, messages, 4)
    assert ISO.match(agent["last_ingest"]) and agent["last_ingest"] == st["last_ingest"]
    projects = {p["project"]: (p["sessions"], p["messages"]) for p in st["by_project"]}
    assert projects == {"payments-api": (2, 18), "web-frontend": (1, 7), "proj": (1, 2)}
    assert [p["project"] for p in st["by_project"]][0] == "payments-api"  # biggest first
    want_projects = Counter()
    for r in rows:
        want_projects[r["project"]] += r["messages"]
    assert {k: v[1] for k, v in projects.items()} == dict(want_projects)
    assert st["by_category"] == dict(Counter(r["category"] for r in rows))
    assert st["by_category"]["bug/fix"] == 2 and st["by_category"]["decision/technical"] == 1
    assert sum(st["by_category"].values()) == sessions
    tops = Counter()
    for cat, n in st["by_category"].items():
        tops[cat.split("/")[0]] += n
    assert st["by_top_category"] == dict(tops) and st["by_top_category"]["bug"] >= 2
    # the adapter errors of the last read, per source
    assert (agent["sources_with_errors"], agent["errors"]) == (1, 2)
    assert st["adapter_errors"] == [agent["last_error"]]
    err = st["adapter_errors"][0]
    assert (err["path"], err["agent"], err["errors"]) == (str(bad), "claude-code", 2)
    assert (
        err["error"]
        == "line 3: malformed JSON (Expecting property name enclosed in double quotes at column 2); line skipped"
    )
    # index, size, paths
    docs = messages + sessions  # every message and each session's digest
    assert st["index"] == {"documents": docs, "expected": docs, "pending": 0, "fresh": True, "problem": None}
    assert st["index_docs"] == docs
    assert st["data_dir_bytes"] >= st["store_bytes"] + st["index_bytes"] > 0
    assert st["paths"]["store"].endswith("smriti.db") and st["pending_shares"] is None
    assert (st["syncs"], st["knowledge_by_status"], st["hook_installs"], st["last_injection"]) == ([], {}, [], None)

    text = invoke(runner, "status").stdout
    assert "1 source, 2 problems" in text and "Adapter errors" in text and "line 3: malformed JSON" in text

    bad.write_text(GOOD)  # fixed (and shorter: read again from the start)
    fixed = invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(bad))
    assert fixed["errors"] == []
    st = invoke_json(runner, "status")
    assert st["adapter_errors"] == [] and st["by_agent"]["claude-code"]["sources_with_errors"] == 0
    assert st["by_agent"]["claude-code"]["last_error"] is None and st["sessions"] == 4
    assert "Adapter errors" not in invoke(runner, "status").stdout


def test_an_unchanged_source_keeps_its_errors_and_an_adapter_crash_is_recorded(runner, tmp_path: Path) -> None:
    bad = tmp_path / "s.jsonl"
    bad.write_text(GOOD + "[1, 2]\n")
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(bad))  # a skipped line: exit 0
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(bad))  # unchanged: not read again
    errors = invoke_json(runner, "status")["adapter_errors"]
    assert [(e["errors"], e["error"]) for e in errors] == [(1, "line 3: line is a JSON array, not an object; skipped")]


def test_text_report_has_every_table_and_no_escape_codes_when_piped(tmp_path: Path, data_dir: Path) -> None:
    env = {"SMRITI_HOME": str(data_dir)}
    # twelve projects: the table shows the top ten and says how many more there are
    src = tmp_path / "many"
    src.mkdir()
    for i in range(12):
        (src / f"p{i}.jsonl").write_text(
            line("user", f"m{i}", f"question number {i} about caching", f"s{i}", cwd=f"/w/proj{i:02d}")
        )
    # and one session outside any project: a row of its own, never counted as a project
    (src / "nowhere.jsonl").write_text(line("user", "n0", "a question from nowhere", "s-nowhere", cwd=None))
    assert run_smriti("ingest", "--agent", "claude-code", "--path", str(src), "-q", env=env).returncode == 0
    proc = run_smriti("status", env=env)
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "Traceback" not in proc.stderr
    for title in TITLES:
        assert re.search(rf"^{re.escape(title)}\b", proc.stdout, re.M), title
    assert "Projects (top 10 of 12)" in proc.stdout and "and 2 more projects (" in proc.stdout
    assert re.search(r"^\(no project\)\s+1\s+1\s", proc.stdout, re.M)
    assert not any(line != line.rstrip() for line in proc.stdout.splitlines())  # no padding left at line ends
    assert "13 sessions, 13 messages, 12 projects" in proc.stdout
    # a terminal gets colour (forced here), unless NO_COLOR says no
    assert "\x1b[32mok" in run_smriti("doctor", env={**env, "FORCE_COLOR": "1"}).stdout
    colourless = run_smriti("doctor", env={**env, "FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "smriti doctor" in colourless and not re.search(r"\x1b\[(3\d|9\d)m", colourless)
    doctor = run_smriti("doctor", env=env)
    assert doctor.returncode == 0 and "\x1b" not in doctor.stdout
    assert re.search(r"^smriti doctor$", doctor.stdout, re.M) and re.search(
        r"^check\s+result\s+detail$", doctor.stdout, re.M
    )
    assert re.search(r"^index matches store\s+ok\s+26 documents for 26 indexable items$", doctor.stdout, re.M)


def test_rich_stays_off_the_hook_path() -> None:
    code = (
        "import sys, smriti.console, smriti.hooks.run, smriti.hooks.protocol, smriti.hooks.recall, "
        "smriti.hooks.record, smriti.ingest, smriti.status, smriti.maintenance, smriti.hooks.install; "
        "print(sorted(m for m in sys.modules if m == 'rich' or m.startswith('rich.')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stderr


def test_hook_health_shows_the_last_injection(isolated_env: Path, data_dir: Path) -> None:
    env = {"SMRITI_HOME": str(data_dir), "HOME": str(isolated_env), "SMRITI_HOOK_SERVER": "0"}
    run_smriti("ingest", "--path", EX, "-q", env=env)
    payload = {
        "session_id": "inj-1",
        "transcript_path": None,
        "cwd": "/home/dev/payments-api",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "why did we pick alembic for migrations?",
    }
    hooked = run_smriti("hook", "claude-code", "prompt", stdin=json.dumps(payload), env=env)
    assert "smriti-context" in hooked.stdout
    st = json.loads(run_smriti("status", "--json", env=env).stdout)
    logged = json.loads(run_smriti("hooks", "log", "--json", env=env).stdout)[-1]
    assert st["last_injection"] == {
        k: logged[k] for k in ("time", "agent", "event", "session", "chars", "tokens", "items")
    }
    assert (st["last_injection"]["session"], st["hooks"]["runs_24h"], st["hooks"]["failures_24h"]) == ("inj-1", 1, 0)
    text = run_smriti("status", env=env).stdout
    assert len(logged["items"]) == 1
    want = f"just now claude-code prompt, {logged['chars']} chars, 1 item"
    assert re.search(rf"^last injection\s+{re.escape(want)}$", text, re.M), text


# ---- team sharing -----------------------------------------------------------------------------


def test_pending_shares_and_last_sync_in_a_team_repo(runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Tess")
    git(repo, "config", "user.email", "tess@example.com")
    (repo / "README").write_text("team\n")
    invoke_json(runner, "init", "--repo", str(repo))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init")
    src = tmp_path / "t.jsonl"
    src.write_text(
        line("user", "u1", "why does the retry loop spin forever? fix the backoff", "sess-a", cwd=str(repo))
        + line(
            "assistant",
            "a1",
            "The backoff never grew; it now doubles and caps at 30s.",
            "sess-a",
            cwd=str(repo),
            parent="u1",
        )
    )
    invoke_json(runner, "ingest", "--path", str(src))

    assert invoke_json(runner, "status")["pending_shares"] is None  # cwd is not in the repo
    monkeypatch.chdir(repo)
    st = invoke_json(runner, "status")
    assert {
        k: st["pending_shares"][k] for k in ("repo", "count", "new", "modified", "deleted", "by_share", "files")
    } == {"repo": str(repo.resolve()), "count": 0, "new": 0, "modified": 0, "deleted": 0, "by_share": 0, "files": []}

    written = invoke_json(runner, "share", "--session", "sess-a")["written"]
    assert len(written) == 1
    ps = invoke_json(runner, "status")["pending_shares"]
    assert (ps["count"], ps["new"], ps["modified"], ps["by_share"]) == (1, 1, 0, 1)
    assert ps["files"] == [{"path": written[0], "state": "new"}]
    assert re.search(r"^pending shares\s+1 knowledge file not committed", invoke(runner, "status").stdout, re.M)

    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "share")
    assert invoke_json(runner, "status")["pending_shares"]["count"] == 0
    synced = invoke_json(runner, "sync")
    st = invoke_json(runner, "status")
    assert st["syncs"] == [
        {
            "repo": str(repo.resolve()),
            "ref": "main",
            "commit": synced["commit"],
            "synced_at": st["syncs"][0]["synced_at"],
        }
    ]
    assert synced["commit"] == git(repo, "rev-parse", "HEAD").strip() and ISO.match(st["syncs"][0]["synced_at"])
    assert (st["knowledge"], st["knowledge_by_status"], st["knowledge_by_origin"]) == (1, {"active": 1}, {"sync": 1})
    category = invoke_json(runner, "show", "sess-a")["category"]  # the file's folder is its category
    assert written[0].startswith(f".smriti/knowledge/{category}/") and st["knowledge_by_category"] == {category: 1}
    assert st["knowledge_by_repo"] == {st["syncs"][0]["repo"]: 1} and st["knowledge_by_agent"] == {"claude-code": 1}
    assert re.search(r"^by agent\s+claude-code 1$", invoke(runner, "status").stdout, re.M)

    (repo / written[0]).write_text((repo / written[0]).read_text() + "\nA reviewer's note.\n")
    ps = invoke_json(runner, "status")["pending_shares"]
    assert (ps["count"], ps["new"], ps["modified"], ps["by_share"]) == (1, 0, 1, 1)


# ---- a damaged data dir -----------------------------------------------------------------------


def test_a_deleted_index_is_reported_not_hidden_and_doctor_repairs_it(runner, data_dir: Path) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    shutil.rmtree(data_dir / "index")
    env = {"SMRITI_HOME": str(data_dir)}
    for _ in range(2):  # looking twice changes nothing: status does not open (and so reset) the index
        st = json.loads(run_smriti("status", "--json", env=env).stdout)
        assert st["index"] == {
            "documents": 0,
            "expected": 28,
            "pending": 0,
            "fresh": False,
            "problem": "the index folder is missing",
        }
        assert st["index_docs"] == 0 and not (data_dir / "index").exists()
    text = run_smriti("status", env=env).stdout
    assert "needs attention" in text and "the index folder is missing" in text

    first = run_smriti("doctor", "--json", env=env)
    report = json.loads(first.stdout)
    assert first.returncode == 1 and report["problems"] == 1
    check = next(c for c in report["checks"] if c["check"] == "index matches store")
    assert check == {
        "check": "index matches store",
        "ok": False,
        "detail": "the index folder is missing: 0 usable documents for 28 indexable items",
    }
    assert "problem" in run_smriti("doctor", env=env).stdout

    fixed = run_smriti("doctor", "--repair", "--json", env=env)
    report = json.loads(fixed.stdout)
    assert fixed.returncode == 0 and report["problems"] == 0
    assert report["repaired"] == ["rebuilt the index from the store (28 documents)", "vacuumed the store"]
    assert json.loads(run_smriti("status", "--json", env=env).stdout)["index"]["fresh"] is True
    assert invoke_json(runner, "search", "alembic")[0]["native_id"] == "9b2f4d61-8c3a-4e7f-a1b2-c3d4e5f60718"


def test_a_vanished_source_and_its_errors_are_repaired(runner, tmp_path: Path) -> None:
    bad = tmp_path / "s.jsonl"
    bad.write_text(GOOD + "42\n")
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(bad))
    bad.unlink()
    report = invoke_json(runner, "doctor", expect=1)
    assert [c["detail"] for c in report["checks"] if not c["ok"]] == [
        "1 source file(s) no longer on disk (their sessions stay stored)"
    ]
    report = invoke_json(runner, "doctor", "--repair")
    assert report["repaired"] == [
        "forgot the read position of 1 vanished file(s)",
        "forgot the adapter errors of 1 vanished file(s)",
        "vacuumed the store",
    ]
    st = invoke_json(runner, "status")
    assert (st["sources"], st["adapter_errors"], st["sessions"]) == (0, [], 1)


@pytest.mark.parametrize("damage", ["garbage", "pages"])
def test_a_corrupt_store_fails_clearly(runner, data_dir: Path, damage: str) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    db = data_dir / "smriti.db"
    for extra in ("smriti.db-wal", "smriti.db-shm"):
        (data_dir / extra).unlink(missing_ok=True)
    if damage == "garbage":
        db.write_bytes(b"garbage" * 5000)
    else:  # the header survives: the damage shows only when pages are read
        with db.open("r+b") as fh:
            fh.seek(4096 * 2)
            fh.write(b"\xde\xad" * 4096 * 8)
    env = {"SMRITI_HOME": str(data_dir)}
    for args in (("status",), ("status", "--json"), ("doctor",), ("doctor", "--json")):
        proc = run_smriti(*args, env=env)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, (args, proc.stderr)
        assert str(db) in proc.stdout + proc.stderr
        if args[0] == "status":
            assert re.search(r"^Error: .*smriti\.db (is not a readable smriti database|is damaged)", proc.stderr)
    report = json.loads(run_smriti("doctor", "--json", env=env).stdout)
    assert report["checks"][0]["check"] == "store readable" and not report["checks"][0]["ok"]
    fixed = run_smriti("doctor", "--repair", "--json", env=env)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "moved the unreadable store to" in json.loads(fixed.stdout)["repaired"][0]
    assert (
        len(
            [
                p
                for p in data_dir.glob("smriti.db.broken-*")
                if p.suffix not in (".db-wal", ".db-shm") and not p.name.endswith(("-wal", "-shm"))
            ]
        )
        == 1
        and not db.exists()
    )
    st = json.loads(run_smriti("status", "--json", env=env).stdout)
    assert (st["sessions"], st["index_docs"]) == (0, 0)
    # the index went with the old store: a new store reuses row ids, and stale documents would point at them
    assert json.loads(run_smriti("ingest", "--path", EX, "--json", env=env).stdout)["messages_added"] == EX_MESSAGES
    st = json.loads(run_smriti("status", "--json", env=env).stdout)
    docs = EX_MESSAGES + EX_SESSIONS
    assert (st["index"]["documents"], st["index"]["expected"], st["index"]["fresh"]) == (docs, docs, True)


# ---- hook installations -----------------------------------------------------------------------


@pytest.fixture
def fake_smriti(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A smriti executable of its own, so the test can delete the command the hooks point at."""
    from smriti.hooks import install as hooks_install

    exe = tmp_path / "bin" / "smriti"
    exe.parent.mkdir()
    exe.write_text(f'#!/bin/sh\nexec {sys.executable} -m smriti "$@"\n')
    exe.chmod(0o755)
    monkeypatch.setattr(hooks_install, "smriti_command", lambda: str(exe))
    return exe


def _hook_checks(report: dict) -> list[dict]:
    return [c for c in report["checks"] if c["check"].startswith("hook")]


def test_doctor_checks_hook_installations(
    runner, isolated_env: Path, fake_smriti: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _hook_checks(invoke_json(runner, "doctor")) == [
        {
            "check": "hook installations",
            "ok": True,
            "detail": "no agent has smriti's hooks (`smriti hooks install --agent A` adds them)",
        }
    ]
    invoke_json(runner, "hooks", "install", "--agent", "claude-code")
    settings = isolated_env / ".claude" / "settings.json"
    assert _hook_checks(invoke_json(runner, "doctor")) == [
        {"check": "hooks: claude-code (user scope)", "ok": True, "detail": f"{settings}: 4 event(s) run {fake_smriti}"}
    ]
    st = invoke_json(runner, "status")
    assert [(h["agent"], h["scope"], h["complete"], h["command_ok"]) for h in st["hook_installs"]] == [
        ("claude-code", "user", True, True)
    ]

    fake_smriti.rename(fake_smriti.with_name("smriti-moved"))
    before = settings.read_bytes()
    report = invoke_json(runner, "doctor", expect=1)
    assert report["problems"] == 1
    assert _hook_checks(report) == [
        {
            "check": "hooks: claude-code (user scope)",
            "ok": False,
            "detail": f"{settings} runs {fake_smriti}, which no longer exists or is not executable: "
            "run `smriti hooks install --agent claude-code`",
        }
    ]
    # also through the console script, in a process of its own
    proc = run_smriti("doctor", env={"HOME": str(isolated_env)})
    assert proc.returncode == 1 and re.search(
        r"^hooks: claude-code \(user scope\)\s+problem\s+\S+settings\.json runs\b", proc.stdout, re.M
    ), proc.stdout
    repaired = invoke_json(runner, "doctor", "--repair", expect=1)
    assert repaired["advice"] == [
        "hooks: claude-code (user scope): smriti does not rewrite agent settings on its own; "
        "run `smriti hooks install --agent claude-code`"
    ]
    assert settings.read_bytes() == before  # agent settings are never rewritten by --repair
    assert "Not repaired" in invoke(runner, "doctor", "--repair", expect=1).stdout
    st = invoke_json(runner, "status")
    assert st["hook_installs"][0]["command_ok"] is False

    # a settings file that no longer parses, but still names smriti's hooks
    settings.write_text(before.decode().replace("{", "{{", 1))
    bad = _hook_checks(invoke_json(runner, "doctor", expect=1))
    assert len(bad) == 1 and not bad[0]["ok"] and bad[0]["detail"].startswith(f"{settings} is not valid JSON")

    # project scope: the repo around the current directory
    settings.write_bytes(before)
    fake_smriti.with_name("smriti-moved").rename(fake_smriti)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    monkeypatch.chdir(repo)
    invoke_json(runner, "hooks", "install", "--agent", "codex", "--scope", "project")
    checks = _hook_checks(invoke_json(runner, "doctor"))
    assert [(c["check"], c["ok"]) for c in checks] == [
        ("hooks: claude-code (user scope)", True),
        ("hooks: codex (project scope)", True),
    ]
    fake_smriti.unlink()
    report = invoke_json(runner, "doctor", expect=1)
    assert [c["check"] for c in report["checks"] if not c["ok"]] == [
        "hooks: claude-code (user scope)",
        "hooks: codex (project scope)",
    ]
    assert report["checks"][-1]["detail"].endswith("run `smriti hooks install --agent codex --scope project`")


def test_path_prints_the_data_dir_and_with_all_where_everything_lives(tmp_path: Path) -> None:
    home = tmp_path / "somewhere"
    env = {"SMRITI_HOME": str(home)}
    plain = run_smriti("path", env=env)
    assert plain.returncode == 0 and plain.stdout == f"{home}\n"
    where = json.loads(run_smriti("path", "--json", env=env).stdout)
    assert where["data_dir"] == str(home) and where["store"] == str(home / "smriti.db")
    assert where["index"] == str(home / "index") and where["config"] == str(home / "config.toml")
    assert where["injection_log"].startswith(str(home)) and where["repo_knowledge"] is None  # no repo around
    listing = run_smriti("path", "--all", env=env).stdout.splitlines()
    assert [ln.split()[0] for ln in listing] == list(where)
    assert not home.exists()  # asking where things live creates nothing


def test_damage_a_command_first_reads_is_one_clear_error(runner, data_dir: Path) -> None:
    """A store whose schema pages are sound opens; a damaged page shows on its first read, in any
    command (here the message bodies: `search` and `show` read them, `status` does not)."""
    import apsw

    invoke_json(runner, "ingest", "--path", EX)
    db = data_dir / "smriti.db"
    conn = apsw.Connection(str(db))
    conn.pragma("wal_checkpoint(TRUNCATE)")
    pages = [p for (p,) in conn.execute("select pageno from dbstat where name = 'blobs'")]
    page_size = conn.pragma("page_size")
    conn.close()
    with db.open("r+b") as fh:
        for page in pages:
            fh.seek((page - 1) * page_size)
            fh.write(b"\xde\xad" * (page_size // 2))
    env = {"SMRITI_HOME": str(data_dir)}
    for args in (("search", "pool"), ("show", "96f77bed")):
        proc = run_smriti(*args, env=env)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, (args, proc.stderr)
        assert proc.stderr.startswith(f"Error: {db} is damaged") and "smriti doctor" in proc.stderr
    report = json.loads(run_smriti("doctor", "--json", env=env).stdout)
    assert not report["checks"][0]["ok"] and report["checks"][0]["check"] in ("store readable", "store integrity")
