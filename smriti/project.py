"""Project identity: which project a session belongs to, from its working directory.

A project is the git repository around the cwd, named by its remote URL when it has one (so two
clones on two machines, and every worktree of one clone, are the same project), else by the git
root path; outside git it is the cwd itself. Never the folder's basename alone: two `api/` folders
are not one project. Git's files are read directly (no subprocess) because ingest resolves many
cwds and must stay fast.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath, PureWindowsPath


@dataclass(frozen=True)
class Project:
    key: str  # stable identity: normalised remote ("github.com/org/repo") or an absolute path
    name: str  # display name ("repo")
    root: str | None = None  # git root on this machine, when known
    remote: str | None = None  # remote URL as configured


_SCP_LIKE = re.compile(r"^(?:[\w.-]+@)?([\w.-]+):(?!//)(.+)$")


def normalize_remote(url: str) -> str:
    """`git@github.com:Org/Repo.git`, `https://user@github.com/Org/Repo` → `github.com/org/repo`."""
    url = url.strip()
    m = re.match(r"^[a-z][a-z0-9+.-]*://(?:[^@/]*@)?([^/:]+)(?::\d+)?/(.+)$", url, re.I)
    if m:
        host, path = m.group(1), m.group(2)
    else:
        m2 = _SCP_LIKE.match(url)
        if not m2:
            return url.rstrip("/").removesuffix(".git")
        host, path = m2.group(1), m2.group(2)
    path = path.strip("/").removesuffix(".git")
    return f"{host.lower()}/{path.lower()}"


def _git_dir(root: Path) -> Path | None:
    dot = root / ".git"
    if dot.is_dir():
        return dot
    if dot.is_file():  # worktree or submodule: "gitdir: <path>"
        try:
            line = dot.read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            return None
        if line.startswith("gitdir:"):
            target = Path(line[len("gitdir:") :].strip())
            return target if target.is_absolute() else (root / target).resolve()
    return None


def _common_dir(git_dir: Path) -> Path:
    common = git_dir / "commondir"
    if common.is_file():
        try:
            rel = common.read_text(encoding="utf-8").strip()
            return (git_dir / rel).resolve()
        except OSError:
            pass
    return git_dir


def _remote_url(common: Path) -> str | None:
    import configparser  # ~2 ms the prompt hook skips when the cwd is no git repo or is cached

    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read(common / "config", encoding="utf-8")
    except (configparser.Error, OSError, UnicodeDecodeError):
        return None
    remotes = [s for s in parser.sections() if s.startswith('remote "')]
    preferred = ['remote "origin"', 'remote "upstream"', *sorted(remotes)]
    for section in preferred:
        if parser.has_option(section, "url"):
            return parser.get(section, "url")
    return None


def display_name(path: str) -> str:
    pure = PureWindowsPath(path) if re.match(r"^[A-Za-z]:[\\/]", path) else PurePosixPath(path)
    return pure.name or path


@lru_cache(maxsize=4096)
def resolve(cwd: str | None) -> Project | None:
    if not cwd:
        return None
    path = Path(cwd)
    try:
        exists = path.is_dir()
    except OSError:
        exists = False
    if exists:
        for cand in (path, *path.parents):
            git_dir = _git_dir(cand)
            if git_dir is None:
                continue
            # A worktree's git dir lives inside the main repo's: name the project by the main root.
            common = _common_dir(git_dir)
            main_root = common.parent if common.name == ".git" else cand
            remote = _remote_url(common)
            if remote:
                key = normalize_remote(remote)
                return Project(key=key, name=key.rsplit("/", 1)[-1], root=str(main_root), remote=remote)
            return Project(key=str(main_root), name=main_root.name, root=str(main_root))
    # Not on this machine (a teammate's path, a deleted checkout) or not in git: the cwd itself.
    return Project(key=cwd.rstrip("/") or cwd, name=display_name(cwd.rstrip("/") or cwd))
