"""The frontmatter fast path (`_fast_nodes`) reads exactly what the YAML parser reads, or declines.

Synced files are untrusted: the fast path only takes the lines `render` writes and must give the
same nodes (values, lines, plain or quoted) as `_load_nodes`; for anything else it returns None and
the full parser decides, so every verdict and error message stays as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_knowledge import items

from smriti.team import knowledge as k


def shape(node: Any) -> Any:
    if node.kind == "scalar":
        return ("scalar", node.value, node.line, node.plain)
    if node.kind == "seq":
        return ("seq", node.line, [shape(n) for n in node.value])
    return ("map", node.line, {key: (shape(v), line) for key, (v, line) in node.value.items()})


def frontmatter(item: k.KnowledgeItem) -> str:
    return k._split(k.render(item))[0]


def full(fm: str) -> Any:
    try:
        return shape(k._load_nodes(fm))
    except k.KnowledgeError as exc:
        return ("error", exc.message, exc.line, exc.rule)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(items())
def test_what_render_writes_takes_the_fast_path_and_reads_the_same(item: k.KnowledgeItem) -> None:
    fm = frontmatter(item)
    fast = k._fast_nodes(fm)
    assert fast is not None
    assert shape(fast) == full(fm)
    assert k.parse(k.render(item)) == item


# Pieces of frontmatter lines: what render writes, and near misses of it.
PIECES = [
    "smriti: 1\n",
    "smriti: 01\n",
    "smriti: 1.0\n",
    'id: "3f9a2c1e5b7d4a60"\n',
    "id: 3f9a2c1e5b7d4a60\n",
    'title: "a \\"quoted\\" \\\\ title"\n',
    'title: "tab\\there"\n',
    'title: "nel\\x85 \\u2028 \\uD800 \\ud800 \\U0001F600 \\x0a \\e \\/ \\0 \\N"\n',
    'title: "raw \t tab"\n',
    'title: "raw \x85 nel \u2028 ls \ufeff bom \ufffe \x7f del"\n',
    'title: "bidi \u202e and \u200e"\n',
    'title: "emoji 🎉 עברית"\n',
    'title: "unterminated\n',
    'title: "a" # comment\n',
    'title:  "two spaces"\n',
    'title: "trailing" \n',
    "title: plain text\n",
    "title: null\n",
    'category: "bug/fix"\n',
    'created: "2026-11-20T10:31:00Z"\n',
    'tags: ["a", "b \\"c\\""]\n',
    "tags: []\n",
    'tags: ["a","b"]\n',
    'tags: ["a", ]\n',
    'tags: [ "a" ]\n',
    'tags: ["a", ["b"]]\n',
    'tags: "a"\n',
    'files: ["src/x.py"]\n',
    'status: "active"\n',
    'supersedes: ["0000000000000001"]\n',
    'content_hash: "sha256:' + "0" * 64 + '"\n',
    'unknown: "x"\n',
    "&a title: x\n",
    "title: *a\n",
    '"title": "quoted key"\n',
    "---\n",
    "%YAML 1.1\n",
    "  indented: x\n",
    "\n",
    "# comment\n",
    '? title\n: "x"\n',
]


@settings(max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(PIECES), max_size=8),
    st.lists(st.tuples(st.integers(0, 400), st.sampled_from(['"', "\\", "\n", "\t", "\x00", " ", "x", "[", "]"]))),
)
def test_any_frontmatter_reads_as_the_full_parser_reads_it_or_not_at_all(pieces: list[str], edits: list) -> None:
    fm = "".join(pieces)
    for at, ch in edits:
        at = min(at, len(fm))
        fm = fm[:at] + ch + fm[at:]
    fast = k._fast_nodes(fm)
    if fast is not None:
        assert shape(fast) == full(fm)


ESCAPES = [("\\\\", "\\"), ('\\"', '"'), ("\\t", "\t"), ("\\n", "\n"), ("\\x85", "\x85"), ("\\u2028", "\u2028")]


@pytest.mark.parametrize("escape, char", ESCAPES)
def test_escapes_decode_as_yaml_does(escape: str, char: str) -> None:
    fm = f'title: "a{escape}b"\n'
    fast = k._fast_nodes(fm)
    assert fast is not None and fast.value["title"][0].value == f"a{char}b"
    assert shape(fast) == full(fm)


# ------------------------------------------------------------------------------------------
# The whole-file fast path (`_rendered_item`): what it accepts, the full path accepts as the same
# item; what it declines goes the full path, so every rejection keeps its message.


def outcome(text: str | bytes) -> Any:
    try:
        item = k.parse(text, path="x.md")
    except k.KnowledgeError as exc:
        return ("error", exc.message, exc.line, exc.rule, exc.field, exc.path)
    return item, [type(getattr(item, name)) for name in k._ITEM_FIELDS]


def full_outcome(text: str | bytes) -> Any:
    fast = k._rendered_item
    k._rendered_item = lambda text: None  # the path every file took before
    try:
        return outcome(text)
    finally:
        k._rendered_item = fast


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items())
def test_what_render_writes_reads_the_same_on_both_paths(item: k.KnowledgeItem) -> None:
    text = k.render(item)
    fast = k._rendered_item(text)
    assert fast is None or fast == item
    assert outcome(text) == full_outcome(text)


RENDERED = k.render(
    k.KnowledgeItem(
        id="3f9a2c1e5b7d4a60",
        title="Fix the pool",
        category="bug/fix",
        tags=["bug", "bug/fix"],
        project="payments",
        agent="claude-code",
        session="s-1",
        author="alice",
        created="2026-11-20T10:31:00Z",
        shared="2026-11-21T09:00:00Z",
        files=["src/db/pool.py"],
        supersedes=["0000000000000001"],
        content_hash="sha256:" + "0" * 64,
        body="# Fix the pool\n\ntext\n",
    )
)

# (what, replacement): near misses of what render writes, valid and not
SWAPS = [
    ('"Fix the pool"', '"   "'),
    ('"Fix the pool"', '""'),
    ('"Fix the pool"', '"' + "t" * 1001 + '"'),
    ('"Fix the pool"', '"' + "t" * 1000 + '"'),
    ('"Fix the pool"', '"\u3000"'),
    ('"Fix the pool"', '"a \\"b\\""'),
    ('"bug/fix"', '"con"'),
    ('"bug/fix"', '"bug/lpt1"'),
    ('"bug/fix"', '"a/b/c/d/e"'),
    ('"bug/fix"', '"a/b/c/d"'),
    ('"bug/fix"', '"' + "a" * 65 + '"'),
    ('"bug/fix"', '"' + "a" * 64 + '"'),
    ('"bug/fix"', '"Bug"'),
    ('"bug/fix"', '"bug/"'),
    ('"bug/fix"', '"-bug"'),
    ('"payments"', '""'),
    ('"payments"', '"' + "p" * 1001 + '"'),
    ('"alice"', '" "'),
    ('"2026-11-20T10:31:00Z"', '"2026-02-30T10:31:00Z"'),
    ('"2026-11-20T10:31:00Z"', '"2026-11-20T24:00:00Z"'),
    ('"2026-11-20T10:31:00Z"', '"2026-11-20T10:31:60Z"'),
    ('"2026-11-21T09:00:00Z"', '"2026-13-21T09:00:00Z"'),
    ('["bug", "bug/fix"]', '["bug", " "]'),
    ('["bug", "bug/fix"]', '[""]'),
    ('["bug", "bug/fix"]', "[]"),
    ('["bug", "bug/fix"]', '["a, b", "c"]'),
    ('["bug", "bug/fix"]', "[" + ", ".join(['"t"'] * 1001) + "]"),
    ('["src/db/pool.py"]', '["' + "f" * 1001 + '"]'),
    ('["0000000000000001"]', '["3f9a2c1e5b7d4a60"]'),
    ('["0000000000000001"]', '["000000000000000G"]'),
    ('["0000000000000001"]', "[" + ", ".join(['"0000000000000001"'] * 1001) + "]"),
    ('"active"', '"archived"'),
    ("smriti: 1", "smriti: 2"),
    ("smriti: 1", "smriti: 01"),
    ('id: "3f9a2c1e5b7d4a60"', 'id: "3F9A2C1E5B7D4A60"'),
    ("sha256:" + "0" * 64, "sha256:" + "0" * 63),
    ("\n---\n#", "\n--- \t\n#"),
    ("\n---\n#", "\n---\n\n\n#"),
    ("text\n", "text"),
    ("text\n", "text\n\n\n"),
    ("text\n", "text\r\nmore\r"),
    ("text\n", "te\x00xt\n"),
    ("---\n", "\ufeff---\n"),
    ("---\n", "--- \n"),
    ("---\n", "---\r\n"),
    ('project: "payments"\n', ""),
    ('shared: "2026-11-21T09:00:00Z"\n', ""),
    ('content_hash: "sha256:' + "0" * 64 + '"\n', ""),
    ('tags: ["bug", "bug/fix"]\n', ""),
    ('author: "alice"\n', 'author: "alice"\nauthor: "bob"\n'),
    ('author: "alice"\n', 'author: "alice"\nextra: "x"\n'),
    ('status: "active"\n', ""),
]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SWAPS), max_size=4), st.booleans())
def test_near_misses_of_a_rendered_file_read_as_the_full_path_reads_them(
    swaps: list[tuple[str, str]], as_bytes: bool
) -> None:
    text = RENDERED
    for old, new in swaps:
        text = text.replace(old, new, 1)
    data: str | bytes = text.encode("utf-8") if as_bytes else text
    assert outcome(data) == full_outcome(data)


def test_the_plain_rendered_file_takes_the_whole_file_path() -> None:
    item = k._rendered_item(RENDERED)
    assert item is not None and item == k.parse(RENDERED)
    # without the optional keys too
    bare = k.render(k.KnowledgeItem(id="3f9a2c1e5b7d4a60", title="t", category="x", created="2026-11-20T10:31:00Z"))
    assert k._rendered_item(bare) == k.KnowledgeItem(
        id="3f9a2c1e5b7d4a60", title="t", category="x", created="2026-11-20T10:31:00Z"
    )
