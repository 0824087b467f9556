"""Train the category model (package data) from the labelled corpus, reproducibly.

    python benchmarks/categorize/train.py

1. Reads smriti/digest/data/corpus_train.jsonl.gz (style A; make_corpus.py writes it). The held-out
   style-B corpus and eval_holdout6.jsonl are never read here.
2. Keeps the features seen in at least MIN_DF training sessions, fits binarized multinomial naive
   Bayes for the top level and for each parent's children (smriti.digest.learned.fit_level).
3. Calibrates out of fold: the corpus is cut into FOLDS parts, a model is fitted on all but one and
   scores the one left out; the temperature of each level and the share of the rules in the mix are
   the grid point with the best log-likelihood of the true category over those out-of-fold scores
   plus the 401 hand-written sessions (REAL_SETS; the full model scores them): on style A alone the
   model is always right and the rules would get no weight, on the sets the rules were tuned on the
   rules are (96-100%); holdout4 and holdout5, which no rule was tuned on, settle the share.
4. Writes smriti/digest/data/category_model.bin.gz (`Model.save`: gzip mtime 0, sorted keys: same input, same bytes).
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from collections import Counter
from pathlib import Path

from smriti.digest.categorize import score_messages
from smriti.digest.combined import rules_child_probs, rules_top_probs
from smriti.digest.learned import MODEL_FILE, Model, document, features, fit_level
from smriti.digest.taxonomy import default_settings
from smriti.models import Message

HERE = Path(__file__).resolve().parent
TRAIN = HERE.parent.parent / "smriti" / "digest" / "data" / "corpus_train.jsonl.gz"
FOLDS = 5
# The 110 hand-written sessions the rules were tuned on are real wording the generated corpus lacks:
# trained on too, counted this many times (a generated template repeats ~5 times per category).
REAL_REPEAT = 3
# The hand-written sets used for training: the three the rules were tuned on, holdout3 (run four times,
# no longer held out) and holdout4 (written by another hand, run once as a held-out set on 2026-11-27:
# 84.7% top-level, rules alone 86.1%; the rules were never tuned on it, so in the calibration it is the
# one unbiased witness of what the rules add), holdout5 (another hand, run once held out: 84.4%, rules
# alone 85.2%). eval_holdout6 is never read here.
REAL_SETS = [
    HERE / f"eval_{name}.jsonl"
    for name in ("tune", "holdout", "holdout2", "holdout3", "holdout4", "holdout4_uncat", "holdout5", "holdout5_uncat")
]
MIN_DF = 2
MIN_RULES_GAIN = 0.01
TEMPERATURES = [0.2, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40]
RULE_SHARES = [0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7]


def messages(row: dict) -> list[Message]:
    return [
        Message(m["role"], m["text"], m["kind"], m["key"], tool_name=m.get("tool_name"), tool_input=m.get("tool_input"))
        for m in row["messages"]
    ]


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def top_of(label: str) -> str:
    return label.split("/", 1)[0]


def train(rows: list[dict]) -> Model:
    docs = [features(document(messages(r))) for r in rows]
    labels = [r["expect"] for r in rows]
    # document frequency over distinct sessions (a repeated session is still one)
    distinct = {r["id"]: d for r, d in zip(rows, docs, strict=True)}
    df = Counter(f for d in distinct.values() for f in d)
    vocabulary = sorted(f for f, n in df.items() if n >= MIN_DF)
    top = fit_level(docs, [top_of(label) for label in labels], vocabulary)
    children = {}
    for parent in sorted({top_of(label) for label in labels if "/" in label}):
        picked = [(d, label) for d, label in zip(docs, labels, strict=True) if top_of(label) == parent]
        children[parent] = fit_level([d for d, _ in picked], [label for _, label in picked], vocabulary)
    rows_index = {f: i for i, f in enumerate(vocabulary)}
    return Model(rows=rows_index, top=top, children=children, meta={"sessions": len(rows), "features": len(vocabulary)})


def calibrate(model: Model, corpus: list[dict], real: list[dict]) -> Model:
    settings = default_settings()
    prepared = []
    # In the calibration loss each hand-written session counts so much that they weigh as much as the
    # generated corpus together (1150 sessions against 401).
    real_weight = len(corpus) / len(real)
    everything = [(r, 1.0) for r in corpus] + [(r, real_weight) for r in real]
    for k in range(FOLDS):
        fold_model = train(
            [r for i, (r, w) in enumerate(everything) if i % FOLDS != k for _ in range(1 if w == 1.0 else REAL_REPEAT)]
        )
        for r, weight in everything[k::FOLDS]:
            msgs = messages(r)
            known = fold_model.known(features(document(msgs)))
            scores = score_messages(msgs, settings)
            prepared.append((r["expect"], fold_model.top.scores(known), known, scores, fold_model, weight))
    classes = model.top.classes

    def top_loss(t: float, share: float) -> float:
        loss = 0.0
        for expect, raw, _, scores, _, weight in prepared:
            m = max(raw)
            exps = [math.exp((s - m) / t) for s in raw]
            z = sum(exps)
            rules = rules_top_probs(scores, classes)
            p = (1 - share) * exps[classes.index(top_of(expect))] / z + share * rules[top_of(expect)]
            loss -= weight * math.log(max(p, 1e-9))
        return loss

    t, share = min(((t, s) for t in TEMPERATURES for s in RULE_SHARES), key=lambda ts: top_loss(*ts))

    def accuracy(part: list, s: float) -> float:
        hits = 0
        for expect, raw, _, scores, _, _ in part:
            rules = rules_top_probs(scores, classes)
            mixed = [
                (1 - s) * math.exp((x - max(raw)) / t) / sum(math.exp((y - max(raw)) / t) for y in raw) + s * rules[c]
                for x, c in zip(raw, classes, strict=True)
            ]
            hits += classes[mixed.index(max(mixed))] == top_of(expect)
        return hits / len(part)

    for name, want in (("generated", 1.0), ("hand-written sets", real_weight)):
        part = [p for p in prepared if p[5] == want]
        for s in sorted({0.0, share, 0.3}):
            print(f"  out of fold, {name}: rules share {s}: top-level {accuracy(part, s):.3f} ({len(part)})")
    # Any share of the rules means running them on every session, which costs about a third of the
    # throughput; they are kept only when they add a point of accuracy on the hand-written sessions.
    real_part = [p for p in prepared if p[5] == real_weight]
    if share and accuracy(real_part, share) - accuracy(real_part, 0.0) < MIN_RULES_GAIN:
        print(f"  rules share {share} adds under {MIN_RULES_GAIN:.0%} out of fold: not worth running them, share 0")
        share = 0.0
        t = min(TEMPERATURES, key=lambda x: top_loss(x, 0.0))

    def child_loss(ct: float) -> float:
        loss = 0.0
        for expect, _, known, scores, fold_model, weight in prepared:
            parent = top_of(expect)
            level = fold_model.children.get(parent)
            if level is None or "/" not in expect:
                continue
            raw = level.scores(known)
            m = max(raw)
            exps = [math.exp((s - m) / ct) for s in raw]
            rules = rules_child_probs(scores, parent, level.classes)
            p = (1 - share) * exps[level.classes.index(expect)] / sum(exps) + share * rules[expect]
            loss -= weight * math.log(max(p, 1e-9))
        return loss

    ct = min(TEMPERATURES, key=child_loss)
    print(
        f"calibration on {len(prepared)} sessions out of fold: temperature {t}, "
        f"child temperature {ct}, rules share {share}"
    )
    return Model(
        model.rows, model.top, model.children, t, ct, share, {**model.meta, "calibration_sessions": len(prepared)}
    )


def main() -> None:
    corpus = read_jsonl(TRAIN)
    real = [r for path in REAL_SETS for r in read_jsonl(path)]
    rows = corpus + real * REAL_REPEAT
    model = train(rows)
    print(
        f"trained on {len(corpus)} corpus + {len(real)}x{REAL_REPEAT} hand-written sessions, {len(model.rows)} features"
    )
    model = calibrate(model, corpus, real)
    model.save(MODEL_FILE)
    print(f"wrote {MODEL_FILE} ({MODEL_FILE.stat().st_size:,} bytes)")


if __name__ == "__main__":
    sys.exit(main())
