"""Generate a reproducible corpus of Claude Code–format transcripts for benchmarks and tests.

    python benchmarks/corpus.py OUT_DIR --sessions 2000 --seed 1
    python benchmarks/corpus.py OUT_DIR --sessions 2000 --codex 0.5   # half of them Codex rollouts
    python benchmarks/corpus.py OUT_DIR --sessions 2000 --output-lines 1,12   # ~1 KB a message

Each session is a realistic-shaped JSONL file in `OUT_DIR/<project slug>/<session id>.jsonl`:
envelope fields, assistant lines with full usage blocks, tool calls whose results carry the
`toolUseResult` copy real transcripts have, hook progress lines and file-history snapshots. The
shape is calibrated on the real Claude Code fixtures (about 2.8 KB of transcript per
conversational line there; about 2 KB here, so MB/s figures here are conservative).
Every session carries one distinctive token `needle<N>` so search quality can be checked.

With `--codex F`, a fraction F of the sessions are Codex rollouts instead (`{timestamp, type,
payload}` lines: session_meta with its base instructions, developer context, turn_context per turn,
each prompt and answer both as an event and as a response item, reasoning with its encrypted blob,
shell calls whose output is a JSON string, token counts), calibrated on the real rollouts in
shared/fixtures/codex; then Claude Code's files go under `OUT_DIR/claude/` and Codex's under
`OUT_DIR/.codex/sessions/YYYY/MM/DD/`, as in a Codex home (`corpus_paths` names both). Without it the layout
and bytes are as they always were.
"""

from __future__ import annotations

import argparse
import base64
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


# Lines of a tool's output (a sentence each): the default gives ~1.9 KB of transcript per message;
# (1, 12) gives ~1 KB, the density of the issue #18 corpus (197 MB, 200k messages).
OUTPUT_LINES = (8, 50)


def session_lines(
    rng: random.Random, index: int, turns: int, start: datetime, output_lines: tuple[int, int] = OUTPUT_LINES
) -> tuple[str, str, list[dict]]:
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
            output = "\n".join(sentence(rng, rng.randint(5, 12)) for _ in range(rng.randint(*output_lines)))
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


def codex_session_lines(
    rng: random.Random, index: int, turns: int, start: datetime, output_lines: tuple[int, int] = OUTPUT_LINES
) -> tuple[str, list[dict]]:
    """One Codex rollout's records: the same kind of conversation as `session_lines`, in the
    wrapped format of 2025-2026 rollouts (prompts and answers recorded twice, as events and as
    response items; tool arguments and outputs as JSON strings; a turn_context per turn)."""
    sid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    project = PROJECTS[index % len(PROJECTS)]
    cwd = f"/home/dev/{project}"
    t = start
    lines: list[dict] = []

    def record(kind: str, payload: dict) -> None:
        nonlocal t
        t += timedelta(milliseconds=rng.randint(5, 40_000))
        lines.append({"timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", "type": kind, "payload": payload})

    def tokens() -> None:
        used = {k: rng.randint(1, 90_000) for k in ("input_tokens", "cached_input_tokens", "output_tokens")}
        info = {"total_token_usage": used, "last_token_usage": used, "model_context_window": 258_400}
        limits = {"primary": {"used_percent": float(rng.randint(0, 99)), "window_minutes": 300}}
        record("event_msg", {"type": "token_count", "info": info, "rate_limits": limits})

    def instructions(sentences: int) -> str:
        return "\n\n".join(paragraph(rng, 4) for _ in range(sentences // 4))

    git = {"commit_hash": uuid.UUID(int=rng.getrandbits(128)).hex + "0" * 8, "branch": "main"}
    meta = {"id": sid, "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.104.0", "source": "cli"}
    record(
        "session_meta",
        {**meta, "model_provider": "openai", "base_instructions": {"text": instructions(40)}, "git": git},
    )
    record(
        "response_item",
        {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": instructions(16)}]},
    )
    env = f"<environment_context>\n  <cwd>{cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>"
    record("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": env}]})
    for turn in range(turns):
        turn_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        record("event_msg", {"type": "task_started", "turn_id": turn_id, "model_context_window": 258_400})
        record(
            "turn_context",
            {
                "turn_id": turn_id,
                "cwd": cwd,
                "approval_policy": "on-request",
                "model": "gpt-5.3-codex",
                "effort": "medium",
                "user_instructions": instructions(8),
            },
        )
        prompt = paragraph(rng, rng.randint(1, 3))
        if turn == 0:
            prompt = f"needle{index} " + prompt
        record(
            "response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}
        )
        record("event_msg", {"type": "user_message", "message": prompt, "images": [], "local_images": []})
        tokens()
        for _ in range(rng.randint(0, 3)):
            thought = sentence(rng, rng.randint(4, 10))
            record("event_msg", {"type": "agent_reasoning", "text": thought})
            secret = base64.b64encode(rng.randbytes(rng.randint(600, 1800))).decode()
            record(
                "response_item",
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": thought}],
                    "content": None,
                    "encrypted_content": secret,
                },
            )
            call_id = "call_" + uuid.UUID(int=rng.getrandbits(128)).hex[:24]
            command = ["bash", "-lc", f"pytest tests/test_{rng.choice(WORDS)}.py -q"]
            if rng.random() < 0.5:
                command = ["bash", "-lc", f"sed -n 1,120p src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py"]
            args = json.dumps({"command": command, "workdir": cwd, "timeout_ms": 120_000})
            record("response_item", {"type": "function_call", "name": "shell", "arguments": args, "call_id": call_id})
            output = "\n".join(sentence(rng, rng.randint(5, 12)) for _ in range(rng.randint(*output_lines)))
            result = {"output": output, "metadata": {"exit_code": int(rng.random() < 0.2), "duration_seconds": 0.8}}
            record("response_item", {"type": "function_call_output", "call_id": call_id, "output": json.dumps(result)})
            tokens()
        answer = paragraph(rng, rng.randint(2, 6))
        record("event_msg", {"type": "agent_message", "message": answer})
        record(
            "response_item",
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": answer}]},
        )
        tokens()
        record("event_msg", {"type": "task_complete", "turn_id": turn_id, "last_agent_message": answer})
    return sid, lines


