"""`smriti search` without click: the console dispatcher's lean path for the common command lines.

A search is a whole process a person waits for (or an agent's tool call); click and the modules
the other commands need cost more than the search itself. `run(argv)` parses the usual forms of
search's options (the same table as the click command: tests/test_searchcmd.py checks that they
agree), runs the same library call, and prints exactly what the click command prints. Anything it
does not handle itself it declines (returns None) *before printing anything*, and the dispatcher
hands the whole command line to the click CLI, unchanged: `--help`, an unknown option, a bad
value, an unknown agent or category, and every error the search raises (the click command runs
it again and reports it with its usual message and exit code).

The text rendering (`text_lines`, `short`, `byline`) is shared with the click CLI.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from smriti.search import SearchHit

# search's options: (parameter name, option strings, what it takes). The click command declares
# the same (smriti.cli.search); a test compares the two. "text": one value; "texts": repeatable;
# "count": an integer >= 1 (default LIMIT_DEFAULT); "kind": one of smriti.search.KINDS; "flag": no value.
OPTIONS = (
    ("project", ("--project", "-P"), "text"),
    ("agents", ("--agent", "-a"), "texts"),
    ("category", ("--category", "-c"), "text"),
    ("since", ("--since",), "text"),
    ("files", ("--file",), "texts"),
    ("limit", ("--limit", "-n"), "count"),
    ("kind", ("--kind",), "kind"),
    ("json_", ("--json",), "flag"),
)
LIMIT_DEFAULT = 10
_BY_OPT = {opt: (name, takes) for name, opts, takes in OPTIONS for opt in opts}


def parse(args: list[str]) -> dict | None:
    """search's arguments (after `search`) as the click command would pass them, or None for any
    command line this parser leaves to click (help, `--`, an unknown option, a value that starts
    with `-`, a missing or extra query, a value click would refuse)."""
    from smriti.search import KINDS

    out: dict = {
        "query": None,
        "project": None,
        "agents": [],
        "category": None,
        "since": None,
        "files": [],
        "limit": LIMIT_DEFAULT,
        "kind": None,
        "json_": False,
    }
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg[:1] != "-" or arg == "-":
            if arg == "-" or out["query"] is not None:
                return None
            out["query"] = arg
            continue
        value: str | None = None
        if arg[:2] == "--":
            opt, eq, attached = arg.partition("=")
            if eq:
                value = attached
        else:
            opt = arg[:2]
            if len(arg) > 2:
                value = arg[2:]
        spec = _BY_OPT.get(opt)
        if spec is None:
            return None
        name, takes = spec
        if takes == "flag":
            if value is not None:
                return None
            out[name] = True
            continue
        if value is None:
            if i >= len(args):
                return None
            value = args[i]
            i += 1
        if value[:1] == "-":
            return None
        if takes == "texts":
            out[name].append(value)
        elif takes == "count":
            if not (value.isascii() and value.isdigit()) or int(value) < 1:
                return None
            out[name] = int(value)
        elif takes == "kind":
            if value not in KINDS:
                return None
            out[name] = value
        else:
            out[name] = value
    if out["query"] is None:
        return None
    out["agents"] = tuple(out["agents"])
    out["files"] = tuple(out["files"])
    return out


def short(text: str | None, width: int) -> str:
    """One line of at most `width` characters, measured without control characters (say drops them)."""
    from smriti.untrusted import printable

    text = " ".join(printable(text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def byline(author: str | None, committed_by: str | None) -> str:
    """Who a team item is by: git's author of its file when sync recorded one, the file's own
    `author` shown as a claim (anyone can write any name in it)."""
    if committed_by:
        claim = f" (the file says {author})" if author and author not in committed_by else ""
        return f"{committed_by}{claim}"
    return f"{author} (unverified)" if author else "?"


def text_lines(hits: list[SearchHit]) -> Iterator[tuple[str | None, str]]:
    """The text output, one (id shown in colour or None, rest of the line) per line."""
    for h in hits:
        when = (h.timestamp or "")[:10]
        who = (
            f"team · {byline(h.author, h.committed_by)}"
            if h.kind == "knowledge" and (h.author or h.committed_by)
            else (h.agent or "-")
        )
        yield h.id, f"  {when}  {who}  {h.project or '-'}  {h.kind}  score {h.score:.2f}"
        if h.title:
            yield None, f"  {short(h.title, 96)}"
        yield None, f"  {h.snippet}"
        yield None, ""


_SCALARS = (str, int, float, type(None))


def json_text(rows: list[dict]) -> str:
    """`json.dumps(rows, indent=2, ensure_ascii=False)` for a list of flat objects (search's hits),
    without importing `json` (it imports `re`: ~8 ms of the process). Each key and value is written
    by `_json`'s encoder, the one `json` uses for them; anything but a flat object of strings,
    numbers and nulls goes to `json` itself. tests/test_searchcmd_json.py holds the two equal."""
    from smriti.hooks.leanjson import dumps

    if not rows:
        return "[]"
    objects = []
    for row in rows:
        if not (type(row) is dict and row and all(type(k) is str and isinstance(v, _SCALARS) for k, v in row.items())):
            import json

            return json.dumps(rows, indent=2, ensure_ascii=False)
        objects.append("  {\n" + ",\n".join(f"    {dumps(k)}: {dumps(v)}" for k, v in row.items()) + "\n  }")
    return "[\n" + ",\n".join(objects) + "\n]"


def _utf8(stream: object) -> bool:
    encoding = str(getattr(stream, "encoding", "") or "").lower().replace("-", "").replace("_", "")
    return encoding == "utf8"


def run(argv: list[str]) -> int | None:
    """`smriti search …` (argv after the command name): its exit code, or None when the click
    CLI is to run it instead (nothing has been printed then)."""
    opts = parse(argv)
    # click re-wraps a stream with an ASCII (or unknown) encoding: leave those to it.
    if opts is None or not (_utf8(sys.stdout) and _utf8(sys.stderr)):
        return None
    try:
        out, err = _answer(opts)
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")  # as click says it
        sys.stderr.flush()
        return 1
    except Exception:
        return None  # click runs it again and reports the error its usual way
    if out is None:
        return None
    try:
        for chunk in out:  # one write and flush per line, as click.echo does (a pipe closed early: exit 1)
            sys.stdout.write(chunk)
            sys.stdout.flush()
        if err:
            sys.stderr.write(err)
            sys.stderr.flush()
    except BrokenPipeError:
        # As click does: a closed pipe (`| head`) is exit 1 without a traceback, and nothing
        # more is written at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


def _answer(opts: dict) -> tuple[list[str] | None, str]:
    """(stdout's lines, stderr) of the search, or (None, "") to leave it to click."""
    from smriti.app import App
    from smriti.search import search as run_search

    app = App()
    try:
        agents = opts["agents"]
        if agents:
            from smriti.adapternames import BUILTIN_NAMES  # not the adapters package: a third of a search

            if not BUILTIN_NAMES.issuperset(agents):
                return None, ""  # a plugin's agent, or an error listing them: the registry's
        if opts["category"] and not app.store.category_known(opts["category"]):
            return None, ""  # maybe the taxonomy not yet written, maybe an error: the full check's
        hits = run_search(
            app.store,
            app.index,
            opts["query"],
            project=opts["project"],
            agents=agents,
            category=opts["category"],
            since=opts["since"],
            files=opts["files"],
            limit=opts["limit"],
            kind=opts["kind"],
        )
        if opts["json_"]:
            # As smriti.cli.emit_json prints it (json.dumps, indent 2, non-ASCII kept).
            return [json_text([h.to_json() for h in hits]) + "\n"], ""
        if not hits:
            return [], "No matches.\n"
        from smriti.untrusted import printable

        # As smriti.cli.say prints it: every part without control characters, the id styled by
        # click.style(fg="yellow") on a terminal (click.echo strips styles from anything else).
        color = sys.stdout.isatty()
        lines = []
        for head, rest in text_lines(hits):
            if head is None:
                lines.append(printable(rest) + "\n")
            else:
                head = printable(head)
                lines.append((f"\x1b[33m{head}\x1b[0m" if color else head) + printable(rest) + "\n")
        return lines, ""
    finally:
        app.close()
