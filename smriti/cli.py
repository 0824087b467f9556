"""The click CLI: parse options, call one library function, render. No SQL, no parsing here."""

from __future__ import annotations

import errno
import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any, NamedTuple

import click

from smriti import paths
from smriti.app import App
from smriti.errors import SmritiError
from smriti.hooks.protocol import AGENTS as HOOK_AGENTS
from smriti.searchcmd import byline as _byline
from smriti.searchcmd import short as _short
from smriti.searchcmd import text_lines as search_text_lines
from smriti.store import (
    BUSY_ERRORS,
    BUSY_TIMEOUT_MS,
    DAMAGED_DB_ERRORS,
    FULL_ERRORS,
    IO_ERRORS,
    READ_ONLY_ERRORS,
    KnowledgeRow,
)
from smriti.untrusted import printable

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _not_utf8(exc: UnicodeEncodeError) -> str:
    """What could not be encoded: the byte an argument had, or a lone surrogate's escape."""
    bad = exc.object[exc.start : exc.end] if isinstance(exc.object, str) else ""
    try:
        return "byte 0x" + bad.encode("utf-8", "surrogateescape").hex(" ")
    except UnicodeEncodeError:
        return bad.encode("ascii", "backslashreplace").decode("ascii")


class SmritiGroup(click.Group):
    """Turns library errors into one clear line and exit 1, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SmritiError as exc:
            raise click.ClickException(printable(str(exc))) from None
        except DAMAGED_DB_ERRORS as exc:
            # A store whose header is sound opens fine; damage further in shows on the first read
            # of a bad page, in whatever command reads it.
            raise click.ClickException(
                printable(f"{_db(ctx)} is damaged ({exc}); `smriti doctor` explains the way out")
            ) from None
        except click.ClickException as exc:
            exc.message = printable(exc.message)  # type: ignore[misc,unused-ignore]  # it may quote a path or a name from a file
            raise
        except (click.exceptions.Exit, click.Abort):
            raise
        except UnicodeEncodeError as exc:
            # An argument with a byte that is not UTF-8 (Python reads it as a lone surrogate):
            # neither SQLite nor Tantivy can take it.
            raise click.ClickException(
                printable(f"a value given is not UTF-8 text ({_not_utf8(exc)}): smriti stores and searches UTF-8 only")
            ) from None
        except Exception as exc:
            message = _environment_message(ctx, exc)
            if message is None:
                raise
            raise click.ClickException(printable(message)) from None


# What the machine, not smriti, refused: a full disk or quota, a file size limit, a read-only file
# system, a permission, a file where a folder should be.
_ENVIRONMENT_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.EEXIST}
)


def _environment_message(ctx: click.Context, exc: BaseException) -> str | None:
    """One line for a write the machine refused, or None for anything else (a bug: its traceback).

    The cause is looked for down the exception's chain: SQLite rolls a transaction back on a
    full disk, and leaving apsw's `with` then raises "no transaction is active" on top of it.
    Each of these left its transaction rolled back: nothing is half-written, nothing stored is lost.
    """
    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and len(chain) < 20:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    for e in reversed(chain):  # the first failure is the cause
        if isinstance(e, READ_ONLY_ERRORS):
            return (
                f"{_db(ctx)} is read-only (its file or folder cannot be written) and this command needs to write; "
                "reading commands (search, recall, show, sessions, status) still work"
            )
        if isinstance(e, FULL_ERRORS) or (isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT)):
            return f"the disk holding {_db(ctx)} is full: nothing was written; free some space and run it again"
        if isinstance(e, IO_ERRORS):
            return (
                f"could not write {_db(ctx)} ({e}: a full disk or a file size limit?); "
                "nothing was written; run it again once it can be"
            )
        if isinstance(e, BUSY_ERRORS):
            return (
                f"{_db(ctx)} is busy: another smriti process has held its write lock for over "
                f"{BUSY_TIMEOUT_MS // 1000} s (a stuck ingest?); nothing was written; run it again later"
            )
        if isinstance(e, OSError) and e.errno in _ENVIRONMENT_ERRNOS:
            where = f" {e.filename}" if e.filename else ""
            return f"cannot write{where}: {e.strerror or e}; nothing stored before was lost"
    return None


def _db(ctx: click.Context) -> Path:
    app = ctx.obj if isinstance(ctx.obj, App) else None
    return paths.db_path(app.data_dir if app else None)


def emit_json(data: Any) -> None:
    """JSON is data, not display: printed exactly (JSON escapes every control character)."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


class Styled(NamedTuple):
    """A part of a line that smriti styles itself (a colour, bold): see `say`."""

    text: str
    style: dict[str, Any]


def styled(text: str, **style: Any) -> Styled:
    return Styled(text, style)


def say(*parts: str | Styled, err: bool = False) -> None:
    """Print one line for a person: every text line of every command goes through here.

    Titles, bodies, paths, error messages and snippets come from synced files, agents' logs and
    file names: each part loses its control characters (`untrusted.printable`: ESC and so every
    escape sequence, C1 controls, carriage returns, bidi and zero-width characters) before
    smriti's own styling is added around it, so only smriti's colours reach the terminal, piped or
    not. (`untrusted.TerminalGuard` is the second line of defence on a terminal.)
    """
    click.echo(
        "".join(click.style(printable(p.text), **p.style) if isinstance(p, Styled) else printable(p) for p in parts),
        err=err,
    )


def _app(ctx: click.Context) -> App:
    app = ctx.ensure_object(App)
    ctx.call_on_close(app.close)
    return app


def _check_agents(app: App, agents: tuple[str, ...] | list[str]) -> None:
    """An agent smriti has no adapter for is a usage error (exit 2), listing the ones it has.
    Checked against the built-in names first, which loads no adapter (importing all of them, and
    reading the entry points, is a third of a search's start-up); any other name loads the registry:
    a plugin's, or the error that lists them all."""
    from smriti.adapternames import BUILTIN_NAMES

    if not agents or BUILTIN_NAMES.issuperset(agents):
        return
    known = app.registry.names
    for name in agents:
        if name not in app.registry.adapters:
            raise click.BadParameter(f"unknown agent {name!r}; supported: {', '.join(known)}", param_hint="'--agent'")


