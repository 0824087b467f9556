"""Ingest: find every agent's session sources, parse what is new, store it, index it.

Incremental and idempotent: a source whose size, mtime and inode are unchanged is not opened;
an appended one is read from the adapter's resume point; the store dedupes by message key, so
re-reading a file (or a resumed session replaying another's lines) adds nothing.

Problems come in two weights, and the exit code of `smriti ingest` follows them:
- a source that could not be read at all (missing, unreadable, no adapter recognises it, the
  adapter failed, or nothing but problems came out of it) is listed in `unreadable` and makes the
  run exit 1. It is not remembered as read, so every run reads and reports it again (the same
  answer for the same files, whatever ran before) until it is fixed, removed or excluded;
- lines or records skipped in a source that was otherwise read are reported (`errors` and
  `warnings`, as the adapter classed them) and the run still exits 0: the rest is stored, and the
  source is remembered as read so an appended transcript is read incrementally; its errors stay
  visible in `smriti status`.
An empty file is not a problem: an agent creates its log before writing to it.
"""

from __future__ import annotations

import gc
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smriti import ingest_worker
from smriti import project as projects
from smriti.adapters import Adapter, Registry
from smriti.adapters._jsonl import MAX_SOURCE_BYTES, MAX_WHOLE_SOURCE_BYTES, describe_mode, read_whole
from smriti.config import NO_SAVE_MARKER, UserConfig
from smriti.digest.apply import Enricher, Precomputed, precompute
from smriti.errors import InvalidInput
from smriti.index import Index
from smriti.models import Problem, Session, storable
from smriti.store import SourceFingerprint, SourceState, Store
from smriti.utf8 import utf8_text

Progress = Callable[[int, int, str], None]

# Sources written per transaction: whole sessions only, so a crash loses at most one batch of
# work (redone by the next run), never half a session. A batch is parsed before it is written, so
# its sources' bytes also bound it: what is held parsed at once stays near BATCH_BYTES of logs.
BATCH_SOURCES = 64
BATCH_BYTES = 64 * 1024 * 1024
# The first batch of a run with a worker is smaller: until its last answer comes the parent has
# nothing to do but wait, so it starts writing (and digesting) sooner.
FIRST_BATCH_SOURCES = 8


@dataclass
class IngestResult:
    sessions_found: int = 0
    sessions_ingested: int = 0
    messages_added: int = 0
    messages_updated: int = 0
    files_seen: int = 0
    files_read: int = 0
    files_unchanged: int = 0
    indexed: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # sources nothing could be read from: exit 1

    def problem_groups(self) -> list[dict[str, Any]]:
        """The errors and warnings with repeats folded: one entry per source and kind of problem
        ("invalid UTF-8 at byte 12" and "... at byte 80" are one kind), with how many and on which
        lines, so 81 junk lines in one file are one line of output, not 81."""
        groups: dict[tuple[str, str, str], dict[str, Any]] = {}
        for severity, problems in (("error", self.errors), ("warning", self.warnings)):
            for p in problems:
                key = (severity, p.path, _DIGITS.sub("N", p.error))
                group = groups.get(key)
                if group is None:
                    group = groups[key] = {"severity": severity, "path": p.path, "error": p.error, "count": 0}
                    group["lines"] = []
                group["count"] += 1
                if p.line is not None:
                    group["lines"].append(p.line)
        return list(groups.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions_found": self.sessions_found,
            "sessions_ingested": self.sessions_ingested,
            "messages_added": self.messages_added,
            "messages_updated": self.messages_updated,
            "files_seen": self.files_seen,
            "files_read": self.files_read,
            "files_unchanged": self.files_unchanged,
            "indexed": self.indexed,
            "skipped": self.skipped,
            "errors": [_problem_json(p) for p in self.errors],
            "warnings": [_problem_json(p) for p in self.warnings],
            "unreadable": self.unreadable,
            "problem_groups": self.problem_groups(),
        }


# Numbers inside a problem (a byte offset, a line, a size) do not make it another kind of problem.
_DIGITS = re.compile(r"\d+")


