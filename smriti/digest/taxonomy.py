r"""The category tree sessions are filed under, its seeded evidence, and the team's additions.

Pure: no I/O except reading the one config file `load_team_categories` is given.

Ids are `parent` or `parent/child` (lowercase letters, digits and `-`; two levels at most, so an id is
also a safe knowledge-folder path). The seeded tree:

    code          implementation · pattern · review · snippet
    architecture  design · decision · tradeoff
    bug           report · fix · investigation
    feature       requirement · design · implementation
    project       setup · config · dependency
    decision      technical · process · tooling
    topic         learning · explanation · comparison
    uncategorized (reserved: what a session is when the evidence is below the confidence floor)

What the seeded categories mean (the boundaries the seeded vocabularies are written for):
- code: work on code that is neither a bug nor a new user-facing capability. implementation =
  refactor/rewrite/convert/optimize/add tests; pattern = idioms and design patterns; review = reviewing a
  diff or PR; snippet = a small stand-alone piece (regex, SQL query, one-liner, script).
- architecture: system structure. design = components, data flow, boundaries; decision = an
  architectural choice recorded (ADR); tradeoff = weighing architectural options.
- bug: something is broken. report = writing it up / reproducing; investigation = finding the cause;
  fix = changing code so it works again.
- feature: a new capability for users. requirement = stories, acceptance criteria, scope; design =
  the feature's API/UX/data model; implementation = building it.
- project: the repository and its environment. setup = scaffolding, dev env, CI; config = settings
  files, env vars, linters' configuration; dependency = adding/upgrading/pinning packages.
- decision: a choice made for the team that is not system architecture. technical = a library or an
  approach; process = how the team works (branching, reviews, releases); tooling = developer tools.
- topic: understanding rather than changing anything. learning = being taught step by step;
  explanation = how/why something works; comparison = how X and Y differ, without choosing.

Team configuration: the `[categorize]` table of `.smriti/config.toml`. Other top-level tables belong to
other features and are ignored here; everything inside `[categorize]` is validated strictly.

    [categorize]
    floor = 0.3                       # optional: confidence below which a session is "uncategorized"

    [[categorize.categories]]         # a new category, or more keywords for an existing one
    id = "ops"                        # a child's parent must be seeded or declared in the same file
    description = "Operating production"
    keywords = ["runbook", "on-call"]

    [[categorize.categories]]
    id = "ops/incident"
    keywords = ["outage", "pager", "postmortem", "incident review"]   # several words = a phrase
    weight = 1.5                      # optional: weight of each keyword (default 1.5)

    [[categorize.categories]]
    id = "ops/deploy"
    [categorize.categories.keywords]  # or a table: each keyword with its own weight (-10 to 10,
    rollout = 2.0                     # not 0; a negative one cancels a word in a phrase that
    "rollout plan" = -1.0             # means something else)

    [[categorize.rules]]
    category = "+ops/deploy"          # "+" before a child: evidence that only picks among siblings
    actions = ["shell"]               # only tool calls/results doing this (smriti.models.ACTIONS);
    pattern = 'kubectl (?:apply|rollout)'   # with actions the pattern is optional: every such call

    [[categorize.rules]]              # a weighted regular expression
    category = "bug/fix"
    pattern = '(?i)\bhotfix\b'       # Python `re` syntax, at most 500 characters; a TOML
                                      # 'literal string' needs no escaping (write "\\b" in "…")
    weight = 2.0                      # optional, default 1.0; negative weights count against
    roles = ["user", "assistant"]     # optional: user, assistant, tool, system
    kinds = ["prompt", "response"]    # optional: prompt, response, tool_call, tool_result, summary
    needles = ["hotfix"]              # optional: lowercase literals one of which every match
                                      # contains; the pattern only runs on texts holding one


Why `[categorize]` and not top-level `[[categories]]`/`[[rules]]`: `.smriti/config.toml` is shared by
several features, and a top-level `rules` is a name that redaction or `check` would want too. A
top-level `categories` table is reported as an error with a hint, since it can only mean this.

The built-in tree is itself written in this schema, `data/categories.toml`, and read by the same
parser (`default_settings`); a team's table adds to it.

Why a child's parent must exist: a typo such as `bgu/fix` would otherwise silently create a new
top-level category; declaring `id = "ops"` explicitly costs one line.

A rule's pattern is searched (`re.search`, case-sensitive unless it says `(?i)`) in each message's
capped text (see `smriti.digest.categorize`); a tool call's text is "<tool name> <call summary>", e.g.
"Bash Bash: pytest -q" or "Edit Edit: src/app.py". Patterns that nest quantifiers (`(a+)+`,
`(\w+\s?)*`), the classic catastrophic-backtracking shape, are rejected, and so is a team pattern that
backtracks on adversarial texts (`smriti.saferegex`); a team's pattern runs under a timeout. A
rule adds its weight once per message that matches; keywords add theirs once per message that
contains them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from smriti import saferegex
from smriti.errors import ConfigError
from smriti.models import ACTIONS, KINDS, ROLES

UNCATEGORIZED = "uncategorized"
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}(?:/[a-z0-9][a-z0-9-]{0,39})?$")
SCORED_KINDS = tuple(k for k in KINDS if k != "injected_context")
DEFAULT_FLOOR = 0.3
TEAM_KEYWORD_WEIGHT = 1.5
MAX_PATTERN_CHARS = 500
MAX_KEYWORD_CHARS = 80
MAX_KEYWORDS = 500
MAX_TEAM_RULES = 200
MAX_TEAM_CATEGORIES = 200
MAX_NEEDLES = 20


@dataclass(frozen=True, slots=True)
class Category:
    id: str
    description: str = ""
    # (term, weight); a term of several words is a phrase. Matching is case-insensitive, on words.
    keywords: tuple[tuple[str, float], ...] = ()
    source: str = "seed"  # "seed" or "team"

    @property
    def parent(self) -> str | None:
        return self.id.split("/", 1)[0] if "/" in self.id else None


@dataclass(frozen=True, slots=True)
class Rule:
    category: str
    pattern: str
    weight: float = 1.0
    roles: frozenset[str] | None = None  # None: every role
    kinds: frozenset[str] | None = None  # None: every scored kind
    # Lowercase literals one of which every match contains; the regex is skipped when none is in
    # the lowercased text. Empty: always run.
    needles: tuple[str, ...] = ()
    source: str = "seed"
    # Only tool calls and results whose action (smriti.models.ACTIONS) is one of these; None: any
    # message. With actions, an empty pattern matches every such message.
    actions: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything categorization needs: the tree, its evidence, and the confidence floor.

    Build it with `default_settings()` or `load_team_categories(...)`. `fingerprint` changes whenever
    anything that affects scores changes (including the engine's own version), so saved per-session
    score totals can be recomputed when it differs from the one they were made with.
    """

    categories: tuple[Category, ...]
    rules: tuple[Rule, ...]
    floor: float = DEFAULT_FLOOR
    origin: str = "<seed>"
    # derived data (the compiled matcher, the fingerprint), built once per Settings on first use
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.categories)

    @property
    def fingerprint(self) -> str:
        fp = self._cache.get("fingerprint")
        if fp is None:
            fp = self._cache["fingerprint"] = _fingerprint(self)
        return fp

    def category(self, cid: str) -> Category | None:
        return next((c for c in self.categories if c.id == cid), None)


