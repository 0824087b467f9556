"""The Tantivy index fed from a real store: outbox, filters, analyzer, rebuild, schema version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.index import SCHEMA_VERSION, VERSION_FILE, Filters, Index
from smriti.models import Message, Session
from smriti.store import Store


def write(
    store: Store, native: str, texts: list[str], project: str = "proj", agent: str = "claude-code", kind: str = "prompt"
) -> int:
    msgs = tuple(
        Message(role="user", text=t, kind=kind, key=f"{native}-{i}", timestamp=f"2026-11-{10 + i:02d}T00:00:00Z")
        for i, t in enumerate(texts)
    )
    return store.write_session(Session(agent=agent, native_id=native, messages=msgs), project, project).session_rowid


@pytest.fixture
def env(tmp_path: Path):
    store = Store(tmp_path / "s.db")
    index = Index(tmp_path / "index")
    yield store, index
    store.close()


def test_outbox_drains_into_the_index(env) -> None:
    store, index = env
    a = write(store, "a", ["the connection pool is exhausted under load"])
    write(store, "b", ["css grid layout for the checkout page"])
    assert store.outbox_size() == 2
    assert index.sync(store) == 2
    assert store.outbox_size() == 0
    hits = index.search("pool exhaustion")
    assert [h.session_rowid for h in hits] == [a]


def test_query_text_goes_through_the_analyzer_not_the_parser(env) -> None:
    store, index = env
    a = write(store, "a", ['Error: project:x "unbalanced quote AND OR ( title:'])
    index.sync(store)
    for q in ['"unbalanced', "project:x", "AND OR (", "title:", ")))", "*", "-"]:
        index.search(q)  # never raises
    assert [h.session_rowid for h in index.search('project:x "unbalanced')] == [a]


def test_stemming_matches_word_forms(env) -> None:
    store, index = env
    a = write(store, "a", ["we were migrating the databases"])
    index.sync(store)
    assert [h.session_rowid for h in index.search("migration database")] == [a]


def test_filters_are_inside_the_query(env) -> None:
    store, index = env
    # Many strong matches in another project must not push the filtered one out of the top-k.
    for i in range(30):
        write(store, f"noise{i}", ["deadlock deadlock deadlock in worker"], project="other")
    target = write(store, "t", ["a deadlock once"], project="mine")
    index.sync(store)
    hits = index.search("deadlock", Filters(projects=("mine",)), limit=5)
    assert [h.session_rowid for h in hits] == [target]
    assert index.search("deadlock", Filters(projects=())) == []
    assert index.search("deadlock", Filters(agents=("codex",))) == []


def test_injected_context_is_never_indexed(env) -> None:
    store, index = env
    write(store, "a", ["<smriti-context>recalled zebrafish note</smriti-context>"], kind="injected_context")
    index.sync(store)
    assert index.search("zebrafish") == []


def test_changed_message_replaces_its_document(env) -> None:
    store, index = env
    msg = lambda text: Message(role="assistant", text=text, kind="response", key="r1")  # noqa: E731
    store.write_session(
        Session(agent="claude-code", native_id="a", messages=(msg("first draft about kafka"),)), "p", "p"
    )
    index.sync(store)
    store.write_session(
        Session(agent="claude-code", native_id="a", messages=(msg("final answer about rabbitmq"),)), "p", "p"
    )
    index.sync(store)
    assert index.search("kafka") == []
    assert len(index.search("rabbitmq")) == 1
    assert index.num_docs() == 1


def test_deleted_session_leaves_the_index(env) -> None:
    store, index = env
    write(store, "a", ["unique term zanzibar"])
    index.sync(store)
    store.delete_session("claude-code", "a")
    index.sync(store)
    assert index.search("zanzibar") == []


def test_rebuild_reproduces_the_same_results(env, tmp_path: Path) -> None:
    store, index = env
    for i in range(10):
        write(store, f"s{i}", [f"message number {i} about topic{i % 3}"])
    index.sync(store)
    before = [(h.message_rowid, round(h.score, 4)) for h in index.search("topic1")]
    assert index.rebuild(store) == 10
    after = [(h.message_rowid, round(h.score, 4)) for h in index.search("topic1")]
    assert before == after


def test_schema_version_mismatch_triggers_a_rebuild(env, tmp_path: Path) -> None:
    store, index = env
    write(store, "a", ["persistent volume claim"])
    index.sync(store)
    (tmp_path / "index" / VERSION_FILE).write_text(json.dumps({"schema_version": SCHEMA_VERSION - 1}))
    reopened = Index(tmp_path / "index")
    assert reopened.needs_rebuild
    assert reopened.search("volume") == []
    reopened.sync(store)  # sync notices and rebuilds from the store
    assert len(reopened.search("volume")) == 1


def test_a_garbage_index_folder_is_rebuilt(env, tmp_path: Path) -> None:
    store, _ = env
    write(store, "a", ["kubernetes ingress"])
    broken = tmp_path / "broken-index"
    broken.mkdir()
    (broken / "meta.json").write_text("{not json")
    (broken / VERSION_FILE).write_text(json.dumps({"schema_version": SCHEMA_VERSION}))
    index = Index(broken)
    assert index.needs_rebuild
    index.sync(store)
    assert len(index.search("ingress")) == 1


def test_long_messages_are_chunked_but_resolve_to_one_message(env) -> None:
    store, index = env
    text = ("filler words here " * 2000) + " needle-in-haystack"
    write(store, "a", [text])
    index.sync(store)
    hits = index.search("needle haystack")
    assert len({h.message_rowid for h in hits}) == 1
    assert index.num_docs() > 1


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_any_query_text_is_safe(tmp_path_factory, query: str) -> None:
    d = tmp_path_factory.mktemp("q")
    index = Index(d / "index")
    index.search(query)  # never raises, whatever the user types


def test_a_drain_that_commits_on_its_time_bound_applies_everything_once(env, monkeypatch) -> None:
    # A long outbox drain commits every COMMIT_SECONDS; with a bound of zero it commits after every
    # batch, and everything still arrives exactly once.
    import smriti.index as index_module

    store, index = env
    index.sync(store)  # built, empty: what follows goes through the outbox
    monkeypatch.setattr(index_module, "COMMIT_SECONDS", 0.0)
    first = write(store, "a", ["volume claim one"])
    second = write(store, "b", ["volume claim two", "another volume"])
    assert index.sync(store) >= 2
    assert store.outbox_size() == 0
    assert sorted(h.session_rowid for h in index.search("volume", limit=10)) == [first, second, second]
    assert index.sync(store) == 0  # nothing left, nothing applied twice
    assert index.num_docs() == 3