def describe_group(group: dict[str, Any]) -> str:
    """One line for a person: `x.jsonl: line 3: invalid UTF-8 ...; and 80 more lines like it`."""
    lines = group["lines"]
    where = f"line {lines[0]}: " if lines else ""
    more = group["count"] - 1
    tail = f" (and {more} more {'line' if lines else 'time'}{'' if more == 1 else 's'} like it)" if more else ""
    return f"{group['path']}: {where}{group['error']}{tail}"


def _problem_json(p: Problem) -> dict[str, Any]:
    out: dict[str, Any] = {"path": p.path, "error": p.error}
    if p.line is not None:
        out["line"] = p.line
    return out


def check_agents(registry: Registry, agents: Iterable[str]) -> list[Adapter]:
    chosen = []
    for name in agents:
        if name not in registry.adapters:
            raise InvalidInput(f"Unknown agent {name!r}; supported: {', '.join(registry.names)}")
        chosen.append(registry.get(name))
    return chosen


def _detect(registry: Registry, path: Path) -> Adapter | None:
    for name in registry.names:
        adapter = registry.get(name)
        detect = getattr(adapter, "detect", None)
        try:
            if detect is not None and detect(path):
                return adapter
        except Exception:  # a plugin's detector must not stop ingest
            continue
    return None


def known_project_roots(store: Store) -> list[Path]:
    """The git roots (on this machine) of every project a stored session ran in."""
    roots = {p.root for cwd in store.known_cwds() if (p := projects.resolve(cwd)) and p.root}
    return sorted(Path(r) for r in roots)


def plan_sources(
    registry: Registry,
    config: UserConfig,
    agents: list[str],
    paths: list[Path],
    result: IngestResult,
    project_roots: Sequence[Path] = (),
    stats: dict[str, os.stat_result] | None = None,
) -> list[tuple[Adapter, Path]]:
    """Every (adapter, source) pair this run should look at; `stats` gets the stat of each one
    looked at (ingest fingerprints a source with it: one stat per unchanged file, not two, or
    none of its own when the adapter hands over the stat it took to find it: `_found`)."""
    chosen = check_agents(registry, agents) if agents else None
    tasks: list[tuple[Adapter, Path]] = []
    if paths:
        for path in paths:
            if not path.exists():
                result.errors.append(Problem(str(path), "no such file or directory"))
                result.unreadable.append(str(path))
                continue
            if not _readable_kind(path, result, stats):  # before a detector sniffs it: a FIFO blocks an open
                continue
            candidates = chosen or ([a] if (a := _detect(registry, path)) else [])
            if not candidates:
                result.errors.append(
                    Problem(str(path), f"no adapter recognises this; pass --agent (one of {', '.join(registry.names)})")
                )
                result.unreadable.append(str(path))
                continue
            for adapter in candidates:
                tasks.extend((adapter, p) for p, st in _found(adapter, path) if _readable_kind(p, result, stats, st))
        return tasks
    for adapter in chosen or [registry.get(n) for n in registry.names]:
        roots = list(adapter.default_roots()) + [Path(r).expanduser() for r in config.roots.get(adapter.name, ())]
        for root in roots:
            if root.exists():
                tasks.extend((adapter, p) for p, st in _found(adapter, root) if _readable_kind(p, result, stats, st))
        for name in getattr(adapter, "project_files", ()):
            tasks.extend(
                (adapter, f) for root in project_roots if (f := root / name).is_file() and _readable_kind(f, result)
            )
    # Keyed by the path's text (as the store keys sources), which its equality follows (normcase:
    # Windows' paths compare without case): hashing a Path costs more than making its text, which
    # the run needs anyway and then has cached.
    unique: dict[tuple[str, str], tuple[Adapter, Path]] = {}
    for adapter, found in tasks:
        unique.setdefault((adapter.name, os.path.normcase(str(found))), (adapter, found))
    return list(unique.values())


def _found(adapter: Adapter, root: Path) -> Iterable[tuple[Path, os.stat_result | None]]:
    """What `adapter.discover(root)` finds, each with the stat the adapter took to find it when
    it has the optional `discover_stats` (see smriti.adapters.Adapter), else None."""
    discover_stats = getattr(adapter, "discover_stats", None)
    if discover_stats is not None:
        found: Iterable[tuple[Path, os.stat_result | None]] = discover_stats(root)
        return found
    return ((p, None) for p in adapter.discover(root))


