"""Ingest speed side by side: this checkout, an older commit, a plain SQLite FTS5 ingest and a bare
Tantivy ingest of the same files, in interleaved rounds (the machine may be shared: compare the
ratios within one run, not absolute numbers across runs), and whether the stores are equal.

    python benchmarks/bench_ingest.py                          # 2,000 sessions, 3 rounds, vs 3137854
    python benchmarks/bench_ingest.py --sessions 500 --rounds 1 --old none
    python benchmarks/bench_ingest.py --sessions 5000 --codex 0.5      # half of them Codex rollouts

Each ingest runs as its own process (`smriti ingest` into an empty data dir, as a new user's first
run), with its bytecode compiled as an installed smriti has it (an untimed warm-up ingest per
checkout writes it under the run's own PYTHONPYCACHEPREFIX). The older commit is checked out in a
temporary git worktree and run with this venv's Python. After the rounds, the canonical dumps
(benchmarks/snapshot.py) of both data dirs are compared: "equal" means every stored row (but write
times) and every observable index document.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import generate  # noqa: E402
from snapshot import digest  # noqa: E402

REPO = Path(__file__).resolve().parent.parent

# Runs one ingest with the smriti found at argv[1] (a source checkout), prints its wall time.
SMRITI_INGEST = """
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from smriti.adapters import load_registry
from smriti.config import UserConfig
from smriti.index import Index
from smriti.ingest import ingest
from smriti.store import Store
import os
def cpu():  # this process's CPU time and that of its children (ingest's worker process), once waited for
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
t0, c0 = time.perf_counter(), cpu()
data = Path(sys.argv[3])
store = Store(data / "smriti.db")
index = Index(data / "index")
if sys.argv[4:] == ["built"]:  # an index some earlier command built while the store was empty
    index.rebuild(store)
    t0, c0 = time.perf_counter(), cpu()
corpus = Path(sys.argv[2])
if (corpus / ".codex").is_dir():  # Claude Code and Codex (corpus.py --codex): each part told by its detector
    result = ingest(store, index, load_registry(), UserConfig(), [], [corpus / "claude", corpus / ".codex"])
else:
    result = ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [corpus])
assert not result.errors, result.errors[:3]
store.close()
print(cpu() - c0)  # CPU time (a worker process's included): less swayed than wall time by other work
print(time.perf_counter() - t0)
"""

# The baselines read the same files line by line with the stdlib decoder and keep the message text
# (of a Codex rollout: its response items' messages, tool calls and outputs).
BASELINE_COMMON = """
import json, sys, time
from pathlib import Path
def codex_texts(path):
    session = path.stem
    for line in path.read_bytes().splitlines():
        rec = json.loads(line)
        item = rec.get("payload") or {}
        if rec.get("type") != "response_item":
            continue
        if item.get("type") == "message":
            for part in item["content"]:
                yield session, part.get("text") or ""
        elif item.get("type") == "function_call":
            yield session, item.get("arguments") or ""
        elif item.get("type") == "function_call_output":
            yield session, item.get("output") or ""
def texts(corpus):
    for path in sorted(Path(corpus).rglob("*.jsonl")):
        if path.name.startswith("rollout-"):
            yield from codex_texts(path)
            continue
        for line in path.read_bytes().splitlines():
            rec = json.loads(line)
            if rec.get("type") not in ("user", "assistant"):
                continue
            content = rec["message"]["content"]
            if isinstance(content, str):
                yield rec["sessionId"], content
                continue
            for part in content:
                text = part.get("text") or part.get("thinking") or part.get("content") or json.dumps(part.get("input"))
                yield rec["sessionId"], text if isinstance(text, str) else json.dumps(text)
t0 = time.perf_counter()
"""

FTS5_INGEST = (
    BASELINE_COMMON
    + """
import apsw
conn = apsw.Connection(sys.argv[2] + "/fts.db")
conn.pragma("journal_mode", "wal")
with conn:
    conn.execute("create virtual table m using fts5(text, session unindexed, tokenize='porter unicode61')")
    conn.executemany("insert into m(session, text) values (?, ?)", texts(sys.argv[1]))
