"""The store: smriti's single source of truth on a machine, and the only package with SQL.

The contract every module here keeps:
- apsw over one SQLite file in WAL mode, with a busy timeout.
- Writes run in IMMEDIATE transactions (apsw's `with conn:` otherwise begins DEFERRED, and a
  read-then-write then fails with BusyError at once, ignoring the busy timeout).
- Message bodies are content-addressed: stored once in `blobs`, keyed by the sha256 of the text.
- Every write that changes what search sees also records the change in the `outbox` table in the
  same transaction; the index drains it (see index.py).
- The schema changes only by appending a migration to migrations.py; a shipped one is never edited.
- Readers return typed rows (rows.py: named tuples, read by field name), not bare tuples.

One module per area (sessions, tags, labels, digests, relations, knowledge, sharing, sources, outbox,
maintenance, stats), each a mixin over the one connection that connection.py opens, and `Store`
composes them. Mixins, not one object per area: every `store.method()` call site stays as it was,
and a `with store.batch():` still wraps the writes of every area in one transaction on one
connection (separate objects would each need the connection, and callers would need to know
which area owns which method).
"""

from __future__ import annotations

from smriti.store.connection import (
    BUSY_ERRORS,
    BUSY_TIMEOUT_MS,
    DAMAGED_DB_ERRORS,
    FULL_ERRORS,
    IO_ERRORS,
    READ_ONLY_ERRORS,
    StoreConnection,
    key_hash,
    public_session_id,
    text_hash,
    utc_now,
)
from smriti.store.digests import DigestsMixin
from smriti.store.knowledge import KnowledgeMixin
from smriti.store.labels import LabelsMixin
from smriti.store.maintenance import MaintenanceMixin
from smriti.store.outbox import OutboxMixin
from smriti.store.relations import RelationsMixin
from smriti.store.rows import (
    IndexDoc,
    KnowledgeRow,
    MessageDocRow,
    MessageRow,
    SessionRow,
    SourceFingerprint,
    SourceState,
    WriteResult,
)
from smriti.store.sessions import SessionsMixin
from smriti.store.sharing import SharingMixin
from smriti.store.sources import SourcesMixin
from smriti.store.stats import StatsMixin
from smriti.store.tags import TagsMixin

__all__ = [
    "BUSY_ERRORS",
    "BUSY_TIMEOUT_MS",
    "DAMAGED_DB_ERRORS",
    "FULL_ERRORS",
    "IO_ERRORS",
    "READ_ONLY_ERRORS",
    "IndexDoc",
    "KnowledgeRow",
    "MessageDocRow",
    "MessageRow",
    "SessionRow",
    "SourceFingerprint",
    "SourceState",
    "Store",
    "WriteResult",
    "key_hash",
    "public_session_id",
    "text_hash",
    "utc_now",
]


# A mixin that builds on another area's readers subclasses it (relations read sessions; maintenance
# and stats read the outbox's and knowledge's counts), so it is listed before that area here, in the
# order its own bases name them: Python's method order needs every subclass ahead of its bases.
class Store(
    RelationsMixin,
    MaintenanceMixin,
    StatsMixin,
    SessionsMixin,
    TagsMixin,
    LabelsMixin,
    DigestsMixin,
    OutboxMixin,
    KnowledgeMixin,
    SharingMixin,
    SourcesMixin,
    StoreConnection,
):
    """The store of one SQLite file: open it with `Store(path)` (which migrates it), close it or use it in `with`."""
