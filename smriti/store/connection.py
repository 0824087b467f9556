"""The one apsw connection every area of the store shares, and the helpers they use."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import apsw

from smriti.errors import StoreError
from smriti.store.migrations import migrate

BUSY_TIMEOUT_MS = 10_000

# What apsw raises on a file that is no SQLite database, or on a damaged page found on a read: the
# CLI and doctor turn it into one clear message without importing apsw themselves.
DAMAGED_DB_ERRORS: tuple[type[Exception], ...] = (apsw.NotADBError, apsw.CorruptError)


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _first_sha256(data: bytes) -> Any:
    # hashlib costs the first prompt's in-process recall ~3 ms (OpenSSL), which reads no hashes:
    # imported on the first hash, which then rebinds _sha256 to hashlib's own.
    global _sha256
    from hashlib import sha256

    _sha256 = sha256
    return sha256(data)


_sha256: Callable[[bytes], Any] = _first_sha256


def text_hash(text: str) -> bytes:
    return _sha256(text.encode("utf-8", "surrogatepass")).digest()


def key_hash(agent: str, key: str) -> int:
    """A message key as a signed 64-bit integer, unique within the agent (collisions: ~n²/2⁶⁴)."""
    digest = _sha256(f"{agent}\0{key}".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def public_session_id(agent: str, native_id: str) -> str:
    """smriti's id for a session: stable on every machine for the same agent session."""
    return _sha256(f"{agent}\0{native_id}".encode()).hexdigest()[:16]


def like_escape(text: str) -> str:
    """`text` as a literal inside a LIKE pattern that uses `escape '\\'`."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def merge_list(old: list[str], new: Iterable[str]) -> list[str]:
    out = list(old)
    for item in new:
        if item not in out:
            out.append(item)
    return out


def earliest(a: str | None, b: str | None) -> str | None:
    return min(x for x in (a, b) if x) if (a or b) else None


def latest(a: str | None, b: str | None) -> str | None:
    return max(x for x in (a, b) if x) if (a or b) else None


class StoreConnection:
    """Opens (and migrates) the file; every area mixin works on its `conn`."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.conn = apsw.Connection(str(self.path))
            self.conn.set_busy_timeout(BUSY_TIMEOUT_MS)
            self.conn.transaction_mode = "IMMEDIATE"
            self.conn.pragma("journal_mode", "wal")
            self.conn.pragma("synchronous", "normal")
            self.conn.pragma("foreign_keys", True)
            # The content-addressed tables take random-order inserts; a bigger page cache than
            # SQLite's 2 MB default keeps their b-trees in memory during an ingest.
            self.conn.pragma("cache_size", -64_000)
            migrate(self.conn)
        except DAMAGED_DB_ERRORS as exc:
            raise StoreError(
                f"{self.path} is not a readable smriti database ({exc}). Move it aside and run "
                "`smriti ingest` to rebuild it from the agents' logs."
            ) from None

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction around several writes (each write's own is then a savepoint).

        Ingest groups many small sessions: a commit per session rewrites the same b-tree pages
        over and over. A crash still leaves whole sessions only: the batch commits or not at all.
        """
        with self.conn:
            yield

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _row(self, sql: str, args: Iterable[Any] = ()) -> tuple[Any, ...]:
        """The first row of a query that always yields one (a count, an insert's `returning`, a known id)."""
        row = self.conn.execute(sql, tuple(args)).fetchone()
        if row is None:
            raise StoreError(f"the store returned no row for {sql!r}")
        return row

    def _scalar(self, sql: str, args: Iterable[Any] = ()) -> Any:
        """The first column of `_row`."""
        return self._row(sql, args)[0]
