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

    [[categorize.rules]]              # a weighted regular expression
    category = "bug/fix"
    pattern = '(?i)\bhotfix\b'       # Python `re` syntax, at most 500 characters; a TOML
                                      # 'literal string' needs no escaping (write "\\b" in "…")
    weight = 2.0                      # optional, default 1.0; negative weights count against
    roles = ["user", "assistant"]     # optional: user, assistant, tool, system
    kinds = ["prompt", "response"]    # optional: prompt, response, tool_call, tool_result, summary

Why `[categorize]` and not top-level `[[categories]]`/`[[rules]]`: `.smriti/config.toml` is shared by
several features, and a top-level `rules` is a name that redaction or `check` would want too. A
top-level `categories` table is reported as an error with a hint, since it can only mean this.

Why a child's parent must exist: a typo such as `bgu/fix` would otherwise silently create a new
top-level category; declaring `id = "ops"` explicitly costs one line.

A rule's pattern is searched (`re.search`, case-sensitive unless it says `(?i)`) in each message's
capped text (see `smriti.digest.categorize`); a tool call's text is "<tool name> <call summary>", e.g.
"Bash Bash: pytest -q" or "Edit Edit: src/app.py". Patterns that nest quantifiers (`(a+)+`,
`(\w*)*`), the classic catastrophic-backtracking shape, are rejected. A rule adds its weight once
per message that matches; keywords add theirs once per message that contains them.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from smriti.errors import ConfigError
from smriti.models import KINDS, ROLES

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
# a group whose body ends in a quantifier, itself quantified: (a+)+  (\w*)*  (x{2,}){3}
_NESTED_QUANTIFIER = re.compile(r"\((?:[^()\\]|\\.)*[*+}]\)[*+{]")


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
    # the lowercased text. Empty: always run (team rules).
    needles: tuple[str, ...] = ()
    source: str = "seed"


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

_D = dict[str, float]

SEED_DESCRIPTIONS: dict[str, str] = {
    "code": "Working on code that is neither a bug nor a new capability",
    "code/implementation": "Refactoring, rewriting, converting or optimizing code",
    "code/pattern": "Idioms and design patterns",
    "code/review": "Reviewing a diff or pull request",
    "code/snippet": "A small stand-alone piece of code: regex, query, one-liner, script",
    "architecture": "System structure",
    "architecture/design": "Components, data flow and boundaries of a system",
    "architecture/decision": "An architectural decision and its record",
    "architecture/tradeoff": "Weighing architectural options",
    "bug": "Something is broken",
    "bug/report": "Writing up or reproducing a bug",
    "bug/fix": "Fixing a bug",
    "bug/investigation": "Finding the cause of a bug",
    "feature": "A new capability for users",
    "feature/requirement": "Stories, acceptance criteria and scope",
    "feature/design": "A feature's API, UX or data model",
    "feature/implementation": "Building a feature",
    "project": "The repository and its environment",
    "project/setup": "Scaffolding, development environment, CI",
    "project/config": "Settings files, environment variables, tool configuration",
    "project/dependency": "Adding, upgrading or pinning packages",
    "decision": "A choice made for the team that is not system architecture",
    "decision/technical": "Choosing a library or an approach",
    "decision/process": "How the team works",
    "decision/tooling": "Choosing developer tools",
    "topic": "Understanding rather than changing anything",
    "topic/learning": "Being taught step by step",
    "topic/explanation": "How or why something works",
    "topic/comparison": "How two things differ",
}

