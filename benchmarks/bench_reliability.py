"""Reliability under kill -9 and under concurrency, through the real console script.

    python benchmarks/bench_reliability.py --runs 20 --seed 1               # prints a markdown table
    python benchmarks/bench_reliability.py --runs 3 --sessions 200 --share-sessions 200 --items 1000
    python benchmarks/bench_reliability.py --runs 20 --workdir /tmp/rel     # keep the work dir

For each of `smriti ingest`, `smriti share` and `smriti sync`: one clean, uninterrupted run on its
input (timed), then `--runs` runs, each on a fresh copy of the same input: start the command,
SIGKILL it after a delay drawn from a seeded RNG within the clean run's duration (after the
process start-up), sometimes (30%) kill the first re-run too, then re-run it to completion, and
compare with the clean run:

* integrity failures: `pragma integrity_check` is not "ok";
* half sessions: a session whose message_count is not the number of its message rows;
* duplicates: rows (sessions, digests, messages, knowledge), index documents and knowledge files
  present more often than after the clean run;
* data lost: rows, index documents and knowledge files missing against the clean run, knowledge
  files whose bytes differ (the `shared:` time aside: it is the clock's), outbox rows left, and a
  knowledge file that does not parse, repeats an item id or disagrees with its shares row;
* errors seen by user: the re-run exits non-zero or prints a traceback / "database is locked" /
  an error;
* share bookkeeping gaps (share only), after the re-run: a knowledge file with no shares row, or
  a stray `.smriti-*.tmp` left in `.smriti/knowledge/` (what a kill inside share's two windows
  leaves; the next share run mends both).

Then `--rounds` concurrent rounds on one data dir: an ingest, syncs of a knowledge repo one after
another, and recall calls in a loop, all at once, compared with the same work done sequentially
(the data dir is created first). And `--first-use` rounds of six processes started at once on a
data dir that does not exist yet; the ones that fail are re-run, as a user would.

Exits 1 when anything was lost or broken (integrity, half sessions, duplicates, data lost, user
errors, share bookkeeping gaps).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import apsw

sys.path.insert(0, str(Path(__file__).parent))
from corpus import PROJECTS, generate  # noqa: E402

from smriti.team import knowledge

SMRITI = shutil.which("smriti", path=str(Path(sys.executable).parent))
CMD = [SMRITI] if SMRITI else [sys.executable, "-m", "smriti"]
TEAM_REMOTE = "https://example.com/team/repo.git"  # the remote names the project: every run's repo is the same one
TEAM_KEY = "example.com/team/repo"
TEAM_CWD = "/home/dev/teamproj"
SHARED_LINE = re.compile(rb"^shared: .*$", re.MULTILINE)
USER_ERRORS = re.compile(r"Traceback|database is locked|Error|error:", re.IGNORECASE)
SECOND_KILL = 0.3  # share of runs whose first re-run is killed too (a crash during recovery)


# --- set-up -------------------------------------------------------------------------------------------


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def team_repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True, capture_output=True)
    for args in (
        ["config", "user.name", "bench"],
        ["config", "user.email", "bench@example.com"],
        ["config", "gc.auto", "0"],
        ["remote", "add", "origin", TEAM_REMOTE],
    ):
        git(path, *args)
    (path / ".smriti").mkdir(exist_ok=True)  # set up for sharing, as `smriti init` leaves it
    return path


def one_project_corpus(out: Path, sessions: int, seed: int) -> Path:
    """Generated sessions, every one run in TEAM_CWD: one `share --project teamproj` shares them all."""
    generate(out, sessions, seed)
    for f in out.rglob("*.jsonl"):
        text = f.read_text()
        for p in PROJECTS:
            text = text.replace(f"/home/dev/{p}", TEAM_CWD)
        f.write_text(text)
    return out


def knowledge_repo(path: Path, items: int, seed: int) -> Path:
    rng = random.Random(seed)
    team_repo(path)
    cats = ["bug/fix", "topic/learning", "architecture/decision", "project/config", "code/pattern"]
    for i in range(items):
        item = knowledge.new_item(
            id=f"{rng.getrandbits(64):016x}",
            title=f"Item {i} about topic{i % 13} and zebra{i % 11}",
            category=cats[i % len(cats)],
            body=f"# Item {i}\n\nBody {i} mentions zebra{i % 11} and needle{i}.\n",
            created=f"2026-10-{1 + i % 28:02d}T00:00:00Z",
            author=f"dev{i % 5}",
        )
        target = path / ".smriti" / knowledge.item_path(item)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(knowledge.render_bytes(item))
    git(path, "add", "-A")
    git(path, "commit", "-qm", "knowledge")
    return path


def env_for(data: Path) -> dict[str, str]:
    return {**os.environ, "SMRITI_HOME": str(data)}


def run(argv: list[str], data: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*CMD, *argv], capture_output=True, text=True, env=env_for(data), timeout=1800)


def user_error(proc: subprocess.CompletedProcess | tuple[int, str]) -> bool:
    code, err = (proc.returncode, proc.stderr) if isinstance(proc, subprocess.CompletedProcess) else proc
    return code != 0 or bool(USER_ERRORS.search(err or ""))


def kill_at(argv: list[str], data: Path, delay: float) -> bool:
    """Start `smriti <argv>`, SIGKILL it after `delay` s; True when it was still running then."""
    proc = subprocess.Popen([*CMD, *argv], env=env_for(data), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    landed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return landed


# --- what is compared ---------------------------------------------------------------------------------


def store_facts(data: Path) -> dict:
    conn = apsw.Connection(str(data / "smriti.db"))
    try:
        q = lambda sql: conn.execute(sql).fetchall()  # noqa: E731
        return {
            "integrity": q("pragma integrity_check")[0][0],
            "half_sessions": len(
                q(
                    "select id from sessions s where message_count != "
                    "(select count(*) from messages m where m.session = s.id)"
                )
            ),
            "outbox": q("select count(*) from outbox")[0][0],
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


def index_docs(data: Path) -> int:
    r = run(["status", "--json"], data)
    return json.loads(r.stdout)["index_docs"] if r.returncode == 0 else -1


def repo_files(repo: Path | None) -> dict[str, bytes]:
    if repo is None:
        return {}
    base = repo / ".smriti" / "knowledge"
    return {
        p.relative_to(repo).as_posix(): SHARED_LINE.sub(b'shared: "<time>"', p.read_bytes())
        for p in sorted(base.rglob("*.md"))
        if p.is_file()
    }


@dataclass
class Snapshot:
    facts: dict
    docs: int
    files: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def take(cls, data: Path, repo: Path | None = None) -> Snapshot:
        return cls(store_facts(data), index_docs(data), repo_files(repo))


def share_gaps(repo: Path, data: Path) -> tuple[int, int, int]:
    """(knowledge files without a shares row, stray non-.md files, files that do not parse or repeat an id)."""
    conn = apsw.Connection(str(data / "smriti.db"))
    try:
        rows = {
            r[0]: r[1:] for r in conn.execute("select item_id, path, file_sha from shares where repo = ?", (TEAM_KEY,))
        }
    finally:
        conn.close()
    unrecorded = stray = broken = 0
    seen: set[str] = set()
    for path in sorted((repo / ".smriti" / "knowledge").rglob("*")):
        if not path.is_file():
            continue
        if path.suffix != ".md":
            stray += 1
            continue
        data_ = path.read_bytes()
        try:
            item = knowledge.parse(data_)
        except knowledge.KnowledgeError:
            broken += 1
            continue
        broken += item.id in seen
        seen.add(item.id)
        row = rows.get(item.id)
        if row is None:
            unrecorded += 1
        elif row != (path.relative_to(repo).as_posix(), hashlib.sha256(data_).hexdigest()):
            broken += 1
    return unrecorded, stray, broken


@dataclass
class Tally:
    runs: int = 0
    faults: int = 0
    integrity: int = 0
    half: int = 0
    duplicates: int = 0
    lost: int = 0
    user_errors: int = 0
    unrecorded: int = 0
    stray: int = 0
    contended: int = 0  # concurrent rounds: reader/sync calls that ran while ingest was writing
    failed_dirs: list[str] = field(default_factory=list)

    def compare(self, got: Snapshot, want: Snapshot, *, with_shares: bool) -> bool:
        """Add `got`'s differences from the clean `want`; True when there were none."""
        before = (self.integrity, self.half, self.duplicates, self.lost)
        self.integrity += got.facts["integrity"] != "ok"
        self.half += got.facts["half_sessions"]
        for table, rows in want.facts["rows"].items():
            if table == "shares" and not with_shares:
                continue
            self.lost += sum((rows - got.facts["rows"][table]).values())
            self.duplicates += sum((got.facts["rows"][table] - rows).values())
        self.lost += max(0, want.docs - got.docs) + got.facts["outbox"]
        self.duplicates += max(0, got.docs - want.docs)
        self.lost += sum(1 for k, v in want.files.items() if got.files.get(k) != v)
        self.duplicates += sum(1 for k in got.files if k not in want.files)
        return before == (self.integrity, self.half, self.duplicates, self.lost)


