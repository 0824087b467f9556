"""JSON for the hook path, without importing the `json` package.

`import json` pulls in `re` and `enum` (a large share of Python's own start-up: benchmarks/README.md,
"Hooks"), and the prompt hook pays its imports on every prompt. The work is done by `_json`,
the C accelerator the `json` package itself uses (the same scanner and encoder, so the same
results); where it is missing or differs (another Python implementation), this falls back to
`json`. Nothing here is faster than `json` once imported; it is only cheaper to start.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `typing` imports `re`, which the hook path avoids
if TYPE_CHECKING:
    from collections.abc import Callable

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


def _json_loads(text: str) -> object:
    import json

    return json.loads(text)


def _json_dumps(obj: object) -> str:
    import json

    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


_scan: Callable[[str, int], tuple[object, int]] | None
_encode: Callable[[object, int], tuple[str, ...] | list[str]] | None
try:
    import _json

    # _Context has every attribute the scanner reads, but typeshed types the argument nominally
    # (as the scanner class itself), and a real JSONDecoder would mean importing `json`.
    _scan = _json.make_scanner(_Context())  # type: ignore[arg-type]
    _encode = _json.make_encoder(None, _unsupported, _json.encode_basestring, None, ":", ",", False, False, True)
except (ImportError, AttributeError, TypeError):
    _scan = _encode = None


def loads(text: str | bytes) -> object:
    """`json.loads` (bytes are UTF-8, lone surrogates allowed as `json` allows them). Raises
    ValueError on anything that is not one JSON value."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "surrogatepass")
    if _scan is None:
        return _json_loads(text)
    start = len(text) - len(text.lstrip(_WS))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"expecting a JSON value at character {exc.value}") from None
    except SystemError:
        # Some malformed objects (`{not json`) make the bare scanner fail without an error of its
        # own (it builds json.decoder's error class); `json` then says what is wrong.
        return _json_loads(text)
    if text[end:].strip(_WS):
        raise ValueError(f"extra data after the JSON value at character {end}")
    return value


def dumps(obj: object) -> str:
    """`json.dumps(obj, ensure_ascii=False, separators=(",", ":"))`: compact, non-ASCII kept.
    Raises TypeError for what JSON cannot hold, ValueError for a circular structure."""
    if _encode is None:
        return _json_dumps(obj)
    try:
        return "".join(_encode(obj, 0))
    except RecursionError:
        raise ValueError("circular reference") from None
