"""`smriti hook AGENT EVENT`: the lean entry point agents call on every prompt.

Imported by the console dispatcher before click or anything heavy. A hook never breaks the
agent: whatever happens, it exits 0 quickly. Recording and recall arrive with the hooks issue;
until then every hook is a fast no-op that prints nothing (which every agent accepts).
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    try:
        if sys.stdin is not None and not sys.stdin.isatty():
            sys.stdin.read()  # drain, so the agent's write never blocks on a full pipe
    except Exception:
        pass
    return 0