# --- the seeded tree ------------------------------------------------------------------------------------

# The seeded tree, its vocabulary and its rules are data: the same schema as a team's `[categorize]`
# table, read by the same parser, so the built-in vocabulary and a team's are one format.
SEED_FILE = Path(__file__).with_name("data") / "categories.toml"
_UNCATEGORIZED = Category(UNCATEGORIZED, "Below the confidence floor: not enough evidence to file it")


@lru_cache(maxsize=1)
def default_settings() -> Settings:
    """The seeded taxonomy with no team additions (`data/categories.toml`)."""
    text = SEED_FILE.read_text(encoding="utf-8")
    base = Settings(categories=(_UNCATEGORIZED,), rules=())
    return _parse(text, f"built-in {SEED_FILE.name}", base, "seed", settings_origin="<seed>")


# --- team configuration ---------------------------------------------------------------------------------


def load_team_categories(source: str | os.PathLike[str] | None) -> Settings:
    """Settings from a team's `.smriti/config.toml`: the seeded tree plus the `[categorize]` table.

    `source` is a path (a `PathLike`, or a one-line `str` with no `=` or `[`), or the TOML text
    itself. A missing file or a file without `[categorize]` gives `default_settings()`. Raises
    `ConfigError` naming the file, the entry and the problem.
    """
    if source is None:
        return default_settings()
    if isinstance(source, os.PathLike) or (
        "\n" not in source and "=" not in source and "[" not in source and source.strip()
    ):
        path = Path(source)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return default_settings()
        except OSError as exc:
            raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"{path} is not UTF-8 text") from None
        return parse_team_config(text, str(path))
    return parse_team_config(source, "<config>")