# --- kill -9 at random points -------------------------------------------------------------------------


@dataclass
class Operation:
    name: str
    argv: list[str]
    template: Path | None = None  # a data dir to start each run from (copied); None: an empty one
    with_repo: bool = False  # share: a fresh team repo per run


def fresh(op: Operation, run_dir: Path) -> tuple[Path, list[str], Path | None]:
    data = run_dir / "data"
    if op.template is not None:
        shutil.copytree(op.template, data)
    if op.with_repo:
        repo = team_repo(run_dir / "repo")
        return data, [*op.argv, "--repo", str(repo)], repo
    return data, op.argv, None


def kill_runs(op: Operation, work: Path, runs: int, rng: random.Random, startup: float) -> Tally:
    tally = Tally()
    data, argv, repo = fresh(op, work / f"{op.name}-clean")
    start = time.perf_counter()
    clean = run(argv, data)
    runtime = time.perf_counter() - start
    if user_error(clean):
        raise SystemExit(f"the clean {op.name} failed:\n{clean.stderr}")
    want = Snapshot.take(data, repo)
    print(f"  {op.name}: clean run {runtime:.2f} s; kills drawn from [{startup:.2f}, {runtime:.2f}] s", file=sys.stderr)
    for i in range(runs):
        run_dir = work / f"{op.name}-{i}"
        data, argv, repo = fresh(op, run_dir)
        tally.runs += 1
        tally.faults += kill_at(argv, data, rng.uniform(startup, runtime))
        if rng.random() < SECOND_KILL:  # and once more, during the recovery
            tally.faults += kill_at(argv, data, rng.uniform(startup, runtime))
        again = run(argv, data)
        errors = user_error(again)
        tally.user_errors += errors
        ok = tally.compare(Snapshot.take(data, repo), want, with_shares=False) and not errors
        if repo is not None:
            unrecorded, stray, broken = share_gaps(repo, data)
            tally.unrecorded += unrecorded
            tally.stray += stray
            tally.lost += broken  # a file that does not parse, repeats an id or disagrees with its record
            ok = ok and not (broken or unrecorded or stray)
        if ok:
            shutil.rmtree(run_dir)
        else:
            tally.failed_dirs.append(str(run_dir))
        print(f"  {op.name} run {i + 1}/{runs}: faults {tally.faults}, {'ok' if ok else 'DIFFERENT'}", file=sys.stderr)
    return tally