conn.close()
print(time.perf_counter() - t0)
"""
)

TANTIVY_INGEST = (
    BASELINE_COMMON
    + """
import tantivy
b = tantivy.SchemaBuilder()
b.add_text_field("text", stored=False, tokenizer_name="en_stem", index_option="freq")
b.add_text_field("session", stored=True, tokenizer_name="raw")
index = tantivy.Index(b.build(), path=sys.argv[2])
writer = index.writer(128_000_000, 1)
for session, text in texts(sys.argv[1]):
    writer.add_document(tantivy.Document(session=session, text=text))
writer.commit()
writer.wait_merging_threads()
print(time.perf_counter() - t0)
"""
)


def bytecode_env(pycache: Path) -> dict[str, str]:
    """The environment of smriti's runs: bytecode written and read under `pycache`, as an installed
    smriti has it (pip compiles on install). This machine sets PYTHONDONTWRITEBYTECODE, under which
    a checkout that was never compiled compiles every module it imports again in every run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def run(
    code: str,
    *args: str,
    cpu: list[float] | None = None,
    env: dict[str, str] | None = None,
    base_env: dict[str, str] | None = None,
) -> float:
    """Wall seconds of one run (its last line); `cpu` gets its CPU seconds when it prints them before."""
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
        env={**(base_env or os.environ), **(env or {})},
    )
    if out.returncode:
        raise SystemExit(f"failed: {out.stderr[-2000:]}")
    lines = out.stdout.strip().splitlines()
    if cpu is not None:
        cpu.append(float(lines[-2]))
    return float(lines[-1])


