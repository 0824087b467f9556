"""Generate a reproducible corpus of Claude Code–format transcripts for benchmarks and tests.

    python benchmarks/corpus.py OUT_DIR --sessions 2000 --seed 1

Each session is a realistic-shaped JSONL file in `OUT_DIR/<project slug>/<session id>.jsonl`:
envelope fields, assistant lines with full usage blocks, tool calls whose results carry the
`toolUseResult` copy real transcripts have, hook progress lines and file-history snapshots. The
shape is calibrated on the real Claude Code fixtures (about 2.8 KB of transcript per
conversational line there; about 2 KB here, so MB/s figures here are conservative).
Every session carries one distinctive token `needle<N>` so search quality can be checked.
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

WORDS = (
    "request response handler database migration schema index query cache pool connection timeout retry "
    "deploy build container image kubernetes ingress service config secret token auth session cookie user "
    "test fixture mock assert coverage flaky ci pipeline lint format type error exception stack trace "
    "function class module package import dependency version upgrade pin lock release tag branch merge "
    "commit rebase conflict review comment refactor rename extract inline performance latency memory cpu "
    "profile benchmark throughput queue worker job scheduler cron event stream kafka redis postgres sqlite "
    "api endpoint route middleware logging metrics tracing alert dashboard frontend component state render "
    "hook effect props css layout grid flex button form input validation payload json yaml toml parser"
).split()
PROJECTS = ["payments-api", "web-frontend", "data-pipeline", "infra", "mobile-app", "auth-service", "search", "billing"]
TOOLS = ["Bash", "Read", "Edit", "Grep", "Write"]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(sentence(rng, rng.randint(6, 16)) for _ in range(sentences))


def usage(rng: random.Random) -> dict:
    created = rng.randint(0, 5000)
    return {
        "input_tokens": rng.randint(1, 50),
        "cache_creation_input_tokens": created,
        "cache_read_input_tokens": rng.randint(1000, 90000),
        "output_tokens": rng.randint(1, 800),
        "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
        "service_tier": "standard",
        "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": created},
    }


def session_lines(rng: random.Random, index: int, turns: int, start: datetime) -> tuple[str, str, list[dict]]:
    sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    project = PROJECTS[index % len(PROJECTS)]
    cwd = f"/home/dev/{project}"
    t = start
    lines: list[dict] = []
    parent = None

    def envelope(kind: str) -> dict:
        nonlocal t, parent
        t += timedelta(seconds=rng.randint(2, 90))
        u = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        rec = {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            "entrypoint": "cli",
            "cwd": cwd,
            "sessionId": sid,
            "version": "2.1.40",
            "gitBranch": "main",
            "slug": "quiet-sprouting-ocean",
            "type": kind,
            "uuid": u,
            "timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
        }
        parent = u
        return rec

    for turn in range(turns):
        prompt = paragraph(rng, rng.randint(1, 3))
        if turn == 0:
            prompt = f"needle{index} " + prompt
        rec = envelope("user")
        rec["message"] = {"role": "user", "content": prompt}
        lines.append(rec)
        msg_id = "msg_" + uuid.UUID(int=rng.getrandbits(128)).hex[:24]
        for _ in range(rng.randint(0, 2)):
            tool = rng.choice(TOOLS)
            tool_id = "toolu_" + uuid.UUID(int=rng.getrandbits(128)).hex[:24]
            inp = (
                {"command": f"pytest tests/test_{rng.choice(WORDS)}.py -q"}
                if tool == "Bash"
                else {"file_path": f"{cwd}/src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py"}
            )
            rec = envelope("assistant")
            rec["requestId"] = "req_" + msg_id[4:16]
            rec["message"] = {
                "id": msg_id,
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "tool_use", "id": tool_id, "name": tool, "input": inp}],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": usage(rng),
            }
            lines.append(rec)
            if rng.random() < 0.5:
                hook = envelope("progress")
                hook.update(
                    {
                        "data": {
                            "type": "hook_progress",
                            "hookEvent": "PostToolUse",
                            "hookName": "PostToolUse:" + tool,
                            "command": "node ~/.claude/hooks/post-tool.js",
                        },
                        "parentToolUseID": tool_id,
                        "toolUseID": tool_id,
                    }
                )
                lines.append(hook)
            output = "\n".join(sentence(rng, rng.randint(5, 12)) for _ in range(rng.randint(8, 50)))
            rec = envelope("user")
            rec["message"] = {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": tool_id, "content": output}],
            }
            rec["toolUseResult"] = {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}
            rec["sourceToolAssistantUUID"] = lines[-1]["uuid"]
            lines.append(rec)
        rec = envelope("assistant")
        rec["requestId"] = "req_" + msg_id[4:16]
        rec["message"] = {
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": paragraph(rng, rng.randint(2, 6))}],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": usage(rng),
        }
        lines.append(rec)
        lines.append(
            {
                "type": "file-history-snapshot",
                "messageId": parent,
                "snapshot": {"trackedFileBackups": {}},
                "isSnapshotUpdate": False,
            }
        )
    return sid, project, lines


def generate(out: Path, sessions: int, seed: int = 1, turns: tuple[int, int] = (2, 8)) -> dict[str, int]:
    rng = random.Random(seed)
    start = datetime(2026, 6, 1, tzinfo=UTC)
    total_bytes = messages = 0
    for i in range(sessions):
        sid, project, lines = session_lines(rng, i, rng.randint(*turns), start + timedelta(hours=i))
        folder = out / f"-home-dev-{project}"
        folder.mkdir(parents=True, exist_ok=True)
        data = "".join(json.dumps(rec) + "\n" for rec in lines)
        (folder / f"{sid}.jsonl").write_text(data)
        total_bytes += len(data.encode())
        messages += sum(1 for rec in lines if rec["type"] in ("user", "assistant"))
    return {"sessions": sessions, "bytes": total_bytes, "lines": messages}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    stats = generate(args.out, args.sessions, args.seed)
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
