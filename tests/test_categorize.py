"""Categorization: the seeded taxonomy on real-looking sessions, role awareness, the floor, team
configuration (and its errors), determinism, incremental folding, and robustness (hypothesis)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from smriti.digest.categorize import (
    CategoryResult,
    add_scores,
    categorize_session,
    decide,
    rules_only,
    score_messages,
)
from smriti.digest.taxonomy import UNCATEGORIZED, default_settings, load_team_categories, parse_team_config
from smriti.errors import ConfigError
from smriti.models import KINDS, ROLES, Message, Session

_keys = itertools.count()


def u(text: str) -> Message:
    return Message("user", text, "prompt", f"k{next(_keys)}")


def a(text: str) -> Message:
    return Message("assistant", text, "response", f"k{next(_keys)}")


def call(tool: str, summary: str, **tool_input) -> Message:
    files = tuple(v for k, v in tool_input.items() if k == "file_path")
    return Message(
        "assistant",
        f"{tool}: {summary}",
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


TRACE = """Traceback (most recent call last):
  File "/srv/app/jobs/sync.py", line 41, in run
    batch = fetch(cursor)
  File "/srv/app/jobs/sync.py", line 17, in fetch
    return rows[cursor.offset]
IndexError: list index out of range"""

EXAMPLES = {
    "bug/fix": [
        u("the nightly sync job crashes since yesterday, can you fix it?\n\n" + TRACE),
        call("Read", "/srv/app/jobs/sync.py", file_path="/srv/app/jobs/sync.py"),
        res("def fetch(cursor):\n    return rows[cursor.offset]", "Read"),
        a("The offset is past the end when the last page is exactly full. I'll return an empty batch instead."),
        call(
            "Edit",
            "/srv/app/jobs/sync.py",
            file_path="/srv/app/jobs/sync.py",
            old_string="return rows[cursor.offset]",
            new_string="return rows[cursor.offset:cursor.offset + 100]",
        ),
        res("The file /srv/app/jobs/sync.py has been updated.", "Edit"),
        call("Bash", "pytest tests/jobs -q", command="pytest tests/jobs -q"),
        res("........\n8 passed in 0.52s"),
        a("Fixed: the job no longer crashes on a full last page; added a regression test."),
    ],
    "bug/investigation": [
        u(
            "p99 latency of the search endpoint doubled after Tuesday's deploy. Don't change anything yet, I want to "
            "understand the root cause first."
        ),
        call("Bash", "git log --oneline --since=tuesday", command="git log --oneline --since=tuesday"),
        res("9f3c2a1 search: rank by recency\n41d0b7e deps: bump elasticsearch client"),
        a(
            "The recency boost adds a script score that runs on every hit; the profile shows 70% of the time in it. "
            "That's the likely cause."
        ),
    ],
    "code/review": [
        u("please review my PR, the diff is in /tmp/pr.diff. be picky about naming and error handling"),
        call("Read", "/tmp/pr.diff", file_path="/tmp/pr.diff"),
        res("+def get(u):\n+    try:\n+        return requests.get(u).json()\n+    except:\n+        pass", "Read"),
        a(
            "Review notes: the bare except swallows errors, `u` should be `url`, and a timeout is missing. Requesting "
            "changes."
        ),
    ],
    "code/snippet": [
        u("give me a jq one-liner that prints the name of every failed job in this json"),
        a("```\njq -r '.jobs[] | select(.status == \"failed\") | .name' runs.json\n```"),
    ],
    "architecture/design": [
        u(
            "Sketch the architecture for ingesting 50k webhook events per second: components, data flow, and what "
            "happens when the consumers fall behind."
        ),
        a(
            "Components: an edge receiver that validates and enqueues to Kafka, partitioned by tenant; stateless "
            "consumers; a dead-letter topic. When consumers lag, Kafka buffers; autoscale consumers on lag."
        ),
    ],
    "feature/requirement": [
        u(
            "Before we build anything for saved searches, write the user stories and acceptance criteria. Out of "
            "scope: sharing searches."
        ),
        a(
            "**Story:** As a user I want to save a search so that I can rerun it.\nAcceptance criteria:\n- Saved "
            "searches appear in the sidebar.\n- A user can rename and delete them."
        ),
    ],
    "feature/implementation": [
        u("add a 'remember me' checkbox to the login page so users stay signed in for 30 days"),
        call(
            "Edit",
            "src/pages/Login.tsx",
            file_path="src/pages/Login.tsx",
            old_string="<SubmitButton />",
            new_string="<Checkbox name='remember' />\n<SubmitButton />",
        ),
        res("The file src/pages/Login.tsx has been updated.", "Edit"),
        a("The checkbox is in; when checked the session cookie gets a 30-day max-age."),
    ],
    "project/dependency": [
        u("bump fastapi to the latest version and pin it, dependabot keeps nagging"),
        call("Bash", "pip install -U fastapi", command="pip install -U fastapi"),
        res("Successfully installed fastapi-0.111.0 starlette-0.37.2"),
        a("Upgraded fastapi to 0.111.0 and pinned it in requirements.txt."),
    ],
    "project/setup": [
        u("set up a devcontainer and a Makefile so new devs can get the app running with one command"),
        call("Write", ".devcontainer/devcontainer.json", file_path=".devcontainer/devcontainer.json", content="{}"),
        res("File created successfully at: .devcontainer/devcontainer.json", "Write"),
    ],
    "decision/tooling": [
        u("Should we use pnpm or yarn for the monorepo? We care about install speed and strictness."),
        a("I'd pick pnpm: strict node_modules and a content-addressed store."),
        u("ok let's go with pnpm"),
    ],
    "decision/process": [
        u("We keep arguing about how to do releases. Propose a release process and branching policy for the team."),
        a(
            "Trunk-based development, release branches cut every two weeks, one approval per PR. The team agreed to "
            "adopt it next sprint."
        ),
    ],
    "topic/explanation": [
        u("Can you explain how Python's asyncio event loop schedules coroutines under the hood?"),
        a(
            "The loop keeps a ready queue of callbacks; awaiting a future suspends the coroutine until the future's "
            "callback puts it back in the ready queue."
        ),
    ],
    "topic/comparison": [
        u("What are the differences between TCP and QUIC? Not picking one, just want to understand."),
        a(
            "QUIC runs over UDP, multiplexes streams without head-of-line blocking and builds TLS 1.3 into the "
            "handshake."
        ),
    ],
    "topic/learning": [
        u("I'm new to SQL window functions. Teach me step by step with small exercises."),
        a("Step 1: ROW_NUMBER() OVER (PARTITION BY ...). Exercise: number each customer's orders by date."),
    ],
}


@pytest.mark.parametrize("expected", sorted(EXAMPLES))
def test_seeded_categories_on_realistic_sessions(expected: str) -> None:
    result = categorize_session(EXAMPLES[expected])
    assert result.category == expected, result
    assert 0 < result.confidence <= 1


def test_every_top_level_category_is_exercised() -> None:
    tops = {c.split("/")[0] for c in EXAMPLES}
    assert tops == {c.id for c in default_settings().categories if "/" not in c.id} - {UNCATEGORIZED}


def test_taxonomy_ids() -> None:
    ids = default_settings().ids
    for parent, kids in {
        "code": ("implementation", "pattern", "review", "snippet"),
        "architecture": ("design", "decision", "tradeoff"),
        "bug": ("report", "fix", "investigation"),
        "feature": ("requirement", "design", "implementation"),
        "project": ("setup", "config", "dependency"),
        "decision": ("technical", "process", "tooling"),
        "topic": ("learning", "explanation", "comparison"),
    }.items():
        assert parent in ids
        assert all(f"{parent}/{k}" in ids for k in kids)
    assert UNCATEGORIZED in ids


# --- role awareness -----------------------------------------------------------------------------------


def test_stack_trace_in_a_tool_result_says_bug() -> None:
    scores = score_messages([res(TRACE)])
    assert scores.get("bug", 0) > 0
    # the same trace quoted by the assistant is not evidence of a failure that happened
    assert score_messages([a(TRACE)]).get("bug", 0) < scores["bug"]
    session = [
        u("run the sync job against staging and tell me what it prints"),
        call("Bash", "python -m jobs.sync", command="python -m jobs.sync"),
        res(TRACE),
    ]
    # a strong cue the rules read in tool output; the combined decision reads it through the model's
    # "toolfailure" feature (tests/test_categorize_learned.py)
    assert rules_only(session).parent == "bug"


def test_file_contents_are_not_evidence_of_what_happened() -> None:
    assert score_messages([res(TRACE, tool="Read")]).get("bug", 0) == 0


def test_lets_go_with_x_because_says_decision() -> None:
    plain = score_messages([a("Both libraries can parse the config.")]).get("decision", 0)
    chosen = score_messages([a("Let's go with tomllib because it ships with Python 3.11.")]).get("decision", 0)
    assert chosen > plain
    session = [
        u("tomllib or tomli for reading config?"),
        a("tomllib ships with 3.11; tomli is the backport."),
        u("let's go with tomllib because we require 3.11 anyway"),
    ]
    # three lines are little evidence: the model may stay below the floor, but decision leads
    result = categorize_session(session)
    assert (result.parent if result.category != "uncategorized" else result.candidate) == "decision"


def test_first_request_weighs_most() -> None:
    text = "investigate why the export job is slow"
    first = score_messages([u(text)])
    later = score_messages([u("hello there, quick one today"), u(text)])
    assert first["bug/investigation"] > later["bug/investigation"]


def test_short_greeting_is_not_the_first_request() -> None:
    with_greeting = score_messages([u("hi"), u("investigate why the export job is slow")])
    without = score_messages([u("investigate why the export job is slow")])
    assert with_greeting["bug/investigation"] == pytest.approx(without["bug/investigation"])


def test_injected_context_is_ignored() -> None:
    session = EXAMPLES["topic/explanation"]
    noisy = [injected("<smriti-context>" + TRACE + " bug crash fix regression</smriti-context>"), *session]
    assert score_messages(noisy) == {**score_messages(session)}
    assert categorize_session(noisy) == categorize_session(session)


def test_injected_blocks_inside_a_prompt_are_ignored() -> None:
    clean = u("Can you explain how Python's asyncio event loop schedules coroutines?")
    dirty = u(
        "<system-reminder>crash bug fix regression traceback</system-reminder>Can you explain how Python's asyncio "
        "event loop schedules coroutines?"
    )
    assert score_messages([dirty]) == score_messages([clean])


# --- floor, decide, tags -------------------------------------------------------------------------------


def test_no_evidence_is_uncategorized_not_guessed() -> None:
    result = categorize_session([u("hi"), a("Hi! What are we working on today?")])
    assert result.category == UNCATEGORIZED
    assert result.confidence < default_settings().floor


def test_small_talk_is_uncategorized() -> None:
    session = [
        u("write a short poem about autumn leaves for my mum's card"),
        a("Golden leaves drift down, / a quiet autumn song..."),
    ]
    assert categorize_session(session).category == UNCATEGORIZED


def test_weak_evidence_falls_below_a_high_floor() -> None:
    high = parse_team_config("[categorize]\nfloor = 0.99\n")
    result = categorize_session(EXAMPLES["code/snippet"], high)
    assert result.category == UNCATEGORIZED
    assert result.candidate == "code"
    assert 0 < result.confidence < 0.99


def test_parent_when_children_do_not_separate() -> None:
    result = decide({"bug": 8.0, "bug/fix": 0.5, "bug/investigation": 0.5})
    assert result.category == "bug"
    assert decide({"bug": 4.0, "bug/fix": 6.0}).category == "bug/fix"


def test_secondary_tags_and_ids() -> None:
    result = decide({"bug": 3.0, "bug/fix": 6.0, "project/dependency": 5.0, "topic": 0.5})
    assert result.category == "bug/fix"
    assert [t.id for t in result.tags] == ["project"]
    assert result.ids == ("bug", "bug/fix", "project")
    assert all(0 < t.confidence <= 1 for t in result.tags)


def test_decide_ignores_unknown_categories_and_counters() -> None:
    assert decide({}) == CategoryResult(UNCATEGORIZED, 0.0)
    assert decide({"#prompts": 3.0, "#messages": 9.0, "gone/away": 50.0, "nan": float("nan")}).category == UNCATEGORIZED


def test_result_serializes() -> None:
    d = categorize_session(EXAMPLES["bug/fix"]).to_dict()
    assert d["category"] == "bug/fix" and isinstance(d["tags"], list)


def test_accepts_a_session() -> None:
    session = Session(agent="claude-code", native_id="s1", messages=tuple(EXAMPLES["project/dependency"]))
    assert categorize_session(session) == categorize_session(EXAMPLES["project/dependency"])


# --- incremental --------------------------------------------------------------------------------------


@pytest.mark.parametrize("expected", sorted(EXAMPLES))
def test_folding_appended_messages_equals_rescoring(expected: str) -> None:
    msgs = EXAMPLES[expected]
    whole = score_messages(msgs)
    for cut in range(len(msgs) + 1):
        saved = score_messages(msgs[:cut])
        folded = add_scores(saved, score_messages(msgs[cut:], prior=saved))
        assert folded.keys() == whole.keys()
        assert all(folded[k] == pytest.approx(whole[k], abs=1e-5) for k in whole)
        assert decide(folded).category == decide(whole).category


# --- team configuration -------------------------------------------------------------------------------

TEAM = """
title = "other features' settings live here too"

