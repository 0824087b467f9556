"""`smriti hooks install|uninstall|status`: merged into realistic settings files (other hooks,
comments), idempotent, strict where the agent is strict, and uninstalled to the original bytes."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import invoke, run_smriti
from hypothesis import given, settings
from hypothesis import strategies as st

from smriti.hooks import install as hi
from smriti.hooks import jsonc as jc

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
SMRITI = shutil.which("smriti", path=str(Path(sys.executable).parent))

# agent → (fixture with the user's own settings, where it lives under $HOME)
EXISTING = {
    "claude-code": ("claude-settings.json", ".claude/settings.json"),
    "codex": ("codex-hooks.json", ".codex/hooks.json"),
    "gemini": ("gemini-settings.json", ".gemini/settings.json"),
    "cursor": ("cursor-hooks.json", ".cursor/hooks.json"),
    "copilot": ("copilot-lint.json", ".copilot/hooks/lint.json"),  # another hook file in the same folder
    "copilot-cli": ("copilot-cli-audit.json", ".copilot/hooks/audit.json"),
    "cline": ("cline-PreToolUse", "Documents/Cline/Hooks/PreToolUse"),
}


def _place(home: Path, agent: str) -> Path:
    fixture, rel = EXISTING[agent]
    dest = home / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / fixture, dest)
    if agent == "cline":
        dest.chmod(0o755)
    return dest


def _snapshot(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


def smriti(*args: str) -> subprocess.CompletedProcess:
    proc = run_smriti(*args)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.mark.parametrize("agent", list(EXISTING))
def test_install_status_uninstall_round_trip(isolated_env: Path, agent: str) -> None:
    home = isolated_env
    existing = _place(home, agent)
    before = _snapshot(home)
    first = json.loads(smriti("hooks", "install", "--agent", agent, "--json").stdout)[0]
    assert first["changed"]
    target = Path(first["path"])
    after_install = _snapshot(home)
    assert existing.read_bytes() == before[str(existing.relative_to(home))] or target == existing
    # Idempotent: a second install changes nothing.
    second = json.loads(smriti("hooks", "install", "--agent", agent, "--json").stdout)[0]
    assert not second["changed"] and _snapshot(home) == after_install
    status = json.loads(smriti("hooks", "status", "--agent", agent, "--json").stdout)["agents"][0]
    assert status["complete"] and status["command_ok"] and status["commands"] == [shlex.quote(SMRITI)]
    out = smriti("hooks", "uninstall", "--agent", agent).stdout
    assert agent in out
    after = _snapshot(home)
    assert after == before, f"{agent}: settings differ after uninstall"
    status = json.loads(smriti("hooks", "status", "--agent", agent, "--json").stdout)["agents"][0]
    assert status["installed"] == []


def _entries(doc: dict, event: str, shape: str) -> list[dict]:
    items = doc["hooks"].get(event, [])
    return [h for g in items for h in g["hooks"]] if shape == "groups" else items


def test_every_hook_capable_agent_has_one_install_spec_and_one_cli_choice() -> None:
    """protocol.AGENTS is the one list; the install specs and the CLI's --agent choice follow it."""
    from smriti.cli import hooks_install
    from smriti.hooks.protocol import AGENTS

    assert tuple(hi.SPECS) == AGENTS
    assert all(spec.agent == name for name, spec in hi.SPECS.items())
    (agent_option,) = [p for p in hooks_install.params if p.name == "agents"]
    assert tuple(agent_option.type.choices) == AGENTS


# Cline's hooks are executables in a folder, not a JSON file: its own tests follow.
@pytest.mark.parametrize("agent", [a for a in hi.SPECS if hi.SPECS[a].shape != "cline"])
def test_merge_keeps_everything_else_and_writes_the_absolute_path(isolated_env: Path, agent: str) -> None:
    path = _place(isolated_env, agent)
    original = jc.parse(path.read_text()).to_python()
    result = hi.install(agent)
    doc = jc.parse(Path(result["path"]).read_text()).to_python()
    spec = hi.SPECS[agent]
    if Path(result["path"]) == path:
        for key, value in original.items():  # every key of the user's, untouched
            if key != "hooks":
                assert doc[key] == value
        for event, entries in original.get("hooks", {}).items():
            assert doc["hooks"][event][: len(entries)] == entries
    for event, smriti_event, _ in spec.events:
        ours = [h for h in _entries(doc, event, spec.shape) if hi.is_ours(h.get(spec.command_key))]
        assert len(ours) == 1
        cmd = shlex.split(ours[0][spec.command_key])
        assert os.path.isabs(cmd[0]) and cmd[1:] == ["hook", agent, smriti_event]


CODEX_HANDLER_KEYS = {
    "type",
    "command",
    "commandWindows",
    "timeout",
    "timeoutSec",
    "async",
    "statusMessage",
    "additionalContextLimit",
}


