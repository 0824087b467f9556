"""Knowledge files: the deterministic emitter, the strict reader and the path helpers.

Real behaviour only: items are rendered and parsed for real, hostile files live in
tests/fixtures/knowledge/ (see its README), and the stock YAML readers are used as a cross-check
that what smriti writes means the same thing to every other YAML reader.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
import signal
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path, PurePosixPath

import frontmatter
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from smriti.errors import SmritiError
from smriti.team import knowledge as k
from smriti.team.knowledge import KnowledgeError, KnowledgeItem

FIXTURES = Path(__file__).parent / "fixtures" / "knowledge"
BACKENDS = ["python"] + (["libyaml"] if getattr(yaml, "__with_libyaml__", False) else [])
VALID_ID = "500575f54919d7ed"


@contextlib.contextmanager
def backend(name: str):
    saved = k.YAML_BACKEND
    k.YAML_BACKEND = name
    try:
        yield
    finally:
        k.YAML_BACKEND = saved


@contextlib.contextmanager
def no_hang(seconds: int = 10):
    """A hostile file must be refused quickly: fail the test instead of hanging the suite."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def timeout(signum, frame):  # pragma: no cover - only runs on a hang
        raise AssertionError(f"parsing took more than {seconds}s")

    old = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def base_item(**changes) -> KnowledgeItem:
    fields = dict(
        id="3f9a2c1e5b7d4a60",
        title="Fix connection pool exhaustion under load",
        category="bug/fix",
        created="2026-11-20T10:31:00Z",
        body="# Title\n\nText.\n",
    )
    fields.update(changes)
    return KnowledgeItem(**fields)


# ------------------------------------------------------------------------------------------
# Strategies

LINE_BREAKS = "\x00\n\r\x85\u2028\u2029"
# Any unicode scalar value but NUL and line breaks: RTL, emoji, C0/C1 controls, bidi controls,
# BOM, non-characters, astral planes, combining marks.
line_chars = st.characters(codec="utf-8", exclude_characters=LINE_BREAKS)

TRICKY_TITLES = [
    "no",
    "yes",
    "off",
    "on",
    "true",
    "False",
    "0123",
    "0o17",
    "0x1F",
    "1e3",
    "-.inf",
    ".nan",
    "null",
    "Null",
    "~",
    "- x",
    "{a: b}",
    "[1, 2]",
    '"quoted"',
    "'single'",
    "key: value",
    "#comment",
    "a #b",
    "trailing spaces   ",
    "   leading",
    "\ttab\t",
    "&anchor",
    "*alias",
    "!!python/object/apply:os.system",
    "!tag",
    "%YAML 1.1",
    "---",
    "...",
    "<<",
    "? x",
    ": x",
    "|",
    ">-",
    "@at",
    "`tick`",
    "\\back\\slash\\",
    "\x1b[31mred\x1b[0m",
    "\x07bell\x7f\x80\x9f",
    "\u202eevil\u202c",
    "\u2066isolate\u2069",
    "עברית ימין לשמאל",
    "العربية",
    "😀👨\u200d👩\u200d👧",
    "\ufeffbom",
    "\ufffe\uffff",
    "2026-11-20T10:31:00Z",
    "2026-11-20",
    "=",
    "x" * 1000,
    "é" * 999,
    "💥" * 1000,
]
TRICKY_BODY_LINES = [
    "---",
    "--- ",
    "----",
    "...",
    "+++",
    "```",
    "````python",
    "~~~",
    "**user**: hello",
    "**assistant**: hi",
    "**tool**:",
    "<smriti-context>",
    "</smriti-context>",
    "",
    "   ",
    "\t",
    "# Heading",
    "key: value",
    "- item",
    "  indented",
    "\x1b[0m",
    "emoji 🎉 עברית",
    "trailing spaces   ",
    "\\",
    '"',
    "\ufeff",
    "\u2028",
    "\x85",
    "content_hash: sha256:00",
]

