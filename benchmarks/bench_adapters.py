"""Per-adapter parse throughput over each agent's sample files (shared real fixtures + own).

    python benchmarks/bench_adapters.py [--seconds 1.0]

Each adapter parses all of its sources repeatedly for at least --seconds; the table gives MB/s of
source bytes and messages/s. Sources are small, so this measures per-file overhead as much as
raw parsing; benchmarks/bench_core.py measures Claude Code ingest at scale.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from fixtures import sources  # noqa: E402

from smriti.adapters import load_registry  # noqa: E402


def size_of(path: Path) -> int:
    if path.is_dir():
        return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    total = path.stat().st_size
    for sidecar in ("-wal", "-shm"):
        extra = Path(f"{path}{sidecar}")
        total += extra.stat().st_size if extra.exists() else 0
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()
    registry = load_registry()
    print(
        f"# Adapter throughput — {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}\n"
    )
    print("| adapter | sources | KB | sessions | messages | MB/s | messages/s |")
    print("|---|---|---|---|---|---|---|")
    for name in registry.names:
        adapter = registry.get(name)
        paths = sources(adapter)
        if not paths:
            continue
        nbytes = sum(size_of(p) for p in paths)
        sessions = messages = 0
        for p in paths:
            result = adapter.parse(p)
            sessions += len(result.sessions)
            messages += sum(len(s.messages) for s in result.sessions)
        rounds, start = 0, time.perf_counter()
        while True:
            for p in paths:
                adapter.parse(p)
            rounds += 1
            elapsed = time.perf_counter() - start
            if elapsed >= args.seconds:
                break
        mbps = nbytes * rounds / elapsed / 1e6
        mps = messages * rounds / elapsed
        print(f"| {name} | {len(paths)} | {nbytes / 1024:.0f} | {sessions} | {messages} | {mbps:.1f} | {mps:,.0f} |")


if __name__ == "__main__":
    main()
