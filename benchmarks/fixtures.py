"""Where each adapter's sample sources are: the shared real fixtures and the repo's own."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "fixtures"
OWN = REPO / "tests" / "fixtures"

# agent id -> (shared fixture folder, own fixture folder)
FOLDERS = {
    "claude-code": ("claude-code", "claude-code"),
    "codex": ("codex", "codex"),
    "gemini": ("gemini-cli", "gemini"),
    "cursor": ("cursor", None),
    "copilot": ("copilot-vscode", "copilot"),
    "copilot-cli": ("copilot-cli", "copilot-cli"),
    "cline": (None, "cline"),
    "roo": (None, "roo"),
    "aider": ("aider", "aider"),
    "opencode": ("opencode", None),
    "amp": ("amp", "amp"),
    "continue": ("continue", "continue"),
    "droid": ("droid", "droid"),
    "pi": ("pi-agent", "pi"),
    "windsurf": ("windsurf", "windsurf"),
    "generic": (None, "generic"),
}


def sources(adapter, shared_only: bool = False) -> list[Path]:
    """Every source in the adapter's fixture folders: what its discovery finds, plus any file of
    the flat shared folder it parses sessions from (those files are not laid out as on disk)."""
    shared, own = FOLDERS.get(adapter.name, (None, None))
    roots = [SHARED / shared] if shared and (SHARED / shared).is_dir() else []
    if own and not shared_only and (OWN / own).is_dir():
        roots.append(OWN / own)
    found: list[Path] = []
    for root in roots:
        for path in adapter.discover(root):
            if path not in found:
                found.append(path)
    if shared and (SHARED / shared).is_dir():
        for path in sorted((SHARED / shared).rglob("*")):
            if path.is_file() and path not in found and any(s.messages for s in adapter.parse(path).sessions):
                found.append(path)
    return found
