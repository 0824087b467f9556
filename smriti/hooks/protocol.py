"""What an agent's hook sent, which agent really sent it, and what to print back.

Lean on purpose: `smriti hook` imports this on every prompt of every agent, so it uses only
`os` and `smriti.hooks.leanjson` (no json, no pathlib, no platformdirs, no smriti module with dataclasses).

The same `smriti hook claude-code …` command also runs inside Cursor and VS Code (both read
`~/.claude/settings.json`), and Copilot CLI and VS Code read each other's hook files, so the agent
named on the command line is only a default: `detect` looks at the payload. Output shapes follow
the agents' own documentation (see docs/agent-hooks.md):

agent        injects on                          output                                           nothing to say
claude-code  prompt, session start               {"hookSpecificOutput": {"hookEventName": E,      (no output)
                                                  "additionalContext": T}}
codex        prompt, session start               the same (a strict schema: no other keys)        (no output)
gemini       BeforeAgent, session start          the same, hookEventName BeforeAgent/SessionStart {}
cursor       sessionStart only                   {"additional_context": T} (the nested form when  {}
                                                  it came through Claude Code's settings)
copilot      SessionStart only                   hookSpecificOutput (VS Code)                     (no output)
copilot-cli  never (its output is not read)      -                                                (no output)
cline        TaskStart/TaskResume, prompt        {"cancel": false, "contextModification": T}      {"cancel": false}
"""

from __future__ import annotations

import os

from smriti import paths
from smriti.hooks import leanjson

AGENTS = ("claude-code", "codex", "gemini", "cursor", "copilot", "copilot-cli", "cline")
ALIASES = {"claude": "claude-code", "vscode": "copilot", "gemini-cli": "gemini", "copilotcli": "copilot-cli"}

PROMPT, START, RECORD, END = "prompt", "start", "record", "end"

# Every event name an agent (or a person) may pass, folded (lowercase, no "-" or "_").
EVENT_KINDS = {
    "prompt": PROMPT,
    "userpromptsubmit": PROMPT,
    "beforeagent": PROMPT,
    "beforesubmitprompt": PROMPT,
    "userpromptsubmitted": PROMPT,
    "sessionstart": START,
    "start": START,
    "taskstart": START,
    "taskresume": START,
    "stop": RECORD,
    "record": RECORD,
    "afteragent": RECORD,
    "agentstop": RECORD,
    "taskcomplete": RECORD,
    "taskcancel": RECORD,
    "afteragentresponse": RECORD,
    "stopfailure": RECORD,
    "notify": RECORD,
    "agentturncomplete": RECORD,
    "response": RECORD,
    "sessionend": END,
    "end": END,
}

# The hookEventName each agent expects back (Codex validates it against a strict schema).
NATIVE_EVENT = {
    ("claude-code", PROMPT): "UserPromptSubmit",
    ("claude-code", START): "SessionStart",
    ("codex", PROMPT): "UserPromptSubmit",
    ("codex", START): "SessionStart",
    ("gemini", PROMPT): "BeforeAgent",
    ("gemini", START): "SessionStart",
    ("copilot", START): "SessionStart",
    ("cursor", START): "SessionStart",
}

# Agents that print "{}" (or Cline's object) when there is nothing to say; the rest print nothing.
EMPTY_OUTPUT = {"gemini": "{}", "cursor": "{}", "cline": '{"cancel": false}'}


def event_kind(event: str) -> str | None:
    return EVENT_KINDS.get(event.lower().replace("-", "").replace("_", ""))


def agent_id(name: str) -> str | None:
    name = name.strip().lower()
    name = ALIASES.get(name, name)
    return name if name in AGENTS else None


