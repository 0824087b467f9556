"""Redaction time on hostile input: the texts tests/test_redact.py feeds the built-in rules to prove
none of them backtracks catastrophically, and a team pattern that does (cut off by its timeout).

    python benchmarks/redact/bench_pathological.py            # best of 3 runs per text, prints a table
    python benchmarks/redact/bench_pathological.py --runs 10

The tests check that these inputs are redacted correctly; how long they take is tracked here, where
a slow machine cannot turn a timing into a red build.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from smriti.team.redact import Settings, TeamPattern, redact, scan  # noqa: E402

# name -> text; the same shapes as test_no_catastrophic_backtracking_in_builtins.
HOSTILE = {
    "a × 200k": "a" * 200_000,
    "private-key header + 200k base64": "-----BEGIN PRIVATE KEY-----" + "A" * 200_000,
    "RSA header + 100k dashes": "-----BEGIN RSA PRIVATE KEY-----\n" + "-" * 100_000,
    "= × 100k": "=" * 100_000,
    ": × 100k": ":" * 100_000,
    "a= × 50k": "a=" * 50_000,
    "a: × 50k": "a: " * 50_000,
    "@ × 100k": "@" * 100_000,
    "a@b. × 30k": "a@b." * 30_000,
    "/home/ × 30k": "/home/" * 30_000,
    "/home/a × 30k": "/home/a" * 30_000,
    "sk- + 200k": "sk-" + "a" * 200_000,
    "two 100k JWT halves": "eyJ" + "a" * 100_000 + ".eyJ" + "b" * 100_000,
    "quote + 100k backslashes": '"' + "\\" * 100_000,
    "password= + 200k": "password=" + "x" * 200_000,
    "URL with 100k user and password": "://" + "a" * 100_000 + ":" + "b" * 100_000,
    "C:\\Users\\ × 30k": "C:\\Users\\" * 30_000,
    "xoxb- × 40k": "xoxb-" * 40_000,
    "ghp_ × 50k": "ghp_" * 50_000,
    "Bearer × 30k": "Bearer " * 30_000,
    "80-char key = 100k value": "k" * 80 + "=" + "v" * 100_000,
}


def best_ms(fn, *args, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="runs per text (the best is reported)")
    args = ap.parse_args()

    print(f"Python {platform.python_version()}, {platform.machine()}; best of {args.runs} runs\n")
    print("| built-in rules on | KB | redact ms |")
    print("|---|---:|---:|")
    for name, text in HOSTILE.items():
        print(f"| {name} | {len(text) // 1024} | {best_ms(redact, text, runs=args.runs):.1f} |")

    # A team pattern that backtracks for ever: pattern_timeout must stop it (the tests check the error).
    slow = Settings(patterns=(TeamPattern("slow", "slow", r"(a+)+$"),), pattern_timeout=0.1)
    text = "token ghp_" + "x" * 36 + "\n" + "a" * 50_000 + "!"
    nested = Settings(patterns=(TeamPattern("alt", "x", r"(a|aa)+$"),), pattern_timeout=0.05)
    print("\n| catastrophic team pattern | timeout s | ms |")
    print("|---|---:|---:|")
    print(f"| `(a+)+$`, redact | 0.1 | {best_ms(redact, text, slow, runs=args.runs):.0f} |")
    print(f"| `(a+)+$`, scan | 0.1 | {best_ms(scan, text, slow, runs=args.runs):.0f} |")
    print(f"| `(a\\|aa)+$`, redact | 0.05 | {best_ms(redact, 'a' * 40 + '!', nested, runs=args.runs):.0f} |")


if __name__ == "__main__":
    main()
