"""Redaction speed on realistic session transcripts: `smriti.team.redact.redact` and `scan`, per 20 KB text.

    python benchmarks/redact/bench_redact.py                 # 20 KB transcripts, prints a table
    python benchmarks/redact/bench_redact.py --kb 100 --runs 50
    python benchmarks/redact/bench_redact.py --detect-secrets   # also time Yelp's detect-secrets, if installed

The corpus is generated here (seeded): markdown conversation turns, shell and tool output, JSON, Python,
.env fragments, package-lock and requirements lines, git log with SHAs, UUIDs and digests, home paths,
e-mail addresses and a handful of secrets of several kinds. The budget in the issue: well under 5 ms
for a 20 KB transcript.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from smriti.team.redact import PathRule, Settings, TeamPattern, redact, scan  # noqa: E402

WORDS = (
    "the pool connection postgres timeout retry worker queue cache index migration schema deploy rollback "
    "request response handler config test fixture assert parse render session message agent hook recall "
    "share sync store commit branch review latency memory leak thread lock async await error trace"
).split()
B62 = string.ascii_letters + string.digits


def rnd(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def prose(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def chunk(rng: random.Random, i: int) -> str:
    sha = rnd(rng, "0123456789abcdef", 40)
    kind = i % 9
    if kind == 0:
        return f"**user**: {prose(rng, 25)} Why does `{rng.choice(WORDS)}_{rng.choice(WORDS)}()` fail?\n"
    if kind == 1:
        return (
            f"**assistant**: {prose(rng, 40)} See commit {sha[:7]} and {sha}. "
            f"The file is /home/alice/src/payments/{rng.choice(WORDS)}.py, line {rng.randint(1, 900)}.\n"
        )
    if kind == 2:
        return (
            "```json\n"
            + json.dumps(
                {
                    "id": f"toolu_01{rnd(rng, B62, 22)}",
                    "uuid": f"6c0e2a4e-1b2c-4d5e-8f90-{rng.getrandbits(48):012x}",
                    "max_tokens": 4096,
                    "model": "claude-sonnet-4",
                    "usage": {"input_tokens": rng.randint(1, 9999)},
                    "integrity": "sha512-" + rnd(rng, B62 + "+/", 86) + "==",
                    "digest": "sha256:" + rnd(rng, "0123456789abcdef", 64),
                },
                indent=2,
            )
            + "\n```\n"
        )
    if kind == 3:
        return (
            f"```python\ndef {rng.choice(WORDS)}_{rng.choice(WORDS)}(password: str, token: Token) -> None:\n"
            f'    client = Client(api_key=os.environ["API_KEY"], timeout={rng.randint(1, 60)})\n'
            f'    for row in rows:\n        cache_key = f"{{row.id}}:{{row.version}}"\n'
            f'        assert row.sha == "{sha}"\n```\n'
        )
    if kind == 4:
        return (
            f"$ git log --oneline -3\n{sha[:7]} Fix {rng.choice(WORDS)} {rng.choice(WORDS)}\n"
            f"{rnd(rng, '0123456789abcdef', 7)} Bump requests==2.31.{rng.randint(0, 9)}\n"
            f"Author: Bob <bob.builder@acme-corp.io>\n"
        )
    if kind == 5:
        return (
            f"$ pip install -r requirements.txt\nrequests==2.31.0 --hash=sha256:{rnd(rng, '0123456789abcdef', 64)}\n"
            f"docker pull ghcr.io/acme/api@sha256:{rnd(rng, '0123456789abcdef', 64)}\n"
        )
    if kind == 6:
        return f"> {prose(rng, 30)}\n> {prose(rng, 20)} (see /Users/bob/work/{rng.choice(WORDS)}/README.md)\n"
    if kind == 7:
        secrets = [
            f"GITHUB_TOKEN=ghp_{rnd(rng, B62, 36)}",
            f"OPENAI_API_KEY=sk-proj-{rnd(rng, B62, 48)}",
            f"DATABASE_URL=postgres://app:{rnd(rng, B62, 16)}@db.internal:5432/app",
            f'"aws_secret_access_key": "{rnd(rng, B62 + "/+", 40)}"',
            f'session_secret = "{rnd(rng, B62, 32)}"',
            f"AKIA{rnd(rng, string.ascii_uppercase + string.digits, 16)}",
        ]
        return f"tool_result:\n{rng.choice(secrets)}\n{prose(rng, 12)}\n"
    return f"- {prose(rng, 14)}\n- {prose(rng, 10)} v{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}\n"


def transcript(seed: int, size: int) -> str:
    rng = random.Random(seed)
    parts, n, i = ["# Fix connection pool exhaustion under load\n\n## Conversation\n"], 0, 0
    while n < size:
        c = chunk(rng, i)
        parts.append(c)
        n += len(c)
        i += 1
    return "".join(parts)[:size]


def timeit(fn, texts: list[str], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        for t in texts:
            t0 = time.perf_counter()
            fn(t)
            out.append((time.perf_counter() - t0) * 1000)
    return out


def row(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * (len(ms) - 1)))]
    return f"| {name} | {statistics.median(ms):.2f} | {statistics.mean(ms):.2f} | {p95:.2f} | {ms[-1]:.2f} |"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kb", type=int, default=20)
    ap.add_argument("--texts", type=int, default=20)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--detect-secrets", action="store_true")
    args = ap.parse_args()
    texts = [transcript(seed, args.kb * 1024) for seed in range(args.texts)]
    plain = Settings()
    team = Settings(
        patterns=(
            TeamPattern("acme", "acme-token", r"acme_[A-Za-z0-9]{32}"),
            TeamPattern("internal-host", "internal-host", r"\b[a-z0-9-]+\.corp\.acme\.internal\b"),
        ),
        path_rules=(PathRule("/srv/checkouts/*/", "<repo>/"),),
        home_dirs=("/data/users/alice",),
    )
    for t in texts[:3]:  # warm up, and a sanity check that the corpus gets redacted
        r = redact(t, plain)
        assert r.findings and r.ok, r.residual
    print(
        f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; "
        f"{args.texts} texts of {args.kb} KB, {args.runs} runs each\n"
    )
    print("| what | median ms | mean ms | p95 ms | max ms |\n|---|---|---|---|---|")
    print(row("redact (built-in rules)", timeit(lambda t: redact(t, plain), texts, args.runs)))
    print(row("redact (+2 team patterns, path rule, home dir)", timeit(lambda t: redact(t, team), texts, args.runs)))
    print(row("scan (built-in rules)", timeit(lambda t: scan(t, plain), texts, args.runs)))
    clean = [redact(t, plain).text for t in texts]
    print(row("scan of redacted text (residual check)", timeit(lambda t: scan(t, plain), clean, args.runs)))
    print(row("redact of text with nothing to redact", timeit(lambda t: redact(t, plain), clean, args.runs)))
    if args.detect_secrets:
        try:
            from detect_secrets import SecretsCollection
            from detect_secrets.settings import default_settings
        except ImportError:
            print("detect-secrets is not installed")
            return
        with tempfile.TemporaryDirectory() as d, default_settings():
            paths = []
            for i, t in enumerate(texts):
                p = Path(d) / f"t{i}.md"
                p.write_text(t)
                paths.append(str(p))
            print(
                row(
                    "detect-secrets 1.5 scan_file (no spans)",
                    timeit(lambda p: SecretsCollection().scan_file(p), paths, max(1, args.runs // 10)),
                )
            )


if __name__ == "__main__":
    main()
