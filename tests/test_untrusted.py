"""`untrusted.printable` without `re` drops exactly what its regexes define (`printable_by_regex`):
every CSI sequence whole, then every control, zero-width and bidi character, over arbitrary text."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from smriti.untrusted import INVISIBLE, printable, printable_by_regex

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
