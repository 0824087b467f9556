"""Status and adapter reports: library functions behind `smriti status` and `smriti adapters`."""

from __future__ import annotations

from typing import Any

from smriti import paths
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
    }


def adapter_report(app: App) -> list[dict[str, Any]]:
    rows = []
    for name in app.registry.names:
        reg = app.registry.adapters[name]
        roots = [r for r in reg.adapter.default_roots() if r.exists()]
        found = 0
        for root in roots:
            try:
                found += sum(1 for _ in reg.adapter.discover(root))
            except OSError:
                pass
        rows.append({"name": name, "origin": reg.origin, "default_roots": [str(r) for r in roots], "sessions_found": found})
    return rows
