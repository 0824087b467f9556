"""Agent adapters, shipped as `smriti.adapters`.

An adapter is a pure module: agent log files in, `Session`/`Message` models out. It never
touches the store, the index or the CLI. Built-in and third-party adapters register the same
way, through the `smriti.adapters` entry-point group:

    [project.entry-points."smriti.adapters"]
    my-agent = "my_package.adapter:MyAgentAdapter"

The entry point names a class (instantiated with no arguments) or an instance that satisfies
`Adapter`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from smriti.adapternames import BUILTIN_NAMES  # noqa: F401 (re-exported: `from smriti.adapters import BUILTIN_NAMES`)
from smriti.models import ParseResult

ENTRY_POINT_GROUP = "smriti.adapters"


@runtime_checkable
class Adapter(Protocol):
    name: str  # the agent id: `--agent` value, `agent` field everywhere

    def default_roots(self) -> list[Path]:
        """Where this agent keeps its logs on this machine (resolved from HOME and env vars)."""
        ...

    def discover(self, root: Path) -> Iterable[Path]:
        """Every source under `root` (a file, or a database) that `parse` can read."""
        ...

    def parse(self, path: Path, resume: Any = None) -> ParseResult:
        """Read one source, from `resume` on when given. Pure: no store, no index."""
        ...

    # Optional: `project_files: tuple[str, ...]`, file names the agent writes at a project's
    # root (Aider's `.aider.chat.history.md`); ingest checks the root of every known project.
    # Optional: `candidate_roots() -> list[Path]`, every place `default_roots` looks, whether it
    # exists or not (`smriti adapters` shows where an agent's logs would be read from).
    # Optional: `sqlite_sources = False`, for an adapter whose sources are never SQLite databases
    # (text transcripts): ingest then skips looking for a `-wal` file beside each one when it
    # fingerprints it (a stat that fails, for every unchanged transcript of every no-op ingest).
    # Optional: `discover_stats(root) -> Iterable[tuple[Path, os.stat_result | None]]`, what
    # `discover(root)` yields, in its order, each with the stat (links followed) the adapter took
    # to find or sort it, None where it took none. Ingest vets and fingerprints each source with
    # that stat instead of taking its own (Claude Code sorts by mtime: one stat per transcript
    # and no-op ingest, not two). Without it, ingest stats each source itself.
    # Optional: `detect(path) -> bool`, a cheap sniff (file name, first bytes) that says "this
    # file or folder is mine". `smriti ingest --path P` without `--agent` asks every adapter that
    # has one. It must never raise.


@dataclass(frozen=True)
class Registered:
    adapter: Adapter
    origin: str  # "builtin" or the distribution that provides it


@dataclass(frozen=True)
class Registry:
    adapters: dict[str, Registered]
    warnings: list[str]

    def get(self, name: str) -> Adapter:
        try:
            return self.adapters[name].adapter
        except KeyError:
            raise KeyError(name) from None

    @property
    def names(self) -> list[str]:
        return sorted(self.adapters)


def load_registry() -> Registry:
    """Load every adapter registered in the entry-point group.

    A broken third-party adapter (import error, bad object, duplicate name) becomes a warning
    that names it; the others still load.
    """
    from importlib.metadata import entry_points

    found: dict[str, Registered] = {}
    warnings: list[str] = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        # A distribution's name is read from its METADATA file (an email-format parse each time,
        # ~6 ms for the built-ins together): only a third-party origin and a warning need it.
        origin = "builtin" if ep.value.startswith("smriti.adapters") else _dist_name(ep)
        try:
            obj = ep.load()
            adapter = obj() if isinstance(obj, type) else obj
        except Exception as exc:  # a plugin's bug must not take smriti down
            warnings.append(f"adapter {ep.name!r} from {_dist_name(ep)} failed to load: {type(exc).__name__}: {exc}")
            continue
        problem = _conformance_problem(adapter, ep.name)
        if problem:
            warnings.append(f"adapter {ep.name!r} from {_dist_name(ep)} ignored: {problem}")
            continue
        if adapter.name in found:
            if found[adapter.name].origin != origin:
                taken_by = found[adapter.name].origin
                warnings.append(
                    f"adapter {adapter.name!r} from {_dist_name(ep)} ignored: the name is taken by {taken_by}"
                )
            continue
        found[adapter.name] = Registered(adapter, origin)
    return Registry(found, warnings)


def _dist_name(ep: object) -> str:
    dist = getattr(ep, "dist", None)
    return getattr(dist, "name", None) or "unknown distribution"


def _conformance_problem(adapter: object, ep_name: str) -> str | None:
    for attr in ("name", "default_roots", "discover", "parse"):
        if not hasattr(adapter, attr):
            return f"it has no {attr!r}"
    name = getattr(adapter, "name", None)
    if not isinstance(name, str) or not name:
        return "its name is not a non-empty string"
    if name != ep_name:
        return f"its name {name!r} differs from the entry-point name {ep_name!r}"
    return None
