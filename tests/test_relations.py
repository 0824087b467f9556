"""Relations between sessions (`Enricher._relate`): a newer session that supersedes or relates to an older one.

The enricher keeps the titles and files of the sessions it compares with (those it saved, and those
read once); a run must record the very relations that a fresh enricher, reading everything from the
store, records for the same sessions.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from smriti.digest.apply import Enricher, title_similarities
from smriti.models import Message, Session
from smriti.store import Store

TITLES = [
    "fix the flaky login test in the auth module",
    "fix the flaky login test in auth again",
    "the login test is flaky: fix the auth module",
    "fix the flaky signup test in the auth module",
    "rename the billing columns in the invoices table",
]


def _session(n: int, title: str, files: list[str], day: int) -> Session:
    messages = [Message("user", title, "prompt", f"p{n}", timestamp=f"2025-01-{day:02d}T10:00:00.000Z")]
    for i, path in enumerate(files):
        messages.append(
            Message(
                "assistant",
                f"Edit {path}",
                "tool_call",
                f"t{n}-{i}",
                tool_name="Edit",
                tool_input={"file_path": path, "old_string": "a", "new_string": "b"},
                files=(path,),
            )
        )
    messages.append(Message("assistant", "Fixed the flaky test; it passes now.", "response", f"r{n}"))
    stamp = f"2025-01-{day:02d}T10:00:00.000Z"
    return Session("claude-code", f"s{n}", tuple(messages), cwd="/work/app", started_at=stamp, ended_at=stamp)


def _relations(store: Store) -> list[tuple]:
    return list(
        store.conn.execute("select session, other, relation, round(score, 9) from session_relations order by 1, 2")
    )


def _store_all(path: Path, one_enricher: bool, *, bulk: bool = False) -> list[tuple]:
    store = Store(path)
    files = [["src/auth/login.py", "tests/test_login.py"], ["src/auth/login.py"], ["tests/test_login.py"], [], []]
    days = [3, 5, 1, 7, 2]  # out of order: an older session arriving later is related by the newer one
    enricher = Enricher(store)
    with store.bulk() if bulk else nullcontext():  # bulk, into an empty store: a first load
        for n, (title, touched, day) in enumerate(zip(TITLES, files, days, strict=True)):
            written = store.write_session(_session(n, title, touched, day), "github.com/acme/app", "app")
            (enricher if one_enricher else Enricher(store)).enrich(store.session_row(written.session_rowid))
    relations = _relations(store)
    store.close()
    return relations


def test_a_run_relates_sessions_as_a_fresh_enricher_does(tmp_path: Path) -> None:
    kept = _store_all(tmp_path / "one.db", one_enricher=True)
    fresh = _store_all(tmp_path / "fresh.db", one_enricher=False)
    assert kept == fresh
    assert len(kept) >= 3  # the flaky-login sessions relate to each other; the billing one to none
    assert all(5 not in (session, other) for session, other, _, _ in kept)  # rowid 5: the billing one


def test_a_first_load_relates_sessions_as_an_ordinary_run_does(tmp_path: Path) -> None:
    # a first load asks for candidates without reading their digests (every session it holds has one)
    first = _store_all(tmp_path / "first.db", one_enricher=True, bulk=True)
    assert first == _store_all(tmp_path / "ordinary.db", one_enricher=True) and len(first) >= 3


def test_a_first_load_into_a_store_with_sessions_compares_only_those_with_a_digest(tmp_path: Path) -> None:
    # A store with a session but no message is still empty enough for a first load; that session
    # has a category but no digest (made so here; forget leaves such rows in older stores), so
    # it is no candidate: the digest join stays.
    store = Store(tmp_path / "s.db")
    bare = store.write_session(Session("claude-code", "bare", (), cwd="/work/app"), "github.com/acme/app", "app")
    enricher = Enricher(store)
    with store.bulk():
        written = store.write_session(_session(0, TITLES[0], [], 3), "github.com/acme/app", "app")
        enricher.enrich(store.session_row(written.session_rowid))
        category = store.session_row(written.session_rowid).category
        assert category not in (None, "uncategorized")
        store.set_rule_tags(bare.session_rowid, [(category, 0.9)], category)
        later = store.write_session(_session(1, TITLES[1], [], 5), "github.com/acme/app", "app")
        enricher.enrich(store.session_row(later.session_rowid))
        candidates = store.relation_candidates(later.session_rowid, "github.com/acme/app", category)
    assert [rowid for rowid, _ in candidates] == [written.session_rowid]
    store.close()


def test_a_digest_saved_again_is_compared_with_as_saved(tmp_path: Path) -> None:
    # the enricher's copy follows a session's digest when the session is enriched again with new files
    store = Store(tmp_path / "s.db")
    enricher = Enricher(store)
    first = store.write_session(_session(0, TITLES[0], [], 1), "github.com/acme/app", "app")
    enricher.enrich(store.session_row(first.session_rowid))
    grown = _session(0, TITLES[0], ["src/auth/login.py", "tests/test_login.py"], 1)
    store.write_session(grown, "github.com/acme/app", "app")
    enricher.enrich(store.session_row(first.session_rowid), full=True)
    second = store.write_session(
        _session(1, TITLES[1], ["src/auth/login.py", "tests/test_login.py"], 2), "github.com/acme/app", "app"
    )
    enricher.enrich(store.session_row(second.session_rowid))
    with_copy = _relations(store)
    store.conn.execute("delete from session_relations")
    Enricher(store).enrich(store.session_row(second.session_rowid))
    assert with_copy == _relations(store) and with_copy


# Titles as sessions get them: words, punctuation, case, accents and other scripts, blanks.
_TITLE_TEXT = st.text(alphabet=st.sampled_from("ab cd EF\u00e9\u4e2d\t1.-:/_"), max_size=24)


@settings(max_examples=300, deadline=None)
@given(_TITLE_TEXT, st.lists(_TITLE_TEXT, max_size=8))
def test_title_similarities_are_token_set_ratio_one_by_one(title: str, others: list[str]) -> None:
    # One rapidfuzz call for all of a session's candidates gives each the score _relate used to ask
    # for one at a time; a reordered or missed candidate fails here.
    assert title_similarities(title, others) == [fuzz.token_set_ratio(title, other) for other in others]


_CANDIDATES_SQL = (
    "select s.id, coalesce(s.ended_at, s.started_at) from sessions s where s.project = ? and s.category = ? "
    "and s.id != ? order by coalesce(s.ended_at, s.started_at) desc limit ?"
)


_STAMPS = [None, "", "2025-01-01T10:00:00Z", "2025-01-02T10:00:00Z", "2025-01-03T09:00:00Z"]
_APP, _WEB = "github.com/acme/app", "github.com/acme/web"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            # (started, ended): no time at all often, so NULL times meet others in one category
            st.sampled_from([(None, None), (None, None)] + [(a, b) for a in _STAMPS[1:] for b in (None, _STAMPS[3])]),
            st.sampled_from(["code/bug", "code/bug", "code/review", "uncategorized"]),
            st.sampled_from([_APP, _APP, _WEB, None]),
            st.sampled_from(["write", "write", "write again", "delete"]),
        ),
        min_size=1,
        max_size=45,
    )
)
@example([((None, None), "code/bug", _APP, "write"), ((_STAMPS[2], None), "code/bug", _APP, "write")])  # NULL last
@example([((_STAMPS[2], None), "code/bug", _APP, "write")] * 2)  # equal times: the newer rowid first
@example(  # a session written again moves: its time grows past the other's
    [((_STAMPS[2], None), "code/bug", _APP, "write"), ((_STAMPS[3], None), "code/bug", _APP, "write")]
    + [((_STAMPS[4], None), "code/bug", _APP, "write again")]
)
@example([((_STAMPS[2], None), "code/bug", _APP, "write")] * 2 + [((None, None), "code/review", _APP, "write again")])
@example([((None, None), "code/bug", _APP, "write"), ((None, None), "code/bug", _APP, "delete")] * 2)
@example([((_STAMPS[n % 5], None), "code/bug", _APP, "write") for n in range(40)])  # past the limit
def test_a_first_load_answers_candidates_as_the_index_query_does(tmp_path_factory, steps) -> None:
    """A first load answers `relation_candidates` from memory (`FirstLoad.candidates`): the sessions
    its query would find, in its order (ties of time by rowid, newest first; NULL times last), after
    writes that move a session's time, project or category, and deletions (whose rowid the next
    new session takes again). Up to 45 sessions in three categories: past the limit of 30."""
    store = Store(tmp_path_factory.mktemp("load") / "s.db")
    names: list[str] = []
    with store.bulk():
        # The load drops the index the query reads (`DEFERRED_INDEXES`): here it is built at once,
        # so the query answers in its order, which the memory must keep (a scan orders ties otherwise).
        assert store._first_load is not None and "sessions_related" in store._first_load.deferred_indexes
        store._undefer_index(store._first_load, "sessions_related")
        for n, ((started, ended), category, project, op) in enumerate(steps):
            name = names[n % len(names)] if op != "write" and names else f"s{n}"
            if op == "delete":
                store.delete_session("claude-code", name)
                continue
            names.append(name)
            stamp = ended or started or "2025-01-01T00:00:00Z"
            message = Message("user", f"prompt {n}", "prompt", f"k{n}", timestamp=stamp)
            session = Session("claude-code", name, (message,), started_at=started, ended_at=ended)
            written = store.write_session(session, project, project and "app")
            store.set_rule_tags(written.session_rowid, [(category, 0.9)], category)
            for rowid, project_, category_ in store.conn.execute("select id, project, category from sessions"):
                if not project_ or category_ == "uncategorized":
                    continue
                want = list(store.conn.execute(_CANDIDATES_SQL, (project_, category_, rowid, 30)))
                assert store.relation_candidates(rowid, project_, category_) == want
        assert store._first_load is not None and store._first_load._related is not None  # from memory throughout
    store.close()


def test_a_first_load_whose_memory_gives_up_asks_the_index_again(tmp_path: Path) -> None:
    """A time that is not ASCII (SQLite and Python might order it apart) ends the memory of
    candidates: from then on the query answers, over the sessions_related index built again."""
    store = Store(tmp_path / "s.db")
    stamps = ["2025-01-02T10:00:00Z", "2025-01-03T10:00:00Z\u00e9", "2025-01-01T10:00:00Z"]
    with store.bulk():
        load = store._first_load
        assert load is not None and "sessions_related" in load.deferred_indexes
        for n, stamp in enumerate(stamps):
            message = Message("user", f"prompt {n}", "prompt", f"k{n}", timestamp=stamp)
            session = Session("claude-code", f"s{n}", (message,), started_at=stamp, ended_at=stamp)
            written = store.write_session(session, "github.com/acme/app", "app")
            store.set_rule_tags(written.session_rowid, [("code/bug", 0.9)], "code/bug")
        assert load.candidates(3, "github.com/acme/app", "code/bug", 30) is None  # given up
        assert store.relation_candidates(3, "github.com/acme/app", "code/bug") == [
            (2, stamps[1]),
            (1, stamps[0]),
        ]
        assert "sessions_related" not in load.deferred_indexes
        plan = store.conn.execute("explain query plan " + _CANDIDATES_SQL, ("p", "c", 0, 30)).fetchall()
        assert "sessions_related" in str(plan)
    store.close()
