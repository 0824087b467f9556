"""Helpers for the hostile-environment tests: the real CLI under a hard timeout, without the
privileges that would let it write where a user could not, and a read-only tree."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

# A case that hangs must fail, not stall the suite; generous, so a loaded machine never trips it.
HARD_TIMEOUT = 90


def smriti_cmd() -> list[str]:
    exe = shutil.which("smriti", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "smriti"]


def unprivileged() -> list[str]:
    """A command prefix under which file permissions hold: root ignores them (CAP_DAC_OVERRIDE),
    so as root the command runs without that capability (util-linux `setpriv`)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permissions cannot be made to hold")
    return [setpriv, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]


def run(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None, prefix: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`smriti ARGS` in a subprocess that is killed (and the test failed) past HARD_TIMEOUT."""
    return subprocess.run(
        [*(prefix or []), *smriti_cmd(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=HARD_TIMEOUT,
    )


@contextmanager
def read_only(*roots: Path) -> Iterator[None]:
    """Every file and folder under `roots` without write permission, restored afterwards."""
    paths = [p for root in roots for p in [root, *root.rglob("*")] if not p.is_symlink()]
    modes = {p: p.stat().st_mode for p in paths}
    for p in sorted(paths, key=lambda p: -len(p.parts)):
        p.chmod(stat.S_IMODE(modes[p]) & ~0o222)
    try:
        yield
    finally:
        for p in sorted(paths, key=lambda p: len(p.parts)):
            p.chmod(stat.S_IMODE(modes[p]))
