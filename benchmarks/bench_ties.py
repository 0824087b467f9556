"""Ties in search results (issue #18): their price on recall's path, and builds on two threads.

    python benchmarks/bench_ties.py --workdir /tmp/rh      # a recall_hard corpus, built if missing

Tantivy orders hits of equal score by document address. With two indexing threads the documents
land in segments in a varying order, so `Index` orders ties by a stable key of its own
(`smriti.index._tie_order`) and fetches a tie group cut by a search's limit whole (`_top`). This
prints:

1. the price: recall alone (`smriti.recall.recall`, warm, in-process) and `search()` on the same
   prompts, with the tie ordering and with the code before it (`_untied_*` below, a copy),
   interleaved prompt by prompt on the same index; the ratio of the medians;
2. the build: `Index.rebuild` with one and with two indexing threads, interleaved, 3 rounds each;
3. identity: recall (20 results, JSON) and search (`Index.search`, 200 hits; `smriti.search`, 10
   results) on every prompt, on indexes rebuilt with one thread and with two (several times), all
   compared with the first one-thread build; and the code before this change on that build (ties
   resolve as before on a one-segment index: it should be equal too).

Prompts: recall_hard's close / para / para2 questions and its unrelated prompts, each from its
project (speed and equality tune nothing).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import tantivy

sys.path.insert(0, str(Path(__file__).parent))

import smriti.index as smriti_index  # noqa: E402
from smriti import project as projects  # noqa: E402
from smriti.index import NO_HITS, Filters, Hit, HitColumns, Index  # noqa: E402
from smriti.recall import recall  # noqa: E402
from smriti.search import search  # noqa: E402
from smriti.store import Store  # noqa: E402

NOW = datetime(2026, 12, 1, tzinfo=UTC)
ANY = Filters()


# ---- the code before the tie ordering (a copy of Index.search / _run / addresses_any_of) ----------


def _untied_search(self: Index, text: str, filters: Filters = ANY, limit: int = 200) -> list[Hit]:
    query = self.build_query(self.analyze(text), filters)
    if query is None:
        return []
    searcher = self._searcher()
    result = searcher.search(query, limit=limit, count=False)
    if not result.hits:
        return []
    addrs = [addr for _, addr in result.hits]
    mids = searcher.fast_field_values("mid", addrs)
    sids = searcher.fast_field_values("sid", addrs)
    kids = searcher.fast_field_values("kid", addrs)
    return [
        Hit(score, int(m), int(s or 0), int(k or 0))
        for (score, _), m, s, k in zip(result.hits, mids, sids, kids, strict=True)
        if m is not None
    ]


def _untied_run(
    self: Index, text_q: tantivy.Query, filters: Filters, limit: int, *, addresses: bool = False
) -> HitColumns:
    query = self._text_and_filters(text_q, filters)
    if query is None:
        return NO_HITS
    searcher = self._searcher()
    result = searcher.search(query, limit=limit, count=False)
    if not result.hits:
        return NO_HITS
    addrs = [addr for _, addr in result.hits]
    return HitColumns(
        [score for score, _ in result.hits],
        searcher.fast_field_values("mid", addrs),
        searcher.fast_field_values("sid", addrs),
        searcher.fast_field_values("kid", addrs),
        searcher.fast_field_values("pid", addrs),
        [(a.segment_ord, a.doc) for a in addrs] if addresses else [],
        searcher.fast_field_values("prompt", addrs),
    )


def _untied_addresses(
    self: Index, groups: list[list[tuple[list[str], float]]], filters: Filters = ANY, limit: int = 200
) -> set[tuple[int, int]]:
    text_q = self._any_of_groups(groups)
    query = None if text_q is None else self._text_and_filters(text_q, filters)
    if query is None:
        return set()
    result = self._searcher().search(query, limit=max(limit, 1), count=False)
    return {(addr.segment_ord, addr.doc) for _, addr in result.hits}


TIED = {name: getattr(Index, name) for name in ("search", "_run", "addresses_any_of")}
UNTIED = {"search": _untied_search, "_run": _untied_run, "addresses_any_of": _untied_addresses}


def use(code: dict[str, Any]) -> None:
    for name, fn in code.items():
        setattr(Index, name, fn)


# ---- corpus and prompts ----------------------------------------------------------------------------


def build(work: Path, distractors: int) -> Path:
    data = work / "data"
    if (data / "smriti.db").exists():
        return data
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.ingest import ingest

    here = Path(__file__).parent
    gen = here / "recall_hard" / "generate.py"
    subprocess.run([sys.executable, str(gen), str(work / "corpus"), "--distractors", str(distractors)], check=True)
    with Store(data / "smriti.db") as store:
        roots = [work / "corpus" / "claude"]
        ingest(store, Index(data / "index"), load_registry(), UserConfig(), ["claude-code"], roots)
    return data


def prompts_of(work: Path) -> list[tuple[str, tuple[str, ...]]]:
    meta = json.loads((work / "corpus" / "queries.json").read_text())
    asked = [(q[k], q["cwd"]) for q in meta["queries"] for k in ("close", "para", "para2")]
    asked += [(u["prompt"], u["cwd"]) for u in meta["unrelated"]]
    out: list[tuple[str, tuple[str, ...]]] = []
    for text, cwd in asked:
        proj = projects.resolve(cwd)
        out.append((text, (proj.key,) if proj else ()))
    return out


# ---- measurements ------------------------------------------------------------------------------------


def outputs(store: Store, index: Index, prompts: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    out = []
    for text, keys in prompts:
        r = recall(store, index, text, project=keys, limit=20, now=NOW)
        hits = [(h.score, h.message_rowid, h.session_rowid, h.knowledge_rowid) for h in index.search(text, limit=200)]
        found = [(h.kind, h.id, h.score) for h in search(store, index, text, limit=10)]
        out.append(json.dumps([r.to_json(), r.context, hits, found], default=str, sort_keys=True))
    return out


def rebuild(store: Store, where: Path, threads: int) -> float:
    shutil.rmtree(where, ignore_errors=True)
    smriti_index.BUILD_THREADS = threads
    index = Index(where)
    t0 = time.perf_counter()
    index.rebuild(store)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--distractors", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5, help="price: passes over the prompts per code")
    ap.add_argument("--builds", type=int, default=3, help="identity: rebuilds per thread count")
    ap.add_argument("--price-only", action="store_true", help="only the price, on the builds a full run left")
    ap.add_argument("--cpu", action="store_true", help="price: this process's CPU time, not wall time")
    args = ap.parse_args()
    data = build(args.workdir, args.distractors)
    prompts = prompts_of(args.workdir)
    store = Store(data / "smriti.db")
    load = os.getloadavg()
    print(f"{len(prompts)} prompts; {store.stats()['messages']:,} messages; load {load[0]:.1f}", flush=True)

    # 2. builds, interleaved (one thread, two threads, ...); the first one-thread build is the reference
    base = args.workdir / "ties"
    times: dict[int, list[float]] = {1: [], 2: []}
    for r in range(0 if args.price_only else args.builds):
        for threads in (1, 2) if r % 2 == 0 else (2, 1):
            times[threads].append(rebuild(store, base / f"t{threads}-{r}", threads))
    if not args.price_only:
        print("| rebuild | median s | runs |")
        print("|---|---:|---|")
        for threads, ts in times.items():
            runs = ", ".join(f"{t:.2f}" for t in ts)
            print(f"| {threads} indexing thread(s) | {statistics.median(ts):.2f} | {runs} |")
        print(f"two threads / one: {statistics.median(times[2]) / statistics.median(times[1]):.2f}x", flush=True)
    clock = time.process_time if args.cpu else time.perf_counter

    # 1. price, on the one-thread build (today's index) and on a two-thread one
    for label, where in (("one-thread build", base / "t1-0"), ("two-thread build", base / "t2-0")):
        index = Index(where)
        samples: dict[str, list[float]] = {"tied": [], "untied": []}
        searches: dict[str, list[float]] = {"tied": [], "untied": []}
        for code in (TIED, UNTIED):  # warm
            use(code)
            for text, keys in prompts[:10]:
                recall(store, index, text, project=keys, now=NOW)
        codes = [("tied", TIED), ("untied", UNTIED)]
        for _ in range(args.rounds):
            for n, (text, keys) in enumerate(prompts):
                # each prompt's first run warms caches for the second: alternate which code goes first
                for name, code in codes if n % 2 else codes[::-1]:
                    use(code)
                    t0 = clock()
                    recall(store, index, text, project=keys, now=NOW)
                    samples[name].append((clock() - t0) * 1000)
                    t0 = clock()
                    search(store, index, text, limit=10)
                    searches[name].append((clock() - t0) * 1000)
        use(TIED)
        r_t, r_u = statistics.median(samples["tied"]), statistics.median(samples["untied"])
        s_t, s_u = statistics.median(searches["tied"]), statistics.median(searches["untied"])
        m_t, m_u = statistics.fmean(samples["tied"]), statistics.fmean(samples["untied"])
        print(
            f"{label}: recall alone p50 {r_t:.2f} ms with tie order vs {r_u:.2f} ms before ({r_t / r_u:.3f}x; "
            f"mean {m_t:.2f} vs {m_u:.2f}, {m_t / m_u:.3f}x); search() p50 {s_t:.2f} vs {s_u:.2f} ms "
            f"({s_t / s_u:.3f}x); {len(samples['tied'])} prompts each; {'CPU' if args.cpu else 'wall'} time; "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )

    if args.price_only:
        return
    # 3. identity
    reference = outputs(store, Index(base / "t1-0"), prompts)
    print("| index | prompts with output equal to the first one-thread build |")
    print("|---|---|")
    use(UNTIED)
    same = sum(a == b for a, b in zip(outputs(store, Index(base / "t1-0"), prompts), reference, strict=True))
    print(f"| first one-thread build, the code before (Tantivy's tie order) | {same}/{len(prompts)} |")
    use(TIED)
    for r in range(args.builds):
        for threads in (1, 2):
            if (threads, r) == (1, 0):
                continue
            index = Index(base / f"t{threads}-{r}")
            same = sum(a == b for a, b in zip(outputs(store, index, prompts), reference, strict=True))
            segs = index._index.searcher().num_segments
            print(f"| {threads} thread(s), build {r + 1} ({segs} segments) | {same}/{len(prompts)} |")
            if threads == 2:
                use(UNTIED)
                same = sum(a == b for a, b in zip(outputs(store, index, prompts), reference, strict=True))
                print(f"| the same, the code before | {same}/{len(prompts)} |")
                use(TIED)
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    store.close()


if __name__ == "__main__":
    main()