single_line = st.text(line_chars, max_size=60)
non_blank_line = single_line.filter(lambda s: s.strip())
titles = st.one_of(
    st.sampled_from(TRICKY_TITLES),
    non_blank_line,
    st.text(line_chars, min_size=900, max_size=1000).filter(lambda s: s.strip()),
)
hex_ids = st.text("0123456789abcdef", min_size=16, max_size=16)
segments = st.from_regex(r"[a-z0-9][a-z0-9_-]{0,11}", fullmatch=True).filter(lambda s: s not in k._WINDOWS_RESERVED)
categories = st.lists(segments, min_size=1, max_size=4).map("/".join)
timestamps = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(9999, 12, 31)).map(
    lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")
)
body_lines = st.one_of(
    st.sampled_from(TRICKY_BODY_LINES),
    st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=80),
)
bodies = st.lists(body_lines, max_size=12).map(lambda lines: k.normalize_body("\n".join(lines)))
optional_text = st.one_of(st.none(), single_line)
hashes = st.text("0123456789abcdef", min_size=64, max_size=64).map(lambda h: "sha256:" + h)


@st.composite
def items(draw) -> KnowledgeItem:
    item_id = draw(hex_ids)
    body = draw(bodies)
    return KnowledgeItem(
        id=item_id,
        title=draw(titles),
        category=draw(categories),
        tags=draw(st.lists(non_blank_line, max_size=5)),
        project=draw(optional_text),
        agent=draw(optional_text),
        session=draw(optional_text),
        author=draw(optional_text),
        created=draw(timestamps),
        shared=draw(st.none() | timestamps),
        files=draw(st.lists(non_blank_line, max_size=5)),
        status=draw(st.sampled_from(k.STATUSES)),
        supersedes=draw(st.lists(hex_ids.filter(lambda i: i != item_id), max_size=3)),
        content_hash=draw(st.sampled_from([None, k.body_hash(body), "sha256:" + "0" * 64])),
        body=body,
    )


# ------------------------------------------------------------------------------------------
# Round trip and the emitter


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items())
def test_round_trip_is_exact_and_byte_identical(item: KnowledgeItem) -> None:
    text = k.render(item)
    assert k.render(item) == text  # deterministic
    for name in BACKENDS:
        with backend(name):
            again = k.parse(text)
            assert again == item
            assert k.render(again) == text
            assert k.parse(text.encode("utf-8")) == item
            assert k.parse_report(text).warnings == ()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items())
def test_rendered_layout(item: KnowledgeItem) -> None:
    text = k.render(item)
    assert "\r" not in text
    assert text.endswith("\n") and not text.endswith("\n\n") or (item.body == "" and text.endswith("---\n"))
    assert text.endswith(item.body)
    head = text[: len(text) - len(item.body)]
    lines = head.split("\n")
    assert lines[0] == "---" and lines[-2] == "---" and lines[-1] == ""
    keys = [line.split(":", 1)[0] for line in lines[1:-2]]
    # fixed order, one line per key (no wrapping), optional keys only when set
    assert keys == [key for key in k.KEYS if getattr(item, key) is not None]
    assert lines[1] == "smriti: 1"
    for line in lines[2:-2]:
        assert re.fullmatch(r'[a-z_]+: ("([^"\\]|\\.)*"|\[("([^"\\]|\\.)*"(, "([^"\\]|\\.)*")*)?\])', line), line


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items())
def test_other_yaml_readers_see_the_same_values(item: KnowledgeItem) -> None:
    """The escaping is standard YAML: python-frontmatter's stock reader (SafeLoader) and the
    libyaml loader read exactly the strings smriti meant."""
    text = k.render(item)
    expected = {key: getattr(item, key) for key in k.KEYS if getattr(item, key) is not None}
    expected = {key: list(v) if isinstance(v, tuple) else v for key, v in expected.items()}
    post = frontmatter.loads(text)
    assert post.metadata == expected
    loaders = [yaml.SafeLoader] + ([yaml.CSafeLoader] if BACKENDS[-1] == "libyaml" else [])
    for loader in loaders:
        assert yaml.load(text.split("\n---\n", 1)[0][4:], Loader=loader) == expected