@lru_cache(maxsize=16)
def parse_team_config(text: str, origin: str = "<config>") -> Settings:
    """Settings from the text of a `.smriti/config.toml` (see the module docstring).

    Cached by text: loading the same config again returns the same Settings object, whose compiled
    matcher is then built only once.
    """
    return _parse(text, origin, default_settings(), "team")


def _parse(text: str, origin: str, base: Settings, source: str, settings_origin: str | None = None) -> Settings:
    """`base` plus the `[categorize]` table of `text`, validated; what it adds is marked `source`.

    Without a `[categorize]` table, `base` itself. `origin` names the text in errors.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin} is not valid TOML: {exc}") from None
    if "categories" in data:
        raise ConfigError(f"{origin}: top-level [[categories]] is not read; write [[categorize.categories]]")
    section = data.get("categorize")
    if section is None:
        return base
    if not isinstance(section, dict):
        raise ConfigError(f"{origin}: 'categorize' must be a table ([categorize])")
    unknown = sorted(set(section) - {"floor", "categories", "rules"})
    if unknown:
        raise ConfigError(
            f"{origin}: [categorize] has unknown key(s) {', '.join(unknown)}; known: floor, categories, rules"
        )

    floor = section.get("floor", DEFAULT_FLOOR)
    if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0 <= floor < 1:
        raise ConfigError(f"{origin}: categorize.floor must be a number from 0 to below 1, got {floor!r}")

    cats: dict[str, Category] = {c.id: c for c in base.categories}
    entries = _table_array(section, "categories", origin, MAX_TEAM_CATEGORIES)
    declared: set[str] = {e.get("id") for e in entries if isinstance(e.get("id"), str)}  # type: ignore[misc]
    seen: set[str] = set()
    headers = _headers(text, "categories")
    for n, entry in enumerate(entries, 1):
        where = _where(text, origin, "categories", n, entry.get("id"), headers)
        _check_keys(entry, {"id", "description", "keywords", "weight"}, where)
        cid = entry.get("id")
        if not isinstance(cid, str) or not ID_RE.match(cid):
            raise ConfigError(
                f"{where}: id must be 'name' or 'parent/child' of lowercase letters, digits and '-', got {cid!r}"
            )
        if cid == UNCATEGORIZED or cid.startswith(UNCATEGORIZED + "/"):
            raise ConfigError(f"{where}: '{UNCATEGORIZED}' is reserved")
        if cid in seen:
            raise ConfigError(f"{where}: category '{cid}' is declared twice")
        seen.add(cid)
        parent = cid.split("/", 1)[0] if "/" in cid else None
        if parent is not None and parent not in cats and parent not in declared:
            raise ConfigError(
                f"{where}: parent '{parent}' of '{cid}' is not a category; declare it too "
                f'([[categorize.categories]] id = "{parent}")'
            )
        description = entry.get("description", "")
        if not isinstance(description, str) or len(description) > 200:
            raise ConfigError(f"{where}: description must be a string of at most 200 characters")
        terms = _keywords(entry, where)
        old = cats.get(cid)
        if old is None:
            cats[cid] = Category(cid, description, tuple(terms), source)
        else:  # more words for an existing category
            cats[cid] = Category(cid, description or old.description, old.keywords + tuple(terms), old.source)

    rules = list(base.rules)
    # Checking the team's patterns may happen inside ingest's write transaction: all of them
    # together get saferegex.CONFIG_PROBE_TOTAL, so many slow-to-check ones cannot hold the lock either.
    checked_by = time.monotonic() + saferegex.CONFIG_PROBE_TOTAL
    headers = _headers(text, "rules")
    for n, entry in enumerate(_table_array(section, "rules", origin, MAX_TEAM_RULES), 1):
        where = _where(text, origin, "rules", n, entry.get("category"), headers)
        rules.append(_rule(entry, where, cats, source))
        if source != "seed" and time.monotonic() > checked_by:
            raise ConfigError(
                f"{where}: the rules' patterns took over {saferegex.CONFIG_PROBE_TOTAL:g} s to check against "
                "adversarial text; simplify them"
            )

    # parents first, each followed by its children, in declaration order
    ordered: list[Category] = []
    for c in cats.values():
        if c.parent is None:
            ordered.append(c)
            ordered.extend(k for k in cats.values() if k.parent == c.id)
    return Settings(categories=tuple(ordered), rules=tuple(rules), floor=float(floor), origin=settings_origin or origin)


def _keywords(entry: dict, where: str) -> list[tuple[str, float]]:
    """A category entry's (keyword, weight) pairs: a list all weighted `weight`, or a table keyword → weight."""
    keywords = entry.get("keywords", [])
    if isinstance(keywords, dict):
        if "weight" in entry:
            raise ConfigError(f"{where}: weight applies to a keyword list; in a keyword table each has its own")
        if len(keywords) > MAX_KEYWORDS:
            raise ConfigError(f"{where}: at most {MAX_KEYWORDS} keywords, found {len(keywords)}")
        for kw, weight in keywords.items():
            _check_keyword(kw, where)
            if (
                isinstance(weight, bool)
                or not isinstance(weight, (int, float))
                or not -10 <= weight <= 10
                or not weight
            ):
                raise ConfigError(
                    f"{where}: keyword {kw!r} must weigh a non-zero number from -10 to 10 "
                    f"(negative: cancels a word in a phrase that means something else), got {weight!r}"
                )
        return [(kw.strip(), float(weight)) for kw, weight in keywords.items()]
    weight = entry.get("weight", TEAM_KEYWORD_WEIGHT)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= 10:
        raise ConfigError(f"{where}: weight must be a number above 0 and at most 10, got {weight!r}")
    if not isinstance(keywords, list) or len(keywords) > MAX_KEYWORDS:
        raise ConfigError(
            f"{where}: keywords must be a list of at most {MAX_KEYWORDS} strings, or a table of keyword = weight"
        )
    for kw in keywords:
        _check_keyword(kw, where)
    return [(kw.strip(), float(weight)) for kw in keywords]


