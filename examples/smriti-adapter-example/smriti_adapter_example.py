"""An example smriti adapter for a made-up agent that writes plain-text transcripts.

Format of `~/.example-notes/<session id>.chat.txt` (or `$EXAMPLE_NOTES_DIR`):

    # cwd: /home/me/project
    > what the user typed
    < what the assistant answered
    $ a command the agent ran
    | its output

An adapter is pure: it reads files and returns `smriti.models` objects. It never touches the
store, the index or the CLI; smriti does the rest (dedupe, indexing, resume bookkeeping).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from smriti.models import Message, ParseResult, Problem, Session

PREFIXES = {
    "> ": ("user", "prompt"),
    "< ": ("assistant", "response"),
    "$ ": ("assistant", "tool_call"),
    "| ": ("tool", "tool_result"),
}


class NotesAdapter:
    name = "example-notes"  # the agent id: `--agent example-notes`, `agent` field everywhere

    def default_roots(self) -> list[Path]:
        home = Path(os.environ.get("HOME") or Path.home())
        root = Path(os.environ.get("EXAMPLE_NOTES_DIR") or home / ".example-notes")
        return [root] if root.is_dir() else []

    def discover(self, root: Path) -> Iterable[Path]:
        if root.is_file():
            return [root]
        return sorted(root.glob("*.chat.txt"))

    def detect(self, path: Path) -> bool:
        return path.name.endswith(".chat.txt") or (path.is_dir() and any(path.glob("*.chat.txt")))

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        # Whole-file format: no resume point; smriti re-parses when the file changes and its
        # store keeps only what is new (message keys are stable: session id + line number).
        native_id = path.name.removesuffix(".chat.txt")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            return ParseResult(errors=[Problem(str(path), f"cannot read: {exc}")])
        cwd = None
        messages: list[Message] = []
        warnings: list[Problem] = []
        for number, line in enumerate(lines, 1):
            if line.startswith("# cwd: "):
                cwd = line[len("# cwd: ") :].strip()
                continue
            if not line.strip():
                continue
            role_kind = PREFIXES.get(line[:2])
            if role_kind is None:
                warnings.append(Problem(str(path), "unrecognised line; skipped", number))
                continue
            role, kind = role_kind
            text = line[2:]
            messages.append(
                Message(
                    role=role,
                    kind=kind,
                    text=f"shell: {text}" if kind == "tool_call" else text,
                    key=f"{native_id}:{number}",
                    tool_name="shell" if kind in ("tool_call", "tool_result") else None,
                )
            )
        session = Session(
            agent=self.name, native_id=native_id, messages=tuple(messages), cwd=cwd, source_paths=(str(path),)
        )
        return ParseResult(sessions=[session] if messages else [], warnings=warnings)
