"""A faster ingest must store exactly what the plain one did.

The batched write path (a session's new messages in one executemany, a new session queued for the
index as one outbox row, one index commit per run) is compared, through a canonical dump of every
stored row and every observable index document (benchmarks/snapshot.py), with the paths it
replaced: sessions arriving over several runs into a built index (the outbox drained by `sync`),
a session appended to across runs, and sources re-read in full, whose messages are all known and
take the one-message-at-a-time path. benchmarks/bench_ingest.py runs the same comparison against
the commit before the batched path (3137854) on a larger corpus and records the result.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import zip_longest
from pathlib import Path

import apsw
import pytest
import tantivy
from conftest import claude_code_line
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smriti import ingest as ingest_module
from smriti import ingest_worker
from smriti.adapters import load_registry
from smriti.config import UserConfig
from smriti.digest.apply import as_stored
from smriti.index import Index, chunks
from smriti.ingest import ingest
from smriti.models import Message, Session
from smriti.store import Store

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
from snapshot import dump, index_lines, store_lines  # noqa: E402


@pytest.fixture(params=["one process", "worker process"])
def worker(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every ingest of a test both ways: in one process, and with sources parsed and digested by
    ingest's worker process (smriti.ingest_worker), which small corpora like these never start."""
    if request.param == "worker process":
        monkeypatch.setenv("SMRITI_INGEST_WORKER", "1")
        if not ingest_worker.enabled():
            pytest.skip("no worker process on this platform")
        monkeypatch.setattr(ingest_worker, "MIN_BYTES", 0)
        monkeypatch.setattr(ingest_worker, "WINDOW_SOURCES", 5)  # answers wait in the pipe, as on a big run
    else:
        monkeypatch.setenv("SMRITI_INGEST_WORKER", "0")
    return str(request.param)


def _ingest(data: Path, paths: list[Path]) -> None:
    store = Store(data / "smriti.db")
    index = Index(data / "index")
    try:
        result = ingest(store, index, load_registry(), UserConfig(), ["claude-code"], paths)
        assert not result.errors, result.errors[:3]
    finally:
        store.close()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("equality") / "corpus"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "corpus.py"), str(out), "--sessions", "40", "--seed", "11"],
        check=True,
        capture_output=True,
    )
    return out


def _files(corpus: Path) -> list[Path]:
    adapter = load_registry().get("claude-code")
    return list(adapter.discover(corpus))


def test_one_run_stores_what_many_runs_and_re_reads_store(corpus: Path, tmp_path: Path, worker: str) -> None:
    files = _files(corpus)
    assert len(files) == 40
    # Many runs: a first third into a new data dir (the index is built in one go), then the rest:
    # new sessions into a built index, through the outbox.
    many = tmp_path / "many"
    _ingest(many, files[:13])
    _ingest(many, files[13:])
    one = tmp_path / "one"
    _ingest(one, files)
    assert _differences(dump(one), dump(many)) == []

    # Every source re-read in full (its size kept, its modification time moved): all its messages
    # are known, so each takes the one-message-at-a-time path, and nothing may change.
    for f in files:
        st = f.stat()
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    _ingest(many, files)
    _ingest(one, files)
    one_dump = list(dump(one))
    assert len(one_dump) > 1000
    assert _differences(one_dump, dump(many)) == []


def test_claude_code_and_codex_in_one_run_store_what_one_agent_at_a_time_does(tmp_path: Path, worker: str) -> None:
    # corpus.py --codex: the mix of the issue #18 benchmark, each half found by its detector as
    # `smriti ingest --path` finds it, in one run (the worker parsing both adapters' sources),
    # against the two agents ingested one after the other.
    corpus = tmp_path / "corpus"
    subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "corpus.py"), str(corpus), "--sessions", "24", "--seed", "5"]
        + ["--codex", "0.5"],
        check=True,
        capture_output=True,
    )
    claude, codex = corpus / "claude", corpus / ".codex"
    rollouts = list(load_registry().get("codex").discover(codex))
    assert 6 <= len(rollouts) <= 18 and len(_files(claude)) == 24 - len(rollouts)
    mixed = tmp_path / "mixed"
    store = Store(mixed / "smriti.db")
    try:
        result = ingest(store, Index(mixed / "index"), load_registry(), UserConfig(), [], [claude, codex])
        assert (result.errors, result.files_read) == ([], 24)
        assert {a: n["sessions"] for a, n in store.stats()["agents"].items()} == {
            "claude-code": 24 - len(rollouts),
            "codex": len(rollouts),
        }
    finally:
        store.close()
    apart = tmp_path / "apart"
    for agent, path in (("claude-code", claude), ("codex", codex)):
        store = Store(apart / "smriti.db")
        try:
            assert not ingest(store, Index(apart / "index"), load_registry(), UserConfig(), [agent], [path]).errors
        finally:
            store.close()
    assert _differences(dump(mixed), dump(apart)) == []


