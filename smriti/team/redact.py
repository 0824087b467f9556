"""Redaction: secrets, e-mail addresses and home paths become typed placeholders before anything is shared.

    >>> r = redact('GITHUB_TOKEN=ghp_… and mail alice@corp.io from /home/alice/x', settings)
    >>> r.text          # 'GITHUB_TOKEN=[REDACTED:github-token] and mail [REDACTED:email] from ~/x'
    >>> r.findings      # what was replaced: kind, rule, span in the original, line, fingerprint
    >>> r.residual      # what still looks like a secret afterwards (and team-pattern errors)
    >>> r.problems()    # one line per residual finding: share skips the item (fail closed)

`redact(text, settings) -> Redacted` replaces; `scan(text, settings) -> list[Finding]` only reports (it is
the residual check after redaction and what `smriti check` runs over committed files). Both use the same
detectors, so `scan(x)` is empty exactly when `redact(x)` has nothing to replace. A finding never holds
the secret: only its kind, the rule that matched, where it is (span, 1-based line and column) and its
`fingerprint`, `sha256("<kind>:<value>")` in hex, which is what an allow-list names. An allow-listed
fingerprint exempts that exact finding and nothing else (not a pattern, not the same value under another
kind, not a neighbouring match).

Placeholders are `[REDACTED:<kind>]`; home directories become `~` (`/home/alice/src` → `~/src`,
`C:\\Users\\alice\\src` → `~\\src`, separators kept); team path rules put their own text. Placeholders are
never findings, and text that is already redacted comes back byte-identical (`redact` is idempotent: it
re-runs its detectors on its own output until nothing changes, at most `MAX_PASSES` times).

Rules (the table is `RULES`; a kind is the name in the placeholder):
- provider tokens and keys: the table of `data/secret_rules.toml` (data, read once): 150+ rules covering
  the providers of gitleaks' default rule set and newer AI and developer platforms (our own patterns and
  examples). `[[token]]` rules know a token by itself (prefix, length, alphabet; GitHub, GitLab, OpenAI,
  Anthropic, Slack, Stripe secret keys, npm, PyPI, Mapbox `sk.`, New Relic, Square, PlanetScale, Pulumi,
  Terraform Cloud, Supabase, RubyGems, 1Password, Sentry `sntrys_`, Doppler `dp.st.<env>.` …);
  `[[keyword]]` rules know an unprefixed value by the provider's name before it on the same line (AWS
  secret access keys near `aws`, Datadog, Twilio auth tokens, Cloudflare, Heroku's legacy UUID keys,
  Okta, Discord bot tokens …). Publishable keys (`pk_live_`, Mapbox `pk.`) are public and kept;
- private-key: PEM blocks (PKCS#1/#8, EC, OpenSSH, encrypted, PGP) whole, with real or JSON-escaped
  newlines (a GCP service-account `private_key`), and truncated ones; age and PuTTY keys;
- jwt: `eyJ….eyJ….sig`;
- password: `scheme://user:password@host` (user and host kept; the password may hold any character but
  whitespace and quotes, `/`, `#` and `@` included), `curl -u user:pw`, `--password x`, `--password=x`,
  `mysql -pX`, `sshpass -p 'x'`, `redis-cli -a x`, `the password is x`, `<password>…</password>`, and
  values of password-named keys (`PASSWORD=`, `db_passwd: `, `PGPASSWORD=`);
- secret, or aws-key / azure-key / heroku-key by the key's name: values of secret-named keys
  (`token`, `api_key`, `client_secret`, `SECRET_KEY`, `AWS_SECRET_ACCESS_KEY`, `AccountKey=` …) in .env
  lines, `export`, YAML, JSON (JSON inside JSON strings too), TOML, Python/JS/Go/PHP, markdown; code
  (`token = get_token()`, `password: str`, `api_key=os.environ[…]`), templates (`${X}`, `<token>`,
  `***`), numbers and paths are not values;
- bearer-token (`Authorization: Bearer|Basic|Token … ` to the end of the value), `X-Api-Key:`,
  `Private-Token:`, `X-…-Token:` headers to the end of the value (`&` and `=` inside it included),
  url-signature (`sig=`, `X-Amz-Signature=` in URLs);
- high-entropy: a value of any other key that is one token of 20-256 base64/url-safe characters
  mixing character classes, with Shannon entropy ≥ `entropy_threshold` (3.5 bits/char), and not hex
  (git SHAs, UUIDs, digests), a digest (`sha512-…`, `h1:`), a version, a path, a dotted name, base64 of
  text or of an image, or made of words (identifiers, model names, slugs);
- email (not `git@host:`, `noreply@`, example domains, `pkg@1.2.3`, `icon@2x.png`, URL users);
  home-path (`/home/<u>`, `/Users/<u>`, `/var/home/<u>`, `/mnt/c/Users/<u>`, `C:\\Users\\<u>`, `/root`,
  `Settings.home_dirs` → `~`); path (team path rules).
Boundaries: a token is found wherever it starts. Distinctive prefixes (`ghp_`, `sk-ant-` …) match after
word characters too; the others not after a letter or digit, except when that letter ends a `\\n`-style
JSON escape or a `%XX` percent-encoding (`"a\\nghp_…"`, `q=%20sk-…`).
Decoded views (smriti.team.secret_views): the text's JSON/backslash unescaping, percent-decoding,
base64/base64url runs of 24+ characters that decode to text (base64 in base64 too: depth
`MAX_VIEW_DEPTH`) and lines joined where a token was wrapped are scanned as well (in the first pass),
with only the rules whose needles sit near a decoded piece; a secret found there replaces the encoded
span of the original (the whole base64 run, the percent-encoded characters, both halves of a wrapped
token). `redact(..., enabled=False)` switches this detector off (tests, benchmarks): smriti.team.gate, an
independent second detector, then still refuses what it sees.
Left alone: git SHAs, UUIDs, `sha256:` digests, lockfile integrity hashes, image digests, version pins,
base64 in prose (only assigned values are judged by entropy), ordinary identifiers.
Known limits: a secret with no known prefix or provider keyword that is not assigned to anything (a bare
random string in a sentence) is not redacted (the gate refuses the item instead); a letters-only password
as a bare word outside YAML (`password = changeme`) is taken for code; about 1 in 1,000 random base62
values of 24 characters (1 in 4,000 at 32, 2% of lower-case+digit values of 24) reads like a name and is
missed by the high-entropy rule; a secret split into halves shorter than 6 characters is not rejoined.
Fingerprints
are unkeyed hashes, so an allow-listed low-entropy value could be guessed from its fingerprint: allow
only things that are not secrets.

Why a built-in rule table and not detect-secrets (the decision, 2026-11):
- detect-secrets (Yelp) 1.5.0 is the newest release (May 2024). Its plugins miss today's formats
  (OpenAI `sk-proj-…`, GitHub `github_pat_…`, Anthropic; Yelp/detect-secrets#894 is open), it reports a
  secret's line and value but no offsets (so it cannot drive a replacement), it configures itself through
  process-global settings, pulls in `requests`, and is far slower than the budget (well under 5 ms
  for a 20 KB transcript; benchmarks/redact times it beside smriti's own). Its keyword and entropy heuristics are sound
  ideas; they are re-implemented below with spans.
- ggshield needs GitGuardian's API; trufflehog/trufflehog3/whispers are scanners of repositories and files,
  not libraries that return spans; scrubadub/presidio target personal data with NLP models.
- So: a curated table of provider rules (prefixes, lengths and alphabets as gitleaks and detect-secrets
  document them), each compiled with the stdlib `re` and written so that it starts with a literal
  (sre's fast prefix search) and cannot backtrack catastrophically (possessive quantifiers, bounded
  repeats, boundaries checked in Python), plus structural detectors (assignments of secret-named keys,
  high-entropy assignments, passwords in URLs, e-mail addresses, home paths). `redact` is a pass, then
  a re-scan of its output (for the fixpoint and the residual), so it costs about two scans; both are
  timed against the budget in benchmarks/redact. The re-scan runs only the rules whose needles are
  in the text or around a replacement, and reads assignments only on the lines holding a replacement
  (the assignment detector is line-local: elsewhere it would find what the first pass handled).

Team patterns (from `.smriti/config.toml`, `[redact]`) are regular expressions written by people, so they
are bounded three ways: each pattern is at most `MAX_TEAM_PATTERN_CHARS` characters (and at most
`MAX_TEAM_PATTERNS` of them), they scan at most `Settings.max_scan_chars` characters per call, and all of
them together get `Settings.pattern_timeout` seconds per text. They run on the `regex` module (PyPI),
whose matching functions take `timeout=`: a stdlib `re` match cannot be interrupted, and rejecting
nested quantifiers at compile time misses shapes like `(a|aa)+$`; google-re2 is linear-time but rejects
lookarounds (which secret rules use) and logs to stderr. `regex` checks its clock periodically, so a
runaway match stops within a small multiple of its budget. A team pattern that times out, or that
cannot run on an over-long text, becomes a `scan-error` finding: the result is not ok (fail closed),
never a hang.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
import re
import string
import time
import tomllib
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import chain
from pathlib import Path
from typing import Any

from smriti import saferegex
from smriti.errors import ConfigError
from smriti.team import secret_views

__all__ = [
    "MAX_PASSES",
    "RULES",
    "Finding",
    "PathRule",
    "Redacted",
    "Settings",
    "TeamPattern",
    "default_settings",
    "fingerprint",
    "placeholder",
    "redact",
    "scan",
]

MAX_TEAM_PATTERNS = 64
MAX_TEAM_PATTERN_CHARS = 512
MAX_TEAM_MATCHES = 10_000  # per pattern and text: a pattern matching everywhere is an error, not a flood
MAX_PATH_RULES = 64
MAX_PASSES = 3
MAX_VIEW_DEPTH = 2  # decoded views of decoded views: base64 inside base64, a JSON string in a URL
SCAN_ERROR = "scan-error"  # kind of a finding that says a check could not run (never allow-listable)

KIND_RE = re.compile(r"[a-z][a-z0-9-]{0,39}")
PLACEHOLDER_RE = re.compile(r"\[REDACTED:[a-z][a-z0-9-]{0,39}\]")
FINGERPRINT_RE = re.compile(r"[0-9a-f]{64}")


def placeholder(kind: str) -> str:
    """The text that replaces a secret of this kind: `[REDACTED:<kind>]`."""
    return f"[REDACTED:{kind}]"


def fingerprint(kind: str, value: str) -> str:
    """`sha256("<kind>:<value>")` in hex: names one finding in an allow-list without holding the secret."""
    return hashlib.sha256(f"{kind}:{value}".encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------------------------------------------
# Public types


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing that was (or would be) replaced. Never holds the secret itself.

    `start`/`end` index the text that was redacted or scanned (for `Redacted.findings`: the original).
    `line` and `column` are 1-based. `detail` is set on `scan-error` findings only.
    """

    kind: str
    rule: str
    start: int
    end: int
    line: int
    column: int
    fingerprint: str
    detail: str = ""

    @property
    def is_error(self) -> bool:
        return self.kind == SCAN_ERROR

    def describe(self) -> str:
        """One line for a person: what, where, and the fingerprint that would allow-list it."""
        if self.is_error:
            return f"{self.rule}: {self.detail}"
        return (
            f"{self.kind} at line {self.line}, column {self.column} "
            f"(rule {self.rule}, fingerprint {self.fingerprint[:12]}…)"
        )


