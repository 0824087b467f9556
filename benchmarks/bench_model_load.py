"""How long reading the shipped category model takes: the packed format (`Model.load`, format 2)
beside the same model's JSON form (format 1, what shipped before 2026-12-02) read as it was read
then: gunzip, msgspec's decode, `Model.from_json`'s packing. Interleaved rounds, one process.

    python benchmarks/bench_model_load.py             # 15 rounds
    python benchmarks/bench_model_load.py --rounds 5

Every big ingest reads the model before its worker forks, so this is on the critical path of
every first ingest. Both sides end in an equal model (checked: the same features, classes,
biases and packed rows).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

import msgspec

from smriti.digest import learned


def read_json_form(path: Path) -> learned.Model:
    with gzip.open(path, "rb") as f:
        return learned.Model.from_json(msgspec.json.decode(f.read()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=15)
    args = ap.parse_args()

    shipped = learned.Model.load(learned.MODEL_FILE)
    with tempfile.TemporaryDirectory() as tmp:
        json_path = Path(tmp) / "category_model.json.gz"
        body = json.dumps(shipped.to_json(), separators=(",", ":"), sort_keys=True).encode()
        json_path.write_bytes(gzip.compress(body, compresslevel=9, mtime=0))
        old = read_json_form(json_path)
        assert old.to_json() == shipped.to_json() and old.top.packed == shipped.top.packed

        times: dict[str, list[float]] = {"packed (format 2)": [], "JSON (format 1)": []}
        for _ in range(args.rounds):
            for name, read in (
                ("packed (format 2)", lambda: learned.Model.load(learned.MODEL_FILE)),
                ("JSON (format 1)", lambda: read_json_form(json_path)),
            ):
                t = time.perf_counter()
                read()
                times[name].append(time.perf_counter() - t)
        sizes = {"packed (format 2)": learned.MODEL_FILE.stat().st_size, "JSON (format 1)": json_path.stat().st_size}

    load = os.getloadavg()[0]
    print(
        f"# category model read — {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, load {load:.1f}; {args.rounds} interleaved rounds"
    )
    print(
        f"model: {len(shipped.rows):,} features, {1 + len(shipped.children)} levels, "
        f"{sum(len(lv.classes) for lv in (shipped.top, *shipped.children.values()))} classes in all\n"
    )
    print("| format | file KB | median ms | min ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for name, ts in times.items():
        print(
            f"| {name} | {sizes[name] / 1000:.0f} | {1000 * statistics.median(ts):.1f} | "
            f"{1000 * min(ts):.1f} | {1000 * max(ts):.1f} |"
        )


if __name__ == "__main__":
    main()