# Words and phrases, matched on lowercased words (punctuation and `-` separate words, so write
# "trade-off" or "trade off" alike). Single words also match their regular inflections
# ("refactor" → refactors/refactored/refactoring), the first word of a phrase too. A negative
# weight cancels a word in a phrase that means something else ("requirements.txt" is not a
# requirement, a "settings page" is not configuration).
SEED_KEYWORDS: dict[str, _D] = {
    "code": {
        "function": 0.5,
        "method": 0.5,
        "class": 0.4,
        "module": 0.4,
        "codebase": 0.6,
        "code": 0.5,
        "readability": 1.0,
        "readable": 0.8,
        "duplication": 1.0,
        "dry": 0.3,
        "clean code": 1.2,
        "type hints": 1.0,
        "typing": 0.5,
        "annotations": 0.6,
        "lines long": 1.0,
        "nested": 0.6,
        "legacy code": 1.0,
        "unit tests": 0.5,
        "without changing behaviour": 2.0,
        "without changing behavior": 2.0,
        "same behaviour": 1.0,
        "same behavior": 1.0,
    },
    "code/implementation": {
        "refactor": 2.0,
        "rewrite": 1.5,
        "restructure": 1.2,
        "simplify": 1.0,
        "clean up": 1.2,
        "extract": 1.0,
        "inline": 0.5,
        "rename": 0.6,
        "split": 0.8,
        "convert": 1.2,
        "port": 0.8,
        "migrate": 0.4,
        "optimize": 1.2,
        "optimise": 1.2,
        "speed up": 1.0,
        "vectorize": 1.0,
        "async await": 1.5,
        "callbacks": 1.0,
        "promises": 0.6,
        "generics": 0.8,
        "decouple": 0.8,
        "dead code": 1.2,
        "helper": 0.8,
        "helpers": 0.8,
        "smaller functions": 1.5,
        "add tests": 1.0,
        "write tests": 1.0,
        "test coverage": 1.0,
        "type annotations": 1.0,
        "modernize": 1.2,
        "callback hell": 1.5,
        "orchestrator": 0.6,
        "memoize": 1.0,
        "performance": 0.5,
        "faster": 0.5,
        "cleanup": 1.2,
        "tech debt": 1.5,
        "deduplicate": 1.2,
        "benchmark": 0.5,
        "stay the same": 1.5,
        "stay identical": 1.5,
        "should stay": 1.0,
        "identical": 0.5,
        "typed": 1.0,
        "by hand": 0.5,
        "turn into": 1.0,
        "clean it up": 1.5,
        "tidy up": 1.5,
        "move the logic": 1.0,
        "reorganize": 1.2,
        "dedupe": 1.2,
        "make it generic": 1.2,
        "more readable": 1.5,
        "port to": 1.2,
        "write unit tests": 1.5,
        "add a test": 1.0,
        "make it fast": 1.5,
        "same results": 1.5,
        "same output": 1.5,
        "slow": 0.4,
    },
    "code/pattern": {
        "pattern": 1.5,
        "idiomatic": 2.0,
        "idiom": 2.0,
        "best practice": 1.5,
        "best practices": 1.5,
        "cleaner way": 1.5,
        "cleaner pattern": 2.0,
        "design pattern": 2.5,
        "strategy pattern": 2.5,
        "factory": 1.2,
        "singleton": 1.5,
        "observer": 1.0,
        "decorator": 0.8,
        "builder pattern": 2.0,
        "dependency injection": 1.5,
        "repository pattern": 2.5,
        "registry": 1.0,
        "unit of work": 1.5,
        "anti-pattern": 1.5,
        "antipattern": 1.5,
        "composition": 0.8,
        "inheritance": 0.8,
        "mixin": 1.0,
        "context manager": 1.0,
        "the right way": 1.0,
        "the pythonic way": 2.0,
        "pythonic": 1.5,
        "if elif": 1.0,
        "if/elif chains": 1.5,
        "conventional way": 1.5,
        "recommended way": 1.2,
        "usual way": 2.0,
        "the go way": 1.5,
        "not repeat": 1.5,
        "repeat this": 1.0,
        "boilerplate": 1.0,
        "repetitive": 1.2,
        "same lines": 1.0,
    },
    "code/review": {
        "review": 1.5,
        "code review": 1.5,
        "pr": 0.8,
        "pull request": 1.0,
        "diff": 0.8,
        "review notes": 2.0,
        "look over": 1.5,
        "before i merge": 2.0,
        "nit": 1.5,
        "nits": 1.5,
        "lgtm": 2.0,
        "requesting changes": 2.0,
        "request changes": 1.5,
        "feedback": 0.8,
        "be picky": 1.5,
        "what you'd change": 1.5,
        "reviewer": 0.5,
        "merge request": 1.0,
        "blocking": 0.5,
        "approve": 0.5,
        "feedback on": 1.5,
        "critique": 1.5,
        "second pair of eyes": 2.0,
        "sanity check": 1.0,
        "anything dangerous": 2.5,
        "anything wrong": 2.0,
        "about to run": 1.0,
        "before i run": 1.5,
        "before running": 1.0,
        "am i missing": 1.5,
        "does this look right": 2.5,
        "look right": 1.0,
        "things i'd change": 2.0,
        "i'd change": 1.5,
        "would you change": 2.0,
        "look at this": 1.0,
        "any concerns": 2.0,
        "red flags": 2.0,
    },
    "code/snippet": {
        "regex": 2.0,
        "regular expression": 2.0,
        "one-liner": 2.0,
        "oneliner": 2.0,
        "snippet": 2.0,
        "jq": 1.5,
        "awk": 1.5,
        "sed": 1.0,
        "sql query": 1.5,
        "query": 0.6,
        "give me a": 0.8,
        "bash script": 1.2,
        "shell script": 1.2,
        "script that": 1.0,
        "a function that": 1.0,
        "cron expression": 2.0,
        "format string": 1.0,
        "quick script": 1.5,
        "little script": 1.5,
        "window function": 1.0,
        "matches": 0.4,
        "postgres query": 1.5,
        "a query": 1.0,
        "script": 0.5,
        "list comprehension": 1.0,
        "bash function": 1.0,
        "helper function": 0.8,
        "shell one-liner": 2.0,
        "quick one": 1.5,
        "bash": 0.8,
        "powershell": 1.0,
        "one liner": 2.0,
        "command to": 1.2,
        "ffmpeg": 1.0,
        "exiftool": 1.0,
        "xargs": 1.0,
        "find command": 1.5,
        "for loop": 0.8,
        "just the command": 2.0,
        "one-off": 1.2,
        "write a function": 1.2,
        "write me a": 1.0,
    },
    "architecture": {
        "architecture": 2.0,
        "architectural": 2.0,
        "microservice": 1.5,
        "microservices": 1.5,
        "monolith": 1.5,
        "service boundaries": 2.0,
        "components": 0.6,
        "scalability": 1.2,
        "event-driven": 1.5,
        "event driven": 1.5,
        "message broker": 1.5,
        "kafka": 0.8,
        "queue": 0.5,
        "pub/sub": 0.8,
        "data flow": 1.2,
        "system design": 2.0,
        "distributed": 0.8,
        "coupling": 1.0,
        "bounded context": 2.0,
        "subsystem": 1.0,
        "gateway": 0.5,
        "multi-tenant": 1.2,
        "tenancy": 1.2,
        "services": 0.4,
        "infrastructure": 0.5,
        "high availability": 1.2,
        "single point of failure": 1.2,
        "horizontal scaling": 1.2,
        "sharding": 1.0,
        "event sourcing": 1.5,
        "cqrs": 1.5,
        "outbox": 1.0,
        "backend-for-frontend": 1.5,
        "bff": 1.0,
        "federation": 0.8,
        "modular monolith": 2.0,
        "deployable": 1.0,
        "the monolith": 1.0,
        "scale to": 1.0,
        "scaling": 0.8,
        "domain model": 1.0,
        "service mesh": 1.2,
        "serverless": 1.0,
        "event bus": 1.2,
        "saga": 1.2,
        "api gateway": 1.0,
        "message queue": 1.2,
        "read replicas": 0.8,
        "database per service": 2.0,
        "own database": 1.5,
        "shared database": 1.5,
        "split out": 1.2,
        "splitting": 0.6,
        "main app": 0.5,
        "data path": 1.5,
        "presigned": 0.8,
        "upload path": 1.5,
        "structured instead": 1.0,
        "at scale": 1.2,
        "separate service": 1.5,
        "separate deployment": 1.2,
        "backbone": 1.5,
        "event backbone": 2.0,
        "sqs": 0.8,
        "sns": 0.6,
        "building blocks": 1.5,
        "pieces": 0.8,
        "talk to each other": 2.0,
        "communicate": 0.6,
        "how would you lay": 1.5,
    },
    "architecture/design": {
        "design": 0.8,
        "sketch": 1.2,
        "diagram": 1.2,
        "layer": 0.8,
        "layers": 0.8,
        "caching layer": 2.0,
        "design doc": 1.0,
        "how should we structure": 1.5,
        "structure": 0.5,
        "flow from": 1.0,
        "request flow": 1.5,
        "failure modes": 1.5,
        "components and boundaries": 2.0,
        "pipeline": 0.6,
        "invalidation": 1.0,
        "isolation": 0.8,
        "topology": 1.2,
        "proposed design": 1.5,
        "event pipeline": 1.5,
        "cache-aside": 1.5,
        "data isolation": 1.5,
        "design the system": 2.0,
        "high-level design": 2.0,
        "architecture diagram": 2.0,
        "sequence diagram": 1.5,
        "boundaries": 1.0,
        "responsibilities": 0.8,
        "scalable": 1.0,
        "lay out": 1.5,
        "lay this out": 2.0,
        "how would you structure": 1.5,
        "which pieces": 1.5,
    },
    "architecture/decision": {
        "adr": 3.0,
        "architecture decision": 3.0,
        "architecture decision record": 3.0,
        "status: accepted": 1.5,
        "consequences": 1.0,
        "we will move": 1.0,
        "make the call": 1.0,
        "extract notifications": 1.0,
        "rationale": 0.6,
    },
    "architecture/tradeoff": {
        "tradeoff": 2.5,
        "tradeoffs": 2.5,
        "trade-off": 2.5,
        "trade-offs": 2.5,
        "trading off": 2.5,
        "pros and cons": 1.0,
        "consistency": 0.8,
        "eventual consistency": 1.5,
        "availability": 0.6,
        "latency": 0.5,
        "temporal coupling": 1.5,
        "coupling": 0.5,
        "stateless": 0.8,
        "what are we trading": 2.5,
        "the cost comparison": 1.5,
        "middle ground": 1.0,
        "cap theorem": 2.0,
        "weigh": 1.0,
        "pros": 0.6,
        "cons": 0.6,
        "downsides": 1.0,
        "drawbacks": 1.0,
        "give up": 1.5,
        "what do we lose": 2.0,
        "what we gain": 1.5,
        "what you gain": 1.5,
        "cost of": 0.5,
        "downside": 1.0,
        "upside": 1.0,
    },
    "bug": {
        "bug": 1.5,
        "bugs": 1.2,
        "broken": 1.5,
        "crash": 1.8,
        "crashes": 1.8,
        "crashed": 1.8,
        "error": 0.8,
        "errors": 0.6,
        "exception": 1.0,
        "traceback": 1.5,
        "stack trace": 1.5,
        "fails": 1.0,
        "failing": 1.0,
        "failure": 0.5,
        "doesn't work": 1.5,
        "does not work": 1.5,
        "not working": 1.5,
        "stopped working": 2.0,
        "regression": 1.5,
        "flaky": 1.8,
        "wrong": 1.0,
        "incorrect": 0.8,
        "unexpected": 0.6,
        "leak": 1.5,
        "memory leak": 2.0,
        "oom": 1.5,
        "oomkilled": 2.0,
        "hangs": 1.5,
        "deadlock": 1.5,
        "race condition": 1.5,
        "500s": 1.5,
        "502s": 1.5,
        "timeout": 0.6,
        "timeouts": 0.8,
        "segfault": 2.0,
        "intermittent": 1.2,
        "sometimes": 0.5,
        "off-by-one": 1.5,
        "off by one": 1.5,
        "stale": 0.6,
        "duplicate": 0.4,
        "twice": 0.6,
        "keeps": 0.3,
        "nobody changed": 1.0,
        "undefined": 0.5,
        "null": 0.4,
        "typeerror": 1.2,
        "keyerror": 1.2,
        "nullpointerexception": 1.5,
        "panic": 1.0,
        "500": 0.8,
        "repro": 1.5,
        "reproduce": 1.0,
        "slower": 0.8,
        "workaround": 0.6,
        "glitch": 1.2,
        "console is full": 1.5,
        "kill the whole": 1.0,
        "doesn't": 0.3,
        "isn't": 0.3,
        "won't": 0.3,
        "unable": 0.8,
        "anymore": 1.2,
        "weird": 1.0,
        "strange": 1.0,
        "suddenly": 1.2,
        "pretty sure it's": 0.8,
        "suspect": 0.8,
        "should be": 0.4,
        "shows": 0.3,
        "stacktrace": 1.5,
        "nil pointer": 1.5,
        "null pointer": 1.5,
        "broke": 1.5,
        "hang": 1.2,
        "freezes": 1.2,
        "corrupted": 1.5,
        "data loss": 1.5,
        "not showing": 1.2,
        "blank page": 1.2,
        "infinite loop": 1.5,
        "throws": 1.0,
        "fails with": 1.5,
        "getting an error": 2.0,
        "error message": 1.0,
        "misbehaving": 1.5,
        "crash course": -1.8,
        "forever": 1.0,
        "end up": 0.6,
        "stuck": 1.5,
        "redirect loop": 1.5,
        "randomly": 1.2,
        "never": 0.5,
        "all of a sudden": 1.2,
        "since this morning": 1.2,
        "since yesterday": 1.2,
        "after the deploy": 1.0,
        "after deploy": 1.0,
        "since we": 0.6,
        "started failing": 2.0,
        "keeps failing": 2.0,
        "error tracking": -1.0,
        "exceptions": 0.5,
        "silently": 1.0,
        "fails randomly": 2.0,
        "times out": 1.2,
        "timing out": 1.2,
        "not firing": 1.5,
        "no longer works": 2.0,
        "is wrong": 1.2,
        "are wrong": 1.2,
        "missing": 0.5,
        "empty": 0.3,
        "garbage": 1.0,
        "bogus": 1.0,
        "regressed": 1.5,
        "breaking": 0.6,
        "404": 0.8,
        "5xx": 1.2,
        "exit code": 1.0,
        "non-zero exit": 1.2,
        "crashloopbackoff": 2.0,
        "intermittently": 1.2,
        "heisenbug": 2.0,
        "unhandled": 1.5,
        "uncaught": 1.5,
        "fail": 0.8,
        "misbehaves": 1.5,
        "duplicated": 1.0,
        "duplicates": 0.8,
        "inflated": 1.0,
        "garbled": 1.5,
        "mojibake": 2.0,
        "turn into": -0.3,
    },
    "bug/report": {
        "bug report": 3.0,
        "steps to reproduce": 2.5,
        "expected behavior": 1.5,
        "expected behaviour": 1.5,
        "actual behavior": 1.5,
        "actual behaviour": 1.5,
        "expected:": 1.0,
        "actual:": 1.0,
        "severity": 1.5,
        "write up": 1.5,
        "write-up": 1.5,
        "file an issue": 2.0,
        "open an issue": 1.5,
        "jira": 1.2,
        "ticket": 0.8,
        "qa found": 1.5,
        "reproducible": 1.2,
        "triage": 1.5,
        "environment:": 0.8,
        "repro steps": 2.0,
        "issue template": 1.5,
        "ready to paste": 1.0,
        "reproduction": 1.5,
        "minimal repro": 2.0,
        "file a bug": 2.5,
        "report this": 1.5,
        "github issue": 1.5,
        "write it up": 2.0,
        "as an issue": 1.5,
        "backlog": 1.0,
    },
    "bug/fix": {
        "fix": 1.2,
        "fixed": 1.5,
        "hotfix": 2.0,
        "patch": 0.8,
        "regression test": 1.5,
        "no longer": 1.2,
        "now passes": 1.2,
        "fixing": 1.0,
        "fallback": 0.5,
        "guard": 0.5,
        "the fix": 1.0,
        "fix it": 1.5,
        "fix whatever": 0.8,
        "the fix is": 1.2,
        "solve": 0.8,
        "resolve": 0.6,
    },
    "bug/investigation": {
        "investigate": 2.0,
        "investigating": 2.0,
        "investigation": 2.0,
        "dig into": 2.0,
        "figure out why": 2.0,
        "find out why": 2.0,
        "root cause": 2.0,
        "diagnose": 2.0,
        "diagnosis": 2.0,
        "debug": 1.2,
        "debugging": 1.2,
        "why": 0.4,
        "where the memory goes": 1.5,
        "heap snapshot": 1.5,
        "profile": 0.8,
        "profiling": 1.0,
        "bisect": 1.5,
        "what could cause": 2.0,
        "what happened": 1.2,
        "understand where": 1.0,
        "don't want a fix": 3.0,
        "not change anything": 2.0,
        "before anyone touches": 2.0,
        "haven't changed anything": 2.0,
        "explains why": 1.0,
        "confirmed": 0.6,
        "culprit": 1.5,
        "logs": 0.4,
        "which commit": 1.2,
        "since last week": 1.0,
        "don't fix": 2.5,
        "do not fix": 2.5,
        "only the diagnosis": 2.5,
        "no fix yet": 2.5,
        "figure out": 1.5,
        "track down": 2.0,
        "narrow down": 1.5,
        "find the cause": 2.0,
        "what's causing": 2.0,
        "what's going on": 1.5,
        "just tell me": 1.0,
        "why would": 1.0,
        "find out": 1.5,
        "look into": 1.5,
        "any idea why": 2.0,
        "any ideas": 1.0,
        "what could": 1.2,
    },
    "feature": {
        "feature": 1.2,
        "new feature": 2.0,
        "users": 0.3,
        "customers": 0.4,
        "users keep asking": 2.5,
        "customers want": 2.0,
        "users want": 2.0,
        "allow users": 2.0,
        "let users": 2.0,
        "let admins": 2.0,
        "button": 0.6,
        "page": 0.3,
        "toggle": 0.8,
        "option": 0.4,
        "flag": 0.3,
        "endpoint": 0.4,
        "ui": 0.6,
        "screen": 0.6,
        "dashboard": 0.3,
        "workflow": 0.3,
        "pm wants": 2.0,
        "product": 0.5,
        "support for": 0.8,
        "ability to": 1.2,
        "feature flag": 0.5,
        "customers asked": 2.0,
        "admins": 0.6,
        "self-serve": 1.0,
        "notification preferences": 1.0,
        "dark mode": 1.5,
        "export": 0.5,
        "import": 0.3,
        "invite": 0.8,
        "onboarding flow": 1.0,
        "add a new": 1.5,
        "new endpoint": 1.5,
        "new page": 1.5,
        "users can": 1.2,
        "should be able to": 1.2,
        "a way to": 1.0,
        "feature request": 2.0,
        "new command": 1.2,
        "new option": 1.0,
        "add support": 1.5,
        "integrate with": 1.0,
        "customizable": 1.0,
        "account settings": 0.5,
    },
    "feature/requirement": {
        "requirements": 2.5,
        "requirement": 2.0,
        "user story": 3.0,
        "user stories": 3.0,
        "acceptance criteria": 3.0,
        "as a": 0.5,
        "so that": 0.5,
        "i want": 0.3,
        "prd": 2.5,
        "spec": 1.0,
        "specification": 1.2,
        "scope": 1.0,
        "out of scope": 2.0,
        "in scope": 1.5,
        "non-functional": 2.5,
        "nonfunctional": 2.5,
        "must": 0.4,
        "should be able": 1.0,
        "open questions": 1.5,
        "stakeholders": 1.5,
        "compliance asked": 1.5,
        "what should i ask": 1.5,
        "use cases": 1.2,
        "use case": 1.0,
        "personas": 1.5,
        "mvp": 1.0,
        "requirements txt": -2.5,
        "requirements in": -1.0,
        "must do": 2.0,
        "must have": 2.0,
        "won't have": 2.0,
        "nice to have": 2.0,
        "in v1": 1.5,
        "v1": 0.8,
        "estimate": 0.8,
        "acceptance": 1.5,
        "goals": 1.0,
        "non-goals": 2.0,
        "what it must": 2.0,
        "success criteria": 2.5,
        "product requirements": 2.5,
        "leadership wants": 1.5,
        "user needs": 1.0,
        "requirements doc": 2.5,
        "functional requirements": 2.5,
        "what should it do": 1.5,
    },
    "feature/design": {
        "design": 1.0,
        "api design": 2.0,
        "data model": 2.0,
        "ui flow": 2.0,
        "ux": 1.2,
        "mockup": 1.5,
        "wireframe": 1.5,
        "before coding": 2.0,
        "before implementation": 2.0,
        "before implementing": 2.0,
        "end to end": 0.8,
        "how should": 1.0,
        "should look": 1.5,
        "settings model": 1.5,
        "schema": 0.6,
        "resources": 0.5,
        "rest api": 0.8,
        "side panel": 1.0,
        "user flow": 1.5,
        "proposed flow": 1.5,
        "edge cases": 0.6,
        "permissions": 0.5,
        "api shape": 2.0,
        "endpoint design": 2.0,
        "ux flow": 2.0,
        "user experience": 1.0,
        "payload": 0.5,
        "contract": 0.8,
        "how it should work": 2.0,
        "before building": 2.0,
        "figure out how": 1.0,
        "overrides": 0.5,
    },
    "feature/implementation": {
        "implement": 1.2,
        "add": 0.5,
        "build": 0.2,
        "wire up": 1.0,
        "is live": 1.5,
        "is in": 0.5,
        "ship": 0.8,
        "now prints": 0.8,
        "add a": 0.8,
        "add an": 0.8,
        "tests added": 0.6,
        "--dry-run": 1.0,
        "dry run": 0.8,
        "implement the": 1.0,
        "add the ability": 2.0,
        "hook up": 1.0,
    },
    "project": {
        "setup": 1.2,
        "set up": 1.2,
        "install": 0.8,
        "installed": 0.6,
        "config": 0.8,
        "configuration": 1.5,
        "configure": 1.5,
        "dependency": 1.5,
        "dependencies": 1.5,
        "package": 0.6,
        "packages": 0.6,
        "version": 0.3,
        "upgrade": 1.2,
        "bump": 1.5,
        "docker": 0.6,
        "ci": 0.6,
        "repo": 0.5,
        "repository": 0.4,
        "environment": 0.8,
        "env": 0.6,
        "monorepo": 1.0,
        "workspace": 0.5,
        "build": 0.3,
        "tooling": 0.5,
        "lockfile": 1.5,
        "settings": 0.3,
    },
    "project/setup": {
        "set up": 1.5,
        "setup": 1.5,
        "scaffold": 2.5,
        "bootstrap": 2.0,
        "boilerplate": 0.8,
        "docker compose": 1.2,
        "docker-compose": 2.0,
        "compose.yaml": 2.0,
        "dockerfile": 1.5,
        "dev environment": 2.0,
        "development environment": 2.0,
        "local development": 2.0,
        "getting started": 1.5,
        "onboarding": 1.0,
        "new devs": 1.5,
        "github actions": 1.0,
        "ci pipeline": 2.0,
        "workflow": 0.4,
        "no ci": 2.0,
        "makefile": 1.2,
        "devcontainer": 2.0,
        "new package": 1.5,
        "new project": 1.5,
        "init": 1.0,
        "template": 0.8,
        "cookiecutter": 2.0,
        "seed data": 1.5,
        "get the app running": 2.0,
        "pre-commit": 0.6,
        "hot reload": 1.0,
        "set up ci": 2.0,
        "add ci": 1.5,
        "from scratch": 0.8,
        "new repo": 1.5,
        "initialize": 1.0,
        "local env": 1.0,
        "onboard": 0.8,
        "first-time setup": 2.0,
        "install dependencies": 1.0,
        "dev container": 1.5,
        "bootstrap script": 2.0,
        "ci/cd": 1.5,
        "deploy pipeline": 1.5,
    },
    "project/config": {
        "config": 1.2,
        "configuration": 1.5,
        "configure": 1.5,
        "settings": 0.5,
        "env var": 2.0,
        "env vars": 2.0,
        "environment variable": 2.0,
        "environment variables": 2.0,
        ".env": 2.0,
        "tsconfig": 2.0,
        "eslintrc": 2.0,
        "eslint": 0.8,
        "prettier": 0.8,
        "prettierrc": 2.0,
        "editorconfig": 2.0,
        "settings.json": 1.5,
        "settings.py": 1.5,
        "yaml": 0.8,
        "toml": 0.8,
        "hard coded": 1.5,
        "hard-coded": 1.5,
        "hardcoded": 1.5,
        "defaults": 0.6,
        "feature flags": 0.6,
        "log level": 1.5,
        "logging config": 2.0,
        "format on save": 1.5,
        "on save": 0.8,
        "dotenv": 2.0,
        "pydantic-settings": 1.5,
        "secrets": 0.5,
        "config file": 2.0,
        "settings file": 1.5,
        "config files": 2.0,
        "settings page": -0.5,
        "logging": 0.8,
        "log format": 1.5,
        "json logs": 1.5,
        "structured logging": 1.5,
        "emits json": 1.0,
        "env file": 2.0,
        "prod env": 1.5,
        "per environment": 1.5,
        "nginx conf": 1.5,
        "conf": 0.8,
        "helm values": 1.5,
        "values yaml": 1.5,
        "application yml": 1.5,
        "config option": 1.5,
        "account settings": -0.5,
        "user settings": -0.5,
        "user preferences": -0.5,
        "preferences": -0.3,
    },
    "project/dependency": {
        "dependency": 2.0,
        "dependencies": 2.0,
        "upgrade": 1.5,
        "bump": 2.0,
        "pin": 1.0,
        "pinned": 2.0,
        "version": 0.8,
        "lockfile": 2.0,
        "lock file": 2.0,
        "peer dependency": 2.5,
        "requirements.txt": 2.0,
        "package.json": 1.0,
        "package-lock.json": 1.5,
        "poetry.lock": 2.0,
        "pnpm-lock.yaml": 1.0,
        "cargo.lock": 2.0,
        "go.mod": 1.5,
        "cve": 2.0,
        "vulnerability": 1.5,
        "dependabot": 2.5,
        "renovate": 2.0,
        "transitive": 2.0,
        "semver": 0.8,
        "breaking changes": 1.0,
        "deprecated": 0.6,
        "npm install": 1.0,
        "pip install": 1.0,
        "poetry add": 1.5,
        "downgrade": 2.0,
        "incompatible": 1.0,
        "compatible with": 1.0,
        "eresolve": 2.5,
        "changelog": 1.0,
        "removed in": 1.0,
        "upgraded": 1.5,
        "constraint": 1.0,
        "release notes": 0.8,
        "package version": 1.0,
        "outdated": 1.5,
        "npm audit": 2.0,
        "security advisory": 1.5,
        "vendored": 1.0,
        "requirements txt": 2.0,
        "pin it": 1.5,
        "pin the version": 2.5,
        "pins": -1.0,
        "advisory": 1.5,
        "npm ls": 2.0,
        "pip freeze": 1.5,
        "abandoned": 1.2,
        "unmaintained": 1.5,
        "pull in": 1.0,
        "pulls in": 1.0,
        "depends on": 1.0,
        "depend on": 1.0,
        "fork": 0.5,
    },
    "decision": {
        "decide": 2.0,
        "decided": 2.0,
        "decision": 2.0,
        "decisions": 1.5,
        "choose": 1.5,
        "choice": 1.2,
        "chosen": 1.5,
        "chose": 1.5,
        "pick": 1.2,
        "should we": 2.0,
        "which one": 1.2,
        "go with": 2.0,
        "let's go with": 2.5,
        "we'll go with": 2.5,
        "going with": 2.0,
        "settle": 1.5,
        "settled": 1.5,
        "agreed": 1.2,
        "recommendation": 1.0,
        "recommend": 0.8,
        "i'd pick": 1.5,
        "what would you pick": 2.0,
        "make the call": 1.5,
        "decision made": 3.0,
        "back and forth": 1.5,
        "adopt": 1.2,
        "switch to": 1.0,
        "instead of": 0.5,
        "we'll use": 2.0,
        "decision log": 2.5,
        "it is": 0.3,
        "we'll adopt": 2.5,
        "argues about": 1.5,
        "split:": 0.8,
        "should i use": 1.5,
        "would you recommend": 1.5,
        "worth it": 1.0,
        "which is better": 1.0,
        "better fit": 2.0,
        "help us pick": 2.0,
        "team is split": 2.0,
        "going back and forth": 1.5,
    },
    "decision/technical": {
        "library": 1.5,
        "libraries": 1.2,
        "approach": 1.0,
        "primary keys": 1.5,
        "uuid": 0.8,
        "orm": 1.0,
        "framework": 0.8,
        "serialization": 0.8,
        "bundle": 0.6,
        "api style": 1.0,
        "data format": 1.0,
        "models": 0.4,
        "the smallest change": 1.0,
        "for the new": 0.5,
        "do we model": 1.5,
        "which database": 1.5,
        "which approach": 2.0,
        "what approach": 1.5,
        "which library": 2.5,
        "what library": 2.0,
        "database to use": 1.5,
    },
    "decision/process": {
        "process": 2.0,
        "policy": 2.0,
        "branching": 2.0,
        "branching strategy": 3.0,
        "git flow": 2.5,
        "gitflow": 2.5,
        "trunk-based": 2.5,
        "trunk based": 2.5,
        "release process": 3.0,
        "code review policy": 3.0,
        "review policy": 3.0,
        "sprint": 1.5,
        "standup": 1.5,
        "on-call": 1.2,
        "contributing.md": 2.0,
        "team": 0.6,
        "conventions": 1.2,
        "convention": 1.0,
        "guidelines": 1.5,
        "working agreement": 2.5,
        "cadence": 1.2,
        "retro": 1.5,
        "turnaround": 1.5,
        "approvals": 1.2,
        "commit message": 1.0,
        "conventional commits": 2.0,
        "definition of done": 2.5,
        "how we work": 2.0,
        "team agreement": 2.0,
        "rotation": 1.0,
        "handoff": 1.0,
        "release cadence": 2.5,
        "versioning policy": 2.5,
        "review process": 2.5,
        "versioning": 1.5,
        "release": 0.8,
        "rules": 0.8,
        "commit to": 1.0,
    },
    "decision/tooling": {
        "tool": 1.2,
        "tools": 1.0,
        "tooling": 2.0,
        "linter": 1.0,
        "formatter": 1.0,
        "package manager": 2.5,
        "test runner": 2.0,
        "ruff": 0.5,
        "flake8": 0.5,
        "black": 0.5,
        "isort": 0.5,
        "pylint": 0.5,
        "mypy": 0.5,
        "pyright": 0.5,
        "eslint": 0.5,
        "biome": 0.5,
        "prettier": 0.5,
        "pnpm": 0.5,
        "yarn": 0.5,
        "npm": 0.5,
        "bun": 0.5,
        "poetry": 0.5,
        "uv": 0.5,
        "pip-tools": 0.5,
        "playwright": 0.5,
        "cypress": 0.5,
        "jest": 0.5,
        "vitest": 0.5,
        "pytest": 0.4,
        "webpack": 0.5,
        "vite": 0.5,
        "esbuild": 0.5,
        "turborepo": 0.5,
        "nx": 0.5,
        "circleci": 0.5,
        "jenkins": 0.5,
        "gitlab ci": 0.5,
        "bazel": 0.5,
        "pre-commit": 0.5,
        "corepack": 0.5,
        "editor": 0.6,
        "vs code": 0.5,
        "e2e": 0.8,
        "end-to-end tests": 1.0,
        "which tool": 2.5,
        "what tool": 2.0,
        "tool for": 1.5,
        "which service": 1.0,
        "self-host": 1.0,
        "vendor": 0.8,
        "monitoring tool": 1.5,
        "error tracking": 1.5,
        "ci provider": 2.0,
    },
    "topic": {
        "explain": 2.0,
        "explanation": 1.5,
        "understand": 1.2,
        "how does": 1.5,
        "how do": 1.0,
        "why does": 1.5,
        "why do": 1.2,
        "what is": 1.0,
        "what are": 0.8,
        "what's": 0.5,
        "concept": 1.5,
        "concepts": 1.5,
        "teach": 2.5,
        "learn": 2.0,
        "learning": 2.0,
        "difference": 1.5,
        "differences": 1.8,
        "differ": 1.5,
        "compare": 1.5,
        "comparison": 1.5,
        "versus": 1.2,
        "vs": 0.6,
        "under the hood": 2.0,
        "how it works": 2.0,
        "curious": 1.5,
        "i thought": 1.2,
        "in general": 0.8,
        "not picking one": 3.0,
        "just want to understand": 3.0,
        "mental model": 1.0,
        "why is": 0.8,
        "when exactly": 1.5,
        "what happens": 1.2,
        "eli5": 2.0,
        "help me understand": 2.0,
        "concept of": 1.5,
        "is it true that": 1.5,
    },
    "topic/learning": {
        "learn": 2.5,
        "learning": 2.5,
        "teach": 3.0,
        "teach me": 3.0,
        "tutorial": 2.5,
        "new to": 2.5,
        "beginner": 2.5,
        "exercise": 2.0,
        "exercises": 2.0,
        "walk me through": 2.0,
        "step by step": 1.5,
        "basics": 2.0,
        "fundamentals": 2.0,
        "coming from": 1.5,
        "lesson": 1.5,
        "i've never": 2.0,
        "never done": 1.5,
        "for a beginner": 2.0,
        "quiz me": 2.5,
        "study": 1.5,
        "practice": 1.0,
        "intro to": 1.5,
        "introduction to": 1.5,
        "i'm learning": 3.0,
        "crash course": 3.0,
        "i'm starting": 1.0,
        "try myself": 2.0,
        "try yourself": 1.5,
        "things to try": 2.0,
        "getting started with": 2.0,
        "i know": 0.5,
        "pretty well but": 1.5,
        "interview prep": 2.0,
        "get started": 1.0,
        "roadmap": 1.0,
        "resources to learn": 2.5,
        "course": 1.0,
        "study plan": 2.5,
        "practice problems": 2.0,
    },
    "topic/explanation": {
        "explain": 2.5,
        "explanation": 2.0,
        "how does": 2.0,
        "why does": 2.0,
        "why do": 1.5,
        "how come": 1.5,
        "what does": 1.2,
        "mean": 0.8,
        "means": 0.6,
        "under the hood": 2.5,
        "how it works": 2.5,
        "how exactly": 1.5,
        "when exactly": 2.0,
        "what happens": 1.5,
        "i thought": 1.5,
        "why is": 1.0,
        "why would": 1.0,
        "the reason": 0.8,
        "because": 0.3,
        "can you explain": 3.0,
        "what's going on": 1.0,
        "works internally": 2.0,
        "help me understand": 2.0,
        "eli5": 2.0,
        "walk through what": 1.5,
        "what actually happens": 2.5,
        "actually happens": 2.0,
    },
    "topic/comparison": {
        "difference": 2.5,
        "differences": 3.0,
        "differ": 2.5,
        "different from": 2.0,
        "compare": 2.5,
        "comparison": 2.5,
        "versus": 2.0,
        "vs": 1.0,
        "compared to": 2.0,
        "similarities": 2.0,
        "apart from": 1.0,
        "not picking one": 3.0,
        "how is": 0.5,
        "better than": 1.0,
        "when to use": 1.5,
        "when should i use": 1.5,
        "practical difference": 3.0,
        "when would each": 2.5,
        "each one": 0.8,
    },
}