def _readable_kind(
    path: Path,
    result: IngestResult,
    stats: dict[str, os.stat_result] | None = None,
    found: os.stat_result | None = None,
) -> bool:
    """Whether a found source is a file (or folder) ingest may open; a warning for one it may not.

    Anyone who can write under an agent's log folder can leave a link to /dev/zero or a FIFO
    there: reading the first never ends (and fills memory), opening the second waits for ever.
    Links are followed; what they point at decides. A file over its size cap is not read either:
    MAX_WHOLE_SOURCE_BYTES for one an adapter reads whole (`read_whole`), else MAX_SOURCE_BYTES.
    `found`: the stat the adapter took when it found the source (links followed, as here), if any.
    """
    try:
        st = found or os.stat(path)
    except OSError:
        return True  # gone or unreadable: reading it reports that, as before
    if stats is not None:
        stats[str(path)] = st
    if stat.S_ISDIR(st.st_mode):
        return True
    if stat.S_ISREG(st.st_mode):
        # Never opened by reading it: `read_whole` looks at the name, else at 16 bytes.
        if st.st_size > MAX_WHOLE_SOURCE_BYTES and read_whole(path):
            cap, what = MAX_WHOLE_SOURCE_BYTES, "a file read whole (JSON, Markdown, compressed)"
        else:
            cap, what = MAX_SOURCE_BYTES, "a source"
        if st.st_size > cap:
            size = st.st_size // 1_048_576
            result.warnings.append(
                Problem(str(path), f"is {size:,} MB, over the {cap // 1_048_576:,} MB limit for {what}; skipped")
            )
            return False
        return True
    result.warnings.append(Problem(str(path), f"is {describe_mode(st.st_mode)}, not a regular file; skipped"))
    return False


def ingest(
    store: Store,
    index: Index,
    registry: Registry,
    config: UserConfig,
    agents: list[str] | None = None,
    paths: list[Path] | None = None,
    progress: Progress | None = None,
) -> IngestResult:
    """Read, then write, batch by batch.

    A batch's sources are parsed first, with no transaction open; then every repo its sessions
    ran in has its team config loaded (`.smriti/config.toml`: its regexes are vetted by running
    them, up to seconds for a hostile one, smriti.saferegex), still with no transaction open; only
    then is the batch written, in one transaction. So neither parsing nor the vetting of a team's
    patterns ever holds the store's write lock: the only team regexes run under it are the
    categorize rules' searches, each bounded by saferegex.SEARCH_TIMEOUT per message and all of a
    run by MAX_TIMEOUTS of those (0.15 s). The exception is a first ingest into an empty store,
    which is one transaction from start to end (`Store.bulk`'s first load): other writers wait for
    the whole run, its vetting included.

    On a machine with a core to spare, a big run's sources are parsed (and their new sessions
    digested) by a worker process a window ahead, while this one writes (smriti.ingest_worker);
    the batches, their order and what is stored are the same.
    """
    result = IngestResult()
    roots = known_project_roots(store)
    with _cycles_uncollected() as collect_again:
        warnings = _read_sources(
            store, registry, config, agents or [], paths or [], roots, result, progress, collect_again
        )
    result.warnings.extend(Problem("config", w) for w in dict.fromkeys(warnings))
    folded = store.fold_wal_in_background()  # the run's WAL copied back while the index is built
    try:
        result.indexed = index.sync(store)
    finally:
        folded()
    return result


def _read_sources(
    store: Store,
    registry: Registry,
    config: UserConfig,
    agents: list[str],
    paths: list[Path],
    roots: list[Path],
    result: IngestResult,
    progress: Progress | None,
    collect_again: Callable[[], None],
) -> list[str]:
    """Find, vet, read and store every source (`ingest`); the team configs' warnings. What it
    holds per source is freed on return, before the caller turns the collector back on."""
    stats: dict[str, os.stat_result] = {}
    tasks = plan_sources(registry, config, agents, paths, result, roots, stats)
    checks = _examine_all(store, tasks, stats, config)
    if any(isinstance(c, _ToParse) for c in checks):
        collect_again()  # parsing makes garbage worth collecting; a no-op run makes little more
    enricher = Enricher(store)
    for root in roots:  # the repos of the sessions stored before: their configs, once
        enricher.settings_for_repo(str(root))
    result.files_seen = len(tasks)
    feed = _Feed(tasks, checks)
    try:
        with store.bulk():
            _ingest_batches(store, enricher, tasks, checks, feed, config, result, progress)
    finally:
        feed.close()
    return enricher.warnings


