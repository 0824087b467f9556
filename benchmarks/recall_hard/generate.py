"""Write the hard recall benchmark corpus (Claude Code JSONL transcripts) and its labeled queries.

    python benchmarks/recall_hard/generate.py OUT_DIR [--distractors 2000] [--seed 13]

OUT_DIR/claude/-home-dev-<project>/<session id>.jsonl   one long transcript per session
OUT_DIR/queries.json    queries (close, para, para2, key facts, split), unrelated prompts, corpus counts

96 needle sessions (benchmarks/recall/facts.py) and N distractors, every one 50–400 transcript lines
of routine work with its story in the middle (corpus.py). Distractors: a quarter near-duplicates of
the needles (cycled over the facts, so each has about N/4/96 of them), 30% generic bug hunts, the
rest template stories of benchmarks/recall/distractors.py. Deterministic for a given seed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sys
import uuid
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECALL = HERE.parent / "recall"
sys.path[:0] = [str(HERE), str(RECALL)]
from corpus import bug_hunt, long_session, near_duplicate, needle_story, template_stories  # noqa: E402
from distractors import BANKS  # noqa: E402
from facts import FACTS, UNRELATED, UNRELATED_HOLDOUT, UNRELATED_HOLDOUT2  # noqa: E402
from keyfacts import KEY_FACTS, PARA2, UNRELATED_NEW, split, unrelated_split  # noqa: E402


def _easy(name: str):  # noqa: ANN202 - a module of benchmarks/recall whose name clashes with ours
    spec = importlib.util.spec_from_file_location(f"recall_easy_{name}", RECALL / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_easy_gen = _easy("generate")
Writer, START, SPAN_DAYS, NOW, cwd_of = (
    _easy_gen.Writer,
    _easy_gen.START,
    _easy_gen.SPAN_DAYS,
    _easy_gen.NOW,
    _easy_gen.cwd_of,
)
NEAR_SHARE, BUG_SHARE = 0.25, 0.30


def unrelated_prompts() -> list[str]:
    return UNRELATED + UNRELATED_HOLDOUT + UNRELATED_HOLDOUT2 + UNRELATED_NEW


def render(rng: random.Random, project: str, native_id: str, start, events: list) -> list[str]:  # noqa: ANN001
    w = Writer(rng, project, native_id, start)
    for e in events:
        if e[0] == "user":
            w.user(e[1])
        elif e[0] == "say":
            w.assistant(e[1])
        else:
            _, text, tool, output = e
            w.tool_result(w.assistant(text, tool), output)
    return w.lines


def generate(out: Path, distractors: int = 2000, seed: int = 13) -> dict:
    rng = random.Random(seed)
    projects = list(BANKS)
    root = out / "claude"
    all_fids = [f.fid for f in FACTS]
    queries: list[dict] = []
    near_ids: dict[str, list[str]] = {f.fid: [] for f in FACTS}
    kinds: dict[str, int] = {}
    n_sessions = n_lines = 0

    def write(project: str, events: list) -> str:
        nonlocal n_sessions, n_lines
        nid = str(uuid.UUID(int=rng.getrandbits(128)))
        start = START + timedelta(days=rng.uniform(0, SPAN_DAYS))
        lines = render(rng, project, nid, start, events)
        folder = root / f"-home-dev-{project}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{nid}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        # A transcript's mtime is when its session was last written, as on a real machine. Ingest reads
        # files in mtime order, and message row ids follow: written in generation order (needles first),
        # every exact tie between a needle and its near-duplicate would go to the needle by row id.
        stamp = start.timestamp() + len(lines) * 30
        os.utime(path, (stamp, stamp))
        n_sessions += 1
        n_lines += len(lines)
        return nid

    for f in FACTS:
        nid = write(f.project, long_session(f.project, rng, [needle_story(f, rng)]))
        queries.append(
            {
                "fid": f.fid,
                "native_id": nid,
                "project": f.project,
                "cwd": cwd_of(f.project),
                "split": split(f.fid, all_fids),
                "close": f.close,
                "para": f.para,
                "para2": PARA2[f.fid],
                "keys": list(KEY_FACTS[f.fid]),
            }
        )
    order = list(FACTS)
    rng.shuffle(order)
    n_near, n_bug = round(distractors * NEAR_SHARE), round(distractors * BUG_SHARE)
    plan = ["near"] * n_near + ["bug"] * n_bug + ["template"] * (distractors - n_near - n_bug)
    rng.shuffle(plan)
    i_near = 0
    for kind in plan:
        if kind == "near":
            f = order[i_near % len(order)]
            i_near += 1
            story, sub = near_duplicate(f, rng)
            near_ids[f.fid].append(write(f.project, long_session(f.project, rng, [story])))
            kinds[f"near-duplicate ({sub})"] = kinds.get(f"near-duplicate ({sub})", 0) + 1
            continue
        project = rng.choice(projects)
        stories = bug_hunt(project, rng) if kind == "bug" else template_stories(project, rng)
        write(project, long_session(project, rng, stories))
        label = "generic bug hunt" if kind == "bug" else "template story"
        kinds[label] = kinds.get(label, 0) + 1
    prompts = unrelated_prompts()
    unrelated = [
        {"prompt": p, "split": unrelated_split(p, prompts), "cwd": cwd_of(projects[i % len(projects)])}
        for i, p in enumerate(prompts)
    ]
    meta = {
        "queries": queries,
        "unrelated": unrelated,
        "near_duplicates": near_ids,
        "kinds": kinds,
        "sessions": n_sessions,
        "facts": len(FACTS),
        "distractors": distractors,
        "lines": n_lines,
        "seed": seed,
        "now": NOW.isoformat(),
    }
    (out / "queries.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
    return meta


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--distractors", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    meta = generate(args.out, args.distractors, args.seed)
    print(
        f"{meta['sessions']} sessions ({meta['facts']} needles, {meta['distractors']} distractors: "
        f"{meta['kinds']}), {meta['lines']} transcript lines in {args.out}"
    )


if __name__ == "__main__":
    main()
