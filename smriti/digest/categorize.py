"""Deterministic, free categorization of sessions: no LLM, no I/O, no global state besides caches.

How a session is scored
- Every message except `injected_context` is scored on its own into per-category evidence:
  the vocabulary of `smriti.digest.taxonomy` (words and phrases, read from the prose of prompts, responses
  and summaries: pasted code, logs and traces are left out), weighted regex rules (on any kind,
  filtered by role and kind: a stack trace in a tool result, `npm install` in a tool call, "let's go
  with" from a person), and rapidfuzz near-matches of multi-word terms and misspelled words in the
  first request (short text only).
- Per message and category the raw evidence saturates (`SATURATION`), so one long message can't
  outvote the rest, then is multiplied by the message's weight: the first real request (at least
  `MIN_REQUEST_WORDS` words) ×2.5, later prompts ×1.2, responses ×1, tool traffic less
  (`ROLE_WEIGHT`). Results of reading, searching and fetching tools (`READING_ACTIONS`) are not
  evidence: a file that contains `raise ValueError` says nothing about what happened in the session.
- Text is capped before scanning (`CAPS`; tool results: head and tail, where tracebacks and test
  summaries are), each text is tokenized once, vocabulary lookups are set intersections, and a rule
  only runs on a text that contains one of its literal needles.
- The per-message scores are plain sums, so they fold: `score_messages(new, prior=saved)` scores only
  appended messages and `add_scores(saved, that)` equals scoring the whole session. Keys starting
  with "#" are counters (`#prompts` tells whether the first request has been seen); keys starting
  with "+" are evidence that only chooses between a parent's children (edits and passing tests:
  fix rather than investigation).

How a session is decided (`decide`)
- A parent's total is its own evidence plus its children's. The leading parent's confidence is
  `strength × (0.4 + 0.6 × margin)`: strength `1 − e^(−total/STRENGTH_K)` grows with the amount of
  evidence, margin is how far it leads the runner-up. Below the floor (0.3 unless the team config
  sets it) the session is `uncategorized`, and `candidate` names the best guess.
- The primary category is the leading parent's child when that child has evidence of its own
  (`CHILD_MIN`, `CHILD_SHARE`) and clearly leads its siblings (`CHILD_LEAD`); otherwise the parent.
  A decision about the architecture is `architecture/decision` (`ARCHITECTURE_DECISION_SHARE`);
  an investigation that also edited files is a fix (`EDITED_CHILD`).
- Other parents with at least `TAG_SHARE` of the leader's total become secondary tags.

Typical use (ingest):

    settings = load_team_categories(repo / ".smriti" / "config.toml")   # once
    result = categorize_session(session.messages, settings)              # a whole session, or:
    scores = score_messages(session.messages, settings)                  # keep these, and on append:
    scores = add_scores(scores, score_messages(new_messages, settings, prior=scores))
    result = decide(scores, settings)          # CategoryResult(category, confidence, tags, candidate)

Saved scores are only valid for the `settings.fingerprint` they were made with; rescore when it
changes (team config edited, or a new smriti version with `taxonomy.ENGINE_VERSION` bumped).

Measured on labeled sessions by benchmarks/categorize/run.py (accuracy and throughput).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from smriti import saferegex
from smriti.digest.distill import READING_ACTIONS, prose_only, strip_injected, words
from smriti.digest.taxonomy import UNCATEGORIZED, Settings, default_settings
from smriti.models import Message, Session

ROLE_WEIGHT = {"prompt": 1.2, "response": 1.0, "summary": 1.0, "tool_call": 0.6, "tool_result": 0.8}
FIRST_PROMPT_WEIGHT = 2.5
SYSTEM_WEIGHT = 0.3
CAPS = {"prompt": 6000, "response": 4000, "summary": 4000, "tool_call": 1000}
RESULT_HEAD, RESULT_TAIL = 1000, 1000
FUZZY_TEXT_MAX = 600  # rapidfuzz only looks at the first request, up to this many characters
SATURATION = 4.0
STRENGTH_K = 5.0
TAG_SHARE = 0.4
MAX_TAGS = 3
CHILD_MIN = 1.0
CHILD_SHARE = 0.15
CHILD_LEAD = 1.3
# A child that also counts a share of another parent's evidence: an architecture session that reads
# like a decision is an architecture decision.
CHILD_BORROW = {"architecture/decision": ("decision", 0.5)}
# A decision whose subject is the architecture is an architecture decision: when `decision` leads
# and `architecture` has at least this share of its evidence, the session is architecture/decision.
ARCHITECTURE_DECISION_SHARE = 0.6
# Investigating is finding the cause without changing code: a session that also edited files (its
# "+bug/fix" evidence) fixed the bug, whatever its first request asked.
EDITED_CHILD = {"bug/investigation": "bug/fix"}
PROSE_KINDS = frozenset({"prompt", "response", "summary"})
MIN_REQUEST_WORDS = 3

_STOP = frozenset(
    "a an the and or but if then so to of in on at for with by from as is are was were be been it its "
    "this that these those i we you he she they me my our your their not no do does did can could would "
    "should will shall may might must have has had what which who how why when where there here all any "
    "some just also very more most than too up out about into over after before like get got make use".split()
)


@dataclass(frozen=True, slots=True)
class Tag:
    id: str
    confidence: float


@dataclass(frozen=True, slots=True)
class CategoryResult:
    category: str  # "parent", "parent/child" or "uncategorized"
    confidence: float  # in [0, 1]; for uncategorized, the (below-floor) confidence of `candidate`
    tags: tuple[Tag, ...] = ()  # secondary categories, strongest first
    candidate: str | None = None  # uncategorized only: the best guess that did not reach the floor

    @property
    def parent(self) -> str:
        return self.category.split("/", 1)[0]

    @property
    def ids(self) -> tuple[str, ...]:
        """Every id to tag the session with: the primary, its parent, then the secondary tags."""
        out = [self.parent] if self.parent != self.category else []
        out.append(self.category)
        out.extend(t.id for t in self.tags if t.id not in out)
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "confidence": self.confidence,
            "tags": [{"id": t.id, "confidence": t.confidence} for t in self.tags],
            "candidate": self.candidate,
        }


# --- public API ---------------------------------------------------------------------------------------------


def categorize_session(messages: Iterable[Message] | Session, settings: Settings | None = None) -> CategoryResult:
    """The primary category of a session, its confidence and secondary tags: the rules combined with the
    learned model (`smriti.digest.combined.classify`; `rules_only` for the rules' own decision)."""
    from smriti.digest.combined import classify  # noqa: PLC0415  (combined imports this module)

    return classify(messages, settings)


def rules_only(messages: Iterable[Message] | Session, settings: Settings | None = None) -> CategoryResult:
    """What the rules alone decide (the evidence `classify` mixes with the model's)."""
    settings = settings or default_settings()
    return decide(score_messages(messages, settings), settings)


def score_messages(
    messages: Iterable[Message] | Session,
    settings: Settings | None = None,
    *,
    prior: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Per-category evidence of these messages, summable with `add_scores`.

    `prior` is the saved total of the session's earlier messages (only its `#prompts` counter is
    read): it tells whether the session's first real request is among these messages.
    """
    settings = settings or default_settings()
    matcher = _matcher(settings)
    if isinstance(messages, Session):
        messages = messages.messages
    start = prompts = int((prior or {}).get("#prompts", 0))
    totals = [0.0] * len(matcher.ids)
    count = 0
    for msg in messages:
        if msg.kind == "injected_context":
            continue
        count += 1
        is_prompt = msg.role == "user" and msg.kind == "prompt"
        acc, n_words = matcher.score(msg, fuzzy=is_prompt and prompts == 0)
        if is_prompt and n_words >= MIN_REQUEST_WORDS:
            weight = FIRST_PROMPT_WEIGHT if prompts == 0 else ROLE_WEIGHT["prompt"]
            prompts += 1
        elif msg.role == "system" and msg.kind != "summary":
            weight = SYSTEM_WEIGHT
        else:
            weight = ROLE_WEIGHT.get(msg.kind, SYSTEM_WEIGHT)
        for ci, raw in acc.items():
            if raw > 0:
                totals[ci] += SATURATION * (1.0 - math.exp(-raw / SATURATION)) * weight
    out = {cid: round(v, 6) for cid, v in zip(matcher.ids, totals, strict=True) if v > 0}
    out["#prompts"] = float(prompts - start)
    out["#messages"] = float(count)
    return out


def add_scores(*parts: Mapping[str, float]) -> dict[str, float]:
    """Sum score dicts (saved totals and newly scored messages)."""
    out: dict[str, float] = {}
    for part in parts:
        for k, v in part.items():
            out[k] = round(out.get(k, 0.0) + float(v), 6)
    return out


def decide(scores: Mapping[str, float], settings: Settings | None = None) -> CategoryResult:
    """Turn per-category evidence into the session's category (see the module docstring)."""
    settings = settings or default_settings()
    matcher = _matcher(settings)
    totals: dict[str, float] = {}
    for cid, value in scores.items():
        if cid.startswith(("#", "+")) or cid == UNCATEGORIZED or cid not in matcher.index:
            continue  # counters, child-only evidence, or a category the team config no longer has
        v = _num(value)
        if v:
            top = cid.split("/", 1)[0]
            totals[top] = totals.get(top, 0.0) + v
    if not totals:
        return CategoryResult(UNCATEGORIZED, 0.0)
    architecture_decision = _architecture_decision(totals, matcher)
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    best, top_total = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    confidence = _strength(top_total) * (0.4 + 0.6 * (top_total - runner_up) / top_total)
    if confidence < settings.floor:
        return CategoryResult(UNCATEGORIZED, _clamp(confidence), candidate=best)
    tags = _tags(ranked, top_total, settings.floor)
    if architecture_decision:
        return CategoryResult("architecture/decision", _clamp(confidence), tags)

    primary = best
    kid_scores = {k: _num(scores.get(k)) + _num(scores.get("+" + k)) for k in matcher.children.get(best, ())}
    for kid, (lender, share) in CHILD_BORROW.items():
        if kid in kid_scores and lender in totals:
            kid_scores[kid] += share * totals[lender]
    kids = sorted(((v, k) for k, v in kid_scores.items()), key=lambda kv: (-kv[0], kv[1]))
    if kids:
        c1, kid = kids[0]
        c2 = kids[1][0] if len(kids) > 1 else 0.0
        if c1 >= CHILD_MIN and c1 >= CHILD_SHARE * top_total and c1 >= CHILD_LEAD * c2:
            kid_confidence = confidence * (0.6 + 0.4 * (c1 - c2) / c1)
            if kid_confidence >= settings.floor:
                primary, confidence = kid, kid_confidence
    if primary in EDITED_CHILD and _num(scores.get("+" + EDITED_CHILD[primary])) > 0:
        primary = EDITED_CHILD[primary]
    return CategoryResult(primary, _clamp(confidence), tags)


def _architecture_decision(totals: dict[str, float], matcher: _Matcher) -> bool:
    """When `decision` leads and `architecture` is close behind, fold decision into architecture."""
    dec, arch = totals.get("decision", 0.0), totals.get("architecture", 0.0)
    if "architecture/decision" not in matcher.index or not dec or max(totals.values()) != dec:
        return False
    if arch < ARCHITECTURE_DECISION_SHARE * dec:
        return False
    totals["architecture"] = arch + dec
    del totals["decision"]
    return True


def _tags(ranked: list[tuple[str, float]], top_total: float, floor: float) -> tuple[Tag, ...]:
    tags: list[Tag] = []
    for cid, total in ranked[1:]:
        if len(tags) == MAX_TAGS or total < TAG_SHARE * top_total:
            break
        tag_confidence = _strength(total) * total / top_total
        if tag_confidence >= floor:
            tags.append(Tag(cid, _clamp(tag_confidence)))
    return tuple(tags)


# --- scoring ------------------------------------------------------------------------------------------------


def _num(value: Any) -> float:
    """A positive finite score, else 0 (saved scores may come from anywhere)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(value) if 0 < value < math.inf else 0.0


def _strength(total: float) -> float:
    return 1.0 - math.exp(-total / STRENGTH_K)


def _clamp(x: float) -> float:
    if not x > 0:  # also NaN
        return 0.0
    return round(min(1.0, x), 4)


def _inflections(word: str) -> set[str]:
    out = {word}
    if not word.isalpha() or len(word) < 3:
        return out
    out |= {word + "s", word + "es", word + "ed", word + "ing"}
    if word.endswith("e"):
        out |= {word + "d", word[:-1] + "ing"}
    if word.endswith("y") and word[-2] not in "aeiou":
        out |= {word[:-1] + "ies", word[:-1] + "ied"}
    if len(word) <= 4 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou" and word[-3] not in "aeiou":
        out |= {word + word[-1] + "ed", word + word[-1] + "ing"}
    return out


def _keep(table: dict, key: Any, weight: float) -> None:
    """The strongest weight listed for a term; a negative one (a cancelling phrase) as given."""
    old = table.get(key)
    table[key] = weight if old is None else max(old, weight)


class _Matcher:
    """Settings compiled for scanning. Built once per Settings object (cached on it)."""

    def __init__(self, settings: Settings) -> None:
        # "+child" ids hold evidence that only chooses among a parent's children (seeded rules only)
        known = set(settings.ids)
        self.ids: tuple[str, ...] = settings.ids + tuple(
            sorted({r.category for r in settings.rules if r.category.startswith("+") and r.category[1:] in known})
        )
        self.index = {cid: i for i, cid in enumerate(self.ids)}
        self.children: dict[str, tuple[str, ...]] = {}
        for c in settings.categories:
            if c.parent is not None:
                self.children[c.parent] = (*self.children.get(c.parent, ()), c.id)

        explicit: dict[tuple[str, int], float] = {}
        generated: dict[tuple[str, int], float] = {}
        phrases: dict[tuple[str, int], float] = {}
        base: dict[tuple[str, int], float] = {}  # phrases as written, for near-matches
        for c in settings.categories:
            ci = self.index[c.id]
            for term, weight in c.keywords:
                toks = words(term)
                if not toks:
                    continue
                if len(toks) == 1:
                    _keep(explicit, (toks[0], ci), weight)
                    for form in _inflections(toks[0]) - {toks[0]}:
                        _keep(generated, (form, ci), weight)
                else:
                    _keep(base, (" ".join(toks), ci), weight)
                    for form in _inflections(toks[0]):
                        key = (" ".join([form, *toks[1:]]), ci)
                        _keep(phrases, key, weight)
        merged = generated | explicit
        by_word: dict[str, list[tuple[int, float]]] = {}
        for (w, ci), weight in sorted(merged.items()):
            by_word.setdefault(w, []).append((ci, weight))
        self.words = {w: tuple(v) for w, v in by_word.items()}
        self.word_keys = frozenset(self.words)

        # A phrase is looked for only in texts containing its least common-looking word.
        by_anchor: dict[str, list[tuple[str, str, int, float]]] = {}
        for (phrase, ci), weight in sorted(phrases.items()):
            toks = phrase.split()
            ranked = sorted(set(toks), key=lambda t: (t in _STOP, -len(t), t))
            anchor, second = ranked[0], ranked[1] if len(ranked) > 1 else ranked[0]
            # the second word is a cheap membership test before the substring search
            by_anchor.setdefault(anchor, []).append((f" {phrase} ", second, ci, weight))
        fuzzy: dict[str, list[tuple[str, int, float, int]]] = {}
        for (phrase, ci), weight in sorted(base.items()):
            if weight <= 0:
                continue
            prefixes = sorted({t[:4] for t in phrase.split() if len(t) >= 4 and t not in _STOP})
            for prefix in prefixes:
                fuzzy.setdefault(prefix, []).append((phrase, ci, weight, min(2, len(prefixes))))
        self.anchors = {a: tuple(v) for a, v in by_anchor.items()}
        self.anchor_keys = frozenset(self.anchors)
        self.fuzzy_phrases = {k: tuple(dict.fromkeys(v)) for k, v in fuzzy.items()}
        # single words for typo matching, grouped by their first two letters
        self.typo_index: dict[str, list[str]] = {}
        for w in sorted(explicit_w for explicit_w, _ in explicit if len(explicit_w) >= 6 and explicit_w.isalpha()):
            bucket = self.typo_index.setdefault(w[:2], [])
            if w not in bucket:
                bucket.append(w)
        self._typo_memo: dict[str, str | None] = {}

        # Per (role, kind): the rules that apply, and the distinct needles that gate them. Rules with
        # the same pattern, roles and kinds are searched once and credit every category they name.
        self.rules: dict[tuple[str, str], tuple[Any, ...]] = {}
        # A rule with actions only applies to tool calls and results doing one of them; without a
        # pattern (rx None) it credits every such message.
        grouped: dict[tuple, list[tuple[int, float]]] = {}
        untrusted: set[str] = set()
        for r in settings.rules:
            if r.category in self.index:
                group = (r.pattern, r.roles, r.kinds, frozenset(r.needles), r.actions)
                grouped.setdefault(group, []).append((self.index[r.category], r.weight))
                if r.source != "seed":
                    untrusted.add(r.pattern)
        # A team's pattern (anyone's pull request) runs bounded: this runs inside ingest's write
        # transaction, so a backtracking one must cost a fraction of a second, not hold the lock.
        self.budget = saferegex.Budget()
        compiled = [
            (self._compile(key[0], key[0] in untrusted), key, tuple(credits)) for key, credits in grouped.items()
        ]
        for role in ("user", "assistant", "tool", "system"):
            for kind in ("prompt", "response", "tool_call", "tool_result", "summary"):
                applicable = tuple(
                    (rx, needles, credits, actions)
                    for rx, (_, roles, kinds, needles, actions), credits in compiled
                    if (roles is None or role in roles)
                    and (kinds is None or kind in kinds)
                    and (actions is None or kind in ("tool_call", "tool_result"))
                )
                all_needles = tuple(sorted({n for _, ns, _, _ in applicable for n in ns}))
                ungated = tuple(i for i, (_, ns, _, _) in enumerate(applicable) if not ns)
                gated_by = {n: tuple(i for i, (_, ns, _, _) in enumerate(applicable) if n in ns) for n in all_needles}
                self.rules[(role, kind)] = (all_needles, applicable, ungated, gated_by)

    def _compile(self, pattern: str, untrusted: bool) -> Any:
        if not pattern:
            return None
        return saferegex.Guarded(pattern, self.budget) if untrusted else re.compile(pattern)

    def score(self, msg: Message, fuzzy: bool = False) -> tuple[dict[int, float], int]:
        """Raw evidence per category index, and the number of words of prose scanned."""
        text = msg.text if isinstance(msg.text, str) else ""
        kind = msg.kind
        acc: dict[int, float] = {}
        n_words = 0
        action = None
        if kind == "tool_result":
            action = msg.action
            if action in READING_ACTIONS:
                return acc, 0  # file contents and search hits describe the code, not what happened
            if len(text) > RESULT_HEAD + RESULT_TAIL:
                text = text[:RESULT_HEAD] + "\n" + text[-RESULT_TAIL:]
        elif kind == "tool_call":
            action = msg.action
            text = f"{msg.tool_name or ''} {text[: CAPS['tool_call']]}"
        else:
            text = text[: CAPS.get(kind, 4000)]
        if "<" in text:
            text = strip_injected(text)
        if kind in PROSE_KINDS or msg.role == "system":
            # words are read from prose: pasted code and logs say little about what the session is
            toks = words(
                prose_only(text) if ("```" in text or "`" in text or "\n " in text or "\n\t" in text) else text
            )
            n_words = len(toks)
            present = set(toks)
            words_map = self.words
            for w in present & self.word_keys:
                for ci, weight in words_map[w]:
                    acc[ci] = acc.get(ci, 0.0) + weight
            anchors = present & self.anchor_keys
            if anchors:
                norm = f" {' '.join(toks)} "
                for a in anchors:
                    for padded, second, ci, weight in self.anchors[a]:
                        if second in present and padded in norm:
                            acc[ci] = acc.get(ci, 0.0) + weight
            if fuzzy and n_words >= MIN_REQUEST_WORDS:
                self._fuzzy(toks, present, acc)
        needles, rules, ungated, gated_by = self.rules[(msg.role, kind)]
        if rules:
            self.budget.start_text()  # the team's patterns share one allowance per message
            low = text.lower()
            todo = set(ungated)
            for n in needles:
                if n in low:
                    todo.update(gated_by[n])
            for i in sorted(todo):
                rx, _, credits, actions = rules[i]
                if actions is not None and action not in actions:
                    continue
                if rx is None or rx.search(text):
                    for ci, weight in credits:
                        acc[ci] = acc.get(ci, 0.0) + weight
        return acc, n_words

    def _fuzzy(self, toks: list[str], present: set[str], acc: dict[int, float]) -> None:
        """Near-matches in a short request: multi-word terms and misspelled vocabulary words."""
        text = " ".join(toks)[:FUZZY_TEXT_MAX]
        padded = f" {text} "
        # a phrase is a candidate when the text has a word starting like each of its content words
        # (two at most): "conection pooling" for "connection pool", not every phrase with "pool"
        hits: dict[tuple[str, int, float, int], int] = {}
        for prefix in {t[:4] for t in toks if len(t) >= 4 and t not in _STOP}:
            for entry in self.fuzzy_phrases.get(prefix, ()):
                hits[entry] = hits.get(entry, 0) + 1
        for (phrase, ci, weight, needed), n in sorted(hits.items()):
            if n < needed or f" {phrase} " in padded:
                continue
            if fuzz.partial_ratio(phrase, text, score_cutoff=90):
                acc[ci] = acc.get(ci, 0.0) + 0.7 * weight
        for tok in sorted(present - self.word_keys):
            if len(tok) < 6 or not tok.isalpha() or tok in _STOP:
                continue
            match = self._typo(tok)
            if match is not None:
                for ci, weight in self.words[match]:
                    acc[ci] = acc.get(ci, 0.0) + 0.7 * weight

    def _typo(self, tok: str) -> str | None:
        if tok in self._typo_memo:
            return self._typo_memo[tok]
        candidates = [w for w in self.typo_index.get(tok[:2], ()) if abs(len(w) - len(tok)) <= 2]
        found = process.extractOne(tok, candidates, scorer=fuzz.ratio, score_cutoff=88) if candidates else None
        result = found[0] if found else None
        if len(self._typo_memo) > 50_000:
            self._typo_memo.clear()
        self._typo_memo[tok] = result
        return result


def pattern_warnings(settings: Settings) -> list[str]:
    """What the team's patterns did wrong since the last call (a pattern switched off after a timeout)."""
    m = settings._cache.get("matcher")
    return m.budget.drain() if m is not None else []


def _matcher(settings: Settings) -> _Matcher:
    m = settings._cache.get("matcher")
    if m is None:
        m = settings._cache["matcher"] = _Matcher(settings)
    return m
