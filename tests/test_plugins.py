"""Third-party adapters through the real entry-point mechanism (a dist-info on sys.path)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from conftest import EXAMPLES, run_smriti

EXAMPLE = EXAMPLES / "smriti-adapter-example"


def fake_distribution(site: Path, name: str, entry_points: dict[str, str], module: Path | None = None) -> None:
    """What `pip install` leaves behind that matters to importlib.metadata: a dist-info folder."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    lines = ["[smriti.adapters]", *(f"{k} = {v}" for k, v in entry_points.items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    if module is not None:
        shutil.copy(module, site / module.name)


def env_with(site: Path) -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))}


def test_example_adapter_package_registers_and_ingests(tmp_path: Path) -> None:
    site = tmp_path / "site"
    fake_distribution(
        site,
        "smriti-adapter-example",
        {"example-notes": "smriti_adapter_example:NotesAdapter"},
        EXAMPLE / "smriti_adapter_example.py",
    )
    env = env_with(site)
    listed = json.loads(run_smriti("adapters", "--json", env=env).stdout)
    example = next(a for a in listed if a["name"] == "example-notes")
    assert example["origin"] == "smriti-adapter-example"
    assert {"claude-code", "codex"} <= {a["name"] for a in listed}
    out = run_smriti("ingest", "--path", str(EXAMPLE / "sample.chat.txt"), "--json", env=env)  # detected
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["messages_added"] == 5
    hits = json.loads(run_smriti("search", "crontab twice", "--agent", "example-notes", "--json", env=env).stdout)
    assert hits[0]["agent"] == "example-notes" and hits[0]["project"] == "notes-app"


def test_a_broken_adapter_is_a_warning_naming_it_and_the_rest_still_run(tmp_path: Path) -> None:
    site = tmp_path / "site"
    broken = tmp_path / "broken_adapter.py"
    broken.write_text("raise RuntimeError('this plugin is broken')\n")
    fake_distribution(site, "smriti-broken", {"broken-agent": "broken_adapter:Adapter"}, broken)
    fake_distribution(
        site,
        "smriti-misnamed",
        {"other-name": "smriti_adapter_example:NotesAdapter"},
        EXAMPLE / "smriti_adapter_example.py",
    )
    proc = run_smriti("adapters", "--json", env=env_with(site))
    assert proc.returncode == 0
    assert (
        "adapter 'broken-agent' from smriti-broken failed to load: RuntimeError: this plugin is broken" in proc.stderr
    )
    assert "adapter 'other-name' from smriti-misnamed ignored: its name 'example-notes' differs" in proc.stderr
    names = {a["name"] for a in json.loads(proc.stdout)}
    assert "claude-code" in names and "broken-agent" not in names and "other-name" not in names
    ingest = run_smriti("ingest", "--path", str(EXAMPLES / "claude-code"), "--json", env=env_with(site))
    assert ingest.returncode == 0 and json.loads(ingest.stdout)["messages_added"] == 25


def test_adapters_json_counts_sessions_in_default_roots(runner, isolated_env: Path) -> None:
    from conftest import claude_tree, invoke, invoke_json

    claude_tree(isolated_env, sorted((EXAMPLES / "claude-code").rglob("*.jsonl")))
    rows = {r["name"]: r for r in invoke_json(runner, "adapters")}
    assert set(rows["claude-code"]) == {
        "name",
        "origin",
        "default_roots",
        "existing_roots",
        "project_files",
        "sources_found",
        "sessions_found",
    }
    assert (rows["claude-code"]["sessions_found"], rows["claude-code"]["origin"]) == (3, "builtin")
    claude_roots = [str(isolated_env / ".claude" / "projects"), str(isolated_env / ".config" / "claude" / "projects")]
    assert rows["claude-code"]["default_roots"] == claude_roots
    assert rows["claude-code"]["existing_roots"] == claude_roots[:1]
    # an agent with nothing on this machine still says where it would read from (issue #16)
    codex = [str(isolated_env / ".codex" / "sessions"), str(isolated_env / ".codex" / "archived_sessions")]
    assert (rows["codex"]["default_roots"], rows["codex"]["existing_roots"]) == (codex, [])
    assert rows["codex"]["sessions_found"] == 0
    assert all(r["default_roots"] or r["project_files"] for name, r in rows.items() if name != "generic")
    assert rows["aider"]["project_files"] == [".aider.chat.history.md"]
    text = invoke(runner, "adapters").stdout
    assert "    ~/.codex/sessions  (not found)\n" in text and "    ~/.claude/projects\n" in text
    invoke_json(runner, "ingest")
    assert {r["name"]: r for r in invoke_json(runner, "adapters")}["claude-code"]["sessions_found"] == 3


def test_builtin_names_are_the_registered_builtins() -> None:
    # The CLI accepts these `--agent` values without loading the registry: they must be exactly
    # the adapters pyproject.toml registers as built-ins.
    from smriti.adapters import BUILTIN_NAMES, load_registry

    registry = load_registry()
    assert BUILTIN_NAMES == {name for name, reg in registry.adapters.items() if reg.origin == "builtin"}


def test_search_loads_no_adapter_ingest_or_recall_and_still_rejects_an_unknown_agent(tmp_path: Path) -> None:
    # `smriti search` is a process a person waits for: checking `--agent codex` must not import
    # every adapter (nor the ingest pipeline), and search does not need recall's vocabularies.
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from smriti.console import main\n"
        "sys.argv = ['smriti', *sys.argv[1:]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "heavy = ('smriti.adapters.', 'smriti.ingest', 'smriti.digest', 'smriti.recall')\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(heavy))\n"
        "print('LOADED', loaded, file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    env = {**os.environ, "SMRITI_HOME": str(tmp_path / "home")}
    ok = subprocess.run(
        [sys.executable, "-c", probe, "search", "anything", "--agent", "codex", "--json"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert ok.returncode == 0, ok.stderr
    assert "LOADED []" in ok.stderr
    bad = subprocess.run(
        [sys.executable, "-c", probe, "search", "anything", "--agent", "nope"], capture_output=True, text=True, env=env
    )
    # an unknown agent is a usage error (exit 2) that names the supported ones
    assert bad.returncode == 2 and "unknown agent 'nope'" in bad.stderr and "codex" in bad.stderr
