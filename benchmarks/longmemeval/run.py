"""LongMemEval_S session retrieval: smriti's recall and search beside plain BM25, on the public benchmark.

    pip install -e '.[bench]'                                   # rank_bm25, for the baseline
    python benchmarks/longmemeval/run.py                        # all 100 dev questions; markdown tables
    python benchmarks/longmemeval/run.py --limit 20 -v          # a quick smoke run, every miss listed
    python benchmarks/longmemeval/run.py --workdir /tmp/lme     # keep the transcripts and stores

Data: `longmemeval_s_dev.jsonl.xz` in the shared folder beside the repository (`--data` to point
elsewhere; it is never copied into the repo). Its README says what it holds and where it comes from.

Per question, a fresh smriti data dir holds that question's ~48 haystack sessions, each written as
a Claude Code JSONL transcript (one cwd for all, the session's haystack date as its time, turns five
seconds apart, native session id = haystack session id) and ingested by `smriti.ingest.ingest`, the
function `smriti ingest --path` runs: adapter, store, categorize and distill, Tantivy index. Then:
- recall: `smriti.recall.recall(store, index, question, project=<the project>, limit=10,
  now=<question date>)`, the prompt hook's function, score floor included;
- search: `smriti.search.search(store, index, question, limit=10)`, what `smriti search` runs;
- BM25: rank_bm25's BM25Okapi over the sessions (a session's text: all its turns; tokens:
  lowercase \\w+ words, English stop words out), the baseline the paper's retrieval numbers use.

Metrics (the paper's session-level retrieval, binary relevance over answer_session_ids):
recall_any@5, recall_all@5, NDCG@10 (log2 discount, ideal DCG over min(#answers, 10)); for recall
also what the hook would inject: the share of questions whose context block holds an evidence
turn (a has_answer turn of an answer session) — "exact window": a 60-character window of the turn
(whole turn if shorter) appears verbatim, whitespace and case normalised; "word overlap": at least
half the turn's distinctive words (non-stop words of 4+ letters) appear in the block — the share
of questions where recall injects nothing, and the mean block size.
"""

from __future__ import annotations

import argparse
import json
import lzma
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rank_bm25 import BM25Okapi

from smriti import paths
from smriti.adapters import load_registry
from smriti.config import UserConfig
from smriti.index import Index
from smriti.ingest import ingest
from smriti.recall import recall
from smriti.search import asking_project, search
from smriti.store import Store

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPO.parent / "shared" / "benchmarks" / "longmemeval" / "longmemeval_s_dev.jsonl.xz"
CWD = "/home/user/longmemeval"  # every session's working directory: one project, as one user's chats
TURN_GAP = timedelta(seconds=5)
K_ANY = 5
K_NDCG = 10
WINDOW = 60  # characters of an evidence turn that must appear verbatim in the block ("exact window")
OVERLAP = 0.5  # share of an evidence turn's distinctive words that must appear in the block ("word overlap")
METHODS = ("recall", "search", "BM25")
LABELS = {"recall": "smriti recall (the hook's)", "search": "smriti search", "BM25": "BM25 baseline (rank_bm25)"}

# NLTK's English stop word list (the usual one for BM25 baselines), apostrophes dropped since \w+
# splits on them.
STOP_WORDS = frozenset(
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers "
    "herself it its itself they them their theirs themselves what which who whom this that these those am is "
    "are was were be been being have has had having do does did doing a an the and but if or because as until "
    "while of at by for with about against between into through during before after above below to from up "
    "down in out on off over under again further then once here there when where why how all any both each "
    "few more most other some such no nor not only own same so than too very s t can will just don should "
    "now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn "
    "wasn weren won wouldn".split()
)
WORD = re.compile(r"\w+")
SPACE = re.compile(r"\s+")


def tokens(text: str) -> list[str]:
    return [w for w in WORD.findall(text.lower()) if w not in STOP_WORDS]


