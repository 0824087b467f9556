"""A session's category from the learned model, the rules and the team's labels, with one confidence.

    result = classify(messages, settings, scores=None, team=None)   # CategoryResult

How the three are combined
- No real text (empty, or only redaction placeholders like `[REDACTED_TEXT len=806 sha=…]`):
  `uncategorized` at confidence 0, whatever the rules or the model would guess.
- Explicit team rules win: what the team's `.smriti/config.toml` adds (its rules, its own categories,
  keywords it added to seeded ones) is scored on its own (`team_only`), and when that evidence alone
  reaches the floor, it decides. The model knows nothing of a team's categories or conventions.
- Otherwise the top-level distribution is `(1 − w) × model + w × rules`, where the rules' distribution
  spreads their evidence's strength over the parents they scored and the rest evenly (so no evidence
  is "don't know", not a vote), and `w` and the model's temperature were fitted together on labelled
  sessions the model never trained on (benchmarks/categorize/train.py). Children are chosen the same
  way within their parent. (The shipped model's calibration gave the seeded rules no share: they are
  then not even computed, and `rules_only` is what they alone would say.)
- The team's labels (`learned.TeamMemory`) then vote over leaves; their weight grows with how similar
  and how many the labelled sessions are.
- The leading parent's probability is the confidence. Below the floor, or when `uncategorized`
  leads (small talk, a recipe), the session is `uncategorized` and `candidate` names the best guess.
  The primary is the parent's leading child when it holds at least `CHILD_SHARE` of the parent.
- Other parents with at least `TAG_SHARE` of the leader's probability and over the floor become tags.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from smriti.digest import learned
from smriti.digest.categorize import STRENGTH_K, CategoryResult, Tag, decide, score_messages
from smriti.digest.taxonomy import UNCATEGORIZED, Category, Settings, default_settings
from smriti.models import Message, Session

CHILD_SHARE = 0.4
# How many of the model's known features a session needs before its distribution is taken at its word:
# the top-level distribution is shrunk toward even by exp(-known / EVIDENCE_K). Naive Bayes is as sure of
# itself on "List the files" (9 known features) as on a long session, and the generated corpus it was
# trained on has no one-line chats; real stores are full of them. Set by reading the shared fixtures'
# one-line test chats (10 left "List the files" at 0.31), never on a held-out set.
EVIDENCE_K = 15.0
TAG_SHARE = 0.4
MAX_TAGS = 3


def rules_top_probs(scores: Mapping[str, float], classes: Sequence[str]) -> dict[str, float]:
    """The rules' evidence as a distribution over the model's top-level classes."""
    totals: dict[str, float] = dict.fromkeys(classes, 0.0)
    for cid, value in scores.items():
        if cid.startswith(("#", "+")) or not isinstance(value, (int, float)) or not value > 0:
            continue
        top = cid.split("/", 1)[0]
        if top in totals:
            totals[top] += float(value)
    return _spread(totals)


def rules_child_probs(scores: Mapping[str, float], parent: str, classes: Sequence[str]) -> dict[str, float]:
    """The rules' evidence for a parent's children (their own and their "+child" evidence)."""
    totals = {}
    for kid in classes:
        v = sum(
            float(x)
            for x in (scores.get(kid, 0.0), scores.get("+" + kid, 0.0))
            if isinstance(x, (int, float)) and x > 0
        )
        totals[kid] = v
    return _spread(totals)


def _spread(totals: dict[str, float]) -> dict[str, float]:
    total = sum(totals.values())
    if not totals:
        return {}
    even = 1.0 / len(totals)
    if total <= 0 or not math.isfinite(total):
        return dict.fromkeys(totals, even)
    strength = 1.0 - math.exp(-total / STRENGTH_K)
    return {c: strength * v / total + (1.0 - strength) * even for c, v in totals.items()}


def _shrink(probs: Mapping[str, float], evidence: int) -> dict[str, float]:
    """`probs` pulled toward even in proportion to how little evidence there is (see EVIDENCE_K)."""
    if not probs:
        return {}
    trust = 1.0 - math.exp(-evidence / EVIDENCE_K)
    even = 1.0 / len(probs)
    return {c: trust * p + (1.0 - trust) * even for c, p in probs.items()}


def _mix(a: Mapping[str, float], b: Mapping[str, float], share: float) -> dict[str, float]:
    keys = set(a) | set(b)
    return {k: (1 - share) * a.get(k, 0.0) + share * b.get(k, 0.0) for k in keys}


def classify(
    messages: Iterable[Message] | Session,
    settings: Settings | None = None,
    *,
    scores: Mapping[str, float] | None = None,
    team: learned.TeamMemory | None = None,
    model: learned.Model | None = None,
    session: int | None = None,
) -> CategoryResult:
    """The category of a session (see the module docstring). `scores` are the rules' saved evidence
    (`score_messages`), computed here when not given and the model gives the rules a share;
    `session` is the stored session's rowid (its own label is not a neighbour of itself)."""
    settings = settings or default_settings()
    messages = list(messages.messages if isinstance(messages, Session) else messages)
    if not learned.has_real_text(messages):
        return CategoryResult(UNCATEGORIZED, 0.0)
    model = model or learned.load_model()
    if model is None:
        return decide(scores if scores is not None else score_messages(messages, settings), settings)
    team_settings = team_only(settings)
    if team_settings is not None:
        # explicit team rules and vocabulary (and the team's own categories) win when they fire
        team_rules = decide(score_messages(messages, team_settings), team_settings)
        if team_rules.category != UNCATEGORIZED:
            return team_rules

    feats = learned.features(learned.document(messages))
    known = model.known(feats)
    w = model.rules_weight
    top = _shrink(model.top_probs(known), len(known))
    if w > 0:  # the seeded rules' evidence is only computed when the calibration gave it a share
        if scores is None:
            scores = score_messages(messages, settings)
        top = _mix(top, rules_top_probs(scores, model.top.classes), w)
    leaves: dict[str, float] = {}
    ranked = sorted(top.items(), key=lambda kv: -kv[1])
    # The children of the leading parent decide the primary; the runner-up's only matter when the
    # team's labels may move probability between leaves.
    with_children = 2 if team is not None and len(team) else 1
    for i, (parent, p) in enumerate(ranked):
        level = model.children.get(parent)
        if i < with_children and level is not None:
            kids = model.child_probs(parent, known)
            if w > 0 and scores is not None:
                kids = _mix(kids, rules_child_probs(scores, parent, level.classes), w)
            for kid, q in kids.items():
                leaves[kid] = p * q
        else:
            leaves[parent] = p
    if team is not None and len(team):
        predicted = max(leaves.items(), key=lambda kv: kv[1])[0]
        votes, weight = team.vote(feats, predicted, session=session)
        votes = {c: v for c, v in votes.items() if settings.category(c) is not None}
        if votes and weight > 0:
            leaves = _mix(leaves, votes, weight)
    return _result(leaves, settings)


