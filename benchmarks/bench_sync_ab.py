"""Full `smriti sync` of N real-sized items into an empty data dir, two installs interleaved.

    python benchmarks/bench_sync_ab.py --python A=/tmp/wv_main/bin/python --python B=/tmp/wv/bin/python \
        --items 10000 --rounds 4

One repo of N knowledge files is written (as bench_share_sync.py writes them, `--item-turns 10`:
real-sized) and committed, then copied and packed with `git gc` (a teammate's clone); each round
runs every install's `smriti sync --repo … --no-fetch --json` on a fresh data dir, on the loose and
on the packed repo, in an order that alternates from round to round. Prints each run's wall time
and CPU time (the process's threads and its git children), and the medians, with the load average
before each round: on a busy box only ratios within one run mean anything, and CPU time is the
steadier column.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_share_sync import git, new_repo, write_items  # noqa: E402


def run_sync(python: str, repo: Path, home: Path) -> tuple[float, float]:
    """Wall time and CPU time (the process, its threads and its git children) of one full sync."""
    data = home / "data"
    shutil.rmtree(data, ignore_errors=True)
    env = {**os.environ, "SMRITI_HOME": str(data), "HOME": str(home)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [python, "-m", "smriti", "sync", "--repo", str(repo), "--no-fetch", "--json"], env=env, capture_output=True
    )
    if proc.returncode != 0:
        raise SystemExit(f"{python}: sync failed: {proc.stderr.decode()}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", action="append", required=True, help="NAME=path of an install's python")
    ap.add_argument("--items", type=int, default=10_000)
    ap.add_argument("--item-turns", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--workdir", type=Path, help="keep the repos here and reuse them on the next run")
    args = ap.parse_args()
    pythons = dict(p.split("=", 1) for p in args.python)
    with tempfile.TemporaryDirectory(prefix="smriti-sync-ab-") as tmp:
        base = args.workdir or Path(tmp)
        loose, packed = base / "loose", base / "packed"
        if not packed.is_dir():
            base.mkdir(parents=True, exist_ok=True)
            new_repo(loose)
            write_items(loose, args.items, random.Random(11), args.item_turns)  # bench_share_sync's seed
            git(loose, "add", "-A")
            git(loose, "commit", "-q", "-m", "knowledge")
            shutil.copytree(loose, packed)
            git(packed, "gc", "-q")
        home = Path(tmp) / "home"
        home.mkdir()
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for python in pythons.values():  # warm-up: page cache, bytecode
            run_sync(python, packed, home)
        for r in range(args.rounds):
            load = os.getloadavg()[0]
            order = list(pythons.items())
            if r % 2:
                order.reverse()
            line = []
            for repo_name, repo in (("loose", loose), ("packed", packed)):
                for name, python in order:
                    wall, cpu = run_sync(python, repo, home)
                    times.setdefault((name, repo_name), []).append((wall, cpu))
                    line.append(f"{name}/{repo_name} {wall:.2f} (cpu {cpu:.2f})")
            print(f"round {r + 1} (load {load:.1f}): " + ", ".join(line), flush=True)
        first = next(iter(pythons))
        print(f"\n| install | repo | wall median s | runs | × {first} | CPU median s | × {first} |")
        print("|---|---|---|---|---|---|---|")
        for (name, repo_name), runs in times.items():
            walls, cpus = [w for w, _ in runs], [c for _, c in runs]
            base = times[(first, repo_name)]
            base_wall, base_cpu = statistics.median(w for w, _ in base), statistics.median(c for _, c in base)
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            listed = " / ".join(f"{w:.2f}" for w in walls)
            ratios = f"{wall / base_wall:.2f}× | {cpu:.2f} | {cpu / base_cpu:.2f}×"
            print(f"| {name} | {repo_name} | {wall:.2f} | {listed} | {ratios} |")


if __name__ == "__main__":
    main()
