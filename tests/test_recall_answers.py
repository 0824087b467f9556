"""Recall that answers the prompt, through the real CLI on a real store and index: the injected block
holds the passage that matched (not only a summary), a session is ranked by its best passages
rather than its length, the floor decides the same on a two-item store as on a large one, search
sees team knowledge, time words and long prompts."""

from __future__ import annotations

import dataclasses
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import EXAMPLES, invoke, invoke_json
from hypothesis import given
from hypothesis import strategies as st
from test_recall import item, team_repo

from smriti import paths
from smriti.index import Index
from smriti.recall import QUERY_MAX_CHARS, cut_query, recall
from smriti.store import Store
from smriti.timewords import time_window, time_words

PROJECT = "/home/dev/payments-api"
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

ROUTINE = [
    ("Bash", "git status", "On branch main\nnothing to commit, working tree clean"),
    ("Read", "src/payments/api.py", "from fastapi import APIRouter\nrouter = APIRouter()\n"),
    ("Bash", "pytest -q", "........................ 24 passed in 3.1s"),
    ("Grep", "def charge", "src/payments/charges.py:12:def charge(amount, currency):"),
    ("Read", "README.md", "# payments-api\nThe service that charges cards.\n"),
]
CHATTER = [
    "Looks good, thanks.",
    "Let's keep going with the refactor of the charges module.",
    "Run the tests again please.",
    "Can you tidy up the imports in api.py?",
]


