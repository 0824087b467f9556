"""Recall quality: smriti's recall beside plain SQLite FTS5 BM25 on a labeled corpus.

    python benchmarks/recall/run.py                    # generate, ingest, evaluate; prints a markdown table
    python benchmarks/recall/run.py --split tune -v    # only the tuning queries, every miss listed
    python benchmarks/recall/run.py --workdir /tmp/rb  # keep (and reuse) the corpus and the store

The corpus (generate.py): 96 Claude Code sessions that each hold one distinctive fact (facts.py,
written by hand) among 1,800 generated distractor sessions from the same six projects and topics
(distractors.py), ingested through smriti's real ingest (adapter, store, categorization and
distillation, Tantivy index). Each fact has two queries: `close` (close to the session's wording)
and `para` (paraphrased, other words). A query is asked from the fact's project (its cwd), as a
hook would; the hit is the fact's session.

Methods
- smriti: `smriti.recall.recall(store, index, query, project=<asking project>, limit=10)`, the
  function hooks and `smriti recall` call, score floor included (a query it drops is a miss).
- smriti, no project: the same without the asking project (no project boost).
- FTS5: SQLite FTS5 over the same indexed message texts (porter unicode61 tokenizer), the query's
  words (English stop words removed) joined with OR, ranked by bm25(); a session ranks by its best
  message.
- FTS5 + project filter: the same restricted to the asking project's sessions (informational: a
  filter is stronger than smriti's boost, and needs the user to pick the project).

Metrics: R@1 and R@5 (the fact's session is first / in the first five), MRR over the first ten.
Unrelated prompts (facts.UNRELATED, UNRELATED_HOLDOUT, UNRELATED_HOLDOUT2; UNRELATED_SETS says how
each was used): the share of prompt × project pairs for which recall returns nothing at all.
What was tuned on, and in which order: README.md in this folder.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import apsw

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from generate import generate  # noqa: E402

from smriti import paths  # noqa: E402
from smriti.adapters import load_registry  # noqa: E402
from smriti.config import UserConfig  # noqa: E402
from smriti.index import Index  # noqa: E402
from smriti.ingest import ingest  # noqa: E402
from smriti.recall import recall  # noqa: E402
from smriti.store import Store  # noqa: E402

STOP = frozenset(
    "a an and are as at be but by can could did do does for from had has have how i if in into is it its me my "
    "no not of on or our should so than that the their them then there these they this to was we were what when "
    "where which who why will with would you your".split()
)
K = 10
# The off-topic prompt sets, in the order they were written, and how each was used.
UNRELATED_SETS = {
    "unrelated": "set 1 (tuned on in round 1)",
    "unrelated_holdout": "set 2 (held out in round 1: 75% on its first run; tuned on in round 2)",
    "unrelated_holdout2": "set 3 (written before round 2, never tuned on)",
}


def fts5_build(store: Store, path: Path) -> apsw.Connection:
    conn = apsw.Connection(str(path))
    with conn:
        conn.execute(
            "create virtual table m using fts5(text, session unindexed, project unindexed, tokenize='porter unicode61')"
        )
        rows = store.conn.execute(
            "select b.text, s.native_id, s.project from messages m join blobs b on b.id = m.blob "
            "join sessions s on s.id = m.session where m.kind != 'injected_context'"
        )
        conn.executemany("insert into m(text, session, project) values (?, ?, ?)", rows)
    return conn


def fts5_rank(conn: apsw.Connection, q: str, project: str | None = None) -> list[str]:
    words = [w for w in re.findall(r"\w+", q.lower()) if w not in STOP]
    if not words:
        return []
    match = " OR ".join('"' + w + '"' for w in dict.fromkeys(words))
    sql = (
        "select session from m where m match ?"
        + (" and project = ?" if project else "")
        + " order by bm25(m) limit 2000"
    )
    out: list[str] = []
    for (s,) in conn.execute(sql, (match, project) if project else (match,)):
        if s not in out:
            out.append(s)
            if len(out) == K:
                break
    return out


def metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    return {
        "R@1": sum(r == 1 for r in ranks if r) / n,
        "R@5": sum(r <= 5 for r in ranks if r) / n,
        "MRR": sum(1 / r for r in ranks if r and r <= K) / n,
    }


def rank_of(ids: list[str], target: str) -> int | None:
    return ids.index(target) + 1 if target in ids else None


def build(work: Path, distractors: int, seed: int) -> tuple[Store, Index, dict]:
    corpus = work / "corpus"
    data = work / "data"
    if not (corpus / "queries.json").exists():
        generate(corpus, distractors, seed)
    meta = json.loads((corpus / "queries.json").read_text())
    store = Store(paths.db_path(data))
    index = Index(paths.index_dir(data))
    if store.stats()["sessions"] < meta["sessions"]:
        t0 = time.perf_counter()
        result = ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [corpus / "claude"])
        assert not result.errors, result.errors[:3]
        print(
            f"ingested {result.sessions_ingested} sessions, {result.messages_added} messages in "
            f"{time.perf_counter() - t0:.1f}s",
            file=sys.stderr,
        )
    elif index.needs_rebuild:
        index.rebuild(store)
    return store, index, meta


def evaluate(store: Store, index: Index, meta: dict, work: Path, splits: list[str], verbose: bool) -> dict:
    now = datetime.fromisoformat(meta["now"])
    fts_path = work / "fts5.db"
    fresh = not fts_path.exists()
    fts = fts5_build(store, fts_path) if fresh else apsw.Connection(str(fts_path))
    keys = {q["project"]: q["cwd"] for q in meta["queries"]}  # project key = the cwd here (no git on this machine)
    table: dict = {}
    latencies: list[float] = []
    for split in splits:
        qs = [q for q in meta["queries"] if split == "all" or q["split"] == split]
        for kind in ("close", "para"):
            ranks: dict[str, list[int | None]] = {
                "smriti": [],
                "smriti, no project": [],
                "FTS5": [],
                "FTS5 + project filter": [],
            }
            for q in qs:
                text, target, key = q[kind], q["native_id"], keys[q["project"]]
                t0 = time.perf_counter()
                res = recall(store, index, text, project=(key,), limit=K, now=now)
                latencies.append((time.perf_counter() - t0) * 1000)
                got = [r.native_id for r in res.results]
                ranks["smriti"].append(rank_of(got, target))
                noproj = recall(store, index, text, project=None, limit=K, now=now)
                ranks["smriti, no project"].append(rank_of([r.native_id for r in noproj.results], target))
                ranks["FTS5"].append(rank_of(fts5_rank(fts, text), target))
                ranks["FTS5 + project filter"].append(rank_of(fts5_rank(fts, text, key), target))
                if verbose and (ranks["smriti"][-1] or 99) > 1:
                    fr = ranks["FTS5"][-1]
                    print(
                        f"  [{split}/{kind}] {q['fid']}: smriti rank {ranks['smriti'][-1]}, FTS5 rank {fr}: {text!r}",
                        file=sys.stderr,
                    )
                    for r in res.results[:3]:
                        print(f"      {r.score:8.3f} {r.project} {r.title[:90]}", file=sys.stderr)
            for method, rs in ranks.items():
                table[(split, kind, method)] = metrics(rs) | {"n": len(rs)}
    out = {"table": table, "latency_p50": statistics.median(latencies)}
    for name in UNRELATED_SETS:
        if name != "unrelated" and "holdout" not in splits:
            continue
        prompts = meta.get(name, [])
        empty = [
            (u, k)
            for u in prompts
            for k in keys.values()
            if not recall(store, index, u, project=(k,), limit=K, now=now).results
        ]
        out[name] = (len(empty), len(prompts) * len(keys))
        if verbose:
            for u in prompts:
                leaks = [k for k in keys.values() if (u, k) not in empty]
                if leaks:
                    print(f"  [{name}] recalled something for {u!r} in {len(leaks)} project(s)", file=sys.stderr)
    return out


def markdown(result: dict, splits: list[str]) -> str:
    t = result["table"]
    methods = ["smriti", "FTS5", "smriti, no project", "FTS5 + project filter"]
    lines = [
        "| queries | method | close R@1 | close R@5 | close MRR | para R@1 | para R@5 | para MRR |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for split in splits:
        for m in methods:
            c, p = t[(split, "close", m)], t[(split, "para", m)]
            name = f"{split} ({c['n']})"
            bold = "**" if m == "smriti" else ""
            lines.append(
                f"| {name} | {bold}{m}{bold} | {c['R@1']:.3f} | {bold}{c['R@5']:.3f}{bold} | {c['MRR']:.3f} | "
                f"{p['R@1']:.3f} | {bold}{p['R@5']:.3f}{bold} | {p['MRR']:.3f} |"
            )
    lines.append("")
    for name, label in UNRELATED_SETS.items():
        if name in result:
            empty, total = result[name]
            lines.append(
                f"- Unrelated prompts, {label}: smriti recalls nothing for {empty}/{total} prompt × project "
                f"pairs ({empty / total:.0%})."
            )
    lines.append(f"- smriti recall p50, in-process: {result['latency_p50']:.1f} ms.")
    return "\n".join(lines)


EMPTY_VOCABULARY = Path(tempfile.gettempdir()) / "smriti-bench-empty-vocabulary.txt"
ABLATIONS = {
    "smriti (as shipped)": {},
    "no expansion table": {"SYNONYMS_FILE": EMPTY_VOCABULARY},
    "no question-word removal": {"QUERY_STOP_WORDS_FILE": EMPTY_VOCABULARY},
    "best passage only (no damped next passages, no spread)": {"EXTRA_PASSAGE_WEIGHTS": (), "SPREAD_WEIGHT": 0.0},
    "no digest (title/summary) weight": {"DIGEST_WEIGHT": 1.0},
    "no project boost": {"PROJECT_BOOST": 1.0},
    "floor: coverage ≥ 0.4 only": {"MIN_MATCHED": 99},
    "no floor": {"MIN_COVERAGE": 0.0},
}


def ablations(store: Store, index: Index, meta: dict, splits: list[str]) -> str:
    """smriti with one part switched off at a time (paraphrase R@5 and unrelated → nothing)."""
    import smriti.recall as R

    now = datetime.fromisoformat(meta["now"])
    EMPTY_VOCABULARY.write_text("")
    saved = {k: getattr(R, k) for change in ABLATIONS.values() for k in change}
    head = "| variant | " + " | ".join(f"{s} para R@5 | {s} close R@5" for s in splits) + " | unrelated → nothing |"
    lines = [head, "|---" * (2 + 2 * len(splits)) + "|"]
    for name, change in ABLATIONS.items():
        for k, v in saved.items():
            setattr(R, k, v)
        for k, v in change.items():
            setattr(R, k, v)
        R._SYNSETS.clear()
        R._STOPS.clear()
        cells = []
        for split in splits:
            qs = [q for q in meta["queries"] if q["split"] == split]
            for kind in ("para", "close"):
                ranks = [
                    rank_of(
                        [
                            r.native_id
                            for r in recall(store, index, q[kind], project=(q["cwd"],), limit=K, now=now).results
                        ],
                        q["native_id"],
                    )
                    for q in qs
                ]
                cells.append(f"{metrics(ranks)['R@5']:.3f}")
        prompts = [
            u for name in UNRELATED_SETS if name == "unrelated" or "holdout" in splits for u in meta.get(name, [])
        ]
        cwds = sorted({q["cwd"] for q in meta["queries"]})
        empty = sum(not recall(store, index, u, project=(k,), limit=K, now=now).results for u in prompts for k in cwds)
        cells.append(f"{empty / (len(prompts) * len(cwds)):.0%}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for k, v in saved.items():
        setattr(R, k, v)
    R._SYNSETS.clear()
    R._STOPS.clear()
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workdir", type=Path, help="where the corpus, store and FTS5 db live (reused when present)")
    ap.add_argument("--distractors", type=int, default=1800)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--split",
        choices=["tune", "holdout", "all", "both"],
        default="both",
        help="which queries (both: tune and holdout reported separately)",
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="list every query smriti does not rank first")
    ap.add_argument("--ablations", action="store_true", help="also: smriti with one part switched off at a time")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="smriti-recall-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    store, index, meta = build(work, args.distractors, args.seed)
    splits = ["tune", "holdout"] if args.split == "both" else [args.split]
    result = evaluate(store, index, meta, work, splits, args.verbose)
    print(
        f"{meta['sessions']} sessions ({meta['facts']} labeled, {meta['distractors']} distractors), "
        f"{store.stats()['messages']} messages, seed {meta['seed']}\n"
    )
    print(markdown(result, splits))
    if args.ablations:
        print()
        print(ablations(store, index, meta, splits))


if __name__ == "__main__":
    main()
