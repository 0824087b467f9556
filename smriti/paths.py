"""Where smriti keeps its data. Every path has an env override (tests set SMRITI_HOME).

pathlib is imported where a Path is made, not at module top: it imports `re` and `urllib.parse`
(~7 ms), and `smriti search`'s lean path works with the string forms (`data_home`)."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms
if TYPE_CHECKING:
    from pathlib import Path


def home() -> Path:
    """The user's home as the environment says (agents' log dirs are resolved from HOME)."""
    from pathlib import Path

    return Path(os.environ.get("HOME") or Path.home())


def data_home() -> str:
    """The data directory as a string: SMRITI_HOME (with `~` expanded) or the platform's default."""
    explicit = os.environ.get("SMRITI_HOME")
    if explicit:
        return os.path.expanduser(explicit)
    from smriti.datadir import user_data_dir  # platformdirs' answer, mostly without importing it

    return user_data_dir()


def data_dir() -> Path:
    from pathlib import Path

    return Path(data_home())


DB_FILE = "smriti.db"  # the store, in the data dir
INDEX_DIR = "index"  # the search index's folder, in the data dir


def db_path(base: Path | None = None) -> Path:
    return (base or data_dir()) / DB_FILE


def index_dir(base: Path | None = None) -> Path:
    return (base or data_dir()) / INDEX_DIR


def config_path(base: Path | None = None) -> Path:
    return (base or data_dir()) / "config.toml"


def disabled() -> bool:
    """SMRITI_DISABLE=1 turns recording and recall off everywhere."""
    return os.environ.get("SMRITI_DISABLE", "").strip().lower() in {"1", "true", "yes", "on"}
