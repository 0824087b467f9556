"""`smriti hook AGENT EVENT`: the lean entry point agents call on every prompt.

Imported by the console dispatcher before click or anything heavy. A hook never breaks the
agent: whatever happens (an error, a timeout, no store, a broken store) it exits 0, prints the
agent's own "nothing to say" output, and logs the failure to `<data dir>/logs/hooks.log`.

- prompt / session-start events: recall through the warm server (smriti.hooks.server) when one
  runs, else in this process (and start the server for the next prompt); print the agent's JSON;
  append to `<data dir>/logs/injections.jsonl`.
- stop / end events: leave a marker and start a detached recorder (smriti.hooks.record) unless one
  is already running for this agent + session; return at once.
- The agent named on the command line is checked against the payload: Cursor and VS Code run
  Claude Code's hooks, Copilot CLI and VS Code read each other's hook files. A duplicate run of
  the same injection (the same event reaching smriti through two hook files) is a no-op.
- SMRITI_DISABLE=1: nothing recorded, nothing injected.

Environment: SMRITI_HOOK_TIMEOUT (seconds, default 5) bounds the whole hook; SMRITI_HOOK_SERVER=0
keeps recall in-process.
"""

from __future__ import annotations

import os
import sys

from smriti.hooks import leanjson, protocol
from smriti.hooks.detach import spawn_detached
from smriti.hooks.protocol import PROMPT, START

DEFAULT_TIMEOUT = 5.0
DUPLICATE_WINDOW = 15.0  # seconds: the same injection twice within this is one event seen twice
USAGE = (
    "usage: smriti hook AGENT EVENT   (agents: "
    + ", ".join(protocol.AGENTS)
    + "; events: prompt, session-start, stop, session-end)"
)


class HookTimeout(BaseException):
    """Raised by the alarm; a BaseException so no `except Exception` inside recall swallows it."""


