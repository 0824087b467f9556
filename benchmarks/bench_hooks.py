"""Hook latency: process start to JSON out for the prompt hook, and how fast the record hook returns.

    python benchmarks/bench_hooks.py                      # 10k sessions (~200k messages)
    python benchmarks/bench_hooks.py --sessions 500       # quick run
    python benchmarks/bench_hooks.py --workdir /tmp/hb    # keep (and reuse) the corpus and store
    python benchmarks/bench_hooks.py --corpus recall --workdir /tmp/hbr
                                   # the recall benchmark's corpus at 10x (18k sessions, ~193k messages)
    python benchmarks/bench_hooks.py --corpus recall_hard --sessions 2000 --workdir /tmp/rh
                                   # recall_hard's long sessions (2,000 distractors ~ 378k messages;
                                   # a `recall_hard/run.py --workdir` dir is reused as it is)

Three corpora. `synthetic` (corpus.py): a 112-word vocabulary, so every prompt word but the needle is
in ~40% of documents — the worst case for recall's work per prompt. `recall` (recall/generate.py):
six projects' real-shaped sessions, prompts from its labeled queries (hits: the close and
paraphrased questions, asked from the fact's project) and its unrelated prompts (misses).
`recall_hard` (recall_hard/generate.py): long sessions (50-400 transcript lines) with near-duplicate
distractors, ~190 messages a session; prompts from its queries (close, para, para2; both splits:
speed tunes nothing) and its unrelated prompts, each asked from its project.

The warm prompt hook is measured interleaved with `python -c pass` (one of each in turn), so the
ratio holds on a loaded machine. Beside the hooks, on the same store and prompts: in-process
`search()` (warm, one process) and `smriti search <prompt> --json` as a process, also interleaved
with `python -c pass`.

Every number is a real `smriti hook …` process started the way an agent starts it (stdin JSON,
stdout read to the end), warm (OS caches hot, bytecode compiled), next to `python -c pass` from
the same venv. Bytecode: the script runs its subprocesses without PYTHONDONTWRITEBYTECODE and with
PYTHONPYCACHEPREFIX in the work dir, as a `pip install` (which compiles) would, without writing
into the source tree.

Budgets (DESIGN.md): prompt hook p50 <= 3x `python -c pass`; record hook returns in <= 30 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import WORDS, generate  # noqa: E402

SMRITI = shutil.which("smriti", path=str(Path(sys.executable).parent)) or "smriti"


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def build(work: Path, sessions: int, seed: int, kind: str = "synthetic") -> tuple[Path, dict]:
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.index import Index
    from smriti.ingest import ingest
    from smriti.store import Store

    data = work / "data"
    corpus = work / "corpus"
    if (data / "smriti.db").exists():
        with Store(data / "smriti.db") as store:
            return data, store.stats()
    t0 = time.perf_counter()
    if kind == "recall":
        from recall.generate import generate as generate_recall

        generate_recall(corpus, distractors=sessions, seed=11)
    elif kind == "recall_hard":
        # A process of its own: recall_hard/generate.py imports its own `corpus` module, which this
        # script's `corpus` (benchmarks/corpus.py, already imported) would shadow.
        script = Path(__file__).parent / "recall_hard" / "generate.py"
        subprocess.run(
            [sys.executable, str(script), str(corpus), "--distractors", str(sessions), "--seed", "13"], check=True
        )
    else:
        generate(corpus, sessions, seed)
    store = Store(data / "smriti.db")
    root = corpus / "claude" if kind in ("recall", "recall_hard") else corpus
    result = ingest(store, Index(data / "index"), load_registry(), UserConfig(), ["claude-code"], [root])
    assert not result.errors, result.errors[:3]
    stats = store.stats()
    store.close()
    print(f"built {stats['messages']:,} messages in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return data, stats


def bench_prompts(work: Path, kind: str, sessions: int, n: int) -> list[tuple[str, str]]:
    """`n` prompts and the cwd each is asked from, alternating one that a session covers and one
    none does."""
    rng = random.Random(7)
    if kind == "recall_hard":
        meta = json.loads((work / "corpus" / "queries.json").read_text())
        hits = [(q[k], q["cwd"]) for q in meta["queries"] for k in ("close", "para", "para2")]
        misses = [(u["prompt"], u["cwd"]) for u in meta["unrelated"]]
        rng.shuffle(hits)
        rng.shuffle(misses)
    elif kind == "recall":
        meta = json.loads((work / "corpus" / "queries.json").read_text())
        hits = [(q[k], q["cwd"]) for q in meta["queries"] for k in ("close", "para")]
        cwds = sorted({q["cwd"] for q in meta["queries"]})
        misses = [
            (u, rng.choice(cwds))
            for name in ("unrelated", "unrelated_holdout", "unrelated_holdout2")
            for u in meta[name]
        ]
        rng.shuffle(hits)
        rng.shuffle(misses)
    else:
        cwd = "/home/dev/payments-api"
        hits, misses = [], []
        for _ in range(n):
            words = " ".join(rng.choice(WORDS) for _ in range(6))
            hits.append((f"needle{rng.randrange(sessions)} {words}", cwd))
            words = " ".join(rng.choice(WORDS) for _ in range(6))
            misses.append((f"why does the {words} fail?", cwd))
    return [(hits if i % 2 == 0 else misses)[(i // 2) % len(hits if i % 2 == 0 else misses)] for i in range(n)]


def timed(cmd: list[str], stdin: str, env: dict[str, str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin.encode(), capture_output=True, env=env)
    elapsed = (time.perf_counter() - t0) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    return elapsed, proc.stdout.decode()


def wait_for_server(data: Path, env: dict[str, str]) -> None:
    code = (
        "import sys; from smriti.hooks import server as hookserver\n"
        "print(hookserver.request(sys.argv[1], {'op': 'ping'}, 2).get('ok'))"
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        proc = subprocess.run([sys.executable, "-c", code, str(data)], capture_output=True, text=True, env=env)
        if proc.stdout.strip() == "True":
            return
        time.sleep(0.2)
    raise SystemExit("the recall server did not start")


def recorders(data: Path) -> bool:
    """Whether a recorder process for `data` still runs (Linux /proc; elsewhere: assume not)."""
    if not os.path.isdir("/proc"):
        return False
    for entry in os.listdir("/proc"):
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0") if entry.isdigit() else []
        except OSError:
            continue
        if b"smriti.hooks.record" in cmd and os.fsencode(str(data)) in cmd:
            return True
    return False


def wait_for_recorder(data: Path, agent: str, session: str) -> None:
    """Until the recorder has finished and exited, so the next measurement has the CPUs to itself
    (agents' Stop hooks come seconds apart, not back to back)."""
    import fcntl

    from smriti.hooks.protocol import record_lock_path

    lock = record_lock_path(str(data), agent, session)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        time.sleep(0.02)
        if os.path.exists(lock + ".dirty") or recorders(data):
            continue
        try:
            fd = os.open(lock, os.O_RDWR)
        except FileNotFoundError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            time.sleep(0.05)
            return
        except BlockingIOError:
            continue
        finally:
            os.close(fd)
    raise SystemExit("the recorder did not finish")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--corpus", choices=["synthetic", "recall", "recall_hard"], default="synthetic", help="which corpus (see above)"
    )
    ap.add_argument(
        "--sessions",
        type=int,
        default=None,
        help="corpus size (synthetic: 10k sessions ≈ 200k messages; recall: 18k distractors ≈ 193k; "
        "recall_hard: 2k distractors ≈ 378k)",
    )
    ap.add_argument("--runs", type=int, default=200, help="runs per measurement")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir", type=Path, default=None)
    args = ap.parse_args()

    work = args.workdir or Path(tempfile.mkdtemp(prefix="smriti-bench-hooks-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.sessions is None:
        args.sessions = {"recall": 18_000, "recall_hard": 2_000}.get(args.corpus, 10_000)
    data, stats = build(work, args.sessions, args.seed, args.corpus)
    home = work / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "SMRITI_DISABLE")}
    env.update(
        SMRITI_HOME=str(data),
        HOME=str(home),
        PYTHONPYCACHEPREFIX=str(work / "pycache"),
        SMRITI_HOOK_SERVER_IDLE="600",
        SMRITI_RECORD_DELAY="0",
    )
    cwd = "/home/dev/payments-api"
    prompts = bench_prompts(work, args.corpus, args.sessions, max(args.runs, 100) + 20)

    def prompt_payload(i: int, session: int | None = None) -> str:
        text, where = prompts[i % len(prompts)]
        return json.dumps(
            {
                "session_id": f"bench-{i if session is None else session}",
                "transcript_path": None,
                "cwd": where,
                "permission_mode": "default",
                "hook_event_name": "UserPromptSubmit",
                "prompt": text,
            }
        )

    baseline_cmd = [sys.executable, "-c", "pass"]
    prompt_cmd = [SMRITI, "hook", "claude-code", "prompt"]
    for _ in range(5):  # compile bytecode, warm the OS caches
        timed(baseline_cmd, "", env)
        timed(prompt_cmd, prompt_payload(-1), {**env, "SMRITI_HOOK_SERVER": "0"})

    rows: list[tuple[str, list[float], str]] = []
    # The warm server: the first prompt hook starts it.
    timed(prompt_cmd, prompt_payload(-2), env)
    wait_for_server(data, env)
    base: list[float] = []
    hits = []
    injected = 0
    for i in range(args.runs):  # interleaved: a shared machine's load falls on both alike
        base.append(timed(baseline_cmd, "", env)[0])
        ms, out = timed(prompt_cmd, prompt_payload(i), env)
        hits.append(ms)
        injected += bool(out.strip())
    rows.append(("`python -c pass` (same venv)", base, ""))
    rows.append(("prompt hook, warm recall server (half hits, half misses)", hits, f"{injected}/{args.runs} injected"))
    search_base: list[float] = []
    searches: list[float] = []
    for i in range(max(20, args.runs // 4)):
        text, _ = prompts[i % len(prompts)]
        search_base.append(timed(baseline_cmd, "", env)[0])
        searches.append(timed([SMRITI, "search", text, "--json"], "", env)[0])
    rows.append(("`python -c pass`, interleaved with the next row", search_base, ""))
    rows.append(("`smriti search <prompt> --json` as a process", searches, "same prompts"))
    starts = []
    for i in range(max(20, args.runs // 4)):
        payload = json.dumps(
            {"session_id": f"bench-start-{i}", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"}
        )
        starts.append(timed([SMRITI, "hook", "claude-code", "session-start"], payload, env)[0])
    rows.append(("session-start hook, warm recall server", starts, ""))
    cold = []
    for i in range(max(10, args.runs // 10)):
        cold.append(timed(prompt_cmd, prompt_payload(i, 10_000 + i), {**env, "SMRITI_HOOK_SERVER": "0"})[0])
    rows.append(("prompt hook, in-process (SMRITI_HOOK_SERVER=0; also the first prompt)", cold, ""))

    # Record hook: a real transcript of the corpus, the recorder allowed to finish between runs.
    transcript = next((work / "corpus").rglob("*.jsonl"))
    session = transcript.stem
    stop = json.dumps(
        {
            "session_id": session,
            "transcript_path": str(transcript),
            "cwd": cwd,
            "hook_event_name": "Stop",
            "stop_hook_active": False,
            "last_assistant_message": "done",
        }
    )
    stop_cmd = [SMRITI, "hook", "claude-code", "stop"]
    spawned = []
    for _ in range(max(20, args.runs // 4)):
        spawned.append(timed(stop_cmd, stop, env)[0])
        wait_for_recorder(data, "claude-code", session)
    rows.append(("record hook (Stop), starts the detached recorder", spawned, ""))
    coalesced = []
    import fcntl

    from smriti.hooks.protocol import record_lock_path

    lock = record_lock_path(str(data), "claude-code", session)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # stands in for a recorder that is still running
    for _ in range(max(20, args.runs // 4)):
        coalesced.append(timed(stop_cmd, stop, env)[0])
    os.close(fd)
    rows.append(("record hook (Stop), a recorder already running (coalesced)", coalesced, ""))
    try:
        os.unlink(lock + ".dirty")
    except FileNotFoundError:
        pass

    from smriti.hooks.log import injections

    server_ms = [r["ms"] for r in injections(str(data)) if r.get("session", "").startswith("bench-") and "ms" in r][
        -args.runs :
    ]
    # recall alone, in this process, warm: the part of the prompt hook that is recall's own work.
    from smriti.hooks.recall import Recaller

    recaller = Recaller(data)
    reqs = [
        {"op": "recall", "query": text, "cwd": where}
        for text, where in (prompts[i % len(prompts)] for i in range(args.runs))
    ]
    for req in reqs[:5]:
        recaller.answer(req)
    alone = []
    for req in reqs:
        t0 = time.perf_counter()
        recaller.answer(req)
        alone.append((time.perf_counter() - t0) * 1000)
    recaller.close()
    # search() in-process, warm, the same prompts: what `smriti search` runs after its imports.
    from smriti.index import Index
    from smriti.search import search
    from smriti.store import Store

    store, index = Store(data / "smriti.db"), Index(data / "index")
    for text, _ in prompts[:5]:
        search(store, index, text, limit=10)
    in_process = []
    for text, _ in (prompts[i % len(prompts)] for i in range(args.runs)):
        t0 = time.perf_counter()
        search(store, index, text, limit=10)
        in_process.append((time.perf_counter() - t0) * 1000)
    store.close()
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

    b50 = statistics.median(base)
    print(
        f"\nsmriti hook latency ({args.corpus} corpus) — "
        f"{stats['messages']:,} messages in {stats['sessions']:,} sessions; "
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs; {args.runs} runs\n"
    )
    print("| measurement | p50 ms | p99 ms | p50 vs `python -c pass` | note |")
    print("|---|---:|---:|---:|---|")
    for name, values, note in rows:
        print(
            f"| {name} | {statistics.median(values):.1f} | {pct(values, 99):.1f} | "
            f"{statistics.median(values) / b50:.2f}x | {note} |"
        )
    if server_ms:
        print(
            f"\nprompt hook's request to the server (socket + recall), from the injection log: "
            f"p50 {statistics.median(server_ms):.1f} ms, p99 {pct(server_ms, 99):.1f} ms"
        )
    print(
        f"recall alone (Recaller.answer in-process, warm, same queries): p50 {statistics.median(alone):.1f} ms, "
        f"p99 {pct(alone, 99):.1f} ms"
    )
    print(
        f"search() in-process (warm, same prompts, limit 10): p50 {statistics.median(in_process):.1f} ms, "
        f"p99 {pct(in_process, 99):.1f} ms"
    )
    p50 = statistics.median(hits)
    rec = statistics.median(spawned)
    print(
        f"\nbudget: prompt hook p50 <= 3x baseline ({3 * b50:.1f} ms): "
        f"{'OK' if p50 <= 3 * b50 else 'OVER'} ({p50:.1f} ms); "
        f"record hook <= 30 ms: {'OK' if rec <= 30 else 'OVER'} ({rec:.1f} ms)"
    )


if __name__ == "__main__":
    main()