def _check_keyword(kw: object, where: str) -> None:
    if not isinstance(kw, str) or not kw.strip() or len(kw) > MAX_KEYWORD_CHARS:
        raise ConfigError(
            f"{where}: keyword {kw!r} must be a non-empty string of at most {MAX_KEYWORD_CHARS} characters"
        )
    if not any(ch.isalnum() for ch in kw):
        raise ConfigError(f"{where}: keyword {kw!r} has no letters or digits")


def _rule(entry: dict, where: str, cats: dict[str, Category], source: str) -> Rule:
    _check_keys(entry, {"category", "pattern", "weight", "roles", "kinds", "actions", "needles"}, where)
    cid = entry.get("category")
    if not isinstance(cid, str):
        raise ConfigError(f"{where}: category {cid!r} is not a known category")
    # "+child": evidence that only chooses between a parent's children (see smriti.digest.categorize)
    child_only = cid.startswith("+")
    target = cid[1:] if child_only else cid
    if target not in cats or target == UNCATEGORIZED:
        raise ConfigError(f"{where}: category {cid!r} is not a known category")
    if child_only and cats[target].parent is None:
        raise ConfigError(f"{where}: category {cid!r}: a '+' goes before a child category ('parent/child')")
    actions = _subset(entry.get("actions"), ACTIONS, "actions", where)
    pattern = entry.get("pattern")
    if pattern is None and actions is not None:  # every call of those actions
        pattern = ""
    elif not isinstance(pattern, str) or not pattern:
        raise ConfigError(f"{where}: pattern must be a non-empty string (a regular expression), or give actions")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise ConfigError(f"{where}: pattern is {len(pattern)} characters; at most {MAX_PATTERN_CHARS}")
    if saferegex.has_nested_quantifier(pattern):
        raise ConfigError(f"{where}: pattern {pattern!r} {saferegex.NESTED_MESSAGE}")
    try:
        compiled = re.compile(pattern)
        if source != "seed":
            # a team's pattern also runs on the `regex` module, under a timeout (smriti.saferegex)
            saferegex.compile_pattern(pattern)
    except (re.error, RecursionError, OverflowError, ValueError) as exc:
        raise ConfigError(f"{where}: pattern {pattern!r} is not a valid regular expression: {exc}") from None
    if source != "seed" and pattern and (why := saferegex.reject_reason(pattern)):
        raise ConfigError(f"{where}: pattern {pattern!r} {why}")
    if pattern and compiled.search(""):
        raise ConfigError(f"{where}: pattern {pattern!r} matches empty text, so it would match every message")
    weight = entry.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not -10 <= weight <= 10 or weight == 0:
        raise ConfigError(f"{where}: weight must be a non-zero number from -10 to 10, got {weight!r}")
    roles = _subset(entry.get("roles"), ROLES, "roles", where)
    kinds = _subset(entry.get("kinds"), SCORED_KINDS, "kinds", where)
    needles = entry.get("needles", [])
    if (
        not isinstance(needles, list)
        or len(needles) > MAX_NEEDLES
        or not all(isinstance(n, str) and n and n == n.lower() and len(n) <= MAX_KEYWORD_CHARS for n in needles)
    ):
        raise ConfigError(
            f"{where}: needles must be a list of at most {MAX_NEEDLES} lowercase strings "
            f"of at most {MAX_KEYWORD_CHARS} characters"
        )
    return Rule(cid, pattern, float(weight), roles, kinds, tuple(needles), source, actions)


