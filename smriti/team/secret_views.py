"""Decoded views of a text: where a secret hides behind an encoding or a line break.

A secret is not always written as itself: a JSON string escapes its slashes (`https:\\/\\/hooks…`), a
URL percent-encodes it (`%2F`, `%3D`), a credentials file is pasted as base64, a terminal wraps a long
token onto two lines. Each `View` is a decoded copy of one window of the text plus the map back to it,
so a detector run on the view can name the span of the original to replace.

    >>> for view in views(text):
    ...     for start, end in spans_found_in(view.text):
    ...         view.to_source(start, end)   # the encoded span of `text` that holds it

The views, each produced only where its trigger is present and only over a window of 256 characters
either side of it (200 for a line break), so a plain text costs a few scans and nothing is quadratic:
- `unescaped`: backslash escapes decoded (`\\/`, `\\"`, `\\\\`, `\\uXXXX`, `\\n` …) around an escape that
  matters inside a token (`\\/`, `\\\\`, `\\uXXXX`, `\\xXX`);
- `percent`: `%XX` decoded around each percent-encoding;
- `joined`: a line break removed (a real one, or a JSON `\\n`, with the next line's indentation) where the
  runs on both sides look like parts of a token (digits and letters, or mixed case), not prose, numbers,
  timestamps or a new `KEY=value` line;
- `base64`: a standard or url-safe base64 run of `MIN_BASE64` or more characters that decodes to text.
  Its map sends every position to the whole run: a secret inside means the whole run goes.
Views of views are the caller's recursion (bounded by its depth), so base64 inside base64 is found.
This module is shared by the redactor and the gate: it decodes, it holds no secret rule.
"""

from __future__ import annotations

import base64
import binascii
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["MIN_BASE64", "View", "views"]

MIN_BASE64 = 24
MAX_BASE64 = 64 * 1024  # longer runs are files (images, bundles), not pasted credentials
CONTEXT = 64  # characters of plain text kept before a decoded run: a keyword ("aws", "password=") sits there


