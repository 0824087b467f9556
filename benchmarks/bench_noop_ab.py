"""No-op re-ingest of N unchanged Claude Code files, in-process `ingest()`, installs interleaved.

    python benchmarks/bench_core.py --sessions 10000 --workdir /tmp/bc      # corpus + store, once
    python benchmarks/bench_noop_ab.py --python main=/tmp/main-venv/bin/python \
        --python new=.venv/bin/python --data /tmp/bc/data --corpus /tmp/bc/corpus --rounds 4 --runs 3

Each round starts one process per install, in an order that alternates from round to round; each
process opens the store and index, runs `ingest(..., ["claude-code"], [corpus])` once (its first
run, reported apart: a CLI run is a first run) and then `--runs` more times, each timed in wall
and CPU time (`time.process_time`). Every run must find every file unchanged (nothing read, no
message added), so the data dir is the same for every run and install. Prints each round's load
average, each install's medians and the ratio to the first install named: on a busy box only
ratios within one run mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
from pathlib import Path

CHILD = r"""
import gc, json, sys, time
from pathlib import Path
from smriti.adapters import load_registry
from smriti.config import UserConfig
from smriti.index import Index
from smriti.ingest import ingest
from smriti.store import Store

data, corpus, runs = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
store, index = Store(data / "smriti.db"), Index(data / "index")
registry, config = load_registry(), UserConfig()
out = []
for _ in range(runs + 1):
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    r = ingest(store, index, registry, config, ["claude-code"], [corpus])
    out.append((time.perf_counter() - t0, time.process_time() - c0))
    if r.files_read or r.messages_added or r.errors or r.files_unchanged != r.files_seen:
        raise SystemExit(f"not a no-op: {r}")
print(json.dumps({"first": out[0], "runs": out[1:], "files": r.files_seen, "sessions": r.sessions_found}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", action="append", required=True, help="NAME=path of an install's python")
    ap.add_argument("--data", type=Path, required=True, help="a data dir that has ingested --corpus")
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--runs", type=int, default=3, help="timed runs per process after its first")
    args = ap.parse_args()
    pythons = {
        name: os.path.abspath(py) for name, py in (p.split("=", 1) for p in args.python)
    }  # not resolved: a venv's python is a link
    firsts: dict[str, list[tuple[float, float]]] = {name: [] for name in pythons}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in pythons}
    files = set()
    for r in range(args.rounds):
        load = os.getloadavg()[0]
        order = list(pythons.items())
        if r % 2:
            order.reverse()
        line = []
        for name, python in order:
            proc = subprocess.run(  # not from a checkout's folder: its smriti/ would be imported
                [python, "-c", CHILD, str(args.data.resolve()), str(args.corpus.resolve()), str(args.runs)],
                capture_output=True,
                text=True,
                cwd=args.data.resolve(),
            )
            if proc.returncode != 0:
                raise SystemExit(f"{name}: {proc.stderr or proc.stdout}")
            got = json.loads(proc.stdout)
            files.add((got["files"], got["sessions"]))
            firsts[name].append(tuple(got["first"]))
            times[name] += [tuple(t) for t in got["runs"]]
            line.append(f"{name} " + " ".join(f"{w:.3f}" for w, _ in got["runs"]))
        print(f"round {r + 1} (load {load:.2f}): " + ", ".join(line), flush=True)
    assert len(files) == 1, files  # every install saw the same files and sessions
    first = next(iter(pythons))
    base_wall = statistics.median(w for w, _ in times[first])
    base_cpu = statistics.median(c for _, c in times[first])
    print(f"\n{files.pop()[0]:,} files, load average now {os.getloadavg()[0]:.2f}")
    print(f"| install | runs | wall median s | × {first} | CPU median s | × {first} | first run wall / CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, runs in times.items():
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        fw, fc = statistics.median(w for w, _ in firsts[name]), statistics.median(c for _, c in firsts[name])
        print(
            f"| {name} | {len(runs)} | {wall:.3f} | {wall / base_wall:.2f}× | {cpu:.3f} | {cpu / base_cpu:.2f}× "
            f"| {fw:.3f} / {fc:.3f} |"
        )


if __name__ == "__main__":
    main()