# While a run stores what it parsed, the collector found ~350 objects in cycles in 10,000 sessions,
# and ran 750 times for them: 0.35 s of the parent's CPU, a fifth of it walking every live object in
# the oldest generation. A first generation of 20,000 allocations (Python's is 700) still collects
# what an adapter leaves in cycles, with a twentieth of the passes (0.04 s).
RUN_GC_THRESHOLD = 20_000


@contextmanager
def _cycles_uncollected() -> Iterator[Callable[[], None]]:
    """No cyclic garbage collection while the run lists and vets its sources, until the function
    given is called (or the block ends); then a rarer one (`RUN_GC_THRESHOLD`) until the end.

    Listing and vetting make a few small objects per source (Paths, stats, tuples), alive until
    the run ends and free of cycles: tens of thousands on a machine with months of transcripts,
    which the collector would walk again and again as they pile up (a fifth of a no-op ingest's
    CPU time at 10k files, and one pass over all of them when it is turned back on). Reference
    counting still frees whatever is dropped. The collector is process-wide: it is turned back
    on only if it was on.
    """
    enabled = gc.isenabled()
    thresholds = gc.get_threshold()
    gc.disable()

    def collect_again() -> None:
        if enabled:
            gc.set_threshold(max(RUN_GC_THRESHOLD, thresholds[0]), *thresholds[1:])
            gc.enable()

    try:
        yield collect_again
    finally:
        collect_again()
        gc.set_threshold(*thresholds)


def _source_key(path: Path) -> str:
    """How a source is named in the store and in messages: its path, with an undecodable byte of a
    file name (Python reads it as a lone surrogate, which UTF-8 cannot hold) as its escape."""
    return utf8_text(str(path))


def _examine_all(
    store: Store, tasks: list[tuple[Adapter, Path]], stats: dict[str, os.stat_result], config: UserConfig
) -> list[_ToParse | Callable[[IngestResult], None]]:
    """What each source needs, decided up front (no result is touched yet: that happens in order,
    as the sources' turns come), so the sources to parse can go to a worker process ahead of the
    writes. The stored fingerprints are read here and dropped on return."""
    known = store.source_fingerprints()
    checks: list[_ToParse | Callable[[IngestResult], None]] = []
    for adapter, path in tasks:
        checks.append(_examine(store, adapter, path, known.get(_source_key(path)), config, stats.pop(str(path), None)))
    return checks


def _ingest_batches(
    store: Store,
    enricher: Enricher,
    tasks: list[tuple[Adapter, Path]],
    checks: list[_ToParse | Callable[[IngestResult], None]],
    feed: _Feed,
    config: UserConfig,
    result: IngestResult,
    progress: Progress | None,
) -> None:
    done = 0
    while done < len(tasks):
        limit = FIRST_BATCH_SOURCES if done == 0 and feed.worker is not None else BATCH_SOURCES
        reads: list[_SourceRead] = []
        idle = _DigestsAhead(enricher, reads)
        read_bytes = 0
        while done < len(tasks) and len(reads) < limit and read_bytes < BATCH_BYTES:
            adapter, path = tasks[done]
            check = checks[done]
            done += 1
            if progress:
                progress(done, len(tasks), str(path))
            if not isinstance(check, _ToParse):
                check(result)
                continue
            answer = feed.parsed(done - 1, adapter, path, check.resume, idle)
            read = _read_source(adapter, path, check, answer, result)
            reads.append(read)
            read_bytes += read.size
        for read in reads:  # repos first seen in this batch: their configs before the write lock
            for session in read.sessions:
                enricher.settings_for(session)
        if reads:
            with store.batch():
                for read in reads:
                    _store_source(store, enricher, read, config, result)


