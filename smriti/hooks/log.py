"""The hooks' two logs in `<data dir>/logs/`, written without blocking and bounded in size.

- `hooks.log`: one JSON line per hook failure (`{time, agent, event, error}`). A hook never
  breaks the agent, so this file is the only place a failure shows; `smriti status` reports it.
- `injections.jsonl`: one JSON line per prompt/session-start hook that ran recall
  (`{time, agent, event, session, prompt_id, prompt, cwd, chars, tokens, items}`), for
  `smriti hooks log`.

Each line is one `write()` on an O_APPEND descriptor (no lock, so a hook never waits on another);
past its size cap a file is renamed to `<name>.1` (replacing the previous one) and starts over.
Lean: only `os`, `time` and `smriti.hooks.leanjson`, because the prompt hook imports it.
"""

from __future__ import annotations

import os
import time

from smriti.hooks import leanjson

FAILURE_LOG = "hooks.log"
INJECTION_LOG = "injections.jsonl"
FAILURE_MAX_BYTES = 256 * 1024
INJECTION_MAX_BYTES = 2 * 1024 * 1024
ERROR_MAX_CHARS = 500
PROMPT_MAX_CHARS = 200


def logs_dir(data: str) -> str:
    return os.path.join(str(data), "logs")


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _append(path: str, record: dict, max_bytes: int) -> None:
    line = (leanjson.dumps(record) + "\n").encode("utf-8", "replace")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        if os.stat(path).st_size + len(line) > max_bytes:
            os.replace(path, path + ".1")
    except OSError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def log_failure(data: str, agent: str, event: str, error: str) -> None:
    """Record one failure; never raises (a hook that cannot log still must not break the agent)."""
    record = {
        "time": now_iso(),
        "agent": agent,
        "event": event,
        "error": " ".join(str(error).split())[:ERROR_MAX_CHARS],
    }
    try:
        _append(os.path.join(logs_dir(data), FAILURE_LOG), record, FAILURE_MAX_BYTES)
    except Exception:
        try:
            import sys

            from smriti.untrusted import printable  # the error may quote a path: no escape sequences

            print(f"smriti hook: {printable(record['error'])}", file=sys.stderr)
        except Exception:
            pass


def log_injection(data: str, record: dict) -> None:
    try:
        _append(os.path.join(logs_dir(data), INJECTION_LOG), record, INJECTION_MAX_BYTES)
    except Exception:
        pass


def _read_lines(path: str) -> list[dict]:
    out = []
    for p in (path + ".1", path):
        try:
            with open(p, encoding="utf-8", errors="replace") as fh:
                for line in fh:
                    try:
                        rec = leanjson.loads(line)
                    except ValueError:
                        continue  # a torn line from a crash, or a foreign edit
                    if isinstance(rec, dict):
                        out.append(rec)
        except OSError:
            continue
    return out


def injections(data: str, limit: int | None = None) -> list[dict]:
    """The injection log, oldest first (the last `limit` entries when given)."""
    rows = _read_lines(os.path.join(logs_dir(data), INJECTION_LOG))
    return rows[-limit:] if limit else rows


def failures(data: str, limit: int | None = None) -> list[dict]:
    rows = _read_lines(os.path.join(logs_dir(data), FAILURE_LOG))
    return rows[-limit:] if limit else rows


def _epoch(ts: object) -> float | None:
    if not isinstance(ts, str):
        return None
    import calendar

    try:
        return float(calendar.timegm(time.strptime(ts, "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, OverflowError):
        return None


def health(data: str, now: float | None = None, window_hours: float = 24) -> dict:
    """Hook health for `smriti status`: failures in the last day, the last failure, the last run
    that reached recall. `failing` is true when the last day's failures outnumber its injections."""
    now = time.time() if now is None else now
    since = now - window_hours * 3600
    fails = failures(data)
    recent = [f for f in fails if (e := _epoch(f.get("time"))) is not None and e >= since]
    runs = injections(data)
    recent_runs = [r for r in runs if (e := _epoch(r.get("time"))) is not None and e >= since]
    last = fails[-1] if fails else None
    return {
        "failures_24h": len(recent),
        "runs_24h": len(recent_runs),
        "failing": bool(recent) and len(recent) >= len(recent_runs),
        "last_failure": last,
        "last_run": runs[-1].get("time") if runs else None,
        "log": os.path.join(logs_dir(data), FAILURE_LOG),
    }
