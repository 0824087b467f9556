"""A warm recall server for the prompt hook, on a Unix socket in the data dir.

Why: a prompt hook is a fresh process per prompt. Importing store + index + recall, and building
recall's category matcher on its first call, costs several times the interpreter's own start-up,
while the budget for the whole hook is 3x a bare `python -c pass` (benchmarks/README.md, "Hooks",
has the measurements). So the first prompt hook starts this server (detached) and answers
in-process; later hooks send the request over the socket and print the answer, importing nothing
heavy.

Lifecycle, all of it the server's own business:
- one per data dir: it holds an flock on `<data>/hooks/server.lock` for its lifetime; a second
  copy exits at once;
- it reopens the store/index/config when they change on disk (see smriti.hooks.recall.Recaller.refresh);
- it exits after SMRITI_HOOK_SERVER_IDLE seconds without a request (default 1800), when its own
  code changes on disk (an upgrade), when the store disappears, on SIGTERM, or on a "shutdown"
  request;
- the socket is created 0600 inside a 0700 directory.

The client side (`request`, `spawn`, `stop`) is lean: _socket, smriti.hooks.leanjson, os only.
"""

from __future__ import annotations

import os
import sys

from smriti.hooks import leanjson

IDLE_SECONDS = 1800
SPAWN_BACKOFF_SECONDS = 60  # after a server failed to start, in-process only for this long
MAX_REQUEST_BYTES = 1 << 20


def _dir(data: str) -> str:
    return os.path.join(data, "hooks")


def socket_path(data: str, create: bool = False) -> str | None:
    """`<data>/hooks/recall.sock`, or a short path in a private folder of the temp dir when that
    is too long for AF_UNIX (104 bytes on macOS). None when the private folder is not safe
    (someone else's, a symlink, readable by others): then there is no server."""
    path = os.path.join(_dir(data), "recall.sock")
    if len(path.encode()) < 100:
        return path
    import stat
    import zlib

    folder = os.path.join(os.environ.get("TMPDIR") or "/tmp", f"smriti-{os.getuid()}")
    tag = format(zlib.crc32(os.path.abspath(data).encode("utf-8", "surrogatepass")), "08x")
    if create:
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        except OSError:
            return None
    try:
        st = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    path = os.path.join(folder, f"{tag}.sock")
    return path if len(path.encode()) < 100 else None


def _failed_marker(data: str) -> str:
    return os.path.join(_dir(data), "server.failed")


def enabled() -> bool:
    if os.environ.get("SMRITI_HOOK_SERVER", "").strip().lower() in {"0", "false", "no", "off"}:
        return False
    return hasattr(os, "posix_spawn") or sys.platform != "win32"


# ---- client -------------------------------------------------------------------------------


class Unavailable(Exception):
    """No server answered (none running, or it is restarting)."""


def request(data: str, req: dict, timeout: float) -> dict:
    try:
        import _socket as socket  # the C module: `socket` costs ~3 ms of imports a hook does not need
    except ImportError:
        import socket  # type: ignore[no-redef]

    path = socket_path(data)
    if path is None:
        raise Unavailable("no safe place for the server's socket")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(max(0.05, timeout))
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError, NotADirectoryError) as exc:
            raise Unavailable(str(exc)) from None
        sock.sendall(leanjson.dumps(req).encode("utf-8", "surrogatepass") + b"\n")
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        sock.close()
    if not chunks:
        raise Unavailable("the server closed the connection")
    answer = leanjson.loads(b"".join(chunks))
    if not isinstance(answer, dict) or answer.get("restart"):
        raise Unavailable("the server is restarting")
    return answer


def may_spawn(data: str) -> bool:
    try:
        import time

        return time.time() - os.stat(_failed_marker(data)).st_mtime > SPAWN_BACKOFF_SECONDS
    except OSError:
        return True


def spawn(data: str) -> None:
    from smriti.hooks.detach import spawn_detached

    spawn_detached([sys.executable, "-m", "smriti.hooks.server", "--data", data])


