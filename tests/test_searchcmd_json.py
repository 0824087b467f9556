"""`smriti search --json` without the `json` package (`searchcmd.json_text`): the bytes
`json.dumps(rows, indent=2, ensure_ascii=False)` gives, for any rows."""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from smriti.searchcmd import json_text

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),  # NaN and the infinities too: json writes them as NaN / Infinity
    st.text(),  # control characters, surrogates, quotes, backslashes, non-ASCII
)
flat_rows = st.lists(st.dictionaries(st.text(max_size=8), scalars, max_size=6), max_size=4)
any_rows = st.lists(
    st.dictionaries(st.text(max_size=4), st.one_of(scalars, st.lists(scalars, max_size=2)), max_size=3), max_size=3
)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(flat_rows, any_rows))
@example([])
@example([{}])
@example([{"snippet": 'a\x1b[31m\u202e"\\\n\ud800', "score": 21.9022, "message": 0, "path": None}])
def test_the_same_text_as_json_dumps(rows: list[dict]) -> None:
    assert json_text(rows) == json.dumps(rows, indent=2, ensure_ascii=False)