def test_codex_hooks_json_has_only_keys_codex_accepts(isolated_env: Path) -> None:
    _place(isolated_env, "codex")
    hi.install("codex")
    doc = json.loads((isolated_env / ".codex" / "hooks.json").read_text())
    assert set(doc) <= {"description", "hooks"}
    for groups in doc["hooks"].values():
        for group in groups:
            assert set(group) <= {"matcher", "hooks"}
            for h in group["hooks"]:
                assert set(h) <= CODEX_HANDLER_KEYS, h
    ends = [g["hooks"][0]["timeout"] for g in doc["hooks"]["SessionEnd"]]
    assert ends == [3]  # Codex caps SessionEnd at 3 s


def test_codex_hooks_kept_in_config_toml_stay_there_with_their_comments(isolated_env: Path) -> None:
    cfg = isolated_env / ".codex" / "config.toml"
    cfg.parent.mkdir(parents=True)
    shutil.copy(FIXTURES / "codex-config.toml", cfg)
    original = cfg.read_text()
    result = hi.install("codex")
    assert result["path"] == str(cfg) and not (isolated_env / ".codex" / "hooks.json").exists()
    text = cfg.read_text()
    assert text.startswith(original)  # comments and everything else byte for byte
    data = tomllib.loads(text)
    assert data["hooks"]["PreToolUse"][0]["matcher"] == "^Bash$"
    assert data["mcp_servers"]["docs"]["args"] == ["-y", "@acme/docs-mcp"]
    assert hi.is_ours(data["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"])
    assert not hi.install("codex")["changed"]
    assert hi.status("codex")["complete"]
    hi.uninstall("codex")
    assert cfg.read_text() == original


def test_jsonc_comments_trailing_commas_tabs_and_crlf(isolated_env: Path) -> None:
    path = isolated_env / ".gemini" / "settings.json"
    path.parent.mkdir(parents=True)
    original = '{\r\n\t// mine\r\n\t"ui": {"theme": "Dracula",},\r\n\t"hooks": {\r\n\t\t/* none yet */\r\n\t},\r\n}\r\n'
    path.write_bytes(original.encode())
    hi.install("gemini")
    text = path.read_bytes().decode()
    assert "\n" not in text.replace("\r\n", "")  # still CRLF only
    assert "\t// mine" in text and "/* none yet */" in text and '"theme": "Dracula",}' in text
    assert "\n\t\t\t{" in text.replace("\r\n", "\n")  # the file's tab indentation
    doc = jc.parse(text).to_python()
    assert [h["name"] for g in doc["hooks"]["BeforeAgent"] for h in g["hooks"]] == ["smriti-recall"]
    hi.uninstall("gemini")
    assert path.read_bytes().decode() == original


def test_no_settings_file_yet(isolated_env: Path) -> None:
    result = hi.install("claude-code")
    path = isolated_env / ".claude" / "settings.json"
    assert result["created"] and result["backup"] is None
    assert json.loads(path.read_text())["hooks"]["UserPromptSubmit"][0]["hooks"][0]["timeout"] == 10
    r = hi.uninstall("claude-code")
    assert r["deleted"] and not path.exists()


def test_cursor_file_without_version_gets_one_and_loses_it_again(isolated_env: Path) -> None:
    path = isolated_env / ".cursor" / "hooks.json"
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "hooks": {}\n}\n')
    hi.install("cursor")
    assert json.loads(path.read_text())["version"] == 1
    # A later edit of the user's means the file is not restored wholesale: the version smriti
    # added still goes, the user's edit stays.
    path.write_text(path.read_text().replace('"hooks": {', '"hooks": {\n    "afterFileEdit": [{"command": "fmt"}],', 1))
    hi.uninstall("cursor")
    assert json.loads(path.read_text()) == {"hooks": {"afterFileEdit": [{"command": "fmt"}]}}