def team_only(settings: Settings) -> Settings | None:
    """What the team's config adds to the seeds (its rules, its categories, the keywords it added to
    seeded ones), as Settings of their own; None without a team config or when it adds no evidence.
    Built once per Settings (cached on it)."""
    if "team_only" in settings._cache:
        cached: Settings | None = settings._cache["team_only"]
        return cached
    seeds = default_settings()
    out: Settings | None = None
    if settings is not seeds:
        categories = []
        for c in settings.categories:
            seeded = seeds.category(c.id)
            known = set(seeded.keywords) if seeded is not None else set()
            categories.append(Category(c.id, c.description, tuple(k for k in c.keywords if k not in known), c.source))
        rules = tuple(r for r in settings.rules if r.source == "team")
        if rules or any(c.keywords for c in categories):
            out = Settings(tuple(categories), rules, settings.floor, settings.origin + " (team rules only)")
    settings._cache["team_only"] = out
    return out


def _result(leaves: Mapping[str, float], settings: Settings) -> CategoryResult:
    tops: dict[str, float] = {}
    for leaf, p in leaves.items():
        parent = leaf.split("/", 1)[0]
        tops[parent] = tops.get(parent, 0.0) + p
    ranked = sorted(tops.items(), key=lambda kv: (-kv[1], kv[0]))
    best, p_best = ranked[0]
    real = [(c, p) for c, p in ranked if c != UNCATEGORIZED]
    if best == UNCATEGORIZED or p_best < settings.floor or settings.category(best) is None:
        candidate = real[0] if real else None
        return CategoryResult(
            UNCATEGORIZED,
            _clamp(candidate[1] if candidate else 0.0),
            candidate=candidate[0] if candidate else None,
        )
    kids = sorted(((p, k) for k, p in leaves.items() if k.startswith(best + "/")), reverse=True)
    primary, confidence = best, p_best
    if kids and kids[0][0] >= CHILD_SHARE * p_best and settings.category(kids[0][1]) is not None:
        primary = kids[0][1]
    tags: list[Tag] = []
    for cid, p in real:
        if cid == best:
            continue
        if len(tags) == MAX_TAGS or p < TAG_SHARE * p_best:
            break
        if p >= settings.floor:
            tags.append(Tag(cid, _clamp(p)))
    return CategoryResult(primary, _clamp(confidence), tuple(tags))


def _clamp(x: float) -> float:
    if not x > 0:
        return 0.0
    return round(min(1.0, x), 4)
