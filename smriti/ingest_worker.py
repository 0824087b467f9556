"""Ingest's second process: parse sources and digest their sessions on the other core.

Parsing and the digest (categorize, distill) are pure Python, so a thread cannot run them beside
the store's writes (the GIL); a process can. `ingest` sends this worker the sources it must read,
in order and a bounded window ahead, and takes back, in the same order, each source's
`ParseResult` with the `Precomputed` digest of each of its sessions. The main process still writes
every row itself, batch by batch as before (nothing is parsed or vetted under its write lock), and
uses a session's precomputed digest only when it wrote that session whole and nothing the digest
did not see applies (`Enricher.enrich`); otherwise it computes the digest itself, as before.

Only where it pays and is safe: on Linux (the worker is forked, so it starts in a few ms with every
module and adapter already loaded; it never touches the parent's store or index, and leaves by
`os._exit`, so no destructor of theirs runs in it), with a core to spare (`enabled`), for a run
with at least MIN_BYTES to read, and never for a source over MAX_SOURCE_BYTES (the parent parses
that one itself: its parsed form would otherwise be held twice, once in each process). Anything the
worker cannot do (an adapter that raises, a result that does not pickle, a worker that dies) is
redone by the parent, in-process. Ctrl-C reaches both processes: the worker ignores it, the parent
stops it on the way out.

Whoever waits digests: while the parent waits for an answer, the worker is behind, so it sends what
it parses without digests and the parent computes them itself, the next ones of those it holds while
it would otherwise wait for the next answer; when the parent is busy writing, the worker digests
ahead. The split follows the two processes' speeds, on an idle machine or not.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smriti import project as projects
from smriti.adapters import Adapter
from smriti.digest import learned
from smriti.digest.apply import Precomputed, precompute, repo_settings
from smriti.digest.taxonomy import Settings, default_settings
from smriti.models import ParseResult, storable

# Below this much to read, one process: starting the worker costs little, but loading the category
# model in it (~0.25 s) and the first batch it parses while the parent waits do not pay back.
MIN_BYTES = 8 * 1024 * 1024
# A source this big is parsed by the parent itself (see the module docstring).
MAX_SOURCE_BYTES = 32 * 1024 * 1024
# How far ahead of the parent the worker may run: about one batch beyond the one being written,
# so parsing the next batch overlaps writing this one, and what waits in the pipe stays bounded.
WINDOW_SOURCES = 128
WINDOW_BYTES = 64 * 1024 * 1024
# The answers' pipe, widened from Linux's 64 KB (where the system allows: best effort). An answer
# bigger than the pipe is written in pieces, and between two pieces the worker's sender thread waits
# for the GIL its parsing thread holds (up to the switch interval): 1.7-1.9 s of the parent's waits on
# 10,000 sessions were those hand-overs, 0.4-0.6 s with this pipe and SWITCH_INTERVAL.
ANSWER_PIPE_BYTES = 1024 * 1024
# The worker's GIL switch interval (Python's default: 5 ms), so its sender thread gets the GIL soon
# after the parent has read what was in the pipe.
SWITCH_INTERVAL = 0.0005


@dataclass(frozen=True, slots=True)
class Parsed:
    """One source's answer from the worker: `parsed` (with `digests`: session index → digest), or
    `error` (the adapter raised: the same message an in-process parse would give), or neither (the
    worker could not send it: the parent parses the source itself)."""

    parsed: ParseResult | None
    error: str | None
    digests: dict[int, Precomputed]


def enabled() -> bool:
    """Whether a run may start a worker: on Linux, with a core to spare (`SMRITI_INGEST_WORKER`: 0
    never, 1 whenever it can, unset: when the last minute's load average leaves a core free). On a
    busy machine the worker only competes with the parent for a core, and costs its pickling."""
    if sys.platform != "linux":
        return False
    setting = os.environ.get("SMRITI_INGEST_WORKER", "")
    if setting in ("0", "1"):
        return setting == "1"
    cores = os.cpu_count() or 1
    return cores >= 2 and os.getloadavg()[0] <= cores - 1


class Worker:
    """The parent's handle on one worker process; jobs are answered in the order they are sent."""

    def __init__(self, adapters: dict[str, Adapter]) -> None:
        import multiprocessing  # noqa: PLC0415  (only a run that starts a worker needs it)

        ctx = multiprocessing.get_context("fork")
        jobs_in, jobs_out = ctx.Pipe(duplex=False)
        results_in, results_out = ctx.Pipe(duplex=False)
        _widen(results_out.fileno(), ANSWER_PIPE_BYTES)
        # Set while the parent waits for an answer: the worker is behind, so it leaves the digests
        # of what it parses to the parent (which computes them as it always did) until it catches
        # up. The work splits itself between the two by who is waiting, on an idle machine or not.
        self._waiting = ctx.RawValue("b", 0)
        self._process = ctx.Process(
            target=_serve, args=(adapters, jobs_in, jobs_out, results_in, results_out, self._waiting), daemon=True
        )
        self._process.start()
        # The parent keeps only its own ends, so either side sees the other's death as end of file.
        jobs_in.close()
        results_out.close()
        self._jobs = jobs_out
        self._results = results_in
        self.in_flight = 0
        self.in_flight_bytes = 0
        self.waits = 0

    def send(self, adapter: str, path: str, resume: Any, size: int) -> None:
        self._jobs.send((adapter, path, resume))
        self.in_flight += 1
        self.in_flight_bytes += size

    def receive(self, size: int, idle: Callable[[], bool] | None = None) -> Parsed:
        """The answer to the oldest job; raises EOFError or OSError when the worker died. `idle`:
        work of the parent's own, done in steps while the answer is not there yet (each call does
        one step and says whether it did anything), instead of waiting idle for it."""
        if not self._results.poll():
            self._waiting.value = 1
            self.waits += 1
            while idle is not None and idle() and not self._results.poll():
                pass
        try:
            data = self._results.recv_bytes()
        finally:
            self._waiting.value = 0
        self.in_flight -= 1
        self.in_flight_bytes -= size
        try:
            answer: Parsed = pickle.loads(data)
        except Exception:  # a third-party adapter's result that does not come back whole: parse it here
            return Parsed(None, None, {})
        return answer

    def close(self) -> None:
        try:
            self._jobs.send(None)
        except OSError:
            pass
        self._jobs.close()
        self._results.close()
        self._process.join(timeout=1)
        if self._process.is_alive():
            self._process.terminate()
            self._process.join(timeout=1)


def _widen(fd: int, size: int) -> None:
    """Give a pipe a bigger buffer where the system allows (Linux's F_SETPIPE_SZ; refused beyond
    /proc/sys/fs/pipe-max-size or a user's pipe quota): otherwise it keeps the one it has."""
    import fcntl  # noqa: PLC0415  (only a run that starts a worker needs it)

    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)
    except (OSError, AttributeError):
        pass


