"""Text from outside (synced knowledge files, agents' logs, file names) made safe to show.

Two audiences, two rules:
- a model reading smriti's context block: `for_model` folds the text with NFKC (fullwidth and
  other compatibility forms become plain ASCII), drops zero-width and bidirectional controls and
  other control characters, and turns Unicode line and paragraph separators into newlines, so
  that a look-alike of the block's marker (`ｓｍｒｉｔｉ-context`, `smri\u200bti-context`) is
  seen, and neutralised, as the marker it imitates;
- a person's terminal: `printable` drops every control character (ESC, and with it every escape
  sequence, colours included; the C1 controls such as U+009B, a CSI on some terminals; carriage
  returns, BEL, backspace), zero-width and bidi character from a text; every text line the CLI
  prints passes each value from outside through it (`smriti.cli.say`, `smriti.render.e`), piped
  or not, before smriti adds its own styling. So a synced title cannot colour the rest of the
  screen (`ESC[31m`), set the window title (`ESC]0;…BEL`), clear the screen (`ESC[2J`), overwrite
  a line (`\r`) or reorder what is shown (U+202E). `TerminalGuard` is the second line: it wraps
  stdout and stderr when they are terminals and drops every control character and escape
  sequence but the few smriti writes (colours, the progress bar's cursor and line erasing), for
  a print path that would forget `printable` (it cannot tell a foreign colour from smriti's own).
  JSON output is data, not display: it keeps the text exactly (JSON escapes control characters).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any, TextIO

# Zero-width characters, bidirectional controls, and the invisible joiners/marks around them.
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
)
# The patterns are compiled on first use (`_patterns`): a `smriti search --json` piped to a program
# prints no text for a person and never needs them, nor `re` for them.
_INVISIBLE = f"[{INVISIBLE}]"
# C0 controls but tab and newline, DEL and the C1 controls (U+009B is a CSI on some terminals).
_CONTROL = "[\x00-\x08\x0b-\x1f\x7f-\x9f]"
_SEPARATORS = "[\u2028\u2029\x85]|\r\n?"
# A whole CSI sequence (colours, cursor moves, erasing: what test runners and progress bars leave
# in tool output), with ESC [ or the one-byte C1 CSI.
_CSI = r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
_compiled: dict[str, re.Pattern[str]] = {}


def _re(pattern: str) -> re.Pattern[str]:
    compiled = _compiled.get(pattern)
    if compiled is None:
        import re

        compiled = _compiled[pattern] = re.compile(pattern)
    return compiled


def for_model(text: str) -> str:
    """NFKC, separators as newlines, no zero-width, bidi or control characters (tab and newline stay)."""
    if text.isascii():  # the usual case, and one with nothing to fold: a tenth of the time
        return _re(_CONTROL).sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    import unicodedata

    text = unicodedata.normalize("NFKC", text)
    text = _re(_SEPARATORS).sub("\n", text)
    text = _re(_INVISIBLE).sub("", text)
    return _re(_CONTROL).sub("", text)


def printable(text: str) -> str:
    """`text` without any control, zero-width or bidi character (tab and newline stay): what any
    text from outside becomes before it is printed for a person (a CR of a CRLF goes, its LF stays).

    A CSI sequence goes whole (`ESC[31m`, `ESC[2J`: no `[31m` left in a test run's output); of any
    other escape sequence only its control characters go, so what it tried to do shows
    (`ESC]0;title BEL` becomes `]0;title`)."""
    if text.isascii() and text.isprintable():  # nothing to drop (the usual title or snippet)
        return text
    # Without `re` (~8 ms of a `smriti search` process with `enum`): the CSI sequences by a scan,
    # then every character of _CONTROL and _INVISIBLE by one translate. tests/test_untrusted.py
    # holds this equal to the regexes (`printable_by_regex`) over arbitrary text.
    if "\x1b" in text or "\x9b" in text:
        text = _drop_csi(text)
    return text.translate(_dropped())


def printable_by_regex(text: str) -> str:
    """What `printable` does, spelled with the regexes that define it (the tests' reference)."""
    if "\x1b" in text or "\x9b" in text:
        text = _re(_CSI).sub("", text)
    return _re(_INVISIBLE).sub("", _re(_CONTROL).sub("", text))


def _drop_csi(text: str) -> str:
    """`text` without the matches of _CSI, found left to right as `re.sub` finds them. Its three
    classes (parameters 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E) do not overlap, so
    the greedy scan is the match, with no backtracking to consider."""
    out = []
    keep = at = 0
    n = len(text)
    while True:
        esc, c1 = text.find("\x1b[", at), text.find("\x9b", at)
        start = esc if c1 == -1 or (esc != -1 and esc < c1) else c1
        if start == -1:
            break
        j = start + (2 if text[start] == "\x1b" else 1)
        while j < n and "0" <= text[j] <= "?":
            j += 1
        while j < n and " " <= text[j] <= "/":
            j += 1
        if j < n and "@" <= text[j] <= "~":
            out.append(text[keep:start])
            keep = at = j + 1
        else:
            at = start + 1
    out.append(text[keep:])
    return "".join(out)


def _class_chars(spec: str) -> list[int]:
    """The code points of a regex character class body made of characters and `a-b` ranges
    (the form of INVISIBLE and _CONTROL's), so the translate table is read from the same text."""
    out: list[int] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            out.extend(range(ord(spec[i]), ord(spec[i + 2]) + 1))
            i += 3
        else:
            out.append(ord(spec[i]))
            i += 1
    return out


_DROPPED: dict[int, None] = {}


def _dropped() -> dict[int, None]:
    """str.translate's table that deletes every character of _CONTROL and of INVISIBLE."""
    if not _DROPPED:
        _DROPPED.update(dict.fromkeys(_class_chars(_CONTROL[1:-1]) + _class_chars(INVISIBLE)))
    return _DROPPED


# What smriti itself writes to a terminal: SGR colours (click.style, rich), and on stderr the
# progress bar's cursor hiding and line erasing with its carriage returns.
_OWN_STDOUT = r"\x1b\[[0-9;]*m"
_OWN_STDERR = r"\x1b\[[0-9;]*m|\x1b\[\?25[lh]|\x1b\[[0-2]?K|\r"


def _own_length(text: str, at: int, stderr: bool) -> int:
    """The length of the sequence of _OWN_STDOUT (or _OWN_STDERR) that starts at `at`, else 0:
    `\x1b[` digits and `;` `m`; on stderr also `\x1b[?25l` / `h`, `\x1b[` 0-2 (or none) `K`, `\r`."""
    if text[at] == "\r":
        return 1 if stderr else 0
    if not text.startswith("\x1b[", at):
        return 0
    j = at + 2
    n = len(text)
    while j < n and text[j] in "0123456789;":
        j += 1
    if j < n and text[j] == "m":
        return j + 1 - at
    if not stderr:
        return 0
    if text.startswith("?25", at + 2) and text[at + 5 : at + 6] in ("l", "h") and at + 6 <= n:
        return 6
    k = at + 3 if text[at + 2 : at + 3] in ("0", "1", "2") and at + 3 <= n else at + 2
    return k + 1 - at if text[k : k + 1] == "K" else 0


def _unfinished(tail: str) -> bool:
    """Whether `tail` (from an ESC) is not `\x1b[`, parameters (digits, `;`, `?`) and a letter."""
    if not tail.startswith("\x1b["):
        return True
    j = 2
    while j < len(tail) and tail[j] in "0123456789;?":
        j += 1
    return not (j < len(tail) and tail[j].isascii() and tail[j].isalpha())


def guarded(text: str, stderr: bool = False) -> str:
    """`text` as TerminalGuard passes it: every character of _CONTROL and INVISIBLE dropped but
    the sequences of smriti's own (_OWN_STDOUT, or _OWN_STDERR on stderr), scanned left to right
    as `re.sub` would with `({own})|[those characters]` (`guarded_by_regex`, the tests' reference).
    Without `re`: a person's `smriti search` on a terminal would pay ~8 ms for it."""
    table = _dropped()
    if len(text.translate(table)) == len(text):  # nothing to drop: the usual line
        return text
    out = []
    i = 0
    n = len(text)
    while i < n:
        j = i
        while j < n and ord(text[j]) not in table:
            j += 1
        out.append(text[i:j])
        if j == n:
            break
        own = _own_length(text, j, stderr)
        if own:
            out.append(text[j : j + own])
        i = j + (own or 1)
    return "".join(out)


def guarded_by_regex(text: str, stderr: bool = False) -> str:
    """What `guarded` does, spelled with the regex that defines it."""
    own = _OWN_STDERR if stderr else _OWN_STDOUT
    pattern = _re(f"({own})|[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE}]")
    return pattern.sub(lambda m: m.group(1) or "", text)


class TerminalGuard:
    """A text stream that drops foreign control characters on their way to a terminal.

    A write may end in the middle of an escape sequence smriti writes; that tail is held until
    the next write completes it (or is flushed as text with the ESC dropped).
    """

    def __init__(self, stream: TextIO, *, stderr: bool = False):
        self._stream = stream
        self._stderr = stderr
        self._held = ""

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click probes with bytes to tell binary streams apart
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        data = self._held + text
        self._held = ""
        esc = data.rfind("\x1b")
        if esc != -1 and len(data) - esc < 16 and _unfinished(data[esc:]):
            data, self._held = data[:esc], data[esc:]  # an unfinished sequence: wait for the rest
        self._stream.write(guarded(data, self._stderr))
        return len(text)

    def flush(self) -> None:
        if self._held:
            held, self._held = self._held, ""
            self._stream.write(guarded(held, self._stderr))
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def guard_terminal() -> None:
    """Wrap sys.stdout and sys.stderr in a TerminalGuard where they are terminals."""
    for name, is_err in (("stdout", False), ("stderr", True)):
        stream = getattr(sys, name)
        try:
            tty = stream is not None and stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        if tty and not isinstance(stream, TerminalGuard):
            setattr(sys, name, TerminalGuard(stream, stderr=is_err))