# --- concurrency --------------------------------------------------------------------------------------


def concurrent_rounds(work: Path, corpus: Path, repo: Path, rounds: int) -> Tally:
    tally = Tally()
    ingest = ["ingest", "--agent", "claude-code", "--path", str(corpus), "-q"]
    sync = ["sync", "--repo", str(repo), "--no-fetch", "-q"]  # the remote is a name only
    sequential = work / "concurrent-clean" / "data"
    for argv in (ingest, sync):
        if user_error(run(argv, sequential)):
            raise SystemExit("the sequential ingest + sync failed")
    want = Snapshot.take(sequential)
    queries = ["zebra3 topic4", "connection pool exhausted", "needle17 retry", "kafka consumer lag"]
    for r in range(rounds):
        data = work / f"concurrent-{r}" / "data"

        def start(argv: list[str], data: Path = data) -> subprocess.Popen:
            return subprocess.Popen(
                [*CMD, *argv], env=env_for(data), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
            )

        if user_error(run(["status", "--json"], data)):  # the data dir exists: first_use() races to create it
            raise SystemExit("status on an empty data dir failed")
        procs = [start(ingest), start(sync)]
        outcomes: list[tuple[int, str]] = []
        calls = 0
        while procs[0].poll() is None:
            res = run(["recall", queries[calls % len(queries)], "--json"], data)
            outcomes.append((res.returncode, res.stderr))
            calls += 1
            tally.contended += procs[0].poll() is None
            if procs[-1].poll() is not None:
                procs.append(start(sync))
                tally.contended += 1
        for p in procs:
            _, err = p.communicate()
            outcomes.append((p.returncode, err))
        errors = sum(user_error(o) for o in outcomes)
        tally.runs += 1
        tally.user_errors += errors
        ok = tally.compare(Snapshot.take(data), want, with_shares=True) and not errors
        if ok:
            shutil.rmtree(data.parent)
        else:
            tally.failed_dirs.append(str(data.parent))
        print(
            f"  concurrent round {r + 1}/{rounds}: {calls} recalls, {len(procs) - 1} syncs, "
            f"{'ok' if ok else 'DIFFERENT'}",
            file=sys.stderr,
        )
    return tally