[redact]
allow = ["sha256:abc"]

[categorize]
floor = 0.25

[[categorize.categories]]
id = "ops"
description = "Operating production"
keywords = ["runbook", "on-call"]

[[categorize.categories]]
id = "ops/incident"
keywords = ["outage", "pager", "postmortem", "incident review"]

[[categorize.categories]]
id = "bug/fix"
keywords = ["hotpatch"]

[[categorize.rules]]
category = "ops/incident"
pattern = "(?i)\\\\bSEV-?[12]\\\\b"
weight = 3.0
roles = ["user", "assistant"]
"""


def test_team_categories_take_effect() -> None:
    team = load_team_categories(TEAM)
    assert "ops" in team.ids and "ops/incident" in team.ids
    assert team.floor == 0.25
    session = [
        u("We had a SEV1 outage last night: the pager went off at 3am. Write the postmortem for the incident review."),
        a("Draft postmortem: timeline, impact (42 minutes of checkout errors), contributing factors, action items."),
    ]
    assert categorize_session(session, team).category == "ops/incident"
    assert categorize_session(session).parent != "ops"  # the seeded settings know nothing of ops


def test_team_rules_take_effect() -> None:
    team = parse_team_config(
        '[[categorize.rules]]\ncategory = "bug/fix"\npattern = "(?i)\\\\bhotfix\\\\b"\nweight = 4.0\n'
    )
    msgs = [u("cut a hotfix branch for the 2.3 line")]
    assert score_messages(msgs, team).get("bug/fix", 0) > score_messages(msgs).get("bug/fix", 0)
    assert categorize_session(msgs, team).parent == "bug"


def test_team_keywords_extend_a_seeded_category() -> None:
    team = load_team_categories(TEAM)
    msgs = [u("apply the hotpatch to the billing worker")]
    assert score_messages(msgs, team).get("bug/fix", 0) > score_messages(msgs).get("bug/fix", 0)


def test_rule_roles_restrict_where_a_rule_applies() -> None:
    team = parse_team_config(
        '[[categorize.rules]]\ncategory = "topic"\npattern = "zebra"\nweight = 5.0\nroles = ["user"]\n'
    )
    assert score_messages([u("zebra crossing")], team).get("topic", 0) > 0
    assert score_messages([a("zebra crossing")], team).get("topic", 0) == 0


def test_negative_rule_weight_counts_against() -> None:
    team = parse_team_config('[[categorize.rules]]\ncategory = "bug"\npattern = "(?i)flaky"\nweight = -5.0\n')
    msgs = [u("the checkout test is flaky")]
    assert score_messages(msgs, team).get("bug", 0) < score_messages(msgs).get("bug", 0)


def test_documented_config_example_parses() -> None:
    import smriti.digest.taxonomy as taxonomy

    doc = taxonomy.__doc__ or ""
    block = doc[doc.index("    [categorize]") : doc.index("Why `[categorize]`")]
    team = parse_team_config("\n".join(line[4:] for line in block.splitlines()))
    assert "ops/incident" in team.ids
    assert team.rules[-1].pattern == r"(?i)\bhotfix\b"


def test_edits_choose_fix_over_investigation() -> None:
    prompt = u("the csv export shows wrong totals for refunded orders")
    look = [
        call("Bash", "pytest tests/test_export.py -q", command="pytest tests/test_export.py -q"),
        res("1 failed, 9 passed in 0.3s"),
    ]
    edit = [
        call("Edit", "export.py", file_path="export.py", old_string="a", new_string="b"),
        res("The file export.py has been updated.", "Edit"),
    ]
    fixed = decide(score_messages([prompt, *look, *edit, *edit]))
    assert fixed.category == "bug/fix"
    assert decide(score_messages([prompt, *look])).category != "bug/fix"
    # asked to find out why, then changed the code: that is a fix
    assert decide({"bug": 1.0, "bug/investigation": 6.0}).category == "bug/investigation"
    assert decide({"bug": 1.0, "bug/investigation": 6.0, "+bug/fix": 0.5}).category == "bug/fix"


def test_config_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(TEAM)
    assert "ops/incident" in load_team_categories(path).ids
    assert "ops/incident" in load_team_categories(str(path)).ids
    assert load_team_categories(tmp_path / "missing.toml") == default_settings()
    assert load_team_categories(None) == default_settings()
    assert load_team_categories("[other]\nx = 1\n") == default_settings()


def test_fingerprint_tracks_the_settings() -> None:
    assert load_team_categories(TEAM).fingerprint != default_settings().fingerprint
    assert load_team_categories(TEAM).fingerprint == load_team_categories(TEAM).fingerprint
    assert parse_team_config("[categorize]\nfloor = 0.5\n").fingerprint != default_settings().fingerprint


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ('[categorize]\nfloor = "high"\n', ["floor"]),
        ("[categorize]\nfloor = 1.5\n", ["floor"]),
        ("[categorize]\nflor = 0.5\n", ["unknown key", "flor"]),
        ("categorize = 3\n", ["must be a table"]),
        ("[[categories]]\nid = 'ops'\n", ["[[categorize.categories]]"]),
        ("[categorize]\ncategories = 'ops'\n", ["array of tables"]),
        ('[[categorize.categories]]\nid = "Ops Team"\n', ["#1", "id must be"]),
        ('[[categorize.categories]]\nid = "a/b/c"\n', ["id must be"]),
        ('[[categorize.categories]]\nid = "../etc"\n', ["id must be"]),
        ('[[categorize.categories]]\nid = "uncategorized"\n', ["reserved"]),
        ('[[categorize.categories]]\nid = "ops/incident"\n', ["parent 'ops'", "declare it"]),
        ('[[categorize.categories]]\nid = "ops"\n[[categorize.categories]]\nid = "ops"\n', ["#2", "twice"]),
        ('[[categorize.categories]]\nid = "ops"\nkeywords = "outage"\n', ["keywords must be a list"]),
        ('[[categorize.categories]]\nid = "ops"\nkeywords = [""]\n', ["keyword ''"]),
        ('[[categorize.categories]]\nid = "ops"\nkeywords = ["!!!"]\n', ["no letters"]),
        ('[[categorize.categories]]\nid = "ops"\nweight = 0\n', ["weight"]),
        ('[[categorize.categories]]\nid = "ops"\ncolour = "red"\n', ["unknown key", "colour"]),
        ('[[categorize.rules]]\ncategory = "nope"\npattern = "x"\n', ["#1", "'nope'", "not a known category"]),
        ('[[categorize.rules]]\ncategory = "bug"\n', ["pattern must be"]),
        (
            '[[categorize.rules]]\ncategory = "bug"\npattern = "(?i)\\\\bhotfix("\n',
            ["line 1", "'bug'", "not a valid regular expression", "missing )"],
        ),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "(a+)+$"\n', ["nests quantifiers"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x?"\n', ["matches empty text"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "' + "x" * 600 + '"\n', ["at most 500"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x"\nweight = 0\n', ["non-zero"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x"\nweight = true\n', ["weight"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x"\nroles = ["robot"]\n', ["unknown roles", "'robot'"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x"\nkinds = ["injected_context"]\n', ["unknown kinds"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x"\nrole = ["user"]\n', ["unknown key", "role"]),
        ("[categorize\n", ["not valid TOML"]),
        ('[[categorize.categories]]\nid = "ops"\nkeywords = { outage = 0 }\n', ["'outage'", "non-zero"]),
        ('[[categorize.categories]]\nid = "ops"\nkeywords = { outage = "x" }\n', ["'outage'", "non-zero"]),
        ('[[categorize.categories]]\nid = "ops"\nkeywords = { "!!" = 1.0 }\n', ["no letters"]),
        ('[[categorize.categories]]\nid = "ops"\nweight = 2.0\nkeywords = { outage = 1.0 }\n', ["keyword table"]),
        ('[[categorize.rules]]\ncategory = "+bug"\npattern = "x"\n', ["'+bug'", "child"]),
        ('[[categorize.rules]]\ncategory = "+nope/x"\npattern = "x"\n', ["not a known category"]),
        ('[[categorize.rules]]\ncategory = "bug"\nactions = ["teleport"]\n', ["unknown actions", "'teleport'"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x"\nneedles = ["X"]\n', ["needles", "lowercase"]),
        ('[[categorize.rules]]\ncategory = "bug"\npattern = "x"\nneedles = "x"\n', ["needles"]),
    ],
)
def test_config_errors_name_the_entry_and_the_problem(text: str, needles: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        parse_team_config(text, ".smriti/config.toml")
    message = str(info.value)
    assert message.startswith(".smriti/config.toml")
    for needle in needles:
        assert needle in message, message


def test_config_error_points_at_the_line_of_the_entry() -> None:
    text = (
        '[categorize]\n\n[[categorize.rules]]\ncategory = "bug"\npattern = "ok"\n\n'
        '[[categorize.rules]]\ncategory = "bug"\npattern = "(unclosed"\n'
    )
    with pytest.raises(ConfigError, match=r"\[\[categorize\.rules\]\] #2 \(line 7, 'bug'\)"):
        parse_team_config(text, "config.toml")


def test_unreadable_config_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xff\xfe[categorize]")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_team_categories(path)


# --- determinism and robustness -------------------------------------------------------------------------


def test_deterministic_across_calls_and_fresh_settings() -> None:
    session = [m for msgs in EXAMPLES.values() for m in msgs]
    first = categorize_session(session, load_team_categories(TEAM))
    for _ in range(3):
        assert categorize_session(session, load_team_categories(TEAM)) == first
    assert score_messages(session) == score_messages(list(session))


texts = st.text(max_size=300) | st.sampled_from(
    [TRACE, "let's go with X because", "```\ncode\n```", "<system-reminder>x", ""]
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3),
    max_leaves=8,
)
messages = st.builds(
    lambda role, kind, text, tool, inp, files, n: Message(
        role, text, kind, f"k{n}", tool_name=tool, tool_input=inp, files=files
    ),
    st.sampled_from(ROLES),
    st.sampled_from(KINDS),
    texts,
    st.none() | st.sampled_from(["Bash", "Read", "Edit", "shell", "apply_patch"]) | st.text(max_size=10),
    json_values,
    st.lists(st.text(max_size=20), max_size=3).map(tuple),
    st.integers(),
)


@hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(messages, max_size=12))
def test_arbitrary_messages_never_raise(msgs: list[Message]) -> None:
    result = categorize_session(msgs)
    assert 0.0 <= result.confidence <= 1.0
    assert result.category in default_settings().ids
    assert all(0.0 <= t.confidence <= 1.0 for t in result.tags)
    scores = score_messages(msgs)
    assert all(v >= 0 for v in scores.values())


@hsettings(max_examples=100, deadline=None)
@given(st.lists(messages, max_size=10), st.integers(min_value=0, max_value=10))
def test_folding_is_exact_for_arbitrary_messages(msgs: list[Message], cut: int) -> None:
    whole = score_messages(msgs)
    saved = score_messages(msgs[:cut])
    folded = add_scores(saved, score_messages(msgs[cut:], prior=saved))
    assert folded.keys() == whole.keys()
    assert all(folded[k] == pytest.approx(whole[k], abs=1e-5) for k in whole)


def test_the_builtin_vocabulary_is_a_config_file_read_like_a_teams() -> None:
    from smriti.digest.taxonomy import SEED_FILE

    seeded = default_settings()
    # the same text through the team parser: the seeded tree twice, with every keyword listed twice
    as_team = parse_team_config(SEED_FILE.read_text(encoding="utf-8"))
    assert as_team.ids == seeded.ids
    assert all(t.keywords == s.keywords * 2 for t, s in zip(as_team.categories, seeded.categories, strict=True))
    assert as_team.rules == seeded.rules + tuple(replace(r, source="team") for r in seeded.rules)
    assert {c.source for c in seeded.categories} == {"seed"}
    assert seeded.origin == "<seed>" and seeded.category("bug/fix") is not None


def test_team_keyword_tables_and_action_rules() -> None:
    team = parse_team_config(
        '[[categorize.categories]]\nid = "ops"\n'
        '[categorize.categories.keywords]\nrollout = 2.0\n"rollout plan" = -1.0\n'
        '[[categorize.categories]]\nid = "ops/deploy"\n'
        '[[categorize.rules]]\ncategory = "+ops/deploy"\nactions = ["shell"]\n'
        "pattern = 'kubectl'\nneedles = [\"kube\"]\n"
        '[[categorize.rules]]\ncategory = "ops"\nactions = ["shell"]\nweight = 3.0\n'
    )
    ops = team.category("ops")
    assert ops is not None and ops.keywords == (("rollout", 2.0), ("rollout plan", -1.0))
    child_only, every_shell = team.rules[-2:]
    assert (child_only.category, child_only.actions, child_only.needles) == ("+ops/deploy", {"shell"}, ("kube",))
    assert (every_shell.pattern, every_shell.actions) == ("", {"shell"})
    shell = call("Bash", "ls", command="ls")
    other = call("Read", "ls", file_path="ls")
    assert score_messages([shell], team).get("ops") == pytest.approx(score_messages([other, shell], team)["ops"])
    assert "ops" not in score_messages([other], team)
    assert "+ops/deploy" in score_messages([call("Bash", "kubectl apply", command="kubectl apply -f x")], team)
