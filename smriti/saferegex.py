"""Regular expressions a team supplies (categorize rules, redact patterns): bounded in time.

Anyone who can open a pull request can put a pattern in `.smriti/config.toml`, and smriti runs it
on every message, sometimes while it holds the store's write lock. A pattern such as `(\\w+\\s?)+$`
backtracks for ever on a long word followed by a character it cannot match. Two defences:

- `reject_reason` is asked when a pattern is read (by `smriti check` and at every load): it
  refuses nested quantifiers (`(a+)+`, `(x\\s?)*`) and runs the pattern on adversarial texts built
  from its own characters under a timeout. A pattern that needs more than `PROBE_TIMEOUT` on a few
  thousand characters cannot be bounded and is refused with a message that says so.
- `Guarded.search` runs an accepted pattern under `SEARCH_TIMEOUT` on the `regex` module (PyPI),
  whose matching takes `timeout=`; the stdlib `re` cannot be interrupted. A pattern that times out
  anyway is switched off for the rest of the process, and after `MAX_TIMEOUTS` timeouts every
  pattern sharing the budget is: a hostile config costs a caller at most a fraction of a second.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

# Time for one search of one message: well above what an ordinary pattern needs on a capped text
# (microseconds), well below what a lock waiter tolerates.
SEARCH_TIMEOUT = 0.05
# Timeouts a budget absorbs before it switches off every pattern it covers.
MAX_TIMEOUTS = 3
# A pattern just under SEARCH_TIMEOUT never times out, yet on every message of a big ingest it would
# hold the write lock for minutes. So a budget also watches the patterns' total time: past
# SLOW_FREE_TOTAL seconds, patterns that average more than SLOW_AVERAGE a text (ordinary ones take
# microseconds; smriti's own categorizing takes about this much a message) are all switched off, so a
# team's patterns can at most about double the time a write transaction would take anyway.
SLOW_FREE_TOTAL = 0.5
SLOW_AVERAGE = 0.0002
# Time for one adversarial probe: generous, so that a loaded machine never refuses a good pattern
# (a linear pattern scans PROBE_CHARS in well under a millisecond).
PROBE_TIMEOUT = 0.25
PROBE_CHARS = 1_000
# Time for all the probes of one pattern: one that is slow on each of them is as bad as one that
# never ends on one.
PROBE_TOTAL = 1.0
# Time for the probes of all the patterns of one config (checked, once per process, possibly while
# ingest holds the write lock): well below the store's busy timeout, well above what even a config
# of 200 ordinary patterns needs (about 1 s on a loaded 2-core machine).
CONFIG_PROBE_TOTAL = 6.0
# Characters whose runs make the usual catastrophic shapes backtrack: words, digits, blanks,
# separators; the pattern's own literal characters are added to them.
_PROBE_UNITS = ("a", "0", " ", "a ", "a0", "_", "-", ".", "/", "\t", "aa-", "a.b", "\\", '"')
_PROBE_ENDINGS = ("!", "\x00")
_METACHARS = set("\\^$.|?*+()[]{}")
NESTED_MESSAGE = "nests quantifiers (like (a+)+ or (a\\s?)+), which can take forever; rewrite it"


def _regex() -> Any:
    import regex  # the PyPI module; imported when a team has patterns (the hook path never does)

    return regex


def compile_pattern(pattern: str) -> Any:
    """The `regex` module's compiled pattern, with stdlib `re` semantics (VERSION0); ValueError if invalid."""
    rx = _regex()
    try:
        return rx.compile(pattern, rx.VERSION0)
    except rx.error as exc:  # its own class, no ValueError: callers catch one type
        raise ValueError(str(exc)) from None


def has_nested_quantifier(pattern: str) -> bool:
    """A group repeated without bound whose body ends in a quantifier and holds an unbounded one:
    `(a+)+`, `(\\w+\\s?)*`, `(x(a+))*`: the classic catastrophic-backtracking shape.

    Reads the pattern's structure (escapes and character classes skipped), so `(a\\+)+` and
    `([+*])+` are not counted, nor `(?:[A-Z]+_)*` (a literal ends each repeat) or `(\\d+\\.){3}`
    (a bounded repeat). The adversarial probe judges what this misses, such as `(a|aa)+`.
    """
    # per open group: [its body holds an unbounded quantifier, its body so far ends in a quantifier]
    stack: list[list[bool]] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            _ends_plain(stack)
        elif ch == "[":
            i = _skip_class(pattern, i)
            _ends_plain(stack)
        elif ch == "(":
            stack.append([False, False])
            i += 1
            if i < n and pattern[i] == "?":  # (?:  (?i)  (?P<name>: not a quantifier
                i += 1
        elif ch == ")":
            inner, ends_quantified = stack.pop() if stack else [False, False]
            i += 1
            quant = _quantifier_at(pattern, i) if i < n else None
            if quant is not None:
                if inner and ends_quantified and quant[0]:
                    return True
                i += quant[1]
            if stack:
                stack[-1][0] = stack[-1][0] or inner or (quant is not None and quant[0])
                stack[-1][1] = quant is not None or (inner and ends_quantified)
        elif ch == "|":
            i += 1
            _ends_plain(stack)
        elif (quant := _quantifier_at(pattern, i)) is not None:
            if stack:
                stack[-1][0] = stack[-1][0] or quant[0]
                stack[-1][1] = True
            i += quant[1]
        else:
            i += 1
            _ends_plain(stack)
    return False


def _ends_plain(stack: list[list[bool]]) -> None:
    if stack:
        stack[-1][1] = False


