"""The detached recorder the stop/end hooks start: ingest one agent session, coalescing repeats.

    python -m smriti.hooks.record --data DIR --agent A [--session S] [--path TRANSCRIPT] [--cwd CWD]

Protocol with the hook (smriti.hooks.run.record), per agent + session:
- the hook touches `<lock>.dirty`, then tries the flock on `<lock>`: held means a recorder is
  running, which will see the marker, so the hook just exits; free means the hook starts one;
- the recorder takes the flock (or exits if another recorder has it), then loops: remove the
  marker, ingest, and go again if a hook left a new marker meanwhile (at most MAX_RUNS times);
- after releasing the flock it looks at the marker once more, so a hook that touched it between
  the recorder's last look and the release is not lost (the hook saw the lock held and left).

So twenty Stop hooks arriving together start a handful of short-lived processes at most, and
the session is ingested once or twice, never twenty times. Ingest itself is idempotent, keyed by
agent + native session id, so any repeat is harmless.

Where the payload had no transcript path (Codex without one, Cline, Cursor with transcripts off),
the sources of the agent's default roots whose path names the session id are ingested, else all
of that agent's roots (incremental: unchanged sources are not opened).
"""

from __future__ import annotations

import argparse
import fcntl
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from smriti.app import App

MAX_RUNS = 5
PRUNE_CHANCE = 1 / 32
PRUNE_AFTER_DAYS = 14
DELAY_SECONDS = 0.3  # agents write transcripts asynchronously; a burst of hooks lands in one run


def _sources_for(app: App, agent: str, session: str | None) -> list[Path] | None:
    """The agent's sources that name `session` in their path, or None to ingest all its roots."""
    if not session or len(session) < 6:
        return None
    adapter = app.registry.get(agent)
    roots = list(adapter.default_roots()) + [Path(r).expanduser() for r in app.config.roots.get(agent, ())]
    found = []
    for root in roots:
        if not root.exists():
            continue
        for path in adapter.discover(root):
            if session in str(path):
                found.append(path)
    return found or None


def run_once(data: Path, agent: str, session: str | None, transcript: str | None, cwd: str | None) -> None:
    from smriti import project as projects
    from smriti.app import App
    from smriti.hooks.log import log_failure
    from smriti.ingest import ingest

    app = App(data)
    try:
        if cwd:
            proj = projects.resolve(cwd)
            if app.config.excludes(cwd, proj.key if proj else None, proj.root if proj else None):
                return  # the user's exclude list: never read this project
        if agent not in app.registry.adapters:
            log_failure(str(data), agent, "record", f"no adapter named {agent!r} is installed")
            return
        paths: list[Path] | None = None
        if transcript and Path(transcript).exists():
            paths = [Path(transcript)]
        elif transcript:
            # The agent named a file that is not there: said in the log, then looked for by session.
            log_failure(
                str(data),
                agent,
                "record",
                f"the hook's transcript {transcript} does not exist; looking for the "
                f"session {session or '?'} in {agent}'s folders instead",
            )
        result = ingest(app.store, app.index, app.registry, app.config, [agent], paths) if paths else None
        if result is None or result.errors or not result.sessions_found:
            # No usable transcript path: find the session's source through the adapter's roots.
            found = _sources_for(app, agent, session)
            if transcript and session and found is None:
                log_failure(str(data), agent, "record", f"no source of session {session} found in {agent}'s folders")
            result = ingest(app.store, app.index, app.registry, app.config, [agent], found)
        for problem in result.errors[:3]:
            log_failure(str(data), agent, "record", f"{problem.path}: {problem.error}")
        # a source refused at discovery, a team config refused or a team pattern switched off
        for problem in [w for w in result.warnings if w.path == "config" or paths and w.path == str(paths[0])][:3]:
            log_failure(str(data), agent, "record", f"{problem.path}: {problem.error}")
    finally:
        app.close()


def record(data: Path, agent: str, session: str | None, transcript: str | None, cwd: str | None) -> int:
    from smriti.hooks.protocol import record_lock_path

    lock = record_lock_path(str(data), agent, session)
    dirty = lock + ".dirty"
    os.makedirs(os.path.dirname(lock), exist_ok=True)
    try:
        delay = float(os.environ.get("SMRITI_RECORD_DELAY") or DELAY_SECONDS)
    except ValueError:
        delay = DELAY_SECONDS
    runs = 0
    while runs < MAX_RUNS:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return 0  # another recorder has it and will see the marker
            if runs == 0 and delay > 0:
                import time

                time.sleep(delay)  # holding the lock: the hooks of a burst coalesce into this run
            while runs < MAX_RUNS:
                try:
                    os.unlink(dirty)
                except FileNotFoundError:
                    pass
                runs += 1
                try:
                    run_once(data, agent, session, transcript, cwd)
                except Exception as exc:
                    from smriti.hooks.log import log_failure

                    log_failure(str(data), agent, "record", f"{type(exc).__name__}: {exc}")
                if not os.path.exists(dirty):
                    break
        finally:
            try:
                os.utime(lock)  # in use: keeps _prune away from it
            except OSError:
                pass
            os.close(fd)  # releases the flock
        if not os.path.exists(dirty):
            break
    if random.random() < PRUNE_CHANCE:
        _prune(os.path.dirname(lock))
    return 0


def _prune(folder: str, now: float | None = None) -> None:
    """Forget the lock files of sessions no hook has touched for PRUNE_AFTER_DAYS (one pair of
    empty files per session would otherwise pile up forever)."""
    import time

    now = time.time() if now is None else now
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        try:
            if now - os.stat(path).st_mtime > PRUNE_AFTER_DAYS * 86400:
                os.unlink(path)
        except OSError:
            pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m smriti.hooks.record", description="Record one agent session (started by hooks)."
    )
    ap.add_argument("--data", required=True)
    ap.add_argument("--agent", required=True)
    ap.add_argument("--session", default="")
    ap.add_argument("--path", default="")
    ap.add_argument("--cwd", default="")
    args = ap.parse_args(argv)
    os.environ["SMRITI_HOME"] = args.data  # App and adapters resolve the same data dir as the hook
    return record(Path(args.data), args.agent, args.session or None, args.path or None, args.cwd or None)


if __name__ == "__main__":
    sys.exit(main())