def test_render_example_from_design() -> None:
    item = k.parse(fixture("valid.md"))
    assert k.render_bytes(item) == fixture("valid.md")
    assert k.render(item).splitlines()[:6] == [
        "---",
        "smriti: 1",
        f'id: "{VALID_ID}"',
        'title: "Fix connection pool exhaustion under load"',
        'category: "bug/fix"',
        'tags: ["bug", "bug/fix", "postgres"]',
    ]
    assert item.content_hash == k.body_hash(item.body)
    assert not k.edited(item)


def test_render_escapes_and_keeps_unicode() -> None:
    item = base_item(title='say "hi"\\ \t\x1b\x7f\x9b\u202e\ufeff\uffff — ünïcødé 😀 עברית')
    line = k.render(item).splitlines()[3]
    assert line == ('title: "say \\"hi\\"\\\\ \\t\\x1B\\x7F\\x9B\\u202E\\uFEFF\\uFFFF — ünïcødé 😀 עברית"')
    assert k.parse(k.render(item)).title == item.title


def test_optional_fields_are_omitted_and_empty_means_absent() -> None:
    item = base_item(project="", author=None, agent="claude-code")
    assert item.project is None
    text = k.render(item)
    assert "project:" not in text and "author:" not in text and "content_hash:" not in text
    assert 'agent: "claude-code"' in text
    assert "tags: []" in text and "files: []" in text and "supersedes: []" in text
    assert 'status: "active"' in text


def test_render_refuses_a_file_over_the_cap() -> None:
    body = k.normalize_body("x" * (k.MAX_FILE_BYTES + 1))
    with pytest.raises(KnowledgeError) as err:
        k.render(base_item(body=body))
    assert err.value.rule == "too-large"


def test_body_is_opaque() -> None:
    body = "---\n**user**: do X\n**assistant**: done\n---\n\n```\n---\n```\n"
    item = base_item(body=body, content_hash=k.body_hash(body))
    parsed = k.parse(k.render(item))
    assert parsed.body == body
    assert not k.edited(parsed)


# ------------------------------------------------------------------------------------------
# Edits, line endings, hand-written files, unknown keys


def test_a_persons_edit_is_detected() -> None:
    original = k.parse(fixture("valid.md"))
    changed = k.parse(fixture("edited_body.md"))
    assert not k.edited(original)
    assert k.edited(changed)
    assert changed.content_hash == original.content_hash
    assert dataclasses.replace(changed, body=original.body) == original
    # a person's edit is the item's new version; re-hashing it makes it smriti's again
    assert not k.edited(dataclasses.replace(changed, content_hash=k.body_hash(changed.body)))


def test_crlf_file_is_normalised_and_not_an_edit() -> None:
    crlf = fixture("valid_crlf.md")
    assert b"\r\n" in crlf
    item = k.parse(crlf)
    assert item == k.parse(fixture("valid.md"))
    assert not k.edited(item)
    assert k.render_bytes(item) == fixture("valid.md")


def test_trailing_newlines_bom_and_lone_cr_are_normalised() -> None:
    text = fixture("valid.md").decode()
    item = k.parse(text)
    assert k.parse("\ufeff" + text) == item
    assert k.parse(text + "\n\n\n") == item
    assert k.parse(text.replace("\n", "\r")) == item
    assert k.parse(text.rstrip("\n")) == item


def test_hand_written_file_reads_scalars_as_written() -> None:
    item = k.parse(fixture("hand_written.md"))
    assert item.id == "1234567890123456"  # not the int 1234567890123456
    assert item.title == "no"  # not False
    assert item.created == "2026-11-20T10:31:00Z"  # not a datetime
    assert item.category == "decision/tooling"
    assert item.tags == ("uv", "packaging")
    assert item.project is None and item.author is None and item.content_hash is None
    assert item.status == "active" and item.files == () and item.supersedes == ()
    assert k.edited(item)  # smriti never wrote this body
    assert k.parse(k.render(item)) == item