def first_use(work: Path, corpus: Path, repo: Path, rounds: int) -> Tally:
    """Several processes starting at once on a data dir that does not exist yet (the first smriti
    processes on a machine: agent hooks, an ingest, a recall). The ones that fail are then re-run,
    as a user would, and the store is compared with a sequential run."""
    tally = Tally()
    ingest = ["ingest", "--agent", "claude-code", "--path", str(corpus), "-q"]
    sync = ["sync", "--repo", str(repo), "--no-fetch", "-q"]  # the remote is a name only
    readers = [
        ["recall", "zebra3 topic4", "--json"],
        ["recall", "connection pool exhausted", "--json"],
        ["search", "needle7", "--json"],
        ["status", "--json"],
    ]
    sequential = work / "first-use-clean" / "data"
    for argv in (ingest, sync):
        if user_error(run(argv, sequential)):
            raise SystemExit("the sequential ingest + sync failed")
    want = Snapshot.take(sequential)
    for r in range(rounds):
        data = work / f"first-use-{r}" / "data"
        procs = [
            (
                argv,
                subprocess.Popen(
                    [*CMD, *argv], env=env_for(data), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
                ),
            )
            for argv in (ingest, sync, *readers)
        ]
        failed = []
        for argv, p in procs:
            _, err = p.communicate()
            if user_error((p.returncode, err)):
                failed.append(argv)
                last = (err.strip().splitlines() or [f"exit {p.returncode}"])[-1]
                print(f"  first use {r + 1}: `smriti {argv[0]}` failed: {last}", file=sys.stderr)
        tally.runs += 1
        tally.user_errors += len(failed)
        for argv in failed:  # the user tries again
            again = run(argv, data)
            tally.user_errors += user_error(again)
        ok = tally.compare(Snapshot.take(data), want, with_shares=True)
        if ok:
            shutil.rmtree(data.parent)
        else:
            tally.failed_dirs.append(str(data.parent))
    print(f"  first use: {rounds} rounds, {tally.user_errors} failed processes", file=sys.stderr)
    return tally


# --- main ---------------------------------------------------------------------------------------------