def _check_category(app: App, category: str | None, repo: Path | None = None) -> None:
    """A category that exists nowhere would filter everything out without a word: a usage error
    (exit 2) listing the valid ones, as `smriti tag` does."""
    if not category:
        return
    from smriti.digest.apply import unknown_category

    known = unknown_category(app.store, category, str(repo) if repo else None)
    if known is not None:
        raise click.BadParameter(f"unknown category {category!r}; known: {', '.join(known)}", param_hint="'--category'")


# Warnings a text ingest prints before "and N more": a first ingest of a whole machine can find
# many partly readable files, and the summary line must stay in view.
SHOWN_WARNINGS = 20


def _count(n: int, noun: str) -> str:
    from smriti.render import plural

    return plural(n, noun)


@click.group(cls=SmritiGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="smriti")
def cli() -> None:
    """smriti: one memory of everything your AI coding agents learned.

    \b
    Ingest your agents' sessions, search and recall them, share what is worth keeping
    with your team (`smriti init`, `share`, `sync`). Data lives in `smriti path`
    (override with SMRITI_HOME).

    \b
    Example:
        smriti ingest
        smriti search "connection pool exhausted"
    """


@cli.command()
@click.option("agents", "--agent", "-a", multiple=True, help="Only this agent (repeatable).")
@click.option(
    "paths_",
    "--path",
    "-p",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Read this file or folder instead of the agents' default locations.",
)
@click.option("json_", "--json", is_flag=True, help="Print the result as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
@click.pass_context
def ingest(ctx: click.Context, agents: tuple[str, ...], paths_: tuple[Path, ...], json_: bool, quiet: bool) -> None:
    """Read new agent sessions into the store and index (incremental).

    Without --path, reads every agent whose log folders exist on this machine. A second run
    with nothing new adds nothing. Repeated problems are shown once per file with a count.

    \b
    Exit codes:
      0  every source was read; lines or records it had to skip are reported
         (errors/warnings in --json) and the rest of each source is stored
      1  some source could not be read at all (missing, unreadable, unrecognised,
         nothing but bad lines): listed in `unreadable`; everything else was still
         ingested, and that source is read and reported again on the next run
      2  usage error (an unknown --agent, a bad option)

    \b
    Example:
        smriti ingest
        smriti ingest --agent claude-code
        smriti ingest --path examples/claude-code --json
    """
    from smriti.ingest import ingest as run_ingest

    if paths.disabled():
        say("smriti is disabled (SMRITI_DISABLE=1): nothing ingested.", err=True)
        if json_:
            emit_json(
                {
                    "disabled": True,
                    "sessions_found": 0,
                    "sessions_ingested": 0,
                    "messages_added": 0,
                    "errors": [],
                    "warnings": [],
                    "unreadable": [],
                    "problem_groups": [],
                }
            )
        return
    app = _app(ctx)
    _check_agents(app, agents)
    show_progress = not quiet and sys.stderr.isatty()
    with ExitStack() as stack:
        bar = None

        def progress(done: int, total: int, _path: str) -> None:
            nonlocal bar
            if not show_progress or total < 20:
                return
            if bar is None:
                bar = stack.enter_context(click.progressbar(length=total, label="Reading sessions", file=sys.stderr))
            bar.update(1)

        result = run_ingest(app.store, app.index, app.registry, app.config, list(agents), list(paths_), progress)
    for warning in app.registry.warnings:
        say(f"warning: {warning}", err=True)
    if json_:
        emit_json(result.to_json())
    else:
        from smriti.ingest import describe_group

        say(
            f"{_count(result.sessions_found, 'session')} found in {_count(result.files_seen, 'source')} "
            f"({result.files_unchanged} unchanged); {result.sessions_ingested} ingested, "
            f"{_count(result.messages_added, 'new message')}."
        )
        groups = result.problem_groups()
        warnings = [g for g in groups if g["severity"] == "warning"]
        for group in [g for g in groups if g["severity"] == "error"] + ([] if quiet else warnings[:SHOWN_WARNINGS]):
            say(f"{group['severity']}: {describe_group(group)}", err=True)
        if not quiet and len(warnings) > SHOWN_WARNINGS:
            say(f"and {len(warnings) - SHOWN_WARNINGS} more warnings (--json lists all).", err=True)
        if result.unreadable:
            say(
                f"{_count(len(result.unreadable), 'source')} could not be read (fix, remove or exclude "
                "them in config.toml); everything else was ingested.",
                err=True,
            )
    if result.unreadable:
        ctx.exit(1)


@cli.command()
@click.argument("query")
@click.option("--project", "-P", help="Only this project: a name, a remote (github.com/org/repo) or a path.")
@click.option("agents", "--agent", "-a", multiple=True, help="Only this agent (repeatable).")
@click.option("--category", "-c", help="Only this category (a parent matches its children).")
@click.option("--since", help="Only messages since a date (2026-11-01) or a span (7d, 12h, 2w).")
@click.option("files", "--file", multiple=True, help="Only sessions that touched this file path.")
@click.option("--limit", "-n", default=10, show_default=True, type=click.IntRange(min=1), help="How many results.")
@click.option(
    "--kind",
    type=click.Choice(["session", "knowledge"]),
    help="Only sessions, or only the team's knowledge items (default: both).",
)
@click.option("json_", "--json", is_flag=True, help="Print results as JSON.")
@click.pass_context
def search(
    ctx: click.Context,
    query: str,
    project: str | None,
    agents: tuple[str, ...],
    category: str | None,
    since: str | None,
    files: tuple[str, ...],
    limit: int,
    kind: str | None,
    json_: bool,
) -> None:
    """Find sessions and team knowledge by what was said in them (BM25, best first).

    The query is plain words: no query syntax, quotes or operators are interpreted.
    Knowledge items are the team's active ones (shared or synced); `--json` gives each
    result's `kind` ("session" or "knowledge") and the `id` that `smriti show` takes.

    \b
    Example:
        smriti search "pool exhausted" --project payments-api
        smriti search migration --agent claude-code --since 7d --json
        smriti search psycopg --kind knowledge
    """
    from smriti.search import search as run_search

    app = _app(ctx)
    _check_agents(app, agents)
    _check_category(app, category)
    hits = run_search(
        app.store,
        app.index,
        query,
        project=project,
        agents=agents,
        category=category,
        since=since,
        files=files,
        limit=limit,
        kind=kind,
    )
    if json_:
        emit_json([h.to_json() for h in hits])
        return
    if not hits:
        say("No matches.", err=True)
        return
    # The lines are smriti.searchcmd's, which prints the same without click for the usual command lines.
    for head, rest in search_text_lines(hits):
        if head is None:
            say(rest)
        else:
            say(styled(head, fg="yellow"), rest)


@cli.command()
@click.argument("query")
@click.option(
    "--project",
    "-P",
    help="The asking project: a name, a remote or a path (default: the repo around the current directory).",
)
@click.option("all_projects", "--all-projects", is_flag=True, help="Also recall team items of other projects.")
@click.option("--limit", "-n", default=5, show_default=True, type=click.IntRange(min=1), help="How many items.")
@click.option(
    "--budget", default=1000, show_default=True, type=click.IntRange(min=1), help="Most tokens the context may use."
)
@click.option("json_", "--json", is_flag=True, help="Print the context and the ranked results as JSON.")
@click.pass_context
def recall(
    ctx: click.Context, query: str, project: str | None, all_projects: bool, limit: int, budget: int, json_: bool
) -> None:
    """Recall what earlier sessions and the team's knowledge say about QUERY, ready to inject.

    Prints the <smriti-context> block an agent hook would inject (empty when nothing relevant
    clears the score floor). Team items come from the asking project unless --all-projects.

    \b
    Example:
        smriti recall "why did we pin psycopg?"
        smriti recall "flaky checkout test" --budget 500 --json
    """
    from smriti.recall import recall as run_recall
    from smriti.search import asking_project

    app = _app(ctx)
    keys = asking_project(app.store, project)
    result = run_recall(
        app.store, app.index, query, project=keys, limit=limit, budget=budget, all_projects=all_projects
    )
    if json_:
        emit_json(result.to_json())
        return
    if not result.context:
        say("Nothing relevant recalled.", err=True)
        return
    say(result.context)


@cli.command()
@click.option("agent", "--agent", "-a", help="Only this agent.")
@click.option("--project", "-P", help="Only this project: a name, a remote or a path.")
@click.option("--category", "-c", help="Only this category (a parent matches its children).")
@click.option("--limit", "-n", default=20, show_default=True, type=click.IntRange(min=1))
@click.option("json_", "--json", is_flag=True, help="Print sessions as JSON.")
@click.pass_context
def sessions(
    ctx: click.Context, agent: str | None, project: str | None, category: str | None, limit: int, json_: bool
) -> None:
    """List stored sessions, newest first.

    \b
    Example:
        smriti sessions --agent claude-code --limit 5
        smriti sessions --project payments-api --category bug --json
    """
    from smriti.search import category_filter, project_keys

    app = _app(ctx)
    _check_agents(app, [agent] if agent else [])
    _check_category(app, category)
    keys = project_keys(app.store, project)
    cats = category_filter(app.store, category)
    if category and not cats:
        cats = (category,)
    rows = app.store.list_sessions(
        agent=agent, projects=list(keys) if keys is not None else None, limit=limit, categories=cats
    )
    if json_:
        emit_json([r.to_json() for r in rows])
        return
    if not rows:
        given = (("agent", agent), ("project", project), ("category", category))
        filters = [f"--{name} {value}" for name, value in given if value]
        if filters and app.store.list_sessions(limit=1):
            say(f"No sessions match {' '.join(filters)}.", err=True)
        else:
            say("No sessions yet: run `smriti ingest`.", err=True)
        return
    for r in rows:
        when = (r.started_at or "")[:16].replace("T", " ")
        say(
            styled(r.session_id, fg="yellow"),
            f"  {when:16}  {r.agent:12} {_short(r.project_name or '-', 20):20} {r.message_count:5} msgs  "
            + _short(r.title or "", 60),
        )


@cli.command()
@click.option("--project", "-P", help="Only this project's repo: a name, a remote or a path.")
@click.option("--category", "-c", help="Only this category (a parent matches its children).")
@click.option(
    "--status",
    type=click.Choice(["active", "superseded", "withdrawn", "all"]),
    default="active",
    show_default=True,
    help="Which items by their status.",
)
@click.option("--limit", "-n", default=50, show_default=True, type=click.IntRange(min=1))
@click.option("json_", "--json", is_flag=True, help="Print items as JSON (without their bodies).")
@click.pass_context
def knowledge(
    ctx: click.Context, project: str | None, category: str | None, status: str, limit: int, json_: bool
) -> None:
    """List the team knowledge items in the store (shared here or synced), newest first.

    `smriti show ID` prints one in full; `smriti search QUERY --kind knowledge` searches them.

    \b
    Example:
        smriti knowledge
        smriti knowledge --project payments-api --category bug --json
    """
    from smriti.search import category_filter, project_keys

    app = _app(ctx)
    _check_category(app, category)
    keys = project_keys(app.store, project)
    cats = category_filter(app.store, category)
    if category and not cats:
        cats = (category,)
    statuses = () if status == "all" else (status,)
    rows = app.store.list_knowledge(repos=keys, categories=cats, statuses=statuses, limit=limit)
    if json_:
        emit_json([{k: v for k, v in r.to_json().items() if k != "body"} for r in rows])
        return
    if not rows:
        say("No knowledge items: `smriti share` writes them, `smriti sync` imports a team's.", err=True)
        return
    for r in rows:
        when = (r.shared or r.created or "")[:10]
        by = _byline(r.author, r.committed_by) if r.author or r.committed_by else "-"  # a file's claim marked as one
        say(
            styled(r.id, fg="yellow"),
            f"  {when:10}  {_short(r.category, 22):22} {_short(by, 24):24} "
            + _short(r.title, 60)
            + ("" if r.status == "active" else f"  ({r.status})"),
        )


@cli.command()
@click.argument("ident", metavar="ID")
@click.option("--full", is_flag=True, help="Show tool output, tool input and injected context in full.")
@click.option("json_", "--json", is_flag=True, help="Print the session and its messages as JSON.")
@click.pass_context
def show(ctx: click.Context, ident: str, full: bool, json_: bool) -> None:
    """Show a session with its messages, or a team knowledge item (by id or a prefix of one).

    \b
    Example:
        smriti show 3f9a2c1e5b7d4a60
        smriti show 3f9a --json
    """
    from smriti.errors import NotFound

    app = _app(ctx)
    try:
        session = app.store.get_session(ident)
    except NotFound:
        item = app.store.knowledge_item(ident)
        if item is None:
            raise NotFound(
                f"no session or knowledge item {ident!r}: see `smriti sessions` or `smriti recall`"
            ) from None
        _show_knowledge(item, json_)
        return
    messages = app.store.messages(session.rowid)
    digest = app.store.get_digest(session.rowid) or {}
    tags = app.store.session_tags(session.rowid)
    relations = app.store.relations(session.rowid)
    if json_:
        emit_json(
            {
                **session.to_json(),
                "summary": digest.get("summary", []),
                "entities": digest.get("entities", {}),
                "confidence": digest.get("confidence"),
                "tags": tags,
                "relations": relations,
                "messages_list": [m.to_json() for m in messages],
            }
        )
        return
    say(styled(session.title or "(untitled session)", bold=True))
    say(
        f"{session.session_id} · {session.agent} · {session.project_name or '-'} · "
        f"{session.started_at or '?'} → {session.ended_at or '?'} · {session.message_count} messages"
    )
    say(
        f"category: {session.category or 'uncategorized'}"
        + (
            f" (tags: {', '.join(t['category'] + ('*' if t['source'] == 'user' else '') for t in tags)})"
            if tags
            else ""
        )
    )
    if session.cwd:
        say(f"cwd: {session.cwd}" + (f" (branch {session.git_branch})" if session.git_branch else ""))
    if session.parent_native_id:
        say(f"parent session: {session.parent_native_id}")
    for rel in relations:
        say(f"{rel['relation'].replace('_', ' ')}: {rel['session_id']}  {rel['title'] or ''}")
    if digest.get("summary"):
        say()
        for line in digest["summary"]:
            say(f"  {line}")
    from smriti.team.share import call_details, call_summary, display_files

    files = display_files(list(digest.get("entities", {}).get("files", [])), session.cwd)
    if files:
        say(f"  files: {', '.join(files[:10])}" + (" …" if len(files) > 10 else ""))
    say()
    for m in messages:
        label = (
            m.role
            if m.kind in ("prompt", "response")
            else f"{m.role} · {m.kind}" + (f" · {m.tool_name}" if m.tool_name else "")
        )
        say(styled(f"[{m.seq}] {label}", fg="cyan"), (f"  {m.timestamp}" if m.timestamp else ""))
        text = m.text
        if m.kind == "tool_call":  # what the call was about, from its input; --full adds the whole input
            text = call_summary(m.tool_name, m.tool_input, m.action, m.text, typed=m.role == "user")
            if full:
                text = "\n".join([text, *(f"  {line}" for d in call_details(m.tool_input) for line in d.splitlines())])
        elif not full and m.kind in ("tool_result", "injected_context") and len(text) > 400:
            text = text[:400] + f"… [{len(m.text) - 400} more characters; --full shows all]"
        say(text)
        say()


def _show_knowledge(item: KnowledgeRow, json_: bool) -> None:
    """A synced team item: its provenance, then its body (data written by a teammate)."""
    if json_:
        emit_json(item.to_json())
        return
    say(styled(item.title, bold=True))
    say(
        f"{item.id} · team item by {_byline(item.author, item.committed_by)} · {item.category} · {item.agent or '-'} · "
        f"{item.created} · {item.status}" + (f" · {item.path}" if item.path else "")
    )
    say()
    say(item.body)


@cli.command()
@click.option("json_", "--json", is_flag=True, help="Print status as JSON.")
@click.pass_context
def status(ctx: click.Context, json_: bool) -> None:
    """A health report: what is stored per agent, project and category, adapter errors, hooks,
    index freshness, data size, knowledge, syncs and pending shares.

    Read-only: problems are reported (`smriti doctor --repair` fixes them). Tables on a
    terminal, plain text when piped; --json for scripts.

    \b
    Example:
        smriti status
        smriti status --json
    """
    from smriti.render import print_status
    from smriti.status import status as run_status

    app = _app(ctx)
    data = run_status(app)
    if json_:
        emit_json(data)
        return
    print_status(data)


@cli.command("categorize")
@click.option("all_", "--all", is_flag=True, help="Re-categorize every session from scratch.")
@click.option("session_ids", "--session", "-s", multiple=True, help="Only this session (repeatable).")
@click.option("json_", "--json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def categorize_cmd(ctx: click.Context, all_: bool, session_ids: tuple[str, ...], json_: bool) -> None:
    """Categorize and distill sessions (ingest already does this for new ones).

    Without options, only sessions not categorized yet or categorized with other rules (a changed
    team config) are redone. A tag you set with `smriti tag` always wins.

    \b
    Example:
        smriti categorize
        smriti categorize --all --json
        smriti categorize --session 96f77bed
    """
    from smriti.digest.apply import categorize

    app = _app(ctx)
    rowids = [app.store.get_session(i).rowid for i in session_ids] if session_ids else None
    result = categorize(app.store, rowids, all_=all_)
    app.index.sync(app.store)
    for warning in result.warnings:
        say(f"warning: {warning}", err=True)
    if json_:
        emit_json(result.to_json())
        return
    say(f"Categorized {_count(result.sessions, 'session')} ({result.changed} changed).")
    for cat, n in result.categories.items():
        say(f"  {cat:28} {n}")


@cli.command()
@click.argument("ident", metavar="ID")
@click.argument("category")
@click.option("json_", "--json", is_flag=True, help="Print the session's tags as JSON.")
@click.pass_context
def tag(ctx: click.Context, ident: str, category: str, json_: bool) -> None:
    """Set a session's category by hand. Your tag always wins over the rules.

    The tag is also a correction: categorize learns from it for the project's next sessions.

    \b
    Example:
        smriti tag 96f77bed bug/fix
    """
    from smriti.digest.apply import tag_session

    app = _app(ctx)
    session = app.store.get_session(ident)
    if not app.store.has_category(category):
        known = ", ".join(r["id"] for r in app.store.category_rows())
        raise click.BadParameter(f"unknown category {category!r}; known: {known}", param_hint="CATEGORY")
    tag_session(app.store, session, category)
    app.index.sync(app.store)
    tags = app.store.session_tags(session.rowid)
    if json_:
        emit_json({"session_id": session.session_id, "category": category, "tags": tags})
        return
    say(f"{session.session_id} is now {category}.")


@cli.command()
@click.argument("ident", metavar="ID")
@click.argument("category", required=False)
@click.option("json_", "--json", is_flag=True, help="Print the session's tags as JSON.")
@click.pass_context
def untag(ctx: click.Context, ident: str, category: str | None, json_: bool) -> None:
    """Remove your tag from a session (all your tags without CATEGORY); the rules decide again.

    \b
    Example:
        smriti untag 96f77bed bug/fix
    """
    from smriti.digest.apply import untag_session

    app = _app(ctx)
    session = app.store.get_session(ident)
    removed = untag_session(app.store, session, category)
    app.index.sync(app.store)
    after = app.store.session_row(session.rowid).category
    if json_:
        emit_json(
            {
                "session_id": session.session_id,
                "removed": removed,
                "category": after,
                "tags": app.store.session_tags(session.rowid),
            }
        )
        return
    say(f"Removed {', '.join(removed) or 'nothing'}; {session.session_id} is {after or 'uncategorized'}.")


@cli.command()
@click.option("json_", "--json", is_flag=True, help="Print the taxonomy as JSON.")
@click.pass_context
def categories(ctx: click.Context, json_: bool) -> None:
    """List the categories with how many sessions each holds.

    `sessions` counts sessions whose primary category it is; `tagged` counts every session
    tagged with it (parents and secondary tags included); `corrections` counts the labels
    categorize learns from (your tags, knowledge files moved to its folder and synced), of
    which `corrections_from_tags` and `corrections_from_moves` came from each.

    \b
    Example:
        smriti categories --json
    """
    from smriti.digest.apply import LABELS_IN_USE, Enricher

    app = _app(ctx)
    if not app.store.category_rows():
        Enricher(app.store).settings_for_repo(None)  # the seeds, before any ingest
    rows = app.store.category_rows()
    labels = app.store.label_counts(LABELS_IN_USE)
    for r in rows:
        counts = labels.get(r["id"], {})
        r["corrections"] = counts.get("corrections", 0)
        r["corrections_from_tags"] = counts.get("tag", 0)
        r["corrections_from_moves"] = counts.get("knowledge", 0)
    if json_:
        emit_json(rows)
        return
    for r in rows:
        indent = "  " if r["parent"] else ""
        say(f"{indent}{r['id']:30} {r['sessions']:6} sessions {r['tagged']:6} tagged  {r['description']}")
    total = sum(r["corrections"] for r in rows)
    if total:
        say(f"{total} corrections in use (your tags and moved knowledge files).")


def _repo(path: Path | None) -> Path:
    from smriti.team.git import repo_root

    return repo_root(path)


@cli.command()
@click.option(
    "repo",
    "--repo",
    type=click.Path(path_type=Path, file_okay=False),
    help="The git repo (default: the one around the current directory).",
)
@click.option("json_", "--json", is_flag=True, help="Print what was created as JSON.")
def init(repo: Path | None, json_: bool) -> None:
    """Set up a team repo for sharing: .smriti/ (config, knowledge/, README) and .gitattributes.

    Safe to run again: it only creates what is missing.

    \b
    Example:
        smriti init
        smriti init --repo ~/src/payments-api
    """
    from smriti.team.initrepo import init_repo

    result = init_repo(_repo(repo))
    if json_:
        emit_json(result)
        return
    if result["created"]:
        say("Created " + ", ".join(result["created"]) + f" in {result['repo']}.")
        say("Commit them, then `smriti share` what is worth keeping.")
    else:
        say(f"{result['repo']} is already set up.")


@cli.command()
@click.option("session_ids", "--session", "-s", multiple=True, help="Share this session (repeatable).")
@click.option("--project", "-P", help="Sessions of this project (default: the repo's own project).")
@click.option("--category", "-c", help="Only this category (a parent matches its children).")
@click.option("--since", help="Only sessions since a date (2026-11-01) or a span (7d, 2w).")
@click.option(
    "repo",
    "--repo",
    type=click.Path(path_type=Path, file_okay=False),
    help="The team repo (default: the one around the current directory).",
)
@click.option("--dry-run", is_flag=True, help="Show what would be written; write nothing.")
@click.option("--refresh", is_flag=True, help="Overwrite files a person edited (on purpose).")
@click.option(
    "--transcript",
    type=click.Choice(["condensed", "full", "none"]),
    help="How much conversation to include (default: the team config, else condensed).",
)
@click.option("supersedes", "--supersedes", multiple=True, help="Item id this share replaces (with one --session).")
@click.option("--force", is_flag=True, help="Share a --session of another project into this repo (on purpose).")
@click.option("json_", "--json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def share(
    ctx: click.Context,
    session_ids: tuple[str, ...],
    project: str | None,
    category: str | None,
    since: str | None,
    repo: Path | None,
    dry_run: bool,
    refresh: bool,
    transcript: str | None,
    supersedes: tuple[str, ...],
    force: bool,
    json_: bool,
) -> None:
    """Write sessions worth keeping as redacted knowledge files in the repo's .smriti/knowledge/.

    Run `smriti init` in the repo first. Without --session, shares this repo's categorized
    sessions (the team config's categories); a --session of another project is refused unless
    --force.
    Secrets, e-mail addresses and home paths are redacted first; an item where anything still
    looks secret is skipped with the reason. Commit the files and open a pull request.

    \b
    Example:
        smriti share --session 96f77bed
        smriti share --category bug --since 7d --dry-run
    """
    from smriti.team.share import share as run_share

    app = _app(ctx)
    root = _repo(repo)
    _check_category(app, category, root)
    result = run_share(
        app.store,
        root,
        session_ids=session_ids,
        project=project,
        category=category,
        since=since,
        dry_run=dry_run,
        refresh=refresh,
        transcript=transcript,
        supersedes=supersedes,
        force=force,
    )
    if json_:
        emit_json(result.to_json())
    else:
        verb = "Would write" if dry_run else "Wrote"
        for path in result.written:
            say(f"{verb} {path}")
        say(f"{len(result.written)} written, {result.unchanged} unchanged, {len(result.skipped)} skipped.")
        for skip in result.skipped:
            say(f"skipped {skip['id']}: {skip['reason']}", err=True)
        for p in result.proposed_supersedes:
            say(f"hint: {p['id']} may supersede {p['supersedes']}: {p['hint']}", err=True)


@cli.command()
@click.argument("item_id", metavar="ID")
@click.option("repo", "--repo", type=click.Path(path_type=Path, file_okay=False), help="The team repo.")
@click.option("json_", "--json", is_flag=True, help="Print what was removed as JSON.")
@click.pass_context
def unshare(ctx: click.Context, item_id: str, repo: Path | None, json_: bool) -> None:
    """Remove a shared item's file (commit the deletion to withdraw it from the team).

    \b
    Example:
        smriti unshare 3f9a2c1e5b7d4a60
    """
    from smriti.team.share import unshare as run_unshare

    result = run_unshare(_app(ctx).store, _repo(repo), item_id)
    if json_:
        emit_json(result)
        return
    say(f"Removed {', '.join(result['removed'])}; commit the deletion to withdraw it.")


@cli.command()
@click.option("repo", "--repo", type=click.Path(path_type=Path, file_okay=False), help="The team repo.")
@click.option("--ref", help="Import from this branch or commit instead of the default branch.")
@click.option("--worktree", is_flag=True, help="Import the files on disk (unreviewed drafts too).")
@click.option(
    "fetch", "--fetch/--no-fetch", default=True, show_default=True, help="Fetch the remote first (git fetch origin)."
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing (for git hooks).")
@click.option("json_", "--json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def sync(
    ctx: click.Context, repo: Path | None, ref: str | None, worktree: bool, fetch: bool, quiet: bool, json_: bool
) -> None:
    """Import the team's reviewed knowledge (the default branch's .smriti/knowledge/).

    Fetches the remote first, so what teammates merged is seen; offline, or without a remote,
    it warns and imports the branch as this clone last saw it. New, edited, moved and removed
    files are applied by item id; broken or hostile files are rejected with a reason and the
    rest is imported.

    \b
    Example:
        smriti sync
        smriti sync --no-fetch
        smriti sync --ref origin/release --json
    """
    from smriti.team.sync import sync as run_sync

    if ref and worktree:
        raise click.UsageError("--ref and --worktree exclude each other")
    app = _app(ctx)
    # The index is opened first (and built, if new, from what the store holds before): the import
    # then feeds it as it stores items, and it commits right after the store (Index.feed).
    result = run_sync(app.store, _repo(repo), ref=ref, worktree=worktree, fetch_first=fetch, index=app.index)
    app.index.sync(app.store)
    if not quiet:
        for warning in result.warnings:
            say(f"warning: {warning}", err=True)
    if json_:
        emit_json(result.to_json())
    elif not quiet:
        say(
            f"{result.imported} imported, {result.updated} updated, {result.removed} removed, "
            f"{result.unchanged} unchanged from {result.ref}."
        )
        if result.relabelled:
            say(f"{result.relabelled} moved to another category: kept as corrections for categorize.")
        for r in result.rejected:
            say(f"rejected {r['path']}: {r['reason']}", err=True)


@cli.command()
@click.argument("targets", metavar="[PATH]...", nargs=-1, type=click.Path(path_type=Path))
@click.option("json_", "--json", is_flag=True, help="Print files and problems as JSON.")
@click.pass_context
def check(ctx: click.Context, targets: tuple[Path, ...], json_: bool) -> None:
    """Validate a .smriti/ folder: schema, safe paths, unique ids, sizes, config and secrets.

    PATH is a repo, its .smriti/ folder or single files (default: the repo around the current
    directory). Exit 1 when there are problems; a person's edit of an item is not one.

    \b
    Example:
        smriti check
        smriti check .smriti/knowledge/bug/fix/2026-11-20-fix-pool-3f9a2c1e.md --json
    """
    from smriti.team.check import check as run_check

    result = run_check(list(targets))
    if json_:
        emit_json(result.to_json())
    else:
        for p in result.problems:
            where = f"{p['path']}:{p['line']}" if p["line"] else p["path"]
            say(f"{where}: {p['rule']}: {p['message']}")
        for w in result.warnings:
            where = f"{w['path']}:{w['line']}" if w["line"] else w["path"]
            say(f"{where}: warning: {w['rule']}: {w['message']}", err=True)
        say(f"{_count(result.files, 'file')} checked, {_count(len(result.problems), 'problem')}.", err=True)
    if result.problems:
        ctx.exit(1)


@cli.group(cls=SmritiGroup)
def hooks() -> None:
    """Wire smriti into agents and git (recording, recall, background sync)."""


_AGENT_CHOICE = click.Choice(list(HOOK_AGENTS))
_SCOPE = click.option(
    "--scope",
    type=click.Choice(["user", "project"]),
    default="user",
    show_default=True,
    help="user: the agent's settings in your home; project: the repo's own settings files.",
)


def _hook_targets(agents: tuple[str, ...], scope: str, repo: Path | None) -> tuple[list[str], Path | None]:
    if not agents:
        raise click.UsageError("name an agent with --agent (or use --git for the git hooks)")
    root = _repo(repo) if scope == "project" else None
    return list(dict.fromkeys(agents)), root


@hooks.command("install")
@click.option("agents", "--agent", "-a", multiple=True, type=_AGENT_CHOICE, help="The agent to wire in (repeatable).")
@_SCOPE
@click.option("--git", "git_", is_flag=True, help="Add post-merge/post-checkout git hooks that run `smriti sync`.")
@click.option(
    "repo", "--repo", type=click.Path(path_type=Path, file_okay=False), help="The repo for --git and --scope project."
)
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("json_", "--json", is_flag=True, help="Print what changed as JSON.")
def hooks_install(
    agents: tuple[str, ...], scope: str, git_: bool, repo: Path | None, dry_run: bool, json_: bool
) -> None:
    """Install smriti's hooks into an agent (record every session, recall into prompts), or git's.

    Merges into the agent's settings file (other entries and comments stay), writes the absolute
    path of this smriti, keeps the original as <file>.smriti-backup, and is safe to run again.

    \b
    Example:
        smriti hooks install --agent claude-code
        smriti hooks install --agent codex --agent gemini --scope project
        smriti hooks install --git
    """
    if git_:
        from smriti.team.initrepo import install_git_hooks

        result = install_git_hooks(_repo(repo))
        if json_:
            emit_json(result)
            return
        say("Installed " + (", ".join(result["installed"]) or "nothing (already installed)") + ".")
        return
    from smriti.hooks.install import install

    names, root = _hook_targets(agents, scope, repo)
    results = [install(a, scope, root, dry_run=dry_run) for a in names]
    if json_:
        emit_json(results)
        return
    for r in results:
        verb = "would change" if dry_run else "changed"
        if not r["changed"]:
            say(f"{r['agent']}: already installed in {r['path']}.")
        else:
            what = ", ".join(f"{c['event']} {c['action']}" for c in r["events"] if c["action"] != "unchanged")
            say(f"{r['agent']}: {verb} {r['path']}{' (new file)' if r['created'] else ''}: {what}.")
            if r["backup"]:
                say(f"  original kept as {r['backup']}")
            say(f"  command: {r['command']} hook {r['agent']} EVENT")
        for s in r.get("skipped", []):
            say(f"  skipped {s['event']}: {s['reason']}", err=True)
        if r["trust"]:
            say(f"  next: {r['trust']}")


@hooks.command("uninstall")
@click.option("agents", "--agent", "-a", multiple=True, type=_AGENT_CHOICE, help="The agent to unwire (repeatable).")
@_SCOPE
@click.option("--git", "git_", is_flag=True, help="Remove smriti's git hooks (other hook content stays).")
@click.option(
    "repo", "--repo", type=click.Path(path_type=Path, file_okay=False), help="The repo for --git and --scope project."
)
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("json_", "--json", is_flag=True, help="Print what changed as JSON.")
def hooks_uninstall(
    agents: tuple[str, ...], scope: str, git_: bool, repo: Path | None, dry_run: bool, json_: bool
) -> None:
    """Remove the hooks smriti installed (the settings file goes back to its original bytes when
    nothing else changed in it since).

    \b
    Example:
        smriti hooks uninstall --agent claude-code
        smriti hooks uninstall --git
    """
    if git_:
        from smriti.team.initrepo import uninstall_git_hooks

        result = uninstall_git_hooks(_repo(repo))
        if json_:
            emit_json(result)
            return
        say("Removed smriti from " + (", ".join(result["removed"]) or "nothing (not installed)") + ".")
        return
    from smriti.hooks.install import uninstall

    names, root = _hook_targets(agents, scope, repo)
    results = [uninstall(a, scope, root, dry_run=dry_run) for a in names]
    if json_:
        emit_json(results)
        return
    for r in results:
        if not r["changed"]:
            say(f"{r['agent']}: nothing of smriti's in {r['path']}.")
            continue
        how = (
            "deleted (smriti had created it)"
            if r["deleted"]
            else ("restored to its original bytes" if r["restored"] else "smriti's entries removed")
        )
        say(f"{r['agent']}: {r['path']} {'would be ' if dry_run else ''}{how}: {', '.join(r['removed'])}.")
        if r["backup"]:
            say(f"  the pre-smriti copy is still at {r['backup']}")


@hooks.command("status")
@click.option(
    "agents", "--agent", "-a", multiple=True, type=_AGENT_CHOICE, help="Only this agent (repeatable; default: all)."
)
@_SCOPE
@click.option("repo", "--repo", type=click.Path(path_type=Path, file_okay=False), help="The repo for --scope project.")
@click.option("json_", "--json", is_flag=True, help="Print the status as JSON.")
def hooks_status(agents: tuple[str, ...], scope: str, repo: Path | None, json_: bool) -> None:
    """Which agents have smriti's hooks, where, and whether hooks have been failing lately.

    \b
    Example:
        smriti hooks status
        smriti hooks status --agent codex --json
    """
    from smriti.hooks.install import status
    from smriti.hooks.log import health

    root = _repo(repo) if scope == "project" else None
    rows = [status(a, scope, root) for a in (agents or HOOK_AGENTS)]
    runtime = health(str(paths.data_dir()))
    if json_:
        emit_json({"agents": rows, "runtime": runtime})
        return
    for r in rows:
        if r["installed"]:
            state = "installed" if r["complete"] else f"partly installed (missing {', '.join(r['missing'])})"
        else:
            state = "not installed"
        say(f"{r['agent']:12} {state:20} {r['path']}")
        if r["command_ok"] is False:
            say(
                f"{'':12} the command no longer exists: {', '.join(r['commands'])}; "
                f"run `smriti hooks install --agent {r['agent']}` again"
            )
        if r["problem"]:
            say(f"{'':12} {r['problem']}")
        if r["installed"] and r["trust"]:
            say(f"{'':12} {r['trust']}")
    last = runtime["last_failure"]
    say(
        f"hook runs (24h): {runtime['runs_24h']} recalls, {runtime['failures_24h']} failures"
        + (f"; last failure {last['time']} {last['agent']} {last['event']}: {last['error']}" if last else "")
    )


@hooks.command("log")
@click.option(
    "--limit", "-n", default=20, show_default=True, type=click.IntRange(min=1), help="How many recent entries."
)
@click.option("json_", "--json", is_flag=True, help="Print the entries as JSON.")
def hooks_log(limit: int, json_: bool) -> None:
    """What the prompt and session-start hooks injected: when, for which agent, session and prompt,
    how big, and which items (ids for `smriti show`).

    \b
    Example:
        smriti hooks log
        smriti hooks log --limit 100 --json
    """
    from smriti.hooks.log import injections

    rows = injections(str(paths.data_dir()), limit)
    if json_:
        emit_json(rows)
        return
    if not rows:
        say("No hook has recalled anything yet.", err=True)
        return
    for r in rows:
        items = ", ".join(r.get("items") or []) or "-"
        say(
            f"{r.get('time')}  {r.get('agent', '?'):12} {r.get('event', '?'):16} {r.get('chars', 0):6} chars  "
            f"session {(r.get('session') or '-')[:12]}  items {items}"
        )
        if r.get("prompt"):
            say(f"    {_short(r['prompt'], 100)}")


@cli.command()
@click.argument("ident", metavar="[SESSION_ID]", required=False)
@click.option("--project", "-P", help="Forget every session of this project.")
@click.option("agent", "--agent", "-a", help="Forget every session of this agent.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before forgetting many sessions.")
@click.option("json_", "--json", is_flag=True, help="Print what was removed as JSON.")
@click.pass_context
def forget(
    ctx: click.Context, ident: str | None, project: str | None, agent: str | None, yes: bool, json_: bool
) -> None:
    """Remove sessions for good: messages, tags, summaries and index documents.

    A tombstone keeps them out of every later ingest. Shared knowledge files are not touched
    (use `smriti unshare`).

    \b
    Example:
        smriti forget 96f77bed
        smriti forget --project secret-client --yes
    """
    from smriti.maintenance import forget as run_forget
    from smriti.search import project_keys

    app = _app(ctx)
    keys = project_keys(app.store, project) if project else None
    if (project or agent) and not yes and not json_ and sys.stdin.isatty():
        n = len(app.store.session_keys(project_keys=keys, agent=agent))
        click.confirm(f"Forget {_count(n, 'session')}?", abort=True)
    result = run_forget(app.store, app.index, session=ident, project_keys=keys, agent=agent)
    if json_:
        emit_json(result)
        return
    say(f"Forgot {_count(result['sessions'], 'session')}.")


@cli.command()
@click.option("--older-than", "days", required=True, type=click.IntRange(min=0), help="Age in days.")
@click.option("--kind", type=click.Choice(["tool-output"]), help="Only drop this kind of content (keep the sessions).")
@click.option("json_", "--json", is_flag=True, help="Print what was removed as JSON.")
@click.pass_context
def prune(ctx: click.Context, days: int, kind: str | None, json_: bool) -> None:
    """Retention: remove sessions older than N days (or only their tool output).

    \b
    Example:
        smriti prune --older-than 180
        smriti prune --older-than 30 --kind tool-output
    """
    from smriti.maintenance import prune as run_prune

    app = _app(ctx)
    result = run_prune(app.store, app.index, older_than_days=days, kind=kind)
    if json_:
        emit_json(result)
        return
    if kind:
        say(f"Removed {_count(result['messages_removed'], 'tool output')} older than {result['cutoff']}.")
    else:
        say(f"Removed {_count(result['sessions_removed'], 'session')} older than {result['cutoff']}.")


@cli.command()
@click.option(
    "--repair", is_flag=True, help="Fix what can be fixed (reindex, drop orphans, vacuum, set a broken store aside)."
)
@click.option("json_", "--json", is_flag=True, help="Print the checks as JSON.")
@click.pass_context
def doctor(ctx: click.Context, repair: bool, json_: bool) -> None:
    """Check the store, the index against the store, orphaned data, ingest state and the
    agents' hook installations; with --repair, fix what can be fixed and say what was done.

    --repair never rewrites an agent's settings: it names the `smriti hooks install` to run.
    Exit 1 when a problem remains.

    \b
    Example:
        smriti doctor
        smriti doctor --repair --json
    """
    from smriti.maintenance import doctor_all
    from smriti.render import print_doctor

    app = _app(ctx)
    report = doctor_all(app, repair=repair)
    if json_:
        emit_json(report.to_json())
    else:
        print_doctor(report.to_json(), repair)
    if report.problems:
        ctx.exit(1)


@cli.command("mcp")
@click.option(
    "--project",
    "-P",
    help="The asking project of a recall that names none (default: the repo around the working directory).",
)
def mcp_cmd(project: str | None) -> None:
    """Serve search, recall and show to agents over MCP (stdio; needs `pip install 'smriti[mcp]'`).

    Agents start it themselves; docs/mcp.md has the registration for Claude Code, Codex, Cursor,
    Gemini CLI and VS Code Copilot.

    \b
    Example:
        claude mcp add smriti -- smriti mcp
        smriti mcp --project ~/src/payments-api
    """
    from smriti.mcp_server import INSTALL_HINT, sdk_available, serve

    if not sdk_available():
        raise click.ClickException(INSTALL_HINT)
    serve(project)


@cli.group(cls=SmritiGroup)
def index() -> None:
    """Manage the search index (derived from the store; always safe to rebuild)."""


@index.command("rebuild")
@click.pass_context
def index_rebuild(ctx: click.Context) -> None:
    """Throw the index away and rebuild it from the store.

    \b
    Example:
        smriti index rebuild
    """
    app = _app(ctx)
    n = app.index.rebuild(app.store)
    say(f"Indexed {_count(n or 0, 'message')}.")


@index.command("path")
def index_path() -> None:
    """Print the index folder.

    \b
    Example:
        smriti index path
    """
    say(str(paths.index_dir()))


@cli.command("path")
@click.option("all_", "--all", is_flag=True, help="Every file and folder smriti uses, one per line.")
@click.option("json_", "--json", is_flag=True, help="Every location as JSON.")
def path_cmd(all_: bool, json_: bool) -> None:
    """Print smriti's data folder (set SMRITI_HOME to move it), or with --all where everything lives.

    \b
    Example:
        smriti path
        cd "$(smriti path)"
        smriti path --all
        smriti path --json
    """
    from smriti.status import locations

    if not (all_ or json_):
        say(str(paths.data_dir()))
        return
    where = locations(paths.data_dir())
    if json_:
        emit_json(where)
        return
    width = max(map(len, where))
    for name, value in where.items():
        say(f"{name:{width}}  {value if value is not None else '-'}")


@cli.command()
@click.option("json_", "--json", is_flag=True, help="Print adapters as JSON.")
@click.pass_context
def adapters(ctx: click.Context, json_: bool) -> None:
    """List the agent adapters, where each reads its logs from, and how many sessions it finds.

    Every default location is listed, found on this machine or not (the missing ones marked);
    `[roots]` in config.toml adds more, and `smriti ingest --path` reads any file or folder.

    \b
    Example:
        smriti adapters
        smriti adapters --json
    """
    from smriti.status import adapter_report

    app = _app(ctx)
    rows = adapter_report(app)
    for warning in app.registry.warnings:
        say(f"warning: {warning}", err=True)
    if json_:
        emit_json(rows)
        return
    home = str(paths.home()).rstrip("/") + "/"
    for r in rows:
        say(f"{r['name']:14} {r['origin']:10} {_count(r['sessions_found'], 'session'):>14}")
        for root in r["default_roots"]:
            shown = "~/" + root[len(home) :] if root.startswith(home) else root  # --json has it in full
            say(f"    {shown}" + ("" if root in r["existing_roots"] else "  (not found)"))
        if r["project_files"]:
            say(f"    {', '.join(r['project_files'])} at the root of every project smriti knows")
        if not r["default_roots"] and not r["project_files"]:
            say("    only what `smriti ingest --path` is given")
