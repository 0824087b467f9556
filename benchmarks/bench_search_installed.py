"""`smriti search` as the installed console script, two wheel venvs side by side, interleaved
with `python -c pass` (the machine may be shared: compare within one run).

    python -m venv /tmp/new && /tmp/new/bin/pip install .          # this checkout
    python -m venv /tmp/old && /tmp/old/bin/pip install <older tree>
    SMRITI_HOME=<a data dir you may open> python benchmarks/bench_search_installed.py /tmp/new /tmp/old --rounds 30

Each row runs `<venv>/bin/smriti search …` as a subprocess (the script a user runs, bytecode as
pip compiled it). The search opens the store writable (WAL files, a schema check): point
SMRITI_HOME at a copy, never at a store that must stay untouched.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time

SEARCHES = (
    ("hit --json", ["redis eviction policy", "--json"]),
    ("hit text", ["redis eviction policy"]),
    ("no match", ["zzqxnomatch", "--json"]),
    ("-a claude-code -n 5 --json", ["why does the pool time out", "-a", "claude-code", "-n", "5", "--json"]),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("new", help="the venv of the tree to measure")
    ap.add_argument("old", help="the venv to compare with")
    ap.add_argument("--rounds", type=int, default=30)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = {"python -c pass (new venv)": [f"{args.new}/bin/python", "-c", "pass"]}
    for label, argv in SEARCHES:
        for name, venv in (("new", args.new), ("old", args.old)):
            runs[f"smriti search {label}, {name}"] = [f"{venv}/bin/smriti", "search", *argv]
    for cmd in runs.values():  # warm the OS caches
        for _ in range(2):
            subprocess.run(cmd, env=env, capture_output=True)
    times: dict[str, list[float]] = {name: [] for name in runs}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for name, cmd in runs.items():
            t = time.perf_counter()
            proc = subprocess.run(cmd, env=env, capture_output=True)
            times[name].append((time.perf_counter() - t) * 1000)
            if proc.returncode != 0:
                raise SystemExit(f"{name}: exit {proc.returncode}: {proc.stderr[-300:]!r}")
    base = statistics.median(times["python -c pass (new venv)"])
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')} UTC, {args.rounds} interleaved rounds, "
        f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    print("| process | p50 ms | × `python -c pass` |\n|---|---:|---:|")
    for name, ts in times.items():
        print(f"| {name} | {statistics.median(ts):.1f} | {statistics.median(ts) / base:.2f}× |")


if __name__ == "__main__":
    main()