@dataclass(frozen=True, slots=True)
class TeamPattern:
    """A team-added detector: `pattern` (regex-module syntax) found anywhere becomes `[REDACTED:<kind>]`.

    With a named group `secret` only that group is replaced (`token=(?P<secret>\\w{32})` keeps `token=`).
    """

    name: str
    kind: str
    pattern: str


@dataclass(frozen=True, slots=True)
class PathRule:
    """Replace a path prefix: `match` is literal text in which `*` stands for one path segment.

    `PathRule("/srv/checkouts/*/", "<repo>/")` turns `/srv/checkouts/payments/src/x.py` into `<repo>/src/x.py`.
    """

    match: str
    replace: str


@dataclass(frozen=True)
class Settings:
    """What a team and a user add to the built-in rules. Build it once and reuse it (patterns compile once).

    - `patterns`: team detectors, bounded by `max_scan_chars` and `pattern_timeout` (seconds, per text).
    - `allow`: fingerprints of findings that are not secrets (exactly those findings, nothing else).
    - `path_rules`: extra path prefixes to rewrite; `home_dirs`: home directories to turn into `~`
      (`/home/<user>`, `/Users/<user>`, `C:\\Users\\<user>` and `/root` always are).
    - `entropy_threshold` (bits per character) and `entropy_min_length` tune the high-entropy rule.
    - `emails=False` keeps e-mail addresses (they are redacted by default).
    """

    patterns: tuple[TeamPattern, ...] = ()
    allow: frozenset[str] = frozenset()
    path_rules: tuple[PathRule, ...] = ()
    home_dirs: tuple[str, ...] = ()
    entropy_threshold: float = 3.5
    entropy_min_length: int = 20
    pattern_timeout: float = 0.2
    max_scan_chars: int = 2_000_000
    emails: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "patterns", tuple(self.patterns))
        object.__setattr__(self, "allow", frozenset(a.lower() for a in self.allow))
        object.__setattr__(self, "path_rules", tuple(self.path_rules))
        object.__setattr__(self, "home_dirs", tuple(self.home_dirs))
        if len(self.patterns) > MAX_TEAM_PATTERNS:
            raise ConfigError(f"redact: at most {MAX_TEAM_PATTERNS} team patterns, got {len(self.patterns)}")
        names = [p.name for p in self.patterns]
        if len(set(names)) != len(names):
            raise ConfigError("redact: team pattern names must be unique")
        for fp in self.allow:
            if not FINGERPRINT_RE.fullmatch(fp):
                raise ConfigError(f"redact: allow-list entries are 64-hex fingerprints, not {fp[:80]!r}")
        if len(self.path_rules) > MAX_PATH_RULES:
            raise ConfigError(f"redact: at most {MAX_PATH_RULES} path rules")
        if not (0 < self.pattern_timeout <= 10):
            raise ConfigError("redact: pattern_timeout must be between 0 and 10 seconds")
        if not (1 <= self.max_scan_chars <= 50_000_000):
            raise ConfigError("redact: max_scan_chars must be between 1 and 50,000,000")
        if not (0 < self.entropy_threshold <= 8) or not (8 <= self.entropy_min_length <= 1024):
            raise ConfigError("redact: entropy_threshold must be in (0, 8] and entropy_min_length in [8, 1024]")
        _ = (self._team, self._paths)  # compile now: a bad pattern is a config error at load, not at share

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "[redact]", **extra: Any) -> Settings:
        """Settings from a parsed config table (the `[redact]` table of `.smriti/config.toml`):

            [redact]
            allow = ["<64-hex fingerprint>"]
            [[redact.patterns]]
            name = "acme-internal"        # unique, shown in findings as team:acme-internal
            kind = "acme-token"           # placeholder [REDACTED:acme-token]
            pattern = "acme_[A-Za-z0-9]{32}"
            [[redact.paths]]
            match = "/srv/checkouts/*/"
            replace = "<repo>/"

        `extra` keyword arguments (for example the user's `home_dirs`) are passed through.
        """
        known = {
            "allow",
            "patterns",
            "paths",
            "home_dirs",
            "entropy_threshold",
            "entropy_min_length",
            "pattern_timeout",
            "max_scan_chars",
            "emails",
        }
        unknown = set(data) - known
        if unknown:
            raise ConfigError(
                f"{source}: unknown setting(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}"
            )
        kw: dict[str, Any] = {}
        allow = data.get("allow", [])
        if not isinstance(allow, list) or not all(isinstance(a, str) for a in allow):
            raise ConfigError(f"{source}: 'allow' must be a list of fingerprints (64 hex characters)")
        kw["allow"] = frozenset(allow)
        pats = []
        for i, entry in enumerate(_table_list(data.get("patterns", []), f"{source}.patterns")):
            if set(entry) != {"name", "kind", "pattern"} or not all(isinstance(v, str) for v in entry.values()):
                raise ConfigError(f"{source}.patterns[{i}]: needs exactly string keys name, kind, pattern")
            pats.append(TeamPattern(entry["name"], entry["kind"], entry["pattern"]))
        kw["patterns"] = tuple(pats)
        rules = []
        for i, entry in enumerate(_table_list(data.get("paths", []), f"{source}.paths")):
            if set(entry) != {"match", "replace"} or not all(isinstance(v, str) for v in entry.values()):
                raise ConfigError(f"{source}.paths[{i}]: needs exactly string keys match, replace")
            rules.append(PathRule(entry["match"], entry["replace"]))
        kw["path_rules"] = tuple(rules)
        if "home_dirs" in data:
            homes = data["home_dirs"]
            if not isinstance(homes, list) or not all(isinstance(h, str) for h in homes):
                raise ConfigError(f"{source}: 'home_dirs' must be a list of paths")
            kw["home_dirs"] = tuple(homes)
        for name, typ in (
            ("entropy_threshold", (int, float)),
            ("entropy_min_length", int),
            ("pattern_timeout", (int, float)),
            ("max_scan_chars", int),
            ("emails", bool),
        ):
            if name in data:
                value = data[name]
                if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
                    raise ConfigError(f"{source}: '{name}' has the wrong type")
                kw[name] = value
        kw.update(extra)
        return cls(**kw)

    # -- compiled state (cached on the instance) --

    @cached_property
    def _team(self) -> tuple[tuple[TeamPattern, Any], ...]:
        if not self.patterns:
            return ()
        try:
            import regex  # the PyPI module: matching with timeout=; imported only when a team has patterns
        except ImportError:  # pragma: no cover - a declared dependency
            raise ConfigError("redact: team patterns need the 'regex' package (pip install regex)") from None

        compiled = []
        for p in self.patterns:
            where = f"redact: team pattern {p.name!r}"
            if not p.name or len(p.name) > 64 or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", p.name):
                raise ConfigError(f"{where}: a name is 1-64 letters, digits, '.', '_' or '-'")
            if not KIND_RE.fullmatch(p.kind) or p.kind == SCAN_ERROR:
                raise ConfigError(f"{where}: kind {p.kind!r} must be lowercase letters, digits and '-' (≤ 40)")
            if not p.pattern or len(p.pattern) > MAX_TEAM_PATTERN_CHARS:
                raise ConfigError(f"{where}: a pattern is 1-{MAX_TEAM_PATTERN_CHARS} characters, got {len(p.pattern)}")
            try:
                rx = regex.compile(p.pattern, regex.VERSION0)
            except (regex.error, ValueError, OverflowError, RecursionError) as exc:
                raise ConfigError(f"{where} does not compile: {exc}") from None
            try:
                empty = rx.search("", timeout=0.05)
            except TimeoutError:
                empty = None
            if empty is not None:
                raise ConfigError(f"{where} matches the empty string; it would match everywhere")
            # The per-text timeout bounds a scan; `check` refuses what would hit it on ordinary text.
            why = saferegex.reject_reason(p.pattern)
            if why:
                raise ConfigError(f"{where} {why}")
            compiled.append((p, rx))
        return tuple(compiled)

    @cached_property
    def _paths(self) -> tuple[tuple[str, re.Pattern[str], str], ...]:
        out = []
        for rule in self.path_rules:
            if not rule.match or len(rule.match) > 256 or len(rule.replace) > 256:
                raise ConfigError("redact: a path rule's match and replace are 1-256 characters")
            if not rule.match.replace("*", "").strip("/\\"):
                raise ConfigError(f"redact: path rule {rule.match!r} needs some literal text besides '*'")
            if "[REDACTED:" in rule.replace:
                raise ConfigError("redact: a path rule's replacement cannot look like a placeholder")
            body = r"[^/\\\s\"'`<>|]+".join(re.escape(piece) for piece in rule.match.split("*"))
            if rule.match[-1] not in "/\\":
                body += r"(?![A-Za-z0-9._-])"
            rx = re.compile(body)
            if rx.search(rule.replace):
                raise ConfigError(f"redact: path rule {rule.match!r} would match its own replacement {rule.replace!r}")
            out.append((f"path-rule:{rule.match}", rx, rule.replace))
        for home in sorted({h for h in self.home_dirs if h}, key=len, reverse=True):
            norm = home.rstrip("/\\")
            if not norm or re.fullmatch(r"[A-Za-z]:", norm):
                continue  # HOME=/ (some containers): there is no user directory to hide, and `/` is everywhere
            if not (norm.startswith("/") or re.match(r"[A-Za-z]:[\\/]", norm)):
                raise ConfigError(f"redact: home dir {home!r} must be an absolute path")
            forms = {norm}
            if "\\" in norm:
                forms.add(norm.replace("\\", "\\\\"))  # as it appears inside JSON strings
            for form in sorted(forms, key=len, reverse=True):
                out.append(("home-dir", re.compile(re.escape(form) + r"(?![A-Za-z0-9._-])"), "~"))
        return tuple(out)


