"""Status and adapter reports: the data behind `smriti status`, `smriti path` and `smriti adapters`.

`status()` gathers the health report (data, per agent/project/category counts, adapter errors,
hooks, index freshness, team sharing) as a plain dict: `smriti status --json` prints it as it is,
and smriti.render turns it into tables. Nothing here renders or imports rich.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from smriti import paths
from smriti.app import App
from smriti.errors import SmritiError
from smriti.hooks import log as hooklog


def _size(path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# The health report: JSON-ready (str, int, bool, None, lists and dicts of them), printed unchanged
# by `smriti status --json`; its keys are a contract for scripts, so keys are added, never renamed.
StatusReport = dict[str, Any]


def status(app: App, cwd: Path | None = None) -> StatusReport:
    """The health report. Read-only: an index that needs a rebuild is reported, not rebuilt."""
    store = app.store
    stats = store.stats()
    db = paths.db_path(app.data_dir)
    wal = db.with_name(db.name + "-wal")
    expected = store.expected_index_docs()
    problem = index_problem(app.data_dir) if expected else None  # nothing to index: opening is harmless
    if problem is None:
        index_docs, index_bytes = app.index.num_docs(), app.index.size_bytes()
    else:
        index_docs, index_bytes = 0, _tree_bytes(paths.index_dir(app.data_dir))
    repo = repo_around(cwd)
    errors = store.source_errors()
    knowledge = store.knowledge_counts()
    return {
        "data_dir": str(app.data_dir),
        **stats,
        "store_bytes": _size(db) + _size(wal),
        "index_docs": index_docs,
        "index_bytes": index_bytes,
        "disabled": paths.disabled(),
        "hooks": hooklog.health(str(app.data_dir)),  # failures in the last day, the last one, recent runs
        # ---- added with the rich report (issue #8); every key above keeps its meaning ----
        "paths": {
            "store": str(db),
            "index": str(paths.index_dir(app.data_dir)),
            "config": str(paths.config_path(app.data_dir)),
            "logs": hooklog.logs_dir(str(app.data_dir)),
        },
        "data_dir_bytes": _tree_bytes(app.data_dir),
        "index": {
            "documents": index_docs,
            "expected": expected,
            "pending": stats["pending_index"],
            "fresh": problem is None and stats["pending_index"] == 0 and index_docs >= expected,
            "problem": problem,
        },
        "by_agent": _by_agent(stats["agents"], store.ingest_by_agent(), errors),
        "by_project": store.project_counts(),
        "by_category": (cats := store.category_counts()),
        "by_top_category": _tops(cats),
        "knowledge_by_category": _sum_by(knowledge, "category"),
        "knowledge_by_status": _sum_by(knowledge, "status"),
        "knowledge_by_origin": _sum_by(knowledge, "origin"),
        "knowledge_by_repo": _sum_by(knowledge, "repo"),
        "knowledge_by_agent": _sum_by(knowledge, "agent"),
        "adapter_errors": errors,
        "last_injection": last_injection(app.data_dir),
        "hook_installs": hook_installations(repo),
        "pending_shares": pending_shares(store, repo),
        "syncs": store.sync_states(),
    }


def locations(data_dir: Path, cwd: Path | None = None) -> dict[str, str | None]:
    """Every file and folder smriti reads or writes on this machine (and the current repo's
    `.smriti/`, when there is one). None: not applicable here."""
    from smriti.hooks import protocol
    from smriti.hooks import server as hookserver

    repo = repo_around(cwd)
    logs = hooklog.logs_dir(str(data_dir))
    return {
        "data_dir": str(data_dir),
        "store": str(paths.db_path(data_dir)),
        "index": str(paths.index_dir(data_dir)),
        "config": str(paths.config_path(data_dir)),
        "hook_failures_log": os.path.join(logs, hooklog.FAILURE_LOG),
        "injection_log": os.path.join(logs, hooklog.INJECTION_LOG),
        "hook_state": protocol.hooks_dir(str(data_dir)),
        "recall_server_socket": hookserver.socket_path(str(data_dir)),
        "repo_knowledge": str(repo / ".smriti") if repo and (repo / ".smriti").is_dir() else None,
    }


def _by_agent(
    sessions: dict[str, dict[str, Any]], ingest: dict[str, dict[str, Any]], errors: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for agent in sorted({*sessions, *ingest, *(e["agent"] for e in errors)}):
        mine = [e for e in errors if e["agent"] == agent]  # newest first
        out[agent] = {
            "sessions": sessions.get(agent, {}).get("sessions", 0),
            "messages": sessions.get(agent, {}).get("messages", 0) or 0,
            "sources": ingest.get(agent, {}).get("sources", 0),
            "last_ingest": ingest.get(agent, {}).get("last_ingest"),
            "sources_with_errors": len(mine),
            "errors": sum(e["errors"] for e in mine),
            "last_error": mine[0] if mine else None,
        }
    return out


def _tops(categories: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for cat, n in categories.items():
        top = cat.split("/", 1)[0]
        out[top] = out.get(top, 0) + n
    return dict(sorted(out.items()))


def _sum_by(rows: list[dict[str, Any]], key: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rows:
        out[r[key]] = out.get(r[key], 0) + r["items"]
    return dict(sorted(out.items()))


def _tree_bytes(root: Path) -> int:
    """Bytes of every file under a folder (symlinks not followed)."""
    total = 0
    stack = [str(root)]
    while stack:
        try:
            with os.scandir(stack.pop()) as it:
                for entry in it:
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                        else:
                            total += entry.stat(follow_symlinks=False).st_size
                    except OSError:
                        continue
        except OSError:
            continue
    return total


def index_problem(data_dir: Path) -> str | None:
    """Why the index cannot be used as it is (None: it can), without opening it.

    Opening an index that lacks its version marker starts a new empty one and writes the marker,
    so whoever opens it must rebuild it; a report that only looks must not open it.
    """
    from smriti.index import SCHEMA_VERSION, VERSION_FILE

    folder = paths.index_dir(data_dir)
    if not folder.is_dir():
        return "the index folder is missing"
    try:
        meta = json.loads((folder / VERSION_FILE).read_text())
        version = meta.get("schema_version")
    except (OSError, ValueError, AttributeError):
        return "the index has no readable version marker (deleted or damaged)"
    if version != SCHEMA_VERSION:
        return f"the index has schema version {version}; this smriti needs {SCHEMA_VERSION}"
    if not (folder / "meta.json").exists():
        return "the index's files are missing"
    if meta.get("built") is False:
        return "the index was started over and has not been rebuilt yet"
    return None


def repo_around(cwd: Path | None = None) -> Path | None:
    """The git work tree around the current directory, or None (no git call outside a repo)."""
    from smriti import project as projects
    from smriti.team.git import repo_root

    here = Path(cwd or Path.cwd())
    found = projects.resolve(str(here))
    if found is None or found.root is None:
        return None
    try:
        return repo_root(here)
    except SmritiError:
        return None


def last_injection(data_dir: Path) -> dict[str, Any] | None:
    """The newest line of the hooks' injection log (read from its end: the log may be megabytes)."""
    path = os.path.join(hooklog.logs_dir(str(data_dir)), hooklog.INJECTION_LOG)
    for candidate in (path, path + ".1"):
        try:
            with open(candidate, "rb") as fh:
                fh.seek(0, os.SEEK_END)
                fh.seek(max(0, fh.tell() - 64 * 1024))
                lines = fh.read().splitlines()
        except OSError:
            continue
        for line in reversed(lines):
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a torn line, or the cut at the start of the tail
            if isinstance(rec, dict):
                keep = ("time", "agent", "event", "session", "chars", "tokens", "items")
                return {k: rec.get(k) for k in keep}
    return None


