"""forget, prune and doctor through the real CLI, on a populated and on a damaged data dir."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import EXAMPLES, invoke, invoke_json, run_smriti

EX = str(EXAMPLES / "claude-code")
POOL = "6c0e2a4e-1b7d-4c61-9d1e-3a5f7b9c2d10"


def test_forget_removes_exactly_one_session_and_it_stays_gone(runner, tmp_path: Path) -> None:
    copy = tmp_path / "ex"
    shutil.copytree(EX, copy)
    invoke_json(runner, "ingest", "--path", str(copy))
    out = invoke_json(runner, "forget", POOL[:8])
    assert out["removed"] == [{"agent": "claude-code", "native_id": POOL}] and out["blobs_dropped"] > 0
    assert {s["native_id"] for s in invoke_json(runner, "sessions")} == {
        "9b2f4d61-8c3a-4e7f-a1b2-c3d4e5f60718",
        "d41d8cd9-8f00-4b20-9e98-00998ecf8427",
    }
    assert invoke_json(runner, "search", "psycopg pool exhausted") == []
    for f in copy.rglob("*.jsonl"):  # touch every file: a full re-read must not bring it back
        f.write_bytes(f.read_bytes())
    invoke_json(runner, "ingest", "--path", str(copy))
    assert POOL not in {s["native_id"] for s in invoke_json(runner, "sessions")}
    doctor = invoke_json(runner, "doctor")
    assert doctor["problems"] == 0, doctor


def test_forget_by_project_and_needs_a_target(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    assert invoke_json(runner, "forget", "--project", "payments-api", "--yes")["sessions"] == 2
    assert [s["project"] for s in invoke_json(runner, "sessions")] == ["web-frontend"]
    assert "name what to forget" in invoke(runner, "forget", expect=1).stderr


def test_prune_by_age_and_tool_output_only(runner) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    kept = invoke_json(runner, "prune", "--older-than", "100000")
    assert kept["sessions_removed"] == 0
    out = invoke_json(runner, "prune", "--older-than", "0", "--kind", "tool-output")
    assert out["messages_removed"] == 7  # every tool result of the three sessions
    shown = invoke_json(runner, "show", POOL)
    assert "tool_result" not in {m["kind"] for m in shown["messages_list"]} and shown["messages"] == 8
    assert invoke_json(runner, "prune", "--older-than", "0")["sessions_removed"] == 3
    assert invoke_json(runner, "sessions") == []


def test_doctor_reports_and_repairs_a_damaged_index(runner, data_dir: Path) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    assert invoke_json(runner, "doctor")["problems"] == 0
    shutil.rmtree(data_dir / "index")
    (data_dir / "index").mkdir()
    (data_dir / "index" / "meta.json").write_text("{broken")
    report = json.loads(run_smriti("doctor", "--repair", "--json", env={"SMRITI_HOME": str(data_dir)}).stdout)
    assert report["problems"] == 0 and any("rebuilt" in r or "vacuumed" in r for r in report["repaired"])
    assert invoke_json(runner, "search", "alembic")[0]["native_id"] == "9b2f4d61-8c3a-4e7f-a1b2-c3d4e5f60718"


def test_doctor_on_a_corrupted_store_explains_the_way_out(runner, data_dir: Path) -> None:
    invoke_json(runner, "ingest", "--path", EX)
    (data_dir / "smriti.db").write_bytes(b"garbage" * 5000)
    for extra in ("smriti.db-wal", "smriti.db-shm"):
        (data_dir / extra).unlink(missing_ok=True)
    env = {"SMRITI_HOME": str(data_dir)}
    status = run_smriti("status", env=env)
    assert (
        status.returncode == 1
        and "not a readable smriti database" in status.stderr
        and "Traceback" not in status.stderr
    )
    first = run_smriti("doctor", "--json", env=env)
    assert first.returncode == 1 and json.loads(first.stdout)["checks"][0]["check"] == "store readable"
    fixed = run_smriti("doctor", "--repair", "--json", env=env)
    assert fixed.returncode == 0 and "run `smriti ingest`" in json.loads(fixed.stdout)["repaired"][0]
    assert list(data_dir.glob("smriti.db.broken-*"))
    assert json.loads(run_smriti("ingest", "--path", EX, "--json", env=env).stdout)["messages_added"] == 25
