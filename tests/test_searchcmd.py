"""`smriti search` without click (smriti.searchcmd): the same bytes and exit codes as the click
command for every command line it answers, and everything else left to click untouched."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import click
import pytest
from conftest import EXAMPLES, claude_code_line, invoke_json, lean_run, run_smriti
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti import searchcmd
from smriti.cli import cli
from smriti.index import Index
from smriti.store import Store
from smriti.team.knowledge import KnowledgeItem

line = claude_code_line  # one Claude Code transcript line (conftest)


HOSTILE_PROMPT = "fix the \x1b[31mzorblax\x1b[0m pool \u202ecrash\r now \x9b2J and \x1b]0;pwned\x07 too"


@pytest.fixture
def store(runner, tmp_path: Path, data_dir: Path) -> Path:
    """The examples, a session whose words carry escape codes, and three team items (one with a
    hostile title and author, one with git's author only, one with neither)."""
    invoke_json(runner, "ingest", "--path", str(EXAMPLES / "claude-code"))
    src = tmp_path / "hostile"
    src.mkdir()
    (src / "h.jsonl").write_text(
        line("user", "u1", HOSTILE_PROMPT, session="h-1")
        + line("assistant", "a1", "The zorblax pool \x1b[2J was fixed \u200bhere", session="h-1", parent="u1")
    )
    invoke_json(runner, "ingest", "--path", str(src))
    items = [
        (
            KnowledgeItem(
                id="3f9a2c1e5b7d4a60",
                title="Zorblax \x1b[2J pool \u202e retry" + " long" * 30,
                category="bug/fix",
                author="mal\x1b[31mlory",
                created="2026-11-20T10:31:00Z",
                body="The zorblax pool body \x1b]0;x\x07 end\n",
            ),
            "Tess Team <tess@example.com>",
        ),
        (
            KnowledgeItem(
                id="0000000000000002",
                title="Connection pool sizing",
                category="topic",
                created="2026-11-21T10:31:00Z",
                body="Size the connection pool to the workers.\n",
            ),
            "Git Author <g@example.com>",
        ),
        (
            KnowledgeItem(
                id="0000000000000003",
                title="Pool notes",
                category="topic",
                author="alice",
                created="2026-11-22T10:31:00Z",
                body="Pool notes: connection pool exhausted again.\n",
            ),
            None,
        ),
    ]
    with Store(data_dir / "smriti.db") as s:
        for n, (item, committed_by) in enumerate(items):
            s.upsert_knowledge(item, origin="sync", repo="r", path=f"k/{n}.md", blob=f"b{n}", committed_by=committed_by)
        Index(data_dir / "index").sync(s)
    return data_dir


class _Tty(io.TextIOWrapper):
    def isatty(self) -> bool:
        return True


def lean(argv: list[str], monkeypatch: pytest.MonkeyPatch, tty: bool = False) -> tuple[int | None, bytes, bytes]:
    out, err = io.BytesIO(), io.BytesIO()
    wrap = _Tty if tty else io.TextIOWrapper
    stdout, stderr = wrap(out, encoding="utf-8"), io.TextIOWrapper(err, encoding="utf-8")
    with monkeypatch.context() as m:
        m.setattr(sys, "stdout", stdout)
        m.setattr(sys, "stderr", stderr)
        code = searchcmd.run(argv)
        stdout.flush()
        stderr.flush()
    return code, out.getvalue(), err.getvalue()


def clicked(runner, argv: list[str], color: bool = False) -> tuple[int, bytes, bytes]:
    result = runner.invoke(cli, ["search", *argv], color=color)
    return result.exit_code, result.stdout_bytes, result.stderr_bytes


ANSWERED = [
    ["zorblax"],
    ["zorblax", "--json"],
    ["pool"],
    ["pool", "--json"],
    ["connection pool exhausted", "-n", "1"],
    ["pool", "--limit=2", "--json"],
    ["pool", "-n3"],
    ["pool", "-n", "2", "-n", "1"],  # the last one counts, as in click
    ["--json", "pool", "--limit", "5"],  # options before the query
    ["connection pool", "--project", "payments-api"],
    ["pool", "-P", "payments-api", "--json"],
    ["pool", "-Ppayments-api"],
    ["pool", "--project", ""],
    ["pool", "--agent", "claude-code"],
    ["pool", "-a", "claude-code", "-a", "codex", "--json"],
    ["pool", "--kind", "knowledge"],
    ["pool", "--kind", "knowledge", "--json"],
    ["pool", "--kind=session", "--json"],
    ["pool", "--since", "2026-01-01"],
    ["pool", "--since", "7d", "--json"],
    ["pool", "--since", "2030-01-01"],
    ["pool", "--file", "src/db/pool.py", "--json"],
    ["pool", "--category", "bug/fix"],
    ["pool", "-c", "topic", "--json"],
    ["nothing-matches-qqq"],
    ["nothing-matches-qqq", "--json"],
    ["", "--json"],
    ["zorblax", "--kind", "knowledge", "--agent", "claude-code", "--since", "2020-01-01", "--limit", "3"],
]


@pytest.mark.parametrize("argv", ANSWERED, ids=lambda a: " ".join(a) or "empty")
def test_the_lean_path_prints_what_click_prints(store: Path, runner, monkeypatch, argv: list[str]) -> None:
    code, out, err = lean(argv, monkeypatch)
    assert code == 0, "declined: this command line was meant to be answered without click"
    assert (code, out, err) == clicked(runner, argv)


def test_the_table_has_hits_of_both_kinds_and_hostile_text(store: Path, monkeypatch) -> None:
    """The comparisons above are not vacuous: sessions and knowledge items, a byline, and escape
    codes in what is found (dropped from the text output, kept in JSON)."""
    hits = json.loads(lean(["zorblax", "--json"], monkeypatch)[1])
    assert {h["kind"] for h in hits} == {"session", "knowledge"}
    assert any("\x1b" in (h["title"] or "") + h["snippet"] for h in hits)
    _, text, _ = lean(["zorblax"], monkeypatch)
    assert b"zorblax" in text.lower() and b"\x1b" not in text and "\u202e".encode() not in text and b"\r" not in text
    assert "team · Tess Team <tess@example.com> (the file says mallory)".encode() in text
    _, text, _ = lean(["connection pool", "--kind", "knowledge"], monkeypatch)
    assert b"team \xc2\xb7 Git Author <g@example.com>" in text and b"alice (unverified)" in text


@pytest.mark.parametrize("argv", [["zorblax"], ["pool", "--kind", "knowledge", "-n", "2"], ["nothing-qqq"]])
def test_on_a_terminal_the_id_is_coloured_as_click_colours_it(store: Path, runner, monkeypatch, argv) -> None:
    code, out, err = lean(argv, monkeypatch, tty=True)
    assert code == 0 and (code, out, err) == clicked(runner, argv, color=True)
    assert argv == ["nothing-qqq"] or b"\x1b[33m" in out


DECLINED = [
    [],
    ["--help"],
    ["pool", "-h"],
    ["a", "b"],
    ["pool", "--limit", "0"],
    ["pool", "--limit", "x"],
    ["pool", "-n", "+3"],
    ["pool", "--limit"],
    ["pool", "--kind", "bad"],
    ["pool", "--bogus"],
    ["pool", "-x"],
    ["pool", "--json=1"],
    ["pool", "--agent", "nope"],
    ["pool", "--category", "no-such-category"],
    ["pool", "--since", "a while ago"],
    ["pool", "--kind", "knowledge", "--file", "x.py"],
    ["pool", "--project", "-x"],
    ["--", "-pool"],
    ["-"],
]


@pytest.mark.parametrize("argv", DECLINED, ids=lambda a: " ".join(a) or "empty")
def test_what_the_lean_path_declines_it_leaves_to_click_having_printed_nothing(
    store: Path, monkeypatch, argv: list[str]
) -> None:
    assert lean(argv, monkeypatch) == (None, b"", b"")


@pytest.mark.parametrize(
    "argv",
    [
        ["pool", "--limit", "0"],
        ["pool", "--kind", "bad"],
        ["pool", "--agent", "nope"],
        ["pool", "--since", "a while ago"],
        ["pool", "-n", "1", "--json"],
        ["zorblax"],
    ],
)
def test_the_console_script_answers_as_the_click_cli(store: Path, runner, argv: list[str]) -> None:
    proc = run_smriti("search", *argv)
    result = runner.invoke(cli, ["search", *argv], prog_name="smriti")
    assert (proc.returncode, proc.stdout, proc.stderr) == (result.exit_code, result.stdout, result.stderr)


@pytest.mark.parametrize("argv", [["pool", "--json"], ["zorblax", "-a", "claude-code", "-c", "bug/fix"]])
def test_the_lean_path_imports_neither_click_nor_frontmatter(store: Path, argv: list[str]) -> None:
    heavy = ("click", "frontmatter", "rapidfuzz", "yaml", "smriti.cli")
    assert lean_run(["search", *argv], heavy) == {"code": 0, "heavy": []}


# The search in a fresh interpreter without `site` (the test venv's editable-install hook imports
# pathlib and re itself, as no installed smriti does), the tree and its site-packages on the path;
# then the modules of STARTUP_COSTS it imported. Nothing here imports any of them itself.
_BARE_RUN = """
import os, sys
root, site_dirs, *argv = sys.argv[1:]
sys.path[:0] = [root, *site_dirs.split(os.pathsep)]
sys.argv = ["smriti", *argv]
from smriti.console import main
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code
costs = ("re", "enum", "json", "pathlib", "urllib.parse", "typing", "dataclasses", "platformdirs")
print(code, *sorted(m for m in costs if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "argv",
    [["pool", "--json"], ["zorblax"], ["zorblax", "--json", "-a", "claude-code", "-n", "3"], ["nothingmatchesthis"]],
)
def test_the_lean_path_imports_neither_re_nor_pathlib_nor_json(store: Path, argv: list[str]) -> None:
    """`re` (with `enum`), `json` (it imports `re`) and `pathlib` (`re`, `urllib.parse`) cost a search
    process ~15 ms: the usual search, text or JSON, with hostile text to clean, imports none."""
    import subprocess
    import sysconfig

    site_dirs = os.pathsep.join(dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib")))
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.run(
        [sys.executable, "-S", "-c", _BARE_RUN, root, site_dirs, "search", *argv],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.stdout or "No matches." in proc.stderr
    assert proc.stderr.splitlines()[-1:] == ["0"], proc.stderr


def test_the_option_table_is_the_click_commands() -> None:
    """searchcmd.OPTIONS and the click command declare the same options, with the same values."""
    from smriti.search import KINDS

    params = {p.name: p for p in cli.commands["search"].params}
    query = params.pop("query")
    assert isinstance(query, click.Argument) and query.required and query.nargs == 1
    assert sorted(params) == sorted(name for name, _, _ in searchcmd.OPTIONS)
    for name, opts, takes in searchcmd.OPTIONS:
        p = params[name]
        assert isinstance(p, click.Option)
        assert (tuple(p.opts), tuple(p.secondary_opts)) == (opts, ()), name
        assert p.multiple == (takes == "texts") and p.is_flag == (takes == "flag") and not p.required, name
        if takes == "count":
            assert isinstance(p.type, click.IntRange) and (p.type.min, p.type.max) == (1, None)
            assert p.default == searchcmd.LIMIT_DEFAULT
        elif takes == "kind":
            assert isinstance(p.type, click.Choice) and tuple(p.type.choices) == KINDS
        elif takes in ("text", "texts"):
            assert p.type is click.STRING, name


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [o for _, opts, _ in searchcmd.OPTIONS for o in opts] + ["-h", "--", "-", "--kind=session", "-n5"]
            ),
            st.sampled_from(["pool", "", "5", "0", "session", "knowledge", "-x", "codex", "2026-01-01"]),
        ),
        max_size=6,
    )
)
def test_the_parser_agrees_with_clicks_on_whatever_it_accepts(argv: list[str]) -> None:
    """Any command line the lean parser accepts, click parses to the same values."""
    parsed = searchcmd.parse(argv)
    if parsed is None:
        return
    ctx = cli.commands["search"].make_context("search", list(argv), parent=click.Context(cli))
    assert ctx.params == {**parsed, "agents": parsed["agents"], "files": parsed["files"]}


@pytest.mark.parametrize(
    ("setup", "code", "out"),
    [
        ("", 3, "answer\n"),  # nothing left for the teardown: ends at once, with the output flushed
        ("import atexit; atexit.register(lambda: print('atexit ran'))", 5, "answer\natexit ran\n"),
        ("import threading", 5, "answer\n"),  # a thread might need waiting for: the usual exit
    ],
)
def test_exit_now_ends_the_process_only_when_the_usual_exit_has_nothing_to_do(setup: str, code: int, out: str) -> None:
    import subprocess

    # Without `site`, as the installed script starts: an interpreter's own site hooks (an editable
    # install's, a sitecustomize) may import threading or register atexit callbacks themselves.
    root = str(Path(__file__).resolve().parent.parent)
    script = (
        f"import sys\nsys.path.insert(0, {root!r})\n{setup}\n"
        "from smriti.console import exit_now\nprint('answer')\nexit_now(3)\nsys.exit(5)\n"
    )
    proc = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (code, out)
