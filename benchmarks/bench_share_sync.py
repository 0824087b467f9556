"""Share and sync at team scale, through the real console script (`smriti share`, `smriti sync`).

    python benchmarks/bench_share_sync.py                      # 10k items, prints a markdown table
    python benchmarks/bench_share_sync.py --items 2000 --share-sessions 500

Two measurements, each in a fresh temp dir with its own SMRITI_HOME:

* share: N small bug-fix sessions (Claude Code transcripts whose cwd is a temp git repo) are
  ingested (timed, but not the point), then one `smriti share` sweep writes them all as knowledge
  files; then a second sweep that finds every item unchanged (the re-share of an up-to-date repo).
* sync: N knowledge files written directly with smriti.team.knowledge.new_item/render_bytes into a temp
  git repo and committed; a full `smriti sync` into an empty store (parse, verify, import, index),
  then a no-op `smriti sync`. The in-process library call (`smriti.team.sync.sync`, no index) is timed
  too, to split the import from the index update the CLI does after it.

Budgets (DESIGN.md): sync of 10k knowledge files <= 10 s; a no-op sync <= 1 s.
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import paragraph  # noqa: E402

from smriti.team import knowledge

SMRITI = shutil.which("smriti", path=str(Path(sys.executable).parent))
CMD = [SMRITI] if SMRITI else [sys.executable, "-m", "smriti"]
CATEGORIES = [
    "bug/fix",
    "bug/investigation",
    "architecture/decision",
    "project/config",
    "decision/tooling",
    "topic/learning",
    "code/pattern",
    "feature/implementation",
]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True)


def new_repo(path: Path) -> Path:
    git(path.parent, "init", "-q", "-b", "main", str(path))
    git(path, "config", "user.name", "bench")
    git(path, "config", "user.email", "bench@example.com")
    git(path, "config", "gc.auto", "0")
    return path


def smriti(env: dict[str, str], *args: str) -> tuple[float, dict]:
    start = time.perf_counter()
    proc = subprocess.run([*CMD, *args, "--json"], capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"smriti {' '.join(args)} failed:\n{proc.stderr}")
    return elapsed, json.loads(proc.stdout)


def env_for(base: Path) -> dict[str, str]:
    home = base / "home"
    home.mkdir(exist_ok=True)
    return {**os.environ, "SMRITI_HOME": str(base / "data"), "HOME": str(home)}


# --- share --------------------------------------------------------------------------------------------


def write_sessions(folder: Path, cwd: Path, n: int, rng: random.Random) -> int:
    folder.mkdir(parents=True)
    total = 0
    for i in range(n):
        sid = f"bench-{i:06d}"
        lines, parent = [], None
        turns = [
            ("user", f"Fix the bug in src/mod{i % 97}/handler.py: needle{i} fails. " + paragraph(rng, 2)),
            ("assistant", "The root cause was a missing retry; " + paragraph(rng, 3) + " Fixed it and the tests pass."),
            ("user", "Also check the timeout handling. " + paragraph(rng, 1)),
            ("assistant", "Done: the timeout is now configurable. " + paragraph(rng, 3)),
        ]
        for j, (kind, text) in enumerate(turns):
            uuid = f"{sid}-{j}"
            rec = {
                "parentUuid": parent,
                "isSidechain": False,
                "cwd": str(cwd),
                "sessionId": sid,
                "version": "2.1.40",
                "uuid": uuid,
                "timestamp": f"2026-06-{1 + i % 28:02d}T10:{j:02d}:00.000Z",
                "type": kind,
            }
            rec["message"] = (
                {"role": "user", "content": text}
                if kind == "user"
                else {
                    "id": f"msg_{uuid}",
                    "role": "assistant",
                    "model": "claude-x",
                    "content": [{"type": "text", "text": text}],
                }
            )
            lines.append(json.dumps(rec) + "\n")
            parent = uuid
        data = "".join(lines)
        (folder / f"{sid}.jsonl").write_text(data)
        total += len(data)
    return total


def bench_share(n: int, rows: list[tuple[str, str, str]]) -> None:
    with tempfile.TemporaryDirectory(prefix="smriti-bench-share-") as tmp:
        base = Path(tmp)
        repo = new_repo(base / "repo")
        env = env_for(base)
        size = write_sessions(base / "transcripts", repo, n, random.Random(7))
        t, out = smriti(env, "ingest", "--path", str(base / "transcripts"), "--quiet")
        rows.append(
            (
                f"ingest {n:,} sessions ({size / 1e6:.1f} MB), setup",
                f"{t:.2f} s",
                f"{out['sessions_ingested']:,} sessions",
            )
        )
        t, _ = smriti(env, "init", "--repo", str(repo))
        t, out = smriti(env, "share", "--repo", str(repo))
        written = len(out["written"])
        rows.append(
            (
                f"share sweep of {n:,} sessions (redact, render, write)",
                f"{t:.2f} s",
                f"{written:,} written, {len(out['skipped'])} skipped, {written / t:,.0f} items/s",
            )
        )
        t, out = smriti(env, "share", "--repo", str(repo))
        rows.append((f"re-share sweep, {n:,} items unchanged", f"{t:.2f} s", f"{out['unchanged']:,} unchanged"))


# --- sync ---------------------------------------------------------------------------------------------


def write_items(repo: Path, n: int, rng: random.Random, turns: int = 1) -> int:
    """`turns`: user/assistant exchanges in each item's conversation (1: ~1.4 KB files; a shared
    real session is more like 8-12 turns, 8-15 KB)."""
    total = 0
    for i in range(n):
        outcome = paragraph(rng, 2)  # drawn first, as before --item-turns: the same texts for turns=1
        conversation = "".join(
            f"**user**: {paragraph(rng, 3)}\n\n**assistant**: {paragraph(rng, 6)}\n\n" for _ in range(turns)
        )
        body = (
            f"# Fix handler {i}\n\n## Summary\n\n- Goal: fix needle{i}\n- Outcome: {outcome}\n\n"
            f"## Conversation\n\n{conversation.rstrip()}\n"
        )
        item = knowledge.new_item(
            title=f"Fix handler {i}: {paragraph(rng, 1)[:60]}",
            category=CATEGORIES[i % len(CATEGORIES)],
            body=body,
            created=f"2026-06-{1 + i % 28:02d}T10:00:00Z",
            agent="claude-code",
            session=f"bench-{i:06d}",
            tags=[CATEGORIES[i % len(CATEGORIES)]],
            project="bench",
            author=f"dev{i % 7}",
            files=[f"src/mod{i % 97}/handler.py"],
            shared="2026-07-01T09:00:00Z",
        )
        path = repo / ".smriti" / knowledge.item_path(item)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = knowledge.render_bytes(item)
        path.write_bytes(data)
        total += len(data)
    return total


def bench_sync(n: int, rows: list[tuple[str, str, str]], turns: int = 1) -> None:
    with tempfile.TemporaryDirectory(prefix="smriti-bench-sync-") as tmp:
        base = Path(tmp)
        repo = new_repo(base / "repo")
        size = write_items(repo, n, random.Random(11), turns)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "knowledge")
        env = env_for(base)
        t, out = smriti(env, "sync", "--repo", str(repo))
        assert out["imported"] == n and not out["rejected"], out
        rows.append(
            (
                f"full sync of {n:,} files ({size / 1e6:.1f} MB) into an empty store, CLI incl. index",
                f"{t:.2f} s",
                f"{n / t:,.0f} files/s; budget 10 s",
            )
        )
        t, out = smriti(env, "sync", "--repo", str(repo))
        assert out["unchanged"] == n, out
        rows.append(("no-op sync, CLI", f"{t:.3f} s", "budget 1 s"))
        # one file edited, one moved, one deleted: the incremental path
        files = sorted((repo / ".smriti" / "knowledge").rglob("*.md"))
        files[0].write_bytes(files[0].read_bytes() + b"\nEdited in review.\n")
        git(repo, "mv", str(files[1]), str(files[1].with_name("moved-" + files[1].name)))
        git(repo, "rm", "-q", str(files[2]))
        git(repo, "commit", "-q", "-am", "review")
        t, out = smriti(env, "sync", "--repo", str(repo))
        assert (out["updated"], out["removed"]) == (2, 1), out
        rows.append(("sync after 1 edit, 1 move, 1 delete, CLI", f"{t:.3f} s", f"{out['unchanged']:,} unchanged"))

        # The library call alone (no index update), into a second empty store.
        from smriti.store import Store
        from smriti.team.sync import sync

        store = Store(base / "lib" / "smriti.db")
        start = time.perf_counter()
        result = sync(store, repo)
        t = time.perf_counter() - start
        rows.append(
            (f"full sync of {n:,} files, library only (no index)", f"{t:.2f} s", f"{result.imported:,} imported")
        )
        start = time.perf_counter()
        result = sync(store, repo)
        rows.append(
            ("no-op sync, library only", f"{time.perf_counter() - start:.3f} s", f"{result.unchanged:,} unchanged")
        )
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--items", type=int, default=10_000, help="knowledge files for the sync benchmark (0: skip)")
    ap.add_argument("--share-sessions", type=int, default=10_000, help="sessions for the share benchmark (0: skip)")
    ap.add_argument("--item-turns", type=int, default=1, help="exchanges per synced item (10: real-sized, ~12 KB)")
    args = ap.parse_args()
    rows: list[tuple[str, str, str]] = []
    if args.items:
        bench_sync(args.items, rows, args.item_turns)
    if args.share_sessions:
        bench_share(args.share_sessions, rows)
    print(
        f"# Share and sync — {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}\n"
    )
    print("| step | time | notes |")
    print("|---|---|---|")
    for step, t, note in rows:
        print(f"| {step} | {t} | {note} |")


if __name__ == "__main__":
    main()
