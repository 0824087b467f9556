"""`json.loads` / `json.dumps` for the store's JSON columns, without importing `json` up front.

`import json` imports `re` (and with it `enum`): ~8 ms of every `smriti search` process, which
reads a few JSON columns and writes none. Reading goes through `smriti.hooks.leanjson.loads` (the
same C scanner `json.loads` uses, so the same values); writing imports `json` on the first write
and then calls `json.dumps` itself, so what the store writes does not change by a byte. Each store
module imports this as `json`, so its call sites read as they always did.
"""

from __future__ import annotations

from smriti.hooks import leanjson

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["dumps", "dumps_lenient", "loads"]

loads: Callable[[str | bytes], Any] = leanjson.loads


def _first_dumps(obj: Any, **kwargs: Any) -> str:
    # The first write imports `json`; `dumps` is then json's own (no call in between).
    global dumps
    import json

    dumps = json.dumps
    return json.dumps(obj, **kwargs)


dumps: Callable[..., str] = _first_dumps


def _first_dumps_lenient(obj: Any) -> str:
    global dumps_lenient
    import json

    dumps_lenient = json.JSONEncoder(default=str, ensure_ascii=False).encode
    return dumps_lenient(obj)


# `json.dumps(obj, default=str, ensure_ascii=False)`, for a tool's input (whatever an adapter found;
# what JSON cannot hold is written as its text), from one encoder made on the first call:
# `json.dumps` with options builds a new encoder every call, and ingest writes one per tool call.
dumps_lenient: Callable[[Any], str] = _first_dumps_lenient
