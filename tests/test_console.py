"""The console script: hooks take the lean path; every command documents itself with an example."""

from __future__ import annotations

import json

import click
import pytest
from conftest import invoke, lean_run, run_smriti

from smriti.cli import cli


def test_hook_path_imports_nothing_heavy() -> None:
    heavy = ("click", "frontmatter", "tantivy", "rapidfuzz", "yaml")
    stdin = json.dumps({"prompt": "hello", "session_id": "s"})
    assert lean_run(["hook", "claude-code", "UserPromptSubmit"], heavy, stdin) == {"code": 0, "heavy": []}


def test_hook_never_breaks_the_agent_even_with_garbage_stdin() -> None:
    proc = run_smriti("hook", "claude-code", "UserPromptSubmit", stdin="\x00not json{{{")
    assert proc.returncode == 0


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    out = []
    for name, cmd in group.commands.items():
        out.append(((*prefix, name), cmd))
        if isinstance(cmd, click.Group):
            out.extend(_commands(cmd, (*prefix, name)))
    return out


@pytest.mark.parametrize("path,cmd", _commands(cli), ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_every_command_has_help_with_an_example(runner, path, cmd) -> None:
    result = invoke(runner, *path, "--help")
    if not isinstance(cmd, click.Group):
        assert "Example:" in result.stdout, f"`smriti {' '.join(path)} --help` has no example"


def test_usage_errors_exit_2(runner) -> None:
    assert invoke(runner, "search", expect=2).exit_code == 2
    assert invoke(runner, "sessions", "--limit", "0", expect=2).exit_code == 2


def test_version(runner) -> None:
    assert "version" in invoke(runner, "--version").stdout
