"""Recall's search plan on a real store and index (the examples' two projects): the shortcut that
replaces one search per concept within the asking project by one search for the project's
addresses returns exactly what those searches returned, and a recall sees one commit."""

from __future__ import annotations

from conftest import EXAMPLES, invoke_json

from smriti import paths
from smriti.index import INACTIVE_STATUSES, Filters, HitColumns, Index
from smriti.recall import LOCAL_PER_TERM, PER_TERM_BESIDE_PROJECT, _only, recall
from smriti.search import asking_project
from smriti.store import Store

PAYMENTS = "/home/dev/payments-api"
CANDIDATE_WORDS = "pool connect alembic migrat test error sql compon render fix file timeout bug react api".split()


def _rows(hits: HitColumns) -> list[tuple]:
    return list(zip(hits.scores, hits.mids, hits.sids, hits.kids, hits.pids, strict=True))


def test_hits_within_the_project_equal_a_search_within_it(runner) -> None:
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code"))
    store = Store(paths.db_path())
    index = Index(paths.index_dir())
    project = asking_project(store, None, PAYMENTS)
    everywhere = Filters(exclude_statuses=INACTIVE_STATUSES)
    in_project = Filters(exclude_statuses=INACTIVE_STATUSES, projects=project)
    narrowed = 0
    with index.pinned():
        df = index.doc_freqs(CANDIDATE_WORDS)
        words = [w for w in CANDIDATE_WORDS if 0 < df[w] < PER_TERM_BESIDE_PROJECT]  # searches that are exhaustive
        assert len(words) >= 8
        channels = [[([w], 1.0)] for w in words] + [[([words[0]], 1.0), ([words[1]], 0.7)], [(words[2:4], 1.0)]]
        addresses = index.addresses_any_of(channels, in_project, limit=sum(df.values()) * 2)
        for alternatives in channels:
            found = index.search_best_of(alternatives, everywhere, PER_TERM_BESIDE_PROJECT, addresses=True)
            mine = index.search_best_of(alternatives, in_project, LOCAL_PER_TERM)
            assert _rows(_only(found, addresses)) == _rows(mine)
            narrowed += len(mine.scores) < len(found.scores)
    assert narrowed  # the other project's documents were there, and left out
    # And recall itself, asked from either project, ranks that project's session first.
    assert recall(store, index, "connection pool exhausted", project=project).results[0].project == "payments-api"
    store.close()


def test_a_pinned_index_sees_one_commit(runner, tmp_path) -> None:
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code" / "-home-dev-payments-api"))
    index = Index(paths.index_dir())
    before = index.num_docs()
    with index.pinned():
        invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code" / "-home-dev-web-frontend"))
        index._index.reload()  # what a reader does when another process commits
        assert index.num_docs() == before
    assert index.num_docs() > before
