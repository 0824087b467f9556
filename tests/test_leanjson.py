"""smriti.hooks.leanjson (the hook path's JSON, on the `_json` accelerator) agrees with `json`."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smriti.hooks import leanjson

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20
)


@given(values)
def test_dumps_is_json_compact_without_ascii_escapes(value) -> None:
    out = leanjson.dumps(value)
    assert out == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert leanjson.loads(out) == value


@given(values, st.sampled_from(["", " ", "\n", " \t\r\n"]))
def test_loads_reads_what_json_writes(value, ws) -> None:
    for text in (json.dumps(value), json.dumps(value, indent=2), json.dumps(value, ensure_ascii=False)):
        assert leanjson.loads(ws + text + ws) == value
        assert leanjson.loads((ws + text).encode("utf-8")) == value


@given(st.text(max_size=30))
def test_loads_rejects_what_json_rejects(text) -> None:
    try:
        expected = json.loads(text)
    except ValueError:
        with pytest.raises(ValueError):
            leanjson.loads(text)
    else:
        got = leanjson.loads(text)
        assert got == expected or (isinstance(got, float) and math.isnan(got) and math.isnan(expected))


@pytest.mark.parametrize(
    "bad", ["", "   ", "{", '{"a": 1} x', "[1,]", "nul", '"unterminated', "{'a': 1}", '{"a":1}{"b":2}']
)
def test_loads_errors_are_value_errors(bad) -> None:
    with pytest.raises(ValueError):
        leanjson.loads(bad)


def test_dumps_refuses_what_json_cannot_hold() -> None:
    with pytest.raises(TypeError):
        leanjson.dumps({"a": object()})
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError):
        leanjson.dumps(loop)


def test_lone_surrogates_survive_a_round_trip_through_bytes() -> None:
    text = leanjson.dumps({"prompt": "half a pair \ud83d here"})
    assert leanjson.loads(text.encode("utf-8", "surrogatepass")) == {"prompt": "half a pair \ud83d here"}


def test_importing_it_does_not_import_json() -> None:
    code = (
        "import sys; from smriti.hooks import leanjson; "
        "leanjson.loads(leanjson.dumps({'a': [1, 2.5, None]})); print('json' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_without_the_accelerator_it_falls_back_to_json(monkeypatch: pytest.MonkeyPatch) -> None:
    # Another Python implementation has no `_json`: the same calls then go through `json` itself.
    monkeypatch.setattr(leanjson, "_scan", None)
    monkeypatch.setattr(leanjson, "_encode", None)
    value = {"prompt": "naïve café", "n": [1, 2.5, None, True]}
    text = leanjson.dumps(value)
    assert text == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert leanjson.loads(text) == value
    assert leanjson.loads(text.encode("utf-8")) == value
    with pytest.raises(ValueError):
        leanjson.loads("{} trailing")
