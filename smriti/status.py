"""Status and adapter reports: library functions behind `smriti status` and `smriti adapters`.

`status()` gathers the health report (data, per agent/project/category counts, adapter errors,
hooks, index freshness, team sharing) and `print_status()` renders it with rich tables. rich is
imported only inside the renderers: never on the `smriti hook` path.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
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


def status(app: App, cwd: Path | None = None) -> dict[str, Any]:
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
    from smriti.hooks.install import SPECS, is_ours
    from smriti.hooks.install import status as hook_status

    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for scope, root in [("user", None), *([("project", repo)] if repo else [])]:
        for agent in SPECS:
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


# ---- rendering (rich, imported here only) -------------------------------------------------------

TOP_PROJECTS = 10


def _console() -> Any:
    from rich.console import Console

    # rich writes escape codes only to a terminal and honours NO_COLOR and TERM=dumb; piped
    # output is plain text, wide (one row a line, for grep) unless COLUMNS says otherwise.
    # Nothing is cut off: long values wrap instead of ending in "…".
    wide = not sys.stdout.isatty() and not os.environ.get("COLUMNS")
    return Console(file=sys.stdout, highlight=False, emoji=False, width=200 if wide else None)


def human_bytes(n: int | None) -> str:
    size = float(n or 0)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TB"


def ago(ts: str | None, now: float | None = None) -> str:
    """'3 h ago' within a week, else the date ('2026-11-02'); 'never' for none (JSON has the time)."""
    if not ts:
        return "never"
    import calendar

    try:
        then = calendar.timegm(time.strptime(ts[:19], "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return ts
    secs = max(0, (time.time() if now is None else now) - then)
    if secs >= 7 * 86400:
        return ts[:10]
    for unit, span in (("d", 86400), ("h", 3600), ("min", 60)):
        if secs >= span:
            return f"{int(secs // span)} {unit} ago"
    return "just now"


def _table(title: str, *columns: str) -> Any:
    """A table; two columns named "what" and "value" make a headerless key/value list."""
    from rich import box
    from rich.table import Table

    # Piped: an ASCII rule under the header, so the text is plain in any viewer.
    rule = box.SIMPLE_HEAD if sys.stdout.isatty() else box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n")
    table = Table(
        title=title,
        title_justify="left",
        title_style="bold",
        box=rule,
        show_edge=False,
        pad_edge=False,
        show_header=columns != ("what", "value"),
    )
    for i, col in enumerate(columns):
        numeric = col.startswith("#")
        table.add_column(
            col.lstrip("#"), justify="right" if numeric else "left", overflow="fold", no_wrap=numeric and i > 0
        )
    return table


def status_tables(data: dict[str, Any]) -> list[Any]:
    """The report as rich tables: overview, agents, adapter errors, projects, categories,
    knowledge and sharing, hooks, index. Every value from the data is escaped (paths and error
    messages hold brackets that rich would read as markup)."""
    from rich.console import Group
    from rich.markup import escape as e

    out = []
    idx = data["index"]
    overview = _table("Overview", "what", "value")
    overview.add_row("data dir", f"{e(data['data_dir'])} ({human_bytes(data['data_dir_bytes'])})")
    overview.add_row(
        "store",
        f"{data['sessions']} sessions, {data['messages']} messages, {data['projects']} projects "
        f"({human_bytes(data['store_bytes'])})",
    )
    overview.add_row("knowledge", f"{data['knowledge']} items")
    overview.add_row("sources", f"{data['sources']} files read, last ingest {ago(data['last_ingest'])}")
    overview.add_row("index", "fresh" if idx["fresh"] else "[red]needs attention[/] (see Index below)")
    if data["disabled"]:
        overview.add_row("disabled", "[yellow]SMRITI_DISABLE is set: nothing is recorded or recalled[/]")
    out.append(overview)

    agents = _table("Agents", "agent", "#sessions", "#messages", "#sources", "last ingest", "errors")
    for name, a in data["by_agent"].items():
        errs = (
            f"[red]{a['sources_with_errors']} source(s), {a['errors']} problem(s)[/]"
            if a["sources_with_errors"]
            else "-"
        )
        agents.add_row(e(name), str(a["sessions"]), str(a["messages"]), str(a["sources"]), ago(a["last_ingest"]), errs)
    if not data["by_agent"]:
        agents.add_row("(none yet)", "0", "0", "0", "never", "-")
    out.append(agents)

    if data["adapter_errors"]:
        shown = data["adapter_errors"][:5]
        more = len(data["adapter_errors"]) - len(shown)
        errors = _table("Adapter errors (last read of each source)", "agent", "source", "#problems", "first problem")
        for err in shown:
            errors.add_row(e(err["agent"]), e(err["path"]), str(err["errors"]), e(err["error"]))
        out.append(Group(errors, f"and {more} more source(s) (`smriti status --json` lists all)") if more else errors)

    projects = data["by_project"]
    more = len(projects) - TOP_PROJECTS
    ptable = _table(
        "Projects" + (f" (top {TOP_PROJECTS} of {len(projects)})" if more > 0 else ""),
        "project",
        "#sessions",
        "#messages",
        "last activity",
    )
    for p in projects[:TOP_PROJECTS]:
        ptable.add_row(
            e(p["project"] or "(no project)"), str(p["sessions"]), str(p["messages"]), ago(p["last_activity"])
        )
    out.append(Group(ptable, f"and {more} more project(s) (`smriti status --json` lists all)") if more > 0 else ptable)

    cats = _table("Categories", "category (primary)", "#sessions")
    for top, n in data["by_top_category"].items():
        cats.add_row(e(top), str(n))
        for full, m in data["by_category"].items():
            if full.startswith(top + "/"):
                cats.add_row(f"  {e(full)}", str(m))
    out.append(cats)

    know = _table("Knowledge and sharing", "what", "value")
    know.add_row(
        "items",
        f"{data['knowledge']} ("
        + (", ".join(f"{n} {e(s)}" for s, n in data["knowledge_by_status"].items()) or "none")
        + ")",
    )
    if data["knowledge_by_category"]:
        know.add_row("by category", ", ".join(f"{e(c)} {n}" for c, n in data["knowledge_by_category"].items()))
    if data["knowledge_by_origin"]:
        know.add_row("by origin", ", ".join(f"{e(o)} {n}" for o, n in data["knowledge_by_origin"].items()))
    if data["knowledge_by_repo"]:
        know.add_row("by repo", ", ".join(f"{e(r)} {n}" for r, n in data["knowledge_by_repo"].items()))
    if data["knowledge_by_agent"]:
        know.add_row("by agent", ", ".join(f"{e(a)} {n}" for a, n in data["knowledge_by_agent"].items()))
    for s in data["syncs"]:
        know.add_row("last sync", e(f"{s['repo']}: {s['ref']} {(s['commit'] or '')[:10]} {ago(s['synced_at'])}"))
    if not data["syncs"]:
        know.add_row("last sync", "never")
    ps = data["pending_shares"]
    if ps is None:
        know.add_row("pending shares", "- (not in a git repo with a .smriti/ folder)")
    else:
        know.add_row(
            "pending shares",
            f"{ps['count']} knowledge file(s) not committed in {e(ps['repo'])} "
            f"({ps['new']} new, {ps['modified']} modified; {ps['by_share']} written by share)"
            + (f"; {ps['deleted']} deleted" if ps["deleted"] else ""),
        )
    out.append(know)

    hooks = data["hooks"]
    htable = _table("Hooks", "what", "value")
    for h in data["hook_installs"]:
        state = "installed" if h["complete"] else f"partly installed (missing {e(', '.join(h['missing']))})"
        if h["problem"]:
            state = f"[red]{e(h['problem'])}[/]"
        elif h["command_ok"] is False:
            state = "[red]command missing: run `smriti doctor`[/]"
        htable.add_row(f"{e(h['agent'])} ({h['scope']})", f"{state}: {e(h['path'])}")
    if not data["hook_installs"]:
        htable.add_row("installed", "none (`smriti hooks install --agent A`)")
    htable.add_row(
        "last 24 h",
        f"{hooks['runs_24h']} recall(s), "
        + (f"[red]{hooks['failures_24h']} failure(s)[/]" if hooks["failures_24h"] else "0 failures"),
    )
    last = hooks.get("last_failure")
    if last:
        htable.add_row(
            "last failure",
            e(
                f"{ago(last.get('time'))} {last.get('agent')} {last.get('event')}: "
                f"{last.get('error')} (log: {hooks['log']})"
            ),
        )
    inj = data["last_injection"]
    htable.add_row(
        "last injection",
        "never"
        if not inj
        else e(
            f"{ago(inj['time'])} {inj['agent']} {inj['event']}, {inj['chars'] or 0} chars, "
            f"{len(inj['items'] or [])} item(s)"
        ),
    )
    out.append(htable)

    itable = _table("Index", "what", "value")
    itable.add_row(
        "documents", f"{idx['documents']} for {idx['expected']} indexable items ({human_bytes(data['index_bytes'])})"
    )
    itable.add_row("pending", str(idx["pending"]))
    if idx["problem"]:
        state = f"[red]{e(idx['problem'])}[/]: `smriti doctor --repair` (or `smriti index rebuild`)"
    elif idx["fresh"]:
        state = "fresh"
    elif idx["documents"] < idx["expected"]:
        state = "[red]fewer documents than the store holds[/]: `smriti doctor --repair`"
    else:
        state = f"[yellow]{idx['pending']} change(s) not indexed yet[/] (the next ingest or `smriti doctor --repair`)"
    itable.add_row("state", state)
    out.append(itable)
    return out


def _emit(console: Any, renderables: list[Any]) -> None:
    """To a terminal as rich renders it; elsewhere plain text without the cells' trailing padding."""
    if console.is_terminal:
        for r in renderables:
            console.print(r)
        return
    with console.capture() as capture:
        for r in renderables:
            console.print(r)
    sys.stdout.write("\n".join(line.rstrip() for line in capture.get().splitlines()) + "\n")
    sys.stdout.flush()


def print_status(data: dict[str, Any]) -> None:
    tables = status_tables(data)
    _emit(_console(), [x for t in tables for x in (t, "")][:-1])


def print_doctor(report: dict[str, Any], repair: bool) -> None:
    """The checks as a table (check, ok/problem, detail), then what was repaired."""
    from rich.markup import escape

    console = _console()
    table = _table("smriti doctor", "check", "result", "detail")
    for c in report["checks"]:
        table.add_row(
            escape(c["check"]),
            ("[green]repaired[/]" if c.get("repaired") else "[green]ok[/]") if c["ok"] else "[red]problem[/]",
            escape(c["detail"]),
        )
    out: list[Any] = [table]
    if report["repaired"]:
        out += ["", "[bold]Repaired[/]", *(f"  - {escape(r)}" for r in report["repaired"])]
    if report.get("advice"):
        out += ["", "[bold]Not repaired[/]", *(f"  - {escape(a)}" for a in report["advice"])]
    _emit(console, out)
    if report["problems"] and not repair:
        from rich.console import Console

        Console(stderr=True, highlight=False).print("Run `smriti doctor --repair` to fix what can be fixed.")
