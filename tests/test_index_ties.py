"""Hits of equal score come back in one order whatever the build: a stable key breaks ties, and a
tie group cut by a search's limit is fetched whole first (issue #18: two indexing threads).

A real store and real Tantivy indexes, rebuilt with one and with two indexing threads several
times; the corpus repeats messages, digests and knowledge sections word for word, so most hits tie.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

import smriti.index as smriti_index
from smriti.index import Filters, Index, _tie_order
from smriti.models import Message, Session
from smriti.recall import recall
from smriti.search import search
from smriti.store import Store
from smriti.team.knowledge import KnowledgeItem

NOW = datetime(2026, 12, 1, tzinfo=UTC)
TEXTS = [
    "the connection pool is exhausted under load",
    "retry the webhook once after a timeout",
    "the migration locks the orders table",
    "pool timeout while the migration runs",
    "css grid layout for the checkout page",
]
QUERIES = [
    "connection pool exhausted",
    "webhook retry timeout",
    "migration orders table lock",
    "pool timeout",
    "grid layout checkout",
    "why does the migration time out",
]


def build_store(path: Path) -> Store:
    store = Store(path)
    for s in range(60):
        project = f"proj{s % 3}"
        msgs = tuple(
            Message(
                role="user" if i % 2 == 0 else "assistant",
                text=TEXTS[(s + i) % len(TEXTS)] if i % 4 else TEXTS[i % len(TEXTS)],
                kind="prompt" if i % 2 == 0 else "response",
                key=f"n{s}-{i}",
                timestamp=f"2026-11-{1 + i % 28:02d}T00:00:00Z",
            )
            for i in range(16)
        )
        rowid = store.write_session(Session(agent="claude-code", native_id=f"n{s}", messages=msgs), project, project)
        store.save_digest(
            rowid.session_rowid,
            title=f"pool timeout during migration {s % 2}",
            summary=["the connection pool is exhausted under load"],
            entities={},
            confidence=1.0,
            scores={},
            settings="",
            scored_messages=16,
            files=(),
        )
    for k in range(12):
        item = KnowledgeItem(
            id=f"{k:016x}",
            title="Retry the webhook once",
            category="bug/fix",
            project="proj0",
            created="2026-11-20T10:31:00Z",
            body="## Summary\n- retry the webhook once after a timeout\n\n## Notes\nthe connection pool is exhausted\n",
        )
        store.upsert_knowledge(item, origin="sync", repo="proj0", path=f"k/{k}.md", blob=f"b{k}")
    return store


def outputs(store: Store, index: Index) -> str:
    out = []
    for q in QUERIES:
        out.append([(h.score, h.message_rowid, h.session_rowid, h.knowledge_rowid) for h in index.search(q, limit=37)])
        out.append([(h.kind, h.id, h.score) for h in search(store, index, q, limit=7)])
        for project in ((), ("proj0",)):
            out.append(recall(store, index, q, project=project, limit=20, now=NOW).to_json())
        best = index.search_best_of([(index.analyze(q), 1.0)], Filters(), limit=23)
        out.append([list(c) for c in best[:5]])
    return json.dumps(out, sort_keys=True, default=str)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = build_store(tmp_path_factory.mktemp("ties") / "s.db")
    yield s
    s.close()


def rebuilt(store: Store, where: Path, threads: int, monkeypatch: pytest.MonkeyPatch) -> Index:
    monkeypatch.setattr(smriti_index, "BUILD_THREADS", threads)
    index = Index(where)
    index.rebuild(store)
    return index


def test_builds_on_one_and_two_threads_answer_alike(store: Store, tmp_path: Path, monkeypatch) -> None:
    reference = outputs(store, rebuilt(store, tmp_path / "ref", 1, monkeypatch))
    segments = set()
    for n in range(3):
        for threads in (1, 2):
            index = rebuilt(store, tmp_path / f"t{threads}-{n}", threads, monkeypatch)
            if threads == 2:
                segments.add(index._index.searcher().num_segments)
            assert outputs(store, index) == reference, (threads, n)
    assert max(segments) >= 2  # the two threads did split the documents (else this test proves nothing)


def test_ties_are_ordered_by_key_and_a_cut_group_keeps_its_first_keys(
    store: Store, tmp_path: Path, monkeypatch
) -> None:
    one = rebuilt(store, tmp_path / "one", 1, monkeypatch)
    two = rebuilt(store, tmp_path / "two", 2, monkeypatch)
    everything = one.search("pool timeout", limit=100_000)
    for limit in (1, 5, 17, 40, 41, 100):
        for index in (one, two):
            hits = index.search("pool timeout", limit=limit)
            assert hits == everything[:limit]
    # best first; equal scores: messages by rowid, then digests by session, then knowledge items
    rank = [(h.message_rowid <= 0) + (h.message_rowid == 0) for h in everything]
    keys = [(-h.score, r, abs(h.message_rowid), h.knowledge_rowid) for h, r in zip(everything, rank, strict=True)]
    assert keys == sorted(keys)
    assert len({h.score for h in everything}) < len(everything) / 4  # most hits do tie


def test_addresses_of_a_cut_group_are_its_first_keys(store: Store, tmp_path: Path, monkeypatch) -> None:
    for threads in (1, 2):
        index = rebuilt(store, tmp_path / f"a{threads}", threads, monkeypatch)
        groups = [[(index.analyze("webhook"), 1.0)]]
        with index.pinned():
            full = index.search_best_of(groups[0], limit=100_000, addresses=True)
            for limit in (3, 10, 30):
                got = index.addresses_any_of(groups, limit=limit)
                assert got == set(full.addrs[:limit])


def test_tie_order_is_none_when_tantivy_already_has_it() -> None:
    assert _tie_order([3.0, 2.0, 1.0], [5, 1, 9], [0, 0, 0], [0, 0, 0]) is None  # no ties
    assert _tie_order([2.0, 2.0, 1.0], [1, 5, 9], [0, 0, 0], [0, 0, 0]) is None  # ties in rowid order
    assert _tie_order([2.0, 2.0, 1.0], [5, 1, 9], [0, 0, 0], [0, 0, 0]) == [1, 0, 2]
    # message, digest (-session), knowledge item sections; all tie
    assert _tie_order([1.0] * 5, [0, -3, 7, 0, -2], [4, 0, 0, 2, 0], [1, -1, 0, 0, -1]) == [2, 4, 1, 3, 0]