def startup_time(work: Path) -> float:
    """How long a command takes to start (status on an empty store, best of 3): kills before this
    would only ever hit the interpreter's start."""
    data = work / "startup"
    times = []
    for _ in range(3):
        start = time.perf_counter()
        run(["status", "--json"], data)
        times.append(time.perf_counter() - start)
    shutil.rmtree(data, ignore_errors=True)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=20, help="kill -9 runs per operation")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir", type=Path, help="work here and keep it (default: a temp dir, removed)")
    ap.add_argument("--sessions", type=int, default=600, help="sessions the ingest runs read")
    ap.add_argument("--share-sessions", type=int, default=800, help="sessions the share runs share")
    ap.add_argument("--items", type=int, default=3000, help="knowledge files the sync runs import")
    ap.add_argument("--rounds", type=int, default=3, help="concurrent ingest + recall + sync rounds")
    ap.add_argument("--first-use", type=int, default=20, help="rounds of processes starting at once on a new data dir")
    ap.add_argument("--ops", default="ingest,share,sync,concurrent,first-use", help="which rows to run")
    args = ap.parse_args()
    ops = args.ops.split(",")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="smriti-bench-rel-"))
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    began = time.perf_counter()
    rows: list[tuple[str, Tally]] = []
    try:
        inputs = work / f"inputs-{args.seed}"
        corpus = inputs / "corpus"
        if not corpus.is_dir():
            generate(corpus, args.sessions, args.seed)
        team_corpus = inputs / "team-corpus"
        if not team_corpus.is_dir() and "share" in ops:
            one_project_corpus(team_corpus, args.share_sessions, args.seed + 1)
        repo = inputs / "knowledge-repo"
        if not repo.is_dir() and ({"sync", "concurrent"} & set(ops)):
            knowledge_repo(repo, args.items, args.seed + 2)
        small_corpus, small_repo = inputs / "small-corpus", inputs / "small-knowledge-repo"
        if "first-use" in ops and not small_repo.is_dir():
            generate(small_corpus, 30, args.seed + 3)
            knowledge_repo(small_repo, 100, args.seed + 4)
        startup = startup_time(work)
        if "ingest" in ops:
            op = Operation("ingest", ["ingest", "--agent", "claude-code", "--path", str(corpus), "-q"])
            rows.append((f"`ingest` ({args.sessions} sessions)", kill_runs(op, work, args.runs, rng, startup)))
        if "share" in ops:
            template = inputs / "share-template"
            if not template.is_dir():
                r = run(["ingest", "--agent", "claude-code", "--path", str(team_corpus), "-q"], template)
                if user_error(r):
                    raise SystemExit(r.stderr)
            op = Operation("share", ["share", "--project", "teamproj", "--json"], template=template, with_repo=True)
            rows.append((f"`share` ({args.share_sessions} sessions)", kill_runs(op, work, args.runs, rng, startup)))
        if "sync" in ops:
            op = Operation("sync", ["sync", "--repo", str(repo), "--no-fetch", "-q"])
            rows.append((f"`sync` ({args.items} files)", kill_runs(op, work, args.runs, rng, startup)))
        if "concurrent" in ops:
            rows.append(
                (
                    f"concurrent `ingest` + `recall` loop + `sync` loop ({args.sessions} sessions, {args.items} files)",
                    concurrent_rounds(work, corpus, repo, args.rounds),
                )
            )
        if "first-use" in ops:
            rows.append(
                (
                    "first use: `ingest`, `sync`, 2 `recall`, `search`, `status` started at once on a new data dir "
                    "(30 sessions, 100 files)",
                    first_use(work, small_corpus, small_repo, args.first_use),
                )
            )
    finally:
        if args.workdir is None and not any(t.failed_dirs for _, t in rows):
            shutil.rmtree(work, ignore_errors=True)
    elapsed = time.perf_counter() - began

    print(
        f"# Reliability — {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, seed {args.seed}, {elapsed / 60:.1f} min\n"
    )
    print(
        "| operation | runs | faults injected | integrity failures | half sessions | duplicates | data lost "
        "| errors seen by user | share bookkeeping gaps |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    bad = False
    for name, t in rows:
        faults = (
            f"— ({t.contended} overlapping calls)"
            if name.startswith("concurrent")
            else "—"
            if name.startswith("first use")
            else str(t.faults)
        )
        gaps = f"{t.unrecorded} unrecorded, {t.stray} stray .tmp" if name.startswith("`share`") else "—"
        print(
            f"| {name} | {t.runs} | {faults} | {t.integrity} | {t.half} | {t.duplicates} | {t.lost} "
            f"| {t.user_errors} | {gaps} |"
        )
        bad |= bool(t.integrity or t.half or t.duplicates or t.lost or t.user_errors or t.unrecorded or t.stray)
        for d in t.failed_dirs:
            print(f"\nkept for inspection: {d}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