# Weighted regexes, for what words alone don't capture: tool output, stack traces, commands run,
# files written, and phrasings: (category, pattern, weight, roles, kinds, needles). A rule only runs
# on a text whose lowercased form contains one of its needles, which keeps scanning cheap.
_U, _A, _T = frozenset({"user"}), frozenset({"assistant"}), frozenset({"tool"})
_UA, _UT = frozenset({"user", "assistant"}), frozenset({"user", "tool"})
_CALL, _PROMPT = frozenset({"tool_call"}), frozenset({"prompt"})
# a tool call's scanned text starts with its tool name
_EDIT = r"^(?:Edit|MultiEdit|Write|NotebookEdit|apply_patch|str_replace\w*|create_file|write_file|write_to_file|replace_in_file|edit_file|edit)\b"
_EDIT_NEEDLES = ("edit", "write", "patch", "replace", "create_file")
_PASSED = r" passed\b|test result: ok\b|tests pass|ok  \t"  # pytest/jest/vitest, cargo, "all tests pass", go
_PASSED_NEEDLES = (" passed", "test result: ok", "tests pass", "ok  \t")
_Seed = tuple[str, str, float, "frozenset[str] | None", "frozenset[str] | None", tuple[str, ...]]
_SEED_RULES: tuple[_Seed, ...] = (
    # errors: stack traces and exceptions, pasted by the user or printed by a tool
    ("bug", r"Traceback \(most recent call last\)", 3.0, _UT, None, ("traceback",)),
    ("bug", r"Error: ", 1.2, _UT, None, ("error: ",)),
    ("bug", r"Exception\b", 0.8, _UT, None, ("exception",)),
    (
        "bug",
        r"Uncaught \w+|Cannot read propert|is not a function|is not defined",
        1.5,
        _UT,
        None,
        ("uncaught", "cannot read", "is not a", "is not defined"),
    ),
    ("bug", r"\n\s+at \S+ \(\S+:\d+:\d+\)", 1.0, _UT, None, ("    at ",)),
    (
        "bug",
        r"\bpanic: |\bSIGSEGV\b|Segmentation fault|core dumped",
        1.5,
        _UT,
        None,
        ("panic", "sigsegv", "segmentation", "dumped"),
    ),
    ("bug", r"WARNING: DATA RACE", 1.0, _T, None, ("data race",)),
    (
        "bug",
        r"\bHTTP/\d(?:\.\d)? 5\d\d\b|\b5\d\d (?:Internal Server Error|Bad Gateway|Service Unavailable)",
        1.0,
        _UT,
        None,
        ("http/", "server error", "bad gateway", "unavailable"),
    ),
    (
        "bug/investigation",
        r"(?i)\b(?:don'?t|do not|no need to|without) (?:fix|chang|touch)\w*",
        2.0,
        _U,
        _PROMPT,
        ("fix", "chang", "touch"),
    ),
    ("bug/investigation", r"\bgit (?:bisect|log -S|blame)\b", 0.8, None, _CALL, ("git ",)),
    (
        "bug/report",
        r"(?im)^\s*\**(?:steps to reproduce|expected(?: result| behaviou?r)?|actual(?: result| behaviou?r)?)\**\s*:",
        2.0,
        _A,
        None,
        ("steps to reproduce", "expected", "actual"),
    ),
    (
        "bug",
        r"\b[A-Z]{2,}(?:_[A-Z0-9]+)+\b|\bE(?:CONN|ADDR|NO|ACCES|PIPE|TIMEDOUT|HOSTUNREACH)[A-Z]*\b",
        1.0,
        _U,
        _PROMPT,
        ("_", "econn", "eaddr", "eno", "eacces", "epipe", "etimedout", "ehost"),
    ),
    # decisions, in the words people use to make them
    ("decision", r"(?i)\b(?:let'?s|we'?ll|we will|we) (?:go|going) with\b", 2.0, _UA, None, ("go with", "going with")),
    ("decision", r"(?i)\b\w+ it is\b[.!]", 2.0, _U, _PROMPT, (" it is",)),
    (
        "decision",
        r"(?i)\b(?:decision (?:made|recorded)|we(?:'ve)? decided|team agreed|we agreed|the team chose)\b",
        2.0,
        _UA,
        None,
        ("decision", "decided", "agreed", "chose"),
    ),
    (
        "decision",
        r"(?i)\b(?:should we (?:use|switch|move|adopt|pick|go)|which (?:one|\w+) should we)\b",
        1.5,
        _U,
        None,
        ("should we",),
    ),
    ("decision", r"(?i)\bor\b[^.?\n]{1,60}\?", 1.5, _U, _PROMPT, ("?",)),
    # architecture records
    ("architecture/decision", r"(?i)docs/(?:adr|decisions?|architecture)/", 2.0, None, _CALL, ("docs/",)),
    ("architecture/decision", r"(?m)^#+ (?:Status|Context|Decision|Consequences)\b", 0.6, None, _CALL, ("# ",)),
    (
        "architecture/design",
        r"(?i)docs/design/|ARCHITECTURE\.md",
        1.0,
        None,
        _CALL,
        ("docs/design/", "architecture.md"),
    ),
    # the project's own files and commands
    (
        "project/dependency",
        r"\b(?:pip3? install|npm (?:install|i|uninstall|update)|yarn (?:add|upgrade)|pnpm (?:add|update|up)|poetry (?:add|update|lock)|uv (?:add|lock|pip install)|cargo (?:add|update)|go get|bundle (?:add|update)|composer require)\b",
        1.0,
        None,
        _CALL,
        ("pip", "npm ", "yarn ", "pnpm ", "poetry ", "uv ", "cargo ", "go get", "bundle ", "composer "),
    ),
    (
        "project/dependency",
        r"npm ERR! (?:code )?ERESOLVE|Could not resolve dependency|ResolutionImpossible|version solving failed|conflicting dependencies|peer dep",
        2.5,
        _UT,
        None,
        ("resolve", "version solving", "conflicting", "peer dep"),
    ),
    (
        "project/dependency",
        r"Successfully installed |added \d+ packages?|Updating dependencies|- (?:Updating|Installing) \S+ \(",
        0.8,
        _T,
        None,
        ("installed", "added ", "updating", "installing"),
    ),
    (
        "project/dependency",
        r"requirements[\w-]*\.txt|poetry\.lock|package-lock\.json|yarn\.lock|Cargo\.lock|go\.sum|uv\.lock|Pipfile",
        1.0,
        None,
        _CALL,
        ("requirements", ".lock", "lock.json", "go.sum", "pipfile"),
    ),
    (
        "project/setup",
        r"\.github/workflows/|\.gitlab-ci\.yml|\bcompose\.ya?ml|docker-compose\.ya?ml|Dockerfile|\.devcontainer|Makefile|\bjustfile",
        1.5,
        None,
        _CALL,
        (".github/workflows/", ".gitlab-ci", "compose.y", "dockerfile", ".devcontainer", "makefile", "justfile"),
    ),
    (
        "project/setup",
        r"\b(?:npm init|cargo new|uv init|poetry new|git init|create-react-app|npx create-|django-admin startproject|rails new)\b",
        1.5,
        None,
        _CALL,
        (" init", " new", "create-", "startproject"),
    ),
    (
        "project/config",
        r"\.eslintrc|\.prettierrc|tsconfig\.json|\.editorconfig|setup\.cfg|\.env\b|settings\.(?:py|json|ya?ml)|config\.(?:ya?ml|toml|json|js|ts)|\.vscode/",
        1.2,
        None,
        _CALL,
        (
            ".eslintrc",
            ".prettierrc",
            "tsconfig",
            ".editorconfig",
            "setup.cfg",
            ".env",
            "settings.",
            "config.",
            ".vscode/",
        ),
    ),
    # doing rather than discussing: edits and passing tests count alike for fixing, building and
    # refactoring (they separate fix from investigation, never bug from feature from code)
    # refactoring (they separate fix from investigation, never bug from feature from code). A "+"
    # before the id: evidence that only chooses between a parent's children.
    ("bug/fix", _EDIT, 0.5, None, _CALL, _EDIT_NEEDLES),
    ("feature/implementation", _EDIT, 0.5, None, _CALL, _EDIT_NEEDLES),
    ("code/implementation", _EDIT, 0.5, None, _CALL, _EDIT_NEEDLES),
    ("+bug/fix", _EDIT, 1.0, None, _CALL, _EDIT_NEEDLES),
    ("+feature/implementation", _EDIT, 1.0, None, _CALL, _EDIT_NEEDLES),
    ("+code/implementation", _EDIT, 1.0, None, _CALL, _EDIT_NEEDLES),
    ("bug/fix", _PASSED, 0.4, _T, None, _PASSED_NEEDLES),
    ("feature/implementation", _PASSED, 0.4, _T, None, _PASSED_NEEDLES),
    ("code/implementation", _PASSED, 0.4, _T, None, _PASSED_NEEDLES),
    # a question about "we"/"our" things is about this project, not general understanding
    ("topic", r"(?i)\b(?:we|we're|we've|our|us)\b", -1.0, _U, _PROMPT, ("we", "our", "us")),
    # writing code
    ("code/snippet", r"^\s*```", 1.0, _A, frozenset({"response"}), ("```",)),
    (
        "code/review",
        r"(?i)\b(?:gh pr (?:diff|view|checkout)|git diff)\b|\.diff\b|\.patch\b",
        0.8,
        None,
        _CALL,
        ("gh pr", "git diff", ".diff", ".patch"),
    ),
    ("code/snippet", r"(?m)^\^.{3,}\$$", 0.5, _A, None, ("^",)),
)


