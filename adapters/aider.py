"""Aider adapter: `.aider.chat.history.md` files in project roots in, Sessions out.

Format notes live in docs/session-formats.md §7. One markdown file per repository, appended across
every aider run; each run starts with `# aider chat started at YYYY-MM-DD HH:MM:SS`. Inside a run:
`#### ` lines are what the user typed (a multi-line prompt is a run of `#### ` lines), `> ` lines
are aider's own output (startup banner, token counts, "Applied edit", commits, command output),
and everything else is the model's answer. There are no message ids and no per-message times.

There is no global index: roots are the project folders the user configured (plus the git repos
smriti already knows, which ingest passes in), so `default_roots()` only names a history file set
with AIDER_CHAT_HISTORY_FILE. The file is append-only: the resume point is a byte offset, and the
last run (which may still be growing) is carried in the resume state so its next lines extend it.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from smriti.adapters._common import (
    OUTPUT_MAX,
    SUMMARY_MAX,
    SourceKind,
    home_dir,
    no_messages_error,
    read_source_bytes,
    strip_smriti_context,
)
from smriti.adapters._jsonl import open_regular
from smriti.models import Message, ParseResult, Problem, Session

AGENT = "aider"
HISTORY_NAME = ".aider.chat.history.md"

HEADER_RE = re.compile(r"^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$")
# A confirmation answer that aider also logs as a `####` line: it is not something the user wrote.
ANSWER_RE = re.compile(r"\(Y\)es/\(N\)o.*\[[^\]]*\]: ?\S*\s*$")
MODEL_RE = re.compile(r"^(?:Main model|Model): (\S+)")
APPLIED_RE = re.compile(r"^Applied edit to (.+)$")
BLANK_PROMPT = "<blank>"  # what aider logs for an empty input line
# A chat command: `/add x.py`, `/model gpt-4o`, `!ls` (aider runs any input starting with "/" or "!"
# as a command, never sends it to the model). `/**` (pasted code) is no command.
COMMAND_RE = re.compile(r"^(?:(/[A-Za-z][\w-]*)(?:[ \t]+|$)|(!)[ \t]*)")
# Commands whose text is a request to a model: it is the prompt. Those that run the chat (not
# /copy-context, which copies it for a web chat) make aider log the request again as a `####` line
# of its own: the same prompt, stored once.
ECHOED_COMMANDS = frozenset({"/ask", "/code", "/architect", "/context"})
PROMPT_COMMANDS = ECHOED_COMMANDS | {"/copy-context"}
# Commands that run a shell command or fetch a page: a call of that action, their output its result.
COMMAND_ACTIONS = {"!": "shell", "/run": "shell", "/test": "shell", "/lint": "shell", "/git": "shell", "/web": "fetch"}
# Commands whose arguments are files put into the chat.
FILE_COMMANDS = frozenset({"/add", "/read-only"})
# Reasoning models' thinking, which aider writes into the answer between these tags: not stored,
# like every agent's reasoning. An unclosed block (the run was cut) runs to the end of the text.
REASONING_RE = re.compile(r"<(thinking-content-[0-9a-f]+)>.*?(?:</\1>|\Z)", re.DOTALL)
TAIL_BYTES = 4096
SNIFF_BYTES = 4096
HISTORY_FILE = SourceKind("an aider chat history file", "aider chat history")
# Folders never searched for history files: dependencies, VCS internals, virtualenvs, caches.
# Folders never searched for history files: dependencies, build output, virtualenvs. Hidden folders
# (.git, .venv, .cache, …) are skipped too: aider writes to the repo root, never inside them.
SKIPPED_DIRS = frozenset(
    {"node_modules", "venv", "__pycache__", "site-packages", "target", "dist", "build", "bower_components", "vendor"}
)
# A configured root is usually a folder of repos (~/code/org/repo); monorepo packages sit a level or
# two below a repo. Deeper than this is dependency or data trees, not projects.
MAX_DEPTH = 5


class AiderAdapter:
    name = AGENT
    # Aider keeps its history in each project's git root, not in a folder of its own: ingest also
    # looks for these file names at the root of every project smriti already knows.
    project_files = (HISTORY_NAME,)

    def candidate_roots(self) -> list[Path]:
        """Project roots come from the user's config and from known repos; only the env var is ours."""
        home = home_dir()
        candidates = [home / HISTORY_NAME]  # aider run outside any repo writes to the cwd (often ~)
        env_file = os.environ.get("AIDER_CHAT_HISTORY_FILE")
        if env_file:
            candidates.insert(0, Path(env_file).expanduser())
        return list(dict.fromkeys(candidates))

    def default_roots(self) -> list[Path]:
        return [c for c in self.candidate_roots() if c.is_file()]

    def discover(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
            return
        found: list[Path] = []
        base = len(root.parts)
        for dirpath, dirnames, filenames in os.walk(root, onerror=lambda _e: None):
            found += [Path(dirpath, f) for f in filenames if f.endswith(HISTORY_NAME)]
            if len(Path(dirpath).parts) - base >= MAX_DEPTH:
                dirnames[:] = []
                continue
            # Prune in place so os.walk never descends into dependencies or virtualenvs.
            dirnames[:] = sorted(d for d in dirnames if not _skipped(Path(dirpath, d)))
        yield from sorted(found)

    def detect(self, path: Path) -> bool:
        try:
            if path.is_dir():
                return (path / HISTORY_NAME).is_file()
            if path.name.endswith(HISTORY_NAME):
                return True
            if path.suffix.lower() not in (".md", ".markdown", ""):
                return False
            with open_regular(path) as fh:
                head = fh.read(SNIFF_BYTES).decode("utf-8", "ignore")
            return any(HEADER_RE.match(line) for line in head.splitlines())
        except OSError:
            return False

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        p = str(path)
        data, error = read_source_bytes(path, HISTORY_FILE)
        if error is not None:
            return ParseResult(errors=[Problem(p, error)])
        try:
            return _FileParser(path, data).parse(resume)
        except Exception as exc:  # odd input must never take ingest down
            return ParseResult(errors=[Problem(p, f"history could not be read ({type(exc).__name__}: {exc})")])


# --- one run (session) ---------------------------------------------------------------------------


@dataclass
class _Block:
    """A run of lines of one class: `prompt` (####), `output` (>) or `text` (the model's answer)."""

    cls: str
    ordinal: int
    lines: list[str] = field(default_factory=list)
    dirty: bool = True  # changed since it was last returned

    def to_json(self) -> dict[str, Any]:
        return {"cls": self.cls, "ordinal": self.ordinal, "lines": self.lines}


@dataclass
class _Run:
    """One `# aider chat started at` run, fed line by line; carried across resumes while open."""

    native_id: str
    header: str | None
    started_at: str | None
    models: list[str] = field(default_factory=list)
    prompt_seen: bool = False
    command: str | None = None  # the slash command of the latest prompt (names its output)
    echo: str | None = None  # a prompt command's request, which aider logs again as the next prompt
    start: int = 0  # where the run's first line starts in the file (a run given back is read again)
    next_ordinal: int = 0
    open: _Block | None = None
    blanks: int = 0  # blank lines after the open block, kept if the same block continues
    messages: list[Message] = field(default_factory=list)
    had_content: bool = False
    conversation: bool = False  # a prompt or an answer seen: the run is a session (a banner is not)

    @property
    def label(self) -> str:
        return self.header or "<no header>"

    def feed(self, line: str) -> None:
        if not line.strip():
            self.blanks += 1
            return
        self.had_content = True
        cls = _line_class(line)
        block = self.open
        # A prompt starts after a blank line; answer text and aider output flow across blank lines.
        if block is not None and block.cls == cls and (self.blanks == 0 or cls != "prompt"):
            if cls == "text":
                block.lines += [""] * self.blanks
            block.lines.append(line)
            block.dirty = True
        else:
            self.close()
            self.open = _Block(cls, self.next_ordinal, [line])
            self.next_ordinal += 1
        self.blanks = 0

    def flush(self) -> None:
        """Emit the open block if it changed, keeping it open: the next lines may extend it."""
        block = self.open
        if block is not None and block.dirty:
            messages = self._messages(block)
            self.conversation = self.conversation or any(m.kind in ("prompt", "response") for m in messages)
            self.messages += messages
            block.dirty = False

    def close(self) -> None:
        self.flush()
        self.open = None

    def _messages(self, block: _Block) -> list[Message]:
        key = f"{self.native_id}:{block.ordinal}"
        if block.cls == "prompt":
            return self._prompt(block, key)
        if block.cls == "output":
            return self._output(block, key)
        text = "\n".join(line.rstrip() for line in block.lines)
        text = REASONING_RE.sub("", text).strip() if "<thinking-content-" in text else text.strip()
        return [Message("assistant", text, "response", key)] if text else []

    def _prompt(self, block: _Block, key: str) -> list[Message]:
        text = "\n".join(_strip_marker(line, "####") for line in block.lines).strip()
        self.prompt_seen = True
        echo, self.echo = self.echo, None
        command = COMMAND_RE.match(text)
        name = (command.group(1) or command.group(2)) if command else None
        self.command = name
        if not text or text == BLANK_PROMPT or text == echo:
            return []
        if command is not None and name is not None:
            args = text[command.end() :].strip()
            if name not in PROMPT_COMMANDS or not args:  # `/ask` alone only switches mode
                return [_command_call(name, args, key)]
            text = args
            self.echo = args if name in ECHOED_COMMANDS else None
        out: list[Message] = []
        text, context = strip_smriti_context(text)
        if context:  # smriti's own recall output pasted into the prompt: stored, never indexed
            out.append(Message("user", context, "injected_context", f"{key}:ctx"))
        if text:
            out.append(Message("user", text, "prompt", key))
        return out

    def _output(self, block: _Block, key: str) -> list[Message]:
        lines = [_strip_marker(line, ">") for line in block.lines]
        for line in lines:
            model = MODEL_RE.match(line)
            if model and model.group(1) not in self.models:
                self.models.append(model.group(1))
        text = "\n".join(lines).strip()
        if not text:
            return []
        if not self.prompt_seen:  # the startup banner: aider talking about itself
            return [Message("system", text, "injected_context", key)]
        files = tuple(dict.fromkeys(m.group(1).strip() for m in map(APPLIED_RE.match, lines) if m))
        return [
            Message(
                "tool",
                text[:OUTPUT_MAX],
                "tool_result",
                key,
                tool_name=self.command,
                files=files,
                action=COMMAND_ACTIONS.get(self.command or "") or None,
            )
        ]

    def session(self, path: str, cwd: str) -> Session:
        return Session(
            agent=AGENT,
            native_id=self.native_id,
            messages=tuple(self.messages),
            cwd=cwd,
            started_at=self.started_at,
            models=tuple(self.models),
            source_paths=(path,),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "native_id": self.native_id,
            "header": self.header,
            "started_at": self.started_at,
            "models": self.models,
            "prompt_seen": self.prompt_seen,
            "command": self.command,
            "echo": self.echo,
            "conversation": self.conversation,
            "start": self.start,
            "next_ordinal": self.next_ordinal,
            "blanks": self.blanks,
            "open": self.open.to_json() if self.open else None,
        }

    @classmethod
    def from_json(cls, data: Any) -> _Run | None:
        if not isinstance(data, dict) or not isinstance(data.get("native_id"), str):
            return None
        run = cls(
            native_id=data["native_id"],
            header=data.get("header") if isinstance(data.get("header"), str) else None,
            started_at=data.get("started_at") if isinstance(data.get("started_at"), str) else None,
            models=[m for m in data.get("models") or [] if isinstance(m, str)],
            prompt_seen=data.get("prompt_seen") is True,
            command=data.get("command") if isinstance(data.get("command"), str) else None,
            echo=data.get("echo") if isinstance(data.get("echo"), str) else None,
            # a run carried over before this flag existed was returned as a session: it stays one
            conversation=data.get("conversation") is not False,
            start=data["start"] if isinstance(data.get("start"), int) else 0,
            next_ordinal=data["next_ordinal"] if isinstance(data.get("next_ordinal"), int) else 0,
            blanks=data["blanks"] if isinstance(data.get("blanks"), int) else 0,
        )
        block = data.get("open")
        if isinstance(block, dict) and block.get("cls") in ("prompt", "output", "text"):
            lines = [ln for ln in block.get("lines") or [] if isinstance(ln, str)]
            ordinal = block["ordinal"] if isinstance(block.get("ordinal"), int) else run.next_ordinal - 1
            run.open = _Block(block["cls"], ordinal, lines, dirty=False)  # returned by the last parse
        return run


# --- the file ------------------------------------------------------------------------------------


class _FileParser:
    def __init__(self, path: Path, data: bytes) -> None:
        self.path = path
        self.p = str(path)
        self.data = data
        self.abs = str(path.absolute())
        self.cwd = str(path.absolute().parent)  # the history file lives in the git root (or cwd)

    def parse(self, resume: Any) -> ParseResult:
        data = self.data  # not blank: read_source_bytes said so
        start, state = self._resume_point(resume)
        run = _Run.from_json(state.get("run")) if state else None
        seen: dict[str, int] = dict(state.get("seen") or {}) if state else {}
        # Only complete lines: a last line without a newline is still being written.
        end = max(data.rfind(b"\n") + 1, start)
        raw_lines = data[start:end].split(b"\n")[:-1]
        lines = [raw.decode("utf-8", "ignore").rstrip("\r") for raw in raw_lines]
        if start == 0 and not any(HEADER_RE.match(line) for line in lines):
            return ParseResult(
                errors=[Problem(self.p, "no '# aider chat started at' header: not an aider chat history")]
            )
        runs: list[_Run] = [run] if run is not None else []
        at = start
        for raw, line in zip(raw_lines, lines, strict=True):
            header = HEADER_RE.match(line)
            if header:
                if runs:
                    runs[-1].close()
                runs.append(self._new_run(header.group(1), seen, at))
            elif runs:
                runs[-1].feed(line)
            elif line.strip():  # lines above the first header (the top of the file was cut)
                runs.append(self._new_run(None, seen, at))
                runs[-1].feed(line)
            at += len(raw) + 1
        if runs:
            runs[-1].flush()  # the last run may still be growing: its open block stays open
        last = runs[-1] if runs else None
        if last is not None and not last.conversation and last.start >= start:
            # A run with nothing said yet (aider's banner, a few commands) may still become a
            # conversation: read it again from its header next time rather than return it now.
            end = last.start
            seen[last.label] -= 1
            runs.pop()
        sessions = [r.session(self.p, self.cwd) for r in runs if r.messages and r.conversation]
        errors: list[Problem] = []
        if start == 0 and not sessions and any(r.had_content and not r.messages for r in runs):
            errors.append(Problem(self.p, no_messages_error(f"{len(runs)} session(s)")))
        state_out = {
            "offset": end,
            "tail": _tail_hash(data[:end]),
            "run": runs[-1].to_json() if runs and runs[-1] is last else None,
            "seen": seen,
        }
        return ParseResult(sessions=sessions, resume=state_out, errors=errors)

    def _resume_point(self, resume: Any) -> tuple[int, dict[str, Any] | None]:
        """Start after the bytes read last time, unless the file was rewritten (then from 0)."""
        if not isinstance(resume, dict):
            return 0, None
        offset = resume.get("offset")
        if not isinstance(offset, int) or isinstance(offset, bool) or not 0 < offset <= len(self.data):
            return 0, None
        if _tail_hash(self.data[:offset]) != resume.get("tail"):
            return 0, None
        seen = resume.get("seen")
        return offset, {"run": resume.get("run"), "seen": seen if isinstance(seen, dict) else {}}

    def _new_run(self, header: str | None, seen: dict[str, int], start: int) -> _Run:
        label = header or "<no header>"  # as _Run.label
        count = seen.get(label, 0) + 1
        seen[label] = count
        # Stable across re-reads: the file and the run's start time (and which repeat of it).
        identity = f"{self.abs}#{label}" + (f"#{count}" if count > 1 else "")
        native_id = hashlib.sha256(identity.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        return _Run(native_id=native_id, header=header, started_at=_local_to_utc(header), start=start)


# --- helpers -------------------------------------------------------------------------------------


def _command_call(command: str, args: str, key: str) -> Message:
    """A chat command the person ran (`/add x.py`, `/run make`, `!ls`): a call, never a prompt."""
    action = COMMAND_ACTIONS.get(command)
    tool_input = {"command": args} if action == "shell" else {"url": args} if action == "fetch" else {"args": args}
    files: tuple[str, ...] = ()
    if command in FILE_COMMANDS:  # globs and URLs name no one file
        files = tuple(dict.fromkeys(f for f in args.split() if not any(c in f for c in "*?[") and "://" not in f))
    text = f"{command} {args}".strip() if command != "!" else f"!{args}"
    return Message(
        "user",
        text[:SUMMARY_MAX],
        "tool_call",
        key,
        tool_name=command,
        tool_input=tool_input,
        files=files,
        action=action or "other",
    )


def _line_class(line: str) -> str:
    if line.startswith("####") and (len(line) == 4 or line[4] in " \t"):
        # A logged confirmation answer looks like a prompt but is aider's question.
        return "output" if ANSWER_RE.search(line) else "prompt"
    if line.startswith(">") and (len(line) == 1 or line[1] in " \t"):
        return "output"  # not `>>>>>>> REPLACE`, which is part of the model's edit block
    return "text"


def _strip_marker(line: str, marker: str) -> str:
    """`#### text  ` → `text`: drop the marker, one space, and markdown's two-space line break."""
    return line[len(marker) :].removeprefix(" ").rstrip()


def _local_to_utc(header: str | None) -> str | None:
    """The header's time is the local time of the machine aider ran on, with no zone written.

    It is interpreted in this machine's local timezone (the usual case: the file was written here),
    via `astimezone()` on the naive datetime, which applies the DST rule of that date.
    """
    if header is None:
        return None
    try:
        local = datetime.strptime(header, "%Y-%m-%d %H:%M:%S").astimezone()
    except (ValueError, OverflowError, OSError):
        return None
    return local.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _tail_hash(data: bytes) -> str:
    return hashlib.sha256(data[-TAIL_BYTES:]).hexdigest()


def _skipped(path: Path) -> bool:
    if path.name.startswith(".") or path.name in SKIPPED_DIRS:
        return True
    try:
        return (path / "pyvenv.cfg").is_file()  # a virtualenv, whatever its name
    except OSError:
        return True
