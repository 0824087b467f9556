"""A team's settings: the `.smriti/config.toml` committed in its repository.

    [share]
    categories = ["bug", "architecture", "decision"]   # what `smriti share` shares; [] = all but uncategorized
    transcript = "condensed"                           # condensed | full | none

    [categorize]        # categories and rules: see smriti.digest.taxonomy
    [redact]            # extra patterns, allow-listed findings (of the redactor and of the gate, see
                        # smriti.team.gate), path rules: see smriti.team.redact

Validated on load, with errors that name the file and the setting. Synced files are data: nothing
here is ever executed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smriti.errors import ConfigError
from smriti.team.redact import Settings as RedactSettings
from smriti.team.redact import default_settings as default_redact_settings

TRANSCRIPTS = ("condensed", "full", "none")
MAX_CONFIG_BYTES = 256 * 1024

TEMPLATE = """\
# smriti team settings: reviewed in pull requests like code. See `smriti --help`.

[share]
# Categories `smriti share` shares by default (a parent includes its children); [] = every
# category except "uncategorized".
categories = []
# How much of the conversation a knowledge file carries: condensed | full | none
transcript = "condensed"

[categorize]
# Team categories and rules, for example:
# [[categorize.categories]]
# id = "ops/incident"
# keywords = ["outage", "postmortem"]
# [[categorize.rules]]
# category = "bug/fix"
# pattern = '(?i)\\bhotfix\\b'
# weight = 2.0

[redact]
# Fingerprints of findings that are not secrets (`smriti check` and `smriti share` print them, for the
# redactor and for the secret gate alike); exact findings only.
allow = []
# Extra secret patterns, for example:
# [[redact.patterns]]
# name = "acme-token"
# kind = "acme-token"
# pattern = "acme_[A-Za-z0-9]{32}"
# Path scrubbing, for example:
# [[redact.paths]]
# match = "/srv/checkouts/*/"
# replace = "<repo>/"
"""


@dataclass(frozen=True)
class TeamConfig:
    path: Path | None
    share_categories: tuple[str, ...] = ()
    transcript: str = "condensed"
    redact: RedactSettings | None = None
    raw: dict[str, Any] | None = None

    @property
    def redact_settings(self) -> RedactSettings:
        return self.redact or default_redact_settings()


def read_toml(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path} is larger than {MAX_CONFIG_BYTES // 1024} KB")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None


def load_team_config(repo_root: Path | None) -> TeamConfig:
    path = repo_root / ".smriti" / "config.toml" if repo_root else None
    if path is not None and path.is_symlink():
        # a committed file is data: a symlink could make smriti read any file of this machine
        raise ConfigError(f"{path} is a symlink; the team config must be a regular file in the repo")
    if path is None or not path.is_file():
        return TeamConfig(path=None)
    raw = read_toml(path)
    unknown = set(raw) - {"share", "categorize", "redact"}
    if unknown:
        raise ConfigError(f"{path}: unknown section(s) {', '.join(sorted(unknown))}; known: share, categorize, redact")
    share = raw.get("share", {})
    if not isinstance(share, dict):
        raise ConfigError(f"{path}: [share] must be a table")
    extra = set(share) - {"categories", "transcript"}
    if extra:
        raise ConfigError(f"{path}: [share] has unknown setting(s) {', '.join(sorted(extra))}")
    cats = share.get("categories", [])
    if not isinstance(cats, list) or not all(isinstance(c, str) for c in cats):
        raise ConfigError(f"{path}: [share] categories must be a list of category ids")
    transcript = share.get("transcript", "condensed")
    if transcript not in TRANSCRIPTS:
        raise ConfigError(f"{path}: [share] transcript must be one of {', '.join(TRANSCRIPTS)}")
    red = raw.get("redact", {})
    if not isinstance(red, dict):
        raise ConfigError(f"{path}: [redact] must be a table")
    from smriti.paths import home

    settings = RedactSettings.from_mapping(red, source=f"{path} [redact]", home_dirs=(str(home()),)) if red else None
    return TeamConfig(path=path, share_categories=tuple(cats), transcript=transcript, redact=settings, raw=raw)
