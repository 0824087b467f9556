"""`smriti init` and the git hooks that keep a teammate's store in sync. Idempotent."""

from __future__ import annotations

import os
import re
import shlex
import stat
from pathlib import Path
from typing import Any

from smriti.errors import SmritiError
from smriti.team.config import TEMPLATE
from smriti.team.git import hooks_dir

GITATTRIBUTES_LINES = (
    "# smriti: knowledge files are text with LF endings on every platform",
    ".smriti/** text eol=lf",
)
README = """\
# .smriti — what our coding agents learned

Each file in `knowledge/` is one item a teammate shared with `smriti share`: a title, a summary,
the files involved and a condensed conversation, redacted before it was written. Review these
files like code. Edit them freely: a person's edit is kept (smriti never overwrites it) and
becomes the version everyone's agents recall after `smriti sync`. Delete a file to withdraw it.

Only what is merged on the default branch reaches teammates. `smriti check` (in CI and
pre-commit) validates the files and scans them for secrets; `config.toml` holds the team's
settings (categories to share, categorization rules, redaction patterns, allow-listed findings).
"""

HOOK_MARK_BEGIN = "# >>> smriti sync >>>"
HOOK_MARK_END = "# <<< smriti sync <<<"
GIT_HOOKS = ("post-merge", "post-checkout")


def init_repo(root: Path) -> dict[str, Any]:
    """Create .smriti/ (config, knowledge/, README) and the .gitattributes lines; report what changed."""
    created: list[str] = []
    smriti_dir = root / ".smriti"
    for folder in (smriti_dir, smriti_dir / "knowledge"):
        if not folder.is_dir():
            folder.mkdir(parents=True)
            created.append(str(folder.relative_to(root)) + "/")
    for path, text in (
        (smriti_dir / "config.toml", TEMPLATE),
        (smriti_dir / "README.md", README),
        (smriti_dir / "knowledge" / ".gitkeep", ""),
    ):
        if not path.exists():
            path.write_bytes(text.encode())
            created.append(str(path.relative_to(root)))
    attributes = root / ".gitattributes"
    current = attributes.read_text(encoding="utf-8") if attributes.exists() else ""
    missing = [line for line in GITATTRIBUTES_LINES if line not in current.splitlines()]
    if missing:
        prefix = "" if not current or current.endswith("\n") else "\n"
        attributes.write_bytes((current + prefix + "\n".join(missing) + "\n").encode())
        created.append(".gitattributes")
    return {"repo": str(root), "created": created}


def _smriti_command() -> str:
    """The absolute path of this smriti, so hooks work without the shell's PATH: the same rule as
    the agent hooks' (the console script beside this interpreter first: a smriti found on PATH may
    be another, older installation that lacks the options the hook passes)."""
    from smriti.hooks.install import smriti_command

    return smriti_command()


def _hook_block(root: Path) -> str:
    cmd = _smriti_command()
    return (
        f"{HOOK_MARK_BEGIN}\n"
        "# Import the team's reviewed knowledge after a merge or checkout, in the background.\n"
        # No fetch of its own: git has just moved the refs (a merge follows a fetch; a checkout is
        # local), and a background fetch would race the user's next git command for the ref locks.
        f"( {cmd} sync --repo {shlex.quote(str(root))} --no-fetch --quiet >/dev/null 2>&1 & ) || true\n"
        f"{HOOK_MARK_END}\n"
    )


_SHELL_SHEBANG = re.compile(r"#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?(?:sh|bash|dash|zsh|ksh|ash|mksh)(?:\s|$)")


def _hook_problem(path: Path, current: str) -> str | None:
    """Why smriti cannot add its lines to an existing hook, or None."""
    if path.is_symlink():
        return f"{path} is a symlink (to {os.readlink(path)}); add the smriti lines to the script it points to"
    first = current.split("\n", 1)[0]
    if first.startswith("#!") and not _SHELL_SHEBANG.match(first):
        return f"{path} is not a shell script ({first.strip()}); smriti's lines are shell"
    return None


def install_git_hooks(root: Path) -> dict[str, Any]:
    """Add smriti's block to post-merge and post-checkout, keeping what a hook already does.

    The block goes right after the shebang, not at the end: an existing hook that ends with
    `exit 0` (or `exec something`) would never reach lines appended after it. The block only
    starts a background process, so it cannot change what the rest of the hook does, and
    uninstall removes exactly these lines, leaving the hook byte for byte as it was. A hook
    that is not a shell script or is a symlink is refused (nothing is written) with the reason.
    """
    directory = hooks_dir(root)
    block = _hook_block(root)
    plans = []
    for name in GIT_HOOKS:
        path = directory / name
        current = path.read_text(encoding="utf-8") if path.exists() or path.is_symlink() else ""
        if block in current:
            continue
        problem = _hook_problem(path, current) if current else None
        if problem:
            raise SmritiError(f"cannot install the smriti git hook: {problem}. Add this there by hand:\n{block}")
        plans.append((path, current))
    directory.mkdir(parents=True, exist_ok=True)
    changed = []
    for path, current in plans:
        stripped = _remove_block(current)  # an older block (another smriti path) is replaced
        if not stripped:
            text = "#!/bin/sh\n" + block
        elif stripped.startswith("#!"):
            head, nl, rest = stripped.partition("\n")
            text = head + "\n" + block + rest
        else:  # no shebang: git runs it with sh
            text = block + stripped
        path.write_text(text, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        changed.append(str(path))
    return {"installed": changed, "hooks": [str(directory / n) for n in GIT_HOOKS]}


def uninstall_git_hooks(root: Path) -> dict[str, Any]:
    directory = hooks_dir(root)
    changed = []
    for name in GIT_HOOKS:
        path = directory / name
        if not path.exists():
            continue
        current = path.read_text(encoding="utf-8")
        stripped = _remove_block(current)
        if stripped == current:
            continue
        if stripped.strip() in ("", "#!/bin/sh"):  # only what install created
            path.unlink()
        else:
            path.write_text(stripped, encoding="utf-8")
        changed.append(str(path))
    return {"removed": changed}


def _remove_block(text: str) -> str:
    start = text.find(HOOK_MARK_BEGIN)
    if start == -1:
        return text
    end = text.find(HOOK_MARK_END, start)
    end = len(text) if end == -1 else end + len(HOOK_MARK_END) + 1
    return text[:start] + text[end:]