def _rows_of_session(data: Path, rowid: int) -> dict[str, list[tuple]]:
    conn = apsw.Connection(str(data / "smriti.db"), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return {
            table: sorted(conn.execute(f"select * from {table} where {where}", (rowid,) * where.count("?")))
            for table, where in (
                ("digests", "session = ?"),
                ("session_tags", "session = ?"),
                ("session_files", "session = ?"),
                ("session_relations", "session = ? or other = ?"),
            )
        }
    finally:
        conn.close()


def _without_clock(rows: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    return {t: [r[:-1] if t == "digests" else r for r in rs] for t, rs in rows.items()}  # digests end in updated_at


def _claude_session(folder: Path, n: int, file: str = "worker.py", more: str = "") -> Path:
    """A small Claude Code session in /home/dev/infra: much the same request as every other one
    made here (so each relates to the others), its own ids; `more` said after it."""
    sid = f"0000000{n}-aaaa-4bbb-8ccc-00000000000{n}"
    prompt = "Fix the flaky retry test in the payments worker: it times out under load" + more
    read = {"type": "tool_use", "id": f"toolu_{n}", "name": "Read", "input": {"file_path": f"/home/dev/infra/{file}"}}
    answer = "The retry loop slept on the wall clock; I made it use the injected clock, and the test passes."
    path = folder / f"{sid}.jsonl"
    path.write_text(
        claude_code_line("user", f"u{n}", prompt, sid, cwd="/home/dev/infra")
        + claude_code_line("assistant", f"a{n}", [read], sid, f"u{n}", "/home/dev/infra")
        + claude_code_line("assistant", f"b{n}", answer, sid, f"a{n}", "/home/dev/infra")
    )
    return path


def test_a_new_session_on_the_id_of_a_deleted_one_keeps_nothing_of_it(tmp_path: Path) -> None:
    # A session made by a write is enriched without looking up or deleting what it has stored
    # (`Enricher.enrich(new_session=True)`): nothing, since the id's last holder took its digest,
    # tags, files and relations along when it was deleted. Here the new session takes the id of
    # the session deleted last, and must end up as it does where that one never existed.
    (tmp_path / "src").mkdir()
    a, b, d = (_claude_session(tmp_path / "src", n) for n in (1, 2, 4))
    # The deleted one touched another file and asked for more: rows of its own, none of them d's.
    c = _claude_session(tmp_path / "src", 3, "deploy.yaml", ", then update the kubernetes deploy config")
    before, then = tmp_path / "deleted", tmp_path / "never"
    _ingest(before, [a, b, c])
    held = _rows_of_session(before, 3)
    assert all(held.values()), held  # the deleted session had a digest, tags, files and relations
    store = Store(before / "smriti.db")
    try:
        assert store.delete_session("claude-code", "00000003-aaaa-4bbb-8ccc-000000000003")
    finally:
        store.close()
    _ingest(before, [d])
    _ingest(then, [a, b])
    _ingest(then, [d])
    now = _rows_of_session(before, 3)
    assert all(now.values()) and now["digests"][0][1] == held["digests"][0][1]  # d took id 3
    assert _without_clock(now) == _without_clock(_rows_of_session(then, 3))


def test_a_session_appended_to_stores_what_one_read_of_it_does(corpus: Path, tmp_path: Path, worker: str) -> None:
    files = _files(corpus)[:6]
    last = files[-1]
    full = last.read_bytes()
    lines = full.splitlines(keepends=True)
    st = last.stat()
    appended = tmp_path / "appended"
    last.write_bytes(b"".join(lines[: len(lines) // 2]))
    _ingest(appended, files)
    last.write_bytes(full)
    os.utime(last, ns=(st.st_atime_ns, st.st_mtime_ns))
    _ingest(appended, [last])
    one = tmp_path / "one"
    _ingest(one, files)
    # The stored rows, but the digests: an appended session's new messages are scored alone and
    # added to its saved category scores, which can differ from one sum in the last float digit.
    stored = [line for line in store_lines(one / "smriti.db") if not line.startswith('["digests"')]
    assert (
        _differences(
            stored, [line for line in store_lines(appended / "smriti.db") if not line.startswith('["digests"')]
        )
        == []
    )
    # The index holds the same documents (the appended session's digest was indexed again: its old
    # document is deleted but still counted in term statistics until a merge, so scores may differ).
    docs = [line for line in index_lines(one) if line.startswith('["doc"') or line.startswith('["keyword"')]
    assert (
        _differences(
            docs, [line for line in index_lines(appended) if line.startswith('["doc"') or line.startswith('["keyword"')]
        )
        == []
    )


def _differences(a: Iterable[str], b: Iterable[str]) -> list[tuple[str | None, str | None]]:
    """The first few lines that differ (a missing line is None)."""
    return [(x, y) for x, y in zip_longest(a, b) if x != y][:3]


def test_the_dump_sees_a_changed_row_and_a_changed_index_document(corpus: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    _ingest(data, _files(corpus)[:5])
    original = list(dump(data))
    conn = apsw.Connection(str(data / "smriti.db"))
    last_id, kind = conn.execute("select id, kind from messages order by id desc limit 1").fetchone()
    with conn:
        conn.execute(
            "update messages set kind = ? where id = ?", ("summary" if kind != "summary" else "prompt", last_id)
        )
    assert list(dump(data)) != original
    with conn:
        conn.execute("update messages set kind = ? where id = ?", (kind, last_id))
    conn.close()
    # The store as it was, the index not: one message's text, a prompt's, indexed again changed.
    store = Store(data / "smriti.db")
    index = Index(data / "index")
    with store.conn:
        store.conn.execute(
            "insert into outbox (op, ref) values ('message', (select min(id) from messages where kind = 'prompt'))"
        )
        store.conn.execute(
            "update blobs set text = text || ' zebra' where id = (select blob from messages where id = "
            "(select min(id) from messages where kind = 'prompt'))"
        )
    index.sync(store)
    with store.conn:
        store.conn.execute(
            "update blobs set text = substr(text, 1, length(text) - 6) where id = (select blob from messages "
            "where id = (select min(id) from messages where kind = 'prompt'))"
        )
    store.close()
    changed = list(dump(data))
    split = next(i for i, line in enumerate(original) if line.startswith('{"index_docs"'))
    assert changed[:split] == original[:split]  # the store is as it was
    assert changed != original  # the index is not, and the dump says so


# Enrichment at ingest reads a session it has just written whole from `WriteResult.stored`
# instead of querying it back: those rows must be exactly what `Store.messages` returns.
SHARED_FIXTURES = REPO.parent / "shared" / "fixtures"


def test_rows_handed_to_enrichment_equal_the_read_back_for_every_agent(tmp_path: Path) -> None:
    registry = load_registry()
    store = Store(tmp_path / "smriti.db")
    handed = made = 0
    try:
        for name in registry.names:
            adapter = registry.get(name)
            root = SHARED_FIXTURES / name
            if not root.exists():
                continue
            for source in adapter.discover(root):
                try:
                    parsed = adapter.parse(source, None)
                except Exception:  # noqa: BLE001  (a deliberately broken fixture: not this test's business)
                    continue
                for session in parsed.sessions:
                    written = store.write_session(session, "proj-key", "proj")
                    # the session row handed to enrichment for a session just made, as read back
                    assert written.row == (store.session_row(written.session_rowid) if written.created else None)
                    made += written.created
                    if written.stored is not None:
                        handed += 1
                        back_rows = store.messages(written.session_rowid)
                        # what enrichment reads of them when it takes the worker's digest, before building them
                        assert (len(written.stored), written.stored.last_rowid) == (
                            len(back_rows),
                            max(r.rowid for r in back_rows),
                        ), (name, source)
                        assert written.stored.rows() == back_rows, (name, source)
                        # what the worker process digests, before any row exists
                        back = [r.to_message() for r in written.stored]
                        assert [
                            replace(as_stored(m), key=r.key) for m, r in zip(session.messages, back, strict=True)
                        ] == (back), (name, source)
    finally:
        store.close()
    assert handed >= 20  # the fixtures hold dozens of sessions: the in-memory path was taken
    assert made > handed  # and some were made through the one-message-at-a-time path


_json_scalars = st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8)
# What an adapter may hand over as a tool's input: tuples and non-string keys come back from the
# store's JSON as lists and strings, and the handed rows must say the same.
_tool_inputs = st.recursive(
    _json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=5) | st.integers(0, 9), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(
    inputs=st.lists(_tool_inputs, min_size=1, max_size=4),
    files=st.lists(st.text(min_size=1, max_size=6), max_size=2),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_handed_rows_decode_tool_input_as_the_store_does(tmp_path: Path, inputs: list, files: list[str]) -> None:
    messages = tuple(
        Message("assistant", f"call {i}", "tool_call", f"k{i}", tool_name="Bash", tool_input=v, files=tuple(files))
        for i, v in enumerate(inputs)
    )
    store = Store(Path(tempfile.mkdtemp(dir=tmp_path)) / "smriti.db")  # a new store per example
    try:
        written = store.write_session(Session("claude-code", "s1", messages), None, None)
        assert written.stored is not None
        assert written.stored.rows() == store.messages(written.session_rowid)
        assert [as_stored(m) for m in messages] == [
            replace(r.to_message(), key=m.key) for r, m in zip(written.stored, messages, strict=True)
        ]
    finally:
        store.close()


class _OwnMessage(Message):
    """A third-party adapter's own kind of message: pickled as itself, not as fields."""

    __slots__ = ()


_messages = st.builds(
    lambda cls, role, kind, i, text, tool_input, files, sidechain, action: cls(
        role,
        text,
        kind,
        f"k{i}",
        "2025-01-02T03:04:05Z" if i % 2 else None,
        "Bash" if i % 3 else None,
        tool_input,
        tuple(files),
        sidechain,
        action,
    ),
    st.sampled_from([Message, Message, Message, _OwnMessage]),
    st.sampled_from(["user", "assistant", "tool", "system"]),
    st.sampled_from(["prompt", "response", "tool_call", "tool_result", "summary", "injected_context"]),
    st.integers(0, 99),
    st.text(max_size=8),
    _tool_inputs,
    st.lists(st.text(min_size=1, max_size=6), max_size=2),
    st.booleans(),
    st.sampled_from([None, None, "edit", "shell", "other"]),
)


@given(st.lists(_messages, max_size=6), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
@settings(max_examples=150, deadline=None)
def test_a_session_comes_out_of_the_worker_pipe_as_it_went_in(messages: list[Message], extra: dict) -> None:
    # The worker pickles each session's messages as their fields and the parent sets them through
    # the slots, without the constructor: each must come back equal, of its own class, with the
    # action its constructor had given it (a tool's, derived from its name and input).
    import pickle

    session = Session(
        "claude-code",
        "s1",
        tuple(messages),
        cwd="/w",
        git_branch="main",
        title="t",
        started_at="a",
        ended_at="b",
        models=("m",),
        source_paths=("/p",),
        parent_native_id="p0",
        extra=extra,
    )
    back = pickle.loads(pickle.dumps(session, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == session and back.extra == extra
    assert [type(m) for m in back.messages] == [type(m) for m in messages]
    assert [m.action for m in back.messages] == [m.action for m in messages]


def _dies_on_third_source(answer: Callable[..., bytes]) -> Callable[..., bytes]:
    calls = []

    def answer_or_die(*args: object) -> bytes:
        calls.append(1)
        if len(calls) == 3:
            os._exit(1)  # the worker process dies (killed, out of memory) with sources unanswered
        return answer(*args)

    return answer_or_die


def _one_process_then_a_worker(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: Callable[..., Callable[..., bytes]]
) -> list[Path]:
    """The corpus ingested in one process into `tmp_path / "one"`; then the worker forced on for the
    caller's own ingest, its answers made by `answer(the real _answer)`. Returns the corpus's files."""
    monkeypatch.setenv("SMRITI_INGEST_WORKER", "1")
    if not ingest_worker.enabled():
        pytest.skip("no worker process on this platform")
    files = _files(corpus)
    monkeypatch.setenv("SMRITI_INGEST_WORKER", "0")
    _ingest(tmp_path / "one", files)
    monkeypatch.setenv("SMRITI_INGEST_WORKER", "1")
    monkeypatch.setattr(ingest_worker, "MIN_BYTES", 0)
    monkeypatch.setattr(ingest_worker, "_answer", answer(ingest_worker._answer))
    return files


def test_a_worker_that_dies_leaves_its_sources_to_the_parent(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _one_process_then_a_worker(corpus, tmp_path, monkeypatch, _dies_on_third_source)
    _ingest(tmp_path / "died", files)
    assert _differences(dump(tmp_path / "one"), dump(tmp_path / "died")) == []


def _answers_slowly(answer: Callable[..., bytes]) -> Callable[..., bytes]:
    def slow(*args: object) -> bytes:
        time.sleep(0.03)  # parsing a big source: the parent waits, so the worker leaves the digests to it
        return answer(*args)

    return slow


def test_a_parent_waiting_for_a_slow_worker_digests_what_it_holds_and_stores_the_same(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the worker is behind, the parent computes the digests it left out of the answers the
    parent holds already (`ingest._DigestsAhead`), instead of waiting idle: the same store."""
    files = _one_process_then_a_worker(corpus, tmp_path, monkeypatch, _answers_slowly)
    ahead: list[str] = []  # the sessions the parent digested while it waited
    real_precompute = ingest_module.precompute

    def counted(session: Session, settings: object) -> object:
        ahead.append(session.native_id)
        return real_precompute(session, settings)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest_module, "precompute", counted)
    _ingest(tmp_path / "slow", files)
    # 40 sources in batches of 8, then 64: all but each batch's first can be digested ahead
    assert len(ahead) >= len(files) // 2, ahead
    assert len(set(ahead)) == len(ahead)  # each session at most once
    assert _differences(dump(tmp_path / "one"), dump(tmp_path / "slow")) == []


def test_the_worker_answers_through_a_widened_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer bigger than the pipe is written in pieces, each waiting for the worker's GIL: the
    answers' pipe is widened where Linux allows it, and a refusal is not an error."""
    import fcntl

    monkeypatch.setenv("SMRITI_INGEST_WORKER", "1")
    if not ingest_worker.enabled():
        pytest.skip("no worker process on this platform")
    registry = load_registry()
    worker = ingest_worker.start({"claude-code": registry.get("claude-code")})
    assert worker is not None
    try:
        size = fcntl.fcntl(worker._results.fileno(), fcntl.F_GETPIPE_SZ)
        assert size >= min(ingest_worker.ANSWER_PIPE_BYTES, int(Path("/proc/sys/fs/pipe-max-size").read_text()))
    finally:
        worker.close()
    with open(os.devnull, "wb") as not_a_pipe:  # refused (EBADF): the worker starts all the same
        ingest_worker._widen(not_a_pipe.fileno(), ingest_worker.ANSWER_PIPE_BYTES)


def _indexed_sessions() -> list[tuple[Session, str | None]]:
    """Sessions with what the index's message loop distinguishes: prompts and other kinds, injected
    context (not indexed), a message long enough to be indexed in chunks, a turn cut into passages,
    no timestamp, and a session without a project; with the project key each is written under."""
    long_text = " ".join(f"word{i} pool timeout" for i in range(1200))  # ~25,000 characters: chunks
    first = [
        Message(
            role="user",
            text="Fix the pool timeout in db/pool.py",
            kind="prompt",
            key="a0",
            timestamp="2026-11-02T10:00:00Z",
        ),
        Message(role="system", text="<system-reminder>ignore</system-reminder>", kind="injected_context", key="a1"),
        *(
            Message(
                role="assistant",
                text=f"step {i}: reading pool.py",
                kind="response",
                key=f"a{i}",
                timestamp="2026-11-02T10:01:00.250Z",
            )
            for i in range(2, 16)
        ),
        Message(
            role="tool",
            text=long_text,
            kind="tool_result",
            key="a16",
            tool_name="Bash",
            tool_input={"command": "cat log"},
        ),
        Message(role="user", text="Now the retries", kind="prompt", key="a17", timestamp="2026-11-02T11:00:00+02:00"),
    ]
    second = [
        Message(role="user", text="What is a connection pool", kind="prompt", key="b0"),
        Message(role="assistant", text="A set of open connections", kind="response", key="b1", timestamp="not a time"),
    ]
    return [
        (Session(agent="claude-code", native_id="s-a", messages=tuple(first), cwd="/w/api"), "github.com/acme/api"),
        (Session(agent="codex", native_id="s-b", messages=tuple(second)), None),
    ]


def _fast_fields(data: Path) -> list[tuple]:
    """Every document's fast fields, the `prompt` flag included (the canonical dump leaves it out)."""
    index = Index(data / "index")
    searcher = index._index.searcher()
    hits = searcher.search(tantivy.Query.all_query(), limit=max(searcher.num_docs, 1), count=False).hits
    addrs = [addr for _, addr in hits]
    fields = ("mid", "sid", "kid", "pid", "ts", "prompt")
    return sorted(zip(*(searcher.fast_field_values(f, addrs) for f in fields), strict=True))


def test_the_index_adds_messages_from_plain_rows_as_it_does_from_index_docs(tmp_path: Path) -> None:
    """A rebuild and an outbox drain add messages from plain rows (`Index._add_messages`, no
    IndexDoc each): the documents must be those `Index._add` makes of each message's IndexDoc."""
    sessions = _indexed_sessions()
    appended = Message(role="assistant", text="retries added with backoff", kind="response", key="a18")

    def write_all(store: Store) -> None:
        for session, project in sessions:
            store.write_session(session, project, project)
        # appended one message at a time (a 'message' change, beside its session's own 'session' change)
        first, project = sessions[0]
        store.write_session(replace(first, messages=(*first.messages, appended)), project, project)

    rebuilt = tmp_path / "rebuilt"
    rebuilt.mkdir()
    store = Store(rebuilt / "smriti.db")
    write_all(store)
    assert Index(rebuilt / "index").rebuild(store) == 20  # 21 messages less the injected one
    store.close()

    # The same store, its index fed IndexDoc by IndexDoc
    by_docs = tmp_path / "by_docs"
    by_docs.mkdir()
    (by_docs / "smriti.db").write_bytes((rebuilt / "smriti.db").read_bytes())
    store = Store(by_docs / "smriti.db")
    index = Index(by_docs / "index")
    writer = index._index.writer(50_000_000, 1)
    for doc in store.all_index_docs():
        index._add(writer, doc)
    index._commit(writer)
    index._mark(built=True)
    store.close()

    # Written into a built index: the outbox drained, its session and message changes in one batch
    drained = tmp_path / "drained"
    drained.mkdir()
    store = Store(drained / "smriti.db")
    index = Index(drained / "index")
    index.rebuild(store)
    write_all(store)
    assert index.sync(store) == 3  # two sessions whole, one appended message
    store.close()

    expected = _fast_fields(by_docs)
    pieces = len(chunks(sessions[0][0].messages[16].text))
    assert pieces > 1
    assert len(expected) == 19 + pieces  # 20 messages, the long one in pieces
    assert sum(1 for row in expected if row[5]) == 3  # the prompts
    assert _fast_fields(rebuilt) == expected
    assert _fast_fields(drained) == expected
    for data in (rebuilt, drained):
        assert _differences(list(index_lines(data)), list(index_lines(by_docs))) == []