class Transcript:
    """A Claude Code JSONL transcript, written the way Claude Code writes one."""

    def __init__(self, native_id: str, start: datetime, cwd: str = PROJECT):
        self.native_id, self.t, self.cwd = native_id, start, cwd
        self.parent: str | None = None
        self.lines: list[str] = []
        self.n = 0

    def _emit(self, kind: str, message: dict) -> None:
        self.n += 1
        self.t += timedelta(seconds=20)
        uid = f"{self.native_id[:8]}-0000-4000-8000-{self.n:012d}"
        rec = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.native_id,
            "version": "2.1.40",
            "gitBranch": "main",
            "type": kind,
            "message": message,
            "uuid": uid,
            "timestamp": self.t.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        }
        self.parent = uid
        self.lines.append(json.dumps(rec))

    def user(self, text: str) -> None:
        self._emit("user", {"role": "user", "content": text})

    def assistant(self, text: str) -> None:
        self._emit("assistant", {"role": "assistant", "model": "m", "content": [{"type": "text", "text": text}]})

    def tool(self, name: str, arg: str, output: str) -> None:
        tid = f"toolu_{self.n:020d}"
        key = {"Bash": "command", "Read": "file_path", "Grep": "pattern"}[name]
        content = [{"type": "tool_use", "id": tid, "name": name, "input": {key: arg}}]
        self._emit("assistant", {"role": "assistant", "model": "m", "content": content})
        self._emit(
            "user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid, "content": output}]}
        )

    def routine(self, rng: random.Random, turns: int) -> None:
        for _ in range(turns):
            self.user(rng.choice(CHATTER))
            for step in rng.sample(ROUTINE, 3):
                self.tool(*step)
            self.assistant("Done: the tests pass and the working tree is clean.")

    def write(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{self.native_id}.jsonl").write_text("\n".join(self.lines) + "\n")


NEEDLE = "11111111-2222-4333-8444-555555555555"


def needle_session(folder: Path, rng: random.Random) -> None:
    """A long session whose answer (port 54329) sits in one turn in the middle, far from its summary."""
    t = Transcript(NEEDLE, datetime(2026, 10, 2, 9, tzinfo=UTC))
    t.user("Please set up the local development environment for the payments service.")
    t.routine(rng, 6)
    t.user("The payments database container will not start on my laptop: port 5432 is already taken.")
    t.tool("Bash", "docker compose ps", "payments-db   Exit 1   bind: address already in use")
    t.assistant(
        "Another Postgres already listens on 5432 on developer laptops. I mapped the payments database "
        "container to host port 54329 in docker-compose.yml, and DATABASE_URL in .env.example now points at "
        "localhost:54329."
    )
    t.routine(rng, 6)
    t.write(folder)


def long_distractor(folder: Path, rng: random.Random, n: int) -> None:
    """A long session that mentions every word of the question somewhere, never together."""
    t = Transcript(f"99999999-0000-4000-8000-{n:012d}", datetime(2026, 10, 5 + n, 9, tzinfo=UTC))
    t.user("Bump the dependencies of the payments service and fix what breaks.")
    for line in (
        "The local cache of npm packages was stale.",
        "Which version of the container base image do we use? The database driver needs an upgrade.",
        "The docs mention developer laptops need more memory for the test suite.",
        "This port of the retry helper from the old service is done.",
    ):
        t.routine(rng, 3)
        t.assistant(line)
    t.routine(rng, 3)
    t.write(folder)


@pytest.fixture
def long_sessions(runner, tmp_path: Path) -> Path:
    rng = random.Random(7)
    folder = tmp_path / "claude" / "-home-dev-payments-api"
    needle_session(folder, rng)
    for n in range(6):
        long_distractor(folder, rng, n)
    invoke_json(runner, "ingest", "--path", str(tmp_path / "claude"))
    return tmp_path


def test_block_holds_the_passage_that_answers(runner, long_sessions) -> None:
    question = "which local port does the payments database container use on developer laptops"
    out = invoke_json(runner, "recall", question, "--project", PROJECT)
    assert out["results"][0]["native_id"] == NEEDLE  # its best passage wins, not the longest session
    block = out["context"]
    assert "54329" in block
    # the matching sentence comes before the session's summary
    assert block.index("54329") < block.index("Summary:") if "Summary:" in block else True


def test_search_ranks_the_needle_session_first(runner, long_sessions) -> None:
    hits = invoke_json(runner, "search", "payments database container port laptops", "--kind", "session")
    assert hits[0]["native_id"] == NEEDLE and hits[0]["kind"] == "session"


# ---- the floor -----------------------------------------------------------------------------------

POOL_FIX = item(
    "Fix PoolTimeout under load in the payments API",
    "Goal: stop PoolTimeout errors under load. Found: the error path in charge_card() never returned its "
    "connection; fixed with `with pool.connection()` and max_size raised to 20.",
    category="bug/fix",
)
EXPORT = item(
    "Add an Export button to the transactions page",
    "Goal: Add an Export button to the transactions page so finance can download CSVs.",
    category="feature",
)
EXPORT_DETAILS = "## Details\nThe export runs in a background job and is capped at 25000 rows per file; larger\n"
EXPORT_DETAILS += "selections are split into several files named by date range.\n"


def two_item_repo(tmp_path: Path) -> Path:
    export = dataclasses.replace(EXPORT, body=EXPORT.body + "\n" + EXPORT_DETAILS)
    return team_repo(tmp_path / "payments", [POOL_FIX, export])


def test_fresh_teammate_with_two_synced_items_gets_the_right_one(runner, tmp_path) -> None:
    repo = two_item_repo(tmp_path)
    assert invoke_json(runner, "sync", "--repo", str(repo))["imported"] == 2
    question = "we get PoolTimeout errors under load in the payments API, what was the fix last time?"
    out = invoke_json(runner, "recall", question, "--project", str(repo))
    assert [r["id"] for r in out["results"]][:1] == [POOL_FIX.id]
    assert "pool.connection()" in out["context"]


def test_knowledge_item_shows_its_matching_section(runner, tmp_path) -> None:
    repo = two_item_repo(tmp_path)
    invoke_json(runner, "sync", "--repo", str(repo))
    out = invoke_json(runner, "recall", "how many rows can one transactions export file hold?", "--project", str(repo))
    assert out["results"][0]["id"] == EXPORT.id
    assert "capped at 25000 rows" in out["context"]


UNRELATED = [
    "write a haiku about autumn leaves",
    "how do I reverse a linked list in rust",
    "what's the difference between a crocodile and an alligator",
    "remind me what we talked about in our previous conversation",
]


@pytest.mark.parametrize("prompt", UNRELATED)
def test_unrelated_prompt_stays_quiet_on_a_two_item_store(runner, tmp_path, prompt: str) -> None:
    repo = two_item_repo(tmp_path)
    invoke_json(runner, "sync", "--repo", str(repo))
    assert invoke_json(runner, "recall", prompt, "--project", str(repo)) == {"context": "", "results": []}


@pytest.mark.parametrize("prompt", UNRELATED)
def test_unrelated_prompt_stays_quiet_on_a_larger_store(runner, long_sessions, prompt: str) -> None:
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code"))
    assert invoke_json(runner, "recall", prompt, "--project", PROJECT) == {"context": "", "results": []}


def test_meta_words_are_not_concepts(runner) -> None:
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code"))
    prompt = "remind me what you told me in our previous conversation about the connection pool being exhausted"
    out = invoke_json(runner, "recall", prompt, "--project", PROJECT)
    assert out["results"] and out["results"][0]["title"] == "Fix connection pool exhaustion under load"


# A store full of general programming talk: every session says "python", "decorators", "memory" and
# "stack" together, as a team's sessions do; one of them also holds a fact of the team's own world.
GENERAL_TALK = [
    "The python decorators in utils.py wrap every function; memory usage of the test run is fine.",
    "The stack trace showed the python function that the decorators wrap; memory stayed flat.",
    "Reading the python script again: decorators, a small stack of helpers, nothing heavy on memory.",
]
GUNICORN = "22222222-3333-4444-8555-666666666666"


@pytest.fixture
def general_talk(runner, tmp_path: Path) -> Path:
    rng = random.Random(11)
    folder = tmp_path / "claude" / "-home-dev-payments-api"
    for n in range(12):
        t = Transcript(
            GUNICORN if n == 0 else f"88888888-0000-4000-8000-{n:012d}", datetime(2026, 10, 1 + n, 9, tzinfo=UTC)
        )
        t.user("Tidy up the payments service.")
        for line in GENERAL_TALK:
            t.routine(rng, 2)
            t.assistant(line)
        if n == 0:
            t.user("Postgres runs out of connections when gunicorn scales up, what pool size should each worker get?")
            t.assistant("Each gunicorn worker now gets a pool of max_size=6, so 8 workers stay under 50 connections.")
        t.write(folder)
    invoke_json(runner, "ingest", "--path", str(tmp_path / "claude"))
    return tmp_path


@pytest.mark.parametrize(
    "prompt",
    [
        "what are python decorators",
        "what is the difference between stack and memory in python",
        "how do decorators wrap a python function",
    ],
)
def test_general_question_stays_quiet_on_a_store_full_of_its_words(runner, general_talk, prompt: str) -> None:
    # Every session holds the question's words in one passage: that is no evidence the store answers it.
    assert invoke_json(runner, "recall", prompt, "--project", PROJECT) == {"context": "", "results": []}


def test_specific_question_is_answered_on_the_same_store(runner, general_talk) -> None:
    out = invoke_json(runner, "recall", "what pool size per gunicorn worker did we settle on", "--project", PROJECT)
    assert out["results"][0]["native_id"] == GUNICORN
    assert "max_size=6" in out["context"]


def test_general_words_are_not_anchors() -> None:
    from smriti.recall import _is_general

    assert _is_general("python") and _is_general("function") and _is_general("memori")
    assert _is_general("c") and _is_general("b")  # "c++", "b-tree": one letter says nothing
    assert not _is_general("gunicorn") and not _is_general("museum") and not _is_general("pgbouncer")
    assert not _is_general("python gunicorn")  # a phrase is specific when one of its words is


def test_counting_words_are_not_concepts(tmp_path: Path) -> None:
    from smriti.recall import query_concepts

    index = Index(paths.index_dir(tmp_path / "data"))
    words = [next(iter(c.terms)) for c in query_concepts(index, "what is the order of the six museums I visited")]
    assert "six" not in words and "museum" in words


# ---- search over team knowledge ------------------------------------------------------------------


def test_search_returns_knowledge_and_filters_by_kind(runner, tmp_path) -> None:
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code"))
    repo = two_item_repo(tmp_path)
    invoke_json(runner, "sync", "--repo", str(repo))
    hits = invoke_json(runner, "search", "PoolTimeout", "--json")
    kinds = {(h["kind"], h["id"]) for h in hits}
    assert ("knowledge", POOL_FIX.id) in kinds
    assert any(k == "session" for k, _ in kinds)
    team = [h for h in hits if h["kind"] == "knowledge"][0]
    assert team["session_id"] is None and team["author"] == "alice" and team["path"].endswith(".md")
    only = invoke_json(runner, "search", "PoolTimeout", "--kind", "knowledge", "--json")
    assert [h["id"] for h in only] == [POOL_FIX.id]
    assert all(h["kind"] == "session" for h in invoke_json(runner, "search", "PoolTimeout", "--kind", "session"))
    plain = invoke(runner, "search", "capped rows export").stdout
    assert EXPORT.id in plain and "knowledge" in plain
    listed = invoke_json(runner, "knowledge", "--json")
    assert {k["id"] for k in listed} == {POOL_FIX.id, EXPORT.id}
    assert all("body" not in k for k in listed)
    assert [k["id"] for k in invoke_json(runner, "knowledge", "--category", "feature", "--json")] == [EXPORT.id]


# ---- time words ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "start", "end"),
    [
        ("what did we change yesterday", "2026-11-20", "2026-11-21"),
        ("what broke the day before yesterday", "2026-11-19", "2026-11-20"),
        ("the bug we fixed a couple of days ago", "2026-11-18", "2026-11-21"),
        ("the migration from 3 weeks ago", "2026-10-23", "2026-11-08"),
        ("something we decided last week", "2026-11-07", "2026-11-22"),
        ("the outage in March", "2026-03-01", "2026-04-01"),
        ("the release in december", "2025-12-01", "2026-01-01"),
        ("how many times did I deploy in the past two weeks", "2026-11-02", "2026-11-22"),
        ("the flaky tests of the last 3 days", "2026-11-16", "2026-11-22"),
    ],
)
def test_time_words_name_a_window(prompt: str, start: str, end: str) -> None:
    window = time_window(prompt, NOW)
    assert window is not None
    assert window[0].date().isoformat() == start and window[1].date().isoformat() == end