def _lock_held(data: str) -> bool:
    import fcntl

    try:
        fd = os.open(os.path.join(_dir(data), "server.lock"), os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def stop(data: str, wait: float = 10.0) -> bool:
    """Ask the server of `data` to exit and wait until it has (tests and benchmarks; otherwise it exits when idle).
    A server that is still starting (lock taken, socket not bound yet) is waited for. True if one ran."""
    import time

    deadline = time.monotonic() + wait
    asked = False
    while time.monotonic() < deadline:
        if not asked:
            try:
                request(data, {"op": "shutdown"}, timeout=max(0.1, deadline - time.monotonic()))
                asked = True
            except (Unavailable, OSError, ValueError):
                if not _lock_held(data):
                    return False  # none running, none starting
        elif not _lock_held(data):
            return True
        time.sleep(0.02)
    return asked


# ---- server -------------------------------------------------------------------------------


def _code_stamp() -> dict[str, int]:
    out = {}
    for name, mod in list(sys.modules.items()):
        if not (name == "smriti" or name.startswith("smriti.")):
            continue
        f = getattr(mod, "__file__", None)
        if f:
            try:
                out[f] = os.stat(f).st_mtime_ns
            except OSError:
                out[f] = -1
    return out


def _code_changed(stamp: dict[str, int]) -> bool:
    for f, mtime in stamp.items():
        try:
            if os.stat(f).st_mtime_ns != mtime:
                return True
        except OSError:
            return True
    return False


def serve(data: str, idle: float = IDLE_SECONDS) -> int:
    import fcntl
    import signal
    import socket
    from pathlib import Path

    from smriti.hooks.log import log_failure
    from smriti.hooks.recall import IndexNotReady, NoStore, Recaller, warm

    data = os.path.abspath(data)
    os.chdir("/")  # a long-lived process must not pin the project folder it was started from
    os.makedirs(_dir(data), mode=0o700, exist_ok=True)
    lock_fd = os.open(os.path.join(_dir(data), "server.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return 0  # another server owns this data dir
    path = socket_path(data, create=True)
    if path is None:
        return 0
    try:
        recaller = Recaller(Path(data), rebuild_index=True)
        warm(recaller)
    except NoStore:
        return 0
    except Exception as exc:
        log_failure(data, "server", "start", f"recall server could not start: {type(exc).__name__}: {exc}")
        with open(_failed_marker(data), "w"):
            pass
        return 1
    try:
        os.unlink(_failed_marker(data))
    except OSError:
        pass
    code = _code_stamp()
    try:
        os.unlink(path)  # a stale socket of a server that died (we hold the lock)
    except OSError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o177)
    try:
        listener.bind(path)
    finally:
        os.umask(old_umask)
    listener.listen(64)
    listener.settimeout(idle)
    stopping = False
    released: list[bool] = []

    def release() -> None:
        if released:
            return
        released.append(True)
        listener.close()
        try:
            os.unlink(path)
        except OSError:
            pass
        os.close(lock_fd)  # releases the flock

    def on_term(_signo: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_term)
    with open(os.path.join(_dir(data), "server.pid"), "w") as fh:
        fh.write(str(os.getpid()))
    try:
        while not stopping:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                break  # idle
            with conn:
                conn.settimeout(10)
                try:
                    req = _read_request(conn)
                except (OSError, ValueError):
                    continue
                op = req.get("op")
                if op == "shutdown":
                    stopping = True
                    reply: dict = {"ok": True}
                elif _code_changed(code):
                    stopping = True
                    reply = {"ok": False, "restart": True}
                elif op == "ping":
                    reply = {"ok": True, "pid": os.getpid()}
                else:
                    try:
                        recaller.refresh()
                        reply = recaller.answer(req)
                    except NoStore:
                        stopping = True
                        reply = {"ok": True, "context": "", "items": [], "excluded": None}
                    except IndexNotReady as exc:
                        reply = {"ok": False, "error": str(exc)}
                    except Exception as exc:  # report, keep serving
                        reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
                if stopping:
                    # Free the socket and the lock before answering, so a client that respawns a
                    # server right away gets a working one.
                    release()
                try:
                    conn.sendall(leanjson.dumps(reply).encode("utf-8", "surrogatepass"))
                except OSError:
                    pass
    finally:
        release()
        recaller.close()
    return 0


def _read_request(conn: object) -> dict:
    buf = b""
    while b"\n" not in buf:
        chunk = conn.recv(65536)  # type: ignore[attr-defined]
        if not chunk:
            break
        buf += chunk
        if len(buf) > MAX_REQUEST_BYTES:
            raise ValueError("request too large")
    req = leanjson.loads(buf.split(b"\n", 1)[0] or b"{}")
    if not isinstance(req, dict):
        raise ValueError("request is not an object")
    return req


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m smriti.hooks.server", description="smriti's warm recall server (started by hooks)."
    )
    ap.add_argument("--data", required=True)
    ap.add_argument("--idle", type=float, default=float(os.environ.get("SMRITI_HOOK_SERVER_IDLE") or IDLE_SECONDS))
    args = ap.parse_args(argv)
    return serve(args.data, args.idle)


if __name__ == "__main__":
    sys.exit(main())
