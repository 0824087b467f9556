"""`untrusted.printable` and `TerminalGuard` without `re` drop exactly what their regexes define
(`printable_by_regex`, `guarded_by_regex`): every CSI sequence whole, then every control,
zero-width and bidi character; on a terminal, all of those but smriti's own sequences."""

from __future__ import annotations

import io
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from smriti.untrusted import INVISIBLE, TerminalGuard, guarded, guarded_by_regex, printable, printable_by_regex

# The characters that make the cases: ESC and the C1 CSI, `[`, parameter, intermediate and final
# bytes of a CSI sequence (and their neighbours at each class's edge), other C0/C1 controls, DEL,
# CR/LF/tab, the separators, zero-width and bidi characters, and some plain text.
EDGES = "\x1b\x9b[0;?9:/ !@A~m\x7f\x07\r\n\t\x00\x08\x0b\x1f\x80\x9f\xa0\x85\u2028\u2029"
ALPHABET = EDGES + INVISIBLE.replace("-", "") + "\u200c\u202c\u2067\ufe0a" + "ab é€😀"
hostile = st.text(ALPHABET, max_size=80)
csi = st.builds(
    lambda lead, params, inter, final: lead + params + inter + final,
    st.sampled_from(["\x1b[", "\x9b", "\x1b", "\x1b]"]),
    st.text("0123456789:;<=>?", max_size=4),
    st.text(" !\"#$%&'()*+,-./", max_size=2),
    st.one_of(st.just(""), st.characters(min_codepoint=0x20, max_codepoint=0x7F), st.sampled_from("\x1b\x9b")),
)
mixed = st.lists(st.one_of(csi, hostile, st.text(max_size=10)), max_size=8).map("".join)


@settings(max_examples=3000, deadline=None)
@given(st.one_of(hostile, mixed, st.text()))
@example("\x1b[\x1b[31mred\x1b[0m")
@example("\x9b\x9b2J")
@example("\x1b]0;title\x07 ok\r\n")
@example("\x1b[1;2 !@")
@example("a\u202eb\u200bc\ufeffd")
@example("\x1b[31")
def test_printable_is_what_its_regexes_say(text: str) -> None:
    assert printable(text) == printable_by_regex(text)


def test_the_usual_text_comes_back_as_it_is() -> None:
    text = "2026-11-20  claude-code  api  session  score 3.20"
    assert printable(text) is text


# ---- TerminalGuard: the same bytes reach the terminal as with its regexes ----------------------

OWN = st.sampled_from(["\x1b[31m", "\x1b[0m", "\x1b[1;33m", "\x1b[m", "\x1b[?25l", "\x1b[?25h", "\x1b[2K", "\x1b[K"])
guard_text = st.lists(
    st.one_of(OWN, csi, hostile, st.sampled_from(["\r", "\x1b[3K", "\x1b[?25x", "\x1b[1"])), max_size=8
)


@settings(max_examples=3000, deadline=None)
@given(guard_text.map("".join), st.booleans())
@example("\x1b[1K\x1b[3K\x1b[?25l\r\x1b[?2", True)
@example("a\x1b[31mb\x1b[0m\rc\u202e", False)
def test_guarded_is_what_its_regex_says(text: str, stderr: bool) -> None:
    assert guarded(text, stderr) == guarded_by_regex(text, stderr)


class RegexGuard:
    """TerminalGuard as it was written with regexes (the reference for the one without)."""

    def __init__(self, stream: io.StringIO, stderr: bool):
        self._stream, self._stderr, self._held = stream, stderr, ""

    def write(self, text: str) -> None:
        data = self._held + text
        self._held = ""
        esc = data.rfind("\x1b")
        if esc != -1 and len(data) - esc < 16 and not re.match(r"\x1b\[[0-9;?]*[A-Za-z]", data[esc:]):
            data, self._held = data[:esc], data[esc:]
        self._stream.write(guarded_by_regex(data, self._stderr))

    def flush(self) -> None:
        if self._held:
            held, self._held = self._held, ""
            self._stream.write(guarded_by_regex(held, self._stderr))


@settings(max_examples=1000, deadline=None)
@given(st.lists(guard_text.map("".join), max_size=6), st.booleans())
def test_the_guard_writes_what_it_wrote_with_regexes(writes: list[str], stderr: bool) -> None:
    """Writes that split sequences anywhere (a held tail completed by the next write, or flushed)."""
    ours, theirs = io.StringIO(), io.StringIO()
    guard, reference = TerminalGuard(ours, stderr=stderr), RegexGuard(theirs, stderr)
    for chunk in writes:
        guard.write(chunk)
        reference.write(chunk)
        assert ours.getvalue() == theirs.getvalue()
    guard.flush()
    reference.flush()
    assert ours.getvalue() == theirs.getvalue()