def _s(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _d(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _first_root(value: object) -> str | None:
    if isinstance(value, list):
        for v in value:
            if _s(v):
                return v
    return None


def detect(agent: str, p: dict) -> str:
    """Which agent really sent this payload (`agent` is who the command line names)."""
    if "cursor_version" in p or "workspace_roots" in p or "conversation_id" in p:
        return "cursor"  # Cursor, natively or through Claude Code's settings files
    if "clineVersion" in p or ("hookName" in p and "taskId" in p):
        return "cline"
    if "hookEventName" in p and "hook_event_name" not in p:
        return "copilot"  # VS Code's agent: camelCase hookEventName/sessionId
    if agent == "copilot" and ("hook_event_name" in p or "sessionId" in p or "session_id" in p):
        return "copilot-cli"  # Copilot CLI running a VS Code-format file from .github/hooks
    if agent == "claude-code" and p.get("type") == "agent-turn-complete":
        return "codex"
    return agent


def session_id(p: dict) -> str | None:
    for key in ("session_id", "conversation_id", "sessionId", "thread-id", "thread_id", "taskId"):
        if _s(p.get(key)):
            return p[key].strip()
    return None


def cwd(p: dict) -> str:
    found = (
        _s(p.get("cwd"))
        or _first_root(p.get("workspace_roots"))
        or _first_root(p.get("workspaceRoots"))
        or _s(os.environ.get("CURSOR_PROJECT_DIR"))
        or _s(os.environ.get("GEMINI_CWD"))
        or _s(os.environ.get("GEMINI_PROJECT_DIR"))
        or _s(os.environ.get("CLAUDE_PROJECT_DIR"))
    )
    if found:
        return found
    try:
        return os.getcwd()
    except OSError:
        return ""


def transcript(p: dict) -> str | None:
    return _s(p.get("transcript_path")) or _s(p.get("transcriptPath")) or _s(os.environ.get("CURSOR_TRANSCRIPT_PATH"))


def prompt(p: dict) -> str:
    text = _s(p.get("prompt")) or _s(_d(p.get("userPromptSubmit")).get("prompt"))
    if text:
        return text
    initial = _s(_d(_d(p.get("taskStart")).get("taskMetadata")).get("initialTask"))
    if initial:
        return initial
    messages = p.get("input-messages")
    if isinstance(messages, list):
        return "\n".join(m for m in messages if isinstance(m, str))
    return ""


def turn_id(p: dict) -> str | None:
    for key in ("prompt_id", "turn_id", "generation_id", "turn-id"):
        value = p.get(key)
        if isinstance(value, (str, int)) and str(value):
            return str(value)
    return None


def render(agent: str, kind: str, text: str, *, via: str | None = None) -> str | None:
    """What to print on stdout for `agent` (None: print nothing). `via` is the agent whose hook
    file ran the command, when another agent read it (Cursor through Claude Code's settings)."""
    if text and kind in (PROMPT, START):
        if agent == "cline":
            return leanjson.dumps({"cancel": False, "contextModification": text})
        if agent == "cursor" and kind == START:
            if via == "claude-code":  # Cursor accepts Claude's nested shape from Claude's files
                return _nested("SessionStart", text)
            return leanjson.dumps({"additional_context": text})
        event = NATIVE_EVENT.get((agent, kind))
        if event:
            return _nested(event, text)
    return EMPTY_OUTPUT.get(agent)


def _nested(event: str, text: str) -> str:
    return leanjson.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}})


def can_inject(agent: str, kind: str) -> bool:
    if kind == START:
        return agent in ("claude-code", "codex", "gemini", "cursor", "copilot", "cline")
    if kind == PROMPT:
        return agent in ("claude-code", "codex", "gemini", "cline")
    return False


# ---- where things live (smriti.paths, whose functions of strings import neither pathlib nor platformdirs) ----

disabled = paths.disabled


def data_dir() -> str:
    """smriti.paths.data_home(), absolute: the processes a hook starts must find the same folder."""
    return os.path.abspath(paths.data_home())


def db_path(data: str) -> str:
    return os.path.join(data, paths.DB_FILE)


def hooks_dir(data: str) -> str:
    return os.path.join(data, "hooks")


def safe_name(value: str, limit: int = 64) -> str:
    """A file-name-safe rendering of an id: readable when it already is, else with a checksum."""
    clean = "".join(c if c.isalnum() or c in "-_." else "_" for c in value)[:limit].strip(".") or "_"
    if clean != value:
        import zlib

        clean += "-" + format(zlib.crc32(value.encode("utf-8", "surrogatepass")), "08x")
    return clean


def record_lock_path(data: str, agent: str, session: str | None) -> str:
    return os.path.join(hooks_dir(data), "record", f"{agent}--{safe_name(session or 'all-sessions')}.lock")
