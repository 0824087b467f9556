"""`smriti hooks install|uninstall|status --agent A [--scope user|project]`: wire smriti into agents.

Every agent keeps its hooks somewhere else, in another shape (docs/agent-hooks.md):

agent        user scope / project scope: shape
claude-code  ~/.claude/settings.json / .claude/settings.json: event → [{hooks: [handler]}]
codex        ~/.codex/hooks.json (or [hooks] in config.toml when the user keeps them there) / .codex/hooks.json:
             the same shape; strict: no unknown keys
gemini       ~/.gemini/settings.json / .gemini/settings.json: the same shape; named handlers, timeouts in ms
cursor       ~/.cursor/hooks.json / .cursor/hooks.json: {version: 1, hooks: {event: [handler]}}
copilot      ~/.copilot/hooks/smriti-copilot.json / .github/hooks/smriti-copilot.json:
             {version: 1, hooks: {Event: [handler]}} (VS Code)
copilot-cli  ~/.copilot/hooks/smriti-copilot-cli.json / .github/hooks/smriti-copilot-cli.json:
             {version: 1, hooks: {event: [{bash}]}}
cline        ~/Documents/Cline/Hooks/<Event> / .clinerules/hooks/<Event>: one executable per event

How the files are treated:
- merged, never rewritten: JSON/JSONC files are edited in place (smriti.hooks.jsonc), so other
  entries, comments, trailing commas and indentation keep their bytes; Codex's config.toml gets
  one marked block appended;
- the command is the absolute path of this `smriti` (GUI agents do not get the shell's PATH);
- only keys each agent accepts (Codex rejects unknown ones);
- idempotent: a second install changes nothing; a changed smriti path replaces smriti's entries;
- the first install keeps the original file as `<file>.smriti-backup` (never overwritten);
- uninstall restores the original bytes when the file is as install left it (it replays the
  install on the backup and compares), else it removes smriti's entries surgically.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti.errors import InvalidInput, SmritiError
from smriti.hooks import jsonc as jc
from smriti.hooks.protocol import AGENTS
from smriti.paths import home

BACKUP_SUFFIX = ".smriti-backup"
TOML_BEGIN = (  # the marker finds the block again on uninstall: its text must never change
    "# >>> smriti hooks: added by `smriti hooks install --agent codex`; "
    "`smriti hooks uninstall --agent codex` removes this block >>>"
)
TOML_END = "# <<< smriti hooks <<<"
CLINE_MARK = "# smriti hook: managed by `smriti hooks install --agent cline`"
_OURS = re.compile(r"""(?:^|[\s/\\'"])smriti(?:\.exe)?['"]?\s+hook\s|\s-m\s+smriti\s+hook\s""")


@dataclass(frozen=True)
class Spec:
    agent: str
    shape: str  # "groups" | "flat" | "cline"
    events: tuple[tuple[str, str, dict[str, Any]], ...]  # (agent's event, smriti's event, handler fields)
    command_key: str = "command"
    new_file: dict[str, Any] = field(default_factory=dict)  # keys a file smriti creates starts with
    trust: str | None = None


# One spec per agent of protocol.AGENTS (the one list of hook-capable agents), in its order:
# tests/test_hooks_install.py holds the two together.
SPECS: dict[str, Spec] = {
    "claude-code": Spec(
        "claude-code",
        "groups",
        (
            ("SessionStart", "session-start", {"type": "command", "timeout": 10}),
            ("UserPromptSubmit", "prompt", {"type": "command", "timeout": 10}),
            ("Stop", "stop", {"type": "command", "timeout": 10}),
            ("SessionEnd", "session-end", {"type": "command", "timeout": 10}),  # raises the 1.5 s budget
        ),
        trust="Claude Code picks the change up by itself; `/hooks` in a session lists the smriti entries. "
        "In a folder you have not trusted yet, hooks wait for the trust dialog.",
    ),
    "codex": Spec(
        "codex",
        "groups",
        (
            ("SessionStart", "session-start", {"type": "command", "timeout": 10}),
            ("UserPromptSubmit", "prompt", {"type": "command", "timeout": 10}),
            ("Stop", "stop", {"type": "command", "timeout": 10}),
            ("SessionEnd", "session-end", {"type": "command", "timeout": 3}),  # Codex caps SessionEnd at 3 s
        ),
        trust="Codex skips new or changed hooks until you trust them: start Codex, open `/hooks` and trust "
        "the smriti entries (again after any change to their command).",
    ),
    "gemini": Spec(
        "gemini",
        "groups",
        (
            ("SessionStart", "session-start", {"name": "smriti-session-start", "type": "command", "timeout": 10000}),
            ("BeforeAgent", "prompt", {"name": "smriti-recall", "type": "command", "timeout": 10000}),
            ("AfterAgent", "stop", {"name": "smriti-record", "type": "command", "timeout": 10000}),
            ("SessionEnd", "session-end", {"name": "smriti-session-end", "type": "command", "timeout": 5000}),
        ),
        trust="Gemini CLI asks before it runs new project hooks; `/hooks panel` lists them.",
    ),
    "cursor": Spec(
        "cursor",
        "flat",
        (
            ("sessionStart", "session-start", {"timeout": 10}),
            ("stop", "stop", {"timeout": 10}),
            ("sessionEnd", "session-end", {"timeout": 10}),
        ),
        new_file={"version": 1},
        trust="Cursor reloads hooks.json by itself (project hooks need a trusted workspace). Cursor injects "
        "context only at session start; per-prompt recall there is the smriti MCP server. Cursor also "
        "runs smriti's Claude Code hooks (Third-Party Imports); smriti answers once.",
    ),
    "copilot": Spec(
        "copilot",
        "flat",
        (
            ("SessionStart", "session-start", {"type": "command", "timeout": 10}),
            ("Stop", "stop", {"type": "command", "timeout": 10}),
        ),
        new_file={"version": 1},  # Copilot CLI reads the same folders and wants a version
        trust="VS Code agent hooks are a Preview feature: make sure hooks are enabled and "
        "chat.hookFilesLocations includes this folder. VS Code injects context only at session start. "
        "It also runs smriti's Claude Code hooks from ~/.claude/settings.json; smriti answers once.",
    ),
    "copilot-cli": Spec(
        "copilot-cli",
        "flat",
        (
            ("agentStop", "stop", {"type": "command", "timeoutSec": 10}),
            ("sessionEnd", "session-end", {"type": "command", "timeoutSec": 10}),
        ),
        command_key="bash",
        new_file={"version": 1},
        trust="Copilot CLI does not take context from hooks, so these only record sessions.",
    ),
    "cline": Spec(
        "cline",
        "cline",
        (
            ("TaskStart", "session-start", {}),
            ("TaskResume", "session-start", {}),
            ("UserPromptSubmit", "prompt", {}),
            ("TaskComplete", "stop", {}),
            ("TaskCancel", "stop", {}),
        ),
        trust="Turn hooks on in Cline: Settings → Feature Settings → Enable Hooks "
        "(Cline CLI: `cline config set hooks-enabled=true`).",
    ),
}


# ---- where ----------------------------------------------------------------------------------


def smriti_command() -> str:
    """The absolute path of this smriti: the console script next to this interpreter, else the
    one on PATH, else `python -m smriti`."""
    import shutil

    exe_dir = os.path.dirname(sys.executable)
    for name in ("smriti", "smriti.exe"):
        cand = os.path.join(exe_dir, name)
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return shlex.quote(os.path.abspath(cand))
    found = shutil.which("smriti")
    if found:
        return shlex.quote(os.path.abspath(found))
    return f"{shlex.quote(os.path.abspath(sys.executable))} -m smriti"


def _env_dir(var: str) -> Path | None:
    value = os.environ.get(var, "").strip()
    if not value:
        return None
    return home() / value[2:] if value.startswith("~/") else Path(value)


def target_path(agent: str, scope: str, repo: Path | None = None) -> Path:
    """The settings file (a folder for Cline) smriti's hooks for `agent` go into."""
    if scope not in ("user", "project"):
        raise InvalidInput(f"unknown scope {scope!r}: use user or project")
    if scope == "project":
        if repo is None:
            raise InvalidInput("--scope project needs the repository (run inside it, or pass --repo)")
        return (
            repo
            / {
                "claude-code": ".claude/settings.json",
                "codex": ".codex/hooks.json",
                "gemini": ".gemini/settings.json",
                "cursor": ".cursor/hooks.json",
                "copilot": ".github/hooks/smriti-copilot.json",
                "copilot-cli": ".github/hooks/smriti-copilot-cli.json",
                "cline": ".clinerules/hooks",
            }[agent]
        )
    h = home()
    if agent == "claude-code":
        first = os.environ.get("CLAUDE_CONFIG_DIR", "").split(",")[0].strip()
        base = (h / first[2:] if first.startswith("~/") else Path(first)) if first else h / ".claude"
        return base / "settings.json"
    if agent == "codex":
        return (_env_dir("CODEX_HOME") or h / ".codex") / "hooks.json"
    if agent == "gemini":
        return ((_env_dir("GEMINI_CLI_HOME") or h) / ".gemini") / "settings.json"
    if agent == "cursor":
        return h / ".cursor" / "hooks.json"
    if agent in ("copilot", "copilot-cli"):
        return (_env_dir("COPILOT_HOME") or h / ".copilot") / "hooks" / f"smriti-{agent}.json"
    if agent == "cline":
        return h / "Documents" / "Cline" / "Hooks"
    raise InvalidInput(f"unknown agent {agent!r}; supported: {', '.join(AGENTS)}")


def _codex_toml(json_path: Path) -> Path | None:
    """Codex's config.toml next to hooks.json when the user keeps hooks there (and there is no
    hooks.json): both in one layer makes Codex warn at startup, so smriti follows the user."""
    toml_path = json_path.with_name("config.toml")
    if json_path.exists() or not toml_path.is_file():
        return None
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return toml_path if "hooks" in data else None


def _check_agent(agent: str) -> Spec:
    spec = SPECS.get(agent)
    if spec is None:
        raise InvalidInput(f"unknown agent {agent!r}; supported: {', '.join(AGENTS)}")
    return spec


# ---- the JSON shapes ------------------------------------------------------------------------


def _command(cmd: str, agent: str, event: str) -> str:
    return f"{cmd} hook {agent} {event}"


def is_ours(command: object) -> bool:
    return isinstance(command, str) and bool(_OURS.search(" " + command + " "))


def _handler(spec: Spec, cmd: str, event: str, fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in fields.items():
        if k == "timeout" or k == "timeoutSec":
            continue
        out[k] = v
    out[spec.command_key] = _command(cmd, spec.agent, event)
    for k in ("timeout", "timeoutSec"):
        if k in fields:
            out[k] = fields[k]
    return out


def _entry(spec: Spec, cmd: str, event: str, fields: dict[str, Any]) -> dict[str, Any]:
    handler = _handler(spec, cmd, event, fields)
    return {"hooks": [handler]} if spec.shape == "groups" else handler


def _handler_nodes(spec: Spec, item: jc.Node) -> list[jc.Node]:
    """The handler objects inside one entry of an event's array."""
    if item.kind != "object":
        return []
    if spec.shape == "groups":
        hooks = item.get("hooks")
        return [h for h in hooks.items if h.kind == "object"] if hooks is not None and hooks.kind == "array" else []
    return [item]


def _node_is_ours(spec: Spec, handler: jc.Node) -> bool:
    for key in ("command", "bash", "powershell"):
        c = handler.get(key)
        if c is not None and is_ours(c.value):
            return True
    return False


def _commands_in(spec: Spec, text: str) -> list[str]:
    """The smriti executables named by smriti's entries in `text` (to replay an install)."""
    out: list[str] = []
    try:
        root = jc.parse(text)
    except jc.JsoncError:
        return out
    hooks = root.get("hooks") if root.kind == "object" else None
    if hooks is None or hooks.kind != "object":
        return out
    for _, arr, _ in hooks.members:
        for item in arr.items if arr.kind == "array" else []:
            for h in _handler_nodes(spec, item):
                for key in ("command", "bash"):
                    c = h.get(key)
                    if c is not None and is_ours(c.value):
                        m = re.match(r"(.*?)\s+hook\s", c.value)
                        if m and m.group(1) not in out:
                            out.append(m.group(1))
    return out


def _parse_settings(text: str, path: Path) -> jc.Node:
    try:
        root = jc.parse(text)
    except jc.JsoncError as exc:
        raise SmritiError(f"{path} is not valid JSON ({exc}); fix it first, smriti did not change it") from None
    if root.kind != "object":
        raise SmritiError(f"{path} does not hold a JSON object; smriti did not change it")
    return root


def plan_json(spec: Spec, text: str | None, cmd: str, path: Path) -> tuple[str, list[dict[str, str]]]:
    """The settings text with smriti's hooks in, and what changed per event. Pure."""
    wanted = [(ev, _entry(spec, cmd, smriti_ev, fields)) for ev, smriti_ev, fields in spec.events]
    if text is None or not text.strip():
        doc = {**spec.new_file, "hooks": {ev: [entry] for ev, entry in wanted}}
        return jc._dump(doc, "  ", "") + "\n", [{"event": ev, "action": "added"} for ev, _ in wanted]
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
    if crlf:
        text = text.replace("\r\n", "\n")
    changes = []
    root = _parse_settings(text, path)
    for key, value in spec.new_file.items():  # Cursor and Copilot CLI need "version": 1
        if root.get(key) is None:
            text = jc.insert_member(text, root, key, value)
            root = jc.parse(text)
    hooks = root.get("hooks")
    if hooks is None:
        text = jc.insert_member(text, root, "hooks", {ev: [entry] for ev, entry in wanted})
        changes = [{"event": ev, "action": "added"} for ev, _ in wanted]
    elif hooks.kind != "object":
        raise SmritiError(f'{path}: "hooks" is not an object; smriti did not change it')
    else:
        for ev, entry in wanted:
            root = jc.parse(text)
            arr = root.get("hooks").get(ev)  # type: ignore[union-attr]
            if arr is None:
                text = jc.insert_member(text, root.get("hooks"), ev, [entry])  # type: ignore[arg-type]
                changes.append({"event": ev, "action": "added"})
                continue
            if arr.kind != "array":
                raise SmritiError(f"{path}: hooks.{ev} is not a list; smriti did not change it")
            if any(item.to_python() == entry for item in arr.items):
                changes.append({"event": ev, "action": "unchanged"})
                continue
            text, removed = _remove_ours(spec, text, ["hooks", ev])
            arr = jc.parse(text).get("hooks").get(ev)  # type: ignore[union-attr]
            text = jc.append_item(text, arr, entry)  # type: ignore[arg-type]
            changes.append({"event": ev, "action": "updated" if removed else "added"})
    if crlf:
        text = text.replace("\n", "\r\n")
    return text, changes


def _remove_ours(spec: Spec, text: str, where: list[str]) -> tuple[str, int]:
    """Remove smriti's handlers from the event array at `where` (and groups left empty)."""
    removed = 0
    while True:
        node: jc.Node | None = jc.parse(text)
        for key in where:
            node = node.get(key) if node is not None and node.kind == "object" else None
        if node is None or node.kind != "array":
            return text, removed
        victim = None
        for item in node.items:
            handlers = _handler_nodes(spec, item)
            ours = [h for h in handlers if _node_is_ours(spec, h)]
            if not ours:
                continue
            if len(ours) == len(handlers):
                victim = item  # a group (or flat handler) that is smriti's alone
            else:
                victim = ours[0]  # smriti's handler inside someone else's group
            break
        if victim is None:
            return text, removed
        text = jc.remove(text, victim)
        removed += 1


def strip_json(spec: Spec, text: str, original: str | None, path: Path) -> tuple[str | None, list[str]]:
    """`text` without smriti's entries (None: the file held nothing else and smriti created it)."""
    crlf = "\r\n" in text and text.count("\r\n") == text.count("\n")
    if crlf:
        text = text.replace("\r\n", "\n")
    root = _parse_settings(text, path)
    orig_root = None
    if original is not None and original.strip():
        try:
            orig_root = jc.parse(original.replace("\r\n", "\n"))
        except jc.JsoncError:
            orig_root = None
    orig_hooks = orig_root.get("hooks") if orig_root is not None and orig_root.kind == "object" else None
    hooks = root.get("hooks")
    events: list[str] = []
    if hooks is None or hooks.kind != "object":
        return (text.replace("\n", "\r\n") if crlf else text), events
    for ev in [k for k, _, _ in hooks.members]:
        text, n = _remove_ours(spec, text, ["hooks", ev])
        if n:
            events.append(ev)
            arr = jc.parse(text).get("hooks").get(ev)  # type: ignore[union-attr]
            had = orig_hooks is not None and orig_hooks.kind == "object" and orig_hooks.get(ev) is not None
            if arr is not None and arr.kind == "array" and not arr.items and not had:
                text = jc.remove(text, arr)
    root = jc.parse(text)
    hooks = root.get("hooks")
    if hooks is not None and hooks.kind == "object" and not hooks.members and orig_hooks is None and events:
        text = jc.remove(text, hooks)
        root = jc.parse(text)
    if orig_root is not None and orig_root.kind == "object" and events:
        for key, value in spec.new_file.items():  # a "version" smriti added to the user's file
            node = root.get(key)
            if node is not None and orig_root.get(key) is None and node.to_python() == value:
                text = jc.remove(text, node)
                root = jc.parse(text)
    if original is None and events and root.to_python() in ({}, spec.new_file):
        return None, events
    return (text.replace("\n", "\r\n") if crlf else text), events


# ---- Codex's config.toml --------------------------------------------------------------------


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_block(spec: Spec, cmd: str) -> str:
    lines = [TOML_BEGIN]
    for ev, smriti_ev, fields in spec.events:
        handler = _handler(spec, cmd, smriti_ev, fields)
        lines += [f"[[hooks.{ev}]]", f"[[hooks.{ev}.hooks]]"]
        for k, v in handler.items():
            lines.append(f"{k} = {_toml_str(v) if isinstance(v, str) else v}")
    lines.append(TOML_END)
    return "\n".join(lines) + "\n"


def _toml_without_block(text: str) -> str:
    start = text.find(TOML_BEGIN)
    if start == -1:
        return text
    end = text.find(TOML_END, start)
    end = len(text) if end == -1 else end + len(TOML_END)
    if text[end : end + 1] == "\n":
        end += 1
    if text[:start].endswith("\n\n"):
        start -= 1  # the blank line install put before the block
    return text[:start] + text[end:]


def plan_toml(spec: Spec, text: str, cmd: str, path: Path) -> tuple[str, list[dict[str, str]]]:
    block = _toml_block(spec, cmd)
    if block in text:
        return text, [{"event": ev, "action": "unchanged"} for ev, _, _ in spec.events]
    base = _toml_without_block(text)
    updated = base != text
    sep = "" if not base else ("\n" if base.endswith("\n") else "\n\n")
    new = base + sep + block
    try:
        data = tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise SmritiError(
            f"{path}: smriti's [[hooks.*]] tables cannot be added to the hooks defined there ({exc}). "
            "Move your hooks to hooks.json, or add smriti's entries by hand:\n" + block
        ) from None
    for ev, _, _ in spec.events:
        groups = data.get("hooks", {}).get(ev, [])
        if not any(is_ours(h.get("command")) for g in groups for h in g.get("hooks", [])):
            raise SmritiError(f"{path}: smriti's {ev} hook did not come through; add it by hand:\n{block}")
    action = "updated" if updated else "added"
    return new, [{"event": ev, "action": action} for ev, _, _ in spec.events]


# ---- Cline's hook executables ---------------------------------------------------------------


def _cline_script(cmd: str, event: str) -> str:
    return f"#!/bin/sh\n{CLINE_MARK}\nexec {cmd} hook cline {event}\n"


# ---- install / uninstall / status -----------------------------------------------------------


def _read(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise SmritiError(f"{path} is not UTF-8 text; smriti did not change it") from None


def _write(path: Path, text: str, mode: int | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.smriti-tmp-{os.getpid()}")
    tmp.write_bytes(text.encode("utf-8"))
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)


def _real(path: Path) -> Path:
    """Edit the file a symlink points to (dotfile managers), never replace the link."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def install(
    agent: str, scope: str = "user", repo: Path | None = None, *, dry_run: bool = False, command: str | None = None
) -> dict[str, Any]:
    spec = _check_agent(agent)
    cmd = command or smriti_command()
    path = target_path(agent, scope, repo)
    if spec.shape == "cline":
        return _install_cline(spec, path, cmd, scope, dry_run)
    toml = _codex_toml(path) if agent == "codex" else None
    path = _real(toml or path)
    current = _read(path)
    if toml is not None:
        new, changes = plan_toml(spec, current or "", cmd, path)
    else:
        new, changes = plan_json(spec, current, cmd, path)
    changed = new != current
    backup = None
    if changed and not dry_run:
        mode = stat.S_IMODE(path.stat().st_mode) if current is not None else None
        if current is not None:
            b = path.with_name(path.name + BACKUP_SUFFIX)
            if not b.exists():
                b.write_bytes(path.read_bytes())
                os.chmod(b, mode or 0o600)
            backup = str(b)
        _write(path, new, mode)
    return {
        "agent": agent,
        "scope": scope,
        "path": str(path),
        "changed": changed,
        "dry_run": dry_run,
        "created": current is None and changed,
        "events": changes,
        "command": cmd,
        "backup": backup,
        "trust": spec.trust if changed else None,
    }


def uninstall(agent: str, scope: str = "user", repo: Path | None = None, *, dry_run: bool = False) -> dict[str, Any]:
    spec = _check_agent(agent)
    path = target_path(agent, scope, repo)
    if spec.shape == "cline":
        return _uninstall_cline(spec, path, scope, dry_run)
    toml = _codex_toml_with_block(path) if agent == "codex" else None
    path = _real(toml or path)
    current = _read(path)
    result = {
        "agent": agent,
        "scope": scope,
        "path": str(path),
        "changed": False,
        "dry_run": dry_run,
        "removed": [],
        "restored": False,
        "deleted": False,
        "backup": None,
    }
    if current is None:
        return result
    b = path.with_name(path.name + BACKUP_SUFFIX)
    original = _read(b) if b.exists() else None
    if toml is not None:
        if TOML_BEGIN not in current:
            return result
        new: str | None = _toml_without_block(current)
        events = [ev for ev, _, _ in spec.events]
        exact = original is not None and any(
            _replays_toml(spec, original, c, path, current) for c in _toml_commands(current)
        )
    else:
        exact = any(_replays(spec, original, c, path, current) for c in _commands_in(spec, current))
        new, events = strip_json(spec, current, original, path)
    if not events and not exact:
        return result
    if exact:
        new = original  # byte for byte what was there before smriti (None: there was no file)
        events = events or [ev for ev, _, _ in spec.events]
    result.update(changed=True, removed=events, restored=exact, deleted=new is None)
    if not dry_run:
        if new is None:
            path.unlink()
        else:
            _write(path, new, stat.S_IMODE(path.stat().st_mode))
        if exact and b.exists():
            b.unlink()  # the file is the original again
    if b.exists() and not (exact and not dry_run):
        result["backup"] = str(b)
    return result


def _replays(spec: Spec, original: str | None, cmd: str, path: Path, current: str) -> bool:
    """Whether installing into `original` with `cmd` gives exactly `current` (nothing else changed)."""
    try:
        return plan_json(spec, original, cmd, path)[0] == current
    except SmritiError:
        return False


def _replays_toml(spec: Spec, original: str, cmd: str, path: Path, current: str) -> bool:
    try:
        return plan_toml(spec, original, cmd, path)[0] == current
    except SmritiError:
        return False


def _codex_toml_with_block(json_path: Path) -> Path | None:
    toml_path = json_path.with_name("config.toml")
    try:
        return toml_path if TOML_BEGIN in toml_path.read_text(encoding="utf-8") else None
    except (OSError, UnicodeDecodeError):
        return None


def _toml_commands(text: str) -> list[str]:
    return list(
        dict.fromkeys(
            m.group(1).replace('\\"', '"').replace("\\\\", "\\")
            for m in re.finditer(r'^command = "(.*?) hook codex ', text, re.M)
        )
    )


def status(agent: str, scope: str = "user", repo: Path | None = None) -> dict[str, Any]:
    spec = _check_agent(agent)
    path = target_path(agent, scope, repo)
    installed: list[str] = []
    commands: list[str] = []
    problem = None
    if spec.shape == "cline":
        for ev, _, _ in spec.events:
            f = path / ev
            text = _read_quiet(f)
            if text is not None and CLINE_MARK in text:
                installed.append(ev)
                m = re.search(r"^exec (.*?) hook cline ", text, re.M)
                if m and m.group(1) not in commands:
                    commands.append(m.group(1))
    else:
        toml = (_codex_toml_with_block(path) or _codex_toml(path)) if agent == "codex" else None
        path = toml or path
        text = _read_quiet(path)
        if text is not None and toml is not None:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                data, problem = {}, f"not valid TOML: {exc}"
            for ev, _, _ in spec.events:
                groups = data.get("hooks", {}).get(ev, [])
                if any(is_ours(h.get("command")) for g in groups for h in g.get("hooks", [])):
                    installed.append(ev)
            commands = _toml_commands(text)
        elif text is not None:
            try:
                root = jc.parse(text)
                hooks = root.get("hooks") if root.kind == "object" else None
                for ev, _, _ in spec.events:
                    arr = hooks.get(ev) if hooks is not None and hooks.kind == "object" else None
                    if (
                        arr is not None
                        and arr.kind == "array"
                        and any(_node_is_ours(spec, h) for item in arr.items for h in _handler_nodes(spec, item))
                    ):
                        installed.append(ev)
                commands = _commands_in(spec, text)
            except jc.JsoncError as exc:
                problem = f"not valid JSON: {exc}"
    missing = [ev for ev, _, _ in spec.events if ev not in installed]
    exe_ok = all(_command_works(c) for c in commands) if commands else None
    b = path.with_name(path.name + BACKUP_SUFFIX) if spec.shape != "cline" else None
    return {
        "agent": agent,
        "scope": scope,
        "path": str(path),
        "exists": path.exists(),
        "installed": installed,
        "missing": missing,
        "complete": bool(installed) and not missing,
        "commands": commands,
        "command_ok": exe_ok,
        "backup": str(b) if b is not None and b.exists() else None,
        "problem": problem,
        "trust": spec.trust if installed else None,
    }


def _read_quiet(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _command_works(cmd: str) -> bool:
    try:
        exe = shlex.split(cmd)[0]
    except (ValueError, IndexError):
        return False
    return os.path.isfile(exe) and os.access(exe, os.X_OK)


def _install_cline(spec: Spec, folder: Path, cmd: str, scope: str, dry_run: bool) -> dict[str, Any]:
    changes, skipped = [], []
    for ev, smriti_ev, _ in spec.events:
        f = folder / ev
        want = _cline_script(cmd, smriti_ev)
        current = _read_quiet(f) if f.exists() or f.is_symlink() else None
        if current == want and os.access(f, os.X_OK):
            changes.append({"event": ev, "action": "unchanged"})
            continue
        if current is not None and CLINE_MARK not in current:
            skipped.append({"event": ev, "reason": f"{f} is someone else's hook; smriti left it alone"})
            continue
        changes.append({"event": ev, "action": "updated" if current is not None else "added"})
        if not dry_run:
            _write(f, want, 0o755)
    changed = any(c["action"] != "unchanged" for c in changes)
    return {
        "agent": "cline",
        "scope": scope,
        "path": str(folder),
        "changed": changed,
        "dry_run": dry_run,
        "created": False,
        "events": changes,
        "skipped": skipped,
        "command": cmd,
        "backup": None,
        "trust": spec.trust if changed else None,
    }


def _uninstall_cline(spec: Spec, folder: Path, scope: str, dry_run: bool) -> dict[str, Any]:
    removed = []
    for ev, _, _ in spec.events:
        f = folder / ev
        text = _read_quiet(f)
        if text is not None and CLINE_MARK in text:
            removed.append(ev)
            if not dry_run:
                f.unlink()
    return {
        "agent": "cline",
        "scope": scope,
        "path": str(folder),
        "changed": bool(removed),
        "dry_run": dry_run,
        "removed": removed,
        "restored": False,
        "deleted": False,
        "backup": None,
    }