def test_unknown_key_is_ignored_but_reported() -> None:
    data = fixture("unknown_key.md")
    stock = frontmatter.loads(data.decode())  # a file python-frontmatter reads fine
    assert stock.metadata["reviewed_by"] == "bob"
    report = k.parse_report(data, "unknown_key.md")
    assert report.item == k.parse(fixture("valid.md"))
    assert [(w.rule, w.line) for w in report.warnings] == [("unknown-key", 15), ("unknown-key", 16)]
    assert "reviewed_by" in str(report.warnings[0])
    assert str(report.warnings[0]).startswith("unknown_key.md:15: ")


@pytest.mark.parametrize(
    ("line", "field", "value"),
    [
        ("title: no", "title", "no"),
        ("title: 0o17", "title", "0o17"),
        ("title: 1e3", "title", "1e3"),
        ("title: .inf", "title", ".inf"),
        ("title: 2026-11-20", "title", "2026-11-20"),
        ('title: "null"', "title", "null"),
        ("title: 'it''s'", "title", "it's"),
        ("title: >-\n  folded\n  lines", "title", "folded lines"),
        ("title: plain # comment", "title", "plain"),
        ("project: null", "project", None),
        ("project: ~", "project", None),
        ("project:", "project", None),
        ('project: ""', "project", None),
        ("project: 42", "project", "42"),
        ("tags: [yes, no, 0123]", "tags", ("yes", "no", "0123")),
        ("tags:\n  - on\n  - '1.0'", "tags", ("on", "1.0")),
        ("tags:", "tags", ()),
        ("shared: 2026-11-21T09:00:00Z", "shared", "2026-11-21T09:00:00Z"),
    ],
)
@pytest.mark.parametrize("name", BACKENDS)
def test_scalars_never_change_type(line: str, field: str, value, name: str) -> None:
    text = '---\nsmriti: 1\nid: "3f9a2c1e5b7d4a60"\ncategory: "bug/fix"\ncreated: "2026-11-20T10:31:00Z"\n'
    if field != "title":
        text += 'title: "t"\n'
    text += line + "\n---\nbody\n"
    with backend(name):
        assert getattr(k.parse(text), field) == value


@pytest.mark.parametrize("name", BACKENDS)
def test_a_plain_null_title_is_missing_not_the_string_null(name: str) -> None:
    text = (
        '---\nsmriti: 1\nid: "3f9a2c1e5b7d4a60"\ntitle: null\ncategory: "bug/fix"\n'
        'created: "2026-11-20T10:31:00Z"\n---\n'
    )
    with backend(name), pytest.raises(KnowledgeError) as err:
        k.parse(text)
    assert (err.value.rule, err.value.line, err.value.field) == ("missing-field", 4, "title")


# ------------------------------------------------------------------------------------------
# Hostile and broken files

HOSTILE = {
    # fixture: (rule, line, words in the message)
    "billion_laughs.md": ("yaml-anchor", 7, "anchors"),
    "alias_only.md": ("yaml-alias", 7, "aliases"),
    "python_object.md": ("yaml-tag", 4, "python/object/apply:os.system"),
    "custom_tag.md": ("yaml-tag", 5, "!category"),
    "str_tag.md": ("yaml-tag", 3, "tags"),
    "merge_key.md": ("yaml-merge", 7, "merge keys"),
    "duplicate_key.md": ("duplicate-key", 7, "duplicate key 'title' (first on line 4)"),
    "complex_key.md": ("wrong-type", 7, "keys must be plain strings"),
    "deep_nesting.md": ("yaml-depth", 7, "nests deeper"),
    "directive.md": ("yaml-syntax", 3, "YAML syntax error"),
    "two_documents.md": ("yaml-syntax", 9, "YAML syntax error"),
    "yaml_syntax.md": ("yaml-syntax", 5, "YAML syntax error"),
    "raw_control_char.md": ("yaml-syntax", 4, "U+001B"),
    "not_a_mapping.md": ("wrong-type", 2, "must be a mapping"),
    "wrong_type_tags.md": ("wrong-type", 7, "tags must be a list"),
    "wrong_type_title.md": ("wrong-type", 5, "title must be a string"),
    "quoted_version.md": ("wrong-type", 2, "unquoted integer"),
    "newer_version.md": ("unsupported-version", 2, "upgrade smriti"),
    "unquoted_short_id.md": ("invalid-value", 3, "16 lowercase hex digits (got '0123')"),
    "dotdot_category.md": ("invalid-value", 5, "'..'"),
    "absolute_category.md": ("invalid-value", 5, "must be relative"),
    "missing_id.md": ("missing-field", 1, "required field 'id' is missing"),
    "empty_title.md": ("missing-field", 4, "required field 'title' is missing"),
    "bad_timestamp.md": ("invalid-value", 6, "YYYY-MM-DDTHH:MM:SSZ"),
    "bad_status.md": ("invalid-value", 7, "status must be one of"),
    "no_frontmatter.md": ("no-frontmatter", 1, "must start with a '---' line"),
    "unterminated.md": ("no-frontmatter", 1, "never closed"),
    "latin1.md": ("encoding", 4, "not valid UTF-8"),
    "binary.md": ("binary", None, "NUL"),
}