def _timeout() -> float:
    try:
        return max(0.2, float(os.environ.get("SMRITI_HOOK_TIMEOUT") or DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT


def _arm(seconds: float) -> None:
    try:
        # The C module: `signal` adds ~1 ms of enum set-up for nothing here (typeshed has no stub for it).
        import _signal as signal  # type: ignore[import-not-found]

        def fire(_signo: int, _frame: object) -> None:
            raise HookTimeout(f"the hook took longer than {seconds:g}s")

        signal.signal(signal.SIGALRM, fire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    except (ImportError, AttributeError, ValueError, OSError):
        pass  # no SIGALRM (Windows) or not the main thread: the agent's own timeout applies


def _disarm() -> None:
    try:
        import _signal as signal

        signal.setitimer(signal.ITIMER_REAL, 0)
    except (ImportError, AttributeError, ValueError, OSError):
        pass


def _read_payload(extra: list[str]) -> tuple[dict, str | None]:
    """The hook's JSON payload, and what was wrong with it (logged: the hook still answers)."""
    raw = ""
    # Codex's legacy `notify` passes the JSON as the last argument, stdin is /dev/null.
    if extra and extra[-1].lstrip().startswith("{"):
        raw = extra[-1]
    else:
        try:
            if sys.stdin is not None and not sys.stdin.isatty():
                raw = sys.stdin.buffer.read().decode("utf-8", "replace")
        except (OSError, ValueError, AttributeError) as exc:
            return {}, f"cannot read the hook's stdin: {exc}"
    try:
        payload = leanjson.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError) as exc:
        return {}, f"malformed hook input ({len(raw)} characters, not JSON: {exc})"
    if not isinstance(payload, dict):
        return {}, f"malformed hook input (a JSON {type(payload).__name__} of {len(raw)} characters, not an object)"
    return payload, None


def _emit(text: str | None) -> None:
    """UTF-8 whatever the locale says (agents read JSON as UTF-8; a C locale must not turn the
    context's "·" into an encoding error)."""
    if text:
        try:
            out = getattr(sys.stdout, "buffer", None)
            if out is not None:
                out.write((text + "\n").encode("utf-8", "surrogatepass"))
                out.flush()
            else:
                sys.stdout.write(text + "\n")
                sys.stdout.flush()
        except (OSError, ValueError, UnicodeError):
            pass


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stderr)
        if argv[:1] in (["-h"], ["--help"]):
            return 0
        try:
            interactive = sys.stdin is not None and sys.stdin.isatty()
        except (OSError, ValueError):
            interactive = False
        # A person gets the usage error (2); an agent never does: exit 2 blocks its prompt.
        return 2 if interactive else 0
    named = protocol.agent_id(argv[0])
    kind = protocol.event_kind(argv[1])
    seconds = _timeout()
    _arm(seconds)
    data = ""
    agent = named or argv[0]
    output: str | None = None
    if named is not None and kind is not None:
        output = protocol.render(named, kind, "")  # the answer if even reading stdin fails
    try:
        payload, malformed = _read_payload(argv[2:])
        if malformed is not None:
            _log(protocol.data_dir(), agent, argv[1], malformed)
        if named is None or kind is None:
            data = protocol.data_dir()
            from smriti.hooks.log import log_failure

            what = f"unknown agent {argv[0]!r}" if named is None else f"unknown event {argv[1]!r}"
            log_failure(data, argv[0], argv[1], f"{what}; {USAGE}")
            return 0
        agent = protocol.detect(named, payload)
        output = protocol.render(agent, kind, "")  # the "nothing to say" answer, until there is more
        if protocol.disabled():
            return 0
        data = protocol.data_dir()
        if kind in (PROMPT, START):
            if protocol.can_inject(agent, kind):
                text = inject(data, agent, named, kind, argv[1], payload, seconds)
                output = protocol.render(agent, kind, text, via=named if named != agent else None)
        else:
            record(data, agent, payload)
    except HookTimeout as exc:
        _log(data, agent, argv[1], f"timeout: {exc}")
    except Exception as exc:
        _log(data, agent, argv[1], f"{type(exc).__name__}: {exc}")
    finally:
        _disarm()
        _emit(output)
    return 0


def _log(data: str, agent: str, event: str, error: str) -> None:
    try:
        from smriti.hooks.log import log_failure

        log_failure(data or protocol.data_dir(), agent, event, error)
    except BaseException:
        pass


# ---- injection ----------------------------------------------------------------------------


def _native_hooks_installed(agent: str, cwd: str) -> bool:
    """Whether smriti's own hooks for `agent` are installed (user or project scope), so the copy of
    the event that reached us through another agent's settings file can step aside."""
    home = os.path.expanduser("~")
    if agent == "cursor":
        files = [os.path.join(home, ".cursor", "hooks.json"), os.path.join(cwd, ".cursor", "hooks.json")]
        needle = b" hook cursor "
    elif agent == "copilot":
        files = [
            os.path.join(home, ".copilot", "hooks", "smriti-copilot.json"),
            os.path.join(cwd, ".github", "hooks", "smriti-copilot.json"),
        ]
        needle = b" hook copilot "
    else:
        return False
    for f in files:
        try:
            with open(f, "rb") as fh:
                if needle in fh.read(1 << 20):
                    return True
        except OSError:
            continue
    return False


def _claim(data: str, key: str) -> bool:
    """True for the first run of this injection; False for a duplicate within DUPLICATE_WINDOW."""
    import time

    folder = os.path.join(protocol.hooks_dir(data), "claims")
    path = os.path.join(folder, protocol.safe_name(key, 120))
    os.makedirs(folder, exist_ok=True)
    for _ in range(2):
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            if hash(key) % 64 == 0:
                _prune(folder, time.time())
            return True
        except FileExistsError:
            try:
                if time.time() - os.stat(path).st_mtime < DUPLICATE_WINDOW:
                    return False
                os.unlink(path)  # an old claim: this is a new event with the same key
            except FileNotFoundError:
                pass
    return False


def _prune(folder: str, now: float) -> None:
    try:
        for name in os.listdir(folder):
            p = os.path.join(folder, name)
            try:
                if now - os.stat(p).st_mtime > 3600:
                    os.unlink(p)
            except OSError:
                pass
    except OSError:
        pass


def inject(data: str, agent: str, named: str, kind: str, event: str, payload: dict, seconds: float) -> str:
    """The context to inject for this prompt / session start ("" when nothing applies)."""
    import time

    started = time.monotonic()
    if not os.path.isfile(protocol.db_path(data)):
        return ""  # nothing ingested yet: not a failure
    cwd = protocol.cwd(payload)
    if agent != named and _native_hooks_installed(agent, cwd):
        return ""  # smriti's own hooks for this agent run too; they answer
    session = protocol.session_id(payload)
    query = protocol.prompt(payload) if kind == PROMPT else ""
    if kind == PROMPT:
        stripped = query.strip()
        if not stripped or (stripped.startswith("/") and " " not in stripped.split("\n", 1)[0][:40]):
            return ""  # empty, or a bare slash command: nothing to recall for
    if kind == PROMPT:
        import zlib

        turn = protocol.turn_id(payload) or format(zlib.crc32(query.encode("utf-8", "surrogatepass")), "08x")
    else:
        turn = str(payload.get("source") or "")  # startup, resume, clear, compact: each a new start
    if not _claim(data, f"{agent}|{kind}|{session or '-'}|{turn}"):
        return ""
    req = {
        "op": "recall" if kind == PROMPT else "start",
        "query": query,
        "cwd": cwd,
        "session": session,
        "agent": agent,
    }
    answer = _ask(data, req, seconds - (time.monotonic() - started) - 0.2)
    if not answer.get("ok"):
        raise RuntimeError(answer.get("error") or "recall failed")
    text = answer.get("context") or ""
    if answer.get("excluded"):
        return ""
    from smriti.hooks.log import PROMPT_MAX_CHARS, log_injection, now_iso

    log_injection(
        data,
        {
            "time": now_iso(),
            "agent": agent,
            "event": event,
            "session": session,
            "prompt_id": protocol.turn_id(payload),
            "prompt": " ".join(query.split())[:PROMPT_MAX_CHARS],
            "cwd": cwd,
            "chars": len(text),
            "tokens": (len(text) + 3) // 4,
            "items": answer.get("items") or [],
            "ms": round((time.monotonic() - started) * 1000, 1),
        },
    )
    return text


def _ask(data: str, req: dict, timeout: float) -> dict:
    from smriti.hooks import server as hookserver

    if hookserver.enabled():
        try:
            return hookserver.request(data, req, max(0.1, timeout))
        except (hookserver.Unavailable, ConnectionError, FileNotFoundError):
            pass  # none running (or it just stopped): answer here, and start one for next time
        except OSError as exc:
            if "timed out" in str(exc):
                raise
        if hookserver.may_spawn(data):
            try:
                hookserver.spawn(data)
            except Exception as exc:  # recall still works without it
                _log(data, req.get("agent") or "?", "server", f"could not start the recall server: {exc}")
    from smriti.hooks.recall import IndexNotReady, NoStore, answer_once

    try:
        return answer_once(data, req)
    except NoStore:
        return {"ok": True, "context": "", "items": []}
    except IndexNotReady:
        return {"ok": True, "context": "", "items": []}


# ---- recording ----------------------------------------------------------------------------


def record(data: str, agent: str, payload: dict) -> str:
    """Start a detached recorder for this agent session unless one is running. Returns what it did."""
    import fcntl

    session = protocol.session_id(payload)
    transcript = protocol.transcript(payload)
    lock = protocol.record_lock_path(data, agent, session)
    os.makedirs(os.path.dirname(lock), exist_ok=True)
    os.close(os.open(lock + ".dirty", os.O_CREAT | os.O_WRONLY, 0o600))
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return "coalesced"  # a recorder is running and will see the marker
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
    spawn_detached(
        [
            sys.executable,
            "-m",
            "smriti.hooks.record",
            "--data",
            data,
            "--agent",
            agent,
            "--session",
            session or "",
            "--path",
            transcript or "",
            "--cwd",
            protocol.cwd(payload),
        ]
    )
    return "started"