class _Feed:
    """Each source's parse, in task order: from the worker process (`smriti.ingest_worker`) for the
    sources sent to it, else parsed here. The worker runs at most a window ahead."""

    def __init__(self, tasks: list[tuple[Adapter, Path]], checks: list[_ToParse | Callable[[IngestResult], None]]):
        self._jobs = [
            (i, c)
            for i, c in enumerate(checks)
            if isinstance(c, _ToParse) and c.st_size <= ingest_worker.MAX_SOURCE_BYTES
        ]
        self._tasks = tasks
        self._sent = self._next = 0
        self.worker = None
        if self._jobs and sum(c.st_size for _, c in self._jobs) >= ingest_worker.MIN_BYTES:
            self.worker = ingest_worker.start({a.name: a for a, _ in tasks})
        self._fill()

    def _fill(self) -> None:
        w = self.worker
        while (
            w is not None
            and self._sent < len(self._jobs)
            and w.in_flight < ingest_worker.WINDOW_SOURCES
            and w.in_flight_bytes < ingest_worker.WINDOW_BYTES
        ):
            i, check = self._jobs[self._sent]
            adapter, path = self._tasks[i]
            w.send(adapter.name, str(path), check.resume, check.st_size)
            self._sent += 1

    def parsed(
        self, i: int, adapter: Adapter, path: Path, resume: Any, idle: Callable[[], bool] | None = None
    ) -> ingest_worker.Parsed:
        """`idle`: the parent's own work, done while the worker's answer is not there yet."""
        if self.worker is not None and self._next < self._sent and self._jobs[self._next][0] == i:
            self._next += 1
            try:
                answer = self.worker.receive(self._jobs[self._next - 1][1].st_size, idle)
            except (EOFError, OSError):  # the worker died: what it had not answered is parsed here
                self.close()
            else:
                self._fill()
                if answer.parsed is not None or answer.error is not None:
                    return answer
        try:
            return ingest_worker.Parsed(storable(adapter.parse(path, resume)), None, {})
        except Exception as exc:  # a bug in one adapter must not stop the rest of the ingest
            return ingest_worker.Parsed(None, f"{type(exc).__name__}: {exc}", {})

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
            self.worker = None


class _DigestsAhead:
    """The digests of a batch's sessions that came from the worker without one, computed while the
    parent would otherwise wait for the worker's next answer (`Worker.receive`'s `idle`), one session
    a call, in the batch's order.

    The worker leaves a session's digest to the parent when the parent was waiting for it (it is
    behind). The parent used to compute those only as it wrote them, after it had waited for the rest
    of the batch: at 10,000 sessions it sat 0.4-2.4 s blocked on the worker's answers, and then
    computed ~1,900 such digests (~1 ms each); with this, it is blocked 0.2-0.3 s. A digest is
    `precompute`'s, as the worker makes it, so `Enricher.enrich` takes it, or computes its own,
    under the same conditions as before.

    Each session's repo settings are asked for in order, every session's, as the batch's own loop
    does after the reads (`Enricher.settings_for`: its warnings keep their order). If that fails, the
    work ahead stops for the batch, and the batch's own loop meets the error where it always did;
    a digest that fails is left to `enrich`, as the worker leaves it."""

    __slots__ = ("_enricher", "_reads", "_read", "_session")

    def __init__(self, enricher: Enricher, reads: list[_SourceRead]) -> None:
        self._enricher = enricher
        self._reads = reads  # the batch's reads so far (the caller appends to it)
        self._read = self._session = 0  # the next session to look at

    def __call__(self) -> bool:
        """Digest the next session that needs it; False when none of those read so far does."""
        reads = self._reads
        while self._read < len(reads):
            read = reads[self._read]
            while self._session < len(read.sessions):
                i = self._session
                self._session += 1
                session = read.sessions[i]
                try:
                    settings = self._enricher.settings_for(session)
                except Exception:  # not to be taken for the worker's death by `receive`'s caller
                    self._reads = []  # nothing more ahead for this batch, however many reads follow
                    return False
                if i in read.digests or not session.messages:
                    continue
                try:
                    read.digests[i] = precompute(session, settings)
                except Exception:  # noqa: S112  (enrich computes this one itself, and meets the error there)
                    continue
                return True
            self._read += 1
            self._session = 0
        return False