def start(adapters: dict[str, Adapter]) -> Worker | None:
    """A worker, or None where none can start (no fork on this platform, no processes left)."""
    if not enabled():
        return None
    default_settings()  # the parent needs the seeded taxonomy too: parsed once, before the fork, for both
    # The category model too (~0.05 s to read): the parent digests whatever the worker has not when
    # it waits, so it loads the model in every big run anyway; loaded before the fork, the worker
    # shares it instead of reading it again while the parent waits for its first digests.
    learned.load_model()
    try:
        return Worker(adapters)
    except (OSError, ValueError):
        return None


def _serve(
    adapters: dict[str, Adapter], jobs_in: Any, jobs_out: Any, results_in: Any, results_out: Any, waiting: Any
) -> None:
    """The worker's loop: read a job, parse and digest, hand the pickled answer to the sender."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops us
    sys.setswitchinterval(SWITCH_INTERVAL)
    jobs_out.close()
    results_in.close()
    # SimpleQueue: a put is one C call, not queue.Queue's Python lock and condition variable (whose
    # notify was 2-3% of the worker's samples on 10,000 sources).
    answers: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()

    def sender() -> None:
        # A thread, so the next source is parsed while the parent is busy writing, not reading.
        while (data := answers.get()) is not None:
            try:
                results_out.send_bytes(data)
            except OSError:  # the parent is gone
                os._exit(0)

    thread = threading.Thread(target=sender, daemon=True)
    thread.start()
    settings: dict[str, Settings] = {}
    warnings: list[str] = []  # the parent loads every team config too, and reports its problems
    while True:
        try:
            job = jobs_in.recv()
        except (EOFError, OSError):
            break
        if job is None:
            break
        name, path, resume = job
        answers.put(_answer(adapters[name], path, resume, settings, warnings, waiting))
    answers.put(None)
    thread.join()


def _answer(
    adapter: Adapter, path: str, resume: Any, settings: dict[str, Settings], warnings: list[str], waiting: Any
) -> bytes:
    try:
        parsed: ParseResult = storable(adapter.parse(Path(path), resume))
    except Exception as exc:  # the parent reports it as it would its own parse's failure
        return pickle.dumps(Parsed(None, f"{type(exc).__name__}: {exc}", {}), protocol=pickle.HIGHEST_PROTOCOL)
    digests: dict[int, Precomputed] = {}
    for i, session in enumerate(parsed.sessions):
        if waiting.value:  # the parent is waiting for this answer: it digests the rest itself
            break
        if not session.messages:
            continue
        try:
            proj = projects.resolve(session.cwd) if session.cwd else None
            digests[i] = precompute(session, repo_settings(proj.root if proj else None, settings, warnings))
        except Exception:  # noqa: S112  (the parent computes this one itself, and meets the error there)
            continue
    try:
        return pickle.dumps(Parsed(parsed, None, digests), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # a third-party adapter's result that does not pickle: the parent parses it
        return pickle.dumps(Parsed(None, None, {}), protocol=pickle.HIGHEST_PROTOCOL)
