"""Measure categorization and distillation: accuracy on labeled sessions, title quality, throughput.

    python benchmarks/categorize/run.py                  # both eval sets + 10k-session throughput
    python benchmarks/categorize/run.py --sets tune -v   # one set, with every miss listed
    python benchmarks/categorize/run.py --throughput 0   # accuracy only

Eval sets (JSONL, one session per line: id, agent, expect, title, agent_title, messages in the
`smriti.models.Message` shape), in the order they were written:
- eval_tune.jsonl (60): the seeded vocabularies and rules were tuned on it.
- eval_holdout.jsonl (25): written after tuning round 1 and run once (60.0% top-level), then used
  for tuning round 2, so its current number is no longer a held-out measure.
- eval_holdout2.jsonl (25): written after round 2 and run once (64.0%), then used for round 3.
- eval_holdout3.jsonl (25): written after round 3; never tuned on. This is the honest number.
Every new round of tuning needs a new, unseen set to be measured honestly.

Title quality is token-overlap F1 between `title()` and the reference title, on lowercased words
without stopwords, with a crude suffix stemmer (so "exhausted" and "exhaustion" meet).
Throughput: `categorize_session` + `title` + `summary` + `entities` over generated ~20 KB sessions
(generate.py), one process, one thread; generation time is excluded. Reported as CPU time of this
process (what one core delivers, robust to other load on the machine) and as wall-clock time.
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from smriti.digest.categorize import categorize_session
from smriti.digest.distill import entities, summary, title
from smriti.digest.taxonomy import default_settings
from smriti.models import Message

HERE = Path(__file__).resolve().parent
SETS = {
    "tune": HERE / "eval_tune.jsonl",
    "holdout": HERE / "eval_holdout.jsonl",
    "holdout2": HERE / "eval_holdout2.jsonl",
    "holdout3": HERE / "eval_holdout3.jsonl",
}
# How each set was used. Only a set that was never tuned on measures how the rules generalize.
ROLE = {
    "tune": "tuned on (written first)",
    "holdout": "tuned on after its first run (first run: 60.0% top-level)",
    "holdout2": "tuned on after its first run (first run: 64.0% top-level)",
    "holdout3": "HELD OUT: written after the last tuning round, never tuned on",
}
STOP = frozenset(
    "a an the and or but to of in on for with by from as is are be it its this that into how what why "
    "when where which who do does our we you your my i me can could should would will".split()
)


def load(path: Path) -> list[dict]:
    out = []
    with path.open() as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                row["msgs"] = [
                    Message(
                        m["role"],
                        m["text"],
                        m["kind"],
                        m["key"],
                        tool_name=m.get("tool_name"),
                        tool_input=m.get("tool_input"),
                        files=tuple(m.get("files") or ()),
                    )
                    for m in row["messages"]
                ]
                out.append(row)
    return out


def _stem(w: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "ions", "ion", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


def title_f1(got: str, want: str) -> float:
    a = Counter(_stem(w) for w in re.findall(r"[a-z0-9]+", got.lower()) if w not in STOP)
    b = Counter(_stem(w) for w in re.findall(r"[a-z0-9]+", want.lower()) if w not in STOP)
    overlap = sum((a & b).values())
    if not overlap:
        return 0.0
    p, r = overlap / sum(a.values()), overlap / sum(b.values())
    return 2 * p * r / (p + r)


def evaluate(name: str, rows: list[dict], verbose: bool) -> dict:
    settings = default_settings()
    top_ok = full_ok = 0
    f1s = []
    pairs = []
    misses = []
    for row in rows:
        res = categorize_session(row["msgs"], settings)
        want, got = row["expect"], res.category
        pairs.append((want.split("/")[0], got.split("/")[0]))
        top_ok += want.split("/")[0] == got.split("/")[0]
        full_ok += want == got
        t = title(row["msgs"], row.get("agent_title"))
        f1s.append(title_f1(t, row["title"]))
        if verbose and want != got:
            misses.append(
                f"  {row['id']:<10} want {want:<24} got {got:<24} "
                f"conf {res.confidence:.2f} {[(x.id, x.confidence) for x in res.tags]}"
            )
    n = len(rows)
    print(f"\n== {name}: {n} sessions ({SETS[name].name}) — {ROLE[name]}")
    print(
        f"primary category accuracy   top-level {top_ok / n:6.1%} ({top_ok}/{n})   "
        f"full id {full_ok / n:6.1%} ({full_ok}/{n})"
    )
    print(f"title token-F1 vs reference mean {sum(f1s) / n:.3f}   median {sorted(f1s)[n // 2]:.3f}")
    print(f"{'category':<15}{'precision':>10}{'recall':>8}{'support':>9}")
    cats = sorted({w for w, _ in pairs} | {g for _, g in pairs})
    for c in cats:
        tp = sum(1 for w, g in pairs if w == c and g == c)
        predicted = sum(1 for _, g in pairs if g == c)
        support = sum(1 for w, _ in pairs if w == c)
        p = f"{tp / predicted:.2f}" if predicted else "-"
        r = f"{tp / support:.2f}" if support else "-"
        print(f"{c:<15}{p:>10}{r:>8}{support:>9}")
    if misses:
        print("misses:")
        print("\n".join(misses))
    return {"n": n, "top": top_ok / n, "full": full_ok / n, "title_f1": sum(f1s) / n}


def throughput(n: int, batch: int = 500) -> None:
    from generate import session_bytes, sessions  # noqa: PLC0415  (benchmarks/ is not a package)

    settings = default_settings()
    categorize_session(next(sessions(1, seed=1)), settings)  # build the matcher outside the timing
    elapsed = cpu = 0.0
    done = 0
    nbytes = 0
    gen = sessions(n, seed=7)
    while done < n:
        chunk = [next(gen) for _ in range(min(batch, n - done))]
        nbytes += sum(session_bytes(s) for s in chunk)
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        for msgs in chunk:
            categorize_session(msgs, settings)
            title(msgs)
            summary(msgs)
            entities(msgs)
        elapsed += time.perf_counter() - t0
        cpu += time.process_time() - c0
        done += len(chunk)
    print(
        f"\n== throughput: {n} generated sessions, mean {nbytes / n / 1000:.1f} KB, "
        f"categorize + title + summary + entities"
    )
    print(
        f"CPU time (one core): {n / cpu:,.0f} sessions/s   {nbytes / cpu / 1e6:.1f} MB/s   "
        f"{cpu * 1000 / n:.3f} ms/session"
    )
    print(
        f"wall clock:          {n / elapsed:,.0f} sessions/s   {nbytes / elapsed / 1e6:.1f} MB/s   "
        f"{elapsed * 1000 / n:.3f} ms/session"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="*", default=list(SETS), choices=list(SETS))
    ap.add_argument("--throughput", type=int, default=10_000, help="generated sessions to time (0: skip)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    results = {}
    for name in args.sets:
        if SETS[name].exists():
            results[name] = evaluate(name, load(SETS[name]), args.verbose)
    if len(results) > 1:
        print(f"\n== summary\n{'set':<10}{'sessions':>9}{'top-level':>11}{'full id':>9}{'title F1':>10}  use")
        for name, r in results.items():
            print(f"{name:<10}{r['n']:>9}{r['top']:>11.1%}{r['full']:>9.1%}{r['title_f1']:>10.3f}  {ROLE[name]}")
    if args.throughput:
        throughput(args.throughput)


if __name__ == "__main__":
    main()
