"""Status and adapter reports: library functions behind `smriti status` and `smriti adapters`."""

from __future__ import annotations

from typing import Any

from smriti import hooklog, paths
from smriti.app import App


def _size(path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def status(app: App) -> dict[str, Any]:
    stats = app.store.stats()
    db = paths.db_path(app.data_dir)
    wal = db.with_name(db.name + "-wal")
    return {
        "data_dir": str(app.data_dir),
        **stats,
        "store_bytes": _size(db) + _size(wal),
        "index_docs": app.index.num_docs(),
        "index_bytes": app.index.size_bytes(),
        "disabled": paths.disabled(),
        "hooks": hooklog.health(str(app.data_dir)),  # failures in the last day, the last one, recent runs
    }


def adapter_report(app: App) -> list[dict[str, Any]]:
    """Every adapter, where it looks, and how many sessions its sources hold right now.

    A source unchanged since the last ingest is counted from the ingest state; any other one is
    parsed (read-only) to count its sessions, so the number is true even before a first ingest.
    """
    known = app.store.all_source_states()
    rows = []
    for name in app.registry.names:
        reg = app.registry.adapters[name]
        roots = [r for r in reg.adapter.default_roots() if r.exists()]
        sources = sessions = 0
        for root in roots:
            for path in reg.adapter.discover(root):
                sources += 1
                sessions += _sessions_in(reg.adapter, path, known.get(str(path)))
        rows.append(
            {
                "name": name,
                "origin": reg.origin,
                "default_roots": [str(r) for r in roots],
                "sources_found": sources,
                "sessions_found": sessions,
            }
        )
    return rows


def _sessions_in(adapter: Any, path: Any, state: Any) -> int:
    try:
        st = path.stat()
        if state and (state.size, state.mtime_ns) == (st.st_size, st.st_mtime_ns):
            return len(state.sessions)
        return len({s.native_id for s in adapter.parse(path).sessions})
    except Exception:  # a diagnostic command reports what it can
        return 0
