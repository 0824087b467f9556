"""Synthetic coding-agent sessions of about 20 KB each, for measuring throughput (not accuracy).

Each session looks like a real transcript: a request (sometimes with a pasted trace), assistant prose,
tool calls (Read, Edit, Bash, Grep, Write) with their inputs, and tool results of realistic size (file
contents, test output, logs, tracebacks). Identifiers, numbers and paths are random, so nothing is
repeated verbatim across sessions. Deterministic for a given seed.

    python benchmarks/categorize/generate.py --n 3 --seed 1 > /tmp/sample.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator

from smriti.models import Message

TARGET_BYTES = 20_000

WORDS = (
    "order invoice payment user account session token cache queue worker job report export import schedule "
    "customer tenant price cart checkout inventory shipment webhook event stream batch index query filter "
    "profile avatar notification email template config setting flag migration schema table column row "
    "request response handler middleware router client server service gateway proxy pool connection retry "
    "timeout limit budget metric trace span log alert dashboard widget button page modal form field"
).split()
VERBS = "load save parse build render fetch sync compute validate normalize merge split update delete create".split()
LANGS = [("py", "python"), ("ts", "typescript"), ("go", "go"), ("js", "javascript"), ("rs", "rust")]

PROMPTS = [
    "The {a} {b} is failing in production with {err}. Can you find out why and fix it?",
    "Refactor {path} so the {a} logic is separated from the {b} handling; keep behaviour the same.",
    "Add a new endpoint that lets users {v} their {a} {b}s, with tests.",
    "Should we use {lib1} or {lib2} for {a} {b}? We care about bundle size and typing.",
    "Explain how the {a} {b} works in this codebase, I'm new here and want to understand the flow.",
    "Upgrade {lib1} to {ver} and fix whatever breaks in {path}.",
    "Review the diff in {path} and tell me what you'd change before I merge.",
    "Set up a docker compose file for local development with postgres, redis and the {a} service.",
    "Design how {a} {b}s should flow between the {c} service and the warehouse; what are the tradeoffs?",
    "Write a regex that matches {a} ids like {ident}-1234 but not {ident}-12.",
    "Move the hard-coded {a} settings in {path} into environment variables.",
    "Write user stories and acceptance criteria for {a} {b} export.",
]
ERRORS = [
    "KeyError: '{ident}'",
    "TypeError: Cannot read properties of undefined (reading '{ident}')",
    "psycopg_pool.PoolTimeout: couldn't get a connection after 30.00 sec",
    "ValueError: invalid literal for int() with base 10: '{ident}'",
    "java.lang.NullPointerException: {ident} is null",
    "panic: runtime error: index out of range [3] with length 3",
]
LIBS = [
    "react",
    "vue",
    "dayjs",
    "luxon",
    "pydantic",
    "attrs",
    "sqlalchemy",
    "django",
    "fastapi",
    "zod",
    "numpy",
    "pandas",
]


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng
        self.n = 0

    def ident(self) -> str:
        return self.r.choice(WORDS) + "_" + self.r.choice(WORDS) + str(self.r.randint(0, 999))

    def path(self) -> str:
        ext, _ = self.r.choice(LANGS)
        return f"src/{self.r.choice(WORDS)}/{self.r.choice(WORDS)}_{self.r.choice(VERBS)}.{ext}"

    def sentence(self, n: int | None = None) -> str:
        n = n or self.r.randint(8, 22)
        words = [
            self.r.choice(WORDS + VERBS + ["the", "a", "to", "and", "of", "in", "is", "we", "it", "this"])
            for _ in range(n)
        ]
        return " ".join(words).capitalize() + self.r.choice([".", ".", ".", "?", ":"])

    def code(self, lines: int) -> str:
        out = []
        for i in range(lines):
            name = self.ident()
            out.append(
                self.r.choice(
                    [
                        f"{i + 1:4d}  def {name}(self, {self.r.choice(WORDS)}, {self.r.choice(WORDS)}=None):",
                        f"{i + 1:4d}      {name} = {self.r.choice(VERBS)}_{self.r.choice(WORDS)}"
                        f"({self.r.choice(WORDS)}, limit={self.r.randint(1, 500)})",
                        f"{i + 1:4d}      if not {name}: raise "
                        f"{self.r.choice(['ValueError', 'KeyError', 'RuntimeError'])}"
                        f"('{self.r.choice(WORDS)} missing')",
                        f"{i + 1:4d}      return {{'{self.r.choice(WORDS)}': {name}, "
                        f"'count': len({self.r.choice(WORDS)}s)}}",
                        f"{i + 1:4d}  # {self.sentence(6)}",
                        f"{i + 1:4d}  export const {name} = async ({self.r.choice(WORDS)}: "
                        f"{self.r.choice(['string', 'number', 'User', 'Order'])}) => {{",
                    ]
                )
            )
        return "\n".join(out)

    def test_output(self) -> str:
        n = self.r.randint(20, 300)
        lines = [
            f"tests/test_{self.r.choice(WORDS)}.py::test_{self.ident()} PASSED" for _ in range(self.r.randint(10, 40))
        ]
        if self.r.random() < 0.4:
            err = self.r.choice(ERRORS).format(ident=self.ident())
            lines += [
                "=" * 30 + " FAILURES " + "=" * 30,
                f"    def test_{self.ident()}():",
                f">       {self.ident()}()",
                f"E       {err}",
                f"FAILED tests/test_{self.r.choice(WORDS)}.py::test_{self.ident()} - {err}",
                f"1 failed, {n} passed in {self.r.random() * 9:.2f}s",
            ]
        else:
            lines.append(f"{n} passed in {self.r.random() * 9:.2f}s")
        return "\n".join(lines)

    def log(self) -> str:
        return "\n".join(
            f"2024-0{self.r.randint(1, 9)}-1{self.r.randint(0, 9)}T1{self.r.randint(0, 9)}:0{self.r.randint(0, 9)}:00Z "
            f"{self.r.choice(['INFO', 'INFO', 'WARN', 'ERROR'])} {self.r.choice(WORDS)}.{self.r.choice(VERBS)} "
            f"{self.sentence(7)} id={self.ident()}"
            for _ in range(self.r.randint(15, 60))
        )

    def msg(self, role: str, kind: str, text: str, **kw) -> Message:
        self.n += 1
        return Message(role, text, kind, f"k{self.n}", **kw)

    def session(self) -> list[Message]:
        r = self.r
        fill = dict(
            a=r.choice(WORDS),
            b=r.choice(WORDS),
            c=r.choice(WORDS),
            v=r.choice(VERBS),
            path=self.path(),
            err=r.choice(ERRORS).format(ident=self.ident()),
            lib1=r.choice(LIBS),
            lib2=r.choice(LIBS),
            ver=f"{r.randint(1, 9)}.{r.randint(0, 20)}.{r.randint(0, 9)}",
            ident=self.ident(),
        )
        prompt = r.choice(PROMPTS).format(**fill)
        if r.random() < 0.3:
            prompt += (
                '\n\n```\nTraceback (most recent call last):\n  File "app.py", line 12, in <module>\n    main()\n'
                + fill["err"]
                + "\n```"
            )
        msgs = [self.msg("user", "prompt", prompt)]
        size = len(prompt)
        while size < TARGET_BYTES:
            step = r.random()
            if step < 0.25:
                text = " ".join(self.sentence() for _ in range(r.randint(2, 8)))
                msgs.append(self.msg("assistant", "response", text))
                size += len(text)
            elif step < 0.5:
                p = self.path()
                msgs.append(
                    self.msg(
                        "assistant",
                        "tool_call",
                        f"Read: {p}",
                        tool_name="Read",
                        tool_input={"file_path": p},
                        files=(p,),
                    )
                )
                body = self.code(r.randint(20, 120))
                msgs.append(self.msg("tool", "tool_result", body, tool_name="Read"))
                size += len(body) + 40
            elif step < 0.7:
                p = self.path()
                old, new = self.code(r.randint(2, 12)), self.code(r.randint(2, 14))
                msgs.append(
                    self.msg(
                        "assistant",
                        "tool_call",
                        f"Edit: {p}",
                        tool_name="Edit",
                        tool_input={"file_path": p, "old_string": old, "new_string": new},
                        files=(p,),
                    )
                )
                msgs.append(self.msg("tool", "tool_result", f"The file {p} has been updated.", tool_name="Edit"))
                size += len(old) + len(new) + 80
            elif step < 0.9:
                cmd = r.choice(
                    [
                        f"pytest tests/{r.choice(WORDS)} -q",
                        f"npm test -- {r.choice(WORDS)}",
                        f"git log --oneline -n {r.randint(3, 20)}",
                        f"grep -rn {self.ident()} src",
                        f"kubectl logs deploy/{r.choice(WORDS)} --tail 200",
                        "cargo build",
                    ]
                )
                msgs.append(
                    self.msg("assistant", "tool_call", f"Bash: {cmd}", tool_name="Bash", tool_input={"command": cmd})
                )
                out = self.test_output() if "test" in cmd else self.log()
                msgs.append(self.msg("tool", "tool_result", out, tool_name="Bash"))
                size += len(out) + len(cmd)
            else:
                text = r.choice(
                    [
                        "ok, go ahead",
                        "also " + self.sentence(),
                        "looks good, now " + r.choice(VERBS) + " the " + r.choice(WORDS),
                        "why?",
                    ]
                )
                msgs.append(self.msg("user", "prompt", text))
                size += len(text)
        return msgs


def sessions(n: int, seed: int = 0) -> Iterator[list[Message]]:
    gen = _Gen(random.Random(seed))
    for _ in range(n):
        yield gen.session()


def session_bytes(messages: list[Message]) -> int:
    total = 0
    for m in messages:
        total += len(m.text.encode())
        if m.tool_input is not None:
            total += len(json.dumps(m.tool_input))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    for msgs in sessions(args.n, args.seed):
        row = [
            {
                "role": m.role,
                "kind": m.kind,
                "text": m.text,
                "key": m.key,
                "tool_name": m.tool_name,
                "tool_input": m.tool_input,
                "files": list(m.files),
            }
            for m in msgs
        ]
        sys.stdout.write(json.dumps({"messages": row}) + "\n")


if __name__ == "__main__":
    main()
