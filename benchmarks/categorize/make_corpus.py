"""Write the labelled corpus (package data) from the two generators, reproducibly.

    python benchmarks/categorize/make_corpus.py

- smriti/digest/data/corpus_train.jsonl.gz — style A (corpus_a.py), PER_LABEL_A sessions for every
  leaf category and `uncategorized`: what train.py fits the model on.
- smriti/digest/data/corpus_heldout.jsonl.gz — style B (corpus_b.py), written separately by another
  "author" (terse commit-message style and long prose, other nouns): evaluation only. Nothing reads
  it for training, for the calibration or for the combination with the rules.

Same seed, same bytes (gzip mtime 0, sorted keys).
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus_a  # noqa: E402
import corpus_b  # noqa: E402

DATA = HERE.parent.parent / "smriti" / "digest" / "data"
TRAIN = DATA / "corpus_train.jsonl.gz"
HELDOUT = DATA / "corpus_heldout.jsonl.gz"
PER_LABEL_A = 50
PER_LABEL_B = 12
SEED_A, SEED_B = 1701, 2902


def write(path: Path, rows: list[dict]) -> None:
    body = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows).encode()
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=9) as f:
        f.write(body)


def build_a(per_label: int = PER_LABEL_A, seed: int = SEED_A) -> list[dict]:
    rng = random.Random(seed)
    return [
        corpus_a.session(rng, label, f"a-{label.replace('/', '-')}-{i}")
        for label in corpus_a.PROMPTS
        for i in range(per_label)
    ]


def build_b(per_label: int = PER_LABEL_B, seed: int = SEED_B) -> list[dict]:
    rng = random.Random(seed)
    return [
        corpus_b.session(rng, label, f"b-{label.replace('/', '-')}-{i}", terse=i % 2 == 0)
        for label in corpus_b.LABELS
        for i in range(per_label)
    ]


def main() -> None:
    a, b = build_a(), build_b()
    write(TRAIN, a)
    write(HELDOUT, b)
    print(f"{TRAIN.relative_to(HERE.parent.parent)}: {len(a)} sessions, {TRAIN.stat().st_size:,} bytes")
    print(f"{HELDOUT.relative_to(HERE.parent.parent)}: {len(b)} sessions, {HELDOUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
