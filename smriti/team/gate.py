"""The gate: an independent second detector that decides whether a redacted item may be written.

Redaction (smriti.team.redact) knows secrets by their rules: prefixes, provider names, the keys they
are assigned to. Whatever its rules miss, it cannot find again when it re-scans its own output. The
gate shares none of those rules. It looks at the shape of what is left:

- `random-token`: a long token (20+ characters of a base64 or url-safe alphabet) with the entropy and
  the mix of character classes of random bytes, that is not one of the random-looking things that are
  not secrets (hex: git SHAs, UUIDs, digests; ULIDs; prefixed hashes `sha256:`, `h1:`, `sha512-`; SSH
  public keys; data URIs; base64 of text; identifiers made of words; paths; publishable keys);
- `checksummed-token`: `<prefix>_<30 characters><6-character base62 CRC32>`, the checksum GitHub and
  npm put in their tokens: true by arithmetic, whatever the prefix;
- `private-key-armour`: a PEM `PRIVATE KEY-----` header with key material after it, or a PuTTY key file;
- the same checks in the decoded views of the text (smriti.team.secret_views: unescaped, percent-decoded,
  base64, wrapped lines joined), so an encoded secret is refused as well.

    >>> findings = inspect(redacted_text, allow=settings.allow)
    >>> [f.describe() for f in findings]   # reason, line, fingerprint to allow-list

A finding refuses the item: `smriti share` skips it and says why, `smriti check` fails. A finding's
`fingerprint` is `sha256("gate:<value>")`; listing it in `[redact] allow` of `.smriti/config.toml`
lets that exact value through (nothing else).

The gate fails closed on purpose, so it refuses some values that are random but harmless (a random
request id in base64, a nonce); the benchmark (benchmarks/redact) counts how many.
"""

from __future__ import annotations

import hashlib
import math
import re
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from smriti.team import secret_views

__all__ = ["GateFinding", "base62_crc32", "inspect"]

MAX_DEPTH = 2
MIN_TOKEN = 20
MAX_TOKEN = 1024  # longer runs are blobs (images, bundles); their decodings are still checked

_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def base62_crc32(body: str) -> str:
    """The 6-character base62 CRC32 of `body`, as GitHub (and npm) append to their tokens."""
    n = zlib.crc32(body.encode())
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = _B62[r] + out
    return out.rjust(6, "0")


@dataclass(frozen=True, slots=True)
class GateFinding:
    """Why the gate refuses: `reason`, where (`start`, `end`, 1-based `line`), and the `fingerprint`."""

    reason: str
    start: int
    end: int
    line: int
    fingerprint: str
    view: str = ""

    def describe(self) -> str:
        where = f" (in its {self.view} form)" if self.view else ""
        return (
            f"{self.reason} at line {self.line}{where}; if it is not a secret, allow it with its "
            f"fingerprint {self.fingerprint} in [redact] allow"
        )


def _fingerprint(value: str) -> str:
    return hashlib.sha256(f"gate:{value}".encode("utf-8", "surrogatepass")).hexdigest()


# Long tokens: maximal runs of 20+ base64/url-safe characters and up to 3 `=` (secret_views.token_runs)
_CHECKSUM_RE = re.compile(r"(?<![A-Za-z0-9])[a-z]{2,8}_([A-Za-z0-9]{36})(?![A-Za-z0-9])")
_CHECKSUM_MIN = 2 + 1 + 36  # the shortest checksummed token
_ARMOUR_RE = re.compile(r"PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d")
_KEY_MATERIAL_RE = re.compile(r"[A-Za-z0-9+/]{40}")
_PLACEHOLDER_RE = re.compile(r"\[REDACTED:[a-z0-9-]{1,40}\]")
_HEX_ONLY_RE = re.compile(r"[0-9a-fA-F]+(?:[-_][0-9a-fA-F]+)*")
_ULID_RE = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
_DIGEST_PREFIX_RE = re.compile(r"(?i)(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?|h1)[-:_=~]")
# Right before a token: digests, SSH public keys, data URIs. Not secrets, however random.
_BEFORE_RE = re.compile(
    r"(?i)(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?|h1|integrity)[-:=~][ \t\"']*$"
    r"|(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)[ \t]+$|;base64,$"
    r"|(?<![A-Za-z0-9])pk\.(?:eyJ[A-Za-z0-9_-]*\.)?$"  # a Mapbox public token: pk.eyJ….…
)
# Public by design: publishable keys, client-side project keys.
_PUBLIC_PREFIXES = (
    *("pk_live_", "pk_test_", "pk.eyJ", "phc_", "FLWPUBK", "npm_package_", "AAAAB3NzaC1", "AAAAC3NzaC1"),
    "/nix/store/",  # a store path's hash names a build, it grants nothing
)
_VOWELS = frozenset("aeiouAEIOU")
_UPPER_RE = re.compile(r"[A-Z]")
_LOWER_RE = re.compile(r"[a-z]")
_DIGIT_RE = re.compile(r"[0-9]")
_LETTER_RUN_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _entropy(value: str) -> float:
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _reads_like_words(token: str) -> bool:
    """An identifier, a slug, a path: most of its letters sit in pronounceable runs of 4+ letters."""
    runs = _LETTER_RUN_RE.findall(token)
    letters = sum(len(r) for r in runs)
    if not letters:
        return False
    worded = sum(
        len(r) for r in runs if len(r) >= 4 and 0.2 <= sum(c in _VOWELS for c in r) / len(r) <= 0.7 and not r.isupper()
    )
    return worded >= 0.6 * letters and sum(c.isdigit() for c in token) <= 0.25 * len(token)


