"""The fast paths of redaction and the gate find exactly what the plain scans they replace would find.

Each shortcut (issue #14's speed target) is checked against the straightforward form it stands for:
token runs against the regular expression, the one-pass needle search against one search per needle,
matching at needles against searching the windows around them, and the later passes' line-limited
assignment scan against a full re-scan (through `redact` itself).
"""

from __future__ import annotations

import dataclasses
import random
import re
import string

from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from smriti.team import redact as R
from smriti.team import secret_views
from smriti.team.redact import PathRule, Settings, redact, scan

HYP = hsettings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RUN_ALPHABET = "Aa0+/_-=é \n.:"  # run characters, padding, and the characters that end a run


@HYP
@given(st.text(alphabet=RUN_ALPHABET, max_size=200), st.sampled_from([20, 24, 39]), st.integers(0, 3))
def test_token_runs_are_what_the_run_regex_finds(text: str, min_len: int, max_pad: int) -> None:
    rx = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{" + f"{min_len},}}={{0,{max_pad}}}")
    assert list(secret_views.token_runs(text, min_len, max_pad)) == [m.span() for m in rx.finditer(text)]


NEEDLES = sorted({n for rule in R.RULES for n in rule.needles + rule.ci_needles})


def _needle_text() -> st.SearchStrategy[str]:
    piece = st.one_of(
        st.sampled_from(NEEDLES),
        st.sampled_from(NEEDLES).map(str.upper),
        st.sampled_from(NEEDLES).map(str.title),
        st.text(alphabet="aAsSkK -_.:é\n", max_size=3),
    )
    return st.lists(piece, max_size=30).map("".join)


@HYP
@given(_needle_text())
def test_one_pass_needle_search_agrees_with_a_search_per_automaton(text: str) -> None:
    lower = text.translate(R._ASCII_LOWER)
    assert R._needles_in_lowered(text, lower) == R._needles_in(text, lower)


AT_NEEDLE_RULES = [rule for rule in R.RULES if rule.starts_at_needle]


def _windowed(rule: R.Rule, text: str) -> list[tuple[int, int]]:
    lower = text.translate(R._ASCII_LOWER)
    haystack = lower if rule.ci_needles else text
    return [m.span() for m in R._needle_matches(rule, text, haystack)]


def test_some_anchored_rules_are_matched_at_their_needles() -> None:
    assert {r.name for r in AT_NEEDLE_RULES} >= {"prose-password", "aws-access-key-id"}


@HYP
@given(
    st.sampled_from(AT_NEEDLE_RULES),
    st.lists(
        st.sampled_from(
            [
                "password is ",
                "PASSWORD was ",
                "pwd is: ",
                "passphrase   is ",
                "hunter2x9! ",
                "AKIA",
                "ASIA",
                "A3TX",
                "ABCDEFGHIJ234567",
                "Z",
                " ",
                "\t",
                "\n",
                "x",
            ]
        ),
        max_size=40,
    ).map("".join),
)
def test_matching_at_needles_finds_what_the_window_search_finds(rule: R.Rule, text: str) -> None:
    searched = dataclasses.replace(rule, starts_at_needle=False)
    assert _windowed(rule, text) == _windowed(searched, text)


def test_a_non_ascii_text_takes_the_window_search_for_case_insensitive_needles() -> None:
    # `(?i:pass…)` also matches `paſsword` (long s): no ASCII needle is there, but the window around
    # the other needle holds it, as before the fast path.
    (rule,) = [r for r in AT_NEEDLE_RULES if r.name == "prose-password"]
    text = "pass. The paſsword is hunter2x9!"
    spans = _windowed(rule, text)
    assert spans == _windowed(dataclasses.replace(rule, starts_at_needle=False), text)
    assert len(spans) == 1


def test_an_assignment_that_a_replacement_completes_is_caught_and_other_lines_are_kept() -> None:
    # Later passes re-scan assignments only on lines holding a replacement: here the path rule turns
    # `word=` into `password=` in the first pass, so the second finds the password on that line.
    s = Settings(path_rules=(PathRule("/srv/k/", "pass"),))
    text = "word=hunter2x9 stays\nsee /srv/k/word=hunter2x9 now\nnote: word=hunter2x9\n"
    r = redact(text, s)
    assert r.text == "word=hunter2x9 stays\nsee password=[REDACTED:password] now\nnote: word=hunter2x9\n"
    assert r.ok and scan(r.text, s) == []
    assert redact(r.text, s).text == r.text


@HYP
@given(st.randoms(use_true_random=False))
def test_line_limited_later_passes_agree_with_full_rescans(rng: random.Random) -> None:
    # Texts where first-pass replacements sit next to assignments on the same and other lines.
    lines = []
    for _ in range(rng.randint(1, 8)):
        key = rng.choice(["token", "password", "word", "session", "API_KEY", "name", "db_pass"])
        value = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(4, 30)))
        lead = rng.choice(["", "see ", "export ", "  ", "mail bob@corp.io ", "/home/alice/x "])
        tail = rng.choice(["", " /srv/k/word=x9y8z7w6", " bob@corp.io", ' "ok"'])
        lines.append(f"{lead}{key}={value}{tail}")
    text = "\n".join(lines)
    s = Settings(path_rules=(PathRule("/srv/k/", "pass"),))
    r = redact(text, s)
    # A full re-scan of the result finds nothing the line-limited passes left behind.
    assert scan(r.text, s) == list(r.residual)
    assert redact(r.text, s).text == r.text


@HYP
@given(st.text(alphabet=RUN_ALPHABET, max_size=200))
def test_base64_runs_from_the_gates_runs_are_the_base64_runs(text: str) -> None:
    # The gate hands its runs (20+ characters, 3 `=`) to the views instead of their finding them again.
    gate_runs = list(secret_views.token_runs(text, 20, 3))
    assert list(secret_views._base64_runs(text, gate_runs)) == list(
        secret_views.token_runs(text, secret_views.MIN_BASE64, 2)
    )
