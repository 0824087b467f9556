"""Rendering of the health reports for the terminal: `smriti status` and `smriti doctor`.

Used only by smriti.cli: smriti.status gathers the data (the dict `--json` prints as it is),
this module turns it into rich tables. rich is imported inside the functions, so importing this
module costs nothing on paths that never render.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from smriti.status import StatusReport
from smriti.untrusted import printable

TOP_PROJECTS = 10


def _console() -> Any:
    from rich.console import Console

    # rich writes escape codes only to a terminal and honours NO_COLOR and TERM=dumb; piped
    # output is plain text, wide (one row a line, for grep) unless COLUMNS says otherwise.
    # Nothing is cut off: long values wrap instead of ending in "…".
    wide = not sys.stdout.isatty() and not os.environ.get("COLUMNS")
    return Console(file=sys.stdout, highlight=False, emoji=False, width=200 if wide else None)


def e(text: Any) -> str:
    """A value from the data, ready for a rich cell: its control characters dropped (paths, error
    messages and names come from agents' logs and synced files: `untrusted.printable`), then its
    brackets escaped (rich would read them as markup)."""
    from rich.markup import escape

    return escape(printable(str(text)))


def plural(n: int, noun: str) -> str:
    """`1 session`, `2 sessions`, `0 problems`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


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


def status_tables(data: StatusReport) -> list[Any]:
    """The report as rich tables: overview, agents, adapter errors, projects, categories,
    knowledge and sharing, hooks, index. Every value from the data goes through `e` (paths and
    error messages hold control characters from files, and brackets that rich would read as markup)."""
    from rich.console import Group

    out = []
    idx = data["index"]
    overview = _table("Overview", "what", "value")
    overview.add_row("data dir", f"{e(data['data_dir'])} ({human_bytes(data['data_dir_bytes'])})")
    overview.add_row(
        "store",
        f"{plural(data['sessions'], 'session')}, {plural(data['messages'], 'message')}, "
        f"{plural(data['projects'], 'project')} ({human_bytes(data['store_bytes'])})",
    )
    overview.add_row("knowledge", plural(data["knowledge"], "item"))
    overview.add_row("sources", f"{plural(data['sources'], 'file')} read, last ingest {ago(data['last_ingest'])}")
    overview.add_row("index", "fresh" if idx["fresh"] else "[red]needs attention[/] (see Index below)")
    if data["disabled"]:
        overview.add_row("disabled", "[yellow]SMRITI_DISABLE is set: nothing is recorded or recalled[/]")
    out.append(overview)

    agents = _table("Agents", "agent", "#sessions", "#messages", "#sources", "last ingest", "errors")
    for name, a in data["by_agent"].items():
        errs = (
            f"[red]{plural(a['sources_with_errors'], 'source')}, {plural(a['errors'], 'problem')}[/]"
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
        more_sources = f"and {plural(more, 'more source')} (`smriti status --json` lists all)"
        out.append(Group(errors, more_sources) if more else errors)

    # Counted as the overview counts them: sessions outside any project are a row of their own,
    # never "a project", so "N projects" and "top 10 of N" agree.
    named = [p for p in data["by_project"] if p["project_key"] is not None]
    outside = [p for p in data["by_project"] if p["project_key"] is None]
    more = len(named) - TOP_PROJECTS
    ptable = _table(
        "Projects" + (f" (top {TOP_PROJECTS} of {len(named)})" if more > 0 else ""),
        "project",
        "#sessions",
        "#messages",
        "last activity",
    )
    for p in named[:TOP_PROJECTS] + outside:
        ptable.add_row(
            e(p["project"] if p["project_key"] is not None else "(no project)"),
            str(p["sessions"]),
            str(p["messages"]),
            ago(p["last_activity"]),
        )
    more_projects = f"and {plural(more, 'more project')} (`smriti status --json` lists all)"
    out.append(Group(ptable, more_projects) if more > 0 else ptable)

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
            f"{plural(ps['count'], 'knowledge file')} not committed in {e(ps['repo'])} "
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
        f"{plural(hooks['runs_24h'], 'recall')}, "
        + (f"[red]{plural(hooks['failures_24h'], 'failure')}[/]" if hooks["failures_24h"] else "0 failures"),
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
            f"{plural(len(inj['items'] or []), 'item')}"
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
        waiting = plural(idx["pending"], "change")
        state = f"[yellow]{waiting} not indexed yet[/] (the next ingest or `smriti doctor --repair`)"
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


def print_status(data: StatusReport) -> None:
    tables = status_tables(data)
    _emit(_console(), [x for t in tables for x in (t, "")][:-1])


def print_doctor(report: dict[str, Any], repair: bool) -> None:
    """The checks as a table (check, ok/problem, detail), then what was repaired."""
    console = _console()
    table = _table("smriti doctor", "check", "result", "detail")
    for c in report["checks"]:
        table.add_row(
            e(c["check"]),
            ("[green]repaired[/]" if c.get("repaired") else "[green]ok[/]") if c["ok"] else "[red]problem[/]",
            e(c["detail"]),
        )
    out: list[Any] = [table]
    if report["repaired"]:
        out += ["", "[bold]Repaired[/]", *(f"  - {e(r)}" for r in report["repaired"])]
    if report.get("advice"):
        out += ["", "[bold]Not repaired[/]", *(f"  - {e(a)}" for a in report["advice"])]
    _emit(console, out)
    if report["problems"] and not repair:
        from rich.console import Console

        Console(stderr=True, highlight=False).print("Run `smriti doctor --repair` to fix what can be fixed.")
