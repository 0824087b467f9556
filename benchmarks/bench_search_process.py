"""`smriti search` as a whole process, this checkout beside an older commit and `python -c pass`,
interleaved on one data dir (the machine may be shared: compare within one run).

    python benchmarks/bench_search_process.py                  # 1,000 sessions, 30 rounds, vs 3137854
    python benchmarks/bench_search_process.py --sessions 200 --rounds 10

Each round runs, in turn: `python -c pass`; the search with this checkout; the search with the
older commit (checked out in a temporary git worktree); each with and without `--agent`. Also the
in-process `search()` of both trees on the same index with `--kind session` (its tier filter).
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
# The console script's work, minus pip's launcher (the same for both trees): the tree at argv[1].
SEARCH = (
    "import sys; sys.path.insert(0, sys.argv.pop(1)); from smriti.console import main; sys.argv[0] = 'smriti'; main()"
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
times = []
for i in range(200):
    q = f"{words[i % 10]} {words[(i * 3 + 1) % 10]}"
    t = time.perf_counter()
    search(store, index, q, limit=10, kind="session")
    times.append((time.perf_counter() - t) * 1000)
print(statistics.median(times))
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
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="smriti-bench-search-"))
    old = old_checkout(args.old, work)
    try:
        corpus, data = work / "corpus", work / "data"
        stats = generate(corpus, args.sessions, 1)
        subprocess.run([sys.executable, "-c", SMRITI_INGEST, str(REPO), str(corpus), str(data)], check=True)
        env = {**os.environ, "SMRITI_HOME": str(data)}
        py = sys.executable
        runs = {
            "python -c pass": [py, "-c", "pass"],
            "search, this checkout": [py, "-c", SEARCH, str(REPO), "search", "pool timeout"],
            f"search, {args.old}": [py, "-c", SEARCH, str(old), "search", "pool timeout"],
            "search --agent, this checkout": [py, "-c", SEARCH, str(REPO), "search", "pool timeout", "-a", "codex"],
            f"search --agent, {args.old}": [py, "-c", SEARCH, str(old), "search", "pool timeout", "-a", "codex"],
        }
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, cmd in runs.items():
                times[name].append(wall(cmd, env))
        in_process = {}
        for _ in range(2):
            for name, root in (("this checkout", REPO), (args.old, old)):
                out = subprocess.run([py, "-c", IN_PROCESS, str(root), str(data)], capture_output=True, text=True)
                in_process.setdefault(name, []).append(float(out.stdout.strip()))
        base = statistics.median(times["python -c pass"])
        print(
            f"# smriti search as a process — {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
        )
        print(f"{args.sessions} sessions ({stats['lines']} messages); {args.rounds} interleaved rounds; p50\n")
        print("| process | p50 ms | x python -c pass |")
        print("|---|---|---|")
        for name, ts in times.items():
            p50 = statistics.median(ts)
            print(f"| {name} | {p50:.1f} | {p50 / base:.2f}x |")
        print("\n| in-process search(kind=session), 200 queries | p50 ms |")
        print("|---|---|")
        for name, ts in in_process.items():
            print(f"| {name} | {min(ts):.2f} |")
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(old)], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