def test_reinstall_with_a_new_smriti_path_replaces_the_entries(isolated_env: Path) -> None:
    _place(isolated_env, "claude-code")
    hi.install("claude-code", command="/old/venv/bin/smriti")
    result = hi.install("claude-code")
    assert {c["action"] for c in result["events"]} == {"updated"}
    doc = json.loads((isolated_env / ".claude" / "settings.json").read_text())
    cmds = [h["command"] for g in doc["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert cmds == ["node ~/.claude/hooks/prompt-audit.js", f"{shlex.quote(SMRITI)} hook claude-code prompt"]
    assert hi.status("claude-code")["command_ok"]
    hi.uninstall("claude-code")
    assert (isolated_env / ".claude" / "settings.json").read_bytes() == (FIXTURES / "claude-settings.json").read_bytes()


def test_user_edits_after_install_survive_uninstall(isolated_env: Path) -> None:
    path = _place(isolated_env, "claude-code")
    hi.install("claude-code")
    doc_text = path.read_text().replace('"model": "opus"', '"model": "sonnet"')
    path.write_text(doc_text)
    result = hi.uninstall("claude-code")
    assert result["changed"] and not result["restored"] and result["backup"]
    expected = (FIXTURES / "claude-settings.json").read_text().replace('"model": "opus"', '"model": "sonnet"')
    assert path.read_text() == expected


def test_invalid_settings_are_left_alone(isolated_env: Path, runner) -> None:
    path = isolated_env / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": {"Stop": [}')
    result = invoke(runner, "hooks", "install", "--agent", "claude-code", expect=1)
    assert "not valid JSON" in result.output
    assert path.read_text() == '{"hooks": {"Stop": [}' and not Path(str(path) + ".smriti-backup").exists()


def test_symlinked_settings_stay_a_symlink(isolated_env: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude.json"
    dotfiles.parent.mkdir()
    shutil.copy(FIXTURES / "claude-settings.json", dotfiles)
    link = isolated_env / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    hi.install("claude-code")
    assert link.is_symlink() and "smriti" in dotfiles.read_text()
    hi.uninstall("claude-code")
    assert link.is_symlink() and dotfiles.read_bytes() == (FIXTURES / "claude-settings.json").read_bytes()


def test_cline_leaves_the_users_own_hooks_alone(isolated_env: Path) -> None:
    folder = isolated_env / "Documents" / "Cline" / "Hooks"
    _place(isolated_env, "cline")
    (folder / "TaskStart").write_text("#!/bin/sh\necho '{\"cancel\": false}'\n")
    result = hi.install("cline")
    assert [s["event"] for s in result["skipped"]] == ["TaskStart"]
    script = (folder / "UserPromptSubmit").read_text()
    assert script.startswith("#!/bin/sh\n") and f"exec {shlex.quote(SMRITI)} hook cline prompt" in script
    assert os.access(folder / "UserPromptSubmit", os.X_OK)
    hi.uninstall("cline")
    assert sorted(p.name for p in folder.iterdir()) == ["PreToolUse", "TaskStart"]


def test_project_scope_writes_into_the_repo(isolated_env: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    out = json.loads(
        run_smriti(
            "hooks",
            "install",
            "--agent",
            "claude-code",
            "--agent",
            "codex",
            "--scope",
            "project",
            "--repo",
            str(repo),
            "--json",
        ).stdout
    )
    assert [r["path"] for r in out] == [str(repo / ".claude" / "settings.json"), str(repo / ".codex" / "hooks.json")]
    assert not (isolated_env / ".claude").exists()
    smriti(
        "hooks", "uninstall", "--agent", "claude-code", "--agent", "codex", "--scope", "project", "--repo", str(repo)
    )
    assert not (repo / ".claude" / "settings.json").exists()


def test_install_prints_the_trust_step(isolated_env: Path) -> None:
    out = smriti("hooks", "install", "--agent", "codex").stdout
    assert "/hooks" in out and "trust" in out
    out = smriti("hooks", "install", "--agent", "cline").stdout
    assert "Enable Hooks" in out


def test_the_installed_command_runs(isolated_env: Path, data_dir: Path) -> None:
    hi.install("claude-code")
    doc = json.loads((isolated_env / ".claude" / "settings.json").read_text())
    cmd = doc["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"]
    env = {"HOME": str(isolated_env), "SMRITI_HOME": str(data_dir), "PATH": "/usr/bin:/bin"}  # no venv on PATH
    proc = subprocess.run(
        cmd,
        shell=True,
        input=json.dumps({"session_id": "s", "cwd": "/tmp", "prompt": "hi"}),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout == ""


def test_git_hooks_still_install(isolated_env: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    out = json.loads(smriti("hooks", "install", "--git", "--repo", str(repo), "--json").stdout)
    assert out["installed"]
    assert json.loads(smriti("hooks", "uninstall", "--git", "--repo", str(repo), "--json").stdout)["removed"]


def test_usage_errors(runner) -> None:
    assert invoke(runner, "hooks", "install", expect=2).exit_code == 2
    assert invoke(runner, "hooks", "install", "--agent", "nope", expect=2).exit_code == 2


# ---- the JSONC editor -------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text('ab"\\/é', max_size=4),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text("xyz", max_size=3), children, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    doc=st.dictionaries(st.text("kq", min_size=1, max_size=3), json_values, max_size=4),
    value=json_values,
    indent=st.sampled_from([None, 2, 4, "\t"]),
)
def test_insert_then_remove_is_the_identity(doc: dict, value: object, indent: object) -> None:
    text = json.dumps(doc, indent=indent) + "\n"
    root = jc.parse(text)
    key = "smriti-new-key"
    added = jc.insert_member(text, root, key, value)
    parsed = jc.parse(added)
    assert parsed.to_python() == {**doc, key: value}
    assert jc.remove(added, parsed.get(key)) == text or not doc  # an empty {} comes back as {}
    if doc:
        for k, node, _ in root.members:
            if node.kind == "array":
                grown = jc.append_item(text, node, value)
                g = jc.parse(grown)
                assert g.get(k).to_python() == [*doc[k], value]
                assert jc.remove(grown, g.get(k).items[-1]) == text


def test_parser_rejects_what_it_cannot_edit_safely() -> None:
    for bad in ('{"a": 1', '{"a" 1}', '{"a": [1 2]}', "{'a': 1}", '{"a": 1} x', "/* open"):
        with pytest.raises(jc.JsoncError):
            jc.parse(bad)
    assert jc.parse('// c\n{"a": [1, 2,], /* b */ "b": {"c": null,},}').to_python() == {"a": [1, 2], "b": {"c": None}}