@dataclass
class _SourceRead:
    """What one source's read leaves to write: its sessions, its new state, its problems."""

    path: str
    agent: str
    size: int
    sessions: list[Session] = field(default_factory=list)
    state: SourceState | None = None  # remembered as read (None: read again next run)
    problems: list[str] | None = None  # the source's recorded problems, replaced (None: left as they are)
    digests: dict[int, Precomputed] = field(default_factory=dict)  # session index → digest from the worker


@dataclass(frozen=True, slots=True)
class _ToParse:
    """A source this run must parse: its stat, fingerprint and resume point."""

    st_mode: int
    st_ino: int
    st_size: int
    size: int
    mtime_ns: int
    known: SourceState | None
    resume: Any


def _examine(
    store: Store,
    adapter: Adapter,
    path: Path,
    known: SourceFingerprint | None,
    config: UserConfig,
    planned: os.stat_result | None = None,
) -> _ToParse | Callable[[IngestResult], None]:
    """What a source needs: a parse (`_ToParse`), or nothing but a note in the result (a function
    that makes it, called when the source's turn comes, so the result reads in the sources' order).

    `planned`: the source's stat taken when the run found it: by the adapter as it listed its
    sources (`discover_stats`), else by `_readable_kind`. It is the fingerprint stored once the
    source is read, and it is taken before any source is read: a change after it, even one made
    between the listing and the read, leaves the file unlike its fingerprint, so the next run
    reads it again (from its resume point). A fingerprint taken after the read could miss a
    change made while the source was being read; one taken earlier costs at most a re-read."""
    spath = _source_key(path)
    if config.excludes(spath):
        return lambda result: result.skipped.append({"path": spath, "reason": "excluded by config"})
    try:
        st = planned or os.stat(path)
    except OSError as exc:
        problem = Problem(spath, f"cannot stat: {exc.strerror or exc}")

        def unreadable(result: IngestResult) -> None:
            result.errors.append(problem)
            result.unreadable.append(spath)

        return unreadable
    if stat.S_ISREG(st.st_mode) and st.st_size == 0 and not (known and known.sessions):
        return lambda result: result.skipped.append({"path": spath, "reason": "empty file: nothing to read yet"})
    size, mtime_ns = _fingerprint(path, st, wal=getattr(adapter, "sqlite_sources", True))
    if (
        known
        and known.agent == adapter.name
        and (known.size, known.mtime_ns, known.inode) == (size, mtime_ns, st.st_ino)
    ):
        sessions = known.sessions

        def unchanged(result: IngestResult) -> None:
            result.files_unchanged += 1
            result.sessions_found += sessions

        return unchanged
    state = store.source_state(spath) if known else None  # changed: its session list and resume point
    resume = state.resume if state and state.agent == adapter.name and size >= state.size else None
    return _ToParse(st.st_mode, st.st_ino, st.st_size, size, mtime_ns, state, resume)