def test_time_words_are_not_looked_for() -> None:
    window, rest = time_words("the refund fix in March", NOW)
    assert window is not None and "march" not in rest.lower() and "refund fix" in rest


def test_no_time_words_no_window() -> None:
    assert time_window("why is psycopg pinned to 3.1.18", NOW) is None
    assert time_window("the maybe-later flag", NOW) is None


def test_time_words_prefer_the_session_of_that_day(tmp_path) -> None:
    data = tmp_path / "data"
    folder = tmp_path / "claude" / "-home-dev-payments-api"
    for n, day in enumerate((NOW - timedelta(days=1), NOW - timedelta(days=40))):
        t = Transcript(f"aaaaaaaa-0000-4000-8000-{n:012d}", day.replace(hour=9))
        t.user("The webhook signature check fails for refunds.")
        t.assistant(f"Fixed the webhook signature check for refunds (attempt {n}): the raw body is verified now.")
        t.write(folder)
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.ingest import ingest

    store, index = Store(paths.db_path(data)), Index(paths.index_dir(data))
    ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [tmp_path / "claude"])
    asked = "what did we do about the webhook signature check for refunds"
    older = recall(store, index, asked + " back in October", project=None, now=NOW)
    newer = recall(store, index, asked + " yesterday", project=None, now=NOW)
    assert older.results[0].native_id.endswith("000000000001")
    assert newer.results[0].native_id.endswith("000000000000")


