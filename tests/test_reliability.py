"""Reliability: concurrent processes on one data dir, and kill -9 of ingest, share and sync.

Every kill is followed by a re-run to completion, and the result is compared with a clean,
uninterrupted run of the same command on the same input: the store passes `pragma
integrity_check`, no session's message_count disagrees with its message rows (no half session),
no row is there twice and none is missing, the index holds what the store holds. The heavy,
many-runs variant is `python benchmarks/bench_reliability.py --runs 20` (results in
benchmarks/README.md); these are its CI-sized cousins. Elsewhere: kill -9 of ingest at a fixed
point (test_cli_ingest.py), a damaged or deleted index and a corrupted store with `doctor`
(test_maintenance.py, test_status.py), hypothesis fuzzing of every adapter's parser and of the
knowledge-file parser (test_adapter_*.py, test_knowledge.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import apsw
import pytest
from conftest import EXAMPLES, run_smriti

REPO = Path(__file__).resolve().parent.parent
CORPUS_PY = REPO / "benchmarks" / "corpus.py"
TEAM_REMOTE = "https://example.com/team/repo.git"  # a remote names the project: the repo's path does not matter
TEAM_KEY = "example.com/team/repo"
TEAM_CWD = "/home/dev/teamproj"  # every session of a one-project corpus ran here
PROJECTS = ["payments-api", "web-frontend", "data-pipeline", "infra", "mobile-app", "auth-service", "search", "billing"]
_SHARED_LINE = re.compile(rb"^shared: .*$", re.MULTILINE)
# What a user must never see from a command that did its job.
_USER_ERRORS = re.compile(r"Traceback|database is locked|Error|error:", re.IGNORECASE)


def _exe() -> list[str]:
    exe = shutil.which("smriti", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "smriti"]


def _env(data: Path) -> dict[str, str]:
    return {"SMRITI_HOME": str(data)}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _corpus(out: Path, sessions: int, seed: int, *, one_project: bool = False) -> Path:
    """benchmarks/corpus.py's Claude Code sessions; `one_project`: every session's cwd is TEAM_CWD,
    so one `share --project teamproj` sweep shares all of them."""
    subprocess.run(
        [sys.executable, str(CORPUS_PY), str(out), "--sessions", str(sessions), "--seed", str(seed)],
        check=True,
        capture_output=True,
    )
    if one_project:
        for f in out.rglob("*.jsonl"):
            text = f.read_text()
            for p in PROJECTS:
                text = text.replace(f"/home/dev/{p}", TEAM_CWD)
            f.write_text(text)
    return out


def _team_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, capture_output=True)
    for cmd in (
        ["config", "user.name", "t"],
        ["config", "user.email", "t@example.com"],
        ["remote", "add", "origin", TEAM_REMOTE],
    ):
        _git(path, *cmd)
    (path / ".smriti").mkdir()  # set up for sharing, as `smriti init` leaves it (share refuses otherwise)
    return path


def _knowledge_repo(path: Path, items: int) -> Path:
    """A repo whose main branch holds `items` committed knowledge files."""
    from smriti.team import knowledge

    _team_repo(path)
    for i in range(items):
        item = knowledge.new_item(
            id=f"{i:016x}",
            title=f"Item number {i} about topic{i % 7}",
            category="topic/learning",
            body=f"# Item {i}\n\nBody {i} mentions zebra{i % 11}.\n",
            created="2026-11-01T00:00:00Z",
        )
        target = path / ".smriti" / knowledge.item_path(item)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(knowledge.render_bytes(item))
    _git(path, "add", "-A")
    _git(path, "commit", "-qm", "knowledge")
    return path


def _status(data: Path) -> dict:
    r = run_smriti("status", "--json", env=_env(data))
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    return {k: s[k] for k in ("sessions", "messages", "knowledge", "index_docs", "pending_index")}


def _store_facts(data: Path) -> dict:
    """What a kill must not break: integrity, whole sessions, and every row by its identity."""
    conn = apsw.Connection(str(data / "smriti.db"))
    try:
        q = lambda sql: conn.execute(sql).fetchall()  # noqa: E731
        return {
            "integrity": q("pragma integrity_check")[0][0],
            "half_sessions": [
                r[0]
                for r in q(
                    "select session_id from sessions s where message_count != "
                    "(select count(*) from messages m where m.session = s.id)"
                )
            ],
            "rows": {
                "sessions": Counter(q("select agent, native_id, message_count, coalesce(category, '') from sessions")),
                "digests": Counter(q("select s.native_id, d.title from digests d join sessions s on s.id = d.session")),
                "messages": Counter(
                    q(
                        "select s.agent, s.native_id, m.key_hash, m.role, m.kind, hex(b.hash) "
                        "from messages m join sessions s on s.id = m.session join blobs b on b.id = m.blob"
                    )
                ),
                "knowledge": Counter(
                    q("select item_id, coalesce(repo, ''), path, content_hash, status from knowledge")
                ),
                "shares": Counter(q("select item_id, repo, path, status from shares")),
            },
        }
    finally:
        conn.close()


def _repo_files(repo: Path) -> dict[str, bytes]:
    """Every file under .smriti/knowledge/, its `shared:` time blanked (the one field that is the
    clock's: a clean run a second later writes another)."""
    base = repo / ".smriti" / "knowledge"
    return {
        p.relative_to(repo).as_posix(): _SHARED_LINE.sub(b'shared: "<time>"', p.read_bytes())
        for p in sorted(base.rglob("*"))
        if p.is_file()
    }


def _share_problems(repo: Path, data: Path) -> list[str]:
    """The repo's knowledge files against the store's shares bookkeeping."""
    from smriti.team import knowledge

    conn = apsw.Connection(str(data / "smriti.db"))
    try:
        rows = {
            r[0]: r[1:]
            for r in conn.execute("select item_id, path, file_sha, status from shares where repo = ?", (TEAM_KEY,))
        }
    finally:
        conn.close()
    problems, seen = [], {}
    for path in sorted((repo / ".smriti" / "knowledge").rglob("*")):
        rel = path.relative_to(repo).as_posix()
        if not path.is_file():
            continue
        if path.suffix != ".md":
            problems.append(f"stray file {rel}")
            continue
        data_ = path.read_bytes()
        try:
            item = knowledge.parse(data_, path=rel)
        except knowledge.KnowledgeError as exc:
            problems.append(f"unparsable {rel}: {exc}")
            continue
        if item.id in seen:
            problems.append(f"duplicate item {item.id}: {seen[item.id]} and {rel}")
        seen[item.id] = rel
        row = rows.get(item.id)
        if row is None:
            problems.append(f"unrecorded {rel}")
        elif (row[0], row[1], row[2]) != (rel, hashlib.sha256(data_).hexdigest(), "shared"):
            problems.append(f"bookkeeping mismatch {rel}: {row}")
    problems += [f"recorded but missing {r[0]}" for i, r in rows.items() if r[2] == "shared" and i not in seen]
    return problems


# What a kill -9 can leave until the next share run mends it: a `.smriti-*.tmp` of a write that
# never finished, and a file written whose shares row was not committed yet. Right after a kill
# these are expected; after a re-run, nothing may be left.
_KILL_LEFTOVERS = re.compile(r"^(stray file .*/\.smriti-[^/]*\.tmp|unrecorded .*)$")


def _assert_share_consistent(repo: Path, data: Path, clean: dict[str, bytes]) -> None:
    assert _share_problems(repo, data) == []
    files = {k: v for k, v in _repo_files(repo).items() if k.endswith(".md")}
    assert sorted(files) == sorted(clean)  # same file names...
    assert [k for k in files if files[k] != clean[k]] == []  # ...and the same bytes
    md = [str(p) for p in sorted((repo / ".smriti" / "knowledge").rglob("*.md"))]
    check = run_smriti("check", "--json", *md)
    assert check.returncode == 0 and json.loads(check.stdout)["problems"] == [], check.stdout[:2000]


def _assert_same_store(data: Path, clean: Path) -> None:
    got, want = _store_facts(data), _store_facts(clean)
    assert got["integrity"] == "ok"
    assert got["half_sessions"] == []
    for table, rows in want["rows"].items():
        if table == "shares":
            continue  # a share's bookkeeping is checked against the files, not another store
        assert sum((rows - got["rows"][table]).values()) == 0, f"{table}: rows lost"
        assert sum((got["rows"][table] - rows).values()) == 0, f"{table}: rows doubled"
    assert _status(data) == {**_status(clean), "pending_index": 0}


def _run_to_completion(argv: list[str], data: Path) -> subprocess.CompletedProcess:
    r = run_smriti(*argv, env=_env(data))
    assert r.returncode == 0, r.stderr
    assert not _USER_ERRORS.search(r.stderr), r.stderr
    return r


def _kill_at(argv: list[str], data: Path, delay: float) -> bool:
    """Start `smriti <argv>`, SIGKILL it after `delay` s; True when it was still running (a fault landed)."""
    proc = subprocess.Popen(
        [*_exe(), *argv], env={**os.environ, **_env(data)}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    time.sleep(delay)
    landed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return landed


def _done(op: str, data: Path, repo: Path) -> int:
    """How much of its work a run of `op` had finished: the sessions ingest stored, the knowledge
    rows sync imported, the files share wrote."""
    if op == "share":
        folder = repo / ".smriti" / "knowledge"
        return sum(1 for _ in folder.rglob("*.md")) if folder.is_dir() else 0
    return _count(data, "sessions" if op == "ingest" else "knowledge")


def _count(data: Path, table: str) -> int:
    if not (data / "smriti.db").exists():
        return 0  # killed before the store was created
    conn = apsw.Connection(str(data / "smriti.db"))
    try:
        return conn.execute(f"select count(*) from {table}").fetchall()[0][0]
    except apsw.SQLError:
        return 0  # killed while the first migration was creating the tables
    finally:
        conn.close()


def _left_partial(op: str, data: Path, repo: Path, total: int) -> bool:
    """Whether a killed run stopped in the middle of the work: some of it done but not all, or all
    of it stored but not finished (index changes still in the outbox; sync: its commit not recorded)."""
    done = _done(op, data, repo)
    if not 0 < done <= total:
        return False
    if done < total:
        return True
    return op != "share" and (_count(data, "outbox") > 0 or (op == "sync" and _count(data, "sync_state") == 0))


# --- concurrency --------------------------------------------------------------------------------------


def _first_open(data: Path) -> None:
    """Create the data dir (store and index) before the processes under test start on it: processes
    racing to create it are test_processes_starting_together_on_a_fresh_data_dir_all_succeed's."""
    _run_to_completion(["status", "--json"], data)


def test_concurrent_ingest_recall_and_search_lose_nothing(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "corpus.py"), str(corpus), "--sessions", "120", "--seed", "5"],
        check=True,
        capture_output=True,
    )
    env = {**os.environ, "SMRITI_HOME": str(tmp_path / "data")}
    _first_open(tmp_path / "data")
    procs = [
        subprocess.Popen(
            [*_exe(), "ingest", "--agent", "claude-code", "--path", str(corpus), "-q"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        ),
        subprocess.Popen(
            [*_exe(), "ingest", "--path", str(EXAMPLES / "claude-code"), "-q"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        ),
    ]
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


def test_concurrent_ingest_recall_and_sync_lose_nothing(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "corpus", 150, 9)
    repo = _knowledge_repo(tmp_path / "team", 400)
    data, clean = tmp_path / "data", tmp_path / "clean"
    ingest = ["ingest", "--agent", "claude-code", "--path", str(corpus), "-q"]
    sync = ["sync", "--repo", str(repo), "--no-fetch", "-q"]  # its remote is a name only
    env = {**os.environ, **_env(data)}
    _first_open(data)

    def start(argv: list[str]) -> subprocess.Popen:
        return subprocess.Popen([*_exe(), *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    procs = [start(ingest), start(sync)]
    outcomes: list[tuple[list[str], int, str]] = []
    readers = 0
    # Recall, and sync again and again, while ingest writes (and at least one sync after the first).
    while procs[0].poll() is None or len(procs) < 3:
        for args in (["recall", "zebra3 topic4", "--json"], ["recall", "connection pool exhausted", "--json"]):
            r = run_smriti(*args, env=_env(data))
            outcomes.append((args, r.returncode, r.stderr))
            readers += 1
        if procs[-1].poll() is not None:
            procs.append(start(sync))
    for p in procs:
        p.wait()
        outcomes.append((p.args, p.returncode, p.stderr.read()))
    failed = [o for o in outcomes if o[1] != 0 or _USER_ERRORS.search(o[2])]
    assert failed == []
    assert readers > 0
    _run_to_completion(ingest, clean)
    _run_to_completion(sync, clean)
    assert _status(clean)["knowledge"] == 400
    _assert_same_store(data, clean)


def test_processes_starting_together_on_a_fresh_data_dir_all_succeed(tmp_path: Path) -> None:
    # Agent hooks, an ingest and a recall can all be the first smriti process on a machine. Before
    # the fix ~40% of such starts showed a traceback: `table blobs already exists` (two migrate()
    # calls both found the migration unapplied), or FileExistsError / 'Directory not empty' /
    # missing meta.json (two Index._open() calls wiping and creating the index dir at once).
    failures: list[str] = []
    for trial in range(15):  # stops at the first failure (~8 s for 15 clean trials)
        env = {**os.environ, **_env(tmp_path / f"fresh{trial}")}
        procs = [
            subprocess.Popen([*_exe(), *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for argv in (
                ["status", "--json"],
                ["search", "x", "--json"],
                ["recall", "y z", "--json"],
                ["sessions", "--json"],
            )
        ]
        for p in procs:
            err = p.communicate()[1]
            if p.returncode != 0 or _USER_ERRORS.search(err):
                failures.append(err.strip().splitlines()[-1] if err.strip() else f"exit {p.returncode}")
        if failures:
            break
    assert failures == []


# --- kill -9 ------------------------------------------------------------------------------------------


def test_a_killed_sync_leaves_a_consistent_store(tmp_path: Path) -> None:
    clone = _knowledge_repo(tmp_path / "clone", 1500)
    env = {**os.environ, "SMRITI_HOME": str(tmp_path / "data")}
    proc = subprocess.Popen(
        [*_exe(), "sync", "--repo", str(clone), "--no-fetch", "-q"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    again = run_smriti(
        "sync", "--repo", str(clone), "--no-fetch", "--json", env={"SMRITI_HOME": str(tmp_path / "data")}
    )
    assert again.returncode == 0, again.stderr
    out = json.loads(again.stdout)
    assert out["rejected"] == [] and out["imported"] + out["unchanged"] + out["updated"] == 1500
    status = json.loads(run_smriti("status", "--json", env={"SMRITI_HOME": str(tmp_path / "data")}).stdout)
    assert status["knowledge"] == 1500 and status["pending_index"] == 0
    conn = apsw.Connection(str(tmp_path / "data" / "smriti.db"))
    assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"


def _shared_setup(tmp_path: Path, sessions: int, seed: int) -> tuple[Path, list[str]]:
    """A data dir with a one-project corpus ingested (copy it per run) and the share command."""
    corpus = _corpus(tmp_path / "corpus", sessions, seed, one_project=True)
    template = tmp_path / "template"
    _run_to_completion(["ingest", "--agent", "claude-code", "--path", str(corpus), "-q"], template)
    return template, ["share", "--project", "teamproj", "--json"]


def _share_clean_run(tmp_path: Path, template: Path, argv: list[str]) -> tuple[Path, dict[str, bytes]]:
    clean = tmp_path / "clean"
    shutil.copytree(template, clean / "data")
    repo = _team_repo(clean / "repo")
    out = json.loads(_run_to_completion([*argv, "--repo", str(repo)], clean / "data").stdout)
    assert out["skipped"] == [] and len(out["written"]) > 100
    assert _share_problems(repo, clean / "data") == []
    return clean, _repo_files(repo)


def test_a_share_killed_mid_run_leaves_whole_files_and_a_rerun_finishes_the_job(tmp_path: Path) -> None:
    template, argv = _shared_setup(tmp_path, 300, 21)
    clean, clean_files = _share_clean_run(tmp_path, template, argv)
    data, repo = tmp_path / "run" / "data", _team_repo(tmp_path / "run" / "repo")
    shutil.copytree(template, data)
    proc = subprocess.Popen(
        [*_exe(), *argv, "--repo", str(repo)],
        env={**os.environ, **_env(data)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    knowledge_dir = repo / ".smriti" / "knowledge"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if knowledge_dir.is_dir() and sum(1 for _ in knowledge_dir.rglob("*.md")) >= 20:
            break
        time.sleep(0.005)
    assert proc.poll() is None, "share finished before the kill: the corpus is too small for this machine"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    partial = len(list(knowledge_dir.rglob("*.md")))
    assert 20 <= partial < len(clean_files)  # the kill landed mid-run
    # What the kill left: whole files only, each one parses, no item twice, bookkeeping agrees.
    assert [p for p in _share_problems(repo, data) if not _KILL_LEFTOVERS.match(p)] == []
    out = json.loads(_run_to_completion([*argv, "--repo", str(repo)], data).stdout)
    # What was written before the kill is left as it is; the rest is written once.
    assert out["skipped"] == [] and (out["unchanged"], len(out["written"])) == (partial, len(clean_files) - partial)
    _assert_share_consistent(repo, data, clean_files)
    _assert_same_store(data, clean / "data")
    # The shares rows are the clean run's, but for a file the kill left unrecorded (the known gap).
    missing = _store_facts(clean / "data")["rows"]["shares"] - _store_facts(data)["rows"]["shares"]
    unrecorded = {p.split(" ", 1)[1] for p in _share_problems(repo, data) if p.startswith("unrecorded ")}
    assert {row[2] for row in missing} == unrecorded


def _random_kills(op: str, tmp_path: Path, seed: int, runs: int) -> tuple[int, int]:
    """`runs` times: start `op` on a fresh copy of its input, SIGKILL it after a delay drawn from a
    seeded RNG within the clean run's duration, re-run it to completion, and compare with the clean
    run. Returns how many runs had a kill land while the process was still running, and how many
    had one leave partial work (`_left_partial`). A kill that left none is tried again on a fresh
    copy (up to 8 tries), bisecting between the latest delay known too early (none of the work
    done: still starting up or reading its input) and the earliest known too late (all of it done,
    or the run over: this machine was faster than during the clean run). A first ingest stores its
    sessions in one transaction, so its partial window is only the index sync after that commit,
    ~15% of the run: halving and re-extending the delay could step over it on a busy machine.
    Only the last try of each run is re-run and compared."""
    rng = random.Random(seed)
    template: Path | None = None
    if op == "ingest":
        corpus = _corpus(tmp_path / "corpus", 200, seed)
        argv = ["ingest", "--agent", "claude-code", "--path", str(corpus), "-q"]
    elif op == "sync":
        knowledge_repo = _knowledge_repo(tmp_path / "team", 1200)
        argv = ["sync", "--repo", str(knowledge_repo), "--no-fetch", "-q"]  # the kill lands in the import
    else:
        template, argv = _shared_setup(tmp_path, 250, seed)

    def fresh(run: Path) -> tuple[Path, list[str]]:
        if template is not None:
            shutil.copytree(template, run / "data")
            return run / "data", [*argv, "--repo", str(_team_repo(run / "repo"))]
        return run / "data", argv

    clean_data, clean_argv = fresh(tmp_path / "clean")
    start = time.perf_counter()
    _run_to_completion(clean_argv, clean_data)
    runtime = time.perf_counter() - start
    clean_files = _repo_files(tmp_path / "clean" / "repo") if template is not None else {}
    total = _done(op, clean_data, tmp_path / "clean" / "repo")
    assert total > 0
    mid_run = partial = 0
    for i in range(runs):
        delay = rng.uniform(0.25 * runtime, 0.95 * runtime)
        killed_running = landed = False
        too_early, too_late = 0.0, 1.25 * runtime  # a slower machine than the clean run's may need more
        for attempt in range(8):
            run = tmp_path / f"run{i}-{attempt}"
            data, run_argv = fresh(run)
            running = _kill_at(run_argv, data, delay)
            killed_running |= running
            landed = running and _left_partial(op, data, run / "repo", total)
            if landed:
                break
            if not running or _done(op, data, run / "repo") >= total:
                too_late = delay
            else:
                too_early = delay
            delay = (too_early + too_late) / 2
        mid_run += killed_running
        partial += landed
        _run_to_completion(run_argv, data)
        _assert_same_store(data, clean_data)
        if template is not None:
            _assert_share_consistent(run / "repo", data, clean_files)
    return mid_run, partial


@pytest.mark.parametrize("op,seed", [("ingest", 101), ("share", 202), ("sync", 303)])
def test_kill_at_random_points_then_rerun_loses_nothing(op: str, seed: int, tmp_path: Path) -> None:
    mid_run, partial = _random_kills(op, tmp_path, seed, runs=2)
    assert mid_run == 2  # every run was killed while it was still running, never after it finished
    if op != "sync":
        # ingest and share write item by item, so some kill leaves part of the work for the re-run.
        # A sync imports in one transaction and spends most of its time starting up: the window in
        # which its kill can leave observable partial state is too short to hit reliably on a busy
        # machine (the kill -9 suite of benchmarks/bench_reliability.py hits it over many runs).
        assert partial >= 1


# --- the two windows a kill -9 of share can hit, mended by the next run ----------------------


def test_a_share_killed_between_writing_a_file_and_recording_it_is_recorded_on_the_rerun(tmp_path: Path) -> None:
    template, argv = _shared_setup(tmp_path, 40, 4)
    repo = _team_repo(tmp_path / "repo")
    shutil.copytree(template, tmp_path / "data")
    first = json.loads(_run_to_completion([*argv, "--repo", str(repo)], tmp_path / "data").stdout)
    # What a kill -9 after _atomic_write and before record_share's commit leaves: the file, no row.
    conn = apsw.Connection(str(tmp_path / "data" / "smriti.db"))
    conn.execute("delete from shares where path = ?", (first["written"][0],))
    conn.close()
    _run_to_completion([*argv, "--repo", str(repo)], tmp_path / "data")
    assert _share_problems(repo, tmp_path / "data") == []


def test_a_temp_file_left_by_a_killed_share_does_not_break_check(tmp_path: Path) -> None:
    template, argv = _shared_setup(tmp_path, 40, 4)
    repo = _team_repo(tmp_path / "repo")
    shutil.copytree(template, tmp_path / "data")
    first = json.loads(_run_to_completion([*argv, "--repo", str(repo)], tmp_path / "data").stdout)
    # What a kill -9 inside _atomic_write leaves: mkstemp's file, half written, never renamed.
    written = repo / first["written"][0]
    (written.parent / ".smriti-k1ll3d.tmp").write_bytes(written.read_bytes()[:100])
    _run_to_completion([*argv, "--repo", str(repo)], tmp_path / "data")
    check = run_smriti("check", str(repo))
    assert check.returncode == 0, check.stdout


def test_a_share_killed_between_updating_a_file_and_recording_it_is_not_taken_for_a_human_edit(tmp_path: Path) -> None:
    template, argv = _shared_setup(tmp_path, 40, 4)
    repo = _team_repo(tmp_path / "repo")
    shutil.copytree(template, tmp_path / "data")
    first = json.loads(_run_to_completion([*argv, "--repo", str(repo)], tmp_path / "data").stdout)
    # A kill after an updated file replaced the old one and before its row was updated: the row
    # still holds the old file's hash.
    conn = apsw.Connection(str(tmp_path / "data" / "smriti.db"))
    conn.execute("update shares set file_sha = ? where path = ?", ("0" * 64, first["written"][0]))
    conn.close()
    again = json.loads(_run_to_completion([*argv, "--repo", str(repo)], tmp_path / "data").stdout)
    assert again["skipped"] == [] and again["written"] == []  # "unchanged", not "edited by a person"
    assert _share_problems(repo, tmp_path / "data") == []


# ---------------------------------------------------------------------------------------------
# A writer that hangs, and a data dir nobody may write (more hostile environments in
# test_hostile.py)

_HUNG_WRITER = """
import sys, time, apsw
conn = apsw.Connection(sys.argv[1])
conn.execute("begin immediate")  # the write lock, held until this process dies
conn.execute("insert into _smriti_migrations values ('zz_hung_writer', 'now')")
print("holding the write lock", flush=True)
time.sleep(600)
"""
_READERS = (
    ["status", "--json"],
    ["sessions", "--json"],
    ["search", "connection pool", "--json"],
    ["recall", "why was the connection pool exhausted", "--json"],
)


def _one_line_error(r: subprocess.CompletedProcess) -> str:
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def test_a_hung_writer_blocks_no_reader_and_a_writer_says_busy(tmp_path: Path) -> None:
    from conftest import claude_tree
    from hostile_helpers import HARD_TIMEOUT, run

    data = tmp_path / "data"  # the autouse fixture's SMRITI_HOME
    sessions = sorted(EXAMPLES.glob("claude-code/*/*.jsonl"))
    root = claude_tree(Path(os.environ["HOME"]), sessions[:2])
    assert run("ingest").returncode == 0
    writer = subprocess.Popen(
        [sys.executable, "-c", _HUNG_WRITER, str(data / "smriti.db")], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline().startswith("holding")
        for argv in _READERS:  # WAL: readers never wait for the writer, and opening takes no lock
            r = run(*argv)
            assert r.returncode == 0 and not _USER_ERRORS.search(r.stderr), (argv, r.stderr)
        sid = json.loads(run("sessions", "--json").stdout)[0]["session_id"]
        assert run("show", sid).returncode == 0
        # a writer gives up after the busy timeout with one line; nothing it read is lost
        shutil.copy(sessions[2], root / sessions[2].name)
        assert "is busy" in _one_line_error(run("ingest"))
    finally:
        writer.kill()
        writer.wait(timeout=HARD_TIMEOUT)
    out = json.loads(run("ingest", "--json").stdout)
    assert out["sessions_ingested"] == 1
    facts = _store_facts(data)
    assert facts["integrity"] == "ok" and facts["half_sessions"] == []
    assert _status(data)["sessions"] == 3


def test_reading_commands_work_on_a_read_only_data_dir(tmp_path: Path) -> None:
    from conftest import claude_tree
    from hostile_helpers import read_only, run, unprivileged

    data = tmp_path / "data"
    sessions = sorted(EXAMPLES.glob("claude-code/*/*.jsonl"))
    root = claude_tree(Path(os.environ["HOME"]), sessions[:2])
    assert run("ingest").returncode == 0
    before = _store_facts(data)
    stale = tmp_path / "stale"  # a copy whose schema lacks the newest migration
    shutil.copytree(data, stale)
    conn = apsw.Connection(str(stale / "smriti.db"))
    newest = conn.execute("select max(name) from _smriti_migrations").fetchall()[0][0]
    conn.execute("delete from _smriti_migrations where name = ?", (newest,))
    conn.close()
    prefix = unprivileged()
    shutil.copy(sessions[2], root / sessions[2].name)
    with read_only(data, stale):
        for argv in _READERS:
            r = run(*argv, prefix=prefix)
            assert r.returncode == 0 and not _USER_ERRORS.search(r.stderr), (argv, r.stderr)
        found = json.loads(run("search", "connection pool", "--json", prefix=prefix).stdout)
        assert found and run("show", found[0]["id"], prefix=prefix).returncode == 0
        assert "is read-only" in _one_line_error(run("ingest", prefix=prefix))
        line = _one_line_error(run("status", prefix=prefix, env={"SMRITI_HOME": str(stale)}))
        assert f"needs a schema migration ({newest})" in line
    after = _store_facts(data)
    assert after == before  # nothing changed, nothing lost
    assert json.loads(run("ingest", "--json").stdout)["sessions_ingested"] == 1  # writable again: it all works
