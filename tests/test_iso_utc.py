"""`iso_utc`, the one time shape every adapter writes: its shortcut for stamps already in that shape."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.adapters._common import iso_utc


def _by_parsing(text: str) -> str | None:
    """What iso_utc gives a string without its shortcut: parsed, made UTC, written out again."""
    try:
        dt = datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@given(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)))
@settings(max_examples=200, deadline=None)
def test_a_stamp_in_the_shape_comes_back_as_it_is(moment: datetime) -> None:
    stamp = moment.isoformat(timespec="milliseconds") + "Z"
    assert iso_utc(stamp) == stamp == _by_parsing(stamp)


# Stamps near the shape: a digit changed to another character (a week date, a 24th hour, a 31st of
# February, a comma, a zone, spaces): the shortcut must answer what the full parse answers.
_NEAR = st.builds(
    lambda base, at, char: base[:at] + char + base[at + 1 :],
    st.sampled_from(["2025-01-02T03:04:05.678Z", "2024-02-29T23:59:59.999Z", "2025-12-31T00:00:00.000Z"]),
    st.integers(min_value=0, max_value=23),
    st.sampled_from(list("0123456789-:.TZW ,+") + ["٣", "X"]),
)


@given(_NEAR)
@settings(max_examples=400, deadline=None)
def test_a_stamp_near_the_shape_gets_what_a_full_parse_gives(stamp: str) -> None:
    assert iso_utc(stamp) == _by_parsing(stamp)


def test_a_week_date_of_the_same_length_is_not_taken_as_it_is() -> None:
    # "2025-W01-1T03:04:05.678Z" has the shape's length and separators: it is 30 December 2024
    assert iso_utc("2025-W01-1T03:04:05.678Z") == "2024-12-30T03:04:05.678Z"
    assert iso_utc("2025-01-02T24:00:00.000Z") == _by_parsing("2025-01-02T24:00:00.000Z")
    assert iso_utc("2025-02-31T03:04:05.678Z") is None
    assert iso_utc(" 2025-01-02T03:04:05.678Z\n") == "2025-01-02T03:04:05.678Z"