def _table_list(value: Any, where: str) -> list[Mapping[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise ConfigError(f"{where}: must be an array of tables")
    return value


def default_settings(**overrides: Any) -> Settings:
    """Settings for this user: the current home directory (as `smriti.paths.home()` says) is scrubbed."""
    from smriti.paths import home

    homes = tuple(overrides.pop("home_dirs", ())) + (str(home()),)
    return Settings(home_dirs=homes, **overrides)


@dataclass(frozen=True, slots=True)
class Redacted:
    """The result of `redact`: the redacted `text` and what happened to it.

    - `findings`: what was replaced, with spans in the original text.
    - `allowed`: what was detected but kept because its fingerprint is allow-listed.
    - `residual`: what still looks like a secret in `text` (a scan of it minus allow-listed fingerprints),
      plus `scan-error` findings for team patterns that could not run. Non-empty means: do not write.
    """

    text: str
    findings: tuple[Finding, ...] = ()
    allowed: tuple[Finding, ...] = ()
    residual: tuple[Finding, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.residual

    def problems(self) -> list[str]:
        """One clear line per residual finding, saying how to allow it when it is not a secret."""
        out = []
        for f in self.residual:
            if f.is_error:
                out.append(f"could not check for secrets: {f.describe()}")
            else:
                out.append(
                    f"residual finding: {f.kind} at line {f.line} (fingerprint {f.fingerprint[:12]}…); "
                    f"if it is not a secret, allow it with its fingerprint {f.fingerprint} in [redact] allow"
                )
        return out


# ---------------------------------------------------------------------------------------------------
# Built-in rules

P_PRIVATE_KEY = 0
P_TOKEN = 10
P_JWT = 12
P_URL_PASSWORD = 20
P_TEAM = 25
P_CONTEXT = 30  # auth headers, CLI flags, URL query signatures, XML elements
P_ASSIGNMENT = 40
P_ENTROPY = 50
P_EMAIL = 60
P_PATH_RULE = 70
P_HOME = 80

_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_WORD_DASH = _WORD | {"-"}


@dataclass(frozen=True, slots=True)
class Rule:
    """One built-in detector. `group` is the part replaced; `left` are characters that may not precede it."""

    name: str
    kind: str
    pattern: re.Pattern[str]
    priority: int = P_TOKEN
    group: int | str = 0
    needles: tuple[str, ...] = ()  # run only when one of these is in the text (a fast pre-check)
    ci_needles: tuple[str, ...] = ()  # the same, in the lower-cased text
    left: frozenset[str] | None = _WORD
    check: Callable[[str], bool] | None = None
    encloses: bool = False  # a value-level rule: it may replace narrower matches it fully contains
    # How the pattern is run. A pattern that starts with a literal runs over the whole text (sre finds
    # the literal fast); one that does not is run only in windows around its needles (`anchored`); a
    # keyword rule's pattern is matched right after each keyword (found with str.find, case-insensitive).
    anchored: bool = False
    keyword: bool = False
    # Every match of an anchored rule starts at one of its needles (`(?:AKIA|ASIA…)…`): then the
    # pattern is matched at each needle instead of searched through its windows (same matches).
    starts_at_needle: bool = False


def _mixed(value: str) -> bool:
    """Random-looking: has a digit and a letter, and upper and lower case unless it is long."""
    has_digit = any(c.isdigit() for c in value)
    has_upper = any(c.isupper() for c in value)
    has_lower = any(c.islower() for c in value)
    return has_digit and (has_upper or has_lower) and ((has_upper and has_lower) or len(value) >= 32)


def _flag_value_ok(value: str) -> bool:
    """`--password hunter2` but not `--password options` (prose) or `--password "$PW"`."""
    return not _is_template(value) and not (value.isalpha() and (value.islower() or value.istitle()))


def _upper_and_lower(value: str) -> bool:
    return any(c.isupper() for c in value) and any(c.islower() for c in value)


def _rule(name: str, kind: str, pattern: str, **kw: Any) -> Rule:
    prefix = _literal_prefix(pattern)
    if not kw.get("needles") and not kw.get("ci_needles"):
        assert prefix, f"rule {name} needs needles: every match must contain one"
        kw["needles"] = (prefix,)
    if not kw.get("keyword"):
        kw["anchored"] = not prefix
    return Rule(name, kind, re.compile(pattern), **kw)


def _literal_prefix(pattern: str) -> str:
    """The literal text every match of `pattern` starts with (`gh[pousr]_…` → `gh`)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern) and pattern[i + 1] in "./-~":
            out.append(pattern[i + 1])
            i += 2
            continue
        if c in "\\[](){}?*+|^$.":
            break
        out.append(c)
        i += 1
    if i < len(pattern) and pattern[i] in "?*{" and out:
        out.pop()  # `https?` : the last character is optional
    return "".join(out)


# The value after a CLI flag, without its quotes: --password "x y", --token 'x', --token x
_FLAG_VALUE = (
    r"""["']?(?P<secret>(?<=")[^"\n]{1,256}+(?=")|(?<=')[^'\n]{1,256}+(?=')|(?<!["'])[^\s"'-][^\s"']{0,255}+)"""
)
_PEM = r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = r"-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----"

_RULES_FILE = Path(__file__).with_name("data") / "secret_rules.toml"
_CHECKS: dict[str, Callable[[str], bool]] = {
    "mixed": lambda v: _mixed(v),
    "upper-lower": lambda v: _upper_and_lower(v),
    "digit": lambda v: any(c.isdigit() for c in v),
    "not-template": lambda v: not _is_template(v),
}
_LEFTS: dict[str, frozenset[str] | None] = {
    "any": None,
    "word": _WORD,
    "word-dash": _WORD_DASH,
    "token": _WORD_DASH | {".", "~"},
}
# A keyword rule: the provider's name, then at most 48 characters of the same line, then the value at a
# token boundary. The gap is lazy and bounded, so a line without a value costs one short scan per keyword.
_KEYWORD_GAP = r"[^\n]{0,48}?(?<![A-Za-z0-9/+_-])"
_KEYWORD_END = r"(?![A-Za-z0-9/+_=-])"


def _table_check(entry: Mapping[str, Any]) -> Callable[[str], bool] | None:
    name = entry.get("check")
    if name is None:
        return None
    test = _CHECKS[name]
    skip = int(entry.get("check_from", 0))
    return (lambda v: test(v[skip:])) if skip else test


def _load_table_rules(path: Path = _RULES_FILE) -> tuple[Rule, ...]:
    """The provider rules of `data/secret_rules.toml` (see its header for the schema)."""
    data = tomllib.loads(path.read_text("utf-8"))
    rules: list[Rule] = []
    for entry in data.get("token", []):
        kw: dict[str, Any] = {"left": _LEFTS[entry.get("left", "word")], "check": _table_check(entry)}
        if "needles" in entry:
            kw["needles"] = tuple(entry["needles"])
        kw["starts_at_needle"] = bool(entry.get("starts_at_needle", False))
        rules.append(_rule(entry["name"], entry["kind"], entry["pattern"], **kw))
    for entry in data.get("keyword", []):
        pattern = f"{_KEYWORD_GAP}(?P<secret>{entry['value']}){_KEYWORD_END}"
        rules.append(
            _rule(
                entry["name"],
                entry["kind"],
                pattern,
                group="secret",
                left=None,
                ci_needles=tuple(k.lower() for k in entry["keywords"]),
                check=_table_check(entry),
                encloses=True,
                keyword=True,
            )
        )
    return tuple(rules)


def _url_password_ok(value: str) -> bool:
    """`://user:secret@host`, but not `://host:8080/path/@scope` (a port, then a path with an `@`)."""
    return not _is_template(value) and _PORT_THEN_PATH_RE.match(value) is None


_PORT_THEN_PATH_RE = re.compile(r"\d{1,5}(?:/|$)")


def _prose_password_ok(value: str) -> bool:
    """`the password is hunter2!` but not `the password is stored in vault` or `is ${PW}`."""
    core = value.rstrip(".,;:!?)")
    return (
        len(core) >= 6
        and not _is_template(core)
        and not any(c in "()[]{}$<>" for c in core)
        and (any(c.isdigit() for c in core) or _upper_and_lower(core) or not core.isalnum())
        and not _wordy(core)
        and not _PATHLIKE_RE.match(core)
        and "://" not in core
    )


RULES: tuple[Rule, ...] = (
    # Private keys, the whole block (real newlines or JSON's \n); a block without its END line is cut
    # at the end of its base64 run, so a truncated key still goes.
    _rule(
        "private-key",
        "private-key",
        _PEM
        + r"(?:(?:[^-]|-(?!----END)){0,65536}?"
        + _PEM_END
        + r"|(?:\\[rn]|[\r\n\t ])*+[A-Za-z0-9+/=]{16}[A-Za-z0-9+/=\\\r\n\t]*+)",
        priority=P_PRIVATE_KEY,
        needles=("-----BEGIN",),
        left=None,
    ),
    *_load_table_rules(),
    # Signed tokens
    _rule(
        "jwt",
        "jwt",
        r"eyJ[A-Za-z0-9_-]{10,}+\.eyJ[A-Za-z0-9_-]{10,}+\.[A-Za-z0-9_-]*+",
        priority=P_JWT,
        left=_WORD_DASH,
    ),
    # Credentials in context. A password in a URL may hold any character but whitespace and quotes
    # (`/`, `#`, `?`, even `@`: the last `@` before the host ends it).
    _rule(
        "url-password",
        "password",
        r"://(?P<user>[^\s:/?#@'\"<>\[\]`]{0,128}+):(?P<secret>[^\s'\"<>`]{1,256})@(?=[A-Za-z0-9\[])",
        priority=P_URL_PASSWORD,
        group="secret",
        left=None,
        check=_url_password_ok,
    ),
    # Headers carry their credential to the end of the value: `&`, `;` or `=` inside it are part of it.
    _rule(
        "authorization-header",
        "bearer-token",
        r"[Aa]uthorization[\"']?[ \t]*[:=][ \t]*[\"']?(?i:bearer|token|bot|basic|digest|apikey|sso-key)"
        r"[ \t]+(?P<secret>[^\s\"'\\`]{8,2048}+)",
        priority=P_CONTEXT,
        group="secret",
        needles=("uthorization",),
        encloses=True,
        check=lambda v: not _is_template(v),
    ),
    # `X-Api-Key: …`, `Private-Token: …`, `X-Vault-Token: …` (matched after each of these words)
    _rule(
        "api-key-header",
        "secret",
        r"[\"']?[ \t]*:[ \t]*[\"']?(?P<secret>[^\s\"'\\`]{8,2048}+)",
        priority=P_CONTEXT,
        group="secret",
        left=None,
        ci_needles=("api-key", "apikey", "-token", "-key", "-secret"),
        encloses=True,
        keyword=True,
        check=lambda v: not _is_template(v) and not _is_template(v.rstrip(",;")),
    ),
    _rule(
        "bearer-token",
        "bearer-token",
        r"[Bb]earer[ \t]+(?P<secret>[A-Za-z0-9._~+/-]{20,}+=*+)",
        priority=P_CONTEXT,
        group="secret",
        needles=("earer",),
        encloses=True,
        check=_mixed,
    ),
    _rule(
        "curl-user",
        "password",
        r"(?:-u|--user)[ =][\"']?[^\s:'\"]{1,64}+:(?P<secret>[^\s'\"]{1,128}+)",
        priority=P_CONTEXT,
        group="secret",
        left=_WORD_DASH,
        needles=("-u ", "-u=", "--user"),
        check=lambda v: not _is_template(v) and not v.isdigit(),
    ),
    _rule(
        "cli-password-flag",
        "password",
        r"--(?:password|passwd|pass)(?:[ \t]+|=)" + _FLAG_VALUE,
        priority=P_CONTEXT,
        group="secret",
        left=_WORD_DASH,
        encloses=True,
        check=lambda v: _flag_value_ok(v),
    ),
    # `mysql -uroot -pS3cret db`, `mysqldump -p'x y'`: the password is glued to `-p`.
    _rule(
        "mysql-password-flag",
        "password",
        r"(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)(?![\w-])[^\n|;&]{0,200}?"
        r"[ \t]-p[\"']?(?P<secret>[^\s\"']{1,128}+)",
        priority=P_CONTEXT,
        group="secret",
        needles=("mysql", "mariadb"),
        encloses=True,
        check=lambda v: not _is_template(v),
    ),
    # `sshpass -p 'x' ssh …`, `redis-cli -a x`, `PGPASSWORD=x psql` (the last is an assignment).
    _rule(
        "cli-p-flag",
        "password",
        r"(?:sshpass[ \t]+-p|redis-cli\b[^\n|;&]{0,120}?[ \t]-a)[ \t]*" + _FLAG_VALUE,
        priority=P_CONTEXT,
        group="secret",
        needles=("sshpass", "redis-cli"),
        encloses=True,
        check=lambda v: not _is_template(v),
    ),
    _rule(
        "cli-secret-flag",
        "secret",
        r"--(?:token|api-key|apikey|secret|client-secret|access-token|auth-token)(?:[ \t]+|=)" + _FLAG_VALUE,
        priority=P_CONTEXT,
        group="secret",
        left=_WORD_DASH,
        encloses=True,
        check=lambda v: _flag_value_ok(v),
    ),
    _rule(
        "prose-password",
        "password",
        r"(?i:pass(?:word|phrase|wd)|pwd)[ \t]+(?:is|was)[ \t]*[:=]?[ \t]+[\"'`]?(?P<secret>[^\s\"'`]{6,128}+)",
        priority=P_CONTEXT,
        group="secret",
        ci_needles=("pass", "pwd"),
        encloses=True,
        check=_prose_password_ok,
        starts_at_needle=True,
    ),
    _rule(
        "url-signature",
        "url-signature",
        r"[?&](?i:sig|signature|x-amz-signature|x-goog-signature|x-amz-security-token|x-amz-credential)=(?P<secret>[^&\s#\"'<>]{8,}+)",
        priority=P_CONTEXT,
        group="secret",
        left=None,
        encloses=True,
        ci_needles=("sig=", "signature=", "x-amz-", "x-goog-"),
    ),
    _rule(
        "xml-password",
        "password",
        r"<(?P<tag>(?i:password|passwd|passphrase))>(?P<secret>[^<\n]{1,256}+)</(?P=tag)>",
        priority=P_CONTEXT,
        group="secret",
        left=None,
        encloses=True,
        ci_needles=("<pass",),
        check=lambda v: not _is_template(v) and bool(v.strip()),
    ),
    _rule(
        "xml-secret",
        "secret",
        r"<(?P<tag>(?i:secret|token|api[_-]?key|access[_-]?token|client[_-]?secret|private[_-]?key))>"
        r"(?P<secret>[^<\n]{1,256}+)</(?P=tag)>",
        priority=P_CONTEXT,
        group="secret",
        left=None,
        encloses=True,
        ci_needles=("<secret>", "<token>", "<api", "<access", "<client", "<private"),
        check=lambda v: not _is_template(v) and bool(v.strip()),
    ),
)

# ---------------------------------------------------------------------------------------------------
# Values: templates, masks, paths, identifiers

_TEMPLATE_RE = re.compile(
    r"""^(?:\[[^\]]*\]|\#[0-9a-fA-F]{3,8}|%[sdrif]|\{\w*\}|\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_][A-Za-z0-9_]*
        |\{\{.*\}\}|\{%.*%\}|<[^<>]*>|%[A-Za-z_][A-Za-z0-9_]*%|%\([^)]*\)s
        |\*+|x{3,}|X{3,}|•+|\.{3}|…
        |(?i:redacted|hidden|masked|secret|password|changeme|none|null|nil|true|false|undefined|empty|todo|tbd|xxx+
        |your[-_ ].*|<.*)
        )$""",
    re.VERBOSE,
)


def _is_template(value: str) -> bool:
    """A stand-in, not a secret: `${X}`, `$X`, `{{ x }}`, `<token>`, `***`, `REDACTED`, `None`, `your-key-here`…"""
    return not value or value.startswith("[REDACTED:") or bool(_TEMPLATE_RE.match(value))


# A path, not a secret: `~/…`, `./…`, `C:\…`, or absolute with lower-case segments only (random base64
# that happens to start with `/` has upper-case letters, so it is never taken for a path).
_PATHLIKE_RE = re.compile(
    r"(?:~|\.{1,2})[/\\]|[A-Za-z]:[\\/]|(?:/[a-z0-9._@+-]+)+/?$"
    r"|/(?:home|Users|usr|var|etc|opt|srv|tmp|mnt|root|data|app|workspace|workspaces|private|Volumes|Library|nix|snap|proc|dev)/"
    r"|[\w.@+-]+(?:/[\w.@+-]+)+\.[a-z][a-z0-9]{0,5}$"
)
_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DOTTED_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_NAME_SEGMENT = (
    r"(?:[a-z_][a-z0-9_]*|[A-Z_][A-Z0-9_]*|[a-z]{2,}(?:[A-Z][a-z]{2,}[0-9]*)+|[A-Z][a-z]{2,}(?:[A-Z][a-z]{2,}[0-9]*)*)"
)
_CODE_DOTTED_RE = re.compile(_NAME_SEGMENT + r"(?:\." + _NAME_SEGMENT + ")+")
_TYPE_WORDS = frozenset(
    "str string bytes int integer bool boolean float number none null nil any object dict list tuple set "
    "optional secretstr secret password text char varchar uuid true false undefined void self cls".split()
)
_TOKEN_RE = re.compile(r"[A-Za-z0-9+/_.~-]+={0,3}")
_HEX_RE = re.compile(r"(?:[A-Za-z]{1,8}[_-])?[0-9a-fA-F]+(?:-[0-9a-fA-F]+)*")  # SHAs, UUIDs, `fp_<sha256>`
_DIGEST_RE = re.compile(r"(?i)(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?|sha3-?\d+)[-:_]")
_VERSION_RE = re.compile(r"v?\d+(?:\.\d+)+(?:[-+.][0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*+)?")
_NAME_PART_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_NAME_CHUNK_RE = re.compile(r"[a-z]+|[0-9]+|[A-Z][a-z]+|[A-Z]+|[a-z]+[0-9]+|[a-z0-9]{1,4}|[A-Z0-9]{1,4}")
_VOWELS = frozenset("aeiouyAEIOUY")
_CHUNK_SPLIT_RE = re.compile(r"[-_./]+")
_REGEX_SYNTAX_RE = re.compile(r"\\[sdwSDWbB][*+?]|\(\?[:=!<]")


_CREDENTIAL_CHARS_RE = re.compile(r"[A-Za-z0-9+/=_.~:%-]+")
_NUMBER_RE = re.compile(r"-?\d{1,5}(?:\.\d+)?")
# Base64 of binary data (PNG, JPEG, GIF, WebP, PDF, gzip) is data, not a credential.
_BINARY_B64_PREFIXES = ("iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "JVBERi0", "H4sI")


_TYPE_EXPR_RE = re.compile(
    r"(?P<head>[A-Za-z_][\w.]*)(?:\[[^\]\n]{0,80}\])?(?:[ \t]*\|[ \t]*[A-Za-z_][\w.]*(?:\[[^\]\n]{0,80}\])?)*[,;)]*"
)


def _type_expr(value: str) -> bool:
    """`str | None`, `Optional[str],`, `Token`: an annotation in code, not a value."""
    m = _TYPE_EXPR_RE.fullmatch(value)
    if m is None:
        return False
    head = m.group("head")
    return head.lower() in _TYPE_WORDS or (head[0].isupper() and not any(c.isdigit() for c in head) and _wordy(head))


def _prose(value: str) -> bool:
    """Words and spaces, as in a sentence."""
    words = value.split()
    return sum(w.strip(".,:;!?()'\"").isalpha() for w in words) >= 0.6 * len(words)


def _secretish(value: str) -> bool:
    """Looks like a credential rather than a name, a number, a pattern or a flag."""
    return (
        len(value) >= 8
        and _CREDENTIAL_CHARS_RE.fullmatch(value) is not None
        and not _wordy(value)
        and not _CODE_DOTTED_RE.fullmatch(value)
        and (
            _HAS_DIGIT.search(value) is not None
            or (_HAS_UPPER.search(value) is not None and _HAS_LOWER.search(value) is not None)
        )
    )


def _wordy(value: str) -> bool:
    """Made of words, as names are (`ConnectionPoolTimeout30s`, `gpt-4o-mini-2024-07-18`, `MAX_POOL_SIZE`);
    random tokens are not. About 2 in 10,000 random base62 strings of 24+ characters look wordy."""
    chunks = [c for c in _CHUNK_SPLIT_RE.split(value) if c]
    if len(chunks) >= 2 and all(_NAME_CHUNK_RE.fullmatch(c) for c in chunks):
        return True  # separated words and numbers: a model name, a region, a slug
    parts = [p for p in _NAME_PART_RE.findall(value) if not (p.isupper() and len(p) > 1)]  # leave acronyms out
    if not parts or sum(map(len, parts)) / len(parts) < 3.5 or sum(p.isdigit() for p in parts) > 2:
        return False  # random text splits into many short pieces, with digits all over
    words = [p for p in parts if not p.isdigit()]
    letters = sum(map(len, words))
    return letters > 0 and sum(c in _VOWELS for w in words for c in w) / letters >= 0.25


def _entropy(value: str) -> float:
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _prose_base64(value: str) -> bool:
    """Base64 of ordinary text (words and spaces) is not a credential."""
    if len(value) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", value):
        return False
    try:
        raw = base64.b64decode(value, validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return decoded.count(" ") >= 2 and all(c.isprintable() or c in "\n\t" for c in decoded)


_SEQUENCES = ("abcdefgh", "ABCDEFGH", "01234567", "qwertyui", "QWERTYUI")
MAX_ENTROPY_VALUE = 256  # longer unquoted or quoted blobs (images, bundles) are data, not credentials
_HAS_UPPER = re.compile(r"[A-Z]")
_HAS_LOWER = re.compile(r"[a-z]")
_HAS_DIGIT = re.compile(r"[0-9]")
_CONSTANT_RE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")


_ID_SEGMENT_RE = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")


def _is_id_path(value: str) -> bool:
    """Lower-case, hyphenated names joined by `/`, one of them a hex id (`sess-parent/agent-a1b2c3d4`,
    `<uuid>/agent-acompact-e1f845`): how agents name a sub-agent's session, written into every shared
    file's frontmatter. A random token has upper case or no hex-id segment."""
    parts = value.split("/")
    return all(_ID_SEGMENT_RE.fullmatch(p) for p in parts) and any(len(p) >= 6 and _HEX_RE.fullmatch(p) for p in parts)


def _looks_random(value: str, threshold: float, min_length: int) -> bool:
    """The high-entropy test for a value assigned to a variable that is not secret-named.

    Cheap checks in C first: this runs on every long value of every assignment."""
    n = len(value)
    if (
        n < min_length
        or n > MAX_ENTROPY_VALUE
        or not _TOKEN_RE.fullmatch(value)
        or value.startswith(_BINARY_B64_PREFIXES)
    ):
        return False
    classes = (
        (_HAS_UPPER.search(value) is not None)
        + (_HAS_LOWER.search(value) is not None)
        + (_HAS_DIGIT.search(value) is not None)
    )
    if classes < 2:
        return False
    if _HEX_RE.fullmatch(value) or _DIGEST_RE.match(value) or _VERSION_RE.fullmatch(value):
        return False  # git SHAs, UUIDs, digests, versions
    if "/" in value and _is_id_path(value):
        return False  # ids joined by a slash: a sub-agent's session id `<uuid>/agent-acompact-e1f845`
    if "/" in value and (_PATHLIKE_RE.match(value) or value.count("/") >= 2 and value.lower() == value):
        return False  # paths
    if _CODE_DOTTED_RE.fullmatch(value) or _CONSTANT_RE.fullmatch(value):
        return False  # module.names, CONSTANT_NAMES
    if _entropy(value) < threshold or any(run in value for run in _SEQUENCES):
        return False  # low entropy, or an alphabet: "abcdefghijklmnopqrstuvwxyz0123456789"
    if _wordy(value):
        return False  # camelCase and snake_case identifiers, words
    return not _prose_base64(value)


# ---------------------------------------------------------------------------------------------------
# Assignments: secret-named keys (any value) and any key with a high-entropy value

# Assignments are found from their separator: the text is reversed once, and a pattern that starts with a
# literal `=` or `:` (sre's fast prefix search) reads the key backwards. Scanning forwards for a key at
# every position costs a few milliseconds per 20 KB; this costs a tenth of that.
_REV_KEY_RE = {
    "=": re.compile(r"=:?[ \t]{0,8}(?:[\"'`*]{1,2}\\{0,3})?(?P<yek>[\w.-]{1,80}+)(?![\w.-])"),
    ":": re.compile(r":[ \t]{0,8}(?:[\"'`*]{1,2}\\{0,3})?(?P<yek>[\w.-]{1,80}+)(?![\w.-])"),
}


@lru_cache(maxsize=16)
def _long_value_re(min_len: int) -> re.Pattern[str]:
    """A value of at least `min_len` token characters starts here (the high-entropy rule's pre-check)."""
    return re.compile(r"[ \t>]*+[\"'`\\]*+[A-Za-z0-9+/_.~=-]{" + str(min_len) + "}")


_VALUE_RE = re.compile(
    r"""[ \t]*+
    (?:
        \\{1,3}"(?P<v1>(?:[^"\\\n]|\\(?!\\{0,2}"))*+)
      | "(?P<v2>(?:[^"\\\n]|\\.)*+)
      | '(?P<v3>(?:[^'\\\n]|\\.)*+)
      | `(?P<v4>[^`\n]*+)
      | (?P<v0>[^\s"'`,;&|(){}\[\]<>]{1,1024}+)
    )""",
    re.VERBOSE,
)
# `password: str = "…"`: after a type annotation, the value follows an `=`.
_ANNOTATED_RE = re.compile(
    r"""(?:\[[^\]\n]{0,80}\])?[ \t]*(?:\|[ \t]*[\w.]+[ \t]*)*=(?!=)[ \t]*
        (?:"(?P<v2>(?:[^"\\\n]|\\.)*+)|'(?P<v3>(?:[^'\\\n]|\\.)*+)|(?P<v0>[^\s"'`,;&|(){}\[\]<>]{1,1024}+))""",
    re.VERBOSE,
)
_ENV_LINE_RE = re.compile(r"(?:^|\n)[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+)?$")
_NON_SPACE_RE = re.compile(r"\S+")
_BLANKS_RE = re.compile(r"[ \t]*")
_RAW_VALUE_RE = re.compile(r"[^\s\"'`,;&|(){}\[\]<>]*")
_YAML_VALUE_RE = re.compile(r"#?(?:[^\n#]|(?<!\s)#)*")  # to the end of the line or a ` #` comment
_KEY_PARTS_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_SECRET_STEM_RE = re.compile(r"(?i)pass|pwd|secret|token|key|credential|auth|pat\b|_pat|sas")
_KEY_MODIFIERS = frozenset(
    "base value val str string b64 base64 hex raw plain plaintext literal bytes encoded enc data text".split()
)
_SECRET_ENDINGS = (
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "authkey",
    "credential",
    "credentials",
)
_SECRET_EXACT = frozenset({"pass", "pwd"})
_WEAK_EXACT = frozenset({"auth", "sas"})  # `auth: true`, `pat: 3`: a secret only if the value looks like one
_KEY_QUALIFIERS = frozenset(
    "api access secret private auth signing sign encryption encrypt master account client session storage shared "
    "license licence app service subscription primary secondary consumer webhook admin deploy ssh gpg pgp jwt hmac "
    "cookie crypto cipher aes rsa ed25519 openai anthropic stripe sendgrid mailgun twilio algolia mapbox firebase "
    "google gcp aws azure heroku github gitlab npm pypi slack".split()
)
_NON_SECRET_LAST = frozenset(
    "id ids uuid guid sha sha1 sha224 sha256 sha384 sha512 md5 blake2b blake3 hash digest checksum integrity etag "
    "commit rev revision version "
    "signature ref oid parent head nonce name path file dir url uri href src image tag branch h1".split()
)


@lru_cache(maxsize=8192)
def _key_info(raw_key: str) -> tuple[str | None, bool, bool, int]:
    """For a key as found before a separator: (placeholder kind when it names a secret, whether that name
    is only a weak hint, whether a high-entropy value of it counts, how many leading `-`/`.` to skip)."""
    key = raw_key.lstrip("-.")
    if not key or not (key[0].isalpha() or key[0] == "_"):
        return None, False, False, 0  # not a key: `--`, `3`, `.5`
    parts = [p.lower() for p in _KEY_PARTS_RE.findall(key)]
    kind, weak = _secret_key_kind(key, parts)
    last = "".join(parts[-2:]) if len(parts) > 1 and parts[-1].isdigit() else (parts[-1] if parts else "")
    return kind, weak, last not in _NON_SECRET_LAST, len(raw_key) - len(key)  # `sha256: …`, `etag: …`


def _secret_key_kind(key: str, parts: list[str]) -> tuple[str | None, bool]:
    """The placeholder kind for a value assigned to this key (None when the key does not name a secret),
    and whether the name is only a weak hint (`CACHE_KEY`, `auth`): then the value must look random too."""
    if not parts or not _SECRET_STEM_RE.search(key):
        return None, False
    parts = list(parts)
    while len(parts) > 1 and parts[-1] in _KEY_MODIFIERS:
        parts.pop()
    last = parts[-1]
    prev = parts[-2] if len(parts) > 1 else ""
    if last == "pwd" and key.upper() in ("PWD", "OLDPWD"):
        return None, False  # the shell's working directory
    strong = (
        last.endswith(_SECRET_ENDINGS)
        or last in _SECRET_EXACT
        or (last == "key" and prev in _KEY_QUALIFIERS)
        or (last == "hash" and prev.endswith(("password", "passwd")))
    )
    weak = not strong and (last in _WEAK_EXACT or (last == "key" and key.isupper() and len(parts) > 1))
    if not strong and not weak:
        return None, False
    joined = "".join(parts)
    if "aws" in parts or joined.endswith("secretaccesskey"):
        return "aws-key", weak
    if "azure" in parts or joined.endswith(("accountkey", "sharedaccesskey", "sharedaccesssignature")):
        return "azure-key", weak
    if "heroku" in parts:
        return "heroku-key", weak
    if last.endswith(("password", "passwd", "passphrase")) or last in ("pass", "pwd") or last == "hash":
        return "password", weak
    return "secret", weak


def _keyword_value_ok(
    value: str, raw: str, quoted: bool, env_line: bool, sep: str, key: str, text: str, raw_end: int
) -> bool:
    """Is this value of a secret-named key a literal secret (and not code, a type, a template or a path)?

    `raw` is the unquoted value up to its first delimiter, ending at `raw_end`; `value` may run on to the
    end of the word (`KEY=value` lines) or of the line (YAML).
    """
    if not quoted and value == raw and _IDENT_RE.fullmatch(value):  # the common case in code, decided fast
        if text[raw_end : raw_end + 1] in ("(", "["):
            return False  # a call or an index
        if any(c.isdigit() for c in value) or (len(value) >= 16 and not _wordy(value)):
            return env_line or not _is_template(value)  # hunter2, or a random-looking token
        if env_line:
            return value.lower() not in key.lower() and not _is_template(value)
        low = value.lower()
        if low in _TYPE_WORDS or value[0].isupper() or low in key.lower() or sep != ":" or "_" in value:
            return False  # `password: str`, `token: Token`, `password=password`, `password = split`, `key: key_id`
        # A bare word is a literal only where a YAML value would be: alone at the end of its line.
        rest = text[raw_end : raw_end + 200].split("\n", 1)[0].strip()
        return (not rest or rest.startswith("#")) and not _is_template(value)
    if (
        _is_template(value.strip())
        or (raw and value[len(raw) :] in _CODE_TAILS and _is_template(raw))
        or _PATHLIKE_RE.match(value)
        or _NOT_SECRET_VALUE_RE.match(value)
        or not any(c.isalnum() for c in value)
    ):
        return False
    if quoted:
        return any(c.isalnum() for c in value)  # not `"Password: "` closing a prompt string
    if sep == ":" and value != raw and _type_expr(value):
        return False  # `password: str | None`
    if text[raw_end : raw_end + 1] in ("(", "[") and (_IDENT_RE.fullmatch(raw) or _DOTTED_RE.fullmatch(raw)):
        return False  # a call or an index: code
    tail = value[len(raw) :]
    code_tail = tail in _CODE_TAILS
    if _CODE_DOTTED_RE.fullmatch(raw) and (not env_line or tail and code_tail or not any(c.isdigit() for c in raw)):
        return False  # self.password, os.environ, settings.SECRET_KEY, this.apiKey: code
    if env_line:
        # KEY=value lines: the rest of the word is the value, whatever it looks like; but not keyword
        # arguments on lines of their own (`password=password,`).
        return not (
            _IDENT_RE.fullmatch(raw)
            and code_tail
            and (tail or raw.lower() in key.lower() or raw.lower() in _TYPE_WORDS)
        )
    if _NUMBER_RE.fullmatch(value):
        return False  # ports, lengths, counts, weights
    if value.count(" ") >= 2 and _prose(value):
        return False  # `password: The password to use.` in a docstring
    if _REGEX_SYNTAX_RE.search(value):
        return False  # a regular expression in code: `_authToken=\s*(npm_.+)`
    if _IDENT_RE.fullmatch(value):
        if any(c.isdigit() for c in value) or (len(value) >= 16 and not _wordy(value)):
            return True  # hunter2, or a random-looking token: not a name in code
        low = value.lower()
        if low in _TYPE_WORDS or value[0].isupper() or low in key.lower() or sep != ":" or "_" in value:
            return False  # `password: str`, `token: Token`, `password=password`, `password = split`, `key: key_id`
        # A bare word is a literal only where a YAML value would be: alone at the end of its line.
        rest = text[raw_end : raw_end + 200].split("\n", 1)[0].strip()
        return not rest or rest.startswith("#")
    return True


_NOT_PLAIN = frozenset("([{<|>\"'`\n")  # what a YAML plain value (or a password in one) cannot start with
_CODE_TAILS = frozenset({"", ",", ")", "),", ");", ";"})
# ARNs and URNs name things; a URL without a user:password@ is an address, not a secret.
_NOT_SECRET_VALUE_RE = re.compile(r"(?:arn|urn):[a-z0-9-]+:|https?://[^\s@]*$")


# ---------------------------------------------------------------------------------------------------
# E-mail addresses and home paths

_EMAIL_DOMAIN_RE = re.compile(
    r"@(?P<domain>[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*+)"
    r"(?![A-Za-z0-9-]|\.[A-Za-z0-9])"
)
_EMAIL_LOCAL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._%+-")
_EMAIL_SKIP_LOCAL = frozenset({"git", "noreply", "no-reply", "donotreply", "do-not-reply"})
_EMAIL_SKIP_TLDS = frozenset(
    "example test invalid localhost local png jpg jpeg gif svg webp ico bmp pdf js mjs cjs ts tsx jsx css scss "
    "py pyi rb go rs java kt json yaml yml toml md txt html htm lock zip gz tar whl so dll exe".split()
)
_EMAIL_SKIP_DOMAINS = frozenset({"example.com", "example.org", "example.net"})

_HOME_RE = re.compile(
    r"/(?:home|Users|var/home|export/home|mnt/[a-z]/Users)/(?P<user>[A-Za-z0-9._-]{1,64}+)(?![A-Za-z0-9._-])"
    r"|/root(?=[/\\\"'`\s,;:)\]}>]|$)"
)
_WIN_HOME_RE = re.compile(
    r":(?P<sep>\\{1,2}|/)(?:Users|Documents and Settings)(?P=sep)(?P<user>[^\\/\s:*?\"'<>|]{1,64}+)"
    r"(?=(?P=sep)|[\s\"'`,;)\]}]|$)"
)
_HOME_SKIP_USERS = frozenset({"Shared", "Public", "linuxbrew", "Default", "All Users"})
_PATH_LEFT = frozenset(_WORD | {".", "~", "/", "-", "\\"})


# ---------------------------------------------------------------------------------------------------
# The engine


@dataclass(slots=True)
class _Cand:
    start: int
    end: int
    kind: str
    rule: str
    priority: int
    replacement: str
    encloses: bool = False
    fp: str = ""


def _left_ok(text: str, start: int, left: frozenset[str] | None) -> bool:
    """Nothing of `left` just before `start`; a `\\n`-style escape (JSON) or a `%XX` percent-encoding
    there ends a word too, though its last character is a letter or digit (`"a\\nghp_…"`, `q=%20sk-…`)."""
    if left is None or start == 0 or text[start - 1] not in left:
        return True
    if start >= 2 and text[start - 2] == "\\" and text[start - 1] in "ntrbfu0":
        return True
    return start >= 3 and text[start - 3] == "%" and text[start - 2] in _HEX_DIGITS and text[start - 1] in _HEX_DIGITS


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _detect(
    text: str,
    settings: Settings,
    only: frozenset[str] | None = None,
    team: bool = True,
    depth: int = MAX_VIEW_DEPTH,
    assignment_lines: list[tuple[int, int]] | None = None,
) -> tuple[list[_Cand], list[Finding], frozenset[str]]:
    """Every candidate of every detector (overlaps included), the errors of team patterns, and the names
    of the built-in rules whose needles are in the text. With `only`, other rules are known to have no
    needle in the text and are skipped. `depth` bounds the decoded views of views (base64 in base64).
    With `assignment_lines` (spans of whole lines), the assignment detector looks at those lines only."""
    cands: list[_Cand] = []
    add = cands.append
    lower: str | None = None
    present: list[str] = []
    # Which needles are in the text: with every rule to run, one Aho-Corasick pass for all ~250 needles
    # (a `needle in text` per needle costs as much as the rest of the scan); with a few, `in`.
    found: frozenset[str] | None = None
    ci_found: frozenset[str] | None = None
    active: frozenset[str] | None = None  # the rules owning a needle that is in the text
    if only is None and len(text) > 2048:
        lower = text.translate(_ASCII_LOWER)  # same length as text: offsets carry over
        found, ci_found = _needles_in_lowered(text, lower)
        active = _rules_of_needles(found, ci_found)
    for rule in RULES:
        if active is not None:
            if rule.name not in active:
                continue
        elif only is not None and rule.name not in only:
            continue
        elif rule.needles and not (
            any(n in found for n in rule.needles) if found is not None else any(n in text for n in rule.needles)
        ):
            continue
        elif rule.ci_needles:
            if lower is None:
                lower = text.translate(_ASCII_LOWER)
            if not (
                any(n in ci_found for n in rule.ci_needles)
                if ci_found is not None
                else any(n in lower for n in rule.ci_needles)
            ):
                continue
        present.append(rule.name)
        if rule.keyword or rule.anchored:
            matches = _needle_matches(rule, text, lower if rule.ci_needles and lower is not None else text)
        else:
            matches = rule.pattern.finditer(text)
        for m in matches:
            s, e = m.span(rule.group)
            if s < 0 or not _left_ok(text, m.start(), rule.left):
                continue
            if rule.check is not None and not rule.check(text[s:e]):
                continue
            add(_Cand(s, e, rule.kind, rule.name, rule.priority, placeholder(rule.kind), rule.encloses))
    _detect_assignments(text, settings, add, assignment_lines)
    if settings.emails and "@" in text:
        _detect_emails(text, add)
    _detect_paths(text, settings, add)
    errors = _detect_team(text, settings, add) if settings.patterns and team else []
    if depth > 0:
        _detect_views(text, settings, add, depth, cands)
    return cands, errors, frozenset(present)


# What a decoded view may report: secrets. An address, a home path or a merely random value inside a
# base64 blob or a URL does not make the whole encoded span a secret.
def _rules_with_needles_in(text: str) -> frozenset[str]:
    """The rules whose needles occur in a short text (the text around a view's decoded pieces)."""
    lower = text.translate(_ASCII_LOWER)
    rules: set[str] = set()
    for needle in [n for n in _NEEDLE_RULES if n in text]:
        rules |= _NEEDLE_RULES[needle]
    for needle in [n for n in _CI_NEEDLE_RULES if n in lower]:
        rules |= _CI_NEEDLE_RULES[needle]
    return frozenset(rules)


def _rules_of_needles(needles: frozenset[str], ci_needles: frozenset[str]) -> frozenset[str]:
    """The rules that own these needles (case-sensitive) and case-insensitive needles."""
    rules: set[str] = set()
    for needle in needles:
        rules |= _NEEDLE_RULES[needle]
    for needle in ci_needles:
        rules |= _CI_NEEDLE_RULES[needle]
    return frozenset(rules)


def _needle_index(attr: str) -> dict[str, frozenset[str]]:
    """Each needle and the rules it belongs to."""
    owners: dict[str, set[str]] = {}
    for rule in RULES:
        for needle in getattr(rule, attr):
            owners.setdefault(needle, set()).add(rule.name)
    return {n: frozenset(names) for n, names in owners.items()}


_NEEDLE_RULES = _needle_index("needles")
# `_detect` runs the rules that own a needle found in the text; a rule with needles of both kinds would
# need one of each, which that lookup does not check.
if any(r.needles and r.ci_needles for r in RULES):  # pragma: no cover - a rule table error
    raise RuntimeError("a built-in rule has both needles and ci_needles")
_CI_NEEDLE_RULES = _needle_index("ci_needles")
# Characters around a decoded piece where a rule's needle (or keyword) may sit: a token's prefix may be a
# long way before the `%2F` inside it or the line break that wraps it.
_VIEW_CONTEXT = 256
_VIEW_SKIP_KINDS = frozenset({"email", "home-path", "path", "high-entropy"})


def _detect_views(text: str, settings: Settings, add: Callable[[_Cand], None], depth: int, plain: list[_Cand]) -> None:
    """Secrets that show only in a decoding of the text (see smriti.team.secret_views): each is reported
    on the encoded span of the original, so the encoded form is what gets replaced."""
    for view in secret_views.views(text):
        # Only rules whose needles are near a decoded piece can find something new; only a base64
        # decoding (a new text, not an edit) is worth decoding again.
        only = _rules_with_needles_in(view.around(_VIEW_CONTEXT))
        inner = depth - 1 if view.name == "base64" else 0
        found, _, _ = _detect(view.text, settings, only, team=False, depth=inner)
        known = {(p.start, p.end) for p in plain}
        for c in found:
            if c.kind in _VIEW_SKIP_KINDS:
                continue
            s, e = view.to_source(c.start, c.end)
            if not view.changed(c.start, c.end) and (s, e) in known:
                continue  # the plain text has it already; new is what touches a decoded piece or its context
            if view.name == "joined" and (c.priority >= P_ASSIGNMENT or not _wrapped_parts_ok(text[s:e])):
                # `ghp_…\nrotate it`: a token that ends a line, then a word, is not one token; and a value
                # of an assignment does not run on into the next line
                continue
            add(_Cand(s, e, c.kind, f"{c.rule}@{view.name}", c.priority, placeholder(c.kind), True))


_LINE_BREAK_RE = re.compile(r"(?:\r?\n|\\r\\n|\\n)[ \t>]*")


def _wrapped_parts_ok(span: str) -> bool:
    """Each line of a token found across line breaks looks like part of a token, not a word of prose."""
    for part in _LINE_BREAK_RE.split(span):
        if not part or not (
            any(c.isdigit() for c in part) or _upper_and_lower(part[1:]) or any(c in "+/=_-" for c in part)
        ):
            return False
    return True


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_ANCHOR_BEFORE = 640  # how far before its needle an anchored rule's match may start
_ANCHOR_AFTER = 8192  # and how far after it may end (longer tokens are cut there, still redacted in part)


@lru_cache(maxsize=1)
def _automata() -> tuple[Any, Any]:
    """Aho-Corasick automata of every rule's needles and of every case-insensitive needle (built once)."""
    import ahocorasick  # pyahocorasick: C, one pass over the text for every needle at once

    out = []
    for attr in ("needles", "ci_needles"):
        automaton = ahocorasick.Automaton()
        for needle in {n for rule in RULES for n in getattr(rule, attr)}:
            automaton.add_word(needle, needle)
        automaton.make_automaton()
        out.append(automaton)
    return out[0], out[1]


def _needles_in(text: str, lower: str) -> tuple[frozenset[str], frozenset[str]]:
    """The needles (case-sensitive) in `text` and the case-insensitive ones in `lower`."""
    cs, ci = _automata()
    return frozenset(v for _, v in cs.iter(text)), frozenset(v for _, v in ci.iter(lower))


@lru_cache(maxsize=1)
def _lowered_automaton() -> Any:
    """One Aho-Corasick automaton of every needle lower-cased: each word maps to the needles it stands
    for, with whether the needle is case-sensitive (then its case is checked in the text)."""
    import ahocorasick

    owners: dict[str, list[tuple[str, bool]]] = {}
    for needle in {n for rule in RULES for n in rule.needles}:
        owners.setdefault(needle.translate(_ASCII_LOWER), []).append((needle, True))
    for needle in {n for rule in RULES for n in rule.ci_needles}:
        owners.setdefault(needle, []).append((needle, False))
    automaton = ahocorasick.Automaton()
    for word, needles in owners.items():
        automaton.add_word(word, tuple(needles))
    automaton.make_automaton()
    return automaton


def _needles_in_lowered(text: str, lower: str) -> tuple[frozenset[str], frozenset[str]]:
    """What `_needles_in` says, in one pass over `lower` (`text` ASCII-lower-cased, so offsets agree):
    a case-sensitive needle counts where the text holds it in its own case."""
    found: set[str] = set()
    ci_found: set[str] = set()
    for end, needles in _lowered_automaton().iter(lower):
        for needle, case_sensitive in needles:
            if not case_sensitive:
                ci_found.add(needle)
            elif needle not in found and text.startswith(needle, end + 1 - len(needle)):
                found.add(needle)
    return frozenset(found), frozenset(ci_found)


def _needle_matches(rule: Rule, text: str, haystack: str) -> Iterator[re.Match[str]]:
    """Matches of a keyword rule (its pattern matched right after each keyword) or of an anchored rule
    (its pattern searched in windows around each needle), each once, in order of their needles."""
    needles = rule.ci_needles or rule.needles
    seen: set[tuple[int, int]] = set()
    n = len(text)
    hits = sorted({i for needle in needles for i in _find_all(haystack, needle)})
    if rule.keyword:
        lengths = {i: max(len(k) for k in needles if haystack.startswith(k, i)) for i in hits}
        for i in hits:
            opened = text.rfind("[REDACTED:", max(0, i - 50), i)
            if opened >= 0 and "]" not in text[opened:i]:
                continue  # the kind in a placeholder (`[REDACTED:heroku-key]`) names no secret nearby
            m = rule.pattern.match(text, i + lengths[i])
            if m is not None and m.span() not in seen:
                seen.add(m.span())
                yield m
        return
    windows: list[list[int]] = []
    window_hits: list[list[int]] = []
    for i in hits:
        ws, we = max(0, i - _ANCHOR_BEFORE), min(n, i + _ANCHOR_AFTER)
        if windows and ws <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], we)
            window_hits[-1].append(i)
        else:
            windows.append([ws, we])
            window_hits.append([i])
    # A search of a window finds the leftmost match, then the next one after its end; when matches can
    # only start at a needle, matching at each needle in turn finds the same ones without stepping sre
    # through every position. Case-insensitive needles are found in the ASCII-lowered text, while
    # `(?i:…)` also folds a few non-ASCII letters (`ſ`, `K`): only an ASCII text is sure to agree.
    at_needles = rule.starts_at_needle and (not rule.ci_needles or text.isascii())
    for (ws, we), starts in zip(windows, window_hits, strict=True):
        if at_needles:
            pos = ws
            for i in starts:
                if i < pos:
                    continue
                m = rule.pattern.match(text, i, we)
                if m is None:
                    continue
                pos = m.end() if m.end() > m.start() else m.end() + 1
                if m.span() not in seen:
                    seen.add(m.span())
                    yield m
            continue
        for m in rule.pattern.finditer(text, ws, we):
            if m.span() not in seen:
                seen.add(m.span())
                yield m


def _find_all(haystack: str, needle: str) -> Iterator[int]:
    i = haystack.find(needle)
    while i >= 0:
        yield i
        i = haystack.find(needle, i + 1)


def _match_end(rx: re.Pattern[str], text: str, pos: int) -> int:
    """Where a match of `rx` at `pos` ends (`pos` when there is none)."""
    m = rx.match(text, pos)
    return pos if m is None else m.end()


def _detect_assignments(
    text: str, settings: Settings, add: Callable[[_Cand], None], lines: list[tuple[int, int]] | None = None
) -> None:
    """Values of secret-named keys (`PASSWORD=…`, `"token": "…"`, `api_key: …`) and high-entropy values
    of any other key (`session = "aZ3kP9…"`). With `lines` (sorted spans of whole lines), only
    assignments whose separator is in those lines: key, separator and value never cross a line break
    (no pattern below matches one), so a line's assignments do not depend on the lines around it."""
    threshold, min_len = settings.entropy_threshold, settings.entropy_min_length
    long_value = _long_value_re(min_len).match
    n = len(text)
    rev: str | None = None
    for sep, rx in _REV_KEY_RE.items():
        if sep not in text:
            continue
        if rev is None:
            rev = text[::-1]
        # Scanned from the end of the text (it is reversed); the spans of `lines` likewise, last first.
        matches = (
            rx.finditer(rev)
            if lines is None
            else chain.from_iterable(rx.finditer(rev, n - e, n - s) for s, e in reversed(lines))
        )
        for m in matches:
            ks, ke = m.span("yek")
            key_end, key_start = n - ks, n - ke
            kind, weak, plain_key, strip = _key_info(text[key_start:key_end])
            i = n - 1 - m.start()  # the separator in `text`
            if kind is None and (not plain_key or long_value(text, i + 1) is None):
                continue  # the common case, kept cheap: an ordinary key with a short value
            key_start += strip
            key = text[key_start:key_end]
            nxt = text[i + 1 : i + 2]
            prv = text[i - 1 : i]
            # KEY=value at the start of a line (.env, shell): the value is the whole word, whatever it is.
            env_line = (
                sep == "="
                and key_end == i
                and nxt not in ("", " ", "\t", "\r", "\n", '"', "'", "`")
                and _ENV_LINE_RE.search(text, max(0, key_start - 40), key_start) is not None
            )
            if env_line:
                pass
            elif sep == "=":
                if (
                    nxt == "="
                    or prv in ("=", "!", "<", ">")
                    or (nxt == "~" and (prv in " \t" or text[i + 2 : i + 3] in " /"))
                ):
                    continue  # comparisons, and Perl's and Ruby's `=~ /re/`
            elif (
                nxt in (":", "/", "\\", "=")
                or prv == ":"
                or (prv in (" ", "\t") and text[key_end] not in "\"'`*\\")
                or (key_start > 0 and text[key_start - 1] == ":")
            ):
                continue  # `::`, `https://`, `C:\`, `:=` (read as `=`), `word :` in prose, `arn:…:secret:…`
            if env_line:
                vs, ve, g = i + 1, _match_end(_NON_SPACE_RE, text, i + 1), "v0"
            else:
                v = _VALUE_RE.match(text, i + 2 if (sep == "=" and nxt == ">") else i + 1)
                if v is not None:
                    g = v.lastgroup or "v0"
                    vs, ve = v.span(g)
                    if g in ("v2", "v3") and key_start > 0 and text[key_start - 1] == text[vs - 1] != text[key_end]:
                        continue  # `'Password: '`: the key and separator sit inside a string literal
                elif (
                    sep == ":"
                    and kind is not None
                    and text[_match_end(_BLANKS_RE, text, i + 1) :][:1] not in _NOT_PLAIN
                ):
                    g, vs = "v0", _match_end(_BLANKS_RE, text, i + 1)  # `password: &x…` on a YAML line: see below
                    ve = vs
                else:
                    continue
            if kind is None and (ve - vs < min_len or not plain_key):
                continue  # the common case: an ordinary key with a short value
            quoted = g != "v0"
            raw_end = ve
            if not quoted and env_line:
                raw_end = _match_end(_RAW_VALUE_RE, text, vs)
            elif not quoted:
                line_start = bool(_ENV_LINE_RE.search(text, max(0, key_start - 40), key_start))
                annotated = None
                if ve > vs and sep == ":" and _IDENT_RE.fullmatch(text, vs, ve):
                    annotated = _ANNOTATED_RE.match(text, ve)  # `password: str = "…"`
                if annotated is not None:
                    g2 = annotated.lastgroup or "v0"
                    vs, ve, quoted = annotated.start(g2), annotated.end(g2), g2 != "v0"
                    raw_end = ve
                elif line_start and sep == ":" and kind is not None:
                    # `password: a b,c # note` (never shorter than the word: `password: #x` is not a comment
                    # here); `key: value,` is a dict entry or an argument in code, not YAML.
                    end = vs + len(text[vs : _match_end(_YAML_VALUE_RE, text, vs)].rstrip())
                    if text[ve:end] not in _CODE_TAILS:
                        ve = max(ve, end)
            if ve <= vs:
                continue
            value = text[vs:ve]
            if kind is not None:
                if weak and not _secretish(value):
                    continue
                if _keyword_value_ok(value, text[vs:raw_end], quoted, env_line, sep, key, text, raw_end):
                    add(_Cand(vs, ve, kind, f"{kind}-assignment", P_ASSIGNMENT, placeholder(kind), True))
            elif not quoted and not env_line and (_DOTTED_RE.fullmatch(value) or text[ve : ve + 1] == "("):
                continue  # `x = module.attr`, `x = call(…)`: code
            elif _looks_random(value, threshold, min_len):
                add(
                    _Cand(
                        vs, ve, "high-entropy", "high-entropy-assignment", P_ENTROPY, placeholder("high-entropy"), True
                    )
                )


def _detect_emails(text: str, add: Callable[[_Cand], None]) -> None:
    for m in _EMAIL_DOMAIN_RE.finditer(text):
        at = m.start()
        s = at
        while s > 0 and at - s < 64 and text[s - 1] in _EMAIL_LOCAL:
            s -= 1
        while s < at and text[s] in ".-+%":
            s += 1
        if s == at:
            continue
        if text.endswith("://", 0, s):
            continue  # the user of a URL (scheme://user@host), not an address
        local = text[s:at]
        domain = m.group("domain").lower()
        tld = domain.rsplit(".", 1)[-1]
        if "." not in domain or not tld.isalpha() or len(tld) < 2 or tld in _EMAIL_SKIP_TLDS:
            continue
        if local.lower() in _EMAIL_SKIP_LOCAL or domain in _EMAIL_SKIP_DOMAINS or domain.endswith(".example.com"):
            continue
        add(_Cand(s, m.end(), "email", "email", P_EMAIL, placeholder("email")))


def _detect_paths(text: str, settings: Settings, add: Callable[[_Cand], None]) -> None:
    for rule_name, rx, replacement in settings._paths:
        home = rule_name == "home-dir"
        for m in rx.finditer(text):
            if home and not _path_left_ok(text, m.start()):
                continue
            kind = "home-path" if home else "path"
            add(_Cand(m.start(), m.end(), kind, rule_name, P_HOME - 1 if home else P_PATH_RULE, replacement))
    if "/home/" in text or "/Users/" in text or "/root" in text or "/var/home/" in text or "/export/home/" in text:
        for m in _HOME_RE.finditer(text):
            user = m.group("user")
            if user in _HOME_SKIP_USERS or not _path_left_ok(text, m.start()):
                continue
            add(_Cand(m.start(), m.end(), "home-path", "home-path", P_HOME, "~"))
    if ":\\" in text or ":/" in text:
        for m in _WIN_HOME_RE.finditer(text):
            s = m.start() - 1
            if (
                s < 0
                or not ("A" <= text[s].upper() <= "Z")
                or (s > 0 and (text[s - 1].isalnum() or text[s - 1] == "_"))
            ):
                continue
            if m.group("user") in _HOME_SKIP_USERS:
                continue
            add(_Cand(s, m.end(), "home-path", "home-path", P_HOME, "~"))


def _path_left_ok(text: str, start: int) -> bool:
    if start == 0 or text[start - 1] not in _PATH_LEFT:
        return True
    return text.endswith("file://", 0, start)  # file:///home/alice/…


def _detect_team(text: str, settings: Settings, add: Callable[[_Cand], None]) -> list[Finding]:
    errors: list[Finding] = []

    def error(name: str, detail: str) -> None:
        errors.append(Finding(SCAN_ERROR, f"team:{name}", 0, 0, 1, 1, "", detail))

    if len(text) > settings.max_scan_chars:
        for p, _ in settings._team:
            error(
                p.name,
                f"text of {len(text):,} characters is longer than the {settings.max_scan_chars:,} "
                "that team patterns scan; split it or raise max_scan_chars",
            )
        return errors
    deadline = time.monotonic() + settings.pattern_timeout
    for p, rx in settings._team:
        group = "secret" if "secret" in rx.groupindex else 0
        pos, count = 0, 0
        try:
            while pos <= len(text):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError
                m = rx.search(text, pos, timeout=remaining)
                if m is None:
                    break
                s, e = m.span(group)
                if e > s:
                    add(_Cand(s, e, p.kind, f"team:{p.name}", P_TEAM, placeholder(p.kind)))
                    count += 1
                    if count > MAX_TEAM_MATCHES:
                        error(p.name, f"matched more than {MAX_TEAM_MATCHES:,} times in one text; it is too broad")
                        break
                pos = m.end() if m.end() > m.start() else m.end() + 1
        except TimeoutError:
            error(
                p.name,
                f"timed out (the team patterns' budget is {settings.pattern_timeout:g} s per text); "
                "simplify the pattern (avoid nested quantifiers such as (a+)+)",
            )
    return errors


def _placeholder_spans(text: str) -> tuple[list[int], list[int]]:
    if "[REDACTED:" not in text:
        return [], []
    starts, ends = [], []
    for m in PLACEHOLDER_RE.finditer(text):
        starts.append(m.start())
        ends.append(m.end())
    return starts, ends


def _select(text: str, cands: list[_Cand], allow: frozenset[str]) -> tuple[list[_Cand], list[_Cand]]:
    """Non-overlapping candidates to act on (by priority; a value rule may swallow narrower matches
    inside it), and the allow-listed ones. Candidates that touch an existing placeholder are dropped."""
    p_starts, p_ends = _placeholder_spans(text)
    chosen_s: list[int] = []
    chosen_e: list[int] = []
    chosen: list[_Cand] = []
    allowed: list[_Cand] = []
    for c in sorted(cands, key=lambda c: (c.priority, c.start, c.start - c.end)):
        if p_starts:
            i = bisect_right(p_ends, c.start)
            if i < len(p_starts) and p_starts[i] < c.end:
                continue
        c.fp = fingerprint(c.kind, text[c.start : c.end])
        if c.fp in allow:
            allowed.append(c)
            continue
        lo = bisect_right(chosen_e, c.start)
        hi = bisect_left(chosen_s, c.end)
        if lo >= hi:
            chosen_s.insert(lo, c.start)
            chosen_e.insert(lo, c.end)
            chosen.insert(lo, c)
            continue
        if c.encloses and _swallows(text, c, chosen_s[lo:hi], chosen_e[lo:hi]):
            del chosen_s[lo:hi], chosen_e[lo:hi], chosen[lo:hi]
            chosen_s.insert(lo, c.start)
            chosen_e.insert(lo, c.end)
            chosen.insert(lo, c)
    return chosen, allowed


def _swallows(text: str, c: _Cand, starts: list[int], ends: list[int]) -> bool:
    """A value rule replaces the narrower matches inside it when it holds more than they do: `token =
    "ghp_…-and-more"` goes whole, while `"private_key": "-----BEGIN…-----END…-----\\n"` stays a private key."""
    if not all(c.start <= s and e <= c.end for s, e in zip(starts, ends, strict=True)):
        return False
    rest, pos = [], c.start
    for s, e in zip(starts, ends, strict=True):
        rest.append(text[pos:s])
        pos = e
    rest.append(text[pos : c.end])
    return sum(ch.isalnum() for part in rest for ch in part) >= 3


class _Lines:
    """1-based line and column of offsets into one text (the newline index is built on first use)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._nl: list[int] | None = None

    def at(self, offset: int) -> tuple[int, int]:
        if self._nl is None:
            self._nl = [m.start() for m in _NEWLINE_RE.finditer(self._text)]
        i = bisect_left(self._nl, offset)
        line_start = self._nl[i - 1] + 1 if i else 0
        return i + 1, offset - line_start + 1


_NEWLINE_RE = re.compile("\n")


def _finding(
    c: _Cand, lines: _Lines, start: int | None = None, end: int | None = None, fp: str | None = None
) -> Finding:
    s = c.start if start is None else start
    line, col = lines.at(s)
    return Finding(c.kind, c.rule, s, c.end if end is None else end, line, col, c.fp if fp is None else fp)


def scan(text: str, settings: Settings | None = None) -> list[Finding]:
    """Report what looks like a secret (or an e-mail address or a home path) in `text`, replacing nothing.

    Placeholders are never findings and allow-listed fingerprints are skipped; each finding has its
    1-based line and column and the rule that matched. Team patterns that could not run are reported as
    `scan-error` findings, so a caller that refuses on any finding fails closed.
    """
    settings = settings or _DEFAULT
    cands, errors, _ = _detect(text, settings)
    chosen, _ = _select(text, cands, settings.allow)
    lines = _Lines(text)
    return [_finding(c, lines) for c in chosen] + errors


def redact(text: str, settings: Settings | None = None, *, enabled: bool = True) -> Redacted:
    """Replace every secret, e-mail address and home path in `text`; see the module docstring.

    `Redacted.residual` is empty unless something could not be redacted or checked: callers that write
    shared files must refuse when it is not (`Redacted.problems` says why). `enabled=False` switches this
    detector off (the text comes back as it is): how tests and the benchmark show that the independent
    gate (smriti.team.gate) refuses on its own.
    """
    if not enabled:
        return Redacted(text)
    settings = settings or _DEFAULT
    lines = _Lines(text)
    # Edits in original coordinates: (orig_start, orig_end, replacement, finding)
    edits: list[tuple[int, int, str, Finding]] = []
    allowed: dict[tuple[int, int, str], Finding] = {}
    current = text
    errors: list[Finding] = []
    only: frozenset[str] | None = None
    changed_lines: list[tuple[int, int]] | None = None
    team_errors: list[Finding] = []
    for pass_no in range(MAX_PASSES + 1):
        # Once a team pattern could not run, later passes do not try again (one time budget per text).
        # Decoded views are looked at in the first pass only: what they find is replaced there, and the
        # gate (smriti.team.gate) looks at the decoded views of the result again.
        cands, errors, present = _detect(
            current,
            settings,
            only,
            team=not team_errors,
            depth=MAX_VIEW_DEPTH if pass_no == 0 else 0,
            assignment_lines=changed_lines,
        )
        team_errors = team_errors or errors
        errors = team_errors
        chosen, allow_hits = _select(current, cands, settings.allow)
        cur_lines = lines if pass_no == 0 else _Lines(current)
        for c in allow_hits:
            if pass_no == 0:
                allowed.setdefault((c.start, c.end, c.kind), _finding(c, lines))
        if not chosen or pass_no == MAX_PASSES:
            residual = tuple(_finding(c, cur_lines) for c in chosen) + tuple(errors)
            break
        if pass_no == 0:
            edits = [(c.start, c.end, c.replacement, _finding(c, lines)) for c in chosen]
        else:
            edits = _merge_edits(text, current, edits, chosen, lines)
        current, spans = _apply(text, edits)
        # The assignment detector is line-local: on a line that no replacement touched it finds what it
        # found in the first pass, all of which was replaced, overlapped by a replacement, or allowed
        # (a replacement over several lines leaves one line, which holds it). So later passes look
        # again only at the lines that hold a replacement.
        changed_lines = _lines_around(current, spans)
        # The next pass re-scans the whole text, but a rule whose needle was not in this text can only
        # match now if a replacement made one: look for needles around the replacements only.
        around = "\x00".join(current[max(0, s - _MAX_NEEDLE) : e + _MAX_NEEDLE] for s, e in spans)
        only = present | _rules_of_needles(*_needles_in(around, around.lower()))
    return Redacted(current, tuple(e[3] for e in edits), tuple(allowed.values()), residual)


_DEFAULT = Settings()


_MAX_NEEDLE = max(len(n) for r in RULES for n in r.needles + r.ci_needles)


def _lines_around(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, merged spans of the whole lines holding `spans` (sorted), without their line breaks."""
    out: list[tuple[int, int]] = []
    for s, e in spans:
        a = text.rfind("\n", 0, s) + 1
        b = text.find("\n", e)
        b = len(text) if b < 0 else b
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _apply(original: str, edits: list[tuple[int, int, str, Finding]]) -> tuple[str, list[tuple[int, int]]]:
    """The original with the edits applied, and where each replacement now sits."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = size = 0
    for s, e, rep, _ in edits:
        out.append(original[pos:s])
        size += s - pos
        spans.append((size, size + len(rep)))
        out.append(rep)
        size += len(rep)
        pos = e
    out.append(original[pos:])
    return "".join(out), spans


def _merge_edits(
    original: str, current: str, edits: list[tuple[int, int, str, Finding]], chosen: list[_Cand], lines: _Lines
) -> list[tuple[int, int, str, Finding]]:
    """Map candidates found in `current` (the original with `edits` applied) back to the original."""
    cur_starts: list[int] = []
    cur_ends: list[int] = []
    shift = 0
    for s, e, rep, _ in edits:
        cur_starts.append(s + shift)
        cur_ends.append(s + shift + len(rep))
        shift += len(rep) - (e - s)

    def to_orig(p: int, is_end: bool) -> int:
        i = bisect_right(cur_starts, p - 1 if is_end else p) - 1
        if i < 0:
            return p
        s, e, _, _ = edits[i]
        if (p < cur_ends[i]) or (is_end and p <= cur_ends[i] and p > cur_starts[i]):
            return e if is_end else s
        return p - cur_ends[i] + e

    new = list(edits)
    for c in chosen:
        os_, oe = to_orig(c.start, False), to_orig(c.end, True)
        new = [ed for ed in new if not (os_ <= ed[0] and ed[1] <= oe)]
        fp = fingerprint(c.kind, original[os_:oe])
        new.append((os_, oe, c.replacement, _finding(c, lines, os_, oe, fp)))
    new.sort(key=lambda ed: ed[0])
    return new
