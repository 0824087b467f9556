"""The objects a command works with, opened lazily and once per process."""

from __future__ import annotations

import os
from functools import cached_property

from smriti import paths
from smriti.index import Index
from smriti.store import Store

TYPE_CHECKING = False  # not typing's: importing typing costs every search process a few ms

if TYPE_CHECKING:
    from pathlib import Path

    from smriti.adapters import Registry
    from smriti.config import UserConfig


class App:
    def __init__(self, data_dir: Path | str | None = None):
        # A string until a command asks for the Path: pathlib imports `re` and `urllib.parse`
        # (~7 ms), which `smriti search` does not need (the store and index take strings).
        self.home = os.fspath(data_dir) if data_dir else paths.data_home()

    @cached_property
    def data_dir(self) -> Path:
        from pathlib import Path

        return Path(self.home)

    @cached_property
    def store(self) -> Store:
        return Store(os.path.join(self.home, paths.DB_FILE))

    @cached_property
    def index(self) -> Index:
        index = Index(os.path.join(self.home, paths.INDEX_DIR))
        if index.needs_rebuild:
            # New or outdated schema: derived state, so rebuild it from the store right away
            # (unless a process that started together with this one has just done it).
            if index.rebuild(self.store, if_needed=True) is None:
                index.sync(self.store)
        return index

    @cached_property
    def registry(self) -> Registry:
        # Imported when a command needs it: the adapters and the config parser (tomllib) are
        # a few ms of every `smriti search` process that reads neither.
        from smriti.adapters import load_registry

        return load_registry()

    @cached_property
    def config(self) -> UserConfig:
        from smriti.config import load_user_config

        return load_user_config(paths.config_path(self.data_dir))

    def close(self) -> None:
        if "store" in self.__dict__:
            self.store.close()
