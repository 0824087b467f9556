"""Distillation: titles cleaned from real-looking prompts, the extractive summary, entities."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from smriti.digest import distill
from smriti.digest.distill import (
    LINE_MAX,
    SUMMARY_LINES,
    TITLE_MAX,
    UNTITLED,
    Entities,
    entities,
    strip_injected,
    summary,
    title,
)
from smriti.models import KINDS, ROLES, Message, Session

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "claude-code"
_keys = itertools.count()


def u(text: str) -> Message:
    return Message("user", text, "prompt", f"k{next(_keys)}")


def a(text: str) -> Message:
    return Message("assistant", text, "response", f"k{next(_keys)}")


def call(tool: str, summary_: str = "", files: tuple[str, ...] = (), **tool_input) -> Message:
    return Message(
        "assistant",
        f"{tool}: {summary_}",
        "tool_call",
        f"k{next(_keys)}",
        tool_name=tool,
        tool_input=tool_input,
        files=files,
    )


def res(text: str, tool: str | None = "Bash") -> Message:
    return Message("tool", text, "tool_result", f"k{next(_keys)}", tool_name=tool)


def injected(text: str) -> Message:
    return Message("user", text, "injected_context", f"k{next(_keys)}")


# --- title --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("Can you find out why the connection pool is exhausted?", "Find out why the connection pool is exhausted"),
        ("please add a --dry-run flag to the sync command", "Add a --dry-run flag to the sync command"),
        ("hey, could you help me write a bug report for the mobile team?", "Write a bug report for the mobile team"),
        (
            "I want you to refactor orders/service.py into smaller functions.",
            "Refactor orders/service.py into smaller functions",
        ),
        # the request sentence, not the pasted log before it
        (
            "The API returns 500s under load:\n\nTraceback (most recent call last):\n"
            '  File "app.py", line 3, in <module>\n'
            "psycopg_pool.PoolTimeout: couldn't get a connection after 30.00 sec\n\nCan you fix the pool exhaustion?",
            "Fix the pool exhaustion",
        ),
        (
            "```python\nprint('hi')\n```\nwhy does this print twice in the REPL?",
            "Why does this print twice in the REPL",
        ),
        (
            "<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n"
            "<command-args>the retry changes in http/client.py</command-args>",
            "The retry changes in http/client.py",
        ),
        (
            "<system-reminder>Remember the todo list.</system-reminder>Upgrade numpy to 2.1 please",
            "Upgrade numpy to 2.1",
        ),
        (
            '<smriti-context source="recall">old notes: fix the cache</smriti-context>\n'
            "rename the user model to account",
            "Rename the user model to account",
        ),
        (
            "    at Object.<anonymous> (/app/index.js:3:9)\n    at Module._compile "
            "(node:internal/modules/cjs/loader:1256:14)\n"
            "TypeError: x is not a function\nfix this crash in the import script",
            "Fix this crash in the import script",
        ),
        # a command line keeps the person's case: "chmod", not "Chmod"
        ("chmod +x ~/repos/*.sh", "chmod +x ~/repos/*.sh"),
        ("ls -la", "ls -la"),
        ("add src/x.py to the list", "Add src/x.py to the list"),
        # a slash command with its arguments is the request, whatever follows it
        ("/review the retry logic in http/client.py\n\nIs it safe?", "/review the retry logic in http/client.py"),
        # a vague request borrows the sentence that says what it is about
        (
            "can you review PR #412? it adds retries to our http client",
            "Review PR #412: it adds retries to our http client",
        ),
    ],
)
def test_title_is_the_cleaned_request(prompt: str, expected: str) -> None:
    assert title([u(prompt)]) == expected


def test_title_is_short_and_cut_at_a_boundary() -> None:
    prompt = (
        "add an 'Export CSV' button on the transactions page that downloads whatever the current filters show, "
        "including the date range and the account selector, as a streamed file"
    )
    t = title([u(prompt)])
    assert len(t) <= TITLE_MAX
    assert t == "Add an 'Export CSV' button on the transactions page"
    long_words = "refactor " + " ".join(["supercalifragilistic"] * 10)
    t = title([u(long_words)])
    assert len(t) <= TITLE_MAX and not t.endswith(" ")
    assert prompt_words_intact(t, long_words)


def prompt_words_intact(t: str, original: str) -> bool:
    return all(w in original.lower().split() for w in t.lower().split())


def test_title_skips_greetings_and_injected_messages() -> None:
    msgs = [
        injected("<local-command-stdout>ok</local-command-stdout>"),
        u("hi"),
        a("Hello!"),
        u("bump django to 5.0 and fix whatever breaks"),
    ]
    assert title(msgs) == "Bump django to 5.0 and fix whatever breaks"


def test_title_falls_back_to_the_agents_title() -> None:
    assert (
        title([a("I looked at the logs.")], agent_title="Fix connection pool exhaustion")
        == "Fix connection pool exhaustion"
    )
    assert title([u("hi")], agent_title="Fix the pool") == "Fix the pool"
    assert title([u("hi")]) == "Hi"
    assert title([]) == UNTITLED
    session = Session(agent="claude-code", native_id="s", messages=(a("done"),), title="Agent's own title")
    assert title(session) == "Agent's own title"


def test_strip_injected() -> None:
    assert strip_injected("a <system-reminder>x</system-reminder> b").split() == ["a", "b"]
    assert strip_injected("a <smriti-context>unclosed to the end").split() == ["a"]
    assert strip_injected("<command-args>keep me</command-args>").strip() == "keep me"
    assert strip_injected("no tags at all") == "no tags at all"


# --- summary ------------------------------------------------------------------------------------------

POOL_SESSION = [
    u(
        "The payments API returns 500s under load: psycopg_pool.PoolTimeout. Can you find out why the connection pool "
        "is exhausted?"
    ),
    call("Read", "src/db/pool.py", file_path="src/db/pool.py"),
    res("def get_conn():\n    conn = pool.getconn()\n    return conn", "Read"),
    a(
        "Found it: get_conn() takes a connection but the error path never calls pool.putconn(), so every failed charge "
        "leaks a connection. I'll switch callers to the context manager."
    ),
    call(
        "Edit",
        "src/db/pool.py",
        file_path="src/db/pool.py",
        old_string="conn = pool.getconn()",
        new_string="with pool.connection() as conn:",
    ),
    res("The file src/db/pool.py has been updated.", "Edit"),
    call("Bash", "pytest tests/test_pool.py -q", command="pytest tests/test_pool.py -q"),
    res("....\n4 passed in 0.41s"),
    u("Also pin psycopg so this does not regress with the 3.2 pool changes."),
    a(
        "Pinned psycopg[pool]==3.1.18 in requirements.txt. We decided to pin because psycopg_pool 3.2 changed the "
        "default reconnect timeout and the retry wrapper relies on the old behaviour."
    ),
    a("All pool tests pass and the load test no longer shows PoolTimeout."),
]


def test_summary_has_goal_finding_decision_and_outcome() -> None:
    lines = summary(POOL_SESSION)
    assert lines[0] == "Goal: Find out why the connection pool is exhausted"
    found = [x for x in lines if x.startswith("Found: ")]
    decided = [x for x in lines if x.startswith("Decided: ")]
    outcome = [x for x in lines if x.startswith("Outcome: ")]
    assert found and "leaks a connection" in found[0]
    assert decided and "We decided to pin because psycopg_pool 3.2 changed" in decided[0]
    assert outcome == ["Outcome: All pool tests pass and the load test no longer shows PoolTimeout."]


def test_summary_picks_the_decision_sentence() -> None:
    msgs = [
        u("Should we use Alembic or plain SQL files for migrations?"),
        a(
            "Alembic autogenerates migrations from the models. Plain SQL files are simpler to review. Both work with "
            "blue-green deploys."
        ),
        a("Let's go with Alembic because the team already uses SQLAlchemy models and autogenerate catches drift."),
        a("I ran alembic init and committed the skeleton."),
    ]
    decided = [x for x in summary(msgs) if x.startswith("Decided: ")]
    assert decided == [
        "Decided: Let's go with Alembic because the team already uses SQLAlchemy models and autogenerate catches drift."
    ]


def test_summary_bounds_and_determinism() -> None:
    long = "We decided to " + "really " * 80 + "pin the version because it broke."
    msgs = [
        u("fix the build"),
        *[a(f"The root cause was step {i}. Fixed it and tests pass now. {long}") for i in range(40)],
    ]
    lines = summary(msgs)
    assert 1 <= len(lines) <= SUMMARY_LINES
    assert all(len(x) <= LINE_MAX for x in lines)
    assert lines == summary(list(msgs))


def test_summary_of_nothing() -> None:
    assert summary([]) == []
    assert summary([u("hi"), a("Hello!")]) == []


# --- entities -----------------------------------------------------------------------------------------


def test_entities_from_a_session() -> None:
    e = entities(POOL_SESSION)
    assert e.files == ("src/db/pool.py",)
    assert e.commands == ("pytest tests/test_pool.py -q",)
    assert "psycopg_pool.PoolTimeout" in e.errors
    assert [lib.text for lib in e.libraries] == ["psycopg[pool]==3.1.18"]
    assert e.libraries[0].name == "psycopg" and e.libraries[0].version == "3.1.18"


def test_files_from_tool_inputs_and_message_files() -> None:
    msgs = [
        call("Edit", "a.py", file_path="src/a.py", old_string="x", new_string="y"),
        call("Write", "b.ts", files=("web/b.ts",), file_path="web/b.ts", content="export {}"),
        call(
            "apply_patch",
            input="*** Begin Patch\n*** Update File: lib/c.rb\n@@\n-x\n+y\n*** Add File: lib/d.rb\n+z\n*** End Patch",
        ),
        call("Grep", "src", files=("src",), pattern="TODO", path="src"),  # a search root, not a file touched
        Message("assistant", "edited", "response", "r1", files=("docs/e.md",)),
        call("Edit", "a.py", file_path="src/a.py", old_string="y", new_string="z"),
    ]
    assert entities(msgs).files == ("src/a.py", "web/b.ts", "lib/c.rb", "lib/d.rb", "docs/e.md")


def test_commands_from_shell_like_tools() -> None:
    msgs = [
        call("Bash", command="npm test -- upload"),
        call("shell", command=["bash", "-lc", "cargo build --release"]),
        call("exec_command", cmd=["git", "status", "--short"]),
        call("run_shell_command", command="python - <<'EOF'\nprint(1)\nEOF"),
        call("Read", file_path="x.py"),
        call("Bash", command="npm test -- upload"),
    ]
    assert entities(msgs).commands == (
        "npm test -- upload",
        "cargo build --release",
        "git status --short",
        "python - <<'EOF'",
    )


@pytest.mark.parametrize(
    ("output", "signature"),
    [
        ("Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'XOF'", "KeyError: 'XOF'"),
        ("Uncaught TypeError: x is not a function\n    at main (app.js:3:9)", "TypeError: x is not a function"),
        (
            "psycopg_pool.PoolTimeout: couldn't get a connection after 30.00 sec",
            "psycopg_pool.PoolTimeout: couldn't get a connection after 30.00 sec",
        ),
        (
            'Exception in thread "main" java.lang.IllegalStateException: pool closed',
            "java.lang.IllegalStateException: pool closed",
        ),
        ("error[E0382]: borrow of moved value: `s`\n --> src/main.rs:4:20", "error[E0382]: borrow of moved value: `s`"),
        ("src/a.tsx(41,30): error TS2531: Object is possibly 'null'.", "TS2531: Object is possibly 'null'"),
        (
            "goroutine 1 [running]:\npanic: runtime error: index out of range [3] with length 3",
            "panic: runtime error: index out of range [3] with length 3",
        ),
        ("npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree", "npm ERR! code ERESOLVE"),
        ("Error: connect ECONNREFUSED 127.0.0.1:5432", "Error: connect ECONNREFUSED 127.0.0.1:5432"),
        ("E       AssertionError: assert 'a' == 'b'", "AssertionError: assert 'a' == 'b'"),
    ],
)
def test_error_signatures(output: str, signature: str) -> None:
    assert signature in entities([res(output)]).errors


def test_error_mentions_in_code_and_prose_are_not_errors() -> None:
    assert entities([res("raise ValueError('bad')\nexcept KeyError:\n    pass", tool="Read")]).errors == ()
    assert entities([a("This raises ValueError when the list is empty.")]).errors == ()
    assert entities([res("    if not x: raise RuntimeError(msg)")]).errors == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pinned psycopg[pool]==3.1.18 in requirements.txt", ("psycopg", "3.1.18", "psycopg[pool]==3.1.18")),
        ("npm install react@18.2.0 react-dom@18.2.0", ("react", "18.2.0", "react@18.2.0")),
        ("added @tanstack/react-query@4.36.1", ("@tanstack/react-query", "4.36.1", "@tanstack/react-query@4.36.1")),
        ("let's upgrade numpy to 2.1 this sprint", ("numpy", "2.1", "numpy 2.1")),
        ("bump Django from 4.2 to 5.0", ("Django", "5.0", "Django 5.0")),
        ("  - Updating urllib3 (1.26.15 -> 1.26.18)", ("urllib3", "1.26.18", "urllib3==1.26.18")),
        ("Successfully installed fastapi-0.111.0 starlette-0.37.2", ("fastapi", "0.111.0", "fastapi==0.111.0")),
        (
            "require github.com/jackc/pgx/v5 v5.5.4",
            ("github.com/jackc/pgx/v5", "v5.5.4", "github.com/jackc/pgx/v5 v5.5.4"),
        ),
    ],
)
def test_libraries_and_versions(text: str, expected: tuple[str, str, str]) -> None:
    libs = entities([u(text)]).libraries
    assert expected in [(x.name, x.version, x.text) for x in libs], libs


def test_libraries_pinned_in_manifest_edits() -> None:
    msgs = [
        call(
            "Edit",
            file_path="package.json",
            old_string='"react": "^17.0.2"',
            new_string='"react": "^18.2.0",\n    "version": "1.0.0"',
        ),
        call(
            "Edit",
            file_path="Cargo.toml",
            old_string="",
            new_string='serde = { version = "1.0.197", features = ["derive"] }\ntokio = "1.36"',
        ),
        call("Edit", file_path="src/app.py", old_string="", new_string='if version == "2.1.0": requests==2.31.0'),
    ]
    assert [x.text for x in entities(msgs).libraries] == ["react@^18.2.0", "serde 1.0.197", "tokio 1.36"]


def test_no_libraries_from_emails_or_comparisons() -> None:
    libs = entities([u("mail dev@example.com about it; if count == 3 and x>=1.5 then stop")]).libraries
    assert libs == ()


def test_commits() -> None:
    msgs = [
        a("The regression came in with commit 3f9a2c1e5b7d4a60 and was reverted in a41c2d9 (commit message: revert)."),
        call("Bash", command="git commit -m 'ci: add workflow'"),
        res("[ci-setup 5d2e8f1] ci: add workflow\n 1 file changed, 21 insertions(+)"),
        call("Bash", command="git log --oneline -n 2"),
        res("b7e41d0 fix: pool leak\n0c9d8e7 chore: bump deps"),
        u("the build number 1234567 is not a commit... neither is deadbeef"),
    ]
    assert entities(msgs).commits == ("3f9a2c1e5b7d4a60", "a41c2d9", "5d2e8f1", "b7e41d0", "0c9d8e7")


def test_urls() -> None:
    msgs = [
        u("see https://github.com/psycopg/psycopg/issues/123, and (https://docs.python.org/3/library/re.html)."),
        a("Also http://localhost:8000/health."),
    ]
    assert entities(msgs).urls == (
        "https://github.com/psycopg/psycopg/issues/123",
        "https://docs.python.org/3/library/re.html",
        "http://localhost:8000/health",
    )


def test_injected_context_gives_no_entities() -> None:
    assert (
        entities([injected("<smriti-context>see https://x.example.com/a and KeyError: 'boom'</smriti-context>")])
        == Entities()
    )


def test_entities_to_dict() -> None:
    d = entities(POOL_SESSION).to_dict()
    assert d["libraries"] == [{"name": "psycopg", "version": "3.1.18", "text": "psycopg[pool]==3.1.18"}]
    assert d["commits"] == [] and d["files"] == ["src/db/pool.py"]


# --- the repository's example sessions, through the real adapter ------------------------------------------


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="examples/ not present")
def test_example_sessions() -> None:
    from smriti.adapters.claude_code import ClaudeCodeAdapter

    sessions = {}
    for path in sorted(EXAMPLES.glob("*/*.jsonl")):
        for s in ClaudeCodeAdapter().parse(path).sessions:
            sessions[s.title] = s
    pool = sessions["Fix connection pool exhaustion under load"]
    assert title(pool.messages) == "Find out why the connection pool is exhausted"
    e = entities(pool)
    assert any(err.startswith("psycopg_pool.PoolTimeout") for err in e.errors)
    assert "psycopg[pool]==3.1.18" in [x.text for x in e.libraries]
    assert any(x.startswith("Decided: ") and "pin" in x for x in summary(pool))


# --- robustness ---------------------------------------------------------------------------------------

texts = st.text(max_size=400) | st.sampled_from(
    [
        "```\nunclosed",
        "<smriti-context>",
        "Traceback (most recent call last):\nKeyError: 'x'",
        "a@1.2.3 b==4.5",
        "commit abc1234",
        "",
    ]
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["command", "cmd", "file_path", "path", "paths", "input", "content"]) | st.text(max_size=8),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
messages = st.builds(
    lambda role, kind, text, tool, inp, files, n: Message(
        role, text, kind, f"k{n}", tool_name=tool, tool_input=inp, files=files
    ),
    st.sampled_from(ROLES),
    st.sampled_from(KINDS),
    texts,
    st.none() | st.sampled_from(["Bash", "shell", "Read", "Edit", "apply_patch", "exec_command"]),
    json_values,
    st.lists(st.text(max_size=20), max_size=3).map(tuple),
    st.integers(),
)


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages, max_size=10), st.none() | st.text(max_size=120))
def test_arbitrary_messages_never_raise(msgs: list[Message], agent_title: str | None) -> None:
    t = title(msgs, agent_title)
    assert isinstance(t, str) and 0 < len(t) <= TITLE_MAX
    lines = summary(msgs)
    assert len(lines) <= SUMMARY_LINES and all(isinstance(x, str) and len(x) <= LINE_MAX for x in lines)
    e = entities(msgs)
    assert all(isinstance(x, str) for x in (*e.files, *e.commands, *e.errors, *e.commits, *e.urls))
    assert entities(msgs) == e and summary(msgs) == lines and title(msgs, agent_title) == t


@hsettings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["commit", "Commit", "COMMITTED", "commits", " ", "\n", "abc1234", "deadbeef12", "a1b2c3d4e5f6", "/", "-"]
            + [".", "x", "İ", "ı", "fix", "\r\n", "0123456789abcdef0123", "CoMmIt", "ab12CD3", "[main ", "]"]
            # around the quick test for seven hex digits in a row: short runs, upper case, a run
            # broken by a character whose bytes are not hex, a lone surrogate, the Kelvin sign
            + ["abc12", "3d", "DEADBEE", "F00D1", "\u00e9", "\ud800", "\u212a", "\uff21"]
        ),
        max_size=40,
    ).map("".join)
)
@example("commit abc1234")  # a hash of seven digits, the fewest the quick test lets through
@example("ABC1234 is the commit\nthe commit ab12cd3 and 1234567\u00e9")  # upper case, two lines
def test_commit_scan_by_line_finds_what_a_scan_of_the_whole_text_does(text: str) -> None:
    # entities() runs the commit patterns over the lines that hold the word only (for speed);
    # the reference is the plain scan of the whole text.
    whole = distill._Ordered()
    if "ommit" in text or "OMMIT" in text:
        for rx in distill._COMMIT_NEAR[:2]:
            for m in rx.finditer(text):
                if distill._has_hex_mix(m.group(1)):
                    whole.add(m.group(1))
    by_line = distill._Ordered()
    distill._scan_commits(text, by_line, git_output=False)
    assert by_line.values() == whole.values()


@given(
    st.lists(
        st.sampled_from(["commit", "Commit", "COMMIT", "cOmMiT", "commits", "ommit", "x", " ", "\n", "é", "İ", "K"]),
        max_size=30,
    ).map("".join)
)
@hsettings(max_examples=200, deadline=None)
def test_commit_words_are_found_where_the_case_insensitive_regex_finds_them(text: str) -> None:
    # _commit_words searches a lowered ASCII text with str.find instead of the regex: same places
    assert list(distill._commit_words(text)) == [m.span() for m in distill._COMMIT_WORD.finditer(text)]


def _first_request_uncached(messages: list[Message]) -> str | None:
    """`distill._first_request` as it was before its cache: the definition the cache must keep."""
    for msg in messages:
        if distill._is_prompt(msg):
            sentence = distill._request_sentence(msg.text)
            if sentence is not None and len(distill._clean_title(sentence).split()) >= 2:
                return sentence
    return None


_prompt_words = st.sampled_from(
    ["fix", "the", "flaky", "test", "Please", "add", "retries", "to", "our", "client.", "why?", "```", "\n", "hi", "ok"]
)


@given(
    prompts=st.lists(
        st.tuples(st.integers(0, 2_500), st.lists(_prompt_words, max_size=30).map(" ".join)), min_size=1, max_size=4
    )
)
@hsettings(max_examples=100, deadline=None)
def test_the_first_request_cache_gives_the_uncached_answer(prompts: list[tuple[int, str]]) -> None:
    """The cache is keyed by a prompt's first REQUEST_CAP characters (all `_request_sentence` reads):
    a request after up to 10,000 characters of filler (the cap falls before it, inside it or after
    it) must come out as the uncached definition finds it."""
    messages = [Message("user", "ok. " * filler + text, "prompt", f"k{i}") for i, (filler, text) in enumerate(prompts)]
    assert distill._first_request(messages) == _first_request_uncached(messages)


# Text as prompts and responses hold it: ASCII words and punctuation, control characters that
# str.split takes for spaces (\x1c-\x1f), curly quotes, dashes and other scripts.
_WORDY = st.text(alphabet=st.sampled_from("aZ_' .,-!?:/\t\n\x1c\x1f\u2019\u2014\u00c9\u0130\u03a3\u4e2d5"), max_size=40)


@given(st.one_of(_WORDY, st.text(max_size=40)))
def test_words_reads_ascii_text_as_the_unicode_path_does(text: str) -> None:
    # `words` takes a byte-table shortcut for ASCII text; it must split it as the str path does
    assert distill.words(text) == text.lower().translate(distill._TRANSLATE).split()


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_prose_lines_count_ascii_symbols_as_the_unicode_path_does(line: str) -> None:
    # the byte count of what is not a letter or a space, against the per-character count
    kept = len(line.encode().translate(None, distill._LETTERS_AND_SPACE))
    assert kept == sum(not (ch.isalpha() or ch == " ") for ch in line)


# Bodies as a summary reads them: cue words (whose anchors the prefilter looks for), sentence ends
# with closing quotes and brackets, every kind of line break str.splitlines knows, code fences,
# injected blocks, log-like lines, and letters whose lowercase depends on their neighbours (final
# sigma) or is ASCII (the Kelvin sign).
_BODY_PIECES = st.sampled_from(
    ["because", "decided", "Found", "root", "cause", "turns", "out", "the", "fix", "it's", "x", "\u03a3\u03b1\u03a3"]
    + [".", "!", "?", "'", '"', ")", "]", "(", "`", ":", "-", "\u2019", "\u212a", "\u0130", "5", "3.1"]
    + [" ", "  ", "\t", "\n", "\n\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028"]
    + ["```", "~~~", "<system-reminder>", "</system-reminder>", "    ", "ERROR ", "$ ", "| ", "**", "# "]
)


@hsettings(max_examples=400, deadline=None)
@given(st.lists(_BODY_PIECES, max_size=60).map("".join))
@example("It was fixed.' Because \u03a3\u03b1\u03a3.\nroot cause")
@example("x because\x1cdecided. Found it\u2028turns out")
@example("\u03a3\u03b1\u03a3```because\n")  # a final sigma in the sentence, not in the body
def test_a_sentences_ascii_words_are_words_of_its_body(body: str) -> None:
    """`summary` skips a body none of whose words is a cue's anchor without cutting it into
    sentences: sound only if every anchor a sentence holds is a word of the body, on both paths
    (a response's lines as they are, a prompt's prose lines). Sentences are cut at spaces and
    separators, so each word of one is a word of the body, lowered alike, but for a Greek sigma,
    which lowers by what follows it (final or not); the anchors are all ASCII."""
    assert all(anchor.isascii() for anchor in distill._cue_index()[1])
    body_words = set(distill.words(body))
    for lines in (body.splitlines(), distill._prose_lines(body)):
        for sentence in distill._sentences(lines):
            assert {w for w in distill.words(sentence) if w.isascii()} <= body_words, sentence
