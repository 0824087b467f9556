"""Forget, prune and doctor: remove what must go, and check (and repair) what smriti holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from smriti.errors import InvalidInput
from smriti.index import Index
from smriti.store import Store


def forget(store: Store, index: Index, *, session: str | None = None, project_keys: tuple[str, ...] | None = None,
           agent: str | None = None) -> dict[str, Any]:  # fmt: skip
    """Remove sessions (messages, tags, digests, index documents, unreferenced bodies) and leave a
    tombstone, so a later ingest never brings them back."""
    if not (session or project_keys is not None or agent):
        raise InvalidInput("name what to forget: a SESSION_ID, --project or --agent")
    if session:
        row = store.get_session(session)
        targets = [(row.rowid, row.agent, row.native_id)]
    else:
        targets = store.session_keys(project_keys=project_keys, agent=agent)
    removed = []
    for _, agent_id, native in targets:
        if store.delete_session(agent_id, native, reason="forget"):
            removed.append({"agent": agent_id, "native_id": native})
    blobs = store.drop_orphan_blobs()
    index.sync(store)
    return {"removed": removed, "sessions": len(removed), "blobs_dropped": blobs}


def prune(store: Store, index: Index, *, older_than_days: int, kind: str | None = None,
          now: datetime | None = None) -> dict[str, Any]:  # fmt: skip
    """Retention: drop sessions (or only their tool output, kind="tool-output") older than N days."""
    if older_than_days < 0:
        raise InvalidInput("--older-than must be 0 or more days")
    cutoff = ((now or datetime.now(UTC)) - timedelta(days=older_than_days)).strftime("%Y-%m-%dT%H:%M:%SZ")
    if kind == "tool-output":
        n = store.drop_messages(kind="tool_result", older_than=cutoff)
        out: dict[str, Any] = {"cutoff": cutoff, "messages_removed": n, "sessions_removed": 0}
    elif kind is None:
        targets = store.session_keys(older_than=cutoff)
        n = sum(store.delete_session(a, nid, reason="prune") for _, a, nid in targets)
        out = {"cutoff": cutoff, "sessions_removed": n, "messages_removed": None}
    else:
        raise InvalidInput(f"unknown --kind {kind!r}; supported: tool-output")
    out["blobs_dropped"] = store.drop_orphan_blobs()
    index.sync(store)
    return out


@dataclass
class DoctorReport:
    checks: list[dict[str, Any]] = field(default_factory=list)
    repaired: list[str] = field(default_factory=list)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append({"check": name, "ok": ok, "detail": detail})

    @property
    def problems(self) -> list[dict[str, Any]]:
        return [c for c in self.checks if not c["ok"]]

    def to_json(self) -> dict[str, Any]:
        return {"checks": self.checks, "problems": len(self.problems), "repaired": self.repaired}


def doctor(store: Store, index: Index, *, repair: bool = False) -> DoctorReport:
    report = DoctorReport()
    integrity = store.integrity()
    report.add("store integrity", integrity == ["ok"], "ok" if integrity == ["ok"] else "; ".join(integrity[:5]))

    pending = store.outbox_size()
    report.add("index pending changes", pending == 0, f"{pending} change(s) not yet indexed")
    if pending and repair:
        index.sync(store)
        report.repaired.append(f"indexed {pending} pending change(s)")

    expected, actual = store.expected_index_docs(), index.num_docs()
    # Long messages are indexed in several chunks, so the index may hold more documents.
    index_ok = actual >= expected and not index.needs_rebuild
    report.add("index matches store", index_ok, f"{actual} documents for {expected} indexable items")
    if not index_ok and repair:
        n = index.rebuild(store)
        report.repaired.append(f"rebuilt the index ({n} messages)")

    orphans = store.orphan_blobs()
    report.add("orphaned message bodies", orphans == 0, f"{orphans} bod(ies) no message uses")
    if orphans and repair:
        report.repaired.append(f"dropped {store.drop_orphan_blobs()} orphaned bodies")

    missing = [p for p in store.source_paths() if not Path(p).exists()]
    report.add("ingest state matches files", not missing,
               f"{len(missing)} source file(s) no longer on disk (their sessions stay stored)")  # fmt: skip
    if missing and repair:
        report.repaired.append(f"forgot the read position of {store.drop_sources(missing)} vanished file(s)")

    if repair:
        store.vacuum()
        report.repaired.append("vacuumed the store")
    return report
