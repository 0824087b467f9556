"""search's snippets find their terms without `re` where they can (`TermFinder`): at the same
place as the regex `(?i)\\b(?:term|…)` that defines it, over arbitrary texts and terms."""

from __future__ import annotations

import re
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from smriti.search import _FOLD, TermFinder, snippet, terms_pattern


def by_regex(flat: str, terms: list[str]) -> int:
    pattern = terms_pattern(terms)
    m = pattern.search(flat) if pattern is not None else None
    return m.start() if m else 0


def snippet_by_regex(text: str, terms: list[str], width: int = 220) -> str:
    """search.snippet as it was, with the regex."""
    flat = " ".join(text.split())
    pos = by_regex(flat, terms)
    start = max(0, pos - width // 3)
    end = min(len(flat), start + width)
    return ("…" if start > 0 else "") + flat[start:end] + ("…" if end < len(flat) else "")


# Texts made of what matters to the match: the terms' letters in both cases, the characters `re`
# folds onto ASCII letters, word characters that are not ASCII, `_`, digits, spaces, punctuation.
TRICKY = "abcikosKSIAB_09 -.\u0130\u0131\u017f\u212a\u00e9\u00c9\u0663\u202e\u200b\U0001f600"
terms_st = st.lists(st.text("abcikos09", min_size=1, max_size=4), max_size=4)
texts_st = st.one_of(st.text(TRICKY, max_size=60), st.text(max_size=60))


@settings(max_examples=2000, deadline=None)
@given(texts_st, terms_st)
@example("Ab_ab ab", ["ab"])
@example("\u212aey key", ["key"])
@example("x\u0130d id", ["id"])
@example("\u00e9ab ab", ["ab"])
@example("ab", [])
def test_the_finder_matches_where_the_regex_does(flat: str, terms: list[str]) -> None:
    assert TermFinder(terms).start(flat) == by_regex(flat, terms)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=400), st.lists(st.text(min_size=1, max_size=5), max_size=3), st.integers(10, 300))
def test_any_terms_give_the_regex_snippet(text: str, terms: list[str], width: int) -> None:
    """Terms that are not ASCII letters and digits (the analyzer's output for other words) go to the regex."""
    finder = TermFinder(terms)
    assert snippet(text, terms, width, finder=finder) == snippet_by_regex(text, terms, width)
    assert snippet(text, terms, width) == snippet_by_regex(text, terms, width)


def test_the_fold_is_every_character_re_folds_onto_an_ascii_letter_or_digit() -> None:
    """Every code point that `(?i)` matches to an ASCII letter or digit, with the one it matches,
    and each of them a word character (so `\\b` before it is decided by the one before)."""
    pattern = re.compile("(?i)[a-z0-9]")
    found = {}
    for cp in range(sys.maxunicode + 1):
        c = chr(cp)
        if pattern.fullmatch(c) and c not in "abcdefghijklmnopqrstuvwxyz0123456789":
            [ascii_] = [a for a in "abcdefghijklmnopqrstuvwxyz0123456789" if re.fullmatch("(?i)" + a, c)]
            found[cp] = ord(ascii_)
            assert c.isalnum()
    assert found == _FOLD