# ---- long prompts --------------------------------------------------------------------------------


@given(st.text(alphabet=st.sampled_from("ab cd\nef\tgh"), max_size=3 * QUERY_MAX_CHARS))
def test_cut_query_cuts_at_a_word_boundary(text: str) -> None:
    cut = cut_query(text)
    assert text.startswith(cut) and len(cut) <= QUERY_MAX_CHARS
    if len(text) > QUERY_MAX_CHARS and any(ch.isspace() for ch in text[QUERY_MAX_CHARS // 2 : QUERY_MAX_CHARS + 1]):
        assert text[len(cut)].isspace()  # never half a word


def test_long_prompt_still_recalls(runner) -> None:
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code"))
    prompt = "why is the connection pool exhausted under load in the payments API? " + (
        "Here is the log: " + "worker started, handling request, " * 120
    )
    assert len(prompt) > QUERY_MAX_CHARS
    out = invoke_json(runner, "recall", prompt, "--project", PROJECT)
    assert out["results"] and out["results"][0]["title"] == "Fix connection pool exhaustion under load"


# ---- what the user asked weighs more ------------------------------------------------------------

ASKED = "aaaaaaaa-1111-4000-8000-000000000001"
ECHOED = "aaaaaaaa-1111-4000-8000-000000000002"
LEDGER = "the nightly ledger reconciliation skips refunds issued in yen"


def _ledger_store(tmp_path: Path) -> tuple[Store, Index]:
    """Two sessions holding the same sentence: one as what the user asked, the other (newer, so
    recency favours it) as a tool's output and the agent's echo of it."""
    folder = tmp_path / "claude" / "-home-dev-payments-api"
    rng = random.Random(5)
    asked = Transcript(ASKED, datetime(2026, 10, 1, 9, tzinfo=UTC))
    asked.user("Tidy up the payments service.")
    asked.routine(rng, 2)
    asked.user(LEDGER.capitalize() + ".")
    asked.assistant("Fixed: the job now converts zero-decimal currencies before matching.")
    asked.routine(rng, 2)
    asked.write(folder)
    echoed = Transcript(ECHOED, datetime(2026, 11, 1, 9, tzinfo=UTC))
    echoed.user("Tidy up the payments service.")
    echoed.routine(rng, 2)
    echoed.user("Check the job logs.")
    echoed.tool("Bash", "tail jobs.log", LEDGER.capitalize() + ".")
    echoed.routine(rng, 2)
    echoed.write(folder)
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.ingest import ingest

    data = tmp_path / "data"
    store, index = Store(paths.db_path(data)), Index(paths.index_dir(data))
    ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [tmp_path / "claude"])
    return store, index


def test_index_marks_the_users_prompts(tmp_path) -> None:
    store, index = _ledger_store(tmp_path)
    hits = index.search_best_of([(index.analyze("reconciliation yen"), 1.0)])
    by_session = {
        store.session_row(sid).native_id: prompt
        for mid, sid, prompt in zip(hits.mids, hits.sids, hits.prompts, strict=True)
        if mid > 0
    }
    assert by_session == {ASKED: 1, ECHOED: 0}


def test_a_match_in_what_the_user_asked_ranks_above_the_same_words_in_tool_output(tmp_path) -> None:
    store, index = _ledger_store(tmp_path)
    out = recall(store, index, "why does the ledger reconciliation skip yen refunds", project=(PROJECT,), now=NOW)
    assert [r.native_id for r in out.results][:2] == [ASKED, ECHOED]


def test_questions_that_gather_from_several_sessions(tmp_path: Path) -> None:
    from smriti.recall import _gathers

    index = Index(paths.index_dir(tmp_path / "data"))
    for question in (
        "How many magazine subscriptions do I currently have?",
        "what was the total cost of the hotel stays",
        "Which group did I join first, the book club or the choir?",
        "How many different doctors did I visit?",
    ):
        assert _gathers(index, question), question
    for question in ("why is psycopg pinned to 3.1.18", "which local port does the payments database use"):
        assert not _gathers(index, question), question


FIXED = "bbbbbbbb-1111-4000-8000-000000000001"
SAME_FIX = "bbbbbbbb-1111-4000-8000-000000000002"
OTHER = "bbbbbbbb-1111-4000-8000-000000000003"


def test_feedback_raises_the_candidate_that_shares_the_best_passages_words(tmp_path: Path) -> None:
    """Pseudo-relevance feedback: the best candidate's passage names the fix (pgbouncer, transaction
    pooling), so of two sessions that match the question equally, the one that also names it gains;
    no candidate loses, and the gain is at most FEEDBACK_WEIGHT of the best score."""
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.index import INACTIVE_STATUSES, Filters
    from smriti.ingest import ingest
    from smriti.recall import FEEDBACK_WEIGHT, _feedback, _prepare, rank

    folder = tmp_path / "claude" / "-home-dev-payments-api"
    rng = random.Random(3)
    for native, day, lines in (
        (
            FIXED,
            1,
            [
                "The nightly payout export is slow and exhausts database connections.",
                "Fixed: payouts now go through pgbouncer in transaction pooling mode.",
            ],
        ),
        (SAME_FIX, 2, ["The payout export again.", "Checked pgbouncer: transaction pooling is on."]),
        (OTHER, 3, ["The payout export again.", "Checked the cron schedule: it runs at 02:00."]),
    ):
        t = Transcript(native, datetime(2026, 10, day, 9, tzinfo=UTC))
        t.user(lines[0])
        t.assistant(lines[1])
        t.routine(rng, 2)
        t.write(folder)
    data = tmp_path / "data"
    store, index = Store(paths.db_path(data)), Index(paths.index_dir(data))
    ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [tmp_path / "claude"])
    with index.pinned():
        concepts = _prepare(index, "why is the payout export slow")
        ranked = rank(index, concepts, Filters(exclude_statuses=INACTIVE_STATUSES), (PROJECT,))
        after = _feedback(store, index, concepts, ranked, Filters(exclude_statuses=INACTIVE_STATUSES))
    native = {c.rowid: store.session_row(c.rowid).native_id for c in ranked}
    assert native[ranked[0].rowid] == FIXED
    before = {native[c.rowid]: c.score for c in ranked}
    gain = {native[c.rowid]: c.score - before[native[c.rowid]] for c in after}
    assert all(g >= 0 for g in gain.values())
    assert max(gain.values()) <= FEEDBACK_WEIGHT * ranked[0].score + 1e-9
    assert gain[SAME_FIX] > gain[OTHER]


