"""Real-looking secrets built from parts at run time, so the repository never holds one.

`expand(template, rng)` fills a template of `smriti/team/data/secret_rules.toml` (`example`, `negative`):
`{b62:N}` `{hex:N}` `{HEX:N}` `{lower:N}` `{upper:N}` `{digits:N}` `{url:N}` `{b64:N}` `{lnum:N}` `{unum:N}`
are N random characters of that alphabet (with every character class of the alphabet present, as real
keys have); `{crc:N}` is N base62 characters and their 6-character CRC32 checksum (GitHub, npm).
Imported by the tests (`from secret_vectors import …`) and by benchmarks/redact.
"""

from __future__ import annotations

import random
import re
import string
import tomllib
from pathlib import Path

from smriti.team.gate import base62_crc32

RULES_FILE = Path(__file__).resolve().parents[1] / "smriti" / "team" / "data" / "secret_rules.toml"

ALPHABETS = {
    "b62": string.ascii_letters + string.digits,
    "hex": "0123456789abcdef",
    "HEX": "0123456789ABCDEF",
    "lower": string.ascii_lowercase,
    "upper": string.ascii_uppercase,
    "digits": string.digits,
    "url": string.ascii_letters + string.digits + "-_",
    "b64": string.ascii_letters + string.digits + "+/",
    "lnum": string.ascii_lowercase + string.digits,
    "unum": string.ascii_uppercase + string.digits,
}
_CLASSES = (string.ascii_uppercase, string.ascii_lowercase, string.digits)
_FIELD_RE = re.compile(r"\{(\w+):(\d+)\}")


def random_chars(rng: random.Random, alphabet: str, n: int) -> str:
    """n characters of `alphabet`, with one of each of its character classes when n allows."""
    chars = [rng.choice(alphabet) for _ in range(n)]
    present = [c for c in _CLASSES if any(ch in c for ch in alphabet)]
    if n >= 2 * len(present):
        slots = rng.sample(range(n), len(present))
        for slot, cls in zip(slots, present, strict=True):
            chars[slot] = rng.choice([ch for ch in cls if ch in alphabet])
    return "".join(chars)


def expand(template: str, rng: random.Random) -> str:
    def field(m: re.Match[str]) -> str:
        name, n = m.group(1), int(m.group(2))
        if name == "crc":
            body = random_chars(rng, ALPHABETS["b62"], n)
            return body + base62_crc32(body)
        return random_chars(rng, ALPHABETS[name], n)

    return _FIELD_RE.sub(field, template)


def rule_table() -> dict[str, list[dict]]:
    return tomllib.loads(RULES_FILE.read_text("utf-8"))


def secret_of(text: str) -> str:
    """The secret in an expanded example: its longest word, without a `NAME=` or `name:` in front."""
    word = max(re.split(r"\s+", text), key=len)
    return re.sub(r"^[A-Za-z_][A-Za-z0-9_]*[=:]", "", word)


def rules() -> list[dict]:
    """Every rule of the table (token and keyword rules) with its section as `section`."""
    table = rule_table()
    return [{**e, "section": "token"} for e in table["token"]] + [{**e, "section": "keyword"} for e in table["keyword"]]
