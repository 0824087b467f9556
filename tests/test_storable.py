"""Lone surrogates: text JSON can hold and UTF-8 (so SQLite) cannot.

JSON's `"\\ud800"` escape (half of a surrogate pair) decodes to a Python string that no UTF-8 encoder
takes, and Python reads a file name's undecodable byte the same way. One such line in a transcript
failed a whole `smriti ingest` with a traceback. `models.storable` makes every text of a parse result
writable (the escape the file had, as text) right after the adapter returns it, in whichever process
parsed it: these tests hold it to leaving UTF-8 alone, to making the rest writable, and to storing the
same through ingest's worker process as in one process. The CLI case is in test_hostile.py.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import apsw
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti import ingest_worker
from smriti.adapters import load_registry
from smriti.config import UserConfig
from smriti.index import Index
from smriti.ingest import ingest
from smriti.models import Message, ParseResult, Problem, Session, storable
from smriti.store import Store, jsoncols

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
from snapshot import dump  # noqa: E402

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.just("\ud800")  # a lone surrogate (JSON's "\ud800" escape): not UTF-8
)
# What an adapter may put in a tool's input: JSON's types, tuples, and things JSON has not (the
# store writes their text: json.dumps(default=str)).
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=4) | st.integers(0, 9), inner, max_size=3)
        | st.frozensets(st.integers(0, 5), max_size=3)
        | st.just(datetime(2026, 11, 28, 12, 0))  # noqa: DTZ001  (any object: its text is stored)
    ),
    max_leaves=8,
)


def _tool_line(uuid: str, parent: str | None, tool_input_json: str) -> str:
    message = (
        '{"role": "assistant", "model": "m", "content": [{"type": "tool_use", "id": "t_' + uuid + '", '
        '"name": "Bash", "input": ' + tool_input_json + "}]}"
    )
    return (
        json.dumps(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "cwd": "/w/odd",
                "sessionId": "s-odd-" + uuid[0],
                "uuid": uuid,
                "timestamp": "2026-11-01T10:00:00.000Z",
                "type": "assistant",
            }
        )[:-1]
        + ', "message": '
        + message
        + "}\n"
    )


def test_odd_texts_are_stored_alike_through_the_worker_and_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SMRITI_INGEST_WORKER", "1")
    if not ingest_worker.enabled():
        pytest.skip("no worker process on this platform")
    odd = {
        "a1": '{"command": "echo \\ud800 half a pair"}',  # a lone surrogate
        "b1": '{"count": 123456789012345678901234567890, "path": "/w/\\udcff"}',  # and a file name's byte
        "c1": '{"command": "ls", "args": [1, 2.5, true, null, {"k": "v"}]}',  # plain JSON
    }
    sources = []
    for uuid, tool_input in odd.items():
        path = tmp_path / "src" / f"{uuid}.jsonl"
        path.parent.mkdir(exist_ok=True)
        prompt = json.dumps(
            {
                "parentUuid": None,
                "isSidechain": False,
                "cwd": "/w/odd",
                "sessionId": "s-odd-" + uuid[0],
                "uuid": uuid + "p",
                "timestamp": "2026-11-01T09:59:00.000Z",
                "type": "user",
                "message": {"role": "user", "content": "run the odd command"},
            }
        )
        path.write_text(prompt + "\n" + _tool_line(uuid, uuid + "p", tool_input))
        sources.append(path)
    registry = load_registry()
    dumps = []
    for mode in ("0", "1"):
        monkeypatch.setenv("SMRITI_INGEST_WORKER", mode)
        monkeypatch.setattr(ingest_worker, "MIN_BYTES", 0)
        data = tmp_path / f"data{mode}"
        store = Store(data / "smriti.db")
        try:
            result = ingest(store, Index(data / "index"), registry, UserConfig(), ["claude-code"], sources)
            assert not result.errors, result.errors
            assert result.sessions_ingested == 3
        finally:
            store.close()
        dumps.append(list(dump(data)))
    assert dumps[0] == dumps[1]
    conn = apsw.Connection(str(tmp_path / "data1" / "smriti.db"))
    texts = [t for (t,) in conn.execute("select text from blobs where text like '%half a pair%'")]
    assert texts == ["Bash: echo \\ud800 half a pair"]  # the six characters the file has, as text


_texts = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=12)  # surrogates too


@given(text=_texts, tool_input=_values, files=st.lists(_texts, max_size=2), cwd=_texts)
@settings(max_examples=200, deadline=None)
def test_storable_leaves_utf8_alone_and_makes_the_rest_writable(
    text: str, tool_input: Any, files: list[str], cwd: str
) -> None:
    message = Message("assistant", text, "tool_call", "k", tool_name="Bash", tool_input=tool_input, files=tuple(files))
    result = ParseResult([Session("claude-code", "s", (message,), cwd=cwd)], None, errors=[Problem(cwd, "bad", 1)])
    out = storable(result)
    writable = True
    try:
        json.dumps([text, files, cwd], ensure_ascii=False).encode("utf-8")
        jsoncols.dumps_lenient(tool_input).encode("utf-8")
    except UnicodeEncodeError:
        writable = False
    assert (out is result) == writable
    m = out.sessions[0].messages[0]
    jsoncols.dumps_lenient(m.tool_input).encode("utf-8")  # none of these raise any more
    json.dumps([m.text, m.files, out.sessions[0].cwd, out.errors[0].path], ensure_ascii=False).encode("utf-8")
    assert m.key == "k" and m.action == "shell"
    # what was UTF-8 already is kept as it was; a lone surrogate reads as its escape
    assert m.text == text.encode("utf-8", "backslashreplace").decode("utf-8")