FOLLOWED_UP = "cccccccc-1111-4000-8000-000000000001"


def test_the_turns_that_follow_up_the_matching_one_show_their_conclusions(tmp_path: Path) -> None:
    """The question's words are only in a follow-up turn ("does this need a changelog entry?" -
    "selfHeal no longer fights the autoscaler"): what was done is the turn before's conclusion, and
    the next turn, a go-ahead ("ok, push it"), concludes with where it went."""
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.ingest import ingest

    folder = tmp_path / "claude" / "-home-dev-payments-api"
    t = Transcript(FOLLOWED_UP, datetime(2026, 10, 1, 9, tzinfo=UTC))
    t.user("The deployment dashboard shows the checkout service as out of sync all the time.")
    t.tool("Bash", "kubectl get application checkout", "checkout   OutOfSync   Healthy")
    t.assistant("I added ignoreDifferences for jsonPointers /spec/replicas to the Application.")
    t.user("does this need a changelog entry?")
    t.assistant("No. The app is synced and selfHeal no longer fights the autoscaler.")
    t.user("ok, push it")
    t.assistant("Pushed to the release branch as commit a3f9c1e.")
    t.routine(random.Random(2), 2)
    t.write(folder)
    data = tmp_path / "data"
    store, index = Store(paths.db_path(data)), Index(paths.index_dir(data))
    ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [tmp_path / "claude"])
    out = recall(store, index, "why did selfHeal fight the autoscaler", project=(PROJECT,), now=NOW)
    assert out.results and out.results[0].native_id == FOLLOWED_UP
    assert "selfHeal no longer fights" in out.context
    assert "ignoreDifferences" in out.context
    assert "a3f9c1e" in out.context


