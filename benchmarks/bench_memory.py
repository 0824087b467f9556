"""Peak memory (RSS) of smriti's commands, each a real process, beside `python -c pass`.

    python benchmarks/bench_memory.py                        # 5k sessions + one 100k-line session
    python benchmarks/bench_memory.py --sessions 500 --big-turns 2000   # quick run
    python benchmarks/bench_memory.py --workdir /tmp/bm      # keep (and reuse) the corpus

Each command runs in its own process on the same data dir; its peak resident set comes from the
kernel through GNU time (`%M`), so imports, the store's page cache and Tantivy's buffers all count.
The warm recall server is a long-lived process: its peak (VmHWM) is read from /proc after 50
prompts. The big session is one Claude Code transcript with thousands of turns: an adapter that
held the whole file (not just its messages) would show here.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import WORDS, generate, session_lines  # noqa: E402

SMRITI = shutil.which("smriti", path=str(Path(sys.executable).parent)) or "smriti"


TIME = "/usr/bin/time"  # GNU time: reports its child's peak RSS (%M, KB)


def peak(cmd: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one process.

    Measured by GNU time around the command: a child forked from this (bigger) Python process
    would carry this process's resident pages into its own peak until it execs, so wait4's
    ru_maxrss on it would never read below ~25 MB."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [TIME, "-f", "smriti-peak-kb %M", *cmd], env=env, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    elapsed = time.perf_counter() - t0
    err = proc.stderr.decode(errors="replace")
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} exited {proc.returncode}: {err[-500:]}")
    kb = next(int(line.split()[1]) for line in reversed(err.splitlines()) if line.startswith("smriti-peak-kb "))
    return kb / 1024, elapsed


def big_session(out: Path, turns: int, seed: int) -> tuple[Path, int]:
    rng = random.Random(seed)
    sid, project, lines = session_lines(rng, 0, turns, datetime(2026, 6, 1, tzinfo=UTC))
    path = out / f"-home-dev-{project}" / f"{sid}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        for rec in lines:
            fh.write(json.dumps(rec) + "\n")
    return path, path.stat().st_size


def server_hwm(data: Path) -> float | None:
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            if b"smriti.hooks.server" in b" ".join(cmd) and os.fsencode(str(data)) in cmd:
                for line in Path(f"/proc/{entry}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            continue
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--big-turns", type=int, default=25_000, help="turns of the one big session")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--workdir", type=Path)
    ap.add_argument(
        "--big-only", action="store_true", help="only the one big session's ingest: its peak against its size"
    )
    args = ap.parse_args()
    if not os.access(TIME, os.X_OK):
        raise SystemExit(f"{TIME} (GNU time) is needed to read each process's peak memory")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="smriti-bench-memory-"))
    corpus, big_dir = work / "corpus", work / "big"
    if not corpus.exists() and not args.big_only:
        generate(corpus, args.sessions, args.seed)
    big = next(big_dir.rglob("*.jsonl"), None) if big_dir.exists() else None
    big, big_bytes = (big, big.stat().st_size) if big else big_session(big_dir, args.big_turns, args.seed)
    corpus_bytes = sum(p.stat().st_size for p in corpus.rglob("*.jsonl")) if corpus.exists() else 0

    data, home = work / "data", work / "home"
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(work / "data-big", ignore_errors=True)
    home.mkdir(exist_ok=True)
    base_env = {k: v for k, v in os.environ.items() if k not in ("SMRITI_DISABLE",)}
    env = {**base_env, "SMRITI_HOME": str(data), "HOME": str(home), "SMRITI_HOOK_SERVER_IDLE": "120"}
    rows: list[tuple[str, float, float]] = []

    def measure(label: str, cmd: list[str], e: dict[str, str] = env, stdin: bytes = b"") -> None:
        mb, s = peak(cmd, e, stdin)
        rows.append((label, mb, s))
        print(f"  {label}: {mb:.0f} MB, {s:.1f} s", file=sys.stderr)

    measure("`python -c pass`", [sys.executable, "-c", "pass"])
    if args.big_only:
        big_env = {**env, "SMRITI_HOME": str(work / "data-big")}
        mb, s = peak([SMRITI, "ingest", "--agent", "claude-code", "--path", str(big), "-q"], big_env)
        label = f"one session of {big_bytes / 1e6:.0f} MB ({args.big_turns:,} turns)"
        print(f"| {label} | {mb:.0f} MiB | {mb * 2**20 / big_bytes:.2f}x its size | {s:.1f} s |")
        if args.workdir is None:
            shutil.rmtree(work, ignore_errors=True)
        return
    measure(
        f"`ingest` of {args.sessions:,} sessions ({corpus_bytes / 1e6:.0f} MB) into a new store",
        [SMRITI, "ingest", "--agent", "claude-code", "--path", str(corpus), "-q"],
    )
    big_env = {**env, "SMRITI_HOME": str(work / "data-big")}
    measure(
        f"`ingest` of one session of {big_bytes / 1e6:.0f} MB ({args.big_turns:,} turns)",
        [SMRITI, "ingest", "--agent", "claude-code", "--path", str(big), "-q"],
        big_env,
    )
    measure(
        "`ingest` again, nothing changed", [SMRITI, "ingest", "--agent", "claude-code", "--path", str(corpus), "-q"]
    )
    rng = random.Random(5)
    words = " ".join(rng.choice(WORDS) for _ in range(3))
    measure(f'`search "{words}"`', [SMRITI, "search", words, "--json"])
    measure("`recall` (a prompt's worth of words)", [SMRITI, "recall", f"why does the {words} fail again", "--json"])
    measure("`status`", [SMRITI, "status", "--json"])
    measure("`doctor`", [SMRITI, "doctor", "--json"])
    measure("`index rebuild`", [SMRITI, "index", "rebuild"])
    hook = [SMRITI, "hook", "claude-code", "prompt"]

    def prompt(i: int) -> bytes:
        text = f"why does the {' '.join(rng.choice(WORDS) for _ in range(5))} fail"
        return json.dumps(
            {
                "session_id": f"mem-{i}",
                "cwd": "/home/dev/payments-api",
                "hook_event_name": "UserPromptSubmit",
                "prompt": text,
            }
        ).encode()

    measure("prompt hook, in-process (the first prompt)", hook, {**env, "SMRITI_HOOK_SERVER": "0"}, prompt(0))
    peak(hook, env, prompt(1))  # starts the warm server
    deadline = time.monotonic() + 60
    while server_hwm(data) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)
    hook_mb = []
    for i in range(2, 52):
        hook_mb.append(peak(hook, env, prompt(i))[0])
    rows.append(("prompt hook, warm server: the hook process (max of 50)", max(hook_mb), 0.0))
    hwm = server_hwm(data)
    if hwm is not None:
        rows.append(("warm recall server, peak after 51 prompts", hwm, 0.0))
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from smriti.hooks import server as hookserver; hookserver.stop(sys.argv[1])",
            str(data),
        ],
        env=env,
        check=False,
    )

    with_stats = json.loads(
        subprocess.run([SMRITI, "status", "--json"], env=env, capture_output=True, text=True).stdout
    )
    print(
        f"# Peak memory — {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; store: {with_stats['sessions']:,} sessions, "
        f"{with_stats['messages']:,} messages\n"
    )
    print("| process | peak RSS, MB | wall, s |")
    print("|---|---:|---:|")
    for label, mb, s in rows:
        print(f"| {label} | {mb:.0f} | {s:.1f} |" if s else f"| {label} | {mb:.0f} | |")
    if args.workdir is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