def _seed_categories() -> tuple[Category, ...]:
    cats = [Category("uncategorized", "Below the confidence floor: not enough evidence to file it")]
    for cid, desc in SEED_DESCRIPTIONS.items():
        cats.append(Category(cid, desc, tuple(SEED_KEYWORDS.get(cid, {}).items())))
    return tuple(cats)


def _seed_rules() -> tuple[Rule, ...]:
    return tuple(
        Rule(cat, pattern, weight, roles, kinds, needles) for cat, pattern, weight, roles, kinds, needles in _SEED_RULES
    )


@lru_cache(maxsize=1)
def default_settings() -> Settings:
    """The seeded taxonomy with no team additions."""
    return Settings(categories=_seed_categories(), rules=_seed_rules())


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
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{origin} is not valid TOML: {exc}") from None
    if "categories" in data:
        raise ConfigError(f"{origin}: top-level [[categories]] is not read; write [[categorize.categories]]")
    section = data.get("categorize")
    if section is None:
        return default_settings()
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

    seeded = default_settings()
    cats: dict[str, Category] = {c.id: c for c in seeded.categories}
    entries = _table_array(section, "categories", origin, MAX_TEAM_CATEGORIES)
    declared: set[str] = {e.get("id") for e in entries if isinstance(e.get("id"), str)}  # type: ignore[misc]
    seen: set[str] = set()
    for n, entry in enumerate(entries, 1):
        where = _where(text, origin, "categories", n, entry.get("id"))
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
        weight = entry.get("weight", TEAM_KEYWORD_WEIGHT)
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= 10:
            raise ConfigError(f"{where}: weight must be a number above 0 and at most 10, got {weight!r}")
        keywords = entry.get("keywords", [])
        if not isinstance(keywords, list) or len(keywords) > MAX_KEYWORDS:
            raise ConfigError(f"{where}: keywords must be a list of at most {MAX_KEYWORDS} strings")
        terms: list[tuple[str, float]] = []
        for kw in keywords:
            if not isinstance(kw, str) or not kw.strip() or len(kw) > MAX_KEYWORD_CHARS:
                raise ConfigError(
                    f"{where}: keyword {kw!r} must be a non-empty string of at most {MAX_KEYWORD_CHARS} characters"
                )
            if not any(ch.isalnum() for ch in kw):
                raise ConfigError(f"{where}: keyword {kw!r} has no letters or digits")
            terms.append((kw.strip(), float(weight)))
        old = cats.get(cid)
        if old is None:
            cats[cid] = Category(cid, description, tuple(terms), "team")
        else:  # more words for an existing category
            cats[cid] = Category(cid, description or old.description, old.keywords + tuple(terms), old.source)

    rules = list(seeded.rules)
    for n, entry in enumerate(_table_array(section, "rules", origin, MAX_TEAM_RULES), 1):
        where = _where(text, origin, "rules", n, entry.get("category"))
        rules.append(_team_rule(entry, where, cats))

    # parents first, each followed by its children, in declaration order
    ordered: list[Category] = []
    for c in cats.values():
        if c.parent is None:
            ordered.append(c)
            ordered.extend(k for k in cats.values() if k.parent == c.id)
    return Settings(categories=tuple(ordered), rules=tuple(rules), floor=float(floor), origin=origin)


