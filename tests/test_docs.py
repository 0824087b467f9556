"""The docs in the repository: the CLI reference matches the CLI, and every doc the code points to exists."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_cli_reference", REPO / "scripts" / "gen_cli_reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_is_up_to_date() -> None:
    expected = _generator().render()
    current = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    assert current == expected, "docs/cli.md is out of date: run `python scripts/gen_cli_reference.py`"


def test_cli_reference_names_every_command_and_option() -> None:
    import click

    from smriti.cli import cli

    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")

    def walk(cmd: click.Command, ctx: click.Context) -> None:
        assert f"## `{ctx.command_path}`" in text
        for param in cmd.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert any(opt in text for opt in param.opts), (ctx.command_path, param.opts)
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                assert sub is not None
                walk(sub, click.Context(sub, info_name=name, parent=ctx))

    walk(cli, click.Context(cli, info_name="smriti"))


def test_every_doc_the_code_points_to_exists() -> None:
    pointed: dict[str, set[str]] = {}
    for folder in ("smriti", "adapters", "scripts"):
        for path in (REPO / folder).rglob("*.py"):
            # "pi's own docs/session.md" is the agent's documentation, not ours.
            for name in re.findall(r"(?<!own )\bdocs/([\w.-]+\.md)\b", path.read_text(encoding="utf-8")):
                pointed.setdefault(name, set()).add(str(path.relative_to(REPO)))
    assert pointed, "no module points to docs/ any more: drop this test"
    missing = {name: sorted(users) for name, users in pointed.items() if not (REPO / "docs" / name).is_file()}
    assert missing == {}
