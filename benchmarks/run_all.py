"""Run every benchmark with quick settings and keep the tables in benchmarks/results/.

    python benchmarks/run_all.py                  # all of them, one subprocess each
    python benchmarks/run_all.py --only redact    # one (or several: --only redact --only adapters)
    python benchmarks/run_all.py --list           # the names, scripts and arguments

Each benchmark runs as `python <script> <args>` from the repository root; its stdout (the markdown
tables) goes into `benchmarks/results/<date>-<short commit>.md` under a heading, with the machine it
ran on: platform, CPU count and model, memory, Python, and `git rev-parse HEAD`. A script that
fails is reported with its exit code and the end of its stderr, and the run goes on.

The quick settings below make a whole run take minutes, not hours: they compare commits on one
machine. The figures in benchmarks/README.md come from each script's full defaults.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
RESULTS = BENCH / "results"

# name -> (script relative to benchmarks/, quick arguments)
BENCHMARKS: dict[str, tuple[str, list[str]]] = {
    "core": ("bench_core.py", ["--sessions", "300", "--queries", "50"]),
    "adapters": ("bench_adapters.py", ["--seconds", "0.2"]),
    "categorize": ("categorize/run.py", ["--throughput", "500"]),
    "fixture-digests": ("fixture_digests.py", []),
    "redact": ("redact/bench_redact.py", ["--texts", "5", "--runs", "5"]),
    "redact-hostile": ("redact/bench_pathological.py", ["--runs", "1"]),
    "redact-leaks": ("redact/bench_leaks.py", []),
    "recall": ("recall/run.py", ["--distractors", "180"]),
    "recall-hard": ("recall_hard/run.py", ["--distractors", "200"]),
    "longmemeval": ("longmemeval/run.py", ["--limit", "20"]),
    "share-sync": ("bench_share_sync.py", ["--items", "500", "--share-sessions", "200"]),
    "hooks": ("bench_hooks.py", ["--sessions", "300", "--runs", "20"]),
    "memory": ("bench_memory.py", ["--sessions", "200", "--big-turns", "1000"]),
    "ingest": ("bench_ingest.py", ["--sessions", "200", "--rounds", "1"]),
    "search-process": ("bench_search_process.py", ["--sessions", "200", "--rounds", "10"]),
    "launcher": ("bench_launcher.py", ["--rounds", "20"]),
    "reliability": (
        "bench_reliability.py",
        [
            "--runs", "2", "--sessions", "60", "--share-sessions", "60", "--items", "200",
            "--rounds", "1", "--first-use", "2",
        ],
    ),
}  # fmt: skip
# Files under benchmarks/ that are helpers, not benchmarks (corpus generators, shared data).
HELPERS = {"run_all.py", "corpus.py", "fixtures.py", "snapshot.py"}


def git_head() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.stdout.strip() or "unknown"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    try:
        return f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 1024**3:.1f} GiB"
    except (ValueError, OSError, AttributeError):
        return "unknown"


def machine() -> list[tuple[str, str]]:
    return [
        ("platform", platform.platform()),
        ("machine", platform.machine()),
        ("cpus", str(os.cpu_count())),
        ("cpu model", cpu_model()),
        ("memory", memory()),
        ("python", f"{platform.python_implementation()} {platform.python_version()}"),
    ]


def unregistered() -> list[str]:
    """Benchmark-looking scripts this file does not run (so a new one is not silently left out)."""
    known = {script for script, _ in BENCHMARKS.values()}
    found = []
    for path in sorted(BENCH.rglob("*.py")):
        rel = path.relative_to(BENCH).as_posix()
        if rel in known or path.name in HELPERS or "results" in path.parts:
            continue
        if path.name.startswith("bench_") or path.name == "run.py":
            found.append(rel)
    return found


def run_one(name: str, script: str, args: list[str], timeout: float) -> tuple[str, int, float]:
    """(markdown section, exit code, seconds)."""
    path = BENCH / script
    cmd = [sys.executable, str(path), *args]
    shown = " ".join(["python", f"benchmarks/{script}", *args])
    if not path.exists():
        return f"## {name}\n\n`{shown}`: the script is missing.\n", 127, 0.0
    print(f"running {name}: {shown}", file=sys.stderr, flush=True)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        code, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        code = -1
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = f"timed out after {timeout:g} s"
    seconds = time.monotonic() - start
    section = [f"## {name}", "", f"`{shown}` ({seconds:.1f} s, exit {code})", "", out.rstrip()]
    if code != 0:
        tail = "\n".join(err.rstrip().splitlines()[-20:])
        section += ["", "stderr (last lines):", "", "```", tail, "```"]
    return "\n".join(section).rstrip() + "\n", code, seconds


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", action="append", choices=sorted(BENCHMARKS), help="run only this one (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per benchmark")
    ap.add_argument("--out", type=Path, help="write here instead of benchmarks/results/<date>-<commit>.md")
    args = ap.parse_args()

    if args.list:
        for name, (script, quick) in BENCHMARKS.items():
            print(f"{name:16} benchmarks/{script} {' '.join(quick)}")
        for rel in unregistered():
            print(f"{'(not run)':16} benchmarks/{rel}")
        return 0

    head = git_head()
    today = dt.date.today().isoformat()
    out = args.out or RESULTS / f"{today}-{head[:10]}.md"
    chosen = args.only or list(BENCHMARKS)
    lines = [f"# Benchmarks, {today}", "", f"commit `{head}`", "", "| machine | |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in machine()]
    lines.append("")
    failed = []
    for name in chosen:
        script, quick = BENCHMARKS[name]
        section, code, _ = run_one(name, script, quick, args.timeout)
        lines.append(section)
        if code != 0:
            failed.append(name)
    missing = unregistered()
    if missing and not args.only:
        lines.append("Not run (not listed in benchmarks/run_all.py): " + ", ".join(f"`{m}`" for m in missing) + "\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}", file=sys.stderr)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
