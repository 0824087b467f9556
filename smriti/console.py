"""The `smriti` console script: a tiny dispatcher.

`smriti hook AGENT EVENT` runs on every prompt of every agent, so it goes to lean code before
click, frontmatter or anything heavy is imported. Everything else goes to the click CLI.
"""

from __future__ import annotations

import sys


def main(exit_fast: bool = False) -> None:
    """`exit_fast` (the installed `smriti` script's): a search that answered ends the process
    without the interpreter's teardown, when that has nothing left to do (`exit_now`)."""
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
            if exit_fast:
                exit_now(code)
            sys.exit(code)

    # Titles, bodies and paths come from synced files and agents' logs: on a terminal, their
    # control characters and escape sequences are dropped, whatever command prints them.
    guard_terminal()
    from smriti.cli import cli

    cli(prog_name="smriti")


def exit_now(code: int) -> None:
    """End the process with `code` at once, or return (the caller exits the usual way) when the
    usual exit has work to do. Python's teardown frees every module and object of a process that
    is ending anyway: ~4-6 ms of a `smriti search` (benchmarks/README.md, issue-18i). What it does
    besides is done here or checked: the output is flushed (a pipe closed early shows here and goes
    the usual way), the search has closed the store, and there is no atexit callback (a read-only
    index's shadow copy registers one) nor a thread to wait for."""
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        return
    if "threading" in sys.modules or _callbacks():
        return
    os._exit(code)


def _callbacks() -> int:
    import atexit

    count = getattr(atexit, "_ncallbacks", None)  # CPython's; elsewhere: assume there are some
    return count() if count is not None else 1


if __name__ == "__main__":
    main()