def corpus_paths(out: Path) -> list[Path]:
    """What to hand `ingest` for a corpus `generate` wrote: the folder itself, or with Codex
    rollouts its two parts (each recognised by its adapter's detector, as `smriti ingest --path`)."""
    return [out / "claude", out / ".codex"] if (out / ".codex").is_dir() else [out]


def generate(
    out: Path,
    sessions: int,
    seed: int = 1,
    turns: tuple[int, int] = (2, 8),
    codex: float = 0.0,
    output_lines: tuple[int, int] = OUTPUT_LINES,
) -> dict[str, int]:
    """`codex`: the fraction of sessions written as Codex rollouts (0: Claude Code only, the
    layout and bytes of every corpus made before the option existed)."""
    rng = random.Random(seed)
    pick = random.Random(seed + 7919)  # which sessions are Codex's, apart from their contents
    start = datetime(2026, 6, 1, tzinfo=UTC)
    total_bytes = messages = 0
    claude_root = out / "claude" if codex else out
    for i in range(sessions):
        when = start + timedelta(hours=i)
        if codex and pick.random() < codex:
            sid, records = codex_session_lines(rng, i, rng.randint(*turns), when, output_lines)
            folder = out / ".codex" / "sessions" / when.strftime("%Y/%m/%d")
            name = f"rollout-{when.strftime('%Y-%m-%dT%H-%M-%S')}-{sid}.jsonl"
            counted = sum(
                1
                for rec in records
                if rec["type"] == "response_item"
                and rec["payload"]["type"] in ("message", "function_call", "function_call_output")
            )
        else:
            sid, project, records = session_lines(rng, i, rng.randint(*turns), when, output_lines)
            folder = claude_root / f"-home-dev-{project}"
            name = f"{sid}.jsonl"
            counted = sum(1 for rec in records if rec["type"] in ("user", "assistant"))
        folder.mkdir(parents=True, exist_ok=True)
        # Codex writes compact JSON (its detector matches that); Claude Code's lines stay as this
        # generator always wrote them.
        compact = {"separators": (",", ":")} if name.startswith("rollout-") else {}
        data = "".join(json.dumps(rec, **compact) + "\n" for rec in records)
        (folder / name).write_text(data)
        total_bytes += len(data.encode())
        messages += counted
    return {"sessions": sessions, "bytes": total_bytes, "lines": messages}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--codex", type=float, default=0.0, help="the fraction of sessions written as Codex rollouts")
    ap.add_argument("--output-lines", default="8,50", help="LO,HI: lines of each tool output (1,12: ~1 KB a message)")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.output_lines.split(","))
    stats = generate(args.out, args.sessions, args.seed, codex=args.codex, output_lines=(lo, hi))
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
