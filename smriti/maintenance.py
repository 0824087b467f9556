"""Forget, prune and doctor: remove what must go, and check (and repair) what smriti holds."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from smriti.errors import InvalidInput, StoreError
from smriti.index import Index
from smriti.store import DAMAGED_DB_ERRORS, Store

if TYPE_CHECKING:
    from smriti.app import App


def forget(
    store: Store,
    index: Index,
    *,
    session: str | None = None,
    project_keys: tuple[str, ...] | None = None,
    agent: str | None = None,
) -> dict[str, Any]:
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


def prune(
    store: Store, index: Index, *, older_than_days: int, kind: str | None = None, now: datetime | None = None
) -> dict[str, Any]:
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
    advice: list[str] = field(default_factory=list)  # problems --repair leaves to the user, and how to fix them

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append({"check": name, "ok": ok, "detail": detail})

    def fix(self, what: str) -> None:
        """The last check's problem was repaired: it passes now, and the repair is listed."""
        self.checks[-1].update(ok=True, repaired=True)
        self.repaired.append(what)

    @property
    def problems(self) -> list[dict[str, Any]]:
        return [c for c in self.checks if not c["ok"]]

    def to_json(self) -> dict[str, Any]:
        return {"checks": self.checks, "problems": len(self.problems), "repaired": self.repaired, "advice": self.advice}


def doctor(
    store: Store, index: Index | None, *, repair: bool = False, index_problem: str | None = None
) -> DoctorReport:
    """Check the store, the index against it, orphans and ingest state; repair what can be.

    `index` is None when it is unusable (`index_problem` says why) and not being repaired: a
    check must not open it, since opening starts a new empty one (see status.index_problem).
    """
    report = DoctorReport()
    integrity = store.integrity()
    report.add("store integrity", integrity == ["ok"], "ok" if integrity == ["ok"] else "; ".join(integrity[:5]))

    pending = store.outbox_size()
    report.add("index pending changes", pending == 0, f"{pending} change(s) not yet indexed")
    if pending and repair and index is not None:
        index.sync(store)
        report.fix(f"indexed {pending} pending change(s)")

    expected = store.expected_index_docs()
    if index is None or index_problem:
        why = index_problem or "the index is not open"
        report.add("index matches store", False, f"{why}: 0 usable documents for {expected} indexable items")
        if repair and index is not None:
            # Opening it (App.index) rebuilt it from the store already; rebuild only if it did not.
            if index.needs_rebuild or index.num_docs() < expected:
                index.rebuild(store)
            report.fix(f"rebuilt the index from the store ({index.num_docs()} documents)")
    else:
        actual = index.num_docs()
        # Long messages are indexed in several chunks, so the index may hold more documents.
        index_ok = actual >= expected and not index.needs_rebuild
        report.add("index matches store", index_ok, f"{actual} documents for {expected} indexable items")
        if not index_ok and repair:
            n = index.rebuild(store)
            report.fix(f"rebuilt the index ({n} messages)")

    orphans = store.orphan_blobs()
    report.add(
        "orphaned message bodies", orphans == 0, f"{orphans} stored text{'' if orphans == 1 else 's'} no message uses"
    )
    if orphans and repair:
        report.fix(f"dropped {store.drop_orphan_blobs()} orphaned bodies")

    missing = [p for p in store.source_paths() if not Path(p).exists()]
    report.add(
        "ingest state matches files",
        not missing,
        f"{len(missing)} source file(s) no longer on disk (their sessions stay stored)",
    )
    stale_errors = [p for p in store.source_error_paths() if not Path(p).exists()]
    if missing and repair:
        report.fix(f"forgot the read position of {store.drop_sources(missing)} vanished file(s)")
    if stale_errors and repair:
        report.repaired.append(
            f"forgot the adapter errors of {store.drop_source_errors(stale_errors)} vanished file(s)"
        )

    if repair:
        store.vacuum()
        report.repaired.append("vacuumed the store")
    return report


def doctor_all(app: App, *, repair: bool = False, cwd: Path | None = None) -> DoctorReport:
    """Everything `smriti doctor` checks: the store (set aside when unreadable and repairing),
    the index (opened only when it is sound or being repaired), and the agents' hook installations."""
    from smriti import paths
    from smriti.status import hook_installations, index_problem, repo_around

    unreadable: tuple[type[Exception], ...] = (StoreError, *DAMAGED_DB_ERRORS)
    try:
        store = app.store  # StoreError: the file is no SQLite database at all
        problem = index_problem(app.data_dir) if store.expected_index_docs() else None
        report = doctor(store, app.index if problem is None or repair else None, repair=repair, index_problem=problem)
    except unreadable as exc:  # damage past the header shows on read
        report = DoctorReport()
        db = paths.db_path(app.data_dir)
        detail = (
            str(exc)
            if isinstance(exc, StoreError)
            else (
                f"{db} is damaged ({exc}). Move it aside and run `smriti ingest` to rebuild it from the agents' logs."
            )
        )
        report.add("store readable", False, detail)
        if repair:
            app.close()
            app.__dict__.pop("store", None)
            moved = set_store_aside(db)
            # The index points at the old store's rows: a new store reuses those ids, so it goes too
            # (derived state: the next command rebuilds it from the new store).
            shutil.rmtree(paths.index_dir(app.data_dir), ignore_errors=True)
            report.fix(
                f"moved the unreadable store to {moved} and cleared the index; run `smriti ingest` and "
                "`smriti sync` to rebuild"
            )
    check_hook_installations(report, hook_installations(repo_around(cwd)), repair=repair)
    return report


def check_hook_installations(report: DoctorReport, installs: list[dict[str, Any]], *, repair: bool = False) -> None:
    """One check per place smriti's hooks are installed: the settings file still parses and the
    command it runs still exists. Agent settings are never rewritten by --repair."""
    if not installs:
        report.add(
            "hook installations", True, "no agent has smriti's hooks (`smriti hooks install --agent A` adds them)"
        )
        return
    for h in installs:
        name = f"hooks: {h['agent']} ({h['scope']} scope)"
        fix = f"smriti hooks install --agent {h['agent']}" + (" --scope project" if h["scope"] == "project" else "")
        if h["problem"]:
            ok, detail = (
                False,
                (f"{h['path']} is {h['problem']}: the agent cannot run smriti's hooks; fix the file, then run `{fix}`"),
            )
        elif h["command_ok"] is False:
            ok, detail = (
                False,
                (
                    f"{h['path']} runs {', '.join(h['commands'])}, which no longer exists or is not "
                    f"executable: run `{fix}`"
                ),
            )
        else:
            ok = True
            detail = f"{h['path']}: {len(h['installed'])} event(s) run {', '.join(h['commands']) or 'smriti'}"
            if h["missing"]:
                detail += f" (not installed for {', '.join(h['missing'])})"
        report.add(name, ok, detail)
        if not ok and repair:
            report.advice.append(f"{name}: smriti does not rewrite agent settings on its own; run `{fix}`")


def set_store_aside(db: Path) -> str:
    """Rename an unreadable store (and its WAL files) to `<name>.broken-<time>`; returns the new path."""
    import time

    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = db.with_name(f"{db.name}.broken-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = db.with_name(db.name + suffix)
        if part.exists():
            part.rename(target.with_name(target.name + suffix))
    return str(target)