def _subset(value: object, allowed: tuple[str, ...], name: str, where: str) -> frozenset[str] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: {name} must be a non-empty list of: {', '.join(allowed)}")
    bad = [v for v in value if v not in allowed]
    if bad:
        raise ConfigError(f"{where}: unknown {name} {', '.join(map(repr, bad))}; known: {', '.join(allowed)}")
    return frozenset(value)


def _table_array(section: dict, key: str, origin: str, limit: int) -> list[dict]:
    value = section.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ConfigError(f"{origin}: categorize.{key} must be an array of tables ([[categorize.{key}]])")
    if len(value) > limit:
        raise ConfigError(f"{origin}: at most {limit} [[categorize.{key}]] entries, found {len(value)}")
    return value


def _check_keys(entry: dict, known: set[str], where: str) -> None:
    unknown = sorted(set(entry) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")


def _headers(text: str, table: str) -> list[int]:
    """Where each `[[categorize.<table>]]` header starts in the file's text: found once per table,
    not once per entry (the seeds' 69 entries each scanning the 35 KB file cost every run ~10 ms)."""
    return [m.start() for m in re.finditer(rf"(?m)^[ \t]*\[\[[ \t]*categorize\.{table}[ \t]*\]\]", text)]


def _where(text: str, origin: str, table: str, n: int, name: object, headers: list[int]) -> str:
    """`file: [[categorize.rules]] #2 (line 14, 'bug/fix')` — the entry a person can find."""
    bits = []
    if len(headers) >= n:
        bits.append(f"line {text.count(chr(10), 0, headers[n - 1]) + 1}")
    if isinstance(name, str):
        bits.append(repr(name))
    suffix = f" ({', '.join(bits)})" if bits else ""
    return f"{origin}: [[categorize.{table}]] #{n}{suffix}"


# --- fingerprint ------------------------------------------------------------------------------------------

# bump when scoring changes in a way that makes saved score totals stale
# 2: the learned model decides with the rules (issue #17): every saved category is redone once
ENGINE_VERSION = 2


def _fingerprint(settings: Settings) -> str:
    doc = {
        "engine": ENGINE_VERSION,
        "floor": settings.floor,
        "categories": [[c.id, list(map(list, c.keywords))] for c in settings.categories],
        "rules": [
            [
                r.category,
                r.pattern,
                r.weight,
                sorted(r.roles or ()),
                sorted(r.kinds or ()),
                list(r.needles),
                sorted(r.actions or ()),
            ]
            for r in settings.rules
        ],
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