def test_every_fixture_is_covered() -> None:
    accepted = {"valid.md", "valid_crlf.md", "edited_body.md", "unknown_key.md", "hand_written.md"}
    on_disk = {p.name for p in FIXTURES.glob("*.md")} - {"README.md"}
    assert on_disk == accepted | set(HOSTILE)


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("fixture_name", sorted(HOSTILE))
def test_hostile_file_gives_a_clear_error(fixture_name: str, name: str) -> None:
    rule, line, words = HOSTILE[fixture_name]
    data = fixture(fixture_name)
    with backend(name), no_hang(), pytest.raises(KnowledgeError) as err:
        k.parse(data, f"knowledge/{fixture_name}")
    error = err.value
    assert isinstance(error, SmritiError)  # the CLI prints it without a traceback
    assert (error.rule, error.line) == (rule, line), str(error)
    assert words in error.message
    where = f"knowledge/{fixture_name}" + (f":{line}" if line else "")
    assert str(error).startswith(where + ": ")


def test_no_code_ran_for_the_python_object_fixture() -> None:
    # the fixture's payload would create this file if anything constructed the tag
    with pytest.raises(KnowledgeError):
        k.parse(fixture("python_object.md"))
    assert not Path("/tmp/smriti-pwned").exists()


@pytest.mark.parametrize("as_bytes", [True, False])
def test_huge_file_is_refused_before_yaml(as_bytes: bool) -> None:
    # generated, not committed: a billion-laughs frontmatter padded past the cap must be refused
    # by the size check (rule too-large), i.e. before the YAML parser ever sees it
    bomb = fixture("billion_laughs.md").decode()
    text = bomb.replace("---\nbody\n", "---\n" + "x" * k.MAX_FILE_BYTES + "\n")
    assert len(text) > k.MAX_FILE_BYTES
    with no_hang(), pytest.raises(KnowledgeError) as err:
        k.parse(text.encode() if as_bytes else text)
    assert err.value.rule == "too-large"
    assert str(k.MAX_FILE_BYTES) in err.value.message


