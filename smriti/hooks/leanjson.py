"""JSON for the hook path, without importing the `json` package.

`import json` pulls in `re` and `enum` (about 7 ms on a 2-core machine, half of Python's own
start-up), and the prompt hook pays its imports on every prompt. The work is done by `_json`,
the C accelerator the `json` package itself uses (the same scanner and encoder, so the same
results); where it is missing or differs (another Python implementation), this falls back to
`json`. Nothing here is faster than `json` once imported; it is only cheaper to start.
"""

from __future__ import annotations

_WS = " \t\n\r"  # JSON's whitespace


class _Context:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder` (its defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: dict = {}

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


def _unsupported(obj: object) -> object:
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _fallback() -> tuple[object, object]:
    import json

    return json.loads, lambda obj: json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


try:
    import _json

    _scan = _json.make_scanner(_Context())
    _encode = _json.make_encoder(None, _unsupported, _json.encode_basestring, None, ":", ",", False, False, True)
    _loads_fallback = _dumps_fallback = None
except (ImportError, AttributeError, TypeError):
    _scan = _encode = None
    _loads_fallback, _dumps_fallback = _fallback()


def loads(text: str | bytes) -> object:
    """`json.loads` (bytes are UTF-8, lone surrogates allowed as `json` allows them). Raises
    ValueError on anything that is not one JSON value."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "surrogatepass")
    if _scan is None:
        return _loads_fallback(text)
    start = len(text) - len(text.lstrip(_WS))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"expecting a JSON value at character {exc.value}") from None
    if text[end:].strip(_WS):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


def dumps(obj: object) -> str:
    """`json.dumps(obj, ensure_ascii=False, separators=(",", ":"))`: compact, non-ASCII kept.
    Raises TypeError for what JSON cannot hold, ValueError for a circular structure."""
    if _encode is None:
        return _dumps_fallback(obj)
    try:
        return "".join(_encode(obj, 0))
    except RecursionError:
        raise ValueError("circular reference") from None