def _team_rule(entry: dict, where: str, cats: dict[str, Category]) -> Rule:
    _check_keys(entry, {"category", "pattern", "weight", "roles", "kinds"}, where)
    cid = entry.get("category")
    if not isinstance(cid, str) or cid not in cats or cid == UNCATEGORIZED:
        raise ConfigError(f"{where}: category {cid!r} is not a known category")
    pattern = entry.get("pattern")
    if not isinstance(pattern, str) or not pattern:
        raise ConfigError(f"{where}: pattern must be a non-empty string (a regular expression)")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise ConfigError(f"{where}: pattern is {len(pattern)} characters; at most {MAX_PATTERN_CHARS}")
    if _NESTED_QUANTIFIER.search(pattern):
        raise ConfigError(
            f"{where}: pattern {pattern!r} nests quantifiers (like (a+)+), which can take forever; rewrite it"
        )
    try:
        compiled = re.compile(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        raise ConfigError(f"{where}: pattern {pattern!r} is not a valid regular expression: {exc}") from None
    if compiled.search(""):
        raise ConfigError(f"{where}: pattern {pattern!r} matches empty text, so it would match every message")
    weight = entry.get("weight", 1.0)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not -10 <= weight <= 10 or weight == 0:
        raise ConfigError(f"{where}: weight must be a non-zero number from -10 to 10, got {weight!r}")
    roles = _subset(entry.get("roles"), ROLES, "roles", where)
    kinds = _subset(entry.get("kinds"), SCORED_KINDS, "kinds", where)
    return Rule(cid, pattern, float(weight), roles, kinds, (), "team")


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


def _where(text: str, origin: str, table: str, n: int, name: object) -> str:
    """`file: [[categorize.rules]] #2 (line 14, 'bug/fix')` — the entry a person can find."""
    headers = [m.start() for m in re.finditer(rf"(?m)^[ \t]*\[\[[ \t]*categorize\.{table}[ \t]*\]\]", text)]
    bits = []
    if len(headers) >= n:
        bits.append(f"line {text.count(chr(10), 0, headers[n - 1]) + 1}")
    if isinstance(name, str):
        bits.append(repr(name))
    suffix = f" ({', '.join(bits)})" if bits else ""
    return f"{origin}: [[categorize.{table}]] #{n}{suffix}"


# --- fingerprint ------------------------------------------------------------------------------------------

ENGINE_VERSION = 1  # bump when scoring changes in a way that makes saved score totals stale


def _fingerprint(settings: Settings) -> str:
    doc = {
        "engine": ENGINE_VERSION,
        "floor": settings.floor,
        "categories": [[c.id, list(map(list, c.keywords))] for c in settings.categories],
        "rules": [
            [r.category, r.pattern, r.weight, sorted(r.roles or ()), sorted(r.kinds or ()), list(r.needles)]
            for r in settings.rules
        ],
    }
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
