"""The recall behind the prompt and session-start hooks: one request in, the context out.

Used in two places: the warm recall server (smriti.hooks.server), which keeps one `Recaller` open
across prompts, and the hook process itself when no server is running (the first prompt, or
SMRITI_HOOK_SERVER=0). Heavy imports (store, index, recall) happen here, never in smriti.hooks.run.

Request: {"op": "recall" | "start", "query", "cwd", "session", "agent"}.
Answer:  {"ok": true, "context": str, "items": [ids in the context], "excluded": pattern | None}.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from smriti import paths
from smriti.index import Index
from smriti.recall import DEFAULT_BUDGET, SESSION_START_BUDGET, recall, session_start
from smriti.store import Store

_SHOWN = re.compile(r"smriti show ([0-9a-f]+)\]")


class _NoConfig:
    """The user config when there is no config.toml: nothing excluded. (smriti.config imports
    tomllib, ~8 ms, which a hook without a config file never needs.)"""

    def excludes(self, *candidates: str | None) -> str | None:
        return None


def _load_config(path: Path) -> Any:
    if not path.exists():
        return _NoConfig()
    from smriti.config import load_user_config

    return load_user_config(path)


class NoStore(Exception):
    """No store yet (nothing ingested): not a failure, nothing to recall."""


class IndexNotReady(Exception):
    """The index needs a rebuild (new schema); the server does it, a hook never waits for it."""


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns)


class Recaller:
    """A store, index and user config opened once, reopened when they change on disk."""

    def __init__(self, data_dir: Path, *, rebuild_index: bool = False):
        self.data_dir = Path(data_dir)
        self.rebuild_index = rebuild_index
        self.store: Store | None = None
        self.index: Index | None = None
        self._config: Any = None
        self._stamps: dict[str, Any] = {}
        self._open()

    def _paths(self) -> dict[str, Path]:
        return {
            "db": paths.db_path(self.data_dir),
            "index": paths.index_dir(self.data_dir) / "meta.json",
            "version": paths.index_dir(self.data_dir) / "smriti-index.json",
            "config": paths.config_path(self.data_dir),
        }

    def _open(self) -> None:
        p = self._paths()
        if not p["db"].is_file():
            raise NoStore(str(p["db"]))
        self.close()
        self.store = Store(p["db"])
        index = Index(paths.index_dir(self.data_dir))
        if index.needs_rebuild:
            if not self.rebuild_index:
                raise IndexNotReady("the search index is being rebuilt")
            index.rebuild(self.store)
        self.index = index
        self._config = _load_config(p["config"])
        self._stamps = {k: _stamp(v) for k, v in p.items()}

    def refresh(self) -> None:
        """Pick up what changed since the last request: a replaced store or index, new index
        segments (another process committed), an edited config."""
        p = self._paths()
        now = {k: _stamp(v) for k, v in p.items()}
        if now["db"] is None:
            self.close()
            raise NoStore(str(p["db"]))
        if now["db"][0] != (self._stamps.get("db") or (None,))[0] or now["version"] != self._stamps.get("version"):
            self._open()
            return
        if now["index"] != self._stamps.get("index"):
            self.index = Index(paths.index_dir(self.data_dir))  # a cheap reopen sees the new commit
            if self.index.needs_rebuild:
                self._open()
                return
        if now["config"] != self._stamps.get("config"):
            self._config = _load_config(p["config"])
        self._stamps = now

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
        self.store = self.index = None

    def answer(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.store is not None and self.index is not None and self._config is not None
        from smriti import project as projects

        cwd = req.get("cwd") or None
        proj = projects.resolve(cwd) if cwd else None
        excluded = self._config.excludes(cwd, proj.key if proj else None, proj.root if proj else None)
        if excluded:
            return {"ok": True, "context": "", "items": [], "excluded": excluded}
        keys = (proj.key,) if proj else ()
        if req.get("op") == "start":
            context = session_start(self.store, keys, budget=int(req.get("budget") or SESSION_START_BUDGET))
        else:
            query = str(req.get("query") or "")  # recall cuts a long one at a word boundary
            session = req.get("session")
            result = recall(
                self.store,
                self.index,
                query,
                project=keys,
                limit=int(req.get("limit") or 5),
                budget=int(req.get("budget") or DEFAULT_BUDGET),
                exclude_native_ids=(session,) if session else (),
            )
            context = result.context
        return {"ok": True, "context": context, "items": _SHOWN.findall(context), "excluded": None}


def answer_once(data_dir: str, req: dict[str, Any]) -> dict[str, Any]:
    """One request without a server: open, answer, close."""
    recaller = Recaller(Path(data_dir))
    try:
        return recaller.answer(req)
    finally:
        recaller.close()


def warm(recaller: Recaller) -> None:
    """Load what the first real prompt would (the category matcher, the index's pages)."""
    try:
        recaller.answer({"op": "recall", "query": "warm up the connection pool migration test", "cwd": os.sep})
    except Exception:
        pass
