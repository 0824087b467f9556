"""The user's own settings (`<data dir>/config.toml`), validated with clear errors.

# paths or glob patterns; a session whose cwd, project or source file matches is never read
exclude = ["~/work/secret-client", "*/scratch/*"]

[roots]            # extra places to look, per agent id
claude-code = ["/mnt/backup/.claude/projects"]
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from smriti.errors import ConfigError
from smriti.paths import config_path, home

NO_SAVE_MARKER = "smriti: no-save"


@dataclass(frozen=True)
class UserConfig:
    exclude: tuple[str, ...] = ()
    roots: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def excludes(self, *candidates: str | None) -> str | None:
        """The first exclude pattern that matches any candidate path, or None."""
        for raw in self.exclude:
            pattern = raw.rstrip("/")
            for cand in candidates:
                if not cand:
                    continue
                c = cand.rstrip("/")
                if c == pattern or c.startswith(pattern + "/") or fnmatch.fnmatchcase(c, pattern):
                    return raw
        return None


def load_user_config(path: Path | None = None) -> UserConfig:
    path = path or config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return UserConfig()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    unknown = set(data) - {"exclude", "roots"}
    if unknown:
        raise ConfigError(f"{path}: unknown setting(s) {', '.join(sorted(unknown))}; known: exclude, roots")
    exclude = data.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(x, str) for x in exclude):
        raise ConfigError(f"{path}: 'exclude' must be a list of strings (paths or glob patterns)")
    roots = data.get("roots", {})
    if not isinstance(roots, dict) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in roots.values()
    ):
        raise ConfigError(f"{path}: [roots] must map agent ids to lists of paths")
    home_str = str(home())
    expanded = tuple(x.replace("~", home_str, 1) if x.startswith("~") else x for x in exclude)
    return UserConfig(exclude=expanded, roots={k: tuple(v) for k, v in roots.items()})
