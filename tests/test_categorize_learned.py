"""The learned categorizer: unseen wording, no real text, features and the model file, team corrections.

Corrections go through the real parts: `smriti tag` through the CLI into a real store, and a knowledge
file moved to another category folder in a real git repo, synced, then the next categorize.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import invoke_json
from hypothesis import given, settings
from hypothesis import strategies as st
from test_share_sync import git, team, transcript, zorblax  # noqa: F401  (team is a fixture)

from smriti.digest import learned
from smriti.digest.categorize import categorize_session
from smriti.digest.combined import classify
from smriti.models import Message

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")


def u(text: str) -> Message:
    return Message("user", text, "prompt", f"u{abs(hash(text))}")


def a(text: str) -> Message:
    return Message("assistant", text, "response", f"a{abs(hash(text))}")


def model() -> learned.Model:
    m = learned.load_model()
    assert m is not None, "the category model is package data: run benchmarks/categorize/train.py"
    return m


# --- unseen wording -----------------------------------------------------------------------------------------

# Written for this test, in words neither the corpus templates nor the eval sets use.
UNSEEN = [
    ("bug", "the quarterly payroll run aborts halfway with a stack overflow, patch it before friday"),
    ("bug", "since the rollout yesterday the kiosk app freezes whenever someone scans a damaged barcode"),
    ("topic", "walk me through how a bloom filter can say 'maybe' but never gives a false 'no'"),
    ("project", "bump the grpc packages to their newest releases and sort out the lockfile afterwards"),
    ("feature", "implement a waitlist for sold-out workshops: signup button, email when a seat frees up, tests"),
    ("decision", "our team should agree on how we hand over pager duty between time zones, propose a rota"),
    ("uncategorized", "suggest three names for my sourdough starter"),
]


def test_unseen_wording_mostly_gets_the_right_top_level() -> None:
    # A statistical model misses some (the kiosk freeze reads as decision/tooling today): the bar is
    # 6 of 7, the held-out benchmark measures the rate properly.
    got = [categorize_session([u(text), a("Sure, here is how I would go about it.")]) for _, text in UNSEEN]
    misses = [(want, r.category) for (want, _), r in zip(UNSEEN, got, strict=True) if r.category.split("/")[0] != want]
    assert len(misses) <= 1, misses


# --- no real text ---------------------------------------------------------------------------------------------

REDACTED_SESSIONS = [
    [],
    [u("   "), a("")],
    [u("[REDACTED_TEXT len=806 sha=d10ca27b]"), a("[REDACTED_ASSISTANT_TEXT]")],
    [u("[REDACTED_PROMPT]"), a("[REDACTED_TEXT len=6684 sha=1eb53f31] [REDACTED:email]")],
    [Message("user", "<system-reminder>fix the bug in the login flow now</system-reminder>", "prompt", "k1")],
]


@pytest.mark.parametrize("messages", REDACTED_SESSIONS)
def test_a_session_without_real_text_is_uncategorized_at_zero(messages: list[Message]) -> None:
    result = categorize_session(messages)
    assert result.category == "uncategorized" and result.confidence == 0.0 and result.candidate is None


def test_redaction_placeholders_do_not_hide_real_words_next_to_them() -> None:
    result = categorize_session([u("the signup form crashes with [REDACTED:email] in the field, fix the crash please")])
    assert result.parent == "bug"


def test_a_tool_failure_reaches_the_model_as_a_feature() -> None:
    ok = [
        u("run the nightly job and report"),
        Message("tool", "3 passed in 0.2s", "tool_result", "r", tool_name="Bash"),
    ]
    failed = [
        ok[0],
        Message(
            "tool",
            'Traceback (most recent call last):\n  File "x.py"\nKeyError: 1',
            "tool_result",
            "r",
            tool_name="Bash",
        ),
    ]
    m = model()
    p_ok = m.top_probs(m.known(learned.features(learned.document(ok))))["bug"]
    p_failed = m.top_probs(m.known(learned.features(learned.document(failed))))["bug"]
    assert "toolfailure" in learned.document(failed) and p_failed > p_ok


# --- features and the model file -----------------------------------------------------------------------------


@given(st.text(max_size=300), st.text(max_size=300))
@settings(max_examples=80, deadline=None)
def test_features_are_deterministic_and_in_range(request_text: str, rest: str) -> None:
    doc = learned.PART_SEP.join((request_text, rest, "edit shell"))
    feats = learned.features(doc)
    learned._HASH_CACHE.clear()  # a fresh process: the memo must not change the answer
    assert learned.features(doc) == feats
    assert all(0 <= f < 2**learned.HASH_BITS for f in feats)


def _features_by_definition(doc: str) -> frozenset[int]:
    """Features as the model was trained on them: full 32-bit crc32s and multiplier, cut at the end."""
    import zlib

    def add(out: set[int], words: list[str], namespace: int) -> None:
        h = [zlib.crc32(w.encode()) for w in words]
        out.update((x ^ namespace) & learned._MASK for x in h)
        out.update(((a * 0x9E3779B1 + b) ^ namespace) & learned._MASK for a, b in zip(h, h[1:], strict=False))

    request, _, rest = doc.partition(learned.PART_SEP)
    prose, _, tools = rest.partition(learned.PART_SEP)
    out: set[int] = set()
    if request:
        add(out, learned._TOKEN.findall(request.lower()), learned._NS_REQUEST)
        add(out, learned._TOKEN.findall(request.lower()), learned._NS_PROSE)
    if prose:
        add(out, learned._TOKEN.findall(prose.lower()), learned._NS_PROSE)
    if tools:
        add(out, learned._TOKEN.findall(tools), learned._NS_TOOLS)
    return frozenset(out)


@given(st.text(alphabet="abcdefghij KLM\n", max_size=400), st.text(max_size=200), st.text(max_size=100))
@settings(max_examples=120, deadline=None)
def test_features_cut_early_equal_the_features_the_model_was_trained_on(request: str, prose: str, tools: str) -> None:
    # `_hashes` and `_add` keep only the low HASH_BITS from the start (faster): the same features
    doc = learned.PART_SEP.join((request, prose, tools))
    assert learned.features(doc) == _features_by_definition(doc)


def test_feature_hashing_is_stable_across_processes() -> None:
    # crc32, not Python's salted hash(): the shipped model and stored labels depend on it
    import subprocess
    import sys

    code = "from smriti.digest.learned import features; print(sorted(features('fix the flaky login test')))"
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    }
    assert len(runs) == 1 and json.loads(runs.pop()) == sorted(learned.features("fix the flaky login test"))


@given(
    st.lists(
        st.sampled_from(["fix", "crash", "teach", "design", "upgrade", "decide", "why", "api", "adr"]), max_size=12
    )
)
@settings(max_examples=60, deadline=None)
def test_model_json_round_trip_scores_the_same(words: list[str]) -> None:
    m = model()
    again = learned.Model.from_json(json.loads(json.dumps(m.to_json())))
    rows = m.known(learned.features(" ".join(words)))
    assert again.top.scores(rows) == m.top.scores(rows)
    for parent in m.children:
        assert again.child_probs(parent, rows) == m.child_probs(parent, rows)


_CLASS_NAMES = st.text("abcdefghij/", min_size=1, max_size=8)


@st.composite
def small_models(draw: st.DrawFn) -> learned.Model:
    """A model of a few features and levels, every weight within what a 32-bit field holds."""
    features = draw(st.lists(st.integers(0, 2**learned.HASH_BITS - 1), min_size=0, max_size=30, unique=True))

    def level() -> learned._Level:
        classes = tuple(draw(st.lists(_CLASS_NAMES, min_size=1, max_size=5, unique=True)))
        bias = tuple(draw(st.lists(st.floats(-50, 50), min_size=len(classes), max_size=len(classes))))
        weight = st.integers(-learned._OFFSET, learned._OFFSET - 1)
        cols = tuple(tuple(draw(st.lists(weight, min_size=len(features), max_size=len(features)))) for _ in classes)
        return learned._Level(classes, tuple(round(b, 4) for b in bias), cols)

    parents = draw(st.lists(_CLASS_NAMES, max_size=3, unique=True))
    return learned.Model(
        rows={f: i for i, f in enumerate(features)},
        top=level(),
        children={p: level() for p in sorted(parents)},
        temperature=draw(st.floats(0.5, 20)),
        child_temperature=draw(st.floats(0.5, 20)),
        rules_weight=draw(st.floats(0, 1)),
        meta=draw(st.dictionaries(st.text("abc", min_size=1, max_size=3), st.integers(), max_size=3)),
    )


@given(m=small_models())
@settings(max_examples=60, deadline=None)
def test_the_shipped_format_round_trips_a_model(m: learned.Model, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("model") / "m.bin.gz"
    m.save(path)
    again = learned.Model.load(path)
    assert again.to_json() == m.to_json()  # features, classes, biases, every weight, temperatures, meta
    assert again.top.packed == m.top.packed
    assert {p: lv.packed for p, lv in again.children.items()} == {p: lv.packed for p, lv in m.children.items()}
    copy = path.with_name("again.bin.gz")
    again.save(copy)
    assert copy.read_bytes() == path.read_bytes()  # the same model, the same bytes, wherever written


def test_the_shipped_model_is_what_its_json_form_packs() -> None:
    m = model()
    assert learned.Model.from_json(m.to_json()).to_json() == m.to_json()
    assert learned.Model.from_json(m.to_json()).top.packed == m.top.packed


@pytest.mark.parametrize(
    "damage",
    [
        lambda body: body[:-7],  # truncated
        lambda body: b"not a model" + body,
        lambda body: body + b"\0\0\0\0",  # trailing bytes
        # the last field's top byte: a weight past its 32-bit field's half, whose sums would carry
        lambda body: body[:-4] + b"\x01" + body[-3:],
    ],
)
def test_a_damaged_model_file_is_refused_with_its_name(tmp_path: Path, damage: object) -> None:
    import gzip

    good = gzip.decompress(learned.MODEL_FILE.read_bytes())
    path = tmp_path / "bad.bin.gz"
    path.write_bytes(gzip.compress(damage(good)))  # type: ignore[operator]
    with pytest.raises(ValueError, match="category model .*bad.bin.gz"):
        learned.Model.load(path)
    path.write_bytes(learned.MODEL_FILE.read_bytes()[:-100])  # the gzip stream itself cut short
    with pytest.raises(ValueError, match="category model .*bad.bin.gz"):
        learned.Model.load(path)


@given(st.lists(st.integers(min_value=0, max_value=199), max_size=60))
@settings(max_examples=80, deadline=None)
def test_packed_scores_equal_the_plain_sums(rows: list[int]) -> None:
    cols = tuple(tuple(((i * 7919 + c * 104729) % 4001) - 2000 for i in range(200)) for c in range(9))
    level = learned._Level(tuple(f"c{c}" for c in range(9)), tuple(0.5 * c for c in range(9)), cols)
    plain = [0.5 * c + sum(cols[c][r] for r in rows) / 100 for c in range(9)]
    assert level.scores(rows) == pytest.approx(plain)


def test_training_is_reproducible_from_the_same_rows() -> None:
    docs = [learned.features(t) for t in ("fix the crash", "teach me sql", "fix the null pointer", "explain joins")]
    labels = ["bug/fix", "topic/learning", "bug/fix", "topic/learning"]
    vocab = sorted({f for d in docs for f in d})
    one, two = learned.fit_level(docs, labels, vocab), learned.fit_level(docs, labels, vocab)
    assert one.columns == two.columns and one.classes == ("bug/fix", "topic/learning")


# --- team labels (the in-memory part) --------------------------------------------------------------------------

INVOICE = "tweak the invoice pdf layout: move the vat number under the logo and shrink the footer font"


def test_labels_move_a_similar_session_and_leave_others_alone() -> None:
    m = model()
    session = [u(INVOICE.replace("vat number", "tax id")), a("Moved it and adjusted the footer.")]
    default = classify(session, model=m)
    assert default.category != "decision/process"
    labelled = [
        (learned.document([u(INVOICE), a("Done, the layout is updated.")]), "decision/process"),
        (learned.document([u(INVOICE + " and the header color"), a("Updated the pdf template.")]), "decision/process"),
    ]
    memory = learned.TeamMemory(m, labelled)
    assert classify(session, model=m, team=memory).category == "decision/process"
    unrelated = [u("the websocket reconnect loop spins the cpu at 100%, fix it"), a("Fixed the backoff.")]
    assert classify(unrelated, model=m, team=memory).category == classify(unrelated, model=m).category


def test_a_session_is_not_its_own_neighbour() -> None:
    m = model()
    session = [u(INVOICE), a("Done.")]
    memory = learned.TeamMemory(m, [(learned.document(session), "decision/process", 7)])
    assert classify(session, model=m, team=memory, session=7) == classify(session, model=m)


# --- corrections through the CLI and the store ----------------------------------------------------------------


def _ingest(runner, tmp_path: Path, native: str, turns: list[tuple[str, object]]) -> None:
    project = tmp_path / "invoicing"
    project.mkdir(exist_ok=True)
    path = tmp_path / "transcripts" / f"{native}.jsonl"
    path.parent.mkdir(exist_ok=True)
    path.write_text(transcript(native, project, turns))
    assert invoke_json(runner, "ingest", "--path", str(path))["errors"] == []


def _invoice_turns(detail: str) -> list[tuple[str, object]]:
    return [("user", INVOICE.replace("the footer font", detail)), ("assistant", "Updated the invoice template.")]


def test_tags_are_corrections_the_next_categorize_uses(runner, tmp_path: Path) -> None:
    for i, detail in enumerate(["the footer font", "the footer margin"]):
        _ingest(runner, tmp_path, f"inv-{i}", _invoice_turns(detail))
    before = invoke_json(runner, "show", "inv-1")["category"]
    assert before != "decision/process"

    tagged = invoke_json(runner, "tag", "inv-0", "decision/process")
    assert tagged["category"] == "decision/process"
    rows = {r["id"]: r for r in invoke_json(runner, "categories")}
    assert rows["decision/process"]["corrections"] == 1 and rows["decision/process"]["corrections_from_tags"] == 1
    assert sum(r["corrections"] for r in rows.values()) == 1

    # the next session of the project, and a recategorize of the older one, follow the team's tag
    _ingest(runner, tmp_path, "inv-2", _invoice_turns("the page numbers"))
    assert invoke_json(runner, "show", "inv-2")["category"] == "decision/process"
    invoke_json(runner, "categorize", "--all")
    assert invoke_json(runner, "show", "inv-1")["category"] == "decision/process"

    # untag: the correction is gone, and so is its effect
    invoke_json(runner, "untag", "inv-0")
    assert sum(r["corrections"] for r in invoke_json(runner, "categories")) == 0
    invoke_json(runner, "categorize", "--all")
    assert invoke_json(runner, "show", "inv-1")["category"] == before


def test_a_knowledge_file_moved_to_another_category_and_synced_is_a_correction(team) -> None:  # noqa: F811
    alice, _ = team
    zorblax(alice)
    shared = alice.clone / alice.share("--session", "sess-zorblax")["written"][0]
    alice.commit_push("share")
    assert alice.sync()["relabelled"] == 0
    # a later session on the same subject, categorized before the review
    zorblax(alice, native_id="sess-zorblax-2", extra=" Next time we also check the zorblax hit ratio.")
    before = alice.json("show", "sess-zorblax-2")["category"]
    assert not before.startswith("topic")

    moved = alice.clone / ".smriti" / "knowledge" / "topic" / "learning" / shared.name
    moved.parent.mkdir(parents=True)
    alice.git("mv", str(shared), str(moved))
    alice.commit_push("review: this is how the cache works, file it under topic/learning")
    assert alice.sync()["relabelled"] == 1
    rows = {r["id"]: r for r in alice.json("categories")}
    assert rows["topic/learning"]["corrections_from_moves"] == 1

    alice.json("categorize", "--session", "sess-zorblax-2")
    assert alice.json("show", "sess-zorblax-2")["category"] == "topic/learning"
    assert alice.sync()["relabelled"] == 0  # a no-op sync learns nothing new


def test_a_one_line_chat_is_not_filed_with_false_confidence() -> None:
    """Real stores are full of one-line test chats; the model must not file them into a folder a
    reviewer would reject (before the evidence shrink: architecture/tradeoff at 0.44)."""
    from smriti.digest.combined import classify
    from smriti.models import Message

    for text in ("List the files", "add some jokes to jokes.csv", "Please update src/main.rs"):
        result = classify([Message("user", text, "prompt", "a"), Message("assistant", "Done.", "response", "b")])
        assert result.category == "uncategorized", (text, result)
    long_bug = (
        "we get PoolTimeout errors under load in the payments API; the traceback shows the pool is exhausted "
        "after the retry storm, please find the cause and fix it"
    )
    result = classify([Message("user", long_bug, "prompt", "a"), Message("assistant", "Fixed.", "response", "b")])
    assert result.category.startswith("bug")


@given(st.one_of(st.text(max_size=60), st.text(alphabet="aZz_ \u00e9\u212a\u0130\ud800\n-09", max_size=40)))
def test_the_byte_tokenizer_finds_the_regexs_words(text: str) -> None:
    # features() splits a document's bytes instead of running `_TOKEN.findall` on it: the same
    # words, in order (non-ASCII letters, a Kelvin sign that lowers to "k", a lone surrogate)
    lowered = text.lower()
    assert [t.decode() for t in learned._tokens(lowered)] == learned._TOKEN.findall(lowered)
    assert [t.decode() for t in learned._tokens(text)] == learned._TOKEN.findall(text)