def _read_source(
    adapter: Adapter, path: Path, check: _ToParse, answer: ingest_worker.Parsed, result: IngestResult
) -> _SourceRead:
    """One parsed source (no write): what to store of it."""
    spath = _source_key(path)
    known, resume, size = check.known, check.resume, check.size
    before = len(result.errors)  # this read's problems replace the source's recorded ones (status shows them)
    out = _SourceRead(spath, adapter.name, size)
    parsed = answer.parsed
    if parsed is None:  # the adapter failed: a bug in one adapter must not stop the rest of the ingest
        result.errors.append(Problem(spath, f"adapter {adapter.name!r} failed: {answer.error}"))
        result.unreadable.append(spath)
        out.problems = [_problem_line(p) for p in result.errors[before:]]
        return out
    result.files_read += 1
    result.errors.extend(parsed.errors)
    result.warnings.extend(parsed.warnings)
    has_messages = any(s.messages for s in parsed.sessions)
    if resume is None and parsed.sessions and not has_messages:
        result.errors.append(
            Problem(spath, f"found {len(parsed.sessions)} session(s) but no messages: the format may have changed")
        )
    if resume is None and not has_messages and (parsed.errors or parsed.warnings or len(result.errors) > before):
        # Nothing but problems (a junk file, another agent's log read with the wrong --agent): not
        # remembered as read, so the next run, with --json or not, reports the same problems.
        if len(result.errors) == before:
            result.errors.append(
                Problem(spath, f"nothing readable as {adapter.name}: another agent's log? (see --agent)")
            )
        result.unreadable.append(spath)
        out.problems = [_problem_line(p) for p in [*result.errors[before:], *parsed.warnings]]
        return out
    native_ids = list(known.sessions) if known else []
    for session in parsed.sessions:
        if session.native_id not in native_ids:
            native_ids.append(session.native_id)
    out.sessions = parsed.sessions
    out.digests = answer.digests
    # An unreadable source (a directory named like a transcript, no permission) is not
    # remembered, so it is reported again until someone fixes it.
    if stat.S_ISREG(check.st_mode) and os.access(path, os.R_OK):
        out.state = SourceState(spath, adapter.name, size, check.mtime_ns, check.st_ino, parsed.resume, native_ids)
    out.problems = [_problem_line(p) for p in result.errors[before:]]
    result.sessions_found += len(native_ids)
    return out


def _store_source(
    store: Store, enricher: Enricher, read: _SourceRead, config: UserConfig, result: IngestResult
) -> None:
    """Write one source's read (inside the batch's transaction)."""
    for i, session in enumerate(read.sessions):
        _store_session(store, enricher, session, config, result, read.digests.get(i))
    if read.state is not None:
        store.save_source_state(read.state)
    if read.problems is not None:
        store.save_source_errors(read.path, read.agent, read.problems)


def _problem_line(p: Problem) -> str:
    return f"line {p.line}: {p.error}" if p.line is not None else p.error


def _fingerprint(path: Path, st: os.stat_result, *, wal: bool = True) -> tuple[int, int]:
    """Size and mtime that change whenever the source's content does.

    A SQLite source in WAL mode (Cursor's state.vscdb, opencode.db) takes new writes in its
    `-wal` file and may not touch the main file until a checkpoint, so the -wal counts too
    (`wal`: the adapter's sources may be SQLite databases).
    """
    size, mtime_ns = st.st_size, st.st_mtime_ns
    if not wal:
        return size, mtime_ns
    try:
        side = os.stat(f"{path}-wal")
    except OSError:
        return size, mtime_ns
    return size + side.st_size, max(mtime_ns, side.st_mtime_ns)


def _store_session(
    store: Store,
    enricher: Enricher,
    session: Session,
    config: UserConfig,
    result: IngestResult,
    pre: Precomputed | None = None,
) -> None:
    if store.is_tombstoned(session.agent, session.native_id):
        return
    if any(m.kind == "prompt" and NO_SAVE_MARKER in m.text.lower() for m in session.messages):
        if store.delete_session(session.agent, session.native_id, reason="no-save"):
            store.drop_orphan_blobs()  # its texts go too (forget and prune do the same), or doctor flags them
        result.skipped.append({"session": session.native_id, "reason": f"'{NO_SAVE_MARKER}' marker"})
        return
    proj = projects.resolve(session.cwd)
    excluded = config.excludes(session.cwd, proj.key if proj else None, proj.root if proj else None)
    if excluded:
        result.skipped.append({"session": session.native_id, "reason": f"excluded by config ({excluded})"})
        return
    written = store.write_session(session, proj.key if proj else None, proj.name if proj else None)
    result.messages_added += written.added
    result.messages_updated += written.updated
    if written.added or written.updated or written.created:
        result.sessions_ingested += 1
        # Categorize and distill now, in the same batch: appended messages are scored alone.
        # `pre` (the worker's digest) was made from these very messages; it only fits rows written whole.
        enricher.enrich(
            written.row if written.row is not None else store.session_row(written.session_rowid),
            full=written.updated > 0,
            rows=written.stored,
            pre=pre if written.stored is not None else None,
            new_session=written.created,
        )