def parse_date(value: str) -> datetime:
    """LongMemEval's `2023/05/30 (Tue) 03:16`, taken as UTC."""
    return datetime.strptime(value.split(" (")[0] + " " + value.rsplit(" ", 1)[-1], "%Y/%m/%d %H:%M").replace(
        tzinfo=UTC
    )


def load(path: Path) -> list[dict]:
    with lzma.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def haystack(q: dict) -> Iterator[tuple[str, str, list[dict]]]:
    """(session id, date, turns) once per session id (one haystack lists a session twice)."""
    seen: set[str] = set()
    for sid, date, turns in zip(q["haystack_session_ids"], q["haystack_dates"], q["haystack_sessions"], strict=True):
        if sid not in seen:
            seen.add(sid)
            yield sid, date, turns


# ---- transcripts ---------------------------------------------------------------------------------


def transcript(sid: str, start: datetime, turns: list[dict]) -> str:
    """One haystack session as the Claude Code JSONL lines smriti's claude-code adapter reads."""
    lines = []
    parent = None
    for i, turn in enumerate(turns):
        uid = f"{sid}-{i:04d}"
        ts = (start + i * TURN_GAP).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        if turn["role"] == "user":
            message: dict = {"role": "user", "content": turn["content"]}
        else:
            message = {
                "id": f"msg_{uid}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": turn["content"]}],
                "stop_reason": "end_turn",
            }
        record = {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": CWD,
            "sessionId": sid,
            "version": "2.1.40",
            "gitBranch": "main",
            "type": "user" if turn["role"] == "user" else "assistant",
            "message": message,
            "uuid": uid,
            "timestamp": ts,
        }
        parent = uid
        lines.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def build(q: dict, work: Path, reuse: bool = False) -> tuple[Store, Index, float, int]:
    """A fresh data dir holding the question's haystack, ingested; (store, index, seconds, messages).
    With `reuse`, a data dir an earlier run of this commit's ingest left in `work` is opened as it is
    (for re-running queries after a ranking change; re-ingest after changing ingest or the index)."""
    done = work / "data" / ".ingested"
    if reuse and done.exists():
        store, index = Store(paths.db_path(work / "data")), Index(paths.index_dir(work / "data"))
        index.rebuild(store, if_needed=True)  # an index of an older schema starts over, from the store
        return store, index, 0.0, 0
    if work.exists():
        shutil.rmtree(work)
    sources = work / "claude" / CWD.replace("/", "-")
    sources.mkdir(parents=True)
    for sid, date, turns in haystack(q):
        (sources / f"{sid}.jsonl").write_text(transcript(sid, parse_date(date), turns), encoding="utf-8")
    data = work / "data"
    store = Store(paths.db_path(data))
    index = Index(paths.index_dir(data))
    t0 = time.perf_counter()
    result = ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [work / "claude"])
    seconds = time.perf_counter() - t0
    if result.errors:
        raise SystemExit(f"{q['question_id']}: ingest failed: {result.errors[:3]}")
    done.write_text("")
    return store, index, seconds, result.messages_added


# ---- metrics -------------------------------------------------------------------------------------


def retrieval(ranked: list[str], answers: set[str]) -> dict[str, float]:
    top = ranked[:K_ANY]
    dcg = sum(1 / math.log2(i + 2) for i, sid in enumerate(ranked[:K_NDCG]) if sid in answers)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(answers), K_NDCG)))
    return {
        "recall_any@5": float(any(sid in answers for sid in top)),
        "recall_all@5": float(answers <= set(top)),
        "NDCG@10": dcg / ideal,
    }


def normalise(text: str) -> str:
    return SPACE.sub(" ", text).strip().lower()


def holds_window(block: str, turn: str) -> bool:
    """A WINDOW-character stretch of the turn (the whole turn if shorter) appears in the block."""
    turn = normalise(turn)
    if len(turn) <= WINDOW:
        return bool(turn) and turn in block
    windows = {block[i : i + WINDOW] for i in range(len(block) - WINDOW + 1)}
    return any(turn[i : i + WINDOW] in windows for i in range(len(turn) - WINDOW + 1))


