"""Start a background process that outlives the hook: the recorder (smriti.hooks.record) and the
warm recall server (smriti.hooks.server).

Its own module so that run (which starts both) and server (whose client starts the server) share
it without importing each other. Lean like the rest of the prompt hook's path: `os` only, and
`subprocess` only where posix_spawn cannot do the job.
"""

from __future__ import annotations

import os


def spawn_detached(args: list[str]) -> None:
    """Start `args` in its own session with stdin/stdout/stderr on /dev/null, and do not wait.

    posix_spawn (no `subprocess` import, ~5 ms saved) where available. Descriptors this process
    inherited from the agent are made non-inheritable first, so the background process never
    holds the agent's pipes open.
    """
    if hasattr(os, "posix_spawn"):
        try:
            for name in os.listdir("/dev/fd"):
                fd = int(name)
                if fd > 2:
                    try:
                        os.set_inheritable(fd, False)
                    except OSError:
                        pass
        except (OSError, ValueError):
            pass
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
        ]
        try:
            os.posix_spawn(args[0], args, dict(os.environ), file_actions=actions, setsid=True)
            return
        except NotImplementedError:
            pass  # no POSIX_SPAWN_SETSID on this platform
    import subprocess

    flags = getattr(subprocess, "DETACHED_PROCESS", 0) | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    subprocess.Popen(
        args,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        creationflags=flags,
        close_fds=True,
    )