@dataclass(frozen=True, slots=True)
class View:
    """A decoded window. `pieces` are (view_start, src_start, src_end, identity) in view order: an
    identity piece maps character by character; another maps any position inside it to its whole span."""

    name: str
    text: str
    pieces: tuple[tuple[int, int, int, bool], ...]
    starts: tuple[int, ...]  # each piece's view_start, for bisection

    def to_source(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that view span [start, end) came from (widened to whole escapes)."""
        return self._at(start, False), self._at(max(start, end - 1), True)

    def changed(self, start: int, end: int) -> bool:
        """Does view span [start, end) touch a decoded (non-identity) piece? Only then is it news."""
        i = max(0, bisect_right(self.starts, start) - 1)
        while i < len(self.pieces) and self.pieces[i][0] < end:
            if not self.pieces[i][3]:
                return True
            i += 1
        return False

    def around(self, reach: int) -> str:
        """The decoded pieces with `reach` characters of the view either side (joined by NULs)."""
        spans: list[list[int]] = []
        for i, (vs, _, _, identity) in enumerate(self.pieces):
            if not identity:
                ve = self.pieces[i + 1][0] if i + 1 < len(self.pieces) else len(self.text)
                s, e = max(0, vs - reach), ve + reach
                if spans and s <= spans[-1][1]:
                    spans[-1][1] = max(spans[-1][1], e)  # merged: 50,000 escapes make one window, not 50,000
                else:
                    spans.append([s, e])
        return "\x00".join(self.text[s:e] for s, e in spans)

    def _at(self, pos: int, is_end: bool) -> int:
        i = max(0, bisect_right(self.starts, pos) - 1)
        vs, ss, se, identity = self.pieces[i]
        if identity:
            return ss + (pos - vs) + (1 if is_end else 0)
        return se if is_end else ss


class _Builder:
    def __init__(self, name: str) -> None:
        self.name = name
        self.parts: list[str] = []
        self.pieces: list[tuple[int, int, int, bool]] = []
        self.size = 0

    def copy(self, text: str, start: int, end: int) -> None:
        if end > start:
            self.pieces.append((self.size, start, end, True))
            self.parts.append(text[start:end])
            self.size += end - start

    def put(self, decoded: str, start: int, end: int) -> None:
        self.pieces.append((self.size, start, end, False))
        self.parts.append(decoded)
        self.size += len(decoded)

    def build(self) -> View:
        return View(self.name, "".join(self.parts), tuple(self.pieces), tuple(p[0] for p in self.pieces))


_ESCAPE_RE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\\/\"'nrtbf])")
_SIMPLE = {"\\": "\\", "/": "/", '"': '"', "'": "'", "n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}
# An escape that matters inside a token (`\/`, `\\`, `\uXXXX`, `\xXX`): `\n` between tokens is a
# boundary (the rules see that themselves) or a wrap (the joined view).
_ESCAPE_TRIGGER_RE = re.compile(r"\\(?:[\\/]|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2})")
_PERCENT_RE = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
# Runs of base64/base64url characters are found on a mask of the text (each such character becomes "a",
# every other ASCII character a space) with str.find: a regex with a lookbehind at its start costs a
# step of sre's interpreter at every position, ten times more than a translate and a few finds.
_RUN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-"
_RUN_MASK = {c: ("a" if chr(c) in _RUN_CHARS else " ") for c in range(128)}
_NOT_RUN_RE = re.compile("[^a]")


def token_runs(text: str, min_len: int, max_pad: int) -> Iterator[tuple[int, int]]:
    """Spans of the maximal runs of base64/base64url characters (`[A-Za-z0-9+/_-]`) at least `min_len`
    long, each with up to `max_pad` `=` after it: what `(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{min_len,}
    ={0,max_pad}` finds. (Characters outside ASCII are kept by the mask, and none of them is "a".)"""
    if len(text) < min_len:
        return
    mask = text.translate(_RUN_MASK)
    needle = "a" * min_len
    n = len(text)
    start = mask.find(needle)
    while start >= 0:
        other = _NOT_RUN_RE.search(mask, start + min_len)
        end = n if other is None else other.start()
        run_end = end
        while end < n and end - run_end < max_pad and text[end] == "=":
            end += 1
        yield start, end
        start = mask.find(needle, run_end)


# A line break inside a wrapped token: a token-like run (8+ characters with a digit or mixed case)
# ends a line, and the next line (after its indentation or a `> ` quote) starts with a token character.
# (6 token characters on both sides, checked in C, so lines ending in prose cost nothing in Python)
# The line break comes first in the pattern (sre scans for it fast); each lookbehind ends with it.
_TAIL6 = r"[A-Za-z0-9+/=_.%&#!-]{5}[A-Za-z0-9+/=_%&#!-]"
_WRAP_RE = re.compile(
    rf"(?:\n(?<={_TAIL6}\n)|\r\n(?<={_TAIL6}\r\n)|\\r\\n(?<={_TAIL6}\\r\\n)|\\n(?<={_TAIL6}\\n))"
    r"[ \t>]*(?=[A-Za-z0-9+/=_.%&#!-]{6})"
)


def _unescape(match: re.Match[str]) -> str:
    s = match.group()
    if s[1] in "ux":
        try:
            return chr(int(s[2:], 16))
        except ValueError:  # pragma: no cover - the pattern admits hex digits only
            return s
    return _SIMPLE[s[1]]


def _decode_run(name: str, text: str, ws: int, we: int, rx: re.Pattern[str], decode: object) -> View:
    b = _Builder(name)
    pos = ws
    for m in rx.finditer(text, ws, we):
        b.copy(text, pos, m.start())
        b.put(decode(m), m.start(), m.end())  # type: ignore[operator]
        pos = m.end()
    b.copy(text, pos, we)
    return b.build()


def _percent(m: re.Match[str]) -> str:
    raw = bytes(int(m.group()[i + 1 : i + 3], 16) for i in range(0, len(m.group()), 3))
    return raw.decode("utf-8", "replace")


def _merged(spans: Iterator[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for s, e in spans:
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _b64_text(run: str) -> str | None:
    """The text a base64 run encodes, or None when it is not base64 of mostly printable text."""
    body = run.rstrip("=")
    if len(body) % 4 == 1:
        return None
    # The first character of each 4-character group holds the top 6 bits of a byte: for printable ASCII
    # (0x20-0x7e) that is one of I-Z, a-f. Identifiers and random tokens fail this before any decoding.
    heads = body[::4]
    if len(heads) - len(heads.translate(_DROP_TEXT_HEADS)) < 0.8 * len(heads):
        return None  # (the translate deletes the I-Z, a-f heads: what is left is the count of the others)
    padded = body + "=" * (-len(body) % 4)
    try:
        if "-" in body or "_" in body:
            if "+" in body or "/" in body:
                return None
            raw = base64.urlsafe_b64decode(padded)
        else:
            raw = base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    unprintable = len(_UNPRINTABLE_RE.findall(decoded))
    return decoded if decoded and unprintable <= 0.05 * len(decoded) else None


_DROP_TEXT_HEADS = dict.fromkeys(map(ord, "IJKLMNOPQRSTUVWXYZabcdef"))
_UNPRINTABLE_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd]")


def _windows(text: str, triggers: Iterator[re.Match[str]], reach: int = 256) -> list[tuple[int, int]]:
    """Merged windows of `reach` characters either side of each trigger (linear: no unbounded runs)."""
    return _merged((max(0, m.start() - reach), min(len(text), m.end() + reach)) for m in triggers)


def views(text: str, runs: list[tuple[int, int]] | None = None) -> Iterator[View]:
    """The decoded views of `text` (see the module docstring); nothing when no trigger is present.

    `runs`, when the caller has them, are `token_runs(text, n, p)` for some `n <= MIN_BASE64` and
    `p >= 2`: the base64 runs are taken from them instead of found again."""
    if "\\" in text:
        for ws, we in _windows(text, _ESCAPE_TRIGGER_RE.finditer(text)):
            yield _decode_run("unescaped", text, ws, we, _ESCAPE_RE, _unescape)
    if "%" in text:
        for ws, we in _windows(text, _PERCENT_RE.finditer(text)):
            yield _decode_run("percent", text, ws, we, _PERCENT_RE, _percent)
    if "\n" in text or "\\n" in text:
        joins = [m for m in _WRAP_RE.finditer(text) if _wrap_point(_tail_token(text, m.start()), text, m.end())]
        i = 0
        for ws, we in _windows(text, iter(joins), 200):
            b = _Builder("joined")
            pos = ws
            while i < len(joins) and joins[i].end() <= we:
                m = joins[i]
                i += 1
                if m.start() < pos:
                    continue
                b.copy(text, pos, m.start())
                b.put("", m.start(), m.end())
                pos = m.end()
            b.copy(text, pos, we)
            yield b.build()
    for start, end in token_runs(text, MIN_BASE64, 2) if runs is None else _base64_runs(text, runs):
        if end - start > MAX_BASE64:
            continue
        decoded = _b64_text(text[start:end])
        if decoded is None:
            continue
        ws = max(0, start - CONTEXT)
        b = _Builder("base64")
        b.copy(text, ws, start)
        b.put(decoded, start, end)
        yield b.build()


def _base64_runs(text: str, runs: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """`token_runs(text, MIN_BASE64, 2)` from the runs of a shorter minimum or more padding."""
    for start, end in runs:
        body_end = end
        while body_end > start and text[body_end - 1] == "=":
            body_end -= 1
        if body_end - start >= MIN_BASE64:
            yield start, min(end, body_end + 2)


_TOKEN_CHARS_STR = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-.%&#!"
_HEAD_RE = re.compile(r"[A-Za-z0-9+/=_.%&#!-]{1,48}")
_HEX_CHARS = frozenset("0123456789abcdefABCDEF")


def _wrap_point(tail: str, text: str, next_start: int) -> bool:
    """Is this line break inside a wrapped token? The runs before and after it both look like parts of
    a token (a SHA ending a log line, then `Author: …`, is not one)."""
    if not _wrapped_token(tail):
        return False
    m = _HEAD_RE.match(text, next_start)
    return m is not None and _wrapped_token(m.group()) and _ASSIGNMENT_START_RE.match(m.group()) is None


_ASSIGNMENT_START_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*=[^=]")  # `PORT=8080`: a new line of a .env file


def _tail_token(text: str, end: int) -> str:
    """The token-like run that ends at `end` (its last 48 characters: enough to tell a token from a word)."""
    window = text[max(0, end - 48) : end]
    return window[len(window.rstrip(_TOKEN_CHARS_STR)) :]  # rstrip: the scan back runs in C


def _wrapped_token(token: str) -> bool:
    """A run next to a line break looks like part of a token (6+ characters with a digit and a letter,
    or upper and lower case after the first one, or 16+ lower-case letters with few vowels), not a word
    of prose, a number or a timestamp."""
    if len(token) < 6:
        return False
    # (tokens here are ASCII: runs of _TOKEN_CHARS_STR or _HEAD_RE, so the regexes below say what
    # str.isdigit/isalpha/isupper/islower would, without a Python loop per character)
    if _DIGIT_RE.search(token) and _ALPHA_RE.search(token):
        return True  # not a timestamp or a number
    if _UPPER_RE.search(token, 1) and _LOWER_RE.search(token, 1):
        return True
    # lower-case letters only: random (few vowels, as in a base32 token) or a long word
    return len(token) >= 16 and token.isalpha() and len(_VOWEL_RE.findall(token)) < 0.25 * len(token)


_DIGIT_RE = re.compile(r"[0-9]")
_ALPHA_RE = re.compile(r"[A-Za-z]")
_UPPER_RE = re.compile(r"[A-Z]")
_LOWER_RE = re.compile(r"[a-z]")
_VOWEL_RE = re.compile(r"[aeiou]")