def distinctive(text: str) -> set[str]:
    return {w for w in tokens(text) if len(w) >= 4}


def holds_words(block_words: set[str], turn: str) -> bool:
    words = distinctive(turn)
    return bool(words) and len(words & block_words) / len(words) >= OVERLAP


def evidence_turns(q: dict) -> list[str]:
    answers = set(q["answer_session_ids"])
    return [t["content"] for sid, _, turns in haystack(q) if sid in answers for t in turns if t.get("has_answer")]


@dataclass
class Outcome:
    qid: str
    qtype: str
    answers: list[str]
    scores: dict[str, dict[str, float]] = field(default_factory=dict)
    ranked: dict[str, list[str]] = field(default_factory=dict)
    context_chars: int = 0
    window_hit: bool = False
    words_hit: bool = False


def evaluate(q: dict, store: Store, index: Index, latencies: dict[str, list[float]]) -> Outcome:
    answers = set(q["answer_session_ids"])
    now = parse_date(q["question_date"])
    question = q["question"]
    out = Outcome(q["question_id"], q["question_type"], sorted(answers))

    t0 = time.perf_counter()
    res = recall(store, index, question, project=asking_project(store, None, CWD), limit=K_NDCG, now=now)
    latencies["recall"].append((time.perf_counter() - t0) * 1000)
    out.ranked["recall"] = [r.native_id or r.id for r in res.results]

    t0 = time.perf_counter()
    hits = search(store, index, question, limit=K_NDCG)
    latencies["search"].append((time.perf_counter() - t0) * 1000)
    out.ranked["search"] = [h.native_id for h in hits if h.native_id]

    ids = [sid for sid, _, _ in haystack(q)]
    t0 = time.perf_counter()
    bm25 = BM25Okapi([tokens(" ".join(t["content"] for t in turns)) for _, _, turns in haystack(q)])
    scores = bm25.get_scores(tokens(question))
    latencies["BM25"].append((time.perf_counter() - t0) * 1000)
    out.ranked["BM25"] = [ids[i] for i in sorted(range(len(ids)), key=lambda i: -scores[i])[:K_NDCG]]

    for method in METHODS:
        out.scores[method] = retrieval(out.ranked[method], answers)
    block = normalise(res.context)
    block_words = set(WORD.findall(block))
    out.context_chars = len(res.context)
    turns = evidence_turns(q)
    out.window_hit = bool(block) and any(holds_window(block, t) for t in turns)
    out.words_hit = bool(block) and any(holds_words(block_words, t) for t in turns)
    return out


# ---- report --------------------------------------------------------------------------------------


def header(data: Path) -> str:
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "?"

    commit = git("rev-parse", "--short", "HEAD")
    dirty = " (uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"- date: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}; commit {commit}{dirty}\n"
        f"- machine: {platform.machine()}, {os.cpu_count()} cores, {cpu}; Python {platform.python_version()}; "
        f"load average at start {load}\n"
        f"- data: {data.name}"
    )


def mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def tables(outcomes: list[Outcome]) -> str:
    metrics = ("recall_any@5", "recall_all@5", "NDCG@10")
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[o.qtype].append(o)
    rows = [("all", outcomes)] + [(t, groups[t]) for t in sorted(groups, key=lambda t: (-len(groups[t]), t))]
    lines = [
        "Session retrieval, all questions (the paper's metric):",
        "",
        "| method | " + " | ".join(metrics) + " |",
        "|---" * (1 + len(metrics)) + "|",
    ]
    for m in METHODS:
        lines.append(
            f"| {LABELS[m]} | " + " | ".join(f"{mean([o.scores[m][k] for o in outcomes]):.3f}" for k in metrics) + " |"
        )
    short = {"recall_any@5": "any@5", "recall_all@5": "all@5", "NDCG@10": "NDCG@10"}
    cols = [f"{short[k]} {m}" for k in metrics for m in METHODS]
    lines += [
        "",
        "By question type:",
        "",
        "| questions | n | " + " | ".join(cols) + " |",
        "|---|---" + "|---" * len(cols) + "|",
    ]
    for name, os_ in rows:
        cells = [f"{mean([o.scores[m][k] for o in os_]):.3f}" for k in metrics for m in METHODS]
        label = f"**{name}**" if name == "all" else name
        lines.append(f"| {label} | {len(os_)} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "What recall would inject (its context block, default budget):",
        "",
        "| questions | n | holds an evidence turn: exact window | word overlap ≥0.5 | injects nothing | "
        "mean sessions recalled | mean block chars |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, os_ in rows:
        label = f"**{name}**" if name == "all" else name
        lines.append(
            f"| {label} | {len(os_)} | {mean([o.window_hit for o in os_]):.3f} "
            f"| {mean([o.words_hit for o in os_]):.3f} | {mean([o.context_chars == 0 for o in os_]):.3f} "
            f"| {mean([len(o.ranked['recall']) for o in os_]):.2f} | {mean([o.context_chars for o in os_]):.0f} |"
        )
    return "\n".join(lines)


def miss_report(q: dict, o: Outcome) -> str:
    missed = [m for m in METHODS if not o.scores[m]["recall_any@5"]]
    lines = [f"  {o.qid} [{o.qtype}] missed by {', '.join(missed)}: {q['question']!r} (answer sessions {o.answers})"]
    for m in METHODS:
        ranks = [str(o.ranked[m].index(a) + 1) if a in o.ranked[m] else "-" for a in o.answers]
        lines.append(f"      {m:6} answer ranks {','.join(ranks)}; top 3 {o.ranked[m][:3]}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the questions (.jsonl.xz)")
    ap.add_argument("--limit", type=int, help="only the first N questions (20 is a quick smoke run)")
    ap.add_argument("--workdir", type=Path, help="keep each question's transcripts and data dir here")
    ap.add_argument("--reuse", action="store_true", help="with --workdir: query the stores an earlier run kept")
    ap.add_argument("--json", type=Path, help="also write every question's rankings and scores here")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every question a method misses at 5")
    args = ap.parse_args()
    if not args.data.exists():
        raise SystemExit(f"no data at {args.data}: pass --data (see this script's docstring)")
    questions = load(args.data)[: args.limit]
    keep = args.workdir is not None
    work = args.workdir or Path(tempfile.mkdtemp(prefix="smriti-longmemeval-"))
    work.mkdir(parents=True, exist_ok=True)
    head = header(args.data)
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    latencies: dict[str, list[float]] = {m: [] for m in METHODS}
    progress = sys.stderr.isatty() and not args.verbose  # a counter on a terminal; misses need whole lines
    ingest_seconds = 0.0
    messages = 0
    try:
        for n, q in enumerate(questions, 1):
            qdir = work / q["question_id"]
            store, index, seconds, added = build(q, qdir, reuse=args.reuse)
            ingest_seconds += seconds
            messages += added
            try:
                o = evaluate(q, store, index, latencies)
            finally:
                store.close()
            del index
            outcomes.append(o)
            if not keep:
                shutil.rmtree(qdir, ignore_errors=True)
            if args.verbose and not all(o.scores[m]["recall_any@5"] for m in METHODS):
                print(miss_report(q, o), file=sys.stderr)
            if progress:
                print(f"\r{n}/{len(questions)} questions", end="", file=sys.stderr, flush=True)
        if progress:
            print(file=sys.stderr)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    wall = time.perf_counter() - started
    print(f"# LongMemEval_S dev: {len(outcomes)} questions\n")
    print(head)
    print(
        f"- wall time {wall:.0f} s; ingest {ingest_seconds:.0f} s for {messages:,} messages "
        f"({messages / max(ingest_seconds, 1e-9):,.0f}/s); query p50 in-process: "
        + ", ".join(f"{m} {statistics.median(v):.1f} ms" for m, v in latencies.items() if v)
        + " (BM25's includes building its index over the question's sessions)\n"
    )
    print(tables(outcomes))
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
