"""Categorization and distillation through the real CLI: ingest categorizes, tags win, config rules apply."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import EXAMPLES, invoke, invoke_json

EX = str(EXAMPLES / "claude-code")
POOL = "6c0e2a4e-1b7d-4c61-9d1e-3a5f7b9c2d10"
ALEMBIC = "9b2f4d61-8c3a-4e7f-a1b2-c3d4e5f60718"


def line(kind: str, uuid: str, text: str, session: str, cwd: str, parent: str | None = None) -> str:
    msg = (
        {"role": "user", "content": text}
        if kind == "user"
        else {"id": "msg_" + uuid, "role": "assistant", "content": [{"type": "text", "text": text}]}
    )
    return (
        json.dumps(
            {
                "type": kind,
                "uuid": uuid,
                "parentUuid": parent,
                "sessionId": session,
                "cwd": cwd,
                "timestamp": "2026-11-01T10:00:00Z",
                "message": msg,
            }
        )
        + "\n"
    )


def test_ingest_categorizes_and_distills(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    by_id = {s["native_id"]: s for s in invoke_json(runner, "sessions")}
    assert by_id[POOL]["category"].startswith("bug")
    assert by_id[ALEMBIC]["category"].split("/")[0] in {"decision", "architecture"}
    shown = invoke_json(runner, "show", POOL)
    assert shown["title"] == "Fix connection pool exhaustion under load"  # the agent's own title wins
    assert "src/db/pool.py" in " ".join(shown["entities"]["files"])
    assert any("psycopg" in lib["text"] for lib in shown["entities"]["libraries"])
    assert shown["summary"] and all(len(line) <= 200 for line in shown["summary"])
    assert shown["tags"][0]["primary"] and shown["tags"][0]["source"] == "rule"


def test_categories_json_counts(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    rows = {r["id"]: r for r in invoke_json(runner, "categories")}
    assert {"bug", "bug/fix", "architecture/decision", "uncategorized"} <= set(rows)
    assert sum(r["sessions"] for r in rows.values()) == 3
    assert rows["bug/fix"]["parent"] == "bug" and rows["bug"]["source"] == "seed"


def test_categories_before_any_ingest_lists_the_seeds(runner) -> None:
    rows = invoke_json(runner, "categories")
    assert len(rows) == 30 and all(r["sessions"] == 0 for r in rows)


def test_a_manual_tag_survives_recategorization_and_reingest(runner, tmp_path: Path) -> None:
    copy = tmp_path / "ex"
    subprocess.run(["cp", "-r", EX, str(copy)], check=True)
    invoke_json(runner, "ingest", "--path", str(copy))
    tagged = invoke_json(runner, "tag", POOL[:8], "topic/learning")
    assert tagged["category"] == "topic/learning"
    invoke_json(runner, "categorize", "--all")
    f = next(copy.rglob(f"{POOL}.jsonl"))
    with f.open("a") as fh:  # the session grows: re-ingest re-categorizes it
        fh.write(
            line(
                "user", "extra-1", "one more traceback: psycopg_pool.PoolTimeout again", POOL, "/home/dev/payments-api"
            )
        )
    assert invoke_json(runner, "ingest", "--path", str(copy))["messages_added"] == 1
    assert invoke_json(runner, "show", POOL)["category"] == "topic/learning"
    assert [s["native_id"] for s in invoke_json(runner, "sessions", "--category", "topic")] == [POOL]
    assert invoke_json(runner, "search", "pool", "--category", "topic")[0]["native_id"] == POOL
    untagged = invoke_json(runner, "untag", POOL)
    assert untagged["removed"] == ["topic/learning"] and untagged["category"].startswith("bug")


def test_tag_rejects_an_unknown_category(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    result = invoke(runner, "tag", POOL, "nonsense/thing", expect=2)
    assert "unknown category 'nonsense/thing'" in result.stderr


def test_category_filter_matches_children(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    bug = invoke_json(runner, "sessions", "--category", "bug")
    assert POOL in {s["native_id"] for s in bug}
    assert all(s["category"].startswith("bug") for s in bug)
    hits = invoke_json(runner, "search", "connection", "--category", "bug")
    assert hits and all(h["category"].startswith("bug") for h in hits)


def test_file_filter_finds_sessions_that_touched_a_file(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    hits = invoke_json(runner, "search", "pool", "--file", "src/db/pool.py")
    assert [h["native_id"] for h in hits] == [POOL]
    assert invoke_json(runner, "search", "pool", "--file", "src/nothing.py") == []


def test_team_config_categories_and_rules_take_effect(runner, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".smriti").mkdir()
    (repo / ".smriti" / "config.toml").write_text(
        "[categorize]\n"
        '[[categorize.categories]]\nid = "ops"\nkeywords = ["runbook"]\n'
        '[[categorize.categories]]\nid = "ops/incident"\nkeywords = ["outage", "postmortem", "pager"]\n'
        "[[categorize.rules]]\ncategory = \"ops/incident\"\npattern = '(?i)\\bsev-?[12]\\b'\nweight = 4.0\n"
    )
    t = tmp_path / "t"
    t.mkdir()
    (t / "inc.jsonl").write_text(
        line("user", "i1", "SEV1 outage: the pager went off, write the postmortem timeline", "inc", str(repo))
        + line("assistant", "i2", "Here is the postmortem timeline for the outage.", "inc", str(repo), "i1")
    )
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(t))
    assert invoke_json(runner, "show", "inc")["category"] == "ops/incident"
    assert "ops/incident" in {r["id"] for r in invoke_json(runner, "categories")}


def test_a_broken_team_config_is_a_warning_not_a_failure(runner, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".smriti").mkdir()
    (repo / ".smriti" / "config.toml").write_text(
        '[categorize]\n[[categorize.rules]]\ncategory = "bug"\npattern = "(unclosed"\n'
    )
    t = tmp_path / "t"
    t.mkdir()
    (t / "s.jsonl").write_text(line("user", "b1", "fix the null pointer exception in the parser", "s", str(repo)))
    out = invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(t))
    assert out["errors"] == [] and out["messages_added"] == 1
    assert any("not a valid regular expression" in w["error"] for w in out["warnings"])


def test_a_newer_session_on_the_same_ground_supersedes_the_older(runner, tmp_path: Path) -> None:
    t = tmp_path / "t"
    t.mkdir()
    text = "fix the TypeError crash in the checkout form validation: undefined is not a function"
    # "a-new" is read first: the relation must not depend on the order sessions arrive in.
    for sid, day in (("z-old", "2026-10-01"), ("a-new", "2026-11-01")):
        (t / f"{sid}.jsonl").write_text(
            line("user", f"{sid}-1", text, sid, "/w/shop").replace("2026-11-01T10:00:00Z", f"{day}T10:00:00Z")
            + line(
                "assistant", f"{sid}-2", "Fixed the bug: the validator was undefined.", sid, "/w/shop", f"{sid}-1"
            ).replace("2026-11-01T10:00:00Z", f"{day}T10:01:00Z")
        )
    (t / "other.jsonl").write_text(
        line("user", "o-1", "fix the flaky websocket reconnect bug in chat", "other", "/w/shop")
    )
    invoke_json(runner, "ingest", "--agent", "claude-code", "--path", str(t))
    new, old = invoke_json(runner, "show", "a-new"), invoke_json(runner, "show", "z-old")
    assert new["category"] == old["category"]
    assert [(r["relation"], r["session_id"]) for r in new["relations"]] == [("supersedes", old["session_id"])]
    assert [(r["relation"], r["session_id"]) for r in old["relations"]] == [("superseded_by", new["session_id"])]
