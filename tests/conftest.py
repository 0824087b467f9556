from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
# The real agents' sample sessions, beside the checkout (SMRITI_SHARED_FIXTURES points elsewhere).
SHARED_FIXTURES = Path(os.environ.get("SMRITI_SHARED_FIXTURES") or REPO.parent / "shared" / "fixtures")
EXAMPLES = REPO / "examples"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a developer's machine the conformance tests skip without the shared fixtures; in CI a
    missing folder is a broken checkout, and ~150 skipped tests would pass it as green. (A hook
    that runs after collection: this conftest is not loaded yet when the session starts.)"""
    in_ci = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
    if in_ci and not SHARED_FIXTURES.is_dir():
        pytest.exit(
            f"CI is set and the shared fixtures are missing ({SHARED_FIXTURES}): check them out beside "
            "the repository or point SMRITI_SHARED_FIXTURES at them",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


# Every variable an adapter reads to find an agent's logs: a test machine's own must not leak in.
AGENT_ENV_VARS = (
    "SMRITI_DISABLE",
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "COPILOT_HOME",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "APPDATA",
    "USERPROFILE",
    "AMP_DATA_DIR",
    "CLINE_DIR",
    "CLINE_DATA_DIR",
    "CONTINUE_GLOBAL_DIR",
    "AIDER_CHAT_HISTORY_FILE",
    "PI_CODING_AGENT_DIR",
)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test may touch the real home or data dir."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path / "data"))
    # A prompt hook starts a warm recall server for its data dir, which lives on after the test:
    # idle for a minute, not the default half hour, it does not outlive the run by long.
    monkeypatch.setenv("SMRITI_HOOK_SERVER_IDLE", "60")
    for var in AGENT_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, *args: str, expect: int | None = 0):
    from smriti.cli import cli

    result = runner.invoke(cli, list(args), catch_exceptions=False)
    if expect is not None:
        assert result.exit_code == expect, (result.exit_code, result.stdout, result.stderr)
    return result


def invoke_json(runner: CliRunner, *args: str, expect: int | None = 0):
    result = invoke(runner, *args, "--json", expect=expect)
    return json.loads(result.stdout)


def run_smriti(*args: str, stdin: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real console script in a subprocess (falls back to `python -m smriti`)."""
    exe = shutil.which("smriti", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "smriti"]
    return subprocess.run(
        [*cmd, *args], input=stdin, capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=120
    )


def claude_tree(home: Path, sources: list[Path]) -> Path:
    """Lay files out like ~/.claude/projects/<slug>/<file> on a real machine."""
    root = home / ".claude" / "projects" / "-home-dev-proj"
    root.mkdir(parents=True, exist_ok=True)
    for src in sources:
        shutil.copy(src, root / src.name)
    return root


def claude_code_line(
    kind: str,
    uuid: str,
    text: str | list[dict[str, object]],
    session: str = "s-1",
    parent: str | None = None,
    cwd: str | None = "/w/proj",
) -> str:
    """One Claude Code transcript line (a user prompt or an assistant text reply), as the CLI's
    tests write their small transcripts; `text` may also be a list of content blocks (tool_use,
    tool_result)."""
    base: dict[str, object] = {
        "parentUuid": parent,
        "isSidechain": False,
        "cwd": cwd,
        "sessionId": session,
        "version": "2.1.40",
        "uuid": uuid,
        "timestamp": "2026-11-01T10:00:00.000Z",
        "type": kind,
    }
    if kind == "user":
        base["message"] = {"role": "user", "content": text}
    else:
        content = [{"type": "text", "text": text}] if isinstance(text, str) else text
        base["message"] = {"id": "msg_" + uuid, "role": "assistant", "model": "claude-x", "content": content}
    return json.dumps(base) + "\n"


_LEAN_RUN = """
import io, json, sys
argv, stdin, heavy = json.loads(sys.argv[1])
sys.argv = ["smriti", *argv]
if stdin is not None:
    sys.stdin = io.StringIO(stdin)
from smriti.console import main
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "heavy": sorted(m for m in heavy if m in sys.modules)}), file=sys.stderr)
"""


def lean_run(argv: list[str], heavy: tuple[str, ...], stdin: str | None = None) -> dict:
    """Run `smriti ARGV` through the console dispatcher in a fresh interpreter: its exit code and
    which of the `heavy` modules it imported (a lean path must import none)."""
    proc = subprocess.run(
        [sys.executable, "-c", _LEAN_RUN, json.dumps([argv, stdin, list(heavy)])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return json.loads(proc.stderr.strip().splitlines()[-1])
