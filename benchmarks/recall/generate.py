"""Write the recall benchmark corpus as Claude Code JSONL transcripts, plus the labeled queries.

    python benchmarks/recall/generate.py OUT_DIR [--distractors 1800] [--seed 11]

OUT_DIR/claude/-home-dev-<project>/<session id>.jsonl   one transcript per session (facts + distractors)
OUT_DIR/queries.json                                   [{fid, native_id, project, cwd, split, close, para}]

Every session has the shape of a real Claude Code transcript: a user request, assistant text with
tool_use blocks, tool_result lines, the agent's findings, follow-ups, timestamps and cwd/gitBranch.
The labeled fact sessions are built the same way as the distractors (same openers, follow-ups and
timing), so nothing but their content tells them apart. Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from distractors import BANKS, FOLLOWUPS, OPENERS, distractor, routine  # noqa: E402
from facts import FACTS, UNRELATED, UNRELATED_HOLDOUT, UNRELATED_HOLDOUT2, split  # noqa: E402

START = datetime(2026, 5, 1, tzinfo=UTC)
SPAN_DAYS = 203  # sessions from 2026-05-01 to 2026-11-20
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)  # "today" for recency
BRANCHES = ["main", "fix/{w}", "feat/{w}", "chore/{w}"]


def cwd_of(project: str) -> str:
    return f"/home/dev/{project}"


class Writer:
    def __init__(self, rng: random.Random, project: str, native_id: str, start: datetime):
        self.rng, self.project, self.sid, self.t = rng, project, native_id, start
        self.parent: str | None = None
        self.lines: list[str] = []
        word = rng.choice(BANKS[project]["mod"]).replace(" ", "-")
        self.branch = rng.choice(BRANCHES).format(w=word)

    def _uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128)))

    def _emit(self, kind: str, message: dict) -> None:
        self.t += timedelta(seconds=self.rng.randint(4, 90))
        u = self._uuid()
        rec = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": cwd_of(self.project),
            "sessionId": self.sid,
            "version": "2.1.40",
            "gitBranch": self.branch,
            "type": kind,
            "message": message,
            "uuid": u,
            "timestamp": self.t.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        }
        if kind == "assistant":
            rec["requestId"] = "req_" + u[:8]
        self.parent = u
        self.lines.append(json.dumps(rec, ensure_ascii=False))

    def user(self, text: str) -> None:
        self._emit("user", {"role": "user", "content": text})

    def assistant(self, text: str | None = None, tool: tuple[str, str] | None = None) -> str | None:
        content: list[dict] = []
        if text:
            content.append({"type": "text", "text": text})
        tid = None
        if tool:
            tid = "toolu_" + self._uuid().replace("-", "")[:20]
            name, arg = tool
            key = {"Bash": "command", "Read": "file_path", "Grep": "pattern", "Edit": "file_path"}.get(name, "input")
            content.append({"type": "tool_use", "id": tid, "name": name, "input": {key: arg}})
        self._emit(
            "assistant",
            {
                "id": "msg_" + self._uuid()[:12],
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": content,
                "stop_reason": None,
                "usage": {"input_tokens": self.rng.randint(50, 4000), "output_tokens": self.rng.randint(20, 900)},
            },
        )
        return tid

    def tool_result(self, tid: str, output: str) -> None:
        self._emit(
            "user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tid, "content": output}]}
        )


def session_lines(rng: random.Random, project: str, native_id: str, start: datetime, s: dict) -> list[str]:
    w = Writer(rng, project, native_id, start)
    w.user(s["ask"])
    steps = list(s["steps"])
    for extra in routine(project, rng, rng.choice([0, 1, 2, 3])):  # routine traffic around the real steps
        steps.insert(rng.randint(0, len(steps)), extra)
    for i, (tool, arg, out) in enumerate(steps):
        tid = w.assistant(s["opener"] if i == 0 else None, (tool, arg))
        w.tool_result(tid, out)
    w.assistant(s["finding"])
    follow = s["followups"] or [rng.choice(FOLLOWUPS)]
    w.user(follow[0][0])
    w.assistant(s["done"])
    for q, a in follow[1:]:
        w.user(q)
        w.assistant(a)
    return w.lines


def generate(out: Path, distractors: int = 1800, seed: int = 11) -> dict:
    rng = random.Random(seed)
    root = out / "claude"
    projects = list(BANKS)
    sessions: list[tuple[str, str, datetime, dict]] = []
    queries = []
    for f in FACTS:
        nid = str(uuid.UUID(int=rng.getrandbits(128)))
        start = START + timedelta(days=rng.uniform(0, SPAN_DAYS))
        follow = rng.sample(FOLLOWUPS, k=rng.choice([0, 1, 1, 2]))
        s = {
            "ask": f.ask,
            "steps": f.steps,
            "finding": f.finding,
            "done": f.done,
            "followups": follow,
            "opener": rng.choice(OPENERS),
        }
        sessions.append((f.project, nid, start, s))
        queries.append(
            {
                "fid": f.fid,
                "native_id": nid,
                "project": f.project,
                "cwd": cwd_of(f.project),
                "split": split(f.fid),
                "close": f.close,
                "para": f.para,
            }
        )
    for _ in range(distractors):
        project = rng.choice(projects)
        nid = str(uuid.UUID(int=rng.getrandbits(128)))
        start = START + timedelta(days=rng.uniform(0, SPAN_DAYS))
        sessions.append((project, nid, start, distractor(project, rng)))
    n_messages = 0
    for project, nid, start, s in sessions:
        folder = root / f"-home-dev-{project}"
        folder.mkdir(parents=True, exist_ok=True)
        lines = session_lines(rng, project, nid, start, s)
        n_messages += len(lines)
        (folder / f"{nid}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    meta = {
        "queries": queries,
        "unrelated": UNRELATED,
        "unrelated_holdout": UNRELATED_HOLDOUT,
        "unrelated_holdout2": UNRELATED_HOLDOUT2,
        "sessions": len(sessions),
        "facts": len(FACTS),
        "distractors": distractors,
        "lines": n_messages,
        "seed": seed,
        "now": NOW.isoformat(),
    }
    (out / "queries.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
    return meta


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--distractors", type=int, default=1800)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    meta = generate(args.out, args.distractors, args.seed)
    print(
        f"{meta['sessions']} sessions ({meta['facts']} labeled, {meta['distractors']} distractors), "
        f"{meta['lines']} transcript lines in {args.out}"
    )


if __name__ == "__main__":
    main()