def test_size_cap_counts_utf8_bytes_of_str_input() -> None:
    valid = fixture("valid.md").decode()
    room = k.MAX_FILE_BYTES - len(valid.encode())
    fits = valid + "é" * (room // 2)
    assert len(fits.encode()) <= k.MAX_FILE_BYTES
    k.parse(fits)
    over = valid + "é" * (room // 2 + 1)  # fewer characters than the cap, more bytes
    assert len(over) < k.MAX_FILE_BYTES < len(over.encode())
    with pytest.raises(KnowledgeError) as err:
        k.parse(over)
    assert err.value.rule == "too-large"


def test_lone_surrogate_in_str_input_is_refused() -> None:
    text = fixture("valid.md").decode().replace("Summary", "Sum\udc80mary")
    with pytest.raises(KnowledgeError) as err:
        k.parse(text)
    assert err.value.rule == "encoding"


def test_semantic_error_carries_the_line_of_its_key() -> None:
    text = fixture("valid.md").decode().replace("supersedes: []", f'supersedes: ["{VALID_ID}"]')
    with pytest.raises(KnowledgeError) as err:
        k.parse(text, "x.md")
    assert (err.value.field, err.value.line) == ("supersedes", 15)
    assert "supersede itself" in str(err.value)


yaml_noise = st.text(
    st.sampled_from(list("ab01 :-[]{},&*!|>'\"#%@`?\n\t\\.~<=") + ["\x1b", "é", "\u2028", "\r"]),
    max_size=200,
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_noise, st.sampled_from(BACKENDS))
def test_any_frontmatter_gives_an_item_or_a_knowledge_error(noise: str, name: str) -> None:
    text = "---\n" + noise + "\n---\nbody\n"
    with backend(name):
        try:
            k.parse(text)
        except KnowledgeError as error:
            assert error.message
            # the parser reads a bare \r as a line break (it normalises line endings to \n)
            lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
            assert error.line is None or 1 <= error.line <= lines


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_give_an_item_or_a_knowledge_error(data: bytes) -> None:
    for prefix in (b"", b"---\n"):
        try:
            k.parse(prefix + data)
        except KnowledgeError:
            pass


# ------------------------------------------------------------------------------------------
# python-frontmatter integration


def test_strict_handler_plugs_into_python_frontmatter() -> None:
    handler = k.strict_handler()
    post = frontmatter.loads(fixture("hand_written.md").decode(), handler=handler)
    assert post.metadata["title"] == "no"
    assert post.metadata["id"] == "1234567890123456"
    assert post.metadata["project"] == ""  # raw literal text; the schema is parse()'s job
    with pytest.raises(KnowledgeError):
        frontmatter.loads(fixture("billion_laughs.md").decode(), handler=handler)
    with pytest.raises(NotImplementedError):
        frontmatter.dumps(post, handler=handler)


def test_importing_the_module_loads_neither_yaml_nor_frontmatter() -> None:
    code = (
        "import sys, smriti.team.knowledge as k\n"
        "item = k.KnowledgeItem(id='3f9a2c1e5b7d4a60', title='t', category='c', created='2026-11-20T10:31:00Z')\n"
        "k.render(item); k.item_path(item)\n"
        "bad = [m for m in ('yaml', 'frontmatter') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parent.parent)


# ------------------------------------------------------------------------------------------
# Item validation


@pytest.mark.parametrize(
    "category",
    [
        "..",
        "bug/..",
        "/bug",
        "bug/",
        "a//b",
        "Bug/fix",
        "bug\\fix",
        "bug/.hidden",
        "",
        ".",
        "bug fix",
        "a/b/c/d/e",
        "nul",
        "bug/COM1".lower(),
        "-bug",
        "_bug",
        "bug/fix.md",
        "x" * 65,
        "ünï",
    ],
)
def test_unsafe_categories_are_refused(category: str) -> None:
    with pytest.raises(KnowledgeError) as err:
        base_item(category=category)
    assert err.value.field == "category"
    with pytest.raises(KnowledgeError):
        k.validate_category(category)


@pytest.mark.parametrize("category", ["bug", "bug/fix", "a/b/c/d", "team_x/my-cat", "0day", "x" * 64])
def test_safe_categories_are_accepted(category: str) -> None:
    assert k.validate_category(category) == category
    assert base_item(category=category).category == category


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"title": "two\nlines"}, "title"),
        ({"title": "cr\rhere"}, "title"),
        ({"title": "nul\x00"}, "title"),
        ({"title": "ls\u2028sep"}, "title"),
        ({"title": "   "}, "title"),
        ({"title": "x" * 1001}, "title"),
        ({"title": "lone \udc80"}, "title"),
        ({"id": "3F9A2C1E5B7D4A60"}, "id"),
        ({"id": "0123"}, "id"),
        ({"id": 123}, "id"),
        ({"created": "2026-11-20T10:31:00"}, "created"),
        ({"created": "2026-02-30T10:31:00Z"}, "created"),
        ({"shared": "2026-11-20T10:31:00+00:00"}, "shared"),
        ({"status": "draft"}, "status"),
        ({"supersedes": ["3f9a2c1e5b7d4a60"]}, "supersedes"),
        ({"supersedes": ["nothex"]}, "supersedes"),
        ({"tags": ["ok", ""]}, "tags"),
        ({"tags": "postgres"}, "tags"),
        ({"files": ["a\nb"]}, "files"),
        ({"content_hash": "md5:abc"}, "content_hash"),
        ({"smriti": 2}, "smriti"),
        ({"smriti": True}, "smriti"),
        ({"body": "no final newline"}, "body"),
        ({"body": "two\n\n"}, "body"),
        ({"body": "crlf\r\n"}, "body"),
        ({"body": "nul\x00\n"}, "body"),
    ],
)
def test_invalid_items_cannot_be_built(changes: dict, field: str) -> None:
    with pytest.raises(KnowledgeError) as err:
        base_item(**changes)
    assert err.value.field == field


