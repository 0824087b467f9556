"""What both corpus styles share: the session shape, agents' tool names, noise and tool output.

A generated session is a dict `{id, agent, expect, style, messages}` with messages in the
`smriti.models.Message` shape (role, kind, text, key, tool_name, tool_input), like eval_*.jsonl.
The wording of requests and answers lives in corpus_a.py (training) and corpus_b.py (held out,
written separately with other templates and another vocabulary); this file only adds what every
real session has regardless of its category: tool calls and their output, acknowledgements,
"continue", pasted code.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence

# How each agent names its tools: (read, edit, shell, search). Sessions of one agent use its names.
AGENT_TOOLS = {
    "claude-code": ("Read", "Edit", "Bash", "Grep"),
    "codex": ("shell", "apply_patch", "shell", "shell"),
    "gemini": ("read_file", "replace", "run_shell_command", "search_file_content"),
    "cursor": ("read_file", "edit_file", "run_terminal_cmd", "codebase_search"),
    "aider": (None, None, None, None),  # aider sessions are prose and diffs, no tool calls
    "copilot": ("read_file", "insert_edit_into_file", "run_in_terminal", "grep_search"),
    "cline": ("read_file", "replace_in_file", "execute_command", "search_files"),
    "opencode": ("read", "edit", "bash", "grep"),
}
AGENTS = tuple(AGENT_TOOLS)

IDENT_PARTS = (
    "order invoice user account session token cache queue job report export schedule customer tenant price "
    "cart inventory shipment webhook event batch index query filter profile email template setting flag "
    "schema row request handler router client gateway pool retry metric span widget page form field"
).split()
EXTS = ("py", "ts", "go", "rs", "java", "rb", "kt", "tsx", "ex", "cs")


class Filler:
    """Random but deterministic pieces of a transcript (seeded by the caller's rng)."""

    def __init__(self, rng: random.Random) -> None:
        self.r = rng

    def ident(self) -> str:
        return f"{self.r.choice(IDENT_PARTS)}_{self.r.choice(IDENT_PARTS)}"

    def path(self) -> str:
        top = self.r.choice(["src", "app", "lib", "internal", "pkg"])
        return f"{top}/{self.r.choice(IDENT_PARTS)}/{self.ident()}.{self.r.choice(EXTS)}"

    def code(self, lines: int) -> str:
        r, out = self.r, []
        for i in range(lines):
            name = self.ident()
            out.append(
                r.choice(
                    [
                        f"{i + 1:4d}  def {name}(self, {r.choice(IDENT_PARTS)}, limit={r.randint(1, 99)}):",
                        f"{i + 1:4d}      {name} = load_{r.choice(IDENT_PARTS)}({r.choice(IDENT_PARTS)}_id)",
                        f"{i + 1:4d}      if {name} is None:",
                        f"{i + 1:4d}          return []",
                        f"{i + 1:4d}  func {name.title().replace('_', '')}(ctx context.Context) error {{",
                        f"{i + 1:4d}  const {name} = await db.{r.choice(IDENT_PARTS)}"
                        f".findMany({{ take: {r.randint(5, 500)} }});",
                        f"{i + 1:4d}      for item in {name}:",
                        f"{i + 1:4d}  }}",
                    ]
                )
            )
        return "\n".join(out)

    def test_output(self, failing: bool) -> str:
        r = self.r
        lines = [f"tests/test_{self.ident()}.py::test_{self.ident()} PASSED" for _ in range(r.randint(3, 12))]
        if failing:
            lines.append(f"tests/test_{self.ident()}.py::test_{self.ident()} FAILED")
            lines.append(f"E   AssertionError: assert {r.randint(1, 99)} == {r.randint(100, 999)}")
            lines.append(f"==== 1 failed, {len(lines) - 2} passed in {r.uniform(0.5, 9):.2f}s ====")
        else:
            lines.append(f"==== {len(lines)} passed in {r.uniform(0.5, 9):.2f}s ====")
        return "\n".join(lines)

    def log(self) -> str:
        r = self.r
        return "\n".join(
            f"2026-0{r.randint(1, 9)}-1{r.randint(0, 9)}T1{r.randint(0, 9)}:{r.randint(10, 59)}:{r.randint(10, 59)}Z "
            f"{r.choice(['INFO', 'INFO', 'DEBUG', 'WARN', 'ERROR'])} {self.ident()} "
            f"{r.choice(['started', 'done in', 'retrying after', 'took'])} {r.randint(1, 900)}ms"
            for _ in range(r.randint(4, 14))
        )


def fill(template: str, vocab: dict[str, Sequence[str]], rng: random.Random) -> str:
    """`template` with every `{slot}` replaced by a random entry of `vocab[slot]` (each use drawn anew)."""
    return re.sub(
        r"\{([a-z]+)\}", lambda m: rng.choice(vocab[m.group(1)]) if m.group(1) in vocab else m.group(0), template
    )


Activity = Callable[["Builder"], None]


class Builder:
    """Appends messages of one session, naming tools the way its agent does."""

    def __init__(self, rng: random.Random, agent: str, sid: str) -> None:
        self.r = rng
        self.agent = agent
        self.sid = sid
        self.f = Filler(rng)
        self.messages: list[dict] = []

    def add(self, role: str, kind: str, text: str, tool_name: str | None = None, tool_input: object = None) -> None:
        self.messages.append(
            {
                "role": role,
                "kind": kind,
                "text": text,
                "key": f"{self.sid}-{len(self.messages)}",
                "tool_name": tool_name,
                "tool_input": tool_input,
            }
        )

    def user(self, text: str) -> None:
        self.add("user", "prompt", text)

    def say(self, text: str) -> None:
        self.add("assistant", "response", text)

    def _tool(self, slot: int, text: str, tool_input: object, result: str) -> None:
        name = AGENT_TOOLS[self.agent][slot]
        if name is None:  # aider: show the work as prose
            self.say(f"```\n{result[:600]}\n```")
            return
        self.add("assistant", "tool_call", f"{name}: {text}", name, tool_input)
        self.add("tool", "tool_result", result, name)

    def read(self) -> None:
        p = self.f.path()
        self._tool(0, p, {"file_path": p}, self.f.code(self.r.randint(8, 60)))

    def edit(self) -> None:
        p = self.f.path()
        new = self.f.code(self.r.randint(2, 10))
        self._tool(1, p, {"file_path": p, "new_string": new}, f"The file {p} has been updated.")

    def run(self, command: str, output: str) -> None:
        self._tool(2, command, {"command": command}, output)

    def search(self) -> None:
        term = self.f.ident()
        hits = "\n".join(
            f"{self.f.path()}:{self.r.randint(1, 400)}:    {term}(...)" for _ in range(self.r.randint(1, 6))
        )
        self._tool(3, term, {"pattern": term}, hits)

    def tests(self, failing: bool = False) -> None:
        self.run(
            self.r.choice(["pytest -q", "npm test", "go test ./...", "cargo test", "mix test"]),
            self.f.test_output(failing),
        )

    def noise(self) -> None:
        """A turn that says nothing about the category: acknowledgements, "continue", a look around."""
        r = self.r
        pick = r.random()
        if pick < 0.3:
            self.user(r.choice(["ok", "continue", "go on", "thanks", "yes please", "sure", "k", "do it", "next"]))
        elif pick < 0.55:
            self.say(
                r.choice(
                    [
                        "Let me look at the code first.",
                        "Checking the repository layout.",
                        "One moment.",
                        "Done.",
                        "Here is what I found.",
                    ]
                )
            )
        elif pick < 0.8:
            self.read()
        else:
            self.run(r.choice(["git status", "ls", "git log --oneline -5"]), self.f.log())


TOOL_PROFILES: dict[str, Sequence[str]] = {
    # what tool work typically happens in sessions of a category (names of Builder methods)
    "bug/fix": ("trace", "search", "read", "edit", "tests"),
    "bug/investigation": ("trace", "search", "read", "logs", "read"),
    "bug/report": ("trace", "read", "logs"),
    "code/implementation": ("read", "edit", "edit", "tests"),
    "code/pattern": ("read",),
    "code/review": ("diff", "read"),
    "code/snippet": (),
    "feature/implementation": ("read", "edit", "edit", "tests"),
    "feature/design": ("read",),
    "feature/requirement": (),
    "project/setup": ("edit", "install"),
    "project/config": ("read", "edit"),
    "project/dependency": ("install", "tests"),
    "architecture/design": ("read",),
    "architecture/decision": ("edit",),
    "architecture/tradeoff": (),
    "decision/technical": (),
    "decision/process": (),
    "decision/tooling": (),
    "topic/learning": (),
    "topic/explanation": ("read",),
    "topic/comparison": (),
    "uncategorized": (),
}


def do(builder: Builder, step: str) -> None:
    r, f = builder.r, builder.f
    if step == "trace":
        err = r.choice(
            [
                "ValueError: invalid literal",
                "KeyError: 'id'",
                "TypeError: 'NoneType' object is not subscriptable",
                "RuntimeError: pool exhausted",
            ]
        )
        builder.run(
            r.choice(["python -m app.main", "npm run start", "go run ./cmd/server", "mix phx.server", "./bin/worker"]),
            f'Traceback (most recent call last):\n  File "{f.path()}", line {r.randint(2, 400)}, '
            f"in {f.ident()}\n    {f.ident()}()\n{err}",
        )
    elif step == "logs":
        builder.run(
            r.choice(["kubectl logs deploy/api --tail 100", "journalctl -u worker -n 80", "tail -n 100 log/app.log"]),
            f.log(),
        )
    elif step == "diff":
        p = f.path()
        diff = f"diff --git a/{p} b/{p}\n--- a/{p}\n+++ b/{p}\n" + "\n".join(
            ("+" if r.random() < 0.5 else "-") + line[6:] for line in f.code(r.randint(4, 16)).splitlines()
        )
        builder.run("git diff main...HEAD", diff)
    elif step == "install":
        pkg = r.choice(["requests", "zod", "serde", "lodash", "pydantic", "tokio", "axios", "rich"])
        builder.run(
            r.choice([f"pip install {pkg}", f"npm install {pkg}", f"cargo add {pkg}", f"poetry add {pkg}"]),
            f"Collecting {pkg}\n  Downloading {pkg}-{r.randint(1, 9)}.{r.randint(0, 30)}.0.tar.gz\n"
            f"Successfully installed {pkg}",
        )
    elif step == "tests":
        builder.tests(failing=r.random() < 0.2)
    else:
        getattr(builder, step)()