def _random_token(token: str) -> bool:
    """Random bytes in a base64 or url-safe alphabet, and not something random that is public."""
    core = token.rstrip("=")
    n = len(core)
    if n < MIN_TOKEN or n > MAX_TOKEN:
        return False
    if _HEX_ONLY_RE.fullmatch(core) or _ULID_RE.fullmatch(core) or _DIGEST_PREFIX_RE.match(core):
        return False
    if core.startswith(_PUBLIC_PREFIXES):
        return False
    upper = _UPPER_RE.search(core) is not None
    lower = _LOWER_RE.search(core) is not None
    digits = _DIGIT_RE.search(core) is not None
    classes = upper + lower + digits
    if classes < 2 or (classes == 2 and (n < 32 or not digits)):
        return False  # words, CONSTANT_NAMES; two classes only when long (lower case and digits)
    if _entropy(core) < 0.8 * math.log2(min(n, 64)):
        return False
    if "/" in core and all(_reads_like_words(seg) or len(seg) < 8 for seg in core.split("/") if seg):
        return False  # a path
    if any(_reads_like_words(part) for part in re.split(r"[-_.]", core) if len(part) >= MIN_TOKEN) or (
        _reads_like_words(core)
    ):
        return False
    return secret_views._b64_text(core) is None or len(core) < 32  # base64 of text is decoded, not judged


def inspect(
    text: str,
    allow: frozenset[str] = frozenset(),
    *,
    exempt: Iterable[str] = (),
    depth: int = MAX_DEPTH,
) -> list[GateFinding]:
    """Every reason the gate has to refuse `text` (empty: it may be written).

    Allow-listed fingerprints pass, and so do values that overlap an `exempt` value: what a person
    allow-listed under the redactor's fingerprint (`Redacted.allowed`) is not refused here again."""
    found: list[GateFinding] = []
    _inspect(text, _identity, _always, "", depth, text, found)
    exempt = [v for v in exempt if v]
    out: list[GateFinding] = []
    seen: set[tuple[int, int]] = set()
    for f in sorted(found, key=lambda f: (f.start, f.view != "")):
        if f.fingerprint in allow or any(s <= f.start < e for s, e in seen):
            continue  # allowed, or inside a span already reported (a view repeating the plain finding)
        value = text[f.start : f.end]
        if any(v in value or value in v for v in exempt):
            continue
        seen.add((f.start, f.end))
        out.append(f)
    return out


def _identity(s: int, e: int) -> tuple[int, int]:
    return s, e


def _always(s: int, e: int) -> bool:
    return True


def _inspect(
    text: str,
    to_source: Callable[[int, int], tuple[int, int]],
    is_news: Callable[[int, int], bool],
    view_name: str,
    depth: int,
    source: str,
    found: list[GateFinding],
) -> None:
    def report(reason: str, s: int, e: int) -> None:
        if not is_news(s, e):
            return  # the text around the view has it too: reported there
        s, e = to_source(s, e)
        line = source.count("\n", 0, s) + 1
        found.append(GateFinding(reason, s, e, line, _fingerprint(source[s:e]), view_name))

    if "-----" in text or "PuTTY" in text:
        for m in _ARMOUR_RE.finditer(text):
            if _KEY_MATERIAL_RE.search(text, m.end(), m.end() + 400):
                report("private-key-armour", m.start(), m.end())
    runs = list(secret_views.token_runs(text, MIN_TOKEN, 3))
    if "_" in text:
        # A checksummed token is made of run characters and is bordered by none of its own: it lies in
        # one run of 39+ (searching each such run finds what a search of the whole text would, and
        # sre does not step through the text between them).
        for start, end in runs:
            if end - start < _CHECKSUM_MIN:
                continue
            for m in _CHECKSUM_RE.finditer(text, start, end):
                body = m.group(1)
                if base62_crc32(body[:30]) == body[30:]:
                    report("checksummed-token", m.start(), m.end())
    for start, end in runs:
        if _random_token(text[start:end]) and not _BEFORE_RE.search(text[max(0, start - 120) : start]):
            report("random-token", start, end)
    if depth <= 0:
        return
    for v in secret_views.views(text, runs):

        def inner_to_source(s: int, e: int, v: secret_views.View = v) -> tuple[int, int]:
            return to_source(*v.to_source(s, e))

        inner = depth - 1 if v.name == "base64" else 0  # only a base64 decoding is a new text to decode
        _inspect(v.text, inner_to_source, v.changed, v.name, inner, source, found)
