"""What a busy second core costs the first: the same one-process ingest, alone and beside a pure
Python busy loop on the other core, in interleaved rounds.

    python benchmarks/bench_contention.py                   # 1,000 sessions, 4 rounds
    python benchmarks/bench_contention.py --sessions 300 --rounds 2

Ingest's worker process (smriti.ingest_worker) puts the second core to work, and a run with it
takes more CPU in all than one process does. This shows how much of that premium is the machine's
own: on a VM whose two cores share a physical core or a power budget, the same single-threaded
work costs more CPU time while the other core is busy, whatever it runs. The ingest's own CPU
time (the loop's not counted) is compared; the worker is off, so nothing of smriti runs beside it
but the index build's own indexing threads at the end. Rounds vary by a tenth or more on a VM:
read the median of many.
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
from bench_ingest import REPO, SMRITI_INGEST, bytecode_env, run  # noqa: E402
from corpus import generate  # noqa: E402

BUSY_LOOP = "while True: pass"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="smriti-bench-contention-"))
    try:
        corpus = work / "corpus"
        stats = generate(corpus, args.sessions, args.seed)
        env = bytecode_env(work / "pycache")
        one_process = {"SMRITI_INGEST_WORKER": "0"}
        (work / "warm").mkdir()
        run(SMRITI_INGEST, str(REPO), str(corpus), str(work / "warm"), cpu=[], env=one_process, base_env=env)
        cpu: dict[str, list[float]] = {"alone": [], "beside a busy loop": []}
        wall: dict[str, list[float]] = {name: [] for name in cpu}
        for _ in range(args.rounds):
            for name in cpu:
                loop = subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) if name != "alone" else None
                time.sleep(0.3)  # the loop running before the ingest starts
                data = work / "data"
                shutil.rmtree(data, ignore_errors=True)
                data.mkdir()
                try:
                    seconds = run(
                        SMRITI_INGEST, str(REPO), str(corpus), str(data), cpu=cpu[name], env=one_process, base_env=env
                    )
                    wall[name].append(seconds)
                finally:
                    if loop is not None:
                        loop.kill()
                        loop.wait()
        print(
            f"# a busy second core — {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}"
        )
        print(
            f"one-process ingest of {args.sessions} sessions ({stats['bytes'] / 1e6:.1f} MB) into an empty data dir, "
            f"{args.rounds} interleaved rounds, median\n"
        )
        print("| the other core | ingest CPU s | wall s | CPU vs alone |")
        print("|---|---|---|---|")
        alone = statistics.median(cpu["alone"])
        for name in cpu:
            c = statistics.median(cpu[name])
            print(f"| {name} | {c:.2f} | {statistics.median(wall[name]):.2f} | {c / alone:.2f}x |")
        for name in cpu:
            print(f"CPU per round, {name}: {', '.join(f'{c:.2f}' for c in cpu[name])}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