def test_the_shown_sentences_widen_around_the_match_while_room_is_left(tmp_path: Path) -> None:
    from smriti.recall import _prepare, answer_lines

    index = Index(paths.index_dir(tmp_path / "data"))
    fix = "I made the settlement cutoff timezone-aware with ZoneInfo."
    text = f"The old value was naive, but the day ends in Europe/Berlin. Midnight there is 23:00 UTC in winter. {fix}"
    concepts = _prepare(index, "settlement cutoff timezone")
    # the matching sentence is the turn's conclusion too: two sentences before it hold the reason
    shown = answer_lines(index, concepts, [text], reply=fix)
    assert "ZoneInfo" in shown and "Europe/Berlin" in shown


def test_a_weekday_narrows_by_date_and_is_looked_for(tmp_path: Path) -> None:
    """ "on Monday" names a window (last Monday) and a word: the session where the user said
    "on Monday" ranks above a newer one about the same visit on another day, though neither lies
    in that window."""
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.ingest import ingest

    folder = tmp_path / "claude" / "-home-dev-payments-api"
    said = "dddddddd-1111-4000-8000-000000000001"
    other = "dddddddd-1111-4000-8000-000000000002"
    for native, day, line in (
        (said, 1, "I left home at 7 AM on Monday and reached the dentist at 9."),
        (other, 20, "I reached the dentist late on Thursday because of the traffic."),
    ):
        t = Transcript(native, datetime(2026, 10, day, 9, tzinfo=UTC))
        t.user(line)
        t.assistant("Noted.")
        t.write(folder)
    data = tmp_path / "data"
    store, index = Store(paths.db_path(data)), Index(paths.index_dir(data))
    ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [tmp_path / "claude"])
    out = recall(store, index, "what time did I reach the dentist on Monday", project=(PROJECT,), now=NOW)
    assert [r.native_id for r in out.results][:1] == [said]


