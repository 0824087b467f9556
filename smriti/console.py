"""The `smriti` console script: a tiny dispatcher.

`smriti hook AGENT EVENT` runs on every prompt of every agent, so it goes to lean code before
click, frontmatter or anything heavy is imported. Everything else goes to the click CLI.
"""

from __future__ import annotations

import sys


def main() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["hook"]:
        from smriti.hooks.run import main as hook_main

        sys.exit(hook_main(argv[1:]))
    from smriti.untrusted import guard_terminal

    if argv[:1] == ["search"]:
        # The usual search command lines are answered without click (smriti.searchcmd); what
        # that path declines, before printing anything, goes to the click CLI below.
        guard_terminal()
        from smriti.searchcmd import run

        code = run(argv[1:])
        if code is not None:
            sys.exit(code)

    # Titles, bodies and paths come from synced files and agents' logs: on a terminal, their
    # control characters and escape sequences are dropped, whatever command prints them.
    guard_terminal()
    from smriti.cli import cli

    cli(prog_name="smriti")


if __name__ == "__main__":
    main()
