"""Where smriti keeps its data. Every path has an env override (tests set SMRITI_HOME)."""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """The user's home as the environment says (agents' log dirs are resolved from HOME)."""
    return Path(os.environ.get("HOME") or Path.home())


def data_dir() -> Path:
    explicit = os.environ.get("SMRITI_HOME")
    if explicit:
        return Path(explicit).expanduser()
    from smriti.datadir import user_data_dir  # platformdirs' answer, mostly without importing it

    return Path(user_data_dir())


def db_path(base: Path | None = None) -> Path:
    return (base or data_dir()) / "smriti.db"


def index_dir(base: Path | None = None) -> Path:
    return (base or data_dir()) / "index"


def config_path(base: Path | None = None) -> Path:
    return (base or data_dir()) / "config.toml"


def disabled() -> bool:
    """SMRITI_DISABLE=1 turns recording and recall off everywhere."""
    return os.environ.get("SMRITI_DISABLE", "").strip().lower() in {"1", "true", "yes", "on"}
