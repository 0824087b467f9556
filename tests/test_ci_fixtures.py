"""tests/conftest.py: in CI a missing shared-fixtures folder fails the run instead of skipping ~150 tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _collect(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """Collect one small test file in a child pytest, with the shared fixtures pointed at nothing."""
    base = {k: v for k, v in os.environ.items() if k != "CI"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests/test_leanjson.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, "SMRITI_SHARED_FIXTURES": str(tmp_path / "no-fixtures"), **env},
    )


def test_ci_without_the_shared_fixtures_fails(tmp_path: Path) -> None:
    proc = _collect(tmp_path, CI="true")
    assert proc.returncode != 0
    assert "shared fixtures are missing" in proc.stdout + proc.stderr


def test_a_local_run_without_them_still_collects(tmp_path: Path) -> None:
    proc = _collect(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