def test_a_loose_time_window_lifts_a_session_just_outside_it(tmp_path: Path) -> None:
    """ "three weeks ago" is said loosely: a session five weeks back beats an identical one from
    yesterday (recency favours that one); a named month is not loose ("back in October" above)."""
    from smriti.adapters import load_registry
    from smriti.config import UserConfig
    from smriti.ingest import ingest
    from smriti.timewords import time_words_loose

    assert time_words_loose("the fix three weeks ago", NOW)[2]
    assert not time_words_loose("the fix back in October", NOW)[2]
    assert not time_words_loose("the fix yesterday", NOW)[2]
    folder = tmp_path / "claude" / "-home-dev-payments-api"
    for n, days in enumerate((1, 33)):
        t = Transcript(f"eeeeeee{n}-0000-4000-8000-{n:012d}", (NOW - timedelta(days=days)).replace(hour=9))
        t.user("The webhook signature check fails for refunds.")
        t.assistant("Fixed the webhook signature check for refunds: the raw body is verified now.")
        t.write(folder)
    data = tmp_path / "data"
    store, index = Store(paths.db_path(data)), Index(paths.index_dir(data))
    ingest(store, index, load_registry(), UserConfig(), ["claude-code"], [tmp_path / "claude"])
    asked = "what did we do about the webhook signature check for refunds"
    assert recall(store, index, asked, project=None, now=NOW).results[0].native_id.startswith("eeeeeee0")
    out = recall(store, index, asked + " three weeks ago", project=None, now=NOW)
    assert out.results[0].native_id.startswith("eeeeeee1")


def test_the_turns_conclusion_comes_before_the_tool_output_around_the_match(tmp_path: Path) -> None:
    """The conclusion's last sentence ("Fix: …") is shown, not crowded out by the lines of tool
    output next to the matching one."""
    from smriti.recall import _prepare, answer_lines

    index = Index(paths.index_dir(tmp_path / "data"))
    output = "\n".join(
        [f"--> charge.succeeded [evt_{n}] POST /hooks/{n} 400" for n in range(4)]
        + ["> stripe listen: webhook signature check fails for evt_4"]
        + [f"--> charge.refunded [evt_{n}] POST /hooks/{n} 400" for n in range(4, 9)]
    )
    texts = ["Stripe webhooks fail with a signature error for every payload we receive today.", output]
    reply = (
        "The handler lets the framework parse the body into a dict and then serializes it again with json.dumps. "
        "The signature is computed over the exact bytes Stripe sent, and serializing again changes whitespace. "
        "Fix: read the raw request body and pass those bytes to construct_event."
    )
    concepts = _prepare(index, "webhook signature fails")
    shown = answer_lines(index, concepts, texts, reply=reply)
    assert "Fix: read the raw request body" in shown
    assert "webhook signature check fails" in shown  # and the matching line, with some around it