def test_item_is_frozen_and_lists_become_tuples() -> None:
    item = base_item(tags=["a", "b"], files=["x.py"])
    assert item.tags == ("a", "b") and item.files == ("x.py",)
    hash(item)
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.title = "other"  # type: ignore[misc]


# ------------------------------------------------------------------------------------------
# Ids, paths and constructors


def test_new_item_id_is_stable_and_distinct() -> None:
    a = k.new_item_id("claude-code", "6c0e2a4e")
    assert a == k.new_item_id("claude-code", "6c0e2a4e")
    assert re.fullmatch(r"[0-9a-f]{16}", a)
    assert (
        len(
            {
                a,
                k.new_item_id("codex", "6c0e2a4e"),
                k.new_item_id("claude-code", "6c0e2a4f"),
                k.new_item_id("claude-code", "6c0e2a4e", "2"),
                k.new_item_id("claude-code6", "c0e2a4e"),
            }
        )
        == 5
    )
    with pytest.raises(ValueError):
        k.new_item_id("", "x")
    assert re.fullmatch(r"[0-9a-f]{16}", k.random_item_id())
    assert k.random_item_id() != k.random_item_id()


def test_new_item_builds_what_share_writes() -> None:
    item = k.new_item(
        title="Pin psycopg",
        category="project/dependency",
        body="# Pin psycopg\r\n\r\nBecause.\r\n\r\n",
        created=datetime(2026, 11, 20, 12, 31, tzinfo=timezone(timedelta(hours=2))),
        shared="2026-11-21T09:00:00.250Z",
        agent="codex",
        session="sess-1",
        tags=["project"],
    )
    assert item.id == k.new_item_id("codex", "sess-1")
    assert item.body == "# Pin psycopg\n\nBecause.\n"
    assert item.content_hash == k.body_hash(item.body) and not k.edited(item)
    assert (item.created, item.shared) == ("2026-11-20T10:31:00Z", "2026-11-21T09:00:00Z")
    assert k.parse(k.render(item)) == item
    with pytest.raises(KnowledgeError):
        k.new_item(title="t", category="c", body="", created="2026-11-20T10:31:00Z")


def test_utc_timestamp() -> None:
    assert k.utc_timestamp("2026-11-20T10:31:00Z") == "2026-11-20T10:31:00Z"
    assert k.utc_timestamp("2026-11-20T05:31:00.999-05:00") == "2026-11-20T10:31:00Z"
    for bad in ("2026-11-20T10:31:00", datetime(2026, 11, 20), "yesterday"):
        with pytest.raises(KnowledgeError):
            k.utc_timestamp(bad)  # type: ignore[arg-type]