def _skip_class(pattern: str, i: int) -> int:
    """The index after the character class opening at `i`."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


def _quantifier_at(pattern: str, i: int) -> tuple[bool, int] | None:
    """(unbounded?, length) of the quantifier at `i` (with a lazy or possessive suffix), or None."""
    ch = pattern[i]
    if ch in "*+":
        width, unbounded = 1, True
    elif ch == "?":
        width, unbounded = 1, False
    elif ch == "{":
        end = pattern.find("}", i)
        body = pattern[i + 1 : end] if end > 0 else ""
        lo, comma, hi = body.partition(",")
        if end < 0 or not lo.strip().isdigit() or (hi.strip() and not hi.strip().isdigit()):
            return None  # a literal brace
        width, unbounded = end - i + 1, bool(comma) and not hi.strip()
        if not unbounded and not comma and lo.strip() in {"0", "1"}:
            return None
    else:
        return None
    if i + width < len(pattern) and pattern[i + width] in "?+":
        width += 1
    return unbounded, width


def _probes(pattern: str) -> list[str]:
    literals = sorted({c for c in pattern if c.isprintable() and c not in _METACHARS})[:12]
    units = list(dict.fromkeys([*_PROBE_UNITS, *literals, "".join(literals[:4])]))
    out: list[str] = []
    for unit in units:
        if not unit:
            continue
        body = unit * (PROBE_CHARS // len(unit))
        out.extend(body + end for end in _PROBE_ENDINGS)
    return out


@lru_cache(maxsize=1024)
def reject_reason(pattern: str) -> str | None:
    """Why `pattern` cannot be run safely on untrusted text, or None when it can.

    Call it after the pattern compiled. It costs a few milliseconds for an ordinary pattern and at
    most PROBE_TOTAL for one that backtracks.
    """
    if has_nested_quantifier(pattern):
        return NESTED_MESSAGE
    rx = compile_pattern(pattern)
    deadline = time.monotonic() + PROBE_TOTAL
    for text in _probes(pattern):
        try:
            rx.search(text, timeout=max(0.001, min(PROBE_TIMEOUT, deadline - time.monotonic())))
        except TimeoutError:
            took = (
                f"more than {PROBE_TOTAL:g} s in all on texts"
                if time.monotonic() >= deadline
                else f"more than {PROBE_TIMEOUT:g} s on a text"
            )
            return (
                f"needs {took} of {len(text):,} characters like {text[:3]!r}…, so its time cannot be "
                "bounded (it backtracks); rewrite it"
            )
    return None


@dataclass
class Budget:
    """The time the patterns of one config may take, in one process, and what to tell the user.

    All of them together get SEARCH_TIMEOUT per text (`start_text` opens a text's allowance): a
    pattern that alone exceeds it is switched off; patterns that exceed it together lose the rest
    of that text. Each is a strike, and after MAX_TIMEOUTS strikes every pattern is off, so a
    hostile config costs a run at most about MAX_TIMEOUTS × SEARCH_TIMEOUT, however many texts; and
    patterns that stay just under the timeout are switched off by their average (`account`).
    """

    timeouts: int = 0
    warnings: list[str] = field(default_factory=list)
    deadline: float | None = None  # this text's allowance ends here (None: no text started)
    struck: bool = False  # this text already cost a strike
    spent: float = 0.0  # seconds all searches took, over the budget's life
    texts: int = 0  # texts started (at least one search each)

    @property
    def exhausted(self) -> bool:
        return self.timeouts >= MAX_TIMEOUTS

    def start_text(self) -> None:
        self.deadline = time.monotonic() + SEARCH_TIMEOUT
        self.struck = False
        self.texts += 1

    def account(self, seconds: float) -> None:
        """Add one search's time; switch every pattern off when they are slow on average."""
        self.spent += seconds
        if self.spent > SLOW_FREE_TOTAL and not self.exhausted and self.spent > SLOW_AVERAGE * max(self.texts, 1):
            self.timeouts = MAX_TIMEOUTS
            self.warnings.append(
                f"the team's patterns took {self.spent:.1f} s over {self.texts:,} texts "
                f"(over {SLOW_AVERAGE * 1000:g} ms a text); every team pattern is skipped for the rest of this run;"
                " `smriti check` explains how to fix it"
            )

    def strike(self, why: str) -> None:
        if self.struck:
            return
        self.struck = True
        self.timeouts += 1
        tail = "; every team pattern is skipped for the rest of this run" if self.exhausted else ""
        self.warnings.append(f"{why}; `smriti check` explains how to fix it{tail}")

    def drain(self) -> list[str]:
        out: list[str] = self.warnings
        self.warnings = []
        return out


class Guarded:
    """A team pattern whose every search is bounded; it answers "no match" once switched off."""

    __slots__ = ("budget", "off", "pattern", "rx")

    def __init__(self, pattern: str, budget: Budget):
        self.pattern = pattern
        self.rx = compile_pattern(pattern)
        self.budget = budget
        self.off = False

    def search(self, text: str) -> bool:
        budget = self.budget
        if self.off or budget.exhausted:
            return False
        timeout = SEARCH_TIMEOUT
        if budget.deadline is not None:
            timeout = budget.deadline - time.monotonic()
            if timeout <= 0:
                budget.strike(f"the team's patterns together took over {SEARCH_TIMEOUT:g} s on one text")
                return False
        start = time.monotonic()
        try:
            return self.rx.search(text, timeout=timeout) is not None
        except TimeoutError:
            if timeout >= SEARCH_TIMEOUT:  # this pattern alone: off for good
                self.off = True
                budget.struck = False
                budget.strike(
                    f"team pattern {self.pattern!r} took over {SEARCH_TIMEOUT:g} s on one text"
                    " and is skipped from now on"
                )
            else:
                budget.strike(f"the team's patterns together took over {SEARCH_TIMEOUT:g} s on one text")
            return False
        finally:
            budget.account(time.monotonic() - start)
