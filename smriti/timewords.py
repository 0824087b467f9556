"""Time words of a prompt ("yesterday", "last week", "a couple of days ago", "in March") as a date
window relative to the prompt's own date.

Recall boosts candidates dated inside the window rather than filtering them out: people misremember
when something happened, and a wrong guess should demote, not hide. The hook knows today's date;
a benchmark question carries its own. Pure: no I/O, stdlib only (it runs inside the prompt hook's
recall).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

MONTHS = {
    name: n
    for n, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a couple of": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "several": 4,
}
UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
# How much wider than the named span the window is: "three weeks ago" is rarely exact.
SLACK = 0.35

_NUMBER = "|".join(sorted((re.escape(k) for k in NUMBER_WORDS), key=len, reverse=True))
_AGO = re.compile(rf"\b(\d+|{_NUMBER})\s+(day|week|month|year)s?\s+ago\b", re.IGNORECASE)
_LAST = re.compile(
    rf"\b(?:the\s+)?(?:last|past|previous)\s+(?:(\d+|{_NUMBER})\s+)?(day|week|month|year)s?\b", re.IGNORECASE
)
_THIS = re.compile(r"\bthis\s+(week|month|year)\b", re.IGNORECASE)
_MONTH = re.compile(
    r"\b(?:in|during|back in|since|early|late|mid)\s+(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_WEEKDAY = re.compile(r"\b(?:last|on)\s+(" + "|".join(WEEKDAYS) + r")\b", re.IGNORECASE)


def _day_start(dt: datetime) -> datetime:
    return dt.replace(hour=0, minute=0, second=0, microsecond=0)


_YESTERDAY = re.compile(r"\b(?:the )?day before yesterday\b|\byesterday\b")
_TODAY = re.compile(r"\b(?:earlier )?today\b|\bthis morning\b")

Window = tuple[datetime, datetime]


def time_window(query: str, now: datetime) -> Window | None:
    """The [start, end) window a prompt's time words name, relative to `now`, or None."""
    return time_words(query, now)[0]


def time_words(query: str, now: datetime) -> tuple[Window | None, str]:
    """The window a prompt's time words name (or None), and the prompt without them: "in March" is
    when, not what, so recall must not look for the word "march"."""
    window, rest, _ = time_words_loose(query, now)
    return window, rest


def time_words_loose(query: str, now: datetime) -> tuple[Window | None, str, bool]:
    """`time_words`, and whether the window is a distance back ("four weeks ago"), which people
    say loosely, unlike a named day or month ("yesterday", "in March")."""
    text = query.lower()
    today = _day_start(now)
    found = _window(text, today)
    if found is None:
        return None, query, False
    window, (a, b) = found
    ago = _AGO.search(text)
    return window, query[:a] + " " + query[b:], ago is not None and ago.span() == (a, b)


def _window(text: str, today: datetime) -> tuple[Window, tuple[int, int]] | None:
    m = _YESTERDAY.search(text)
    if m:
        back = 2 if m.group(0).endswith("day before yesterday") else 1
        return (today - timedelta(days=back), today - timedelta(days=back - 1)), m.span()
    m = _TODAY.search(text)
    if m:
        return (today, today + timedelta(days=1)), m.span()
    m = _AGO.search(text)
    if m:
        raw = m.group(1)
        n = int(raw) if raw.isdigit() else NUMBER_WORDS.get(raw, 1)
        days = n * UNIT_DAYS[m.group(2)]
        slack = max(1.0, days * SLACK)
        center = today - timedelta(days=days)
        return (center - timedelta(days=slack), center + timedelta(days=slack + 1)), m.span()
    m = _LAST.search(text)
    if m:
        days = UNIT_DAYS[m.group(2)]
        if m.group(1) is None:  # "last week": the week before this one, or this one
            return (today - timedelta(days=2 * days), today + timedelta(days=1)), m.span()
        raw = m.group(1)  # "the past two weeks": up to today
        days *= int(raw) if raw.isdigit() else NUMBER_WORDS.get(raw, 1)
        slack = max(1.0, days * SLACK)
        return (today - timedelta(days=days + slack), today + timedelta(days=1)), m.span()
    m = _THIS.search(text)
    if m:
        days = UNIT_DAYS[m.group(1)]
        return (today - timedelta(days=days), today + timedelta(days=1)), m.span()
    m = _WEEKDAY.search(text)
    if m:
        back = (today.weekday() - WEEKDAYS.index(m.group(1))) % 7 or 7
        day = today - timedelta(days=back)
        return (day, day + timedelta(days=1)), m.span()
    m = _MONTH.search(text)
    if m:
        month = MONTHS[m.group(1)]
        year = today.year if month <= today.month else today.year - 1
        start = today.replace(year=year, month=month, day=1)
        end = start.replace(year=year + 1, month=1) if month == 12 else start.replace(month=month + 1)
        return (start, end), m.span()
    return None