def test_item_path_layout() -> None:
    item = k.parse(fixture("valid.md"))
    assert k.item_path(item) == PurePosixPath(
        f"knowledge/bug/fix/2026-11-20-fix-connection-pool-exhaustion-under-load-{VALID_ID[:8]}.md"
    )


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Fix connection pool exhaustion under load", "fix-connection-pool-exhaustion-under-load"),
        ("Café naïve résumé", "cafe-naive-resume"),
        ("数据库连接池", "item"),
        ("!!!", "item"),
        ('"quoted" key: value #comment', "quoted-key-value-comment"),
        ("../../etc/passwd", "etc-passwd"),
        ("a" * 80, "a" * 50),
        ("word " * 20, "word-word-word-word-word-word-word-word-word-word"),
        ("abcdefghij " * 3 + "klmnopqrstuvwxyz" * 3, "abcdefghij-abcdefghij-abcdefghij"),
    ],
)
def test_slugify(title: str, slug: str) -> None:
    assert k.slugify(title) == slug


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items())
def test_item_path_is_always_safe(item: KnowledgeItem) -> None:
    path = k.item_path(item)
    assert path == k.item_path(item)
    assert not path.is_absolute() and ".." not in path.parts
    assert path.parts[0] == "knowledge" and path.parent == PurePosixPath("knowledge", *item.category.split("/"))
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{8}\.md", path.name)
    slug = path.name[11:-12]
    assert 1 <= len(slug) <= k.MAX_SLUG_CHARS


@given(st.text(max_size=300))
def test_clean_title_always_gives_an_acceptable_title(text: str) -> None:
    title = k.clean_title(text)
    assume(title)
    assert len(title) <= 120
    item = base_item(title=title)
    assert k.parse(k.render(item)).title == title


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('title: "a"\ntags: [a,\tb]', 3, "raw tab"),
        ("title:\tindented", 2, "raw tab"),
        ('title: "a\ufeffb"', 2, "byte order mark"),
        ('x: 1\ntitle: "a\u2028b"', 3, "line separator"),
        ('title: "a\x85b"', 2, "NEL"),
    ],
)
@pytest.mark.parametrize("name", BACKENDS)
def test_raw_characters_the_parsers_disagree_on_are_refused(text: str, line: int, words: str, name: str) -> None:
    with backend(name), pytest.raises(KnowledgeError) as err:
        k.parse("---\n" + text + "\n---\n")
    assert (err.value.rule, err.value.line) == ("yaml-syntax", line)
    assert words in err.value.message


yaml_atoms = st.sampled_from(
    [
        "a",
        "0",
        " ",
        "  ",
        ": ",
        "- ",
        "[",
        "]",
        "{",
        "}",
        ",",
        "'",
        '"',
        "\\",
        "#",
        "&x",
        "*x",
        "!",
        "?",
        "%",
        "@",
        "`",
        "\n",
        "\n  ",
        "\n- ",
        "~",
        "null",
        "é",
        "\x1b",
        "\\x41",
        "\\u00e9",
        "\\U0001F600",
        "\\N",
        "\\_",
        "\\L",
        "\\0",
        "\\e",
        "...",
        "---",
        "<<",
        "\x7f",
        "\x9b",
        "\u202e",
        "\U0001f600",
        "\ufffe",
        "\ue000",
    ]
)
hand_written_pairs = st.lists(
    st.tuples(
        st.sampled_from(["title", "tags", "files", "project", "author", "x"]),
        st.lists(yaml_atoms, max_size=25).map("".join),
    ),
    max_size=3,
    unique_by=lambda pair: pair[0],
)


@pytest.mark.skipif(len(BACKENDS) < 2, reason="PyYAML was built without libyaml")
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_written_pairs)
def test_both_yaml_parsers_give_the_same_verdict(pairs) -> None:
    """Whichever parser a teammate's PyYAML has, a file is accepted or refused the same way.
    (Known exception, not generated here: a block-scalar header followed directly by '#'.)"""
    text = '---\nsmriti: 1\nid: "3f9a2c1e5b7d4a60"\ncategory: "bug/fix"\ncreated: "2026-11-20T10:31:00Z"\n'
    if all(key != "title" for key, _ in pairs):
        text += 'title: "t"\n'
    text += "".join(f"{key}: {value}\n" for key, value in pairs) + "---\nbody\n"
    verdicts = []
    for name in BACKENDS:
        with backend(name):
            try:
                report = k.parse_report(text)
                verdicts.append((report.item, [(w.message, w.line) for w in report.warnings]))
            except KnowledgeError:
                verdicts.append("refused")
    assert verdicts[0] == verdicts[1]


def test_timestamps_take_ascii_digits_only() -> None:
    with pytest.raises(KnowledgeError):
        base_item(created="٢٠٢٦-11-20T10:31:00Z")