def hook_installations(repo: Path | None) -> list[dict[str, Any]]:
    """Every place smriti's agent hooks are installed: user scope, and the repo's own files.

    A settings file that no longer parses counts when its text still names `smriti hook`.
    """
    from smriti.hooks.install import is_ours
    from smriti.hooks.install import status as hook_status
    from smriti.hooks.protocol import AGENTS

    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for scope, root in [("user", None), *([("project", repo)] if repo else [])]:
        for agent in AGENTS:
            try:
                st = hook_status(agent, scope, root)
            except (SmritiError, OSError):
                continue
            if st["path"] in seen:
                continue
            broken = bool(st["problem"]) and is_ours(_read_text(Path(st["path"])))
            if not st["installed"] and not broken:
                continue
            seen.add(st["path"])
            out.append(
                {
                    k: st[k]
                    for k in (
                        "agent",
                        "scope",
                        "path",
                        "installed",
                        "missing",
                        "complete",
                        "commands",
                        "command_ok",
                        "problem",
                    )
                }
            )
    return out


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def pending_shares(store: Any, repo: Path | None) -> dict[str, Any] | None:
    """Knowledge files in the current repo's `.smriti/knowledge/` that are not committed yet:
    new (untracked or only staged) or modified, i.e. written by `smriti share` (or edited) and
    waiting for a commit and review. None outside a git repo with a `.smriti/` folder."""
    from smriti.team.git import KNOWLEDGE_DIR
    from smriti.team.sync import repo_key

    if repo is None or not (repo / ".smriti").is_dir():
        return None
    try:
        proc = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", KNOWLEDGE_DIR],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    files: list[dict[str, str]] = []
    records = proc.stdout.split(b"\0")
    i = 0
    while i < len(records):
        rec = records[i].decode("utf-8", "replace")
        i += 1
        if len(rec) < 4:
            continue
        xy, path = rec[:2], rec[3:]
        if "R" in xy or "C" in xy:
            i += 1  # the original path follows a rename or copy
        if not path.endswith(".md"):
            continue
        if xy == "??" or "A" in xy:
            state = "new"
        elif "D" in xy:
            state = "deleted"
        else:
            state = "modified"  # edited, or moved by a reviewer
        files.append({"path": path, "state": state})
    shared = store.shared_paths(repo_key(repo))
    pending = [f for f in files if f["state"] != "deleted"]
    return {
        "repo": str(repo),
        "count": len(pending),
        "new": sum(f["state"] == "new" for f in files),
        "modified": sum(f["state"] == "modified" for f in files),
        "deleted": sum(f["state"] == "deleted" for f in files),
        "by_share": sum(f["path"] in shared for f in pending),
        "files": files,
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
        # Every place the agent's logs would be read from, found here or not: the answer to "where
        # does smriti look for X?" must not be an empty list on a machine without X.
        candidates = getattr(reg.adapter, "candidate_roots", reg.adapter.default_roots)()
        configured = [Path(r).expanduser() for r in app.config.roots.get(name, ())]
        looked = list(dict.fromkeys([*candidates, *reg.adapter.default_roots(), *configured]))
        roots = [r for r in looked if r.exists()]
        sources = sessions = 0
        for root in roots:
            for path in reg.adapter.discover(root):
                sources += 1
                sessions += _sessions_in(reg.adapter, path, known.get(str(path)))
        rows.append(
            {
                "name": name,
                "origin": reg.origin,
                "default_roots": [str(r) for r in looked],  # where it looks (config.toml [roots] included)
                "existing_roots": [str(r) for r in roots],  # which of those are on this machine
                "project_files": list(getattr(reg.adapter, "project_files", ())),
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
