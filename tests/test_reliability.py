"""Reliability: concurrent processes on one data dir, and kill -9 during sync."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import apsw

from conftest import EXAMPLES, run_smriti

REPO = Path(__file__).resolve().parent.parent


def _exe() -> list[str]:
    exe = shutil.which("smriti", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "smriti"]


def test_concurrent_ingest_recall_and_search_lose_nothing(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "corpus.py"), str(corpus), "--sessions", "120",
                    "--seed", "5"], check=True, capture_output=True)  # fmt: skip
    env = {**os.environ, "SMRITI_HOME": str(tmp_path / "data")}
    procs = [
        subprocess.Popen([*_exe(), "ingest", "--agent", "claude-code", "--path", str(corpus), "-q"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True),
        subprocess.Popen([*_exe(), "ingest", "--path", str(EXAMPLES / "claude-code"), "-q"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True),
    ]  # fmt: skip
    readers = 0
    while any(p.poll() is None for p in procs):
        for args in (["recall", "connection pool exhausted", "--json"], ["search", "needle7", "--json"]):
            r = run_smriti(*args, env={"SMRITI_HOME": str(tmp_path / "data")})
            assert r.returncode == 0, r.stderr
            readers += 1
    for p in procs:
        assert p.wait() == 0, p.stderr.read()
    env_d = {"SMRITI_HOME": str(tmp_path / "data")}
    clean = {"SMRITI_HOME": str(tmp_path / "clean")}
    run_smriti("ingest", "--agent", "claude-code", "--path", str(corpus), "-q", env=clean)
    run_smriti("ingest", "--path", str(EXAMPLES / "claude-code"), "-q", env=clean)
    a = json.loads(run_smriti("status", "--json", env=env_d).stdout)
    b = json.loads(run_smriti("status", "--json", env=clean).stdout)
    assert (a["sessions"], a["messages"], a["pending_index"]) == (b["sessions"], b["messages"], 0)
    assert a["index_docs"] == b["index_docs"]
    assert readers > 0


def test_a_killed_sync_leaves_a_consistent_store(tmp_path: Path) -> None:
    from smriti import knowledge

    origin, clone = tmp_path / "origin.git", tmp_path / "clone"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True, capture_output=True)
    for i in range(1500):
        item = knowledge.new_item(id=f"{i:016x}", title=f"Item number {i} about topic{i % 7}", category="topic/learning",
                                  body=f"# Item {i}\n\nBody {i} mentions zebra{i % 11}.\n", created="2026-11-01T00:00:00Z")  # fmt: skip
        path = clone / ".smriti" / knowledge.item_path(item)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(knowledge.render_bytes(item))
    for cmd in (["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@x", "commit", "-qm", "k"], ["push", "-q", "origin", "main"]):
        subprocess.run(["git", "-C", str(clone), *cmd], check=True, capture_output=True)
    env = {**os.environ, "SMRITI_HOME": str(tmp_path / "data")}
    proc = subprocess.Popen([*_exe(), "sync", "--repo", str(clone), "-q"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    time.sleep(1.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    again = run_smriti("sync", "--repo", str(clone), "--json", env={"SMRITI_HOME": str(tmp_path / "data")})
    assert again.returncode == 0, again.stderr
    out = json.loads(again.stdout)
    assert out["rejected"] == [] and out["imported"] + out["unchanged"] + out["updated"] == 1500
    status = json.loads(run_smriti("status", "--json", env={"SMRITI_HOME": str(tmp_path / "data")}).stdout)
    assert status["knowledge"] == 1500 and status["pending_index"] == 0
    conn = apsw.Connection(str(tmp_path / "data" / "smriti.db"))
    assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