def old_checkout(commit: str, work: Path) -> Path:
    """`commit` in a temporary worktree, its adapters/ linked where `smriti.adapters` is imported from."""
    where = work / f"old-{commit[:7]}"
    subprocess.run(
        ["git", "-C", str(REPO), "worktree", "add", "--detach", str(where), commit], check=True, capture_output=True
    )
    (where / "smriti" / "adapters").symlink_to(where / "adapters")
    return where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--codex", type=float, default=0.0, help="the fraction of sessions that are Codex rollouts")
    ap.add_argument(
        "--output-lines", default="8,50", help="LO,HI: lines of each tool output (corpus.py; 1,12: ~1 KB a message)"
    )
    ap.add_argument("--old", default="3137854", help="the commit to compare with ('none': skip)")
    ap.add_argument(
        "--built-index",
        action="store_true",
        help="ingest into a data dir whose (empty) index is already built: the outbox path, not a rebuild",
    )
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="smriti-bench-ingest-"))
    old = None if args.old == "none" else old_checkout(args.old, work)
    try:
        corpus = work / "corpus"
        lo, hi = (int(x) for x in args.output_lines.split(","))
        stats = generate(corpus, args.sessions, args.seed, codex=args.codex, output_lines=(lo, hi))
        mb = stats["bytes"] / 1e6
        runners: dict[str, tuple[str, Path | None, dict[str, str]]] = {
            # the worker forced on: left to itself it does not start on a machine with no core to spare
            "smriti (this checkout)": (SMRITI_INGEST, REPO, {"SMRITI_INGEST_WORKER": "1"}),
            # the same code with its worker process turned off (smriti.ingest_worker): what the second core buys
            "smriti (this checkout, one process)": (SMRITI_INGEST, REPO, {"SMRITI_INGEST_WORKER": "0"}),
        }
        if old is not None:
            runners[f"smriti at {args.old}"] = (SMRITI_INGEST, old, {})
        runners["SQLite FTS5 baseline"] = (FTS5_INGEST, None, {})
        runners["bare Tantivy baseline"] = (TANTIVY_INGEST, None, {})
        times: dict[str, list[float]] = {name: [] for name in runners}
        cpu: dict[str, list[float]] = {name: [] for name, (_, root, _) in runners.items() if root is not None}
        # Each checkout ingests a few sessions first, untimed, so that every module its runs import
        # is compiled before the rounds (the baselines import only the standard library and apsw).
        compiled = bytecode_env(work / "pycache")
        warm = work / "warm-corpus"
        generate(warm, 3, args.seed + 1)
        for n, (code, root, env) in enumerate(runners.values()):
            if root is not None:
                (work / f"warm-{n}").mkdir()
                run(code, str(root), str(warm), str(work / f"warm-{n}"), cpu=[], env=env, base_env=compiled)
        loads = [os.getloadavg()[0]]
        for r in range(args.rounds):
            for n, (name, (code, root, env)) in enumerate(runners.items()):
                data = work / f"data-{n}"
                shutil.rmtree(data, ignore_errors=True)
                data.mkdir()
                if root is None:
                    times[name].append(run(code, str(corpus), str(data)))
                else:
                    extra = ["built"] if args.built_index else []
                    times[name].append(
                        run(code, str(root), str(corpus), str(data), *extra, cpu=cpu[name], env=env, base_env=compiled)
                    )
                if r == args.rounds - 1 and root is not None:
                    (work / f"digest-{n}").write_text(digest(data))
            loads.append(os.getloadavg()[0])
        digests = {
            name: (work / f"digest-{n}").read_text() for n, (name, (_, root, _)) in enumerate(runners.items()) if root
        }
        fts = statistics.median(times["SQLite FTS5 baseline"])
        what = f"{1 - args.codex:.0%} Claude Code, {args.codex:.0%} Codex" if args.codex else "Claude Code"
        print(
            f"# ingest side by side — {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, load average {min(loads):.1f}–{max(loads):.1f} "
            f"(1-minute, before and after each round)"
        )
        print(
            f"corpus: {args.sessions} sessions ({what}), {stats['lines']} messages, {mb:.1f} MB "
            f"({stats['bytes'] / stats['lines'] / 1000:.1f} KB a message; tool outputs of {lo}-{hi} lines); "
            f"{args.rounds} interleaved rounds, median\n"
        )
        where = "a data dir with a built, empty index" if args.built_index else "an empty data dir"
        print(f"| ingest into {where} | s | MB/s | speed vs FTS5 |")
        print("|---|---|---|---|")
        for name in runners:
            s = statistics.median(times[name])
            print(f"| {name} | {s:.2f} | {mb / s:.1f} | {fts / s:.2f}x |")
        base = f"smriti at {args.old}" if old is not None else "smriti (this checkout, one process)"
        print("\nCPU time (the worker process's included), median: ", end="")
        print(
            "; ".join(
                f"{name} {statistics.median(c):.2f} s ({statistics.median(c) / statistics.median(cpu[base]):.2f}x)"
                for name, c in cpu.items()
            )
        )
        # Per round against the same round's FTS5: on a VM whose speed moves within minutes, a
        # round's own baseline says more than medians taken over different minutes.
        fts_rounds = times["SQLite FTS5 baseline"]
        for name in runners:
            if "baseline" not in name:
                ratios = ", ".join(f"{f / t:.2f}" for f, t in zip(fts_rounds, times[name], strict=True))
                print(f"speed vs FTS5 per round, {name}: {ratios}")
        print(f"wall per round, this checkout / {base}: ", end="")
        print(", ".join(f"{a / b:.2f}" for a, b in zip(times["smriti (this checkout)"], times[base], strict=True)))
        for name, d in digests.items():
            if name != base:
                same = "yes" if d == digests[base] else "NO"
                print(f"store + index of {name} equal to {base}'s: {same} (sha256 {d[:12]} / {digests[base][:12]})")
        print(f"load averages: {', '.join(f'{x:.1f}' for x in loads)}")
        print(json.dumps({name: [round(t, 2) for t in ts] for name, ts in times.items() if "digest" not in name}))
    finally:
        if old is not None:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(old)], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
