"""The few git operations sharing needs, through the `git` command (no library): find the repo,
its default branch, and read committed files without touching the working tree."""

from __future__ import annotations

import hashlib
import os
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from smriti.errors import InvalidInput, SmritiError

KNOWLEDGE_DIR = ".smriti/knowledge"


# A fetch that hangs (a dead network, a server that never answers) must not hold sync for long:
# after this, sync warns and reads the local ref.
FETCH_TIMEOUT_S = 60


def _git(
    root: Path,
    *args: str,
    input: bytes | None = None,
    check: bool = True,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[bytes]:
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), *args], input=input, capture_output=True, timeout=timeout, env=env
        )
    except FileNotFoundError:
        raise SmritiError("git is not installed (or not on PATH); sharing needs it") from None
    if check and proc.returncode != 0:
        raise SmritiError(f"git {' '.join(args[:2])} failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc


def repo_root(start: Path | None = None) -> Path:
    """The git work tree around `start` (default: the current directory)."""
    start = (start or Path.cwd()).resolve()
    if not start.exists():
        raise InvalidInput(f"{start} does not exist")
    proc = _git(start if start.is_dir() else start.parent, "rev-parse", "--show-toplevel", check=False)
    if proc.returncode != 0:
        raise InvalidInput(f"{start} is not inside a git repository (smriti shares knowledge through one)")
    return Path(proc.stdout.decode().strip())


def default_ref(root: Path) -> str:
    """The team's default branch as the remote has it: origin/HEAD's target, else `origin/main`,
    else the local `main` (a repo without a remote), else the same for `master`.

    The remote-tracking branch comes before the local one: it is what was merged after review
    (a local `main` may hold unpushed, unreviewed commits), it is what a repo cloned with
    origin/HEAD uses anyway, and a `git fetch` is enough to see it. A repo whose origin/HEAD was
    never set (created with `git init` + `git push`, or cloned while empty) is common.
    """
    proc = _git(root, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD", check=False)
    if proc.returncode == 0:
        return proc.stdout.decode().strip().removeprefix("refs/remotes/")
    for ref in ("origin/main", "main", "origin/master", "master"):
        if _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False).returncode == 0:
            return ref
    raise InvalidInput(
        f"{root} has no origin/HEAD and no main branch: pass --ref BRANCH (or --worktree to read the files on disk)"
    )


def remote_of(root: Path, ref: str | None) -> str | None:
    """The remote a sync of `ref` reads through: `origin` for the default branch, the first part of
    a remote-tracking ref (`upstream/release`), None for a local branch, a tag or a commit (there
    is nothing to fetch for those) or when the repo has no such remote."""
    proc = _git(root, "remote", check=False)
    remotes = set(proc.stdout.decode(errors="replace").split()) if proc.returncode == 0 else set()
    if ref is None:
        return "origin" if "origin" in remotes else None
    head = ref.removeprefix("refs/remotes/").split("/", 1)[0]
    return head if "/" in ref and head in remotes else None


def fetch(root: Path, remote: str) -> str | None:
    """`git fetch` one remote so sync sees what teammates pushed. None when it worked, else why not
    (offline, no access, a timeout): the caller warns and reads the ref as it is locally.

    Never prompts: a credential prompt in the middle of `smriti sync` (or of a background run) would
    hang it, so a remote that needs one fails fast and the warning says so."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        proc = _git(root, "fetch", "--quiet", remote, check=False, env=env, timeout=FETCH_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"git fetch {remote} took longer than {FETCH_TIMEOUT_S} s"
    if proc.returncode != 0:
        lines = [line.strip() for line in proc.stderr.decode(errors="replace").splitlines() if line.strip()]
        # git's first "fatal:" line names the cause; what follows is generic advice.
        detail = next((line for line in lines if line.startswith(("fatal:", "error:"))), lines[0] if lines else "")
        return f"git fetch {remote} failed: {detail or f'exit {proc.returncode}'}"
    return None


def resolve_commit(root: Path, ref: str) -> str:
    proc = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
    if proc.returncode != 0:
        raise InvalidInput(f"no such ref {ref!r} in {root}")
    return proc.stdout.decode().strip()


@dataclass(frozen=True)
class TreeEntry:
    mode: str
    kind: str  # blob, tree, commit
    sha: str
    size: int | None
    path: str  # relative to the repo root


def knowledge_tree(root: Path, commit: str) -> list[TreeEntry]:
    """Every entry under .smriti/knowledge at a commit (with blob sizes, read before any content)."""
    proc = _git(root, "ls-tree", "-r", "-z", "--long", "--full-tree", commit, "--", KNOWLEDGE_DIR)
    out = []
    for record in proc.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, path = record.partition(b"\t")
        mode, kind, sha, size = meta.decode().split()
        out.append(TreeEntry(mode, kind, sha, int(size) if size.isdigit() else None, path.decode("utf-8", "replace")))
    return out


def stream_blobs(root: Path, shas: list[str]) -> Iterator[tuple[str, bytes | None]]:
    """Contents of many blobs from one `git cat-file --batch` call, as git writes them: (sha,
    contents) in the order asked, None for a blob git does not have. The caller works on each blob
    while git (a process of its own, on the other core where there is one) reads and inflates the
    next; git starts on this call, not on the first `next`. The iterator raises SmritiError if git
    fails or stops early."""
    if not shas:
        return iter(())
    import tempfile

    errors = tempfile.TemporaryFile()  # not a pipe: git must never block on it while stdout is read
    try:
        proc = subprocess.Popen(
            ["git", "-C", str(root), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
        )
    except FileNotFoundError:
        errors.close()
        raise SmritiError("git is not installed (or not on PATH); sharing needs it") from None
    assert proc.stdin is not None
    # Written from a thread: the request outgrows a pipe's buffer, and git blocks on a full stdout
    # until it is read here. The thread only waits on the pipe (no GIL held).
    writer = threading.Thread(target=_write_all, args=(proc.stdin, ("\n".join(shas) + "\n").encode()), daemon=True)
    writer.start()
    return _blob_stream(proc, writer, errors, shas)


def _blob_stream(
    proc: subprocess.Popen[bytes], writer: threading.Thread, errors: IO[bytes], shas: list[str]
) -> Iterator[tuple[str, bytes | None]]:
    assert proc.stdout is not None
    out = proc.stdout
    finished = False
    try:
        for sha in shas:
            header = out.readline()
            if not header.endswith(b"\n"):
                break  # git stopped early: said below
            parts = header.split()
            if len(parts) < 3 or parts[1] == b"missing":
                yield sha, None
                continue
            size = int(parts[2])
            data = out.read(size)
            if len(data) < size or out.read(1) != b"\n":
                break
            yield sha, data
        else:
            finished = True
    finally:
        if not finished:
            proc.kill()
        out.close()
        writer.join()
        code = proc.wait()
        errors.seek(0)
        stderr = errors.read()
        errors.close()
    if not finished or code != 0:
        raise SmritiError(f"git cat-file --batch failed: {stderr.decode(errors='replace').strip()}")


def _write_all(pipe: IO[bytes], data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, OSError):  # git died: the reader says so
        pass


def object_format(root: Path) -> str:
    """The repo's object hash: "sha1" (almost always) or "sha256"."""
    proc = _git(root, "rev-parse", "--show-object-format", check=False)
    fmt = proc.stdout.decode().strip() if proc.returncode == 0 else ""
    return fmt if fmt in ("sha1", "sha256") else "sha1"


def blob_id(data: bytes, fmt: str = "sha1") -> str:
    """The id git gives a blob with these bytes (`git hash-object`), computed without git."""
    h = hashlib.new(fmt)
    h.update(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def user_name(root: Path) -> str | None:
    proc = _git(root, "config", "user.name", check=False)
    name = proc.stdout.decode(errors="replace").strip()
    return name or None


def hooks_dir(root: Path) -> Path:
    proc = _git(root, "rev-parse", "--git-path", "hooks")
    path = Path(proc.stdout.decode().strip())
    return path if path.is_absolute() else root / path


def last_authors(root: Path, commit: str, paths: set[str]) -> dict[str, str]:
    """path → "Name <email>" of the commit that added or last changed it, as of `commit` (one
    `git log` over the knowledge folder's history; merges list no files, so the author of the
    change itself counts). The name is git's, so it is what the team's git host vouches for, not
    what a file says."""
    if not paths:
        return {}
    proc = _git(root, "log", "-z", "--format=%x01%an <%ae>", "--name-only", commit, "--", KNOWLEDGE_DIR, check=False)
    if proc.returncode != 0:
        return {}
    out: dict[str, str] = {}
    author = None
    # tokens split on NUL: "\x01Name <email>" opens a commit, then its paths (the first after a newline)
    for token in proc.stdout.split(b"\0"):
        if token.startswith(b"\x01"):
            author = token[1:].decode("utf-8", "replace")
            continue
        path = token.lstrip(b"\n").decode("utf-8", "replace")
        if path and author is not None and path in paths and path not in out:
            out[path] = author
            if len(out) == len(paths):
                break
    return out
