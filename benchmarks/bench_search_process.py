"""`smriti search` as a whole process, this checkout beside an older commit and `python -c pass`,
interleaved on one data dir (the machine may be shared: compare within one run).

    python benchmarks/bench_search_process.py                  # 1,000 sessions, 30 rounds, vs 3137854
    python benchmarks/bench_search_process.py --sessions 200 --rounds 10
    /tmp/wv/bin/python benchmarks/bench_search_process.py --data /work/wt/m1/data --old main --new HEAD
                              # an existing store (e.g. ~1M messages), two commits, a wheel venv's python

Each round runs, in turn: `python -c pass`; the search with the new tree; the search with the
older commit (checked out in a temporary git worktree); each as `--json`, as text and with
`--agent`. Also the in-process `search()` of both trees on the same index, with `--kind session`
(its tier filter) and without. Run it with a venv's python that has smriti's dependencies (a
wheel venv: `python -c pass` then has no editable-install hooks); bytecode is compiled once into
the work dir (PYTHONPYCACHEPREFIX), as an installed package has it, whatever
PYTHONDONTWRITEBYTECODE says.
"""

from __future__ import annotations

import argparse
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
from bench_ingest import SMRITI_INGEST, old_checkout  # noqa: E402
from corpus import generate  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
# The console script's work (bin/smriti), minus the launcher file: the tree at argv[1]. A tree whose
# `main` takes exit_fast gets it, as its installed script passes it.
SEARCH = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); from smriti.console import main; sys.argv[0] = 'smriti'; "
    "main(**({'exit_fast': True} if 'exit_fast' in main.__code__.co_varnames else {}))"
)
IN_PROCESS = """
import sys, time, statistics
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from smriti.index import Index
from smriti.search import search
from smriti.store import Store
data = Path(sys.argv[2])
store, index = Store(data / "smriti.db"), Index(data / "index")
words = "pool timeout handler schema render stream migration cache retry deploy".split()
queries = [f"{words[i % 10]} {words[(i * 3 + 1) % 10]}" for i in range(200)]
if len(sys.argv) > 3:  # recall_hard's queries.json: its questions (three wordings) and unrelated prompts
    import json
    meta = json.loads(Path(sys.argv[3]).read_text())
    queries = [q[k] for q in meta["queries"] for k in ("close", "para", "para2")]
    queries += [u["prompt"] for u in meta["unrelated"]]
for kind in ("session", None):
    for q in words:  # warm: the first searches read the index's files
        search(store, index, q, limit=10, kind=kind)
    times, cpu = [], []
    for q in queries:
        t, c = time.perf_counter(), time.process_time()
        search(store, index, q, limit=10, kind=kind)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    print(statistics.median(times), statistics.median(cpu), end=" ")
"""


def wall(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return (time.perf_counter() - t) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--old", default="3137854")
    ap.add_argument("--new", default=None, help="a commit for the new tree (default: this checkout as it is)")
    ap.add_argument("--data", type=Path, default=None, help="an existing data dir to search (no corpus is built)")
    ap.add_argument("--in-process-rounds", type=int, default=3)
    ap.add_argument("--query", default="pool timeout", help="what the processes search for")
    ap.add_argument(
        "--queries",
        type=Path,
        default=None,
        help="in-process queries from recall_hard's queries.json (its questions and unrelated prompts)",
    )
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="smriti-bench-search-"))
    old = old_checkout(args.old, work)
    new = old_checkout(args.new, work) if args.new else REPO
    new_name = f"new ({args.new})" if args.new else "this checkout"
    try:
        if args.data:
            data = args.data
            from smriti.store import Store

            with Store(data / "smriti.db") as store:
                messages = store.stats()["messages"]
            described = f"{args.data}: {messages:,} messages"
        else:
            corpus, data = work / "corpus", work / "data"
            stats = generate(corpus, args.sessions, 1)
            subprocess.run([sys.executable, "-c", SMRITI_INGEST, str(REPO), str(corpus), str(data)], check=True)
            described = f"{args.sessions} sessions ({stats['lines']} messages)"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(SMRITI_HOME=str(data), PYTHONPYCACHEPREFIX=str(work / "pycache"))
        py = sys.executable
        query = args.query
        runs = {"python -c pass": [py, "-c", "pass"]}
        for label, extra in (("--json", ["--json"]), ("text", []), ("--agent codex --json", ["-a", "codex", "--json"])):
            for name, root in ((new_name, new), (args.old, old)):
                runs[f"search {label}, {name}"] = [py, "-c", SEARCH, str(root), "search", query, *extra]
        for cmd in runs.values():  # compile the bytecode, warm the caches
            for _ in range(2):
                wall(cmd, env)
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, cmd in runs.items():
                times[name].append(wall(cmd, env))
        in_process: dict[str, list[list[float]]] = {}
        for _ in range(args.in_process_rounds):
            for name, root in ((new_name, new), (args.old, old)):
                out = subprocess.run(
                    [py, "-c", IN_PROCESS, str(root), str(data), *([str(args.queries)] if args.queries else [])],
                    capture_output=True,
                    text=True,
                    env=env,
                    check=True,
                )
                in_process.setdefault(name, []).append([float(v) for v in out.stdout.split()])
        print(
            f"# smriti search as a process — {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
        )
        print(f"{described}; query {query!r}; {args.rounds} interleaved rounds; p50\n")
        if args.rounds:
            base = statistics.median(times["python -c pass"])
            print("| process | p50 ms | x python -c pass |")
            print("|---|---|---|")
            for name, ts in times.items():
                p50 = statistics.median(ts)
                print(f"| {name} | {p50:.1f} | {p50 / base:.2f}x |")
        queries = f"the queries of {args.queries}" if args.queries else "200 two-word queries"
        print(f"\n| in-process search(), {queries}, p50 ms per round | kind=session | both kinds |")
        print("|---|---|---|")
        for name, rounds in in_process.items():
            cols = [" / ".join(f"{r[i]:.2f} ({r[i + 1]:.2f} CPU)" for r in rounds) for i in (0, 2)]
            print(f"| {name} | {cols[0]} | {cols[1]} |")
        print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    finally:
        for tree in (old, new):
            if tree != REPO:
                subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
